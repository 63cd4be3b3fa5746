// SPDX-License-Identifier: MIT
/*
 * gianfar driver: knobs and counters. Coalescing under ethtool -C names
 * (rx-usecs, rx-frames, tx-usecs, tx-frames) with gianfar's units and
 * limits (docs/etsec.md §6), adaptive-rx/-tx through net DIM (dim.h,
 * docs/napi.md §5.2), napi_split (docs/etsec.md §8.2, §8.3); the driver's
 * counters and the RMON block (docs/etsec.md §7) folded into 64 bits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gianfar_priv.h"
#include "ethdrv/knob.h"

#define COAL_USECS_MAX 0xFFFFu /* GFAR_MAX_COAL_USECS */
#define COAL_FRAMES_MAX 255u /* ICFT is 8 bits */
#define DEFAULT_TX_TICKS 21u /* Linux DEFAULT_TXTIME, 10.75 us at 1 Gb/s */
#define DEFAULT_TX_FRAMES 16u

/* ---- counters ---- */

#define GSTAT(f) ETHDRV_STAT_DESC(struct gfar_stats, f)
static const struct ethdrv_stat_desc gfar_stats_desc[] = {
	GSTAT(irq_tx),		 GSTAT(irq_rx),	      GSTAT(irq_er),
	GSTAT(irq_missed_sched), GSTAT(irq_spurious), GSTAT(ev_bsy),
	GSTAT(ev_eberr),	 GSTAT(ev_babr),      GSTAT(ev_txe),
	GSTAT(ev_xfun),		 GSTAT(ev_other),     GSTAT(rx_alloc_failed),
	GSTAT(rx_multi_bd),	 GSTAT(rx_bad_len),   GSTAT(tx_ring_full),
	GSTAT(tx_ring_wake),	 GSTAT(tx_bounce),    GSTAT(polls_tx_budget),
	GSTAT(coal_rewrites),	 GSTAT(restarts),     GSTAT(graceful_timeouts),
	GSTAT(dim_changes),	 GSTAT(rdrp_carries),
};

/* The RMON block in register order (docs/etsec.md §7); 0x710 is reserved. */
static const char *const rmon_names[] = {
	"tx-rx-64-frames",
	"tx-rx-65-127-frames",
	"tx-rx-128-255-frames",
	"tx-rx-256-511-frames",
	"tx-rx-512-1023-frames",
	"tx-rx-1024-1518-frames",
	"tx-rx-1519-1522-good-vlan",
	"rx-bytes",
	"rx-packets",
	"rx-fcs-errors",
	"receive-multicast-packet",
	"receive-broadcast-packet",
	"rx-control-frame-packets",
	"rx-pause-frame-packets",
	"rx-unknown-op-code",
	"rx-alignment-error",
	"rx-frame-length-error",
	"rx-code-error",
	"rx-carrier-sense-error",
	"rx-undersize-packets",
	"rx-oversize-packets",
	"rx-fragmented-frames",
	"rx-jabber-frames",
	"rx-dropped-frames",
	"tx-byte-counter",
	"tx-packets",
	"tx-multicast-packets",
	"tx-broadcast-packets",
	"tx-pause-control-frames",
	"tx-deferral-packets",
	"tx-excessive-deferral-packets",
	"tx-single-collision-packets",
	"tx-multiple-collision-packets",
	"tx-late-collision-packets",
	"tx-excessive-collision-packets",
	"tx-total-collision",
	"reserved",
	"tx-dropped-frames",
	"tx-jabber-frames",
	"tx-fcs-errors",
	"tx-control-frames",
	"tx-oversize-frames",
	"tx-undersize-frames",
	"tx-fragmented-frames",
};

#define RMON_COUNT ETHDRV_ARRAY_SIZE(rmon_names)
_Static_assert(RMON_COUNT == (GFAR_RMON_LAST - GFAR_RMON_FIRST) / 4 + 1, "RMON table");

int gfar__stats_register(struct gfar_priv *priv)
{
	struct ethdrv_stats_set *set = priv->dev.stats_set;
	int ret;

	priv->rmon = calloc(RMON_COUNT, sizeof(*priv->rmon));
	priv->rmon_last = calloc(RMON_COUNT, sizeof(*priv->rmon_last));
	priv->rmon_desc = calloc(RMON_COUNT, sizeof(*priv->rmon_desc));
	if (!priv->rmon || !priv->rmon_last || !priv->rmon_desc)
		return -ENOMEM;
	for (size_t i = 0; i < RMON_COUNT; i++) {
		priv->rmon_desc[i].name = rmon_names[i];
		priv->rmon_desc[i].offset = i * sizeof(*priv->rmon);
	}
	ret = ethdrv_stats_add_group(set, "gfar", gfar_stats_desc,
				     ETHDRV_ARRAY_SIZE(gfar_stats_desc), &priv->st);
	if (!ret)
		ret = ethdrv_stats_add_group(set, "rmon", priv->rmon_desc, RMON_COUNT, priv->rmon);
	return ret;
}

void gfar__stats_free(struct gfar_priv *priv)
{
	free(priv->rmon);
	free(priv->rmon_last);
	free(priv->rmon_desc);
}

