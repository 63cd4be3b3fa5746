// SPDX-License-Identifier: MIT
/*
 * The models' Ethernet FCS (src/emu/crc32.h): the table-driven CRC-32 against
 * the IEEE 802.3 check value and against a bit-at-a-time reference for every
 * length up to a jumbo-less maximum frame and every start alignment, so the
 * eight-byte steps, their tail and the byte order of the words are all
 * covered; the FCS append/check pair round-trips and refuses a flipped bit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emu/crc32.h"
#include "crc32_ref.h"

#define FRAME_MAX 1600u

/* Bytes that are not a repeating pattern (a small LCG). */
static void fill(uint8_t *p, size_t len)
{
	uint32_t x = 12345;

	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16);
	}
}

static void test_check_value(void **state)
{
	(void)state;
	assert_int_equal(emu_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
	assert_int_equal(emu_crc32(NULL, 0), 0);
}

static void test_every_length_and_alignment(void **state)
{
	static uint8_t buf[FRAME_MAX + 8];

	(void)state;
	fill(buf, sizeof(buf));
	for (size_t off = 0; off < 8; off++)
		for (size_t len = 0; len <= FRAME_MAX; len++)
			if (emu_crc32(buf + off, len) != ref_crc32(buf + off, len))
				fail_msg("offset %zu length %zu: 0x%08x, reference 0x%08x", off,
					 len, emu_crc32(buf + off, len), ref_crc32(buf + off, len));
}

static void test_fcs_round_trip(void **state)
{
	static uint8_t f[1518];
	uint32_t c;

	(void)state;
	fill(f, 1514);
	emu_fcs_append(f, 1514);
	c = ref_crc32(f, 1514);
	/* On the wire least significant byte first (crc32.h). */
	assert_int_equal(f[1514], c & 0xFF);
	assert_int_equal(f[1517], c >> 24);
	assert_true(emu_fcs_ok(f, sizeof(f)));
	f[700] ^= 0x10;
	assert_false(emu_fcs_ok(f, sizeof(f)));
	assert_false(emu_fcs_ok(f, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_value),
		cmocka_unit_test(test_every_length_and_alignment),
		cmocka_unit_test(test_fcs_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
