/* SPDX-License-Identifier: MIT */
/*
 * Model of a clause-22 gigabit copper PHY: the Qualcomm Atheros AR8031, as
 * i.MX6 SABRE boards and the i.MX8MQ EVK carry it (docs/mdio.md §8). Two
 * PHYs plugged into one wire (struct phy_emu_wire) negotiate with each
 * other, so the two ENET nodes of a link each see the other as link
 * partner. Written from IEEE 802.3 clauses 22, 28 and 40 (the standard
 * registers, docs/mdio.md §2, §5, §6) and the AR8031 register list
 * (vendor registers 0x11-0x13), never from a driver.
 *
 * Registers (docs/mdio.md §8.2):
 * - 0x00 BMCR: reset 0x1140 (autoneg, full duplex, 1000 Mb/s). RESET
 *   (bit 15) reads 1 for cfg.reset_ns, then every register is back at its
 *   reset value; writes during that time are ignored (counted). ANRESTART
 *   (bit 9) restarts autonegotiation and reads 1 for cfg.anrestart_ns.
 *   PDOWN (bit 11) takes the link down until cleared. Changing ANENABLE,
 *   PDOWN or (with autoneg off) the forced speed/duplex retrains the link.
 * - 0x01 BMSR: 0x7949 capabilities (100/10 full/half, extended status,
 *   preamble suppression, autoneg, extended registers) plus LSTATUS
 *   (bit 2), latched low (IEEE 22.2.4.2.13): a link failure clears it
 *   until BMSR is read, and the read after that shows the current state;
 *   ANEGCOMPLETE (bit 5) while a link negotiated by autoneg is up.
 * - 0x02/0x03 PHYSID: cfg.phy_id, 0x004DD074 for the AR8031 (OUI 00:13:74
 *   bits in 0x004D/0xD0.., model 0x07, revision 4).
 * - 0x04 ANAR (reset 0x1DE1), 0x09 CTRL1000 (reset 0x0200): what this PHY
 *   advertises; a change takes effect at the next autoneg restart.
 * - 0x05 ANLPAR, 0x0A STAT1000: the partner's pages, set when the link
 *   comes up through autoneg and cleared when it goes down. STAT1000 also
 *   carries the master/slave result (bit 14), the fault (bit 15) and the
 *   receiver status bits (13, 12).
 * - 0x06 ANER: LP autoneg able (bit 0), page received (bit 1, latched
 *   high, cleared on read), next page able (bit 2).
 * - 0x0D/0x0E MMD access control/data (indirect clause 45,
 *   docs/mdio.md §2.3): address, data, data with post-increment on read/write or on
 *   write only. MMD registers are storage with the EEE defaults
 *   MMD3.0x14 = 0x0006 and MMD7.0x3C = 0x0006.
 * - 0x0F ESTATUS 0x2000 (1000BASE-T full duplex).
 * - 0x11 PHY-specific status: speed (15:14), duplex (13), resolved (11),
 *   real-time link (10).
 * - 0x12 interrupt enable, 0x13 interrupt status (clear on read): auto-
 *   negotiation error (15), speed changed (14), duplex changed (13), page
 *   received (12), link fail (11), link success (10). The INT line (an
 *   eventfd, level) is asserted while status & enable != 0.
 * - Every other register is read/write storage (reset 0).
 *
 * Link (docs/mdio.md §8.3): the link trains when the cable is connected,
 * both PHYs are powered and out of reset and a common mode exists. It
 * comes up cfg.aneg_ns after the latest (re)start on either side when
 * both autonegotiate, cfg.forced_link_ns when both are forced to the same
 * 10/100 speed, and by parallel detection (aneg side at the forced side's
 * speed, half duplex) when one side is forced. Autoneg resolves the
 * highest common mode of 1000 full (the only gigabit mode ESTATUS offers),
 * 100 full/half, 10 full/half, with
 * the registers as they are when the link comes up; 1000BASE-T resolves
 * master/slave from CTRL1000 bits 12:10 (a tie of automatic ports makes
 * the first PHY on the wire master instead of the standard's random seed;
 * two manual masters or slaves are a fault and no link).
 *
 * Assumptions (the datasheet's reset-value tables were not read;
 * docs/mdio.md §8.4): the reset values above; reset_ns default 1 ms (IEEE caps it at
 * 0.5 s); aneg_ns default 3 s (gigabit link-up takes seconds); forced_link_ns
 * default 50 ms; anrestart_ns default 0; a soft reset also clears the
 * interrupt enable and status registers; native clause-45 frames are not
 * answered (the AR8031 is a clause-22 device) unless cfg.c45_native.
 *
 * Time: every call takes the model time; the wire never runs back. In
 * real-time mode a thread per wire applies timed events (reset done, link
 * up) when they are due so the INT line asserts on time; otherwise the
 * host calls phy_emu_wire_advance() (deterministic tests).
 *
 * Locking: one lock per wire protects both PHYs; the MDIO ops and the
 * injection calls take it. Order: the MDIO controller's lock -> wire lock.
 */
