// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the node's TAP offloads (tools/ethdrv/tap_offload.h)
 * on frames and virtio_net_hdr headers from anyone: the kernel hands the
 * node what a local program wrote, and the device what the peer sent.
 *
 * Input: byte 0 selects the path (bit 0: TSO and checksum completion, else
 * GRO) and, for TSO, where the frame is split into its two pieces; bytes
 * 1..10 are the virtio_net_hdr; the rest is the frame (TSO), or for GRO a
 * run of frames, each a 2-byte length then the bytes.
 *
 * Checked: nothing is read or written outside the buffers (ASan, the pieces
 * and frames are heap blocks of their exact size); TSO cuts exactly the
 * number of segments it announced, each at most the output buffer, with a
 * right IPv4 header checksum; GRO never takes more than TAP_GRO_SEGS_MAX
 * frames, builds only batches of 2 or more, and the frame it builds adds
 * up to the segments' headers and payloads within an IPv4 total length;
 * every packet returns to the pool.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tap_offload.h"

#define SEG_CAP 1600u

static struct ethdrv_pkt_pool *pool;

static void fz_tso(const uint8_t *data, size_t size, uint8_t sel)
{
	struct virtio_net_hdr vh;
	struct tap_frame f = { { NULL, NULL }, { 0, 0 } };
	uint8_t *a, *b, out[SEG_CAP];
	struct tap_gso g;
	size_t cut, len;
	int n, cuts = 0;

	memcpy(&vh, data, sizeof(vh));
	data += sizeof(vh);
	size -= sizeof(vh);
	cut = size ? (size_t)(sel >> 1) * 13 % (size + 1) : 0;
	a = malloc(cut ? cut : 1);
	b = malloc(size - cut ? size - cut : 1);
	if (!a || !b)
		goto out;
	memcpy(a, data, cut);
	memcpy(b, data + cut, size - cut);
	f = (struct tap_frame){ { a, b }, { cut, size - cut } };
	n = tap_gso_start(&g, &vh, &f, 1500);
	fz_assert(n == -22 || (n >= 1 && n <= (int)TAP_GSO_SEGS_MAX));
	while (n > 0 && !tap_gso_done(&g)) {
		len = tap_gso_next(&g, out, sizeof(out));
		fz_assert(len > 0 && len <= sizeof(out));
		if (!g.v6)
			fz_assert(tap_csum(out + 14, 20, 0) == 0xFFFF);
		cuts++;
	}
	fz_assert(n < 0 || cuts == n);
	if (cut)
		tap_csum_finish(&vh, a, cut);
out:
	free(a);
	free(b);
}

/* Build a batch as the node's flush does, check it, give its packets back. */
static void fz_flush(struct tap_gro *g)
{
	struct iovec iov[TAP_GRO_SEGS_MAX + 1];
	struct virtio_net_hdr vh;
	size_t total = 0;
	int cnt = tap_gro_build(g, &vh, iov, TAP_GRO_SEGS_MAX + 1);

	fz_assert(g->count <= TAP_GRO_SEGS_MAX);
	fz_assert(cnt == -22 || (g->count >= 2 && cnt == (int)g->count + 1));
	for (int i = 1; i < cnt; i++)
		total += iov[i].iov_len;
	fz_assert(cnt < 0 || (total == g->hlen + g->payload && total - 14 <= 65535));
	for (unsigned i = 0; i < g->count; i++)
		ethdrv_pkt_free(g->pkt[i]);
	tap_gro_init(g);
}

/* Offer the frames of the input to a batch, flushing as the node does. */
static void fz_gro(const uint8_t *data, size_t size)
{
	struct tap_gro g;

	tap_gro_init(&g);
	while (size >= 2) {
		size_t len = (size_t)(data[0] << 8 | data[1]) % (ETHDRV_PKT_DATA_MAX + 1);
		struct ethdrv_pkt *p = ethdrv_pkt_alloc(pool);

		fz_assert(p);
		data += 2;
		size -= 2;
		len = len > size ? size : len;
		memcpy(p->data, data, len);
		p->len = (uint32_t)len;
		data += len;
		size -= len;
		if (!tap_gro_add(&g, p)) {
			fz_flush(&g);
			if (!tap_gro_add(&g, p))
				ethdrv_pkt_free(p);
		}
		if (tap_gro_full(&g))
			fz_flush(&g);
	}
	fz_flush(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ethdrv_pkt_pool_stats ps;

	if (size < 1 + sizeof(struct virtio_net_hdr))
		return 0;
	if (!pool && ethdrv_pkt_pool_new(4096, &pool))
		return 0;
	if (data[0] & 1)
		fz_tso(data + 1, size - 1, data[0]);
	else
		fz_gro(data + 1 + sizeof(struct virtio_net_hdr),
		       size - 1 - sizeof(struct virtio_net_hdr));
	ethdrv_pkt_pool_get_stats(pool, &ps);
	fz_assert(ps.avail == ps.size);
	return 0;
}
