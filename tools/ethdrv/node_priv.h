/* SPDX-License-Identifier: MIT */
/*
 * The node's internals, shared by its units (node.h is the interface):
 *   node.c          lifecycle: the thread, setup and teardown in order, and
 *                   what the node answers on its control socket
 *   node_tap.c      frames between the TAP and the device
 *   node_offload.c  TSO and GRO between the TAP and the device (ENET nodes)
 *   node_lan865x.c  the LAN8650/1 backends: the model on a medium, a board
 *   node_linux.c    driver=linux: Linux's own lan865x driver (a GPL plugin)
 *   node_faults.c   fault injection knobs into the LAN8650 model (emu.*)
 *   node_enet.c     the ENET and GbEth backends: a model on its link, its emu.* knobs
 *   node_metrics.c  the node's counters and CPU-time metrics
 *   node_rt.c       real-time priority of its threads and the spin guard
 *   node_ctx.c      its execution contexts: softirq loops, ksoftirqd, IRQ affinity
 *
 * The device itself is created through the driver registry
 * (src/drivers/registry.h); what lies under the driver (a model, a board)
 * is the node's backend (struct node_backend), chosen by the device spec's
 * kind, so the lifecycle has no branch per device.
 */
#ifndef ETHDRV_TOOLS_NODE_PRIV_H
#define ETHDRV_TOOLS_NODE_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctl.h"
#include "drivers/registry.h"
#include "emu/enet_emu.h"
#include "emu/gbeth_emu.h"
#include "emu/etsec_emu.h"
#include "emu/lan865x_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "fq.h"
#include "node.h"
#include "rt.h"
#include "tap_batch.h"
#include "tap_offload.h"

/* Frames between the TAP and the device; the ends of the accounting chain. */
struct node_tap_stats {
	ethdrv_counter_t tap_rx_frames; /* frames read from the TAP, handed to the device */
	ethdrv_counter_t tap_rx_errors; /* TAP reads that failed (not EAGAIN) */
	ethdrv_counter_t tap_tx_frames; /* received frames written to the TAP */
	ethdrv_counter_t tap_tx_dropped; /* received frames the TAP refused (full, down) */
	ethdrv_counter_t tap_rx_tso; /* TSO frames read and cut into tap_rx_frames */
	ethdrv_counter_t tap_rx_bad; /* frames read and dropped: a header or length the
					device cannot take (never reached it) */
	ethdrv_counter_t tap_tx_writes; /* writes to the TAP (one per frame, or per batch) */
	ethdrv_counter_t tap_tx_gro; /* tap_tx_frames that went in a coalesced write */
};

/* Periodic fault injection into the model (`emu.periodic`). */
struct node_fault_plan {
	int fault; /* enum lan865x_emu_fault, or -1 when off */
	unsigned period_ms; /* between bursts */
	unsigned burst; /* faults per burst */
};

/*
 * What the node's threads cost, for the benchmarks (group "node" in the
 * stats): CPU time of the loop thread and of the live poller threads
 * ("napi/<ifname>-<poller>"), the part of it spent inside the model's SPI
 * transfers (emulation work, not driver work; time the model holds the
 * caller is a sleep and costs no CPU, see emu_held_ns), and the loop's own
 * counters (ethdrv_loop_get_stats()).
 */
