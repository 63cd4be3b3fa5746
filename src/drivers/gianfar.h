/* SPDX-License-Identifier: MIT */
/*
 * A gianfar-style driver for Freescale's eTSEC (docs/etsec.md), on the
 * MMIO bus and DMA region interfaces only (include/ethdrv/mmio.h), like the
 * ENET driver. Design of Linux's gianfar (docs/etsec.md §8.3): an RX
 * poller and a TX-confirmation poller, each owning its IEVENT bits and its
 * half of IMASK under the lock the shared register needs; separate RX, TX
 * and error interrupt lines; BQL; ethtool -C coalescing with net DIM; the
 * core's defer, flush, threaded, busy-poll and budget knobs. With
 * napi_split=0 the single poller of Linux 3.6 (docs/etsec.md §8.2), with
 * its behaviour kept: seed 002's "before".
 */
#ifndef ETHDRV_DRIVERS_GIANFAR_H
#define ETHDRV_DRIVERS_GIANFAR_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/driver.h"
#include "ethdrv/mmio.h"

struct ethdrv_knob_table;
struct ethdrv_loop;
struct ethdrv_pkt_pool;

struct gfar_config {
	const char *name; /* interface name */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address (unicast, non-zero) */
	unsigned rx_ring; /* RX BDs, a power of two 16..4096; 0 = 256 */
	unsigned tx_ring; /* TX BDs, a power of two 16..4096; 0 = 256 */
	unsigned pool_size; /* packets in the DMA region; 0 = the rings + 512 + pool_extra */
	unsigned pool_extra; /* buffers added to the default pool_size for the device's user (the
			       node's fair queue, docs/fq.md §2); ignored with pool_size set */
	unsigned fixed_link_mbps; /* 0: the PHY on the MIIM bus decides; 10/100/1000: none */
	int phy_irq_fd; /* the PHY's INT line (level fd), 0 or -1: polled */
	bool le_bd; /* descriptors little-endian in memory (DMACTRL[LE], docs/etsec.md §3.1) */
	bool combined_napi; /* start with Linux 3.6's single poller (napi_split=0) */
};

/**
 * gfar_create() - create an eTSEC device (not yet open)
 * @cfg: configuration; copied
 * @bus: the controller: window 0x1000, DMA region below 4 GiB, irq_fd[0..2] =
 *       TX, RX, error lines (docs/etsec.md §8.1); copied
 * @loop: the loop the device runs on
 * @out: receives the device
 *
 * Return: 0, -EINVAL (bad config or bus), -ENOSPC (DMA region too small),
 * -ENODEV (no PHY and no fixed link), -ENOMEM.
 */
int gfar_create(const struct gfar_config *cfg, const struct ethdrv_mmio_bus *bus,
		struct ethdrv_loop *loop, struct ethdrv_netdev **out);

/** gfar_get_pool() - the device's packet pool (in the DMA region) */
struct ethdrv_pkt_pool *gfar_get_pool(struct ethdrv_netdev *dev);

/* The driver's knobs (knob.h): ethtool -C coalescing, DIM, napi_split. */
extern const struct ethdrv_knob_table gfar_knob_table;

/** gfar_dma_size() - DMA memory gfar_create() needs for @cfg */
size_t gfar_dma_size(const struct gfar_config *cfg);

#endif /* ETHDRV_DRIVERS_GIANFAR_H */
