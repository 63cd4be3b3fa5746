/* SPDX-License-Identifier: MIT */
/* Log internals shared with the unit tests (docs/style.md S1 private header). */
#ifndef ETHDRV_CORE_LOG_PRIV_H
#define ETHDRV_CORE_LOG_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/log.h"

/* Burst and interval of ethdrv__ratelimit() (kernel DEFAULT_RATELIMIT_*). */
#define ETHDRV__RATELIMIT_BURST 10u
#define ETHDRV__RATELIMIT_INTERVAL_NS 5000000000ull

/* Module name used for the "N messages suppressed" line. */
#define ETHDRV__RATELIMIT_MODULE "ratelimit"

/* ethdrv__ratelimit() with an explicit CLOCK_MONOTONIC time, for tests. */
bool ethdrv__ratelimit_at(struct ethdrv_ratelimit *rl, uint64_t now_ns);

#endif /* ETHDRV_CORE_LOG_PRIV_H */
