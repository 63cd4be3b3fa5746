/* SPDX-License-Identifier: MIT */
/*
 * The offloads a NIC does for its host, done by the TAP side of a node
 * (docs/design.md §1.4), so that the kernel on each end hands over and
 * takes 64 KiB TCP frames while the line still carries MSS-sized frames:
 *
 * - TX, kernel -> TAP -> device (TSO): with ETHDRV_TAP_OFF_TSO4/6 the
 *   kernel's TCP hands the TAP frames of up to 64 KiB with a
 *   struct virtio_net_hdr {gso_type, gso_size, csum_start, csum_offset} and
 *   a partial checksum. tap_gso_start()/tap_gso_next() cut such a frame
 *   into frames of gso_size payload, each with its IP total length and ID,
 *   TCP sequence number and flags fixed up and both checksums complete,
 *   as Linux's tcp_gso_segment() does in software. tap_csum_finish()
 *   completes the partial checksum of a frame that needs no cutting.
 * - RX, device -> TAP (GRO): tap_gro_add() collects consecutive in-order
 *   TCP/IPv4 segments of one flow under the rules of Linux's
 *   tcp_gro_receive() (same headers but for length, ID, sequence number
 *   and checksum; the same ACK, window and options; every segment but the
 *   last exactly one MSS; PSH ends the batch), each with its checksums
 *   verified; tap_gro_build() turns them into one frame with a GSO header
 *   for the kernel, written with one writev(2) without copying a byte.
 *
 * Pure functions on the frames: no I/O, no allocation, no thread state, so
 * unit tests and a fuzzer drive them directly. Frames are Ethernet II
 * without FCS and without VLAN tags (a node's TAP has none).
 */
#ifndef ETHDRV_TOOLS_TAP_OFFLOAD_H
#define ETHDRV_TOOLS_TAP_OFFLOAD_H

#include <linux/virtio_net.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "ethdrv/pkt.h"

#define TAP_VNET_HDR_LEN sizeof(struct virtio_net_hdr) /* 10 bytes before each frame */
#define TAP_GSO_FRAME_MAX 65550u /* 64 KiB of IP packet and its Ethernet header */
#define TAP_GSO_SEGS_MAX 64u /* segments one TSO frame may be cut into */
#define TAP_GRO_SEGS_MAX 44u /* 44 x 1460 + 40 < 65535: an IPv4 total length */

/* A frame read from the TAP, in up to two pieces (a pool packet and an overflow buffer). */
struct tap_frame {
	const uint8_t *part[2]; /* the pieces, in order */
	size_t len[2]; /* their lengths; part[1] may be empty */
};

/* A TSO frame being cut into segments. */
struct tap_gso {
	const struct tap_frame *f; /* the frame */
	unsigned l4; /* offset of the TCP header */
	unsigned hlen; /* Ethernet, IP and TCP headers: copied into every segment */
	unsigned mss; /* payload per segment (gso_size) */
	size_t payload; /* payload bytes after hlen */
	size_t off; /* payload bytes cut so far */
	unsigned seg; /* segments cut so far */
	bool v6; /* IPv6, else IPv4 */
};

/**
 * tap_gso_start() - check a TSO frame and prepare to cut it
 * @g: the state, filled
 * @vh: the frame's virtio_net_hdr (gso_type TCPV4 or TCPV6, ECN allowed)
 * @f: the frame; must stay put until the last segment is cut
 * @mtu: the largest IP packet a segment may be
 *
 * Return: the number of segments, or -EINVAL for a frame that is not one
 * TCP segment over IPv4 (no options) or IPv6 (no extension headers) of the
 * kind the header says, whose headers do not fit the first piece, whose
 * gso_size is 0 or makes a segment longer than @mtu, or that would need
 * more than TAP_GSO_SEGS_MAX segments.
 */
int tap_gso_start(struct tap_gso *g, const struct virtio_net_hdr *vh, const struct tap_frame *f,
		  unsigned mtu);

/** tap_gso_done() - true once every segment of @g was cut. */
static inline bool tap_gso_done(const struct tap_gso *g)
{
	return g->off >= g->payload;
}

