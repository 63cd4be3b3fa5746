// SPDX-License-Identifier: MIT
/*
 * The LAN8650 model's registers and control transactions, against hand-built
 * SPI byte streams: reset values, the one-word MISO delay, multi-register and
 * protected access, header parity, software reset and IRQ_N, PLCA and AN1760
 * registers (docs/tc6.md §1, §3, §4.1, §5.3). Helpers and fixture:
 * tests/helpers/lan865x_emu_harness.h.
 */
#include <errno.h>

#include "lan865x_emu_harness.h"

/* STDCAP of the model: TXFCSVC, DPRAC, AIDC, MINBPS 5 (docs/tc6.md §3.2). */
#define STDCAP_MODEL 0x05A5

static void test_ctrl_read_reset_values(void **state)
{
	struct emu_fixture *t = *state;
	/* IDVER: header 0x00000000 has no ones, so P=1 (docs/tc6.md §1.3); value
	 * 0x11 (docs/tc6.md §3.2). */
	static const uint8_t idver[12] = { 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0x11 };
	static const uint8_t config0[12] = { 0, 0, 0, 0, 0, 0, 0x04, 0x00, 0, 0, 0, 0x06 };
	static const uint8_t imask0[12] = { 0, 0, 0, 0, 0, 0, 0x0C, 0x01, 0, 0, 0x1F, 0xBF };

	memset(t->tx, 0, 12);
	t->tx[3] = 0x01;
	spi_xfer(t, 12);
	assert_memory_equal(t->rx, idver, 12);
	memset(t->tx, 0, 12);
	t->tx[2] = 0x04; /* ADDR 4: one bit set, P=0 */
	spi_xfer(t, 12);
	assert_memory_equal(t->rx, config0, 12);
	memset(t->tx, 0, 12);
	t->tx[2] = 0x0C; /* ADDR 0x0C: two bits, P=1 */
	t->tx[3] = 0x01;
	spi_xfer(t, 12);
	assert_memory_equal(t->rx, imask0, 12);
	assert_int_equal(read_reg(t, 0, 0x08), 0x40); /* STATUS0.RESETC after power-on */
	assert_int_equal(read_reg(t, 0, 0x0B), 0x3000); /* BUFSTS TXC=48 (docs/tc6.md §2.3) */
	assert_int_equal(read_reg(t, 0, 0xFF02), 0x0007);
	assert_int_equal(read_reg(t, 0, 0xFF03), 0xC1B3);
	assert_int_equal(read_reg(t, 1, 0x01), 0x00080000); /* NCFGR */
	assert_int_equal(read_reg(t, 4, 0xCA02), 0x08FF); /* PLCA CTRL1: NCNT 8, ID 0xFF */
	assert_int_equal(read_reg(t, 4, 0xCA04), 0x0020);
	assert_int_equal(read_reg(t, 4, 0xCA05), 0x0080);
	assert_int_equal(read_reg(t, 4, 0x87), 0x8083);
	assert_int_equal(read_reg(t, 10, 0x94), 0x00086502); /* DEVID: 0x8650 rev 2 */
	assert_int_equal(read_reg(t, 3, 0x1234), 0); /* unimplemented */
	assert_int_equal(STAT(t, ctrl_len_errors), 0);
}

static void test_ctrl_write_echo(void **state)
{
	struct emu_fixture *t = *state;
	/* Write IMASK0 = 0x100: header 0x20000C00 has three ones, P=0. */
	static const uint8_t mosi[12] = { 0x20, 0, 0x0C, 0x00, 0, 0, 0x01, 0x00, 0, 0, 0, 0 };
	static const uint8_t miso[12] = { 0, 0, 0, 0, 0x20, 0, 0x0C, 0x00, 0, 0, 0x01, 0x00 };

	memcpy(t->tx, mosi, 12);
	spi_xfer(t, 12);
	assert_memory_equal(t->rx, miso, 12);
	assert_int_equal(read_reg(t, 0, 0x0C), 0x100);
	/* RESETC's mask bit is read-only 0 (docs/tc6.md §3.4). */
	write_reg(t, 0, 0x0C, 0xFFFFFFFF);
	assert_int_equal(read_reg(t, 0, 0x0C), 0x1FBF);
	/* Writes to unimplemented or read-only registers are ignored. */
	write_reg(t, 0, 0x00, 0x55);
	assert_int_equal(read_reg(t, 0, 0x00), 0x11);
	write_reg(t, 2, 0x10, 0x55);
	assert_int_equal(read_reg(t, 2, 0x10), 0);
	assert_int_equal(STAT(t, ctrl_writes), 4);
}

