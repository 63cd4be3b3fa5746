// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 framework (see oa_tc6.h): control transactions, the
 * chunked data path in one NAPI poller, error policy and recovery.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "ethdrv/poll.h"
#include "oa_tc6.h"
#include "oa_tc6_proto.h"

ETHDRV_LOG_MODULE(oa_tc6);

#define OA_TC6_CTRL_TRIES 3 /* bit errors happen: retry a control transaction */
#define OA_TC6_ROUNDS_MAX 8 /* transfers per poll before yielding */
#define OA_TC6_CHUNK_MAX (OA_TC6_MAX_CPS + OA_TC6_WORD)
#define OA_TC6_DATA_BUF (OA_TC6_XFER_CAP_MAX * OA_TC6_CHUNK_MAX)
#define OA_TC6_FCS_RESIDUE 0x2144DF1Cu /* CRC-32 over a frame and its good FCS */
#define OA_TC6_MIN_FRAME (ETHDRV_ETH_ZLEN + ETHDRV_ETH_FCS_LEN)
#define OA_TC6_MAX_FRAME 1536 /* NCFGR.MAXFS, with FCS (TC6 facts §2.4) */
#define OA_TC6_WATCHDOG_NS (100ull * 1000 * 1000)
#define OA_TC6_POLL_MODE_NS (1000ull * 1000) /* no IRQ line: poll every ms */
#define OA_TC6_BACKOFF_MIN_NS (100ull * 1000 * 1000)
#define OA_TC6_BACKOFF_MAX_NS (3200ull * 1000 * 1000)
#define OA_TC6_RESET_POLL_US 100
#define OA_TC6_RESET_TIMEOUT_US 100000
#define OA_TC6_IRQ_DELAY_MAX_US 100000 /* irq_delay_us: at most 100 ms */
#define OA_TC6_CONFIG_CHECK_MS 1000 /* config_check_ms default (Zephyr checks every 1 s) */
#define OA_TC6_CONFIG_CHECK_MAX_MS 60000
/* CONFIG0 fields the framework owns (TC6 facts §3.3); chips add theirs. */
#define OA_TC6_CONFIG0_OWNED \
	(OA_TC6_CONFIG0_SYNC | OA_TC6_CONFIG0_TXFCSVE | OA_TC6_CONFIG0_PROTE | OA_TC6_CONFIG0_CPS)

/* The four error sources Linux unmasks (TC6 facts §3.4, napi-facts §8). */
#define OA_TC6_IRQ_LINUX \
	(OA_TC6_STATUS0_TXPE | OA_TC6_STATUS0_RXBOE | OA_TC6_STATUS0_LOFE | OA_TC6_STATUS0_HDRE)

static const char *const oa_tc6_status0_names[OA_TC6_STATUS0_NR] = {
	"txpe",	  "txboe",  "txbue",  "rxboe",	"lofe",	  "hdre", "resetc",
	"phyint", "ttscaa", "ttscab", "ttscac", "txfcse", "cdpe",
};

static const char *const oa_tc6_cause_names[OA_TC6_CAUSE_NR] = {
	"txpe",	   "lofe", "hdre", "hdrb",   "sync", "resetc",
	"status1", "ctrl", "bus",  "config", "user",
};

/* Driver counters, registered in the device's stats set (ethtool -S names). */
struct oa_tc6_stats {
	ethdrv_counter_t spi_transfers; /* data and control transfers */
	ethdrv_counter_t spi_bytes; /* bytes clocked in each direction */
	ethdrv_counter_t spi_errors; /* transfers the bus failed */
	ethdrv_counter_t chunks_tx; /* chunks sent with DV=1 */
	ethdrv_counter_t chunks_rx; /* chunks received with DV=1 */
	ethdrv_counter_t chunks_empty; /* chunks sent with DV=0 */
	ethdrv_counter_t ctrl_reads; /* read transactions */
	ethdrv_counter_t ctrl_writes; /* write transactions */
	ethdrv_counter_t ctrl_errors; /* failed tries (echo, complement, bus) */
	ethdrv_counter_t ctrl_retries; /* tries repeated after a failure */
	ethdrv_counter_t ctrl_failures; /* transactions that failed every try */
	ethdrv_counter_t footer_parity_errors; /* footers with even parity */
	ethdrv_counter_t hdrb; /* footers reporting a bad header */
	ethdrv_counter_t footers_absent; /* all-zero footer words: no data transaction */
	ethdrv_counter_t sync_lost; /* footers with SYNC=0 while synchronised */
	ethdrv_counter_t exst; /* transfers whose footers had EXST */
	ethdrv_counter_t status0[OA_TC6_STATUS0_NR]; /* per STATUS0 bit */
	ethdrv_counter_t status1_rxner; /* STATUS1 bits */
	ethdrv_counter_t status1_txner;
	ethdrv_counter_t status1_fsmster;
	ethdrv_counter_t status1_ecc;
	ethdrv_counter_t status1_uv18;
	ethdrv_counter_t status1_buser;
	ethdrv_counter_t status1_other;
	ethdrv_counter_t rx_overflow; /* RXBOE events */
	ethdrv_counter_t rx_drop[OA_TC6_RX_DROP_NR]; /* reassembly drops by reason */
	ethdrv_counter_t rx_started; /* frames opened by an SV in a good footer */
	ethdrv_counter_t rx_drop_runt; /* reassembled frames shorter than 64 bytes */
	ethdrv_counter_t rx_drop_crc; /* reassembled frames with a bad FCS */
	ethdrv_counter_t rx_drop_nobuf; /* good frames lost to an empty packet pool */
	ethdrv_counter_t tx_aborted_started; /* aborted frames whose SV chunk the device took */
	ethdrv_counter_t tx_credit_stalls; /* polls that ended with frames but no credits */
	ethdrv_counter_t tx_busy; /* start_xmit refused: txq_max reached */
	ethdrv_counter_t watchdog_kicks; /* polls scheduled by the watchdog */
	ethdrv_counter_t config_checks; /* periodic configuration checks run */
	ethdrv_counter_t config_errors; /* checks that found a register changed, twice */
	ethdrv_counter_t recoveries; /* completed recoveries, all causes */
	ethdrv_counter_t recoveries_cause[OA_TC6_CAUSE_NR]; /* by cause */
	ethdrv_counter_t recovery_failures; /* recovery attempts that failed */
	ethdrv_counter_t recovery_ns; /* total time traffic stood still */
	ethdrv_counter_t irq_delays; /* service episodes delayed by irq_delay_us */
	ethdrv_counter_t irq_delay_ns; /* time actually slept for them */
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
	OA_TC6_DESC(tx_credit_stalls),
	OA_TC6_DESC(tx_busy),
	OA_TC6_DESC(watchdog_kicks),
	OA_TC6_DESC(config_checks),
	OA_TC6_DESC(config_errors),
	OA_TC6_DESC(recoveries),
	OA_TC6_DESC_AT("recoveries_txpe", recoveries_cause[OA_TC6_CAUSE_TXPE]),
	OA_TC6_DESC_AT("recoveries_lofe", recoveries_cause[OA_TC6_CAUSE_LOFE]),
	OA_TC6_DESC_AT("recoveries_hdre", recoveries_cause[OA_TC6_CAUSE_HDRE]),
	OA_TC6_DESC_AT("recoveries_hdrb", recoveries_cause[OA_TC6_CAUSE_HDRB]),
	OA_TC6_DESC_AT("recoveries_sync", recoveries_cause[OA_TC6_CAUSE_SYNC]),
	OA_TC6_DESC_AT("recoveries_resetc", recoveries_cause[OA_TC6_CAUSE_RESETC]),
	OA_TC6_DESC_AT("recoveries_status1", recoveries_cause[OA_TC6_CAUSE_STATUS1]),
	OA_TC6_DESC_AT("recoveries_ctrl", recoveries_cause[OA_TC6_CAUSE_CTRL]),
	OA_TC6_DESC_AT("recoveries_bus", recoveries_cause[OA_TC6_CAUSE_BUS]),
	OA_TC6_DESC_AT("recoveries_config", recoveries_cause[OA_TC6_CAUSE_CONFIG]),
	OA_TC6_DESC_AT("recoveries_user", recoveries_cause[OA_TC6_CAUSE_USER]),
	OA_TC6_DESC(recovery_failures),
	OA_TC6_DESC(recovery_ns),
	OA_TC6_DESC(irq_delays),
	OA_TC6_DESC(irq_delay_ns),
};

