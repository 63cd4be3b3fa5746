/* SPDX-License-Identifier: MIT */
/*
 * Hardware model of Freescale's eTSEC Ethernet controller (the MAC Linux's
 * gianfar driver runs on MPC85xx, P1020, P2020), one interrupt group with
 * one TX and one RX ring. Written from docs/etsec.md only (section numbers
 * below are docs/etsec.md), never from a driver. A driver reaches it
 * through struct ethdrv_mmio_bus (etsec_emu_get_bus()): 32-bit registers
 * passed in host order (the model stores numbers; the big-endian order of
 * the register file is the backend's business, docs/etsec.md §1), one DMA region, three
 * level eventfds: TX, RX and error (docs/etsec.md §8.1).
 *
 * Files: etsec_emu.c (lifecycle, bus, register table), etsec_emu_line.c (the
 * engine client and the line port), etsec_emu_dma.c
 * (the BD codec, the TX and RX DMA), etsec_emu_irq.c (events, lines,
 * coalescing, RMON), etsec_emu_miim.c (the MII management block).
 *
 * The model is a MAC on one port of a full-duplex line (fdx_line.h) and a
 * client of the line's event engine (emu_engine.h, docs/design.md §5b.1):
 * it times its own frames on its transmitter's timeline, hands each to the
 * line when its last bit has left (etsec_emu_line.c) and takes the peer's
 * frames when their last bit arrives. Events a driver sees at once (frame
 * ends, unmasked coalescing timers) are exact: applied at their time.
 *
 * What it models (docs/etsec.md §1-§7):
 * - The registers of docs/etsec.md §1.1 at their offsets with reset values; IEVENT, CAR1
 *   and CAR2 write-1-to-clear; TSTAT[THLT0] and RSTAT[QHLT0]/[RXF0]
 *   write-1-to-clear, and a THLT0/QHLT0 write restarts the ring (docs/etsec.md §3.4);
 *   TBASE0/RBASE0 writes copy into TBPTR0/RBPTR0 (low 3 bits 0).
 * - BDs (docs/etsec.md §3.1-§3.3): status at +0, length at +2, pointer at +4, big-endian
 *   unless DMACTRL[LE], then little-endian; status halfwords read with
 *   acquire and written with release ordering.
 * - TX (docs/etsec.md §3.4): the walk starts on a THLT0 write, or when GTS is cleared
 *   while THLT0 is clear; it reads BDs frame by frame into a store-and-
 *   forward FIFO of cfg.tx_fifo_frames frames; a frame is taken only when
 *   its L BD is read (prefetch); the walk halts (THLT0) at a BD with R = 0
 *   at a frame boundary, with XFUN|THLT0 at R = 0 inside a frame, with
 *   TXE|THLT0 at a ready BD of length 0 or a frame over ETSEC_EMU_FRAME_MAX.
 *   At the end of the frame on the wire R clears in its BDs (the hardware
 *   status bits written 0: no collisions in full duplex), TXB/TXF are raised
 *   for BDs with I, RMON counts. PAD/CRC (BD or MACCFG2) pads to 60 bytes
 *   and appends the CRC, TC (or MACCFG2 CRCEN) appends it; with neither the
 *   last 4 bytes are the FCS. TOE: the 8-byte TxFCB is removed (docs/etsec.md §3.6).
 * - RX (docs/etsec.md §3.4, §3.5): while MACCFG1[RX_EN], RQUEUE[EN0], not GRS and not
 *   SOFT_RESET: address filter (station address, MAC01-15 with RCTRL[EMEN]
 *   ... assumption: always checked, broadcast unless BC_REJ, multicast by
 *   the GADDR hash, PROM with M); RCTRL[PRSDEP] != 0 writes an all-zero
 *   8-byte RxFCB ahead, then RCTRL[PAL] zero bytes; the L BD length is the
 *   whole frame with FCS, FCB and padding. No empty BD (or QHLT0 set):
 *   discarded, BSY, RDRP; the ring halts (QHLT0). Running out part-way:
 *   the last BD written gets L|OV, BSY, QHLT0. RXB/RXF per I, RSTAT[RXF0].
 * - Interrupts (docs/etsec.md §2): IEVENT & IMASK per line, TX = TXB|TXF, RX = RXB|RXF,
 *   ER = the rest.
 * - Coalescing (docs/etsec.md §6): with ICEN, TXF/RXF are raised after ICFT frames or
 *   ICTT ticks of 64 interface clocks since the first frame counted, the
 *   first to come; a write of TXIC/RXIC resets the count and the timer;
 *   clearing ICEN with frames pending raises the event.
 * - RMON (docs/etsec.md §7): the counters of docs/etsec.md §7 while ECNTRL[STEN]; a 32-bit counter
 *   that wraps sets its carry bit (C1RDR for RDRP, which wraps at 16 bits);
 *   an unmasked carry raises MSRO.
 * - Graceful stop (docs/etsec.md §4.4): GRS/GTS raise GRSC/GTSC when the frame in flight
 *   has finished (TX: the frame on the wire; RX: frames arrive whole, so at
 *   once), also without link; a GTS drops the fetched frames not yet
 *   started (their BDs stay ready and are fetched again after GTS clears).
 * - MIIM (docs/etsec.md §5): etsec_emu_miim.c, with the board's MDIO bus and an AR8031
 *   model at cfg.phy_addr behind it (docs/mdio.md §8).
 * - Time: a frame occupies the MAC for preamble+SFD (8 bytes), the frame
 *   and FCS, and a 12-byte gap, at 8 ns/byte when MACCFG2[IF] = byte mode
 *   (1000 Mb/s) or 80 / 800 ns/byte in nibble mode with / without
 *   ECNTRL[R100M].
 *
 * Assumptions where the facts are unknown (docs/etsec.md §11): listed there.
 * Also: MACCFG2[IF] = 00 or 11 is taken as byte mode; a DMA access outside
 * the region (BD or buffer) is EBERR and halts that direction's ring,
 * counted in dma_errors; MRBLR below 64 or not a multiple of 64 stores
 * nothing: such a frame is discarded and counted (rx_bad_mrblr).
 *
 * Locking: the engine's big lock; every entry point takes it and brings the
 * engine's clock up to date first (a register access sees every event due).
 */
