// SPDX-License-Identifier: MIT
/*
 * The LAN8650 model's RX data path, against hand-built SPI byte streams: one
 * frame, two frames per chunk (ZARFE, unaligned), NORX and FCS strip, overflow,
 * SYNC, the address filters, length and FCS checks, 32-byte chunks, CSARFE,
 * errata s3 reproduced (docs/tc6.md §2, §4.2, §5.2, §5.6). Helpers and fixture:
 * tests/helpers/lan865x_emu_harness.h.
 */
#include <errno.h>

#include "lan865x_emu_harness.h"

static void test_rx_one_frame(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[200];
	uint32_t h[2] = { data_hdr(0, 0, 0, 0, 0, 0), data_hdr(0, 0, 0, 0, 0, 0) }, f[2];
	size_t len = make_frame(fr, 96, MAC_US, 5); /* 100 bytes with FCS */

	bring_up(t, 1u << 12);
	deliver_frame(t, fr, len);
	assert_true(irq_readable(t)); /* RCA 0 -> 2 */
	assert_int_equal(read_reg(t, 0, 0x0B) & 0xFF, 2);
	data_xfer(t, h, NULL, 2, f);
	assert_false(irq_readable(t));
	assert_int_equal(F_DV(f[0]), 1);
	assert_int_equal(F_SV(f[0]), 1);
	assert_int_equal(F_SWO(f[0]), 0);
	assert_int_equal(F_EV(f[0]), 0);
	assert_int_equal(F_RCA(f[0]), 1);
	assert_int_equal(F_DV(f[1]), 1);
	assert_int_equal(F_SV(f[1]), 0);
	assert_int_equal(F_EV(f[1]), 1);
	assert_int_equal(F_EBO(f[1]), 35);
	assert_int_equal(F_RCA(f[1]), 0);
	assert_int_equal(F_FD(f[1]), 0);
	assert_memory_equal(t->rx, fr, 64);
	assert_memory_equal(t->rx + CH, fr + 64, 36); /* FCS included (docs/tc6.md §2.4) */
	assert_int_equal(STAT(t, rx_delivered), 1);
}

static void test_rx_zarfe_two_frames(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[4], f[4];

	bring_up(t, 1u << 12);
	deliver_frame(t, a, make_frame(a, 66, MAC_US, 1)); /* 70 bytes: 64 + 6 */
	deliver_frame(t, b, make_frame(b, 66, MAC_US, 2));
	for (int k = 0; k < 4; k++)
		h[k] = data_hdr(0, 0, 0, 0, 0, 0);
	data_xfer(t, h, NULL, 4, f);
	assert_int_equal(F_RCA(f[0]), 3);
	assert_true(F_SV(f[0]) && !F_EV(f[0]));
	assert_true(!F_SV(f[1]) && F_EV(f[1]) && F_EBO(f[1]) == 5);
	assert_true(F_SV(f[2]) && F_SWO(f[2]) == 0 && !F_EV(f[2]));
	assert_true(!F_SV(f[3]) && F_EV(f[3]) && F_EBO(f[3]) == 5);
	assert_int_equal(F_RCA(f[3]), 0);
	assert_memory_equal(t->rx + 2 * CH, b, 64);
	assert_memory_equal(t->rx + 3 * CH, b + 64, 6);
}

static void test_rx_unaligned_two_frames(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[3], f[3];

	bring_up(t, 0); /* RFA = 0: a frame may start in any word (docs/tc6.md §2.4) */
	deliver_frame(t, a, make_frame(a, 66, MAC_US, 1));
	deliver_frame(t, b, make_frame(b, 66, MAC_US, 2));
	for (int k = 0; k < 3; k++)
		h[k] = data_hdr(0, 0, 0, 0, 0, 0);
	data_xfer(t, h, NULL, 3, f);
	/* A ends at byte 5 of chunk 1; B starts at word 2 (byte 8): 56 bytes, then 14. */
	assert_int_equal(F_RCA(f[0]), 2);
	assert_true(F_SV(f[1]) && F_EV(f[1]));
	assert_int_equal(F_EBO(f[1]), 5);
	assert_int_equal(F_SWO(f[1]), 2);
	assert_int_equal(F_RCA(f[1]), 1);
	assert_memory_equal(t->rx + CH, a + 64, 6);
	assert_memory_equal(t->rx + CH + 8, b, 56);
	assert_true(!F_SV(f[2]) && F_EV(f[2]) && F_EBO(f[2]) == 13);
	assert_memory_equal(t->rx + 2 * CH, b + 56, 14);
	assert_int_equal(F_RCA(f[2]), 0);
	assert_int_equal(STAT(t, rx_shared_chunks), 1);
}

