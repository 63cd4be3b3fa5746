// SPDX-License-Identifier: MIT
/*
 * The knob commands: `ethdrv set IFNAME key=value...`, `ethdrv get IFNAME
 * key...` and `ethdrv get IFNAME --list`, each one request on the
 * interface's control socket (ctl.h); `ethdrv set --help` lists the knobs
 * from their tables (knob_help.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "ctl.h"
#include "knob_help.h"

static const char set_usage[] =
	"usage: ethdrv set IFNAME KEY=VALUE...\n"
	"\n"
	"Change knobs of a running interface, in order; the first failure stops, and\n"
	"a bad value is answered with the values the knob accepts. The knobs of one\n"
	"interface, with their values: `ethdrv get IFNAME --list`. Every frame a\n"
	"fault costs is counted (`ethdrv stats`: rx_drop_*, tx_aborted_*,\n"
	"emu_*_dropped_*); recoveries and recovery_stall_ns show how the driver coped.\n"
	"The emu.* knobs are fault injection into a model (also `ethdrv segment --set`).\n"
	"\n"
	"  -h, --help  this text\n"
	"\n";

static const char get_usage[] =
	"usage: ethdrv get IFNAME KEY...\n"
	"       ethdrv get IFNAME --list\n"
	"\n"
	"Print knobs of a running interface as KEY=VALUE lines (keys as for set,\n"
	"`ethdrv set --help`); --list prints every knob the interface has, one a line:\n"
	"KEY, its value, the values it accepts with their unit, and what it does.\n"
	"\n"
	"  -l, --list  every knob of IFNAME\n"
	"  -h, --help  this text\n";

/* Parse "IFNAME WORD..." for set/get; returns CLI_EXIT_* and fills @req. */
static int client_build(const char *cmd, int argc, char **argv, bool pairs, char *req, size_t size)
{
	struct cli_knob k;
	size_t used;
	int i;

	if (argc - optind < 2)
		return cli_usage(cmd, "missing %s: usage: ethdrv %s IFNAME %s...",
				 argc - optind < 1 ? "IFNAME" :
				 pairs		   ? "KEY=VALUE" :
						     "KEY",
				 cmd, pairs ? "KEY=VALUE" : "KEY");
	if (cli_parse_ifname(cmd, "IFNAME", argv[optind]))
		return CLI_EXIT_USAGE;
	used = (size_t)snprintf(req, size, "%s", cmd);
	for (i = optind + 1; i < argc; i++) {
		char word[512];

		snprintf(word, sizeof(word), "%s", argv[i]);
		if (pairs && cli_parse_knob(cmd, word, &k))
			return CLI_EXIT_USAGE;
		if (!pairs && (!argv[i][0] || strpbrk(argv[i], " \t\n=")))
			return cli_usage(cmd, "bad key '%s': use a knob name", argv[i]);
		used += (size_t)snprintf(req + used, size > used ? size - used : 0, " %s", argv[i]);
		if (used >= size)
			return cli_usage(cmd, "request longer than %d bytes", CTL_REQ_MAX - 1);
	}
	return CLI_EXIT_OK;
}

/* set and get: one request, print the body. */
static int client_knobs(const char *cmd, const char *usage, bool pairs, int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	char req[CTL_REQ_MAX];
	const char *body;
	char *reply;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, "+h", opts)) != -1) {
		if (c != 'h')
			return cmd_bad_option(cmd, argv, "--help");
		fputs(usage, stdout);
		if (pairs)
			knob_help_set(stdout);
		return CLI_EXIT_OK;
	}
	rc = client_build(cmd, argc, argv, pairs, req, sizeof(req));
	if (rc)
		return rc;
	rc = cmd_client_call(cmd, argv[optind], req, &reply, &body);
	if (rc)
		return rc;
	fputs(body, stdout);
	free(reply);
	return CLI_EXIT_OK;
}

int cmd_set(int argc, char **argv)
{
	return client_knobs("set", set_usage, true, argc, argv);
}

/* `get IFNAME --list` (or `get --list IFNAME`): the server's knob list. */
static bool client_is_list(const char *arg)
{
	return !strcmp(arg, "--list") || !strcmp(arg, "-l");
}

int cmd_get(int argc, char **argv)
{
	const char *ifname, *body;
	char *reply;
	int rc;

	if (argc == 3 && (client_is_list(argv[1]) || client_is_list(argv[2]))) {
		ifname = client_is_list(argv[1]) ? argv[2] : argv[1];
		if (cli_parse_ifname("get", "IFNAME", ifname))
			return CLI_EXIT_USAGE;
		rc = cmd_client_call("get", ifname, "list", &reply, &body);
		if (rc)
			return rc;
		fputs(body, stdout);
		free(reply);
		return CLI_EXIT_OK;
	}
	return client_knobs("get", get_usage, false, argc, argv);
}
