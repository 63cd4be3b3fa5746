// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 error policy and recovery (oa_tc6.h): what the
 * framework does when a footer, STATUS0/STATUS1, a control transaction or
 * the bus reports a fault; recovery by chip re-initialisation from the poll
 * context with backoff; the periodic configuration check; and the watchdog
 * timer on the loop thread that drives retries, polled mode and the check.
 */
#include <errno.h>

#include "ethdrv/log.h"
#include "oa_tc6_priv.h"

ETHDRV_LOG_MODULE(oa_tc6);

#define OA_TC6_BACKOFF_MIN_NS (100ull * 1000 * 1000)
#define OA_TC6_BACKOFF_MAX_NS (3200ull * 1000 * 1000)

static const char *const oa_tc6_cause_names[OA_TC6_CAUSE_NR] = {
	"txpe", "lofe", "nofooter", "sync",    "resetc", "status1",
	"ctrl", "bus",	"config",   "rxstall", "user",
};

/* Request a recovery; the first cause wins until it ran. Bus lock held. */
void oa_tc6_schedule_recovery(struct oa_tc6 *tc6, enum oa_tc6_cause cause)
{
	if (tc6->in_init || !__atomic_load_n(&tc6->running, __ATOMIC_RELAXED))
		return;
	if (tc6->recover_pending)
		return;
	tc6->stall_start_ns = ethdrv_now_ns();
	tc6->backoff_ns = OA_TC6_BACKOFF_MIN_NS;
	__atomic_store_n(&tc6->next_try_ns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&tc6->recover_pending, (int)cause + 1, __ATOMIC_RELEASE);
	ethdrv_warn(tc6->dev, "recovery needed: %s", oa_tc6_cause_names[cause]);
	ethdrv_napi_schedule(tc6->napi);
}

void oa_tc6_request_recovery(struct oa_tc6 *tc6)
{
	oa_tc6_mutex_lock(&tc6->bus_lock);
	oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_USER);
	oa_tc6_mutex_unlock(&tc6->bus_lock);
}

uint64_t oa_tc6_recoveries(const struct oa_tc6 *tc6)
{
	return ethdrv_counter_get(&tc6->st.recoveries);
}

/* The STATUS1 bits with a counter of their own, and their counters. */
static const struct {
	uint32_t bit; /* OA_TC6_STATUS1_* */
	size_t counter; /* offset in struct oa_tc6_stats */
} oa_tc6_status1_counters[] = {
	{ OA_TC6_STATUS1_RXNER, offsetof(struct oa_tc6_stats, status1_rxner) },
	{ OA_TC6_STATUS1_TXNER, offsetof(struct oa_tc6_stats, status1_txner) },
	{ OA_TC6_STATUS1_FSMSTER, offsetof(struct oa_tc6_stats, status1_fsmster) },
	{ OA_TC6_STATUS1_ECC, offsetof(struct oa_tc6_stats, status1_ecc) },
	{ OA_TC6_STATUS1_UV18, offsetof(struct oa_tc6_stats, status1_uv18) },
	{ OA_TC6_STATUS1_BUSER, offsetof(struct oa_tc6_stats, status1_buser) },
};

/* Count the bits of one STATUS0/STATUS1 snapshot; other STATUS1 bits in status1_other. */
static void oa_tc6_count_status(struct oa_tc6 *tc6, uint32_t s0, uint32_t s1)
{
	uint32_t known = 0;

	for (int i = 0; i < OA_TC6_STATUS0_NR; i++)
		if (s0 & ETHDRV_BIT(i))
			ethdrv_counter_inc(&tc6->st.status0[i]);
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(oa_tc6_status1_counters); i++) {
		known |= oa_tc6_status1_counters[i].bit;
		if (s1 & oa_tc6_status1_counters[i].bit)
			ethdrv_counter_inc(
				(ethdrv_counter_t *)((char *)&tc6->st +
						     oa_tc6_status1_counters[i].counter));
	}
	if (s1 & ~known)
		ethdrv_counter_inc(&tc6->st.status1_other);
}

