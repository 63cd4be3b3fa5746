/* SPDX-License-Identifier: MIT */
/*
 * Microchip LAN8650/1 registers the lan865x driver uses, beyond the OA
 * standard set in oa_tc6.h (docs/tc6.md §3, §5). Names follow the datasheet.
 */
#ifndef ETHDRV_DRIVERS_LAN865X_REGS_H
#define ETHDRV_DRIVERS_LAN865X_REGS_H

#include "ethdrv/bits.h"

/* Memory map selectors (docs/tc6.md §3.1). */
#define LAN865X_MMS_STD 0 /* OA standard + PHY clause 22 */
#define LAN865X_MMS_MAC 1 /* MAC */
#define LAN865X_MMS_VEND2 4 /* PHY vendor specific 2: PLCA, AN1760 */
#define LAN865X_MMS_MISC 10 /* miscellaneous: DEVID, queue config */

/* PHY clause-22 registers mapped at MMS 0 0xFF00 (docs/tc6.md §3.2). */
#define LAN865X_REG_PHY_BMCR 0xFF00
#define LAN865X_REG_PHY_BMSR 0xFF01
#define LAN865X_REG_PHY_ID1 0xFF02
#define LAN865X_REG_PHY_ID2 0xFF03
#define LAN865X_PHY_BMSR_LSTATUS ETHDRV_BIT(2) /* link up */

/* MAC, MMS 1 (docs/tc6.md §5.2). */
#define LAN865X_REG_MAC_NCR 0x00
#define LAN865X_MAC_NCR_LBL ETHDRV_BIT(1)
#define LAN865X_MAC_NCR_RXEN ETHDRV_BIT(2)
#define LAN865X_MAC_NCR_TXEN ETHDRV_BIT(3)
#define LAN865X_REG_MAC_NCFGR 0x01
#define LAN865X_MAC_NCFGR_RESET 0x00080000u /* reset value, kept as the base */
#define LAN865X_MAC_NCFGR_CAF ETHDRV_BIT(4) /* copy all frames: promiscuous */
#define LAN865X_MAC_NCFGR_NBC ETHDRV_BIT(5) /* no broadcast */
#define LAN865X_MAC_NCFGR_MTIHEN ETHDRV_BIT(6) /* multicast hash enable */
#define LAN865X_MAC_NCFGR_UNIHEN ETHDRV_BIT(7) /* unicast hash enable */
#define LAN865X_MAC_NCFGR_MAXFS ETHDRV_BIT(8) /* 1536-byte frames */
#define LAN865X_MAC_NCFGR_RFCS ETHDRV_BIT(17) /* strip FCS: never set, we check it */
#define LAN865X_REG_MAC_HRB 0x20 /* hash bottom: indices 0..31 */
#define LAN865X_REG_MAC_HRT 0x21 /* hash top: indices 32..63 */
#define LAN865X_REG_MAC_SAB1 0x22 /* specific address 1, bytes 0..3 */
#define LAN865X_REG_MAC_SAT1 0x23 /* specific address 1, bytes 4..5 */
#define LAN865X_REG_MAC_SAB2 0x24
#define LAN865X_REG_MAC_SAT2 0x25
#define LAN865X_MAC_SAT_ADDR ETHDRV_GENMASK(15, 0)
#define LAN865X_REG_MAC_TI 0x77 /* TSU timer increment */
#define LAN865X_MAC_TI_25MHZ 0x28 /* 40 ns per 25 MHz tick (AN1760, docs/tc6.md §5.2) */

