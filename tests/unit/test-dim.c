// SPDX-License-Identifier: MIT
/*
 * Dynamic interrupt moderation (dim.h): the comparison rules and the
 * tuning walk of net DIM (docs/napi.md §5.2), driven with synthetic
 * samples whose byte rate depends on the profile in effect.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ethdrv/dim.h"

/* A fake device: each measurement of 64 events lasts 1 ms and moves
 * rate[profile] bytes and rate[profile] / 100 packets. */
struct fake {
	struct ethdrv_dim dim;
	struct ethdrv_dim_sample s;
	const uint32_t *rate; /* bytes per ms for each profile */
};

/* Feed one measurement's worth of events; true if the profile changed. */
static bool fake_measure(struct fake *f)
{
	bool changed = false;

	for (unsigned e = 0; e < ETHDRV_DIM_NEVENTS; e++) {
		f->s.events++;
		f->s.time_ns += 1000000 / ETHDRV_DIM_NEVENTS;
		f->s.bytes += f->rate[f->dim.profile_ix] / ETHDRV_DIM_NEVENTS;
		f->s.pkts += f->rate[f->dim.profile_ix] / 100 / ETHDRV_DIM_NEVENTS;
		changed |= ethdrv_dim_update(&f->dim, &f->s);
	}
	return changed;
}

static void test_init(void **state)
{
	struct ethdrv_dim d;

	(void)state;
	assert_int_equal(ethdrv_dim_init(NULL, ethdrv_dim_rx_cqe, 1), -EINVAL);
	assert_int_equal(ethdrv_dim_init(&d, NULL, 1), -EINVAL);
	assert_int_equal(ethdrv_dim_init(&d, ethdrv_dim_rx_cqe, ETHDRV_DIM_PROFILES), -EINVAL);
	assert_int_equal(ethdrv_dim_init(&d, ethdrv_dim_rx_cqe, ETHDRV_DIM_DEFAULT_PROFILE), 0);
	assert_int_equal(ethdrv_dim_current(&d)->usec, 8);
	assert_int_equal(ethdrv_dim_current(&d)->pkts, 128);
	/* The kernel's tables (docs/napi.md §5.2). */
	assert_int_equal(ethdrv_dim_rx_eqe[4].usec, 256);
	assert_int_equal(ethdrv_dim_tx_cqe[0].usec, 5);
	assert_int_equal(ethdrv_dim_tx_eqe[2].usec, 32);
}

static void test_compare(void **state)
{
	struct ethdrv_dim_stats prev = { .ppms = 100, .bpms = 1000, .epms = 50 }, c;

	(void)state;
	/* Bytes first: a change counts only above 10 %. */
	c = prev;
	c.bpms = 1110; /* 11 % (integer percent, as the kernel) */
	assert_int_equal(ethdrv_dim_compare(&c, &prev), 1);
	c.bpms = 1109; /* 10 % */
	assert_int_equal(ethdrv_dim_compare(&c, &prev), 0);
	c.bpms = 890;
	assert_int_equal(ethdrv_dim_compare(&c, &prev), -1);
	/* Equal bytes: more packets is better. */
	c = prev;
	c.ppms = 120;
	assert_int_equal(ethdrv_dim_compare(&c, &prev), 1);
	/* Equal bytes and packets: fewer events is better. */
	c = prev;
	c.epms = 40;
	assert_int_equal(ethdrv_dim_compare(&c, &prev), 1);
	c.epms = 60;
	assert_int_equal(ethdrv_dim_compare(&c, &prev), -1);
	/* From nothing, any traffic is better. */
	prev = (struct ethdrv_dim_stats){ 0 };
	assert_int_equal(ethdrv_dim_compare(&c, &prev), 1);
	c = prev;
	assert_int_equal(ethdrv_dim_compare(&c, &prev), 0);
}

