// SPDX-License-Identifier: MIT
/*
 * ENET driver: the RX ring (docs/enet.md §3). Every BD holds a buffer from
 * the device's packet pool; the poller hands a filled buffer up as it is
 * and puts a fresh one from the pool in its place (no copy, no allocation:
 * docs/style.md S9). A frame with an error, or one the pool cannot replace, is
 * counted and its buffer given straight back to the DMA. The device's
 * length and status are never trusted beyond the buffer the driver owns.
 */
#include <errno.h>
#include <stdlib.h>

#include "ethdrv/log.h"
#include "fec_priv.h"
#include "ring.h"

ETHDRV_LOG_MODULE(fec);

static uint8_t *rx_bd(const struct fec_priv *priv, unsigned slot)
{
	return priv->rx.bd + (size_t)slot * priv->bd_size;
}

/* Point @pkt's data at its DMA buffer: 64-byte aligned, MRBR bytes long. */
static void rx_buf_init(struct ethdrv_pkt *pkt)
{
	uintptr_t p = (uintptr_t)pkt->buf + 16;

	pkt->data = (uint8_t *)((p + FEC_RX_BUF_ALIGN - 1) & ~(uintptr_t)(FEC_RX_BUF_ALIGN - 1));
	pkt->len = 0;
}

/* Give BD @slot (buffer rx.pkt[slot]) to the DMA: E last, with release (docs/enet.md §3.4). */
static void rx_arm(struct fec_priv *priv, unsigned slot)
{
	uint8_t *bd = rx_bd(priv, slot);
	uint16_t st = FEC_RXBD_E | (ring_is_last(slot, priv->rx.size) ? FEC_RXBD_W : 0);

	ethdrv_dma_store32(bd + FEC_BD_ADDR,
			   (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, priv->rx.pkt[slot]->data));
	ethdrv_dma_store16(bd + FEC_BD_LEN, 0);
	if (priv->bd_size == FEC_BDX_SIZE) {
		ethdrv_dma_store32(bd + FEC_BDX_ESC, FEC_RXESC_INT);
		ethdrv_dma_store32(bd + FEC_BDX_BDU, 0);
	}
	ethdrv_dma_store16_release(bd + FEC_BD_STATUS, st);
}

int fec__rx_init(struct fec_priv *priv)
{
	struct fec_rx_ring *rx = &priv->rx;

	rx->next = 0;
	rx->discard = false;
	for (unsigned i = 0; i < rx->size; i++) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(priv->pool);

		if (!pkt) {
			fec__rx_free(priv);
			return -ENOMEM;
		}
		rx_buf_init(pkt);
		rx->pkt[i] = pkt;
		rx_arm(priv, i);
	}
	return 0;
}

/* Take every buffer back from the ring (the DMA is stopped). */
void fec__rx_free(struct fec_priv *priv)
{
	for (unsigned i = 0; i < priv->rx.size; i++) {
		if (priv->rx.pkt[i]) {
			ethdrv_pkt_free(priv->rx.pkt[i]);
			priv->rx.pkt[i] = NULL;
		}
		ethdrv_dma_store16_release(rx_bd(priv, i) + FEC_BD_STATUS, 0);
	}
}

/* Count a frame the MAC flagged (docs/enet.md §3.2), as Linux fec sorts them. */
static void rx_count_errors(struct fec_priv *priv, uint16_t st)
{
	struct ethdrv_link_stats *ls = &priv->dev.stats;

	ethdrv_counter_inc(&ls->rx_errors);
	if (st & (FEC_RXBD_LG | FEC_RXBD_SH | FEC_RXBD_TR))
		ethdrv_counter_inc(&ls->rx_length_errors);
	if (st & FEC_RXBD_NO)
		ethdrv_counter_inc(&ls->rx_frame_errors);
	if (st & FEC_RXBD_CR)
		ethdrv_counter_inc(&ls->rx_crc_errors);
	if (st & FEC_RXBD_OV)
		ethdrv_counter_inc(&ls->rx_fifo_errors);
}

/* A length no correct MAC reports for a one-BD frame: counted, dropped. */
static bool rx_len_bad(struct fec_priv *priv, uint16_t len)
{
	if (len >= ETHDRV_ETH_HLEN && len <= FEC_RX_BUF_SIZE)
		return false;
	ethdrv_counter_inc(&priv->st.rx_bad_len);
	ethdrv_counter_inc(&priv->dev.stats.rx_errors);
	ethdrv_counter_inc(&priv->dev.stats.rx_length_errors);
	ethdrv_err_ratelimited(&priv->dev, "rx: device reported length %u", len);
	return true;
}

/*
 * One BD the DMA gave back. Returns the frame to deliver, or NULL when it
 * was counted and dropped; either way the BD is armed again.
 */
static struct ethdrv_pkt *rx_take(struct fec_priv *priv, unsigned slot, uint16_t st)
{
	struct fec_rx_ring *rx = &priv->rx;
	uint16_t len = ethdrv_dma_load16(rx_bd(priv, slot) + FEC_BD_LEN);
	struct ethdrv_pkt *pkt = NULL, *fresh;

	/* 1. A frame longer than MRBR spans BDs; it is always also LG (docs/enet.md §3.5). */
	if (!(st & FEC_RXBD_L)) {
		rx->discard = true;
		ethdrv_counter_inc(&priv->st.rx_multi_bd);
		goto rearm;
	}
	if (rx->discard) {
		rx->discard = false;
		rx_count_errors(priv, st | FEC_RXBD_LG);
		goto rearm;
	}
	/* 2. Flagged by the MAC. */
	if (st & FEC_RXBD_ERRORS) {
		rx_count_errors(priv, st);
		goto rearm;
	}
	if (rx_len_bad(priv, len))
		goto rearm;
	/* 3. A fresh buffer for the BD, or the frame is dropped. */
	fresh = ethdrv_pkt_alloc(priv->pool);
	if (!fresh) {
		ethdrv_counter_inc(&priv->st.rx_alloc_failed);
		ethdrv_counter_inc(&priv->dev.stats.rx_dropped);
		goto rearm;
	}
	pkt = rx->pkt[slot];
	pkt->len = len; /* RCR.CRCFWD: the MAC stripped the FCS (docs/enet.md §3.5) */
	rx_buf_init(fresh);
	rx->pkt[slot] = fresh;
rearm:
	rx_arm(priv, slot);
	return pkt;
}

int fec__rx_clean(struct fec_priv *priv, int budget)
{
	struct fec_rx_ring *rx = &priv->rx;
	struct fec_coal *coal = &priv->coal[FEC_RX];
	int work = 0;

	while (work < budget) {
		unsigned slot = ring_slot(rx->next, rx->size);
		uint16_t st = ethdrv_dma_load16_acquire(rx_bd(priv, slot) + FEC_BD_STATUS);
		struct ethdrv_pkt *pkt;

		if (st & FEC_RXBD_E)
			break;
		/* Every BD is a unit of work, so bad frames cannot run unbounded. */
		work++;
		rx->next++;
		pkt = rx_take(priv, slot, st);
		if (!pkt)
			continue;
		coal->pkts++;
		coal->bytes += pkt->len;
		ethdrv_netdev_receive(&priv->dev, pkt);
	}
	/* BDs went back: the DMA may have stopped at a full ring (docs/enet.md §3.4). */
	if (work)
		fec_wr(priv, FEC_REG_RDAR, FEC_DAR_ACTIVE);
	return work;
}
