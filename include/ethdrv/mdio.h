/* SPDX-License-Identifier: MIT */
/*
 * MDIO bus (driver-facing): clause-22 and clause-45 management frames over
 * a controller a MAC driver implements (struct ethdrv_mdio_ops), with one
 * of three ways to wait for a frame to finish (docs/mdio.md §4, seed 003):
 *
 * - ETHDRV_MDIO_MODE_IRQ:    sleep on the controller's event line (a level
 *                            fd), bounded by the timeout;
 * - ETHDRV_MDIO_MODE_SLEEP:  ethdrv_poll_timeout() with poll_delay_us
 *                            between tests (the kernel's readl_poll_timeout);
 * - ETHDRV_MDIO_MODE_ATOMIC: ethdrv_poll_timeout_atomic(), a busy-wait of
 *                            poll_delay_us between tests (what fec does
 *                            since 2020: 2 us, 30 ms, docs/napi.md §6.2).
 *
 * Every frame is timed and counted (struct ethdrv_mdio_stats and three
 * histograms: tests per frame, start-to-completion ns, whole-call ns), and
 * registered in a stats set with ethdrv_mdio_register_stats().
 *
 * Reads of an address nobody answers return 0xFFFF, as on a real bus
 * (docs/mdio.md §1.3); telling a missing PHY from a present one is the PHY
 * layer's job (phy.h).
 *
 * Locking: each bus has a mutex; every call takes it for the whole
 * transaction (both frames of a clause-45 access, all four of an indirect
 * MMD access). ethdrv_mdio_lock() lets a MAC driver hold the bus while it
 * rewrites its MDC clock register (docs/mdio.md §4.2).
 */
#ifndef ETHDRV_MDIO_H
#define ETHDRV_MDIO_H

#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"
#include "stats.h"

#define ETHDRV_MDIO_ADDRS 32u /* PHY/port addresses 0..31 */
#define ETHDRV_MDIO_REGS 32u /* clause-22 registers 0..31 */
#define ETHDRV_MDIO_MMDS 32u /* clause-45 MMDs (device addresses) 0..31 */

enum ethdrv_mdio_mode {
	ETHDRV_MDIO_MODE_SLEEP, /* sleeping poll, poll_delay_us between tests */
	ETHDRV_MDIO_MODE_ATOMIC, /* spinning poll, poll_delay_us busy-wait between tests */
	ETHDRV_MDIO_MODE_IRQ, /* wait on the controller's event line */
};

/* The frames a controller sends (docs/mdio.md §1.1). */
enum ethdrv_mdio_op {
	ETHDRV_MDIO_C22_READ, /* ST 01 OP 10 */
	ETHDRV_MDIO_C22_WRITE, /* ST 01 OP 01 */
	ETHDRV_MDIO_C45_ADDR, /* ST 00 OP 00: set the MMD's address register */
	ETHDRV_MDIO_C45_WRITE, /* ST 00 OP 01 */
	ETHDRV_MDIO_C45_READ, /* ST 00 OP 11 */
};

struct ethdrv_mdio_frame {
	enum ethdrv_mdio_op op; /* what to send */
	uint8_t addr; /* PHY (clause 22) or port (clause 45) address, 0..31 */
	uint8_t reg; /* clause-22 register, or clause-45 MMD, 0..31 */
	uint16_t data; /* write data, or the clause-45 register address */
};

/*
 * The controller, implemented by the MAC driver (for fec: EIR, MMFR, the
 * MII event; docs/enet.md §5). Called with the bus lock held, from the
 * thread that made the MDIO call; each returns 0 or -errno.
 *
 * The stale-event contract (docs/mdio.md §4.2, docs/napi.md §6.2): the
 * completion event may be left set by an earlier frame, or raised by a
 * write to the controller's clock register (the ENET raises it when MSCR
 * goes from 0 to non-zero with MMFR != 0). So the core calls ack_event()
 * right before every start() and again once the completion was seen, and
 * test_event() must report only the event itself (one register read, no
 * side effects). The controller must not write its clock register while
 * a frame is in flight unless it holds the bus (ethdrv_mdio_lock()).
 */
struct ethdrv_mdio_ops {
	/** Clear the completion event (fec: write EIR.MII, write-1-to-clear). */
	int (*ack_event)(void *ctx);
	/** Start shifting @f out (fec: write MMFR). */
	int (*start)(void *ctx, const struct ethdrv_mdio_frame *f);
	/** Test the completion event once: *@done = set (fec: read EIR & MII). */
	int (*test_event)(void *ctx, bool *done);
	/** The 16 data bits of the read frame that just completed (fec: MMFR). */
	int (*read_data)(void *ctx, uint16_t *val);
	/** Optional: route the event to the event line, or stop (fec: EIMR.MII).
	 *  Called when the bus enters or leaves irq mode. */
	int (*set_irq)(void *ctx, bool on);
};