/* What one poll hands back outside the lock. */
struct oa_tc6_round {
	unsigned tx_pkts; /* frames whose last chunk was accepted */
	unsigned tx_bytes; /* their BQL bytes */
	int rx_frames; /* frames reassembled (RX work) */
};

struct oa_tc6 {
	struct ethdrv_netdev *dev; /* the device */
	struct ethdrv_spi_bus bus; /* our copy of the bus */
	const struct oa_tc6_chip_ops *ops; /* chip bring-up */
	void *chip; /* its argument */
	struct ethdrv_napi *napi; /* the "rx" poller: all bus data traffic */
	struct ethdrv_timer watchdog; /* recovery retries, lost-progress kicks */

	/* Configuration: fixed at create, or atomics written by the loop thread. */
	unsigned cps; /* chunk payload bytes */
	bool prote_cfg; /* use protected control framing once configured */
	unsigned txq_max; /* queued frames before ETHDRV_TX_BUSY */
	unsigned xfer_cap; /* chunks per transfer (atomic) */
	uint32_t imask0; /* IMASK0 policy, 1 = masked (atomic) */
	bool rxboe_drop; /* RXBOE drops the frame in flight (atomic) */
	bool rxboe_log; /* RXBOE logs (atomic) */
	bool running; /* opened and not stopped (atomic) */
	unsigned irq_delay_us; /* benchmark knob: host service delay (atomic) */
	unsigned config_check_ms; /* configuration check period, 0 = off (atomic) */
	bool tracing; /* bus wrapped by ethdrv_spi_trace_start() (bus lock) */

	/* bus_lock (recursive) protects the bus, the buffers, everything below
	 * down to the TX queue, and a whole recovery. */
	mtx_t bus_lock;
	bool prote_active; /* control framing now in effect */
	bool synced; /* we set SYNC and the device has not lost it */
	bool in_init; /* the chip's init runs: no nested recovery */
	bool need_chunk; /* send at least one chunk (IRQ release) */
	bool episode_done; /* the last poll completed: the next one starts a service episode */
	unsigned tx_credits; /* TXC from the last good footer or BUFSTS */
	unsigned rca; /* RCA from the last good footer */
	struct ethdrv_pkt_queue inflight; /* frames with chunks on the wire, oldest first */
	unsigned tx_cur_idx; /* next chunk of inflight.tail, or 0 when it is complete */
	struct ethdrv_pkt_queue rx_ready; /* good frames to deliver after unlocking */
	struct oa_tc6_rx rx; /* reassembly */
	uint64_t rx_drops_seen[OA_TC6_RX_DROP_NR]; /* rx.drops already counted */
	uint64_t rx_opened_seen; /* rx.opened already counted */
	struct ethdrv_pkt *slot_sv[OA_TC6_XFER_CAP_MAX]; /* frame whose SV chunk is in slot i */
	int recover_pending; /* 0, or cause + 1 (atomic reads outside the lock) */
	uint64_t stall_start_ns; /* when traffic stopped for the pending recovery */
	uint64_t next_try_ns; /* earliest retry after a failed recovery (atomic) */
	uint64_t backoff_ns; /* current retry backoff */
	uint64_t last_xfers; /* spi_transfers seen by the last watchdog tick */
	uint64_t next_check_ns; /* when the next configuration check is due (loop thread) */
	uint32_t config0; /* CONFIG0 as oa_tc6_sync() left it */
	uint32_t config0_mask; /* its bits the check compares */

	/* tx_lock (recursive) protects txq and the BQL calls; taken after
	 * bus_lock, never before it. */
	mtx_t tx_lock;
	struct ethdrv_pkt_queue txq; /* frames not yet started */

	struct oa_tc6_stats st; /* counters */
	struct ethdrv_hist chunks_per_transfer; /* chunks in each data transfer */
	struct ethdrv_hist recovery_stall_ns; /* detection to traffic resumed */

	uint8_t ctrl_tx[OA_TC6_CTRL_MAX_LEN]; /* control MOSI */
	uint8_t ctrl_rx[OA_TC6_CTRL_MAX_LEN]; /* control MISO */
	uint8_t data_tx[OA_TC6_DATA_BUF]; /* data MOSI */
	uint8_t data_rx[OA_TC6_DATA_BUF]; /* data MISO */
	uint8_t rx_frame[ETHDRV_PKT_DATA_MAX]; /* reassembly buffer */
};

static void oa_tc6_trigger(struct oa_tc6 *tc6, enum oa_tc6_cause cause);

/* One SPI transfer, counted; a bus failure is counted too. */
static int oa_tc6_spi(struct oa_tc6 *tc6, const uint8_t *tx, uint8_t *rx, size_t len)
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
				    count, tc6->prote_active);
	int ret;

	if (len < 0)
		return len;
	ret = oa_tc6_spi(tc6, tc6->ctrl_tx, tc6->ctrl_rx, (size_t)len);
	if (ret)
		return ret;
	return oa_tc6_ctrl_parse(tc6->ctrl_tx, tc6->ctrl_rx, (size_t)len, tc6->prote_active,
				 write ? NULL : vals);
}

/* A control transaction with bounded retries (TC6 facts §1.4-1.6). */
static int oa_tc6_ctrl(struct oa_tc6 *tc6, bool write, unsigned mms, unsigned addr, uint32_t *vals,
		       unsigned count)
{
	int ret = -EINVAL;

	if (count < 1 || count > OA_TC6_MAX_REGS || mms > 15 || addr > 0xFFFF)
		return -EINVAL;
	mtx_lock(&tc6->bus_lock);
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
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_CTRL);
	}
	mtx_unlock(&tc6->bus_lock);
	return ret;
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

