// SPDX-License-Identifier: MIT
/*
 * Cross-thread notifications of the loop (loop.h struct ethdrv_async): an
 * eventfd per notification, watched by the loop; a send adds to its count
 * from any thread, the loop drains it and runs the callback once.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "ethdrv/log.h"
#include "ethdrv/loop.h"

ETHDRV_LOG_MODULE(loop);

static void async_ready(struct ethdrv_watch *w, unsigned events)
{
	struct ethdrv_async *a = w->data;
	uint64_t n;

	(void)events;
	if (read(a->fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return; /* EAGAIN: another wakeup drained it */
	a->cb(a);
}

ETHDRV_EXPORT int ethdrv_async_init(struct ethdrv_loop *loop, struct ethdrv_async *a,
				    ethdrv_async_cb cb)
{
	int ret;

	a->cb = cb;
	a->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (a->fd < 0)
		return -errno;
	a->watch.data = a;
	ret = ethdrv_watch_start(loop, &a->watch, a->fd, ETHDRV_EV_READ, async_ready);
	if (ret) {
		close(a->fd);
		a->fd = -1;
	}
	return ret;
}

ETHDRV_EXPORT void ethdrv_async_send(struct ethdrv_async *a)
{
	uint64_t one = 1;

	/* Only EAGAIN can fail (the count is near 2^64): it is pending anyway. */
	if (write(a->fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		ethdrv_warn_ratelimited(NULL, "async send: %d", -errno);
}

ETHDRV_EXPORT void ethdrv_async_close(struct ethdrv_async *a)
{
	if (a->fd < 0)
		return;
	ethdrv_watch_stop(&a->watch);
	close(a->fd);
	a->fd = -1;
}
