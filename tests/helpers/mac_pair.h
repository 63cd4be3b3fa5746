/* SPDX-License-Identifier: MIT */
/*
 * Two ring-MAC drivers on two models joined by the full-duplex line
 * (fdx_line.h), and test traffic between them: frames carrying a flow id
 * and a sequence number, built and byte-compared from those alone, sent
 * under a window; the pump of the virtual clock; the teardown that checks
 * every pool is full again. The MAC-specific node set-up is the including
 * helper's (fec_pair.h, gbeth_pair.h): it fills struct node and calls
 * pair_new()/pair_open_node(). All static inline; include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_MAC_PAIR_H
#define ETHDRV_TESTS_MAC_PAIR_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/fdx_line.h"
#include "ethdrv/cpu_loops.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/napi.h"
#include "ethdrv/mmio.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"

#define ETHERTYPE_TEST 0x88B5 /* IEEE local experimental */
#define HDR 19 /* DA, SA, type, flow id, 32-bit sequence */
#define MAX_FLOWS 2

struct flow;

struct node {
	struct ethdrv_loop *loop; /* its loop */
	void *emu; /* its controller model */
	void (*emu_free)(void *emu); /* frees it */
	struct ethdrv_mmio_bus bus; /* the model's bus */
	struct ethdrv_netdev *dev; /* the driver */
	struct ethdrv_pkt_pool *pool; /* the device's pool */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address */
	struct flow **flows; /* the flows of the test, for the RX handler */
	pthread_mutex_t *lock; /* the fixture's flow lock (pollers may be threads) */
	unsigned tx_wakes; /* wake handler calls */
};

/* One direction of test traffic. */
struct flow {
	uint8_t id; /* in the frame */
	struct node *src, *dst; /* endpoints */
	unsigned n; /* frames to send */
	unsigned (*len_of)(unsigned seq); /* frame length without FCS */
	unsigned window; /* frames in flight at most */
	struct ethdrv_pkt_pool *pool; /* where frames come from (NULL: the device's) */
	unsigned sent; /* frames the driver took */
	unsigned rcvd; /* frames delivered intact */
	unsigned lost; /* frames skipped: a later one arrived first */
	unsigned bad; /* frames delivered corrupt, twice or out of order */
	unsigned next; /* sequence number expected next */
	struct ethdrv_pkt *pending; /* a frame refused with -EBUSY */
};

struct fixture {
	struct fdx_line *line; /* the wire */
	struct node n[2]; /* the nodes */
	struct flow *flows[MAX_FLOWS]; /* traffic of the current test */
	pthread_mutex_t lock; /* protects the flows' receive counters */
	uint64_t step_ns; /* virtual time per pump */
};

static const uint8_t node_mac[2][ETHDRV_ETH_ALEN] = { { 0x02, 0, 0, 0, 0xE0, 1 },
						      { 0x02, 0, 0, 0, 0xE0, 2 } };

/* ---- frames ---- */

static inline uint8_t pattern(uint8_t id, uint32_t seq, unsigned i)
{
	return (uint8_t)(seq * 7 + i + id * 31);
}

static inline void frame_build(uint8_t *p, const struct flow *fl, uint32_t seq, unsigned len)
{
	memcpy(p, fl->dst->mac, ETHDRV_ETH_ALEN);
	memcpy(p + 6, fl->src->mac, ETHDRV_ETH_ALEN);
	p[12] = ETHERTYPE_TEST >> 8;
	p[13] = ETHERTYPE_TEST & 0xFF;
	p[14] = fl->id;
	memcpy(p + 15, &seq, 4);
	for (unsigned i = HDR; i < len; i++)
		p[i] = pattern(fl->id, seq, i);
}

static inline bool frame_ok(const struct ethdrv_pkt *pkt, const struct flow *fl, uint32_t seq)
{
	uint8_t want[ETHDRV_PKT_DATA_MAX];
	unsigned len = fl->len_of(seq);

	if (pkt->len != len)
		return false;
	frame_build(want, fl, seq, len);
	return !memcmp(pkt->data, want, len);
}

static inline void rx_handler(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *nd = arg;
	struct flow *fl = NULL;
	uint32_t seq;

	if (pkt->len >= HDR && pkt->data[14] < MAX_FLOWS)
		fl = nd->flows[pkt->data[14]];
	pthread_mutex_lock(nd->lock);
	if (fl && fl->dst == nd) {
		memcpy(&seq, pkt->data + 15, 4);
		if (seq >= fl->next && seq < fl->n && frame_ok(pkt, fl, seq)) {
			fl->lost += seq - fl->next;
			fl->next = seq + 1;
			fl->rcvd++;
		} else {
			fl->bad++;
		}
	}
	pthread_mutex_unlock(nd->lock);
	ethdrv_pkt_free(pkt);
}

