// SPDX-License-Identifier: MIT
/*
 * Statistics: log2 histograms and a named set of counters and histograms
 * that dumps as text (like ethtool -S) or as one JSON object.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ethdrv/stats.h"

#define STATS_INDENT "     " /* ethtool -S indents counter lines by five spaces */

/* One named entry: a counter or a histogram. */
struct stats_entry {
	char *name; /* full name (prefix included), owned */
	const ethdrv_counter_t *ctr; /* the counter, or NULL for a histogram */
	const struct ethdrv_hist *hist; /* the histogram, or NULL for a counter */
};

struct ethdrv_stats_set {
	struct stats_entry *ent; /* entries in registration order */
	size_t n; /* used entries */
	size_t cap; /* allocated entries */
};

#define STAT(field) ETHDRV_STAT_DESC(struct ethdrv_link_stats, field)
ETHDRV_EXPORT const struct ethdrv_stat_desc ethdrv_link_stats_desc[] = {
	STAT(rx_packets),	STAT(tx_packets),	   STAT(rx_bytes),
	STAT(tx_bytes),		STAT(rx_errors),	   STAT(tx_errors),
	STAT(rx_dropped),	STAT(tx_dropped),	   STAT(multicast),
	STAT(collisions),	STAT(rx_length_errors),	   STAT(rx_over_errors),
	STAT(rx_crc_errors),	STAT(rx_frame_errors),	   STAT(rx_fifo_errors),
	STAT(rx_missed_errors), STAT(tx_aborted_errors),   STAT(tx_carrier_errors),
	STAT(tx_fifo_errors),	STAT(tx_heartbeat_errors), STAT(tx_window_errors),
	STAT(rx_nohandler),
};
#undef STAT
ETHDRV_EXPORT const size_t ethdrv_link_stats_desc_count = ETHDRV_ARRAY_SIZE(ethdrv_link_stats_desc);

/* Bucket i holds 2^(i-1) <= v < 2^i; bucket 0 holds 0; the last also holds v >= 2^63. */
static unsigned hist_bucket(uint64_t v)
{
	unsigned i = v ? 64 - (unsigned)__builtin_clzll(v) : 0;

	return i < ETHDRV_HIST_BUCKETS ? i : ETHDRV_HIST_BUCKETS - 1;
}

/* Largest value bucket @i can hold. */
static uint64_t hist_bucket_upper(unsigned i)
{
	if (i == 0)
		return 0;
	if (i >= ETHDRV_HIST_BUCKETS - 1)
		return UINT64_MAX;
	return (UINT64_C(1) << i) - 1;
}

