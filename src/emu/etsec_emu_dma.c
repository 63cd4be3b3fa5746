// SPDX-License-Identifier: MIT
/*
 * eTSEC model: the buffer descriptor codec and the TX and RX DMA
 * (docs/etsec.md §3). BDs are big-endian in memory unless DMACTRL[LE]
 * (docs/etsec.md §3.1); the status halfword carries ownership, read with acquire and
 * written with release ordering. Every DMA access is checked against the
 * region: outside it is EBERR and a halted ring (docs/etsec.md §11).
 */
#include <string.h>

#include "crc32.h"
#include "etsec_emu_priv.h"

#define PREAMBLE_BYTES 8u
#define MIN_FRAME 60u /* without FCS */

/* ---- the codec (docs/etsec.md §3.1) ---- */

/* True when BDs are little-endian in memory (DMACTRL[LE]). */
static bool bd_le(const struct etsec_emu *emu)
{
	return etsec__reg(emu, R_DMACTRL) & DMACTRL_LE;
}

/* Swap when the memory order of BDs is not the host's. */
static bool bd_swap(const struct etsec_emu *emu)
{
	return bd_le(emu) != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
}

static uint16_t sw16(const struct etsec_emu *emu, uint16_t v)
{
	return bd_swap(emu) ? __builtin_bswap16(v) : v;
}

uint16_t etsec__bd_load16(const struct etsec_emu *emu, const uint8_t *p)
{
	return sw16(emu, ethdrv_dma_load16_acquire(p));
}

void etsec__bd_store16(const struct etsec_emu *emu, uint8_t *p, uint16_t v)
{
	ethdrv_dma_store16_release(p, sw16(emu, v));
}

static void bd_put16(const struct etsec_emu *emu, uint8_t *p, uint16_t v)
{
	ethdrv_dma_store16(p, sw16(emu, v));
}

/* The BD at @off of the ring at bus address @base, or NULL (outside the region). */
static uint8_t *bd_at(struct etsec_emu *emu, uint32_t base, uint32_t off, struct etsec_bd *bd)
{
	uint8_t *p = ethdrv_dma_to_virt(&emu->dma, (uint64_t)base + off, BD_SIZE);
	uint32_t a;

	if (!p)
		return NULL;
	bd->status = etsec__bd_load16(emu, p);
	bd->len = sw16(emu, ethdrv_dma_load16(p + 2));
	a = ethdrv_dma_load32(p + 4);
	bd->addr = bd_swap(emu) ? __builtin_bswap32(a) : a;
	return p;
}

/* A bus error (docs/etsec.md §11): EBERR, the direction's ring halted. */
static void dma_error(struct etsec_emu *emu, bool tx)
{
	ethdrv_counter_inc(&emu->st.dma_errors);
	if (tx) {
		emu->regs[R_TSTAT / 4] |= TSTAT_THLT0;
		emu->tx_walking = false;
	} else {
		emu->regs[R_RSTAT / 4] |= RSTAT_QHLT0;
	}
	etsec__event(emu, EV_EBERR);
}

static bool fault_bus(struct etsec_emu *emu, bool tx)
{
	return emu_fault_bus_error(&emu->faults, tx, &emu->st.faults);
}

/* ---- TX (docs/etsec.md §3.2, §3.4) ---- */

static uint32_t ring_next(uint32_t off, const struct etsec_bd *bd)
{
	return bd->status & TXBD_W ? 0 : off + BD_SIZE; /* W is bit 13 in both */
}

static void tx_halt(struct etsec_emu *emu, uint32_t ev)
{
	emu->regs[R_TSTAT / 4] |= TSTAT_THLT0;
	emu->tx_walking = false;
	if (ev)
		etsec__event(emu, ev);
}

static bool tx_may_run(const struct etsec_emu *emu)
{
	return emu->tx_walking && (etsec__reg(emu, R_MACCFG1) & MACCFG1_TX_EN) &&
	       !(etsec__reg(emu, R_MACCFG1) & MACCFG1_SOFT_RESET) &&
	       !(etsec__reg(emu, R_DMACTRL) & DMACTRL_GTS) &&
	       (etsec__reg(emu, R_TQUEUE) & TQUEUE_EN0);
}

