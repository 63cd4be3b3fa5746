// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the ENET MDIO block (docs/mdio.md §3) and the MDIO
 * bus model (docs/mdio.md §1) on the model's virtual clock: frame times per MDC and
 * preamble setting, the MII event (set, write-1-to-clear, the MSCR-write
 * frame), a command while busy, MDC changes, reset, missing devices,
 * invalid frames, clause 45. Frames are built here from the field layout
 * of docs/enet.md §5, not with the model's helper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>

#include "emu/enet_mdio.h"
#include "emu/mdio_emu.h"
#include "emu/phy_emu.h"

#define PHY_ADDR 1u
#define C22_READ(pa, ra) (0x60020000u | (uint32_t)(pa) << 23 | (uint32_t)(ra) << 18)
#define C22_WRITE(pa, ra, d) (0x50020000u | (uint32_t)(pa) << 23 | (uint32_t)(ra) << 18 | (d))
#define C45(op, pa, mmd, d) \
	((uint32_t)(op) << 28 | (uint32_t)(pa) << 23 | (uint32_t)(mmd) << 18 | 0x20000u | (d))
#define MSCR_2M5 (9u << 1) /* 50 MHz / ((9 + 1) * 2) = 2.5 MHz */
#define DIS_PRE (1u << 7)
#define MII (1u << 23)

struct fixture {
	struct mdio_emu *bus;
	struct phy_emu_wire *wire;
	struct phy_emu *phy[2];
	struct enet_mdio m;
};

static int setup_cfg(void **state, const struct enet_mdio_config *cfg, bool c45)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct phy_emu_config pc;

	assert_non_null(f);
	phy_emu_config_default(&pc);
	pc.c45_native = c45;
	assert_int_equal(mdio_emu_new(&f->bus), 0);
	assert_int_equal(phy_emu_wire_new(false, &f->wire), 0);
	assert_int_equal(phy_emu_new(&pc, f->wire, 0, &f->phy[0]), 0);
	assert_int_equal(phy_emu_new(&pc, f->wire, 0, &f->phy[1]), 0);
	assert_int_equal(phy_emu_attach(f->phy[0], f->bus, PHY_ADDR), 0);
	assert_int_equal(enet_mdio_init(&f->m, cfg, f->bus), 0);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_cfg(state, NULL, false);
}

static int setup_c45(void **state)
{
	return setup_cfg(state, NULL, true);
}

static int setup_66mhz(void **state)
{
	struct enet_mdio_config cfg = { .ipg_hz = 66000000u, .mscr_starts_frame = true };

	return setup_cfg(state, &cfg, false);
}

static int setup_no_quirk(void **state)
{
	struct enet_mdio_config cfg = { .ipg_hz = 50000000u, .mscr_starts_frame = false };

	return setup_cfg(state, &cfg, false);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	mdio_emu_detach(f->bus, PHY_ADDR);
	phy_emu_free(f->phy[0]);
	phy_emu_free(f->phy[1]);
	phy_emu_wire_free(f->wire);
	mdio_emu_free(f->bus);
	free(f);
	return 0;
}

/* Start @mmfr at @t and check the frame ends exactly @ns later. */
static void check_frame_time(struct enet_mdio *m, uint32_t mmfr, uint64_t t, uint64_t ns)
{
	enet_mdio_write(m, ENET_MDIO_REG_MMFR, mmfr, t);
	assert_int_equal(enet_mdio_deadline_ns(m), t + ns);
	assert_false(enet_mdio_event(m, t + ns - 1));
	assert_true(enet_mdio_event(m, t + ns));
	assert_int_equal(enet_mdio_deadline_ns(m), ENET_MDIO_NEVER);
	enet_mdio_event_ack(m, t + ns);
}

static void test_frame_time_2m5(void **state)
{
	struct fixture *f = *state;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	assert_int_equal(enet_mdio_frame_ns(&f->m), 25600);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 2), 1000, 25600);
	/* docs/mdio.md §3.1: the read's data replaces MMFR[15:0]. */
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 26600),
			 C22_READ(PHY_ADDR, 2) | 0x004D);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 3), 30000, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 60000) & 0xFFFF, 0xD074);
}

