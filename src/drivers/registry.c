// SPDX-License-Identifier: MIT
/*
 * The driver registry (registry.h): the table of ethdrv's network drivers
 * and, for each, the few lines that turn the common arguments into the
 * driver's own configuration. Adding a driver is one entry here.
 */
#include "registry.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fec.h"
#include "gianfar.h"
#include "lan865x.h"
#include "ravb.h"
#include "oa_tc6.h"

/* ---- LAN8650/1 (lan865x.h) ---- */

static int reg_lan865x_create(const struct ethdrv_driver_args *a, struct ethdrv_netdev **out)
{
	struct lan865x_config cfg = { .name = a->name,
				      .poll_us = a->poll_us,
				      .spi_trace = a->spi_trace };

	memcpy(cfg.mac, a->mac, sizeof(cfg.mac));
	return lan865x_create(&cfg, a->spi, a->loop, a->pool, out);
}

static int reg_lan865x_info(struct ethdrv_netdev *dev, char *buf, size_t size)
{
	struct lan865x_info li;

	lan865x_get_info(dev, &li);
	return snprintf(buf, size,
			"chip=LAN%04x\nchip_rev=%s\ndevid=0x%08x\noa_idver=0x%02x\n"
			"oa_phyid=0x%08x\noa_stdcap=0x%04x\n",
			li.model, li.rev, li.devid, li.idver, li.phyid, li.stdcap);
}

/* ---- NXP ENET (fec.h) ---- */

static int reg_fec_create(const struct ethdrv_driver_args *a, struct ethdrv_netdev **out)
{
	/* No fixed link: the PHY on the MAC's MDIO bus resolves speed and duplex. */
	struct fec_config cfg = { .name = a->name,
				  .rx_ring = a->rx_ring,
				  .tx_ring = a->tx_ring,
				  .pool_extra = a->pool_extra,
				  .phy_irq_fd = a->phy_irq_fd,
				  .soc = a->soc };

	memcpy(cfg.mac, a->mac, sizeof(cfg.mac));
	return fec_create(&cfg, a->mmio, a->loop, out);
}

/* What a ring MAC's probe found: the chip and the link its PHY resolved. */
static int reg_link_info(const char *chip, struct ethdrv_netdev *dev, char *buf, size_t size)
{
	struct ethdrv_link_state st = { 0 };

	ethdrv_netdev_get_link(dev, &st);
	return snprintf(buf, size, "chip=%s\nlink=%s\nspeed=%u\nduplex=%s\n", chip,
			st.up ? "up" : "down", st.speed_mbps, st.full_duplex ? "full" : "half");
}

static int reg_fec_info(struct ethdrv_netdev *dev, char *buf, size_t size)
{
	return reg_link_info("ENET", dev, buf, size);
}

/* ---- Renesas GbEth (ravb.h) ---- */

static int reg_ravb_create(const struct ethdrv_driver_args *a, struct ethdrv_netdev **out)
{
	/* No fixed link: the PHY on the PIR bit-bang bus resolves speed and duplex. */
	struct ravb_config cfg = { .name = a->name,
				   .rx_ring = a->rx_ring,
				   .tx_ring = a->tx_ring,
				   .pool_extra = a->pool_extra,
				   .phy_irq_fd = a->phy_irq_fd };

	memcpy(cfg.mac, a->mac, sizeof(cfg.mac));
	return ravb_create(&cfg, a->mmio, a->loop, out);
}

static int reg_ravb_info(struct ethdrv_netdev *dev, char *buf, size_t size)
{
	return reg_link_info("GbEth", dev, buf, size);
}

static const struct ethdrv_knob_table *const reg_ravb_knobs[] = {
	&ravb_knob_table,
	&ethdrv_phy_knob_table,
	NULL,
};

/* ---- Freescale eTSEC (gianfar.h) ---- */

static int reg_gfar_create(const struct ethdrv_driver_args *a, struct ethdrv_netdev **out)
{
	struct gfar_config cfg = { .name = a->name,
				   .rx_ring = a->rx_ring,
				   .tx_ring = a->tx_ring,
				   .pool_extra = a->pool_extra,
				   .phy_irq_fd = a->phy_irq_fd };

	memcpy(cfg.mac, a->mac, sizeof(cfg.mac));
	return gfar_create(&cfg, a->mmio, a->loop, out);
}

static int reg_gfar_info(struct ethdrv_netdev *dev, char *buf, size_t size)
{
	return reg_link_info("eTSEC", dev, buf, size);
}

/* ---- the table ---- */

static const struct ethdrv_knob_table *const reg_lan865x_knobs[] = {
	&lan865x_knob_table,
	&oa_tc6_knob_table,
	&oa_tc6_hooks_knob_table,
	&ethdrv_phy_knob_table,
	NULL,
};

static const struct ethdrv_knob_table *const reg_fec_knobs[] = {
	&fec_knob_table,
	&ethdrv_phy_knob_table,
	NULL,
};

static const struct ethdrv_knob_table *const reg_gfar_knobs[] = {
	&gfar_knob_table,
	&ethdrv_phy_knob_table,
	NULL,
};

static const struct ethdrv_driver ethdrv_drivers[] = {
	{
		.name = "lan865x",
		.desc = "Microchip LAN8650/1 10BASE-T1S MAC-PHY (OPEN Alliance TC6, SPI)",
		.bus = ETHDRV_BUS_SPI,
		.create = reg_lan865x_create,
		.info = reg_lan865x_info,
		.knobs = reg_lan865x_knobs,
	},
	{
		.name = "fec",
		.desc = "NXP ENET Ethernet controller (Linux fec; MMIO with DMA rings)",
		.bus = ETHDRV_BUS_MMIO,
		.create = reg_fec_create,
		.info = reg_fec_info,
		.knobs = reg_fec_knobs,
	},
	{
		.name = "ravb",
		.desc = "Renesas RZ/G2L GbEth (Linux ravb, GbEth path; MMIO with DMA rings)",
		.bus = ETHDRV_BUS_MMIO,
		.create = reg_ravb_create,
		.info = reg_ravb_info,
		.knobs = reg_ravb_knobs,
	},
	{
		.name = "gianfar",
		.desc = "Freescale eTSEC Ethernet controller (Linux gianfar; MMIO with DMA rings)",
		.bus = ETHDRV_BUS_MMIO,
		.create = reg_gfar_create,
		.info = reg_gfar_info,
		.knobs = reg_gfar_knobs,
	},
};

const struct ethdrv_driver *ethdrv_driver_at(unsigned i)
{
	return i < ETHDRV_ARRAY_SIZE(ethdrv_drivers) ? &ethdrv_drivers[i] : NULL;
}

const struct ethdrv_driver *ethdrv_driver_find(const char *name)
{
	for (unsigned i = 0; name && i < ETHDRV_ARRAY_SIZE(ethdrv_drivers); i++)
		if (!strcmp(ethdrv_drivers[i].name, name))
			return &ethdrv_drivers[i];
	return NULL;
}

int ethdrv_driver_create(const struct ethdrv_driver *drv, const struct ethdrv_driver_args *args,
			 struct ethdrv_netdev **out)
{
	if (!drv || !args || !out)
		return -EINVAL;
	if ((drv->bus == ETHDRV_BUS_SPI && !args->spi) ||
	    (drv->bus == ETHDRV_BUS_MMIO && !args->mmio))
		return -EINVAL;
	return drv->create(args, out);
}

int ethdrv_driver_info(const struct ethdrv_driver *drv, struct ethdrv_netdev *dev, char *buf,
		       size_t size)
{
	if (!drv || !dev || !drv->info) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return drv->info(dev, buf, size);
}
