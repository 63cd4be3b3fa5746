// SPDX-License-Identifier: MIT
/*
 * The LAN8650 model's cut-through (docs/tc6.md §5.4.1), against hand-built
 * SPI byte streams on a virtual clock. The expected times come from the
 * datasheet's rules, computed here: a wire byte takes 800 ns after 8 bytes of
 * preamble and SFD; a 68-byte chunk takes 21.76 us at 25 MHz after 1 us of
 * setup; an RX chunk is readable once its bytes are in, the EV chunk at the
 * frame's end; a TX frame may start once QTXCFG.CTTHR + 1 blocks of 64 bytes
 * are in, and a chunk later than its bytes' wire time is an underrun (TXBUE).
 * Helpers and fixture: tests/helpers/lan865x_emu_harness.h.
 */
#include "lan865x_emu_harness.h"

#define CFG0_ZARFE (1u << 12)
#define CFG0_TXCTE (1u << 9)
#define CFG0_RXCTE (1u << 8)
#define SETUP_NS 1000u /* the model's default CS setup */
#define CHUNK_NS 21760u /* 68 bytes at 25 MHz */
#define BYTE_NS 800u /* 10 Mb/s */
#define PRE 8u /* preamble + SFD */
#define MMS_MISC 10u
#define QTXCFG 0x81u

/* When chunk @k of a frame of @len bytes starting at @t_start is in (RX cut-through). */
static uint64_t rx_chunk_in(uint64_t t_start, size_t len, unsigned k)
{
	size_t last = ETHDRV_MIN((size_t)(k + 1) * CS, len);

	return t_start + (PRE + (last == len ? len : last)) * BYTE_NS;
}

struct rx_seen {
	unsigned dv; /* chunks with data, in order */
	uint64_t first_dv_at; /* bus time of the first one */
	bool fd; /* FD with the EV */
	uint64_t t_end; /* the frame's end on the wire */
};

/*
 * Read one empty chunk at a time until the frame's EV: every chunk must
 * carry data exactly when its bytes are in at that chunk's bus time (the
 * model's clock is at least @now, the time of the last medium event).
 */
static void rx_read_frame(struct emu_fixture *t, const uint8_t *fr, size_t len, uint64_t t_start,
			  uint64_t now, bool ct, struct rx_seen *s)
{
	unsigned n = (unsigned)((len + CS - 1) / CS);

	s->dv = 0;
	for (int guard = 0; guard < 100 && s->dv < n; guard++) {
		uint64_t t_vis = ETHDRV_MAX(lan865x_emu_bus_time(t->emu), now) + SETUP_NS;
		uint64_t in =
			ct ? rx_chunk_in(t_start, len, s->dv) : t_start + (PRE + len) * BYTE_NS;
		uint32_t f = empty_chunk(t, false);

		assert_int_equal(F_DV(f), t_vis >= in);
		if (!F_DV(f))
			continue;
		if (!s->dv)
			s->first_dv_at = t_vis;
		assert_int_equal(F_SV(f), s->dv == 0);
		assert_int_equal(F_EV(f), s->dv == n - 1);
		assert_memory_equal(t->rx, fr + (size_t)s->dv * CS,
				    ETHDRV_MIN((size_t)CS, len - (size_t)s->dv * CS));
		if (F_EV(f))
			s->fd = F_FD(f);
		s->dv++;
	}
	assert_int_equal(s->dv, n);
}

/* A 200-byte frame starting now: with RXCTE its chunks come as they arrive. */
static void rx_frame_at(struct emu_fixture *t, uint32_t cfg0, uint8_t *fr, size_t len,
			struct rx_seen *s)
{
	uint64_t t_start, t_end;
	bool ct = cfg0 & CFG0_RXCTE;

	bring_up(t, CFG0_ZARFE | cfg0);
	assert_int_equal(t->fm.ops->rx_early(t->fm.node), ct);
	t_start = lan865x_emu_bus_time(t->emu);
	t_end = t_start + (PRE + len) * BYTE_NS;
	s->t_end = t_end;
	if (ct)
		t->fm.ops->rx_begin(t->fm.node, fr, len, t_start, t_end);
	else
		t->fm.ops->rx(t->fm.node, fr, len, t_end);
	rx_read_frame(t, fr, len, t_start, ct ? t_start : t_end, ct, s);
	if (ct) /* the medium's rx() at the end: the frame is in already */
		t->fm.ops->rx(t->fm.node, fr, len, t_end);
	assert_int_equal(STAT(t, rx_frames), 1);
	assert_int_equal(STAT(t, rx_delivered), 1);
}

static void test_rx_cut_through_chunks_at_wire_time(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[300];
	size_t len = make_frame(fr, 196, MAC_US, 7); /* 200 bytes */
	struct rx_seen s = { 0 };

	rx_frame_at(t, CFG0_RXCTE, fr, len, &s);
	assert_false(s.fd);
	/* The first chunk came before the frame's end (at 8 + 64 byte times). */
	assert_true(s.first_dv_at < s.t_end);
}

