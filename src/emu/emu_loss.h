/* SPDX-License-Identifier: MIT */
/*
 * Why a model lost a frame for want of room (docs/design.md §4.8): the RX
 * buffer of the LAN8650, the RX ring of a ring MAC with no empty
 * descriptor. Each such loss is put down to one cause:
 *   - the lab: the frame reached the model more than EMU_LOSS_LAB_LATE_NS
 *     after its physical time (the medium or engine woke late and handed
 *     over a backlog, which no wire does);
 *   - steal: else, the VM lost CPU time to its host (/proc/stat steal)
 *     during the driver's service gap that ended in the loss;
 *   - the driver: else; its service gap (since it last served the RX side)
 *     is recorded, the longest in gap_max_ns.
 * A loss an injected fault caused (emu.inject, emu_fault.h) is counted
 * apart, as injected. Models whose clock is virtual (unit tests) see no steal.
 * The ENET, eTSEC, GbEth and LAN8650 models count here; EMU_LOSS_STAT_DESCS
 * names the counters alike in each model's stats.
 */
#ifndef ETHDRV_EMU_EMU_LOSS_H
#define ETHDRV_EMU_EMU_LOSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ethdrv/stats.h"

#define EMU_LOSS_LAB_LATE_NS 1000000ull /* later than this: the lab's lateness (assumption) */

enum emu_loss_cause {
	EMU_LOSS_DRIVER, /* the driver's service gap */
	EMU_LOSS_LAB, /* the lab delivered late */
	EMU_LOSS_STEAL, /* the VM's CPU was stolen during the gap */
};

/* Counters; the four add up to the losses counted. */
struct emu_loss_stats {
	ethdrv_counter_t lost_driver; /* the driver's service gap */
	ethdrv_counter_t lost_lab; /* the lab's lateness */
	ethdrv_counter_t lost_steal; /* VM steal during the gap */
	ethdrv_counter_t gap_max_ns; /* longest service gap that ended in a driver loss */
	ethdrv_counter_t lost_injected; /* an injected fault (emu.inject) */
};

/* The stat descriptors of the struct emu_loss_stats @member of stats struct @type. */
#define EMU_LOSS_STAT_DESCS(type, member)                                \
	{ "rx_lost_driver", offsetof(type, member.lost_driver) },        \
		{ "rx_lost_lab", offsetof(type, member.lost_lab) },      \
		{ "rx_lost_steal", offsetof(type, member.lost_steal) },  \
		{ "rx_gap_max_ns", offsetof(type, member.gap_max_ns) },  \
	{                                                                \
		"rx_lost_injected", offsetof(type, member.lost_injected) \
	}

/**
 * emu_loss_cause_of() - the cause of one loss (the rule alone)
 * @late_ns: how long after its physical time the frame reached the model
 * @steal_ticks: steal ticks (/proc/stat) during the driver's service gap
 */
enum emu_loss_cause emu_loss_cause_of(uint64_t late_ns, uint64_t steal_ticks);

/**
 * emu_loss_count() - attribute one loss and count it
 * @st: the counters
 * @t_phys: the frame's physical time (its end on the wire)
 * @now: the model's now
 * @gap_start: when the driver last served the RX side
 * @realtime: the model runs against CLOCK_MONOTONIC (steal is looked up)
 *
 * Return: the cause.
 */
enum emu_loss_cause emu_loss_count(struct emu_loss_stats *st, uint64_t t_phys, uint64_t now,
				   uint64_t gap_start, bool realtime);

/** emu_loss_injected() - count one loss an injected fault caused */
void emu_loss_injected(struct emu_loss_stats *st);

/**
 * emu_steal_ref() - start (or share) the steal sampler of this process
 *
 * A thread reads the steal column of /proc/stat every EMU_STEAL_PERIOD_MS
 * and keeps the last seconds, so a loss can ask how much was stolen since
 * its service gap began. Pairs with emu_steal_unref(). Return: 0 or -errno
 * (the models then see no steal).
 */
int emu_steal_ref(void);
void emu_steal_unref(void);

#define EMU_STEAL_PERIOD_MS 10 /* the kernel counts steal in USER_HZ ticks (10 ms) */
#define EMU_STEAL_FRESH_NS 1000000ull /* a loss's read of /proc/stat serves 1 ms (our choice) */

/**
 * emu_steal_since() - steal ticks from @t0 (CLOCK_MONOTONIC ns) to now
 * @t0: the interval's start
 *
 * From the last sample at or before @t0 (the oldest kept if @t0 is older)
 * to a read of /proc/stat at most EMU_STEAL_FRESH_NS old (one read serves
 * every loss within that time). 0 without a sampler.
 */
uint64_t emu_steal_since(uint64_t t0);

/**
 * emu_steal_read() - the steal ticks of all CPUs now (/proc/stat "cpu" line)
 *
 * Return: the ticks, or 0 if they cannot be read.
 */
uint64_t emu_steal_read(void);

#endif /* ETHDRV_EMU_EMU_LOSS_H */