static struct fixture_variant errata_s3 = { .errata_s3 = true };

/*
 * Errata s3 reproduced (docs/tc6.md §5.6): after the chunk that ends one frame
 * and starts the next, RX data stops while RCA still counts it; a reset
 * clears it. With ZARFE no chunk is shared, and nothing stops.
 */
static void test_rx_errata_s3(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[3], f[3];

	for (int k = 0; k < 3; k++)
		h[k] = data_hdr(0, 0, 0, 0, 0, 0);
	bring_up(t, 1u << 12); /* ZARFE */
	deliver_frame(t, a, make_frame(a, 66, MAC_US, 1));
	deliver_frame(t, b, make_frame(b, 66, MAC_US, 2));
	data_xfer(t, h, NULL, 3, f);
	data_xfer(t, h, NULL, 1, f);
	assert_true(F_EV(f[0]) && STAT(t, rx_delivered) == 2);
	write_reg(t, 0, 0x03, 1); /* SWRESET */
	bring_up(t, 0); /* RFA 0: a frame may start in any word */
	deliver_frame(t, a, make_frame(a, 66, MAC_US, 1));
	deliver_frame(t, b, make_frame(b, 66, MAC_US, 2));
	data_xfer(t, h, NULL, 3, f);
	assert_true(F_SV(f[1]) && F_EV(f[1])); /* the shared chunk goes out */
	assert_int_equal(F_DV(f[2]), 0); /* then nothing moves... */
	assert_int_equal(F_RCA(f[2]), 1); /* ...though B's last chunk waits */
	data_xfer(t, h, NULL, 2, f);
	assert_int_equal(F_DV(f[0]) | F_DV(f[1]), 0);
	assert_int_equal(STAT(t, rx_delivered), 3);
	write_reg(t, 0, 0x03, 1);
	assert_int_equal(STAT(t, rx_cut), 1); /* B was begun and is lost to the reset */
	bring_up(t, 0);
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 3));
	data_xfer(t, h, NULL, 1, f);
	assert_true(F_SV(f[0]) && F_EV(f[0]));
}

static void test_rx_norx_and_fcs_strip(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100];
	uint32_t h[2] = { data_hdr(0, 0, 0, 0, 0, 1), data_hdr(0, 0, 0, 0, 0, 0) }, f[2];

	bring_up(t, 1u << 12);
	write_reg(t, 1, 0x01, 0x00080000 | (1u << 17)); /* NCFGR.RFCS */
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 4));
	data_xfer(t, h, NULL, 2, f);
	assert_int_equal(F_DV(f[0]), 0); /* NORX: nothing consumed */
	assert_int_equal(F_RCA(f[0]), 1);
	assert_true(F_SV(f[1]) && F_EV(f[1]));
	assert_int_equal(F_EBO(f[1]), 59);
	assert_memory_equal(t->rx + CH, a, 60);
}

static void test_rx_overflow(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[200];
	uint32_t f;
	size_t len = make_frame(a, 96, MAC_US, 1); /* 2 chunks each */

	bring_up(t, 1u << 12);
	write_reg(t, 0, 0x0C, 0x1FBF & ~(1u << 3)); /* unmask RXBOE */
	deliver_frame(t, a, len);
	deliver_frame(t, a, len);
	f = empty_chunk(t, true);
	assert_int_equal(F_RCA(f), 4);
	assert_false(irq_readable(t));
	deliver_frame(t, a, len); /* the buffer holds 4 chunks: no room */
	assert_int_equal(STAT(t, rx_dropped_overflow), 1);
	/* On time (virtual clock, no steal): the driver's service gap. */
	assert_int_equal(STAT(t, rx_loss.lost_driver), 1);
	assert_int_equal(STAT(t, rx_loss.lost_lab) + STAT(t, rx_loss.lost_steal), 0);
	assert_int_equal(read_reg(t, 0, 0x08) & 8, 8);
	assert_true(irq_readable(t)); /* EXST became pending */
	f = empty_chunk(t, true);
	assert_int_equal(F_EXST(f), 1);
	assert_int_equal(F_RCA(f), 4);
	/* Injected overflow drops the head frame even when partly read. */
	empty_chunk(t, false);
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_RX_OVERFLOW), 0);
	f = empty_chunk(t, false);
	assert_true(F_SV(f) && !F_EV(f));
	assert_int_equal(STAT(t, rx_dropped_overflow), 2);
	assert_int_equal(STAT(t, rx_loss.lost_injected), 1);
}

/* Loss attribution (docs/design.md §4.8): a frame that reaches a full
 * buffer more than EMU_LOSS_LAB_LATE_NS after its wire time is the lab's,
 * one on time the driver's; every overflow is put down to one cause. */
