// SPDX-License-Identifier: MIT
/*
 * Known-answer tests for the TC6 wire codec: RX reassembly from chunks and
 * footers (docs/style.md S10). Every expected word and byte below was
 * derived by hand from docs/tc6.md §2.3, §2.4 and is written as a literal
 * with its derivation: which fields are set, how many 1 bits the word has
 * without P, and the odd-parity bit P that makes the total odd
 * (docs/tc6.md §1.3). Nothing is computed with the code under test.
 *
 * Bit positions used here (docs/tc6.md §2.3):
 *   data footer:    EXST 31, HDRB 30, SYNC 29, RCA 28:24, VS 23:22, DV 21,
 *                   SV 20, SWO 19:16, FD 15, EV 14, EBO 13:8, RTSA 7, RTSP 6,
 *                   TXC 5:1, P 0
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "ethdrv/compiler.h"
#include "drivers/oa_tc6_proto.h"

/* ---- docs/tc6.md §2.4: RX reassembly ------------------------------------- */

/* Footer words for the reassembly tests (no SYNC, RCA 0, TXC 0). */
#define F_EMPTY 0x00000001 /* DV=0: 0 ones -> P=1 */
#define F_START 0x00300001 /* DV SV SWO=0: 2 ones -> P=1 */
#define F_START_W4 0x00340000 /* DV SV SWO=4 (byte 16): 3 ones -> P=0 */
#define F_MID 0x00200000 /* DV: 1 one -> P=0 */
#define F_MID_BAD 0x00200001 /* DV with the wrong P: 2 ones */
#define F_END9 0x00204901 /* DV EV EBO=9 (0b1001): 4 ones -> P=1 */
#define F_END41 0x00206900 /* DV EV EBO=41 (0b101001): 5 ones -> P=0 */
#define F_END63 0x00207F01 /* DV EV EBO=63 (0b111111): 8 ones -> P=1 */
#define F_END9_FD 0x0020C900 /* DV FD EV EBO=9: 5 ones -> P=0 */
/* DV SV SWO=1 EV EBO=20 (0b10100): 1+1+1+1+2 = 6 ones -> P=1: bytes 4..20. */
#define F_WHOLE_4_20 0x00315401
/* DV SV EV SWO=0 EBO=59 (5 ones): 8 ones -> P=1: a 60-byte frame. */
#define F_WHOLE_60 0x00307B01
/* DV SV SWO=2 EV EBO=5 (0b101): 6 ones -> P=1: end at byte 5, start at 8. */
#define F_END5_START8 0x00324501
/* The same with FD (bit 15): 7 ones -> P=0. */
#define F_END5_FD_START8 0x0032C500
/* 32-byte chunks: DV EV EBO=31 (0b011111): 7 ones -> P=0. */
#define F_END31 0x00205F00
/* DV SV EV EBO=31: 8 ones -> P=1. */
#define F_WHOLE_32 0x00305F01
/* DV SV SWO=8 (byte 32, outside a 32-byte payload): 3 ones -> P=0. */
#define F_START_W8 0x00380000
/* DV EV EBO=40 (0b101000, outside a 32-byte payload): 4 ones -> P=1. */
#define F_END40 0x00206801

#define KAT_MAX_FRAMES 4
#define KAT_FRAME_MAX 2048

/* Frames the reassembler emitted. */
struct kat_cap {
	unsigned n;
	size_t len[KAT_MAX_FRAMES];
	uint8_t data[KAT_MAX_FRAMES][KAT_FRAME_MAX];
};

static void kat_emit(void *arg, const uint8_t *frame, size_t len)
{
	struct kat_cap *c = arg;

	assert_true(c->n < KAT_MAX_FRAMES);
	assert_true(len <= KAT_FRAME_MAX);
	c->len[c->n] = len;
	memcpy(c->data[c->n], frame, len);
	c->n++;
}

/* Feed one chunk whose payload byte i is (uint8_t)(base + i), or all @base if @flat. */
static unsigned kat_feed_fill(struct oa_tc6_rx *rx, struct kat_cap *c, uint32_t ftr, unsigned base,
			      unsigned cps, bool flat)
{
	struct oa_tc6_footer f;
	uint8_t p[64];
	int ok;

	for (unsigned i = 0; i < cps; i++)
		p[i] = (uint8_t)(flat ? base : base + i);
	ok = oa_tc6_footer_decode(ftr, &f);
	return oa_tc6_rx_chunk(rx, p, cps, &f, ok == 0, kat_emit, c);
}

