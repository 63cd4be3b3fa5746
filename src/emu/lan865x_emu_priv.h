/* SPDX-License-Identifier: MIT */
/*
 * LAN8650/1 model, private: the device state every file of the model shares,
 * the TC6 wire-format and register names they use, and the calls between
 * them. The public API and the documented assumptions are in lan865x_emu.h.
 *
 * The model is one device in eight files, each owning one concern:
 *   lan865x_emu.c         the device: create/free, the SPI slave entry
 *                         (one transfer, step by step), counters
 *   lan865x_emu_regs.c    the register table, its read/write dispatch, reset,
 *                         and control transactions (docs/tc6.md §1)
 *   lan865x_emu_chunks.c  data transactions (docs/tc6.md §2): the chunk
 *                         engine, footers and the IRQ_N rules
 *   lan865x_emu_tx.c      the TX buffer: frame assembly, framing rules,
 *                         the MAC's TX side, frames for the medium
 *   lan865x_emu_rx.c      the RX buffer: frames stored, read by chunks
 *   lan865x_emu_faults.c  bit errors on MOSI/MISO and lan865x_emu_inject(),
 *                         the one point where faults enter
 *   lan865x_emu_edges.c   IRQ_N's falling edges as an event stream for an
 *                         edge-triggered host (beside the level)
 *   lan865x_emu_port.c    the medium port (frames to and from the wire, the
 *                         MAC receive filter) and time: the bus clock and
 *                         holding the caller (docs/design.md §4)
 *
 * Locking: the functions declared here are called with emu->lock held
 * (or, in lan865x_emu_new(), before anyone else can see the model), except
 * lan865x_emu__hold_caller(), which sleeps and is called without it.
 */
#ifndef ETHDRV_EMU_LAN865X_EMU_PRIV_H
#define ETHDRV_EMU_LAN865X_EMU_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ethdrv/bits.h"
#include "ethdrv/stats.h"
#include "lan865x_emu.h"

/* Control header fields (docs/tc6.md §1.2). */
#define HDR_DNC ETHDRV_BIT(31)
#define HDR_HDRB ETHDRV_BIT(30)
#define CTL_WNR ETHDRV_BIT(29)
#define CTL_AID ETHDRV_BIT(28)
#define CTL_MMS ETHDRV_GENMASK(27, 24)
#define CTL_ADDR ETHDRV_GENMASK(23, 8)
#define CTL_LEN ETHDRV_GENMASK(7, 1)
/* Data header fields (docs/tc6.md §2.2). */
#define DH_NORX ETHDRV_BIT(29)
#define DH_DV ETHDRV_BIT(21)
#define DH_SV ETHDRV_BIT(20)
#define DH_SWO ETHDRV_GENMASK(19, 16)
#define DH_EV ETHDRV_BIT(14)
#define DH_EBO ETHDRV_GENMASK(13, 8)
/* Data footer fields (docs/tc6.md §2.3). */
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

/* MMS0 registers (docs/tc6.md §3.2-§3.5) and the fields other files use. */
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
#define R_TTSCAH 0x10 /* first of the six TX timestamp capture registers */
#define R_PHY_BASE 0xFF00 /* clause-22 PHY registers (BMCR, BMSR, PHYID1/2) */
#define CFG0_SYNC ETHDRV_BIT(15)
#define CFG0_TXFCSVE ETHDRV_BIT(14)
#define CFG0_RFA ETHDRV_GENMASK(13, 12)
#define CFG0_TXCTHRESH ETHDRV_GENMASK(11, 10)
#define CFG0_TXCTE ETHDRV_BIT(9)
#define CFG0_RXCTE ETHDRV_BIT(8)
#define CFG0_PROTE ETHDRV_BIT(5)
#define CFG0_CPS ETHDRV_GENMASK(2, 0)
#define QTXCFG_CTTHR ETHDRV_GENMASK(31, 30) /* MMS10 0x81: blocks before a cut-through start, - 1 */
#define QTXCFG_RESET 0x58100000u
#define RFA_ZARFE 1u
#define RFA_CSARFE 2u
#define ST0_TXPE ETHDRV_BIT(0)
#define ST0_TXBOE ETHDRV_BIT(1)
#define ST0_TXBUE ETHDRV_BIT(2)
#define ST0_RXBOE ETHDRV_BIT(3)
#define ST0_LOFE ETHDRV_BIT(4)
#define ST0_HDRE ETHDRV_BIT(5)
#define ST0_RESETC ETHDRV_BIT(6)
#define ST0_PHYINT ETHDRV_BIT(7)
#define ST0_TXFCSE ETHDRV_BIT(11)
#define ST0_CDPE ETHDRV_BIT(12)
#define ST0_ALL ETHDRV_GENMASK(12, 0)
#define ST1_FSMSTER ETHDRV_BIT(17)

