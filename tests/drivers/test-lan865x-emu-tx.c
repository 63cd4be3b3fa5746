// SPDX-License-Identifier: MIT
/*
 * The LAN8650 model's TX data path, against hand-built SPI byte streams: frames
 * in chunks, padding and FCS, TXFCSVE, credits, freeing at tx_done, protocol
 * errors, SV while a frame is open (both model options), a refused chunk,
 * two frames in one chunk, loss of framing (docs/tc6.md §2, §3.4).
 * Helpers and fixture: tests/helpers/lan865x_emu_harness.h.
 */
#include <errno.h>

#include "lan865x_emu_harness.h"

static void check_tx(struct emu_fixture *t, size_t len)
{
	uint8_t fr[1600], out[EMU_FRAME_MAX];
	uint32_t f[32];
	size_t n, expect = (len < 60 ? 60 : len) + 4;
	unsigned announcements = t->fm.announcements;

	make_frame(fr, len, MAC_PEER, (uint8_t)len);
	memset(fr + len, 0, 4); /* the host sends no FCS; padding is zeros */
	send_frame(t, fr, len, f);
	assert_true(t->fm.announcements > announcements);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, expect);
	assert_memory_equal(out, fr, len);
	for (size_t i = len; i < expect - 4; i++)
		assert_int_equal(out[i], 0);
	assert_true(fcs_good(out, n));
	assert_false(pull_frame(t, out, &n));
	t->fm.ops->tx_done(t->fm.node, 0);
}

static void test_tx_frames(void **state)
{
	struct emu_fixture *t = *state;

	bring_up(t, 0);
	check_tx(t, 60);
	check_tx(t, 64);
	check_tx(t, 65);
	check_tx(t, 1514);
	check_tx(t, 42); /* padded to 60 by the MAC */
	assert_int_equal(STAT(t, tx_frames), 5);
	assert_int_equal(STAT(t, tx_bytes), 64 + 68 + 69 + 1518 + 64);
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 48);
}

static void test_tx_fcs_validation(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[200], out[EMU_FRAME_MAX];
	uint32_t f[4];
	size_t n, len = make_frame(fr, 96, MAC_PEER, 3);

	bring_up(t, 1u << 14); /* TXFCSVE */
	send_frame(t, fr, len, f);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, len);
	assert_memory_equal(out, fr, len);
	t->fm.ops->tx_done(t->fm.node, 0);
	fr[len - 1] ^= 0x80;
	send_frame(t, fr, len, f);
	assert_false(pull_frame(t, out, &n));
	assert_int_equal(read_reg(t, 0, 0x08) & (1u << 11), 1u << 11); /* TXFCSE */
	assert_int_equal(STAT(t, tx_fcs_errors), 1);
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 48); /* the bad frame's chunks are free */
}

static void test_tx_credits(void **state)
{
	struct emu_fixture *t = *state;
	uint32_t h[49], f[49];
	uint8_t p[49 * CS], out[EMU_FRAME_MAX];
	size_t n;

	bring_up(t, 0);
	memset(p, 0, sizeof(p));
	for (unsigned k = 0; k < 49; k++) {
		make_frame(p + k * CS, 60, MAC_PEER, (uint8_t)k);
		h[k] = data_hdr(1, 1, 0, 1, 59, 0);
	}
	data_xfer(t, h, p, 49, f);
	for (unsigned k = 0; k < 48; k++)
		assert_int_equal(F_TXC(f[k]), 47 - k > 31 ? 31 : 47 - k);
	assert_int_equal(F_TXC(f[48]), 0);
	assert_int_equal(read_reg(t, 0, 0x08) & 2, 2); /* TXBOE */
	assert_int_equal(STAT(t, txboe), 1);
	assert_int_equal(STAT(t, tx_dropped_overflow), 1);
	assert_int_equal(read_reg(t, 0, 0x0B), 0x0000);
	/* 48 frames are queued; the last one (chunk 48) was dropped. */
	for (unsigned k = 0; k < 48; k++) {
		assert_true(pull_frame(t, out, &n));
		assert_int_equal(out[14], (uint8_t)(14 * 7 + k));
	}
	assert_false(pull_frame(t, out, &n));
	/* The footer said TXC=0; a freed chunk raises IRQ_N (docs/tc6.md §2.5). */
	assert_false(irq_readable(t));
	t->fm.ops->tx_done(t->fm.node, 0);
	assert_int_equal(read_reg(t, 0, 0x0B), 0x0100);
	assert_true(irq_readable(t));
}

