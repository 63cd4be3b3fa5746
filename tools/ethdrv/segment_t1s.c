// SPDX-License-Identifier: MIT
/*
 * The LAN8650 kind of `ethdrv segment` (segment_priv.h): N nodes t1s0..,
 * 169.254.10.K+1/24, on one emulated 10BASE-T1S PLCA medium (node 0 the
 * coordinator, node-cnt N), whose counters the segment serves on
 * /run/ethdrv/segment.sock.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ethdrv/err.h"
#include "segment_priv.h"

static_assert(sizeof(ethdrv_counter_t) == sizeof(uint64_t),
	      "medium counters are registered as ethdrv counters");

static const struct ethdrv_stat_desc t1s_stats_desc[] = {
	ETHDRV_STAT_DESC(struct emu_t1s_stats, preamble_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, frame_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, ifg_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, beacon_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, silence_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, backoff_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, collision_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, idle_ns),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, cycles),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, beacons),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, idle_cycles),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, empty_opportunities),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, excessive_collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, dropped),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, now_ns),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, start_ns),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, wakeups),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, pcap_errors),
};

static const struct ethdrv_stat_desc t1s_port_desc[] = {
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, frames),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, bytes),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, excessive_collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, dropped),
};

/* Register the medium's counters (in s->snap) and lateness histogram. */
static int t1s_stats_init(struct seg *s)
{
	char prefix[16];
	unsigned i;
	int err = ethdrv_stats_set_new(&s->set);

	if (!err)
		err = ethdrv_stats_add_group(s->set, "", t1s_stats_desc,
					     ETHDRV_ARRAY_SIZE(t1s_stats_desc), &s->snap);
	for (i = 0; !err && i < s->args.nodes; i++) {
		snprintf(prefix, sizeof(prefix), "port%u", i);
		err = ethdrv_stats_add_group(s->set, prefix, t1s_port_desc,
					     ETHDRV_ARRAY_SIZE(t1s_port_desc), &s->snap.port[i]);
	}
	if (!err)
		err = ethdrv_stats_add_hist(s->set, "lateness_ns",
					    emu_t1s_medium_lateness(s->medium));
	if (!err)
		err = seg_stats_add_ctl(s);
	return err;
}

static int t1s_medium_new(struct seg *s)
{
	struct emu_t1s_config mc = { .ports = s->args.nodes,
				     .realtime = true,
				     .pcap_path = s->args.pcap };
	int err = emu_t1s_medium_new(&mc, &s->medium);

	if (err) {
		fprintf(stderr, "ethdrv segment: medium%s%s: %s\n",
			s->args.pcap ? " with pcap " : "", s->args.pcap ? s->args.pcap : "",
			ethdrv_strerror(err));
		return err;
	}
	return t1s_stats_init(s);
}

static void t1s_medium_free(struct seg *s)
{
	emu_medium_free(s->medium ? emu_t1s_medium_base(s->medium) : NULL);
	s->medium = NULL;
}

/* PLCA: node 0 coordinates N nodes, each its own id; all on the medium. */
static void t1s_node_config(struct seg *s, unsigned i, struct node_config *nc)
{
	nc->plca = (struct lan865x_plca){ .enable = true,
					  .node_id = (uint8_t)i,
					  .node_cnt = (uint8_t)s->args.nodes };
	nc->medium = emu_t1s_medium_base(s->medium);
	nc->port = i;
}

/* ---- the medium's control socket ---- */

static int t1s_ctl_stats(void *arg, bool json, struct ctl_reply *r)
{
	struct seg *s = arg;

	emu_t1s_medium_get_stats(s->medium, &s->snap);
	return seg_stats_reply(s, json, r);
}

static const struct ethdrv_knob t1s_medium_knobs[] = {
	ETHDRV_KNOB_RO("nodes", "nodes", "nodes on the segment"),
	ETHDRV_KNOB_RO("beacon_bt", "bit times", "PLCA BEACON length"),
	ETHDRV_KNOB_RO("ifg_bt", "bit times", "inter-frame gap"),
	ETHDRV_KNOB_RO("bit_ns", "ns", "one bit time (10 Mb/s)"),
};

const struct ethdrv_knob_table seg_t1s_knob_table = ETHDRV_KNOB_TABLE("segment", t1s_medium_knobs);

static int t1s_ctl_set(void *arg, const char *key, const char *value, const char **why)
{
	return -EOPNOTSUPP; /* the medium has no knobs: set them on the nodes */
}

/* Read-only facts a client needs to compute the medium limit. */
static int t1s_ctl_get(void *arg, const char *key, char *buf, size_t size)
{
	struct seg *s = arg;
	unsigned v;

	if (!strcmp(key, "nodes"))
		v = s->args.nodes;
	else if (!strcmp(key, "beacon_bt"))
		v = EMU_T1S_BEACON_BT;
	else if (!strcmp(key, "ifg_bt"))
		v = EMU_T1S_IFG_BT;
	else if (!strcmp(key, "bit_ns"))
		v = EMU_BIT_NS;
	else
		return -ENOENT;
	return snprintf(buf, size, "%u", v) < (int)size ? 0 : -ENOSPC;
}

static int t1s_ctl_info(void *arg, struct ctl_reply *r)
{
	struct seg *s = arg;

	ctl_reply_printf(r, "name=%s\nnodes=%u\npcap=%s\npid=%ld\n", CTL_SEGMENT_NAME,
			 s->args.nodes, s->args.pcap ? s->args.pcap : "", (long)getpid());
	return 0;
}

static const struct ctl_ops t1s_ctl_ops = {
	.stats = t1s_ctl_stats,
	.set = t1s_ctl_set,
	.get = t1s_ctl_get,
	.knobs = seg_ctl_knobs,
	.info = t1s_ctl_info,
};

const struct seg_kind seg_t1s_kind = {
	.title = "segment",
	.prefix = "t1s",
	.subnet = "169.254.10.",
	.mac_id = 0x00,
	.sock = CTL_SEGMENT_NAME,
	.marker = CLI_RUN_DIR "/segment.pid",
	.lock = CLI_RUN_DIR "/segment.lock",
	.nodes_min = 2,
	.nodes_max = SEG_NODES_MAX,
	.medium_new = t1s_medium_new,
	.medium_free = t1s_medium_free,
	.node_config = t1s_node_config,
	.knobs = &seg_t1s_knob_table,
	.ctl = &t1s_ctl_ops,
};
