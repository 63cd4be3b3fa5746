/* SPDX-License-Identifier: MIT */
/*
 * NAPI internals shared by napi.c and netdev.c (the device layer, as
 * Linux's net/core/dev.c holds both net_device and napi_struct): the poller
 * struct and its state bits. The per-loop poll lists ("softnet") are
 * napi.c's own; the loop sees them only as its deferred-work stage
 * (loop_priv.h).
 */
#ifndef ETHDRV_CORE_NAPI_PRIV_H
#define ETHDRV_CORE_NAPI_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/loop.h"
#include "ethdrv/napi.h"

/* State bits of struct ethdrv_napi.state (docs/napi.md §1.3). */
#define NAPI_S_SCHED 0x01u /* owned: scheduled or polling */
#define NAPI_S_MISSED 0x02u /* a schedule arrived while owned: poll again */
#define NAPI_S_DISABLE 0x04u /* disable pending or done: no new schedules */
#define NAPI_S_THREADED 0x08u /* schedules go to the poller thread */
#define NAPI_S_SCHED_THREADED 0x10u /* the poller thread owns the current schedule */
#define NAPI_S_IN_BUSY_POLL 0x20u /* the busy-poller owns it */
#define NAPI_S_PREFER_BUSY_POLL 0x40u /* the busy-poller wants it back soon */

struct ethdrv__softnet;

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
