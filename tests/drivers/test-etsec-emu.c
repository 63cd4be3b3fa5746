// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the eTSEC model from docs/etsec.md alone (constants
 * in tests/helpers/etsec_kat.h): reset values, write-1-to-clear, the three
 * lines, TX/RX descriptor bits on raw bytes big- and little-endian, halt
 * and restart, BSY, bad descriptors, graceful stop, coalescing after
 * exactly N frames or T ticks, line timing, MII management timing, RMON.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu/mdio_emu.h"
#include "etsec_kat.h"

/* ---- registers ---- */

static void test_reset_values(void **state)
{
	struct kat *k = *state;
	static const struct {
		uint32_t off, val;
	} want[] = {
		{ K_ID, 0x01240000 },
		{ K_ID2, 0x003000F0 },
		{ K_IEVENT, 0 },
		{ K_IMASK, 0 },
		{ K_ECNTRL, 0x40 },
		{ K_DMACTRL, 0 },
		{ K_TSTAT, 0 },
		{ K_TQUEUE, 0x8000 },
		{ K_RQUEUE, 0x00800080 },
		{ K_MACCFG1, 0 },
		{ K_MACCFG2, 0x7000 },
		{ K_IPGIFG, 0x40605060 },
		{ K_HAFDUP, 0x00A1F037 },
		{ K_MAXFRM, 0x600 },
		{ K_MIIMCFG, 7 },
		{ K_MIIMIND, 0 },
		{ K_CAM1, 0xFE03FFFF },
		{ K_CAM2, 0x000FFFFD },
		{ K_TR64, 0 },
		{ K_A002, 0 },
		{ K_TXIC, 0 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(rd(k, 0, want[i].off), want[i].val);
	/* Read-only: ID, MIIMIND. Unknown, unaligned, outside: 0, counted. */
	wr(k, 0, K_ID, 0);
	assert_int_equal(rd(k, 0, K_ID), 0x01240000);
	assert_int_equal(rd(k, 0, 0x0FFC), 0);
	assert_int_equal(rd(k, 0, 0x1000), 0);
	assert_int_equal(rd(k, 0, K_MACCFG2 + 1), 0);
	/* Ring bases drop the low 3 bits and copy into the pointers (docs/etsec.md §3.4). */
	wr(k, 0, K_TBASE0, K_TBASE + 7);
	assert_int_equal(rd(k, 0, K_TBASE0), K_TBASE);
	assert_int_equal(rd(k, 0, K_TBPTR0), K_TBASE);
	/* SOFT_RESET is held until cleared (docs/etsec.md §4.1). */
	wr(k, 0, K_MACCFG1, K_SOFT_RESET);
	assert_int_equal(rd(k, 0, K_MACCFG1), K_SOFT_RESET);
	wr(k, 0, K_MACCFG1, 0);
	assert_int_equal(rd(k, 0, K_MACCFG1), 0);
	{
		struct etsec_emu_stats st;

		etsec_emu_get_stats(k->emu[0], &st);
		assert_int_equal(ethdrv_counter_get(&st.bad_accesses), 3);
		assert_int_equal(ethdrv_counter_get(&st.soft_resets), 1);
	}
}

static void test_ievent_w1c_and_lines(void **state)
{
	struct kat *k = *state;

	/* A graceful stop raises GRSC and GTSC with no traffic, no link (docs/etsec.md §4.4). */
	wr(k, 0, K_DMACTRL, K_GRS | K_GTS);
	assert_int_equal(rd(k, 0, K_IEVENT), K_EV_GRSC | K_EV_GTSC);
	/* Set whatever IMASK says; the ER line only once unmasked (docs/etsec.md §2). */
	assert_false(irq_readable(k, 0, ETSEC_IRQ_ER));
	wr(k, 0, K_IMASK, K_EV_GRSC);
	assert_true(irq_readable(k, 0, ETSEC_IRQ_ER));
	assert_false(irq_readable(k, 0, ETSEC_IRQ_TX));
	assert_false(irq_readable(k, 0, ETSEC_IRQ_RX));
	/* Writing 0 or other bits leaves it; 1 clears (W1C). */
	wr(k, 0, K_IEVENT, 0);
	wr(k, 0, K_IEVENT, K_EV_RXF);
	assert_int_equal(rd(k, 0, K_IEVENT), K_EV_GRSC | K_EV_GTSC);
	wr(k, 0, K_IEVENT, K_EV_GRSC);
	assert_int_equal(rd(k, 0, K_IEVENT), K_EV_GTSC);
	assert_false(irq_readable(k, 0, ETSEC_IRQ_ER));
	/* CAR1 is W1C too (docs/etsec.md §7). */
	wr(k, 0, K_CAR1, 0xFFFFFFFF);
	assert_int_equal(rd(k, 0, K_CAR1), 0);
	assert_int_equal(etsec_emu_inject(k->emu[0], EMU_FAULT_RX_EXHAUST, 0), -EINVAL);
}

/* ---- TX and RX on raw descriptor bytes ---- */

static void tx_rx_bits(struct kat *k, int le)
{
	uint8_t *tbd = mem(k, 0, K_TBASE), *rbd = mem(k, 1, K_RBASE);
	uint64_t t0;

	kat_macs_up(k, 2, le);
	wr(k, 0, K_IMASK, K_EV_TXF);
	wr(k, 1, K_IMASK, K_EV_RXF);
	/* A 42-byte frame, padded and CRC'd: 64 bytes on the wire (docs/etsec.md §3.2). */
	kat_tx(k, 0, 0, 42, K_TX_PADCRC | K_TX_TC | K_TX_I | K_TX_L, le);
	assert_int_equal(bd_st(tbd, le), K_TX_R | K_TX_PADCRC | K_TX_TC | K_TX_I | K_TX_L);
	t0 = kat_now(k);
	wr(k, 0, K_TSTAT, K_THLT0);
	/* The walk met BD 1 with R = 0: halted again at once (docs/etsec.md §3.4). */
	assert_int_equal(rd(k, 0, K_TSTAT), K_THLT0);
	assert_int_equal(rd(k, 0, K_TBPTR0), K_TBASE + 8);
	/* preamble 8 + 64 bytes at 8 ns: the frame ends at t0 + 576 ns. */
	kat_run_until(k, t0 + 575);
	assert_int_equal(bd_st(tbd, le) & K_TX_R, K_TX_R);
	assert_int_equal(kat_delivered(k, 1), 0);
	kat_run_until(k, t0 + 576);
	assert_int_equal(bd_st(tbd, le), K_TX_PADCRC | K_TX_TC | K_TX_I | K_TX_L);
	assert_int_equal(rd(k, 0, K_IEVENT), K_EV_TXF);
	assert_true(irq_readable(k, 0, ETSEC_IRQ_TX));
	assert_false(irq_readable(k, 0, ETSEC_IRQ_RX));
	/* Received: F|L, length incl. FCS, BC, I kept; RXF, RSTAT[RXF0] (docs/etsec.md §3.3). */
	assert_int_equal(kat_delivered(k, 1), 1);
	assert_int_equal(bd_st(rbd, le), K_RX_I | K_RX_F | K_RX_L | K_RX_BC);
	assert_int_equal(bd_len(rbd, le), 64);
	assert_memory_equal(mem(k, 1, K_BUF(64)), mem(k, 0, K_BUF(0)), 42);
	assert_int_equal(mem(k, 1, K_BUF(64))[50], 0); /* padding */
	assert_int_equal(rd(k, 1, K_IEVENT), K_EV_RXF);
	assert_int_equal(rd(k, 1, K_RSTAT), K_RXF0);
	assert_true(irq_readable(k, 1, ETSEC_IRQ_RX));
	wr(k, 1, K_RSTAT, K_RXF0);
	assert_int_equal(rd(k, 1, K_RSTAT), 0);
	/* RMON: one 64-byte frame each way (docs/etsec.md §7). */
	assert_int_equal(rd(k, 0, K_TR64), 1);
	assert_int_equal(rd(k, 0, K_TPKT), 1);
	assert_int_equal(rd(k, 0, K_TBYT), 64);
	assert_int_equal(rd(k, 1, K_RPKT), 1);
	assert_int_equal(rd(k, 1, K_RBYT), 64);
}

static void test_tx_rx_big_endian(void **state)
{
	tx_rx_bits(*state, 0);
}

static void test_tx_rx_little_endian(void **state)
{
	tx_rx_bits(*state, 1);
}

/* Known bytes: a big-endian RX BD after one 64-byte frame is 8C 80 00 40. */
static void test_raw_bytes(void **state)
{
	struct kat *k = *state;
	uint8_t *r = mem(k, 1, K_RBASE);

	kat_macs_up(k, 2, 0);
	assert_int_equal(r[0], 0x90); /* E|I as written by kat_macs_up */
	kat_tx(k, 0, 0, 60, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 1000);
	assert_int_equal(r[0], 0x1C); /* I|L|F */
	assert_int_equal(r[1], 0x80); /* BC */
	assert_int_equal(r[2], 0x00);
	assert_int_equal(r[3], 0x40); /* 64 */
	/* No I: no TXF, no RXF. */
	assert_int_equal(rd(k, 0, K_IEVENT), 0);
	/* Little-endian: the same BD with bytes swapped per field. */
	r = mem(k, 1, K_RBASE + 8);
	wr(k, 1, K_DMACTRL, 0xC3 | K_LE);
	bd_raw(r, K_RX_E | K_RX_W, 0, K_BUF(65), 1);
	assert_int_equal(r[1], 0xA0);
	kat_tx(k, 0, 1, 60, K_TX_TC | K_TX_L | K_TX_W, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 1000);
	assert_int_equal(r[0], 0x80);
	assert_int_equal(r[1], 0x2C); /* W|L|F */
	assert_int_equal(r[2], 0x40);
	assert_int_equal(r[3], 0x00);
}

static void test_rx_multi_bd_bsy_restart(void **state)
{
	struct kat *k = *state;
	uint8_t *r = mem(k, 1, K_RBASE);

	kat_macs_up(k, 3, 0);
	wr(k, 1, K_MRBLR, 512);
	/* 1200 + 4 bytes in 512-byte buffers: 3 BDs, the last holds the total (docs/etsec.md §3.5). */
	kat_tx(k, 0, 0, 1200, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 20000);
	assert_int_equal(bd_st(r, 0), K_RX_I | K_RX_F);
	assert_int_equal(bd_len(r, 0), 512);
	assert_int_equal(bd_st(r + 8, 0), K_RX_I);
	assert_int_equal(bd_st(r + 16, 0), K_RX_I | K_RX_W | K_RX_L | K_RX_BC);
	assert_int_equal(bd_len(r + 16, 0), 1204);
	assert_int_equal(rd(k, 1, K_IEVENT), K_EV_RXB | K_EV_RXF);
	/* No empty BD: discarded, BSY, RDRP, QHLT0 (docs/etsec.md §3.4). */
	kat_tx(k, 0, 1, 60, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 2000);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_BSY, K_EV_BSY);
	assert_int_equal(rd(k, 1, K_RSTAT) & K_QHLT0, K_QHLT0);
	assert_int_equal(rd(k, 1, K_RDRP), 1);
	/* Give BDs back: still halted, the next frame is discarded too. */
	for (unsigned i = 0; i < 3; i++)
		bd_raw(r + 8 * i, (uint16_t)(K_RX_E | (i == 2 ? K_RX_W : 0)), 0, K_BUF(64 + i), 0);
	kat_tx(k, 0, 2, 60, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 2000);
	assert_int_equal(rd(k, 1, K_RDRP), 2);
	/* A QHLT0 write restarts the ring at RBPTR (BD 0 after the wrap). */
	wr(k, 1, K_RSTAT, K_QHLT0);
	assert_int_equal(rd(k, 1, K_RBPTR0), K_RBASE);
	kat_tx(k, 0, 3, 60, K_TX_TC | K_TX_L | K_TX_W, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 2000);
	assert_int_equal(bd_st(r, 0), K_RX_F | K_RX_L | K_RX_BC);
	assert_int_equal(rd(k, 1, K_RDRP), 2);
}

static void test_rx_cut_and_errors(void **state)
{
	struct kat *k = *state;
	uint8_t *r = mem(k, 1, K_RBASE);

	kat_macs_up(k, 2, 0);
	wr(k, 1, K_MRBLR, 256);
	bd_raw(r + 8, 0, 0, K_BUF(65), 0); /* BD 1 not empty */
	kat_tx(k, 0, 0, 600, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 10000);
	/* Out of BDs part-way: the last written BD gets L|OV; BSY, QHLT0 (docs/etsec.md §11). */
	assert_int_equal(bd_st(r, 0), K_RX_I | K_RX_F | K_RX_L | K_RX_OV);
	assert_int_equal(rd(k, 1, K_RSTAT) & K_QHLT0, K_QHLT0);
	/* Over MAXFRM: LG and BABR; a bad FCS (TC off, raw bytes): CR (docs/etsec.md §3.3). */
	bd_raw(r, K_RX_E, 0, K_BUF(64), 0);
	bd_raw(r + 8, K_RX_E | K_RX_W, 0, K_BUF(65), 0);
	wr(k, 1, K_RBASE0, K_RBASE); /* rewind: RBPTR stayed at the busy BD */
	wr(k, 1, K_RSTAT, K_QHLT0);
	wr(k, 1, K_MRBLR, 1536);
	wr(k, 1, K_MAXFRM, 100);
	wr(k, 1, K_IEVENT, 0xFFFFFFFF);
	kat_tx(k, 0, 1, 200, K_TX_TC | K_TX_L, 0);
	/* No TC and MACCFG2 without PAD/CRC|CRCEN: the last 4 bytes are the "FCS". */
	kat_tx(k, 0, 2, 64, K_TX_L | K_TX_W, 0);
	wr(k, 0, K_MACCFG2, K_MACCFG2_GMII & ~0x6u);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 10000);
	assert_int_equal(bd_st(r, 0), K_RX_F | K_RX_L | K_RX_BC | K_RX_LG);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_BABR, K_EV_BABR);
	assert_int_equal(bd_st(r + 8, 0), K_RX_W | K_RX_F | K_RX_L | K_RX_BC | K_RX_CR);
	assert_int_equal(bd_len(r + 8, 0), 64);
}

