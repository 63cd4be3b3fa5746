// SPDX-License-Identifier: MIT
/*
 * The fec driver on the ENET model: two nodes (loop, model, device each) on
 * a 1 Gb/s line with a virtual clock. The test thread runs both loops and
 * moves the clock in small steps, so the timing is the line's and the
 * results do not depend on the host's speed. Every frame carries its flow
 * and sequence number and is byte-compared on arrival; every teardown
 * checks that both packet pools are full again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fec_pair.h"

static int setup(void **state)
{
	struct fec_config cfg = { 0 };

	return setup_cfg(state, &cfg, false);
}

static int setup_small_rings(void **state)
{
	struct fec_config cfg = { .rx_ring = 16, .tx_ring = 16 };

	return setup_cfg(state, &cfg, false);
}

static int setup_imx6q(void **state)
{
	struct fec_config cfg = { .soc = ETHDRV_ENET_SOC_IMX6Q };

	return setup_cfg(state, &cfg, false);
}

static int setup_enhanced(void **state)
{
	struct fec_config cfg = { .enhanced_bd = true, .combined_napi = true };

	return setup_cfg(state, &cfg, false);
}

/* ---- tests ---- */

static void test_every_size_both_ways(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1455, .len_of = len_sweep, .window = 48 };
	struct flow b = { .n = 1455, .len_of = len_sweep, .window = 48 };

	/* Every length 60..1514 from each side at once, byte-compared. */
	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 400000, NULL);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(stat(&f->n[i], "rx_errors"), 0);
		assert_int_equal(stat(&f->n[i], "rx_missed_errors"), 0);
		assert_int_equal(stat(&f->n[i], "tx_packets"), 1455);
		assert_int_equal(stat(&f->n[i], "mib_ieee_r_frame_ok"), 1455);
		assert_int_equal(stat(&f->n[i], "fec_tx_bounce"), 0); /* zero copy */
	}
	end_flows(f);
}

static void test_ring_wrap_under_load(void **state)
{
	struct fixture *f = *state;

	scenario_ring_wrap(f, 3000);
	assert_int_equal(stat(&f->n[0], "tx_packets"), 3000);
}

static void test_bql_stop_wake(void **state)
{
	/* Unlimited window: the queue stops. First on byte queue limits. */
	pair_bql_stop_wake(*state, "rx-usecs", "20");
}

static void test_ring_full_stop_wake(void **state)
{
	scenario_ring_full(*state, "20", "fec_tx_ring_full", "fec_tx_ring_wake");
}

static void test_split_switch_under_traffic(void **state)
{
	struct fixture *f = *state;
	char buf[8];

	scenario_split_switch(f, 0);
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "napi_split", buf, sizeof(buf)), 0);
}

static void test_coalescing_irq_counts(void **state)
{
	struct fixture *f = *state;
	struct flow a = { 0 };
	uint64_t irq;

	scenario_coalescing_counts(f, &a, "fec_irq_rxf", "fec_irq_txf");
	/* Coalescing off (usecs 0 with frames 1): one interrupt per frame. A
	 * frame count without a timer would strand frames: refused. */
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "rx-usecs", "0"), -EINVAL);
	set(&f->n[1], "rx-frames", "1");
	set(&f->n[1], "rx-usecs", "0");
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "rx-frames", "8"), -EINVAL);
	irq = stat(&f->n[1], "fec_irq_rxf");
	f->flows[0]->n = 1600;
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[1], "fec_irq_rxf") - irq >= 750);
	end_flows(f);
}

static void test_coalescing_timer(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 20, .len_of = len_1514, .window = 1 };
	struct enet_emu_stats st;

	/* One frame at a time, a 100 us timer and a large frame count: each
	 * frame's interrupt comes from the timer. */
	add_flow(f, &a, 0, 0);
	set(&f->n[1], "rx-frames", "255");
	set(&f->n[1], "rx-usecs", "100");
	run_flows(f, 400000, NULL);
	enet_emu_get_stats(f->n[1].emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.coal_timer_fires), 20);
	assert_int_equal(stat(&f->n[1], "fec_irq_rxf"), 20);
	end_flows(f);
}

