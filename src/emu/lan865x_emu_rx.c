// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: the RX buffer. It owns the ring of frames the MAC stored
 * and what the host reads of them chunk by chunk: where frames start and end
 * in a chunk (CONFIG0.RFA, docs/tc6.md §2.4), when their data is visible,
 * RCA, overflow (RXBOE) and flushes. The assumptions are listed in
 * lan865x_emu.h.
 */
#include <string.h>

#include "ethdrv/compiler.h"
#include "lan865x_emu_priv.h"

/* A position in the RX stream: frame @idx after the head, @off bytes sent. */
struct rx_cursor {
	unsigned idx;
	size_t off;
};

/* One copy from an RX frame into a chunk payload. */
struct rx_seg {
	unsigned idx; /* frame after the head */
	size_t off; /* from this byte */
	size_t n; /* this many bytes */
	size_t dst; /* to this payload offset */
};

/* Where the data of one RX chunk comes from, and its footer bits. */
struct rx_plan {
	uint32_t bits; /* DV/SV/SWO/FD/EV/EBO footer bits */
	unsigned nseg; /* copy segments */
	struct rx_seg seg[2]; /* rest of a frame, start of the next */
};

/* ---- RX buffer ---- */

static struct lan865x_emu_rx_frame *rxq_at(struct lan865x_emu *emu, unsigned idx)
{
	return &emu->rxq[(emu->rxq_head + idx) % emu->rxq_slots];
}

static void rx_pop(struct lan865x_emu *emu)
{
	if (emu->rx_head_sent)
		ethdrv_counter_inc(&emu->stats.rx_cut); /* the host saw its start, not its end */
	emu->rxq_head = (emu->rxq_head + 1) % emu->rxq_slots;
	emu->rxq_count--;
	emu->rx_head_sent = 0;
}

/* CONFIG0.RFA: where the model may start an RX frame in a chunk (docs/tc6.md §2.4). */
static unsigned rx_frame_alignment(const struct lan865x_emu *emu)
{
	return ETHDRV_FIELD_GET(CFG0_RFA, emu->config0);
}

/*
 * When the first @n bytes of @f are in the RX buffer: store and forward,
 * at the frame's end; cut-through (docs/tc6.md §5.4.1), a byte once it has
 * crossed the wire after the 8 bytes of preamble and SFD, and the last
 * chunk of the frame at its end, where the MAC has judged it (FD).
 */
static uint64_t rx_bytes_in_at(const struct lan865x_emu_rx_frame *f, size_t n)
{
	if (!f->cut_through || n >= f->len)
		return f->t_end;
	return f->t_start + (EMU_PREAMBLE_BYTES + n) * 8u * EMU_BIT_NS;
}

/*
 * Plan one RX chunk from cursor @c and advance it (docs/tc6.md §2.3, §2.4): first the
 * rest of a frame in progress, then, if allowed, the start of the next
 * visible frame (at word 0 only with ZARFE/CSARFE; without alignment also
 * after an EV in the same chunk, as long as the new frame does not end in
 * this chunk too, because a footer has one EV). A chunk goes out only when
 * all its bytes are in at @t_vis: a cut-through frame's data shows a full
 * chunk at a time (docs/tc6.md §5.4.1).
 */
