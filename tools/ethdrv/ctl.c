// SPDX-License-Identifier: MIT
/* The control socket protocol, server and client (ctl.h). */
#define _GNU_SOURCE /* accept4, struct ucred */
#include "ctl.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "ethdrv/err.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"

ETHDRV_LOG_MODULE(ctl);

/* One accepted connection, reading its request line. */
struct ctl_conn {
	struct ctl_server *srv; /* owner */
	struct ethdrv_watch watch; /* readable */
	struct ethdrv_timer idle; /* closes a silent client */
	bool used; /* slot taken */
	bool draining; /* replied: discard input until the client closes */
	size_t len; /* bytes in buf */
	char buf[CTL_REQ_MAX + 1]; /* the request so far, NUL-terminated */
};

struct ctl_server {
	struct ethdrv_loop *loop; /* serving loop */
	const struct ctl_ops *ops; /* answers */
	void *arg; /* their argument */
	int fd; /* listening socket */
	struct ethdrv_watch watch; /* on fd */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* unlinked on stop */
	struct ctl_conn conns[CTL_CONNS_MAX]; /* live connections */
};

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
static bool ctl_reply_grow(struct ctl_reply *r, size_t extra)
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

static void ctl_do_set(const struct ctl_ops *ops, void *arg, int argc, char **argv,
		       struct ctl_reply *r)
{
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
		err = ops->set(arg, argv[i], eq + 1);
		if (err) {
			ctl_reply_error(r, err, "set %s=%s: %s", argv[i], eq + 1,
					ctl_err_text(err));
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
	ctl_reply_printf(r, "ok\nstats [json]\nget KEY...\nset KEY=VALUE...\ninfo\nhelp\n");
}

/* The requests: name, words allowed (0 = any), handler. */
static const struct {
	const char *name; /* first word */
	int argc; /* exact word count, or 0 for any */
	void (*fn)(const struct ctl_ops *ops, void *arg, int argc, char **argv,
		   struct ctl_reply *r); /* the handler */
} ctl_requests[] = {
	{ "stats", 0, ctl_do_stats }, { "set", 0, ctl_do_set },	  { "get", 0, ctl_do_get },
	{ "info", 1, ctl_do_info },   { "help", 1, ctl_do_help },
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
	ctl_reply_error(r, -EINVAL, "unknown request '%.64s': use stats, get, set, info, help",
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

/* Write all of @buf to a non-blocking socket, waiting up to @timeout_ms per write. */
static int ctl_write_all(int fd, const char *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, timeout_ms) <= 0)
				return -ETIMEDOUT;
			continue;
		}
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void ctl_conn_close(struct ctl_conn *c)
{
	ethdrv_watch_stop(&c->watch);
	ethdrv_timer_stop(&c->idle);
	close(c->watch.fd);
	c->used = false;
}

/* Send @r (or "error ENOMEM") and close. */
static void ctl_conn_finish(struct ctl_conn *c, struct ctl_reply *r)
{
	static const char oom[] = "error ENOMEM: reply too large\n";
	int err;

	if (r->oom || !r->buf)
		err = ctl_write_all(c->watch.fd, oom, sizeof(oom) - 1, CTL_IDLE_MS);
	else
		err = ctl_write_all(c->watch.fd, r->buf, r->len, CTL_IDLE_MS);
	if (err) {
		ethdrv_warn(NULL, "control: reply not sent: %d", err);
		ctl_conn_close(c);
		return;
	}
	/* Closing with unread input would reset the connection and lose the
	 * reply (AF_UNIX), so read the rest until the client closes. */
	shutdown(c->watch.fd, SHUT_WR);
	c->draining = true;
	ethdrv_timer_start(&c->idle, (uint64_t)CTL_IDLE_MS * 1000000u, 0);
}

static void ctl_conn_on_read(struct ethdrv_watch *w, unsigned events)
{
	struct ctl_conn *c = w->data;
	struct ctl_reply r = { 0 };
	size_t at = c->draining ? 0 : c->len;
	ssize_t n = recv(w->fd, c->buf + at, CTL_REQ_MAX - at, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		ctl_conn_close(c);
		return;
	}
	if (c->draining)
		return;
	c->len += (size_t)n;
	if (!ctl_handle(c->srv->ops, c->srv->arg, c->buf, c->len, &r))
		return;
	ctl_conn_finish(c, &r);
	ctl_reply_free(&r);
}

static void ctl_conn_on_idle(struct ethdrv_timer *t)
{
	ctl_conn_close(t->data);
}

/* Refuse a peer that is neither root nor our uid; true if accepted. */
static bool ctl_peer_is_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return false;
	return cred.uid == 0 || cred.uid == geteuid();
}

/* Find a free connection slot, or NULL. */
static struct ctl_conn *ctl_conn_slot(struct ctl_server *srv)
{
	size_t i;

