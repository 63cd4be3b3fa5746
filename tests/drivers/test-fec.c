// SPDX-License-Identifier: MIT
/*
 * The fec driver on the ENET model: two nodes (loop, model, device each) on
 * a 1 Gb/s line with a virtual clock. The test thread runs both loops and
 * moves the clock in small steps, so the timing is the line's and the
 * results do not depend on the host's speed. Every frame carries its flow
 * and sequence number and is byte-compared on arrival; every teardown
 * checks that both packet pools are full again.
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

#include "drivers/fec.h"
#include "emu/enet_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"

#define ETHERTYPE_TEST 0x88B5 /* IEEE local experimental */
#define HDR 19 /* DA, SA, type, flow id, 32-bit sequence */
#define MAX_FLOWS 2

struct flow;

struct node {
	struct ethdrv_loop *loop; /* its loop */
	struct enet_emu *emu; /* its controller */
	struct ethdrv_mmio_bus bus; /* the model's bus */
	struct ethdrv_netdev *dev; /* the driver */
	struct ethdrv_pkt_pool *pool; /* the device's pool */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address */
	struct flow **flows; /* the flows of the test, for the RX handler */
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
	struct enet_line *line; /* the wire */
	struct node n[2]; /* the nodes */
	struct flow *flows[MAX_FLOWS]; /* traffic of the current test */
	uint64_t step_ns; /* virtual time per pump */
};

static const uint8_t node_mac[2][ETHDRV_ETH_ALEN] = { { 0x02, 0, 0, 0, 0xE0, 1 },
						      { 0x02, 0, 0, 0, 0xE0, 2 } };

/* ---- frames ---- */

static uint8_t pattern(uint8_t id, uint32_t seq, unsigned i)
{
	return (uint8_t)(seq * 7 + i + id * 31);
}

static void frame_build(uint8_t *p, const struct flow *fl, uint32_t seq, unsigned len)
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

static bool frame_ok(const struct ethdrv_pkt *pkt, const struct flow *fl, uint32_t seq)
{
	uint8_t want[ETHDRV_PKT_DATA_MAX];
	unsigned len = fl->len_of(seq);

	if (pkt->len != len)
		return false;
	frame_build(want, fl, seq, len);
	return !memcmp(pkt->data, want, len);
}

static void rx_handler(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *nd = arg;
	struct flow *fl = NULL;
	uint32_t seq;

	if (pkt->len >= HDR && pkt->data[14] < MAX_FLOWS)
		fl = nd->flows[pkt->data[14]];
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
	ethdrv_pkt_free(pkt);
}

static void tx_wake(void *arg)
{
	((struct node *)arg)->tx_wakes++;
}

/* Offer frames of @fl while its window allows. */
static void flow_send(struct flow *fl)
{
	while (fl->sent < fl->n && fl->sent - fl->rcvd - fl->lost < fl->window) {
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

/* ---- the two nodes ---- */

static void node_setup(struct fixture *f, unsigned i, const struct fec_config *base)
{
	struct node *nd = &f->n[i];
	struct enet_emu_config ec;
	struct fec_config cfg = *base;
	char name[16];

	snprintf(name, sizeof(name), "enet%u", i);
	cfg.name = name;
	memcpy(nd->mac, node_mac[i], ETHDRV_ETH_ALEN);
	memcpy(cfg.mac, nd->mac, ETHDRV_ETH_ALEN);
	enet_emu_config_default(&ec);
	ec.dma_size = 8u << 20;
	nd->flows = f->flows;
	assert_int_equal(ethdrv_loop_new(&nd->loop), 0);
	assert_int_equal(enet_emu_new(&ec, f->line, i, &nd->emu), 0);
	enet_emu_get_bus(nd->emu, &nd->bus);
	assert_int_equal(fec_create(&cfg, &nd->bus, nd->loop, &nd->dev), 0);
	nd->pool = fec_get_pool(nd->dev);
	ethdrv_netdev_set_rx_handler(nd->dev, rx_handler, nd);
	ethdrv_netdev_set_tx_wake_handler(nd->dev, tx_wake, nd);
	assert_int_equal(ethdrv_netdev_open(nd->dev), 0);
}

static int setup_cfg(void **state, const struct fec_config *cfg)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct enet_line_config lc;

	assert_non_null(f);
	enet_line_config_default(&lc);
	lc.realtime = false;
	assert_int_equal(enet_line_new(&lc, &f->line), 0);
	for (unsigned i = 0; i < 2; i++)
		node_setup(f, i, cfg);
	f->step_ns = 2000;
	*state = f;
	return 0;
}

static int setup(void **state)
{
	struct fec_config cfg = { 0 };

	return setup_cfg(state, &cfg);
}

static int setup_small_rings(void **state)
{
	struct fec_config cfg = { .rx_ring = 16, .tx_ring = 16 };

	return setup_cfg(state, &cfg);
}

static int setup_enhanced(void **state)
{
	struct fec_config cfg = { .enhanced_bd = true, .combined_napi = true };

	return setup_cfg(state, &cfg);
}

static int teardown(void **state)
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
	enet_line_free(f->line);
	free(f);
	return 0;
}

