/* SPDX-License-Identifier: MIT */
/*
 * Logging: per-module levels, rate-limited datapath variants and a pluggable
 * sink (docs/style.md S5). The library never writes to stdout; the default sink
 * is stderr, and ethdrv_log_sink_syslog() sends lines to syslog.
 *
 * Use in a .c file:
 *
 *	ETHDRV_LOG_MODULE(oa_tc6);
 *	...
 *	ethdrv_err(dev, "rx: footer parity error: %d", err);
 *	ethdrv_err_ratelimited(dev, "rx overflow");
 *
 * @dev is a const struct ethdrv_netdev * or NULL; its name is prefixed.
 */
#ifndef ETHDRV_LOG_H
#define ETHDRV_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

struct ethdrv_netdev;

/* Levels use syslog's numbers so the syslog sink can pass them through. */
enum ethdrv_log_level {
	ETHDRV_LOG_ERR = 3,
	ETHDRV_LOG_WARN = 4,
	ETHDRV_LOG_INFO = 6,
	ETHDRV_LOG_DBG = 7,
};

/* One per source file; registered on first use (no constructors). */
struct ethdrv_log_module {
	const char *name; /* module name, e.g. "oa_tc6" */
	int level; /* messages above this level are dropped (atomic access) */
	int registered; /* set once linked into the module list (atomic) */
	struct ethdrv_log_module *next; /* module list, protected by the log lock */
};

/* Per-callsite rate-limit state (kernel ___ratelimit: burst per interval). */
struct ethdrv_ratelimit {
	uint64_t begin_ns; /* start of the current interval */
	unsigned printed; /* messages let through in this interval */
	unsigned missed; /* messages suppressed in this interval */
};

/**
 * typedef ethdrv_log_sink_fn - where finished log lines go
 * @arg: the pointer given to ethdrv_log_set_sink()
 * @level: the message level
 * @module: the module name
 * @line: the formatted line without a trailing newline: "<devname>: <message>",
 *        or just the message without a device; the sink adds @module
 */
typedef void (*ethdrv_log_sink_fn)(void *arg, int level, const char *module, const char *line);

/**
 * ethdrv_log_set_sink() - route all log lines to @fn
 * @fn: the sink; NULL restores the stderr sink
 * @arg: passed to @fn
 *
 * Context: any thread; lines being written concurrently may still reach the
 * old sink.
 */
ETHDRV_EXPORT void ethdrv_log_set_sink(ethdrv_log_sink_fn fn, void *arg);

/**
 * ethdrv_log_sink_syslog() - a sink that writes to syslog(3)
 *
 * Pass it to ethdrv_log_set_sink() with a NULL @arg after openlog().
 */
ETHDRV_EXPORT void ethdrv_log_sink_syslog(void *arg, int level, const char *module,
					  const char *line);

/**
 * ethdrv_log_set_level() - set the level of one module, or of all
 * @module: a module name, or "*" for every module and the default
 * @level: an enum ethdrv_log_level value
 *
 * A module that has not logged yet picks the level up when it registers.
 *
 * Return: 0, or -EINVAL for a level outside ERR..DBG or a NULL, empty or
 * over-long (48+ chars) @module, or -ENOMEM when the table of pending
 * module levels is full.
 * Context: any thread.
 */
ETHDRV_EXPORT int ethdrv_log_set_level(const char *module, int level);

/**
 * ethdrv_log_parse_level() - map "err", "warn", "info" or "debug" to a level
 * @name: the level name
 *
 * Return: the level, or -EINVAL.
 */
ETHDRV_EXPORT int ethdrv_log_parse_level(const char *name);

/* Formats and emits one line if @mod's level allows it. Use the macros. */
ETHDRV_EXPORT void ethdrv__log(struct ethdrv_log_module *mod, int level,
			       const struct ethdrv_netdev *dev, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* True if this callsite may print now (10 lines per 5 s, like the kernel). */
ETHDRV_EXPORT bool ethdrv__ratelimit(struct ethdrv_ratelimit *rl);
/* True if @level passes @mod's current level (registers @mod on first use). */
ETHDRV_EXPORT bool ethdrv__log_enabled(struct ethdrv_log_module *mod, int level);

#define ETHDRV_LOG_MODULE(modname)                                                    \
	static struct ethdrv_log_module ethdrv__log_this_module = { .name = #modname, \
								    .level = ETHDRV_LOG_INFO }

#define ethdrv_log(level, dev, ...) \
	ethdrv__log(&ethdrv__log_this_module, (level), (dev), __VA_ARGS__)
#define ethdrv_err(dev, ...) ethdrv_log(ETHDRV_LOG_ERR, dev, __VA_ARGS__)
#define ethdrv_warn(dev, ...) ethdrv_log(ETHDRV_LOG_WARN, dev, __VA_ARGS__)
#define ethdrv_info(dev, ...) ethdrv_log(ETHDRV_LOG_INFO, dev, __VA_ARGS__)
#ifdef ETHDRV_DEBUG
#define ethdrv_dbg(dev, ...) ethdrv_log(ETHDRV_LOG_DBG, dev, __VA_ARGS__)
#else
#define ethdrv_dbg(dev, ...)                                          \
	do {                                                          \
		if (0)                                                \
			ethdrv_log(ETHDRV_LOG_DBG, dev, __VA_ARGS__); \
	} while (0)
#endif

#define ethdrv_log_ratelimited(level, dev, ...)                               \
	do {                                                                  \
		static struct ethdrv_ratelimit ethdrv__rl;                    \
		if (ethdrv__log_enabled(&ethdrv__log_this_module, (level)) && \
		    ethdrv__ratelimit(&ethdrv__rl))                           \
			ethdrv_log(level, dev, __VA_ARGS__);                  \
	} while (0)
#define ethdrv_err_ratelimited(dev, ...) ethdrv_log_ratelimited(ETHDRV_LOG_ERR, dev, __VA_ARGS__)
#define ethdrv_warn_ratelimited(dev, ...) ethdrv_log_ratelimited(ETHDRV_LOG_WARN, dev, __VA_ARGS__)

#endif /* ETHDRV_LOG_H */
