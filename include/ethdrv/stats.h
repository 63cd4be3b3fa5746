/* SPDX-License-Identifier: MIT */
/*
 * Statistics: counters named as Linux rtnl_link_stats64 (docs/style.md S2) plus
 * driver-defined groups, and log2 latency histograms. A stats set gathers
 * them for one device and dumps them as text (like ethtool -S) or JSON.
 *
 * Counters are 64-bit and updated with relaxed atomic adds, so any thread
 * may count; a dump is a consistent-enough snapshot, not a transaction.
 */
#ifndef ETHDRV_STATS_H
#define ETHDRV_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

/* One counter. Use ethdrv_counter_add()/ethdrv_counter_get() only. */
typedef struct {
	uint64_t v; /* accessed only through __atomic builtins */
} ethdrv_counter_t;

static inline void ethdrv_counter_add(ethdrv_counter_t *c, uint64_t n)
{
	__atomic_fetch_add(&c->v, n, __ATOMIC_RELAXED);
}

static inline void ethdrv_counter_inc(ethdrv_counter_t *c)
{
	ethdrv_counter_add(c, 1);
}

static inline uint64_t ethdrv_counter_get(const ethdrv_counter_t *c)
{
	return __atomic_load_n(&c->v, __ATOMIC_RELAXED);
}

static inline void ethdrv_counter_set(ethdrv_counter_t *c, uint64_t v)
{
	__atomic_store_n(&c->v, v, __ATOMIC_RELAXED);
}

/* The standard device counters, with the kernel's rtnl_link_stats64 names. */
struct ethdrv_link_stats {
	ethdrv_counter_t rx_packets; /* frames delivered to the stack */
	ethdrv_counter_t tx_packets; /* frames the device completed */
	ethdrv_counter_t rx_bytes; /* bytes of rx_packets */
	ethdrv_counter_t tx_bytes; /* bytes of tx_packets */
	ethdrv_counter_t rx_errors; /* bad frames received (sum of rx_*_errors) */
	ethdrv_counter_t tx_errors; /* frames that failed to transmit */
	ethdrv_counter_t rx_dropped; /* good frames dropped (no buffer, no handler, ...) */
	ethdrv_counter_t tx_dropped; /* frames dropped before transmission */
	ethdrv_counter_t multicast; /* multicast frames received */
	ethdrv_counter_t collisions; /* collisions on the medium */
	ethdrv_counter_t rx_length_errors; /* runts, giants, bad length */
	ethdrv_counter_t rx_over_errors; /* device receive buffer overflows */
	ethdrv_counter_t rx_crc_errors; /* frames with a bad FCS or frame-drop flag */
	ethdrv_counter_t rx_frame_errors; /* framing or protocol errors on receive */
	ethdrv_counter_t rx_fifo_errors; /* host-side receive overruns */
	ethdrv_counter_t rx_missed_errors; /* frames the device missed */
	ethdrv_counter_t tx_aborted_errors; /* frames aborted by the device */
	ethdrv_counter_t tx_carrier_errors; /* transmit while carrier/link down */
	ethdrv_counter_t tx_fifo_errors; /* transmit buffer under/overruns */
	ethdrv_counter_t tx_heartbeat_errors; /* unused, kept for the name set */
	ethdrv_counter_t tx_window_errors; /* late collisions */
	ethdrv_counter_t rx_nohandler; /* frames with nobody to deliver to */
};

/* Describes one counter of a group: its name and offset in the group struct. */
struct ethdrv_stat_desc {
	const char *name; /* ethtool -S style, lower_snake_case */
	size_t offset; /* offsetof the ethdrv_counter_t in the group struct */
};

#define ETHDRV_STAT_DESC(type, field)         \
	{                                     \
#field, offsetof(type, field) \
	}

/* Log2 histogram: bucket i counts values v with 2^(i-1) <= v < 2^i
 * (bucket 0 counts v == 0). Updates are atomic; record from any thread. */
#define ETHDRV_HIST_BUCKETS 64
struct ethdrv_hist {
	const char *unit; /* "ns", "reads", ... used in dumps */
	uint64_t bucket[ETHDRV_HIST_BUCKETS]; /* counts (atomic) */
	uint64_t count; /* values recorded (atomic) */
	uint64_t sum; /* sum of values (atomic) */
	uint64_t max; /* largest value (atomic) */
};

