// SPDX-License-Identifier: MIT
/*
 * stall-probe: the time each CPU did not run a thread that never sleeps
 * (docs/host.md §1). One SCHED_OTHER thread per CPU, pinned, reads
 * CLOCK_MONOTONIC in a loop; a step between two reads longer than --gap-us
 * is a stall: the hypervisor ran something else on that vCPU, or the guest
 * did (an interrupt, another task). The guest scheduler's share is the
 * thread's run-queue wait (/proc/thread-self/schedstat), printed beside;
 * the rest is the host's and the guest's interrupts. It also prints each
 * CPU's stalls by length, the time CPUs 0 and 1 were stalled at once (on a
 * 2-CPU guest: the whole guest stopped), and the steal the guest kernel
 * counted over the same span (/proc/stat): whether that column of the
 * benchmarks sees the host's preemptions. Run it on an otherwise idle
 * machine. One JSON object.
 *
 * usage: stall-probe [--seconds S (1..60)] [--gap-us G (5..100000)] [--cpus N (1..8)]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_util.h"

#define MAX_CPUS 8
#define MAX_STALLS 100000 /* kept per CPU for the overlap; the counts go on */
#define BUCKETS 6

/* Stall lengths by bucket: below 50 us, 100 us, 300 us, 1 ms, 3 ms, above. */
static const uint64_t bucket_ns[BUCKETS - 1] = { 50000, 100000, 300000, 1000000, 3000000 };
static const char *const bucket_names[BUCKETS] = { "lt_50us", "lt_100us", "lt_300us",
						   "lt_1ms",  "lt_3ms",	  "ge_3ms" };

struct stall {
	uint64_t from, to;
};

struct probe {
	int cpu;
	uint64_t end_ns, gap_ns;
	unsigned long count[BUCKETS];
	uint64_t total_ns, max_ns;
	long long waited_ns; /* run-queue wait the guest's scheduler counted, -1: unknown */
	struct stall *kept;
	size_t nkept;
};

static void usage(void)
{
	fprintf(stderr, "usage: stall-probe [--seconds S (1..60)] [--gap-us G (5..100000)] "
			"[--cpus N (1..8)]\n");
	exit(2);
}

/* The calling thread's run-queue wait in ns (schedstat's second field), -1 if unknown. */
static long long run_delay_ns(void)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? (long long)wait : -1;
}

static void *spin(void *arg)
{
	struct probe *p = arg;
	cpu_set_t set;
	uint64_t prev, now;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return (void *)1;
	p->waited_ns = run_delay_ns();
	prev = emu_mono_ns();
	while ((now = emu_mono_ns()) < p->end_ns) {
		uint64_t d = now - prev;

		if (d > p->gap_ns) {
			unsigned b = 0;

			while (b < BUCKETS - 1 && d >= bucket_ns[b])
				b++;
			p->count[b]++;
			p->total_ns += d;
			if (d > p->max_ns)
				p->max_ns = d;
			if (p->nkept < MAX_STALLS)
				p->kept[p->nkept++] = (struct stall){ prev, now };
		}
		prev = now;
	}
	if (p->waited_ns >= 0) {
		long long w = run_delay_ns();

		p->waited_ns = w >= 0 ? w - p->waited_ns : -1;
	}
	return NULL;
}

/* Steal over all CPUs in clock ticks (/proc/stat's first line, field 8). */
static long long steal_ticks(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	return n == 8 ? (long long)v[7] : -1;
}

/* The time both lists (each in time order) were stalled at once. */
static uint64_t overlap_ns(const struct probe *a, const struct probe *b)
{
	uint64_t sum = 0;
	size_t i = 0, j = 0;

	while (i < a->nkept && j < b->nkept) {
		uint64_t from =
			a->kept[i].from > b->kept[j].from ? a->kept[i].from : b->kept[j].from;
		uint64_t to = a->kept[i].to < b->kept[j].to ? a->kept[i].to : b->kept[j].to;

		if (to > from)
			sum += to - from;
		if (a->kept[i].to < b->kept[j].to)
			i++;
		else
			j++;
	}
	return sum;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "seconds", required_argument, NULL, 's' },
					      { "gap-us", required_argument, NULL, 'g' },
					      { "cpus", required_argument, NULL, 'c' },
					      { NULL, 0, NULL, 0 } };
	long seconds = 5, gap_us = 20, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct probe p[MAX_CPUS] = { 0 };
	pthread_t th[MAX_CPUS];
	long long steal0, steal1;
	uint64_t start;
	int c;

	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		char *end;
		long v;

		if (c == '?')
			usage();
		v = strtol(optarg, &end, 10);
		if (*end || end == optarg)
			usage();
		if (c == 's')
			seconds = v;
		else if (c == 'g')
			gap_us = v;
		else
			ncpu = v;
	}
	if (optind != argc || seconds < 1 || seconds > 60 || gap_us < 5 || gap_us > 100000 ||
	    ncpu < 1 || ncpu > MAX_CPUS || ncpu > sysconf(_SC_NPROCESSORS_ONLN))
		usage();
	steal0 = steal_ticks();
	start = emu_mono_ns();
	for (int i = 0; i < ncpu; i++) {
		p[i] = (struct probe){ .cpu = i,
				       .end_ns = start + (uint64_t)seconds * 1000000000u,
				       .gap_ns = (uint64_t)gap_us * 1000u,
				       .kept = calloc(MAX_STALLS, sizeof(struct stall)) };
		if (!p[i].kept || pthread_create(&th[i], NULL, spin, &p[i])) {
			fprintf(stderr, "stall-probe: cannot start the thread for CPU %d\n", i);
			return 1;
		}
	}
	for (int i = 0; i < ncpu; i++) {
		void *ret;

		pthread_join(th[i], &ret);
		if (ret) {
			fprintf(stderr, "stall-probe: cannot pin a thread to CPU %d\n", i);
			return 1;
		}
	}
	steal1 = steal_ticks();
	printf("{\"seconds\": %ld, \"gap_us\": %ld, \"steal_ms\": %.1f, \"cpus\": [", seconds,
	       gap_us,
	       steal0 < 0 || steal1 < 0 ?
		       -1.0 :
		       (double)(steal1 - steal0) * 1000.0 / (double)sysconf(_SC_CLK_TCK));
	for (int i = 0; i < ncpu; i++) {
		printf("%s{\"cpu\": %d, \"stalled_ms\": %.3f, \"max_us\": %.1f, "
		       "\"guest_waited_ms\": %.3f",
		       i ? ", " : "", i, (double)p[i].total_ns / 1e6, (double)p[i].max_ns / 1e3,
		       p[i].waited_ns < 0 ? -1.0 : (double)p[i].waited_ns / 1e6);
		for (int b = 0; b < BUCKETS; b++)
			printf(", \"%s\": %lu", bucket_names[b], p[i].count[b]);
		printf("}");
	}
	printf("], \"cpu0_cpu1_stalled_ms\": %.3f}\n",
	       ncpu >= 2 ? (double)overlap_ns(&p[0], &p[1]) / 1e6 : 0.0);
	for (int i = 0; i < ncpu; i++)
		free(p[i].kept);
	return 0;
}
