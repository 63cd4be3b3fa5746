// SPDX-License-Identifier: MIT
/*
 * TSO and GRO of the node's TAP (tools/ethdrv/tap_offload.c). Checksums are
 * checked against RFC 1071's worked example and against a plain bit-by-bit
 * sum written here; segments against frames built field by field from RFC
 * 791/8200/9293 offsets, never with the code under test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ethdrv/pkt.h"
#include "tap_offload.h"

#define MSS 1448u /* IPv4 with timestamps in 1500 bytes */
#define MSS6 1428u /* IPv6 with timestamps */
#define HLEN4 66u /* 14 Ethernet + 20 IPv4 + 32 TCP with timestamps */
#define HLEN6 86u /* 14 + 40 IPv6 + 32 */
#define SEQ0 0xFFFFF000u /* wraps during the test */
#define ID0 0xFFFEu /* wraps too */

/* ---- references, written independently ---- */

/* The ones' complement sum of big-endian words, one word at a time (RFC 1071 section 4.1). */
static uint32_t ref_sum(const uint8_t *p, size_t len, uint32_t sum)
{
	for (size_t i = 0; i < len; i += 2) {
		sum += (uint32_t)p[i] << 8 | (i + 1 < len ? p[i + 1] : 0);
		sum = (sum & 0xFFFF) + (sum >> 16);
	}
	return sum;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) << 16 | rd16(p + 2);
}

static void wr16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, v >> 16);
	wr16(p + 2, v & 0xFFFF);
}

/* True if the TCP checksum of the IPv4 or IPv6 frame @f (TCP at @l4) is right. */
static bool ref_tcp_ok(const uint8_t *f, unsigned l4, bool v6)
{
	const uint8_t *ip = f + 14;
	unsigned tcplen = v6 ? rd16(ip + 4) : rd16(ip + 2) - 20u;
	uint32_t s = 6 + tcplen;

	s = ref_sum(v6 ? ip + 8 : ip + 12, v6 ? 32 : 8, s);
	return ref_sum(f + l4, tcplen, s) == 0xFFFF;
}

static uint8_t payload_byte(size_t i)
{
	return (uint8_t)(i * 13 + 7);
}

/* An Ethernet + IPv4 + TCP (timestamps) frame head; payload @paylen after it. */
static void build_v4(uint8_t *f, size_t paylen, uint32_t seq, uint8_t flags, uint16_t id)
{
	uint8_t *ip = f + 14, *tcp = f + 34;

	memset(f, 0, HLEN4);
	memcpy(f, "\x02\x45\x54\x48\x20\x01\x02\x45\x54\x48\x20\x00\x08\x00", 14);
	ip[0] = 0x45;
	wr16(ip + 2, (unsigned)(20 + 32 + paylen));
	wr16(ip + 4, id);
	wr16(ip + 6, 0x4000); /* DF */
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\xa9\xfe\x14\x01\xa9\xfe\x14\x02", 8);
	wr16(tcp, 40000);
	wr16(tcp + 2, 5201);
	wr32(tcp + 4, seq);
	wr32(tcp + 8, 0x12345678);
	tcp[12] = 8 << 4;
	tcp[13] = flags;
	wr16(tcp + 14, 501);
	memcpy(tcp + 20, "\x01\x01\x08\x0a\x00\x00\x10\x00\x00\x00\x20\x00", 12);
}

/* Fill the IPv4 and TCP checksums of a whole frame. */
static void seal_v4(uint8_t *f)
{
	uint8_t *ip = f + 14, *tcp = f + 34;
	unsigned tcplen = rd16(ip + 2) - 20u;

	wr16(ip + 10, 0);
	wr16(ip + 10, ~ref_sum(ip, 20, 0) & 0xFFFF);
	wr16(tcp + 16, 0);
	wr16(tcp + 16, ~ref_sum(tcp, tcplen, ref_sum(ip + 12, 8, 6 + tcplen)) & 0xFFFF);
}

/* ---- checksums ---- */

