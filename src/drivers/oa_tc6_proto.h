/* SPDX-License-Identifier: MIT */
/*
 * OPEN Alliance TC6 wire codec: pure functions that build and check control
 * transactions, data headers and footers, and a receive reassembly state
 * machine. Nothing here allocates, locks or talks to a bus; it is the part
 * known-answer tests and fuzzers run against (docs/style.md S10). The framework
 * (oa_tc6.c) drives it.
 *
 * All words are 32-bit big-endian on the wire (docs/tc6.md §1.1).
 */
#ifndef ETHDRV_DRIVERS_OA_TC6_PROTO_H
#define ETHDRV_DRIVERS_OA_TC6_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ethdrv/bits.h"

/* Control header (docs/tc6.md §1.2). */
#define OA_TC6_CTRL_HDR_DNC ETHDRV_BIT(31) /* 0 for control */
#define OA_TC6_CTRL_HDR_HDRB ETHDRV_BIT(30) /* header bad (replies only) */
#define OA_TC6_CTRL_HDR_WNR ETHDRV_BIT(29) /* 1 = write */
#define OA_TC6_CTRL_HDR_AID ETHDRV_BIT(28) /* address increment disable */
#define OA_TC6_CTRL_HDR_MMS ETHDRV_GENMASK(27, 24) /* memory map selector */
#define OA_TC6_CTRL_HDR_ADDR ETHDRV_GENMASK(23, 8) /* register address */
#define OA_TC6_CTRL_HDR_LEN ETHDRV_GENMASK(7, 1) /* registers - 1 */
#define OA_TC6_HDR_P ETHDRV_BIT(0) /* odd parity, every header and footer */

/* Data header (docs/tc6.md §2.2). */
#define OA_TC6_DATA_HDR_DNC ETHDRV_BIT(31) /* 1 for data */
#define OA_TC6_DATA_HDR_SEQ ETHDRV_BIT(30) /* sequence bit (unused) */
#define OA_TC6_DATA_HDR_NORX ETHDRV_BIT(29) /* no receive data in this chunk */
#define OA_TC6_DATA_HDR_DV ETHDRV_BIT(21) /* payload valid */
#define OA_TC6_DATA_HDR_SV ETHDRV_BIT(20) /* a frame starts here */
#define OA_TC6_DATA_HDR_SWO ETHDRV_GENMASK(19, 16) /* start word offset */
#define OA_TC6_DATA_HDR_EV ETHDRV_BIT(14) /* a frame ends here */
#define OA_TC6_DATA_HDR_EBO ETHDRV_GENMASK(13, 8) /* index of the last byte */
#define OA_TC6_DATA_HDR_TSC ETHDRV_GENMASK(7, 6) /* TX timestamp capture */

/* Data footer (docs/tc6.md §2.3). */
#define OA_TC6_DATA_FTR_EXST ETHDRV_BIT(31) /* extended status pending */
#define OA_TC6_DATA_FTR_HDRB ETHDRV_BIT(30) /* our header had bad parity */
#define OA_TC6_DATA_FTR_SYNC ETHDRV_BIT(29) /* CONFIG0.SYNC mirror */
#define OA_TC6_DATA_FTR_RCA ETHDRV_GENMASK(28, 24) /* RX chunks available */
#define OA_TC6_DATA_FTR_VS ETHDRV_GENMASK(23, 22) /* vendor specific */
#define OA_TC6_DATA_FTR_DV ETHDRV_BIT(21) /* payload carries RX data */
#define OA_TC6_DATA_FTR_SV ETHDRV_BIT(20) /* a frame starts here */
#define OA_TC6_DATA_FTR_SWO ETHDRV_GENMASK(19, 16) /* start word offset */
#define OA_TC6_DATA_FTR_FD ETHDRV_BIT(15) /* drop the frame ending here */
#define OA_TC6_DATA_FTR_EV ETHDRV_BIT(14) /* a frame ends here */
#define OA_TC6_DATA_FTR_EBO ETHDRV_GENMASK(13, 8) /* index of the last byte */
#define OA_TC6_DATA_FTR_RTSA ETHDRV_BIT(7) /* RX timestamp added */
#define OA_TC6_DATA_FTR_RTSP ETHDRV_BIT(6) /* timestamp parity */
#define OA_TC6_DATA_FTR_TXC ETHDRV_GENMASK(5, 1) /* TX credits */

