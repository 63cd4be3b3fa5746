// SPDX-License-Identifier: MIT
/*
 * The ksoftirqd analogue of a loop's poll list (docs/design.md §4.6): when
 * the loop's softirq burst has used up its runs or its time with work
 * still queued (napi.c sn_run), the list goes to this thread, created at
 * SCHED_OTHER whatever the loop runs at, which runs it within the same
 * netdev_budget per run until it is empty. Meanwhile the loop still takes
 * the interrupts (its watchers), but the schedules they make are queued for
 * this thread, as Linux leaves NET_RX to a running ksoftirqd.
 *
 * Ownership: the loop thread sets sn->deferred (it alone); from then on
 * head/tail belong to whoever holds sn->run_lock: this thread for each of
 * its runs, or, with irq_exit_inline (Linux 6.5+, docs/design.md §4.6),
 * the loop for a burst at an interrupt's exit. Either clears deferred
 * under sn->lock, with run_lock held, when both lists are empty, and
 * sn_queue() reads deferred under sn->lock, so a schedule goes either to
 * the holder or to the loop, never lost.
 */
#define _GNU_SOURCE /* gettid */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "ethdrv/log.h"
#include "loop_priv.h"
#include "napi_priv.h"

ETHDRV_LOG_MODULE(napi);

/* Wait for deferred work; false when asked to exit. */
static bool ksoftirqd_wait(struct ethdrv__softnet *sn)
{
	bool run;

	pthread_mutex_lock(&sn->lock);
	while (!sn->ksoftirqd_stop && !__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST))
		pthread_cond_wait(&sn->ksoftirqd_cond, &sn->lock);
	run = !sn->ksoftirqd_stop;
	pthread_mutex_unlock(&sn->lock);
	return run;
}

bool ethdrv__ksoftirqd_give_back(struct ethdrv__softnet *sn)
{
	bool empty;

	pthread_mutex_lock(&sn->lock);
	empty = !sn->head && !sn->remote_head;
	if (empty)
		__atomic_store_n(&sn->deferred, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&sn->lock);
	return empty;
}

static void *ksoftirqd_main(void *arg)
{
	struct ethdrv__softnet *sn = arg;
	struct ethdrv_softirq_config cfg;

	ethdrv_loop_get_softirq(sn->loop, &cfg);
	prctl(PR_SET_NAME, cfg.name[0] ? cfg.name : "ksoftirqd", 0UL, 0UL, 0UL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	ethdrv__loop_set_ksoftirqd_tid(sn->loop, (int)gettid());
	while (ksoftirqd_wait(sn)) {
		for (;;) {
			enum ethdrv__softirq_stop why;
			bool done;

			pthread_mutex_lock(&sn->run_lock);
			/* An interrupt's exit in the loop may have emptied it and given it back. */
			if (!__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST)) {
				pthread_mutex_unlock(&sn->run_lock);
				break;
			}
			ethdrv__napi_run_list(sn->loop, sn, &why);
			ethdrv__loop_count_softirq(sn->loop, why, true);
			done = why == ETHDRV__SOFTIRQ_EMPTY && ethdrv__ksoftirqd_give_back(sn);
			pthread_mutex_unlock(&sn->run_lock);
			if (done)
				break;
			sched_yield(); /* run_ksoftirqd's cond_resched() between runs */
		}
		ethdrv_loop_wake(sn->loop); /* the loop polls again: let it look */
	}
	return NULL;
}

/* The thread at SCHED_OTHER, not the policy of the loop that creates it. */
static int ksoftirqd_start(struct ethdrv__softnet *sn)
{
	int ret = ethdrv_thread_create_task(&sn->ksoftirqd, ksoftirqd_main, sn);

	if (!ret)
		sn->ksoftirqd_on = true;
	return ret;
}

bool ethdrv__ksoftirqd_handoff(struct ethdrv__softnet *sn)
{
	if (!sn->ksoftirqd_on && ksoftirqd_start(sn)) {
		ethdrv_err_ratelimited(NULL, "cannot start ksoftirqd: the loop keeps its work");
		return false;
	}
	ethdrv__loop_count_handoff(sn->loop);
	pthread_mutex_lock(&sn->lock);
	__atomic_store_n(&sn->deferred, 1, __ATOMIC_SEQ_CST);
	pthread_cond_signal(&sn->ksoftirqd_cond);
	pthread_mutex_unlock(&sn->lock);
	return true;
}

int ethdrv__ksoftirqd_lock_init(struct ethdrv__softnet *sn)
{
	pthread_mutexattr_t attr;
	int ret = pthread_mutexattr_init(&attr);

	if (ret)
		return -ret;
	/* Without PI (a host that lacks it) the lock still orders the list. */
	(void)pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT);
	ret = pthread_mutex_init(&sn->run_lock, &attr);
	pthread_mutexattr_destroy(&attr);
	return -ret;
}

void ethdrv__ksoftirqd_kick(struct ethdrv__softnet *sn)
{
	pthread_cond_signal(&sn->ksoftirqd_cond);
}

void ethdrv__ksoftirqd_stop(struct ethdrv__softnet *sn)
{
	if (!sn->ksoftirqd_on)
		return;
	pthread_mutex_lock(&sn->lock);
	sn->ksoftirqd_stop = 1;
	pthread_cond_signal(&sn->ksoftirqd_cond);
	pthread_mutex_unlock(&sn->lock);
	pthread_join(sn->ksoftirqd, NULL);
	sn->ksoftirqd_on = false;
}
