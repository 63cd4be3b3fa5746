// SPDX-License-Identifier: MIT
/*
 * Known-answer tests for the TC6 wire codec: data headers, TX chunking and
 * footers (docs/style.md S10). Every expected word and byte below was
 * derived by hand from docs/tc6.md §2.1-§2.4 and is written as a literal
 * with its derivation: which fields are set, how many 1 bits the word has
 * without P, and the odd-parity bit P that makes the total odd
 * (docs/tc6.md §1.3). Nothing is computed with the code under test.
 *
 * Bit positions used here (docs/tc6.md §2.2, §2.3):
 *   data header:    DNC 31, SEQ 30, NORX 29, DV 21, SV 20, SWO 19:16, EV 14,
 *                   EBO 13:8, TSC 7:6, P 0
 *   data footer:    EXST 31, HDRB 30, SYNC 29, RCA 28:24, VS 23:22, DV 21,
 *                   SV 20, SWO 19:16, FD 15, EV 14, EBO 13:8, RTSA 7, RTSP 6,
 *                   TXC 5:1, P 0
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "ethdrv/compiler.h"
#include "drivers/oa_tc6_proto.h"

/* ---- docs/tc6.md §2.2, §2.4: data headers -------------------------------- */

static void test_data_header_empty(void **state)
{
	struct oa_tc6_data_hdr h = { 0 };

	/* DNC only: 1 one -> P=0 (MLIB sends exactly 80 00 00 00, docs/tc6.md §1.3). */
	assert_int_equal(oa_tc6_data_header(&h), 0x80000000);
	/* DNC + NORX (bit 29): 2 ones -> P=1. */
	h.norx = true;
	assert_int_equal(oa_tc6_data_header(&h), 0xA0000001);
}

static void test_data_header_fields(void **state)
{
	struct oa_tc6_data_hdr h = { .dv = true };

	/* DNC + DV: 2 ones -> P=1 (docs/tc6.md §1.3 example). */
	assert_int_equal(oa_tc6_data_header(&h), 0x80200001);
	/* DNC DV SV SWO=3 (0x00030000, 2 ones): 5 ones -> P=0. */
	h.sv = true;
	h.swo = 3;
	assert_int_equal(oa_tc6_data_header(&h), 0x80330000);
	/*
	 * DNC DV SV EV EBO=59 (0b111011 << 8 = 0x3B00, 5 ones) TSC=1 (bit 6):
	 * 1+1+1+1+5+1 = 10 ones -> P=1.
	 */
	h.swo = 0;
	h.ev = true;
	h.ebo = 59;
	h.tsc = 1;
	assert_int_equal(oa_tc6_data_header(&h), 0x80307B41);
	/* Same with NORX as well, TSC=0: 1+1+1+1+1+5 = 10 ones -> P=1. */
	h.tsc = 0;
	h.norx = true;
	assert_int_equal(oa_tc6_data_header(&h), 0xA0307B01);
}

static void test_tx_single_chunk_60(void **state)
{
	/* 60 B: one chunk, DV SV SWO=0 EV EBO=59 (0x3B00, 5 ones): 9 ones -> P=0. */
	assert_int_equal(oa_tc6_tx_chunks(60, 64), 1);
	assert_int_equal(oa_tc6_tx_chunk_header(60, 64, 0), 0x80307B00);
}

static void test_tx_1514(void **state)
{
	/* ceil(1514 / 64) = 24 chunks (23 * 64 = 1472 < 1514 <= 1536). */
	assert_int_equal(oa_tc6_tx_chunks(1514, 64), 24);
	/* First: DNC DV SV, 3 ones -> P=0. */
	assert_int_equal(oa_tc6_tx_chunk_header(1514, 64, 0), 0x80300000);
	/* Middle: DNC DV, 2 ones -> P=1. */
	assert_int_equal(oa_tc6_tx_chunk_header(1514, 64, 1), 0x80200001);
	assert_int_equal(oa_tc6_tx_chunk_header(1514, 64, 22), 0x80200001);
	/*
	 * Last: 1514 - 23*64 = 42 bytes -> EBO 41 = 0b101001 (3 ones) << 8 =
	 * 0x2900; DNC DV EV + 3 = 6 ones -> P=1.
	 */
	assert_int_equal(oa_tc6_tx_chunk_header(1514, 64, 23), 0x80206901);
}