/* The wire form of a fetched frame: TOE strip, pad and CRC (docs/etsec.md §3.2, §3.6). */
static void tx_finish_frame(struct etsec_emu *emu, struct etsec_txf *f, uint16_t first_status)
{
	uint32_t m2 = etsec__reg(emu, R_MACCFG2);
	bool pad = (first_status & TXBD_PADCRC) || (m2 & MACCFG2_PADCRC);
	bool crc = pad || (first_status & TXBD_TC) || (m2 & MACCFG2_CRCEN);

	if (first_status & TXBD_TOE) {
		uint32_t cut = ETHDRV_MIN(f->len, FCB_SIZE);

		memmove(f->data, f->data + cut, f->len - cut);
		f->len -= cut;
	}
	if (pad && f->len < MIN_FRAME) {
		memset(f->data + f->len, 0, MIN_FRAME - f->len);
		f->len = MIN_FRAME;
	}
	/* The MAC's CRC travels as FDX_FCS_APPEND: computed by the receiver that
	 * writes it, not twice (docs/etsec.md §11). */
	f->fcs = crc ? FDX_FCS_APPEND : FDX_FCS_RAW;
	if (crc)
		f->len += 4;
}

/* Fetch one frame at tx_fetch into the FIFO slot @f. 1: taken, 0: halted. */
static int tx_fetch_frame(struct etsec_emu *emu, struct etsec_txf *f)
{
	uint32_t base = etsec__reg(emu, R_TBASE0), off = emu->tx_fetch;
	uint16_t first_status = 0;
	struct etsec_bd bd;

	f->len = 0;
	f->nbd = 0;
	f->first = off;
	for (;;) {
		const uint8_t *buf;

		if (fault_bus(emu, true) || !bd_at(emu, base, off, &bd)) {
			dma_error(emu, true);
			return 0;
		}
		if (!(bd.status & TXBD_R)) {
			if (f->nbd) { /* prefetch found no L BD (docs/etsec.md §3.4) */
				ethdrv_counter_inc(&emu->st.tx_underruns);
				tx_halt(emu, EV_XFUN);
			} else {
				ethdrv_counter_inc(&emu->st.tx_halts);
				tx_halt(emu, 0);
			}
			return 0;
		}
		if (!bd.len || f->len + bd.len > ETSEC_EMU_FRAME_MAX) {
			ethdrv_counter_inc(&emu->st.tx_errors);
			tx_halt(emu, EV_TXE);
			return 0;
		}
		buf = ethdrv_dma_to_virt(&emu->dma, bd.addr, bd.len);
		if (!buf) {
			dma_error(emu, true);
			return 0;
		}
		if (!f->nbd)
			first_status = bd.status;
		memcpy(f->data + f->len, buf, bd.len);
		f->len += bd.len;
		f->nbd++;
		off = ring_next(off, &bd);
		if (bd.status & TXBD_L)
			break;
	}
	emu->tx_fetch = off;
	tx_finish_frame(emu, f, first_status);
	return 1;
}

void etsec__tx_walk(struct etsec_emu *emu, uint64_t now)
{
	while (tx_may_run(emu) && emu->fifo_count < emu->cfg.tx_fifo_frames) {
		unsigned slot = (emu->fifo_head + emu->fifo_count) % emu->cfg.tx_fifo_frames;
		struct etsec_txf *f = &emu->fifo[slot];
		uint64_t start, bns = etsec__byte_ns(emu);

		if (!tx_fetch_frame(emu, f))
			return;
		if (emu->tx_started && now > emu->tx_free_at)
			ethdrv_counter_add(&emu->st.tx_idle_ns, now - emu->tx_free_at);
		emu->tx_started = true;
		start = ETHDRV_MAX(now, emu->tx_free_at);
		f->end = start + (PREAMBLE_BYTES + f->len) * bns;
		emu->tx_free_at = f->end + ETSEC_GAP_BYTES * bns;
		emu->fifo_count++;
	}
}

