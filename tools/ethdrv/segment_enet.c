// SPDX-License-Identifier: MIT
/*
 * The two-node link kinds of `ethdrv segment` (segment_priv.h), each on one
 * full-duplex line (enet_link.h) whose counters the run serves on a socket:
 * --device emu:enet: enet0 and enet1, 169.254.20.1 and .2 /24, NXP ENET
 *   models driven by the fec driver, /run/ethdrv/link.sock;
 * --device emu:gbeth: gbeth0 and gbeth1, 169.254.40.1 and .2 /24, Renesas
 *   GbEth models driven by the ravb driver, /run/ethdrv/gbeth-link.sock;
 * --device emu:etsec: tsec0 and tsec1, 169.254.30.1 and .2 /24, Freescale
 *   eTSEC models driven by the gianfar driver, /run/ethdrv/tsec-link.sock.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "enet_link.h"
#include "ethdrv/err.h"
#include "segment_priv.h"

#define ENET_LINK_SOCK "link" /* /run/ethdrv/link.sock */
#define GBETH_LINK_SOCK "gbeth-link" /* /run/ethdrv/gbeth-link.sock */
#define ETSEC_LINK_SOCK "tsec-link" /* /run/ethdrv/tsec-link.sock */
#define ENET_PREAMBLE_BYTES 8u /* preamble + SFD (docs/enet.md §12) */
#define ENET_IFG_BYTES \
	12u /* TIPG at reset, which fec keeps (docs/enet.md §12); GbEth's
				   model keeps 12 too (docs/gbeth.md §12) */

static int enet_stats_init(struct seg *s)
{
	int err = ethdrv_stats_set_new(&s->set);

	if (!err)
		err = ethdrv_stats_add_group(s->set, "", fdx_line_stats_desc,
					     fdx_line_stats_desc_count, &s->line_snap);
	if (!err)
		err = ethdrv_stats_add_hist(s->set, "lateness_ns",
					    fdx_line_lateness(s->link->line));
	if (!err)
		err = ethdrv_stats_add_hist(s->set, "irq_lateness_ns",
					    fdx_line_irq_lateness(s->link->line));
	if (!err)
		err = seg_stats_add_ctl(s);
	return err;
}

/* The MAC model on both ports of the kind's line. */
static const struct link_model *link_model_of(const struct seg *s)
{
	if (s->kind == &seg_gbeth_kind)
		return &link_model_gbeth;
	return s->kind == &seg_etsec_kind ? &link_model_etsec : &link_model_enet;
}

static int enet_medium_new(struct seg *s)
{
	const struct link_model *m = link_model_of(s);
	int err = enet_link_new(m, &s->args.dev.enet, s->args.pcap, &s->link);

	if (err) {
		fprintf(stderr, "ethdrv segment: %s link%s%s: %s\n", m->name,
			s->args.pcap ? " with pcap " : "", s->args.pcap ? s->args.pcap : "",
			ethdrv_strerror(err));
		return err;
	}
	return enet_stats_init(s);
}

static void enet_medium_free(struct seg *s)
{
	enet_link_free(s->link);
	s->link = NULL;
}

static void enet_node_config(struct seg *s, unsigned i, struct node_config *nc)
{
	if (s->link->model == &link_model_gbeth)
		nc->gbeth = s->link->emu[i];
	else if (s->link->model == &link_model_etsec)
		nc->etsec = s->link->emu[i];
	else
		nc->enet = s->link->emu[i];
}

/* ---- the link's control socket ---- */

static int enet_ctl_stats(void *arg, bool json, struct ctl_reply *r)
{
	struct seg *s = arg;

	fdx_line_get_stats(s->link->line, &s->line_snap);
	return seg_stats_reply(s, json, r);
}

static const struct ethdrv_knob enet_link_knobs[] = {
	ETHDRV_KNOB_RO("nodes", "nodes", "MACs on the link"),
	ETHDRV_KNOB_RO("speed_mbps", "Mb/s", "line speed"),
	ETHDRV_KNOB_RO("preamble_bytes", "bytes", "preamble and SFD per frame"),
	ETHDRV_KNOB_RO("ifg_bytes", "bytes", "inter-frame gap"),
	ETHDRV_KNOB_RO("batch_us", "us", "the line engine's batch"),
};

const struct ethdrv_knob_table seg_enet_knob_table = ETHDRV_KNOB_TABLE("link", enet_link_knobs);

static int enet_ctl_set(void *arg, const char *key, const char *value, const char **why)
{
	*why = "the link's faults are emu.* knobs of its nodes (ethdrv set NODE emu.link=down)";
	return -EOPNOTSUPP;
}

/* Read-only facts a client needs to compute the line-rate limit. */
static int enet_ctl_get(void *arg, const char *key, char *buf, size_t size)
{
	struct seg *s = arg;
	unsigned v;

	if (!strcmp(key, "nodes"))
		v = s->args.nodes;
	else if (!strcmp(key, "speed_mbps"))
		v = s->args.dev.enet.speed_mbps;
	else if (!strcmp(key, "preamble_bytes"))
		v = ENET_PREAMBLE_BYTES;
	else if (!strcmp(key, "ifg_bytes"))
		v = ENET_IFG_BYTES;
	else if (!strcmp(key, "batch_us"))
		v = s->args.dev.enet.batch_us;
	else
		return -ENOENT;
	return snprintf(buf, size, "%u", v) < (int)size ? 0 : -ENOSPC;
}

static int enet_ctl_info(void *arg, struct ctl_reply *r)
{
	struct seg *s = arg;

	ctl_reply_printf(r, "name=%s\nnodes=%u\ndevice=%s\npcap=%s\npid=%ld\n", s->kind->sock,
			 s->args.nodes, s->args.dev.spec, s->args.pcap ? s->args.pcap : "",
			 (long)getpid());
	return 0;
}

static const struct ctl_ops enet_ctl_ops = {
	.stats = enet_ctl_stats,
	.set = enet_ctl_set,
	.get = enet_ctl_get,
	.knobs = seg_ctl_knobs,
	.info = enet_ctl_info,
};

/* A two-node link kind: everything but its names is the same. */
#define LINK_KIND(t, p, net, id, sk)                                                        \
	{                                                                                   \
		.title = (t), .prefix = (p), .subnet = (net), .mac_id = (id), .sock = (sk), \
		.marker = CLI_RUN_DIR "/" sk ".pid", .lock = CLI_RUN_DIR "/" sk ".lock",    \
		.nodes_min = ENET_LINK_NODES, .nodes_max = ENET_LINK_NODES,                 \
		.medium_new = enet_medium_new, .medium_free = enet_medium_free,             \
		.node_config = enet_node_config, .knobs = &seg_enet_knob_table,             \
		.ctl = &enet_ctl_ops,                                                       \
	}

const struct seg_kind seg_enet_kind =
	LINK_KIND("ENET link", "enet", "169.254.20.", 0x20, ENET_LINK_SOCK);
const struct seg_kind seg_gbeth_kind =
	LINK_KIND("GbEth link", "gbeth", "169.254.40.", 0x40, GBETH_LINK_SOCK);
const struct seg_kind seg_etsec_kind =
	LINK_KIND("eTSEC link", "tsec", "169.254.30.", 0x30, ETSEC_LINK_SOCK);
