// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: data transactions (docs/tc6.md §2). It owns the chunk engine
 * (one data header and payload in, one payload and footer out, per chunk), the
 * TX buffer (the frame being assembled, then a ring of frames for the medium,
 * charged in chunks against the 48 credits of docs/tc6.md §5.4), the RX buffer
 * (a ring of frames the host reads chunk by chunk), the footer fields, and the
 * IRQ_N rules of docs/tc6.md §2.5. The MAC's TX side (FCS, padding, size limit)
 * is applied when a frame's EV chunk completes it. The assumptions are listed
 * in lan865x_emu.h.
 */
#include <string.h>
#include <unistd.h>

#include "crc32.h"
#include "ethdrv/compiler.h"
#include "lan865x_emu_priv.h"

#define ETH_ZLEN 60u /* shortest frame before FCS; shorter ones are padded */

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

/* ---- IRQ_N (docs/tc6.md §2.5) ---- */

/* The line (the level eventfd) follows emu->irq_asserted. */
static void irq_set_line(struct lan865x_emu *emu, bool asserted)
{
	uint64_t v = 1;

	if (emu->irq_on_line == asserted)
		return;
	if (asserted ? write(emu->irq_fd, &v, sizeof(v)) == (ssize_t)sizeof(v) :
		       read(emu->irq_fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		emu->irq_on_line = asserted;
}

/*
 * Show the level on the line, unless a transfer is between its processing
 * and its end on the bus: what it changed shows at that end, and so does
 * anything else that changed meanwhile (later, never earlier than its
 * physical time: docs/design.md §4.2).
 */
void lan865x_emu__irq_sync(struct lan865x_emu *emu)
{
	if (!emu->xfers_pending)
		irq_set_line(emu, emu->irq_asserted);
}

void lan865x_emu__irq_assert(struct lan865x_emu *emu)
{
	if (emu->irq_asserted)
		return;
	emu->irq_asserted = true;
	ethdrv_counter_inc(&emu->stats.irq_asserts);
}

static void irq_deassert(struct lan865x_emu *emu)
{
	emu->irq_asserted = false;
}

static bool exst_pending(const struct lan865x_emu *emu)
{
	return (emu->status0 & ~emu->imask0 & ST0_ALL) || (emu->status1 & ~emu->imask1);
}

static unsigned txc_threshold(const struct lan865x_emu *emu)
{
	static const unsigned thr[4] = { 1, 4, 8, 16 }; /* docs/tc6.md §3.3 TXCTHRESH */

	return thr[ETHDRV_FIELD_GET(CFG0_TXCTHRESH, emu->config0)];
}

/*
 * Assert IRQ_N for any event the last footer did not report
 * (docs/tc6.md §2.5), judged at the model's now: RX data visible at a
 * later bus time is no news yet.
 */
void lan865x_emu__irq_update(struct lan865x_emu *emu)
{
	uint64_t t = lan865x_emu__now(emu);
	bool rca = lan865x_emu_frame_data_enabled(emu) &&
		   lan865x_emu__rx_chunks_pending(emu, t, 1) > 0;
	bool txc = lan865x_emu__tx_free(emu) >= txc_threshold(emu);
	bool exst = exst_pending(emu);

	/* A condition that went away is no longer "reported": its next rise is news. */
	emu->last_footer.rca_nonzero &= rca;
	emu->last_footer.txc_at_threshold &= txc;
	emu->last_footer.exst &= exst;
	if ((rca && !emu->last_footer.rca_nonzero) || (txc && !emu->last_footer.txc_at_threshold) ||
	    (exst && !emu->last_footer.exst))
		lan865x_emu__irq_assert(emu);
	lan865x_emu__irq_sync(emu);
}

/* ---- TX buffer ---- */

static struct lan865x_emu_tx_frame *txq_at(struct lan865x_emu *emu, unsigned idx)
{
	return &emu->txq[(emu->txq_head + idx) % TX_SLOTS];
}

static unsigned tx_used(const struct lan865x_emu *emu)
{
	unsigned used = emu->tx_assembly.active ? emu->tx_assembly.chunks : 0;

	for (unsigned i = 0; i < emu->txq_count; i++)
		used += emu->txq[(emu->txq_head + i) % TX_SLOTS].chunks;
	return used;
}

unsigned lan865x_emu__tx_free(const struct lan865x_emu *emu)
{
	unsigned used = tx_used(emu);

	return used >= LAN865X_EMU_TX_CHUNKS ? 0 : LAN865X_EMU_TX_CHUNKS - used;
}

/* Frames queued that the medium has not pulled yet. */
bool lan865x_emu__tx_waiting(const struct lan865x_emu *emu)
{
	return emu->txq_count > emu->txq_on_wire;
}

/* Drop the frame being assembled, counting it in @why (NULL: not a loss). */
static void tx_abort(struct lan865x_emu *emu, ethdrv_counter_t *why)
{
	if (emu->tx_assembly.active && why)
		ethdrv_counter_inc(why);
	emu->tx_assembly.active = false;
	emu->tx_assembly.cut_by_overflow = false;
	emu->tx_assembly.len = 0;
	emu->tx_assembly.chunks = 0;
}

static void tx_append(struct lan865x_emu *emu, const uint8_t *p, size_t n)
{
	size_t len = emu->tx_assembly.len, room = len < TX_ASM_MAX ? TX_ASM_MAX - len : 0;

	memcpy(emu->tx_assembly.buf + len, p, ETHDRV_MIN(n, room));
	emu->tx_assembly.len += n;
}

/* The MAC side of EV: FCS, checks, queue for the medium (docs/tc6.md §2.4, §3.4). */
static void tx_finish(struct lan865x_emu *emu, uint64_t t_ready)
{
	uint8_t *buf = emu->tx_assembly.buf;
	size_t len = emu->tx_assembly.len;
	struct lan865x_emu_tx_frame *f;

	if (emu->tx_assembly.cut_by_overflow)
		return tx_abort(emu, &emu->stats.tx_dropped_overflow);
	if (len > EMU_FRAME_MAX || (!(emu->config0 & CFG0_TXFCSVE) && len + 4 > EMU_FRAME_MAX))
		return tx_abort(emu, &emu->stats.tx_dropped_oversize);
	if (emu->config0 & CFG0_TXFCSVE) {
		/* docs/tc6.md §2.4: the host supplied the FCS; the MAC validates it. */
		if (!emu_fcs_ok(buf, len)) {
			emu->status0 |= ST0_TXFCSE;
			return tx_abort(emu, &emu->stats.tx_fcs_errors);
		}
	} else {
		if (len < ETH_ZLEN) {
			memset(buf + len, 0, ETH_ZLEN - len);
			len = ETH_ZLEN;
		}
		emu_fcs_append(buf, len);
		len += 4;
	}
	if (!(emu->mac[MAC_NCR] & NCR_TXEN) || emu->txq_count == TX_SLOTS)
		return tx_abort(emu, &emu->stats.tx_dropped_disabled);
	f = txq_at(emu, emu->txq_count);
	memcpy(f->data, buf, len);
	f->len = len;
	f->chunks = emu->tx_assembly.chunks;
	f->t_ready = t_ready;
	emu->txq_count++;
	emu->tx_announce = true;
	tx_abort(emu, NULL);
}

static void tx_start(struct lan865x_emu *emu, bool cut_by_overflow)
{
	tx_abort(emu, NULL);
	ethdrv_counter_inc(&emu->stats.tx_started);
	emu->tx_assembly.active = true;
	emu->tx_assembly.cut_by_overflow = cut_by_overflow;
}

void lan865x_emu__tx_protocol_error(struct lan865x_emu *emu)
{
	emu->status0 |= ST0_TXPE;
	ethdrv_counter_inc(&emu->stats.txpe);
	tx_abort(emu, &emu->stats.tx_dropped_protocol);
}

/* LOFE (docs/tc6.md §3.4): CS rose inside a chunk; the frame being assembled is lost. */
void lan865x_emu__loss_of_framing(struct lan865x_emu *emu)
{
	emu->status0 |= ST0_LOFE;
	ethdrv_counter_inc(&emu->stats.lofe);
	tx_abort(emu, &emu->stats.tx_dropped_protocol);
}

/* A protocol error on a chunk with a good header; an SV in it is a frame
 * the host handed over and the chip refused: started and dropped. */
static void tx_refuse(struct lan865x_emu *emu, bool sv)
{
	lan865x_emu__tx_protocol_error(emu);
	if (sv) {
		ethdrv_counter_inc(&emu->stats.tx_started);
		ethdrv_counter_inc(&emu->stats.tx_dropped_protocol);
	}
}

/* One DV=1 TX chunk (docs/tc6.md §2.2, §2.4, §2.5). */
static void tx_chunk(struct lan865x_emu *emu, uint32_t hdr, const uint8_t *p, unsigned cs,
		     uint64_t t_end)
{
	bool sv = hdr & DH_SV, ev = hdr & DH_EV;
	size_t start = 4u * ETHDRV_FIELD_GET(DH_SWO, hdr);
	size_t ebo = ETHDRV_FIELD_GET(DH_EBO, hdr);
	bool ovf = lan865x_emu__tx_free(emu) == 0;
	/* EV closes the current frame unless the chunk starts a frame before it. */
	bool ends_cur = ev && (!sv || ebo < start);

	/* 1. Offsets must lie inside the payload. */
	if ((sv && start >= cs) || (ev && ebo >= cs))
		return tx_refuse(emu, sv);
	/* 2. Credits: a chunk beyond them is dropped, its frames are cut (docs/tc6.md §2.5). */
	if (ovf) {
		emu->status0 |= ST0_TXBOE;
		ethdrv_counter_inc(&emu->stats.txboe);
	}
	/* 3. Framing rules (docs/tc6.md §3.4 TXPE, triggers per lan865x_emu.h). */
	if (emu->tx_assembly.active) {
		if (sv && !ends_cur)
			return tx_refuse(emu, true);
		emu->tx_assembly.cut_by_overflow |= ovf;
		emu->tx_assembly.chunks += !ovf;
		if (!ends_cur) {
			tx_append(emu, p, cs);
			return;
		}
		tx_append(emu, p, ebo + 1);
		tx_finish(emu, t_end);
		if (!sv)
			return;
		tx_start(emu, ovf);
		tx_append(emu, p + start, cs - start);
		return;
	}
	if (!sv || ends_cur)
		return tx_refuse(emu, sv);
	tx_start(emu, ovf);
	emu->tx_assembly.chunks = !ovf;
	if (!ev) {
		tx_append(emu, p + start, cs - start);
		return;
	}
	tx_append(emu, p + start, ebo + 1 - start);
	tx_finish(emu, t_end);
}

void lan865x_emu__tx_flush(struct lan865x_emu *emu)
{
	unsigned lost = emu->txq_count - emu->txq_on_wire + (emu->tx_assembly.active ? 1u : 0u);

	/* Frames the medium pulled are on the wire: tx_left_wire still counts them. */
	ethdrv_counter_add(&emu->stats.tx_flushed, lost);
	emu->tx_on_wire_at_reset += emu->txq_on_wire;
	tx_abort(emu, NULL);
	emu->txq_head = 0;
	emu->txq_count = 0;
	emu->txq_on_wire = 0;
}

/* The medium takes the oldest frame not on the wire yet, if it may go. */
bool lan865x_emu__tx_take_for_wire(struct lan865x_emu *emu, uint8_t *buf, size_t max, size_t *len,
				   uint64_t *t_ready)
{
	struct lan865x_emu_tx_frame *f;

	if (!lan865x_emu__tx_waiting(emu) || !lan865x_emu_frame_data_enabled(emu) ||
	    !(emu->mac[MAC_NCR] & NCR_TXEN))
		return false;
	f = txq_at(emu, emu->txq_on_wire);
	if (f->len > max)
		return false;
	memcpy(buf, f->data, f->len);
	*len = f->len;
	*t_ready = f->t_ready;
	emu->txq_on_wire++;
	return true;
}

/* The oldest frame on the wire has left it: count it and free its chunks. */
void lan865x_emu__tx_left_wire(struct lan865x_emu *emu)
{
	/* After a reset the ring no longer holds the frame on the wire, but it
	 * did reach the wire: count it. */
	if (emu->txq_on_wire == 0 && emu->tx_on_wire_at_reset > 0) {
		emu->tx_on_wire_at_reset--;
		ethdrv_counter_inc(&emu->stats.tx_frames);
		return;
	}
	if (emu->txq_on_wire == 0)
		return;
	ethdrv_counter_inc(&emu->stats.tx_frames);
	ethdrv_counter_add(&emu->stats.tx_bytes, txq_at(emu, 0)->len);
	emu->txq_head = (emu->txq_head + 1) % TX_SLOTS;
	emu->txq_count--;
	emu->txq_on_wire--;
	lan865x_emu__irq_update(emu); /* credits came back (docs/tc6.md §2.5) */
}

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
 * Plan one RX chunk from cursor @c and advance it (docs/tc6.md §2.3, §2.4): first the
 * rest of a frame in progress, then, if allowed, the start of the next
 * visible frame (at word 0 only with ZARFE/CSARFE; without alignment also
 * after an EV in the same chunk, as long as the new frame does not end in
 * this chunk too, because a footer has one EV).
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
	if (f->t_end > t_vis || (pos > 0 && rx_frame_alignment(emu)) || 4 * w >= cs ||
	    (pos > 0 && 4 * w + f->len <= cs))
		return;
	n = ETHDRV_MIN(f->len, cs - 4 * w);
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
static uint32_t rx_fill_chunk(struct lan865x_emu *emu, uint8_t *out, unsigned cs, uint64_t t_vis,
			      bool first)
{
	struct rx_cursor c = { 0, emu->rx_head_sent };
	/* docs/tc6.md §2.4 CSARFE: a frame starts only in the first chunk of a transfer. */
	bool may_start = !(rx_frame_alignment(emu) & RFA_CSARFE) || first;
	struct rx_plan pl;

	rx_plan_chunk(emu, &c, cs, t_vis, may_start, &pl);
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

/* Store a frame the MAC accepted, or drop it with RXBOE if it does not fit (docs/tc6.md §3.4). */
void lan865x_emu__rx_store(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd,
			   uint64_t t_end)
{
	unsigned cs = lan865x_emu_payload_size(emu);
	unsigned cap = (unsigned)((uint64_t)emu->cfg.rx_buf_chunks * MAX_PAYLOAD / cs);
	size_t hlen =
		(emu->mac[MAC_NCFGR] & NCFGR_RFCS) ? len - 4 : len; /* docs/tc6.md §2.4 RFCS */
	struct lan865x_emu_rx_frame *r;

	if (lan865x_emu__take_rx_overflow(emu) || emu->rxq_count == emu->rxq_slots ||
	    rx_occupancy(emu) + (hlen + cs - 1) / cs > cap) {
		emu->status0 |= ST0_RXBOE;
		ethdrv_counter_inc(&emu->stats.rx_dropped_overflow);
		return;
	}
	r = rxq_at(emu, emu->rxq_count);
	memcpy(r->data, f, hlen);
	r->len = hlen;
	r->fd = fd;
	r->t_end = t_end;
	emu->rxq_count++;
	ethdrv_counter_inc(&emu->stats.rx_frames);
	ethdrv_counter_add(&emu->stats.rx_bytes, hlen);
}

/* RXBOE on a stored frame: the head of the buffer is lost, even if partly read. */
void lan865x_emu__rx_drop_head(struct lan865x_emu *emu)
{
	emu->status0 |= ST0_RXBOE;
	ethdrv_counter_inc(&emu->stats.rx_dropped_overflow);
	ethdrv_counter_inc(&emu->stats.rx_overflow_buffered);
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
}

/* ---- data transactions (docs/tc6.md §2) ---- */

static uint32_t data_footer(struct lan865x_emu *emu, bool hdrb, uint32_t rxbits, uint64_t t_vis)
{
	unsigned rca = 0, txc = ETHDRV_MIN(lan865x_emu__tx_free(emu), 31u);
	bool exst = exst_pending(emu), sync = emu->config0 & CFG0_SYNC;
	uint32_t f;

	if (lan865x_emu_frame_data_enabled(emu))
		rca = lan865x_emu__rx_chunks_pending(emu, t_vis, 31);
	f = (exst ? DF_EXST : 0) | (hdrb ? DF_HDRB : 0) | (sync ? DF_SYNC : 0) |
	    ETHDRV_FIELD_PREP(DF_RCA, rca) | rxbits | ETHDRV_FIELD_PREP(DF_TXC, txc);
	/* Remember what the host has been told (docs/tc6.md §2.5 "not already reported"). */
	emu->last_footer.rca_nonzero = rca > 0;
	emu->last_footer.txc_at_threshold = txc >= txc_threshold(emu);
	emu->last_footer.exst = exst;
	return lan865x_emu_with_parity(f);
}

/* One chunk: MOSI header+payload in @in, MISO payload+footer to @out (docs/tc6.md §2.1). */
static void data_chunk(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out, unsigned cs,
		       uint64_t t_start, uint64_t t_end, bool first)
{
	uint32_t hdr = lan865x_emu__header_as_received(emu, lan865x_emu_get_be32(in)), rxbits = 0;
	bool enabled = lan865x_emu_frame_data_enabled(emu); /* docs/tc6.md §4.1, §6 */

	ethdrv_counter_inc(&emu->stats.chunks);
	memset(out, 0, cs);
	if (!lan865x_emu_parity_ok(hdr) || !(hdr & HDR_DNC)) {
		emu->status0 |= ST0_HDRE; /* docs/tc6.md §2.3 HDRB: the chunk is not accepted */
		ethdrv_counter_inc(&emu->stats.hdr_errors);
		lan865x_emu_put_be32(out, cs + 4, cs, data_footer(emu, true, 0, t_start));
		return;
	}
	irq_deassert(emu); /* docs/tc6.md §2.5: the next data header releases IRQ_N */
	if (enabled && (hdr & DH_DV))
		tx_chunk(emu, hdr, in + 4, cs, t_end);
	/* An internal fault discards frame data; a frame begun now is lost here
	 * (the footer still shows a good header and SYNC, so the host counts it
	 * as taken). */
	if (emu->internal_fault && (hdr & DH_DV) && (hdr & DH_SV)) {
		ethdrv_counter_inc(&emu->stats.tx_started);
		ethdrv_counter_inc(&emu->stats.tx_dropped_disabled);
	}
	if (enabled && !(hdr & DH_NORX))
		rxbits = rx_fill_chunk(emu, out, cs, t_start, first);
	lan865x_emu_put_be32(out, cs + 4, cs, data_footer(emu, false, rxbits, t_start));
}

void lan865x_emu__data_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out,
				size_t len, uint64_t t0)
{
	unsigned cs = lan865x_emu_payload_size(emu);
	size_t clen = cs + 4u, n = len / clen, rest = len % clen;

	for (size_t k = 0; k < n; k++) {
		uint64_t ts = t0 + emu->cfg.setup_ns + lan865x_emu__spi_ns(emu, k * clen);

		data_chunk(emu, in + k * clen, out + k * clen, cs, ts,
			   ts + lan865x_emu__spi_ns(emu, clen), k == 0);
	}
	if (!rest)
		return;
	/* Loss of framing: CS rose inside a chunk (docs/tc6.md §3.4, assumption in the header). */
	memset(out + n * clen, 0, rest);
	lan865x_emu__loss_of_framing(emu);
}