/* Request a recovery; the first cause wins until it ran. Bus lock held. */
static void oa_tc6_trigger(struct oa_tc6 *tc6, enum oa_tc6_cause cause)
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
	mtx_lock(&tc6->bus_lock);
	oa_tc6_trigger(tc6, OA_TC6_CAUSE_USER);
	mtx_unlock(&tc6->bus_lock);
}

uint64_t oa_tc6_recoveries(const struct oa_tc6 *tc6)
{
	return ethdrv_counter_get(&tc6->st.recoveries);
}

int oa_tc6_sw_reset(struct oa_tc6 *tc6)
{
	uint32_t val = 0;
	int ret;

	mtx_lock(&tc6->bus_lock);
	tc6->synced = false;
	/* The echo of a reset may already be garbled; RESETC is what counts.
	 * After a reset PROTE is 0, so fall back to unprotected (§1.5). */
	ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_RESET, OA_TC6_RESET_SWRESET);
	tc6->prote_active = false;
	if (ret)
		oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_RESET, OA_TC6_RESET_SWRESET);
	/* TC6 facts §4.1 steps 3-4: poll RESETC, then clear it (W1C). */
	ret = ethdrv_poll_timeout(oa_tc6_read_reg, val, val & OA_TC6_STATUS0_RESETC,
				  OA_TC6_RESET_POLL_US, OA_TC6_RESET_TIMEOUT_US, tc6,
				  OA_TC6_MMS_STD, OA_TC6_REG_STATUS0);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STATUS0, val);
	mtx_unlock(&tc6->bus_lock);
	if (ret)
		ethdrv_err(tc6->dev, "software reset failed: %d", ret);
	return ret;
}

/* CONFIG0 framework bits: chunk size, host FCS, protected mode. */
static uint32_t oa_tc6_config0(const struct oa_tc6 *tc6)
{
	uint32_t cps = tc6->cps == 32 ? OA_TC6_CONFIG0_CPS_32 : OA_TC6_CONFIG0_CPS_64;
	uint32_t v = ETHDRV_FIELD_PREP(OA_TC6_CONFIG0_CPS, cps) | OA_TC6_CONFIG0_TXFCSVE;

	return tc6->prote_cfg ? v | OA_TC6_CONFIG0_PROTE : v;
}

/* Interrupt masks and status clearing before SYNC (TC6 facts §3.4-3.5). */
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

	mtx_lock(&tc6->bus_lock);
	ret = oa_tc6_setup_irqs(tc6);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_CONFIG0, cfg0);
	if (ret)
		goto out_unlock;
	/* Protected framing applies from the transaction after the write. */
	tc6->prote_active = tc6->prote_cfg;
	/* TC6 facts §4.1 step 6: SYNC last; step 7: initial credits. */
	ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_CONFIG0, cfg0 | OA_TC6_CONFIG0_SYNC);
	if (!ret)
		ret = oa_tc6_read_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_BUFSTS, &bufsts);
	if (ret)
		goto out_unlock;
	tc6->config0 = cfg0 | OA_TC6_CONFIG0_SYNC;
	tc6->config0_mask = OA_TC6_CONFIG0_OWNED | config0_extra;
	tc6->tx_credits = ETHDRV_MIN(ETHDRV_FIELD_GET(OA_TC6_BUFSTS_TXC, bufsts),
				     (uint32_t)OA_TC6_XFER_CAP_MAX);
	tc6->rca = ETHDRV_MIN(ETHDRV_FIELD_GET(OA_TC6_BUFSTS_RCA, bufsts), 31u);
	tc6->synced = true;
	tc6->need_chunk = true;
out_unlock:
	mtx_unlock(&tc6->bus_lock);
	return ret;
}

/* Pad, append the FCS, count BQL bytes (TC6 facts §2.4, §3.3 TXFCSVE). */
static int oa_tc6_tx_prepare(struct ethdrv_pkt *pkt)
{
	uint32_t fcs;

	if (pkt->len + ETHDRV_ETH_FCS_LEN > OA_TC6_MAX_FRAME)
		return -EMSGSIZE;
	if (pkt->len < ETHDRV_ETH_ZLEN) {
		memset(pkt->data + pkt->len, 0, ETHDRV_ETH_ZLEN - pkt->len);
		pkt->len = ETHDRV_ETH_ZLEN;
	}
	fcs = oa_tc6_crc32(0, pkt->data, pkt->len);
	for (int i = 0; i < ETHDRV_ETH_FCS_LEN; i++)
		pkt->data[pkt->len + i] = (uint8_t)(fcs >> (8 * i));
	pkt->len += ETHDRV_ETH_FCS_LEN;
	return 0;
}

int oa_tc6_start_xmit(struct oa_tc6 *tc6, struct ethdrv_pkt *pkt)
{
	struct ethdrv_netdev *dev = tc6->dev;

	if (oa_tc6_tx_prepare(pkt)) {
		ethdrv_counter_inc(&dev->stats.tx_dropped);
		ethdrv_pkt_free(pkt);
		return ETHDRV_TX_OK;
	}
	mtx_lock(&tc6->tx_lock);
	if (tc6->txq.count >= tc6->txq_max) {
		ethdrv_netdev_tx_stop(dev);
		mtx_unlock(&tc6->tx_lock);
		pkt->len -= ETHDRV_ETH_FCS_LEN;
		ethdrv_counter_inc(&tc6->st.tx_busy);
		return ETHDRV_TX_BUSY;
	}
	ethdrv_pkt_queue_push(&tc6->txq, pkt);
	ethdrv_netdev_tx_sent(dev, pkt->len - ETHDRV_ETH_FCS_LEN);
	mtx_unlock(&tc6->tx_lock);
	ethdrv_napi_schedule(tc6->napi);
	return ETHDRV_TX_OK;
}

/* Frames waiting, not yet started. */
static unsigned oa_tc6_txq_count(struct oa_tc6 *tc6)
{
	unsigned n;

	mtx_lock(&tc6->tx_lock);
	n = tc6->txq.count;
	mtx_unlock(&tc6->tx_lock);
	return n;
}

/* Next frame to start, moved to inflight; NULL when none. */
static struct ethdrv_pkt *oa_tc6_tx_start_next(struct oa_tc6 *tc6)
{
	struct ethdrv_pkt *pkt;

	mtx_lock(&tc6->tx_lock);
	pkt = ethdrv_pkt_queue_pop(&tc6->txq);
	mtx_unlock(&tc6->tx_lock);
	if (pkt) {
		pkt->flags &= ~ETHDRV_PKT_F_DRV0;
		ethdrv_pkt_queue_push(&tc6->inflight, pkt);
	}
	return pkt;
}

/* True when a TX chunk is ready to go (credits aside). */
static bool oa_tc6_tx_pending(struct oa_tc6 *tc6)
{
	return tc6->tx_cur_idx || oa_tc6_txq_count(tc6);
}