static void test_tx_halts_and_bad_bd(void **state)
{
	struct kat *k = *state;
	uint8_t *t = mem(k, 0, K_TBASE);

	kat_macs_up(k, 4, 0);
	/* A frame whose second BD is not ready: XFUN, halted (docs/etsec.md §3.4). */
	kat_tx(k, 0, 0, 30, K_TX_TC, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	assert_int_equal(rd(k, 0, K_IEVENT), K_EV_XFUN);
	assert_int_equal(rd(k, 0, K_TSTAT), K_THLT0);
	/* Completing it and writing THLT0 sends it as one 60+4 byte frame. */
	kat_tx(k, 0, 1, 30, K_TX_TC | K_TX_L | K_TX_I, 0);
	memcpy(mem(k, 0, K_BUF(0)) + 0, mem(k, 0, K_BUF(1)), 14);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 2000);
	assert_int_equal(kat_delivered(k, 1), 1);
	assert_int_equal(bd_st(t, 0) & K_TX_R, 0);
	assert_int_equal(bd_st(t + 8, 0) & K_TX_R, 0);
	/* A ready BD of length 0: TXE and halt. */
	bd_raw(t + 16, K_TX_R | K_TX_L, 0, K_BUF(2), 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_TXE, K_EV_TXE);
	/* A buffer outside the DMA region: EBERR, halted, nothing sent. */
	wr(k, 0, K_TBASE0, K_TBASE);
	bd_raw(t, K_TX_R | K_TX_L | K_TX_TC, 60, 0x10000000u, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 2000);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_EBERR, K_EV_EBERR);
	assert_int_equal(rd(k, 0, K_TSTAT), K_THLT0);
	assert_int_equal(kat_delivered(k, 1), 1);
	/* An RX ring outside the region: EBERR on the receiver. */
	wr(k, 1, K_RBASE0, 0x20000000u);
	kat_tx(k, 0, 0, 60, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TBASE0, K_TBASE);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 2000);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_EBERR, K_EV_EBERR);
	assert_int_equal(rd(k, 1, K_RSTAT) & K_QHLT0, K_QHLT0);
}