/* One step: move the clock, run both loops. */
static void pump(struct fixture *f)
{
	assert_int_equal(enet_line_run_until(f->line, enet_line_now(f->line) + f->step_ns), 0);
	for (unsigned i = 0; i < 2; i++)
		assert_true(ethdrv_loop_run_once(f->n[i].loop, ETHDRV_RUN_NOWAIT) >= 0);
}

/* Pump for @ns of line time (default coalescing holds a lone frame 1 ms). */
static void pump_for(struct fixture *f, uint64_t ns)
{
	for (uint64_t t = 0; t < ns; t += f->step_ns)
		pump(f);
}

static bool flows_done(struct fixture *f)
{
	for (unsigned k = 0; k < MAX_FLOWS; k++)
		if (f->flows[k] && f->flows[k]->next < f->flows[k]->n)
			return false;
	return true;
}

/* Pump until every flow is through, @max_pumps at most; call @each every pump. */
static void run_flows(struct fixture *f, unsigned max_pumps,
		      void (*each)(struct fixture *, unsigned))
{
	unsigned i;

	for (i = 0; i < max_pumps && !flows_done(f); i++) {
		for (unsigned k = 0; k < MAX_FLOWS; k++)
			if (f->flows[k])
				flow_send(f->flows[k]);
		if (each)
			each(f, i);
		pump(f);
	}
	for (unsigned k = 0; k < MAX_FLOWS; k++) {
		if (!f->flows[k])
			continue;
		assert_int_equal(f->flows[k]->bad, 0);
		assert_int_equal(f->flows[k]->lost, 0);
		assert_int_equal(f->flows[k]->rcvd, f->flows[k]->n);
	}
}

static uint64_t stat(struct node *nd, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(nd->dev), name, &v), 0);
	return v;
}

static void set(struct node *nd, const char *key, const char *val)
{
	assert_int_equal(ethdrv_netdev_set(nd->dev, key, val), 0);
}

static unsigned len_sweep(unsigned seq)
{
	return 60 + seq % (1514 - 60 + 1);
}

static unsigned len_1514(unsigned seq)
{
	(void)seq;
	return 1514;
}

static unsigned len_mixed(unsigned seq)
{
	static const unsigned l[] = { 60, 1514, 590, 1514, 128, 1000 };

	return l[seq % 6];
}

static void add_flow(struct fixture *f, struct flow *fl, unsigned id, unsigned from)
{
	fl->id = (uint8_t)id;
	fl->src = &f->n[from];
	fl->dst = &f->n[!from];
	f->flows[id] = fl;
}

