/* SPDX-License-Identifier: MIT */
/*
 * Hardware model of the Microchip LAN8650/1 10BASE-T1S MAC-PHY as an OPEN
 * Alliance TC6 SPI slave, at the byte level (docs/design.md §5). Written from
 * the protocol facts in docs/tc6.md only, not from any driver, so a driver bug
 * is not mirrored here. The driver reaches it through struct ethdrv_spi_bus
 * (lan865x_emu_get_bus()); a medium (medium.h) reaches it through port ops
 * (lan865x_emu_attach()). Its files, one concern each, are listed in
 * lan865x_emu_priv.h.
 *
 * What it models:
 * - Control transactions (docs/tc6.md §1.2-§1.6): MISO is MOSI delayed by one
 *   32-bit word, header echoed, LEN+1 registers, AID, MMS, protected mode
 *   (value, ~value) in both directions; a bad complement on a write skips that
 *   write and sets STATUS0.CDPE; a header with bad parity is echoed with HDRB=1
 *   (parity recomputed), nothing is accessed and STATUS0.HDRE is set.
 * - Data chunks (docs/tc6.md §2): 64 or 32 byte payloads (CONFIG0.CPS),
 *   header/footer odd parity, TX credits (48-chunk TX buffer,
 *   docs/tc6.md §5.4), RCA, SV/SWO/EV/EBO in both directions, ZARFE/CSARFE or
 *   unaligned RX frame starts (two frames in one chunk), NORX, EXST, SYNC,
 *   HDRB, FD.
 * - IRQ_N (docs/tc6.md §2.5) as a level eventfd: readable while asserted;
 *   with cfg.irq_edges also its falling edges as an event stream with times
 *   (lan865x_emu_edges.c), for an edge-triggered host.
 * - Registers with reset values (docs/tc6.md §3, §5): MMS0 standard + PHY
 *   clause 22 at 0xFF00, MMS1 MAC filters, MMS4 PLCA + AN1760 registers +
 *   indirect trim reads, MMS10 DEVID/QTXCFG/QRXCFG.
 * - The MAC: FCS append or validation (TXFCSVE), RX address filter (specific
 *   addresses, broadcast, hash, promiscuous), length checks, FCS check,
 *   optional FCS strip (NCFGR.RFCS).
 * - Bus timing on a virtual clock (docs/design.md §4) and bit errors on
 *   MOSI/MISO.
 *
 * Assumptions where the facts are unknown (all documented, some are config
 * fields):
 * - RX buffer size: cfg.rx_buf_chunks 64-byte blocks (default 64 = 4 KiB;
 *   docs/tc6.md §5.4 says the figure is unknown). With CPS=32 it holds twice as
 *   many 32-byte chunks. A frame occupies ceil(len / payload size) chunks.
 * - OA PHYID (MMS0 0x01): OUI 0x1F0 and MODEL 0x1B of the clause-22 PHY ID
 *   0x0007/0xC1B3 in the OA field layout (docs/tc6.md §3.2), and a REVISION
 *   nibble from the silicon revision: 0x0007C1B3 on B0 (cfg.rev 1),
 *   0x0007C1B4 on B1 (cfg.rev 2), the value an independent host
 *   implementation used on real LAN865x boards accepts for B1 (issue 10;
 *   docs/tc6.md §5.1.1). The datasheet's PHY_ID2 page describes 0xFF03 as
 *   "the model number and hardware revision for the integrated PHY block
 *   only", revision 3 (DS section 11.1.20), and Linux keeps one clause-22
 *   id for B0 and B1 "due to B1 chip limitation", so the clause-22 mirror
 *   stays 0xC1B3 on every revision. Any other cfg.rev gives REVISION
 *   rev + 2 (an assumption: the same offset).
 * - STDCAP = 0x05A5: TXFCSVC, DPRAC, CTC (cut-through), AIDC, MINBPS=5
 *   (32 B); the silicon's 0x05E5 less FTSC: no timestamps, SEQ or indirect
 *   PHY access (docs/tc6.md §3.2).
 * - IMASK1 resets to 0x3FFE0003 (every STATUS1 bit masked), like IMASK0.
 * - CONFIG0: SYNC can only be set by a write (a reset clears it,
 *   docs/tc6.md §3.3); a CPS value other than 5 or 6 is ignored (the field
 *   keeps its old value). SEQ, timestamps (FTSE) and TXCTHRESH other than
 *   the IRQ threshold are stored but have no effect.
 * - RX cut-through (CONFIG0.RXCTE, docs/tc6.md §5.4.1): a frame that starts
 *   on the wire while RXCTE and frame data are on is stored at its start
 *   (the medium's rx_begin); the SYNC, enable and address checks drop it
 *   then, a bad length or FCS, known only at its end, gives FD=1 with its
 *   EV. A chunk of it is readable (counts in RCA, goes out with DV=1) once
 *   all its bytes have crossed the wire (8 bytes of preamble and SFD, then
 *   800 ns a byte); the chunk with its last byte at the frame's end. In
 *   real time IRQ_N falls at that instant with no transfer needed (a timer
 *   behind the IRQ fd); on a virtual clock only what the clock has reached
 *   shows.
 * - TX cut-through (CONFIG0.TXCTE at the frame's SV, with no other frame
 *   queued or on the wire: one behind others is handled as store and
 *   forward, as the model cannot know when they will have left the wire,
 *   so it never sees an underrun there): the frame may start
 *   on the wire (its t_ready) at the end of the chunk that brings its bytes
 *   to QTXCFG.CTTHR + 1 blocks of 64 bytes. The model assumes it starts
 *   then (the earliest: a host that keeps up with that start keeps up with
 *   any later one), so a later chunk whose first byte arrives after that
 *   byte's wire time (t_threshold + (8 + offset) * 800 ns) is an underrun:
 *   STATUS0.TXBUE, the frame is dropped (tx_dropped_underrun; the truncated
 *   transmission itself is not put on the medium) and its remaining chunks
 *   are ignored up to the next SV, as the datasheet describes. The medium
 *   still receives the frame whole, at its EV; the MAC's end-of-frame
 *   checks (FCS with TXFCSVE, size) drop it then as in store and forward.
 * - BMCR resets to 0x0000 (no autonegotiation, 10 Mb/s half duplex); BMSR
 *   reads 0x0801 (10 Mb/s half duplex, extended registers) plus LSTATUS.
 *   A mixing segment has no link in the IEEE sense and Linux reports the
 *   LAN8650's link always up (docs/tc6.md §5.7; the LAN867x Rev D0 offers
 *   surrogates: PLCA status, activity, a semaphore). The model's surrogate
 *   is the node's attachment to the segment: LSTATUS is 1 while BMCR.PDOWN
 *   is clear and the MDI is on the segment (always, unless
 *   lan865x_emu_set_link() cut it), latched low (IEEE 802.3 22.2.4.2.13)
 *   until the host reads BMSR. A change of it sets STATUS0.PHYINT (the
 *   summary of the PHY's interrupt, docs/tc6.md §3.4), which a control read
 *   of BMSR clears; the PHY's own interrupt status registers are not
 *   modelled.
 * - MAC specific-address filter n is disabled by a write to SABn and enabled by
 *   a write to SATn (Cadence-GEM convention, docs/tc6.md §5.2 unverified); only
 *   the destination address is compared (FLTTYP/FLTBM ignored).
 * - Hash filter: index bit j = XOR of DA bits j, j+6, ..., j+42, bit 0 being
 *   the LSB of DA byte 0; index < 32 selects HRB bit index, else HRT
 *   (docs/tc6.md §4.2). Used for multicast when NCFGR.MTIHEN, for unicast when
 *   UNIHEN.
 * - RX: a frame with a bad FCS is dropped (counted) unless NCFGR.IRXFCS, in
 *   which case it is delivered with FD=1 in its EV footer.
 * - TX: the MAC pads frames shorter than 60 bytes with zeros before appending
 *   the FCS; a frame longer than 1536 bytes incl. FCS is dropped (counted
 *   tx_dropped_oversize). Frames completed while NCR.TXEN=0 are dropped
 *   (tx_dropped_disabled). NCR.LBL (loopback) is not modelled.
 * - TX protocol errors (STATUS0.TXPE, docs/tc6.md §3.4 trigger unverified):
 *   DV=1 with no frame in progress and no SV; EV with no frame in progress:
 *   the chunk is ignored. SV while a frame is in progress (unless EV ends it
 *   earlier in the same chunk): the frame in progress is dropped and the new
 *   frame starts with this chunk (docs/tc6.md §2.4.1: the facts are silent,
 *   so only the open frame is lost); cfg.sv_open = IGNORE refuses the SV
 *   chunk as well, so the new frame is lost too.
 * - A refused chunk (bad header parity, footer HDRB): the frame being
 *   assembled is dropped (tx_dropped_protocol) and further DV chunks are
 *   ignored, without TXPE, up to the next SV (an EV ends the ignoring): the
 *   chip cannot tell whether the refused chunk carried frame data, and the
 *   datasheet has it ignore the rest of a frame it dropped for a TX underrun
 *   (docs/tc6.md §2.4.1).
 * - TXBOE: a DV=1 chunk with no free TX chunk is dropped; the rest of that
 *   frame is discarded up to its EV (counted once, no TXPE cascade).
 * - A chunk that carries the end of frame n and the start of frame n+1 is
 *   charged to frame n (it is freed when frame n leaves the wire).
 * - LOFE (docs/tc6.md §3.4: "CS deasserted before the chunk ended"): a data
 *   transfer whose length is not a whole number of chunks. The whole chunks are
 *   processed; the trailing partial chunk is ignored (MISO zeros for it), the
 *   TX frame in progress is dropped and STATUS0.LOFE is set.
 * - A chunk with bad header parity (or DNC=0 inside a data transfer) gets a
 *   footer with HDRB=1 and DV=0; no TX or RX data moves in it (the RX data it
 *   would have carried comes in the next chunk); STATUS0.HDRE. Only chunks
 *   with a good header release IRQ_N.
 * - A control transfer whose length does not match LEN (8+4N / 8+8N bytes):
 *   register i is written only if its data word (and complement) arrived
 *   completely, reads fill what fits, bytes beyond the expected length read 0;
 *   counted in ctrl_len_errors, no status bit.
 * - RX frame starts (CONFIG0.RFA, docs/tc6.md §2.4): with ZARFE at word 0 of
 *   a chunk; with CSARFE only in the first chunk of a transfer (word 0); with
 *   neither, right after the previous frame's end in the same chunk, at the
 *   next word (SWO > EBO/4, two frames in one chunk, counted in
 *   rx_shared_chunks), as long as the new frame does not end in that chunk
 *   too (a footer has one EV) and is visible then. cfg.errata_s3 reproduces
 *   errata s3: after such a chunk RX data stops (footers DV=0, RCA still
 *   counting) until a reset.
 * - RCA counts chunks of frames already visible; for CSARFE it assumes each
 *   frame starts at word 0 of a chunk. BUFSTS RCA/TXC are not saturated.
 * - IRQ_N is asserted when (docs/tc6.md §2.5): RX chunks are pending and the
 *   last footer reported RCA=0; TX credits reach the CONFIG0.TXCTHRESH
 *   threshold and the last footer reported fewer; EXST becomes pending and was
 *   not reported in a footer since it was last clear; a reset completes.
 * - Trim offsets for AN1760 (indirect reads via 0xD8/0xDA/0xD9,
 *   docs/tc6.md §5.3): cfg.trim_offset1/2 as 5-bit two's complement in bits 4:0
 *   (defaults -3 and +2); indirect address 0x05 reads 0x0040 (bit 6: no chip
 *   error); any other indirect address reads 0. MMS4 0x0000-0x00FF is plain
 *   read/write storage (reset 0) except COL_DET_CTRL0 0x87 (reset 0x8083) and
 *   0xD8-0xDA, so every AN1760 write and read-modify-write works.
 * - PLCA IDVER reads 0x0A10; CTRL0.RST (bit 14) restores the PLCA registers to
 *   their reset values and self-clears.
 * - MAC TI (MMS1 0x77) resets to 0; QTXCFG resets to 0x58100000 (CTTHR 2
 *   blocks, DS section 11.6.1), QRXCFG to 0; apart from CTTHR they are
 *   stored only (BUFSZ is not checked against CPS).
 * - A TX frame may be pulled by the medium as soon as its EV chunk has been
 *   processed; its t_ready is the bus time of the end of that chunk
 *   (store and forward) or of its threshold chunk (TX cut-through).
 * - Frame accounting (every frame ends in exactly one counter): TX: an SV chunk
 *   with a good header is a frame the host handed over (tx_started), even if
 *   the framing rules refuse it (then it is a tx_dropped_protocol at once);
 *   tx_started = tx_frames + tx_fcs_errors + tx_dropped_protocol +
 *   tx_dropped_overflow + tx_dropped_disabled + tx_dropped_oversize +
 *   tx_dropped_underrun + tx_flushed + (frames in progress or queued). A frame the medium has pulled
 *   when a reset comes is on the wire already: it is not flushed but counted in
 *   tx_frames when the medium reports it done. RX: every frame the medium
 *   offers is dropped on arrival (rx_dropped_* but rx_overflow_buffered) or
 *   stored (rx_frames); a stored one is delivered (rx_delivered), flushed
 *   (rx_flushed), dropped by an injected overflow (rx_overflow_buffered) or
 *   still buffered. Of the stored ones, rx_started had their first chunk sent
 *   and rx_started = rx_delivered + rx_cut (+ one in progress). Bit errors are
 *   the SPI "wire": miso_sv_hidden counts frame starts the host cannot see (the
 *   footer with SV fails parity); the *_undetected counters count words
 *   corrupted with an even number of flips, which parity cannot catch.
 * - Timing: a transfer of len bytes takes setup_ns + len*8e9/spi_hz ns
 *   (truncated to whole ns) on the bus clock. In real-time mode the clock
 *   starts each transfer at max(bus clock, CLOCK_MONOTONIC now) and the
 *   caller returns no earlier than the transfer's bus end minus cfg.slack_ns
 *   (0 by default); what the transfer does to IRQ_N (a release by its data
 *   headers, a new assertion) shows on the line at that moment too, and
 *   other IRQ_N changes while a transfer is pending wait for it. With
 *   realtime=false "now" is the latest time the model has seen (bus clock or
 *   an RX frame's t_end), so nothing ever sleeps.
 */
