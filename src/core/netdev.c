// SPDX-License-Identifier: MIT
/*
 * The generic device (netdev.h, driver.h): lifecycle, RX delivery, the TX
 * queue with byte queue limits and its stop/wake protocol
 * (docs/napi.md §4.2), and run-time knobs.
 *
 * Counters on the TX error paths, as Linux's __dev_queue_xmit counts them:
 * a frame sent while the device is down, or one too long for the MTU, is
 * freed and counted in tx_dropped only (no carrier error: the link state is
 * not involved). A frame sent while the device is up but has no carrier
 * (ethdrv_netdev_carrier_off()) is freed and counted in tx_carrier_errors,
 * tx_errors and tx_dropped: Linux would hold it in a deactivated qdisc and
 * drop it there; the application sees -ENOLINK and the TAP bridge has told
 * the kernel (TUNSETCARRIER) to stop sending.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/driver.h"
#include "ethdrv/knob.h"
#include "ethdrv/log.h"
#include "ethdrv/netdev.h"
#include "napi_priv.h"

ETHDRV_LOG_MODULE(netdev);

#define NETDEV_XOFF_ANY (ETHDRV_TXQ_DRV_XOFF | ETHDRV_TXQ_STACK_XOFF)
#define NSEC_PER_MSEC 1000000ull

static const struct ethdrv_stat_desc netdev_txq_desc[] = {
	ETHDRV_STAT_DESC(struct ethdrv_txq, stops),
	ETHDRV_STAT_DESC(struct ethdrv_txq, wakes),
};

/* "carrier_up_count", "carrier_down_count" (Linux sysfs names). */
static const struct ethdrv_stat_desc netdev_carrier_desc[] = {
	{ "up_count", offsetof(struct ethdrv_netdev, carrier_up_count) },
	{ "down_count", offsetof(struct ethdrv_netdev, carrier_down_count) },
};

const char *ethdrv_netdev_name(const struct ethdrv_netdev *dev)
{
	return dev ? dev->name : "-";
}

int ethdrv_netdev_init(struct ethdrv_netdev *dev, const char *name,
		       const struct ethdrv_netdev_ops *ops, struct ethdrv_loop *loop,
		       struct ethdrv_pkt_pool *pool)
{
	int ret;

	if (!dev || !name || !*name || strlen(name) >= sizeof(dev->name) || !ops || !loop)
		return -EINVAL;
	strcpy(dev->name, name);
	dev->ops = ops;
	dev->loop = loop;
	dev->pool = pool;
	dev->mtu = ETHDRV_ETH_DATA_LEN;
	dev->up = false;
	dev->rx_flags = ETHDRV_RXF_BROADCAST;
	dev->napis = NULL;
	dev->napi_cfg.busy_poll_budget = ETHDRV_BUSY_POLL_BUDGET;
	dev->carrier = true; /* Linux's default until a driver turns it off */
	dev->cpu_cost_cputime = true; /* a slower CPU's cost is CPU time (docs/design.md §4.9) */
	ethdrv_dql_init(&dev->txq.dql, ETHDRV_DQL_HOLD_TIME_NS);
	ret = ethdrv_stats_set_new(&dev->stats_set);
	if (ret)
		return ret;
	ret = ethdrv_stats_add_group(dev->stats_set, "", ethdrv_link_stats_desc,
				     ethdrv_link_stats_desc_count, &dev->stats);
	if (!ret)
		ret = ethdrv_stats_add_group(dev->stats_set, "txq", netdev_txq_desc,
					     ETHDRV_ARRAY_SIZE(netdev_txq_desc), &dev->txq);
	if (!ret)
		ret = ethdrv_stats_add_group(dev->stats_set, "carrier", netdev_carrier_desc,
					     ETHDRV_ARRAY_SIZE(netdev_carrier_desc), dev);
	if (ret) {
		ethdrv_stats_set_free(dev->stats_set);
		dev->stats_set = NULL;
	}
	return ret;
}

