// SPDX-License-Identifier: MIT
/*
 * The client subcommands: `ethdrv stats [IFNAME] [--json]`,
 * `ethdrv set IFNAME key=value...`, `ethdrv get IFNAME key...` and
 * `ethdrv info IFNAME`, each one request on the interface's control socket
 * (ctl.h).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "ctl.h"

#define CLIENT_TIMEOUT_MS 5000
#define CLIENT_IFACES_MAX 64

static const char stats_usage[] =
	"usage: ethdrv stats [IFNAME] [--json]\n"
	"\n"
	"Print the counters of one interface, like ethtool -S, or of every interface\n"
	"with a control socket under " CLI_RUN_DIR "/ (\"segment\" is the medium of a\n"
	"running `ethdrv segment`).\n"
	"\n"
	"  --json      one JSON object (all interfaces: an object keyed by name)\n"
	"  -h, --help  this text\n";

static const char set_usage[] =
	"usage: ethdrv set IFNAME KEY=VALUE...\n"
	"\n"
	"Change knobs of a running interface, in order; the first failure stops.\n"
	"Keys: napi_defer_hard_irqs, gro_flush_timeout (ns), threaded (0/1), busy_poll\n"
	"(us), busy_poll_budget, budget (1..64), netdev_budget, netdev_budget_usecs,\n"
	"bql_limit_min, bql_limit_max, bql_hold_time, cpu_cost_ns (0..1000000: CPU\n"
	"spun per RX frame and per TX completion, a slower CPU); driver: policy\n"
	"(1..5), irq_mask, irq.<status0-name> (txpe, txboe, txbue, rxboe, lofe, hdre,\n"
	"...), rxboe_action\n"
	"(drop/count), rxboe_log, xfer_cap, irq_delay_us, config_check_ms (0 = off),\n"
	"spi_trace (NAME, a file in the daemon's --trace-dir, or off); PLCA: plca\n"
	"(on/off), node-id, node-cnt, to-tmr, burst-cnt, burst-tmr; the node's\n"
	"threads: rt_prio (SCHED_FIFO 1..99, 0 = SCHED_OTHER), rt_spin_permille (the\n"
	"CPU share of 100 ms at which a FIFO thread counts as spinning and is put\n"
	"back to SCHED_OTHER, default 900); contexts (loop: all in the node's thread;\n"
	"irq: IRQs and polls in softirq loops above the application, a ksoftirqd\n"
	"hand-off, docs/design.md 4.5-4.7), cpus (1..8 softirq loops), irq_affinity\n"
	"(NAME:CPU/..., e.g. rx:0/tx:1).\n"
	"\n"
	"Fault injection into the LAN8650 model (emu devices only; also with\n"
	"`ethdrv segment --set`):\n"
	"  emu.mosi-ber=X, emu.miso-ber=X   SPI bit error rate host->chip, chip->host\n"
	"                                    (0..0.5; 0 = off)\n"
	"  emu.inject=FAULT                 one fault now: rx_overflow, loss_of_frame,\n"
	"                                    reset, txpe, hdr_parity, internal,\n"
	"                                    config_upset\n"
	"  emu.periodic=FAULT:MS[:BURST]    BURST faults (default 1) every MS ms; off\n"
	"  emu.reset_every_ms=MS            = emu.periodic=reset:MS (0 = off)\n"
	"  emu.overflow_storm=BURST/MS      = emu.periodic=rx_overflow:MS:BURST\n"
	"Every frame a fault costs is counted (`ethdrv stats`: rx_drop_*, tx_aborted_*,\n"
	"emu_*_dropped_*); recoveries and recovery_stall_ns show how the driver coped.\n"
	"\n"
	"  -h, --help  this text\n";

static const char get_usage[] =
	"usage: ethdrv get IFNAME KEY...\n"
	"\n"
	"Print knobs of a running interface as KEY=VALUE lines (keys as for set).\n"
	"\n"
	"  -h, --help  this text\n";

static const char info_usage[] =
	"usage: ethdrv info IFNAME\n"
	"\n"
	"Print what a running interface is, as KEY=VALUE lines: its device spec,\n"
	"namespace, address, station address, the chip the probe found (chip,\n"
	"chip_rev, devid, oa_idver, oa_phyid, oa_stdcap), the SPI clock the bus\n"
	"applies (spi_hz; on spidev the speed read back from the controller) and\n"
	"the one asked for (spi_hz_requested), poll_us (polled mode, 0 with an IRQ\n"
	"line), and the IRQ_N and RESET_N lines.\n"
	"\n"
	"  -h, --help  this text\n";

/* Say why @ifname could not be reached. */
static void client_conn_error(const char *cmd, const char *ifname, const char *path, int err)
{
	if (err == -ENOENT || err == -ECONNREFUSED)
		fprintf(stderr, "ethdrv %s: %s: nobody serves %s: is ethdrv running for it?\n", cmd,
			ifname, path);
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr,
			"ethdrv %s: %s: %s: permission denied: run as root or as the "
			"user that started ethdrv\n",
			cmd, ifname, path);
	else
		fprintf(stderr, "ethdrv %s: %s: %s: %s\n", cmd, ifname, path, strerror(-err));
}

