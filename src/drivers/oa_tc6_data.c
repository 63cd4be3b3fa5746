// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 data path (oa_tc6.h): the TX queue under byte queue
 * limits, chunking within the device's credits, one SPI transfer per round
 * with its footers checked, RX reassembly with a software CRC check, and
 * the NAPI poller that runs it all under the bus lock.
 */
#include <errno.h>
#include <string.h>

#include "oa_tc6_priv.h"

#define OA_TC6_ROUNDS_MAX 8 /* transfers per poll before yielding */
#define OA_TC6_RX_STALL_XFERS 8 /* transfers with RCA > 0 and no RX data: RX halted */
#define OA_TC6_FCS_RESIDUE 0x2144DF1Cu /* CRC-32 over a frame and its good FCS */
#define OA_TC6_MIN_FRAME (ETHDRV_ETH_ZLEN + ETHDRV_ETH_FCS_LEN)
#define OA_TC6_MAX_FRAME 1536 /* NCFGR.MAXFS, with FCS (docs/tc6.md §2.4) */

/* What one poll hands back to do outside the bus lock. */
struct oa_tc6_poll_result {
	unsigned tx_pkts; /* frames whose last chunk was accepted */
	unsigned tx_bytes; /* their BQL bytes */
	unsigned tx_dropped; /* frames the device dropped: a refused chunk cost them */
	unsigned tx_dropped_bytes; /* their BQL bytes */
	int rx_frames; /* frames reassembled (RX work) */
};

/* Frames waiting, not yet started. */
unsigned oa_tc6_txq_count(struct oa_tc6 *tc6)
{
	unsigned n;

	oa_tc6_mutex_lock(&tc6->tx_lock);
	n = tc6->txq.count;
	oa_tc6_mutex_unlock(&tc6->tx_lock);
	return n;
}

/*
 * Pad, and append the FCS where the device validates it (tx_fcs_len 4:
 * CONFIG0.TXFCSVE, docs/tc6.md §2.4, §3.3); else the MAC appends it.
 */
static int oa_tc6_tx_prepare(const struct oa_tc6 *tc6, struct ethdrv_pkt *pkt)
{
	uint32_t fcs;

	if (pkt->len + ETHDRV_ETH_FCS_LEN > OA_TC6_MAX_FRAME)
		return -EMSGSIZE;
	if (pkt->len < ETHDRV_ETH_ZLEN) {
		memset(pkt->data + pkt->len, 0, ETHDRV_ETH_ZLEN - pkt->len);
		pkt->len = ETHDRV_ETH_ZLEN;
	}
	if (!tc6->tx_fcs_len)
		return 0;
	fcs = oa_tc6_crc32(0, pkt->data, pkt->len);
	for (int i = 0; i < ETHDRV_ETH_FCS_LEN; i++)
		pkt->data[pkt->len + i] = (uint8_t)(fcs >> (8 * i));
	pkt->len += ETHDRV_ETH_FCS_LEN;
	return 0;
}

int oa_tc6_start_xmit(struct oa_tc6 *tc6, struct ethdrv_pkt *pkt)
{
	struct ethdrv_netdev *dev = tc6->dev;

	if (oa_tc6_tx_prepare(tc6, pkt)) {
		ethdrv_counter_inc(&dev->stats.tx_dropped);
		ethdrv_pkt_free(pkt);
		return ETHDRV_TX_OK;
	}
	oa_tc6_mutex_lock(&tc6->tx_lock);
	if (tc6->txq.count >= tc6->txq_max) {
		ethdrv_netdev_tx_stop(dev);
		oa_tc6_mutex_unlock(&tc6->tx_lock);
		pkt->len -= tc6->tx_fcs_len;
		ethdrv_counter_inc(&tc6->st.tx_busy);
		return ETHDRV_TX_BUSY;
	}
	ethdrv_pkt_queue_push(&tc6->txq, pkt);
	ethdrv_netdev_tx_sent(dev, pkt->len - tc6->tx_fcs_len);
	oa_tc6_mutex_unlock(&tc6->tx_lock);
	ethdrv_napi_schedule(tc6->napi);
	return ETHDRV_TX_OK;
}

/* Next frame to start, moved to inflight; NULL when none. */
static struct ethdrv_pkt *oa_tc6_tx_start_next(struct oa_tc6 *tc6)
{
	struct ethdrv_pkt *pkt;

