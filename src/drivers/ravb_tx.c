// SPDX-License-Identifier: MIT
/*
 * GbEth driver: the TX ring (docs/gbeth.md §3.3). Each frame takes two
 * descriptors as Linux's GbEth path does: FSTART with the bytes up to the
 * next 4-byte boundary of the frame (1-4, from a per-slot aligned area,
 * never 0) and FEND with the rest in place; the FEND type is written
 * before the FSTART type, then TCCR.TSRQ0 is set. Completion: the DMA
 * writes FEMPTY back per descriptor; the frame is reclaimed when both are,
 * the descriptors become EEMPTY again, and BQL is told once per round
 * (docs/napi.md §4.2). Producer (start_xmit, loop thread) and consumer
 * (the poller, maybe a thread) meet through head/tail as fec_tx.c does.
 */
#include <string.h>

#include "ravb_priv.h"
#include "ring.h"

#define ALIGN_PART 4u /* DPTR_ALIGN (docs/gbeth.md §3.3) */

static uint8_t *tx_desc(const struct ravb_priv *priv, unsigned slot, unsigned part)
{
	return priv->tx.desc + ((size_t)slot * 2 + part) * RAVB_D_SIZE;
}

static uint32_t to_bus(const struct ravb_priv *priv, const void *p)
{
	return (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, p);
}

void ravb__tx_init(struct ravb_priv *priv)
{
	struct ravb_tx_ring *tx = &priv->tx;

	tx->head = tx->tail = 0;
	tx->stopped = 0;
	for (unsigned i = 0; i < tx->size; i++) {
		ravb_desc_set(tx_desc(priv, i, 0), DT_EEMPTY, 0, 0);
		ravb_desc_set(tx_desc(priv, i, 1), DT_EEMPTY, 0, 0);
		tx->pkt[i] = NULL;
	}
	ravb_desc_set(tx_desc(priv, tx->size, 0), DT_LINKFIX, 0, to_bus(priv, tx->desc));
}

static unsigned tx_free(struct ravb_tx_ring *tx)
{
	return ring_tx_free(&tx->head, &tx->tail, tx->size);
}

static void tx_maybe_wake(struct ravb_priv *priv)
{
	struct ravb_tx_ring *tx = &priv->tx;

	ring_tx_wake_check(&priv->dev, &tx->head, &tx->tail, tx->size, &tx->stopped,
			   &priv->st.tx_ring_wake);
}

static void tx_stop(struct ravb_priv *priv)
{
	struct ravb_tx_ring *tx = &priv->tx;

	ring_tx_stop(&priv->dev, &tx->head, &tx->tail, tx->size, &tx->stopped,
		     &priv->st.tx_ring_full, &priv->st.tx_ring_wake);
}

/* The frame's bytes in the DMA region: in place, or copied to the slot's bounce buffer. */
static uint8_t *tx_map(struct ravb_priv *priv, unsigned slot, struct ethdrv_pkt **pkt,
		       uint32_t *len)
{
	struct ethdrv_pkt *p = *pkt;
	uint8_t *buf;

	/* Padded to 60 first, as Linux does (docs/gbeth.md §3.3). */
	*len = ETHDRV_MAX(p->len, (uint32_t)ETHDRV_ETH_ZLEN);
	if (ethdrv_dma_contains(&priv->bus.dma, p->data, *len) &&
	    ethdrv_pkt_tailroom(p) + p->len >= *len) {
		memset(p->data + p->len, 0, *len - p->len);
		return p->data;
	}
	buf = priv->tx.bounce + (size_t)slot * RAVB_TX_MAX;
	memcpy(buf, p->data, p->len);
	memset(buf + p->len, 0, *len - p->len);
	ethdrv_pkt_free(p);
	*pkt = NULL;
	ethdrv_counter_inc(&priv->st.tx_bounce);
	return buf;
}