static void test_csum_known_answers(void **state)
{
	/* RFC 1071 section 3: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2. */
	static const uint8_t rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	/* An IPv4 header whose checksum b861 is right: its sum is ffff. */
	static const uint8_t hdr[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7
	};
	uint8_t buf[1031];

	assert_int_equal(tap_csum(rfc, 8, 0), 0xddf2);
	assert_int_equal(tap_csum(hdr, 20, 0), 0xffff);
	/* An odd length: the last byte is a word's high byte. */
	assert_int_equal(tap_csum(rfc, 7, 0), ref_sum(rfc, 7, 0));
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 31 + 5);
	for (size_t n = 0; n <= sizeof(buf); n += 37)
		assert_int_equal(tap_csum(buf, n, 0x1234), ref_sum(buf, n, 0x1234));
}

static void test_csum_finish(void **state)
{
	uint8_t f[HLEN4 + 333];
	struct virtio_net_hdr vh = { .flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
				     .csum_start = 34,
				     .csum_offset = 16 };
	uint8_t *tcp = f + 34;

	build_v4(f, 333, 1000, 0x18, 7);
	for (unsigned i = 0; i < 333; i++)
		f[HLEN4 + i] = payload_byte(i);
	/* The kernel leaves the pseudo-header sum in the field. */
	wr16(tcp + 16, ref_sum(f + 26, 8, 6 + 32 + 333));
	assert_int_equal(tap_csum_finish(&vh, f, sizeof(f)), 0);
	assert_true(ref_tcp_ok(f, 34, false));
	/* Offsets outside the frame are refused and nothing is written. */
	vh.csum_offset = (uint16_t)(sizeof(f) - 34 - 1);
	assert_int_equal(tap_csum_finish(&vh, f, sizeof(f)), -EINVAL);
	vh.csum_start = (uint16_t)(sizeof(f) + 1);
	vh.csum_offset = 0;
	assert_int_equal(tap_csum_finish(&vh, f, sizeof(f)), -EINVAL);
	/* Without the flag the frame stays as it is. */
	vh.flags = 0;
	assert_int_equal(tap_csum_finish(&vh, f, sizeof(f)), 0);
	assert_true(ref_tcp_ok(f, 34, false));
}

/* ---- TSO ---- */

/* A TSO frame of @paylen payload after @hlen headers, split into two pieces at @cut. */
struct tso {
	uint8_t *buf;
	struct tap_frame f;
	struct virtio_net_hdr vh;
};

static void tso_make(struct tso *t, bool v6, size_t paylen, uint8_t flags, size_t cut)
{
	unsigned hlen = v6 ? HLEN6 : HLEN4;

	t->buf = malloc(hlen + paylen);
	assert_non_null(t->buf);
	build_v4(t->buf, 0, SEQ0, flags, ID0);
	if (v6) {
		uint8_t tcp[32];

		memcpy(tcp, t->buf + 34, 32);
		memset(t->buf + 14, 0, 40);
		wr16(t->buf + 12, 0x86DD);
		t->buf[14] = 0x60;
		t->buf[14 + 6] = 6;
		t->buf[14 + 7] = 64;
		memset(t->buf + 14 + 8, 0xfe, 32);
		memcpy(t->buf + 54, tcp, 32);
	}
	for (size_t i = 0; i < paylen; i++)
		t->buf[hlen + i] = payload_byte(i);
	t->f = (struct tap_frame){ { t->buf, t->buf + cut }, { cut, hlen + paylen - cut } };
	t->vh = (struct virtio_net_hdr){
		.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
		.gso_type = v6 ? VIRTIO_NET_HDR_GSO_TCPV6 : VIRTIO_NET_HDR_GSO_TCPV4,
		.hdr_len = (uint16_t)hlen,
		.gso_size = v6 ? MSS6 : MSS,
		.csum_start = (uint16_t)(hlen - 32),
		.csum_offset = 16,
	};
}