static inline void tx_wake(void *arg)
{
	((struct node *)arg)->tx_wakes++;
}

/* Frames of @fl delivered or known lost. */
static inline unsigned flow_done(struct flow *fl)
{
	unsigned n;

	pthread_mutex_lock(fl->dst->lock);
	n = fl->rcvd + fl->lost;
	pthread_mutex_unlock(fl->dst->lock);
	return n;
}

/* Offer frames of @fl while its window allows. */
static inline void flow_send(struct flow *fl)
{
	while (fl->sent < fl->n && fl->sent - flow_done(fl) < fl->window) {
		struct ethdrv_pkt *pkt = fl->pending;
		int ret;

		if (!pkt) {
			unsigned len = fl->len_of(fl->sent);

			pkt = ethdrv_pkt_alloc(fl->pool ? fl->pool : fl->src->pool);
			if (!pkt)
				return;
			frame_build(pkt->data, fl, fl->sent, len);
			pkt->len = len;
		}
		ret = ethdrv_netdev_xmit(fl->src->dev, pkt);
		if (ret == -EBUSY) {
			fl->pending = pkt;
			return;
		}
		assert_int_equal(ret, 0);
		fl->pending = NULL;
		fl->sent++;
	}
}

/* ---- the fixture ---- */

static inline struct fixture *pair_new(const struct fdx_line_config *base, bool realtime)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct fdx_line_config lc;

	assert_non_null(f);
	pthread_mutex_init(&f->lock, NULL);
	if (base)
		lc = *base;
	else
		fdx_line_config_default(&lc);
	lc.realtime = realtime;
	assert_int_equal(fdx_line_new(&lc, &f->line), 0);
	f->step_ns = 2000;
	return f;
}

/* The node's model and device exist: hook the test's handlers and open it. */
static inline void pair_open_node(struct fixture *f, struct node *nd, struct ethdrv_pkt_pool *pool)
{
	nd->flows = f->flows;
	nd->lock = &f->lock;
	nd->pool = pool;
	ethdrv_netdev_set_rx_handler(nd->dev, rx_handler, nd);
	ethdrv_netdev_set_tx_wake_handler(nd->dev, tx_wake, nd);
	assert_int_equal(ethdrv_netdev_open(nd->dev), 0);
}

static inline int pair_teardown(struct fixture *f)
{
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
		nd->emu_free(nd->emu);
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

/* Pump for @ns of line time (default coalescing holds a lone frame 1 ms). */
static inline void pump_for(struct fixture *f, uint64_t ns)
{
	for (uint64_t t = 0; t < ns; t += f->step_ns)
		pump(f);
}

static inline bool flows_done(struct fixture *f)
{
	bool done = true;

	pthread_mutex_lock(&f->lock);
	for (unsigned k = 0; k < MAX_FLOWS; k++)
		if (f->flows[k] && f->flows[k]->next < f->flows[k]->n)
			done = false;
	pthread_mutex_unlock(&f->lock);
	return done;
}

/* Offer frames on every flow of the test. */
static inline void flows_offer(struct fixture *f)
{
	for (unsigned k = 0; k < MAX_FLOWS; k++)
		if (f->flows[k])
			flow_send(f->flows[k]);
}

/* @pumps steps with node 0's loop only: node 1 is held (nobody serves its RX) while
 * frames are offered. */
static inline void pump_sender_only(struct fixture *f, unsigned pumps)
{
	flows_offer(f);
	for (unsigned i = 0; i < pumps; i++) {
		assert_int_equal(fdx_line_run_until(f->line, fdx_line_now(f->line) + f->step_ns),
				 0);
		assert_true(ethdrv_loop_run_once(f->n[0].loop, ETHDRV_RUN_NOWAIT) >= 0);
		flows_offer(f);
	}
}

/* Every flow delivered all its frames, intact and in order. The counters are
 * copied under the lock and checked outside it (a failed check jumps out). */
static inline void flows_check(struct fixture *f)
{
	for (unsigned k = 0; k < MAX_FLOWS; k++) {
		struct flow c;

		if (!f->flows[k])
			continue;
		pthread_mutex_lock(&f->lock);
		c = *f->flows[k];
		pthread_mutex_unlock(&f->lock);
		assert_int_equal(c.bad, 0);
		assert_int_equal(c.lost, 0);
		assert_int_equal(c.rcvd, c.n);
	}
}

/* Pump until every flow is through, @max_pumps at most; call @each every pump. */
static inline void run_flows(struct fixture *f, unsigned max_pumps,
			     void (*each)(struct fixture *, unsigned))
{
	for (unsigned i = 0; i < max_pumps && !flows_done(f); i++) {
		flows_offer(f);
		if (each)
			each(f, i);
		pump(f);
	}
	flows_check(f);
}

static inline uint64_t stat(struct node *nd, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(nd->dev), name, &v), 0);
	return v;
}

