// SPDX-License-Identifier: MIT
/*
 * The softirq context and its ksoftirqd hand-off (docs/design.md §4.6):
 * the burst rule alone (runs and time), then on the fake netdev: without
 * limits the loop keeps all its work (the old behaviour); with them a
 * flood that keeps the poll list pending goes to the ksoftirqd thread
 * after restart_max runs, every frame arrives once and in order, the loop
 * sleeps meanwhile, and the list comes back to the loop when it is empty.
 * Then the rule for an interrupt's exit while ksoftirqd holds the list:
 * defer (Linux 4.9-6.4) leaves it alone, inline (6.5+) runs bursts of it in
 * the loop's thread; each test fails under the other rule.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/loop_priv.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "fake_netdev.h"

#define POOL_SIZE 4096
#define MS 1000000ull

/* ---- the rule ---- */

static void test_burst_runs(void **state)
{
	struct ethdrv_softirq_config cfg = { .restart_max = ETHDRV_SOFTIRQ_RESTART,
					     .time_usecs = ETHDRV_SOFTIRQ_USECS };
	struct ethdrv__softirq_burst b = { 0 };
	unsigned i;

	/* Nine runs that leave work stay in the loop; the tenth hands off. */
	for (i = 1; i < ETHDRV_SOFTIRQ_RESTART; i++) {
		ethdrv__softirq_burst_begin(&b, 1000 + i);
		assert_false(ethdrv__softirq_burst_end(&b, true, 1000 + i, &cfg));
	}
	ethdrv__softirq_burst_begin(&b, 2000);
	assert_true(ethdrv__softirq_burst_end(&b, true, 2000, &cfg));
	/* A new burst starts from zero; a run that empties the list ends it. */
	ethdrv__softirq_burst_begin(&b, 3000);
	assert_false(ethdrv__softirq_burst_end(&b, true, 3000, &cfg));
	ethdrv__softirq_burst_begin(&b, 3100);
	assert_false(ethdrv__softirq_burst_end(&b, false, 3100, &cfg));
	assert_int_equal(b.runs, 0);
	(void)state;
}

static void test_burst_time(void **state)
{
	struct ethdrv_softirq_config cfg = { .restart_max = 10, .time_usecs = 2000 };
	struct ethdrv__softirq_burst b = { 0 };

	/* The burst began at 0: a run ending at 1999 us keeps it, 2000 us ends it. */
	ethdrv__softirq_burst_begin(&b, 0);
	assert_false(ethdrv__softirq_burst_end(&b, true, 1999 * 1000ull, &cfg));
	ethdrv__softirq_burst_begin(&b, 1999 * 1000ull);
	assert_true(ethdrv__softirq_burst_end(&b, true, 2000 * 1000ull, &cfg));
	(void)state;
}

static void test_burst_off(void **state)
{
	struct ethdrv_softirq_config cfg = { 0 };
	struct ethdrv__softirq_burst b = { 0 };

	/* restart_max 0: the loop keeps its work however long the burst. */
	for (unsigned i = 0; i < 1000; i++) {
		ethdrv__softirq_burst_begin(&b, i * MS);
		assert_false(ethdrv__softirq_burst_end(&b, true, i * MS + MS, &cfg));
	}
	(void)state;
}

/* ---- on the fake netdev ---- */

struct env {
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	struct fake_netdev *f;
};

static int setup(void **state)
{
	struct fake_netdev_config cfg;
	struct env *e = calloc(1, sizeof(*e));

	fake_netdev_default_config(&cfg);
	cfg.split_tx = false;
	if (!e || ethdrv_loop_new(&e->loop) || ethdrv_pkt_pool_new(POOL_SIZE, &e->pool))
		return -1;
	if (fake_netdev_create(e->loop, e->pool, "fake0", &cfg, &e->f))
		return -1;
	/* 64 packets per run: every run of a 64-frame poll is a budget stop. */
	ethdrv_loop_set_budget(e->loop, 64, 10000000);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	fake_netdev_destroy(e->f);
	assert_int_equal(ethdrv_pkt_pool_avail(e->pool), POOL_SIZE);
	ethdrv_pkt_pool_free(e->pool);
	ethdrv_loop_free(e->loop);
	free(e);
	return 0;
}

/* Run the loop (waits bounded by a 1 ms timer) until @cond; 30 s cap. */
static void tick_cb(struct ethdrv_timer *t)
{
}

#define RUN_UNTIL(loop, cond)                                              \
	do {                                                               \
		uint64_t end_ = ethdrv_now_ns() + 30000 * MS;              \
		struct ethdrv_timer tick_;                                 \
		ethdrv_timer_init((loop), &tick_, tick_cb);                \
		ethdrv_timer_start(&tick_, MS, MS);                        \
		while (!(cond)) {                                          \
			assert_true(ethdrv_now_ns() < end_);               \
			assert_true(ethdrv_loop_run_once((loop), 0) >= 0); \
		}                                                          \
		ethdrv_timer_stop(&tick_);                                 \
	} while (0)

