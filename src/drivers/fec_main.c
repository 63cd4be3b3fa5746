// SPDX-License-Identifier: MIT
/*
 * ENET driver (fec.h): creation and the DMA layout, the control ops, and
 * bring-up and teardown in the controller's documented order
 * (docs/enet.md §9.1): reset and wait, configure, enable, RDAR, unmask; graceful stop
 * before teardown (docs/enet.md §4.3). A DMA bus error (EBERR) stops the
 * controller, and the driver restarts it from the loop (docs/enet.md §10
 * item 11).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "ethdrv/poll.h"
#include "fec_priv.h"
#include "mac_hash.h"
#include "ring.h"

ETHDRV_LOG_MODULE(fec);

#define FEC_RING_DEFAULT 256u
#define FEC_RING_MIN 16u
#define FEC_RING_MAX 4096u
#define FEC_POOL_EXTRA 512u /* buffers beyond the rings: frames up the stack */
#define FEC_ALIGN 64u
#define FEC_RESET_TIMEOUT_US 10000u
#define FEC_GRA_TIMEOUT_US 5000u /* a 1522-byte frame at 10 Mb/s takes 1.2 ms */
#define FEC_STATS_PERIOD_NS 1000000000ull

/* Where the driver's structures lie in the DMA region. */
struct fec_layout {
	size_t rx_bd, tx_bd, bounce, pool, end; /* byte offsets */
};

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* @cfg with the defaults filled in. */
static void fec_config_resolve(const struct fec_config *in, struct fec_config *out)
{
	*out = *in;
	if (!out->rx_ring)
		out->rx_ring = FEC_RING_DEFAULT;
	if (!out->tx_ring)
		out->tx_ring = FEC_RING_DEFAULT;
	if (!out->pool_size)
		out->pool_size = out->rx_ring + out->tx_ring + FEC_POOL_EXTRA + out->pool_extra;
	if (!out->clk_ahb_hz)
		out->clk_ahb_hz = 125000000u;
	if (!out->clk_ipg_hz)
		out->clk_ipg_hz = 50000000u;
}

static void fec_layout(const struct fec_config *c, struct fec_layout *l)
{
	unsigned bd = c->enhanced_bd ? FEC_BDX_SIZE : FEC_BD_SIZE;

	l->rx_bd = 0;
	l->tx_bd = align_up(l->rx_bd + (size_t)c->rx_ring * bd, FEC_ALIGN);
	l->bounce = align_up(l->tx_bd + (size_t)c->tx_ring * bd, FEC_ALIGN);
	l->pool = align_up(l->bounce + (size_t)c->tx_ring * FEC_TX_BOUNCE_SIZE, FEC_ALIGN);
	l->end = l->pool + (size_t)c->pool_size * sizeof(struct ethdrv_pkt);
}

size_t fec_dma_size(const struct fec_config *cfg)
{
	struct fec_config c;
	struct fec_layout l;

	fec_config_resolve(cfg, &c);
	fec_layout(&c, &l);
	return l.end;
}

static bool fec_ring_ok(unsigned n)
{
	return ring_size_ok(n) && n >= FEC_RING_MIN && n <= FEC_RING_MAX;
}

static int fec_check(const struct fec_config *c, const struct ethdrv_mmio_bus *bus)
{
	static const uint8_t zero[ETHDRV_ETH_ALEN];

	if (!c->name || !*c->name || (c->mac[0] & 1) || !memcmp(c->mac, zero, ETHDRV_ETH_ALEN))
		return -EINVAL;
	if (!fec_ring_ok(c->rx_ring) || !fec_ring_ok(c->tx_ring) || c->pool_size <= c->rx_ring)
		return -EINVAL;
	if (c->fixed_link_mbps && c->fixed_link_mbps != 10 && c->fixed_link_mbps != 100 &&
	    c->fixed_link_mbps != 1000)
		return -EINVAL;
	if ((unsigned)c->soc >= ETHDRV_ENET_SOC_COUNT)
		return -EINVAL;
	/* Descriptors hold 32-bit bus addresses (docs/enet.md §3.2); int0 must
	 * exist (docs/enet.md §8). */
	if (!ethdrv_mmio_bus_ok32(bus, FEC_ALIGN))
		return -EINVAL;
	return 0;
}

/* ---- hardware ---- */

