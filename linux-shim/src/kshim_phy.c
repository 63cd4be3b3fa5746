// SPDX-License-Identifier: MIT
/*
 * kshim: the MDIO bus and enough of phylib for microchip_t1s.c unmodified
 * (Documentation/networking/phy.rst):
 * - mdiobus_register() scans the clause-22 addresses not in phy_mask,
 *   reads PHYSID1/2 (registers 2, 3) and binds a phy_driver whose
 *   phy_id/phy_id_mask match (module_phy_driver()), else none (generic);
 * - phy_connect_direct() attaches and runs phy_init_hw(): the driver's
 *   config_init (for the LAN8650 the AN1760 fix-ups and trim reads);
 * - MMD access: the driver's read_mmd/write_mmd when it has them, else
 *   clause-22 indirect access through registers 13/14 (IEEE 802.3
 *   22.2.4.3.11); phy_modify_mmd writes only when the value changes;
 * - PLCA through the OPEN Alliance registers in MMD 31 0xCA00-0xCA05
 *   (docs/tc6.md §3.6), as ethtool's PLCA_GET_CFG/SET_CFG reach them;
 * - phy_start() reads the status once and reports it through the
 *   adjust_link handler (phylib's once-a-second polling is not run: the
 *   LAN865x PHY driver reports the link always up).
 */
#include "kshim_priv.h"

#define MII_PHYSID1 2
#define MII_PHYSID2 3
#define MII_BMSR 1
#define BMSR_LSTATUS 0x0004
#define MII_MMD_CTRL 13
#define MII_MMD_DATA 14
#define MII_MMD_CTRL_NOINCR 0x4000
/* The OPEN Alliance PLCA registers, MMD 31 0xCA00 + n (docs/tc6.md §3.6). */
enum { PLCA_IDVER_N, PLCA_CTRL0_N, PLCA_CTRL1_N, PLCA_STATUS_N, PLCA_TOTMR_N, PLCA_BURST_N };
#define PLCA_REG(n) (0xCA00u + (n))
#define PLCA_EN_BIT 0x8000 /* CTRL0.EN */
#define PLCA_PST_BIT 0x8000 /* STATUS.PST */

const unsigned long kshim_phy_t1s_p2mp_features[1] = { 0 };

struct mii_bus *mdiobus_alloc(void)
{
	return calloc(1, sizeof(struct mii_bus));
}

void mdiobus_free(struct mii_bus *bus)
{
	free(bus);
}

static const struct phy_driver *phy_match(u32 id)
{
	for (size_t i = 0; i < kshim_phy_driver_count; i++) {
		const struct phy_driver *d = &kshim_phy_drivers[i];

		if ((id & d->phy_id_mask) == (d->phy_id & d->phy_id_mask))
			return d;
	}
	return NULL;
}

int mdiobus_register(struct mii_bus *bus)
{
	mutex_init(&bus->mdio_lock);
	for (int addr = 0; addr < PHY_MAX_ADDR; addr++) {
		struct phy_device *phy;
		int hi, lo;
		u32 id;

		if (bus->phy_mask & (1u << addr))
			continue;
		mutex_lock(&bus->mdio_lock);
		hi = bus->read(bus, addr, MII_PHYSID1);
		lo = hi < 0 ? hi : bus->read(bus, addr, MII_PHYSID2);
		mutex_unlock(&bus->mdio_lock);
		if (hi < 0 || lo < 0) {
			mdiobus_unregister(bus);
			return hi < 0 ? hi : lo;
		}
		id = (u32)(hi & 0xFFFF) << 16 | (u32)(lo & 0xFFFF);
		if ((id & 0x1FFFFFFF) == 0x1FFFFFFF || id == 0)
			continue; /* nothing answers there */
		phy = calloc(1, sizeof(*phy));
		if (!phy) {
			mdiobus_unregister(bus);
			return -ENOMEM;
		}
		phy->mdio.bus = bus;
		phy->mdio.addr = addr;
		phy->phy_id = id;
		phy->drv = phy_match(id);
		bus->phys[addr] = phy;
	}
	return 0;
}

