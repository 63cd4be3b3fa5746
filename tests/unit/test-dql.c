// SPDX-License-Identifier: MIT
/*
 * Dynamic queue limits (docs/napi.md §4.2). Every expected number below is
 * derived by hand, step by step, from the completion algorithm:
 *
 *   completed = nc + count              (nc = num_completed before the call)
 *   ovlimit   = posdiff(nq - nc, limit)  (nq = num_queued)
 *   inprog    = nq - completed,  prev_inprog = pnq - nc  (pnq = prev_num_queued)
 *   allprev   = completed at/after pnq (wrapping compare)
 *   grow   if (ovlimit && !inprog) || (pov && allprev)   (pov = prev_ovlimit):
 *          limit += posdiff(completed, pnq) + pov; restart slack
 *   shrink if inprog && prev_inprog && !allprev:
 *          slack = max(posdiff(limit + pov, 2 * count),
 *                      pov ? posdiff(plo, pov) : 0)      (plo = prev_last_obj_cnt)
 *          lowest = min(lowest, slack); after hold: limit -= lowest, restart
 *   clamp to [min, max]; limit changed -> ovlimit = 0
 *   adj = limit + completed; pov = ovlimit; plo = last_obj; nc = completed; pnq = nq
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>
#include "ethdrv/dql.h"

#define HOLD_NS 1000000u /* 1 ms: the tests pass explicit times around it */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A queue initialised with the default bounds, then limit = @limit. */
static void dql_setup(struct ethdrv_dql *dql, unsigned limit)
{
	ethdrv_dql_init(dql, HOLD_NS);
	dql->min_limit = limit;
	ethdrv_dql_reset(dql);
	dql->min_limit = 0;
}

static void queue_n(struct ethdrv_dql *dql, unsigned n, unsigned bytes)
{
	while (n--)
		ethdrv_dql_queued(dql, bytes);
}

static void test_dql_init_defaults(void **state)
{
	struct ethdrv_dql dql;
	uint64_t before = mono_ns(), after;

	ethdrv_dql_init(&dql, 7777);
	after = mono_ns();
	/* docs/napi.md §4.2: DQL_MAX_LIMIT = UINT_MAX/2 - UINT_MAX/16 = 1879048192. */
	assert_int_equal(dql.max_limit, 1879048192u);
	assert_int_equal(dql.min_limit, 0);
	assert_int_equal(dql.slack_hold_ns, 7777);
	assert_int_equal(dql.limit, 0);
	assert_int_equal(dql.adj_limit, 0);
	assert_int_equal(dql.lowest_slack, UINT_MAX);
	assert_true(dql.slack_start_ns >= before && dql.slack_start_ns <= after);
	assert_int_equal(ethdrv_dql_avail(&dql), 0);
	assert_int_equal(ethdrv_dql_inflight(&dql), 0);
}

