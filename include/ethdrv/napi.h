/* SPDX-License-Identifier: MIT */
/*
 * NAPI-style pollers. The contract (docs/napi.md §1, docs/style.md S7):
 *
 * - An IRQ source is a level-triggered readable fd (an eventfd the hardware
 *   model drives, a GPIO line). When it fires, the core masks it (parks the
 *   watcher) and schedules the poller; no bus I/O happens there.
 * - poll(napi, budget) does at most @budget RX packets and any amount of TX
 *   completion, and returns the work done. Returning @budget means "poll me
 *   again": the core keeps ownership and repolls without a new IRQ.
 * - With work < budget the poller calls ethdrv_napi_complete_done(). Only if
 *   that returns true may it unmask its IRQ (ethdrv_napi_irq_unmask()); a
 *   false return means the core has promised another poll (MISSED, a defer
 *   timer or a busy-poller), and the IRQ stays masked. Idiom:
 *
 *	if (work < budget && ethdrv_napi_complete_done(napi, work))
 *		ethdrv_napi_irq_unmask(napi);
 *	return work;
 *
 * - @budget 0 means TX completion only; the poller must not complete.
 * - A schedule that arrives while the poller runs sets MISSED and is never
 *   lost: complete_done reschedules and returns false.
 *
 * Software IRQ coalescing (docs/napi.md §2.1-2.2), per poller:
 * napi_defer_hard_irqs = D and gro_flush_timeout = T ns. After a poll that
 * did work, complete_done keeps the IRQ masked and arms a T ns timer that
 * re-polls; each empty timer poll counts down, and after D empty polls the
 * IRQ is re-armed. D = 0 or T = 0 gives plain NAPI.
 *
 * Modes, switchable at run time without losing a packet:
 * - softirq (default): polls run in the loop thread's poll list, sharing
 *   the loop budget (netdev_budget, netdev_budget_usecs).
 * - threaded: each poller runs in its own thread, woken by the schedule.
 * - busy_poll = U us: the loop thread polls the poller directly with
 *   busy_poll_budget while traffic flows, keeping the IRQ masked; after U us
 *   without work it gives the poller back (one last poll that may re-arm
 *   the IRQ) and sleeps. Like SO_PREFER_BUSY_POLL (docs/napi.md §2.3).
 *
 * Several pollers per device: typically "rx" (weight 64) and "tx" (the
 * TX-completion poller, added with ethdrv_napi_add_tx(): weight 2, never
 * busy-polled), each with its own IRQ, as gianfar split them (docs/napi.md §4.1).
 */
#ifndef ETHDRV_NAPI_H
#define ETHDRV_NAPI_H

#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"
#include "loop.h"
#include "stats.h"

struct ethdrv_netdev;
struct ethdrv_napi;
struct ethdrv_loop;

/* Default poller weight (NAPI_POLL_WEIGHT). */
#define ETHDRV_NAPI_WEIGHT 64
/* Weight of a TX-completion poller (gianfar's TX NAPI). */
#define ETHDRV_NAPI_TX_WEIGHT 2
/* Default busy-poll budget (BUSY_POLL_BUDGET). */
#define ETHDRV_BUSY_POLL_BUDGET 8

/**
 * typedef ethdrv_napi_poll_fn - a driver's poll method
 * @napi: the poller; ethdrv_napi_ctx() gives the driver's context
 * @budget: RX packets allowed, 0 = TX completion only
 *
 * Return: work done, 0..@budget.
 */
typedef int (*ethdrv_napi_poll_fn)(struct ethdrv_napi *napi, int budget);

/**
 * ethdrv_napi_add() - register an RX (or general) poller on @dev
 * @dev: the device; the poller runs on the device's loop
 * @name: short name for stats and threads ("rx"); copied
 * @poll: the poll method
 * @weight: per-poll budget, 1..64 (ETHDRV_NAPI_WEIGHT)
 * @ctx: returned by ethdrv_napi_ctx()
 * @out: receives the poller, disabled
 *
 * The device's current knobs (defer, flush timeout, threaded, busy_poll)
 * apply to the new poller. Its counters are registered in the device's
 * stats set as "napi_<name>_*", with an "napi_<name>_irq_to_poll_ns"
 * histogram.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 * Context: setup, the loop thread.
 */
