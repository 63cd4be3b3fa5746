/* SPDX-License-Identifier: MIT */
/*
 * eTSEC model internals shared by the etsec_emu*.c files: the state, the
 * model's own register and bit definitions (never the driver's header, so a
 * wrong constant cannot hide in both) and the calls between the parts.
 * Section numbers are docs/etsec.md. The model lock is held in every
 * function declared here.
 */
#ifndef ETHDRV_EMU_ETSEC_EMU_PRIV_H
#define ETHDRV_EMU_ETSEC_EMU_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu_util.h"
#include "etsec_emu.h"
#include "fdx_line.h"
#include "ethdrv/bits.h"

/* ---- registers (docs/etsec.md §1.1) ---- */
#define R_ID 0x000
#define R_ID2 0x004
#define R_IEVENT 0x010
#define R_IMASK 0x014
#define R_EDIS 0x018
#define R_ECNTRL 0x020
#define R_MINFLR 0x024
#define R_PTV 0x028
#define R_DMACTRL 0x02C
#define R_TBIPA 0x030
#define R_TCTRL 0x100
#define R_TSTAT 0x104
#define R_TXIC 0x110
#define R_TQUEUE 0x114
#define R_TBPTR0 0x184
#define R_TBASE0 0x204
#define R_RCTRL 0x300
#define R_RSTAT 0x304
#define R_RXIC 0x310
#define R_RQUEUE 0x314
#define R_MRBLR 0x340
#define R_RBPTR0 0x384
#define R_RBASE0 0x404
#define R_MACCFG1 0x500
#define R_MACCFG2 0x504
#define R_IPGIFG 0x508
#define R_HAFDUP 0x50C
#define R_MAXFRM 0x510
#define R_MIIMCFG 0x520
#define R_MIIMCOM 0x524
#define R_MIIMADD 0x528
#define R_MIIMCON 0x52C
#define R_MIIMSTAT 0x530
#define R_MIIMIND 0x534
#define R_MACSTNADDR1 0x540
#define R_MACSTNADDR2 0x544
#define R_MAC01ADDR1 0x548 /* MACnnADDR1 at 0x540 + 8n, ADDR2 at + 4 (n = 1..15) */
#define R_RMON_FIRST 0x680
#define R_RMON_LAST 0x72C
#define R_CAR1 0x730
#define R_CAR2 0x734
#define R_CAM1 0x738
#define R_CAM2 0x73C
#define R_IGADDR0 0x800
#define R_GADDR0 0x880
#define R_ATTR 0xBF8
#define R_ATTRELI 0xBFC
#define R_A002 0xD1C

/* IEVENT/IMASK (docs/etsec.md §2). */
#define EV_BABR ETHDRV_BIT(31)
#define EV_BSY ETHDRV_BIT(29)
#define EV_EBERR ETHDRV_BIT(28)
#define EV_MSRO ETHDRV_BIT(26)
#define EV_GTSC ETHDRV_BIT(25)
#define EV_TXE ETHDRV_BIT(22)
#define EV_TXB ETHDRV_BIT(21)
#define EV_TXF ETHDRV_BIT(20)
#define EV_XFUN ETHDRV_BIT(16)
#define EV_RXB ETHDRV_BIT(15)
#define EV_MMRD ETHDRV_BIT(10)
#define EV_MMWR ETHDRV_BIT(9)
#define EV_GRSC ETHDRV_BIT(8)
#define EV_RXF ETHDRV_BIT(7)
#define EV_LINE_TX (EV_TXB | EV_TXF)
#define EV_LINE_RX (EV_RXB | EV_RXF)

#define ECNTRL_STEN ETHDRV_BIT(12)
#define ECNTRL_R100M ETHDRV_BIT(3)
#define ECNTRL_RESET_VAL 0x40u

#define DMACTRL_LE ETHDRV_BIT(15)
#define DMACTRL_GRS ETHDRV_BIT(4)
#define DMACTRL_GTS ETHDRV_BIT(3)

#define TSTAT_THLT0 ETHDRV_BIT(31)
#define RSTAT_QHLT0 ETHDRV_BIT(23)
#define RSTAT_RXF0 ETHDRV_BIT(7)
#define TQUEUE_EN0 ETHDRV_BIT(15)
#define RQUEUE_EN0 ETHDRV_BIT(7)

#define RCTRL_PAL ETHDRV_GENMASK(20, 16)
#define RCTRL_PRSDEP ETHDRV_GENMASK(7, 6)
#define RCTRL_BC_REJ ETHDRV_BIT(4)
#define RCTRL_PROM ETHDRV_BIT(3)