/* (a) limit 0, one 1514-byte frame queued and completed: the queue starved. */
static void test_dql_starvation_growth(void **state)
{
	struct ethdrv_dql dql;

	dql_setup(&dql, 0);
	ethdrv_dql_queued(&dql, 1514);
	/* nq = 1514; avail = adj 0 - nq 1514 = -1514 (over the limit). */
	assert_int_equal(ethdrv_dql_avail(&dql), -1514);
	assert_int_equal(ethdrv_dql_inflight(&dql), 1514);

	/* completed = 0 + 1514 = 1514; ovlimit = posdiff(1514 - 0, 0) = 1514;
	 * inprog = 1514 - 1514 = 0 -> grow: limit = 0 + posdiff(1514, pnq 0) + pov 0
	 * = 1514. Changed, so ovlimit -> 0. adj = 1514 + 1514 = 3028; pov = 0;
	 * nc = 1514; pnq = 1514. avail = 3028 - 1514 = 1514.
	 */
	ethdrv_dql_completed_at(&dql, 1514, 100);
	assert_int_equal(dql.limit, 1514);
	assert_int_equal(dql.adj_limit, 3028);
	assert_int_equal(dql.prev_ovlimit, 0);
	assert_int_equal(dql.prev_num_queued, 1514);
	assert_int_equal(dql.slack_start_ns, 100);
	assert_int_equal(ethdrv_dql_avail(&dql), 1514);
	assert_int_equal(ethdrv_dql_inflight(&dql), 0);

	/* Round 2: two frames (3028 > limit 1514), all completed at once.
	 * nq = 1514 + 3028 = 4542; completed = 1514 + 3028 = 4542;
	 * ovlimit = posdiff(3028, 1514) = 1514; inprog = 0 -> grow:
	 * limit = 1514 + posdiff(4542, 1514) + 0 = 1514 + 3028 = 4542;
	 * adj = 4542 + 4542 = 9084; pnq = 4542; ovlimit -> 0.
	 */
	queue_n(&dql, 2, 1514);
	assert_int_equal(ethdrv_dql_avail(&dql), -1514); /* 3028 - 4542 */
	ethdrv_dql_completed_at(&dql, 3028, 200);
	assert_int_equal(dql.limit, 4542);
	assert_int_equal(dql.adj_limit, 9084);
	assert_int_equal(dql.prev_ovlimit, 0);

	/* Round 3: four frames (6056 > limit 4542), all completed at once.
	 * nq = 4542 + 6056 = 10598; completed = 10598; ovlimit = posdiff(6056,
	 * 4542) = 1514; inprog = 0 -> grow: limit = 4542 + posdiff(10598, 4542)
	 * = 4542 + 6056 = 10598; adj = 10598 + 10598 = 21196.
	 */
	queue_n(&dql, 4, 1514);
	ethdrv_dql_completed_at(&dql, 6056, 300);
	assert_int_equal(dql.limit, 10598);
	assert_int_equal(dql.adj_limit, 21196);
	assert_int_equal(ethdrv_dql_avail(&dql), 10598);
}

/* (a) Grow case 2: over the limit last interval and everything since done. */
static void test_dql_growth_after_overlimit_interval(void **state)
{
	struct ethdrv_dql dql;

	dql_setup(&dql, 0);
	ethdrv_dql_queued(&dql, 1514);
	ethdrv_dql_completed_at(&dql, 1514, 100);
	/* As in the starvation test: limit 1514, nc 1514, pnq 1514, pov 0. */
	assert_int_equal(dql.limit, 1514);

	/* Three frames: nq = 1514 + 4542 = 6056, last_obj 1514. Complete one:
	 * completed = 3028; ovlimit = posdiff(6056 - 1514, 1514) = 3028;
	 * inprog = 6056 - 3028 = 3028; prev_inprog = 1514 - 1514 = 0;
	 * allprev = 3028 >= 1514. No grow (inprog, pov 0), no shrink
	 * (prev_inprog 0). Limit unchanged so ovlimit is kept: pov = 3028;
	 * adj = 1514 + 3028 = 4542; nc = 3028; pnq = 6056.
	 */
	queue_n(&dql, 3, 1514);
	ethdrv_dql_completed_at(&dql, 1514, 200);
	assert_int_equal(dql.limit, 1514);
	assert_int_equal(dql.prev_ovlimit, 3028);
	assert_int_equal(ethdrv_dql_avail(&dql), -1514); /* 4542 - 6056 */

	/* Complete one more: completed = 4542; ovlimit = posdiff(3028, 1514) =
	 * 1514; inprog = 1514; prev_inprog = 6056 - 3028 = 3028; allprev =
	 * 4542 >= 6056 is false. Grow: no. Shrink path: slack = posdiff(1514 +
	 * 3028, 2 * 1514) = 1514; last-object term posdiff(1514, 3028) = 0;
	 * lowest = 1514. Time 300 is not past slack_start 100 + hold 1e6, so the
	 * limit stays 1514. pov = 1514; adj = 1514 + 4542 = 6056; nc = 4542.
	 */
	ethdrv_dql_completed_at(&dql, 1514, 300);
	assert_int_equal(dql.limit, 1514);
	assert_int_equal(dql.lowest_slack, 1514);
	assert_int_equal(dql.prev_ovlimit, 1514);
	assert_int_equal(ethdrv_dql_avail(&dql), 0); /* 6056 - 6056 */

	/* Complete the last: completed = 6056; ovlimit = posdiff(1514, 1514) = 0;
	 * inprog = 0; allprev = 6056 >= 6056. Grow by (pov 1514 && allprev):
	 * limit = 1514 + posdiff(6056, 6056) + 1514 = 3028; slack restarts.
	 * adj = 3028 + 6056 = 9084; avail = 9084 - 6056 = 3028.
	 */
	ethdrv_dql_completed_at(&dql, 1514, 400);
	assert_int_equal(dql.limit, 3028);
	assert_int_equal(dql.lowest_slack, UINT_MAX);
	assert_int_equal(dql.slack_start_ns, 400);
	assert_int_equal(ethdrv_dql_avail(&dql), 3028);
}

