/* SPDX-License-Identifier: MIT */
/*
 * Two lan865x drivers on two LAN8650 models joined by the point-to-point
 * medium, and test traffic between them: frames carrying a sequence number,
 * built and byte-compared from it alone, and the frame accounting of
 * docs/accounting.md §3 without the TAP and the medium's ports. Both loops
 * run in the test thread (pump()); the models run in virtual time unless the
 * test asks for real time. Shared by test-oa-tc6.c and test-oa-tc6-fidelity.c;
 * all static inline, so a test that uses part of it builds without warnings.
 * Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_TC6_PAIR_H
#define ETHDRV_TESTS_TC6_PAIR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/lan865x.h"
#include "emu/lan865x_emu.h"
#include "emu/medium.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"

#define POOL_SIZE 1024
#define ETHERTYPE_TEST 0x88B5 /* IEEE local experimental */
#define MAX_LEN 1514 /* untagged frame without FCS */
#define VLAN_LEN 1518 /* tagged frame without FCS: 1522 on the wire */

struct node {
	struct ethdrv_loop *loop; /* its loop */
	struct ethdrv_pkt_pool *pool; /* its pool */
	struct lan865x_emu *emu; /* its MAC-PHY model */
	struct ethdrv_spi_bus model_bus; /* the model's bus */
	struct ethdrv_spi_bus bus; /* the bus the driver gets: the model's, or a wrapper */
	struct ethdrv_netdev *dev; /* the driver */
	pthread_mutex_t rxq_lock; /* the RX handler may run in a poller thread */
	struct ethdrv_pkt_queue rxq; /* frames received, not yet checked */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address */
	void *user; /* the test's, e.g. for a bus wrapper */
};

/* How pair_setup() builds the pair. */
struct pair_opts {
	unsigned cps; /* chunk payload: 32 or 64 */
	bool prot; /* protected control transactions */
	bool realtime; /* models and medium in real time (default: virtual time) */
	/* Optional: change node @idx's model settings after the pair's defaults. */
	void (*emu_cfg)(struct lan865x_emu_config *cfg, unsigned idx);
	/* Optional: the driver talks through these ops, ctx = the node, which
	 * reaches the model through node->model_bus. */
	const struct ethdrv_spi_ops *bus_ops;
	/* Optional: node 0's driver traces its transfers to this file from the
	 * first one (lan865x_config.spi_trace). */
	const char *trace;
};

struct fixture {
	struct pair_opts o; /* as set up */
	struct emu_p2p_medium *medium; /* the wire */
	struct node n[2]; /* the nodes */
};

/* One direction of test traffic. */
struct flow {
	struct node *src, *dst; /* endpoints */
	unsigned n; /* frames to send */
	const uint16_t *lens; /* length of frame i (without FCS) */
	bool vlan; /* add an 802.1Q tag */
	unsigned sent; /* frames the driver took */
	unsigned rcvd; /* frames delivered and intact */
	unsigned bad; /* frames delivered but not as sent */
	int last_seq; /* sequence of the last frame received */
	struct ethdrv_pkt *pending; /* a frame refused with -EBUSY */
};

static inline void rx_handler(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *nd = arg;

	pthread_mutex_lock(&nd->rxq_lock);
	ethdrv_pkt_queue_push(&nd->rxq, pkt);
	pthread_mutex_unlock(&nd->rxq_lock);
}

static inline struct ethdrv_pkt *rx_pop(struct node *nd)
{
	struct ethdrv_pkt *pkt;

	pthread_mutex_lock(&nd->rxq_lock);
	pkt = ethdrv_pkt_queue_pop(&nd->rxq);
	pthread_mutex_unlock(&nd->rxq_lock);
	return pkt;
}

