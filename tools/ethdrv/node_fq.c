// SPDX-License-Identifier: MIT
/*
 * The node's fair queue (fq.h, docs/fq.md): every frame read from the TAP
 * (a TSO frame cut first) waits in its flow's queue and goes to the driver
 * by DRR while the driver's queue accepts (BQL decides how much the driver
 * holds); knobs with fq_codel's names. Loop thread only: the TAP reads, the
 * TX wake and the control socket all run there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/knob.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

#define FQ_STAT(field) ETHDRV_STAT_DESC(struct fq_stats, field)

static const struct ethdrv_stat_desc node_fq_stats_desc[] = {
	FQ_STAT(fq_enqueued),	   FQ_STAT(fq_dequeued),    FQ_STAT(fq_drops), FQ_STAT(fq_marks),
	FQ_STAT(fq_overlimit),	   FQ_STAT(fq_new_flows),   FQ_STAT(fq_flows), FQ_STAT(fq_backlog),
	FQ_STAT(fq_backlog_bytes), FQ_STAT(fq_backlog_max),
};

static const struct ethdrv_knob node_fq_knobs[] = {
	ETHDRV_KNOB_BOOL("fq", "TAP frames through per-flow queues: DRR + CoDel (docs/fq.md)"),
	ETHDRV_KNOB_TEXT("fq_target", "N[ms|us|ns]", "us", "CoDel target sojourn (5ms)"),
	ETHDRV_KNOB_TEXT("fq_interval", "N[ms|us|ns]", "us", "CoDel interval, >= target (100ms)"),
	ETHDRV_KNOB_UINT("fq_quantum", 64, 65536, "bytes", "bytes per flow per DRR round"),
	ETHDRV_KNOB_UINT("fq_limit", 1, FQ_LIMIT_MAX, "frames",
			 "frames held, all flows (the pool's room for them)"),
	ETHDRV_KNOB_UINT("fq_flows", 1, FQ_FLOWS_MAX, "", "hash buckets (only while empty)"),
	ETHDRV_KNOB_BOOL("fq_ecn", "CoDel marks ECN-capable frames instead of dropping them"),
};

const struct ethdrv_knob_table node_fq_knob_table = ETHDRV_KNOB_TABLE("node", node_fq_knobs);

int node_fq_open(struct node *n)
{
	struct fq_cfg cfg;

	fq_cfg_default(&cfg);
	n->fq_on = false; /* knob fq=on: not yet measured as the default (docs/fq.md §4) */
	return fq_init(&n->fq, &cfg, (uint32_t)ethdrv_now_ns() ^ (uint32_t)(uintptr_t)n);
}

void node_fq_register(struct node *n, struct ethdrv_stats_set *set)
{
	if (ethdrv_stats_add_group(set, "node", node_fq_stats_desc,
				   ETHDRV_ARRAY_SIZE(node_fq_stats_desc), &n->fq.st) ||
	    ethdrv_stats_add_hist(set, "node_fq_sojourn_ns", &n->fq.sojourn_ns))
		ethdrv_warn(n->dev, "fair queue counters not added to the stats");
}

void node_fq_close(struct node *n)
{
	fq_free(&n->fq);
}

void node_fq_pump(struct node *n)
{
	struct ethdrv_pkt *pkt;

	if (n->tx_parked)
		return; /* the driver's queue is stopped: its wake pumps again */
	while (n->fq.backlog && (pkt = fq_dequeue(&n->fq, ethdrv_now_ns())))
		if (!node_xmit(n, pkt))
			return;
}

/* A time: "5ms", "500us", "100000ns", or a plain number of microseconds. */
static int node_fq_time(const char *v, uint64_t *ns)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || end == v || x > 60000000ull)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		*ns = x * 1000000ull;
	else if (!strcmp(end, "us") || !*end)
		*ns = x * 1000ull;
	else if (!strcmp(end, "ns"))
		*ns = x;
	else
		return -EINVAL;
	return *ns ? 0 : -EINVAL;
}

static int node_fq_uint(const char *v, uint32_t min, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || end == v || *end || x < min || x > max)
		return -EINVAL;
	*out = (uint32_t)x;
	return 0;
}

/* on|1|off|0 into *@on; a bad value changes nothing. */
static int node_fq_onoff(const char *v, bool *on)
{
	bool yes = !strcmp(v, "on") || !strcmp(v, "1");

	if (!yes && strcmp(v, "off") && strcmp(v, "0"))
		return -EINVAL;
	*on = yes;
	return 0;
}

int node_fq_set(struct node *n, const char *key, const char *value)
{
	struct fq_cfg c = n->fq.cfg;
	uint64_t ns;
	int err;

	if (!strcmp(key, "fq"))
		return node_fq_onoff(value, &n->fq_on);
	if (!strcmp(key, "fq_ecn"))
		return node_fq_onoff(value, &n->fq.cfg.ecn);
	if (!strcmp(key, "fq_target") || !strcmp(key, "fq_interval")) {
		err = node_fq_time(value, &ns);
		if (err)
			return err;
		*(key[3] == 't' ? &c.target_ns : &c.interval_ns) = ns;
		if (c.interval_ns < c.target_ns)
			return -EINVAL; /* the window is at least the target */
		n->fq.cfg = c;
		return 0;
	}
	if (!strcmp(key, "fq_quantum"))
		return node_fq_uint(value, 64, 65536, &n->fq.cfg.quantum);
	if (!strcmp(key, "fq_limit"))
		/* the frames held come from the device's pool, which has room
		 * for FQ_LIMIT_MAX of them (docs/fq.md §2) */
		return node_fq_uint(value, 1, FQ_LIMIT_MAX, &n->fq.cfg.limit);
	if (!strcmp(key, "fq_flows")) {
		err = node_fq_uint(value, 1, FQ_FLOWS_MAX, &c.flows);
		if (err)
			return err;
		if (n->fq.backlog)
			return -EBUSY; /* the buckets change: only when empty */
		struct fq_cfg old = n->fq.cfg;
		uint32_t seed = n->fq.seed;

		fq_free(&n->fq);
		err = fq_init(&n->fq, &c, seed);
		if (err && fq_init(&n->fq, &old, seed))
			n->fq_on = false; /* no memory even for the old buckets */
		return err;
	}
	return -ENOENT;
}

int node_fq_get(struct node *n, const char *key, char *buf, size_t size)
{
	const struct fq_cfg *c = &n->fq.cfg;

	if (!strcmp(key, "fq"))
		snprintf(buf, size, "%s", n->fq_on ? "on" : "off");
	else if (!strcmp(key, "fq_ecn"))
		snprintf(buf, size, "%s", c->ecn ? "on" : "off");
	else if (!strcmp(key, "fq_target"))
		snprintf(buf, size, "%lluus", (unsigned long long)(c->target_ns / 1000));
	else if (!strcmp(key, "fq_interval"))
		snprintf(buf, size, "%lluus", (unsigned long long)(c->interval_ns / 1000));
	else if (!strcmp(key, "fq_quantum"))
		snprintf(buf, size, "%u", c->quantum);
	else if (!strcmp(key, "fq_limit"))
		snprintf(buf, size, "%u", c->limit);
	else if (!strcmp(key, "fq_flows"))
		snprintf(buf, size, "%u", c->flows);
	else
		return -ENOENT;
	return 0;
}
