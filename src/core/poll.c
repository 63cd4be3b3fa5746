// SPDX-License-Identifier: MIT
/*
 * Bounded waits behind the ethdrv_poll_timeout*() macros, with the semantics
 * of the kernel's iopoll.h (docs/napi.md §6.1), and their statistics.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <time.h>
#include "ethdrv/poll.h"
#include "ethdrv/stats.h"
#include "poll_priv.h"

#define POLL_NS_PER_US 1000u

static ethdrv_counter_t poll_waits;
static ethdrv_counter_t poll_reads;
static ethdrv_counter_t poll_timeouts;
static ethdrv_counter_t poll_errors;
static struct ethdrv_hist poll_reads_hist = { .unit = "reads" };
static ethdrv__poll_clock_fn poll_clock; /* NULL: CLOCK_MONOTONIC (atomic access) */
static _Thread_local unsigned poll_last_reads;
static _Thread_local bool poll_slack_set; /* this thread's timer slack is 1 ns */

static uint64_t poll_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The clock deadlines are checked against (a test may replace it). */
static uint64_t poll_deadline_clock_ns(void)
{
	ethdrv__poll_clock_fn fn = __atomic_load_n(&poll_clock, __ATOMIC_RELAXED);

	return fn ? fn() : poll_mono_ns();
}

/* @us in ns, saturated at INT64_MAX so the atomic budget stays signed. */
static uint64_t poll_us_to_ns(uint64_t us)
{
	return us > (uint64_t)INT64_MAX / POLL_NS_PER_US ? (uint64_t)INT64_MAX :
							   us * POLL_NS_PER_US;
}

static void poll_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Sleep @us, with this thread's timer slack at 1 ns (docs/host.md §1). */
static void poll_sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000u, .tv_nsec = (us % 1000000u) * 1000u };

	if (!poll_slack_set) {
		/* Default slack is 50 us, which would dominate short sleeps. */
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
		poll_slack_set = true;
	}
	/* A signal must not shorten the wait; resume with what is left. */
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* Spin @us on CLOCK_MONOTONIC (kernel udelay). */
static void poll_spin_us(uint64_t us)
{
	uint64_t ns = poll_us_to_ns(us);
	uint64_t start = poll_mono_ns();

	while (poll_mono_ns() - start < ns)
		poll_cpu_relax();
}

void ethdrv__poll_set_clock(ethdrv__poll_clock_fn fn)
{
	__atomic_store_n(&poll_clock, fn, __ATOMIC_RELAXED);
}

ETHDRV_EXPORT void ethdrv__poll_begin(struct ethdrv__poll *p, uint64_t timeout_us, bool atomic)
{
	p->timeout_ns = poll_us_to_ns(timeout_us);
	p->reads = 0;
	p->atomic = atomic;
	p->deadline_ns = 0;
	p->left_ns = 0;
	if (!p->timeout_ns)
		return;
	if (atomic)
		p->left_ns = p->timeout_ns;
	else
		p->deadline_ns = poll_deadline_clock_ns() + p->timeout_ns;
}

ETHDRV_EXPORT bool ethdrv__poll_expired(struct ethdrv__poll *p)
{
	if (!p->timeout_ns)
		return false;
	/* docs/napi.md §6.1: the atomic variant times out on its budget going
	 * below zero (left_ns holds a signed value), the sleeping one once the
	 * clock is strictly past the deadline.
	 */
	if (p->atomic)
		return (int64_t)p->left_ns < 0;
	return poll_deadline_clock_ns() > p->deadline_ns;
}

ETHDRV_EXPORT void ethdrv__poll_wait(struct ethdrv__poll *p, uint64_t us)
{
	if (!p->atomic) {
		if (us)
			poll_sleep_us(us);
		else
			poll_cpu_relax();
		return;
	}
	/* docs/napi.md §6.1: charge the delay, or 1 ns per tight iteration. */
	if (us)
		poll_spin_us(us);
	else
		poll_cpu_relax();
	if (p->timeout_ns)
		p->left_ns -= us ? poll_us_to_ns(us) : 1;
}

ETHDRV_EXPORT int ethdrv__poll_end(struct ethdrv__poll *p, int ret)
{
	ethdrv_counter_inc(&poll_waits);
	ethdrv_counter_add(&poll_reads, p->reads);
	/* An op that itself returns -ETIMEDOUT is counted as a timeout too. */
	if (ret == -ETIMEDOUT)
		ethdrv_counter_inc(&poll_timeouts);
	else if (ret)
		ethdrv_counter_inc(&poll_errors);
	ethdrv_hist_record(&poll_reads_hist, p->reads);
	poll_last_reads = p->reads;
	return ret;
}

ETHDRV_EXPORT void ethdrv_poll_get_stats(struct ethdrv_poll_stats *st)
{
	st->waits = ethdrv_counter_get(&poll_waits);
	st->reads = ethdrv_counter_get(&poll_reads);
	st->timeouts = ethdrv_counter_get(&poll_timeouts);
	st->errors = ethdrv_counter_get(&poll_errors);
}

ETHDRV_EXPORT struct ethdrv_hist *ethdrv_poll_reads_hist(void)
{
	return &poll_reads_hist;
}

ETHDRV_EXPORT unsigned ethdrv_poll_last_reads(void)
{
	return poll_last_reads;
}
