// SPDX-License-Identifier: MIT
/*
 * GbEth model: the RX checksum trailer (docs/gbeth.md §7, §12 item 5).
 * With CSR0.RPE set every frame gets 4 bytes after its data: the IPv4
 * header result, then the TCP/UDP result, each a little-endian 16-bit
 * word; 0 = checks, 0xFFFF = not checked (protocol not enabled in CSR2, not
 * IP, a fragment, ICMP, IPv6's IP half), else the folded complement of the
 * failing sum (nonzero) [assumption].
 */
#include "gbeth_emu_priv.h"

#define NOT_CHECKED 0xFFFFu
#define ETH_HLEN 14u
#define VLAN_TPID 0x8100u
#define ETH_P_IP 0x0800u
#define ETH_P_IPV6 0x86DDu
#define IPPROTO_TCP_ 6u
#define IPPROTO_UDP_ 17u
#define UDP_CSUM 6u

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The TCP or UDP result over @l4 of @l4len bytes with the pseudo-header sum @ph. */
static uint16_t l4_result(const uint8_t *l4, uint32_t l4len, unsigned proto, uint32_t ph, bool want)
{
	if (!want || (proto != IPPROTO_TCP_ && proto != IPPROTO_UDP_))
		return NOT_CHECKED;
	if (proto == IPPROTO_UDP_ && l4len >= 8 && !be16(l4 + UDP_CSUM))
		return 0; /* no checksum sent: nothing to fail */
	return emu_csum_fold(emu_csum_add(ph + proto + l4len, l4, l4len));
}

static void ipv4(const struct gbeth_emu *emu, const uint8_t *ip, uint32_t len, uint16_t *iph,
		 uint16_t *l4)
{
	uint32_t csr2 = emu->regs[G_CSR2 / 4], ihl, tot;
	unsigned proto;

	if (len < 20 || (ip[0] >> 4) != 4)
		return;
	ihl = (ip[0] & 0xFu) * 4;
	tot = be16(ip + 2);
	if (ihl < 20 || ihl > len || tot < ihl || tot > len)
		return;
	if (csr2 & CSR2_RIP4)
		*iph = emu_csum_fold(emu_csum_add(0, ip, ihl));
	if (be16(ip + 6) & 0x3FFFu)
		return; /* a fragment: the protocol is not checked */
	proto = ip[9];
	*l4 = l4_result(ip + ihl, tot - ihl, proto, emu_csum_add(0, ip + 12, 8),
			proto == IPPROTO_TCP_ ? (csr2 & CSR2_RTCP4) : (csr2 & CSR2_RUDP4));
}

static void ipv6(const struct gbeth_emu *emu, const uint8_t *ip, uint32_t len, uint16_t *l4)
{
	uint32_t csr2 = emu->regs[G_CSR2 / 4], plen;
	unsigned proto;

	if (len < 40 || (ip[0] >> 4) != 6)
		return;
	plen = be16(ip + 4);
	if (plen > len - 40)
		return;
	proto = ip[6];
	*l4 = l4_result(ip + 40, plen, proto, emu_csum_add(0, ip + 8, 32),
			proto == IPPROTO_TCP_ ? (csr2 & CSR2_RTCP6) : (csr2 & CSR2_RUDP6));
}

uint32_t gbeth__csum_trailer(struct gbeth_emu *emu, uint8_t *p, uint32_t len)
{
	uint16_t iph = NOT_CHECKED, l4 = NOT_CHECKED;
	uint32_t off = ETH_HLEN;
	unsigned type;

	if (!(emu->regs[G_CSR0 / 4] & CSR0_RPE))
		return len;
	if (len >= ETH_HLEN) {
		type = be16(p + 12);
		if (type == VLAN_TPID && len >= ETH_HLEN + 4) {
			type = be16(p + 16);
			off += 4;
		}
		if (type == ETH_P_IP)
			ipv4(emu, p + off, len - off, &iph, &l4);
		else if (type == ETH_P_IPV6)
			ipv6(emu, p + off, len - off, &l4);
	}
	p[len] = (uint8_t)iph;
	p[len + 1] = (uint8_t)(iph >> 8);
	p[len + 2] = (uint8_t)l4;
	p[len + 3] = (uint8_t)(l4 >> 8);
	ethdrv_counter_inc(&emu->st.rx_csum_trailers);
	return len + 4;
}
