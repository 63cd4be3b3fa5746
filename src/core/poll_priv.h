/* SPDX-License-Identifier: MIT */
/*
 * Internals of the bounded waits (poll.c) that tests may reach: the clock the
 * sleeping variant reads its deadline from.
 */
#ifndef ETHDRV_CORE_POLL_PRIV_H
#define ETHDRV_CORE_POLL_PRIV_H

#include <stdint.h>

/* A monotonic nanosecond clock. */
typedef uint64_t (*ethdrv__poll_clock_fn)(void);

/*
 * Replace the clock that ethdrv_poll_timeout() checks its deadline against
 * (CLOCK_MONOTONIC when @fn is NULL), so a test can place reads exactly
 * before or after the deadline. Sleeps and the atomic variant's spins still
 * use the real clock. Process-wide; for single-threaded tests only.
 */
void ethdrv__poll_set_clock(ethdrv__poll_clock_fn fn);

#endif /* ETHDRV_CORE_POLL_PRIV_H */