static void check_cut(bool v6, uint8_t flags)
{
	const unsigned hlen = v6 ? HLEN6 : HLEN4, l4 = hlen - 32, mss = v6 ? MSS6 : MSS;
	const size_t paylen = 3 * mss + 101;
	uint8_t out[1600];
	struct tap_gso g;
	struct tso t;
	size_t off = 0, len;

	tso_make(&t, v6, paylen, flags, 1001); /* an odd cut inside the payload */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), 4);
	/* One more byte of segment than the MTU allows: refused. */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, hlen - 14 + mss - 1), -EINVAL);
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, hlen - 14 + mss), 4);
	for (unsigned i = 0; i < 4; i++) {
		size_t m = i < 3 ? mss : 101;
		uint8_t want = flags;

		assert_false(tap_gso_done(&g));
		len = tap_gso_next(&g, out, sizeof(out));
		assert_int_equal(len, hlen + m);
		if (v6) {
			assert_int_equal(rd16(out + 14 + 4), 32 + m);
		} else {
			assert_int_equal(rd16(out + 14 + 2), 20 + 32 + m);
			assert_int_equal(rd16(out + 14 + 4), (uint16_t)(ID0 + i));
			assert_int_equal(ref_sum(out + 14, 20, 0), 0xFFFF);
		}
		assert_int_equal(rd32(out + l4 + 4), (uint32_t)(SEQ0 + off));
		if (i < 3)
			want &= (uint8_t)~0x09; /* no FIN, no PSH before the last */
		if (i > 0)
			want &= (uint8_t)~0x80; /* CWR only on the first */
		assert_int_equal(out[l4 + 13], want);
		assert_true(ref_tcp_ok(out, l4, v6));
		for (size_t k = 0; k < m; k++)
			assert_int_equal(out[hlen + k], payload_byte(off + k));
		/* Everything else of the headers is the TSO frame's. */
		assert_memory_equal(out, t.buf, 14);
		assert_memory_equal(out + l4, t.buf + l4, 4);
		assert_memory_equal(out + l4 + 8, t.buf + l4 + 8, 5);
		assert_memory_equal(out + l4 + 18, t.buf + l4 + 18, 14);
		off += m;
	}
	assert_true(tap_gso_done(&g));
	assert_int_equal(tap_gso_next(&g, out, sizeof(out)), 0);
	free(t.buf);
}

static void test_tso_cut_v4(void **state)
{
	check_cut(false, 0x10 | 0x08 | 0x01 | 0x80); /* ACK PSH FIN CWR */
}

static void test_tso_cut_v6(void **state)
{
	check_cut(true, 0x10 | 0x08);
}

static void test_tso_refused(void **state)
{
	struct tap_gso g;
	uint8_t out[64];
	struct tso t;

	tso_make(&t, false, 10 * MSS, 0x10, HLEN4);
	t.vh.gso_size = 0;
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.vh.gso_size = 1449; /* 20 + 32 + 1449 > 1500 */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.vh.gso_size = 100; /* 144 segments */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.vh.gso_size = MSS;
	t.vh.gso_type = VIRTIO_NET_HDR_GSO_TCPV6; /* an IPv4 frame */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.vh.gso_type = VIRTIO_NET_HDR_GSO_UDP;
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.vh.gso_type = VIRTIO_NET_HDR_GSO_TCPV4;
	t.buf[14] = 0x46; /* IP options */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.buf[14] = 0x45;
	wr16(t.buf + 14 + 6, 0x2000); /* MF: a fragment */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	wr16(t.buf + 14 + 6, 0x4000);
	t.f.len[0] = 50; /* headers cut short */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.f.len[0] = HLEN4;
	t.buf[34 + 12] = 4 << 4; /* TCP data offset below 5 words */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), -EINVAL);
	t.buf[34 + 12] = 8 << 4;
	/* Room too small for a segment: nothing is cut. */
	assert_int_equal(tap_gso_start(&g, &t.vh, &t.f, 1500), 10);
	assert_int_equal(tap_gso_next(&g, out, sizeof(out)), 0);
	free(t.buf);
}

/* ---- GRO ---- */

static struct ethdrv_pkt_pool *pool;

static int gro_setup(void **state)
{
	return ethdrv_pkt_pool_new(TAP_GRO_SEGS_MAX + 8, &pool);
}