static void test_rx_store_and_forward_at_end(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[300];
	size_t len = make_frame(fr, 196, MAC_US, 7);
	struct rx_seen s = { 0 };

	rx_frame_at(t, 0, fr, len, &s);
	assert_false(s.fd);
	assert_true(s.first_dv_at >= s.t_end);
}

/*
 * The first chunk of a frame whose start is placed so that its 64 bytes are
 * in exactly at the next chunk's bus time (@late = 0), or 1 ns after it.
 */
static uint32_t rx_first_chunk_at_boundary(struct emu_fixture *t, uint64_t late)
{
	uint8_t fr[300];
	size_t len = make_frame(fr, 196, MAC_US, 7);
	uint64_t t_vis, t_start;

	bring_up(t, CFG0_ZARFE | CFG0_RXCTE);
	while (lan865x_emu_bus_time(t->emu) < (PRE + CS) * BYTE_NS) /* a start after 0 */
		empty_chunk(t, true);
	t_vis = lan865x_emu_bus_time(t->emu) + SETUP_NS;
	t_start = t_vis - (PRE + CS) * BYTE_NS + late;
	t->fm.ops->rx_begin(t->fm.node, fr, len, t_start, t_start + (PRE + len) * BYTE_NS);
	return empty_chunk(t, false);
}

static void test_rx_cut_through_boundary_exact(void **state)
{
	uint32_t f = rx_first_chunk_at_boundary(*state, 0);

	assert_true(F_DV(f) && F_SV(f) && !F_EV(f));
}

static void test_rx_cut_through_boundary_1ns_short(void **state)
{
	uint32_t f = rx_first_chunk_at_boundary(*state, 1);

	assert_int_equal(F_DV(f), 0);
	assert_int_equal(F_RCA(f), 0);
}

/* A bad FCS is known at the end only: the data went out, the EV carries FD. */
static void test_rx_cut_through_bad_fcs_fd(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[300];
	size_t len = make_frame(fr, 196, MAC_US, 7);
	struct rx_seen s = { 0 };

	fr[len - 1] ^= 0x40;
	rx_frame_at(t, CFG0_RXCTE, fr, len, &s);
	assert_true(s.fd);
	assert_int_equal(STAT(t, rx_dropped_fcs), 0);
}

/* What is known at the start (the address filter) drops the frame there, once. */
static void test_rx_cut_through_filter_at_start(void **state)
{
	struct emu_fixture *t = *state;
	static const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x99 };
	uint8_t fr[300];
	size_t len = make_frame(fr, 196, other, 7);
	uint64_t t0;

	bring_up(t, CFG0_ZARFE | CFG0_RXCTE);
	t0 = lan865x_emu_bus_time(t->emu);
	t->fm.ops->rx_begin(t->fm.node, fr, len, t0, t0 + (PRE + len) * BYTE_NS);
	t->fm.ops->rx(t->fm.node, fr, len, t0 + (PRE + len) * BYTE_NS);
	assert_int_equal(STAT(t, rx_dropped_filter), 1);
	assert_int_equal(STAT(t, rx_frames), 0);
}

/* Send @n chunks of frame @p from chunk @k0 in one transfer (SV at 0, EV at the end). */
static void tx_chunks(struct emu_fixture *t, const uint8_t *p, size_t len, unsigned k0, unsigned n)
{
	unsigned total = (unsigned)((len + CS - 1) / CS);
	uint32_t h[16], f[16];

	for (unsigned i = 0; i < n; i++) {
		unsigned k = k0 + i;

		h[i] = data_hdr(1, k == 0, 0, k == total - 1,
				k == total - 1 ? (unsigned)((len - 1) % CS) : 0, 1);
	}
	data_xfer(t, h, p + (size_t)k0 * CS, n, f);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(F_HDRB(f[i]), 0);
}

/* The frame's t_ready: when the medium may start it. */
static uint64_t tx_ready(struct emu_fixture *t, size_t want_len)
{
	uint8_t buf[EMU_FRAME_MAX];
	size_t len;
	uint64_t tr;

	assert_true(t->fm.ops->tx_pull(t->fm.node, buf, sizeof(buf), &len, &tr));
	assert_int_equal(len, want_len);
	return tr;
}

/* 300 bytes in 5 chunks in one transfer: ready at the threshold chunk's end. */
static uint64_t tx_one_transfer(struct emu_fixture *t, uint32_t cfg0, uint32_t qtxcfg)
{
	uint8_t p[16 * CS];
	uint64_t t0;

	memset(p, 0x5A, sizeof(p));
	bring_up(t, cfg0);
	if (qtxcfg)
		write_reg(t, MMS_MISC, QTXCFG, qtxcfg);
	t0 = lan865x_emu_bus_time(t->emu);
	tx_chunks(t, p, 300, 0, 5);
	return tx_ready(t, 304) - t0;
}

static void test_tx_cut_through_threshold(void **state)
{
	struct emu_fixture *t = *state;

	assert_int_equal(read_reg(t, MMS_MISC, QTXCFG), 0x58100000); /* DS section 11.6.1 */
	/* CTTHR 01 (reset): 2 blocks = 128 bytes, in at the end of chunk 1. */
	assert_int_equal(tx_one_transfer(t, CFG0_TXCTE, 0), SETUP_NS + 2 * CHUNK_NS);
}

