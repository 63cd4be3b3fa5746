// SPDX-License-Identifier: MIT
/*
 * The MDIO bus core (mdio.h, docs/mdio.md §4) against a controller built on
 * the ENET MDIO block in real time (enet_mdio_sim), the bus model and two
 * AR8031 models: each completion mode returns the right data, the stale
 * event of seed 003 is avoided (and detected when a controller fails to
 * clear it), errors are clear and counted, and the accounting adds up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "emu/mdio_rig.h"
#include "ethdrv/mdio.h"
#include "ethdrv/stats.h"

#define PHY_ADDR 1u
#define MSCR_2M5 MDIO_RIG_MSCR_2M5

struct fixture {
	struct mdio_rig r; /* controller, bus model, the PHY and its partner */
	int other_fd; /* a second "interrupt source" on a shared line */
};

static void sleep_us(unsigned us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000 };

	nanosleep(&ts, NULL);
}

static int setup_with(void **state, const struct ethdrv_mdio_ops *ops, bool c45, uint32_t ipg_hz)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct phy_emu_config pc;

	assert_non_null(f);
	phy_emu_config_default(&pc);
	pc.c45_native = c45;
	assert_int_equal(mdio_rig_setup(&f->r, &(struct mdio_rig_config){ .phy_addr = PHY_ADDR,
									  .phy = &pc,
									  .ops = ops,
									  .c45 = c45,
									  .ipg_hz = ipg_hz }),
			 0);
	f->other_fd = -1;
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_with(state, &enet_mdio_sim_ops, false, 0);
}

static int setup_c45(void **state)
{
	return setup_with(state, &enet_mdio_sim_ops, true, 0);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	mdio_rig_teardown(&f->r);
	if (f->other_fd >= 0)
		close(f->other_fd);
	free(f);
	return 0;
}

static void read_ids(struct ethdrv_mdio_bus *bus)
{
	uint16_t v;

	assert_int_equal(ethdrv_mdio_read(bus, PHY_ADDR, 2, &v), 0);
	assert_int_equal(v, 0x004D);
	assert_int_equal(ethdrv_mdio_read(bus, PHY_ADDR, 3, &v), 0);
	assert_int_equal(v, 0xD074);
	assert_int_equal(ethdrv_mdio_write(bus, PHY_ADDR, 4, 0x0DE1), 0);
	assert_int_equal(ethdrv_mdio_read(bus, PHY_ADDR, 4, &v), 0);
	assert_int_equal(v, 0x0DE1);
	assert_int_equal(ethdrv_mdio_write(bus, PHY_ADDR, 4, 0x1DE1), 0);
}

/* Every mode and a spread of delays returns the registers' values. */
static void test_modes_return_data(void **state)
{
	static const struct {
		enum ethdrv_mdio_mode mode;
		unsigned delay;
	} cases[] = {
		{ ETHDRV_MDIO_MODE_SLEEP, 0 },	{ ETHDRV_MDIO_MODE_SLEEP, 1 },
		{ ETHDRV_MDIO_MODE_SLEEP, 10 }, { ETHDRV_MDIO_MODE_ATOMIC, 0 },
		{ ETHDRV_MDIO_MODE_ATOMIC, 2 }, { ETHDRV_MDIO_MODE_ATOMIC, 10 },
		{ ETHDRV_MDIO_MODE_IRQ, 2 },
	};
	struct fixture *f = *state;
	struct ethdrv_mdio_stats st;
	struct ethdrv_mdio_xfer x;

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(cases); i++) {
		assert_int_equal(ethdrv_mdio_set_mode(f->r.bus, cases[i].mode, cases[i].delay), 0);
		/* irq mode routes EIR.MII to the line (EIMR), the others do not. */
		assert_int_equal(enet_mdio_sim_read32(f->r.sim, ENET_MDIO_SIM_REG_EIMR),
				 cases[i].mode == ETHDRV_MDIO_MODE_IRQ ? ENET_MDIO_EIR_MII : 0);
		read_ids(f->r.bus);
		ethdrv_mdio_last_xfer(f->r.bus, &x);
		assert_true(x.polls >= 1);
		/* A frame cannot end before 25.6 us of MDC. */
		assert_true(x.wait_ns >= 25600);
	}
	ethdrv_mdio_get_stats(f->r.bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.frames), 5 * ETHDRV_ARRAY_SIZE(cases));
	assert_int_equal(ethdrv_counter_get(&st.c22_reads), 3 * ETHDRV_ARRAY_SIZE(cases));
	assert_int_equal(ethdrv_counter_get(&st.c22_writes), 2 * ETHDRV_ARRAY_SIZE(cases));
	/* irq mode slept on the line (unless preempted past every frame end). */
	assert_true(ethdrv_counter_get(&st.irq_waits) >= 1);
	assert_int_equal(ethdrv_counter_get(&st.timeouts), 0);
	assert_int_equal(ethdrv_counter_get(&st.stale_events), 0);
}