static unsigned kat_feed(struct oa_tc6_rx *rx, struct kat_cap *c, uint32_t ftr, unsigned base)
{
	return kat_feed_fill(rx, c, ftr, base, 64, false);
}

/* Frame @k is @len bytes counting up from @first. */
static void kat_check_frame(const struct kat_cap *c, unsigned k, size_t len, unsigned first)
{
	assert_true(k < c->n);
	assert_int_equal(c->len[k], len);
	for (size_t i = 0; i < len; i++)
		assert_int_equal(c->data[k][i], (uint8_t)(first + i));
}

static uint64_t kat_drops(const struct oa_tc6_rx *rx)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < OA_TC6_RX_DROP_NR; i++)
		sum += rx->drops[i];
	return sum;
}

struct kat_rx {
	struct oa_tc6_rx rx;
	struct kat_cap cap;
	uint8_t buf[1536 + 4];
};

static int kat_rx_setup(void **state)
{
	static struct kat_rx k;

	memset(&k, 0, sizeof(k));
	oa_tc6_rx_init(&k.rx, k.buf, sizeof(k.buf));
	*state = &k;
	return 0;
}

static void test_rx_start_middle_end(void **state)
{
	struct kat_rx *k = *state;

	/* SV at byte 0 (64 B) + middle (64 B) + EV at EBO 9 (10 B) = 138 B. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_START, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	assert_int_equal(k->cap.n, 1);
	kat_check_frame(&k->cap, 0, 138, 0);
	assert_int_equal(k->rx.frames, 1);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_start_offset(void **state)
{
	struct kat_rx *k = *state;

	/* SV at SWO 4 = byte 16: 48 B + 64 B + 10 B = 122 B starting with 16. */
	kat_feed(&k->rx, &k->cap, F_START_W4, 0);
	kat_feed(&k->rx, &k->cap, F_MID, 64);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	kat_check_frame(&k->cap, 0, 122, 16);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_whole_in_one_chunk(void **state)
{
	struct kat_rx *k = *state;

	/* SV+EV, SWO*4 = 4 < EBO = 20: bytes 4..20 = 17 B. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_4_20, 0), 1);
	kat_check_frame(&k->cap, 0, 17, 4);
	/* SV+EV, SWO 0, EBO 59: a 60-byte frame. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_60, 100), 1);
	kat_check_frame(&k->cap, 1, 60, 100);
	assert_int_equal(k->rx.frames, 2);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_end_and_start_in_one_chunk(void **state)
{
	struct kat_rx *k = *state;

	/*
	 * Chunk 0: SV at 0 (bytes 0..63). Chunk 1 (bytes 64..127): EV at EBO 5
	 * ends frame 1 = 64 + 6 = 70 B; SV at SWO 2 (byte 8, SWO*4 = 8 > EBO 5)
	 * starts frame 2 with bytes 72..127 (56 B). Chunk 2: EV at 9 adds
	 * 128..137, so frame 2 = 66 B from 72.
	 */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_START, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END5_START8, 64), 1);
	kat_check_frame(&k->cap, 0, 70, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	kat_check_frame(&k->cap, 1, 66, 72);
	assert_int_equal(k->rx.frames, 2);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_fd_before_start(void **state)
{
	struct kat_rx *k = *state;

	/* As above but FD drops frame 1; frame 2 must still be collected. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END5_FD_START8, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	assert_int_equal(k->cap.n, 1);
	kat_check_frame(&k->cap, 0, 66, 72);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_FD], 1);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_empty_chunk_in_middle(void **state)
{
	struct kat_rx *k = *state;

	/* A DV=0 chunk (payload 0xEE, not frame data) inside a frame is skipped. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_EMPTY, 0xEE, 64, true), 0);
	kat_feed(&k->rx, &k->cap, F_MID, 64);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_EMPTY, 0xEE, 64, true), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 1);
	kat_check_frame(&k->cap, 0, 138, 0);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_max_frame_24_chunks(void **state)
{
	struct kat_rx *k = *state;

	/* 1514 B: SV chunk, 22 middle chunks, EV at EBO 41 (23*64 + 42 = 1514). */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	for (unsigned i = 1; i < 23; i++)
		assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, i * 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END41, 23 * 64), 1);
	kat_check_frame(&k->cap, 0, 1514, 0);
	assert_int_equal(kat_drops(&k->rx), 0);
}

