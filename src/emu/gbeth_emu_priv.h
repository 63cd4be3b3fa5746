/* SPDX-License-Identifier: MIT */
/*
 * GbEth model internals shared by gbeth_emu*.c: register offsets and bits
 * (docs/gbeth.md §1), descriptor layout (docs/gbeth.md §3.1), the model's
 * state. The host's lock covers all of it.
 */
#ifndef ETHDRV_EMU_GBETH_EMU_PRIV_H
#define ETHDRV_EMU_GBETH_EMU_PRIV_H

#include "emu_engine.h"
#include "emu_fault.h"
#include "emu_util.h"
#include "fdx_mac.h"
#include "ethdrv/bits.h"
#include "gbeth_emu.h"
#include "mdio_bb_emu.h"
#include "mdio_emu.h"

/* AVB-DMAC (docs/gbeth.md §1.1). */
#define G_CCC 0x000u
#define G_DBAT 0x004u
#define G_CSR 0x00Cu
#define G_RCR 0x090u
#define G_RTC 0x0B4u
#define G_TGC 0x300u
#define G_TCCR 0x304u
#define G_EIC 0x358u
#define G_EIS 0x35Cu
#define G_RIC0 0x360u
#define G_RIS0 0x364u
#define G_RIC1 0x368u
#define G_RIS1 0x36Cu
#define G_RIC2 0x370u
#define G_RIS2 0x374u
#define G_TIC 0x378u
#define G_TIS 0x37Cu
#define G_ISS 0x380u
#define G_RIC3 0x388u
/* E-MAC (docs/gbeth.md §1.2). */
#define G_ECMR 0x500u
#define G_RFLR 0x508u
#define G_ECSR 0x510u
#define G_ECSIPR 0x518u
#define G_PIR 0x520u
#define G_PSR 0x528u
#define G_CXR31 0x530u
#define G_CXR35 0x540u
#define G_GECMR 0x5B0u
#define G_MAHR 0x5C0u
#define G_MALR 0x5C8u
#define G_TROCR 0x700u
#define G_CXR41 0x708u
#define G_CXR42 0x710u
/* TOE (docs/gbeth.md §1.3). */
#define G_CSR0 0x800u
#define G_CSR1 0x804u
#define G_CSR2 0x808u

#define CCC_OPC ETHDRV_GENMASK(1, 0)
#define OPC_RESET 0u
#define OPC_CONFIG 1u
#define OPC_OPERATION 2u
#define CSR_OPS ETHDRV_GENMASK(3, 0)
#define CSR_TPO0 ETHDRV_BIT(16)
#define CSR_RPO ETHDRV_BIT(20)
#define TCCR_TSRQ0 ETHDRV_BIT(0)
#define Q0 ETHDRV_BIT(0) /* FRE0/FRF0, QFE0/QFF0, FTE0/FTF0 */
#define RIS2_RFFF ETHDRV_BIT(31)
#define EIS_QFS ETHDRV_BIT(16)
#define ISS_FRS ETHDRV_BIT(0)
#define ISS_FTS ETHDRV_BIT(2)
#define ISS_ES ETHDRV_BIT(6)
#define ISS_MS ETHDRV_BIT(7)
#define ECMR_PRM ETHDRV_BIT(0)
#define ECMR_TE ETHDRV_BIT(5)
#define ECMR_RE ETHDRV_BIT(6)
#define PIR_MDC ETHDRV_BIT(0)
#define PIR_MMD ETHDRV_BIT(1)
#define PIR_MDO ETHDRV_BIT(2)
#define PIR_MDI ETHDRV_BIT(3)
#define PSR_LMON ETHDRV_BIT(0)
#define GECMR_SPEED ETHDRV_GENMASK(5, 4)
#define CSR0_TPE ETHDRV_BIT(4)
#define CSR0_RPE ETHDRV_BIT(5)
#define CSR2_RIP4 ETHDRV_BIT(0)
#define CSR2_RTCP4 ETHDRV_BIT(4)
#define CSR2_RUDP4 ETHDRV_BIT(5)
#define CSR2_RTCP6 ETHDRV_BIT(20)
#define CSR2_RUDP6 ETHDRV_BIT(21)

/* Reserved bits ignore writes (docs/gbeth.md §4.1). */
#define RIS0_BITS ETHDRV_GENMASK(17, 0)
#define RIS2_BITS (ETHDRV_GENMASK(17, 0) | RIS2_RFFF)
#define TIS_BITS (ETHDRV_GENMASK(3, 0) | ETHDRV_GENMASK(11, 8) | ETHDRV_GENMASK(19, 16))
#define EIS_BITS (ETHDRV_GENMASK(10, 0) | EIS_QFS)
#define ECSR_BITS ETHDRV_GENMASK(4, 0)

