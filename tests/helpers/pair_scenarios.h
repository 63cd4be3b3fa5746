/* SPDX-License-Identifier: MIT */
/*
 * Scenarios every split-NAPI ring-MAC driver pair passes (fec on ENET,
 * gianfar on eTSEC), on the fixture and traffic of mac_pair.h; the driver's
 * own counters come in by name. Include cmocka.h and the pair's header first.
 */
#ifndef ETHDRV_TESTS_PAIR_SCENARIOS_H
#define ETHDRV_TESTS_PAIR_SCENARIOS_H

#include "mac_pair.h"

/* ---- mode switches under traffic ---- */

/* Every 97 pumps: napi_split flips on both nodes. */
static inline void toggle_split(struct fixture *f, unsigned i)
{
	if (i % 97 == 0)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "napi_split", (i / 97) % 2 ? "0" : "1");
}

/* ---- real time (threaded tests) ---- */

/* Run the loops until both devices completed @n frames (TX completions are
 * coalesced: the last ones come with the timer, after the flows are done). */
static inline void run_until_sent(struct fixture *f, uint64_t n)
{
	uint64_t deadline = ethdrv_now_ns() + RUN_TIMEOUT_NS;

	while ((stat(&f->n[0], "tx_packets") < n || stat(&f->n[1], "tx_packets") < n) &&
	       ethdrv_now_ns() < deadline) {
		if (!ethdrv_loop_run_once(f->n[0].loop, ETHDRV_RUN_NOWAIT) +
		    ethdrv_loop_run_once(f->n[1].loop, ETHDRV_RUN_NOWAIT))
			usleep(50);
	}
}

/* Both devices completed @n frames, with none missed for want of a
 * descriptor, and the driver's counter @moved moved on both. */
static inline void assert_both_sent(struct fixture *f, uint64_t n, const char *moved)
{
	run_until_sent(f, n);
	for (unsigned k = 0; k < 2; k++) {
		assert_true(stat(&f->n[k], moved) > 0);
		assert_int_equal(stat(&f->n[k], "tx_packets"), n);
		assert_int_equal(stat(&f->n[k], "rx_missed_errors"), 0);
	}
}

/* Every few hundred loop rounds: switch pollers; once, threaded off and on. */
static inline void churn(struct fixture *f, unsigned i)
{
	if (i % 300 == 0)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "napi_split", (i / 300) % 2 ? "0" : "1");
	if (i == 2000 || i == 3000)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "threaded", i == 2000 ? "0" : "1");
}

/* DIM, software coalescing and small coalescing thresholds in threads; the
 * receiver's RX interrupt counter @irq_stat must have moved. */
static inline void threaded_moderation(struct fixture *f, const char *irq_stat)
{
	struct flow a = { .n = 4000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 1000, .len_of = len_mixed, .window = 16 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	for (unsigned k = 0; k < 2; k++) {
		set(&f->n[k], "threaded", "1");
		set(&f->n[k], "adaptive-rx", "on");
		set(&f->n[k], "adaptive-tx", "on");
		set(&f->n[k], "napi_defer_hard_irqs", "1");
		set(&f->n[k], "gro_flush_timeout", "20000");
	}
	run_real(f, NULL);
	assert_true(stat(&f->n[1], irq_stat) > 0);
	end_flows(f);
}

/* ---- scenarios both ring-MAC drivers pass (their counters by @drv prefix) ---- */

/* 16-BD rings wrap about 190 times under a window of 14 frames. */
static inline void scenario_ring_wrap(struct fixture *f, unsigned n)
{
	struct flow a = { .n = n, .len_of = len_mixed, .window = 14 };

	add_flow(f, &a, 0, 0);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	end_flows(f);
}

/* BQL out of the way: the 16-BD ring fills, netif_stop_queue at full, wake
 * at half empty, nothing lost; @full/@wake: the driver's counters. */
static inline void scenario_ring_full(struct fixture *f, const char *rx_usecs, const char *full,
				      const char *wake)
{
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	add_flow(f, &a, 0, 0);
	set(&f->n[0], "bql_limit_min", "10000000");
	if (rx_usecs)
		set(&f->n[1], "rx-usecs", rx_usecs);
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], full) > 0);
	assert_int_equal(stat(&f->n[0], wake), stat(&f->n[0], full));
	assert_true(f->n[0].tx_wakes > 0);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	end_flows(f);
}

/* Both ways while napi_split flips; @settle_ns of pumping for the last TX
 * confirmations. Both modes ran: the TX poller worked, nothing was lost. */
static inline void scenario_split_switch(struct fixture *f, uint64_t settle_ns)
{
	struct flow a = { .n = 4000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 4000, .len_of = len_mixed, .window = 64 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 600000, toggle_split);
	pump_for(f, settle_ns);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(stat(&f->n[i], "napi_tx_polls") > 0);
		assert_int_equal(stat(&f->n[i], "tx_packets"), 4000);
		assert_int_equal(stat(&f->n[i], "tx_dropped"), 0);
	}
	end_flows(f);
}

/*
 * 800 frames with an RX interrupt every 8 frames and a TX one every 16
 * (10 ms timers behind them), one step per microsecond so that the poll
 * runs before the next frame is in: about one interrupt per threshold (a
 * few more where the timer released a remainder while the sender waited
 * for its window), by the driver's counters @rx_irq and @tx_irq.
 */
static inline void scenario_coalescing_counts(struct fixture *f, struct flow *a, const char *rx_irq,
					      const char *tx_irq)
{
	uint64_t irq;

	a->n = 800;
	a->len_of = len_1514;
	a->window = 200;
	f->step_ns = 1000;
	add_flow(f, a, 0, 0);
	set(&f->n[1], "rx-frames", "8");
	set(&f->n[1], "rx-usecs", "10000");
	set(&f->n[0], "tx-frames", "16");
	set(&f->n[0], "tx-usecs", "10000");
	run_flows(f, 400000, NULL);
	irq = stat(&f->n[1], rx_irq);
	assert_true(irq >= 800 / 8 - 2 && irq <= 800 / 8 + 6);
	irq = stat(&f->n[0], tx_irq);
	assert_true(irq >= 800 / 16 - 2 && irq <= 800 / 16 + 6);
}

/* Threaded pollers both ways while structures and threading change. */
static inline void scenario_threaded_switch(struct fixture *f, const char *wakeups)
{
	struct flow a = { .n = 3000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 3000, .len_of = len_mixed, .window = 64 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	for (unsigned k = 0; k < 2; k++)
		set(&f->n[k], "threaded", "1");
	run_real(f, churn);
	assert_both_sent(f, 3000, wakeups);
	end_flows(f);
}

/* The interrupt handler (the driver's own lines) and the polls in softirq
 * loops of their own while the test thread sends and @each switches modes
 * (churn above, or a driver's own): nothing lost; the driver's interrupt
 * counter @irqs moved. */
static inline void scenario_softirq_loops(struct fixture *f, const char *irqs,
					  void (*each)(struct fixture *, unsigned))
{
	struct flow a = { .n = 3000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 3000, .len_of = len_mixed, .window = 64 };
	struct ethdrv_cpu_loops *cl[2];

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	pair_softirq_loops(f, cl);
	run_real(f, each);
	assert_both_sent(f, 3000, irqs);
	pair_softirq_loops_stop(f, cl);
	end_flows(f);
}

#endif /* ETHDRV_TESTS_PAIR_SCENARIOS_H */
