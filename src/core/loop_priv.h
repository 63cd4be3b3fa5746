/* SPDX-License-Identifier: MIT */
/*
 * Event loop internals shared with napi.c (the poll list lives in the loop).
 */
#ifndef ETHDRV_CORE_LOOP_PRIV_H
#define ETHDRV_CORE_LOOP_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>
#include "ethdrv/loop.h"
#include "ethdrv/stats.h"
#include "napi_priv.h"

#define LOOP_MAX_EVENTS 64 /* epoll events taken per wait */

struct ethdrv_loop {
	int epfd; /* the epoll instance (level-triggered) */
	int timer_fd; /* timerfd, armed at the earliest deadline (absolute) */
	int wake_fd; /* eventfd for cross-thread wakes and stop */
	struct ethdrv_watch timer_watch; /* internal watcher of timer_fd */
	struct ethdrv_watch wake_watch; /* internal watcher of wake_fd */

	struct ethdrv_timer **heap; /* min-heap of active timers by deadline */
	unsigned heap_len; /* active timers */
	unsigned heap_cap; /* allocated slots */
	uint64_t armed_ns; /* deadline timer_fd is armed for, 0 = disarmed */

	pthread_t thread; /* the loop thread, valid once thread_set */
	int thread_set; /* atomic: thread recorded (first run) */
	int stop; /* atomic: ethdrv_loop_stop() was called */
	int sleeping; /* atomic: the loop is in (or about to enter) a blocking wait */

	ethdrv_loop_hook before_sleep; /* hook run before each blocking wait */
	void *before_sleep_arg; /* its argument */
	unsigned budget_packets; /* netdev_budget (atomic) */
	unsigned budget_usecs; /* netdev_budget_usecs (atomic) */

	struct epoll_event events[LOOP_MAX_EVENTS]; /* the current ready batch */
	int nready; /* entries in events */
	int cur; /* entry being dispatched; ethdrv_watch_stop() clears later ones */

	struct ethdrv__softnet sn; /* NAPI poll list and busy-poll list */

	struct {
		ethdrv_counter_t iterations, sleeps, wakeups, wakes_sent;
		ethdrv_counter_t processed, time_squeeze, timers_fired;
	} st; /* ethdrv_loop_stats, updated atomically */
};

#endif /* ETHDRV_CORE_LOOP_PRIV_H */
