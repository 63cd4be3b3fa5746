// SPDX-License-Identifier: MIT
/*
 * The gianfar driver with threaded pollers on the eTSEC model in real
 * time: the line's engine thread, the RX and TX-confirmation poller threads
 * of each device (taking the shared IMASK lock against each other) and the
 * test thread (the error line, start_xmit, knob changes) all at once. Built
 * twice: with ASan, and with ThreadSanitizer (test-gianfar-threaded-tsan,
 * tests/CMakeLists.txt). It asserts behaviour only, never timing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "etsec_pair.h"

static int setup_rt(void **state)
{
	struct gfar_config cfg = { 0 };

	return gsetup_rt(state, &cfg, true);
}

static void test_threaded_both_ways(void **state)
{
	scenario_threaded_switch(*state, "napi_tx_thread_wakeups");
}

static void test_threaded_moderation(void **state)
{
	threaded_moderation(*state, "gfar_irq_rx");
}

/* contexts=irq: the RX and TX lines and the error line in softirq loops. */
static void test_irq_in_softirq_loop(void **state)
{
	scenario_softirq_loops(*state, "gfar_irq_rx", churn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_threaded_both_ways, setup_rt, gteardown),
		cmocka_unit_test_setup_teardown(test_irq_in_softirq_loop, setup_rt, gteardown),
		cmocka_unit_test_setup_teardown(test_threaded_moderation, setup_rt, gteardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
