// SPDX-License-Identifier: MIT
/*
 * ENET model: the DMA engine's descriptor work (docs/enet.md §3). TX: walking ready BDs
 * into the TX FIFO when TDAR is written, and writing them back when the
 * frame has left the MAC. RX: the address filter, filling empty BDs with a
 * frame from the line, its status bits and MIB counts. Every BD and buffer
 * access is checked against the DMA region first; one outside it is a DMA
 * error (EBERR), never an access. The timing of frames on the wire lives
 * in enet_emu_line.c. Section numbers are docs/enet.md.
 */
#include <string.h>

#include "crc32.h"
#include "enet_emu_priv.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "descriptor access assumes a little-endian host (DBSWP=1 is native)");

#define ETH_ALEN 6u
#define ETH_ZLEN 60u /* shortest frame without FCS; the MAC pads to it */
#define FCS_LEN 4u
#define ETH_MIN_FRAME 64u /* with FCS */

/* ---- descriptor access (docs/enet.md §3.1-docs/enet.md §3.3) ---- */

static uint32_t bd_size(const struct enet_emu *emu)
{
	return (emu->regs[R_ECR / 4] & ECR_EN1588) ? BD_ENHANCED_SIZE : BD_LEGACY_SIZE;
}

static bool bd_big_endian(const struct enet_emu *emu)
{
	return !(emu->regs[R_ECR / 4] & ECR_DBSWP);
}

/* The BD at @off from ring start register @start_reg, or NULL outside the region. */
static uint8_t *bd_at(struct enet_emu *emu, uint32_t start_reg, uint32_t off)
{
	uint64_t bus = (uint64_t)emu->regs[start_reg / 4] + off;

	return ethdrv_dma_to_virt(&emu->dma, bus, bd_size(emu));
}

/* DBSWP=1: LE16 length at +0, LE16 status at +2; DBSWP=0: BE16 status at
 * +0, BE16 length at +2; the address is the word at +4 either way (docs/enet.md §3.1). */
static uint16_t bd_status(const struct enet_emu *emu, const uint8_t *bd)
{
	if (bd_big_endian(emu))
		return __builtin_bswap16(ethdrv_dma_load16_acquire(bd));
	return ethdrv_dma_load16_acquire(bd + 2);
}

static void bd_set_status(const struct enet_emu *emu, uint8_t *bd, uint16_t st)
{
	if (bd_big_endian(emu))
		ethdrv_dma_store16_release(bd, __builtin_bswap16(st));
	else
		ethdrv_dma_store16_release(bd + 2, st);
}

static void bd_read(const struct enet_emu *emu, const uint8_t *bd, struct enet_bd *out)
{
	out->status = bd_status(emu, bd);
	if (bd_big_endian(emu)) {
		out->len = __builtin_bswap16(ethdrv_dma_load16(bd + 2));
		out->addr = __builtin_bswap32(ethdrv_dma_load32(bd + 4));
	} else {
		out->len = ethdrv_dma_load16(bd);
		out->addr = ethdrv_dma_load32(bd + 4);
	}
}

static void bd_set_len(const struct enet_emu *emu, uint8_t *bd, uint16_t len)
{
	if (bd_big_endian(emu))
		ethdrv_dma_store16(bd + 2, __builtin_bswap16(len));
	else
		ethdrv_dma_store16(bd, len);
}

/* Enhanced 32-bit words (ESC at +8, BDU at +16) in the BD's byte order. */
static uint32_t bdx_load(const struct enet_emu *emu, const uint8_t *bd, uint32_t at)
{
	uint32_t v = ethdrv_dma_load32(bd + at);

	return bd_big_endian(emu) ? __builtin_bswap32(v) : v;
}

static void bdx_store(const struct enet_emu *emu, uint8_t *bd, uint32_t at, uint32_t v)
{
	ethdrv_dma_store32(bd + at, bd_big_endian(emu) ? __builtin_bswap32(v) : v);
}

static bool bd_enhanced(const struct enet_emu *emu)
{
	return bd_size(emu) == BD_ENHANCED_SIZE;
}

static uint32_t bd_next(const struct enet_emu *emu, uint32_t off, uint16_t status)
{
	return (status & RXBD_W) ? 0 : off + bd_size(emu); /* W is bit 13 in both rings */
}

