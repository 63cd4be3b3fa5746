// SPDX-License-Identifier: MIT
/*
 * The ravb driver with its poller in a thread on two GbEth models in real
 * time: the line's engine thread, one poller thread per device and the test
 * thread (running both loops: the interrupt handler, start_xmit, knob
 * changes) all touch the driver and the model at once, while the poll mode
 * switches between 2024 and pre2024 (docs/gbeth.md §4.3, docs/gbeth.md §4.4)
 * and threaded goes off and on. Built twice: with ASan like every test, and
 * with ThreadSanitizer (test-ravb-threaded-tsan, tests/CMakeLists.txt). It
 * asserts behaviour only, never timing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "gbeth_pair.h"
#include "pair_scenarios.h"

static int setup_rt(void **state)
{
	struct ravb_config cfg = { .rx_buf = 512 };

	return gbeth_setup_cfg(state, &cfg, true);
}

/* ravb has no split poller: its churn switches the poll mode instead. */
static void churn_poll_mode(struct fixture *f, unsigned i)
{
	if (i % 400 == 0)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "poll_mode", (i / 400) % 2 ? "pre2024" : "2024");
	if (i == 2000 || i == 3000)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "threaded", i == 2000 ? "0" : "1");
}

static void test_threaded_both_ways(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 20000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 20000, .len_of = len_mixed, .window = 64 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	for (unsigned k = 0; k < 2; k++)
		set(&f->n[k], "threaded", "1");
	run_real(f, churn_poll_mode);
	assert_true(stat(&f->n[1], "ravb_rx_multi_desc") > 0);
	end_flows(f);
}

/* contexts=irq: the `mux` line's handler and the poll in a softirq loop of
 * each node while the test thread sends; poll_mode and threaded switching. */
static void test_irq_in_softirq_loop(void **state)
{
	scenario_softirq_loops(*state, "ravb_irqs", churn_poll_mode);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_threaded_both_ways, setup_rt, gbeth_teardown),
		cmocka_unit_test_setup_teardown(test_irq_in_softirq_loop, setup_rt, gbeth_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
