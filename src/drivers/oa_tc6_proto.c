// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 wire codec (see oa_tc6_proto.h). Pure functions: no
 * allocation, no locking, no bus.
 */
#include <errno.h>
#include <string.h>

#include "ethdrv/compiler.h"
#include "oa_tc6_proto.h"

uint32_t oa_tc6_ctrl_header(bool write, unsigned mms, unsigned addr, unsigned count)
{
	uint32_t h = 0;

	/* docs/tc6.md §1.2: DNC=0, AID=0, LEN = count - 1. */
	if (write)
		h |= OA_TC6_CTRL_HDR_WNR;
	h |= ETHDRV_FIELD_PREP(OA_TC6_CTRL_HDR_MMS, mms);
	h |= ETHDRV_FIELD_PREP(OA_TC6_CTRL_HDR_ADDR, addr);
	h |= ETHDRV_FIELD_PREP(OA_TC6_CTRL_HDR_LEN, count - 1);
	return oa_tc6_set_parity(h);
}

int oa_tc6_ctrl_len(unsigned count, bool protected_mode)
{
	if (count < 1 || count > OA_TC6_MAX_REGS)
		return -EINVAL;
	/* docs/tc6.md §1.4: header + data (x2 protected, docs/tc6.md §1.5) + trailer. */
	return (int)(2 * OA_TC6_WORD + count * OA_TC6_WORD * (protected_mode ? 2 : 1));
}

int oa_tc6_ctrl_build(uint8_t *buf, size_t size, bool write, unsigned mms, unsigned addr,
		      const uint32_t *vals, unsigned count, bool protected_mode)
{
	unsigned step = protected_mode ? 2 : 1;
	int len = oa_tc6_ctrl_len(count, protected_mode);

	if (len < 0 || mms > 15 || addr > 0xFFFF || (write && !vals))
		return -EINVAL;
	if (size < (size_t)len)
		return -ENOSPC;
	memset(buf, 0, (size_t)len);
	oa_tc6_put_be32(buf, oa_tc6_ctrl_header(write, mms, addr, count));
	for (unsigned i = 0; write && i < count; i++) {
		uint8_t *w = buf + OA_TC6_WORD * (1 + i * step);

		oa_tc6_put_be32(w, vals[i]);
		if (protected_mode)
			oa_tc6_put_be32(w + OA_TC6_WORD, ~vals[i]);
	}
	return len;
}

int oa_tc6_ctrl_parse(const uint8_t *tx, const uint8_t *rx, size_t len, bool protected_mode,
		      uint32_t *vals)
{
	uint32_t hdr = oa_tc6_get_be32(tx);
	unsigned count = ETHDRV_FIELD_GET(OA_TC6_CTRL_HDR_LEN, hdr) + 1;
	unsigned step = protected_mode ? 2 : 1;
	bool write = hdr & OA_TC6_CTRL_HDR_WNR;

	if (len != (size_t)oa_tc6_ctrl_len(count, protected_mode))
		return -EINVAL;
	/* docs/tc6.md §1.4: MISO is MOSI delayed by one word; the echo must match. */
	if (oa_tc6_get_be32(rx + OA_TC6_WORD) != hdr)
		return -EPROTO;
	if (write)
		return memcmp(rx + 2 * OA_TC6_WORD, tx + OA_TC6_WORD, len - 2 * OA_TC6_WORD) ?
			       -EPROTO :
			       0;
	for (unsigned i = 0; i < count; i++) {
		const uint8_t *w = rx + OA_TC6_WORD * (2 + i * step);
		uint32_t v = oa_tc6_get_be32(w);

		/* docs/tc6.md §1.5: value XOR complement must be all ones. */
		if (protected_mode && (v ^ oa_tc6_get_be32(w + OA_TC6_WORD)) != UINT32_MAX)
			return -EPROTO;
		if (vals)
			vals[i] = v;
	}
	return 0;
}

