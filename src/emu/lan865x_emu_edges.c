// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: IRQ_N's falling edges as an event stream (driver.h struct
 * ethdrv_irq_edge), beside the level eventfd of lan865x_emu_chunks.c. A GPIO
 * line requested with falling-edge detection gives a host one event per
 * edge, each with its time and a sequence number; this is the model's side
 * of that, for an edge-triggered host (Linux's oa_tc6 requests
 * IRQF_TRIGGER_FALLING, docs/tc6.md §2.5).
 *
 * The level shows only what IRQ_N is when the host looks; when a transfer's
 * data header releases IRQ_N and the end of the same transfer asserts it
 * again, the level eventfd stays readable throughout and shows no change,
 * while the pin had a rising and a falling edge. Each assertion
 * (lan865x_emu__irq_assert()) is queued here with the model's time; like the
 * level, it reaches the stream when no transfer is between its processing
 * and its bus end (lan865x_emu__irq_sync()), never before its physical time
 * (docs/design.md §4.2). The stream is a non-blocking pipe of whole records;
 * when the host lets it fill, further edges are dropped and counted
 * (irq_edges_lost), and the sequence numbers show the gap, as a GPIO
 * request's line_seqno does.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "lan865x_emu_priv.h"

int lan865x_emu__edges_open(struct lan865x_emu *emu)
{
	int p[2];

	emu->edge_rd = emu->edge_wr = -1;
	if (!emu->cfg.irq_edges)
		return 0;
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0)
		return -errno;
	emu->edge_rd = p[0];
	emu->edge_wr = p[1];
	return 0;
}

void lan865x_emu__edges_close(struct lan865x_emu *emu)
{
	if (emu->edge_rd >= 0)
		close(emu->edge_rd);
	if (emu->edge_wr >= 0)
		close(emu->edge_wr);
	emu->edge_rd = emu->edge_wr = -1;
}

/* IRQ_N fell at the model's now: queue the edge until the line shows it. */
void lan865x_emu__edge_queue(struct lan865x_emu *emu)
{
	ethdrv_counter_inc(&emu->stats.irq_edges);
	if (emu->edge_wr < 0)
		return;
	if (emu->edges_pending == LAN865X_EMU_EDGES_PENDING) {
		ethdrv_counter_inc(&emu->stats.irq_edges_lost);
		emu->edge_seqno++; /* a gap in the stream, as GPIO's line_seqno shows */
		return;
	}
	emu->edge_pending_t[emu->edges_pending++] = lan865x_emu__now(emu);
}

/* The line shows the level now: write the queued edges to the stream. */
void lan865x_emu__edges_flush(struct lan865x_emu *emu)
{
	for (unsigned i = 0; i < emu->edges_pending; i++) {
		struct ethdrv_irq_edge ev = { .t_ns = emu->edge_pending_t[i],
					      .seqno = ++emu->edge_seqno };

		if (write(emu->edge_wr, &ev, sizeof(ev)) != (ssize_t)sizeof(ev))
			ethdrv_counter_inc(&emu->stats.irq_edges_lost); /* the host let it fill */
	}
	emu->edges_pending = 0;
}