#ifndef ETHDRV_EMU_ETSEC_EMU_H
#define ETHDRV_EMU_ETSEC_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "emu_fault.h"
#include "emu_loss.h"
#include "ethdrv/mmio.h"
#include "ethdrv/stats.h"
#include "phy_emu.h"

#define ETSEC_EMU_WINDOW 0x1000u /* one group (docs/etsec.md §1) */
#define ETSEC_EMU_FRAME_MAX 2048u /* largest TX frame (with FCS): the line's (fdx_line.h) */
#define ETSEC_EMU_NO_PHY 32u /* etsec_emu_config.phy_addr: the board has no PHY */

/* Interrupt lines, the order of the device tree (docs/etsec.md §8.1). */
enum etsec_emu_irq { ETSEC_IRQ_TX, ETSEC_IRQ_RX, ETSEC_IRQ_ER, ETSEC_IRQ_COUNT };

struct etsec_emu;
struct fdx_line;
struct mdio_emu;

struct etsec_emu_config {
	uint64_t dma_bus; /* bus address of the DMA region; default 0x40000000 */
	size_t dma_size; /* bytes of DMA memory; default 8 MiB, 4 KiB..1 GiB */
	unsigned tx_fifo_frames; /* TX FIFO depth in frames; default 8, 1..256 */
	uint32_t mdio_src_hz; /* the clock MIIMCFG divides; default 70 MHz (/28 = 2.5 MHz) */
	unsigned phy_addr; /* the AR8031's MDIO address; default 1; ETSEC_EMU_NO_PHY: none */
	struct phy_emu_config phy; /* the AR8031 */
	uint8_t node_id; /* for log messages */
};

/* Model counters, monotonic since creation. */
struct etsec_emu_stats {
	ethdrv_counter_t reg_reads;
	ethdrv_counter_t reg_writes;
	ethdrv_counter_t bad_accesses; /* unaligned, outside the window or unknown offset */
	ethdrv_counter_t soft_resets; /* MACCFG1[SOFT_RESET] 0 -> 1 */
	ethdrv_counter_t tx_frames; /* frames that left the MAC */
	ethdrv_counter_t tx_bytes; /* their bytes incl. FCS */
	ethdrv_counter_t tx_halts; /* walks that stopped at a BD with R = 0 */
	ethdrv_counter_t tx_errors; /* TXE: a ready BD of length 0 or an oversize frame */
	ethdrv_counter_t tx_underruns; /* XFUN: a frame without a ready L BD */
	ethdrv_counter_t tx_unstarted_dropped; /* fetched frames put back by GTS or reset */
	ethdrv_counter_t tx_idle_ns; /* the transmitter idle between frames (no frame ready at
					the end of the gap), from the second frame on */
	ethdrv_counter_t rx_frames; /* frames written to memory */
	ethdrv_counter_t rx_bytes; /* their L-BD lengths */
	ethdrv_counter_t rx_dropped_nobd; /* BSY: no empty BD, or the ring halted */
	/* rx_dropped_nobd by cause (docs/design.md §4.8); they add up. */
	struct emu_loss_stats rx_loss; /* rx_lost_driver, _lab, _steal, _injected, rx_gap_max_ns */
	ethdrv_counter_t rx_cut; /* ran out of BDs part-way (L|OV) */
	ethdrv_counter_t rx_dropped_disabled; /* RX_EN, EN0 off, GRS, SOFT_RESET */
	ethdrv_counter_t rx_dropped_filter; /* refused by the address filter */
	ethdrv_counter_t rx_bad_mrblr; /* MRBLR unusable (see the header) */
	ethdrv_counter_t rx_crc_errors; /* frames written with CR */
	ethdrv_counter_t dma_errors; /* EBERR: BD or buffer outside the region */
	ethdrv_counter_t coal_count_fires; /* coalesced events raised by ICFT */
	ethdrv_counter_t coal_timer_fires; /* coalesced events raised by ICTT */
	ethdrv_counter_t irq_asserts; /* line low -> high transitions, all three */
	ethdrv_counter_t miim_frames; /* MII management frames completed */
	ethdrv_counter_t faults; /* injected faults that took effect */
};

