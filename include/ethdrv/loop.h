/* SPDX-License-Identifier: MIT */
/*
 * The event loop: one thread per node runs fd watchers, timers and the NAPI
 * poll list (the "softirq" of docs/design.md §4). Built on epoll, with a
 * timerfd armed at the earliest absolute deadline and an eventfd for
 * cross-thread wakes. Shaped after Redis ae.c: ethdrv_loop_run_once() is
 * the unit of work, ethdrv_loop_run() a few lines around it, and a
 * before-sleep hook runs before each blocking wait (docs/style.md S7).
 *
 * Watchers and timers are caller-owned structs (no allocation per event);
 * they are started, changed and stopped only from the loop thread.
 * ethdrv_loop_wake() and ethdrv_loop_stop() are safe from any thread.
 */
#ifndef ETHDRV_LOOP_H
#define ETHDRV_LOOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

struct ethdrv_loop;
struct ethdrv_watch;
struct ethdrv_timer;

/* Event bits for watchers (same values as EPOLLIN/EPOLLOUT/EPOLLERR/EPOLLHUP). */
#define ETHDRV_EV_READ 0x001u
#define ETHDRV_EV_WRITE 0x004u
#define ETHDRV_EV_ERR 0x008u
#define ETHDRV_EV_HUP 0x010u

typedef void (*ethdrv_watch_cb)(struct ethdrv_watch *w, unsigned events);
typedef void (*ethdrv_timer_cb)(struct ethdrv_timer *t);
typedef void (*ethdrv_loop_hook)(struct ethdrv_loop *loop, void *arg);

/* An fd watcher. Fields are private to the loop except @data. */
struct ethdrv_watch {
	struct ethdrv_loop *loop; /* owning loop while started */
	int fd; /* the watched fd */
	unsigned events; /* ETHDRV_EV_* wanted; 0 = parked (still registered) */
	ethdrv_watch_cb cb; /* called on readiness with the ready events */
	void *data; /* user data */
};

/* A one-shot or periodic timer on CLOCK_MONOTONIC. Private except @data. */
struct ethdrv_timer {
	struct ethdrv_loop *loop; /* owning loop */
	uint64_t deadline_ns; /* absolute expiry */
	uint64_t period_ns; /* 0 = one-shot; else re-armed at deadline + period */
	unsigned heap_idx; /* position in the loop's timer heap; ~0u = inactive */
	ethdrv_timer_cb cb; /* called on expiry in the loop thread */
	void *data; /* user data */
};

/**
 * ethdrv_now_ns() - CLOCK_MONOTONIC in nanoseconds
 */
ETHDRV_EXPORT uint64_t ethdrv_now_ns(void);

/**
 * ethdrv_thread_cpu_ns() - the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) in ns
 */
ETHDRV_EXPORT uint64_t ethdrv_thread_cpu_ns(void);

/**
 * ethdrv_sleep_until_ns() - sleep until CLOCK_MONOTONIC reaches @deadline_ns
 * @deadline_ns: absolute deadline, as ethdrv_now_ns() counts
 *
 * An absolute sleep: a signal does not shorten it and lateness does not
 * accumulate. For code that may not include OS headers (drivers).
 * Context: may sleep; never in the loop thread's datapath unless a
 * benchmark asks for it.
 */
ETHDRV_EXPORT void ethdrv_sleep_until_ns(uint64_t deadline_ns);

/**
 * ethdrv_loop_new() - create an event loop
 * @out: receives the loop
 *
 * Return: 0, -ENOMEM, or the -errno of epoll_create1/eventfd/timerfd.
 * Context: any thread; the loop belongs to the first thread that runs it.
 */
ETHDRV_EXPORT int ethdrv_loop_new(struct ethdrv_loop **out);

/**
 * ethdrv_loop_free() - destroy a loop with no watchers or pollers left
 * @loop: the loop, or NULL
 */
ETHDRV_EXPORT void ethdrv_loop_free(struct ethdrv_loop *loop);

/* Flags for ethdrv_loop_run_once(). */
#define ETHDRV_RUN_NOWAIT 0x1u /* never block, even with nothing to do */

