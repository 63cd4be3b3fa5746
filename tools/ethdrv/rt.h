/* SPDX-License-Identifier: MIT */
/*
 * Real-time priority for the driver's threads (issue 10, section 7;
 * docs/design.md §4.5): SCHED_FIFO at a priority the user gives, as
 * PREEMPT_RT users run IRQ threads, so that host stalls of SCHED_OTHER
 * work do not hold off the service of the chip's RX buffer. A SCHED_FIFO thread that spins is what
 * must never happen: RT throttling then parks it for about 50 ms every
 * second (docs/host.md §4). So busy polling (a spin by design) is refused
 * at a real-time priority, and a guard demotes any thread that still runs
 * most of a window without sleeping.
 */
#ifndef ETHDRV_TOOLS_RT_H
#define ETHDRV_TOOLS_RT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define RT_PRIO_MAX 99 /* SCHED_FIFO priorities are 1..99 */
#define RT_GUARD_PERIOD_MS 100 /* how often the guard samples */
#define RT_GUARD_SPIN_PERMILLE 900 /* default CPU share of a window that counts as a spin */
#define RT_GUARD_THREADS 16 /* threads one guard watches */

/**
 * rt_thread_set() - run thread @tid at SCHED_FIFO @prio, or SCHED_OTHER for 0
 * @tid: a thread of this process; 0 = the calling thread
 * @prio: 0, or 1..RT_PRIO_MAX
 *
 * Threads the thread creates afterwards inherit the policy (glibc's
 * default PTHREAD_INHERIT_SCHED).
 *
 * Return: 0, -EINVAL for a bad @prio, or the -errno of sched_setscheduler
 * (-EPERM without CAP_SYS_NICE or RLIMIT_RTPRIO).
 */
int rt_thread_set(pid_t tid, unsigned prio);

/**
 * rt_thread_get() - the SCHED_FIFO priority of @tid, 0 if it runs another policy
 * @tid: a thread of this process; 0 = the calling thread
 *
 * Return: the priority, or -errno.
 */
int rt_thread_get(pid_t tid);

/* The CPU time of the threads a guard watches, at its last sample. */
struct rt_guard {
	unsigned spin_permille; /* CPU share of a window that is a spin; 0 = the default */
	bool off; /* rt_spin_guard=off: samples are kept, no window is a spin */
	unsigned n; /* entries used */
	struct {
		pid_t tid; /* the thread */
		uint64_t cpu_ns; /* its CPU time */
		uint64_t at_ns; /* when it was read (CLOCK_MONOTONIC) */
		bool seen; /* sampled in the current round */
	} t[RT_GUARD_THREADS];
};

/**
 * rt_guard_round_begin() - start a round of samples
 * @g: the guard
 */
void rt_guard_round_begin(struct rt_guard *g);

/**
 * rt_guard_sample() - record the CPU time of @tid and judge the window
 * @g: the guard
 * @tid: the thread
 * @cpu_ns: its CPU time now
 * @now_ns: CLOCK_MONOTONIC now
 *
 * Return: true if, since its previous sample, @tid was on a CPU for at
 * least @g->spin_permille (default RT_GUARD_SPIN_PERMILLE) of the time (a
 * spin); false for its first sample, an empty window or a full table.
 */
bool rt_guard_sample(struct rt_guard *g, pid_t tid, uint64_t cpu_ns, uint64_t now_ns);

/**
 * rt_guard_round_end() - forget threads not sampled in this round (exited)
 * @g: the guard
 */
void rt_guard_round_end(struct rt_guard *g);

#endif /* ETHDRV_TOOLS_RT_H */
