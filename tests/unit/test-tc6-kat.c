// SPDX-License-Identifier: MIT
/*
 * Known-answer tests for the TC6 wire codec (style.md S10). Every expected
 * word and byte below was derived by hand from TC6 facts §1-§2 and is
 * written as a literal with its derivation: which fields are set, how many
 * 1 bits the word has without P, and the odd-parity bit P that makes the
 * total odd (§1.3). Nothing is computed with the code under test.
 *
 * Bit positions used throughout (TC6 facts §1.2, §2.2, §2.3):
 *   control header: DNC 31, HDRB 30, WNR 29, AID 28, MMS 27:24, ADDR 23:8,
 *                   LEN 7:1, P 0
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

/* ---- §1.3 odd parity ------------------------------------------------- */

static void test_parity_known_words(void **state)
{
	/* §1.3 example: 0x80000000 has one 1 bit -> odd already, P=0. */
	assert_int_equal(oa_tc6_set_parity(0x80000000), 0x80000000);
	/* §1.3 example: DNC|DV = 0x80200000, two 1 bits -> P=1. */
	assert_int_equal(oa_tc6_set_parity(0x80200000), 0x80200001);
	/* 0: zero 1 bits -> P=1. */
	assert_int_equal(oa_tc6_set_parity(0x00000000), 0x00000001);
	/* 0xFFFFFFFE: 31 ones -> odd, P=0; an input P=1 is ignored. */
	assert_int_equal(oa_tc6_set_parity(0xFFFFFFFE), 0xFFFFFFFE);
	assert_int_equal(oa_tc6_set_parity(0xFFFFFFFF), 0xFFFFFFFE);
	/* 0x12345678: 1+1+2+1+2+2+3+1 = 13 ones, bit 0 is 0 -> P=0. */
	assert_int_equal(oa_tc6_set_parity(0x12345678), 0x12345678);
	/* 0xA5A5A5A4: A5 has 4 ones (x3 = 12), A4 = 1010 0100 has 3 -> 15, P=0. */
	assert_int_equal(oa_tc6_set_parity(0xA5A5A5A4), 0xA5A5A5A4);
	/* 0x00000002: one 1 bit -> P=0; 0x00000006: two -> P=1. */
	assert_int_equal(oa_tc6_set_parity(0x00000002), 0x00000002);
	assert_int_equal(oa_tc6_set_parity(0x00000006), 0x00000007);
}

static void test_parity_check(void **state)
{
	/* A received word is good iff its 32 bits hold an odd number of ones. */
	assert_true(oa_tc6_parity_ok(0x80000000)); /* 1 one */
	assert_true(oa_tc6_parity_ok(0x80200001)); /* 3 ones */
	assert_true(oa_tc6_parity_ok(0x00000001)); /* 1 one */
	assert_false(oa_tc6_parity_ok(0x00000000)); /* 0 ones */
	assert_false(oa_tc6_parity_ok(0x80200000)); /* 2 ones */
	assert_false(oa_tc6_parity_ok(0xFFFFFFFF)); /* 32 ones */
	assert_false(oa_tc6_parity_ok(0xA5A5A5A5)); /* 16 ones */
	assert_true(oa_tc6_parity_ok(0xA5A5A5A4)); /* 15 ones */
}

/* ---- §1.2 control headers ------------------------------------------- */

static void test_ctrl_header_read_idver(void **state)
{
	/* Read MMS0 0x0000, 1 register: WNR=0 MMS=0 ADDR=0 LEN=0; 0 ones -> P=1. */
	assert_int_equal(oa_tc6_ctrl_header(false, 0, 0x0000, 1), 0x00000001);
}

static void test_ctrl_header_read_config0(void **state)
{
	/* Read MMS0 0x0004: ADDR 0x0004 << 8 = 0x00000400 (bit 10); 1 one -> P=0. */
	assert_int_equal(oa_tc6_ctrl_header(false, 0, 0x0004, 1), 0x00000400);
}

static void test_ctrl_header_write_imask0(void **state)
{
	/*
	 * Write MMS0 0x000C: WNR 0x20000000 (1 one), ADDR 0x0C << 8 = 0x00000C00
	 * (bits 11,10: 2 ones); 3 ones -> P=0.
	 */
	assert_int_equal(oa_tc6_ctrl_header(true, 0, 0x000C, 1), 0x20000C00);
}

