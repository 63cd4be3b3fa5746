/* SPDX-License-Identifier: MIT */
/*
 * PHY layer, shaped after Linux phylib (docs/mdio.md §5-§7,
 * docs/napi.md §7): a PHY on an MDIO bus is probed by its ID against a
 * table of PHY drivers (a generic clause-22 driver when none matches),
 * soft-reset and autonegotiated, and a state machine on the event loop
 * follows its link:
 *
 *	DOWN -> READY (probed) -> UP (started, autoneg configured)
 *	     -> RUNNING (link up) <-> NOLINK (link down)
 *	     -> HALTED (stopped) / ERROR (an MDIO error)
 *
 * The machine runs every poll_ms (default 1000, phylib's PHY_STATE_TIME),
 * or when the PHY's interrupt line rings (the PHY driver reads and acks its
 * interrupt status), or when the MAC driver calls ethdrv_phy_mac_interrupt()
 * (phylib's PHY_MAC_INTERRUPT). Each change of the link calls the
 * link-change callback, which the netdev side uses to set carrier.
 *
 * Link status honours the latched-low BMSR bit exactly as Linux's
 * genphy_update_link does (docs/mdio.md §5): while autoneg restarts the
 * link reads down; in polling mode with the link up, BMSR is read once so a
 * drop since the last poll shows; otherwise a first read that shows the
 * link up is taken and a down reading is confirmed by a second read.
 *
 * Context: every call from the loop thread of @loop (or before the loop
 * runs); nothing here is thread-safe except through the MDIO bus lock.
 */
#ifndef ETHDRV_PHY_H
#define ETHDRV_PHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "loop.h"
#include "mdio.h"
#include "stats.h"

#define ETHDRV_PHY_POLL_MS_DEFAULT 1000u /* phylib PHY_STATE_TIME (docs/napi.md §7.2) */
#define ETHDRV_PHY_ID_NONE 0xFFFFFFFFu /* what an empty address reads */

enum ethdrv_phy_state {
	ETHDRV_PHY_DOWN, /* not probed */
	ETHDRV_PHY_READY, /* probed, not started */
	ETHDRV_PHY_UP, /* started; the first run checks the link */
	ETHDRV_PHY_RUNNING, /* link up */
	ETHDRV_PHY_NOLINK, /* link down */
	ETHDRV_PHY_HALTED, /* stopped */
	ETHDRV_PHY_ERROR, /* an MDIO access failed; stopped until restarted */
};

/* How the machine learns about link changes (phylib phydev->irq). */
enum ethdrv_phy_irq_mode {
	ETHDRV_PHY_IRQ_POLL, /* every poll_ms (PHY_POLL) */
	ETHDRV_PHY_IRQ_LINE, /* the PHY's interrupt line (cfg.irq_fd) */
	ETHDRV_PHY_IRQ_MAC, /* the MAC driver calls ethdrv_phy_mac_interrupt() */
};

/* The link as the PHY resolved it. */
struct ethdrv_phy_link {
	bool up; /* link (carrier) */
	unsigned speed_mbps; /* 10, 100, 1000; 0 while down */
	bool full_duplex; /* resolved duplex */
	bool pause; /* partner advertises symmetric pause */
	bool asym_pause; /* partner advertises asymmetric pause */
};

struct ethdrv_phy;

/**
 * typedef ethdrv_phy_link_fn - the link changed
 * @arg: cfg.link_arg
 * @link: the new link state
 *
 * Context: the loop thread, from the state machine.
 */
typedef void (*ethdrv_phy_link_fn)(void *arg, const struct ethdrv_phy_link *link);

/*
 * A PHY driver (phylib struct phy_driver). Every op is optional; NULL uses
 * the generic clause-22 behaviour (ethdrv_genphy_*). Ops return 0 or -errno.
 */
