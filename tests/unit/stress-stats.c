// SPDX-License-Identifier: MIT
/* Unit tests for histograms, stats sets and their text and JSON dumps. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ethdrv/stats.h"

/* A driver-defined counter group. */
struct test_group {
	ethdrv_counter_t polls; /* polls run */
	ethdrv_counter_t work; /* frames handled */
};

static const struct ethdrv_stat_desc test_group_desc[] = {
	ETHDRV_STAT_DESC(struct test_group, polls),
	ETHDRV_STAT_DESC(struct test_group, work),
};

static void test_hist_buckets(void **state)
{
	static const uint64_t v[] = { 0, 1, 2, 3, 4, 1023, 1024, UINT64_MAX };
	struct ethdrv_hist h = { .unit = "ns" };

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(v); i++)
		ethdrv_hist_record(&h, v[i]);
	assert_int_equal(h.bucket[0], 1); /* 0 */
	assert_int_equal(h.bucket[1], 1); /* 1 */
	assert_int_equal(h.bucket[2], 2); /* 2, 3 */
	assert_int_equal(h.bucket[3], 1); /* 4 */
	assert_int_equal(h.bucket[10], 1); /* 512..1023 */
	assert_int_equal(h.bucket[11], 1); /* 1024..2047 */
	assert_int_equal(h.bucket[63], 1); /* capped */
	assert_int_equal(h.count, 8);
	assert_int_equal(h.sum, 2056); /* 2057 + (2^64 - 1), modulo 2^64 */
	assert_true(h.max == UINT64_MAX);

	ethdrv_hist_reset(&h);
	ethdrv_hist_record(&h, (UINT64_C(1) << 62) - 1);
	ethdrv_hist_record(&h, UINT64_C(1) << 62);
	ethdrv_hist_record(&h, UINT64_C(1) << 63);
	assert_int_equal(h.bucket[62], 1);
	assert_int_equal(h.bucket[63], 2);
	assert_int_equal(h.bucket[0], 0);
}

static void test_hist_percentiles(void **state)
{
	struct ethdrv_hist h = { 0 };

	assert_int_equal(ethdrv_hist_percentile(&h, 50), 0);
	/* 1..100: cumulative counts 1,3,7,15,31,63,100 in buckets 1..7. */
	for (uint64_t v = 1; v <= 100; v++)
		ethdrv_hist_record(&h, v);
	assert_int_equal(ethdrv_hist_percentile(&h, 0), 1);
	assert_int_equal(ethdrv_hist_percentile(&h, 1), 1);
	assert_int_equal(ethdrv_hist_percentile(&h, 2), 3);
	assert_int_equal(ethdrv_hist_percentile(&h, 50), 63);
	assert_int_equal(ethdrv_hist_percentile(&h, 63), 63);
	assert_int_equal(ethdrv_hist_percentile(&h, 64), 100); /* 127 capped at max */
	assert_int_equal(ethdrv_hist_percentile(&h, 99), 100);
	assert_int_equal(ethdrv_hist_percentile(&h, 100), 100);

	ethdrv_hist_reset(&h);
	assert_int_equal(ethdrv_hist_percentile(&h, 99), 0);
	ethdrv_hist_record(&h, 0);
	ethdrv_hist_record(&h, 0);
	ethdrv_hist_record(&h, 5);
	assert_int_equal(ethdrv_hist_percentile(&h, 50), 0); /* rank ceil(1.5) = 2 */
	assert_int_equal(ethdrv_hist_percentile(&h, 67), 5); /* rank 3: 7 capped at 5 */
	assert_int_equal(ethdrv_hist_percentile(&h, 150), 5);
	assert_int_equal(ethdrv_hist_percentile(&h, -1), 0);
}