	for (i = 0; i < CTL_CONNS_MAX; i++)
		if (!srv->conns[i].used)
			return &srv->conns[i];
	return NULL;
}

static void ctl_on_accept(struct ethdrv_watch *w, unsigned events)
{
	static const char denied[] = "error EACCES: peer is neither root nor the server's user\n";
	static const char busy[] = "error EBUSY: too many control connections\n";
	struct ctl_server *srv = w->data;
	int fd = accept4(srv->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	struct ctl_conn *c;

	if (fd < 0)
		return;
	c = ctl_conn_slot(srv);
	if (!ctl_peer_is_allowed(fd) || !c) {
		send(fd, c ? denied : busy, c ? sizeof(denied) - 1 : sizeof(busy) - 1,
		     MSG_NOSIGNAL | MSG_DONTWAIT);
		close(fd);
		return;
	}
	c->srv = srv;
	c->len = 0;
	c->used = true;
	c->draining = false;
	c->watch.data = c;
	ethdrv_timer_init(srv->loop, &c->idle, ctl_conn_on_idle);
	c->idle.data = c;
	if (ethdrv_watch_start(srv->loop, &c->watch, fd, ETHDRV_EV_READ, ctl_conn_on_read) ||
	    ethdrv_timer_start(&c->idle, (uint64_t)CTL_IDLE_MS * 1000000u, 0)) {
		ethdrv_watch_stop(&c->watch);
		close(fd);
		c->used = false;
	}
}

bool ctl_is_alive(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool alive;

	if (fd < 0)
		return false;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	alive = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return alive;
}

/* Bind and listen on @path with mode 0600; the fd or -errno. */
static int ctl_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, err = 0;

	if (mkdir(CLI_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	if (ctl_is_alive(path))
		return -EADDRINUSE;
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	old = umask(0177); /* the socket file is created 0600 */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(path, 0600) || listen(fd, 16))
		err = -errno;
	umask(old);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int ctl_server_start(struct ethdrv_loop *loop, const char *path, const struct ctl_ops *ops,
		     void *arg, struct ctl_server **out)
{
	struct ctl_server *srv;
	int err;

	if (strlen(path) >= sizeof(srv->path))
		return -ENAMETOOLONG;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->fd = ctl_listen(path);
	if (srv->fd < 0) {
		err = srv->fd;
		goto err_free;
	}
	snprintf(srv->path, sizeof(srv->path), "%s", path);
	srv->loop = loop;
	srv->ops = ops;
	srv->arg = arg;
	srv->watch.data = srv;
	err = ethdrv_watch_start(loop, &srv->watch, srv->fd, ETHDRV_EV_READ, ctl_on_accept);
	if (err)
		goto err_close;
	*out = srv;
	return 0;

err_close:
	close(srv->fd);
	unlink(path);
err_free:
	free(srv);
	return err;
}

void ctl_server_stop(struct ctl_server *srv)
{
	size_t i;

	if (!srv)
		return;
	for (i = 0; i < CTL_CONNS_MAX; i++)
		if (srv->conns[i].used)
			ctl_conn_close(&srv->conns[i]);
	ethdrv_watch_stop(&srv->watch);
	close(srv->fd);
	unlink(srv->path);
	free(srv);
}

/* Connect to @path; the fd or -errno. */
static int ctl_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Read until EOF into @r. */
static int ctl_read_all(int fd, struct ctl_reply *r, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	for (;;) {
		if (!ctl_reply_grow(r, 4096))
			return -ENOMEM;
		if (poll(&pfd, 1, timeout_ms) == 0)
			return -ETIMEDOUT;
		n = recv(fd, r->buf + r->len, r->cap - r->len - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* A server that closed with our request unread resets the
		 * connection after its reply: that reply is the answer. */
		if (n < 0 && errno == ECONNRESET && r->len)
			break;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		r->len += (size_t)n;
	}
	r->buf[r->len] = '\0';
	return 0;
}

int ctl_request(const char *path, const char *req, char **reply, int timeout_ms)
{
	struct ctl_reply r = { 0 };
	int fd = ctl_connect(path), err;

	*reply = NULL;
	if (fd < 0)
		return fd;
	err = ctl_write_all(fd, req, strlen(req), timeout_ms);
	if (!err)
		err = ctl_write_all(fd, "\n", 1, timeout_ms);
	/* A server that refuses a peer replies and closes at once: read why. */
	if (!err || err == -EPIPE || err == -ECONNRESET) {
		int rerr = ctl_read_all(fd, &r, timeout_ms);

		err = !err || r.len ? rerr : err;
	}
	close(fd);
	if (err) {
		ctl_reply_free(&r);
		return err;
	}
	*reply = r.buf;
	return 0;
}