struct ethdrv_phy_driver {
	const char *name; /* "AR8031" */
	uint32_t phy_id; /* PHYSID1 << 16 | PHYSID2 */
	uint32_t phy_id_mask; /* bits of phy_id that must match */
	/** Soft reset, bounded (generic: BMCR.RESET, poll until it clears). */
	int (*soft_reset)(struct ethdrv_phy *phy);
	/** Vendor set-up after the reset. */
	int (*config_init)(struct ethdrv_phy *phy);
	/** Advertise and restart autoneg (generic: ANAR, CTRL1000, BMCR). */
	int (*config_aneg)(struct ethdrv_phy *phy);
	/** Refresh phy->link and phy->autoneg_complete (generic: genphy). */
	int (*read_status)(struct ethdrv_phy *phy);
	/** Enable or disable the PHY's link interrupts and clear pending ones.
	 *  NULL: the PHY has no usable interrupt (ETHDRV_PHY_IRQ_LINE refused). */
	int (*config_intr)(struct ethdrv_phy *phy, bool on);
	/** Read and acknowledge the interrupt status (releasing the line);
	 *  *@ours = an enabled source fired. Required with config_intr. */
	int (*handle_interrupt)(struct ethdrv_phy *phy, bool *ours);
};

struct ethdrv_phy_config {
	unsigned addr; /* MDIO address 0..31 */
	enum ethdrv_phy_irq_mode irq_mode; /* default ETHDRV_PHY_IRQ_POLL */
	int irq_fd; /* the PHY's interrupt line (level fd) for IRQ_LINE; default -1 */
	unsigned poll_ms; /* POLL period, 1..60000; default 1000 */
	bool advertise_pause; /* advertise symmetric and asymmetric pause; default false */
	bool mmd_native; /* MMD registers by clause-45 frames (a PHY behind a bus that maps
			    them, Linux's microchip_t1s over oa_tc6); false: registers 13/14 */
	const struct ethdrv_phy_driver *const *drivers; /* NULL-terminated table; NULL: generic */
	ethdrv_phy_link_fn link_change; /* link changes; may be NULL */
	void *link_arg; /* passed to link_change */
};

/* Counters of one PHY; monotonic. */
struct ethdrv_phy_stats {
	ethdrv_counter_t machine_runs; /* state machine runs */
	ethdrv_counter_t irqs; /* interrupt line wakeups (PHY or MAC) */
	ethdrv_counter_t irqs_foreign; /* wakeups without an enabled source */
	ethdrv_counter_t link_ups; /* link-change callbacks with link up */
	ethdrv_counter_t link_downs; /* ... with link down */
	ethdrv_counter_t aneg_restarts; /* autoneg restarts */
	ethdrv_counter_t soft_resets; /* soft resets */
	ethdrv_counter_t errors; /* MDIO or driver errors */
};

/*
 * A PHY. Fields are owned by the core; PHY drivers read them and update
 * link and autoneg_complete in read_status.
 */
struct ethdrv_phy {
	struct ethdrv_mdio_bus *bus; /* the bus it sits on */
	struct ethdrv_loop *loop; /* where the state machine runs */
	struct ethdrv_phy_config cfg; /* settings */
	uint32_t phy_id; /* as read at probe */
	const struct ethdrv_phy_driver *drv; /* matched driver, or the generic one */
	enum ethdrv_phy_state state; /* state machine */
	struct ethdrv_phy_link link; /* as last read */
	bool autoneg; /* autoneg used: BMSR.ANEGCAPABLE at probe (else a forced mode) */
	bool autoneg_complete; /* BMSR.ANEGCOMPLETE at the last update */
	bool gigabit; /* 1000BASE-T capable (BMSR.ESTATEN and ESTATUS) */
	uint16_t bmsr_caps; /* BMSR ability bits at probe */
	uint16_t estatus; /* ESTATUS at probe (0 if none) */
	uint16_t adv; /* ADVERTISE as written */
	uint16_t adv1000; /* CTRL1000 advertisement bits as written */
	bool reported_up; /* the link state last given to link_change */
	bool reported; /* link_change was called at least once */
	struct ethdrv_timer timer; /* poll timer */
	struct ethdrv_watch watch; /* interrupt line watcher */
	bool watching; /* watch is started */
	struct ethdrv_phy_stats st; /* counters */
};