struct ethdrv_mdio_config {
	enum ethdrv_mdio_mode mode; /* default ETHDRV_MDIO_MODE_ATOMIC */
	unsigned poll_delay_us; /* between tests in sleep/atomic mode; default 2 */
	unsigned timeout_us; /* per frame; default 30000 (fec); 0 is not allowed */
	int irq_fd; /* the event line: readable while the event is pending and routed;
		       -1 = none (irq mode then refused); default -1 */
	bool c45; /* the controller sends clause-45 frames; default false */
	uint64_t min_frame_ns; /* shortest frame at the current MDC (0 = unknown): an
				  event seen sooner after start is stale (docs/mdio.md §4.2) */
};

/* Counters of one bus; monotonic. */
struct ethdrv_mdio_stats {
	ethdrv_counter_t frames; /* frames completed */
	ethdrv_counter_t c22_reads; /* clause-22 read calls that succeeded */
	ethdrv_counter_t c22_writes; /* clause-22 write calls that succeeded */
	ethdrv_counter_t c45_reads; /* clause-45 reads (native or indirect) */
	ethdrv_counter_t c45_writes; /* clause-45 writes (native or indirect) */
	ethdrv_counter_t polls; /* event tests, all modes */
	ethdrv_counter_t wait_ns; /* start to completion seen, summed */
	ethdrv_counter_t errors; /* controller ops that failed */
	ethdrv_counter_t timeouts; /* frames that did not complete in timeout_us */
	ethdrv_counter_t bad_args; /* bad address, register or MMD (-EINVAL) */
	ethdrv_counter_t stale_events; /* events seen before a frame could end, ignored */
	ethdrv_counter_t irq_waits; /* sleeps on the event line */
	ethdrv_counter_t irq_other; /* line readable without our event (shared line) */
};

/* Figures of the last frame of a bus (benchmarks). */
struct ethdrv_mdio_xfer {
	unsigned polls; /* event tests */
	uint64_t wait_ns; /* start() to completion seen */
	uint64_t frame_ns; /* ack before start to ack after completion */
};

struct ethdrv_mdio_bus;

/** ethdrv_mdio_config_default() - fill @cfg with the defaults above. */
ETHDRV_EXPORT void ethdrv_mdio_config_default(struct ethdrv_mdio_config *cfg);

/**
 * ethdrv_mdio_bus_new() - create a bus over a controller
 * @name: for messages and stats ("fec0"), copied (15 chars kept)
 * @ops: the controller; ack_event, start, test_event and read_data are required
 * @ctx: passed to @ops
 * @cfg: settings (NULL: defaults); copied
 * @out: receives the bus
 *
 * Return: 0; -EINVAL for missing ops, a zero timeout, or irq mode without
 * an irq_fd; -ENOMEM; or the error of ops->set_irq when starting in irq mode.
 * Context: setup.
 */
ETHDRV_EXPORT int ethdrv_mdio_bus_new(const char *name, const struct ethdrv_mdio_ops *ops,
				      void *ctx, const struct ethdrv_mdio_config *cfg,
				      struct ethdrv_mdio_bus **out);

/** ethdrv_mdio_bus_free() - free the bus (NULL is ignored). Context: setup. */
ETHDRV_EXPORT void ethdrv_mdio_bus_free(struct ethdrv_mdio_bus *bus);

/** ethdrv_mdio_bus_name() - the name given at creation. */
ETHDRV_EXPORT const char *ethdrv_mdio_bus_name(const struct ethdrv_mdio_bus *bus);

/**
 * ethdrv_mdio_set_mode() - change the completion mode at run time
 * @bus: the bus
 * @mode: the new mode
 * @poll_delay_us: delay between tests for sleep/atomic (kept for irq mode)
 *
 * Calls ops->set_irq when entering or leaving irq mode.
 *
 * Return: 0, -EINVAL (unknown mode, irq mode without an event line, delay
 * above 1000000) or the error of ops->set_irq (the mode is then unchanged).
 */
ETHDRV_EXPORT int ethdrv_mdio_set_mode(struct ethdrv_mdio_bus *bus, enum ethdrv_mdio_mode mode,
				       unsigned poll_delay_us);

/**
 * ethdrv_mdio_set_min_frame_ns() - the shortest frame at the MDC in use
 * @bus: the bus
 * @ns: 0 turns the stale-event check off
 *
 * The MAC driver calls it after programming its MDC (docs/mdio.md §4.2).
 */
ETHDRV_EXPORT void ethdrv_mdio_set_min_frame_ns(struct ethdrv_mdio_bus *bus, uint64_t ns);

/** ethdrv_mdio_get_config() - the settings in effect. */
ETHDRV_EXPORT void ethdrv_mdio_get_config(struct ethdrv_mdio_bus *bus,
					  struct ethdrv_mdio_config *cfg);

/**
 * ethdrv_mdio_mode_parse() - "irq", "sleep" or "atomic" to a mode
 * @s: the name
 * @mode: receives the mode
 *
 * Return: 0 or -EINVAL.
 */
