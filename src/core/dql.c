// SPDX-License-Identifier: MIT
/*
 * Dynamic queue limits (docs/napi.md §4.2): grow the limit when the queue
 * starved while over it, shrink it by the lowest slack held for hold time.
 */
#include <limits.h>
#include <stdbool.h>
#include <time.h>
#include "ethdrv/dql.h"

/* a - b when a is after b in wrapping arithmetic, else 0. */
static unsigned dql_posdiff(unsigned a, unsigned b)
{
	return (int)(a - b) > 0 ? a - b : 0;
}

/* True when a is at or after b in wrapping arithmetic. */
static bool dql_after_eq(unsigned a, unsigned b)
{
	return (int)(a - b) >= 0;
}

static uint64_t dql_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void dql_restart_slack(struct ethdrv_dql *dql, uint64_t now_ns)
{
	dql->slack_start_ns = now_ns;
	dql->lowest_slack = UINT_MAX;
}

/* The queue stayed busy: track the slack, and shed it once held (docs/napi.md §4.2 step 3). */
static unsigned dql_shrink(struct ethdrv_dql *dql, unsigned count, uint64_t now_ns)
{
	unsigned slack, slack_last_objs = 0;

	slack = dql_posdiff(dql->limit + dql->prev_ovlimit, 2 * count);
	if (dql->prev_ovlimit)
		slack_last_objs = dql_posdiff(dql->prev_last_obj_cnt, dql->prev_ovlimit);
	slack = ETHDRV_MAX(slack, slack_last_objs);
	dql->lowest_slack = ETHDRV_MIN(dql->lowest_slack, slack);
	if (now_ns <= dql->slack_start_ns + dql->slack_hold_ns)
		return dql->limit;
	slack = dql->lowest_slack;
	dql_restart_slack(dql, now_ns);
	return dql_posdiff(dql->limit, slack);
}

ETHDRV_EXPORT void ethdrv_dql_completed_at(struct ethdrv_dql *dql, unsigned count, uint64_t now_ns)
{
	/* The enqueuer writes num_queued and last_obj_cnt concurrently. */
	unsigned num_queued = __atomic_load_n(&dql->num_queued, __ATOMIC_RELAXED);
	unsigned last_obj_cnt = __atomic_load_n(&dql->last_obj_cnt, __ATOMIC_RELAXED);
	unsigned completed = dql->num_completed + count;
	unsigned ovlimit = dql_posdiff(num_queued - dql->num_completed, dql->limit);
	unsigned inprogress = num_queued - completed;
	unsigned prev_inprogress = dql->prev_num_queued - dql->num_completed;
	bool all_prev_completed = dql_after_eq(completed, dql->prev_num_queued);
	unsigned limit = dql->limit;

	if ((ovlimit && !inprogress) || (dql->prev_ovlimit && all_prev_completed)) {
		/* Starved while over the limit: grow (docs/napi.md §4.2 step 2). */
		limit += dql_posdiff(completed, dql->prev_num_queued) + dql->prev_ovlimit;
		dql_restart_slack(dql, now_ns);
	} else if (inprogress && prev_inprogress && !all_prev_completed) {
		limit = dql_shrink(dql, count, now_ns);
	}

	limit = ETHDRV_MIN(ETHDRV_MAX(limit, dql->min_limit), dql->max_limit);
	if (limit != dql->limit) {
		__atomic_store_n(&dql->limit, limit, __ATOMIC_RELAXED); /* read by "bql_limit" */
		ovlimit = 0;
	}
	__atomic_store_n(&dql->adj_limit, limit + completed, __ATOMIC_RELAXED);
	dql->prev_ovlimit = ovlimit;
	dql->prev_last_obj_cnt = last_obj_cnt;
	__atomic_store_n(&dql->num_completed, completed, __ATOMIC_RELAXED);
	dql->prev_num_queued = num_queued;
}

ETHDRV_EXPORT void ethdrv_dql_completed(struct ethdrv_dql *dql, unsigned count)
{
	ethdrv_dql_completed_at(dql, count, dql_now_ns());
}

ETHDRV_EXPORT void ethdrv_dql_reset(struct ethdrv_dql *dql)
{
	__atomic_store_n(&dql->limit, dql->min_limit, __ATOMIC_RELAXED);
	__atomic_store_n(&dql->num_queued, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&dql->num_completed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&dql->last_obj_cnt, 0, __ATOMIC_RELAXED);
	dql->prev_num_queued = 0;
	dql->prev_last_obj_cnt = 0;
	dql->prev_ovlimit = 0;
	dql_restart_slack(dql, dql_now_ns());
	__atomic_store_n(&dql->adj_limit, dql->limit, __ATOMIC_RELAXED);
}

ETHDRV_EXPORT void ethdrv_dql_init(struct ethdrv_dql *dql, uint64_t hold_ns)
{
	dql->max_limit = ETHDRV_DQL_MAX_LIMIT;
	dql->min_limit = 0;
	dql->slack_hold_ns = hold_ns;
	ethdrv_dql_reset(dql);
}