static void test_groups_and_get(void **state)
{
	struct ethdrv_link_stats link = { 0 };
	struct test_group g = { 0 };
	struct ethdrv_hist h = { 0 };
	struct ethdrv_stats_set *set;
	uint64_t v = 99;

	assert_int_equal(ethdrv_stats_set_new(&set), 0);
	assert_int_equal(ethdrv_stats_add_group(set, "", ethdrv_link_stats_desc,
						ethdrv_link_stats_desc_count, &link),
			 0);
	assert_int_equal(ethdrv_stats_add_group(set, "napi_rx", test_group_desc, 2, &g), 0);
	assert_int_equal(ethdrv_stats_add_hist(set, "irq_to_poll_ns", &h), 0);
	ethdrv_counter_add(&link.rx_packets, 7);
	ethdrv_counter_inc(&link.rx_nohandler);
	ethdrv_counter_set(&g.work, 42);

	assert_int_equal(ethdrv_stats_get(set, "rx_packets", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(ethdrv_stats_get(set, "rx_nohandler", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(ethdrv_stats_get(set, "napi_rx_work", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(ethdrv_stats_get(set, "napi_rx_polls", &v), 0);
	assert_int_equal(v, 0);
	v = 99;
	assert_int_equal(ethdrv_stats_get(set, "work", &v), -ENOENT);
	assert_int_equal(ethdrv_stats_get(set, "irq_to_poll_ns", &v), -ENOENT);
	assert_int_equal(v, 99);
	ethdrv_stats_set_free(set);
}

static void test_duplicates_and_invalid(void **state)
{
	static const struct ethdrv_stat_desc dup_desc[] = {
		ETHDRV_STAT_DESC(struct test_group, polls),
		ETHDRV_STAT_DESC(struct test_group, work),
		ETHDRV_STAT_DESC(struct test_group, polls),
	};
	static const struct ethdrv_stat_desc full_desc[] = { { "napi_rx_polls", 0 } };
	static const struct ethdrv_stat_desc null_desc[] = { { NULL, 0 } };
	struct test_group g = { 0 };
	struct ethdrv_hist h = { 0 };
	struct ethdrv_stats_set *set;
	uint64_t v;

	assert_int_equal(ethdrv_stats_set_new(&set), 0);
	assert_int_equal(ethdrv_stats_add_group(set, "napi_rx", test_group_desc, 2, &g), 0);
	assert_int_equal(ethdrv_stats_add_group(set, "napi_rx", test_group_desc, 2, &g), -EEXIST);
	assert_int_equal(ethdrv_stats_add_group(set, "", full_desc, 1, &g), -EEXIST);
	assert_int_equal(ethdrv_stats_add_hist(set, "napi_rx_work", &h), -EEXIST);
	/* A group that fails halfway leaves nothing behind. */
	assert_int_equal(ethdrv_stats_add_group(set, "x", dup_desc, 3, &g), -EEXIST);
	assert_int_equal(ethdrv_stats_get(set, "x_polls", &v), -ENOENT);
	assert_int_equal(ethdrv_stats_add_group(set, "x", test_group_desc, 2, &g), 0);
	assert_int_equal(ethdrv_stats_add_hist(set, "lat", &h), 0);
	assert_int_equal(ethdrv_stats_add_hist(set, "lat", &h), -EEXIST);
	assert_int_equal(ethdrv_stats_add_group(set, "", test_group_desc, 1, &g), 0);
	assert_int_equal(ethdrv_stats_add_group(set, "lat", test_group_desc, 1, &g), 0);

	assert_int_equal(ethdrv_stats_add_group(set, NULL, test_group_desc, 2, &g), -EINVAL);
	assert_int_equal(ethdrv_stats_add_group(set, "y", null_desc, 1, &g), -EINVAL);
	assert_int_equal(ethdrv_stats_add_group(set, "y", test_group_desc, 2, NULL), -EINVAL);
	assert_int_equal(ethdrv_stats_add_hist(set, "h", NULL), -EINVAL);
	assert_int_equal(ethdrv_stats_get(set, "nope", &v), -ENOENT);
	ethdrv_stats_set_free(set);
	ethdrv_stats_set_free(NULL);
}

/* A small set: counters t_polls = 1, t_work = 22 and histogram lat_ns of {1, 2, 3}. */
struct small {
	struct test_group g;
	struct ethdrv_hist h;
	struct ethdrv_stats_set *set;
};

static int small_setup(void **state)
{
	struct small *s = calloc(1, sizeof(*s));

	if (!s || ethdrv_stats_set_new(&s->set))
		return -1;
	ethdrv_counter_set(&s->g.polls, 1);
	ethdrv_counter_set(&s->g.work, 22);
	s->h.unit = "ns";
	for (uint64_t v = 1; v <= 3; v++)
		ethdrv_hist_record(&s->h, v);
	/* The histogram is registered first: dumps still list counters first. */
	if (ethdrv_stats_add_hist(s->set, "lat_ns", &s->h) ||
	    ethdrv_stats_add_group(s->set, "t", test_group_desc, 2, &s->g))
		return -1;
	*state = s;
	return 0;
}

static int small_teardown(void **state)
{
	struct small *s = *state;

	ethdrv_stats_set_free(s->set);
	free(s);
	return 0;
}

static const char small_text[] = "NIC statistics:\n"
				 "     t_polls: 1\n"
				 "     t_work: 22\n"
				 "     lat_ns: count=3 mean=2 p50=3 p99=3 max=3\n"
				 "          <= 1 ns: 1\n"
				 "          <= 3 ns: 2\n";

static const char small_json[] = "{\"t_polls\":1,\"t_work\":22,\"lat_ns\":{\"unit\":\"ns\","
				 "\"count\":3,\"sum\":6,\"mean\":2,\"p50\":3,\"p99\":3,\"max\":3,"
				 "\"buckets\":{\"1\":1,\"3\":2}}}\n";

static void test_dump_text_exact(void **state)
{
	struct small *s = *state;
	char buf[512];

	assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_TEXT, buf, sizeof(buf)),
			 strlen(small_text));
	assert_string_equal(buf, small_text);
}

static void test_dump_json_exact(void **state)
{
	struct small *s = *state;
	char buf[512];

	assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_JSON, buf, sizeof(buf)),
			 strlen(small_json));
	assert_string_equal(buf, small_json);
}

static void test_dump_measure_and_truncate(void **state)
{
	struct small *s = *state;
	int n = (int)strlen(small_text);
	char buf[512];

	assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_TEXT, NULL, 0), n);
	assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_JSON, NULL, 0), strlen(small_json));
	buf[0] = '#';
	assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_TEXT, buf, 0), n);
	assert_int_equal(buf[0], '#');
	assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_TEXT, buf, 10), n);
	assert_string_equal(buf, "NIC stati");
	/* Cut inside a formatted line and inside the histogram lines. */
	for (int size = 1; size <= n + 1; size++) {
		memset(buf, '#', sizeof(buf));
		assert_int_equal(ethdrv_stats_dump(s->set, ETHDRV_STATS_TEXT, buf, (size_t)size),
				 n);
		assert_int_equal(strlen(buf), ETHDRV_MIN(size - 1, n));
		assert_memory_equal(buf, small_text, strlen(buf));
		assert_int_equal(buf[size], '#'); /* nothing written past size */
	}
	assert_int_equal(ethdrv_stats_dump(s->set, 7, buf, sizeof(buf)), -EINVAL);
}

