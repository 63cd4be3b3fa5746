// SPDX-License-Identifier: MIT
/*
 * gianfar driver (gianfar.h): creation and the DMA layout, bring-up and
 * teardown in Linux's documented order (docs/etsec.md §9: halt with the
 * graceful stop, MAC reset, configuration, RMON, rings, start), and the
 * control ops. A DMA bus error (EBERR) halts the rings; the driver restarts
 * the controller from the loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/log.h"
#include "ethdrv/poll.h"
#include "gianfar_priv.h"
#include "mac_hash.h"
#include "ring.h"

ETHDRV_LOG_MODULE(gianfar);

#define RING_DEFAULT 256u
#define RING_MIN 16u
#define RING_MAX 4096u
#define POOL_EXTRA 512u
#define DMA_ALIGN 64u
#define QUEUE_OFF_WAIT_US 10u /* Linux waits 10 ms; the model needs no settling */
#define GRACEFUL_TIMEOUT_US 10000u /* a 9600-byte frame at 10 Mb/s takes 7.7 ms */
#define SOFT_RESET_US 3u /* "at least 3 TX clocks" (docs/etsec.md §4.1) */
#define STATS_PERIOD_NS 1000000000ull
#define A002_MASK 0x7F807F80u /* docs/etsec.md §10 */

struct gfar_layout {
	size_t rx_bd, tx_bd, bounce, pool, end;
};

