// SPDX-License-Identifier: MIT
/*
 * Known-answer tests for the TC6 wire codec: odd parity and control
 * transactions (docs/style.md S10). Every expected word and byte below was
 * derived by hand from docs/tc6.md §1.2-§1.6 and is written as a literal
 * with its derivation: which fields are set, how many 1 bits the word has
 * without P, and the odd-parity bit P that makes the total odd
 * (docs/tc6.md §1.3). Nothing is computed with the code under test.
 *
 * Bit positions used here (docs/tc6.md §1.2):
 *   control header: DNC 31, HDRB 30, WNR 29, AID 28, MMS 27:24, ADDR 23:8,
 *                   LEN 7:1, P 0
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

/* ---- docs/tc6.md §1.3: odd parity ---------------------------------------- */

static void test_parity_known_words(void **state)
{
	/* docs/tc6.md §1.3 example: 0x80000000 has one 1 bit -> odd already, P=0. */
	assert_int_equal(oa_tc6_set_parity(0x80000000), 0x80000000);
	/* docs/tc6.md §1.3 example: DNC|DV = 0x80200000, two 1 bits -> P=1. */
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

/* ---- docs/tc6.md §1.2: control headers ----------------------------------- */

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
	 * MMS4 0xCA02 (PLCA CTRL1, docs/tc6.md §3.6): MMS 4 << 24 = 0x04000000 (1 one),
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
	/* docs/tc6.md §1.4: 8 + 4N unprotected, 8 + 8N protected;
	 * docs/tc6.md §1.6: N in 1..128. */
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

/* ---- docs/tc6.md §1.4, §1.5: whole control transactions ------------------ */

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
	/* docs/tc6.md §1.4: MISO = [ignored][echoed header][value]. IDVER 0x11 = v1.1. */
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
	/* docs/tc6.md §1.5: MISO = [ignored][header][value][~value]; ~0x00000011 = 0xFFFFFFEE. */
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
	/* docs/tc6.md §1.5: the LAN8650 echoes what it received; a bad complement echo fails. */
	rx[23] = 0x11;
	assert_int_equal(oa_tc6_ctrl_parse(tx, rx, 24, true, NULL), -EPROTO);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