void ethdrv_netdev_cleanup(struct ethdrv_netdev *dev)
{
	ethdrv__napi_free_all(dev);
	ethdrv_stats_set_free(dev->stats_set);
	dev->stats_set = NULL;
}

/* Forget the TX queue state without calling the wake handler. */
static void netdev_txq_clear(struct ethdrv_netdev *dev)
{
	ethdrv_dql_reset(&dev->txq.dql);
	__atomic_store_n(&dev->txq.state, 0, __ATOMIC_SEQ_CST);
}

int ethdrv_netdev_open(struct ethdrv_netdev *dev)
{
	int ret;

	if (!dev)
		return -EINVAL;
	if (dev->up)
		return -EALREADY;
	if (!dev->ops->open)
		return -EOPNOTSUPP;
	netdev_txq_clear(dev);
	ret = dev->ops->open(dev);
	if (ret)
		return ret;
	dev->up = true;
	return 0;
}

int ethdrv_netdev_stop(struct ethdrv_netdev *dev)
{
	int ret = 0;

	if (!dev)
		return -EINVAL;
	if (!dev->up)
		return 0;
	dev->up = false; /* xmit refuses from here on */
	if (dev->ops->stop)
		ret = dev->ops->stop(dev);
	netdev_txq_clear(dev);
	return ret;
}

void ethdrv_netdev_destroy(struct ethdrv_netdev *dev)
{
	const struct ethdrv_netdev_ops *ops;

	if (!dev)
		return;
	ops = dev->ops;
	ethdrv_netdev_stop(dev);
	ethdrv_netdev_cleanup(dev);
	if (ops->destroy)
		ops->destroy(dev);
}

void ethdrv_netdev_set_rx_handler(struct ethdrv_netdev *dev, ethdrv_rx_handler_fn fn, void *arg)
{
	dev->rx_handler = fn;
	dev->rx_handler_arg = arg;
}

void ethdrv_netdev_set_rx_flush_handler(struct ethdrv_netdev *dev, ethdrv_rx_flush_fn fn, void *arg)
{
	dev->rx_flush = fn;
	dev->rx_flush_arg = arg;
}

void ethdrv_netdev_set_tx_wake_handler(struct ethdrv_netdev *dev, ethdrv_tx_wake_fn fn, void *arg)
{
	dev->txq.wake = fn;
	dev->txq.wake_arg = arg;
}

/* ---- carrier (netif_carrier_on/off) ---- */

void ethdrv_netdev_set_carrier_handler(struct ethdrv_netdev *dev, ethdrv_carrier_fn fn, void *arg)
{
	dev->carrier_fn = fn;
	dev->carrier_arg = arg;
}

bool ethdrv_netdev_carrier_ok(const struct ethdrv_netdev *dev)
{
	return __atomic_load_n(&dev->carrier, __ATOMIC_ACQUIRE);
}

struct ethdrv_phy *ethdrv_netdev_phy(const struct ethdrv_netdev *dev)
{
	return dev->phydev;
}

/* Set the carrier to @up; on a change count it and tell the application. */
static void netdev_carrier_set(struct ethdrv_netdev *dev, bool up)
{
	if (__atomic_exchange_n(&dev->carrier, up, __ATOMIC_ACQ_REL) == up)
		return;
	ethdrv_counter_inc(up ? &dev->carrier_up_count : &dev->carrier_down_count);
	ethdrv_info(dev, "carrier %s", up ? "on" : "off");
	if (dev->carrier_fn)
		dev->carrier_fn(dev->carrier_arg, up);
}

void ethdrv_netdev_carrier_on(struct ethdrv_netdev *dev)
{
	netdev_carrier_set(dev, true);
}

void ethdrv_netdev_carrier_off(struct ethdrv_netdev *dev)
{
	netdev_carrier_set(dev, false);
}