static void test_graceful_stop_in_flight(void **state)
{
	struct kat *k = *state;
	uint64_t t0;

	kat_macs_up(k, 4, 0);
	kat_tx(k, 0, 0, 1000, K_TX_TC | K_TX_L, 0);
	kat_tx(k, 0, 1, 1000, K_TX_TC | K_TX_L, 0);
	t0 = kat_now(k);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 100);
	/* GTS while frame 0 is on the wire: GTSC when it ends; frame 1 stays ready. */
	wr(k, 0, K_DMACTRL, 0xC3 | K_GTS);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_GTSC, 0);
	kat_run_until(k, t0 + (8 + 1004) * 8);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_GTSC, K_EV_GTSC);
	kat_advance(k, 50000);
	assert_int_equal(kat_delivered(k, 1), 1);
	assert_int_equal(bd_st(mem(k, 0, K_TBASE + 8), 0) & K_TX_R, K_TX_R);
	/* Clearing GTS and writing THLT0 resumes the ring (docs/etsec.md §4.4). */
	wr(k, 0, K_DMACTRL, 0xC3);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 50000);
	assert_int_equal(kat_delivered(k, 1), 2);
}

/* ---- timing and coalescing ---- */

static void test_line_timing_100(void **state)
{
	struct kat *k = *state;
	uint64_t t0;

	kat_macs_up(k, 4, 0);
	for (unsigned n = 0; n < 2; n++) {
		wr(k, n, K_MACCFG2, K_MACCFG2_MII100);
		wr(k, n, K_ECNTRL, K_STEN | K_R100M);
	}
	kat_tx(k, 0, 0, 1514, K_TX_TC | K_TX_L | K_TX_I, 0);
	kat_tx(k, 0, 1, 1514, K_TX_TC | K_TX_L | K_TX_I, 0);
	t0 = kat_now(k);
	wr(k, 0, K_TSTAT, K_THLT0);
	/* 80 ns/byte: frame 0 ends at 8 + 1518 bytes, frame 1 a 12-byte gap later. */
	kat_run_until(k, t0 + (8 + 1518) * 80 - 1);
	assert_int_equal(kat_delivered(k, 1), 0);
	kat_run_until(k, t0 + (8 + 1518) * 80);
	assert_int_equal(kat_delivered(k, 1), 1);
	kat_run_until(k, t0 + (2 * (8 + 1518) + 12) * 80 - 1);
	assert_int_equal(kat_delivered(k, 1), 1);
	kat_run_until(k, t0 + (2 * (8 + 1518) + 12) * 80);
	assert_int_equal(kat_delivered(k, 1), 2);
}

