// SPDX-License-Identifier: MIT
/*
 * ethdrv: user-space Ethernet drivers for SPI MAC-PHYs, on real boards or on
 * hardware models (docs/design.md §3). This file dispatches subcommands.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"

static const char main_usage[] =
	"usage: ethdrv COMMAND [ARGS...]\n"
	"\n"
	"Commands:\n"
	"  segment [--nodes N]      N namespaces t1s0.., each with a TAP driven by ethdrv\n"
	"                           over a LAN8650 model, on one emulated 10BASE-T1S segment\n"
	"  up DEVICE [--tap NAME]   one interface on a real board or a model\n"
	"  stats [IFNAME] [--json]  counters of running interfaces (like ethtool -S)\n"
	"  set IFNAME KEY=VALUE...  change knobs at run time\n"
	"  get IFNAME KEY...|--list read knobs, or list every knob with its value\n"
	"  info IFNAME              what an interface is: device, chip, SPI clock, lines\n"
	"  phy IFNAME [read REG | write REG VAL | c45 read|write MMD REG [VAL]]\n"
	"                           the PHY: link, speed, ID, state; its registers\n"
	"  plca IFNAME [set WORD VALUE...]\n"
	"                           PLCA configuration and status, as ethtool shows them\n"
	"  bench NAME [ARGS...]     a system benchmark from bench/ (table and plot)\n"
	"\n"
	"DEVICE is emu:lan8650[,key=value...] or\n"
	"spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE|none[,reset=/dev/gpiochipN:LINE]\n"
	"[,key=value...] (`ethdrv up --help`).\n"
	"Run `ethdrv COMMAND --help` for the options of a command.\n";

static int last_opt; /* what cmd_getopt() returned last */

int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	char spec[64];
	bool plus = shortopts[0] == '+';

	snprintf(spec, sizeof(spec), "%s:%s", plus ? "+" : "", shortopts + plus);
	opterr = 0;
	last_opt = getopt_long(argc, argv, spec, longopts, NULL);
	return last_opt;
}

int cmd_bad_option(const char *cmd, char **argv, const char *accepted)
{
	const char *arg = argv[optind - 1];

	if (last_opt == ':')
		return cli_usage(cmd, "option '%s' needs a value", arg);
	if (optopt && !(arg[0] == '-' && arg[1] == '-'))
		return cli_usage(cmd, "unknown option '-%c': use %s", optopt, accepted);
	return cli_usage(cmd, "unknown option '%s': use %s", arg, accepted);
}

int cmd_common_option(const char *cmd, int c, struct cmd_common *co)
{
	unsigned long v;

	switch (c) {
	case 's':
		if (*co->knob_count == CLI_KNOBS_MAX)
			return cli_usage(cmd, "--set: more than %d knobs", CLI_KNOBS_MAX);
		return cli_parse_knob(cmd, optarg, &co->knobs[(*co->knob_count)++]) ?
			       CLI_EXIT_USAGE :
			       CLI_EXIT_OK;
	case 'S':
		co->use_syslog = true;
		return CLI_EXIT_OK;
	case 'L':
		co->log_level = optarg;
		return cli_check_log_level(cmd, optarg) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	case 'D':
		co->trace_dir = optarg;
		return CLI_EXIT_OK;
	case 'R':
		if (cli_parse_ulong(cmd, "--rt-prio", optarg, 1, 99, &v))
			return CLI_EXIT_USAGE;
		co->rt_prio = (unsigned)v;
		return CLI_EXIT_OK;
	}
	return -1;
}

static const struct {
	const char *name; /* subcommand */
	int (*fn)(int argc, char **argv); /* its entry */
} main_cmds[] = {
	{ "segment", cmd_segment }, { "up", cmd_up },	{ "stats", cmd_stats },
	{ "set", cmd_set },	    { "get", cmd_get }, { "info", cmd_info },
	{ "bench", cmd_bench },	    { "phy", cmd_phy }, { "plca", cmd_plca },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fputs(main_usage, stderr);
		return CLI_EXIT_USAGE;
	}
	if (cli_is_help(argv[1]) || !strcmp(argv[1], "help")) {
		fputs(main_usage, stdout);
		return CLI_EXIT_OK;
	}
	for (i = 0; i < sizeof(main_cmds) / sizeof(main_cmds[0]); i++)
		if (!strcmp(argv[1], main_cmds[i].name))
			return main_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr,
		"ethdrv: unknown command '%s': use segment, up, stats, set, get, info, phy, plca "
		"or bench\n"
		"Try 'ethdrv --help'.\n",
		argv[1]);
	return CLI_EXIT_USAGE;
}