static void test_tx_multiple_of_64(void **state)
{
	/* docs/tc6.md §2.4 classic bug: len/64 + 1 would give 2 chunks for 64 B. */
	assert_int_equal(oa_tc6_tx_chunks(64, 64), 1);
	/* DNC DV SV EV EBO=63 (0x3F00, 6 ones): 10 ones -> P=1. */
	assert_int_equal(oa_tc6_tx_chunk_header(64, 64, 0), 0x80307F01);
	/* 128 B: exactly 2 chunks. */
	assert_int_equal(oa_tc6_tx_chunks(128, 64), 2);
	assert_int_equal(oa_tc6_tx_chunk_header(128, 64, 0), 0x80300000);
	/* Last: DNC DV EV EBO=63: 1+1+1+6 = 9 ones -> P=0. */
	assert_int_equal(oa_tc6_tx_chunk_header(128, 64, 1), 0x80207F00);
	/* 65 B: 2 chunks, last EBO=0: DNC DV EV = 3 ones -> P=0. */
	assert_int_equal(oa_tc6_tx_chunks(65, 64), 2);
	assert_int_equal(oa_tc6_tx_chunk_header(65, 64, 1), 0x80204000);
	/* 1 B: DNC DV SV EV EBO=0: 4 ones -> P=1. */
	assert_int_equal(oa_tc6_tx_chunk_header(1, 64, 0), 0x80304001);
	assert_int_equal(oa_tc6_tx_chunks(0, 64), 0);
}

static void test_tx_32_byte_chunks(void **state)
{
	/* 1514 B in 32 B chunks: ceil = 48 (47*32 = 1504), last holds 10 B. */
	assert_int_equal(oa_tc6_tx_chunks(1514, 32), 48);
	assert_int_equal(oa_tc6_tx_chunk_header(1514, 32, 0), 0x80300000);
	/* EBO 9 = 0b001001 (2 ones) -> 0x0900; DNC DV EV + 2 = 5 ones -> P=0. */
	assert_int_equal(oa_tc6_tx_chunk_header(1514, 32, 47), 0x80204900);
	/* 60 B: 2 chunks, last 28 B -> EBO 27 = 0b011011 (4): 7 ones -> P=0. */
	assert_int_equal(oa_tc6_tx_chunks(60, 32), 2);
	assert_int_equal(oa_tc6_tx_chunk_header(60, 32, 1), 0x80205B00);
	/* 64 B: 2 chunks, last EBO 31 = 0b011111 (5): 8 ones -> P=1. */
	assert_int_equal(oa_tc6_tx_chunks(64, 32), 2);
	assert_int_equal(oa_tc6_tx_chunk_header(64, 32, 1), 0x80205F01);
	/* 32 B: one chunk, SV EV EBO 31: DNC DV SV EV + 5 = 9 -> P=0. */
	assert_int_equal(oa_tc6_tx_chunks(32, 32), 1);
	assert_int_equal(oa_tc6_tx_chunk_header(32, 32, 0), 0x80305F00);
}

/* ---- docs/tc6.md §2.3: footers ------------------------------------------- */

/* Decode @word, expecting success, and return the fields. */
static struct oa_tc6_footer kat_footer(uint32_t word)
{
	struct oa_tc6_footer f;

	memset(&f, 0x5A, sizeof(f));
	assert_int_equal(oa_tc6_footer_decode(word, &f), 0);
	return f;
}