/* A strict recursive-descent JSON validator (RFC 8259 grammar). */
static bool json_value(const char **p);

static void json_ws(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
		(*p)++;
}

static bool json_string(const char **p)
{
	if (*(*p)++ != '"')
		return false;
	while (**p != '"') {
		unsigned char c = (unsigned char)*(*p)++;

		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		c = (unsigned char)*(*p)++;
		if (c == 'u') {
			for (int i = 0; i < 4; i++)
				if (!isxdigit((unsigned char)*(*p)++))
					return false;
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return false;
		}
	}
	(*p)++;
	return true;
}

static bool json_number(const char **p)
{
	const char *s = *p;

	if (**p == '-')
		(*p)++;
	if (**p == '0')
		(*p)++;
	else if (isdigit((unsigned char)**p))
		while (isdigit((unsigned char)**p))
			(*p)++;
	else
		return false;
	if (**p == '.') {
		(*p)++;
		if (!isdigit((unsigned char)**p))
			return false;
		while (isdigit((unsigned char)**p))
			(*p)++;
	}
	return *p > s;
}

/* Object or array: members separated by commas, no trailing comma. */
static bool json_container(const char **p, char close, bool keys)
{
	(*p)++;
	json_ws(p);
	if (**p == close) {
		(*p)++;
		return true;
	}
	for (;;) {
		json_ws(p);
		if (keys) {
			if (!json_string(p))
				return false;
			json_ws(p);
			if (*(*p)++ != ':')
				return false;
		}
		if (!json_value(p))
			return false;
		json_ws(p);
		if (**p == close) {
			(*p)++;
			return true;
		}
		if (*(*p)++ != ',')
			return false;
	}
}

static bool json_value(const char **p)
{
	json_ws(p);
	switch (**p) {
	case '{':
		return json_container(p, '}', true);
	case '[':
		return json_container(p, ']', false);
	case '"':
		return json_string(p);
	default:
		return json_number(p);
	}
}

static bool json_valid(const char *s)
{
	if (!json_value(&s))
		return false;
	json_ws(&s);
	return *s == '\0';
}

static void test_json_validator_rejects(void **state)
{
	assert_true(json_valid("{\"a\":1,\"b\":{\"c\":[1,2]}}\n"));
	assert_false(json_valid("{\"a\":1,}"));
	assert_false(json_valid("{\"a\" 1}"));
	assert_false(json_valid("{\"a\":1"));
	assert_false(json_valid("{\"a\n\":1}"));
	assert_false(json_valid("{\"a\\q\":1}"));
	assert_false(json_valid("{\"a\":01}"));
	assert_false(json_valid("{} {}"));
}

