// SPDX-License-Identifier: MIT
/*
 * The TAP's write batch (tools/ethdrv/tap_batch.c) against a non-blocking
 * datagram socket pair, which takes a write whole as a TAP does and
 * refuses it with -EAGAIN when the peer's queue is full: every write ends
 * in one done() call, in order; what arrives is in order and is exactly
 * what done() called written; the bound flushes; io_uring forced off
 * writes the same frames the plain way. No root needed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "ethdrv/pkt.h"
#include "tap_batch.h"

#define FRAME_LEN 60u

struct rig {
	int sv[2]; /* sv[0]: the batch writes; sv[1]: the "kernel" reads */
	struct ethdrv_pkt_pool *pool;
	struct tap_batch b;
	unsigned added, written, dropped, calls;
	uint32_t next_seq; /* sequence number of the next frame added */
};

static void done(void *arg, unsigned frames, int err)
{
	struct rig *r = arg;

	r->calls++;
	if (err)
		r->dropped += frames;
	else
		r->written += frames;
}

/* Read what a 1-byte probe left and every frame; check order; their count. */
static unsigned drain(struct rig *r, uint32_t *last)
{
	uint8_t buf[2048];
	unsigned got = 0;
	ssize_t n;

	while ((n = recv(r->sv[1], buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		uint32_t seq;

		if (n == 1)
			continue; /* the RWF_NOWAIT probe of tap_batch_attach() */
		assert_int_equal(n, FRAME_LEN);
		memcpy(&seq, buf, sizeof(seq));
		if (*last != UINT32_MAX)
			assert_true(seq > *last); /* no frame overtakes an earlier one */
		*last = seq;
		got++;
	}
	return got;
}

static void add_frame(struct rig *r)
{
	struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(r->pool);

	assert_non_null(pkt);
	memset(pkt->data, 0xA5, FRAME_LEN);
	memcpy(pkt->data, &r->next_seq, sizeof(r->next_seq));
	r->next_seq++;
	pkt->len = FRAME_LEN;
	tap_batch_add_pkt(&r->b, NULL, pkt);
	r->added++;
}

static void rig_open(struct rig *r, const char *uring)
{
	int small = 4096;

	memset(r, 0, sizeof(*r));
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, r->sv), 0);
	assert_int_equal(setsockopt(r->sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)), 0);
	assert_int_equal(ethdrv_pkt_pool_new(512, &r->pool), 0);
	tap_batch_init(&r->b, done, r);
	tap_batch_attach(&r->b, r->sv[0]);
	if (!strcmp(uring, "off"))
		assert_int_equal(tap_batch_set(&r->b, "tap_uring", "off"), 0);
	else if (!r->b.uring_ok)
		skip(); /* io_uring unavailable here: the fallback tests cover this build */
	else if (!strcmp(uring, "nowait"))
		r->b.nowait = true; /* sockets take RWF_NOWAIT */
	else
		r->b.nowait = false; /* the linked chain, as for a fd without RWF_NOWAIT */
}

static void rig_close(struct rig *r)
{
	tap_batch_close(&r->b);
	close(r->sv[0]);
	close(r->sv[1]);
	ethdrv_pkt_pool_free(r->pool);
}

/* Batches of every size up to the bound, the peer reading between them: nothing lost. */
static void run_order(const char *uring)
{
	uint32_t last = UINT32_MAX;
	unsigned got = 0;
	struct rig r;

	rig_open(&r, uring);
	assert_int_equal(tap_batch_set(&r.b, "tap_batch", "8"), 0);
	for (unsigned round = 0; round < 200; round++) {
		for (unsigned i = 0; i < 1 + round % 8; i++)
			add_frame(&r);
		tap_batch_flush(&r.b);
		got += drain(&r, &last);
	}
	assert_int_equal(r.dropped, 0);
	assert_int_equal(r.written, r.added);
	assert_int_equal(got, r.added);
	assert_int_equal(r.calls, r.added);
	if (!strcmp(uring, "off")) {
		assert_int_equal(ethdrv_counter_get(&r.b.st.tap_tx_plain_writes), r.added);
		assert_int_equal(ethdrv_counter_get(&r.b.st.tap_tx_uring_writes), 0);
	} else {
		assert_int_equal(ethdrv_counter_get(&r.b.st.tap_tx_uring_writes), r.added);
		assert_true(ethdrv_counter_get(&r.b.st.tap_tx_submits) >= 200);
	}
	rig_close(&r);
}