static void test_frame_time_no_preamble(void **state)
{
	struct fixture *f = *state;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5 | DIS_PRE, 0);
	assert_int_equal(enet_mdio_frame_ns(&f->m), 12800);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 2), 500, 12800);
	/* The AR8031 accepts frames without preamble (BMSR bit 6). */
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 20000) & 0xFFFF, 0x004D);
	/* The reference manual's table: 25 MHz, MII_SPEED 4 -> 2.5 MHz; at 50 MHz
	 * MII_SPEED 4 is 5 MHz: 64 cycles of 200 ns. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, 4u << 1, 20000);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 2), 30000, 12800);
}

static void test_frame_time_66mhz(void **state)
{
	struct fixture *f = *state;

	/* Linux: MII_SPEED = ceil(66 MHz / 5 MHz) - 1 = 13 -> 2.357 MHz;
	 * 64 * 28 / 66e6 s = 27151.5 ns, the model rounds up. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, 13u << 1, 0);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 1), 0, 27152);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, 13u << 1 | DIS_PRE, 100000);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 1), 100000, 13576);
}

static void test_event_w1c(void **state)
{
	struct fixture *f = *state;
	struct enet_mdio_stats st;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_WRITE(PHY_ADDR, 4, 0x01E1), 0);
	assert_false(enet_mdio_event(&f->m, 25599));
	/* The event is a latch: it stays until acknowledged. */
	assert_true(enet_mdio_event(&f->m, 25600));
	assert_true(enet_mdio_event(&f->m, 1000000));
	enet_mdio_event_ack(&f->m, 1000000);
	assert_false(enet_mdio_event(&f->m, 1000001));
	/* A write frame leaves MMFR as written. */
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 1000001),
			 C22_WRITE(PHY_ADDR, 4, 0x01E1));
	enet_mdio_get_stats(&f->m, &st);
	assert_int_equal(ethdrv_counter_get(&st.frames_done), 1);
	assert_int_equal(ethdrv_counter_get(&st.bus_ns), 25600);
}

static void test_mmfr_needs_mscr(void **state)
{
	struct fixture *f = *state;
	struct enet_mdio_stats st;

	/* docs/mdio.md §3.2: with MSCR[7:0] = 0 an MMFR write only stores. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 0);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), ENET_MDIO_NEVER);
	assert_false(enet_mdio_event(&f->m, 10000000));
	/* ... and the MSCR write (0 -> non-zero) then sends it. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 20000000);
	assert_true(enet_mdio_event(&f->m, 20025600));
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 20025600) & 0xFFFF, 0x004D);
	/* A second MSCR write (non-zero -> non-zero) starts nothing. */
	enet_mdio_event_ack(&f->m, 20025600);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5 | DIS_PRE, 20030000);
	assert_false(enet_mdio_event(&f->m, 30000000));
	enet_mdio_get_stats(&f->m, &st);
	assert_int_equal(ethdrv_counter_get(&st.mmfr_stored), 1);
	assert_int_equal(ethdrv_counter_get(&st.mscr_frames), 1);
}

/* The 2020 failure (docs/napi.md §6.2): after a reset MSCR is 0 but MMFR
 * still holds the last frame; the MSCR write sends it again and raises an
 * event a naive poll takes for its own completion. */
static void test_mscr_quirk(void **state)
{
	struct fixture *f = *state;
	uint32_t mmfr;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 3), 0, 25600);
	enet_mdio_reset(&f->m, 100000);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MSCR, 100000), 0);
	assert_int_not_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 100000), 0);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 200000);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), 225600);
	/* A naive read of PHYSID1 much later: write MMFR, see the stale event
	 * at once, take MMFR's data: it is not the register it asked for. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 1000000);
	assert_true(enet_mdio_event(&f->m, 1000001));
	mmfr = enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 1000001);
	assert_int_not_equal(mmfr & 0xFFFF, 0x004D);
	/* Clearing the event before the start (the fix) gives the right data. */
	enet_mdio_event_ack(&f->m, 2000000);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 2000000);
	assert_false(enet_mdio_event(&f->m, 2025599));
	assert_true(enet_mdio_event(&f->m, 2025600));
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 2025600) & 0xFFFF, 0x004D);
}

