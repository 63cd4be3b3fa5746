// SPDX-License-Identifier: MIT
/*
 * Bounded waits (docs/napi.md §6.1) against a fake register: it becomes
 * ready on read N (or never), can fail with -EIO on read K, and can advance
 * a fake deadline clock per read so reads land exactly before or after the
 * deadline.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <time.h>
#include <cmocka.h>
#include "core/poll_priv.h"
#include "ethdrv/poll.h"
#include "ethdrv/stats.h"

#define REG_READY 0x1u /* the bit the waits look for */

struct fake_reg {
	unsigned reads; /* reads made so far */
	unsigned ready_at; /* read number from which REG_READY is set; 0 = never */
	unsigned fail_at; /* read number that fails with -EIO; 0 = never */
	uint64_t read_cost_ns; /* fake clock advance per read */
};

static uint64_t fake_now_ns; /* the fake deadline clock */

static uint64_t fake_clock(void)
{
	return fake_now_ns;
}

/* Reads back (read number << 1) | ready, so val shows which read it was. */
static int fake_read(struct fake_reg *r, uint32_t *val)
{
	r->reads++;
	fake_now_ns += r->read_cost_ns;
	if (r->fail_at && r->reads == r->fail_at)
		return -EIO;
	*val = r->reads << 1;
	if (r->ready_at && r->reads >= r->ready_at)
		*val |= REG_READY;
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int teardown_clock(void **state)
{
	ethdrv__poll_set_clock(NULL);
	return 0;
}

static void test_poll_immediate_success(void **state)
{
	struct fake_reg r = { .ready_at = 1 };
	uint32_t val = 0;
	int ret;

	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 100, 1000000, &r);
	assert_int_equal(ret, 0);
	assert_int_equal(r.reads, 1);
	assert_int_equal(val, (1u << 1) | REG_READY);
	assert_int_equal(ethdrv_poll_last_reads(), 1);
}

static void test_poll_ready_after_five(void **state)
{
	struct fake_reg r = { .ready_at = 5 };
	uint32_t val = 0;
	int ret;

	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 10, 1000000, &r);
	assert_int_equal(ret, 0);
	assert_int_equal(r.reads, 5);
	assert_int_equal(val, (5u << 1) | REG_READY);
	assert_int_equal(ethdrv_poll_last_reads(), 5);

	r = (struct fake_reg){ .ready_at = 5 };
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 1, 1000000, &r);
	assert_int_equal(ret, 0);
	assert_int_equal(r.reads, 5);
	assert_int_equal(ethdrv_poll_last_reads(), 5);
}

/* An op error ends the wait at once; val keeps the last successful read. */
static void test_poll_op_error_stops(void **state)
{
	struct fake_reg r = { .fail_at = 3 };
	uint32_t val = 0;
	int ret;

	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 0, 1000000, &r);
	assert_int_equal(ret, -EIO);
	assert_int_equal(r.reads, 3);
	assert_int_equal(val, 2u << 1);

	r = (struct fake_reg){ .fail_at = 1, .ready_at = 1 };
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 0, 0, &r);
	assert_int_equal(ret, -EIO);
	assert_int_equal(r.reads, 1);
	assert_int_equal(ethdrv_poll_last_reads(), 1);
}

/* Real clock: never ready, sleep 100 us, timeout 2000 us. */
static void test_poll_sleep_timeout(void **state)
{
	struct fake_reg r = { 0 };
	uint32_t val = 0;
	uint64_t start, elapsed;
	int ret;

	start = mono_ns();
	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 100, 2000, &r);
	elapsed = mono_ns() - start;
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(val, r.reads << 1); /* the last read */
	assert_true(elapsed >= 2000 * 1000u);
	assert_true(elapsed < 2000000000u); /* generous: 1000x the timeout */
	/* Each read before the deadline is checked at >= (k - 1) * 100 us after
	 * the start, so at most 2000 / 100 + 1 = 21 of them, plus one last read:
	 * 22. At least one sleep and the last read: 2.
	 */
	assert_in_range(r.reads, 2, 22);
}

