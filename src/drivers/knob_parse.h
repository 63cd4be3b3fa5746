/* SPDX-License-Identifier: MIT */
/*
 * Knob value parsing shared by the ring-MAC drivers (fec, gianfar): the
 * values `ethdrv set` and ethtool write, strictly, the whole string.
 */
#ifndef ETHDRV_DRIVERS_KNOB_PARSE_H
#define ETHDRV_DRIVERS_KNOB_PARSE_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Strict decimal 0..@max. 0 or -EINVAL. */
static inline int knob_parse_uint(const char *s, unsigned max, unsigned *out)
{
	unsigned long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* "on"/"off" as ethtool writes them, or 1/0. 0 or -EINVAL. */
static inline int knob_parse_bool(const char *s, bool *out)
{
	if (s && (!strcmp(s, "on") || !strcmp(s, "1")))
		*out = true;
	else if (s && (!strcmp(s, "off") || !strcmp(s, "0")))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

#endif /* ETHDRV_DRIVERS_KNOB_PARSE_H */