	oa_tc6_mutex_lock(&tc6->tx_lock);
	pkt = ethdrv_pkt_queue_pop(&tc6->txq);
	oa_tc6_mutex_unlock(&tc6->tx_lock);
	if (pkt) {
		pkt->flags &= ~(OA_TC6_PKT_F_TX_STARTED | OA_TC6_PKT_F_TX_REFUSED);
		ethdrv_pkt_queue_push(&tc6->inflight, pkt);
	}
	return pkt;
}

/* True when a TX chunk is ready to go (credits aside). */
static bool oa_tc6_tx_pending(struct oa_tc6 *tc6)
{
	return tc6->tx_next_chunk || oa_tc6_txq_count(tc6);
}

/*
 * Place the next TX chunk at @slot; false when no frame is waiting. Sets
 * *@last if it is a frame's final chunk. One frame per chunk: never
 * concatenate (errata s4, docs/tc6.md §5.6).
 */
static bool oa_tc6_tx_fill(struct oa_tc6 *tc6, unsigned i, uint8_t *slot, bool norx, bool *last)
{
	struct ethdrv_pkt *pkt =
		tc6->tx_next_chunk ? tc6->inflight.tail : oa_tc6_tx_start_next(tc6);
	unsigned idx = tc6->tx_next_chunk, n, off;
	uint32_t hdr;

	if (!pkt)
		return false;
	tc6->frame_starting_in_slot[i] = idx == 0 ? pkt : NULL;
	tc6->frame_open_in_slot[i] = pkt;
	n = oa_tc6_tx_chunks(pkt->len, tc6->cps);
	off = idx * tc6->cps;
	hdr = oa_tc6_tx_chunk_header(pkt->len, tc6->cps, idx);
	if (norx)
		hdr = oa_tc6_set_parity(hdr | OA_TC6_DATA_HDR_NORX);
	oa_tc6_put_be32(slot, hdr);
	memcpy(slot + OA_TC6_WORD, pkt->data + off, ETHDRV_MIN(tc6->cps, pkt->len - off));
	*last = idx + 1 == n;
	tc6->tx_next_chunk = *last ? 0 : idx + 1;
	return true;
}

/*
 * TX cut-through (CONFIG0.TXCTE, docs/tc6.md §5.4.1): the device may put a
 * frame on the wire before its last chunk is in, and drops it (TXBUE) if
 * the rest comes late. So a new frame starts only in a transfer with @room
 * for all of it, unless no transfer can carry it (more chunks than @cap).
 */
