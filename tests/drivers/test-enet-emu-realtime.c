// SPDX-License-Identifier: MIT
/*
 * The ENET model's known-answer tests in real time (CLOCK_MONOTONIC and the
 * line's engine thread, docs/enet.md §12), at 1000, 100 and 10 Mb/s: what
 * the virtual-clock KATs (test-enet-emu-timing.c, test-enet-emu-tx.c) pin
 * to the nanosecond must here happen never before its physical time (the
 * same formulas, from docs/enet.md alone) and always, within a generous
 * bound on a loaded machine: a frame's end, the TDAR-then-R poll within
 * 5000 reads, the ICCS=0 coalescing timer, the MIB counts, no GRA without
 * link. Accesses cost the model's default 100 ns of bus latency.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "enet_kat.h"

#define RT_BOUND_NS 2000000000ull /* 2 s: "always", on any machine */
#define POLL_MAX_READS 5000u

static int setup_rt(void **state, unsigned speed)
{
	return setup_full(state, speed, false, true, ETHDRV_ENET_SOC_IMX8M, true);
}

static int setup_rt_1g(void **state)
{
	return setup_rt(state, 1000);
}

static int setup_rt_100m(void **state)
{
	return setup_rt(state, 100);
}

static int setup_rt_10m(void **state)
{
	return setup_rt(state, 10);
}

/* Read EIR (which applies every event due) until @bit is set; its time. */
static uint64_t wait_eir(struct kat *k, unsigned n, uint32_t bit, uint64_t t0)
{
	while (!(rd(k, n, EIR) & bit))
		assert_true(now(k) - t0 < RT_BOUND_NS);
	return now(k);
}

/* Poll TX BD @i of MAC 0 until R clears; the time it was seen clear. */
static uint64_t wait_tx_done(struct kat *k, unsigned i, uint64_t t0)
{
	while (bd_status(k, 0, TX_RING, i) & TX_R) {
		rd(k, 0, EIR);
		assert_true(now(k) - t0 < RT_BOUND_NS);
	}
	return now(k);
}

static void test_rt_tx_timing(void **state)
{
	struct kat *k = *state;
	static const unsigned lens[] = { 60, 1514 };

	macs_up(k, 4, RCR_CRCFWD);
	for (unsigned j = 0; j < 2; j++) {
		uint64_t t0 = now(k), t1;
		unsigned a = tx(k, 0, lens[j]);

		t1 = wait_tx_done(k, a, t0);
		/* Never before the fetch and the frame's wire time. */
		assert_true(t1 - t0 >= first_end_ns(lens[j], k->byte_ns));
		wait_eir(k, 1, EV_RXF, t0);
		wr(k, 1, EIR, EV_RXF);
		assert_int_equal(bd_status(k, 1, RX_RING, j), RX_L);
		assert_int_equal(bd_len(k, 1, RX_RING, j), lens[j]);
	}
	assert_int_equal(rd(k, 0, T_PACKETS), 2);
	assert_int_equal(rd(k, 0, T_FRAME_OK), 2);
	assert_int_equal(rd(k, 1, R_FRAME_OK), 2);
	assert_int_equal(rd(k, 1, R_OCTETS), 64 + 1518);
}

/* U-Boot's send: TDAR, poll TDAR to 0, then R (docs/enet.md §3.4). */
static void test_rt_poll_tdar(void **state)
{
	struct kat *k = *state;
	unsigned reads = 0, a;
	uint64_t t0;

	macs_up(k, 4, RCR_CRCFWD);
	t0 = now(k);
	a = tx(k, 0, 60);
	while ((rd(k, 0, TDAR) & DAR) && reads < POLL_MAX_READS)
		reads++;
	assert_int_equal(rd(k, 0, TDAR), 0);
	while ((bd_status(k, 0, TX_RING, a) & TX_R) && reads < POLL_MAX_READS) {
		rd(k, 0, EIR);
		reads++;
	}
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
	assert_true(reads < POLL_MAX_READS);
	assert_true(now(k) - t0 >= first_end_ns(60, k->byte_ns));
}

/* ICCS=0: 195 units of 64 TX clocks (125/25/2.5 MHz, docs/enet.md §6, §12). */
static void test_rt_iccs0(void **state)
{
	struct kat *k = *state;
	uint64_t hz = k->byte_ns == 8 ? 125000000ull : 2000000000ull / k->byte_ns;
	uint64_t fire_ns = 195ull * 64 * 1000000000ull / hz, t0, t1;

	macs_up(k, 8, RCR_CRCFWD);
	wr(k, 1, RXIC0, IC_EN | IC_FT(200) | 195);
	t0 = now(k);
	tx(k, 0, 100);
	t1 = wait_eir(k, 1, EV_RXF, t0);
	assert_true(t1 - t0 >= first_end_ns(100, k->byte_ns) + fire_ns);
}

static void test_rt_gra_no_link(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;
	uint64_t t0;

	macs_up(k, 4, RCR_CRCFWD);
	fdx_line_set_link(k->line, false);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	t0 = now(k);
	while (now(k) - t0 < 1000000) /* 1 ms */
		assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.gra_no_link), 1);
	wr(k, 0, TCR, TCR_FDEN);
	fdx_line_set_link(k->line, true);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	wait_eir(k, 0, EV_GRA, now(k));
}

#define AT_SPEEDS(t) KAT_AT_SPEEDS(t, setup_rt_1g, setup_rt_100m, setup_rt_10m)

int main(void)
{
	const struct CMUnitTest tests[] = {
		AT_SPEEDS(test_rt_tx_timing),
		AT_SPEEDS(test_rt_poll_tdar),
		AT_SPEEDS(test_rt_iccs0),
		AT_SPEEDS(test_rt_gra_no_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