static void test_tx_cut_through_threshold_4_blocks(void **state)
{
	struct emu_fixture *t = *state;

	/* CTTHR 11: 4 blocks = 256 bytes, in at the end of chunk 3. */
	assert_int_equal(tx_one_transfer(t, CFG0_TXCTE, 0xD8100000), SETUP_NS + 4 * CHUNK_NS);
}

static void test_tx_store_and_forward_at_ev(void **state)
{
	struct emu_fixture *t = *state;

	assert_int_equal(tx_one_transfer(t, 0, 0), SETUP_NS + 5 * CHUNK_NS);
}

/*
 * The host starves a started frame: 2 chunks (the threshold), then a pause
 * longer than the wire needs for them, then the rest: TXBUE, the frame is
 * dropped and its remaining chunks ignored without TXPE; the next frame goes.
 */
static void test_tx_cut_through_underrun(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t p[16 * CS], buf[EMU_FRAME_MAX];
	uint64_t t_thr, need;
	size_t len;

	memset(p, 0x33, sizeof(p));
	bring_up(t, CFG0_TXCTE);
	tx_chunks(t, p, 300, 0, 2);
	t_thr = lan865x_emu_bus_time(t->emu);
	need = t_thr + (PRE + 2 * CS) * BYTE_NS; /* byte 128 on the wire */
	while (lan865x_emu_bus_time(t->emu) + SETUP_NS + CHUNK_NS <= need)
		empty_chunk(t, true);
	empty_chunk(t, true); /* now the next chunk ends after byte 128's wire time */
	tx_chunks(t, p, 300, 2, 3);
	assert_int_equal(STAT(t, txbue), 1);
	assert_int_equal(STAT(t, tx_dropped_underrun), 1);
	assert_int_equal(STAT(t, txpe), 0);
	assert_int_equal(read_reg(t, 0, 0x08) & 0x4, 0x4); /* STATUS0.TXBUE */
	assert_false(pull_frame(t, buf, &len));
	/* The next frame, sent in one go, is not starved. */
	tx_chunks(t, p, 300, 0, 5);
	assert_true(pull_frame(t, buf, &len));
	assert_int_equal(STAT(t, txbue), 1);
	assert_int_equal(STAT(t, tx_started), 2);
}

/* The same pause just inside the wire time: no underrun. */
static void test_tx_cut_through_in_time(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t p[16 * CS], buf[EMU_FRAME_MAX];
	uint64_t need;
	size_t len;

	memset(p, 0x33, sizeof(p));
	bring_up(t, CFG0_TXCTE);
	tx_chunks(t, p, 300, 0, 2);
	need = lan865x_emu_bus_time(t->emu) + (PRE + 2 * CS) * BYTE_NS;
	while (lan865x_emu_bus_time(t->emu) + 2 * (SETUP_NS + CHUNK_NS) <= need)
		empty_chunk(t, true);
	tx_chunks(t, p, 300, 2, 3);
	assert_int_equal(STAT(t, txbue), 0);
	assert_true(pull_frame(t, buf, &len));
}

/*
 * A frame behind another in the buffer cannot start before that one has
 * left the wire: the model handles it as store and forward (no underrun,
 * ready at its EV), an assumption of lan865x_emu.h.
 */
static void test_tx_cut_through_behind_queued(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t p[16 * CS];
	uint64_t t_ev;

	memset(p, 0x44, sizeof(p));
	bring_up(t, CFG0_TXCTE);
	tx_chunks(t, p, 300, 0, 5); /* frame 1, queued */
	tx_chunks(t, p, 300, 0, 2); /* frame 2: its threshold */
	for (int i = 0; i < 8; i++) /* longer than the wire needs */
		empty_chunk(t, true);
	tx_chunks(t, p, 300, 2, 3);
	t_ev = lan865x_emu_bus_time(t->emu);
	assert_int_equal(STAT(t, txbue), 0);
	tx_ready(t, 304);
	assert_int_equal(tx_ready(t, 304), t_ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE_TEST(test_rx_cut_through_chunks_at_wire_time),
		FIXTURE_TEST(test_rx_store_and_forward_at_end),
		FIXTURE_TEST(test_rx_cut_through_boundary_exact),
		FIXTURE_TEST(test_rx_cut_through_boundary_1ns_short),
		FIXTURE_TEST(test_rx_cut_through_bad_fcs_fd),
		FIXTURE_TEST(test_rx_cut_through_filter_at_start),
		FIXTURE_TEST(test_tx_cut_through_threshold),
		FIXTURE_TEST(test_tx_cut_through_threshold_4_blocks),
		FIXTURE_TEST(test_tx_store_and_forward_at_ev),
		FIXTURE_TEST(test_tx_cut_through_underrun),
		FIXTURE_TEST(test_tx_cut_through_in_time),
		FIXTURE_TEST(test_tx_cut_through_behind_queued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
