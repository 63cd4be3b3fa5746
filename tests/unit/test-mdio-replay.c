// SPDX-License-Identifier: MIT
/*
 * MDIO script replay (src/core/mdio_replay.h, docs/mdio.md §9.2): the
 * parser refuses malformed lines with their number, mismatches and polls
 * that run out are counted, and the boot configuration of seed 003
 * (bench/data/mdio-boot.txt: three switches and a PHY, over 6500
 * transactions) replays without an error over the ENET MDIO block in real
 * time, leaving the switches configured as the generator wrote.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mdio_replay.h"
#include "emu/switch_emu.h"
#include "ethdrv/mdio.h"
#include "emu/mdio_rig.h"

#define N_SWITCHES 3

struct fixture {
	struct mdio_rig r; /* controller, bus model, the PHY at 0x01 and its partner */
	struct switch_emu *sw[N_SWITCHES]; /* at 0x10..0x12 */
};

static const unsigned sw_addr[N_SWITCHES] = { 0x10, 0x11, 0x12 };

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	/* 2.5 MHz without preamble: every device here accepts that. */
	assert_int_equal(
		mdio_rig_setup(&f->r,
			       &(struct mdio_rig_config){ .phy_addr = 1,
							  .mscr = MDIO_RIG_MSCR_2M5 | 1u << 7 }),
		0);
	for (unsigned i = 0; i < N_SWITCHES; i++) {
		assert_int_equal(switch_emu_new(NULL, &f->sw[i]), 0);
		assert_int_equal(switch_emu_attach(f->sw[i], f->r.emu, sw_addr[i]), 0);
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	mdio_rig_teardown(&f->r);
	for (unsigned i = 0; i < N_SWITCHES; i++)
		switch_emu_free(f->sw[i]);
	free(f);
	return 0;
}

static void test_parse_errors(void **state)
{
	static const char *const bad[] = {
		"x 1 2\n",
		"r 1\n",
		"r 32 0\n",
		"r 1 32\n",
		"w 1 2\n",
		"w 1 2 0x10000\n",
		"r 1 2 3\n",
		"r 1 2 = \n",
		"p 1 2 0x8000\n",
		"p 1 2 1 0 0\n",
		"w 1 2 -1\n",
		"rr 1 2\n",
		"w 1 2 3 4 5 6 7 8\n",
	};
	struct ethdrv__mdio_script *s;

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(bad); i++)
		assert_int_equal(ethdrv__mdio_script_parse(bad[i], &s), -EINVAL);
	assert_int_equal(ethdrv__mdio_script_parse("\n# only a comment\n\n", &s), 0);
	assert_int_equal(ethdrv__mdio_script_lines(s), 0);
	ethdrv__mdio_script_free(s);
	assert_int_equal(ethdrv__mdio_script_load("/nonexistent/mdio.txt", &s), -ENOENT);
}

static void test_small_script(void **state)
{
	static const char text[] = "r 1 2 = 0x004d   # PHYSID1\n"
				   "r 1 3 = 0x1234   # wrong on purpose\n"
				   "w 1 4 0x0de1\n"
				   "r 1 4 = 0x0de1\n"
				   "p 1 2 0xffff 0x4d\n"
				   "p 1 2 0xffff 0x4e 3   # never true\n"
				   "r 1 0x18\n";
	struct fixture *f = *state;
	struct ethdrv__mdio_script *s;
	struct ethdrv__mdio_replay_result r;

	assert_int_equal(ethdrv__mdio_script_parse(text, &s), 0);
	assert_int_equal(ethdrv__mdio_script_lines(s), 7);
	assert_int_equal(ethdrv__mdio_script_run(s, f->r.bus, &r), -EIO);
	assert_int_equal(r.mismatches, 1);
	assert_int_equal(r.errors, 1);
	assert_int_equal(r.first_bad_line, 2);
	assert_int_equal(r.polls, 2);
	assert_int_equal(r.writes, 1);
	assert_int_equal(r.reads, 4 + 1 + 3);
	assert_int_equal(r.transactions, r.reads + r.writes);
	ethdrv__mdio_script_free(s);
}

/* bench/data/gen-mdio-boot.py's register contents. */
static uint16_t port_value(unsigned sw, unsigned port, unsigned reg)
{
	return (uint16_t)((sw << 8 ^ port << 4 ^ reg * 0x1111u) & 0xFFFF);
}

static void test_boot_replay(void **state)
{
	struct fixture *f = *state;
	struct ethdrv__mdio_script *s;
	struct ethdrv__mdio_replay_result r;
	struct ethdrv_mdio_stats st;
	char path[4096];

	snprintf(path, sizeof(path), "%s", __FILE__);
	snprintf(path + strlen(dirname(path)), sizeof(path) - strlen(path),
		 "/../../bench/data/mdio-boot.txt");
	assert_int_equal(ethdrv__mdio_script_load(path, &s), 0);
	assert_true(ethdrv__mdio_script_lines(s) > 6500);
	assert_int_equal(ethdrv__mdio_script_run(s, f->r.bus, &r), 0);
	print_message("boot replay: %llu transactions in %.1f ms\n",
		      (unsigned long long)r.transactions, (double)r.elapsed_ns / 1e6);
	assert_true(r.transactions >= 6500);
	assert_int_equal(r.mismatches, 0);
	assert_int_equal(r.errors, 0);
	ethdrv_mdio_get_stats(f->r.bus, &st);
	assert_int_equal(ethdrv_counter_get(&st.frames), r.transactions);
	/* The switches hold what the generator wrote. */
	for (unsigned i = 0; i < N_SWITCHES; i++) {
		assert_int_equal(switch_emu_peek(f->sw[i], 0x12, 7),
				 port_value(sw_addr[i], 0x12, 7));
		assert_int_equal(switch_emu_peek(f->sw[i], 0x1B, 3),
				 port_value(sw_addr[i], 0x1B, 3));
		assert_int_equal(switch_emu_peek(f->sw[i], 0x10, 4), 0x007F);
	}
	ethdrv__mdio_script_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test_setup_teardown(test_small_script, setup, teardown),
		cmocka_unit_test_setup_teardown(test_boot_replay, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
