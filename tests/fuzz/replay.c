/* SPDX-License-Identifier: MIT */
/*
 * Corpus replay: the main a fuzz target gets in builds without libFuzzer
 * (make check: gcc, ASan, UBSan). It runs the empty input, then every file
 * named on the command line or found in a directory named there, once each,
 * so a change that breaks a target's set-up or trips on a committed seed
 * fails ctest, not only the long fuzz run.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f) {
		fprintf(stderr, "replay: %s: cannot open\n", path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int replay_path(const char *path, unsigned *runs)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: no such file or directory\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*runs;
		return replay_file(path);
	}
	d = opendir(path);
	if (!d)
		return -1;
	while (!ret && (e = readdir(d))) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		ret = replay_path(sub, runs);
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned runs = 1;

	LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i], &runs))
			return 1;
	printf("replay: %u inputs, no failure\n", runs);
	return 0;
}
