// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: the TX buffer. It owns the frame being assembled from the
 * host's chunks (the framing rules of docs/tc6.md §2.4 and their errors,
 * docs/tc6.md §3.4), the ring of frames for the medium, charged in chunks
 * against the 48 credits of docs/tc6.md §5.4, and the MAC's TX side (FCS,
 * padding, size limit) applied when a frame's EV chunk completes it, and
 * TX cut-through (docs/tc6.md §5.4.1): the start on the wire once the
 * threshold is in, an underrun when the host falls behind the wire. The
 * assumptions are listed in lan865x_emu.h.
 */
#include <string.h>

#include "crc32.h"
#include "ethdrv/compiler.h"
#include "lan865x_emu_priv.h"

#define ETH_ZLEN 60u /* shortest frame before FCS; shorter ones are padded */

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
	emu->tx_assembly.cut_through = false;
	emu->tx_assembly.t_threshold = 0;
	emu->tx_assembly.len = 0;
	emu->tx_assembly.chunks = 0;
}

/* Cut-through: the bytes that must be in before the MAC may start (QTXCFG.CTTHR blocks). */
static size_t tx_ct_threshold(const struct lan865x_emu *emu)
{
	return (ETHDRV_FIELD_GET(QTXCFG_CTTHR, emu->qtxcfg) + 1u) * MAX_PAYLOAD;
}

/*
 * A chunk of a cut-through frame, in at @t_end, brings its bytes from
 * offset @have: the frame started on the wire when the threshold was in
 * (the earliest it can: the model's assumption, lan865x_emu.h), so byte
 * @have is on the wire at t_threshold + (preamble + @have) byte times. Late:
 * the MAC ends the frame, sets TXBUE and ignores the rest of it
 * (docs/tc6.md §5.4.1). False when the frame was dropped.
 */
static bool tx_ct_in_time(struct lan865x_emu *emu, size_t have, uint64_t t_end)
{
	uint64_t need;

	if (!emu->tx_assembly.cut_through || !emu->tx_assembly.t_threshold)
		return true;
	need = emu->tx_assembly.t_threshold + (EMU_PREAMBLE_BYTES + have) * 8u * EMU_BIT_NS;
	if (t_end <= need)
		return true;
	emu->status0 |= ST0_TXBUE;
	ethdrv_counter_inc(&emu->stats.txbue);
	tx_abort(emu, &emu->stats.tx_dropped_underrun);
	emu->tx_assembly.discarding = true;
	return false;
}