struct node_metrics {
	ethdrv_counter_t loop_cpu_ns; /* loop thread CPU time */
	ethdrv_counter_t poller_cpu_ns; /* poller threads' CPU time (live threads) */
	ethdrv_counter_t poller_threads; /* live poller threads */
	ethdrv_counter_t model_cpu_ns; /* CPU time inside model transfers (any thread) */
	ethdrv_counter_t loop_iterations; /* loop run_once calls */
	ethdrv_counter_t loop_sleeps; /* blocking waits entered */
	ethdrv_counter_t loop_wakeups; /* blocking waits that returned with work */
	ethdrv_counter_t loop_wakes_sent; /* cross-thread wakes of the loop */
	ethdrv_counter_t rt_prio; /* SCHED_FIFO priority of the node's threads, 0 = none */
	ethdrv_counter_t rt_demotions; /* threads the spin guard put back to SCHED_OTHER */
	/* Execution contexts (node_ctx.c), summed over the node's loop and its
	 * softirq loops (ethdrv_loop_stats). */
	ethdrv_counter_t loop_softirq_runs; /* poll-list runs that polled something */
	ethdrv_counter_t loop_budget_exhausted; /* runs stopped by netdev_budget */
	ethdrv_counter_t loop_time_exhausted; /* runs stopped by netdev_budget_usecs */
	ethdrv_counter_t loop_ksoftirqd_handoffs; /* bursts handed to ksoftirqd */
	ethdrv_counter_t loop_ksoftirqd_runs; /* of loop_softirq_runs: in ksoftirqd threads */
	ethdrv_counter_t loop_irq_exit_runs; /* of loop_softirq_runs: at an interrupt's exit while
					      * ksoftirqd held the list (irq_exit_softirq=inline) */
	ethdrv_counter_t ctx_loops; /* softirq loops (contexts=irq), 0 = contexts=loop */
	ethdrv_counter_t ctx_prio; /* their SCHED_FIFO priority, 0 = SCHED_OTHER */
	ethdrv_counter_t ctx_cpu_ns; /* CPU time of the softirq loop threads */
	ethdrv_counter_t ksoftirqd_cpu_ns; /* CPU time of their ksoftirqd threads */
	ethdrv_counter_t uring_worker_cpu_ns; /* CPU time of io_uring workers of the node's
						 threads ("iou-wrk-<tid>"; live threads) */
	ethdrv_counter_t uring_workers; /* such workers alive */
};

/* SCHED_FIFO priority of the softirq contexts without --rt-prio (PREEMPT_RT's IRQ threads). */
#define NODE_CTX_PRIO 50

/* The execution contexts of a node (node_ctx.c). */
struct node_ctx {
	bool irq; /* contexts=irq */
	unsigned cpus; /* knob cpus; 0 = 1 */
	struct ethdrv_cpu_loops *set; /* the softirq loops while irq */
	unsigned prio; /* their SCHED_FIFO priority now, 0 = SCHED_OTHER */
	char affinity[64]; /* irq_affinity as last set */
	bool irq_exit_defer; /* irq_exit_softirq=defer (Linux 4.9-6.4); false = inline (6.5+) */
};

struct node;

/*
 * What lies under a node's driver: the bus to a model or a board, and what
 * a model adds to the node (counters, emu.* knobs, info lines). One per
 * device kind (enum cli_dev_kind); every op runs in the node's loop thread.
 */
struct node_backend {
	const char *driver; /* the driver that runs on it (registry.h) */
	bool tap_offload; /* TAP with a vnet header: TSO and GRO (node_offload.c) */
	/** Open the bus (and the model) and point @args at it. */
	int (*open)(struct node *n, struct ethdrv_driver_args *args);
	/** Settings the driver needs before open (device created, not open). */
	int (*configure)(struct node *n);
	/** Release what open made, after the device is destroyed; also after a failed open. */
	void (*close)(struct node *n);
	/** Add the model's counters (group "emu") to @set. */
	void (*stats_register)(struct node *n, struct ethdrv_stats_set *set);
	/** Refresh them for a dump. */
	void (*stats_update)(struct node *n);
	/** emu.KEY=VALUE (KEY without "emu."); -ENOENT for an unknown key. */
	int (*emu_set)(struct node *n, const char *key, const char *value);
	/** Read an emu.* knob. */
	int (*emu_get)(struct node *n, const char *key, char *buf, size_t size);
	/** Lines of `info` about the bus and the model. */
	void (*info)(struct node *n, struct ctl_reply *r);
	/** Its emu.* knobs (knob.h; keys with the "emu." prefix). */
	const struct ethdrv_knob_table *emu_knobs;
	const char *title; /* the device kind, for `ethdrv set --help` */
};

extern const struct node_backend node_lan865x_backend; /* node_lan865x.c */

