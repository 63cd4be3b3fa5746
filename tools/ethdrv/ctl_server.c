// SPDX-License-Identifier: MIT
/*
 * The control socket server (ctl.h): a Unix stream socket served in a
 * loop, with at most CTL_CONNS_MAX connections, each checked for its peer's
 * uid, given CTL_IDLE_MS to send its request line, answered once through
 * ctl_handle() (ctl_proto.c) and drained until the client closes.
 */
#define _GNU_SOURCE /* accept4, struct ucred */
#include "ctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
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
