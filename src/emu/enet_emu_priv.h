/* SPDX-License-Identifier: MIT */
/*
 * ENET model internals shared by the enet_emu*.c files: the device state,
 * the line state, the register and bit definitions (the model's own, never
 * the driver's header, so a wrong constant cannot hide in both), and the
 * calls between the parts. Section numbers are docs/enet.md.
 *
 * Locking: the engine's big lock (emu_engine.h) protects the line and the
 * whole state of both models on it, QEMU's big-lock way; every entry point
 * takes it. The interrupt eventfds are written under it.
 */
#ifndef ETHDRV_EMU_ENET_EMU_PRIV_H
#define ETHDRV_EMU_ENET_EMU_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu_engine.h"
#include "emu_fault.h"
#include "enet_emu.h"
#include "fdx_line.h"
#include "fdx_mac.h"
#include "ethdrv/bits.h"
#include "pcap.h"

/* ---- registers (docs/enet.md §1.1) ---- */
#define R_EIR 0x004
#define R_EIMR 0x008
#define R_RDAR 0x010
#define R_TDAR 0x014
#define R_ECR 0x024
#define R_MMFR 0x040
#define R_MSCR 0x044
#define R_MIBC 0x064
#define R_RCR 0x084
#define R_TCR 0x0C4
#define R_PALR 0x0E4
#define R_PAUR 0x0E8
#define R_OPD 0x0EC
#define R_TXIC0 0x0F0
#define R_RXIC0 0x100
#define R_IAUR 0x118
#define R_IALR 0x11C
#define R_GAUR 0x120
#define R_GALR 0x124
#define R_TFWR 0x144
#define R_RDSR 0x180
#define R_TDSR 0x184
#define R_MRBR 0x188
#define R_TIPG 0x1AC
#define R_FTRL 0x1B0
#define R_RACC 0x1C4
#define R_MIB_FIRST 0x200
#define R_MIB_LAST 0x2E0

/* EIR/EIMR (docs/enet.md §2). */
#define EV_BABR ETHDRV_BIT(30)
#define EV_BABT ETHDRV_BIT(29)
#define EV_GRA ETHDRV_BIT(28)
#define EV_TXF ETHDRV_BIT(27)
#define EV_TXB ETHDRV_BIT(26)
#define EV_RXF ETHDRV_BIT(25)
#define EV_RXB ETHDRV_BIT(24)
#define EV_MII ETHDRV_BIT(23)
#define EV_EBERR ETHDRV_BIT(22)
#define EV_UN ETHDRV_BIT(19)
#define EV_ALL (ETHDRV_GENMASK(31, 15) | ETHDRV_GENMASK(7, 0))
/* Interrupt lines (docs/enet.md §8): int0 queue 0 + everything else, int1/int2 rings 1/2. */
#define EV_LINE0 ETHDRV_GENMASK(31, 15)
#define EV_LINE1 ETHDRV_GENMASK(3, 0)
#define EV_LINE2 ETHDRV_GENMASK(7, 4)

/* ECR (docs/enet.md §4.1). */
#define ECR_RESET ETHDRV_BIT(0)
#define ECR_ETHEREN ETHDRV_BIT(1)
#define ECR_EN1588 ETHDRV_BIT(4)
#define ECR_SPEED ETHDRV_BIT(5)
#define ECR_DBSWP ETHDRV_BIT(8)
#define ECR_RESET_VAL 0x70000000u /* assumption, enet_emu.h */
#define ECR_WMASK (ETHDRV_GENMASK(11, 1) | ETHDRV_GENMASK(17, 16))

/* RCR (docs/enet.md §4.2). */
#define RCR_LOOP ETHDRV_BIT(0)
#define RCR_PROM ETHDRV_BIT(3)
#define RCR_BC_REJ ETHDRV_BIT(4)
#define RCR_RMII_10T ETHDRV_BIT(9)
#define RCR_CRCFWD ETHDRV_BIT(14)
#define RCR_MAX_FL ETHDRV_GENMASK(29, 16)
#define RCR_GRS ETHDRV_BIT(31)

/* TCR (docs/enet.md §4.3). */
#define TCR_GTS ETHDRV_BIT(0)

/* MIBC (docs/enet.md §7). */
#define MIBC_DIS ETHDRV_BIT(31)
#define MIBC_IDLE ETHDRV_BIT(30)
#define MIBC_CLEAR ETHDRV_BIT(29)

/* RDAR/TDAR (docs/enet.md §3.4). */
#define DAR_ACTIVE ETHDRV_BIT(24)

/* TXIC/RXIC (docs/enet.md §6). */
#define IC_EN ETHDRV_BIT(31)
#define IC_CS ETHDRV_BIT(30)
#define IC_FT ETHDRV_GENMASK(27, 20)
#define IC_TT ETHDRV_GENMASK(15, 0)

#define RACC_SHIFT16 ETHDRV_BIT(7)

