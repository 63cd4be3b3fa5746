// SPDX-License-Identifier: MIT
/* Unit tests for the event loop: watchers, timers, stop, wake, hooks. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <cmocka.h>
#include "ethdrv/loop.h"

#define MS 1000000ull

static int setup(void **state)
{
	struct ethdrv_loop *loop;

	if (ethdrv_loop_new(&loop))
		return -1;
	*state = loop;
	return 0;
}

static int teardown(void **state)
{
	ethdrv_loop_free(*state);
	return 0;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

static void efd_write(int fd)
{
	uint64_t one = 1;

	assert_int_equal(write(fd, &one, sizeof(one)), sizeof(one));
}

/* ---- watchers ---- */

struct watch_rec {
	unsigned calls;
	unsigned last_events;
	struct ethdrv_watch *other; /* stopped by the callback when set */
};

static void watch_cb(struct ethdrv_watch *w, unsigned events)
{
	struct watch_rec *r = w->data;

	r->calls++;
	r->last_events = events;
	if (r->other)
		ethdrv_watch_stop(r->other);
}

static void test_watch_fires_parks_unparks(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct watch_rec rec = { 0 };
	struct ethdrv_watch w = { 0 };
	int fd = eventfd(0, EFD_NONBLOCK);

	w.data = &rec;
	assert_int_equal(ethdrv_watch_start(loop, &w, fd, ETHDRV_EV_READ, watch_cb), 0);
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(rec.calls, 0); /* not readable yet */

	efd_write(fd);
	assert_int_equal(ethdrv_loop_run_once(loop, 0), 1); /* blocks until readable */
	assert_int_equal(rec.calls, 1);
	assert_int_equal(rec.last_events, ETHDRV_EV_READ);
	/* Level-triggered: still readable, fires again. */
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(rec.calls, 2);

	/* Parked: registered but silent. */
	assert_int_equal(ethdrv_watch_set(&w, 0), 0);
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(rec.calls, 2);

	/* Unparked: the still-asserted level fires at once. */
	assert_int_equal(ethdrv_watch_set(&w, ETHDRV_EV_READ), 0);
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(rec.calls, 3);

	ethdrv_watch_stop(&w);
	ethdrv_watch_stop(&w); /* safe twice */
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(rec.calls, 3);
	close(fd);
}

static void test_watch_stop_within_batch(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct watch_rec ra = { 0 }, rb = { 0 };
	struct ethdrv_watch wa = { 0 }, wb = { 0 };
	int fa = eventfd(1, EFD_NONBLOCK), fb = eventfd(1, EFD_NONBLOCK);

	/* Each callback stops the other: whichever runs first, the second
	 * event of the same batch must not reach a stopped watcher. */
	wa.data = &ra;
	wb.data = &rb;
	ra.other = &wb;
	rb.other = &wa;
	assert_int_equal(ethdrv_watch_start(loop, &wa, fa, ETHDRV_EV_READ, watch_cb), 0);
	assert_int_equal(ethdrv_watch_start(loop, &wb, fb, ETHDRV_EV_READ, watch_cb), 0);
	assert_int_equal(ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT), 1);
	assert_int_equal(ra.calls + rb.calls, 1);
	ethdrv_watch_stop(&wa);
	ethdrv_watch_stop(&wb);
	close(fa);
	close(fb);
}

static void test_watch_bad_args(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct ethdrv_watch w = { 0 };

	assert_int_equal(ethdrv_watch_start(loop, &w, -1, ETHDRV_EV_READ, watch_cb), -EINVAL);
	assert_int_equal(ethdrv_watch_start(loop, &w, 999, ETHDRV_EV_READ, watch_cb), -EBADF);
}

/* ---- timers ---- */

#define MAX_REC 64

struct timer_rec {
	unsigned n;
	uintptr_t id[MAX_REC];
	uint64_t next_deadline[MAX_REC]; /* t->deadline_ns seen in the callback */
	uint64_t now[MAX_REC];
	uint64_t sleep_in_call; /* callback number that sleeps, 0 = none */
	uint64_t sleep_ns;
};

static struct timer_rec trec;

static void timer_cb(struct ethdrv_timer *t)
{
	if (trec.n < MAX_REC) {
		trec.id[trec.n] = (uintptr_t)t->data;
		trec.next_deadline[trec.n] = t->deadline_ns;
		trec.now[trec.n] = ethdrv_now_ns();
	}
	trec.n++;
	if (trec.sleep_in_call && trec.n == trec.sleep_in_call)
		sleep_ns(trec.sleep_ns);
}

