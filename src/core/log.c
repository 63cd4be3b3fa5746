// SPDX-License-Identifier: MIT
/*
 * Logging (docs/style.md S5): modules register lazily on first use, levels can be
 * set before or after that, lines go to a replaceable sink (stderr by
 * default, never stdout), and datapath callsites are rate-limited.
 *
 * A line handed to the sink is "<devname>: <message>" (or just the message
 * without a device); the sink adds the module name, so the whole reads
 * "oa_tc6: t1s0: rx overflow".
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <time.h>
#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "log_priv.h"

#define LOG_LINE_MAX 512 /* longer lines are truncated */
#define LOG_NAME_MAX 48 /* longest module name a pending level can hold, with NUL */
#define LOG_PENDING_MAX 64 /* module levels set by name */

/* A level set by name; applies to registered and future modules of that name. */
struct log_pending {
	char name[LOG_NAME_MAX];
	int level;
};

static void log_sink_stderr(void *arg, int level, const char *module, const char *line);

/* log_lock protects the module list, the pending table, the default level
 * and the sink pair; module->level and ->registered are also read lock-free. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ethdrv_log_module *log_modules; /* registered modules */
static struct log_pending log_pending[LOG_PENDING_MAX]; /* levels set by name */
static unsigned log_npending; /* used entries of log_pending */
static int log_default_level = ETHDRV_LOG_INFO; /* for modules never named */
static ethdrv_log_sink_fn log_sink = log_sink_stderr; /* where lines go */
static void *log_sink_arg; /* its argument */

/* Serialises every ratelimit state; only error paths take it. */
static pthread_mutex_t log_rl_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *log_level_tag(int level)
{
	switch (level) {
	case ETHDRV_LOG_ERR:
		return "err";
	case ETHDRV_LOG_WARN:
		return "warn";
	case ETHDRV_LOG_INFO:
		return "info";
	case ETHDRV_LOG_DBG:
		return "debug";
	default:
		return "notice";
	}
}

static void log_sink_stderr(void *arg, int level, const char *module, const char *line)
{
	fprintf(stderr, "ethdrv: %s: %s: %s\n", log_level_tag(level), module, line);
}

ETHDRV_EXPORT void ethdrv_log_sink_syslog(void *arg, int level, const char *module,
					  const char *line)
{
	syslog(level, "%s: %s", module, line);
}

ETHDRV_EXPORT void ethdrv_log_set_sink(ethdrv_log_sink_fn fn, void *arg)
{
	pthread_mutex_lock(&log_lock);
	log_sink = fn ? fn : log_sink_stderr;
	log_sink_arg = fn ? arg : NULL;
	pthread_mutex_unlock(&log_lock);
}

/* Hands a finished line to the current sink (called without any lock held). */
static void log_emit(int level, const char *module, const char *line)
{
	ethdrv_log_sink_fn fn;
	void *arg;

	pthread_mutex_lock(&log_lock);
	fn = log_sink;
	arg = log_sink_arg;
	pthread_mutex_unlock(&log_lock);
	fn(arg, level, module, line);
}

/* The level a module called @name gets when it registers. Caller holds log_lock. */
static int log_level_for(const char *name)
{
	for (unsigned i = 0; i < log_npending; i++)
		if (!strcmp(log_pending[i].name, name))
			return log_pending[i].level;
	return log_default_level;
}

