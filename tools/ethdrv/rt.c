// SPDX-License-Identifier: MIT
/*
 * Real-time priority for the driver's threads and the spin guard (rt.h).
 */
#define _GNU_SOURCE
#include "rt.h"

#include <errno.h>
#include <sched.h>

int rt_thread_set(pid_t tid, unsigned prio)
{
	struct sched_param sp = { .sched_priority = (int)prio };

	if (prio > RT_PRIO_MAX)
		return -EINVAL;
	/* Linux applies sched_setscheduler() to the one thread @tid names. */
	return sched_setscheduler(tid, prio ? SCHED_FIFO : SCHED_OTHER, &sp) ? -errno : 0;
}

int rt_thread_get(pid_t tid)
{
	struct sched_param sp;
	int policy = sched_getscheduler(tid);

	if (policy < 0 || sched_getparam(tid, &sp))
		return -errno;
	return policy == SCHED_FIFO ? sp.sched_priority : 0;
}

void rt_guard_round_begin(struct rt_guard *g)
{
	for (unsigned i = 0; i < g->n; i++)
		g->t[i].seen = false;
}

bool rt_guard_sample(struct rt_guard *g, pid_t tid, uint64_t cpu_ns, uint64_t now_ns)
{
	uint64_t ran, window;
	unsigned i;

	for (i = 0; i < g->n && g->t[i].tid != tid; i++)
		;
	if (i == g->n) {
		if (g->n == RT_GUARD_THREADS)
			return false;
		g->n++;
		g->t[i].tid = tid;
		g->t[i].cpu_ns = cpu_ns;
		g->t[i].at_ns = now_ns;
		g->t[i].seen = true;
		return false;
	}
	ran = cpu_ns - g->t[i].cpu_ns;
	window = now_ns - g->t[i].at_ns;
	g->t[i].cpu_ns = cpu_ns;
	g->t[i].at_ns = now_ns;
	g->t[i].seen = true;
	return !g->off && window &&
	       ran * 1000 >=
		       window * (g->spin_permille ? g->spin_permille : RT_GUARD_SPIN_PERMILLE);
}

void rt_guard_round_end(struct rt_guard *g)
{
	unsigned i = 0;

	while (i < g->n) {
		if (g->t[i].seen)
			i++;
		else
			g->t[i] = g->t[--g->n];
	}
}
