// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 knobs and counters (oa_tc6.h): the driver counters as
 * ethtool -S names them, and oa_tc6_set_param()/oa_tc6_get_param(): the
 * interrupt mask by STATUS0 source name, the RX overflow action, the
 * transfer cap and the configuration check period. The test and benchmark
 * knobs are handed to oa_tc6_hooks.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oa_tc6_priv.h"

#define OA_TC6_CONFIG_CHECK_MAX_MS 60000

/* The driver's knobs (knob.h); the handlers are oa_tc6_set_param() below. */
static const struct ethdrv_knob oa_tc6_knobs[] = {
	ETHDRV_KNOB_BOOL("rx_zero_align", "CONFIG0.ZARFE: RX frames start at chunk offset 0"),
	ETHDRV_KNOB_BOOL("rx_cut_through", "CONFIG0.RXCTE: RX cut-through (needs STDCAP.CTC)"),
	ETHDRV_KNOB_BOOL("tx_cut_through", "CONFIG0.TXCTE: TX cut-through (needs STDCAP.CTC)"),
	ETHDRV_KNOB_TEXT("irq_mask", "none|all|SRC[,SRC...]", "",
			 "masked STATUS0 sources (IMASK0), SRC as for irq.*"),
	ETHDRV_KNOB_TEXT("irq.*", "0|1", "",
			 "one STATUS0 source unmasked (1) or masked (0): irq.txpe, txboe, txbue, "
			 "rxboe, lofe, hdre, resetc, phyint, ttscaa, ttscab, ttscac, txfcse, cdpe"),
	ETHDRV_KNOB_ENUM("rxboe_action", "drop|count", "what an RX buffer overflow does"),
	ETHDRV_KNOB_BOOL("rxboe_log", "log each RX buffer overflow"),
	ETHDRV_KNOB_UINT("xfer_cap", 1, OA_TC6_XFER_CAP_MAX, "chunks", "chunks per SPI transfer"),
	ETHDRV_KNOB_UINT("config_check_ms", 0, OA_TC6_CONFIG_CHECK_MAX_MS, "ms",
			 "configuration check period (0 = off)"),
};

const struct ethdrv_knob_table oa_tc6_knob_table = ETHDRV_KNOB_TABLE("oa_tc6", oa_tc6_knobs);

static const char *const oa_tc6_status0_names[OA_TC6_STATUS0_NR] = {
	"txpe",	  "txboe",  "txbue",  "rxboe",	"lofe",	  "hdre", "resetc",
	"phyint", "ttscaa", "ttscab", "ttscac", "txfcse", "cdpe",
};

#define OA_TC6_DESC(field) ETHDRV_STAT_DESC(struct oa_tc6_stats, field)
#define OA_TC6_DESC_AT(name, field)                        \
	{                                                  \
		name, offsetof(struct oa_tc6_stats, field) \
	}

