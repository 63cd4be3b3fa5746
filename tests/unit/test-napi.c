// SPDX-License-Identifier: MIT
/*
 * Unit tests for the NAPI core against the fake netdev: the budget
 * contract, the loop budget, MISSED, software IRQ coalescing, threaded and
 * busy-poll modes and switching between them, the TX-completion poller.
 * Expected counts are derived by hand in the comments (docs/napi.md §1-§4).
 */
#define _GNU_SOURCE /* pthread_timedjoin_np */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "fake_netdev.h"

#define POOL_SIZE 2048
#define MS 1000000ull

struct env {
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	struct fake_netdev *f;
	struct ethdrv_timer tick; /* bounds every blocking wait to 1 ms */
};

static void tick_cb(struct ethdrv_timer *t)
{
}

static int setup_cfg(void **state, const struct fake_netdev_config *cfg)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e || ethdrv_loop_new(&e->loop) || ethdrv_pkt_pool_new(POOL_SIZE, &e->pool))
		return -1;
	if (fake_netdev_create(e->loop, e->pool, "fake0", cfg, &e->f))
		return -1;
	/* Budgets here are in packets; a loaded CI machine must not hit the
	 * 2 ms time limit (test_time_limit_squeezes covers that one). */
	ethdrv_loop_set_budget(e->loop, 300, 10000000);
	ethdrv_timer_init(e->loop, &e->tick, tick_cb);
	ethdrv_timer_start(&e->tick, MS, MS);
	*state = e;
	return 0;
}

static int setup(void **state)
{
	struct fake_netdev_config cfg;

	fake_netdev_default_config(&cfg);
	return setup_cfg(state, &cfg);
}

static int setup_unsplit(void **state)
{
	struct fake_netdev_config cfg;

	fake_netdev_default_config(&cfg);
	cfg.split_tx = false;
	return setup_cfg(state, &cfg);
}

static int setup_small_ring(void **state)
{
	struct fake_netdev_config cfg;

	fake_netdev_default_config(&cfg);
	cfg.tx_ring_size = 8;
	return setup_cfg(state, &cfg);
}

static int setup_big_records(void **state)
{
	struct fake_netdev_config cfg;

	fake_netdev_default_config(&cfg);
	cfg.record_cap = 40000;
	return setup_cfg(state, &cfg);
}

static int teardown(void **state)
{
	struct env *e = *state;

	fake_netdev_destroy(e->f);
	ethdrv_timer_stop(&e->tick);
	/* Every buffer is back: nothing lost, nothing leaked (docs/style.md S10). */
	assert_int_equal(ethdrv_pkt_pool_avail(e->pool), POOL_SIZE);
	ethdrv_pkt_pool_free(e->pool);
	ethdrv_loop_free(e->loop);
	free(e);
	ethdrv_log_set_sink(NULL, NULL);
	return 0;
}

