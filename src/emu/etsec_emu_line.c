// SPDX-License-Identifier: MIT
/*
 * eTSEC model: the controller on the full-duplex line (fdx_line.h) and on
 * the event engine (emu_engine.h, docs/design.md §5b.1). The engine applies
 * this MAC's events in time order with the line's and the peer's: the end
 * of the frame at the head of the TX FIFO (write-back, TXB/TXF, delivery),
 * the coalescing timers and the end of a MII management frame. A frame's
 * end and an unmasked coalescing timer are exact (a driver sees them at
 * once); a MIIM frame is polled through MIIMIND, and every register access
 * syncs the engine first, so it need not wake the engine.
 */
#include <string.h>

#include "crc32.h"
#include "etsec_emu_priv.h"

enum etsec_ev { TEV_NONE, TEV_FRAME_END, TEV_COAL_RX, TEV_COAL_TX, TEV_MIIM };

static enum etsec_ev earliest(const struct etsec_emu *emu, uint64_t *t, uint64_t *exact_t)
{
	static const uint32_t coal_bit[2] = { EV_RXF, EV_TXF };
	enum etsec_ev kind = TEV_NONE;

	*t = EMU_NEVER;
	if (emu->fifo_count) {
		*t = emu->fifo[emu->fifo_head].end;
		*exact_t = ETHDRV_MIN(*exact_t, *t);
		kind = TEV_FRAME_END;
	}
	for (unsigned d = 0; d < 2; d++) {
		if (etsec__reg(emu, R_IMASK) & coal_bit[d])
			*exact_t = ETHDRV_MIN(*exact_t, emu->coal[d].deadline);
		if (emu->coal[d].deadline < *t) {
			*t = emu->coal[d].deadline;
			kind = d == COAL_RX ? TEV_COAL_RX : TEV_COAL_TX;
		}
	}
	if (emu->miim.end < *t) {
		*t = emu->miim.end;
		kind = TEV_MIIM;
	}
	return kind;
}

static uint64_t etsec_next_event(void *ctx, uint64_t *exact_t)
{
	uint64_t t;

	earliest(ctx, &t, exact_t);
	return t;
}

static void etsec_run_event(void *ctx, uint64_t t)
{
	struct etsec_emu *emu = ctx;
	uint64_t at, exact = EMU_NEVER;
	enum etsec_ev kind = earliest(emu, &at, &exact);

	emu->now = t;
	if (kind == TEV_FRAME_END)
		etsec__tx_frame_end(emu, t);
	else if (kind == TEV_COAL_RX || kind == TEV_COAL_TX)
		etsec__coal_expire(emu, kind == TEV_COAL_RX ? COAL_RX : COAL_TX, t);
	else if (kind == TEV_MIIM)
		etsec__miim_done(emu);
}

const struct emu_engine_ops etsec__engine_ops = {
	.next_event = etsec_next_event,
	.run_event = etsec_run_event,
};

/* ---- the port ---- */

/*
 * A frame's last bit arrived: the FCS as the line says it travels, written
 * after the data as the RX DMA stores it (one CRC per frame, and none for a
 * frame the line marked bad: its FCS bytes are then the good CRC inverted).
 */
void etsec__rx_wire(struct etsec_emu *emu, const uint8_t *data, uint32_t len, enum fdx_fcs fcs,
		    uint64_t t)
{
	uint32_t n = ETHDRV_MIN(len, (uint32_t)ETSEC_EMU_FRAME_MAX);
	bool ok = true;

	memcpy(emu->rxbuf, data, n);
	if (fcs == FDX_FCS_RAW) {
		ok = emu_fcs_ok(emu->rxbuf, n);
	} else {
		emu_fcs_append(emu->rxbuf, n);
		if (fcs == FDX_FCS_BAD) {
			emu->rxbuf[n] ^= 0xFF;
			ok = false;
		}
		n += 4;
	}
	emu->now = t;
	etsec__rx_frame(emu, emu->rxbuf, n, ok, t);
}

static void port_rx_frame(void *ctx, uint8_t *data, uint32_t len, enum fdx_fcs fcs, uint64_t t)
{
	etsec__rx_wire(ctx, data, len, fcs, t);
}

/* MACCFG1[LOOPBACK]: the receiver hears only its own transmitter (docs/etsec.md §4.1). */
static bool port_rx_from_line(void *ctx)
{
	return !(etsec__reg(ctx, R_MACCFG1) & MACCFG1_LOOPBACK);
}

static uint64_t port_byte_ns(void *ctx)
{
	return etsec__byte_ns(ctx);
}

static unsigned port_gap_bytes(void *ctx)
{
	(void)ctx;
	return ETSEC_GAP_BYTES;
}

static uint64_t port_tx_free_at(void *ctx)
{
	return ((const struct etsec_emu *)ctx)->tx_free_at;
}

static void port_set_tx_free_at(void *ctx, uint64_t t)
{
	((struct etsec_emu *)ctx)->tx_free_at = t;
}

const struct fdx_port_ops etsec__port_ops = {
	.rx_frame = port_rx_frame,
	.rx_from_line = port_rx_from_line,
	.byte_ns = port_byte_ns,
	.gap_bytes = port_gap_bytes,
	.tx_free_at = port_tx_free_at,
	.set_tx_free_at = port_set_tx_free_at,
};

/* A frame left the MAC at @t: to the line, or back in with LOOPBACK. */
void etsec__send(struct etsec_emu *emu, struct etsec_txf *f, uint64_t t)
{
	uint32_t data_len = f->fcs == FDX_FCS_APPEND ? f->len - 4 : f->len;

	if (etsec__reg(emu, R_MACCFG1) & MACCFG1_LOOPBACK) {
		etsec__rx_wire(emu, f->data, data_len, (enum fdx_fcs)f->fcs, t);
		return;
	}
	fdx__send(emu->line, emu->port, f->data, data_len, (enum fdx_fcs)f->fcs, t);
}
