// SPDX-License-Identifier: MIT
/*
 * A node's execution contexts (docs/design.md §4.5-§4.7; knobs contexts,
 * cpus, irq_affinity). With contexts=loop (the default) everything runs in
 * the node's loop thread as before. With contexts=irq the node maps
 * Linux's contexts:
 *   - interrupt and softirq work (taking a poller's IRQ, running the poll
 *     list) runs in per-CPU softirq loops ("sirq/<ifname>/<i>"), at
 *     SCHED_FIFO rt_prio (or NODE_CTX_PRIO when --rt-prio is not given)
 *     when the host permits it, above the application;
 *   - a burst that outlasts MAX_SOFTIRQ_RESTART runs or MAX_SOFTIRQ_TIME
 *     goes to each loop's ksoftirqd thread at SCHED_OTHER; while it holds
 *     the list, an interrupt's exit runs a burst of it in the softirq loop
 *     (irq_exit_softirq=inline, Linux 6.5+, the default) or leaves it to
 *     ksoftirqd (defer, 4.9-6.4), docs/design.md §4.6;
 *   - the drivers' own interrupt lines (ethdrv_napi_line_start()) follow
 *     their poller into its softirq loop: the hard IRQ above the application;
 *   - threaded pollers (threaded=1) are created at SCHED_OTHER;
 *   - the node's own loop (TAP reads for transmit, the control socket,
 *     the driver's timers) stays at SCHED_OTHER, process context.
 * irq_affinity=NAME:CPU/... steers a poller and its IRQ line to loop CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/cpu_loops.h"
#include "ethdrv/err.h"
#include "ethdrv/log.h"
#include "ethdrv/napi.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

/* Move one poller to loop @arg (a struct ethdrv_loop *). */
static void node_ctx_move_one(struct ethdrv_napi *napi, void *arg)
{
	int err = ethdrv_napi_set_loop(napi, arg);

	if (err)
		ethdrv_warn(ethdrv_napi_dev(napi), "poller %s stays where it is: %s",
			    ethdrv_napi_name(napi), ethdrv_strerror(err));
}

/* Every poller back to the node's loop, the set stopped. */
static void node_ctx_stop(struct node *n)
{
	if (!n->ctx.set)
		return;
	if (n->dev)
		ethdrv_napi_for_each(n->dev, node_ctx_move_one, n->loop);
	ethdrv_cpu_loops_stop(n->ctx.set);
	n->ctx.set = NULL;
	n->ctx.prio = 0;
	ethdrv_counter_set(&n->metrics.ctx_prio, 0);
	ethdrv_counter_set(&n->metrics.ctx_loops, 0);
}

unsigned node_ctx_prio_wanted(const struct node *n)
{
	return n->rt_prio ? n->rt_prio : NODE_CTX_PRIO;
}

/* The context threads at @prio, SCHED_OTHER if the host does not permit it. */
void node_ctx_set_prio(struct node *n, unsigned prio)
{
	unsigned i, got = prio;

	if (!n->ctx.set)
		return;
	for (i = 0; i < ethdrv_cpu_loops_count(n->ctx.set); i++) {
		int err = rt_thread_set(ethdrv_cpu_loops_tid(n->ctx.set, i), got);

		if (err && got) {
			ethdrv_info(
				n->dev,
				"softirq contexts at SCHED_OTHER: SCHED_FIFO %u not permitted (%s)",
				got, ethdrv_strerror(err));
			got = 0;
			i = (unsigned)-1; /* all of them back to SCHED_OTHER */
		}
	}
	n->ctx.prio = got;
	ethdrv_counter_set(&n->metrics.ctx_prio, got);
}