static void test_timers_fire_in_deadline_order(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct ethdrv_timer t[3];
	uint64_t base = ethdrv_now_ns();
	const unsigned order[3] = { 3, 1, 2 }; /* ms offsets, started out of order */
	unsigned i;

	memset(&trec, 0, sizeof(trec));
	for (i = 0; i < 3; i++) {
		ethdrv_timer_init(loop, &t[i], timer_cb);
		t[i].data = (void *)(uintptr_t)order[i];
		assert_false(ethdrv_timer_is_active(&t[i]));
		assert_int_equal(ethdrv_timer_start_at(&t[i], base + order[i] * MS, 0), 0);
		assert_true(ethdrv_timer_is_active(&t[i]));
	}
	while (trec.n < 3)
		assert_true(ethdrv_loop_run_once(loop, 0) >= 0); /* sleeps on the timerfd */
	for (i = 0; i < 3; i++) {
		assert_int_equal(trec.id[i], i + 1);
		assert_true(trec.now[i] >= base + (i + 1) * MS); /* never early */
		assert_false(ethdrv_timer_is_active(&t[i]));
	}
}

static void test_timer_stop_and_move(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct ethdrv_timer a, b;
	struct ethdrv_loop_stats st;

	memset(&trec, 0, sizeof(trec));
	ethdrv_timer_init(loop, &a, timer_cb);
	ethdrv_timer_init(loop, &b, timer_cb);
	a.data = (void *)1;
	b.data = (void *)2;
	assert_int_equal(ethdrv_timer_start(&a, 1 * MS, 0), 0);
	assert_int_equal(ethdrv_timer_start(&b, 2 * MS, 0), 0);
	ethdrv_timer_stop(&a);
	ethdrv_timer_stop(&a); /* safe on an inactive timer */
	/* Re-arming an active timer moves it: b now fires before c would. */
	assert_int_equal(ethdrv_timer_start(&b, 1 * MS, 0), 0);
	while (trec.n < 1)
		ethdrv_loop_run_once(loop, 0);
	sleep_ns(3 * MS);
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(trec.n, 1);
	assert_int_equal(trec.id[0], 2);
	ethdrv_loop_get_stats(loop, &st);
	assert_int_equal(st.timers_fired, 1);
}

static void test_periodic_timer_does_not_drift(void **state)
{
	struct ethdrv_loop *loop = *state;
	const uint64_t period = 2 * MS;
	struct ethdrv_timer t;
	uint64_t base = ethdrv_now_ns() + period;
	bool skipped = false;
	unsigned i;

	memset(&trec, 0, sizeof(trec));
	/* The 3rd callback runs 3.5 periods late: the missed periods are
	 * skipped and the grid base + k*period is kept. */
	trec.sleep_in_call = 3;
	trec.sleep_ns = period * 7 / 2;
	ethdrv_timer_init(loop, &t, timer_cb);
	assert_int_equal(ethdrv_timer_start_at(&t, base, period), 0);
	while (trec.n < 8)
		ethdrv_loop_run_once(loop, 0);
	ethdrv_timer_stop(&t);
	for (i = 0; i < 8; i++) {
		uint64_t d = trec.next_deadline[i];

		assert_int_equal((d - base) % period, 0); /* on the grid */
		assert_true(d > trec.now[i] - period); /* re-armed ahead of its due time */
		if (i) {
			assert_true(d > trec.next_deadline[i - 1]);
			if (d - trec.next_deadline[i - 1] > period)
				skipped = true;
		}
	}
	assert_true(skipped);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t heap_seen[256];
static unsigned heap_seen_n;

static void heap_cb(struct ethdrv_timer *t)
{
	heap_seen[heap_seen_n++] = t->deadline_ns;
}

static void test_timer_heap_many(void **state)
{
	struct ethdrv_loop *loop = *state;
	static struct ethdrv_timer t[200];
	uint64_t now = ethdrv_now_ns(), want[200];
	unsigned i, n = 0;

	heap_seen_n = 0;
	srand(7);
	for (i = 0; i < 200; i++) {
		ethdrv_timer_init(loop, &t[i], heap_cb);
		assert_int_equal(
			ethdrv_timer_start_at(&t[i], now - 1 - (uint64_t)(rand() % 100000), 0), 0);
	}
	/* Stop every third one, move every fifth one. */
	for (i = 0; i < 200; i += 3)
		ethdrv_timer_stop(&t[i]);
	for (i = 1; i < 200; i += 5)
		ethdrv_timer_start_at(&t[i], now - 200000 - i, 0);
	for (i = 0; i < 200; i++)
		if (ethdrv_timer_is_active(&t[i]))
			want[n++] = t[i].deadline_ns;
	qsort(want, n, sizeof(want[0]), cmp_u64);
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(heap_seen_n, n);
	for (i = 0; i < n; i++)
		assert_int_equal(heap_seen[i], want[i]);
}

/* ---- stop, wake, hooks ---- */

static void *stopper(void *arg)
{
	sleep_ns(20 * MS);
	ethdrv_loop_stop(arg);
	return NULL;
}

static void test_stop_from_thread(void **state)
{
	struct ethdrv_loop *loop = *state;
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, stopper, loop), 0);
	assert_int_equal(ethdrv_loop_run(loop), 0);
	pthread_join(th, NULL);
	/* A stop before run() makes it return after one iteration. */
	ethdrv_loop_stop(loop);
	assert_int_equal(ethdrv_loop_run(loop), 0);
}

