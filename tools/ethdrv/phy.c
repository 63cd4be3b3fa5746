// SPDX-License-Identifier: MIT
/*
 * `ethdrv phy IFNAME [read REG | write REG VAL | c45 read MMD REG |
 * c45 write MMD REG VAL]`: the PHY of a running interface, as phytool and
 * mdio-tools users know it (docs/mdio.md §11). The client half checks the
 * words and sends them as one `phy ...` request on the interface's control
 * socket (ctl.h); the server half (phy_ctl_serve(), called by the node in
 * its loop thread, where the PHY lives) runs it on the device's PHY.
 * Both halves parse with the same function.
 */
#include "phy_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "ethdrv/mdio.h"
#include "ethdrv/netdev.h"
#include "ethdrv/phy.h"

#define PHY_REG_MAX 31u /* clause-22 register */
#define PHY_MMD_MAX 31u /* clause-45 MMD */
#define PHY_C45_REG_MAX 0xFFFFu
#define PHY_VAL_MAX 0xFFFFu

static const char phy_usage[] =
	"usage: ethdrv phy IFNAME [read REG | write REG VAL | c45 read MMD REG |\n"
	"                          c45 write MMD REG VAL]\n"
	"\n"
	"The PHY of a running interface: without more words its link, speed, duplex,\n"
	"PHY ID, driver and state machine state; read and write a clause-22 register\n"
	"(REG 0..31), or an MMD register (MMD 0..31, REG 0..0xffff; native clause-45\n"
	"frames or registers 13/14, as the PHY is reached). Numbers are decimal or\n"
	"0x hex; values 0..0xffff. Reads print 0xNNNN.\n"
	"\n"
	"Errors: ENODEV the interface has no PHY (a fixed link); EINVAL a bad\n"
	"register, MMD or value; ETIMEDOUT the MDIO frame did not complete;\n"
	"EOPNOTSUPP an MMD the bus cannot reach.\n"
	"\n"
	"  -h, --help  this text\n";