/* ---- DMA errors and resets (docs/enet.md §3.4, §10 item 5, docs/enet.md §10 item 11) ---- */

void enet__dma_reset(struct enet_emu *emu)
{
	emu->rx_off = 0;
	emu->tx_fetch = 0;
	emu->regs[R_RDAR / 4] = 0;
	emu->regs[R_TDAR / 4] = 0;
	emu->tdar_clear_at = 0;
	emu->tx_dma_at = 0;
	emu->gra_pending = false;
}

/* The walk stopped at a BD it does not own: TDAR clears once the DMA has
 * read that BD (docs/enet.md §3.4, fetch latency: enet_emu.h). */
static void tdar_stop_at(struct enet_emu *emu, uint64_t t)
{
	emu->tdar_clear_at = t;
	emu->tx_dma_at = t;
}

uint32_t enet__tdar_read(struct enet_emu *emu, uint64_t now)
{
	if (emu->tdar_clear_at && now >= emu->tdar_clear_at) {
		emu->regs[R_TDAR / 4] = 0;
		emu->tdar_clear_at = 0;
	}
	return emu->regs[R_TDAR / 4];
}

/* TDAR is active and the walk has not met R=0: a freed FIFO slot walks on. */
static bool tx_walking(const struct enet_emu *emu)
{
	return (emu->regs[R_TDAR / 4] & DAR_ACTIVE) && !emu->tdar_clear_at;
}

void enet__dma_error(struct enet_emu *emu, uint64_t now)
{
	ethdrv_counter_inc(&emu->st.dma_errors);
	enet__event(emu, EV_EBERR);
	/* EBERR clears ETHEREN, with everything that implies (docs/enet.md §10 item 11). */
	emu->regs[R_ECR / 4] &= ~ECR_ETHEREN;
	enet__tx_stop(emu, now, true);
	enet__dma_reset(emu);
}

/* ---- TX (docs/enet.md §3.4) ---- */

static struct enet_txf *fifo_at(struct enet_emu *emu, unsigned i)
{
	return &emu->fifo[(emu->fifo_head + i) % emu->fifo_slots];
}

/* What a walk over one frame's BDs found. */
struct tx_scan {
	uint32_t len; /* sum of the BD lengths */
	unsigned nbd; /* BDs up to and including L */
	uint32_t next; /* offset after the L BD */
	uint16_t last_status; /* status of the L BD */
	bool irq; /* events allowed (enhanced: INT of the L BD) */
};

/* The bytes a frame takes in the FIFO: padded to 60 unless sent as is. */
static uint32_t tx_fifo_len(const struct tx_scan *s)
{
	return (s->last_status & TXBD_TC) ? ETHDRV_MAX(s->len, ETH_ZLEN) : s->len;
}

/* The DMA's time to fetch a frame (assumption, enet_emu.h): one bus read per
 * BD, then the data at 8 bytes per system clock. */
static uint64_t tx_fetch_cost(const struct enet_emu *emu, const struct tx_scan *s)
{
	uint64_t beats = (s->len + 7u) / 8u, hz = emu->cfg.clk_ahb_hz;

	return (uint64_t)emu->cfg.tx_fetch_ns * s->nbd + (beats * 1000000000ull + hz - 1) / hz;
}

enum scan_result { SCAN_READY, SCAN_NOT_READY, SCAN_LAPPED, SCAN_ERROR };

/* Pass 1: are all BDs of the next frame ready, and inside the region? */
static enum scan_result tx_scan(struct enet_emu *emu, struct tx_scan *s, uint64_t now)
{
	uint32_t off = emu->tx_fetch;
	uint32_t limit = (uint32_t)(emu->dma.size / BD_LEGACY_SIZE) + 1;