/*
 * The calibrated CPU cost (knob cpu_cost_ns, issue 24): @frames x the cost
 * busy-spun in the caller, the poll context, as a CPU that many ns per frame
 * slower would spend it (docs/design.md §4.9). With cpu_cost_cputime=1 (the
 * default) the cost is the thread's own CPU time, so a preempted spin resumes
 * where it stopped: each round spins what is still owed on CLOCK_MONOTONIC
 * (vDSO, user time) and then reads the thread's CPU clock (a system call),
 * two rounds when nothing preempts the thread. With 0, wall time only.
 */
static void netdev_spin_ns(uint64_t ns)
{
	uint64_t end = ethdrv_now_ns() + ns;

	while (ethdrv_now_ns() < end)
		ethdrv_cpu_relax();
}

static void netdev_cpu_cost(struct ethdrv_netdev *dev, unsigned frames)
{
	uint64_t cost = __atomic_load_n(&dev->cpu_cost_ns, __ATOMIC_RELAXED), end, now;

	if (ethdrv_likely(!cost || !frames))
		return;
	cost *= frames;
	if (!__atomic_load_n(&dev->cpu_cost_cputime, __ATOMIC_RELAXED)) {
		netdev_spin_ns(cost);
		return;
	}
	end = ethdrv_thread_cpu_ns() + cost;
	while ((now = ethdrv_thread_cpu_ns()) < end)
		netdev_spin_ns(end - now);
}

void ethdrv_netdev_receive(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	struct ethdrv_link_stats *st = &dev->stats;

	netdev_cpu_cost(dev, 1);
	ethdrv_counter_inc(&st->rx_packets);
	ethdrv_counter_add(&st->rx_bytes, pkt->len);
	/* Any group address, broadcast included (is_multicast_ether_addr). */
	if (pkt->len && (pkt->data[0] & 1))
		ethdrv_counter_inc(&st->multicast);
	if (ethdrv_likely(dev->rx_handler != NULL)) {
		dev->rx_handler(dev->rx_handler_arg, pkt);
		return;
	}
	ethdrv_counter_inc(&st->rx_nohandler);
	ethdrv_counter_inc(&st->rx_dropped);
	ethdrv_pkt_free(pkt);
}

/* ---- transmit ---- */

static int netdev_tx_drop(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt, int err)
{
	ethdrv_counter_inc(&dev->stats.tx_dropped);
	ethdrv_pkt_free(pkt);
	return err;
}

int ethdrv_netdev_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	int rc;

	if (ethdrv_unlikely(!dev->up))
		return netdev_tx_drop(dev, pkt, -ENETDOWN);
	if (ethdrv_unlikely(pkt->len < ETHDRV_ETH_HLEN))
		return netdev_tx_drop(dev, pkt, -EINVAL);
	if (ethdrv_unlikely(pkt->len > dev->mtu + ETHDRV_ETH_HLEN + ETHDRV_VLAN_HLEN))
		return netdev_tx_drop(dev, pkt, -EMSGSIZE);
	if (ethdrv_unlikely(!ethdrv_netdev_carrier_ok(dev))) {
		ethdrv_counter_inc(&dev->stats.tx_carrier_errors);
		ethdrv_counter_inc(&dev->stats.tx_errors);
		return netdev_tx_drop(dev, pkt, -ENOLINK);
	}
	if (__atomic_load_n(&dev->txq.state, __ATOMIC_ACQUIRE))
		return -EBUSY;
	if (ethdrv_unlikely(!dev->ops->start_xmit))
		return netdev_tx_drop(dev, pkt, -EOPNOTSUPP);
	rc = dev->ops->start_xmit(dev, pkt);
	if (ethdrv_likely(rc == ETHDRV_TX_OK))
		return 0;
	if (rc == ETHDRV_TX_BUSY) {
		/* Drivers stop the queue before they run out of room. */
		if (!ethdrv_netdev_tx_stopped(dev))
			ethdrv_warn_ratelimited(dev, "tx: busy while the queue is awake");
		return -EBUSY;
	}
	ethdrv_err_ratelimited(dev, "tx: start_xmit returned %d", rc);
	return 0;
}