static void test_errors_counted(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 400, .len_of = len_1514, .window = 32 };
	uint64_t crc, missed, delivered;

	/* Bit errors: frames arrive with CR, counted, never delivered corrupt. */
	add_flow(f, &a, 0, 0);
	assert_int_equal(fdx_line_set_ber(f->line, 0, 1e-5), 0);
	assert_int_equal(enet_emu_inject(f->n[1].emu, EMU_FAULT_RX_EXHAUST, 7), 0);
	/* Lost frames break the in-order check: send and count instead. */
	a.window = 400;
	for (unsigned i = 0; i < 20000 && a.sent < a.n; i++) {
		flow_send(&a);
		pump(f);
	}
	pump_for(f, 5000000);
	crc = stat(&f->n[1], "rx_crc_errors");
	missed = stat(&f->n[1], "rx_missed_errors");
	delivered = stat(&f->n[1], "rx_packets");
	assert_true(crc > 0);
	assert_int_equal(missed, 7);
	/* Every frame sent is delivered intact or counted once: none corrupt. */
	assert_int_equal(a.bad, 0);
	assert_int_equal(a.rcvd, delivered);
	assert_int_equal(delivered + crc + missed, 400);
	assert_int_equal(a.lost + (a.n - a.next), crc + missed); /* the last ones leave no gap */
	assert_int_equal(stat(&f->n[1], "mib_ieee_r_drop"), 7);
	end_flows(f);
}

static void test_bus_error_restart(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 300, .len_of = len_1514, .window = 400 };
	uint64_t sent, dropped, delivered;

	add_flow(f, &a, 0, 0);
	for (unsigned i = 0; i < 20; i++) {
		flow_send(&a);
		pump(f);
	}
	/* EBERR stops the controller; the driver restarts it from the loop. */
	assert_int_equal(enet_emu_inject(f->n[0].emu, EMU_FAULT_TX_BUS_ERROR, 0), 0);
	for (unsigned i = 0; i < 40000 && a.sent < a.n; i++) {
		flow_send(&a);
		pump(f);
	}
	pump_for(f, 5000000);
	assert_int_equal(stat(&f->n[0], "fec_irq_eberr"), 1);
	assert_int_equal(stat(&f->n[0], "fec_restarts"), 1);
	sent = a.sent;
	dropped = stat(&f->n[0], "tx_dropped");
	delivered = stat(&f->n[1], "rx_packets");
	/* Frames in the ring at the restart are dropped and counted; the one cut
	 * on the wire arrives with a bad FCS. */
	assert_int_equal(delivered + dropped + stat(&f->n[1], "rx_crc_errors"), sent);
	assert_true(delivered > 200);
	assert_int_equal(a.bad, 0);
	assert_int_equal(a.rcvd, delivered);
	end_flows(f);
}

static void test_bounce_and_runts(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_pkt_pool *foreign;
	struct flow a = { .n = 300, .len_of = len_mixed, .window = 32 };

	/* Frames from a pool outside the DMA region are copied (bounced). */
	assert_int_equal(ethdrv_pkt_pool_new(64, &foreign), 0);
	a.pool = foreign;
	add_flow(f, &a, 0, 0);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[0], "fec_tx_bounce"), 300);
	assert_int_equal(ethdrv_pkt_pool_avail(foreign), 64);
	ethdrv_pkt_pool_free(foreign);
	a.pool = NULL;
	/* Frames shorter than 60 bytes arrive padded to 60. */
	f->flows[0] = NULL;
	{
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(f->n[0].pool);
		uint64_t before = stat(&f->n[1], "rx_bytes");

		frame_build(pkt->data, &a, 0, 20);
		pkt->len = 20;
		assert_int_equal(ethdrv_netdev_xmit(f->n[0].dev, pkt), 0);
		pump_for(f, 2000000);
		assert_int_equal(stat(&f->n[1], "rx_bytes") - before, 60);
	}
	end_flows(f);
}

static void test_knobs(void **state)
{
	struct fixture *f = *state;
	struct node *nd = &f->n[0];
	char buf[16];

	assert_int_equal(ethdrv_netdev_get(nd->dev, "rx-usecs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1000");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "tx-frames", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "200");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "adaptive-rx", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "off");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "napi_split", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	/* fec's limits (docs/enet.md §6). */
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-frames", "256"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-frames", "0"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-usecs", "40000"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-usecs", "33000"), 0);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-usecs", "-1"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "adaptive-tx", "maybe"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "napi_split", "2"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "no-such-knob", "1"), -ENOENT);
	assert_int_equal(ethdrv_netdev_get(nd->dev, "rx-usecs", buf, 2), -ENOSPC);
}

