// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the AR8031 PHY model and the wire between two of
 * them (docs/mdio.md §2, §5, §6, §8) on the virtual clock, and of the
 * switch-like block (docs/mdio.md §9). Register values are literal numbers from IEEE
 * 802.3 clause 22/40 and the AR8031 register list, not the model's names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "emu/mdio_emu.h"
#include "emu/phy_emu.h"
#include "emu/switch_emu.h"

#define S 1000000000ull /* one second in ns */
#define MS 1000000ull
#define ANEG (3 * S) /* the model's default autoneg time */

struct fixture {
	struct phy_emu_wire *wire;
	struct phy_emu *a, *b;
};

static int setup_cfg(void **state, const struct phy_emu_config *cfg)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(phy_emu_wire_new(false, &f->wire), 0);
	assert_int_equal(phy_emu_new(cfg, f->wire, 0, &f->a), 0);
	assert_int_equal(phy_emu_new(cfg, f->wire, 0, &f->b), 0);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_cfg(state, NULL);
}

static int setup_slow_restart(void **state)
{
	struct phy_emu_config cfg;

	phy_emu_config_default(&cfg);
	cfg.anrestart_ns = 10 * MS;
	return setup_cfg(state, &cfg);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	phy_emu_free(f->a);
	phy_emu_free(f->b);
	phy_emu_wire_free(f->wire);
	free(f);
	return 0;
}

static uint16_t rd(struct phy_emu *p, unsigned reg, uint64_t t)
{
	return phy_emu_dev_ops()->c22_read(p, reg, t);
}

static void wr(struct phy_emu *p, unsigned reg, uint16_t v, uint64_t t)
{
	phy_emu_dev_ops()->c22_write(p, reg, v, t);
}

