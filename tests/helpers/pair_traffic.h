/* SPDX-License-Identifier: MIT */
/*
 * Test traffic between two ring-MAC drivers (the netdev side only):
 * frames carrying a flow id and a sequence number, built and byte-compared
 * from those alone, sent under a window, and the run loop that pumps the
 * including rig. Included by fec_pair.h (ENET) and etsec_pair.h (eTSEC),
 * which define PAIR_EMU and PAIR_LINE (the model and the wire types) first
 * and then pump(). All static inline. Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_PAIR_TRAFFIC_H
#define ETHDRV_TESTS_PAIR_TRAFFIC_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
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
	PAIR_EMU *emu; /* its controller */
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
	PAIR_LINE *line; /* the wire */
	struct node n[2]; /* the nodes */
	struct flow *flows[MAX_FLOWS]; /* traffic of the current test */
	pthread_mutex_t lock; /* protects the flows' receive counters */
	uint64_t step_ns; /* virtual time per pump */
};

static const uint8_t node_mac[2][ETHDRV_ETH_ALEN] = { { 0x02, 0, 0, 0, 0xE0, 1 },
						      { 0x02, 0, 0, 0, 0xE0, 2 } };

/* One step of the including rig: move the clock, run both loops. */
static inline void pump(struct fixture *f);

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

/* ---- mode switches under traffic ---- */

/* Every 97 pumps: napi_split flips on both nodes. */
static inline void toggle_split(struct fixture *f, unsigned i)
{
	if (i % 97 == 0)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "napi_split", (i / 97) % 2 ? "0" : "1");
}

/* ---- real time (threaded tests) ---- */

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

/* Run the loops until both devices completed @n frames (TX completions are
 * coalesced: the last ones come with the timer, after the flows are done). */
static inline void run_until_sent(struct fixture *f, uint64_t n)
{
	uint64_t deadline = ethdrv_now_ns() + RUN_TIMEOUT_NS;

	while ((stat(&f->n[0], "tx_packets") < n || stat(&f->n[1], "tx_packets") < n) &&
	       ethdrv_now_ns() < deadline) {
		if (!ethdrv_loop_run_once(f->n[0].loop, ETHDRV_RUN_NOWAIT) +
		    ethdrv_loop_run_once(f->n[1].loop, ETHDRV_RUN_NOWAIT))
			usleep(50);
	}
}

/* Every few hundred loop rounds: switch pollers; once, threaded off and on. */
static inline void churn(struct fixture *f, unsigned i)
{
	if (i % 300 == 0)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "napi_split", (i / 300) % 2 ? "0" : "1");
	if (i == 2000 || i == 3000)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "threaded", i == 2000 ? "0" : "1");
}

/* DIM, software coalescing and small coalescing thresholds in threads; the
 * receiver's RX interrupt counter @irq_stat must have moved. */
static inline void threaded_moderation(struct fixture *f, const char *irq_stat)
{
	struct flow a = { .n = 4000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 1000, .len_of = len_mixed, .window = 16 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	for (unsigned k = 0; k < 2; k++) {
		set(&f->n[k], "threaded", "1");
		set(&f->n[k], "adaptive-rx", "on");
		set(&f->n[k], "adaptive-tx", "on");
		set(&f->n[k], "napi_defer_hard_irqs", "1");
		set(&f->n[k], "gro_flush_timeout", "20000");
	}
	run_real(f, NULL);
	assert_true(stat(&f->n[1], irq_stat) > 0);
	end_flows(f);
}

/* ---- scenarios both ring-MAC drivers pass (their counters by @drv prefix) ---- */

/* 16-BD rings wrap about 190 times under a window of 14 frames. */
static inline void scenario_ring_wrap(struct fixture *f, unsigned n)
{
	struct flow a = { .n = n, .len_of = len_mixed, .window = 14 };

	add_flow(f, &a, 0, 0);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	end_flows(f);
}

/* An unlimited window: the queue stops on byte queue limits and wakes. */
static inline void scenario_bql_stop_wake(struct fixture *f, const char *rx_usecs)
{
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	add_flow(f, &a, 0, 0);
	if (rx_usecs)
		set(&f->n[1], "rx-usecs", rx_usecs);
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], "txq_stops") > 0);
	assert_true(stat(&f->n[0], "txq_wakes") > 0);
	assert_true(f->n[0].tx_wakes > 0);
	end_flows(f);
}