static inline int node_setup(struct fixture *f, unsigned i)
{
	struct node *nd = &f->n[i];
	struct lan865x_emu_config ecfg;
	struct lan865x_config cfg = { .cps = f->o.cps, .protected_mode = f->o.prot };
	char name[16];

	snprintf(name, sizeof(name), "t1s%u", i);
	cfg.name = name;
	memcpy(nd->mac, (uint8_t[]){ 0x02, 0, 0, 0, 0, (uint8_t)(i + 1) }, ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	lan865x_emu_config_default(&ecfg);
	ecfg.realtime = f->o.realtime;
	/* In virtual time the medium delivers as fast as the host threads run,
	 * not at 10 Mb/s, so a datasheet-sized RX buffer would overflow for
	 * scheduling reasons alone; overflow is tested by injection. */
	if (!f->o.realtime)
		ecfg.rx_buf_chunks = 8192;
	ecfg.seed = i + 1;
	ecfg.node_id = (uint8_t)i;
	if (f->o.emu_cfg)
		f->o.emu_cfg(&ecfg, i);
	ethdrv_pkt_queue_init(&nd->rxq);
	pthread_mutex_init(&nd->rxq_lock, NULL);
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(ethdrv_pkt_pool_new(POOL_SIZE, &nd->pool), 0);
	assert_int_equal(lan865x_emu_new(&ecfg, &nd->emu), 0);
	lan865x_emu_get_bus(nd->emu, &nd->model_bus);
	nd->bus = nd->model_bus;
	if (f->o.bus_ops) {
		nd->bus.ops = f->o.bus_ops;
		nd->bus.ctx = nd;
	}
	assert_int_equal(lan865x_emu_attach(nd->emu, emu_p2p_medium_base(f->medium), i), 0);
	if (i == 0)
		cfg.spi_trace = f->o.trace;
	assert_int_equal(lan865x_create(&cfg, &nd->bus, nd->loop, nd->pool, &nd->dev), 0);
	ethdrv_netdev_set_rx_handler(nd->dev, rx_handler, nd);
	return ethdrv_netdev_open(nd->dev);
}

/* A fixture for cmocka: two nodes as @o says (cps 0 = 64). */
static inline int pair_setup(void **state, const struct pair_opts *o)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct emu_p2p_config mcfg = { .realtime = o->realtime };

	assert_non_null(f);
	f->o = *o;
	assert_int_equal(emu_p2p_medium_new(&mcfg, &f->medium), 0);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(node_setup(f, i), 0);
	*state = f;
	return 0;
}

/* The rest of a node once the medium is gone; every packet must be back in its pool. */
static inline void node_free(struct node *nd)
{
	lan865x_emu_free(nd->emu);
	assert_int_equal(ethdrv_pkt_pool_avail(nd->pool), POOL_SIZE);
	ethdrv_pkt_pool_free(nd->pool);
	ethdrv_loop_free(nd->loop);
}

static inline int pair_teardown(void **state)
{
	struct fixture *f = *state;

	for (unsigned i = 0; i < 2; i++) {
		struct node *nd = &f->n[i];

		ethdrv_netdev_destroy(nd->dev);
		ethdrv_pkt_queue_purge(&nd->rxq);
		pthread_mutex_destroy(&nd->rxq_lock);
		lan865x_emu_detach(nd->emu);
	}
	emu_medium_free(emu_p2p_medium_base(f->medium));
	for (unsigned i = 0; i < 2; i++)
		node_free(&f->n[i]);
	free(f);
	return 0;
}

static inline uint64_t now_ms(void)
{
	return ethdrv_now_ns() / 1000000;
}

/* Run both loops once without blocking; the work done. */
static inline int pump(struct fixture *f)
{
	int a = ethdrv_loop_run_once(f->n[0].loop, ETHDRV_RUN_NOWAIT);
	int b = ethdrv_loop_run_once(f->n[1].loop, ETHDRV_RUN_NOWAIT);

	assert_true(a >= 0 && b >= 0);
	if (!a && !b)
		usleep(20); /* let the medium thread move */
	return a + b;
}

/* Fill @buf with frame @seq of @len bytes from @src to @dst. */
static inline void make_frame(uint8_t *buf, unsigned len, const struct flow *fl, uint32_t seq)
{
	unsigned off = ETHDRV_ETH_ALEN * 2;

	memcpy(buf, fl->dst->mac, ETHDRV_ETH_ALEN);
	memcpy(buf + ETHDRV_ETH_ALEN, fl->src->mac, ETHDRV_ETH_ALEN);
	if (fl->vlan) {
		buf[off++] = 0x81;
		buf[off++] = 0x00;
		buf[off++] = 0x20; /* PCP 1, VID 5 */
		buf[off++] = 0x05;
	}
	buf[off++] = ETHERTYPE_TEST >> 8;
	buf[off++] = ETHERTYPE_TEST & 0xFF;
	for (int i = 3; i >= 0; i--)
		buf[off++] = (uint8_t)(seq >> (8 * i));
	for (unsigned i = off; i < len; i++)
		buf[i] = (uint8_t)(seq * 31 + i * 7);
}