#define MACCFG1_SOFT_RESET ETHDRV_BIT(31)
#define MACCFG1_LOOPBACK ETHDRV_BIT(8)
#define MACCFG1_RX_EN ETHDRV_BIT(2)
#define MACCFG1_TX_EN ETHDRV_BIT(0)
#define MACCFG1_SYNCD_RX ETHDRV_BIT(3)
#define MACCFG1_SYNCD_TX ETHDRV_BIT(1)

#define MACCFG2_IF ETHDRV_GENMASK(9, 8)
#define MACCFG2_IF_NIBBLE 1u
#define MACCFG2_PADCRC ETHDRV_BIT(2)
#define MACCFG2_CRCEN ETHDRV_BIT(1)

#define IC_EN ETHDRV_BIT(31)
#define IC_FT ETHDRV_GENMASK(28, 21)
#define IC_TT ETHDRV_GENMASK(15, 0)

#define MIIMCFG_RESET ETHDRV_BIT(31)
#define MIIMCFG_NOPRE ETHDRV_BIT(4)
#define MIIMCFG_CLK ETHDRV_GENMASK(2, 0)
#define MIIMCOM_READ ETHDRV_BIT(0)
#define MIIMIND_BUSY ETHDRV_BIT(0)
#define MIIMIND_NOTVALID ETHDRV_BIT(2)

/* ---- RMON (docs/etsec.md §7), byte offsets ---- */
enum etsec_rmon {
	RM_TR64 = 0x680,
	RM_RBYT = 0x69C,
	RM_RPKT = 0x6A0,
	RM_RFCS = 0x6A4,
	RM_RMCA = 0x6A8,
	RM_RBCA = 0x6AC,
	RM_ROVR = 0x6D0,
	RM_RDRP = 0x6DC,
	RM_TBYT = 0x6E0,
	RM_TPKT = 0x6E4,
	RM_TMCA = 0x6E8,
	RM_TBCA = 0x6EC,
};

/* ---- buffer descriptors (docs/etsec.md §3) ---- */
#define BD_SIZE 8u
#define TXBD_R ETHDRV_BIT(15)
#define TXBD_PADCRC ETHDRV_BIT(14)
#define TXBD_W ETHDRV_BIT(13)
#define TXBD_I ETHDRV_BIT(12)
#define TXBD_L ETHDRV_BIT(11)
#define TXBD_TC ETHDRV_BIT(10)
#define TXBD_TOE ETHDRV_BIT(1)
#define TXBD_HW ETHDRV_GENMASK(9, 0) /* written by the eTSEC (DEF..TR), 0 here */
/* RxBD status, the table of docs/etsec.md §3.3 top to bottom. */
enum etsec_rxbd_bits {
	RXBD_E = 0x8000,
	RXBD_W = 0x2000,
	RXBD_I = 0x1000,
	RXBD_L = 0x0800,
	RXBD_F = 0x0400,
	RXBD_M = 0x0100,
	RXBD_BC = 0x0080,
	RXBD_MC = 0x0040,
	RXBD_LG = 0x0020,
	RXBD_CR = 0x0004,
	RXBD_OV = 0x0002,
	RXBD_SW = 0x7000, /* RO1, W, I: software's, kept */
};

#define FCB_SIZE 8u
#define ETSEC_GAP_BYTES 12u /* IPGIFG is storage: the 802.3 gap (docs/etsec.md §11) */

struct etsec_bd {
	uint16_t status;
	uint16_t len;
	uint32_t addr;
};

/* ---- state ---- */

/* One frame fetched into the TX FIFO, then on the wire. */
struct etsec_txf {
	uint64_t end; /* last FCS bit leaves the MAC */
	uint32_t len; /* bytes on the wire incl. FCS (data holds len - 4 with FDX_FCS_APPEND) */
	uint8_t fcs; /* enum fdx_fcs: APPEND when the MAC adds the CRC, RAW when data ends in it */
	uint16_t nbd; /* BDs */
	uint32_t first; /* BD offset from TBASE0 of the first BD */
	uint8_t *data; /* ETSEC_EMU_FRAME_MAX + 4 bytes */
};

/* One coalescing engine (docs/etsec.md §6). */
struct etsec_coal {
	unsigned pending; /* frames completed, not yet signalled */
	uint64_t deadline; /* ICTT expiry, EMU_NEVER = not running */
};

enum { COAL_RX, COAL_TX };

/* The MII management block (docs/etsec.md §5). */
struct etsec_miim {
	bool busy; /* a frame is shifting */
	bool read; /* it is a read (NOT_VALID until done) */
	bool notvalid; /* MIIMIND[NOT_VALID] */
	uint32_t frame; /* the 32 frame bits */
	bool preamble; /* sent with preamble */
	uint64_t end; /* when it ends; EMU_NEVER when idle */
	uint16_t stat; /* MIIMSTAT */
};