/* A number of the request: decimal or 0x hex, the whole word, <= @max. */
static int phy_parse_num(const char *s, unsigned max, unsigned *out)
{
	unsigned long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* Parse @n numbers of @words against @max, into @out; name the bad one in @err. */
static int phy_parse_nums(char **words, int n, const unsigned *max, const char *const *name,
			  unsigned *out, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		if (phy_parse_num(words[i], max[i], &out[i])) {
			snprintf(err, errlen, "bad %s '%s': use 0..%u (decimal or 0x hex)", name[i],
				 words[i], max[i]);
			return -EINVAL;
		}
	return 0;
}

int phy_req_parse(int argc, char **argv, struct phy_req *req, char *err, size_t errlen)
{
	static const unsigned c22_max[] = { PHY_REG_MAX, PHY_VAL_MAX };
	static const unsigned c45_max[] = { PHY_MMD_MAX, PHY_C45_REG_MAX, PHY_VAL_MAX };
	static const char *const c22_names[] = { "register", "value" };
	static const char *const c45_names[] = { "MMD", "register", "value" };
	bool c45 = argc >= 1 && !strcmp(argv[0], "c45");
	unsigned v[3] = { 0 };
	int ret;

	*req = (struct phy_req){ .op = PHY_REQ_SHOW };
	if (!argc)
		return 0;
	argv += c45;
	argc -= c45;
	if (argc >= 1 && !strcmp(argv[0], "read") && argc == (c45 ? 3 : 2))
		req->op = c45 ? PHY_REQ_C45_READ : PHY_REQ_READ;
	else if (argc >= 1 && !strcmp(argv[0], "write") && argc == (c45 ? 4 : 3))
		req->op = c45 ? PHY_REQ_C45_WRITE : PHY_REQ_WRITE;
	else {
		snprintf(err, errlen,
			 "use: read REG, write REG VAL, c45 read MMD REG, c45 write MMD REG VAL");
		return -EINVAL;
	}
	ret = phy_parse_nums(argv + 1, argc - 1, c45 ? c45_max : c22_max,
			     c45 ? c45_names : c22_names, v, err, errlen);
	if (ret)
		return ret;
	req->mmd = c45 ? v[0] : 0;
	req->reg = v[c45];
	req->val = (uint16_t)v[c45 + 1];
	return 0;
}

/* ---- server half (the node's loop thread) ---- */

static void phy_show(struct ethdrv_phy *phy, struct ctl_reply *r)
{
	struct ethdrv_mdio_config mc;

	ethdrv_mdio_get_config(phy->bus, &mc);
	ctl_reply_printf(r, "ok\nphy=%s:%u\nid=0x%08x\ndriver=%s\nstate=%s\n",
			 ethdrv_mdio_bus_name(phy->bus), phy->cfg.addr, phy->phy_id,
			 ethdrv_phy_driver_name(phy), ethdrv_phy_state_name(phy->state));
	ctl_reply_printf(r, "link=%s\nspeed=%u\nduplex=%s\nautoneg=%s\n",
			 phy->link.up ? "up" : "down", phy->link.speed_mbps,
			 !phy->link.up	       ? "unknown" :
			 phy->link.full_duplex ? "full" :
						 "half",
			 phy->autoneg ? "on" : "off");
	ctl_reply_printf(r, "irq=%s\npoll_ms=%u\nmdio_mode=%s\n",
			 phy->cfg.irq_mode == ETHDRV_PHY_IRQ_POLL ? "poll" :
			 phy->cfg.irq_mode == ETHDRV_PHY_IRQ_LINE ? "line" :
								    "mac",
			 phy->cfg.poll_ms, ethdrv_mdio_mode_name(mc.mode));
}

/* The error of an access, named so a script can tell them apart. */
static void phy_reply_error(struct ctl_reply *r, int err, const char *what)
{
	const char *why = err == -ETIMEDOUT  ? "the MDIO frame did not complete" :
			  err == -EOPNOTSUPP ? "the bus cannot reach that MMD" :
			  err == -EINVAL     ? "bad argument" :
					       "MDIO error";

	ctl_reply_error(r, err, "phy %s: %s", what, why);
}

static int phy_access(struct ethdrv_phy *phy, const struct phy_req *q, uint16_t *val)
{
	switch (q->op) {
	case PHY_REQ_READ:
		return ethdrv_phy_read(phy, q->reg, val);
	case PHY_REQ_WRITE:
		return ethdrv_phy_write(phy, q->reg, q->val);
	case PHY_REQ_C45_READ:
		return ethdrv_phy_read_mmd(phy, phy->cfg.mmd_native, q->mmd, q->reg, val);
	default:
		return ethdrv_phy_write_mmd(phy, phy->cfg.mmd_native, q->mmd, q->reg, q->val);
	}
}

int phy_ctl_serve(struct ethdrv_netdev *dev, int argc, char **argv, struct ctl_reply *r)
{
	struct ethdrv_phy *phy = ethdrv_netdev_phy(dev);
	char err[128], what[64];
	struct phy_req q;
	uint16_t val = 0;
	int ret = phy_req_parse(argc, argv, &q, err, sizeof(err));

	if (ret) {
		ctl_reply_error(r, ret, "phy: %s", err);
		return ret;
	}
	if (!phy) {
		ctl_reply_error(r, -ENODEV, "phy: %s has no PHY (a fixed link or no MDIO bus)",
				ethdrv_netdev_name(dev));
		return -ENODEV;
	}
	if (q.op == PHY_REQ_SHOW) {
		phy_show(phy, r);
		return 0;
	}
	ret = phy_access(phy, &q, &val);
	if (ret) {
		snprintf(what, sizeof(what), "%s%s", q.op >= PHY_REQ_C45_READ ? "c45 " : "",
			 q.op == PHY_REQ_READ || q.op == PHY_REQ_C45_READ ? "read" : "write");
		phy_reply_error(r, ret, what);
		return ret;
	}
	if (q.op == PHY_REQ_READ || q.op == PHY_REQ_C45_READ)
		ctl_reply_printf(r, "ok\n0x%04x\n", val);
	else
		ctl_reply_printf(r, "ok\n");
	return 0;
}

/* ---- client half ---- */

int cmd_phy(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	char req[CTL_REQ_MAX], err[128];
	struct phy_req q;
	const char *body;
	size_t used;
	char *reply;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, "+h", opts)) != -1) {
		if (c != 'h')
			return cmd_bad_option("phy", argv, "--help");
		fputs(phy_usage, stdout);
		return CLI_EXIT_OK;
	}
	if (optind >= argc)
		return cli_usage("phy",
				 "missing IFNAME: usage: ethdrv phy IFNAME [read REG | ...]");
	if (cli_parse_ifname("phy", "IFNAME", argv[optind]))
		return CLI_EXIT_USAGE;
	if (phy_req_parse(argc - optind - 1, argv + optind + 1, &q, err, sizeof(err)))
		return cli_usage("phy", "%s", err);
	used = (size_t)snprintf(req, sizeof(req), "phy");
	for (int i = optind + 1; i < argc && used < sizeof(req); i++)
		used += (size_t)snprintf(req + used, sizeof(req) - used, " %s", argv[i]);
	rc = cmd_client_call("phy", argv[optind], req, &reply, &body);
	if (rc)
		return rc;
	fputs(body, stdout);
	free(reply);
	return CLI_EXIT_OK;
}
