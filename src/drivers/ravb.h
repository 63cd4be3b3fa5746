/* SPDX-License-Identifier: MIT */
/*
 * Driver for Renesas' GbEth (RZ/G2L family), after the design of Linux's
 * ravb in its GbEth path (docs/gbeth.md): one TX and one RX queue on one
 * interrupt line, one NAPI poller that cleans RX and TX in every poll, the
 * budget counted in packets, the operating modes in the documented order
 * (docs/gbeth.md §9), bit-banged MDIO through PIR via the core's helper
 * (ethdrv/mdio_bitbang.h). It depends only on struct ethdrv_mmio_bus.
 *
 * RX: every descriptor owns a driver buffer of rx_buf bytes in the DMA
 * region; the poller copies each frame (one or several descriptors) into
 * one packet from the device's pool, allocated in poll context, and gives
 * the descriptors straight back (no allocation beyond the pool). The 2021-
 * 2024 driver offered 4080 bytes per descriptor, the 2024 one a 2 KiB page
 * minus its shared info, 1726 bytes (docs/gbeth.md §3.5).
 *
 * poll_mode "pre2024" runs the poll seed 004 started from
 * (docs/gbeth.md §4.4): budget charged per descriptor, an early return
 * without TX reclaim or error counters when the budget is spent, NAPI
 * completed without looking at the result and the interrupts re-armed
 * regardless. "2024" (the default) is the fixed poll (docs/gbeth.md §4.3).
 *
 * No hardware interrupt coalescing exists (docs/gbeth.md §4.2): the
 * ethtool -C knobs are refused; the core's napi_defer_hard_irqs and
 * gro_flush_timeout are the moderation (1 and 20 us by default in the 2024
 * mode, as Linux's GbEth probe sets them; 0 and 0 in pre2024).
 */
#ifndef ETHDRV_DRIVERS_RAVB_H
#define ETHDRV_DRIVERS_RAVB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ethdrv/driver.h"
#include "ethdrv/mmio.h"

struct ethdrv_knob_table;
struct ethdrv_loop;
struct ethdrv_pkt_pool;

/* The driver's knobs (knob.h): poll_mode, rx-buf, rx-checksum. */
extern const struct ethdrv_knob_table ravb_knob_table;

#define RAVB_RX_BUF_PRE2024 4080u /* GBETH_RX_DESC_DATA_SIZE (docs/gbeth.md §3.5) */
#define RAVB_RX_BUF_PAGE 1726u /* a 2 KiB page-pool buffer's data (docs/gbeth.md §3.5) */
#define RAVB_RX_BUF_MIN 64u

enum ravb_poll_mode {
	RAVB_POLL_2024, /* the fixed poll (docs/gbeth.md §4.3) */
	RAVB_POLL_PRE2024, /* seed 004's "before" (docs/gbeth.md §4.4) */
};

struct ravb_config {
	const char *name; /* interface name */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address; all zero: MAHR/MALR (boot loader) */
	unsigned rx_ring; /* RX descriptors, a power of two 16..2048; 0 = 256 */
	unsigned tx_ring; /* TX frames (2 descriptors each), a power of two 16..1024; 0 = 64 */
	unsigned
		rx_buf; /* bytes per RX descriptor, multiple of 8, 64..4080; 0 = RAVB_RX_BUF_PAGE */
	unsigned pool_size; /* packets; 0 = rx_ring + tx_ring + 512 + pool_extra */
	unsigned pool_extra; /* buffers added to the default pool_size for the device's user (the
			       node's fair queue, docs/fq.md §2); ignored with pool_size set */
	unsigned fixed_link_mbps; /* 0: the PHY decides; 10/100/1000: no PHY */
	int phy_irq_fd; /* the PHY's INT line, or -1/0: polled */
	enum ravb_poll_mode poll_mode; /* default RAVB_POLL_2024 */
	unsigned mdio_half_ns; /* half an MDC period; 0 = 250 ns (Linux's mdio-bitbang) */
};

/**
 * ravb_create() - create a GbEth device (not yet open)
 * @cfg: the configuration (copied)
 * @bus: the register window, DMA region (below 4 GiB) and `mux` line (copied)
 * @loop: the device's loop
 * @out: receives the device
 *
 * Probes as Linux does (docs/gbeth.md §9.1): CONFIG, the station address,
 * the MDIO bus and its PHY, RESET.
 *
 * Return: 0, -EINVAL (bad config or bus), -ENOSPC (DMA region too small),
 * -ETIMEDOUT (a mode change never completed), -ENODEV (no PHY), -ENOMEM.
 */
int ravb_create(const struct ravb_config *cfg, const struct ethdrv_mmio_bus *bus,
		struct ethdrv_loop *loop, struct ethdrv_netdev **out);

/** ravb_get_pool() - the device's packet pool (frames to send come from it) */
struct ethdrv_pkt_pool *ravb_get_pool(struct ethdrv_netdev *dev);

/** ravb_dma_size() - DMA memory ravb_create() needs for @cfg (rx_buf at its largest) */
size_t ravb_dma_size(const struct ravb_config *cfg);

#endif /* ETHDRV_DRIVERS_RAVB_H */
