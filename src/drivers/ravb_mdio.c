// SPDX-License-Identifier: MIT
/*
 * GbEth driver: MDIO bit-banged through PIR (docs/gbeth.md §6) with the
 * core's controller (ethdrv/mdio_bitbang.h): each pin change is a
 * read-modify-write of PIR, as Linux's ravb_mdio_ctrl does. The PHY found on
 * the bus is probed at create (in CONFIG mode, docs/gbeth.md §9.1), started
 * at open, stopped at stop; its link callback programs ECMR.DM, GECMR and
 * clears ECMR.TXF (docs/gbeth.md §9.2 step 5) and drives the carrier.
 */
#include <errno.h>
#include <stdio.h>

#include "ethdrv/log.h"
#include "ravb_priv.h"

ETHDRV_LOG_MODULE(ravb);

/* ---- the pins ---- */

static void pir_set(struct ravb_priv *priv, uint32_t bit, bool on)
{
	ravb_modify(priv, RAVB_PIR, bit, on ? bit : 0);
}

static void pin_mdc(void *ctx, bool level)
{
	pir_set(ctx, PIR_MDC, level);
}

static void pin_dir(void *ctx, bool output)
{
	pir_set(ctx, PIR_MMD, output);
}

static void pin_mdo(void *ctx, bool level)
{
	pir_set(ctx, PIR_MDO, level);
}

static bool pin_mdi(void *ctx)
{
	return ravb_rd(ctx, RAVB_PIR) & PIR_MDI;
}

static const struct ethdrv_mdio_bb_ops ravb_pins = {
	.set_mdc = pin_mdc,
	.set_mdio_dir = pin_dir,
	.set_mdio = pin_mdo,
	.get_mdio = pin_mdi,
};

/* ---- link ---- */

void ravb__mac_link(struct ravb_priv *priv)
{
	uint32_t speed = priv->speed_mbps == 1000 ? 2 : priv->speed_mbps == 100 ? 1 : 0;

	ravb_modify(priv, RAVB_GECMR, GECMR_SPEED, speed << 4);
	ravb_modify(priv, RAVB_ECMR, ECMR_DM | ECMR_TXF, priv->full_duplex ? ECMR_DM : 0);
}

static void ravb_link_set(struct ravb_priv *priv, bool up, unsigned speed, bool full)
{
	if (!up) {
		ethdrv_netdev_carrier_off(&priv->dev);
		return;
	}
	if (speed) {
		priv->speed_mbps = speed;
		priv->full_duplex = full;
	}
	if (priv->hw_up)
		ravb__mac_link(priv);
	ethdrv_netdev_carrier_on(&priv->dev);
}

static void ravb_adjust_link(void *arg, const struct ethdrv_phy_link *link)
{
	ravb_link_set(arg, link->up, link->speed_mbps, link->full_duplex);
}

/* ---- bus and PHY ---- */

int ravb__mdio_setup(struct ravb_priv *priv)
{
	struct ethdrv_phy_config pc;
	struct ethdrv_mdio_config mc;
	char name[16];
	int ret;

	ethdrv_mdio_bb_init(&priv->bb, &ravb_pins, priv, (&priv->cfg)->mdio_half_ns);
	ethdrv_mdio_config_default(&mc);
	snprintf(name, sizeof(name), "%s-mdio", priv->cfg.name);
	ret = ethdrv_mdio_bus_new(name, &ethdrv_mdio_bb_mdio_ops, &priv->bb, &mc, &priv->mii_bus);
	if (!ret)
		ret = ethdrv_mdio_register_stats(priv->mii_bus, priv->dev.stats_set);
	if (ret || priv->cfg.fixed_link_mbps)
		return ret;
	ethdrv_phy_config_default(&pc);
	ret = ethdrv_phy_find(priv->mii_bus, &pc.addr);
	if (ret == -ENODEV)
		ethdrv_err(&priv->dev, "no PHY on %s: a MAC without PHY needs fixed_link_mbps",
			   name);
	if (ret)
		return ret;
	pc.drivers = ethdrv_phy_drivers;
	pc.irq_fd = priv->cfg.phy_irq_fd > 0 ? priv->cfg.phy_irq_fd : -1;
	pc.link_change = ravb_adjust_link;
	pc.link_arg = priv;
	return ethdrv_phy_attach(priv->mii_bus, priv->dev.loop, &pc, priv->dev.stats_set,
				 &priv->dev.phydev);
}

void ravb__mdio_free(struct ravb_priv *priv)
{
	ethdrv_phy_bus_free(&priv->dev.phydev, &priv->mii_bus);
}

int ravb__phy_start(struct ravb_priv *priv)
{
	ethdrv_netdev_carrier_off(&priv->dev);
	if (!priv->dev.phydev) {
		ravb_link_set(priv, true, priv->cfg.fixed_link_mbps, true);
		return 0;
	}
	return ethdrv_phy_start(priv->dev.phydev);
}

void ravb__phy_stop(struct ravb_priv *priv)
{
	if (priv->dev.phydev)
		ethdrv_phy_stop(priv->dev.phydev);
	ethdrv_netdev_carrier_off(&priv->dev);
}