bool ethdrv_netdev_tx_stopped(const struct ethdrv_netdev *dev)
{
	return __atomic_load_n(&dev->txq.state, __ATOMIC_ACQUIRE) != 0;
}

/* The queue runs again: count it and tell the application. */
static void netdev_txq_woken(struct ethdrv_netdev *dev)
{
	ethdrv_counter_inc(&dev->txq.wakes);
	if (dev->txq.wake)
		dev->txq.wake(dev->txq.wake_arg);
}

/*
 * Full barrier (smp_mb): a seq_cst read-modify-write of the queue state.
 * Not __atomic_thread_fence(), which ThreadSanitizer does not model.
 */
static void netdev_txq_mb(struct ethdrv_txq *q)
{
	__atomic_fetch_or(&q->state, 0u, __ATOMIC_SEQ_CST);
}

/* Set @bit; count a stop if the queue was running. */
static void netdev_txq_set(struct ethdrv_txq *q, unsigned bit)
{
	unsigned old = __atomic_fetch_or(&q->state, bit, __ATOMIC_SEQ_CST);

	if (!(old & NETDEV_XOFF_ANY))
		ethdrv_counter_inc(&q->stops);
}

/* Clear @bit; true if that made the queue run again. */
static bool netdev_txq_clear_bit(struct ethdrv_txq *q, unsigned bit)
{
	unsigned old = __atomic_fetch_and(&q->state, ~bit, __ATOMIC_SEQ_CST);

	return (old & bit) && !(old & NETDEV_XOFF_ANY & ~bit);
}

void ethdrv_netdev_tx_sent(struct ethdrv_netdev *dev, unsigned bytes)
{
	struct ethdrv_txq *q = &dev->txq;

	ethdrv_dql_queued(&q->dql, bytes);
	if (ethdrv_likely(ethdrv_dql_avail(&q->dql) >= 0))
		return;
	netdev_txq_set(q, ETHDRV_TXQ_STACK_XOFF);
	/* netdev_tx_sent_queue (docs/napi.md §4.2): a completion on another thread may have
	 * made room before it could see XOFF; re-check after a full barrier. */
	netdev_txq_mb(q);
	if (ethdrv_dql_avail(&q->dql) < 0)
		return;
	/* Restarted by the enqueuer itself: nobody waits, so no handler. */
	if (netdev_txq_clear_bit(q, ETHDRV_TXQ_STACK_XOFF))
		ethdrv_counter_inc(&q->wakes);
}

void ethdrv_netdev_tx_completed(struct ethdrv_netdev *dev, unsigned pkts, unsigned bytes)
{
	ethdrv_netdev_tx_completed_dropped(dev, pkts, bytes, 0, 0);
}

void ethdrv_netdev_tx_completed_dropped(struct ethdrv_netdev *dev, unsigned pkts, unsigned bytes,
					unsigned dropped, unsigned dropped_bytes)
{
	struct ethdrv_txq *q = &dev->txq;

	netdev_cpu_cost(dev, pkts + dropped); /* per descriptor confirmed */
	ethdrv_counter_add(&dev->stats.tx_packets, pkts);
	ethdrv_counter_add(&dev->stats.tx_bytes, bytes);
	if (dropped) {
		ethdrv_counter_add(&dev->stats.tx_aborted_errors, dropped);
		ethdrv_counter_add(&dev->stats.tx_errors, dropped);
	}
	bytes += dropped_bytes;
	if (!bytes)
		return;
	ethdrv_dql_completed(&q->dql, bytes);
	/* Pairs with the barrier in ethdrv_netdev_tx_sent(). */
	netdev_txq_mb(q);
	if (ethdrv_dql_avail(&q->dql) < 0)
		return;
	if (!(__atomic_load_n(&q->state, __ATOMIC_RELAXED) & ETHDRV_TXQ_STACK_XOFF))
		return;
	if (netdev_txq_clear_bit(q, ETHDRV_TXQ_STACK_XOFF))
		netdev_txq_woken(dev);
}

