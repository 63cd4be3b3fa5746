/* SPDX-License-Identifier: MIT */
/*
 * Hardware model of Renesas' GbEth (RZ/G2L, RZ/G2UL, RZ/V2L, RZ/G3S: the
 * block Linux's ravb runs in its GbEth path), written from docs/gbeth.md
 * only (section numbers below are that page's), never from a driver. A
 * driver reaches it through struct ethdrv_mmio_bus (gbeth_emu_get_bus()):
 * 32-bit registers, one DMA region, one level eventfd (the `mux` line).
 *
 * Files: gbeth_emu.c (lifecycle, bus, operating modes, interrupt line),
 * gbeth_emu_regs.c (register decode and access rules), gbeth_emu_dma.c
 * (DBAT, TX and RX descriptors, checksum trailer); the PIR MDIO slave is
 * mdio_bb_emu.c in front of an MDIO bus model with a PHY model.
 *
 * What it models:
 * - The register window of docs/gbeth.md §1 (0x1000 bytes decoded): the
 *   operating modes (CCC.OPC requests, CSR.OPS one-hot reports, docs/gbeth.md §2) with
 *   the time a change takes; RIS0/RIS2/TIS/EIS cleared by writing 0 and
 *   ECSR by writing 1 (docs/gbeth.md §4.1); the interrupt enables; ISS; ECMR, RFLR,
 *   GECMR, MAHR/MALR (docs/gbeth.md §5); TROCR/CXR41/CXR42 cleared by writing 0 (docs/gbeth.md §8);
 *   CSR0/CSR2 and the RX checksum trailer (docs/gbeth.md §7).
 * - Descriptors (docs/gbeth.md §3): the DBAT table (entry 0 TX queue 0, entry 4 RX queue
 *   0), LINKFIX and LINK followed anywhere, FSINGLE/FSTART/FMID/FEND with a
 *   byte count per descriptor, FEMPTY/EEMPTY ownership in the type nibble
 *   (the halfword at +2 read with acquire and written with release
 *   ordering), TX from TCCR.TSRQ0, RX frames over several descriptors,
 *   "descriptor empty" (RIS2.QFF0) drops.
 * - One interrupt per event, no coalescing (docs/gbeth.md §4.2): FRF0 when a received
 *   frame's last descriptor is written, FTF0 when a sent frame's
 *   descriptors are handed back; the line is a level eventfd.
 * - PIR bit-banged MDIO (docs/gbeth.md §6): each PIR write is a pin change at the
 *   write's time; a PHY model sits behind it.
 * - The line: the shared full-duplex line and event engine (fdx_line.h,
 *   emu_engine.h; docs/design.md §5b.1): a frame occupies its direction
 *   for preamble, frame padded to 60, FCS and 12 bytes of gap at 8/80/800
 *   ns a byte for GECMR 1000/100/10 Mb/s; its end is an exact event (TX
 *   write-back, delivery to the peer); link, carrier (the PHYs on the
 *   line's wire), bit errors, flaps, pcap and the generator are the line's.
 *
 * Assumptions (docs/gbeth.md §12, one item each):
 * 1. Reset values: CSR.OPS = RESET, all else 0; MAHR/MALR hold
 *    cfg.boot_mac (a boot loader's address; zero by default).
 * 2. A mode request completes cfg.mode_ns (default 10 us) after the write;
 *    leaving OPERATION first waits for the frame on the wire. RESET clears
 *    the DMAC registers (DBAT, TCCR, enables, statuses), not the E-MAC's;
 *    entering OPERATION loads the queue pointers from DBAT entries 0 and 4.
 * 3. TX: one frame at a time, fetched whole; FSTART without FEND yet
 *    stops the queue (TSRQ0 clears) until the next request; under 60 bytes
 *    padded; over 1522 bytes or with ECMR.TE = 0 not sent (descriptors
 *    complete, counted); FEMPTY written back and FTF0 raised at the end.
 * 4. RX: store and forward: the frame is written only if all the
 *    descriptors it needs are FEMPTY, else dropped, counted, QFF0; a
 *    FEMPTY descriptor with DS = 0 is handed back as FSINGLE/DS 0 and
 *    skipped; over RFLR cut to RFLR - 4 bytes with RTLF; only in
 *    OPERATION with ECMR.RE; PRM = 0 takes our address, broadcast and
 *    multicast (MSC.MC).
 * 5. Checksum trailer: IPv4 header, TCP/UDP over IPv4/IPv6; ICMP 0xFFFF.
 * 6. ISS bits are gated by the enables; EIS.QFS follows RIS2 & RIC2.
 * 7. PIR MDIO: MDO sampled on MDC rising edges with MMD = 1; MDC phases
 *    under 160 ns counted as violations; PIR works in every mode.
 * 8. CXR42 counts frames sent while the link was down; TROCR/CXR41 stay 0.
 * 9. RIC3, RCR, RTC, TGC, CXR31/35, CSR1, CCC.LBME, CCC.DTSR: storage (no loopback, no
 *    transfer suspension: CSR.DTS reads 0; docs/gbeth.md §12 item 9 says why). A GECMR speed other
 *    than the line's loses the frames (counted).
 * 10. Accesses outside the decoded window, unaligned or to no register
 *    read 0, write nothing and are counted (bad_accesses). A descriptor or
 *    buffer outside the DMA region is never touched: the queue stops and
 *    dma_errors counts it.
 * 11. Faults (emu.inject, emu_fault.h), counted in `faults`: rx_exhaust
 *    drops the next N frames as a descriptor-empty drop does (QFF0,
 *    rx_dropped_nodesc, rx_lost_injected); rx_bus_error fails the next
 *    frame's first descriptor read: the frame is lost whole, nothing is
 *    written (rx_dropped_dma, dma_errors); tx_bus_error fails the next
 *    frame's data fetch: it is not sent, its descriptors complete
 *    (tx_dropped_dma, dma_errors). No status bit reports a bus error: the
 *    sources document none for GbEth and Linux enables no error interrupt
 *    there. A descriptor-empty drop is put down to its cause
 *    (docs/design.md §4.8) with the driver's service gap measured from its
 *    last RIS0 or RIC0 write (the poll acknowledges FRF0 and re-arms there).
 */
