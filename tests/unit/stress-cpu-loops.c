// SPDX-License-Identifier: MIT
/*
 * Per-CPU softirq contexts (cpu_loops.h, docs/design.md §4.7), also built
 * with TSan: the fake netdev's RX and TX-completion pollers steered to two
 * loops of a set, each taking its own IRQ line, while the device's loop
 * sends and a "wire" thread injects frames. Every frame arrives once and
 * in order, every sent frame is reaped, each poller ran only in its own
 * loop's thread, and moving a poller back and forth while traffic runs
 * loses nothing. A driver-owned line (ethdrv_napi_line_start()) follows
 * its poller: its handler runs in the thread of the loop that polls it.
 */
#define _GNU_SOURCE /* gettid */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <cmocka.h>
#include "ethdrv/cpu_loops.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "fake_netdev.h"

#define POOL_SIZE 4096
#define MS 1000000ull
#define FRAMES 3000
#define SENDS 3000

struct env {
	struct ethdrv_loop *loop; /* the device's loop: this thread */
	struct ethdrv_pkt_pool *pool;
	struct fake_netdev *f;
	struct ethdrv_cpu_loops *cpus;
	struct ethdrv_timer tick;
	int rx_tid; /* atomic: the thread the last RX frame was handled in */
	unsigned rx_wrong; /* atomic: frames handled outside the RX loop's thread */
	int want_rx_tid; /* atomic: the thread RX polls must run in */
};

static void tick_cb(struct ethdrv_timer *t)
{
}

static void rx_handler(void *arg, struct ethdrv_pkt *pkt)
{
	struct env *e = arg;
	int tid = (int)gettid();

	if (tid != __atomic_load_n(&e->want_rx_tid, __ATOMIC_ACQUIRE))
		__atomic_fetch_add(&e->rx_wrong, 1, __ATOMIC_RELAXED);
	fake_netdev_record_rx(e->f, pkt);
}

static int setup(void **state)
{
	struct ethdrv_cpu_loops_config cc = { .n = 2, .name = "tsoftirq", .pin = true };
	struct fake_netdev_config cfg;
	struct env *e = calloc(1, sizeof(*e));

	fake_netdev_default_config(&cfg);
	cfg.auto_complete_tx = true;
	cfg.record_cap = FRAMES;
	if (!e || ethdrv_loop_new(&e->loop) || ethdrv_pkt_pool_new(POOL_SIZE, &e->pool))
		return -1;
	if (fake_netdev_create(e->loop, e->pool, "fake0", &cfg, &e->f))
		return -1;
	if (ethdrv_cpu_loops_start(&cc, &e->cpus))
		return -1;
	ethdrv_netdev_set_rx_handler(&e->f->dev, rx_handler, e);
	ethdrv_timer_init(e->loop, &e->tick, tick_cb);
	ethdrv_timer_start(&e->tick, MS, MS);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	/* Pollers off the per-CPU loops before those stop (cpu_loops.h). */
	fake_netdev_destroy(e->f);
	ethdrv_cpu_loops_stop(e->cpus);
	ethdrv_timer_stop(&e->tick);
	assert_int_equal(ethdrv_pkt_pool_avail(e->pool), POOL_SIZE);
	ethdrv_pkt_pool_free(e->pool);
	ethdrv_loop_free(e->loop);
	free(e);
	return 0;
}

static void *wire_main(void *arg)
{
	struct env *e = arg;

	for (uint32_t i = 0; i < FRAMES; i++) {
		while (fake_netdev_inject_rx(e->f, i) == -ENOMEM)
			usleep(100);
		if (i % 64 == 63)
			usleep(50);
	}
	return NULL;
}

/* Send @n frames from the device's loop, running it meanwhile. */
static void send_n(struct env *e, unsigned first, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct ethdrv_pkt *p;

		while (!(p = fake_netdev_make_frame(e->f, first + i, 60)))
			ethdrv_loop_run_once(e->loop, ETHDRV_RUN_NOWAIT);
		/* -EBUSY: the queue is stopped and the frame is still ours. */
		while (ethdrv_netdev_xmit(&e->f->dev, p) == -EBUSY)
			ethdrv_loop_run_once(e->loop, ETHDRV_RUN_NOWAIT);
	}
}

static void run_until_done(struct env *e, unsigned frames, unsigned sends)
{
	uint64_t end = ethdrv_now_ns() + 60000 * MS;

	while (fake_netdev_rx_count(e->f) < frames || fake_netdev_tx_count(e->f) < sends) {
		assert_true(ethdrv_now_ns() < end);
		assert_true(ethdrv_loop_run_once(e->loop, 0) >= 0);
	}
}