/**
 * ethdrv_loop_run_once() - one iteration of the loop
 * @loop: the loop
 * @flags: ETHDRV_RUN_* flags
 *
 * Steps: (1) if no NAPI work is pending, run the before-sleep hook and wait
 * in epoll until an fd, the earliest timer or a wake; (2) dispatch ready
 * watchers; (3) run expired timers; (4) run the NAPI poll list within the
 * per-loop budget (netdev_budget packets, netdev_budget_usecs), counting
 * time_squeeze when it runs out; (5) busy-poll pollers in busy-poll mode.
 *
 * Return: the number of events, timers and packets processed (>= 0), or
 * a -errno from epoll_wait other than -EINTR.
 * Context: the loop thread.
 */
ETHDRV_EXPORT int ethdrv_loop_run_once(struct ethdrv_loop *loop, unsigned flags);

/**
 * ethdrv_loop_run() - run until ethdrv_loop_stop()
 * @loop: the loop
 *
 * The calling thread is the loop thread until this returns; after that the
 * loop has no thread, and the thread that runs it next (or, until then, any
 * one thread, e.g. the one that joined this one to tear down) owns it.
 *
 * Return: 0 after a stop, or the error of ethdrv_loop_run_once().
 */
ETHDRV_EXPORT int ethdrv_loop_run(struct ethdrv_loop *loop);

/**
 * ethdrv_loop_stop() - make ethdrv_loop_run() return after this iteration
 * @loop: the loop
 *
 * Context: any thread, also a signal handler (it only writes the eventfd).
 */
ETHDRV_EXPORT void ethdrv_loop_stop(struct ethdrv_loop *loop);

/**
 * ethdrv_loop_wake() - interrupt a blocking wait in the loop thread
 * @loop: the loop
 *
 * Context: any thread.
 */
ETHDRV_EXPORT void ethdrv_loop_wake(struct ethdrv_loop *loop);

/**
 * ethdrv_loop_in_thread() - true if called from the thread running @loop
 * @loop: the loop
 */
ETHDRV_EXPORT bool ethdrv_loop_in_thread(const struct ethdrv_loop *loop);

/**
 * ethdrv_loop_set_before_sleep() - hook run before each blocking wait
 * @loop: the loop
 * @fn: the hook, or NULL
 * @arg: passed to @fn
 */
ETHDRV_EXPORT void ethdrv_loop_set_before_sleep(struct ethdrv_loop *loop, ethdrv_loop_hook fn,
						void *arg);

/**
 * ethdrv_loop_set_budget() - the per-iteration NAPI budget
 * @loop: the loop
 * @packets: netdev_budget, default 300
 * @usecs: netdev_budget_usecs, default 2000
 *
 * Return: 0 or -EINVAL for zero values.
 */
ETHDRV_EXPORT int ethdrv_loop_set_budget(struct ethdrv_loop *loop, unsigned packets,
					 unsigned usecs);

/**
 * ethdrv_loop_get_budget() - the budget ethdrv_loop_set_budget() set
 * @loop: the loop
 * @packets: receives netdev_budget
 * @usecs: receives netdev_budget_usecs
 */
ETHDRV_EXPORT void ethdrv_loop_get_budget(const struct ethdrv_loop *loop, unsigned *packets,
					  unsigned *usecs);

/*
 * The loop as a softirq context (docs/design.md §4.6). Linux runs
 * NET_RX_SOFTIRQ again and again while it stays pending, but within one
 * softirq burst at most MAX_SOFTIRQ_RESTART runs or MAX_SOFTIRQ_TIME; what
 * is left then goes to ksoftirqd, a SCHED_OTHER thread. With @restart_max
 * 0 (the default) the loop keeps all its work (ethdrv's behaviour before
 * contexts existed); otherwise a poll list still pending after
 * @restart_max consecutive runs, or after a burst of @time_usecs, is
 * handed to the loop's ksoftirqd thread until it is empty.
 *
 * While ksoftirqd holds the list, @irq_exit_inline chooses what the exit
 * of an interrupt the loop takes (a watcher's callback or a timer) does
 * with it: false leaves it to ksoftirqd (the "let ksoftirqd do its job"
 * rule of Linux 4.9 to 6.4); true runs a burst of it there and then, in
 * the loop's thread, as Linux does again since 6.5 (docs/design.md §4.6).
 */
