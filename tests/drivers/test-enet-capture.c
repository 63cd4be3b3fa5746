// SPDX-License-Identifier: MIT
/*
 * The ENET line's capture (fdx_line_set_capture()): two fec drivers on two
 * models, a virtual clock, traffic both ways at once. The pcap file must
 * hold every frame that crossed, both directions, byte for byte as sent
 * (without FCS), in time order, and nothing the line did not carry.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/pcap.h"
#include "fec_pair.h"

#define FRAMES 300 /* per direction */
#define PCAP_HDR 24u
#define REC_HDR 16u

static int setup(void **state)
{
	struct fec_config cfg = { 0 };

	return setup_cfg(state, &cfg, false);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The whole file; *len its size. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= (long)PCAP_HDR);
	rewind(fp);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Check one record against the frames the flows sent; count it per flow. */
static void check_record(struct fixture *f, const uint8_t *rec, uint32_t caplen,
			 unsigned seen[MAX_FLOWS])
{
	struct ethdrv_pkt pkt;
	struct flow *fl;
	uint32_t seq;

	assert_true(caplen >= HDR && rec[14] < MAX_FLOWS);
	fl = f->flows[rec[14]];
	memcpy(&seq, rec + 15, 4);
	/* In order per direction: the line never reorders a MAC's frames. */
	assert_int_equal(seq, seen[fl->id]);
	pkt.data = (uint8_t *)rec;
	pkt.len = caplen;
	assert_true(frame_ok(&pkt, fl, seq));
	seen[fl->id]++;
}

static void test_capture_both_ways(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .id = 0,
			  .src = &f->n[0],
			  .dst = &f->n[1],
			  .n = FRAMES,
			  .len_of = len_sweep,
			  .window = 64 };
	struct flow b = { .id = 1,
			  .src = &f->n[1],
			  .dst = &f->n[0],
			  .n = FRAMES,
			  .len_of = len_mixed,
			  .window = 64 };
	unsigned seen[MAX_FLOWS] = { 0 }, records = 0;
	struct fdx_line_stats ls;
	uint64_t last_ns = 0;
	struct emu_pcap *pcap;
	char path[128];
	uint8_t *buf;
	size_t len, off;

	snprintf(path, sizeof(path), "/tmp/ethdrv-test-enet-capture-%d.pcap", (int)getpid());
	assert_int_equal(emu_pcap_open(path, &pcap), 0);
	emu_pcap_set_virtual(pcap);
	fdx_line_set_capture(f->line, pcap);
	f->flows[0] = &a;
	f->flows[1] = &b;
	run_flows(f, 400000, NULL);
	/* Link down: what is sent now is lost, counted, and never captured. */
	fdx_line_set_link(f->line, false);
	f->flows[0] = NULL;
	f->flows[1] = NULL;
	a.n++;
	flow_send(&a);
	pump_for(f, 2000000);
	fdx_line_get_stats(f->line, &ls);
	assert_int_equal(ethdrv_counter_get(&ls.lost_link_down), 1);
	assert_int_equal(ethdrv_counter_get(&ls.lost[0]), 1); /* per sender */
	assert_int_equal(ethdrv_counter_get(&ls.lost[1]), 0);
	fdx_line_set_capture(f->line, NULL);
	assert_int_equal(emu_pcap_close(pcap), 0);

	assert_int_equal(ethdrv_counter_get(&ls.captured), 2 * FRAMES);
	assert_int_equal(ethdrv_counter_get(&ls.capture_errors), 0);
	f->flows[0] = &a;
	f->flows[1] = &b;
	buf = slurp(path, &len);
	assert_int_equal(get32(buf), EMU_PCAP_MAGIC_NS);
	for (off = PCAP_HDR; off + REC_HDR <= len; records++) {
		uint64_t t = get32(buf + off) * 1000000000ull + get32(buf + off + 4);
		uint32_t caplen = get32(buf + off + 8);

		assert_true(t >= last_ns); /* both directions in time order */
		last_ns = t;
		assert_int_equal(get32(buf + off + 12), caplen); /* no snap cut, no FCS */
		assert_true(off + REC_HDR + caplen <= len);
		check_record(f, buf + off + REC_HDR, caplen, seen);
		off += REC_HDR + caplen;
	}
	assert_int_equal(off, len);
	assert_int_equal(records, 2 * FRAMES);
	assert_int_equal(seen[0], FRAMES);
	assert_int_equal(seen[1], FRAMES);
	free(buf);
	unlink(path);
	f->flows[0] = NULL;
	f->flows[1] = NULL;
	fdx_line_set_link(f->line, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_capture_both_ways, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