static void test_ctrl_multi_register(void **state)
{
	struct emu_fixture *t = *state;
	uint32_t v[3], w[2] = { 0x11223344, 0x55667788 };

	read_regs(t, false, 0, 0x00, 3, v);
	assert_int_equal(v[0], 0x11);
	assert_int_equal(v[1], 0x0007C1B4); /* B1 (docs/tc6.md §5.1.1) */
	assert_int_equal(v[2], STDCAP_MODEL);
	/* AID=1: the same register twice. */
	memset(t->tx, 0, 16);
	put32(t->tx, with_parity(1u << 28 | 0x04u << 8 | 1u << 1));
	spi_xfer(t, 16);
	assert_int_equal(get32(t->rx + 8), 0x0006);
	assert_int_equal(get32(t->rx + 12), 0x0006);
	/* Two MAC registers (HRB, HRT) in one write, read back. */
	write_regs(t, false, 1, 0x20, 2, w, false);
	read_regs(t, false, 1, 0x20, 2, v);
	assert_int_equal(v[0], 0x11223344);
	assert_int_equal(v[1], 0x55667788);
	/* A short transfer: only the register whose value fully arrived is written. */
	memset(t->tx, 0, 10);
	put32(t->tx, ctrl_hdr(1, 0, 1, 0x20, 2));
	put32(t->tx + 4, 0xAAAA0001);
	put32(t->tx + 8, 0xBBBB0002);
	spi_xfer(t, 10);
	read_regs(t, false, 1, 0x20, 2, v);
	assert_int_equal(v[0], 0xAAAA0001);
	assert_int_equal(v[1], 0x55667788);
	assert_int_equal(STAT(t, ctrl_len_errors), 1);
}

static void test_ctrl_protected(void **state)
{
	struct emu_fixture *t = *state;
	uint32_t v, imask = 0x100;

	write_reg(t, 0, 0x04, 0x0026); /* PROTE + 64 B, sent unprotected (docs/tc6.md §1.5) */
	read_regs(t, true, 0, 0x04, 1, &v);
	assert_int_equal(v, 0x0026);
	assert_int_equal(t->rx[15], (uint8_t)~0x26); /* complement on the wire */
	write_regs(t, true, 0, 0x0C, 1, &imask, false);
	read_regs(t, true, 0, 0x0C, 1, &v);
	assert_int_equal(v, 0x100);
	/* A bad complement: not written, STATUS0.CDPE (bit 12) set. */
	imask = 0x1FBF;
	write_regs(t, true, 0, 0x0C, 1, &imask, true);
	read_regs(t, true, 0, 0x0C, 1, &v);
	assert_int_equal(v, 0x100);
	read_regs(t, true, 0, 0x08, 1, &v);
	assert_int_equal(v, 0x1040);
	assert_int_equal(STAT(t, cdpe), 1);
}

static void test_ctrl_header_parity(void **state)
{
	struct emu_fixture *t = *state;

	/* Read IDVER with P=0: parity wrong. Echo has HDRB (bit 30) with fresh parity. */
	memset(t->tx, 0, 12);
	spi_xfer(t, 12);
	assert_int_equal(get32(t->rx + 4), 0x40000000);
	assert_int_equal(get32(t->rx + 8), 0);
	/* A write with bad parity is not performed. */
	put32(t->tx, ctrl_hdr(1, 0, 0, 0x0C, 1) ^ 1u);
	put32(t->tx + 4, 0x0);
	spi_xfer(t, 12);
	assert_int_equal(get32(t->rx + 4) >> 30 & 1, 1);
	assert_int_equal(read_reg(t, 0, 0x0C), 0x1FBF);
	assert_int_equal(read_reg(t, 0, 0x08), 0x60); /* HDRE | RESETC */
	assert_int_equal(STAT(t, hdr_errors), 2);
	/* Injected: the next header arrives with a parity error. */
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_HDR_PARITY), 0);
	put32(t->tx, ctrl_hdr(0, 0, 0, 0x00, 1));
	spi_xfer(t, 12);
	assert_int_equal(get32(t->rx + 4) >> 30 & 1, 1);
	assert_int_equal(read_reg(t, 0, 0x00), 0x11);
}

