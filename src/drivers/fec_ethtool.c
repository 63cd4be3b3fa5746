// SPDX-License-Identifier: MIT
/*
 * ENET driver: knobs and counters. Interrupt coalescing under ethtool -C
 * names (rx-usecs, rx-frames, tx-usecs, tx-frames) mapped to RXIC0/TXIC0
 * with fec's limits (docs/enet.md §6), adaptive-rx/-tx through net DIM
 * (dim.h, docs/napi.md §5.2), napi_split; and the counters: the driver's,
 * and the 32-bit MIB block (docs/enet.md §7) accumulated into 64-bit ones.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fec_priv.h"

#define FEC_COAL_DEFAULT_USECS 1000u /* FEC_ITR_ICTT_DEFAULT (docs/enet.md §6) */
#define FEC_COAL_DEFAULT_FRAMES 200u /* FEC_ITR_ICFT_DEFAULT (docs/enet.md §6) */

/* ---- counters ---- */

static const struct ethdrv_stat_desc fec_stats_desc[] = {
	ETHDRV_STAT_DESC(struct fec_stats, irqs),
	ETHDRV_STAT_DESC(struct fec_stats, irq_spurious),
	ETHDRV_STAT_DESC(struct fec_stats, irq_rxf),
	ETHDRV_STAT_DESC(struct fec_stats, irq_txf),
	ETHDRV_STAT_DESC(struct fec_stats, irq_eberr),
	ETHDRV_STAT_DESC(struct fec_stats, irq_babr),
	ETHDRV_STAT_DESC(struct fec_stats, irq_babt),
	ETHDRV_STAT_DESC(struct fec_stats, irq_un),
	ETHDRV_STAT_DESC(struct fec_stats, irq_other),
	ETHDRV_STAT_DESC(struct fec_stats, rx_missed),
	ETHDRV_STAT_DESC(struct fec_stats, rx_alloc_failed),
	ETHDRV_STAT_DESC(struct fec_stats, rx_multi_bd),
	ETHDRV_STAT_DESC(struct fec_stats, rx_bad_len),
	ETHDRV_STAT_DESC(struct fec_stats, tx_ring_full),
	ETHDRV_STAT_DESC(struct fec_stats, tx_ring_wake),
	ETHDRV_STAT_DESC(struct fec_stats, tx_bounce),
	ETHDRV_STAT_DESC(struct fec_stats, tx_errors_bd),
	ETHDRV_STAT_DESC(struct fec_stats, restarts),
	ETHDRV_STAT_DESC(struct fec_stats, gra_timeouts),
	ETHDRV_STAT_DESC(struct fec_stats, dim_rx_changes),
	ETHDRV_STAT_DESC(struct fec_stats, dim_tx_changes),
};

/* The MIB block (docs/enet.md §7): register and counter name; 0x280 and 0x2A4 are reserved. */
static const struct fec_mib_reg {
	uint16_t reg; /* offset */
	const char *name; /* ethtool -S name, after "mib_" */
} fec_mib_regs[] = {
	{ 0x200, "rmon_t_drop" },	{ 0x204, "rmon_t_packets" },
	{ 0x208, "rmon_t_bc_pkt" },	{ 0x20C, "rmon_t_mc_pkt" },
	{ 0x210, "rmon_t_crc_align" },	{ 0x214, "rmon_t_undersize" },
	{ 0x218, "rmon_t_oversize" },	{ 0x21C, "rmon_t_frag" },
	{ 0x220, "rmon_t_jab" },	{ 0x224, "rmon_t_col" },
	{ 0x228, "rmon_t_p64" },	{ 0x22C, "rmon_t_p65to127" },
	{ 0x230, "rmon_t_p128to255" },	{ 0x234, "rmon_t_p256to511" },
	{ 0x238, "rmon_t_p512to1023" }, { 0x23C, "rmon_t_p1024to2047" },
	{ 0x240, "rmon_t_p_gte2048" },	{ 0x244, "rmon_t_octets" },
	{ 0x248, "ieee_t_drop" },	{ 0x24C, "ieee_t_frame_ok" },
	{ 0x250, "ieee_t_1col" },	{ 0x254, "ieee_t_mcol" },
	{ 0x258, "ieee_t_def" },	{ 0x25C, "ieee_t_lcol" },
	{ 0x260, "ieee_t_excol" },	{ 0x264, "ieee_t_macerr" },
	{ 0x268, "ieee_t_cserr" },	{ 0x26C, "ieee_t_sqe" },
	{ 0x270, "ieee_t_fdxfc" },	{ 0x274, "ieee_t_octets_ok" },
	{ 0x284, "rmon_r_packets" },	{ 0x288, "rmon_r_bc_pkt" },
	{ 0x28C, "rmon_r_mc_pkt" },	{ 0x290, "rmon_r_crc_align" },
	{ 0x294, "rmon_r_undersize" },	{ 0x298, "rmon_r_oversize" },
	{ 0x29C, "rmon_r_frag" },	{ 0x2A0, "rmon_r_jab" },
	{ 0x2A8, "rmon_r_p64" },	{ 0x2AC, "rmon_r_p65to127" },
	{ 0x2B0, "rmon_r_p128to255" },	{ 0x2B4, "rmon_r_p256to511" },
	{ 0x2B8, "rmon_r_p512to1023" }, { 0x2BC, "rmon_r_p1024to2047" },
	{ 0x2C0, "rmon_r_p_gte2048" },	{ 0x2C4, "rmon_r_octets" },
	{ 0x2C8, "ieee_r_drop" },	{ 0x2CC, "ieee_r_frame_ok" },
	{ 0x2D0, "ieee_r_crc" },	{ 0x2D4, "ieee_r_align" },
	{ 0x2D8, "ieee_r_macerr" },	{ 0x2DC, "ieee_r_fdxfc" },
	{ 0x2E0, "ieee_r_octets_ok" },
};