/* The built-in PHY drivers (src/drivers/phy_*.c), NULL-terminated. */
ETHDRV_EXPORT extern const struct ethdrv_phy_driver *const ethdrv_phy_drivers[];

/** ethdrv_phy_config_default() - fill @cfg with the defaults above (addr 0). */
ETHDRV_EXPORT void ethdrv_phy_config_default(struct ethdrv_phy_config *cfg);

/**
 * ethdrv_phy_probe() - find the PHY at cfg->addr and match a driver
 * @bus: the MDIO bus
 * @loop: the loop the state machine will run on
 * @cfg: settings; copied
 * @out: receives the PHY (state READY)
 *
 * Reads PHYSID1/2; an ID of all ones or all zeros means nobody answers
 * (docs/mdio.md §1.3). Reads BMSR and ESTATUS for the abilities.
 *
 * Return: 0; -ENODEV for a missing PHY (with a log line naming bus and
 * address); -EINVAL for bad settings (address, poll_ms, irq mode without a
 * line); -ENOMEM; or the MDIO error.
 */
ETHDRV_EXPORT int ethdrv_phy_probe(struct ethdrv_mdio_bus *bus, struct ethdrv_loop *loop,
				   const struct ethdrv_phy_config *cfg, struct ethdrv_phy **out);

/**
 * ethdrv_phy_find() - the first address on @bus whose PHYSID is neither all
 * ones nor all zeros (a MAC driver without a phy-handle, docs/mdio.md §1.3)
 * @bus: the MDIO bus
 * @addr: receives the address
 *
 * Return: 0, -ENODEV when nobody answers, or the MDIO error.
 */
ETHDRV_EXPORT int ethdrv_phy_find(struct ethdrv_mdio_bus *bus, unsigned *addr);

/** ethdrv_phy_free() - stop if needed and free (NULL is ignored). */
ETHDRV_EXPORT void ethdrv_phy_free(struct ethdrv_phy *phy);

/**
 * ethdrv_phy_start() - reset, configure, start autoneg and the machine
 * @phy: a READY, HALTED or ERROR PHY
 *
 * Soft reset (bounded), config_init, config_aneg, the interrupt in IRQ_LINE
 * mode; then state UP and one machine run. The link comes up later.
 *
 * Return: 0; -EBUSY if already started; -EOPNOTSUPP for IRQ_LINE with a
 * driver without interrupts; -ETIMEDOUT if the reset does not clear; or an
 * MDIO/loop error (the PHY is then in ERROR).
 */
ETHDRV_EXPORT int ethdrv_phy_start(struct ethdrv_phy *phy);

/**
 * ethdrv_phy_stop() - stop the machine (HALTED); reports link down if it
 * was up and disables the PHY's interrupt
 * @phy: the PHY
 */
ETHDRV_EXPORT void ethdrv_phy_stop(struct ethdrv_phy *phy);

/**
 * ethdrv_phy_mac_interrupt() - the link may have changed: run the machine
 * now (phylib phy_mac_interrupt; also usable in the other modes)
 * @phy: the PHY
 */
ETHDRV_EXPORT void ethdrv_phy_mac_interrupt(struct ethdrv_phy *phy);

/**
 * ethdrv_phy_set_poll_ms() - change the poll period ("phy_poll_ms")
 * @phy: the PHY
 * @ms: 1..60000
 *
 * Return: 0 or -EINVAL; a running poll timer is re-armed.
 */
ETHDRV_EXPORT int ethdrv_phy_set_poll_ms(struct ethdrv_phy *phy, unsigned ms);

/**
 * ethdrv_phy_set_irq_mode() - switch between polling, the PHY's line and
 * the MAC's interrupt at run time ("phy_irq")
 * @phy: the PHY
 * @mode: the new mode
 * @irq_fd: the line for ETHDRV_PHY_IRQ_LINE (ignored otherwise)
 *
 * Return: 0, -EINVAL (no line), -EOPNOTSUPP (driver without interrupts) or
 * an MDIO error.
 */
