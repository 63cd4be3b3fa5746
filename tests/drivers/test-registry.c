// SPDX-License-Identifier: MIT
/*
 * The driver registry (src/drivers/registry.h): lookup by name, creation
 * of each driver from the common arguments on its model's bus (the
 * LAN8650/1 on SPI, the ENET on MMIO), the bus check, and the info lines.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "drivers/fec.h"
#include "drivers/registry.h"
#include "emu/enet_emu.h"
#include "emu/lan865x_emu.h"
#include "ethdrv/loop.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"

static const uint8_t test_mac[ETHDRV_ETH_ALEN] = { 0x02, 0x45, 0x54, 0x48, 0x20, 0x07 };

static void test_find(void **state)
{
	const struct ethdrv_driver *lan = ethdrv_driver_find("lan865x");
	const struct ethdrv_driver *fec = ethdrv_driver_find("fec");
	const struct ethdrv_driver *ravb = ethdrv_driver_find("ravb");
	unsigned n = 0;

	assert_non_null(lan);
	assert_non_null(fec);
	assert_non_null(ravb);
	assert_int_equal(lan->bus, ETHDRV_BUS_SPI);
	assert_int_equal(fec->bus, ETHDRV_BUS_MMIO);
	assert_int_equal(ravb->bus, ETHDRV_BUS_MMIO);
	assert_int_equal(ethdrv_driver_find("gianfar")->bus, ETHDRV_BUS_MMIO);
	assert_null(ethdrv_driver_find("e1000"));
	assert_null(ethdrv_driver_find(""));
	assert_null(ethdrv_driver_find(NULL));
	for (; ethdrv_driver_at(n); n++)
		assert_ptr_equal(ethdrv_driver_find(ethdrv_driver_at(n)->name),
				 ethdrv_driver_at(n));
	assert_int_equal(n, 4); /* lan865x, fec, ravb, gianfar */
}

/* A driver gets no bus of the kind it needs: refused before it runs. */
static void test_wrong_bus(void **state)
{
	struct ethdrv_driver_args args = { .name = "x0" };
	struct ethdrv_mmio_bus mmio = { 0 };
	struct ethdrv_spi_bus spi = { 0 };
	struct ethdrv_netdev *dev = NULL;

	memcpy(args.mac, test_mac, sizeof(args.mac));
	assert_int_equal(ethdrv_loop_new(&args.loop), 0);
	args.mmio = &mmio;
	assert_int_equal(ethdrv_driver_create(ethdrv_driver_find("lan865x"), &args, &dev), -EINVAL);
	args.mmio = NULL;
	args.spi = &spi;
	assert_int_equal(ethdrv_driver_create(ethdrv_driver_find("fec"), &args, &dev), -EINVAL);
	assert_int_equal(ethdrv_driver_create(NULL, &args, &dev), -EINVAL);
	assert_null(dev);
	ethdrv_loop_free(args.loop);
}

static void test_fec_on_enet_model(void **state)
{
	const struct ethdrv_driver *drv = ethdrv_driver_find("fec");
	struct ethdrv_driver_args args = { .name = "enet0", .phy_irq_fd = -1 };
	struct fdx_line_config lc;
	struct ethdrv_link_state st;
	struct ethdrv_mmio_bus bus;
	struct ethdrv_netdev *dev;
	struct fdx_line *line;
	struct enet_emu *emu;
	char info[256];
	int len;

	fdx_line_config_default(&lc);
	lc.realtime = true; /* the PHY probe needs MDIO frames to complete in time */
	lc.speed_mbps = 100;
	assert_int_equal(fdx_line_new(&lc, &line), 0);
	assert_int_equal(enet_emu_new(NULL, line, 0, &emu), 0);
	enet_emu_get_bus(emu, &bus);
	memcpy(args.mac, test_mac, sizeof(args.mac));
	args.mmio = &bus;
	assert_int_equal(ethdrv_loop_new(&args.loop), 0);
	assert_int_equal(ethdrv_driver_create(drv, &args, &dev), 0);
	/* Frames to send come from the device's pool: the one in its DMA region. */
	assert_ptr_equal(dev->pool, fec_get_pool(dev));
	assert_memory_equal(dev->mac, test_mac, ETHDRV_ETH_ALEN);
	assert_int_equal(ethdrv_netdev_get_link(dev, &st), 0);
	assert_false(st.up); /* no carrier until the PHY on the MDIO bus reports a link */
	len = ethdrv_driver_info(drv, dev, info, sizeof(info));
	assert_true(len > 0 && len < (int)sizeof(info));
	assert_non_null(strstr(info, "chip=ENET\n"));
	assert_non_null(strstr(info, "link=down\n"));
	/* Cut short, it still terminates the text and reports the length it needs. */
	assert_int_equal(ethdrv_driver_info(drv, dev, info, 4), len);
	assert_int_equal(strlen(info), 3);
	ethdrv_netdev_destroy(dev);
	enet_emu_free(emu);
	fdx_line_free(line);
	ethdrv_loop_free(args.loop);
}

static void test_lan865x_on_model(void **state)
{
	const struct ethdrv_driver *drv = ethdrv_driver_find("lan865x");
	struct ethdrv_driver_args args = { .name = "t1s0" };
	struct lan865x_emu_config ec;
	struct ethdrv_spi_bus bus;
	struct ethdrv_netdev *dev;
	struct lan865x_emu *emu;
	char info[512];

	lan865x_emu_config_default(&ec);
	ec.realtime = false;
	assert_int_equal(lan865x_emu_new(&ec, &emu), 0);
	lan865x_emu_get_bus(emu, &bus);
	memcpy(args.mac, test_mac, sizeof(args.mac));
	args.spi = &bus;
	assert_int_equal(ethdrv_loop_new(&args.loop), 0);
	assert_int_equal(ethdrv_pkt_pool_new(64, &args.pool), 0);
	assert_int_equal(ethdrv_driver_create(drv, &args, &dev), 0);
	/* An SPI device has no DMA memory: its frames come from the pool it was given. */
	assert_ptr_equal(dev->pool, args.pool);
	assert_true(ethdrv_driver_info(drv, dev, info, sizeof(info)) > 0);
	assert_non_null(strstr(info, "chip=LAN8650\n"));
	assert_non_null(strstr(info, "chip_rev=B1\n"));
	ethdrv_netdev_destroy(dev);
	lan865x_emu_free(emu);
	ethdrv_pkt_pool_free(args.pool);
	ethdrv_loop_free(args.loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_wrong_bus),
		cmocka_unit_test(test_fec_on_enet_model),
		cmocka_unit_test(test_lan865x_on_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
