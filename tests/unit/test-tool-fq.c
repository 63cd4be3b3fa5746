// SPDX-License-Identifier: MIT
/*
 * The node's fair queue (tools/ethdrv/fq.c) with synthetic flows: a sparse
 * flow's frames leave within one quantum of the bulk; DRR shares bytes
 * between two bulk flows of different frame sizes; the limit holds; CoDel
 * drops a standing queue's frames, or marks them CE if ECN-capable (with a
 * header checksum still right, checked by an independent sum); every frame
 * is accounted for at every step.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ethdrv/pkt.h"
#include "fq.h"

#define MS 1000000ull

static struct ethdrv_pkt_pool *pool;

/* IPv4 header checksum by RFC 791's definition, word by word. */
static uint16_t ref_ip_csum(const uint8_t *ip)
{
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		if (i != 10)
			sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* An Ethernet + IPv4 + UDP frame of @len bytes from port @sport, TOS @tos. */
static struct ethdrv_pkt *frame(uint16_t sport, uint32_t len, uint8_t tos)
{
	struct ethdrv_pkt *p = ethdrv_pkt_alloc(pool);
	uint8_t *f, *ip;
	uint16_t c;

	assert_non_null(p);
	f = p->data;
	memset(f, 0, len);
	f[12] = 0x08; /* IPv4 */
	ip = f + 14;
	ip[0] = 0x45;
	ip[1] = tos;
	ip[2] = (uint8_t)((len - 14) >> 8);
	ip[3] = (uint8_t)(len - 14);
	ip[8] = 64;
	ip[9] = 17; /* UDP */
	ip[12] = 169, ip[13] = 254, ip[14] = 20, ip[15] = 1;
	ip[16] = 169, ip[17] = 254, ip[18] = 20, ip[19] = 2;
	c = ref_ip_csum(ip);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	ip[20] = (uint8_t)(sport >> 8);
	ip[21] = (uint8_t)sport;
	ip[23] = 9; /* dport 9 */
	p->len = len;
	return p;
}

static uint16_t sport_of(const struct ethdrv_pkt *p)
{
	return (uint16_t)(p->data[34] << 8 | p->data[35]);
}

#define ST(q, c) ethdrv_counter_get(&(q)->st.c)

/* Every frame in is out, dropped, or still held. */
static void books(const struct fq *q)
{
	assert_int_equal(ST(q, fq_enqueued),
			 ST(q, fq_dequeued) + ST(q, fq_drops) + ST(q, fq_overlimit) + q->backlog);
	assert_int_equal(ST(q, fq_backlog), q->backlog);
}

static struct fq *new_fq(uint32_t limit, bool ecn)
{
	struct fq *q = calloc(1, sizeof(*q));
	struct fq_cfg cfg;

	assert_non_null(q);
	fq_cfg_default(&cfg);
	cfg.limit = limit;
	cfg.ecn = ecn;
	assert_int_equal(fq_init(q, &cfg, 12345), 0);
	return q;
}

static void free_fq(struct fq *q)
{
	fq_free(q);
	free(q);
}

/* A ping-like flow beside a bulk flow: each of its frames leaves after at
 * most one quantum of other bytes. */
static void test_sparse_first(void **state)
{
	struct fq *q = new_fq(256, true);
	uint64_t t = 0, bytes_since = 0;
	bool waiting = false;
	struct ethdrv_pkt *p;

	(void)state;
	for (int i = 0; i < 200; i++)
		fq_enqueue(q, frame(1000, 1514, 0), t);
	for (int i = 0; i < 600; i++) {
		t += 12000; /* a 1514-byte frame at 1 Gb/s */
		if (i % 20 == 5 && !waiting) {
			fq_enqueue(q, frame(2000, 98, 0), t);
			waiting = true;
			bytes_since = 0;
		}
		if (i % 3 == 0)
			fq_enqueue(q, frame(1000, 1514, 0), t); /* keep the bulk backlogged */
		p = fq_dequeue(q, t);
		if (!p)
			break;
		if (sport_of(p) == 2000) {
			assert_true(waiting);
			assert_true(bytes_since <= q->cfg.quantum);
			waiting = false;
		} else if (waiting) {
			bytes_since += p->len;
		}
		ethdrv_pkt_free(p);
		books(q);
	}
	assert_false(waiting);
	free_fq(q);
}

/* Two bulk flows, 1514- and 300-byte frames: bytes shared within a quantum
 * plus one frame, however long they run. */
static void test_drr_fair(void **state)
{
	struct fq *q = new_fq(4096, true);
	uint64_t bytes[2] = { 0, 0 };
	struct ethdrv_pkt *p;

	(void)state;
	for (int i = 0; i < 400; i++) {
		fq_enqueue(q, frame(1000, 1514, 0), 0);
		for (int k = 0; k < 5; k++)
			fq_enqueue(q, frame(3000, 300, 0), 0);
	}
	for (int i = 0; i < 1500; i++) {
		p = fq_dequeue(q, 0);
		assert_non_null(p);
		bytes[sport_of(p) == 3000] += p->len;
		ethdrv_pkt_free(p);
		int64_t d = (int64_t)bytes[0] - (int64_t)bytes[1];
		assert_true(llabs(d) <= (int64_t)q->cfg.quantum + 1514);
	}
	assert_true(bytes[0] > 100000 && bytes[1] > 100000);
	books(q);
	free_fq(q);
}

/* The limit: never more held; the longest queue pays; the books balance. */
static void test_limit(void **state)
{
	struct fq *q = new_fq(64, true);
	struct ethdrv_pkt *p;
	unsigned small_lost;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		fq_enqueue(q, frame(1000, 1514, 0), 0);
		if (i % 50 == 0)
			fq_enqueue(q, frame(4000, 98, 0), 0);
		assert_true(q->backlog <= 64);
		books(q);
	}
	assert_int_equal(ST(q, fq_overlimit), 1000 + 20 - 64);
	/* the sparse flow's 20 frames were never the longest queue's */
	small_lost = 20;
	while ((p = fq_dequeue(q, 0))) {
		if (sport_of(p) == 4000)
			small_lost--;
		ethdrv_pkt_free(p);
	}
	assert_int_equal(small_lost, 0);
	books(q);
	free_fq(q);
}

