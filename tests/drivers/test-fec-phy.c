// SPDX-License-Identifier: MIT
/*
 * The fec driver's MDIO controller and PHY on the ENET model in real time
 * (docs/mdio.md §4, §11): every completion mode through the driver's own
 * MDIO ops returns the right data; the init sequence avoids the event of
 * the MSCR write with the quirk on; the carrier follows an unplugged and
 * replugged cable when polling (at the first poll after the change) and
 * through the AR8031's INT line (no poll at all); the MAC follows the
 * speed the PHYs resolved; frames sent without carrier are counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/fec.h"
#include "emu/enet_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/mii.h"
#include "ethdrv/phy.h"
#include "ethdrv/stats.h"

#define MS 1000000ull
#define ANEG_MS 20u /* the models' autoneg time in these tests */
#define POLL_MS 100u /* phy_poll_ms in the polling tests */
#define SLACK_MS 1000u /* scheduling noise allowed on a loaded shared machine */
#define REG_EIMR 0x008 /* docs/enet.md §1.1, §2, §4 */
#define EV_MII (1u << 23)
#define REG_ECR 0x024
#define REG_RCR 0x084
#define REG_TCR 0x0C4
#define REG_MMFR 0x040
#define REG_MSCR 0x044
#define ECR_RESET (1u << 0)
#define ECR_SPEED (1u << 5)
#define RCR_RMII_10T (1u << 9)
#define TCR_FDEN (1u << 2)

struct side {
	struct enet_emu *emu;
	struct ethdrv_mmio_bus bus;
	struct ethdrv_loop *loop;
	struct ethdrv_netdev *dev;
	unsigned carrier_calls; /* carrier handler calls */
	bool carrier; /* last state the handler saw */
	uint64_t carrier_ns; /* when */
	unsigned rx; /* frames received */
};

struct fixture {
	struct fdx_line *line;
	struct side s[2];
};

static void on_carrier(void *arg, bool up)
{
	struct side *sd = arg;

	sd->carrier_calls++;
	sd->carrier = up;
	sd->carrier_ns = ethdrv_now_ns();
}

static void on_rx(void *arg, struct ethdrv_pkt *pkt)
{
	((struct side *)arg)->rx++;
	ethdrv_pkt_free(pkt);
}

