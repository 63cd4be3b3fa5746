// SPDX-License-Identifier: MIT
/*
 * The ravb driver with two GbEth models on a virtual-clock line
 * (gbeth_pair.h): every frame size 60-1514 both ways, byte-compared, with
 * the 2024 page-sized, the pre-2024 4080-byte and 256-byte RX buffers
 * (frames over several descriptors, docs/gbeth.md §3.5); ring wrap under
 * load on 16-entry rings; BQL and ring-full stop/wake; the budget counted
 * in packets (fails if descriptors are counted) and the pre-2024 poll's
 * descriptor count (docs/gbeth.md §4.4); descriptor-empty drops counted
 * (docs/gbeth.md §3.4) and put down to the driver (docs/design.md §4.8);
 * every emu.inject fault on traffic both ways, each costing its frames only,
 * the books balanced hop by hop (docs/gbeth.md §12 item 11,
 * docs/accounting.md §9); ethtool -C refused (docs/gbeth.md §4.2); knobs.
 * Every teardown checks both pools are full again.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gbeth_pair.h"

static int setup(void **state)
{
	struct ravb_config cfg = { 0 };

	return gbeth_setup_cfg(state, &cfg, false);
}

static int setup_small_rings(void **state)
{
	struct ravb_config cfg = { .rx_ring = 16, .tx_ring = 16 };

	return gbeth_setup_cfg(state, &cfg, false);
}

static int setup_pre2024(void **state)
{
	struct ravb_config cfg = { .poll_mode = RAVB_POLL_PRE2024, .rx_buf = RAVB_RX_BUF_PRE2024 };

	return gbeth_setup_cfg(state, &cfg, false);
}

static void sweep_both_ways(struct fixture *f)
{
	struct flow a = { .n = 1455, .len_of = len_sweep, .window = 32 };
	struct flow b = { .n = 1455, .len_of = len_sweep, .window = 32 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 400000, NULL);
	end_flows(f);
}

static void test_every_size_both_ways(void **state)
{
	struct fixture *f = *state;

	sweep_both_ways(f);
	assert_int_equal(stat(&f->n[1], "ravb_rx_multi_desc"), 0); /* 1726 holds 1514 + 4 */
	assert_int_equal(stat(&f->n[1], "rx_errors"), 0);
	/* Every frame's checksum trailer was stripped; none was IP, so none checked. */
	assert_int_equal(stat(&f->n[1], "ravb_rx_csum_bad"), 0);
}

/* rx-buf 256: a 1514-byte frame is FSTART, 4 x FMID, FEND (docs/gbeth.md §3.5). */
static void test_frames_over_several_descriptors(void **state)
{
	struct fixture *f = *state;

	set(&f->n[0], "rx-buf", "256");
	set(&f->n[1], "rx-buf", "256");
	sweep_both_ways(f);
	assert_true(stat(&f->n[1], "ravb_rx_multi_desc") > 1000);
	assert_true(stat(&f->n[0], "ravb_rx_multi_desc") > 1000);
	assert_int_equal(stat(&f->n[1], "rx_errors"), 0);
}

static void test_pre2024_every_size(void **state)
{
	struct fixture *f = *state;
	char v[16];

	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "poll_mode", v, sizeof(v)), 0);
	assert_string_equal(v, "pre2024");
	sweep_both_ways(f);
	assert_int_equal(stat(&f->n[1], "ravb_rx_multi_desc"), 0);
}

static void test_ring_wrap_under_load(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 3000, .len_of = len_mixed, .window = 12 };
	struct flow b = { .n = 3000, .len_of = len_1514, .window = 12 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 800000, NULL);
	/* 3000 frames on 16 entries: each ring wrapped many times. */
	assert_true(stat(&f->n[1], "rx_packets") >= 3000);
	end_flows(f);
}

static void test_bql_and_ring_full(void **state)
{
	pair_bql_stop_wake(*state, NULL, NULL);
}

static void test_ring_full_stop_wake(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	add_flow(f, &a, 0, 0);
	set(&f->n[0], "bql_limit_min", "10000000");
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], "ravb_tx_ring_full") > 0);
	assert_int_equal(stat(&f->n[0], "ravb_tx_ring_wake"), stat(&f->n[0], "ravb_tx_ring_full"));
	assert_int_equal(stat(&f->n[1], "rx_over_errors"), 0);
	end_flows(f);
}

/*
 * Node 1's loop is held while node 0 sends @n frames of 1514 bytes into its
 * 256-entry RX ring, then it runs once: one interrupt, polls of budget 64.
 */
static void burst_then_poll(struct fixture *f, unsigned n)
{
	struct flow a = { .n = n, .len_of = len_1514, .window = n };

	add_flow(f, &a, 0, 0);
	pump_sender_only(f, 4000);
	assert_int_equal(stat(&f->n[1], "rx_packets"), 0);
	run_flows(f, 400000, NULL);
	end_flows(f);
}

