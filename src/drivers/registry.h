/* SPDX-License-Identifier: MIT */
/*
 * The driver registry (docs/style.md S3): every network driver of ethdrv in
 * one explicit table (registry.c), chosen by name, without constructor
 * attributes (ixy's ixy_init, DPDK's explicit driver list). A program that
 * hosts "some device" (the ethdrv command's node) creates it through here
 * with the arguments every driver takes and the bus the driver names, and
 * asks it what the probe found, without an if/else per driver.
 */
#ifndef ETHDRV_DRIVERS_REGISTRY_H
#define ETHDRV_DRIVERS_REGISTRY_H

#include <stddef.h>
#include <stdint.h>
#include "ethdrv/driver.h"
#include "ethdrv/enet_soc.h"
#include "ethdrv/mmio.h"

struct ethdrv_loop;
struct ethdrv_pkt_pool;

/* How a driver reaches its hardware (docs/style.md S6). */
enum ethdrv_bus_kind {
	ETHDRV_BUS_SPI, /* struct ethdrv_spi_bus (driver.h): MAC-PHYs such as the LAN8650 */
	ETHDRV_BUS_MMIO, /* struct ethdrv_mmio_bus (mmio.h): DMA ring MACs such as ENET */
};

/* What every driver is created with; a driver ignores what its bus has no use for. */
struct ethdrv_driver_args {
	const char *name; /* interface name, 1..15 chars */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address (unicast, non-zero) */
	struct ethdrv_loop *loop; /* the loop the device runs on */
	struct ethdrv_pkt_pool *pool; /* RX buffers of an SPI device; an MMIO device has
					 its own pool in the DMA region. Either way
					 frames to send come from dev->pool. */
	const struct ethdrv_spi_bus *spi; /* ETHDRV_BUS_SPI: the bus (copied by the driver) */
	const struct ethdrv_mmio_bus *mmio; /* ETHDRV_BUS_MMIO: the bus (copied) */
	unsigned poll_us; /* SPI bus without an IRQ line: poll period; 0 = default */
	const char *spi_trace; /* SPI device: trace from the first transfer to this file, or NULL */
	int phy_irq_fd; /* MMIO MAC: the PHY's INT line (level fd), or -1: the PHY is polled */
	enum ethdrv_enet_soc soc; /* ENET MAC: the i.MX part (ethdrv/enet_soc.h), default imx8m */
	unsigned rx_ring; /* MMIO MAC: RX descriptors; 0 = the driver's default */
	unsigned tx_ring; /* MMIO MAC: TX descriptors; 0 = the driver's default */
	unsigned pool_extra; /* MMIO MAC: buffers its pool holds beyond the driver's own
				need, for the frames its user keeps (the node's fair queue) */
};

/* One driver. */
struct ethdrv_driver {
	const char *name; /* "lan865x", "fec": what a device spec selects */
	const char *desc; /* one line for messages and listings */
	enum ethdrv_bus_kind bus; /* the bus args must carry */
	/** Create the device (not yet open); 0 or -errno, as the driver's own create. */
	int (*create)(const struct ethdrv_driver_args *args, struct ethdrv_netdev **out);
	/** "key=value\n" lines of what the probe found; the length, as snprintf. */
	int (*info)(struct ethdrv_netdev *dev, char *buf, size_t size);
	/** Its knob tables (knob.h), NULL-terminated; the core's are not among them. */
	const struct ethdrv_knob_table *const *knobs;
};

/**
 * ethdrv_driver_find() - the driver called @name
 * @name: "lan865x" or "fec"
 *
 * Return: the driver, or NULL for an unknown name.
 */
const struct ethdrv_driver *ethdrv_driver_find(const char *name);

/**
 * ethdrv_driver_at() - the @i-th driver of the table, for listings
 * @i: 0..
 *
 * Return: the driver, or NULL past the end.
 */
const struct ethdrv_driver *ethdrv_driver_at(unsigned i);

/**
 * ethdrv_driver_create() - create a device with driver @drv
 * @drv: from ethdrv_driver_find()
 * @args: the arguments; the bus pointer of drv->bus must be set
 * @out: receives the device (ethdrv_netdev_destroy() frees it)
 *
 * Return: 0, -EINVAL (NULL argument, or no bus of the kind the driver
 * needs), or the driver's -errno.
 * Context: setup, the thread that runs @args->loop.
 */
int ethdrv_driver_create(const struct ethdrv_driver *drv, const struct ethdrv_driver_args *args,
			 struct ethdrv_netdev **out);

/**
 * ethdrv_driver_info() - what the probe of @dev found, as "key=value\n" lines
 * @drv: the driver that created @dev
 * @dev: the device
 * @buf: where the lines go (NUL-terminated, cut at @size)
 * @size: its size
 *
 * Return: the length the lines need, as snprintf (0 when the driver has
 * nothing to say).
 */
int ethdrv_driver_info(const struct ethdrv_driver *drv, struct ethdrv_netdev *dev, char *buf,
		       size_t size);

#endif /* ETHDRV_DRIVERS_REGISTRY_H */
