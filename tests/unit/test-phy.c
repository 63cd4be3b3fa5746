// SPDX-License-Identifier: MIT
/*
 * The PHY layer (phy.h, docs/mdio.md §5-§7) over the MDIO bus core, the
 * ENET MDIO block in real time and two AR8031 models on one wire (fast
 * autoneg, so the link comes up in milliseconds): probe by ID, the state
 * machine reaching RUNNING, a link flap seen at the first poll after it,
 * through the PHY's interrupt line and through the MAC's interrupt, the
 * latched-low rule of genphy_update_link, and clear errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/mii.h"
#include "ethdrv/phy.h"
#include "emu/mdio_rig.h"

#define PHY_ADDR 3u
#define ANEG_MS 20u /* the models' autoneg time in these tests */
#define MS 1000000ull
#define MAX_EVENTS 16

struct fixture {
	struct mdio_rig r; /* controller, bus model, the PHY and its partner */
	struct ethdrv_loop *loop;
	struct ethdrv_timer tick; /* keeps run_once from blocking forever */
	struct ethdrv_phy *p;
	struct ethdrv_phy_link events[MAX_EVENTS]; /* link-change callbacks */
	uint64_t event_ns[MAX_EVENTS]; /* when they came */
	unsigned n_events;
};

static void on_link(void *arg, const struct ethdrv_phy_link *link)
{
	struct fixture *f = arg;

	assert_true(f->n_events < MAX_EVENTS);
	f->event_ns[f->n_events] = ethdrv_now_ns();
	f->events[f->n_events++] = *link;
}

static void tick_cb(struct ethdrv_timer *t)
{
}

static int setup_phy_cfg(void **state, const struct phy_emu_config *pc)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(
		mdio_rig_setup(&f->r, &(struct mdio_rig_config){ .phy_addr = PHY_ADDR, .phy = pc }),
		0);
	assert_int_equal(ethdrv_loop_new(&f->loop), 0);
	ethdrv_timer_init(f->loop, &f->tick, tick_cb);
	assert_int_equal(ethdrv_timer_start(&f->tick, MS, MS), 0);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	struct phy_emu_config pc;

	phy_emu_config_default(&pc);
	pc.aneg_ns = ANEG_MS * MS;
	return setup_phy_cfg(state, &pc);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ethdrv_phy_free(f->p);
	ethdrv_timer_stop(&f->tick);
	ethdrv_loop_free(f->loop);
	mdio_rig_teardown(&f->r);
	free(f);
	return 0;
}

static void probe(struct fixture *f, enum ethdrv_phy_irq_mode mode, unsigned poll_ms)
{
	struct ethdrv_phy_config cfg;

	ethdrv_phy_config_default(&cfg);
	cfg.addr = PHY_ADDR;
	cfg.irq_mode = mode;
	cfg.irq_fd = phy_emu_irq_fd(f->r.phy[0]);
	cfg.poll_ms = poll_ms;
	cfg.drivers = ethdrv_phy_drivers;
	cfg.link_change = on_link;
	cfg.link_arg = f;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &f->p), 0);
}

/* Run the loop until @n link events arrived or @ms passed. */
static bool run_until_events(struct fixture *f, unsigned n, unsigned ms)
{
	uint64_t end = ethdrv_now_ns() + ms * MS;

	while (f->n_events < n && ethdrv_now_ns() < end)
		assert_true(ethdrv_loop_run_once(f->loop, 0) >= 0);
	return f->n_events >= n;
}

/* Run the loop for @ms. */
static void run_for(struct fixture *f, unsigned ms)
{
	run_until_events(f, MAX_EVENTS + 1, ms);
}

/* Start, and wait for down (first report) then up at 1000 full. */
static void start_and_link(struct fixture *f)
{
	assert_int_equal(ethdrv_phy_start(f->p), 0);
	assert_true(run_until_events(f, 2, 2000));
	assert_false(f->events[0].up);
	assert_true(f->events[1].up);
	assert_int_equal(f->events[1].speed_mbps, 1000);
	assert_true(f->events[1].full_duplex);
	assert_int_equal(f->p->state, ETHDRV_PHY_RUNNING);
}