#ifndef ETHDRV_EMU_LAN865X_EMU_H
#define ETHDRV_EMU_LAN865X_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ethdrv/driver.h"
#include "emu_loss.h"
#include "ethdrv/stats.h"
#include "medium.h"

/* TX buffer in chunks: the BUFSTS.TXC reset value (docs/tc6.md §2.3, §5.4). */
#define LAN865X_EMU_TX_CHUNKS 48u

struct lan865x_emu;

/* What an SV chunk does while a TX frame is in progress (docs/tc6.md §2.4.1). */
enum lan865x_emu_sv_open {
	/* TXPE, the open frame is dropped, the new frame starts (default). */
	LAN865X_EMU_SV_OPEN_RESTART,
	/* TXPE, the open frame is dropped and the SV chunk refused too: the new
	 * frame is lost (the model's behaviour before issue 10). */
	LAN865X_EMU_SV_OPEN_IGNORE,
};

struct lan865x_emu_config {
	uint32_t spi_hz; /* SCLK; default 25000000 (docs/tc6.md §1.1) */
	uint32_t
		setup_ns; /* per-transfer CS/setup overhead; default 1000 ns (assumed host+CS cost) */
	/* Real time: a transfer may return this long before its end on the bus;
	 * default 0, so no MISO byte, IRQ_N change or frame is seen before its
	 * physical time (docs/design.md §4.2). More trades that for fewer sleeps. */
	uint64_t slack_ns;
	/* RX buffer in 64-byte blocks; default 64 (an assumption, docs/tc6.md §5.4) */
	unsigned rx_buf_chunks;
	uint8_t node_id; /* for log messages */
	uint64_t seed; /* PRNG seed for bit errors; default 1 */
	double mosi_ber; /* bit error rate host -> model; default 0 */
	double miso_ber; /* bit error rate model -> host; default 0 */
	bool realtime; /* false: never sleep (unit tests); the bus clock still advances */
	uint16_t model; /* DEVID model: 0x8650 (default) or 0x8651 (docs/tc6.md §5.1) */
	uint8_t rev; /* DEVID revision: 2 = B1 (default), 1 = B0 */
	int8_t trim_offset1; /* AN1760 indirect 0x04, -16..15; default -3 (docs/tc6.md §5.3) */
	int8_t trim_offset2; /* AN1760 indirect 0x08, -16..15; default +2 */
	enum lan865x_emu_sv_open sv_open; /* SV while a frame is open; default RESTART */
	/* Reproduce errata s3 (docs/tc6.md §5.6): after a chunk that ends one RX
	 * frame and starts the next (possible only without ZARFE/CSARFE), RX
	 * data stops until a reset; default false. */
	bool errata_s3;
	/* Open the falling-edge stream of IRQ_N (bus irq_edge_fd, struct
	 * ethdrv_irq_edge) for an edge-triggered host; default false (-1). */
	bool irq_edges;
};