/* (b) A queue busy with persistent slack: shrink only after the hold time. */
static void test_dql_shrink_after_hold(void **state)
{
	struct ethdrv_dql dql;
	uint64_t t0;

	dql_setup(&dql, 10000);
	t0 = dql.slack_start_ns;
	queue_n(&dql, 5, 1000); /* nq = 5000 */

	/* C1: completed 1000; ovlimit = posdiff(5000, 10000) = 0; inprog 4000;
	 * prev_inprog = 0 - 0 = 0: neither grow nor shrink. adj 11000; nc 1000;
	 * pnq 5000.
	 */
	ethdrv_dql_completed_at(&dql, 1000, t0 + 1000);
	assert_int_equal(dql.limit, 10000);
	assert_int_equal(dql.lowest_slack, UINT_MAX);

	/* nq 6000. C2: completed 2000; ovlimit 0; inprog 4000; prev_inprog =
	 * 5000 - 1000 = 4000; allprev = 2000 >= 5000 false -> shrink path:
	 * slack = posdiff(10000 + 0, 2000) = 8000 (pov 0: no last-object term);
	 * lowest 8000; not past hold. nc 2000; pnq 6000.
	 */
	ethdrv_dql_queued(&dql, 1000);
	ethdrv_dql_completed_at(&dql, 1000, t0 + 2000);
	assert_int_equal(dql.limit, 10000);
	assert_int_equal(dql.lowest_slack, 8000);

	/* nq 8000. C3 (2000 bytes): completed 4000; inflight before 6000 ->
	 * ovlimit 0; inprog 4000; prev_inprog = 6000 - 2000 = 4000; allprev =
	 * 4000 >= 6000 false: slack = posdiff(10000, 4000) = 6000; lowest 6000.
	 * nc 4000; pnq 8000.
	 */
	queue_n(&dql, 2, 1000);
	ethdrv_dql_completed_at(&dql, 2000, t0 + 3000);
	assert_int_equal(dql.limit, 10000);
	assert_int_equal(dql.lowest_slack, 6000);

	/* nq 9000. C4 at exactly t0 + hold (not after it): completed 5000;
	 * inprog 4000; prev_inprog = 8000 - 4000 = 4000; allprev false; slack
	 * 8000; lowest stays 6000; no shrink yet. nc 5000; pnq 9000.
	 */
	ethdrv_dql_queued(&dql, 1000);
	ethdrv_dql_completed_at(&dql, 1000, t0 + HOLD_NS);
	assert_int_equal(dql.limit, 10000);
	assert_int_equal(dql.lowest_slack, 6000);

	/* nq 10000. C5 at t0 + hold + 1: completed 6000; inprog 4000;
	 * prev_inprog = 9000 - 5000 = 4000; allprev false; slack 8000; lowest
	 * 6000; past the hold: limit = posdiff(10000, 6000) = 4000, tracking
	 * restarts. adj = 4000 + 6000 = 10000; avail = 10000 - 10000 = 0;
	 * inflight = 10000 - 6000 = 4000.
	 */
	ethdrv_dql_queued(&dql, 1000);
	ethdrv_dql_completed_at(&dql, 1000, t0 + HOLD_NS + 1);
	assert_int_equal(dql.limit, 4000);
	assert_int_equal(dql.adj_limit, 10000);
	assert_int_equal(dql.lowest_slack, UINT_MAX);
	assert_int_equal(dql.slack_start_ns, t0 + HOLD_NS + 1);
	assert_int_equal(ethdrv_dql_avail(&dql), 0);
	assert_int_equal(ethdrv_dql_inflight(&dql), 4000);
}

