// SPDX-License-Identifier: MIT
/*
 * Unit tests for the generic device: xmit paths and their counters, the
 * BQL stop/wake protocol, knobs, MAC and filter validation, RX delivery
 * counters and the stats set.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "fake_netdev.h"

#define POOL_SIZE 256

struct env {
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	struct fake_netdev *f;
};

static int setup_cfg(void **state, const struct fake_netdev_config *cfg)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e || ethdrv_loop_new(&e->loop) || ethdrv_pkt_pool_new(POOL_SIZE, &e->pool))
		return -1;
	if (fake_netdev_create(e->loop, e->pool, "t1s0", cfg, &e->f))
		return -1;
	*state = e;
	return 0;
}

static int setup(void **state)
{
	struct fake_netdev_config cfg;

	fake_netdev_default_config(&cfg);
	return setup_cfg(state, &cfg);
}

static int setup_fail_after_2(void **state)
{
	struct fake_netdev_config cfg;

	fake_netdev_default_config(&cfg);
	cfg.tx_fail_after = 2;
	return setup_cfg(state, &cfg);
}

static int teardown(void **state)
{
	struct env *e = *state;

	fake_netdev_destroy(e->f);
	assert_int_equal(ethdrv_pkt_pool_avail(e->pool), POOL_SIZE);
	ethdrv_pkt_pool_free(e->pool);
	ethdrv_loop_free(e->loop);
	free(e);
	return 0;
}

static uint64_t cnt(const ethdrv_counter_t *c)
{
	return ethdrv_counter_get(c);
}

/* ---- lifecycle and xmit ---- */

static void test_open_close(void **state)
{
	struct env *e = *state;
	struct ethdrv_netdev *dev = &e->f->dev;
	struct ethdrv_link_state ls;

	assert_string_equal(ethdrv_netdev_name(dev), "t1s0");
	assert_string_equal(ethdrv_netdev_name(NULL), "-");
	e->f->cfg.fail_open = true;
	assert_int_equal(ethdrv_netdev_open(dev), -EIO);
	assert_false(dev->up);
	e->f->cfg.fail_open = false;
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	assert_int_equal(ethdrv_netdev_open(dev), -EALREADY);
	assert_int_equal(ethdrv_netdev_get_link(dev, &ls), 0);
	assert_true(ls.up);
	assert_int_equal(ls.speed_mbps, 10);
	assert_int_equal(ethdrv_netdev_stop(dev), 0);
	assert_int_equal(ethdrv_netdev_stop(dev), 0); /* already down */
}

static void test_init_bad_args(void **state)
{
	struct env *e = *state;
	static const struct ethdrv_netdev_ops ops = { 0 };
	struct ethdrv_netdev dev;

	memset(&dev, 0, sizeof(dev));
	assert_int_equal(ethdrv_netdev_init(&dev, "", &ops, e->loop, NULL), -EINVAL);
	assert_int_equal(ethdrv_netdev_init(&dev, "sixteen-chars-xx", &ops, e->loop, NULL),
			 -EINVAL);
	assert_int_equal(ethdrv_netdev_init(&dev, "x", NULL, e->loop, NULL), -EINVAL);
	assert_int_equal(ethdrv_netdev_init(&dev, "x", &ops, NULL, NULL), -EINVAL);
	/* A device whose driver has no ops at all: the core answers for it. */
	assert_int_equal(ethdrv_netdev_init(&dev, "x", &ops, e->loop, NULL), 0);
	assert_int_equal(ethdrv_netdev_open(&dev), -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_get_link(&dev, &(struct ethdrv_link_state){ 0 }),
			 -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_set_mac(&dev, (const uint8_t[6]){ 2, 0, 0, 0, 0, 1 }),
			 -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_set_rx_filter(&dev, 0, NULL, 0), -EOPNOTSUPP);
	assert_int_equal(ethdrv_netdev_set(&dev, "no_such_knob", "1"), -ENOENT);
	ethdrv_netdev_destroy(&dev);
}