static void test_stats_registered(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_stats_set *set;
	uint64_t frames, polls;
	char buf[8192];

	read_ids(f->r.bus);
	assert_int_equal(ethdrv_stats_set_new(&set), 0);
	assert_int_equal(ethdrv_mdio_register_stats(f->r.bus, set), 0);
	assert_int_equal(ethdrv_stats_get(set, "mdio_frames", &frames), 0);
	assert_int_equal(frames, 5);
	assert_int_equal(ethdrv_stats_get(set, "mdio_polls", &polls), 0);
	assert_true(polls >= 5);
	assert_true(ethdrv_stats_dump(set, ETHDRV_STATS_JSON, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\"mdio_frame_wait_ns\""));
	assert_non_null(strstr(buf, "\"mdio_frame_polls\""));
	ethdrv_stats_set_free(set);
}

/*
 * Holding the MDC: a frame written to MMFR while MSCR is 0 waits there and
 * goes out when MSCR turns non-zero again (docs/mdio.md §3.2), so a test
 * can keep a started frame from ending for as long as it needs, however
 * slowly the host runs. Hold before the start, release after it.
 */
static uint32_t held_mscr; /* MSCR to give back; 0 while the MDC runs */

static void mdc_hold(struct enet_mdio_sim *sim)
{
	held_mscr = enet_mdio_sim_read32(sim, ENET_MDIO_REG_MSCR);
	enet_mdio_sim_write32(sim, ENET_MDIO_REG_MSCR, 0);
}

static void mdc_release(struct enet_mdio_sim *sim)
{
	if (held_mscr)
		enet_mdio_sim_write32(sim, ENET_MDIO_REG_MSCR, held_mscr);
	held_mscr = 0;
}

/* Seed 003 / docs/mdio.md §4.2: an MSCR write after a reset re-sends MMFR
 * and leaves an MII event; the bus clears it before its own start. */
static void test_stale_event_avoided(void **state)
{
	struct fixture *f = *state;
	uint16_t v;

	assert_int_equal(ethdrv_mdio_read(f->r.bus, PHY_ADDR, 3, &v), 0);
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_SIM_REG_EIR, ENET_MDIO_EIR_MII);
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 0); /* as after ECR.RESET */
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, MSCR_2M5);
	sleep_us(200);
	assert_int_equal(enet_mdio_sim_read32(f->r.sim, ENET_MDIO_SIM_REG_EIR), ENET_MDIO_EIR_MII);
	for (int mode = ETHDRV_MDIO_MODE_SLEEP; mode <= ETHDRV_MDIO_MODE_IRQ; mode++) {
		assert_int_equal(ethdrv_mdio_set_mode(f->r.bus, mode, 0), 0);
		assert_int_equal(ethdrv_mdio_read(f->r.bus, PHY_ADDR, 2, &v), 0);
		assert_int_equal(v, 0x004D);
		/* Leave a stale event for the next mode. */
		enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 0);
		enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, MSCR_2M5);
		sleep_us(200);
	}
}