/* The @i-th distinct backend (for listings), NULL past the end (node.c). */
const struct node_backend *node_backend_at(unsigned i);
/* The knob tables of a node on @b with driver @drv: core, node, driver, model (node.c). */
size_t node_knob_tables(const struct node_backend *b, const struct ethdrv_driver *drv,
			const struct ethdrv_knob_table **out, size_t max);
extern const struct node_backend node_enet_backend; /* node_enet.c */
/* driver=linux: Linux's lan865x as the node's driver (node_linux.c). */
extern const struct ethdrv_driver node_linux_driver;
extern const struct node_backend node_gbeth_backend; /* node_enet.c */
extern const struct node_backend node_etsec_backend; /* node_enet.c */

struct node {
	struct node_config cfg; /* what it is */
	const struct node_backend *backend; /* what lies under the driver */
	const struct ethdrv_driver *drv; /* the driver (registry.h) */
	pthread_t thread; /* runs node_main() */
	pthread_mutex_t lock; /* protects ready and start_err */
	pthread_cond_t cond; /* signals ready */
	bool ready; /* setup finished (start_err says how) */
	int start_err; /* 0 or the setup -errno */
	int loop_err; /* ethdrv_loop_run() result */

	struct ethdrv_loop *loop; /* this node's loop */
	struct ethdrv_pkt_pool *pool; /* RX buffers of an SPI device (TAP frames use dev->pool) */
	struct lan865x_emu *emu; /* the LAN8650 model, or NULL (a board, or another device) */
	struct lan865x_emu_stats emu_stats; /* refreshed copy for stats dumps */
	struct ethdrv_spi_bus bus; /* the bus the driver talks to */
	struct ethdrv_spi_bus model_bus; /* emu: the model's own bus, timed by bus */
	struct ethdrv_mmio_bus mmio; /* emu:enet: the ENET model's bus */
	struct enet_emu_stats enet_stats; /* emu:enet: refreshed copy for stats dumps */
	struct gbeth_emu_stats gbeth_stats; /* emu:gbeth: likewise */
	struct etsec_emu_stats etsec_stats; /* emu:etsec: refreshed copy for stats dumps */
	double enet_ber; /* emu:enet: bit error rate of the frames this node sends */
	struct node_metrics metrics; /* refreshed for stats dumps */
	bool bus_open; /* bus needs closing (spidev) */
	struct ethdrv_netdev *dev; /* the driver's device */
	int tap_fd; /* the TAP, -1 when closed */
	struct ethdrv_watch tap_watch; /* TAP readable */
	struct ethdrv_pkt *tx_parked; /* frame refused with -EBUSY, retried on wake */
	bool tap_vnet; /* the TAP has a vnet header (backend->tap_offload) */
	unsigned tap_offloads; /* ETHDRV_TAP_OFF_* the kernel may use (knob tap_tso) */
	int tap_gro_on; /* coalesce received TCP segments (knob tap_gro); atomic */
	uint8_t *tap_overflow; /* what of a TAP frame does not fit its first packet */
	struct virtio_net_hdr tx_vh; /* the header of the frame read last */
	struct tap_frame tso_frame; /* the TSO frame being cut */
	struct ethdrv_pkt *tso_pkt; /* its first piece; NULL when no frame is being cut */
	struct tap_gso tso; /* the cutting (loop thread) */
	struct tap_gro gro; /* received segments held (poll context) */
	struct tap_batch txb; /* writes to the TAP held until the poll ends (poll context) */
	bool txb_open; /* txb is set up (the TAP is open) */
	struct fq fq; /* frames read from the TAP, per flow, until the device takes them */
	bool fq_on; /* knob fq: schedule through fq (loop thread) */
	int wake_fd; /* eventfd: the TX queue woke (any thread) */
	struct ethdrv_watch wake_watch; /* wake_fd readable */
	struct ethdrv_timer retry; /* resumes TAP reads after an empty pool */
	struct ctl_server *ctl; /* the control socket */
	struct ctl_server_stats ctl_stats; /* its counters, refreshed for stats dumps */
	int trace_dir_fd; /* run-time spi_trace files go here (trace_dir.h), -1 = refused */
	struct node_tap_stats tap_stats; /* TAP-side counters */
	struct node_fault_plan plan; /* periodic faults (loop thread) */
	struct ethdrv_timer fault_timer; /* fires every plan.period_ms */
	pid_t loop_tid; /* the loop thread (named "ethdrv/<ifname>") */
	unsigned rt_prio; /* SCHED_FIFO priority of loop and pollers, 0 = SCHED_OTHER */
	struct rt_guard rt_guard; /* their CPU time at the last spin check */
	struct ethdrv_timer rt_timer; /* the spin check, every RT_GUARD_PERIOD_MS at rt_prio */
	struct node_ctx ctx; /* execution contexts (node_ctx.c) */
};

