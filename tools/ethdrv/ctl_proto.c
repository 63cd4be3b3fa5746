// SPDX-License-Identifier: MIT
/*
 * The control socket's request protocol (ctl.h): framing a request line,
 * splitting it into words, dispatching it to the server's ops, and building
 * the "ok"/"error" reply. Pure functions without I/O, so that they can be
 * fuzzed (tests/fuzz/fuzz-ctl-request.c). The socket server is
 * ctl_server.c, the client ctl_client.c.
 */
#include "ctl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ethdrv/err.h"

static const struct {
	int err; /* positive errno */
	const char *name; /* its symbolic name */
} ctl_errnos[] = {
	{ EPERM, "EPERM" },
	{ ENOENT, "ENOENT" },
	{ EIO, "EIO" },
	{ EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" },
	{ EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" },
	{ ENODEV, "ENODEV" },
	{ EINVAL, "EINVAL" },
	{ ENOSPC, "ENOSPC" },
	{ ERANGE, "ERANGE" },
	{ EPROTO, "EPROTO" },
	{ EMSGSIZE, "EMSGSIZE" },
	{ EOPNOTSUPP, "EOPNOTSUPP" },
	{ ENETDOWN, "ENETDOWN" },
	{ ETIMEDOUT, "ETIMEDOUT" },
	{ EALREADY, "EALREADY" },
	{ ENAMETOOLONG, "ENAMETOOLONG" },
	{ ELOOP, "ELOOP" },
};

const char *ctl_errno_name(int err, char *buf, size_t size)
{
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(ctl_errnos) / sizeof(ctl_errnos[0]); i++)
		if (ctl_errnos[i].err == err)
			return ctl_errnos[i].name;
	snprintf(buf, size, "E%d", err);
	return buf;
}

/* Make room for @extra more bytes plus a NUL. */
bool ctl_reply_grow(struct ctl_reply *r, size_t extra)
{
	size_t cap = r->cap ? r->cap : 256;
	char *p;

	while (cap < r->len + extra + 1)
		cap *= 2;
	if (cap == r->cap)
		return true;
	p = realloc(r->buf, cap);
	if (!p) {
		r->oom = true;
		return false;
	}
	r->buf = p;
	r->cap = cap;
	return true;
}

__attribute__((format(printf, 2, 0))) static void ctl_reply_vprintf(struct ctl_reply *r,
								    const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !ctl_reply_grow(r, (size_t)n))
		return;
	vsnprintf(r->buf + r->len, (size_t)n + 1, fmt, ap);
	r->len += (size_t)n;
}

void ctl_reply_printf(struct ctl_reply *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_reply_vprintf(r, fmt, ap);
	va_end(ap);
}

char *ctl_reply_reserve(struct ctl_reply *r, size_t n)
{
	char *p;

	if (!ctl_reply_grow(r, n))
		return NULL;
	p = r->buf + r->len;
	r->len += n;
	r->buf[r->len] = '\0';
	return p;
}

void ctl_reply_error(struct ctl_reply *r, int err, const char *fmt, ...)
{
	char num[16];
	va_list ap;

	r->len = 0;
	ctl_reply_printf(r, "error %s: ", ctl_errno_name(err, num, sizeof(num)));
	va_start(ap, fmt);
	ctl_reply_vprintf(r, fmt, ap);
	va_end(ap);
	ctl_reply_printf(r, "\n");
}

void ctl_reply_free(struct ctl_reply *r)
{
	free(r->buf);
	*r = (struct ctl_reply){ 0 };
}

/* Split @line into at most CTL_ARGS_MAX words; -E2BIG beyond that. */
static int ctl_split(char *line, char **argv)
{
	char *save = NULL, *tok;
	int argc = 0;

	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (argc == CTL_ARGS_MAX)
			return -E2BIG;
		argv[argc++] = tok;
	}
	return argc;
}

/* Text for an op's error when it gave none. */
static const char *ctl_err_text(int err)
{
	if (err == -ENOENT)
		return "unknown key";
	if (err == -EINVAL)
		return "bad value";
	return ethdrv_strerror(err);
}

#define CTL_KNOB_TABLES_MAX 16

/* The entry for @key among the server's knob tables, or NULL. */
static const struct ethdrv_knob *ctl_knob(const struct ctl_ops *ops, void *arg, const char *key)
{
	const struct ethdrv_knob_table *t[CTL_KNOB_TABLES_MAX + 1];
	size_t n = ops->knobs ? ops->knobs(arg, t, CTL_KNOB_TABLES_MAX) : 0;

	t[n] = NULL;
	return ethdrv_knob_find_in(t, key);
}