/* The test's flows end: frames still refused are freed, the handler forgets them. */
static void end_flows(struct fixture *f)
{
	for (unsigned k = 0; k < MAX_FLOWS; k++) {
		if (!f->flows[k])
			continue;
		ethdrv_pkt_free(f->flows[k]->pending);
		f->flows[k]->pending = NULL;
		f->flows[k] = NULL;
	}
}

/* ---- tests ---- */

static void test_every_size_both_ways(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1455, .len_of = len_sweep, .window = 48 };
	struct flow b = { .n = 1455, .len_of = len_sweep, .window = 48 };

	/* Every length 60..1514 from each side at once, byte-compared. */
	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 400000, NULL);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(stat(&f->n[i], "rx_errors"), 0);
		assert_int_equal(stat(&f->n[i], "rx_missed_errors"), 0);
		assert_int_equal(stat(&f->n[i], "tx_packets"), 1455);
		assert_int_equal(stat(&f->n[i], "mib_ieee_r_frame_ok"), 1455);
		assert_int_equal(stat(&f->n[i], "fec_tx_bounce"), 0); /* zero copy */
	}
	end_flows(f);
}

static void test_ring_wrap_under_load(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 3000, .len_of = len_mixed, .window = 14 };

	/* 16-BD rings: each wraps about 190 times. */
	add_flow(f, &a, 0, 0);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	assert_int_equal(stat(&f->n[0], "tx_packets"), 3000);
	end_flows(f);
}

static void test_bql_stop_wake(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	/* Unlimited window: the queue stops. First on byte queue limits. */
	add_flow(f, &a, 0, 0);
	set(&f->n[1], "rx-usecs", "20");
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], "txq_stops") > 0);
	assert_true(stat(&f->n[0], "txq_wakes") > 0);
	assert_true(f->n[0].tx_wakes > 0);
	end_flows(f);
}

static void test_ring_full_stop_wake(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 2000, .len_of = len_1514, .window = 2000 };

	/* With BQL out of the way the 16-BD ring fills: netif_stop_queue at
	 * full, wake at half empty, nothing lost. */
	add_flow(f, &a, 0, 0);
	set(&f->n[0], "bql_limit_min", "10000000");
	set(&f->n[1], "rx-usecs", "20");
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[0], "fec_tx_ring_full") > 0);
	assert_int_equal(stat(&f->n[0], "fec_tx_ring_wake"), stat(&f->n[0], "fec_tx_ring_full"));
	assert_true(f->n[0].tx_wakes > 0);
	assert_int_equal(stat(&f->n[1], "rx_missed_errors"), 0);
	end_flows(f);
}

static void toggle_split(struct fixture *f, unsigned i)
{
	if (i % 97 == 0)
		for (unsigned k = 0; k < 2; k++)
			set(&f->n[k], "napi_split", (i / 97) % 2 ? "0" : "1");
}

static void test_split_switch_under_traffic(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 4000, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 4000, .len_of = len_mixed, .window = 64 };
	char buf[8];

	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 600000, toggle_split);
	assert_int_equal(ethdrv_netdev_get(f->n[0].dev, "napi_split", buf, sizeof(buf)), 0);
	for (unsigned i = 0; i < 2; i++) {
		/* Both modes ran: the TX poller worked in one, the RX poller did TX in the other. */
		assert_true(stat(&f->n[i], "napi_tx_polls") > 0);
		assert_int_equal(stat(&f->n[i], "tx_packets"), 4000);
		assert_int_equal(stat(&f->n[i], "tx_dropped"), 0);
	}
	end_flows(f);
}

