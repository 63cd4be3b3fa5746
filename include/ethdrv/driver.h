/* SPDX-License-Identifier: MIT */
/*
 * Driver-facing API (internal to ethdrv and its drivers; DPDK's
 * ethdev_driver.h split): the device struct drivers embed, the ops they
 * fill in, the calls they make from their datapath, and the bus interface
 * they talk to hardware through (docs/style.md S3, S6). Drivers include only
 * this header set, never OS headers.
 */
#ifndef ETHDRV_DRIVER_H
#define ETHDRV_DRIVER_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "dql.h"
#include "netdev.h"
#include "napi.h"
#include "pkt.h"
#include "stats.h"

struct ethdrv_loop;

/* Return values of start_xmit. */
#define ETHDRV_TX_OK 0 /* the driver took the frame */
#define ETHDRV_TX_BUSY 1 /* no room: the caller keeps the frame; stop the queue first */

/* Control operations (kernel net_device_ops). NULL means unsupported:
 * the core returns -EOPNOTSUPP and drivers never re-check arguments. */
struct ethdrv_netdev_ops {
	/** Reset and configure the hardware, enable pollers and the IRQ. */
	int (*open)(struct ethdrv_netdev *dev);
	/** Stop traffic, disable pollers and the IRQ; free queued frames and
	 *  count them in tx_dropped. */
	int (*stop)(struct ethdrv_netdev *dev);
	/** Take one frame; ETHDRV_TX_OK or ETHDRV_TX_BUSY. Loop thread only. */
	int (*start_xmit)(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt);
	/** Program a new station address (already validated). */
	int (*set_mac)(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN]);
	/** Apply dev->rx_flags and dev->mc_list to the hardware filters. */
	int (*set_rx_mode)(struct ethdrv_netdev *dev);
	/** Report carrier, speed and duplex. */
	int (*get_link)(struct ethdrv_netdev *dev, struct ethdrv_link_state *st);
	/** Refresh hardware counters before a stats dump. */
	int (*get_stats)(struct ethdrv_netdev *dev);
	/** Set a driver knob; -ENOENT for a key the driver does not know. */
	int (*set_param)(struct ethdrv_netdev *dev, const char *key, const char *value);
	/** Read a driver knob as text; -ENOENT for an unknown key. */
	int (*get_param)(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size);
	/** Free the driver's private state (the core frees nothing of it). */
	void (*destroy)(struct ethdrv_netdev *dev);
};

/* The single TX queue of a device: byte queue limits plus stop bits. */
struct ethdrv_txq {
	struct ethdrv_dql dql; /* byte queue limits (dql.h) */
	unsigned state; /* ETHDRV_TXQ_* bits, atomic */
	ethdrv_tx_wake_fn wake; /* application wake handler */
	void *wake_arg; /* its argument */
	ethdrv_counter_t stops; /* times the queue was stopped (BQL or driver) */
	ethdrv_counter_t wakes; /* times it was woken */
};

#define ETHDRV_TXQ_DRV_XOFF 0x1u /* stopped by the driver (no room) */
#define ETHDRV_TXQ_STACK_XOFF 0x2u /* stopped by byte queue limits */

/*
 * The generic device. Drivers embed it as the first member of their
 * private struct and recover it with ethdrv_container_of() (docs/style.md S3).
 * Fields are owned by the core; drivers read them and use the calls below.
 *
 * Who may change what while the device exists. "Setup" means before
 * ethdrv_netdev_open() (or after stop), from the thread that will run the
 * loop or before the loop runs. The "loop thread" runs the control calls
 * (ethdrv_netdev_set*(), open, stop, start_xmit). The "poll context" is
 * where pollers run: the loop thread, or a poller thread with threaded=1.
 * Loop-thread-only fields need no lock because only that thread touches
 * them; anything the poll context reads must be immutable while up,
 * atomic, or copied by the driver under its own lock.
 *
 *   field                  changed by, when             lock / access
 *   name, ops, loop, pool  ethdrv_netdev_init() only    immutable
 *   mtu                    ethdrv_netdev_init() only    immutable
 *   mac                    loop thread (set_mac)        loop thread only
 *   up                     loop thread (open, stop)     loop thread only; the
 *                                                       poll context never reads it
 *   rx_flags, mc_list,     loop thread (set_rx_filter,  loop thread only: a driver
 *   mc_count               before ops->set_rx_mode)     whose poll context needs them
 *                                                       copies them in set_rx_mode
 *                                                       under its lock (lan865x does;
 *                                                       it used to read them during a
 *                                                       recovery on the poller thread)
 *   stats                  any thread                   ethdrv_counter_* (atomic)
 *   stats_set              setup (groups added)         read by dumps, loop thread
 *   txq.dql                tx_sent: one enqueuer at a   dql.h contract; oa_tc6
 *                          time; tx_completed: the      serialises its enqueuers
 *                          completer (poll context)     with its tx_lock
 *   txq.state              any thread                   atomic bits
 *   txq.wake, wake_arg     setup                        immutable while up
 *   rx_handler, _arg       setup                        immutable while up (read in
 *   rx_flush, _arg                                      the poll context)
 *   napis                  setup (napi_add/del)         loop thread only
 *   napi_cfg, napi_weight  loop thread (knobs)          loop thread only; pollers
 *                                                       take atomic copies
 *   carrier                the driver: carrier_on/off   atomic; the driver calls them
 *                          (its PHY's link_change, or   from the loop thread (the PHY
 *                          open/stop for a fixed link)  state machine runs there), any
 *                                                       thread may read it
 *   carrier_fn, _arg       setup                        immutable while up; called on
 *                                                       the loop thread at each change
 *   carrier_up_count,      ethdrv_netdev_carrier_on/off ethdrv_counter_* (atomic)
 *   carrier_down_count
 *   phydev                 the driver: probe (create)   immutable while the device
 *                          and destroy                  exists; the PHY itself is
 *                                                       loop-thread-only (phy.h)
 */
