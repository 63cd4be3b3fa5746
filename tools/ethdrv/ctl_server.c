// SPDX-License-Identifier: MIT
/*
 * The control socket server (ctl.h): a Unix stream socket served in a
 * loop, with at most CTL_CONNS_MAX connections, each checked for its peer's
 * uid and taken through three states:
 *
 *   READING   its request line, within idle_ms (ctl_handle(), ctl_proto.c)
 *   WRITING   the reply, with non-blocking writes; what the socket does not
 *             take waits in the connection's buffer for EPOLLOUT, within
 *             write_ms from the first write
 *   DRAINING  input the client sent after its request, read and discarded
 *             (closing on unread input would reset the connection and lose
 *             the reply, AF_UNIX), at most CTL_REQ_MAX bytes within idle_ms
 *
 * The loop thread serving it is also the softirq NAPI context
 * (docs/design.md §4.1): nothing here waits for a client.
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

#include "ethdrv/compiler.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"

ETHDRV_LOG_MODULE(ctl);

enum ctl_conn_state {
	CTL_CONN_FREE, /* slot unused */
	CTL_CONN_READING, /* waiting for the request line */
	CTL_CONN_WRITING, /* sending the reply */
	CTL_CONN_DRAINING, /* replied; discarding input until the client closes */
};

/* One accepted connection. */
struct ctl_conn {
	struct ctl_server *srv; /* owner */
	struct ethdrv_watch watch; /* the socket: readable or writable, by state */
	struct ethdrv_timer deadline; /* idle_ms or write_ms of the current state */
	enum ctl_conn_state state; /* where it is */
	size_t len; /* READING: bytes in buf; DRAINING: bytes discarded */
	struct ctl_reply out; /* WRITING: the reply */
	size_t sent; /* WRITING: bytes of out already sent */
	char buf[CTL_REQ_MAX + 1]; /* the request so far, NUL-terminated */
};

struct ctl_server {
	struct ethdrv_loop *loop; /* serving loop */
	const struct ctl_ops *ops; /* answers */
	void *arg; /* their argument */
	int fd; /* listening socket */
	struct ethdrv_watch watch; /* on fd */
	struct ctl_limits lim; /* timeouts and the reply cap */
	struct ctl_server_stats st; /* counters */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* unlinked on stop */
	struct ctl_conn conns[CTL_CONNS_MAX]; /* live connections */
};

#define CTL_STAT(field) ETHDRV_STAT_DESC(struct ctl_server_stats, field)

const struct ethdrv_stat_desc ctl_server_stats_desc[] = {
	CTL_STAT(accepted),	 CTL_STAT(refused_peer),   CTL_STAT(refused_busy),
	CTL_STAT(replies),	 CTL_STAT(partial_writes), CTL_STAT(idle_dropped),
	CTL_STAT(slow_dropped),	 CTL_STAT(write_errors),   CTL_STAT(replies_too_large),
	CTL_STAT(input_dropped), CTL_STAT(pending_bytes),
};
const size_t ctl_server_stats_desc_count = ETHDRV_ARRAY_SIZE(ctl_server_stats_desc);
_Static_assert(sizeof(struct ctl_server_stats) ==
		       ETHDRV_ARRAY_SIZE(ctl_server_stats_desc) * sizeof(ethdrv_counter_t),
	       "every counter has a descriptor (ctl_server_get_stats() copies them all)");

static uint64_t ctl_ms_to_ns(unsigned ms)
{
	return (uint64_t)ms * 1000000u;
}

/* Forget the unsent part of the reply (the pending_bytes gauge with it). */
static void ctl_conn_drop_reply(struct ctl_conn *c)
{
	if (c->state == CTL_CONN_WRITING)
		ethdrv_counter_add(&c->srv->st.pending_bytes, -(uint64_t)(c->out.len - c->sent));
	ctl_reply_free(&c->out);
	c->sent = 0;
}

static void ctl_conn_close(struct ctl_conn *c)
{
	ctl_conn_drop_reply(c);
	ethdrv_watch_stop(&c->watch);
	ethdrv_timer_stop(&c->deadline);
	close(c->watch.fd);
	c->state = CTL_CONN_FREE;
}