	*s = (struct tx_scan){ .irq = true };
	for (unsigned i = 0; i < limit; i++) {
		uint8_t *p = bd_at(emu, R_TDSR, off);
		struct enet_bd bd;

		if (!p || emu_fault_bus_error(&emu->faults, true, &emu->st.faults))
			goto err;
		/* Around the ring to a BD whose frame is still in the FIFO: its R
		 * is still set, but it is not new (the whole ring is in flight). */
		if (emu->fifo_count && off == fifo_at(emu, 0)->bd[0])
			return SCAN_LAPPED;
		bd_read(emu, p, &bd);
		if (!(bd.status & TXBD_R))
			return SCAN_NOT_READY;
		if (bd.len && !ethdrv_dma_to_virt(&emu->dma, bd.addr, bd.len))
			goto err;
		s->len += bd.len;
		s->nbd++;
		off = bd_next(emu, off, bd.status);
		if (bd.status & TXBD_L) {
			s->next = off;
			s->last_status = bd.status;
			if (bd_enhanced(emu))
				s->irq = bdx_load(emu, p, BDX_ESC) & TXESC_INT;
			return SCAN_READY;
		}
	}
err:
	enet__dma_error(emu, now);
	return SCAN_ERROR;
}

/* Write back one TX BD: R cleared (docs/enet.md §10 item 3); enhanced: BDU set, no errors. */
static void tx_bd_done(struct enet_emu *emu, uint32_t off, bool irq)
{
	uint8_t *p = bd_at(emu, R_TDSR, off);

	if (!p)
		return; /* TDSR moved under a frame in flight: nothing to write */
	if (bd_enhanced(emu)) {
		bdx_store(emu, p, BDX_ESC, bdx_load(emu, p, BDX_ESC) & ~TXESC_ERRORS);
		bdx_store(emu, p, BDX_BDU_WORD, BDX_BDU);
	}
	bd_set_status(emu, p, bd_status(emu, p) & ~TXBD_R);
	if (irq)
		enet__event(emu, EV_TXB);
}

/* A frame the MAC cannot send (length 0 or beyond the FIFO): its BDs
 * complete at once, UN is raised and IEEE_T_MACERR counts it (assumption). */
static void tx_reject(struct enet_emu *emu, const struct tx_scan *s)
{
	uint32_t off = emu->tx_fetch;

	for (unsigned i = 0; i < s->nbd; i++) {
		uint8_t *p = bd_at(emu, R_TDSR, off);
		uint16_t st = bd_status(emu, p);

		tx_bd_done(emu, off, s->irq);
		off = bd_next(emu, off, st);
	}
	emu->tx_fetch = s->next;
	ethdrv_counter_inc(&emu->st.tx_bad_len);
	enet__mib_inc(emu, MIB_T_MACERR, 1);
	enet__event(emu, EV_UN);
}

/* Pass 2: copy the frame into the FIFO slot @f and place it on the wire. */
static void tx_load(struct enet_emu *emu, struct enet_txf *f, const struct tx_scan *s, uint64_t now)
{
	uint32_t off = emu->tx_fetch, wire;
	uint64_t byte_ns = enet__mac_byte_ns(emu), fetched;

	f->len = 0;
	f->nbd = 0;
	for (unsigned i = 0; i < s->nbd; i++) {
		struct enet_bd bd;
		uint8_t *p = bd_at(emu, R_TDSR, off);

		bd_read(emu, p, &bd);
		if (bd.len)
			memcpy(f->data + f->len, ethdrv_dma_to_virt(&emu->dma, bd.addr, bd.len),
			       bd.len);
		f->len += bd.len;
		f->bd[f->nbd++] = off;
		off = bd_next(emu, off, bd.status);
	}
	f->fcs = (s->last_status & TXBD_TC) ? FDX_FCS_APPEND : FDX_FCS_RAW;
	/* ABC (append a bad CRC) is a legacy-BD bit (docs/enet.md §3.2). */
	if ((s->last_status & TXBD_ABC) && !bd_enhanced(emu))
		f->fcs = FDX_FCS_BAD;
	/* The MAC pads short frames with zeros before the FCS (assumption). */
	if (f->fcs != FDX_FCS_RAW && f->len < ETH_ZLEN) {
		memset(f->data + f->len, 0, ETH_ZLEN - f->len);
		f->len = ETH_ZLEN;
	}
	f->irq = s->irq;
	f->aborted = false;
	wire = f->len + (f->fcs == FDX_FCS_RAW ? 0 : FCS_LEN);
	/* Store and forward: the frame starts once fetched and the wire is free;
	 * preamble+SFD, frame, then the gap before the next one (docs/enet.md §12). */
	fetched = ETHDRV_MAX(now, emu->tx_dma_at) + tx_fetch_cost(emu, s);
	emu->tx_dma_at = fetched;
	/* The transmitter waited for this frame (the host had none ready). */
	if (emu->tx_free_at && fetched > emu->tx_free_at)
		ethdrv_counter_add(&emu->st.tx_idle_ns, fetched - emu->tx_free_at);
	f->start = ETHDRV_MAX(fetched, emu->tx_free_at);
	f->end = f->start + (uint64_t)(8 + wire) * byte_ns;
	emu->tx_free_at = f->end + (uint64_t)enet__gap_bytes(emu) * byte_ns;
	emu->tx_fetch = s->next;
	emu->fifo_count++;
	emu->fifo_bytes += f->len;
}

