// SPDX-License-Identifier: MIT
/*
 * Frames between a node's TAP and its device (node_priv.h): TAP reads go to
 * ethdrv_netdev_xmit() in batches, parked when the TX queue stops and
 * retried when it wakes; received frames go to the TAP, the writes of one
 * poll in one batch (tap_batch.h). With a vnet header
 * on the TAP, TSO frames are cut and received segments coalesced on the
 * way (node_offload.c). Every frame is counted at both ends (the accounting
 * chain starts and ends here).
 */
#include <errno.h>
#include <unistd.h>

#include "ethdrv/log.h"
#include "ethdrv/pkt.h"
#include "node_priv.h"
#include "platform/linux/platform.h"

ETHDRV_LOG_MODULE(node);

#define NODE_TAP_BATCH 64 /* frames read from the TAP per readiness event */
#define NODE_RETRY_NS 1000000u /* retry after an empty pool: 1 ms */

/* ---- TAP -> device --------------------------------------------------- */

/* To the driver; false if its queue is stopped (@pkt parked until it wakes). */
bool node_xmit(struct node *n, struct ethdrv_pkt *pkt)
{
	if (ethdrv_netdev_xmit(n->dev, pkt) == -EBUSY) {
		n->tx_parked = pkt;
		return false;
	}
	return true;
}

bool node_tx(struct node *n, struct ethdrv_pkt *pkt)
{
	/* The fair queue takes everything read (it keeps its own bound), so the
	 * TAP's queue is drained into per-flow queues (docs/fq.md §2); frames it
	 * still holds after it was switched off go first. */
	if (n->fq_on || n->fq.backlog) {
		fq_enqueue(&n->fq, pkt, ethdrv_now_ns());
		node_fq_pump(n);
		return true;
	}
	if (!node_xmit(n, pkt)) {
		ethdrv_watch_set(&n->tap_watch, 0);
		return false;
	}
	return true;
}

void node_on_tap(struct ethdrv_watch *w, unsigned events)
{
	struct node *n = w->data;
	struct ethdrv_pkt *pkt;
	ssize_t len;
	int i;

	for (i = 0; i < NODE_TAP_BATCH; i++) {
		/* 1. what a TSO frame still owes the device goes first */
		if (n->tso_pkt && !node_tso_pump(n))
			return;
		/* 2. a buffer from the device's pool (a DMA device sends it without
		 * a copy); with the pool empty, pause reading for a moment */
		pkt = ethdrv_pkt_alloc(n->dev->pool);
		if (!pkt) {
			node_tx_pause(n);
			return;
		}
		/* 3. one frame from the kernel stack */
		len = n->tap_vnet ? node_vnet_read(n, pkt) :
				    ethdrv_tap_read(n->tap_fd, pkt->data, ETHDRV_PKT_DATA_MAX);
		if (len == -EMSGSIZE) {
			node_vnet_bad(n, pkt, "frame of a length the device cannot take dropped");
			continue;
		}
		if (len <= 0) {
			ethdrv_pkt_free(pkt);
			if (len != -EAGAIN) {
				ethdrv_counter_inc(&n->tap_stats.tap_rx_errors);
				ethdrv_warn_ratelimited(n->dev, "tap read: %d", (int)len);
			}
			return;
		}
		/* 4. to the driver; stop when its queue is full */
		if (n->tap_vnet) {
			if (!node_vnet_xmit(n, pkt, (size_t)len))
				return;
			continue;
		}
		pkt->len = (uint32_t)len;
		ethdrv_counter_inc(&n->tap_stats.tap_rx_frames);
		if (!node_tx(n, pkt))
			return;
	}
}

void node_tx_pause(struct node *n)
{
	ethdrv_watch_set(&n->tap_watch, 0);
	ethdrv_timer_start(&n->retry, NODE_RETRY_NS, 0);
}

void node_on_retry(struct ethdrv_timer *t)
{
	struct node *n = t->data;

	/* The TAP may have nothing new: a TSO frame being cut resumes here. */
	if (n->tso_pkt && !node_tso_pump(n))
		return;
	ethdrv_watch_set(&n->tap_watch, ETHDRV_EV_READ);
}

/* The TX queue woke up: may run on a poller thread, so only signal the loop. */
void node_tx_wake(void *arg)
{
	struct node *n = arg;
	uint64_t one = 1;

	if (write(n->wake_fd, &one, sizeof(one)) < 0)
		ethdrv_warn_ratelimited(n->dev, "tx wake: %d", -errno);
}

void node_on_wake(struct ethdrv_watch *w, unsigned events)
{
	struct node *n = w->data;
	struct ethdrv_pkt *pkt = n->tx_parked;
	uint64_t v;

	if (read(n->wake_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	if (!pkt && !n->fq.backlog)
		return;
	n->tx_parked = NULL;
	if (pkt && !node_xmit(n, pkt)) {
		if (!n->fq_on)
			ethdrv_watch_set(&n->tap_watch, 0);
		return;
	}
	node_fq_pump(n);
	if (n->tso_pkt && !node_tso_pump(n))
		return;
	ethdrv_watch_set(&n->tap_watch, ETHDRV_EV_READ);
}

/* ---- carrier --------------------------------------------------------- */

/*
 * The device's carrier (its PHY's link) onto the TAP (docs/mdio.md §10):
 * `ip link` shows NO-CARRIER or LOWER_UP and the kernel stops or resumes
 * sending. Before the TAP exists the state is applied when it opens.
 */
void node_carrier(void *arg, bool up)
{
	struct node *n = arg;
	int err;

	if (n->tap_fd < 0)
		return;
	err = ethdrv_tap_set_carrier(n->tap_fd, up);
	if (err)
		ethdrv_warn_ratelimited(n->dev, "tap carrier %s: %d", up ? "on" : "off", err);
}

/* ---- device -> TAP --------------------------------------------------- */

/* Runs in the device's poll context (loop or poller thread). */
void node_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *n = arg;

	if (n->tap_vnet) {
		node_vnet_rx(n, pkt);
		return;
	}
	tap_batch_add_pkt(&n->txb, NULL, pkt);
}

void node_rx_flush(void *arg)
{
	struct node *n = arg;

	if (n->tap_vnet)
		node_gro_flush(n);
	tap_batch_flush(&n->txb);
}

void node_tap_done(void *arg, unsigned frames, int err)
{
	struct node *n = arg;

	ethdrv_counter_inc(&n->tap_stats.tap_tx_writes);
	/* Every frame is counted: written, or refused (a full TAP queue, a
	 * link set down) and dropped. */
	ethdrv_counter_add(err ? &n->tap_stats.tap_tx_dropped : &n->tap_stats.tap_tx_frames,
			   frames);
	if (err && err != -EAGAIN && err != -EIO)
		ethdrv_warn_ratelimited(n->dev, "tap write: %d", err);
}