static int gro_teardown(void **state)
{
	struct ethdrv_pkt_pool_stats ps;

	ethdrv_pkt_pool_get_stats(pool, &ps);
	ethdrv_pkt_pool_free(pool);
	return ps.avail == ps.size ? 0 : -1;
}

/* A received segment: payload bytes from stream offset @off, sealed. */
static struct ethdrv_pkt *seg(size_t off, size_t paylen, uint8_t flags)
{
	struct ethdrv_pkt *p = ethdrv_pkt_alloc(pool);

	assert_non_null(p);
	build_v4(p->data, paylen, SEQ0 + (uint32_t)off, flags, (uint16_t)(ID0 + off / MSS));
	for (size_t i = 0; i < paylen; i++)
		p->data[HLEN4 + i] = payload_byte(off + i);
	seal_v4(p->data);
	p->len = (uint32_t)(HLEN4 + paylen);
	return p;
}

static void gro_free(struct tap_gro *g)
{
	for (unsigned i = 0; i < g->count; i++)
		ethdrv_pkt_free(g->pkt[i]);
	tap_gro_init(g);
}

static void test_gro_merge(void **state)
{
	struct iovec iov[TAP_GRO_SEGS_MAX + 1];
	uint8_t whole[HLEN4 + 5 * MSS];
	struct virtio_net_hdr vh;
	struct tap_gro g;
	size_t n = 0;
	int cnt;

	tap_gro_init(&g);
	for (unsigned i = 0; i < 4; i++)
		assert_true(tap_gro_add(&g, seg(i * MSS, MSS, 0x10)));
	assert_true(tap_gro_add(&g, seg(4 * MSS, 700, 0x18))); /* short, with PSH */
	assert_true(tap_gro_full(&g)); /* closed */
	cnt = tap_gro_build(&g, &vh, iov, TAP_GRO_SEGS_MAX + 1);
	assert_int_equal(cnt, 6);
	assert_int_equal(vh.flags, VIRTIO_NET_HDR_F_NEEDS_CSUM);
	assert_int_equal(vh.gso_type, VIRTIO_NET_HDR_GSO_TCPV4);
	assert_int_equal(vh.gso_size, MSS);
	assert_int_equal(vh.hdr_len, HLEN4);
	assert_int_equal(vh.csum_start, 34);
	assert_int_equal(vh.csum_offset, 16);
	assert_ptr_equal(iov[0].iov_base, &vh);
	for (int i = 1; i < cnt; i++) {
		memcpy(whole + n, iov[i].iov_base, iov[i].iov_len);
		n += iov[i].iov_len;
	}
	assert_int_equal(n, HLEN4 + 4 * MSS + 700);
	assert_int_equal(rd16(whole + 14 + 2), n - 14);
	assert_int_equal(ref_sum(whole + 14, 20, 0), 0xFFFF);
	assert_int_equal(whole[34 + 13], 0x18); /* PSH of the last */
	assert_int_equal(rd32(whole + 34 + 4), SEQ0);
	/* A partial checksum: the pseudo-header sum, so the full one is right again
	 * once the segment sum is added in (what the kernel would do). */
	assert_int_equal(rd16(whole + 34 + 16), ref_sum(whole + 26, 8, 6 + (uint32_t)(n - 34)));
	wr16(whole + 34 + 16, 0);
	wr16(whole + 34 + 16, ~ref_sum(whole + 34, n - 34, ref_sum(whole + 26, 8, 6 + n - 34)));
	assert_true(ref_tcp_ok(whole, 34, false));
	for (size_t k = 0; k < n - HLEN4; k++)
		assert_int_equal(whole[HLEN4 + k], payload_byte(k));
	gro_free(&g);
}

