// SPDX-License-Identifier: MIT
/*
 * MDIO script parser and replay (mdio_replay.h, docs/mdio.md §9.2). The
 * whole script is compiled first, so a run measures MDIO only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "mdio_replay.h"

ETHDRV_LOG_MODULE(mdio_replay);

#define REPLAY_MAX_FILE (16u << 20)
#define REPLAY_MAX_WORDS 7

enum replay_kind { REPLAY_READ, REPLAY_CHECK, REPLAY_WRITE, REPLAY_POLL };

struct replay_op {
	enum replay_kind kind; /* what to do */
	uint8_t addr; /* PHY address */
	uint8_t reg; /* register */
	uint16_t val; /* write value, expected value, or poll value */
	uint16_t mask; /* poll mask */
	unsigned max; /* poll bound */
	unsigned line; /* source line, for messages */
};

struct ethdrv__mdio_script {
	struct replay_op *ops; /* in order */
	unsigned n; /* used */
	unsigned cap; /* allocated */
};

/* A C literal that fits in @max; false otherwise. */
static bool replay_number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	return !errno && end != s && !*end && s[0] != '-' && *out <= max;
}

/* Split @line at blanks into at most REPLAY_MAX_WORDS words (in place). */
static unsigned replay_split(char *line, char **w)
{
	unsigned n = 0;
	char *save = NULL;

	for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == REPLAY_MAX_WORDS)
			return REPLAY_MAX_WORDS + 1;
		w[n++] = t;
	}
	return n;
}

/* Fill @op from the words of one line; false if malformed. */
static bool replay_parse_words(char **w, unsigned n, struct replay_op *op)
{
	unsigned long a, r, v = 0, m = 0, max = ETHDRV_MDIO_REPLAY_POLL_MAX;

	if (n < 3 || strlen(w[0]) != 1 || !replay_number(w[1], 31, &a) ||
	    !replay_number(w[2], 31, &r))
		return false;
	op->addr = (uint8_t)a;
	op->reg = (uint8_t)r;
	switch (w[0][0]) {
	case 'r':
		op->kind = n == 3 ? REPLAY_READ : REPLAY_CHECK;
		if (n != 3 && (n != 5 || strcmp(w[3], "=") || !replay_number(w[4], 0xFFFF, &v)))
			return false;
		break;
	case 'w':
		op->kind = REPLAY_WRITE;
		if (n != 4 || !replay_number(w[3], 0xFFFF, &v))
			return false;
		break;
	case 'p':
		op->kind = REPLAY_POLL;
		if ((n != 5 && n != 6) || !replay_number(w[3], 0xFFFF, &m) ||
		    !replay_number(w[4], 0xFFFF, &v) ||
		    (n == 6 && (!replay_number(w[5], 1000000, &max) || !max)))
			return false;
		break;
	default:
		return false;
	}
	op->val = (uint16_t)v;
	op->mask = (uint16_t)m;
	op->max = (unsigned)max;
	return true;
}

static int replay_push(struct ethdrv__mdio_script *s, const struct replay_op *op)
{
	if (s->n == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 1024;
		struct replay_op *ops = realloc(s->ops, cap * sizeof(*ops));

		if (!ops)
			return -ENOMEM;
		s->ops = ops;
		s->cap = cap;
	}
	s->ops[s->n++] = *op;
	return 0;
}

/* One source line: a comment, a blank line or a transaction. */
static int replay_parse_line(struct ethdrv__mdio_script *s, char *line, unsigned lineno)
{
	char *w[REPLAY_MAX_WORDS];
	struct replay_op op = { .line = lineno };
	unsigned n;

	line[strcspn(line, "#")] = '\0';
	n = replay_split(line, w);
	if (!n)
		return 0;
	if (n > REPLAY_MAX_WORDS || !replay_parse_words(w, n, &op)) {
		ethdrv_err(NULL,
			   "mdio script line %u: expected 'r A R [= V]', 'w A R V' or "
			   "'p A R MASK V [MAX]' (A, R 0..31, values 0..0xffff)",
			   lineno);
		return -EINVAL;
	}
	return replay_push(s, &op);
}

