// SPDX-License-Identifier: MIT
/*
 * The gianfar driver on the eTSEC model: two nodes on a virtual 1 Gb/s
 * cable, one thread that runs both loops and moves the clock in small
 * steps. Every frame is byte-compared on arrival; every teardown checks
 * that both pools are full again and that the graceful stops completed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "etsec_pair.h"

static int setup(void **state)
{
	struct gfar_config cfg = { 0 };

	return gsetup_cfg(state, &cfg);
}

static int setup_small(void **state)
{
	struct gfar_config cfg = { .rx_ring = 16, .tx_ring = 16 };

	return gsetup_cfg(state, &cfg);
}

static int setup_le_combined(void **state)
{
	struct gfar_config cfg = { .le_bd = true, .combined_napi = true };

	return gsetup_cfg(state, &cfg);
}

/* Every length 60..1514 from each side at once, byte-compared; then the
 * last TX confirmations (tx-usecs 10). */
static void every_size(struct fixture *f)
{
	struct flow a = { .n = 1455, .len_of = len_sweep, .window = 40 };
	struct flow b = { .n = 1455, .len_of = len_sweep, .window = 40 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 400000, NULL);
	pump_for(f, 100000);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(stat(&f->n[i], "tx_packets"), 1455);
		assert_int_equal(stat(&f->n[i], "rx_errors"), 0);
		assert_int_equal(stat(&f->n[i], "rx_missed_errors"), 0);
	}
	end_flows(f);
}

static void test_every_size_both_ways(void **state)
{
	struct fixture *f = *state;

	every_size(f);
	for (unsigned i = 0; i < 2; i++) {
		struct node *nd = &f->n[i];

		assert_int_equal(stat(nd, "rmon_rx-packets"), 1455);
		assert_int_equal(stat(nd, "rmon_tx-packets"), 1455);
		assert_int_equal(stat(nd, "gfar_tx_bounce"), 0);
		/* Separate lines: RX and TX handlers both ran, the error line never. */
		assert_true(stat(nd, "gfar_irq_rx") > 0);
		assert_true(stat(nd, "gfar_irq_tx") > 0);
		assert_int_equal(stat(nd, "gfar_irq_er"), 0);
	}
}

/* The same in Linux 3.6's mode on little-endian descriptors. */
static void test_every_size_le_combined(void **state)
{
	struct fixture *f = *state;

	every_size(f);
	for (unsigned i = 0; i < 2; i++) {
		struct node *nd = &f->n[i];

		/* The TX line hands over to the single poller. */
		assert_true(stat(nd, "gfar_irq_tx") > 0);
		/* docs/etsec.md §8.2: TX work keeps the poller alive; completion
		 * re-programs coalescing. */
		assert_true(stat(nd, "gfar_polls_tx_budget") > 0);
		assert_true(stat(nd, "gfar_coal_rewrites") > 0);
	}
}

static int setup_combined(void **state)
{
	struct gfar_config cfg = { .combined_napi = true };

	return gsetup_cfg(state, &cfg);
}

/* Pump both nodes and also @extra, the loop of node 0's stalled context. */
static void pump_with(struct fixture *f, struct ethdrv_loop *extra, bool run_extra)
{
	flows_offer(f);
	pump(f);
	if (run_extra)
		assert_true(ethdrv_loop_run_once(extra, ETHDRV_RUN_NOWAIT) >= 0);
}

/* Linux 3.6's mode with the RX line's context stalled (its poller moved to a
 * loop nobody runs for a while, as a CPU busy elsewhere): the TX line's
 * interrupts while the single poller is scheduled clear IEVENT[RX|TX]
 * (docs/etsec.md §8.2), so the line falls. Without that the TXB event,
 * which IMASK_RTX_DISABLED leaves enabled, holds the line up and its
 * context polls on every pass. */
