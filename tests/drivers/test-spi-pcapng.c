// SPDX-License-Identifier: MIT
/*
 * SPI traces as pcapng (docs/spi-trace.md §2): a pair of lan865x drivers on
 * LAN8650 models with node 0's bus traced from the first transfer; frames
 * of 60 to 1514 bytes both ways. The file must be a section header, one
 * USER0 interface named t1s0 with nanosecond timestamps, then one enhanced
 * packet per transfer whose ethdrv header says node 0 and the length, and
 * the first transfer is the probe's read of IDVER (MMS 0, address 0). With
 * ETHDRV_TRACE_OUT set the trace is written there and kept (the live trace
 * test-tc6-dissector.sh hands to tshark); otherwise to a temporary file.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tc6_pair.h"

static char trace_path[256];

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_trace_from_first_transfer(void **state)
{
	static const uint16_t lens[] = { 60, 100, 1514, 128, 64, 65, 1000 };
	struct pair_opts o = { .trace = trace_path };
	struct fixture *f;
	static uint8_t buf[1 << 22];
	size_t n, off, packets = 0;
	FILE *fp;

	(void)state;
	pair_setup((void **)&f, &o);
	both_ways(f, lens, ETHDRV_ARRAY_SIZE(lens), false);
	pair_teardown((void **)&f);

	fp = fopen(trace_path, "rb");
	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	assert_true(n > 64 && n < sizeof(buf));
	/* Section header: type, byte-order magic, version 1.0. */
	assert_int_equal(rd32(buf), 0x0A0D0D0A);
	assert_int_equal(rd32(buf + 8), 0x1A2B3C4D);
	off = rd32(buf + 4);
	/* Interface: link type USER0, if_name t1s0, if_tsresol 9. */
	assert_int_equal(rd32(buf + off), 1);
	assert_int_equal(buf[off + 8] | buf[off + 9] << 8, 147);
	assert_non_null(memmem(buf + off, rd32(buf + off + 4), "t1s0", 4));
	assert_non_null(memmem(buf + off, rd32(buf + off + 4), "\x09\x00\x01\x00\x09", 5));
	off += rd32(buf + off + 4);
	while (off + 12 <= n) {
		const uint8_t *b = buf + off, *d = b + 28;
		uint32_t blen = rd32(b + 4), cap = rd32(b + 20), len = be32(d + 4);

		assert_int_equal(rd32(b), 6);
		assert_true(blen >= 32 && off + blen <= n && rd32(b + blen - 4) == blen);
		assert_int_equal(cap, 12 + 2 * len);
		assert_int_equal(d[0], 1); /* version */
		assert_int_equal(d[2] << 8 | d[3], 0); /* node: t1s0 */
		if (!packets) {
			/* The probe's first read: control, read, MMS 0, IDVER, one register. */
			assert_int_equal(len, 12);
			assert_int_equal(be32(d + 12) & 0xFFFFFFFE, 0x00000000);
			assert_int_equal(be32(d + 12 + len + 8) & 0xFF, 0x11); /* IDVER v1.1 */
		}
		packets++;
		off += blen;
	}
	assert_int_equal(off, n);
	assert_true(packets > 20);
	if (!getenv("ETHDRV_TRACE_OUT"))
		unlink(trace_path);
}

int main(void)
{
	const char *out = getenv("ETHDRV_TRACE_OUT");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_from_first_transfer),
	};

	if (out)
		snprintf(trace_path, sizeof(trace_path), "%s", out);
	else
		snprintf(trace_path, sizeof(trace_path), "/tmp/ethdrv-test-spi-pcapng.%d.pcapng",
			 (int)getpid());
	return cmocka_run_group_tests(tests, NULL, NULL);
}