/* Register read in the shape ethdrv_poll_timeout() wants. */
static int fec_read_reg(struct fec_priv *priv, uint32_t off, uint32_t *val)
{
	*val = fec_rd(priv, off);
	return 0;
}

/* The multi-queue AXI parts, where a RESET can hang the bus (docs/enet.md §15). */
static bool fec_soc_axi(enum ethdrv_enet_soc soc)
{
	return soc == ETHDRV_ENET_SOC_IMX8M || soc == ETHDRV_ENET_SOC_IMX6SX;
}

/* docs/enet.md §9.1 step 1 per part (docs/enet.md §15): on the AXI parts
 * Linux and FreeBSD write ECR = 0 and never RESET; the others RESET and
 * wait for it to self-clear (docs/enet.md §4.1). Everything the driver
 * relies on is written again by fec_hw_config(); the MIB is cleared on its
 * own (fec__mib_clear()), not by the reset. */
static int fec_hw_reset(struct fec_priv *priv)
{
	uint32_t ecr;
	int ret;

	if (fec_soc_axi(priv->cfg.soc)) {
		fec_wr(priv, FEC_REG_ECR, 0);
		return 0;
	}
	fec_wr(priv, FEC_REG_ECR, FEC_ECR_RESET);
	ret = ethdrv_poll_timeout(fec_read_reg, ecr, !(ecr & FEC_ECR_RESET), 1,
				  FEC_RESET_TIMEOUT_US, priv, FEC_REG_ECR);
	if (ret)
		ethdrv_err(&priv->dev, "reset did not complete: %d", ret);
	return ret;
}

/* The group or individual hash bit of @addr (docs/enet.md §1.1): CRC-32 in the reflected
 * form, initial all ones, no final inversion; the top 6 bits select it. */
static unsigned fec_hash_bit(const uint8_t *addr)
{
	return mac_hash_crc(addr) >> 26;
}

/* GAUR:GALR for the device's multicast list (ALLMULTI: every bit). */
static uint64_t fec_group_hash(const struct fec_priv *priv)
{
	uint64_t h = 0;

	if (priv->dev.rx_flags & (ETHDRV_RXF_ALLMULTI | ETHDRV_RXF_PROMISC))
		return ~0ull;
	for (unsigned i = 0; i < priv->dev.mc_count; i++)
		h |= 1ull << fec_hash_bit(priv->dev.mc_list[i]);
	return h;
}

static uint32_t fec_rcr(const struct fec_priv *priv)
{
	uint32_t rcr = ETHDRV_FIELD_PREP(FEC_RCR_MAX_FL, FEC_MAX_FL) | FEC_RCR_MII_MODE |
		       FEC_RCR_RGMII_EN | FEC_RCR_CRCFWD;

	/* 1000 Mb/s is ECR.SPEED, 10 is RMII_10T, 100 neither
	 * (docs/enet.md §4.1, §4.2); the link the PHY resolved (fec_mdio.c). Half duplex:
	 * DRT (docs/enet.md §9.1). */
	if (priv->speed_mbps == 10)
		rcr |= FEC_RCR_RMII_10T;
	if (!priv->full_duplex)
		rcr |= FEC_RCR_DRT;
	if (priv->dev.rx_flags & ETHDRV_RXF_PROMISC)
		rcr |= FEC_RCR_PROM;
	return rcr;
}