static bool oa_tc6_tx_may_start(struct oa_tc6 *tc6, unsigned room, unsigned cap)
{
	size_t len = 0;
	unsigned n;

	if (tc6->tx_next_chunk || !(tc6->config0 & OA_TC6_CONFIG0_TXCTE))
		return true;
	oa_tc6_mutex_lock(&tc6->tx_lock);
	if (tc6->txq.head)
		len = tc6->txq.head->len;
	oa_tc6_mutex_unlock(&tc6->tx_lock);
	n = oa_tc6_tx_chunks(len, tc6->cps);
	return n <= room || n > cap;
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

/* The device dropped @pkt (a refused chunk): count it, free it. */
static void oa_tc6_tx_drop(struct oa_tc6 *tc6, struct ethdrv_pkt *pkt, struct oa_tc6_poll_result *r)
{
	r->tx_dropped++;
	r->tx_dropped_bytes += pkt->len - tc6->tx_fcs_len;
	ethdrv_counter_inc(&tc6->st.tx_refused);
	if (pkt->flags & OA_TC6_PKT_F_TX_STARTED)
		ethdrv_counter_inc(&tc6->st.tx_aborted_started);
	ethdrv_pkt_free(pkt);
}

/*
 * The @k oldest inflight frames had their last chunk accepted: complete
 * them, or count them dropped where a refused chunk cost them. A frame left
 * unfinished that a refused chunk cost is abandoned: the device dropped it
 * and ignores its remaining chunks, so the next frame starts with a fresh
 * SV (docs/tc6.md §2.4.1).
 */
static void oa_tc6_tx_complete(struct oa_tc6 *tc6, unsigned k, struct oa_tc6_poll_result *r)
{
	struct ethdrv_pkt *pkt;

	while (k--) {
		pkt = ethdrv_pkt_queue_pop(&tc6->inflight);
		if (pkt->flags & OA_TC6_PKT_F_TX_REFUSED) {
			oa_tc6_tx_drop(tc6, pkt, r);
			continue;
		}
		r->tx_pkts++;
		r->tx_bytes += pkt->len - tc6->tx_fcs_len;
		ethdrv_pkt_free(pkt);
	}
	pkt = tc6->inflight.tail;
	if (tc6->tx_next_chunk && (pkt->flags & OA_TC6_PKT_F_TX_REFUSED)) {
		ethdrv_pkt_queue_pop(&tc6->inflight);
		tc6->tx_next_chunk = 0;
		oa_tc6_tx_drop(tc6, pkt, r);
	}
}

/* What the footers of one transfer said, together. */
struct oa_tc6_footer_summary {
	bool absent; /* some footer word was all zero */
	bool exst; /* some footer had EXST */
	bool unsync; /* some footer had SYNC=0 */
	bool all_ok; /* every footer passed parity and none had HDRB */
	bool rx_data; /* some good footer had DV */
	bool last_ok; /* the last footer passed parity */
	struct oa_tc6_footer last; /* the last good footer */
};

/* Check the footer of received chunk @i and feed its payload to reassembly. */
static void oa_tc6_receive_chunk(struct oa_tc6 *tc6, unsigned i, bool norx,
				 struct oa_tc6_footer_summary *s, struct oa_tc6_poll_result *r)
{
	const uint8_t *p = tc6->data_rx + i * (tc6->cps + OA_TC6_WORD);
	uint32_t word = oa_tc6_get_be32(p + tc6->cps);
	struct oa_tc6_footer f;
	bool ok = !oa_tc6_footer_decode(word, &f);

	/* The frame begun in this slot is the device's unless a good footer
	 * says the header was refused or the device was not synchronised
	 * (docs/tc6.md §2.3 HDRB; then no data moved in the chunk), or no footer
	 * came at all: an all-zero word never has odd parity (docs/tc6.md §1.3), it is
	 * MISO held low, e.g. the device took the transfer for a control one
	 * with a bad header (a flipped DNC bit). */
	if (tc6->frame_starting_in_slot[i] && word && !(ok && (f.hdrb || !f.sync)))
		tc6->frame_starting_in_slot[i]->flags |= OA_TC6_PKT_F_TX_STARTED;
	/* A refused chunk costs the frame open at the device then
	 * (docs/tc6.md §2.4.1); no reset is needed for it. */
	if (ok && f.hdrb) {
		ethdrv_counter_inc(&tc6->st.hdrb);
		if (tc6->frame_open_in_slot[i])
			tc6->frame_open_in_slot[i]->flags |= OA_TC6_PKT_F_TX_REFUSED;
	}
	s->last_ok = ok;
	s->absent |= !word;
	s->all_ok &= ok && !f.hdrb;
	if (!ok) {
		ethdrv_counter_inc(&tc6->st.footer_parity_errors);
		if (!norx) /* a NORX chunk carried no RX data for sure */
			oa_tc6_rx_chunk(&tc6->rx, p, tc6->cps, &f, false, NULL, NULL);
		return;
	}
	s->last = f;
	s->exst |= f.exst;
	s->unsync |= !f.sync;
	if (f.dv)
		ethdrv_counter_inc(&tc6->st.chunks_rx);
	s->rx_data |= f.dv;
	r->rx_frames += (int)oa_tc6_rx_chunk(&tc6->rx, p, tc6->cps, &f, true, oa_tc6_rx_emit, tc6);
}

/*
 * Chunks for the next transfer: TX within credits, RCA, at least one. Chunks
 * from index @rx_budget on ask for no RX data (NORX), so that a poll never
 * receives more frames than its budget; *@frames_ending counts the TX frames
 * whose last chunk goes out.
 */
static unsigned oa_tc6_build_chunks(struct oa_tc6 *tc6, unsigned rx_budget, unsigned *frames_ending)
{
	unsigned cap = __atomic_load_n(&tc6->xfer_cap, __ATOMIC_RELAXED);
	unsigned csz = tc6->cps + OA_TC6_WORD, n = 0, want;
	bool last;

	/* 1. TX chunks, as many as credits allow (docs/tc6.md §2.5). */
	*frames_ending = 0;
	while (n < ETHDRV_MIN(cap, tc6->tx_credits)) {
		uint8_t *slot = tc6->data_tx + n * csz;

		memset(slot, 0, csz);
		if (!oa_tc6_tx_may_start(tc6, ETHDRV_MIN(cap, tc6->tx_credits) - n, cap) ||
		    !oa_tc6_tx_fill(tc6, n, slot, n >= rx_budget, &last))
			break;
		*frames_ending += last;
		n++;
	}
	ethdrv_counter_add(&tc6->st.chunks_tx, n);
	for (unsigned i = n; i < OA_TC6_XFER_CAP_MAX; i++) {
		tc6->frame_starting_in_slot[i] = NULL;
		/* An empty chunk after a frame left unfinished (no credits). */
		tc6->frame_open_in_slot[i] = tc6->tx_next_chunk ? tc6->inflight.tail : NULL;
	}
	/* 2. Empty chunks to pull RCA (within the RX budget), or one to release
	 * IRQ_N (docs/tc6.md §2.5, §2.7). */
	want = ETHDRV_MIN(tc6->rx_chunks_available, rx_budget);
	if (tc6->must_send_chunk || !n)
		want = ETHDRV_MAX(want, 1u);
	want = ETHDRV_MIN(want, cap);
	for (; n < want; n++) {
		uint32_t hdr =
			oa_tc6_data_header(&(struct oa_tc6_data_hdr){ .norx = n >= rx_budget });

		memset(tc6->data_tx + n * csz, 0, csz);
		oa_tc6_put_be32(tc6->data_tx + n * csz, hdr);
		ethdrv_counter_inc(&tc6->st.chunks_empty);
	}
	return n;
}

/*
 * RX data that never comes: the last footer said RCA > 0, this transfer
 * asked for RX data (NORX=0) and every footer was good, yet none carried
 * any. After OA_TC6_RX_STALL_XFERS such transfers in a row the device's RX
 * path has halted (errata s3, docs/tc6.md §5.6): recover.
 */
static void oa_tc6_rx_stall_check(struct oa_tc6 *tc6, unsigned rca_before, unsigned rx_asked,
				  const struct oa_tc6_footer_summary *s)
{
	if (!rca_before || !rx_asked || !s->all_ok || s->rx_data) {
		tc6->rx_stalls = 0;
		return;
	}
	if (++tc6->rx_stalls < OA_TC6_RX_STALL_XFERS)
		return;
	tc6->rx_stalls = 0;
	oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_RXSTALL);
}