#define FEC_MIB_COUNT ETHDRV_ARRAY_SIZE(fec_mib_regs)
#define FEC_MIB_R_DROP 0x2C8 /* IEEE_R_DROP: frames without an empty BD */

int fec__stats_register(struct fec_priv *priv)
{
	struct ethdrv_stats_set *set = priv->dev.stats_set;
	int ret;

	priv->mib = calloc(FEC_MIB_COUNT, sizeof(*priv->mib));
	priv->mib_last = calloc(FEC_MIB_COUNT, sizeof(*priv->mib_last));
	priv->mib_desc = calloc(FEC_MIB_COUNT, sizeof(*priv->mib_desc));
	if (!priv->mib || !priv->mib_last || !priv->mib_desc)
		return -ENOMEM;
	for (size_t i = 0; i < FEC_MIB_COUNT; i++)
		priv->mib_desc[i] =
			(struct ethdrv_stat_desc){ fec_mib_regs[i].name, i * sizeof(*priv->mib) };
	ret = ethdrv_stats_add_group(set, "fec", fec_stats_desc, ETHDRV_ARRAY_SIZE(fec_stats_desc),
				     &priv->st);
	if (!ret)
		ret = ethdrv_stats_add_group(set, "mib", priv->mib_desc, FEC_MIB_COUNT, priv->mib);
	return ret;
}

void fec__stats_free(struct fec_priv *priv)
{
	free(priv->mib);
	free(priv->mib_last);
	free(priv->mib_desc);
}

/* MIBC.MIB_CLEAR exists on the i.MX6 parts (FreeBSD, docs/enet.md §15). */
static bool fec_soc_mib_clear(enum ethdrv_enet_soc soc)
{
	return soc == ETHDRV_ENET_SOC_IMX6Q || soc == ETHDRV_ENET_SOC_IMX6SX ||
	       soc == ETHDRV_ENET_SOC_IMX6UL;
}

/*
 * Zero the MIB block and count from zero again (docs/enet.md §7, §15):
 * MIB_CLEAR where the part has it, else Linux's and FreeBSD's way, each
 * counter written 0 while MIB_DIS is set (the reserved words are skipped).
 * Counting stays off until fec_hw_config() writes MIBC = 0.
 */
void fec__mib_clear(struct fec_priv *priv)
{
	if (fec_soc_mib_clear(priv->cfg.soc)) {
		fec_wr(priv, FEC_REG_MIBC, FEC_MIBC_DIS | FEC_MIBC_CLEAR);
		fec_wr(priv, FEC_REG_MIBC, FEC_MIBC_DIS);
	} else {
		fec_wr(priv, FEC_REG_MIBC, FEC_MIBC_DIS);
		for (size_t i = 0; i < FEC_MIB_COUNT; i++)
			fec_wr(priv, fec_mib_regs[i].reg, 0);
	}
	memset(priv->mib_last, 0, FEC_MIB_COUNT * sizeof(*priv->mib_last));
}

/*
 * Fold the 32-bit MIB registers into the 64-bit counters. Called at least
 * every second while up (the octet counters wrap after 34 s at 1 Gb/s).
 * Frames the MAC dropped for want of an empty BD (IEEE_R_DROP) are the
 * device's missed frames (rx_missed_errors).
 */
