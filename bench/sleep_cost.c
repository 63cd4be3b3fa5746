// SPDX-License-Identifier: MIT
/*
 * sleep-cost: what one timed sleep of the line engine's kind costs the
 * sleeping thread (docs/fq.md §4.1). The engine thread sleeps on a
 * CLOCK_MONOTONIC condition variable until its next event with 1 ns timer
 * slack (src/emu/emu_engine.c, emu_wait_until()); this probe does the same,
 * with the same code, --period-us ahead each time and nobody signalling, so
 * every sleep ends on its timer. The thread's CPU time over the sleeps is the
 * CPU one timed sleep costs (arming the timer, going to sleep, the timer
 * interrupt's wakeup, coming back); the lateness is the wakeup after the
 * deadline. --cpu pins the thread (-1: any CPU). --wait picks the primitive:
 * cond (the engine's, the default), nanosleep (clock_nanosleep to an absolute
 * CLOCK_MONOTONIC time) or timerfd (a blocking read of a CLOCK_MONOTONIC
 * timerfd armed with the absolute time): whether another way to sleep costs
 * less here. Prints one JSON object.
 *
 * usage: sleep-cost [--sleeps N] [--period-us P] [--cpu C] [--wait cond|nanosleep|timerfd]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_util.h"

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void usage(void)
{
	fprintf(stderr, "usage: sleep-cost [--sleeps N (1..1000000)] [--period-us P (1..100000)] "
			"[--cpu C (-1 = any)] [--wait cond|nanosleep|timerfd]\n");
	exit(2);
}

enum wait_kind { WAIT_COND, WAIT_NANOSLEEP, WAIT_TIMERFD };

static const char *const wait_names[] = { "cond", "nanosleep", "timerfd" };

struct waiter {
	enum wait_kind kind;
	pthread_mutex_t lock; /* cond: held across the sleeps, as the engine's */
	pthread_cond_t cond;
	int tfd; /* timerfd */
};

static struct timespec to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

/* Sleep until @deadline_ns on CLOCK_MONOTONIC; 0, or -1 on a failed call. */
static int wait_until(struct waiter *w, uint64_t deadline_ns)
{
	struct itimerspec its = { .it_value = to_ts(deadline_ns) };
	struct timespec ts = to_ts(deadline_ns);
	uint64_t expirations;

	switch (w->kind) {
	case WAIT_COND:
		emu_wait_until(&w->cond, &w->lock, deadline_ns);
		return 0;
	case WAIT_NANOSLEEP:
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		return 0;
	default:
		if (timerfd_settime(w->tfd, TFD_TIMER_ABSTIME, &its, NULL))
			return -1;
		return read(w->tfd, &expirations, sizeof(expirations)) ==
				       (ssize_t)sizeof(expirations) ?
			       0 :
			       -1;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "sleeps", required_argument, NULL, 'n' },
					      { "period-us", required_argument, NULL, 'p' },
					      { "cpu", required_argument, NULL, 'c' },
					      { "wait", required_argument, NULL, 'w' },
					      { NULL, 0, NULL, 0 } };
	long n = 20000, period_us = 10, cpu = -1;
	struct waiter w = { .kind = WAIT_COND, .tfd = -1 };
	uint64_t *late, cpu0, cpu1, wall0, wall1;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		char *end;
		long v = 0;

		if (c == '?')
			usage();
		if (c == 'w') {
			unsigned k = 0;

			while (k < 3 && strcmp(optarg, wait_names[k]))
				k++;
			if (k == 3)
				usage();
			w.kind = (enum wait_kind)k;
			continue;
		}
		v = strtol(optarg, &end, 10);
		if (*end || end == optarg)
			usage();
		if (c == 'n')
			n = v;
		else if (c == 'p')
			period_us = v;
		else
			cpu = v;
	}
	if (optind != argc || n < 1 || n > 1000000 || period_us < 1 || period_us > 100000 ||
	    cpu < -1 || cpu >= CPU_SETSIZE)
		usage();
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((int)cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sleep-cost: sched_setaffinity");
			return 1;
		}
	}
	late = calloc((size_t)n, sizeof(*late));
	if (!late || emu_sync_init(&w.lock, &w.cond)) {
		fprintf(stderr, "sleep-cost: out of memory or no condition variable\n");
		return 1;
	}
	if (w.kind == WAIT_TIMERFD && (w.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)) < 0) {
		perror("sleep-cost: timerfd_create");
		return 1;
	}
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* as the engine thread */
	pthread_mutex_lock(&w.lock);
	wall0 = emu_mono_ns();
	cpu0 = thread_cpu_ns();
	for (long i = 0; i < n; i++) {
		uint64_t deadline = emu_mono_ns() + (uint64_t)period_us * 1000u, now;

		if (wait_until(&w, deadline)) {
			perror("sleep-cost: timerfd");
			return 1;
		}
		now = emu_mono_ns();
		late[i] = now > deadline ? now - deadline : 0;
	}
	cpu1 = thread_cpu_ns();
	wall1 = emu_mono_ns();
	pthread_mutex_unlock(&w.lock);
	qsort(late, (size_t)n, sizeof(*late), cmp_u64);
	printf("{\"wait\": \"%s\", \"sleeps\": %ld, \"period_us\": %ld, \"cpu\": %ld, "
	       "\"cpu_ns_per_sleep\": %.0f, \"wall_ns_per_sleep\": %.0f, \"late_p50_ns\": %llu, "
	       "\"late_p99_ns\": %llu}\n",
	       wait_names[w.kind], n, period_us, cpu, (double)(cpu1 - cpu0) / (double)n,
	       (double)(wall1 - wall0) / (double)n, (unsigned long long)late[n / 2],
	       (unsigned long long)late[n * 99 / 100]);
	emu_sync_destroy(&w.lock, &w.cond);
	if (w.tfd >= 0)
		close(w.tfd);
	free(late);
	return 0;
}