static size_t up_to(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static void config_resolve(const struct gfar_config *in, struct gfar_config *c)
{
	*c = *in;
	c->rx_ring = c->rx_ring ? c->rx_ring : RING_DEFAULT;
	c->tx_ring = c->tx_ring ? c->tx_ring : RING_DEFAULT;
	if (!c->pool_size)
		c->pool_size = c->rx_ring + c->tx_ring + POOL_EXTRA + c->pool_extra;
}

static void layout_of(const struct gfar_config *c, struct gfar_layout *l)
{
	l->rx_bd = 0;
	l->tx_bd = up_to((size_t)c->rx_ring * GFAR_BD_SIZE, DMA_ALIGN);
	l->bounce = up_to(l->tx_bd + (size_t)c->tx_ring * GFAR_BD_SIZE, DMA_ALIGN);
	l->pool = up_to(l->bounce + (size_t)c->tx_ring * GFAR_TX_BOUNCE, DMA_ALIGN);
	l->end = l->pool + (size_t)c->pool_size * sizeof(struct ethdrv_pkt);
}

size_t gfar_dma_size(const struct gfar_config *cfg)
{
	struct gfar_config c;
	struct gfar_layout l;

	config_resolve(cfg, &c);
	layout_of(&c, &l);
	return l.end;
}

static bool ring_ok(unsigned n)
{
	return ring_size_ok(n) && n >= RING_MIN && n <= RING_MAX;
}

static int config_check(const struct gfar_config *c, const struct ethdrv_mmio_bus *bus)
{
	static const uint8_t zero[ETHDRV_ETH_ALEN];
	bool link_ok = !c->fixed_link_mbps || c->fixed_link_mbps == 10 ||
		       c->fixed_link_mbps == 100 || c->fixed_link_mbps == 1000;

	if (!c->name || !*c->name || (c->mac[0] & 1) || !memcmp(c->mac, zero, sizeof(zero)))
		return -EINVAL;
	if (!ring_ok(c->rx_ring) || !ring_ok(c->tx_ring) || c->pool_size <= c->rx_ring || !link_ok)
		return -EINVAL;
	/* 32-bit BD pointers (docs/etsec.md §11); three lines (docs/etsec.md §8.1). */
	if (!bus || !bus->ops || !bus->dma.virt || (uintptr_t)bus->dma.virt % DMA_ALIGN ||
	    bus->dma.bus + bus->dma.size > (1ull << 32))
		return -EINVAL;
	for (unsigned l = 0; l < GFAR_LINES; l++)
		if (bus->irq_fd[l] < 0)
			return -EINVAL;
	return 0;
}

static void udelay(unsigned us)
{
	struct timespec ts = { 0, (long)us * 1000 };

	nanosleep(&ts, NULL);
}

/* ---- filters (docs/etsec.md §4.6) ---- */

static uint32_t bitrev32(uint32_t v)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < 32; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

static void write_filters(struct gfar_priv *p)
{
	uint32_t gaddr[8] = { 0 }, rctrl = 0;
	bool all = p->dev.rx_flags & (ETHDRV_RXF_ALLMULTI | ETHDRV_RXF_PROMISC);

	for (unsigned i = 0; i < p->dev.mc_count; i++) {
		uint32_t h = bitrev32(mac_hash_crc(p->dev.mc_list[i])) >> 24;

		gaddr[h >> 5] |= 1u << (31 - (h & 31));
	}
	for (unsigned r = 0; r < 8; r++) {
		gfar_wr(p, GFAR_IGADDR0 + 4 * r, 0);
		gfar_wr(p, GFAR_GADDR0 + 4 * r, all ? ~0u : gaddr[r]);
	}
	if (p->dev.rx_flags & ETHDRV_RXF_PROMISC)
		rctrl |= GFAR_RCTRL_PROM;
	gfar_wr(p, GFAR_RCTRL, rctrl);
}

/* MACSTNADDR1 = bytes 5..2, MACSTNADDR2 = bytes 1..0 in 31:16 (docs/etsec.md §4.6). */
static void write_station(struct gfar_priv *p, const uint8_t *m)
{
	gfar_wr(p, GFAR_MACSTNADDR1,
		(uint32_t)m[5] << 24 | (uint32_t)m[4] << 16 | (uint32_t)m[3] << 8 | m[2]);
	gfar_wr(p, GFAR_MACSTNADDR2, (uint32_t)m[1] << 24 | (uint32_t)m[0] << 16);
}

/* ---- halt, reset, start (docs/etsec.md §9) ---- */

/* Both stops complete, or RX is idle by the A002 check (docs/etsec.md §10). */
static int stopped_test(struct gfar_priv *p, uint32_t unused, uint32_t *done)
{
	uint32_t ev = gfar_rd(p, GFAR_IEVENT), a002;

	(void)unused;
	if (!(ev & GFAR_EV_GTSC)) {
		*done = 0;
		return 0;
	}
	a002 = gfar_rd(p, GFAR_A002) & A002_MASK;
	*done = (ev & GFAR_EV_GRSC) || (a002 >> 16) == (a002 & 0xFFFFu);
	return 0;
}

/* Linux gfar_halt: queues off, events off, graceful stop, MAC off. */
static void gfar_halt(struct gfar_priv *p)
{
	uint32_t done;

	gfar_wr(p, GFAR_RQUEUE, 0);
	gfar_wr(p, GFAR_TQUEUE, 0);
	udelay(QUEUE_OFF_WAIT_US);
	gfar_wr(p, GFAR_IEVENT, ~0u);
	gfar__imask_update(p, 0, ~0u);
	gfar_wr(p, GFAR_DMACTRL, gfar_rd(p, GFAR_DMACTRL) | GFAR_DMACTRL_GRS | GFAR_DMACTRL_GTS);
	if (ethdrv_poll_timeout(stopped_test, done, done, 10, GRACEFUL_TIMEOUT_US, p, 0)) {
		ethdrv_counter_inc(&p->st.graceful_timeouts);
		ethdrv_warn(&p->dev, "graceful stop did not complete");
	}
	gfar_wr(p, GFAR_MACCFG1,
		gfar_rd(p, GFAR_MACCFG1) & ~(GFAR_MACCFG1_RX_EN | GFAR_MACCFG1_TX_EN));
}

/* Linux gfar_mac_reset and the rest of gfar_hw_init. */
static void gfar_mac_init(struct gfar_priv *p)
{
	gfar_wr(p, GFAR_MACCFG1, GFAR_MACCFG1_SOFT_RESET);
	udelay(SOFT_RESET_US);
	gfar_wr(p, GFAR_MACCFG1, 0);
	udelay(SOFT_RESET_US);
	gfar_wr(p, GFAR_MAXFRM, GFAR_MAXFRM_LEN);
	gfar_wr(p, GFAR_MRBLR, GFAR_RX_BUF);
	gfar_wr(p, GFAR_MINFLR, 64);
	gfar__program_link(p); /* MACCFG2, ECNTRL, coalescing for the link */
	write_filters(p);
	gfar_wr(p, GFAR_TCTRL, 0);
	write_station(p, p->dev.mac);
	gfar_wr(p, GFAR_IEVENT, ~0u);
	/* RMON (docs/etsec.md §7): zeroed, carries masked and cleared, then RDRP's unmasked. */
	for (uint32_t off = GFAR_RMON_FIRST; off <= GFAR_RMON_LAST; off += 4)
		gfar_wr(p, off, 0);
	gfar__rmon_rebase(p);
	gfar_wr(p, GFAR_CAM1, ~0u);
	gfar_wr(p, GFAR_CAM2, ~0u);
	gfar_wr(p, GFAR_CAR1, ~0u);
	gfar_wr(p, GFAR_CAR2, ~0u);
	gfar_wr(p, GFAR_CAM1, ~GFAR_CAR1_C1RDR);
	gfar_wr(p, GFAR_ATTR, 0xC0);
	gfar_wr(p, GFAR_ATTRELI, 0);
	gfar_wr(p, GFAR_PTV, 4);
}

/* Linux startup_gfar + gfar_start: rings, queues, DMA, halts cleared, MAC on. */
static void gfar_start(struct gfar_priv *p)
{
	uint32_t dmactrl = GFAR_DMACTRL_INIT | (p->cfg.le_bd ? GFAR_DMACTRL_LE : 0);

	gfar_wr(p, GFAR_TBASE0, p->tx.bd_bus);
	gfar_wr(p, GFAR_RBASE0, p->rx.bd_bus);
	gfar_wr(p, GFAR_RQUEUE, GFAR_RQUEUE_EN0);
	gfar_wr(p, GFAR_TQUEUE, GFAR_TQUEUE_EN0);
	gfar_wr(p, GFAR_DMACTRL, dmactrl | GFAR_DMACTRL_GRS | GFAR_DMACTRL_GTS);
	gfar_wr(p, GFAR_DMACTRL, dmactrl);
	gfar_wr(p, GFAR_TSTAT, GFAR_TSTAT_THLT0);
	gfar_wr(p, GFAR_RSTAT, GFAR_RSTAT_QHLT0);
	gfar_wr(p, GFAR_MACCFG1, GFAR_MACCFG1_RX_EN | GFAR_MACCFG1_TX_EN);
}

static void stats_tick(struct ethdrv_timer *t)
{
	gfar__rmon_harvest(ethdrv_container_of(t, struct gfar_priv, stats_timer));
}

static int gfar_up(struct gfar_priv *p)
{
	int ret;

	gfar_halt(p);
	gfar_mac_init(p);
	ret = gfar__rx_init(p);
	if (ret) {
		ethdrv_err(&p->dev, "no buffers for the RX ring: %d", ret);
		return ret;
	}
	gfar__tx_init(p);
	gfar_start(p);
	p->hw_up = true;
	gfar__napi_start(p); /* IMASK_DEFAULT last */
	ethdrv_timer_start(&p->stats_timer, STATS_PERIOD_NS, STATS_PERIOD_NS);
	return 0;
}

/* Linux stop_gfar: NAPI off, halt (graceful), then the rings are ours. */
static void gfar_down(struct gfar_priv *p, bool graceful)
{
	if (!p->hw_up)
		return;
	gfar__napi_stop(p);
	if (graceful)
		gfar_halt(p);
	gfar_wr(p, GFAR_MACCFG1, GFAR_MACCFG1_SOFT_RESET); /* the DMA stops and rewinds */
	gfar__rmon_harvest(p);
	gfar__tx_flush(p);
	gfar__rx_free(p);
	ethdrv_timer_stop(&p->stats_timer);
	p->hw_up = false;
}

void gfar__restart_hw(struct gfar_priv *p)
{
	int ret;

	gfar_down(p, false);
	ret = gfar_up(p);
	if (ret) {
		ethdrv_err(&p->dev, "restart failed, traffic stopped: %d", ret);
		return;
	}
	ethdrv_netdev_tx_wake(&p->dev);
}

static void restart_run(struct ethdrv_async *a)
{
	struct gfar_priv *p = ethdrv_container_of(a, struct gfar_priv, restart_async);

	__atomic_store_n(&p->restart_pending, false, __ATOMIC_RELEASE);
	if (!p->dev.up)
		return;
	ethdrv_counter_inc(&p->st.restarts);
	ethdrv_err_ratelimited(&p->dev, "DMA bus error: restarting the controller");
	gfar__restart_hw(p);
}

/* Any thread (the error line's softirq loop): the restart runs on the device's loop. */
void gfar__schedule_restart(struct gfar_priv *p)
{
	if (__atomic_exchange_n(&p->restart_pending, true, __ATOMIC_ACQ_REL))
		return;
	ethdrv_async_send(&p->restart_async);
}

/* ---- ops ---- */

static int gfar_open(struct ethdrv_netdev *dev)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);
	int ret = gfar_up(p);

	if (!ret)
		ret = gfar__phy_start(p);
	if (ret)
		gfar_down(p, false);
	return ret;
}

