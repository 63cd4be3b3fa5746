// SPDX-License-Identifier: MIT
/*
 * A node's real-time priority (rt.h; knob rt_prio, option --rt-prio): its
 * loop thread and poller threads run at SCHED_FIFO, as PREEMPT_RT runs IRQ
 * threads; threads they create later (a poller thread when threaded=1 is
 * set, the IRQ_N mirror of a board) inherit it. Nothing may spin at that
 * priority (docs/host.md §4): busy_poll > 0 is refused while it is set,
 * and a guard samples the threads' CPU time every RT_GUARD_PERIOD_MS and
 * puts a thread that was on a CPU for rt_spin_permille of the window (knob,
 * default RT_GUARD_SPIN_PERMILLE) back to SCHED_OTHER, counted in
 * node_rt_demotions; rt_spin_guard=off stops that (the livelock rows of
 * napi-modes, where the host's own RT limit is the floor: docs/design.md §4.5).
 * With contexts=irq the priority goes to the softirq loops instead,
 * and the loop and pollers stay SCHED_OTHER (node_ctx.c).
 * The medium's threads are the lab and run above all this (seg_lab.c,
 * docs/design.md §4.5).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/err.h"
#include "ethdrv/log.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

static unsigned node_rt_spin_permille(const struct node *n)
{
	return n->rt_guard.spin_permille ? n->rt_guard.spin_permille : RT_GUARD_SPIN_PERMILLE;
}

/* Judge one thread's last window; demote it if it spun. */
static void node_rt_check(struct node *n, pid_t tid, uint64_t now_ns)
{
	uint64_t cpu_ns = node_thread_cpu_ns(tid);
	int prio;

	if (!rt_guard_sample(&n->rt_guard, tid, cpu_ns, now_ns))
		return;
	prio = rt_thread_get(tid);
	if (prio <= 0 || rt_thread_set(tid, 0))
		return;
	ethdrv_counter_inc(&n->metrics.rt_demotions);
	ethdrv_warn(n->dev,
		    "thread %d was on a CPU for %u permille or more of %u ms at SCHED_FIFO %d: "
		    "put back to SCHED_OTHER (a spin at a real-time priority stalls the host)",
		    (int)tid, node_rt_spin_permille(n), RT_GUARD_PERIOD_MS, prio);
}

static void node_rt_check_poller(struct node *n, pid_t tid, void *arg)
{
	node_rt_check(n, tid, *(const uint64_t *)arg);
}

static void node_rt_on_guard(struct ethdrv_timer *t)
{
	struct node *n = t->data;
	uint64_t now = ethdrv_now_ns();

	rt_guard_round_begin(&n->rt_guard);
	node_rt_check(n, n->loop_tid, now);
	node_for_each_poller(n, node_rt_check_poller, &now);
	node_ctx_for_each_thread(n, node_rt_check_poller, &now);
	rt_guard_round_end(&n->rt_guard);
}

void node_rt_init(struct node *n)
{
	ethdrv_timer_init(n->loop, &n->rt_timer, node_rt_on_guard);
	n->rt_timer.data = n;
}

/* Set one poller thread; @arg holds the priority and receives the first error. */
static void node_rt_set_poller(struct node *n, pid_t tid, void *arg)
{
	int *prio_err = arg;
	int err = rt_thread_set(tid, (unsigned)prio_err[0]);

	if (err && !prio_err[1])
		prio_err[1] = err;
}

bool node_rt_busy_polling(struct node *n)
{
	char v[32];

	return n->dev && !ethdrv_netdev_get(n->dev, "busy_poll", v, sizeof(v)) && strcmp(v, "0");
}