static void test_rx_bad_footer_then_resync(void **state)
{
	struct kat_rx *k = *state;
	struct oa_tc6_footer f;

	assert_int_equal(oa_tc6_footer_decode(F_MID_BAD, &f), -EPROTO);
	kat_feed(&k->rx, &k->cap, F_START, 0);
	/* The bad footer cuts the frame: one BAD_FOOTER drop. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID_BAD, 64), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_FOOTER], 1);
	/* The rest of that frame is skipped and not counted again. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 128), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 192), 0);
	assert_int_equal(k->cap.n, 0);
	/* The next SV resyncs: 64 + 10 = 74 B. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 64), 1);
	kat_check_frame(&k->cap, 0, 74, 0);
	assert_int_equal(k->rx.frames, 1);
	assert_int_equal(kat_drops(&k->rx), 1);
}

/*
 * Per-frame accounting: every frame opened by an SV ends emitted or in
 * exactly one drop; a bad footer outside a frame drops nothing (a frame that
 * may start there is not opened, its rest counts once as NO_SV).
 */
static void test_rx_one_outcome_per_frame(void **state)
{
	struct kat_rx *k = *state;

	/* Idle bad footers: no drop, nothing opened. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID_BAD, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID_BAD, 0), 0);
	assert_int_equal(kat_drops(&k->rx), 0);
	assert_int_equal(k->rx.opened, 0);
	/* A hidden start: its middle and end count once, as NO_SV. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_NO_SV], 1);
	/* Frame 1 cut by a bad footer (one drop, two bad chunks), frame 2 cut
	 * by a restart, frame 3 emitted: 3 opened = 1 emitted + 2 drops. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	kat_feed(&k->rx, &k->cap, F_MID_BAD, 64);
	kat_feed(&k->rx, &k->cap, F_MID_BAD, 128);
	kat_feed(&k->rx, &k->cap, F_START, 0);
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 64), 1);
	assert_int_equal(k->rx.opened, 3);
	assert_int_equal(k->rx.frames, 1);
	assert_int_equal(kat_drops(&k->rx) - k->rx.drops[OA_TC6_RX_DROP_NO_SV], 2);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_FOOTER], 1);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_RESTART], 1);
}

static void test_rx_fd_drops_frame(void **state)
{
	struct kat_rx *k = *state;

	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9_FD, 64), 0);
	assert_int_equal(k->cap.n, 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_FD], 1);
	assert_int_equal(k->rx.frames, 0);
	/* The next frame is unaffected. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_60, 7), 1);
	kat_check_frame(&k->cap, 0, 60, 7);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_no_sv_dropped_once(void **state)
{
	struct kat_rx *k = *state;

	/* Joining mid-stream: the orphan fragment counts once. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 0), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_MID, 64), 0);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 128), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_NO_SV], 1);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_4_20, 0), 1);
	kat_check_frame(&k->cap, 0, 17, 4);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_restart(void **state)
{
	struct kat_rx *k = *state;

	/* SV while a frame is open: the first is lost, the second collected. */
	kat_feed(&k->rx, &k->cap, F_START, 0);
	kat_feed(&k->rx, &k->cap, F_START_W4, 100);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 164), 1);
	/* 48 B (from 116) + 10 B (164..173) = 58 B from 116. */
	kat_check_frame(&k->cap, 0, 58, 116);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_RESTART], 1);
	assert_int_equal(kat_drops(&k->rx), 1);
}