static void test_reset_flow(void **state)
{
	struct emu_fixture *t = *state;
	uint32_t f;

	assert_true(lan865x_emu_irq_asserted(t->emu));
	assert_true(irq_readable(t));
	write_reg(t, 0, 0x08, 0x40); /* clear RESETC */
	assert_int_equal(read_reg(t, 0, 0x08), 0);
	/* Register access never releases IRQ_N (docs/tc6.md §2.5). */
	assert_true(irq_readable(t));
	f = empty_chunk(t, true);
	assert_false(irq_readable(t));
	assert_int_equal(F_SYNC(f), 0);
	assert_int_equal(F_EXST(f), 0);
	assert_int_equal(F_TXC(f), 31);
	assert_int_equal(F_DV(f), 0);
	/* Software reset: SYNC cleared, RESETC, IRQ_N again. */
	write_reg(t, 0, 0x04, 0x8006);
	assert_int_equal(F_SYNC(empty_chunk(t, true)), 1);
	write_reg(t, 0, 0x03, 1);
	assert_true(irq_readable(t));
	assert_int_equal(read_reg(t, 0, 0x03), 0); /* self-clearing */
	assert_int_equal(read_reg(t, 0, 0x04), 0x0006);
	assert_int_equal(read_reg(t, 0, 0x08), 0x40);
	/* RESETC is unmasked, so the next footer has EXST, and IRQ_N stays released. */
	f = empty_chunk(t, false);
	assert_int_equal(F_EXST(f), 1);
	assert_int_equal(F_SYNC(f), 0);
	assert_false(irq_readable(t));
	assert_int_equal(STAT(t, resets), 2); /* power-on + SWRESET */
}

static void test_plca_and_trim(void **state)
{
	struct emu_fixture *t = *state;
	struct emu_plca_cfg pc;

	write_reg(t, 4, 0xCA02, 0x0503); /* NCNT 5, ID 3 */
	write_reg(t, 4, 0xCA05, 0x0240);
	write_reg(t, 4, 0xCA01, 0x8000);
	lan865x_emu_get_plca(t->emu, &pc);
	assert_true(pc.enabled);
	assert_int_equal(pc.node_id, 3);
	assert_int_equal(pc.node_cnt, 5);
	assert_int_equal(pc.to_tmr, 0x20);
	assert_int_equal(pc.burst_cnt, 2);
	assert_int_equal(pc.burst_tmr, 0x40);
	write_reg(t, 4, 0xCA01, 0x4000); /* RST: defaults again */
	lan865x_emu_get_plca(t->emu, &pc);
	assert_false(pc.enabled);
	assert_int_equal(pc.node_id, 0xFF);
	/* AN1760 indirect reads (docs/tc6.md §5.3): offset1 = -3 -> 0x1D, offset2 = +2, 0x05 bit 6. */
	write_reg(t, 4, 0xD8, 0x04);
	write_reg(t, 4, 0xDA, 0x02);
	assert_int_equal(read_reg(t, 4, 0xD9), 0x1D);
	write_reg(t, 4, 0xD8, 0x08);
	write_reg(t, 4, 0xDA, 0x02);
	assert_int_equal(read_reg(t, 4, 0xD9), 0x02);
	write_reg(t, 4, 0xD8, 0x05);
	write_reg(t, 4, 0xDA, 0x02);
	assert_int_equal(read_reg(t, 4, 0xD9), 0x40);
	write_reg(t, 4, 0xF8, 0xB900); /* an AN1760 register keeps its value */
	assert_int_equal(read_reg(t, 4, 0xF8), 0xB900);
}

/*
 * OA PHYID per silicon revision (docs/tc6.md §5.1.1): REVISION 3 on B0, 4 on
 * B1, while the clause-22 mirror reads 0x0007/0xC1B3 on both.
 */
static void test_phyid_per_revision(void **state)
{
	static const struct {
		uint8_t rev;
		uint32_t oa_phyid;
	} cases[] = { { 1, 0x0007C1B3 }, { 2, 0x0007C1B4 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct emu_fixture *t = calloc(1, sizeof(*t));
		struct lan865x_emu_config cfg;

		assert_non_null(t);
		lan865x_emu_config_default(&cfg);
		cfg.realtime = false;
		cfg.rev = cases[i].rev;
		assert_int_equal(lan865x_emu_new(&cfg, &t->emu), 0);
		assert_int_equal(read_reg(t, 0, 0x01), cases[i].oa_phyid);
		assert_int_equal(read_reg(t, 0, 0xFF02), 0x0007);
		assert_int_equal(read_reg(t, 0, 0xFF03), 0xC1B3);
		assert_int_equal(read_reg(t, 10, 0x94), 0x00086500u | cases[i].rev);
		lan865x_emu_free(t->emu);
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE_TEST(test_ctrl_read_reset_values),
		FIXTURE_TEST(test_ctrl_write_echo),
		FIXTURE_TEST(test_ctrl_multi_register),
		FIXTURE_TEST(test_ctrl_protected),
		FIXTURE_TEST(test_ctrl_header_parity),
		FIXTURE_TEST(test_reset_flow),
		FIXTURE_TEST(test_plca_and_trim),
		cmocka_unit_test(test_phyid_per_revision),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