/* A controller that clears the event only after a completion, as the
 * first polled fec version did (docs/mdio.md §4.2): it ignores the clear
 * that comes before a start. Without the frame-time check a read then
 * returns the wrong register; with it, the stale event is seen too early,
 * counted, cleared and the real completion awaited. */
static bool broken_in_frame; /* a frame was started since the last clear */
static bool broken_hold; /* hold the MDC once a frame has started */

static int broken_ack(void *ctx)
{
	if (!broken_in_frame)
		return 0;
	broken_in_frame = false;
	return enet_mdio_sim_ops.ack_event(ctx);
}

static int broken_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	broken_in_frame = true;
	if (broken_hold)
		mdc_hold(ctx);
	return enet_mdio_sim_ops.start(ctx, f);
}

static int broken_test(void *ctx, bool *done)
{
	return enet_mdio_sim_ops.test_event(ctx, done);
}

static int broken_read(void *ctx, uint16_t *val)
{
	return enet_mdio_sim_ops.read_data(ctx, val);
}

static const struct ethdrv_mdio_ops broken_ops = {
	.ack_event = broken_ack,
	.start = broken_start,
	.test_event = broken_test,
	.read_data = broken_read,
};

/* A module clock of 500 kHz: 16.4 ms frames at MII_SPEED 63, 100 times the
 * chip's slowest MDC, so that the frame-time check below sees an early
 * event even from a host slowed down by valgrind or preempted on a loaded
 * machine (the check compares real time with the frame time). */
#define SLOW_IPG_HZ 500000u

static int setup_broken(void **state)
{
	return setup_with(state, &broken_ops, false, SLOW_IPG_HZ);
}

static void test_stale_event_detected(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_mdio_stats st;
	unsigned two_frames_us;
	uint16_t v;

	broken_in_frame = false;
	broken_hold = false;
	assert_int_equal(ethdrv_mdio_set_mode(f->r.bus, ETHDRV_MDIO_MODE_ATOMIC, 0), 0);
	/* An event left by a frame of someone else (here: the init sequence
	 * forgot MMFR = 0, so its MSCR write sent MMFR): the first read takes
	 * it for its own completion and returns stale data. The slowest MDC
	 * (MII_SPEED 63) on the slow module clock. */
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 0);
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MMFR,
			      0x60020000u | PHY_ADDR << 23 | 3u << 18);
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 63u << 1);
	two_frames_us = (unsigned)(2 * enet_mdio_sim_frame_ns(f->r.sim) / 1000);
	sleep_us(two_frames_us);
	/* The MDC is held from the read's start until it has returned, so its
	 * own frame has not ended when it tests the event, at any host speed. */
	broken_hold = true;
	assert_int_equal(ethdrv_mdio_read(f->r.bus, PHY_ADDR, 2, &v), 0);
	assert_int_not_equal(v, 0x004D);
	broken_hold = false;
	mdc_release(f->r.sim);
	/* Its own completion is now the stale event of the next read; telling
	 * the bus how long a frame takes catches it. */
	sleep_us(two_frames_us);
	ethdrv_mdio_set_min_frame_ns(f->r.bus, enet_mdio_sim_frame_ns(f->r.sim));
	assert_int_equal(ethdrv_mdio_read(f->r.bus, PHY_ADDR, 2, &v), 0);
	assert_int_equal(v, 0x004D);
	ethdrv_mdio_get_stats(f->r.bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.stale_events), 1);
}