static void test_probe(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_phy_config cfg;
	struct ethdrv_phy *p;

	probe(f, ETHDRV_PHY_IRQ_POLL, 1000);
	assert_int_equal(f->p->phy_id, 0x004DD074);
	assert_string_equal(ethdrv_phy_driver_name(f->p), "AR8031");
	assert_int_equal(f->p->state, ETHDRV_PHY_READY);
	assert_true(f->p->gigabit);
	assert_string_equal(ethdrv_phy_state_name(f->p->state), "ready");
	/* A missing PHY reads all ones: -ENODEV. */
	ethdrv_phy_config_default(&cfg);
	cfg.addr = 9;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &p), -ENODEV);
	cfg.addr = 32;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &p), -EINVAL);
	cfg.addr = PHY_ADDR;
	cfg.poll_ms = 0;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &p), -EINVAL);
	cfg.poll_ms = 1000;
	cfg.irq_mode = ETHDRV_PHY_IRQ_LINE; /* no line given */
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &p), -EINVAL);
	/* Without a driver table: the generic driver. */
	cfg.irq_mode = ETHDRV_PHY_IRQ_POLL;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &p), 0);
	assert_string_equal(ethdrv_phy_driver_name(p), "Generic PHY");
	/* ... which has no interrupt: the PHY's line cannot be used. */
	assert_int_equal(ethdrv_phy_set_irq_mode(p, ETHDRV_PHY_IRQ_LINE, 5), -EOPNOTSUPP);
	ethdrv_phy_free(p);
}

static void test_register_access(void **state)
{
	struct fixture *f = *state;
	uint16_t v;

	probe(f, ETHDRV_PHY_IRQ_POLL, 1000);
	assert_int_equal(ethdrv_phy_read(f->p, 32, &v), -EINVAL);
	assert_int_equal(ethdrv_phy_write(f->p, 40, 0), -EINVAL);
	assert_int_equal(ethdrv_phy_read(f->p, ETHDRV_MII_PHYSID2, &v), 0);
	assert_int_equal(v, 0xD074);
	assert_int_equal(ethdrv_phy_read_mmd(f->p, false, 7, 0x3C, &v), 0);
	assert_int_equal(v, 0x0006);
	assert_int_equal(ethdrv_phy_read_mmd(f->p, true, 7, 0x3C, &v), -EOPNOTSUPP);
	assert_int_equal(ethdrv_phy_set_poll_ms(f->p, 0), -EINVAL);
	assert_int_equal(ethdrv_phy_set_poll_ms(f->p, 60001), -EINVAL);
	assert_int_equal(ethdrv_phy_set_poll_ms(f->p, 500), 0);
	assert_int_equal(ethdrv_phy_set_irq_mode(f->p, ETHDRV_PHY_IRQ_LINE, -1), -EINVAL);
}

static void test_generic_driver_links(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_phy_config cfg;

	ethdrv_phy_config_default(&cfg);
	cfg.addr = PHY_ADDR;
	cfg.poll_ms = 5;
	cfg.link_change = on_link;
	cfg.link_arg = f;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &cfg, &f->p), 0);
	start_and_link(f);
	assert_int_equal(ethdrv_phy_start(f->p), -EBUSY);
}

static void test_poll_reaches_running_and_sees_flap(void **state)
{
	struct fixture *f = *state;
	uint64_t runs_before;

	probe(f, ETHDRV_PHY_IRQ_POLL, 50);
	start_and_link(f);
	/* Pull the cable: the first machine run after it reports the drop. */
	runs_before = ethdrv_counter_get(&f->p->st.machine_runs);
	phy_emu_wire_set_cable(f->r.wire, false, ethdrv_now_ns());
	assert_true(run_until_events(f, 3, 1000));
	assert_false(f->events[2].up);
	assert_int_equal(ethdrv_counter_get(&f->p->st.machine_runs), runs_before + 1);
	assert_int_equal(f->p->state, ETHDRV_PHY_NOLINK);
	/* Plug it back: up again after autoneg. */
	phy_emu_wire_set_cable(f->r.wire, true, ethdrv_now_ns());
	assert_true(run_until_events(f, 4, 1000));
	assert_true(f->events[3].up);
	assert_int_equal(f->p->state, ETHDRV_PHY_RUNNING);
}

/* docs/mdio.md §5: a drop shorter than the poll period is still reported,
 * because BMSR latched it and polling mode reads it once. */
static void test_poll_sees_short_flap(void **state)
{
	struct fixture *f = *state;

	probe(f, ETHDRV_PHY_IRQ_POLL, 100);
	start_and_link(f);
	phy_emu_wire_set_cable(f->r.wire, false, ethdrv_now_ns());
	phy_emu_wire_set_cable(f->r.wire, true, ethdrv_now_ns());
	/* The link is back (autoneg 20 ms) long before the next poll. */
	assert_true(run_until_events(f, 4, 1000));
	assert_false(f->events[2].up);
	assert_true(f->events[3].up);
	assert_true(f->event_ns[3] - f->event_ns[2] >= 90 * MS); /* one poll period apart */
}

