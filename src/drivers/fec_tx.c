// SPDX-License-Identifier: MIT
/*
 * ENET driver: the TX ring (docs/enet.md §3.2, §3.4). start_xmit puts one
 * frame in one BD (its own buffer when it lies in the DMA region, else a
 * bounce copy), accounts it to byte queue limits and rings TDAR; the queue
 * stops when the ring is full and wakes at half empty, as netif_stop_queue
 * users do (docs/napi.md §4.2). Completion reclaims BDs whose R bit the
 * DMA cleared, once per round for BQL.
 *
 * Producer and consumer run in different threads when the TX poller is
 * threaded: head is published with release after the BD, tail with seq_cst
 * against the "stopped" flag (the stop/wake race of netif_stop_queue).
 */
#include <string.h>

#include "fec_priv.h"
#include "ring.h"

static uint8_t *tx_bd(const struct fec_priv *priv, unsigned slot)
{
	return priv->tx.bd + (size_t)slot * priv->bd_size;
}

void fec__tx_init(struct fec_priv *priv)
{
	struct fec_tx_ring *tx = &priv->tx;

	tx->head = tx->tail = 0;
	tx->stopped = 0;
	for (unsigned i = 0; i < tx->size; i++) {
		uint8_t *bd = tx_bd(priv, i);

		memset(bd, 0, priv->bd_size);
		ethdrv_dma_store16_release(bd + FEC_BD_STATUS,
					   ring_is_last(i, tx->size) ? FEC_TXBD_W : 0);
		tx->pkt[i] = NULL;
	}
}

static unsigned tx_free(struct fec_tx_ring *tx)
{
	return ring_tx_free(&tx->head, &tx->tail, tx->size);
}

static void tx_maybe_wake(struct fec_priv *priv)
{
	struct fec_tx_ring *tx = &priv->tx;

	ring_tx_wake_check(&priv->dev, &tx->head, &tx->tail, tx->size, &tx->stopped,
			   &priv->st.tx_ring_wake);
}

static void tx_stop(struct fec_priv *priv)
{
	struct fec_tx_ring *tx = &priv->tx;

	ring_tx_stop(&priv->dev, &tx->head, &tx->tail, tx->size, &tx->stopped,
		     &priv->st.tx_ring_full, &priv->st.tx_ring_wake);
}

/* The frame's bus address: its own buffer, or bounce buffer @slot. */
static uint32_t tx_map(struct fec_priv *priv, unsigned slot, struct ethdrv_pkt **pkt, uint16_t *len)
{
	struct ethdrv_pkt *p = *pkt;
	uint8_t *buf;

	/* Runts: the driver pads to 60 itself rather than trust the MAC to. */
	*len = (uint16_t)ETHDRV_MAX(p->len, (uint32_t)ETHDRV_ETH_ZLEN);
	if (ethdrv_dma_contains(&priv->bus.dma, p->data, *len) &&
	    ethdrv_pkt_tailroom(p) + p->len >= *len) {
		memset(p->data + p->len, 0, *len - p->len);
		return (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, p->data);
	}
	buf = priv->tx.bounce + (size_t)slot * FEC_TX_BOUNCE_SIZE;
	memcpy(buf, p->data, p->len);
	memset(buf + p->len, 0, *len - p->len);
	ethdrv_pkt_free(p);
	*pkt = NULL;
	ethdrv_counter_inc(&priv->st.tx_bounce);
	return (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, buf);
}

int fec__tx_start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);
	struct fec_tx_ring *tx = &priv->tx;
	unsigned head = tx->head, slot = ring_slot(head, tx->size);
	uint32_t bql = pkt->len, addr;
	uint8_t *bd = tx_bd(priv, slot);
	uint16_t len, st;

	/* 1. Room (the queue is stopped before the ring is full; a safety net). */
	if (ethdrv_unlikely(!tx_free(tx))) {
		tx_stop(priv);
		return ETHDRV_TX_BUSY;
	}
	/* 2. Map and fill the BD; ownership (R) goes last, with release. */
	addr = tx_map(priv, slot, &pkt, &len);
	tx->pkt[slot] = pkt;
	tx->bytes[slot] = bql;
	ethdrv_dma_store32(bd + FEC_BD_ADDR, addr);
	ethdrv_dma_store16(bd + FEC_BD_LEN, len);
	if (priv->bd_size == FEC_BDX_SIZE) {
		ethdrv_dma_store32(bd + FEC_BDX_ESC, FEC_TXESC_INT);
		ethdrv_dma_store32(bd + FEC_BDX_BDU, 0);
	}
	st = FEC_TXBD_R | FEC_TXBD_L | FEC_TXBD_TC;
	if (ring_is_last(slot, tx->size))
		st |= FEC_TXBD_W;
	ethdrv_dma_store16_release(bd + FEC_BD_STATUS, st);
	__atomic_store_n(&tx->head, head + 1, __ATOMIC_RELEASE);
	/* 3. Byte queue limits, then the doorbell: any value starts the DMA (docs/enet.md §3.4). */
	ethdrv_netdev_tx_sent(dev, bql);
	fec_wr(priv, FEC_REG_TDAR, FEC_DAR_ACTIVE);
	/* 4. Stop at ring full. */
	if (!tx_free(tx))
		tx_stop(priv);
	return ETHDRV_TX_OK;
}

unsigned fec__tx_clean(struct fec_priv *priv)
{
	struct fec_tx_ring *tx = &priv->tx;
	unsigned tail = tx->tail, head = __atomic_load_n(&tx->head, __ATOMIC_ACQUIRE);
	unsigned pkts = 0, bytes = 0;

	while (tail != head) {
		unsigned slot = ring_slot(tail, tx->size);
		uint8_t *bd = tx_bd(priv, slot);

		/* The DMA clears R when the frame has left (docs/enet.md §10 item 3). */
		if (ethdrv_dma_load16_acquire(bd + FEC_BD_STATUS) & FEC_TXBD_R)
			break;
		if (priv->bd_size == FEC_BDX_SIZE &&
		    (ethdrv_dma_load32(bd + FEC_BDX_ESC) & FEC_TXESC_ERRORS))
			ethdrv_counter_inc(&priv->st.tx_errors_bd);
		pkts++;
		bytes += tx->bytes[slot];
		ethdrv_pkt_free(tx->pkt[slot]);
		tx->pkt[slot] = NULL;
		tail++;
	}
	if (!pkts)
		return 0;
	__atomic_store_n(&tx->tail, tail, __ATOMIC_SEQ_CST);
	priv->coal[FEC_TX].pkts += pkts;
	priv->coal[FEC_TX].bytes += bytes;
	/* Once per round (docs/napi.md §4.2). */
	ethdrv_netdev_tx_completed(&priv->dev, pkts, bytes);
	tx_maybe_wake(priv);
	return pkts;
}

/* The DMA is stopped: reclaim what it sent, drop (and count) the rest. */
void fec__tx_flush(struct fec_priv *priv)
{
	struct fec_tx_ring *tx = &priv->tx;

	fec__tx_clean(priv);
	ring_tx_drop_rest(&priv->dev, tx->pkt, &tx->tail, tx->head, tx->size, &tx->stopped);
}
