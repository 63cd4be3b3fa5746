// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the ENET model in time, from docs/enet.md alone
 * (constants in tests/helpers/enet_kat.h), on a virtual clock: TX line
 * timing exact to the nanosecond (frame, preamble, gap) at 1000 and 100
 * Mb/s, an interrupt after exactly N frames or T us of coalescing, the MIB
 * counts, bit errors and link flaps on the line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "enet_kat.h"

/* ---- timing ---- */

static void check_tx_timing(struct kat *k, unsigned len, uint64_t byte_ns)
{
	uint64_t t0 = now(k), end1 = t0 + wire_ns(len, byte_ns);
	uint64_t end2 = end1 + 12 * byte_ns + wire_ns(len, byte_ns);
	unsigned a = tx(k, 0, len), b = tx(k, 0, len);

	/* Preamble+SFD, frame (padded to 60), FCS; then a 12-byte gap (TIPG). */
	advance_to(k, end1 - 1);
	assert_true(bd_status(k, 0, TX_RING, a) & TX_R);
	assert_true(bd_status(k, 1, RX_RING, k->rx_next[1] % k->rx_n) & RX_E);
	advance_to(k, end1);
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
	assert_false(bd_status(k, 1, RX_RING, k->rx_next[1] % k->rx_n) & RX_E);
	assert_int_equal(bd_len(k, 1, RX_RING, k->rx_next[1] % k->rx_n), len < 60 ? 60 : len);
	advance_to(k, end2 - 1);
	assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
	advance_to(k, end2);
	assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	for (unsigned i = 0; i < 2; i++)
		rx_arm(k, 1, k->rx_next[1]++ % k->rx_n);
	advance(k, 1000);
}

static void test_tx_timing_1g(void **state)
{
	struct kat *k = *state;

	macs_up(k, 4, RCR_CRCFWD);
	advance(k, 1000);
	check_tx_timing(k, 1514, 8); /* 12208 ns + 96 ns gap */
	check_tx_timing(k, 60, 8); /* 576 ns */
	check_tx_timing(k, 42, 8); /* padded to 60 */
	/* TIPG sets the gap in bytes. */
	wr(k, 0, TIPG, 20);
	{
		uint64_t t0 = now(k), end2 = t0 + 2 * wire_ns(100, 8) + 20 * 8;
		unsigned b;

		tx(k, 0, 100);
		b = tx(k, 0, 100);
		advance_to(k, end2 - 1);
		assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
		advance_to(k, end2);
		assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	}
}

static void test_tx_timing_100m(void **state)
{
	struct kat *k = *state;

	/* 100 Mb/s: ECR.SPEED clear, RMII_10T clear (docs/enet.md §4.1, docs/enet.md §4.2). */
	mac_up(k, 0, 4, RCR_CRCFWD, 0);
	mac_up(k, 1, 4, RCR_CRCFWD, 0);
	advance(k, 1000);
	check_tx_timing(k, 1514, 80); /* 122080 ns + 960 ns gap */
	check_tx_timing(k, 60, 80);
}

static void test_speed_mismatch(void **state)
{
	struct kat *k = *state;
	struct fdx_line_stats ls;

	/* A 1000 Mb/s line and a MAC set to 100: its frames are lost. */
	mac_up(k, 0, 4, RCR_CRCFWD, 0);
	mac_up(k, 1, 4, RCR_CRCFWD, ECR_SPEED);
	tx(k, 0, 100);
	advance(k, 100000);
	fdx_line_get_stats(k->line, &ls);
	assert_int_equal(ethdrv_counter_get(&ls.speed_mismatch), 1);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E);
}

/* ---- coalescing (docs/enet.md §6) ---- */

static void test_coalesce_frames(void **state)
{
	struct kat *k = *state;
	uint64_t end4;

	macs_up(k, 8, RCR_CRCFWD);
	/* ICFT 4 frames, a long timer: RXF exactly when the 4th frame is in. */
	wr(k, 1, RXIC0, IC_EN | IC_CS | IC_FT(4) | 0xFFFF);
	advance(k, 1000);
	end4 = now(k) + 4 * wire_ns(100, 8) + 3 * 96;
	for (unsigned i = 0; i < 4; i++)
		tx(k, 0, 100);
	advance_to(k, end4 - 1);
	assert_false(bd_status(k, 1, RX_RING, 2) & RX_E);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, end4);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
	/* TX side without coalescing: TXF per frame. */
	assert_int_equal(rd(k, 0, EIR) & EV_TXF, EV_TXF);
}

