// SPDX-License-Identifier: MIT
/*
 * Per-CPU softirq contexts (cpu_loops.h): one loop and one thread per
 * context; the thread pins itself, reports its id and runs the loop until
 * ethdrv_cpu_loops_stop().
 */
#define _GNU_SOURCE /* gettid, CPU_SET */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "ethdrv/cpu_loops.h"
#include "ethdrv/log.h"

ETHDRV_LOG_MODULE(cpu_loops);

struct cpu_loop {
	struct ethdrv_cpu_loops *set; /* the set */
	unsigned idx; /* which */
	struct ethdrv_loop *loop; /* the loop */
	pthread_t thread; /* runs it, while started */
	bool started; /* thread exists */
	int tid; /* atomic: its id, once running */
	int cpu; /* pinned to, or -1 */
};

struct ethdrv_cpu_loops {
	struct ethdrv_cpu_loops_config cfg; /* copy; name points into name_buf */
	char name_buf[16]; /* the prefix */
	pthread_mutex_t lock; /* protects the started handshake */
	pthread_cond_t cond; /* a thread reported its id */
	struct cpu_loop l[ETHDRV_CPU_LOOPS_MAX]; /* the loops */
};

/* Pin the calling thread to @cpu modulo the CPUs online; the CPU, or -1. */
static int cpu_loop_pin(unsigned cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (online < 1)
		return -1;
	cpu %= (unsigned)online;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return (int)cpu;
}

static void *cpu_loop_main(void *arg)
{
	struct cpu_loop *l = arg;
	struct ethdrv_cpu_loops *c = l->set;
	char name[32];
	int err;

	snprintf(name, sizeof(name), "%s/%u", c->name_buf, l->idx);
	name[15] = '\0';
	prctl(PR_SET_NAME, name, 0UL, 0UL, 0UL);
	l->cpu = c->cfg.pin ? cpu_loop_pin(l->idx) : -1;
	pthread_mutex_lock(&c->lock);
	__atomic_store_n(&l->tid, (int)gettid(), __ATOMIC_RELEASE);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	err = ethdrv_loop_run(l->loop);
	if (err)
		ethdrv_err(NULL, "%s: loop ended: %d", name, err);
	return NULL;
}

int ethdrv_cpu_loops_start(const struct ethdrv_cpu_loops_config *cfg, struct ethdrv_cpu_loops **out)
{
	struct ethdrv_cpu_loops *c;
	unsigned i;
	int ret = 0;

	if (!cfg || !out || !cfg->n || cfg->n > ETHDRV_CPU_LOOPS_MAX)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = *cfg;
	snprintf(c->name_buf, sizeof(c->name_buf), "%s", cfg->name ? cfg->name : "softirq");
	c->cfg.name = c->name_buf;
	if (pthread_mutex_init(&c->lock, NULL)) {
		free(c);
		return -ENOMEM;
	}
	if (pthread_cond_init(&c->cond, NULL)) {
		pthread_mutex_destroy(&c->lock);
		free(c);
		return -ENOMEM;
	}
	for (i = 0; i < cfg->n && !ret; i++) {
		struct cpu_loop *l = &c->l[i];

		l->set = c;
		l->idx = i;
		l->cpu = -1;
		ret = ethdrv_loop_new(&l->loop);
		if (!ret)
			ret = ethdrv_loop_set_softirq(l->loop, &cfg->softirq);
		if (!ret) {
			ret = -pthread_create(&l->thread, NULL, cpu_loop_main, l);
			l->started = !ret;
		}
	}
	/* Every thread has pinned itself and reported before we return. */
	pthread_mutex_lock(&c->lock);
	for (i = 0; i < cfg->n; i++)
		while (c->l[i].started && !__atomic_load_n(&c->l[i].tid, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	if (ret) {
		ethdrv_cpu_loops_stop(c);
		return ret;
	}
	*out = c;
	return 0;
}

void ethdrv_cpu_loops_stop(struct ethdrv_cpu_loops *c)
{
	unsigned i;

	if (!c)
		return;
	for (i = 0; i < c->cfg.n; i++) {
		struct cpu_loop *l = &c->l[i];

		if (l->started) {
			ethdrv_loop_stop(l->loop);
			pthread_join(l->thread, NULL);
		}
		ethdrv_loop_free(l->loop);
	}
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

unsigned ethdrv_cpu_loops_count(const struct ethdrv_cpu_loops *c)
{
	return c->cfg.n;
}

struct ethdrv_loop *ethdrv_cpu_loops_get(const struct ethdrv_cpu_loops *c, unsigned i)
{
	return i < c->cfg.n ? c->l[i].loop : NULL;
}

int ethdrv_cpu_loops_tid(const struct ethdrv_cpu_loops *c, unsigned i)
{
	return i < c->cfg.n ? __atomic_load_n(&c->l[i].tid, __ATOMIC_ACQUIRE) : 0;
}

int ethdrv_cpu_loops_cpu(const struct ethdrv_cpu_loops *c, unsigned i)
{
	return i < c->cfg.n ? c->l[i].cpu : -1;
}