/* Linux's init order (MMFR = 0 before MSCR) avoids the frame; with the
 * quirk switched off the MSCR write never starts one. */
static void test_mscr_quirk_avoided(void **state)
{
	struct fixture *f = *state;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 3), 0);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, 0, 10);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 20);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), ENET_MDIO_NEVER);
	assert_false(enet_mdio_event(&f->m, 1000000));
}

static void test_mscr_quirk_off(void **state)
{
	struct fixture *f = *state;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 3), 0);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 20);
	assert_false(enet_mdio_event(&f->m, 1000000));
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 3), 2000000, 25600);
}

/* docs/mdio.md §3.3: a write during a frame alters the bits not yet sent. */
static void test_busy_write(void **state)
{
	struct fixture *f = *state;
	struct enet_mdio_stats st;
	uint32_t late = C22_READ(PHY_ADDR, 3), early = C22_READ(5, 3);

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	/* After preamble + ST OP PA RA (32 + 14 cycles of 400 ns) the register
	 * address is on the wire: the device still reads register 2. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 0);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, late, 46 * 400);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), 25600);
	assert_true(enet_mdio_event(&f->m, 25600));
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 25600), late | 0x004D);
	enet_mdio_event_ack(&f->m, 25600);
	/* Written during the preamble, the whole frame is the new one: address 5
	 * is empty, so the read returns the pull-up. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 100000);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, early, 100000 + 10 * 400);
	assert_true(enet_mdio_event(&f->m, 125600));
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 125600), early | 0xFFFF);
	enet_mdio_get_stats(&f->m, &st);
	assert_int_equal(ethdrv_counter_get(&st.busy_writes), 2);
	assert_int_equal(ethdrv_counter_get(&st.frames_done), 2);
}

static void test_mdc_change_mid_frame(void **state)
{
	struct fixture *f = *state;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 0);
	/* 32 cycles at 400 ns, then 32 at 200 ns (MII_SPEED 4 at 50 MHz). */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, 4u << 1, 12800);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), 12800 + 6400);
	assert_true(enet_mdio_event(&f->m, 19200));
	enet_mdio_event_ack(&f->m, 19200);
	/* MII_SPEED 0 stops MDC: a frame started through DIS_PRE waits. */
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, DIS_PRE, 20000);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 20000);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), ENET_MDIO_NEVER);
	assert_false(enet_mdio_event(&f->m, 50000000));
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5 | DIS_PRE, 50000000);
	assert_int_equal(enet_mdio_deadline_ns(&f->m), 50012800);
	assert_true(enet_mdio_event(&f->m, 50012800));
}

static void test_reset_aborts(void **state)
{
	struct fixture *f = *state;
	struct enet_mdio_stats st;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5 | (1u << 8), 0);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MSCR, 0), MSCR_2M5 | (1u << 8));
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, 0xFFFFFFFFu, 0);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MSCR, 0), 0x7FE);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MMFR, C22_READ(PHY_ADDR, 2), 0);
	enet_mdio_reset(&f->m, 1000);
	assert_false(enet_mdio_event(&f->m, 1000000));
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MSCR, 1000000), 0);
	enet_mdio_get_stats(&f->m, &st);
	assert_int_equal(ethdrv_counter_get(&st.frames_aborted), 1);
	assert_int_equal(ethdrv_counter_get(&st.frames_done), 0);
}

