// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the ENET line's traffic generator
 * (docs/enet.md §14) on a virtual clock, from the facts alone: every frame ends exactly
 * at preamble + frame + FCS + gap after the one before (docs/enet.md §12)
 * at 1000 and 100 Mb/s, or at the set rate; exactly COUNT frames; frames
 * well-formed (Ethernet, IPv4 and UDP headers and checksums, the FCS, the
 * sequence numbers) checked with this file's own checksum and CRC code;
 * the far MAC's own frames share the wire without overlap; one generator
 * per direction, both at the line rate at once; a full RX ring
 * drops and counts; bad configurations are refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "enet_kat.h"
#include "crc32_ref.h"

#define DST_IP 0xA9FE1402u /* 169.254.20.2 */
#define SRC_IP 0xA9FE1401u /* 169.254.20.1 */
#define DPORT 9000u
#define SPORT 9u

static struct fdx_gen_config gen_cfg(uint16_t payload, uint64_t count, uint64_t pps)
{
	struct fdx_gen_config c = { .to_port = 1,
				    .src_ip = SRC_IP,
				    .dst_ip = DST_IP,
				    .src_port = SPORT,
				    .dst_port = DPORT,
				    .payload = payload,
				    .count = count,
				    .pps = pps };

	memcpy(c.dst_mac, mac_of[1], 6);
	memcpy(c.src_mac, mac_of[0], 6);
	return c;
}

static void gen_start(struct kat *k, uint16_t payload, uint64_t count, uint64_t pps)
{
	struct fdx_gen_config c = gen_cfg(payload, count, pps);

	assert_int_equal(fdx_line_gen_start(k->line, &c), 0);
}

static uint64_t line_stat(struct kat *k, size_t off)
{
	struct fdx_line_stats st;

	fdx_line_get_stats(k->line, &st);
	return ethdrv_counter_get((const ethdrv_counter_t *)((const char *)&st + off));
}

#define GEN_FRAMES(k) line_stat(k, offsetof(struct fdx_line_stats, gen_frames))

/* Frames @first.. end at t0 + wire + i * period: one ns before, the BD is still empty. */
static void check_ends(struct kat *k, uint64_t t0, uint64_t wire, uint64_t period, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t end = t0 + wire + i * period;

		advance_to(k, end - 1);
		assert_true(bd_status(k, 1, RX_RING, i) & RX_E);
		assert_int_equal(GEN_FRAMES(k), i);
		advance_to(k, end);
		assert_false(bd_status(k, 1, RX_RING, i) & RX_E);
		assert_int_equal(GEN_FRAMES(k), i + 1);
	}
}

/* From an idle wire: @count frames of @payload bytes at @pps, each @wire ns
 * long, @period ns from end to end. */
static void gen_check(struct kat *k, uint16_t payload, unsigned count, uint64_t pps, uint64_t wire,
		      uint64_t period)
{
	uint64_t t0;

	advance(k, 1000);
	t0 = now(k);
	gen_start(k, payload, count, pps);
	check_ends(k, t0, wire, period, count);
}

static void test_timing_1g_64(void **state)
{
	struct kat *k = *state;

	macs_up(k, 16, RCR_CRCFWD);
	/* 18 payload bytes: 14 + 20 + 8 + 18 = 60 bytes + FCS = 64 on the wire:
	 * (8 + 60 + 4) * 8 = 576 ns, then 12 gap bytes: one frame per 672 ns
	 * (1.488 Mpps). */
	gen_check(k, 18, 10, 0, 576, 672);
	/* Exactly COUNT frames, then it stops. */
	advance(k, 100000);
	assert_int_equal(GEN_FRAMES(k), 10);
	assert_false(fdx_line_gen_running(k->line, 1));
	assert_true(bd_status(k, 1, RX_RING, 10) & RX_E);
	assert_int_equal(line_stat(k, offsetof(struct fdx_line_stats, gen_bytes)), 10 * 84);
	assert_int_equal(rd(k, 1, R_PACKETS), 10);
	assert_int_equal(rd(k, 1, R_P64), 10);
}

static void test_timing_100m_1472(void **state)
{
	struct kat *k = *state;

	mac_up(k, 0, 4, RCR_CRCFWD, 0);
	mac_up(k, 1, 4, RCR_CRCFWD, 0);
	/* 1472 payload bytes: a 1514-byte frame: (8 + 1514 + 4) * 80 = 122080 ns,
	 * then 12 * 80 = 960 ns of gap. */
	gen_check(k, 1472, 3, 0, 122080, 123040);
	assert_int_equal(bd_len(k, 1, RX_RING, 0), 1514);
}