/* (b) The slack can come from the part of the last enqueue past the overlimit. */
static void test_dql_shrink_last_object_slack(void **state)
{
	struct ethdrv_dql dql;
	uint64_t t0;

	dql_setup(&dql, 3000);
	t0 = dql.slack_start_ns;
	queue_n(&dql, 2, 1000);
	ethdrv_dql_queued(&dql, 1500); /* nq 3500, last_obj 1500 */

	/* C1: completed 1000; ovlimit = posdiff(3500, 3000) = 500; inprog 2500;
	 * prev_inprog 0: nothing. Limit unchanged, so pov = 500; plo = 1500;
	 * adj = 4000; nc 1000; pnq 3500.
	 */
	ethdrv_dql_completed_at(&dql, 1000, t0 + 1);
	assert_int_equal(dql.limit, 3000);
	assert_int_equal(dql.prev_ovlimit, 500);
	assert_int_equal(dql.prev_last_obj_cnt, 1500);

	/* nq 4500, last_obj 1000. C2 (1500 bytes) after the hold: completed
	 * 2500; ovlimit = posdiff(3500, 3000) = 500; inprog 2000; prev_inprog =
	 * 3500 - 1000 = 2500; allprev = 2500 >= 3500 false; no grow (inprog;
	 * pov but not allprev). slack = max(posdiff(3000 + 500, 3000) = 500,
	 * posdiff(plo 1500, pov 500) = 1000) = 1000 -> limit = 3000 - 1000 = 2000
	 * (the first term alone would give 2500). Changed: pov = 0.
	 * adj = 2000 + 2500 = 4500; avail = 4500 - 4500 = 0.
	 */
	ethdrv_dql_queued(&dql, 1000);
	ethdrv_dql_completed_at(&dql, 1500, t0 + HOLD_NS + 1);
	assert_int_equal(dql.limit, 2000);
	assert_int_equal(dql.prev_ovlimit, 0);
	assert_int_equal(ethdrv_dql_avail(&dql), 0);
}

/* (c) max_limit caps growth; a clamp that leaves the limit as it was keeps ovlimit. */
static void test_dql_clamp_max(void **state)
{
	struct ethdrv_dql dql;

	dql_setup(&dql, 0);
	dql.max_limit = 1000;

	/* completed 1514; ovlimit 1514; inprog 0 -> grow to 0 + 1514 = 1514,
	 * clamped to 1000. Changed (0 -> 1000): pov = 0. adj = 1000 + 1514 = 2514.
	 */
	ethdrv_dql_queued(&dql, 1514);
	ethdrv_dql_completed_at(&dql, 1514, 100);
	assert_int_equal(dql.limit, 1000);
	assert_int_equal(dql.prev_ovlimit, 0);
	assert_int_equal(dql.adj_limit, 2514);

	/* nq = 1514 + 3028 = 4542; avail = 2514 - 4542 = -2028. Complete all:
	 * completed 4542; ovlimit = posdiff(3028, 1000) = 2028; inprog 0 -> grow
	 * to 1000 + posdiff(4542, 1514) = 4028, clamped to 1000: unchanged, so
	 * ovlimit is kept: pov = 2028. adj = 1000 + 4542 = 5542.
	 */
	queue_n(&dql, 2, 1514);
	assert_int_equal(ethdrv_dql_avail(&dql), -2028);
	ethdrv_dql_completed_at(&dql, 3028, 200);
	assert_int_equal(dql.limit, 1000);
	assert_int_equal(dql.prev_ovlimit, 2028);
	assert_int_equal(dql.adj_limit, 5542);
}

