// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: control transactions (docs/tc6.md §1.2-§1.6) built by
 * oa_tc6_ctrl_build() and checked by oa_tc6_ctrl_parse() against a MISO
 * reply taken from the input.
 *
 * Input: byte 0 count, byte 1 flags (bit 0 protected, bit 1 write, bit 2 raw
 * reply, bit 3 unchecked parameters, bit 4 address bit 16), byte 2 MMS,
 * bytes 3-4 address, then count*4 bytes of register values (written, or
 * returned by a read), then the reply bytes. Without bit 3 the count is
 * 1..128 and the MMS 0..15. Without bit 2 the reply is the correct one
 * (MOSI delayed by a word; read values and complements) XOR the reply
 * bytes, so an all-zero tail is a good reply and each set bit is a fault.
 * Missing input bytes read as zero.
 *
 * Checked: build rejects exactly the invalid parameters and writes the
 * header fields and layout of docs/tc6.md §1.4/§1.5; parse returns 0 exactly when the
 * echo equals what was sent (and, for a protected read, every value XOR
 * complement is all ones), -EPROTO otherwise, and -EINVAL for a wrong
 * length; read values are the reply words. Buffers are heap-allocated at
 * their exact sizes so ASan sees any access beyond them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "drivers/oa_tc6_proto.h"
#include "fuzz.h"

/* The input as a zero-padded byte source. */
struct fz_in {
	const uint8_t *p;
	size_t n, pos;
};

static uint8_t fz_byte(struct fz_in *in)
{
	return in->pos < in->n ? in->p[in->pos++] : 0;
}

static uint32_t fz_word(struct fz_in *in)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v = v << 8 | fz_byte(in);
	return v;
}

static uint32_t fz_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The parameters of one transaction. */
struct fz_req {
	unsigned count, mms, addr;
	bool prot, write;
	uint32_t *vals;
};

/* docs/tc6.md §1.2/§1.4/§1.5: check the MOSI bytes field by field. */
static void fz_check_tx(const struct fz_req *r, const uint8_t *tx, size_t len)
{
	uint32_t h = fz_be32(tx);
	unsigned step = r->prot ? 2 : 1;

	fz_assert(len == 8 + 4u * step * r->count);
	fz_assert(!(h >> 30)); /* DNC=0, HDRB=0 */
	fz_assert(((h >> 29) & 1) == r->write && !((h >> 28) & 1));
	fz_assert(((h >> 24) & 0xF) == r->mms && ((h >> 8) & 0xFFFF) == r->addr);
	fz_assert(((h >> 1) & 0x7F) == r->count - 1);
	fz_assert(__builtin_popcount(h) % 2 == 1);
	for (unsigned i = 0; i < r->count; i++) {
		const uint8_t *w = tx + 4 + 4 * step * i;

		fz_assert(fz_be32(w) == (r->write ? r->vals[i] : 0));
		if (r->prot)
			fz_assert(fz_be32(w + 4) == (r->write ? ~r->vals[i] : 0));
	}
	fz_assert(fz_be32(tx + len - 4) == 0);
}

/* The reply: a correct one XOR the input, or the input itself (raw). */
static void fz_make_rx(const struct fz_req *r, const uint8_t *tx, uint8_t *rx, size_t len, bool raw,
		       struct fz_in *in)
{
	unsigned step = r->prot ? 2 : 1;

	memset(rx, 0, len);
	memcpy(rx + 4, tx, 4);
	for (unsigned i = 0; i < r->count && !raw; i++) {
		uint8_t *w = rx + 8 + 4 * step * i;

		if (r->write) {
			memcpy(w, tx + 4 + 4 * step * i, 4 * step);
			continue;
		}
		oa_tc6_put_be32(w, r->vals[i]);
		if (r->prot)
			oa_tc6_put_be32(w + 4, ~r->vals[i]);
	}
	for (size_t i = 0; i < len; i++)
		rx[i] = raw ? fz_byte(in) : rx[i] ^ fz_byte(in);
}