/* PLCA, MMS 4 (OA/802.3cg Clause 148 map, docs/tc6.md §3.6). */
#define LAN865X_REG_PLCA_CTRL0 0xCA01
#define LAN865X_PLCA_CTRL0_EN ETHDRV_BIT(15)
#define LAN865X_PLCA_CTRL0_RST ETHDRV_BIT(14)
#define LAN865X_REG_PLCA_CTRL1 0xCA02
#define LAN865X_PLCA_CTRL1_NCNT ETHDRV_GENMASK(15, 8)
#define LAN865X_PLCA_CTRL1_ID ETHDRV_GENMASK(7, 0)
#define LAN865X_REG_PLCA_STS 0xCA03
#define LAN865X_PLCA_STS_PST ETHDRV_BIT(15)
#define LAN865X_REG_PLCA_TOTMR 0xCA04
#define LAN865X_PLCA_TOTMR_TOTMR ETHDRV_GENMASK(7, 0)
#define LAN865X_REG_PLCA_BURST 0xCA05
#define LAN865X_PLCA_BURST_MAXBC ETHDRV_GENMASK(15, 8)
#define LAN865X_PLCA_BURST_BTMR ETHDRV_GENMASK(7, 0)
#define LAN865X_PLCA_NCNT_DEFAULT 8
#define LAN865X_PLCA_TOTMR_DEFAULT 0x20 /* 32 bit times */
#define LAN865X_PLCA_BTMR_DEFAULT 0x80 /* 128 bit times */
#define LAN865X_REG_COL_DET_CTRL0 0x87 /* collision detection */
#define LAN865X_COL_DET_CTRL0_EN ETHDRV_BIT(15)
#define LAN865X_COL_DET_CTRL0_BASE 0x0083 /* low bits as AN1760/MLIB write them */

/* AN1760 configuration registers, MMS 4 (docs/tc6.md §5.3). */
#define LAN865X_REG_IND_ADDR 0xD8 /* indirect read: address */
#define LAN865X_REG_IND_DATA 0xD9 /* indirect read: data */
#define LAN865X_REG_IND_CTRL 0xDA /* indirect read: control */
#define LAN865X_IND_CTRL_READ 0x0002
#define LAN865X_IND_OFFSET1 0x04 /* trim offset 1 */
#define LAN865X_IND_CHIPCHK 0x05 /* bit 6 clear: chip error */
#define LAN865X_IND_CHIPCHK_OK ETHDRV_BIT(6)
#define LAN865X_IND_OFFSET2 0x08 /* trim offset 2 */
#define LAN865X_IND_OFFSET ETHDRV_GENMASK(4, 0) /* 5-bit two's complement */
#define LAN865X_REG_CFGPARAM1 0x84
#define LAN865X_CFGPARAM1_A ETHDRV_GENMASK(15, 10)
#define LAN865X_CFGPARAM1_B ETHDRV_GENMASK(9, 4)
#define LAN865X_CFGPARAM1_LOW 0x3
#define LAN865X_REG_CFGPARAM2 0x8A
#define LAN865X_CFGPARAM2_A ETHDRV_GENMASK(15, 10)
#define LAN865X_REG_SQI_CFG0 0xAD /* 0xAD..0xAF: SQI thresholds */
#define LAN865X_SQI_CFG_HI ETHDRV_GENMASK(13, 8)
#define LAN865X_SQI_CFG_LO ETHDRV_GENMASK(5, 0)
#define LAN865X_REG_SQI_TBL0 0xB0 /* 0xB0..0xBB: SQI table */

/* Miscellaneous, MMS 10 (docs/tc6.md §5.1). */
#define LAN865X_REG_DEVID 0x94
#define LAN865X_DEVID_MODEL ETHDRV_GENMASK(19, 4)
#define LAN865X_DEVID_REV ETHDRV_GENMASK(3, 0)
#define LAN865X_DEVID_MODEL_8650 0x8650
#define LAN865X_DEVID_MODEL_8651 0x8651
#define LAN865X_DEVID_REV_B0 1
#define LAN865X_DEVID_REV_B1 2

/* The OA PHYID (MMS 0 0x01) fields of every LAN8650/1 (docs/tc6.md §5.1). */
#define LAN865X_PHYID_OUI 0x1F0 /* OUI bits of 0x0007C1B3 in the OA layout */
#define LAN865X_PHYID_MODEL 0x1B

#endif /* ETHDRV_DRIVERS_LAN865X_REGS_H */