/*
 * "use VALUES UNIT" for a bad value @value of @key into @buf; NULL when no
 * table names it. A number inside a UINT knob's range was refused with the
 * current settings (fec's rx-usecs=0 needs rx-frames=1), so the hint says
 * that, with the range and the knob's help line, which states the rule.
 */
static const char *ctl_knob_hint(const struct ctl_ops *ops, void *arg, const char *key,
				 const char *value, char *buf, size_t size)
{
	const struct ethdrv_knob *k = ctl_knob(ops, arg, key);
	const char *unit;
	char values[64];
	uint64_t v;

	if (!k)
		return NULL;
	unit = k->unit && *k->unit ? k->unit : NULL;
	ethdrv_knob_values(k, values, sizeof(values));
	if (k->type == ETHDRV_KNOB_T_UINT && !ethdrv_knob_uint(k, value, &v))
		snprintf(buf, size, "refused with the current settings (the knob takes %s%s%s): %s",
			 values, unit ? " " : "", unit ? unit : "", k->help ? k->help : "");
	else
		snprintf(buf, size, "bad value: use %s%s%s%s", values, unit ? " (" : "",
			 unit ? unit : "", unit ? ")" : "");
	return buf;
}

/* "read only (HELP)" when @key is a read-only knob of the server's tables, else NULL. */
static const char *ctl_read_only_hint(const struct ctl_ops *ops, void *arg, const char *key,
				      char *buf, size_t size)
{
	const struct ethdrv_knob *k = ctl_knob(ops, arg, key);

	if (!k || k->type != ETHDRV_KNOB_T_RO)
		return NULL;
	snprintf(buf, size, "read only (%s): `ethdrv get` reads it", k->help ? k->help : "");
	return buf;
}

static void ctl_do_set(const struct ctl_ops *ops, void *arg, int argc, char **argv,
		       struct ctl_reply *r)
{
	const char *why;
	char hint[256];
	int i, err;

	if (argc < 2) {
		ctl_reply_error(r, -EINVAL, "set: give key=value pairs");
		return;
	}
	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			ctl_reply_error(r, -EINVAL, "set %s: not key=value", argv[i]);
			return;
		}
		*eq = '\0';
		why = NULL;
		err = ops->set(arg, argv[i], eq + 1, &why);
		if (err == -EINVAL && !why)
			why = ctl_knob_hint(ops, arg, argv[i], eq + 1, hint, sizeof(hint));
		if (err == -ENOENT && !why)
			why = "unknown key: `ethdrv get IFNAME --list` lists the keys";
		if (err && !why)
			why = ctl_read_only_hint(ops, arg, argv[i], hint, sizeof(hint));
		if (err) {
			ctl_reply_error(r, err, "set %s=%s: %s", argv[i], eq + 1,
					why ? why : ctl_err_text(err));
			return;
		}
	}
	ctl_reply_printf(r, "ok\n");
}

static void ctl_do_get(const struct ctl_ops *ops, void *arg, int argc, char **argv,
		       struct ctl_reply *r)
{
	char val[256];
	int i, err;

	if (argc < 2) {
		ctl_reply_error(r, -EINVAL, "get: give one or more keys");
		return;
	}
	ctl_reply_printf(r, "ok\n");
	for (i = 1; i < argc; i++) {
		err = ops->get(arg, argv[i], val, sizeof(val));
		if (err) {
			ctl_reply_error(r, err, "get %s: %s", argv[i], ctl_err_text(err));
			return;
		}
		ctl_reply_printf(r, "%s=%s\n", argv[i], val);
	}
}

/* `list`: every knob of the server, its value, accepted values and help (knob.h). */
static void ctl_do_list(const struct ctl_ops *ops, void *arg, int argc, char **argv,
			struct ctl_reply *r)
{
	const struct ethdrv_knob_table *t[CTL_KNOB_TABLES_MAX];
	size_t n = ops->knobs ? ops->knobs(arg, t, CTL_KNOB_TABLES_MAX) : 0;
	char val[256], acc[96];

	ctl_reply_printf(r, "ok\n");
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < t[i]->count; j++) {
			const struct ethdrv_knob *k = &t[i]->knobs[j];
			size_t len = strlen(k->key);

			if (len && k->key[len - 1] == '*')
				snprintf(val, sizeof(val), "-");
			else if (ops->get(arg, k->key, val, sizeof(val)))
				snprintf(val, sizeof(val), "-");
			len = (size_t)ethdrv_knob_values(k, acc, sizeof(acc));
			if (k->unit && *k->unit && len < sizeof(acc))
				snprintf(acc + len, sizeof(acc) - len, " %s", k->unit);
			ctl_reply_printf(r, "%-22s %-14s %-26s %s: %s\n", k->key, val, acc,
					 t[i]->owner, k->help);
		}
	}
}