/* Faults that can be injected (docs/design.md §5); each is counted. */
enum lan865x_emu_fault {
	/* Drop the RX frame at the head of the buffer (even if partly read:
	 * the host then sees a frame without EV), or the next frame to arrive
	 * if the buffer is empty, and set STATUS0.RXBOE. */
	LAN865X_EMU_FAULT_RX_OVERFLOW,
	/* STATUS0.LOFE as if CS rose inside a chunk; the TX frame in progress is dropped. */
	LAN865X_EMU_FAULT_LOSS_OF_FRAME,
	/* Spontaneous reset: registers to reset values, SYNC=0, buffers flushed, RESETC, IRQ. */
	LAN865X_EMU_FAULT_RESET,
	/* STATUS0.TXPE; the TX frame in progress is dropped. */
	LAN865X_EMU_FAULT_TX_PROTOCOL,
	/* The next header (control or data) is received with a parity error. */
	LAN865X_EMU_FAULT_HDR_PARITY,
	/* Internal fault STATUS1.FSMSTER (docs/tc6.md §3.5): frame data stops (footers DV=0,
	 * TX chunks ignored, RX frames dropped) until a reset. */
	LAN865X_EMU_FAULT_INTERNAL,
	/* A configuration register silently loses its value, as when bit
	 * errors turn a header into another valid one (an even number of
	 * flips passes parity, docs/tc6.md §1.3) and the device executes a
	 * write nobody sent: MAC NCR is cleared, so the MAC stops transmitting
	 * and receiving. No status bit, no interrupt; SYNC stays 1. */
	LAN865X_EMU_FAULT_CONFIG_UPSET,
	LAN865X_EMU_FAULT_COUNT
};

