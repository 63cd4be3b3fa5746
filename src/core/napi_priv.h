/* SPDX-License-Identifier: MIT */
/*
 * NAPI internals shared by napi.c, napi_thread.c, napi_busy.c and netdev.c
 * (the device layer, as Linux's net/core/dev.c holds both net_device and
 * napi_struct): the poller struct, its state bits, the per-loop poll lists
 * ("softnet"), and the calls between the three NAPI files. The loop sees the
 * poll lists only as its deferred-work stage (loop_priv.h).
 */
#ifndef ETHDRV_CORE_NAPI_PRIV_H
#define ETHDRV_CORE_NAPI_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/loop.h"
#include "ethdrv/napi.h"
#include "loop_priv.h"

#define NAPI_NSEC_PER_USEC 1000ull
#define NAPI_LINES_MAX 2 /* driver-owned interrupt lines per poller (ethdrv_napi_line_start) */

/* State bits of struct ethdrv_napi.state (docs/napi.md §1.3). */
#define NAPI_S_SCHED 0x01u /* owned: scheduled or polling */
#define NAPI_S_MISSED 0x02u /* a schedule arrived while owned: poll again */
#define NAPI_S_DISABLE 0x04u /* disable pending or done: no new schedules */
#define NAPI_S_THREADED 0x08u /* schedules go to the poller thread */
#define NAPI_S_SCHED_THREADED 0x10u /* the poller thread owns the current schedule */
#define NAPI_S_IN_BUSY_POLL 0x20u /* the busy-poller owns it */
#define NAPI_S_PREFER_BUSY_POLL 0x40u /* the busy-poller wants it back soon */

/* Link in the device's list of pollers (driver.h names the head type). */
struct ethdrv__napi_list {
	struct ethdrv__napi_list *next; /* next poller of the same device */
};

struct ethdrv_napi {
	/* Hot fields, read on every schedule and poll. */
	unsigned state; /* NAPI_S_* bits, atomic */
	ethdrv_napi_poll_fn poll; /* the driver's poll method */
	int weight; /* per-poll budget, atomic (the "budget" knob may change it) */
	void *ctx; /* driver context */
	struct ethdrv_loop *loop; /* the device's loop */
	struct ethdrv__softnet *sn; /* its loop's poll lists (napi.c) */
	struct ethdrv_napi *poll_next; /* poll list link (owned with SCHED) */
	unsigned defer_count; /* defer_hard_irqs countdown; touched by the owner only */
	bool timer_poll; /* the defer timer scheduled the next poll (owner only) */
	bool tx; /* TX-completion poller: never busy-polled */
	bool deleted; /* ethdrv_napi_del() ran; memory kept for its counters */
	int polling; /* atomic: a poll list runs @n now (until its bookkeeping is done) */
	int warned; /* "poll returned more than weight" logged (atomic) */

	struct ethdrv_netdev *dev; /* owning device */
	struct ethdrv__napi_list dev_link; /* in dev->napis */
	char name[16]; /* "rx", "tx" */
	char prefix[24]; /* "napi_<name>" for stats */
	char hist_name[48]; /* "napi_<name>_irq_to_poll_ns" */
	struct ethdrv_napi_config cfg; /* knobs; fields read cross-thread are atomic */
	struct ethdrv_napi_stats stats; /* counters, registered in dev->stats_set */

	/* IRQ source. */
	struct ethdrv_watch irq_watch; /* events 0 = masked; set from any thread */
	struct ethdrv_watch *lines[NAPI_LINES_MAX]; /* driver-owned lines on this poller's loop */
	unsigned nlines; /* entries in lines (the device's loop thread) */
	bool irq_attached; /* irq_watch is started */
	uint64_t irq_ts; /* atomic: time of the IRQ not yet polled, 0 = none */

	/* Software IRQ coalescing (softirq mode): a loop timer. */
	struct ethdrv_timer defer_timer; /* re-poll after gro_flush_timeout */

	/* Threaded mode. */
	pthread_t thread; /* the poller thread while thread_on */
	bool thread_on; /* a poller thread exists (loop thread only) */
	pthread_mutex_t thread_lock; /* protects thread_stop and the condvar wait */
	pthread_cond_t thread_cond; /* poller thread sleeps here */
	int thread_stop; /* ask the poller thread to exit (under thread_lock) */
	int thread_sleeping; /* atomic: the poller thread may be waiting */
	uint64_t thread_deadline; /* atomic: defer deadline the thread owns, 0 = none */

	/* Busy polling (loop thread only, except busy_requested). */
	struct ethdrv_napi *busy_next; /* in softnet busy list */
	bool busy_listed; /* on the busy list */
	bool busy_active; /* busy-poller owns SCHED|IN_BUSY_POLL */
	int busy_requested; /* atomic: a normal poll did work; enter busy mode */
	uint64_t busy_last_work_ns; /* last busy poll that found work */
};

/* Per-loop NAPI data (Linux softnet_data), the loop's deferred-work stage. */
struct ethdrv__softnet {
	struct ethdrv__loop_softirq stage; /* attached to the loop (loop_priv.h) */
	struct ethdrv_napi *head; /* poll list, loop thread only */
	struct ethdrv_napi *tail; /* its last entry */
	pthread_mutex_t lock; /* protects remote_head/remote_tail */
	struct ethdrv_napi *remote_head; /* pollers scheduled from other threads */
	struct ethdrv_napi *remote_tail; /* its last entry */
	int remote_pending; /* atomic: remote_head may be non-empty */
	struct ethdrv_napi *busy; /* pollers with busy_poll_us > 0 (loop thread) */
	unsigned busy_active; /* pollers owned by the busy-poller now */
	int busy_requested; /* atomic: some poller asked for busy mode */