void ethdrv_netdev_tx_stop(struct ethdrv_netdev *dev)
{
	netdev_txq_set(&dev->txq, ETHDRV_TXQ_DRV_XOFF);
}

void ethdrv_netdev_tx_wake(struct ethdrv_netdev *dev)
{
	if (netdev_txq_clear_bit(&dev->txq, ETHDRV_TXQ_DRV_XOFF))
		netdev_txq_woken(dev);
}

void ethdrv_netdev_tx_reset(struct ethdrv_netdev *dev)
{
	ethdrv_dql_reset(&dev->txq.dql);
	if (netdev_txq_clear_bit(&dev->txq, ETHDRV_TXQ_STACK_XOFF))
		netdev_txq_woken(dev);
}

/* ---- knobs ---- */

enum netdev_knob_id {
	K_DEFER,
	K_FLUSH,
	K_THREADED,
	K_BUSY_POLL,
	K_BUSY_BUDGET,
	K_WEIGHT,
	K_NETDEV_BUDGET,
	K_NETDEV_BUDGET_USECS,
	K_BQL_MIN,
	K_BQL_MAX,
	K_BQL_HOLD,
	K_CPU_COST,
	K_CPU_COST_CPUTIME,
	K_BQL_LIMIT,
	K_BQL_INFLIGHT,
};

/* Core knobs, indexed by id (knob.h; the names of Linux sysfs/sysctl, docs/design.md §2). */
static const struct ethdrv_knob netdev_knobs[] = {
	[K_DEFER] = ETHDRV_KNOB_UINT("napi_defer_hard_irqs", 0, INT32_MAX, "polls",
				     "empty polls before the IRQ is re-enabled"),
	[K_FLUSH] = ETHDRV_KNOB_UINT("gro_flush_timeout", 0, UINT32_MAX, "ns",
				     "hold GRO and the IRQ this long after a poll"),
	[K_THREADED] = ETHDRV_KNOB_UINT("threaded", 0, 1, "", "NAPI pollers in their own threads"),
	[K_BUSY_POLL] = ETHDRV_KNOB_UINT("busy_poll", 0, 1000000, "us", "busy-poll this long"),
	[K_BUSY_BUDGET] =
		ETHDRV_KNOB_UINT("busy_poll_budget", 1, 65535, "packets", "packets per busy poll"),
	[K_WEIGHT] = ETHDRV_KNOB_UINT("budget", 1, ETHDRV_NAPI_WEIGHT, "packets",
				      "RX poller weight (NAPI budget)"),
	[K_NETDEV_BUDGET] = ETHDRV_KNOB_UINT("netdev_budget", 1, INT32_MAX, "packets",
					     "packets per softirq round"),
	[K_NETDEV_BUDGET_USECS] = ETHDRV_KNOB_UINT("netdev_budget_usecs", 1, INT32_MAX, "us",
						   "time per softirq round"),
	[K_BQL_MIN] = ETHDRV_KNOB_UINT("bql_limit_min", 0, ETHDRV_DQL_MAX_LIMIT, "bytes",
				       "BQL limit floor"),
	[K_BQL_MAX] = ETHDRV_KNOB_UINT("bql_limit_max", 0, ETHDRV_DQL_MAX_LIMIT, "bytes",
				       "BQL limit ceiling"),
	[K_BQL_HOLD] = ETHDRV_KNOB_UINT("bql_hold_time", 1, 3600000, "ms", "BQL slack hold time"),
	[K_CPU_COST] = ETHDRV_KNOB_UINT("cpu_cost_ns", 0, 1000000, "ns",
					"CPU cost spun per RX frame and TX completion"),
	[K_CPU_COST_CPUTIME] =
		ETHDRV_KNOB_UINT("cpu_cost_cputime", 0, 1, "",
				 "1: cpu_cost_ns is the thread's CPU time; 0: wall time"),
	/* Linux's byte_queue_limits/limit and inflight (docs/napi.md §4.2). */
	[K_BQL_LIMIT] = ETHDRV_KNOB_RO("bql_limit", "bytes",
				       "BQL's current limit, within bql_limit_min..bql_limit_max"),
	[K_BQL_INFLIGHT] = ETHDRV_KNOB_RO("bql_inflight", "bytes",
					  "bytes queued to the device and not yet completed"),
};