/* Fake clock: each read costs 300 us; deadline = F + 1000 us. */
static void test_poll_late_read_succeeds(void **state)
{
	struct fake_reg r = { .ready_at = 5, .read_cost_ns = 300000 };
	uint32_t val = 0;
	int ret;

	ethdrv__poll_set_clock(fake_clock);
	fake_now_ns = 1000000000;
	/* F = 1e9, deadline F + 1000 us. Checks before reads 1..4 see F, F+300,
	 * F+600, F+900 us: not expired. The check before read 5 sees F+1200 us,
	 * past the deadline, so read 5 is the one last read. It is ready: 0.
	 */
	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 0, 1000, &r);
	assert_int_equal(ret, 0);
	assert_int_equal(r.reads, 5);

	/* Same timeline, ready only on read 6: read 5 was the last, -ETIMEDOUT,
	 * and val holds read 5 (not ready).
	 */
	r = (struct fake_reg){ .ready_at = 6, .read_cost_ns = 300000 };
	fake_now_ns = 1000000000;
	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 10, 1000, &r);
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(r.reads, 5);
	assert_int_equal(val, 5u << 1);
	assert_int_equal(ethdrv_poll_last_reads(), 5);
}

/* Fake clock: a check exactly at the deadline is not yet expired (strictly after). */
static void test_poll_deadline_is_strict(void **state)
{
	struct fake_reg r = { .read_cost_ns = 250000 };
	uint32_t val = 0;
	int ret;

	ethdrv__poll_set_clock(fake_clock);
	fake_now_ns = 5000000000;
	/* Checks before reads 1..5 see F, F+250, F+500, F+750, F+1000 us; the
	 * last equals the deadline and is not past it. The check before read 6
	 * sees F+1250 us: expired, read 6 is the last. 6 reads, -ETIMEDOUT.
	 */
	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 0, 1000, &r);
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(r.reads, 6);
	assert_int_equal(val, 6u << 1);
}

/* Atomic: delay 10 us, timeout 100 us, never ready. */
static void test_poll_atomic_delay_budget(void **state)
{
	struct fake_reg r = { 0 };
	uint32_t val = 0;
	int ret;

	/* The budget starts at 100000 ns and each wait charges 10000 ns. The
	 * check before read k sees 100000 - (k - 1) * 10000, and expiry is
	 * budget < 0 (docs/napi.md §6.1; the kernel's __left_ns < 0): read 11
	 * sees exactly 0, not expired; read 12 sees -10000, so it is the one
	 * last read. 12 reads (11 waits, 110 us), -ETIMEDOUT. A "<= 0" rule
	 * would give 11.
	 */
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 10, 100, &r);
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(r.reads, 12);
	assert_int_equal(val, 12u << 1);
}

/* Atomic: delay 0, timeout 1 us: the timeout becomes a loop count. */
static void test_poll_atomic_tight_budget(void **state)
{
	struct fake_reg r = { 0 };
	uint32_t val = 0;
	int ret;

	/* Budget 1000 ns, 1 ns per tight iteration. The check before read k
	 * sees 1000 - (k - 1): read 1001 sees 0 (not < 0), read 1002 sees -1
	 * and is the last read. 1002 reads, -ETIMEDOUT. ("<= 0" would give 1001.)
	 */
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 0, 1, &r);
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(r.reads, 1002);
	assert_int_equal(ethdrv_poll_last_reads(), 1002);
}

/* Timeout 0 never times out, however many reads it takes. */
static void test_poll_no_timeout(void **state)
{
	struct fake_reg r = { .ready_at = 10000 };
	uint32_t val = 0;
	int ret;

	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 0, 0, &r);
	assert_int_equal(ret, 0);
	assert_int_equal(r.reads, 10000);

	/* The sleeping variant, with a fake clock that jumps a second per read. */
	ethdrv__poll_set_clock(fake_clock);
	r = (struct fake_reg){ .ready_at = 10000, .read_cost_ns = 1000000000 };
	ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 0, 0, &r);
	assert_int_equal(ret, 0);
	assert_int_equal(r.reads, 10000);
	assert_int_equal(ethdrv_poll_last_reads(), 10000);
}

