// SPDX-License-Identifier: MIT
/*
 * GbEth model: the controller on the shared event engine and full-duplex
 * line (emu_engine.h, fdx_line.h; docs/design.md §5b.1). Its events: the
 * end of the frame on its TX direction (descriptors handed back, FTF0,
 * delivery to the peer: exact, applied at its physical time) and the end of
 * an operating-mode change (polled by drivers through CSR: any register
 * access syncs the engine first, so it needs no exact wakeup). Frames from
 * the peer arrive by rx_frame at their last bit.
 */
#include "gbeth_emu_priv.h"

static uint64_t gbeth_next_event(void *ctx, uint64_t *exact_t)
{
	const struct gbeth_emu *emu = ctx;

	if (emu->tx_busy && emu->tx_end < *exact_t)
		*exact_t = emu->tx_end;
	return gbeth__next_ns(emu);
}

static void gbeth_run_event(void *ctx, uint64_t t)
{
	gbeth__advance(ctx, t);
}

const struct emu_engine_ops gbeth__engine_ops = {
	.next_event = gbeth_next_event,
	.run_event = gbeth_run_event,
};

static void gbeth_port_rx_frame(void *ctx, uint8_t *data, uint32_t len, enum fdx_fcs fcs,
				uint64_t t)
{
	struct gbeth_emu *emu = ctx;

	if (fcs == FDX_FCS_RAW)
		len = len >= FDX_FCS ? len - FDX_FCS :
				       0; /* RCPT: no FCS in memory (docs/gbeth.md §3.4) */
	gbeth__rx_frame(emu, data, len, fcs != FDX_FCS_BAD, t);
	gbeth__irq_update(emu);
}

/* No internal loopback is modelled (CCC.LBME is storage, docs/gbeth.md §12 item 9). */
static bool gbeth_port_rx_from_line(void *ctx)
{
	(void)ctx;
	return true;
}

static uint64_t gbeth_port_byte_ns(void *ctx)
{
	return gbeth__byte_ns(ctx);
}

static unsigned gbeth_port_gap_bytes(void *ctx)
{
	(void)ctx;
	return 12;
}

static uint64_t gbeth_port_tx_free_at(void *ctx)
{
	return ((const struct gbeth_emu *)ctx)->tx_free_at;
}

static void gbeth_port_set_tx_free_at(void *ctx, uint64_t t)
{
	((struct gbeth_emu *)ctx)->tx_free_at = t;
}

const struct fdx_port_ops gbeth__port_ops = {
	.rx_frame = gbeth_port_rx_frame,
	.rx_from_line = gbeth_port_rx_from_line,
	.byte_ns = gbeth_port_byte_ns,
	.gap_bytes = gbeth_port_gap_bytes,
	.tx_free_at = gbeth_port_tx_free_at,
	.set_tx_free_at = gbeth_port_set_tx_free_at,
};
