// SPDX-License-Identifier: MIT
/*
 * gianfar driver: the MII management block as an MDIO bus controller
 * (docs/etsec.md §5), the PHY found on it, and the link the MAC follows
 * (Linux gfar_update_link_state: MACCFG2 IF and duplex, ECNTRL R100M,
 * docs/etsec.md §9).
 *
 * A read is MIIMADD, then MIIMCOM = 0 (the core's ack before every start)
 * and MIIMCOM = READ (the 0 -> 1 edge starts it); a write is MIIMADD and
 * MIIMCON. Completion is MIIMIND with BUSY and NOT_VALID both clear; the
 * bus polls it against a clock, never a count (docs/etsec.md §5).
 * Clause 45 is not sent by this block.
 */
#include <errno.h>
#include <stdio.h>

#include "ethdrv/log.h"
#include "ethdrv/mii.h"
#include "ethdrv/poll.h"
#include "gianfar_priv.h"

ETHDRV_LOG_MODULE(gianfar);

#define MIIM_RESET_TIMEOUT_US 1000u

static int miim_ack(void *ctx)
{
	gfar_wr(ctx, GFAR_MIIMCOM, 0);
	return 0;
}

static int miim_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	gfar_wr(ctx, GFAR_MIIMADD, (uint32_t)f->addr << 8 | f->reg);
	switch (f->op) {
	case ETHDRV_MDIO_C22_READ:
		gfar_wr(ctx, GFAR_MIIMCOM, GFAR_MIIMCOM_READ);
		return 0;
	case ETHDRV_MDIO_C22_WRITE:
		gfar_wr(ctx, GFAR_MIIMCON, f->data);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int miim_test(void *ctx, bool *done)
{
	*done = !(gfar_rd(ctx, GFAR_MIIMIND) & (GFAR_MIIMIND_BUSY | GFAR_MIIMIND_NOTVALID));
	return 0;
}

static int miim_data(void *ctx, uint16_t *val)
{
	*val = (uint16_t)gfar_rd(ctx, GFAR_MIIMSTAT);
	return 0;
}

static const struct ethdrv_mdio_ops gfar_miim_ops = {
	.ack_event = miim_ack,
	.start = miim_start,
	.test_event = miim_test,
	.read_data = miim_data,
};

static int miim_ind(struct gfar_priv *p, uint32_t off, uint32_t *v)
{
	*v = gfar_rd(p, off);
	return 0;
}

/* docs/etsec.md §5: RESET_MGMT, the clock (÷28), wait for BUSY to clear. */
static int miim_reset(struct gfar_priv *p)
{
	uint32_t ind;

	gfar_wr(p, GFAR_MIIMCFG, GFAR_MIIMCFG_RESET);
	gfar_wr(p, GFAR_MIIMCFG, GFAR_MIIMCFG_DIV28);
	return ethdrv_poll_timeout(miim_ind, ind, !(ind & GFAR_MIIMIND_BUSY), 1,
				   MIIM_RESET_TIMEOUT_US, p, GFAR_MIIMIND);
}

/* ---- the link ---- */

/* The MAC follows the PHY: interface mode and duplex (docs/etsec.md §4.2, §4.3). */
void gfar__program_link(struct gfar_priv *p)
{
	uint32_t m2 = GFAR_MACCFG2_INIT & ~(GFAR_MACCFG2_IF | GFAR_MACCFG2_FULL_DUPLEX);
	uint32_t ifm = p->speed_mbps == 1000 ? GFAR_MACCFG2_IF_BYTE : GFAR_MACCFG2_IF_NIBBLE;

	m2 |= ETHDRV_FIELD_PREP(GFAR_MACCFG2_IF, ifm);
	if (p->full_duplex)
		m2 |= GFAR_MACCFG2_FULL_DUPLEX;
	gfar_wr(p, GFAR_MACCFG2, m2);
	gfar_wr(p, GFAR_ECNTRL, GFAR_ECNTRL_INIT | (p->speed_mbps == 100 ? GFAR_ECNTRL_R100M : 0));
	/* The coalescing tick follows the link speed (docs/etsec.md §6). */
	gfar__coal_write(p, GFAR_RX);
	gfar__coal_write(p, GFAR_TX);
}

static void gfar_link(void *arg, const struct ethdrv_phy_link *link)
{
	struct gfar_priv *p = arg;

	if (!link->up) {
		ethdrv_netdev_carrier_off(&p->dev);
		return;
	}
	if (link->speed_mbps &&
	    (link->speed_mbps != p->speed_mbps || link->full_duplex != p->full_duplex)) {
		ethdrv_info(&p->dev, "link %u Mb/s %s duplex", link->speed_mbps,
			    link->full_duplex ? "full" : "half");
		p->speed_mbps = link->speed_mbps;
		p->full_duplex = link->full_duplex;
	}
	if (p->hw_up)
		gfar__program_link(p);
	ethdrv_netdev_carrier_on(&p->dev);
}

int gfar__mdio_setup(struct gfar_priv *priv)
{
	struct ethdrv_mdio_config mc;
	struct ethdrv_phy_config pc;
	char name[16];
	int ret;

	ethdrv_mdio_config_default(&mc);
	snprintf(name, sizeof(name), "%s-miim", priv->cfg.name);
	ret = ethdrv_mdio_bus_new(name, &gfar_miim_ops, priv, &mc, &priv->mii_bus);
	if (!ret)
		ret = miim_reset(priv);
	if (!ret)
		ret = ethdrv_mdio_register_stats(priv->mii_bus, priv->dev.stats_set);
	if (ret || priv->cfg.fixed_link_mbps)
		return ret;
	ethdrv_phy_config_default(&pc);
	ret = ethdrv_phy_find(priv->mii_bus, &pc.addr);
	if (ret) {
		ethdrv_err(&priv->dev, "no PHY on the MIIM bus (%d): give fixed_link_mbps", ret);
		return ret;
	}
	pc.drivers = ethdrv_phy_drivers;
	if (priv->cfg.phy_irq_fd > 0) {
		pc.irq_mode = ETHDRV_PHY_IRQ_LINE;
		pc.irq_fd = priv->cfg.phy_irq_fd;
	}
	pc.link_change = gfar_link;
	pc.link_arg = priv;
	return ethdrv_phy_attach(priv->mii_bus, priv->dev.loop, &pc, priv->dev.stats_set,
				 &priv->dev.phydev);
}

int gfar__phy_start(struct gfar_priv *priv)
{
	struct ethdrv_phy_link fixed = { .up = true,
					 .speed_mbps = priv->cfg.fixed_link_mbps,
					 .full_duplex = true };

	ethdrv_netdev_carrier_off(&priv->dev);
	if (priv->dev.phydev)
		return ethdrv_phy_start(priv->dev.phydev);
	gfar_link(priv, &fixed);
	return 0;
}

void gfar__phy_stop(struct gfar_priv *priv)
{
	if (priv->dev.phydev)
		ethdrv_phy_stop(priv->dev.phydev);
	ethdrv_netdev_carrier_off(&priv->dev);
}

static struct ethdrv_phy_knobs gfar_phy_knobs(struct gfar_priv *p)
{
	bool line = p->cfg.phy_irq_fd > 0;

	return (struct ethdrv_phy_knobs){ .bus = p->mii_bus,
					  .phy = p->dev.phydev,
					  .irq_mode =
						  line ? ETHDRV_PHY_IRQ_LINE : ETHDRV_PHY_IRQ_POLL,
					  .irq_fd = line ? p->cfg.phy_irq_fd : -1 };
}

int gfar__mdio_set_param(struct gfar_priv *priv, const char *key, const char *value)
{
	struct ethdrv_phy_knobs k = gfar_phy_knobs(priv);

	return ethdrv_phy_knob_set(&k, key, value);
}

int gfar__mdio_get_param(struct gfar_priv *priv, const char *key, char *buf, size_t size)
{
	struct ethdrv_phy_knobs k = gfar_phy_knobs(priv);

	return ethdrv_phy_knob_get(&k, key, buf, size);
}