void enet__tx_fetch(struct enet_emu *emu, uint64_t now)
{
	struct tx_scan s;

	while (enet__enabled(emu) && !(emu->regs[R_TCR / 4] & TCR_GTS)) {
		switch (tx_scan(emu, &s, now)) {
		case SCAN_NOT_READY:
			/* Stopped at a BD it does not own (docs/enet.md §10 item 2). */
			tdar_stop_at(emu, ETHDRV_MAX(now, emu->tx_dma_at) + emu->cfg.tx_fetch_ns);
			return;
		case SCAN_LAPPED: /* TDAR stays active: the next frame end walks on */
		case SCAN_ERROR:
			return;
		default:
			break;
		}
		if (s.nbd > FIFO_MAX_BDS || s.len == 0 || s.len > ENET_EMU_FRAME_MAX) {
			tx_reject(emu, &s);
			continue;
		}
		if (emu->fifo_count == emu->fifo_slots ||
		    emu->fifo_bytes + tx_fifo_len(&s) > emu->cfg.tx_fifo_bytes) {
			ethdrv_counter_inc(&emu->st.tx_fetch_waits);
			return; /* TDAR stays active: a frame leaving the FIFO resumes the walk */
		}
		tx_load(emu, fifo_at(emu, emu->fifo_count), &s, now);
	}
}

/* Drop fetched frames that have not started; a started one is cut if @abort. */
/* The generator towards the peer books this MAC's direction of the wire
 * (fdx_line_gen.c, the set_tx_free_at port op): the MAC's next frame never
 * starts before it is free. */
static uint64_t tx_wire_booked(const struct enet_emu *emu)
{
	return emu->tx_booked_at;
}

void enet__tx_stop(struct enet_emu *emu, uint64_t now, bool abort)
{
	unsigned keep = 0;
	uint32_t bytes = 0;

	for (unsigned i = 0; i < emu->fifo_count; i++) {
		struct enet_txf *f = fifo_at(emu, i);

		if (f->start <= now) {
			keep = i + 1;
			bytes += f->len;
			if (abort && !f->aborted) {
				f->aborted = true;
				f->fcs = FDX_FCS_BAD;
				f->end = ETHDRV_MAX(now, f->start);
				ethdrv_counter_inc(&emu->st.tx_aborted);
			}
			continue;
		}
		if (i == keep) /* the first unstarted frame: fetch it again later */
			emu->tx_fetch = f->bd[0];
		ethdrv_counter_inc(&emu->st.tx_unstarted_dropped);
	}
	emu->fifo_count = keep;
	emu->fifo_bytes = bytes;
	emu->tx_dma_at = ETHDRV_MIN(emu->tx_dma_at, now); /* fetches of dropped frames end */
	emu->tx_free_at =
		keep ? fifo_at(emu, keep - 1)->end + enet__gap_bytes(emu) * enet__mac_byte_ns(emu) :
		       ETHDRV_MIN(emu->tx_free_at, now);
	/* One frame at a time on the wire: a generator frame booked meanwhile stays. */
	emu->tx_free_at = ETHDRV_MAX(emu->tx_free_at, tx_wire_booked(emu));
}

/* The graceful stop completed: GRA, unless the link is down (docs/enet.md §10 item 7). */
static void tx_raise_gra(struct enet_emu *emu)
{
	if (fdx__link_ok(emu->line))
		enet__event(emu, EV_GRA);
	else
		ethdrv_counter_inc(&emu->st.gra_no_link);
}

void enet__tx_resume(struct enet_emu *emu, uint64_t now)
{
	if (tx_walking(emu))
		enet__tx_fetch(emu, now);
}

