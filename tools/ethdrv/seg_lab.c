// SPDX-License-Identifier: MIT
/*
 * The lab's priority (docs/design.md §4.5): the medium and the line
 * engines are the wire, which no driver can hold off. When the driver's
 * contexts run at SCHED_FIFO (--rt-prio N, or contexts=irq, whose softirq
 * loops ask for NODE_CTX_PRIO), the lab's threads run one priority above
 * them: the segment's main thread takes that priority while it creates the
 * medium, whose threads inherit it (PTHREAD_INHERIT_SCHED), and drops it
 * again. Nothing may spin at a real-time priority (docs/host.md §4): a
 * guard samples the lab's threads every RT_GUARD_PERIOD_MS and puts one
 * that was on a CPU for RT_GUARD_SPIN_PERMILLE of the window back to
 * SCHED_OTHER, counted in lab_rt_demotions (`ethdrv stats segment|link`).
 */
#define _GNU_SOURCE /* gettid */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ethdrv/err.h"
#include "node_priv.h"
#include "segment_priv.h"

static const struct ethdrv_stat_desc seg_lab_desc[] = {
	ETHDRV_STAT_DESC(struct seg_lab_stats, rt_prio),
	ETHDRV_STAT_DESC(struct seg_lab_stats, threads),
	ETHDRV_STAT_DESC(struct seg_lab_stats, rt_demotions),
};

/* True if the knobs every node gets put it in contexts=irq. */
static bool seg_lab_contexts_irq(const struct seg *s)
{
	for (unsigned i = 0; i < s->args.knob_count; i++)
		if (!strcmp(s->args.knobs[i].key, "contexts") &&
		    !strcmp(s->args.knobs[i].value, "irq"))
			return true;
	return false;
}

unsigned seg_lab_prio(const struct seg *s)
{
	unsigned driver = s->args.common.rt_prio;

	if (!driver && seg_lab_contexts_irq(s))
		driver = NODE_CTX_PRIO;
	if (!driver)
		return 0;
	return driver < RT_PRIO_MAX ? driver + 1 : RT_PRIO_MAX;
}

/* The thread ids of this process, into @tids (at most @max); the count. */
static unsigned seg_lab_tids(pid_t *tids, unsigned max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	unsigned n = 0;

	while (d && (de = readdir(d)) && n < max)
		if (de->d_name[0] != '.')
			tids[n++] = (pid_t)strtol(de->d_name, NULL, 10);
	if (d)
		closedir(d);
	return n;
}

/* Name an unnamed lab thread (it still has the process's name) "lab/<i>". */
static void seg_lab_name(pid_t tid, unsigned i)
{
	char path[64], comm[32], self[32];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)getpid());
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(self, sizeof(self), f))
		self[0] = '\0';
	fclose(f);
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	f = fopen(path, "r+");
	if (!f)
		return;
	if (fgets(comm, sizeof(comm), f) && !strcmp(comm, self)) {
		rewind(f);
		fprintf(f, "lab/%u", i);
	}
	fclose(f);
}

static bool seg_lab_has(const pid_t *tids, unsigned n, pid_t tid)
{
	for (unsigned i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

int seg_lab_medium_new(struct seg *s)
{
	pid_t before[SEG_LAB_THREADS * 4], after[SEG_LAB_THREADS * 4];
	unsigned prio = seg_lab_prio(s), nb, na, i;
	int err;

	if (prio && (err = rt_thread_set(0, prio))) {
		fprintf(stderr, "ethdrv segment: the lab stays at SCHED_OTHER: SCHED_FIFO %u: %s\n",
			prio, ethdrv_strerror(err));
		prio = 0;
	}
	nb = seg_lab_tids(before, ETHDRV_ARRAY_SIZE(before));
	err = s->kind->medium_new(s);
	na = seg_lab_tids(after, ETHDRV_ARRAY_SIZE(after));
	if (prio)
		rt_thread_set(0, 0); /* the nodes and the control loop are not the lab */
	s->lab.n = 0;
	for (i = 0; i < na && s->lab.n < SEG_LAB_THREADS; i++)
		if (!seg_lab_has(before, nb, after[i])) {
			seg_lab_name(after[i], s->lab.n);
			s->lab.tid[s->lab.n++] = after[i];
		}
	s->lab.prio = prio;
	ethdrv_counter_set(&s->lab.st.rt_prio, prio);
	ethdrv_counter_set(&s->lab.st.threads, s->lab.n);
	if (!err && s->set)
		err = ethdrv_stats_add_group(s->set, "lab", seg_lab_desc,
					     ETHDRV_ARRAY_SIZE(seg_lab_desc), &s->lab.st);
	return err;
}

static void seg_lab_on_guard(struct ethdrv_timer *t)
{
	struct seg *s = t->data;
	uint64_t now = ethdrv_now_ns();

	rt_guard_round_begin(&s->lab.guard);
	for (unsigned i = 0; i < s->lab.n; i++) {
		pid_t tid = s->lab.tid[i];
		int prio;

		if (!rt_guard_sample(&s->lab.guard, tid, node_thread_cpu_ns(tid), now))
			continue;
		prio = rt_thread_get(tid);
		if (prio <= 0 || rt_thread_set(tid, 0))
			continue;
		ethdrv_counter_inc(&s->lab.st.rt_demotions);
		fprintf(stderr,
			"ethdrv segment: lab thread %d was on a CPU for %u permille or more of "
			"%u ms at SCHED_FIFO %d: put back to SCHED_OTHER\n",
			(int)tid, RT_GUARD_SPIN_PERMILLE, RT_GUARD_PERIOD_MS, prio);
	}
	rt_guard_round_end(&s->lab.guard);
}

int seg_lab_guard_start(struct seg *s)
{
	if (!s->lab.prio || !s->lab.n)
		return 0;
	ethdrv_timer_init(s->loop, &s->lab.timer, seg_lab_on_guard);
	s->lab.timer.data = s;
	s->lab.timer_on = true;
	seg_lab_on_guard(&s->lab.timer);
	return ethdrv_timer_start(&s->lab.timer, RT_GUARD_PERIOD_MS * 1000000ull,
				  RT_GUARD_PERIOD_MS * 1000000ull);
}

void seg_lab_guard_stop(struct seg *s)
{
	if (s->lab.timer_on)
		ethdrv_timer_stop(&s->lab.timer);
	s->lab.timer_on = false;
}