void fec__mib_harvest(struct fec_priv *priv)
{
	for (size_t i = 0; i < FEC_MIB_COUNT; i++) {
		uint32_t v = fec_rd(priv, fec_mib_regs[i].reg), delta = v - priv->mib_last[i];

		priv->mib_last[i] = v;
		ethdrv_counter_add(&priv->mib[i], delta);
		if (fec_mib_regs[i].reg == FEC_MIB_R_DROP && delta) {
			ethdrv_counter_add(&priv->st.rx_missed, delta);
			ethdrv_counter_add(&priv->dev.stats.rx_missed_errors, delta);
		}
	}
}

/* ---- coalescing (docs/enet.md §6) ---- */

/* Linux's conversion: ticks of 64 system clocks, rounded down. */
static uint64_t coal_ticks(const struct fec_priv *priv, unsigned usecs)
{
	return (uint64_t)usecs * (priv->cfg.clk_ahb_hz / 64000) / 1000;
}

/* The RXIC0/TXIC0 value for (@usecs, @frames); 0 = coalescing off. */
static uint32_t coal_reg(const struct fec_priv *priv, unsigned usecs, unsigned frames)
{
	if (!usecs && frames <= 1)
		return 0;
	return FEC_IC_EN | FEC_IC_CS |
	       ETHDRV_FIELD_PREP(FEC_IC_FT, ETHDRV_MIN(frames, FEC_IC_FT_MAX)) |
	       ETHDRV_FIELD_PREP(FEC_IC_TT, ETHDRV_MIN(coal_ticks(priv, usecs), FEC_IC_TT_MAX));
}

/* fec's rules: frames 1..255; usecs within the 16-bit timer; both set, or
 * usecs 0 with frames 1 ("off", ethtool's convention, docs/napi.md §5.1). */
static int coal_check(const struct fec_priv *priv, unsigned usecs, unsigned frames)
{
	if (frames > FEC_IC_FT_MAX || coal_ticks(priv, usecs) > FEC_IC_TT_MAX)
		return -EINVAL;
	if (!usecs)
		return frames == 1 ? 0 : -EINVAL;
	return frames ? 0 : -EINVAL;
}

void fec__coal_apply(struct fec_priv *priv, unsigned dir)
{
	struct fec_coal *c = &priv->coal[dir];
	unsigned usecs = c->usecs, frames = c->frames;

	if (__atomic_load_n(&c->adaptive, __ATOMIC_ACQUIRE)) {
		usecs = ethdrv_dim_current(&c->dim)->usec;
		frames = ethdrv_dim_current(&c->dim)->pkts;
	}
	fec_wr(priv, dir == FEC_RX ? FEC_REG_RXIC0 : FEC_REG_TXIC0, coal_reg(priv, usecs, frames));
}

void fec__coal_defaults(struct fec_priv *priv)
{
	for (unsigned d = 0; d < 2; d++) {
		priv->coal[d].usecs = FEC_COAL_DEFAULT_USECS;
		priv->coal[d].frames = FEC_COAL_DEFAULT_FRAMES;
	}
}

/* One DIM sample when the direction's poller completes (docs/napi.md §5.2). */
void fec__dim_sample(struct fec_priv *priv, unsigned dir)
{
	struct fec_coal *c = &priv->coal[dir];
	struct ethdrv_dim_sample s;

	if (!__atomic_load_n(&c->adaptive, __ATOMIC_ACQUIRE))
		return;
	s.time_ns = ethdrv_now_ns();
	s.events = __atomic_load_n(&c->events, __ATOMIC_RELAXED);
	s.pkts = c->pkts;
	s.bytes = c->bytes;
	if (!ethdrv_dim_update(&c->dim, &s))
		return;
	fec__coal_apply(priv, dir);
	ethdrv_counter_inc(dir == FEC_RX ? &priv->st.dim_rx_changes : &priv->st.dim_tx_changes);
}

/* adaptive-rx/-tx: the pollers are paused while the owner of the DIM state changes. */
static int coal_set_adaptive(struct fec_priv *priv, unsigned dir, bool on)
{
	struct fec_coal *c = &priv->coal[dir];

	if (on == c->adaptive)
		return 0;
	if (priv->hw_up)
		fec__pollers_pause(priv);
	/* CQE profiles: ENET's timer starts at the first unsignalled frame (docs/enet.md §6). */
	ethdrv_dim_init(&c->dim, dir == FEC_RX ? ethdrv_dim_rx_cqe : ethdrv_dim_tx_cqe,
			ETHDRV_DIM_DEFAULT_PROFILE);
	__atomic_store_n(&c->adaptive, on, __ATOMIC_RELEASE);
	if (priv->hw_up) {
		fec__coal_apply(priv, dir);
		fec__pollers_resume(priv);
	}
	return 0;
}

/* ---- knobs ---- */

enum fec_knob {
	K_USECS,
	K_FRAMES,
	K_ADAPTIVE,
	K_SPLIT,
};