void enet__graceful_stop(struct enet_emu *emu, uint64_t now)
{
	uint64_t dropped = ethdrv_counter_get(&emu->st.tx_unstarted_dropped);

	enet__tx_stop(emu, now, false);
	/* Frames put back keep the DMA active: clearing GTS sends them. */
	if (ethdrv_counter_get(&emu->st.tx_unstarted_dropped) != dropped) {
		emu->regs[R_TDAR / 4] = DAR_ACTIVE;
		emu->tdar_clear_at = 0;
	}
	/* GRA once the frame on the wire has ended; never without link (docs/enet.md §4.3,
	 * docs/enet.md §10 item 7: Linux does not wait for it then). */
	if (emu->fifo_count)
		emu->gra_pending = true;
	else
		tx_raise_gra(emu);
}

static bool is_multicast(const uint8_t *da)
{
	return da[0] & 1;
}

static bool is_broadcast(const uint8_t *da)
{
	static const uint8_t bc[ETH_ALEN] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

	return !memcmp(da, bc, ETH_ALEN);
}

/* TX MIB counts of a frame of @wire bytes incl. FCS (docs/enet.md §7). */
static void tx_mib(struct enet_emu *emu, const struct enet_txf *f, uint32_t wire)
{
	enet__mib_inc(emu, MIB_T_PACKETS, 1);
	enet__mib_inc(emu, MIB_T_OCTETS, wire);
	if (is_broadcast(f->data))
		enet__mib_inc(emu, MIB_T_BC, 1);
	else if (is_multicast(f->data))
		enet__mib_inc(emu, MIB_T_MC, 1);
	enet__mib_bucket(emu, MIB_T_P64, wire);
	/* A frame sent with a bad FCS (ABC) is a CRC error, not a good frame (assumption). */
	if (f->fcs == FDX_FCS_BAD) {
		enet__mib_inc(emu, MIB_T_CRC_ALIGN, 1);
		return;
	}
	enet__mib_inc(emu, MIB_T_FRAME_OK, 1);
	enet__mib_inc(emu, MIB_T_OCTETS_OK, wire);
}

void enet__tx_frame_end(struct enet_emu *emu, uint64_t t)
{
	struct enet_txf *f = fifo_at(emu, 0);
	uint32_t wire = f->len + (f->fcs == FDX_FCS_RAW ? 0 : FCS_LEN);

	/* Off the FIFO first: delivering may reach this MAC again (LOOP, errors). */
	emu->fifo_head = (emu->fifo_head + 1) % emu->fifo_slots;
	emu->fifo_count--;
	emu->fifo_bytes -= f->len;
	enet__line_deliver(emu, f, t);
	if (!f->aborted && enet__enabled(emu)) {
		for (unsigned i = 0; i < f->nbd; i++)
			tx_bd_done(emu, f->bd[i], f->irq);
		tx_mib(emu, f, wire);
		ethdrv_counter_inc(&emu->st.tx_frames);
		ethdrv_counter_add(&emu->st.tx_bytes, wire);
		if (wire > ETHDRV_FIELD_GET(RCR_MAX_FL, emu->regs[R_RCR / 4]))
			enet__event(emu, EV_BABT); /* sent anyway (docs/enet.md §10 item 10) */
		if (f->irq)
			enet__coal_frame(emu, COAL_TX, t);
	}
	if (emu->gra_pending && !emu->fifo_count) {
		emu->gra_pending = false;
		tx_raise_gra(emu);
	}
	/* FIFO space is free: an active TDAR walks on (assumption). */
	if (tx_walking(emu))
		enet__tx_fetch(emu, t);
}

/* ---- RX (docs/enet.md §3.2, docs/enet.md §3.5) ---- */

/* The individual or group hash (docs/enet.md §1.1): top 6 bits of the CRC register. */
static bool hash_hit(const struct enet_emu *emu, const uint8_t *da, uint32_t upper, uint32_t lower)
{
	uint32_t idx = (~emu_crc32(da, ETH_ALEN)) >> 26;

	if (idx >= 32)
		return emu->regs[upper / 4] & ETHDRV_BIT(idx - 32);
	return emu->regs[lower / 4] & ETHDRV_BIT(idx);
}

