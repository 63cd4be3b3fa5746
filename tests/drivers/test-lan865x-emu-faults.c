// SPDX-License-Identifier: MIT
/*
 * The LAN8650 model's faults: injected ones (reset, internal fault, header
 * parity; docs/design.md §5) and bit errors on MOSI and MISO
 * (docs/tc6.md §1.3). Helpers and fixture: tests/helpers/lan865x_emu_harness.h.
 */
#include <errno.h>

#include "lan865x_emu_harness.h"

static void test_injected_reset(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t fr[200];
	uint32_t f;

	bring_up(t, 0);
	deliver_frame(t, fr, make_frame(fr, 100, MAC_US, 1));
	assert_int_equal(STAT(t, rx_frames), 1);
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_RESET), 0);
	assert_true(irq_readable(t));
	f = empty_chunk(t, false);
	assert_int_equal(F_SYNC(f), 0);
	assert_int_equal(F_DV(f), 0);
	assert_int_equal(F_RCA(f), 0);
	assert_int_equal(STAT(t, rx_flushed), 1);
	assert_int_equal(read_reg(t, 0, 0x04), 0x0006);
	assert_int_equal(read_reg(t, 1, 0x00), 0);
	assert_int_equal(STAT(t, faults), 1);
}

static void test_internal_fault(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100];
	uint32_t f;

	bring_up(t, 1u << 12);
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 1));
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_INTERNAL), 0);
	f = empty_chunk(t, false);
	assert_int_equal(F_DV(f), 0);
	assert_int_equal(read_reg(t, 0, 0x09), 1u << 17);
	write_reg(t, 0, 0x03, 1);
	assert_int_equal(read_reg(t, 0, 0x09), 0);
}

static void test_data_header_parity(void **state)
{
	struct emu_fixture *t = *state;
	uint8_t a[100];
	uint32_t h, f;

	bring_up(t, 1u << 12);
	deliver_frame(t, a, make_frame(a, 60, MAC_US, 1));
	assert_true(irq_readable(t));
	h = data_hdr(0, 0, 0, 0, 0, 0) ^ 1u;
	data_xfer(t, &h, NULL, 1, &f);
	assert_int_equal(F_HDRB(f), 1);
	assert_int_equal(F_DV(f), 0);
	assert_true(irq_readable(t)); /* a rejected header does not release IRQ_N */
	assert_int_equal(read_reg(t, 0, 0x08) & (1u << 5), 1u << 5);
	f = empty_chunk(t, false);
	assert_int_equal(F_HDRB(f), 0);
	assert_true(F_SV(f) && F_EV(f));
}

static void test_bit_errors(void **state)
{
	struct emu_fixture *t = *state;
	unsigned diff = 0;

	assert_int_equal(lan865x_emu_set_ber(t->emu, 0, 0.01), 0);
	/* Reading IDVER: every MISO bit differing from the clean answer is one flip. */
	for (int i = 0; i < 200; i++) {
		memset(t->tx, 0, 12);
		t->tx[3] = 0x01;
		spi_xfer(t, 12);
		diff += ones(get32(t->rx)) + ones(get32(t->rx + 4) ^ 1u) +
			ones(get32(t->rx + 8) ^ 0x11u);
	}
	assert_int_equal(STAT(t, miso_flips), diff);
	/* 19200 bits at 1e-2: expect 192; accept a wide band (seeded, deterministic). */
	assert_in_range(diff, 96, 384);
	assert_int_equal(lan865x_emu_set_ber(t->emu, 0.01, 0), 0);
	/* Raw transfers: a flipped DNC bit legitimately turns a chunk into a
	 * control transaction, so no footer checks here. */
	for (int i = 0; i < 200; i++) {
		memset(t->tx, 0, CH);
		put32(t->tx, data_hdr(0, 0, 0, 0, 0, 1));
		spi_xfer(t, CH);
	}
	/* 200 chunks of 544 bits at 1e-2: expect 1088. */
	assert_in_range(STAT(t, mosi_flips), 544, 2176);
	assert_int_equal(lan865x_emu_set_ber(t->emu, 0.6, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE_TEST(test_injected_reset),
		FIXTURE_TEST(test_internal_fault),
		FIXTURE_TEST(test_data_header_parity),
		FIXTURE_TEST(test_bit_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