/* RX overflow per policy: drop the frame in flight or only count (docs/tc6.md §4.2). */
static void oa_tc6_rx_overflow(struct oa_tc6 *tc6)
{
	struct ethdrv_link_stats *ls = &tc6->dev->stats;

	ethdrv_counter_inc(&tc6->st.rx_overflow);
	if (__atomic_load_n(&tc6->rxboe_log, __ATOMIC_RELAXED))
		ethdrv_err_ratelimited(tc6->dev, "rx: receive buffer overflow");
	if (!__atomic_load_n(&tc6->rxboe_drop, __ATOMIC_RELAXED))
		return;
	if (oa_tc6_rx_abort(&tc6->rx)) {
		ethdrv_counter_inc(&ls->rx_over_errors);
		ethdrv_counter_inc(&ls->rx_errors);
	}
}

/* EXST: read STATUS0/1 in one transaction, clear them (W1C), act (docs/tc6.md §3.4-3.5). */
void oa_tc6_handle_exst(struct oa_tc6 *tc6)
{
	uint32_t st[2];

	ethdrv_counter_inc(&tc6->st.exst);
	if (oa_tc6_read_regs(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STATUS0, st, 2))
		return;
	if ((st[0] || st[1]) && oa_tc6_write_regs(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STATUS0, st, 2))
		return;
	oa_tc6_count_status(tc6, st[0], st[1]);
	if (st[0] & OA_TC6_STATUS0_RXBOE)
		oa_tc6_rx_overflow(tc6);
	if (st[0] & OA_TC6_STATUS0_PHYINT)
		oa_tc6_mdio_phyint(tc6);
	/* HDRE is the event an HDRB footer already showed (its frame is dropped
	 * at completion) or a control header refused (the echo fails and the
	 * transaction is tried again): counted, no reset (docs/tc6.md §2.4.1). */
	if (st[0] & OA_TC6_STATUS0_TXPE)
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_TXPE);
	else if (st[0] & OA_TC6_STATUS0_LOFE)
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_LOFE);
	else if (st[1] & OA_TC6_STATUS1_FATAL)
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_STATUS1);
	else if (st[0] & OA_TC6_STATUS0_RESETC)
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_RESETC);
}

/* Run the chip's bring-up with nested recovery suppressed. Bus lock held. */
int oa_tc6_chip_init(struct oa_tc6 *tc6)
{
	int ret;

	tc6->in_init = true;
	ret = tc6->ops->init(tc6->chip);
	tc6->in_init = false;
	return ret;
}

/* Reset and bring the device back; on failure, retry later with backoff. */
void oa_tc6_recover(struct oa_tc6 *tc6)
{
	int cause = tc6->recover_pending - 1;
	uint64_t now, stall;
	int ret;

	oa_tc6_flush(tc6, false);
	ret = oa_tc6_chip_init(tc6);
	now = ethdrv_now_ns();
	if (ret) {
		ethdrv_counter_inc(&tc6->st.recovery_failures);
		__atomic_store_n(&tc6->next_try_ns, now + tc6->backoff_ns, __ATOMIC_RELAXED);
		tc6->backoff_ns = ETHDRV_MIN(tc6->backoff_ns * 2, OA_TC6_BACKOFF_MAX_NS);
		ethdrv_err_ratelimited(tc6->dev, "recovery from %s failed: %d",
				       oa_tc6_cause_names[cause], ret);
		return;
	}
	stall = now - tc6->stall_start_ns;
	ethdrv_counter_inc(&tc6->st.recoveries);
	ethdrv_counter_inc(&tc6->st.recoveries_cause[cause]);
	ethdrv_counter_add(&tc6->st.recovery_ns, stall);
	ethdrv_hist_record(&tc6->recovery_stall_ns, stall);
	__atomic_store_n(&tc6->recover_pending, 0, __ATOMIC_RELEASE);
	ethdrv_info(tc6->dev, "recovered from %s in %llu us", oa_tc6_cause_names[cause],
		    (unsigned long long)(stall / 1000));
}