ETHDRV_EXPORT const struct ethdrv_knob_table ethdrv_netdev_knob_table =
	ETHDRV_KNOB_TABLE("core", netdev_knobs);

/* Store @v into the field of @cfg that @id names. */
static void netdev_cfg_apply(struct ethdrv_napi_config *cfg, enum netdev_knob_id id, uint64_t v)
{
	switch (id) {
	case K_DEFER:
		cfg->defer_hard_irqs = (unsigned)v;
		break;
	case K_FLUSH:
		cfg->gro_flush_timeout_ns = v;
		break;
	case K_THREADED:
		cfg->threaded = v != 0;
		break;
	case K_BUSY_POLL:
		cfg->busy_poll_us = (unsigned)v;
		break;
	default:
		cfg->busy_poll_budget = (unsigned)v;
		break;
	}
}

/* A poller knob: the device default and every live poller (stops at the first failure). */
static int netdev_set_napi_knob(struct ethdrv_netdev *dev, enum netdev_knob_id id, uint64_t v)
{
	struct ethdrv__napi_list *l;
	int ret;

	netdev_cfg_apply(&dev->napi_cfg, id, v);
	for (l = dev->napis; l; l = l->next) {
		struct ethdrv_napi *n = ethdrv__napi_from_link(l);
		struct ethdrv_napi_config cfg;

		if (n->deleted)
			continue;
		ethdrv_napi_get_config(n, &cfg);
		netdev_cfg_apply(&cfg, id, v);
		ret = ethdrv_napi_configure(n, &cfg);
		if (ret)
			return ret;
	}
	return 0;
}

/* netdev_budget(_usecs): the device's loop and every loop its pollers were moved to. */
static int netdev_set_budget(struct ethdrv_netdev *dev, unsigned packets, unsigned usecs)
{
	struct ethdrv__napi_list *l;
	int ret = ethdrv_loop_set_budget(dev->loop, packets, usecs);

	for (l = dev->napis; l && !ret; l = l->next)
		ret = ethdrv_loop_set_budget(ethdrv__napi_from_link(l)->loop, packets, usecs);
	return ret;
}

static int netdev_set_core(struct ethdrv_netdev *dev, enum netdev_knob_id id, uint64_t v)
{
	struct ethdrv_dql *dql = &dev->txq.dql;
	struct ethdrv__napi_list *l;
	unsigned packets, usecs;

	ethdrv_loop_get_budget(dev->loop, &packets, &usecs);
	switch (id) {
	case K_WEIGHT:
		dev->napi_weight = (int)v;
		for (l = dev->napis; l; l = l->next)
			ethdrv__napi_set_weight(ethdrv__napi_from_link(l), (int)v);
		return 0;
	case K_NETDEV_BUDGET:
		return netdev_set_budget(dev, (unsigned)v, usecs);
	case K_NETDEV_BUDGET_USECS:
		return netdev_set_budget(dev, packets, (unsigned)v);
	case K_CPU_COST:
		__atomic_store_n(&dev->cpu_cost_ns, v, __ATOMIC_RELAXED);
		return 0;
	case K_CPU_COST_CPUTIME:
		__atomic_store_n(&dev->cpu_cost_cputime, v != 0, __ATOMIC_RELAXED);
		return 0;
	case K_BQL_MIN:
		if (v > dql->max_limit)
			return -EINVAL;
		dql->min_limit = (unsigned)v;
		return 0;
	case K_BQL_MAX:
		if (v < dql->min_limit)
			return -EINVAL;
		dql->max_limit = (unsigned)v;
		return 0;
	case K_BQL_HOLD:
		dql->slack_hold_ns = v * NSEC_PER_MSEC;
		return 0;
	default:
		return netdev_set_napi_knob(dev, id, v);
	}
}

