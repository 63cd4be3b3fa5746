// SPDX-License-Identifier: MIT
/*
 * PHY layer (phy.h): probe by ID, the generic clause-22 driver (genphy),
 * and the link state machine on the event loop (docs/mdio.md §5-§7).
 */
#include <errno.h>
#include <stdlib.h>

#include "ethdrv/log.h"
#include "ethdrv/mii.h"
#include "ethdrv/phy.h"
#include "ethdrv/poll.h"

ETHDRV_LOG_MODULE(phy);

#define PHY_POLL_MS_MAX 60000u
#define PHY_RESET_POLL_US 1000u /* between BMCR reads while resetting */
#define PHY_RESET_TIMEOUT_US 600000u /* phylib's soft-reset bound (docs/mdio.md §7.3) */
#define PHY_NS_PER_MS 1000000u

#define D(f) ETHDRV_STAT_DESC(struct ethdrv_phy_stats, f)
ETHDRV_EXPORT const struct ethdrv_stat_desc ethdrv_phy_stats_desc[] = {
	D(machine_runs), D(irqs),	   D(irqs_foreign), D(link_ups),
	D(link_downs),	 D(aneg_restarts), D(soft_resets),  D(errors),
};
#undef D
ETHDRV_EXPORT const size_t ethdrv_phy_stats_desc_count = ETHDRV_ARRAY_SIZE(ethdrv_phy_stats_desc);

static const char *const phy_state_names[] = {
	[ETHDRV_PHY_DOWN] = "down",	[ETHDRV_PHY_READY] = "ready",
	[ETHDRV_PHY_UP] = "up",		[ETHDRV_PHY_RUNNING] = "running",
	[ETHDRV_PHY_NOLINK] = "nolink", [ETHDRV_PHY_HALTED] = "halted",
	[ETHDRV_PHY_ERROR] = "error",
};

static const struct ethdrv_phy_driver phy_generic_driver = {
	.name = "Generic PHY",
};

ETHDRV_EXPORT const char *ethdrv_phy_state_name(enum ethdrv_phy_state state)
{
	return (unsigned)state < ETHDRV_ARRAY_SIZE(phy_state_names) ? phy_state_names[state] : "?";
}

ETHDRV_EXPORT const char *ethdrv_phy_driver_name(const struct ethdrv_phy *phy)
{
	return phy->drv->name;
}

ETHDRV_EXPORT void ethdrv_phy_config_default(struct ethdrv_phy_config *cfg)
{
	*cfg = (struct ethdrv_phy_config){
		.irq_mode = ETHDRV_PHY_IRQ_POLL,
		.irq_fd = -1,
		.poll_ms = ETHDRV_PHY_POLL_MS_DEFAULT,
	};
}

/* ---- register access ---- */

static int phy_bad_reg(struct ethdrv_phy *phy, unsigned reg)
{
	ethdrv_err(NULL, "phy %s:%u: register %u out of range 0..31",
		   ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr, reg);
	return -EINVAL;
}

ETHDRV_EXPORT int ethdrv_phy_read(struct ethdrv_phy *phy, unsigned reg, uint16_t *val)
{
	if (reg >= ETHDRV_MDIO_REGS)
		return phy_bad_reg(phy, reg);
	return ethdrv_mdio_read(phy->bus, phy->cfg.addr, reg, val);
}

ETHDRV_EXPORT int ethdrv_phy_write(struct ethdrv_phy *phy, unsigned reg, uint16_t val)
{
	if (reg >= ETHDRV_MDIO_REGS)
		return phy_bad_reg(phy, reg);
	return ethdrv_mdio_write(phy->bus, phy->cfg.addr, reg, val);
}

ETHDRV_EXPORT int ethdrv_phy_read_mmd(struct ethdrv_phy *phy, bool native, unsigned mmd,
				      unsigned reg, uint16_t *val)
{
	if (native)
		return ethdrv_mdio_c45_read(phy->bus, phy->cfg.addr, mmd, reg, val);
	return ethdrv_mdio_mmd_read_indirect(phy->bus, phy->cfg.addr, mmd, reg, val);
}

