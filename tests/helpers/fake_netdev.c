// SPDX-License-Identifier: MIT
/* A fake netdev with fault knobs for the core tests (see fake_netdev.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "ethdrv/loop.h"
#include "fake_netdev.h"

static const uint8_t fake_mac[ETHDRV_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t fake_peer[ETHDRV_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x99 };

void fake_netdev_default_config(struct fake_netdev_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->split_tx = true;
	cfg->tx_ring_size = 64;
	cfg->tx_fail_after = -1;
	cfg->record_cap = 4096;
	cfg->rx_weight = ETHDRV_NAPI_WEIGHT;
}

/* Drive an eventfd as a level: readable exactly while @want. */
static void fake_irq_level(int fd, bool *level, bool want)
{
	uint64_t v = 1;

	if (want == *level)
		return;
	if (want) {
		if (write(fd, &v, sizeof(v)) != sizeof(v))
			return;
	} else if (read(fd, &v, sizeof(v)) != sizeof(v)) {
		return;
	}
	*level = want;
}

/* Recompute both IRQ lines; under f->lock. */
static void fake_update_irqs(struct fake_netdev *f)
{
	bool tx_pending = f->tx_done.count != 0;

	if (f->cfg.split_tx) {
		fake_irq_level(f->rx_irq_fd, &f->rx_irq_level, f->rxq.count != 0);
		fake_irq_level(f->tx_irq_fd, &f->tx_irq_level, tx_pending);
	} else {
		fake_irq_level(f->rx_irq_fd, &f->rx_irq_level, f->rxq.count || tx_pending);
	}
}

static unsigned fake_ring_used(const struct fake_netdev *f)
{
	return f->tx_ring.count + f->tx_done.count;
}

static void fake_record(uint32_t *rec, unsigned *n, unsigned cap, uint32_t seq)
{
	unsigned i = __atomic_load_n(n, __ATOMIC_RELAXED);

	if (i < cap)
		rec[i] = seq;
	__atomic_store_n(n, i + 1, __ATOMIC_RELEASE);
}

/* Reap completed TX frames: free them, feed BQL, wake the queue. */
static void fake_reap_tx(struct fake_netdev *f)
{
	struct ethdrv_pkt_queue done;
	struct ethdrv_pkt *pkt;
	unsigned pkts = 0, bytes = 0;

	pthread_mutex_lock(&f->lock);
	done = f->tx_done;
	ethdrv_pkt_queue_init(&f->tx_done);
	fake_update_irqs(f);
	pthread_mutex_unlock(&f->lock);
	while ((pkt = ethdrv_pkt_queue_pop(&done))) {
		fake_record(f->tx_seq, &f->tx_rec_n, f->cfg.record_cap, fake_frame_seq(pkt));
		pkts++;
		bytes += pkt->len;
		ethdrv_pkt_free(pkt);
	}
	if (!pkts)
		return;
	/* Once per round, not per frame (docs/napi.md §4.2). */
	ethdrv_netdev_tx_completed(&f->dev, pkts, bytes);
	ethdrv_netdev_tx_wake(&f->dev); /* ring slots were freed */
}

static void fake_log_poll(struct fake_netdev *f, int budget, int work, uint64_t start)
{
	unsigned i = __atomic_load_n(&f->rx_log_n, __ATOMIC_RELAXED);

	if (i < FAKE_POLL_LOG) {
		f->rx_log[i].budget = budget;
		f->rx_log[i].work = work;
		f->rx_log[i].ts_ns = start;
	}
	__atomic_store_n(&f->rx_log_n, i + 1, __ATOMIC_RELEASE);
}

