// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 framework: the MAC-PHY's internal PHY behind the MDIO
 * bus interface (mdio.h, docs/mdio.md §11), as Linux's oa_tc6 MDIO bus
 * maps it (docs/tc6.md §3.1, §3.2): no MDIO frames, each "frame" is a
 * control transaction done synchronously in start():
 *
 * - clause-22 register r of the PHY at address 0: MMS 0, 0xFF00 + r (the
 *   other addresses are empty and read 0xFFFF, as a bus with one PHY);
 * - a clause-45 address frame only stores (MMD, register); the read or
 *   write that follows goes to the MMS the MMD maps to: 3 (PCS) -> 2,
 *   1 (PMA/PMD) -> 3, 31 (vendor 2, PLCA) -> 4, 7 (AN) -> 5, 13 (power
 *   unit) -> 6; another MMD is -EOPNOTSUPP (oa_tc6_get_phy_c45_mms()).
 *
 * test_event() always finds the frame done, read_data() returns what
 * start() stored, ack_event() has nothing to clear. The PHY (ID 0x0007C1B3
 * on the LAN8650/1, docs/tc6.md §5.1; the generic driver) is probed at the
 * first open, after the chip's bring-up, started at open and stopped at
 * stop; its link changes set the device's carrier.
 *
 * Locks (docs/design.md §1.3): an MDIO call holds the MDIO bus lock, then
 * each control transaction takes the framework's bus lock. Nothing that
 * holds the bus lock (the chip's init, a recovery, the configuration
 * check) makes MDIO calls, so the order is always MDIO lock -> bus lock,
 * also with threaded=1. The PHY layer runs on the loop thread only.
 *
 * The PHY's interrupt (knob phy_irq=1) is STATUS0.PHYINT, unmasked in
 * IMASK0: the poll context sees it in EXST and signals the loop thread
 * (ethdrv_async), where ethdrv_phy_mac_interrupt() runs the state
 * machine (phylib's PHY_MAC_INTERRUPT); its BMSR read acknowledges the
 * PHY. Until then each EXST reads STATUS0 again (PHYINT is read-only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "ethdrv/phy.h"
#include "oa_tc6_priv.h"

ETHDRV_LOG_MODULE(oa_tc6);

#define OA_TC6_PHY_ADDR 0u /* the internal PHY (Linux's phy_find_first finds it there) */
#define OA_TC6_STDCAP_DPRAC ETHDRV_BIT(8) /* direct PHY register access (docs/tc6.md §3.2) */

struct oa_tc6_mdio {
	struct oa_tc6 *tc6; /* the framework */
	struct ethdrv_mdio_bus *bus; /* the bus core over the ops below */
	uint16_t data; /* what the last read returned */
	unsigned c45_mmd; /* MMD of the last clause-45 address frame */
	uint16_t c45_reg; /* and its register */
	struct ethdrv_async phyint; /* PHYINT seen in the poll context -> loop thread */
	bool probed; /* the PHY was looked for (found or not) */
};

/* docs/tc6.md §3.1: the MMS of a clause-45 MMD, or -EOPNOTSUPP. */
static int oa_tc6_c45_mms(unsigned mmd)
{
	switch (mmd) {
	case 3: /* MDIO_MMD_PCS */
		return 2;
	case 1: /* MDIO_MMD_PMAPMD */
		return 3;
	case 31: /* MDIO_MMD_VEND2: PLCA */
		return 4;
	case 7: /* MDIO_MMD_AN */
		return 5;
	case 13: /* MDIO_MMD_POWER_UNIT */
		return 6;
	default:
		return -EOPNOTSUPP;
	}
}

/* ---- the controller ---- */

static int oa_tc6_mdio_ack(void *ctx)
{
	(void)ctx;
	return 0; /* no event latch: the transaction is synchronous */
}

static int oa_tc6_mdio_read_reg(struct oa_tc6_mdio *m, unsigned mms, unsigned addr)
{
	uint32_t v = 0;
	int ret = oa_tc6_read_reg(m->tc6, mms, addr, &v);

	m->data = (uint16_t)v;
	return ret;
}

static int oa_tc6_mdio_c22(struct oa_tc6_mdio *m, const struct ethdrv_mdio_frame *f)
{
	unsigned addr = OA_TC6_REG_PHY_C22_BASE | f->reg;

	if (f->addr != OA_TC6_PHY_ADDR) {
		m->data = 0xFFFF; /* nobody there: the pull-up (docs/mdio.md §1.3) */
		return 0;
	}
	if (f->op == ETHDRV_MDIO_C22_READ)
		return oa_tc6_mdio_read_reg(m, OA_TC6_MMS_STD, addr);
	return oa_tc6_write_reg(m->tc6, OA_TC6_MMS_STD, addr, f->data);
}

static int oa_tc6_mdio_c45(struct oa_tc6_mdio *m, const struct ethdrv_mdio_frame *f)
{
	int mms;

	if (f->op == ETHDRV_MDIO_C45_ADDR) {
		m->c45_mmd = f->reg;
		m->c45_reg = f->data;
		return 0;
	}
	mms = oa_tc6_c45_mms(m->c45_mmd);
	if (mms < 0)
		return mms;
	if (f->addr != OA_TC6_PHY_ADDR) {
		m->data = 0xFFFF;
		return 0;
	}
	if (f->op == ETHDRV_MDIO_C45_READ)
		return oa_tc6_mdio_read_reg(m, (unsigned)mms, m->c45_reg);
	return oa_tc6_write_reg(m->tc6, (unsigned)mms, m->c45_reg, f->data);
}

static int oa_tc6_mdio_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	switch (f->op) {
	case ETHDRV_MDIO_C22_READ:
	case ETHDRV_MDIO_C22_WRITE:
		return oa_tc6_mdio_c22(ctx, f);
	case ETHDRV_MDIO_C45_ADDR:
	case ETHDRV_MDIO_C45_READ:
	case ETHDRV_MDIO_C45_WRITE:
		return oa_tc6_mdio_c45(ctx, f);
	default:
		return -EINVAL;
	}
}

static int oa_tc6_mdio_test(void *ctx, bool *done)
{
	(void)ctx;
	*done = true;
	return 0;
}

static int oa_tc6_mdio_read_data(void *ctx, uint16_t *val)
{
	*val = ((struct oa_tc6_mdio *)ctx)->data;
	return 0;
}

static const struct ethdrv_mdio_ops oa_tc6_mdio_ops = {
	.ack_event = oa_tc6_mdio_ack,
	.start = oa_tc6_mdio_start,
	.test_event = oa_tc6_mdio_test,
	.read_data = oa_tc6_mdio_read_data,
};

/* ---- link and the PHY's interrupt ---- */

static void oa_tc6_link_change(void *arg, const struct ethdrv_phy_link *link)
{
	struct oa_tc6 *tc6 = arg;

	if (link->up)
		ethdrv_netdev_carrier_on(tc6->dev);
	else
		ethdrv_netdev_carrier_off(tc6->dev);
}

/* The poll context saw STATUS0.PHYINT (bus lock held): tell the loop. */
void oa_tc6_mdio_phyint(struct oa_tc6 *tc6)
{
	struct oa_tc6_mdio *m = __atomic_load_n(&tc6->mdio, __ATOMIC_ACQUIRE);

	if (m)
		ethdrv_async_send(&m->phyint);
}

static void oa_tc6_phy_irq(struct ethdrv_async *a)
{
	struct oa_tc6_mdio *m = a->data;
	struct ethdrv_phy *phy = m->tc6->dev->phydev;

	if (phy && phy->cfg.irq_mode == ETHDRV_PHY_IRQ_MAC)
		ethdrv_phy_mac_interrupt(phy);
}

/* ---- lifetime ---- */

static int oa_tc6_mdio_new(struct oa_tc6 *tc6)
{
	struct oa_tc6_mdio *m = calloc(1, sizeof(*m));
	struct ethdrv_mdio_config mc;
	char name[24];
	int ret;

	if (!m)
		return -ENOMEM;
	m->tc6 = tc6;
	m->phyint.fd = -1;
	m->phyint.data = m;
	ethdrv_mdio_config_default(&mc);
	mc.c45 = true;
	mc.poll_delay_us = 0; /* the frame is done when start() returns */
	snprintf(name, sizeof(name), "%s-mdio", ethdrv_netdev_name(tc6->dev));
	ret = ethdrv_mdio_bus_new(name, &oa_tc6_mdio_ops, m, &mc, &m->bus);
	if (!ret)
		ret = ethdrv_mdio_register_stats(m->bus, tc6->dev->stats_set);
	if (!ret)
		ret = ethdrv_async_init(tc6->dev->loop, &m->phyint, oa_tc6_phy_irq);
	__atomic_store_n(&tc6->mdio, m, __ATOMIC_RELEASE);
	return ret;
}

/* Linux's oa_tc6_phy_init: STDCAP.DPRAC, the bus, the PHY at address 0. */
static int oa_tc6_phy_probe(struct oa_tc6 *tc6)
{
	struct ethdrv_phy_config pc;
	uint32_t stdcap = 0;
	int ret;

	tc6->mdio->probed = true;
	ret = oa_tc6_read_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STDCAP, &stdcap);
	if (ret)
		return ret;
	if (!(stdcap & OA_TC6_STDCAP_DPRAC)) {
		ethdrv_warn(tc6->dev, "no direct PHY register access (STDCAP 0x%04x): no PHY",
			    stdcap);
		return 0;
	}
	ethdrv_phy_config_default(&pc);
	pc.addr = OA_TC6_PHY_ADDR;
	pc.mmd_native = true; /* MMDs through the MMS map, not 0xFF0D/0xFF0E */
	pc.drivers = ethdrv_phy_drivers;
	pc.link_change = oa_tc6_link_change;
	pc.link_arg = tc6;
	return ethdrv_phy_attach(tc6->mdio->bus, tc6->dev->loop, &pc, tc6->dev->stats_set,
				 &tc6->dev->phydev);
}