ETHDRV_EXPORT int ethdrv_phy_write_mmd(struct ethdrv_phy *phy, bool native, unsigned mmd,
				       unsigned reg, uint16_t val)
{
	if (native)
		return ethdrv_mdio_c45_write(phy->bus, phy->cfg.addr, mmd, reg, val);
	return ethdrv_mdio_mmd_write_indirect(phy->bus, phy->cfg.addr, mmd, reg, val);
}

/* Read-modify-write of a clause-22 register. */
static int phy_modify(struct ethdrv_phy *phy, unsigned reg, uint16_t clear, uint16_t set)
{
	uint16_t v;
	int ret = ethdrv_phy_read(phy, reg, &v);

	return ret ? ret : ethdrv_phy_write(phy, reg, (uint16_t)((v & ~clear) | set));
}

/* ---- generic clause-22 driver ---- */

/* ethdrv_poll_timeout() op: one BMCR read. */
static int phy_read_bmcr(struct ethdrv_phy *phy, uint16_t *val)
{
	return ethdrv_phy_read(phy, ETHDRV_MII_BMCR, val);
}

ETHDRV_EXPORT int ethdrv_genphy_soft_reset(struct ethdrv_phy *phy)
{
	uint16_t bmcr = 0;
	int ret = phy_modify(phy, ETHDRV_MII_BMCR, 0, ETHDRV_BMCR_RESET);

	/* IEEE 22.2.4.1.1: RESET self-clears when the reset is done. */
	if (!ret)
		ret = ethdrv_poll_timeout(phy_read_bmcr, bmcr, !(bmcr & ETHDRV_BMCR_RESET),
					  PHY_RESET_POLL_US, PHY_RESET_TIMEOUT_US, phy);
	if (ret == -ETIMEDOUT)
		ethdrv_err(NULL, "phy %s:%u: soft reset did not clear within %u ms",
			   ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr,
			   PHY_RESET_TIMEOUT_US / 1000u);
	return ret;
}

/* Advertise every mode BMSR/ESTATUS offer (docs/mdio.md §6). */
static void phy_compute_adv(struct ethdrv_phy *phy)
{
	uint16_t caps = phy->bmsr_caps, adv = ETHDRV_ADVERTISE_CSMA, adv1000 = 0;

	adv |= caps & ETHDRV_BMSR_10HALF ? ETHDRV_ADVERTISE_10HALF : 0;
	adv |= caps & ETHDRV_BMSR_10FULL ? ETHDRV_ADVERTISE_10FULL : 0;
	adv |= caps & ETHDRV_BMSR_100HALF ? ETHDRV_ADVERTISE_100HALF : 0;
	adv |= caps & ETHDRV_BMSR_100FULL ? ETHDRV_ADVERTISE_100FULL : 0;
	if (phy->cfg.advertise_pause)
		adv |= ETHDRV_ADVERTISE_PAUSE | ETHDRV_ADVERTISE_ASYM;
	adv1000 |= phy->estatus & ETHDRV_ESTATUS_1000_TFULL ? ETHDRV_ADVERTISE_1000FULL : 0;
	adv1000 |= phy->estatus & ETHDRV_ESTATUS_1000_THALF ? ETHDRV_ADVERTISE_1000HALF : 0;
	phy->adv = adv;
	phy->adv1000 = adv1000;
}

/*
 * A PHY without autonegotiation (BMSR.ANEGCAPABLE clear, e.g. a 10BASE-T1S
 * PHY, docs/tc6.md §5.7): force the highest 10/100 mode BMSR offers, as
 * phylib's genphy_setup_forced does with the configured speed (1000BASE-T
 * needs autonegotiation, docs/mdio.md §2.1). Loopback is kept.
 */
static int phy_setup_forced(struct ethdrv_phy *phy)
{
	uint16_t caps = phy->bmsr_caps, ctl = 0;

	if (caps & (ETHDRV_BMSR_100FULL | ETHDRV_BMSR_100HALF))
		ctl = ETHDRV_BMCR_SPEED100 |
		      (caps & ETHDRV_BMSR_100FULL ? ETHDRV_BMCR_FULLDPLX : 0);
	else if (caps & ETHDRV_BMSR_10FULL)
		ctl = ETHDRV_BMCR_FULLDPLX;
	phy->adv = 0;
	phy->adv1000 = 0;
	return phy_modify(phy, ETHDRV_MII_BMCR, (uint16_t)~ETHDRV_BMCR_LOOPBACK, ctl);
}