int fake_netdev_rx_poll(struct ethdrv_napi *napi, int budget)
{
	struct fake_netdev *f = ethdrv_napi_ctx(napi);
	struct ethdrv_pkt_queue got;
	struct ethdrv_pkt *pkt;
	uint64_t start = ethdrv_now_ns();
	int work = 0;

	if (ethdrv_loop_in_thread(f->dev.loop))
		__atomic_fetch_add(&f->rx_polls_in_loop, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&f->rx_polls_elsewhere, 1, __ATOMIC_RELAXED);
	if (!f->cfg.split_tx)
		fake_reap_tx(f); /* TX completion is not bounded by the budget */
	if (budget == 0) {
		f->rx_budget0_polls++;
		return 0; /* TX only: must not complete */
	}
	ethdrv_pkt_queue_init(&got);
	pthread_mutex_lock(&f->lock);
	while (work < budget && (pkt = ethdrv_pkt_queue_pop(&f->rxq))) {
		ethdrv_pkt_queue_push(&got, pkt);
		work++;
	}
	fake_update_irqs(f);
	pthread_mutex_unlock(&f->lock);
	while ((pkt = ethdrv_pkt_queue_pop(&got))) {
		if (f->cfg.drop_every && ++f->rx_seen % f->cfg.drop_every == 0) {
			ethdrv_counter_inc(&f->dev.stats.rx_dropped);
			ethdrv_pkt_free(pkt);
			continue;
		}
		ethdrv_netdev_receive(&f->dev, pkt);
	}
	fake_log_poll(f, budget, work, start);
	if (work < budget && ethdrv_napi_complete_done(napi, work))
		ethdrv_napi_irq_unmask(napi);
	return work;
}

static int fake_tx_poll(struct ethdrv_napi *napi, int budget)
{
	struct fake_netdev *f = ethdrv_napi_ctx(napi);

	fake_reap_tx(f);
	if (budget && ethdrv_napi_complete_done(napi, 0))
		ethdrv_napi_irq_unmask(napi);
	return 0;
}

/* ---- ops ---- */

static int fake_open(struct ethdrv_netdev *dev)
{
	struct fake_netdev *f = FAKE_FROM_NETDEV(dev);

	if (f->cfg.fail_open)
		return -EIO;
	/* Enable before unmasking, or an early IRQ would find it disabled. */
	ethdrv_napi_enable(f->rx_napi);
	ethdrv_napi_irq_unmask(f->rx_napi);
	if (f->tx_napi) {
		ethdrv_napi_enable(f->tx_napi);
		ethdrv_napi_irq_unmask(f->tx_napi);
	}
	return 0;
}

static int fake_stop(struct ethdrv_netdev *dev)
{
	struct fake_netdev *f = FAKE_FROM_NETDEV(dev);
	struct ethdrv_pkt_queue tx, done, rx;

	ethdrv_napi_disable(f->rx_napi);
	if (f->tx_napi)
		ethdrv_napi_disable(f->tx_napi);
	pthread_mutex_lock(&f->lock);
	tx = f->tx_ring;
	done = f->tx_done;
	rx = f->rxq;
	ethdrv_pkt_queue_init(&f->tx_ring);
	ethdrv_pkt_queue_init(&f->tx_done);
	ethdrv_pkt_queue_init(&f->rxq);
	fake_update_irqs(f);
	pthread_mutex_unlock(&f->lock);
	/* A reset device loses what it held. */
	ethdrv_counter_add(&dev->stats.tx_dropped, ethdrv_pkt_queue_purge(&tx));
	ethdrv_counter_add(&dev->stats.tx_dropped, ethdrv_pkt_queue_purge(&done));
	ethdrv_counter_add(&dev->stats.rx_dropped, ethdrv_pkt_queue_purge(&rx));
	return 0;
}

static int fake_start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	struct fake_netdev *f = FAKE_FROM_NETDEV(dev);
	bool full, room;

	pthread_mutex_lock(&f->lock);
	if ((f->cfg.tx_fail_after >= 0 && f->tx_xmits >= (unsigned)f->cfg.tx_fail_after) ||
	    fake_ring_used(f) >= f->cfg.tx_ring_size) {
		pthread_mutex_unlock(&f->lock);
		return ETHDRV_TX_BUSY;
	}
	f->tx_xmits++;
	/* Account before the frame can complete, as a driver does before the doorbell. */
	ethdrv_netdev_tx_sent(dev, pkt->len);
	ethdrv_pkt_queue_push(f->cfg.auto_complete_tx ? &f->tx_done : &f->tx_ring, pkt);
	fake_update_irqs(f);
	full = fake_ring_used(f) >= f->cfg.tx_ring_size;
	pthread_mutex_unlock(&f->lock);
	if (!full)
		return ETHDRV_TX_OK;
	ethdrv_netdev_tx_stop(dev);
	/* A reap may have freed slots before it could see the stop. */
	pthread_mutex_lock(&f->lock);
	room = fake_ring_used(f) < f->cfg.tx_ring_size;
	pthread_mutex_unlock(&f->lock);
	if (room)
		ethdrv_netdev_tx_wake(dev);
	return ETHDRV_TX_OK;
}

static int fake_set_mac(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN])
{
	return 0;
}