static const struct ethdrv_stat_desc oa_tc6_stats_desc[] = {
	OA_TC6_DESC(spi_transfers),
	OA_TC6_DESC(spi_bytes),
	OA_TC6_DESC(spi_errors),
	OA_TC6_DESC(chunks_tx),
	OA_TC6_DESC(chunks_rx),
	OA_TC6_DESC(chunks_empty),
	OA_TC6_DESC(ctrl_reads),
	OA_TC6_DESC(ctrl_writes),
	OA_TC6_DESC(ctrl_errors),
	OA_TC6_DESC(ctrl_retries),
	OA_TC6_DESC(ctrl_failures),
	OA_TC6_DESC(footer_parity_errors),
	OA_TC6_DESC(hdrb),
	OA_TC6_DESC(footers_absent),
	OA_TC6_DESC(sync_lost),
	OA_TC6_DESC(exst),
	OA_TC6_DESC_AT("status0_txpe", status0[0]),
	OA_TC6_DESC_AT("status0_txboe", status0[1]),
	OA_TC6_DESC_AT("status0_txbue", status0[2]),
	OA_TC6_DESC_AT("status0_rxboe", status0[3]),
	OA_TC6_DESC_AT("status0_lofe", status0[4]),
	OA_TC6_DESC_AT("status0_hdre", status0[5]),
	OA_TC6_DESC_AT("status0_resetc", status0[6]),
	OA_TC6_DESC_AT("status0_phyint", status0[7]),
	OA_TC6_DESC_AT("status0_ttscaa", status0[8]),
	OA_TC6_DESC_AT("status0_ttscab", status0[9]),
	OA_TC6_DESC_AT("status0_ttscac", status0[10]),
	OA_TC6_DESC_AT("status0_txfcse", status0[11]),
	OA_TC6_DESC_AT("status0_cdpe", status0[12]),
	OA_TC6_DESC(status1_rxner),
	OA_TC6_DESC(status1_txner),
	OA_TC6_DESC(status1_fsmster),
	OA_TC6_DESC(status1_ecc),
	OA_TC6_DESC(status1_uv18),
	OA_TC6_DESC(status1_buser),
	OA_TC6_DESC(status1_other),
	OA_TC6_DESC(rx_overflow),
	OA_TC6_DESC_AT("rx_drop_bad_footer", rx_drop[OA_TC6_RX_DROP_BAD_FOOTER]),
	OA_TC6_DESC_AT("rx_drop_oversize", rx_drop[OA_TC6_RX_DROP_OVERSIZE]),
	OA_TC6_DESC_AT("rx_drop_fd", rx_drop[OA_TC6_RX_DROP_FD]),
	OA_TC6_DESC_AT("rx_drop_no_sv", rx_drop[OA_TC6_RX_DROP_NO_SV]),
	OA_TC6_DESC_AT("rx_drop_restart", rx_drop[OA_TC6_RX_DROP_RESTART]),
	OA_TC6_DESC_AT("rx_drop_abort", rx_drop[OA_TC6_RX_DROP_ABORT]),
	OA_TC6_DESC_AT("rx_drop_bad_offset", rx_drop[OA_TC6_RX_DROP_BAD_OFFSET]),
	OA_TC6_DESC(rx_started),
	OA_TC6_DESC(rx_drop_runt),
	OA_TC6_DESC(rx_drop_crc),
	OA_TC6_DESC(rx_drop_nobuf),
	OA_TC6_DESC(tx_aborted_started),
	OA_TC6_DESC(tx_refused),
	OA_TC6_DESC(tx_credit_stalls),
	OA_TC6_DESC(tx_busy),
	OA_TC6_DESC(watchdog_kicks),
	OA_TC6_DESC(config_checks),
	OA_TC6_DESC(config_errors),
	OA_TC6_DESC(recoveries),
	OA_TC6_DESC_AT("recoveries_txpe", recoveries_cause[OA_TC6_CAUSE_TXPE]),
	OA_TC6_DESC_AT("recoveries_lofe", recoveries_cause[OA_TC6_CAUSE_LOFE]),
	OA_TC6_DESC_AT("recoveries_nofooter", recoveries_cause[OA_TC6_CAUSE_NOFOOTER]),
	OA_TC6_DESC_AT("recoveries_sync", recoveries_cause[OA_TC6_CAUSE_SYNC]),
	OA_TC6_DESC_AT("recoveries_resetc", recoveries_cause[OA_TC6_CAUSE_RESETC]),
	OA_TC6_DESC_AT("recoveries_status1", recoveries_cause[OA_TC6_CAUSE_STATUS1]),
	OA_TC6_DESC_AT("recoveries_ctrl", recoveries_cause[OA_TC6_CAUSE_CTRL]),
	OA_TC6_DESC_AT("recoveries_bus", recoveries_cause[OA_TC6_CAUSE_BUS]),
	OA_TC6_DESC_AT("recoveries_config", recoveries_cause[OA_TC6_CAUSE_CONFIG]),
	OA_TC6_DESC_AT("recoveries_rxstall", recoveries_cause[OA_TC6_CAUSE_RXSTALL]),
	OA_TC6_DESC_AT("recoveries_user", recoveries_cause[OA_TC6_CAUSE_USER]),
	OA_TC6_DESC(recovery_failures),
	OA_TC6_DESC(recovery_ns),
	OA_TC6_DESC(hw_resets),
	OA_TC6_DESC(irq_delays),
	OA_TC6_DESC(irq_delay_ns),
};