/* MIB counters (docs/enet.md §7), byte offsets. */
enum enet_mib {
	MIB_T_PACKETS = 0x204,
	MIB_T_BC = 0x208,
	MIB_T_MC = 0x20C,
	MIB_T_CRC_ALIGN = 0x210,
	MIB_T_P64 = 0x228,
	MIB_T_OCTETS = 0x244,
	MIB_T_FRAME_OK = 0x24C,
	MIB_T_MACERR = 0x264,
	MIB_T_OCTETS_OK = 0x274,
	MIB_R_PACKETS = 0x284,
	MIB_R_BC = 0x288,
	MIB_R_MC = 0x28C,
	MIB_R_CRC_ALIGN = 0x290,
	MIB_R_UNDERSIZE = 0x294,
	MIB_R_OVERSIZE = 0x298,
	MIB_R_FRAG = 0x29C,
	MIB_R_JAB = 0x2A0,
	MIB_R_P64 = 0x2A8,
	MIB_R_OCTETS = 0x2C4,
	MIB_R_DROP = 0x2C8,
	MIB_R_FRAME_OK = 0x2CC,
	MIB_R_CRC = 0x2D0,
	MIB_R_MACERR = 0x2D8,
	MIB_R_OCTETS_OK = 0x2E0,
};

/* ---- buffer descriptors (docs/enet.md §3) ---- */
#define BD_LEGACY_SIZE 8u
#define BD_ENHANCED_SIZE 32u
/* RX status (docs/enet.md §3.2). */
#define RXBD_E ETHDRV_BIT(15)
#define RXBD_W ETHDRV_BIT(13)
#define RXBD_SW (ETHDRV_BIT(14) | ETHDRV_BIT(12)) /* RO1, RO2: software bits kept */
#define RXBD_L ETHDRV_BIT(11)
#define RXBD_M ETHDRV_BIT(8)
#define RXBD_BC ETHDRV_BIT(7)
#define RXBD_MC ETHDRV_BIT(6)
#define RXBD_LG ETHDRV_BIT(5)
#define RXBD_CR ETHDRV_BIT(2)
#define RXBD_OV ETHDRV_BIT(1)
#define RXBD_TR ETHDRV_BIT(0)
/* TX status (docs/enet.md §3.2). */
#define TXBD_R ETHDRV_BIT(15)
#define TXBD_W ETHDRV_BIT(13)
#define TXBD_L ETHDRV_BIT(11)
#define TXBD_TC ETHDRV_BIT(10)
#define TXBD_ABC ETHDRV_BIT(9)
/* Enhanced fields (docs/enet.md §3.3): ESC word at +8, BDU word at +16. */
#define BDX_ESC 8u
#define BDX_BDU_WORD 16u
#define BDX_BDU ETHDRV_BIT(31)
#define RXESC_ME ETHDRV_BIT(31)
#define RXESC_UC ETHDRV_BIT(24)
#define RXESC_INT ETHDRV_BIT(23)
#define TXESC_INT ETHDRV_BIT(30)
#define TXESC_ERRORS ETHDRV_GENMASK(15, 8)

/* A decoded descriptor. */
struct enet_bd {
	uint16_t status; /* status/control bits */
	uint16_t len; /* data length */
	uint32_t addr; /* buffer bus address */
};

/* ---- TX FIFO ---- */
#define FIFO_MAX_BDS 32u /* BDs one FIFO frame may span (assumption) */

/* One frame fetched into the TX FIFO, then on the wire. */
struct enet_txf {
	uint64_t start; /* first preamble bit leaves the MAC */
	uint64_t end; /* last FCS bit leaves the MAC */
	uint32_t len; /* bytes in data (padded; FCS included only for FDX_FCS_RAW) */
	uint8_t fcs; /* enum fdx_fcs: TC=1 APPEND, TC=0 RAW, ABC or cut BAD */
	bool irq; /* raise TXB/TXF (enhanced: INT of the BD) */
	bool aborted; /* cut by ETHEREN=0: delivered bad, BDs not written back */
	uint16_t nbd; /* BDs in bd[] */
	uint32_t bd[FIFO_MAX_BDS]; /* their offsets from TDSR */
	uint8_t data[ENET_EMU_FRAME_MAX]; /* the frame */
};

/* One coalescing engine (RXIC0 or TXIC0, docs/enet.md §6). */
struct enet_coal {
	unsigned pending; /* completed frames not yet signalled */
	uint64_t deadline; /* ICTT expiry, UINT64_MAX = not running */
};

enum { COAL_RX, COAL_TX };

struct enet_emu {
	struct fdx_line *line; /* the line */
	struct emu_engine *eng; /* its engine (the lock, the clock) */
	uint64_t rx_served; /* the host's last RDAR write: its RX service gap starts there */
	bool steal_ref; /* holds the steal sampler (real-time line) */
	unsigned port; /* our end of it */
	struct enet_emu_config cfg; /* immutable */
	struct ethdrv_dma_region dma; /* the DMA memory */
	int irq_fd[ENET_EMU_IRQ_LINES]; /* level eventfds */
	bool irq_level[ENET_EMU_IRQ_LINES]; /* asserted */

