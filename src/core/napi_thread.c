// SPDX-License-Identifier: MIT
/*
 * Threaded NAPI (napi.h, docs/napi.md §3): with threaded=1 a poller gets a
 * thread "napi/<dev>-<name>" that sleeps on a condvar until a schedule
 * marks SCHED_THREADED, then polls until the work runs out. The thread also
 * owns the defer deadline of a complete_done it made (a timed wait), since
 * loop timers are loop-thread-only. Turning threaded off hands a pending
 * schedule and deadline back to the loop.
 */
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <sys/prctl.h>

#include "ethdrv/driver.h"
#include "ethdrv/napi.h"
#include "loop_priv.h"
#include "napi_priv.h"

/* The poller whose thread is the current thread, if any. */
static __thread struct ethdrv_napi *napi_tls_thread;

bool ethdrv__napi_thread_is_current(const struct ethdrv_napi *n)
{
	return napi_tls_thread == n;
}

void ethdrv__napi_thread_wake(struct ethdrv_napi *n)
{
	/* Pairs with the thread publishing thread_sleeping before its check. */
	if (!__atomic_load_n(&n->thread_sleeping, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&n->thread_lock);
	pthread_cond_signal(&n->thread_cond);
	pthread_mutex_unlock(&n->thread_lock);
}

/* Sleep until the thread owns a schedule (true) or must exit (false). */
static bool napi_thread_wait(struct ethdrv_napi *n)
{
	bool slept = false, ret;

	pthread_mutex_lock(&n->thread_lock);
	__atomic_store_n(&n->thread_sleeping, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		uint64_t dl;

		if (__atomic_load_n(&n->thread_stop, __ATOMIC_ACQUIRE)) {
			ret = false;
			break;
		}
		if (__atomic_load_n(&n->state, __ATOMIC_SEQ_CST) & NAPI_S_SCHED_THREADED) {
			ret = true;
			break;
		}
		dl = __atomic_load_n(&n->thread_deadline, __ATOMIC_ACQUIRE);
		if (dl && ethdrv_now_ns() >= dl) {
			/* The defer deadline this thread owns expired. */
			if (__atomic_compare_exchange_n(&n->thread_deadline, &dl, 0, false,
							__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
				pthread_mutex_unlock(&n->thread_lock);
				ethdrv__napi_defer_expired(n);
				pthread_mutex_lock(&n->thread_lock);
			}
			continue;
		}
		if (dl) {
			struct timespec ts = { .tv_sec = (time_t)(dl / 1000000000ull),
					       .tv_nsec = (long)(dl % 1000000000ull) };

			pthread_cond_timedwait(&n->thread_cond, &n->thread_lock, &ts);
		} else {
			pthread_cond_wait(&n->thread_cond, &n->thread_lock);
		}
		slept = true;
	}
	__atomic_store_n(&n->thread_sleeping, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&n->thread_lock);
	if (slept && ret)
		ethdrv_counter_inc(&n->stats.thread_wakeups);
	return ret;
}

/* Poll while the thread owns the poller (napi_threaded_poll_loop). */
static void napi_thread_poll(struct ethdrv_napi *n)
{
	for (;;) {
		int weight = __atomic_load_n(&n->weight, __ATOMIC_RELAXED);
		int work = ethdrv__napi_run_poll(n, weight);
		unsigned val;

		if (work > 0)
			ethdrv__napi_busy_request(n);
		if (work < weight)
			return;
		val = ethdrv__napi_state(n);
		if (val & NAPI_S_DISABLE) {
			ethdrv__napi_release(n);
			return;
		}
		if (!(val & NAPI_S_THREADED)) {
			/* Threaded mode was turned off: the loop takes it over. */
			ethdrv__napi_clear_bits(n, NAPI_S_SCHED_THREADED);
			ethdrv__napi_schedule(n);
			return;
		}
	}
}

/* The poller thread, named like the kernel's, polling whenever it owns the poller. */
static void *napi_thread_main(void *arg)
{
	struct ethdrv_napi *n = arg;
	char name[40];
	unsigned val;

	snprintf(name, sizeof(name), "napi/%s-%s", n->dev->name, n->name);
	name[15] = '\0'; /* the kernel keeps 15 characters of a thread name */
	prctl(PR_SET_NAME, name, 0UL, 0UL, 0UL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	napi_tls_thread = n;
	while (napi_thread_wait(n))
		napi_thread_poll(n);
	/* Exiting: hand over a schedule that arrived before THREADED was cleared. */
	val = ethdrv__napi_state(n);
	if (val & NAPI_S_SCHED_THREADED) {
		ethdrv__napi_clear_bits(n, NAPI_S_SCHED_THREADED);
		if (val & NAPI_S_DISABLE)
			ethdrv__napi_release(n);
		else
			ethdrv__napi_schedule(n);
	}
	napi_tls_thread = NULL;
	return NULL;
}

/*
 * The thread inherits the creator's policy (a loop at SCHED_FIFO gives
 * FIFO pollers), unless the loop's softirq config says pollers are tasks
 * (task_threads, docs/design.md §4.6): then SCHED_OTHER, as Linux's napi
 * kthreads are.
 */
static int napi_thread_create(struct ethdrv_napi *n)
{
	struct sched_param sp = { .sched_priority = 0 };
	struct ethdrv_softirq_config cfg;
	pthread_attr_t attr;
	int ret;

	ethdrv_loop_get_softirq(n->loop, &cfg);
	if (!cfg.task_threads)
		return pthread_create(&n->thread, NULL, napi_thread_main, n);
	ret = pthread_attr_init(&attr);
	if (ret)
		return ret;
	ret = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	if (!ret)
		ret = pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
	if (!ret)
		ret = pthread_attr_setschedparam(&attr, &sp);
	if (!ret)
		ret = pthread_create(&n->thread, &attr, napi_thread_main, n);
	pthread_attr_destroy(&attr);
	return ret;
}

int ethdrv__napi_thread_start(struct ethdrv_napi *n)
{
	int ret;

	__atomic_store_n(&n->thread_stop, 0, __ATOMIC_RELAXED);
	ret = napi_thread_create(n);
	if (ret)
		return -ret;
	n->thread_on = true;
	/* From now on schedules go to the thread; one already on the loop's
	 * list is polled there once more and then handed over. */
	__atomic_or_fetch(&n->state, NAPI_S_THREADED, __ATOMIC_SEQ_CST);
	return 0;
}

void ethdrv__napi_thread_stop(struct ethdrv_napi *n)
{
	uint64_t dl;

	ethdrv__napi_clear_bits(n, NAPI_S_THREADED);
	pthread_mutex_lock(&n->thread_lock);
	__atomic_store_n(&n->thread_stop, 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&n->thread_cond);
	pthread_mutex_unlock(&n->thread_lock);
	pthread_join(n->thread, NULL);
	n->thread_on = false;
	/* A defer deadline the thread owned moves to the loop timer. */
	dl = __atomic_exchange_n(&n->thread_deadline, 0, __ATOMIC_ACQ_REL);
	if (dl && !(ethdrv__napi_state(n) & NAPI_S_DISABLE)) {
		if (ethdrv__loop_is_owner(n->loop))
			ethdrv_timer_start_at(&n->defer_timer, dl, 0);
		else
			ethdrv__napi_defer_expired(n); /* a per-CPU loop's timer: poll now */
	}
}
