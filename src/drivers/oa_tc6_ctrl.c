// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 control transactions (oa_tc6.h): register reads and
 * writes with echo and complement checks and bounded retries, the counted
 * SPI transfer every transaction goes through, and the bring-up steps the
 * chip driver's init calls (software reset, SYNC) and its check op uses.
 */
#include <errno.h>
#include <string.h>

#include "ethdrv/log.h"
#include "ethdrv/poll.h"
#include "oa_tc6_priv.h"

ETHDRV_LOG_MODULE(oa_tc6);

#define OA_TC6_CTRL_TRIES 3 /* bit errors happen: retry a control transaction */
#define OA_TC6_RESET_POLL_US 100
#define OA_TC6_RESET_TIMEOUT_US 100000
/* CONFIG0 fields the framework owns (docs/tc6.md §3.3); chips add theirs. */
#define OA_TC6_CONFIG0_OWNED                                                   \
	(OA_TC6_CONFIG0_SYNC | OA_TC6_CONFIG0_TXFCSVE | OA_TC6_CONFIG0_PROTE | \
	 OA_TC6_CONFIG0_CPS | OA_TC6_CONFIG0_ZARFE | OA_TC6_CONFIG0_CSARFE |   \
	 OA_TC6_CONFIG0_RXCTE | OA_TC6_CONFIG0_TXCTE)

int oa_tc6_spi_transfer(struct oa_tc6 *tc6, const uint8_t *tx, uint8_t *rx, size_t len)
{
	int ret = ethdrv_spi_transfer(&tc6->bus, tx, rx, len);

	ethdrv_counter_inc(&tc6->st.spi_transfers);
	ethdrv_counter_add(&tc6->st.spi_bytes, len);
	if (ret) {
		ethdrv_counter_inc(&tc6->st.spi_errors);
		return -EIO;
	}
	return 0;
}

/* One control try: build, transfer, check. Bus lock held. */
static int oa_tc6_ctrl_once(struct oa_tc6 *tc6, bool write, unsigned mms, unsigned addr,
			    uint32_t *vals, unsigned count)
{
	int len = oa_tc6_ctrl_build(tc6->ctrl_tx, sizeof(tc6->ctrl_tx), write, mms, addr, vals,
				    count, tc6->protected_active);
	int ret;

	if (len < 0)
		return len;
	ret = oa_tc6_spi_transfer(tc6, tc6->ctrl_tx, tc6->ctrl_rx, (size_t)len);
	if (ret)
		return ret;
	return oa_tc6_ctrl_parse(tc6->ctrl_tx, tc6->ctrl_rx, (size_t)len, tc6->protected_active,
				 write ? NULL : vals);
}

/* A control transaction with bounded retries (docs/tc6.md §1.4-1.6). */
static int oa_tc6_ctrl(struct oa_tc6 *tc6, bool write, unsigned mms, unsigned addr, uint32_t *vals,
		       unsigned count)
{
	int ret = -EINVAL;

	if (count < 1 || count > OA_TC6_MAX_REGS || mms > 15 || addr > 0xFFFF)
		return -EINVAL;
	oa_tc6_mutex_lock(&tc6->bus_lock);
	ethdrv_counter_inc(write ? &tc6->st.ctrl_writes : &tc6->st.ctrl_reads);
	for (int i = 0; i < OA_TC6_CTRL_TRIES; i++) {
		if (i)
			ethdrv_counter_inc(&tc6->st.ctrl_retries);
		ret = oa_tc6_ctrl_once(tc6, write, mms, addr, vals, count);
		if (!ret)
			break;
		ethdrv_counter_inc(&tc6->st.ctrl_errors);
	}
	if (ret) {
		ethdrv_counter_inc(&tc6->st.ctrl_failures);
		ethdrv_warn_ratelimited(tc6->dev, "ctrl: %s mms %u addr 0x%04x failed: %d",
					write ? "write" : "read", mms, addr, ret);
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_CTRL);
	}
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}

void oa_tc6_lock(struct oa_tc6 *tc6)
{
	oa_tc6_mutex_lock(&tc6->bus_lock);
}

void oa_tc6_unlock(struct oa_tc6 *tc6)
{
	oa_tc6_mutex_unlock(&tc6->bus_lock);
}

int oa_tc6_read_regs(struct oa_tc6 *tc6, unsigned mms, unsigned addr, uint32_t *vals,
		     unsigned count)
{
	return oa_tc6_ctrl(tc6, false, mms, addr, vals, count);
}

int oa_tc6_write_regs(struct oa_tc6 *tc6, unsigned mms, unsigned addr, const uint32_t *vals,
		      unsigned count)
{
	uint32_t buf[OA_TC6_MAX_REGS];

	if (count < 1 || count > OA_TC6_MAX_REGS)
		return -EINVAL;
	memcpy(buf, vals, count * sizeof(*vals));
	return oa_tc6_ctrl(tc6, true, mms, addr, buf, count);
}