int ethdrv__mdio_script_parse(const char *text, struct ethdrv__mdio_script **out)
{
	struct ethdrv__mdio_script *s = calloc(1, sizeof(*s));
	char *copy = strdup(text ? text : "");
	char *p = copy;
	unsigned lineno = 0;
	int ret = 0;

	if (!s || !copy) {
		ret = -ENOMEM;
		goto err_free;
	}
	/* strsep keeps empty lines, so line numbers stay right. */
	for (char *line; !ret && (line = strsep(&p, "\n"));)
		ret = replay_parse_line(s, line, ++lineno);
	if (ret)
		goto err_free;
	free(copy);
	*out = s;
	return 0;
err_free:
	free(copy);
	ethdrv__mdio_script_free(s);
	return ret;
}

int ethdrv__mdio_script_load(const char *path, struct ethdrv__mdio_script **out)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len;
	int ret;

	if (!f) {
		ret = -errno;
		ethdrv_err(NULL, "mdio script %s: %s", path, strerror(-ret));
		return ret;
	}
	text = malloc(REPLAY_MAX_FILE + 1);
	if (!text) {
		fclose(f);
		return -ENOMEM;
	}
	len = fread(text, 1, REPLAY_MAX_FILE + 1, f);
	ret = ferror(f) ? -EIO : len > REPLAY_MAX_FILE ? -EFBIG : 0;
	fclose(f);
	if (!ret) {
		text[len] = '\0';
		ret = ethdrv__mdio_script_parse(text, out);
	} else {
		ethdrv_err(NULL, "mdio script %s: cannot read it whole: %d", path, ret);
	}
	free(text);
	return ret;
}

void ethdrv__mdio_script_free(struct ethdrv__mdio_script *s)
{
	if (!s)
		return;
	free(s->ops);
	free(s);
}

unsigned ethdrv__mdio_script_lines(const struct ethdrv__mdio_script *s)
{
	return s->n;
}

/* A p line: read until the masked value matches, at most op->max reads. */
static int replay_poll(const struct replay_op *op, struct ethdrv_mdio_bus *bus,
		       struct ethdrv__mdio_replay_result *res)
{
	uint16_t v;

	res->polls++;
	for (unsigned i = 0; i < op->max; i++) {
		int ret = ethdrv_mdio_read(bus, op->addr, op->reg, &v);

		res->transactions++;
		res->reads++;
		if (ret)
			return ret;
		if ((v & op->mask) == op->val)
			return 0;
	}
	return -ETIMEDOUT;
}

/* One line; returns <0 for an error, 1 for a mismatch, 0 when fine. */
static int replay_one(const struct replay_op *op, struct ethdrv_mdio_bus *bus,
		      struct ethdrv__mdio_replay_result *res)
{
	uint16_t v;
	int ret;

	if (op->kind == REPLAY_POLL)
		return replay_poll(op, bus, res);
	res->transactions++;
	if (op->kind == REPLAY_WRITE) {
		res->writes++;
		return ethdrv_mdio_write(bus, op->addr, op->reg, op->val);
	}
	res->reads++;
	ret = ethdrv_mdio_read(bus, op->addr, op->reg, &v);
	if (ret)
		return ret;
	return op->kind == REPLAY_CHECK && v != op->val;
}

int ethdrv__mdio_script_run(const struct ethdrv__mdio_script *s, struct ethdrv_mdio_bus *bus,
			    struct ethdrv__mdio_replay_result *res)
{
	uint64_t t0 = ethdrv_now_ns();

	*res = (struct ethdrv__mdio_replay_result){ 0 };
	for (unsigned i = 0; i < s->n; i++) {
		int ret = replay_one(&s->ops[i], bus, res);

		if (!ret)
			continue;
		if (ret > 0)
			res->mismatches++;
		else
			res->errors++;
		if (!res->first_bad_line)
			res->first_bad_line = s->ops[i].line;
	}
	res->elapsed_ns = ethdrv_now_ns() - t0;
	return res->mismatches || res->errors ? -EIO : 0;
}