/* The frame at the FIFO head has left the MAC: BD write-back, events. */
void etsec__tx_frame_end(struct etsec_emu *emu, uint64_t t)
{
	struct etsec_txf *f = &emu->fifo[emu->fifo_head];
	uint32_t base = etsec__reg(emu, R_TBASE0), off = f->first;

	for (unsigned i = 0; i < f->nbd; i++) {
		struct etsec_bd bd;
		uint8_t *p = bd_at(emu, base, off, &bd);

		if (!p)
			break; /* checked at fetch; TBASE0 moved since: nothing to write */
		etsec__bd_store16(emu, p, bd.status & ~(TXBD_R | TXBD_HW));
		if (bd.status & TXBD_I) {
			if (i + 1 < f->nbd)
				etsec__event(emu, EV_TXB);
			else
				etsec__coal_frame(emu, COAL_TX, t);
		}
		off = ring_next(off, &bd);
	}
	ethdrv_counter_inc(&emu->st.tx_frames);
	ethdrv_counter_add(&emu->st.tx_bytes, f->len);
	etsec__rmon_frame(emu, f->len, f->data, true, true);
	etsec__send(emu, f, t);
	emu->fifo_head = (emu->fifo_head + 1) % emu->cfg.tx_fifo_frames;
	emu->fifo_count--;
	if (emu->gtsc_pending && !emu->fifo_count) {
		emu->gtsc_pending = false;
		etsec__event(emu, EV_GTSC);
	}
	etsec__tx_walk(emu, t);
}

/* GTS or reset: fetched frames that have not started go back to the ring. */
void etsec__tx_drop_unstarted(struct etsec_emu *emu)
{
	unsigned keep = 0;

	/* The head frame is on the wire once the clock passed its start. */
	if (emu->fifo_count) {
		const struct etsec_txf *h = &emu->fifo[emu->fifo_head];
		uint64_t dur = (PREAMBLE_BYTES + h->len) * etsec__byte_ns(emu);

		keep = h->end - dur <= emu->now ? 1 : 0;
	}
	if (emu->fifo_count > keep) {
		unsigned first = (emu->fifo_head + keep) % emu->cfg.tx_fifo_frames;

		ethdrv_counter_add(&emu->st.tx_unstarted_dropped, emu->fifo_count - keep);
		emu->tx_fetch = emu->fifo[first].first;
		emu->fifo_count = keep;
		emu->tx_free_at = keep ? emu->fifo[emu->fifo_head].end +
						  ETSEC_GAP_BYTES * etsec__byte_ns(emu) :
					 emu->now;
	}
}

void etsec__dma_rewind(struct etsec_emu *emu, bool tx, bool rx)
{
	if (tx) {
		if (emu->fifo_count)
			ethdrv_counter_add(&emu->st.tx_unstarted_dropped, emu->fifo_count);
		emu->fifo_count = 0;
		emu->tx_fetch = 0;
		emu->tx_free_at = emu->now;
		if (emu->gtsc_pending) {
			emu->gtsc_pending = false;
			etsec__event(emu, EV_GTSC);
		}
	}
	if (rx)
		emu->rx_cur = 0;
}

/* ---- RX (docs/etsec.md §3.3-§3.5, §4.6) ---- */

static uint32_t hash_index(const uint8_t *da)
{
	/* docs/etsec.md §4.6: the reflected CRC without the final inversion,
	 * bit-reversed; its top 8 bits. */
	uint32_t crc = ~emu_crc32(da, 6), rev = 0;

	for (unsigned i = 0; i < 32; i++)
		if (crc & (1u << i))
			rev |= 1u << (31 - i);
	return rev >> 24;
}

static bool addr_match(const struct etsec_emu *emu, uint32_t off, const uint8_t *da)
{
	uint32_t a1 = etsec__reg(emu, off), a2 = etsec__reg(emu, off + 4);

	return da[5] == (a1 >> 24) && da[4] == ((a1 >> 16) & 0xFF) && da[3] == ((a1 >> 8) & 0xFF) &&
	       da[2] == (a1 & 0xFF) && da[1] == (a2 >> 24) && da[0] == ((a2 >> 16) & 0xFF) &&
	       (a1 | a2);
}

