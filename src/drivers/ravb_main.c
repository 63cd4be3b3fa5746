// SPDX-License-Identifier: MIT
/*
 * GbEth driver (ravb.h): creation and the DMA layout, the operating modes
 * (docs/gbeth.md §2), probe, open and stop in the documented order
 * (docs/gbeth.md §9), the netdev ops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "ethdrv/poll.h"
#include "ravb_priv.h"
#include "ring.h"

ETHDRV_LOG_MODULE(ravb);

#define RAVB_RX_RING_DEFAULT 256u
#define RAVB_TX_RING_DEFAULT 64u /* num_tx_ring (docs/gbeth.md §3.3) */
#define RAVB_RING_MIN 16u
#define RAVB_RX_RING_MAX 2048u
#define RAVB_TX_RING_MAX 1024u
#define RAVB_POOL_EXTRA 512u
#define RAVB_ALIGN 128u
#define RAVB_WAIT_US 100000u /* every wait: 100 ms, as Linux (docs/gbeth.md §2, §9.3) */
#define RAVB_WAIT_STEP_US 10u
#define RAVB_RCR_VALUE 0x60000000u /* docs/gbeth.md §1.1 */
#define RAVB_RTC_VALUE (0x7FFC0000u | 8192u)
#define RAVB_TGC_VALUE 0x00222200u
#define RAVB_CXR35_RGMII (1000u << 16)
#define RAVB_CXR31_SEL_LINK0 ETHDRV_BIT(0)

struct ravb_layout {
	size_t dbat, rx_desc, tx_desc, tx_align, tx_bounce, rx_buf, pool, end;
};

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static void config_resolve(const struct ravb_config *in, struct ravb_config *out)
{
	*out = *in;
	if (!out->rx_ring)
		out->rx_ring = RAVB_RX_RING_DEFAULT;
	if (!out->tx_ring)
		out->tx_ring = RAVB_TX_RING_DEFAULT;
	if (!out->rx_buf)
		out->rx_buf = RAVB_RX_BUF_PAGE;
	if (!out->pool_size)
		out->pool_size = out->rx_ring + out->tx_ring + RAVB_POOL_EXTRA + out->pool_extra;
}

/* RX buffers are laid out for the largest rx_buf, so the knob never needs more memory. */
static void layout(const struct ravb_config *c, struct ravb_layout *l)
{
	l->dbat = 0;
	l->rx_desc = align_up(RAVB_DBAT_ENTRIES * RAVB_D_SIZE, RAVB_ALIGN);
	l->tx_desc = align_up(l->rx_desc + ((size_t)c->rx_ring + 1) * RAVB_D_SIZE, RAVB_ALIGN);
	l->tx_align = align_up(l->tx_desc + ((size_t)c->tx_ring * 2 + 1) * RAVB_D_SIZE, RAVB_ALIGN);
	l->tx_bounce = align_up(l->tx_align + (size_t)c->tx_ring * 4, RAVB_ALIGN);
	l->rx_buf = align_up(l->tx_bounce + (size_t)c->tx_ring * RAVB_TX_MAX, RAVB_ALIGN);
	l->pool = align_up(l->rx_buf + (size_t)c->rx_ring * RAVB_RX_BUF_PRE2024, RAVB_ALIGN);
	l->end = l->pool + (size_t)c->pool_size * sizeof(struct ethdrv_pkt);
}

size_t ravb_dma_size(const struct ravb_config *cfg)
{
	struct ravb_config c;
	struct ravb_layout l;

	config_resolve(cfg, &c);
	layout(&c, &l);
	return l.end;
}

static bool ring_ok(unsigned n, unsigned max)
{
	return ring_size_ok(n) && n >= RAVB_RING_MIN && n <= max;
}

