// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the control socket's request handling (tools/ethdrv
 * ctl.h, docs/control.md) without sockets. The input is
 * what a client sends; it is fed to ctl_handle() in pieces as recv() might
 * deliver them (each piece's size taken from the input), exactly as
 * ctl_conn_read_request() does, until a reply is due or CTL_REQ_MAX bytes are in.
 *
 * Input: byte 0 the piece size (1..256; 0 = all at once), then the bytes.
 * The ops record calls and answer like a device: set accepts keys
 * [a-z_.-]+ with values of digits (else -ENOENT / -EINVAL), get returns
 * values up to 255 chars, stats appends a reply of a size taken from the
 * request (up to 64 KiB) to exercise reply growth.
 *
 * Checked: the reply starts with "ok\n" or is one "error E...: ...\n"
 * line; it is NUL-terminated at r.len; a reply is due once a '\n', a NUL
 * or CTL_REQ_MAX bytes arrived, never before; set/get ops see only
 * non-empty printable words; errors for an op's failure name the errno.
 * The buffer is heap-allocated at CTL_REQ_MAX + 1 so ASan sees overruns.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "fuzz.h"

/* True for a word the dispatcher may hand to an op: printable, no blanks. */
static bool fz_word_ok(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (*w <= 0x20 || *w > 0x7e)
			return false;
	return true;
}

static int fz_stats(void *arg, bool json, struct ctl_reply *r)
{
	size_t n = *(size_t *)arg % 65536;
	char *p = ctl_reply_reserve(r, n);

	if (!p)
		return -ENOMEM;
	memset(p, json ? '{' : 's', n);
	return n % 7 == 3 ? -EIO : 0;
}

static int fz_set(void *arg, const char *key, const char *value, const char **why)
{
	fz_assert(fz_word_ok(key) && key[strcspn(key, "=")] == '\0');
	if (strspn(key, "abcdefghijklmnopqrstuvwxyz_.-") != strlen(key))
		return -ENOENT;
	if (!*value || strspn(value, "0123456789") != strlen(value))
		return -EINVAL;
	return 0;
}

static int fz_get(void *arg, const char *key, char *buf, size_t size)
{
	fz_assert(fz_word_ok(key));
	if (key[0] == 'x')
		return -ENOENT;
	if ((size_t)snprintf(buf, size, "%s%.*s", key, 255, key) >= size)
		return -ENOSPC;
	return 0;
}

static int fz_info(void *arg, struct ctl_reply *r)
{
	ctl_reply_printf(r, "name=fuzz\n");
	return 0;
}

static const struct ctl_ops fz_ops = {
	.stats = fz_stats,
	.set = fz_set,
	.get = fz_get,
	.info = fz_info,
};

/* The reply is "ok\n..." or exactly one "error E...: ...\n" line. */
static void fz_check_reply(const struct ctl_reply *r)
{
	const char *nl;

	if (r->oom)
		return;
	fz_assert(r->buf && r->buf[r->len] == '\0' && strlen(r->buf) == r->len);
	if (!strncmp(r->buf, "ok\n", 3))
		return;
	fz_assert(!strncmp(r->buf, "error E", 7));
	nl = strchr(r->buf, '\n');
	fz_assert(nl && nl == r->buf + r->len - 1 && strstr(r->buf, ": "));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(CTL_REQ_MAX + 1);
	struct ctl_reply r = { 0 };
	size_t piece, len = 0, at = 1, n, stat_size = size * 97;
	bool done = false, due;
	const uint8_t *nul, *nl;

	if (!size || !buf) {
		free(buf);
		return 0;
	}
	piece = data[0] ? data[0] : CTL_REQ_MAX;
	/* 1. Feed the bytes in pieces, as recv() would, until a reply is due. */
	while (!done && at < size && len < CTL_REQ_MAX) {
		n = piece;
		if (n > size - at)
			n = size - at;
		if (n > CTL_REQ_MAX - len)
			n = CTL_REQ_MAX - len;
		memcpy(buf + len, data + at, n);
		due = memchr(buf + len, '\n', n) || memchr(buf, '\0', len + n) ||
		      len + n == CTL_REQ_MAX;
		len += n;
		at += n;
		done = ctl_handle(&fz_ops, &stat_size, buf, len, &r);
		/* 2. A reply exactly when a line, a NUL or the size limit is in. */
		fz_assert(done == due);
	}
	if (done)
		fz_check_reply(&r);
	/* 3. A NUL before the line's end (in what was fed) is never dispatched. */
	nul = memchr(data + 1, '\0', at - 1);
	nl = memchr(data + 1, '\n', at - 1);
	if (done && nul && (!nl || nul < nl))
		fz_assert(r.oom || !strncmp(r.buf, "error EINVAL", 12));
	ctl_reply_free(&r);
	free(buf);
	return 0;
}