#ifndef ETHDRV_EMU_PHY_EMU_H
#define ETHDRV_EMU_PHY_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/stats.h"
#include "mdio_emu.h"

#define PHY_EMU_ID_AR8031 0x004DD074u /* AR8031 rev 4 (docs/mdio.md §8.1) */
#define PHY_EMU_NEVER UINT64_MAX

/* Vendor registers of the AR8031 (docs/mdio.md §8.2). */
#define PHY_EMU_REG_SPEC_STATUS 0x11u
#define PHY_EMU_REG_INT_ENABLE 0x12u
#define PHY_EMU_REG_INT_STATUS 0x13u
#define PHY_EMU_INT_ANEG_ERR 0x8000u
#define PHY_EMU_INT_SPEED 0x4000u
#define PHY_EMU_INT_DUPLEX 0x2000u
#define PHY_EMU_INT_PAGE 0x1000u
#define PHY_EMU_INT_LINK_FAIL 0x0800u
#define PHY_EMU_INT_LINK_UP 0x0400u
#define PHY_EMU_SS_SPEED 0xC000u /* 0 = 10, 1 = 100, 2 = 1000 */
#define PHY_EMU_SS_DUPLEX 0x2000u
#define PHY_EMU_SS_RESOLVED 0x0800u
#define PHY_EMU_SS_LINK 0x0400u

struct phy_emu_config {
	uint32_t phy_id; /* PHYSID1:PHYSID2; default PHY_EMU_ID_AR8031 */
	uint64_t reset_ns; /* BMCR.RESET reads 1 this long; default 1 ms (assumption) */
	uint64_t hw_reset_min_ns; /* RESET_N low at least this long for a reset; default
				     10 ms (AR8031 datasheet, docs/mdio.md §8.4) */
	uint64_t aneg_ns; /* autoneg (re)start to link up; default 3 s */
	uint64_t forced_link_ns; /* forced 10/100 link-up time; default 50 ms */
	uint64_t anrestart_ns; /* BMCR.ANRESTART reads 1 this long; default 0 */
	bool c45_native; /* also answer clause-45 frames (MMD storage); default false */
};

/* Counters of one PHY; monotonic. */
struct phy_emu_stats {
	ethdrv_counter_t reads; /* clause-22 reads */
	ethdrv_counter_t writes; /* clause-22 writes */
	ethdrv_counter_t writes_ignored; /* writes during a reset */
	ethdrv_counter_t resets; /* soft resets */
	ethdrv_counter_t hw_resets; /* RESET_N pulses long enough: the chip was reset */
	ethdrv_counter_t hw_resets_short; /* pulses shorter than hw_reset_min_ns: no reset */
	ethdrv_counter_t aneg_restarts; /* ANRESTART writes */
	ethdrv_counter_t link_ups; /* link up events seen by this PHY */
	ethdrv_counter_t link_downs; /* link down events */
	ethdrv_counter_t mmd_accesses; /* MMD reads/writes (indirect or native) */
	ethdrv_counter_t irq_asserts; /* INT line asserts */
};

extern const struct ethdrv_stat_desc phy_emu_stats_desc[];
extern const size_t phy_emu_stats_desc_count;

/* The link as one PHY resolved it. */
struct phy_emu_link {
	bool up; /* link up */
	unsigned speed_mbps; /* 10, 100, 1000; 0 while down */
	bool full_duplex; /* resolved duplex */
	bool master; /* 1000BASE-T master */
};

struct phy_emu;
struct phy_emu_wire;

/**
 * phy_emu_wire_new() - a cable between two PHYs (connected)
 * @realtime: run a thread applying timed events on CLOCK_MONOTONIC
 * @out: receives the wire
 *
 * Return: 0, -EINVAL, -ENOMEM or the -errno of pthread_create.
 */
