/* SPDX-License-Identifier: MIT */
/*
 * Network devices, seen from the application (the TAP bridge, tests,
 * benchmarks). A device is created by a driver (driver.h), runs on one event
 * loop, delivers received frames to an RX handler and takes frames to send
 * through ethdrv_netdev_xmit(), under byte queue limits.
 */
#ifndef ETHDRV_NETDEV_H
#define ETHDRV_NETDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "stats.h"

struct ethdrv_netdev;
struct ethdrv_pkt;
struct ethdrv_loop;
struct ethdrv_pkt_pool;
struct ethdrv_phy;

#define ETHDRV_ETH_ALEN 6
#define ETHDRV_ETH_HLEN 14
#define ETHDRV_ETH_FCS_LEN 4
#define ETHDRV_VLAN_HLEN 4
#define ETHDRV_ETH_ZLEN 60 /* minimum frame without FCS */
#define ETHDRV_ETH_DATA_LEN 1500 /* default MTU */

/**
 * typedef ethdrv_rx_handler_fn - takes a received frame
 * @arg: the handler's argument
 * @pkt: the frame (data/len, no FCS); the handler owns it and must free it
 *
 * Context: the poll context of the device (loop thread or poller thread).
 */
typedef void (*ethdrv_rx_handler_fn)(void *arg, struct ethdrv_pkt *pkt);

/**
 * typedef ethdrv_rx_flush_fn - the end of a batch of received frames
 * @arg: the handler's argument
 *
 * Called after each poll of a receive poller that delivered frames, in the
 * same poll context as the RX handler, so a handler that holds frames to
 * coalesce them (GRO) passes them on before the poller sleeps: Linux
 * flushes GRO at the end of a NAPI poll in the same way.
 */
typedef void (*ethdrv_rx_flush_fn)(void *arg);

/**
 * typedef ethdrv_tx_wake_fn - the TX queue accepts frames again
 * @arg: the handler's argument
 *
 * Context: any thread that completed transmissions; keep it short (e.g.
 * re-enable the TAP fd watcher through the loop).
 */
typedef void (*ethdrv_tx_wake_fn)(void *arg);

/**
 * typedef ethdrv_carrier_fn - the device's carrier changed
 * @arg: the handler's argument
 * @up: the new state (ethdrv_netdev_carrier_ok())
 *
 * Context: the loop thread, from the driver's link handling (its PHY
 * state machine, open or stop). The TAP bridge sets the TAP's carrier here.
 */
typedef void (*ethdrv_carrier_fn)(void *arg, bool up);

