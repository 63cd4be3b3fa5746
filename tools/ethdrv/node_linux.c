// SPDX-License-Identifier: MIT
/*
 * driver=linux: a LAN8650 node run by Linux's own oa_tc6 + lan865x (+ the
 * microchip_t1s PHY driver) instead of ethdrv's (docs/linux-driver.md).
 * The Linux files are GPL-2.0 and never part of this program: they are
 * built, with the kshim kernel-API shim, into the plugin
 * liblinux-lan865x.so (linux-shim/), which this file dlopen()s at run time
 * and reaches through its one table, struct kshim_host_ops. The device is
 * an ethdrv_netdev like any other, so the node (TAP, counters, control
 * socket) needs no branch for it:
 * - start_xmit copies the frame into an skb (dev_queue_xmit); when the
 *   driver's queue is stopped the frame stays with the node and
 *   netif_wake_queue() wakes the queue again;
 * - netif_rx() copies the frame into a packet of the node's pool and hands
 *   it up (from the driver's IRQ thread, the device's poll context here);
 * - the PLCA knobs (plca, node-id, node-cnt, to-tmr, burst-cnt, burst-tmr)
 *   go to the PHY driver's PLCA
 *   configuration (ethtool --set-plca-cfg), so a Linux node on a segment
 *   gets its node id and count;
 * - irq_delay_us makes the host late to service IRQ_N (kshim's IRQ thread
 *   sleeps first), as the knob of that name does for ethdrv's driver;
 * - `ethdrv stats` shows the driver's net_device counters (group "linux").
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/err.h"
#include "ethdrv/knob.h"
#include "ethdrv/log.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"
#include "drivers/lan865x.h"
#include "kshim_host.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

#ifndef ETHDRV_LINUX_PLUGIN
#define ETHDRV_LINUX_PLUGIN ""
#endif
#ifndef ETHDRV_LINUX_SKIP
#define ETHDRV_LINUX_SKIP "not configured"
#endif

/* The driver's net_device counters, as counters of a stats group. */
struct linux_stats {
	ethdrv_counter_t rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped, tx_dropped;
	ethdrv_counter_t xmit_busy; /* ndo_start_xmit said NETDEV_TX_BUSY */
	ethdrv_counter_t rx_no_buffer; /* frames netif_rx() gave with the node's pool empty */
	ethdrv_counter_t messages; /* lines the kernel code printed */
};

#define D(f) ETHDRV_STAT_DESC(struct linux_stats, f)
static const struct ethdrv_stat_desc linux_stats_desc[] = {
	D(rx_packets), D(tx_packets), D(rx_bytes),     D(tx_bytes), D(rx_dropped),
	D(tx_dropped), D(xmit_busy),  D(rx_no_buffer), D(messages),
};
#undef D

struct linux_dev {
	struct ethdrv_netdev dev; /* first (docs/style.md S3) */
	const struct kshim_host_ops *ops;
	struct kshim_lan865x *k;
	struct ethdrv_pkt_pool *pool; /* RX packets */
	unsigned irq_delay_us; /* knob irq_delay_us */
	struct linux_stats st;
	ethdrv_counter_t rx_no_buffer;
};

static struct linux_dev *to_ld(struct ethdrv_netdev *dev)
{
	return ethdrv_container_of(dev, struct linux_dev, dev);
}

/* The plugin, loaded once: ETHDRV_LINUX_PLUGIN=FILE or the build's own. */
static const struct kshim_host_ops *linux_plugin(void)
{
	static const struct kshim_host_ops *ops;
	const char *path = getenv("ETHDRV_LINUX_PLUGIN");
	void *so;

	if (ops)
		return ops;
	if (!path || !*path)
		path = ETHDRV_LINUX_PLUGIN;
	if (!*path) {
		ethdrv_err(NULL, "driver=linux: the Linux driver was not built (%s)",
			   ETHDRV_LINUX_SKIP);
		return NULL;
	}
	so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		ethdrv_err(NULL, "driver=linux: %s (set ETHDRV_LINUX_PLUGIN=FILE)", dlerror());
		return NULL;
	}
	ops = dlsym(so, KSHIM_HOST_OPS_SYMBOL);
	if (!ops || ops->version != KSHIM_HOST_OPS_VERSION) {
		ethdrv_err(NULL, "driver=linux: %s: no %s of version %u", path,
			   KSHIM_HOST_OPS_SYMBOL, KSHIM_HOST_OPS_VERSION);
		ops = NULL;
		dlclose(so);
	}
	return ops;
}