/*
 * Place the next TX chunk at @slot; false when no frame is waiting. Sets
 * *@last if it is a frame's final chunk. One frame per chunk: never
 * concatenate (errata s4, TC6 facts §5.6).
 */
static bool oa_tc6_tx_fill(struct oa_tc6 *tc6, unsigned i, uint8_t *slot, bool norx, bool *last)
{
	struct ethdrv_pkt *pkt = tc6->tx_cur_idx ? tc6->inflight.tail : oa_tc6_tx_start_next(tc6);
	unsigned idx = tc6->tx_cur_idx, n, off;
	uint32_t hdr;

	if (!pkt)
		return false;
	tc6->slot_sv[i] = idx == 0 ? pkt : NULL;
	n = oa_tc6_tx_chunks(pkt->len, tc6->cps);
	off = idx * tc6->cps;
	hdr = oa_tc6_tx_chunk_header(pkt->len, tc6->cps, idx);
	if (norx)
		hdr = oa_tc6_set_parity(hdr | OA_TC6_DATA_HDR_NORX);
	oa_tc6_put_be32(slot, hdr);
	memcpy(slot + OA_TC6_WORD, pkt->data + off, ETHDRV_MIN(tc6->cps, pkt->len - off));
	*last = idx + 1 == n;
	tc6->tx_cur_idx = *last ? 0 : idx + 1;
	return true;
}

/* A reassembled frame: check length and CRC, strip the FCS, queue it. */
static void oa_tc6_rx_emit(void *arg, const uint8_t *frame, size_t len)
{
	struct oa_tc6 *tc6 = arg;
	struct ethdrv_link_stats *ls = &tc6->dev->stats;
	struct ethdrv_pkt *pkt;

	if (len < OA_TC6_MIN_FRAME) {
		ethdrv_counter_inc(&tc6->st.rx_drop_runt);
		ethdrv_counter_inc(&ls->rx_length_errors);
		ethdrv_counter_inc(&ls->rx_errors);
		return;
	}
	/* The FCS is kept on RX (NCFGR.RFCS off) so bit errors on SPI are caught. */
	if (oa_tc6_crc32(0, frame, len) != OA_TC6_FCS_RESIDUE) {
		ethdrv_counter_inc(&tc6->st.rx_drop_crc);
		ethdrv_counter_inc(&ls->rx_crc_errors);
		ethdrv_counter_inc(&ls->rx_errors);
		return;
	}
	pkt = ethdrv_pkt_alloc(tc6->dev->pool);
	if (!pkt) {
		ethdrv_counter_inc(&tc6->st.rx_drop_nobuf);
		ethdrv_counter_inc(&ls->rx_dropped);
		return;
	}
	pkt->len = (uint32_t)(len - ETHDRV_ETH_FCS_LEN);
	memcpy(pkt->data, frame, pkt->len);
	ethdrv_pkt_queue_push(&tc6->rx_ready, pkt);
}

/* Move new reassembly drops into the driver and link counters. */
static void oa_tc6_rx_account(struct oa_tc6 *tc6)
{
	struct ethdrv_link_stats *ls = &tc6->dev->stats;

	ethdrv_counter_add(&tc6->st.rx_started, tc6->rx.opened - tc6->rx_opened_seen);
	tc6->rx_opened_seen = tc6->rx.opened;
	for (int i = 0; i < OA_TC6_RX_DROP_NR; i++) {
		uint64_t d = tc6->rx.drops[i] - tc6->rx_drops_seen[i];

		if (!d)
			continue;
		tc6->rx_drops_seen[i] = tc6->rx.drops[i];
		ethdrv_counter_add(&tc6->st.rx_drop[i], d);
		if (i == OA_TC6_RX_DROP_ABORT)
			continue; /* counted by whoever aborted */
		ethdrv_counter_add(&ls->rx_errors, d);
		if (i == OA_TC6_RX_DROP_OVERSIZE)
			ethdrv_counter_add(&ls->rx_length_errors, d);
		else if (i == OA_TC6_RX_DROP_FD)
			ethdrv_counter_add(&ls->rx_crc_errors, d);
		else
			ethdrv_counter_add(&ls->rx_frame_errors, d);
	}
}

/* Count the bits of one STATUS0/STATUS1 snapshot. */
static void oa_tc6_count_status(struct oa_tc6 *tc6, uint32_t s0, uint32_t s1)
{
	for (int i = 0; i < OA_TC6_STATUS0_NR; i++)
		if (s0 & ETHDRV_BIT(i))
			ethdrv_counter_inc(&tc6->st.status0[i]);
	if (s1 & OA_TC6_STATUS1_RXNER)
		ethdrv_counter_inc(&tc6->st.status1_rxner);
	if (s1 & OA_TC6_STATUS1_TXNER)
		ethdrv_counter_inc(&tc6->st.status1_txner);
	if (s1 & OA_TC6_STATUS1_FSMSTER)
		ethdrv_counter_inc(&tc6->st.status1_fsmster);
	if (s1 & OA_TC6_STATUS1_ECC)
		ethdrv_counter_inc(&tc6->st.status1_ecc);
	if (s1 & OA_TC6_STATUS1_UV18)
		ethdrv_counter_inc(&tc6->st.status1_uv18);
	if (s1 & OA_TC6_STATUS1_BUSER)
		ethdrv_counter_inc(&tc6->st.status1_buser);
	if (s1 & ~(OA_TC6_STATUS1_FATAL | OA_TC6_STATUS1_ECC | OA_TC6_STATUS1_UV18 |
		   OA_TC6_STATUS1_BUSER))
		ethdrv_counter_inc(&tc6->st.status1_other);
}

/* RX overflow per policy: drop the frame in flight or only count (§4.2). */
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

/* EXST: read STATUS0/1 in one transaction, clear them (W1C), act (§3.4-3.5). */
static void oa_tc6_handle_exst(struct oa_tc6 *tc6)
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
	if (st[0] & OA_TC6_STATUS0_TXPE)
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_TXPE);
	else if (st[0] & OA_TC6_STATUS0_LOFE)
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_LOFE);
	else if (st[0] & OA_TC6_STATUS0_HDRE)
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_HDRE);
	else if (st[1] & OA_TC6_STATUS1_FATAL)
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_STATUS1);
	else if (st[0] & OA_TC6_STATUS0_RESETC)
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_RESETC);
}

/* Complete the @k oldest inflight frames: their last chunk was accepted. */
static void oa_tc6_tx_complete(struct oa_tc6 *tc6, unsigned k, struct oa_tc6_round *r)
{
	while (k--) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_queue_pop(&tc6->inflight);

		r->tx_pkts++;
		r->tx_bytes += pkt->len - ETHDRV_ETH_FCS_LEN;
		ethdrv_pkt_free(pkt);
	}
}

