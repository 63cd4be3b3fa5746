/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU softirq contexts (docs/design.md §4.7): a set of loops, each run
 * by a thread of its own ("<name>/<i>"), optionally pinned to host CPU i.
 * A poller moved onto loop i (ethdrv_napi_set_loop()) takes its interrupt
 * and runs its polls in that thread, as a Linux IRQ steered with
 * /proc/irq/N/smp_affinity raises its softirq on that CPU; so an RX and a
 * TX-completion poller on two loops poll in parallel. Each loop is a
 * softirq context with its own ksoftirqd hand-off (ethdrv_softirq_config).
 *
 * The threads are created at the caller's policy; the caller sets their
 * priority by thread id (ethdrv_cpu_loops_tid()).
 */
#ifndef ETHDRV_CPU_LOOPS_H
#define ETHDRV_CPU_LOOPS_H

#include <stdbool.h>
#include "compiler.h"
#include "loop.h"

#define ETHDRV_CPU_LOOPS_MAX 8 /* loops in one set */

struct ethdrv_cpu_loops;

struct ethdrv_cpu_loops_config {
	unsigned n; /* loops, 1..ETHDRV_CPU_LOOPS_MAX */
	const char *name; /* thread name prefix (the kernel keeps 15 characters) */
	bool pin; /* pin loop i to host CPU i modulo the CPUs online */
	struct ethdrv_softirq_config softirq; /* each loop's hand-off limits */
};

/**
 * ethdrv_cpu_loops_start() - create the loops and start their threads
 * @cfg: the set
 * @out: the set, running
 *
 * Return: 0, -EINVAL for a bad @cfg, or -errno.
 */
ETHDRV_EXPORT int ethdrv_cpu_loops_start(const struct ethdrv_cpu_loops_config *cfg,
					 struct ethdrv_cpu_loops **out);

/**
 * ethdrv_cpu_loops_stop() - stop and join the threads, free the loops
 * @c: the set, or NULL
 *
 * Pollers on the loops must have been moved off or deleted first.
 */
ETHDRV_EXPORT void ethdrv_cpu_loops_stop(struct ethdrv_cpu_loops *c);

/** ethdrv_cpu_loops_count() - the loops in @c */
ETHDRV_EXPORT unsigned ethdrv_cpu_loops_count(const struct ethdrv_cpu_loops *c);

/** ethdrv_cpu_loops_get() - loop @i of @c, or NULL for an @i out of range */
ETHDRV_EXPORT struct ethdrv_loop *ethdrv_cpu_loops_get(const struct ethdrv_cpu_loops *c,
						       unsigned i);

/** ethdrv_cpu_loops_tid() - the thread id of loop @i's thread (0 for a bad @i) */
ETHDRV_EXPORT int ethdrv_cpu_loops_tid(const struct ethdrv_cpu_loops *c, unsigned i);

/** ethdrv_cpu_loops_cpu() - the host CPU loop @i is pinned to, -1 if not pinned */
ETHDRV_EXPORT int ethdrv_cpu_loops_cpu(const struct ethdrv_cpu_loops *c, unsigned i);

#endif /* ETHDRV_CPU_LOOPS_H */