/* MMS1 MAC registers (docs/tc6.md §5.2). */
#define MAC_NCR 0x00
#define MAC_NCFGR 0x01
#define MAC_HRB 0x20
#define MAC_HRT 0x21
#define MAC_SAB1 0x22
#define MAC_SAT4 0x29
#define MAC_TIDM1 0x2A
#define MAC_TIDM4 0x2D
#define MAC_TSU_FIRST 0x6F
#define MAC_TI 0x77
#define MAC_NREGS 0x78
#define MAC_SA_FILTERS 4u
#define NCR_RXEN ETHDRV_BIT(2)
#define NCR_TXEN ETHDRV_BIT(3)
#define NCFGR_CAF ETHDRV_BIT(4)
#define NCFGR_NBC ETHDRV_BIT(5)
#define NCFGR_MTIHEN ETHDRV_BIT(6)
#define NCFGR_UNIHEN ETHDRV_BIT(7)
#define NCFGR_MAXFS ETHDRV_BIT(8)
#define NCFGR_RFCS ETHDRV_BIT(17)
#define NCFGR_IRXFCS ETHDRV_BIT(26)

/* MMS4 = MMD 31, VEND2 (docs/tc6.md §3.1): 0x00-0xFF for AN1760 (docs/tc6.md §5.3)
 * and PLCA (docs/tc6.md §3.6). */
#define VEND2_NREGS 0x100
#define PLCA_IDVER 0xCA00
#define PLCA_CTRL0 0xCA01
#define PLCA_CTRL1 0xCA02
#define PLCA_STATUS 0xCA03
#define PLCA_TOTMR 0xCA04
#define PLCA_BURST 0xCA05
#define PLCA_CTRL0_EN ETHDRV_BIT(15)

#define MAX_PAYLOAD 64u /* largest chunk payload (CPS=6) */
#define TX_ASM_MAX (EMU_FRAME_MAX + MAX_PAYLOAD) /* assembly room; beyond = oversize */
#define TX_SLOTS (LAN865X_EMU_TX_CHUNKS + 1u)

/* One frame in the TX buffer, waiting for or on the wire. */
struct lan865x_emu_tx_frame {
	uint8_t data[EMU_FRAME_MAX]; /* frame incl. FCS */
	size_t len; /* bytes */
	unsigned chunks; /* TX buffer chunks it holds */
	uint64_t t_ready; /* bus time its EV chunk ended */
};

/* Edges of IRQ_N one pending transfer can hold back (a release and an
 * assertion per transfer, a reset and the medium besides). */
#define LAN865X_EMU_EDGES_PENDING 8u

/* One frame in the RX buffer. */
struct lan865x_emu_rx_frame {
	uint8_t *data; /* slot in rx_slab */
	size_t len; /* bytes the host will see */
	bool fd; /* deliver with FD=1 (bad FCS with IRXFCS; any error in cut-through) */
	bool cut_through; /* stored as it arrived (RXCTE): bytes show at their wire time */
	uint64_t t_start; /* when it began on the wire (cut-through) */
	uint64_t t_end; /* when it ended on the wire */
};