static void rx_plan_chunk(struct lan865x_emu *emu, struct rx_cursor *c, unsigned cs, uint64_t t_vis,
			  bool may_start, struct rx_plan *pl)
{
	size_t pos = 0, w, n;
	struct lan865x_emu_rx_frame *f;

	memset(pl, 0, sizeof(*pl));
	if (c->idx < emu->rxq_count && c->off > 0) {
		f = rxq_at(emu, c->idx);
		n = ETHDRV_MIN(f->len - c->off, (size_t)cs);
		if (rx_bytes_in_at(f, c->off + n) > t_vis)
			return;
		pl->seg[pl->nseg++] = (struct rx_seg){ c->idx, c->off, n, 0 };
		pl->bits |= DF_DV;
		if (c->off + n < f->len) {
			c->off += n;
			return;
		}
		pl->bits |= DF_EV | ETHDRV_FIELD_PREP(DF_EBO, n - 1) | (f->fd ? DF_FD : 0);
		c->idx++;
		c->off = 0;
		pos = n;
	}
	if (!may_start || c->idx >= emu->rxq_count)
		return;
	f = rxq_at(emu, c->idx);
	w = (pos + 3) / 4;
	if ((pos > 0 && rx_frame_alignment(emu)) || 4 * w >= cs ||
	    (pos > 0 && 4 * w + f->len <= cs))
		return;
	n = ETHDRV_MIN(f->len, cs - 4 * w);
	if (rx_bytes_in_at(f, n) > t_vis)
		return;
	pl->seg[pl->nseg++] = (struct rx_seg){ c->idx, 0, n, 4 * w };
	pl->bits |= DF_DV | DF_SV | ETHDRV_FIELD_PREP(DF_SWO, w);
	if (n < f->len) {
		c->off = n;
		return;
	}
	pl->bits |= DF_EV | ETHDRV_FIELD_PREP(DF_EBO, 4 * w + n - 1) | (f->fd ? DF_FD : 0);
	c->idx++;
}

/* Chunks the host still has to read for frames visible at @t_vis, up to @cap. */
unsigned lan865x_emu__rx_chunks_pending(struct lan865x_emu *emu, uint64_t t_vis, unsigned cap)
{
	struct rx_cursor c = { 0, emu->rx_head_sent };
	struct rx_plan pl;
	unsigned n = 0;

	while (n < cap) {
		rx_plan_chunk(emu, &c, lan865x_emu_payload_size(emu), t_vis, true, &pl);
		if (!(pl.bits & DF_DV))
			break;
		n++;
	}
	return n;
}

/*
 * The time at which the next RX chunk not in at @t will be: the chunk after
 * those the host can read then; 0 when no frame is arriving.
 */
uint64_t lan865x_emu__rx_next_visible(struct lan865x_emu *emu, uint64_t t)
{
	unsigned cs = lan865x_emu_payload_size(emu);
	struct rx_cursor c = { 0, emu->rx_head_sent }, next;
	struct rx_plan pl;
	uint64_t at = 0;

	do {
		next = c;
		rx_plan_chunk(emu, &c, cs, t, true, &pl);
	} while (pl.bits & DF_DV);
	rx_plan_chunk(emu, &next, cs, UINT64_MAX, true, &pl);
	for (unsigned i = 0; i < pl.nseg; i++)
		at = ETHDRV_MAX(at, rx_bytes_in_at(rxq_at(emu, pl.seg[i].idx),
						   pl.seg[i].off + pl.seg[i].n));
	return at;
}

/* RX buffer occupancy in chunks of the current payload size. */
static unsigned rx_occupancy(struct lan865x_emu *emu)
{
	unsigned cs = lan865x_emu_payload_size(emu), occ = 0;

	for (unsigned i = 0; i < emu->rxq_count; i++) {
		size_t rem = rxq_at(emu, i)->len - (i == 0 ? emu->rx_head_sent : 0);

		occ += (unsigned)((rem + cs - 1) / cs);
	}
	return occ;
}

/* Fill one RX payload (already zeroed) and return its footer bits. */
uint32_t lan865x_emu__rx_fill_chunk(struct lan865x_emu *emu, uint8_t *out, unsigned cs,
				    uint64_t t_vis, bool first)
{
	struct rx_cursor c = { 0, emu->rx_head_sent };
	/* docs/tc6.md §2.4 CSARFE: a frame starts only in the first chunk of a transfer. */
	bool may_start = !(rx_frame_alignment(emu) & RFA_CSARFE) || first;
	struct rx_plan pl;

	/* Errata s3, reproduced (cfg.errata_s3): after a chunk that ended one
	 * frame and began the next, RX data no longer moves until a reset
	 * (docs/tc6.md §5.6); RCA still counts what waits. */
	if (emu->rx_halted)
		return 0;
	rx_plan_chunk(emu, &c, cs, t_vis, may_start, &pl);
	if (pl.nseg == 2) {
		ethdrv_counter_inc(&emu->stats.rx_shared_chunks);
		emu->rx_halted = emu->cfg.errata_s3;
	}
	for (unsigned i = 0; i < pl.nseg; i++) {
		memcpy(out + pl.seg[i].dst, rxq_at(emu, pl.seg[i].idx)->data + pl.seg[i].off,
		       pl.seg[i].n);
		if (pl.seg[i].off == 0)
			ethdrv_counter_inc(&emu->stats.rx_started);
	}
	for (unsigned i = 0; i < c.idx; i++) {
		emu->rx_head_sent = 0; /* delivered, not cut */
		rx_pop(emu);
		ethdrv_counter_inc(&emu->stats.rx_delivered);
	}
	emu->rx_head_sent = c.off;
	return pl.bits;
}

