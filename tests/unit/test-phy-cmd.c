// SPDX-License-Identifier: MIT
/*
 * The `phy` request of the control socket (tools/ethdrv/phy.c, ctl.h):
 * what `ethdrv phy IFNAME ...` gets back, dispatched as the node does it
 * on a device whose PHY is an AR8031 model on the ENET MDIO block in real
 * time (src/emu/mdio_rig.c): the summary, clause-22 read and write, an MMD
 * read, and the named errors: ENODEV (no PHY), EINVAL (bad words or
 * numbers), ETIMEDOUT (MDC stopped, the frame never completes).
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
#include <getopt.h>
#include <stdbool.h>

#include "cli.h"
#include "cmd.h"
#include "ctl.h"
#include "emu/mdio_rig.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/phy.h"
#include "fake_netdev.h"
#include "phy_cmd.h"

#define PHY_ADDR 1u

/* phy.c and client.c use the option helpers of main.c; this test calls neither. */
int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	fail_msg("cmd_getopt called");
	return -1;
}

int cmd_bad_option(const char *cmd, char **argv, const char *accepted)
{
	fail_msg("cmd_bad_option called");
	return CLI_EXIT_USAGE;
}

struct fixture {
	struct mdio_rig r;
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	struct fake_netdev *with_phy, *without_phy;
};

static int serve(void *arg, int argc, char **argv, struct ctl_reply *r)
{
	return phy_ctl_serve(arg, argc, argv, r);
}

static const struct ctl_ops phy_ops = { .phy = serve };
static const struct ctl_ops no_phy_ops = { 0 };

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct fake_netdev_config fc;
	struct ethdrv_phy_config pc;

	assert_non_null(f);
	assert_int_equal(mdio_rig_setup(&f->r, &(struct mdio_rig_config){ .phy_addr = PHY_ADDR }),
			 0);
	assert_int_equal(ethdrv_loop_new(&f->loop), 0);
	assert_int_equal(ethdrv_pkt_pool_new(64, &f->pool), 0);
	fake_netdev_default_config(&fc);
	assert_int_equal(fake_netdev_create(f->loop, f->pool, "eth9", &fc, &f->with_phy), 0);
	assert_int_equal(fake_netdev_create(f->loop, f->pool, "eth8", &fc, &f->without_phy), 0);
	ethdrv_phy_config_default(&pc);
	pc.addr = PHY_ADDR;
	pc.drivers = ethdrv_phy_drivers;
	assert_int_equal(ethdrv_phy_probe(f->r.bus, f->loop, &pc, &f->with_phy->dev.phydev), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ethdrv_phy_free(f->with_phy->dev.phydev);
	f->with_phy->dev.phydev = NULL;
	fake_netdev_destroy(f->with_phy);
	fake_netdev_destroy(f->without_phy);
	ethdrv_pkt_pool_free(f->pool);
	ethdrv_loop_free(f->loop);
	mdio_rig_teardown(&f->r);
	free(f);
	return 0;
}

/* Dispatch @req as the node's control socket does; the reply text (free it). */
static char *ask(const struct ctl_ops *ops, void *arg, const char *req)
{
	struct ctl_reply r = { 0 };
	char line[256];

	snprintf(line, sizeof(line), "%s", req);
	ctl_dispatch(ops, arg, line, &r);
	assert_non_null(r.buf);
	return r.buf;
}

static void expect(struct fixture *f, const char *req, const char *want)
{
	char *got = ask(&phy_ops, &f->with_phy->dev, req);

	assert_string_equal(got, want);
	free(got);
}

/* The reply starts with @prefix. */
static void expect_prefix(struct fixture *f, const char *req, const char *prefix)
{
	char *got = ask(&phy_ops, &f->with_phy->dev, req);

	if (strncmp(got, prefix, strlen(prefix)))
		fail_msg("%s: got '%s', want '%s...'", req, got, prefix);
	free(got);
}

