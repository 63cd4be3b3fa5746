// SPDX-License-Identifier: MIT
/*
 * The point-to-point medium with two fake ports: delivery order, counts,
 * timestamps spaced by the exact wire time, announce_tx semantics, and one run of
 * two LAN8650 models talking over it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/lan865x_emu.h"
#include "emu/medium.h"
#include "ethdrv/stats.h"

#define MAXQ 16
#define WAIT_NS 10000000000ull /* 10 s: generous, only a hang trips it */

/* A fake node: frames to send, frames received, completion times. */
struct fport {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool gate_closed; /* tx_pull blocks while set */
	size_t qlen[MAXQ];
	uint64_t qready[MAXQ];
	unsigned nq, pulled, pull_calls, done;
	uint64_t done_t[MAXQ];
	size_t rx_len[MAXQ];
	uint8_t rx_first[MAXQ]; /* first byte of each received frame */
	uint64_t rx_t[MAXQ];
	unsigned nrx;
	uint8_t id;
};

static bool fp_pull(void *node, uint8_t *buf, size_t max, size_t *len, uint64_t *t_ready)
{
	struct fport *fp = node;
	bool ok = false;

	pthread_mutex_lock(&fp->lock);
	fp->pull_calls++;
	while (fp->gate_closed)
		pthread_cond_wait(&fp->cond, &fp->lock);
	if (fp->pulled < fp->nq) {
		*len = fp->qlen[fp->pulled];
		*t_ready = fp->qready[fp->pulled];
		assert_true(max >= *len);
		memset(buf, 0, *len);
		buf[0] = (uint8_t)(fp->id << 4 | fp->pulled); /* sender and index */
		fp->pulled++;
		ok = true;
	}
	pthread_mutex_unlock(&fp->lock);
	return ok;
}

static void fp_done(void *node, uint64_t t_end)
{
	struct fport *fp = node;

	pthread_mutex_lock(&fp->lock);
	fp->done_t[fp->done++] = t_end;
	pthread_mutex_unlock(&fp->lock);
}

static void fp_rx(void *node, const uint8_t *frame, size_t len, uint64_t t_end)
{
	struct fport *fp = node;

	pthread_mutex_lock(&fp->lock);
	fp->rx_len[fp->nrx] = len;
	fp->rx_first[fp->nrx] = frame[0];
	fp->rx_t[fp->nrx] = t_end;
	fp->nrx++;
	pthread_mutex_unlock(&fp->lock);
}

static const struct emu_port_ops fp_ops = {
	.tx_pull = fp_pull,
	.tx_done = fp_done,
	.rx = fp_rx,
};

static void fp_queue(struct fport *fp, size_t len, uint64_t ready)
{
	pthread_mutex_lock(&fp->lock);
	fp->qlen[fp->nq] = len;
	fp->qready[fp->nq] = ready;
	fp->nq++;
	pthread_mutex_unlock(&fp->lock);
}

static void fp_gate(struct fport *fp, bool closed)
{
	pthread_mutex_lock(&fp->lock);
	fp->gate_closed = closed;
	pthread_cond_broadcast(&fp->cond);
	pthread_mutex_unlock(&fp->lock);
}

static unsigned fp_pull_calls(struct fport *fp)
{
	unsigned n;

	pthread_mutex_lock(&fp->lock);
	n = fp->pull_calls;
	pthread_mutex_unlock(&fp->lock);
	return n;
}

struct t {
	struct emu_p2p_medium *p;
	struct emu_medium *m;
	struct fport port[2];
};

static int make(void **state, bool realtime)
{
	struct emu_p2p_config cfg = { .realtime = realtime };
	struct t *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	assert_int_equal(emu_p2p_medium_new(&cfg, &t->p), 0);
	t->m = emu_p2p_medium_base(t->p);
	for (int i = 0; i < 2; i++) {
		pthread_mutex_init(&t->port[i].lock, NULL);
		pthread_cond_init(&t->port[i].cond, NULL);
		t->port[i].id = (uint8_t)i;
		assert_int_equal(emu_medium_attach(t->m, (unsigned)i, &fp_ops, &t->port[i]), 0);
	}
	*state = t;
	return 0;
}

static int setup_virtual(void **state)
{
	return make(state, false);
}

static int setup_realtime(void **state)
{
	return make(state, true);
}

static int teardown(void **state)
{
	struct t *t = *state;

	emu_medium_detach(t->m, 0);
	emu_medium_detach(t->m, 1);
	emu_medium_free(t->m);
	for (int i = 0; i < 2; i++) {
		pthread_mutex_destroy(&t->port[i].lock);
		pthread_cond_destroy(&t->port[i].cond);
	}
	free(t);
	return 0;
}

