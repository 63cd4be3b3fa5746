/* SPDX-License-Identifier: MIT */
/*
 * IEEE 802.3 clause-22 PHY registers and bits (22.2.4, 28.2.4, 40.5),
 * named as Linux's uapi mii.h names them so readers of both recognise them
 * (docs/mdio.md §2). Used by the PHY layer (phy.h) and PHY drivers; the
 * PHY models keep their own definitions (docs/style.md S10).
 */
#ifndef ETHDRV_MII_H
#define ETHDRV_MII_H

#define ETHDRV_MII_BMCR 0x00 /* basic mode control */
#define ETHDRV_MII_BMSR 0x01 /* basic mode status */
#define ETHDRV_MII_PHYSID1 0x02 /* PHY identifier, OUI bits 3..18 */
#define ETHDRV_MII_PHYSID2 0x03 /* OUI bits 19..24, model, revision */
#define ETHDRV_MII_ADVERTISE 0x04 /* autoneg advertisement (ANAR) */
#define ETHDRV_MII_LPA 0x05 /* link partner ability (ANLPAR) */
#define ETHDRV_MII_EXPANSION 0x06 /* autoneg expansion (ANER) */
#define ETHDRV_MII_CTRL1000 0x09 /* 1000BASE-T control */
#define ETHDRV_MII_STAT1000 0x0A /* 1000BASE-T status */
#define ETHDRV_MII_MMD_CTRL 0x0D /* MMD access control */
#define ETHDRV_MII_MMD_DATA 0x0E /* MMD access address/data */
#define ETHDRV_MII_ESTATUS 0x0F /* extended status */

#define ETHDRV_BMCR_RESET 0x8000 /* software reset, self-clearing */
#define ETHDRV_BMCR_LOOPBACK 0x4000
#define ETHDRV_BMCR_SPEED100 0x2000 /* speed select LSB */
#define ETHDRV_BMCR_ANENABLE 0x1000 /* autonegotiation enable */
#define ETHDRV_BMCR_PDOWN 0x0800 /* power down */
#define ETHDRV_BMCR_ISOLATE 0x0400
#define ETHDRV_BMCR_ANRESTART 0x0200 /* restart autonegotiation, self-clearing */
#define ETHDRV_BMCR_FULLDPLX 0x0100
#define ETHDRV_BMCR_SPEED1000 0x0040 /* speed select MSB */

#define ETHDRV_BMSR_ERCAP 0x0001 /* extended register capability */
#define ETHDRV_BMSR_LSTATUS 0x0004 /* link status, latched low */
#define ETHDRV_BMSR_ANEGCAPABLE 0x0008
#define ETHDRV_BMSR_RFAULT 0x0010
#define ETHDRV_BMSR_ANEGCOMPLETE 0x0020
#define ETHDRV_BMSR_ESTATEN 0x0100 /* extended status in register 15 */
#define ETHDRV_BMSR_10HALF 0x0800
#define ETHDRV_BMSR_10FULL 0x1000
#define ETHDRV_BMSR_100HALF 0x2000
#define ETHDRV_BMSR_100FULL 0x4000

#define ETHDRV_ADVERTISE_CSMA 0x0001 /* selector: IEEE 802.3 */
#define ETHDRV_ADVERTISE_10HALF 0x0020
#define ETHDRV_ADVERTISE_10FULL 0x0040
#define ETHDRV_ADVERTISE_100HALF 0x0080
#define ETHDRV_ADVERTISE_100FULL 0x0100
#define ETHDRV_ADVERTISE_PAUSE 0x0400
#define ETHDRV_ADVERTISE_ASYM 0x0800
#define ETHDRV_ADVERTISE_ALL 0x01E0 /* 10/100 half and full */
#define ETHDRV_LPA_LPACK 0x4000

#define ETHDRV_ADVERTISE_1000HALF 0x0100 /* CTRL1000 */
#define ETHDRV_ADVERTISE_1000FULL 0x0200
#define ETHDRV_LPA_1000HALF 0x0400 /* STAT1000 */
#define ETHDRV_LPA_1000FULL 0x0800
#define ETHDRV_LPA_1000MSRES 0x4000 /* master/slave resolution: 1 = master */
#define ETHDRV_LPA_1000MSFAIL 0x8000 /* master/slave configuration fault */

#define ETHDRV_ESTATUS_1000_THALF 0x1000
#define ETHDRV_ESTATUS_1000_TFULL 0x2000

#define ETHDRV_MII_MMD_CTRL_ADDR 0x0000 /* register 14 holds the address */
#define ETHDRV_MII_MMD_CTRL_DATA_NOINC 0x4000 /* register 14 is data */
#define ETHDRV_MII_MMD_CTRL_INCR_RDWT 0x8000 /* data, post-increment on read and write */
#define ETHDRV_MII_MMD_CTRL_INCR_ON_WT 0xC000 /* data, post-increment on write */

#endif /* ETHDRV_MII_H */
