/* SPDX-License-Identifier: MIT */
/*
 * NXP ENET ("fec") registers, fields and buffer descriptors as the driver
 * uses them, from docs/enet.md (section numbers below). The hardware model
 * has its own definitions on purpose: a wrong constant cannot hide in a
 * header both share.
 */
#ifndef ETHDRV_DRIVERS_FEC_REGS_H
#define ETHDRV_DRIVERS_FEC_REGS_H

#include <stdint.h>
#include "ethdrv/bits.h"

/* Registers (docs/enet.md §1.1). */
#define FEC_REG_EIR 0x004 /* interrupt events, write 1 to clear */
#define FEC_REG_EIMR 0x008 /* interrupt mask */
#define FEC_REG_RDAR 0x010 /* RX descriptors active */
#define FEC_REG_TDAR 0x014 /* TX descriptors active */
#define FEC_REG_ECR 0x024 /* Ethernet control */
#define FEC_REG_MMFR 0x040 /* MII management frame (docs/enet.md §5) */
#define FEC_REG_MSCR 0x044 /* MII speed control (docs/enet.md §5) */
#define FEC_REG_MIBC 0x064 /* MIB control */
#define FEC_REG_RCR 0x084 /* receive control */
#define FEC_REG_TCR 0x0C4 /* transmit control */
#define FEC_REG_PALR 0x0E4 /* station address bytes 0..3 */
#define FEC_REG_PAUR 0x0E8 /* station address bytes 4..5 */
#define FEC_REG_TXIC0 0x0F0 /* TX interrupt coalescing, ring 0 */
#define FEC_REG_RXIC0 0x100 /* RX interrupt coalescing, ring 0 */
#define FEC_REG_IAUR 0x118 /* individual hash, bits 63..32 */
#define FEC_REG_IALR 0x11C /* individual hash, bits 31..0 */
#define FEC_REG_GAUR 0x120 /* group hash, bits 63..32 */
#define FEC_REG_GALR 0x124 /* group hash, bits 31..0 */
#define FEC_REG_TFWR 0x144 /* TX FIFO watermark */
#define FEC_REG_RDSR 0x180 /* RX ring start */
#define FEC_REG_TDSR 0x184 /* TX ring start */
#define FEC_REG_MRBR 0x188 /* RX buffer size */
#define FEC_REG_FTRL 0x1B0 /* frame truncation length */
#define FEC_REG_RACC 0x1C4 /* RX accelerator control */

/* EIR/EIMR events (docs/enet.md §2). */
#define FEC_EV_BABR ETHDRV_BIT(30) /* babbling receive */
#define FEC_EV_BABT ETHDRV_BIT(29) /* babbling transmit */
#define FEC_EV_GRA ETHDRV_BIT(28) /* graceful stop complete */
#define FEC_EV_TXF ETHDRV_BIT(27) /* frame transmitted */
#define FEC_EV_RXF ETHDRV_BIT(25) /* frame received */
#define FEC_EV_MII ETHDRV_BIT(23) /* MDIO transfer done */
#define FEC_EV_EBERR ETHDRV_BIT(22) /* DMA bus error */
#define FEC_EV_LC ETHDRV_BIT(21) /* late collision */
#define FEC_EV_RL ETHDRV_BIT(20) /* retry limit */
#define FEC_EV_UN ETHDRV_BIT(19) /* TX FIFO underrun */

/* ECR (docs/enet.md §4.1). */
#define FEC_ECR_RESET ETHDRV_BIT(0)
#define FEC_ECR_ETHEREN ETHDRV_BIT(1)
#define FEC_ECR_EN1588 ETHDRV_BIT(4)
#define FEC_ECR_SPEED ETHDRV_BIT(5) /* 1000 Mb/s */
#define FEC_ECR_DBSWP ETHDRV_BIT(8) /* little-endian descriptors */

