// SPDX-License-Identifier: MIT
/*
 * The TAP offloads of a node (node_priv.h, tap_offload.h), for a TAP with a
 * virtio_net_hdr before every frame:
 * - TX: a frame is read into a packet of the device's pool, and what does
 *   not fit into an overflow buffer; a TSO frame is cut into MSS-sized
 *   frames (the line never carries more than 1514 bytes), one packet each,
 *   handed to the device as they are cut, so a stopped queue or an empty
 *   pool pauses the cutting where it is; a partial checksum is completed.
 * - RX: received TCP segments of one flow are held while they continue
 *   each other and go to the kernel as one frame with a GSO header at the
 *   end of each poll (the device's rx flush), or when the batch is full.
 * - Knobs: tap_tso (what the kernel may send: on = checksum offload and
 *   TSO) and tap_gro (coalescing received segments), both on by default.
 * Every frame is counted where it ends, as in node_tap.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "node_priv.h"
#include "platform/linux/platform.h"

ETHDRV_LOG_MODULE(node);

#define NODE_TAP_OFFLOADS \
	(ETHDRV_TAP_OFF_CSUM | ETHDRV_TAP_OFF_TSO4 | ETHDRV_TAP_OFF_TSO6 | ETHDRV_TAP_OFF_TSO_ECN)
#define NODE_MTU_MAX 1500u /* the IP packet a frame on the line may carry */

int node_offload_open(struct node *n)
{
	n->tap_overflow = malloc(TAP_GSO_FRAME_MAX);
	if (!n->tap_overflow)
		return -ENOMEM;
	tap_gro_init(&n->gro);
	n->tap_gro_on = 1;
	n->tap_offloads = NODE_TAP_OFFLOADS;
	return ethdrv_tap_set_offload(n->tap_fd, n->tap_offloads);
}

void node_offload_close(struct node *n)
{
	/* Every poll flushed its batch; a device that died mid-poll did not. */
	for (unsigned i = 0; i < n->gro.count; i++)
		ethdrv_pkt_free(n->gro.pkt[i]);
	tap_gro_init(&n->gro);
	if (n->tso_pkt)
		ethdrv_pkt_free(n->tso_pkt);
	n->tso_pkt = NULL;
	free(n->tap_overflow);
	n->tap_overflow = NULL;
}

/* ---- TAP -> device ---- */

ssize_t node_vnet_read(struct node *n, struct ethdrv_pkt *pkt)
{
	struct iovec iov[3] = {
		{ &n->tx_vh, TAP_VNET_HDR_LEN },
		{ pkt->data, ETHDRV_PKT_DATA_MAX },
		{ n->tap_overflow, TAP_GSO_FRAME_MAX },
	};
	ssize_t len = ethdrv_tap_readv(n->tap_fd, iov, 3);

	if (len < 0)
		return len;
	/* No room for a frame after its header, or as long as every buffer
	 * (perhaps cut): not a frame to send. */
	if ((size_t)len <= TAP_VNET_HDR_LEN ||
	    (size_t)len >= TAP_VNET_HDR_LEN + ETHDRV_PKT_DATA_MAX + TAP_GSO_FRAME_MAX)
		return -EMSGSIZE;
	return len - (ssize_t)TAP_VNET_HDR_LEN;
}

void node_vnet_bad(struct node *n, struct ethdrv_pkt *pkt, const char *why)
{
	ethdrv_counter_inc(&n->tap_stats.tap_rx_bad);
	ethdrv_warn_ratelimited(n->dev, "tap: %s", why);
	ethdrv_pkt_free(pkt);
}

bool node_tso_pump(struct node *n)
{
	while (!tap_gso_done(&n->tso)) {
		struct ethdrv_pkt *seg = ethdrv_pkt_alloc(n->dev->pool);

		if (!seg) {
			node_tx_pause(n);
			return false;
		}
		seg->len = (uint32_t)tap_gso_next(&n->tso, seg->data, ETHDRV_PKT_DATA_MAX);
		ethdrv_counter_inc(&n->tap_stats.tap_rx_frames);
		if (!node_tx(n, seg))
			return false;
	}
	ethdrv_pkt_free(n->tso_pkt);
	n->tso_pkt = NULL;
	return true;
}

