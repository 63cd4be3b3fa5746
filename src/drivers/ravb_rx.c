// SPDX-License-Identifier: MIT
/*
 * GbEth driver: the RX ring (docs/gbeth.md §3.4, §3.5). Each descriptor
 * owns rx_buf bytes of driver memory in the DMA region; the ring is closed
 * by a LINKFIX. A frame in FSINGLE, or FSTART, FMID..., FEND, each part
 * with its own byte count, is copied into one packet from the pool (taken
 * at the frame's first part, in poll context) and every descriptor is
 * offered again at once: no allocation on the datapath beyond the pool,
 * and a frame of N parts is one unit of budget (docs/gbeth.md §3.5) unless
 * the pre-2024 poll asks for descriptors. Nothing the device writes is
 * trusted beyond the buffer the driver owns.
 */
#include <string.h>

#include "ravb_priv.h"
#include "ring.h"

static uint8_t *rx_desc(const struct ravb_priv *priv, unsigned slot)
{
	return priv->rx.desc + (size_t)slot * RAVB_D_SIZE;
}

static uint32_t rx_buf_bus(const struct ravb_priv *priv, unsigned slot)
{
	return priv->rx.buf_bus + slot * priv->rx_buf;
}

/* Offer descriptor @slot: DS = the buffer size, DPTR, then FEMPTY (docs/gbeth.md §3.4). */
static void rx_offer(struct ravb_priv *priv, unsigned slot)
{
	ravb_desc_set(rx_desc(priv, slot), DT_FEMPTY, (uint16_t)priv->rx_buf,
		      rx_buf_bus(priv, slot));
}

void ravb__rx_init(struct ravb_priv *priv)
{
	struct ravb_rx_ring *rx = &priv->rx;

	rx->next = 0;
	rx->asm_pkt = NULL;
	rx->asm_drop = false;
	for (unsigned i = 0; i < rx->size; i++)
		rx_offer(priv, i);
	/* The ring's end leads back to its start (docs/gbeth.md §3.2). */
	ravb_desc_set(rx_desc(priv, rx->size), DT_LINKFIX, 0,
		      (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, rx->desc));
}

void ravb__rx_free(struct ravb_priv *priv)
{
	ethdrv_pkt_free(priv->rx.asm_pkt);
	priv->rx.asm_pkt = NULL;
	for (unsigned i = 0; i < priv->rx.size; i++)
		ravb_desc_set(rx_desc(priv, i), DT_EEMPTY, 0, 0);
}

/* A part the MAC flagged (docs/gbeth.md §3.1), sorted as Linux does. */
static void rx_count_errors(struct ravb_priv *priv, unsigned msc)
{
	struct ethdrv_link_stats *ls = &priv->dev.stats;

	ethdrv_counter_inc(&ls->rx_errors);
	if (msc & MSC_CRC)
		ethdrv_counter_inc(&ls->rx_crc_errors);
	if (msc & MSC_RFE)
		ethdrv_counter_inc(&ls->rx_frame_errors);
	if (msc & (MSC_RTLF | MSC_RTSF))
		ethdrv_counter_inc(&ls->rx_length_errors);
	if (msc & MSC_CEEF)
		ethdrv_counter_inc(&ls->rx_missed_errors);
}

/* The checksum trailer (docs/gbeth.md §7): stripped, the protocol half counted. */
static void rx_trailer(struct ravb_priv *priv, struct ethdrv_pkt *pkt)
{
	const uint8_t *t = pkt->data + pkt->len - RAVB_CSUM_TRAILER;
	uint16_t proto = (uint16_t)(t[2] | t[3] << 8);

	pkt->len -= RAVB_CSUM_TRAILER;
	if (!proto)
		ethdrv_counter_inc(&priv->st.rx_csum_ok);
	else if (proto != 0xFFFF)
		ethdrv_counter_inc(&priv->st.rx_csum_bad);
}

/* The frame in asm_pkt is complete: trailer off, length checked, up the stack. */
static void rx_deliver(struct ravb_priv *priv, unsigned parts)
{
	struct ravb_rx_ring *rx = &priv->rx;
	struct ethdrv_pkt *pkt = rx->asm_pkt;

	rx->asm_pkt = NULL;
	if (parts > 1)
		ethdrv_counter_inc(&priv->st.rx_multi_desc);
	if (pkt->len < ETHDRV_ETH_HLEN + (priv->rx_csum ? RAVB_CSUM_TRAILER : 0)) {
		ethdrv_counter_inc(&priv->dev.stats.rx_errors);
		ethdrv_counter_inc(&priv->dev.stats.rx_length_errors);
		ethdrv_pkt_free(pkt);
		return;
	}
	if (priv->rx_csum)
		rx_trailer(priv, pkt);
	ethdrv_netdev_receive(&priv->dev, pkt);
}