static void test_adaptive(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 6000, .len_of = len_mixed, .window = 64 };

	/* net DIM picks profiles once it has seen 64 interrupts per step. */
	f->step_ns = 1000;
	add_flow(f, &a, 0, 0);
	set(&f->n[1], "adaptive-rx", "on");
	set(&f->n[0], "adaptive-tx", "on");
	run_flows(f, 800000, NULL);
	assert_true(stat(&f->n[1], "fec_dim_rx_changes") > 0);
	assert_true(stat(&f->n[0], "fec_dim_tx_changes") > 0);
	set(&f->n[1], "adaptive-rx", "off");
	end_flows(f);
}

static void test_core_knobs(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1500, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 1500, .len_of = len_mixed, .window = 64 };

	/* Software coalescing, busy polling and the budget apply to both pollers. */
	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	set(&f->n[1], "napi_defer_hard_irqs", "2");
	set(&f->n[1], "gro_flush_timeout", "20000");
	set(&f->n[0], "busy_poll", "50");
	set(&f->n[0], "budget", "8");
	set(&f->n[1], "rx-frames", "1");
	set(&f->n[1], "rx-usecs", "0");
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[1], "napi_rx_defer_timer_polls") > 0);
	assert_true(stat(&f->n[0], "napi_rx_busy_polls") > 0);
	end_flows(f);
}

static void test_enhanced_combined(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1455, .len_of = len_sweep, .window = 48 };
	struct flow b = { .n = 500, .len_of = len_mixed, .window = 48 };

	/* 32-byte descriptors and one poller for both directions. */
	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[0], "napi_tx_polls"), 0);
	assert_int_equal(stat(&f->n[0], "fec_tx_errors_bd"), 0);
	end_flows(f);
}

static void test_filters(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1, .len_of = len_1514, .window = 10 };
	static const uint8_t mc[1][ETHDRV_ETH_ALEN] = { { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x42 } };
	static const uint8_t other[ETHDRV_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x77 };
	struct enet_emu_stats st;
	struct node saved;
	uint64_t before;

	add_flow(f, &a, 0, 0);
	/* Unicast to another station is filtered by the MAC. */
	saved = f->n[1];
	memcpy(f->n[1].mac, other, ETHDRV_ETH_ALEN);
	flow_send(&a);
	pump_for(f, 2000000);
	enet_emu_get_stats(f->n[1].emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_filter), 1);
	/* Promiscuous mode lets it in. */
	assert_int_equal(ethdrv_netdev_set_rx_filter(f->n[1].dev, ETHDRV_RXF_PROMISC, NULL, 0), 0);
	before = stat(&f->n[1], "rx_packets");
	a.n = 2;
	flow_send(&a);
	pump_for(f, 2000000);
	assert_int_equal(stat(&f->n[1], "rx_packets"), before + 1);
	/* A multicast group through the hash. */
	assert_int_equal(ethdrv_netdev_set_rx_filter(f->n[1].dev, ETHDRV_RXF_BROADCAST, mc, 1), 0);
	memcpy(f->n[1].mac, mc[0], ETHDRV_ETH_ALEN);
	a.n = 3;
	flow_send(&a);
	pump_for(f, 2000000);
	assert_int_equal(stat(&f->n[1], "rx_packets"), before + 2);
	assert_int_equal(stat(&f->n[1], "multicast"), 1);
	memcpy(f->n[1].mac, saved.mac, ETHDRV_ETH_ALEN);
	end_flows(f);
}

/*
 * The reset and the MIB clear per part (docs/enet.md §15): on the i.MX8M
 * (default) the driver never writes ECR.RESET, on the i.MX6Q it does; on
 * both the MIB block reads zero after a restart while ethtool's 64-bit
 * counters keep what was counted before.
 */
