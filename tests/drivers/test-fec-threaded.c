// SPDX-License-Identifier: MIT
/*
 * The fec driver with threaded pollers on the ENET model in real time: the
 * line's engine thread, two poller threads per device and the test thread
 * (running both loops: interrupt handlers, start_xmit, knob changes) all
 * touch the driver and the model at once. Built twice: with ASan like
 * every test, and with ThreadSanitizer (test-fec-threaded-tsan,
 * tests/CMakeLists.txt). It asserts behaviour only, never timing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "fec_pair.h"

static int setup_rt(void **state)
{
	struct fec_config cfg = { 0 };

	return setup_cfg(state, &cfg, true);
}

static void test_threaded_split_switch(void **state)
{
	scenario_threaded_switch(*state, "napi_rx_thread_wakeups");
}

static void test_threaded_moderation(void **state)
{
	threaded_moderation(*state, "fec_irq_rxf");
}

/* contexts=irq: the one line's handler runs in the RX poller's softirq loop. */
static void test_irq_in_softirq_loop(void **state)
{
	scenario_softirq_loops(*state, "fec_irqs", churn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_threaded_split_switch, setup_rt, teardown),
		cmocka_unit_test_setup_teardown(test_irq_in_softirq_loop, setup_rt, teardown),
		cmocka_unit_test_setup_teardown(test_threaded_moderation, setup_rt, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