/* The budget is packets: 40 frames of 6 descriptors are 40 units, under one budget. */
static void test_budget_counts_packets(void **state)
{
	struct fixture *f = *state;

	set(&f->n[1], "rx-buf", "256");
	burst_then_poll(f, 40);
	assert_int_equal(stat(&f->n[1], "ravb_rx_multi_desc"), 40);
	/* Work reported is packets, never descriptors (240 here). */
	assert_int_equal(stat(&f->n[1], "napi_rxtx_work"), 40);
	assert_int_equal(stat(&f->n[1], "napi_rxtx_repolls"), 0);
}

/* The pre-2024 poll charges descriptors: the same burst spends whole budgets. */
static void test_pre2024_counts_descriptors(void **state)
{
	struct fixture *f = *state;

	set(&f->n[1], "rx-buf", "256");
	set(&f->n[1], "poll_mode", "pre2024");
	burst_then_poll(f, 40);
	assert_int_equal(stat(&f->n[1], "napi_rxtx_work"), 240);
	assert_true(stat(&f->n[1], "napi_rxtx_repolls") >= 3);
	assert_true(stat(&f->n[1], "ravb_polls_early_return") >= 3);
}

/* More frames than RX descriptors while nobody polls: the rest are dropped and counted. */
static void test_descriptor_empty_counted(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 400, .len_of = len_1514, .window = 400 };
	struct gbeth_emu_stats st;

	add_flow(f, &a, 0, 0);
	pump_sender_only(f, 20000);
	pump_for(f, 2000000);
	gbeth_emu_get_stats(f->n[1].emu, &st);
	assert_int_equal(a.sent, 400);
	assert_true(ethdrv_counter_get(&st.rx_dropped_nodesc) > 0);
	/* Every frame arrived intact or was counted where it was lost. */
	assert_int_equal(a.rcvd + ethdrv_counter_get(&st.rx_dropped_nodesc), 400);
	assert_int_equal(a.bad, 0);
	assert_int_equal(stat(&f->n[1], "rx_packets") + ethdrv_counter_get(&st.rx_dropped_nodesc),
			 400);
	assert_true(stat(&f->n[1], "rx_over_errors") > 0);
	/* The driver's loss, not the lab's (docs/design.md §4.8): nobody polled. */
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_driver),
			 ethdrv_counter_get(&st.rx_dropped_nodesc));
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_injected), 0);
	assert_true(ethdrv_counter_get(&st.rx_loss.gap_max_ns) > 0);
	end_flows(f);
}

/* The line down under traffic: what is sent is lost and counted (CXR42); up again, traffic flows. */
static void link_down_up(struct fixture *f, const char *mode)
{
	struct flow a = { .n = 200, .len_of = len_mixed, .window = 16 };
	struct gbeth_emu_stats st;

	for (unsigned k = 0; k < 2; k++)
		set(&f->n[k], "poll_mode", mode);
	fdx_line_set_link(f->line, false);
	add_flow(f, &a, 0, 0);
	for (unsigned i = 0; i < 2000; i++) {
		flows_offer(f);
		pump(f);
	}
	end_flows(f);
	gbeth_emu_get_stats(f->n[0].emu, &st);
	assert_true(ethdrv_counter_get(&st.tx_link_down) > 0);
	assert_true(stat(&f->n[0], "tx_carrier_errors") > 0); /* CXR42 read at get_stats */
	fdx_line_set_link(f->line, true);
	sweep_both_ways(f);
}

static void test_link_down_up(void **state)
{
	link_down_up(*state, "2024");
}

static void test_link_down_up_pre2024(void **state)
{
	link_down_up(*state, "pre2024");
}

/* The model's counters of node @i. */
static struct gbeth_emu_stats emu_stats(struct fixture *f, unsigned i)
{
	struct gbeth_emu_stats st;

	gbeth_emu_get_stats(f->n[i].emu, &st);
	return st;
}

#define ECNT(st, c) ethdrv_counter_get(&(st).c)

/*
 * The books of node @k (docs/accounting.md §9), hop by hop: what its driver
 * sent left the MAC or was counted there, and left the line or was lost on
 * it; what the peer's MAC sent it was written to memory or counted by
 * reason, and every frame written reached the driver's stack or its errors.
 */
static void books_balance(struct fixture *f, unsigned k)
{
	struct gbeth_emu_stats e = emu_stats(f, k);
	struct fdx_line_stats l;
	struct node *nd = &f->n[k];

	fdx_line_get_stats(f->line, &l);
	assert_int_equal(stat(nd, "tx_packets"), ECNT(e, tx_frames) + ECNT(e, tx_too_long) +
							 ECNT(e, tx_te_off) +
							 ECNT(e, tx_dropped_dma));
	assert_int_equal(ECNT(e, tx_frames), ECNT(l, frames[k]) + ECNT(l, lost[k]));
	assert_int_equal(ECNT(l, frames[!k]),
			 ECNT(e, rx_frames) + ECNT(e, rx_dropped_nodesc) + ECNT(e, rx_dropped_off) +
				 ECNT(e, rx_dropped_filter) + ECNT(e, rx_dropped_dma));
	assert_int_equal(ECNT(e, rx_frames), stat(nd, "rx_packets") + stat(nd, "rx_errors"));
	/* Each descriptor-empty drop has one cause (docs/design.md §4.8). */
	assert_int_equal(ECNT(e, rx_dropped_nodesc),
			 ECNT(e, rx_loss.lost_driver) + ECNT(e, rx_loss.lost_lab) +
				 ECNT(e, rx_loss.lost_steal) + ECNT(e, rx_loss.lost_injected));
}

