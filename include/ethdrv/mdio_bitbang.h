/* SPDX-License-Identifier: MIT */
/*
 * A bit-banged MDIO controller for the MDIO bus core (mdio.h): a MAC
 * without an MDIO engine (Renesas GbEth's PIR register, docs/gbeth.md §6;
 * a GPIO pair) provides four pin operations and gets a struct
 * ethdrv_mdio_ops that shifts whole clause-22 and clause-45 frames
 * (docs/mdio.md §1.1) out and in, one MDC period at a time. The frame is
 * complete when start() returns, so the bus core's completion test
 * succeeds at once in every mode.
 *
 * Bit timing (IEEE 802.3 22.2.2.11: MDC high and low at least 160 ns, the
 * PHY samples on the rising edge and drives after it): to send a bit set
 * MDIO, wait half_ns, MDC = 1, wait half_ns, MDC = 0; to receive, wait
 * half_ns, MDC = 1, wait half_ns, MDC = 0, sample. 32 preamble ones, the
 * 14 header bits, then the turnaround: a write sends 10 and 16 data bits,
 * a read releases MDIO, expects the PHY's 0 and reads 16 bits (a 1 instead
 * reads 0xFFFF, nobody answered, and is counted); one more clock ends the
 * frame.
 */
#ifndef ETHDRV_MDIO_BITBANG_H
#define ETHDRV_MDIO_BITBANG_H

#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"
#include "mdio.h"
#include "stats.h"

#define ETHDRV_MDIO_BB_HALF_NS 250u /* default half period: 2 MHz MDC */

struct ethdrv_mdio_bb_ops {
	/** Drive MDC to @level. */
	void (*set_mdc)(void *ctx, bool level);
	/** Drive MDIO (@output) or release it to the PHY. */
	void (*set_mdio_dir)(void *ctx, bool output);
	/** Drive MDIO to @level (while it is an output). */
	void (*set_mdio)(void *ctx, bool level);
	/** Sample MDIO. */
	bool (*get_mdio)(void *ctx);
	/** Optional: wait @ns (NULL: spin on CLOCK_MONOTONIC). */
	void (*delay_ns)(void *ctx, unsigned ns);
};

struct ethdrv_mdio_bb_stats {
	ethdrv_counter_t frames; /* frames shifted */
	ethdrv_counter_t edges; /* MDC rising edges made */
	ethdrv_counter_t no_answer; /* reads whose turnaround bit was not 0 (0xFFFF read) */
};

/* One controller; the ctx of ethdrv_mdio_bb_mdio_ops. */
struct ethdrv_mdio_bb {
	const struct ethdrv_mdio_bb_ops *ops; /* the pins */
	void *ctx; /* their context */
	unsigned half_ns; /* half an MDC period; 0 = ETHDRV_MDIO_BB_HALF_NS */
	uint16_t data; /* the last read's data */
	struct ethdrv_mdio_bb_stats st; /* counters */
};

/* The bus core's controller ops over a struct ethdrv_mdio_bb (ctx). */
ETHDRV_EXPORT extern const struct ethdrv_mdio_ops ethdrv_mdio_bb_mdio_ops;

/**
 * ethdrv_mdio_bb_init() - a controller over @ops
 * @bb: the controller
 * @ops: the pins (copied by reference: must outlive @bb)
 * @ctx: their context
 * @half_ns: half an MDC period, 0 = default
 */
ETHDRV_EXPORT void ethdrv_mdio_bb_init(struct ethdrv_mdio_bb *bb,
				       const struct ethdrv_mdio_bb_ops *ops, void *ctx,
				       unsigned half_ns);

/** ethdrv_mdio_bb_frame_ns() - the duration of one frame at @bb's clock (65 periods) */
ETHDRV_EXPORT uint64_t ethdrv_mdio_bb_frame_ns(const struct ethdrv_mdio_bb *bb);

#endif /* ETHDRV_MDIO_BITBANG_H */