static void test_coalescing_irq_counts(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 800, .len_of = len_1514, .window = 200 };
	uint64_t irq;

	/* One step per microsecond: the poll runs before the next frame is in. */
	f->step_ns = 1000;
	add_flow(f, &a, 0, 0);
	/* Receiver: an interrupt every 8 frames; sender: one every 16. */
	set(&f->n[1], "rx-frames", "8");
	set(&f->n[1], "rx-usecs", "10000");
	set(&f->n[0], "tx-frames", "16");
	set(&f->n[0], "tx-usecs", "10000");
	run_flows(f, 400000, NULL);
	/* About one per threshold; a few more where the 10 ms timer released a
	 * remainder while the sender waited for its window. */
	irq = stat(&f->n[1], "fec_irq_rxf");
	assert_true(irq >= 800 / 8 - 2 && irq <= 800 / 8 + 6);
	irq = stat(&f->n[0], "fec_irq_txf");
	assert_true(irq >= 800 / 16 - 2 && irq <= 800 / 16 + 6);
	/* Coalescing off (usecs 0 with frames 1): one interrupt per frame. A
	 * frame count without a timer would strand frames: refused. */
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "rx-usecs", "0"), -EINVAL);
	set(&f->n[1], "rx-frames", "1");
	set(&f->n[1], "rx-usecs", "0");
	assert_int_equal(ethdrv_netdev_set(f->n[1].dev, "rx-frames", "8"), -EINVAL);
	irq = stat(&f->n[1], "fec_irq_rxf");
	f->flows[0]->n = 1600;
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[1], "fec_irq_rxf") - irq >= 750);
	end_flows(f);
}

static void test_coalescing_timer(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 20, .len_of = len_1514, .window = 1 };
	struct enet_emu_stats st;

	/* One frame at a time, a 100 us timer and a large frame count: each
	 * frame's interrupt comes from the timer. */
	add_flow(f, &a, 0, 0);
	set(&f->n[1], "rx-frames", "255");
	set(&f->n[1], "rx-usecs", "100");
	run_flows(f, 400000, NULL);
	enet_emu_get_stats(f->n[1].emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.coal_timer_fires), 20);
	assert_int_equal(stat(&f->n[1], "fec_irq_rxf"), 20);
	end_flows(f);
}

static void test_errors_counted(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 400, .len_of = len_1514, .window = 32 };
	uint64_t crc, missed, delivered;

	/* Bit errors: frames arrive with CR, counted, never delivered corrupt. */
	add_flow(f, &a, 0, 0);
	assert_int_equal(enet_line_set_ber(f->line, 0, 1e-5), 0);
	assert_int_equal(enet_emu_inject(f->n[1].emu, ENET_EMU_FAULT_RX_EXHAUST, 7), 0);
	/* Lost frames break the in-order check: send and count instead. */
	a.window = 400;
	for (unsigned i = 0; i < 20000 && a.sent < a.n; i++) {
		flow_send(&a);
		pump(f);
	}
	pump_for(f, 5000000);
	crc = stat(&f->n[1], "rx_crc_errors");
	missed = stat(&f->n[1], "rx_missed_errors");
	delivered = stat(&f->n[1], "rx_packets");
	assert_true(crc > 0);
	assert_int_equal(missed, 7);
	/* Every frame sent is delivered intact or counted once: none corrupt. */
	assert_int_equal(a.bad, 0);
	assert_int_equal(a.rcvd, delivered);
	assert_int_equal(delivered + crc + missed, 400);
	assert_int_equal(a.lost + (a.n - a.next), crc + missed); /* the last ones leave no gap */
	assert_int_equal(stat(&f->n[1], "mib_ieee_r_drop"), 7);
	end_flows(f);
}

static void test_bus_error_restart(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 300, .len_of = len_1514, .window = 400 };
	uint64_t sent, dropped, delivered;

	add_flow(f, &a, 0, 0);
	for (unsigned i = 0; i < 20; i++) {
		flow_send(&a);
		pump(f);
	}
	/* EBERR stops the controller; the driver restarts it from the loop. */
	assert_int_equal(enet_emu_inject(f->n[0].emu, ENET_EMU_FAULT_TX_BUS_ERROR, 0), 0);
	for (unsigned i = 0; i < 40000 && a.sent < a.n; i++) {
		flow_send(&a);
		pump(f);
	}
	pump_for(f, 5000000);
	assert_int_equal(stat(&f->n[0], "fec_irq_eberr"), 1);
	assert_int_equal(stat(&f->n[0], "fec_restarts"), 1);
	sent = a.sent;
	dropped = stat(&f->n[0], "tx_dropped");
	delivered = stat(&f->n[1], "rx_packets");
	/* Frames in the ring at the restart are dropped and counted; the one cut
	 * on the wire arrives with a bad FCS. */
	assert_int_equal(delivered + dropped + stat(&f->n[1], "rx_crc_errors"), sent);
	assert_true(delivered > 200);
	assert_int_equal(a.bad, 0);
	assert_int_equal(a.rcvd, delivered);
	end_flows(f);
}