ETHDRV_EXPORT int ethdrv_phy_set_irq_mode(struct ethdrv_phy *phy, enum ethdrv_phy_irq_mode mode,
					  int irq_fd);

/** ethdrv_phy_state_name() - "running", "nolink", ...; "?" when unknown. */
ETHDRV_EXPORT const char *ethdrv_phy_state_name(enum ethdrv_phy_state state);

/** ethdrv_phy_driver_name() - the matched driver's name ("Generic PHY" if none). */
ETHDRV_EXPORT const char *ethdrv_phy_driver_name(const struct ethdrv_phy *phy);

/**
 * ethdrv_phy_read() - clause-22 register of this PHY (phytool read)
 * @phy: the PHY
 * @reg: 0..31
 * @val: receives the value
 *
 * Return: 0, -EINVAL for a bad register (logged), or the MDIO error.
 */
ETHDRV_EXPORT int ethdrv_phy_read(struct ethdrv_phy *phy, unsigned reg, uint16_t *val);

/** ethdrv_phy_write() - clause-22 write; as ethdrv_phy_read(). */
ETHDRV_EXPORT int ethdrv_phy_write(struct ethdrv_phy *phy, unsigned reg, uint16_t val);

/**
 * ethdrv_phy_read_mmd() - MMD register: native clause 45 when the bus sends
 * it, else indirect through registers 13/14 (phylib phy_read_mmd for a
 * clause-22 PHY uses the indirect path; so do we unless @native)
 * @phy: the PHY
 * @native: use clause-45 frames (the bus must support them)
 * @mmd: 0..31
 * @reg: 0..65535
 * @val: receives the value
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP or the MDIO error.
 */
ETHDRV_EXPORT int ethdrv_phy_read_mmd(struct ethdrv_phy *phy, bool native, unsigned mmd,
				      unsigned reg, uint16_t *val);

/** ethdrv_phy_write_mmd() - as ethdrv_phy_read_mmd(). */
ETHDRV_EXPORT int ethdrv_phy_write_mmd(struct ethdrv_phy *phy, bool native, unsigned mmd,
				       unsigned reg, uint16_t val);

/** ethdrv_phy_soft_reset() - the driver's (or the generic) bounded soft reset. */
ETHDRV_EXPORT int ethdrv_phy_soft_reset(struct ethdrv_phy *phy);

/** ethdrv_phy_restart_aneg() - advertise and restart autoneg (config_aneg). */
ETHDRV_EXPORT int ethdrv_phy_restart_aneg(struct ethdrv_phy *phy);

/**
 * ethdrv_phy_register_stats() - add the counters (prefix "phy") to @set
 * @phy: the PHY (must outlive @set)
 * @set: the stats set
 *
 * Return: the result of ethdrv_stats_add_group().
 */
ETHDRV_EXPORT int ethdrv_phy_register_stats(struct ethdrv_phy *phy, struct ethdrv_stats_set *set);

/**
 * ethdrv_phy_attach() - ethdrv_phy_probe(), then the PHY's counters into @set
 * @bus: the MAC's MDIO bus
 * @loop: the device's loop
 * @cfg: the PHY's address, drivers, interrupt and link callback
 * @set: the device's stats set
 * @out: receives the PHY, as ethdrv_phy_probe() sets it (on a stats error the PHY
 *       stays in *@out for ethdrv_phy_bus_free())
 *
 * What every driver does with its PHY at setup (oa_tc6, fec, ravb,
 * gianfar); ethdrv_phy_bus_free() undoes it.
 * Return: 0, or the error of the probe or of the stats registration.
 * Context: setup.
 */
ETHDRV_EXPORT int ethdrv_phy_attach(struct ethdrv_mdio_bus *bus, struct ethdrv_loop *loop,
				    const struct ethdrv_phy_config *cfg,
				    struct ethdrv_stats_set *set, struct ethdrv_phy **out);

/**
 * ethdrv_phy_bus_free() - free *@phy, then *@bus, and clear both (NULLs are ignored)
 * @phy: the device's PHY
 * @bus: the MDIO bus it sat on
 */
