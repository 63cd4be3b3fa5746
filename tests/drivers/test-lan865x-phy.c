// SPDX-License-Identifier: MIT
/*
 * The LAN8650's internal PHY behind the MDIO bus interface (oa_tc6_mdio.c,
 * docs/mdio.md §11, docs/tc6.md §3.1, §5.7), driven by the lan865x driver
 * against the model on the point-to-point medium (virtual time): the PHY
 * probed by its ID at address 0 with the generic driver in forced 10 Mb/s
 * half duplex; clause-22 registers through the 0xFF00 mirror; clause-45
 * MMDs through the MMS Linux maps them to, seen on the SPI wire; the
 * carrier following the model's link cut and restored, polling and through
 * STATUS0.PHYINT; traffic stopping and resuming with it.
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

#include "drivers/lan865x.h"
#include "emu/lan865x_emu.h"
#include "emu/medium.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/mii.h"
#include "ethdrv/phy.h"
#include "ethdrv/stats.h"

#define MS 1000000ull
#define POOL_SIZE 256
#define LAN8650_PHY_ID 0x0007C1B3u /* docs/tc6.md §5.1 */
#define PLCA_IDVER 0xCA00u /* docs/tc6.md §3.6 */
#define PLCA_TOTMR 0xCA04u

struct node {
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	struct lan865x_emu *emu;
	struct ethdrv_spi_bus model_bus; /* the model's own bus */
	struct ethdrv_spi_bus bus; /* the recording wrapper the driver uses */
	struct ethdrv_netdev *dev;
	uint32_t last_ctrl_hdr; /* the header of the last control transaction */
	unsigned rx; /* frames received */
};

struct fixture {
	struct emu_p2p_medium *medium;
	struct node n[2];
};

/* Record each control header (DNC = 0, docs/tc6.md §1.2) on MOSI. */
static int rec_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct node *nd = ctx;
	uint32_t hdr = len >= 4 ? (uint32_t)tx[0] << 24 | tx[1] << 16 | tx[2] << 8 | tx[3] : 0;

	if (len >= 4 && !(hdr >> 31))
		nd->last_ctrl_hdr = hdr;
	return nd->model_bus.ops->transfer(nd->model_bus.ctx, tx, rx, len);
}

static const struct ethdrv_spi_ops rec_ops = { .transfer = rec_transfer };

static unsigned hdr_mms(uint32_t hdr)
{
	return (hdr >> 24) & 0xF;
}

static unsigned hdr_addr(uint32_t hdr)
{
	return (hdr >> 8) & 0xFFFF;
}

static void on_rx(void *arg, struct ethdrv_pkt *pkt)
{
	((struct node *)arg)->rx++;
	ethdrv_pkt_free(pkt);
}