static int fake_set_rx_mode(struct ethdrv_netdev *dev)
{
	FAKE_FROM_NETDEV(dev)->set_rx_mode_calls++;
	return 0;
}

static int fake_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	st->up = dev->up;
	st->speed_mbps = 10;
	st->full_duplex = false;
	return 0;
}

static int fake_get_stats(struct ethdrv_netdev *dev)
{
	FAKE_FROM_NETDEV(dev)->get_stats_calls++;
	return 0;
}

/* One driver knob, "fake_drop_every", to test forwarding. */
static int fake_set_param(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	char *end;
	unsigned long v;

	if (strcmp(key, "fake_drop_every"))
		return -ENOENT;
	v = strtoul(value, &end, 10);
	if (!*value || *end || v > 1000000)
		return -EINVAL;
	FAKE_FROM_NETDEV(dev)->cfg.drop_every = (unsigned)v;
	return 0;
}

static int fake_get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	if (strcmp(key, "fake_drop_every"))
		return -ENOENT;
	if ((size_t)snprintf(buf, size, "%u", FAKE_FROM_NETDEV(dev)->cfg.drop_every) >= size)
		return -ENOSPC;
	return 0;
}

static void fake_destroy(struct ethdrv_netdev *dev)
{
	struct fake_netdev *f = FAKE_FROM_NETDEV(dev);

	ethdrv_pkt_queue_purge(&f->rxq);
	ethdrv_pkt_queue_purge(&f->tx_ring);
	ethdrv_pkt_queue_purge(&f->tx_done);
	close(f->rx_irq_fd);
	if (f->tx_irq_fd >= 0)
		close(f->tx_irq_fd);
	pthread_mutex_destroy(&f->lock);
	free(f->rx_seq);
	free(f->tx_seq);
	free(f);
}

static const struct ethdrv_netdev_ops fake_ops = {
	.open = fake_open,
	.stop = fake_stop,
	.start_xmit = fake_start_xmit,
	.set_mac = fake_set_mac,
	.set_rx_mode = fake_set_rx_mode,
	.get_link = fake_get_link,
	.get_stats = fake_get_stats,
	.set_param = fake_set_param,
	.get_param = fake_get_param,
	.destroy = fake_destroy,
};

/* Pollers and IRQs; the device is initialised. */
static int fake_setup_napi(struct fake_netdev *f)
{
	int ret;

	ret = ethdrv_napi_add(&f->dev, "rx", fake_netdev_rx_poll, f->cfg.rx_weight, f, &f->rx_napi);
	if (!ret)
		ret = ethdrv_napi_attach_irq(f->rx_napi, f->rx_irq_fd);
	if (ret || !f->cfg.split_tx)
		return ret;
	f->tx_irq_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (f->tx_irq_fd < 0)
		return -errno;
	ret = ethdrv_napi_add_tx(&f->dev, "tx", fake_tx_poll, f, &f->tx_napi);
	if (!ret)
		ret = ethdrv_napi_attach_irq(f->tx_napi, f->tx_irq_fd);
	return ret;
}

int fake_netdev_create(struct ethdrv_loop *loop, struct ethdrv_pkt_pool *pool, const char *name,
		       const struct fake_netdev_config *cfg, struct fake_netdev **out)
{
	struct fake_netdev *f;
	int ret;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->cfg = *cfg;
	f->tx_irq_fd = -1;
	pthread_mutex_init(&f->lock, NULL);
	f->rx_seq = calloc(cfg->record_cap + 1, sizeof(*f->rx_seq));
	f->tx_seq = calloc(cfg->record_cap + 1, sizeof(*f->tx_seq));
	f->rx_irq_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!f->rx_seq || !f->tx_seq || f->rx_irq_fd < 0) {
		ret = f->rx_irq_fd < 0 ? -errno : -ENOMEM;
		goto err_free;
	}
	ret = ethdrv_netdev_init(&f->dev, name, &fake_ops, loop, pool);
	if (ret)
		goto err_free;
	memcpy(f->dev.mac, fake_mac, ETHDRV_ETH_ALEN);
	ethdrv_netdev_set_rx_handler(&f->dev, fake_netdev_record_rx, f);
	ret = fake_setup_napi(f);
	if (ret)
		goto err_destroy;
	*out = f;
	return 0;

err_destroy:
	ethdrv_netdev_destroy(&f->dev); /* frees f through fake_destroy */
	return ret;
