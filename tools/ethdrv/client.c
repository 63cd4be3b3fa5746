// SPDX-License-Identifier: MIT
/*
 * The client subcommands `ethdrv stats [IFNAME] [--json]` and `ethdrv info
 * IFNAME`, each one request on the interface's control socket (ctl.h); the
 * knob commands set and get are knob_cmd.c.
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