/* node_ctx.c */
/* contexts, cpus, irq_affinity (-ENOENT for other keys). */
int node_ctx_set_knob(struct node *n, const char *key, const char *value, const char **why);
int node_ctx_get_knob(struct node *n, const char *key, char *buf, size_t size);
bool node_ctx_is_key(const char *key);
/* The priority the softirq contexts ask for: rt_prio, or NODE_CTX_PRIO. */
unsigned node_ctx_prio_wanted(const struct node *n);
/* The softirq loop threads at SCHED_FIFO @prio (SCHED_OTHER if not permitted). */
void node_ctx_set_prio(struct node *n, unsigned prio);
/* @fn for each softirq loop thread. */
void node_ctx_for_each_thread(struct node *n, void (*fn)(struct node *n, pid_t tid, void *arg),
			      void *arg);
/* The loop counters of the node's loop and its softirq loops, summed. */
void node_ctx_loop_stats(struct node *n, struct ethdrv_loop_stats *sum);
/* The ksoftirqd thread of softirq loop @i, 0 if none. */
int node_ctx_ksoftirqd_tid(struct node *n, unsigned i);
/* Pollers back to the node's loop, the softirq loops stopped (teardown). */
void node_ctx_free(struct node *n);

/* node_tap.c */
/* The TAP is readable: read a batch of frames and hand them to the device. */
void node_on_tap(struct ethdrv_watch *w, unsigned events);
/* Resume TAP reads after an empty pool. */
void node_on_retry(struct ethdrv_timer *t);
/* The TX queue woke up (any thread): signal the loop. */
void node_tx_wake(void *arg);
/* The loop got that signal: retry the parked frame. */
void node_on_wake(struct ethdrv_watch *w, unsigned events);
/* A received frame, to the TAP (the device's poll context). */
void node_rx(void *arg, struct ethdrv_pkt *pkt);
/* The device's RX poll ended: held segments and writes go to the kernel. */
void node_rx_flush(void *arg);
/* Where one TAP write ended: @frames counted as written or dropped (tap_batch_done_fn). */
void node_tap_done(void *arg, unsigned frames, int err);
/* The device's carrier changed: the TAP's follows (loop thread). */
void node_carrier(void *arg, bool up);

/* Offer @pkt to the device (through the fair queue when it is on); false if
 * its queue stopped (@pkt parked, TAP reads paused; never with the fair queue). */
bool node_tx(struct node *n, struct ethdrv_pkt *pkt);
/* To the driver directly; false if its queue stopped (@pkt parked in tx_parked). */
bool node_xmit(struct node *n, struct ethdrv_pkt *pkt);

/* node_fq.c */
/* The fair queue with fq_codel's defaults, off until fq=on; 0 or -errno. */
int node_fq_open(struct node *n);
/* Free what it holds. */
void node_fq_close(struct node *n);
/* Its counters (group "node") and the sojourn histogram into @set. */
void node_fq_register(struct node *n, struct ethdrv_stats_set *set);
/* Frames from the fair queue to the device until it is empty or the device stops. */
void node_fq_pump(struct node *n);
/* Knobs fq, fq_target, fq_interval, fq_quantum, fq_limit, fq_flows, fq_ecn (-ENOENT
 * else), and their table. */