/* Counters; all monotonic since lan865x_emu_new(). */
struct lan865x_emu_stats {
	ethdrv_counter_t transfers; /* SPI transfers (CS assertions) */
	ethdrv_counter_t bytes; /* bytes clocked in each direction */
	ethdrv_counter_t ctrl_transfers; /* control transactions */
	ethdrv_counter_t ctrl_reads; /* registers read */
	ethdrv_counter_t ctrl_writes; /* registers written */
	ethdrv_counter_t ctrl_len_errors; /* control transfers of the wrong length */
	ethdrv_counter_t chunks; /* data chunks (complete ones) */
	ethdrv_counter_t hdr_errors; /* headers with bad parity (HDRE/HDRB) */
	ethdrv_counter_t cdpe; /* protected writes with a bad complement */
	ethdrv_counter_t txpe; /* TX protocol errors */
	ethdrv_counter_t txboe; /* DV chunks beyond the credits */
	ethdrv_counter_t txbue; /* TX cut-through underruns (STATUS0.TXBUE) */
	ethdrv_counter_t lofe; /* transfers ending inside a chunk */
	ethdrv_counter_t tx_frames; /* frames that left the wire (tx_done) */
	ethdrv_counter_t tx_bytes; /* their bytes incl. FCS */
	ethdrv_counter_t tx_fcs_errors; /* TXFCSVE frames with a bad FCS (dropped) */
	ethdrv_counter_t tx_dropped_protocol; /* frames aborted by TXPE/LOFE, or whose SV
						 chunk TXPE refused */
	ethdrv_counter_t tx_dropped_overflow; /* frames cut by TXBOE */
	ethdrv_counter_t tx_dropped_disabled; /* frames completed while NCR.TXEN=0 or begun
						 during an internal fault */
	ethdrv_counter_t tx_dropped_oversize; /* frames longer than 1536 B incl. FCS */
	ethdrv_counter_t tx_dropped_underrun; /* cut-through frames the host starved (TXBUE) */
	ethdrv_counter_t tx_flushed; /* frames lost to a reset (not those already on the wire) */
	ethdrv_counter_t tx_started; /* SV chunks with a good header (see accounting) */
	ethdrv_counter_t rx_frames; /* frames accepted into the RX buffer */
	ethdrv_counter_t rx_bytes; /* their bytes as the host sees them */
	ethdrv_counter_t rx_delivered; /* frames whose last chunk went to the host */
	ethdrv_counter_t rx_dropped_overflow; /* no room in the RX buffer (RXBOE) */
	ethdrv_counter_t rx_dropped_filter; /* address filter */
	ethdrv_counter_t rx_dropped_sync; /* arrived while CONFIG0.SYNC=0 */
	ethdrv_counter_t rx_dropped_disabled; /* NCR.RXEN=0 or internal fault */
	ethdrv_counter_t rx_dropped_length; /* shorter than 64 or longer than the limit */
	ethdrv_counter_t rx_dropped_fcs; /* bad FCS (NCFGR.IRXFCS clear) */
	ethdrv_counter_t rx_flushed; /* frames lost to a reset */
	ethdrv_counter_t rx_overflow_buffered; /* injected RXBOE drops of stored frames */
	/* rx_dropped_overflow by cause (docs/design.md §4.8): the driver's service
	 * gap, the lab's lateness, VM steal, or an injected overflow; they add up. */
	struct emu_loss_stats rx_loss; /* rx_lost_driver, _lab, _steal, rx_gap_max_ns, and
					  _injected: an armed RX overflow fault (emu.inject) */
	ethdrv_counter_t rx_started; /* frames whose first chunk went to the host */
	ethdrv_counter_t rx_cut; /* started frames removed before their last chunk */
	ethdrv_counter_t
		rx_shared_chunks; /* chunks with the end of one frame and the next's start */
	ethdrv_counter_t mosi_flips; /* bits flipped host -> model */
	ethdrv_counter_t miso_flips; /* bits flipped model -> host */
	ethdrv_counter_t miso_sv_hidden; /* frame starts whose footer the flips broke */
	ethdrv_counter_t miso_ftr_undetected; /* footers changed with parity still good */
	ethdrv_counter_t mosi_hdr_undetected; /* data headers changed with parity still good */
	ethdrv_counter_t resets; /* resets of any kind */
	ethdrv_counter_t irq_asserts; /* IRQ_N high -> low transitions */
	ethdrv_counter_t irq_edges; /* falling edges (= irq_asserts), queued or not */
	ethdrv_counter_t irq_edges_lost; /* edges the stream had no room for */
	ethdrv_counter_t faults; /* faults injected */
	ethdrv_counter_t bus_ns; /* bus time of all transfers */
	ethdrv_counter_t held_ns; /* real time callers were held (real-time mode) */
};