/* Sizes. */
#define OA_TC6_WORD 4 /* bytes per header, footer, register */
#define OA_TC6_MAX_REGS 128 /* registers per control transaction (docs/tc6.md §1.6) */
#define OA_TC6_MAX_CPS 64 /* largest chunk payload the codec handles */
/* Worst-case control transaction: header + 128 protected pairs + trailer. */
#define OA_TC6_CTRL_MAX_LEN (OA_TC6_WORD + OA_TC6_MAX_REGS * 2 * OA_TC6_WORD + OA_TC6_WORD)

/**
 * oa_tc6_parity_ok() - check the odd parity of a received word
 * @word: a header or footer as a host-order integer
 *
 * Return: true if @word has an odd number of 1 bits (docs/tc6.md §1.3).
 */
static inline bool oa_tc6_parity_ok(uint32_t word)
{
	return __builtin_popcount(word) & 1;
}

/**
 * oa_tc6_set_parity() - set bit 0 of @word so the word has odd parity
 * @word: the word; bit 0 is ignored
 *
 * Return: @word with P set per docs/tc6.md §1.3.
 */
static inline uint32_t oa_tc6_set_parity(uint32_t word)
{
	return (word & ~OA_TC6_HDR_P) | ethdrv_odd_parity_bit(word);
}

/**
 * oa_tc6_put_be32() - store @v big-endian at @p
 * @p: 4 bytes
 * @v: the value
 */
static inline void oa_tc6_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/**
 * oa_tc6_get_be32() - load a big-endian word from @p
 * @p: 4 bytes
 *
 * Return: the host-order value.
 */
static inline uint32_t oa_tc6_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/**
 * oa_tc6_ctrl_header() - build a control header with parity
 * @write: true for a write (WNR)
 * @mms: memory map selector, 0..15
 * @addr: register address inside @mms
 * @count: number of registers, 1..128
 *
 * DNC=0, HDRB=0, AID=0 (docs/tc6.md §1.2). Out-of-range values are truncated to
 * their fields; callers validate with oa_tc6_ctrl_len().
 *
 * Return: the header word in host order.
 */
uint32_t oa_tc6_ctrl_header(bool write, unsigned mms, unsigned addr, unsigned count);

/**
 * oa_tc6_ctrl_len() - bytes of a control transaction
 * @count: number of registers, 1..128
 * @protected_mode: CONFIG0.PROTE in effect
 *
 * Return: 8 + 4*count (unprotected) or 8 + 8*count (protected),
 * docs/tc6.md §1.4; -EINVAL if @count is 0 or above 128.
 */
int oa_tc6_ctrl_len(unsigned count, bool protected_mode);

/**
 * oa_tc6_ctrl_build() - build the MOSI bytes of a control transaction
 * @buf: output, at least oa_tc6_ctrl_len() bytes
 * @size: size of @buf
 * @write: true for a write
 * @mms: memory map selector, 0..15
 * @addr: first register address
 * @vals: @count values to write; ignored (may be NULL) for a read
 * @count: number of registers, 1..128
 * @protected_mode: append the ones' complement after each data word (docs/tc6.md §1.5)
 *
 * Layout (docs/tc6.md §1.4): header, then per register the value followed by
 * its complement in protected mode (write), or zero words (read: the data
 * words of a read are don't-care), then a 4-byte zero trailer.
 *
 * Return: the transaction length, or -EINVAL (bad @count, @mms, @addr) or
 * -ENOSPC (@size too small).
 */
int oa_tc6_ctrl_build(uint8_t *buf, size_t size, bool write, unsigned mms, unsigned addr,
		      const uint32_t *vals, unsigned count, bool protected_mode);

/**
 * oa_tc6_ctrl_parse() - check the MISO bytes of a control transaction
 * @tx: the MOSI bytes sent (as built by oa_tc6_ctrl_build())
 * @rx: the MISO bytes received, same length
 * @len: transaction length
 * @protected_mode: the same mode as when @tx was built
 * @vals: for a read, receives @count register values; may be NULL for a
 *        write
 *
 * The reply is the request delayed by one word (docs/tc6.md §1.4): the echoed
 * header must equal the header sent (an HDRB=1 echo therefore fails too);
 * for a write every echoed data word (and complement) must equal what was
 * sent; for a read in protected mode every value XOR complement must be
 * all ones (docs/tc6.md §1.5). The header decides read/write and the count.
 *
 * Return: 0; -EINVAL if @len does not match the header; -EPROTO on an echo
 * or complement mismatch (@vals is then partly written and must not be
 * used).
 */