static void test_rx_overflow_attributed(void **state)
{
	struct emu_fixture *t = *state;
	const uint64_t ms = 1000000;
	uint8_t a[200];
	size_t len = make_frame(a, 96, MAC_US, 1); /* 2 chunks each */

	bring_up(t, 1u << 12);
	t->fm.ops->rx(t->fm.node, a, len, 10 * ms); /* the model's clock is at 10 ms now */
	t->fm.ops->rx(t->fm.node, a, len, 10 * ms);
	t->fm.ops->rx(t->fm.node, a, len, 10 * ms - EMU_LOSS_LAB_LATE_NS - 1); /* late: lab */
	t->fm.ops->rx(t->fm.node, a, len, 10 * ms - EMU_LOSS_LAB_LATE_NS); /* at the bound */
	t->fm.ops->rx(t->fm.node, a, len, 10 * ms); /* on time: the driver's */
	assert_int_equal(STAT(t, rx_dropped_overflow), 3);
	assert_int_equal(STAT(t, rx_loss.lost_lab), 1);
	assert_int_equal(STAT(t, rx_loss.lost_driver), 2);
	assert_int_equal(STAT(t, rx_loss.lost_steal), 0);
	assert_true(STAT(t, rx_loss.gap_max_ns) > 0);
	assert_int_equal(STAT(t, rx_loss.lost_lab) + STAT(t, rx_loss.lost_driver) +
				 STAT(t, rx_loss.lost_steal) + STAT(t, rx_loss.lost_injected),
			 STAT(t, rx_dropped_overflow));
	/* The rule alone: lab first, then steal, then the driver. */
	assert_int_equal(emu_loss_cause_of(EMU_LOSS_LAB_LATE_NS + 1, 5), EMU_LOSS_LAB);
	assert_int_equal(emu_loss_cause_of(EMU_LOSS_LAB_LATE_NS, 5), EMU_LOSS_STEAL);
	assert_int_equal(emu_loss_cause_of(0, 0), EMU_LOSS_DRIVER);
}

static int fixture_setup_small_rx(void **state)
{
	return fixture_make(state, 4);
}

static void test_rx_sync_blocks(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[200], out[EMU_FRAME_MAX];
	uint32_t f[2];
	size_t n;

	write_reg(t, 1, 0x00, 0x0C); /* TXEN|RXEN, but SYNC stays 0 */
	deliver_frame(t, a, make_frame(a, 96, MAC_US, 1));
	assert_int_equal(STAT(t, rx_dropped_sync), 1);
	assert_int_equal(read_reg(t, 0, 0x0B) & 0xFF, 0);
	make_frame(a, 60, MAC_PEER, 1);
	send_frame(t, a, 60, f);
	assert_int_equal(F_SYNC(f[0]), 0);
	assert_false(pull_frame(t, out, &n));
	assert_int_equal(STAT(t, txpe), 0);
	assert_int_equal(read_reg(t, 0, 0x0B) >> 8, 48);
}

static void test_rx_filter(void **state)
{
	struct emu_fixture *t = *state;
	static const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x09 };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mcast[6] = { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x01 };
	uint8_t a[100];

	bring_up(t, 1u << 12);
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 1));
	deliver_frame(t, a, make_frame(a, 60, other, 1));
	deliver_frame(t, a, make_frame(a, 60, bcast, 1));
	assert_int_equal(STAT(t, rx_frames), 2);
	assert_int_equal(STAT(t, rx_dropped_filter), 1);
	write_reg(t, 1, 0x01, 0x00080000 | (1u << 5)); /* NBC */
	deliver_frame(t, a, make_frame(a, 60, bcast, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 2);
	/* Hash of 01:00:5E:00:00:01 (docs/tc6.md §4.2): set DA bits are 0, 17, 18, 19, 20, 22, 40;
	 * index bit j = XOR of the bits = j mod 6 -> j0 = b0^b18 = 0, j1 = b19 = 1,
	 * j2 = b20 = 1, j3 = 0, j4 = b22^b40 = 0, j5 = b17 = 1 -> 0b100110 = 38. */
	write_reg(t, 1, 0x01, 0x00080000 | (1u << 6)); /* MTIHEN */
	deliver_frame(t, a, make_frame(a, 60, mcast, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 3);
	write_reg(t, 1, 0x21, 1u << (38 - 32)); /* HRT bit 6 */
	deliver_frame(t, a, make_frame(a, 60, mcast, 1));
	assert_int_equal(STAT(t, rx_frames), 3);
	write_reg(t, 1, 0x21, 0);
	write_reg(t, 1, 0x20, 0xFFFFFFFF); /* only HRB: index 38 stays out */
	deliver_frame(t, a, make_frame(a, 60, mcast, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 4);
	/* A write to SAB1 disables filter 1 until SAT1 is written (docs/tc6.md §5.2). */
	write_reg(t, 1, 0x22, 0x00000002);
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 5);
	write_reg(t, 1, 0x23, 0x0100);
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 1));
	assert_int_equal(STAT(t, rx_frames), 4);
	write_reg(t, 1, 0x01, 0x00080000 | (1u << 4)); /* CAF: promiscuous */
	deliver_frame(t, a, make_frame(a, 60, other, 1));
	assert_int_equal(STAT(t, rx_frames), 5);
}