extern const struct ethdrv_stat_desc etsec_emu_stats_desc[];
extern const size_t etsec_emu_stats_desc_count;

/*
 * Faults (etsec_emu_inject(), emu_fault.h), counted in `faults` when they take effect:
 * EMU_FAULT_RX_EXHAUST: the next @arg frames find no empty BD (BSY, QHLT0,
 * rx_lost_injected); EMU_FAULT_RX_BUS_ERROR: the next RX DMA access fails
 * (EBERR, QHLT0); EMU_FAULT_TX_BUS_ERROR: the next TX DMA access fails (EBERR, THLT0).
 */

/** etsec_emu_config_default() - the defaults listed above */
void etsec_emu_config_default(struct etsec_emu_config *cfg);

/**
 * etsec_emu_new() - a controller in its reset state on @port of @line
 * @cfg: settings (NULL = defaults); copied
 * @line: the line (its engine is the model's clock and lock)
 * @port: 0 or 1, not yet taken
 * @out: receives the model
 *
 * Return: 0, -EINVAL, -EBUSY (port taken), -ENOMEM, or the -errno of eventfd().
 */
int etsec_emu_new(const struct etsec_emu_config *cfg, struct fdx_line *line, unsigned port,
		  struct etsec_emu **out);

/** etsec_emu_line() - the line the model is on */
struct fdx_line *etsec_emu_line(struct etsec_emu *emu);

/** etsec_emu_free() - free (NULL is ignored) */
void etsec_emu_free(struct etsec_emu *emu);

/**
 * etsec_emu_get_bus() - the bus a driver uses: read32/write32, window 0x1000,
 * the DMA region, irq_fd[0..2] = TX, RX, ER; desc "emu:etsec"
 */
void etsec_emu_get_bus(struct etsec_emu *emu, struct ethdrv_mmio_bus *bus);

/** etsec_emu_byte_ns() - ns per byte at the speed the MAC is set to (docs/etsec.md §4.2, §4.3) */
uint64_t etsec_emu_byte_ns(struct etsec_emu *emu);

/** etsec_emu_read32() / etsec_emu_write32() - register access as the bus does it */
uint32_t etsec_emu_read32(struct etsec_emu *emu, uint32_t off);
void etsec_emu_write32(struct etsec_emu *emu, uint32_t off, uint32_t val);

/** etsec_emu_irq_asserted() - true while line @n is asserted */
bool etsec_emu_irq_asserted(struct etsec_emu *emu, enum etsec_emu_irq n);

/** etsec_emu_inject() - a fault (emu_fault_inject()); RX_EXHAUST takes 1..1000000 frames. 0 or -EINVAL. */
int etsec_emu_inject(struct etsec_emu *emu, enum emu_fault fault, uint64_t arg);

/** etsec_emu_get_stats() - copy the counters */
void etsec_emu_get_stats(struct etsec_emu *emu, struct etsec_emu_stats *st);

/** etsec_emu_phy() - the AR8031 model, NULL without a PHY */
struct phy_emu *etsec_emu_phy(struct etsec_emu *emu);

/** etsec_emu_mdio_bus() - the board's MDIO bus model */
struct mdio_emu *etsec_emu_mdio_bus(struct etsec_emu *emu);

/** etsec_emu_miim_frame_ns() - one MII management frame at MIIMCFG's setting */
uint64_t etsec_emu_miim_frame_ns(struct etsec_emu *emu);

#endif /* ETHDRV_EMU_ETSEC_EMU_H */