/**
 * tap_gso_next() - cut the next segment into @out
 * @g: a frame from tap_gso_start(), not yet done
 * @out: room for hlen + mss bytes
 * @cap: its size
 *
 * Return: the segment's length (headers fixed, checksums complete), or 0
 * when @g is done or @cap is too small.
 */
size_t tap_gso_next(struct tap_gso *g, uint8_t *out, size_t cap);

/**
 * tap_csum_finish() - complete the partial checksum of a frame the kernel
 * sent with VIRTIO_NET_HDR_F_NEEDS_CSUM (skb_checksum_help())
 * @vh: its header
 * @frame: the frame
 * @len: its length
 *
 * The 16-bit ones' complement of the sum from csum_start to the end (the
 * field at csum_start + csum_offset holds the pseudo-header sum) goes into
 * that field. Without the flag nothing is done.
 *
 * Return: 0, or -EINVAL when the fields point outside the frame.
 */
int tap_csum_finish(const struct virtio_net_hdr *vh, uint8_t *frame, size_t len);

/* Received TCP/IPv4 segments of one flow on their way to the kernel as one frame. */
struct tap_gro {
	struct ethdrv_pkt *pkt[TAP_GRO_SEGS_MAX]; /* the segments, in order */
	uint16_t paylen[TAP_GRO_SEGS_MAX]; /* the payload of each */
	unsigned count; /* segments held */
	unsigned hlen; /* Ethernet, IP and TCP headers of each */
	unsigned mss; /* payload of the first: every one but the last has it */
	size_t payload; /* payload bytes held */
	uint32_t next_seq; /* the sequence number that may follow */
	bool push; /* a segment had PSH */
	bool closed; /* the last segment was short or had PSH: nothing may follow */
};

/** tap_gro_init() - an empty batch */
void tap_gro_init(struct tap_gro *g);

/**
 * tap_gro_add() - put a received frame into the batch
 * @g: the batch
 * @pkt: the frame
 *
 * An empty batch takes any TCP/IPv4 data segment (ACK set; no SYN, FIN,
 * RST, URG or CWR; no IP options or fragments) whose IP and TCP checksums
 * are right. A batch that holds segments takes one only if it continues
 * them (tap_offload.h). The batch owns the frame once it is taken.
 *
 * Return: true if the frame was taken; false if not (the caller flushes
 * a non-empty batch and offers it again, or sends it on alone).
 */
bool tap_gro_add(struct tap_gro *g, struct ethdrv_pkt *pkt);

/** tap_gro_full() - true if @g takes nothing more: flush it */
static inline bool tap_gro_full(const struct tap_gro *g)
{
	return g->closed || g->count == TAP_GRO_SEGS_MAX;
}

/**
 * tap_gro_build() - the batch as one frame for a TAP with a vnet header
 * @g: a batch of 2 or more segments
 * @vh: receives the header (GSO TCPV4 of the batch's MSS, partial checksum)
 * @iov: receives the pieces: @vh, the first segment with its headers
 *       fixed up for the whole, then the payload of each other segment
 * @iov_max: room in @iov; at least count + 1
 *
 * The first segment's headers are changed in place (IP total length and
 * checksum, PSH if any segment had it, the TCP checksum field to the
 * pseudo-header sum that a partial checksum carries).
 *
 * Return: the number of iovecs, or -EINVAL for fewer than 2 segments or
 * too small an @iov.
 */
int tap_gro_build(struct tap_gro *g, struct virtio_net_hdr *vh, struct iovec *iov,
		  unsigned iov_max);

/**
 * tap_csum() - the ones' complement sum of @len bytes as 16-bit
 * big-endian words, folded, added to @sum (RFC 1071); an odd last byte is
 * the high byte of its word
 * @p: the bytes
 * @len: how many
 * @sum: a sum so far, 0 to start
 *
 * Return: the folded sum, 0..0xFFFF (not complemented).
 */
uint16_t tap_csum(const uint8_t *p, size_t len, uint32_t sum);

#endif /* ETHDRV_TOOLS_TAP_OFFLOAD_H */