static void test_needs_64_events(void **state)
{
	static const uint32_t rate[5] = { 1000, 1000, 1000, 1000, 1000 };
	struct fake f = { .rate = rate };

	(void)state;
	assert_int_equal(ethdrv_dim_init(&f.dim, ethdrv_dim_rx_cqe, 1), 0);
	/* The first sample only starts a measurement; 63 more decide nothing. */
	for (unsigned e = 0; e < ETHDRV_DIM_NEVENTS; e++) {
		f.s.events++;
		f.s.time_ns += 10000;
		f.s.bytes += 100;
		assert_false(ethdrv_dim_update(&f.dim, &f.s));
	}
	assert_int_equal(f.dim.decisions, 0);
	f.s.events++;
	f.s.time_ns += 10000;
	/* The 64th event after the start decides: from parked with zero
	 * reference rates, traffic is a change, and DIM steps left. */
	assert_true(ethdrv_dim_update(&f.dim, &f.s));
	assert_int_equal(f.dim.decisions, 1);
	assert_int_equal(f.dim.profile_ix, 0);
	assert_int_equal(f.dim.tune, ETHDRV_DIM_GOING_LEFT);
}

static void test_finds_best_profile(void **state)
{
	/* Throughput peaks at profile 3. */
	static const uint32_t rate[5] = { 100000, 200000, 300000, 400000, 300000 };
	struct fake f = { .rate = rate };

	(void)state;
	assert_int_equal(ethdrv_dim_init(&f.dim, ethdrv_dim_rx_cqe, 1), 0);
	for (unsigned m = 0; m < 20; m++)
		fake_measure(&f);
	assert_int_equal(f.dim.profile_ix, 3);
	assert_int_equal(f.dim.tune, ETHDRV_DIM_PARKING_ON_TOP);
	assert_int_equal(ethdrv_dim_current(&f.dim)->usec, 32);
	/* Parked: steady traffic keeps it there. */
	for (unsigned m = 0; m < 5; m++)
		assert_false(fake_measure(&f));
	assert_int_equal(f.dim.profile_ix, 3);
}

static void test_moves_on_change(void **state)
{
	static const uint32_t rate[5] = { 100000, 200000, 300000, 400000, 300000 };
	static const uint32_t lower[5] = { 50000, 50000, 50000, 50000, 50000 };
	struct fake f = { .rate = rate };
	bool changed;

	(void)state;
	assert_int_equal(ethdrv_dim_init(&f.dim, ethdrv_dim_rx_cqe, 1), 0);
	for (unsigned m = 0; m < 20; m++)
		fake_measure(&f);
	assert_int_equal(f.dim.tune, ETHDRV_DIM_PARKING_ON_TOP);
	/* The load drops: a significant change makes it step away from the top
	 * (decisions fall one event into the next fake_measure()). */
	f.rate = lower;
	changed = fake_measure(&f);
	changed |= fake_measure(&f);
	assert_true(changed);
	assert_int_not_equal(f.dim.tune, ETHDRV_DIM_PARKING_ON_TOP);
}

static void test_edge_parks(void **state)
{
	/* More moderation is always better: it walks right to the edge and parks. */
	static const uint32_t rate[5] = { 100000, 200000, 400000, 800000, 1600000 };
	struct fake f = { .rate = rate };

	(void)state;
	assert_int_equal(ethdrv_dim_init(&f.dim, ethdrv_dim_rx_cqe, 1), 0);
	for (unsigned m = 0; m < 20; m++)
		fake_measure(&f);
	assert_int_equal(f.dim.profile_ix, 4);
	assert_int_equal(f.dim.tune, ETHDRV_DIM_PARKING_ON_TOP);
}

static void test_counter_wrap(void **state)
{
	static const uint32_t rate[5] = { 100000, 100000, 100000, 100000, 100000 };
	struct fake f = { .rate = rate };

	(void)state;
	assert_int_equal(ethdrv_dim_init(&f.dim, ethdrv_dim_rx_cqe, 1), 0);
	/* Counters that wrap mid-measurement still give positive deltas. */
	f.s.events = UINT32_MAX - 10;
	f.s.bytes = UINT32_MAX - 1000;
	f.s.pkts = UINT32_MAX - 5;
	fake_measure(&f);
	fake_measure(&f);
	assert_int_equal(f.dim.decisions, 1);
	assert_int_equal(f.dim.prev.bpms, 99968); /* 64 * 1562 bytes in 999936 ns */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_needs_64_events),
		cmocka_unit_test(test_finds_best_profile),
		cmocka_unit_test(test_moves_on_change),
		cmocka_unit_test(test_edge_parks),
		cmocka_unit_test(test_counter_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