static void test_36_tx_line_while_scheduled(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 400, .len_of = len_1514, .window = 40 };
	struct ethdrv_napi *rx = ethdrv_napi_find(f->n[0].dev, "rx");
	struct ethdrv_loop *stalled;
	uint64_t polls, irqs;
	unsigned i;

	assert_int_equal(ethdrv_loop_new(&stalled), 0);
	add_flow(f, &a, 0, 0);
	for (i = 0; i < 200; i++)
		pump_with(f, stalled, false);
	assert_int_equal(ethdrv_napi_set_loop(rx, stalled), 0);
	for (i = 0; i < 200; i++)
		pump_with(f, stalled, false);
	polls = stat(&f->n[0], "napi_tx_polls");
	irqs = stat(&f->n[0], "gfar_irq_tx");
	for (i = 0; i < 2000; i++)
		pump_with(f, stalled, false);
	/* 2000 passes: at most a few polls of the TX line, not one per pass. */
	assert_true(stat(&f->n[0], "napi_tx_polls") - polls < 20);
	assert_true(stat(&f->n[0], "gfar_irq_tx") >= irqs);
	/* The context runs again: everything goes through. */
	for (i = 0; i < 400000 && !flows_done(f); i++)
		pump_with(f, stalled, true);
	flows_check(f);
	for (i = 0; i < 2000; i++)
		pump_with(f, stalled, true);
	assert_int_equal(ethdrv_napi_set_loop(rx, f->n[0].loop), 0);
	pump_for(f, 100000);
	end_flows(f);
	ethdrv_loop_free(stalled);
}

static void test_ring_wrap_under_load(void **state)
{
	struct fixture *f = *state;

	scenario_ring_wrap(f, 3000);
	assert_int_equal(stat(&f->n[0], "rx_missed_errors"), 0);
}

static void test_bql_stop_wake(void **state)
{
	pair_bql_stop_wake(*state, NULL, NULL);
}

static void test_ring_full_stop_wake(void **state)
{
	scenario_ring_full(*state, NULL, "gfar_tx_ring_full", "gfar_tx_ring_wake");
}

static void test_split_switch_under_traffic(void **state)
{
	struct fixture *f = *state;

	scenario_split_switch(f, 100000);
	for (unsigned i = 0; i < 2; i++) {
		/* The 3.6 poller ran too (docs/etsec.md §8.2), and nothing was missed. */
		assert_true(stat(&f->n[i], "gfar_polls_tx_budget") > 0);
		assert_int_equal(stat(&f->n[i], "rx_missed_errors"), 0);
	}
}

static void test_coalescing_irq_counts(void **state)
{
	struct fixture *f = *state;
	struct flow a = { 0 };
	uint64_t irq;
	char buf[16];

	/* Linux's defaults (docs/etsec.md §6): TX 16 frames / 21 ticks = 10 us, RX off. */
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "tx-frames", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "16");
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "tx-usecs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "10");
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "rx-usecs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0");
	scenario_coalescing_counts(f, &a, "gfar_irq_rx", "gfar_irq_tx");
	/* Off: 0 us. About one interrupt per frame at this pace. */
	set(&f->n[1], "rx-usecs", "0");
	irq = stat(&f->n[1], "gfar_irq_rx");
	f->flows[0]->n = 1600;
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[1], "gfar_irq_rx") - irq >= 600);
	/* Limits: 255 frames, 65535 us, numbers only. */
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "rx-frames", "256"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "rx-usecs", "65536"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "napi_split", "maybe"), -EINVAL);
	end_flows(f);
}

static void test_adaptive(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 3000, .len_of = len_1514, .window = 200 };

	set(&f->n[1], "adaptive-rx", "on");
	set(&f->n[0], "adaptive-tx", "on");
	add_flow(f, &a, 0, 0);
	run_flows(f, 600000, NULL);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	set(&f->n[1], "adaptive-rx", "off");
	end_flows(f);
}