static int config_check(const struct ravb_config *c, const struct ethdrv_mmio_bus *bus)
{
	if (!c->name || !*c->name || (c->mac[0] & 1))
		return -EINVAL;
	if (!ring_ok(c->rx_ring, RAVB_RX_RING_MAX) || !ring_ok(c->tx_ring, RAVB_TX_RING_MAX) ||
	    c->pool_size <= c->rx_ring)
		return -EINVAL;
	if (c->rx_buf < RAVB_RX_BUF_MIN || c->rx_buf > RAVB_RX_BUF_PRE2024 || c->rx_buf % 2)
		return -EINVAL;
	if (c->fixed_link_mbps && c->fixed_link_mbps != 10 && c->fixed_link_mbps != 100 &&
	    c->fixed_link_mbps != 1000)
		return -EINVAL;
	if ((unsigned)c->poll_mode > RAVB_POLL_PRE2024)
		return -EINVAL;
	/* DPTR is 32 bits (docs/gbeth.md §3.1); the `mux` line must exist (docs/gbeth.md §4.1). */
	if (!ethdrv_mmio_bus_ok32(bus, RAVB_ALIGN))
		return -EINVAL;
	return 0;
}

/* ---- operating modes ---- */

static int read_reg(struct ravb_priv *priv, uint32_t off, uint32_t *val)
{
	*val = ravb_rd(priv, off);
	return 0;
}

/* Wait until (reg & mask) == want, 100 ms at most. */
static int ravb_wait(struct ravb_priv *priv, uint32_t reg, uint32_t mask, uint32_t want)
{
	uint32_t v;

	return ethdrv_poll_timeout(read_reg, v, (v & mask) == want, RAVB_WAIT_STEP_US, RAVB_WAIT_US,
				   priv, reg);
}

/* CCC.OPC = @opc, then wait for CSR.OPS = 1 << opc (docs/gbeth.md §2). */
int ravb__set_opmode(struct ravb_priv *priv, unsigned opc)
{
	int ret;

	ravb_modify(priv, RAVB_CCC, CCC_OPC, opc);
	ret = ravb_wait(priv, RAVB_CSR, CSR_OPS, ETHDRV_BIT(opc));
	if (ret) {
		ethdrv_counter_inc(&priv->st.mode_timeouts);
		ethdrv_err(&priv->dev, "operating mode %u not reached: %d", opc, ret);
	}
	return ret;
}

/* ---- bring-up (docs/gbeth.md §9.2) ---- */

static void dbat_init(struct ravb_priv *priv)
{
	for (unsigned i = 0; i < RAVB_DBAT_ENTRIES; i++)
		ravb_desc_set(priv->dbat + i * RAVB_D_SIZE, DT_EOS, 0, 0);
	ravb_desc_set(priv->dbat, DT_LINKFIX, 0,
		      (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, priv->tx.desc));
	ravb_desc_set(priv->dbat + RAVB_DBAT_RX0 * RAVB_D_SIZE, DT_LINKFIX, 0,
		      (uint32_t)ethdrv_dma_to_bus(&priv->bus.dma, priv->rx.desc));
}