static void test_ctrl_header_write_config0(void **state)
{
	/* Write MMS0 0x0004: WNR (1) + ADDR bit 10 (1) = 2 ones -> P=1. */
	assert_int_equal(oa_tc6_ctrl_header(true, 0, 0x0004, 1), 0x20000401);
}

static void test_ctrl_header_128_regs(void **state)
{
	/*
	 * 128 registers: LEN = 127 = 0b1111111 in bits 7:1 -> 0xFE (7 ones).
	 * Write MMS0 0x0000: WNR (1) + 7 = 8 ones -> P=1.
	 */
	assert_int_equal(oa_tc6_ctrl_header(true, 0, 0x0000, 128), 0x200000FF);
	/* Read of the same: 7 ones -> P=0. */
	assert_int_equal(oa_tc6_ctrl_header(false, 0, 0x0000, 128), 0x000000FE);
	/* 2 registers: LEN=1 -> bit 1 = 0x02. Read MMS0 0x0008: bit 11 + bit 1 -> P=1. */
	assert_int_equal(oa_tc6_ctrl_header(false, 0, 0x0008, 2), 0x00000803);
}

static void test_ctrl_header_plca_ctrl1(void **state)
{
	/*
	 * MMS4 0xCA02 (PLCA CTRL1, §3.6): MMS 4 << 24 = 0x04000000 (1 one),
	 * ADDR 0xCA02 << 8 = 0x00CA0200: 0xCA = 1100 1010 (4) + 0x02 (1) = 5.
	 * Read: 6 ones -> P=1. Write: + WNR = 7 ones -> P=0.
	 */
	assert_int_equal(oa_tc6_ctrl_header(false, 4, 0xCA02, 1), 0x04CA0201);
	assert_int_equal(oa_tc6_ctrl_header(true, 4, 0xCA02, 1), 0x24CA0200);
}

static void test_ctrl_header_mms1(void **state)
{
	/*
	 * MMS1 0x0022: MMS 1 << 24 = 0x01000000 (1), ADDR 0x22 << 8 = 0x00002200
	 * (0x22 = 0010 0010: 2); read: 3 ones -> P=0.
	 */
	assert_int_equal(oa_tc6_ctrl_header(false, 1, 0x0022, 1), 0x01002200);
	/* MMS 15, ADDR 0xFFFF, read 1: 4 + 16 = 20 ones -> P=1. */
	assert_int_equal(oa_tc6_ctrl_header(false, 15, 0xFFFF, 1), 0x0FFFFF01);
}

static void test_ctrl_len(void **state)
{
	/* §1.4: 8 + 4N unprotected, 8 + 8N protected; §1.6: N in 1..128. */
	assert_int_equal(oa_tc6_ctrl_len(1, false), 12);
	assert_int_equal(oa_tc6_ctrl_len(1, true), 16);
	assert_int_equal(oa_tc6_ctrl_len(2, false), 16);
	assert_int_equal(oa_tc6_ctrl_len(2, true), 24);
	assert_int_equal(oa_tc6_ctrl_len(128, false), 520);
	assert_int_equal(oa_tc6_ctrl_len(128, true), 1032); /* Linux's buffer size */
	assert_int_equal(oa_tc6_ctrl_len(0, false), -EINVAL);
	assert_int_equal(oa_tc6_ctrl_len(129, true), -EINVAL);
	assert_int_equal(OA_TC6_CTRL_MAX_LEN, 1032);
}

/* ---- §1.4/§1.5 whole control transactions ------------------------------ */

static void test_ctrl_build_read_idver(void **state)
{
	/* Header 0x00000001 (above), then one don't-care word (0), then the trailer. */
	static const uint8_t want[12] = { 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0 };
	/* Protected: the header is not doubled; value + complement + trailer = 16. */
	static const uint8_t want_prot[16] = { 0x00, 0x00, 0x00, 0x01 };
	uint8_t buf[32];

	memset(buf, 0xAA, sizeof(buf));
	assert_int_equal(oa_tc6_ctrl_build(buf, sizeof(buf), false, 0, 0x0000, NULL, 1, false), 12);
	assert_memory_equal(buf, want, sizeof(want));
	memset(buf, 0xAA, sizeof(buf));
	assert_int_equal(oa_tc6_ctrl_build(buf, sizeof(buf), false, 0, 0x0000, NULL, 1, true), 16);
	assert_memory_equal(buf, want_prot, sizeof(want_prot));
	assert_int_equal(buf[16], 0xAA); /* nothing written past the transaction */
}