/**
 * ethdrv_hist_record() - add one value to @h
 * @h: the histogram
 * @v: the value
 *
 * Context: any thread; lock-free.
 */
ETHDRV_EXPORT void ethdrv_hist_record(struct ethdrv_hist *h, uint64_t v);

/**
 * ethdrv_hist_percentile() - estimate a percentile from the buckets
 * @h: the histogram
 * @pct: 0..100
 *
 * Return: the upper bound of the bucket that holds the percentile (a value
 * the true percentile does not exceed), capped at the recorded max; 0 when
 * empty.
 */
ETHDRV_EXPORT uint64_t ethdrv_hist_percentile(const struct ethdrv_hist *h, double pct);

/** ethdrv_hist_reset() - zero @h (not atomic against concurrent records). */
ETHDRV_EXPORT void ethdrv_hist_reset(struct ethdrv_hist *h);

struct ethdrv_stats_set;

/**
 * ethdrv_stats_set_new() - an empty set of counter groups and histograms
 * @out: receives the set
 *
 * Return: 0, -EINVAL for a NULL @out, or -ENOMEM.
 */
ETHDRV_EXPORT int ethdrv_stats_set_new(struct ethdrv_stats_set **out);

/** ethdrv_stats_set_free() - release @set (not the counters it points to). */
ETHDRV_EXPORT void ethdrv_stats_set_free(struct ethdrv_stats_set *set);

/**
 * ethdrv_stats_add_group() - register a group of counters
 * @set: the set
 * @prefix: prepended to each name with '_' (e.g. "napi_rx"), or "" for none
 * @desc: @n descriptors; the array must outlive the set
 * @n: number of descriptors
 * @base: the group struct the offsets refer to; must outlive the set
 *
 * Return: 0, -EINVAL, -EEXIST when a resulting name is already registered,
 * or -ENOMEM.
 * Context: setup.
 */
ETHDRV_EXPORT int ethdrv_stats_add_group(struct ethdrv_stats_set *set, const char *prefix,
					 const struct ethdrv_stat_desc *desc, size_t n,
					 const void *base);

/**
 * ethdrv_stats_add_hist() - register a histogram under @name
 * @set: the set
 * @name: e.g. "irq_to_poll_ns"; copied
 * @h: the histogram; must outlive the set
 *
 * Return: 0, -EINVAL (NULL or empty argument), -EEXIST or -ENOMEM.
 */
ETHDRV_EXPORT int ethdrv_stats_add_hist(struct ethdrv_stats_set *set, const char *name,
					const struct ethdrv_hist *h);

/**
 * ethdrv_stats_get() - read one counter by its full name
 * @set: the set
 * @name: full name (prefix included)
 * @val: receives the value
 *
 * Return: 0 or -ENOENT.
 */
ETHDRV_EXPORT int ethdrv_stats_get(const struct ethdrv_stats_set *set, const char *name,
				   uint64_t *val);

enum ethdrv_stats_format {
	ETHDRV_STATS_TEXT, /* "     name: value" lines, like ethtool -S */
	ETHDRV_STATS_JSON, /* one object: counters by name; histograms as objects */
};

/**
 * ethdrv_stats_dump() - format every counter and histogram of @set
 * @set: the set
 * @fmt: text or JSON
 * @buf: output buffer, or NULL with @size 0 to measure
 * @size: size of @buf
 *
 * Histograms dump count, mean, p50, p99, max and the non-empty buckets.
 *
 * Return: the length the full output needs, excluding the NUL (as
 * snprintf); output is truncated when that is >= @size. -EINVAL for a
 * NULL @set or an unknown @fmt.
 */
ETHDRV_EXPORT int ethdrv_stats_dump(const struct ethdrv_stats_set *set,
				    enum ethdrv_stats_format fmt, char *buf, size_t size);

/* The descriptors of struct ethdrv_link_stats, in rtnl_link_stats64 order. */
ETHDRV_EXPORT extern const struct ethdrv_stat_desc ethdrv_link_stats_desc[];
ETHDRV_EXPORT extern const size_t ethdrv_link_stats_desc_count;

#endif /* ETHDRV_STATS_H */