static void test_bsy_and_bus_error_recovery(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1000, .len_of = len_mixed, .window = 16 };

	/* 5 frames find no BD: BSY on the error line, RDRP counts them, the RX
	 * ring restarts (QHLT0) and the rest arrive (docs/etsec.md §3.4). */
	assert_int_equal(etsec_emu_inject(f->n[1].emu, EMU_FAULT_RX_EXHAUST, 5), 0);
	add_flow(f, &a, 0, 0);
	for (unsigned i = 0; i < 400000 && flow_done(&a) < a.n; i++) {
		flows_offer(f);
		pump(f);
	}
	assert_int_equal(a.rcvd + a.lost, a.n);
	assert_int_equal(a.bad, 0);
	assert_int_equal(a.lost, 5);
	assert_true(stat(&f->n[1], "gfar_ev_bsy") > 0);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 5);
	{
		struct etsec_emu_stats st;

		/* Put down to the injection, not to the driver (docs/design.md §4.8). */
		etsec_emu_get_stats(f->n[1].emu, &st);
		assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_injected), 5);
		assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_driver), 0);
		assert_int_equal(ethdrv_counter_get(&st.rx_dropped_nobd), 5);
	}
	end_flows(f);
	/* A TX bus error: EBERR, the driver restarts the controller. */
	assert_int_equal(etsec_emu_inject(f->n[0].emu, EMU_FAULT_TX_BUS_ERROR, 0), 0);
	{
		struct flow b = { .n = 300, .len_of = len_mixed, .window = 8 };

		add_flow(f, &b, 0, 0);
		for (unsigned i = 0; i < 400000 && flow_done(&b) < b.n; i++) {
			flows_offer(f);
			pump(f);
		}
		assert_int_equal(stat(&f->n[0], "gfar_restarts"), 1);
		assert_int_equal(b.bad, 0);
		assert_true(b.rcvd > 250);
		end_flows(f);
	}
}

/* More frames than RX BDs while node 1 does not poll: the rest are dropped,
 * counted and put down to the driver's service gap (docs/design.md §4.8). */
static void test_nobd_loss_is_the_drivers(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 400, .len_of = len_1514, .window = 400 };
	struct etsec_emu_stats st;
	uint64_t nobd;

	add_flow(f, &a, 0, 0);
	pump_sender_only(f, 20000);
	pump_for(f, 2000000);
	etsec_emu_get_stats(f->n[1].emu, &st);
	nobd = ethdrv_counter_get(&st.rx_dropped_nobd);
	assert_int_equal(a.sent, 400);
	assert_true(nobd > 0);
	assert_int_equal(a.rcvd + nobd, 400);
	assert_int_equal(a.bad, 0);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_driver), nobd);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_injected), 0);
	assert_true(ethdrv_counter_get(&st.rx_loss.gap_max_ns) > 0);
	end_flows(f);
}

static void test_create_errors(void **state)
{
	struct fixture *f = *state;
	struct gfar_config cfg = { .name = "x", .mac = { 2, 0, 0, 0, 0, 9 } };
	struct ethdrv_mmio_bus bus = f->n[0].bus;
	struct ethdrv_netdev *dev;

	cfg.rx_ring = 100;
	assert_int_equal(gfar_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.rx_ring = 0;
	cfg.fixed_link_mbps = 42;
	assert_int_equal(gfar_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.fixed_link_mbps = 1000;
	bus.irq_fd[2] = -1;
	assert_int_equal(gfar_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	bus = f->n[0].bus;
	bus.dma.size = 4096;
	assert_int_equal(gfar_create(&cfg, &bus, f->n[0].loop, &dev), -ENOSPC);
	cfg.mac[0] = 1;
	assert_int_equal(gfar_create(&cfg, &f->n[0].bus, f->n[0].loop, &dev), -EINVAL);
	assert_true(gfar_dma_size(&cfg) < (8u << 20));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_size_both_ways, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_every_size_le_combined, setup_le_combined,
						gteardown),
		cmocka_unit_test_setup_teardown(test_ring_wrap_under_load, setup_small, gteardown),
		cmocka_unit_test_setup_teardown(test_bql_stop_wake, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_ring_full_stop_wake, setup_small, gteardown),
		cmocka_unit_test_setup_teardown(test_split_switch_under_traffic, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_36_tx_line_while_scheduled, setup_combined,
						gteardown),
		cmocka_unit_test_setup_teardown(test_coalescing_irq_counts, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_adaptive, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_bsy_and_bus_error_recovery, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_nobd_loss_is_the_drivers, setup, gteardown),
		cmocka_unit_test_setup_teardown(test_create_errors, setup, gteardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
