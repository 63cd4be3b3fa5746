/* SPDX-License-Identifier: MIT */
/*
 * Knob tables: one line per run-time knob (`ethdrv set`) or device-spec key,
 * next to the code that handles it. `ethdrv set --help`, `ethdrv get IFNAME
 * --list` and the "bad value" errors are made from them (docs/knobs.md), so
 * the help cannot drift from the code. Declaring one:
 *
 *	static const struct ethdrv_knob fec_knobs[] = {
 *		ETHDRV_KNOB_UINT("rx-usecs", 0, 2000000, "us", "RX interrupt delay (ethtool -C)"),
 *		ETHDRV_KNOB_BOOL("adaptive-rx", "DIM moderates RX interrupts (ethtool -C)"),
 *		ETHDRV_KNOB_ENUM("rxboe_action", "drop|count", "what an RX overflow does"),
 *		ETHDRV_KNOB_TEXT("spi_trace", "NAME|off", "write an SPI trace"),
 *	};
 *	const struct ethdrv_knob_table fec_knob_table = ETHDRV_KNOB_TABLE("fec", fec_knobs);
 *
 * A UINT knob's handler should parse with ethdrv_knob_uint() so the range
 * it checks is the one the help shows. A key ending in '*' ("irq.*") is a
 * family: the help's text names its members.
 */
#ifndef ETHDRV_KNOB_H
#define ETHDRV_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ethdrv/compiler.h"

enum ethdrv_knob_type {
	ETHDRV_KNOB_T_UINT, /* decimal in min..max */
	ETHDRV_KNOB_T_BOOL, /* on|off (also 1|0) */
	ETHDRV_KNOB_T_ENUM, /* one of the '|'-separated words of values */
	ETHDRV_KNOB_T_TEXT, /* a form described by values ("NAME|off", "X in 0..0.5") */
	ETHDRV_KNOB_T_RO, /* read only (get) */
};

struct ethdrv_knob {
	const char *key; /* what `ethdrv set` takes; "prefix.*" for a family */
	enum ethdrv_knob_type type;
	uint64_t min, max; /* UINT: accepted values, inclusive */
	const char *values; /* ENUM/TEXT: the accepted forms */
	const char *unit; /* "us", "ns", "ms", "frames", or "" */
	const char *help; /* one line */
};

#define ETHDRV_KNOB_UINT(k, lo, hi, u, h)                                                      \
	{                                                                                      \
		.key = (k), .type = ETHDRV_KNOB_T_UINT, .min = (lo), .max = (hi), .unit = (u), \
		.help = (h)                                                                    \
	}
#define ETHDRV_KNOB_BOOL(k, h)                                                          \
	{                                                                               \
		.key = (k), .type = ETHDRV_KNOB_T_BOOL, .values = "on|off", .unit = "", \
		.help = (h)                                                             \
	}
#define ETHDRV_KNOB_ENUM(k, v, h)                                                              \
	{                                                                                      \
		.key = (k), .type = ETHDRV_KNOB_T_ENUM, .values = (v), .unit = "", .help = (h) \
	}
#define ETHDRV_KNOB_TEXT(k, v, u, h)                                                            \
	{                                                                                       \
		.key = (k), .type = ETHDRV_KNOB_T_TEXT, .values = (v), .unit = (u), .help = (h) \
	}
#define ETHDRV_KNOB_RO(k, u, h)                                                             \
	{                                                                                   \
		.key = (k), .type = ETHDRV_KNOB_T_RO, .values = "(read only)", .unit = (u), \
		.help = (h)                                                                 \
	}

/* The knobs of one component ("core", "oa_tc6", "fec", "emu.lan8650", ...). */
struct ethdrv_knob_table {
	const char *owner;
	const struct ethdrv_knob *knobs;
	size_t count;
};

#define ETHDRV_KNOB_TABLE(owner, arr)                  \
	{                                              \
		(owner), (arr), ETHDRV_ARRAY_SIZE(arr) \
	}

/**
 * ethdrv_knob_find() - the entry of @t for @key (a family entry matches its members)
 * Return: the entry, or NULL.
 */
ETHDRV_EXPORT const struct ethdrv_knob *ethdrv_knob_find(const struct ethdrv_knob_table *t,
							 const char *key);

/**
 * ethdrv_knob_find_in() - the first entry for @key in a NULL-terminated list of tables
 * Return: the entry, or NULL.
 */
ETHDRV_EXPORT const struct ethdrv_knob *
ethdrv_knob_find_in(const struct ethdrv_knob_table *const *tables, const char *key);

/**
 * ethdrv_knob_uint() - parse @s as the UINT knob @k: decimal digits in k->min..k->max
 * Return: 0, or -EINVAL.
 */
ETHDRV_EXPORT int ethdrv_knob_uint(const struct ethdrv_knob *k, const char *s, uint64_t *out);

/**
 * ethdrv_knob_bool() - parse "on"/"1" or "off"/"0"
 * Return: 0, or -EINVAL.
 */
ETHDRV_EXPORT int ethdrv_knob_bool(const char *s, bool *out);

/**
 * ethdrv_knob_enum() - the place of @s among the ENUM knob @k's values
 * ("loop|irq": "loop" is 0, "irq" 1)
 * Return: that index, or -EINVAL.
 */
ETHDRV_EXPORT int ethdrv_knob_enum(const struct ethdrv_knob *k, const char *s);

/**
 * ethdrv_knob_values() - the accepted values of @k as text ("0..64", "on|off")
 * Return: the length, as snprintf.
 */
ETHDRV_EXPORT int ethdrv_knob_values(const struct ethdrv_knob *k, char *buf, size_t size);

/**
 * ethdrv_knob_print() - one help line for @k: "  KEY  VALUES UNIT  HELP\n"
 * Return: the length, as snprintf.
 */
ETHDRV_EXPORT int ethdrv_knob_print(const struct ethdrv_knob *k, char *buf, size_t size);

/* The core's knobs (NAPI, busy polling, BQL; netdev.c), on every device. */
ETHDRV_EXPORT extern const struct ethdrv_knob_table ethdrv_netdev_knob_table;
/* The MDIO and PHY knobs (phy_knobs.c), on every device with an MDIO bus. */
ETHDRV_EXPORT extern const struct ethdrv_knob_table ethdrv_phy_knob_table;

#endif /* ETHDRV_KNOB_H */