uint32_t oa_tc6_data_header(const struct oa_tc6_data_hdr *h)
{
	uint32_t w = OA_TC6_DATA_HDR_DNC;

	if (h->norx)
		w |= OA_TC6_DATA_HDR_NORX;
	if (h->dv)
		w |= OA_TC6_DATA_HDR_DV;
	if (h->sv)
		w |= OA_TC6_DATA_HDR_SV;
	if (h->ev)
		w |= OA_TC6_DATA_HDR_EV;
	w |= ETHDRV_FIELD_PREP(OA_TC6_DATA_HDR_SWO, h->swo);
	w |= ETHDRV_FIELD_PREP(OA_TC6_DATA_HDR_EBO, h->ebo);
	w |= ETHDRV_FIELD_PREP(OA_TC6_DATA_HDR_TSC, h->tsc);
	return oa_tc6_set_parity(w);
}

int oa_tc6_footer_decode(uint32_t word, struct oa_tc6_footer *f)
{
	f->exst = word & OA_TC6_DATA_FTR_EXST;
	f->hdrb = word & OA_TC6_DATA_FTR_HDRB;
	f->sync = word & OA_TC6_DATA_FTR_SYNC;
	f->rca = ETHDRV_FIELD_GET(OA_TC6_DATA_FTR_RCA, word);
	f->dv = word & OA_TC6_DATA_FTR_DV;
	f->sv = word & OA_TC6_DATA_FTR_SV;
	f->swo = ETHDRV_FIELD_GET(OA_TC6_DATA_FTR_SWO, word);
	f->fd = word & OA_TC6_DATA_FTR_FD;
	f->ev = word & OA_TC6_DATA_FTR_EV;
	f->ebo = ETHDRV_FIELD_GET(OA_TC6_DATA_FTR_EBO, word);
	f->rtsa = word & OA_TC6_DATA_FTR_RTSA;
	f->txc = ETHDRV_FIELD_GET(OA_TC6_DATA_FTR_TXC, word);
	/* docs/tc6.md §1.3: a good footer XORs to 1. */
	return oa_tc6_parity_ok(word) ? 0 : -EPROTO;
}

void oa_tc6_rx_init(struct oa_tc6_rx *rx, uint8_t *buf, size_t size)
{
	memset(rx, 0, sizeof(*rx));
	rx->buf = buf;
	rx->size = size;
}

/* Count one drop and stop collecting until the next SV. */
static void oa_tc6_rx_drop(struct oa_tc6_rx *rx, enum oa_tc6_rx_drop why)
{
	rx->drops[why]++;
	rx->in_frame = false;
	rx->len = 0;
	/* The rest of this frame belongs to the drop just counted. */
	rx->discarding = true;
}

/* Data without an open frame: count the fragment once. */
static void oa_tc6_rx_orphan(struct oa_tc6_rx *rx)
{
	if (!rx->discarding)
		rx->drops[OA_TC6_RX_DROP_NO_SV]++;
	rx->discarding = true;
}

/* Append @n bytes to the open frame; false (and a drop) if it would overflow. */
static bool oa_tc6_rx_append(struct oa_tc6_rx *rx, const uint8_t *p, size_t n)
{
	if (n > rx->size - rx->len) {
		oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_OVERSIZE);
		return false;
	}
	memcpy(rx->buf + rx->len, p, n);
	rx->len += n;
	return true;
}

/* Open a frame; a frame still open is lost (no EV seen). */
static void oa_tc6_rx_open(struct oa_tc6_rx *rx)
{
	if (rx->in_frame)
		oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_RESTART);
	rx->opened++;
	rx->in_frame = true;
	rx->discarding = false;
	rx->len = 0;
}

/* Close the open frame after its last bytes: emit it or drop it for FD. */
static unsigned oa_tc6_rx_close(struct oa_tc6_rx *rx, bool fd, oa_tc6_rx_frame_fn emit, void *arg)
{
	unsigned n = 0;

	if (fd) {
		oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_FD);
	} else {
		rx->frames++;
		if (emit)
			emit(arg, rx->buf, rx->len);
		n = 1;
	}
	rx->in_frame = false;
	rx->discarding = false;
	rx->len = 0;
	return n;
}