ETHDRV_EXPORT int ethdrv_genphy_config_aneg(struct ethdrv_phy *phy)
{
	uint16_t mask = ETHDRV_ADVERTISE_ALL | ETHDRV_ADVERTISE_PAUSE | ETHDRV_ADVERTISE_ASYM;
	int ret;

	if (!phy->autoneg)
		return phy_setup_forced(phy);
	phy_compute_adv(phy);
	ret = phy_modify(phy, ETHDRV_MII_ADVERTISE, mask, phy->adv & mask);
	if (!ret && phy->gigabit)
		ret = phy_modify(phy, ETHDRV_MII_CTRL1000,
				 ETHDRV_ADVERTISE_1000FULL | ETHDRV_ADVERTISE_1000HALF,
				 phy->adv1000);
	if (!ret)
		ret = phy_modify(phy, ETHDRV_MII_BMCR, ETHDRV_BMCR_ISOLATE | ETHDRV_BMCR_PDOWN,
				 ETHDRV_BMCR_ANENABLE | ETHDRV_BMCR_ANRESTART);
	if (!ret)
		ethdrv_counter_inc(&phy->st.aneg_restarts);
	return ret;
}

ETHDRV_EXPORT int ethdrv_genphy_update_link(struct ethdrv_phy *phy)
{
	uint16_t bmcr, bmsr = 0;
	bool polling = phy->cfg.irq_mode == ETHDRV_PHY_IRQ_POLL;
	int ret = ethdrv_phy_read(phy, ETHDRV_MII_BMCR, &bmcr);

	if (ret)
		return ret;
	/* docs/mdio.md §5: autoneg is (re)starting; BMSR means nothing yet. */
	if (bmcr & ETHDRV_BMCR_ANRESTART)
		goto done;
	/* docs/mdio.md §5: one read in polling mode with the link up, so a
	 * drop since the last poll (latched low) is seen; otherwise take a
	 * first "up" and confirm a "down" with a second read. */
	if (!polling || !phy->link.up) {
		ret = ethdrv_phy_read(phy, ETHDRV_MII_BMSR, &bmsr);
		if (ret)
			return ret;
		if (bmsr & ETHDRV_BMSR_LSTATUS)
			goto done;
	}
	ret = ethdrv_phy_read(phy, ETHDRV_MII_BMSR, &bmsr);
	if (ret)
		return ret;
done:
	phy->link.up = bmsr & ETHDRV_BMSR_LSTATUS;
	phy->autoneg_complete = bmsr & ETHDRV_BMSR_ANEGCOMPLETE;
	/* Autoneg restarted: "complete" already cleared, "link" not yet. */
	if (phy->autoneg && !phy->autoneg_complete)
		phy->link.up = false;
	return 0;
}

/* docs/mdio.md §6: the highest mode both sides advertise. */
static void phy_resolve(struct ethdrv_phy *phy, uint16_t lpa, uint16_t lpagb)
{
	uint16_t common = phy->adv & lpa;
	uint16_t common_gb = phy->adv1000 & (lpagb >> 2);
	struct ethdrv_phy_link *l = &phy->link;

	l->speed_mbps = 0;
	l->full_duplex = false;
	if (common_gb & ETHDRV_ADVERTISE_1000FULL) {
		l->speed_mbps = 1000;
		l->full_duplex = true;
	} else if (common_gb & ETHDRV_ADVERTISE_1000HALF) {
		l->speed_mbps = 1000;
	} else if (common & (ETHDRV_ADVERTISE_100FULL | ETHDRV_ADVERTISE_100HALF)) {
		l->speed_mbps = 100;
		l->full_duplex = common & ETHDRV_ADVERTISE_100FULL;
	} else if (common & (ETHDRV_ADVERTISE_10FULL | ETHDRV_ADVERTISE_10HALF)) {
		l->speed_mbps = 10;
		l->full_duplex = common & ETHDRV_ADVERTISE_10FULL;
	}
	l->pause = l->full_duplex && (lpa & ETHDRV_ADVERTISE_PAUSE);
	l->asym_pause = l->full_duplex && (lpa & ETHDRV_ADVERTISE_ASYM);
}