ETHDRV_EXPORT void ethdrv_hist_record(struct ethdrv_hist *h, uint64_t v)
{
	uint64_t max = __atomic_load_n(&h->max, __ATOMIC_RELAXED);

	__atomic_fetch_add(&h->bucket[hist_bucket(v)], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&h->count, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&h->sum, v, __ATOMIC_RELAXED); /* wraps modulo 2^64 */
	while (v > max && !__atomic_compare_exchange_n(&h->max, &max, v, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/*
 * The estimate: the value of rank ceil(pct/100 * count) lies in some bucket;
 * its upper bound (2^i - 1) is returned, so the result is never below the
 * true percentile and at most about twice it, and it is capped at max.
 */
ETHDRV_EXPORT uint64_t ethdrv_hist_percentile(const struct ethdrv_hist *h, double pct)
{
	uint64_t count = __atomic_load_n(&h->count, __ATOMIC_RELAXED);
	uint64_t max = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
	uint64_t rank, seen = 0;
	double r;

	if (!count)
		return 0;
	pct = pct > 0 ? (pct < 100 ? pct : 100) : 0; /* clamps NaN to 0 too */
	r = pct * (double)count / 100.0;
	rank = (uint64_t)r;
	if ((double)rank < r)
		rank++; /* ceil */
	if (rank == 0)
		rank = 1; /* pct 0: the smallest value */
	for (unsigned i = 0; i < ETHDRV_HIST_BUCKETS; i++) {
		seen += __atomic_load_n(&h->bucket[i], __ATOMIC_RELAXED);
		if (seen >= rank)
			return ETHDRV_MIN(hist_bucket_upper(i), max);
	}
	return max; /* a record in flight counted in count, not yet in its bucket */
}

ETHDRV_EXPORT void ethdrv_hist_reset(struct ethdrv_hist *h)
{
	for (unsigned i = 0; i < ETHDRV_HIST_BUCKETS; i++)
		__atomic_store_n(&h->bucket[i], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->count, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->sum, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->max, 0, __ATOMIC_RELAXED);
}

ETHDRV_EXPORT int ethdrv_stats_set_new(struct ethdrv_stats_set **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

ETHDRV_EXPORT void ethdrv_stats_set_free(struct ethdrv_stats_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->ent[i].name);
	free(set->ent);
	free(set);
}

static const struct stats_entry *stats_find(const struct ethdrv_stats_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->ent[i].name, name))
			return &set->ent[i];
	return NULL;
}

/* Appends an entry that takes ownership of @name (freed here on failure). */
static int stats_append(struct ethdrv_stats_set *set, char *name, const ethdrv_counter_t *ctr,
			const struct ethdrv_hist *hist)
{
	struct stats_entry *ent;
	size_t cap;

	if (!name)
		return -ENOMEM;
	if (stats_find(set, name)) {
		free(name);
		return -EEXIST;
	}
	if (set->n == set->cap) {
		cap = set->cap ? set->cap * 2 : 32;
		ent = realloc(set->ent, cap * sizeof(*ent));
		if (!ent) {
			free(name);
			return -ENOMEM;
		}
		set->ent = ent;
		set->cap = cap;
	}
	set->ent[set->n++] = (struct stats_entry){ .name = name, .ctr = ctr, .hist = hist };
	return 0;
}

/* "prefix_name", or a copy of @name for an empty prefix; NULL on no memory. */
static char *stats_full_name(const char *prefix, const char *name)
{
	size_t plen = strlen(prefix), nlen = strlen(name);
	char *s = malloc(plen + nlen + 2);

	if (!s)
		return NULL;
	if (plen)
		snprintf(s, plen + nlen + 2, "%s_%s", prefix, name);
	else
		memcpy(s, name, nlen + 1);
	return s;
}

/* Removes the entries added after the first @n (undoes a partial group). */
static void stats_truncate(struct ethdrv_stats_set *set, size_t n)
{
	while (set->n > n)
		free(set->ent[--set->n].name);
}

ETHDRV_EXPORT int ethdrv_stats_add_group(struct ethdrv_stats_set *set, const char *prefix,
					 const struct ethdrv_stat_desc *desc, size_t n,
					 const void *base)
{
	size_t n0;
	int err;

	if (!set || !prefix || (n && (!desc || !base)))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!desc[i].name || !*desc[i].name)
			return -EINVAL;
	n0 = set->n;
	for (size_t i = 0; i < n; i++) {
		const void *ctr = (const char *)base + desc[i].offset;

		err = stats_append(set, stats_full_name(prefix, desc[i].name), ctr, NULL);
		if (err) {
			stats_truncate(set, n0);
			return err;
		}
	}
	return 0;
}

ETHDRV_EXPORT int ethdrv_stats_add_hist(struct ethdrv_stats_set *set, const char *name,
					const struct ethdrv_hist *h)
{
	if (!set || !name || !*name || !h)
		return -EINVAL;
	return stats_append(set, stats_full_name("", name), NULL, h);
}

ETHDRV_EXPORT int ethdrv_stats_get(const struct ethdrv_stats_set *set, const char *name,
				   uint64_t *val)
{
	const struct stats_entry *e = set && name ? stats_find(set, name) : NULL;

	if (!e || !e->ctr)
		return -ENOENT;
	*val = ethdrv_counter_get(e->ctr);
	return 0;
}

/* An snprintf-style output: writes what fits, counts everything. */
struct stats_out {
	char *buf; /* destination, or NULL to measure */
	size_t size; /* its size */
	size_t len; /* length of the full output so far */
};

static void out_mem(struct stats_out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len - 1;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += n;
}