static void test_show(void **state)
{
	struct fixture *f = *state;
	char *got = ask(&phy_ops, &f->with_phy->dev, "phy");

	assert_non_null(strstr(got, "ok\nphy=sim0:1\nid=0x004dd074\ndriver=AR8031\nstate=ready\n"));
	assert_non_null(strstr(got, "link=down\nspeed=0\nduplex=unknown\nautoneg=on\n"));
	assert_non_null(strstr(got, "irq=poll\npoll_ms=1000\nmdio_mode=atomic\n"));
	free(got);
}

static void test_read_write(void **state)
{
	struct fixture *f = *state;

	expect(f, "phy read 2", "ok\n0x004d\n");
	expect(f, "phy read 0x03", "ok\n0xd074\n");
	expect(f, "phy write 0x18 0x1234", "ok\n");
	expect(f, "phy read 24", "ok\n0x1234\n");
	/* An MMD of a clause-22 PHY goes through registers 13/14: EEE default. */
	expect(f, "phy c45 read 7 0x3c", "ok\n0x0006\n");
	expect(f, "phy c45 write 3 0x14 0x0002", "ok\n");
	expect(f, "phy c45 read 3 20", "ok\n0x0002\n");
}

static void test_errors(void **state)
{
	struct fixture *f = *state;
	char *got;

	expect_prefix(f, "phy read 32", "error EINVAL: phy: bad register '32': use 0..31");
	expect_prefix(f, "phy write 1 0x10000", "error EINVAL: phy: bad value");
	expect_prefix(f, "phy read -1", "error EINVAL: phy: bad register");
	expect_prefix(f, "phy read 1x", "error EINVAL: phy: bad register");
	expect_prefix(f, "phy write 1", "error EINVAL: phy: use: read REG");
	expect_prefix(f, "phy c45 read 32 0", "error EINVAL: phy: bad MMD '32'");
	expect_prefix(f, "phy c45 read 1 0x10000", "error EINVAL: phy: bad register");
	expect_prefix(f, "phy frob", "error EINVAL: phy: use:");
	/* No PHY on the device. */
	got = ask(&phy_ops, &f->without_phy->dev, "phy read 1");
	assert_string_equal(got,
			    "error ENODEV: phy: eth8 has no PHY (a fixed link or no MDIO bus)\n");
	free(got);
	/* A server without the request (the segment's). */
	got = ask(&no_phy_ops, NULL, "phy");
	assert_string_equal(got, "error EOPNOTSUPP: phy: this server has no PHY\n");
	free(got);
	/* MDC stopped (MSCR = 0): MMFR only stores, the frame never ends. */
	enet_mdio_sim_write32(f->r.sim, ENET_MDIO_REG_MSCR, 0);
	expect(f, "phy read 1", "error ETIMEDOUT: phy read: the MDIO frame did not complete\n");
	expect(f, "phy c45 write 3 20 1",
	       "error ETIMEDOUT: phy c45 write: the MDIO frame did not complete\n");
}

static void test_parse(void **state)
{
	char *words[] = { "c45", "write", "31", "0xca04", "0x30" };
	struct phy_req q;
	char err[128];

	(void)state;
	assert_int_equal(phy_req_parse(5, words, &q, err, sizeof(err)), 0);
	assert_int_equal(q.op, PHY_REQ_C45_WRITE);
	assert_int_equal(q.mmd, 31);
	assert_int_equal(q.reg, 0xCA04);
	assert_int_equal(q.val, 0x30);
	assert_int_equal(phy_req_parse(0, words, &q, err, sizeof(err)), 0);
	assert_int_equal(q.op, PHY_REQ_SHOW);
	assert_int_equal(phy_req_parse(4, words, &q, err, sizeof(err)), -EINVAL);
}

static void test_help_lists_phy(void **state)
{
	struct fixture *f = *state;
	char *got = ask(&phy_ops, &f->with_phy->dev, "help");

	assert_non_null(strstr(got, "phy [read REG"));
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_show, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test(test_parse),
		cmocka_unit_test_setup_teardown(test_help_lists_phy, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
