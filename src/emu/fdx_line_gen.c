// SPDX-License-Identifier: MIT
/*
 * The full-duplex line's traffic generator (docs/enet.md §14), a
 * pktgen-like source of UDP/IPv4 frames on each direction of the line,
 * line->gen[P] towards the MAC on port P. It stands in for the far MAC's
 * transmitter: its frames take that direction of the wire exactly as the
 * far MAC's own frames do (preamble and SFD, the frame padded to 60 bytes,
 * the FCS, then the far MAC's gap, docs/enet.md §12), booked on the
 * same transmitter timeline (its tx_free_at port op), so the two never
 * overlap. A frame's end is a line event like any other (fdx_line.c), and the
 * frame then reaches the receiving MAC as a frame of the line does. The
 * source never looks at the receiver: a frame the MAC cannot take is the
 * MAC's to drop and count.
 *
 * Each frame is the template (fdx_gen_config) with a 64-bit sequence
 * number in the first 8 payload bytes (big endian) and the UDP checksum
 * updated for it, so a sink can tell lost and reordered frames apart.
 */
#include <errno.h>
#include <string.h>

#include "fdx_line_priv.h"

#define ETH_HLEN 14u
#define IP_HLEN 20u
#define UDP_HLEN 8u
#define GEN_HDRS (ETH_HLEN + IP_HLEN + UDP_HLEN)
#define GEN_ZLEN 60u /* shortest frame without FCS: the transmitter pads to it */
#define GEN_GAP_DEFAULT 12u /* TIPG at reset, for a line without a far MAC */
#define GEN_IP_TTL 64u
#define GEN_IPPROTO_UDP 17u

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

/* The one's-complement sum of @len bytes as big-endian 16-bit words (RFC 1071). */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Ethernet, IPv4 (no options, DF clear) and UDP headers of the template. */
static void gen_build(struct fdx_gen *g, const struct fdx_gen_config *c)
{
	uint8_t *f = g->frame, *ip = f + ETH_HLEN, *udp = ip + IP_HLEN;
	uint16_t udp_len = (uint16_t)(UDP_HLEN + c->payload);
	uint8_t pseudo[12];

	memset(f, 0, sizeof(g->frame));
	memcpy(f, c->dst_mac, 6);
	memcpy(f + 6, c->src_mac, 6);
	put16(f + 12, 0x0800);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(IP_HLEN + udp_len));
	ip[8] = GEN_IP_TTL;
	ip[9] = GEN_IPPROTO_UDP;
	put32(ip + 12, c->src_ip);
	put32(ip + 16, c->dst_ip);
	put16(ip + 10, csum_fold(csum_add(0, ip, IP_HLEN)));
	put16(udp, c->src_port);
	put16(udp + 2, c->dst_port);
	put16(udp + 4, udp_len);
	/* The pseudo header, the UDP header and a zero payload: the part of
	 * the checksum that stays; each frame adds its sequence number. */
	memcpy(pseudo, ip + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = GEN_IPPROTO_UDP;
	put16(pseudo + 10, udp_len);
	g->csum_base = csum_add(csum_add(0, pseudo, sizeof(pseudo)), udp, UDP_HLEN);
	g->len = ETHDRV_MAX(GEN_HDRS + c->payload, GEN_ZLEN);
}

/* Stamp sequence number @seq and the UDP checksum that goes with it. */
static void gen_stamp(struct fdx_gen *g, uint64_t seq)
{
	uint8_t *udp = g->frame + ETH_HLEN + IP_HLEN;
	uint16_t sum;

	put32(udp + UDP_HLEN, (uint32_t)(seq >> 32));
	put32(udp + UDP_HLEN + 4, (uint32_t)seq);
	sum = csum_fold(csum_add(g->csum_base, udp + UDP_HLEN, 8));
	put16(udp + 6, sum ? sum : 0xFFFF); /* 0 means "no checksum" (RFC 768) */
}

/* Book the next frame towards port @to on the wire from @now: start, end,
 * and the far MAC's timeline (its transmitter owns this direction). */