static void send_n(struct kat *k, unsigned first, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		kat_tx(k, 0, first + i, 60, K_TX_TC | K_TX_L | K_TX_I, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
}

static void test_coalescing_frames(void **state)
{
	struct kat *k = *state;

	kat_macs_up(k, 16, 0);
	/* RX: 4 frames, no timer; TX: 3 frames (docs/etsec.md §6). */
	wr(k, 1, K_RXIC, K_IC(4, 0));
	wr(k, 0, K_TXIC, K_IC(3, 0));
	send_n(k, 0, 2);
	kat_advance(k, 100000);
	assert_int_equal(kat_delivered(k, 1), 2);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, 0);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_TXF, 0);
	send_n(k, 2, 1);
	kat_advance(k, 100000);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_TXF, K_EV_TXF);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, 0);
	send_n(k, 3, 1);
	kat_advance(k, 100000);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, K_EV_RXF);
	/* Rewriting the register resets the count: 3 more are not enough. */
	wr(k, 1, K_IEVENT, K_EV_RXF);
	send_n(k, 4, 1);
	kat_advance(k, 100000);
	wr(k, 1, K_RXIC, K_IC(4, 0));
	send_n(k, 5, 3);
	kat_advance(k, 100000);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, 0);
	/* ICEN off with frames pending raises the event. */
	wr(k, 1, K_RXIC, 0);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, K_EV_RXF);
}