int oa_tc6_phy_start(struct oa_tc6 *tc6)
{
	int ret = 0;

	if (!tc6->mdio)
		ret = oa_tc6_mdio_new(tc6);
	if (!ret && !tc6->mdio->probed)
		ret = oa_tc6_phy_probe(tc6);
	if (ret || !tc6->dev->phydev)
		return ret;
	/* No carrier until the PHY reports the link (phy_start). */
	ethdrv_netdev_carrier_off(tc6->dev);
	return ethdrv_phy_start(tc6->dev->phydev);
}

void oa_tc6_phy_stop(struct oa_tc6 *tc6)
{
	if (tc6->dev->phydev)
		ethdrv_phy_stop(tc6->dev->phydev);
}

void oa_tc6_mdio_free(struct oa_tc6 *tc6)
{
	struct oa_tc6_mdio *m = tc6->mdio;

	if (!m)
		return;
	ethdrv_phy_free(tc6->dev->phydev);
	tc6->dev->phydev = NULL;
	__atomic_store_n(&tc6->mdio, NULL, __ATOMIC_RELEASE);
	ethdrv_async_close(&m->phyint);
	ethdrv_mdio_bus_free(m->bus);
	free(m);
}

/* ---- knobs ---- */

/* phy_irq=1 is STATUS0.PHYINT: unmask it in IMASK0 with the PHY's mode. */
static int oa_tc6_set_phy_irq(struct oa_tc6 *tc6, struct ethdrv_phy_knobs *k, const char *value)
{
	uint32_t mask = __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED);
	bool on = !strcmp(value, "1");
	int ret;

	if (!on && strcmp(value, "0"))
		return -EINVAL;
	ret = ethdrv_phy_knob_set(k, "phy_irq", value);
	if (ret)
		return ret;
	mask = on ? mask & ~OA_TC6_STATUS0_PHYINT : mask | OA_TC6_STATUS0_PHYINT;
	return oa_tc6_apply_imask(tc6, mask);
}

static void oa_tc6_phy_knobs(struct oa_tc6 *tc6, struct ethdrv_phy_knobs *k)
{
	*k = (struct ethdrv_phy_knobs){ .bus = tc6->mdio ? tc6->mdio->bus : NULL,
					.phy = tc6->dev->phydev,
					.irq_mode = ETHDRV_PHY_IRQ_MAC,
					.irq_fd = -1 };
}

int oa_tc6_mdio_set_param(struct oa_tc6 *tc6, const char *key, const char *value)
{
	struct ethdrv_phy_knobs k;

	oa_tc6_phy_knobs(tc6, &k);
	if (!strcmp(key, "phy_irq") && k.phy)
		return oa_tc6_set_phy_irq(tc6, &k, value);
	return ethdrv_phy_knob_set(&k, key, value);
}

int oa_tc6_mdio_get_param(struct oa_tc6 *tc6, const char *key, char *buf, size_t size)
{
	struct ethdrv_phy_knobs k;

	oa_tc6_phy_knobs(tc6, &k);
	return ethdrv_phy_knob_get(&k, key, buf, size);
}