static void test_dump_json_valid_escaped(void **state)
{
	struct ethdrv_link_stats link = { 0 };
	struct test_group g = { 0 };
	struct ethdrv_hist h = { .unit = "u\"s" }, empty = { 0 };
	struct ethdrv_stats_set *set;
	char *buf;
	int n;

	assert_int_equal(ethdrv_stats_set_new(&set), 0);
	assert_int_equal(ethdrv_stats_add_group(set, "", ethdrv_link_stats_desc,
						ethdrv_link_stats_desc_count, &link),
			 0);
	assert_int_equal(ethdrv_stats_add_group(set, "we\"ird\\\n\x01", test_group_desc, 2, &g), 0);
	assert_int_equal(ethdrv_stats_add_hist(set, "big", &h), 0);
	assert_int_equal(ethdrv_stats_add_hist(set, "empty", &empty), 0);
	ethdrv_counter_set(&link.tx_bytes, UINT64_MAX);
	ethdrv_hist_record(&h, 0);
	ethdrv_hist_record(&h, UINT64_MAX);
	n = ethdrv_stats_dump(set, ETHDRV_STATS_JSON, NULL, 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(ethdrv_stats_dump(set, ETHDRV_STATS_JSON, buf, (size_t)n + 1), n);
	assert_true(json_valid(buf));
	assert_non_null(strstr(buf, "\"tx_bytes\":18446744073709551615,"));
	assert_non_null(strstr(buf, "\"we\\\"ird\\\\\\u000a\\u0001_work\":0"));
	assert_non_null(strstr(buf, "\"buckets\":{\"0\":1,\"18446744073709551615\":1}"));
	assert_non_null(strstr(buf, "\"empty\":{\"count\":0,\"sum\":0,\"mean\":0,\"p50\":0,"
				    "\"p99\":0,\"max\":0,\"buckets\":{}}}"));
	free(buf);
	ethdrv_stats_set_free(set);
}

static void test_link_stats_desc(void **state)
{
	assert_int_equal(ethdrv_link_stats_desc_count,
			 sizeof(struct ethdrv_link_stats) / sizeof(ethdrv_counter_t));
	assert_int_equal(ethdrv_link_stats_desc_count, 22);
	for (size_t i = 0; i < ethdrv_link_stats_desc_count; i++)
		assert_int_equal(ethdrv_link_stats_desc[i].offset, i * sizeof(ethdrv_counter_t));
	assert_string_equal(ethdrv_link_stats_desc[0].name, "rx_packets");
	assert_string_equal(ethdrv_link_stats_desc[8].name, "multicast");
	assert_string_equal(ethdrv_link_stats_desc[21].name, "rx_nohandler");
}

#define HIST_THREADS 4
#define HIST_RECORDS 100000

/* Per-thread: what it recorded, for the cross-check. */
struct hist_arg {
	struct ethdrv_hist *h; /* shared histogram */
	unsigned id; /* thread number */
	uint64_t sum; /* sum of its values */
	uint64_t in_bucket3; /* its values in 4..7 */
};

static void *hist_thread(void *arg)
{
	struct hist_arg *a = arg;

	for (uint64_t i = 0; i < HIST_RECORDS; i++) {
		uint64_t v = i % 1000 + a->id * 1000;

		ethdrv_hist_record(a->h, v);
		a->sum += v;
		a->in_bucket3 += v >= 4 && v <= 7;
	}
	return NULL;
}

static void test_hist_concurrent(void **state)
{
	struct ethdrv_hist h = { 0 };
	struct hist_arg args[HIST_THREADS];
	pthread_t th[HIST_THREADS];
	uint64_t sum = 0, b3 = 0, total = 0;

	for (unsigned i = 0; i < HIST_THREADS; i++) {
		args[i] = (struct hist_arg){ .h = &h, .id = i };
		assert_int_equal(pthread_create(&th[i], NULL, hist_thread, &args[i]), 0);
	}
	for (unsigned i = 0; i < HIST_THREADS; i++) {
		pthread_join(th[i], NULL);
		sum += args[i].sum;
		b3 += args[i].in_bucket3;
	}
	for (unsigned i = 0; i < ETHDRV_HIST_BUCKETS; i++)
		total += h.bucket[i];
	assert_int_equal(h.count, (uint64_t)HIST_THREADS * HIST_RECORDS);
	assert_int_equal(total, h.count);
	assert_int_equal(h.sum, sum);
	assert_int_equal(h.bucket[3], b3);
	assert_int_equal(h.max, (HIST_THREADS - 1) * 1000 + 999);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_buckets),
		cmocka_unit_test(test_hist_percentiles),
		cmocka_unit_test(test_groups_and_get),
		cmocka_unit_test(test_duplicates_and_invalid),
		cmocka_unit_test_setup_teardown(test_dump_text_exact, small_setup, small_teardown),
		cmocka_unit_test_setup_teardown(test_dump_json_exact, small_setup, small_teardown),
		cmocka_unit_test_setup_teardown(test_dump_measure_and_truncate, small_setup,
						small_teardown),
		cmocka_unit_test(test_json_validator_rejects),
		cmocka_unit_test(test_dump_json_valid_escaped),
		cmocka_unit_test(test_link_stats_desc),
		cmocka_unit_test(test_hist_concurrent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