/* A standing queue: 10 ms of delay for longer than an interval. */
static void run_standing(struct fq *q, uint8_t tos)
{
	uint64_t t = 0;
	struct ethdrv_pkt *p;

	for (int i = 0; i < 40; i++)
		fq_enqueue(q, frame(1000, 1514, tos), t);
	for (int i = 0; i < 3000; i++) {
		t += MS / 4;
		fq_enqueue(q, frame(1000, 1514, tos), t);
		p = fq_dequeue(q, t);
		if (p) {
			if (tos & 3) {
				assert_int_equal(ref_ip_csum(p->data + 14),
						 (uint16_t)(p->data[24] << 8 | p->data[25]));
			}
			ethdrv_pkt_free(p);
		}
		books(q);
	}
}

static void test_codel_drops(void **state)
{
	struct fq *q = new_fq(256, true);

	(void)state;
	run_standing(q, 0); /* Not-ECT */
	assert_true(ST(q, fq_drops) > 0);
	assert_int_equal(ST(q, fq_marks), 0);
	free_fq(q);
}

static void test_codel_marks(void **state)
{
	struct fq *q = new_fq(256, true);

	(void)state;
	run_standing(q, 2); /* ECT(0) */
	assert_true(ST(q, fq_marks) > 0);
	assert_int_equal(ST(q, fq_drops), 0);
	free_fq(q);
}

static void test_codel_ecn_off(void **state)
{
	struct fq *q = new_fq(256, false);

	(void)state;
	run_standing(q, 2);
	assert_true(ST(q, fq_drops) > 0);
	assert_int_equal(ST(q, fq_marks), 0);
	free_fq(q);
}

/* Below target nothing is signalled. */
static void test_codel_quiet(void **state)
{
	struct fq *q = new_fq(256, true);
	struct ethdrv_pkt *p;
	uint64_t t = 0;

	(void)state;
	for (int i = 0; i < 5000; i++) {
		t += MS / 10;
		fq_enqueue(q, frame(1000, 1514, 0), t);
		fq_enqueue(q, frame(1000, 1514, 0), t);
		p = fq_dequeue(q, t + MS);
		ethdrv_pkt_free(p);
		p = fq_dequeue(q, t + MS);
		ethdrv_pkt_free(p);
	}
	assert_int_equal(ST(q, fq_drops) + ST(q, fq_marks) + ST(q, fq_overlimit), 0);
	assert_true(ethdrv_hist_percentile(&q->sojourn_ns, 99) >= MS / 2);
	books(q);
	free_fq(q);
}