bool node_vnet_xmit(struct node *n, struct ethdrv_pkt *pkt, size_t len)
{
	size_t head = ETHDRV_MIN(len, (size_t)ETHDRV_PKT_DATA_MAX);

	/* 1. A TSO frame: cut it, as the device's frames must be. */
	if (n->tx_vh.gso_type != VIRTIO_NET_HDR_GSO_NONE) {
		n->tso_frame =
			(struct tap_frame){ { pkt->data, n->tap_overflow }, { head, len - head } };
		if (tap_gso_start(&n->tso, &n->tx_vh, &n->tso_frame, NODE_MTU_MAX) < 0) {
			node_vnet_bad(n, pkt, "malformed TSO frame dropped");
			return true;
		}
		ethdrv_counter_inc(&n->tap_stats.tap_rx_tso);
		n->tso_pkt = pkt;
		return node_tso_pump(n);
	}
	/* 2. A frame of its own: its checksum finished, then as it is. */
	if (len > head) {
		node_vnet_bad(n, pkt, "frame longer than the device takes dropped");
		return true;
	}
	pkt->len = (uint32_t)len;
	if (tap_csum_finish(&n->tx_vh, pkt->data, len)) {
		node_vnet_bad(n, pkt, "frame with a bad checksum offset dropped");
		return true;
	}
	ethdrv_counter_inc(&n->tap_stats.tap_rx_frames);
	return node_tx(n, pkt);
}

/* ---- device -> TAP ---- */

/* One frame with an empty header: the kernel checks it as it would any. */
static void node_vnet_send_one(struct node *n, struct ethdrv_pkt *pkt)
{
	static const struct virtio_net_hdr none = { .gso_type = VIRTIO_NET_HDR_GSO_NONE };

	tap_batch_add_pkt(&n->txb, &none, pkt);
}

/* The coalesced segments as one write of the batch; the batch frees them after it. */
void node_gro_flush(struct node *n)
{
	struct tap_gro *g = &n->gro;
	struct tap_batch_slot *s;

	if (!g->count)
		return; /* nothing held: no reset of the ~500-byte batch per frame */
	if (g->count == 1) {
		node_vnet_send_one(n, g->pkt[0]);
	} else if (g->count) {
		s = tap_batch_slot(&n->txb);
		s->iovcnt = tap_gro_build(g, &s->vh, s->iov, TAP_BATCH_IOV);
		memcpy(s->pkt, g->pkt, g->count * sizeof(g->pkt[0]));
		s->npkt = g->count;
		s->frames = g->count;
		ethdrv_counter_add(&n->tap_stats.tap_tx_gro, g->count);
		tap_batch_commit(&n->txb);
	}
	tap_gro_init(g);
}

void node_vnet_rx(struct node *n, struct ethdrv_pkt *pkt)
{
	struct tap_gro *g = &n->gro;

	if (!__atomic_load_n(&n->tap_gro_on, __ATOMIC_RELAXED)) {
		node_gro_flush(n);
		node_vnet_send_one(n, pkt);
		return;
	}
	/* Continues the batch, or starts one after the old batch went. A frame
	 * refused by an empty batch cannot coalesce at all (not TCP data, flags,
	 * a bad checksum: UDP, ACKs, pings): it is not tried a second time. */
	if (!tap_gro_add(g, pkt)) {
		bool empty = !g->count;

		node_gro_flush(n);
		if (empty || !tap_gro_add(g, pkt)) {
			node_vnet_send_one(n, pkt);
			return;
		}
	}
	if (tap_gro_full(g))
		node_gro_flush(n);
}

/* ---- knobs ---- */

static const struct ethdrv_knob node_offload_knobs[] = {
	ETHDRV_KNOB_BOOL("tap_tso", "the TAP hands TSO frames and partial checksums (vnet header)"),
	ETHDRV_KNOB_BOOL("tap_gro", "received frames coalesced for the TAP (vnet header)"),
};

const struct ethdrv_knob_table node_offload_knob_table =
	ETHDRV_KNOB_TABLE("node", node_offload_knobs);

int node_offload_set(struct node *n, const char *key, const char *value)
{
	bool on;
	int err;

	if (strcmp(key, "tap_gro") && strcmp(key, "tap_tso"))
		return -ENOENT;
	if (ethdrv_knob_bool(value, &on))
		return -EINVAL;
	if (!strcmp(key, "tap_gro")) {
		if (!n->tap_vnet)
			return -EOPNOTSUPP;
		__atomic_store_n(&n->tap_gro_on, on, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "tap_tso")) {
		if (!n->tap_vnet)
			return -EOPNOTSUPP;
		err = ethdrv_tap_set_offload(n->tap_fd, on ? NODE_TAP_OFFLOADS : 0);
		if (!err)
			n->tap_offloads = on ? NODE_TAP_OFFLOADS : 0;
		return err;
	}
	return -ENOENT;
}

int node_offload_get(struct node *n, const char *key, char *buf, size_t size)
{
	bool on;

	if (!strcmp(key, "tap_gro"))
		on = n->tap_vnet && __atomic_load_n(&n->tap_gro_on, __ATOMIC_RELAXED);
	else if (!strcmp(key, "tap_tso"))
		on = n->tap_vnet && n->tap_offloads;
	else
		return -ENOENT;
	return snprintf(buf, size, "%s", on ? "on" : "off") < (int)size ? 0 : -ENOSPC;
}