int ethdrv_netdev_set(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	const struct ethdrv_knob *k;
	uint64_t v;
	int ret;

	if (!dev || !key)
		return -EINVAL;
	k = ethdrv_knob_find(&ethdrv_netdev_knob_table, key);
	if (!k)
		return dev->ops->set_param ? dev->ops->set_param(dev, key, value) : -ENOENT;
	if (k->type == ETHDRV_KNOB_T_RO)
		return -EPERM; /* the control socket answers with the knob's help */
	ret = ethdrv_knob_uint(k, value, &v);
	if (ret)
		return ret;
	return netdev_set_core(dev, (enum netdev_knob_id)(k - netdev_knobs), v);
}

/* The weight RX pollers use now ("budget"). */
static int netdev_weight(const struct ethdrv_netdev *dev)
{
	struct ethdrv__napi_list *l;

	if (dev->napi_weight)
		return dev->napi_weight;
	for (l = dev->napis; l; l = l->next) {
		struct ethdrv_napi *n = ethdrv__napi_from_link(l);

		if (!n->tx && !n->deleted)
			return __atomic_load_n(&n->weight, __ATOMIC_RELAXED);
	}
	return ETHDRV_NAPI_WEIGHT;
}

static uint64_t netdev_get_core(const struct ethdrv_netdev *dev, enum netdev_knob_id id)
{
	const struct ethdrv_napi_config *c = &dev->napi_cfg;
	unsigned packets, usecs;

	ethdrv_loop_get_budget(dev->loop, &packets, &usecs);
	switch (id) {
	case K_DEFER:
		return c->defer_hard_irqs;
	case K_FLUSH:
		return c->gro_flush_timeout_ns;
	case K_THREADED:
		return c->threaded;
	case K_BUSY_POLL:
		return c->busy_poll_us;
	case K_BUSY_BUDGET:
		return c->busy_poll_budget;
	case K_WEIGHT:
		return (uint64_t)netdev_weight(dev);
	case K_NETDEV_BUDGET:
		return packets;
	case K_NETDEV_BUDGET_USECS:
		return usecs;
	case K_BQL_MIN:
		return dev->txq.dql.min_limit;
	case K_BQL_MAX:
		return dev->txq.dql.max_limit;
	case K_CPU_COST:
		return __atomic_load_n(&dev->cpu_cost_ns, __ATOMIC_RELAXED);
	case K_CPU_COST_CPUTIME:
		return __atomic_load_n(&dev->cpu_cost_cputime, __ATOMIC_RELAXED);
	case K_BQL_LIMIT:
		return __atomic_load_n(&dev->txq.dql.limit, __ATOMIC_RELAXED);
	case K_BQL_INFLIGHT: /* both totals wrap; their difference does not */
		return __atomic_load_n(&dev->txq.dql.num_queued, __ATOMIC_RELAXED) -
		       __atomic_load_n(&dev->txq.dql.num_completed, __ATOMIC_RELAXED);
	default:
		return dev->txq.dql.slack_hold_ns / NSEC_PER_MSEC;
	}
}