static void test_rate(void **state)
{
	struct kat *k = *state;

	macs_up(k, 8, RCR_CRCFWD);
	/* 100000 frames/s: starts 10 us apart, each 576 ns on the wire. */
	gen_check(k, 18, 5, 100000, 576, 10000);
}

static uint32_t sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* One received frame of @payload UDP bytes with sequence number @seq, FCS stored. */
static void check_frame(const uint8_t *f, unsigned len, unsigned payload, uint64_t seq)
{
	const uint8_t *ip = f + 14, *udp = ip + 20;
	uint8_t pseudo[12];
	unsigned flen = payload + 42 < 60 ? 60 : payload + 42;
	uint32_t fcs = ref_crc32(f, flen);

	assert_int_equal(len, flen + 4);
	assert_memory_equal(f, mac_of[1], 6);
	assert_memory_equal(f + 6, mac_of[0], 6);
	assert_int_equal(be16(f + 12), 0x0800);
	/* IPv4: version 4, IHL 5, total length, TTL > 0, UDP, addresses, checksum. */
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(be16(ip + 2), 28 + payload);
	assert_true(ip[8] > 0);
	assert_int_equal(ip[9], 17);
	assert_int_equal(fold(sum16(ip, 20, 0)), 0xFFFF);
	assert_int_equal((uint32_t)be16(ip + 12) << 16 | be16(ip + 14), SRC_IP);
	assert_int_equal((uint32_t)be16(ip + 16) << 16 | be16(ip + 18), DST_IP);
	/* UDP: ports, length, checksum over the pseudo header (RFC 768). */
	assert_int_equal(be16(udp), SPORT);
	assert_int_equal(be16(udp + 2), DPORT);
	assert_int_equal(be16(udp + 4), 8 + payload);
	assert_int_not_equal(be16(udp + 6), 0);
	memcpy(pseudo, ip + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = 17;
	pseudo[10] = (uint8_t)((8 + payload) >> 8);
	pseudo[11] = (uint8_t)(8 + payload);
	assert_int_equal(fold(sum16(udp, 8 + payload, sum16(pseudo, 12, 0))), 0xFFFF);
	/* The sequence number, big endian. */
	for (int i = 0; i < 8; i++)
		assert_int_equal(udp[8 + i], (uint8_t)(seq >> (56 - 8 * i)));
	/* Padding is zero; the FCS is stored little-endian, LSB first on the wire. */
	for (unsigned i = 42 + payload; i < flen; i++)
		assert_int_equal(f[i], 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(f[flen + i], (uint8_t)(fcs >> (8 * i)));
}

static void test_well_formed(void **state)
{
	struct kat *k = *state;
	static const unsigned payloads[] = { 8, 18, 19, 100, 1471, 1472 };

	/* CRCFWD clear: the MAC stores the FCS, which must be the frame's CRC. */
	macs_up(k, 8, 0);
	advance(k, 1000);
	for (unsigned p = 0; p < ETHDRV_ARRAY_SIZE(payloads); p++) {
		gen_start(k, (uint16_t)payloads[p], 2, 0);
		advance(k, 100000);
		assert_false(fdx_line_gen_running(k->line, 1));
		for (unsigned s = 0; s < 2; s++) {
			unsigned i = k->rx_next[1]++ % k->rx_n;

			assert_int_equal(
				bd_status(k, 1, RX_RING, i) & (RX_E | RX_L | RX_CR | RX_LG), RX_L);
			check_frame(mem(k, 1, RX_BUF(i)), bd_len(k, 1, RX_RING, i), payloads[p], s);
			rx_arm(k, 1, i);
		}
	}
}

static void test_shares_wire(void **state)
{
	struct kat *k = *state;
	uint64_t t0, g1, m1;
	unsigned b;

	macs_up(k, 16, RCR_CRCFWD);
	advance(k, 1000);
	t0 = now(k);
	/* Port 0's own frame, fetched while the first generated frame is on
	 * the wire, follows it after the gap; the next generated frame follows
	 * that one after the gap. */
	gen_start(k, 18, 2, 0);
	g1 = t0 + 576;
	advance(k, 100);
	b = tx(k, 0, 100);
	m1 = g1 + 96 + wire_ns(100, 8);
	advance_to(k, m1 - 1);
	assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
	assert_int_equal(GEN_FRAMES(k), 1);
	advance_to(k, m1);
	assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	advance_to(k, m1 + 96 + 576 - 1);
	assert_int_equal(GEN_FRAMES(k), 1);
	advance_to(k, m1 + 96 + 576);
	assert_int_equal(GEN_FRAMES(k), 2);
	assert_int_equal(rd(k, 1, R_PACKETS), 3);
}

static void test_both_directions(void **state)
{
	struct kat *k = *state;
	struct fdx_gen_config back = gen_cfg(18, 10, 0);
	uint64_t t0;

	/* Full duplex: one generator per direction, each at the line rate. */
	macs_up(k, 16, RCR_CRCFWD);
	advance(k, 1000);
	t0 = now(k);
	back.to_port = 0;
	memcpy(back.dst_mac, mac_of[0], 6);
	memcpy(back.src_mac, mac_of[1], 6);
	assert_int_equal(fdx_line_gen_start(k->line, &back), 0);
	gen_start(k, 18, 10, 0);
	assert_int_equal(fdx_line_gen_start(k->line, &back), -EBUSY);
	advance_to(k, t0 + 576 + 9 * 672 - 1);
	assert_int_equal(rd(k, 0, R_PACKETS), 9);
	assert_int_equal(rd(k, 1, R_PACKETS), 9);
	advance_to(k, t0 + 576 + 9 * 672);
	assert_int_equal(rd(k, 0, R_PACKETS), 10);
	assert_int_equal(rd(k, 1, R_PACKETS), 10);
	assert_int_equal(GEN_FRAMES(k), 20);
	assert_false(fdx_line_gen_running(k->line, 0));
	assert_false(fdx_line_gen_running(k->line, 1));
}

static void test_ring_full_counted(void **state)
{
	struct kat *k = *state;

	/* Four RX BDs never returned: the other six frames are dropped by the
	 * MAC and counted in IEEE_R_DROP; the generator counts all ten sent. */
	macs_up(k, 4, RCR_CRCFWD);
	advance(k, 1000);
	gen_start(k, 18, 10, 0);
	advance(k, 100000);
	assert_int_equal(GEN_FRAMES(k), 10);
	assert_int_equal(rd(k, 1, R_PACKETS), 10);
	assert_int_equal(rd(k, 1, R_DROP), 6);
	assert_int_equal(rd(k, 1, R_FRAME_OK), 4);
}

static void test_stop_and_link_down(void **state)
{
	struct kat *k = *state;

	macs_up(k, 16, RCR_CRCFWD);
	advance(k, 1000);
	/* Until stopped: the frame on the wire at the stop never arrives. */
	gen_start(k, 18, 0, 0);
	advance(k, 672 * 3);
	assert_true(fdx_line_gen_running(k->line, 1));
	fdx_line_gen_stop(k->line, 1);
	assert_false(fdx_line_gen_running(k->line, 1));
	assert_int_equal(GEN_FRAMES(k), 3);
	advance(k, 10000);
	assert_int_equal(GEN_FRAMES(k), 3);
	/* Link down: sent into nothing, counted as lost. */
	fdx_line_set_link(k->line, false);
	gen_start(k, 18, 4, 0);
	advance(k, 100000);
	assert_int_equal(GEN_FRAMES(k), 3);
	assert_int_equal(line_stat(k, offsetof(struct fdx_line_stats, gen_lost)), 4);
}

static void test_bad_config(void **state)
{
	struct kat *k = *state;
	struct fdx_gen_config c = gen_cfg(7, 1, 0);

	assert_int_equal(fdx_line_gen_start(k->line, &c), -EINVAL);
	c = gen_cfg(1473, 1, 0);
	assert_int_equal(fdx_line_gen_start(k->line, &c), -EINVAL);
	c = gen_cfg(18, 1, FDX_GEN_PPS_MAX + 1);
	assert_int_equal(fdx_line_gen_start(k->line, &c), -EINVAL);
	c = gen_cfg(18, 1, 0);
	c.to_port = 2;
	assert_int_equal(fdx_line_gen_start(k->line, &c), -EINVAL);
	assert_int_equal(fdx_line_gen_start(k->line, NULL), -EINVAL);
	gen_start(k, 18, 0, 0);
	c = gen_cfg(18, 1, 0);
	assert_int_equal(fdx_line_gen_start(k->line, &c), -EBUSY);
	fdx_line_gen_stop(k->line, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_timing_1g_64, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timing_100m_1472, setup_100, teardown),
		cmocka_unit_test_setup_teardown(test_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_well_formed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shares_wire, setup, teardown),
		cmocka_unit_test_setup_teardown(test_both_directions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_full_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_and_link_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_config, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