/* netif_rx(): the driver's IRQ thread. */
static void linux_rx(void *ctx, const uint8_t *frame, size_t len)
{
	struct linux_dev *ld = ctx;
	struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(ld->pool);

	if (!pkt || len > ETHDRV_PKT_DATA_MAX) {
		ethdrv_counter_inc(&ld->rx_no_buffer);
		ethdrv_pkt_free(pkt);
		return;
	}
	memcpy(pkt->data, frame, len);
	pkt->len = (uint32_t)len;
	ethdrv_netdev_receive(&ld->dev, pkt);
	/* No NAPI poll ends here (the driver's thread calls netif_rx() per
	 * frame), so each frame ends its receive batch: the node's TAP writer
	 * batches per poll and would otherwise hold it. */
	if (ld->dev.rx_flush)
		ld->dev.rx_flush(ld->dev.rx_flush_arg);
}

/* netif_wake_queue(): any thread. */
static void linux_tx_wake(void *ctx)
{
	ethdrv_netdev_tx_wake(&((struct linux_dev *)ctx)->dev);
}

static int linux_open(struct ethdrv_netdev *dev)
{
	struct linux_dev *ld = to_ld(dev);
	int err = ld->ops->open(ld->k);

	if (!err)
		ethdrv_netdev_carrier_on(dev); /* the PHY driver reports the link always up */
	return err;
}

static int linux_stop(struct ethdrv_netdev *dev)
{
	struct linux_dev *ld = to_ld(dev);

	ethdrv_netdev_carrier_off(dev);
	return ld->ops->stop(ld->k);
}

static int linux_start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	struct linux_dev *ld = to_ld(dev);
	unsigned len = pkt->len;
	int err = ld->ops->xmit(ld->k, pkt->data, len, 0);

	if (err == -EAGAIN) {
		ethdrv_netdev_tx_stop(dev);
		if (!ld->ops->queue_stopped(ld->k))
			ethdrv_netdev_tx_wake(dev); /* it woke in between */
		return ETHDRV_TX_BUSY;
	}
	/* The skb is the driver's now (sent, or dropped and counted by it). */
	ethdrv_netdev_tx_sent(dev, len);
	if (err)
		ethdrv_netdev_tx_completed_dropped(dev, 0, 0, 1, len);
	else
		ethdrv_netdev_tx_completed(dev, 1, len);
	ethdrv_pkt_free(pkt);
	return ETHDRV_TX_OK;
}

static int linux_set_rx_mode(struct ethdrv_netdev *dev)
{
	struct linux_dev *ld = to_ld(dev);

	ld->ops->set_rx_mode(ld->k, dev->rx_flags & ETHDRV_RXF_PROMISC,
			     dev->rx_flags & ETHDRV_RXF_ALLMULTI);
	return 0;
}

/* ethtool's link settings: the driver's get_link_ksettings (phylib's view). */
static int linux_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	struct linux_dev *ld = to_ld(dev);

	return ld->ops->get_link(ld->k, &st->up, &st->speed_mbps, &st->full_duplex);
}

static int linux_get_stats(struct ethdrv_netdev *dev)
{
	struct linux_dev *ld = to_ld(dev);
	struct kshim_netdev_stats s;

	ld->ops->stats(ld->k, &s);
	ethdrv_counter_set(&ld->st.rx_packets, s.rx_packets);
	ethdrv_counter_set(&ld->st.tx_packets, s.tx_packets);
	ethdrv_counter_set(&ld->st.rx_bytes, s.rx_bytes);
	ethdrv_counter_set(&ld->st.tx_bytes, s.tx_bytes);
	ethdrv_counter_set(&ld->st.rx_dropped, s.rx_dropped);
	ethdrv_counter_set(&ld->st.tx_dropped, s.tx_dropped);
	ethdrv_counter_set(&ld->st.xmit_busy, s.xmit_busy);
	ethdrv_counter_set(&ld->st.messages, s.messages);
	ethdrv_counter_set(&ld->st.rx_no_buffer, ethdrv_counter_get(&ld->rx_no_buffer));
	return 0;
}

/* The PLCA knobs are ethdrv's lan865x's (lan865x_knob_table: names and
 * ranges); each sets one field of ethtool's PLCA configuration. */
static const struct {
	const char *key;
	size_t off; /* in struct kshim_plca */
} linux_plca_field[] = {
	{ "plca", offsetof(struct kshim_plca, enabled) },
	{ "node-id", offsetof(struct kshim_plca, node_id) },
	{ "node-cnt", offsetof(struct kshim_plca, node_cnt) },
	{ "to-tmr", offsetof(struct kshim_plca, to_tmr) },
	{ "burst-cnt", offsetof(struct kshim_plca, burst_cnt) },
	{ "burst-tmr", offsetof(struct kshim_plca, burst_tmr) },
};

static const struct ethdrv_knob linux_host_knobs[] = {
	ETHDRV_KNOB_UINT("irq_delay_us", 0, 1000000, "us",
			 "a host late to service IRQ_N: the IRQ thread sleeps this long first"),
};
static const struct ethdrv_knob_table linux_host_table =
	ETHDRV_KNOB_TABLE("linux host (driver=linux)", linux_host_knobs);
static const struct ethdrv_knob_table *const linux_knob_tables[] = { &lan865x_knob_table,
								     &linux_host_table, NULL };