static void test_ctrl_build_write2(void **state)
{
	/*
	 * Write 2 registers at MMS0 0x0008: WNR + bit 11 + LEN=1 (bit 1) =
	 * 3 ones -> P=0 -> 0x20000802. Values 0x12345678, 0xDEADBEEF, big-endian.
	 * Complements: ~0x12345678 = 0xEDCBA987, ~0xDEADBEEF = 0x21524110.
	 */
	static const uint32_t vals[2] = { 0x12345678, 0xDEADBEEF };
	static const uint8_t want[16] = {
		0x20, 0x00, 0x08, 0x02, 0x12, 0x34, 0x56, 0x78,
		0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x00, 0x00, 0x00,
	};
	static const uint8_t want_prot[24] = {
		0x20, 0x00, 0x08, 0x02, 0x12, 0x34, 0x56, 0x78, 0xED, 0xCB, 0xA9, 0x87,
		0xDE, 0xAD, 0xBE, 0xEF, 0x21, 0x52, 0x41, 0x10, 0x00, 0x00, 0x00, 0x00,
	};
	uint8_t buf[24];

	assert_int_equal(oa_tc6_ctrl_build(buf, sizeof(buf), true, 0, 0x0008, vals, 2, false), 16);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(oa_tc6_ctrl_build(buf, sizeof(buf), true, 0, 0x0008, vals, 2, true), 24);
	assert_memory_equal(buf, want_prot, sizeof(want_prot));
}

static void test_ctrl_build_errors(void **state)
{
	uint32_t v = 0;
	uint8_t buf[16];

	assert_int_equal(oa_tc6_ctrl_build(buf, 15, true, 0, 0, &v, 1, true), -ENOSPC);
	assert_int_equal(oa_tc6_ctrl_build(buf, 11, false, 0, 0, NULL, 1, false), -ENOSPC);
	assert_int_equal(oa_tc6_ctrl_build(buf, 16, false, 16, 0, NULL, 1, false), -EINVAL);
	assert_int_equal(oa_tc6_ctrl_build(buf, 16, false, 0, 0x10000, NULL, 1, false), -EINVAL);
	assert_int_equal(oa_tc6_ctrl_build(buf, 16, false, 0, 0, NULL, 0, false), -EINVAL);
	assert_int_equal(oa_tc6_ctrl_build(buf, 16, true, 0, 0, NULL, 1, false), -EINVAL);
}

/* MOSI for a 1-register read of IDVER, written out (header 0x00000001). */
static const uint8_t kat_read_tx[12] = { 0x00, 0x00, 0x00, 0x01 };
static const uint8_t kat_read_tx_prot[16] = { 0x00, 0x00, 0x00, 0x01 };

static void test_ctrl_parse_read(void **state)
{
	/* §1.4: MISO = [ignored][echoed header][value]. IDVER 0x11 = v1.1. */
	uint8_t rx[12] = { 0xA5, 0x5A, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x11 };
	uint32_t v = 0;

	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx, rx, 12, false, &v), 0);
	assert_int_equal(v, 0x00000011);
	/* One flipped echo bit (bit 8 of the header): -EPROTO. */
	rx[6] ^= 0x01;
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx, rx, 12, false, &v), -EPROTO);
	rx[6] ^= 0x01;
	/* An echo with HDRB (bit 30) set, parity fixed: 0x40000000 | 0 -> 0x40000000. */
	rx[4] = 0x40;
	rx[7] = 0x00;
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx, rx, 12, false, &v), -EPROTO);
	/* HDRB set with the header's P kept: 0x40000001. */
	rx[7] = 0x01;
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx, rx, 12, false, &v), -EPROTO);
	/* Length that does not match the header's LEN (1 register = 12 bytes). */
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx, rx, 16, false, &v), -EINVAL);
}