static inline void set(struct node *nd, const char *key, const char *val)
{
	assert_int_equal(ethdrv_netdev_set(nd->dev, key, val), 0);
}

static inline unsigned len_sweep(unsigned seq)
{
	return 60 + seq % (1514 - 60 + 1);
}

static inline unsigned len_1514(unsigned seq)
{
	(void)seq;
	return 1514;
}

static inline unsigned len_mixed(unsigned seq)
{
	static const unsigned l[] = { 60, 1514, 590, 1514, 128, 1000 };

	return l[seq % 6];
}

static inline void add_flow(struct fixture *f, struct flow *fl, unsigned id, unsigned from)
{
	fl->id = (uint8_t)id;
	fl->src = &f->n[from];
	fl->dst = &f->n[!from];
	f->flows[id] = fl;
}

/* The test's flows end: frames still refused are freed, the handler forgets them. */
static inline void end_flows(struct fixture *f)
{
	for (unsigned k = 0; k < MAX_FLOWS; k++) {
		if (!f->flows[k])
			continue;
		ethdrv_pkt_free(f->flows[k]->pending);
		f->flows[k]->pending = NULL;
		f->flows[k] = NULL;
	}
}

/* ---- shared checks ---- */

/*
 * An unlimited window from node 0: byte queue limits stop the queue and
 * completions wake it (docs/napi.md §4.2); every frame still arrives. @key
 * (or NULL) is set to @value on node 1 first (the receiver's moderation).
 */
static inline void pair_bql_stop_wake(struct fixture *f, const char *key, const char *value)
{
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	add_flow(f, &a, 0, 0);
	if (key)
		set(&f->n[1], key, value);
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], "txq_stops") > 0);
	assert_true(stat(&f->n[0], "txq_wakes") > 0);
	assert_true(f->n[0].tx_wakes > 0);
	end_flows(f);
}

/* ---- real time ---- */

#define RUN_TIMEOUT_NS (120ull * 1000000000ull)

/* Run both loops until every flow is through; sleep a little when idle. */
static inline void run_real(struct fixture *f, void (*each)(struct fixture *, unsigned))
{
	uint64_t deadline = ethdrv_now_ns() + RUN_TIMEOUT_NS;

	for (unsigned i = 0; !flows_done(f) && ethdrv_now_ns() < deadline; i++) {
		int work = 0;

		flows_offer(f);
		if (each)
			each(f, i);
		for (unsigned n = 0; n < 2; n++)
			work += ethdrv_loop_run_once(f->n[n].loop, ETHDRV_RUN_NOWAIT);
		if (!work)
			usleep(50);
	}
	flows_check(f);
}

/* ---- contexts=irq in miniature (docs/design.md §4.5, §4.7) ---- */

static inline void pair_move_poller(struct ethdrv_napi *napi, void *arg)
{
	assert_int_equal(ethdrv_napi_set_loop(napi, arg), 0);
}

/*
 * Every poller of both nodes, with its IRQ and the driver's own interrupt
 * lines (ethdrv_napi_line_start()), onto a softirq loop of its node: a
 * thread of its own, while the test thread runs the nodes' loops (sends,
 * knobs, timers). Back with pair_softirq_loops_stop() before the teardown.
 */
static inline void pair_softirq_loops(struct fixture *f, struct ethdrv_cpu_loops *cl[2])
{
	for (unsigned k = 0; k < 2; k++) {
		struct ethdrv_cpu_loops_config cc = { .n = 1, .name = k ? "tsirq1" : "tsirq0" };

		assert_int_equal(ethdrv_cpu_loops_start(&cc, &cl[k]), 0);
		ethdrv_napi_for_each(f->n[k].dev, pair_move_poller, ethdrv_cpu_loops_get(cl[k], 0));
	}
}

static inline void pair_softirq_loops_stop(struct fixture *f, struct ethdrv_cpu_loops *cl[2])
{
	for (unsigned k = 0; k < 2; k++) {
		ethdrv_napi_for_each(f->n[k].dev, pair_move_poller, f->n[k].loop);
		ethdrv_cpu_loops_stop(cl[k]);
	}
}

#endif /* ETHDRV_TESTS_MAC_PAIR_H */
