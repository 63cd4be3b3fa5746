// SPDX-License-Identifier: MIT
/*
 * `ethdrv plca IFNAME` and `ethdrv plca IFNAME set WORD VALUE...`: the PLCA
 * configuration and status of a 10BASE-T1S interface in the layout of
 * ethtool --get-plca-cfg and --get-plca-status, and ethtool's
 * --set-plca-cfg words (docs/commands.md "PLCA"). Debian 12's ethtool has
 * no PLCA commands, and a TAP has no PLCA for ethtool to ask about: the
 * node answers through its control socket (the lan865x knobs plca, node-id,
 * node-cnt, to-tmr, burst-cnt, burst-tmr and plca_status).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "ctl.h"

static const char plca_usage[] =
	"usage: ethdrv plca IFNAME\n"
	"       ethdrv plca IFNAME set [enable on|off] [node-id N] [node-cnt N] [to-tmr N]\n"
	"                              [burst-cnt N] [burst-tmr N]\n"
	"\n"
	"Print the PLCA configuration and status of a LAN8650 interface as\n"
	"`ethtool --get-plca-cfg` and `ethtool --get-plca-status` do, or change it\n"
	"with the words of `ethtool --set-plca-cfg` (N in 0..255; node-id 0 is the\n"
	"coordinator, 255 unconfigured; to-tmr and burst-tmr in bit times).\n"
	"\n"
	"  -h, --help  this text\n";

/* The ethtool word, the knob it sets. */
static const struct {
	const char *word;
	const char *knob;
} plca_words[] = {
	{ "enable", "plca" },	{ "node-id", "node-id" },     { "node-cnt", "node-cnt" },
	{ "to-tmr", "to-tmr" }, { "burst-cnt", "burst-cnt" }, { "burst-tmr", "burst-tmr" },
};

#define PLCA_WORDS "enable, node-id, node-cnt, to-tmr, burst-cnt, burst-tmr"
#define PLCA_NFIELDS 7

static const char *const plca_keys[PLCA_NFIELDS] = {
	"plca", "node-id", "node-cnt", "to-tmr", "burst-cnt", "burst-tmr", "plca_status",
};

/* The value of KEY in the reply's "KEY=VALUE" lines, or NULL. */
static const char *plca_value(const char *body, const char *key, char *buf, size_t size)
{
	size_t len = strlen(key);

	for (const char *p = body; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, len) && p[len] == '=') {
			size_t n = strcspn(p + len + 1, "\n");

			snprintf(buf, size, "%.*s", (int)n, p + len + 1);
			return buf;
		}
	}
	return NULL;
}

/* Print the two ethtool blocks from the knob values. */
static int plca_print(const char *ifname, const char *body)
{
	char v[PLCA_NFIELDS][32];
	unsigned long id, cnt, burst;

	for (int i = 0; i < PLCA_NFIELDS; i++)
		if (!plca_value(body, plca_keys[i], v[i], sizeof(v[i]))) {
			fprintf(stderr, "ethdrv plca: %s: no %s in the reply\n", ifname,
				plca_keys[i]);
			return CLI_EXIT_FAIL;
		}
	id = strtoul(v[1], NULL, 10);
	cnt = strtoul(v[2], NULL, 10);
	burst = strtoul(v[4], NULL, 10);
	printf("PLCA settings for %s:\n", ifname);
	printf("\tEnabled: %s\n", !strcmp(v[0], "on") ? "Yes" : "No");
	printf("\tlocal node ID: %lu (%s)\n", id,
	       id == 0	 ? "coordinator" :
	       id == 255 ? "unconfigured" :
			   "follower");
	printf("\tNode count: %lu%s\n", cnt, id ? " (ignored)" : "");
	printf("\tTO timer: %s BT\n", v[3]);
	printf("\tBurst count: %lu (%s)\n", burst, burst ? "enabled" : "disabled");
	printf("\tBurst timer: %s BT\n", v[5]);
	printf("PLCA status of %s:\n", ifname);
	printf("\tStatus: %s\n", v[6]);
	return CLI_EXIT_OK;
}

static int plca_show(const char *ifname)
{
	char req[CTL_REQ_MAX];
	const char *body;
	char *reply;
	size_t used = (size_t)snprintf(req, sizeof(req), "get");
	int rc;

	for (int i = 0; i < PLCA_NFIELDS; i++)
		used += (size_t)snprintf(req + used, sizeof(req) - used, " %s", plca_keys[i]);
	rc = cmd_client_call("plca", ifname, req, &reply, &body);
	if (rc)
		return rc;
	rc = plca_print(ifname, body);
	free(reply);
	return rc;
}

/* "set WORD VALUE..." into one set request. */
static int plca_set(const char *ifname, int argc, char **argv)
{
	char req[CTL_REQ_MAX] = "set";
	const char *body;
	char *reply;
	size_t used = 3;
	int rc;

	if (argc == 0)
		return cli_usage("plca", "set: parameters missing: use %s", PLCA_WORDS);
	for (int i = 0; i < argc; i += 2) {
		size_t w;

		for (w = 0; w < ETHDRV_ARRAY_SIZE(plca_words); w++)
			if (!strcmp(argv[i], plca_words[w].word))
				break;
		if (w == ETHDRV_ARRAY_SIZE(plca_words))
			return cli_usage("plca", "set: unknown word '%s': use %s", argv[i],
					 PLCA_WORDS);
		if (i + 1 >= argc)
			return cli_usage("plca", "set: %s needs a value", argv[i]);
		if (!argv[i + 1][0] || strpbrk(argv[i + 1], " \t\n="))
			return cli_usage("plca", "set: %s: bad value '%s'", argv[i], argv[i + 1]);
		used += (size_t)snprintf(req + used, sizeof(req) - used, " %s=%s",
					 plca_words[w].knob, argv[i + 1]);
		if (used >= sizeof(req))
			return cli_usage("plca", "set: request too long");
	}
	rc = cmd_client_call("plca", ifname, req, &reply, &body);
	if (!rc)
		free(reply);
	return rc;
}

int cmd_plca(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	int c;

	while ((c = cmd_getopt(argc, argv, "+h", opts)) != -1) {
		if (c != 'h')
			return cmd_bad_option("plca", argv, "--help");
		fputs(plca_usage, stdout);
		return CLI_EXIT_OK;
	}
	if (optind >= argc)
		return cli_usage("plca", "give an IFNAME");
	if (cli_parse_ifname("plca", "IFNAME", argv[optind]))
		return CLI_EXIT_USAGE;
	if (optind + 1 == argc)
		return plca_show(argv[optind]);
	if (strcmp(argv[optind + 1], "set"))
		return cli_usage("plca", "unexpected argument '%s': use 'set WORD VALUE...'",
				 argv[optind + 1]);
	return plca_set(argv[optind], argc - optind - 2, argv + optind + 2);
}