static uint32_t mahr(const uint8_t *m)
{
	return (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
}

static uint32_t ecmr_value(const struct ravb_priv *priv)
{
	uint32_t v = ECMR_ZPF | ECMR_TE | ECMR_RE | ECMR_RCPT | ECMR_TXF | ECMR_RXF;

	if (priv->full_duplex)
		v |= ECMR_DM;
	if (priv->dev.rx_flags & ETHDRV_RXF_PROMISC)
		v |= ECMR_PRM;
	return v;
}

/* Step 4: the E-MAC, CXR35 first (docs/gbeth.md §5.2). */
static int emac_init(struct ravb_priv *priv)
{
	const uint8_t *m = priv->dev.mac;
	int ret;

	ravb_wr(priv, RAVB_CXR35, RAVB_CXR35_RGMII);
	ravb_wr(priv, RAVB_CXR31, RAVB_CXR31_SEL_LINK0);
	ravb_wr(priv, RAVB_RFLR, RAVB_RFLR_VALUE);
	ravb_wr(priv, RAVB_ECMR, ecmr_value(priv));
	ravb__mac_link(priv);
	ravb_wr(priv, RAVB_MAHR, mahr(m));
	ravb_wr(priv, RAVB_MALR, (uint32_t)m[4] << 8 | m[5]);
	ravb_wr(priv, RAVB_ECSR, ECSR_ICD | ECSR_LCHNG | ECSR_PFRI);
	/* Checksum engines: off, wait, protocols, on (docs/gbeth.md §7). */
	ravb_wr(priv, RAVB_CSR0, 0);
	ret = ravb_wait(priv, RAVB_CSR0, CSR0_TPE | CSR0_RPE, 0);
	if (ret)
		return ret;
	ravb_wr(priv, RAVB_CSR1, 0);
	ravb_wr(priv, RAVB_CSR2, priv->rx_csum ? CSR2_RX_PROTOS : 0);
	ravb_wr(priv, RAVB_CSR0, priv->rx_csum ? CSR0_TPE | CSR0_RPE : CSR0_TPE);
	ravb_wr(priv, RAVB_ECSIPR, ECSR_ICD);
	return 0;
}

static int ravb_up(struct ravb_priv *priv)
{
	int ret = ravb__set_opmode(priv, CCC_OPC_CONFIG);

	if (ret)
		return ret;
	/* Steps 1-3: DBAT, the rings, the DMAC registers, OPERATION. */
	ravb__rx_init(priv);
	ravb__tx_init(priv);
	dbat_init(priv);
	ravb_wr(priv, RAVB_DBAT, priv->dbat_bus);
	ravb_wr(priv, RAVB_RCR, RAVB_RCR_VALUE);
	ravb_wr(priv, RAVB_RTC, RAVB_RTC_VALUE);
	ravb_wr(priv, RAVB_TGC, RAVB_TGC_VALUE);
	ravb_wr(priv, RAVB_TCCR, 0);
	__atomic_store_n(&priv->ric0, RAVB_Q0, __ATOMIC_RELAXED);
	__atomic_store_n(&priv->tic, RAVB_Q0, __ATOMIC_RELAXED);
	ravb_wr(priv, RAVB_RIC0, RAVB_Q0);
	ravb_wr(priv, RAVB_RIC1, 0);
	ravb_wr(priv, RAVB_RIC2, RAVB_Q0 | RIS2_RFFF);
	ravb_wr(priv, RAVB_TIC, RAVB_Q0);
	ravb__irq_start(priv);
	ret = ravb__set_opmode(priv, CCC_OPC_OPERATION);
	if (!ret)
		ret = emac_init(priv);
	if (ret) {
		ravb__irq_stop(priv);
		ravb__set_opmode(priv, CCC_OPC_RESET);
		ravb__rx_free(priv);
		return ret;
	}
	priv->hw_up = true;
	return 0;
}

/* docs/gbeth.md §9.3: interrupts off, TX drained, E-MAC off, RX drained, CONFIG, counters, RESET. */
static void ravb_down(struct ravb_priv *priv)
{
	static const struct {
		uint32_t reg, mask;
	} waits[] = { { RAVB_TCCR, TCCR_TSRQ0 }, { RAVB_CSR, CSR_TPO0 } };

	if (!priv->hw_up)
		return;
	ravb_wr(priv, RAVB_RIC0, 0);
	ravb_wr(priv, RAVB_RIC2, 0);
	ravb_wr(priv, RAVB_TIC, 0);
	__atomic_store_n(&priv->ric0, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&priv->tic, 0, __ATOMIC_RELAXED);
	ravb__irq_stop(priv);
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(waits); i++)
		if (ravb_wait(priv, waits[i].reg, waits[i].mask, 0))
			ethdrv_counter_inc(&priv->st.stop_timeouts);
	ravb_modify(priv, RAVB_ECMR, ECMR_RE | ECMR_TE, 0);
	if (ravb_wait(priv, RAVB_CSR, CSR_RPO, 0))
		ethdrv_counter_inc(&priv->st.stop_timeouts);
	ravb__set_opmode(priv, CCC_OPC_CONFIG);
	ravb__tx_flush(priv);
	ravb__rx_free(priv);
	ravb__hw_counters(priv);
	ravb__set_opmode(priv, CCC_OPC_RESET);
	priv->hw_up = false;
}

