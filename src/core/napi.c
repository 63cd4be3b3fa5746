// SPDX-License-Identifier: MIT
/*
 * NAPI-style pollers (napi.h): the SCHED/MISSED ownership protocol, the
 * per-loop poll list ("softnet", the loop's deferred-work stage), software
 * IRQ coalescing, the IRQ, enable/disable, knobs and registration. The two
 * other ways a poll runs have their own files: napi_thread.c (threaded
 * mode) and napi_busy.c (busy polling). Facts:
 * docs/napi.md §1.3 (state bits), §2.2 (defer table), §2.3 (busy polling),
 * §3 (threaded NAPI).
 *
 * Ownership: whoever sets SCHED owns the poller until complete_done (or a
 * release) clears it. The owner alone touches defer_count, timer_poll and
 * poll_next. Ownership moves between contexts through the poll lists (a
 * mutex for the cross-thread list) or the SCHED_THREADED bit (seq_cst),
 * which also order those plain fields.
 *
 * Defer timer: in softirq mode an ethdrv_timer on the loop; when
 * complete_done runs in a poller thread, that thread owns the deadline
 * itself (timed condvar wait), since ethdrv_timer is loop-thread-only.
 * When threaded mode is turned off, a pending thread deadline moves to the
 * loop timer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "ethdrv/napi.h"
#include "loop_priv.h"
#include "napi_priv.h"

ETHDRV_LOG_MODULE(napi);

#define NAPI_BUSY_BUDGET_MAX 65535u
/* Bits complete_done clears (docs/napi.md §1.3 step 5). */
#define NAPI_S_DONE_MASK \
	(NAPI_S_SCHED | NAPI_S_MISSED | NAPI_S_SCHED_THREADED | NAPI_S_PREFER_BUSY_POLL)

static const struct ethdrv_stat_desc napi_stats_desc[] = {
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, irqs),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, schedules),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, missed),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, polls),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, work),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, repolls),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, empty_polls),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, completes),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, irq_rearms),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, defer_timer_polls),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, busy_polls),
	ETHDRV_STAT_DESC(struct ethdrv_napi_stats, thread_wakeups),
};

/* ---- softnet: the per-loop poll lists ---- */

/* True if the loop must not block: polls queued or busy polling active. */
static bool sn_pending(struct ethdrv__loop_softirq *s)
{
	struct ethdrv__softnet *sn = ethdrv_container_of(s, struct ethdrv__softnet, stage);

	if (__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST))
		return sn->busy_active || __atomic_load_n(&sn->busy_requested, __ATOMIC_RELAXED);
	return sn->head || sn->busy_active ||
	       __atomic_load_n(&sn->remote_pending, __ATOMIC_SEQ_CST) ||
	       __atomic_load_n(&sn->busy_requested, __ATOMIC_RELAXED);
}

static void sn_append(struct ethdrv_napi **head, struct ethdrv_napi **tail, struct ethdrv_napi *n)
{
	n->poll_next = NULL;
	if (*tail)
		(*tail)->poll_next = n;
	else
		*head = n;
	*tail = n;
}

static bool sn_remove(struct ethdrv_napi **head, struct ethdrv_napi **tail, struct ethdrv_napi *n)
{
	struct ethdrv_napi *prev = NULL, *it;

	for (it = *head; it; prev = it, it = it->poll_next) {
		if (it != n)
			continue;
		if (prev)
			prev->poll_next = n->poll_next;
		else
			*head = n->poll_next;
		if (*tail == n)
			*tail = prev;
		n->poll_next = NULL;
		return true;
	}
	return false;
}

/* Queue an owned poller on its loop's poll list. */
static void sn_queue(struct ethdrv_napi *n)
{
	struct ethdrv_loop *loop = n->loop;
	struct ethdrv__softnet *sn = n->sn;

	bool deferred;

	/* Only the loop thread sets deferred, so it reads it exactly here. */
	if (ethdrv_loop_in_thread(loop) && !__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST)) {
		/* The loop drains this list before it sleeps: no lock, no wake. */
		sn_append(&sn->head, &sn->tail, n);
		return;
	}
	pthread_mutex_lock(&sn->lock);
	sn_append(&sn->remote_head, &sn->remote_tail, n);
	__atomic_store_n(&sn->remote_pending, 1, __ATOMIC_SEQ_CST);
	deferred = __atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST);
	if (deferred)
		ethdrv__ksoftirqd_kick(sn);
	pthread_mutex_unlock(&sn->lock);
	if (!deferred)
		ethdrv_loop_wake(loop);
}