/* True if the footer's offsets fit a payload of @cps bytes. */
static bool oa_tc6_rx_offsets_ok(const struct oa_tc6_footer *f, unsigned cps)
{
	if (f->sv && f->swo * OA_TC6_WORD >= cps)
		return false;
	return !f->ev || f->ebo < cps;
}

unsigned oa_tc6_rx_chunk(struct oa_tc6_rx *rx, const uint8_t *payload, unsigned cps,
			 const struct oa_tc6_footer *f, bool footer_ok, oa_tc6_rx_frame_fn emit,
			 void *arg)
{
	unsigned start = f->swo * OA_TC6_WORD, n = 0;

	/* 1. A bad footer: the chunk's contents are unknown (docs/tc6.md §1.3).
	 * Only an open frame is known to be lost; a frame that may start here
	 * is never opened, so its later chunks count once as NO_SV. */
	if (!footer_ok) {
		if (rx->in_frame)
			oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_BAD_FOOTER);
		return 0;
	}
	if (!f->dv)
		return 0;
	if (!oa_tc6_rx_offsets_ok(f, cps)) {
		/* One drop per frame: the open one, and the one this SV begins. */
		if (rx->in_frame)
			oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_BAD_OFFSET);
		if (f->sv) {
			rx->opened++;
			oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_BAD_OFFSET);
		}
		return 0;
	}
	/* 2. The end of the open frame: EV alone, or EV before a new SV (docs/tc6.md §2.4). */
	if (f->ev && (!f->sv || start > f->ebo)) {
		if (!rx->in_frame) {
			oa_tc6_rx_orphan(rx);
			rx->discarding = false;
		} else if (oa_tc6_rx_append(rx, payload, f->ebo + 1u)) {
			n += oa_tc6_rx_close(rx, f->fd, emit, arg);
		}
		if (!f->sv)
			return n;
		/* 3. ...followed by the start of the next frame in the same chunk. */
		oa_tc6_rx_open(rx);
		oa_tc6_rx_append(rx, payload + start, cps - start);
		return n;
	}
	/* 4. A start: the whole frame (SV+EV, start <= EBO) or its first part. */
	if (f->sv) {
		oa_tc6_rx_open(rx);
		if (!f->ev)
			oa_tc6_rx_append(rx, payload + start, cps - start);
		else if (oa_tc6_rx_append(rx, payload + start, f->ebo + 1u - start))
			n += oa_tc6_rx_close(rx, f->fd, emit, arg);
		return n;
	}
	/* 5. A middle chunk: all of it belongs to the open frame. */
	if (!rx->in_frame)
		oa_tc6_rx_orphan(rx);
	else
		oa_tc6_rx_append(rx, payload, cps);
	return 0;
}

bool oa_tc6_rx_abort(struct oa_tc6_rx *rx)
{
	if (!rx->in_frame)
		return false;
	oa_tc6_rx_drop(rx, OA_TC6_RX_DROP_ABORT);
	return true;
}

uint32_t oa_tc6_tx_chunk_header(size_t len, unsigned cps, unsigned idx)
{
	unsigned last = oa_tc6_tx_chunks(len, cps) - 1;
	struct oa_tc6_data_hdr h = {
		.dv = true,
		.sv = idx == 0,
		.ev = idx == last,
	};

	/* docs/tc6.md §2.4: EBO = bytes in the last chunk - 1. */
	if (h.ev)
		h.ebo = (unsigned)((len - 1) % cps);
	return oa_tc6_data_header(&h);
}

/* CRC-32 (reflected 0xEDB88320), four bits at a time: 16 entries. */
static const uint32_t oa_tc6_crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t oa_tc6_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ oa_tc6_crc_nibble[crc & 0xF];
		crc = (crc >> 4) ^ oa_tc6_crc_nibble[crc & 0xF];
	}
	return ~crc;
}