/* Per-transfer footer summary. */
struct oa_tc6_xfer_sum {
	bool hdrb; /* some footer had HDRB */
	bool absent; /* some footer word was all zero */
	bool exst; /* some footer had EXST */
	bool unsync; /* some footer had SYNC=0 */
	bool last_ok; /* the last footer passed parity */
	struct oa_tc6_footer last; /* the last good footer */
};

/* Parse footer @i of the transfer and feed its payload to reassembly. */
static void oa_tc6_rx_slot(struct oa_tc6 *tc6, unsigned i, bool norx, struct oa_tc6_xfer_sum *s,
			   struct oa_tc6_round *r)
{
	const uint8_t *p = tc6->data_rx + i * (tc6->cps + OA_TC6_WORD);
	uint32_t word = oa_tc6_get_be32(p + tc6->cps);
	struct oa_tc6_footer f;
	bool ok = !oa_tc6_footer_decode(word, &f);

	/* The frame begun in this slot is the device's unless a good footer
	 * says the header was refused or the device was not synchronised
	 * (TC6 facts §2.3 HDRB; then no data moved in the chunk), or no footer
	 * came at all: an all-zero word never has odd parity (§1.3), it is
	 * MISO held low, e.g. the device took the transfer for a control one
	 * with a bad header (a flipped DNC bit). */
	if (tc6->slot_sv[i] && word && !(ok && (f.hdrb || !f.sync)))
		tc6->slot_sv[i]->flags |= ETHDRV_PKT_F_DRV0;
	s->last_ok = ok;
	s->absent |= !word;
	if (!ok) {
		ethdrv_counter_inc(&tc6->st.footer_parity_errors);
		if (!norx) /* a NORX chunk carried no RX data for sure */
			oa_tc6_rx_chunk(&tc6->rx, p, tc6->cps, &f, false, NULL, NULL);
		return;
	}
	s->last = f;
	s->hdrb |= f.hdrb;
	s->exst |= f.exst;
	s->unsync |= !f.sync;
	if (f.dv)
		ethdrv_counter_inc(&tc6->st.chunks_rx);
	r->rx_frames += (int)oa_tc6_rx_chunk(&tc6->rx, p, tc6->cps, &f, true, oa_tc6_rx_emit, tc6);
}

/* Chunks for the next transfer: TX within credits, RCA, at least one. */
static unsigned oa_tc6_xfer_build(struct oa_tc6 *tc6, unsigned rx_allow, unsigned *n_last)
{
	unsigned cap = __atomic_load_n(&tc6->xfer_cap, __ATOMIC_RELAXED);
	unsigned csz = tc6->cps + OA_TC6_WORD, n = 0, want;
	bool last;

	/* 1. TX chunks, as many as credits allow (TC6 facts §2.5). */
	*n_last = 0;
	while (n < ETHDRV_MIN(cap, tc6->tx_credits)) {
		uint8_t *slot = tc6->data_tx + n * csz;

		memset(slot, 0, csz);
		if (!oa_tc6_tx_fill(tc6, n, slot, n >= rx_allow, &last))
			break;
		*n_last += last;
		n++;
	}
	ethdrv_counter_add(&tc6->st.chunks_tx, n);
	for (unsigned i = n; i < OA_TC6_XFER_CAP_MAX; i++)
		tc6->slot_sv[i] = NULL;
	/* 2. Empty chunks to pull RCA (within the RX budget), or one to release
	 * IRQ_N (§2.5, §2.7). */
	want = ETHDRV_MIN(tc6->rca, rx_allow);
	if (tc6->need_chunk || !n)
		want = ETHDRV_MAX(want, 1u);
	want = ETHDRV_MIN(want, cap);
	for (; n < want; n++) {
		uint32_t hdr =
			oa_tc6_data_header(&(struct oa_tc6_data_hdr){ .norx = n >= rx_allow });

		memset(tc6->data_tx + n * csz, 0, csz);
		oa_tc6_put_be32(tc6->data_tx + n * csz, hdr);
		ethdrv_counter_inc(&tc6->st.chunks_empty);
	}
	return n;
}

/* One data transfer and its footers. Bus lock held. Returns 0 or -EIO. */
static int oa_tc6_xfer(struct oa_tc6 *tc6, unsigned rx_allow, struct oa_tc6_round *r)
{
	struct oa_tc6_xfer_sum s = { 0 };
	unsigned n_last, n = oa_tc6_xfer_build(tc6, rx_allow, &n_last);
	int ret;

	ethdrv_hist_record(&tc6->chunks_per_transfer, n);
	ret = oa_tc6_spi(tc6, tc6->data_tx, tc6->data_rx, n * (tc6->cps + OA_TC6_WORD));
	if (ret) {
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_BUS);
		return ret;
	}
	tc6->need_chunk = false;
	for (unsigned i = 0; i < n; i++)
		oa_tc6_rx_slot(tc6, i, i >= rx_allow, &s, r);
	oa_tc6_rx_account(tc6);
	/* Credits from the last footer only; unknown after a bad one (§2.5). */
	tc6->tx_credits = s.last_ok ? s.last.txc : 0;
	tc6->rca = s.last_ok ? s.last.rca : 0;
	tc6->need_chunk = !s.last_ok;
	/* A fault seen in this transfer may have cost its TX chunks: they stay
	 * inflight and the recovery aborts them; tx_aborted_started says how
	 * many of them the device had taken (and counts itself). No footer at
	 * all means the device did not see a data transaction: recover too. */
	if (s.hdrb || s.absent) {
		ethdrv_counter_inc(s.hdrb ? &tc6->st.hdrb : &tc6->st.footers_absent);
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_HDRB);
	} else if (s.unsync && tc6->synced) {
		ethdrv_counter_inc(&tc6->st.sync_lost);
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_SYNC);
	} else if (s.exst) {
		oa_tc6_handle_exst(tc6);
	}
	if (!tc6->recover_pending)
		oa_tc6_tx_complete(tc6, n_last, r);
	return 0;
}

/*
 * Abort the frames in flight (the device forgot them) and forget their BQL
 * bytes; queued frames that never started are dropped too when @drop_queued,
 * else kept and accounted again after the BQL reset.
 */
static void oa_tc6_flush(struct oa_tc6 *tc6, bool drop_queued)
{
	struct ethdrv_link_stats *ls = &tc6->dev->stats;
	struct ethdrv_pkt *pkt;
	unsigned n, kept;

	for (pkt = tc6->inflight.head; pkt; pkt = pkt->next)
		if (pkt->flags & ETHDRV_PKT_F_DRV0)
			ethdrv_counter_inc(&tc6->st.tx_aborted_started);
	n = ethdrv_pkt_queue_purge(&tc6->inflight);
	ethdrv_counter_add(&ls->tx_aborted_errors, n);
	ethdrv_counter_add(&ls->tx_errors, n);
	tc6->tx_cur_idx = 0;
	mtx_lock(&tc6->tx_lock);
	if (drop_queued)
		ethdrv_counter_add(&ls->tx_dropped, ethdrv_pkt_queue_purge(&tc6->txq));
	kept = tc6->txq.count;
	pkt = tc6->txq.head;
	/* The wake handler may queue more (tx_lock is recursive): those are
	 * accounted by their own start_xmit, so re-account only @kept. */
	ethdrv_netdev_tx_reset(tc6->dev);
	for (; kept--; pkt = pkt->next)
		ethdrv_netdev_tx_sent(tc6->dev, pkt->len - ETHDRV_ETH_FCS_LEN);
	mtx_unlock(&tc6->tx_lock);
	if (oa_tc6_rx_abort(&tc6->rx))
		ethdrv_counter_inc(&ls->rx_dropped);
	oa_tc6_rx_account(tc6);
}