	uint32_t regs[ENET_EMU_WINDOW / 4]; /* register values by word */
	const struct enet_reg *map[ENET_EMU_WINDOW / 4]; /* register table by word */

	/* RX DMA. */
	uint32_t rx_off; /* current BD, offset from RDSR */
	/* TX DMA. */
	uint32_t tx_fetch; /* next BD to fetch, offset from TDSR */
	uint64_t tx_free_at; /* the MAC may start the next frame (end + gap) */
	uint64_t tx_dma_at; /* the TX DMA has fetched everything it took by then */
	uint64_t tx_booked_at; /* the line's generator booked this direction up to then */
	uint64_t tdar_clear_at; /* the walk met R=0: TDAR reads 0 from then; 0 = walking */
	struct enet_txf *fifo; /* TX FIFO ring of fifo_slots frames */
	unsigned fifo_slots; /* cfg.tx_fifo_bytes / 64: the most frames it can hold */
	unsigned fifo_head; /* oldest frame */
	unsigned fifo_count; /* frames in it */
	uint32_t fifo_bytes; /* their bytes, at most cfg.tx_fifo_bytes */
	bool gra_pending; /* GTS: raise GRA when the frame on the wire ends */

	struct enet_coal coal[2]; /* COAL_RX, COAL_TX */

	struct emu_faults faults; /* armed faults (emu_fault.h) */

	struct enet_emu_stats st; /* counters */

	/* The MDIO block and the board behind it (docs/mdio.md §11). */
	struct enet_mdio mdio; /* MMFR, MSCR, the MII event latch */
	struct mdio_emu *mdio_bus; /* the board's MDIO bus */
	struct phy_emu *phy; /* the AR8031 on it, or NULL */
};

/* ---- cross-file calls (line lock held) ---- */

/* enet_emu.c */
/* Bytes of TX gap configured in TIPG (assumption in enet_emu.h). */
unsigned enet__gap_bytes(const struct enet_emu *emu);
/* Nanoseconds per byte at the speed the MAC is configured for. */
uint64_t enet__mac_byte_ns(const struct enet_emu *emu);

/* enet_emu_regs.c */
void enet__regs_init_map(struct enet_emu *emu);
void enet__regs_reset(struct enet_emu *emu);
uint32_t enet__reg_read(struct enet_emu *emu, uint32_t off, uint64_t now);
void enet__reg_write(struct enet_emu *emu, uint32_t off, uint32_t val, uint64_t now);
int enet__reg_peek(struct enet_emu *emu, uint32_t off, uint32_t *val);
/* Count one MIB event if counting is enabled (docs/enet.md §7). */
void enet__mib_inc(struct enet_emu *emu, enum enet_mib reg, uint32_t n);
/* Count a frame of @len bytes (FCS incl.) in the size buckets from @p64. */
void enet__mib_bucket(struct enet_emu *emu, uint32_t p64, uint32_t len);
/* The MDIO block raised its completion event (docs/enet.md §5); the one place EIR.MII is set. */
void enet__raise_mii(struct enet_emu *emu);

static inline bool enet__enabled(const struct enet_emu *emu)
{
	return emu->regs[R_ECR / 4] & ECR_ETHEREN;
}

/* enet_emu_irq.c */
void enet__event(struct enet_emu *emu, uint32_t bits);
void enet__irq_update(struct enet_emu *emu);
void enet__coal_frame(struct enet_emu *emu, unsigned dir, uint64_t t);
void enet__coal_expire(struct enet_emu *emu, unsigned dir);
void enet__coal_written(struct enet_emu *emu, unsigned dir);
void enet__coal_reset(struct enet_emu *emu);

/* enet_emu_dma.c */
void enet__dma_reset(struct enet_emu *emu);
/* TDAR as a read at @now sees it: the walk's end clears it (fetch latency). */
uint32_t enet__tdar_read(struct enet_emu *emu, uint64_t now);
void enet__tx_fetch(struct enet_emu *emu, uint64_t now);
void enet__tx_stop(struct enet_emu *emu, uint64_t now, bool abort);
void enet__tx_frame_end(struct enet_emu *emu, uint64_t t);
void enet__rx_frame(struct enet_emu *emu, uint8_t *data, uint32_t len, enum fdx_fcs fcs,
		    uint64_t t);
void enet__dma_error(struct enet_emu *emu, uint64_t now);
void enet__graceful_stop(struct enet_emu *emu, uint64_t now);
/* GTS cleared: a walk the stop interrupted goes on. */
void enet__tx_resume(struct enet_emu *emu, uint64_t now);

/* enet_emu_line.c: the ENET on the line (engine client, port ops) */
extern const struct emu_engine_ops enet__engine_ops;
extern const struct fdx_port_ops enet__port_ops;
/* A frame of the TX FIFO ended on the wire at @t: into the MAC's own receiver
 * (RCR.LOOP) or onto the line. */
void enet__line_deliver(struct enet_emu *emu, struct enet_txf *f, uint64_t t);

#endif /* ETHDRV_EMU_ENET_EMU_PRIV_H */