/* The index of @key in linux_plca_field, or -ENOENT. */
static int linux_plca_key(const char *key)
{
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(linux_plca_field); i++)
		if (!strcmp(key, linux_plca_field[i].key))
			return (int)i;
	return -ENOENT;
}

static int linux_set_param(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	struct linux_dev *ld = to_ld(dev);
	struct kshim_plca p = { -1, -1, -1, -1, -1, -1 };
	int i = linux_plca_key(key), err;
	uint64_t v;
	bool on;

	if (!strcmp(key, "irq_delay_us")) {
		err = ethdrv_knob_uint(&linux_host_knobs[0], value, &v);
		if (!err) {
			ld->ops->set_irq_delay(ld->k, (unsigned)v);
			ld->irq_delay_us = (unsigned)v;
		}
		return err;
	}
	if (i < 0)
		return i;
	if (i == 0) {
		err = ethdrv_knob_bool(value, &on);
		v = on;
	} else {
		err = ethdrv_knob_uint(ethdrv_knob_find(&lan865x_knob_table, key), value, &v);
	}
	if (err)
		return err;
	*(int *)((char *)&p + linux_plca_field[i].off) = (int)v;
	return ld->ops->set_plca(ld->k, &p);
}

static int linux_get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	struct linux_dev *ld = to_ld(dev);
	int i = linux_plca_key(key), err, v;
	struct kshim_plca p;

	if (!strcmp(key, "irq_delay_us")) {
		snprintf(buf, size, "%u", ld->irq_delay_us);
		return 0;
	}
	if (i < 0)
		return i;
	err = ld->ops->get_plca(ld->k, &p);
	if (err)
		return err;
	v = *(const int *)((const char *)&p + linux_plca_field[i].off);
	if (i == 0)
		snprintf(buf, size, "%s", v ? "on" : "off");
	else
		snprintf(buf, size, "%d", v);
	return 0;
}

static void linux_destroy(struct ethdrv_netdev *dev)
{
	struct linux_dev *ld = to_ld(dev);

	ld->ops->remove(ld->k);
	free(ld);
}

static const struct ethdrv_netdev_ops linux_netdev_ops = {
	.open = linux_open,
	.stop = linux_stop,
	.start_xmit = linux_start_xmit,
	.set_rx_mode = linux_set_rx_mode,
	.get_link = linux_get_link,
	.get_stats = linux_get_stats,
	.set_param = linux_set_param,
	.get_param = linux_get_param,
	.destroy = linux_destroy,
};

static int linux_create(const struct ethdrv_driver_args *a, struct ethdrv_netdev **out)
{
	const struct kshim_host_ops *ops = linux_plugin();
	struct kshim_host_cfg hc = { 0 };
	struct linux_dev *ld;
	int err;

	if (!ops)
		return -ENOENT;
	ld = calloc(1, sizeof(*ld));
	if (!ld)
		return -ENOMEM;
	ld->ops = ops;
	ld->pool = a->pool;
	err = ethdrv_netdev_init(&ld->dev, a->name, &linux_netdev_ops, a->loop, a->pool);
	if (err) {
		free(ld);
		return err;
	}
	hc.bus = a->spi;
	hc.name = a->name;
	hc.mac = a->mac;
	hc.rx = linux_rx;
	hc.tx_wake = linux_tx_wake;
	hc.ctx = ld;
	err = ops->probe(&hc, &ld->k);
	if (!err && ethdrv_stats_add_group(ethdrv_netdev_stats(&ld->dev), "linux", linux_stats_desc,
					   ETHDRV_ARRAY_SIZE(linux_stats_desc), &ld->st))
		ethdrv_warn(&ld->dev, "the Linux driver's counters are not in the stats");
	if (err) {
		ethdrv_err(NULL, "%s: Linux lan865x probe: %s", a->name, ethdrv_strerror(err));
		ethdrv_netdev_cleanup(&ld->dev);
		free(ld);
		return err;
	}
	*out = &ld->dev;
	return 0;
}

static int linux_info(struct ethdrv_netdev *dev, char *buf, size_t size)
{
	struct linux_dev *ld = to_ld(dev);
	uint32_t id;
	const char *phy = ld->ops->phy_driver(ld->k, &id);

	return snprintf(buf, size,
			"driver_impl=linux oa_tc6+lan865x (GPL-2.0 plugin)\nlinux_source=%s\n"
			"phy_driver=%s\nphy_id=0x%08x\n",
			ld->ops->origin, *phy ? phy : "genphy", id);
}

const struct ethdrv_driver node_linux_driver = {
	.name = "linux-lan865x",
	.desc = "Linux's oa_tc6 + lan865x + microchip_t1s in user space (GPL-2.0 plugin)",
	.bus = ETHDRV_BUS_SPI,
	.create = linux_create,
	.info = linux_info,
	.knobs = linux_knob_tables,
};