ETHDRV_EXPORT int ethdrv_mdio_mode_parse(const char *s, enum ethdrv_mdio_mode *mode);

/** ethdrv_mdio_mode_name() - the name of @mode, "?" when unknown. */
ETHDRV_EXPORT const char *ethdrv_mdio_mode_name(enum ethdrv_mdio_mode mode);

/**
 * ethdrv_mdio_read() - clause-22 read
 * @bus: the bus
 * @addr: PHY address 0..31
 * @reg: register 0..31
 * @val: receives the value (0xFFFF when nobody answers)
 *
 * Return: 0; -EINVAL (bad @addr or @reg, counted in bad_args); -ETIMEDOUT;
 * or a controller op's error.
 * Context: may sleep (sleep and irq modes); never from a signal handler.
 */
ETHDRV_EXPORT int ethdrv_mdio_read(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned reg,
				   uint16_t *val);

/** ethdrv_mdio_write() - clause-22 write; as ethdrv_mdio_read(). */
ETHDRV_EXPORT int ethdrv_mdio_write(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned reg,
				    uint16_t val);

/**
 * ethdrv_mdio_c45_read() - native clause-45 read (an address frame, then a
 * read frame)
 * @bus: the bus
 * @addr: port address 0..31
 * @mmd: MMD 0..31
 * @reg: register 0..65535
 * @val: receives the value
 *
 * Return: as ethdrv_mdio_read(); -EOPNOTSUPP if the controller sends no
 * clause-45 frames (use ethdrv_mdio_mmd_read_indirect()).
 */
ETHDRV_EXPORT int ethdrv_mdio_c45_read(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned mmd,
				       unsigned reg, uint16_t *val);

/** ethdrv_mdio_c45_write() - native clause-45 write; as ethdrv_mdio_c45_read(). */
ETHDRV_EXPORT int ethdrv_mdio_c45_write(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned mmd,
					unsigned reg, uint16_t val);

/**
 * ethdrv_mdio_mmd_read_indirect() - MMD read through clause-22 registers
 * 13 and 14 (docs/mdio.md §2.3): four clause-22 frames under one lock
 * @bus: the bus
 * @addr: PHY address 0..31
 * @mmd: MMD 0..31
 * @reg: register 0..65535
 * @val: receives the value
 *
 * Return: as ethdrv_mdio_read().
 */
ETHDRV_EXPORT int ethdrv_mdio_mmd_read_indirect(struct ethdrv_mdio_bus *bus, unsigned addr,
						unsigned mmd, unsigned reg, uint16_t *val);

/** ethdrv_mdio_mmd_write_indirect() - MMD write through registers 13/14. */
ETHDRV_EXPORT int ethdrv_mdio_mmd_write_indirect(struct ethdrv_mdio_bus *bus, unsigned addr,
						 unsigned mmd, unsigned reg, uint16_t val);

/** ethdrv_mdio_is_c45() - the controller sends clause-45 frames. */
ETHDRV_EXPORT bool ethdrv_mdio_is_c45(const struct ethdrv_mdio_bus *bus);

/**
 * ethdrv_mdio_lock() - hold the bus between transactions
 * @bus: the bus
 *
 * For a MAC driver that rewrites its MDC clock register (fec's MSCR in
 * restart and stop) while other threads may use the bus. Not recursive:
 * make no MDIO calls while holding it.
 */
ETHDRV_EXPORT void ethdrv_mdio_lock(struct ethdrv_mdio_bus *bus);

/** ethdrv_mdio_unlock() - release ethdrv_mdio_lock(). */
ETHDRV_EXPORT void ethdrv_mdio_unlock(struct ethdrv_mdio_bus *bus);

/** ethdrv_mdio_get_stats() - snapshot of the counters. */
ETHDRV_EXPORT void ethdrv_mdio_get_stats(struct ethdrv_mdio_bus *bus, struct ethdrv_mdio_stats *st);

/** ethdrv_mdio_last_xfer() - figures of the last completed frame. */
ETHDRV_EXPORT void ethdrv_mdio_last_xfer(struct ethdrv_mdio_bus *bus, struct ethdrv_mdio_xfer *x);

/**
 * ethdrv_mdio_register_stats() - add the counters (prefix "mdio") and the
 * histograms mdio_frame_polls, mdio_frame_wait_ns and mdio_frame_ns to @set
 * @bus: the bus
 * @set: the stats set (the bus must outlive it)
 *
 * Return: 0 or the error of ethdrv_stats_add_group()/ethdrv_stats_add_hist().
 */
ETHDRV_EXPORT int ethdrv_mdio_register_stats(struct ethdrv_mdio_bus *bus,
					     struct ethdrv_stats_set *set);

/** The descriptors of struct ethdrv_mdio_stats. */
ETHDRV_EXPORT extern const struct ethdrv_stat_desc ethdrv_mdio_stats_desc[];
ETHDRV_EXPORT extern const size_t ethdrv_mdio_stats_desc_count;

#endif /* ETHDRV_MDIO_H */