static void log_register(struct ethdrv_log_module *mod)
{
	pthread_mutex_lock(&log_lock);
	if (!__atomic_load_n(&mod->registered, __ATOMIC_RELAXED)) {
		__atomic_store_n(&mod->level, log_level_for(mod->name), __ATOMIC_RELAXED);
		mod->next = log_modules;
		log_modules = mod;
		__atomic_store_n(&mod->registered, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&log_lock);
}

ETHDRV_EXPORT bool ethdrv__log_enabled(struct ethdrv_log_module *mod, int level)
{
	if (ethdrv_unlikely(!__atomic_load_n(&mod->registered, __ATOMIC_ACQUIRE)))
		log_register(mod);
	return level <= __atomic_load_n(&mod->level, __ATOMIC_RELAXED);
}

/* Records @level for @name (updating an existing entry). Caller holds log_lock. */
static int log_pending_set(const char *name, int level)
{
	unsigned i;

	for (i = 0; i < log_npending; i++)
		if (!strcmp(log_pending[i].name, name))
			break;
	if (i == LOG_PENDING_MAX)
		return -ENOMEM;
	if (i == log_npending) {
		strcpy(log_pending[i].name, name);
		log_npending++;
	}
	log_pending[i].level = level;
	return 0;
}

/*
 * "*" is last-writer-wins for everything: it becomes the default, overrides
 * every registered module and forgets earlier per-name levels, so the result
 * does not depend on whether a module had registered yet.
 */
ETHDRV_EXPORT int ethdrv_log_set_level(const char *module, int level)
{
	bool all = module && !strcmp(module, "*");
	int err = 0;

	if (level < ETHDRV_LOG_ERR || level > ETHDRV_LOG_DBG || !module || !*module ||
	    strlen(module) >= LOG_NAME_MAX)
		return -EINVAL;
	pthread_mutex_lock(&log_lock);
	if (all) {
		log_default_level = level;
		log_npending = 0;
	} else {
		err = log_pending_set(module, level);
	}
	for (struct ethdrv_log_module *m = log_modules; m && !err; m = m->next)
		if (all || !strcmp(m->name, module))
			__atomic_store_n(&m->level, level, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&log_lock);
	return err;
}

ETHDRV_EXPORT int ethdrv_log_parse_level(const char *name)
{
	static const struct {
		const char *name;
		int level;
	} names[] = {
		{ "err", ETHDRV_LOG_ERR },   { "error", ETHDRV_LOG_ERR },
		{ "warn", ETHDRV_LOG_WARN }, { "warning", ETHDRV_LOG_WARN },
		{ "info", ETHDRV_LOG_INFO }, { "debug", ETHDRV_LOG_DBG },
		{ "dbg", ETHDRV_LOG_DBG },
	};

	for (size_t i = 0; name && i < ETHDRV_ARRAY_SIZE(names); i++)
		if (!strcasecmp(name, names[i].name))
			return names[i].level;
	return -EINVAL;
}

ETHDRV_EXPORT void ethdrv__log(struct ethdrv_log_module *mod, int level,
			       const struct ethdrv_netdev *dev, const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	size_t n = 0;
	va_list ap;

	if (!ethdrv__log_enabled(mod, level))
		return;
	if (dev)
		n = ETHDRV_MIN((size_t)snprintf(line, sizeof(line),
						"%.*s: ", (int)sizeof(dev->name), dev->name),
			       sizeof(line) - 1);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap); /* truncates safely */
	va_end(ap);
	log_emit(level, mod->name, line);
}

ETHDRV_EXPORT bool ethdrv__ratelimit(struct ethdrv_ratelimit *rl)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ethdrv__ratelimit_at(rl, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

/*
 * Kernel-like: at most BURST messages per INTERVAL per callsite. The first
 * call after an interval that suppressed messages reports how many, once.
 * A @now_ns earlier than the interval start (threads racing) counts as
 * inside it.
 */
bool ethdrv__ratelimit_at(struct ethdrv_ratelimit *rl, uint64_t now_ns)
{
	unsigned missed = 0;
	char line[64];
	bool ok;

	pthread_mutex_lock(&log_rl_lock);
	if (!rl->begin_ns)
		rl->begin_ns = now_ns;
	if (now_ns >= rl->begin_ns + ETHDRV__RATELIMIT_INTERVAL_NS) {
		missed = rl->missed;
		rl->begin_ns = now_ns;
		rl->printed = 0;
		rl->missed = 0;
	}
	ok = rl->printed < ETHDRV__RATELIMIT_BURST;
	if (ok)
		rl->printed++;
	else
		rl->missed++;
	pthread_mutex_unlock(&log_rl_lock);
	if (missed) {
		snprintf(line, sizeof(line), "%u messages suppressed", missed);
		log_emit(ETHDRV_LOG_WARN, ETHDRV__RATELIMIT_MODULE, line);
	}
	return ok;
}
