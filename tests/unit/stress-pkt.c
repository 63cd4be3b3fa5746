// SPDX-License-Identifier: MIT
/* Unit tests for the packet pool and packet queues. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ethdrv/log.h"
#include "ethdrv/pkt.h"

#define POOL_SIZE 16

/* Log lines seen from the pkt module, and the last one. */
static unsigned pkt_log_lines;
static char pkt_log_last[512];

static void count_sink(void *arg, int level, const char *module, const char *line)
{
	if (strcmp(module, "pkt"))
		return;
	pkt_log_lines++;
	snprintf(pkt_log_last, sizeof(pkt_log_last), "%s", line);
}

static int setup(void **state)
{
	struct ethdrv_pkt_pool *pool;

	pkt_log_lines = 0;
	pkt_log_last[0] = '\0';
	ethdrv_log_set_sink(count_sink, NULL);
	if (ethdrv_pkt_pool_new(POOL_SIZE, &pool))
		return -1;
	*state = pool;
	return 0;
}

static int teardown(void **state)
{
	struct ethdrv_pkt_pool *pool = *state;

	assert_int_equal(ethdrv_pkt_pool_avail(pool), POOL_SIZE);
	ethdrv_pkt_pool_free(pool);
	ethdrv_log_set_sink(NULL, NULL);
	return 0;
}

static void alloc_n(struct ethdrv_pkt_pool *pool, struct ethdrv_pkt **p, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		p[i] = ethdrv_pkt_alloc(pool);
		assert_non_null(p[i]);
	}
}

static void free_n(struct ethdrv_pkt **p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ethdrv_pkt_free(p[i]);
}

static void test_alloc_all_then_empty(void **state)
{
	struct ethdrv_pkt_pool *pool = *state;
	struct ethdrv_pkt *p[POOL_SIZE];
	struct ethdrv_pkt_pool_stats st;

	alloc_n(pool, p, POOL_SIZE);
	for (unsigned i = 0; i < POOL_SIZE; i++)
		for (unsigned j = 0; j < i; j++)
			assert_ptr_not_equal(p[i], p[j]);
	assert_null(ethdrv_pkt_alloc(pool));
	assert_null(ethdrv_pkt_alloc(pool));
	ethdrv_pkt_pool_get_stats(pool, &st);
	assert_int_equal(st.size, POOL_SIZE);
	assert_int_equal(st.avail, 0);
	assert_int_equal(st.min_avail, 0);
	assert_int_equal(st.allocs, POOL_SIZE);
	assert_int_equal(st.alloc_failed, 2);

	free_n(p, POOL_SIZE);
	ethdrv_pkt_pool_get_stats(pool, &st);
	assert_int_equal(st.avail, POOL_SIZE);
	assert_int_equal(st.min_avail, 0);
	assert_int_equal(st.double_frees, 0);
}

static void test_min_avail_tracks_low_water(void **state)
{
	struct ethdrv_pkt_pool *pool = *state;
	struct ethdrv_pkt *p[5];
	struct ethdrv_pkt_pool_stats st;

	alloc_n(pool, p, 5);
	free_n(p, 5);
	alloc_n(pool, p, 2);
	free_n(p, 2);
	ethdrv_pkt_pool_get_stats(pool, &st);
	assert_int_equal(st.min_avail, POOL_SIZE - 5);
	assert_int_equal(st.allocs, 7);
}

static void test_fields_reset_on_alloc(void **state)
{
	struct ethdrv_pkt_pool *pool = *state;
	struct ethdrv_pkt *p[POOL_SIZE];

	alloc_n(pool, p, POOL_SIZE);
	for (unsigned i = 0; i < POOL_SIZE; i++) {
		p[i]->data = p[i]->buf + 3;
		p[i]->len = 100 + i;
		p[i]->flags = 0x80;
		p[i]->ts_ns = 12345;
		p[i]->next = p[0];
	}
	free_n(p, POOL_SIZE);
	alloc_n(pool, p, POOL_SIZE);
	for (unsigned i = 0; i < POOL_SIZE; i++) {
		assert_ptr_equal(p[i]->data, p[i]->buf + ETHDRV_PKT_HEADROOM);
		assert_int_equal(p[i]->len, 0);
		assert_int_equal(p[i]->flags, 0);
		assert_int_equal(p[i]->ts_ns, 0);
		assert_null(p[i]->next);
		assert_ptr_equal(p[i]->pool, pool);
	}
	free_n(p, POOL_SIZE);
}

