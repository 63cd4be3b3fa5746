// SPDX-License-Identifier: MIT
/*
 * Stress test of the NAPI ownership protocol (also built with TSan): several
 * threads produce "events" (an atomic counter incremented before each
 * schedule) and hammer ethdrv_napi_schedule() while the poller consumes a
 * random share of what it sees per poll and completes. No lost wakeup means
 * every event is consumed by a poll that starts after it: the final
 * consumed count equals the produced count, and the test terminates.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"

#define PRODUCERS 3
#define EVENTS_PER_PRODUCER 20000
#define MS 1000000ull

struct stress {
	struct ethdrv_netdev dev; /* a bare device; no traffic */
	struct ethdrv_loop *loop;
	struct ethdrv_napi *napi;
	struct ethdrv_timer tick; /* bounds blocking waits to 1 ms */
	uint64_t produced; /* atomic: events announced */
	uint64_t consumed; /* atomic: events taken by polls (written by the owner) */
	unsigned seed; /* poll randomness; touched by the owner only */
	int producers_left; /* atomic */
	uint64_t polls_seen; /* atomic */
};

static int stress_open(struct ethdrv_netdev *dev)
{
	return 0;
}

static const struct ethdrv_netdev_ops stress_ops = { .open = stress_open };

static void tick_cb(struct ethdrv_timer *t)
{
}

static int stress_poll(struct ethdrv_napi *napi, int budget)
{
	struct stress *s = ethdrv_napi_ctx(napi);
	uint64_t seen = __atomic_load_n(&s->produced, __ATOMIC_ACQUIRE);
	uint64_t done = __atomic_load_n(&s->consumed, __ATOMIC_RELAXED);
	uint64_t avail = seen - done, take;
	unsigned r = (unsigned)rand_r(&s->seed);

	__atomic_fetch_add(&s->polls_seen, 1, __ATOMIC_RELAXED);
	take = ETHDRV_MIN(avail, (uint64_t)(r % (unsigned)(budget + 1)));
	__atomic_store_n(&s->consumed, done + take, __ATOMIC_RELEASE);
	if (!(r & 0x3f))
		sched_yield(); /* widen the race windows now and then */
	/* Work left that this poll saw: it must not complete (napi.h). */
	if (avail > take || take == (uint64_t)budget)
		return budget;
	ethdrv_napi_complete_done(napi, (int)take);
	return (int)take;
}

static void *producer_main(void *arg)
{
	struct stress *s = arg;
	unsigned seed = (unsigned)(uintptr_t)&seed;

	for (int i = 0; i < EVENTS_PER_PRODUCER; i++) {
		__atomic_fetch_add(&s->produced, 1, __ATOMIC_RELEASE);
		ethdrv_napi_schedule(s->napi);
		unsigned r = (unsigned)rand_r(&seed);

		/* Gaps of varying length, so the poller often completes
		 * between events and the schedule/complete race is hit. */
		for (volatile unsigned spin = r % 8000; spin; spin--)
			;
		if (!(r & 0xff))
			sched_yield();
	}
	__atomic_fetch_sub(&s->producers_left, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int setup(void **state)
{
	struct stress *s = calloc(1, sizeof(*s));

	if (!s || ethdrv_loop_new(&s->loop))
		return -1;
	if (ethdrv_netdev_init(&s->dev, "stress0", &stress_ops, s->loop, NULL))
		return -1;
	s->seed = 12345;
	if (ethdrv_napi_add(&s->dev, "ev", stress_poll, ETHDRV_NAPI_WEIGHT, s, &s->napi))
		return -1;
	ethdrv_timer_init(s->loop, &s->tick, tick_cb);
	ethdrv_timer_start(&s->tick, MS, MS);
	ethdrv_loop_run_once(s->loop, ETHDRV_RUN_NOWAIT); /* this is the loop thread */
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct stress *s = *state;

	ethdrv_timer_stop(&s->tick);
	ethdrv_netdev_destroy(&s->dev);
	ethdrv_loop_free(s->loop);
	free(s);
	return 0;
}

enum stress_mode { MODE_SOFTIRQ, MODE_THREADED, MODE_SWITCHING };

static void set_mode(struct stress *s, bool threaded, bool defer)
{
	struct ethdrv_napi_config cfg;

	ethdrv_napi_get_config(s->napi, &cfg);
	cfg.threaded = threaded;
	cfg.defer_hard_irqs = defer ? 1 : 0;
	cfg.gro_flush_timeout_ns = defer ? 20000 : 0;
	assert_int_equal(ethdrv_napi_configure(s->napi, &cfg), 0);
}

static void run_stress(struct stress *s, enum stress_mode mode)
{
	pthread_t th[PRODUCERS];
	uint64_t end = ethdrv_now_ns() + 120000 * MS, produced, drained_by = 0;
	const struct ethdrv_napi_stats *st = ethdrv_napi_stats(s->napi);
	unsigned iter = 0;

	set_mode(s, mode == MODE_THREADED, false);
	ethdrv_napi_enable(s->napi);
	s->producers_left = PRODUCERS;
	for (int i = 0; i < PRODUCERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, producer_main, s), 0);
	for (;;) {
		produced = __atomic_load_n(&s->produced, __ATOMIC_ACQUIRE);
		if (!__atomic_load_n(&s->producers_left, __ATOMIC_ACQUIRE)) {
			if (__atomic_load_n(&s->consumed, __ATOMIC_ACQUIRE) == produced)
				break;
			/* All schedules are in: the rest must drain promptly. */
			if (!drained_by)
				drained_by = ethdrv_now_ns() + 10000 * MS;
			assert_true(ethdrv_now_ns() < drained_by);
		}
		assert_true(ethdrv_now_ns() < end);
		ethdrv_loop_run_once(s->loop, 0);
		if (mode == MODE_SWITCHING && !(++iter % 4))
			set_mode(s, (iter / 4) & 1, (iter / 8) & 1);
	}
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(produced, (uint64_t)PRODUCERS * EVENTS_PER_PRODUCER);
	assert_int_equal(__atomic_load_n(&s->consumed, __ATOMIC_ACQUIRE), produced);
	/* Every schedule call either scheduled or marked MISSED. */
	assert_int_equal(ethdrv_counter_get(&st->schedules) + ethdrv_counter_get(&st->missed),
			 (uint64_t)PRODUCERS * EVENTS_PER_PRODUCER);
	assert_true(ethdrv_counter_get(&st->schedules) > 1); /* it went idle at least once */
	if (mode == MODE_SWITCHING)
		assert_true(iter / 4 >= 8);
	ethdrv_napi_disable(s->napi);
}

static void test_stress_softirq(void **state)
{
	run_stress(*state, MODE_SOFTIRQ);
}

static void test_stress_threaded(void **state)
{
	run_stress(*state, MODE_THREADED);
}

static void test_stress_switching(void **state)
{
	run_stress(*state, MODE_SWITCHING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stress_softirq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stress_threaded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stress_switching, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