ETHDRV_EXPORT int ethdrv_genphy_read_lpa(struct ethdrv_phy *phy)
{
	uint16_t lpa = 0, lpagb = 0;
	int ret;

	if (!phy->autoneg_complete) {
		phy_resolve(phy, 0, 0);
		return 0;
	}
	if (phy->gigabit) {
		ret = ethdrv_phy_read(phy, ETHDRV_MII_STAT1000, &lpagb);
		if (ret)
			return ret;
		if (lpagb & ETHDRV_LPA_1000MSFAIL) {
			ethdrv_err_ratelimited(NULL, "phy %s:%u: master/slave resolution failed",
					       ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr);
			return -ENOLINK;
		}
	}
	ret = ethdrv_phy_read(phy, ETHDRV_MII_LPA, &lpa);
	if (!ret)
		phy_resolve(phy, lpa, lpagb);
	return ret;
}

/* Speed and duplex of a forced (no autoneg) link, from BMCR (docs/mdio.md §2.1). */
static int phy_read_forced(struct ethdrv_phy *phy)
{
	uint16_t bmcr;
	int ret = ethdrv_phy_read(phy, ETHDRV_MII_BMCR, &bmcr);

	if (ret)
		return ret;
	phy->link.full_duplex = bmcr & ETHDRV_BMCR_FULLDPLX;
	phy->link.speed_mbps = bmcr & ETHDRV_BMCR_SPEED1000 ? 1000 :
			       bmcr & ETHDRV_BMCR_SPEED100  ? 100 :
							      10;
	return 0;
}

ETHDRV_EXPORT int ethdrv_genphy_read_status(struct ethdrv_phy *phy)
{
	int ret = ethdrv_genphy_update_link(phy);

	if (ret)
		return ret;
	ret = phy->autoneg ? ethdrv_genphy_read_lpa(phy) : phy_read_forced(phy);
	if (!phy->link.up) {
		phy->link.speed_mbps = 0;
		phy->link.full_duplex = false;
	}
	return ret;
}

/* ---- driver dispatch ---- */

ETHDRV_EXPORT int ethdrv_phy_soft_reset(struct ethdrv_phy *phy)
{
	int ret = phy->drv->soft_reset ? phy->drv->soft_reset(phy) : ethdrv_genphy_soft_reset(phy);

	if (!ret)
		ethdrv_counter_inc(&phy->st.soft_resets);
	return ret;
}

ETHDRV_EXPORT int ethdrv_phy_restart_aneg(struct ethdrv_phy *phy)
{
	return phy->drv->config_aneg ? phy->drv->config_aneg(phy) : ethdrv_genphy_config_aneg(phy);
}

static int phy_read_status(struct ethdrv_phy *phy)
{
	return phy->drv->read_status ? phy->drv->read_status(phy) : ethdrv_genphy_read_status(phy);
}

static const struct ethdrv_phy_driver *phy_match(const struct ethdrv_phy_driver *const *table,
						 uint32_t id)
{
	for (; table && *table; table++)
		if ((id & (*table)->phy_id_mask) == ((*table)->phy_id & (*table)->phy_id_mask))
			return *table;
	return &phy_generic_driver;
}

/* ---- the state machine (docs/mdio.md §7) ---- */

static void phy_report(struct ethdrv_phy *phy)
{
	if (phy->reported && phy->reported_up == phy->link.up)
		return;
	phy->reported = true;
	phy->reported_up = phy->link.up;
	ethdrv_counter_inc(phy->link.up ? &phy->st.link_ups : &phy->st.link_downs);
	if (phy->link.up)
		ethdrv_info(NULL, "phy %s:%u: link up, %u Mb/s %s duplex",
			    ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr, phy->link.speed_mbps,
			    phy->link.full_duplex ? "full" : "half");
	else
		ethdrv_info(NULL, "phy %s:%u: link down", ethdrv_mdio_bus_name(phy->bus),
			    phy->cfg.addr);
	if (phy->cfg.link_change)
		phy->cfg.link_change(phy->cfg.link_arg, &phy->link);
}