static void node_setup(struct fixture *f, unsigned i)
{
	struct node *nd = &f->n[i];
	struct lan865x_emu_config ec;
	struct lan865x_config cfg = { .name = i ? "t1s1" : "t1s0" };

	memcpy(cfg.mac, (uint8_t[]){ 0x02, 0, 0, 0, 0x10, (uint8_t)(i + 1) }, ETHDRV_ETH_ALEN);
	lan865x_emu_config_default(&ec);
	ec.realtime = false;
	ec.rx_buf_chunks = 8192;
	ec.node_id = (uint8_t)i;
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(ethdrv_pkt_pool_new(POOL_SIZE, &nd->pool), 0);
	assert_int_equal(lan865x_emu_new(&ec, &nd->emu), 0);
	lan865x_emu_get_bus(nd->emu, &nd->model_bus);
	nd->bus = nd->model_bus;
	nd->bus.ops = &rec_ops;
	nd->bus.ctx = nd;
	assert_int_equal(lan865x_emu_attach(nd->emu, emu_p2p_medium_base(f->medium), i), 0);
	assert_int_equal(lan865x_create(&cfg, &nd->bus, nd->loop, nd->pool, &nd->dev), 0);
	ethdrv_netdev_set_rx_handler(nd->dev, on_rx, nd);
	assert_int_equal(ethdrv_netdev_open(nd->dev), 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct emu_p2p_config mc = { .realtime = false };

	assert_non_null(f);
	assert_int_equal(emu_p2p_medium_new(&mc, &f->medium), 0);
	for (unsigned i = 0; i < 2; i++)
		node_setup(f, i);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	for (unsigned i = 0; i < 2; i++) {
		ethdrv_netdev_destroy(f->n[i].dev);
		lan865x_emu_free(f->n[i].emu);
		ethdrv_pkt_pool_free(f->n[i].pool);
		ethdrv_loop_free(f->n[i].loop);
	}
	emu_medium_free(emu_p2p_medium_base(f->medium));
	free(f);
	return 0;
}

/* Run the loops until node 0 received @n frames or @ms passed. */
static bool run_until_rx(struct fixture *f, unsigned n, unsigned ms)
{
	uint64_t end = ethdrv_now_ns() + ms * MS;

	while (f->n[0].rx < n && ethdrv_now_ns() < end)
		for (unsigned i = 0; i < 2; i++)
			assert_true(ethdrv_loop_run_once(f->n[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
	return f->n[0].rx >= n;
}

static void run_for(struct fixture *f, unsigned ms)
{
	uint64_t end = ethdrv_now_ns() + ms * MS;

	while (ethdrv_now_ns() < end)
		for (unsigned i = 0; i < 2; i++)
			assert_true(ethdrv_loop_run_once(f->n[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
}

/* Run the loops until node 0's carrier is @up; false after @ms. */
static bool run_until_carrier(struct fixture *f, bool up, unsigned ms)
{
	uint64_t end = ethdrv_now_ns() + ms * MS;

	while (ethdrv_netdev_carrier_ok(f->n[0].dev) != up && ethdrv_now_ns() < end)
		for (unsigned i = 0; i < 2; i++)
			assert_true(ethdrv_loop_run_once(f->n[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
	return ethdrv_netdev_carrier_ok(f->n[0].dev) == up;
}

static uint64_t stat(struct node *nd, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(nd->dev), name, &v), 0);
	return v;
}

static void test_probe_generic_forced(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_phy *phy = ethdrv_netdev_phy(f->n[0].dev);
	struct ethdrv_link_state ls;

	assert_non_null(phy);
	assert_int_equal(phy->phy_id, LAN8650_PHY_ID);
	assert_int_equal(phy->cfg.addr, 0);
	assert_string_equal(ethdrv_phy_driver_name(phy), "Generic PHY");
	assert_false(phy->autoneg); /* BMSR has no autoneg ability (docs/tc6.md §5.7) */
	assert_int_equal(phy->state, ETHDRV_PHY_RUNNING);
	assert_true(ethdrv_netdev_carrier_ok(f->n[0].dev));
	assert_int_equal(ethdrv_netdev_get_link(f->n[0].dev, &ls), 0);
	assert_true(ls.up);
	assert_int_equal(ls.speed_mbps, 10);
	assert_false(ls.full_duplex);
	assert_int_equal(phy->link.speed_mbps, 10);
	assert_false(phy->link.full_duplex);
}

/* Clause 22 is MMS 0, 0xFF00 + reg; other addresses are empty. */
static void test_c22_through_mirror(void **state)
{
	struct fixture *f = *state;
	struct node *nd = &f->n[0];
	struct ethdrv_phy *phy = ethdrv_netdev_phy(nd->dev);
	uint16_t v = 0;
	uint32_t raw = 0;

	assert_int_equal(ethdrv_phy_read(phy, ETHDRV_MII_PHYSID2, &v), 0);
	assert_int_equal(v, 0xC1B3);
	assert_int_equal(hdr_mms(nd->last_ctrl_hdr), 0);
	assert_int_equal(hdr_addr(nd->last_ctrl_hdr), 0xFF03);
	assert_int_equal(ethdrv_phy_read(phy, ETHDRV_MII_BMSR, &v), 0);
	assert_int_equal(v, 0x0805); /* 10 half, extended registers, link */
	/* A write lands in the mirror (BMCR.LOOPBACK, then cleared). */
	assert_int_equal(ethdrv_phy_write(phy, ETHDRV_MII_BMCR, ETHDRV_BMCR_LOOPBACK), 0);
	assert_int_equal(hdr_addr(nd->last_ctrl_hdr), 0xFF00);
	assert_int_equal(lan865x_emu_peek_reg(nd->emu, 0, 0xFF00, &raw), 0);
	assert_int_equal(raw, ETHDRV_BMCR_LOOPBACK);
	assert_int_equal(ethdrv_phy_write(phy, ETHDRV_MII_BMCR, 0), 0);
	assert_int_equal(ethdrv_mdio_read(phy->bus, 5, ETHDRV_MII_PHYSID1, &v), 0);
	assert_int_equal(v, 0xFFFF);
	assert_int_equal(ethdrv_phy_read(phy, 32, &v), -EINVAL);
}

/* Clause 45: MMD 31 -> MMS 4 (PLCA), 3 -> 2, 1 -> 3, 7 -> 5, 13 -> 6. */
static void test_c45_mms_mapping(void **state)
{
	static const unsigned map[][2] = { { 31, 4 }, { 3, 2 }, { 1, 3 }, { 7, 5 }, { 13, 6 } };
	struct fixture *f = *state;
	struct node *nd = &f->n[0];
	struct ethdrv_phy *phy = ethdrv_netdev_phy(nd->dev);
	uint16_t v = 0;
	uint32_t raw = 0;

	assert_int_equal(ethdrv_phy_read_mmd(phy, true, 31, PLCA_IDVER, &v), 0);
	assert_int_equal(v, 0x0A10);
	assert_int_equal(ethdrv_phy_write_mmd(phy, true, 31, PLCA_TOTMR, 0x0030), 0);
	assert_int_equal(lan865x_emu_peek_reg(nd->emu, 4, PLCA_TOTMR, &raw), 0);
	assert_int_equal(raw, 0x0030);
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(map); i++) {
		assert_int_equal(ethdrv_phy_read_mmd(phy, true, map[i][0], 0x0012, &v), 0);
		assert_int_equal(hdr_mms(nd->last_ctrl_hdr), map[i][1]);
		assert_int_equal(hdr_addr(nd->last_ctrl_hdr), 0x0012);
	}
	/* MMD 2 (WIS) has no MMS: not supported, and counted by the bus. */
	assert_int_equal(ethdrv_phy_read_mmd(phy, true, 2, 0, &v), -EOPNOTSUPP);
}

/* Polling: the cut shows at the first poll after it, the restore too. */
static void test_carrier_follows_link_polling(void **state)
{
	struct fixture *f = *state;
	uint64_t runs;

	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "phy_poll_ms", "50"), 0);
	run_for(f, 60); /* the period in effect */
	runs = stat(&f->n[0], "phy_machine_runs");
	assert_int_equal(lan865x_emu_set_link(f->n[0].emu, false), 0);
	assert_false(lan865x_emu_link(f->n[0].emu));
	assert_true(run_until_carrier(f, false, 2000));
	assert_int_equal(stat(&f->n[0], "phy_machine_runs") - runs, 1);
	assert_int_equal(lan865x_emu_set_link(f->n[0].emu, true), 0);
	assert_true(run_until_carrier(f, true, 2000));
	assert_int_equal(stat(&f->n[0], "phy_irqs"), 0);
}

/* STATUS0.PHYINT: the machine runs on the PHY's interrupt, within ms. */
static void test_carrier_follows_link_phyint(void **state)
{
	struct fixture *f = *state;
	struct node *nd = &f->n[0];
	char buf[64];
	uint64_t t0;

	assert_int_equal(ethdrv_netdev_set(nd->dev, "phy_irq", "1"), 0);
	assert_int_equal(ethdrv_netdev_get(nd->dev, "phy_irq", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "irq.phyint", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	t0 = ethdrv_now_ns();
	assert_int_equal(lan865x_emu_set_link(nd->emu, false), 0);
	assert_true(run_until_carrier(f, false, 2000));
	print_message("carrier off after %.2f ms\n", (double)(ethdrv_now_ns() - t0) / 1e6);
	assert_int_equal(lan865x_emu_set_link(nd->emu, true), 0);
	assert_true(run_until_carrier(f, true, 2000));
	assert_true(stat(nd, "phy_irqs") >= 2);
	assert_true(stat(nd, "status0_phyint") >= 2);
	/* Back to polling masks PHYINT again. */
	assert_int_equal(ethdrv_netdev_set(nd->dev, "phy_irq", "0"), 0);
	assert_int_equal(ethdrv_netdev_get(nd->dev, "irq.phyint", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0");
}

static int send_one(struct node *from)
{
	struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(from->pool);

	assert_non_null(pkt);
	memset(pkt->data, 0xFF, 6);
	memcpy(pkt->data + 6, (uint8_t[]){ 0x02, 0, 0, 0, 0x10, 9 }, 6);
	memset(pkt->data + 12, 0x88, 48);
	pkt->len = 60;
	return ethdrv_netdev_xmit(from->dev, pkt);
}

/* Off the segment the node hears nothing; back on, traffic flows again. */
static void test_traffic_follows_link(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "phy_poll_ms", "10"), 0);
	assert_int_equal(send_one(&f->n[1]), 0);
	assert_true(run_until_rx(f, 1, 2000));
	assert_int_equal(lan865x_emu_set_link(f->n[0].emu, false), 0);
	assert_true(run_until_carrier(f, false, 2000));
	assert_int_equal(send_one(&f->n[1]), 0);
	run_for(f, 30);
	assert_int_equal(f->n[0].rx, 1);
	assert_int_equal(send_one(&f->n[0]), -ENOLINK);
	assert_int_equal(stat(&f->n[0], "tx_carrier_errors"), 1);
	assert_int_equal(lan865x_emu_set_link(f->n[0].emu, true), 0);
	assert_true(run_until_carrier(f, true, 2000));
	assert_int_equal(send_one(&f->n[1]), 0);
	assert_true(run_until_rx(f, 2, 2000));
}

/* Knobs: no interrupt line for MDIO frames here, sleep/atomic accepted. */
static void test_knobs(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_netdev *dev = f->n[0].dev;
	char buf[16];

	assert_int_equal(ethdrv_netdev_set(dev, "mdio_mode", "irq"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "mdio_mode", "sleep"), 0);
	assert_int_equal(ethdrv_netdev_get(dev, "mdio_mode", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sleep");
	assert_int_equal(ethdrv_netdev_set(dev, "phy_irq", "yes"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "phy_poll_ms", "70000"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "no_such_knob", "1"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_probe_generic_forced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_c22_through_mirror, setup, teardown),
		cmocka_unit_test_setup_teardown(test_c45_mms_mapping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_carrier_follows_link_polling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_carrier_follows_link_phyint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_traffic_follows_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knobs, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