static void test_irq_line_sees_flap(void **state)
{
	struct fixture *f = *state;
	uint64_t t0, runs_before, irqs_before;

	probe(f, ETHDRV_PHY_IRQ_LINE, 1000);
	start_and_link(f);
	assert_false(ethdrv_timer_is_active(&f->p->timer));
	runs_before = ethdrv_counter_get(&f->p->st.machine_runs);
	irqs_before = ethdrv_counter_get(&f->p->st.irqs);
	t0 = ethdrv_now_ns();
	phy_emu_wire_set_cable(f->r.wire, false, t0);
	assert_true(run_until_events(f, 3, 1000));
	assert_false(f->events[2].up);
	print_message("link down seen %.3f ms after the drop (PHY interrupt)\n",
		      (double)(f->event_ns[2] - t0) / 1e6);
	/* Woken by the line, not by a timer (there is none in this mode). */
	assert_true(ethdrv_counter_get(&f->p->st.irqs) > irqs_before);
	assert_int_equal(ethdrv_counter_get(&f->p->st.machine_runs), runs_before + 1);
	assert_true(f->event_ns[2] - t0 < 100 * MS);
	phy_emu_wire_set_cable(f->r.wire, true, ethdrv_now_ns());
	assert_true(run_until_events(f, 4, 1000));
	assert_true(f->events[3].up);
	/* Back to polling at run time. */
	assert_int_equal(ethdrv_phy_set_irq_mode(f->p, ETHDRV_PHY_IRQ_POLL, -1), 0);
	assert_true(ethdrv_timer_is_active(&f->p->timer));
}

static void test_mac_interrupt(void **state)
{
	struct fixture *f = *state;
	uint64_t runs;

	probe(f, ETHDRV_PHY_IRQ_MAC, 1000);
	assert_int_equal(ethdrv_phy_start(f->p), 0);
	assert_true(run_until_events(f, 1, 100));
	/* Nothing runs the machine but the MAC's interrupt. */
	run_for(f, 3 * ANEG_MS);
	assert_int_equal(f->n_events, 1);
	runs = ethdrv_counter_get(&f->p->st.machine_runs);
	ethdrv_phy_mac_interrupt(f->p);
	assert_int_equal(ethdrv_counter_get(&f->p->st.machine_runs), runs + 1);
	assert_int_equal(f->n_events, 2);
	assert_true(f->events[1].up);
	assert_int_equal(f->p->state, ETHDRV_PHY_RUNNING);
}

/* docs/mdio.md §5, the three cases of genphy_update_link. */
static void test_update_link_rule(void **state)
{
	struct fixture *f = *state;
	uint16_t v;

	probe(f, ETHDRV_PHY_IRQ_POLL, 1000);
	run_for(f, 3 * ANEG_MS); /* let the link come up */
	assert_true(phy_emu_wire_link_up(f->r.wire, ethdrv_now_ns()));
	/* Polling mode, link known up, a drop in between: one read, down. */
	f->p->link.up = true;
	phy_emu_wire_set_cable(f->r.wire, false, ethdrv_now_ns());
	phy_emu_wire_set_cable(f->r.wire, true, ethdrv_now_ns());
	run_for(f, 3 * ANEG_MS);
	assert_true(phy_emu_wire_link_up(f->r.wire, ethdrv_now_ns()));
	assert_int_equal(ethdrv_genphy_update_link(f->p), 0);
	assert_false(f->p->link.up);
	/* Link known down: read twice, the second shows it up. */
	phy_emu_wire_set_cable(f->r.wire, false, ethdrv_now_ns());
	phy_emu_wire_set_cable(f->r.wire, true, ethdrv_now_ns());
	run_for(f, 3 * ANEG_MS);
	assert_int_equal(ethdrv_genphy_update_link(f->p), 0);
	assert_true(f->p->link.up);
	/* Interrupt mode: a first read that shows the link up is taken. */
	assert_int_equal(ethdrv_phy_set_irq_mode(f->p, ETHDRV_PHY_IRQ_MAC, -1), 0);
	phy_emu_wire_set_cable(f->r.wire, false, ethdrv_now_ns());
	phy_emu_wire_set_cable(f->r.wire, true, ethdrv_now_ns());
	run_for(f, 3 * ANEG_MS);
	assert_int_equal(ethdrv_genphy_update_link(f->p), 0);
	assert_true(f->p->link.up);
	assert_true(f->p->autoneg_complete);
	/* While autoneg restarts, the link reads down whatever BMSR says. */
	assert_int_equal(ethdrv_phy_read(f->p, ETHDRV_MII_BMCR, &v), 0);
	assert_int_equal(ethdrv_phy_write(f->p, ETHDRV_MII_BMCR, v | ETHDRV_BMCR_ANRESTART), 0);
	assert_int_equal(ethdrv_genphy_update_link(f->p), 0);
	assert_false(f->p->link.up);
}

