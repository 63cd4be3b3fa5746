/* SPDX-License-Identifier: MIT */
/*
 * Hardware model of NXP's ENET Ethernet controller (the block Linux's fec
 * driver runs on i.MX6/7/8M), QEMU-style, and the full-duplex
 * point-to-point line between two of them (fdx_line.h, docs/design.md §5b). Written
 * from docs/enet.md only (section numbers below are docs/enet.md), never
 * from a driver. A driver reaches it through struct ethdrv_mmio_bus
 * (enet_emu_get_bus()): 32-bit registers, one DMA region, level eventfds.
 *
 * Files: enet_emu.c (lifecycle, bus, clock), enet_emu_regs.c (register
 * table and dispatch), enet_emu_dma.c (descriptor rings), enet_emu_irq.c
 * (events, coalescing, interrupt lines), enet_emu_line.c (the MAC's events
 * on the engine and its port on the line), enet_emu_fault.c (fault knobs).
 * The line, its generator and the engine are MAC-independent: fdx_line*.c,
 * emu_engine.c.
 *
 * What it models:
 * - The single-queue register map of docs/enet.md §1.1 with reset values and write
 *   masks; EIR write-1-to-clear; ECR reset/enable/DBSWP/EN1588/SPEED; RCR
 *   MAX_FL, LOOP, PROM, BC_REJ, CRCFWD, speed bits; TCR GTS with GRA, FDEN;
 *   station address and the individual and group hash filters (docs/enet.md §1.1);
 *   RDSR/TDSR/MRBR/FTRL/TIPG/RACC.SHIFT16; RDAR/TDAR (docs/enet.md §3.4); RXIC0/TXIC0
 *   coalescing (docs/enet.md §6); the MIB block with MIBC (docs/enet.md §7).
 * - Descriptors (docs/enet.md §3): legacy 8-byte BDs and enhanced 32-byte BDs
 *   (ECR.EN1588), in the DBSWP=1 little-endian layout and the DBSWP=0
 *   big-endian one; ownership words read with acquire and written with
 *   release ordering; wrap, last, TC/ABC, the RX status bits; enhanced INT
 *   gating and BDU write-back.
 * - Interrupts: EIR & EIMR per line, each line a level eventfd (docs/enet.md §8):
 *   int0 carries queue 0, MII and every other event; int1 and int2 the ring
 *   1 and 2 bits, which this single-queue model never raises.
 * - Time: frames occupy the line for preamble+SFD (8 bytes), the frame
 *   padded to 60 bytes plus FCS, and TIPG bytes of gap, at 8 ns/byte
 *   (1000 Mb/s), 80 ns/byte (100 Mb/s) or 800 ns/byte (10 Mb/s); both
 *   directions at once. Real time against CLOCK_MONOTONIC with absolute
 *   deadlines, or a virtual clock that only fdx_line_run_until() moves
 *   (the engine: emu_engine.h).
 *
 * Assumptions where the facts are unknown or conflict (docs/enet.md §12):
 * - ECR resets to 0x7000_0000 (NuttX's reserved value; QEMU: 0xF000_0000,
 *   docs/enet.md §1.1, §11). ECR.RESET completes within the write: ECR always reads it 0.
 *   Both RESET and ECR=0 are accepted (docs/enet.md §4.1).
 * - MRBR keeps bits 13:4 (QEMU, docs/enet.md §1.1, §11); MRBR below 16 stores nothing:
 *   such a frame is dropped and counted (IEEE_R_MACERR, rx_bad_bufsize).
 * - TIPG values 8..26 set the gap in bytes; other values mean 12.
 * - FIFO thresholds (RSFL..TAFL), TFWR, OPD, TACC, RCR.FCE/PADEN/NLC and
 *   the 1588 registers are storage without effect. The multi-queue
 *   registers (docs/enet.md §1.2), FRBR/FRSR and the reserved MIB words
 *   (docs/enet.md §15) read as zero and ignore writes. Accesses to offsets
 *   outside the table, unaligned or outside the 0x4000 window read 0,
 *   write nothing and are counted (bad_accesses).
 * - The part (cfg.soc, docs/enet.md §15): MIBC.MIB_CLEAR on the i.MX6 parts
 *   only; ECR.RESET is performed on every part and counted in resets_axi on
 *   the AXI ones (imx8m, imx6sx), where Linux and FreeBSD write ECR=0.
 * - TX: the DMA walks the ready BDs when TDAR is written (or when GTS is
 *   cleared, or when FIFO space frees while the walk waits) into a TX FIFO
 *   of cfg.tx_fifo_bytes (default 4096, docs/enet.md §12) of whole frames
 *   of up to 2048 bytes (store-and-forward; docs/enet.md §3.4 "faithful
 *   model"), each fetched in cfg.tx_fetch_ns per BD plus its data at 8
 *   bytes per clk_ahb_hz cycle; a frame starts once fetched and the wire is
 *   free. TDAR reads 0 from tx_fetch_ns after the walk's last fetch, when it
 *   has read a BD with R=0, usually before the last R clears (as U-Boot
 *   saw). A frame whose BDs are not all ready (R=0 before L) waits for the
 *   next TDAR write. R clears, TXB/TXF are raised and MIB counts when the
 *   frame's last bit has left the MAC. Frames shorter than 60 bytes are
 *   padded with zeros when TC=1; TC=0 sends the buffer as is (the last 4
 *   bytes are the FCS); ABC (legacy BDs only, docs/enet.md §3.2) sends a bad
 *   FCS, counted in RMON_T_CRC_ALIGN and not in IEEE_T_FRAME_OK. A frame
 *   longer than MAX_FL is sent and raises BABT (docs/enet.md §10 item 10);
 *   one longer than 2048 bytes or of length 0 is not sent: its BDs
 *   complete, UN is raised and IEEE_T_MACERR counts it.
 * - RX: the length in the last BD is the frame's total length (MCUX, docs/enet.md §3.5,
 *   docs/enet.md §11) including the FCS unless RCR.CRCFWD=1, plus 2 with RACC.SHIFT16;
 *   non-last BDs hold MRBR bytes. A frame that finds the current BD not
 *   empty, or RDAR cleared, is dropped: RDAR clears, RMON_R_PACKETS and
 *   IEEE_R_DROP count it (docs/enet.md §10 item 13 gives the candidates, we pick R_DROP). A
 *   frame that runs out of empty BDs part-way is cut there: its last written
 *   BD gets L and OV, IEEE_R_MACERR counts it, RDAR clears.
 * - RX filter (docs/enet.md §1.1, §10 item 15): PROM accepts everything and sets M on frames
 *   the filter would have refused; broadcast passes unless RCR.BC_REJ;
 *   unicast passes on PALR/PAUR or the individual hash, multicast on the
 *   group hash. Refused frames use no BD and count in rx_dropped_filter.
 * - MIB: RMON_R_* count every frame that reaches the MAC, IEEE_R_FRAME_OK
 *   and IEEE_R_OCTETS_OK those written to memory without error, IEEE_R_CRC
 *   every frame of 64 bytes or more with a bad FCS (BD or not); octets
 *   include the FCS; counting only while MIBC.MIB_DIS=0; counters are
 *   writable while MIB_DIS=1; MIB_CLEAR (i.MX6) zeroes them and reads back 0;
 *   MIB_IDLE always reads 1.
 * - Coalescing (docs/enet.md §6): with ICEN the frame event (RXF or TXF) is raised when
 *   ICFT frames completed or ICTT x 64 clock periods passed since the first
 *   unsignalled one; ICFT=0 or ICTT=0 disables that trigger. ICCS=1 counts
 *   cfg.clk_ahb_hz; ICCS=0 the MII/GMII TX clock (125/25/2.5 MHz at
 *   1000/100/10 Mb/s: GMII a byte, MII a nibble per clock). Clearing ICEN
 *   with frames pending raises the event.
 *   TXB/RXB are never coalesced.
 * - Graceful stop (docs/enet.md §4.3, §10 item 7): GTS drops the fetched frames that have not
 *   started (their BDs stay R=1 and are fetched again after GTS clears) and
 *   raises GRA when the frame on the wire has ended, at once if none, never
 *   without link (gra_no_link counts those stops).
 * - ETHEREN 1->0 (also by EBERR) and 0->1 rewind both rings and clear
 *   RDAR/TDAR (docs/enet.md §3.4); a frame on the wire then ends early with a bad FCS
 *   (the peer counts a CRC error), its BDs are not written back.
 * - DMA errors (docs/enet.md §10 item 11): a BD or buffer (address + length) outside the DMA
 *   region raises EBERR, clears ETHEREN and counts dma_errors; nothing
 *   outside the region is read or written. The RX frame in flight is
 *   dropped; the TX frame is not sent.
 * - Link: up while both ends are attached and no flap is in progress.
 *   Frames sent while it is down are lost (counted by the line). A MAC whose
 *   speed (ECR.SPEED, RCR.RMII_10T) differs from the line's neither sends
 *   nor receives intelligible frames: they are lost and counted
 *   (speed_mismatch). RCR.LOOP=1 (its reset value) sends every frame back to
 *   the MAC's own receiver instead of the line, and the line's frames to
 *   that MAC are lost (lost_loopback). Half duplex (TCR.FDEN=0,
 *   RCR.DRT) is not modelled.
 * - Enhanced BDs: TX write-back sets BDU and clears the ESC error bits;
 *   RX write-back sets BDU, UC for unicast, ME on CR or OV (not for LG
 *   alone: docs/enet.md §12); checksum,
 *   VLAN and timestamp fields are written 0. Events of a BD without its INT
 *   bit are not raised (docs/enet.md §3.3).
 * - MDIO (docs/enet.md §5, §11, docs/mdio.md §3): MMFR and MSCR are the ENET MDIO block
 *   (enet_mdio.h) embedded in each model, timed on the line's clock: the
 *   engine wakes exactly at the end of a frame (not batched), completes it
 *   and raises EIR.MII (write-1-to-clear, acknowledged in the block too);
 *   ECR.RESET resets the block (MSCR 0, MMFR kept). EIR.MII is set whatever
 *   ETHEREN says (a polled driver sees it) but drives int0 only while
 *   ECR.ETHEREN=1: Linux keeps ETHEREN set in fec_stop "to have MII
 *   interrupt stay working" on ENET-MAC parts (docs/mdio.md §3.3).
 * - The board (docs/mdio.md §8, docs/enet.md §11): each model has an MDIO bus model with
 *   an AR8031 model at cfg.phy_addr (default 1, as on the i.MX6 SABRE-SD;
 *   ENET_EMU_NO_PHY for a board whose MAC has no PHY, a fixed link); the
 *   PHYs of the two models share the line's real-time wire (phy_emu_wire),
 *   so each is the other's link partner. With PHYs the line carries frames
 *   only while the wire's link is up (phy_emu_wire_link_up()); the cable
 *   carries at most the line's speed, so the PHYs resolve no faster mode
 *   (assumption: a downshift at once where an AR8031 retries first).
 *   fdx_line_set_cable() unplugs and plugs the cable.
 * - Register accesses cost cfg.mmio_latency_ns of busy waiting in real-time
 *   mode (interconnect latency), nothing on the virtual clock.
 * - Real time (docs/host.md §4): events are applied at or after their
 *   physical time, never before. The engine thread sleeps until the
 *   earliest deadline but wakes at most once per cfg.batch_ns; register
 *   accesses first apply every event already due. Lateness is counted.
 *   Between its deadline and its application a frame may use an RX BD
 *   returned in that window.
 */
