// SPDX-License-Identifier: MIT
/*
 * ENET driver: the MDIO controller and the PHY (docs/mdio.md §3, §4, §11;
 * docs/enet.md §5). The MDIO bus core (mdio.h) drives the ENET MDIO block
 * through these ops over MMIO: clear EIR.MII, write MMFR, test EIR.MII,
 * read MMFR[15:0]; irq mode routes EIR.MII to int0 with EIMR.MII. The PHY
 * (phy.h) is found on the bus at create, started at open and stopped at
 * stop; its link callback is fec's adjust_link: carrier on or off, and the
 * resolved speed and duplex program ECR.SPEED, RCR.RMII_10T and TCR.FDEN
 * (with a controller restart when they change, as Linux's
 * fec_enet_adjust_link does). A board without PHY (a MAC wired to a
 * switch: DT fixed-link) has a fixed link instead.
 *
 * The MDC clock (MSCR) is set up as fec_enet_mii_init does with the fix
 * for the MSCR-write frame (docs/napi.md §6.2, docs/mdio.md §3.2): MMFR = 0
 * first, then MSCR, then clear EIR.MII; again after every ECR.RESET (which
 * zeroes MSCR), under ethdrv_mdio_lock() so no frame is in flight.
 */
#include <errno.h>
#include <stdio.h>

#include "ethdrv/log.h"
#include "ethdrv/mii.h"
#include "fec_priv.h"

ETHDRV_LOG_MODULE(fec);

#define FEC_MDC_MAX_HZ 2500000u /* IEEE 802.3 22.2.2.13 */
#define FEC_MSCR_MII_SPEED ETHDRV_GENMASK(6, 1)
#define FEC_MSCR_DIS_PRE ETHDRV_BIT(7)
#define FEC_MSCR_HOLDTIME ETHDRV_GENMASK(10, 8)
#define FEC_MMFR_ST ETHDRV_GENMASK(31, 30)
#define FEC_MMFR_OP ETHDRV_GENMASK(29, 28)
#define FEC_MMFR_PA ETHDRV_GENMASK(27, 23)
#define FEC_MMFR_RA ETHDRV_GENMASK(22, 18)
#define FEC_MMFR_TA ETHDRV_GENMASK(17, 16)
#define FEC_MMFR_DATA ETHDRV_GENMASK(15, 0)
#define FEC_MDIO_FRAME_CYCLES 64u /* 32 preamble + 32 frame bits (docs/mdio.md §1.2) */
#define FEC_NS_PER_S 1000000000ull

/* ---- the controller (struct ethdrv_mdio_ops) ---- */

static int fec_mdio_ack(void *ctx)
{
	fec_wr(ctx, FEC_REG_EIR, FEC_EV_MII);
	return 0;
}

/* ST and OP of each frame (docs/mdio.md §1.1); TA is always 10 (docs/mdio.md §3.1). */
static const struct {
	uint8_t st, op;
} fec_mdio_frames[] = {
	[ETHDRV_MDIO_C22_READ] = { 1, 2 }, [ETHDRV_MDIO_C22_WRITE] = { 1, 1 },
	[ETHDRV_MDIO_C45_ADDR] = { 0, 0 }, [ETHDRV_MDIO_C45_WRITE] = { 0, 1 },
	[ETHDRV_MDIO_C45_READ] = { 0, 3 },
};

static int fec_mdio_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	if ((unsigned)f->op >= ETHDRV_ARRAY_SIZE(fec_mdio_frames))
		return -EINVAL;
	fec_wr(ctx, FEC_REG_MMFR,
	       ETHDRV_FIELD_PREP(FEC_MMFR_ST, fec_mdio_frames[f->op].st) |
		       ETHDRV_FIELD_PREP(FEC_MMFR_OP, fec_mdio_frames[f->op].op) |
		       ETHDRV_FIELD_PREP(FEC_MMFR_PA, f->addr) |
		       ETHDRV_FIELD_PREP(FEC_MMFR_RA, f->reg) | ETHDRV_FIELD_PREP(FEC_MMFR_TA, 2) |
		       ETHDRV_FIELD_PREP(FEC_MMFR_DATA, f->data));
	return 0;
}

static int fec_mdio_test(void *ctx, bool *done)
{
	*done = fec_rd(ctx, FEC_REG_EIR) & FEC_EV_MII;
	return 0;
}

static int fec_mdio_read_data(void *ctx, uint16_t *val)
{
	*val = (uint16_t)ETHDRV_FIELD_GET(FEC_MMFR_DATA, fec_rd(ctx, FEC_REG_MMFR));
	return 0;
}