static void test_no_limits_keeps_work(void **state)
{
	struct env *e = *state;
	struct ethdrv_loop_stats st;

	/* The default: 640 frames are 10 runs of 64 plus the empty one that
	 * completes, all in the loop thread, no hand-off. */
	assert_int_equal(ethdrv_netdev_open(&e->f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(e->f, 0, 640), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(e->f) == 640);
	assert_true(fake_netdev_rx_in_order(e->f, 640));
	ethdrv_loop_get_stats(e->loop, &st);
	assert_int_equal(st.ksoftirqd_handoffs, 0);
	assert_int_equal(st.ksoftirqd_runs, 0);
	assert_int_equal(st.budget_exhausted, 10);
	assert_int_equal(st.time_exhausted, 0);
	assert_int_equal(st.time_squeeze, st.budget_exhausted + st.time_exhausted);
	assert_int_equal(__atomic_load_n(&e->f->rx_polls_elsewhere, __ATOMIC_RELAXED), 0);
	assert_int_equal(ethdrv_loop_ksoftirqd_tid(e->loop), 0);
}

/* With @cfg, @frames queued at once are all received once and in order. */
static void flood(struct env *e, const struct ethdrv_softirq_config *cfg, unsigned frames,
		  struct ethdrv_loop_stats *st)
{
	assert_int_equal(ethdrv_loop_set_softirq(e->loop, cfg), 0);
	assert_int_equal(ethdrv_netdev_open(&e->f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(e->f, 0, frames), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(e->f) == frames);
	assert_true(fake_netdev_rx_in_order(e->f, frames));
	ethdrv_loop_get_stats(e->loop, st);
}

static void test_flood_goes_to_ksoftirqd(void **state)
{
	struct ethdrv_softirq_config cfg = { .restart_max = 3,
					     .time_usecs = 0,
					     .name = "ksoftirqd/t" };
	struct env *e = *state;
	struct ethdrv_loop_stats st;
	const unsigned frames = 64 * 40;

	/* Three budget-stopped runs in the loop, then the rest elsewhere. */
	flood(e, &cfg, frames, &st);
	assert_int_equal(st.ksoftirqd_handoffs, 1);
	assert_true(st.ksoftirqd_runs > 0);
	assert_true(st.softirq_runs > st.ksoftirqd_runs);
	/* The loop ran 3 polls before the hand-off; ksoftirqd all the others. */
	assert_int_equal(__atomic_load_n(&e->f->rx_polls_in_loop, __ATOMIC_RELAXED), 3);
	assert_true(__atomic_load_n(&e->f->rx_polls_elsewhere, __ATOMIC_RELAXED) >= 40 - 3);
	assert_true(ethdrv_loop_ksoftirqd_tid(e->loop) > 0);
	/* The list comes back when empty; later frames arrive either way. */
	assert_int_equal(fake_netdev_inject_n(e->f, frames, 10), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(e->f) == frames + 10);
	assert_true(fake_netdev_rx_in_order(e->f, frames + 10));
}

static void test_time_limit_hands_off(void **state)
{
	struct ethdrv_softirq_config cfg = { .restart_max = 1000, .time_usecs = 1 };
	struct env *e = *state;
	struct ethdrv_loop_stats st;
	const unsigned frames = 64 * 20;

	/* A burst of 1 us: the second run that still leaves work is past it. */
	flood(e, &cfg, frames, &st);
	assert_true(st.ksoftirqd_handoffs >= 1);
	assert_true(__atomic_load_n(&e->f->rx_polls_in_loop, __ATOMIC_RELAXED) <=
		    2 * st.ksoftirqd_handoffs + 1);
}

/*
 * A flood slow enough (20 us per frame, 1.3 ms a run) that ksoftirqd holds
 * the list for many of the loop's 1 ms ticks, each an interrupt's exit.
 */
static void slow_flood(struct env *e, bool irq_exit_inline, struct ethdrv_loop_stats *st)
{
	struct ethdrv_softirq_config cfg = { .restart_max = 3,
					     .time_usecs = 0,
					     .irq_exit_inline = irq_exit_inline,
					     .name = "ksoftirqd/t" };

	assert_int_equal(ethdrv_netdev_set(&e->f->dev, "cpu_cost_ns", "20000"), 0);
	flood(e, &cfg, 64 * 60, st);
	assert_int_equal(st->ksoftirqd_handoffs, 1);
}

static void test_irq_exit_defer(void **state)
{
	struct env *e = *state;
	struct ethdrv_loop_stats st;

	/* 4.9-6.4: the three runs before the hand-off are all the loop polls. */
	slow_flood(e, false, &st);
	assert_int_equal(st.irq_exit_runs, 0);
	assert_int_equal(__atomic_load_n(&e->f->rx_polls_in_loop, __ATOMIC_RELAXED), 3);
}

static void test_irq_exit_inline(void **state)
{
	struct env *e = *state;
	struct ethdrv_loop_stats st;

	/* 6.5+: the ticks' exits poll in the loop's thread while ksoftirqd holds it. */
	slow_flood(e, true, &st);
	assert_true(st.irq_exit_runs > 0);
	assert_true(st.softirq_runs >= st.irq_exit_runs + st.ksoftirqd_runs);
	assert_true(__atomic_load_n(&e->f->rx_polls_in_loop, __ATOMIC_RELAXED) > 3);
	/* Emptied at an exit or by ksoftirqd, the list came back: later frames arrive. */
	assert_int_equal(fake_netdev_inject_n(e->f, 64 * 60, 10), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(e->f) == 64 * 60 + 10);
	assert_true(fake_netdev_rx_in_order(e->f, 64 * 60 + 10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_runs),
		cmocka_unit_test(test_burst_time),
		cmocka_unit_test(test_burst_off),
		cmocka_unit_test_setup_teardown(test_no_limits_keeps_work, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flood_goes_to_ksoftirqd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_limit_hands_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_exit_defer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_exit_inline, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