int ravb__start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);
	struct ravb_tx_ring *tx = &priv->tx;
	unsigned head = tx->head, slot = ring_slot(head, tx->size);
	uint32_t bql = pkt->len, len, first;
	uint8_t *data, *al;

	if (pkt->len > RAVB_TX_MAX) {
		ethdrv_counter_inc(&priv->st.tx_too_long);
		ethdrv_counter_inc(&dev->stats.tx_dropped);
		ethdrv_pkt_free(pkt);
		return ETHDRV_TX_OK;
	}
	if (ethdrv_unlikely(!tx_free(tx))) {
		tx_stop(priv);
		return ETHDRV_TX_BUSY;
	}
	data = tx_map(priv, slot, &pkt, &len);
	/* FSTART: up to the next 4-byte boundary, 4 bytes if aligned (never 0). */
	first = ALIGN_PART - (uint32_t)(to_bus(priv, data) & (ALIGN_PART - 1));
	al = tx->align + (size_t)slot * ALIGN_PART;
	memcpy(al, data, first);
	tx->pkt[slot] = pkt;
	tx->bytes[slot] = bql;
	ethdrv_dma_store16(tx_desc(priv, slot, 1) + RAVB_D_DS, (uint16_t)(len - first));
	ethdrv_dma_store32(tx_desc(priv, slot, 1) + RAVB_D_PTR, to_bus(priv, data + first));
	ethdrv_dma_store16(tx_desc(priv, slot, 0) + RAVB_D_DS, (uint16_t)first);
	ethdrv_dma_store32(tx_desc(priv, slot, 0) + RAVB_D_PTR, to_bus(priv, al));
	/* The last descriptor's type first, then the first's (docs/gbeth.md §3.3). */
	ethdrv_dma_store16_release(tx_desc(priv, slot, 1) + RAVB_D_CTL,
				   (uint16_t)(DT_FEND << RAVB_DT_SHIFT));
	ethdrv_dma_store16_release(tx_desc(priv, slot, 0) + RAVB_D_CTL,
				   (uint16_t)(DT_FSTART << RAVB_DT_SHIFT));
	__atomic_store_n(&tx->head, head + 1, __ATOMIC_RELEASE);
	ethdrv_netdev_tx_sent(dev, bql);
	ravb_modify(priv, RAVB_TCCR, 0, TCCR_TSRQ0);
	if (!tx_free(tx))
		tx_stop(priv);
	return ETHDRV_TX_OK;
}

unsigned ravb__tx_clean(struct ravb_priv *priv)
{
	struct ravb_tx_ring *tx = &priv->tx;
	unsigned tail = tx->tail, head = __atomic_load_n(&tx->head, __ATOMIC_ACQUIRE);
	unsigned pkts = 0, bytes = 0;

	while (tail != head) {
		unsigned slot = ring_slot(tail, tx->size);

		/* FEMPTY per descriptor once sent (docs/gbeth.md §3.3). */
		if (ravb_desc_dt(tx_desc(priv, slot, 0)) != DT_FEMPTY ||
		    ravb_desc_dt(tx_desc(priv, slot, 1)) != DT_FEMPTY)
			break;
		ravb_desc_set(tx_desc(priv, slot, 0), DT_EEMPTY, 0, 0);
		ravb_desc_set(tx_desc(priv, slot, 1), DT_EEMPTY, 0, 0);
		pkts++;
		bytes += tx->bytes[slot];
		ethdrv_pkt_free(tx->pkt[slot]);
		tx->pkt[slot] = NULL;
		tail++;
	}
	if (!pkts)
		return 0;
	__atomic_store_n(&tx->tail, tail, __ATOMIC_SEQ_CST);
	ethdrv_netdev_tx_completed(&priv->dev, pkts, bytes);
	tx_maybe_wake(priv);
	return pkts;
}

void ravb__tx_flush(struct ravb_priv *priv)
{
	struct ravb_tx_ring *tx = &priv->tx;

	ravb__tx_clean(priv);
	ring_tx_drop_rest(&priv->dev, tx->pkt, &tx->tail, tx->head, tx->size, &tx->stopped);
}