static int node_ctx_start(struct node *n, unsigned cpus)
{
	struct ethdrv_cpu_loops_config cc = { .n = cpus, .pin = cpus > 1 };
	char name[16];
	int err;

	/* The kernel keeps 15 characters of a thread name: "sirq/<if>/<cpu>". */
	snprintf(cc.softirq.name, sizeof(cc.softirq.name), "ksirqd/%.8s", n->cfg.ifname);
	snprintf(name, sizeof(name), "sirq/%.6s", n->cfg.ifname);
	cc.name = name;
	cc.softirq.restart_max = ETHDRV_SOFTIRQ_RESTART;
	cc.softirq.time_usecs = ETHDRV_SOFTIRQ_USECS;
	cc.softirq.task_threads = true;
	cc.softirq.irq_exit_inline = !n->ctx.irq_exit_defer;
	unsigned packets, usecs, i;

	err = ethdrv_cpu_loops_start(&cc, &n->ctx.set);
	if (err)
		return err;
	/* netdev_budget(_usecs) as the node's loop has them (netdev.c keeps them alike). */
	ethdrv_loop_get_budget(n->loop, &packets, &usecs);
	for (i = 0; i < cpus; i++)
		ethdrv_loop_set_budget(ethdrv_cpu_loops_get(n->ctx.set, i), packets, usecs);
	/* Poller threads made from now on are tasks (napi_thread.c). */
	ethdrv_loop_set_softirq(n->loop, &(struct ethdrv_softirq_config){ .task_threads = true });
	node_ctx_set_prio(n, node_ctx_prio_wanted(n));
	ethdrv_counter_set(&n->metrics.ctx_loops, cpus);
	ethdrv_napi_for_each(n->dev, node_ctx_move_one, ethdrv_cpu_loops_get(n->ctx.set, 0));
	return 0;
}

/* The knobs, in this order (K_*: the ENUM entries the setters parse with). */
enum { K_CONTEXTS, K_CPUS, K_AFFINITY, K_IRQ_EXIT, K_COUNT };
static const struct ethdrv_knob node_ctx_knobs[] = {
	ETHDRV_KNOB_ENUM(
		"contexts", "loop|irq",
		"loop: all in the node's thread; irq: softirq loops above the application"),
	ETHDRV_KNOB_UINT("cpus", 1, 8, "loops", "softirq loops, one per CPU (contexts=irq)"),
	ETHDRV_KNOB_TEXT("irq_affinity", "NAME:CPU[/NAME:CPU...]", "",
			 "the CPU of each poller's IRQ line, e.g. rx:0/tx:1 (contexts=irq)"),
	ETHDRV_KNOB_ENUM("irq_exit_softirq", "inline|defer",
			 "while ksoftirqd holds the softirqs, an interrupt's exit runs them "
			 "(inline, Linux 6.5+, default) or leaves them to it (defer, 4.9-6.4)"),
};

/* contexts=loop|irq */
static int node_ctx_set_mode(struct node *n, const char *value, const char **why)
{
	int v = ethdrv_knob_enum(&node_ctx_knobs[K_CONTEXTS], value), err;
	bool irq = v == 1;

	if (v < 0) {
		*why = "give loop (all work in the node's thread) or irq (Linux's contexts)";
		return -EINVAL;
	}
	if (irq == n->ctx.irq)
		return 0;
	if (irq && node_rt_busy_polling(n)) {
		*why = "busy_poll > 0 polls on the node's loop: set busy_poll=0 first";
		return -EBUSY;
	}
	if (!irq) {
		node_ctx_stop(n);
		ethdrv_loop_set_softirq(n->loop, &(struct ethdrv_softirq_config){ 0 });
		n->ctx.irq = false;
		/* The node's loop takes the interrupts again, at rt_prio if given. */
		return node_rt_set(n, n->rt_prio, why);
	}
	err = node_ctx_start(n, n->ctx.cpus ? n->ctx.cpus : 1);
	if (err)
		return err;
	n->ctx.irq = true;
	/* Process context: the node's loop and its pollers at SCHED_OTHER. */
	return node_rt_set(n, n->rt_prio, why);
}

/* cpus=N: the softirq loops of contexts=irq (restarted if running). */
static int node_ctx_set_cpus(struct node *n, const char *value, const char **why)
{
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	if (value[0] < '1' || value[0] > '9' || *end || v > ETHDRV_CPU_LOOPS_MAX) {
		*why = "give 1..8, the softirq loops (CPUs) of contexts=irq";
		return -EINVAL;
	}
	n->ctx.cpus = (unsigned)v;
	n->ctx.affinity[0] = '\0';
	if (!n->ctx.irq)
		return 0;
	node_ctx_stop(n);
	return node_ctx_start(n, n->ctx.cpus);
}

