/* SPDX-License-Identifier: MIT */
/*
 * Switch-like register block on an MDIO bus: an Ethernet switch strapped
 * for multi-chip addressing, the way a Marvell 88E6xxx switch answers at one
 * MDIO address (docs/mdio.md §9). Several of them on one bus model a board
 * that configures three switches and a PHY at boot (seed 003: over 6500
 * MDIO transactions), so that configuration can be replayed
 * (bench/data/mdio-boot.txt, src/core/mdio_replay.c).
 *
 * At its MDIO address the block has two clause-22 registers:
 * - 0x00 SMI command: BUSY (bit 15), MODE (bit 12, 1 = clause 22),
 *   OP (bits 11:10: 01 write, 10 read), DEV (bits 9:5), REG (bits 4:0).
 *   Writing it with BUSY set starts an access to internal register REG of
 *   internal device DEV; BUSY reads 1 until cfg.busy_ns have passed; a
 *   write takes SMI data, a read leaves the internal register in SMI data.
 * - 0x01 SMI data.
 * Internal registers are storage (32 devices x 32 registers, reset 0),
 * except the switch identifier, register 3 of every port device
 * (cfg.first_port .. + cfg.ports - 1), which reads cfg.product_id and
 * ignores writes.
 *
 * Assumptions (docs/mdio.md §9): a command written while BUSY is set is
 * ignored (counted in busy_errors); clause-45 mode (MODE 0) and unknown
 * opcodes complete without effect (counted in bad_commands); other MDIO
 * registers read 0 and ignore writes.
 *
 * Locking: one lock per switch; the MDIO ops take it.
 */
#ifndef ETHDRV_EMU_SWITCH_EMU_H
#define ETHDRV_EMU_SWITCH_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/stats.h"
#include "mdio_emu.h"

#define SWITCH_EMU_REG_CMD 0x00u
#define SWITCH_EMU_REG_DATA 0x01u
#define SWITCH_EMU_CMD_BUSY 0x8000u
#define SWITCH_EMU_CMD_MODE_C22 0x1000u
#define SWITCH_EMU_CMD_OP 0x0C00u
#define SWITCH_EMU_CMD_OP_WRITE 0x0400u
#define SWITCH_EMU_CMD_OP_READ 0x0800u
#define SWITCH_EMU_CMD_DEV 0x03E0u
#define SWITCH_EMU_CMD_REG 0x001Fu
#define SWITCH_EMU_PORT_ID_REG 0x03u

struct switch_emu_config {
	uint16_t product_id; /* port register 3; default 0x3521 (an 88E6352-style ID) */
	unsigned first_port; /* internal device of port 0; default 0x10 */
	unsigned ports; /* port devices; default 7 */
	uint64_t busy_ns; /* an indirect access keeps BUSY this long; default 0 */
};

struct switch_emu_stats {
	ethdrv_counter_t reads; /* internal reads */
	ethdrv_counter_t writes; /* internal writes */
	ethdrv_counter_t busy_polls; /* command register reads that saw BUSY */
	ethdrv_counter_t busy_errors; /* commands written while BUSY */
	ethdrv_counter_t bad_commands; /* clause-45 mode or unknown opcode */
};

extern const struct ethdrv_stat_desc switch_emu_stats_desc[];
extern const size_t switch_emu_stats_desc_count;

struct switch_emu;

/** switch_emu_config_default() - fill @cfg with the defaults above. */
void switch_emu_config_default(struct switch_emu_config *cfg);

/**
 * switch_emu_new() - a switch in its reset state
 * @cfg: settings (NULL: defaults); copied
 * @out: receives it
 *
 * Return: 0, -EINVAL (ports beyond device 31, NULL @out) or -ENOMEM.
 */
int switch_emu_new(const struct switch_emu_config *cfg, struct switch_emu **out);

/** switch_emu_free() - free (detach it from the bus first); NULL is ignored. */
void switch_emu_free(struct switch_emu *sw);

/** switch_emu_attach() - put it on @bus at @addr (mdio_emu_attach() result). */
int switch_emu_attach(struct switch_emu *sw, struct mdio_emu *bus, unsigned addr);

/**
 * switch_emu_peek() - an internal register, without side effects
 * @sw: the switch
 * @dev: internal device 0..31
 * @reg: register 0..31
 *
 * Return: the value (0 for out-of-range arguments).
 */
uint16_t switch_emu_peek(struct switch_emu *sw, unsigned dev, unsigned reg);

/** switch_emu_get_stats() - copy the counters. */
void switch_emu_get_stats(struct switch_emu *sw, struct switch_emu_stats *st);

#endif /* ETHDRV_EMU_SWITCH_EMU_H */