static void test_xmit_paths(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	struct ethdrv_link_stats *st = ethdrv_netdev_link_stats(dev);

	/* Down: taken, freed, counted in tx_dropped only. */
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 0, 60)), -ENETDOWN);
	assert_int_equal(cnt(&st->tx_dropped), 1);
	assert_int_equal(cnt(&st->tx_carrier_errors), 0);

	assert_int_equal(ethdrv_netdev_set(dev, "bql_limit_min", "100000"), 0);
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	/* MTU 1500 + 14 header + 4 VLAN = 1518 is the longest frame. */
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 1, 1519)), -EMSGSIZE);
	assert_int_equal(cnt(&st->tx_dropped), 2);
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 2, 1518)), 0);
	/* A runt is padded by the device, not rejected; a headerless frame is. */
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 3, 20)), 0);
	struct ethdrv_pkt *tiny = fake_netdev_make_frame(f, 4, 60);

	tiny->len = 13;
	assert_int_equal(ethdrv_netdev_xmit(dev, tiny), -EINVAL);
	assert_int_equal(cnt(&st->tx_dropped), 3);
	assert_int_equal(fake_netdev_tx_used(f), 2);
	assert_int_equal(dev->txq.dql.num_queued, 1518 + 60);
}

static void test_xmit_busy_keeps_frame(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	struct ethdrv_pkt *pkt;

	/* tx_fail_after = 2: the third start_xmit answers TX_BUSY. */
	assert_int_equal(ethdrv_netdev_set(dev, "bql_limit_min", "100000"), 0);
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 0, 60)), 0);
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 1, 60)), 0);
	pkt = fake_netdev_make_frame(f, 2, 60);
	assert_int_equal(ethdrv_netdev_xmit(dev, pkt), -EBUSY);
	assert_int_equal(fake_frame_seq(pkt), 2); /* still ours */
	assert_int_equal(cnt(&dev->stats.tx_dropped), 0);
	ethdrv_pkt_free(pkt);
	/* A stopped queue refuses before the driver is asked. */
	ethdrv_netdev_tx_stop(dev);
	assert_true(ethdrv_netdev_tx_stopped(dev));
	pkt = fake_netdev_make_frame(f, 3, 60);
	assert_int_equal(ethdrv_netdev_xmit(dev, pkt), -EBUSY);
	assert_int_equal(f->tx_xmits, 2);
	ethdrv_pkt_free(pkt);
	/* Stopping the device drops the two queued frames. */
	assert_int_equal(ethdrv_netdev_stop(dev), 0);
	assert_int_equal(cnt(&dev->stats.tx_dropped), 2);
	assert_false(ethdrv_netdev_tx_stopped(dev));
}

/* ---- carrier (netif_carrier_on/off) ---- */

struct carrier_log {
	unsigned calls; /* handler calls */
	bool last; /* the state it was given */
};

static void on_carrier(void *arg, bool up)
{
	struct carrier_log *l = arg;

	l->calls++;
	l->last = up;
}

static void test_carrier(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	struct ethdrv_link_stats *st = ethdrv_netdev_link_stats(dev);
	struct carrier_log log = { 0 };
	uint64_t v;

	ethdrv_netdev_set_carrier_handler(dev, on_carrier, &log);
	assert_true(ethdrv_netdev_carrier_ok(dev)); /* Linux's default */
	assert_null(ethdrv_netdev_phy(dev));
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	/* Setting the state it has changes nothing. */
	ethdrv_netdev_carrier_on(dev);
	assert_int_equal(log.calls, 0);
	ethdrv_netdev_carrier_off(dev);
	ethdrv_netdev_carrier_off(dev);
	assert_int_equal(log.calls, 1);
	assert_false(log.last);
	assert_false(ethdrv_netdev_carrier_ok(dev));
	/* No carrier: taken, freed, counted as a carrier error, not queued. */
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 0, 60)), -ENOLINK);
	assert_int_equal(cnt(&st->tx_carrier_errors), 1);
	assert_int_equal(cnt(&st->tx_errors), 1);
	assert_int_equal(cnt(&st->tx_dropped), 1);
	assert_int_equal(fake_netdev_tx_used(f), 0);
	ethdrv_netdev_carrier_on(dev);
	assert_int_equal(log.calls, 2);
	assert_true(log.last);
	assert_int_equal(ethdrv_netdev_xmit(dev, fake_netdev_make_frame(f, 1, 60)), 0);
	assert_int_equal(cnt(&st->tx_carrier_errors), 1);
	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(dev), "carrier_down_count", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(dev), "carrier_up_count", &v), 0);
	assert_int_equal(v, 1);
}

