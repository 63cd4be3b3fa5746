/* SPDX-License-Identifier: MIT */
/*
 * Dynamic interrupt moderation: a small policy module any driver with
 * hardware interrupt coalescing can use for ethtool's adaptive-rx and
 * adaptive-tx (docs/style.md S7: adaptive policy is its own module, not logic
 * woven into drivers). The algorithm is Linux's net DIM
 * (docs/napi.md §5.2):
 *
 * - The driver feeds a sample (events, packets, bytes, time) on every
 *   interrupt it services, typically when its poller completes.
 * - A measurement spans ETHDRV_DIM_NEVENTS (64) events; it yields packets,
 *   bytes and events per millisecond.
 * - Compared with the previous measurement, in this order and counting only
 *   differences above 10 %: more bytes/ms is better; with equal bytes, more
 *   packets/ms; with equal packets, fewer events/ms.
 * - A tuning state machine walks a table of five (usec, frames) profiles:
 *   it keeps going the same way while things get better, turns when they do
 *   not, parks "on top" when it has found the best step or reached an end
 *   of the table, and parks "tired" after 2 x 5 steps for as many samples.
 *   From the top it moves again when the traffic changes significantly.
 *
 * One difference from Linux: the kernel applies a new profile in a work
 * item and restarts measuring when the work ran; here ethdrv_dim_update()
 * returns true and the caller applies the profile at once, so measuring
 * restarts immediately.
 *
 * Concurrency: none inside; one ethdrv_dim is updated by one context at a
 * time (the poller that owns the direction).
 */
#ifndef ETHDRV_DIM_H
#define ETHDRV_DIM_H

#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

#define ETHDRV_DIM_NEVENTS 64 /* events per measurement (DIM_NEVENTS) */
#define ETHDRV_DIM_PROFILES 5 /* profiles per table */
#define ETHDRV_DIM_DEFAULT_PROFILE 1 /* starting index of the kernel's tables */

/* One moderation setting. */
struct ethdrv_dim_profile {
	unsigned usec; /* coalescing time */
	unsigned pkts; /* coalescing frame count */
};

/*
 * The kernel's profile tables. "EQE" tables are for timers that restart at
 * every event, "CQE" tables for timers that start with the first completion
 * after an interrupt (the mode of controllers such as NXP's ENET, whose
 * coalescing timer starts at the first unsignalled frame).
 */
ETHDRV_EXPORT extern const struct ethdrv_dim_profile ethdrv_dim_rx_eqe[ETHDRV_DIM_PROFILES];
ETHDRV_EXPORT extern const struct ethdrv_dim_profile ethdrv_dim_rx_cqe[ETHDRV_DIM_PROFILES];
ETHDRV_EXPORT extern const struct ethdrv_dim_profile ethdrv_dim_tx_eqe[ETHDRV_DIM_PROFILES];
ETHDRV_EXPORT extern const struct ethdrv_dim_profile ethdrv_dim_tx_cqe[ETHDRV_DIM_PROFILES];

/* A sample of the driver's running counters (they may wrap). */
struct ethdrv_dim_sample {
	uint64_t time_ns; /* CLOCK_MONOTONIC (or any monotonic clock in ns) */
	uint32_t events; /* interrupts serviced so far */
	uint32_t pkts; /* packets so far */
	uint32_t bytes; /* bytes so far */
};

/* Rates of one measurement. */
struct ethdrv_dim_stats {
	uint32_t ppms; /* packets per ms */
	uint32_t bpms; /* bytes per ms */
	uint32_t epms; /* events per ms */
};

enum ethdrv_dim_tune {
	ETHDRV_DIM_PARKING_ON_TOP, /* at the best profile found; moves on a significant change */
	ETHDRV_DIM_PARKING_TIRED, /* rests after too many steps */
	ETHDRV_DIM_GOING_RIGHT, /* towards more moderation */
	ETHDRV_DIM_GOING_LEFT, /* towards less moderation */
};

struct ethdrv_dim {
	const struct ethdrv_dim_profile *table; /* ETHDRV_DIM_PROFILES entries */
	unsigned profile_ix; /* the profile in effect */
	enum ethdrv_dim_tune tune; /* tuning state */
	bool measuring; /* a measurement started at @start */
	struct ethdrv_dim_sample start; /* its first sample */
	struct ethdrv_dim_stats prev; /* the previous measurement */
	unsigned steps_right; /* steps taken going right */
	unsigned steps_left; /* steps taken going left */
	unsigned tired; /* steps since parking on top; rest count while tired */
	uint64_t decisions; /* measurements evaluated */
	uint64_t changes; /* profile changes */
};

/**
 * ethdrv_dim_init() - start a moderation state machine
 * @dim: the state
 * @table: one of the tables above (or a driver's own, ETHDRV_DIM_PROFILES long)
 * @profile_ix: starting index, usually ETHDRV_DIM_DEFAULT_PROFILE
 *
 * Return: 0, or -EINVAL for a NULL argument or an index out of range.
 */
ETHDRV_EXPORT int ethdrv_dim_init(struct ethdrv_dim *dim, const struct ethdrv_dim_profile *table,
				  unsigned profile_ix);

/**
 * ethdrv_dim_update() - feed one sample
 * @dim: the state
 * @s: the counters now
 *
 * Return: true when a new profile was chosen: the caller applies
 * ethdrv_dim_current() to its hardware now.
 */
ETHDRV_EXPORT bool ethdrv_dim_update(struct ethdrv_dim *dim, const struct ethdrv_dim_sample *s);

/** ethdrv_dim_current() - the profile in effect. */
static inline const struct ethdrv_dim_profile *ethdrv_dim_current(const struct ethdrv_dim *dim)
{
	return &dim->table[dim->profile_ix];
}

/**
 * ethdrv_dim_compare() - how measurement @curr compares with @prev
 * @curr: the new rates
 * @prev: the previous rates
 *
 * Return: 1 better, 0 the same, -1 worse (see the top of this file).
 */
ETHDRV_EXPORT int ethdrv_dim_compare(const struct ethdrv_dim_stats *curr,
				     const struct ethdrv_dim_stats *prev);

#endif /* ETHDRV_DIM_H */