/* Names for registering struct lan865x_emu_stats in a stats set. */
extern const struct ethdrv_stat_desc lan865x_emu_stats_desc[];
extern const size_t lan865x_emu_stats_desc_count;

/**
 * lan865x_emu_config_default() - fill @cfg with the defaults listed above
 * @cfg: the config
 */
void lan865x_emu_config_default(struct lan865x_emu_config *cfg);

/**
 * lan865x_emu_new() - create a model in the power-on-reset state
 * @cfg: settings (NULL = defaults); copied
 * @out: receives the model
 *
 * After creation IRQ_N is asserted and STATUS0.RESETC is set (docs/tc6.md §4.1).
 *
 * Return: 0, -EINVAL (spi_hz 0, rx_buf_chunks 0 or > 65536, BER outside
 * 0..0.5, trim offsets outside -16..15), -ENOMEM, or the -errno of eventfd().
 * Context: setup.
 */
int lan865x_emu_new(const struct lan865x_emu_config *cfg, struct lan865x_emu **out);

/**
 * lan865x_emu_free() - free the model (NULL is ignored); detaches it first
 * @emu: the model
 */
void lan865x_emu_free(struct lan865x_emu *emu);

/**
 * lan865x_emu_get_bus() - the SPI bus the driver talks to
 * @emu: the model
 * @bus: filled: ops->transfer is the SPI slave, ops->close is NULL (the
 *       model owns itself), irq_fd the IRQ_N eventfd (readable while
 *       asserted; do not read it), irq_edge_fd its falling edges (read
 *       struct ethdrv_irq_edge records; -1 unless cfg.irq_edges), hz = cfg.spi_hz, desc "emu:lan8650"
 *       (or "emu:lan8651")
 *
 * The transfer returns 0 for every length (errors show up in the data, as
 * on real hardware) or -EINVAL for a NULL buffer with a non-zero length.
 */
