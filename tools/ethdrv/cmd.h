/* SPDX-License-Identifier: MIT */
/*
 * The subcommands of the ethdrv command (docs/design.md §3) and the option
 * helpers they share. Each returns an exit code: CLI_EXIT_OK, CLI_EXIT_FAIL
 * or CLI_EXIT_USAGE (cli.h); argv[0] is the subcommand's name.
 */
#ifndef ETHDRV_TOOLS_CMD_H
#define ETHDRV_TOOLS_CMD_H

#include <getopt.h>

/** cmd_segment() - `ethdrv segment`: N nodes on one emulated PLCA segment. */
int cmd_segment(int argc, char **argv);

/** cmd_up() - `ethdrv up DEVICE`: one interface on a board or a model. */
int cmd_up(int argc, char **argv);

/** cmd_stats() - `ethdrv stats [IFNAME] [--json]`. */
int cmd_stats(int argc, char **argv);

/** cmd_set() - `ethdrv set IFNAME KEY=VALUE...`. */
int cmd_set(int argc, char **argv);

/** cmd_get() - `ethdrv get IFNAME KEY...`. */
int cmd_get(int argc, char **argv);

/** cmd_info() - `ethdrv info IFNAME`: what the interface is (device, chip, SPI, lines). */
int cmd_info(int argc, char **argv);

/** cmd_bench() - `ethdrv bench NAME [ARGS...]`: run bench/NAME.py. */
int cmd_bench(int argc, char **argv);

/** cmd_phy() - `ethdrv phy IFNAME [read REG | write REG VAL | c45 ...]` (phy.c). */
int cmd_phy(int argc, char **argv);

/** cmd_plca() - `ethdrv plca IFNAME [set WORD VALUE...]`, ethtool's PLCA layout (plca.c). */
int cmd_plca(int argc, char **argv);

/**
 * cmd_client_call() - send @req to @ifname's control socket (client.c)
 * @cmd: the subcommand, for messages
 * @ifname: the interface
 * @req: the request line, without '\n'
 * @reply: receives the reply on success; free() it
 * @body: receives the text after "ok\n"
 *
 * Return: CLI_EXIT_OK, or CLI_EXIT_FAIL with the reason printed (nobody
 * serves the socket, permission, or the server's "error ..." line).
 */
int cmd_client_call(const char *cmd, const char *ifname, const char *req, char **reply,
		    const char **body);

/**
 * cmd_getopt() - getopt_long() without getopt's own messages
 * @argc: argument count
 * @argv: arguments
 * @shortopts: as for getopt_long(); a ':' is prepended
 * @longopts: as for getopt_long()
 *
 * Return: as getopt_long(); '?' for an unknown option and ':' for a
 * missing argument, then cmd_bad_option() says which.
 */
int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

/**
 * cmd_bad_option() - print which option was bad and the accepted ones
 * @cmd: the subcommand
 * @argv: the arguments getopt walked
 * @accepted: the accepted options, for the message
 *
 * Return: CLI_EXIT_USAGE.
 */
int cmd_bad_option(const char *cmd, char **argv, const char *accepted);

/*
 * What the daemon subcommands (segment, up) share: --set, --syslog,
 * --log-level, --trace-dir, --rt-prio.
 */
struct cmd_common {
	struct cli_knob *knobs; /* where --set knobs go (CLI_KNOBS_MAX entries) */
	unsigned *knob_count; /* entries used in knobs */
	bool use_syslog; /* --syslog */
	const char *log_level; /* --log-level or NULL */
	const char *trace_dir; /* --trace-dir or NULL (trace_dir.h) */
	unsigned rt_prio; /* --rt-prio, 0 = none (rt.h) */
};

/**
 * cmd_common_option() - handle a shared option ('s' --set, 'S' --syslog,
 * 'L' --log-level, 'D' --trace-dir, 'R' --rt-prio)
 * @cmd: the subcommand, for messages
 * @c: the option cmd_getopt() returned
 * @co: where the values go
 *
 * Return: CLI_EXIT_OK, CLI_EXIT_USAGE for a bad value, or -1 if @c is not a
 * shared option.
 */
int cmd_common_option(const char *cmd, int c, struct cmd_common *co);

#endif /* ETHDRV_TOOLS_CMD_H */
