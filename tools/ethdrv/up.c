// SPDX-License-Identifier: MIT
/*
 * `ethdrv up DEVICE`: one interface on a real board (spidev + GPIO IRQ_N)
 * or on a LAN8650 model, in the foreground until SIGINT/SIGTERM
 * (docs/design.md §3). A model sits alone on its own two-port segment
 * (PLCA coordinator, node-cnt 2): frames leave the wire and nobody answers,
 * which is what driver and SPI measurements need.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "knob_help.h"
#include "cmd.h"
#include "daemon.h"
#include "emu/t1s_medium.h"
#include "ethdrv/err.h"
#include "node.h"

static const char up_usage[] =
	"usage: ethdrv up DEVICE [options]\n"
	"\n"
	"Run one interface in the foreground until SIGINT or SIGTERM. DEVICE is\n"
	"  spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE|none[,poll_us=N]\n"
	"        [,reset=/dev/gpiochipN:LINE][,hz=N][,mode=M][,bias=pull-up]\n"
	"      a LAN8650/1 on a real board (PLCA off, i.e. CSMA/CD, until set);\n"
	"      irq=none polls every poll_us (default 1000); reset= is RESET_N,\n"
	"      pulsed at start and used when a software reset fails; or\n"
	"  emu:lan8650[,KEY=VALUE...]\n"
	"      a model alone on an emulated segment (PLCA coordinator);\n"
	"  the keys are listed after the options.\n"
	"\n"
	"  -t, --tap NAME        TAP name (default t1s0); an existing persistent TAP\n"
	"                        of that name is attached to, else one is created\n"
	"  -n, --netns NS        run in the existing network namespace NS\n"
	"  -a, --addr A.B.C.D/P  add this IPv4 address to the TAP\n"
	"  -m, --mac MAC         station address (default 02:45:54:48:00:00)\n"
	"  -s, --set KEY=VALUE   a knob after bring-up (repeatable; e.g. plca=on,\n"
	"                        node-id=1, policy=3; see `ethdrv set --help`)\n"
	"  -T, --spi-trace FILE  trace every SPI transfer to FILE, from the first (the\n"
	"                        probe); pcapng when FILE ends in .pcapng\n"
	"      --trace-dir DIR   allow `ethdrv set NAME spi_trace=FILE` at run time,\n"
	"                        FILE a file in DIR (refused without this option)\n"
	"      --rt-prio N       run the loop, poller and IRQ_N threads at SCHED_FIFO\n"
	"                        priority N (1..99; busy_poll is then refused)\n"
	"      --syslog          log to syslog instead of stderr\n"
	"      --log-level L     err, warn, info or debug\n"
	"  -h, --help            this text\n"
	"\n"
	"The control socket is " CLI_RUN_DIR "/NAME.sock (`ethdrv stats NAME`).\n";

#define UP_OPTS                                                                       \
	"--tap, --netns, --addr, --mac, --set, --spi-trace, --trace-dir, --rt-prio, " \
	"--syslog, --log-level, --help"

/* Options of one run. */
struct up_args {
	struct node_config nc; /* the node being built */
	struct cmd_common common; /* --set, --syslog, --log-level */
};

/* Handle one option; CLI_EXIT_OK or CLI_EXIT_USAGE. */
static int up_option(int c, struct up_args *a, char **argv)
{
	struct node_config *nc = &a->nc;
	int rc;

	switch (c) {
	case 't':
		if (cli_parse_ifname("up", "--tap", optarg))
			return CLI_EXIT_USAGE;
		snprintf(nc->ifname, sizeof(nc->ifname), "%s", optarg);
		return CLI_EXIT_OK;
	case 'n':
		if (!optarg[0] || strlen(optarg) >= sizeof(nc->netns) || strchr(optarg, '/'))
			return cli_usage("up",
					 "--netns: bad name '%s': use 1..63 chars without '/'",
					 optarg);
		snprintf(nc->netns, sizeof(nc->netns), "%s", optarg);
		return CLI_EXIT_OK;
	case 'a':
		return cli_parse_ipv4_prefix("up", optarg, nc->addr, &nc->prefix) ? CLI_EXIT_USAGE :
										    CLI_EXIT_OK;
	case 'm':
		return cli_parse_mac("up", optarg, nc->mac) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	case 'T':
		nc->spi_trace = optarg;
		return CLI_EXIT_OK;
	}
	rc = cmd_common_option("up", c, &a->common);
	if (rc >= 0)
		return rc;
	return cmd_bad_option("up", argv, UP_OPTS);
}