/* EIMR is shared with the pollers: through the driver's mask (fec_irq.c). */
static int fec_mdio_set_irq(void *ctx, bool on)
{
	if (on)
		fec__imask_set(ctx, FEC_EV_MII);
	else
		fec__imask_clear(ctx, FEC_EV_MII);
	return 0;
}

static const struct ethdrv_mdio_ops fec_mdio_ops = {
	.ack_event = fec_mdio_ack,
	.start = fec_mdio_start,
	.test_event = fec_mdio_test,
	.read_data = fec_mdio_read_data,
	.set_irq = fec_mdio_set_irq,
};

/* ---- MDC ---- */

/* MII_SPEED as fec_enet_mii_init computes it for the asked MDC (the DT
 * clock-frequency, 2.5 MHz by default): MDC = f / ((MII_SPEED + 1) x 2) at
 * most that fast (docs/mdio.md §3.1). 0 would stop MDC, above 63 does not
 * fit: both are refused. */
static uint64_t fec_mii_speed(const struct fec_config *c)
{
	uint64_t bus_hz = c->mdio_bus_hz ? c->mdio_bus_hz : FEC_MDC_MAX_HZ;

	return (c->clk_ipg_hz + 2 * bus_hz - 1) / (2 * bus_hz) - 1;
}

/* MSCR: MII_SPEED, HOLDTIME for 10 ns, DIS_PRE. */
static uint32_t fec_mscr(const struct fec_priv *priv)
{
	const struct fec_config *c = &priv->cfg;
	uint32_t hold = (c->clk_ipg_hz + 99999999u) / 100000000u - 1;
	uint32_t v = ETHDRV_FIELD_PREP(FEC_MSCR_MII_SPEED, (uint32_t)fec_mii_speed(c)) |
		     ETHDRV_FIELD_PREP(FEC_MSCR_HOLDTIME, ETHDRV_MIN(hold, 7u));

	return c->mdio_no_preamble ? v | FEC_MSCR_DIS_PRE : v;
}

/* The shortest frame at @mscr, rounded down: an event sooner is stale
 * (docs/mdio.md §4.2). */
static uint64_t fec_mdio_frame_ns(const struct fec_priv *priv, uint32_t mscr)
{
	uint64_t cycles = FEC_MDIO_FRAME_CYCLES / (mscr & FEC_MSCR_DIS_PRE ? 2 : 1);
	uint64_t div = 2 * ((uint64_t)ETHDRV_FIELD_GET(FEC_MSCR_MII_SPEED, mscr) + 1);

	return cycles * div * FEC_NS_PER_S / priv->cfg.clk_ipg_hz;
}

/* docs/mdio.md §3.2: MMFR = 0 first, so writing MSCR sends no frame; then
 * clear an event left from before. MDC stops first: with MSCR left running
 * (a driver bound again without a reset) the MMFR write itself would start
 * a frame, whose end the first read takes for a stale event. The caller
 * holds the bus or owns it. */
static void fec_mdio_clock(struct fec_priv *priv)
{
	fec_wr(priv, FEC_REG_MSCR, 0);
	fec_wr(priv, FEC_REG_MMFR, 0);
	fec_wr(priv, FEC_REG_MSCR, priv->mscr);
	fec_wr(priv, FEC_REG_EIR, FEC_EV_MII);
}

/* Linux keeps ETHEREN set while the MAC is down "to have MII interrupt stay
 * working" on ENET-MAC parts (docs/mdio.md §3.3); the rings stay idle. */
void fec__mdio_keep_enabled(struct fec_priv *priv)
{
	fec_wr(priv, FEC_REG_ECR, FEC_ECR_ETHEREN);
}

void fec__mdio_hw_lock(struct fec_priv *priv)
{
	ethdrv_mdio_lock(priv->mii_bus);
}

/* After ECR.RESET (MSCR is 0 again, EIMR too): the clock and the irq route. */
void fec__mdio_hw_unlock(struct fec_priv *priv)
{
	fec_mdio_clock(priv);
	fec__imask_clear(priv, ~FEC_EV_MII); /* under imask_lock, as every EIMR write */
	ethdrv_mdio_unlock(priv->mii_bus);
}

/* ---- link (fec_enet_adjust_link) ---- */

static void fec_link_set(struct fec_priv *priv, bool up, unsigned speed, bool full)
{
	bool change = speed && (speed != priv->speed_mbps || full != priv->full_duplex);

	if (!up) {
		/* The MAC keeps running; new frames stop at the carrier. */
		ethdrv_netdev_carrier_off(&priv->dev);
		return;
	}
	if (change) {
		ethdrv_info(&priv->dev, "link %u Mb/s %s duplex: reprogramming the MAC", speed,
			    full ? "full" : "half");
		priv->speed_mbps = speed;
		priv->full_duplex = full;
		if (priv->hw_up)
			fec__restart_hw(priv);
	}
	ethdrv_netdev_carrier_on(&priv->dev);
}