struct ethdrv_netdev {
	char name[16]; /* interface name, "t1s0" */
	const struct ethdrv_netdev_ops *ops; /* control operations */
	struct ethdrv_loop *loop; /* the loop it runs on */
	struct ethdrv_pkt_pool *pool; /* RX buffers come from here */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address */
	unsigned mtu; /* L3 MTU, default 1500 */
	bool up; /* opened */
	unsigned rx_flags; /* ETHDRV_RXF_* */
	uint8_t mc_list[ETHDRV_MC_MAX][ETHDRV_ETH_ALEN]; /* multicast filter list */
	unsigned mc_count; /* entries in mc_list */
	struct ethdrv_link_stats stats; /* rtnl_link_stats64 counters */
	struct ethdrv_stats_set *stats_set; /* all counters of this device */
	struct ethdrv_txq txq; /* the TX queue */
	ethdrv_rx_handler_fn rx_handler; /* where ethdrv_netdev_receive() delivers */
	void *rx_handler_arg; /* its argument */
	ethdrv_rx_flush_fn rx_flush; /* end of a receive batch (after each RX poll), or NULL */
	void *rx_flush_arg; /* its argument */
	struct ethdrv__napi_list *napis; /* pollers of this device (core-private) */
	struct ethdrv_napi_config napi_cfg; /* knobs applied to new pollers */
	int napi_weight; /* "budget" knob: RX poller weight; 0 = as the driver asked */
	uint64_t cpu_cost_ns; /* "cpu_cost_ns" knob: CPU spun per RX frame and per TX
				 completion in the poll context (a slower CPU), atomic */
	bool cpu_cost_cputime; /* "cpu_cost_cputime" knob: 1 (default) CPU time, 0 wall time, atomic */
	bool carrier; /* link up (netif_carrier_ok); on at init, atomic */
	ethdrv_carrier_fn carrier_fn; /* application's carrier-change callback, or NULL */
	void *carrier_arg; /* its argument */
	ethdrv_counter_t carrier_up_count; /* off -> on changes (sysfs carrier_up_count) */
	ethdrv_counter_t carrier_down_count; /* on -> off changes */
	struct ethdrv_phy *phydev; /* the PHY the driver manages, or NULL (net_device phydev) */
};

/**
 * ethdrv_netdev_init() - initialise an embedded device struct
 * @dev: zeroed storage inside the driver's private struct
 * @name: interface name (at most 15 chars)
 * @ops: the driver's ops
 * @loop: the loop the device runs on
 * @pool: the packet pool RX buffers come from
 *
 * Registers the link counters in a new stats set.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 * Context: setup.
 */
ETHDRV_EXPORT int ethdrv_netdev_init(struct ethdrv_netdev *dev, const char *name,
				     const struct ethdrv_netdev_ops *ops, struct ethdrv_loop *loop,
				     struct ethdrv_pkt_pool *pool);

/**
 * ethdrv_netdev_cleanup() - release what ethdrv_netdev_init() and the core
 * allocated (pollers, stats set); called by ethdrv_netdev_destroy() before
 * ops->destroy
 * @dev: the device
 */
