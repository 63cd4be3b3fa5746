// SPDX-License-Identifier: MIT
/*
 * gianfar driver: the RX and TX rings (docs/etsec.md §3). RX BDs hold pool
 * buffers; the poller hands a filled one up and refills the BD from the
 * pool in poll context, no allocation and no copy (a frame the pool cannot
 * replace is dropped, counted, and its buffer re-armed). TX puts one frame
 * in one BD (its own buffer if it lies in the DMA region, else a bounce
 * copy), with I so TXF reports it, and writes TSTAT[THLT0] to start the
 * ring (docs/etsec.md §3.4); BQL accounts it; the queue stops at ring full
 * and wakes at half empty.
 */
#include <errno.h>
#include <string.h>

#include "ethdrv/log.h"
#include "gianfar_priv.h"
#include "ring.h"

ETHDRV_LOG_MODULE(gianfar);

#define ETH_FCS 4u

static uint8_t *bd_of(uint8_t *ring, unsigned slot)
{
	return ring + (size_t)slot * GFAR_BD_SIZE;
}

static uint16_t bd_status(const struct gfar_priv *p, const uint8_t *bd)
{
	return gfar_bd16(p, ethdrv_dma_load16_acquire(bd + GFAR_BD_STATUS));
}

/* Fill a BD; the status (ownership) goes last, with release. */
static void bd_give(const struct gfar_priv *p, uint8_t *bd, uint16_t st, uint16_t len,
		    uint32_t addr)
{
	ethdrv_dma_store32(bd + GFAR_BD_ADDR, gfar_bd32(p, addr));
	ethdrv_dma_store16(bd + GFAR_BD_LEN, gfar_bd16(p, len));
	ethdrv_dma_store16_release(bd + GFAR_BD_STATUS, gfar_bd16(p, st));
}

/* ---- RX ---- */

static uint32_t rx_buf_bus(struct gfar_priv *p, struct ethdrv_pkt *pkt)
{
	uintptr_t a = ((uintptr_t)pkt->buf + GFAR_RX_ALIGN - 1) & ~(uintptr_t)(GFAR_RX_ALIGN - 1);

	pkt->data = (uint8_t *)a;
	pkt->len = 0;
	return (uint32_t)ethdrv_dma_to_bus(&p->bus.dma, pkt->data);
}

static void rx_arm(struct gfar_priv *p, unsigned slot)
{
	uint16_t st = GFAR_RXBD_EMPTY | GFAR_RXBD_INT;

	if (ring_is_last(slot, p->rx.size))
		st |= GFAR_RXBD_WRAP;
	bd_give(p, bd_of(p->rx.bd, slot), st, 0, rx_buf_bus(p, p->rx.pkt[slot]));
}

int gfar__rx_init(struct gfar_priv *priv)
{
	struct gfar_rx_ring *rx = &priv->rx;

	rx->next = 0;
	rx->dropping = false;
	for (unsigned i = 0; i < rx->size; i++) {
		rx->pkt[i] = ethdrv_pkt_alloc(priv->pool);
		if (!rx->pkt[i]) {
			gfar__rx_free(priv);
			return -ENOMEM;
		}
		rx_arm(priv, i);
	}
	return 0;
}

void gfar__rx_free(struct gfar_priv *priv)
{
	for (unsigned i = 0; i < priv->rx.size; i++) {
		ethdrv_dma_store16_release(bd_of(priv->rx.bd, i) + GFAR_BD_STATUS, 0);
		ethdrv_pkt_free(priv->rx.pkt[i]);
		priv->rx.pkt[i] = NULL;
	}
}

/* A frame the MAC flagged (docs/etsec.md §3.3), sorted as Linux's gianfar does. */
static void rx_errors(struct gfar_priv *p, uint16_t st)
{
	struct ethdrv_link_stats *s = &p->dev.stats;

	ethdrv_counter_inc(&s->rx_errors);
	if (st & (GFAR_RXBD_LG | GFAR_RXBD_SH | GFAR_RXBD_TR))
		ethdrv_counter_inc(&s->rx_length_errors);
	if (st & GFAR_RXBD_NO)
		ethdrv_counter_inc(&s->rx_frame_errors);
	if (st & GFAR_RXBD_CR)
		ethdrv_counter_inc(&s->rx_crc_errors);
	if (st & GFAR_RXBD_OV)
		ethdrv_counter_inc(&s->rx_over_errors);
}

/*
 * The frame in BD @slot, or NULL when it is dropped (and counted). The
 * device's status and length are not trusted: a frame must be one BD with
 * F and L, no error bit, and a length from 14 + FCS to MRBLR.
 */