/* Enter @state: the events it waits for and its deadline (0 = none). */
static int ctl_conn_enter(struct ctl_conn *c, enum ctl_conn_state state, unsigned events,
			  unsigned ms)
{
	int err = ethdrv_watch_set(&c->watch, events);

	c->state = state;
	if (!err && ms)
		err = ethdrv_timer_start(&c->deadline, ctl_ms_to_ns(ms), 0);
	return err;
}

/*
 * The reply is out. Close at once unless the client sent more than its
 * request: then discard that input until it closes (see the file header).
 */
static void ctl_conn_replied(struct ctl_conn *c)
{
	ssize_t n;

	ethdrv_counter_inc(&c->srv->st.replies);
	ctl_conn_drop_reply(c);
	shutdown(c->watch.fd, SHUT_WR);
	n = recv(c->watch.fd, c->buf, CTL_REQ_MAX, MSG_DONTWAIT);
	if (n <= 0) {
		ctl_conn_close(c); /* nothing unread (EAGAIN), or the client closed */
		return;
	}
	c->len = (size_t)n;
	if (ctl_conn_enter(c, CTL_CONN_DRAINING, ETHDRV_EV_READ, c->srv->lim.idle_ms))
		ctl_conn_close(c);
}

/* Send what the socket takes; the rest waits for EPOLLOUT. */
static void ctl_conn_flush(struct ctl_conn *c)
{
	struct ctl_server_stats *st = &c->srv->st;

	while (c->sent < c->out.len) {
		size_t want = c->out.len - c->sent;
		ssize_t n =
			send(c->watch.fd, c->out.buf + c->sent, want, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (ethdrv_watch_set(&c->watch, ETHDRV_EV_WRITE))
				ctl_conn_close(c);
			return;
		}
		if (n < 0) {
			ethdrv_counter_inc(&st->write_errors);
			ctl_conn_close(c);
			return;
		}
		if ((size_t)n < want)
			ethdrv_counter_inc(&st->partial_writes);
		c->sent += (size_t)n;
		ethdrv_counter_add(&st->pending_bytes, -(uint64_t)n);
	}
	ctl_conn_replied(c);
}

/* Start sending @r (taken over: the caller's copy is cleared). */
static void ctl_conn_reply(struct ctl_conn *c, struct ctl_reply *r)
{
	struct ctl_server *srv = c->srv;
	size_t len = r->len;

	if (r->oom || !r->buf) {
		ctl_reply_free(r);
		ctl_reply_printf(r, "error ENOMEM: reply too large\n");
	} else if (len > srv->lim.reply_max) {
		ethdrv_counter_inc(&srv->st.replies_too_large);
		ctl_reply_free(r);
		ctl_reply_error(r, -EMSGSIZE, "reply of %zu bytes is over the %zu-byte limit", len,
				srv->lim.reply_max);
	}
	if (r->oom || !r->buf) {
		ctl_reply_free(r);
		ctl_conn_close(c); /* not even an error line fits */
		return;
	}
	c->out = *r;
	*r = (struct ctl_reply){ 0 };
	c->sent = 0;
	ethdrv_counter_add(&srv->st.pending_bytes, c->out.len);
	if (ctl_conn_enter(c, CTL_CONN_WRITING, 0, srv->lim.write_ms)) {
		ctl_conn_close(c);
		return;
	}
	ctl_conn_flush(c);
}

/* READING: collect the request line; answer it once complete. */
static void ctl_conn_read_request(struct ctl_conn *c)
{
	struct ctl_reply r = { 0 };
	ssize_t n = recv(c->watch.fd, c->buf + c->len, CTL_REQ_MAX - c->len, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		ctl_conn_close(c);
		return;
	}
	c->len += (size_t)n;
	if (ctl_handle(c->srv->ops, c->srv->arg, c->buf, c->len, &r))
		ctl_conn_reply(c, &r);
}

/* DRAINING: discard input until the client closes, at most CTL_REQ_MAX bytes. */
static void ctl_conn_drain(struct ctl_conn *c)
{
	ssize_t n = recv(c->watch.fd, c->buf, CTL_REQ_MAX, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		c->len += (size_t)n;
		if (c->len <= CTL_REQ_MAX)
			return;
		ethdrv_counter_inc(&c->srv->st.input_dropped);
	}
	ctl_conn_close(c);
}