/* Register the counters and histograms in the device's stats set. */
int oa_tc6_register_stats(struct oa_tc6 *tc6)
{
	struct ethdrv_stats_set *set = tc6->dev->stats_set;
	int ret;

	tc6->chunks_per_transfer.unit = "chunks";
	tc6->recovery_stall_ns.unit = "ns";
	ret = ethdrv_stats_add_group(set, "", oa_tc6_stats_desc,
				     ETHDRV_ARRAY_SIZE(oa_tc6_stats_desc), &tc6->st);
	if (!ret)
		ret = ethdrv_stats_add_hist(set, "chunks_per_transfer", &tc6->chunks_per_transfer);
	if (!ret)
		ret = ethdrv_stats_add_hist(set, "recovery_stall_ns", &tc6->recovery_stall_ns);
	return ret;
}

/* Index of the STATUS0 source called @name (@len chars), or -1. */
static int oa_tc6_irq_index(const char *name, size_t len)
{
	for (int i = 0; i < OA_TC6_STATUS0_NR; i++)
		if (strlen(oa_tc6_status0_names[i]) == len &&
		    !strncmp(oa_tc6_status0_names[i], name, len))
			return i;
	return -1;
}

/* Parse "none", "all" or a comma list of source names into a mask. */
static int oa_tc6_parse_mask(const char *value, uint32_t *mask)
{
	const char *p = value;

	*mask = 0;
	if (!strcmp(value, "all")) {
		*mask = OA_TC6_STATUS0_ALL;
		return 0;
	}
	if (!*value || !strcmp(value, "none"))
		return 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int i = oa_tc6_irq_index(p, len);

		if (i < 0)
			return -EINVAL;
		*mask |= ETHDRV_BIT(i);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Store the IMASK0 policy and write it if the device runs. */
int oa_tc6_apply_imask(struct oa_tc6 *tc6, uint32_t mask)
{
	int ret = 0;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	__atomic_store_n(&tc6->imask0, mask, __ATOMIC_RELAXED);
	if (tc6->synced)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_IMASK0, mask);
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}