ETHDRV_EXPORT int ethdrv_napi_add(struct ethdrv_netdev *dev, const char *name,
				  ethdrv_napi_poll_fn poll, int weight, void *ctx,
				  struct ethdrv_napi **out);

/**
 * ethdrv_napi_add_tx() - register a TX-completion poller
 *
 * As ethdrv_napi_add() with weight ETHDRV_NAPI_TX_WEIGHT; the poller is
 * never busy-polled (netif_napi_add_tx).
 */
ETHDRV_EXPORT int ethdrv_napi_add_tx(struct ethdrv_netdev *dev, const char *name,
				     ethdrv_napi_poll_fn poll, void *ctx, struct ethdrv_napi **out);

/**
 * ethdrv_napi_del() - unregister a disabled poller
 * @napi: the poller, or NULL
 *
 * Stops its thread, IRQ watcher and timer. Its counters stay registered
 * (frozen) in the device's stats set, which has no way to drop them, so the
 * memory is released with the device (ethdrv_netdev_cleanup()); adding a
 * poller of the same name again reuses it and its counters.
 */
ETHDRV_EXPORT void ethdrv_napi_del(struct ethdrv_napi *napi);

/** ethdrv_napi_ctx() - the @ctx given at registration. */
ETHDRV_EXPORT void *ethdrv_napi_ctx(const struct ethdrv_napi *napi);

/** ethdrv_napi_dev() - the device the poller belongs to. */
ETHDRV_EXPORT struct ethdrv_netdev *ethdrv_napi_dev(const struct ethdrv_napi *napi);

/**
 * ethdrv_napi_enable() - allow scheduling (pollers start disabled)
 * @napi: a disabled poller
 */
ETHDRV_EXPORT void ethdrv_napi_enable(struct ethdrv_napi *napi);

/**
 * ethdrv_napi_disable() - forbid scheduling and wait until no poll runs
 * @napi: an enabled poller
 *
 * On return the caller owns the poller: no poll is running or pending and
 * the defer timer is stopped. Not idempotent, like the kernel's.
 * Context: the loop thread; may sleep while a poller thread finishes.
 */
ETHDRV_EXPORT void ethdrv_napi_disable(struct ethdrv_napi *napi);

/**
 * ethdrv_napi_schedule_prep() - claim the poller for a schedule
 * @napi: the poller
 *
 * Return: true if the caller now owns it and must call
 * ethdrv__napi_schedule(); false if it was already scheduled (MISSED is set
 * so the running poll repeats) or is disabled.
 * Context: any thread.
 */
ETHDRV_EXPORT bool ethdrv_napi_schedule_prep(struct ethdrv_napi *napi);

/** ethdrv__napi_schedule() - queue an owned poller (after schedule_prep). */
ETHDRV_EXPORT void ethdrv__napi_schedule(struct ethdrv_napi *napi);

/**
 * ethdrv_napi_schedule() - schedule a poll
 * @napi: the poller
 *
 * Return: true if this call scheduled it.
 * Context: any thread; wakes the loop or poller thread when needed.
 */
ETHDRV_EXPORT bool ethdrv_napi_schedule(struct ethdrv_napi *napi);

/**
 * ethdrv_napi_complete_done() - end a poll that did @work_done < budget
 * @napi: the poller
 * @work_done: RX work of this poll
 *
 * Return: true if the poller released ownership and may unmask its IRQ;
 * false if another poll is promised (MISSED, defer timer, busy-poller).
 * Context: the poll method; do not touch the poller after a true return
 * except for ethdrv_napi_irq_unmask().
 */
ETHDRV_EXPORT bool ethdrv_napi_complete_done(struct ethdrv_napi *napi, int work_done);