static bool is_station(const struct enet_emu *emu, const uint8_t *da)
{
	uint32_t lo = emu->regs[R_PALR / 4], hi = emu->regs[R_PAUR / 4];

	return da[0] == (uint8_t)(lo >> 24) && da[1] == (uint8_t)(lo >> 16) &&
	       da[2] == (uint8_t)(lo >> 8) && da[3] == (uint8_t)lo &&
	       da[4] == (uint8_t)(hi >> 24) && da[5] == (uint8_t)(hi >> 16);
}

/* Address filter (docs/enet.md §1.1, §10 item 15); *@miss: accepted only through PROM. */
static bool rx_filter(const struct enet_emu *emu, const uint8_t *da, bool *miss)
{
	uint32_t rcr = emu->regs[R_RCR / 4];
	bool ok;

	if (is_broadcast(da))
		ok = !(rcr & RCR_BC_REJ);
	else if (is_multicast(da))
		ok = hash_hit(emu, da, R_GAUR, R_GALR);
	else
		ok = is_station(emu, da) || hash_hit(emu, da, R_IAUR, R_IALR);
	*miss = !ok && (rcr & RCR_PROM);
	return ok || *miss;
}

/* RMON counts of every frame reaching the MAC (assumption, enet_emu.h). */
static void rx_mib_rmon(struct enet_emu *emu, const uint8_t *da, uint32_t flen, bool good)
{
	uint32_t max_fl = ETHDRV_FIELD_GET(RCR_MAX_FL, emu->regs[R_RCR / 4]);

	enet__mib_inc(emu, MIB_R_PACKETS, 1);
	enet__mib_inc(emu, MIB_R_OCTETS, flen);
	if (is_broadcast(da))
		enet__mib_inc(emu, MIB_R_BC, 1);
	else if (is_multicast(da))
		enet__mib_inc(emu, MIB_R_MC, 1);
	enet__mib_bucket(emu, MIB_R_P64, flen);
	if (!good)
		enet__mib_inc(emu, MIB_R_CRC_ALIGN, 1);
	/* A CRC error is the MAC's finding, whether or not a BD takes the frame. */
	if (!good && flen >= ETH_MIN_FRAME)
		enet__mib_inc(emu, MIB_R_CRC, 1);
	if (flen < ETH_MIN_FRAME)
		enet__mib_inc(emu, good ? MIB_R_UNDERSIZE : MIB_R_FRAG, 1);
	else if (flen > max_fl)
		enet__mib_inc(emu, good ? MIB_R_OVERSIZE : MIB_R_JAB, 1);
}

/* The bytes the RX DMA writes: [2 pad bytes] frame [FCS], cut at FTRL. */
struct rx_stream {
	uint32_t pad; /* 0 or 2 (RACC.SHIFT16) */
	const uint8_t *data; /* frame without FCS */
	uint32_t data_len; /* its bytes */
	uint8_t fcs[FCS_LEN]; /* the FCS as written */
	uint32_t fcs_len; /* 0 (CRCFWD) or 4 */
	uint32_t total; /* bytes to write */
};

/* Copy bytes [@pos, @pos + @n) of the stream to @dst. */
static void rx_stream_copy(const struct rx_stream *s, uint32_t pos, uint8_t *dst, uint32_t n)
{
	while (n) {
		uint32_t k;

		if (pos < s->pad) {
			k = ETHDRV_MIN(n, s->pad - pos);
			memset(dst, 0, k);
		} else if (pos < s->pad + s->data_len) {
			k = ETHDRV_MIN(n, s->pad + s->data_len - pos);
			memcpy(dst, s->data + pos - s->pad, k);
		} else {
			k = ETHDRV_MIN(n, s->pad + s->data_len + s->fcs_len - pos);
			memcpy(dst, s->fcs + (pos - s->pad - s->data_len), k);
		}
		pos += k;
		dst += k;
		n -= k;
	}
}

/* Status bits of the L BD (docs/enet.md §3.2) and whether the frame is good. */
static uint16_t rx_status(struct enet_emu *emu, const uint8_t *da, uint32_t flen, bool good,
			  bool miss)
{
	uint32_t rcr = emu->regs[R_RCR / 4];
	uint16_t st = RXBD_L;

	if (miss)
		st |= RXBD_M;
	if (is_broadcast(da))
		st |= RXBD_BC;
	else if (is_multicast(da))
		st |= RXBD_MC;
	if (flen > ETHDRV_FIELD_GET(RCR_MAX_FL, rcr))
		st |= RXBD_LG;
	if (flen > ETHDRV_FIELD_GET(ETHDRV_GENMASK(13, 0), emu->regs[R_FTRL / 4]))
		st |= RXBD_TR | RXBD_LG;
	if (!good)
		st |= RXBD_CR;
	return st;
}