int phy_emu_wire_new(bool realtime, struct phy_emu_wire **out);

/** phy_emu_wire_free() - stop the thread and free (PHYs must be freed first). */
void phy_emu_wire_free(struct phy_emu_wire *wire);

/**
 * phy_emu_wire_set_cable() - connect or disconnect the cable (link down/up
 * injection)
 * @wire: the wire
 * @connected: the new state
 * @now_ns: model time
 */
void phy_emu_wire_set_cable(struct phy_emu_wire *wire, bool connected, uint64_t now_ns);

/**
 * phy_emu_wire_set_max_speed() - the fastest mode the cable carries; the
 * PHYs resolve nothing faster (a forced faster mode gets no link). An
 * assumption standing for a cable or channel that only carries that speed,
 * where a real PHY downshifts after failed attempts (docs/mdio.md §8.4).
 * Takes effect at the next training.
 * @wire: the wire
 * @mbps: 10, 100 or 1000 (the default)
 *
 * Return: 0 or -EINVAL.
 */
int phy_emu_wire_set_max_speed(struct phy_emu_wire *wire, unsigned mbps);

/** phy_emu_wire_advance() - apply timed events due by @now_ns (virtual-time hosts). */
void phy_emu_wire_advance(struct phy_emu_wire *wire, uint64_t now_ns);

/** phy_emu_wire_next_ns() - time of the next timed event, or PHY_EMU_NEVER. */
uint64_t phy_emu_wire_next_ns(struct phy_emu_wire *wire);

/** phy_emu_wire_link_up() - the link (carrier of both MACs) at @now_ns. */
bool phy_emu_wire_link_up(struct phy_emu_wire *wire, uint64_t now_ns);

/** phy_emu_config_default() - fill @cfg with the defaults above. */
void phy_emu_config_default(struct phy_emu_config *cfg);

/**
 * phy_emu_set_reset_pin() - drive the chip's RESET_N input (a board GPIO)
 * @phy: the PHY
 * @asserted: true: reset held (the pin low); false: released
 * @now_ns: the time of the edge
 *
 * While held the chip drives nothing: MDIO reads return 0xFFFF (the bus's
 * pull-up), writes are ignored (counted) and it has no link. Released after
 * at least cfg.hw_reset_min_ns (10 ms, the AR8031 datasheet's reset-low time
 * for a reliable reset), every register is back at its reset value and the
 * link trains again (hw_resets); a shorter pulse is not a reliable reset:
 * the registers keep their values (hw_resets_short). The chip answers MDIO
 * again at the release (assumption: no post-reset delay is documented).
 */
void phy_emu_set_reset_pin(struct phy_emu *phy, bool asserted, uint64_t now_ns);

/**
 * phy_emu_new() - a PHY in its reset state, plugged into @wire
 * @cfg: settings (NULL: defaults); copied
 * @wire: the wire (at most two PHYs)
 * @now_ns: power-up time (the link starts training then)
 * @out: receives the PHY
 *
 * Return: 0, -EINVAL, -EBUSY (wire full), -ENOMEM or the -errno of eventfd.
 */
int phy_emu_new(const struct phy_emu_config *cfg, struct phy_emu_wire *wire, uint64_t now_ns,
		struct phy_emu **out);

/** phy_emu_free() - unplug and free (NULL is ignored); detach it from its bus first. */
void phy_emu_free(struct phy_emu *phy);

/**
 * phy_emu_attach() - put the PHY on an MDIO bus model at @addr
 * @phy: the PHY
 * @bus: the bus
 * @addr: 0..31
 *
 * Return: the result of mdio_emu_attach().
 */
int phy_emu_attach(struct phy_emu *phy, struct mdio_emu *bus, unsigned addr);

/** phy_emu_dev_ops() - the MDIO device ops (dev = the struct phy_emu). */
const struct mdio_emu_dev_ops *phy_emu_dev_ops(void);

/** phy_emu_irq_fd() - the INT line: an eventfd readable while asserted. */
int phy_emu_irq_fd(const struct phy_emu *phy);

/** phy_emu_get_link() - the link as this PHY resolved it at @now_ns. */
void phy_emu_get_link(struct phy_emu *phy, uint64_t now_ns, struct phy_emu_link *link);

/** phy_emu_get_stats() - copy the counters. */
void phy_emu_get_stats(struct phy_emu *phy, struct phy_emu_stats *st);

#endif /* ETHDRV_EMU_PHY_EMU_H */
