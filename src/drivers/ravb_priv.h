/* SPDX-License-Identifier: MIT */
/*
 * GbEth driver internals shared by the ravb_*.c files: registers
 * (docs/gbeth.md §1), descriptors (docs/gbeth.md §3.1), the private struct.
 *
 * Threads: the loop thread runs open/stop, knobs, start_xmit and the
 * interrupt handler; the poller (its own thread when threaded) owns the
 * RX ring and reclaims the TX ring. RIC0/TIC are shared by the handler
 * and the poller: imask_lock protects them (no set/clear registers on
 * GbEth, docs/gbeth.md §4.3).
 */
#ifndef ETHDRV_DRIVERS_RAVB_PRIV_H
#define ETHDRV_DRIVERS_RAVB_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <threads.h>

#include "ethdrv/bits.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/mdio_bitbang.h"
#include "ethdrv/napi.h"
#include "ethdrv/netdev.h"
#include "ethdrv/phy.h"
#include "ethdrv/pkt.h"
#include "ravb.h"

/* AVB-DMAC (docs/gbeth.md §1.1). */
#define RAVB_CCC 0x000u
#define RAVB_DBAT 0x004u
#define RAVB_CSR 0x00Cu
#define RAVB_RCR 0x090u
#define RAVB_RTC 0x0B4u
#define RAVB_TGC 0x300u
#define RAVB_TCCR 0x304u
#define RAVB_EIS 0x35Cu
#define RAVB_RIC0 0x360u
#define RAVB_RIS0 0x364u
#define RAVB_RIC1 0x368u
#define RAVB_RIC2 0x370u
#define RAVB_RIS2 0x374u
#define RAVB_TIC 0x378u
#define RAVB_TIS 0x37Cu
#define RAVB_ISS 0x380u
/* E-MAC (docs/gbeth.md §1.2). */
#define RAVB_ECMR 0x500u
#define RAVB_RFLR 0x508u
#define RAVB_ECSR 0x510u
#define RAVB_ECSIPR 0x518u
#define RAVB_PIR 0x520u
#define RAVB_CXR31 0x530u
#define RAVB_CXR35 0x540u
#define RAVB_GECMR 0x5B0u
#define RAVB_MAHR 0x5C0u
#define RAVB_MALR 0x5C8u
#define RAVB_TROCR 0x700u
#define RAVB_CXR41 0x708u
#define RAVB_CXR42 0x710u
/* TOE (docs/gbeth.md §1.3). */
#define RAVB_CSR0 0x800u
#define RAVB_CSR1 0x804u
#define RAVB_CSR2 0x808u

#define CCC_OPC ETHDRV_GENMASK(1, 0)
#define CCC_OPC_RESET 0u
#define CCC_OPC_CONFIG 1u
#define CCC_OPC_OPERATION 2u
#define CSR_OPS ETHDRV_GENMASK(3, 0)
#define CSR_TPO0 ETHDRV_BIT(16)
#define CSR_RPO ETHDRV_BIT(20)
#define TCCR_TSRQ0 ETHDRV_BIT(0)
#define RAVB_Q0 ETHDRV_BIT(0) /* FRE0/FRF0, QFE0/QFF0, FTE0/FTF0 */
#define RIS0_RESERVED ETHDRV_GENMASK(31, 18)
#define RIS2_QFF0 ETHDRV_BIT(0)
#define RIS2_RFFF ETHDRV_BIT(31)
#define RIS2_RESERVED ETHDRV_GENMASK(30, 18)
#define TIS_RESERVED (ETHDRV_GENMASK(31, 20) | ETHDRV_GENMASK(15, 12) | ETHDRV_GENMASK(7, 4))
#define EIS_RESERVED (ETHDRV_GENMASK(31, 17) | ETHDRV_GENMASK(15, 11))
#define EIS_QFS ETHDRV_BIT(16)
#define ISS_FRS ETHDRV_BIT(0)
#define ISS_FTS ETHDRV_BIT(2)
#define ISS_ES ETHDRV_BIT(6)
#define ISS_MS ETHDRV_BIT(7)
#define ECMR_PRM ETHDRV_BIT(0)
#define ECMR_DM ETHDRV_BIT(1)
#define ECMR_TE ETHDRV_BIT(5)
#define ECMR_RE ETHDRV_BIT(6)
#define ECMR_TXF ETHDRV_BIT(16)
#define ECMR_RXF ETHDRV_BIT(17)
#define ECMR_ZPF ETHDRV_BIT(19)
#define ECMR_RCPT ETHDRV_BIT(25)
#define ECSR_ICD ETHDRV_BIT(0)
#define ECSR_LCHNG ETHDRV_BIT(2)
#define ECSR_PFRI ETHDRV_BIT(4)
#define PIR_MDC ETHDRV_BIT(0)
#define PIR_MMD ETHDRV_BIT(1)
#define PIR_MDO ETHDRV_BIT(2)
#define PIR_MDI ETHDRV_BIT(3)
#define GECMR_SPEED ETHDRV_GENMASK(5, 4)
#define CSR0_TPE ETHDRV_BIT(4)
#define CSR0_RPE ETHDRV_BIT(5)
/* CSR2: TCP/UDP/ICMP over IPv4 and IPv6, as the newest Linux (docs/gbeth.md §7). */
#define CSR2_RX_PROTOS                                                                     \
	(ETHDRV_BIT(4) | ETHDRV_BIT(5) | ETHDRV_BIT(6) | ETHDRV_BIT(20) | ETHDRV_BIT(21) | \
	 ETHDRV_BIT(22))