/* Two boards on a real-time line; the AR8031s autonegotiate in ANEG_MS. */
static void fixture_new(struct fixture *f, unsigned line_mbps, bool open)
{
	struct fdx_line_config lc;
	struct enet_emu_config ec;

	fdx_line_config_default(&lc);
	lc.speed_mbps = line_mbps;
	assert_int_equal(fdx_line_new(&lc, &f->line), 0);
	enet_emu_config_default(&ec);
	ec.dma_size = 4u << 20;
	ec.phy.aneg_ns = ANEG_MS * MS;
	for (unsigned i = 0; i < 2; i++) {
		struct side *sd = &f->s[i];
		struct fec_config cfg = { .name = i ? "enet1" : "enet0",
					  .mac = { 0x02, 0, 0, 0, 0xF0, (uint8_t)(i + 1) },
					  .rx_ring = 64,
					  .tx_ring = 64 };

		assert_int_equal(ethdrv_loop_new(&sd->loop), 0);
		assert_int_equal(enet_emu_new(&ec, f->line, i, &sd->emu), 0);
		enet_emu_get_bus(sd->emu, &sd->bus);
		cfg.phy_irq_fd = enet_emu_phy_irq_fd(sd->emu);
		assert_int_equal(fec_create(&cfg, &sd->bus, sd->loop, &sd->dev), 0);
		ethdrv_netdev_set_carrier_handler(sd->dev, on_carrier, sd);
		ethdrv_netdev_set_rx_handler(sd->dev, on_rx, sd);
		if (open)
			assert_int_equal(ethdrv_netdev_open(sd->dev), 0);
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fixture_new(f, 1000, true);
	*state = f;
	return 0;
}

static int setup_closed(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fixture_new(f, 1000, false);
	*state = f;
	return 0;
}

static int setup_100(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fixture_new(f, 100, true);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	/* Both down first: a graceful stop needs the link, that is both ends. */
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(ethdrv_netdev_stop(f->s[i].dev), 0);
	for (unsigned i = 0; i < 2; i++) {
		ethdrv_netdev_destroy(f->s[i].dev);
		enet_emu_free(f->s[i].emu);
		ethdrv_loop_free(f->s[i].loop);
	}
	fdx_line_free(f->line);
	free(f);
	return 0;
}

/* Run both loops (each wait at most 1 ms) until @done or @ms pass. */
static bool run_until(struct fixture *f, bool (*done)(struct fixture *), unsigned ms)
{
	uint64_t end = ethdrv_now_ns() + ms * MS;

	while (!done(f) && ethdrv_now_ns() < end)
		for (unsigned i = 0; i < 2; i++)
			assert_true(ethdrv_loop_run_once(f->s[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
	return done(f);
}

static bool both_up(struct fixture *f)
{
	return ethdrv_netdev_carrier_ok(f->s[0].dev) && ethdrv_netdev_carrier_ok(f->s[1].dev);
}

static bool both_down(struct fixture *f)
{
	return !ethdrv_netdev_carrier_ok(f->s[0].dev) && !ethdrv_netdev_carrier_ok(f->s[1].dev);
}

static bool rx_five(struct fixture *f)
{
	return f->s[1].rx >= 5;
}

static uint64_t stat(struct side *sd, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(sd->dev), name, &v), 0);
	return v;
}

static void set(struct side *sd, const char *key, const char *val)
{
	assert_int_equal(ethdrv_netdev_set(sd->dev, key, val), 0);
}

static uint32_t peek(struct side *sd, uint32_t off)
{
	uint32_t v = 0;

	assert_int_equal(enet_emu_peek_reg(sd->emu, off, &v), 0);
	return v;
}

/* Each completion mode reads the AR8031's ID through the fec ops and writes
 * and reads back a register; irq mode really sleeps on int0. */
static void test_modes_return_right_data(void **state)
{
	static const char *const modes[] = { "irq", "sleep", "atomic" };
	struct fixture *f = *state;
	struct side *sd = &f->s[0];
	struct ethdrv_phy *phy = ethdrv_netdev_phy(sd->dev);
	struct ethdrv_mdio_stats st;
	char buf[32];

	assert_non_null(phy);
	assert_int_equal(phy->cfg.addr, 1); /* found by scanning, as fec_enet_mii_probe */
	assert_string_equal(ethdrv_phy_driver_name(phy), "AR8031");
	for (size_t m = 0; m < ETHDRV_ARRAY_SIZE(modes); m++) {
		uint16_t id1 = 0, id2 = 0, led = 0;

		set(sd, "mdio_mode", modes[m]);
		assert_int_equal(ethdrv_netdev_get(sd->dev, "mdio_mode", buf, sizeof(buf)), 0);
		assert_string_equal(buf, modes[m]);
		/* irq mode routes the MII event to int0 (EIMR.MII), the others do not. */
		assert_int_equal(!!(peek(sd, REG_EIMR) & EV_MII), m == 0);
		assert_int_equal(ethdrv_phy_read(phy, ETHDRV_MII_PHYSID1, &id1), 0);
		assert_int_equal(ethdrv_phy_read(phy, ETHDRV_MII_PHYSID2, &id2), 0);
		assert_int_equal(id1, 0x004D);
		assert_int_equal(id2, 0xD074);
		assert_int_equal(ethdrv_phy_write(phy, 0x18, (uint16_t)(0x1230 + m)), 0);
		assert_int_equal(ethdrv_phy_read(phy, 0x18, &led), 0);
		assert_int_equal(led, 0x1230 + m);
	}
	ethdrv_mdio_get_stats(phy->bus, &st);
	/* How often irq mode slept depends on the scheduler; it is reported. */
	print_message("irq waits %llu\n", (unsigned long long)ethdrv_counter_get(&st.irq_waits));
	assert_int_equal(ethdrv_counter_get(&st.timeouts), 0);
	assert_int_equal(ethdrv_counter_get(&st.stale_events), 0);
	assert_int_equal(stat(sd, "mdio_timeouts"), 0);
	/* The int0 handler left the MII event to the bus. */
	assert_int_equal(stat(sd, "fec_irq_other"), 0);
	assert_int_equal(ethdrv_netdev_set(sd->dev, "mdio_mode", "fast"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(sd->dev, "mdio_poll_delay_us", "x"), -EINVAL);
	set(sd, "mdio_poll_delay_us", "5");
	assert_int_equal(ethdrv_netdev_get(sd->dev, "mdio_poll_delay_us", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "5");
}

/*
 * The boot loader left MMFR != 0 and a reset zeroed MSCR: writing MSCR
 * alone would send that frame and leave a stale event (docs/mdio.md §3.2).
 * fec's init (MMFR = 0 first) sends nothing, at create and at every open.
 */
static void test_init_avoids_mscr_event(void **state)
{
	struct fixture *f = *state;
	struct side *sd = &f->s[0];
	struct enet_mdio_stats ms;
	struct ethdrv_mdio_stats st;
	struct ethdrv_phy *phy;
	uint16_t id = 0;

	ethdrv_netdev_destroy(sd->dev);
	ethdrv_mmio_write32(&sd->bus, REG_MSCR, 9u << 1);
	ethdrv_mmio_write32(&sd->bus, REG_MMFR,
			    1u << 30 | 2u << 28 | 1u << 23 | 3u << 18 | 2u << 16);
	ethdrv_mmio_write32(&sd->bus, REG_ECR, ECR_RESET);
	assert_int_not_equal(peek(sd, REG_MMFR), 0);
	assert_int_equal(peek(sd, REG_MSCR), 0);
	assert_int_equal(fec_create(&(struct fec_config){ .name = "enet0",
							  .mac = { 0x02, 0, 0, 0, 0xF0, 1 },
							  .rx_ring = 64,
							  .tx_ring = 64 },
				    &sd->bus, sd->loop, &sd->dev),
			 0);
	assert_int_equal(ethdrv_netdev_open(sd->dev), 0);
	enet_emu_get_mdio_stats(sd->emu, &ms);
	assert_int_equal(ethdrv_counter_get(&ms.mscr_frames), 0);
	assert_int_equal(peek(sd, REG_MSCR), 9u << 1); /* 50 MHz -> 2.5 MHz */
	phy = ethdrv_netdev_phy(sd->dev);
	assert_int_equal(ethdrv_phy_read(phy, ETHDRV_MII_PHYSID2, &id), 0);
	assert_int_equal(id, 0xD074);
	ethdrv_mdio_get_stats(phy->bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.stale_events), 0);
	enet_emu_get_mdio_stats(sd->emu, &ms);
	assert_int_equal(ethdrv_counter_get(&ms.busy_writes), 0);
}

/* Re-create side 0's device with @cfg (name, MAC and rings filled in). */
static int recreate(struct side *sd, struct fec_config cfg)
{
	cfg.name = "enet0";
	memcpy(cfg.mac, (uint8_t[]){ 0x02, 0, 0, 0, 0xF0, 1 }, sizeof(cfg.mac));
	cfg.rx_ring = cfg.tx_ring = 64;
	/* The PHY's INT line as fixture_new() gives it: a zeroed config would name
	 * fd 0, which is whatever the test's stdin is (an always-readable /dev/null
	 * reads as a PHY interrupt that never ends). */
	cfg.phy_irq_fd = enet_emu_phy_irq_fd(sd->emu);
	ethdrv_netdev_destroy(sd->dev);
	sd->dev = NULL;
	return fec_create(&cfg, &sd->bus, sd->loop, &sd->dev);
}

/*
 * The DT mdio clock-frequency (docs/mdio.md §3.1): MII_SPEED =
 * ceil(50 MHz / (2 x f)) - 1, the model's frame is 64 (32 without
 * preamble) of those MDC cycles, and the PHY still answers; an MDC the
 * divider cannot make (MII_SPEED 0 or above 63) is refused.
 */
static void test_mdc_clock_frequency(void **state)
{
	static const struct {
		uint32_t hz;
		bool no_pre;
		uint32_t mii_speed;
		uint64_t frame_ns;
	} ok[] = {
		{ 0, false, 9, 25600 }, /* IEEE 2.5 MHz */
		{ 5000000, false, 4, 12800 }, /* the binding's example */
		{ 4000000, false, 6, 17920 }, /* 3.57 MHz: never faster than asked */
		{ 12500000, true, 1, 2560 }, /* the fastest at 50 MHz, no preamble */
		{ 800000, false, 31, 81920 },
	};
	static const uint32_t bad[] = { 25000000, 50000000, 390000 };
	struct side *sd = &((struct fixture *)*state)->s[0];

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(ok); i++) {
		uint16_t id = 0;

		assert_int_equal(
			recreate(sd, (struct fec_config){ .mdio_bus_hz = ok[i].hz,
							  .mdio_no_preamble = ok[i].no_pre }),
			0);
		assert_int_equal((peek(sd, REG_MSCR) >> 1) & 0x3F, ok[i].mii_speed);
		assert_int_equal(!!(peek(sd, REG_MSCR) & (1u << 7)), ok[i].no_pre);
		assert_int_equal(enet_emu_mdio_frame_ns(sd->emu), ok[i].frame_ns);
		assert_int_equal(
			ethdrv_phy_read(ethdrv_netdev_phy(sd->dev), ETHDRV_MII_PHYSID2, &id), 0);
		assert_int_equal(id, 0xD074);
	}
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(bad); i++)
		assert_int_equal(recreate(sd, (struct fec_config){ .mdio_bus_hz = bad[i] }),
				 -EINVAL);
	assert_int_equal(recreate(sd, (struct fec_config){ 0 }), 0);
}

/* Carrier on both sides once the PHYs link; the MAC runs at 1000 full. */
static void wait_link(struct fixture *f)
{
	assert_true(run_until(f, both_up, 3000));
	for (unsigned i = 0; i < 2; i++) {
		struct ethdrv_link_state ls;

		assert_int_equal(ethdrv_netdev_get_link(f->s[i].dev, &ls), 0);
		assert_true(ls.up);
	}
}

/*
 * Unplug, watch the carrier go, replug, watch it come back: @max_ms bounds
 * each (the polling case: one period; plus noise). @down_runs receives the
 * state machine runs from the unplug to the carrier off: exactly one when
 * the drop shows at the first poll after it. The times are printed.
 */
static void flap(struct fixture *f, unsigned max_ms, const char *phy_stat, uint64_t *runs,
		 uint64_t *down_runs)
{
	uint64_t t0, before = stat(&f->s[0], phy_stat);
	uint64_t machine = stat(&f->s[0], "phy_machine_runs");

	t0 = ethdrv_now_ns();
	fdx_line_set_cable(f->line, false);
	assert_true(run_until(f, both_down, max_ms + SLACK_MS));
	*down_runs = stat(&f->s[0], "phy_machine_runs") - machine;
	print_message("carrier off after %.1f ms\n", (double)(f->s[0].carrier_ns - t0) / 1e6);
	assert_true(f->s[0].carrier_ns - t0 <= (max_ms + SLACK_MS) * MS);
	t0 = ethdrv_now_ns();
	fdx_line_set_cable(f->line, true);
	assert_true(run_until(f, both_up, ANEG_MS + max_ms + SLACK_MS));
	print_message("carrier on after %.1f ms (autoneg %u ms)\n",
		      (double)(f->s[0].carrier_ns - t0) / 1e6, ANEG_MS);
	*runs = stat(&f->s[0], phy_stat) - before;
}

/* Polling: the drop shows at the first poll after it (docs/mdio.md §7.2). */
static void test_carrier_follows_link_polling(void **state)
{
	struct fixture *f = *state;
	uint64_t runs, down_runs;

	for (unsigned i = 0; i < 2; i++)
		set(&f->s[i], "phy_poll_ms", "100");
	wait_link(f);
	flap(f, POLL_MS, "phy_machine_runs", &runs, &down_runs);
	/* The drop shows at the first poll after it (docs/mdio.md §5, §7.2). */
	assert_int_equal(down_runs, 1);
	assert_true(runs >= 2);
	assert_int_equal(stat(&f->s[0], "phy_irqs"), 0);
	/* Off at open (Linux's default carrier is on), on, off, on. */
	assert_int_equal(stat(&f->s[0], "carrier_down_count"), 2);
	assert_int_equal(stat(&f->s[0], "carrier_up_count"), 2);
}

/* The AR8031's INT line: the machine runs only when the line rings. */
static void test_carrier_follows_link_irq(void **state)
{
	struct fixture *f = *state;
	char buf[8];
	uint64_t runs, down_runs;

	for (unsigned i = 0; i < 2; i++) {
		set(&f->s[i], "phy_poll_ms", "60000"); /* a poll would never come in time */
		set(&f->s[i], "phy_irq", "1");
		assert_int_equal(ethdrv_netdev_get(f->s[i].dev, "phy_irq", buf, sizeof(buf)), 0);
		assert_string_equal(buf, "1");
	}
	wait_link(f);
	flap(f, 5, "phy_irqs", &runs, &down_runs);
	assert_true(runs >= 2); /* link fail, link success */
	assert_true(down_runs >= 1); /* run by the interrupt: no poll timer is armed */
	set(&f->s[0], "phy_irq", "0");
	assert_int_equal(ethdrv_netdev_set(f->s[0].dev, "phy_irq", "2"), -EINVAL);
}

/* Without carrier frames are dropped and counted, not lost silently. */
static void test_xmit_without_carrier(void **state)
{
	struct fixture *f = *state;
	struct side *sd = &f->s[0];
	struct ethdrv_pkt *pkt;

	set(&f->s[0], "phy_poll_ms", "10");
	set(&f->s[1], "phy_poll_ms", "10");
	wait_link(f);
	fdx_line_set_cable(f->line, false);
	assert_true(run_until(f, both_down, 2000));
	pkt = ethdrv_pkt_alloc(fec_get_pool(sd->dev));
	assert_non_null(pkt);
	memset(pkt->data, 0xFF, 60);
	pkt->len = 60;
	assert_int_equal(ethdrv_netdev_xmit(sd->dev, pkt), -ENOLINK);
	assert_int_equal(stat(sd, "tx_carrier_errors"), 1);
	assert_int_equal(stat(sd, "tx_dropped"), 1);
	fdx_line_set_cable(f->line, true);
}

/* A 100 Mb/s cable: the PHYs resolve 100 full, the MAC follows (ECR.SPEED
 * clear, RMII_10T clear, FDEN set) and frames cross the line. */
static void test_mac_follows_phy_speed(void **state)
{
	struct fixture *f = *state;
	struct fdx_line_stats ls;
	struct ethdrv_link_state st;

	for (unsigned i = 0; i < 2; i++)
		set(&f->s[i], "phy_poll_ms", "10");
	wait_link(f);
	for (unsigned i = 0; i < 2; i++) {
		struct side *sd = &f->s[i];

		assert_int_equal(ethdrv_netdev_get_link(sd->dev, &st), 0);
		assert_int_equal(st.speed_mbps, 100);
		assert_true(st.full_duplex);
		assert_false(peek(sd, REG_ECR) & ECR_SPEED);
		assert_false(peek(sd, REG_RCR) & RCR_RMII_10T);
		assert_true(peek(sd, REG_TCR) & TCR_FDEN);
	}
	for (unsigned n = 0; n < 5; n++) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(fec_get_pool(f->s[0].dev));
		int ret;

		assert_non_null(pkt);
		memset(pkt->data, 0xFF, 6); /* broadcast */
		memcpy(pkt->data + 6, (uint8_t[]){ 0x02, 0, 0, 0, 0xF0, 1 }, 6);
		memset(pkt->data + 12, 0x88, 48);
		pkt->len = 60;
		/* Byte queue limits stop the queue until completions run. */
		while ((ret = ethdrv_netdev_xmit(f->s[0].dev, pkt)) == -EBUSY)
			run_until(f, both_down, 1);
		assert_int_equal(ret, 0);
	}
	run_until(f, rx_five, 2000);
	assert_int_equal(f->s[1].rx, 5);
	fdx_line_get_stats(f->line, &ls);
	assert_int_equal(ethdrv_counter_get(&ls.speed_mismatch), 0);
}