static void test_two_lines_two_loops(void **state)
{
	struct env *e = *state;
	struct ethdrv_loop *l0 = ethdrv_cpu_loops_get(e->cpus, 0);
	struct ethdrv_loop *l1 = ethdrv_cpu_loops_get(e->cpus, 1);
	pthread_t wire;

	assert_non_null(l0);
	assert_non_null(l1);
	assert_null(ethdrv_cpu_loops_get(e->cpus, 2));
	assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, l0), 0);
	assert_int_equal(ethdrv_napi_set_loop(e->f->tx_napi, l1), 0);
	assert_ptr_equal(ethdrv_napi_get_loop(e->f->rx_napi), l0);
	assert_ptr_equal(ethdrv_napi_get_loop(e->f->tx_napi), l1);
	__atomic_store_n(&e->want_rx_tid, ethdrv_cpu_loops_tid(e->cpus, 0), __ATOMIC_RELEASE);
	assert_true(ethdrv_cpu_loops_tid(e->cpus, 0) > 0);
	assert_int_not_equal(ethdrv_cpu_loops_tid(e->cpus, 0), ethdrv_cpu_loops_tid(e->cpus, 1));

	assert_int_equal(ethdrv_netdev_open(&e->f->dev), 0);
	assert_int_equal(pthread_create(&wire, NULL, wire_main, e), 0);
	send_n(e, 0, SENDS);
	run_until_done(e, FRAMES, SENDS);
	assert_int_equal(pthread_join(wire, NULL), 0);
	assert_true(fake_netdev_rx_in_order(e->f, FRAMES));
	assert_int_equal(__atomic_load_n(&e->rx_wrong, __ATOMIC_RELAXED), 0);
	/* No RX poll ran in the device's loop thread. */
	assert_int_equal(__atomic_load_n(&e->f->rx_polls_in_loop, __ATOMIC_RELAXED), 0);
	assert_true(ethdrv_counter_get(&ethdrv_napi_stats(e->f->tx_napi)->polls) > 0);
}

static void test_move_under_traffic(void **state)
{
	struct env *e = *state;
	struct ethdrv_loop *l0 = ethdrv_cpu_loops_get(e->cpus, 0);
	pthread_t wire;
	unsigned moves = 0;

	/* RX hops between per-CPU loop 0 and the device's loop while frames
	 * arrive; the handler's thread check is off for this one. */
	__atomic_store_n(&e->want_rx_tid, -1, __ATOMIC_RELEASE);
	assert_int_equal(ethdrv_netdev_open(&e->f->dev), 0);
	assert_int_equal(pthread_create(&wire, NULL, wire_main, e), 0);
	while (fake_netdev_rx_count(e->f) < FRAMES) {
		struct ethdrv_loop *to = moves % 2 ? e->loop : l0;

		assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, to), 0);
		moves++;
		for (unsigned i = 0; i < 20; i++)
			ethdrv_loop_run_once(e->loop, ETHDRV_RUN_NOWAIT);
		usleep(200);
	}
	assert_int_equal(pthread_join(wire, NULL), 0);
	assert_true(fake_netdev_rx_in_order(e->f, FRAMES));
	assert_true(moves > 1);
	/* Back on the device's loop for the teardown. */
	assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, e->loop), 0);
}

/* A driver-owned line: an eventfd the test rings; the handler clears it. */
struct line {
	struct ethdrv_watch w;
	int fd;
	int tid; /* atomic: the thread of the last handler run */
	unsigned runs; /* atomic */
};

static void line_cb(struct ethdrv_watch *w, unsigned events)
{
	struct line *l = ethdrv_container_of(w, struct line, w);
	uint64_t v;

	(void)events;
	assert_int_equal(read(l->fd, &v, sizeof(v)), (ssize_t)sizeof(v));
	__atomic_store_n(&l->tid, (int)gettid(), __ATOMIC_RELEASE);
	__atomic_add_fetch(&l->runs, 1, __ATOMIC_ACQ_REL);
}

/* Ring the line and run the device's loop until the handler ran once more. */
static void ring(struct env *e, struct line *l)
{
	unsigned before = __atomic_load_n(&l->runs, __ATOMIC_ACQUIRE);
	uint64_t one = 1, end = ethdrv_now_ns() + 10000 * MS;

	assert_int_equal(write(l->fd, &one, sizeof(one)), (ssize_t)sizeof(one));
	while (__atomic_load_n(&l->runs, __ATOMIC_ACQUIRE) == before) {
		assert_true(ethdrv_now_ns() < end);
		ethdrv_loop_run_once(e->loop, ETHDRV_RUN_NOWAIT);
		usleep(100);
	}
}

static void test_driver_line_follows_poller(void **state)
{
	struct env *e = *state;
	struct ethdrv_loop *l0 = ethdrv_cpu_loops_get(e->cpus, 0);
	struct line l = { .fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC) };
	uint64_t one = 1;

	assert_true(l.fd >= 0);
	assert_int_equal(ethdrv_napi_line_start(e->f->rx_napi, &l.w, l.fd, line_cb), 0);
	assert_int_equal(ethdrv_napi_line_start(e->f->rx_napi, &l.w, l.fd, line_cb), -EINVAL);
	/* On the device's loop: this thread runs the handler. */
	ring(e, &l);
	assert_int_equal(__atomic_load_n(&l.tid, __ATOMIC_ACQUIRE), (int)gettid());
	/* The poller moves to per-CPU loop 0: so does its line. */
	assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, l0), 0);
	ring(e, &l);
	assert_int_equal(__atomic_load_n(&l.tid, __ATOMIC_ACQUIRE),
			 ethdrv_cpu_loops_tid(e->cpus, 0));
	/* And back; stopped there, the handler runs no more. */
	assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, e->loop), 0);
	ring(e, &l);
	assert_int_equal(__atomic_load_n(&l.tid, __ATOMIC_ACQUIRE), (int)gettid());
	assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, l0), 0);
	ethdrv_napi_line_stop(e->f->rx_napi, &l.w);
	assert_int_equal(write(l.fd, &one, sizeof(one)), (ssize_t)sizeof(one));
	usleep(20000);
	assert_int_equal(__atomic_load_n(&l.runs, __ATOMIC_ACQUIRE), 3);
	assert_int_equal(ethdrv_napi_set_loop(e->f->rx_napi, e->loop), 0);
	close(l.fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_lines_two_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_move_under_traffic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_driver_line_follows_poller, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
