// SPDX-License-Identifier: MIT
/*
 * Run-time SPI trace files (tools/ethdrv/trace_dir.c): only plain names
 * inside the directory chosen at start are opened, for appending; a name
 * with '/', "." or "..", a symbolic link, a hard link, a FIFO or a
 * directory is refused, and nothing outside the directory is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "trace_dir.h"

struct td {
	char top[64]; /* a temporary directory holding the two below */
	char dir[96]; /* the trace directory */
	char outside[96]; /* a file outside it that must stay untouched */
	int dirfd;
};

static int setup(void **state)
{
	struct td *t = calloc(1, sizeof(*t));
	FILE *f;

	if (!t)
		return -1;
	snprintf(t->top, sizeof(t->top), "/tmp/ethdrv-test-trace.XXXXXX");
	if (!mkdtemp(t->top))
		return -1;
	snprintf(t->dir, sizeof(t->dir), "%s/traces", t->top);
	snprintf(t->outside, sizeof(t->outside), "%s/secret", t->top);
	if (mkdir(t->dir, 0700))
		return -1;
	f = fopen(t->outside, "w");
	if (!f || fputs("secret\n", f) < 0 || fclose(f))
		return -1;
	t->dirfd = trace_dir_open(t->dir);
	if (t->dirfd < 0)
		return -1;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct td *t = *state;
	char cmd[128];

	close(t->dirfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	if (system(cmd))
		return -1;
	free(t);
	return 0;
}

/* The outside file still holds only what setup() wrote. */
static void assert_outside_untouched(const struct td *t)
{
	char buf[64] = "";
	FILE *f = fopen(t->outside, "r");

	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), 7);
	fclose(f);
	assert_string_equal(buf, "secret\n");
}

/* The path of @name inside the trace directory. */
static void path_in(const struct td *t, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", t->dir, name);
}

static void test_no_directory_refuses(void **state)
{
	const char *why = NULL;

	assert_int_equal(trace_dir_create(-1, "x.trace", &why), -EPERM);
	assert_non_null(strstr(why, "--trace-dir"));
}

static void test_names_that_leave_the_directory(void **state)
{
	struct td *t = *state;
	static const char *const bad[] = { "", ".", "..", "../secret", "a/b", "/tmp/x", "./x" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;

		assert_int_equal(trace_dir_create(t->dirfd, bad[i], &why), -EACCES);
		assert_non_null(why);
	}
	assert_outside_untouched(t);
}

static void test_plain_name_created_0600_and_appended(void **state)
{
	struct td *t = *state;
	const char *why = NULL;
	char path[160], buf[16] = "";
	struct stat st;
	FILE *f;
	int fd;

	for (int i = 0; i < 2; i++) {
		fd = trace_dir_create(t->dirfd, "t1s0.trace", &why);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "ab", 2), 2);
		close(fd);
	}
	path_in(t, "t1s0.trace", path, sizeof(path));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), 4);
	fclose(f);
	assert_string_equal(buf, "abab"); /* appended, not truncated */
}

static void test_symbolic_link_refused(void **state)
{
	struct td *t = *state;
	const char *why = NULL;
	char path[160];

	path_in(t, "link", path, sizeof(path));
	assert_int_equal(symlink(t->outside, path), 0);
	assert_int_equal(trace_dir_create(t->dirfd, "link", &why), -ELOOP);
	assert_non_null(why);
	path_in(t, "dangling", path, sizeof(path));
	assert_int_equal(symlink("../new-file", path), 0);
	assert_int_equal(trace_dir_create(t->dirfd, "dangling", &why), -ELOOP);
	snprintf(path, sizeof(path), "%s/new-file", t->top);
	assert_int_equal(access(path, F_OK), -1); /* not created through the link */
	assert_outside_untouched(t);
}

static void test_hard_link_refused(void **state)
{
	struct td *t = *state;
	const char *why = NULL;
	char path[160];

	path_in(t, "hard", path, sizeof(path));
	assert_int_equal(link(t->outside, path), 0);
	assert_int_equal(trace_dir_create(t->dirfd, "hard", &why), -EACCES);
	assert_non_null(strstr(why, "single link"));
	assert_outside_untouched(t);
}

static void test_fifo_and_directory_refused(void **state)
{
	struct td *t = *state;
	const char *why = NULL;
	char path[160];

	path_in(t, "fifo", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0600), 0);
	/* No reader: fails at once instead of blocking the caller. */
	assert_true(trace_dir_create(t->dirfd, "fifo", &why) < 0);
	path_in(t, "sub", path, sizeof(path));
	assert_int_equal(mkdir(path, 0700), 0);
	assert_true(trace_dir_create(t->dirfd, "sub", &why) < 0);
}

/* The fd chosen at start stays the directory even if its path is renamed. */
static void test_directory_pinned_at_start(void **state)
{
	struct td *t = *state;
	const char *why = NULL;
	char moved[128], path[160];
	int fd;

	snprintf(moved, sizeof(moved), "%s/moved", t->top);
	assert_int_equal(rename(t->dir, moved), 0);
	assert_int_equal(mkdir(t->dir, 0700), 0);
	fd = trace_dir_create(t->dirfd, "x.trace", &why);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/x.trace", moved);
	assert_int_equal(access(path, F_OK), 0);
	path_in(t, "x.trace", path, sizeof(path));
	assert_int_equal(access(path, F_OK), -1);
}

static void test_open_refuses_a_file(void **state)
{
	struct td *t = *state;

	assert_int_equal(trace_dir_open(t->outside), -ENOTDIR);
	assert_int_equal(trace_dir_open("/nonexistent/ethdrv"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_directory_refuses),
		cmocka_unit_test_setup_teardown(test_names_that_leave_the_directory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_plain_name_created_0600_and_appended, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_symbolic_link_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_link_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_and_directory_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_pinned_at_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_refuses_a_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