struct ethdrv_softirq_config {
	unsigned restart_max; /* runs per burst before the hand-off; 0 = never hand off */
	unsigned time_usecs; /* longest burst before the hand-off; 0 = no time limit */
	bool task_threads; /* poller threads (threaded=1) are created at SCHED_OTHER */
	bool irq_exit_inline; /* an interrupt's exit runs the list ksoftirqd holds (6.5+) */
	char name[16]; /* the ksoftirqd thread's name; "" = "ksoftirqd" */
};

#define ETHDRV_SOFTIRQ_RESTART 10 /* Linux MAX_SOFTIRQ_RESTART (docs/design.md §4.6) */
#define ETHDRV_SOFTIRQ_USECS 2000 /* Linux MAX_SOFTIRQ_TIME, 2 ms (docs/design.md §4.6) */

/**
 * ethdrv_loop_set_softirq() - set the hand-off limits of the loop's softirq stage
 * @loop: the loop
 * @cfg: the limits; copied
 *
 * Context: before the loop runs, or its own thread.
 * Return: 0.
 */
ETHDRV_EXPORT int ethdrv_loop_set_softirq(struct ethdrv_loop *loop,
					  const struct ethdrv_softirq_config *cfg);

/**
 * ethdrv_loop_get_softirq() - the limits ethdrv_loop_set_softirq() set
 * @loop: the loop
 * @cfg: filled in
 */
ETHDRV_EXPORT void ethdrv_loop_get_softirq(const struct ethdrv_loop *loop,
					   struct ethdrv_softirq_config *cfg);

/**
 * ethdrv_loop_ksoftirqd_tid() - the thread id of the loop's ksoftirqd thread
 * @loop: the loop
 *
 * Return: the id, or 0 while the loop never handed work off.
 */
ETHDRV_EXPORT int ethdrv_loop_ksoftirqd_tid(const struct ethdrv_loop *loop);

/**
 * ethdrv_loop_call() - run @fn(@arg) in the loop's thread and wait for it
 * @loop: the loop
 * @fn: the function
 * @arg: its argument
 *
 * Runs @fn at once when called in the loop's thread or when no thread runs
 * the loop. For work that touches the loop's private state (watchers being
 * stopped, timers) from another thread.
 */
ETHDRV_EXPORT void ethdrv_loop_call(struct ethdrv_loop *loop, void (*fn)(void *arg), void *arg);

/**
 * ethdrv_thread_create_task() - pthread_create() at SCHED_OTHER, whatever the
 * caller runs at (docs/design.md §4.5): for helper threads that must not
 * inherit a real-time priority (ksoftirqd, task pollers, samplers)
 * @t: the new thread
 * @fn: its function
 * @arg: its argument
 *
 * Return: 0 or an errno value, as pthread_create().
 */
ETHDRV_EXPORT int ethdrv_thread_create_task(pthread_t *t, void *(*fn)(void *), void *arg);

/* Loop counters (softnet_stat-like). */
struct ethdrv_loop_stats {
	uint64_t iterations; /* run_once calls */
	uint64_t sleeps; /* blocking waits entered */
	uint64_t wakeups; /* blocking waits that returned with work */
	uint64_t wakes_sent; /* ethdrv_loop_wake() calls that wrote the eventfd */
	uint64_t processed; /* packets processed by NAPI polls */
	uint64_t time_squeeze; /* NAPI runs stopped by the packet or time budget */
	uint64_t timers_fired; /* timer callbacks run */
	uint64_t softirq_runs; /* runs of the poll list that polled something (any thread) */
	uint64_t budget_exhausted; /* of time_squeeze: stopped by netdev_budget */
	uint64_t time_exhausted; /* of time_squeeze: stopped by netdev_budget_usecs */
	uint64_t ksoftirqd_handoffs; /* bursts handed to ksoftirqd (restart or time limit) */
	uint64_t ksoftirqd_runs; /* of softirq_runs: runs in the ksoftirqd thread */
	uint64_t irq_exit_runs; /* of softirq_runs: runs at an interrupt's exit while
				 * ksoftirqd held the list (irq_exit_inline) */
};

/**
 * ethdrv_loop_get_stats() - snapshot of @loop's counters
 * @loop: the loop
 * @st: filled in
 */
ETHDRV_EXPORT void ethdrv_loop_get_stats(const struct ethdrv_loop *loop,
					 struct ethdrv_loop_stats *st);

