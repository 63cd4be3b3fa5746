// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 MAC-PHY model: an OPEN Alliance TC6 SPI slave. Behaviour and
 * assumptions are documented in lan865x_emu.h; "§" refers to
 * docs/tc6-facts.md throughout.
 */
#include "lan865x_emu.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "crc32.h"
#include "ethdrv/bits.h"
#include "ethdrv/compiler.h"
#include "ethdrv/log.h"

ETHDRV_LOG_MODULE(lan865x_emu);

/* Control header fields (§1.2). */
#define HDR_DNC ETHDRV_BIT(31)
#define HDR_HDRB ETHDRV_BIT(30)
#define CTL_WNR ETHDRV_BIT(29)
#define CTL_AID ETHDRV_BIT(28)
#define CTL_MMS ETHDRV_GENMASK(27, 24)
#define CTL_ADDR ETHDRV_GENMASK(23, 8)
#define CTL_LEN ETHDRV_GENMASK(7, 1)
/* Data header fields (§2.2). */
#define DH_NORX ETHDRV_BIT(29)
#define DH_DV ETHDRV_BIT(21)
#define DH_SV ETHDRV_BIT(20)
#define DH_SWO ETHDRV_GENMASK(19, 16)
#define DH_EV ETHDRV_BIT(14)
#define DH_EBO ETHDRV_GENMASK(13, 8)
/* Data footer fields (§2.3). */
#define DF_EXST ETHDRV_BIT(31)
#define DF_HDRB ETHDRV_BIT(30)
#define DF_SYNC ETHDRV_BIT(29)
#define DF_RCA ETHDRV_GENMASK(28, 24)
#define DF_DV ETHDRV_BIT(21)
#define DF_SV ETHDRV_BIT(20)
#define DF_SWO ETHDRV_GENMASK(19, 16)
#define DF_FD ETHDRV_BIT(15)
#define DF_EV ETHDRV_BIT(14)
#define DF_EBO ETHDRV_GENMASK(13, 8)
#define DF_TXC ETHDRV_GENMASK(5, 1)

/* MMS0 registers (§3.2-§3.5). */
#define R_IDVER 0x00
#define R_PHYID 0x01
#define R_STDCAP 0x02
#define R_RESET 0x03
#define R_CONFIG0 0x04
#define R_STATUS0 0x08
#define R_STATUS1 0x09
#define R_BUFSTS 0x0B
#define R_IMASK0 0x0C
#define R_IMASK1 0x0D
#define R_PHY_BASE 0xFF00
#define CFG0_SYNC ETHDRV_BIT(15)
#define CFG0_TXFCSVE ETHDRV_BIT(14)
#define CFG0_RFA ETHDRV_GENMASK(13, 12)
#define CFG0_TXCTHRESH ETHDRV_GENMASK(11, 10)
#define CFG0_PROTE ETHDRV_BIT(5)
#define CFG0_CPS ETHDRV_GENMASK(2, 0)
#define RFA_ZARFE 1u
#define RFA_CSARFE 2u
#define ST0_TXPE ETHDRV_BIT(0)
#define ST0_TXBOE ETHDRV_BIT(1)
#define ST0_RXBOE ETHDRV_BIT(3)
#define ST0_LOFE ETHDRV_BIT(4)
#define ST0_HDRE ETHDRV_BIT(5)
#define ST0_RESETC ETHDRV_BIT(6)
#define ST0_PHYINT ETHDRV_BIT(7)
#define ST0_TXFCSE ETHDRV_BIT(11)
#define ST0_CDPE ETHDRV_BIT(12)
#define ST0_ALL ETHDRV_GENMASK(12, 0)
#define ST1_FSMSTER ETHDRV_BIT(17)

/* Reset values and constants chosen in lan865x_emu.h. */
#define IDVER_VAL 0x11u
#define PHYID_VAL 0x0007C1B3u
#define STDCAP_VAL 0x0525u
#define CONFIG0_RESET 0x0006u
#define IMASK0_RESET 0x1FBFu
#define IMASK1_RESET 0x3FFE0003u
#define BMSR_CAPS 0x0801u /* 10 Mb/s half duplex, extended registers (lan865x_emu.h) */
#define BMSR_LSTATUS 0x0004u
#define BMCR_PDOWN 0x0800u
#define PHYID1_VAL 0x0007u
#define PHYID2_VAL 0xC1B3u

/* MMS1 MAC (§5.2). */
#define MAC_NCR 0x00
#define MAC_NCFGR 0x01
#define MAC_HRB 0x20
#define MAC_HRT 0x21
#define MAC_SAB1 0x22
#define MAC_SAT4 0x29
#define MAC_TIDM4 0x2D
#define MAC_TSU_FIRST 0x6F
#define MAC_TI 0x77
#define NCR_RXEN ETHDRV_BIT(2)
#define NCR_TXEN ETHDRV_BIT(3)
#define NCFGR_RESET 0x00080000u
#define NCFGR_CAF ETHDRV_BIT(4)
#define NCFGR_NBC ETHDRV_BIT(5)
#define NCFGR_MTIHEN ETHDRV_BIT(6)
#define NCFGR_UNIHEN ETHDRV_BIT(7)
#define NCFGR_MAXFS ETHDRV_BIT(8)
#define NCFGR_RFCS ETHDRV_BIT(17)
#define NCFGR_IRXFCS ETHDRV_BIT(26)

/* MMS4 (§3.6, §5.3). */
#define V2_COL_DET_CTRL0 0x87
#define V2_IND_ADDR 0xD8
#define V2_IND_DATA 0xD9
#define V2_IND_CTRL 0xDA
#define IND_READ 0x0002u
#define PLCA_BASE 0xCA00
#define PLCA_NREGS 6
#define PLCA_CTRL0_EN ETHDRV_BIT(15)
#define PLCA_CTRL0_RST ETHDRV_BIT(14)
#define PLCA_PST ETHDRV_BIT(15)
static const uint16_t plca_reset[PLCA_NREGS] = { 0x0A10, 0x0000, 0x08FF, 0x0000, 0x0020, 0x0080 };

/* MMS10 (§3.1, §5.1). */
#define MISC_QTXCFG 0x81
#define MISC_QRXCFG 0x82
#define MISC_PADCTRL 0x88
#define MISC_CLKOCTL 0x89
#define MISC_MISC 0x8C
#define MISC_DEVID 0x94

#define MAX_PAYLOAD 64u /* largest chunk payload (CPS=6) */
#define TX_ASM_MAX (EMU_FRAME_MAX + MAX_PAYLOAD) /* assembly room; beyond = oversize */
#define TX_SLOTS (LAN865X_EMU_TX_CHUNKS + 1u)
#define RX_MAX_LEN_DEFAULT 1518u /* §2.4 */
#define RX_MAX_LEN_VLAN 1522u
#define ETH_ZLEN 60u

/* One frame in the TX buffer, waiting for or on the wire. */
struct tx_frame {
	uint8_t data[EMU_FRAME_MAX]; /* frame incl. FCS */
	size_t len; /* bytes */
	unsigned chunks; /* TX buffer chunks it holds */
	uint64_t t_ready; /* bus time its EV chunk ended */
};

/* One frame in the RX buffer. */
struct rx_frame {
	uint8_t *data; /* slot in rx_slab */
	size_t len; /* bytes the host will see */
	bool fd; /* deliver with FD=1 (bad FCS with IRXFCS) */
	uint64_t t_end; /* when it ended on the wire */
};

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

struct lan865x_emu {
	pthread_mutex_t lock; /* protects everything below except cfg and irq_fd */
	struct lan865x_emu_config cfg; /* immutable after new, except the BERs */
	int irq_fd; /* eventfd: IRQ_N, readable while asserted */
	bool irq; /* IRQ_N asserted */

	/* Registers (§3, §5). */
	uint32_t config0, status0, status1, imask0, imask1;
	uint16_t bmcr;
	bool link_cut; /* lan865x_emu_set_link(false): the MDI is off the segment */
	bool lstatus_low; /* BMSR.LSTATUS latched low since the last BMSR read */
	struct emu_medium *cut_medium; /* where to attach again when the link returns */
	unsigned cut_port;
	uint32_t mac[0x78]; /* MMS1 0x00-0x77 */
	bool sa_en[4]; /* specific-address filter n enabled */
	uint16_t vend2[0x100]; /* MMS4 0x00-0xFF */
	uint16_t plca[PLCA_NREGS]; /* MMS4 0xCA00-0xCA05 */
	bool plca_pst; /* PLCA STATUS.PST as reported by the medium */
	uint32_t misc[0x100]; /* MMS10 0x00-0xFF (stored subset) */
	bool halted; /* internal fault: frame data stops until reset */