/* Descriptors (docs/gbeth.md §3.1). */
#define RAVB_D_DS 0u
#define RAVB_D_CTL 2u /* MSC 7:0, DIE 11:8, DT 15:12 */
#define RAVB_D_PTR 4u
#define RAVB_D_SIZE 8u
#define RAVB_DS_MASK 0x0FFFu
#define RAVB_DT_SHIFT 12
#define RAVB_MSC_MASK 0xFFu
enum ravb_dt {
	DT_EEMPTY = 0x3,
	DT_FMID = 0x4,
	DT_FSTART = 0x5,
	DT_FEND = 0x6,
	DT_FSINGLE = 0x7,
	DT_LINKFIX = 0x9,
	DT_EOS = 0xA,
	DT_FEMPTY = 0xC,
};
#define MSC_CRC 0x01u
#define MSC_RFE 0x02u
#define MSC_RTSF 0x04u
#define MSC_RTLF 0x08u
#define MSC_FRE 0x10u
#define MSC_CEEF 0x40u
#define MSC_MC 0x80u
#define MSC_ERRORS (MSC_CRC | MSC_RFE | MSC_RTSF | MSC_RTLF | MSC_CEEF)
#define RAVB_DBAT_ENTRIES 22u
#define RAVB_DBAT_RX0 4u

#define RAVB_TX_MAX 1522u /* docs/gbeth.md §3.3 */
#define RAVB_RFLR_VALUE (8192u + 4u) /* docs/gbeth.md §9.2 */
#define RAVB_CSUM_TRAILER 4u

/* Driver counters (ethtool -S, "ravb_*"). */
struct ravb_stats {
	ethdrv_counter_t irqs; /* handler runs */
	ethdrv_counter_t irq_spurious; /* runs with no enabled status */
	ethdrv_counter_t irq_rx; /* FRF0 taken */
	ethdrv_counter_t irq_tx; /* FTF0 taken */
	ethdrv_counter_t irq_err; /* error summary taken */
	ethdrv_counter_t irq_emac; /* E-MAC summary taken */
	ethdrv_counter_t rx_over_errors; /* RIS2.QFF0: descriptor empty (hardware drop) */
	ethdrv_counter_t rx_fifo_errors; /* RIS2.RFFF */
	ethdrv_counter_t rx_multi_desc; /* frames received over several descriptors */
	ethdrv_counter_t rx_orphan_parts; /* FMID/FEND without FSTART (dropped) */
	ethdrv_counter_t rx_too_long; /* frames longer than a packet holds (dropped) */
	ethdrv_counter_t rx_alloc_failed; /* no pool packet: frame dropped */
	ethdrv_counter_t rx_ds0; /* written-back descriptors with DS = 0 (skipped) */
	ethdrv_counter_t rx_bad_desc; /* types no RX descriptor should have */
	ethdrv_counter_t rx_csum_ok; /* trailer: protocol checksum good */
	ethdrv_counter_t rx_csum_bad; /* trailer: protocol checksum wrong */
	ethdrv_counter_t tx_ring_full; /* queue stopped */
	ethdrv_counter_t tx_ring_wake; /* queue woken */
	ethdrv_counter_t tx_bounce; /* frames copied to a bounce buffer */
	ethdrv_counter_t tx_too_long; /* frames over 1522 bytes refused */
	ethdrv_counter_t polls_early_return; /* pre2024: polls that skipped TX and counters */
	ethdrv_counter_t mode_timeouts; /* operating-mode changes that did not complete */
	ethdrv_counter_t stop_timeouts; /* stop waits (TSRQ0, TPO0, RPO) that expired */
};

struct ravb_rx_ring {
	uint8_t *desc; /* descriptor 0 */
	uint8_t *buf; /* rx_ring x rx_buf bytes */
	uint32_t buf_bus; /* bus address of buf */
	unsigned size; /* descriptors, power of two (plus a LINKFIX) */
	unsigned next; /* next descriptor to look at, free-running */
	struct ethdrv_pkt *asm_pkt; /* the frame being reassembled from several parts */
	unsigned asm_parts; /* descriptors of that frame so far */
	bool asm_drop; /* the rest of the current frame is dropped */
};