static struct ethdrv_pkt *rx_one(struct gfar_priv *p, unsigned slot, uint16_t st)
{
	struct gfar_rx_ring *rx = &p->rx;
	uint16_t len = gfar_bd16(p, ethdrv_dma_load16(bd_of(rx->bd, slot) + GFAR_BD_LEN));
	bool whole =
		(st & (GFAR_RXBD_FIRST | GFAR_RXBD_LAST)) == (GFAR_RXBD_FIRST | GFAR_RXBD_LAST);
	struct ethdrv_pkt *got, *fresh;

	if (!whole || rx->dropping) {
		/* Longer than MRBLR (docs/etsec.md §3.5): drop through its L BD. */
		ethdrv_counter_inc(&p->st.rx_multi_bd);
		rx->dropping = !(st & GFAR_RXBD_LAST);
		if (!rx->dropping)
			rx_errors(p, st | GFAR_RXBD_LG);
		return NULL;
	}
	if (st & GFAR_RXBD_ERR) {
		rx_errors(p, st);
		return NULL;
	}
	if (len < ETHDRV_ETH_HLEN + ETH_FCS || len > GFAR_RX_BUF) {
		ethdrv_counter_inc(&p->st.rx_bad_len);
		rx_errors(p, GFAR_RXBD_LG);
		ethdrv_err_ratelimited(&p->dev, "rx: device reported length %u", len);
		return NULL;
	}
	fresh = ethdrv_pkt_alloc(p->pool);
	if (!fresh) {
		ethdrv_counter_inc(&p->st.rx_alloc_failed);
		ethdrv_counter_inc(&p->dev.stats.rx_dropped);
		return NULL;
	}
	got = rx->pkt[slot];
	got->len = len - ETH_FCS; /* the FCS is always in the buffer (docs/etsec.md §3.5) */
	rx->pkt[slot] = fresh;
	return got;
}

int gfar__rx_clean(struct gfar_priv *priv, int budget)
{
	struct gfar_rx_ring *rx = &priv->rx;
	int done = 0;

	while (done < budget) {
		unsigned slot = ring_slot(rx->next, rx->size);
		uint16_t st = bd_status(priv, bd_of(rx->bd, slot));
		struct ethdrv_pkt *pkt;

		if (st & GFAR_RXBD_EMPTY)
			break;
		done++; /* every BD counts, so bad frames are bounded too */
		rx->next++;
		pkt = rx_one(priv, slot, st);
		rx_arm(priv, slot);
		if (!pkt)
			continue;
		priv->coal[GFAR_RX].pkts++;
		priv->coal[GFAR_RX].bytes += pkt->len;
		ethdrv_netdev_receive(&priv->dev, pkt);
	}
	return done;
}

/* ---- TX ---- */

void gfar__tx_init(struct gfar_priv *priv)
{
	struct gfar_tx_ring *tx = &priv->tx;

	tx->head = 0;
	tx->tail = 0;
	tx->stopped = 0;
	memset(tx->pkt, 0, tx->size * sizeof(*tx->pkt));
	for (unsigned i = 0; i < tx->size; i++)
		bd_give(priv, bd_of(tx->bd, i), ring_is_last(i, tx->size) ? GFAR_TXBD_WRAP : 0, 0,
			0);
}

static unsigned tx_room(struct gfar_tx_ring *tx)
{
	unsigned head = __atomic_load_n(&tx->head, __ATOMIC_RELAXED);

	return ring_free(head, __atomic_load_n(&tx->tail, __ATOMIC_SEQ_CST), tx->size);
}

/* Completion side: the driver's stop is lifted at half a ring of room. */
static void tx_wake_if_room(struct gfar_priv *p)
{
	struct gfar_tx_ring *tx = &p->tx;

	if (!__atomic_load_n(&tx->stopped, __ATOMIC_SEQ_CST) || tx_room(tx) < tx->size / 2)
		return;
	if (!__atomic_exchange_n(&tx->stopped, 0, __ATOMIC_SEQ_CST))
		return;
	ethdrv_counter_inc(&p->st.tx_ring_wake);
	ethdrv_netdev_tx_wake(&p->dev);
}

/* Ring full: stop the queue, then look again (a completion may have raced). */
static void tx_full(struct gfar_priv *p)
{
	ethdrv_counter_inc(&p->st.tx_ring_full);
	__atomic_store_n(&p->tx.stopped, 1, __ATOMIC_SEQ_CST);
	ethdrv_netdev_tx_stop(&p->dev);
	tx_wake_if_room(p);
}