static void sleep_us(unsigned us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* Run the loop (blocking, at most 1 ms per wait) until @cond holds; 30 s cap. */
#define RUN_UNTIL(loop, cond)                                              \
	do {                                                               \
		uint64_t end_ = ethdrv_now_ns() + 30000 * MS;              \
		while (!(cond)) {                                          \
			assert_true(ethdrv_now_ns() < end_);               \
			assert_true(ethdrv_loop_run_once((loop), 0) >= 0); \
		}                                                          \
	} while (0)

static void run_nowait(struct ethdrv_loop *loop, unsigned n)
{
	while (n--)
		ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
}

static uint64_t nstat(struct ethdrv_napi *n, size_t off)
{
	return ethdrv_counter_get(
		(const ethdrv_counter_t *)((const char *)ethdrv_napi_stats(n) + off));
}
#define NS(napi, field) nstat((napi), offsetof(struct ethdrv_napi_stats, field))

/* ---- budget contract ---- */

static void test_budget_contract(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;
	static const int expect[] = { 64, 64, 64, 8 };

	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 200), 0);
	run_nowait(e->loop, 1);
	/* One IRQ, then 200 = 64+64+64+8 within the 300-packet loop budget;
	 * only the short poll completes, and only then is the IRQ re-armed. */
	assert_int_equal(fake_netdev_rx_count(f), 200);
	assert_int_equal(f->rx_log_n, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(f->rx_log[i].budget, 64);
		assert_int_equal(f->rx_log[i].work, expect[i]);
	}
	assert_int_equal(NS(rx, irqs), 1);
	assert_int_equal(NS(rx, polls), 4);
	assert_int_equal(NS(rx, repolls), 3);
	assert_int_equal(NS(rx, work), 200);
	assert_int_equal(NS(rx, completes), 1);
	assert_int_equal(NS(rx, irq_rearms), 1);
	assert_int_equal(ethdrv_napi_stats(rx)->irq_to_poll_ns.count, 1);
	assert_true(fake_netdev_rx_in_order(f, 200));
	/* Idle: nothing more happens; a new frame raises a second IRQ. */
	run_nowait(e->loop, 3);
	assert_int_equal(NS(rx, polls), 4);
	assert_int_equal(fake_netdev_inject_n(f, 200, 1), 0);
	run_nowait(e->loop, 1);
	assert_int_equal(NS(rx, irqs), 2);
	assert_int_equal(NS(rx, polls), 5);
}

static void test_irq_masked_across_iterations(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;
	struct ethdrv_loop_stats st;

	/* netdev_budget 100: iteration 1 polls 64+64 (budget -28, squeeze);
	 * the line stays asserted with 72 frames left, but the masked IRQ must
	 * not fire again: iteration 2 polls 64+8 from the poll list. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "netdev_budget", "100"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 200), 0);
	run_nowait(e->loop, 1);
	assert_int_equal(fake_netdev_rx_count(f), 128);
	assert_int_equal(NS(rx, completes), 0);
	run_nowait(e->loop, 1);
	assert_int_equal(fake_netdev_rx_count(f), 200);
	assert_int_equal(NS(rx, irqs), 1);
	assert_int_equal(NS(rx, polls), 4);
	assert_int_equal(NS(rx, irq_rearms), 1);
	ethdrv_loop_get_stats(e->loop, &st);
	assert_int_equal(st.time_squeeze, 1);
	assert_int_equal(st.processed, 200);
}

static void slow_handler(void *arg, struct ethdrv_pkt *pkt)
{
	sleep_us(5);
	fake_netdev_record_rx(arg, pkt);
}

static void test_time_limit_squeezes(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_loop_stats st;

	/* netdev_budget_usecs 1: after the first poll (64 frames of >= 5 us)
	 * the time is up although 236 packets of budget are left. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "netdev_budget_usecs", "1"), 0);
	ethdrv_netdev_set_rx_handler(&f->dev, slow_handler, f);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 100), 0);
	run_nowait(e->loop, 1);
	assert_int_equal(fake_netdev_rx_count(f), 64);
	ethdrv_loop_get_stats(e->loop, &st);
	assert_int_equal(st.time_squeeze, 1);
	run_nowait(e->loop, 1);
	assert_true(fake_netdev_rx_in_order(f, 100));
}

static void test_loop_budget_fairness(void **state)
{
	struct env *e = *state;
	struct fake_netdev_config cfg;
	struct fake_netdev *d[3];
	struct ethdrv_loop_stats st;
	unsigned i;

	fake_netdev_default_config(&cfg);
	d[0] = e->f;
	assert_int_equal(fake_netdev_create(e->loop, e->pool, "fake1", &cfg, &d[1]), 0);
	assert_int_equal(fake_netdev_create(e->loop, e->pool, "fake2", &cfg, &d[2]), 0);
	assert_int_equal(ethdrv_loop_set_budget(e->loop, 100, 1000000), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ethdrv_netdev_open(&d[i]->dev), 0);
		assert_int_equal(fake_netdev_inject_n(d[i], 0, 500), 0);
	}
	/* Each iteration polls two pollers (64+64 > 100) and leaves the third
	 * at the front, so after 3 iterations each was polled exactly twice. */
	run_nowait(e->loop, 3);
	ethdrv_loop_get_stats(e->loop, &st);
	assert_int_equal(st.time_squeeze, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(fake_netdev_rx_count(d[i]), 128);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(d[0]) + fake_netdev_rx_count(d[1]) +
					   fake_netdev_rx_count(d[2]) ==
				   1500);
	for (i = 0; i < 3; i++) {
		assert_true(fake_netdev_rx_in_order(d[i], 500));
		assert_int_equal(NS(d[i]->rx_napi, irqs), 1);
	}
	fake_netdev_destroy(d[1]);
	fake_netdev_destroy(d[2]);
}

