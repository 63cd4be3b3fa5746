// SPDX-License-Identifier: MIT
/* Unit tests for the log module: format, per-module levels, sinks, rate limits. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/log_priv.h"
#include "ethdrv/driver.h"
#include "ethdrv/log.h"

ETHDRV_LOG_MODULE(test_log);

/* Extra modules; each is used by one test only, so its first use is known. */
static struct ethdrv_log_module mod_b = { .name = "test_b", .level = ETHDRV_LOG_INFO };
static struct ethdrv_log_module mod_star = { .name = "test_star", .level = ETHDRV_LOG_INFO };
static struct ethdrv_log_module mod_pending = { .name = "test_pending", .level = ETHDRV_LOG_INFO };

#define CAP_LINES 16

/* What the capturing sink has seen. */
struct capture {
	pthread_mutex_t lock; /* protects everything below */
	unsigned lines; /* lines received */
	unsigned suppressed; /* sum of N in "N messages suppressed" lines */
	unsigned suppressed_lines; /* number of such lines */
	int level[CAP_LINES]; /* first CAP_LINES lines */
	char module[CAP_LINES][32];
	char text[CAP_LINES][600];
};

static struct capture cap = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void capture_sink(void *arg, int level, const char *module, const char *line)
{
	struct capture *c = arg;
	unsigned n;

	pthread_mutex_lock(&c->lock);
	if (!strcmp(module, ETHDRV__RATELIMIT_MODULE) &&
	    sscanf(line, "%u messages suppressed", &n) == 1) {
		c->suppressed += n;
		c->suppressed_lines++;
	}
	if (c->lines < CAP_LINES) {
		c->level[c->lines] = level;
		snprintf(c->module[c->lines], sizeof(c->module[0]), "%s", module);
		snprintf(c->text[c->lines], sizeof(c->text[0]), "%s", line);
	}
	c->lines++;
	pthread_mutex_unlock(&c->lock);
}

static int setup(void **state)
{
	pthread_mutex_lock(&cap.lock);
	cap.lines = cap.suppressed = cap.suppressed_lines = 0;
	pthread_mutex_unlock(&cap.lock);
	ethdrv_log_set_sink(capture_sink, &cap);
	return ethdrv_log_set_level("*", ETHDRV_LOG_INFO);
}

static int teardown(void **state)
{
	ethdrv_log_set_sink(NULL, NULL);
	return ethdrv_log_set_level("*", ETHDRV_LOG_INFO);
}

static void test_format_dev_and_no_dev(void **state)
{
	static struct ethdrv_netdev dev;

	snprintf(dev.name, sizeof(dev.name), "t1s0");
	ethdrv_err(&dev, "rx overflow: %d", -5);
	ethdrv_warn(NULL, "no device");
	assert_int_equal(cap.lines, 2);
	assert_int_equal(cap.level[0], ETHDRV_LOG_ERR);
	assert_string_equal(cap.module[0], "test_log");
	assert_string_equal(cap.text[0], "t1s0: rx overflow: -5");
	assert_int_equal(cap.level[1], ETHDRV_LOG_WARN);
	assert_string_equal(cap.text[1], "no device");
}

/* Points @fd at a new temporary file; returns the saved original. */
static int redirect_fd(int fd, FILE **tmp)
{
	int saved = dup(fd);

	*tmp = tmpfile();
	assert_non_null(*tmp);
	fflush(NULL);
	assert_int_equal(dup2(fileno(*tmp), fd), fd);
	return saved;
}