/* The frame's bytes up to len are in at @t_end: the cut-through threshold met? */
static void tx_ct_progress(struct lan865x_emu *emu, uint64_t t_end)
{
	if (emu->tx_assembly.cut_through && !emu->tx_assembly.t_threshold &&
	    emu->tx_assembly.len >= tx_ct_threshold(emu))
		emu->tx_assembly.t_threshold = t_end;
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
	/* Cut-through: it could start once the threshold was in (docs/tc6.md §5.4.1). */
	f->t_ready = emu->tx_assembly.t_threshold ? emu->tx_assembly.t_threshold : t_ready;
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
	/* Cut-through only for a frame with none ahead of it in the buffer: one
	 * behind others cannot start before they have left the wire, a time
	 * the model does not know yet (lan865x_emu.h). */
	emu->tx_assembly.cut_through = (emu->config0 & CFG0_TXCTE) && !emu->txq_count;
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

/*
 * A refused chunk (bad header parity, footer HDRB, docs/tc6.md §2.3): the
 * chip cannot tell whether it carried frame data, so the frame being
 * assembled is dropped and the rest of whatever frame the chunk belonged to
 * is ignored up to the next SV, without TXPE (docs/tc6.md §2.4.1).
 */
void lan865x_emu__tx_refused_chunk(struct lan865x_emu *emu)
{
	tx_abort(emu, &emu->stats.tx_dropped_protocol);
	emu->tx_assembly.discarding = true;
}

/*
 * Begin a frame at byte @start of the chunk @p: all of it when it ends in
 * this chunk (@ev, last byte at @ebo), else its first part. @charge: the
 * chunk counts against the frame's credits (not when it also ended the
 * frame before, which holds it).
 */
static void tx_begin(struct lan865x_emu *emu, const uint8_t *p, unsigned cs, size_t start, bool ev,
		     size_t ebo, bool ovf, bool charge, uint64_t t_end)
{
	tx_start(emu, ovf);
	emu->tx_assembly.chunks = charge && !ovf;
	if (!ev) {
		tx_append(emu, p + start, cs - start);
		tx_ct_progress(emu, t_end);
		return;
	}
	tx_append(emu, p + start, ebo + 1 - start);
	tx_finish(emu, t_end);
}

/*
 * SV while a frame is in progress (no EV before it in the chunk): TXPE and
 * the open frame is dropped; by default the new frame starts here
 * (docs/tc6.md §2.4.1), with cfg.sv_open = LAN865X_EMU_SV_OPEN_IGNORE its SV
 * chunk is refused too (the model's behaviour before issue 10).
 */
static void tx_sv_while_open(struct lan865x_emu *emu, const uint8_t *p, unsigned cs, size_t start,
			     bool ev, size_t ebo, bool ovf, uint64_t t_end)
{
	if (emu->cfg.sv_open == LAN865X_EMU_SV_OPEN_IGNORE)
		return tx_refuse(emu, true);
	lan865x_emu__tx_protocol_error(emu);
	tx_begin(emu, p, cs, start, ev, ebo, ovf, true, t_end);
}

/* One DV=1 TX chunk (docs/tc6.md §2.2, §2.4, §2.5). */
void lan865x_emu__tx_chunk(struct lan865x_emu *emu, uint32_t hdr, const uint8_t *p, unsigned cs,
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
	/* 3. After a refused chunk, the rest of its frame is ignored up to an SV. */
	if (emu->tx_assembly.discarding) {
		emu->tx_assembly.discarding = !sv && !ev;
		if (sv)
			tx_begin(emu, p, cs, start, ev && !ends_cur, ebo, ovf, true, t_end);
		return;
	}
	/* 4. Framing rules (docs/tc6.md §3.4 TXPE, triggers per lan865x_emu.h). */
	if (emu->tx_assembly.active) {
		if (sv && !ends_cur)
			return tx_sv_while_open(emu, p, cs, start, ev, ebo, ovf, t_end);
		emu->tx_assembly.cut_by_overflow |= ovf;
		emu->tx_assembly.chunks += !ovf;
		if (!tx_ct_in_time(emu, emu->tx_assembly.len, t_end)) {
			if (sv && ends_cur) { /* a new frame after the EV: it starts */
				emu->tx_assembly.discarding = false;
				tx_begin(emu, p, cs, start, false, 0, ovf, true, t_end);
			}
			return;
		}
		if (!ends_cur) {
			tx_append(emu, p, cs);
			tx_ct_progress(emu, t_end);
			return;
		}
		tx_append(emu, p, ebo + 1);
		tx_finish(emu, t_end);
		if (sv)
			tx_begin(emu, p, cs, start, false, 0, ovf, false, t_end);
		return;
	}
	if (!sv || ends_cur)
		return tx_refuse(emu, sv);
	tx_begin(emu, p, cs, start, ev, ebo, ovf, true, t_end);
}

void lan865x_emu__tx_flush(struct lan865x_emu *emu)
{
	unsigned lost = emu->txq_count - emu->txq_on_wire + (emu->tx_assembly.active ? 1u : 0u);

	/* Frames the medium pulled are on the wire: tx_left_wire still counts them. */
	ethdrv_counter_add(&emu->stats.tx_flushed, lost);
	emu->tx_on_wire_at_reset += emu->txq_on_wire;
	tx_abort(emu, NULL);
	emu->tx_assembly.discarding = false;
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