static void test_coalescing_timer(void **state)
{
	struct kat *k = *state;
	uint64_t t_end;

	kat_macs_up(k, 16, 0);
	/* 100 ticks x 512 ns after the first frame, 200 frames never reached. */
	wr(k, 1, K_RXIC, K_IC(200, 100));
	send_n(k, 0, 1);
	t_end = kat_now(k) + (8 + 64) * 8;
	kat_run_until(k, t_end + 100 * 512 - 1);
	assert_int_equal(kat_delivered(k, 1), 1);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, 0);
	kat_run_until(k, t_end + 100 * 512);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, K_EV_RXF);
	{
		struct etsec_emu_stats st;

		etsec_emu_get_stats(k->emu[1], &st);
		assert_int_equal(ethdrv_counter_get(&st.coal_timer_fires), 1);
	}
}

/* At 100 Mb/s (nibble mode, R100M) the tick is 2.56 us (docs/etsec.md §6). */
static void test_coalescing_timer_100(void **state)
{
	struct kat *k = *state;
	uint64_t t_end;

	kat_macs_up(k, 16, 0);
	for (unsigned n = 0; n < 2; n++) {
		wr(k, n, K_MACCFG2, K_MACCFG2_MII100);
		wr(k, n, K_ECNTRL, K_STEN | K_R100M);
	}
	wr(k, 1, K_RXIC, K_IC(200, 100));
	send_n(k, 0, 1);
	t_end = kat_now(k) + (8 + 64) * 80;
	kat_run_until(k, t_end + 100 * 2560 - 1);
	assert_int_equal(kat_delivered(k, 1), 1);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, 0);
	kat_run_until(k, t_end + 100 * 2560);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_RXF, K_EV_RXF);
}

