/* SPDX-License-Identifier: MIT */
/*
 * Microchip LAN8650/1 10BASE-T1S MAC-PHY driver: the thin chip half on top
 * of the OA TC6 framework (oa_tc6.h): bring-up in datasheet order with the
 * AN1760 configuration, MAC address and receive filters, PLCA.
 */
#ifndef ETHDRV_DRIVERS_LAN865X_H
#define ETHDRV_DRIVERS_LAN865X_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/driver.h"
#include "ethdrv/knob.h"

struct ethdrv_loop;
struct ethdrv_pkt_pool;

/* PLCA settings, with the ethtool --set-plca-cfg names in comments. */
struct lan865x_plca {
	bool enable; /* plca on/off; off = CSMA/CD with collision detection */
	uint8_t node_id; /* node-id: 0 = coordinator */
	uint8_t node_cnt; /* node-cnt (coordinator only); 0 = 8 */
	uint8_t to_tmr; /* to-tmr in bit times; 0 = 32 */
	uint8_t burst_cnt; /* burst-cnt: extra frames per opportunity */
	uint8_t burst_tmr; /* burst-tmr in bit times; 0 = 128 */
};

/* Immutable device configuration (docs/style.md S3). */
struct lan865x_config {
	const char *name; /* interface name, e.g. "t1s0" */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address (unicast, non-zero) */
	struct lan865x_plca plca; /* initial PLCA settings */
	unsigned cps; /* chunk payload: 32 or 64; 0 = 64 */
	bool protected_mode; /* CONFIG0.PROTE */
	unsigned xfer_cap; /* chunks per SPI transfer, 1..48; 0 = 31 */
	unsigned poll_us; /* bus without IRQ line: poll period, 50..1000000 us; 0 = 1000 */
};

/* What the probe found (docs/tc6.md §3.2, §5.1). */
struct lan865x_info {
	uint16_t model; /* DEVID.MODEL: 0x8650 or 0x8651 */
	const char *rev; /* silicon revision from DEVID.REV: "B0" or "B1" */
	uint32_t devid; /* DEVID (MMS 10 0x94) */
	uint32_t idver; /* OA IDVER */
	uint32_t phyid; /* OA PHYID */
	uint32_t stdcap; /* OA STDCAP */
};

/* The PLCA knobs of lan865x_set_param (knob.h). */
extern const struct ethdrv_knob_table lan865x_knob_table;

/**
 * lan865x_create() - create a LAN8650/1 network device
 * @cfg: configuration; copied
 * @bus: the SPI bus with its IRQ fd; copied, the caller keeps ownership and
 *       closes it after ethdrv_netdev_destroy()
 * @loop: the loop the device runs on
 * @pool: the packet pool RX frames come from
 * @out: receives the device (ethdrv_netdev_destroy() frees it)
 *
 * Probes the chip (oa_tc6_probe(): RESET_N pulse when the bus has the line,
 * IDVER/PHYID/STDCAP), checks that it is a LAN8650/1 and reads DEVID for the
 * model and the silicon revision, which selects the AN1760 values; the
 * configuration itself happens in ethdrv_netdev_open(). Knobs (set_param):
 * the PLCA names "node-id", "node-cnt", "to-tmr", "burst-cnt", "burst-tmr"
 * (decimal) and "plca" (on/off), applied at once when the device is up;
 * 0 for node-cnt, to-tmr and burst-tmr means the reset value (8, 32, 128),
 * and get_param reports the value in effect, never 0; everything else goes
 * to oa_tc6_set_param() (interrupt policy, RX overflow action, transfer
 * cap, SPI trace).
 *
 * Return: 0, -EINVAL (bad name, MAC, cps, xfer_cap or poll_us), -ENOMEM,
 * -ENODEV (no TC6 device answers, not a LAN8650/1, or an unknown silicon
 * revision; one log line says which), -EOPNOTSUPP (cps below the chip's
 * minimum), -EIO, or an -errno from the core.
 * Context: setup, the loop thread.
 */
int lan865x_create(const struct lan865x_config *cfg, const struct ethdrv_spi_bus *bus,
		   struct ethdrv_loop *loop, struct ethdrv_pkt_pool *pool,
		   struct ethdrv_netdev **out);

/**
 * lan865x_get_info() - what the probe found
 * @dev: a device from lan865x_create()
 * @info: receives it
 *
 * Context: any thread (fixed after create).
 */
void lan865x_get_info(struct ethdrv_netdev *dev, struct lan865x_info *info);

#endif /* ETHDRV_DRIVERS_LAN865X_H */