void mdiobus_unregister(struct mii_bus *bus)
{
	for (int addr = 0; addr < PHY_MAX_ADDR; addr++) {
		free(bus->phys[addr]);
		bus->phys[addr] = NULL;
	}
}

int __mdiobus_c45_read(struct mii_bus *bus, int addr, int devnum, u32 regnum)
{
	return bus->read_c45 ? bus->read_c45(bus, addr, devnum, (int)regnum) : -EOPNOTSUPP;
}

int __mdiobus_c45_write(struct mii_bus *bus, int addr, int devnum, u32 regnum, u16 val)
{
	return bus->write_c45 ? bus->write_c45(bus, addr, devnum, (int)regnum, val) : -EOPNOTSUPP;
}

struct phy_device *phy_find_first(struct mii_bus *bus)
{
	for (int addr = 0; addr < PHY_MAX_ADDR; addr++)
		if (bus->phys[addr])
			return bus->phys[addr];
	return NULL;
}

/* ---- MMD access ---- */

static int mmd_indirect(struct phy_device *phy, int devnum, u32 regnum)
{
	struct mii_bus *bus = phy->mdio.bus;
	int a = phy->mdio.addr, ret;

	ret = bus->write(bus, a, MII_MMD_CTRL, (u16)devnum);
	if (!ret)
		ret = bus->write(bus, a, MII_MMD_DATA, (u16)regnum);
	if (!ret)
		ret = bus->write(bus, a, MII_MMD_CTRL, (u16)(devnum | MII_MMD_CTRL_NOINCR));
	return ret;
}

static int mmd_read_locked(struct phy_device *phy, int devnum, u32 regnum)
{
	int ret;

	if (phy->drv && phy->drv->read_mmd)
		return phy->drv->read_mmd(phy, devnum, (u16)regnum);
	ret = mmd_indirect(phy, devnum, regnum);
	return ret ? ret : phy->mdio.bus->read(phy->mdio.bus, phy->mdio.addr, MII_MMD_DATA);
}

static int mmd_write_locked(struct phy_device *phy, int devnum, u32 regnum, u16 val)
{
	int ret;

	if (phy->drv && phy->drv->write_mmd)
		return phy->drv->write_mmd(phy, devnum, (u16)regnum, val);
	ret = mmd_indirect(phy, devnum, regnum);
	return ret ? ret : phy->mdio.bus->write(phy->mdio.bus, phy->mdio.addr, MII_MMD_DATA, val);
}

int phy_read_mmd(struct phy_device *phydev, int devnum, u32 regnum)
{
	int ret;

	mutex_lock(&phydev->mdio.bus->mdio_lock);
	ret = mmd_read_locked(phydev, devnum, regnum);
	mutex_unlock(&phydev->mdio.bus->mdio_lock);
	return ret;
}

int phy_write_mmd(struct phy_device *phydev, int devnum, u32 regnum, u16 val)
{
	int ret;

	mutex_lock(&phydev->mdio.bus->mdio_lock);
	ret = mmd_write_locked(phydev, devnum, regnum, val);
	mutex_unlock(&phydev->mdio.bus->mdio_lock);
	return ret;
}

int phy_modify_mmd(struct phy_device *phydev, int devnum, u32 regnum, u16 mask, u16 set)
{
	int ret;

	mutex_lock(&phydev->mdio.bus->mdio_lock);
	ret = mmd_read_locked(phydev, devnum, regnum);
	if (ret >= 0) {
		u16 old = (u16)ret, val = (u16)((old & ~mask) | set);

		ret = val == old ? 0 : mmd_write_locked(phydev, devnum, regnum, val);
	}
	mutex_unlock(&phydev->mdio.bus->mdio_lock);
	return ret < 0 ? ret : 0;
}

/* ---- attach, start, status ---- */