/* Check one delivered frame against what was sent under its sequence. */
static inline void check_frame(struct flow *fl, const struct ethdrv_pkt *pkt)
{
	static uint8_t want[ETHDRV_PKT_DATA_MAX];
	unsigned off = fl->vlan ? 18 : 14, len;
	uint32_t seq = 0;

	if (pkt->len < off + 4) {
		fl->bad++;
		return;
	}
	for (int i = 0; i < 4; i++)
		seq = seq << 8 | pkt->data[off + i];
	if (seq >= fl->n || (int)seq <= fl->last_seq) {
		fl->bad++;
		return;
	}
	len = fl->lens[seq];
	memset(want, 0, sizeof(want));
	make_frame(want, len, fl, seq);
	len = len < ETHDRV_ETH_ZLEN ? ETHDRV_ETH_ZLEN : len; /* runts come back padded */
	if (pkt->len != len || memcmp(pkt->data, want, len)) {
		fl->bad++;
		return;
	}
	fl->last_seq = (int)seq;
	fl->rcvd++;
}

/* Try to hand the next frame of @fl to its driver; false when refused. */
static inline bool flow_send(struct flow *fl)
{
	struct ethdrv_pkt *pkt = fl->pending;
	int ret;

	if (!pkt) {
		pkt = ethdrv_pkt_alloc(fl->src->pool);
		if (!pkt)
			return false;
		make_frame(pkt->data, fl->lens[fl->sent], fl, fl->sent);
		pkt->len = fl->lens[fl->sent];
	}
	ret = ethdrv_netdev_xmit(fl->src->dev, pkt);
	if (ret == -EBUSY) {
		fl->pending = pkt;
		return false;
	}
	assert_int_equal(ret, 0);
	fl->pending = NULL;
	fl->sent++;
	return true;
}

/* Deliveries to @fl's destination, checked (one flow per destination). */
static inline unsigned flow_drain(struct flow *fl)
{
	struct ethdrv_pkt *pkt;
	unsigned n = 0;

	while ((pkt = rx_pop(fl->dst))) {
		check_frame(fl, pkt);
		ethdrv_pkt_free(pkt);
		n++;
	}
	return n;
}

/*
 * Send every frame of @nfl flows, at most @burst per flow per round, and run
 * until all arrived or nothing arrived for @quiet_ms (losses allowed).
 */
static inline void flows_run(struct fixture *f, struct flow *fl, unsigned nfl, unsigned burst,
			     unsigned quiet_ms)
{
	uint64_t last = now_ms(), start = last;

	for (;;) {
		bool done = true;

		for (unsigned i = 0; i < nfl; i++) {
			for (unsigned b = 0; b < burst && fl[i].sent < fl[i].n; b++)
				if (!flow_send(&fl[i]))
					break;
			if (flow_drain(&fl[i]))
				last = now_ms();
			done &= fl[i].rcvd + fl[i].bad == fl[i].n;
		}
		if (done || now_ms() - last > quiet_ms)
			break;
		assert_true(now_ms() - start < 120000);
		pump(f);
	}
	for (unsigned i = 0; i < nfl; i++)
		assert_null(fl[i].pending);
}

static inline void flow_init(struct flow *fl, struct node *src, struct node *dst,
			     const uint16_t *lens, unsigned n)
{
	memset(fl, 0, sizeof(*fl));
	fl->src = src;
	fl->dst = dst;
	fl->lens = lens;
	fl->n = n;
	fl->last_seq = -1;
}