/* The spec's acceptance rule, written independently of the parser. */
static bool fz_reply_good(const struct fz_req *r, const uint8_t *tx, const uint8_t *rx, size_t len)
{
	if (memcmp(rx + 4, tx, 4))
		return false;
	if (r->write)
		return !memcmp(rx + 8, tx + 4, len - 8);
	for (unsigned i = 0; r->prot && i < r->count; i++) {
		const uint8_t *w = rx + 8 + 8 * i;

		if ((fz_be32(w) ^ fz_be32(w + 4)) != 0xFFFFFFFF)
			return false;
	}
	return true;
}

static void fz_check_parse(const struct fz_req *r, const uint8_t *tx, const uint8_t *rx, size_t len)
{
	uint32_t *out = r->write ? NULL : malloc(sizeof(*out) * r->count);
	unsigned step = r->prot ? 2 : 1;
	bool good = fz_reply_good(r, tx, rx, len);
	int ret;

	fz_assert(r->write || out);
	ret = oa_tc6_ctrl_parse(tx, rx, len, r->prot, out);
	fz_assert(ret == (good ? 0 : -EPROTO));
	for (unsigned i = 0; good && out && i < r->count; i++)
		fz_assert(out[i] == fz_be32(rx + 8 + 4 * step * i));
	/* Wrong lengths: one word short, or the other mode's length. */
	fz_assert(oa_tc6_ctrl_parse(tx, rx, len - 4, r->prot, out) == -EINVAL);
	fz_assert(oa_tc6_ctrl_parse(tx, rx, len, !r->prot, out) == -EINVAL);
	free(out);
}

/* Parse the parameter bytes; false if build must reject them. */
static bool fz_params(struct fz_req *r, struct fz_in *in, uint8_t *flags)
{
	uint8_t c = fz_byte(in), m, a1, a0;

	*flags = fz_byte(in);
	m = fz_byte(in);
	a1 = fz_byte(in);
	a0 = fz_byte(in);
	r->prot = *flags & 1;
	r->write = *flags & 2;
	r->addr = (unsigned)a1 << 8 | a0;
	if (!(*flags & 8)) {
		r->count = (c & 0x7F) + 1u;
		r->mms = m & 0xF;
		return true;
	}
	r->count = c;
	r->mms = m;
	if (*flags & 0x10)
		r->addr |= 0x10000;
	return r->count >= 1 && r->count <= 128 && r->mms <= 15 && r->addr <= 0xFFFF;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { .p = data, .n = size };
	struct fz_req r = { 0 };
	uint8_t flags, *tx, *rx;
	uint32_t vals[OA_TC6_MAX_REGS];
	size_t len;
	bool valid = fz_params(&r, &in, &flags);
	int ret;

	for (unsigned i = 0; i < OA_TC6_MAX_REGS; i++)
		vals[i] = i < r.count ? fz_word(&in) : 0;
	r.vals = vals;
	tx = malloc(OA_TC6_CTRL_MAX_LEN);
	fz_assert(tx);
	ret = oa_tc6_ctrl_build(tx, OA_TC6_CTRL_MAX_LEN, r.write, r.mms, r.addr, r.vals, r.count,
				r.prot);
	free(tx);
	if (!valid) {
		fz_assert(ret == -EINVAL);
		return 0;
	}
	fz_assert(ret == oa_tc6_ctrl_len(r.count, r.prot) && ret > 0);
	len = (size_t)ret;
	tx = malloc(len);
	rx = malloc(len);
	fz_assert(tx && rx);
	fz_assert(oa_tc6_ctrl_build(tx, len - 1, r.write, r.mms, r.addr, r.vals, r.count, r.prot) ==
		  -ENOSPC);
	fz_assert(oa_tc6_ctrl_build(tx, len, r.write, r.mms, r.addr, r.vals, r.count, r.prot) ==
		  (int)len);
	fz_check_tx(&r, tx, len);
	fz_make_rx(&r, tx, rx, len, flags & 4, &in);
	fz_check_parse(&r, tx, rx, len);
	free(rx);
	free(tx);
	return 0;
}
