/* SPDX-License-Identifier: MIT */
/*
 * Two ravb drivers on two GbEth models joined by the full-duplex line
 * (mac_pair.h has the traffic, the pump and the teardown that checks every
 * pool is full again). On the virtual clock the models change mode at once
 * (mode_ns 0): the driver's bounded waits read CSR without the clock
 * moving. A fixed 1000 Mb/s link, no PHY (the PIR MDIO and the PHY are
 * test-gbeth-emu-mdio.c's and the link's). Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_GBETH_PAIR_H
#define ETHDRV_TESTS_GBETH_PAIR_H

#include "drivers/ravb.h"
#include "emu/gbeth_emu.h"
#include "mac_pair.h"

static inline void gbeth_emu_free_any(void *emu)
{
	gbeth_emu_free(emu);
}

static inline void gbeth_node_setup(struct fixture *f, unsigned i, const struct ravb_config *base,
				    bool realtime)
{
	struct node *nd = &f->n[i];
	struct gbeth_emu_config ec;
	struct ravb_config cfg = *base;
	struct gbeth_emu *emu;
	char name[16];

	snprintf(name, sizeof(name), "gbeth%u", i);
	cfg.name = name;
	memcpy(nd->mac, node_mac[i], ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	if (!cfg.fixed_link_mbps)
		cfg.fixed_link_mbps = 1000;
	gbeth_emu_config_default(&ec);
	ec.dma_size = 8u << 20;
	ec.phy_addr = GBETH_EMU_NO_PHY;
	if (!realtime)
		ec.mode_ns = 0;
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(gbeth_emu_new(&ec, f->line, i, &emu), 0);
	nd->emu = emu;
	nd->emu_free = gbeth_emu_free_any;
	gbeth_emu_get_bus(emu, &nd->bus);
	assert_int_equal(ravb_create(&cfg, &nd->bus, nd->loop, &nd->dev), 0);
	pair_open_node(f, nd, ravb_get_pool(nd->dev));
}

static inline int gbeth_setup_cfg(void **state, const struct ravb_config *cfg, bool realtime)
{
	struct fixture *f = pair_new(NULL, realtime);

	for (unsigned i = 0; i < 2; i++)
		gbeth_node_setup(f, i, cfg, realtime);
	*state = f;
	return 0;
}

static inline int gbeth_teardown(void **state)
{
	return pair_teardown(*state);
}

#endif /* ETHDRV_TESTS_GBETH_PAIR_H */