static int gfar_stop(struct ethdrv_netdev *dev)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);

	/* A restart still queued finds the device down and does nothing. */
	__atomic_store_n(&p->restart_pending, false, __ATOMIC_RELEASE);
	gfar_down(p, true);
	gfar__phy_stop(p);
	return 0;
}

static int gfar_set_mac(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN])
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);

	if (p->hw_up)
		write_station(p, mac);
	return 0;
}

static int gfar_set_rx_mode(struct ethdrv_netdev *dev)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);

	if (p->hw_up)
		write_filters(p);
	return 0;
}

static int gfar_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);
	bool up = p->hw_up && ethdrv_netdev_carrier_ok(dev);

	*st = (struct ethdrv_link_state){ .up = up,
					  .speed_mbps = up ? p->speed_mbps : 0,
					  .full_duplex = up && p->full_duplex };
	return 0;
}

static int gfar_get_stats(struct ethdrv_netdev *dev)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);

	if (p->hw_up)
		gfar__rmon_harvest(p);
	return 0;
}

static void gfar_free_arrays(struct gfar_priv *p)
{
	free(p->rx.pkt);
	free(p->tx.pkt);
	free(p->tx.bytes);
}

static void gfar_destroy(struct ethdrv_netdev *dev)
{
	struct gfar_priv *p = GFAR_FROM_NETDEV(dev);

	ethdrv_async_close(&p->restart_async);
	ethdrv_phy_bus_free(&p->dev.phydev, &p->mii_bus);
	ethdrv_pkt_pool_free(p->pool);
	mtx_destroy(&p->imask_lock);
	mtx_destroy(&p->rmon_lock);
	gfar__stats_free(p);
	gfar_free_arrays(p);
	free(p);
}

