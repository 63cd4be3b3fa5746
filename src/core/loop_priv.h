/* SPDX-License-Identifier: MIT */
/*
 * What the event loop offers the rest of the core beyond loop.h: its
 * "softirq" stage and a few loop-thread facts. The loop is the bottom layer
 * of the core: it includes no NAPI or device header and knows nothing of
 * what runs in the stage.
 *
 * The stage mirrors Linux's NET_RX softirq: the softirq core runs a handler
 * that net/core/dev.c registered with open_softirq(), and net_rx_action()
 * works on the per-CPU softnet_data that dev.c owns. Here a loop is the CPU:
 * napi.c attaches its per-loop poll lists (struct ethdrv__softnet) to a loop
 * the first time a poller is added on it, and the loop calls the stage once
 * per iteration, after fd callbacks and timers, and asks it before each
 * blocking wait whether work is queued. NAPI depends on the loop; the loop
 * does not depend on NAPI.
 */
#ifndef ETHDRV_CORE_LOOP_PRIV_H
#define ETHDRV_CORE_LOOP_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/loop.h"

struct ethdrv__loop_softirq;

/* What the loop calls in its deferred-work stage. */
struct ethdrv__loop_softirq_ops {
	/** Work is queued, or a cross-thread request is pending: do not block. */
	bool (*pending)(struct ethdrv__loop_softirq *s);
	/** Run the queued work (loop thread); returns the packets processed. */
	int (*run)(struct ethdrv_loop *loop, struct ethdrv__loop_softirq *s);
	/** Free the stage; called by ethdrv_loop_free(). */
	void (*destroy)(struct ethdrv__loop_softirq *s);
};

/* The deferred-work stage of a loop (one per loop, like NET_RX_SOFTIRQ),
 * embedded in its owner's state (container_of gets back to it). */
struct ethdrv__loop_softirq {
	const struct ethdrv__loop_softirq_ops *ops; /* set before attaching */
};

/**
 * ethdrv__loop_softirq_attach() - give @loop its deferred-work stage
 * @loop: the loop
 * @s: the stage; owned by the loop from now on (freed by @s->ops->destroy)
 *
 * Return: 0, or -EBUSY if a stage is attached already (another thread won a
 * race to attach: use ethdrv__loop_softirq_get() and free @s yourself).
 * Context: any thread.
 */
int ethdrv__loop_softirq_attach(struct ethdrv_loop *loop, struct ethdrv__loop_softirq *s);

/** ethdrv__loop_softirq_get() - the attached stage, or NULL. */
struct ethdrv__loop_softirq *ethdrv__loop_softirq_get(const struct ethdrv_loop *loop);

/**
 * ethdrv__loop_is_owner() - true if the caller may touch loop-thread-only
 * state of @loop: it is the loop thread, or no thread runs the loop (setup
 * before the first run, teardown after ethdrv_loop_run() returned).
 * @loop: the loop
 */
bool ethdrv__loop_is_owner(const struct ethdrv_loop *loop);

/**
 * ethdrv__loop_count_processed() - account work of the stage in the loop's
 * counters (ethdrv_loop_stats: processed, time_squeeze)
 * @loop: the loop
 * @packets: packets processed
 * @squeezed: true if a run stopped on the packet or time budget
 * Context: the loop thread.
 */
void ethdrv__loop_count_processed(struct ethdrv_loop *loop, uint64_t packets, bool squeezed);

/* Why a run of the poll list stopped with work left (or did not). */
enum ethdrv__softirq_stop {
	ETHDRV__SOFTIRQ_EMPTY, /* the list ran out */
	ETHDRV__SOFTIRQ_BUDGET, /* netdev_budget spent */
	ETHDRV__SOFTIRQ_TIME, /* netdev_budget_usecs spent */
};

/* One run of the poll list that polled something (softirq_runs and the rest). */
void ethdrv__loop_count_softirq(struct ethdrv_loop *loop, enum ethdrv__softirq_stop why,
				bool in_ksoftirqd);

/* A burst went to ksoftirqd. */
void ethdrv__loop_count_handoff(struct ethdrv_loop *loop);

/* One run of the list ksoftirqd holds, at an interrupt's exit (irq_exit_inline). */
void ethdrv__loop_count_irq_exit_run(struct ethdrv_loop *loop);

/*
 * True while the stage runs after an iteration that ran a watcher's
 * callback or a timer: the exit of an interrupt, where Linux runs pending
 * softirqs (docs/design.md §4.6). Context: the loop thread, in the stage.
 */
bool ethdrv__loop_irq_exit(const struct ethdrv_loop *loop);

/* The stage started its ksoftirqd thread (ethdrv_loop_ksoftirqd_tid()). */
void ethdrv__loop_set_ksoftirqd_tid(struct ethdrv_loop *loop, int tid);

/*
 * The hand-off rule (docs/design.md §4.6), apart from threads so a unit
 * test can drive it: a burst is the consecutive runs of the poll list that
 * ended with work left. ethdrv__softirq_burst_end() says whether the burst
 * has used up its runs or its time and must go to ksoftirqd.
 */
struct ethdrv__softirq_burst {
	uint64_t start_ns; /* when the burst's first run began */
	unsigned runs; /* runs in the burst so far */
};

/* A run begins at @now_ns. */
void ethdrv__softirq_burst_begin(struct ethdrv__softirq_burst *b, uint64_t now_ns);

/* The run ended at @now_ns with work @left; true: hand the rest to ksoftirqd. */
bool ethdrv__softirq_burst_end(struct ethdrv__softirq_burst *b, bool left, uint64_t now_ns,
			       const struct ethdrv_softirq_config *cfg);

#endif /* ETHDRV_CORE_LOOP_PRIV_H */