/* Hand one filled BD back: status, length; enhanced write-back (docs/enet.md §3.3). */
static void rx_bd_done(struct enet_emu *emu, uint8_t *bd, uint16_t old, uint16_t st, uint16_t len,
		       bool unicast)
{
	bd_set_len(emu, bd, len);
	if (bd_enhanced(emu)) {
		uint32_t esc = bdx_load(emu, bd, BDX_ESC) & RXESC_INT;

		if (unicast)
			esc |= RXESC_UC;
		/* ME: the MAC's own receive errors, CRC and FIFO overrun; a length
		 * violation alone (LG, TR) has its own bits (assumption, enet_emu.h). */
		if (st & (RXBD_CR | RXBD_OV))
			esc |= RXESC_ME;
		bdx_store(emu, bd, BDX_ESC, esc);
		bdx_store(emu, bd, BDX_BDU_WORD, BDX_BDU);
	}
	bd_set_status(emu, bd, (uint16_t)((old & (RXBD_W | RXBD_SW)) | st));
}

static bool rx_bd_irq(const struct enet_emu *emu, const uint8_t *bd)
{
	return !bd_enhanced(emu) || (bdx_load(emu, bd, BDX_ESC) & RXESC_INT);
}

/* No empty BD for a new frame: drop it and stop the RX DMA (docs/enet.md §3.4, §10 item 13). */
static void rx_no_bd(struct enet_emu *emu, uint64_t t)
{
	emu->regs[R_RDAR / 4] = 0;
	ethdrv_counter_inc(&emu->st.rx_dropped_nobd);
	enet__mib_inc(emu, MIB_R_DROP, 1);
	/* Whose fault (docs/design.md §4.8): the frame's end @t against now. */
	emu_loss_count(&emu->st.rx_loss, t, emu_engine_now(emu->eng), emu->rx_served,
		       emu_engine_realtime(emu->eng));
}

/* Write the stream into empty BDs from rx_off (docs/enet.md §3.5); false if none was free. */
static bool rx_fill(struct enet_emu *emu, const struct rx_stream *s, uint16_t last_st, bool unicast,
		    uint64_t t)
{
	uint32_t mrbr = emu->regs[R_MRBR / 4], pos = 0;
	struct enet_bd bd;
	uint8_t *p = bd_at(emu, R_RDSR, emu->rx_off);

	if (!p || emu_fault_bus_error(&emu->faults, false, &emu->st.faults))
		goto err;
	bd_read(emu, p, &bd);
	if (!(bd.status & RXBD_E)) {
		rx_no_bd(emu, t);
		return false;
	}
	for (;;) {
		uint32_t n = ETHDRV_MIN(s->total - pos, mrbr), next;
		uint8_t *dst = ethdrv_dma_to_virt(&emu->dma, bd.addr, n), *q;
		struct enet_bd nbd;
		bool irq = rx_bd_irq(emu, p);

		if (!dst)
			goto err;
		rx_stream_copy(s, pos, dst, n);
		pos += n;
		next = bd_next(emu, emu->rx_off, bd.status);
		if (pos == s->total) {
			rx_bd_done(emu, p, bd.status, last_st, (uint16_t)s->total, unicast);
			emu->rx_off = next;
			if (irq)
				enet__coal_frame(emu, COAL_RX, t);
			return true;
		}
		/* More to write: the next BD must be empty, else the frame is cut here. */
		q = bd_at(emu, R_RDSR, next);
		if (!q)
			goto err;
		bd_read(emu, q, &nbd);
		if (!(nbd.status & RXBD_E)) {
			rx_bd_done(emu, p, bd.status, RXBD_L | RXBD_OV, (uint16_t)pos, unicast);
			emu->rx_off = next;
			emu->regs[R_RDAR / 4] = 0;
			ethdrv_counter_inc(&emu->st.rx_cut);
			enet__mib_inc(emu, MIB_R_MACERR, 1);
			if (irq)
				enet__coal_frame(emu, COAL_RX, t);
			return true;
		}
		rx_bd_done(emu, p, bd.status, 0, (uint16_t)n, unicast);
		if (irq)
			enet__event(emu, EV_RXB);
		emu->rx_off = next;
		p = q;
		bd = nbd;
	}
err:
	enet__dma_error(emu, t);
	return false;
}