/* Station address (docs/enet.md §1.1): byte 0 in PALR bits 31:24, bytes 4-5 in PAUR 31:16. */
static uint32_t fec_palr(const uint8_t *m)
{
	return (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
}

static uint32_t fec_paur(const uint8_t *m)
{
	return (uint32_t)m[4] << 24 | (uint32_t)m[5] << 16;
}

static uint32_t fec_ecr(const struct fec_priv *priv)
{
	uint32_t ecr = FEC_ECR_ETHEREN | FEC_ECR_DBSWP;

	if (priv->speed_mbps == 1000)
		ecr |= FEC_ECR_SPEED;
	if (priv->cfg.enhanced_bd)
		ecr |= FEC_ECR_EN1588;
	return ecr;
}

/* docs/enet.md §9.1 step 6: full duplex with FDEN, as the PHY resolved it. */
static uint32_t fec_tcr(const struct fec_priv *priv)
{
	return priv->full_duplex ? FEC_TCR_FDEN : 0;
}

struct fec_reg_val {
	uint32_t reg; /* offset */
	uint32_t val; /* value */
};

/* docs/enet.md §9.1 steps 2-19 as ordered register writes (the rings are built already). */
static void fec_hw_config(struct fec_priv *priv)
{
	uint64_t hash = fec_group_hash(priv);
	const struct fec_reg_val seq[] = {
		/* 2: station address. */
		{ FEC_REG_PALR, fec_palr(priv->dev.mac) },
		{ FEC_REG_PAUR, fec_paur(priv->dev.mac) },
		/* 3: events clear; MII belongs to the MDIO bus (docs/enet.md §5). */
		{ FEC_REG_EIR, ~FEC_EV_MII },
		/* 5: rings and RX buffer size. */
		{ FEC_REG_RDSR, priv->rx.bd_bus },
		{ FEC_REG_MRBR, FEC_RX_BUF_SIZE },
		{ FEC_REG_TDSR, priv->tx.bd_bus },
		/* 6: duplex as the PHY resolved it. */
		{ FEC_REG_TCR, fec_tcr(priv) },
		/* 8: no SHIFT16; truncate beyond the buffer. */
		{ FEC_REG_RACC, 0 },
		{ FEC_REG_FTRL, FEC_RX_BUF_SIZE },
		/* 9, 11: receive control, filters. */
		{ FEC_REG_RCR, fec_rcr(priv) },
		{ FEC_REG_IAUR, 0 },
		{ FEC_REG_IALR, 0 },
		{ FEC_REG_GAUR, (uint32_t)(hash >> 32) },
		{ FEC_REG_GALR, (uint32_t)hash },
		/* 12: store and forward. */
		{ FEC_REG_TFWR, FEC_TFWR_STRFWD },
		/* 14: MIB counting on. */
		{ FEC_REG_MIBC, 0 },
		/* 15, 16: enable, then RX descriptors active. */
		{ FEC_REG_ECR, fec_ecr(priv) },
		{ FEC_REG_RDAR, FEC_DAR_ACTIVE },
	};

	/* 3: events off but MII (ECR = 0 keeps EIMR), under imask_lock. */
	fec__imask_clear(priv, ~FEC_EV_MII);
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(seq); i++)
		fec_wr(priv, seq[i].reg, seq[i].val);
	/* 19: interrupt coalescing (18, unmasking, follows in fec__irq_start()). */
	fec__coal_apply(priv, FEC_RX);
	fec__coal_apply(priv, FEC_TX);
}

/* Graceful transmit stop (docs/enet.md §4.3): the frame on the wire completes, GRA
 * follows; never without link (Linux fec_stop checks fep->link). */
static void fec_graceful_stop(struct fec_priv *priv)
{
	uint32_t eir;

	if (!ethdrv_netdev_carrier_ok(&priv->dev))
		return;
	fec_wr(priv, FEC_REG_TCR, fec_tcr(priv) | FEC_TCR_GTS);
	if (ethdrv_poll_timeout(fec_read_reg, eir, eir & FEC_EV_GRA, 10, FEC_GRA_TIMEOUT_US, priv,
				FEC_REG_EIR)) {
		/* Linux tolerates it too: no link, or a stuck transmitter. */
		ethdrv_counter_inc(&priv->st.gra_timeouts);
		ethdrv_warn(&priv->dev, "graceful stop timed out");
	}
	fec_wr(priv, FEC_REG_EIR, FEC_EV_GRA);
}

static void fec_stats_timer(struct ethdrv_timer *t)
{
	fec__mib_harvest(ethdrv_container_of(t, struct fec_priv, stats_timer));
}

static int fec_up(struct fec_priv *priv)
{
	int ret;

	/* RESET zeroes MSCR and aborts a frame: hold the MDIO bus across it
	 * and set the clock up again (docs/mdio.md §4.2). */
	fec__mdio_hw_lock(priv);
	ret = fec_hw_reset(priv);
	fec__mdio_hw_unlock(priv);
	if (ret)
		return ret;
	fec__mib_clear(priv);
	ret = fec__rx_init(priv);
	if (ret) {
		ethdrv_err(&priv->dev, "no buffers for the RX ring: %d", ret);
		return ret;
	}
	fec__tx_init(priv);
	fec_hw_config(priv);
	priv->hw_up = true;
	fec__irq_start(priv); /* step 18: unmask */
	ethdrv_timer_start(&priv->stats_timer, FEC_STATS_PERIOD_NS, FEC_STATS_PERIOD_NS);
	return 0;
}