/* ---- BQL stop/wake ---- */

static void wake_cb(void *arg)
{
	(*(unsigned *)arg)++;
}

/* A read-only knob reads @val. */
static void check_gauge(struct ethdrv_netdev *dev, const char *key, const char *val)
{
	char buf[32];

	assert_int_equal(ethdrv_netdev_get(dev, key, buf, sizeof(buf)), 0);
	assert_string_equal(buf, val);
}

static void test_bql_stop_wake(void **state)
{
	struct env *e = *state;
	struct ethdrv_netdev *dev = &e->f->dev;
	struct ethdrv_txq *q = &dev->txq;
	unsigned woken = 0;

	/* A fixed 300-byte limit (min = max), applied by the reset at open. */
	assert_int_equal(ethdrv_netdev_set(dev, "bql_limit_max", "300"), 0);
	assert_int_equal(ethdrv_netdev_set(dev, "bql_limit_min", "300"), 0);
	assert_int_equal(ethdrv_netdev_set(dev, "bql_limit_max", "299"), -EINVAL); /* < min */
	/* The gauges are read only, whatever the value. */
	assert_int_equal(ethdrv_netdev_set(dev, "bql_limit", "0"), -EPERM);
	assert_int_equal(ethdrv_netdev_set(dev, "bql_inflight", "300"), -EPERM);
	ethdrv_netdev_set_tx_wake_handler(dev, wake_cb, &woken);
	assert_int_equal(ethdrv_netdev_open(dev), 0);

	ethdrv_netdev_tx_sent(dev, 200); /* avail 100 */
	assert_false(ethdrv_netdev_tx_stopped(dev));
	ethdrv_netdev_tx_sent(dev, 200); /* avail -100: stack XOFF */
	assert_true(ethdrv_netdev_tx_stopped(dev));
	assert_int_equal(q->state, ETHDRV_TXQ_STACK_XOFF);
	assert_int_equal(cnt(&q->stops), 1);
	ethdrv_netdev_tx_completed(dev, 0, 0); /* bytes 0: nothing happens */
	assert_true(ethdrv_netdev_tx_stopped(dev));
	check_gauge(dev, "bql_inflight", "400");
	check_gauge(dev, "bql_limit", "300");
	ethdrv_netdev_tx_completed(dev, 1, 200); /* inflight 200, avail 100: wake */
	check_gauge(dev, "bql_inflight", "200");
	assert_false(ethdrv_netdev_tx_stopped(dev));
	assert_int_equal(woken, 1);
	assert_int_equal(cnt(&q->wakes), 1);
	assert_int_equal(cnt(&dev->stats.tx_packets), 1);
	assert_int_equal(cnt(&dev->stats.tx_bytes), 200);

	/* Both stop reasons: the limit's wake does not restart a queue the
	 * driver still holds; the driver's wake does. */
	ethdrv_netdev_tx_sent(dev, 200); /* inflight 400 */
	ethdrv_netdev_tx_stop(dev);
	assert_int_equal(q->state, ETHDRV_TXQ_STACK_XOFF | ETHDRV_TXQ_DRV_XOFF);
	assert_int_equal(cnt(&q->stops), 2);
	ethdrv_netdev_tx_completed(dev, 1, 200);
	assert_int_equal(q->state, ETHDRV_TXQ_DRV_XOFF);
	assert_int_equal(woken, 1);
	ethdrv_netdev_tx_wake(dev);
	assert_int_equal(woken, 2);
	ethdrv_netdev_tx_wake(dev); /* not stopped: no second call */
	assert_int_equal(woken, 2);

	/* Reset forgets in-flight bytes and wakes a limit-stopped queue. */
	ethdrv_netdev_tx_sent(dev, 200);
	ethdrv_netdev_tx_sent(dev, 200);
	assert_true(ethdrv_netdev_tx_stopped(dev));
	ethdrv_netdev_tx_reset(dev);
	assert_false(ethdrv_netdev_tx_stopped(dev));
	assert_int_equal(woken, 3);
	assert_int_equal(ethdrv_dql_inflight(&q->dql), 0);
	assert_int_equal(cnt(&q->stops), cnt(&q->wakes));
}