/* Wire time by hand (docs/design.md §4): (8 + max(len, 64)) bytes at 800 ns, gap 9600 ns. */
static uint64_t wire(size_t len)
{
	return (8 + (len < 64 ? 64 : len)) * 800ull;
}

static void test_exchange_order_and_times(void **state)
{
	struct t *t = *state;
	struct fport *a = &t->port[0], *b = &t->port[1];
	struct emu_p2p_stats st;

	fp_queue(a, 64, 0);
	fp_queue(a, 100, 0);
	fp_queue(a, 1518, 0);
	fp_queue(b, 200, 0);
	fp_queue(b, 60, 0); /* padded to the 64-byte minimum on the wire */
	/* Hold port 0's first pull until port 1 has announced too: fixed alternation. */
	fp_gate(a, true);
	emu_medium_announce_tx(t->m, 0);
	while (fp_pull_calls(a) == 0)
		sched_yield();
	emu_medium_announce_tx(t->m, 1);
	fp_gate(a, false);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	/* Order on the wire: a0 b0 a1 b1 a2; each peer gets the other's frames in order. */
	assert_int_equal(b->nrx, 3);
	assert_int_equal(a->nrx, 2);
	assert_int_equal(b->rx_first[0], 0x00);
	assert_int_equal(b->rx_first[1], 0x01);
	assert_int_equal(b->rx_first[2], 0x02);
	assert_int_equal(a->rx_first[0], 0x10);
	assert_int_equal(a->rx_first[1], 0x11);
	assert_int_equal(b->rx_len[2], 1518);
	/* a0 ends at 72*800 = 57600; each next frame starts one 9600 ns gap later:
	 * b0 233600, a1 329600, b1 396800, a2 1627200. */
	assert_int_equal(b->rx_t[0], 57600);
	assert_int_equal(a->rx_t[0], 57600 + 9600 + wire(200));
	assert_int_equal(a->rx_t[0], 233600);
	assert_int_equal(b->rx_t[1], 329600);
	assert_int_equal(a->rx_t[1], 396800);
	assert_int_equal(b->rx_t[2], 1627200);
	/* tx_done carries the same end times, once per frame. */
	assert_int_equal(a->done, 3);
	assert_int_equal(b->done, 2);
	assert_int_equal(a->done_t[2], 1627200);
	assert_int_equal(b->done_t[0], 233600);
	emu_p2p_medium_get_stats(t->p, &st);
	assert_int_equal(st.frames[0], 3);
	assert_int_equal(st.frames[1], 2);
	assert_int_equal(st.bytes[0], 64 + 100 + 1518);
	assert_int_equal(st.bytes[1], 260);
	assert_int_equal(st.busy_ns, 1627200 + 9600);
	assert_int_equal(st.now_ns, 1627200 + 9600);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(emu_p2p_medium_lateness(t->p)->count, 0);
}

static void test_ready_time(void **state)
{
	struct t *t = *state;
	struct fport *a = &t->port[0], *b = &t->port[1];

	/* A frame ready after the medium went idle starts when it is ready. */
	fp_queue(a, 64, 0);
	fp_queue(a, 64, 1000000);
	emu_medium_announce_tx(t->m, 0);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	assert_int_equal(b->nrx, 2);
	assert_int_equal(b->rx_t[0], 57600);
	assert_int_equal(b->rx_t[1], 1000000 + 57600);
}

static void test_announce_semantics(void **state)
{
	struct t *t = *state;
	struct fport *a = &t->port[0], *b = &t->port[1];
	struct emu_p2p_stats st;

	/* No announcement, no pull. */
	fp_queue(a, 64, 0);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	assert_int_equal(fp_pull_calls(a), 0);
	/* One announcement drains the port: pulls until tx_pull says no. */
	fp_queue(a, 64, 0);
	emu_medium_announce_tx(t->m, 0);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	assert_int_equal(b->nrx, 2);
	assert_int_equal(fp_pull_calls(a), 3);
	/* An announcement with nothing queued costs one empty pull. */
	emu_medium_announce_tx(t->m, 1);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	assert_int_equal(fp_pull_calls(b), 1);
	assert_int_equal(a->nrx, 0);
	/* Bad ports are refused or ignored. */
	assert_int_equal(emu_medium_attach(t->m, 2, &fp_ops, a), -EINVAL);
	assert_int_equal(emu_medium_attach(t->m, 0, &fp_ops, a), -EBUSY);
	emu_medium_announce_tx(t->m, 7);
	/* With the peer detached, frames are sent and counted as dropped. */
	emu_medium_detach(t->m, 1);
	fp_queue(a, 100, 0);
	emu_medium_announce_tx(t->m, 0);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	emu_p2p_medium_get_stats(t->p, &st);
	assert_int_equal(st.dropped, 1);
	assert_int_equal(st.frames[0], 3);
	assert_int_equal(a->done, 3);
}

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_realtime_deadlines(void **state)
{
	struct t *t = *state;
	struct fport *a = &t->port[0], *b = &t->port[1];
	uint64_t t0 = mono();

	for (int i = 0; i < 3; i++)
		fp_queue(a, 1518, t0);
	emu_medium_announce_tx(t->m, 0);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	assert_int_equal(b->nrx, 3);
	/* Absolute deadlines: back-to-back frames are exactly wire + gap apart,
	 * however late the thread woke up (docs/host.md §4). */
	assert_true(b->rx_t[0] >= t0 + wire(1518));
	assert_int_equal(b->rx_t[1] - b->rx_t[0], wire(1518) + 9600);
	assert_int_equal(b->rx_t[2] - b->rx_t[1], wire(1518) + 9600);
	/* Delivery never happens before the deadline. */
	assert_true(mono() >= b->rx_t[2]);
	assert_int_equal(emu_p2p_medium_lateness(t->p)->count, 3);
}