/* A MAC at another speed than the line's: nothing arrives (fdx_line.h). */
static void test_speed_mismatch(void **state)
{
	struct kat *k = *state;

	kat_macs_up(k, 4, 0);
	send_n(k, 0, 1);
	kat_advance(k, 100000);
	assert_int_equal(kat_delivered(k, 1), 0);
}

/* ---- RMON carry ---- */

static void test_rmon_carry(void **state)
{
	struct kat *k = *state;

	kat_macs_up(k, 1, 0);
	/* RDRP is 16 bits; an unmasked C1RDR (CAR1 bit 0) raises MSRO (docs/etsec.md §7). */
	wr(k, 1, K_RDRP, 0xFFFF);
	wr(k, 1, K_CAM1, 0xFFFFFFFE);
	kat_tx(k, 0, 0, 60, K_TX_TC | K_TX_L, 0);
	kat_tx(k, 0, 1, 60, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 10000);
	/* The first fills the only BD, the second is dropped. */
	assert_int_equal(rd(k, 1, K_RDRP), 0);
	assert_int_equal(rd(k, 1, K_CAR1), 1);
	assert_int_equal(rd(k, 1, K_IEVENT) & K_EV_MSRO, K_EV_MSRO);
	/* Without STEN nothing counts. */
	wr(k, 0, K_ECNTRL, 0);
	kat_tx(k, 0, 2, 60, K_TX_TC | K_TX_L, 0);
	wr(k, 0, K_TSTAT, K_THLT0);
	kat_advance(k, 10000);
	assert_int_equal(rd(k, 0, K_TPKT), 2);
}