int phy_connect_direct(struct net_device *dev, struct phy_device *phydev,
		       void (*handler)(struct net_device *), phy_interface_t interface)
{
	int ret = 0;

	if (phydev->attached_dev)
		return -EBUSY;
	phydev->attached_dev = dev;
	phydev->adjust_link = handler;
	phydev->interface = interface;
	dev->phydev = phydev;
	if (phydev->drv && phydev->drv->config_init)
		ret = phydev->drv->config_init(phydev); /* phy_init_hw() */
	if (ret) {
		dev->phydev = NULL;
		phydev->attached_dev = NULL;
	}
	return ret;
}

void phy_attached_info(struct phy_device *phydev)
{
	kshim_log(kshim_netdev_name(phydev->attached_dev),
		  "attached PHY driver %s (mii_bus:phy_addr=%s:%02x, irq=POLL)",
		  phydev->drv ? phydev->drv->name : "Generic PHY", phydev->mdio.bus->id,
		  phydev->mdio.addr);
}

void phy_print_status(struct phy_device *phydev)
{
	if (phydev->link)
		kshim_log(kshim_netdev_name(phydev->attached_dev), "Link is Up - %dMbps/%s",
			  phydev->speed, phydev->duplex == DUPLEX_FULL ? "Full" : "Half");
	else
		kshim_log(kshim_netdev_name(phydev->attached_dev), "Link is Down");
}

static int genphy_read_status(struct phy_device *phydev)
{
	struct mii_bus *bus = phydev->mdio.bus;
	int bmsr;

	mutex_lock(&bus->mdio_lock);
	bmsr = bus->read(bus, phydev->mdio.addr, MII_BMSR); /* latched low: read twice */
	if (bmsr >= 0)
		bmsr = bus->read(bus, phydev->mdio.addr, MII_BMSR);
	mutex_unlock(&bus->mdio_lock);
	if (bmsr < 0)
		return bmsr;
	phydev->link = !!(bmsr & BMSR_LSTATUS);
	phydev->speed = SPEED_10;
	phydev->duplex = DUPLEX_HALF;
	return 0;
}

void phy_start(struct phy_device *phydev)
{
	int ret;

	if (!phydev)
		return;
	phydev->started = true;
	ret = phydev->drv && phydev->drv->read_status ? phydev->drv->read_status(phydev) :
							genphy_read_status(phydev);
	if (ret)
		kshim_log("phy", "read_status failed: %d", ret);
	if (phydev->adjust_link)
		phydev->adjust_link(phydev->attached_dev);
}

void phy_stop(struct phy_device *phydev)
{
	if (!phydev || !phydev->started)
		return;
	phydev->started = false;
	if (phydev->link) {
		phydev->link = 0;
		if (phydev->adjust_link)
			phydev->adjust_link(phydev->attached_dev);
	}
}

void phy_disconnect(struct phy_device *phydev)
{
	if (!phydev)
		return;
	phy_stop(phydev);
	if (phydev->attached_dev)
		phydev->attached_dev->phydev = NULL;
	phydev->attached_dev = NULL;
	phydev->adjust_link = NULL;
}

/* ---- PLCA (OPEN Alliance map in MMD 31) ---- */

int genphy_c45_plca_get_cfg(struct phy_device *phydev, struct phy_plca_cfg *cfg)
{
	int r;

	r = phy_read_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_IDVER_N));
	if (r < 0)
		return r;
	if ((r & 0xFF00) != 0x0A00)
		return -ENODEV; /* not the OPEN Alliance map */
	cfg->version = r & 0xFF;
	r = phy_read_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_CTRL0_N));
	if (r < 0)
		return r;
	cfg->enabled = !!(r & PLCA_EN_BIT);
	r = phy_read_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_CTRL1_N));
	if (r < 0)
		return r;
	cfg->node_cnt = (r >> 8) & 0xFF;
	cfg->node_id = r & 0xFF;
	r = phy_read_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_TOTMR_N));
	if (r < 0)
		return r;
	cfg->to_tmr = r & 0xFF;
	r = phy_read_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_BURST_N));
	if (r < 0)
		return r;
	cfg->burst_cnt = (r >> 8) & 0xFF;
	cfg->burst_tmr = r & 0xFF;
	return 0;
}

