// SPDX-License-Identifier: MIT
/*
 * kshim: sk_buff, net_device and the Ethernet helpers
 * (Documentation/networking/skbuff.rst, netdevices.rst). An skb is one
 * linear buffer; netif_rx() hands the frame to the host's rx callback and
 * frees the skb; the TX queue state (netif_*_queue) is a flag with a
 * condition variable the host's dev_queue_xmit() waits on.
 */
#include <sys/random.h>

#include "kshim_net.h"

/* ---- sk_buff ---- */

struct sk_buff *kshim_alloc_skb(unsigned int len)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb));

	if (!skb)
		return NULL;
	skb->head = malloc(len ? len : 1);
	if (!skb->head) {
		free(skb);
		return NULL;
	}
	skb->data = skb->head;
	skb->size = len;
	return skb;
}

struct sk_buff *netdev_alloc_skb_ip_align(struct net_device *dev, unsigned int len)
{
	struct sk_buff *skb = kshim_alloc_skb(len + NET_IP_ALIGN);

	if (skb) {
		skb->data += NET_IP_ALIGN; /* reserve, so the IP header is aligned */
		skb->dev = dev;
	}
	return skb;
}

void kfree_skb(struct sk_buff *skb)
{
	if (!skb)
		return;
	free(skb->head);
	free(skb);
}

void dev_kfree_skb_any(struct sk_buff *skb)
{
	kfree_skb(skb);
}

int skb_tailroom(const struct sk_buff *skb)
{
	return (int)(skb->size - (unsigned int)(skb->data - skb->head) - skb->len);
}

void *skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tail = skb->data + skb->len;

	if ((int)len > skb_tailroom(skb)) {
		kshim_log("skb", "skb_put over the end: %u > %d (BUG in the caller)", len,
			  skb_tailroom(skb));
		abort();
	}
	skb->len += len;
	return tail;
}

void skb_trim(struct sk_buff *skb, unsigned int len)
{
	if (skb->len > len)
		skb->len = len;
}

/* ---- net_device ---- */

struct net_device *alloc_etherdev(int sizeof_priv)
{
	struct net_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->priv = calloc(1, sizeof_priv > 0 ? (size_t)sizeof_priv : 1);
	dev->host = calloc(1, sizeof(*dev->host));
	if (!dev->priv || !dev->host) {
		free(dev->priv);
		free(dev->host);
		free(dev);
		return NULL;
	}
	snprintf(dev->name, sizeof(dev->name), "eth%%d");
	dev->mtu = 1500;
	pthread_mutex_init(&dev->host->lock, NULL);
	pthread_cond_init(&dev->host->cond, NULL);
	dev->host->queue_stopped = true; /* until ndo_open starts it */
	return dev;
}

void free_netdev(struct net_device *dev)
{
	if (!dev)
		return;
	while (dev->mc_list) {
		struct netdev_hw_addr *ha = dev->mc_list;

		dev->mc_list = ha->kshim_next;
		free(ha);
	}
	pthread_mutex_destroy(&dev->host->lock);
	pthread_cond_destroy(&dev->host->cond);
	free(dev->host);
	free(dev->priv);
	free(dev);
}

int register_netdev(struct net_device *dev)
{
	if (strchr(dev->name, '%'))
		snprintf(dev->name, sizeof(dev->name), "eth0");
	dev->host->registered = true;
	kshim_host_registered(dev);
	return 0;
}

void unregister_netdev(struct net_device *dev)
{
	if (dev->host->up && dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	dev->host->up = false;
	dev->host->registered = false;
}

const char *kshim_netdev_name(const struct net_device *dev)
{
	return dev ? dev->name : "(null)";
}

/* Sets the protocol and pulls the Ethernet header, as the kernel does. */
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	__be16 proto = 0;

	skb->dev = dev;
	if (skb->len >= ETH_HLEN) {
		memcpy(&proto, skb->data + 12, sizeof(proto));
		skb->data += ETH_HLEN;
		skb->len -= ETH_HLEN;
		skb->mac_len = ETH_HLEN;
	}
	return proto;
}

int netif_rx(struct sk_buff *skb)
{
	struct kshim_netdev_host *h = skb->dev ? skb->dev->host : NULL;

	/* The host wants the frame with its header: undo eth_type_trans's pull. */
	skb->data -= skb->mac_len;
	skb->len += skb->mac_len;
	if (h && h->rx)
		h->rx(h->ctx, skb->data, skb->len);
	kfree_skb(skb);
	return 0; /* NET_RX_SUCCESS */
}

static void queue_set(struct net_device *dev, bool stopped)
{
	struct kshim_netdev_host *h = dev->host;
	bool woke;

	pthread_mutex_lock(&h->lock);
	woke = h->queue_stopped && !stopped && !h->tx_disabled;
	h->queue_stopped = stopped;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	if (woke && h->tx_wake)
		h->tx_wake(h->ctx);
}

void netif_start_queue(struct net_device *dev)
{
	queue_set(dev, false);
}

void netif_stop_queue(struct net_device *dev)
{
	queue_set(dev, true);
}

void netif_wake_queue(struct net_device *dev)
{
	queue_set(dev, false);
}

bool netif_queue_stopped(const struct net_device *dev)
{
	bool s;

	pthread_mutex_lock(&dev->host->lock);
	s = dev->host->queue_stopped;
	pthread_mutex_unlock(&dev->host->lock);
	return s;
}

/* Stops the queue for good here: the driver calls it when it gives up. */
void netif_tx_disable(struct net_device *dev)
{
	pthread_mutex_lock(&dev->host->lock);
	dev->host->tx_disabled = true;
	dev->host->queue_stopped = true;
	pthread_cond_broadcast(&dev->host->cond);
	pthread_mutex_unlock(&dev->host->lock);
}

/* ---- Ethernet addresses ---- */

static bool valid_ether_addr(const u8 *a)
{
	static const u8 zero[ETH_ALEN];

	return !(a[0] & 1) && memcmp(a, zero, ETH_ALEN) != 0;
}

void eth_hw_addr_random(struct net_device *dev)
{
	if (getrandom(dev->dev_addr, ETH_ALEN, 0) != ETH_ALEN)
		memset(dev->dev_addr, 0x5A, ETH_ALEN);
	dev->dev_addr[0] = (u8)((dev->dev_addr[0] & 0xFE) | 0x02); /* local, unicast */
}

int eth_prepare_mac_addr_change(struct net_device *dev, void *p)
{
	const struct sockaddr *sa = p;

	(void)dev;
	return valid_ether_addr((const u8 *)sa->sa_data) ? 0 : -EADDRNOTAVAIL;
}

void eth_commit_mac_addr_change(struct net_device *dev, void *p)
{
	const struct sockaddr *sa = p;

	memcpy(dev->dev_addr, sa->sa_data, ETH_ALEN);
}