static const struct ethdrv_netdev_ops gfar_ops = {
	.open = gfar_open,
	.stop = gfar_stop,
	.start_xmit = gfar__start_xmit,
	.set_mac = gfar_set_mac,
	.set_rx_mode = gfar_set_rx_mode,
	.get_link = gfar_get_link,
	.get_stats = gfar_get_stats,
	.set_param = gfar__set_param,
	.get_param = gfar__get_param,
	.destroy = gfar_destroy,
};

/* ---- creation ---- */

static int gfar_place(struct gfar_priv *p)
{
	struct ethdrv_dma_region *dma = &p->bus.dma;
	uint8_t *base = dma->virt;
	struct gfar_layout l;

	layout_of(&p->cfg, &l);
	if (l.end > dma->size)
		return -ENOSPC;
	p->rx.size = p->cfg.rx_ring;
	p->rx.bd = base + l.rx_bd;
	p->rx.bd_bus = (uint32_t)(dma->bus + l.rx_bd);
	p->tx.size = p->cfg.tx_ring;
	p->tx.bd = base + l.tx_bd;
	p->tx.bd_bus = (uint32_t)(dma->bus + l.tx_bd);
	p->tx.bounce = base + l.bounce;
	p->rx.pkt = calloc(p->rx.size, sizeof(*p->rx.pkt));
	p->tx.pkt = calloc(p->tx.size, sizeof(*p->tx.pkt));
	p->tx.bytes = calloc(p->tx.size, sizeof(*p->tx.bytes));
	if (!p->rx.pkt || !p->tx.pkt || !p->tx.bytes)
		return -ENOMEM;
	return ethdrv_pkt_pool_new_in(base + l.pool, dma->size - l.pool, p->cfg.pool_size,
				      &p->pool);
}

int gfar_create(const struct gfar_config *cfg, const struct ethdrv_mmio_bus *bus,
		struct ethdrv_loop *loop, struct ethdrv_netdev **out)
{
	struct gfar_priv *p;
	int ret;

	if (!cfg || !loop || !out)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	config_resolve(cfg, &p->cfg);
	ret = config_check(&p->cfg, bus);
	if (ret) {
		free(p);
		return ret;
	}
	p->bus = *bus;
	p->speed_mbps = p->cfg.fixed_link_mbps ? p->cfg.fixed_link_mbps : 1000;
	p->full_duplex = true;
	ret = gfar_place(p);
	if (!ret)
		ret = ethdrv_netdev_init(&p->dev, cfg->name, &gfar_ops, loop, p->pool);
	if (ret) {
		ethdrv_pkt_pool_free(p->pool);
		gfar_free_arrays(p);
		free(p);
		return ret;
	}
	memcpy(p->dev.mac, cfg->mac, ETHDRV_ETH_ALEN);
	gfar__coal_defaults(p);
	ethdrv_timer_init(loop, &p->stats_timer, stats_tick);
	p->restart_async.fd = -1;
	ret = gfar__stats_register(p);
	if (!ret)
		ret = gfar__napi_setup(p);
	if (!ret) {
		ret = gfar__mdio_setup(p);
		if (!ret)
			ret = ethdrv_async_init(loop, &p->restart_async, restart_run);
		if (ret) {
			mtx_destroy(&p->imask_lock);
			mtx_destroy(&p->rmon_lock);
		}
	}
	if (ret) {
		ethdrv_phy_bus_free(&p->dev.phydev, &p->mii_bus);
		ethdrv_netdev_cleanup(&p->dev);
		gfar__stats_free(p);
		ethdrv_pkt_pool_free(p->pool);
		gfar_free_arrays(p);
		free(p);
		return ret;
	}
	*out = &p->dev;
	return 0;
}

struct ethdrv_pkt_pool *gfar_get_pool(struct ethdrv_netdev *dev)
{
	return GFAR_FROM_NETDEV(dev)->pool;
}