/* docs/mdio.md §1.3: nobody drives the data: the pull-up reads all ones. */
static void test_missing_device_and_bad_frames(void **state)
{
	struct fixture *f = *state;
	struct mdio_emu_stats st;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	check_frame_time(&f->m, C22_READ(7, 2), 0, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 25600) & 0xFFFF, 0xFFFF);
	/* TA other than 10: no device answers, the read sees the pull-up. */
	check_frame_time(&f->m, C22_READ(PHY_ADDR, 2) & ~0x30000u, 100000, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 125600) & 0xFFFF, 0xFFFF);
	/* Clause-22 opcode 11 is no frame either. */
	check_frame_time(&f->m, 0x70020000u | PHY_ADDR << 23 | 2u << 18, 200000, 25600);
	/* Clause 45 to a clause-22-only PHY: nobody answers. */
	check_frame_time(&f->m, C45(0, PHY_ADDR, 3, 0x14), 300000, 25600);
	check_frame_time(&f->m, C45(3, PHY_ADDR, 3, 0), 400000, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 425600) & 0xFFFF, 0xFFFF);
	mdio_emu_get_stats(f->bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.frames), 5);
	assert_int_equal(ethdrv_counter_get(&st.bad_frames), 2);
	assert_int_equal(ethdrv_counter_get(&st.no_device), 3);
}

static void test_clause45(void **state)
{
	struct fixture *f = *state;

	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	/* Address frame, then read: MMD7 0x3C (EEE advertisement) = 0x0006. */
	check_frame_time(&f->m, C45(0, PHY_ADDR, 7, 0x3C), 0, 25600);
	check_frame_time(&f->m, C45(3, PHY_ADDR, 7, 0), 100000, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 125600) & 0xFFFF, 0x0006);
	/* Write 0x1234 at 0x3D, read back with read-increment twice. */
	check_frame_time(&f->m, C45(0, PHY_ADDR, 7, 0x3D), 200000, 25600);
	check_frame_time(&f->m, C45(1, PHY_ADDR, 7, 0x1234), 300000, 25600);
	check_frame_time(&f->m, C45(0, PHY_ADDR, 7, 0x3C), 400000, 25600);
	check_frame_time(&f->m, C45(2, PHY_ADDR, 7, 0), 500000, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 525600) & 0xFFFF, 0x0006);
	check_frame_time(&f->m, C45(2, PHY_ADDR, 7, 0), 600000, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 625600) & 0xFFFF, 0x1234);
}

/* A device without preamble suppression ignores frames without preamble. */
static uint16_t plain_read(void *dev, unsigned reg, uint64_t now)
{
	return 0x1234;
}

static void plain_write(void *dev, unsigned reg, uint16_t val, uint64_t now)
{
}

static void test_preamble_required(void **state)
{
	static const struct mdio_emu_dev_ops plain = { .c22_read = plain_read,
						       .c22_write = plain_write };
	struct fixture *f = *state;
	struct mdio_emu_stats st;

	assert_int_equal(mdio_emu_attach(f->bus, 9, &plain, NULL, 0), 0);
	assert_int_equal(mdio_emu_attach(f->bus, 9, &plain, NULL, 0), -EBUSY);
	assert_int_equal(mdio_emu_attach(f->bus, 32, &plain, NULL, 0), -EINVAL);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5, 0);
	check_frame_time(&f->m, C22_READ(9, 0), 0, 25600);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 25600) & 0xFFFF, 0x1234);
	enet_mdio_write(&f->m, ENET_MDIO_REG_MSCR, MSCR_2M5 | DIS_PRE, 30000);
	check_frame_time(&f->m, C22_READ(9, 0), 30000, 12800);
	assert_int_equal(enet_mdio_read(&f->m, ENET_MDIO_REG_MMFR, 42800) & 0xFFFF, 0xFFFF);
	mdio_emu_get_stats(f->bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.no_preamble_ignored), 1);
	mdio_emu_detach(f->bus, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_frame_time_2m5, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_time_no_preamble, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_time_66mhz, setup_66mhz, teardown),
		cmocka_unit_test_setup_teardown(test_event_w1c, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mmfr_needs_mscr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mscr_quirk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mscr_quirk_avoided, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mscr_quirk_off, setup_no_quirk, teardown),
		cmocka_unit_test_setup_teardown(test_busy_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mdc_change_mid_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_aborts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_device_and_bad_frames, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_clause45, setup_c45, teardown),
		cmocka_unit_test_setup_teardown(test_preamble_required, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
