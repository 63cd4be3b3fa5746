// SPDX-License-Identifier: MIT
/*
 * TSO and GRO for the TAP side of a node (tap_offload.h): cutting the
 * kernel's 64 KiB TCP frames into MSS-sized frames with complete
 * checksums, and collecting received TCP segments into one frame for the
 * kernel. Header offsets are those of RFC 791 (IPv4), RFC 8200 (IPv6) and
 * RFC 9293 (TCP); checksums are RFC 1071 sums.
 */
#include "tap_offload.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#define L2_HLEN 14u
#define ETH_TYPE_IPV4 0x0800u
#define ETH_TYPE_IPV6 0x86DDu
#define IPV4_HLEN 20u /* without options */
#define IPV6_HLEN 40u /* without extension headers */
#define IP_PROTO_TCP 6u
#define IPV4_FRAG_MASK 0x3FFFu /* MF and the fragment offset */
#define IPV4_DF 0x4000u
#define TCP_HLEN_MIN 20u
#define TCP_FIN 0x01u
#define TCP_SYN 0x02u
#define TCP_RST 0x04u
#define TCP_PSH 0x08u
#define TCP_ACK 0x10u
#define TCP_URG 0x20u
#define TCP_CWR 0x80u
#define TCP_CSUM_OFF 16u /* the checksum field in the TCP header */
#define IPV4_TOT_MAX 65535u

/* IPv4 header fields, from the start of the IP header. */
#define V4_TOTLEN 2
#define V4_ID 4
#define V4_FRAG 6
#define V4_PROTO 9
#define V4_CSUM 10
#define V4_ADDRS 12 /* source and destination, 8 bytes */
/* IPv6. */
#define V6_PAYLEN 4
#define V6_NEXT 6
#define V6_ADDRS 8 /* 32 bytes */
/* TCP. */
#define TCP_SEQ 4
#define TCP_FLAGS 13

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xFFFFu);
}

static uint32_t fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xFFFFu) + (s >> 16);
	return (uint32_t)s;
}

/* Words are summed in memory order (RFC 1071 section 2(B): the byte order does not
 * matter), eight bytes at a time, then turned into big-endian words. */
uint16_t tap_csum(const uint8_t *p, size_t len, uint32_t sum)
{
	uint64_t acc = 0;
	uint16_t w = 0;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t v;

		memcpy(&v, p + i, 8);
		acc += (v & 0xFFFFFFFFu) + (v >> 32);
	}
	for (; i + 2 <= len; i += 2) {
		memcpy(&w, p + i, 2);
		acc += w;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, p + i, 1); /* the high byte of a big-endian word */
		acc += w;
	}
	return (uint16_t)fold((uint64_t)ntohs((uint16_t)fold(acc)) + sum);
}

/* The sum of the TCP pseudo-header for @tcplen bytes of TCP (RFC 9293 section 3.1). */
static uint32_t pseudo_sum(const uint8_t *ip, bool v6, size_t tcplen)
{
	if (v6)
		return tap_csum(ip + V6_ADDRS, 32,
				(uint32_t)(IP_PROTO_TCP + (tcplen >> 16) + (tcplen & 0xFFFFu)));
	return tap_csum(ip + V4_ADDRS, 8, (uint32_t)(IP_PROTO_TCP + tcplen));
}

/* ---- TSO ---- */

/* The IP header of a TSO frame of @type: its TCP header's offset, or 0. */
static unsigned gso_l4(const uint8_t *h, size_t len, unsigned type)
{
	const uint8_t *ip = h + L2_HLEN;

	if (len < L2_HLEN)
		return 0; /* not even an Ethernet header in the first piece */
	if (type == VIRTIO_NET_HDR_GSO_TCPV4 && get16(h + 12) == ETH_TYPE_IPV4 &&
	    len >= L2_HLEN + IPV4_HLEN && ip[0] == 0x45 && ip[V4_PROTO] == IP_PROTO_TCP &&
	    !(get16(ip + V4_FRAG) & IPV4_FRAG_MASK))
		return L2_HLEN + IPV4_HLEN;
	if (type == VIRTIO_NET_HDR_GSO_TCPV6 && get16(h + 12) == ETH_TYPE_IPV6 &&
	    len >= L2_HLEN + IPV6_HLEN && ip[0] >> 4 == 6 && ip[V6_NEXT] == IP_PROTO_TCP)
		return L2_HLEN + IPV6_HLEN;
	return 0;
}

