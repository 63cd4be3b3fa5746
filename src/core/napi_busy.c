// SPDX-License-Identifier: MIT
/*
 * Busy polling (napi.h, docs/napi.md §2.3): a poll that found work asks the
 * loop to take the poller over; the loop then polls it on every iteration,
 * with busy_poll_budget, IRQ masked (IN_BUSY_POLL), until it has found
 * nothing for busy_poll_us, and hands it back with one more normal poll.
 * Loop thread only, except ethdrv__napi_busy_request().
 */
#include "ethdrv/napi.h"
#include "loop_priv.h"
#include "napi_priv.h"

/* A productive normal poll asks the busy-poller to take over. */
void ethdrv__napi_busy_request(struct ethdrv_napi *n)
{
	struct ethdrv_loop *loop = n->loop;

	if (n->tx || !__atomic_load_n(&n->cfg.busy_poll_us, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&n->busy_requested, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&n->sn->busy_requested, 1, __ATOMIC_SEQ_CST);
	if (!ethdrv_loop_in_thread(loop))
		ethdrv_loop_wake(loop);
}

/* Take @n over if it asked; false if it is owned elsewhere or disabled. */
static bool napi_busy_start(struct ethdrv_napi *n, uint64_t now)
{
	unsigned val;

	if (!__atomic_exchange_n(&n->busy_requested, 0, __ATOMIC_RELAXED))
		return false;
	val = __atomic_load_n(&n->state, __ATOMIC_RELAXED);
	do {
		/* Scheduled elsewhere: its poll asks again if it finds work. */
		if (val & (NAPI_S_SCHED | NAPI_S_DISABLE))
			return false;
	} while (!__atomic_compare_exchange_n(&n->state, &val,
					      val | NAPI_S_SCHED | NAPI_S_IN_BUSY_POLL, true,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	n->busy_active = true;
	n->sn->busy_active++;
	n->busy_last_work_ns = now;
	return true;
}

/* Leave busy mode: drop IN_BUSY_POLL, keep SCHED for one more poll. */
void ethdrv__napi_busy_stop(struct ethdrv_napi *n, bool schedule)
{
	n->busy_active = false;
	n->sn->busy_active--;
	ethdrv__napi_clear_bits(n, NAPI_S_IN_BUSY_POLL | NAPI_S_MISSED);
	if (schedule)
		ethdrv__napi_schedule(n); /* the last poll that may re-arm the IRQ */
}

/* Poll @n with the busy budget; leave busy mode after busy_poll_us idle. */
static int napi_busy_poll(struct ethdrv_napi *n, uint64_t now, int limit)
{
	int budget = (int)__atomic_load_n(&n->cfg.busy_poll_budget, __ATOMIC_RELAXED);
	uint64_t idle_ns =
		__atomic_load_n(&n->cfg.busy_poll_us, __ATOMIC_RELAXED) * NAPI_NSEC_PER_USEC;
	int work, total = 0;

	do {
		work = ethdrv__napi_run_poll(n, budget);
		ethdrv_counter_inc(&n->stats.busy_polls);
		total += work;
	} while (work == budget && total < limit);
	if (total)
		n->busy_last_work_ns = now;
	else if (now - n->busy_last_work_ns >= idle_ns)
		ethdrv__napi_busy_stop(n, true);
	return total;
}

/* Busy-poll the pollers in busy mode, up to netdev_budget packets each. */
int ethdrv__napi_busy_run(struct ethdrv_loop *loop, struct ethdrv__softnet *sn)
{
	unsigned budget_packets, budget_usecs;
	struct ethdrv_napi *n;
	int limit, total = 0;
	uint64_t now;

	/* Clear a request even with an empty list: a late one from a poller
	 * thread must not keep the loop from sleeping. */
	if (__atomic_load_n(&sn->busy_requested, __ATOMIC_RELAXED))
		__atomic_store_n(&sn->busy_requested, 0, __ATOMIC_SEQ_CST);
	else if (!sn->busy_active)
		return 0;
	if (!sn->busy)
		return 0;
	ethdrv_loop_get_budget(loop, &budget_packets, &budget_usecs);
	limit = (int)budget_packets;
	now = ethdrv_now_ns();
	for (n = sn->busy; n; n = n->busy_next) {
		if (!n->busy_active && !napi_busy_start(n, now))
			continue;
		total += napi_busy_poll(n, now, limit);
	}
	ethdrv__loop_count_processed(loop, (uint64_t)total, false);
	return total;
}

void ethdrv__napi_busy_list_update(struct ethdrv_napi *n)
{
	struct ethdrv__softnet *sn = n->sn;
	struct ethdrv_napi **pp;
	bool want = !n->deleted && !n->tx && n->cfg.busy_poll_us;

	if (want == n->busy_listed)
		return;
	if (want) {
		n->busy_next = sn->busy;
		sn->busy = n;
		n->busy_listed = true;
		return;
	}
	if (n->busy_active)
		ethdrv__napi_busy_stop(n, true);
	__atomic_store_n(&n->busy_requested, 0, __ATOMIC_RELAXED);
	for (pp = &sn->busy; *pp; pp = &(*pp)->busy_next) {
		if (*pp == n) {
			*pp = n->busy_next;
			break;
		}
	}
	n->busy_listed = false;
}