int oa_tc6_ctrl_parse(const uint8_t *tx, const uint8_t *rx, size_t len, bool protected_mode,
		      uint32_t *vals);

/* One TX chunk's header fields (docs/tc6.md §2.2). */
struct oa_tc6_data_hdr {
	bool dv; /* payload carries frame data */
	bool sv; /* a frame starts in this chunk */
	unsigned swo; /* start word offset, 0..15 */
	bool ev; /* a frame ends in this chunk */
	unsigned ebo; /* index of the frame's last byte, 0..63 */
	bool norx; /* ask for no RX data in the reply */
	unsigned tsc; /* timestamp capture selector, 0..3 */
};

/**
 * oa_tc6_data_header() - build a data header with parity
 * @h: the fields; values wider than their field are truncated
 *
 * DNC=1, SEQ=0. SV, SWO, EV and EBO are only meaningful with DV=1 but are
 * encoded as given.
 *
 * Return: the header word in host order.
 */
uint32_t oa_tc6_data_header(const struct oa_tc6_data_hdr *h);

/* A decoded footer (docs/tc6.md §2.3). */
struct oa_tc6_footer {
	bool exst; /* extended status pending: read STATUS0/1 */
	bool hdrb; /* the MAC-PHY rejected our header (bad parity) */
	bool sync; /* CONFIG0.SYNC */
	unsigned rca; /* RX chunks still waiting after this one */
	bool dv; /* payload carries RX data */
	bool sv; /* a frame starts at swo * 4 */
	unsigned swo; /* start word offset */
	bool fd; /* the frame ending here must be dropped */
	bool ev; /* a frame ends at ebo */
	unsigned ebo; /* index of the frame's last byte */
	bool rtsa; /* RX timestamp precedes the frame */
	unsigned txc; /* TX credits */
};

/**
 * oa_tc6_footer_decode() - decode a footer word after checking its parity
 * @word: the footer in host order
 * @f: filled in (also on a parity error, for diagnostics)
 *
 * Return: 0, or -EPROTO when the parity is not odd (docs/tc6.md §1.3): the
 * footer's contents must then not be trusted.
 */
int oa_tc6_footer_decode(uint32_t word, struct oa_tc6_footer *f);

/* Why the reassembler dropped data (index into oa_tc6_rx.drops). */
enum oa_tc6_rx_drop {
	OA_TC6_RX_DROP_BAD_FOOTER, /* footer parity error while a frame was in flight */
	OA_TC6_RX_DROP_OVERSIZE, /* frame longer than the buffer */
	OA_TC6_RX_DROP_FD, /* the MAC-PHY flagged the frame (FD) */
	OA_TC6_RX_DROP_NO_SV, /* data or EV without a preceding SV (resyncing) */
	OA_TC6_RX_DROP_RESTART, /* a new SV while a frame was still open */
	OA_TC6_RX_DROP_ABORT, /* oa_tc6_rx_abort() (overflow, reset) */
	OA_TC6_RX_DROP_BAD_OFFSET, /* SWO/EBO outside the payload or EBO before start */
	OA_TC6_RX_DROP_NR
};

/**
 * typedef oa_tc6_rx_frame_fn - a complete frame was reassembled
 * @arg: the callback argument
 * @frame: the frame bytes (FCS included, as the MAC-PHY sent them)
 * @len: its length
 *
 * The bytes live in the reassembler's buffer and are valid only during the
 * call.
 */
typedef void (*oa_tc6_rx_frame_fn)(void *arg, const uint8_t *frame, size_t len);

/*
 * The RX reassembly state. Frames are collected into a caller-owned buffer;
 * nothing is allocated. Fields are private to oa_tc6_proto.c except drops.
 */
struct oa_tc6_rx {
	uint8_t *buf; /* frame buffer */
	size_t size; /* its size: the oversize guard */
	size_t len; /* bytes collected for the frame in flight */
	bool in_frame; /* a frame is open (SV seen, EV not yet) */
	bool discarding; /* skipping the rest of a frame already counted as dropped */
	uint64_t drops[OA_TC6_RX_DROP_NR]; /* drops per reason */
	uint64_t frames; /* frames emitted */
	uint64_t opened; /* frames opened by an SV: each ends emitted or in one drop but NO_SV */
};