extern const struct ethdrv_knob_table node_fq_knob_table;
int node_fq_set(struct node *n, const char *key, const char *value);
int node_fq_get(struct node *n, const char *key, char *buf, size_t size);
/* The pool is empty: pause TAP reads and try again in a moment. */
void node_tx_pause(struct node *n);

/* node_offload.c */
/* The TAP was opened with a vnet header: the overflow buffer and the offloads. */
int node_offload_open(struct node *n);
/* Free what node_offload_open() and the datapath hold. */
void node_offload_close(struct node *n);
/* Read one frame: header into n->tx_vh, frame into @pkt and the overflow; its length. */
ssize_t node_vnet_read(struct node *n, struct ethdrv_pkt *pkt);
/* A frame read but not sent (@why): counted in tap_rx_bad, freed. */
void node_vnet_bad(struct node *n, struct ethdrv_pkt *pkt, const char *why);
/* To the device: a TSO frame cut, a partial checksum finished; false if paused. */
bool node_vnet_xmit(struct node *n, struct ethdrv_pkt *pkt, size_t len);
/* Cut and send what the TSO frame still owes the device; false if paused. */
bool node_tso_pump(struct node *n);
/* A received frame to the TAP, coalesced with its neighbours (poll context). */
void node_vnet_rx(struct node *n, struct ethdrv_pkt *pkt);
/* The held segments go to the TAP's write batch (poll context). */
void node_gro_flush(struct node *n);
/* tap_tso and tap_gro (-ENOENT for other keys), and their table. */
extern const struct ethdrv_knob_table node_offload_knob_table;
int node_offload_set(struct node *n, const char *key, const char *value);
int node_offload_get(struct node *n, const char *key, char *buf, size_t size);

/* node_faults.c */
/* `emu.KEY=VALUE`: fault injection into the LAN8650 model; its table. */
extern const struct ethdrv_knob_table node_emu_knob_table;
int node_emu_set(struct node *n, const char *key, const char *v);
/* Read an emu.* knob. */
int node_emu_get(struct node *n, const char *key, char *buf, size_t size);
/* The fault timer: inject one burst of the periodic plan. */
void node_on_fault_timer(struct ethdrv_timer *t);

/* node_rt.c */
/* Prepare the spin guard's timer (once the loop exists). */
void node_rt_init(struct node *n);
/* Run the loop and poller threads at SCHED_FIFO @prio (0 = SCHED_OTHER); loop thread.
 * With contexts=irq the softirq loops take @prio (or NODE_CTX_PRIO for 0) and
 * the loop and pollers stay SCHED_OTHER (docs/design.md §4.5). */
int node_rt_set(struct node *n, unsigned prio, const char **why);
/* The knobs rt_prio and rt_spin_permille (-ENOENT for other keys), and their table. */
extern const struct ethdrv_knob_table node_rt_knob_table;
extern const struct ethdrv_knob_table node_ctx_knob_table;
int node_rt_set_knob(struct node *n, const char *key, const char *value, const char **why);
int node_rt_get_knob(struct node *n, const char *key, char *buf, size_t size);
/* True if the device polls busily now (its busy_poll knob is not 0). */
bool node_rt_busy_polling(struct node *n);
/* True (and *@why set) if busy_poll=@value must be refused: it would spin at rt_prio. */
bool node_rt_forbids_busy_poll(struct node *n, const char *value, const char **why);

/* node_metrics.c */
/* Wrap the model's bus so its transfers are timed in CPU time (model_cpu_ns). */
void node_metrics_time_model_bus(struct node *n);
/* Add the model's, the TAP's and the metrics' counter groups to the device's stats. */
void node_metrics_register(struct node *n);
/* Refresh n->metrics (and the model's counters) for a stats dump. */
void node_metrics_update(struct node *n);
/* CPU time of thread @tid of this process, 0 if it cannot be read. */
uint64_t node_thread_cpu_ns(pid_t tid);
/* Call @fn for each poller thread of @n ("napi/<ifname>-<poller>"). */
void node_for_each_poller(struct node *n, void (*fn)(struct node *n, pid_t tid, void *arg),
			  void *arg);

#endif /* ETHDRV_TOOLS_NODE_PRIV_H */
