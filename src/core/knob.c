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

ETHDRV_EXPORT int ethdrv_knob_values(const struct ethdrv_knob *k, char *buf, size_t size)
{
	if (k->type == ETHDRV_KNOB_T_UINT)
		return snprintf(buf, size, "%" PRIu64 "..%" PRIu64, k->min, k->max);
	return snprintf(buf, size, "%s", k->values ? k->values : "");
}

ETHDRV_EXPORT int ethdrv_knob_print(const struct ethdrv_knob *k, char *buf, size_t size)
{
	char values[96];

	ethdrv_knob_values(k, values, sizeof(values));
	if (k->unit && *k->unit)
		snprintf(values + strlen(values), sizeof(values) - strlen(values), " %s", k->unit);
	return snprintf(buf, size, "  %-22s %-24s %s\n", k->key, values, k->help);
}
