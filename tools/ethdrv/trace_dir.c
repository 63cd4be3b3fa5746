// SPDX-License-Identifier: MIT
/*
 * Run-time SPI trace files confined to the directory chosen at start
 * (trace_dir.h).
 */
#define _GNU_SOURCE /* O_PATH */
#include "trace_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int trace_dir_open(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* True for a name that stays in the directory: one component, not "." or "..". */
static bool trace_dir_name_ok(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int trace_dir_create(int dirfd, const char *name, const char **why)
{
	struct stat st;
	int fd, err;

	if (dirfd < 0) {
		*why = "run-time traces need --trace-dir DIR at start (they are confined to DIR)";
		return -EPERM;
	}
	if (!trace_dir_name_ok(name)) {
		*why = "give a file name inside the trace directory (no '/', '.' or '..')";
		return -EACCES;
	}
	/* O_NOFOLLOW: a symbolic link fails with ELOOP; O_NONBLOCK: a FIFO
	 * without a reader fails instead of blocking the loop thread. */
	fd = openat(dirfd, name,
		    O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		    0600);
	if (fd < 0) {
		err = -errno;
		*why = err == -ELOOP ? "a symbolic link: refused" : NULL;
		return err;
	}
	/* A hard link would lead outside the directory as well as a symlink. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		*why = "not a regular file with a single link: refused";
		return -EACCES;
	}
	return fd;
}