static void test_bad_args(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_mdio_stats st;
	uint16_t v;

	assert_int_equal(ethdrv_mdio_read(f->r.bus, 32, 0, &v), -EINVAL);
	assert_int_equal(ethdrv_mdio_read(f->r.bus, 0, 32, &v), -EINVAL);
	assert_int_equal(ethdrv_mdio_write(f->r.bus, 1, 99, 0), -EINVAL);
	assert_int_equal(ethdrv_mdio_mmd_read_indirect(f->r.bus, 1, 32, 0, &v), -EINVAL);
	assert_int_equal(ethdrv_mdio_mmd_read_indirect(f->r.bus, 1, 3, 0x10000, &v), -EINVAL);
	/* No clause-45 frames on this controller. */
	assert_int_equal(ethdrv_mdio_c45_read(f->r.bus, 1, 3, 0, &v), -EOPNOTSUPP);
	ethdrv_mdio_get_stats(f->r.bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.bad_args), 5);
	assert_int_equal(ethdrv_counter_get(&st.frames), 0);
	/* Modes: unknown, irq without a line, a delay beyond 1 s. */
	assert_int_equal(ethdrv_mdio_set_mode(f->r.bus, (enum ethdrv_mdio_mode)7, 0), -EINVAL);
	assert_int_equal(ethdrv_mdio_set_mode(f->r.bus, ETHDRV_MDIO_MODE_ATOMIC, 1000001), -EINVAL);
	assert_int_equal(
		ethdrv_mdio_bus_new("x", &enet_mdio_sim_ops, f->r.sim,
				    &(struct ethdrv_mdio_config){ .mode = ETHDRV_MDIO_MODE_IRQ,
								  .timeout_us = 1000,
								  .irq_fd = -1 },
				    &(struct ethdrv_mdio_bus *){ NULL }),
		-EINVAL);
}

static void test_mode_names(void **state)
{
	enum ethdrv_mdio_mode m;

	assert_int_equal(ethdrv_mdio_mode_parse("irq", &m), 0);
	assert_int_equal(m, ETHDRV_MDIO_MODE_IRQ);
	assert_int_equal(ethdrv_mdio_mode_parse("atomic", &m), 0);
	assert_int_equal(m, ETHDRV_MDIO_MODE_ATOMIC);
	assert_int_equal(ethdrv_mdio_mode_parse("sleep", &m), 0);
	assert_int_equal(m, ETHDRV_MDIO_MODE_SLEEP);
	assert_int_equal(ethdrv_mdio_mode_parse("fast", &m), -EINVAL);
	assert_string_equal(ethdrv_mdio_mode_name(ETHDRV_MDIO_MODE_IRQ), "irq");
	assert_string_equal(ethdrv_mdio_mode_name((enum ethdrv_mdio_mode)9), "?");
}

/* docs/mdio.md §1.3: an empty address reads all ones, not an error. */
static void test_missing_device(void **state)
{
	struct fixture *f = *state;
	uint16_t v;

	assert_int_equal(ethdrv_mdio_read(f->r.bus, 7, 2, &v), 0);
	assert_int_equal(v, 0xFFFF);
}

/* MSCR = 0: the MMFR write starts nothing, so every mode times out. */
static void test_timeout(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_mdio_config cfg;
	struct ethdrv_mdio_bus *bus;
	struct ethdrv_mdio_stats st;
	uint16_t v;

	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 0);
	ethdrv_mdio_get_config(f->r.bus, &cfg);
	cfg.timeout_us = 2000;
	assert_int_equal(ethdrv_mdio_bus_new("slow", &enet_mdio_sim_ops, f->r.sim, &cfg, &bus), 0);
	for (int mode = ETHDRV_MDIO_MODE_SLEEP; mode <= ETHDRV_MDIO_MODE_IRQ; mode++) {
		assert_int_equal(ethdrv_mdio_set_mode(bus, mode, 5), 0);
		assert_int_equal(ethdrv_mdio_read(bus, PHY_ADDR, 2, &v), -ETIMEDOUT);
	}
	ethdrv_mdio_get_stats(bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.timeouts), 3);
	assert_int_equal(ethdrv_counter_get(&st.frames), 0);
	ethdrv_mdio_bus_free(bus);
}

static void test_mmd_indirect(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_mdio_stats st;
	uint16_t v;

	assert_int_equal(ethdrv_mdio_mmd_read_indirect(f->r.bus, PHY_ADDR, 7, 0x3C, &v), 0);
	assert_int_equal(v, 0x0006);
	assert_int_equal(ethdrv_mdio_mmd_write_indirect(f->r.bus, PHY_ADDR, 3, 0x805D, 0x1234), 0);
	assert_int_equal(ethdrv_mdio_mmd_read_indirect(f->r.bus, PHY_ADDR, 3, 0x805D, &v), 0);
	assert_int_equal(v, 0x1234);
	ethdrv_mdio_get_stats(f->r.bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.frames), 12);
	assert_int_equal(ethdrv_counter_get(&st.c45_reads), 2);
	assert_int_equal(ethdrv_counter_get(&st.c45_writes), 1);
}