static void test_ctrl_parse_read_protected(void **state)
{
	/* §1.5: MISO = [ignored][header][value][~value]; ~0x00000011 = 0xFFFFFFEE. */
	uint8_t rx[16] = { 0,	 0,    0,    0,	   0x00, 0x00, 0x00, 0x01,
			   0x00, 0x00, 0x00, 0x11, 0xFF, 0xFF, 0xFF, 0xEE };
	uint32_t v = 0;

	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx_prot, rx, 16, true, &v), 0);
	assert_int_equal(v, 0x00000011);
	/* Complement with one bit wrong (0xEE -> 0xEF): XOR is not all ones. */
	rx[15] = 0xEF;
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx_prot, rx, 16, true, &v), -EPROTO);
	/* Complement equal to the value (a stuck line): -EPROTO. */
	memcpy(rx + 12, rx + 8, 4);
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx_prot, rx, 16, true, &v), -EPROTO);
	/* Complement right but the echo flipped: -EPROTO. */
	rx[12] = 0xFF, rx[13] = 0xFF, rx[14] = 0xFF, rx[15] = 0xEE;
	rx[5] = 0x80;
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx_prot, rx, 16, true, &v), -EPROTO);
	/* A protected length for an unprotected parse: 16 != 12 -> -EINVAL. */
	assert_int_equal(oa_tc6_ctrl_parse(kat_read_tx_prot, rx, 16, false, &v), -EINVAL);
}

static void test_ctrl_parse_read_two(void **state)
{
	/* Read 2 at MMS0 0x0008: header 0x00000803 (see above); 16 bytes. */
	static const uint8_t tx[16] = { 0x00, 0x00, 0x08, 0x03 };
	static const uint8_t rx[16] = { 0,    0,    0,	  0,	0x00, 0x00, 0x08, 0x03,
					0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00 };
	uint32_t v[2] = { 0xFFFFFFFF, 0xFFFFFFFF };

	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 16, false, v), 0);
	assert_int_equal(v[0], 0x00000040); /* STATUS0.RESETC */
	assert_int_equal(v[1], 0x00000000);
}

static void test_ctrl_parse_write(void **state)
{
	/* MOSI of the 2-register write above; MISO is it delayed by one word. */
	static const uint8_t tx[16] = { 0x20, 0x00, 0x08, 0x02, 0x12, 0x34, 0x56, 0x78,
					0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x00, 0x00, 0x00 };
	uint8_t rx[16] = { 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x08, 0x02,
			   0x12, 0x34, 0x56, 0x78, 0xDE, 0xAD, 0xBE, 0xEF };

	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 16, false, NULL), 0);
	/* The second echoed value with its lowest bit flipped. */
	rx[15] ^= 0x01;
	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 16, false, NULL), -EPROTO);
	rx[15] ^= 0x01;
	/* Echo header with HDRB: 0x60000802 (4 ones -> real P would be 1). */
	rx[4] = 0x60;
	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 16, false, NULL), -EPROTO);
}

static void test_ctrl_parse_write_protected(void **state)
{
	static const uint8_t tx[24] = {
		0x20, 0x00, 0x08, 0x02, 0x12, 0x34, 0x56, 0x78, 0xED, 0xCB, 0xA9, 0x87,
		0xDE, 0xAD, 0xBE, 0xEF, 0x21, 0x52, 0x41, 0x10, 0x00, 0x00, 0x00, 0x00,
	};
	uint8_t rx[24] = {
		0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x08, 0x02, 0x12, 0x34, 0x56, 0x78,
		0xED, 0xCB, 0xA9, 0x87, 0xDE, 0xAD, 0xBE, 0xEF, 0x21, 0x52, 0x41, 0x10,
	};

	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 24, true, NULL), 0);
	/* §1.5: the LAN8650 echoes what it received; a bad complement echo fails. */
	rx[23] = 0x11;
	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 24, true, NULL), -EPROTO);
}

/* ---- §2.2/§2.4 data headers --------------------------------------------- */

static void test_data_header_empty(void **state)
{
	struct oa_tc6_data_hdr h = { 0 };

	/* DNC only: 1 one -> P=0 (MLIB sends exactly 80 00 00 00, §1.3). */
	assert_int_equal(oa_tc6_data_header(&h), 0x80000000);
	/* DNC + NORX (bit 29): 2 ones -> P=1. */
	h.norx = true;
	assert_int_equal(oa_tc6_data_header(&h), 0xA0000001);
}