static void test_double_free_detected(void **state)
{
	struct ethdrv_pkt_pool *pool = *state;
	struct ethdrv_pkt *p[POOL_SIZE];
	struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(pool);
	struct ethdrv_pkt_pool_stats st;

	ethdrv_pkt_free(pkt);
	ethdrv_pkt_free(pkt);
	ethdrv_pkt_free(NULL);
	ethdrv_pkt_pool_get_stats(pool, &st);
	assert_int_equal(st.double_frees, 1);
	assert_int_equal(st.avail, POOL_SIZE);
	assert_int_equal(pkt_log_lines, 1);
	assert_non_null(strstr(pkt_log_last, "double free"));
	/* The stack is intact: exactly POOL_SIZE distinct packets come out. */
	alloc_n(pool, p, POOL_SIZE);
	for (unsigned i = 0; i < POOL_SIZE; i++)
		for (unsigned j = 0; j < i; j++)
			assert_ptr_not_equal(p[i], p[j]);
	assert_null(ethdrv_pkt_alloc(pool));
	free_n(p, POOL_SIZE);
}

static void test_tailroom(void **state)
{
	struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(*state);

	assert_int_equal(ethdrv_pkt_tailroom(pkt), ETHDRV_PKT_DATA_MAX);
	pkt->len = 100;
	assert_int_equal(ethdrv_pkt_tailroom(pkt), 1500);
	pkt->data -= 14; /* prepend a header: the tail does not move */
	pkt->len += 14;
	assert_int_equal(ethdrv_pkt_tailroom(pkt), 1500);
	pkt->data = pkt->buf;
	pkt->len = 0;
	assert_int_equal(ethdrv_pkt_tailroom(pkt), 1664);
	ethdrv_pkt_free(pkt);
}

static void test_queue_order_and_purge(void **state)
{
	struct ethdrv_pkt_pool *pool = *state;
	struct ethdrv_pkt_queue q;
	struct ethdrv_pkt *p[3], *out;

	ethdrv_pkt_queue_init(&q);
	assert_null(ethdrv_pkt_queue_pop(&q));
	alloc_n(pool, p, 3);
	for (unsigned i = 0; i < 3; i++) {
		p[i]->len = 10 * (i + 1);
		ethdrv_pkt_queue_push(&q, p[i]);
	}
	assert_int_equal(q.count, 3);
	assert_int_equal(q.bytes, 60);
	out = ethdrv_pkt_queue_pop(&q);
	assert_ptr_equal(out, p[0]);
	assert_null(out->next);
	assert_int_equal(q.count, 2);
	assert_int_equal(q.bytes, 50);
	ethdrv_pkt_queue_push(&q, out);
	assert_ptr_equal(q.head, p[1]);
	assert_ptr_equal(q.tail, p[0]);

	assert_int_equal(ethdrv_pkt_queue_purge(&q), 3);
	assert_null(q.head);
	assert_null(q.tail);
	assert_int_equal(q.count, 0);
	assert_int_equal(q.bytes, 0);
	assert_int_equal(ethdrv_pkt_queue_purge(&q), 0);
}

