/* SPDX-License-Identifier: MIT */
/*
 * Bounded waits on hardware state, with the semantics of the kernel's
 * iopoll.h (docs/napi.md §6.1): every wait on a register or MDIO bit goes
 * through these (docs/style.md S4), never an open-coded spin.
 *
 *	ret = ethdrv_poll_timeout(oa_tc6_read_reg, val, val & STATUS0_RESETC,
 *				  1000, 1000000, tc6, OA_TC6_REG_STATUS0);
 *
 * @op is called as op(args..., &val) and returns 0 or -errno; an error ends
 * the wait at once and is returned. Otherwise the result is 0 when @cond
 * became true, or -ETIMEDOUT. After the deadline the register is read one
 * last time, so a late success counts; @val always holds the last read.
 *
 * ethdrv_poll_timeout() sleeps @sleep_us between reads (clock_nanosleep with
 * the thread's timer slack set to 1 ns on first use), timed against
 * CLOCK_MONOTONIC. ethdrv_poll_timeout_atomic() spins @delay_us between
 * reads and, as the kernel's since 2023, counts its timeout from the delays
 * it made (plus 1 ns per read when @delay_us is 0), not from the clock.
 * sleep/delay 0 means back-to-back reads; timeout 0 means no timeout.
 *
 * Each wait is counted: waits, reads, timeouts and a histogram of reads per
 * wait, readable with ethdrv_poll_get_stats(); the reads of the calling
 * thread's last wait are in ethdrv_poll_last_reads().
 */
#ifndef ETHDRV_POLL_H
#define ETHDRV_POLL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

/* Progress of one wait; internal to the macros below. */
struct ethdrv__poll {
	uint64_t deadline_ns; /* sleeping: CLOCK_MONOTONIC deadline, 0 = none */
	uint64_t left_ns; /* atomic: timeout budget left */
	uint64_t timeout_ns; /* the requested timeout, 0 = none */
	unsigned reads; /* reads made so far */
	bool atomic; /* spinning variant */
};

ETHDRV_EXPORT void ethdrv__poll_begin(struct ethdrv__poll *p, uint64_t timeout_us, bool atomic);
/* True once the timeout has passed (sleeping: clock; atomic: budget). */
ETHDRV_EXPORT bool ethdrv__poll_expired(struct ethdrv__poll *p);
/* Wait @us between reads: sleep, or spin and charge the budget. */
ETHDRV_EXPORT void ethdrv__poll_wait(struct ethdrv__poll *p, uint64_t us);
/* Record the finished wait in the statistics; returns @ret. */
ETHDRV_EXPORT int ethdrv__poll_end(struct ethdrv__poll *p, int ret);

#define ethdrv__poll_timeout(atomic, op, val, cond, wait_us, timeout_us, ...) \
	({                                                                    \
		struct ethdrv__poll ethdrv__p;                                \
		int ethdrv__ret;                                              \
		ethdrv__poll_begin(&ethdrv__p, (timeout_us), (atomic));       \
		for (;;) {                                                    \
			bool ethdrv__late = ethdrv__poll_expired(&ethdrv__p); \
			ethdrv__p.reads++;                                    \
			ethdrv__ret = op(__VA_ARGS__, &(val));                \
			if (ethdrv__ret)                                      \
				break;                                        \
			if (cond)                                             \
				break;                                        \
			if (ethdrv__late) {                                   \
				ethdrv__ret = -ETIMEDOUT;                     \
				break;                                        \
			}                                                     \
			ethdrv__poll_wait(&ethdrv__p, (wait_us));             \
		}                                                             \
		ethdrv__poll_end(&ethdrv__p, ethdrv__ret);                    \
	})

/* Sleeping bounded wait; see the top of this file. Context: may sleep. */
#define ethdrv_poll_timeout(op, val, cond, sleep_us, timeout_us, ...) \
	ethdrv__poll_timeout(false, op, val, cond, sleep_us, timeout_us, __VA_ARGS__)

/* Spinning bounded wait; see the top of this file. Context: never sleeps. */
#define ethdrv_poll_timeout_atomic(op, val, cond, delay_us, timeout_us, ...) \
	ethdrv__poll_timeout(true, op, val, cond, delay_us, timeout_us, __VA_ARGS__)

/* Process-wide wait statistics. */
struct ethdrv_poll_stats {
	uint64_t waits; /* waits finished */
	uint64_t reads; /* reads made by all waits */
	uint64_t timeouts; /* waits that returned -ETIMEDOUT */
	uint64_t errors; /* waits ended by an op error */
};

/**
 * ethdrv_poll_get_stats() - snapshot of the process-wide wait statistics
 * @st: filled in
 */
ETHDRV_EXPORT void ethdrv_poll_get_stats(struct ethdrv_poll_stats *st);

/**
 * ethdrv_poll_reads_hist() - the histogram of reads per wait
 *
 * Return: the process-wide histogram (struct ethdrv_hist from stats.h).
 */
ETHDRV_EXPORT struct ethdrv_hist *ethdrv_poll_reads_hist(void);

/**
 * ethdrv_poll_last_reads() - reads made by this thread's last finished wait
 */
ETHDRV_EXPORT unsigned ethdrv_poll_last_reads(void);

#endif /* ETHDRV_POLL_H */
