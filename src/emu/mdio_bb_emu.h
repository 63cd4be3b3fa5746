/* SPDX-License-Identifier: MIT */
/*
 * The PHY side of a bit-banged MDIO bus (docs/gbeth.md §6): a bit-level
 * management-frame receiver clocked by the MDC rising edges a MAC model
 * derives from its register writes (GbEth's PIR), in front of an MDIO bus
 * model (mdio_emu.h) that answers the decoded frames. Any MAC model with
 * GPIO-style MDC/MDIO pins can embed one.
 *
 * Behaviour (IEEE 802.3 22.2.4.5, docs/gbeth.md §12 item 7):
 * - On each MDC rising edge the MDIO level is sampled (the MAC drives it
 *   while its output enable is on; otherwise the line floats high, the
 *   pull-up). 32 or more ones, then 01 (clause 22) or 00 (clause 45),
 *   opcode, PHY/port address, register/MMD: 14 bits after the preamble.
 * - A read frame is handed to the bus after those 14 bits; from the second
 *   turnaround bit on the PHY drives MDI: 0, then the 16 data bits MSB
 *   first, one per rising edge, held until the next rising edge.
 * - A write frame is handed to the bus after its 16 data bits.
 * - Timing: the edge times are the register writes' times; a high or low
 *   phase shorter than 160 ns (IEEE 22.2.2.11) counts a timing violation.
 *
 * Not thread-safe: the embedding model's lock covers it.
 */
#ifndef ETHDRV_EMU_MDIO_BB_EMU_H
#define ETHDRV_EMU_MDIO_BB_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/stats.h"

struct mdio_emu;

#define MDIO_BB_MIN_PHASE_NS 160u /* MDC high or low time (IEEE 802.3 22.2.2.11) */

struct mdio_bb_stats {
	ethdrv_counter_t edges; /* MDC rising edges */
	ethdrv_counter_t frames; /* frames handed to the bus */
	ethdrv_counter_t short_phases; /* MDC phases shorter than MDIO_BB_MIN_PHASE_NS */
	ethdrv_counter_t
		last_frame_ns; /* first preamble edge to the last data edge of the last frame */
};

struct mdio_bb_emu {
	struct mdio_emu *bus; /* the devices behind the pins */
	bool mdc; /* current MDC level */
	uint64_t mdc_at; /* time of the last MDC change */
	unsigned ones; /* consecutive preamble ones */
	unsigned nbits; /* bits after the preamble */
	uint32_t word; /* those bits, MSB first */
	bool reading; /* the PHY drives MDI */
	uint32_t out; /* bits the PHY still shifts out, MSB at bit 16 */
	unsigned out_left; /* how many */
	bool mdi; /* what the PHY drives (1 = released: the pull-up) */
	bool mac_out; /* the MAC's MDIO output */
	bool mac_oe; /* the MAC drives MDIO */
	uint64_t pre_start; /* first edge of the current preamble */
	struct mdio_bb_stats st;
};

/** mdio_bb_emu_init() - idle receiver in front of @bus */
void mdio_bb_emu_init(struct mdio_bb_emu *bb, struct mdio_emu *bus);

/**
 * mdio_bb_emu_pins() - the MAC's pins changed (or were rewritten) at @now_ns
 * @bb: the receiver
 * @mdc: MDC level
 * @mdio_out: the MAC's MDIO output level
 * @mdio_oe: the MAC drives MDIO (else the PHY may, or the pull-up)
 * @now_ns: the write's time
 */
void mdio_bb_emu_pins(struct mdio_bb_emu *bb, bool mdc, bool mdio_out, bool mdio_oe,
		      uint64_t now_ns);

/** mdio_bb_emu_mdi() - the MDIO level the MAC reads (its own output while it drives) */
bool mdio_bb_emu_mdi(const struct mdio_bb_emu *bb);

#endif /* ETHDRV_EMU_MDIO_BB_EMU_H */