	/* What the last footer reported, for the IRQ rules (§2.5). */
	bool rep_rca, rep_txc, rep_exst;

	/* TX side: assembly of the frame in progress, then a FIFO ring. */
	struct {
		bool active; /* a frame is in progress */
		bool drop_ovf; /* cut by TXBOE: discard at EV */
		size_t len; /* bytes received (may exceed what is stored) */
		unsigned chunks; /* chunks charged */
		uint8_t buf[TX_ASM_MAX];
	} tx;
	struct tx_frame *txq; /* TX_SLOTS frames */
	unsigned txq_head, txq_count; /* ring; the first txq_inflight are on the wire */
	unsigned txq_inflight;
	unsigned tx_wire_gone; /* frames on the wire when a reset flushed the ring */
	bool kick; /* a frame was queued: kick the medium after unlocking */

	/* RX side: a FIFO ring of frames; the host reads the head at rx_off. */
	struct rx_frame *rxq;
	uint8_t *rx_slab;
	unsigned rxq_slots, rxq_head, rxq_count;
	size_t rx_off;
	bool fault_rx_ovf; /* injected overflow waiting for a frame */
	bool fault_hdr; /* injected header parity error waiting for a header */

	/* Time (architecture.md §4). */
	uint64_t bus_clock; /* end of the last transfer */
	uint64_t virt_now; /* realtime=false: the latest time seen */

	/* Bit errors: xorshift state and bits until the next flip. */
	uint64_t rng;
	uint64_t skip_mosi, skip_miso;
	uint8_t *scratch; /* MOSI copy when flipping bits */
	size_t scratch_len;

	struct emu_medium *medium; /* attached medium or NULL */
	unsigned port; /* our port on it */
	struct lan865x_emu_stats st;
};

#define D(f) ETHDRV_STAT_DESC(struct lan865x_emu_stats, f)
const struct ethdrv_stat_desc lan865x_emu_stats_desc[] = {
	D(transfers),
	D(bytes),
	D(ctrl_transfers),
	D(ctrl_reads),
	D(ctrl_writes),
	D(ctrl_len_errors),
	D(chunks),
	D(hdr_errors),
	D(cdpe),
	D(txpe),
	D(txboe),
	D(lofe),
	D(tx_frames),
	D(tx_bytes),
	D(tx_fcs_errors),
	D(tx_dropped_protocol),
	D(tx_dropped_overflow),
	D(tx_dropped_disabled),
	D(tx_dropped_oversize),
	D(tx_flushed),
	D(tx_started),
	D(rx_frames),
	D(rx_bytes),
	D(rx_delivered),
	D(rx_dropped_overflow),
	D(rx_dropped_filter),
	D(rx_dropped_sync),
	D(rx_dropped_disabled),
	D(rx_dropped_length),
	D(rx_dropped_fcs),
	D(rx_flushed),
	D(rx_overflow_buffered),
	D(rx_started),
	D(rx_cut),
	D(mosi_flips),
	D(miso_flips),
	D(miso_sv_hidden),
	D(miso_ftr_undetected),
	D(mosi_hdr_undetected),
	D(resets),
	D(irq_asserts),
	D(faults),
	D(bus_ns),
	D(held_ns),
};
#undef D
const size_t lan865x_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(lan865x_emu_stats_desc);

/* ---- small helpers ---- */

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Store @v big-endian at @off, clipped to @len (§1.1: words are big-endian). */
static void put_be32(uint8_t *buf, size_t len, size_t off, uint32_t v)
{
	for (unsigned i = 0; i < 4 && off + i < len; i++)
		buf[off + i] = (uint8_t)(v >> (24 - 8 * i));
}

/* Odd parity over the whole word (§1.3). */
static bool parity_ok(uint32_t w)
{
	return __builtin_popcount(w) & 1;
}