/* The FCS as the receiver stores it (only computed when it is stored). */
static void rx_fcs_bytes(struct rx_stream *s, bool good)
{
	uint32_t c = emu_crc32(s->data, s->data_len);

	if (!good)
		c = ~c;
	for (unsigned i = 0; i < FCS_LEN; i++)
		s->fcs[i] = (uint8_t)(c >> (8 * i));
}

void enet__rx_frame(struct enet_emu *emu, uint8_t *data, uint32_t len, enum fdx_fcs fcs, uint64_t t)
{
	uint32_t rcr = emu->regs[R_RCR / 4];
	uint32_t flen = len + (fcs == FDX_FCS_RAW ? 0 : FCS_LEN);
	uint32_t ftrl = ETHDRV_FIELD_GET(ETHDRV_GENMASK(13, 0), emu->regs[R_FTRL / 4]);
	bool good, miss;
	struct rx_stream s = { 0 };
	uint16_t st;

	if (!enet__enabled(emu)) {
		ethdrv_counter_inc(&emu->st.rx_dropped_disabled);
		return;
	}
	good = fcs == FDX_FCS_APPEND || (fcs == FDX_FCS_RAW && emu_fcs_ok(data, len));
	if (len < ETH_ALEN) {
		rx_mib_rmon(emu, (const uint8_t[ETH_ALEN]){ 0 }, flen, false);
		return;
	}
	rx_mib_rmon(emu, data, flen, good);
	/* Runts carry no usable frame: counted above, no BD (assumption). */
	if (flen < ETH_MIN_FRAME)
		return;
	if (!rx_filter(emu, data, &miss)) {
		ethdrv_counter_inc(&emu->st.rx_dropped_filter);
		return;
	}
	if (emu_fault_rx_exhaust(&emu->faults, &emu->st.faults)) {
		/* As if the driver had been late: dropped and counted, but the ring
		 * is not really full, so the DMA keeps running (assumption). */
		ethdrv_counter_inc(&emu->st.rx_dropped_nobd);
		emu_loss_injected(&emu->st.rx_loss);
		enet__mib_inc(emu, MIB_R_DROP, 1);
		return;
	}
	if (!(emu->regs[R_RDAR / 4] & DAR_ACTIVE)) {
		rx_no_bd(emu, t);
		return;
	}
	if (emu->regs[R_MRBR / 4] < 16) {
		ethdrv_counter_inc(&emu->st.rx_bad_bufsize);
		enet__mib_inc(emu, MIB_R_MACERR, 1);
		return;
	}
	s.pad = (emu->regs[R_RACC / 4] & RACC_SHIFT16) ? 2 : 0;
	s.data = data;
	s.data_len = fcs == FDX_FCS_RAW ? len - FCS_LEN : len;
	if (!(rcr & RCR_CRCFWD)) {
		s.fcs_len = FCS_LEN;
		if (fcs == FDX_FCS_RAW)
			memcpy(s.fcs, data + s.data_len, FCS_LEN);
		else
			rx_fcs_bytes(&s, good);
	}
	/* A frame longer than FTRL is truncated there (docs/enet.md §3.5). */
	s.total = s.pad + ETHDRV_MIN(s.data_len + s.fcs_len, ftrl);
	st = rx_status(emu, data, flen, good, miss);
	if (!rx_fill(emu, &s, st, !is_multicast(data), t))
		return;
	ethdrv_counter_inc(&emu->st.rx_frames);
	ethdrv_counter_add(&emu->st.rx_bytes, s.total);
	if (!good) {
		ethdrv_counter_inc(&emu->st.rx_crc_errors);
	} else if (!(st & (RXBD_LG | RXBD_TR))) {
		enet__mib_inc(emu, MIB_R_FRAME_OK, 1);
		enet__mib_inc(emu, MIB_R_OCTETS_OK, flen);
	}
	if (st & RXBD_LG)
		enet__event(emu, EV_BABR);
}