/* RCR (docs/enet.md §4.2). */
#define FEC_RCR_DRT ETHDRV_BIT(1) /* disable receive on transmit: half duplex */
#define FEC_RCR_MII_MODE ETHDRV_BIT(2)
#define FEC_RCR_PROM ETHDRV_BIT(3)
#define FEC_RCR_RGMII_EN ETHDRV_BIT(6)
#define FEC_RCR_RMII_10T ETHDRV_BIT(9)
#define FEC_RCR_CRCFWD ETHDRV_BIT(14) /* the MAC strips the FCS */
#define FEC_RCR_MAX_FL ETHDRV_GENMASK(29, 16)

/* MIBC (docs/enet.md §7). */
#define FEC_MIBC_DIS ETHDRV_BIT(31)
#define FEC_MIBC_CLEAR ETHDRV_BIT(29) /* i.MX6 only (docs/enet.md §15) */

/* TCR (docs/enet.md §4.3). */
#define FEC_TCR_GTS ETHDRV_BIT(0)
#define FEC_TCR_FDEN ETHDRV_BIT(2)

/* TFWR (docs/enet.md §1.1). */
#define FEC_TFWR_STRFWD ETHDRV_BIT(8)

/* RXIC/TXIC (docs/enet.md §6). */
#define FEC_IC_EN ETHDRV_BIT(31)
#define FEC_IC_CS ETHDRV_BIT(30) /* count the system clock */
#define FEC_IC_FT ETHDRV_GENMASK(27, 20) /* frame threshold */
#define FEC_IC_TT ETHDRV_GENMASK(15, 0) /* timer threshold, 64-clock units */
#define FEC_IC_FT_MAX 255u
#define FEC_IC_TT_MAX 0xFFFFu

/* RDAR/TDAR (docs/enet.md §3.4). */
#define FEC_DAR_ACTIVE ETHDRV_BIT(24)

/* Buffer descriptors (docs/enet.md §3.2, docs/enet.md §3.3), DBSWP=1 layout. */
#define FEC_BD_SIZE 8u /* legacy */
#define FEC_BDX_SIZE 32u /* enhanced (ECR.EN1588) */
#define FEC_BD_LEN 0u /* LE16 data length */
#define FEC_BD_STATUS 2u /* LE16 status/control, the ownership word */
#define FEC_BD_ADDR 4u /* LE32 buffer bus address */
#define FEC_BDX_ESC 8u /* enhanced status/control word */
#define FEC_BDX_BDU 16u /* enhanced "BD updated" word */

#define FEC_RXBD_E ETHDRV_BIT(15) /* empty: owned by the DMA */
#define FEC_RXBD_W ETHDRV_BIT(13) /* wrap */
#define FEC_RXBD_L ETHDRV_BIT(11) /* last BD of the frame */
#define FEC_RXBD_LG ETHDRV_BIT(5) /* longer than MAX_FL */
#define FEC_RXBD_NO ETHDRV_BIT(4) /* non-octet aligned */
#define FEC_RXBD_SH ETHDRV_BIT(3) /* short (old FEC name, still tested) */
#define FEC_RXBD_CR ETHDRV_BIT(2) /* CRC error */
#define FEC_RXBD_OV ETHDRV_BIT(1) /* receive FIFO overrun */
#define FEC_RXBD_TR ETHDRV_BIT(0) /* truncated at FTRL */
#define FEC_RXBD_ERRORS \
	(FEC_RXBD_LG | FEC_RXBD_NO | FEC_RXBD_SH | FEC_RXBD_CR | FEC_RXBD_OV | FEC_RXBD_TR)

#define FEC_TXBD_R ETHDRV_BIT(15) /* ready: owned by the DMA */
#define FEC_TXBD_W ETHDRV_BIT(13) /* wrap */
#define FEC_TXBD_L ETHDRV_BIT(11) /* last BD of the frame */
#define FEC_TXBD_TC ETHDRV_BIT(10) /* append the FCS */

#define FEC_RXESC_INT ETHDRV_BIT(23) /* enhanced: raise RXB/RXF for this BD */
#define FEC_TXESC_INT ETHDRV_BIT(30) /* enhanced: raise TXB/TXF for this BD */
#define FEC_TXESC_ERRORS ETHDRV_GENMASK(15, 8) /* TXE UE EE FE LCE OE TSE */

#endif /* ETHDRV_DRIVERS_FEC_REGS_H */