int node_rt_set(struct node *n, unsigned prio, const char **why)
{
	/* contexts=irq: the node's loop and pollers are process context. */
	unsigned task = n->ctx.irq ? 0 : prio;
	int prio_err[2] = { (int)task, 0 };
	int err;

	if (prio && node_rt_busy_polling(n)) {
		*why = "busy_poll > 0 spins, which a real-time priority must not: "
		       "set busy_poll=0 first";
		return -EBUSY;
	}
	err = rt_thread_set(0, task); /* the loop thread: we run in it */
	if (err) {
		*why = err == -EPERM ? "sched_setscheduler: not permitted (needs CAP_SYS_NICE)" :
				       NULL;
		return err;
	}
	node_for_each_poller(n, node_rt_set_poller, prio_err);
	if (prio_err[1])
		return prio_err[1];
	n->rt_prio = prio;
	ethdrv_counter_set(&n->metrics.rt_prio, prio);
	if (n->ctx.irq)
		node_ctx_set_prio(n, node_ctx_prio_wanted(n));
	if (!task && !n->ctx.prio) {
		ethdrv_timer_stop(&n->rt_timer);
		return 0;
	}
	n->rt_guard.n = 0; /* windows start now */
	node_rt_on_guard(&n->rt_timer);
	return ethdrv_timer_start(&n->rt_timer, RT_GUARD_PERIOD_MS * 1000000ull,
				  RT_GUARD_PERIOD_MS * 1000000ull);
}

/* A decimal in [0, @max]; -EINVAL otherwise. */
static int node_rt_parse(const char *value, unsigned long max, unsigned *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static const struct ethdrv_knob node_rt_knobs[] = {
	ETHDRV_KNOB_UINT("rt_prio", 0, RT_PRIO_MAX, "",
			 "SCHED_FIFO priority of the node's threads (0 = SCHED_OTHER)"),
	ETHDRV_KNOB_UINT("rt_spin_permille", 1, 1000, "permille",
			 "CPU share of 100 ms at which a FIFO thread counts as spinning"),
	ETHDRV_KNOB_ENUM("rt_spin_guard", "on|off",
			 "off: no FIFO thread is put back, the kernel's RT limit is the floor"),
};

const struct ethdrv_knob_table node_rt_knob_table = ETHDRV_KNOB_TABLE("node", node_rt_knobs);

int node_rt_set_knob(struct node *n, const char *key, const char *value, const char **why)
{
	unsigned v;

	if (!strcmp(key, "rt_prio")) {
		if (node_rt_parse(value, RT_PRIO_MAX, &v)) {
			*why = "give 1..99 (SCHED_FIFO priority) or 0 (SCHED_OTHER)";
			return -EINVAL;
		}
		return node_rt_set(n, v, why);
	}
	if (!strcmp(key, "rt_spin_permille")) {
		if (node_rt_parse(value, 1000, &v) || !v) {
			*why = "give 1..1000, the CPU share of a 100 ms window that is a spin";
			return -EINVAL;
		}
		n->rt_guard.spin_permille = v;
		return 0;
	}
	if (!strcmp(key, "rt_spin_guard")) {
		if (strcmp(value, "on") && strcmp(value, "off")) {
			*why = "give on (a FIFO thread that spins goes back to SCHED_OTHER) or off";
			return -EINVAL;
		}
		n->rt_guard.off = !strcmp(value, "off");
		return 0;
	}
	return -ENOENT;
}

int node_rt_get_knob(struct node *n, const char *key, char *buf, size_t size)
{
	unsigned v;

	if (!strcmp(key, "rt_spin_guard")) {
		const char *s = n->rt_guard.off ? "off" : "on";

		return snprintf(buf, size, "%s", s) < (int)size ? 0 : -ENOSPC;
	}
	if (!strcmp(key, "rt_prio"))
		v = n->rt_prio;
	else if (!strcmp(key, "rt_spin_permille"))
		v = node_rt_spin_permille(n);
	else
		return -ENOENT;
	return snprintf(buf, size, "%u", v) < (int)size ? 0 : -ENOSPC;
}

bool node_rt_forbids_busy_poll(struct node *n, const char *value, const char **why)
{
	char *end;

	if (!n->rt_prio || value[0] < '0' || value[0] > '9' || !strtoul(value, &end, 10) || *end)
		return false; /* allowed, or not a number (the device refuses it) */
	*why = "busy polling spins, which a real-time priority must not: set rt_prio=0 first";
	return true;
}