/* Descriptors (docs/gbeth.md §3.1). */
#define D_DS 0u /* 16-bit: DS 11:0 */
#define D_CTL 2u /* 16-bit: MSC 7:0, DIE 11:8, DT 15:12 */
#define D_PTR 4u /* 32-bit DPTR */
#define D_SIZE 8u
#define DS_MASK 0x0FFFu
#define DT_SHIFT 12
enum gbeth_dt {
	DT_LEMPTY = 0x2,
	DT_EEMPTY = 0x3,
	DT_FMID = 0x4,
	DT_FSTART = 0x5,
	DT_FEND = 0x6,
	DT_FSINGLE = 0x7,
	DT_LINK = 0x8,
	DT_LINKFIX = 0x9,
	DT_EOS = 0xA,
	DT_FEMPTY = 0xC,
};
#define MSC_CRC 0x01u
#define MSC_RTLF 0x08u
#define MSC_MC 0x80u
#define DBAT_TX0 0u
#define DBAT_RX0 4u

#define TX_MAX_DESCS 64u /* descriptors one TX frame may span (assumption) */
#define WALK_MAX 4096u /* descriptors a walk follows before it calls the ring broken */

struct gbeth_emu {
	struct gbeth_emu_config cfg; /* immutable */
	struct fdx_line *line; /* the line */
	unsigned port; /* our end of it */
	struct emu_engine *eng; /* its engine (the lock) */
	struct ethdrv_dma_region dma; /* DMA memory */
	struct emu_line irq; /* the `mux` line */
	uint32_t regs[GBETH_EMU_WINDOW / 4]; /* storage by word */

	/* Operating mode (docs/gbeth.md §2). */
	unsigned ops_mode; /* OPC value reached */
	unsigned req_mode; /* OPC value requested */
	uint64_t mode_at; /* the request completes here; EMU_NEVER: none pending */

	/* TX queue 0. */
	uint32_t tx_cur; /* bus address of the current descriptor */
	bool tx_busy; /* a frame on the wire */
	bool tx_send; /* it reaches the line at its end (else not sent, or lost) */
	uint64_t tx_end; /* its end */
	uint64_t tx_free_at; /* end + gap: the next may start */
	bool tx_sent_any; /* for tx_idle_ns */
	unsigned tx_nd; /* descriptors of the frame on the wire */
	uint32_t tx_desc[TX_MAX_DESCS]; /* their bus addresses */
	uint32_t tx_len; /* its length */
	uint8_t tx_buf[GBETH_EMU_TX_MAX + 64]; /* the frame */

	/* RX queue 0. */
	uint32_t rx_cur; /* bus address of the current descriptor */
	uint64_t
		rx_served; /* the host's last RIS0 or RIC0 write: its RX service gap starts there */
	uint8_t rx_buf[GBETH_EMU_RX_MAX + 4]; /* frame + checksum trailer */

	/* The board: PIR MDIO slave, bus, PHY. */
	struct mdio_bb_emu bb;
	struct mdio_emu *mdio_bus;
	struct phy_emu *phy;

	struct emu_faults faults; /* armed faults (emu_fault.h) */
	bool steal_ref; /* holds the steal sampler (real-time line, emu_loss.h) */
	struct gbeth_emu_stats st;
};

static inline uint32_t *greg(struct gbeth_emu *emu, uint32_t off)
{
	return &emu->regs[off / 4];
}

/* gbeth_emu.c */
uint64_t gbeth__byte_ns(const struct gbeth_emu *emu);
void gbeth__irq_update(struct gbeth_emu *emu);
void gbeth__mode_request(struct gbeth_emu *emu, unsigned opc, uint64_t now);
bool gbeth__link_ok(struct gbeth_emu *emu);

/* gbeth_emu_regs.c */
void gbeth__regs_reset(struct gbeth_emu *emu, bool full);
uint32_t gbeth__reg_read(struct gbeth_emu *emu, uint32_t off, uint64_t now);
void gbeth__reg_write(struct gbeth_emu *emu, uint32_t off, uint32_t val, uint64_t now);
int gbeth__reg_peek(struct gbeth_emu *emu, uint32_t off, uint32_t *val);

/* gbeth_emu_dma.c */
void gbeth__queues_load(struct gbeth_emu *emu);
void gbeth__tx_kick(struct gbeth_emu *emu, uint64_t now);
void gbeth__tx_end(struct gbeth_emu *emu, uint64_t t);
/* gbeth_emu_line.c: the engine client and the line port */
extern const struct emu_engine_ops gbeth__engine_ops;
extern const struct fdx_port_ops gbeth__port_ops;
uint64_t gbeth__next_ns(const struct gbeth_emu *emu);
void gbeth__advance(struct gbeth_emu *emu, uint64_t t);
void gbeth__rx_frame(struct gbeth_emu *emu, const uint8_t *data, uint32_t len, bool fcs_ok,
		     uint64_t t);
/* Append the checksum trailer to @p of @len bytes when enabled (docs/gbeth.md §7). */
uint32_t gbeth__csum_trailer(struct gbeth_emu *emu, uint8_t *p, uint32_t len);

#endif /* ETHDRV_EMU_GBETH_EMU_PRIV_H */