	/* The ksoftirqd analogue (napi_ksoftirqd.c, docs/design.md §4.6). While
	 * deferred is set, head/tail belong to the ksoftirqd thread, schedules
	 * go to the remote list and wake it, and the loop leaves the list alone. */
	struct ethdrv_loop *loop; /* the loop this is the stage of */
	struct ethdrv__softirq_burst burst; /* the loop thread's current burst */
	int deferred; /* atomic; set by the loop thread, cleared by ksoftirqd under lock */
	pthread_t ksoftirqd; /* the thread, while ksoftirqd_on */
	bool ksoftirqd_on; /* it exists (loop thread; read by destroy) */
	int ksoftirqd_stop; /* ask it to exit (under lock) */
	/* Held by whoever runs the list while deferred: ksoftirqd for each of
	 * its runs, the loop for a burst at an interrupt's exit (the 6.5+ rule,
	 * irq_exit_inline). Priority-inheriting: the loop waiting for it lifts
	 * ksoftirqd to its priority for the rest of that run, as a run of
	 * Linux's ksoftirqd is not preempted by tasks. */
	pthread_mutex_t run_lock;
	pthread_cond_t ksoftirqd_cond; /* it sleeps here (with lock) */
};

static inline unsigned ethdrv__napi_state(const struct ethdrv_napi *n)
{
	return __atomic_load_n(&n->state, __ATOMIC_ACQUIRE);
}

static inline void ethdrv__napi_clear_bits(struct ethdrv_napi *n, unsigned bits)
{
	__atomic_and_fetch(&n->state, ~bits, __ATOMIC_SEQ_CST);
}

/* napi.c */
/* One poll with bookkeeping; returns the work, clamped to @budget. */
int ethdrv__napi_run_poll(struct ethdrv_napi *n, int budget);
/* Give up ownership without the defer logic (disable pending). */
void ethdrv__napi_release(struct ethdrv_napi *n);
/* The defer timer expired (Linux napi_watchdog): schedule without MISSED. */
void ethdrv__napi_defer_expired(struct ethdrv_napi *n);

/* The poll list (net_rx_action) of @sn within netdev_budget / netdev_budget_usecs. */
int ethdrv__napi_run_list(struct ethdrv_loop *loop, struct ethdrv__softnet *sn,
			  enum ethdrv__softirq_stop *why);

/* napi_ksoftirqd.c */
/* The loop's burst is spent: ksoftirqd takes the poll list; false if it cannot. */
bool ethdrv__ksoftirqd_handoff(struct ethdrv__softnet *sn);
/* Wake ksoftirqd for work queued on the remote list (sn->lock held). */
void ethdrv__ksoftirqd_kick(struct ethdrv__softnet *sn);
/* Stop and join the thread (stage destroy). */
void ethdrv__ksoftirqd_stop(struct ethdrv__softnet *sn);
/* Both lists empty: give the list back to the loop; true if it did (run_lock held). */
bool ethdrv__ksoftirqd_give_back(struct ethdrv__softnet *sn);
/* The run lock, priority-inheriting where the host has it; 0 or -errno. */
int ethdrv__ksoftirqd_lock_init(struct ethdrv__softnet *sn);

/* napi.c, for napi_irq.c */
/* Run @fn(@arg) in the thread of @n's loop, or here on the device's own loop. */
void ethdrv__napi_on_loop(struct ethdrv_napi *n, void (*fn)(void *arg), void *arg);
/* ethdrv__napi_on_loop() callback: stop the poller's defer timer (@arg: the poller). */
void ethdrv__napi_timer_stop_run(void *arg);
/* The softnet (poll list and softirq stage) of @loop, created on first use; 0 or -errno. */
int ethdrv__napi_sn_get(struct ethdrv_loop *loop, struct ethdrv__softnet **out);
/* The defer timer's callback (gro_flush_timeout expired). */
void ethdrv__napi_defer_timer_cb(struct ethdrv_timer *t);

/* napi_busy.c */
/* A productive normal poll asks the busy-poller to take over (any thread). */
void ethdrv__napi_busy_request(struct ethdrv_napi *n);
/* Busy-poll the pollers in busy mode (loop step 5); the packets processed. */
int ethdrv__napi_busy_run(struct ethdrv_loop *loop, struct ethdrv__softnet *sn);
/* Leave busy mode: drop IN_BUSY_POLL, keep SCHED for one more poll if @schedule. */
void ethdrv__napi_busy_stop(struct ethdrv_napi *n, bool schedule);
/* Put @n on, or take it off, its loop's busy list as its knobs say. */
void ethdrv__napi_busy_list_update(struct ethdrv_napi *n);

/* napi_thread.c */
/* Wake @n's poller thread if it may be sleeping. */
void ethdrv__napi_thread_wake(struct ethdrv_napi *n);
/* Create the poller thread and route schedules to it; 0 or -errno. */
int ethdrv__napi_thread_start(struct ethdrv_napi *n);
/* Route schedules back to the loop and join the thread. */
void ethdrv__napi_thread_stop(struct ethdrv_napi *n);
/* True in @n's own poller thread. */
bool ethdrv__napi_thread_is_current(const struct ethdrv_napi *n);

/* Delete and free every poller of @dev (device cleanup). */
void ethdrv__napi_free_all(struct ethdrv_netdev *dev);
/* Set the poll weight of a non-TX poller (the "budget" knob). */
void ethdrv__napi_set_weight(struct ethdrv_napi *napi, int weight);

/* Poller of a device list link. */
static inline struct ethdrv_napi *ethdrv__napi_from_link(struct ethdrv__napi_list *l)
{
	return ethdrv_container_of(l, struct ethdrv_napi, dev_link);
}

#endif /* ETHDRV_CORE_NAPI_PRIV_H */