static void test_c45_native(void **state)
{
	struct fixture *f = *state;
	uint16_t v;

	assert_true(ethdrv_mdio_is_c45(f->r.bus));
	assert_int_equal(ethdrv_mdio_c45_read(f->r.bus, PHY_ADDR, 7, 0x3C, &v), 0);
	assert_int_equal(v, 0x0006);
	assert_int_equal(ethdrv_mdio_c45_write(f->r.bus, PHY_ADDR, 1, 0x0007, 0xBEEF), 0);
	assert_int_equal(ethdrv_mdio_c45_read(f->r.bus, PHY_ADDR, 1, 0x0007, &v), 0);
	assert_int_equal(v, 0xBEEF);
	/* The same register through 13/14. */
	assert_int_equal(ethdrv_mdio_mmd_read_indirect(f->r.bus, PHY_ADDR, 1, 0x0007, &v), 0);
	assert_int_equal(v, 0xBEEF);
}

/* A shared line held by another source: the irq wait must neither spin
 * nor miss the completion; it tests again after a back-off. The controller
 * holds the MDC from each frame's start until the bus has tested the event
 * twice, so the line has rung while the frame was in flight at any host
 * speed. */
static unsigned held_tests; /* event tests since the frame started */

static int held_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	held_tests = 0;
	mdc_hold(ctx);
	return enet_mdio_sim_ops.start(ctx, f);
}

static int held_test(void *ctx, bool *done)
{
	int ret = enet_mdio_sim_ops.test_event(ctx, done);

	if (++held_tests == 2)
		mdc_release(ctx);
	return ret;
}

static int setup_shared(void **state)
{
	struct fixture *f;
	struct ethdrv_mdio_config mc;
	static struct ethdrv_mdio_ops held_ops;
	uint64_t one = 1;

	held_ops = enet_mdio_sim_ops;
	held_ops.start = held_start;
	held_ops.test_event = held_test;
	setup(state);
	f = *state;
	f->other_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	assert_true(f->other_fd >= 0);
	assert_int_equal(write(f->other_fd, &one, sizeof(one)), (ssize_t)sizeof(one));
	ethdrv_mdio_bus_free(f->r.bus);
	ethdrv_mdio_config_default(&mc);
	mc.mode = ETHDRV_MDIO_MODE_IRQ;
	mc.poll_delay_us = 5;
	mc.irq_fd = f->other_fd;
	assert_int_equal(ethdrv_mdio_bus_new("shared", &held_ops, f->r.sim, &mc, &f->r.bus), 0);
	return 0;
}

static void test_irq_shared_line(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_mdio_stats st = { 0 };

	/* Every frame is still in flight at its second test, after the line
	 * rang for someone else. */
	read_ids(f->r.bus);
	ethdrv_mdio_get_stats(f->r.bus, &st);
	assert_true(ethdrv_counter_get(&st.frames) >= 4);
	assert_true(ethdrv_counter_get(&st.irq_other) >= ethdrv_counter_get(&st.frames));
	/* No spinning: every back-off sleeps at least poll_delay_us (5 us)
	 * inside a frame's wait (docs/mdio.md §4.1). */
	assert_true(ethdrv_counter_get(&st.irq_other) <= ethdrv_counter_get(&st.wait_ns) / 5000);
	assert_int_equal(ethdrv_counter_get(&st.timeouts), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_modes_return_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats_registered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_event_avoided, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_event_detected, setup_broken, teardown),
		cmocka_unit_test_setup_teardown(test_bad_args, setup, teardown),
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test_setup_teardown(test_missing_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mmd_indirect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_c45_native, setup_c45, teardown),
		cmocka_unit_test_setup_teardown(test_irq_shared_line, setup_shared, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