/*
 * Store a frame the MAC accepted, or drop it with RXBOE if the whole of it
 * would not fit (docs/tc6.md §3.4); @ct: as it begins on the wire at
 * @t_start (RX cut-through, docs/tc6.md §5.4.1), else once it has ended.
 */
static void rx_store_frame(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd, bool ct,
			   uint64_t t_start, uint64_t t_end)
{
	unsigned cs = lan865x_emu_payload_size(emu);
	unsigned cap = (unsigned)((uint64_t)emu->cfg.rx_buf_chunks * MAX_PAYLOAD / cs);
	size_t hlen =
		(emu->mac[MAC_NCFGR] & NCFGR_RFCS) ? len - 4 : len; /* docs/tc6.md §2.4 RFCS */
	struct lan865x_emu_rx_frame *r;

	if (lan865x_emu__take_rx_overflow(emu)) {
		emu->status0 |= ST0_RXBOE;
		ethdrv_counter_inc(&emu->stats.rx_dropped_overflow);
		emu_loss_injected(&emu->stats.rx_loss);
		return;
	}
	if (emu->rxq_count == emu->rxq_slots || rx_occupancy(emu) + (hlen + cs - 1) / cs > cap) {
		emu->status0 |= ST0_RXBOE;
		ethdrv_counter_inc(&emu->stats.rx_dropped_overflow);
		/* Whose fault (docs/design.md §4.8): the frame's wire end against now. */
		emu_loss_count(&emu->stats.rx_loss, t_end, lan865x_emu__now(emu), emu->host_seen,
			       emu->cfg.realtime);
		return;
	}
	r = rxq_at(emu, emu->rxq_count);
	memcpy(r->data, f, hlen);
	r->len = hlen;
	r->fd = fd;
	r->cut_through = ct;
	r->t_start = t_start;
	r->t_end = t_end;
	emu->rxq_count++;
	ethdrv_counter_inc(&emu->stats.rx_frames);
	ethdrv_counter_add(&emu->stats.rx_bytes, hlen);
}

void lan865x_emu__rx_store(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd,
			   uint64_t t_end)
{
	rx_store_frame(emu, f, len, fd, false, t_end, t_end);
}

void lan865x_emu__rx_store_early(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd,
				 uint64_t t_start, uint64_t t_end)
{
	rx_store_frame(emu, f, len, fd, true, t_start, t_end);
}

/* RXBOE on a stored frame: the head of the buffer is lost, even if partly read. */
void lan865x_emu__rx_drop_head(struct lan865x_emu *emu)
{
	emu->status0 |= ST0_RXBOE;
	ethdrv_counter_inc(&emu->stats.rx_dropped_overflow);
	ethdrv_counter_inc(&emu->stats.rx_overflow_buffered);
	emu_loss_injected(&emu->stats.rx_loss);
	rx_pop(emu);
}

void lan865x_emu__rx_flush(struct lan865x_emu *emu)
{
	if (emu->rx_head_sent)
		ethdrv_counter_inc(&emu->stats.rx_cut);
	ethdrv_counter_add(&emu->stats.rx_flushed, emu->rxq_count);
	emu->rxq_head = 0;
	emu->rxq_count = 0;
	emu->rx_head_sent = 0;
	emu->rx_halted = false;
}