#ifndef ETHDRV_EMU_ENET_EMU_H
#define ETHDRV_EMU_ENET_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "enet_mdio.h"
#include "emu_fault.h"
#include "emu_loss.h"
#include "ethdrv/enet_soc.h"
#include "ethdrv/mmio.h"
#include "ethdrv/stats.h"
#include "fdx_line.h"
#include "phy_emu.h"

#define ENET_EMU_WINDOW 0x4000u /* register window (docs/enet.md §1.1) */
#define ENET_EMU_IRQ_LINES 3 /* int0, int1, int2 (docs/enet.md §8) */
#define ENET_EMU_FRAME_MAX 2048u /* largest TX frame the FIFO holds (assumption) */
#define ENET_EMU_NO_PHY 32u /* enet_emu_config.phy_addr: the board has no PHY */

struct enet_emu;

/* One controller. */
struct enet_emu_config {
	uint64_t dma_bus; /* bus address of the DMA region; default 0x40000000 */
	size_t dma_size; /* bytes of DMA memory; default 8 MiB, 4 KiB..1 GiB, below 4 GiB */
	unsigned mmio_latency_ns; /* per register access in real time; default 100 */
	uint32_t clk_ahb_hz; /* ENET system clock for ICCS=1; default 125000000 */
	unsigned tx_fifo_bytes; /* TX FIFO size in bytes; default 4096, 2048..65536 (assumption) */
	unsigned tx_fetch_ns; /* TX DMA: one descriptor read; default 100, 0..100000 (assumption) */
	enum ethdrv_enet_soc soc; /* the part (ethdrv/enet_soc.h): its reset and MIB rules;
				     default imx8m (docs/enet.md §15) */
	struct enet_mdio_config mdio; /* the MDIO block: module clock, MSCR-write frame */
	unsigned phy_addr; /* the AR8031's MDIO address; default 1; ENET_EMU_NO_PHY: none */
	struct phy_emu_config phy; /* the AR8031 (reset, autoneg times); defaults */
};

