// SPDX-License-Identifier: MIT
/* The knob table's parsers (src/core/knob.c): ENUM values by their place. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ethdrv/knob.h"

static const struct ethdrv_knob knobs[] = {
	ETHDRV_KNOB_ENUM("mode", "loop|irq|busy", "three words"),
	ETHDRV_KNOB_UINT("n", 1, 8, "", "a number"),
};

static void test_enum_by_place(void **state)
{
	(void)state;
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "loop"), 0);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "irq"), 1);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "busy"), 2);
}

static void test_enum_refuses(void **state)
{
	(void)state;
	/* A prefix, an extension, the separator, empty, NULL, and a non-ENUM knob. */
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "ir"), -EINVAL);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "irqs"), -EINVAL);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "loop|irq"), -EINVAL);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], "|"), -EINVAL);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], ""), -EINVAL);
	assert_int_equal(ethdrv_knob_enum(&knobs[0], NULL), -EINVAL);
	assert_int_equal(ethdrv_knob_enum(&knobs[1], "1"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enum_by_place),
		cmocka_unit_test(test_enum_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