/** ethdrv_netdev_name() - the device name ("t1s0"); "-" for NULL. */
ETHDRV_EXPORT const char *ethdrv_netdev_name(const struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_open() - bring the device up
 * @dev: the device
 *
 * Return: 0 or the driver's -errno; -EALREADY if already up.
 * Context: the loop thread.
 */
ETHDRV_EXPORT int ethdrv_netdev_open(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_stop() - bring the device down; queued frames are dropped
 * and counted in tx_dropped
 * @dev: the device
 *
 * Return: 0 or the driver's -errno.
 */
ETHDRV_EXPORT int ethdrv_netdev_stop(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_destroy() - stop if needed and free the device
 * @dev: the device, or NULL
 */
ETHDRV_EXPORT void ethdrv_netdev_destroy(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_set_rx_handler() - where received frames go
 * @dev: the device
 * @fn: the handler; NULL drops frames (counted in rx_nohandler)
 * @arg: passed to @fn
 */
ETHDRV_EXPORT void ethdrv_netdev_set_rx_handler(struct ethdrv_netdev *dev, ethdrv_rx_handler_fn fn,
						void *arg);

/**
 * ethdrv_netdev_set_rx_flush_handler() - called at the end of each batch
 * of received frames (ethdrv_rx_flush_fn)
 * @dev: the device
 * @fn: the handler, or NULL
 * @arg: passed to @fn
 *
 * Context: setup (before open), like the RX handler.
 */
ETHDRV_EXPORT void ethdrv_netdev_set_rx_flush_handler(struct ethdrv_netdev *dev,
						      ethdrv_rx_flush_fn fn, void *arg);

/**
 * ethdrv_netdev_set_tx_wake_handler() - called when a stopped TX queue wakes
 * @dev: the device
 * @fn: the handler, or NULL
 * @arg: passed to @fn
 */
ETHDRV_EXPORT void ethdrv_netdev_set_tx_wake_handler(struct ethdrv_netdev *dev,
						     ethdrv_tx_wake_fn fn, void *arg);

/**
 * ethdrv_netdev_set_carrier_handler() - called at each carrier change
 * @dev: the device
 * @fn: the handler, or NULL
 * @arg: passed to @fn
 *
 * Context: setup (before open).
 */
ETHDRV_EXPORT void ethdrv_netdev_set_carrier_handler(struct ethdrv_netdev *dev,
						     ethdrv_carrier_fn fn, void *arg);

/**
 * ethdrv_netdev_carrier_ok() - the link is up (netif_carrier_ok)
 * @dev: the device
 *
 * A new device has carrier until its driver says otherwise (Linux's
 * default); drivers with a PHY turn it off at open until the PHY reports
 * the link.
 * Context: any thread.
 */
ETHDRV_EXPORT bool ethdrv_netdev_carrier_ok(const struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_phy() - the PHY the driver manages (net_device phydev)
 * @dev: the device
 *
 * Return: the PHY (phy.h; loop thread only), or NULL when the device has
 * none (a fixed link, a device without MDIO).
 */
ETHDRV_EXPORT struct ethdrv_phy *ethdrv_netdev_phy(const struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_xmit() - send one frame
 * @dev: the device
 * @pkt: frame without FCS
 *
 * Return: 0 when the frame was taken (queued for the device, or dropped and
 * counted: -ENETDOWN, -ENOLINK (no carrier: tx_carrier_errors, as a NIC
 * driver counts a frame it cannot send without link) and -EMSGSIZE cases
 * are also taken and counted, and the error is returned for the caller's
 * information); -EBUSY when the TX
 * queue is stopped: the caller keeps @pkt and retries after the wake
 * handler runs. Runts are padded by the device, not rejected. Also taken
 * and counted in tx_dropped: -EINVAL for a frame shorter than an Ethernet
 * header, -EOPNOTSUPP when the driver has no start_xmit.
 * Context: the loop thread (single enqueuer, dql.h).
 */
ETHDRV_EXPORT int ethdrv_netdev_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt);

/** ethdrv_netdev_tx_stopped() - true while the TX queue refuses frames. */
ETHDRV_EXPORT bool ethdrv_netdev_tx_stopped(const struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_set() - change a knob at run time
 * @dev: the device
 * @key: a core knob: "napi_defer_hard_irqs", "gro_flush_timeout" (ns),
 *       "threaded" (0/1), "busy_poll" (us), "busy_poll_budget", "budget"
 *       (poller weight), "netdev_budget", "netdev_budget_usecs",
 *       "bql_limit_min", "bql_limit_max", "bql_hold_time" (ms);
 *       or a driver knob (driver.h set_param)
 * @value: the value as text
 *
 * Return: 0; -ENOENT for an unknown key; -EINVAL for a bad value; or the
 * driver's -errno.
 * Context: the loop thread.
 */
ETHDRV_EXPORT int ethdrv_netdev_set(struct ethdrv_netdev *dev, const char *key, const char *value);

/**
 * ethdrv_netdev_get() - read a knob as text
 * @dev: the device
 * @key: as for ethdrv_netdev_set()
 * @buf: output
 * @size: size of @buf
 *
 * Return: 0, -ENOENT, or -ENOSPC when @buf is too small.
 */
ETHDRV_EXPORT int ethdrv_netdev_get(struct ethdrv_netdev *dev, const char *key, char *buf,
				    size_t size);

/**
 * ethdrv_netdev_stats() - the device's stats set (link counters, driver
 * groups, poller counters, histograms), for ethdrv_stats_dump()/get()
 * @dev: the device
 *
 * The driver's get_stats op, if any, is called first to refresh hardware
 * counters.
 */
ETHDRV_EXPORT struct ethdrv_stats_set *ethdrv_netdev_stats(struct ethdrv_netdev *dev);

/** ethdrv_netdev_link_stats() - the live rtnl_link_stats64-style counters. */
ETHDRV_EXPORT struct ethdrv_link_stats *ethdrv_netdev_link_stats(struct ethdrv_netdev *dev);

/* Link state as the driver reports it. */
struct ethdrv_link_state {
	bool up; /* carrier */
	unsigned speed_mbps; /* 10 for 10BASE-T1S */
	bool full_duplex; /* false for a shared segment */
};

/* A driver's get_link: @up, and the speed and duplex it programmed only while up. */
static inline void ethdrv_link_state_fill(struct ethdrv_link_state *st, bool up, unsigned speed,
					  bool full)
{
	st->up = up;
	st->speed_mbps = up ? speed : 0;
	st->full_duplex = up && full;
}

/**
 * ethdrv_netdev_get_link() - the driver's view of the link
 * @dev: the device
 * @st: filled in
 *
 * Return: 0, -EOPNOTSUPP, or the driver's -errno.
 */
ETHDRV_EXPORT int ethdrv_netdev_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st);

/**
 * ethdrv_netdev_set_mac() - set the station address
 * @dev: the device
 * @mac: 6 bytes; must be a unicast address
 *
 * Return: 0, -EINVAL (multicast or all-zero), -EOPNOTSUPP, or the driver's.
 */
ETHDRV_EXPORT int ethdrv_netdev_set_mac(struct ethdrv_netdev *dev,
					const uint8_t mac[ETHDRV_ETH_ALEN]);

/** ethdrv_netdev_get_mac() - copy the station address to @mac. */
ETHDRV_EXPORT void ethdrv_netdev_get_mac(const struct ethdrv_netdev *dev,
					 uint8_t mac[ETHDRV_ETH_ALEN]);

/* Receive filter modes (ETHDRV_RXF_*), applied through set_rx_mode. */
#define ETHDRV_RXF_PROMISC 0x1u /* accept every destination */
#define ETHDRV_RXF_ALLMULTI 0x2u /* accept every multicast */
#define ETHDRV_RXF_BROADCAST 0x4u /* accept broadcast (default on) */
#define ETHDRV_MC_MAX 32 /* multicast addresses tracked per device */

/**
 * ethdrv_netdev_set_rx_filter() - set the filter mode and multicast list
 * @dev: the device
 * @flags: ETHDRV_RXF_* flags
 * @mc: @n multicast addresses (6 bytes each), or NULL
 * @n: 0..ETHDRV_MC_MAX
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP, or the driver's -errno.
 */
ETHDRV_EXPORT int ethdrv_netdev_set_rx_filter(struct ethdrv_netdev *dev, unsigned flags,
					      const uint8_t (*mc)[ETHDRV_ETH_ALEN], unsigned n);

#endif /* ETHDRV_NETDEV_H */
