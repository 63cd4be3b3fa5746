// SPDX-License-Identifier: MIT
/*
 * The PHY side of a bit-banged MDIO bus: bits in on MDC rising edges, whole
 * management frames out to the MDIO bus model (mdio_bb_emu.h,
 * docs/gbeth.md §6).
 */
#include "mdio_bb_emu.h"

#include <string.h>

#include "mdio_emu.h"

#define PREAMBLE_BITS 32u
#define HEADER_BITS 14u /* ST, OP, PA, RA */
#define FRAME_BITS 32u

void mdio_bb_emu_init(struct mdio_bb_emu *bb, struct mdio_emu *bus)
{
	memset(bb, 0, sizeof(*bb));
	bb->bus = bus;
	bb->mdi = true;
}

static void frame_reset(struct mdio_bb_emu *bb)
{
	bb->ones = 0;
	bb->nbits = 0;
	bb->word = 0;
	bb->reading = false;
	bb->out_left = 0;
	bb->mdi = true;
}

static void frame_done(struct mdio_bb_emu *bb, uint64_t now)
{
	ethdrv_counter_inc(&bb->st.frames);
	ethdrv_counter_set(&bb->st.last_frame_ns, now - bb->pre_start);
}

/* The bits after the preamble, one per rising edge. */
static void frame_bit(struct mdio_bb_emu *bb, bool level, uint64_t now)
{
	bool preamble = bb->ones >= PREAMBLE_BITS;

	bb->word = bb->word << 1 | level;
	bb->nbits++;
	if (bb->nbits == HEADER_BITS) {
		uint32_t frame = bb->word << 18 | (uint32_t)MDIO_EMU_TA_VALID << 16;
		struct mdio_emu_stats before, after;

		if (!mdio_emu_frame_is_read(frame))
			return;
		mdio_emu_get_stats(bb->bus, &before);
		bb->out = mdio_emu_transfer(bb->bus, frame, preamble, now);
		mdio_emu_get_stats(bb->bus, &after);
		frame_done(bb, now);
		if (ethdrv_counter_get(&after.no_device) != ethdrv_counter_get(&before.no_device) ||
		    ethdrv_counter_get(&after.no_preamble_ignored) !=
			    ethdrv_counter_get(&before.no_preamble_ignored)) {
			frame_reset(bb); /* nobody drives: the pull-up reads 1s */
			return;
		}
		/* The PHY answers: turnaround 0, then 16 data bits (docs/gbeth.md §12 item 7). */
		bb->out_left = 17;
		bb->reading = true;
		return;
	}
	if (bb->nbits == FRAME_BITS) {
		mdio_emu_transfer(bb->bus, bb->word, preamble, now);
		frame_done(bb, now);
		frame_reset(bb);
	}
}

static void rising_edge(struct mdio_bb_emu *bb, bool level, uint64_t now)
{
	ethdrv_counter_inc(&bb->st.edges);
	if (bb->reading) {
		if (bb->out_left) {
			bb->out_left--;
			bb->mdi = (bb->out >> bb->out_left) & 1;
		} else {
			frame_reset(bb); /* the trailing clock: the PHY lets go */
		}
		return;
	}
	if (bb->nbits) {
		frame_bit(bb, level, now);
		return;
	}
	if (level) {
		if (!bb->ones)
			bb->pre_start = now;
		if (bb->ones < UINT32_MAX)
			bb->ones++;
		return;
	}
	/* The first 0 after the ones: ST's first bit (a frame without a full
	 * preamble is handed on too; the device decides, docs/mdio.md §1.2). */
	if (!bb->ones)
		bb->pre_start = now;
	frame_bit(bb, false, now);
}

void mdio_bb_emu_pins(struct mdio_bb_emu *bb, bool mdc, bool mdio_out, bool mdio_oe,
		      uint64_t now_ns)
{
	bb->mac_out = mdio_out;
	bb->mac_oe = mdio_oe;
	if (mdc == bb->mdc)
		return;
	if (now_ns - bb->mdc_at < MDIO_BB_MIN_PHASE_NS && ethdrv_counter_get(&bb->st.edges))
		ethdrv_counter_inc(&bb->st.short_phases);
	bb->mdc = mdc;
	bb->mdc_at = now_ns;
	if (mdc)
		rising_edge(bb, mdio_bb_emu_mdi(bb), now_ns);
}

bool mdio_bb_emu_mdi(const struct mdio_bb_emu *bb)
{
	if (bb->mac_oe)
		return bb->mac_out && (bb->reading ? bb->mdi : true);
	return bb->reading ? bb->mdi : true;
}
