/* SPDX-License-Identifier: MIT */
/*
 * What the long-running subcommands (segment, up) share: log routing,
 * signal handling on the main thread's loop, privilege checks.
 */
#ifndef ETHDRV_TOOLS_DAEMON_H
#define ETHDRV_TOOLS_DAEMON_H

#include <stdbool.h>

#include "ethdrv/loop.h"

/* The main thread's signal watcher: SIGINT, SIGTERM and SIGHUP stop its loop. */
struct daemon_signals {
	int fd; /* signalfd, -1 when closed */
	struct ethdrv_watch watch; /* on fd */
	int signo; /* the signal that stopped the loop, 0 if none */
};

/**
 * daemon_block_signals() - block SIGINT/SIGTERM/SIGHUP and ignore SIGPIPE
 *
 * Call before any thread is created, so that every thread inherits the
 * mask and only the signalfd of the main thread takes the signals.
 *
 * Return: 0 or -errno.
 */
int daemon_block_signals(void);

/**
 * daemon_signals_start() - stop @loop when one of the blocked signals arrives
 * @loop: the main thread's loop
 * @ds: caller-owned state
 *
 * Return: 0 or -errno.
 */
int daemon_signals_start(struct ethdrv_loop *loop, struct daemon_signals *ds);

/** daemon_signals_stop() - stop watching and close the signalfd. */
void daemon_signals_stop(struct daemon_signals *ds);

/**
 * daemon_log_setup() - route library logs to syslog (ident "ethdrv") or stderr
 * @use_syslog: true for syslog
 * @level: a level name ("err", "warn", "info", "debug") or NULL for the default
 * @cmd: the subcommand, for the error message
 *
 * Return: 0 or -EINVAL for a bad level (message printed).
 */
int daemon_log_setup(bool use_syslog, const char *level, const char *cmd);

/**
 * daemon_check_root() - print why @cmd needs root and return false without it
 * @cmd: the subcommand
 * @why: what root is needed for ("to create namespaces")
 */
bool daemon_check_root(const char *cmd, const char *why);

/** daemon_check_tun() - false (message printed) if /dev/net/tun is missing. */
bool daemon_check_tun(const char *cmd);

#endif /* ETHDRV_TOOLS_DAEMON_H */