static void fec_down(struct fec_priv *priv, bool graceful)
{
	if (!priv->hw_up)
		return;
	if (graceful)
		fec_graceful_stop(priv);
	fec__irq_stop(priv);
	fec__mib_harvest(priv);
	/* ETHEREN 0: the DMA stops and rewinds (docs/enet.md §3.4); then the rings are ours. */
	fec_wr(priv, FEC_REG_ECR, 0);
	fec__tx_flush(priv);
	fec__rx_free(priv);
	ethdrv_timer_stop(&priv->stats_timer);
	priv->hw_up = false;
	fec__mdio_keep_enabled(priv);
}

/* ---- restart after a DMA bus error or a new link speed ---- */

void fec__restart_hw(struct fec_priv *priv)
{
	int ret;

	fec_down(priv, false);
	ret = fec_up(priv);
	if (ret) {
		ethdrv_err(&priv->dev, "restart failed, traffic stopped: %d", ret);
		return;
	}
	ethdrv_netdev_tx_wake(&priv->dev);
}

static void fec_restart(struct ethdrv_async *a)
{
	struct fec_priv *priv = ethdrv_container_of(a, struct fec_priv, restart_async);

	__atomic_store_n(&priv->restart_pending, false, __ATOMIC_RELEASE);
	if (!priv->dev.up)
		return;
	ethdrv_counter_inc(&priv->st.restarts);
	ethdrv_err_ratelimited(&priv->dev, "DMA bus error: restarting the controller");
	fec__restart_hw(priv);
}

/* Any thread (the interrupt handler's softirq loop): the restart runs on the device's loop. */
void fec__schedule_restart(struct fec_priv *priv)
{
	if (__atomic_exchange_n(&priv->restart_pending, true, __ATOMIC_ACQ_REL))
		return;
	ethdrv_async_send(&priv->restart_async);
}

/* ---- ops ---- */

/* As fec_enet_open: the controller, then the PHY (phy_start). */
static int fec_open(struct ethdrv_netdev *dev)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);
	int ret = fec_up(priv);

	if (!ret)
		ret = fec__phy_start(priv);
	if (ret)
		fec_down(priv, false);
	return ret;
}

static int fec_stop(struct ethdrv_netdev *dev)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);

	/* A restart still queued finds the device down and does nothing. */
	__atomic_store_n(&priv->restart_pending, false, __ATOMIC_RELEASE);
	/* Graceful stop while the link is still up, then the PHY (fec_enet_close). */
	fec_down(priv, true);
	fec__phy_stop(priv);
	return 0;
}

static int fec_set_mac(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN])
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);

	if (priv->hw_up) {
		fec_wr(priv, FEC_REG_PALR, fec_palr(mac));
		fec_wr(priv, FEC_REG_PAUR, fec_paur(mac));
	}
	return 0;
}

static int fec_set_rx_mode(struct ethdrv_netdev *dev)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);
	uint64_t hash = fec_group_hash(priv);

	if (!priv->hw_up)
		return 0;
	fec_wr(priv, FEC_REG_RCR, fec_rcr(priv));
	fec_wr(priv, FEC_REG_GAUR, (uint32_t)(hash >> 32));
	fec_wr(priv, FEC_REG_GALR, (uint32_t)hash);
	return 0;
}

/* The link the PHY (or the fixed link) reported and the MAC follows. */
static int fec_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);

	ethdrv_link_state_fill(st, priv->hw_up && ethdrv_netdev_carrier_ok(dev), priv->speed_mbps,
			       priv->full_duplex);
	return 0;
}

static int fec_get_stats(struct ethdrv_netdev *dev)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);

	if (priv->hw_up)
		fec__mib_harvest(priv);
	return 0;
}

static void fec_destroy(struct ethdrv_netdev *dev)
{
	struct fec_priv *priv = FEC_FROM_NETDEV(dev);

	ethdrv_async_close(&priv->restart_async);
	fec__mdio_free(priv);
	ethdrv_pkt_pool_free(priv->pool);
	mtx_destroy(&priv->imask_lock);
	fec__stats_free(priv);
	free(priv->rx.pkt);
	free(priv->tx.pkt);
	free(priv->tx.bytes);
	free(priv);
}