struct ravb_tx_ring {
	uint8_t *desc; /* descriptor 0: 2 per slot, then a LINKFIX */
	uint8_t *align; /* 4 bytes per slot: the FSTART part (docs/gbeth.md §3.3) */
	uint8_t *bounce; /* RAVB_TX_MAX bytes per slot */
	unsigned size; /* slots (frames), power of two */
	unsigned head; /* next slot to fill, atomic */
	unsigned tail; /* next slot to reclaim, atomic */
	int stopped; /* the driver stopped the queue, atomic */
	struct ethdrv_pkt **pkt; /* each slot's frame, NULL when bounced */
	uint32_t *bytes; /* its BQL bytes */
};

struct ravb_priv {
	struct ethdrv_netdev dev; /* first (docs/style.md S3) */
	struct ravb_config cfg; /* immutable but for the knobs below */
	struct ethdrv_mmio_bus bus; /* registers, DMA, IRQ */
	struct ethdrv_pkt_pool *pool; /* in the DMA region */
	uint8_t *dbat; /* the descriptor base address table */
	uint32_t dbat_bus;
	struct ravb_rx_ring rx;
	struct ravb_tx_ring tx;
	unsigned rx_buf; /* the rx-buf knob: bytes per RX descriptor */
	bool rx_csum; /* CSR0.RPE on: every frame carries the trailer (docs/gbeth.md §7) */
	int poll_mode; /* enum ravb_poll_mode, atomic (the poller reads it) */
	struct ethdrv_napi *napi; /* the one poller: RX and TX */
	mtx_t imask_lock; /* RIC0/TIC read-modify-write */
	uint32_t ric0, tic; /* as written; atomic for the handler's read */
	struct ethdrv_watch irq_watch; /* the `mux` line */
	bool hw_up; /* rings and poller running (loop thread) */
	unsigned speed_mbps; /* programmed in GECMR */
	bool full_duplex; /* programmed in ECMR.DM */
	ethdrv_counter_t err_over, err_fifo; /* error events the handler saw, copied per poll */
	struct ravb_stats st;
	struct ethdrv_mdio_bb bb; /* the PIR bit-bang controller */
	struct ethdrv_mdio_bus *mii_bus;
};

#define RAVB_FROM_NETDEV(d) ethdrv_container_of(d, struct ravb_priv, dev)

static inline uint32_t ravb_rd(const struct ravb_priv *priv, uint32_t off)
{
	return ethdrv_mmio_read32(&priv->bus, off);
}

static inline void ravb_wr(const struct ravb_priv *priv, uint32_t off, uint32_t val)
{
	ethdrv_mmio_write32(&priv->bus, off, val);
}

static inline void ravb_modify(const struct ravb_priv *priv, uint32_t off, uint32_t clear,
			       uint32_t set)
{
	ravb_wr(priv, off, (ravb_rd(priv, off) & ~clear) | set);
}

/* A descriptor's type, read first with acquire (docs/gbeth.md §3.1). */
static inline unsigned ravb_desc_dt(const uint8_t *d)
{
	return ethdrv_dma_load16_acquire(d + RAVB_D_CTL) >> RAVB_DT_SHIFT;
}

/* DS and DPTR, then the type last with release. */
static inline void ravb_desc_set(uint8_t *d, unsigned dt, uint16_t ds, uint32_t ptr)
{
	ethdrv_dma_store16(d + RAVB_D_DS, ds);
	ethdrv_dma_store32(d + RAVB_D_PTR, ptr);
	ethdrv_dma_store16_release(d + RAVB_D_CTL, (uint16_t)(dt << RAVB_DT_SHIFT));
}

/* ravb_main.c */
int ravb__set_opmode(struct ravb_priv *priv, unsigned opc);
int ravb__restart(struct ravb_priv *priv);

/* ravb_rx.c */
void ravb__rx_init(struct ravb_priv *priv);
void ravb__rx_free(struct ravb_priv *priv);
/* Receive up to @budget packets (2024) or descriptors (pre2024); the work done. */
int ravb__rx(struct ravb_priv *priv, int budget, bool count_descs);

/* ravb_tx.c */
void ravb__tx_init(struct ravb_priv *priv);
int ravb__start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt);
unsigned ravb__tx_clean(struct ravb_priv *priv);
void ravb__tx_flush(struct ravb_priv *priv);

/* ravb_irq.c */
int ravb__irq_setup(struct ravb_priv *priv);
void ravb__irq_start(struct ravb_priv *priv);
void ravb__irq_stop(struct ravb_priv *priv);

/* ravb_mdio.c */
int ravb__mdio_setup(struct ravb_priv *priv);
void ravb__mdio_free(struct ravb_priv *priv);
int ravb__phy_start(struct ravb_priv *priv);
void ravb__phy_stop(struct ravb_priv *priv);
/* GECMR and ECMR.DM for the current link (docs/gbeth.md §9.2 step 5). */
void ravb__mac_link(struct ravb_priv *priv);

/* ravb_ethtool.c */
int ravb__stats_register(struct ravb_priv *priv);
void ravb__hw_counters(struct ravb_priv *priv);
void ravb__errors_copy(struct ravb_priv *priv);
int ravb__set_param(struct ethdrv_netdev *dev, const char *key, const char *value);
int ravb__get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size);

#endif /* ETHDRV_DRIVERS_RAVB_PRIV_H */