struct wake_ctx {
	struct ethdrv_loop *loop;
	int about_to_sleep; /* atomic: set by the before-sleep hook */
	unsigned hooks;
};

static void hook(struct ethdrv_loop *loop, void *arg)
{
	struct wake_ctx *c = arg;

	c->hooks++;
	__atomic_store_n(&c->about_to_sleep, 1, __ATOMIC_SEQ_CST);
}

static void *waker(void *arg)
{
	struct wake_ctx *c = arg;

	while (!__atomic_load_n(&c->about_to_sleep, __ATOMIC_SEQ_CST))
		sleep_ns(MS / 10);
	sleep_ns(5 * MS); /* most likely inside epoll_wait by now; either way no loss */
	ethdrv_loop_wake(c->loop);
	return NULL;
}

static void safety_cb(struct ethdrv_timer *t)
{
}

static void test_wake_interrupts_wait(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct wake_ctx c = { .loop = loop };
	struct ethdrv_loop_stats st;
	struct ethdrv_timer safety;
	pthread_t th;

	/* Not sleeping: a wake costs nothing and is not recorded. */
	ethdrv_loop_wake(loop);
	ethdrv_loop_get_stats(loop, &st);
	assert_int_equal(st.wakes_sent, 0);

	ethdrv_timer_init(loop, &safety, safety_cb);
	ethdrv_timer_start(&safety, 30000 * MS, 0); /* returns if the wake were lost */
	ethdrv_loop_set_before_sleep(loop, hook, &c);
	assert_int_equal(pthread_create(&th, NULL, waker, &c), 0);
	assert_int_equal(ethdrv_loop_run_once(loop, 0), 0);
	pthread_join(th, NULL);
	ethdrv_loop_get_stats(loop, &st);
	assert_int_equal(st.wakes_sent, 1);
	assert_int_equal(st.timers_fired, 0);
	assert_int_equal(st.sleeps, 1);
	assert_int_equal(st.wakeups, 1);
	assert_int_equal(c.hooks, 1);
	/* NOWAIT never sleeps and skips the hook. */
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(c.hooks, 1);
	ethdrv_timer_stop(&safety);
	ethdrv_loop_set_before_sleep(loop, NULL, NULL);
}

struct thread_check {
	struct ethdrv_loop *loop;
	bool in;
};

static void *in_thread_probe(void *arg)
{
	struct thread_check *c = arg;

	c->in = ethdrv_loop_in_thread(c->loop);
	return NULL;
}

static void test_in_thread_and_budget(void **state)
{
	struct ethdrv_loop *loop = *state;
	struct thread_check c = { .loop = loop, .in = true };
	pthread_t th;

	assert_false(ethdrv_loop_in_thread(loop)); /* not run yet */
	ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	assert_true(ethdrv_loop_in_thread(loop));
	pthread_create(&th, NULL, in_thread_probe, &c);
	pthread_join(th, NULL);
	assert_false(c.in);

	assert_int_equal(ethdrv_loop_set_budget(loop, 0, 2000), -EINVAL);
	assert_int_equal(ethdrv_loop_set_budget(loop, 300, 0), -EINVAL);
	assert_int_equal(ethdrv_loop_set_budget(loop, 100, 1000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_watch_fires_parks_unparks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watch_stop_within_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watch_bad_args, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timers_fire_in_deadline_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_timer_stop_and_move, setup, teardown),
		cmocka_unit_test_setup_teardown(test_periodic_timer_does_not_drift, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_timer_heap_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_from_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wake_interrupts_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_in_thread_and_budget, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
