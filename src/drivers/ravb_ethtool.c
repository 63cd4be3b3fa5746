// SPDX-License-Identifier: MIT
/*
 * GbEth driver: counters and knobs. ethtool -S: the driver's counters
 * ("ravb_*") next to the link counters, which also take TROCR, CXR41 and
 * CXR42, read and cleared by writing 0 (docs/gbeth.md §8). Knobs:
 * poll_mode (2024 | pre2024, docs/gbeth.md §4.3, §4.4), rx-buf (bytes per
 * RX descriptor; the rings are rebuilt), rx-checksum (CSR0.RPE and the
 * trailer, docs/gbeth.md §7), the PHY knobs, and a clear refusal of the
 * ethtool -C names: GbEth has no interrupt coalescing (docs/gbeth.md §4.2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/knob.h"
#include "ethdrv/log.h"
#include "ravb_priv.h"

ETHDRV_LOG_MODULE(ravb);

static const struct ethdrv_stat_desc ravb_stats_desc[] = {
	ETHDRV_STAT_DESC(struct ravb_stats, irqs),
	ETHDRV_STAT_DESC(struct ravb_stats, irq_spurious),
	ETHDRV_STAT_DESC(struct ravb_stats, irq_rx),
	ETHDRV_STAT_DESC(struct ravb_stats, irq_tx),
	ETHDRV_STAT_DESC(struct ravb_stats, irq_err),
	ETHDRV_STAT_DESC(struct ravb_stats, irq_emac),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_over_errors),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_fifo_errors),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_multi_desc),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_orphan_parts),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_too_long),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_alloc_failed),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_ds0),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_bad_desc),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_csum_ok),
	ETHDRV_STAT_DESC(struct ravb_stats, rx_csum_bad),
	ETHDRV_STAT_DESC(struct ravb_stats, tx_ring_full),
	ETHDRV_STAT_DESC(struct ravb_stats, tx_ring_wake),
	ETHDRV_STAT_DESC(struct ravb_stats, tx_bounce),
	ETHDRV_STAT_DESC(struct ravb_stats, tx_too_long),
	ETHDRV_STAT_DESC(struct ravb_stats, polls_early_return),
	ETHDRV_STAT_DESC(struct ravb_stats, mode_timeouts),
	ETHDRV_STAT_DESC(struct ravb_stats, stop_timeouts),
};

int ravb__stats_register(struct ravb_priv *priv)
{
	return ethdrv_stats_add_group(priv->dev.stats_set, "ravb", ravb_stats_desc,
				      ETHDRV_ARRAY_SIZE(ravb_stats_desc), &priv->st);
}

/* TROCR, CXR41, CXR42 into the link counters, each cleared by writing 0 (docs/gbeth.md §8). */
void ravb__hw_counters(struct ravb_priv *priv)
{
	static const struct {
		uint32_t reg;
		size_t off;
	} map[] = {
		{ RAVB_TROCR, offsetof(struct ethdrv_link_stats, tx_dropped) },
		{ RAVB_CXR41, offsetof(struct ethdrv_link_stats, collisions) },
		{ RAVB_CXR42, offsetof(struct ethdrv_link_stats, tx_carrier_errors) },
	};

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(map); i++) {
		uint32_t v = ravb_rd(priv, map[i].reg);

		if (!v)
			continue;
		ravb_wr(priv, map[i].reg, 0);
		ethdrv_counter_add((ethdrv_counter_t *)((char *)&priv->dev.stats + map[i].off), v);
	}
}

/* The handler's error events into the netdev counters: every poll (docs/gbeth.md §4.3). */
void ravb__errors_copy(struct ravb_priv *priv)
{
	uint64_t over = ethdrv_counter_get(&priv->err_over);
	uint64_t fifo = ethdrv_counter_get(&priv->err_fifo);
	uint64_t seen_over = ethdrv_counter_get(&priv->st.rx_over_errors);
	uint64_t seen_fifo = ethdrv_counter_get(&priv->st.rx_fifo_errors);

	ethdrv_counter_add(&priv->dev.stats.rx_over_errors, over - seen_over);
	ethdrv_counter_add(&priv->dev.stats.rx_fifo_errors, fifo - seen_fifo);
	ethdrv_counter_set(&priv->st.rx_over_errors, over);
	ethdrv_counter_set(&priv->st.rx_fifo_errors, fifo);
}

/* ---- knobs ---- */