static void check_reset_and_mib(struct fixture *f, bool axi)
{
	struct flow a = { .n = 10, .len_of = len_1514, .window = 4 };
	struct enet_emu_stats st;
	uint32_t v;

	add_flow(f, &a, 0, 0);
	run_flows(f, 400000, NULL);
	end_flows(f);
	assert_int_equal(enet_emu_peek_reg(f->n[0].emu, 0x204, &v), 0); /* RMON_T_PACKETS */
	assert_int_equal(v, 10);
	assert_int_equal(ethdrv_netdev_stop(f->n[0].dev), 0);
	assert_int_equal(ethdrv_netdev_open(f->n[0].dev), 0);
	assert_int_equal(enet_emu_peek_reg(f->n[0].emu, 0x204, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(enet_emu_peek_reg(f->n[0].emu, 0x244, &v), 0); /* RMON_T_OCTETS */
	assert_int_equal(v, 0);
	assert_int_equal(stat(&f->n[0], "mib_rmon_t_packets"), 10);
	enet_emu_get_stats(f->n[0].emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.resets_axi), 0);
	if (axi)
		assert_int_equal(ethdrv_counter_get(&st.resets), 0);
	else
		assert_int_equal(ethdrv_counter_get(&st.resets), 2);
}

static void test_reset_imx8m(void **state)
{
	check_reset_and_mib(*state, true);
}

static void test_reset_imx6q(void **state)
{
	check_reset_and_mib(*state, false);
}

static void test_create_errors(void **state)
{
	struct fixture *f = *state;
	struct fec_config cfg = { .name = "x", .mac = { 0x02, 1, 2, 3, 4, 5 } };
	struct ethdrv_netdev *dev;
	struct ethdrv_mmio_bus bus = f->n[0].bus;

	cfg.rx_ring = 100;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.rx_ring = 0;
	cfg.fixed_link_mbps = 2500;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.fixed_link_mbps = 1000;
	cfg.mac[0] = 0x01;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.mac[0] = 0x02;
	bus.dma.size = 4096;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -ENOSPC);
	bus.dma.size = f->n[0].bus.dma.size;
	bus.irq_fd[0] = -1;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	bus.irq_fd[0] = f->n[0].bus.irq_fd[0];
	cfg.soc = ETHDRV_ENET_SOC_COUNT;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.soc = ETHDRV_ENET_SOC_IMX8M;
	assert_true(fec_dma_size(&cfg) < f->n[0].bus.dma.size);
}

/* pool_extra: the pool has that many more buffers (the node's fair queue,
 * docs/fq.md §2), the DMA size grows by them, traffic flows through the larger
 * pool (the teardown checks it is full again), and a region too small for
 * them is refused before anything is written. */
static int setup_pool_extra(void **state)
{
	struct fec_config cfg = { .pool_extra = 1000 };

	return setup_cfg(state, &cfg, false);
}

static void test_pool_extra(void **state)
{
	struct fixture *f = *state;
	struct fec_config cfg = { .name = "x", .mac = { 0x02, 1, 2, 3, 4, 5 } };
	struct flow a = { .n = 500, .len_of = len_sweep, .window = 48 };
	struct ethdrv_pkt_pool_stats ps;
	struct ethdrv_netdev *dev;
	struct ethdrv_mmio_bus bus = f->n[0].bus;
	size_t base = fec_dma_size(&cfg);

	ethdrv_pkt_pool_get_stats(fec_get_pool(f->n[0].dev), &ps);
	assert_int_equal(ps.size, 256 + 256 + 512 + 1000);
	add_flow(f, &a, 0, 0);
	run_flows(f, 200000, NULL);
	assert_int_equal(stat(&f->n[1], "mib_ieee_r_frame_ok"), 500);
	end_flows(f);
	cfg.pool_extra = 1000;
	assert_int_equal(fec_dma_size(&cfg), base + 1000 * sizeof(struct ethdrv_pkt));
	cfg.pool_extra = (unsigned)(bus.dma.size / sizeof(struct ethdrv_pkt));
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_size_both_ways, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_wrap_under_load, setup_small_rings,
						teardown),
		cmocka_unit_test_setup_teardown(test_bql_stop_wake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_full_stop_wake, setup_small_rings,
						teardown),
		cmocka_unit_test_setup_teardown(test_split_switch_under_traffic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_irq_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bus_error_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounce_and_runts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adaptive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_core_knobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enhanced_combined, setup_enhanced, teardown),
		cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_extra, setup_pool_extra, teardown),
		cmocka_unit_test_setup_teardown(test_reset_imx8m, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_imx6q, setup_imx6q, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