static void ctl_do_stats(const struct ctl_ops *ops, void *arg, int argc, char **argv,
			 struct ctl_reply *r)
{
	bool json = argc == 2 && !strcmp(argv[1], "json");
	int err;

	if (argc > 2 || (argc == 2 && !json && strcmp(argv[1], "text"))) {
		ctl_reply_error(r, -EINVAL, "stats: use 'stats', 'stats text' or 'stats json'");
		return;
	}
	ctl_reply_printf(r, "ok\n");
	err = ops->stats(arg, json, r);
	if (err)
		ctl_reply_error(r, err, "stats: %s", ethdrv_strerror(err));
}

/* True if @line holds only printable ASCII and tabs. */
static bool ctl_line_is_text(const char *line)
{
	for (; *line; line++)
		if ((*line < 0x20 && *line != '\t') || *line > 0x7e)
			return false;
	return true;
}

static void ctl_do_info(const struct ctl_ops *ops, void *arg, int argc, char **argv,
			struct ctl_reply *r)
{
	int err;

	ctl_reply_printf(r, "ok\n");
	err = ops->info(arg, r);
	if (err)
		ctl_reply_error(r, err, "info: %s", ethdrv_strerror(err));
}

static void ctl_do_help(const struct ctl_ops *ops, void *arg, int argc, char **argv,
			struct ctl_reply *r)
{
	ctl_reply_printf(r, "ok\nstats [json]\nget KEY...\nset KEY=VALUE...\nlist\ninfo\n%shelp\n",
			 ops->phy ? "phy [read REG|write REG VAL|c45 read|write MMD REG [VAL]]\n" :
				    "");
}

/* `phy ...`: the server's op writes the whole reply (phy_cmd.h). */
static void ctl_do_phy(const struct ctl_ops *ops, void *arg, int argc, char **argv,
		       struct ctl_reply *r)
{
	if (!ops->phy) {
		ctl_reply_error(r, -EOPNOTSUPP, "phy: this server has no PHY");
		return;
	}
	ops->phy(arg, argc - 1, argv + 1, r);
}

/* The requests: name, words allowed (0 = any), handler. */
static const struct {
	const char *name; /* first word */
	int argc; /* exact word count, or 0 for any */
	void (*fn)(const struct ctl_ops *ops, void *arg, int argc, char **argv,
		   struct ctl_reply *r); /* the handler */
} ctl_requests[] = {
	{ "stats", 0, ctl_do_stats }, { "set", 0, ctl_do_set },	  { "get", 0, ctl_do_get },
	{ "info", 1, ctl_do_info },   { "help", 1, ctl_do_help }, { "phy", 0, ctl_do_phy },
	{ "list", 1, ctl_do_list },
};

void ctl_dispatch(const struct ctl_ops *ops, void *arg, char *line, struct ctl_reply *r)
{
	char *argv[CTL_ARGS_MAX];
	size_t n = strlen(line), i;
	int argc;

	if (n && line[n - 1] == '\r')
		line[--n] = '\0';
	if (!ctl_line_is_text(line)) {
		ctl_reply_error(r, -EINVAL, "request is not printable text");
		return;
	}
	argc = ctl_split(line, argv);
	if (argc < 0) {
		ctl_reply_error(r, argc, "more than %d words", CTL_ARGS_MAX);
		return;
	}
	for (i = 0; argc > 0 && i < sizeof(ctl_requests) / sizeof(ctl_requests[0]); i++) {
		if (strcmp(argv[0], ctl_requests[i].name))
			continue;
		if (ctl_requests[i].argc && argc != ctl_requests[i].argc)
			break;
		ctl_requests[i].fn(ops, arg, argc, argv, r);
		return;
	}
	ctl_reply_error(r, -EINVAL,
			"unknown request '%.64s': use stats, get, set, list, info, phy, "
			"help",
			argc > 0 ? argv[0] : "");
}

bool ctl_handle(const struct ctl_ops *ops, void *arg, char *buf, size_t len, struct ctl_reply *r)
{
	char *nl;

	buf[len] = '\0';
	nl = memchr(buf, '\n', len);
	/* A NUL (before the '\n', if any) would hide the rest of the line. */
	if (memchr(buf, '\0', nl ? (size_t)(nl - buf) : len))
		ctl_reply_error(r, -EINVAL, "request is not printable text");
	else if (!nl && len >= CTL_REQ_MAX)
		ctl_reply_error(r, -EMSGSIZE, "request longer than %d bytes", CTL_REQ_MAX);
	else if (!nl)
		return false;
	else {
		*nl = '\0';
		ctl_dispatch(ops, arg, buf, r);
	}
	return true;
}

int ctl_sock_path(const char *name, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s.sock", CLI_RUN_DIR, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}
