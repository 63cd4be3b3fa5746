// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the MDIO block inside the ENET model, through the
 * model's registers on a virtual clock (docs/mdio.md §3, §11;
 * docs/enet.md §5): the frame time per MDC and preamble setting to the ns, EIR.MII set
 * and cleared (write 1 to clear) and reaching int0 only with ETHEREN, the
 * MSCR-write frame after a reset (the 2020 quirk) with the switch on and
 * off and the init sequence that avoids it, a command written while a
 * frame is shifting, and the line's carrier following the two AR8031s.
 * Values are typed from the docs, never from the model's headers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "enet_kat.h"

#define PHY_ADDR 1u /* the model's default board address */
#define MSCR_2M5 (9u << 1) /* 50 MHz / ((9 + 1) x 2) = 2.5 MHz (docs/mdio.md §3.1) */
#define MSCR_5M (4u << 1) /* 50 MHz / 10 = 5 MHz */
#define MSCR_DIS_PRE (1u << 7)
#define MII_DATA 0xFFFFu
#define AR8031_ID1 0x004Du /* docs/mdio.md §8.1 */
#define AR8031_ID2 0xD074u
#define BMSR_LSTATUS 0x0004u

/* ST 01, OP 10 (read), TA 10 (docs/mdio.md §1.1, docs/enet.md §5). */
static uint32_t mmfr_read(unsigned pa, unsigned ra)
{
	return 1u << 30 | 2u << 28 | pa << 23 | ra << 18 | 2u << 16;
}

static int setup_phys(void **state)
{
	return setup_board(state, 1000, true, true);
}

static int setup_phys_no_quirk(void **state)
{
	return setup_board(state, 1000, true, false);
}

/* A read frame at 2.5 MHz, @ns of it shifted, then ECR.RESET. */
static void frame_then_reset(struct kat *k, uint64_t ns)
{
	wr(k, 0, MSCR, MSCR_2M5);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 2));
	advance(k, ns);
	wr(k, 0, ECR, ECR_RESET);
}

static bool mii(struct kat *k)
{
	return rd(k, 0, EIR) & EV_MII;
}

/* Start a read of @ra and check the event and data appear exactly @ns later. */
static void check_frame_time(struct kat *k, uint32_t mscr, uint64_t ns, unsigned ra, uint16_t want)
{
	uint64_t t0;

	wr(k, 0, MSCR, mscr);
	wr(k, 0, EIR, EV_MII);
	t0 = now(k);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, ra));
	advance_to(k, t0 + ns - 1);
	assert_false(mii(k));
	advance_to(k, t0 + ns);
	assert_true(mii(k));
	assert_int_equal(rd(k, 0, MMFR) & MII_DATA, want);
}

/* 64 MDC cycles with preamble, 32 without; MDC = 50 MHz / (2 (MII_SPEED + 1)). */
static void test_frame_time_exact(void **state)
{
	struct kat *k = *state;

	check_frame_time(k, MSCR_2M5, 25600, 2, AR8031_ID1);
	check_frame_time(k, MSCR_2M5 | MSCR_DIS_PRE, 12800, 3, AR8031_ID2);
	check_frame_time(k, MSCR_5M, 12800, 2, AR8031_ID1);
	check_frame_time(k, MSCR_5M | MSCR_DIS_PRE, 6400, 3, AR8031_ID2);
	/* Nobody at address 5: the pull-up reads all ones (docs/mdio.md §1.3). */
	wr(k, 0, EIR, EV_MII);
	wr(k, 0, MMFR, mmfr_read(5, 2));
	advance(k, 25600);
	assert_int_equal(rd(k, 0, MMFR) & MII_DATA, 0xFFFF);
}

/* EIR.MII is write-1-to-clear; it drives int0 only with EIMR.MII and ETHEREN. */
static void test_event_set_cleared_and_line(void **state)
{
	struct kat *k = *state;

	wr(k, 0, MSCR, MSCR_2M5);
	wr(k, 0, EIMR, EV_MII);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 2));
	advance(k, 25600);
	assert_true(mii(k));
	/* ECR at reset: ETHEREN clear, so the event is seen but not signalled. */
	assert_false(enet_emu_irq_asserted(k->emu[0], 0));
	wr(k, 0, ECR, ECR_ETHEREN);
	assert_true(enet_emu_irq_asserted(k->emu[0], 0));
	/* Writing 0 leaves it, writing another bit leaves it, writing MII clears it. */
	wr(k, 0, EIR, 0);
	wr(k, 0, EIR, EV_RXF);
	assert_true(mii(k));
	wr(k, 0, EIR, EV_MII);
	assert_false(mii(k));
	assert_false(enet_emu_irq_asserted(k->emu[0], 0));
	/* Masked: the event sets, the line stays low. */
	wr(k, 0, EIMR, 0);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 3));
	advance(k, 25600);
	assert_true(mii(k));
	assert_false(enet_emu_irq_asserted(k->emu[0], 0));
	assert_int_equal(rd(k, 0, MMFR) & MII_DATA, AR8031_ID2);
}

/* docs/mdio.md §3.2: after ECR.RESET MSCR is 0 and MMFR still holds the last
 * frame; writing MSCR sends it and raises a "spurious" event one frame later. */
