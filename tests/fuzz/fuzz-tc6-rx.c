// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a MISO byte stream of data chunks through footer decode
 * and RX reassembly (docs/tc6.md §2.1, §2.3, §2.4).
 *
 * Input: byte 0 selects the layout (bit 0: 32- or 64-byte payloads, bits
 * 2:1: the frame buffer size); the rest is a sequence of chunks, each the
 * payload followed by the 4-byte big-endian footer. Footer bits VS (23:22,
 * ignored by the codec) both set ask the harness to call oa_tc6_rx_abort()
 * after that chunk, as the framework does on RXBOE.
 *
 * Invariants checked:
 *  - an emitted frame is 1..size bytes and the buffer is never overrun (it is
 *    heap-allocated at its exact size, so ASan sees any overrun);
 *  - every emitted frame is made of payload bytes per docs/tc6.md §2.4: the SV chunk
 *    from SWO*4, every DV=1 chunk in between in full, and the EV chunk up to
 *    EBO, with no bad footer, abort, other SV or other EV in between; a
 *    frame that starts and ends in one chunk is exactly bytes SWO*4..EBO;
 *  - the return value equals the callbacks made and the frames counter;
 *  - drop counters never decrease; a bad footer adds exactly one
 *    BAD_FOOTER if a frame was open and none otherwise;
 *  - every frame opened by an SV in a good footer (rx->opened counts them)
 *    ends in exactly one way: emitted or one drop of any reason but NO_SV,
 *    or it is still open (the per-frame accounting the driver's counters
 *    and bench/ethdrv_accounting.py rely on).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "drivers/oa_tc6_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_CHUNKS 4096

/* What the harness saw of one chunk. */
struct fz_chunk {
	const uint8_t *payload;
	struct oa_tc6_footer f;
	bool ok; /* footer parity good */
	bool abort; /* oa_tc6_rx_abort() was called after it */
};

struct fz_ctx {
	struct fz_chunk *chunks;
	unsigned k; /* index of the chunk being fed */
	unsigned cps;
	size_t size;
	unsigned calls; /* callbacks during this chunk */
};

#define fz_assert(c)                      \
	do {                              \
		if (!(c))                 \
			__builtin_trap(); \
	} while (0)

/* True if chunk @c ends a frame before any start (EV alone or EV before SV). */
static bool fz_is_end(const struct fz_chunk *c)
{
	return c->ok && c->f.dv && c->f.ev && (!c->f.sv || c->f.swo * 4 > c->f.ebo);
}

/* True if chunk @c is a complete frame in itself (SV+EV, SWO*4 <= EBO). */
static bool fz_is_whole(const struct fz_chunk *c)
{
	return c->ok && c->f.dv && c->f.sv && c->f.ev && c->f.swo * 4 <= c->f.ebo;
}

/* Check a frame that ended in chunk x->k against the chunks that built it. */
static void fz_check_spanning(struct fz_ctx *x, const uint8_t *frame, size_t len)
{
	const struct fz_chunk *end = &x->chunks[x->k];
	size_t tail = end->f.ebo + 1u, off = 0;
	unsigned j = x->k;

	/* Find the SV chunk: the latest earlier one that left a frame open. */
	while (j-- > 0) {
		const struct fz_chunk *c = &x->chunks[j];

		fz_assert(c->ok && !c->abort); /* a break would have dropped it */
		if (!c->f.dv)
			continue;
		if (c->f.sv)
			break;
		fz_assert(!c->f.ev);
	}
	fz_assert(j < x->k && !fz_is_whole(&x->chunks[j]));
	fz_assert(x->chunks[j].f.swo * 4 < x->cps);
	fz_assert(len >= tail);
	/* The SV chunk from SWO*4, then the middle chunks, then the tail. */
	for (unsigned m = j; m < x->k; m++) {
		const struct fz_chunk *c = &x->chunks[m];
		unsigned from = m == j ? c->f.swo * 4 : 0;

		if (!c->f.dv)
			continue;
		fz_assert(off + (x->cps - from) <= len - tail);
		fz_assert(!memcmp(frame + off, c->payload + from, x->cps - from));
		off += x->cps - from;
	}
	fz_assert(off == len - tail);
	fz_assert(!memcmp(frame + off, end->payload, tail));
}