int tap_gso_start(struct tap_gso *g, const struct virtio_net_hdr *vh, const struct tap_frame *f,
		  unsigned mtu)
{
	unsigned type = vh->gso_type & (unsigned)~VIRTIO_NET_HDR_GSO_ECN, doff;
	size_t total = f->len[0] + f->len[1];
	const uint8_t *h = f->part[0];

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->l4 = gso_l4(h, f->len[0], type);
	if (!g->l4 || f->len[0] < g->l4 + TCP_HLEN_MIN)
		return -EINVAL;
	doff = (h[g->l4 + 12] >> 4) * 4u;
	g->hlen = g->l4 + doff;
	g->mss = vh->gso_size;
	g->v6 = type == VIRTIO_NET_HDR_GSO_TCPV6;
	if (doff < TCP_HLEN_MIN || g->hlen > f->len[0] || total <= g->hlen || !g->mss ||
	    g->hlen - L2_HLEN + g->mss > mtu)
		return -EINVAL;
	g->payload = total - g->hlen;
	if ((g->payload + g->mss - 1) / g->mss > TAP_GSO_SEGS_MAX)
		return -EINVAL;
	return (int)((g->payload + g->mss - 1) / g->mss);
}

/* Copy @n bytes from offset @pos of the two-piece frame @f. */
static void frame_copy(const struct tap_frame *f, size_t pos, uint8_t *dst, size_t n)
{
	for (unsigned i = 0; i < 2 && n; i++) {
		size_t k;

		if (pos >= f->len[i]) {
			pos -= f->len[i];
			continue;
		}
		k = ETHDRV_MIN(n, f->len[i] - pos);
		memcpy(dst, f->part[i] + pos, k);
		dst += k;
		n -= k;
		pos = 0;
	}
}

size_t tap_gso_next(struct tap_gso *g, uint8_t *out, size_t cap)
{
	const uint8_t *h = g->f->part[0];
	size_t m = ETHDRV_MIN((size_t)g->mss, g->payload - g->off), tcplen;
	uint8_t *ip = out + L2_HLEN, *tcp = out + g->l4, flags;
	bool first = g->seg == 0, last;

	if (tap_gso_done(g) || cap < g->hlen + m)
		return 0;
	last = g->off + m == g->payload;
	memcpy(out, h, g->hlen);
	frame_copy(g->f, g->hlen + g->off, out + g->hlen, m);
	tcplen = g->hlen - g->l4 + m;
	/* IP: this segment's length; IPv4 also an ID per segment and its checksum. */
	if (g->v6) {
		put16(ip + V6_PAYLEN, (unsigned)tcplen);
	} else {
		put16(ip + V4_TOTLEN, (unsigned)(IPV4_HLEN + tcplen));
		put16(ip + V4_ID, get16(h + L2_HLEN + V4_ID) + g->seg);
		put16(ip + V4_CSUM, 0);
		put16(ip + V4_CSUM, (uint16_t)~tap_csum(ip, IPV4_HLEN, 0));
	}
	/* TCP: the sequence number of its first byte; FIN and PSH only on the
	 * last segment, CWR only on the first (tcp_gso_segment()). */
	put32(tcp + TCP_SEQ, get32(h + g->l4 + TCP_SEQ) + (uint32_t)g->off);
	flags = tcp[TCP_FLAGS];
	if (!last)
		flags &= (uint8_t) ~(TCP_FIN | TCP_PSH);
	if (!first)
		flags &= (uint8_t)~TCP_CWR;
	tcp[TCP_FLAGS] = flags;
	put16(tcp + TCP_CSUM_OFF, 0);
	put16(tcp + TCP_CSUM_OFF, (uint16_t)~tap_csum(tcp, tcplen, pseudo_sum(ip, g->v6, tcplen)));
	g->off += m;
	g->seg++;
	return g->hlen + m;
}