static void test_mscr_write_frame_after_reset(void **state)
{
	struct kat *k = *state;
	struct enet_mdio_stats st;

	frame_then_reset(k, 25600);
	assert_int_equal(rd(k, 0, MSCR), 0);
	assert_false(mii(k));
	assert_int_not_equal(rd(k, 0, MMFR), 0);
	/* The naive order: MSCR alone sends the old frame. */
	wr(k, 0, MSCR, MSCR_2M5);
	advance(k, 25599);
	assert_false(mii(k));
	advance(k, 1);
	assert_true(mii(k));
	enet_emu_get_mdio_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.mscr_frames), 1);
	/* The fec fix: MMFR = 0, MSCR, clear: no frame, no event. */
	wr(k, 0, ECR, ECR_RESET);
	wr(k, 0, MMFR, 0);
	wr(k, 0, MSCR, MSCR_2M5);
	wr(k, 0, EIR, EV_MII);
	advance(k, 100000);
	assert_false(mii(k));
	enet_emu_get_mdio_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.mscr_frames), 1);
}

/* With the switch off (parts without the quirk) the MSCR write sends nothing. */
static void test_mscr_write_no_quirk(void **state)
{
	struct kat *k = *state;

	frame_then_reset(k, 25600);
	wr(k, 0, MSCR, MSCR_2M5);
	advance(k, 100000);
	assert_false(mii(k));
}

/* docs/mdio.md §3.3: a write to MMFR during the preamble replaces the frame;
 * the end time stays, one event, counted as an error. */
static void test_command_while_busy(void **state)
{
	struct kat *k = *state;
	struct enet_mdio_stats st;
	uint64_t t0;

	wr(k, 0, MSCR, MSCR_2M5);
	wr(k, 0, EIR, EV_MII);
	t0 = now(k);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 2));
	advance_to(k, t0 + 5000); /* 12 of the 32 preamble cycles */
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 3));
	advance_to(k, t0 + 25599);
	assert_false(mii(k));
	advance_to(k, t0 + 25600);
	assert_true(mii(k));
	assert_int_equal(rd(k, 0, MMFR) & MII_DATA, AR8031_ID2);
	enet_emu_get_mdio_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.busy_writes), 1);
	assert_int_equal(ethdrv_counter_get(&st.frames_done), 1);
}

/* A reset aborts the frame in flight: no event, ever (docs/mdio.md §3.3). */
static void test_reset_aborts_frame(void **state)
{
	struct kat *k = *state;
	struct enet_mdio_stats st;

	frame_then_reset(k, 10000);
	advance(k, 100000);
	assert_false(mii(k));
	enet_emu_get_mdio_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.frames_aborted), 1);
}

/* The line carries frames while the two PHYs' link is up, which autoneg
 * brings up aneg_ns (3 s) after power-up; an unplugged cable takes it down. */
static void test_line_follows_phys(void **state)
{
	struct kat *k = *state;
	uint16_t bmsr;

	advance_to(k, 2999999999ull);
	assert_false(fdx_line_link_up(k->line));
	advance_to(k, 3000000000ull);
	assert_true(fdx_line_link_up(k->line));
	wr(k, 0, MSCR, MSCR_2M5);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 1));
	advance(k, 25600);
	bmsr = (uint16_t)(rd(k, 0, MMFR) & MII_DATA);
	assert_true(bmsr & BMSR_LSTATUS);
	fdx_line_set_cable(k->line, false);
	assert_false(fdx_line_link_up(k->line));
	/* Latched low (docs/mdio.md §2.2): the first read says down. */
	wr(k, 0, EIR, EV_MII);
	wr(k, 0, MMFR, mmfr_read(PHY_ADDR, 1));
	advance(k, 25600);
	assert_false(rd(k, 0, MMFR) & BMSR_LSTATUS);
	fdx_line_set_cable(k->line, true);
	advance(k, 3000000000ull);
	assert_true(fdx_line_link_up(k->line));
}

/* A board whose peer has no PHY never gets a link (the wire has one PHY). */
static void test_phy_facing_no_phy(void **state)
{
	struct fdx_line_config lc;
	struct enet_emu_config ec;
	struct fdx_line *line;
	struct enet_emu *e[2];

	(void)state;
	fdx_line_config_default(&lc);
	lc.realtime = false;
	assert_int_equal(fdx_line_new(&lc, &line), 0);
	enet_emu_config_default(&ec);
	ec.dma_size = 1u << 20;
	assert_int_equal(enet_emu_new(&ec, line, 0, &e[0]), 0);
	ec.phy_addr = ENET_EMU_NO_PHY;
	assert_int_equal(enet_emu_new(&ec, line, 1, &e[1]), 0);
	assert_int_equal(fdx_line_run_until(line, 10000000000ull), 0);
	assert_false(fdx_line_link_up(line));
	assert_true(enet_emu_phy_irq_fd(e[0]) >= 0);
	assert_int_equal(enet_emu_phy_irq_fd(e[1]), -1);
	ec.phy_addr = 33;
	assert_int_equal(enet_emu_new(&ec, line, 0, &e[0]), -EINVAL);
	for (unsigned i = 0; i < 2; i++)
		enet_emu_free(e[i]);
	fdx_line_free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_frame_time_exact, setup_phys, teardown),
		cmocka_unit_test_setup_teardown(test_event_set_cleared_and_line, setup_phys,
						teardown),
		cmocka_unit_test_setup_teardown(test_mscr_write_frame_after_reset, setup_phys,
						teardown),
		cmocka_unit_test_setup_teardown(test_mscr_write_no_quirk, setup_phys_no_quirk,
						teardown),
		cmocka_unit_test_setup_teardown(test_command_while_busy, setup_phys, teardown),
		cmocka_unit_test_setup_teardown(test_reset_aborts_frame, setup_phys, teardown),
		cmocka_unit_test_setup_teardown(test_line_follows_phys, setup_phys, teardown),
		cmocka_unit_test(test_phy_facing_no_phy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