/* Parse argv into @a; -1 after --help, else CLI_EXIT_*. */
static int up_parse(int argc, char **argv, struct up_args *a)
{
	static const struct option opts[] = {
		{ "tap", required_argument, NULL, 't' },
		{ "netns", required_argument, NULL, 'n' },
		{ "addr", required_argument, NULL, 'a' },
		{ "mac", required_argument, NULL, 'm' },
		{ "set", required_argument, NULL, 's' },
		{ "spi-trace", required_argument, NULL, 'T' },
		{ "trace-dir", required_argument, NULL, 'D' },
		{ "rt-prio", required_argument, NULL, 'R' },
		{ "syslog", no_argument, NULL, 'S' },
		{ "log-level", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	a->common.knobs = a->nc.knobs;
	a->common.knob_count = &a->nc.knob_count;
	snprintf(a->nc.ifname, sizeof(a->nc.ifname), "t1s0");
	cli_node_mac(0, a->nc.mac);
	while ((c = cmd_getopt(argc, argv, "t:n:a:m:s:T:h", opts)) != -1) {
		if (c == 'h') {
			fputs(up_usage, stdout);
			knob_help_spec(stdout);
			return -1;
		}
		rc = up_option(c, a, argv);
		if (rc)
			return rc;
	}
	a->nc.trace_dir = a->common.trace_dir;
	a->nc.rt_prio = a->common.rt_prio;
	if (optind >= argc)
		return cli_usage("up", "missing DEVICE: use emu:lan8650[,key=value...] or "
				       "spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE");
	if (cli_parse_device("up", argv[optind], &a->nc.dev))
		return CLI_EXIT_USAGE;
	if (a->nc.dev.kind == CLI_DEV_ENET || a->nc.dev.kind == CLI_DEV_GBETH ||
	    a->nc.dev.kind == CLI_DEV_ETSEC)
		return cli_usage("up",
				 "'%s': a %s model needs its peer on the line: use "
				 "`ethdrv segment --device %s`",
				 argv[optind],
				 a->nc.dev.kind == CLI_DEV_ENET	 ? "ENET" :
				 a->nc.dev.kind == CLI_DEV_GBETH ? "GbEth" :
								   "eTSEC",
				 argv[optind]);
	if (optind + 1 < argc)
		return cli_usage("up", "unexpected argument '%s': give one DEVICE",
				 argv[optind + 1]);
	return CLI_EXIT_OK;
}

/* Start the node (and its medium for a model); run until a signal. */
static int up_run(struct up_args *a)
{
	struct emu_t1s_config mc = { .ports = 2, .realtime = true };
	struct emu_t1s_medium *medium = NULL;
	struct daemon_signals sig = { .fd = -1 };
	struct ethdrv_loop *loop = NULL;
	struct node *node = NULL;
	int err;

	if (daemon_log_setup(a->common.use_syslog, a->common.log_level, "up"))
		return CLI_EXIT_USAGE;
	if (!daemon_check_tun("up") || daemon_block_signals())
		return CLI_EXIT_FAIL;
	if (a->nc.dev.kind == CLI_DEV_EMU) {
		a->nc.plca = (struct lan865x_plca){ .enable = true, .node_id = 0, .node_cnt = 2 };
		err = emu_t1s_medium_new(&mc, &medium);
		if (err)
			goto out;
		a->nc.medium = emu_t1s_medium_base(medium);
	}
	err = node_start(&a->nc, &node);
	if (!err)
		err = ethdrv_loop_new(&loop);
	if (!err)
		err = daemon_signals_start(loop, &sig);
	if (!err) {
		printf("ethdrv up: %s on %s; stop with Ctrl-C\n", a->nc.ifname, a->nc.dev.spec);
		fflush(stdout);
		err = ethdrv_loop_run(loop);
	}
out:
	if (err)
		fprintf(stderr, "ethdrv up: %s on %s: %s\n", a->nc.ifname, a->nc.dev.spec,
			ethdrv_strerror(err));
	daemon_signals_stop(&sig);
	node_stop(node);
	emu_medium_free(medium ? emu_t1s_medium_base(medium) : NULL);
	ethdrv_loop_free(loop);
	return err ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cmd_up(int argc, char **argv)
{
	struct up_args *a = calloc(1, sizeof(*a));
	int rc;

	if (!a) {
		fprintf(stderr, "ethdrv up: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	rc = up_parse(argc, argv, a);
	if (rc == 0)
		rc = up_run(a);
	free(a);
	return rc < 0 ? CLI_EXIT_OK : rc;
}