/* Bus address of the frame's data: in place, or copied to bounce buffer @slot. */
static uint32_t tx_place(struct gfar_priv *p, unsigned slot, struct ethdrv_pkt **pp)
{
	struct ethdrv_pkt *pkt = *pp;
	uint8_t *copy;

	if (ethdrv_dma_contains(&p->bus.dma, pkt->data, pkt->len))
		return (uint32_t)ethdrv_dma_to_bus(&p->bus.dma, pkt->data);
	copy = p->tx.bounce + (size_t)slot * GFAR_TX_BOUNCE;
	memcpy(copy, pkt->data, pkt->len);
	ethdrv_counter_inc(&p->st.tx_bounce);
	ethdrv_pkt_free(pkt);
	*pp = NULL;
	return (uint32_t)ethdrv_dma_to_bus(&p->bus.dma, copy);
}

int gfar__start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);
	struct gfar_tx_ring *tx = &p->tx;
	unsigned head = tx->head, slot = ring_slot(head, tx->size);
	uint16_t len = (uint16_t)pkt->len, st;
	uint32_t addr;

	if (ethdrv_unlikely(!tx_room(tx))) {
		tx_full(p);
		return ETHDRV_TX_BUSY;
	}
	if (pkt->len > GFAR_TX_BOUNCE || pkt->len < ETHDRV_ETH_HLEN) {
		ethdrv_counter_inc(&dev->stats.tx_errors);
		ethdrv_pkt_free(pkt);
		return ETHDRV_TX_OK;
	}
	tx->bytes[slot] = len;
	addr = tx_place(p, slot, &pkt);
	tx->pkt[slot] = pkt;
	/* MACCFG2[PAD/CRC] pads runts and appends the CRC (docs/etsec.md §4.2). */
	st = GFAR_TXBD_READY | GFAR_TXBD_INT | GFAR_TXBD_LAST | GFAR_TXBD_CRC;
	if (ring_is_last(slot, tx->size))
		st |= GFAR_TXBD_WRAP;
	bd_give(p, bd_of(tx->bd, slot), st, len, addr);
	__atomic_store_n(&tx->head, head + 1, __ATOMIC_RELEASE);
	ethdrv_netdev_tx_sent(dev, tx->bytes[slot]);
	/* Start the ring: THLT0 is write-1-to-clear (docs/etsec.md §3.4). */
	gfar_wr(p, GFAR_TSTAT, GFAR_TSTAT_THLT0);
	if (!tx_room(tx))
		tx_full(p);
	return ETHDRV_TX_OK;
}

unsigned gfar__tx_clean(struct gfar_priv *priv)
{
	struct gfar_tx_ring *tx = &priv->tx;
	unsigned tail = tx->tail, head = __atomic_load_n(&tx->head, __ATOMIC_ACQUIRE);
	unsigned frames = 0, bytes = 0;

	/* A frame is done when its (only, last) BD has R clear (docs/etsec.md §3.4). */
	for (; tail != head; tail++) {
		unsigned slot = ring_slot(tail, tx->size);

		if (bd_status(priv, bd_of(tx->bd, slot)) & GFAR_TXBD_READY)
			break;
		bytes += tx->bytes[slot];
		frames++;
		ethdrv_pkt_free(tx->pkt[slot]);
		tx->pkt[slot] = NULL;
	}
	if (!frames)
		return 0;
	__atomic_store_n(&tx->tail, tail, __ATOMIC_SEQ_CST);
	priv->coal[GFAR_TX].pkts += frames;
	priv->coal[GFAR_TX].bytes += bytes;
	ethdrv_netdev_tx_completed(&priv->dev, frames, bytes); /* once per round */
	tx_wake_if_room(priv);
	return frames;
}

/* The DMA is stopped: reclaim what was sent, drop (count) the rest. */
void gfar__tx_flush(struct gfar_priv *priv)
{
	struct gfar_tx_ring *tx = &priv->tx;

	gfar__tx_clean(priv);
	for (; tx->tail != tx->head; tx->tail++) {
		unsigned slot = ring_slot(tx->tail, tx->size);

		ethdrv_pkt_free(tx->pkt[slot]);
		tx->pkt[slot] = NULL;
		ethdrv_counter_inc(&priv->dev.stats.tx_dropped);
	}
	__atomic_store_n(&tx->stopped, 0, __ATOMIC_SEQ_CST);
	ethdrv_netdev_tx_reset(&priv->dev);
}