static void test_data_header_fields(void **state)
{
	struct oa_tc6_data_hdr h = { .dv = true };

	/* DNC + DV: 2 ones -> P=1 (§1.3 example). */
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
	/* §2.4 classic bug: len/64 + 1 would give 2 chunks for 64 B. */
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

/* ---- §2.3 footers ------------------------------------------------------ */

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

/* ---- §2.4 RX reassembly ------------------------------------------------ */

/* Footer words for the reassembly tests (no SYNC, RCA 0, TXC 0). */
#define F_EMPTY 0x00000001 /* DV=0: 0 ones -> P=1 */
#define F_START 0x00300001 /* DV SV SWO=0: 2 ones -> P=1 */
#define F_START_W4 0x00340000 /* DV SV SWO=4 (byte 16): 3 ones -> P=0 */
#define F_MID 0x00200000 /* DV: 1 one -> P=0 */
#define F_MID_BAD 0x00200001 /* DV with the wrong P: 2 ones */
#define F_END9 0x00204901 /* DV EV EBO=9 (0b1001): 4 ones -> P=1 */
#define F_END41 0x00206900 /* DV EV EBO=41 (0b101001): 5 ones -> P=0 */
#define F_END63 0x00207F01 /* DV EV EBO=63 (0b111111): 8 ones -> P=1 */
#define F_END9_FD 0x0020C900 /* DV FD EV EBO=9: 5 ones -> P=0 */
/* DV SV SWO=1 EV EBO=20 (0b10100): 1+1+1+1+2 = 6 ones -> P=1: bytes 4..20. */
#define F_WHOLE_4_20 0x00315401
/* DV SV EV SWO=0 EBO=59 (5 ones): 8 ones -> P=1: a 60-byte frame. */
#define F_WHOLE_60 0x00307B01
/* DV SV SWO=2 EV EBO=5 (0b101): 6 ones -> P=1: end at byte 5, start at 8. */
#define F_END5_START8 0x00324501
/* The same with FD (bit 15): 7 ones -> P=0. */
#define F_END5_FD_START8 0x0032C500
/* 32-byte chunks: DV EV EBO=31 (0b011111): 7 ones -> P=0. */
#define F_END31 0x00205F00
/* DV SV EV EBO=31: 8 ones -> P=1. */
#define F_WHOLE_32 0x00305F01
/* DV SV SWO=8 (byte 32, outside a 32-byte payload): 3 ones -> P=0. */
#define F_START_W8 0x00380000
/* DV EV EBO=40 (0b101000, outside a 32-byte payload): 4 ones -> P=1. */
#define F_END40 0x00206801

#define KAT_MAX_FRAMES 4
#define KAT_FRAME_MAX 2048

/* Frames the reassembler emitted. */
struct kat_cap {
	unsigned n;
	size_t len[KAT_MAX_FRAMES];
	uint8_t data[KAT_MAX_FRAMES][KAT_FRAME_MAX];
};

static void kat_emit(void *arg, const uint8_t *frame, size_t len)
{
	struct kat_cap *c = arg;

	assert_true(c->n < KAT_MAX_FRAMES);
	assert_true(len <= KAT_FRAME_MAX);
	c->len[c->n] = len;
	memcpy(c->data[c->n], frame, len);
	c->n++;
}

/* Feed one chunk whose payload byte i is (uint8_t)(base + i), or all @base if @flat. */
static unsigned kat_feed_fill(struct oa_tc6_rx *rx, struct kat_cap *c, uint32_t ftr, unsigned base,
			      unsigned cps, bool flat)
{
	struct oa_tc6_footer f;
	uint8_t p[64];
	int ok;

	for (unsigned i = 0; i < cps; i++)
		p[i] = (uint8_t)(flat ? base : base + i);
	ok = oa_tc6_footer_decode(ftr, &f);
	return oa_tc6_rx_chunk(rx, p, cps, &f, ok == 0, kat_emit, c);
}

static unsigned kat_feed(struct oa_tc6_rx *rx, struct kat_cap *c, uint32_t ftr, unsigned base)
{
	return kat_feed_fill(rx, c, ftr, base, 64, false);
}

/* Frame @k is @len bytes counting up from @first. */
static void kat_check_frame(const struct kat_cap *c, unsigned k, size_t len, unsigned first)
{
	assert_true(k < c->n);
	assert_int_equal(c->len[k], len);
	for (size_t i = 0; i < len; i++)
		assert_int_equal(c->data[k][i], (uint8_t)(first + i));
}

static uint64_t kat_drops(const struct oa_tc6_rx *rx)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < OA_TC6_RX_DROP_NR; i++)
		sum += rx->drops[i];
	return sum;
}