/* 0: refuse; else the BD bits of an accepted frame (BC, MC, M). */
static int rx_filter(const struct etsec_emu *emu, const uint8_t *da, uint16_t *bits)
{
	uint32_t rctrl = etsec__reg(emu, R_RCTRL);
	static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	bool ok = false;

	*bits = 0;
	if (!memcmp(da, bcast, 6)) {
		*bits = RXBD_BC;
		ok = !(rctrl & RCTRL_BC_REJ);
	} else if (da[0] & 1) {
		uint32_t h = hash_index(da);

		*bits = RXBD_MC;
		ok = etsec__reg(emu, R_GADDR0 + 4 * (h >> 5)) & (1u << (31 - (h & 31)));
	} else {
		for (uint32_t n = 0; n < 16 && !ok; n++)
			ok = addr_match(emu, R_MACSTNADDR1 + 8 * n, da);
	}
	if (!ok && (rctrl & RCTRL_PROM)) {
		*bits |= RXBD_M;
		ok = true;
	}
	return ok;
}

static bool rx_may_run(const struct etsec_emu *emu)
{
	uint32_t m1 = etsec__reg(emu, R_MACCFG1);

	return (m1 & MACCFG1_RX_EN) && !(m1 & MACCFG1_SOFT_RESET) &&
	       !(etsec__reg(emu, R_DMACTRL) & DMACTRL_GRS) &&
	       (etsec__reg(emu, R_RQUEUE) & RQUEUE_EN0);
}

/* No BD for a frame (docs/etsec.md §3.4): discarded, BSY, RDRP, ring halted. */
/* No empty BD (or the ring halted) for the frame ending at @t: BSY, QHLT0. */
static void rx_discard(struct etsec_emu *emu, uint64_t t, bool injected)
{
	ethdrv_counter_inc(&emu->st.rx_dropped_nobd);
	etsec__rmon_add(emu, RM_RDRP, 1);
	emu->regs[R_RSTAT / 4] |= RSTAT_QHLT0;
	etsec__event(emu, EV_BSY);
	/* Whose loss (docs/design.md §4.8): the frame's end @t against now. */
	if (injected)
		emu_loss_injected(&emu->st.rx_loss);
	else
		emu_loss_count(&emu->st.rx_loss, t, emu_engine_now(emu->eng), emu->rx_served,
			       emu_engine_realtime(emu->eng));
}

/* The bytes the buffers get: RxFCB, padding, frame (docs/etsec.md §3.5). */
static uint32_t rx_prefix(const struct etsec_emu *emu)
{
	uint32_t rctrl = etsec__reg(emu, R_RCTRL);

	return (ETHDRV_FIELD_GET(RCTRL_PRSDEP, rctrl) ? FCB_SIZE : 0) +
	       ETHDRV_FIELD_GET(RCTRL_PAL, rctrl);
}

/* Copy byte @i.. of (prefix zeros + frame) into @dst. */
static void rx_copy(uint8_t *dst, uint32_t from, uint32_t n, uint32_t prefix, const uint8_t *frame)
{
	uint32_t z = from < prefix ? ETHDRV_MIN(prefix - from, n) : 0;

	/* Not a byte loop: that took 8 % of the lab's CPU with TCP both ways. */
	memset(dst, 0, z);
	if (n > z)
		memcpy(dst + z, frame + (from + z - prefix), n - z);
}

static uint16_t rx_status_bits(const struct etsec_emu *emu, uint32_t len, bool fcs_ok)
{
	uint16_t st = 0;

	if (len > etsec__reg(emu, R_MAXFRM))
		st |= RXBD_LG;
	if (!fcs_ok)
		st |= RXBD_CR;
	return st;
}