/* One data transfer and its footers. Bus lock held. Returns 0 or -EIO. */
static int oa_tc6_data_transfer(struct oa_tc6 *tc6, unsigned rx_budget,
				struct oa_tc6_poll_result *r)
{
	struct oa_tc6_footer_summary s = { .all_ok = true };
	unsigned rca_before = tc6->rx_chunks_available;
	unsigned frames_ending, n = oa_tc6_build_chunks(tc6, rx_budget, &frames_ending);
	int ret;

	ethdrv_hist_record(&tc6->chunks_per_transfer, n);
	ret = oa_tc6_spi_transfer(tc6, tc6->data_tx, tc6->data_rx, n * (tc6->cps + OA_TC6_WORD));
	if (ret) {
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_BUS);
		return ret;
	}
	tc6->must_send_chunk = false;
	for (unsigned i = 0; i < n; i++)
		oa_tc6_receive_chunk(tc6, i, i >= rx_budget, &s, r);
	oa_tc6_rx_account(tc6);
	/* Credits from the last footer only; unknown after a bad one (docs/tc6.md §2.5). */
	tc6->tx_credits = s.last_ok ? s.last.txc : 0;
	tc6->rx_chunks_available = s.last_ok ? s.last.rca : 0;
	tc6->must_send_chunk = !s.last_ok;
	/* A fault seen in this transfer may have cost its TX chunks: they stay
	 * inflight and the recovery aborts them; tx_aborted_started says how
	 * many of them the device had taken (and counts itself). No footer at
	 * all means the device did not see a data transaction: recover. A
	 * refused chunk (HDRB) needs no reset: its frame is dropped at
	 * completion (docs/tc6.md §2.4.1). */
	if (s.absent) {
		ethdrv_counter_inc(&tc6->st.footers_absent);
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_NOFOOTER);
	} else if (s.unsync && tc6->synced) {
		ethdrv_counter_inc(&tc6->st.sync_lost);
		oa_tc6_schedule_recovery(tc6, OA_TC6_CAUSE_SYNC);
	} else if (s.exst) {
		oa_tc6_handle_exst(tc6);
	}
	oa_tc6_rx_stall_check(tc6, rca_before, ETHDRV_MIN(n, rx_budget), &s);
	if (!tc6->recover_pending)
		oa_tc6_tx_complete(tc6, frames_ending, r);
	return 0;
}

/*
 * Abort the frames in flight (the device forgot them) and forget their BQL
 * bytes; queued frames that never started are dropped too when @drop_queued,
 * else kept and accounted again after the BQL reset.
 */
