// SPDX-License-Identifier: MIT
/* The pcap writer: header fields, records without FCS, tcpdump can read it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "emu/pcap.h"

/* A temporary file name for one test. */
static void tmp_path(char *buf, size_t n)
{
	snprintf(buf, n, "/tmp/ethdrv-test-pcap-%d.pcap", (int)getpid());
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* Frame @i: @len bytes of a pattern, the last 4 being a fake FCS. */
static void fill_frame(uint8_t *f, size_t len, unsigned i)
{
	for (size_t k = 0; k < len; k++)
		f[k] = (uint8_t)(k * 7 + i);
	memset(f, 0xff, 6); /* broadcast */
	f[12] = 0x88; /* EtherType 0x88b5: local experimental */
	f[13] = 0xb5;
}

/* Count the packets tcpdump reads from @path, or -1 if tcpdump is absent. */
static int tcpdump_count(const char *path)
{
	char cmd[512], line[512];
	const char *bin = NULL;
	int n = 0;
	FILE *p;

	if (access("/usr/sbin/tcpdump", X_OK) == 0)
		bin = "/usr/sbin/tcpdump";
	else if (system("command -v tcpdump >/dev/null 2>&1") == 0)
		bin = "tcpdump";
	if (!bin)
		return -1;
	snprintf(cmd, sizeof(cmd), "%s -r %s -nn 2>/dev/null", bin, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (line[0] >= '0' && line[0] <= '9') /* one "HH:MM:SS.ns ..." line per packet */
			n++;
	assert_int_equal(pclose(p), 0);
	return n;
}

static void test_pcap_roundtrip(void **state)
{
	static const size_t lens[3] = { 64, 100, 1518 };
	static const uint64_t ts[3] = { 1000, 2000000500, 2000001500 };
	uint8_t frame[3][1518], file[8192];
	struct emu_pcap *p;
	char path[128];
	size_t n, off;
	FILE *f;

	tmp_path(path, sizeof(path));
	assert_int_equal(emu_pcap_open(path, &p), 0);
	emu_pcap_set_virtual(p);
	for (unsigned i = 0; i < 3; i++) {
		fill_frame(frame[i], lens[i], i);
		assert_int_equal(emu_pcap_write(p, ts[i], frame[i], lens[i]), 0);
	}
	assert_int_equal(emu_pcap_frames(p), 3);
	assert_int_equal(emu_pcap_errors(p), 0);
	assert_int_equal(emu_pcap_close(p), 0);

	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(file, 1, sizeof(file), f);
	fclose(f);
	/* 24-byte global header + 3 x (16 + len - 4) */
	assert_int_equal(n, 24 + 3 * 16 + (64 - 4) + (100 - 4) + (1518 - 4));
	assert_int_equal(get32(file), 0xa1b23c4du);
	assert_int_equal(get16(file + 4), 2);
	assert_int_equal(get16(file + 6), 4);
	assert_int_equal(get32(file + 16), 65535);
	assert_int_equal(get32(file + 20), 1); /* LINKTYPE_ETHERNET */
	off = 24;
	uint64_t prev = 0;
	for (unsigned i = 0; i < 3; i++) {
		uint64_t t = (uint64_t)get32(file + off) * 1000000000u + get32(file + off + 4);

		assert_true(get32(file + off + 4) < 1000000000u);
		assert_int_equal(get32(file + off + 8), lens[i] - 4);
		assert_int_equal(get32(file + off + 12), lens[i] - 4);
		assert_true(t > prev);
		if (i > 0) /* virtual time offsets survive the wall-clock shift */
			assert_int_equal(t - prev, ts[i] - ts[i - 1]);
		prev = t;
		assert_memory_equal(file + off + 16, frame[i], lens[i] - 4);
		off += 16 + lens[i] - 4;
	}

	int pk = tcpdump_count(path);

	if (pk >= 0)
		assert_int_equal(pk, 3);
	unlink(path);
}

static void test_pcap_errors(void **state)
{
	struct emu_pcap *p;
	uint8_t frame[64] = { 0 };
	int err = 0;

	assert_int_equal(emu_pcap_open("/nonexistent-dir/x.pcap", &p), -ENOENT);
	assert_int_equal(emu_pcap_open(NULL, &p), -EINVAL);
	assert_int_equal(emu_pcap_close(NULL), 0);
	/* /dev/full: buffered writes fail at some point, at the latest on close */
	if (emu_pcap_open("/dev/full", &p) != 0)
		skip();
	for (unsigned i = 0; i < 200 && !err; i++)
		err = emu_pcap_write(p, i, frame, sizeof(frame));
	if (err) {
		assert_int_equal(err, -ENOSPC);
		assert_true(emu_pcap_errors(p) >= 1);
		emu_pcap_close(p);
		return;
	}
	assert_int_equal(emu_pcap_close(p), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcap_roundtrip),
		cmocka_unit_test(test_pcap_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