/* ---- MII management ---- */

static int setup_phy(void **state)
{
	struct etsec_emu_config cfg;

	etsec_emu_config_default(&cfg);
	return kat_setup_cfg(state, &cfg);
}

static void test_miim_timing(void **state)
{
	struct kat *k = *state;
	uint64_t t0;

	/* ÷28 of 70 MHz = 2.5 MHz: 64 cycles = 25.6 us (docs/etsec.md §5, §11). */
	assert_int_equal(etsec_emu_miim_frame_ns(k->emu[0]), 25600);
	wr(k, 0, K_MIIMADD, (1 << 8) | 2); /* PHY 1, PHYSID1 */
	wr(k, 0, K_MIIMCOM, 0);
	t0 = kat_now(k);
	wr(k, 0, K_MIIMCOM, 1);
	assert_int_equal(rd(k, 0, K_MIIMIND), 5); /* BUSY | NOT_VALID */
	kat_run_until(k, t0 + 25599);
	assert_int_equal(rd(k, 0, K_MIIMIND), 5);
	kat_run_until(k, t0 + 25600);
	assert_int_equal(rd(k, 0, K_MIIMIND), 0);
	assert_int_equal(rd(k, 0, K_MIIMSTAT), 0x004D); /* AR8031 PHYSID1 */
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_MMRD, K_EV_MMRD);
	/* Writing READ again while it reads 1 starts nothing (the edge does). */
	wr(k, 0, K_MIIMCOM, 1);
	assert_int_equal(rd(k, 0, K_MIIMIND), 0);
	/* A write: BUSY for 12.8 us without preamble, then MMWR. */
	wr(k, 0, K_MIIMCFG, 0x10 | 7);
	wr(k, 0, K_MIIMADD, (1 << 8) | 0x0D);
	t0 = kat_now(k);
	wr(k, 0, K_MIIMCON, 0x0003);
	assert_int_equal(rd(k, 0, K_MIIMIND), 1);
	kat_run_until(k, t0 + 12800);
	assert_int_equal(rd(k, 0, K_MIIMIND), 0);
	assert_int_equal(rd(k, 0, K_IEVENT) & K_EV_MMWR, K_EV_MMWR);
	/* ÷4 at MIIMCFG 1: 64 x 4 / 70 MHz. */
	wr(k, 0, K_MIIMCFG, 1);
	assert_int_equal(etsec_emu_miim_frame_ns(k->emu[0]), 64ull * 4 * 1000000000 / 70000000);
	/* RESET_MGMT aborts a frame. */
	wr(k, 0, K_MIIMCOM, 0);
	wr(k, 0, K_MIIMCOM, 1);
	wr(k, 0, K_MIIMCFG, 0x80000007u);
	assert_int_equal(rd(k, 0, K_MIIMIND), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reset_values, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_ievent_w1c_and_lines, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_tx_rx_big_endian, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_tx_rx_little_endian, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_raw_bytes, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_rx_multi_bd_bsy_restart, kat_setup,
						kat_teardown),
		cmocka_unit_test_setup_teardown(test_rx_cut_and_errors, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_tx_halts_and_bad_bd, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_graceful_stop_in_flight, kat_setup,
						kat_teardown),
		cmocka_unit_test_setup_teardown(test_line_timing_100, kat_setup_100, kat_teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_timer_100, kat_setup_100,
						kat_teardown),
		cmocka_unit_test_setup_teardown(test_speed_mismatch, kat_setup_100, kat_teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_frames, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_timer, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_rmon_carry, kat_setup, kat_teardown),
		cmocka_unit_test_setup_teardown(test_miim_timing, setup_phy, kat_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