static void test_bad_count(void **state)
{
	struct ethdrv_pkt_pool *pool = NULL;

	assert_int_equal(ethdrv_pkt_pool_new(0, &pool), -EINVAL);
	assert_int_equal(ethdrv_pkt_pool_new(1048577, &pool), -EINVAL);
	assert_int_equal(ethdrv_pkt_pool_new(4, NULL), -EINVAL);
	assert_null(pool);
	assert_int_equal(ethdrv_pkt_pool_new(1, &pool), 0);
	assert_int_equal(ethdrv_pkt_pool_avail(pool), 1);
	ethdrv_pkt_pool_free(pool);
	ethdrv_pkt_pool_free(NULL);
}

static void test_pool_free_with_packets_out(void **state)
{
	struct ethdrv_pkt_pool *pool;
	struct ethdrv_pkt *pkt;

	assert_int_equal(ethdrv_pkt_pool_new(4, &pool), 0);
	pkt = ethdrv_pkt_alloc(pool);
	ethdrv_pkt_pool_free(pool);
	assert_int_equal(pkt_log_lines, 1);
	assert_non_null(strstr(pkt_log_last, "1 packets still out"));
	/* Leaked, not freed under the owner: the packet can still go back. */
	ethdrv_pkt_free(pkt);
	assert_int_equal(ethdrv_pkt_pool_avail(pool), 4);
	ethdrv_pkt_pool_free(pool);
	assert_int_equal(pkt_log_lines, 1);
}

#define STRESS_THREADS 4
#define STRESS_ITERS 20000
#define STRESS_BATCH 8

/* Per-thread result of the stress test. */
struct stress_arg {
	struct ethdrv_pkt_pool *pool; /* shared pool */
	unsigned id; /* thread number */
	uint64_t allocs; /* successful allocations */
	uint64_t failed; /* NULL returns */
	unsigned corrupt; /* packets another thread wrote while this one owned them */
};

static void *stress_thread(void *arg)
{
	struct stress_arg *a = arg;
	struct ethdrv_pkt *p[STRESS_BATCH];

	for (unsigned it = 0; it < STRESS_ITERS; it++) {
		unsigned want = 1 + (it + a->id) % STRESS_BATCH, got = 0;
		uint64_t mark = (uint64_t)a->id << 32 | it;

		for (unsigned i = 0; i < want; i++) {
			p[got] = ethdrv_pkt_alloc(a->pool);
			if (!p[got]) {
				a->failed++;
				continue;
			}
			p[got]->ts_ns = mark;
			p[got++]->len = a->id;
		}
		a->allocs += got;
		for (unsigned i = 0; i < got; i++) {
			a->corrupt += p[i]->ts_ns != mark || p[i]->len != a->id;
			ethdrv_pkt_free(p[i]);
		}
	}
	return NULL;
}

static void test_stress_threads(void **state)
{
	struct ethdrv_pkt_pool *pool = *state; /* 16 buffers for up to 32 wanted */
	struct stress_arg args[STRESS_THREADS];
	pthread_t th[STRESS_THREADS];
	struct ethdrv_pkt_pool_stats st;
	uint64_t allocs = 0, failed = 0;

	for (unsigned i = 0; i < STRESS_THREADS; i++) {
		args[i] = (struct stress_arg){ .pool = pool, .id = i };
		assert_int_equal(pthread_create(&th[i], NULL, stress_thread, &args[i]), 0);
	}
	for (unsigned i = 0; i < STRESS_THREADS; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(args[i].corrupt, 0);
		allocs += args[i].allocs;
		failed += args[i].failed;
	}
	ethdrv_pkt_pool_get_stats(pool, &st);
	assert_int_equal(st.allocs, allocs);
	assert_int_equal(st.alloc_failed, failed);
	assert_int_equal(allocs + failed,
			 (uint64_t)STRESS_THREADS * STRESS_ITERS * (STRESS_BATCH + 1) / 2);
	assert_int_equal(st.avail, POOL_SIZE);
	assert_int_equal(st.double_frees, 0);
	assert_true(st.min_avail < POOL_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alloc_all_then_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_min_avail_tracks_low_water, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fields_reset_on_alloc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_double_free_detected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tailroom, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue_order_and_purge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_free_with_packets_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stress_threads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