#ifndef ETHDRV_EMU_GBETH_EMU_H
#define ETHDRV_EMU_GBETH_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "emu_fault.h"
#include "emu_loss.h"
#include "ethdrv/mmio.h"
#include "ethdrv/stats.h"
#include "fdx_line.h"
#include "phy_emu.h"

#define GBETH_EMU_WINDOW 0x1000u /* decoded register window (docs/gbeth.md §1) */
#define GBETH_EMU_NO_PHY 32u /* gbeth_emu_config.phy_addr: no PHY on the PIR bus */
#define GBETH_EMU_TX_MAX 1522u /* largest frame sent, without FCS (docs/gbeth.md §3.3) */
#define GBETH_EMU_RX_MAX 9216u /* largest frame the line may deliver */

struct gbeth_emu_config {
	uint64_t dma_bus; /* bus address of the DMA region; default 0x40000000 */
	size_t dma_size; /* bytes; default 8 MiB, 4 KiB..1 GiB, below 4 GiB */
	unsigned mmio_latency_ns; /* per register access in real time; default 100 */
	uint64_t mode_ns; /* operating-mode change time; default 10000 (docs/gbeth.md §12) */
	uint8_t boot_mac[6]; /* MAHR/MALR at reset */
	unsigned phy_addr; /* the PHY's address on the PIR bus; default 7; GBETH_EMU_NO_PHY */
	struct phy_emu_config phy; /* the PHY model */
	uint8_t node_id; /* for messages */
};