int tap_csum_finish(const struct virtio_net_hdr *vh, uint8_t *frame, size_t len)
{
	size_t start = vh->csum_start, off = vh->csum_offset;

	if (!(vh->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM))
		return 0;
	if (start > len || len - start < 2 || off > len - start - 2)
		return -EINVAL;
	put16(frame + start + off, (uint16_t)~tap_csum(frame + start, len - start, 0));
	return 0;
}

/* ---- GRO ---- */

void tap_gro_init(struct tap_gro *g)
{
	memset(g, 0, sizeof(*g));
}

/*
 * A TCP/IPv4 data segment GRO may take: no IP options or fragments, ACK
 * set, none of SYN, FIN, RST, URG and CWR, some payload, and both
 * checksums right (a frame whose checksum is wrong goes to the kernel on
 * its own, which counts it). The lengths come from the IP header: a short
 * frame may carry Ethernet padding.
 */
static bool gro_segment(const struct ethdrv_pkt *pkt, unsigned *hlen, unsigned *paylen)
{
	const uint8_t *p = pkt->data, *ip = p + L2_HLEN, *tcp = ip + IPV4_HLEN;
	unsigned tot, doff;

	if (pkt->len < L2_HLEN + IPV4_HLEN + TCP_HLEN_MIN || get16(p + 12) != ETH_TYPE_IPV4 ||
	    ip[0] != 0x45 || ip[V4_PROTO] != IP_PROTO_TCP || (get16(ip + V4_FRAG) & IPV4_FRAG_MASK))
		return false;
	tot = get16(ip + V4_TOTLEN);
	doff = (tcp[12] >> 4) * 4u;
	if (tot > pkt->len - L2_HLEN || doff < TCP_HLEN_MIN || IPV4_HLEN + doff >= tot)
		return false;
	if ((tcp[TCP_FLAGS] & (TCP_ACK | TCP_SYN | TCP_FIN | TCP_RST | TCP_URG | TCP_CWR)) !=
	    TCP_ACK)
		return false;
	if (tap_csum(ip, IPV4_HLEN, 0) != 0xFFFF ||
	    tap_csum(tcp, tot - IPV4_HLEN, pseudo_sum(ip, false, tot - IPV4_HLEN)) != 0xFFFF)
		return false;
	*hlen = L2_HLEN + IPV4_HLEN + doff;
	*paylen = tot - IPV4_HLEN - doff;
	return true;
}

/*
 * @p (headers @hlen) continues the batch: the same addresses, ports, TOS,
 * TTL and DF; the same ACK, flags but for PSH, window and options; the next
 * sequence number; no more payload than the first; room in an IPv4 packet.
 * IDs are not compared: DF is required, and with DF they carry nothing.
 */