static void test_bounce_and_runts(void **state)
{
	struct fixture *f = *state;
	struct ethdrv_pkt_pool *foreign;
	struct flow a = { .n = 300, .len_of = len_mixed, .window = 32 };

	/* Frames from a pool outside the DMA region are copied (bounced). */
	assert_int_equal(ethdrv_pkt_pool_new(64, &foreign), 0);
	a.pool = foreign;
	add_flow(f, &a, 0, 0);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[0], "fec_tx_bounce"), 300);
	assert_int_equal(ethdrv_pkt_pool_avail(foreign), 64);
	ethdrv_pkt_pool_free(foreign);
	a.pool = NULL;
	/* Frames shorter than 60 bytes arrive padded to 60. */
	f->flows[0] = NULL;
	{
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(f->n[0].pool);
		uint64_t before = stat(&f->n[1], "rx_bytes");

		frame_build(pkt->data, &a, 0, 20);
		pkt->len = 20;
		assert_int_equal(ethdrv_netdev_xmit(f->n[0].dev, pkt), 0);
		pump_for(f, 2000000);
		assert_int_equal(stat(&f->n[1], "rx_bytes") - before, 60);
	}
	end_flows(f);
}

static void test_knobs(void **state)
{
	struct fixture *f = *state;
	struct node *nd = &f->n[0];
	char buf[16];

	assert_int_equal(ethdrv_netdev_get(nd->dev, "rx-usecs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1000");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "tx-frames", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "200");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "adaptive-rx", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "off");
	assert_int_equal(ethdrv_netdev_get(nd->dev, "napi_split", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	/* fec's limits (docs/enet.md §6). */
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-frames", "256"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-frames", "0"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-usecs", "40000"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-usecs", "33000"), 0);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "rx-usecs", "-1"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "adaptive-tx", "maybe"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "napi_split", "2"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(nd->dev, "no-such-knob", "1"), -ENOENT);
	assert_int_equal(ethdrv_netdev_get(nd->dev, "rx-usecs", buf, 2), -ENOSPC);
}

static void test_adaptive(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 6000, .len_of = len_mixed, .window = 64 };

	/* net DIM picks profiles once it has seen 64 interrupts per step. */
	f->step_ns = 1000;
	add_flow(f, &a, 0, 0);
	set(&f->n[1], "adaptive-rx", "on");
	set(&f->n[0], "adaptive-tx", "on");
	run_flows(f, 800000, NULL);
	assert_true(stat(&f->n[1], "fec_dim_rx_changes") > 0);
	assert_true(stat(&f->n[0], "fec_dim_tx_changes") > 0);
	set(&f->n[1], "adaptive-rx", "off");
	end_flows(f);
}

static void test_core_knobs(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1500, .len_of = len_mixed, .window = 64 };
	struct flow b = { .n = 1500, .len_of = len_mixed, .window = 64 };

	/* Software coalescing, busy polling and the budget apply to both pollers. */
	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	set(&f->n[1], "napi_defer_hard_irqs", "2");
	set(&f->n[1], "gro_flush_timeout", "20000");
	set(&f->n[0], "busy_poll", "50");
	set(&f->n[0], "budget", "8");
	set(&f->n[1], "rx-frames", "1");
	set(&f->n[1], "rx-usecs", "0");
	run_flows(f, 400000, NULL);
	assert_true(stat(&f->n[1], "napi_rx_defer_timer_polls") > 0);
	assert_true(stat(&f->n[0], "napi_rx_busy_polls") > 0);
	end_flows(f);
}

