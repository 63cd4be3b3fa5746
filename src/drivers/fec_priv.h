/* SPDX-License-Identifier: MIT */
/*
 * ENET driver internals shared by the fec_*.c files: the private device
 * struct, the rings, the counters and the calls between the parts.
 *
 * Threads and ownership:
 * - The loop thread runs open/stop, knobs, start_xmit and the interrupt
 *   handler (fec_irq.c).
 * - The RX poller owns the RX ring; the TX ring's producer is start_xmit,
 *   its consumer the poller that does TX completion (the TX poller when
 *   split, the RX poller when combined). NAPI ownership orders the
 *   handover when napi_split changes (both pollers are disabled then).
 *   Pollers may run in their own threads (threaded=1).
 * - EIMR is shared by the handler, both pollers and the MDIO bus: every
 *   write of it goes through fec__imask_set()/fec__imask_clear() under
 *   imask_lock (gianfar's shared mask register, docs/napi.md §4.1).
 */
#ifndef ETHDRV_DRIVERS_FEC_PRIV_H
#define ETHDRV_DRIVERS_FEC_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <threads.h>

#include "ethdrv/dim.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/phy.h"
#include "fec.h"
#include "fec_regs.h"

#define FEC_RX_BUF_SIZE 1536u /* MRBR: a multiple of 16 above MAX_FL (docs/enet.md §3.5) */
#define FEC_RX_BUF_ALIGN 64u /* RX buffer alignment of multi-queue parts (docs/enet.md §3.5) */
#define FEC_MAX_FL 1522u /* a VLAN-tagged frame with FCS */
#define FEC_TX_BOUNCE_SIZE 2048u /* bounce buffer per TX BD */

/* Driver counters (ethtool -S, "fec_*"). */
struct fec_stats {
	ethdrv_counter_t irqs; /* interrupt handler runs */
	ethdrv_counter_t irq_spurious; /* runs that found no enabled event */
	ethdrv_counter_t irq_rxf; /* RXF events taken */
	ethdrv_counter_t irq_txf; /* TXF events taken */
	ethdrv_counter_t irq_eberr; /* DMA bus errors */
	ethdrv_counter_t irq_babr; /* babbling receive */
	ethdrv_counter_t irq_babt; /* babbling transmit */
	ethdrv_counter_t irq_un; /* TX underrun */
	ethdrv_counter_t irq_other; /* any other enabled event */
	ethdrv_counter_t rx_missed; /* frames the device dropped for want of a BD (IEEE_R_DROP) */
	ethdrv_counter_t rx_alloc_failed; /* no pool buffer to refill: frame dropped */
	ethdrv_counter_t rx_multi_bd; /* BDs of frames that spanned several (dropped) */
	ethdrv_counter_t rx_bad_len; /* a length the device should never report */
	ethdrv_counter_t tx_ring_full; /* queue stopped at ring full */
	ethdrv_counter_t tx_ring_wake; /* queue woken by completions */
	ethdrv_counter_t tx_bounce; /* frames copied into a bounce buffer */
	ethdrv_counter_t tx_errors_bd; /* enhanced BDs written back with errors */
	ethdrv_counter_t restarts; /* controller restarts after EBERR */
	ethdrv_counter_t gra_timeouts; /* graceful stops that never completed */
	ethdrv_counter_t dim_rx_changes; /* adaptive-rx profile changes */
	ethdrv_counter_t dim_tx_changes; /* adaptive-tx profile changes */
};

struct fec_rx_ring {
	uint8_t *bd; /* BD 0 */
	uint32_t bd_bus; /* its bus address (RDSR) */
	unsigned size; /* BDs, power of two */
	unsigned next; /* next BD to look at (free-running) */
	bool discard; /* dropping the rest of a frame that spans BDs */
	struct ethdrv_pkt **pkt; /* the buffer of each BD */
};

struct fec_tx_ring {
	uint8_t *bd; /* BD 0 */
	uint32_t bd_bus; /* its bus address (TDSR) */
	unsigned size; /* BDs, power of two */
	unsigned head; /* next BD to fill (start_xmit), atomic */
	unsigned tail; /* next BD to reclaim (completion), atomic */
	int stopped; /* the driver stopped the queue (ring full), atomic */
	struct ethdrv_pkt **pkt; /* the frame of each BD, NULL when bounced */
	uint32_t *bytes; /* BQL bytes of each BD's frame */
	uint8_t *bounce; /* size x FEC_TX_BOUNCE_SIZE bytes */
};

/* Interrupt coalescing of one direction, ethtool -C style. */
struct fec_coal {
	unsigned usecs; /* rx-usecs / tx-usecs */
	unsigned frames; /* rx-frames / tx-frames */
	bool adaptive; /* adaptive-rx / adaptive-tx (net DIM) */
	struct ethdrv_dim dim; /* DIM state, owned by the direction's poller */
	uint32_t events; /* interrupts of this direction, for DIM samples */
	uint32_t pkts; /* packets, for DIM samples */
	uint32_t bytes; /* bytes, for DIM samples */
};

enum { FEC_RX, FEC_TX };