/* Send @req to @ifname; on "ok" return the body in *@body (free *@reply) (cmd.h). */
int cmd_client_call(const char *cmd, const char *ifname, const char *req, char **reply,
		    const char **body)
{
	char path[108];
	int err;

	if (ctl_sock_path(ifname, path, sizeof(path))) {
		fprintf(stderr, "ethdrv %s: %s: name too long\n", cmd, ifname);
		return CLI_EXIT_FAIL;
	}
	err = ctl_request(path, req, reply, CLIENT_TIMEOUT_MS);
	if (err) {
		client_conn_error(cmd, ifname, path, err);
		return CLI_EXIT_FAIL;
	}
	if (!strncmp(*reply, "ok\n", 3)) {
		*body = *reply + 3;
		return CLI_EXIT_OK;
	}
	fprintf(stderr, "ethdrv %s: %s: %s%s", cmd, ifname, *reply,
		strchr(*reply, '\n') ? "" : "\n");
	free(*reply);
	*reply = NULL;
	return CLI_EXIT_FAIL;
}

/* Names of the control sockets under CLI_RUN_DIR, sorted; the count. */
static int client_list(char names[][32], int max)
{
	DIR *d = opendir(CLI_RUN_DIR);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		size_t len = strlen(de->d_name);

		if (len > 5 && len - 5 < 32 && !strcmp(de->d_name + len - 5, ".sock"))
			snprintf(names[n++], 32, "%.*s", (int)(len - 5), de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, 32, (int (*)(const void *, const void *))strcmp);
	return n;
}

/* Print the stats of every interface; an interface that does not answer is skipped. */
static int client_stats_all(bool json)
{
	char names[CLIENT_IFACES_MAX][32];
	int n = client_list(names, CLIENT_IFACES_MAX), i, shown = 0;

	if (n == 0) {
		fprintf(stderr,
			"ethdrv stats: no interfaces under %s: start one with "
			"`ethdrv segment` or `ethdrv up`\n",
			CLI_RUN_DIR);
		return CLI_EXIT_FAIL;
	}
	if (json)
		printf("{");
	for (i = 0; i < n; i++) {
		const char *body;
		char *reply;

		if (cmd_client_call("stats", names[i], json ? "stats json" : "stats", &reply,
				    &body))
			continue;
		if (json)
			printf("%s\"%s\": %s", shown ? ",\n" : "\n", names[i], body);
		else
			printf("%s%s:\n%s", shown ? "\n" : "", names[i], body);
		shown++;
		free(reply);
	}
	if (json)
		printf("\n}\n");
	return shown == n ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = { { "json", no_argument, NULL, 'j' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	const char *ifname = NULL, *body;
	bool json = false;
	char *reply;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fputs(stats_usage, stdout);
			return CLI_EXIT_OK;
		}
		if (c == 'j')
			json = true;
		else
			return cmd_bad_option("stats", argv, "--json, --help");
	}
	if (optind < argc)
		ifname = argv[optind++];
	if (optind < argc)
		return cli_usage("stats", "unexpected argument '%s': give at most one IFNAME",
				 argv[optind]);
	if (!ifname)
		return client_stats_all(json);
	if (cli_parse_ifname("stats", "IFNAME", ifname) && strcmp(ifname, CTL_SEGMENT_NAME))
		return CLI_EXIT_USAGE;
	rc = cmd_client_call("stats", ifname, json ? "stats json" : "stats", &reply, &body);
	if (rc)
		return rc;
	fputs(body, stdout);
	free(reply);
	return CLI_EXIT_OK;
}

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

int cmd_get(int argc, char **argv)
{
	return client_knobs("get", get_usage, false, argc, argv);
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	const char *body;
	char *reply;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, "h", opts)) != -1) {
		if (c != 'h')
			return cmd_bad_option("info", argv, "--help");
		fputs(info_usage, stdout);
		return CLI_EXIT_OK;
	}
	if (optind + 1 != argc)
		return cli_usage("info", "give one IFNAME");
	if (cli_parse_ifname("info", "IFNAME", argv[optind]))
		return CLI_EXIT_USAGE;
	rc = cmd_client_call("info", argv[optind], "info", &reply, &body);
	if (rc)
		return rc;
	fputs(body, stdout);
	free(reply);
	return CLI_EXIT_OK;
}