static void test_rx_abort(void **state)
{
	struct kat_rx *k = *state;

	assert_false(oa_tc6_rx_abort(&k->rx));
	kat_feed(&k->rx, &k->cap, F_START, 0);
	assert_true(oa_tc6_rx_abort(&k->rx));
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_ABORT], 1);
	/* The rest of the aborted frame is skipped without another count. */
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_END9, 64), 0);
	assert_int_equal(kat_drops(&k->rx), 1);
	assert_int_equal(kat_feed(&k->rx, &k->cap, F_WHOLE_60, 0), 1);
	kat_check_frame(&k->cap, 0, 60, 0);
}

static void test_rx_oversize_no_overrun(void **state)
{
	/* A 128-byte frame buffer with a guard band behind it. */
	uint8_t mem[128 + 64];
	struct oa_tc6_rx rx;
	struct kat_cap c = { 0 };

	memset(mem, 0xC3, sizeof(mem));
	oa_tc6_rx_init(&rx, mem, 128);
	/* Exactly 128 B fits: SV chunk + EV at EBO 63. */
	kat_feed(&rx, &c, F_START, 0);
	assert_int_equal(kat_feed(&rx, &c, F_END63, 64), 1);
	kat_check_frame(&c, 0, 128, 0);
	/* SV + middle fill all 128 B; the next middle chunk overflows: one OVERSIZE drop. */
	kat_feed(&rx, &c, F_START, 0);
	kat_feed(&rx, &c, F_MID, 64);
	/* A stream with no EV for many chunks: still one drop, no overrun. */
	for (unsigned i = 0; i < 30; i++)
		assert_int_equal(kat_feed(&rx, &c, F_MID, 128), 0);
	assert_int_equal(kat_feed(&rx, &c, F_END9, 128), 0);
	assert_int_equal(rx.drops[OA_TC6_RX_DROP_OVERSIZE], 1);
	assert_int_equal(kat_drops(&rx), 1);
	for (size_t i = 128; i < sizeof(mem); i++)
		assert_int_equal(mem[i], 0xC3);
	/* The next frame that fits is collected. */
	kat_feed(&rx, &c, F_START, 0);
	assert_int_equal(kat_feed(&rx, &c, F_END9, 64), 1);
	kat_check_frame(&c, 1, 74, 0);
	assert_int_equal(rx.frames, 2);
}

static void test_rx_32_byte_chunks(void **state)
{
	struct kat_rx *k = *state;

	/* 32 + 32 + EV at EBO 31 (32 B) = 96 B. */
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_START, 0, 32, false), 0);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_MID, 32, 32, false), 0);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_END31, 64, 32, false), 1);
	kat_check_frame(&k->cap, 0, 96, 0);
	/* A whole 32-byte chunk, then a start + EV at EBO 9: 32 + 10 = 42 B. */
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_WHOLE_32, 50, 32, false), 1);
	kat_check_frame(&k->cap, 1, 32, 50);
	kat_feed_fill(&k->rx, &k->cap, F_START_W4, 0, 32, false);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_END9, 32, 32, false), 1);
	/* SWO 4 = byte 16: 16 B + 10 B = 26 B from 16. */
	kat_check_frame(&k->cap, 2, 26, 16);
	assert_int_equal(kat_drops(&k->rx), 0);
	/* Offsets beyond a 32-byte payload (SWO 8 = byte 32, EBO 40) are dropped. */
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_START_W8, 0, 32, false), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_OFFSET], 1);
	kat_feed_fill(&k->rx, &k->cap, F_START, 0, 32, false);
	assert_int_equal(kat_feed_fill(&k->rx, &k->cap, F_END40, 32, 32, false), 0);
	assert_int_equal(k->rx.drops[OA_TC6_RX_DROP_BAD_OFFSET], 2);
	assert_int_equal(k->cap.n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_rx_start_middle_end, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_start_offset, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_whole_in_one_chunk, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_end_and_start_in_one_chunk, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_fd_before_start, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_empty_chunk_in_middle, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_max_frame_24_chunks, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_bad_footer_then_resync, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_one_outcome_per_frame, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_fd_drops_frame, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_no_sv_dropped_once, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_restart, kat_rx_setup),
		cmocka_unit_test_setup(test_rx_abort, kat_rx_setup),
		cmocka_unit_test(test_rx_oversize_no_overrun),
		cmocka_unit_test_setup(test_rx_32_byte_chunks, kat_rx_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