static bool gro_continues(const struct tap_gro *g, const uint8_t *p, unsigned hlen, unsigned paylen)
{
	const uint8_t *f = g->pkt[0]->data, *ip = p + L2_HLEN, *fip = f + L2_HLEN;
	const uint8_t *tcp = ip + IPV4_HLEN, *ftcp = fip + IPV4_HLEN;

	if (hlen != g->hlen || paylen > g->mss || get32(tcp + TCP_SEQ) != g->next_seq ||
	    IPV4_HLEN + (hlen - L2_HLEN - IPV4_HLEN) + g->payload + paylen > IPV4_TOT_MAX)
		return false;
	if (memcmp(p, f, L2_HLEN) || ip[1] != fip[1] || !(get16(ip + V4_FRAG) & IPV4_DF) ||
	    get16(ip + V4_FRAG) != get16(fip + V4_FRAG) || ip[8] != fip[8] ||
	    memcmp(ip + V4_ADDRS, fip + V4_ADDRS, 8))
		return false;
	/* Ports; then ACK number; then offset, flags (PSH aside), window, urgent
	 * pointer; then the options (timestamps must be equal, as tcp_gro_receive wants). */
	return !memcmp(tcp, ftcp, 4) && !memcmp(tcp + 8, ftcp + 8, 4) && tcp[12] == ftcp[12] &&
	       (tcp[TCP_FLAGS] | TCP_PSH) == (ftcp[TCP_FLAGS] | TCP_PSH) &&
	       !memcmp(tcp + 14, ftcp + 14, 2) && !memcmp(tcp + 18, ftcp + 18, 2) &&
	       !memcmp(tcp + TCP_HLEN_MIN, ftcp + TCP_HLEN_MIN,
		       hlen - L2_HLEN - IPV4_HLEN - TCP_HLEN_MIN);
}

bool tap_gro_add(struct tap_gro *g, struct ethdrv_pkt *pkt)
{
	unsigned hlen, paylen;
	bool push;

	if (tap_gro_full(g) || !gro_segment(pkt, &hlen, &paylen))
		return false;
	if (g->count && !gro_continues(g, pkt->data, hlen, paylen))
		return false;
	push = pkt->data[L2_HLEN + IPV4_HLEN + TCP_FLAGS] & TCP_PSH;
	if (!g->count) {
		g->hlen = hlen;
		g->mss = paylen;
	}
	g->pkt[g->count] = pkt;
	g->paylen[g->count++] = (uint16_t)paylen;
	g->payload += paylen;
	g->next_seq = get32(pkt->data + L2_HLEN + IPV4_HLEN + TCP_SEQ) + paylen;
	g->push |= push;
	/* A short segment or PSH ends a run, as in tcp_gro_receive(). */
	if (push || paylen < g->mss)
		g->closed = true;
	return true;
}

int tap_gro_build(struct tap_gro *g, struct virtio_net_hdr *vh, struct iovec *iov, unsigned iov_max)
{
	uint8_t *p, *ip;
	unsigned tot;

	if (g->count < 2 || iov_max < g->count + 1)
		return -EINVAL;
	p = g->pkt[0]->data;
	ip = p + L2_HLEN;
	tot = g->hlen - L2_HLEN + (unsigned)g->payload;
	put16(ip + V4_TOTLEN, tot);
	put16(ip + V4_CSUM, 0);
	put16(ip + V4_CSUM, (uint16_t)~tap_csum(ip, IPV4_HLEN, 0));
	if (g->push)
		ip[IPV4_HLEN + TCP_FLAGS] |= TCP_PSH;
	/* A partial checksum: the field holds the pseudo-header sum, and the
	 * kernel takes the frame as checked (CHECKSUM_PARTIAL): every segment's
	 * own checksum was verified when it joined. */
	put16(ip + IPV4_HLEN + TCP_CSUM_OFF, pseudo_sum(ip, false, tot - IPV4_HLEN));
	*vh = (struct virtio_net_hdr){
		.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
		.gso_type = VIRTIO_NET_HDR_GSO_TCPV4,
		.hdr_len = (uint16_t)g->hlen,
		.gso_size = (uint16_t)g->mss,
		.csum_start = L2_HLEN + IPV4_HLEN,
		.csum_offset = TCP_CSUM_OFF,
	};
	iov[0] = (struct iovec){ vh, TAP_VNET_HDR_LEN };
	iov[1] = (struct iovec){ p, g->hlen + g->paylen[0] };
	for (unsigned i = 1; i < g->count; i++)
		iov[i + 1] = (struct iovec){ g->pkt[i]->data + g->hlen, g->paylen[i] };
	return (int)g->count + 1;
}