/* Run the chip's bring-up with nested recovery suppressed. Bus lock held. */
static int oa_tc6_chip_init(struct oa_tc6 *tc6)
{
	int ret;

	tc6->in_init = true;
	ret = tc6->ops->init(tc6->chip);
	tc6->in_init = false;
	return ret;
}

/* Reset and bring the device back; on failure, retry later with backoff. */
static void oa_tc6_recover(struct oa_tc6 *tc6)
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

/* True while a transfer has something to do. */
static bool oa_tc6_has_work(struct oa_tc6 *tc6)
{
	if (tc6->need_chunk || tc6->rca)
		return true;
	return tc6->tx_credits && oa_tc6_tx_pending(tc6);
}

/* Under the lock: recovery if due, then transfers within the RX budget. */
static bool oa_tc6_poll_locked(struct oa_tc6 *tc6, int budget, struct oa_tc6_round *r)
{
	/* 1. A pending recovery goes first; the data path waits for it. */
	if (tc6->recover_pending) {
		if (ethdrv_now_ns() < __atomic_load_n(&tc6->next_try_ns, __ATOMIC_RELAXED))
			return false;
		oa_tc6_recover(tc6);
		if (tc6->recover_pending)
			return false;
	}
	if (!tc6->synced)
		return false;
	/* 2. Transfers while there is work, the RX budget lasts and no fault
	 * stopped the data path. The first always runs: IRQ_N is released only
	 * by a data header (TC6 facts §2.5). */
	for (int i = 0; i < OA_TC6_ROUNDS_MAX; i++) {
		unsigned rx_allow = (unsigned)(budget - r->rx_frames);

		if (i && !oa_tc6_has_work(tc6))
			break;
		if (oa_tc6_xfer(tc6, rx_allow, r) || tc6->recover_pending)
			return true;
		if (r->rx_frames >= budget)
			break;
	}
	if (tc6->tx_credits == 0 && oa_tc6_tx_pending(tc6))
		ethdrv_counter_inc(&tc6->st.tx_credit_stalls);
	return oa_tc6_has_work(tc6) || tc6->recover_pending;
}

/* Deliver frames and account TX completions, outside the bus lock. */
static void oa_tc6_poll_finish(struct oa_tc6 *tc6, struct ethdrv_pkt_queue *rxq,
			       const struct oa_tc6_round *r)
{
	struct ethdrv_netdev *dev = tc6->dev;
	struct ethdrv_pkt *pkt;

	while ((pkt = ethdrv_pkt_queue_pop(rxq)))
		ethdrv_netdev_receive(dev, pkt);
	if (r->tx_pkts)
		ethdrv_netdev_tx_completed(dev, r->tx_pkts, r->tx_bytes);
	if ((__atomic_load_n(&dev->txq.state, __ATOMIC_ACQUIRE) & ETHDRV_TXQ_DRV_XOFF) &&
	    oa_tc6_txq_count(tc6) < tc6->txq_max / 2 + 1)
		ethdrv_netdev_tx_wake(dev);
}

