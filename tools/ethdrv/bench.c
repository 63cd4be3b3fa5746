// SPDX-License-Identifier: MIT
/*
 * `ethdrv bench NAME [ARGS...]`: run the system benchmark bench/NAME.py of
 * the source tree (docs/design.md §3, §7) with python3. The benchmark gets
 * the path of this binary in ETHDRV_BIN and the command line as typed in
 * ETHDRV_BENCH_CMD (it records both with its results). The source tree is
 * the one this binary was built from (ETHDRV_SOURCE_DIR, a compile
 * definition); the environment variable of the same name overrides it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"

#ifndef ETHDRV_SOURCE_DIR
#define ETHDRV_SOURCE_DIR "."
#endif

#define BENCH_NAME_MAX 64
#define BENCH_CMD_MAX 4096

/* The source tree holding bench/. */
static const char *bench_source_dir(void)
{
	const char *env = getenv("ETHDRV_SOURCE_DIR");

	return env && *env ? env : ETHDRV_SOURCE_DIR;
}

/* True for a benchmark script name: [a-z0-9-]+ (the library has a '_'). */
static bool bench_name_ok(const char *name, size_t len)
{
	if (!len || len >= BENCH_NAME_MAX)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == len;
}

/*
 * The summary of a script, for the list: the first line of its docstring,
 * which opens the file with three quotes of either kind. A one-line
 * docstring closes on the same line: the summary ends before the closing
 * quotes. "" when the script has no docstring.
 */
static void bench_summary(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[256] = "";
	const char *quotes;
	char *end;

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		quotes = !strncmp(line, "\"\"\"", 3) ? "\"\"\"" :
			 !strncmp(line, "'''", 3)    ? "'''" :
						       NULL;
		line[strcspn(line, "\r\n")] = '\0';
		end = quotes ? strstr(line + 3, quotes) : NULL;
		if (end)
			*end = '\0';
		if (quotes)
			snprintf(buf, size, "%s", line + 3);
	}
	fclose(f);
}

static int bench_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print the benchmarks found in bench/ to @out; their number. */
static unsigned bench_list(FILE *out)
{
	char dir[PATH_MAX], path[PATH_MAX + BENCH_NAME_MAX], sum[256], *names[64];
	struct dirent *de;
	unsigned n = 0, i;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/bench", bench_source_dir());
	d = opendir(dir);
	while (d && (de = readdir(d)) && n < 64) {
		size_t len = strlen(de->d_name);

		if (len > 3 && !strcmp(de->d_name + len - 3, ".py") &&
		    bench_name_ok(de->d_name, len - 3) && (names[n] = strndup(de->d_name, len - 3)))
			n++;
	}
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), bench_cmp);
	fprintf(out, "Benchmarks in %s:\n", dir);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.py", dir, names[i]);
		bench_summary(path, sum, sizeof(sum));
		fprintf(out, "  %-18s %s\n", names[i], sum);
		free(names[i]);
	}
	if (!n)
		fprintf(out, "  (none found)\n");
	return n;
}

static const char bench_usage[] =
	"usage: ethdrv bench NAME [ARGS...]\n"
	"\n"
	"Run the system benchmark NAME (bench/NAME.py, with python3; needs root).\n"
	"It shows a progress bar on stderr and writes bench/results/NAME.md (the\n"
	"table, the machine, the date, the exact command) and NAME.png (gnuplot).\n"
	"Defaults reproduce the committed results; `ethdrv bench NAME --help`\n"
	"lists a benchmark's options.\n"
	"\n";

/* Append @s to @buf shell-quoted ('...' with ' as '\''). */
static void bench_quote(char *buf, size_t size, const char *s)
{
	size_t used = strlen(buf);
	bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789-_=.,:/+@%") == strlen(s);

	used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "", plain ? s : "'");
	for (; !plain && *s && used < size - 5; s++)
		used += (size_t)snprintf(buf + used, size - used, "%s",
					 *s == '\'' ? "'\\''" : (char[]){ *s, 0 });
	if (!plain && used < size - 1)
		snprintf(buf + used, size - used, "'");
}

/* Export ETHDRV_BIN and ETHDRV_BENCH_CMD for the script. */
static int bench_export(int argc, char **argv)
{
	char exe[PATH_MAX], cmd[BENCH_CMD_MAX] = "ethdrv";
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	if (len <= 0)
		return -errno;
	exe[len] = '\0';
	for (i = 0; i < argc; i++)
		bench_quote(cmd, sizeof(cmd), argv[i]);
	if (setenv("ETHDRV_BIN", exe, 1) || setenv("ETHDRV_BENCH_CMD", cmd, 1))
		return -errno;
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	char path[PATH_MAX];
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name || cli_is_help(name)) {
		fputs(bench_usage, name ? stdout : stderr);
		bench_list(name ? stdout : stderr);
		return name ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/bench/%s.py", bench_source_dir(), name);
	if (!bench_name_ok(name, strlen(name)) || access(path, R_OK)) {
		fprintf(stderr, "ethdrv bench: unknown benchmark '%s'\n", name);
		bench_list(stderr);
		return CLI_EXIT_USAGE;
	}
	if (bench_export(argc, argv)) {
		fprintf(stderr, "ethdrv bench: cannot set the environment: %s\n", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	argv[0] = (char *)"python3";
	argv[1] = path;
	execvp("python3", argv);
	fprintf(stderr, "ethdrv bench: cannot run python3: %s\n", strerror(errno));
	return CLI_EXIT_FAIL;
}