/**
 * ethdrv_watch_start() - watch @fd for @events
 * @loop: the loop
 * @w: caller-owned watcher
 * @fd: the fd (level-triggered)
 * @events: ETHDRV_EV_READ and/or ETHDRV_EV_WRITE; 0 registers it parked
 * @cb: called with the ready events
 *
 * Return: 0 or the -errno of epoll_ctl.
 * Context: the loop thread, or before the loop runs.
 */
ETHDRV_EXPORT int ethdrv_watch_start(struct ethdrv_loop *loop, struct ethdrv_watch *w, int fd,
				     unsigned events, ethdrv_watch_cb cb);

/**
 * ethdrv_watch_set() - change the events of a started watcher
 * @w: the watcher
 * @events: the new ETHDRV_EV_* set; 0 parks it (masking a level IRQ fd)
 *
 * Costs one epoll_ctl only when the set changes.
 *
 * Return: 0 or the -errno of epoll_ctl.
 */
ETHDRV_EXPORT int ethdrv_watch_set(struct ethdrv_watch *w, unsigned events);

/** ethdrv_watch_stop() - stop watching; safe on a stopped watcher. */
ETHDRV_EXPORT void ethdrv_watch_stop(struct ethdrv_watch *w);

/**
 * ethdrv_timer_init() - prepare a timer (inactive)
 * @loop: the loop
 * @t: caller-owned timer
 * @cb: expiry callback
 */
ETHDRV_EXPORT void ethdrv_timer_init(struct ethdrv_loop *loop, struct ethdrv_timer *t,
				     ethdrv_timer_cb cb);

/**
 * ethdrv_timer_start_at() - arm @t at absolute time @deadline_ns
 * @t: the timer; re-arming an active timer moves it
 * @deadline_ns: CLOCK_MONOTONIC expiry
 * @period_ns: 0 for one-shot; else it re-arms at deadline + k*period, so a
 *             late expiry never shifts the ones after it
 *
 * Return: 0 or -ENOMEM when the heap cannot grow.
 * Context: the loop thread, or before the loop runs.
 */
ETHDRV_EXPORT int ethdrv_timer_start_at(struct ethdrv_timer *t, uint64_t deadline_ns,
					uint64_t period_ns);

/** ethdrv_timer_start() - arm @t @delay_ns from now; see ethdrv_timer_start_at(). */
ETHDRV_EXPORT int ethdrv_timer_start(struct ethdrv_timer *t, uint64_t delay_ns, uint64_t period_ns);

/** ethdrv_timer_stop() - disarm; safe on an inactive timer. */
ETHDRV_EXPORT void ethdrv_timer_stop(struct ethdrv_timer *t);

/** ethdrv_timer_is_active() - true while armed. */
static inline bool ethdrv_timer_is_active(const struct ethdrv_timer *t)
{
	return t->heap_idx != ~0u;
}

/*
 * A cross-thread notification (libuv's uv_async_t), src/core/loop_async.c:
 * any thread calls ethdrv_async_send(); the loop thread then runs the
 * callback once for all sends since it last ran. For a device whose poll
 * context (maybe its own thread) learns something the loop thread must
 * act on, such as a PHY interrupt seen in a status register.
 */
struct ethdrv_async;
typedef void (*ethdrv_async_cb)(struct ethdrv_async *a);

struct ethdrv_async {
	struct ethdrv_watch watch; /* on fd */
	int fd; /* eventfd, -1 when closed */
	ethdrv_async_cb cb; /* runs on the loop thread */
	void *data; /* for the callback */
};

/**
 * ethdrv_async_init() - create the notification and watch it
 * @loop: the loop whose thread runs @cb
 * @a: caller-owned
 * @cb: the callback
 *
 * Return: 0 or -errno (eventfd, epoll).
 * Context: the loop thread, or before the loop runs.
 */
ETHDRV_EXPORT int ethdrv_async_init(struct ethdrv_loop *loop, struct ethdrv_async *a,
				    ethdrv_async_cb cb);

/** ethdrv_async_send() - run the callback soon. Context: any thread, never blocks. */
ETHDRV_EXPORT void ethdrv_async_send(struct ethdrv_async *a);

/** ethdrv_async_close() - stop and release; safe when closed or never initialised
 * with fd = -1. Context: the loop thread. */
ETHDRV_EXPORT void ethdrv_async_close(struct ethdrv_async *a);

#endif /* ETHDRV_LOOP_H */