static void test_rx_length_fcs(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[1600];
	uint32_t h[2] = { data_hdr(0, 0, 0, 0, 0, 0), data_hdr(0, 0, 0, 0, 0, 0) }, f[2];
	size_t len;

	bring_up(t, 1u << 12);
	deliver_frame(t, a, make_frame(a, 59, MAC_US, 1)); /* 63 bytes: runt */
	deliver_frame(t, a, make_frame(a, 1515, MAC_US, 1)); /* 1519: too long */
	assert_int_equal(STAT(t, rx_dropped_length), 2);
	len = make_frame(a, 80, MAC_US, 1);
	a[20] ^= 1;
	deliver_frame(t, a, len);
	assert_int_equal(STAT(t, rx_dropped_fcs), 1);
	write_reg(t, 1, 0x01, 0x00080000 | (1u << 26)); /* IRXFCS: deliver with FD */
	deliver_frame(t, a, len);
	data_xfer(t, h, NULL, 2, f);
	assert_int_equal(F_EV(f[1]), 1);
	assert_int_equal(F_FD(f[1]), 1);
}

static void test_rx_32_byte_chunks(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100];
	uint32_t f[3];

	bring_up(t, 1u << 12);
	write_reg(t, 0, 0x04,
		  0x9004); /* CPS=4 (16 B) is not supported: ignored (docs/tc6.md §2.1) */
	assert_int_equal(read_reg(t, 0, 0x04), 0x9006);
	write_reg(t, 0, 0x04, 0x9005); /* CPS=5: 32-byte payloads, 36-byte chunks */
	deliver_frame(t, a, make_frame(a, 66, MAC_US, 3)); /* 70 bytes: 32 + 32 + 6 */
	for (unsigned k = 0; k < 3; k++)
		put32(t->tx + k * 36, data_hdr(0, 0, 0, 0, 0, 0));
	spi_xfer(t, 3 * 36);
	for (unsigned k = 0; k < 3; k++) {
		f[k] = get32(t->rx + k * 36 + 32);
		assert_int_equal(ones(f[k]) % 2, 1);
	}
	assert_true(F_SV(f[0]) && F_RCA(f[0]) == 2);
	assert_true(F_DV(f[1]) && !F_SV(f[1]) && !F_EV(f[1]));
	assert_true(F_EV(f[2]) && F_EBO(f[2]) == 5);
	assert_memory_equal(t->rx + 36, a + 32, 32);
	assert_memory_equal(t->rx + 72, a + 64, 6);
}

static void test_rx_csarfe(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[2] = { data_hdr(0, 0, 0, 0, 0, 0), data_hdr(0, 0, 0, 0, 0, 0) }, f[2];

	bring_up(t, 2u << 12); /* CSARFE: frames start only in the first chunk of a CS */
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 1));
	deliver_frame(t, b, make_frame(b, 60, MAC_US, 2));
	data_xfer(t, h, NULL, 2, f);
	assert_true(F_SV(f[0]) && F_EV(f[0]));
	assert_int_equal(F_DV(f[1]), 0);
	data_xfer(t, h, NULL, 2, f);
	assert_true(F_SV(f[0]) && F_EV(f[0]));
	assert_memory_equal(t->rx, b, 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE_TEST(test_rx_one_frame),
		FIXTURE_TEST(test_rx_zarfe_two_frames),
		FIXTURE_TEST(test_rx_unaligned_two_frames),
		FIXTURE_TEST(test_rx_norx_and_fcs_strip),
		cmocka_unit_test_setup_teardown(test_rx_overflow_attributed, fixture_setup_small_rx,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_rx_overflow, fixture_setup_small_rx,
						fixture_teardown),
		FIXTURE_TEST(test_rx_sync_blocks),
		FIXTURE_TEST(test_rx_filter),
		FIXTURE_TEST(test_rx_length_fcs),
		FIXTURE_TEST(test_rx_32_byte_chunks),
		FIXTURE_TEST(test_rx_csarfe),
		VARIANT_TEST(test_rx_errata_s3, errata_s3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