/* The peer reads only now and then: writes are refused (-EAGAIN), each
 * counted as dropped, what arrives still in order, the books balance. */
static void run_full(const char *uring)
{
	uint32_t last = UINT32_MAX;
	unsigned got = 0;
	struct rig r;

	rig_open(&r, uring);
	for (unsigned round = 0; round < 50; round++) {
		for (unsigned i = 0; i < TAP_BATCH_MAX; i++)
			add_frame(&r);
		tap_batch_flush(&r.b);
		if (round % 3 == 2)
			got += drain(&r, &last);
	}
	tap_batch_close(&r.b);
	got += drain(&r, &last);
	assert_true(r.dropped > 0); /* the load did fill the peer */
	assert_int_equal(r.written + r.dropped, r.added);
	assert_int_equal(got, r.written);
	if (!strcmp(uring, "linked"))
		assert_true(ethdrv_counter_get(&r.b.st.tap_tx_relinked) > 0);
	close(r.sv[0]);
	close(r.sv[1]);
	ethdrv_pkt_pool_free(r.pool);
}

static void test_order_plain(void **state)
{
	(void)state;
	run_order("off");
}

static void test_order_nowait(void **state)
{
	(void)state;
	run_order("nowait");
}

static void test_order_linked(void **state)
{
	(void)state;
	run_order("linked");
}

static void test_full_plain(void **state)
{
	(void)state;
	run_full("off");
}

static void test_full_nowait(void **state)
{
	(void)state;
	run_full("nowait");
}

static void test_full_linked(void **state)
{
	(void)state;
	run_full("linked");
}

/* The bound: the limit-th write flushes the batch without being asked. */
static void test_bound(void **state)
{
	struct rig r;

	(void)state;
	rig_open(&r, "off");
	assert_int_equal(tap_batch_set(&r.b, "tap_batch", "4"), 0);
	for (unsigned i = 0; i < 3; i++)
		add_frame(&r);
	assert_int_equal(r.calls, 0);
	add_frame(&r);
	assert_int_equal(r.calls, 4);
	assert_int_equal(r.b.count, 0);
	rig_close(&r);
}

static void test_knobs(void **state)
{
	char buf[16];
	struct rig r;

	(void)state;
	rig_open(&r, "off");
	assert_int_equal(tap_batch_set(&r.b, "tap_batch", "0"), -EINVAL);
	assert_int_equal(tap_batch_set(&r.b, "tap_batch", "65"), -EINVAL);
	assert_int_equal(tap_batch_set(&r.b, "tap_batch", "8x"), -EINVAL);
	assert_int_equal(tap_batch_set(&r.b, "tap_uring", "maybe"), -EINVAL);
	assert_int_equal(tap_batch_set(&r.b, "tap_other", "1"), -ENOENT);
	assert_int_equal(tap_batch_get(&r.b, "tap_uring", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "off");
	assert_int_equal(tap_batch_set(&r.b, "tap_batch", "16"), 0);
	assert_int_equal(tap_batch_get(&r.b, "tap_batch", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "16");
	assert_int_equal(tap_batch_set(&r.b, "tap_uring", "on"), r.b.uring_ok ? 0 : -EOPNOTSUPP);
	rig_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_plain),  cmocka_unit_test(test_order_nowait),
		cmocka_unit_test(test_order_linked), cmocka_unit_test(test_full_plain),
		cmocka_unit_test(test_full_nowait),  cmocka_unit_test(test_full_linked),
		cmocka_unit_test(test_bound),	     cmocka_unit_test(test_knobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