static void test_budget_zero_does_not_complete(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	/* BQL starts at limit 0 (stop after one frame); let three through. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "bql_limit_min", "10000"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(ethdrv_netdev_xmit(&f->dev, fake_netdev_make_frame(f, i, 60)), 0);
	assert_int_equal(fake_netdev_complete_tx(f, 3), 3);
	assert_int_equal(fake_netdev_inject_n(f, 0, 2), 0);
	/* Own it as netpoll would and poll with budget 0: TX is reaped, RX is
	 * not touched, and the poller is not released. */
	assert_true(ethdrv_napi_schedule_prep(rx));
	assert_int_equal(fake_netdev_rx_poll(rx, 0), 0);
	assert_int_equal(f->rx_budget0_polls, 1);
	assert_int_equal(fake_netdev_tx_count(f), 3);
	assert_int_equal(ethdrv_counter_get(&f->dev.stats.tx_packets), 3);
	assert_int_equal(fake_netdev_rx_pending(f), 2);
	assert_int_equal(NS(rx, completes), 0);
	assert_false(ethdrv_napi_schedule_prep(rx)); /* still owned: MISSED */
	assert_int_equal(NS(rx, missed), 1);
	/* Hand it to the loop: poll, MISSED makes it poll once more. */
	ethdrv__napi_schedule(rx);
	RUN_UNTIL(e->loop, NS(rx, irq_rearms) == 1);
	assert_int_equal(fake_netdev_rx_count(f), 2);
	assert_int_equal(NS(rx, polls), 2);
	assert_int_equal(NS(rx, completes), 2);
}

/* ---- MISSED ---- */

static void missed_handler(void *arg, struct ethdrv_pkt *pkt)
{
	struct fake_netdev *f = arg;

	/* An event while the poll runs (e.g. another IRQ source). */
	if (fake_netdev_rx_count(f) == 0)
		assert_false(ethdrv_napi_schedule(f->rx_napi));
	fake_netdev_record_rx(arg, pkt);
}

static void test_missed_repolls(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	ethdrv_netdev_set_rx_handler(&f->dev, missed_handler, f);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 5), 0);
	run_nowait(e->loop, 3);
	/* Poll 1 (5 frames) completes with MISSED set: complete_done returns
	 * false and reschedules; poll 2 (empty) completes and re-arms. */
	assert_int_equal(NS(rx, missed), 1);
	assert_int_equal(NS(rx, polls), 2);
	assert_int_equal(NS(rx, completes), 2);
	assert_int_equal(NS(rx, irq_rearms), 1);
	assert_int_equal(NS(rx, irqs), 1);
	assert_int_equal(f->rx_log[1].work, 0);
	assert_true(fake_netdev_rx_in_order(f, 5));
}

/* ---- software IRQ coalescing ---- */