static void test_ecn_mark_ipv6_and_other(void **state)
{
	struct ethdrv_pkt *p = frame(1, 100, 0);
	uint8_t *f = p->data;

	(void)state;
	assert_false(fq_ecn_mark(f, p->len)); /* IPv4 Not-ECT */
	memset(f, 0, 60);
	f[12] = 0x86, f[13] = 0xdd;
	f[14] = 0x60;
	f[15] = 0x10; /* traffic class 0x01: ECT(1) */
	assert_true(fq_ecn_mark(f, 60));
	assert_int_equal((f[15] >> 4) & 3, 3);
	f[12] = 0x08, f[13] = 0x06; /* ARP */
	assert_false(fq_ecn_mark(f, 60));
	ethdrv_pkt_free(p);
}

static void test_hash(void **state)
{
	struct ethdrv_pkt *a = frame(1000, 100, 0), *b = frame(1000, 100, 0),
			  *c = frame(1001, 100, 0);
	struct fq_cfg cfg;
	struct fq q;

	(void)state;
	assert_int_equal(fq_hash(a->data, a->len, 7), fq_hash(b->data, b->len, 7));
	assert_int_not_equal(fq_hash(a->data, a->len, 7), fq_hash(c->data, c->len, 7));
	assert_int_not_equal(fq_hash(a->data, a->len, 7), fq_hash(a->data, a->len, 8));
	a->data[14 + 6] = 0x20; /* a fragment (MF): no ports, same as its siblings */
	c->data[14 + 6] = 0x20;
	assert_int_equal(fq_hash(a->data, a->len, 7), fq_hash(c->data, c->len, 7));
	assert_int_equal(fq_hash(a->data, 3, 7), fq_hash(a->data, 3, 7)); /* runt: no crash */
	fq_cfg_default(&cfg);
	cfg.flows = 0;
	assert_int_equal(fq_init(&q, &cfg, 0), -EINVAL);
	fq_cfg_default(&cfg);
	cfg.interval_ns = cfg.target_ns - 1;
	assert_int_equal(fq_init(&q, &cfg, 0), -EINVAL);
	ethdrv_pkt_free(a);
	ethdrv_pkt_free(b);
	ethdrv_pkt_free(c);
}

/* The default limit is fq_codel's 10240 packets (FQ_LIMIT_MAX, the room every
 * device's pool keeps for the fair queue): a bulk window of that many frames is
 * held whole, the next one costs the longest queue its head, and the
 * high-water mark says how many were held. */
static void test_default_limit(void **state)
{
	struct fq_cfg cfg;
	struct fq *q;
	struct ethdrv_pkt *p;
	unsigned n = 0;

	(void)state;
	fq_cfg_default(&cfg);
	assert_int_equal(cfg.limit, 10240);
	assert_int_equal(FQ_LIMIT_MAX, 10240);
	q = new_fq(cfg.limit, true);
	for (unsigned i = 0; i < FQ_LIMIT_MAX; i++)
		fq_enqueue(q, frame(1000 + i % 2, 1514, 0), 0);
	assert_int_equal(ST(q, fq_overlimit), 0);
	assert_int_equal(q->backlog, FQ_LIMIT_MAX);
	fq_enqueue(q, frame(3000, 1514, 0), 0);
	assert_int_equal(ST(q, fq_overlimit), 1);
	assert_int_equal(q->backlog, FQ_LIMIT_MAX);
	assert_int_equal(ST(q, fq_backlog_max), FQ_LIMIT_MAX);
	books(q);
	while ((p = fq_dequeue(q, 0))) {
		n++;
		ethdrv_pkt_free(p);
	}
	assert_int_equal(n, FQ_LIMIT_MAX);
	assert_int_equal(ST(q, fq_backlog_max), FQ_LIMIT_MAX);
	books(q);
	free_fq(q);
}

static int setup(void **state)
{
	(void)state;
	return ethdrv_pkt_pool_new(FQ_LIMIT_MAX + 64, &pool);
}

static int teardown(void **state)
{
	(void)state;
	ethdrv_pkt_pool_free(pool);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparse_first), cmocka_unit_test(test_drr_fair),
		cmocka_unit_test(test_limit),	     cmocka_unit_test(test_codel_drops),
		cmocka_unit_test(test_codel_marks),  cmocka_unit_test(test_codel_ecn_off),
		cmocka_unit_test(test_codel_quiet),  cmocka_unit_test(test_ecn_mark_ipv6_and_other),
		cmocka_unit_test(test_hash),	     cmocka_unit_test(test_default_limit),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