ETHDRV_EXPORT void ethdrv_phy_bus_free(struct ethdrv_phy **phy, struct ethdrv_mdio_bus **bus);

/* ---- generic clause-22 behaviour, for PHY drivers to build on ---- */

/** ethdrv_genphy_soft_reset() - BMCR.RESET, then poll (1 ms apart, 600 ms). */
ETHDRV_EXPORT int ethdrv_genphy_soft_reset(struct ethdrv_phy *phy);

/** ethdrv_genphy_config_aneg() - write ANAR/CTRL1000 from the abilities and
 * restart autoneg; without autoneg ability force the best 10/100 mode. */
ETHDRV_EXPORT int ethdrv_genphy_config_aneg(struct ethdrv_phy *phy);

/**
 * ethdrv_genphy_update_link() - phy->link.up and phy->autoneg_complete from
 * BMCR/BMSR with Linux's latched-low rule (docs/mdio.md §5)
 * @phy: the PHY
 *
 * Return: 0 or the MDIO error.
 */
ETHDRV_EXPORT int ethdrv_genphy_update_link(struct ethdrv_phy *phy);

/**
 * ethdrv_genphy_read_lpa() - resolve speed, duplex and pause from the
 * advertisements (ANAR/ANLPAR, CTRL1000/STAT1000; docs/mdio.md §6)
 * @phy: the PHY, with link.up and autoneg_complete up to date
 *
 * Return: 0, -ENOLINK for a master/slave fault, or the MDIO error.
 */
ETHDRV_EXPORT int ethdrv_genphy_read_lpa(struct ethdrv_phy *phy);

/** ethdrv_genphy_read_status() - update_link, then read_lpa (or BMCR when forced). */
ETHDRV_EXPORT int ethdrv_genphy_read_status(struct ethdrv_phy *phy);

/* ---- the knobs MAC drivers expose (src/core/phy_knobs.c) ---- */

/* What a device's MDIO and PHY knobs act on. */
struct ethdrv_phy_knobs {
	struct ethdrv_mdio_bus *bus; /* mdio_mode, mdio_poll_delay_us; NULL: no MDIO bus */
	struct ethdrv_phy *phy; /* phy_poll_ms, phy_irq; NULL: no PHY (a fixed link) */
	enum ethdrv_phy_irq_mode irq_mode; /* what phy_irq=1 selects: IRQ_LINE, IRQ_MAC,
					      or IRQ_POLL when the board has no PHY interrupt */
	int irq_fd; /* the PHY's line for IRQ_LINE */
};

/**
 * ethdrv_phy_knob_set() - set one MDIO or PHY knob
 * @k: what they act on
 * @key: "mdio_mode" (irq, sleep, atomic), "mdio_poll_delay_us" (0..1000000),
 *       "phy_poll_ms" (1..60000), "phy_irq" (0: poll; 1: the PHY's
 *       interrupt, @k->irq_mode)
 * @value: the value as text
 *
 * Return: 0; -ENOENT for another key; -ENODEV when the device has no bus
 * or no PHY for it; -EINVAL for a bad value; -EOPNOTSUPP for phy_irq=1
 * without a PHY interrupt; or the error of the bus or PHY call.
 * Context: the loop thread.
 */
ETHDRV_EXPORT int ethdrv_phy_knob_set(const struct ethdrv_phy_knobs *k, const char *key,
				      const char *value);

/**
 * ethdrv_phy_knob_get() - read one knob of ethdrv_phy_knob_set() as text
 * @k: what they act on
 * @key: the knob
 * @buf: output
 * @size: its size
 *
 * Return: 0, -ENOENT, -ENODEV or -ENOSPC.
 */
ETHDRV_EXPORT int ethdrv_phy_knob_get(const struct ethdrv_phy_knobs *k, const char *key, char *buf,
				      size_t size);

/** The descriptors of struct ethdrv_phy_stats. */
ETHDRV_EXPORT extern const struct ethdrv_stat_desc ethdrv_phy_stats_desc[];
ETHDRV_EXPORT extern const size_t ethdrv_phy_stats_desc_count;

#endif /* ETHDRV_PHY_H */