static void test_tx_freed_at_tx_done(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[200], out[EMU_FRAME_MAX];
	uint32_t f[4];
	size_t n;

	bring_up(t, 0);
	make_frame(fr, 150, MAC_PEER, 9);
	send_frame(t, fr, 150, f);
	assert_int_equal(F_TXC(f[2]), 31);
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 45);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 45); /* on the wire: still held */
	t->fm.ops->tx_done(t->fm.node, 0);
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 48);
	/* A second tx_done with nothing on the wire changes nothing. */
	t->fm.ops->tx_done(t->fm.node, 0);
	assert_int_equal(STAT(t, tx_frames), 1);
}

static void test_tx_protocol_errors(void **state)
{
	struct emu_fixture *t = *state;
	uint32_t h[2], f[2];
	uint8_t out[EMU_FRAME_MAX];
	size_t n;

	bring_up(t, 0);
	h[0] = data_hdr(1, 0, 0, 0, 0, 0); /* DV without a frame in progress or SV */
	data_xfer(t, h, NULL, 1, f);
	assert_int_equal(read_reg(t, 0, 0x08) & 1, 1);
	write_reg(t, 0, 0x08, 1);
	/* EV without a frame in progress. */
	h[0] = data_hdr(1, 0, 0, 1, 10, 0);
	data_xfer(t, h, NULL, 1, f);
	assert_int_equal(read_reg(t, 0, 0x08) & 1, 1);
	assert_int_equal(STAT(t, txpe), 2);
	assert_int_equal(STAT(t, tx_started), 0);
	assert_false(pull_frame(t, out, &n));
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 48);
	/* TXPE unmasked: the next footer has EXST. */
	write_reg(t, 0, 0x0C, 0x1FBE);
	assert_int_equal(F_EXST(empty_chunk(t, true)), 1);
}

/*
 * A host abandons a frame half way and starts the next with a fresh SV
 * (docs/tc6.md §2.4.1): TXPE, the open frame is lost, the new one goes out.
 */
static void test_tx_sv_while_open_restart(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t p[3 * CS], out[EMU_FRAME_MAX];
	uint32_t h[2] = {
		data_hdr(1, 1, 0, 0, 0, 0), /* A's first chunk: SV */
		data_hdr(1, 1, 0, 1, 59, 0), /* B whole (SV+EV) while A is open */
	};
	uint32_t f[2];
	size_t n;

	bring_up(t, 0);
	make_frame(p, 100, MAC_PEER, 1); /* A: only its first chunk goes */
	make_frame(p + CS, 60, MAC_PEER, 2); /* B: 60 bytes, the chip appends the FCS */
	data_xfer(t, h, p, 2, f);
	assert_int_equal(read_reg(t, 0, 0x08) & 1, 1); /* TXPE */
	assert_int_equal(STAT(t, txpe), 1);
	assert_int_equal(STAT(t, tx_started), 2);
	assert_int_equal(STAT(t, tx_dropped_protocol), 1); /* A only */
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, 64);
	assert_memory_equal(out, p + CS, 60);
	assert_false(pull_frame(t, out, &n));
	/* B holds one chunk until it leaves the wire; A's chunk is free. */
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 47);
}

static struct fixture_variant sv_open_ignore = { .sv_open = LAN865X_EMU_SV_OPEN_IGNORE };

/* The same with sv_open=IGNORE: the new SV chunk is refused too, B is lost. */
static void test_tx_sv_while_open_ignore(void **state)
{
	struct emu_fixture *t = *state;
	uint32_t h[3] = {
		data_hdr(1, 1, 0, 0, 0, 0), /* A: SV */
		data_hdr(1, 1, 0, 0, 0, 0), /* B: SV while A is open */
		data_hdr(1, 0, 0, 1, 10, 0), /* B: EV */
	};
	uint32_t f[3];
	uint8_t out[EMU_FRAME_MAX];
	size_t n;

	bring_up(t, 0);
	data_xfer(t, h, NULL, 3, f);
	/* Both frames the host handed over are lost, each counted once: the
	 * one in progress, and the one whose SV was refused; B's EV is one more
	 * protocol error. */
	assert_int_equal(STAT(t, txpe), 2);
	assert_int_equal(STAT(t, tx_started), 2);
	assert_int_equal(STAT(t, tx_dropped_protocol), 2);
	assert_false(pull_frame(t, out, &n));
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 48);
}

/*
 * A refused chunk (bad header parity: footer HDRB, STATUS0.HDRE) in the
 * middle of a frame (docs/tc6.md §2.4.1): the frame is dropped, its later
 * chunks are ignored without TXPE, and the next frame goes out whole.
 */