/* True while IRQ_N is asserted (the level fd is readable). */
static bool oa_tc6_irq_asserted(const struct oa_tc6 *tc6)
{
	struct pollfd p = { .fd = tc6->bus.irq_fd, .events = POLLIN };

	return tc6->bus.irq_fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * Benchmark knob irq_delay_us: a poll that starts a new service episode (the
 * previous poll completed) while IRQ_N is asserted first sleeps that long, as
 * a host that is late to service IRQ_N would (seed 000's slow host). The
 * time actually slept is counted.
 */
static void oa_tc6_service_delay(struct oa_tc6 *tc6)
{
	unsigned us = __atomic_load_n(&tc6->irq_delay_us, __ATOMIC_RELAXED);
	struct timespec ts;
	uint64_t t0, until;

	if (!__atomic_exchange_n(&tc6->episode_done, false, __ATOMIC_RELAXED) || !us ||
	    !oa_tc6_irq_asserted(tc6))
		return;
	t0 = ethdrv_now_ns();
	until = t0 + us * 1000ull;
	ts.tv_sec = (time_t)(until / 1000000000ull);
	ts.tv_nsec = (long)(until % 1000000000ull);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	ethdrv_counter_inc(&tc6->st.irq_delays);
	ethdrv_counter_add(&tc6->st.irq_delay_ns, ethdrv_now_ns() - t0);
}

/* The "rx" poller: every data transfer happens here (NAPI contract, napi.h). */
static int oa_tc6_poll(struct ethdrv_napi *napi, int budget)
{
	struct oa_tc6 *tc6 = ethdrv_napi_ctx(napi);
	struct oa_tc6_round r = { 0 };
	struct ethdrv_pkt_queue rxq;
	bool more, stalled;

	oa_tc6_service_delay(tc6);
	mtx_lock(&tc6->bus_lock);
	more = oa_tc6_poll_locked(tc6, budget, &r);
	stalled = __atomic_load_n(&tc6->recover_pending, __ATOMIC_RELAXED) != 0;
	rxq = tc6->rx_ready;
	ethdrv_pkt_queue_init(&tc6->rx_ready);
	mtx_unlock(&tc6->bus_lock);
	oa_tc6_poll_finish(tc6, &rxq, &r);
	if (budget == 0)
		return 0;
	/* More work, or a recovery due now: poll again without an IRQ. */
	if (r.rx_frames >= budget ||
	    (more && !(stalled && __atomic_load_n(&tc6->next_try_ns, __ATOMIC_RELAXED))))
		return budget;
	/* While a recovery waits for its backoff the IRQ stays masked (it may
	 * be stuck asserted); the watchdog schedules the retry. */
	if (ethdrv_napi_complete_done(napi, r.rx_frames)) {
		__atomic_store_n(&tc6->episode_done, true, __ATOMIC_RELAXED);
		if (!stalled && tc6->bus.irq_fd >= 0)
			ethdrv_napi_irq_unmask(napi);
	}
	return r.rx_frames;
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

/* CONFIG0, IMASK0, then the chip's registers against what we wrote. */
static int oa_tc6_config_differs(struct oa_tc6 *tc6, struct oa_tc6_reg_diff *diff)
{
	/* RESETC cannot be masked: its IMASK0 bit is read-only (§3.4). */
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
 * with good parity (TC6 facts §1.3: parity sees only odd numbers of flips),
 * and the device then executes a write nobody sent: a register changes
 * with no status bit and traffic may stop for good (MAC disabled, SYNC
 * kept). Only reading back finds that. A read can itself be hit by bit
 * errors, so only a difference seen twice in a row counts.
 */
static void oa_tc6_check_config(struct oa_tc6 *tc6)
{
	struct oa_tc6_reg_diff diff;
	int ret;

	mtx_lock(&tc6->bus_lock);
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
		oa_tc6_trigger(tc6, OA_TC6_CAUSE_CONFIG);
	}
out_unlock:
	mtx_unlock(&tc6->bus_lock);
}

/*
 * Loop-thread timer: recovery retries, polling without IRQ, lost progress,
 * and the configuration check when due.
 */
static void oa_tc6_watchdog(struct ethdrv_timer *t)
{
	struct oa_tc6 *tc6 = t->data;
	uint64_t xfers = ethdrv_counter_get(&tc6->st.spi_transfers);
	unsigned check_ms = __atomic_load_n(&tc6->config_check_ms, __ATOMIC_RELAXED);
	uint64_t now = ethdrv_now_ns();
	bool kick = tc6->bus.irq_fd < 0;

	if (check_ms && now >= tc6->next_check_ns) {
		if (tc6->next_check_ns)
			oa_tc6_check_config(tc6);
		tc6->next_check_ns = now + check_ms * 1000000ull;
	}

	if (__atomic_load_n(&tc6->recover_pending, __ATOMIC_ACQUIRE))
		kick = now >= __atomic_load_n(&tc6->next_try_ns, __ATOMIC_RELAXED);
	else if (xfers == tc6->last_xfers && oa_tc6_txq_count(tc6))
		kick = true; /* frames waiting and no transfer for a whole period */
	tc6->last_xfers = xfers;
	if (kick && ethdrv_napi_schedule(tc6->napi) && tc6->bus.irq_fd >= 0)
		ethdrv_counter_inc(&tc6->st.watchdog_kicks);
}

int oa_tc6_open(struct oa_tc6 *tc6)
{
	int ret;

	mtx_lock(&tc6->bus_lock);
	ret = oa_tc6_chip_init(tc6);
	if (!ret) {
		oa_tc6_rx_abort(&tc6->rx);
		tc6->recover_pending = 0;
		__atomic_store_n(&tc6->running, true, __ATOMIC_RELEASE);
	}
	mtx_unlock(&tc6->bus_lock);
	if (ret)
		return ret;
	ethdrv_napi_enable(tc6->napi);
	ret = ethdrv_timer_start(&tc6->watchdog,
				 tc6->bus.irq_fd < 0 ? OA_TC6_POLL_MODE_NS : OA_TC6_WATCHDOG_NS,
				 tc6->bus.irq_fd < 0 ? OA_TC6_POLL_MODE_NS : OA_TC6_WATCHDOG_NS);
	/* The first poll sends the empty chunk that releases the reset IRQ. */
	ethdrv_napi_schedule(tc6->napi);
	return ret;
}

void oa_tc6_stop(struct oa_tc6 *tc6)
{
	__atomic_store_n(&tc6->running, false, __ATOMIC_RELEASE);
	ethdrv_timer_stop(&tc6->watchdog);
	tc6->next_check_ns = 0;
	ethdrv_napi_disable(tc6->napi);
	mtx_lock(&tc6->bus_lock);
	oa_tc6_flush(tc6, true);
	tc6->recover_pending = 0;
	mtx_unlock(&tc6->bus_lock);
}

/* Register the counters and histograms in the device's stats set. */
static int oa_tc6_register_stats(struct oa_tc6 *tc6)
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

/* Validate @cfg and copy it with defaults applied. */
static int oa_tc6_apply_config(struct oa_tc6 *tc6, const struct oa_tc6_config *cfg)
{
	tc6->cps = cfg->cps ? cfg->cps : 64;
	tc6->xfer_cap = cfg->xfer_cap ? cfg->xfer_cap : OA_TC6_XFER_CAP_DEFAULT;
	tc6->txq_max = cfg->txq_max ? cfg->txq_max : OA_TC6_TXQ_MAX_DEFAULT;
	tc6->prote_cfg = cfg->protected_mode;
	if ((tc6->cps != 32 && tc6->cps != 64) || tc6->xfer_cap > OA_TC6_XFER_CAP_MAX ||
	    cfg->weight > ETHDRV_NAPI_WEIGHT)
		return -EINVAL;
	/* Policy 1 (Linux mainline) until set_param says otherwise. */
	tc6->imask0 = OA_TC6_STATUS0_ALL & ~OA_TC6_IRQ_LINUX;
	tc6->rxboe_drop = true;
	tc6->rxboe_log = true;
	tc6->config_check_ms = OA_TC6_CONFIG_CHECK_MS;
	return 0;
}

int oa_tc6_create(struct ethdrv_netdev *dev, const struct ethdrv_spi_bus *bus,
		  const struct oa_tc6_config *cfg, const struct oa_tc6_chip_ops *ops, void *chip,
		  struct oa_tc6 **out)
{
	struct oa_tc6 *tc6 = calloc(1, sizeof(*tc6));
	int weight = cfg->weight ? (int)cfg->weight : ETHDRV_NAPI_WEIGHT;
	int ret;

	if (!tc6)
		return -ENOMEM;
	tc6->dev = dev;
	tc6->bus = *bus;
	tc6->ops = ops;
	tc6->chip = chip;
	ret = oa_tc6_apply_config(tc6, cfg);
	if (ret)
		goto err_free;
	ret = -ENOMEM;
	if (mtx_init(&tc6->bus_lock, mtx_plain | mtx_recursive) != thrd_success)
		goto err_free;
	/* Recursive: a TX wake handler may queue the next frame at once. */
	if (mtx_init(&tc6->tx_lock, mtx_plain | mtx_recursive) != thrd_success)
		goto err_destroy_bus_lock;
	oa_tc6_rx_init(&tc6->rx, tc6->rx_frame, sizeof(tc6->rx_frame));
	ethdrv_timer_init(dev->loop, &tc6->watchdog, oa_tc6_watchdog);
	tc6->watchdog.data = tc6;
	ret = ethdrv_napi_add(dev, "rx", oa_tc6_poll, weight, tc6, &tc6->napi);
	if (ret)
		goto err_destroy_tx_lock;
	if (bus->irq_fd >= 0)
		ret = ethdrv_napi_attach_irq(tc6->napi, bus->irq_fd);
	if (!ret)
		ret = oa_tc6_register_stats(tc6);
	if (ret)
		goto err_del_napi;
	*out = tc6;
	return 0;

err_del_napi:
	ethdrv_napi_del(tc6->napi);
err_destroy_tx_lock:
	mtx_destroy(&tc6->tx_lock);
err_destroy_bus_lock:
	mtx_destroy(&tc6->bus_lock);
err_free:
	free(tc6);
	return ret;
}

void oa_tc6_destroy(struct oa_tc6 *tc6)
{
	if (!tc6)
		return;
	/* The core frees the poller and the stats set (ethdrv_netdev_cleanup). */
	if (tc6->tracing)
		ethdrv_spi_trace_stop(&tc6->bus);
	ethdrv_pkt_queue_purge(&tc6->txq);
	ethdrv_pkt_queue_purge(&tc6->inflight);
	ethdrv_pkt_queue_purge(&tc6->rx_ready);
	mtx_destroy(&tc6->tx_lock);
	mtx_destroy(&tc6->bus_lock);
	free(tc6);
}

/* Knobs. */

struct oa_tc6_policy {
	uint32_t unmask; /* STATUS0 sources unmasked */
	bool drop; /* rxboe_action=drop */
	bool log; /* rxboe_log */
};

/* The five scenarios of seed 000 (napi-facts §8). */
static const struct oa_tc6_policy oa_tc6_policies[5] = {
	{ OA_TC6_IRQ_LINUX, true, true },
	{ OA_TC6_IRQ_LINUX, true, false },
	{ OA_TC6_IRQ_LINUX & ~OA_TC6_STATUS0_RXBOE, true, true },
	{ 0, true, true },
	{ OA_TC6_IRQ_LINUX, false, false },
};

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
static int oa_tc6_apply_imask(struct oa_tc6 *tc6, uint32_t mask)
{
	int ret = 0;

	mtx_lock(&tc6->bus_lock);
	__atomic_store_n(&tc6->imask0, mask, __ATOMIC_RELAXED);
	if (tc6->synced)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_IMASK0, mask);
	mtx_unlock(&tc6->bus_lock);
	return ret;
}

/* "0"/"1" (also "off"/"on") to a bool. */
static int oa_tc6_parse_bool(const char *value, bool *out)
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
static int oa_tc6_parse_uint(const char *value, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	if (!*value || *end || v < lo || v > hi)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int oa_tc6_set_policy(struct oa_tc6 *tc6, const char *value)
{
	const struct oa_tc6_policy *p;
	unsigned n;

	if (oa_tc6_parse_uint(value, 1, 5, &n))
		return -EINVAL;
	p = &oa_tc6_policies[n - 1];
	__atomic_store_n(&tc6->rxboe_drop, p->drop, __ATOMIC_RELAXED);
	__atomic_store_n(&tc6->rxboe_log, p->log, __ATOMIC_RELAXED);
	return oa_tc6_apply_imask(tc6, OA_TC6_STATUS0_ALL & ~p->unmask);
}

/* Start or stop the SPI trace on our bus copy. */
static int oa_tc6_set_trace(struct oa_tc6 *tc6, const char *value)
{
	int ret = 0;

	mtx_lock(&tc6->bus_lock);
	if (tc6->tracing)
		ethdrv_spi_trace_stop(&tc6->bus);
	tc6->tracing = false;
	if (strcmp(value, "off")) {
		ret = ethdrv_spi_trace_start(&tc6->bus, value);
		tc6->tracing = !ret;
	}
	mtx_unlock(&tc6->bus_lock);
	return ret;
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

int oa_tc6_set_param(struct oa_tc6 *tc6, const char *key, const char *value)
{
	uint32_t mask;
	unsigned u;
	bool b;

	if (!strcmp(key, "irq_mask"))
		return oa_tc6_parse_mask(value, &mask) ?: oa_tc6_apply_imask(tc6, mask);
	if (!strncmp(key, "irq.", 4))
		return oa_tc6_set_irq_one(tc6, key + 4, value);
	if (!strcmp(key, "policy"))
		return oa_tc6_set_policy(tc6, value);
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
		if (oa_tc6_parse_uint(value, 1, OA_TC6_XFER_CAP_MAX, &u))
			return -EINVAL;
		__atomic_store_n(&tc6->xfer_cap, u, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "irq_delay_us")) {
		if (oa_tc6_parse_uint(value, 0, OA_TC6_IRQ_DELAY_MAX_US, &u))
			return -EINVAL;
		__atomic_store_n(&tc6->irq_delay_us, u, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "config_check_ms")) {
		if (oa_tc6_parse_uint(value, 0, OA_TC6_CONFIG_CHECK_MAX_MS, &u))
			return -EINVAL;
		__atomic_store_n(&tc6->config_check_ms, u, __ATOMIC_RELAXED);
		tc6->next_check_ns = 0; /* the new period starts at the next tick */
		return 0;
	}
	if (!strcmp(key, "spi_trace"))
		return oa_tc6_set_trace(tc6, value);
	return -ENOENT;
}

/* The policy number matching the current knobs, or 0. */
static int oa_tc6_policy_number(const struct oa_tc6 *tc6)
{
	uint32_t mask = __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED);
	bool drop = __atomic_load_n(&tc6->rxboe_drop, __ATOMIC_RELAXED);
	bool log = __atomic_load_n(&tc6->rxboe_log, __ATOMIC_RELAXED);

	for (int i = 0; i < 5; i++) {
		const struct oa_tc6_policy *p = &oa_tc6_policies[i];

		if (mask == (OA_TC6_STATUS0_ALL & ~p->unmask) && drop == p->drop && log == p->log)
			return i + 1;
	}
	return 0;
}

/* A string knob value into @buf; -ENOSPC on truncation. */
static int oa_tc6_put_str(char *buf, size_t size, const char *s)
{
	int n = snprintf(buf, size, "%s", s);

	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

/* A number knob value into @buf; -ENOSPC on truncation. */
static int oa_tc6_put_uint(char *buf, size_t size, unsigned u)
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
	int policy;

	if (!size)
		return -ENOSPC;
	if (!strcmp(key, "irq_mask"))
		return oa_tc6_format_mask(mask, buf, size);
	if (!strncmp(key, "irq.", 4)) {
		int i = oa_tc6_irq_index(key + 4, strlen(key + 4));

		return i < 0 ? -ENOENT : oa_tc6_put_uint(buf, size, !(mask & ETHDRV_BIT(i)));
	}
	if (!strcmp(key, "policy")) {
		policy = oa_tc6_policy_number(tc6);
		return policy ? oa_tc6_put_uint(buf, size, (unsigned)policy) :
				oa_tc6_put_str(buf, size, "custom");
	}
	if (!strcmp(key, "rxboe_action"))
		return oa_tc6_put_str(buf, size, tc6->rxboe_drop ? "drop" : "count");
	if (!strcmp(key, "rxboe_log"))
		return oa_tc6_put_uint(buf, size, tc6->rxboe_log);
	if (!strcmp(key, "xfer_cap"))
		return oa_tc6_put_uint(buf, size, tc6->xfer_cap);
	if (!strcmp(key, "irq_delay_us"))
		return oa_tc6_put_uint(buf, size, tc6->irq_delay_us);
	if (!strcmp(key, "config_check_ms"))
		return oa_tc6_put_uint(buf, size, tc6->config_check_ms);
	if (!strcmp(key, "spi_trace"))
		return oa_tc6_put_str(buf, size, tc6->tracing ? "on" : "off");
	return -ENOENT;
}