/* Stop: the PHY halts, the carrier goes off; open again: it comes back. */
static void test_stop_open(void **state)
{
	struct fixture *f = *state;

	set(&f->s[0], "phy_poll_ms", "10");
	set(&f->s[1], "phy_poll_ms", "10");
	wait_link(f);
	assert_int_equal(ethdrv_netdev_stop(f->s[0].dev), 0);
	assert_false(ethdrv_netdev_carrier_ok(f->s[0].dev));
	assert_int_equal(ethdrv_netdev_phy(f->s[0].dev)->state, ETHDRV_PHY_HALTED);
	assert_int_equal(ethdrv_netdev_open(f->s[0].dev), 0);
	wait_link(f);
}

/* Knobs before open and on a fixed link. */
static void test_knobs_closed_and_fixed(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_netdev *dev;
	char buf[16];

	/* Not opened: the carrier is Linux's default, the PHY is READY. */
	assert_true(ethdrv_netdev_carrier_ok(f->s[0].dev));
	set(&f->s[0], "phy_poll_ms", "250");
	assert_int_equal(ethdrv_netdev_get(f->s[0].dev, "phy_poll_ms", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "250");
	assert_int_equal(ethdrv_netdev_set(f->s[0].dev, "phy_poll_ms", "0"), -EINVAL);
	/* A fixed link has no PHY: the phy_* knobs say so, mdio_* still work. */
	ethdrv_netdev_destroy(f->s[1].dev);
	assert_int_equal(fec_create(&(struct fec_config){ .name = "fixed",
							  .mac = { 0x02, 0, 0, 0, 0xF0, 2 },
							  .rx_ring = 64,
							  .tx_ring = 64,
							  .fixed_link_mbps = 100 },
				    &f->s[1].bus, f->s[1].loop, &dev),
			 0);
	f->s[1].dev = dev;
	assert_null(ethdrv_netdev_phy(dev));
	assert_int_equal(ethdrv_netdev_set(dev, "phy_irq", "1"), -ENODEV);
	assert_int_equal(ethdrv_netdev_get(dev, "phy_poll_ms", buf, sizeof(buf)), -ENODEV);
	assert_int_equal(ethdrv_netdev_set(dev, "mdio_mode", "sleep"), 0);
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	assert_true(ethdrv_netdev_carrier_ok(dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_modes_return_right_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_init_avoids_mscr_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mdc_clock_frequency, setup_closed, teardown),
		cmocka_unit_test_setup_teardown(test_carrier_follows_link_polling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_carrier_follows_link_irq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xmit_without_carrier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mac_follows_phy_speed, setup_100, teardown),
		cmocka_unit_test_setup_teardown(test_stop_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knobs_closed_and_fixed, setup_closed,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