/* Stop the timer and the watcher; @quiesce also masks the PHY's interrupt. */
static void phy_disarm(struct ethdrv_phy *phy, bool quiesce)
{
	ethdrv_timer_stop(&phy->timer);
	if (!phy->watching)
		return;
	ethdrv_watch_stop(&phy->watch);
	phy->watching = false;
	if (quiesce && phy->drv->config_intr && phy->drv->config_intr(phy, false))
		ethdrv_counter_inc(&phy->st.errors);
}

/* An MDIO or driver error: the machine stops in ERROR, carrier goes off. */
static void phy_error(struct ethdrv_phy *phy, const char *what, int err)
{
	phy_disarm(phy, false); /* the bus failed: leave the PHY's registers alone */
	ethdrv_counter_inc(&phy->st.errors);
	ethdrv_err_ratelimited(NULL, "phy %s:%u: %s failed, state machine halted: %d",
			       ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr, what, err);
	phy->state = ETHDRV_PHY_ERROR;
	phy->link = (struct ethdrv_phy_link){ 0 };
	phy_report(phy);
}

static void phy_machine(struct ethdrv_phy *phy)
{
	int ret;

	if (phy->state != ETHDRV_PHY_UP && phy->state != ETHDRV_PHY_RUNNING &&
	    phy->state != ETHDRV_PHY_NOLINK)
		return;
	ethdrv_counter_inc(&phy->st.machine_runs);
	ret = phy_read_status(phy);
	if (ret) {
		phy_error(phy, "read_status", ret);
		return;
	}
	phy->state = phy->link.up ? ETHDRV_PHY_RUNNING : ETHDRV_PHY_NOLINK;
	phy_report(phy);
}

static void phy_timer_cb(struct ethdrv_timer *t)
{
	phy_machine(t->data);
}

/* The PHY's line rang: the driver reads (and so releases) its status. */
static void phy_irq_cb(struct ethdrv_watch *w, unsigned events)
{
	struct ethdrv_phy *phy = w->data;
	bool ours = false;
	int ret;

	ethdrv_counter_inc(&phy->st.irqs);
	ret = phy->drv->handle_interrupt(phy, &ours);
	if (ret) {
		phy_error(phy, "handle_interrupt", ret);
		return;
	}
	if (!ours) {
		ethdrv_counter_inc(&phy->st.irqs_foreign);
		return;
	}
	phy_machine(phy);
}

ETHDRV_EXPORT void ethdrv_phy_mac_interrupt(struct ethdrv_phy *phy)
{
	ethdrv_counter_inc(&phy->st.irqs);
	phy_machine(phy);
}

static bool phy_has_irq(const struct ethdrv_phy *phy)
{
	return phy->drv->config_intr && phy->drv->handle_interrupt;
}

/* Start what the mode needs: the poll timer, or the line watcher. */
static int phy_arm(struct ethdrv_phy *phy)
{
	uint64_t period = (uint64_t)phy->cfg.poll_ms * PHY_NS_PER_MS;
	int ret = 0;

	if (phy->cfg.irq_mode == ETHDRV_PHY_IRQ_POLL)
		return ethdrv_timer_start(&phy->timer, period, period);
	if (phy->cfg.irq_mode != ETHDRV_PHY_IRQ_LINE)
		return 0;
	ret = phy->drv->config_intr(phy, true);
	if (!ret)
		ret = ethdrv_watch_start(phy->loop, &phy->watch, phy->cfg.irq_fd, ETHDRV_EV_READ,
					 phy_irq_cb);
	phy->watching = !ret;
	return ret;
}

static bool phy_mode_valid(const struct ethdrv_phy_config *cfg)
{
	if (cfg->irq_mode == ETHDRV_PHY_IRQ_LINE)
		return cfg->irq_fd >= 0;
	return cfg->irq_mode == ETHDRV_PHY_IRQ_POLL || cfg->irq_mode == ETHDRV_PHY_IRQ_MAC;
}