/* CONFIG0, IMASK0, then the chip's registers against what we wrote. */
static int oa_tc6_config_differs(struct oa_tc6 *tc6, struct oa_tc6_reg_diff *diff)
{
	/* RESETC cannot be masked: its IMASK0 bit is read-only (docs/tc6.md §3.4). */
	uint32_t imask_bits = OA_TC6_STATUS0_ALL & ~OA_TC6_STATUS0_RESETC;
	uint32_t imask = __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED);
	int ret;

	ret = oa_tc6_check_regs(tc6, OA_TC6_MMS_STD, OA_TC6_REG_CONFIG0, &tc6->config0,
				&tc6->config0_mask, 1, diff);
	if (!ret)
		ret = oa_tc6_check_regs(tc6, OA_TC6_MMS_STD, OA_TC6_REG_IMASK0, &imask, &imask_bits,
					1, diff);
	if (!ret && tc6->ops->check)
		ret = tc6->ops->check(tc6->chip, diff);
	return ret;
}

/*
 * The configuration check. Bit errors can turn a header into another one
 * with good parity (docs/tc6.md §1.3: parity sees only odd numbers of flips),
 * and the device then executes a write nobody sent: a register changes
 * with no status bit and traffic may stop for good (MAC disabled, SYNC
 * kept). Only reading back finds that. A read can itself be hit by bit
 * errors, so only a difference seen twice in a row counts.
 */
static void oa_tc6_check_config(struct oa_tc6 *tc6)
{
	struct oa_tc6_reg_diff diff;
	int ret;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	if (tc6->recover_pending || !tc6->synced)
		goto out_unlock;
	ethdrv_counter_inc(&tc6->st.config_checks);
	ret = oa_tc6_config_differs(tc6, &diff);
	if (ret > 0)
		ret = oa_tc6_config_differs(tc6, &diff);
	if (ret > 0) {
		ethdrv_counter_inc(&tc6->st.config_errors);
		ethdrv_err_ratelimited(tc6->dev,
				       "config check: MMS %u 0x%04x reads 0x%08x, expected 0x%08x",
				       diff.mms, diff.addr, diff.got, diff.want);
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_CONFIG);
	}
out_unlock:
	oa_tc6_mutex_unlock(&tc6->bus_lock);
}

/*
 * Loop-thread timer: recovery retries, polling without IRQ, lost progress,
 * and the configuration check when due.
 */
void oa_tc6_watchdog(struct ethdrv_timer *t)
{
	struct oa_tc6 *tc6 = t->data;
	uint64_t xfers = ethdrv_counter_get(&tc6->st.spi_transfers);
	unsigned check_ms = __atomic_load_n(&tc6->config_check_ms, __ATOMIC_RELAXED);
	uint64_t now = ethdrv_now_ns();
	bool schedule_poll = tc6->bus.irq_fd < 0;

	if (check_ms && now >= tc6->next_check_ns) {
		if (tc6->next_check_ns)
			oa_tc6_check_config(tc6);
		tc6->next_check_ns = now + check_ms * 1000000ull;
	}

	if (__atomic_load_n(&tc6->recover_pending, __ATOMIC_ACQUIRE))
		schedule_poll = now >= __atomic_load_n(&tc6->next_try_ns, __ATOMIC_RELAXED);
	else if (xfers == tc6->last_xfers && oa_tc6_txq_count(tc6))
		schedule_poll = true; /* frames waiting and no transfer for a whole period */
	tc6->last_xfers = xfers;
	if (schedule_poll && ethdrv_napi_schedule(tc6->napi) && tc6->bus.irq_fd >= 0)
		ethdrv_counter_inc(&tc6->st.watchdog_kicks);
}