/*
 * Faults (enet_emu_inject(), emu_fault.h); each is counted in `faults` when it
 * takes effect:
 * - EMU_FAULT_RX_EXHAUST: the next @arg frames are dropped as if no RX BD
 *   were empty, counted in IEEE_R_DROP and rx_lost_injected; RDAR stays set
 *   (the ring is not really full, so no driver would write RDAR again: real
 *   exhaustion clears it).
 * - EMU_FAULT_RX_BUS_ERROR: the next RX DMA access fails: EBERR, ETHEREN cleared.
 * - EMU_FAULT_TX_BUS_ERROR: the next TX DMA access fails: EBERR, ETHEREN cleared.
 */

/* Model counters, monotonic since creation (reset does not clear them). */
struct enet_emu_stats {
	ethdrv_counter_t reg_reads; /* register reads */
	ethdrv_counter_t reg_writes; /* register writes */
	ethdrv_counter_t bad_accesses; /* unaligned, outside the window or unknown offset */
	ethdrv_counter_t resets; /* ECR.RESET writes */
	ethdrv_counter_t resets_axi; /* of them on an AXI part (imx8m, imx6sx), where Linux and
					FreeBSD write ECR=0 instead: it can hang the bus there
					(docs/enet.md §15); the model performs it */
	ethdrv_counter_t gra_no_link; /* graceful stops completed without link: no GRA */
	ethdrv_counter_t tx_frames; /* frames that left the MAC */
	ethdrv_counter_t tx_bytes; /* their bytes incl. FCS and padding */
	ethdrv_counter_t tx_bad_len; /* frames of length 0 or over 2048 bytes (not sent) */
	ethdrv_counter_t tx_aborted; /* frames cut by ETHEREN=0 while on the wire */
	ethdrv_counter_t tx_unstarted_dropped; /* fetched frames put back by GTS or disable */
	ethdrv_counter_t tx_fetch_waits; /* walks stopped by a full TX FIFO */
	ethdrv_counter_t tx_idle_ns; /* the transmitter idle between frames: the time from
					the end of a frame's gap to the start of the next
					(the host had none ready); from the second frame on */
	ethdrv_counter_t rx_frames; /* frames written to memory (good or flagged) */
	ethdrv_counter_t rx_bytes; /* their length field sum */
	ethdrv_counter_t rx_dropped_nobd; /* no empty BD or RDAR cleared (IEEE_R_DROP) */
	/* rx_dropped_nobd by cause (docs/design.md §4.8); they add up. */
	struct emu_loss_stats rx_loss; /* rx_lost_driver, _lab, _steal, _injected, rx_gap_max_ns */
	ethdrv_counter_t rx_dropped_disabled; /* arrived while ETHEREN=0 */
	ethdrv_counter_t rx_dropped_filter; /* refused by the address filter */
	ethdrv_counter_t rx_cut; /* ran out of BDs part-way (L+OV) */
	ethdrv_counter_t rx_bad_bufsize; /* MRBR below 16 */
	ethdrv_counter_t rx_crc_errors; /* frames written with CR */
	ethdrv_counter_t dma_errors; /* EBERR: BD or buffer outside the region */
	ethdrv_counter_t coal_count_fires; /* coalesced events raised by ICFT */
	ethdrv_counter_t coal_timer_fires; /* coalesced events raised by ICTT */
	ethdrv_counter_t irq_asserts; /* interrupt line low -> high transitions */
	ethdrv_counter_t faults; /* faults that took effect */
};