/* The driver zeroed the block (docs/etsec.md §9): count from 0 again. */
void gfar__rmon_rebase(struct gfar_priv *priv)
{
	memset(priv->rmon_last, 0, RMON_COUNT * sizeof(*priv->rmon_last));
}

/*
 * Fold the counters into 64 bits (at least every second: the byte counters
 * wrap after 34 s at 1 Gb/s). RDRP is 16 bits wide (docs/etsec.md §7); its
 * delta is the device's missed frames (rx_missed_errors). The carry bits
 * are cleared: the deltas already took the wraps into account.
 */
void gfar__rmon_harvest(struct gfar_priv *priv)
{
	/* The stats timer (device's loop) and MSRO (the error line's loop) both harvest. */
	mtx_lock(&priv->rmon_lock);
	for (size_t i = 0; i < RMON_COUNT; i++) {
		uint32_t off = GFAR_RMON_FIRST + 4 * (uint32_t)i, v = gfar_rd(priv, off);
		uint32_t d = v - priv->rmon_last[i];

		if (off == GFAR_RDRP) {
			d &= 0xFFFFu;
			ethdrv_counter_add(&priv->dev.stats.rx_missed_errors, d);
		}
		priv->rmon_last[i] = v;
		ethdrv_counter_add(&priv->rmon[i], d);
	}
	if (gfar_rd(priv, GFAR_CAR1) & GFAR_CAR1_C1RDR)
		ethdrv_counter_inc(&priv->st.rdrp_carries);
	gfar_wr(priv, GFAR_CAR1, ~0u);
	gfar_wr(priv, GFAR_CAR2, ~0u);
	mtx_unlock(&priv->rmon_lock);
}

/* ---- coalescing (docs/etsec.md §6) ---- */

/* One tick: 64 interface clocks, by the link speed the MAC runs at. */
static unsigned tick_ns(const struct gfar_priv *p)
{
	return p->speed_mbps == 10 ? 25600u : p->speed_mbps == 100 ? 2560u : 512u;
}

static uint32_t usecs_to_ticks(const struct gfar_priv *p, unsigned usecs)
{
	return (uint32_t)(((uint64_t)usecs * 1000 + tick_ns(p) - 1) / tick_ns(p));
}

/* TXIC/RXIC for (@ticks, @frames); 0 ticks or 0 frames is off. */
static uint32_t coal_value(unsigned ticks, unsigned frames)
{
	if (!ticks || !frames)
		return 0;
	return GFAR_IC_EN | ETHDRV_FIELD_PREP(GFAR_IC_FT, ETHDRV_MIN(frames, COAL_FRAMES_MAX)) |
	       ETHDRV_FIELD_PREP(GFAR_IC_TT, ETHDRV_MIN(ticks, 0xFFFFu));
}

/* Program one direction: 0 first, then the value, which resets the counters. */
void gfar__coal_write(struct gfar_priv *priv, unsigned dir)
{
	struct gfar_coal *c = &priv->coal[dir];
	uint32_t reg = dir == GFAR_RX ? GFAR_RXIC : GFAR_TXIC, v;

	if (__atomic_load_n(&c->adaptive, __ATOMIC_ACQUIRE))
		v = coal_value(usecs_to_ticks(priv, ethdrv_dim_current(&c->dim)->usec),
			       ethdrv_dim_current(&c->dim)->pkts);
	else
		v = coal_value(c->ticks, c->frames);
	gfar_wr(priv, reg, 0);
	gfar_wr(priv, reg, v);
}

/* Linux's defaults: TX 16 frames / 21 ticks, RX off (docs/etsec.md §6). */
void gfar__coal_defaults(struct gfar_priv *priv)
{
	priv->coal[GFAR_TX].frames = DEFAULT_TX_FRAMES;
	priv->coal[GFAR_TX].ticks = DEFAULT_TX_TICKS;
	priv->coal[GFAR_RX].frames = DEFAULT_TX_FRAMES;
	priv->coal[GFAR_RX].ticks = 0;
}

void gfar__dim_sample(struct gfar_priv *priv, unsigned dir)
{
	struct gfar_coal *c = &priv->coal[dir];
	struct ethdrv_dim_sample s = { .time_ns = ethdrv_now_ns(),
				       .events = __atomic_load_n(&c->events, __ATOMIC_RELAXED),
				       .pkts = c->pkts,
				       .bytes = c->bytes };

	if (!__atomic_load_n(&c->adaptive, __ATOMIC_ACQUIRE) || !ethdrv_dim_update(&c->dim, &s))
		return;
	gfar__coal_write(priv, dir);
	ethdrv_counter_inc(&priv->st.dim_changes);
}