static void fec_adjust_link(void *arg, const struct ethdrv_phy_link *link)
{
	fec_link_set(arg, link->up, link->speed_mbps, link->full_duplex);
}

/* ---- the PHY ---- */

static int fec_phy_probe(struct fec_priv *priv)
{
	struct ethdrv_phy_config pc;
	int ret;

	ethdrv_phy_config_default(&pc);
	ret = ethdrv_phy_find(priv->mii_bus, &pc.addr);
	if (ret == -ENODEV)
		ethdrv_err(&priv->dev, "no PHY on %s: a MAC without PHY needs fixed_link_mbps",
			   ethdrv_mdio_bus_name(priv->mii_bus));
	if (ret)
		return ret;
	pc.drivers = ethdrv_phy_drivers;
	pc.irq_fd = priv->cfg.phy_irq_fd >= 0 ? priv->cfg.phy_irq_fd : -1;
	pc.link_change = fec_adjust_link;
	pc.link_arg = priv;
	return ethdrv_phy_attach(priv->mii_bus, priv->dev.loop, &pc, priv->dev.stats_set,
				 &priv->dev.phydev);
}

int fec__mdio_setup(struct fec_priv *priv)
{
	const struct fec_config *c = &priv->cfg;
	uint64_t mii_speed = fec_mii_speed(c);
	struct ethdrv_mdio_config mc;
	char name[16];
	int ret;

	if (mii_speed < 1 || mii_speed > 63) {
		ethdrv_err(&priv->dev,
			   "MDIO clock %u Hz cannot be made from the %u Hz module clock"
			   " (MII_SPEED %llu, must be 1..63)",
			   c->mdio_bus_hz, c->clk_ipg_hz, (unsigned long long)mii_speed);
		return -EINVAL;
	}
	ethdrv_mdio_config_default(&mc);
	mc.irq_fd = priv->bus.irq_fd[0]; /* int0 carries MII (docs/enet.md §8) */
	mc.c45 = true; /* MMFR ST = 00 sends clause-45 frames (docs/enet.md §5) */
	snprintf(name, sizeof(name), "%s-mdio", priv->cfg.name);
	ret = ethdrv_mdio_bus_new(name, &fec_mdio_ops, priv, &mc, &priv->mii_bus);
	if (ret)
		return ret;
	priv->mscr = fec_mscr(priv);
	fec_mdio_clock(priv);
	ethdrv_mdio_set_min_frame_ns(priv->mii_bus, fec_mdio_frame_ns(priv, priv->mscr));
	fec__mdio_keep_enabled(priv);
	ret = ethdrv_mdio_register_stats(priv->mii_bus, priv->dev.stats_set);
	if (!ret && !priv->cfg.fixed_link_mbps)
		ret = fec_phy_probe(priv);
	return ret;
}

void fec__mdio_free(struct fec_priv *priv)
{
	ethdrv_phy_bus_free(&priv->dev.phydev, &priv->mii_bus);
}

/* At open: no carrier until the PHY (or the fixed link) says so. */
int fec__phy_start(struct fec_priv *priv)
{
	ethdrv_netdev_carrier_off(&priv->dev);
	if (!priv->dev.phydev) {
		fec_link_set(priv, true, priv->cfg.fixed_link_mbps, true);
		return 0;
	}
	return ethdrv_phy_start(priv->dev.phydev);
}

/* At stop: the PHY reports the link down, the carrier goes off. */
void fec__phy_stop(struct fec_priv *priv)
{
	if (priv->dev.phydev)
		ethdrv_phy_stop(priv->dev.phydev);
	ethdrv_netdev_carrier_off(&priv->dev);
}

/* ---- knobs ---- */

static void fec_phy_knobs(struct fec_priv *priv, struct ethdrv_phy_knobs *k)
{
	bool line = priv->cfg.phy_irq_fd >= 0;

	*k = (struct ethdrv_phy_knobs){ .bus = priv->mii_bus,
					.phy = priv->dev.phydev,
					.irq_mode =
						line ? ETHDRV_PHY_IRQ_LINE : ETHDRV_PHY_IRQ_POLL,
					.irq_fd = line ? priv->cfg.phy_irq_fd : -1 };
}

int fec__mdio_set_param(struct fec_priv *priv, const char *key, const char *value)
{
	struct ethdrv_phy_knobs k;

	fec_phy_knobs(priv, &k);
	return ethdrv_phy_knob_set(&k, key, value);
}

int fec__mdio_get_param(struct fec_priv *priv, const char *key, char *buf, size_t size)
{
	struct ethdrv_phy_knobs k;

	fec_phy_knobs(priv, &k);
	return ethdrv_phy_knob_get(&k, key, buf, size);
}