/* Restores @fd and returns what was written to it (at most @size - 1 bytes). */
static void restore_fd(int fd, int saved, FILE *tmp, char *buf, size_t size)
{
	size_t n;

	fflush(NULL);
	assert_int_equal(dup2(saved, fd), fd);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, size - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

static void test_default_sink_stderr_only(void **state)
{
	static struct ethdrv_netdev dev;
	char err_text[256], out_text[256];
	FILE *err_tmp, *out_tmp;
	int err_fd, out_fd;

	snprintf(dev.name, sizeof(dev.name), "t1s0");
	ethdrv_log_set_sink(NULL, NULL);
	err_fd = redirect_fd(STDERR_FILENO, &err_tmp);
	out_fd = redirect_fd(STDOUT_FILENO, &out_tmp);
	ethdrv_err(&dev, "rx overflow");
	ethdrv_info(NULL, "up");
	restore_fd(STDOUT_FILENO, out_fd, out_tmp, out_text, sizeof(out_text));
	restore_fd(STDERR_FILENO, err_fd, err_tmp, err_text, sizeof(err_text));
	assert_string_equal(err_text, "ethdrv: err: test_log: t1s0: rx overflow\n"
				      "ethdrv: info: test_log: up\n");
	assert_string_equal(out_text, "");
}

static void test_long_line_truncated(void **state)
{
	char big[1000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ethdrv_err(NULL, "%s", big);
	assert_int_equal(cap.lines, 1);
	assert_int_equal(strlen(cap.text[0]), 511);
	assert_int_equal(cap.text[0][510], 'x');
}

static void test_level_per_module(void **state)
{
	ethdrv_info(NULL, "default info passes");
	ethdrv_log(ETHDRV_LOG_DBG, NULL, "debug is below the default");
	assert_int_equal(cap.lines, 1);

	assert_int_equal(ethdrv_log_set_level("test_log", ETHDRV_LOG_ERR), 0);
	ethdrv_warn(NULL, "dropped");
	ethdrv_err(NULL, "kept");
	ethdrv__log(&mod_b, ETHDRV_LOG_INFO, NULL, "other module unaffected");
	assert_int_equal(cap.lines, 3);
	assert_string_equal(cap.text[1], "kept");
	assert_string_equal(cap.module[2], "test_b");

	assert_int_equal(ethdrv_log_set_level("test_log", ETHDRV_LOG_DBG), 0);
	ethdrv_log(ETHDRV_LOG_DBG, NULL, "debug now");
	assert_int_equal(cap.lines, 4);
	assert_int_equal(cap.level[3], ETHDRV_LOG_DBG);
}

static void test_star_sets_all_and_default(void **state)
{
	ethdrv_info(NULL, "registers test_log");
	assert_int_equal(ethdrv_log_set_level("test_log", ETHDRV_LOG_DBG), 0);
	assert_int_equal(ethdrv_log_set_level("*", ETHDRV_LOG_ERR), 0);
	/* A registered module and one that registers afterwards both follow "*". */
	assert_false(ethdrv__log_enabled(&ethdrv__log_this_module, ETHDRV_LOG_WARN));
	assert_false(ethdrv__log_enabled(&mod_star, ETHDRV_LOG_WARN));
	assert_true(ethdrv__log_enabled(&mod_star, ETHDRV_LOG_ERR));
	assert_int_equal(__atomic_load_n(&mod_star.level, __ATOMIC_RELAXED), ETHDRV_LOG_ERR);
	assert_int_equal(ethdrv_log_set_level("*", ETHDRV_LOG_INFO), 0);
	assert_true(ethdrv__log_enabled(&mod_star, ETHDRV_LOG_WARN));
}

static void test_pending_level_at_registration(void **state)
{
	assert_int_equal(__atomic_load_n(&mod_pending.registered, __ATOMIC_RELAXED), 0);
	assert_int_equal(ethdrv_log_set_level("test_pending", ETHDRV_LOG_DBG), 0);
	/* Still unregistered: its static level is untouched until first use. */
	assert_int_equal(mod_pending.level, ETHDRV_LOG_INFO);
	ethdrv__log(&mod_pending, ETHDRV_LOG_DBG, NULL, "picked up");
	assert_int_equal(mod_pending.registered, 1);
	assert_int_equal(mod_pending.level, ETHDRV_LOG_DBG);
	assert_int_equal(cap.lines, 1);
	assert_string_equal(cap.module[0], "test_pending");
}

static void test_set_level_errors(void **state)
{
	char name[32];
	unsigned i;

	assert_int_equal(ethdrv_log_set_level("test_log", 2), -EINVAL);
	assert_int_equal(ethdrv_log_set_level("test_log", 8), -EINVAL);
	assert_int_equal(ethdrv_log_set_level(NULL, ETHDRV_LOG_ERR), -EINVAL);
	assert_int_equal(ethdrv_log_set_level("", ETHDRV_LOG_ERR), -EINVAL);
	/* setup's "*" emptied the table of levels set by name. */
	for (i = 0; i < 64; i++) {
		snprintf(name, sizeof(name), "pending_%u", i);
		assert_int_equal(ethdrv_log_set_level(name, ETHDRV_LOG_WARN), 0);
	}
	assert_int_equal(ethdrv_log_set_level("one_too_many", ETHDRV_LOG_WARN), -ENOMEM);
	assert_int_equal(ethdrv_log_set_level("pending_7", ETHDRV_LOG_ERR), 0);
}

static void test_parse_level(void **state)
{
	assert_int_equal(ethdrv_log_parse_level("err"), ETHDRV_LOG_ERR);
	assert_int_equal(ethdrv_log_parse_level("error"), ETHDRV_LOG_ERR);
	assert_int_equal(ethdrv_log_parse_level("warn"), ETHDRV_LOG_WARN);
	assert_int_equal(ethdrv_log_parse_level("warning"), ETHDRV_LOG_WARN);
	assert_int_equal(ethdrv_log_parse_level("info"), ETHDRV_LOG_INFO);
	assert_int_equal(ethdrv_log_parse_level("debug"), ETHDRV_LOG_DBG);
	assert_int_equal(ethdrv_log_parse_level("dbg"), ETHDRV_LOG_DBG);
	assert_int_equal(ethdrv_log_parse_level("DEBUG"), ETHDRV_LOG_DBG);
	assert_int_equal(ethdrv_log_parse_level("verbose"), -EINVAL);
	assert_int_equal(ethdrv_log_parse_level(""), -EINVAL);
	assert_int_equal(ethdrv_log_parse_level(NULL), -EINVAL);
}

static void test_ratelimit_window(void **state)
{
	const uint64_t t0 = 1000, iv = ETHDRV__RATELIMIT_INTERVAL_NS;
	struct ethdrv_ratelimit rl = { 0 };
	unsigned ok = 0;

	for (unsigned i = 0; i < 15; i++)
		ok += ethdrv__ratelimit_at(&rl, t0 + i);
	assert_int_equal(ok, 10);
	assert_false(ethdrv__ratelimit_at(&rl, t0 + iv - 1)); /* still the first window */
	assert_int_equal(cap.lines, 0);

	assert_true(ethdrv__ratelimit_at(&rl, t0 + iv)); /* new window: report once */
	assert_int_equal(cap.lines, 1);
	assert_int_equal(cap.level[0], ETHDRV_LOG_WARN);
	assert_string_equal(cap.module[0], "ratelimit");
	assert_string_equal(cap.text[0], "6 messages suppressed");
	assert_true(ethdrv__ratelimit_at(&rl, t0 + iv + 1));
	assert_int_equal(cap.lines, 1);

	/* A window without suppressions reports nothing when it ends. */
	assert_true(ethdrv__ratelimit_at(&rl, t0 + 3 * iv));
	assert_int_equal(cap.lines, 1);
}

static void test_ratelimit_macro(void **state)
{
	/* 25 calls take microseconds; the window is 5 s. */
	for (int i = 0; i < 25; i++)
		ethdrv_err_ratelimited(NULL, "burst %d", i);
	assert_int_equal(cap.lines, 10);
	assert_string_equal(cap.text[9], "burst 9");
}

#define RL_THREADS 4
#define RL_CALLS 2000
#define RL_STEP_NS 1000000ull /* fake time advances 1 ms per call: 8 s in all */

static struct ethdrv_ratelimit rl_shared;
static uint64_t rl_clock = 1; /* fake CLOCK_MONOTONIC, atomic */

static void *ratelimit_thread(void *arg)
{
	unsigned *passed = arg;

	for (int i = 0; i < RL_CALLS; i++) {
		uint64_t now = __atomic_fetch_add(&rl_clock, RL_STEP_NS, __ATOMIC_RELAXED);

		if (ethdrv__ratelimit_at(&rl_shared, now)) {
			ethdrv_err(NULL, "threaded error %d", i);
			(*passed)++;
		}
	}
	return NULL;
}

static void test_ratelimit_threads(void **state)
{
	pthread_t th[RL_THREADS];
	unsigned passed[RL_THREADS] = { 0 }, total = 0;

	for (int i = 0; i < RL_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, ratelimit_thread, &passed[i]), 0);
	for (int i = 0; i < RL_THREADS; i++) {
		pthread_join(th[i], NULL);
		total += passed[i];
	}
	/* Times span [1, 1 + 8 s): exactly two windows of 10 each. */
	assert_int_equal(total, 20);
	/* One more call after the last window flushes its count. */
	assert_true(ethdrv__ratelimit_at(&rl_shared, rl_clock + 2 * ETHDRV__RATELIMIT_INTERVAL_NS));
	assert_int_equal(cap.suppressed_lines, 2);
	assert_int_equal(total + cap.suppressed, RL_THREADS * RL_CALLS);
	assert_int_equal(cap.lines, total + cap.suppressed_lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_format_dev_and_no_dev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_sink_stderr_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_line_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_level_per_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_star_sets_all_and_default, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_level_at_registration, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_set_level_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_level, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ratelimit_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ratelimit_macro, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ratelimit_threads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