/* (c) min_limit stops a shrink. */
static void test_dql_clamp_min(void **state)
{
	struct ethdrv_dql dql;
	uint64_t t0;

	ethdrv_dql_init(&dql, HOLD_NS);
	dql.min_limit = 5000;
	ethdrv_dql_reset(&dql);
	assert_int_equal(dql.limit, 5000);
	t0 = dql.slack_start_ns;

	/* nq 3000. C1: completed 1000; ovlimit 0; inprog 2000; prev_inprog 0:
	 * nothing. nc 1000; pnq 3000.
	 */
	queue_n(&dql, 3, 1000);
	ethdrv_dql_completed_at(&dql, 1000, t0 + 1);

	/* nq 4000. C2 after the hold: completed 2000; ovlimit 0; inprog 2000;
	 * prev_inprog = 3000 - 1000 = 2000; allprev false: slack =
	 * posdiff(5000, 2000) = 3000; shrink to 2000 and restart tracking, then
	 * clamp back to min 5000. adj = 5000 + 2000 = 7000.
	 */
	ethdrv_dql_queued(&dql, 1000);
	ethdrv_dql_completed_at(&dql, 1000, t0 + HOLD_NS + 1);
	assert_int_equal(dql.limit, 5000);
	assert_int_equal(dql.lowest_slack, UINT_MAX);
	assert_int_equal(dql.slack_start_ns, t0 + HOLD_NS + 1);
	assert_int_equal(dql.adj_limit, 7000);
}

/* (d) avail/inflight and the grow decision across the 32-bit wrap. */
static void test_dql_counter_wrap(void **state)
{
	struct ethdrv_dql dql;
	const unsigned s = UINT_MAX - 4999; /* 2^32 - 5000 = 4294962296 */

	dql_setup(&dql, 3000);
	/* A long-running queue: 2^32 - 5000 bytes queued and completed. */
	dql.num_queued = s;
	dql.num_completed = s;
	dql.prev_num_queued = s;
	dql.adj_limit = 3000 + s; /* 2^32 - 2000 = 4294965296 */
	assert_int_equal(ethdrv_dql_avail(&dql), 3000);
	assert_int_equal(ethdrv_dql_inflight(&dql), 0);

	/* nq = s + 4000 = 4294966296 (not wrapped yet); avail = -1000. */
	queue_n(&dql, 4, 1000);
	assert_int_equal(ethdrv_dql_avail(&dql), -1000);
	assert_int_equal(ethdrv_dql_inflight(&dql), 4000);

	/* C1: completed = s + 1000 = 4294963296; ovlimit = posdiff(4000, 3000)
	 * = 1000; inprog 3000; prev_inprog 0: nothing; pov = 1000 kept.
	 * adj = 3000 + 4294963296 = 4294966296; pnq = 4294966296.
	 */
	ethdrv_dql_completed_at(&dql, 1000, 100);
	assert_int_equal(dql.limit, 3000);
	assert_int_equal(dql.prev_ovlimit, 1000);
	assert_int_equal(dql.adj_limit, 4294966296u);
	assert_int_equal(ethdrv_dql_avail(&dql), 0);

	/* nq = 4294966296 + 2000 wraps to 1000. avail = (int)(4294966296 -
	 * 1000) = -2000; inflight = 1000 - 4294963296 (mod 2^32) = 5000.
	 */
	queue_n(&dql, 2, 1000);
	assert_int_equal(dql.num_queued, 1000);
	assert_int_equal(ethdrv_dql_avail(&dql), -2000);
	assert_int_equal(ethdrv_dql_inflight(&dql), 5000);

	/* C2 (4000 bytes): completed = 4294963296 + 4000 wraps to 0. ovlimit =
	 * posdiff(5000, 3000) = 2000; inprog = 1000 - 0 = 1000; prev_inprog =
	 * 4294966296 - 4294963296 = 3000; allprev: 0 - 4294966296 = +1000 as a
	 * signed difference, so true (a plain compare would say false and take
	 * the shrink path, leaving 3000). Grow by (pov && allprev): limit = 3000 +
	 * posdiff(0, 4294966296) = 1000, + pov 1000 = 5000. adj = 5000 + 0.
	 * avail = 5000 - 1000 = 4000; inflight = 1000.
	 */
	ethdrv_dql_completed_at(&dql, 4000, 200);
	assert_int_equal(dql.num_completed, 0);
	assert_int_equal(dql.limit, 5000);
	assert_int_equal(dql.adj_limit, 5000);
	assert_int_equal(ethdrv_dql_avail(&dql), 4000);
	assert_int_equal(ethdrv_dql_inflight(&dql), 1000);
}

