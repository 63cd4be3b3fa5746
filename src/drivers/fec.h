/* SPDX-License-Identifier: MIT */
/*
 * NXP ENET ("fec", i.MX6/7/8M) Ethernet driver: descriptor rings in the
 * DMA region of an MMIO bus (mmio.h), an RX poller and a TX-completion
 * poller that run split or combined (napi_split, gianfar's split, napi.h),
 * byte queue limits on the TX ring, hardware interrupt coalescing with
 * ethtool -C names and net DIM (dim.h) for adaptive-rx/tx. Facts:
 * docs/enet.md; the same driver runs on the model (src/emu/enet_emu.h) and,
 * behind the same bus, on a real i.MX8M (docs/enet.md §13).
 *
 * Files: fec_main.c (create, ops, bring-up and teardown), fec_rx.c,
 * fec_tx.c, fec_irq.c (interrupt line, pollers, masks), fec_ethtool.c
 * (knobs and counters), fec_mdio.c (the MDIO controller, the PHY and the
 * link: docs/mdio.md §11).
 */
#ifndef ETHDRV_DRIVERS_FEC_H
#define ETHDRV_DRIVERS_FEC_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/driver.h"
#include "ethdrv/enet_soc.h"
#include "ethdrv/knob.h"
#include "ethdrv/mmio.h"

struct ethdrv_loop;
struct ethdrv_pkt_pool;

/* Immutable device configuration (docs/style.md S3). */
struct fec_config {
	const char *name; /* interface name, e.g. "eth0" */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address (unicast, non-zero) */
	unsigned rx_ring; /* RX BDs, a power of two 16..4096; 0 = 256 */
	unsigned tx_ring; /* TX BDs, a power of two 16..4096; 0 = 256 */
	unsigned pool_size; /* packets in the DMA region; 0 = the rings + 512 + pool_extra */
	unsigned pool_extra; /* buffers added to the default pool_size for the device's user (the
			       node's fair queue, docs/fq.md §2); ignored with pool_size set */
	unsigned fixed_link_mbps; /* 0: the PHY found on the MDIO bus decides speed and
				     duplex (default); 10, 100 or 1000: no PHY, a fixed
				     full-duplex link (DT fixed-link: a MAC wired to a switch) */
	uint32_t clk_ahb_hz; /* the ENET system clock, for rx-usecs; 0 = 125000000 */
	uint32_t clk_ipg_hz; /* the module clock MDC divides; 0 = 50000000 (MDC 2.5 MHz) */
	bool mdio_no_preamble; /* DT suppress-preamble: MSCR.DIS_PRE (docs/mdio.md §1.2) */
	uint32_t mdio_bus_hz; /* DT mdio clock-frequency: the fastest MDC to use; 0 = 2.5 MHz
				 (IEEE); faster only if every device on the bus takes it;
				 MII_SPEED must come out 1..63 (docs/mdio.md §3.1) */
	int phy_irq_fd; /* the PHY's INT line (a level fd: a GPIO on a board, the
			   model's enet_emu_phy_irq_fd()); -1 (any negative): none */
	bool enhanced_bd; /* 32-byte descriptors (ECR.EN1588) */
	enum ethdrv_enet_soc soc; /* the part (ethdrv/enet_soc.h), default imx8m: how the
				     controller is reset and the MIB cleared (docs/enet.md §15) */
	bool combined_napi; /* start with one poller for RX and TX (napi_split=0) */
};

/* The knobs of the fec driver's set_param (knob.h; fec_ethtool.c). */
extern const struct ethdrv_knob_table fec_knob_table;

/**
 * fec_create() - create an ENET network device
 * @cfg: configuration; copied
 * @bus: the MMIO bus with its DMA region and int0 eventfd; copied, the
 *       caller keeps ownership and closes it after ethdrv_netdev_destroy()
 * @loop: the loop the device runs on
 * @out: receives the device (ethdrv_netdev_destroy() frees it)
 *
 * The driver lays out its rings, TX bounce buffers and a packet pool in
 * the bus's DMA region; RX buffers come from that pool (fec_get_pool()),
 * and frames sent from it go to the device without a copy. As Linux's
 * fec_probe, it sets up the MDIO controller (MSCR) and finds the PHY on
 * the bus (the first address that answers; ethdrv_netdev_phy()); the rest
 * of the hardware is untouched until ethdrv_netdev_open(). The PHY is
 * started at open: the device has no carrier until the PHY reports the
 * link, whose speed and duplex the MAC then follows.
 *
 * Knobs (set_param/get_param, as ethtool -C and sysfs name them):
 * "rx-usecs", "rx-frames", "tx-usecs", "tx-frames" (RXIC0/TXIC0: frames
 * 1..255, usecs as the 16-bit timer allows; usecs 0 with frames 1 turns
 * coalescing off; defaults 1000 us / 200 frames as Linux), "adaptive-rx",
 * "adaptive-tx" (on/off: net DIM), "napi_split" (1: separate RX and
 * TX-completion pollers, 0: one poller for both), "mdio_mode"
 * (irq/sleep/atomic), "mdio_poll_delay_us", "phy_poll_ms", "phy_irq" (0/1:
 * poll, or the PHY's INT line phy_irq_fd) (phy.h ethdrv_phy_knob_set()).
 * The core's knobs (napi_defer_hard_irqs, gro_flush_timeout, threaded,
 * busy_poll, budget) apply to both pollers.
 *
 * Return: 0, -EINVAL (bad name, MAC, ring size, fixed link speed or bus),
 * -ENOSPC (rings and pool do not fit the DMA region), -ENODEV (no PHY
 * answers on the MDIO bus and no fixed link), -ENOMEM, or a core or MDIO
 * -errno.
 * Context: setup, the loop thread.
 */
int fec_create(const struct fec_config *cfg, const struct ethdrv_mmio_bus *bus,
	       struct ethdrv_loop *loop, struct ethdrv_netdev **out);

/**
 * fec_get_pool() - the packet pool in the device's DMA region
 * @dev: a device made by fec_create()
 *
 * Frames allocated here are sent without a copy; others are copied into a
 * bounce buffer (counted in tx_bounce).
 */
struct ethdrv_pkt_pool *fec_get_pool(struct ethdrv_netdev *dev);

/* DMA memory fec_create() needs for @cfg (rings, bounce buffers, pool). */
size_t fec_dma_size(const struct fec_config *cfg);

#endif /* ETHDRV_DRIVERS_FEC_H */
