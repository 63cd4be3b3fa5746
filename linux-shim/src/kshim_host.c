// SPDX-License-Identifier: MIT
/*
 * kshim: the SPI device the driver is probed on (spi_sync() goes to the
 * node's ethdrv SPI bus: the LAN8650 model or spidev) and the host API of
 * kshim_host.h: probe and remove through the program's spi_driver, open and
 * stop, dev_queue_xmit() with the queue's flow control, counters, PLCA.
 */
#include <time.h>

#include "kshim_host.h"
#include "kshim_net.h"

struct kshim_lan865x {
	struct spi_device spi;
	struct net_device *netdev; /* what the probe registered */
	pthread_mutex_t xmit_lock; /* the TX lock dev_queue_xmit() holds */
	unsigned long xmit_busy;
};

/* ---- SPI ---- */

void spi_message_init(struct spi_message *m)
{
	memset(m, 0, sizeof(*m));
}

void spi_message_add_tail(struct spi_transfer *t, struct spi_message *m)
{
	t->kshim_next = NULL;
	if (m->last)
		m->last->kshim_next = t;
	else
		m->first = t;
	m->last = t;
}

int spi_setup(struct spi_device *spi)
{
	return spi->bus ? 0 : -ENODEV;
}

/* Each transfer is one chip-select assertion (cs_change is not used). */
int spi_sync(struct spi_device *spi, struct spi_message *m)
{
	for (struct spi_transfer *t = m->first; t; t = t->kshim_next) {
		void *scratch = NULL;
		const void *tx = t->tx_buf;
		void *rx = t->rx_buf;
		int ret;

		if (!tx || !rx) {
			scratch = calloc(1, t->len ? t->len : 1);
			if (!scratch)
				return -ENOMEM;
			tx = tx ? tx : scratch;
			rx = rx ? rx : scratch;
		}
		ret = kshim_bus_transfer(spi->bus, tx, rx, t->len);
		free(scratch);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- probe and remove ---- */

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct kshim_host_cfg *probing; /* under probe_lock */
static struct net_device *probed;

/* register_netdev(): the host names the device and takes its frames. */
void kshim_host_registered(struct net_device *dev)
{
	if (!probing)
		return;
	if (probing->name)
		snprintf(dev->name, sizeof(dev->name), "%s", probing->name);
	dev->host->rx = probing->rx;
	dev->host->tx_wake = probing->tx_wake;
	dev->host->ctx = probing->ctx;
	probed = dev;
}

int kshim_lan865x_probe(const struct kshim_host_cfg *cfg, struct kshim_lan865x **out)
{
	struct kshim_lan865x *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	snprintf(k->spi.dev.name, sizeof(k->spi.dev.name), "spi-%s",
		 cfg->name ? cfg->name : "lan865x");
	k->spi.bus = cfg->bus;
	k->spi.dev.mac = cfg->mac;
	k->spi.irq = kshim_irq_line_new(cfg->bus);
	pthread_mutex_init(&k->xmit_lock, NULL);
	pthread_mutex_lock(&probe_lock);
	probing = cfg;
	probed = NULL;
	ret = k->spi.irq ? kshim_spi_driver->probe(&k->spi) : -ENOSPC;
	k->netdev = probed;
	probing = NULL;
	pthread_mutex_unlock(&probe_lock);
	if (!ret && !k->netdev)
		ret = -ENODEV; /* probed without registering a net_device */
	if (ret) {
		kshim_irq_line_free(k->spi.irq);
		kshim_devres_release(&k->spi.dev);
		pthread_mutex_destroy(&k->xmit_lock);
		free(k);
		return ret;
	}
	*out = k;
	return 0;
}

void kshim_lan865x_remove(struct kshim_lan865x *k)
{
	if (!k)
		return;
	kshim_spi_driver->remove(&k->spi);
	kshim_irq_line_free(k->spi.irq); /* devm: released after remove */
	kshim_devres_release(&k->spi.dev);
	pthread_mutex_destroy(&k->xmit_lock);
	free(k);
}

/* ---- the netdev ---- */

int kshim_lan865x_open(struct kshim_lan865x *k)
{
	int ret = k->netdev->netdev_ops->ndo_open(k->netdev);

	if (!ret)
		k->netdev->host->up = true;
	return ret;
}

int kshim_lan865x_stop(struct kshim_lan865x *k)
{
	int ret = 0;

	if (k->netdev->host->up)
		ret = k->netdev->netdev_ops->ndo_stop(k->netdev);
	k->netdev->host->up = false;
	return ret;
}

static int wait_queue(struct kshim_netdev_host *h, int timeout_ms)
{
	struct timespec ts;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&h->lock);
	while (h->queue_stopped && !h->tx_disabled && !ret && timeout_ms)
		ret = pthread_cond_timedwait(&h->cond, &h->lock, &ts);
	if (h->tx_disabled)
		ret = -ENETDOWN;
	else if (ret || h->queue_stopped)
		ret = timeout_ms ? -ETIMEDOUT : -EAGAIN;
	pthread_mutex_unlock(&h->lock);
	return ret;
}

int kshim_lan865x_xmit(struct kshim_lan865x *k, const uint8_t *frame, size_t len, int timeout_ms)
{
	struct net_device *dev = k->netdev;
	struct sk_buff *skb;
	int ret = 0;

	pthread_mutex_lock(&k->xmit_lock);
	for (;;) {
		ret = wait_queue(dev->host, timeout_ms);
		if (ret)
			break;
		skb = kshim_alloc_skb((unsigned int)len);
		if (!skb) {
			ret = -ENOMEM;
			break;
		}
		memcpy(skb_put(skb, (unsigned int)len), frame, len);
		skb->dev = dev;
		if (dev->netdev_ops->ndo_start_xmit(skb, dev) == NETDEV_TX_OK)
			break; /* the driver owns the skb (sent or dropped and counted) */
		kfree_skb(skb); /* NETDEV_TX_BUSY: the qdisc would requeue it */
		k->xmit_busy++;
	}
	pthread_mutex_unlock(&k->xmit_lock);
	return ret;
}

void kshim_lan865x_set_rx_mode(struct kshim_lan865x *k, bool promisc, bool allmulti)
{
	struct net_device *dev = k->netdev;

	dev->flags = (dev->flags & ~(IFF_PROMISC | IFF_ALLMULTI)) | (promisc ? IFF_PROMISC : 0) |
		     (allmulti ? IFF_ALLMULTI : 0);
	if (dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
}

bool kshim_lan865x_queue_stopped(struct kshim_lan865x *k)
{
	return netif_queue_stopped(k->netdev);
}

void kshim_lan865x_stats(struct kshim_lan865x *k, struct kshim_netdev_stats *st)
{
	const struct net_device_stats *s = &k->netdev->stats;

	st->rx_packets = s->rx_packets;
	st->tx_packets = s->tx_packets;
	st->rx_bytes = s->rx_bytes;
	st->tx_bytes = s->tx_bytes;
	st->rx_dropped = s->rx_dropped;
	st->tx_dropped = s->tx_dropped;
	st->xmit_busy = k->xmit_busy;
	st->messages = kshim_messages;
}

const char *kshim_lan865x_name(struct kshim_lan865x *k)
{
	return k->netdev->name;
}

void kshim_lan865x_mac(struct kshim_lan865x *k, uint8_t mac[6])
{
	memcpy(mac, k->netdev->dev_addr, ETH_ALEN);
}

int kshim_lan865x_get_link(struct kshim_lan865x *k, bool *up, unsigned *speed, bool *full)
{
	struct net_device *dev = k->netdev;
	struct ethtool_link_ksettings ks;
	int ret;

	if (!dev->ethtool_ops || !dev->ethtool_ops->get_link_ksettings)
		return -EOPNOTSUPP;
	ret = dev->ethtool_ops->get_link_ksettings(dev, &ks);
	if (ret)
		return ret;
	*up = dev->phydev && dev->phydev->link;
	*speed = ks.base.speed;
	*full = ks.base.duplex == DUPLEX_FULL;
	return 0;
}

void kshim_lan865x_set_irq_delay(struct kshim_lan865x *k, unsigned us)
{
	kshim_irq_set_delay(k->spi.irq, us);
}

const char *kshim_lan865x_phy_driver(struct kshim_lan865x *k, uint32_t *phy_id)
{
	struct phy_device *phy = k->netdev->phydev;

	*phy_id = phy ? phy->phy_id : 0;
	return phy && phy->drv ? phy->drv->name : "";
}

int kshim_lan865x_set_plca(struct kshim_lan865x *k, const struct kshim_plca *p)
{
	struct phy_plca_cfg c = { .version = -1,
				  .enabled = p->enabled,
				  .node_id = p->node_id,
				  .node_cnt = p->node_cnt,
				  .to_tmr = p->to_tmr,
				  .burst_cnt = p->burst_cnt,
				  .burst_tmr = p->burst_tmr };

	return kshim_phy_set_plca(k->netdev->phydev, &c);
}

int kshim_lan865x_get_plca(struct kshim_lan865x *k, struct kshim_plca *p)
{
	struct phy_plca_cfg c;
	int ret = kshim_phy_get_plca(k->netdev->phydev, &c);

	if (ret)
		return ret;
	p->enabled = c.enabled;
	p->node_id = c.node_id;
	p->node_cnt = c.node_cnt;
	p->to_tmr = c.to_tmr;
	p->burst_cnt = c.burst_cnt;
	p->burst_tmr = c.burst_tmr;
	return 0;
}

/* ---- the plugin's table ---- */

#ifndef KSHIM_LINUX_ORIGIN
#define KSHIM_LINUX_ORIGIN "unknown"
#endif
const char kshim_linux_origin[] = KSHIM_LINUX_ORIGIN;

__attribute__((visibility("default"))) const struct kshim_host_ops kshim_host_ops = {
	.version = KSHIM_HOST_OPS_VERSION,
	.origin = kshim_linux_origin,
	.probe = kshim_lan865x_probe,
	.open = kshim_lan865x_open,
	.stop = kshim_lan865x_stop,
	.xmit = kshim_lan865x_xmit,
	.queue_stopped = kshim_lan865x_queue_stopped,
	.set_rx_mode = kshim_lan865x_set_rx_mode,
	.stats = kshim_lan865x_stats,
	.set_plca = kshim_lan865x_set_plca,
	.get_plca = kshim_lan865x_get_plca,
	.phy_driver = kshim_lan865x_phy_driver,
	.get_link = kshim_lan865x_get_link,
	.set_irq_delay = kshim_lan865x_set_irq_delay,
	.remove = kshim_lan865x_remove,
	.set_log = kshim_set_log,
};