/* (e) reset forgets the history and restarts at min_limit; config is kept. */
static void test_dql_reset(void **state)
{
	struct ethdrv_dql dql;
	uint64_t before, after;

	dql_setup(&dql, 0);
	dql.max_limit = 100000;
	ethdrv_dql_queued(&dql, 1514);
	ethdrv_dql_completed_at(&dql, 1514, 100);
	queue_n(&dql, 3, 1514);
	ethdrv_dql_completed_at(&dql, 1514, 200);
	assert_int_equal(dql.limit, 1514); /* as in the growth tests */
	assert_int_not_equal(dql.prev_ovlimit, 0);

	dql.min_limit = 2000;
	before = mono_ns();
	ethdrv_dql_reset(&dql);
	after = mono_ns();
	assert_int_equal(dql.limit, 2000);
	assert_int_equal(dql.num_queued, 0);
	assert_int_equal(dql.num_completed, 0);
	assert_int_equal(dql.last_obj_cnt, 0);
	assert_int_equal(dql.prev_num_queued, 0);
	assert_int_equal(dql.prev_last_obj_cnt, 0);
	assert_int_equal(dql.prev_ovlimit, 0);
	assert_int_equal(dql.lowest_slack, UINT_MAX);
	assert_true(dql.slack_start_ns >= before && dql.slack_start_ns <= after);
	assert_int_equal(dql.adj_limit, 2000);
	assert_int_equal(ethdrv_dql_avail(&dql), 2000);
	assert_int_equal(ethdrv_dql_inflight(&dql), 0);
	assert_int_equal(dql.max_limit, 100000);
	assert_int_equal(dql.slack_hold_ns, HOLD_NS);
}

/* ethdrv_dql_completed() stamps CLOCK_MONOTONIC; the grow is as derived in (a). */
static void test_dql_completed_uses_clock(void **state)
{
	struct ethdrv_dql dql;
	uint64_t before, after;

	dql_setup(&dql, 0);
	ethdrv_dql_queued(&dql, 1514);
	before = mono_ns();
	ethdrv_dql_completed(&dql, 1514);
	after = mono_ns();
	assert_int_equal(dql.limit, 1514);
	assert_true(dql.slack_start_ns >= before && dql.slack_start_ns <= after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dql_init_defaults),
		cmocka_unit_test(test_dql_starvation_growth),
		cmocka_unit_test(test_dql_growth_after_overlimit_interval),
		cmocka_unit_test(test_dql_shrink_after_hold),
		cmocka_unit_test(test_dql_shrink_last_object_slack),
		cmocka_unit_test(test_dql_clamp_max),
		cmocka_unit_test(test_dql_clamp_min),
		cmocka_unit_test(test_dql_counter_wrap),
		cmocka_unit_test(test_dql_reset),
		cmocka_unit_test(test_dql_completed_uses_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