/* Frames of @fl that never arrived (after the link went quiet). */
static unsigned flow_missing(struct flow *fl)
{
	return fl->n - fl->rcvd;
}

/*
 * Traffic both ways with every fault of emu.inject (docs/gbeth.md §12 item
 * 11) armed part-way: each costs exactly its frames, counted where they
 * were lost, nothing arrives corrupt, and the books balance on both nodes.
 */
static void faults_both_ways(struct fixture *f)
{
	struct flow a = { .n = 800, .len_of = len_mixed, .window = 16 };
	struct flow b = { .n = 800, .len_of = len_mixed, .window = 16 };
	struct gbeth_emu_stats e0, e1;

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	for (unsigned i = 0; i < 800000 && (a.sent < a.n || b.sent < b.n); i++) {
		if (i == 200)
			assert_int_equal(gbeth_emu_inject(f->n[1].emu, EMU_FAULT_RX_EXHAUST, 5), 0);
		if (i == 600)
			assert_int_equal(gbeth_emu_inject(f->n[1].emu, EMU_FAULT_RX_BUS_ERROR, 0),
					 0);
		if (i == 1000)
			assert_int_equal(gbeth_emu_inject(f->n[0].emu, EMU_FAULT_TX_BUS_ERROR, 0),
					 0);
		if (i == 1400)
			assert_int_equal(gbeth_emu_inject(f->n[0].emu, EMU_FAULT_RX_EXHAUST, 3), 0);
		flows_offer(f);
		pump(f);
	}
	pump_for(f, 2000000);
	assert_int_equal(a.sent, a.n);
	assert_int_equal(b.sent, b.n);
	assert_int_equal(a.bad + b.bad, 0);
	e0 = emu_stats(f, 0);
	e1 = emu_stats(f, 1);
	/* Every armed fault took effect, and cost its frames only. */
	assert_int_equal(ECNT(e1, faults), 6);
	assert_int_equal(ECNT(e0, faults), 4);
	assert_int_equal(flow_missing(&a), 5 + 1 + 1);
	assert_int_equal(flow_missing(&b), 3);
	assert_int_equal(ECNT(e1, rx_loss.lost_injected), 5);
	assert_int_equal(ECNT(e1, rx_dropped_dma), 1);
	assert_int_equal(ECNT(e0, tx_dropped_dma), 1);
	assert_int_equal(ECNT(e0, rx_loss.lost_injected), 3);
	assert_int_equal(ECNT(e0, rx_loss.lost_driver) + ECNT(e1, rx_loss.lost_driver), 0);
	/* The driver saw the descriptor-empty status (QFF0 -> rx_over_errors). */
	assert_true(stat(&f->n[1], "rx_over_errors") > 0);
	for (unsigned k = 0; k < 2; k++)
		books_balance(f, k);
	end_flows(f);
}

static void test_faults_books_balance(void **state)
{
	faults_both_ways(*state);
}

/* The same with the pre-2024 poll and frames over several 256-byte descriptors. */
static void test_faults_books_balance_pre2024(void **state)
{
	struct fixture *f = *state;

	for (unsigned k = 0; k < 2; k++) {
		set(&f->n[k], "poll_mode", "pre2024");
		set(&f->n[k], "rx-buf", "256");
	}
	faults_both_ways(f);
}

static void test_knobs(void **state)
{
	struct fixture *f = *state;
	char v[32];

	/* No hardware coalescing: every ethtool -C name is refused. */
	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "rx-usecs", "20"), -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "tx-frames", "8"), -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "adaptive-rx", "on"), -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "rx-usecs", v, sizeof(v)), 0);
	assert_string_equal(v, "0");
	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "poll_mode", "2023"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "rx-buf", "4096"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "rx-buf", "63"), -EINVAL);
	set(&f->n[0], "rx-buf", "pre2024");
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "rx-buf", v, sizeof(v)), 0);
	assert_string_equal(v, "4080");
	/* The 2024 defaults of the core's software coalescing (docs/gbeth.md §4.2). */
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "napi_defer_hard_irqs", v, sizeof(v)), 0);
	assert_string_equal(v, "1");
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "gro_flush_timeout", v, sizeof(v)), 0);
	assert_string_equal(v, "20000");
	set(&f->n[0], "rx-checksum", "off");
	sweep_both_ways(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_size_both_ways, setup, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_frames_over_several_descriptors, setup,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_pre2024_every_size, setup_pre2024,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_ring_wrap_under_load, setup_small_rings,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_bql_and_ring_full, setup, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_ring_full_stop_wake, setup_small_rings,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_budget_counts_packets, setup, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_pre2024_counts_descriptors, setup,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_descriptor_empty_counted, setup,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_link_down_up, setup, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_link_down_up_pre2024, setup, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_faults_books_balance, setup, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_faults_books_balance_pre2024, setup,
						gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_knobs, setup, gbeth_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
