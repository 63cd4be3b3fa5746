// SPDX-License-Identifier: MIT
/*
 * The models' event engine: the clock, the run loop that applies the
 * clients' events in time order, slip, and the real-time thread (sleeping
 * on a timer, or polling the clock on a lab CPU). Interface and rules:
 * emu_engine.h, docs/design.md §5b.1; the host's timer costs that shape
 * the thread: docs/host.md §4.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#include "emu_engine.h"
#include "emu_util.h"
#include "ethdrv/compiler.h"
#include "ethdrv/loop.h"

#define SLIP_BOUND_DEFAULT_NS 1000000ull
/* Lab CPU: sleep on a timer until this long before an event, then poll the
 * clock; covers the 5-15 us timer wakeup of docs/host.md §4 with margin. */
#define LAB_SPIN_NS 100000ull

struct emu_engine_client {
	const struct emu_engine_ops *ops;
	void *ctx;
};

struct emu_engine {
	pthread_mutex_t lock; /* the big lock (emu_engine.h) */
	pthread_cond_t cond; /* the thread sleeps here (CLOCK_MONOTONIC) */
	pthread_t thread; /* real time */
	bool thread_on; /* thread started */
	bool stop; /* ask the thread to exit (atomic in lab mode) */
	bool sleeping; /* thread waits; sleep_until is its target */
	bool kicked; /* lab mode: the target changed while polling (atomic) */
	uint64_t sleep_until; /* engine clock, UINT64_MAX: waiting for work */
	struct emu_engine_config cfg; /* immutable */
	struct emu_engine_client cl[EMU_ENGINE_CLIENTS]; /* registration order */
	unsigned ncl; /* clients */
	uint64_t vnow; /* virtual clock */
	uint64_t host_manual; /* manual_clock: the host clock */
	uint64_t slip; /* host time minus engine time (real time) */
	uint64_t cur_t; /* the time of the event being applied, UINT64_MAX: none */
	uint64_t cur_late; /* its lateness */
	struct emu_engine_stats st; /* counters */
	struct ethdrv_hist lateness; /* every event */
	struct ethdrv_hist irq_lateness; /* interrupt assertions */
};

struct engine_ev {
	uint64_t t; /* the earliest event */
	uint64_t exact; /* the earliest exact event */
	unsigned client; /* whose is t */
};

static uint64_t host_now(const struct emu_engine *e)
{
	return e->cfg.manual_clock ? e->host_manual : emu_mono_ns();
}

uint64_t emu_engine_now(struct emu_engine *e)
{
	return e->cfg.realtime ? host_now(e) - e->slip : e->vnow;
}

bool emu_engine_realtime(const struct emu_engine *e)
{
	return e->cfg.realtime;
}

static struct engine_ev engine_earliest(const struct emu_engine *e)
{
	struct engine_ev ev = { UINT64_MAX, UINT64_MAX, 0 };

	for (unsigned i = 0; i < e->ncl; i++) {
		uint64_t x = UINT64_MAX, t = e->cl[i].ops->next_event(e->cl[i].ctx, &x);

		if (t < ev.t) {
			ev.t = t;
			ev.client = i;
		}
		ev.exact = ETHDRV_MIN(ev.exact, x);
	}
	return ev;
}

static void engine_advance(struct emu_engine *e, uint64_t t)
{
	for (unsigned i = 0; i < e->ncl; i++)
		if (e->cl[i].ops->advance)
			e->cl[i].ops->advance(e->cl[i].ctx, t);
}

/* Slip, not burst: an event found later than the bound stops the clock for
 * its lateness; it applies at its time and the events after it keep their
 * spacing (docs/design.md §5b.2). Returns the (new) now. */
static uint64_t engine_slip(struct emu_engine *e, uint64_t ev_t, uint64_t now)
{
	uint64_t late = now - ev_t;

	if (!e->cfg.slip_bound_ns || late <= e->cfg.slip_bound_ns)
		return now;
	e->slip += late;
	ethdrv_counter_inc(&e->st.slips);
	ethdrv_counter_add(&e->st.slip_ns, late);
	return ev_t;
}

/* Apply every event due by @t; returns the clock after any slip. */
static uint64_t engine_run(struct emu_engine *e, uint64_t t, bool catchup)
{
	uint64_t cpu0 = 0;

	for (;;) {
		struct engine_ev ev = engine_earliest(e);
		const struct emu_engine_client *c = &e->cl[ev.client];

		engine_advance(e, ETHDRV_MIN(ev.t, t));
		if (ev.t > t)
			break;
		if (e->cfg.realtime) {
			t = engine_slip(e, ev.t, t);
			ethdrv_hist_record(&e->lateness, t - ev.t);
		}
		/* Events an entry point applies run in the driver's thread:
		 * their CPU time is the model's, not the driver's (real time). */
		if (catchup && e->cfg.realtime && !cpu0)
			cpu0 = ethdrv_thread_cpu_ns(); /* what a catch-up costs the driver */
		e->cur_t = ev.t;
		e->cur_late = t - ev.t;
		c->ops->run_event(c->ctx, ev.t);
		e->cur_t = UINT64_MAX;
		ethdrv_counter_inc(&e->st.events);
		if (catchup)
			ethdrv_counter_inc(&e->st.catchups);
	}
	if (cpu0)
		ethdrv_counter_add(&e->st.catchup_cpu_ns, ethdrv_thread_cpu_ns() - cpu0);
	return t;
}