static const struct ethdrv_netdev_ops fec_ops = {
	.open = fec_open,
	.stop = fec_stop,
	.start_xmit = fec__tx_start_xmit,
	.set_mac = fec_set_mac,
	.set_rx_mode = fec_set_rx_mode,
	.get_link = fec_get_link,
	.get_stats = fec_get_stats,
	.set_param = fec__set_param,
	.get_param = fec__get_param,
	.destroy = fec_destroy,
};

/* ---- creation ---- */

/* Rings, bounce buffers and the pool at their places in the DMA region. */
static int fec_place(struct fec_priv *priv)
{
	const struct ethdrv_dma_region *dma = &priv->bus.dma;
	uint8_t *base = dma->virt;
	struct fec_layout l;

	fec_layout(&priv->cfg, &l);
	if (l.end > dma->size)
		return -ENOSPC;
	priv->bd_size = priv->cfg.enhanced_bd ? FEC_BDX_SIZE : FEC_BD_SIZE;
	priv->rx.size = priv->cfg.rx_ring;
	priv->rx.bd = base + l.rx_bd;
	priv->rx.bd_bus = (uint32_t)(dma->bus + l.rx_bd);
	priv->tx.size = priv->cfg.tx_ring;
	priv->tx.bd = base + l.tx_bd;
	priv->tx.bd_bus = (uint32_t)(dma->bus + l.tx_bd);
	priv->tx.bounce = base + l.bounce;
	priv->rx.pkt = calloc(priv->rx.size, sizeof(*priv->rx.pkt));
	priv->tx.pkt = calloc(priv->tx.size, sizeof(*priv->tx.pkt));
	priv->tx.bytes = calloc(priv->tx.size, sizeof(*priv->tx.bytes));
	if (!priv->rx.pkt || !priv->tx.pkt || !priv->tx.bytes)
		return -ENOMEM;
	return ethdrv_pkt_pool_new_in(base + l.pool, dma->size - l.pool, priv->cfg.pool_size,
				      &priv->pool);
}

int fec_create(const struct fec_config *cfg, const struct ethdrv_mmio_bus *bus,
	       struct ethdrv_loop *loop, struct ethdrv_netdev **out)
{
	struct fec_priv *priv;
	int ret;

	if (!cfg || !loop || !out)
		return -EINVAL;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return -ENOMEM;
	fec_config_resolve(cfg, &priv->cfg);
	ret = fec_check(&priv->cfg, bus);
	if (ret)
		goto err_free;
	priv->bus = *bus;
	ret = fec_place(priv);
	if (ret)
		goto err_free_rings;
	ret = ethdrv_netdev_init(&priv->dev, cfg->name, &fec_ops, loop, priv->pool);
	if (ret)
		goto err_free_pool;
	memcpy(priv->dev.mac, cfg->mac, ETHDRV_ETH_ALEN);
	ret = fec__stats_register(priv);
	if (!ret)
		ret = fec__irq_setup(priv);
	if (ret)
		goto err_cleanup;
	/* Until a PHY reports: what an unknown link programs (fec_mdio.c). */
	priv->speed_mbps = priv->cfg.fixed_link_mbps ? priv->cfg.fixed_link_mbps : 1000;
	priv->full_duplex = true;
	ret = fec__mdio_setup(priv);
	if (ret)
		goto err_mdio;
	ethdrv_timer_init(loop, &priv->stats_timer, fec_stats_timer);
	ret = ethdrv_async_init(loop, &priv->restart_async, fec_restart);
	if (ret)
		goto err_mdio;
	fec__coal_defaults(priv);
	*out = &priv->dev;
	return 0;

err_mdio:
	fec__mdio_free(priv);
	mtx_destroy(&priv->imask_lock);
err_cleanup:
	ethdrv_netdev_cleanup(&priv->dev);
	fec__stats_free(priv);
err_free_pool:
	ethdrv_pkt_pool_free(priv->pool);
err_free_rings:
	free(priv->rx.pkt);
	free(priv->tx.pkt);
	free(priv->tx.bytes);
err_free:
	free(priv);
	return ret;
}

struct ethdrv_pkt_pool *fec_get_pool(struct ethdrv_netdev *dev)
{
	return FEC_FROM_NETDEV(dev)->pool;
}