struct kat_rx {
	struct oa_tc6_rx rx;
	struct kat_cap cap;
	uint8_t buf[1536 + 4];
};

static int kat_rx_setup(void **state)
{
	static struct kat_rx k;

	memset(&k, 0, sizeof(k));
	oa_tc6_rx_init(&k.rx, k.buf, sizeof(k.buf));
	*state = &k;
	return 0;
}

static void test_rx_start_middle_end(void **state)
{
	struct kat_rx *k = *state;

	/* SV at byte 0 (64 B) + middle (64 B) + EV at EBO 9 (10 B) = 138 B. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_START, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	assert_int_equal(k->cap.n, 1);
	kat_check_frame(&k->cap, 0, 138, 0);
	assert_int_equal(k->rx.frames, 1);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_start_offset(void **state)
{
	struct kat_rx *k = *state;

	/* SV at SWO 4 = byte 16: 48 B + 64 B + 10 B = 122 B starting with 16. */
	kat_feed(&k->rx, &k->cap, F_START_W4, 0);
	kat_feed(&k->rx, &k->cap, F_MID, 64);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	kat_check_frame(&k->cap, 0, 122, 16);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_whole_in_one_chunk(void **state)
{
	struct kat_rx *k = *state;

	/* SV+EV, SWO*4 = 4 < EBO = 20: bytes 4..20 = 17 B. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_4_20, 0), 1);
	kat_check_frame(&k->cap, 0, 17, 4);
	/* SV+EV, SWO 0, EBO 59: a 60-byte frame. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_60, 100), 1);
	kat_check_frame(&k->cap, 1, 60, 100);
	assert_int_equal(k->rx.frames, 2);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_end_and_start_in_one_chunk(void **state)
{
	struct kat_rx *k = *state;

	/*
	 * Chunk 0: SV at 0 (bytes 0..63). Chunk 1 (bytes 64..127): EV at EBO 5
	 * ends frame 1 = 64 + 6 = 70 B; SV at SWO 2 (byte 8, SWO*4 = 8 > EBO 5)
	 * starts frame 2 with bytes 72..127 (56 B). Chunk 2: EV at 9 adds
	 * 128..137, so frame 2 = 66 B from 72.
	 */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_START, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END5_START8, 64), 1);
	kat_check_frame(&k->cap, 0, 70, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	kat_check_frame(&k->cap, 1, 66, 72);
	assert_int_equal(k->rx.frames, 2);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_fd_before_start(void **state)
{
	struct kat_rx *k = *state;

	/* As above but FD drops frame 1; frame 2 must still be collected. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END5_FD_START8, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	assert_int_equal(k->cap.n, 1);
	kat_check_frame(&k->cap, 0, 66, 72);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_FD], 1);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_empty_chunk_in_middle(void **state)
{
	struct kat_rx *k = *state;

	/* A DV=0 chunk (payload 0xEE, not frame data) inside a frame is skipped. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_EMPTY, 0xEE, 64, true), 0);
	kat_feed(&k->rx, &k->cap, F_MID, 64);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_EMPTY, 0xEE, 64, true), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	kat_check_frame(&k->cap, 0, 138, 0);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_max_frame_24_chunks(void **state)
{
	struct kat_rx *k = *state;

	/* 1514 B: SV chunk, 22 middle chunks, EV at EBO 41 (23*64 + 42 = 1514). */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	for (unsigned i = 1; i < 23; i++)
		assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, i * 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END41, 23 * 64), 1);
	kat_check_frame(&k->cap, 0, 1514, 0);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_bad_footer_then_resync(void **state)
{
	struct kat_rx *k = *state;
	struct oa_tc6_footer f;

	assert_int_equal(oa_tc6_footer_decode(F_MID_BAD, &f), -EPROTO);
	kat_feed(&k->rx, &k->cap, F_START, 0);
	/* The bad footer cuts the frame: one BAD_FOOTER drop. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID_BAD, 64), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_FOOTER], 1);
	/* The rest of that frame is skipped and not counted again. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 128), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 192), 0);
	assert_int_equal(k->cap.n, 0);
	/* The next SV resyncs: 64 + 10 = 74 B. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 64), 1);
	kat_check_frame(&k->cap, 0, 74, 0);
	assert_int_equal(k->rx.frames, 1);
	assert_int_equal(kat_drops(&k->rx), 1);
}

/*
 * Per-frame accounting: every frame opened by an SV ends emitted or in
 * exactly one drop; a bad footer outside a frame drops nothing (a frame that
 * may start there is not opened, its rest counts once as NO_SV).
 */
static void test_rx_one_outcome_per_frame(void **state)
{
	struct kat_rx *k = *state;

	/* Idle bad footers: no drop, nothing opened. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID_BAD, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID_BAD, 0), 0);
	assert_int_equal(kat_drops(&k->rx), 0);
	assert_int_equal(k->rx.opened, 0);
	/* A hidden start: its middle and end count once, as NO_SV. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_NO_SV], 1);
	/* Frame 1 cut by a bad footer (one drop, two bad chunks), frame 2 cut
	 * by a restart, frame 3 emitted: 3 opened = 1 emitted + 2 drops. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	kat_feed(&k->rx, &k->cap, F_MID_BAD, 64);
	kat_feed(&k->rx, &k->cap, F_MID_BAD, 128);
	kat_feed(&k->rx, &k->cap, F_START, 0);
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 64), 1);
	assert_int_equal(k->rx.opened, 3);
	assert_int_equal(k->rx.frames, 1);
	assert_int_equal(kat_drops(&k->rx) - k->rx.drops[OA_TC6_RX_DROP_NO_SV], 2);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_FOOTER], 1);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_RESTART], 1);
}

static void test_rx_fd_drops_frame(void **state)
{
	struct kat_rx *k = *state;

	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9_FD, 64), 0);
	assert_int_equal(k->cap.n, 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_FD], 1);
	assert_int_equal(k->rx.frames, 0);
	/* The next frame is unaffected. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_60, 7), 1);
	kat_check_frame(&k->cap, 0, 60, 7);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_no_sv_dropped_once(void **state)
{
	struct kat_rx *k = *state;

	/* Joining mid-stream: the orphan fragment counts once. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_NO_SV], 1);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_4_20, 0), 1);
	kat_check_frame(&k->cap, 0, 17, 4);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_restart(void **state)
{
	struct kat_rx *k = *state;

	/* SV while a frame is open: the first is lost, the second collected. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	kat_feed(&k->rx, &k->cap, F_START_W4, 100);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 164), 1);
	/* 48 B (from 116) + 10 B (164..173) = 58 B from 116. */
	kat_check_frame(&k->cap, 0, 58, 116);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_RESTART], 1);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_abort(void **state)
{
	struct kat_rx *k = *state;

	assert_false(oa_tc6_rx_abort(&k->rx));
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_true(oa_tc6_rx_abort(&k->rx));
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_ABORT], 1);
	/* The rest of the aborted frame is skipped without another count. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 64), 0);
	assert_int_equal(kat_drops(&k->rx), 1);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_60, 0), 1);
	kat_check_frame(&k->cap, 0, 60, 0);
}

static void test_rx_oversize_no_overrun(void **state)
{
	/* A 128-byte frame buffer with a guard band behind it. */
	uint8_t mem[128 + 64];
	struct oa_tc6_rx rx;
	struct kat_cap c = { 0 };

	memset(mem, 0xC3, sizeof(mem));
	oa_tc6_rx_init(&rx, mem, 128);
	/* Exactly 128 B fits: SV chunk + EV at EBO 63. */
	kat_feed(&rx, &c, F_START, 0);
	assert_int_equal(kat_feed(&rx, &c, F_END63, 64), 1);
	kat_check_frame(&c, 0, 128, 0);
	/* SV + middle fill all 128 B; the next middle chunk overflows: one OVERSIZE drop. */
	kat_feed(&rx, &c, F_START, 0);
	kat_feed(&rx, &c, F_MID, 64);
	/* A stream with no EV for many chunks: still one drop, no overrun. */
	for (unsigned i = 0; i < 30; i++)
		assert_int_equal(kat_feed(&rx, &c, F_MID, 128), 0);
	assert_int_equal(kat_feed(&rx, &c, F_END9, 128), 0);
	assert_int_equal(rx.drops[OA_TC6_RX_DROP_OVERSIZE], 1);
	assert_int_equal(kat_drops(&rx), 1);
	for (size_t i = 128; i < sizeof(mem); i++)
		assert_int_equal(mem[i], 0xC3);
	/* The next frame that fits is collected. */
	kat_feed(&rx, &c, F_START, 0);
	assert_int_equal(kat_feed(&rx, &c, F_END9, 64), 1);
	kat_check_frame(&c, 1, 74, 0);
	assert_int_equal(rx.frames, 2);
}

