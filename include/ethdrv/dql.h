/* SPDX-License-Identifier: MIT */
/*
 * Dynamic queue limits: the byte limit on a TX queue that keeps the device
 * busy with the fewest bytes in flight. The algorithm behaves as Linux's
 * lib/dynamic_queue_limits.c (docs/napi.md §4.2): the limit grows when the
 * queue starved while over the limit, and shrinks by the lowest slack seen
 * once slack persisted for hold_time.
 *
 * Concurrency: no internal locking. ethdrv_dql_queued() is called by one
 * thread (the enqueuer) and ethdrv_dql_completed() by one thread (the
 * completer), possibly a different one; the stop/wake protocol that makes
 * this safe lives in the netdev TX queue (ethdrv_netdev_tx_sent() and
 * ethdrv_netdev_tx_completed()), with full barriers as the kernel's.
 */
#ifndef ETHDRV_DQL_H
#define ETHDRV_DQL_H

#include <stdint.h>
#include "compiler.h"

/* Largest limit: UINT_MAX/2 - UINT_MAX/16, as the kernel's DQL_MAX_LIMIT. */
#define ETHDRV_DQL_MAX_LIMIT ((UINT32_MAX / 2) - (UINT32_MAX / 16))
/* Default hold time before the limit shrinks (docs/napi.md §4.2: 1000 ms). */
#define ETHDRV_DQL_HOLD_TIME_NS (1000ull * 1000 * 1000)

struct ethdrv_dql {
	/* Fields written by the enqueuer (ethdrv_dql_queued). */
	unsigned num_queued; /* total bytes ever queued (wraps) */
	unsigned adj_limit; /* limit + num_completed */
	unsigned last_obj_cnt; /* bytes of the last enqueue */

	/* Fields written by the completer (ethdrv_dql_completed). */
	unsigned limit; /* current byte limit */
	unsigned num_completed; /* total bytes ever completed (wraps) */
	unsigned prev_ovlimit; /* how far over the limit at the previous completion */
	unsigned prev_num_queued; /* num_queued at the previous completion */
	unsigned prev_last_obj_cnt; /* last_obj_cnt at the previous completion */
	unsigned lowest_slack; /* lowest slack seen since slack_start_ns */
	uint64_t slack_start_ns; /* when slack tracking restarted */

	/* Configuration. */
	unsigned max_limit; /* upper bound, default ETHDRV_DQL_MAX_LIMIT */
	unsigned min_limit; /* lower bound, default 0 */
	uint64_t slack_hold_ns; /* hold time, default ETHDRV_DQL_HOLD_TIME_NS */
};

/**
 * ethdrv_dql_init() - initialise @dql with default bounds and @hold_ns
 * @dql: the queue limit state
 * @hold_ns: slack hold time in ns (ETHDRV_DQL_HOLD_TIME_NS for the default)
 */
ETHDRV_EXPORT void ethdrv_dql_init(struct ethdrv_dql *dql, uint64_t hold_ns);

/**
 * ethdrv_dql_reset() - forget all history (limit back to min_limit)
 * @dql: the queue limit state
 *
 * Call when the device's queue is flushed (kernel netdev_tx_reset_queue).
 */
ETHDRV_EXPORT void ethdrv_dql_reset(struct ethdrv_dql *dql);

/**
 * ethdrv_dql_queued() - record @count bytes handed to the device
 * @dql: the queue limit state
 * @count: bytes of one object (frame); must be <= ETHDRV_DQL_MAX_LIMIT
 */
static inline void ethdrv_dql_queued(struct ethdrv_dql *dql, unsigned count)
{
	/* Atomic stores: the completer reads both concurrently (a plain store
	 * would be a data race). Only this thread writes them, so the plain
	 * read of num_queued is safe. Pairs with the barrier in the netdev
	 * stop/wake protocol.
	 */
	__atomic_store_n(&dql->last_obj_cnt, count, __ATOMIC_RELAXED);
	__atomic_store_n(&dql->num_queued, dql->num_queued + count, __ATOMIC_RELAXED);
}

/**
 * ethdrv_dql_avail() - bytes that may still be queued before the limit
 * @dql: the queue limit state
 *
 * Return: a negative value when over the limit.
 */
static inline int ethdrv_dql_avail(const struct ethdrv_dql *dql)
{
	return (int)(__atomic_load_n(&dql->adj_limit, __ATOMIC_RELAXED) -
		     __atomic_load_n(&dql->num_queued, __ATOMIC_RELAXED));
}

/**
 * ethdrv_dql_inflight() - bytes queued and not yet completed
 * @dql: the queue limit state
 */
static inline unsigned ethdrv_dql_inflight(const struct ethdrv_dql *dql)
{
	return __atomic_load_n(&dql->num_queued, __ATOMIC_RELAXED) -
	       __atomic_load_n(&dql->num_completed, __ATOMIC_RELAXED);
}

/**
 * ethdrv_dql_completed_at() - record @count bytes completed at time @now_ns
 * @dql: the queue limit state
 * @count: bytes completed in this completion round (not per frame)
 * @now_ns: the current time; tests and simulated clocks pass their own
 *
 * Grows or shrinks the limit as described at the top of this file.
 */
ETHDRV_EXPORT void ethdrv_dql_completed_at(struct ethdrv_dql *dql, unsigned count, uint64_t now_ns);

/**
 * ethdrv_dql_completed() - ethdrv_dql_completed_at() with CLOCK_MONOTONIC
 * @dql: the queue limit state
 * @count: bytes completed in this completion round
 */
ETHDRV_EXPORT void ethdrv_dql_completed(struct ethdrv_dql *dql, unsigned count);

#endif /* ETHDRV_DQL_H */
