// SPDX-License-Identifier: MIT
/* Knob tables (knob.h): lookup, range-checked parsing, and help lines. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/knob.h"

/* True when @key is @pattern, or @pattern is "prefix*" and @key extends the prefix. */
static bool knob_match(const char *pattern, const char *key)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return strlen(key) > n - 1 && !strncmp(pattern, key, n - 1);
	return !strcmp(pattern, key);
}

ETHDRV_EXPORT const struct ethdrv_knob *ethdrv_knob_find(const struct ethdrv_knob_table *t,
							 const char *key)
{
	if (!t || !key)
		return NULL;
	for (size_t i = 0; i < t->count; i++)
		if (knob_match(t->knobs[i].key, key))
			return &t->knobs[i];
	return NULL;
}

ETHDRV_EXPORT const struct ethdrv_knob *
ethdrv_knob_find_in(const struct ethdrv_knob_table *const *tables, const char *key)
{
	const struct ethdrv_knob *k;

	for (; tables && *tables; tables++)
		if ((k = ethdrv_knob_find(*tables, key)))
			return k;
	return NULL;
}

ETHDRV_EXPORT int ethdrv_knob_uint(const struct ethdrv_knob *k, const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!k || !s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < k->min || v > k->max)
		return -EINVAL;
	*out = v;
	return 0;
}

ETHDRV_EXPORT int ethdrv_knob_bool(const char *s, bool *out)
{
	if (s && (!strcmp(s, "on") || !strcmp(s, "1")))
		*out = true;
	else if (s && (!strcmp(s, "off") || !strcmp(s, "0")))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

ETHDRV_EXPORT int ethdrv_knob_enum(const struct ethdrv_knob *k, const char *s)
{
	const char *v = k->values;
	size_t len = s ? strlen(s) : 0;

	if (k->type != ETHDRV_KNOB_T_ENUM || !v || !len)
		return -EINVAL;
	for (int i = 0;; i++) {
		const char *bar = strchr(v, '|');
		size_t n = bar ? (size_t)(bar - v) : strlen(v);

		if (n == len && !strncmp(v, s, n))
			return i;
		if (!bar)
			return -EINVAL;
		v = bar + 1;
	}
}

ETHDRV_EXPORT int ethdrv_knob_values(const struct ethdrv_knob *k, char *buf, size_t size)
{
	if (k->type == ETHDRV_KNOB_T_UINT)
		return snprintf(buf, size, "%" PRIu64 "..%" PRIu64, k->min, k->max);
	return snprintf(buf, size, "%s", k->values ? k->values : "");
}

#define KNOB_HELP_COL 50 /* where the help text starts */
#define KNOB_HELP_WIDTH 100 /* and where it wraps */

/* @text wrapped at KNOB_HELP_WIDTH, continuation lines indented to KNOB_HELP_COL. */
static int knob_wrap(char *buf, size_t size, size_t used, const char *text)
{
	size_t col = KNOB_HELP_COL;
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > KNOB_HELP_COL && col + 1 + w > KNOB_HELP_WIDTH) {
			used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "\n%*s",
						 KNOB_HELP_COL, "");
			col = KNOB_HELP_COL;
		} else if (col > KNOB_HELP_COL) {
			used += (size_t)snprintf(buf + used, used < size ? size - used : 0, " ");
			col++;
		}
		used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%.*s", (int)w,
					 p);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "\n");
	return (int)used;
}

ETHDRV_EXPORT int ethdrv_knob_print(const struct ethdrv_knob *k, char *buf, size_t size)
{
	char values[96];
	int n;

	ethdrv_knob_values(k, values, sizeof(values));
	if (k->unit && *k->unit)
		snprintf(values + strlen(values), sizeof(values) - strlen(values), " %s", k->unit);
	if (strlen(values) > 24) /* the help on a line of its own, under the values */
		n = snprintf(buf, size, "  %-22s %s\n%*s", k->key, values, KNOB_HELP_COL, "");
	else
		n = snprintf(buf, size, "  %-22s %-24s ", k->key, values);
	return n < 0 ? n : knob_wrap(buf, size, (size_t)n, k->help);
}
