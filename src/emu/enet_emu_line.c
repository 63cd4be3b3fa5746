// SPDX-License-Identifier: MIT
/*
 * ENET model: the controller on the full-duplex line (fdx_line.h) and on
 * the event engine (emu_engine.h, docs/design.md §5b.1). Each MAC places
 * its frames on its own direction of the line when TDAR fetches them
 * (enet_emu_dma.c computes start and end); the engine applies this MAC's
 * events in time order with the line's and the peer's: a frame's end
 * (delivery to the peer, TX write-back), the coalescing timers, and the end
 * of an MDIO frame. Every event a driver can see at once is exact (applied
 * at its time, docs/design.md §5b.1): a frame's end (descriptor
 * write-backs), a coalescing timer whose event is unmasked, an armed MDIO
 * frame end.
 *
 * MDIO (docs/mdio.md §11): the end of an MDIO frame whose completion can
 * raise an interrupt (EIMR.MII and ETHEREN set) is an exact event: the
 * engine wakes at its time, never batched, so an interrupt-driven MDIO read
 * waits one wakeup, not a batch. A frame nobody waits for on the line
 * (polled MDIO) costs the engine nothing: advance() completes such frames
 * due by the clock (every register access syncs the engine first), so
 * EIR.MII still reads as the block says.
 */
#include "enet_emu_priv.h"

/* The MII event can reach int0 (enet_emu_irq.c): an exact event, not a catch-up. */
static bool mdio_irq_armed(const struct enet_emu *emu)
{
	return (emu->regs[R_EIMR / 4] & EV_MII) && enet__enabled(emu);
}

/* ---- the engine client ---- */

enum enet_ev { EEV_NONE, EEV_FRAME_END, EEV_COAL_RX, EEV_COAL_TX, EEV_MDIO };

/* The MAC's earliest event; *@t its time, *@exact_t the earliest exact one. */
static enum enet_ev enet_earliest(const struct enet_emu *emu, uint64_t *t, uint64_t *exact_t)
{
	enum enet_ev kind = EEV_NONE;
	uint64_t mdio;

	*t = UINT64_MAX;
	/* A frame's end writes back its TX BDs and the peer's RX BDs: exact. */
	if (emu->fifo_count) {
		*t = emu->fifo[emu->fifo_head].end;
		*exact_t = ETHDRV_MIN(*exact_t, *t);
		kind = EEV_FRAME_END;
	}
	for (unsigned d = 0; d < 2; d++) {
		/* A coalescing timer raises RXF/TXF: exact while that bit is unmasked. */
		if (emu->regs[R_EIMR / 4] & (d == COAL_RX ? EV_RXF : EV_TXF))
			*exact_t = ETHDRV_MIN(*exact_t, emu->coal[d].deadline);
		if (emu->coal[d].deadline < *t) {
			*t = emu->coal[d].deadline;
			kind = d == COAL_RX ? EEV_COAL_RX : EEV_COAL_TX;
		}
	}
	if (mdio_irq_armed(emu)) {
		mdio = enet_mdio_deadline_ns(&emu->mdio);
		*exact_t = ETHDRV_MIN(*exact_t, mdio);
		if (mdio < *t) {
			*t = mdio;
			kind = EEV_MDIO;
		}
	}
	return kind;
}

static uint64_t enet_next_event(void *ctx, uint64_t *exact_t)
{
	uint64_t t;

	enet_earliest(ctx, &t, exact_t);
	return t;
}

static void enet_run_event(void *ctx, uint64_t t)
{
	struct enet_emu *emu = ctx;
	uint64_t at, exact = UINT64_MAX;

	switch (enet_earliest(emu, &at, &exact)) {
	case EEV_FRAME_END:
		enet__tx_frame_end(emu, t);
		break;
	case EEV_COAL_RX:
		enet__coal_expire(emu, COAL_RX, t);
		break;
	case EEV_COAL_TX:
		enet__coal_expire(emu, COAL_TX, t);
		break;
	case EEV_MDIO:
		/* docs/mdio.md §3.1: the frame ends, MMFR holds the data, MII is set. */
		if (enet_mdio_advance(&emu->mdio, t))
			enet_emu_raise_mii(emu);
		break;
	default:
		break;
	}
}

/* Complete the MDIO frames nobody waits for on the line, due by @t. */
static void enet_advance(void *ctx, uint64_t t)
{
	struct enet_emu *emu = ctx;

	if (enet_mdio_advance(&emu->mdio, t))
		enet_emu_raise_mii(emu);
}

const struct emu_engine_ops enet__engine_ops = {
	.next_event = enet_next_event,
	.run_event = enet_run_event,
	.advance = enet_advance,
};

/* ---- the port ---- */

static void enet_port_rx_frame(void *ctx, uint8_t *data, uint32_t len, enum fdx_fcs fcs, uint64_t t)
{
	enet__rx_frame(ctx, data, len, fcs, t);
}

/* A receiver in internal loopback (RCR.LOOP) listens to its own MAC only. */
static bool enet_port_rx_from_line(void *ctx)
{
	const struct enet_emu *emu = ctx;

	return !(emu->regs[R_RCR / 4] & RCR_LOOP);
}

static uint64_t enet_port_byte_ns(void *ctx)
{
	return enet__mac_byte_ns(ctx);
}

static unsigned enet_port_gap_bytes(void *ctx)
{
	return enet__gap_bytes(ctx);
}

static uint64_t enet_port_tx_free_at(void *ctx)
{
	const struct enet_emu *emu = ctx;

	return emu->tx_free_at;
}

static void enet_port_set_tx_free_at(void *ctx, uint64_t t)
{
	struct enet_emu *emu = ctx;

	emu->tx_free_at = t;
}

const struct fdx_port_ops enet__port_ops = {
	.rx_frame = enet_port_rx_frame,
	.rx_from_line = enet_port_rx_from_line,
	.byte_ns = enet_port_byte_ns,
	.gap_bytes = enet_port_gap_bytes,
	.tx_free_at = enet_port_tx_free_at,
	.set_tx_free_at = enet_port_set_tx_free_at,
};

void enet__line_deliver(struct enet_emu *emu, struct enet_txf *f, uint64_t t)
{
	/* RCR.LOOP: back into the MAC's own receiver, the line never sees it. */
	if (emu->regs[R_RCR / 4] & RCR_LOOP) {
		enet__rx_frame(emu, f->data, f->len, f->fcs, t);
		return;
	}
	fdx__send(emu->line, emu->port, f->data, f->len, f->fcs, t);
}