int ethdrv_netdev_get(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	const struct ethdrv_knob *k;
	int len;

	if (!dev || !key || (!buf && size))
		return -EINVAL;
	k = ethdrv_knob_find(&ethdrv_netdev_knob_table, key);
	if (!k)
		return dev->ops->get_param ? dev->ops->get_param(dev, key, buf, size) : -ENOENT;
	len = snprintf(buf, size, "%" PRIu64,
		       netdev_get_core(dev, (enum netdev_knob_id)(k - netdev_knobs)));
	return (size_t)len >= size ? -ENOSPC : 0;
}

/* ---- control ---- */

struct ethdrv_stats_set *ethdrv_netdev_stats(struct ethdrv_netdev *dev)
{
	int ret;

	if (dev->ops->get_stats) {
		ret = dev->ops->get_stats(dev);
		if (ret)
			ethdrv_warn_ratelimited(dev, "get_stats failed: %d", ret);
	}
	return dev->stats_set;
}

struct ethdrv_link_stats *ethdrv_netdev_link_stats(struct ethdrv_netdev *dev)
{
	return &dev->stats;
}

int ethdrv_netdev_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	if (!dev || !st)
		return -EINVAL;
	if (!dev->ops->get_link)
		return -EOPNOTSUPP;
	return dev->ops->get_link(dev, st);
}

static bool netdev_mac_is_zero(const uint8_t *mac)
{
	static const uint8_t zero[ETHDRV_ETH_ALEN];

	return !memcmp(mac, zero, ETHDRV_ETH_ALEN);
}

int ethdrv_netdev_set_mac(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN])
{
	int ret;

	if (!dev || !mac || (mac[0] & 1) || netdev_mac_is_zero(mac))
		return -EINVAL;
	if (!dev->ops->set_mac)
		return -EOPNOTSUPP;
	ret = dev->ops->set_mac(dev, mac);
	if (!ret)
		memcpy(dev->mac, mac, ETHDRV_ETH_ALEN);
	return ret;
}

void ethdrv_netdev_get_mac(const struct ethdrv_netdev *dev, uint8_t mac[ETHDRV_ETH_ALEN])
{
	memcpy(mac, dev->mac, ETHDRV_ETH_ALEN);
}

#define NETDEV_RXF_ALL (ETHDRV_RXF_PROMISC | ETHDRV_RXF_ALLMULTI | ETHDRV_RXF_BROADCAST)

static int netdev_check_rx_filter(unsigned flags, const uint8_t (*mc)[ETHDRV_ETH_ALEN], unsigned n)
{
	unsigned i;

	if ((flags & ~NETDEV_RXF_ALL) || n > ETHDRV_MC_MAX || (n && !mc))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!(mc[i][0] & 1))
			return -EINVAL; /* only group addresses belong in the list */
	return 0;
}

int ethdrv_netdev_set_rx_filter(struct ethdrv_netdev *dev, unsigned flags,
				const uint8_t (*mc)[ETHDRV_ETH_ALEN], unsigned n)
{
	uint8_t old_list[ETHDRV_MC_MAX][ETHDRV_ETH_ALEN];
	unsigned old_flags, old_count;
	int ret;

	if (!dev || netdev_check_rx_filter(flags, mc, n))
		return -EINVAL;
	if (!dev->ops->set_rx_mode)
		return -EOPNOTSUPP;
	old_flags = dev->rx_flags;
	old_count = dev->mc_count;
	memcpy(old_list, dev->mc_list, sizeof(old_list));
	dev->rx_flags = flags;
	dev->mc_count = n;
	if (n)
		memcpy(dev->mc_list, mc, n * ETHDRV_ETH_ALEN);
	ret = dev->ops->set_rx_mode(dev);
	if (ret) {
		/* Keep the struct in step with what the hardware still does. */
		dev->rx_flags = old_flags;
		dev->mc_count = old_count;
		memcpy(dev->mc_list, old_list, sizeof(old_list));
	}
	return ret;
}
