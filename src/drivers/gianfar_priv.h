/* SPDX-License-Identifier: MIT */
/*
 * gianfar driver internals shared by the gianfar_*.c files.
 *
 * Threads and ownership:
 * - The loop thread runs open/stop, knobs, start_xmit and the error line's
 *   handler (gianfar_napi.c). The RX and TX lines belong to their pollers,
 *   which may run on other loops (the CPU the line is steered to) or in
 *   threads of their own.
 * - The RX poller owns the RX ring and the IEVENT bits RXB|RXF|BSY; the TX
 *   poller owns TX completion and TXB|TXF (docs/etsec.md §8.3). In the
 *   combined mode (napi_split=0) the RX poller owns both
 *   (docs/etsec.md §8.2). Switching modes disables both pollers first.
 * - IMASK is the only state the two pollers and three handlers share: every
 *   update goes through imask_lock (docs/etsec.md §8.3).
 */
#ifndef ETHDRV_DRIVERS_GIANFAR_PRIV_H
#define ETHDRV_DRIVERS_GIANFAR_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <threads.h>

#include "ethdrv/dim.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/phy.h"
#include "gianfar.h"
#include "gianfar_regs.h"

#define GFAR_RX_BUF 1536u /* MRBLR: a multiple of 64 above 1518 (docs/etsec.md §3.5) */
#define GFAR_RX_ALIGN 64u /* RX buffer alignment (docs/etsec.md §3.5) */
#define GFAR_MAXFRM_LEN 1536u
#define GFAR_TX_BOUNCE 2048u

enum { GFAR_RX, GFAR_TX };
enum { GFAR_LINE_TX, GFAR_LINE_RX, GFAR_LINE_ER, GFAR_LINES }; /* docs/etsec.md §8.1 */

/* Driver counters (ethtool -S, "gfar_*"). */
struct gfar_stats {
	ethdrv_counter_t irq_tx; /* TX line handler runs */
	ethdrv_counter_t irq_rx; /* RX line handler runs */
	ethdrv_counter_t irq_er; /* error line handler runs */
	ethdrv_counter_t irq_missed_sched; /* a line fired while its poller was scheduled */
	ethdrv_counter_t irq_spurious; /* a line fired with no enabled event */
	ethdrv_counter_t ev_bsy; /* BSY: frames lost for want of a BD */
	ethdrv_counter_t ev_eberr; /* DMA bus errors */
	ethdrv_counter_t ev_babr; /* babbling receive */
	ethdrv_counter_t ev_txe; /* transmit errors */
	ethdrv_counter_t ev_xfun; /* TX underruns */
	ethdrv_counter_t ev_other; /* other error events */
	ethdrv_counter_t rx_alloc_failed; /* no pool buffer to refill: frame dropped */
	ethdrv_counter_t rx_multi_bd; /* BDs of frames spanning several (dropped) */
	ethdrv_counter_t rx_bad_len; /* a length no correct MAC reports */
	ethdrv_counter_t tx_ring_full; /* queue stopped at ring full */
	ethdrv_counter_t tx_ring_wake; /* queue woken by completions */
	ethdrv_counter_t tx_bounce; /* frames copied into a bounce buffer */
	ethdrv_counter_t polls_tx_budget; /* 3.6 mode: polls that returned the whole budget
					     because TX was reclaimed (docs/etsec.md §8.2) */
	ethdrv_counter_t coal_rewrites; /* 3.6 mode: coalescing re-programmed at completion */
	ethdrv_counter_t restarts; /* controller restarts after EBERR */
	ethdrv_counter_t graceful_timeouts; /* graceful stops that never completed */
	ethdrv_counter_t dim_changes; /* adaptive-rx/-tx profile changes */
	ethdrv_counter_t rdrp_carries; /* RDRP wraps (CAR1[C1RDR], docs/etsec.md §7) */
};

struct gfar_rx_ring {
	uint8_t *bd; /* BD 0 */
	uint32_t bd_bus; /* RBASE0 */
	unsigned size; /* a power of two */
	unsigned next; /* next BD to look at (free-running) */
	bool dropping; /* inside a frame that spans BDs */
	struct ethdrv_pkt **pkt; /* each BD's buffer */
};

struct gfar_tx_ring {
	uint8_t *bd; /* BD 0 */
	uint32_t bd_bus; /* TBASE0 */
	unsigned size;
	unsigned head; /* next BD to fill, atomic */
	unsigned tail; /* next BD to reclaim, atomic */
	int stopped; /* the driver stopped the queue, atomic */
	struct ethdrv_pkt **pkt; /* each BD's frame, NULL when bounced */
	uint32_t *bytes; /* BQL bytes per BD */
	uint8_t *bounce; /* size x GFAR_TX_BOUNCE */
};

/* One direction's coalescing, ethtool -C style (docs/etsec.md §6). */
struct gfar_coal {
	unsigned ticks; /* rx-usecs / tx-usecs in 64-clock ticks (docs/etsec.md §6) */
	unsigned frames; /* rx-frames / tx-frames */
	bool adaptive; /* adaptive-rx / adaptive-tx */
	struct ethdrv_dim dim; /* owned by the direction's poller */
	uint32_t events, pkts, bytes; /* DIM sample sums (events atomic) */
};

