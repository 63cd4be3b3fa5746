// SPDX-License-Identifier: MIT
/*
 * A node's counters for stats dumps (node_priv.h): the TAP-side frame
 * counters, the model's counters (through the node's backend), what the node's threads cost (CPU
 * time of the loop thread and the poller threads, and the part spent inside
 * the model's SPI transfers) and the control socket's counters, refreshed
 * on each dump.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/cpu_loops.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

#define NODE_TAP_STAT(field) ETHDRV_STAT_DESC(struct node_tap_stats, field)
#define NODE_METRIC(field) ETHDRV_STAT_DESC(struct node_metrics, field)

static const struct ethdrv_stat_desc node_tap_stats_desc[] = {
	NODE_TAP_STAT(tap_rx_frames),  NODE_TAP_STAT(tap_rx_errors), NODE_TAP_STAT(tap_tx_frames),
	NODE_TAP_STAT(tap_tx_dropped), NODE_TAP_STAT(tap_rx_tso),    NODE_TAP_STAT(tap_rx_bad),
	NODE_TAP_STAT(tap_tx_writes),  NODE_TAP_STAT(tap_tx_gro),
};

static const struct ethdrv_stat_desc node_metrics_desc[] = {
	NODE_METRIC(loop_cpu_ns),
	NODE_METRIC(poller_cpu_ns),
	NODE_METRIC(poller_threads),
	NODE_METRIC(model_cpu_ns),
	NODE_METRIC(loop_iterations),
	NODE_METRIC(loop_sleeps),
	NODE_METRIC(loop_wakeups),
	NODE_METRIC(loop_wakes_sent),
	NODE_METRIC(rt_prio),
	NODE_METRIC(rt_demotions),
	NODE_METRIC(loop_softirq_runs),
	NODE_METRIC(loop_budget_exhausted),
	NODE_METRIC(loop_time_exhausted),
	NODE_METRIC(loop_ksoftirqd_handoffs),
	NODE_METRIC(loop_ksoftirqd_runs),
	NODE_METRIC(loop_irq_exit_runs),
	NODE_METRIC(ctx_loops),
	NODE_METRIC(ctx_prio),
	NODE_METRIC(ctx_cpu_ns),
	NODE_METRIC(ksoftirqd_cpu_ns),
	NODE_METRIC(uring_worker_cpu_ns),
	NODE_METRIC(uring_workers),
};

#define TAP_BATCH_STAT(field) ETHDRV_STAT_DESC(struct tap_batch_stats, field)

static const struct ethdrv_stat_desc tap_batch_stats_desc[] = {
	TAP_BATCH_STAT(tap_tx_submits),	     TAP_BATCH_STAT(tap_tx_uring_writes),
	TAP_BATCH_STAT(tap_tx_plain_writes), TAP_BATCH_STAT(tap_tx_async),
	TAP_BATCH_STAT(tap_tx_relinked),     TAP_BATCH_STAT(tap_tx_batch_max),
};

/* Model transfers, timed in CPU time of the calling thread. */
static int node_timed_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct node *n = ctx;
	uint64_t t0 = ethdrv_thread_cpu_ns();
	int ret = ethdrv_spi_transfer(&n->model_bus, tx, rx, len);

	ethdrv_counter_add(&n->metrics.model_cpu_ns, ethdrv_thread_cpu_ns() - t0);
	return ret;
}

/* The model's RESET_N: it resets when the line is released (lan865x_emu_hw_reset()). */
static int node_model_set_reset(void *ctx, bool asserted)
{
	struct node *n = ctx;

	if (!asserted)
		lan865x_emu_hw_reset(n->emu);
	return 0;
}

static const struct ethdrv_spi_ops node_timed_ops = {
	.transfer = node_timed_transfer,
	.set_reset = node_model_set_reset,
};

/* CPU time of clock @cid in ns, 0 if it cannot be read. */
static uint64_t node_clock_ns(clockid_t cid)
{
	struct timespec ts;

	if (clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The CPU-time clock of thread @tid of this process (the kernel's encoding:
 * ~tid << 3 | per-thread | sched, as pthread_getcpuclockid() builds it). */
static clockid_t node_tid_clock(unsigned long tid)
{
	return (clockid_t)((~(unsigned)tid << 3) | 6u);
}

uint64_t node_thread_cpu_ns(pid_t tid)
{
	return node_clock_ns(node_tid_clock((unsigned long)tid));
}

static void node_poller_cpu(struct node *n, pid_t tid, void *arg);

/* Call @fn for each thread of this process whose name starts with @prefix. */
static void node_for_each_thread(struct node *n, char *prefix,
				 void (*fn)(struct node *n, pid_t tid, void *arg), void *arg)
{
	char path[300], comm[32];
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	FILE *f;

	prefix[15] = '\0'; /* the kernel keeps 15 characters of a thread name */
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, prefix, strlen(prefix)))
			fn(n, (pid_t)strtol(de->d_name, NULL, 10), arg);
		fclose(f);
	}
	if (d)
		closedir(d);
}

void node_for_each_poller(struct node *n, void (*fn)(struct node *n, pid_t tid, void *arg),
			  void *arg)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "napi/%s-", n->cfg.ifname);
	node_for_each_thread(n, prefix, fn, arg);
}

/* The io_uring workers (io-wq, "iou-wrk-<tid>") of thread @tid: sum[0] CPU ns, sum[1] count. */
static void node_uring_workers(struct node *n, pid_t tid, uint64_t *sum)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "iou-wrk-%d\n", (int)tid); /* the whole name */
	node_for_each_thread(n, prefix, node_poller_cpu, sum);
}

/* The io_uring workers of thread @tid (poller: the TAP writes of a threaded RX poll;
 * softirq loop or its ksoftirqd with contexts=irq: those of the polls it runs). */
