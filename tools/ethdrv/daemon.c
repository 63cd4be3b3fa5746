// SPDX-License-Identifier: MIT
/* Shared pieces of the long-running subcommands (daemon.h). */
#include "daemon.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <unistd.h>

#include "cli.h"
#include "ethdrv/log.h"

/* The signals that end a daemon. */
static void daemon_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

int daemon_block_signals(void)
{
	sigset_t set;

	daemon_sigset(&set);
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		return -errno;
	return -pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void daemon_on_signal(struct ethdrv_watch *w, unsigned events)
{
	struct daemon_signals *ds = w->data;
	struct signalfd_siginfo si;

	if (read(ds->fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return;
	ds->signo = (int)si.ssi_signo;
	ethdrv_loop_stop(w->loop);
}

int daemon_signals_start(struct ethdrv_loop *loop, struct daemon_signals *ds)
{
	sigset_t set;
	int err;

	daemon_sigset(&set);
	ds->signo = 0;
	ds->fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (ds->fd < 0)
		return -errno;
	ds->watch.data = ds;
	err = ethdrv_watch_start(loop, &ds->watch, ds->fd, ETHDRV_EV_READ, daemon_on_signal);
	if (err) {
		close(ds->fd);
		ds->fd = -1;
	}
	return err;
}

void daemon_signals_stop(struct daemon_signals *ds)
{
	if (ds->fd < 0)
		return;
	ethdrv_watch_stop(&ds->watch);
	close(ds->fd);
	ds->fd = -1;
}

int daemon_log_setup(bool use_syslog, const char *level, const char *cmd)
{
	int lvl = level ? ethdrv_log_parse_level(level) : 0;

	if (lvl < 0)
		return cli_error(cmd, "--log-level: bad value '%s': use err, warn, info or debug",
				 level);
	if (level)
		ethdrv_log_set_level(NULL, lvl);
	if (use_syslog) {
		openlog("ethdrv", LOG_PID, LOG_DAEMON);
		ethdrv_log_set_sink(ethdrv_log_sink_syslog, NULL);
	}
	return 0;
}

bool daemon_check_root(const char *cmd, const char *why)
{
	if (geteuid() == 0)
		return true;
	fprintf(stderr, "ethdrv %s: needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) %s: run with sudo\n",
		cmd, why);
	return false;
}

bool daemon_check_tun(const char *cmd)
{
	if (access("/dev/net/tun", R_OK | W_OK) == 0)
		return true;
	fprintf(stderr,
		"ethdrv %s: /dev/net/tun: %s: load the tun module (modprobe tun) or, in a "
		"container, pass the device in (--device /dev/net/tun)\n",
		cmd, strerror(errno));
	return false;
}