struct etsec_emu {
	struct fdx_line *line; /* the line, NULL until attached */
	struct emu_engine *eng; /* its engine: clock and big lock */
	unsigned port; /* our end of the line */
	struct etsec_emu_config cfg; /* immutable */
	struct ethdrv_dma_region dma; /* the DMA memory */
	struct emu_line irq[ETSEC_IRQ_COUNT]; /* TX, RX, ER */
	uint32_t regs[ETSEC_EMU_WINDOW / 4];
	uint64_t now; /* the engine time of the access or event being applied */
	uint8_t rxbuf[ETSEC_EMU_FRAME_MAX + 4]; /* a frame from the line, FCS appended */

	/* TX DMA. */
	uint32_t tx_fetch; /* next BD to read, offset from TBASE0 */
	bool tx_walking; /* the ring runs (THLT0 clear, not halted) */
	uint64_t tx_free_at; /* the MAC may start the next frame */
	bool tx_started; /* a frame was sent (tx_idle_ns counts from the second) */
	struct etsec_txf *fifo; /* ring of cfg.tx_fifo_frames */
	unsigned fifo_head, fifo_count;
	bool gtsc_pending; /* GTS: raise GTSC when the frame on the wire ends */
	/* RX DMA. */
	uint32_t rx_cur; /* current BD, offset from RBASE0 */
	uint64_t rx_served; /* the host's last IEVENT RXB/RXF or RSTAT write: its RX service
			       gap starts there (docs/design.md §4.8) */

	struct etsec_coal coal[2];
	struct etsec_miim miim;
	struct mdio_emu *mdio_bus;
	struct phy_emu *phy;

	struct emu_faults faults; /* armed faults (emu_fault.h) */
	bool steal_ref; /* holds the steal sampler (real-time line, emu_loss.h) */
	struct etsec_emu_stats st;
};

/* etsec_emu.c */
bool etsec__reg_known(uint32_t off);
void etsec__regs_reset(struct etsec_emu *emu);
uint64_t etsec__byte_ns(const struct etsec_emu *emu);
static inline uint32_t etsec__reg(const struct etsec_emu *emu, uint32_t off)
{
	return emu->regs[off / 4];
}

/* etsec_emu_dma.c */
uint16_t etsec__bd_load16(const struct etsec_emu *emu, const uint8_t *p);
void etsec__bd_store16(const struct etsec_emu *emu, uint8_t *p, uint16_t v);
void etsec__tx_walk(struct etsec_emu *emu, uint64_t now);
void etsec__tx_frame_end(struct etsec_emu *emu, uint64_t t);
void etsec__tx_drop_unstarted(struct etsec_emu *emu);
void etsec__dma_rewind(struct etsec_emu *emu, bool tx, bool rx);
void etsec__rx_frame(struct etsec_emu *emu, const uint8_t *frame, uint32_t len, bool fcs_ok,
		     uint64_t t);

/* etsec_emu_irq.c */
void etsec__event(struct etsec_emu *emu, uint32_t bits);
void etsec__irq_update(struct etsec_emu *emu);
void etsec__coal_frame(struct etsec_emu *emu, unsigned dir, uint64_t t);
void etsec__coal_expire(struct etsec_emu *emu, unsigned dir, uint64_t t);
void etsec__coal_written(struct etsec_emu *emu, unsigned dir, uint32_t old);
uint64_t etsec__tick_ns(const struct etsec_emu *emu);
void etsec__rmon_add(struct etsec_emu *emu, enum etsec_rmon reg, uint32_t n);
void etsec__rmon_frame(struct etsec_emu *emu, uint32_t len, const uint8_t *da, bool tx,
		       bool fcs_ok);

/* etsec_emu_line.c */
extern const struct emu_engine_ops etsec__engine_ops;
extern const struct fdx_port_ops etsec__port_ops;
void etsec__send(struct etsec_emu *emu, struct etsec_txf *f, uint64_t t);
void etsec__rx_wire(struct etsec_emu *emu, const uint8_t *data, uint32_t len, enum fdx_fcs fcs,
		    uint64_t t);

/* etsec_emu_miim.c */
uint32_t etsec__miim_read(struct etsec_emu *emu, uint32_t off);
void etsec__miim_write(struct etsec_emu *emu, uint32_t off, uint32_t val, uint32_t old);
void etsec__miim_done(struct etsec_emu *emu);
uint64_t etsec__miim_frame_ns(const struct etsec_emu *emu);

#endif /* ETHDRV_EMU_ETSEC_EMU_PRIV_H */