static void test_rx_32_byte_chunks(void **state)
{
	struct kat_rx *k = *state;

	/* 32 + 32 + EV at EBO 31 (32 B) = 96 B. */
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_START, 0, 32, false), 0);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_MID, 32, 32, false), 0);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_END31, 64, 32, false), 1);
	kat_check_frame(&k->cap, 0, 96, 0);
	/* A whole 32-byte chunk, then a start + EV at EBO 9: 32 + 10 = 42 B. */
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_WHOLE_32, 50, 32, false), 1);
	kat_check_frame(&k->cap, 1, 32, 50);
	kat_feed_fill(&k->rx, &k->cap, F_START_W4, 0, 32, false);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_END9, 32, 32, false), 1);
	/* SWO 4 = byte 16: 16 B + 10 B = 26 B from 16. */
	kat_check_frame(&k->cap, 2, 26, 16);
	assert_int_equal(kat_drops(&k->rx), 0);
	/* Offsets beyond a 32-byte payload (SWO 8 = byte 32, EBO 40) are dropped. */
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_START_W8, 0, 32, false), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_OFFSET], 1);
	kat_feed_fill(&k->rx, &k->cap, F_START, 0, 32, false);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_END40, 32, 32, false), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_OFFSET], 2);
	assert_int_equal(k->cap.n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parity_known_words),
		cmocka_unit_test(test_parity_check),
		cmocka_unit_test(test_ctrl_header_read_idver),
		cmocka_unit_test(test_ctrl_header_read_config0),
		cmocka_unit_test(test_ctrl_header_write_imask0),
		cmocka_unit_test(test_ctrl_header_write_config0),
		cmocka_unit_test(test_ctrl_header_128_regs),
		cmocka_unit_test(test_ctrl_header_plca_ctrl1),
		cmocka_unit_test(test_ctrl_header_mms1),
		cmocka_unit_test(test_ctrl_len),
		cmocka_unit_test(test_ctrl_build_read_idver),
		cmocka_unit_test(test_ctrl_build_write2),
		cmocka_unit_test(test_ctrl_build_errors),
		cmocka_unit_test(test_ctrl_parse_read),
		cmocka_unit_test(test_ctrl_parse_read_protected),
		cmocka_unit_test(test_ctrl_parse_read_two),
		cmocka_unit_test(test_ctrl_parse_write),
		cmocka_unit_test(test_ctrl_parse_write_protected),
		cmocka_unit_test(test_data_header_empty),
		cmocka_unit_test(test_data_header_fields),
		cmocka_unit_test(test_tx_single_chunk_60),
		cmocka_unit_test(test_tx_1514),
		cmocka_unit_test(test_tx_multiple_of_64),
		cmocka_unit_test(test_tx_32_byte_chunks),
		cmocka_unit_test(test_footer_status_bits),
		cmocka_unit_test(test_footer_frame_bits),
		cmocka_unit_test(test_footer_bad_parity),
		cmocka_unit_test_setup(test_rx_start_middle_end, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_start_offset, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_whole_in_one_chunk, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_end_and_start_in_one_chunk, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_fd_before_start, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_empty_chunk_in_middle, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_max_frame_24_chunks, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_bad_footer_then_resync, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_one_outcome_per_frame, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_fd_drops_frame, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_no_sv_dropped_once, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_restart, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_abort, kat_rx_setup),
		cmocka_unit_test(test_rx_oversize_no_overrun),
		cmocka_unit_test_setup(test_rx_32_byte_chunks, kat_rx_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