struct lan865x_emu {
	pthread_mutex_t lock; /* protects everything below except cfg and irq_fd */
	struct lan865x_emu_config cfg; /* immutable after new, except the BERs */
	int irq_fd; /* IRQ_N, readable while asserted: irq_line_fd, or in real time an
		     * epoll set of it and irq_timer_fd */
	int irq_line_fd; /* eventfd: the level the model drives */
	int irq_timer_fd; /* timerfd (real time, else -1): IRQ_N at a future time */
	uint64_t irq_timer_at; /* when irq_timer_fd expires; 0 = disarmed */
	bool irq_asserted; /* IRQ_N is low in the model */
	bool irq_on_line; /* ...and on the line (irq_fd readable) */
	unsigned xfers_pending; /* transfers processed but not at their bus end yet */
	/* IRQ_N's falling edges (lan865x_emu_edges.c): a pipe when cfg.irq_edges. */
	int edge_rd, edge_wr;
	uint32_t edge_seqno; /* of the last edge written or lost */
	unsigned edges_pending; /* edges waiting for the line to show them */
	uint64_t edge_pending_t[LAN865X_EMU_EDGES_PENDING];

	/* Registers (lan865x_emu_regs.c; docs/tc6.md §3, §5). */
	uint32_t config0, status0, status1, imask0, imask1;
	uint32_t bmcr; /* PHY basic control, MMS0 0xFF00 */
	bool link_cut; /* lan865x_emu_set_link(false): the MDI is off the segment */
	bool lstatus_low; /* BMSR.LSTATUS latched low since the last host read of BMSR */
	struct emu_medium *cut_medium; /* where to attach again when the link returns */
	unsigned cut_port; /* our port on it */
	uint32_t mac[MAC_NREGS]; /* MMS1 0x00-0x77 */
	bool sa_filter_enabled[MAC_SA_FILTERS]; /* specific-address filter n compares */
	uint32_t vend2[VEND2_NREGS]; /* MMS4 (VEND2) 0x00-0xFF */
	uint32_t plca_ctrl0, plca_ctrl1, plca_totmr, plca_burst; /* MMS4 0xCA01-0xCA05 */
	bool plca_active; /* PLCA STATUS.PST: the medium reports beacons */
	uint32_t qtxcfg; /* MMS10 QTXCFG: CTTHR used for TX cut-through, the rest stored */
	uint32_t qrxcfg, padctrl, clkoctl, misc; /* MMS10, stored only */
	bool internal_fault; /* STATUS1.FSMSTER: frame data stopped until a reset (docs/tc6.md §3.5) */

	/* What the last data footer told the host, for the IRQ_N rules (docs/tc6.md §2.5). */
	struct {
		bool rca_nonzero; /* RX chunks were available */
		bool txc_at_threshold; /* TX credits reached CONFIG0.TXCTHRESH */
		bool exst; /* extended status was pending */
	} last_footer;

	/* TX: the frame being assembled from chunks, then a FIFO ring of frames. */
	struct {
		bool active; /* a frame is in progress */
		bool cut_by_overflow; /* a chunk of it was refused (TXBOE): drop it at EV */
		bool discarding; /* after a refused chunk: ignore DV chunks up to an SV */
		bool cut_through; /* begun with CONFIG0.TXCTE (docs/tc6.md §5.4.1) */
		unsigned blocks; /* chunks of it received */
		uint64_t t_threshold; /* cut-through: bus time QTXCFG.CTTHR was met; 0 = not yet */
		size_t len; /* bytes received (may exceed what is stored) */
		unsigned chunks; /* TX buffer chunks charged to it */
		uint8_t buf[TX_ASM_MAX];
	} tx_assembly;
	struct lan865x_emu_tx_frame *txq; /* TX_SLOTS frames */
	unsigned txq_head, txq_count; /* ring */
	unsigned txq_on_wire; /* the first txq_on_wire frames were pulled by the medium */
	unsigned tx_on_wire_at_reset; /* frames on the wire when a reset emptied the ring */
	bool tx_announce; /* a frame became sendable: tell the medium after unlocking */