/* A 16-bit register of two byte fields, either left as it is (-1). */
static int plca_pair(struct phy_device *phydev, u32 reg, int hi, int lo)
{
	int r;

	if (hi < 0 && lo < 0)
		return 0;
	if (hi < 0 || lo < 0) {
		r = phy_read_mmd(phydev, MDIO_MMD_VEND2, reg);
		if (r < 0)
			return r;
		hi = hi < 0 ? (r >> 8) & 0xFF : hi;
		lo = lo < 0 ? r & 0xFF : lo;
	}
	return phy_write_mmd(phydev, MDIO_MMD_VEND2, reg, (u16)((hi & 0xFF) << 8 | (lo & 0xFF)));
}

int genphy_c45_plca_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *cfg)
{
	int ret = 0;

	/* Off first, on last: the other settings change while PLCA is off. */
	if (cfg->enabled == 0)
		ret = phy_modify_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_CTRL0_N), PLCA_EN_BIT,
				     0);
	if (!ret)
		ret = plca_pair(phydev, PLCA_REG(PLCA_CTRL1_N), cfg->node_cnt, cfg->node_id);
	if (!ret && cfg->to_tmr >= 0)
		ret = phy_write_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_TOTMR_N),
				    (u16)(cfg->to_tmr & 0xFF));
	if (!ret)
		ret = plca_pair(phydev, PLCA_REG(PLCA_BURST_N), cfg->burst_cnt, cfg->burst_tmr);
	if (!ret && cfg->enabled > 0)
		ret = phy_modify_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_CTRL0_N), PLCA_EN_BIT,
				     PLCA_EN_BIT);
	return ret;
}

int genphy_c45_plca_get_status(struct phy_device *phydev, struct phy_plca_status *st)
{
	int r = phy_read_mmd(phydev, MDIO_MMD_VEND2, PLCA_REG(PLCA_STATUS_N));

	if (r < 0)
		return r;
	st->pst = !!(r & PLCA_PST_BIT);
	return 0;
}

int kshim_phy_set_plca(struct phy_device *phydev, const struct phy_plca_cfg *cfg)
{
	if (!phydev || !phydev->drv || !phydev->drv->set_plca_cfg)
		return -EOPNOTSUPP;
	return phydev->drv->set_plca_cfg(phydev, cfg);
}

int kshim_phy_get_plca(struct phy_device *phydev, struct phy_plca_cfg *cfg)
{
	if (!phydev || !phydev->drv || !phydev->drv->get_plca_cfg)
		return -EOPNOTSUPP;
	return phydev->drv->get_plca_cfg(phydev, cfg);
}

/* ---- ethtool and ioctl entry points ---- */

int phy_ethtool_get_link_ksettings(struct net_device *dev, struct ethtool_link_ksettings *ks)
{
	struct phy_device *phy = dev->phydev;

	if (!phy)
		return -ENODEV;
	memset(ks, 0, sizeof(*ks));
	ks->base.speed = (u32)phy->speed;
	ks->base.duplex = (u8)phy->duplex;
	ks->base.autoneg = (u8)phy->autoneg;
	ks->base.phy_address = (u8)phy->mdio.addr;
	return 0;
}

/* The PHY has one mode (10 Mb/s half duplex, no autonegotiation). */
int phy_ethtool_set_link_ksettings(struct net_device *dev, const struct ethtool_link_ksettings *ks)
{
	if (!dev->phydev)
		return -ENODEV;
	return ks->base.speed == SPEED_10 && ks->base.duplex == DUPLEX_HALF &&
			       ks->base.autoneg == AUTONEG_DISABLE ?
		       0 :
		       -EINVAL;
}

/* MII ioctls are not offered to the host: no ifreq crosses the shim. */
int phy_do_ioctl_running(struct net_device *dev, struct ifreq *ifr, int cmd)
{
	(void)dev;
	(void)ifr;
	(void)cmd;
	return -EOPNOTSUPP;
}