/* ---- knobs ---- */

static void check_knob(struct ethdrv_netdev *dev, const char *key, const char *val)
{
	char buf[32];

	assert_int_equal(ethdrv_netdev_set(dev, key, val), 0);
	assert_int_equal(ethdrv_netdev_get(dev, key, buf, sizeof(buf)), 0);
	assert_string_equal(buf, val);
}

static void test_knobs(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	struct ethdrv_napi_config cfg;
	static const char *const bad[] = { "",	  "-1",	  "+1",
					   " 1",  "1 ",	  "abc",
					   "12x", "0x10", "99999999999999999999999" };
	char buf[32];

	assert_int_equal(ethdrv_netdev_get(dev, "budget", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "64");
	assert_int_equal(ethdrv_netdev_get(dev, "netdev_budget", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "300");
	assert_int_equal(ethdrv_netdev_get(dev, "netdev_budget_usecs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2000");
	assert_int_equal(ethdrv_netdev_get(dev, "bql_hold_time", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1000");

	check_knob(dev, "napi_defer_hard_irqs", "2");
	check_knob(dev, "gro_flush_timeout", "200000");
	check_knob(dev, "threaded", "1");
	check_knob(dev, "threaded", "0");
	check_knob(dev, "busy_poll", "50");
	check_knob(dev, "busy_poll_budget", "16");
	check_knob(dev, "budget", "16");
	check_knob(dev, "netdev_budget", "600");
	check_knob(dev, "netdev_budget_usecs", "4000");
	check_knob(dev, "bql_limit_max", "100000");
	check_knob(dev, "bql_limit_min", "1500");
	check_knob(dev, "bql_hold_time", "500");
	/* Poller knobs reach every poller; busy_poll is kept but never used by
	 * the TX poller, and "budget" is the RX weight only. */
	ethdrv_napi_get_config(f->rx_napi, &cfg);
	assert_int_equal(cfg.defer_hard_irqs, 2);
	assert_int_equal(cfg.gro_flush_timeout_ns, 200000);
	assert_int_equal(cfg.busy_poll_us, 50);
	assert_int_equal(cfg.busy_poll_budget, 16);
	ethdrv_napi_get_config(f->tx_napi, &cfg);
	assert_int_equal(cfg.defer_hard_irqs, 2);
	assert_int_equal(dev->txq.dql.slack_hold_ns, 500000000ull);
	assert_int_equal(ethdrv_netdev_set(dev, "busy_poll", "0"), 0);

	/* The RX poller polls with the new weight. */
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	for (uint32_t i = 0; i < 20; i++)
		assert_int_equal(fake_netdev_inject_rx(f, i), 0);
	ethdrv_loop_run_once(e->loop, ETHDRV_RUN_NOWAIT);
	assert_int_equal(f->rx_log[0].budget, 16);
	assert_int_equal(f->rx_log[0].work, 16);

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(bad); i++)
		assert_int_equal(ethdrv_netdev_set(dev, "netdev_budget", bad[i]), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "netdev_budget", NULL), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "threaded", "2"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "budget", "65"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "budget", "0"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "netdev_budget", "0"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "busy_poll_budget", "65536"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(dev, "gro_flush_timeout", "4294967296"), -EINVAL);
	assert_int_equal(ethdrv_netdev_get(dev, "netdev_budget", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "600"); /* unchanged by the failures */

	/* Unknown keys go to the driver, which knows one. */
	assert_int_equal(ethdrv_netdev_set(dev, "nope", "1"), -ENOENT);
	assert_int_equal(ethdrv_netdev_get(dev, "nope", buf, sizeof(buf)), -ENOENT);
	check_knob(dev, "fake_drop_every", "3");
	assert_int_equal(ethdrv_netdev_get(dev, "netdev_budget", buf, 3), -ENOSPC);
}

/* ---- MAC, filters, RX, stats ---- */

static void test_set_mac(void **state)
{
	struct env *e = *state;
	struct ethdrv_netdev *dev = &e->f->dev;
	const uint8_t mcast[6] = { 0x01, 0, 0x5e, 0, 0, 1 };
	const uint8_t zero[6] = { 0 };
	const uint8_t good[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t got[6];

	assert_int_equal(ethdrv_netdev_set_mac(dev, mcast), -EINVAL);
	assert_int_equal(ethdrv_netdev_set_mac(dev, zero), -EINVAL);
	ethdrv_netdev_get_mac(dev, got);
	assert_int_equal(got[5], 0x01); /* unchanged */
	assert_int_equal(ethdrv_netdev_set_mac(dev, good), 0);
	ethdrv_netdev_get_mac(dev, got);
	assert_memory_equal(got, good, 6);
}

static void test_rx_filter(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	const uint8_t mc[2][6] = { { 0x01, 0, 0x5e, 0, 0, 1 }, { 0x33, 0x33, 0, 0, 0, 1 } };
	const uint8_t uc[1][6] = { { 0x02, 0, 0, 0, 0, 7 } };
	static uint8_t many[ETHDRV_MC_MAX + 1][6];

	assert_int_equal(ethdrv_netdev_set_rx_filter(&f->dev, 0x80, NULL, 0), -EINVAL);
	assert_int_equal(ethdrv_netdev_set_rx_filter(&f->dev, 0, uc, 1), -EINVAL);
	assert_int_equal(ethdrv_netdev_set_rx_filter(&f->dev, 0, NULL, 1), -EINVAL);
	for (int i = 0; i <= ETHDRV_MC_MAX; i++)
		many[i][0] = 0x01;
	assert_int_equal(ethdrv_netdev_set_rx_filter(&f->dev, 0, (const uint8_t(*)[6])many,
						     ETHDRV_MC_MAX + 1),
			 -EINVAL);
	assert_int_equal(f->set_rx_mode_calls, 0);
	assert_int_equal(ethdrv_netdev_set_rx_filter(
				 &f->dev, ETHDRV_RXF_BROADCAST | ETHDRV_RXF_ALLMULTI, mc, 2),
			 0);
	assert_int_equal(f->set_rx_mode_calls, 1);
	assert_int_equal(f->dev.rx_flags, ETHDRV_RXF_BROADCAST | ETHDRV_RXF_ALLMULTI);
	assert_int_equal(f->dev.mc_count, 2);
	assert_memory_equal(f->dev.mc_list[1], mc[1], 6);
}

static void test_receive_counters(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	struct ethdrv_link_stats *st = &dev->stats;
	struct ethdrv_pkt *p;

	p = fake_netdev_make_frame(f, 1, 100);
	ethdrv_netdev_receive(dev, p); /* unicast */
	p = fake_netdev_make_frame(f, 2, 60);
	memset(p->data, 0xff, 6); /* broadcast is a group address too */
	ethdrv_netdev_receive(dev, p);
	p = fake_netdev_make_frame(f, 3, 60);
	p->data[0] = 0x01; /* multicast */
	ethdrv_netdev_receive(dev, p);
	assert_int_equal(cnt(&st->rx_packets), 3);
	assert_int_equal(cnt(&st->rx_bytes), 220);
	assert_int_equal(cnt(&st->multicast), 2);
	assert_int_equal(fake_netdev_rx_count(f), 3);
	/* No handler: counted and freed. */
	ethdrv_netdev_set_rx_handler(dev, NULL, NULL);
	ethdrv_netdev_receive(dev, fake_netdev_make_frame(f, 4, 60));
	assert_int_equal(cnt(&st->rx_packets), 4);
	assert_int_equal(cnt(&st->rx_nohandler), 1);
	assert_int_equal(cnt(&st->rx_dropped), 1);
}

/* cpu_cost_ns (issue 24): each received frame and each TX completion spins
 * that long in the caller (the poll context); 0 costs nothing. */
static void test_cpu_cost(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	uint64_t t0, spent;
	char buf[32];

	assert_int_equal(ethdrv_netdev_get(dev, "cpu_cost_ns", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0");
	check_knob(dev, "cpu_cost_ns", "200000");
	assert_int_equal(ethdrv_netdev_set(dev, "cpu_cost_ns", "1000001"), -EINVAL);
	t0 = ethdrv_now_ns();
	for (uint32_t i = 0; i < 5; i++)
		ethdrv_netdev_receive(dev, fake_netdev_make_frame(f, i, 60));
	ethdrv_netdev_tx_completed(dev, 0, 0); /* no frame: no cost */
	spent = ethdrv_now_ns() - t0;
	assert_true(spent >= 5 * 200000ull); /* a spin never ends early */
	/* Completions cost per descriptor: 3 frames, 600 us at least. */
	t0 = ethdrv_now_ns();
	ethdrv_netdev_tx_completed(dev, 3, 180);
	assert_true(ethdrv_now_ns() - t0 >= 3 * 200000ull);
	check_knob(dev, "cpu_cost_ns", "0");
	assert_int_equal(fake_netdev_rx_count(f), 5);
}

/* cpu_cost_cputime (default 1): the spin counts the thread's own CPU time,
 * so the thread spends at least the cost in CPU, preempted or not; with 0 it
 * counts wall time, which also never ends early. */
static void test_cpu_cost_cputime(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	uint64_t c0, t0;
	char buf[32];

	assert_int_equal(ethdrv_netdev_get(dev, "cpu_cost_cputime", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	assert_int_equal(ethdrv_netdev_set(dev, "cpu_cost_cputime", "2"), -EINVAL);
	check_knob(dev, "cpu_cost_ns", "200000");
	c0 = ethdrv_thread_cpu_ns();
	for (uint32_t i = 0; i < 5; i++)
		ethdrv_netdev_receive(dev, fake_netdev_make_frame(f, i, 60));
	assert_true(ethdrv_thread_cpu_ns() - c0 >= 5 * 200000ull);
	check_knob(dev, "cpu_cost_cputime", "0");
	t0 = ethdrv_now_ns();
	ethdrv_netdev_tx_completed(dev, 2, 120);
	assert_true(ethdrv_now_ns() - t0 >= 2 * 200000ull);
	check_knob(dev, "cpu_cost_ns", "0");
	check_knob(dev, "cpu_cost_cputime", "1");
	assert_int_equal(fake_netdev_rx_count(f), 5);
}

static void test_drop_every_and_stats_dump(void **state)
{
	struct env *e = *state;
	struct fake_netdev *f = e->f;
	struct ethdrv_netdev *dev = &f->dev;
	struct ethdrv_stats_set *set;
	static char out[16384];
	uint64_t v;

	f->cfg.drop_every = 3;
	assert_int_equal(ethdrv_netdev_open(dev), 0);
	for (uint32_t i = 0; i < 9; i++)
		assert_int_equal(fake_netdev_inject_rx(f, i), 0);
	ethdrv_loop_run_once(e->loop, ETHDRV_RUN_NOWAIT);
	/* Frames 3, 6 and 9 (counting from 1) are dropped by the fault knob. */
	assert_int_equal(fake_netdev_rx_count(f), 6);
	assert_int_equal(f->rx_seq[2], 3);

	set = ethdrv_netdev_stats(dev);
	assert_int_equal(f->get_stats_calls, 1);
	assert_int_equal(ethdrv_stats_get(set, "rx_packets", &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(ethdrv_stats_get(set, "rx_dropped", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(ethdrv_stats_get(set, "napi_rx_polls", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(ethdrv_stats_get(set, "napi_rx_irqs", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(ethdrv_stats_get(set, "napi_tx_polls", &v), 0);
	assert_int_equal(ethdrv_stats_get(set, "txq_stops", &v), 0);
	assert_true(ethdrv_stats_dump(set, ETHDRV_STATS_TEXT, out, sizeof(out)) < (int)sizeof(out));
	assert_non_null(strstr(out, "tx_carrier_errors"));
	assert_non_null(strstr(out, "napi_rx_irq_rearms"));
	assert_non_null(strstr(out, "napi_tx_completes"));
	assert_non_null(strstr(out, "napi_rx_irq_to_poll_ns"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_init_bad_args, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xmit_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xmit_busy_keeps_frame, setup_fail_after_2,
						teardown),
		cmocka_unit_test_setup_teardown(test_carrier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bql_stop_wake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_mac, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_receive_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_cost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_cost_cputime, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_every_and_stats_dump, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
