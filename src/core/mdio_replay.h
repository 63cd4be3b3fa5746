/* SPDX-License-Identifier: MIT */
/*
 * Replay of an MDIO transaction script over a bus (internal: tests, the
 * poll-delay benchmark and tools). A script is text, one transaction a
 * line (docs/mdio.md §9.2):
 *
 *	# comment, or an empty line
 *	r ADDR REG            clause-22 read
 *	r ADDR REG = VAL      ... whose value must be VAL (else a mismatch)
 *	w ADDR REG VAL        clause-22 write
 *	p ADDR REG MASK VAL [MAX]
 *	                      read until (value & MASK) == VAL, at most MAX
 *	                      reads (default 1000), as a driver polls a busy bit
 *
 * Numbers are C literals (0x1F, 31). bench/data/mdio-boot.txt is the boot
 * configuration of a board with three switches and a PHY (seed 003),
 * written by bench/data/gen-mdio-boot.py.
 */
#ifndef ETHDRV_CORE_MDIO_REPLAY_H
#define ETHDRV_CORE_MDIO_REPLAY_H

#include <stdint.h>
#include "ethdrv/mdio.h"

#define ETHDRV_MDIO_REPLAY_POLL_MAX 1000u /* default bound of a p line */

struct ethdrv__mdio_script;

/* What a replay did. */
struct ethdrv__mdio_replay_result {
	uint64_t transactions; /* MDIO reads and writes made */
	uint64_t reads; /* of which reads (poll reads included) */
	uint64_t writes; /* of which writes */
	uint64_t polls; /* p lines */
	uint64_t mismatches; /* r lines with a different value */
	uint64_t errors; /* failed transactions and polls that ran out */
	uint64_t elapsed_ns; /* wall time of the run */
	unsigned first_bad_line; /* line of the first mismatch or error, 0 = none */
};

/**
 * ethdrv__mdio_script_parse() - compile a script
 * @text: the script, NUL-terminated
 * @out: receives it
 *
 * Return: 0; -EINVAL for a malformed line (logged with its number); -ENOMEM.
 */
int ethdrv__mdio_script_parse(const char *text, struct ethdrv__mdio_script **out);

/**
 * ethdrv__mdio_script_load() - read and compile a script file
 * @path: the file
 * @out: receives it
 *
 * Return: as ethdrv__mdio_script_parse(), or the -errno of reading @path.
 */
int ethdrv__mdio_script_load(const char *path, struct ethdrv__mdio_script **out);

/** ethdrv__mdio_script_free() - free a script (NULL is ignored). */
void ethdrv__mdio_script_free(struct ethdrv__mdio_script *s);

/** ethdrv__mdio_script_lines() - the transaction lines of @s (r, w and p). */
unsigned ethdrv__mdio_script_lines(const struct ethdrv__mdio_script *s);

/**
 * ethdrv__mdio_script_run() - replay @s on @bus, to the end
 * @s: the script
 * @bus: the bus
 * @res: receives the result
 *
 * Errors and mismatches are counted and the replay goes on, as a boot
 * sequence on a board would log and continue.
 *
 * Return: 0 if every line succeeded and matched, -EIO otherwise.
 */
int ethdrv__mdio_script_run(const struct ethdrv__mdio_script *s, struct ethdrv_mdio_bus *bus,
			    struct ethdrv__mdio_replay_result *res);

#endif /* ETHDRV_CORE_MDIO_REPLAY_H */