static void test_coalesce_timer(void **state)
{
	struct kat *k = *state;
	/* 100 us at 125 MHz in units of 64 clocks: ceil? the register counts 195 units:
	 * 195 * 64 / 125 MHz = 99.84 us. */
	uint32_t ictt = 195;
	uint64_t t_frame, t_fire;

	macs_up(k, 8, RCR_CRCFWD);
	wr(k, 1, RXIC0, IC_EN | IC_CS | IC_FT(200) | ictt);
	advance(k, 1000);
	t_frame = now(k) + wire_ns(100, 8);
	t_fire = t_frame + 99840;
	tx(k, 0, 100);
	advance_to(k, t_frame);
	assert_false(bd_status(k, 1, RX_RING, 0) & RX_E);
	advance_to(k, t_fire - 1);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, t_fire);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
	/* The timer starts at the first unsignalled frame, not at later ones. */
	wr(k, 1, EIR, EV_RXF);
	t_frame = now(k) + wire_ns(100, 8);
	tx(k, 0, 100);
	advance_to(k, t_frame + 50000);
	tx(k, 0, 100);
	advance_to(k, t_frame + 99840 - 1);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, t_frame + 99840);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
	/* ICCS=0 counts the 125 MHz GMII TX clock at 1000 Mb/s: the same here. */
	wr(k, 1, RXIC0, IC_EN | IC_FT(200) | ictt);
	wr(k, 1, EIR, EV_RXF);
	t_frame = now(k) + wire_ns(100, 8);
	tx(k, 0, 100);
	advance_to(k, t_frame + 99840 - 1);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, t_frame + 99840);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
}

/* ---- MIB (docs/enet.md §7) ---- */

static void test_mib(void **state)
{
	struct kat *k = *state;
	uint8_t bc[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

	macs_up(k, 8, RCR_CRCFWD);
	tx(k, 0, 60); /* 64 with FCS */
	tx(k, 0, 100); /* 104 */
	tx_to(k, 0, 1514, bc, 0); /* 1518 */
	advance(k, 100000);
	assert_int_equal(rd(k, 0, T_PACKETS), 3);
	assert_int_equal(rd(k, 0, T_BC), 1);
	assert_int_equal(rd(k, 0, T_OCTETS), 64 + 104 + 1518);
	assert_int_equal(rd(k, 0, T_FRAME_OK), 3);
	assert_int_equal(rd(k, 0, T_P64), 1);
	assert_int_equal(rd(k, 0, T_P65TO127), 1);
	assert_int_equal(rd(k, 0, T_P1024TO2047), 1);
	assert_int_equal(rd(k, 1, R_PACKETS), 3);
	assert_int_equal(rd(k, 1, R_OCTETS), 64 + 104 + 1518);
	assert_int_equal(rd(k, 1, R_FRAME_OK), 3);
	assert_int_equal(rd(k, 1, R_P64), 1);
	assert_int_equal(rd(k, 1, R_P1024TO2047), 1);
	/* MIB_DIS stops counting; counters are writable only while disabled. */
	wr(k, 0, T_PACKETS, 100);
	assert_int_equal(rd(k, 0, T_PACKETS), 3);
	wr(k, 0, MIBC, MIB_DIS);
	tx(k, 0, 60);
	advance(k, 10000);
	assert_int_equal(rd(k, 0, T_PACKETS), 3);
	wr(k, 0, T_PACKETS, 100);
	assert_int_equal(rd(k, 0, T_PACKETS), 100);
	wr(k, 0, MIBC, MIB_DIS | MIB_CLEAR);
	assert_int_equal(rd(k, 0, T_PACKETS), 0);
	assert_int_equal(rd(k, 0, T_OCTETS), 0);
	assert_int_equal(rd(k, 0, MIBC), 0xC0000000);
	/* Bit errors on the line: CR at the receiver, counted in R_CRC_ALIGN.
	 * Promiscuous, so that a flipped destination address is not filtered. */
	wr(k, 1, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD | RCR_PROM);
	assert_int_equal(fdx_line_set_ber(k->line, 0, 0.01), 0);
	for (unsigned i = 0; i < 4; i++)
		tx(k, 0, 1000);
	advance(k, 100000);
	assert_int_equal(rd(k, 1, R_CRC_ALIGN), 4); /* 8032 bits at 1e-2: all hit */
	assert_int_equal(rd(k, 1, R_CRC), 4);
}

static void test_link_flap(void **state)
{
	struct kat *k = *state;
	struct fdx_line_stats ls;

	macs_up(k, 4, RCR_CRCFWD);
	assert_int_equal(fdx_line_flap(k->line, 50000), 0);
	assert_false(fdx_line_link_up(k->line));
	tx(k, 0, 100);
	advance(k, 20000);
	fdx_line_get_stats(k->line, &ls);
	assert_int_equal(ethdrv_counter_get(&ls.lost_link_down), 1);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E);
	advance(k, 40000);
	assert_true(fdx_line_link_up(k->line));
	tx(k, 0, 100);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tx_timing_1g, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_timing_100m, setup_100, teardown),
		cmocka_unit_test_setup_teardown(test_speed_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalesce_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalesce_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mib, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_flap, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