/* usecs: what the 16-bit RXIC0/TXIC0 timer holds at the default 125 MHz clock (coal_ticks). */
#define FEC_COAL_USECS_MAX 33556u

/* The knobs (knob.h, ethtool -C / sysfs names) and, in the same order, what each sets. */
static const struct ethdrv_knob fec_knob_descs[] = {
	ETHDRV_KNOB_UINT("rx-usecs", 0, FEC_COAL_USECS_MAX, "us",
			 "RX interrupt delay (ethtool -C; 0 needs rx-frames=1)"),
	ETHDRV_KNOB_UINT("rx-frames", 1, FEC_IC_FT_MAX, "frames",
			 "RX frames per interrupt (1 while rx-usecs=0)"),
	ETHDRV_KNOB_UINT("tx-usecs", 0, FEC_COAL_USECS_MAX, "us",
			 "TX interrupt delay (0 needs tx-frames=1)"),
	ETHDRV_KNOB_UINT("tx-frames", 1, FEC_IC_FT_MAX, "frames",
			 "TX frames per interrupt (1 while tx-usecs=0)"),
	ETHDRV_KNOB_BOOL("adaptive-rx", "DIM moderates RX interrupts"),
	ETHDRV_KNOB_BOOL("adaptive-tx", "DIM moderates TX interrupts"),
	ETHDRV_KNOB_UINT("napi_split", 0, 1, "", "TX confirmation in its own NAPI poller"),
};

const struct ethdrv_knob_table fec_knob_table = ETHDRV_KNOB_TABLE("fec", fec_knob_descs);

static const struct {
	enum fec_knob id; /* what it sets */
	int dir; /* FEC_RX, FEC_TX, or -1 */
} fec_knobs[] = {
	{ K_USECS, FEC_RX },	{ K_FRAMES, FEC_RX },	{ K_USECS, FEC_TX }, { K_FRAMES, FEC_TX },
	{ K_ADAPTIVE, FEC_RX }, { K_ADAPTIVE, FEC_TX }, { K_SPLIT, -1 },
};

static int knob_find(const char *key)
{
	const struct ethdrv_knob *k = ethdrv_knob_find(&fec_knob_table, key);

	_Static_assert(ETHDRV_ARRAY_SIZE(fec_knobs) == ETHDRV_ARRAY_SIZE(fec_knob_descs),
		       "one action per knob");
	return k ? (int)(k - fec_knob_descs) : -ENOENT;
}

static int coal_set_value(struct fec_priv *priv, unsigned dir, enum fec_knob id, unsigned v)
{
	struct fec_coal *c = &priv->coal[dir];
	unsigned usecs = id == K_USECS ? v : c->usecs, frames = id == K_FRAMES ? v : c->frames;
	int ret = coal_check(priv, usecs, frames);

	if (ret)
		return ret;
	c->usecs = usecs;
	c->frames = frames;
	if (priv->hw_up && !c->adaptive)
		fec__coal_apply(priv, dir);
	return 0;
}

int fec__set_param(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);
	int i = knob_find(key), ret;
	uint64_t v;
	bool b;

	if (i < 0)
		return fec__mdio_set_param(priv, key, value);
	if (fec_knobs[i].id == K_USECS || fec_knobs[i].id == K_FRAMES) {
		ret = ethdrv_knob_uint(&fec_knob_descs[i], value, &v);
		return ret ? ret :
			     coal_set_value(priv, (unsigned)fec_knobs[i].dir, fec_knobs[i].id,
					    (unsigned)v);
	}
	ret = ethdrv_knob_bool(value, &b);
	if (ret)
		return ret;
	if (fec_knobs[i].id == K_ADAPTIVE)
		return coal_set_adaptive(priv, (unsigned)fec_knobs[i].dir, b);
	return fec__irq_set_split(priv, b);
}

int fec__get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);
	int i = knob_find(key), len;
	const struct fec_coal *c;

	if (i < 0)
		return fec__mdio_get_param(priv, key, buf, size);
	c = fec_knobs[i].dir >= 0 ? &priv->coal[fec_knobs[i].dir] : NULL;
	switch (fec_knobs[i].id) {
	case K_USECS:
		len = snprintf(buf, size, "%u", c->usecs);
		break;
	case K_FRAMES:
		len = snprintf(buf, size, "%u", c->frames);
		break;
	case K_ADAPTIVE:
		len = snprintf(buf, size, "%s", c->adaptive ? "on" : "off");
		break;
	default:
		len = snprintf(buf, size, "%d", priv->split ? 1 : 0);
		break;
	}
	return len < 0 || (size_t)len >= size ? -ENOSPC : 0;
}