static void test_gro_refuses(void **state)
{
	struct ethdrv_pkt *p;
	struct tap_gro g;

	tap_gro_init(&g);
	assert_true(tap_gro_add(&g, seg(0, MSS, 0x10)));
	/* Not the next byte. */
	p = seg(2 * MSS, MSS, 0x10);
	assert_false(tap_gro_add(&g, p));
	ethdrv_pkt_free(p);
	/* Another ACK number, window, options, address, or a bigger segment. */
	p = seg(MSS, MSS, 0x10);
	wr32(p->data + 34 + 8, 0x12345679);
	seal_v4(p->data);
	assert_false(tap_gro_add(&g, p));
	wr32(p->data + 34 + 8, 0x12345678);
	wr16(p->data + 34 + 14, 502);
	seal_v4(p->data);
	assert_false(tap_gro_add(&g, p));
	wr16(p->data + 34 + 14, 501);
	p->data[34 + 29] = 1; /* timestamp echo */
	seal_v4(p->data);
	assert_false(tap_gro_add(&g, p));
	p->data[34 + 29] = 0;
	p->data[14 + 15] = 3; /* another source address */
	seal_v4(p->data);
	assert_false(tap_gro_add(&g, p));
	p->data[14 + 15] = 1;
	/* A wrong TCP checksum: refused even by an empty batch. */
	seal_v4(p->data);
	p->data[HLEN4 + 5] ^= 0x40;
	assert_false(tap_gro_add(&g, p));
	gro_free(&g);
	assert_false(tap_gro_add(&g, p));
	ethdrv_pkt_free(p);
	/* SYN, FIN, RST, URG, CWR, no ACK, no payload, IP options, no DF. */
	static const uint8_t bad_flags[] = { 0x12, 0x11, 0x14, 0x30, 0x90, 0x08 };
	for (size_t i = 0; i < sizeof(bad_flags); i++) {
		p = seg(0, MSS, bad_flags[i]);
		assert_false(tap_gro_add(&g, p));
		ethdrv_pkt_free(p);
	}
	p = seg(0, 0, 0x10);
	assert_false(tap_gro_add(&g, p));
	ethdrv_pkt_free(p);
	assert_true(tap_gro_add(&g, seg(0, MSS, 0x10)));
	p = seg(MSS, MSS, 0x10);
	wr16(p->data + 14 + 6, 0); /* no DF */
	seal_v4(p->data);
	assert_false(tap_gro_add(&g, p));
	ethdrv_pkt_free(p);
	/* One segment cannot be built as a batch. */
	assert_int_equal(tap_gro_build(&g, &(struct virtio_net_hdr){ 0 },
				       (struct iovec[TAP_GRO_SEGS_MAX + 1]){ 0 }, 45),
			 -EINVAL);
	gro_free(&g);
}

static void test_gro_limits(void **state)
{
	struct iovec iov[TAP_GRO_SEGS_MAX + 1];
	struct virtio_net_hdr vh;
	struct ethdrv_pkt *p;
	struct tap_gro g;

	tap_gro_init(&g);
	for (unsigned i = 0; i < TAP_GRO_SEGS_MAX; i++) {
		assert_false(tap_gro_full(&g));
		assert_true(tap_gro_add(&g, seg(i * MSS, MSS, 0x10)));
	}
	assert_true(tap_gro_full(&g));
	p = seg(TAP_GRO_SEGS_MAX * MSS, MSS, 0x10);
	assert_false(tap_gro_add(&g, p));
	ethdrv_pkt_free(p);
	assert_int_equal(tap_gro_build(&g, &vh, iov, TAP_GRO_SEGS_MAX), -EINVAL);
	assert_int_equal(tap_gro_build(&g, &vh, iov, TAP_GRO_SEGS_MAX + 1), TAP_GRO_SEGS_MAX + 1);
	assert_true(rd16(g.pkt[0]->data + 14 + 2) <= 65535);
	gro_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csum_known_answers),
		cmocka_unit_test(test_csum_finish),
		cmocka_unit_test(test_tso_cut_v4),
		cmocka_unit_test(test_tso_cut_v6),
		cmocka_unit_test(test_tso_refused),
		cmocka_unit_test_setup_teardown(test_gro_merge, gro_setup, gro_teardown),
		cmocka_unit_test_setup_teardown(test_gro_refuses, gro_setup, gro_teardown),
		cmocka_unit_test_setup_teardown(test_gro_limits, gro_setup, gro_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