static bool line_asserted(struct phy_emu *p)
{
	struct pollfd pfd = { .fd = phy_emu_irq_fd(p), .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

static void test_ids_and_reset_values(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(rd(f->a, 2, 0), 0x004D);
	assert_int_equal(rd(f->a, 3, 0), 0xD074);
	assert_int_equal(rd(f->a, 0, 0), 0x1140);
	assert_int_equal(rd(f->a, 1, 0), 0x7949);
	assert_int_equal(rd(f->a, 4, 0), 0x1DE1);
	assert_int_equal(rd(f->a, 9, 0), 0x0200);
	assert_int_equal(rd(f->a, 15, 0), 0x2000);
	assert_int_equal(rd(f->a, 5, 0), 0);
	assert_int_equal(rd(f->a, 10, 0), 0);
	/* ID registers are read-only. */
	wr(f->a, 2, 0x1234, 0);
	assert_int_equal(rd(f->a, 2, 0), 0x004D);
}

/* Both PHYs autonegotiate from power-up: 1000 full, after exactly aneg_ns. */
static void test_autoneg_timing_and_resolution(void **state)
{
	struct fixture *f = *state;
	struct phy_emu_link la, lb;

	assert_int_equal(phy_emu_wire_next_ns(f->wire), ANEG);
	assert_int_equal(rd(f->a, 1, ANEG - 1), 0x7949);
	assert_false(phy_emu_wire_link_up(f->wire, ANEG - 1));
	assert_int_equal(rd(f->a, 1, ANEG), 0x796D); /* + LSTATUS + ANEGCOMPLETE */
	assert_true(phy_emu_wire_link_up(f->wire, ANEG));
	/* Partner's ANAR abilities with ACK; STAT1000: LP 1000F, receivers OK,
	 * the first PHY is master (tie of automatic ports). */
	assert_int_equal(rd(f->a, 5, ANEG), 0x4DE1);
	assert_int_equal(rd(f->a, 10, ANEG), 0x7800);
	assert_int_equal(rd(f->b, 10, ANEG), 0x3800);
	/* PHY-specific status: 1000, full, resolved, link. */
	assert_int_equal(rd(f->a, 0x11, ANEG), 0xAC00);
	/* ANER: LP autoneg able, page received (latched high), NP able. */
	assert_int_equal(rd(f->a, 6, ANEG), 0x0007);
	assert_int_equal(rd(f->a, 6, ANEG), 0x0005);
	phy_emu_get_link(f->a, ANEG, &la);
	phy_emu_get_link(f->b, ANEG, &lb);
	assert_true(la.up && lb.up);
	assert_int_equal(la.speed_mbps, 1000);
	assert_true(la.full_duplex && la.master && !lb.master);
}

/* IEEE 22.2.4.2.13: a failure shows once; the next read is current. */
static void test_latched_low_bmsr(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;

	assert_int_equal(rd(f->a, 1, t), 0x796D);
	phy_emu_wire_set_cable(f->wire, false, t + MS);
	phy_emu_wire_set_cable(f->wire, true, t + 2 * MS);
	/* Back up aneg_ns after the cable returned. */
	t += 2 * MS + ANEG;
	assert_true(phy_emu_wire_link_up(f->wire, t));
	assert_int_equal(rd(f->a, 1, t), 0x7969); /* the drop, latched */
	assert_int_equal(rd(f->a, 1, t), 0x796D); /* now */
	/* A PHY that reads BMSR while the link is down sees 0 both times. */
	phy_emu_wire_set_cable(f->wire, false, t + S);
	assert_int_equal(rd(f->b, 1, t + S) & 0x0004, 0);
	assert_int_equal(rd(f->b, 1, t + S) & 0x0004, 0);
	assert_int_equal(rd(f->b, 5, t + S), 0);
}

static void test_reset_self_clears(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;
	struct phy_emu_stats st;

	wr(f->a, 4, 0x0061, t); /* ANAR: 10 full/half only */
	wr(f->a, 0, 0x8000, t + 1);
	assert_int_equal(rd(f->a, 0, t + 1), 0x9140);
	assert_int_equal(rd(f->a, 0, t + 1 + MS - 1), 0x9140);
	/* Writes during the reset are ignored. */
	wr(f->a, 0x10, 0x0123, t + 2);
	assert_int_equal(rd(f->a, 0, t + 1 + MS), 0x1140);
	assert_int_equal(rd(f->a, 0x10, t + 1 + MS), 0);
	assert_int_equal(rd(f->a, 4, t + 1 + MS), 0x1DE1); /* back to its reset value */
	/* The link dropped at the reset and retrains after it. */
	assert_false(phy_emu_wire_link_up(f->wire, t + 1 + MS + ANEG - 1));
	assert_true(phy_emu_wire_link_up(f->wire, t + 1 + MS + ANEG));
	phy_emu_get_stats(f->a, &st);
	assert_int_equal(ethdrv_counter_get(&st.resets), 1);
	assert_int_equal(ethdrv_counter_get(&st.writes_ignored), 1);
}

/* RESET_N: at least 10 ms low for a reliable reset (AR8031 datasheet, docs/mdio.md §8.4). */
static void test_hw_reset_pin(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;
	struct phy_emu_stats st;

	assert_true(phy_emu_wire_link_up(f->wire, t));
	wr(f->a, 4, 0x0061, t);
	/* Held: the chip does not drive MDIO (the bus reads its pull-up), no link. */
	phy_emu_set_reset_pin(f->a, true, t);
	assert_int_equal(rd(f->a, 2, t + 1), 0xFFFF);
	wr(f->a, 0x10, 0x0123, t + 2);
	assert_false(phy_emu_wire_link_up(f->wire, t + 3));
	/* Released after 9.999 ms: not a reset, the registers keep their values. */
	phy_emu_set_reset_pin(f->a, false, t + 10 * MS - 1);
	assert_int_equal(rd(f->a, 4, t + 10 * MS), 0x0061);
	assert_int_equal(rd(f->a, 0x10, t + 10 * MS), 0);
	/* Held 10 ms: every register back at its reset value, the link trains again. */
	phy_emu_set_reset_pin(f->a, true, t + 20 * MS);
	phy_emu_set_reset_pin(f->a, false, t + 30 * MS);
	assert_int_equal(rd(f->a, 4, t + 30 * MS), 0x1DE1);
	assert_int_equal(rd(f->a, 2, t + 30 * MS), 0x004D);
	assert_false(phy_emu_wire_link_up(f->wire, t + 30 * MS + ANEG - 1));
	assert_true(phy_emu_wire_link_up(f->wire, t + 30 * MS + ANEG));
	phy_emu_get_stats(f->a, &st);
	assert_int_equal(ethdrv_counter_get(&st.hw_resets), 1);
	assert_int_equal(ethdrv_counter_get(&st.hw_resets_short), 1);
	assert_int_equal(ethdrv_counter_get(&st.writes_ignored), 1);
}

static void test_aneg_restart(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;

	assert_true(phy_emu_wire_link_up(f->wire, t));
	wr(f->a, 0, 0x1340, t); /* ANENABLE | ANRESTART | FULLDPLX | SPEED1000 */
	assert_int_equal(rd(f->a, 0, t), 0x1140); /* ANRESTART self-cleared */
	assert_false(phy_emu_wire_link_up(f->wire, t));
	assert_int_equal(rd(f->a, 1, t) & 0x0024, 0);
	assert_false(phy_emu_wire_link_up(f->wire, t + ANEG - 1));
	assert_true(phy_emu_wire_link_up(f->wire, t + ANEG));
}

/* With anrestart_ns set, BMCR shows ANRESTART for that long. */
static void test_anrestart_visible(void **state)
{
	struct fixture *f = *state;

	wr(f->a, 0, 0x1340, 5 * S);
	assert_int_equal(rd(f->a, 0, 5 * S + 10 * MS - 1), 0x1340);
	assert_int_equal(rd(f->a, 0, 5 * S + 10 * MS), 0x1140);
}

/* docs/mdio.md §6: the highest common mode. */
static void test_resolution_100(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;
	struct phy_emu_link l;

	wr(f->b, 9, 0x0000, t); /* no gigabit */
	wr(f->b, 4, 0x0181, t); /* 100 full/half */
	wr(f->b, 0, 0x1340, t);
	t += ANEG;
	phy_emu_get_link(f->a, t, &l);
	assert_true(l.up);
	assert_int_equal(l.speed_mbps, 100);
	assert_true(l.full_duplex);
	assert_int_equal(rd(f->a, 5, t), 0x4181);
	assert_int_equal(rd(f->a, 10, t), 0); /* no 1000 pages, no receiver bits */
	assert_int_equal(rd(f->a, 0x11, t), 0x6C00);
	/* 10 half only on B: 10 half. */
	wr(f->b, 4, 0x0021, t);
	wr(f->b, 0, 0x1340, t);
	phy_emu_get_link(f->a, t + ANEG, &l);
	assert_int_equal(l.speed_mbps, 10);
	assert_false(l.full_duplex);
	/* Nothing in common: no link. */
	wr(f->b, 4, 0x0001, t + ANEG);
	wr(f->b, 0, 0x1340, t + ANEG);
	assert_false(phy_emu_wire_link_up(f->wire, t + 3 * ANEG));
}

static void test_master_slave(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;
	struct phy_emu_link l;

	/* B manual master: B is master. */
	wr(f->b, 9, 0x1A00, t);
	wr(f->b, 0, 0x1340, t);
	phy_emu_get_link(f->b, t + ANEG, &l);
	assert_true(l.up && l.master);
	assert_int_equal(rd(f->a, 10, t + ANEG), 0x3800);
	/* Both manual master: a fault, no link, STAT1000.15 on both. */
	wr(f->a, 9, 0x1A00, t + ANEG);
	wr(f->a, 0, 0x1340, t + ANEG);
	assert_false(phy_emu_wire_link_up(f->wire, t + 3 * ANEG));
	assert_int_equal(rd(f->a, 10, t + 3 * ANEG) & 0x8000, 0x8000);
	assert_int_equal(rd(f->b, 10, t + 3 * ANEG) & 0x8000, 0x8000);
}

static void test_forced_and_parallel(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;
	struct phy_emu_link l;

	/* Both forced 100 full: up after forced_link_ns (50 ms). */
	wr(f->a, 0, 0x2100, t);
	wr(f->b, 0, 0x2100, t);
	assert_false(phy_emu_wire_link_up(f->wire, t + 50 * MS - 1));
	assert_true(phy_emu_wire_link_up(f->wire, t + 50 * MS));
	assert_int_equal(rd(f->a, 1, t + 50 * MS) & 0x0024, 0); /* the retrain, latched */
	assert_int_equal(rd(f->a, 1, t + 50 * MS) & 0x0024, 0x0004); /* link, no AN complete */
	/* A autonegotiates, B forced 100 full: parallel detection, A half. */
	t += S;
	wr(f->a, 0, 0x1340, t);
	phy_emu_get_link(f->a, t + ANEG, &l);
	assert_true(l.up);
	assert_int_equal(l.speed_mbps, 100);
	assert_false(l.full_duplex);
	phy_emu_get_link(f->b, t + ANEG, &l);
	assert_true(l.full_duplex);
	/* Forced 1000 needs autoneg: no link. */
	wr(f->a, 0, 0x0140, t + ANEG);
	wr(f->b, 0, 0x0140, t + ANEG);
	assert_false(phy_emu_wire_link_up(f->wire, t + 2 * ANEG));
}

static void test_interrupt_status_and_line(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;

	/* Events before enabling are latched but do not assert the line. */
	assert_false(line_asserted(f->a));
	assert_int_equal(rd(f->a, 0x13, t), 0x1400); /* page received + link up */
	assert_int_equal(rd(f->a, 0x13, t), 0); /* clear on read */
	wr(f->a, 0x12, 0xEC00, t);
	assert_int_equal(rd(f->a, 0x12, t), 0xEC00);
	phy_emu_wire_set_cable(f->wire, false, t + MS);
	assert_true(line_asserted(f->a));
	assert_int_equal(rd(f->a, 0x13, t + MS), 0x0800); /* link fail */
	assert_false(line_asserted(f->a));
	phy_emu_wire_set_cable(f->wire, true, t + 2 * MS);
	phy_emu_wire_advance(f->wire, t + 2 * MS + ANEG);
	assert_true(line_asserted(f->a));
	assert_int_equal(rd(f->a, 0x13, t + 2 * MS + ANEG), 0x1400);
	assert_false(line_asserted(f->a));
	/* Speed change shows in the status. */
	wr(f->b, 9, 0, t + 5 * S);
	wr(f->b, 0, 0x1340, t + 5 * S);
	assert_int_equal(rd(f->a, 0x13, t + 5 * S), 0x0800);
	phy_emu_wire_advance(f->wire, t + 5 * S + ANEG);
	assert_int_equal(rd(f->a, 0x13, t + 5 * S + ANEG), 0x5400);
}

/* docs/mdio.md §2.3: indirect MMD access through registers 13 and 14. */
static void test_mmd_indirect(void **state)
{
	struct fixture *f = *state;

	wr(f->a, 13, 0x0007, 0);
	wr(f->a, 14, 0x003C, 0);
	assert_int_equal(rd(f->a, 14, 0), 0x003C); /* function 00 reads the address */
	wr(f->a, 13, 0x4007, 0);
	assert_int_equal(rd(f->a, 14, 0), 0x0006);
	assert_int_equal(rd(f->a, 14, 0), 0x0006); /* no increment */
	/* Post-increment on write only: two writes land at 0x100 and 0x101. */
	wr(f->a, 13, 0x0003, 0);
	wr(f->a, 14, 0x0100, 0);
	wr(f->a, 13, 0xC003, 0);
	wr(f->a, 14, 0xAAAA, 0);
	wr(f->a, 14, 0xBBBB, 0);
	assert_int_equal(rd(f->a, 14, 0), 0); /* 0x102, never written */
	/* Post-increment on read and write from 0x100. */
	wr(f->a, 13, 0x0003, 0);
	wr(f->a, 14, 0x0100, 0);
	wr(f->a, 13, 0x8003, 0);
	assert_int_equal(rd(f->a, 14, 0), 0xAAAA);
	assert_int_equal(rd(f->a, 14, 0), 0xBBBB);
	assert_int_equal(rd(f->a, 14, 0), 0);
	/* The EEE capability in MMD 3. */
	wr(f->a, 13, 0x0003, 0);
	wr(f->a, 14, 0x0014, 0);
	wr(f->a, 13, 0x4003, 0);
	assert_int_equal(rd(f->a, 14, 0), 0x0006);
}

static void test_power_down(void **state)
{
	struct fixture *f = *state;
	uint64_t t = 10 * S;

	wr(f->a, 0, 0x1940, t); /* + PDOWN */
	assert_false(phy_emu_wire_link_up(f->wire, t + 2 * ANEG));
	wr(f->a, 0, 0x1140, t + 2 * ANEG);
	assert_true(phy_emu_wire_link_up(f->wire, t + 3 * ANEG));
}

static void test_wire_full(void **state)
{
	struct fixture *f = *state;
	struct phy_emu *c;

	assert_int_equal(phy_emu_new(NULL, f->wire, 0, &c), -EBUSY);
}

/* docs/mdio.md §9: indirect access through SMI command/data, with BUSY. */
static void test_switch(void **state)
{
	struct switch_emu_config cfg;
	struct switch_emu *sw;
	struct mdio_emu *bus;
	struct switch_emu_stats st;
	uint32_t cmd_w = 0x50020000u | 0x10u << 23; /* C22 write to reg 0 at address 0x10 */
	uint32_t data_w = 0x50020000u | 0x10u << 23 | 1u << 18;
	uint32_t cmd_r = 0x60020000u | 0x10u << 23, data_r = cmd_r | 1u << 18;

	switch_emu_config_default(&cfg);
	cfg.busy_ns = 1000;
	assert_int_equal(mdio_emu_new(&bus), 0);
	assert_int_equal(switch_emu_new(&cfg, &sw), 0);
	assert_int_equal(switch_emu_attach(sw, bus, 0x10), 0);
	/* Read port 0x11's switch identifier. */
	mdio_emu_transfer(bus, cmd_w | 0x9800 | 0x11 << 5 | 3, true, 0);
	assert_int_equal(mdio_emu_transfer(bus, cmd_r, true, 500) & 0x8000, 0x8000);
	assert_int_equal(mdio_emu_transfer(bus, cmd_r, true, 1000) & 0x8000, 0);
	assert_int_equal(mdio_emu_transfer(bus, data_r, true, 1000), 0x3521);
	/* Write global register 0x1B/4, read it back. */
	mdio_emu_transfer(bus, data_w | 0xC001, true, 2000);
	mdio_emu_transfer(bus, cmd_w | 0x9400 | 0x1B << 5 | 4, true, 2000);
	mdio_emu_transfer(bus, cmd_w | 0x9400 | 0x1B << 5 | 5, true, 2500); /* while busy */
	assert_int_equal(switch_emu_peek(sw, 0x1B, 4), 0xC001);
	assert_int_equal(switch_emu_peek(sw, 0x1B, 5), 0);
	mdio_emu_transfer(bus, cmd_w | 0x9800 | 0x1B << 5 | 4, true, 4000);
	assert_int_equal(mdio_emu_transfer(bus, data_r, true, 5000), 0xC001);
	/* Clause-45 mode is not supported; the ID register ignores writes. */
	mdio_emu_transfer(bus, cmd_w | 0x8400 | 0x11 << 5 | 3, true, 6000);
	mdio_emu_transfer(bus, cmd_w | 0x9400 | 0x11 << 5 | 3, true, 8000);
	assert_int_equal(switch_emu_peek(sw, 0x11, 3), 0x3521);
	switch_emu_get_stats(sw, &st);
	assert_int_equal(ethdrv_counter_get(&st.busy_errors), 1);
	assert_int_equal(ethdrv_counter_get(&st.bad_commands), 1);
	assert_int_equal(ethdrv_counter_get(&st.busy_polls), 1);
	assert_int_equal(ethdrv_counter_get(&st.reads), 2);
	assert_int_equal(ethdrv_counter_get(&st.writes), 2);
	mdio_emu_detach(bus, 0x10);
	switch_emu_free(sw);
	mdio_emu_free(bus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ids_and_reset_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_autoneg_timing_and_resolution, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_latched_low_bmsr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_self_clears, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hw_reset_pin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aneg_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anrestart_visible, setup_slow_restart,
						teardown),
		cmocka_unit_test_setup_teardown(test_resolution_100, setup, teardown),
		cmocka_unit_test_setup_teardown(test_master_slave, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forced_and_parallel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_status_and_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mmd_indirect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_power_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wire_full, setup, teardown),
		cmocka_unit_test(test_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