static void out_printf(struct stats_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_printf(struct stats_out *o, const char *fmt, ...)
{
	bool room = o->len < o->size;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void out_json_str(struct stats_out *o, const char *s)
{
	out_mem(o, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			out_printf(o, "\\%c", c);
		else if (c < 0x20)
			out_printf(o, "\\u%04x", c);
		else
			out_mem(o, s, 1);
	}
	out_mem(o, "\"", 1);
}

/* The summary numbers of one histogram. */
struct hist_summary {
	uint64_t count, sum, mean, p50, p99, max;
};

static void hist_summarize(const struct ethdrv_hist *h, struct hist_summary *s)
{
	s->count = __atomic_load_n(&h->count, __ATOMIC_RELAXED);
	s->sum = __atomic_load_n(&h->sum, __ATOMIC_RELAXED);
	s->mean = s->count ? s->sum / s->count : 0;
	s->p50 = ethdrv_hist_percentile(h, 50);
	s->p99 = ethdrv_hist_percentile(h, 99);
	s->max = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
}

static void dump_text_hist(struct stats_out *o, const struct stats_entry *e)
{
	const struct ethdrv_hist *h = e->hist;
	struct hist_summary s;
	uint64_t c;

	hist_summarize(h, &s);
	out_printf(o,
		   STATS_INDENT "%s: count=%" PRIu64 " mean=%" PRIu64 " p50=%" PRIu64
				" p99=%" PRIu64 " max=%" PRIu64 "\n",
		   e->name, s.count, s.mean, s.p50, s.p99, s.max);
	for (unsigned i = 0; i < ETHDRV_HIST_BUCKETS; i++) {
		c = __atomic_load_n(&h->bucket[i], __ATOMIC_RELAXED);
		if (!c)
			continue;
		out_printf(o, STATS_INDENT STATS_INDENT "<= %" PRIu64 "%s%s: %" PRIu64 "\n",
			   hist_bucket_upper(i), h->unit ? " " : "", h->unit ? h->unit : "", c);
	}
}

static void dump_text(const struct ethdrv_stats_set *set, struct stats_out *o)
{
	const struct stats_entry *e;

	out_printf(o, "NIC statistics:\n");
	for (e = set->ent; e < set->ent + set->n; e++)
		if (e->ctr)
			out_printf(o, STATS_INDENT "%s: %" PRIu64 "\n", e->name,
				   ethdrv_counter_get(e->ctr));
	for (e = set->ent; e < set->ent + set->n; e++)
		if (e->hist)
			dump_text_hist(o, e);
}

static void dump_json_hist(struct stats_out *o, const struct ethdrv_hist *h)
{
	struct hist_summary s;
	const char *sep = "";
	uint64_t c;

	hist_summarize(h, &s);
	out_printf(o, "{");
	if (h->unit) {
		out_printf(o, "\"unit\":");
		out_json_str(o, h->unit);
		out_printf(o, ",");
	}
	out_printf(o, "\"count\":%" PRIu64 ",\"sum\":%" PRIu64 ",\"mean\":%" PRIu64, s.count, s.sum,
		   s.mean);
	out_printf(o, ",\"p50\":%" PRIu64 ",\"p99\":%" PRIu64 ",\"max\":%" PRIu64 ",\"buckets\":{",
		   s.p50, s.p99, s.max);
	for (unsigned i = 0; i < ETHDRV_HIST_BUCKETS; i++) {
		c = __atomic_load_n(&h->bucket[i], __ATOMIC_RELAXED);
		if (!c)
			continue;
		out_printf(o, "%s\"%" PRIu64 "\":%" PRIu64, sep, hist_bucket_upper(i), c);
		sep = ",";
	}
	out_printf(o, "}}");
}

/* One "name":value member, preceded by a comma unless it is the first. */
static void dump_json_entry(struct stats_out *o, const struct stats_entry *e, bool *first)
{
	if (!*first)
		out_mem(o, ",", 1);
	*first = false;
	out_json_str(o, e->name);
	out_mem(o, ":", 1);
	if (e->ctr)
		out_printf(o, "%" PRIu64, ethdrv_counter_get(e->ctr));
	else
		dump_json_hist(o, e->hist);
}

/* Counters first, then histograms, as in the text dump. */
static void dump_json(const struct ethdrv_stats_set *set, struct stats_out *o)
{
	const struct stats_entry *e;
	bool first = true;

	out_mem(o, "{", 1);
	for (e = set->ent; e < set->ent + set->n; e++)
		if (e->ctr)
			dump_json_entry(o, e, &first);
	for (e = set->ent; e < set->ent + set->n; e++)
		if (e->hist)
			dump_json_entry(o, e, &first);
	out_mem(o, "}\n", 2);
}

ETHDRV_EXPORT int ethdrv_stats_dump(const struct ethdrv_stats_set *set,
				    enum ethdrv_stats_format fmt, char *buf, size_t size)
{
	struct stats_out o = { .buf = buf, .size = buf ? size : 0 };

	if (!set || (fmt != ETHDRV_STATS_TEXT && fmt != ETHDRV_STATS_JSON))
		return -EINVAL;
	if (o.size)
		o.buf[0] = '\0';
	if (fmt == ETHDRV_STATS_TEXT)
		dump_text(set, &o);
	else
		dump_json(set, &o);
	return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}