/* Counters and the reads histogram move by exactly what the waits did. */
static void test_poll_stats(void **state)
{
	struct ethdrv_hist *h = ethdrv_poll_reads_hist();
	struct ethdrv_poll_stats s0, s1;
	uint64_t b1, b3, b4, count, sum;
	struct fake_reg r;
	uint32_t val = 0;
	int ret;

	assert_non_null(h);
	ethdrv_poll_get_stats(&s0);
	b1 = h->bucket[1];
	b3 = h->bucket[3];
	b4 = h->bucket[4];
	count = h->count;
	sum = h->sum;

	r = (struct fake_reg){ .ready_at = 1 }; /* 1 read: bucket 1 (1 <= v < 2) */
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 0, 10, &r);
	assert_int_equal(ret, 0);
	r = (struct fake_reg){ .ready_at = 5 }; /* 5 reads: bucket 3 (4 <= v < 8) */
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 0, 10, &r);
	assert_int_equal(ret, 0);
	r = (struct fake_reg){ .fail_at = 4 }; /* error on read 4: bucket 3 */
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 0, 10, &r);
	assert_int_equal(ret, -EIO);
	/* 12 reads as derived in test_poll_atomic_delay_budget: bucket 4 (8..15) */
	r = (struct fake_reg){ 0 };
	ret = ethdrv_poll_timeout_atomic(fake_read, val, val & REG_READY, 10, 100, &r);
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(ethdrv_poll_last_reads(), 12);

	ethdrv_poll_get_stats(&s1);
	assert_int_equal(s1.waits - s0.waits, 4);
	assert_int_equal(s1.reads - s0.reads, 1 + 5 + 4 + 12);
	assert_int_equal(s1.timeouts - s0.timeouts, 1);
	assert_int_equal(s1.errors - s0.errors, 1);
	assert_int_equal(h->count - count, 4);
	assert_int_equal(h->sum - sum, 22);
	assert_int_equal(h->bucket[1] - b1, 1);
	assert_int_equal(h->bucket[3] - b3, 2);
	assert_int_equal(h->bucket[4] - b4, 1);
	assert_true(h->max >= 12);
}

struct thread_wait {
	unsigned last_reads; /* ethdrv_poll_last_reads() in the thread */
	unsigned long slack_ns; /* the thread's timer slack after the wait */
	int ret;
};

static void *wait_thread(void *arg)
{
	struct thread_wait *tw = arg;
	struct fake_reg r = { .ready_at = 7 };
	uint32_t val = 0;

	tw->ret = ethdrv_poll_timeout(fake_read, val, val & REG_READY, 10, 1000000, &r);
	tw->last_reads = ethdrv_poll_last_reads();
	tw->slack_ns = (unsigned long)prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
	return NULL;
}

/* Last reads are per thread; a sleeping wait sets the thread's slack to 1 ns. */
static void test_poll_thread_local(void **state)
{
	struct fake_reg r = { .ready_at = 3 };
	struct thread_wait tw = { 0 };
	uint32_t val = 0;
	pthread_t th;

	assert_int_equal(ethdrv_poll_timeout(fake_read, val, val & REG_READY, 0, 0, &r), 0);
	assert_int_equal(ethdrv_poll_last_reads(), 3);
	assert_int_equal(pthread_create(&th, NULL, wait_thread, &tw), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(tw.ret, 0);
	assert_int_equal(tw.last_reads, 7);
	assert_int_equal(tw.slack_ns, 1);
	assert_int_equal(ethdrv_poll_last_reads(), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poll_immediate_success),
		cmocka_unit_test(test_poll_ready_after_five),
		cmocka_unit_test(test_poll_op_error_stops),
		cmocka_unit_test(test_poll_sleep_timeout),
		cmocka_unit_test_teardown(test_poll_late_read_succeeds, teardown_clock),
		cmocka_unit_test_teardown(test_poll_deadline_is_strict, teardown_clock),
		cmocka_unit_test(test_poll_atomic_delay_budget),
		cmocka_unit_test(test_poll_atomic_tight_budget),
		cmocka_unit_test_teardown(test_poll_no_timeout, teardown_clock),
		cmocka_unit_test(test_poll_stats),
		cmocka_unit_test(test_poll_thread_local),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
