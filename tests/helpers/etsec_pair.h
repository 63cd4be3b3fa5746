/* SPDX-License-Identifier: MIT */
/*
 * Two gianfar drivers on two eTSEC models on the full-duplex line of
 * etsec_kat.h (a virtual clock the test moves in steps, or real time for
 * the threaded tests), and the traffic of pair_traffic.h between them.
 * Fixed 1 Gb/s link, no PHYs.
 * Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_ETSEC_PAIR_H
#define ETHDRV_TESTS_ETSEC_PAIR_H

#include "drivers/gianfar.h"
#include "etsec_kat.h"

#define PAIR_EMU struct etsec_emu
#define PAIR_LINE struct kat
#include "pair_traffic.h"

static inline void gnode_setup(struct fixture *f, unsigned i, const struct gfar_config *base)
{
	struct node *nd = &f->n[i];
	struct gfar_config cfg = *base;
	char name[16];

	snprintf(name, sizeof(name), "tsec%u", i);
	cfg.name = name;
	memcpy(nd->mac, node_mac[i], ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	if (!cfg.fixed_link_mbps)
		cfg.fixed_link_mbps = 1000;
	nd->flows = f->flows;
	nd->lock = &f->lock;
	nd->emu = f->line->emu[i];
	nd->bus = f->line->bus[i];
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(gfar_create(&cfg, &nd->bus, nd->loop, &nd->dev), 0);
	nd->pool = gfar_get_pool(nd->dev);
	ethdrv_netdev_set_rx_handler(nd->dev, rx_handler, nd);
	ethdrv_netdev_set_tx_wake_handler(nd->dev, tx_wake, nd);
	assert_int_equal(ethdrv_netdev_open(nd->dev), 0);
}

static inline int gsetup_rt(void **state, const struct gfar_config *cfg, bool realtime)
{
	struct fixture *f = calloc(1, sizeof(*f));
	void *k = NULL;

	assert_non_null(f);
	pthread_mutex_init(&f->lock, NULL);
	assert_int_equal(kat_setup_rt(&k, realtime), 0);
	f->line = k;
	for (unsigned i = 0; i < 2; i++)
		gnode_setup(f, i, cfg);
	f->step_ns = 2000;
	*state = f;
	return 0;
}

static inline int gsetup_cfg(void **state, const struct gfar_config *cfg)
{
	return gsetup_rt(state, cfg, false);
}

static inline void pump(struct fixture *f)
{
	kat_advance(f->line, f->step_ns);
	for (unsigned i = 0; i < 2; i++)
		assert_true(ethdrv_loop_run_once(f->n[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
}

static inline int gteardown(void **state)
{
	struct fixture *f = *state;
	void *k = f->line;

	/* Let what is on the wire land, so the graceful stops complete. */
	if (emu_engine_realtime(fdx_line_engine(f->line->line)))
		usleep(2000);
	else
		pump_for(f, 100000);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(ethdrv_netdev_stop(f->n[i].dev), 0);
	for (unsigned i = 0; i < 2; i++) {
		struct node *nd = &f->n[i];
		struct ethdrv_pkt_pool_stats ps;

		/* Every ring buffer back: the pool is full again. */
		ethdrv_pkt_pool_get_stats(nd->pool, &ps);
		assert_int_equal(ps.avail, ps.size);
		assert_int_equal(ps.double_frees, 0);
		assert_int_equal(stat(nd, "gfar_graceful_timeouts"), 0);
		ethdrv_netdev_destroy(nd->dev);
		ethdrv_loop_free(nd->loop);
	}
	kat_teardown(&k);
	pthread_mutex_destroy(&f->lock);
	free(f);
	return 0;
}

#endif /* ETHDRV_TESTS_ETSEC_PAIR_H */