uint64_t emu_engine_sync(struct emu_engine *e, bool catchup)
{
	return engine_run(e, emu_engine_now(e), catchup);
}

void emu_engine_irq_asserted(struct emu_engine *e)
{
	ethdrv_counter_inc(&e->st.irq_asserts);
	if (e->cfg.realtime)
		ethdrv_hist_record(&e->irq_lateness, e->cur_t == UINT64_MAX ? 0 : e->cur_late);
}

/* The thread's next target on the engine clock: the earliest exact event,
 * or the earliest other one but at most one wakeup per batch. */
static uint64_t engine_target(const struct engine_ev *ev, uint64_t now, uint64_t batch)
{
	if (ev->t == UINT64_MAX)
		return UINT64_MAX;
	return ETHDRV_MIN(ETHDRV_MAX(ev->t, now + batch), ev->exact);
}

void emu_engine_kick(struct emu_engine *e)
{
	struct engine_ev ev;

	if (!e->sleeping)
		return;
	ev = engine_earliest(e);
	if (ev.t == UINT64_MAX)
		return;
	/* Waking costs more than being up to one batch late (docs/host.md §5);
	 * exact events are never batched. */
	if (e->sleep_until == UINT64_MAX || ev.t + e->cfg.batch_ns < e->sleep_until ||
	    ev.exact < e->sleep_until) {
		__atomic_store_n(&e->sleep_until, ev.t, __ATOMIC_RELAXED);
		__atomic_store_n(&e->kicked, true, __ATOMIC_RELEASE);
		pthread_cond_signal(&e->cond);
	}
}

/* Lab CPU: timer sleep to LAB_SPIN_NS before the target, then poll the clock
 * (lock released) until the target, a kick or stop. */
static void engine_lab_wait(struct emu_engine *e, uint64_t host_target)
{
	uint64_t now = emu_mono_ns();

	__atomic_store_n(&e->kicked, false, __ATOMIC_RELAXED);
	if (host_target > now + LAB_SPIN_NS) {
		emu_wait_until(&e->cond, &e->lock, host_target - LAB_SPIN_NS);
		if (__atomic_load_n(&e->kicked, __ATOMIC_ACQUIRE))
			return;
	}
	pthread_mutex_unlock(&e->lock);
	while (emu_mono_ns() < host_target && !__atomic_load_n(&e->kicked, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE))
		ethdrv_cpu_relax();
	pthread_mutex_lock(&e->lock);
}

static void *engine_thread(void *arg)
{
	struct emu_engine *e = arg;

	prctl(PR_SET_NAME, e->cfg.name ? e->cfg.name : "emu-engine", 0UL, 0UL, 0UL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_mutex_lock(&e->lock);
	while (!e->stop) {
		uint64_t now = emu_engine_sync(e, false);
		struct engine_ev ev = engine_earliest(e);
		uint64_t target = engine_target(&ev, now, e->cfg.batch_ns);

		e->sleeping = true;
		e->sleep_until = target;
		if (target == UINT64_MAX)
			pthread_cond_wait(&e->cond, &e->lock); /* idle: never spin */
		else if (e->cfg.lab_cpu != EMU_ENGINE_NO_LAB_CPU)
			engine_lab_wait(e, target + e->slip);
		else
			emu_wait_until(&e->cond, &e->lock, target + e->slip);
		e->sleeping = false;
		ethdrv_counter_inc(&e->st.wakeups);
		if (__atomic_exchange_n(&e->kicked, false, __ATOMIC_ACQUIRE))
			ethdrv_counter_inc(&e->st.kicks);
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

/* ---- lifecycle ---- */

void emu_engine_config_default(struct emu_engine_config *cfg)
{
	*cfg = (struct emu_engine_config){ .realtime = true,
					   .slip_bound_ns = SLIP_BOUND_DEFAULT_NS,
					   .lab_cpu = EMU_ENGINE_NO_LAB_CPU };
}

/* A lab CPU must be one this process may run on. */
static bool lab_cpu_ok(int cpu)
{
	cpu_set_t set;

	if (cpu == EMU_ENGINE_NO_LAB_CPU)
		return true;
	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set))
		return false;
	return CPU_ISSET(cpu, &set);
}

static int engine_check_config(const struct emu_engine_config *c)
{
	if (c->batch_ns > EMU_ENGINE_BATCH_MAX_NS || c->slip_bound_ns > EMU_ENGINE_SLIP_MAX_NS)
		return -EINVAL;
	if (c->slip_bound_ns && c->slip_bound_ns < c->batch_ns)
		return -EINVAL;
	return lab_cpu_ok(c->lab_cpu) ? 0 : -EINVAL;
}

static int engine_start(struct emu_engine *e)
{
	int ret = -pthread_create(&e->thread, NULL, engine_thread, e);

	if (ret)
		return ret;
	e->thread_on = true;
	if (e->cfg.lab_cpu != EMU_ENGINE_NO_LAB_CPU) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(e->cfg.lab_cpu, &set);
		ret = -pthread_setaffinity_np(e->thread, sizeof(set), &set);
	}
	return ret;
}