void lan865x_emu_get_bus(struct lan865x_emu *emu, struct ethdrv_spi_bus *bus);

/**
 * lan865x_emu_transfer() - the SPI slave itself (what bus->ops->transfer calls)
 * @emu: the model
 * @tx: @len bytes on MOSI
 * @rx: receives @len bytes of MISO
 * @len: bytes
 *
 * Return: 0 or -EINVAL.
 * Context: any thread; serialised with the medium side by the model lock;
 * may sleep in real-time mode when the bus clock is ahead of real time.
 */
int lan865x_emu_transfer(struct lan865x_emu *emu, const uint8_t *tx, uint8_t *rx, size_t len);

/**
 * lan865x_emu_attach() - connect the model's MAC to @port of @medium
 * @emu: the model (not attached)
 * @medium: the medium
 * @port: the port
 *
 * Return: 0, -EBUSY if already attached, or the medium's error.
 */
int lan865x_emu_attach(struct lan865x_emu *emu, struct emu_medium *medium, unsigned port);

/** lan865x_emu_detach() - disconnect from the medium (no-op when detached). */
void lan865x_emu_detach(struct lan865x_emu *emu);

/**
 * lan865x_emu_port_ops() - the port ops the model gives a medium, for tests
 * that play the medium themselves (node = the model)
 */