/* Names for registering the counters in a stats set. */
extern const struct ethdrv_stat_desc enet_emu_stats_desc[];
extern const size_t enet_emu_stats_desc_count;

/** enet_emu_config_default() - defaults listed above */
void enet_emu_config_default(struct enet_emu_config *cfg);

/**
 * enet_emu_new() - create a controller in its reset state on @port of @line
 * @cfg: settings (NULL = defaults); copied
 * @line: the line
 * @port: 0 or 1, not yet taken
 * @out: receives the model
 *
 * Return: 0, -EINVAL (bad config or port), -EBUSY (port taken), -ENOMEM,
 * or the -errno of eventfd().
 */
int enet_emu_new(const struct enet_emu_config *cfg, struct fdx_line *line, unsigned port,
		 struct enet_emu **out);

/** enet_emu_free() - detach from the line and free (NULL is ignored) */
void enet_emu_free(struct enet_emu *emu);

/**
 * enet_emu_get_bus() - the bus a driver uses
 * @emu: the model
 * @bus: filled: read32/write32 below, close NULL (the model owns itself),
 *       window 0x4000, the DMA region, irq_fd[0..2] = int0..int2 and
 *       irq_fd[3] = -1 (no pps line), desc "emu:enet"
 */
void enet_emu_get_bus(struct enet_emu *emu, struct ethdrv_mmio_bus *bus);