void oa_tc6_flush(struct oa_tc6 *tc6, bool drop_queued)
{
	struct ethdrv_link_stats *ls = &tc6->dev->stats;
	struct ethdrv_pkt *pkt;
	unsigned n, kept;

	for (pkt = tc6->inflight.head; pkt; pkt = pkt->next)
		if (pkt->flags & OA_TC6_PKT_F_TX_STARTED)
			ethdrv_counter_inc(&tc6->st.tx_aborted_started);
	n = ethdrv_pkt_queue_purge(&tc6->inflight);
	ethdrv_counter_add(&ls->tx_aborted_errors, n);
	ethdrv_counter_add(&ls->tx_errors, n);
	tc6->tx_next_chunk = 0;
	oa_tc6_mutex_lock(&tc6->tx_lock);
	if (drop_queued)
		ethdrv_counter_add(&ls->tx_dropped, ethdrv_pkt_queue_purge(&tc6->txq));
	kept = tc6->txq.count;
	pkt = tc6->txq.head;
	/* The wake handler may queue more (tx_lock is recursive): those are
	 * accounted by their own start_xmit, so re-account only @kept. */
	ethdrv_netdev_tx_reset(tc6->dev);
	for (; kept--; pkt = pkt->next)
		ethdrv_netdev_tx_sent(tc6->dev, pkt->len - tc6->tx_fcs_len);
	oa_tc6_mutex_unlock(&tc6->tx_lock);
	if (oa_tc6_rx_abort(&tc6->rx))
		ethdrv_counter_inc(&ls->rx_dropped);
	oa_tc6_rx_account(tc6);
}

/* True while a transfer has something to do. */
static bool oa_tc6_has_work(struct oa_tc6 *tc6)
{
	if (tc6->must_send_chunk || tc6->rx_chunks_available)
		return true;
	return tc6->tx_credits && oa_tc6_tx_pending(tc6);
}

/* Under the lock: recovery if due, then transfers within the RX budget. */
static bool oa_tc6_poll_locked(struct oa_tc6 *tc6, int budget, struct oa_tc6_poll_result *r)
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
	 * by a data header (docs/tc6.md §2.5). */
	for (int i = 0; i < OA_TC6_ROUNDS_MAX; i++) {
		unsigned rx_budget = (unsigned)(budget - r->rx_frames);

		if (i && !oa_tc6_has_work(tc6))
			break;
		if (oa_tc6_data_transfer(tc6, rx_budget, r) || tc6->recover_pending)
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
			       const struct oa_tc6_poll_result *r)
{
	struct ethdrv_netdev *dev = tc6->dev;
	struct ethdrv_pkt *pkt;

	while ((pkt = ethdrv_pkt_queue_pop(rxq)))
		ethdrv_netdev_receive(dev, pkt);
	if (r->tx_pkts || r->tx_dropped)
		ethdrv_netdev_tx_completed_dropped(dev, r->tx_pkts, r->tx_bytes, r->tx_dropped,
						   r->tx_dropped_bytes);
	if ((__atomic_load_n(&dev->txq.state, __ATOMIC_ACQUIRE) & ETHDRV_TXQ_DRV_XOFF) &&
	    oa_tc6_txq_count(tc6) < tc6->txq_max / 2 + 1)
		ethdrv_netdev_tx_wake(dev);
}

/* The "rx" poller: every data transfer happens here (NAPI contract, napi.h). */
int oa_tc6_poll(struct ethdrv_napi *napi, int budget)
{
	struct oa_tc6 *tc6 = ethdrv_napi_ctx(napi);
	struct oa_tc6_poll_result r = { 0 };
	struct ethdrv_pkt_queue rxq;
	bool more, stalled;

	oa_tc6_hooks_poll_begin(tc6);
	oa_tc6_mutex_lock(&tc6->bus_lock);
	more = oa_tc6_poll_locked(tc6, budget, &r);
	stalled = __atomic_load_n(&tc6->recover_pending, __ATOMIC_RELAXED) != 0;
	rxq = tc6->rx_ready;
	ethdrv_pkt_queue_init(&tc6->rx_ready);
	oa_tc6_mutex_unlock(&tc6->bus_lock);
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
		oa_tc6_hooks_poll_completed(tc6);
		if (!stalled && tc6->bus.irq_fd >= 0)
			ethdrv_napi_irq_unmask(napi);
	}
	return r.rx_frames;
}