/* Append @len bytes of descriptor @slot's buffer to the frame being built. */
static void rx_append(struct ravb_priv *priv, unsigned slot, uint16_t len)
{
	struct ravb_rx_ring *rx = &priv->rx;
	struct ethdrv_pkt *pkt = rx->asm_pkt;

	if (len > ethdrv_pkt_tailroom(pkt)) {
		ethdrv_counter_inc(&priv->st.rx_too_long);
		ethdrv_counter_inc(&priv->dev.stats.rx_errors);
		ethdrv_counter_inc(&priv->dev.stats.rx_length_errors);
		ethdrv_pkt_free(pkt);
		rx->asm_pkt = NULL;
		rx->asm_drop = true;
		return;
	}
	memcpy(pkt->data + pkt->len, rx->buf + (size_t)slot * priv->rx_buf, len);
	pkt->len += len;
}

/* A new frame starts: its packet from the pool, or the frame is dropped. */
static void rx_begin(struct ravb_priv *priv)
{
	struct ravb_rx_ring *rx = &priv->rx;

	if (rx->asm_pkt) {
		/* FSTART without the previous FEND: that frame is lost. */
		ethdrv_counter_inc(&priv->dev.stats.rx_errors);
		ethdrv_pkt_free(rx->asm_pkt);
	}
	rx->asm_drop = false;
	rx->asm_pkt = ethdrv_pkt_alloc(priv->pool);
	if (!rx->asm_pkt) {
		ethdrv_counter_inc(&priv->st.rx_alloc_failed);
		ethdrv_counter_inc(&priv->dev.stats.rx_dropped);
		rx->asm_drop = true;
		return;
	}
	rx->asm_pkt->data = rx->asm_pkt->buf + ETHDRV_PKT_HEADROOM;
	rx->asm_pkt->len = 0;
}

/*
 * One written-back descriptor. Returns true when it ended a frame (delivered
 * or dropped): one packet of work.
 */
static bool rx_one(struct ravb_priv *priv, unsigned slot, unsigned dt)
{
	struct ravb_rx_ring *rx = &priv->rx;
	uint8_t *d = rx_desc(priv, slot);
	uint16_t ds = ethdrv_dma_load16(d + RAVB_D_DS) & RAVB_DS_MASK;
	unsigned msc = ethdrv_dma_load16(d + RAVB_D_CTL) & RAVB_MSC_MASK;
	bool last = dt == DT_FSINGLE || dt == DT_FEND;

	if (dt != DT_FSINGLE && dt != DT_FSTART && dt != DT_FMID && dt != DT_FEND) {
		ethdrv_counter_inc(&priv->st.rx_bad_desc);
		return false;
	}
	if (!ds && dt == DT_FSINGLE) {
		ethdrv_counter_inc(&priv->st.rx_ds0); /* owned no buffer (docs/gbeth.md §3.4) */
		return false;
	}
	if (ds > priv->rx_buf)
		ds = (uint16_t)priv->rx_buf; /* never past our buffer */
	if (dt == DT_FSINGLE || dt == DT_FSTART) {
		rx_begin(priv);
		rx->asm_parts = 0;
	} else if (!rx->asm_pkt && !rx->asm_drop) {
		/* FMID/FEND without FSTART: dropped (docs/gbeth.md §3.5). */
		ethdrv_counter_inc(&priv->st.rx_orphan_parts);
		return false;
	}
	rx->asm_parts++;
	if (msc & MSC_ERRORS) {
		if (rx->asm_pkt || !rx->asm_drop)
			rx_count_errors(priv, msc);
		ethdrv_pkt_free(rx->asm_pkt);
		rx->asm_pkt = NULL;
		rx->asm_drop = !last;
		return last;
	}
	if (rx->asm_pkt)
		rx_append(priv, slot, ds);
	if (!last)
		return false;
	rx->asm_drop = false;
	if (rx->asm_pkt)
		rx_deliver(priv, rx->asm_parts);
	return true;
}

int ravb__rx(struct ravb_priv *priv, int budget, bool count_descs)
{
	struct ravb_rx_ring *rx = &priv->rx;
	unsigned descs = 0;
	int packets = 0;

	/* 2024: packets up to the budget, at most one ring of descriptors;
	 * pre-2024: descriptors up to min(ring, budget) (docs/gbeth.md §4.4). */
	while (count_descs ? descs < (unsigned)budget : packets < budget) {
		unsigned slot = ring_slot(rx->next, rx->size);
		unsigned dt = ravb_desc_dt(rx_desc(priv, slot));

		if (dt == DT_FEMPTY || descs == rx->size)
			break;
		descs++;
		rx->next++;
		if (rx_one(priv, slot, dt))
			packets++;
		rx_offer(priv, slot);
	}
	return count_descs ? (int)descs : packets;
}