/* Move cross-thread schedules to the tail of the loop's list. */
static void sn_splice_remote(struct ethdrv__softnet *sn)
{
	if (!__atomic_load_n(&sn->remote_pending, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&sn->lock);
	if (sn->remote_head) {
		if (sn->tail)
			sn->tail->poll_next = sn->remote_head;
		else
			sn->head = sn->remote_head;
		sn->tail = sn->remote_tail;
		sn->remote_head = sn->remote_tail = NULL;
	}
	__atomic_store_n(&sn->remote_pending, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&sn->lock);
}

/* Take @n off either poll list (loop thread); true if it was queued. */
static bool sn_unqueue(struct ethdrv_napi *n)
{
	struct ethdrv__softnet *sn = n->sn;
	bool found;

	if (__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST))
		return false; /* ksoftirqd holds the lists: it polls or releases it */
	if (sn_remove(&sn->head, &sn->tail, n))
		return true;
	pthread_mutex_lock(&sn->lock);
	found = sn_remove(&sn->remote_head, &sn->remote_tail, n);
	pthread_mutex_unlock(&sn->lock);
	return found;
}

/* ---- scheduling ---- */

bool ethdrv_napi_schedule_prep(struct ethdrv_napi *n)
{
	unsigned val = __atomic_load_n(&n->state, __ATOMIC_RELAXED), new;

	do {
		if (val & NAPI_S_DISABLE)
			return false;
		new = val | NAPI_S_SCHED;
		/* Already owned: make the owner poll once more (docs/napi.md §1.3). */
		if (val & NAPI_S_SCHED)
			new |= NAPI_S_MISSED;
	} while (!__atomic_compare_exchange_n(&n->state, &val, new, true, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (val & NAPI_S_SCHED) {
		ethdrv_counter_inc(&n->stats.missed);
		return false;
	}
	ethdrv_counter_inc(&n->stats.schedules);
	return true;
}

void ethdrv__napi_schedule(struct ethdrv_napi *n)
{
	unsigned val = __atomic_load_n(&n->state, __ATOMIC_RELAXED);

	/* Route and mark in one step, so turning threaded off cannot strand
	 * a schedule: either the thread sees SCHED_THREADED or it goes to
	 * the loop. */
	do {
		if (!(val & NAPI_S_THREADED))
			break;
	} while (!__atomic_compare_exchange_n(&n->state, &val, val | NAPI_S_SCHED_THREADED, true,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	if (val & NAPI_S_THREADED)
		ethdrv__napi_thread_wake(n);
	else
		sn_queue(n);
}

bool ethdrv_napi_schedule(struct ethdrv_napi *n)
{
	if (!ethdrv_napi_schedule_prep(n))
		return false;
	ethdrv__napi_schedule(n);
	return true;
}

/* The defer timer expired (Linux napi_watchdog): schedule without MISSED. */
void ethdrv__napi_defer_expired(struct ethdrv_napi *n)
{
	unsigned val = __atomic_load_n(&n->state, __ATOMIC_RELAXED);

	do {
		if (val & (NAPI_S_DISABLE | NAPI_S_SCHED))
			return;
	} while (!__atomic_compare_exchange_n(&n->state, &val,
					      (val | NAPI_S_SCHED) & ~NAPI_S_PREFER_BUSY_POLL, true,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	n->timer_poll = true;
	ethdrv__napi_schedule(n);
}

void ethdrv__napi_defer_timer_cb(struct ethdrv_timer *t)
{
	ethdrv__napi_defer_expired(ethdrv_container_of(t, struct ethdrv_napi, defer_timer));
}

/* Arm the re-poll @timeout ns from now in the context that runs the poll. */
static void napi_defer_arm(struct ethdrv_napi *n, uint64_t timeout)
{
	if (ethdrv__napi_thread_is_current(n))
		__atomic_store_n(&n->thread_deadline, ethdrv_now_ns() + timeout, __ATOMIC_RELEASE);
	else if (ethdrv__loop_is_owner(n->loop))
		ethdrv_timer_start(&n->defer_timer, timeout, 0);
	else
		ethdrv__napi_defer_expired(n); /* foreign context: re-poll now rather than never */
}

bool ethdrv_napi_complete_done(struct ethdrv_napi *n, int work_done)
{
	unsigned val = ethdrv__napi_state(n), new;
	uint64_t timeout = 0;
	bool ret = true;

	ethdrv_counter_inc(&n->stats.completes);
	/* 1. A busy-poller owns it and will poll again. */
	if (val & NAPI_S_IN_BUSY_POLL)
		return false;
	/* 2-3. Software IRQ coalescing (docs/napi.md §2.2). */
	if (work_done > 0)
		n->defer_count = __atomic_load_n(&n->cfg.defer_hard_irqs, __ATOMIC_RELAXED);
	if (n->defer_count > 0) {
		n->defer_count--;
		timeout = __atomic_load_n(&n->cfg.gro_flush_timeout_ns, __ATOMIC_RELAXED);
		if (timeout)
			ret = false;
	}
	/* 5. Release; a MISSED event keeps SCHED for one more poll. */
	do {
		new = val & ~NAPI_S_DONE_MASK;
		if (val & NAPI_S_MISSED)
			new |= NAPI_S_SCHED;
	} while (!__atomic_compare_exchange_n(&n->state, &val, new, true, __ATOMIC_SEQ_CST,
					      __ATOMIC_ACQUIRE));
	/* 6. */
	if (val & NAPI_S_MISSED) {
		ethdrv__napi_schedule(n);
		return false;
	}
	/* 7. */
	if (timeout)
		napi_defer_arm(n, timeout);
	if (ret)
		ethdrv_counter_inc(&n->stats.irq_rearms);
	return ret;
}

/* Give up ownership without the defer logic (disable pending). */
void ethdrv__napi_release(struct ethdrv_napi *n)
{
	ethdrv__napi_clear_bits(n, NAPI_S_DONE_MASK | NAPI_S_IN_BUSY_POLL);
}

/* ---- polling ---- */

/* One poll with bookkeeping; returns the work, clamped to @budget. */
int ethdrv__napi_run_poll(struct ethdrv_napi *n, int budget)
{
	uint64_t ts = __atomic_load_n(&n->irq_ts, __ATOMIC_RELAXED);
	int work;

	if (ts) {
		ts = __atomic_exchange_n(&n->irq_ts, 0, __ATOMIC_RELAXED);
		if (ts)
			ethdrv_hist_record(&n->stats.irq_to_poll_ns, ethdrv_now_ns() - ts);
	}
	if (n->timer_poll) {
		n->timer_poll = false;
		ethdrv_counter_inc(&n->stats.defer_timer_polls);
	}
	ethdrv_counter_inc(&n->stats.polls);
	work = n->poll(n, budget);
	if (ethdrv_unlikely(work < 0 || work > budget)) {
		/* A driver bug (docs/napi.md §1.2): log once, treat as the budget. */
		if (!__atomic_exchange_n(&n->warned, 1, __ATOMIC_RELAXED))
			ethdrv_err(n->dev, "napi %s: poll returned %d, budget %d", n->name, work,
				   budget);
		work = work < 0 ? 0 : budget;
	}
	/* The batch is over: frames the handler holds go on (GRO flush, the
	 * TAP's write batch). After every RX poll, even one that reported no
	 * work: a driver may deliver frames from a poll of budget 0. */
	if (!n->tx && n->dev->rx_flush)
		n->dev->rx_flush(n->dev->rx_flush_arg);
	ethdrv_counter_add(&n->stats.work, (uint64_t)work);
	if (!work)
		ethdrv_counter_inc(&n->stats.empty_polls);
	else if (work == budget)
		ethdrv_counter_inc(&n->stats.repolls);
	return work;
}

/* The poller the current thread's poll list is polling, if any. */
static __thread struct ethdrv_napi *napi_tls_polling;

/* The poll used its whole weight and the core still owns it (docs/napi.md §1.2). */
static void napi_repoll(struct ethdrv_napi *n)
{
	unsigned val = ethdrv__napi_state(n);

	if (val & NAPI_S_DISABLE)
		ethdrv__napi_release(n);
	else if (val & NAPI_S_THREADED)
		ethdrv__napi_schedule(n); /* threaded was turned on: hand it over */
	else
		sn_append(&n->sn->head, &n->sn->tail, n);
}

/* The poll list (net_rx_action), within netdev_budget / netdev_budget_usecs. */
int ethdrv__napi_run_list(struct ethdrv_loop *loop, struct ethdrv__softnet *sn,
			  enum ethdrv__softirq_stop *why)
{
	unsigned budget_packets, budget_usecs;
	struct ethdrv_napi *n;
	int budget, processed = 0;
	bool squeezed = false;
	uint64_t end;

	*why = ETHDRV__SOFTIRQ_EMPTY;
	sn_splice_remote(sn);
	if (!sn->head)
		return 0;
	ethdrv_loop_get_budget(loop, &budget_packets, &budget_usecs);
	budget = (int)budget_packets;
	end = ethdrv_now_ns() + budget_usecs * NAPI_NSEC_PER_USEC;
	while ((n = sn->head)) {
		int weight = __atomic_load_n(&n->weight, __ATOMIC_RELAXED), work;

		/* 1. Take the first poller and poll it with its weight. Its
		 * complete may let a disable in another thread go on while we
		 * still count: ethdrv_napi_disable() waits for polling == 0. */
		sn->head = n->poll_next;
		if (!sn->head)
			sn->tail = NULL;
		__atomic_add_fetch(&n->polling, 1, __ATOMIC_SEQ_CST);
		napi_tls_polling = n;
		work = ethdrv__napi_run_poll(n, weight);
		processed += work;
		if (work > 0)
			ethdrv__napi_busy_request(n);
		/* 2. Full weight: still ours; it goes to the tail. */
		if (work == weight)
			napi_repoll(n);
		napi_tls_polling = NULL;
		__atomic_sub_fetch(&n->polling, 1, __ATOMIC_SEQ_CST);
		/* 3. Out of packets or time: the rest stays at the front. */
		budget -= work;
		if (sn->head && budget <= 0) {
			*why = ETHDRV__SOFTIRQ_BUDGET;
			break;
		}
		if (sn->head && ethdrv_now_ns() >= end) {
			*why = ETHDRV__SOFTIRQ_TIME;
			break;
		}
	}
	squeezed = *why != ETHDRV__SOFTIRQ_EMPTY;
	ethdrv__loop_count_processed(loop, (uint64_t)processed, squeezed);
	return processed;
}

/* ---- the loop's deferred-work stage (loop_priv.h) ---- */

/*
 * The exit of an interrupt while ksoftirqd holds the list, under Linux's
 * 6.5+ rule (irq_exit_inline, docs/design.md §4.6): one burst of the list
 * here, within the same restart and time limits; emptied, the list comes
 * back to the loop, else ksoftirqd keeps the rest. A run ksoftirqd has
 * begun is finished first (run_lock, priority-inheriting): Linux's
 * ksoftirqd is not preempted inside a run, so an interrupt finds it only
 * between runs.
 */
static int sn_irq_exit_burst(struct ethdrv_loop *loop, struct ethdrv__softnet *sn,
			     const struct ethdrv_softirq_config *cfg)
{
	struct ethdrv__softirq_burst b = { 0 };
	enum ethdrv__softirq_stop why;
	int n = 0;

	pthread_mutex_lock(&sn->run_lock);
	while (__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST)) {
		ethdrv__softirq_burst_begin(&b, ethdrv_now_ns());
		n += ethdrv__napi_run_list(loop, sn, &why);
		ethdrv__loop_count_softirq(loop, why, false);
		ethdrv__loop_count_irq_exit_run(loop);
		if (why == ETHDRV__SOFTIRQ_EMPTY && ethdrv__ksoftirqd_give_back(sn))
			break;
		if (ethdrv__softirq_burst_end(&b, true, ethdrv_now_ns(), cfg) || !cfg->restart_max)
			break; /* the limits: ksoftirqd keeps what is left */
	}
	pthread_mutex_unlock(&sn->run_lock);
	return n;
}

/* Steps 4 and 5 of the loop: the poll list, then busy polling. */
static int sn_run(struct ethdrv_loop *loop, struct ethdrv__loop_softirq *s)
{
	struct ethdrv__softnet *sn = ethdrv_container_of(s, struct ethdrv__softnet, stage);
	struct ethdrv_softirq_config cfg;
	enum ethdrv__softirq_stop why;
	int n = 0;

	if (__atomic_load_n(&sn->deferred, __ATOMIC_SEQ_CST)) {
		if (ethdrv__loop_irq_exit(loop)) {
			ethdrv_loop_get_softirq(loop, &cfg);
			if (cfg.irq_exit_inline)
				n = sn_irq_exit_burst(loop, sn, &cfg);
		}
	} else if (sn->head || __atomic_load_n(&sn->remote_pending, __ATOMIC_SEQ_CST)) {
		ethdrv__softirq_burst_begin(&sn->burst, ethdrv_now_ns());
		n = ethdrv__napi_run_list(loop, sn, &why);
		ethdrv__loop_count_softirq(loop, why, false);
		ethdrv_loop_get_softirq(loop, &cfg);
		/* Still pending after the burst's runs or time: ksoftirqd's now. */
		if (ethdrv__softirq_burst_end(&sn->burst, sn->head != NULL, ethdrv_now_ns(), &cfg))
			ethdrv__ksoftirqd_handoff(sn);
	}
	return n + ethdrv__napi_busy_run(loop, sn);
}

void ethdrv__softirq_burst_begin(struct ethdrv__softirq_burst *b, uint64_t now_ns)
{
	if (!b->runs)
		b->start_ns = now_ns;
}

bool ethdrv__softirq_burst_end(struct ethdrv__softirq_burst *b, bool left, uint64_t now_ns,
			       const struct ethdrv_softirq_config *cfg)
{
	if (!left) {
		b->runs = 0;
		return false;
	}
	b->runs++;
	if (!cfg->restart_max)
		return false; /* no hand-off: the loop keeps its work */
	if (b->runs < cfg->restart_max &&
	    (!cfg->time_usecs || now_ns - b->start_ns < cfg->time_usecs * NAPI_NSEC_PER_USEC))
		return false;
	b->runs = 0;
	return true;
}

static void sn_destroy(struct ethdrv__loop_softirq *s)
{
	struct ethdrv__softnet *sn = ethdrv_container_of(s, struct ethdrv__softnet, stage);

	ethdrv__ksoftirqd_stop(sn);
	pthread_mutex_destroy(&sn->run_lock);
	pthread_cond_destroy(&sn->ksoftirqd_cond);
	pthread_mutex_destroy(&sn->lock);
	free(sn);
}

static const struct ethdrv__loop_softirq_ops sn_stage_ops;

/* The poll lists of @loop, attached to it by the first poller added there. */
int ethdrv__napi_sn_get(struct ethdrv_loop *loop, struct ethdrv__softnet **out)
{
	struct ethdrv__loop_softirq *s = ethdrv__loop_softirq_get(loop);
	struct ethdrv__softnet *sn;

	if (!s) {
		sn = calloc(1, sizeof(*sn));
		if (!sn)
			return -ENOMEM;
		if (pthread_mutex_init(&sn->lock, NULL)) {
			free(sn);
			return -ENOMEM;
		}
		if (pthread_cond_init(&sn->ksoftirqd_cond, NULL)) {
			pthread_mutex_destroy(&sn->lock);
			free(sn);
			return -ENOMEM;
		}
		if (ethdrv__ksoftirqd_lock_init(sn)) {
			pthread_cond_destroy(&sn->ksoftirqd_cond);
			pthread_mutex_destroy(&sn->lock);
			free(sn);
			return -ENOMEM;
		}
		sn->loop = loop;
		sn->stage.ops = &sn_stage_ops;
		s = &sn->stage;
		if (ethdrv__loop_softirq_attach(loop, s)) {
			/* Another thread attached its own first: use that one. */
			sn_destroy(s);
			s = ethdrv__loop_softirq_get(loop);
		}
	}
	*out = ethdrv_container_of(s, struct ethdrv__softnet, stage);
	return 0;
}

static const struct ethdrv__loop_softirq_ops sn_stage_ops = {
	.pending = sn_pending,
	.run = sn_run,
	.destroy = sn_destroy,
};

static struct ethdrv_napi *napi_find(struct ethdrv_netdev *dev, const char *name);

struct ethdrv_napi *ethdrv_napi_find(struct ethdrv_netdev *dev, const char *name)
{
	struct ethdrv_napi *n = dev && name ? napi_find(dev, name) : NULL;

	return n && !n->deleted ? n : NULL;
}

void ethdrv_napi_for_each(struct ethdrv_netdev *dev,
			  void (*fn)(struct ethdrv_napi *napi, void *arg), void *arg)
{
	struct ethdrv__napi_list *l;

	for (l = dev->napis; l; l = l->next)
		if (!ethdrv__napi_from_link(l)->deleted)
			fn(ethdrv__napi_from_link(l), arg);
}

const char *ethdrv_napi_name(const struct ethdrv_napi *n)
{
	return n->name;
}

/* ---- the poller's loop (napi_irq.c moves pollers between loops) ---- */

/*
 * Run @fn in the thread of the loop @n is on when that is another loop
 * than the device's (ethdrv_napi_set_loop()); on the device's own loop as
 * before, in the caller (a recovery on a poller thread must not wait for
 * the loop thread, which may be waiting for that poll).
 */
void ethdrv__napi_on_loop(struct ethdrv_napi *n, void (*fn)(void *arg), void *arg)
{
	if (n->loop == n->dev->loop)
		fn(arg);
	else
		ethdrv_loop_call(n->loop, fn, arg);
}

void ethdrv__napi_timer_stop_run(void *arg)
{
	ethdrv_timer_stop(&((struct ethdrv_napi *)arg)->defer_timer);
}

/* ---- enable / disable ---- */

void ethdrv_napi_enable(struct ethdrv_napi *n)
{
	unsigned val = __atomic_load_n(&n->state, __ATOMIC_RELAXED);

	n->defer_count = 0;
	n->timer_poll = false;
	while (!__atomic_compare_exchange_n(&n->state, &val, val & (NAPI_S_THREADED), true,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
}

static void napi_sleep_us(unsigned us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000 };

	nanosleep(&ts, NULL);
}

/* Try to take SCHED away from whoever holds it without polling; loop thread. */
static bool napi_claim_owned(struct ethdrv_napi *n)
{
	if (n->busy_active) {
		ethdrv__napi_busy_stop(n, false); /* the busy-poller is this thread */
		return true;
	}
	return sn_unqueue(n); /* queued but not polling: the list held SCHED */
}

void ethdrv_napi_disable(struct ethdrv_napi *n)
{
	unsigned sleep_us = 20;

	__atomic_or_fetch(&n->state, NAPI_S_DISABLE, __ATOMIC_SEQ_CST);
	for (;;) {
		unsigned val = ethdrv__napi_state(n);

		if (!(val & NAPI_S_SCHED)) {
			if (__atomic_compare_exchange_n(&n->state, &val, val | NAPI_S_SCHED, false,
							__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
				break;
			continue;
		}
		if (ethdrv__loop_is_owner(n->loop) && napi_claim_owned(n))
			break;
		/* A poll runs elsewhere (poller thread): wait for its release. */
		napi_sleep_us(sleep_us);
		sleep_us = ETHDRV_MIN(sleep_us * 2, 200u);
	}
	/* A poll list in another thread may still count the poll it completed. */
	while (napi_tls_polling != n && __atomic_load_n(&n->polling, __ATOMIC_SEQ_CST))
		napi_sleep_us(20);
	ethdrv__napi_on_loop(n, ethdrv__napi_timer_stop_run, n);
	__atomic_store_n(&n->thread_deadline, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&n->busy_requested, 0, __ATOMIC_RELAXED);
	ethdrv__napi_clear_bits(n, NAPI_S_MISSED | NAPI_S_SCHED_THREADED | NAPI_S_PREFER_BUSY_POLL |
					   NAPI_S_IN_BUSY_POLL);
	n->timer_poll = false;
	n->defer_count = 0;
}

/* ---- configuration ---- */

static int napi_check_config(const struct ethdrv_napi_config *cfg)
{
	if (cfg->busy_poll_budget > NAPI_BUSY_BUDGET_MAX || cfg->defer_hard_irqs > INT32_MAX)
		return -EINVAL;
	return 0;
}

int ethdrv_napi_configure(struct ethdrv_napi *n, const struct ethdrv_napi_config *cfg)
{
	unsigned budget;
	int ret;

	if (!n || !cfg || n->deleted || napi_check_config(cfg))
		return -EINVAL;
	budget = cfg->busy_poll_budget ? cfg->busy_poll_budget : ETHDRV_BUSY_POLL_BUDGET;
	__atomic_store_n(&n->cfg.defer_hard_irqs, cfg->defer_hard_irqs, __ATOMIC_RELAXED);
	__atomic_store_n(&n->cfg.gro_flush_timeout_ns, cfg->gro_flush_timeout_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&n->cfg.busy_poll_budget, budget, __ATOMIC_RELAXED);
	if (cfg->threaded && !n->thread_on) {
		ret = ethdrv__napi_thread_start(n);
		if (ret)
			return ret;
	} else if (!cfg->threaded && n->thread_on) {
		ethdrv__napi_thread_stop(n);
	}
	__atomic_store_n(&n->cfg.threaded, cfg->threaded, __ATOMIC_RELAXED);
	__atomic_store_n(&n->cfg.busy_poll_us, cfg->busy_poll_us, __ATOMIC_RELAXED);
	ethdrv__napi_busy_list_update(n);
	return 0;
}

void ethdrv_napi_get_config(const struct ethdrv_napi *n, struct ethdrv_napi_config *cfg)
{
	cfg->defer_hard_irqs = __atomic_load_n(&n->cfg.defer_hard_irqs, __ATOMIC_RELAXED);
	cfg->gro_flush_timeout_ns = __atomic_load_n(&n->cfg.gro_flush_timeout_ns, __ATOMIC_RELAXED);
	cfg->threaded = __atomic_load_n(&n->cfg.threaded, __ATOMIC_RELAXED);
	cfg->busy_poll_us = __atomic_load_n(&n->cfg.busy_poll_us, __ATOMIC_RELAXED);
	cfg->busy_poll_budget = __atomic_load_n(&n->cfg.busy_poll_budget, __ATOMIC_RELAXED);
}

void ethdrv__napi_set_weight(struct ethdrv_napi *n, int weight)
{
	if (!n->tx)
		__atomic_store_n(&n->weight, weight, __ATOMIC_RELAXED);
}

/* ---- registration ---- */

static struct ethdrv_napi *napi_find(struct ethdrv_netdev *dev, const char *name)
{
	struct ethdrv__napi_list *l;

	for (l = dev->napis; l; l = l->next)
		if (!strcmp(ethdrv__napi_from_link(l)->name, name))
			return ethdrv__napi_from_link(l);
	return NULL;
}

/* A condvar whose timed waits use CLOCK_MONOTONIC (deadlines are ethdrv_now_ns()). */
static int napi_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int ret;

	ret = pthread_condattr_init(&attr);
	if (ret)
		return -ret;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	return -ret;
}

/* A new poller struct, linked to @dev with its counters registered. */
static int napi_alloc(struct ethdrv_netdev *dev, const char *name, struct ethdrv_napi **out)
{
	struct ethdrv__napi_list **pp;
	struct ethdrv_napi *n;
	int ret = -ENOMEM;

	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	strcpy(n->name, name);
	snprintf(n->prefix, sizeof(n->prefix), "napi_%s", name);
	snprintf(n->hist_name, sizeof(n->hist_name), "napi_%s_irq_to_poll_ns", name);
	n->stats.irq_to_poll_ns.unit = "ns";
	if (pthread_mutex_init(&n->thread_lock, NULL))
		goto err_free;
	ret = napi_cond_init(&n->thread_cond);
	if (ret)
		goto err_mutex;
	if (dev->stats_set) {
		ret = ethdrv_stats_add_group(dev->stats_set, n->prefix, napi_stats_desc,
					     ETHDRV_ARRAY_SIZE(napi_stats_desc), &n->stats);
		if (!ret)
			ret = ethdrv_stats_add_hist(dev->stats_set, n->hist_name,
						    &n->stats.irq_to_poll_ns);
		if (ret)
			goto err_cond;
	}
	for (pp = &dev->napis; *pp; pp = &(*pp)->next)
		;
	*pp = &n->dev_link;
	*out = n;
	return 0;

err_cond:
	pthread_cond_destroy(&n->thread_cond);
err_mutex:
	pthread_mutex_destroy(&n->thread_lock);
err_free:
	free(n);
	return ret == -EEXIST ? -EINVAL : ret;
}

static int napi_add(struct ethdrv_netdev *dev, const char *name, ethdrv_napi_poll_fn poll,
		    int weight, void *ctx, bool tx, struct ethdrv_napi **out)
{
	struct ethdrv__softnet *sn;
	struct ethdrv_napi *n;
	int ret;

	if (!dev || !dev->loop || !name || !*name || strlen(name) >= sizeof(n->name) || !poll ||
	    weight < 1 || weight > ETHDRV_NAPI_WEIGHT || !out)
		return -EINVAL;
	ret = ethdrv__napi_sn_get(dev->loop, &sn);
	if (ret)
		return ret;
	n = napi_find(dev, name);
	if (n && !n->deleted)
		return -EINVAL;
	if (!n) {
		ret = napi_alloc(dev, name, &n);
		if (ret)
			return ret;
	}
	/* A deleted poller of that name is revived with its counters. */
	n->deleted = false;
	n->state = NAPI_S_SCHED | NAPI_S_DISABLE; /* pollers start disabled */
	n->poll = poll;
	n->weight = (!tx && dev->napi_weight) ? dev->napi_weight : weight;
	n->ctx = ctx;
	n->dev = dev;
	n->loop = dev->loop;
	n->sn = sn;
	n->tx = tx;
	n->cfg.threaded = false;
	n->cfg.busy_poll_us = 0;
	ethdrv_timer_init(dev->loop, &n->defer_timer, ethdrv__napi_defer_timer_cb);
	ret = ethdrv_napi_configure(n, &dev->napi_cfg);
	if (ret) {
		n->deleted = true;
		return ret;
	}
	*out = n;
	return 0;
}

int ethdrv_napi_add(struct ethdrv_netdev *dev, const char *name, ethdrv_napi_poll_fn poll,
		    int weight, void *ctx, struct ethdrv_napi **out)
{
	return napi_add(dev, name, poll, weight, ctx, false, out);
}

int ethdrv_napi_add_tx(struct ethdrv_netdev *dev, const char *name, ethdrv_napi_poll_fn poll,
		       void *ctx, struct ethdrv_napi **out)
{
	return napi_add(dev, name, poll, ETHDRV_NAPI_TX_WEIGHT, ctx, true, out);
}

void ethdrv_napi_del(struct ethdrv_napi *n)
{
	if (!n || n->deleted)
		return;
	if (!(ethdrv__napi_state(n) & NAPI_S_DISABLE))
		ethdrv_napi_disable(n);
	if (n->thread_on)
		ethdrv__napi_thread_stop(n);
	n->deleted = true;
	ethdrv__napi_busy_list_update(n);
	ethdrv_napi_detach_irq(n);
	while (n->nlines)
		ethdrv_napi_line_stop(n, n->lines[0]);
	ethdrv__napi_on_loop(n, ethdrv__napi_timer_stop_run, n);
}

void ethdrv__napi_free_all(struct ethdrv_netdev *dev)
{
	struct ethdrv__napi_list *l = dev->napis;

	while (l) {
		struct ethdrv_napi *n = ethdrv__napi_from_link(l);

		l = l->next;
		ethdrv_napi_del(n);
		pthread_cond_destroy(&n->thread_cond);
		pthread_mutex_destroy(&n->thread_lock);
		free(n);
	}
	dev->napis = NULL;
}

void *ethdrv_napi_ctx(const struct ethdrv_napi *n)
{
	return n->ctx;
}

struct ethdrv_netdev *ethdrv_napi_dev(const struct ethdrv_napi *n)
{
	return n->dev;
}

const struct ethdrv_napi_stats *ethdrv_napi_stats(const struct ethdrv_napi *n)
{
	return &n->stats;
}