static void test_tx_refused_chunk(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t p[5 * CS], out[EMU_FRAME_MAX];
	uint32_t h[5] = {
		data_hdr(1, 1, 0, 0, 0, 0),  data_hdr(1, 0, 0, 0, 0, 0) ^ 1u, /* parity broken */
		data_hdr(1, 0, 0, 1, 21, 0), data_hdr(1, 1, 0, 0, 0, 0),
		data_hdr(1, 0, 0, 1, 35, 0),
	};
	uint32_t f[5];
	size_t n;

	bring_up(t, 0);
	memset(p, 0, sizeof(p));
	make_frame(p, 150, MAC_PEER, 1); /* A, 3 chunks: 64 + 64 + 22 */
	make_frame(p + 3 * CS, 100, MAC_PEER, 2); /* B, 2 chunks: 64 + 36 */
	data_xfer(t, h, p, 5, f);
	assert_int_equal(F_HDRB(f[1]), 1);
	assert_int_equal(F_DV(f[1]), 0);
	assert_int_equal(F_HDRB(f[2]), 0);
	assert_int_equal(read_reg(t, 0, 0x08) & 0x21, 0x20); /* HDRE, no TXPE */
	assert_int_equal(STAT(t, tx_started), 2);
	assert_int_equal(STAT(t, tx_dropped_protocol), 1);
	assert_int_equal(STAT(t, txpe), 0);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, 104);
	assert_memory_equal(out, p + 3 * CS, 100);
	assert_false(pull_frame(t, out, &n));
	/* A refused SV chunk: nothing starts, the rest of that frame is ignored
	 * up to its EV; then a frame that starts and ends in one chunk. */
	h[0] = data_hdr(1, 1, 0, 0, 0, 0) ^ 1u;
	h[1] = data_hdr(1, 0, 0, 0, 0, 0);
	h[2] = data_hdr(1, 0, 0, 1, 21, 0);
	h[3] = data_hdr(1, 1, 0, 1, 59, 0);
	data_xfer(t, h, p, 4, f);
	assert_int_equal(STAT(t, tx_started), 3);
	assert_int_equal(STAT(t, txpe), 0);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, 64);
}

static void test_tx_concatenated(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[200], b[200], p[3 * CS], out[EMU_FRAME_MAX];
	uint32_t h[3], f[3];
	size_t n;

	bring_up(t, 0);
	make_frame(a, 70, MAC_PEER, 1);
	make_frame(b, 100, MAC_PEER, 2);
	/* A: 64 + 6 bytes; B starts at word 2 of chunk 1 (56 bytes), ends in chunk 2. */
	memset(p, 0, sizeof(p));
	memcpy(p, a, 64);
	memcpy(p + CS, a + 64, 6);
	memcpy(p + CS + 8, b, 56);
	memcpy(p + 2 * CS, b + 56, 44);
	h[0] = data_hdr(1, 1, 0, 0, 0, 0);
	h[1] = data_hdr(1, 1, 2, 1, 5, 0);
	h[2] = data_hdr(1, 0, 0, 1, 43, 0);
	data_xfer(t, h, p, 3, f);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, 74);
	assert_memory_equal(out, a, 70);
	assert_true(pull_frame(t, out, &n));
	assert_int_equal(n, 104);
	assert_memory_equal(out, b, 100);
	assert_int_equal(STAT(t, txpe), 0);
}

static void test_lofe(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t zero[10] = { 0 };

	bring_up(t, 0);
	memset(t->tx, 0, CH + 10);
	put32(t->tx, data_hdr(0, 0, 0, 0, 0, 0));
	put32(t->tx + CH, data_hdr(1, 1, 0, 0, 0, 0));
	memset(t->rx, 0xEE, CH + 10);
	spi_xfer(t, CH + 10);
	assert_memory_equal(t->rx + CH, zero, 10);
	assert_int_equal(read_reg(t, 0, 0x08) & (1u << 4), 1u << 4);
	assert_int_equal(STAT(t, lofe), 1);
	assert_int_equal(STAT(t, chunks), 2); /* bring-up's empty chunk + one whole chunk */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE_TEST(test_tx_frames),
		FIXTURE_TEST(test_tx_fcs_validation),
		FIXTURE_TEST(test_tx_credits),
		FIXTURE_TEST(test_tx_freed_at_tx_done),
		FIXTURE_TEST(test_tx_protocol_errors),
		FIXTURE_TEST(test_tx_sv_while_open_restart),
		VARIANT_TEST(test_tx_sv_while_open_ignore, sv_open_ignore),
		FIXTURE_TEST(test_tx_refused_chunk),
		FIXTURE_TEST(test_tx_concatenated),
		FIXTURE_TEST(test_lofe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