ETHDRV_EXPORT void ethdrv_netdev_cleanup(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_receive() - deliver one received frame up
 * @dev: the device
 * @pkt: the frame, FCS removed; ownership passes to the core
 *
 * Counts rx_packets/rx_bytes (and multicast), then calls the RX handler;
 * with no handler the frame is freed and counted in rx_nohandler and
 * rx_dropped.
 * Context: the device's poll context.
 */
ETHDRV_EXPORT void ethdrv_netdev_receive(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt);

/**
 * ethdrv_netdev_tx_sent() - account @bytes handed to the hardware queue
 * @dev: the device
 * @bytes: frame bytes (the same figure must be completed later)
 *
 * Stops the queue when byte queue limits are exceeded
 * (netdev_tx_sent_queue).
 * Context: start_xmit (the loop thread).
 */
ETHDRV_EXPORT void ethdrv_netdev_tx_sent(struct ethdrv_netdev *dev, unsigned bytes);

/**
 * ethdrv_netdev_tx_completed() - account one completion round
 * @dev: the device
 * @pkts: frames completed
 * @bytes: their bytes, as passed to ethdrv_netdev_tx_sent()
 *
 * Counts tx_packets/tx_bytes, updates the byte limit and wakes the queue if
 * it had been stopped by the limit and there is room now
 * (netdev_tx_completed_queue). Call once per round, not per frame.
 * Context: the completion context (single completer).
 */
ETHDRV_EXPORT void ethdrv_netdev_tx_completed(struct ethdrv_netdev *dev, unsigned pkts,
					      unsigned bytes);

/**
 * ethdrv_netdev_tx_completed_dropped() - a completion round in which the
 * device also dropped frames it had taken
 * @dev: the device
 * @pkts: frames completed (sent)
 * @bytes: their bytes, as passed to ethdrv_netdev_tx_sent()
 * @dropped: frames the device dropped instead of sending
 * @dropped_bytes: their bytes, as passed to ethdrv_netdev_tx_sent()
 *
 * As ethdrv_netdev_tx_completed() for @pkts and @bytes; @dropped counts in
 * tx_aborted_errors and tx_errors, and the byte limit sees @bytes +
 * @dropped_bytes leave the queue in this one round.
 * Context: the completion context (single completer).
 */
ETHDRV_EXPORT void ethdrv_netdev_tx_completed_dropped(struct ethdrv_netdev *dev, unsigned pkts,
						      unsigned bytes, unsigned dropped,
						      unsigned dropped_bytes);

/** ethdrv_netdev_tx_stop() - the driver has no room (netif_stop_queue). */
ETHDRV_EXPORT void ethdrv_netdev_tx_stop(struct ethdrv_netdev *dev);

/** ethdrv_netdev_tx_wake() - the driver has room again (netif_wake_queue). */
ETHDRV_EXPORT void ethdrv_netdev_tx_wake(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_tx_reset() - forget in-flight bytes after the driver
 * flushed its queue (netdev_tx_reset_queue); wakes the queue
 * @dev: the device
 */
ETHDRV_EXPORT void ethdrv_netdev_tx_reset(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_carrier_on() - the link is up (netif_carrier_on)
 * @dev: the device
 *
 * A change from off counts carrier_up_count and calls the application's
 * carrier handler; setting the state it already has does nothing. Drivers
 * call it from their PHY's link_change callback, or at open for a fixed
 * link.
 * Context: the loop thread.
 */
ETHDRV_EXPORT void ethdrv_netdev_carrier_on(struct ethdrv_netdev *dev);

/**
 * ethdrv_netdev_carrier_off() - the link is down (netif_carrier_off)
 * @dev: the device
 *
 * From here on ethdrv_netdev_xmit() drops frames and counts them in
 * tx_carrier_errors (netdev.h). Counts carrier_down_count on a change and
 * calls the carrier handler.
 * Context: the loop thread.
 */
ETHDRV_EXPORT void ethdrv_netdev_carrier_off(struct ethdrv_netdev *dev);

/*
 * The bus: the only way drivers reach hardware (docs/style.md S6). Real boards
 * implement it over spidev and a GPIO line (src/platform/linux), the
 * hardware models in-process (src/emu).
 */
struct ethdrv_spi_ops {
	/**
	 * Full-duplex transfer of @len bytes with chip select asserted for the
	 * whole transfer (one CS assertion). Returns 0 or -errno.
	 */
	int (*transfer)(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len);
	/** Release the bus (close fds, stop threads). May be NULL. */
	void (*close)(void *ctx);
	/**
	 * Drive the device's reset line (RESET_N): @asserted true holds the
	 * device in reset, false releases it. NULL when the bus has no reset
	 * line. Returns 0 or -errno.
	 */
	int (*set_reset)(void *ctx, bool asserted);
};

/*
 * One falling edge of IRQ_N (the interrupt asserted), for an edge-triggered
 * host (Linux's oa_tc6 requests IRQF_TRIGGER_FALLING). The level (irq_fd)
 * shows what IRQ_N is now; the edges show every assertion, also one that
 * followed a release within a single transfer, when the level never changed
 * at any instant the host could look (docs/tc6.md §2.5).
 */
struct ethdrv_irq_edge {
	uint64_t t_ns; /* when IRQ_N fell: CLOCK_MONOTONIC, or the model's virtual clock */
	uint32_t seqno; /* 1, 2, ... per line; a gap counts edges lost on a full queue */
	uint32_t flags; /* 0 (reserved) */
};

struct ethdrv_spi_bus {
	const struct ethdrv_spi_ops *ops; /* transfer and close */
	void *ctx; /* backend state */
	int irq_fd; /* level IRQ: readable while IRQ_N is asserted; -1 = none (poll) */
	/* Falling edges of IRQ_N as a stream of struct ethdrv_irq_edge records,
	 * as a GPIO line request with edge detection gives them: readable while
	 * an edge is queued, read() whole records. -1 = none (the level only). */
	int irq_edge_fd;
	uint32_t hz; /* SCLK the backend applies (spidev: as read back), for reporting */
	char desc[96]; /* "spidev:/dev/spidev0.0" or "emu:lan8650", for messages */
};

/**
 * ethdrv_spi_transfer() - one full-duplex transfer on @bus
 * @bus: the bus
 * @tx: @len bytes to send
 * @rx: @len bytes received
 * @len: transfer length
 *
 * Return: 0 or the backend's -errno.
 */
static inline int ethdrv_spi_transfer(const struct ethdrv_spi_bus *bus, const uint8_t *tx,
				      uint8_t *rx, size_t len)
{
	return bus->ops->transfer(bus->ctx, tx, rx, len);
}

/**
 * ethdrv_spi_set_reset() - assert or release the reset line of @bus
 * @bus: the bus
 * @asserted: true to hold the device in reset, false to release it
 *
 * The caller times the pulse (the device's minimum width and boot time).
 *
 * Return: 0, -EOPNOTSUPP when the bus has no reset line, or the backend's
 * -errno.
 */
static inline int ethdrv_spi_set_reset(const struct ethdrv_spi_bus *bus, bool asserted)
{
	return bus->ops->set_reset ? bus->ops->set_reset(bus->ctx, asserted) : -EOPNOTSUPP;
}

/**
 * ethdrv_spi_irq_asserted() - the level of @bus's IRQ line, without waiting
 * @bus: the bus
 *
 * Return: true while IRQ_N is asserted (irq_fd readable); false when it is
 * not, or when the bus has no IRQ line.
 * Context: any thread; one poll(2) with a zero timeout.
 */
ETHDRV_EXPORT bool ethdrv_spi_irq_asserted(const struct ethdrv_spi_bus *bus);

/**
 * ethdrv_spi_trace_start() - log every transfer on @bus to a file
 * @bus: the bus; its ops and ctx are replaced by a tracing wrapper
 * @path: file to append to; one line per transfer:
 *        "<monotonic_ns> <mosi-hex> <miso-hex>\n", lowercase hex, no spaces
 *        inside either string; or, for "pcapng:PATH" or a PATH ending in
 *        ".pcapng", a new pcapng file with one packet per transfer
 *        (docs/spi-trace.md §2)
 *
 * Start it before a driver copies @bus, or through the driver's
 * "spi_trace" knob; the wrapper's close op closes the inner bus and the file.
 * Transfers must be serialised by the caller (drivers hold their bus lock).
 *
 * Return: 0, -EALREADY if @bus is already traced, -ENOMEM, or the -errno of
 * opening @path.
 * Context: setup, or with the driver's bus lock held.
 */
ETHDRV_EXPORT int ethdrv_spi_trace_start(struct ethdrv_spi_bus *bus, const char *path);

/**
 * ethdrv_spi_trace_start_as() - as ethdrv_spi_trace_start(), naming the interface
 * @bus: the bus
 * @path: as for ethdrv_spi_trace_start()
 * @ifname: the interface the bus belongs to ("t1s0"), or NULL: a pcapng trace
 *          names it in its interface block and carries the number it ends
 *          with as the node of every packet
 *
 * Return: as ethdrv_spi_trace_start(); -EINVAL without @path.
 */
ETHDRV_EXPORT int ethdrv_spi_trace_start_as(struct ethdrv_spi_bus *bus, const char *path,
					    const char *ifname);

/**
 * ethdrv_spi_trace_stop() - flush and close the trace and restore @bus
 * @bus: a bus traced with ethdrv_spi_trace_start()
 *
 * Return: 0, -EINVAL if @bus is not traced, or the -errno of closing the
 * file (the bus is restored anyway).
 */
ETHDRV_EXPORT int ethdrv_spi_trace_stop(struct ethdrv_spi_bus *bus);

#endif /* ETHDRV_DRIVER_H */