int ravb__restart(struct ravb_priv *priv)
{
	int ret;

	ravb_down(priv);
	ret = ravb_up(priv);
	if (ret) {
		ethdrv_err(&priv->dev, "restart failed, traffic stopped: %d", ret);
		return ret;
	}
	ethdrv_netdev_tx_wake(&priv->dev);
	ethdrv_napi_schedule(priv->napi);
	return 0;
}

/* ---- ops ---- */

static int ravb_open(struct ethdrv_netdev *dev)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);
	int ret = ravb_up(priv);

	if (!ret)
		ret = ravb__phy_start(priv);
	if (ret)
		ravb_down(priv);
	return ret;
}

static int ravb_stop(struct ethdrv_netdev *dev)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);

	ravb__phy_stop(priv);
	ravb_down(priv);
	return 0;
}

static int ravb_set_mac(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN])
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);

	if (priv->hw_up) {
		ravb_wr(priv, RAVB_MAHR, mahr(mac));
		ravb_wr(priv, RAVB_MALR, (uint32_t)mac[4] << 8 | mac[5]);
	}
	return 0;
}

/* PRM follows promiscuous mode; multicast always passes (docs/gbeth.md §5.2). */
static int ravb_set_rx_mode(struct ethdrv_netdev *dev)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);

	if (priv->hw_up)
		ravb_modify(priv, RAVB_ECMR, ECMR_PRM,
			    dev->rx_flags & ETHDRV_RXF_PROMISC ? ECMR_PRM : 0);
	return 0;
}

static int ravb_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);

	ethdrv_link_state_fill(st, priv->hw_up && ethdrv_netdev_carrier_ok(dev), priv->speed_mbps,
			       priv->full_duplex);
	return 0;
}

static int ravb_get_stats(struct ethdrv_netdev *dev)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);

	if (priv->hw_up)
		ravb__hw_counters(priv);
	return 0;
}

static void ravb_destroy(struct ethdrv_netdev *dev)
{
	struct ravb_priv *priv = RAVB_FROM_NETDEV(dev);

	ravb__mdio_free(priv);
	ethdrv_pkt_pool_free(priv->pool);
	mtx_destroy(&priv->imask_lock);
	free(priv->tx.pkt);
	free(priv->tx.bytes);
	free(priv);
}

static const struct ethdrv_netdev_ops ravb_ops = {
	.open = ravb_open,
	.stop = ravb_stop,
	.start_xmit = ravb__start_xmit,
	.set_mac = ravb_set_mac,
	.set_rx_mode = ravb_set_rx_mode,
	.get_link = ravb_get_link,
	.get_stats = ravb_get_stats,
	.set_param = ravb__set_param,
	.get_param = ravb__get_param,
	.destroy = ravb_destroy,
};

/* ---- creation ---- */

static int place(struct ravb_priv *priv)
{
	const struct ethdrv_dma_region *dma = &priv->bus.dma;
	uint8_t *base = dma->virt;
	struct ravb_layout l;

	layout(&priv->cfg, &l);
	if (l.end > dma->size)
		return -ENOSPC;
	priv->dbat = base + l.dbat;
	priv->dbat_bus = (uint32_t)(dma->bus + l.dbat);
	priv->rx.desc = base + l.rx_desc;
	priv->rx.size = priv->cfg.rx_ring;
	priv->rx.buf = base + l.rx_buf;
	priv->rx.buf_bus = (uint32_t)(dma->bus + l.rx_buf);
	priv->tx.desc = base + l.tx_desc;
	priv->tx.align = base + l.tx_align;
	priv->tx.bounce = base + l.tx_bounce;
	priv->tx.size = priv->cfg.tx_ring;
	priv->tx.pkt = calloc(priv->tx.size, sizeof(*priv->tx.pkt));
	priv->tx.bytes = calloc(priv->tx.size, sizeof(*priv->tx.bytes));
	if (!priv->tx.pkt || !priv->tx.bytes)
		return -ENOMEM;
	return ethdrv_pkt_pool_new_in(base + l.pool, dma->size - l.pool, priv->cfg.pool_size,
				      &priv->pool);
}

