/* SPDX-License-Identifier: MIT */
/*
 * The full-duplex line's state, shared by fdx_line.c (delivery, link, bit
 * errors, capture, the engine client) and fdx_line_gen.c (the generator).
 * Everything is under the engine's lock.
 */
#ifndef ETHDRV_EMU_FDX_LINE_PRIV_H
#define ETHDRV_EMU_FDX_LINE_PRIV_H

#include "fdx_line.h"

/* The traffic generator towards one port (fdx_line_gen.c, docs/enet.md §14). */
struct fdx_gen {
	bool on; /* sending; end is the next frame's end */
	uint8_t frame[FDX_FRAME_MAX]; /* the template, stamped per frame */
	uint32_t len; /* frame bytes without FCS, padded to 60 */
	uint32_t csum_base; /* UDP checksum sum without the sequence number */
	uint32_t wire_bytes; /* per frame: preamble, frame, FCS, gap */
	uint64_t seq; /* sequence number of the next frame */
	uint64_t left; /* frames still to send, UINT64_MAX = until stopped */
	uint64_t period_ns; /* start to start, 0 = back to back at line rate */
	uint64_t next_start; /* earliest start of the next frame by the rate */
	uint64_t end; /* the frame on the wire ends here */
	uint64_t free_at; /* the wire is free for the next frame (end + gap) */
};

/* A MAC plugged into a port. */
struct fdx_port {
	const struct fdx_port_ops *ops; /* NULL: no MAC */
	void *ctx;
};

struct fdx_line {
	struct emu_engine *eng; /* the clock, the lock, the thread */
	struct fdx_line_config cfg; /* immutable */
	uint64_t byte_ns; /* ns per byte at the line speed */
	struct fdx_port port[2]; /* the MACs */
	bool forced_down; /* fdx_line_set_link(false) */
	uint64_t up_at; /* a flap ends here; 0 = no flap */
	double ber[2]; /* bit error rate of frames sent by port n */
	uint64_t ber_gap[2]; /* bits until the next error on port n's frames */
	uint64_t rng; /* xorshift state */
	struct fdx_line_stats st; /* the line's own counters */
	struct emu_pcap *capture; /* every frame the line carries, or NULL (the caller's) */
	struct phy_emu_wire *wire; /* the cable between the two PHYs */
	unsigned phys; /* PHYs plugged into it */
	struct fdx_gen gen[2]; /* the traffic generators, by receiving port */
};

/* fdx_line_gen.c */
uint64_t fdx__gen_deadline(const struct fdx_line *line, unsigned to);
void fdx__gen_frame_end(struct fdx_line *line, unsigned to, uint64_t t);

#endif /* ETHDRV_EMU_FDX_LINE_PRIV_H */