static const struct ethdrv_knob ravb_knob_descs[] = {
	/* docs/gbeth.md §4.3, docs/gbeth.md §4.4 */
	ETHDRV_KNOB_ENUM("poll_mode", "2024|pre2024",
			 "the poll: fixed (2024) or seed 004's before"),
	/* docs/gbeth.md §3.5 */
	ETHDRV_KNOB_TEXT("rx-buf", "64..4080|page|pre2024", "bytes",
			 "RX buffer per descriptor, even (page 1726, pre2024 4080)"),
	/* docs/gbeth.md §7 */
	ETHDRV_KNOB_BOOL("rx-checksum", "CSR0.RPE: the RX checksum trailer (ethtool -K rx)"),
	/* docs/gbeth.md §4.2: ethtool -C names read 0/off, setting them is refused */
	ETHDRV_KNOB_RO("rx-usecs", "us", "none: GbEth has no interrupt coalescing (0)"),
	ETHDRV_KNOB_RO("rx-frames", "", "none: GbEth has no interrupt coalescing (0)"),
	ETHDRV_KNOB_RO("tx-usecs", "us", "none: GbEth has no interrupt coalescing (0)"),
	ETHDRV_KNOB_RO("tx-frames", "", "none: GbEth has no interrupt coalescing (0)"),
	ETHDRV_KNOB_RO("adaptive-rx", "", "none: GbEth has no interrupt coalescing (off)"),
	ETHDRV_KNOB_RO("adaptive-tx", "", "none: GbEth has no interrupt coalescing (off)"),
};

const struct ethdrv_knob_table ravb_knob_table = ETHDRV_KNOB_TABLE("ravb", ravb_knob_descs);

/* ethtool -C names: read-only, there is nothing to program (docs/gbeth.md §4.2). */
static bool is_coalesce_key(const char *key)
{
	const struct ethdrv_knob *k = ethdrv_knob_find(&ravb_knob_table, key);

	return k && k->type == ETHDRV_KNOB_T_RO;
}

static int parse_rx_buf(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "pre2024")) {
		*out = RAVB_RX_BUF_PRE2024;
		return 0;
	}
	if (!strcmp(s, "page")) {
		*out = RAVB_RX_BUF_PAGE;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < RAVB_RX_BUF_MIN || v > RAVB_RX_BUF_PRE2024 || v % 2)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static void phy_knobs(struct ravb_priv *priv, struct ethdrv_phy_knobs *k)
{
	bool line = priv->cfg.phy_irq_fd > 0;

	*k = (struct ethdrv_phy_knobs){ .bus = priv->mii_bus,
					.phy = priv->dev.phydev,
					.irq_mode =
						line ? ETHDRV_PHY_IRQ_LINE : ETHDRV_PHY_IRQ_POLL,
					.irq_fd = line ? priv->cfg.phy_irq_fd : -1 };
}

/* A change that needs the rings rebuilt: stop the hardware, change, start again. */
static int ravb_rebuild(struct ravb_priv *priv, unsigned rx_buf, bool rx_csum)
{
	priv->rx_buf = rx_buf;
	priv->rx_csum = rx_csum;
	return priv->hw_up ? ravb__restart(priv) : 0;
}

int ravb__set_param(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);
	struct ethdrv_phy_knobs k;
	unsigned v;

	if (is_coalesce_key(key)) {
		ethdrv_err(
			dev,
			"%s: GbEth has no interrupt coalescing (docs/gbeth.md §4.2); use the core's"
			" napi_defer_hard_irqs and gro_flush_timeout",
			key);
		return -EOPNOTSUPP;
	}
	if (!strcmp(key, "poll_mode")) {
		if (!value || (strcmp(value, "2024") && strcmp(value, "pre2024"))) {
			ethdrv_err(dev, "poll_mode: 2024 or pre2024");
			return -EINVAL;
		}
		__atomic_store_n(&priv->poll_mode,
				 strcmp(value, "2024") ? RAVB_POLL_PRE2024 : RAVB_POLL_2024,
				 __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "rx-buf")) {
		if (parse_rx_buf(value, &v)) {
			ethdrv_err(dev,
				   "rx-buf: an even number of bytes %u..%u, page (%u) or"
				   " pre2024 (%u)",
				   RAVB_RX_BUF_MIN, RAVB_RX_BUF_PRE2024, RAVB_RX_BUF_PAGE,
				   RAVB_RX_BUF_PRE2024);
			return -EINVAL;
		}
		return ravb_rebuild(priv, v, priv->rx_csum);
	}
	if (!strcmp(key, "rx-checksum")) {
		bool on;

		if (ethdrv_knob_bool(value, &on)) {
			ethdrv_err(dev, "rx-checksum: on or off");
			return -EINVAL;
		}
		return ravb_rebuild(priv, priv->rx_buf, on);
	}
	phy_knobs(priv, &k);
	return ethdrv_phy_knob_set(&k, key, value);
}

int ravb__get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);
	struct ethdrv_phy_knobs k;
	int len;

	if (!strcmp(key, "poll_mode"))
		len = snprintf(buf, size, "%s",
			       __atomic_load_n(&priv->poll_mode, __ATOMIC_RELAXED) ==
					       RAVB_POLL_PRE2024 ?
				       "pre2024" :
				       "2024");
	else if (!strcmp(key, "rx-buf"))
		len = snprintf(buf, size, "%u", priv->rx_buf);
	else if (!strcmp(key, "rx-checksum"))
		len = snprintf(buf, size, "%s", priv->rx_csum ? "on" : "off");
	else if (is_coalesce_key(key))
		len = snprintf(buf, size, "%s", strncmp(key, "adaptive", 8) ? "0" : "off");
	else {
		phy_knobs(priv, &k);
		return ethdrv_phy_knob_get(&k, key, buf, size);
	}
	return len < 0 || (size_t)len >= size ? -ENOSPC : 0;
}