static int set_adaptive(struct gfar_priv *priv, unsigned dir, bool on)
{
	struct gfar_coal *c = &priv->coal[dir];

	if (c->adaptive == on)
		return 0;
	if (priv->hw_up)
		gfar__pollers_pause(priv);
	/* eTSEC's timer runs from the first frame after the event: CQE profiles. */
	ethdrv_dim_init(&c->dim, dir == GFAR_RX ? ethdrv_dim_rx_cqe : ethdrv_dim_tx_cqe,
			ETHDRV_DIM_DEFAULT_PROFILE);
	__atomic_store_n(&c->adaptive, on, __ATOMIC_RELEASE);
	if (priv->hw_up) {
		gfar__coal_write(priv, dir);
		gfar__pollers_resume(priv);
	}
	return 0;
}

/* ---- knobs ---- */

enum gfar_knob_kind { KN_USECS, KN_FRAMES, KN_ADAPTIVE, KN_SPLIT };

/* The knobs (knob.h, ethtool -C names) and, in the same order, what each sets. */
static const struct ethdrv_knob gfar_knob_descs[] = {
	ETHDRV_KNOB_UINT("rx-usecs", 0, COAL_USECS_MAX, "us",
			 "RX interrupt delay (ethtool -C; 0 turns RX coalescing off)"),
	ETHDRV_KNOB_UINT("rx-frames", 0, COAL_FRAMES_MAX, "frames",
			 "RX frames per interrupt (0: off)"),
	ETHDRV_KNOB_UINT("tx-usecs", 0, COAL_USECS_MAX, "us", "TX interrupt delay (0: off)"),
	ETHDRV_KNOB_UINT("tx-frames", 0, COAL_FRAMES_MAX, "frames",
			 "TX frames per interrupt (0: off)"),
	ETHDRV_KNOB_BOOL("adaptive-rx", "DIM moderates RX interrupts"),
	ETHDRV_KNOB_BOOL("adaptive-tx", "DIM moderates TX interrupts"),
	ETHDRV_KNOB_UINT("napi_split", 0, 1, "",
			 "TX confirmation in its own NAPI poller (0: Linux 3.6's single poller)"),
};

const struct ethdrv_knob_table gfar_knob_table = ETHDRV_KNOB_TABLE("gianfar", gfar_knob_descs);

static const struct gfar_knob {
	enum gfar_knob_kind kind;
	unsigned dir;
} gfar_knobs[] = {
	{ KN_USECS, GFAR_RX },	{ KN_FRAMES, GFAR_RX },	  { KN_USECS, GFAR_TX },
	{ KN_FRAMES, GFAR_TX }, { KN_ADAPTIVE, GFAR_RX }, { KN_ADAPTIVE, GFAR_TX },
	{ KN_SPLIT, 0 },
};

_Static_assert(ETHDRV_ARRAY_SIZE(gfar_knobs) == ETHDRV_ARRAY_SIZE(gfar_knob_descs),
	       "one action per knob");

static const struct ethdrv_knob *knob_desc(const char *key)
{
	return ethdrv_knob_find(&gfar_knob_table, key);
}

static const struct gfar_knob *knob_of(const char *key)
{
	const struct ethdrv_knob *d = knob_desc(key);

	return d ? &gfar_knobs[d - gfar_knob_descs] : NULL;
}

static int set_number(struct gfar_priv *priv, const char *key, const struct gfar_knob *k,
		      const char *value)
{
	struct gfar_coal *c = &priv->coal[k->dir];
	uint64_t v;
	int ret = ethdrv_knob_uint(knob_desc(key), value, &v);

	if (ret)
		return ret;
	/* Stored in ticks at the current speed, as Linux does (not recomputed
	 * when the link speed changes, docs/etsec.md §6). */
	if (k->kind == KN_USECS)
		c->ticks = usecs_to_ticks(priv, (unsigned)v);
	else
		c->frames = (unsigned)v;
	if (priv->hw_up && !c->adaptive)
		gfar__coal_write(priv, k->dir);
	return 0;
}

int gfar__set_param(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	struct gfar_priv *priv = GFAR_FROM_NETDEV(dev);
	const struct gfar_knob *k = knob_of(key);
	bool b;
	int ret;

	if (!k)
		return gfar__mdio_set_param(priv, key, value);
	if (k->kind == KN_USECS || k->kind == KN_FRAMES)
		return set_number(priv, key, k, value);
	ret = ethdrv_knob_bool(value, &b);
	if (ret)
		return ret;
	return k->kind == KN_ADAPTIVE ? set_adaptive(priv, k->dir, b) : gfar__set_split(priv, b);
}

int gfar__get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	struct gfar_priv *priv = GFAR_FROM_NETDEV(dev);
	const struct gfar_knob *k = knob_of(key);
	const struct gfar_coal *c;
	int len;

	if (!k)
		return gfar__mdio_get_param(priv, key, buf, size);
	c = &priv->coal[k->dir];
	if (k->kind == KN_USECS)
		len = snprintf(buf, size, "%u",
			       (unsigned)((uint64_t)c->ticks * tick_ns(priv) / 1000));
	else if (k->kind == KN_FRAMES)
		len = snprintf(buf, size, "%u", c->frames);
	else if (k->kind == KN_ADAPTIVE)
		len = snprintf(buf, size, "%s", c->adaptive ? "on" : "off");
	else
		len = snprintf(buf, size, "%d", priv->split);
	return len < 0 || (size_t)len >= size ? -ENOSPC : 0;
}
