/* SPDX-License-Identifier: MIT */
/*
 * The directory that run-time SPI traces may write to (docs/design.md §3).
 * `ethdrv set IFNAME spi_trace=NAME` comes over the control socket, so the
 * daemon (root) must not append to whatever path a client names: root
 * chooses a directory at start (`--trace-dir DIR` of segment and up), and
 * a run-time trace is a plain file name opened relative to that
 * directory's fd, never through a symbolic link, and only as a regular
 * file with a single link. Without a directory, run-time traces are
 * refused. Traces chosen at start (`--spi-trace FILE`, `--set
 * spi_trace=FILE`) are root's own choice and not confined.
 */
#ifndef ETHDRV_TOOLS_TRACE_DIR_H
#define ETHDRV_TOOLS_TRACE_DIR_H

/**
 * trace_dir_open() - open the trace directory chosen at start
 * @path: the directory
 *
 * The fd pins the directory: renaming or replacing @path later does not
 * move where traces go.
 *
 * Return: an O_PATH directory fd, or -errno (-ENOTDIR for a non-directory).
 */
int trace_dir_open(const char *path);

/**
 * trace_dir_create() - open a trace file inside the directory, for appending
 * @dirfd: from trace_dir_open(), or -1 when none was chosen at start
 * @name: a plain file name: no '/', not "." or "..", created 0600 if missing
 * @why: on failure, pointed at a static text saying why
 *
 * Return: a writable O_APPEND fd, or -EPERM (no directory chosen at start),
 * -EACCES (a name that would leave the directory, or not a regular file
 * with a single link), -ELOOP (a symbolic link), or the -errno of openat.
 */
int trace_dir_create(int dirfd, const char *name, const char **why);

#endif /* ETHDRV_TOOLS_TRACE_DIR_H */
