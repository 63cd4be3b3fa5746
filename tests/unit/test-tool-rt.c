// SPDX-License-Identifier: MIT
/*
 * The real-time helpers (tools/ethdrv/rt.c): the spin guard's judgement of
 * a window from CPU time samples (known answers), its table of threads,
 * and the priority calls that need no privilege (SCHED_OTHER, bad values).
 * That the node's threads really run SCHED_FIFO, as root, is
 * tests/system/test-rt-prio.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rt.h"

#define MS 1000000ull

static void test_first_sample_only_records(void **state)
{
	struct rt_guard g = { 0 };

	assert_false(rt_guard_sample(&g, 10, 5000 * MS, 100 * MS));
	assert_int_equal(g.n, 1);
}

/* A window is a spin from RT_GUARD_SPIN_PERMILLE (90 %) of it on a CPU. */
static void test_window_judged_by_cpu_share(void **state)
{
	struct rt_guard g = { 0 };
	uint64_t cpu = 0, now = 0;

	rt_guard_sample(&g, 10, cpu, now);
	assert_false(rt_guard_sample(&g, 10, cpu += 50 * MS, now += 100 * MS)); /* 50 % */
	assert_false(rt_guard_sample(&g, 10, cpu += 89999999, now += 100 * MS)); /* 89.99 % */
	assert_true(rt_guard_sample(&g, 10, cpu += 90 * MS, now += 100 * MS)); /* 90 % */
	assert_true(rt_guard_sample(&g, 10, cpu += 100 * MS, now += 100 * MS)); /* 100 % */
	assert_false(rt_guard_sample(&g, 10, cpu += 1 * MS, now += 100 * MS)); /* slept again */
	assert_false(rt_guard_sample(&g, 10, cpu, now)); /* an empty window */
}

/* A guard with its own threshold (knob rt_spin_permille). */
static void test_threshold_of_the_guard(void **state)
{
	struct rt_guard g = { .spin_permille = 500 };

	rt_guard_sample(&g, 10, 0, 0);
	assert_false(rt_guard_sample(&g, 10, 49 * MS, 100 * MS));
	assert_true(rt_guard_sample(&g, 10, 99 * MS, 200 * MS));
}

/* rt_spin_guard=off: a full window is no spin, and the samples go on. */
static void test_guard_off_judges_nothing(void **state)
{
	struct rt_guard g = { .off = true };

	rt_guard_sample(&g, 10, 0, 0);
	assert_false(rt_guard_sample(&g, 10, 100 * MS, 100 * MS));
	assert_int_equal(g.t[0].cpu_ns, 100 * MS);
	g.off = false;
	assert_true(rt_guard_sample(&g, 10, 200 * MS, 200 * MS));
}

/* Each thread is judged on its own samples. */
static void test_threads_apart(void **state)
{
	struct rt_guard g = { 0 };

	rt_guard_sample(&g, 10, 0, 0);
	rt_guard_sample(&g, 11, 0, 0);
	assert_true(rt_guard_sample(&g, 10, 95 * MS, 100 * MS));
	assert_false(rt_guard_sample(&g, 11, 5 * MS, 100 * MS));
}

/* A thread not sampled in a round has exited: forgotten, and a reused id starts over. */
static void test_round_forgets_exited_threads(void **state)
{
	struct rt_guard g = { 0 };

	rt_guard_round_begin(&g);
	rt_guard_sample(&g, 10, 0, 0);
	rt_guard_sample(&g, 11, 0, 0);
	rt_guard_round_end(&g);
	rt_guard_round_begin(&g);
	rt_guard_sample(&g, 11, 1 * MS, 100 * MS);
	rt_guard_round_end(&g);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.t[0].tid, 11);
	/* Thread 10 again (a new thread with the same id): a first sample. */
	assert_false(rt_guard_sample(&g, 10, 500 * MS, 200 * MS));
}

static void test_full_table_never_judges(void **state)
{
	struct rt_guard g = { 0 };
	pid_t extra = 100 + RT_GUARD_THREADS;

	for (pid_t tid = 100; tid < extra; tid++)
		rt_guard_sample(&g, tid, 0, 0);
	assert_false(rt_guard_sample(&g, extra, 0, 0));
	assert_false(rt_guard_sample(&g, extra, 100 * MS, 100 * MS));
	assert_int_equal(g.n, RT_GUARD_THREADS);
}

static void test_priority_calls(void **state)
{
	assert_int_equal(rt_thread_set(0, RT_PRIO_MAX + 1), -EINVAL);
	assert_int_equal(rt_thread_set(0, 0), 0); /* SCHED_OTHER needs no privilege */
	assert_int_equal(rt_thread_get(0), 0);
	assert_int_equal(rt_thread_get(-1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_sample_only_records),
		cmocka_unit_test(test_window_judged_by_cpu_share),
		cmocka_unit_test(test_threshold_of_the_guard),
		cmocka_unit_test(test_guard_off_judges_nothing),
		cmocka_unit_test(test_threads_apart),
		cmocka_unit_test(test_round_forgets_exited_threads),
		cmocka_unit_test(test_full_table_never_judges),
		cmocka_unit_test(test_priority_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
