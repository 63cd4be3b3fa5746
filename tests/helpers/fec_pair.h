/* SPDX-License-Identifier: MIT */
/*
 * Two fec drivers on two ENET models joined by a line (mac_pair.h has the
 * traffic, the pump and the teardown). Shared by test-fec.c (virtual
 * clock, one thread), test-fec-threaded.c (real time, threaded pollers)
 * and test-enet-capture.c. The datapath tests run a fixed link between
 * MACs without PHYs (the PHY, the MDIO bus and the carrier are
 * test-fec-phy.c's). Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_FEC_PAIR_H
#define ETHDRV_TESTS_FEC_PAIR_H

#include "drivers/fec.h"
#include "emu/enet_emu.h"
#include "mac_pair.h"
#include "pair_scenarios.h"

static inline void enet_emu_free_any(void *emu)
{
	enet_emu_free(emu);
}

static inline void node_setup(struct fixture *f, unsigned i, const struct fec_config *base)
{
	struct node *nd = &f->n[i];
	struct enet_emu_config ec;
	struct enet_emu *emu;
	struct fec_config cfg = *base;
	char name[16];

	snprintf(name, sizeof(name), "enet%u", i);
	cfg.name = name;
	memcpy(nd->mac, node_mac[i], ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	if (!cfg.fixed_link_mbps)
		cfg.fixed_link_mbps = 1000;
	cfg.phy_irq_fd = -1; /* no PHY on these boards */
	enet_emu_config_default(&ec);
	ec.dma_size = 8u << 20;
	ec.phy_addr = ENET_EMU_NO_PHY;
	ec.soc = cfg.soc; /* the board is the part the driver was told */
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(enet_emu_new(&ec, f->line, i, &emu), 0);
	nd->emu = emu;
	nd->emu_free = enet_emu_free_any;
	enet_emu_get_bus(emu, &nd->bus);
	assert_int_equal(fec_create(&cfg, &nd->bus, nd->loop, &nd->dev), 0);
	pair_open_node(f, nd, fec_get_pool(nd->dev));
}

static inline int setup_cfg(void **state, const struct fec_config *cfg, bool realtime)
{
	struct fixture *f = pair_new(NULL, realtime);

	for (unsigned i = 0; i < 2; i++)
		node_setup(f, i, cfg);
	*state = f;
	return 0;
}

static inline int teardown(void **state)
{
	return pair_teardown(*state);
}

#endif /* ETHDRV_TESTS_FEC_PAIR_H */