static void test_defer_flush_counts(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	assert_int_equal(ethdrv_netdev_set(&f->dev, "napi_defer_hard_irqs", "2"), 0);
	assert_int_equal(ethdrv_netdev_set(&f->dev, "gro_flush_timeout", "50000"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 10), 0);
	RUN_UNTIL(e->loop, NS(rx, irq_rearms) == 1);
	run_nowait(e->loop, 5);
	/* docs/napi.md §2.2 with D=2: productive poll (counter 2 -> 1, timer),
	 * empty timer poll (1 -> 0, timer), empty timer poll (0: re-arm). */
	assert_int_equal(NS(rx, irqs), 1);
	assert_int_equal(NS(rx, polls), 3);
	assert_int_equal(NS(rx, work), 10);
	assert_int_equal(NS(rx, empty_polls), 2);
	assert_int_equal(NS(rx, defer_timer_polls), 2);
	assert_int_equal(NS(rx, completes), 3);
	assert_int_equal(NS(rx, irq_rearms), 1);
	/* Lower bound only: two timer periods separate the polls. */
	assert_true(f->rx_log[2].ts_ns - f->rx_log[0].ts_ns >= 2 * 50000);
	assert_true(fake_netdev_rx_in_order(f, 10));
}

static void test_defer_picks_up_frames_without_irq(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	/* A 20 ms timer leaves ample time to inject before it fires. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "napi_defer_hard_irqs", "2"), 0);
	assert_int_equal(ethdrv_netdev_set(&f->dev, "gro_flush_timeout", "20000000"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 5), 0);
	run_nowait(e->loop, 1);
	assert_int_equal(NS(rx, polls), 1);
	assert_int_equal(fake_netdev_inject_n(f, 5, 3),
			 0); /* the IRQ is masked during the deferral */
	RUN_UNTIL(e->loop, NS(rx, irq_rearms) == 1);
	/* Poll 1: 5 (2 -> 1); timer poll 2: 3 frames, reload (2 -> 1); timer
	 * poll 3: empty (1 -> 0); timer poll 4: empty, re-arm. One IRQ. */
	assert_int_equal(NS(rx, irqs), 1);
	assert_int_equal(NS(rx, polls), 4);
	assert_int_equal(f->rx_log[1].work, 3);
	assert_int_equal(NS(rx, defer_timer_polls), 3);
	assert_int_equal(NS(rx, empty_polls), 2);
	assert_true(fake_netdev_rx_in_order(f, 8));
}