/* BQL out of the way: the 16-BD ring fills, netif_stop_queue at full, wake
 * at half empty, nothing lost; @full/@wake: the driver's counters. */
static inline void scenario_ring_full(struct fixture *f, const char *rx_usecs, const char *full,
				      const char *wake)
{
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	add_flow(f, &a, 0, 0);
	set(&f->n[0], "bql_limit_min", "10000000");
	if (rx_usecs)
		set(&f->n[1], "rx-usecs", rx_usecs);
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], full) > 0);
	assert_int_equal(stat(&f->n[0], wake), stat(&f->n[0], full));
	assert_true(f->n[0].tx_wakes > 0);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	end_flows(f);
}

/* Both ways while napi_split flips; @settle_ns of pumping for the last TX
 * confirmations. Both modes ran: the TX poller worked, nothing was lost. */
static inline void scenario_split_switch(struct fixture *f, uint64_t settle_ns)
{
	struct flow a = { .n = 4000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 4000, .len_of = len_mixed, .window = 64 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 600000, toggle_split);
	pump_for(f, settle_ns);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(stat(&f->n[i], "napi_tx_polls") > 0);
		assert_int_equal(stat(&f->n[i], "tx_packets"), 4000);
		assert_int_equal(stat(&f->n[i], "tx_dropped"), 0);
	}
	end_flows(f);
}

/*
 * 800 frames with an RX interrupt every 8 frames and a TX one every 16
 * (10 ms timers behind them), one step per microsecond so that the poll
 * runs before the next frame is in: about one interrupt per threshold (a
 * few more where the timer released a remainder while the sender waited
 * for its window), by the driver's counters @rx_irq and @tx_irq.
 */
static inline void scenario_coalescing_counts(struct fixture *f, struct flow *a, const char *rx_irq,
					      const char *tx_irq)
{
	uint64_t irq;

	a->n = 800;
	a->len_of = len_1514;
	a->window = 200;
	f->step_ns = 1000;
	add_flow(f, a, 0, 0);
	set(&f->n[1], "rx-frames", "8");
	set(&f->n[1], "rx-usecs", "10000");
	set(&f->n[0], "tx-frames", "16");
	set(&f->n[0], "tx-usecs", "10000");
	run_flows(f, 400000, NULL);
	irq = stat(&f->n[1], rx_irq);
	assert_true(irq >= 800 / 8 - 2 && irq <= 800 / 8 + 6);
	irq = stat(&f->n[0], tx_irq);
	assert_true(irq >= 800 / 16 - 2 && irq <= 800 / 16 + 6);
}

/* Threaded pollers both ways while structures and threading change. */
static inline void scenario_threaded_switch(struct fixture *f, const char *wakeups)
{
	struct flow a = { .n = 3000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 3000, .len_of = len_mixed, .window = 64 };

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	for (unsigned k = 0; k < 2; k++)
		set(&f->n[k], "threaded", "1");
	run_real(f, churn);
	run_until_sent(f, 3000);
	for (unsigned k = 0; k < 2; k++) {
		assert_true(stat(&f->n[k], wakeups) > 0);
		assert_int_equal(stat(&f->n[k], "tx_packets"), 3000);
		assert_int_equal(stat(&f->n[k], "rx_missed_errors"), 0);
	}
	end_flows(f);
}

#endif /* ETHDRV_TESTS_PAIR_TRAFFIC_H */