/* Set irq_exit_inline on one softirq loop, in its thread (ethdrv_loop_set_softirq()). */
struct node_ctx_irq_exit {
	struct ethdrv_loop *loop; /* the softirq loop */
	bool inline_; /* the rule to set */
};

static void node_ctx_irq_exit_one(void *arg)
{
	struct node_ctx_irq_exit *a = arg;
	struct ethdrv_softirq_config cfg;

	ethdrv_loop_get_softirq(a->loop, &cfg);
	cfg.irq_exit_inline = a->inline_;
	ethdrv_loop_set_softirq(a->loop, &cfg);
}

/* irq_exit_softirq=inline|defer: the softirq loops now, and those started later. */
static int node_ctx_set_irq_exit(struct node *n, const char *value, const char **why)
{
	int v = ethdrv_knob_enum(&node_ctx_knobs[K_IRQ_EXIT], value);
	bool defer = v == 1;
	unsigned i;

	if (v < 0) {
		*why = "give inline (an interrupt's exit runs the softirqs ksoftirqd holds: Linux "
		       "6.5+) or defer (they stay with ksoftirqd: Linux 4.9-6.4)";
		return -EINVAL;
	}
	n->ctx.irq_exit_defer = defer;
	for (i = 0; n->ctx.set && i < ethdrv_cpu_loops_count(n->ctx.set); i++) {
		struct node_ctx_irq_exit a = { ethdrv_cpu_loops_get(n->ctx.set, i), !defer };

		ethdrv_loop_call(a.loop, node_ctx_irq_exit_one, &a);
	}
	return 0;
}

/* irq_affinity=NAME:CPU[/NAME:CPU...] */
static int node_ctx_set_affinity(struct node *n, const char *value, const char **why)
{
	char buf[sizeof(n->ctx.affinity)], *save = NULL, *tok;
	int err;

	if (!n->ctx.irq) {
		*why = "give NAME:CPU[/NAME:CPU...] (e.g. rx:0/tx:1) once contexts=irq is set: "
		       "irq_affinity steers its softirq loops";
		return -EBUSY;
	}
	if (strlen(value) >= sizeof(buf)) {
		*why = "too long";
		return -EINVAL;
	}
	/* Check all of it first: a bad entry changes nothing. */
	strcpy(buf, value);
	for (tok = strtok_r(buf, ",/", &save); tok; tok = strtok_r(NULL, ",/", &save)) {
		char *colon = strchr(tok, ':'), *end;
		unsigned long cpu;

		*why = "give NAME:CPU[/NAME:CPU...] with a poller of the device (rx, tx) and CPU "
		       "0..cpus-1, e.g. rx:0/tx:1";
		if (!colon)
			return -EINVAL;
		*colon = '\0';
		cpu = strtoul(colon + 1, &end, 10);
		if (!colon[1] || *end || cpu >= ethdrv_cpu_loops_count(n->ctx.set) ||
		    !ethdrv_napi_find(n->dev, tok))
			return -EINVAL;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, ",/", &save); tok; tok = strtok_r(NULL, ",/", &save)) {
		char *colon = strchr(tok, ':');

		*colon = '\0';
		err = ethdrv_napi_set_loop(
			ethdrv_napi_find(n->dev, tok),
			ethdrv_cpu_loops_get(n->ctx.set, (unsigned)strtoul(colon + 1, NULL, 10)));
		if (err) {
			*why = "the poller busy-polls (busy_poll > 0)";
			return err;
		}
	}
	strcpy(n->ctx.affinity, value);
	*why = NULL;
	return 0;
}

_Static_assert(ETHDRV_ARRAY_SIZE(node_ctx_knobs) == K_COUNT, "one K_* per knob");
const struct ethdrv_knob_table node_ctx_knob_table = ETHDRV_KNOB_TABLE("node", node_ctx_knobs);