/**
 * ethdrv_napi_attach_irq() - make @fd the poller's IRQ source
 * @napi: the poller
 * @fd: a level-triggered fd, readable while the IRQ is asserted; the core
 *      never reads it
 *
 * The IRQ starts masked; the driver unmasks it when it is ready.
 *
 * Return: 0 or the -errno of epoll_ctl.
 * Context: setup, the loop thread.
 */
ETHDRV_EXPORT int ethdrv_napi_attach_irq(struct ethdrv_napi *napi, int fd);

/**
 * ethdrv_napi_detach_irq() - stop watching the IRQ fd
 * @napi: the poller
 */
ETHDRV_EXPORT void ethdrv_napi_detach_irq(struct ethdrv_napi *napi);

/**
 * ethdrv_napi_line_start() - watch a driver-owned interrupt line in interrupt context
 * @napi: the poller whose loop takes the line
 * @w: the driver's watcher (the handler finds its context with container_of)
 * @fd: the line, a level-triggered fd readable while asserted
 * @cb: the driver's handler; it masks and schedules, as a hard IRQ does
 *
 * For a driver whose handler demultiplexes a line itself (ravb's and
 * fec's one line for RX, TX and errors; gianfar's error line), where
 * ethdrv_napi_attach_irq() does not fit. The handler runs on the loop that
 * polls @napi and moves with it (ethdrv_napi_set_loop()): on the device's
 * loop by default, in a softirq loop with contexts=irq, above the
 * application as Linux's hard IRQ (docs/design.md §4.5, §4.7). Whatever it
 * touches that the device's loop touches too (registers, counters, timers)
 * must then be thread-safe: a timer of the device's loop is started
 * through an ethdrv_async, never from the handler.
 *
 * Return: 0, -EINVAL, -ENOSPC past 2 lines on one poller, or the -errno of
 * epoll_ctl.
 * Context: the device's loop thread (open), or setup.
 */
ETHDRV_EXPORT int ethdrv_napi_line_start(struct ethdrv_napi *napi, struct ethdrv_watch *w, int fd,
					 ethdrv_watch_cb cb);

/**
 * ethdrv_napi_line_stop() - stop a line ethdrv_napi_line_start() started
 * @napi: its poller
 * @w: the watcher; nothing if it is not started
 *
 * On return the handler does not run and will not run again.
 * Context: the device's loop thread (stop), or teardown.
 */
ETHDRV_EXPORT void ethdrv_napi_line_stop(struct ethdrv_napi *napi, struct ethdrv_watch *w);

/**
 * ethdrv_napi_set_loop() - move a poller and its IRQ to another loop
 * @napi: the poller
 * @loop: the loop whose softirq stage polls it from now on (a per-CPU loop
 *        of ethdrv_cpu_loops, or the device's own loop)
 *
 * The IRQ affinity of Linux (/proc/irq/N/smp_affinity) for one line: the
 * IRQ fd attached with ethdrv_napi_attach_irq() and the driver's lines of
 * ethdrv_napi_line_start() are watched by @loop, and
 * the poller is polled in @loop's softirq context (docs/design.md §4.7).
 * An enabled poller is disabled for the move, then enabled and scheduled
 * once, so that whatever arrived meanwhile is polled and the driver unmasks
 * its IRQ. In threaded mode the poller thread stays; only the IRQ and the
 * defer timer move.
 *
 * Return: 0, -EINVAL, or -EBUSY while the poller busy-polls (busy_poll_us,
 * which runs on the device's loop).
 * Context: the device's loop thread (the control path), or setup.
 */
ETHDRV_EXPORT int ethdrv_napi_set_loop(struct ethdrv_napi *napi, struct ethdrv_loop *loop);

/**
 * ethdrv_napi_get_loop() - the loop that polls @napi
 * @napi: the poller
 */
ETHDRV_EXPORT struct ethdrv_loop *ethdrv_napi_get_loop(const struct ethdrv_napi *napi);