const struct emu_port_ops *lan865x_emu_port_ops(void);

/**
 * lan865x_emu_hw_reset() - a pulse on RESET_N: the power-on reset state
 * @emu: the model
 *
 * Registers, buffers and SYNC to their reset values, STATUS0.RESETC set and
 * IRQ_N asserted, as lan865x_emu_new() leaves them; counted in resets, not
 * in faults. For a bus wrapper that offers the model's RESET_N line
 * (struct ethdrv_spi_ops.set_reset): call it when the line is released.
 */
void lan865x_emu_hw_reset(struct lan865x_emu *emu);

/**
 * lan865x_emu_inject() - inject one fault now
 * @emu: the model
 * @fault: what
 *
 * Return: 0 or -EINVAL for an unknown fault.
 */
int lan865x_emu_inject(struct lan865x_emu *emu, enum lan865x_emu_fault fault);

/**
 * lan865x_emu_fault_name() - the user name of @fault ("reset", "txpe", ...)
 *
 * Return: the name, or NULL when @fault is out of range.
 */
const char *lan865x_emu_fault_name(enum lan865x_emu_fault fault);

/**
 * lan865x_emu_set_ber() - change the bit error rates at run time
 * @emu: the model
 * @mosi_ber: host -> model, 0..0.5
 * @miso_ber: model -> host, 0..0.5
 *
 * Return: 0 or -EINVAL.
 */