static int setup_restart_visible(void **state)
{
	struct phy_emu_config pc;

	phy_emu_config_default(&pc);
	pc.aneg_ns = ANEG_MS * MS;
	pc.anrestart_ns = 10 * MS;
	return setup_phy_cfg(state, &pc);
}

/* BMCR.ANRESTART still set: genphy reports down without trusting BMSR. */
static void test_update_link_anrestart(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_mdio_stats before, after;
	uint16_t v;

	probe(f, ETHDRV_PHY_IRQ_MAC, 1000);
	run_for(f, 3 * ANEG_MS);
	f->p->link.up = true;
	assert_int_equal(ethdrv_phy_read(f->p, ETHDRV_MII_BMCR, &v), 0);
	assert_int_equal(ethdrv_phy_write(f->p, ETHDRV_MII_BMCR, v | ETHDRV_BMCR_ANRESTART), 0);
	ethdrv_mdio_get_stats(f->r.bus, &before);
	assert_int_equal(ethdrv_genphy_update_link(f->p), 0);
	ethdrv_mdio_get_stats(f->r.bus, &after);
	assert_false(f->p->link.up);
	assert_false(f->p->autoneg_complete);
	/* Only BMCR was read. */
	assert_int_equal(
		ethdrv_counter_get(&after.c22_reads) - ethdrv_counter_get(&before.c22_reads), 1);
}

static int setup_slow_reset(void **state)
{
	struct phy_emu_config pc;

	phy_emu_config_default(&pc);
	pc.aneg_ns = ANEG_MS * MS;
	pc.reset_ns = 5000 * MS; /* beyond the 600 ms bound */
	return setup_phy_cfg(state, &pc);
}

static void test_reset_timeout(void **state)
{
	struct fixture *f = *state;

	probe(f, ETHDRV_PHY_IRQ_POLL, 1000);
	assert_int_equal(ethdrv_phy_start(f->p), -ETIMEDOUT);
	assert_int_equal(f->p->state, ETHDRV_PHY_ERROR);
	assert_int_equal(ethdrv_counter_get(&f->p->st.errors), 1);
}

/* An MDIO timeout while running stops the machine in ERROR, carrier off. */
static void test_mdio_failure_halts(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_stats_set *set;
	uint64_t errors;

	probe(f, ETHDRV_PHY_IRQ_POLL, 10);
	start_and_link(f);
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 0); /* MDC off: frames never start */
	ethdrv_phy_mac_interrupt(f->p);
	assert_int_equal(f->p->state, ETHDRV_PHY_ERROR);
	assert_false(ethdrv_timer_is_active(&f->p->timer)); /* the machine stopped */
	assert_int_equal(f->n_events, 3);
	assert_false(f->events[2].up);
	assert_int_equal(ethdrv_stats_set_new(&set), 0);
	assert_int_equal(ethdrv_phy_register_stats(f->p, set), 0);
	assert_int_equal(ethdrv_stats_get(set, "phy_errors", &errors), 0);
	assert_int_equal(errors, 1);
	ethdrv_stats_set_free(set);
	/* Stop from ERROR is allowed; a restart works once MDC runs again. */
	ethdrv_phy_stop(f->p);
	assert_int_equal(f->p->state, ETHDRV_PHY_HALTED);
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, MDIO_RIG_MSCR_2M5);
	f->n_events = 0;
	f->p->reported = false;
	start_and_link(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_probe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_register_access, setup, teardown),
		cmocka_unit_test_setup_teardown(test_generic_driver_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_reaches_running_and_sees_flap, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_poll_sees_short_flap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_line_sees_flap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mac_interrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_update_link_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_update_link_anrestart, setup_restart_visible,
						teardown),
		cmocka_unit_test_setup_teardown(test_reset_timeout, setup_slow_reset, teardown),
		cmocka_unit_test_setup_teardown(test_mdio_failure_halts, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