err_free:
	if (f->rx_irq_fd >= 0)
		close(f->rx_irq_fd);
	pthread_mutex_destroy(&f->lock);
	free(f->rx_seq);
	free(f->tx_seq);
	free(f);
	return ret;
}

void fake_netdev_destroy(struct fake_netdev *f)
{
	if (f)
		ethdrv_netdev_destroy(&f->dev);
}

struct ethdrv_pkt *fake_netdev_make_frame(struct fake_netdev *f, uint32_t seq, unsigned len)
{
	struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(f->dev.pool);
	uint8_t *d;

	if (!pkt)
		return NULL;
	len = ETHDRV_MAX(len, (unsigned)ETHDRV_ETH_ZLEN);
	d = pkt->data;
	memset(d, 0, len);
	memcpy(d, f->dev.mac, ETHDRV_ETH_ALEN);
	memcpy(d + ETHDRV_ETH_ALEN, fake_peer, ETHDRV_ETH_ALEN);
	d[12] = FAKE_ETHERTYPE >> 8;
	d[13] = FAKE_ETHERTYPE & 0xff;
	d[14] = (uint8_t)(seq >> 24);
	d[15] = (uint8_t)(seq >> 16);
	d[16] = (uint8_t)(seq >> 8);
	d[17] = (uint8_t)seq;
	pkt->len = len;
	return pkt;
}

uint32_t fake_frame_seq(const struct ethdrv_pkt *pkt)
{
	const uint8_t *d = pkt->data;

	return (uint32_t)d[14] << 24 | (uint32_t)d[15] << 16 | (uint32_t)d[16] << 8 | d[17];
}

void fake_netdev_inject_rx_pkt(struct fake_netdev *f, struct ethdrv_pkt *pkt)
{
	pthread_mutex_lock(&f->lock);
	ethdrv_pkt_queue_push(&f->rxq, pkt);
	fake_update_irqs(f);
	pthread_mutex_unlock(&f->lock);
}

int fake_netdev_inject_rx(struct fake_netdev *f, uint32_t seq)
{
	struct ethdrv_pkt *pkt = fake_netdev_make_frame(f, seq, ETHDRV_ETH_ZLEN);

	if (!pkt)
		return -ENOMEM;
	fake_netdev_inject_rx_pkt(f, pkt);
	return 0;
}

unsigned fake_netdev_complete_tx(struct fake_netdev *f, unsigned n)
{
	struct ethdrv_pkt *pkt;
	unsigned done = 0;

	pthread_mutex_lock(&f->lock);
	while (done < n && (pkt = ethdrv_pkt_queue_pop(&f->tx_ring))) {
		ethdrv_pkt_queue_push(&f->tx_done, pkt);
		done++;
	}
	fake_update_irqs(f);
	pthread_mutex_unlock(&f->lock);
	return done;
}

unsigned fake_netdev_rx_pending(struct fake_netdev *f)
{
	unsigned n;

	pthread_mutex_lock(&f->lock);
	n = f->rxq.count;
	pthread_mutex_unlock(&f->lock);
	return n;
}

unsigned fake_netdev_tx_used(struct fake_netdev *f)
{
	unsigned n;

	pthread_mutex_lock(&f->lock);
	n = fake_ring_used(f);
	pthread_mutex_unlock(&f->lock);
	return n;
}

int fake_netdev_inject_n(struct fake_netdev *f, uint32_t first, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int ret = fake_netdev_inject_rx(f, first + i);

		if (ret)
			return ret;
	}
	return 0;
}

bool fake_netdev_rx_in_order(const struct fake_netdev *f, unsigned n)
{
	if (fake_netdev_rx_count(f) != n)
		return false;
	for (unsigned i = 0; i < n && i < f->cfg.record_cap; i++)
		if (f->rx_seq[i] != i)
			return false;
	return true;
}

unsigned fake_netdev_rx_count(const struct fake_netdev *f)
{
	return __atomic_load_n(&f->rx_rec_n, __ATOMIC_ACQUIRE);
}

unsigned fake_netdev_tx_count(const struct fake_netdev *f)
{
	return __atomic_load_n(&f->tx_rec_n, __ATOMIC_ACQUIRE);
}

void fake_netdev_record_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct fake_netdev *f = arg;

	fake_record(f->rx_seq, &f->rx_rec_n, f->cfg.record_cap, fake_frame_seq(pkt));
	ethdrv_pkt_free(pkt);
}