/** enet_emu_read32() - a register read as the bus does it. Any thread. */
uint32_t enet_emu_read32(struct enet_emu *emu, uint32_t off);

/** enet_emu_write32() - a register write as the bus does it. Any thread. */
void enet_emu_write32(struct enet_emu *emu, uint32_t off, uint32_t val);

/**
 * enet_emu_peek_reg() - a register's value without side effects (tests)
 * @emu: the model
 * @off: byte offset
 * @val: receives the value a read would return
 *
 * Return: 0 or -ENOENT for an offset outside the register table.
 */
int enet_emu_peek_reg(struct enet_emu *emu, uint32_t off, uint32_t *val);

/** enet_emu_irq_asserted() - true while interrupt line @n (0..2) is asserted */
bool enet_emu_irq_asserted(struct enet_emu *emu, unsigned n);

/**
 * enet_emu_inject() - inject a fault (emu_fault_inject())
 * @emu: the model
 * @fault: what
 * @arg: EMU_FAULT_RX_EXHAUST: frames (1..EMU_FAULT_EXHAUST_MAX); others: ignored
 *
 * Return: 0 or -EINVAL.
 */
int enet_emu_inject(struct enet_emu *emu, enum emu_fault fault, uint64_t arg);

/** enet_emu_get_stats() - copy the model counters */
void enet_emu_get_stats(struct enet_emu *emu, struct enet_emu_stats *st);

/** enet_emu_line() - the line the model is on */
struct fdx_line *enet_emu_line(struct enet_emu *emu);

/**
 * enet_emu_phy_irq_fd() - the AR8031's INT line (a level eventfd), the
 * board's PHY interrupt; -1 without a PHY
 * @emu: the model
 */
int enet_emu_phy_irq_fd(struct enet_emu *emu);

/**
 * enet_emu_mdio_bus() - the model's MDIO bus, to attach more devices
 * (switch models) at setup
 * @emu: the model
 */
struct mdio_emu *enet_emu_mdio_bus(struct enet_emu *emu);

/** enet_emu_mdio_frame_ns() - one MDIO frame at the MSCR in effect (0: MDC off) */
uint64_t enet_emu_mdio_frame_ns(struct enet_emu *emu);

/** enet_emu_get_mdio_stats() - copy the MDIO block's counters */
void enet_emu_get_mdio_stats(struct enet_emu *emu, struct enet_mdio_stats *st);

#endif /* ETHDRV_EMU_ENET_EMU_H */
