// SPDX-License-Identifier: MIT
/*
 * wake-cost: what one wakeup of an idle ethdrv loop costs the woken thread
 * (bench/napi-modes.py, issue 24): a thread runs an ethdrv loop
 * (src/core/loop.c, the node's loop); the main thread wakes it with
 * ethdrv_loop_wake() --gap-us apart, so it sleeps in epoll_wait before each
 * wake, as a node does between packets of a slow flood. The loop thread's
 * CPU time over the wakes it took is the CPU one wakeup from idle costs
 * (return from epoll_wait, the wake eventfd, the next wait). --cpus A,B:
 * the loop thread on CPU A, the waker on CPU B (A = B: one CPU).
 * Prints one JSON object.
 *
 * usage: wake-cost [--wakes N] [--gap-us G] [--cpus A,B]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ethdrv/loop.h"

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("wake-cost: sched_setaffinity");
}

struct probe {
	struct ethdrv_loop *loop;
	int cpu; /* the loop thread's CPU, -1 = any */
	int started; /* atomic */
};

static void *loop_main(void *arg)
{
	struct probe *p = arg;

	pin(p->cpu);
	ethdrv_loop_run_once(p->loop, ETHDRV_RUN_NOWAIT); /* claims the loop */
	__atomic_store_n(&p->started, 1, __ATOMIC_RELEASE);
	ethdrv_loop_run(p->loop);
	return NULL;
}

static uint64_t thread_cpu_ns(pthread_t t)
{
	struct timespec ts;
	clockid_t cid;

	if (pthread_getcpuclockid(t, &cid) || clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "wakes", required_argument, NULL, 'n' },
					      { "gap-us", required_argument, NULL, 'g' },
					      { "cpus", required_argument, NULL, 'c' },
					      { NULL, 0, NULL, 0 } };
	struct probe p = { .cpu = -1 };
	struct ethdrv_loop_stats s0, s1;
	unsigned wakes = 2000, gap_us = 300;
	int waker_cpu = -1, c;
	uint64_t cpu0, cpu1;
	pthread_t t;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n')
			wakes = (unsigned)strtoul(optarg, NULL, 10);
		else if (c == 'g')
			gap_us = (unsigned)strtoul(optarg, NULL, 10);
		else if (c == 'c' && sscanf(optarg, "%d,%d", &p.cpu, &waker_cpu) == 2)
			continue;
		else {
			fprintf(stderr, "usage: wake-cost [--wakes N] [--gap-us G] [--cpus A,B]\n");
			return 2;
		}
	}
	if (!wakes || gap_us < 20) {
		fprintf(stderr, "wake-cost: --wakes 1 or more, --gap-us 20 or more\n");
		return 2;
	}
	if (ethdrv_loop_new(&p.loop) || pthread_create(&t, NULL, loop_main, &p))
		return 1;
	pin(waker_cpu);
	while (!__atomic_load_n(&p.started, __ATOMIC_ACQUIRE))
		sched_yield();
	ethdrv_sleep_until_ns(ethdrv_now_ns() + 10000000ull); /* it sleeps now */
	ethdrv_loop_get_stats(p.loop, &s0);
	cpu0 = thread_cpu_ns(t);
	for (unsigned i = 0; i < wakes; i++) {
		ethdrv_sleep_until_ns(ethdrv_now_ns() + gap_us * 1000ull);
		ethdrv_loop_wake(p.loop);
	}
	ethdrv_sleep_until_ns(ethdrv_now_ns() + gap_us * 1000ull);
	cpu1 = thread_cpu_ns(t);
	ethdrv_loop_get_stats(p.loop, &s1);
	ethdrv_loop_stop(p.loop);
	pthread_join(t, NULL);
	ethdrv_loop_free(p.loop);
	/* Only the wakes that found it asleep wrote the eventfd (wakes_sent). */
	wakes = (unsigned)(s1.wakes_sent - s0.wakes_sent);
	printf("{\"wakeups\": %u, \"us_per_wakeup\": %.3f, \"loop_cpu\": %d, \"waker_cpu\": %d, "
	       "\"gap_us\": %u}\n",
	       wakes, wakes ? (double)(cpu1 - cpu0) / 1e3 / wakes : 0.0, p.cpu, waker_cpu, gap_us);
	return wakes ? 0 : 1;
}