struct gfar_priv {
	struct ethdrv_netdev dev; /* must be first */
	struct gfar_config cfg; /* immutable */
	struct ethdrv_mmio_bus bus;
	struct ethdrv_pkt_pool *pool; /* in the DMA region */
	struct gfar_rx_ring rx;
	struct gfar_tx_ring tx;
	struct ethdrv_napi *napi_rx; /* "rx": RX, and TX confirmation when combined */
	struct ethdrv_napi *napi_tx; /* "tx": TX confirmation when split */
	bool split; /* napi_split; changed only with both pollers disabled */
	mtx_t imask_lock; /* the group lock: protects imask and IMASK */
	mtx_t rmon_lock; /* the RMON harvest: the stats timer and the error line's MSRO */
	uint32_t imask; /* IMASK as written; atomic */
	struct ethdrv_watch er_watch; /* the error line (RX and TX lines: the pollers') */
	struct ethdrv_timer stats_timer; /* RMON harvest */
	/* Restart after EBERR, on the device's loop: the error line's handler
	 * may run in a softirq loop (contexts=irq). */
	struct ethdrv_async restart_async;
	bool restart_pending; /* atomic: restart_async sent and not yet run */
	bool hw_up; /* rings and pollers running (loop thread) */
	struct gfar_coal coal[2];
	struct gfar_stats st;
	struct ethdrv_mdio_bus *mii_bus; /* the MIIM block (gianfar_mdio.c) */
	unsigned speed_mbps; /* the MAC is programmed for */
	bool full_duplex;
	ethdrv_counter_t *rmon; /* 64-bit RMON counters (gianfar_ethtool.c) */
	uint32_t *rmon_last;
	struct ethdrv_stat_desc *rmon_desc;
};

#define GFAR_FROM_NETDEV(d) ethdrv_container_of(d, struct gfar_priv, dev)

static inline uint32_t gfar_rd(const struct gfar_priv *p, uint32_t off)
{
	return ethdrv_mmio_read32(&p->bus, off);
}

static inline void gfar_wr(const struct gfar_priv *p, uint32_t off, uint32_t val)
{
	ethdrv_mmio_write32(&p->bus, off, val);
}

/* BD halfwords and words in the memory order DMACTRL[LE] selects (docs/etsec.md §3.1). */
static inline uint16_t gfar_bd16(const struct gfar_priv *p, uint16_t v)
{
	return p->cfg.le_bd == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ? v :
									     __builtin_bswap16(v);
}

static inline uint32_t gfar_bd32(const struct gfar_priv *p, uint32_t v)
{
	return p->cfg.le_bd == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ? v :
									     __builtin_bswap32(v);
}

/* gianfar_ring.c */
int gfar__rx_init(struct gfar_priv *priv);
void gfar__rx_free(struct gfar_priv *priv);
int gfar__rx_clean(struct gfar_priv *priv, int budget);
void gfar__tx_init(struct gfar_priv *priv);
int gfar__start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt);
unsigned gfar__tx_clean(struct gfar_priv *priv);
void gfar__tx_flush(struct gfar_priv *priv);

/* gianfar_napi.c */
int gfar__napi_setup(struct gfar_priv *priv);
void gfar__napi_start(struct gfar_priv *priv);
void gfar__napi_stop(struct gfar_priv *priv);
int gfar__set_split(struct gfar_priv *priv, bool split);
void gfar__imask_update(struct gfar_priv *priv, uint32_t set, uint32_t clear);
void gfar__pollers_pause(struct gfar_priv *priv);
void gfar__pollers_resume(struct gfar_priv *priv);

/* gianfar_ethtool.c */
int gfar__stats_register(struct gfar_priv *priv);
void gfar__stats_free(struct gfar_priv *priv);
void gfar__rmon_harvest(struct gfar_priv *priv);
void gfar__rmon_rebase(struct gfar_priv *priv);
void gfar__coal_defaults(struct gfar_priv *priv);
void gfar__coal_write(struct gfar_priv *priv, unsigned dir);
void gfar__dim_sample(struct gfar_priv *priv, unsigned dir);
int gfar__set_param(struct ethdrv_netdev *dev, const char *key, const char *value);
int gfar__get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size);

/* gianfar_main.c */
void gfar__schedule_restart(struct gfar_priv *priv);
void gfar__restart_hw(struct gfar_priv *priv);

/* gianfar_mdio.c */
void gfar__program_link(struct gfar_priv *priv);
int gfar__mdio_setup(struct gfar_priv *priv);
int gfar__phy_start(struct gfar_priv *priv);
void gfar__phy_stop(struct gfar_priv *priv);
int gfar__mdio_set_param(struct gfar_priv *priv, const char *key, const char *value);
int gfar__mdio_get_param(struct gfar_priv *priv, const char *key, char *buf, size_t size);

#endif /* ETHDRV_DRIVERS_GIANFAR_PRIV_H */