/* The core's software coalescing defaults of Linux's GbEth probe (docs/gbeth.md §4.2). */
static int sw_coalesce_defaults(struct ravb_priv *priv)
{
	int ret;

	if (priv->cfg.poll_mode == RAVB_POLL_PRE2024)
		return 0;
	ret = ethdrv_netdev_set(&priv->dev, "napi_defer_hard_irqs", "1");
	if (!ret)
		ret = ethdrv_netdev_set(&priv->dev, "gro_flush_timeout", "20000");
	return ret;
}

/* Probe (docs/gbeth.md §9.1): CONFIG, the address, the MDIO bus and PHY, RESET. */
static int ravb_probe(struct ravb_priv *priv)
{
	static const uint8_t zero[ETHDRV_ETH_ALEN];
	int ret = ravb__set_opmode(priv, CCC_OPC_CONFIG);
	uint32_t h, l;

	if (ret)
		return ret;
	if (!memcmp(priv->dev.mac, zero, ETHDRV_ETH_ALEN)) {
		/* The boot loader's address (docs/gbeth.md §5.2). */
		h = ravb_rd(priv, RAVB_MAHR);
		l = ravb_rd(priv, RAVB_MALR);
		priv->dev.mac[0] = (uint8_t)(h >> 24);
		priv->dev.mac[1] = (uint8_t)(h >> 16);
		priv->dev.mac[2] = (uint8_t)(h >> 8);
		priv->dev.mac[3] = (uint8_t)h;
		priv->dev.mac[4] = (uint8_t)(l >> 8);
		priv->dev.mac[5] = (uint8_t)l;
		if ((priv->dev.mac[0] & 1) || !memcmp(priv->dev.mac, zero, ETHDRV_ETH_ALEN)) {
			ethdrv_err(&priv->dev, "no station address: none given, none in MAHR/MALR");
			return -EINVAL;
		}
	}
	ret = ravb__mdio_setup(priv);
	if (!ret)
		ret = ravb__set_opmode(priv, CCC_OPC_RESET);
	return ret;
}

int ravb_create(const struct ravb_config *cfg, const struct ethdrv_mmio_bus *bus,
		struct ethdrv_loop *loop, struct ethdrv_netdev **out)
{
	struct ravb_priv *priv;
	int ret;

	if (!cfg || !loop || !out)
		return -EINVAL;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return -ENOMEM;
	config_resolve(cfg, &priv->cfg);
	ret = config_check(&priv->cfg, bus);
	if (ret)
		goto err_free;
	priv->bus = *bus;
	priv->rx_buf = priv->cfg.rx_buf;
	priv->rx_csum = true;
	priv->poll_mode = priv->cfg.poll_mode;
	priv->speed_mbps = priv->cfg.fixed_link_mbps ? priv->cfg.fixed_link_mbps : 1000;
	priv->full_duplex = true;
	ret = place(priv);
	if (ret)
		goto err_free_rings;
	ret = ethdrv_netdev_init(&priv->dev, cfg->name, &ravb_ops, loop, priv->pool);
	if (ret)
		goto err_free_pool;
	memcpy(priv->dev.mac, cfg->mac, ETHDRV_ETH_ALEN);
	ret = ravb__stats_register(priv);
	if (!ret)
		ret = sw_coalesce_defaults(priv);
	if (!ret)
		ret = ravb__irq_setup(priv);
	if (ret)
		goto err_cleanup;
	ret = ravb_probe(priv);
	if (ret)
		goto err_probe;
	*out = &priv->dev;
	return 0;

err_probe:
	ravb__mdio_free(priv);
	mtx_destroy(&priv->imask_lock);
err_cleanup:
	ethdrv_netdev_cleanup(&priv->dev);
err_free_pool:
	ethdrv_pkt_pool_free(priv->pool);
err_free_rings:
	free(priv->tx.pkt);
	free(priv->tx.bytes);
err_free:
	free(priv);
	return ret;
}

struct ethdrv_pkt_pool *ravb_get_pool(struct ethdrv_netdev *dev)
{
	return RAVB_FROM_NETDEV(dev)->pool;
}