/* "0"/"1" (also "off"/"on") to a bool. */
int oa_tc6_parse_bool(const char *value, bool *out)
{
	if (!strcmp(value, "1") || !strcmp(value, "on"))
		*out = true;
	else if (!strcmp(value, "0") || !strcmp(value, "off"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

/* Unsigned decimal in [lo, hi]. */
int oa_tc6_parse_uint(const char *value, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	if (!*value || *end || v < lo || v > hi)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* Set one interrupt source: "irq.<name>" = 1 (unmasked) or 0 (masked). */
static int oa_tc6_set_irq_one(struct oa_tc6 *tc6, const char *name, const char *value)
{
	int i = oa_tc6_irq_index(name, strlen(name));
	uint32_t mask = __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED);
	bool on;

	if (i < 0)
		return -ENOENT;
	if (oa_tc6_parse_bool(value, &on))
		return -EINVAL;
	mask = on ? mask & ~ETHDRV_BIT(i) : mask | ETHDRV_BIT(i);
	return oa_tc6_apply_imask(tc6, mask);
}

/* The CONFIG0 bit a knob sets (docs/tc6.md §2.4, §5.4.1), or 0. */
static uint32_t oa_tc6_config0_knob(const char *key)
{
	if (!strcmp(key, "rx_zero_align"))
		return OA_TC6_CONFIG0_ZARFE;
	if (!strcmp(key, "rx_cut_through"))
		return OA_TC6_CONFIG0_RXCTE;
	if (!strcmp(key, "tx_cut_through"))
		return OA_TC6_CONFIG0_TXCTE;
	return 0;
}

/*
 * Set or clear a CONFIG0 knob bit. The device takes CONFIG0 before SYNC
 * (docs/tc6.md §4.1), so a change while it runs goes through a
 * re-initialisation. Cut-through needs STDCAP.CTC.
 */
static int oa_tc6_set_config0_knob(struct oa_tc6 *tc6, uint32_t bit, const char *value)
{
	uint32_t old, want;
	bool on;

	if (oa_tc6_parse_bool(value, &on))
		return -EINVAL;
	if (on && bit != OA_TC6_CONFIG0_ZARFE && !(tc6->id.stdcap & OA_TC6_STDCAP_CTC))
		return -EOPNOTSUPP;
	oa_tc6_mutex_lock(&tc6->bus_lock);
	old = __atomic_load_n(&tc6->config0_knobs, __ATOMIC_RELAXED);
	want = on ? old | bit : old & ~bit;
	__atomic_store_n(&tc6->config0_knobs, want, __ATOMIC_RELAXED);
	if (want != old && tc6->synced)
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_USER);
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return 0;
}

int oa_tc6_set_param(struct oa_tc6 *tc6, const char *key, const char *value)
{
	uint32_t bit = oa_tc6_config0_knob(key);

	uint32_t mask;
	uint64_t u;
	bool b;
	int ret;

	if (bit)
		return oa_tc6_set_config0_knob(tc6, bit, value);
	if (!strcmp(key, "irq_mask"))
		return oa_tc6_parse_mask(value, &mask) ?: oa_tc6_apply_imask(tc6, mask);
	if (!strncmp(key, "irq.", 4))
		return oa_tc6_set_irq_one(tc6, key + 4, value);
	if (!strcmp(key, "rxboe_action")) {
		if (strcmp(value, "drop") && strcmp(value, "count"))
			return -EINVAL;
		__atomic_store_n(&tc6->rxboe_drop, !strcmp(value, "drop"), __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "rxboe_log")) {
		if (oa_tc6_parse_bool(value, &b))
			return -EINVAL;
		__atomic_store_n(&tc6->rxboe_log, b, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "xfer_cap")) {
		if (ethdrv_knob_uint(ethdrv_knob_find(&oa_tc6_knob_table, key), value, &u))
			return -EINVAL;
		__atomic_store_n(&tc6->xfer_cap, (unsigned)u, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "config_check_ms")) {
		if (ethdrv_knob_uint(ethdrv_knob_find(&oa_tc6_knob_table, key), value, &u))
			return -EINVAL;
		__atomic_store_n(&tc6->config_check_ms, (unsigned)u, __ATOMIC_RELAXED);
		tc6->next_check_ns = 0; /* the new period starts at the next tick */
		return 0;
	}
	ret = oa_tc6_mdio_set_param(tc6, key, value);
	return ret == -ENOENT ? oa_tc6_hooks_set_param(tc6, key, value) : ret;
}

/* A string knob value into @buf; -ENOSPC on truncation. */
int oa_tc6_put_str(char *buf, size_t size, const char *s)
{
	int n = snprintf(buf, size, "%s", s);

	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

/* A number knob value into @buf; -ENOSPC on truncation. */
int oa_tc6_put_uint(char *buf, size_t size, unsigned u)
{
	int n = snprintf(buf, size, "%u", u);

	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

/* Comma list of masked sources into @buf ("none" when all are unmasked). */
static int oa_tc6_format_mask(uint32_t mask, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < OA_TC6_STATUS0_NR; i++) {
		int n;

		if (!(mask & ETHDRV_BIT(i)))
			continue;
		n = snprintf(buf + used, size - used, "%s%s", used ? "," : "",
			     oa_tc6_status0_names[i]);
		if (n < 0 || (size_t)n >= size - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	return used ? 0 : oa_tc6_put_str(buf, size, "none");
}

int oa_tc6_get_param(struct oa_tc6 *tc6, const char *key, char *buf, size_t size)
{
	uint32_t mask = __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED);
	uint32_t bit = oa_tc6_config0_knob(key);
	int ret;

	if (!size)
		return -ENOSPC;
	if (bit)
		return oa_tc6_put_str(buf, size,
				      __atomic_load_n(&tc6->config0_knobs, __ATOMIC_RELAXED) & bit ?
					      "on" :
					      "off");
	if (!strcmp(key, "irq_mask"))
		return oa_tc6_format_mask(mask, buf, size);
	if (!strncmp(key, "irq.", 4)) {
		int i = oa_tc6_irq_index(key + 4, strlen(key + 4));

		return i < 0 ? -ENOENT : oa_tc6_put_uint(buf, size, !(mask & ETHDRV_BIT(i)));
	}
	if (!strcmp(key, "rxboe_action"))
		return oa_tc6_put_str(buf, size, tc6->rxboe_drop ? "drop" : "count");
	if (!strcmp(key, "rxboe_log"))
		return oa_tc6_put_uint(buf, size, tc6->rxboe_log);
	if (!strcmp(key, "xfer_cap"))
		return oa_tc6_put_uint(buf, size, tc6->xfer_cap);
	if (!strcmp(key, "config_check_ms"))
		return oa_tc6_put_uint(buf, size, tc6->config_check_ms);
	ret = oa_tc6_mdio_get_param(tc6, key, buf, size);
	return ret == -ENOENT ? oa_tc6_hooks_get_param(tc6, key, buf, size) : ret;
}
