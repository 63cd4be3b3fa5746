/* SPDX-License-Identifier: MIT */
/*
 * OPEN Alliance TC6 framework internals, shared by its units and by nobody
 * else (chip drivers use oa_tc6.h):
 *   oa_tc6.c           lifecycle: create, open, stop, destroy
 *   oa_tc6_ctrl.c      control transactions and the bring-up steps built on them
 *   oa_tc6_probe.c     probe: RESET_N, identification, capabilities
 *   oa_tc6_data.c      the data path: chunks, TX queue and credits, RX, the poller
 *   oa_tc6_recovery.c  error policy, recovery, configuration check, watchdog
 *   oa_tc6_knobs.c     knobs and counters
 *   oa_tc6_hooks.c     test and benchmark hooks (oa_tc6_hooks.h)
 * This header holds the one state struct they share and the calls they make
 * into each other.
 */
#ifndef ETHDRV_DRIVERS_OA_TC6_PRIV_H
#define ETHDRV_DRIVERS_OA_TC6_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <threads.h>

#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "oa_tc6.h"
#include "oa_tc6_hooks.h"
#include "oa_tc6_proto.h"

#if defined(__SANITIZE_THREAD__)
#define OA_TC6_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OA_TC6_TSAN 1
#endif
#endif
#ifdef OA_TC6_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#define OA_TC6_CHUNK_MAX (OA_TC6_MAX_CPS + OA_TC6_WORD)
#define OA_TC6_DATA_BUF (OA_TC6_XFER_CAP_MAX * OA_TC6_CHUNK_MAX)

/*
 * A TX frame's packet flag: the device took its first (SV) chunk, so if the
 * frame is aborted the device may already have started it
 * (tx_aborted_started).
 */
#define OA_TC6_PKT_F_TX_STARTED ETHDRV_PKT_F_DRIVER_PRIVATE
/*
 * A TX frame's packet flag: the device refused one of the chunks sent while
 * the frame was open (footer HDRB), so it dropped the frame
 * (docs/tc6.md §2.4.1): abort it instead of completing it.
 */
#define OA_TC6_PKT_F_TX_REFUSED (ETHDRV_PKT_F_DRIVER_PRIVATE << 1)

/* The four error sources Linux unmasks (docs/tc6.md §3.4, docs/napi.md §8). */
#define OA_TC6_IRQ_LINUX \
	(OA_TC6_STATUS0_TXPE | OA_TC6_STATUS0_RXBOE | OA_TC6_STATUS0_LOFE | OA_TC6_STATUS0_HDRE)

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
	ethdrv_counter_t tx_refused; /* frames a refused chunk (HDRB) cost: aborted, no reset */
	ethdrv_counter_t tx_credit_stalls; /* polls that ended with frames but no credits */
	ethdrv_counter_t tx_busy; /* start_xmit refused: txq_max reached */
	ethdrv_counter_t watchdog_kicks; /* polls scheduled by the watchdog */
	ethdrv_counter_t config_checks; /* periodic configuration checks run */
	ethdrv_counter_t config_errors; /* checks that found a register changed, twice */
	ethdrv_counter_t recoveries; /* completed recoveries, all causes */
	ethdrv_counter_t recoveries_cause[OA_TC6_CAUSE_NR]; /* by cause */
	ethdrv_counter_t recovery_failures; /* recovery attempts that failed */
	ethdrv_counter_t recovery_ns; /* total time traffic stood still */
	ethdrv_counter_t hw_resets; /* RESET_N pulses (probe and recoveries) */
	ethdrv_counter_t irq_delays; /* service episodes delayed by irq_delay_us */
	ethdrv_counter_t irq_delay_ns; /* time actually slept for them */
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
	bool protected_mode; /* use protected control framing once CONFIG0 is written */
	unsigned txq_max; /* queued frames before ETHDRV_TX_BUSY */
	unsigned xfer_cap; /* chunks per transfer (atomic) */
	uint32_t imask0; /* IMASK0 policy, 1 = masked (atomic) */
	bool rxboe_drop; /* RXBOE drops the frame in flight (atomic) */
	bool rxboe_log; /* RXBOE logs (atomic) */
	bool running; /* opened and not stopped (atomic) */
	unsigned config_check_ms; /* configuration check period, 0 = off (atomic) */
	uint32_t config0_knobs; /* CONFIG0 ZARFE, RXCTE, TXCTE the knobs ask for (atomic) */
	uint64_t poll_ns; /* no IRQ line: the watchdog polls this often */
	/* Set by oa_tc6_probe() before the first open, then fixed. */
	unsigned tx_fcs_len; /* FCS bytes the host appends: 4 with TXFCSVE, else 0 */
	struct oa_tc6_id id; /* what the probe read */
	struct oa_tc6_hooks hooks; /* test and benchmark hooks (oa_tc6_hooks.h) */

	/* bus_lock (recursive) protects the bus, the buffers, everything below
	 * down to the TX queue, and a whole recovery. */
	mtx_t bus_lock;
	bool protected_active; /* protected control framing now in effect (CONFIG0.PROTE) */
	bool synced; /* we set SYNC and the device has not lost it */
	bool in_init; /* the chip's init runs: no nested recovery */
	/* The next transfer sends a chunk even without work: to release IRQ_N,
	 * or to learn the credits a bad footer did not tell. */
	bool must_send_chunk;
	unsigned tx_credits; /* TXC from the last good footer or BUFSTS */
	unsigned rx_chunks_available; /* RCA from the last good footer or BUFSTS */
	unsigned rx_stalls; /* transfers in a row that got no RX data RCA promised */
	struct ethdrv_pkt_queue inflight; /* frames with chunks on the wire, oldest first */
	unsigned tx_next_chunk; /* index of inflight.tail's next chunk; 0 = it is complete */
	struct ethdrv_pkt_queue rx_ready; /* good frames to deliver after unlocking */
	struct oa_tc6_rx rx; /* reassembly */
	uint64_t rx_drops_seen[OA_TC6_RX_DROP_NR]; /* rx.drops already counted */
	uint64_t rx_opened_seen; /* rx.opened already counted */
	/* The TX frame whose first (SV) chunk is in chunk slot i of the current
	 * transfer, or NULL. */
	struct ethdrv_pkt *frame_starting_in_slot[OA_TC6_XFER_CAP_MAX];
	/* The TX frame open at the device while it takes slot i: the one the
	 * chunk belongs to, or for an empty chunk the one left unfinished
	 * before it; NULL for none. A refused chunk costs this frame. */
	struct ethdrv_pkt *frame_open_in_slot[OA_TC6_XFER_CAP_MAX];
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
	struct oa_tc6_mdio *mdio; /* the PHY's bus (oa_tc6_mdio.c), atomic pointer */
	struct ethdrv_hist chunks_per_transfer; /* chunks in each data transfer */
	struct ethdrv_hist recovery_stall_ns; /* detection to traffic resumed */

	uint8_t ctrl_tx[OA_TC6_CTRL_MAX_LEN]; /* control MOSI */
	uint8_t ctrl_rx[OA_TC6_CTRL_MAX_LEN]; /* control MISO */
	uint8_t data_tx[OA_TC6_DATA_BUF]; /* data MOSI */
	uint8_t data_rx[OA_TC6_DATA_BUF]; /* data MISO */
	uint8_t rx_frame[ETHDRV_PKT_DATA_MAX]; /* reassembly buffer */
};