static void test_defer_zero_timeout_is_plain_napi(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	/* T = 0 (docs/napi.md §2.2 last rows): the IRQ is re-armed by the first poll. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "napi_defer_hard_irqs", "3"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 4), 0);
	run_nowait(e->loop, 3);
	assert_int_equal(NS(rx, polls), 1);
	assert_int_equal(NS(rx, irq_rearms), 1);
	assert_int_equal(NS(rx, defer_timer_polls), 0);
}

/* ---- threaded and busy-poll modes ---- */

static void test_threaded_delivers(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;
	char buf[8];

	assert_int_equal(ethdrv_netdev_set(&f->dev, "threaded", "1"), 0);
	assert_int_equal(ethdrv_netdev_get(&f->dev, "threaded", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	for (uint32_t i = 0; i < 1000; i += 100) {
		assert_int_equal(fake_netdev_inject_n(f, i, 100), 0);
		RUN_UNTIL(e->loop, fake_netdev_rx_count(f) == i + 100);
	}
	assert_true(fake_netdev_rx_in_order(f, 1000));
	assert_int_equal(f->rx_polls_in_loop, 0);
	assert_true(f->rx_polls_elsewhere > 0);
	assert_true(NS(rx, thread_wakeups) > 0);
	/* Back to softirq mode: the next burst is polled by the loop. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "threaded", "0"), 0);
	assert_int_equal(fake_netdev_inject_n(f, 1000, 10), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(f) == 1010);
	assert_true(f->rx_polls_in_loop > 0);
}

static void test_threaded_defer(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	/* The poller thread owns the defer deadline: same counts as docs/napi.md §2.2. */
	assert_int_equal(ethdrv_netdev_set(&f->dev, "threaded", "1"), 0);
	assert_int_equal(ethdrv_netdev_set(&f->dev, "napi_defer_hard_irqs", "2"), 0);
	assert_int_equal(ethdrv_netdev_set(&f->dev, "gro_flush_timeout", "50000"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 10), 0);
	RUN_UNTIL(e->loop, NS(rx, irq_rearms) == 1 && NS(rx, empty_polls) == 2);
	sleep_us(2000); /* 40 timer periods: a stray extra poll would show */
	run_nowait(e->loop, 2);
	assert_int_equal(NS(rx, irqs), 1);
	assert_int_equal(NS(rx, polls), 3);
	assert_int_equal(NS(rx, defer_timer_polls), 2);
	assert_int_equal(NS(rx, empty_polls), 2);
	assert_int_equal(f->rx_polls_in_loop, 0);
}

static void test_busy_poll_delivers(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;
	uint64_t irqs, rearms;

	assert_int_equal(ethdrv_netdev_set(&f->dev, "busy_poll", "2000"), 0);
	assert_int_equal(ethdrv_netdev_set(&f->dev, "busy_poll_budget", "16"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(fake_netdev_inject_n(f, 0, 10), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(f) == 10);
	/* In busy mode frames are found by the busy-poller, with the IRQ masked. */
	for (uint32_t i = 10; i < 400; i += 30) {
		assert_int_equal(fake_netdev_inject_n(f, i, 30), 0);
		RUN_UNTIL(e->loop, fake_netdev_rx_count(f) == i + 30);
	}
	assert_true(fake_netdev_rx_in_order(f, 400));
	assert_true(NS(rx, busy_polls) > 0);
	assert_int_equal(f->rx_log[1].budget, 16);
	/* Idle past busy_poll: handed back with a last poll that re-arms. */
	rearms = NS(rx, irq_rearms);
	RUN_UNTIL(e->loop, NS(rx, irq_rearms) > rearms);
	irqs = NS(rx, irqs);
	assert_int_equal(fake_netdev_inject_n(f, 400, 1), 0);
	RUN_UNTIL(e->loop, fake_netdev_rx_count(f) == 401);
	assert_int_equal(NS(rx, irqs), irqs + 1);
}

struct producer {
	struct fake_netdev *f;
	unsigned n;
};

static void *producer_main(void *arg)
{
	struct producer *p = arg;

	for (uint32_t i = 0; i < p->n;) {
		if (fake_netdev_inject_rx(p->f, i)) {
			sleep_us(100); /* pool empty: let the consumer catch up */
			continue;
		}
		i++;
		if (!(i % 256))
			sleep_us(200); /* bursts longer than a poll's weight */
	}
	return NULL;
}

static void test_mode_switching_loses_nothing(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct producer p = { .f = f, .n = 30000 };
	const char *busy[] = { "0", "30" };
	const char *threaded[] = { "0", "1" };
	unsigned iter = 0, k = 0;
	uint64_t end = ethdrv_now_ns() + 60000 * MS;
	pthread_t th;

	assert_int_equal(ethdrv_netdev_set(&f->dev, "napi_defer_hard_irqs", "1"), 0);
	assert_int_equal(ethdrv_netdev_set(&f->dev, "gro_flush_timeout", "20000"), 0);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	assert_int_equal(pthread_create(&th, NULL, producer_main, &p), 0);
	while (fake_netdev_rx_count(f) < p.n) {
		assert_true(ethdrv_now_ns() < end);
		ethdrv_loop_run_once(e->loop, 0);
		if (++iter % 7)
			continue;
		/* Walk through all four mode combinations, again and again. */
		k++;
		assert_int_equal(ethdrv_netdev_set(&f->dev, "threaded", threaded[k & 1]), 0);
		assert_int_equal(ethdrv_netdev_set(&f->dev, "busy_poll", busy[(k >> 1) & 1]), 0);
	}
	pthread_join(th, NULL);
	run_nowait(e->loop, 5);
	assert_true(k > 8);
	/* Every frame once, in order: nothing lost, nothing duplicated. */
	assert_true(fake_netdev_rx_in_order(f, p.n));
	assert_int_equal(ethdrv_counter_get(&f->dev.stats.rx_packets), p.n);
}

/* ---- TX-completion poller ---- */

static void wake_cb(void *arg)
{
	(*(unsigned *)arg)++;
}

static void test_tx_poller_bql_stop_wake(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	unsigned woken = 0, busy = 0;
	struct ethdrv_pkt *pkt = NULL;
	uint64_t stops, wakes;

	ethdrv_netdev_set_tx_wake_handler(&f->dev, wake_cb, &woken);
	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	for (uint32_t i = 0; i < 100;) {
		if (!pkt)
			pkt = fake_netdev_make_frame(f, i, 100);
		if (ethdrv_netdev_xmit(&f->dev, pkt) == 0) {
			pkt = NULL;
			i++;
			continue;
		}
		/* Stopped (ring or byte limit): the "hardware" finishes some
		 * frames, the TX poller reaps them and the queue wakes. */
		busy++;
		assert_true(ethdrv_netdev_tx_stopped(&f->dev));
		unsigned before = woken;

		fake_netdev_complete_tx(f, 3);
		RUN_UNTIL(e->loop, woken > before);
	}
	fake_netdev_complete_tx(f, 1000);
	RUN_UNTIL(e->loop, fake_netdev_tx_count(f) == 100);
	for (uint32_t i = 0; i < 100; i++)
		assert_int_equal(f->tx_seq[i], i);
	stops = ethdrv_counter_get(&f->dev.txq.stops);
	wakes = ethdrv_counter_get(&f->dev.txq.wakes);
	assert_true(busy > 0);
	assert_true(stops > 0);
	assert_true(wakes > 0);
	assert_int_equal(ethdrv_counter_get(&f->dev.stats.tx_packets), 100);
	assert_int_equal(ethdrv_counter_get(&f->dev.stats.tx_bytes), 100 * 100);
	/* TX completion ran on its own poller; the RX poller never polled. */
	assert_true(NS(f->tx_napi, polls) > 0);
	assert_int_equal(NS(f->rx_napi, polls), 0);
	assert_int_equal(ethdrv_dql_inflight(&f->dev.txq.dql), 0);
}

/* ---- lifecycle ---- */

static void test_disable_claims_queued_poller(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;

	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	run_nowait(e->loop, 1); /* makes this the loop thread */
	assert_true(ethdrv_napi_schedule(rx)); /* queued, not polled yet */
	ethdrv_napi_disable(rx);
	assert_false(ethdrv_napi_schedule(rx));
	run_nowait(e->loop, 2);
	assert_int_equal(NS(rx, polls), 0);
	ethdrv_napi_enable(rx);
	assert_true(ethdrv_napi_schedule(rx));
	run_nowait(e->loop, 1);
	assert_int_equal(NS(rx, polls), 1);
}

struct loop_thread_arg {
	struct ethdrv_loop *loop;
	sem_t returned; /* ethdrv_loop_run() is back */
	sem_t release; /* the thread may exit */
};

/* Runs the loop, then stays alive outside it (its pthread_t is not reused). */
static void *loop_thread(void *arg)
{
	struct loop_thread_arg *a = arg;

	ethdrv_loop_run(a->loop);
	sem_post(&a->returned);
	sem_wait(&a->release);
	return NULL;
}

static void *disable_thread(void *arg)
{
	ethdrv_napi_disable(arg);
	return NULL;
}

/* A loop whose thread returned from ethdrv_loop_run(): a poller queued after
 * the stop is claimed by the thread that tears down, not waited for forever. */
static void test_disable_after_loop_thread_exit(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *rx = f->rx_napi;
	struct loop_thread_arg a = { .loop = e->loop };
	struct timespec until;
	pthread_t lt, dt;
	uint64_t polls;
	int joined;

	assert_int_equal(ethdrv_netdev_open(&f->dev), 0);
	sem_init(&a.returned, 0, 0);
	sem_init(&a.release, 0, 0);
	assert_int_equal(pthread_create(&lt, NULL, loop_thread, &a), 0);
	ethdrv_loop_stop(e->loop);
	sem_wait(&a.returned);
	polls = NS(rx, polls);
	assert_true(ethdrv_napi_schedule(rx)); /* queued; no loop runs it */
	assert_int_equal(pthread_create(&dt, NULL, disable_thread, rx), 0);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	joined = pthread_timedjoin_np(dt, NULL, &until);
	if (joined) {
		/* The teardown would wait for it too: fail now, loudly. */
		fprintf(stderr, "ethdrv_napi_disable() still waiting after 10 s\n");
		_exit(1);
	}
	sem_post(&a.release);
	assert_int_equal(pthread_join(lt, NULL), 0);
	assert_false(ethdrv_napi_schedule(rx));
	ethdrv_napi_enable(rx);
	assert_true(ethdrv_napi_schedule(rx));
	run_nowait(e->loop, 1); /* this thread runs the loop now, and polls */
	assert_int_equal(NS(rx, polls), polls + 1);
	sem_destroy(&a.returned);
	sem_destroy(&a.release);
}

static unsigned napi_log_lines;

static void napi_sink(void *arg, int level, const char *module, const char *line)
{
	if (!strcmp(module, "napi"))
		napi_log_lines++;
}

static int bad_calls;

static int bad_poll(struct ethdrv_napi *napi, int budget)
{
	if (bad_calls++ < 2)
		return budget + 5; /* a driver bug */
	ethdrv_napi_complete_done(napi, 0);
	return 0;
}

static void test_add_validation_and_bad_poll(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_napi *n, *again;
	uint64_t v;

	assert_int_equal(ethdrv_napi_add(&f->dev, "x", bad_poll, 0, NULL, &n), -EINVAL);
	assert_int_equal(ethdrv_napi_add(&f->dev, "x", bad_poll, 65, NULL, &n), -EINVAL);
	assert_int_equal(ethdrv_napi_add(&f->dev, "rx", bad_poll, 4, NULL, &n), -EINVAL);
	assert_int_equal(ethdrv_napi_add(&f->dev, "name-too-long-16", bad_poll, 4, NULL, &n),
			 -EINVAL);
	assert_int_equal(ethdrv_napi_add(&f->dev, "bad", bad_poll, 4, f, &n), 0);
	assert_ptr_equal(ethdrv_napi_ctx(n), f);
	assert_ptr_equal(ethdrv_napi_dev(n), &f->dev);
	napi_log_lines = 0;
	ethdrv_log_set_sink(napi_sink, NULL);
	ethdrv_napi_enable(n);
	run_nowait(e->loop, 1);
	bad_calls = 0;
	assert_true(ethdrv_napi_schedule(n));
	run_nowait(e->loop, 2);
	/* Returns of 9 are clamped to the weight 4 (repoll) and logged once. */
	assert_int_equal(NS(n, polls), 3);
	assert_int_equal(NS(n, work), 8);
	assert_int_equal(NS(n, repolls), 2);
	assert_int_equal(napi_log_lines, 1);
	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(&f->dev), "napi_bad_polls", &v), 0);
	assert_int_equal(v, 3);
	ethdrv_napi_disable(n);
	ethdrv_napi_del(n);
	/* Re-adding the name revives the poller and keeps its counters. */
	assert_int_equal(ethdrv_napi_add(&f->dev, "bad", bad_poll, 4, f, &again), 0);
	assert_ptr_equal(again, n);
	assert_int_equal(NS(again, polls), 3);
	ethdrv_napi_del(again); /* disables it first */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_budget_contract, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_masked_across_iterations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_limit_squeezes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_budget_fairness, setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_zero_does_not_complete, setup_unsplit,
						teardown),
		cmocka_unit_test_setup_teardown(test_missed_repolls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defer_flush_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defer_picks_up_frames_without_irq, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_defer_zero_timeout_is_plain_napi, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_threaded_delivers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threaded_defer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_poll_delivers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_switching_loses_nothing,
						setup_big_records, teardown),
		cmocka_unit_test_setup_teardown(test_tx_poller_bql_stop_wake, setup_small_ring,
						teardown),
		cmocka_unit_test_setup_teardown(test_disable_claims_queued_poller, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disable_after_loop_thread_exit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_add_validation_and_bad_poll, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