	/* RX: a FIFO ring of frames; the host reads the head frame. */
	struct lan865x_emu_rx_frame *rxq;
	uint8_t *rx_slab; /* rxq_slots frames of EMU_FRAME_MAX bytes */
	unsigned rxq_slots, rxq_head, rxq_count;
	size_t rx_head_sent; /* bytes of the head frame already sent to the host */
	bool rx_begun; /* a frame taken at rx_begin: its rx() is still to come */
	uint64_t rx_begun_end; /* ...at this t_end */
	bool rx_halted; /* errata s3 reproduced: RX data stopped until a reset */

	/* Injected faults waiting for the event they act on (lan865x_emu_faults.c). */
	struct {
		bool rx_overflow; /* drop the next frame to arrive */
		bool hdr_parity; /* corrupt the next header */
	} armed;

	/* Time (lan865x_emu_port.c; docs/design.md §4). */
	uint64_t bus_clock; /* end of the last transfer */
	uint64_t host_seen; /* end of the host's last transfer: its service gap starts there */
	bool steal_ref; /* holds the steal sampler (realtime) */
	uint64_t virtual_now; /* realtime=false: the latest time the model has seen */

	/* Bit errors (lan865x_emu_faults.c). */
	uint64_t ber_rng; /* xorshift64* state */
	uint64_t mosi_bits_to_flip, miso_bits_to_flip; /* error-free bits before the next flip */
	uint8_t *mosi_copy; /* MOSI as the model sees it when bits flip */
	size_t mosi_copy_len;

	struct emu_medium *medium; /* attached medium or NULL */
	unsigned port; /* our port on it */
	struct lan865x_emu_stats stats;
};

/* docs/tc6.md §1.1: words are big-endian on the wire. */
static inline uint32_t lan865x_emu_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Store @v big-endian at @off, clipped to @len. */
static inline void lan865x_emu_put_be32(uint8_t *buf, size_t len, size_t off, uint32_t v)
{
	for (unsigned i = 0; i < 4 && off + i < len; i++)
		buf[off + i] = (uint8_t)(v >> (24 - 8 * i));
}

/* Odd parity over the whole word (docs/tc6.md §1.3). */
static inline bool lan865x_emu_parity_ok(uint32_t w)
{
	return __builtin_popcount(w) & 1;
}

static inline uint32_t lan865x_emu_with_parity(uint32_t w)
{
	w &= ~UINT32_C(1);
	return w | ethdrv_odd_parity_bit(w);
}

/* docs/tc6.md §2.1: CPS 5 = 32 B, 6 = 64 B; CONFIG0 writes accept only these two. */
static inline unsigned lan865x_emu_payload_size(const struct lan865x_emu *emu)
{
	return ETHDRV_FIELD_GET(CFG0_CPS, emu->config0) == 5 ? 32u : 64u;
}

/* Frame data moves only with SYNC=1 and no internal fault (docs/tc6.md §3.5, §4.1). */
static inline bool lan865x_emu_frame_data_enabled(const struct lan865x_emu *emu)
{
	return (emu->config0 & CFG0_SYNC) && !emu->internal_fault;
}

/* lan865x_emu_regs.c */
void lan865x_emu__reset(struct lan865x_emu *emu);
/* The PHY's surrogate link (lan865x_emu.h) and its change: latch and PHYINT. */
bool lan865x_emu__phy_link(const struct lan865x_emu *emu);
void lan865x_emu__phy_link_changed(struct lan865x_emu *emu, bool was);
void lan865x_emu__ctrl_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out,
				size_t len);

/* lan865x_emu_chunks.c */
void lan865x_emu__data_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out,
				size_t len, uint64_t t0);