/*
 * The framework's locks are C11 mutexes. ThreadSanitizer (GCC 12) does not
 * intercept mtx_lock()/mtx_unlock(), so in a TSan build they also tell it
 * the happens-before edge a mutex makes; otherwise they are the plain calls.
 */
static inline void oa_tc6_mutex_lock(mtx_t *m)
{
	mtx_lock(m);
#ifdef OA_TC6_TSAN
	__tsan_acquire(m);
#endif
}

static inline void oa_tc6_mutex_unlock(mtx_t *m)
{
#ifdef OA_TC6_TSAN
	__tsan_release(m);
#endif
	mtx_unlock(m);
}

/* oa_tc6_ctrl.c */
/* One SPI transfer, counted; a bus failure is counted too. */
int oa_tc6_spi_transfer(struct oa_tc6 *tc6, const uint8_t *tx, uint8_t *rx, size_t len);

/* oa_tc6_data.c */
/* The "rx" poller: every data transfer happens here (NAPI contract, napi.h). */
int oa_tc6_poll(struct ethdrv_napi *napi, int budget);
/* Frames waiting, not yet started. */
unsigned oa_tc6_txq_count(struct oa_tc6 *tc6);
/* Abort the frames in flight, and drop queued ones when @drop_queued. Bus lock held. */
void oa_tc6_flush(struct oa_tc6 *tc6, bool drop_queued);

/* oa_tc6_recovery.c */
/* Request a recovery; the first cause wins until it ran. Bus lock held. */
void oa_tc6_schedule_recovery(struct oa_tc6 *tc6, enum oa_tc6_cause cause);
/* EXST: read STATUS0/1, clear them, act on them. Bus lock held. */
void oa_tc6_handle_exst(struct oa_tc6 *tc6);
/* Reset and bring the device back; on failure, retry later with backoff. */
void oa_tc6_recover(struct oa_tc6 *tc6);
/* Run the chip's bring-up with nested recovery suppressed. Bus lock held. */
int oa_tc6_chip_init(struct oa_tc6 *tc6);
/* The loop-thread timer: recovery retries, polling without IRQ, lost progress, checks. */
void oa_tc6_watchdog(struct ethdrv_timer *t);

/* oa_tc6_mdio.c */
/* STATUS0.PHYINT seen in EXST (poll context): notify the PHY on the loop. */
void oa_tc6_mdio_phyint(struct oa_tc6 *tc6);
/* Release the PHY and its bus (destroy). */
void oa_tc6_mdio_free(struct oa_tc6 *tc6);
/* The MDIO/PHY knobs; -ENOENT for other keys. */
int oa_tc6_mdio_set_param(struct oa_tc6 *tc6, const char *key, const char *value);
int oa_tc6_mdio_get_param(struct oa_tc6 *tc6, const char *key, char *buf, size_t size);

/* oa_tc6_knobs.c */
/* Register the counters and histograms in the device's stats set. */
int oa_tc6_register_stats(struct oa_tc6 *tc6);
/* Store the IMASK0 policy and write it if the device runs. */
int oa_tc6_apply_imask(struct oa_tc6 *tc6, uint32_t mask);
/* "0"/"1" (also "off"/"on") to a bool. */
int oa_tc6_parse_bool(const char *value, bool *out);
/* Unsigned decimal in [lo, hi]. */
int oa_tc6_parse_uint(const char *value, unsigned lo, unsigned hi, unsigned *out);
/* A string knob value into @buf; -ENOSPC on truncation. */
int oa_tc6_put_str(char *buf, size_t size, const char *s);
/* A number knob value into @buf; -ENOSPC on truncation. */
int oa_tc6_put_uint(char *buf, size_t size, unsigned u);

#endif /* ETHDRV_DRIVERS_OA_TC6_PRIV_H */