int emu_engine_new(const struct emu_engine_config *cfg, struct emu_engine **out)
{
	struct emu_engine *e;
	int ret;

	if (!cfg || !out)
		return -EINVAL;
	ret = engine_check_config(cfg);
	if (ret)
		return ret;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->cfg = *cfg;
	e->sleep_until = UINT64_MAX;
	e->cur_t = UINT64_MAX;
	e->lateness.unit = "ns";
	e->irq_lateness.unit = "ns";
	ret = emu_sync_init(&e->lock, &e->cond);
	if (ret) {
		free(e);
		return ret;
	}
	if (e->cfg.realtime && !e->cfg.manual_clock) {
		ret = engine_start(e);
		if (ret) {
			emu_engine_free(e);
			return ret;
		}
	}
	*out = e;
	return 0;
}

void emu_engine_free(struct emu_engine *e)
{
	if (!e)
		return;
	if (e->thread_on) {
		pthread_mutex_lock(&e->lock);
		__atomic_store_n(&e->stop, true, __ATOMIC_RELEASE);
		pthread_cond_signal(&e->cond);
		pthread_mutex_unlock(&e->lock);
		pthread_join(e->thread, NULL);
	}
	emu_sync_destroy(&e->lock, &e->cond);
	free(e);
}

int emu_engine_add(struct emu_engine *e, const struct emu_engine_ops *ops, void *ctx)
{
	if (e->ncl == EMU_ENGINE_CLIENTS)
		return -ENOSPC;
	e->cl[e->ncl++] = (struct emu_engine_client){ ops, ctx };
	return 0;
}

void emu_engine_remove(struct emu_engine *e, void *ctx)
{
	for (unsigned i = 0; i < e->ncl; i++) {
		if (e->cl[i].ctx != ctx)
			continue;
		for (unsigned j = i + 1; j < e->ncl; j++)
			e->cl[j - 1] = e->cl[j];
		e->ncl--;
		return;
	}
}

void emu_engine_lock(struct emu_engine *e)
{
	pthread_mutex_lock(&e->lock);
}

void emu_engine_unlock(struct emu_engine *e)
{
	pthread_mutex_unlock(&e->lock);
}

/* ---- clock control and readings ---- */

int emu_engine_run_until(struct emu_engine *e, uint64_t t_ns)
{
	int ret = 0;

	pthread_mutex_lock(&e->lock);
	if (e->cfg.realtime || t_ns < e->vnow) {
		ret = -EINVAL;
	} else {
		engine_run(e, t_ns, false);
		e->vnow = t_ns;
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

int emu_engine_service(struct emu_engine *e, uint64_t host_ns)
{
	int ret = 0;

	pthread_mutex_lock(&e->lock);
	if (!e->cfg.realtime || !e->cfg.manual_clock || host_ns < e->host_manual) {
		ret = -EINVAL;
	} else {
		e->host_manual = host_ns;
		emu_engine_sync(e, false);
		ethdrv_counter_inc(&e->st.wakeups);
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

uint64_t emu_engine_next_event(struct emu_engine *e)
{
	uint64_t t;

	pthread_mutex_lock(&e->lock);
	t = engine_earliest(e).t;
	pthread_mutex_unlock(&e->lock);
	return t;
}

/* CPU time of the engine thread so far, 0 without one (what emulating costs). */
static uint64_t engine_thread_cpu_ns(struct emu_engine *e)
{
	struct timespec ts;
	clockid_t cid;

	if (!e->thread_on || pthread_getcpuclockid(e->thread, &cid) || clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void emu_engine_get_stats(struct emu_engine *e, struct emu_engine_stats *st)
{
	pthread_mutex_lock(&e->lock);
	*st = e->st;
	pthread_mutex_unlock(&e->lock);
	ethdrv_counter_set(&st->engine_cpu_ns, engine_thread_cpu_ns(e));
}

uint64_t emu_engine_unslipped_ns(struct emu_engine *e, uint64_t since_ns)
{
	uint64_t now;

	pthread_mutex_lock(&e->lock);
	now = emu_engine_now(e);
	pthread_mutex_unlock(&e->lock);
	return now > since_ns ? now - since_ns : 0;
}

const struct ethdrv_hist *emu_engine_lateness(struct emu_engine *e)
{
	return &e->lateness;
}

const struct ethdrv_hist *emu_engine_irq_lateness(struct emu_engine *e)
{
	return &e->irq_lateness;
}