/* The software reset failed with @err: reset through RESET_N if the bus has it. */
static int oa_tc6_sw_reset_failed(struct oa_tc6 *tc6, int err)
{
	int ret = oa_tc6_hw_reset(tc6);

	if (ret == -EOPNOTSUPP) {
		ethdrv_err(tc6->dev, "software reset failed: %d", err);
		return err;
	}
	if (ret)
		ethdrv_err(tc6->dev, "software reset failed: %d; reset through RESET_N too: %d",
			   err, ret);
	else
		ethdrv_warn(tc6->dev, "software reset failed: %d; reset through RESET_N", err);
	return ret;
}

int oa_tc6_sw_reset(struct oa_tc6 *tc6)
{
	uint32_t val = 0;
	int ret;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	tc6->synced = false;
	/* The echo of a reset may already be garbled; RESETC is what counts.
	 * After a reset PROTE is 0, so fall back to unprotected (docs/tc6.md §1.5). */
	ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_RESET, OA_TC6_RESET_SWRESET);
	tc6->protected_active = false;
	if (ret)
		oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_RESET, OA_TC6_RESET_SWRESET);
	/* docs/tc6.md §4.1 steps 3-4: poll RESETC, then clear it (W1C). */
	ret = ethdrv_poll_timeout(oa_tc6_read_reg, val, val & OA_TC6_STATUS0_RESETC,
				  OA_TC6_RESET_POLL_US, OA_TC6_RESET_TIMEOUT_US, tc6,
				  OA_TC6_MMS_STD, OA_TC6_REG_STATUS0);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STATUS0, val);
	if (ret)
		ret = oa_tc6_sw_reset_failed(tc6, ret);
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}

/*
 * CONFIG0 framework bits: chunk size, host FCS where validated (probe),
 * protected mode, and what the knobs ask for: zero-aligned RX frames,
 * cut-through (docs/tc6.md §2.4, §5.4.1).
 */
static uint32_t oa_tc6_config0(const struct oa_tc6 *tc6)
{
	uint32_t cps = tc6->cps == 32 ? OA_TC6_CONFIG0_CPS_32 : OA_TC6_CONFIG0_CPS_64;
	uint32_t v = ETHDRV_FIELD_PREP(OA_TC6_CONFIG0_CPS, cps) |
		     (tc6->tx_fcs_len ? OA_TC6_CONFIG0_TXFCSVE : 0) |
		     __atomic_load_n(&tc6->config0_knobs, __ATOMIC_RELAXED);

	return tc6->protected_mode ? v | OA_TC6_CONFIG0_PROTE : v;
}

/* Interrupt masks and status clearing before SYNC (docs/tc6.md §3.4-3.5). */
static int oa_tc6_setup_irqs(struct oa_tc6 *tc6)
{
	uint32_t clear[2] = { OA_TC6_STATUS0_ALL, UINT32_MAX };
	int ret;

	ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_IMASK0,
			       __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED));
	if (!ret)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_IMASK1,
				       ~OA_TC6_STATUS1_FATAL);
	if (!ret)
		ret = oa_tc6_write_regs(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STATUS0, clear, 2);
	return ret;
}

int oa_tc6_sync(struct oa_tc6 *tc6, uint32_t config0_extra)
{
	uint32_t cfg0 = oa_tc6_config0(tc6) | config0_extra, bufsts = 0;
	int ret;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	ret = oa_tc6_setup_irqs(tc6);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_CONFIG0, cfg0);
	if (ret)
		goto out_unlock;
	/* Protected framing applies from the transaction after the write. */
	tc6->protected_active = tc6->protected_mode;
	/* docs/tc6.md §4.1 step 6: SYNC last; step 7: initial credits. */
	ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_CONFIG0, cfg0 | OA_TC6_CONFIG0_SYNC);
	if (!ret)
		ret = oa_tc6_read_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_BUFSTS, &bufsts);
	if (ret)
		goto out_unlock;
	tc6->config0 = cfg0 | OA_TC6_CONFIG0_SYNC;
	tc6->config0_mask = OA_TC6_CONFIG0_OWNED | config0_extra;
	tc6->tx_credits = ETHDRV_MIN(ETHDRV_FIELD_GET(OA_TC6_BUFSTS_TXC, bufsts),
				     (uint32_t)OA_TC6_XFER_CAP_MAX);
	tc6->rx_chunks_available = ETHDRV_MIN(ETHDRV_FIELD_GET(OA_TC6_BUFSTS_RCA, bufsts), 31u);
	tc6->synced = true;
	tc6->must_send_chunk = true;
out_unlock:
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}

int oa_tc6_check_regs(struct oa_tc6 *tc6, unsigned mms, unsigned addr, const uint32_t *want,
		      const uint32_t *mask, unsigned count, struct oa_tc6_reg_diff *diff)
{
	uint32_t got[4];
	int ret;

	if (count < 1 || count > ETHDRV_ARRAY_SIZE(got))
		return -EINVAL;
	ret = oa_tc6_read_regs(tc6, mms, addr, got, count);
	if (ret)
		return ret;
	for (unsigned i = 0; i < count; i++) {
		if (!((got[i] ^ want[i]) & mask[i]))
			continue;
		*diff = (struct oa_tc6_reg_diff){ mms, addr + i, got[i], want[i] & mask[i] };
		return 1;
	}
	return 0;
}