static void ctl_conn_on_event(struct ethdrv_watch *w, unsigned events)
{
	struct ctl_conn *c = w->data;

	switch (c->state) {
	case CTL_CONN_READING:
		ctl_conn_read_request(c);
		break;
	case CTL_CONN_WRITING:
		ctl_conn_flush(c);
		break;
	case CTL_CONN_DRAINING:
		ctl_conn_drain(c);
		break;
	case CTL_CONN_FREE:
		break;
	}
}

/* The deadline of the current state passed: drop the client and count why. */
static void ctl_conn_on_deadline(struct ethdrv_timer *t)
{
	struct ctl_conn *c = t->data;
	struct ctl_server_stats *st = &c->srv->st;

	if (c->state == CTL_CONN_WRITING) {
		ethdrv_counter_inc(&st->slow_dropped);
		ethdrv_dbg(NULL, "control: client took %zu of %zu reply bytes in %u ms: dropped",
			   c->sent, c->out.len, c->srv->lim.write_ms);
	} else {
		ethdrv_counter_inc(&st->idle_dropped);
	}
	ctl_conn_close(c);
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
		if (srv->conns[i].state == CTL_CONN_FREE)
			return &srv->conns[i];
	return NULL;
}

/* Answer a refused connection with one line (it fits an empty socket) and close. */
static void ctl_refuse(int fd, const char *why, ethdrv_counter_t *counter)
{
	send(fd, why, strlen(why), MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
	ethdrv_counter_inc(counter);
}

static void ctl_on_accept(struct ethdrv_watch *w, unsigned events)
{
	struct ctl_server *srv = w->data;
	int fd = accept4(srv->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	struct ctl_conn *c;

	if (fd < 0)
		return;
	if (!ctl_peer_is_allowed(fd)) {
		ctl_refuse(fd, "error EACCES: peer is neither root nor the server's user\n",
			   &srv->st.refused_peer);
		return;
	}
	c = ctl_conn_slot(srv);
	if (!c) {
		ctl_refuse(fd, "error EBUSY: too many control connections\n",
			   &srv->st.refused_busy);
		return;
	}
	c->srv = srv;
	c->len = 0;
	c->watch.data = c;
	ethdrv_timer_init(srv->loop, &c->deadline, ctl_conn_on_deadline);
	c->deadline.data = c;
	if (ethdrv_watch_start(srv->loop, &c->watch, fd, 0, ctl_conn_on_event) ||
	    ctl_conn_enter(c, CTL_CONN_READING, ETHDRV_EV_READ, srv->lim.idle_ms)) {
		ethdrv_watch_stop(&c->watch);
		ethdrv_timer_stop(&c->deadline);
		close(fd);
		c->state = CTL_CONN_FREE;
		return;
	}
	ethdrv_counter_inc(&srv->st.accepted);
}

/* Create the directory of @path (one level) if it is missing. */
static int ctl_make_dir(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return mkdir(dir, 0755) && errno != EEXIST ? -errno : 0;
}

/* Bind and listen on @path with mode 0600; the fd or -errno. */
static int ctl_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, err = ctl_make_dir(path);

	if (err)
		return err;
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
	srv->lim = (struct ctl_limits){ .idle_ms = CTL_IDLE_MS,
					.write_ms = CTL_WRITE_MS,
					.reply_max = CTL_REPLY_MAX };
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

int ctl_server_set_limits(struct ctl_server *srv, const struct ctl_limits *lim)
{
	if (!lim->idle_ms || !lim->write_ms || !lim->reply_max)
		return -EINVAL;
	srv->lim = *lim;
	return 0;
}

void ctl_server_get_stats(const struct ctl_server *srv, struct ctl_server_stats *out)
{
	const ethdrv_counter_t *from = srv ? (const ethdrv_counter_t *)&srv->st : NULL;
	ethdrv_counter_t *to = (ethdrv_counter_t *)out;
	size_t i;

	for (i = 0; i < ctl_server_stats_desc_count; i++)
		ethdrv_counter_set(&to[i], from ? ethdrv_counter_get(&from[i]) : 0);
}

void ctl_server_stop(struct ctl_server *srv)
{
	size_t i;

	if (!srv)
		return;
	for (i = 0; i < CTL_CONNS_MAX; i++)
		if (srv->conns[i].state != CTL_CONN_FREE)
			ctl_conn_close(&srv->conns[i]);
	ethdrv_watch_stop(&srv->watch);
	close(srv->fd);
	unlink(srv->path);
	free(srv);
}