ETHDRV_EXPORT int ethdrv_phy_set_poll_ms(struct ethdrv_phy *phy, unsigned ms)
{
	uint64_t period = (uint64_t)ms * PHY_NS_PER_MS;

	if (!ms || ms > PHY_POLL_MS_MAX)
		return -EINVAL;
	phy->cfg.poll_ms = ms;
	if (!ethdrv_timer_is_active(&phy->timer))
		return 0;
	return ethdrv_timer_start(&phy->timer, period, period);
}

static bool phy_started(const struct ethdrv_phy *phy)
{
	return phy->state == ETHDRV_PHY_UP || phy->state == ETHDRV_PHY_RUNNING ||
	       phy->state == ETHDRV_PHY_NOLINK;
}

ETHDRV_EXPORT int ethdrv_phy_set_irq_mode(struct ethdrv_phy *phy, enum ethdrv_phy_irq_mode mode,
					  int irq_fd)
{
	struct ethdrv_phy_config cfg = phy->cfg;
	int ret;

	cfg.irq_mode = mode;
	cfg.irq_fd = mode == ETHDRV_PHY_IRQ_LINE ? irq_fd : phy->cfg.irq_fd;
	if (!phy_mode_valid(&cfg))
		return -EINVAL;
	if (mode == ETHDRV_PHY_IRQ_LINE && !phy_has_irq(phy))
		return -EOPNOTSUPP;
	if (!phy_started(phy)) {
		phy->cfg = cfg;
		return 0;
	}
	phy_disarm(phy, true);
	phy->cfg = cfg;
	ret = phy_arm(phy);
	if (ret)
		phy_error(phy, "switching the interrupt mode", ret);
	else
		phy_machine(phy); /* catch up with what happened while switching */
	return ret;
}

/* ---- lifetime ---- */

/* PHYSID and the abilities (BMSR, ESTATUS). */
static int phy_read_id(struct ethdrv_phy *phy)
{
	uint16_t id1, id2, bmsr;
	int ret = ethdrv_phy_read(phy, ETHDRV_MII_PHYSID1, &id1);

	if (!ret)
		ret = ethdrv_phy_read(phy, ETHDRV_MII_PHYSID2, &id2);
	if (ret)
		return ret;
	phy->phy_id = (uint32_t)id1 << 16 | id2;
	/* docs/mdio.md §1.3: all ones is the pull-up, all zeros a stuck bus. */
	if (phy->phy_id == ETHDRV_PHY_ID_NONE || !phy->phy_id) {
		ethdrv_err(NULL, "phy %s:%u: no PHY answers (ID 0x%08x)",
			   ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr, phy->phy_id);
		return -ENODEV;
	}
	ret = ethdrv_phy_read(phy, ETHDRV_MII_BMSR, &bmsr);
	if (ret)
		return ret;
	phy->bmsr_caps = bmsr;
	/* phylib clears phydev->autoneg when Autoneg is not supported. */
	phy->autoneg = bmsr & ETHDRV_BMSR_ANEGCAPABLE;
	phy->estatus = 0;
	if (bmsr & ETHDRV_BMSR_ESTATEN)
		ret = ethdrv_phy_read(phy, ETHDRV_MII_ESTATUS, &phy->estatus);
	phy->gigabit = phy->estatus & (ETHDRV_ESTATUS_1000_TFULL | ETHDRV_ESTATUS_1000_THALF);
	return ret;
}