static uint32_t with_parity(uint32_t w)
{
	w &= ~UINT32_C(1);
	return w | ethdrv_odd_parity_bit(w);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t emu_now(const struct lan865x_emu *emu)
{
	return emu->cfg.realtime ? mono_ns() : emu->virt_now;
}

/* Bus time of @nbytes at cfg.spi_hz, truncated to whole ns. */
static uint64_t bytes_ns(const struct lan865x_emu *emu, uint64_t nbytes)
{
	return nbytes * 8u * 1000000000u / emu->cfg.spi_hz;
}

static unsigned payload_size(const struct lan865x_emu *emu)
{
	/* §2.1: CPS 5 = 32 B, 6 = 64 B; only these two are accepted by CONFIG0 writes. */
	return ETHDRV_FIELD_GET(CFG0_CPS, emu->config0) == 5 ? 32u : 64u;
}

static void cnt(ethdrv_counter_t *c)
{
	ethdrv_counter_inc(c);
}

/* ---- IRQ_N (§2.5) ---- */

static void irq_assert(struct lan865x_emu *emu)
{
	uint64_t one = 1;

	if (emu->irq)
		return;
	if (write(emu->irq_fd, &one, sizeof(one)) == (ssize_t)sizeof(one)) {
		emu->irq = true;
		cnt(&emu->st.irq_asserts);
	}
}

static void irq_deassert(struct lan865x_emu *emu)
{
	uint64_t v;

	if (!emu->irq)
		return;
	if (read(emu->irq_fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		emu->irq = false;
}

/* Frame data moves only with SYNC=1 and no internal fault (§4.1, §3.5). */
static bool is_live(const struct lan865x_emu *emu)
{
	return (emu->config0 & CFG0_SYNC) && !emu->halted;
}

static bool exst_pending(const struct lan865x_emu *emu)
{
	return (emu->status0 & ~emu->imask0 & ST0_ALL) || (emu->status1 & ~emu->imask1);
}

static unsigned tx_free(const struct lan865x_emu *emu);
static unsigned rx_chunks_pending(struct lan865x_emu *emu, uint64_t t_vis, unsigned cap);

static unsigned txc_threshold(const struct lan865x_emu *emu)
{
	static const unsigned thr[4] = { 1, 4, 8, 16 }; /* §3.3 TXCTHRESH */

	return thr[ETHDRV_FIELD_GET(CFG0_TXCTHRESH, emu->config0)];
}

/* Assert IRQ_N for any event the last footer did not report (§2.5). */
static void irq_update(struct lan865x_emu *emu)
{
	uint64_t t = ETHDRV_MAX(emu->bus_clock, emu_now(emu));
	bool rca = is_live(emu) && rx_chunks_pending(emu, t, 1) > 0;
	bool txc = tx_free(emu) >= txc_threshold(emu);
	bool exst = exst_pending(emu);

	/* A condition that went away is no longer "reported": its next rise is news. */
	emu->rep_rca &= rca;
	emu->rep_txc &= txc;
	emu->rep_exst &= exst;
	if ((rca && !emu->rep_rca) || (txc && !emu->rep_txc) || (exst && !emu->rep_exst))
		irq_assert(emu);
}

/* ---- TX buffer ---- */

static unsigned tx_used(const struct lan865x_emu *emu)
{
	unsigned used = emu->tx.active ? emu->tx.chunks : 0;

	for (unsigned i = 0; i < emu->txq_count; i++)
		used += emu->txq[(emu->txq_head + i) % TX_SLOTS].chunks;
	return used;
}

static unsigned tx_free(const struct lan865x_emu *emu)
{
	unsigned used = tx_used(emu);

	return used >= LAN865X_EMU_TX_CHUNKS ? 0 : LAN865X_EMU_TX_CHUNKS - used;
}

static void tx_abort(struct lan865x_emu *emu, ethdrv_counter_t *why)
{
	if (emu->tx.active && why)
		cnt(why);
	emu->tx.active = false;
	emu->tx.drop_ovf = false;
	emu->tx.len = 0;
	emu->tx.chunks = 0;
}

static void tx_append(struct lan865x_emu *emu, const uint8_t *p, size_t n)
{
	size_t room = emu->tx.len < TX_ASM_MAX ? TX_ASM_MAX - emu->tx.len : 0;

	memcpy(emu->tx.buf + emu->tx.len, p, ETHDRV_MIN(n, room));
	emu->tx.len += n;
}

/* The MAC side of EV: FCS, checks, queue for the medium (§2.4, §3.4). */
static void tx_finish(struct lan865x_emu *emu, uint64_t t_ready)
{
	struct tx_frame *f;
	size_t len = emu->tx.len;

	if (emu->tx.drop_ovf)
		return tx_abort(emu, &emu->st.tx_dropped_overflow);
	if (len > EMU_FRAME_MAX || (!(emu->config0 & CFG0_TXFCSVE) && len + 4 > EMU_FRAME_MAX))
		return tx_abort(emu, &emu->st.tx_dropped_oversize);
	if (emu->config0 & CFG0_TXFCSVE) {
		/* §2.4: the host supplied the FCS; the MAC validates it. */
		if (!emu_fcs_ok(emu->tx.buf, len)) {
			emu->status0 |= ST0_TXFCSE;
			return tx_abort(emu, &emu->st.tx_fcs_errors);
		}
	} else {
		if (len < ETH_ZLEN) {
			memset(emu->tx.buf + len, 0, ETH_ZLEN - len);
			len = ETH_ZLEN;
		}
		emu_fcs_append(emu->tx.buf, len);
		len += 4;
	}
	if (!(emu->mac[MAC_NCR] & NCR_TXEN) || emu->txq_count == TX_SLOTS)
		return tx_abort(emu, &emu->st.tx_dropped_disabled);
	f = &emu->txq[(emu->txq_head + emu->txq_count) % TX_SLOTS];
	memcpy(f->data, emu->tx.buf, len);
	f->len = len;
	f->chunks = emu->tx.chunks;
	f->t_ready = t_ready;
	emu->txq_count++;
	emu->kick = true;
	tx_abort(emu, NULL);
}

static void tx_start(struct lan865x_emu *emu, bool drop_ovf)
{
	tx_abort(emu, NULL);
	cnt(&emu->st.tx_started);
	emu->tx.active = true;
	emu->tx.drop_ovf = drop_ovf;
}

static void tx_protocol_error(struct lan865x_emu *emu)
{
	emu->status0 |= ST0_TXPE;
	cnt(&emu->st.txpe);
	tx_abort(emu, &emu->st.tx_dropped_protocol);
}

/* A protocol error on a chunk with a good header; an SV in it is a frame
 * the host handed over and the chip refused: started and dropped. */
static void tx_refuse(struct lan865x_emu *emu, bool sv)
{
	tx_protocol_error(emu);
	if (sv) {
		cnt(&emu->st.tx_started);
		cnt(&emu->st.tx_dropped_protocol);
	}
}

/* One DV=1 TX chunk (§2.2, §2.4, §2.5). */
static void tx_chunk(struct lan865x_emu *emu, uint32_t hdr, const uint8_t *p, unsigned cs,
		     uint64_t t_end)
{
	bool sv = hdr & DH_SV, ev = hdr & DH_EV;
	size_t start = 4u * ETHDRV_FIELD_GET(DH_SWO, hdr);
	size_t ebo = ETHDRV_FIELD_GET(DH_EBO, hdr);
	bool ovf = tx_free(emu) == 0;
	/* EV closes the current frame unless the chunk starts a frame before it. */
	bool ends_cur = ev && (!sv || ebo < start);

	/* 1. Offsets must lie inside the payload. */
	if ((sv && start >= cs) || (ev && ebo >= cs))
		return tx_refuse(emu, sv);
	/* 2. Credits: a chunk beyond them is dropped, its frames are cut (§2.5). */
	if (ovf) {
		emu->status0 |= ST0_TXBOE;
		cnt(&emu->st.txboe);
	}
	/* 3. Framing rules (§3.4 TXPE, triggers per lan865x_emu.h). */
	if (emu->tx.active) {
		if (sv && !ends_cur)
			return tx_refuse(emu, true);
		emu->tx.drop_ovf |= ovf;
		emu->tx.chunks += !ovf;
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
	emu->tx.chunks = !ovf;
	if (!ev) {
		tx_append(emu, p + start, cs - start);
		return;
	}
	tx_append(emu, p + start, ebo + 1 - start);
	tx_finish(emu, t_end);
}

static void tx_flush(struct lan865x_emu *emu)
{
	/* Frames the medium pulled are on the wire: tx_done still counts them. */
	ethdrv_counter_add(&emu->st.tx_flushed,
			   emu->txq_count - emu->txq_inflight + (emu->tx.active ? 1u : 0u));
	emu->tx_wire_gone += emu->txq_inflight;
	tx_abort(emu, NULL);
	emu->txq_head = 0;
	emu->txq_count = 0;
	emu->txq_inflight = 0;
}

/* ---- RX buffer ---- */

static struct rx_frame *rxq_at(struct lan865x_emu *emu, unsigned idx)
{
	return &emu->rxq[(emu->rxq_head + idx) % emu->rxq_slots];
}

static void rx_pop(struct lan865x_emu *emu)
{
	if (emu->rx_off)
		cnt(&emu->st.rx_cut); /* the host saw its start but will not see its end */
	emu->rxq_head = (emu->rxq_head + 1) % emu->rxq_slots;
	emu->rxq_count--;
	emu->rx_off = 0;
}

static unsigned rfa(const struct lan865x_emu *emu)
{
	return ETHDRV_FIELD_GET(CFG0_RFA, emu->config0);
}

/*
 * Plan one RX chunk from cursor @c and advance it (§2.3, §2.4): first the
 * rest of a frame in progress, then, if allowed, the start of the next
 * visible frame (at word 0 only with ZARFE/CSARFE; without alignment also
 * after an EV in the same chunk, as long as the new frame does not end in
 * this chunk too, because a footer has one EV).
 */
static void rx_plan_chunk(struct lan865x_emu *emu, struct rx_cursor *c, unsigned cs, uint64_t t_vis,
			  bool may_start, struct rx_plan *pl)
{
	size_t pos = 0, w, n;
	struct rx_frame *f;

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
	if (f->t_end > t_vis || (pos > 0 && rfa(emu)) || 4 * w >= cs ||
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
static unsigned rx_chunks_pending(struct lan865x_emu *emu, uint64_t t_vis, unsigned cap)
{
	struct rx_cursor c = { 0, emu->rx_off };
	struct rx_plan pl;
	unsigned n = 0;

	while (n < cap) {
		rx_plan_chunk(emu, &c, payload_size(emu), t_vis, true, &pl);
		if (!(pl.bits & DF_DV))
			break;
		n++;
	}
	return n;
}

/* RX buffer occupancy in chunks of the current payload size. */
static unsigned rx_occupancy(struct lan865x_emu *emu)
{
	unsigned cs = payload_size(emu), occ = 0;

	for (unsigned i = 0; i < emu->rxq_count; i++) {
		size_t rem = rxq_at(emu, i)->len - (i == 0 ? emu->rx_off : 0);

		occ += (unsigned)((rem + cs - 1) / cs);
	}
	return occ;
}

/* Fill one RX payload (already zeroed) and return its footer bits. */
static uint32_t rx_fill(struct lan865x_emu *emu, uint8_t *out, unsigned cs, uint64_t t_vis,
			bool first)
{
	struct rx_cursor c = { 0, emu->rx_off };
	bool may_start = !(rfa(emu) & RFA_CSARFE) || first; /* §2.4 CSARFE */
	struct rx_plan pl;

	rx_plan_chunk(emu, &c, cs, t_vis, may_start, &pl);
	for (unsigned i = 0; i < pl.nseg; i++) {
		memcpy(out + pl.seg[i].dst, rxq_at(emu, pl.seg[i].idx)->data + pl.seg[i].off,
		       pl.seg[i].n);
		if (pl.seg[i].off == 0)
			cnt(&emu->st.rx_started);
	}
	for (unsigned i = 0; i < c.idx; i++) {
		emu->rx_off = 0; /* delivered, not cut */
		rx_pop(emu);
		cnt(&emu->st.rx_delivered);
	}
	emu->rx_off = c.off;
	return pl.bits;
}

static void rx_flush(struct lan865x_emu *emu)
{
	if (emu->rx_off)
		cnt(&emu->st.rx_cut);
	ethdrv_counter_add(&emu->st.rx_flushed, emu->rxq_count);
	emu->rxq_head = 0;
	emu->rxq_count = 0;
	emu->rx_off = 0;
}

/* ---- registers ---- */

static void plca_defaults(struct lan865x_emu *emu)
{
	memcpy(emu->plca, plca_reset, sizeof(emu->plca));
}

/* Registers, TX/RX buffers and SYNC to their reset state; RESETC and IRQ_N (§4.1). */
static void do_reset(struct lan865x_emu *emu)
{
	emu->config0 = CONFIG0_RESET;
	emu->status0 = ST0_RESETC;
	emu->status1 = 0;
	emu->imask0 = IMASK0_RESET;
	emu->imask1 = IMASK1_RESET;
	emu->bmcr = 0;
	memset(emu->mac, 0, sizeof(emu->mac));
	emu->mac[MAC_NCFGR] = NCFGR_RESET;
	memset(emu->sa_en, 0, sizeof(emu->sa_en));
	memset(emu->vend2, 0, sizeof(emu->vend2));
	emu->vend2[V2_COL_DET_CTRL0] = 0x8083;
	plca_defaults(emu);
	memset(emu->misc, 0, sizeof(emu->misc));
	emu->halted = false;
	emu->fault_rx_ovf = false;
	emu->rep_rca = emu->rep_txc = emu->rep_exst = false;
	tx_flush(emu);
	rx_flush(emu);
	cnt(&emu->st.resets);
	irq_assert(emu);
}

static uint32_t bufsts(struct lan865x_emu *emu)
{
	uint64_t t = ETHDRV_MAX(emu->bus_clock, emu_now(emu));

	/* §2.3: the same counters as the footer, 8 bits wide, not saturated at 31. */
	return ETHDRV_FIELD_PREP(ETHDRV_GENMASK(15, 8), ETHDRV_MIN(tx_free(emu), 255u)) |
	       rx_chunks_pending(emu, t, 255);
}

/* The surrogate link status (lan865x_emu.h): powered and on the segment. */
static bool phy_link(const struct lan865x_emu *emu)
{
	return !emu->link_cut && !(emu->bmcr & BMCR_PDOWN);
}

/* The link status changes: a loss latches LSTATUS low (IEEE 22.2.4.2.13),
 * either change raises the PHY interrupt summarised in STATUS0.PHYINT. */
static void phy_link_changed(struct lan865x_emu *emu, bool was)
{
	if (was == phy_link(emu))
		return;
	if (was)
		emu->lstatus_low = true;
	emu->status0 |= ST0_PHYINT;
}

/* A control read of BMSR: the latch and the PHY interrupt are acknowledged. */
static void phy_bmsr_read(struct lan865x_emu *emu)
{
	emu->lstatus_low = false;
	emu->status0 &= ~ST0_PHYINT;
}

static bool mms0_read(struct lan865x_emu *emu, uint16_t a, uint32_t *v)
{
	switch (a) {
	case R_IDVER:
		*v = IDVER_VAL;
		return true;
	case R_PHYID:
		*v = PHYID_VAL;
		return true;
	case R_STDCAP:
		*v = STDCAP_VAL;
		return true;
	case R_RESET:
		*v = 0;
		return true;
	case R_CONFIG0:
		*v = emu->config0;
		return true;
	case R_STATUS0:
		*v = emu->status0;
		return true;
	case R_STATUS1:
		*v = emu->status1;
		return true;
	case R_BUFSTS:
		*v = bufsts(emu);
		return true;
	case R_IMASK0:
		*v = emu->imask0;
		return true;
	case R_IMASK1:
		*v = emu->imask1;
		return true;
	case R_PHY_BASE + 0:
		*v = emu->bmcr;
		return true;
	case R_PHY_BASE + 1:
		*v = BMSR_CAPS | (phy_link(emu) && !emu->lstatus_low ? BMSR_LSTATUS : 0);
		return true;
	case R_PHY_BASE + 2:
		*v = PHYID1_VAL;
		return true;
	case R_PHY_BASE + 3:
		*v = PHYID2_VAL;
		return true;
	default:
		/* TTSCA..C (0x10-0x15): no timestamps are captured, they read 0. */
		*v = 0;
		return a >= 0x10 && a <= 0x15;
	}
}

static bool mac_implemented(uint16_t a)
{
	return a == MAC_NCR || a == MAC_NCFGR || (a >= MAC_HRB && a <= MAC_TIDM4) ||
	       (a >= MAC_TSU_FIRST && a <= MAC_TI);
}

/* AN1760 indirect trim values (§5.3), per lan865x_emu.h. */
static uint16_t indirect_value(const struct lan865x_emu *emu, uint16_t addr)
{
	switch (addr) {
	case 0x04:
		return (uint16_t)(emu->cfg.trim_offset1 & 0x1F);
	case 0x08:
		return (uint16_t)(emu->cfg.trim_offset2 & 0x1F);
	case 0x05:
		return 0x0040;
	default:
		return 0;
	}
}

static bool mms4_read(struct lan865x_emu *emu, uint16_t a, uint32_t *v)
{
	*v = 0;
	if (a < 0x100) {
		*v = emu->vend2[a];
		return true;
	}
	if (a >= PLCA_BASE && a < PLCA_BASE + PLCA_NREGS) {
		*v = emu->plca[a - PLCA_BASE];
		if (a == PLCA_BASE + 3)
			*v = emu->plca_pst ? PLCA_PST : 0;
		return true;
	}
	return false;
}

static bool misc_implemented(uint16_t a)
{
	return a == MISC_QTXCFG || a == MISC_QRXCFG || a == MISC_PADCTRL || a == MISC_CLKOCTL ||
	       a == MISC_MISC || a == MISC_DEVID;
}

/* A register read as a control transaction sees it; false if unimplemented (reads 0). */
static bool reg_read(struct lan865x_emu *emu, unsigned mms, uint16_t a, uint32_t *v)
{
	*v = 0;
	switch (mms) {
	case 0:
		return mms0_read(emu, a, v);
	case 1:
		if (!mac_implemented(a))
			return false;
		*v = emu->mac[a];
		return true;
	case 4:
		return mms4_read(emu, a, v);
	case 10:
		if (!misc_implemented(a))
			return false;
		/* §5.1 DEVID: MODEL 19:4, REV 3:0. */
		*v = a == MISC_DEVID ? (uint32_t)emu->cfg.model << 4 | emu->cfg.rev : emu->misc[a];
		return true;
	default:
		return false;
	}
}

static void config0_write(struct lan865x_emu *emu, uint32_t v)
{
	uint32_t cps = ETHDRV_FIELD_GET(CFG0_CPS, v);
	uint32_t nv = (v & ETHDRV_GENMASK(15, 4)) | (emu->config0 & CFG0_SYNC);

	/* §3.3: SYNC is set by the host and cleared only by a reset; LAN8650
	 * supports CPS 32/64 only (§2.1); bit 3 is reserved. */
	nv |= (cps == 5 || cps == 6) ? (v & CFG0_CPS) : (emu->config0 & CFG0_CPS);
	emu->config0 = nv;
}

static void mms0_write(struct lan865x_emu *emu, uint16_t a, uint32_t v)
{
	switch (a) {
	case R_RESET:
		if (v & ETHDRV_BIT(0)) {
			ethdrv_dbg(NULL, "emu%u: software reset", emu->cfg.node_id);
			do_reset(emu); /* SWRESET, self-clearing (§3.2) */
		}
		break;
	case R_CONFIG0:
		config0_write(emu, v);
		break;
	case R_STATUS0:
		emu->status0 &= ~(v & ST0_ALL & ~ST0_PHYINT);
		break; /* W1C */
	case R_STATUS1:
		emu->status1 &= ~v;
		break;
	case R_IMASK0:
		emu->imask0 = v & ST0_ALL & ~ST0_RESETC;
		break; /* §3.4 */
	case R_IMASK1:
		emu->imask1 = v;
		break;
	case R_PHY_BASE + 0: {
		bool was = phy_link(emu);

		emu->bmcr = (v & ETHDRV_BIT(15)) ? 0 : (uint16_t)v;
		phy_link_changed(emu, was);
		break;
	}
	default:
		break;
	}
}

static void mac_write(struct lan865x_emu *emu, uint16_t a, uint32_t v)
{
	if (!mac_implemented(a))
		return;
	if (a == MAC_NCR && (v & NCR_TXEN) && emu->txq_count > emu->txq_inflight)
		emu->kick = true;
	emu->mac[a] = v;
	/* §5.2 (Cadence-GEM convention): SABn disables filter n, SATn enables it. */
	if (a >= MAC_SAB1 && a <= MAC_SAT4)
		emu->sa_en[(a - MAC_SAB1) / 2] = (a - MAC_SAB1) & 1;
}

static void mms4_write(struct lan865x_emu *emu, uint16_t a, uint32_t v)
{
	if (a == V2_IND_CTRL) {
		/* §5.3: 0xD8 = address, 0xDA = 0x0002 latches the value into 0xD9. */
		if (v & IND_READ)
			emu->vend2[V2_IND_DATA] = indirect_value(emu, emu->vend2[V2_IND_ADDR]);
		return;
	}
	if (a < 0x100) {
		if (a != V2_IND_DATA)
			emu->vend2[a] = (uint16_t)v;
		return;
	}
	if (a == PLCA_BASE + 1 && (v & PLCA_CTRL0_RST)) {
		plca_defaults(emu); /* §3.6 CTRL0.RST */
		return;
	}
	if (a > PLCA_BASE && a < PLCA_BASE + PLCA_NREGS && a != PLCA_BASE + 3)
		emu->plca[a - PLCA_BASE] = (uint16_t)(a == PLCA_BASE + 1 ? v & PLCA_CTRL0_EN : v);
}

static void reg_write(struct lan865x_emu *emu, unsigned mms, uint16_t a, uint32_t v)
{
	switch (mms) {
	case 0:
		mms0_write(emu, a, v);
		break;
	case 1:
		mac_write(emu, a, v);
		break;
	case 4:
		mms4_write(emu, a, v);
		break;
	case 10:
		if (misc_implemented(a) && a != MISC_DEVID)
			emu->misc[a] = v;
		break;
	default:
		break;
	}
}

/* ---- control transactions (§1.2-§1.6) ---- */

static void ctrl_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t hdr = get_be32(in);
	bool prot = emu->config0 & CFG0_PROTE, wnr = hdr & CTL_WNR;
	unsigned n = ETHDRV_FIELD_GET(CTL_LEN, hdr) + 1u, mms = ETHDRV_FIELD_GET(CTL_MMS, hdr);
	uint16_t addr = (uint16_t)ETHDRV_FIELD_GET(CTL_ADDR, hdr);
	size_t stride = prot ? 8 : 4, expect = 8 + stride * n;

	cnt(&emu->st.ctrl_transfers);
	if (emu->fault_hdr) {
		hdr ^= 1;
		emu->fault_hdr = false;
	}
	/* 1. Bad header parity: echo with HDRB, no access, HDRE (§1.2, §3.4). */
	if (!parity_ok(hdr)) {
		put_be32(out, len, 4, with_parity(hdr | HDR_HDRB));
		emu->status0 |= ST0_HDRE;
		cnt(&emu->st.hdr_errors);
		return;
	}
	if (len != expect)
		cnt(&emu->st.ctrl_len_errors);
	/* 2. MISO is MOSI delayed by one word: header echo, then write data (§1.4). */
	put_be32(out, len, 4, hdr);
	if (wnr)
		memcpy(out + 8, in + 4,
		       ETHDRV_MIN(len, expect) > 8 ? ETHDRV_MIN(len, expect) - 8 : 0);
	/* 3. One access per register; a write needs its value (and complement, §1.5). */
	for (unsigned i = 0; i < n; i++) {
		size_t off = 4 + i * stride;
		uint16_t a = (hdr & CTL_AID) ? addr : (uint16_t)(addr + i);
		uint32_t v;

		if (wnr) {
			if (off + stride > len)
				break;
			v = get_be32(in + off);
			if (prot && (v ^ get_be32(in + off + 4)) != 0xFFFFFFFFu) {
				emu->status0 |= ST0_CDPE; /* §1.5: write not performed */
				cnt(&emu->st.cdpe);
				continue;
			}
			reg_write(emu, mms, a, v);
			cnt(&emu->st.ctrl_writes);
		} else {
			if (off + 4 >= len)
				break;
			reg_read(emu, mms, a, &v);
			if (mms == 0 && a == R_PHY_BASE + 1)
				phy_bmsr_read(emu);
			cnt(&emu->st.ctrl_reads);
			put_be32(out, len, off + 4, v);
			if (prot)
				put_be32(out, len, off + 8, ~v);
		}
	}
}

/* ---- data transactions (§2) ---- */

static uint32_t footer(struct lan865x_emu *emu, bool hdrb, uint32_t rxbits, uint64_t t_vis)
{
	unsigned rca = 0, txc = ETHDRV_MIN(tx_free(emu), 31u);
	bool exst = exst_pending(emu), sync = emu->config0 & CFG0_SYNC;
	uint32_t f;

	if (is_live(emu))
		rca = rx_chunks_pending(emu, t_vis, 31);
	f = (exst ? DF_EXST : 0) | (hdrb ? DF_HDRB : 0) | (sync ? DF_SYNC : 0) |
	    ETHDRV_FIELD_PREP(DF_RCA, rca) | rxbits | ETHDRV_FIELD_PREP(DF_TXC, txc);
	/* Remember what the host has been told (§2.5 "not already reported"). */
	emu->rep_rca = rca > 0;
	emu->rep_txc = txc >= txc_threshold(emu);
	emu->rep_exst = exst;
	return with_parity(f);
}

/* One chunk: MOSI header+payload in @in, MISO payload+footer to @out (§2.1). */
static void data_chunk(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out, unsigned cs,
		       uint64_t t_start, uint64_t t_end, bool first)
{
	uint32_t hdr = get_be32(in), rxbits = 0;
	bool live = is_live(emu); /* §4.1, §6 */

	cnt(&emu->st.chunks);
	memset(out, 0, cs);
	if (emu->fault_hdr) {
		hdr ^= 1;
		emu->fault_hdr = false;
	}
	if (!parity_ok(hdr) || !(hdr & HDR_DNC)) {
		emu->status0 |= ST0_HDRE; /* §2.3 HDRB: the chunk is not accepted */
		cnt(&emu->st.hdr_errors);
		put_be32(out, cs + 4, cs, footer(emu, true, 0, t_start));
		return;
	}
	irq_deassert(emu); /* §2.5: the next data header releases IRQ_N */
	if (live && (hdr & DH_DV))
		tx_chunk(emu, hdr, in + 4, cs, t_end);
	/* An internal fault discards frame data; a frame begun now is lost here
	 * (the footer still shows a good header and SYNC, so the host counts it
	 * as taken). */
	if (emu->halted && (hdr & DH_DV) && (hdr & DH_SV)) {
		cnt(&emu->st.tx_started);
		cnt(&emu->st.tx_dropped_disabled);
	}
	if (live && !(hdr & DH_NORX))
		rxbits = rx_fill(emu, out, cs, t_start, first);
	put_be32(out, cs + 4, cs, footer(emu, false, rxbits, t_start));
}

static void data_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out, size_t len,
			  uint64_t t0)
{
	unsigned cs = payload_size(emu);
	size_t clen = cs + 4u, n = len / clen, rest = len % clen;

	for (size_t k = 0; k < n; k++) {
		uint64_t ts = t0 + emu->cfg.setup_ns + bytes_ns(emu, k * clen);

		data_chunk(emu, in + k * clen, out + k * clen, cs, ts, ts + bytes_ns(emu, clen),
			   k == 0);
	}
	if (!rest)
		return;
	/* Loss of framing: CS rose inside a chunk (§3.4, assumption in the header). */
	memset(out + n * clen, 0, rest);
	emu->status0 |= ST0_LOFE;
	cnt(&emu->st.lofe);
	tx_abort(emu, &emu->st.tx_dropped_protocol);
}

/* ---- bit errors ---- */

static uint64_t rng_next(struct lan865x_emu *emu)
{
	/* xorshift64* */
	uint64_t x = emu->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	emu->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Bits before the next error: geometric with parameter @ber. */
static uint64_t flip_gap(struct lan865x_emu *emu, double ber)
{
	double u = (double)((rng_next(emu) >> 11) + 1) * 0x1.0p-53; /* (0, 1] */
	double g = floor(log(u) / log1p(-ber));

	return g >= 0x1.0p62 ? UINT64_C(1) << 62 : (uint64_t)g;
}

static void flip_bits(struct lan865x_emu *emu, uint8_t *buf, size_t len, double ber, uint64_t *skip,
		      ethdrv_counter_t *flips)
{
	uint64_t nbits = (uint64_t)len * 8u, pos = 0;

	if (ber <= 0)
		return;
	while (*skip < nbits - pos) {
		pos += *skip;
		buf[pos / 8] ^= (uint8_t)(0x80u >> (pos % 8));
		cnt(flips);
		pos++;
		*skip = flip_gap(emu, ber);
	}
	*skip -= nbits - pos;
}

/* Flip MISO bits chunk by chunk (same PRNG sequence as in one go) and count
 * the footers that lost a frame start or changed undetectably. */
static void miso_errors(struct lan865x_emu *emu, uint8_t *rx, size_t len, bool data)
{
	size_t clen = payload_size(emu) + 4u, k;
	uint32_t clean, seen;

	if (emu->cfg.miso_ber <= 0)
		return;
	for (k = 0; data && k + clen <= len; k += clen) {
		clean = get_be32(rx + k + clen - 4);
		flip_bits(emu, rx + k, clen, emu->cfg.miso_ber, &emu->skip_miso,
			  &emu->st.miso_flips);
		seen = get_be32(rx + k + clen - 4);
		if (seen != clean && parity_ok(seen))
			cnt(&emu->st.miso_ftr_undetected);
		else if (seen != clean && (clean & DF_DV) && (clean & DF_SV))
			cnt(&emu->st.miso_sv_hidden);
	}
	if (k < len)
		flip_bits(emu, rx + k, len - k, emu->cfg.miso_ber, &emu->skip_miso,
			  &emu->st.miso_flips);
}

/* Count data headers that bit errors changed without breaking their parity. */
static void mosi_count_undetected(struct lan865x_emu *emu, const uint8_t *clean,
				  const uint8_t *seen, size_t len)
{
	size_t clen = payload_size(emu) + 4u;

	if (len < 4 || !(get_be32(clean) & HDR_DNC))
		return;
	for (size_t k = 0; k + clen <= len; k += clen)
		if (get_be32(clean + k) != get_be32(seen + k) && parity_ok(get_be32(seen + k)))
			cnt(&emu->st.mosi_hdr_undetected);
}

static const uint8_t *mosi_errors(struct lan865x_emu *emu, const uint8_t *tx, size_t len)
{
	if (emu->cfg.mosi_ber <= 0)
		return tx;
	if (emu->scratch_len < len) {
		uint8_t *p = realloc(emu->scratch, len);

		if (!p)
			return tx; /* no memory: this transfer goes through unflipped */
		emu->scratch = p;
		emu->scratch_len = len;
	}
	memcpy(emu->scratch, tx, len);
	flip_bits(emu, emu->scratch, len, emu->cfg.mosi_ber, &emu->skip_mosi, &emu->st.mosi_flips);
	mosi_count_undetected(emu, tx, emu->scratch, len);
	return emu->scratch;
}

/* ---- the SPI slave ---- */

static void hold_caller(struct lan865x_emu *emu, uint64_t bus_end)
{
	uint64_t now = mono_ns(), until, t1;
	struct timespec ts;

	if (!emu->cfg.realtime || bus_end <= now + emu->cfg.slack_ns)
		return;
	/* Architecture §4: hold only when the bus runs ahead by more than the slack. */
	until = bus_end - emu->cfg.slack_ns;
	ts.tv_sec = (time_t)(until / 1000000000u);
	ts.tv_nsec = (long)(until % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	t1 = mono_ns();
	ethdrv_counter_add(&emu->st.held_ns, t1 - now);
}

int lan865x_emu_transfer(struct lan865x_emu *emu, const uint8_t *tx, uint8_t *rx, size_t len)
{
	uint64_t t0, dur, bus_end;
	struct emu_medium *m = NULL;
	const uint8_t *in;
	unsigned port = 0;
	bool ctrl;

	if (!len)
		return 0;
	if (!tx || !rx)
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	/* 1. Bus clock (architecture §4): never behind real time. */
	t0 = ETHDRV_MAX(emu->bus_clock, emu_now(emu));
	dur = emu->cfg.setup_ns + bytes_ns(emu, len);
	bus_end = emu->bus_clock = t0 + dur;
	emu->virt_now = ETHDRV_MAX(emu->virt_now, bus_end);
	cnt(&emu->st.transfers);
	ethdrv_counter_add(&emu->st.bytes, len);
	ethdrv_counter_add(&emu->st.bus_ns, dur);
	/* 2. Bit errors on MOSI, then the slave proper, then bit errors on MISO. */
	in = mosi_errors(emu, tx, len);
	memset(rx, 0, len);
	ctrl = len >= 4 && !(get_be32(in) & HDR_DNC);
	if (ctrl)
		ctrl_transfer(emu, in, rx, len);
	else
		data_transfer(emu, in, rx, len, t0);
	miso_errors(emu, rx, len, !ctrl);
	/* 3. IRQ_N for whatever the last footer did not report; kick outside the lock. */
	irq_update(emu);
	if (emu->kick && emu->medium) {
		m = emu->medium;
		port = emu->port;
	}
	emu->kick = false;
	pthread_mutex_unlock(&emu->lock);
	if (m)
		emu_medium_kick(m, port);
	hold_caller(emu, bus_end);
	return 0;
}

static int bus_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	return lan865x_emu_transfer(ctx, tx, rx, len);
}

static const struct ethdrv_spi_ops lan865x_emu_spi_ops = {
	.transfer = bus_transfer,
	.close = NULL,
};

void lan865x_emu_get_bus(struct lan865x_emu *emu, struct ethdrv_spi_bus *bus)
{
	memset(bus, 0, sizeof(*bus));
	bus->ops = &lan865x_emu_spi_ops;
	bus->ctx = emu;
	bus->irq_fd = emu->irq_fd;
	bus->hz = emu->cfg.spi_hz;
	snprintf(bus->desc, sizeof(bus->desc), "emu:lan%04x", (unsigned)emu->cfg.model);
}

/* ---- the MAC receive path (medium side) ---- */

/* §4.2: 6-bit index, bit j = XOR of DA bits j, j+6, ... (bit 0 = LSB of byte 0). */
static unsigned hash_index(const uint8_t *da)
{
	unsigned idx = 0;

	for (unsigned b = 0; b < 48; b++)
		idx ^= ((da[b / 8] >> (b % 8)) & 1u) << (b % 6);
	return idx;
}

static bool hash_hit(const struct lan865x_emu *emu, const uint8_t *da)
{
	unsigned i = hash_index(da);
	uint32_t reg = i < 32 ? emu->mac[MAC_HRB] : emu->mac[MAC_HRT];

	return (reg >> (i % 32)) & 1u;
}

static bool sa_hit(const struct lan865x_emu *emu, const uint8_t *da)
{
	for (unsigned n = 0; n < 4; n++) {
		uint32_t b = emu->mac[MAC_SAB1 + 2 * n], t = emu->mac[MAC_SAB1 + 2 * n + 1];
		/* §5.2: SAB = bytes 0-3 little-endian, SAT 15:0 = bytes 4-5. */
		uint32_t lo = da[0] | da[1] << 8 | da[2] << 16 | (uint32_t)da[3] << 24;
		uint32_t hi = da[4] | da[5] << 8;

		if (emu->sa_en[n] && b == lo && (t & 0xFFFF) == hi)
			return true;
	}
	return false;
}

static bool filter_pass(const struct lan865x_emu *emu, const uint8_t *da)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint32_t ncfgr = emu->mac[MAC_NCFGR];

	if (ncfgr & NCFGR_CAF)
		return true;
	if (!memcmp(da, bcast, 6))
		return !(ncfgr & NCFGR_NBC);
	if (sa_hit(emu, da))
		return true;
	if (da[0] & 1)
		return (ncfgr & NCFGR_MTIHEN) && hash_hit(emu, da);
	return (ncfgr & NCFGR_UNIHEN) && hash_hit(emu, da);
}

static size_t rx_max_len(const struct lan865x_emu *emu, const uint8_t *f)
{
	if (emu->mac[MAC_NCFGR] & NCFGR_MAXFS)
		return EMU_FRAME_MAX;
	return (f[12] == 0x81 && f[13] == 0x00) ? RX_MAX_LEN_VLAN : RX_MAX_LEN_DEFAULT;
}

/* Which counter drops this frame, or NULL to accept it; sets *@fd. */
static ethdrv_counter_t *rx_verdict(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool *fd)
{
	*fd = false;
	if (!(emu->config0 & CFG0_SYNC))
		return &emu->st.rx_dropped_sync; /* §4.1: no frame data while SYNC=0 */
	if (emu->halted || !(emu->mac[MAC_NCR] & NCR_RXEN))
		return &emu->st.rx_dropped_disabled;
	if (len < EMU_MIN_FRAME || len > rx_max_len(emu, f))
		return &emu->st.rx_dropped_length;
	if (!emu_fcs_ok(f, len)) {
		if (!(emu->mac[MAC_NCFGR] & NCFGR_IRXFCS))
			return &emu->st.rx_dropped_fcs;
		*fd = true;
	}
	if (!filter_pass(emu, f))
		return &emu->st.rx_dropped_filter;
	return NULL;
}

/* Store an accepted frame, or drop it with RXBOE if it does not fit (§3.4). */
static void rx_store(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd, uint64_t t_end)
{
	unsigned cs = payload_size(emu);
	unsigned cap = (unsigned)((uint64_t)emu->cfg.rx_buf_chunks * MAX_PAYLOAD / cs);
	size_t hlen = (emu->mac[MAC_NCFGR] & NCFGR_RFCS) ? len - 4 : len; /* §2.4 RFCS */
	struct rx_frame *r;

	if (emu->fault_rx_ovf || emu->rxq_count == emu->rxq_slots ||
	    rx_occupancy(emu) + (hlen + cs - 1) / cs > cap) {
		emu->fault_rx_ovf = false;
		emu->status0 |= ST0_RXBOE;
		cnt(&emu->st.rx_dropped_overflow);
		return;
	}
	r = rxq_at(emu, emu->rxq_count);
	memcpy(r->data, f, hlen);
	r->len = hlen;
	r->fd = fd;
	r->t_end = t_end;
	emu->rxq_count++;
	cnt(&emu->st.rx_frames);
	ethdrv_counter_add(&emu->st.rx_bytes, hlen);
}

static void port_rx(void *node, const uint8_t *frame, size_t len, uint64_t t_end)
{
	struct lan865x_emu *emu = node;
	ethdrv_counter_t *drop;
	bool fd;

	pthread_mutex_lock(&emu->lock);
	emu->virt_now = ETHDRV_MAX(emu->virt_now, t_end);
	drop = rx_verdict(emu, frame, len, &fd);
	if (drop)
		cnt(drop);
	else
		rx_store(emu, frame, len, fd, t_end);
	irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
}

static bool port_tx_pull(void *node, uint8_t *buf, size_t max, size_t *len, uint64_t *t_ready)
{
	struct lan865x_emu *emu = node;
	struct tx_frame *f;
	bool ok = false;

	pthread_mutex_lock(&emu->lock);
	if (emu->txq_inflight < emu->txq_count && is_live(emu) && (emu->mac[MAC_NCR] & NCR_TXEN)) {
		f = &emu->txq[(emu->txq_head + emu->txq_inflight) % TX_SLOTS];
		if (f->len <= max) {
			memcpy(buf, f->data, f->len);
			*len = f->len;
			*t_ready = f->t_ready;
			emu->txq_inflight++;
			ok = true;
		}
	}
	pthread_mutex_unlock(&emu->lock);
	return ok;
}

static void port_tx_done(void *node, uint64_t t_end)
{
	struct lan865x_emu *emu = node;
	struct tx_frame *f;

	pthread_mutex_lock(&emu->lock);
	emu->virt_now = ETHDRV_MAX(emu->virt_now, t_end);
	/* After a reset the ring no longer holds the frame on the wire, but it
	 * did reach the wire: count it. */
	if (emu->txq_inflight == 0 && emu->tx_wire_gone > 0) {
		emu->tx_wire_gone--;
		cnt(&emu->st.tx_frames);
	} else if (emu->txq_inflight > 0) {
		f = &emu->txq[emu->txq_head];
		cnt(&emu->st.tx_frames);
		ethdrv_counter_add(&emu->st.tx_bytes, f->len);
		emu->txq_head = (emu->txq_head + 1) % TX_SLOTS;
		emu->txq_count--;
		emu->txq_inflight--;
		irq_update(emu); /* credits came back (§2.5) */
	}
	pthread_mutex_unlock(&emu->lock);
}

static void port_get_plca(void *node, struct emu_plca_cfg *cfg)
{
	lan865x_emu_get_plca(node, cfg);
}

static void port_set_plca_status(void *node, bool active)
{
	struct lan865x_emu *emu = node;

	pthread_mutex_lock(&emu->lock);
	emu->plca_pst = active;
	pthread_mutex_unlock(&emu->lock);
}

static const struct emu_port_ops lan865x_emu_ops = {
	.tx_pull = port_tx_pull,
	.tx_done = port_tx_done,
	.rx = port_rx,
	.get_plca = port_get_plca,
	.set_plca_status = port_set_plca_status,
};

const struct emu_port_ops *lan865x_emu_port_ops(void)
{
	return &lan865x_emu_ops;
}

int lan865x_emu_attach(struct lan865x_emu *emu, struct emu_medium *medium, unsigned port)
{
	bool busy, pending;
	int err;

	pthread_mutex_lock(&emu->lock);
	busy = emu->medium != NULL;
	pthread_mutex_unlock(&emu->lock);
	if (busy)
		return -EBUSY;
	err = emu_medium_attach(medium, port, &lan865x_emu_ops, emu);
	if (err)
		return err;
	pthread_mutex_lock(&emu->lock);
	emu->medium = medium;
	emu->port = port;
	pending = emu->txq_count > emu->txq_inflight;
	pthread_mutex_unlock(&emu->lock);
	if (pending)
		emu_medium_kick(medium, port);
	return 0;
}

void lan865x_emu_detach(struct lan865x_emu *emu)
{
	struct emu_medium *m;
	unsigned port;

	pthread_mutex_lock(&emu->lock);
	m = emu->medium;
	port = emu->port;
	emu->medium = NULL;
	pthread_mutex_unlock(&emu->lock);
	if (m)
		emu_medium_detach(m, port);
}

/*
 * The link injection (lan865x_emu.h): cut the node's MDI off the segment,
 * or put it back. Off the segment the node neither hears nor is heard: its
 * port is detached from the medium (frames on the wire to it are lost and
 * counted by the medium; its own wait in the TX buffer) and BMSR reports
 * the loss.
 */
int lan865x_emu_set_link(struct lan865x_emu *emu, bool up)
{
	struct emu_medium *m = NULL;
	unsigned port = 0;
	bool was;

	pthread_mutex_lock(&emu->lock);
	was = phy_link(emu);
	if (emu->link_cut == !up) {
		pthread_mutex_unlock(&emu->lock);
		return 0;
	}
	emu->link_cut = !up;
	phy_link_changed(emu, was);
	irq_update(emu);
	if (!up) {
		emu->cut_medium = emu->medium;
		emu->cut_port = emu->port;
	} else {
		m = emu->cut_medium;
		port = emu->cut_port;
		emu->cut_medium = NULL;
	}
	pthread_mutex_unlock(&emu->lock);
	if (!up)
		lan865x_emu_detach(emu);
	else if (m)
		return lan865x_emu_attach(emu, m, port);
	return 0;
}

bool lan865x_emu_link(struct lan865x_emu *emu)
{
	bool up;

	pthread_mutex_lock(&emu->lock);
	up = !emu->link_cut;
	pthread_mutex_unlock(&emu->lock);
	return up;
}

/* ---- control API ---- */

void lan865x_emu_config_default(struct lan865x_emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->spi_hz = 25000000;
	cfg->setup_ns = 1000;
	cfg->slack_ns = 200000;
	cfg->rx_buf_chunks = 64;
	cfg->seed = 1;
	cfg->realtime = true;
	cfg->model = 0x8650;
	cfg->rev = 2;
	cfg->trim_offset1 = -3;
	cfg->trim_offset2 = 2;
}

static bool ber_ok(double ber)
{
	return ber >= 0 && ber <= 0.5;
}

static int config_check(const struct lan865x_emu_config *c)
{
	if (!c->spi_hz || !c->rx_buf_chunks || c->rx_buf_chunks > 65536 || !ber_ok(c->mosi_ber) ||
	    !ber_ok(c->miso_ber) || c->trim_offset1 < -16 || c->trim_offset1 > 15 ||
	    c->trim_offset2 < -16 || c->trim_offset2 > 15)
		return -EINVAL;
	return 0;
}

static int emu_alloc_buffers(struct lan865x_emu *emu)
{
	/* Frames are >= 60 bytes, so a buffer of N 64-byte blocks holds at most N
	 * frames (or 2N 32-byte chunks, i.e. N frames of >= 2 chunks). */
	emu->rxq_slots = emu->cfg.rx_buf_chunks;
	emu->rxq = calloc(emu->rxq_slots, sizeof(*emu->rxq));
	emu->rx_slab = calloc(emu->rxq_slots, EMU_FRAME_MAX);
	emu->txq = calloc(TX_SLOTS, sizeof(*emu->txq));
	if (!emu->rxq || !emu->rx_slab || !emu->txq)
		return -ENOMEM;
	for (unsigned i = 0; i < emu->rxq_slots; i++)
		emu->rxq[i].data = emu->rx_slab + (size_t)i * EMU_FRAME_MAX;
	return 0;
}

int lan865x_emu_new(const struct lan865x_emu_config *cfg, struct lan865x_emu **out)
{
	struct lan865x_emu *emu;
	int err;

	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	if (cfg)
		emu->cfg = *cfg;
	else
		lan865x_emu_config_default(&emu->cfg);
	err = config_check(&emu->cfg);
	if (err)
		goto err_free;
	err = emu_alloc_buffers(emu);
	if (err)
		goto err_free;
	emu->irq_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (emu->irq_fd < 0) {
		err = -errno;
		goto err_free;
	}
	pthread_mutex_init(&emu->lock, NULL);
	emu->rng = emu->cfg.seed ? emu->cfg.seed : 0x9E3779B97F4A7C15ULL;
	emu->skip_mosi = emu->cfg.mosi_ber > 0 ? flip_gap(emu, emu->cfg.mosi_ber) : 0;
	emu->skip_miso = emu->cfg.miso_ber > 0 ? flip_gap(emu, emu->cfg.miso_ber) : 0;
	emu->bus_clock = emu->cfg.realtime ? mono_ns() : 0;
	do_reset(emu); /* power-on reset */
	*out = emu;
	return 0;

err_free:
	free(emu->rxq);
	free(emu->rx_slab);
	free(emu->txq);
	free(emu);
	return err;
}

void lan865x_emu_free(struct lan865x_emu *emu)
{
	if (!emu)
		return;
	lan865x_emu_detach(emu);
	close(emu->irq_fd);
	pthread_mutex_destroy(&emu->lock);
	free(emu->scratch);
	free(emu->rxq);
	free(emu->rx_slab);
	free(emu->txq);
	free(emu);
}

const char *lan865x_emu_fault_name(enum lan865x_emu_fault fault)
{
	static const char *const names[LAN865X_EMU_FAULT_COUNT] = {
		[LAN865X_EMU_FAULT_RX_OVERFLOW] = "rx_overflow",
		[LAN865X_EMU_FAULT_LOSS_OF_FRAME] = "loss_of_frame",
		[LAN865X_EMU_FAULT_RESET] = "reset",
		[LAN865X_EMU_FAULT_TX_PROTOCOL] = "txpe",
		[LAN865X_EMU_FAULT_HDR_PARITY] = "hdr_parity",
		[LAN865X_EMU_FAULT_INTERNAL] = "internal",
		[LAN865X_EMU_FAULT_CONFIG_UPSET] = "config_upset",
	};

	return (unsigned)fault < LAN865X_EMU_FAULT_COUNT ? names[fault] : NULL;
}

int lan865x_emu_inject(struct lan865x_emu *emu, enum lan865x_emu_fault fault)
{
	if ((unsigned)fault >= LAN865X_EMU_FAULT_COUNT)
		return -EINVAL;
	ethdrv_dbg(NULL, "emu%u: injecting %s", emu->cfg.node_id, lan865x_emu_fault_name(fault));
	pthread_mutex_lock(&emu->lock);
	cnt(&emu->st.faults);
	switch (fault) {
	case LAN865X_EMU_FAULT_RX_OVERFLOW:
		if (emu->rxq_count) {
			emu->status0 |= ST0_RXBOE;
			cnt(&emu->st.rx_dropped_overflow);
			cnt(&emu->st.rx_overflow_buffered);
			rx_pop(emu);
		} else {
			emu->fault_rx_ovf = true;
		}
		break;
	case LAN865X_EMU_FAULT_LOSS_OF_FRAME:
		emu->status0 |= ST0_LOFE;
		cnt(&emu->st.lofe);
		tx_abort(emu, &emu->st.tx_dropped_protocol);
		break;
	case LAN865X_EMU_FAULT_RESET:
		do_reset(emu);
		break;
	case LAN865X_EMU_FAULT_TX_PROTOCOL:
		tx_protocol_error(emu);
		break;
	case LAN865X_EMU_FAULT_HDR_PARITY:
		emu->fault_hdr = true;
		break;
	case LAN865X_EMU_FAULT_CONFIG_UPSET:
		emu->mac[MAC_NCR] = 0;
		break;
	default:
		emu->status1 |= ST1_FSMSTER;
		emu->halted = true;
		break;
	}
	irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

int lan865x_emu_set_ber(struct lan865x_emu *emu, double mosi_ber, double miso_ber)
{
	if (!ber_ok(mosi_ber) || !ber_ok(miso_ber))
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	emu->cfg.mosi_ber = mosi_ber;
	emu->cfg.miso_ber = miso_ber;
	emu->skip_mosi = mosi_ber > 0 ? flip_gap(emu, mosi_ber) : 0;
	emu->skip_miso = miso_ber > 0 ? flip_gap(emu, miso_ber) : 0;
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

void lan865x_emu_get_ber(struct lan865x_emu *emu, double *mosi_ber, double *miso_ber)
{
	pthread_mutex_lock(&emu->lock);
	*mosi_ber = emu->cfg.mosi_ber;
	*miso_ber = emu->cfg.miso_ber;
	pthread_mutex_unlock(&emu->lock);
}

void lan865x_emu_get_stats(struct lan865x_emu *emu, struct lan865x_emu_stats *st)
{
	const ethdrv_counter_t *src = (const ethdrv_counter_t *)&emu->st;
	ethdrv_counter_t *dst = (ethdrv_counter_t *)st;

	for (size_t i = 0; i < sizeof(*st) / sizeof(ethdrv_counter_t); i++)
		ethdrv_counter_set(&dst[i], ethdrv_counter_get(&src[i]));
}

void lan865x_emu_get_plca(struct lan865x_emu *emu, struct emu_plca_cfg *cfg)
{
	pthread_mutex_lock(&emu->lock);
	cfg->enabled = emu->plca[1] & PLCA_CTRL0_EN;
	cfg->node_id = (uint8_t)emu->plca[2];
	cfg->node_cnt = (uint8_t)(emu->plca[2] >> 8);
	cfg->to_tmr = (uint8_t)emu->plca[4];
	cfg->burst_cnt = (uint8_t)(emu->plca[5] >> 8);
	cfg->burst_tmr = (uint8_t)emu->plca[5];
	pthread_mutex_unlock(&emu->lock);
}

int lan865x_emu_peek_reg(struct lan865x_emu *emu, unsigned mms, uint16_t addr, uint32_t *val)
{
	bool ok;

	pthread_mutex_lock(&emu->lock);
	ok = mms < 16 && reg_read(emu, mms, addr, val);
	pthread_mutex_unlock(&emu->lock);
	if (!ok)
		*val = 0;
	return ok ? 0 : -ENOENT;
}

bool lan865x_emu_irq_asserted(struct lan865x_emu *emu)
{
	bool a;

	pthread_mutex_lock(&emu->lock);
	a = emu->irq;
	pthread_mutex_unlock(&emu->lock);
	return a;
}

uint64_t lan865x_emu_bus_time(struct lan865x_emu *emu)
{
	uint64_t t;

	pthread_mutex_lock(&emu->lock);
	t = emu->bus_clock;
	pthread_mutex_unlock(&emu->lock);
	return t;
}
