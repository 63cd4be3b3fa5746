/* SPDX-License-Identifier: MIT */
/*
 * Two fec drivers on two ENET models joined by a line, and test traffic
 * between them: frames carrying a flow id and a sequence number, built and
 * byte-compared from those alone, sent under a window. Shared by
 * test-fec.c (virtual clock, one thread) and test-fec-threaded.c (real
 * time, threaded pollers); all static inline, so a test that includes it
 * and uses part of it builds without warnings. Include cmocka.h first.
 * The datapath tests run a fixed link between MACs without PHYs (the PHY,
 * the MDIO bus and the carrier are test-fec-phy.c's).
 */
#ifndef ETHDRV_TESTS_FEC_PAIR_H
#define ETHDRV_TESTS_FEC_PAIR_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/fec.h"
#include "emu/enet_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"

#define PAIR_EMU struct enet_emu
#define PAIR_LINE struct fdx_line
#include "pair_traffic.h"

/* ---- the two nodes ---- */

static inline void node_setup(struct fixture *f, unsigned i, const struct fec_config *base)
{
	struct node *nd = &f->n[i];
	struct enet_emu_config ec;
	struct fec_config cfg = *base;
	char name[16];

	snprintf(name, sizeof(name), "enet%u", i);
	cfg.name = name;
	memcpy(nd->mac, node_mac[i], ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	if (!cfg.fixed_link_mbps)
		cfg.fixed_link_mbps = 1000;
	enet_emu_config_default(&ec);
	ec.dma_size = 8u << 20;
	ec.phy_addr = ENET_EMU_NO_PHY;
	nd->flows = f->flows;
	nd->lock = &f->lock;
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(enet_emu_new(&ec, f->line, i, &nd->emu), 0);
	enet_emu_get_bus(nd->emu, &nd->bus);
	assert_int_equal(fec_create(&cfg, &nd->bus, nd->loop, &nd->dev), 0);
	nd->pool = fec_get_pool(nd->dev);
	ethdrv_netdev_set_rx_handler(nd->dev, rx_handler, nd);
	ethdrv_netdev_set_tx_wake_handler(nd->dev, tx_wake, nd);
	assert_int_equal(ethdrv_netdev_open(nd->dev), 0);
}

static inline int setup_cfg(void **state, const struct fec_config *cfg, bool realtime)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct fdx_line_config lc;

	assert_non_null(f);
	pthread_mutex_init(&f->lock, NULL);
	fdx_line_config_default(&lc);
	lc.realtime = realtime;
	assert_int_equal(fdx_line_new(&lc, &f->line), 0);
	for (unsigned i = 0; i < 2; i++)
		node_setup(f, i, cfg);
	f->step_ns = 2000;
	*state = f;
	return 0;
}

static inline int teardown(void **state)
{
	struct fixture *f = *state;

	/* Both down first: a graceful stop needs the link, that is both ends. */
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(ethdrv_netdev_stop(f->n[i].dev), 0);
	for (unsigned i = 0; i < 2; i++) {
		struct node *nd = &f->n[i];
		struct ethdrv_pkt_pool_stats ps;

		/* The rings gave every buffer back: the pool is full again. */
		ethdrv_pkt_pool_get_stats(nd->pool, &ps);
		assert_int_equal(ps.avail, ps.size);
		assert_int_equal(ps.double_frees, 0);
		ethdrv_netdev_destroy(nd->dev);
		enet_emu_free(nd->emu);
		ethdrv_loop_free(nd->loop);
	}
	fdx_line_free(f->line);
	pthread_mutex_destroy(&f->lock);
	free(f);
	return 0;
}

/* One step: move the clock, run both loops. */
static inline void pump(struct fixture *f)
{
	assert_int_equal(fdx_line_run_until(f->line, fdx_line_now(f->line) + f->step_ns), 0);
	for (unsigned i = 0; i < 2; i++)
		assert_true(ethdrv_loop_run_once(f->n[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
}

#endif /* ETHDRV_TESTS_FEC_PAIR_H */