static void test_footer_status_bits(void **state)
{
	struct oa_tc6_footer f;

	/* EXST only: 1 one -> P=0. */
	f = kat_footer(0x80000000);
	assert_true(f.exst);
	assert_false(f.hdrb || f.sync || f.dv || f.sv || f.fd || f.ev || f.rtsa);
	assert_int_equal(f.rca + f.txc + f.swo + f.ebo, 0);
	/* HDRB only: 1 one -> P=0. */
	f = kat_footer(0x40000000);
	assert_true(f.hdrb);
	assert_false(f.exst || f.sync || f.dv);
	/* SYNC only: 1 one -> P=0. */
	f = kat_footer(0x20000000);
	assert_true(f.sync);
	assert_false(f.exst || f.hdrb || f.dv);
	/* RCA=31: bits 28:24 = 0x1F000000, 5 ones -> P=0. */
	f = kat_footer(0x1F000000);
	assert_int_equal(f.rca, 31);
	assert_int_equal(f.txc, 0);
	/* TXC=31: bits 5:1 = 0x3E, 5 ones -> P=0. */
	f = kat_footer(0x0000003E);
	assert_int_equal(f.txc, 31);
	assert_int_equal(f.rca, 0);
	/* SYNC + RCA=1 (0x01000000) + TXC=31: 7 ones -> P=0. */
	f = kat_footer(0x2100003E);
	assert_true(f.sync);
	assert_int_equal(f.rca, 1);
	assert_int_equal(f.txc, 31);
	/* VS bits 23:22 only (ignored): 2 ones -> P=1. */
	f = kat_footer(0x00C00001);
	assert_false(f.dv || f.sv || f.exst || f.sync);
}

static void test_footer_frame_bits(void **state)
{
	struct oa_tc6_footer f;

	/*
	 * DV SV SWO=2 (0x00020000) FD EV EBO=41 (0x2900, 3 ones):
	 * 1+1+1+1+1+3 = 8 ones -> P=1.
	 */
	f = kat_footer(0x0032E901);
	assert_true(f.dv && f.sv && f.fd && f.ev);
	assert_int_equal(f.swo, 2);
	assert_int_equal(f.ebo, 41);
	assert_false(f.exst || f.hdrb || f.sync || f.rtsa);
	/* DV SV SWO=15 (4 ones): 6 ones -> P=1. */
	f = kat_footer(0x003F0001);
	assert_int_equal(f.swo, 15);
	assert_false(f.ev || f.fd);
	/* SYNC DV SV EV EBO=59 (5) TXC=5 (0x0A, 2): 11 ones -> P=0. */
	f = kat_footer(0x20307B0A);
	assert_true(f.sync && f.dv && f.sv && f.ev);
	assert_int_equal(f.swo, 0);
	assert_int_equal(f.ebo, 59);
	assert_int_equal(f.txc, 5);
	/* RTSA (bit 7): 1 one -> P=0. */
	f = kat_footer(0x00000080);
	assert_true(f.rtsa);
	/* RTSP (bit 6) alone, the timestamp's own parity: 1 one -> P=0. */
	f = kat_footer(0x00000040);
	assert_false(f.rtsa);
	assert_int_equal(f.txc, 0);
}

static void test_footer_bad_parity(void **state)
{
	struct oa_tc6_footer f;

	/* 0x20307B0A with P flipped: 12 ones. */
	assert_int_equal(oa_tc6_footer_decode(0x20307B0B, &f), -EPROTO);
	/* All zero (a dead MISO line): 0 ones. */
	assert_int_equal(oa_tc6_footer_decode(0x00000000, &f), -EPROTO);
	/* All ones (a MISO line stuck high): 32 ones. */
	assert_int_equal(oa_tc6_footer_decode(0xFFFFFFFF, &f), -EPROTO);
	/* EXST + P: 2 ones. */
	assert_int_equal(oa_tc6_footer_decode(0x80000001, &f), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_header_empty),
		cmocka_unit_test(test_data_header_fields),
		cmocka_unit_test(test_tx_single_chunk_60),
		cmocka_unit_test(test_tx_1514),
		cmocka_unit_test(test_tx_multiple_of_64),
		cmocka_unit_test(test_tx_32_byte_chunks),
		cmocka_unit_test(test_footer_status_bits),
		cmocka_unit_test(test_footer_frame_bits),
		cmocka_unit_test(test_footer_bad_parity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