struct gbeth_emu_stats {
	ethdrv_counter_t reg_reads; /* register reads */
	ethdrv_counter_t reg_writes; /* register writes */
	ethdrv_counter_t bad_accesses; /* outside the window, unaligned, no register */
	ethdrv_counter_t mode_changes; /* CSR.OPS changes */
	ethdrv_counter_t tx_frames; /* frames that left the MAC */
	ethdrv_counter_t tx_bytes; /* their bytes (padded, no FCS) */
	ethdrv_counter_t tx_descs; /* descriptors handed back FEMPTY */
	ethdrv_counter_t tx_too_long; /* frames over 1522 bytes, not sent */
	ethdrv_counter_t tx_te_off; /* frames fetched with ECMR.TE = 0, not sent */
	ethdrv_counter_t tx_link_down; /* frames sent while the link was down (CXR42) */
	ethdrv_counter_t tx_incomplete; /* fetches that met FSTART without FEND */
	ethdrv_counter_t tx_idle_ns; /* transmitter idle between frames (from the second) */
	ethdrv_counter_t tx_dropped_dma; /* frames not sent: their data fetch failed */
	ethdrv_counter_t rx_frames; /* frames written to memory */
	ethdrv_counter_t rx_bytes; /* their bytes as written (trailer included) */
	ethdrv_counter_t rx_descs; /* descriptors written */
	ethdrv_counter_t rx_multi_desc; /* frames written over more than one descriptor */
	ethdrv_counter_t rx_dropped_nodesc; /* descriptor empty (QFF0) */
	/* rx_dropped_nodesc by cause (docs/design.md §4.8); they add up. */
	struct emu_loss_stats rx_loss; /* rx_lost_driver, _lab, _steal, _injected, rx_gap_max_ns */
	ethdrv_counter_t rx_dropped_dma; /* lost to a descriptor or buffer access that failed */
	ethdrv_counter_t rx_dropped_off; /* arrived outside OPERATION or with RE = 0 */
	ethdrv_counter_t rx_dropped_filter; /* not our address, PRM = 0 */
	ethdrv_counter_t rx_too_long; /* cut at RFLR (RTLF) */
	ethdrv_counter_t rx_crc_errors; /* written with MSC.CRC */
	ethdrv_counter_t rx_ds0_skipped; /* DS = 0 descriptors handed back */
	ethdrv_counter_t rx_csum_trailers; /* trailers appended */
	ethdrv_counter_t dma_errors; /* descriptors or buffers outside the region, bus errors */
	ethdrv_counter_t faults; /* injected faults that took effect */
	ethdrv_counter_t irq_asserts; /* line low -> high */
	ethdrv_counter_t mdio_frames; /* PIR MDIO frames decoded */
	ethdrv_counter_t mdio_short_phases; /* MDC phases under 160 ns */
	ethdrv_counter_t mdio_last_frame_ns; /* duration of the last PIR MDIO frame */
};

extern const struct ethdrv_stat_desc gbeth_emu_stats_desc[];
extern const size_t gbeth_emu_stats_desc_count;

struct gbeth_emu;

/** gbeth_emu_config_default() - the defaults above */
void gbeth_emu_config_default(struct gbeth_emu_config *cfg);

/**
 * gbeth_emu_new() - a GbEth in its reset state on @port of @line
 * @cfg: settings (NULL = defaults), copied
 * @line: the line (fdx_line.h); its engine's lock covers the model
 * @port: 0 or 1, not yet taken
 * @out: receives the model
 *
 * Return: 0, -EINVAL, -EBUSY (port taken), -ENOMEM, or the -errno of eventfd().
 */
int gbeth_emu_new(const struct gbeth_emu_config *cfg, struct fdx_line *line, unsigned port,
		  struct gbeth_emu **out);

/** gbeth_emu_free() - free (NULL is ignored) */
void gbeth_emu_free(struct gbeth_emu *emu);

/** gbeth_emu_get_bus() - the bus a driver uses ("emu:gbeth", one IRQ line) */
void gbeth_emu_get_bus(struct gbeth_emu *emu, struct ethdrv_mmio_bus *bus);

/** gbeth_emu_line() - the line the model is on */
struct fdx_line *gbeth_emu_line(struct gbeth_emu *emu);

/* ---- any thread (take the lock) ---- */

/** gbeth_emu_get_stats() - copy the counters */
void gbeth_emu_get_stats(struct gbeth_emu *emu, struct gbeth_emu_stats *st);

/** gbeth_emu_peek_reg() - a register's value without side effects; -EINVAL if none */
int gbeth_emu_peek_reg(struct gbeth_emu *emu, uint32_t off, uint32_t *val);

/**
 * gbeth_emu_inject() - inject a fault (emu_fault_inject(); docs/gbeth.md §12 item 11)
 * @emu: the model
 * @fault: what
 * @arg: EMU_FAULT_RX_EXHAUST: frames (1..EMU_FAULT_EXHAUST_MAX); others: ignored
 *
 * Return: 0 or -EINVAL.
 */
int gbeth_emu_inject(struct gbeth_emu *emu, enum emu_fault fault, uint64_t arg);

/** gbeth_emu_irq_asserted() - the level of the `mux` line */
bool gbeth_emu_irq_asserted(struct gbeth_emu *emu);

/** gbeth_emu_phy() - the PHY model, or NULL */
struct phy_emu *gbeth_emu_phy(struct gbeth_emu *emu);

/** gbeth_emu_phy_irq_fd() - the PHY's interrupt line, or -1 */
int gbeth_emu_phy_irq_fd(struct gbeth_emu *emu);

#endif /* ETHDRV_EMU_GBETH_EMU_H */