static void gen_schedule(struct fdx_line *line, unsigned to, uint64_t now)
{
	struct fdx_gen *g = &line->gen[to];
	const struct fdx_port *far = &line->port[!to];
	uint64_t free_at = far->ops ? far->ops->tx_free_at(far->ctx) : g->free_at;
	unsigned gap = far->ops ? far->ops->gap_bytes(far->ctx) : GEN_GAP_DEFAULT;
	uint64_t start;

	if (!g->left) {
		g->on = false;
		return;
	}
	start = ETHDRV_MAX(ETHDRV_MAX(now, g->next_start), ETHDRV_MAX(free_at, g->free_at));
	g->end = start + (uint64_t)(FDX_PREAMBLE + g->len + FDX_FCS) * line->byte_ns;
	g->free_at = g->end + (uint64_t)gap * line->byte_ns;
	if (far->ops)
		far->ops->set_tx_free_at(far->ctx, g->free_at);
	g->wire_bytes = FDX_PREAMBLE + g->len + FDX_FCS + gap;
	g->next_start = g->period_ns ? start + g->period_ns : 0;
}

uint64_t fdx__gen_deadline(const struct fdx_line *line, unsigned to)
{
	return line->gen[to].on ? line->gen[to].end : UINT64_MAX;
}

void fdx__gen_frame_end(struct fdx_line *line, unsigned port, uint64_t t)
{
	struct fdx_gen *g = &line->gen[port];
	const struct fdx_port *to = &line->port[port];

	gen_stamp(g, g->seq++);
	if (g->left != UINT64_MAX)
		g->left--;
	if (!to->ops || !fdx__link_ok(line)) {
		ethdrv_counter_inc(&line->st.gen_lost);
	} else {
		ethdrv_counter_inc(&line->st.gen_frames);
		ethdrv_counter_add(&line->st.gen_bytes, g->wire_bytes);
		to->ops->rx_frame(to->ctx, g->frame, g->len, FDX_FCS_APPEND, t);
	}
	gen_schedule(line, port, t);
}

static bool gen_config_ok(const struct fdx_gen_config *c)
{
	return c && c->to_port < 2 && c->payload >= FDX_GEN_PAYLOAD_MIN &&
	       c->payload <= FDX_GEN_PAYLOAD_MAX && c->pps <= FDX_GEN_PPS_MAX;
}

int fdx_line_gen_start(struct fdx_line *line, const struct fdx_gen_config *cfg)
{
	struct fdx_gen *g;
	uint64_t now;

	if (!gen_config_ok(cfg))
		return -EINVAL;
	g = &line->gen[cfg->to_port];
	emu_engine_lock(line->eng);
	now = emu_engine_sync(line->eng, false);
	if (g->on) {
		emu_engine_unlock(line->eng);
		return -EBUSY;
	}
	gen_build(g, cfg);
	g->seq = 0;
	g->left = cfg->count ? cfg->count : UINT64_MAX;
	g->period_ns = cfg->pps ? 1000000000ull / cfg->pps : 0;
	g->next_start = 0;
	g->on = true;
	gen_schedule(line, cfg->to_port, now);
	emu_engine_kick(line->eng);
	emu_engine_unlock(line->eng);
	return 0;
}

void fdx_line_gen_stop(struct fdx_line *line, unsigned to_port)
{
	if (to_port > 1)
		return;
	emu_engine_lock(line->eng);
	emu_engine_sync(line->eng, false);
	/* The frame on the wire is cut off: it never reaches the MAC. */
	line->gen[to_port].on = false;
	emu_engine_unlock(line->eng);
}

bool fdx_line_gen_running(struct fdx_line *line, unsigned to_port)
{
	bool on;

	if (to_port > 1)
		return false;
	emu_engine_lock(line->eng);
	emu_engine_sync(line->eng, false);
	on = line->gen[to_port].on;
	emu_engine_unlock(line->eng);
	return on;
}