/* Hand a written BD back with status @st; events per its I bit (docs/etsec.md §3.3). */
static void rx_close(struct etsec_emu *emu, uint8_t *p, uint16_t st, bool last, uint64_t t)
{
	etsec__bd_store16(emu, p, st);
	if (!(st & RXBD_I))
		return;
	if (last)
		etsec__coal_frame(emu, COAL_RX, t);
	else
		etsec__event(emu, EV_RXB);
}

/* Out of BDs part-way (docs/etsec.md §11): the last BD written gets L|OV. */
static void rx_cut(struct etsec_emu *emu, uint8_t *p, uint16_t st, uint64_t t)
{
	ethdrv_counter_inc(&emu->st.rx_cut);
	etsec__rmon_add(emu, RM_ROVR, 1);
	rx_close(emu, p, st | RXBD_L | RXBD_OV, true, t);
}

void etsec__rx_frame(struct etsec_emu *emu, const uint8_t *frame, uint32_t len, bool fcs_ok,
		     uint64_t t)
{
	uint32_t base = etsec__reg(emu, R_RBASE0), mrblr = etsec__reg(emu, R_MRBLR);
	uint32_t prefix = rx_prefix(emu), total, done = 0, off = emu->rx_cur;
	uint16_t addr_bits, err_bits, prev_st = 0;
	uint8_t *prev = NULL;

	if (len < 14 + 4 || !rx_may_run(emu)) {
		ethdrv_counter_inc(&emu->st.rx_dropped_disabled);
		return;
	}
	etsec__rmon_frame(emu, len, frame, false, fcs_ok);
	if (!rx_filter(emu, frame, &addr_bits)) {
		ethdrv_counter_inc(&emu->st.rx_dropped_filter);
		return;
	}
	if (mrblr < 64 || (mrblr & 63)) {
		ethdrv_counter_inc(&emu->st.rx_bad_mrblr);
		return;
	}
	if (emu_fault_rx_exhaust(&emu->faults, &emu->st.faults)) {
		rx_discard(emu, t, true);
		return;
	}
	if (etsec__reg(emu, R_RSTAT) & RSTAT_QHLT0) {
		rx_discard(emu, t, false);
		return;
	}
	err_bits = rx_status_bits(emu, len, fcs_ok);
	total = prefix + len;
	for (unsigned nbd = 0;; nbd++) {
		struct etsec_bd bd;
		uint8_t *p = NULL, *buf;
		uint32_t n = ETHDRV_MIN(mrblr, total - done);
		bool last;

		if (!fault_bus(emu, false))
			p = bd_at(emu, base, off, &bd);
		if (!p) {
			dma_error(emu, false);
			return;
		}
		if (!(bd.status & RXBD_E)) {
			if (nbd)
				rx_cut(emu, prev, prev_st, t);
			rx_discard(emu, t, false);
			emu->rx_cur = off;
			return;
		}
		buf = ethdrv_dma_to_virt(&emu->dma, bd.addr, n);
		if (!buf) {
			dma_error(emu, false);
			return;
		}
		/* The previous BD is closed once this one is known to be usable. */
		if (nbd)
			rx_close(emu, prev, prev_st, false, t);
		rx_copy(buf, done, n, prefix, frame);
		done += n;
		last = done == total;
		prev = p;
		prev_st = (bd.status & RXBD_SW) | (nbd ? 0 : RXBD_F);
		bd_put16(emu, p + 2, last ? (uint16_t)total : (uint16_t)n);
		off = bd.status & RXBD_W ? 0 : off + BD_SIZE;
		if (last) {
			rx_close(emu, p, prev_st | RXBD_L | addr_bits | err_bits, true, t);
			break;
		}
	}
	emu->rx_cur = off;
	emu->regs[R_RSTAT / 4] |= RSTAT_RXF0;
	ethdrv_counter_inc(&emu->st.rx_frames);
	ethdrv_counter_add(&emu->st.rx_bytes, total);
	if (err_bits & RXBD_CR)
		ethdrv_counter_inc(&emu->st.rx_crc_errors);
	if (err_bits & RXBD_LG)
		etsec__event(emu, EV_BABR);
}
