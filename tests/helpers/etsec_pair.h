/* SPDX-License-Identifier: MIT */
/*
 * Two gianfar drivers on two eTSEC models joined by a line (mac_pair.h has
 * the traffic, the pump and the teardown; pair_scenarios.h the scenarios
 * fec passes too): a virtual clock the test moves in steps, or real time
 * for the threaded tests. Fixed 1 Gb/s link, no PHYs.
 * Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_ETSEC_PAIR_H
#define ETHDRV_TESTS_ETSEC_PAIR_H

#include "drivers/gianfar.h"
#include "emu/emu_engine.h"
#include "emu/etsec_emu.h"
#include "mac_pair.h"
#include "pair_scenarios.h"

static inline void etsec_emu_free_any(void *emu)
{
	etsec_emu_free(emu);
}

static inline void gnode_setup(struct fixture *f, unsigned i, const struct gfar_config *base)
{
	struct node *nd = &f->n[i];
	struct etsec_emu_config ec;
	struct gfar_config cfg = *base;
	struct etsec_emu *emu;
	char name[16];

	snprintf(name, sizeof(name), "tsec%u", i);
	cfg.name = name;
	memcpy(nd->mac, node_mac[i], ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	if (!cfg.fixed_link_mbps)
		cfg.fixed_link_mbps = 1000;
	etsec_emu_config_default(&ec);
	ec.phy_addr = ETSEC_EMU_NO_PHY;
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(etsec_emu_new(&ec, f->line, i, &emu), 0);
	nd->emu = emu;
	nd->emu_free = etsec_emu_free_any;
	etsec_emu_get_bus(emu, &nd->bus);
	assert_int_equal(gfar_create(&cfg, &nd->bus, nd->loop, &nd->dev), 0);
	pair_open_node(f, nd, gfar_get_pool(nd->dev));
}

static inline int gsetup_rt(void **state, const struct gfar_config *cfg, bool realtime)
{
	struct fixture *f = pair_new(NULL, realtime);

	for (unsigned i = 0; i < 2; i++)
		gnode_setup(f, i, cfg);
	*state = f;
	return 0;
}

static inline int gsetup_cfg(void **state, const struct gfar_config *cfg)
{
	return gsetup_rt(state, cfg, false);
}

static inline int gteardown(void **state)
{
	struct fixture *f = *state;

	/* Let what is on the wire land, so the graceful stops complete. */
	if (emu_engine_realtime(fdx_line_engine(f->line)))
		usleep(2000);
	else
		pump_for(f, 100000);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(stat(&f->n[i], "gfar_graceful_timeouts"), 0);
	return pair_teardown(f);
}

#endif /* ETHDRV_TESTS_ETSEC_PAIR_H */