struct fec_priv {
	struct ethdrv_netdev dev; /* must be first (docs/style.md S3) */
	struct fec_config cfg; /* immutable */
	struct ethdrv_mmio_bus bus; /* registers, DMA region, IRQ fds */
	struct ethdrv_pkt_pool *pool; /* in the DMA region */
	unsigned bd_size; /* 8 or 32 */
	struct fec_rx_ring rx; /* RX ring */
	struct fec_tx_ring tx; /* TX ring */
	struct ethdrv_napi *napi_rx; /* "rx": RX, and TX completion when combined */
	struct ethdrv_napi *napi_tx; /* "tx": TX completion when split */
	bool split; /* napi_split, changed only with both pollers disabled */
	uint32_t ev_poll[2]; /* events each poller owns (FEC_RX/FEC_TX); atomic */
	mtx_t imask_lock; /* protects eimr and the EIMR register */
	uint32_t eimr; /* EIMR as written; atomic reads outside the lock */
	struct ethdrv_watch irq_watch; /* int0 */
	struct ethdrv_timer stats_timer; /* harvests the 32-bit MIB counters */
	/* Restarts after a DMA bus error, on the device's loop: the handler
	 * that sees the error may run in a softirq loop (contexts=irq). */
	struct ethdrv_async restart_async;
	bool restart_pending; /* atomic: restart_async sent and not yet run */
	bool hw_up; /* rings and pollers running (loop thread) */
	struct fec_coal coal[2]; /* FEC_RX, FEC_TX */
	struct fec_stats st; /* driver counters */
	struct ethdrv_mdio_bus *mii_bus; /* the MDIO controller (fec_mdio.c) */
	uint32_t mscr; /* MSCR as programmed */
	unsigned speed_mbps; /* the speed the MAC is programmed for (PHY or fixed link) */
	bool full_duplex; /* the duplex it is programmed for */
	ethdrv_counter_t *mib; /* 64-bit MIB counters (fec_ethtool.c) */
	uint32_t *mib_last; /* last 32-bit reading of each MIB register */
	struct ethdrv_stat_desc *mib_desc; /* their names in the stats set */
};

#define FEC_FROM_NETDEV(d) ethdrv_container_of(d, struct fec_priv, dev)

static inline uint32_t fec_rd(const struct fec_priv *priv, uint32_t off)
{
	return ethdrv_mmio_read32(&priv->bus, off);
}

static inline void fec_wr(const struct fec_priv *priv, uint32_t off, uint32_t val)
{
	ethdrv_mmio_write32(&priv->bus, off, val);
}

/* fec_rx.c */
int fec__rx_init(struct fec_priv *priv);
void fec__rx_free(struct fec_priv *priv);
int fec__rx_clean(struct fec_priv *priv, int budget);

/* fec_tx.c */
void fec__tx_init(struct fec_priv *priv);
int fec__tx_start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt);
unsigned fec__tx_clean(struct fec_priv *priv);
void fec__tx_flush(struct fec_priv *priv);

/* fec_irq.c */
int fec__irq_setup(struct fec_priv *priv);
void fec__irq_start(struct fec_priv *priv);
void fec__irq_stop(struct fec_priv *priv);
int fec__irq_set_split(struct fec_priv *priv, bool split);
void fec__pollers_pause(struct fec_priv *priv);
void fec__pollers_resume(struct fec_priv *priv);
void fec__imask_set(struct fec_priv *priv, uint32_t bits);
void fec__imask_clear(struct fec_priv *priv, uint32_t bits);

/* fec_ethtool.c */
int fec__stats_register(struct fec_priv *priv);
void fec__stats_free(struct fec_priv *priv);
void fec__mib_harvest(struct fec_priv *priv);
void fec__mib_clear(struct fec_priv *priv);
void fec__coal_defaults(struct fec_priv *priv);
void fec__coal_apply(struct fec_priv *priv, unsigned dir);
void fec__dim_sample(struct fec_priv *priv, unsigned dir);
int fec__set_param(struct ethdrv_netdev *dev, const char *key, const char *value);
int fec__get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size);

/* fec_main.c */
void fec__schedule_restart(struct fec_priv *priv);
/* Stop and bring the controller up again (loop thread, hw_up). */
void fec__restart_hw(struct fec_priv *priv);

/* fec_mdio.c */
/* Create the MDIO bus, program MSCR, find and probe the PHY (create). */
int fec__mdio_setup(struct fec_priv *priv);
void fec__mdio_free(struct fec_priv *priv);
/* Hold the bus around ECR.RESET; unlock restores MSCR and EIMR.MII. */
void fec__mdio_hw_lock(struct fec_priv *priv);
void fec__mdio_hw_unlock(struct fec_priv *priv);
/* While the MAC is down: ETHEREN stays set for the MII interrupt. */
void fec__mdio_keep_enabled(struct fec_priv *priv);
int fec__phy_start(struct fec_priv *priv);
void fec__phy_stop(struct fec_priv *priv);
/* The MDIO/PHY knobs; -ENOENT for other keys. */
int fec__mdio_set_param(struct fec_priv *priv, const char *key, const char *value);
int fec__mdio_get_param(struct fec_priv *priv, const char *key, char *buf, size_t size);

#endif /* ETHDRV_DRIVERS_FEC_PRIV_H */
