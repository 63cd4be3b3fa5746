/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the two halves of the AR8031 model: the register file
 * and MDIO side (phy_emu.c) and the wire between two PHYs (phy_emu_wire.c).
 * Not for use outside src/emu/phy_emu*.c.
 */
#ifndef ETHDRV_EMU_PHY_EMU_PRIV_H
#define ETHDRV_EMU_PHY_EMU_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu_util.h"
#include "phy_emu.h"

/* Standard registers and bits, written here from IEEE 802.3 22.2.4 and
 * 40.5 (docs/mdio.md §2) independently of the driver side's mii.h. */
enum {
	R_BMCR = 0x00,
	R_BMSR = 0x01,
	R_ID1 = 0x02,
	R_ID2 = 0x03,
	R_ANAR = 0x04,
	R_ANLPAR = 0x05,
	R_ANER = 0x06,
	R_CTRL1000 = 0x09,
	R_STAT1000 = 0x0A,
	R_MMD_CTRL = 0x0D,
	R_MMD_DATA = 0x0E,
	R_ESTATUS = 0x0F,
};

#define BMCR_RESET 0x8000u
#define BMCR_SPEED100 0x2000u
#define BMCR_ANENABLE 0x1000u
#define BMCR_PDOWN 0x0800u
#define BMCR_ANRESTART 0x0200u
#define BMCR_FULLDPLX 0x0100u
#define BMCR_SPEED1000 0x0040u
#define BMCR_RETRAIN (BMCR_ANENABLE | BMCR_PDOWN) /* changes that retrain the link */
#define BMCR_FORCED (BMCR_SPEED100 | BMCR_SPEED1000 | BMCR_FULLDPLX)
#define BMSR_CAPS 0x7949u /* 100/10 F/H, ESTATEN, MF preamble suppr., AN able, ext */
#define BMSR_LSTATUS 0x0004u
#define BMSR_ANEGCOMPLETE 0x0020u
#define ADV_10H 0x0020u
#define ADV_10F 0x0040u
#define ADV_100H 0x0080u
#define ADV_100F 0x0100u
#define ADV_PAUSE_MASK 0x0C00u
#define ADV_ABILITY (ADV_10H | ADV_10F | ADV_100H | ADV_100F | ADV_PAUSE_MASK)
#define LPA_LPACK 0x4000u
#define ANER_LPAN 0x0001u
#define ANER_PAGE 0x0002u
#define ANER_NP 0x0004u
#define C1000_HALF 0x0100u
#define C1000_FULL 0x0200u
#define C1000_PORT_TYPE 0x0400u /* 1 = multiport, prefers master */
#define C1000_MS_VALUE 0x0800u /* manual: 1 = master */
#define C1000_MS_ENABLE 0x1000u /* manual master/slave configuration */
#define S1000_MS_FAULT 0x8000u
#define S1000_MASTER 0x4000u
#define S1000_LOCAL_OK 0x2000u
#define S1000_REMOTE_OK 0x1000u
#define S1000_LP_SHIFT 2 /* LP 1000F/H at 11/10 = CTRL1000 bits 9/8 << 2 */
#define ESTATUS_1000_TFULL 0x2000u
#define MMD_FN 0xC000u
#define MMD_FN_ADDR 0x0000u
#define MMD_FN_DATA 0x4000u
#define MMD_FN_INC_RW 0x8000u
#define MMD_FN_INC_W 0xC000u
#define MMD_DEVAD 0x001Fu

/* Reset values (docs/mdio.md §8.4, assumed). */
#define RESET_BMCR (BMCR_ANENABLE | BMCR_FULLDPLX | BMCR_SPEED1000)
#define RESET_ANAR 0x1DE1u
#define RESET_CTRL1000 C1000_FULL

#define PHY_EMU_MMD_SLOTS 32u /* stored MMD registers per PHY */

struct phy_emu_mmd_reg {
	uint8_t devad; /* MMD, 0 = free slot (MMD 0 is reserved) */
	uint16_t reg; /* register */
	uint16_t val; /* value */
};

struct phy_emu {
	struct phy_emu_config cfg; /* settings */
	struct phy_emu_wire *wire; /* the wire, whose lock protects all below */
	unsigned idx; /* 0 or 1 on the wire */
	uint16_t reg[32]; /* storage (BMCR, ANAR, CTRL1000, INT_ENABLE, MMD_CTRL, others) */
	uint64_t reset_until_ns; /* BMCR.RESET reads 1 before this; 0 = not resetting */
	bool rst_pin; /* RESET_N held (phy_emu_set_reset_pin()) */
	uint64_t rst_since_ns; /* when it was asserted */
	uint64_t anrestart_until_ns; /* BMCR.ANRESTART reads 1 before this */
	bool lstatus_low; /* a link failure since the last BMSR read (latched low) */
	bool aner_page; /* ANER page received, latched high */
	bool aneg_complete; /* link up through autoneg */
	uint16_t lpa; /* ANLPAR */
	uint16_t stat1000; /* STAT1000 */
	uint16_t insr; /* interrupt status, clear on read */
	struct phy_emu_link link; /* as resolved */
	unsigned last_speed; /* speed of the previous link, for the INT bits */
	bool last_duplex; /* duplex of the previous link */
	uint16_t mmd_addr[32]; /* indirect address per MMD */
	struct phy_emu_mmd_reg mmd[PHY_EMU_MMD_SLOTS]; /* stored MMD registers */
	struct emu_line irq; /* INT */
	struct phy_emu_stats st; /* counters */
};

struct phy_emu_wire {
	pthread_mutex_t lock; /* protects the wire and both PHYs */
	pthread_cond_t cond; /* wakes the thread when the state changed */
	struct phy_emu *phy[2]; /* plugged PHYs */
	bool cable; /* connected */
	unsigned max_speed; /* fastest mode the cable carries (Mb/s), default 1000 */
	bool up; /* the link is up */
	uint64_t up_at_ns; /* when training ends; PHY_EMU_NEVER: not training */
	uint64_t now_ns; /* latest model time */
	bool realtime; /* the thread runs */
	bool stop; /* the thread must exit */
	pthread_t thread; /* applies timed events */
};

/* Set interrupt status bits and update the INT line (wire lock held). */
void phy_emu__raise(struct phy_emu *p, uint16_t bits);

/* Powered and out of reset: able to train (wire lock held). */
bool phy_emu__ready(const struct phy_emu *p);

/* Something changed at @t: drop the link and start training again. */
void phy_emu__wire_retrain(struct phy_emu_wire *w, uint64_t t);

/* Apply every timed event due by @now at its own time (wire lock held). */
void phy_emu__wire_advance(struct phy_emu_wire *w, uint64_t now);

#endif /* ETHDRV_EMU_PHY_EMU_PRIV_H */