/* Both directions at once, @n frames of lens[], all must arrive intact. */
static inline void both_ways(struct fixture *f, const uint16_t *lens, unsigned n, bool vlan)
{
	struct flow fl[2];

	flow_init(&fl[0], &f->n[0], &f->n[1], lens, n);
	flow_init(&fl[1], &f->n[1], &f->n[0], lens, n);
	fl[0].vlan = fl[1].vlan = vlan;
	flows_run(f, fl, 2, 4, 3000);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(fl[i].bad, 0);
		assert_int_equal(fl[i].rcvd, n);
	}
}

static inline uint64_t stat(struct node *nd, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(nd->dev), name, &v), 0);
	return v;
}

/* Sum of every drop counter relevant to frames from @src to @dst. */
static inline uint64_t counted_drops(struct node *src, struct node *dst)
{
	struct lan865x_emu_stats s, d;
	uint64_t n;

	lan865x_emu_get_stats(src->emu, &s);
	lan865x_emu_get_stats(dst->emu, &d);
	n = stat(src, "tx_errors") + stat(src, "tx_dropped");
	n += stat(dst, "rx_errors") + stat(dst, "rx_dropped");
	n += ethdrv_counter_get(&s.tx_fcs_errors) + ethdrv_counter_get(&s.tx_dropped_protocol) +
	     ethdrv_counter_get(&s.tx_dropped_overflow) + ethdrv_counter_get(&s.tx_flushed) +
	     ethdrv_counter_get(&s.tx_dropped_disabled) +
	     ethdrv_counter_get(&s.tx_dropped_oversize) +
	     ethdrv_counter_get(&s.tx_dropped_underrun);
	n += ethdrv_counter_get(&d.rx_dropped_overflow) + ethdrv_counter_get(&d.rx_dropped_sync) +
	     ethdrv_counter_get(&d.rx_dropped_disabled) + ethdrv_counter_get(&d.rx_dropped_length) +
	     ethdrv_counter_get(&d.rx_dropped_fcs) + ethdrv_counter_get(&d.rx_flushed) +
	     ethdrv_counter_get(&d.rx_dropped_filter);
	return n;
}

#define EC(st, field) ethdrv_counter_get(&(st).field)

/*
 * Frames from @src to @dst lost, each counted exactly once (the terms of
 * bench/ethdrv_accounting.py without the TAP and the medium's ports):
 * driver TX drops the chip never took, chip TX drops, chip RX drops on
 * arrival or before the first chunk went out, frame starts hidden by SPI
 * bit errors, and the driver's per-frame RX drops.
 */
static inline uint64_t exact_drops(struct node *src, struct node *dst)
{
	struct lan865x_emu_stats s, d;
	uint64_t n;

	lan865x_emu_get_stats(src->emu, &s);
	lan865x_emu_get_stats(dst->emu, &d);
	n = stat(src, "tx_dropped") + stat(src, "tx_aborted_errors") -
	    stat(src, "tx_aborted_started");
	n += EC(s, tx_fcs_errors) + EC(s, tx_dropped_protocol) + EC(s, tx_dropped_overflow) +
	     EC(s, tx_dropped_disabled) + EC(s, tx_dropped_oversize) + EC(s, tx_dropped_underrun) +
	     EC(s, tx_flushed);
	n += EC(d, rx_dropped_overflow) + EC(d, rx_dropped_sync) + EC(d, rx_dropped_disabled) +
	     EC(d, rx_dropped_length) + EC(d, rx_dropped_fcs) + EC(d, rx_dropped_filter) +
	     EC(d, rx_flushed) - EC(d, rx_cut) + EC(d, miso_sv_hidden);
	n += stat(dst, "rx_drop_runt") + stat(dst, "rx_drop_crc") + stat(dst, "rx_drop_nobuf") +
	     stat(dst, "rx_drop_bad_footer") + stat(dst, "rx_drop_oversize") +
	     stat(dst, "rx_drop_fd") + stat(dst, "rx_drop_restart") + stat(dst, "rx_drop_abort") +
	     stat(dst, "rx_drop_bad_offset");
	return n;
}

/* A few frames each way must all arrive (the interface is alive). */
static inline void assert_traffic(struct fixture *f)
{
	static const uint16_t lens[] = { 60, 200, 1514, 700, 64, 1000, 61, 1514 };

	both_ways(f, lens, ETHDRV_ARRAY_SIZE(lens), false);
}

#endif /* ETHDRV_TESTS_TC6_PAIR_H */