static void test_enhanced_combined(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1455, .len_of = len_sweep, .window = 48 };
	struct flow b = { .n = 500, .len_of = len_mixed, .window = 48 };

	/* 32-byte descriptors and one poller for both directions. */
	add_flow(f, &a, 0, 0);
	add_flow(f, &b, 1, 1);
	run_flows(f, 400000, NULL);
	assert_int_equal(stat(&f->n[0], "napi_tx_polls"), 0);
	assert_int_equal(stat(&f->n[0], "fec_tx_errors_bd"), 0);
	end_flows(f);
}

static void test_filters(void **state)
{
	struct fixture *f = *state;
	struct flow a = { .n = 1, .len_of = len_1514, .window = 10 };
	static const uint8_t mc[1][ETHDRV_ETH_ALEN] = { { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x42 } };
	static const uint8_t other[ETHDRV_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x77 };
	struct enet_emu_stats st;
	struct node saved;
	uint64_t before;

	add_flow(f, &a, 0, 0);
	/* Unicast to another station is filtered by the MAC. */
	saved = f->n[1];
	memcpy(f->n[1].mac, other, ETHDRV_ETH_ALEN);
	flow_send(&a);
	pump_for(f, 2000000);
	enet_emu_get_stats(f->n[1].emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_filter), 1);
	/* Promiscuous mode lets it in. */
	assert_int_equal(ethdrv_netdev_set_rx_filter(f->n[1].dev, ETHDRV_RXF_PROMISC, NULL, 0), 0);
	before = stat(&f->n[1], "rx_packets");
	a.n = 2;
	flow_send(&a);
	pump_for(f, 2000000);
	assert_int_equal(stat(&f->n[1], "rx_packets"), before + 1);
	/* A multicast group through the hash. */
	assert_int_equal(ethdrv_netdev_set_rx_filter(f->n[1].dev, ETHDRV_RXF_BROADCAST, mc, 1), 0);
	memcpy(f->n[1].mac, mc[0], ETHDRV_ETH_ALEN);
	a.n = 3;
	flow_send(&a);
	pump_for(f, 2000000);
	assert_int_equal(stat(&f->n[1], "rx_packets"), before + 2);
	assert_int_equal(stat(&f->n[1], "multicast"), 1);
	memcpy(f->n[1].mac, saved.mac, ETHDRV_ETH_ALEN);
	end_flows(f);
}

static void test_create_errors(void **state)
{
	struct fixture *f = *state;
	struct fec_config cfg = { .name = "x", .mac = { 0x02, 1, 2, 3, 4, 5 } };
	struct ethdrv_netdev *dev;
	struct ethdrv_mmio_bus bus = f->n[0].bus;

	cfg.rx_ring = 100;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.rx_ring = 0;
	cfg.speed_mbps = 2500;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.speed_mbps = 0;
	cfg.mac[0] = 0x01;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	cfg.mac[0] = 0x02;
	bus.dma.size = 4096;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -ENOSPC);
	bus.dma.size = f->n[0].bus.dma.size;
	bus.irq_fd[0] = -1;
	assert_int_equal(fec_create(&cfg, &bus, f->n[0].loop, &dev), -EINVAL);
	assert_true(fec_dma_size(&cfg) < f->n[0].bus.dma.size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_size_both_ways, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_wrap_under_load, setup_small_rings,
						teardown),
		cmocka_unit_test_setup_teardown(test_bql_stop_wake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_full_stop_wake, setup_small_rings,
						teardown),
		cmocka_unit_test_setup_teardown(test_split_switch_under_traffic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_irq_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalescing_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bus_error_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounce_and_runts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adaptive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_core_knobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enhanced_combined, setup_enhanced, teardown),
		cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