static void fz_emit(void *arg, const uint8_t *frame, size_t len)
{
	struct fz_ctx *x = arg;
	const struct fz_chunk *c = &x->chunks[x->k];

	fz_assert(len >= 1 && len <= x->size);
	fz_assert(c->ok && c->f.dv && c->f.ev && !c->f.fd && c->f.ebo < x->cps);
	x->calls++;
	if (fz_is_whole(c)) {
		/* docs/tc6.md §2.4 row 4: bytes SWO*4..EBO of this chunk, nothing else. */
		fz_assert(len == c->f.ebo + 1u - c->f.swo * 4);
		fz_assert(!memcmp(frame, c->payload + c->f.swo * 4, len));
		return;
	}
	fz_assert(fz_is_end(c));
	fz_check_spanning(x, frame, len);
}

static uint64_t fz_sum(const struct oa_tc6_rx *rx, const enum oa_tc6_rx_drop *why, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += rx->drops[why[i]];
	return s;
}

/* Frames opened by SV end once: emitted, dropped, or still open (see header). */
static void fz_check_conservation(const struct oa_tc6_rx *rx, uint64_t opened)
{
	static const enum oa_tc6_rx_drop ends[] = {
		OA_TC6_RX_DROP_BAD_FOOTER, OA_TC6_RX_DROP_OVERSIZE, OA_TC6_RX_DROP_FD,
		OA_TC6_RX_DROP_RESTART,	   OA_TC6_RX_DROP_ABORT,    OA_TC6_RX_DROP_BAD_OFFSET,
	};

	fz_assert(rx->opened == opened);
	fz_assert(opened == rx->frames + fz_sum(rx, ends, 6) + (rx->in_frame ? 1 : 0));
}

static void fz_feed(struct fz_ctx *x, struct oa_tc6_rx *rx, uint32_t word, uint64_t *opened)
{
	struct fz_chunk *c = &x->chunks[x->k];
	uint64_t before[OA_TC6_RX_DROP_NR], frames = rx->frames;
	bool was_open = rx->in_frame;
	unsigned n;

	memcpy(before, rx->drops, sizeof(before));
	c->ok = oa_tc6_footer_decode(word, &c->f) == 0;
	c->abort = (word & OA_TC6_DATA_FTR_VS) == OA_TC6_DATA_FTR_VS;
	x->calls = 0;
	n = oa_tc6_rx_chunk(rx, c->payload, x->cps, &c->f, c->ok, fz_emit, x);
	fz_assert(n <= 2 && n == x->calls && rx->frames == frames + n);
	for (unsigned i = 0; i < OA_TC6_RX_DROP_NR; i++)
		fz_assert(rx->drops[i] >= before[i]);
	if (!c->ok)
		fz_assert(rx->drops[OA_TC6_RX_DROP_BAD_FOOTER] ==
			  before[OA_TC6_RX_DROP_BAD_FOOTER] + was_open);
	/* An SV in a good footer opens a frame (docs/tc6.md §2.4); bad offsets drop it at once. */
	if (c->ok && c->f.dv && c->f.sv)
		(*opened)++;
	if (c->abort)
		oa_tc6_rx_abort(rx);
	fz_assert(rx->len <= rx->size);
	fz_check_conservation(rx, *opened);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t sizes[4] = { 16, 100, 1518, 1540 };
	struct fz_ctx x = { 0 };
	struct oa_tc6_rx rx;
	uint64_t opened = 0;
	uint8_t *buf;

	if (size < 1)
		return 0;
	x.cps = (data[0] & 1) ? 32 : 64;
	x.size = sizes[(data[0] >> 1) & 3];
	buf = malloc(x.size);
	x.chunks = calloc(FZ_MAX_CHUNKS, sizeof(*x.chunks));
	fz_assert(buf && x.chunks);
	oa_tc6_rx_init(&rx, buf, x.size);
	for (size_t pos = 1; pos + x.cps + 4 <= size && x.k < FZ_MAX_CHUNKS; pos += x.cps + 4) {
		x.chunks[x.k].payload = data + pos;
		fz_feed(&x, &rx, oa_tc6_get_be32(data + pos + x.cps), &opened);
		x.k++;
	}
	free(x.chunks);
	free(buf);
	return 0;
}