void lan865x_emu__irq_assert(struct lan865x_emu *emu);
void lan865x_emu__irq_update(struct lan865x_emu *emu);
void lan865x_emu__irq_sync(struct lan865x_emu *emu);
int lan865x_emu__irq_open(struct lan865x_emu *emu);
void lan865x_emu__irq_close(struct lan865x_emu *emu);
void lan865x_emu__irq_timer_service(struct lan865x_emu *emu);

/* lan865x_emu_edges.c */
int lan865x_emu__edges_open(struct lan865x_emu *emu);
void lan865x_emu__edges_close(struct lan865x_emu *emu);
void lan865x_emu__edge_queue(struct lan865x_emu *emu);
void lan865x_emu__edges_flush(struct lan865x_emu *emu);

/* lan865x_emu_tx.c */
void lan865x_emu__tx_chunk(struct lan865x_emu *emu, uint32_t hdr, const uint8_t *p, unsigned cs,
			   uint64_t t_end);
void lan865x_emu__tx_refused_chunk(struct lan865x_emu *emu);
unsigned lan865x_emu__tx_free(const struct lan865x_emu *emu);
bool lan865x_emu__tx_waiting(const struct lan865x_emu *emu);
bool lan865x_emu__tx_take_for_wire(struct lan865x_emu *emu, uint8_t *buf, size_t max, size_t *len,
				   uint64_t *t_ready);
void lan865x_emu__tx_left_wire(struct lan865x_emu *emu);
void lan865x_emu__tx_protocol_error(struct lan865x_emu *emu);
void lan865x_emu__loss_of_framing(struct lan865x_emu *emu);
void lan865x_emu__tx_flush(struct lan865x_emu *emu);

/* lan865x_emu_rx.c */
uint32_t lan865x_emu__rx_fill_chunk(struct lan865x_emu *emu, uint8_t *out, unsigned cs,
				    uint64_t t_vis, bool first);
unsigned lan865x_emu__rx_chunks_pending(struct lan865x_emu *emu, uint64_t t_vis, unsigned cap);
uint64_t lan865x_emu__rx_next_visible(struct lan865x_emu *emu, uint64_t t);
void lan865x_emu__rx_store(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd,
			   uint64_t t_end);
void lan865x_emu__rx_store_early(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool fd,
				 uint64_t t_start, uint64_t t_end);
void lan865x_emu__rx_drop_head(struct lan865x_emu *emu);
void lan865x_emu__rx_flush(struct lan865x_emu *emu);

/* lan865x_emu_faults.c */
void lan865x_emu__ber_start(struct lan865x_emu *emu);
bool lan865x_emu__ber_is_valid(double ber);
const uint8_t *lan865x_emu__mosi_errors(struct lan865x_emu *emu, const uint8_t *tx, size_t len);
void lan865x_emu__miso_errors(struct lan865x_emu *emu, uint8_t *rx, size_t len, bool data);
uint32_t lan865x_emu__header_as_received(struct lan865x_emu *emu, uint32_t hdr);
bool lan865x_emu__take_rx_overflow(struct lan865x_emu *emu);

/* lan865x_emu_port.c */
void lan865x_emu__clock_start(struct lan865x_emu *emu);
uint64_t lan865x_emu__now(const struct lan865x_emu *emu);
uint64_t lan865x_emu__bus_now(const struct lan865x_emu *emu);
uint64_t lan865x_emu__spi_ns(const struct lan865x_emu *emu, uint64_t nbytes);
uint64_t lan865x_emu__bus_begin(struct lan865x_emu *emu, size_t len);
void lan865x_emu__hold_caller(struct lan865x_emu *emu, uint64_t bus_end);
struct emu_medium *lan865x_emu__medium_to_announce(struct lan865x_emu *emu, unsigned *port);

#endif /* ETHDRV_EMU_LAN865X_EMU_PRIV_H */