/**
 * oa_tc6_rx_init() - prepare a reassembler
 * @rx: the state
 * @buf: frame buffer, e.g. 1536 + 4 bytes
 * @size: size of @buf
 */
void oa_tc6_rx_init(struct oa_tc6_rx *rx, uint8_t *buf, size_t size);

/**
 * oa_tc6_rx_chunk() - feed one received chunk
 * @rx: the state
 * @payload: the chunk payload
 * @cps: payload size, 8..64 bytes, a multiple of 4
 * @f: the footer of this chunk, decoded
 * @footer_ok: false if oa_tc6_footer_decode() reported a parity error
 * @emit: called for each complete frame; may be NULL to discard
 * @arg: passed to @emit
 *
 * Handles every SV/EV case of docs/tc6.md §2.4: start (SV), middle (DV only),
 * end (EV at EBO), a whole frame (SV, EV with SWO*4 <= EBO), and the end of
 * one frame followed by the start of the next (SV, EV with SWO*4 > EBO). A
 * bad footer drops the frame in flight and waits for the next SV; so does a
 * frame that would overflow @rx->buf, one flagged with FD, and one whose
 * offsets do not fit @cps. Data before the first SV is dropped and counted
 * once per fragment in OA_TC6_RX_DROP_NO_SV. Each drop counts one event in
 * @rx->drops, and the rest of a dropped frame is skipped without counting
 * again, so one lost frame is one count. A bad footer always counts
 * OA_TC6_RX_DROP_BAD_FOOTER (the chunk may have held a frame start), even
 * when no frame was in flight. RTSA is ignored: CONFIG0.FTSE must be off.
 *
 * Return: the number of frames emitted (0, 1 or 2).
 */
unsigned oa_tc6_rx_chunk(struct oa_tc6_rx *rx, const uint8_t *payload, unsigned cps,
			 const struct oa_tc6_footer *f, bool footer_ok, oa_tc6_rx_frame_fn emit,
			 void *arg);

/**
 * oa_tc6_rx_abort() - drop the frame in flight and resync at the next SV
 * @rx: the state
 *
 * For RX buffer overflow (STATUS0.RXBOE, docs/tc6.md §4.2) and resets.
 * Counts OA_TC6_RX_DROP_ABORT if a frame was open.
 *
 * Return: true if a frame was open and dropped.
 */
bool oa_tc6_rx_abort(struct oa_tc6_rx *rx);

/**
 * oa_tc6_tx_chunks() - number of chunks a frame of @len bytes needs
 * @len: frame length in bytes (with FCS if the host appends it)
 * @cps: chunk payload size
 *
 * Return: ceil(@len / @cps) (docs/tc6.md §2.4: not len/cps + 1); 0 for @len 0.
 */
static inline unsigned oa_tc6_tx_chunks(size_t len, unsigned cps)
{
	return (unsigned)((len + cps - 1) / cps);
}

/**
 * oa_tc6_tx_chunk_header() - the header for chunk @idx of a frame
 * @len: frame length in bytes, at least 1
 * @cps: chunk payload size
 * @idx: chunk index, 0..oa_tc6_tx_chunks()-1
 *
 * SV (SWO 0) on the first chunk, EV with EBO = bytes in the last chunk - 1
 * on the last, DV on all (docs/tc6.md §2.4). One frame per chunk: frames are
 * never concatenated (errata s4, docs/tc6.md §5.6).
 *
 * Return: the header word in host order.
 */
uint32_t oa_tc6_tx_chunk_header(size_t len, unsigned cps, unsigned idx);

/**
 * oa_tc6_crc32() - Ethernet CRC-32 (IEEE 802.3, reflected 0xEDB88320)
 * @crc: previous value, 0 to start
 * @p: data
 * @len: bytes
 *
 * Return: the CRC; append it little-endian as the FCS. Over a frame that
 * includes a correct FCS the raw residue is 0x2144DF1C, i.e. the CRC of
 * the frame bytes equals the FCS read little-endian.
 */
uint32_t oa_tc6_crc32(uint32_t crc, const uint8_t *p, size_t len);

#endif /* ETHDRV_DRIVERS_OA_TC6_PROTO_H */