/**
 * ethdrv_napi_find() - the live poller of @dev named @name, or NULL
 * @dev: the device
 * @name: "rx", "tx", ...
 *
 * Context: the device's loop thread.
 */
ETHDRV_EXPORT struct ethdrv_napi *ethdrv_napi_find(struct ethdrv_netdev *dev, const char *name);

/**
 * ethdrv_napi_for_each() - call @fn for every live poller of @dev, in order of adding
 * @dev: the device
 * @fn: called with each poller and @arg
 * @arg: passed on
 *
 * Context: the device's loop thread.
 */
ETHDRV_EXPORT void ethdrv_napi_for_each(struct ethdrv_netdev *dev,
					void (*fn)(struct ethdrv_napi *napi, void *arg), void *arg);

/**
 * ethdrv_napi_name() - the poller's name ("rx", "tx")
 * @napi: the poller
 */
ETHDRV_EXPORT const char *ethdrv_napi_name(const struct ethdrv_napi *napi);

/**
 * ethdrv_napi_irq_unmask() - re-arm the IRQ after complete_done said true
 * @napi: the poller
 *
 * If the line is still asserted the IRQ fires again at once.
 * Context: any thread (hands the re-arm to the loop thread if needed).
 */
ETHDRV_EXPORT void ethdrv_napi_irq_unmask(struct ethdrv_napi *napi);

/* Per-poller knobs; the netdev-wide setters apply them to every poller. */
struct ethdrv_napi_config {
	unsigned defer_hard_irqs; /* napi_defer_hard_irqs, 0 = off */
	uint64_t gro_flush_timeout_ns; /* gro_flush_timeout in ns, 0 = off */
	bool threaded; /* run in its own thread */
	unsigned busy_poll_us; /* busy_poll: spin this long after the last work, 0 = off */
	unsigned busy_poll_budget; /* budget per busy poll, default 8 */
};

/**
 * ethdrv_napi_configure() - apply knobs at run time
 * @napi: the poller
 * @cfg: the new settings
 *
 * Switching threaded or busy_poll on or off hands the poller between
 * contexts through the normal ownership protocol; no scheduled poll is lost.
 *
 * Return: 0, -EINVAL, or -errno if a poller thread cannot be started.
 * Context: the loop thread.
 */
ETHDRV_EXPORT int ethdrv_napi_configure(struct ethdrv_napi *napi,
					const struct ethdrv_napi_config *cfg);

/** ethdrv_napi_get_config() - current knobs of @napi. */
ETHDRV_EXPORT void ethdrv_napi_get_config(const struct ethdrv_napi *napi,
					  struct ethdrv_napi_config *cfg);

/* Poller counters (also registered in the device's stats set). */
struct ethdrv_napi_stats {
	ethdrv_counter_t irqs; /* IRQ events taken (fd became readable while unmasked) */
	ethdrv_counter_t schedules; /* successful schedules */
	ethdrv_counter_t missed; /* schedules that found it running (MISSED) */
	ethdrv_counter_t polls; /* poll calls */
	ethdrv_counter_t work; /* RX work reported by polls */
	ethdrv_counter_t repolls; /* polls that used the whole budget */
	ethdrv_counter_t empty_polls; /* polls with no work */
	ethdrv_counter_t completes; /* complete_done calls */
	ethdrv_counter_t irq_rearms; /* complete_done returned true */
	ethdrv_counter_t defer_timer_polls; /* polls started by the defer timer */
	ethdrv_counter_t busy_polls; /* polls made by the busy-poller */
	ethdrv_counter_t thread_wakeups; /* poller thread woken from sleep */
	struct ethdrv_hist irq_to_poll_ns; /* IRQ event to the start of its poll */
};

/** ethdrv_napi_stats() - the live counters of @napi. */
ETHDRV_EXPORT const struct ethdrv_napi_stats *ethdrv_napi_stats(const struct ethdrv_napi *napi);

#endif /* ETHDRV_NAPI_H */