ETHDRV_EXPORT int ethdrv_phy_probe(struct ethdrv_mdio_bus *bus, struct ethdrv_loop *loop,
				   const struct ethdrv_phy_config *cfg, struct ethdrv_phy **out)
{
	struct ethdrv_phy *phy;
	int ret;

	if (!bus || !loop || !cfg || !out || cfg->addr >= ETHDRV_MDIO_ADDRS || !cfg->poll_ms ||
	    cfg->poll_ms > PHY_POLL_MS_MAX || !phy_mode_valid(cfg))
		return -EINVAL;
	phy = calloc(1, sizeof(*phy));
	if (!phy)
		return -ENOMEM;
	phy->bus = bus;
	phy->loop = loop;
	phy->cfg = *cfg;
	phy->drv = &phy_generic_driver;
	ethdrv_timer_init(loop, &phy->timer, phy_timer_cb);
	phy->timer.data = phy;
	phy->watch.data = phy;
	ret = phy_read_id(phy);
	if (ret) {
		free(phy);
		return ret;
	}
	phy->drv = phy_match(cfg->drivers, phy->phy_id);
	phy->state = ETHDRV_PHY_READY;
	ethdrv_info(NULL, "phy %s:%u: ID 0x%08x, driver %s", ethdrv_mdio_bus_name(bus), cfg->addr,
		    phy->phy_id, phy->drv->name);
	*out = phy;
	return 0;
}

ETHDRV_EXPORT int ethdrv_phy_start(struct ethdrv_phy *phy)
{
	int ret;

	if (phy_started(phy))
		return -EBUSY;
	if (phy->cfg.irq_mode == ETHDRV_PHY_IRQ_LINE && !phy_has_irq(phy))
		return -EOPNOTSUPP;
	phy->link = (struct ethdrv_phy_link){ 0 };
	ret = ethdrv_phy_soft_reset(phy);
	if (!ret && phy->drv->config_init)
		ret = phy->drv->config_init(phy);
	if (!ret)
		ret = ethdrv_phy_restart_aneg(phy);
	if (!ret)
		ret = phy_arm(phy);
	if (ret) {
		phy_error(phy, "start", ret);
		return ret;
	}
	phy->state = ETHDRV_PHY_UP;
	phy_machine(phy);
	return 0;
}

ETHDRV_EXPORT void ethdrv_phy_stop(struct ethdrv_phy *phy)
{
	if (!phy_started(phy) && phy->state != ETHDRV_PHY_ERROR)
		return;
	phy_disarm(phy, phy->state != ETHDRV_PHY_ERROR);
	phy->state = ETHDRV_PHY_HALTED;
	phy->link = (struct ethdrv_phy_link){ 0 };
	phy_report(phy);
}

ETHDRV_EXPORT void ethdrv_phy_free(struct ethdrv_phy *phy)
{
	if (!phy)
		return;
	ethdrv_phy_stop(phy);
	free(phy);
}

ETHDRV_EXPORT int ethdrv_phy_register_stats(struct ethdrv_phy *phy, struct ethdrv_stats_set *set)
{
	return ethdrv_stats_add_group(set, "phy", ethdrv_phy_stats_desc,
				      ethdrv_phy_stats_desc_count, &phy->st);
}

ETHDRV_EXPORT int ethdrv_phy_attach(struct ethdrv_mdio_bus *bus, struct ethdrv_loop *loop,
				    const struct ethdrv_phy_config *cfg,
				    struct ethdrv_stats_set *set, struct ethdrv_phy **out)
{
	int ret = ethdrv_phy_probe(bus, loop, cfg, out);

	if (!ret)
		ret = ethdrv_phy_register_stats(*out, set);
	return ret;
}

ETHDRV_EXPORT void ethdrv_phy_bus_free(struct ethdrv_phy **phy, struct ethdrv_mdio_bus **bus)
{
	ethdrv_phy_free(*phy);
	*phy = NULL;
	ethdrv_mdio_bus_free(*bus);
	*bus = NULL;
}

int ethdrv_phy_find(struct ethdrv_mdio_bus *bus, unsigned *addr)
{
	for (unsigned a = 0; a < ETHDRV_MDIO_ADDRS; a++) {
		uint16_t id1, id2;
		int ret = ethdrv_mdio_read(bus, a, ETHDRV_MII_PHYSID1, &id1);

		if (!ret)
			ret = ethdrv_mdio_read(bus, a, ETHDRV_MII_PHYSID2, &id2);
		if (ret)
			return ret;
		if ((id1 != 0xFFFF || id2 != 0xFFFF) && (id1 || id2)) {
			*addr = a;
			return 0;
		}
	}
	return -ENODEV;
}