int lan865x_emu_set_ber(struct lan865x_emu *emu, double mosi_ber, double miso_ber);

/**
 * lan865x_emu_get_ber() - the bit error rates in effect
 * @emu: the model
 * @mosi_ber: receives the host -> model rate
 * @miso_ber: receives the model -> host rate
 */
void lan865x_emu_get_ber(struct lan865x_emu *emu, double *mosi_ber, double *miso_ber);

/**
 * lan865x_emu_get_stats() - copy the counters
 * @emu: the model
 * @st: receives them
 */
void lan865x_emu_get_stats(struct lan865x_emu *emu, struct lan865x_emu_stats *st);

/**
 * lan865x_emu_get_plca() - the PLCA settings in MMS4 0xCA01-0xCA05 (docs/tc6.md §3.6)
 * @emu: the model
 * @cfg: receives them
 */
void lan865x_emu_get_plca(struct lan865x_emu *emu, struct emu_plca_cfg *cfg);

/**
 * lan865x_emu_peek_reg() - read a register without side effects (tests, tools)
 * @emu: the model
 * @mms: memory map selector 0..15
 * @addr: address
 * @val: receives the value a control read would return
 *
 * Return: 0 or -ENOENT for an unimplemented register (*@val is then 0).
 */
int lan865x_emu_peek_reg(struct lan865x_emu *emu, unsigned mms, uint16_t addr, uint32_t *val);

/**
 * lan865x_emu_set_link() - the link injection: cut the node's MDI off the
 * segment (false) or connect it again (true). A link-down on a multidrop
 * segment is one node losing its stub (a broken connector or trunk
 * branch): the others keep talking; this node hears nothing (its port is
 * detached from the medium; frames on the wire to it are lost and counted
 * there) and sends nothing (frames wait in its TX buffer until the link
 * returns). BMSR shows it (see above). Idempotent.
 * @emu: the model
 * @up: the new state
 *
 * Return: 0, or the medium's error when attaching again.
 * Context: any thread except the medium's; the model lock is not held.
 */
int lan865x_emu_set_link(struct lan865x_emu *emu, bool up);

/** lan865x_emu_link() - false while lan865x_emu_set_link() has cut the link. */
bool lan865x_emu_link(struct lan865x_emu *emu);

/** lan865x_emu_irq_asserted() - true while IRQ_N is asserted (low). */
bool lan865x_emu_irq_asserted(struct lan865x_emu *emu);

/** lan865x_emu_bus_time() - the bus clock: end of the last transfer, in ns. */
uint64_t lan865x_emu_bus_time(struct lan865x_emu *emu);

#endif /* ETHDRV_EMU_LAN865X_EMU_H */