int node_ctx_set_knob(struct node *n, const char *key, const char *value, const char **why)
{
	if (!strcmp(key, "contexts"))
		return node_ctx_set_mode(n, value, why);
	if (!strcmp(key, "cpus"))
		return node_ctx_set_cpus(n, value, why);
	if (!strcmp(key, "irq_affinity"))
		return node_ctx_set_affinity(n, value, why);
	if (!strcmp(key, "irq_exit_softirq"))
		return node_ctx_set_irq_exit(n, value, why);
	return -ENOENT;
}

/* Append "NAME:CPU," for one poller (@arg: struct { node, buf, size }). */
struct node_ctx_fmt {
	struct node *n;
	char *buf;
	size_t size;
	size_t len;
};

static void node_ctx_fmt_one(struct ethdrv_napi *napi, void *arg)
{
	struct node_ctx_fmt *f = arg;
	struct ethdrv_loop *l = ethdrv_napi_get_loop(napi);
	unsigned i, cpu = 0;

	for (i = 0; i < ethdrv_cpu_loops_count(f->n->ctx.set); i++)
		if (ethdrv_cpu_loops_get(f->n->ctx.set, i) == l)
			cpu = i;
	if (f->len < f->size)
		f->len += (size_t)snprintf(f->buf + f->len, f->size - f->len, "%s%s:%u",
					   f->len ? "/" : "", ethdrv_napi_name(napi), cpu);
}

int node_ctx_get_knob(struct node *n, const char *key, char *buf, size_t size)
{
	int len;

	if (!strcmp(key, "contexts"))
		len = snprintf(buf, size, "%s", n->ctx.irq ? "irq" : "loop");
	else if (!strcmp(key, "cpus"))
		len = snprintf(buf, size, "%u", n->ctx.cpus ? n->ctx.cpus : 1);
	else if (!strcmp(key, "irq_exit_softirq"))
		len = snprintf(buf, size, "%s", n->ctx.irq_exit_defer ? "defer" : "inline");
	else if (!strcmp(key, "irq_affinity")) {
		struct node_ctx_fmt f = { .n = n, .buf = buf, .size = size };

		if (!n->ctx.irq)
			len = snprintf(buf, size, "none");
		else {
			buf[0] = '\0';
			ethdrv_napi_for_each(n->dev, node_ctx_fmt_one, &f);
			len = (int)f.len;
		}
	} else
		return -ENOENT;
	return len >= 0 && (size_t)len < size ? 0 : -ENOSPC;
}

bool node_ctx_is_key(const char *key)
{
	return ethdrv_knob_find(&node_ctx_knob_table, key) != NULL;
}

void node_ctx_free(struct node *n)
{
	node_ctx_stop(n);
}

void node_ctx_for_each_thread(struct node *n, void (*fn)(struct node *n, pid_t tid, void *arg),
			      void *arg)
{
	unsigned i;

	if (!n->ctx.set)
		return;
	for (i = 0; i < ethdrv_cpu_loops_count(n->ctx.set); i++)
		fn(n, ethdrv_cpu_loops_tid(n->ctx.set, i), arg);
}

void node_ctx_loop_stats(struct node *n, struct ethdrv_loop_stats *sum)
{
	struct ethdrv_loop_stats ls;
	unsigned i;

	ethdrv_loop_get_stats(n->loop, sum);
	if (!n->ctx.set)
		return;
	for (i = 0; i < ethdrv_cpu_loops_count(n->ctx.set); i++) {
		ethdrv_loop_get_stats(ethdrv_cpu_loops_get(n->ctx.set, i), &ls);
		sum->processed += ls.processed;
		sum->time_squeeze += ls.time_squeeze;
		sum->softirq_runs += ls.softirq_runs;
		sum->budget_exhausted += ls.budget_exhausted;
		sum->time_exhausted += ls.time_exhausted;
		sum->ksoftirqd_handoffs += ls.ksoftirqd_handoffs;
		sum->ksoftirqd_runs += ls.ksoftirqd_runs;
		sum->irq_exit_runs += ls.irq_exit_runs;
	}
}

int node_ctx_ksoftirqd_tid(struct node *n, unsigned i)
{
	return n->ctx.set && i < ethdrv_cpu_loops_count(n->ctx.set) ?
		       ethdrv_loop_ksoftirqd_tid(ethdrv_cpu_loops_get(n->ctx.set, i)) :
		       0;
}
