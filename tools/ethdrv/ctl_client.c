// SPDX-License-Identifier: MIT
/*
 * The control socket client (ctl.h): connect, send one request line, read
 * the reply until the server closes, each step bounded by a timeout.
 */
#include "ctl.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/*
 * Write all of @buf, waiting up to @timeout_ms per write for room: 0,
 * -ETIMEDOUT or the -errno of send(2). The client may wait; the server
 * never does (ctl_server.c).
 */
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