/* Two models over the medium: a frame sent by chunks on A comes out of B's chunks. */
static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t par(uint32_t w)
{
	return (__builtin_popcount(w & ~1u) % 2 == 0) ? (w | 1u) : (w & ~1u);
}

static void wreg(struct lan865x_emu *e, unsigned mms, unsigned addr, uint32_t v)
{
	uint8_t tx[12] = { 0 }, rx[12];

	put32(tx, par(1u << 29 | mms << 24 | addr << 8));
	put32(tx + 4, v);
	assert_int_equal(lan865x_emu_transfer(e, tx, rx, 12), 0);
}

static void test_two_models(void **state)
{
	struct t *t = *state;
	struct lan865x_emu_config cfg;
	struct lan865x_emu *e[2];
	uint8_t tx[2 * 68], rx[2 * 68];
	struct lan865x_emu_stats st;

	emu_medium_detach(t->m, 0);
	emu_medium_detach(t->m, 1);
	lan865x_emu_config_default(&cfg);
	cfg.realtime = false;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(lan865x_emu_new(&cfg, &e[i]), 0);
		assert_int_equal(lan865x_emu_attach(e[i], t->m, (unsigned)i), 0);
		wreg(e[i], 1, 0x00, 0x0C); /* NCR TXEN|RXEN */
		wreg(e[i], 1, 0x01, 0x00080010); /* NCFGR.CAF */
		wreg(e[i], 0, 0x04, 0x9006); /* SYNC | ZARFE */
	}
	/* A 100-byte frame (no FCS) from A in two chunks. */
	memset(tx, 0, sizeof(tx));
	put32(tx, par(1u << 31 | 1u << 21 | 1u << 20));
	put32(tx + 68, par(1u << 31 | 1u << 21 | 1u << 14 | 35u << 8));
	for (int i = 0; i < 100; i++)
		tx[(i < 64 ? 4 : 72 - 64) + i] = (uint8_t)(i + 1);
	assert_int_equal(lan865x_emu_transfer(e[0], tx, rx, sizeof(tx)), 0);
	assert_int_equal(emu_p2p_medium_wait_idle(t->p, WAIT_NS), 0);
	/* B holds 104 bytes (with FCS): two empty chunks read them. */
	memset(tx, 0, sizeof(tx));
	put32(tx, par(1u << 31));
	put32(tx + 68, par(1u << 31));
	assert_int_equal(lan865x_emu_transfer(e[1], tx, rx, sizeof(tx)), 0);
	assert_int_equal(rx[0], 1);
	assert_int_equal(rx[68 + 35], 100);
	assert_int_equal((rx[68 + 64 + 2] >> 6) & 1, 1); /* EV: footer bit 14 */
	assert_int_equal(rx[68 + 64 + 2] & 0x3F, 39); /* EBO = 104 - 64 - 1 */
	lan865x_emu_get_stats(e[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.tx_frames), 1);
	lan865x_emu_get_stats(e[1], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_delivered), 1);
	for (int i = 0; i < 2; i++)
		lan865x_emu_free(e[i]);
	for (int i = 0; i < 2; i++)
		assert_int_equal(emu_medium_attach(t->m, (unsigned)i, &fp_ops, &t->port[i]), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exchange_order_and_times, setup_virtual,
						teardown),
		cmocka_unit_test_setup_teardown(test_ready_time, setup_virtual, teardown),
		cmocka_unit_test_setup_teardown(test_announce_semantics, setup_virtual, teardown),
		cmocka_unit_test_setup_teardown(test_realtime_deadlines, setup_realtime, teardown),
		cmocka_unit_test_setup_teardown(test_two_models, setup_virtual, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