static void node_thread_workers(struct node *n, pid_t tid, void *arg)
{
	node_uring_workers(n, tid, arg);
}

/* The io_uring workers of every thread of the node that submits TAP writes:
 * the loop, the pollers, the softirq loops and every ksoftirqd thread. */
static void node_metrics_uring_workers(struct node *n, uint64_t *workers)
{
	unsigned i;
	int tid;

	node_uring_workers(n, n->loop_tid, workers);
	node_for_each_poller(n, node_thread_workers, workers);
	node_ctx_for_each_thread(n, node_thread_workers, workers);
	for (i = 0; i < ETHDRV_CPU_LOOPS_MAX; i++)
		if ((tid = node_ctx_ksoftirqd_tid(n, i)))
			node_uring_workers(n, tid, workers);
	tid = ethdrv_loop_ksoftirqd_tid(n->loop);
	if (tid)
		node_uring_workers(n, tid, workers);
}

/* Add one poller thread's CPU time to sum[0] and count it in sum[1]. */
static void node_poller_cpu(struct node *n, pid_t tid, void *arg)
{
	uint64_t *sum = arg;

	sum[0] += node_thread_cpu_ns(tid);
	sum[1]++;
}

/* CPU time of the softirq loop threads and of their ksoftirqd threads. */
static void node_metrics_ctx_cpu(struct node *n)
{
	uint64_t ctx[2] = { 0, 0 }, ksoft = 0;
	unsigned i;
	int tid;

	node_ctx_for_each_thread(n, node_poller_cpu, ctx);
	for (i = 0; i < ETHDRV_CPU_LOOPS_MAX; i++)
		if ((tid = node_ctx_ksoftirqd_tid(n, i)))
			ksoft += node_thread_cpu_ns(tid);
	tid = ethdrv_loop_ksoftirqd_tid(n->loop);
	if (tid)
		ksoft += node_thread_cpu_ns(tid);
	ethdrv_counter_set(&n->metrics.ctx_cpu_ns, ctx[0]);
	ethdrv_counter_set(&n->metrics.ksoftirqd_cpu_ns, ksoft);
}

/* Refresh n->metrics (and the model's counters) for a stats dump. */
void node_metrics_update(struct node *n)
{
	struct node_metrics *m = &n->metrics;
	struct ethdrv_loop_stats ls;
	uint64_t pollers[2] = { 0, 0 }; /* CPU ns, threads */
	uint64_t workers[2] = { 0, 0 };
	clockid_t cid;

	n->backend->stats_update(n);
	if (!pthread_getcpuclockid(n->thread, &cid))
		ethdrv_counter_set(&m->loop_cpu_ns, node_clock_ns(cid));
	node_for_each_poller(n, node_poller_cpu, pollers);
	ethdrv_counter_set(&m->poller_cpu_ns, pollers[0]);
	ethdrv_counter_set(&m->poller_threads, pollers[1]);
	node_ctx_loop_stats(n, &ls);
	ethdrv_counter_set(&m->loop_softirq_runs, ls.softirq_runs);
	ethdrv_counter_set(&m->loop_budget_exhausted, ls.budget_exhausted);
	ethdrv_counter_set(&m->loop_time_exhausted, ls.time_exhausted);
	ethdrv_counter_set(&m->loop_ksoftirqd_handoffs, ls.ksoftirqd_handoffs);
	ethdrv_counter_set(&m->loop_ksoftirqd_runs, ls.ksoftirqd_runs);
	ethdrv_counter_set(&m->loop_irq_exit_runs, ls.irq_exit_runs);
	node_metrics_ctx_cpu(n);
	node_metrics_uring_workers(n, workers);
	ethdrv_counter_set(&m->uring_worker_cpu_ns, workers[0]);
	ethdrv_counter_set(&m->uring_workers, workers[1]);
	ethdrv_loop_get_stats(n->loop, &ls);
	ethdrv_counter_set(&m->loop_iterations, ls.iterations);
	ethdrv_counter_set(&m->loop_sleeps, ls.sleeps);
	ethdrv_counter_set(&m->loop_wakeups, ls.wakeups);
	ethdrv_counter_set(&m->loop_wakes_sent, ls.wakes_sent);
	ctl_server_get_stats(n->ctl, &n->ctl_stats);
}

void node_metrics_time_model_bus(struct node *n)
{
	n->bus = n->model_bus;
	n->bus.ops = &node_timed_ops;
	n->bus.ctx = n;
}

void node_metrics_register(struct node *n)
{
	struct ethdrv_stats_set *set = ethdrv_netdev_stats(n->dev);

	n->backend->stats_register(n, set);
	if (ethdrv_stats_add_group(set, "node", node_tap_stats_desc,
				   ETHDRV_ARRAY_SIZE(node_tap_stats_desc), &n->tap_stats))
		ethdrv_warn(n->dev, "node counters not added to the stats");
	if (ethdrv_stats_add_group(set, "node", node_metrics_desc,
				   ETHDRV_ARRAY_SIZE(node_metrics_desc), &n->metrics))
		ethdrv_warn(n->dev, "node metrics not added to the stats");
	node_fq_register(n, set);
	if (ethdrv_stats_add_group(set, "node", tap_batch_stats_desc,
				   ETHDRV_ARRAY_SIZE(tap_batch_stats_desc), &n->txb.st))
		ethdrv_warn(n->dev, "TAP batch counters not added to the stats");
	if (ethdrv_stats_add_group(set, "ctl", ctl_server_stats_desc, ctl_server_stats_desc_count,
				   &n->ctl_stats))
		ethdrv_warn(n->dev, "control socket counters not added to the stats");
}
