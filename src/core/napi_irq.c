// SPDX-License-Identifier: MIT
/*
 * A poller's interrupt: the IRQ fd the core attaches (ethdrv_napi_attach_irq(),
 * masked on arrival and re-armed by the driver, docs/napi.md §1.1), the
 * driver-owned lines that follow their poller (ethdrv_napi_line_start(),
 * docs/design.md §4.5), and moving a poller with its interrupt, its lines and
 * its defer timer onto another loop, as IRQ affinity does (ethdrv_napi_set_loop(),
 * docs/design.md §4.7).
 */
#include <errno.h>
#include <stdbool.h>

#include "ethdrv/napi.h"
#include "loop_priv.h"
#include "napi_priv.h"

static void napi_irq_cb(struct ethdrv_watch *w, unsigned events)
{
	struct ethdrv_napi *n = ethdrv_container_of(w, struct ethdrv_napi, irq_watch);

	/* Mask first, then schedule (docs/napi.md §1.1). */
	ethdrv_watch_set(w, 0);
	__atomic_store_n(&n->irq_ts, ethdrv_now_ns(), __ATOMIC_RELAXED);
	ethdrv_counter_inc(&n->stats.irqs);
	ethdrv_napi_schedule(n);
}

/* An IRQ watcher change, run in the thread of the loop it is on. */
struct napi_irq_op {
	struct ethdrv_napi *n; /* the poller */
	int fd; /* attach this fd; -1 = detach */
	int ret; /* the result */
};

static void napi_irq_op_run(void *arg)
{
	struct napi_irq_op *op = arg;
	struct ethdrv_napi *n = op->n;

	if (op->fd < 0) {
		__atomic_store_n(&n->irq_attached, false, __ATOMIC_RELEASE);
		ethdrv_watch_stop(&n->irq_watch);
		return;
	}
	op->ret = ethdrv_watch_start(n->loop, &n->irq_watch, op->fd, 0, napi_irq_cb);
	if (!op->ret)
		__atomic_store_n(&n->irq_attached, true, __ATOMIC_RELEASE);
}

int ethdrv_napi_attach_irq(struct ethdrv_napi *n, int fd)
{
	struct napi_irq_op op = { .n = n, .fd = fd };

	if (!n || fd < 0)
		return -EINVAL;
	ethdrv_napi_detach_irq(n);
	/* The watcher belongs to the loop that polls @n (ethdrv_napi_set_loop). */
	ethdrv__napi_on_loop(n, napi_irq_op_run, &op);
	return op.ret;
}

void ethdrv_napi_detach_irq(struct ethdrv_napi *n)
{
	struct napi_irq_op op = { .n = n, .fd = -1 };

	if (!n || !__atomic_load_n(&n->irq_attached, __ATOMIC_ACQUIRE))
		return;
	ethdrv__napi_on_loop(n, napi_irq_op_run, &op);
}

/* A driver-owned line's watcher change, run in the thread of the poller's loop. */
struct napi_line_op {
	struct ethdrv_napi *n; /* the poller the line follows */
	struct ethdrv_watch *w; /* the driver's watcher */
	int fd; /* start: the line */
	ethdrv_watch_cb cb; /* start: the handler */
	int ret; /* the result */
};

static void napi_line_start_run(void *arg)
{
	struct napi_line_op *op = arg;

	op->ret = ethdrv_watch_start(op->n->loop, op->w, op->fd, ETHDRV_EV_READ, op->cb);
}

static void napi_line_stop_run(void *arg)
{
	ethdrv_watch_stop(((struct napi_line_op *)arg)->w);
}

int ethdrv_napi_line_start(struct ethdrv_napi *n, struct ethdrv_watch *w, int fd,
			   ethdrv_watch_cb cb)
{
	struct napi_line_op op = { .n = n, .w = w, .fd = fd, .cb = cb };
	unsigned i;

	if (!n || !w || fd < 0 || !cb || n->deleted)
		return -EINVAL;
	for (i = 0; i < n->nlines; i++)
		if (n->lines[i] == w)
			return -EINVAL;
	if (n->nlines >= NAPI_LINES_MAX)
		return -ENOSPC;
	ethdrv__napi_on_loop(n, napi_line_start_run, &op);
	if (!op.ret)
		n->lines[n->nlines++] = w;
	return op.ret;
}

void ethdrv_napi_line_stop(struct ethdrv_napi *n, struct ethdrv_watch *w)
{
	struct napi_line_op op = { .n = n, .w = w };
	unsigned i;

	if (!n || !w)
		return;
	for (i = 0; i < n->nlines && n->lines[i] != w; i++)
		;
	if (i == n->nlines)
		return;
	ethdrv__napi_on_loop(n, napi_line_stop_run, &op);
	n->lines[i] = n->lines[--n->nlines];
}

/* Every line of @n off its loop (@start false) or onto it; the first error. */
static int napi_lines_move(struct ethdrv_napi *n, bool start)
{
	int ret = 0;

	for (unsigned i = 0; i < n->nlines; i++) {
		struct napi_line_op op = {
			.n = n, .w = n->lines[i], .fd = n->lines[i]->fd, .cb = n->lines[i]->cb
		};

		ethdrv__napi_on_loop(n, start ? napi_line_start_run : napi_line_stop_run, &op);
		if (op.ret && !ret)
			ret = op.ret;
	}
	return ret;
}

int ethdrv_napi_set_loop(struct ethdrv_napi *n, struct ethdrv_loop *loop)
{
	bool enabled, attached;
	struct ethdrv__softnet *sn;
	int fd, ret, err;

	if (!n || !loop || n->deleted)
		return -EINVAL;
	if (loop == n->loop)
		return 0;
	if (__atomic_load_n(&n->cfg.busy_poll_us, __ATOMIC_RELAXED) || n->busy_listed)
		return -EBUSY;
	ret = ethdrv__napi_sn_get(loop, &sn);
	if (ret)
		return ret;
	enabled = !(ethdrv__napi_state(n) & NAPI_S_DISABLE);
	if (enabled)
		ethdrv_napi_disable(n);
	attached = __atomic_load_n(&n->irq_attached, __ATOMIC_ACQUIRE);
	fd = n->irq_watch.fd;
	ethdrv_napi_detach_irq(n);
	napi_lines_move(n, false);
	ethdrv__napi_on_loop(n, ethdrv__napi_timer_stop_run, n);
	/* Disabled and detached: nothing reads these until the enable below. */
	n->loop = loop;
	n->sn = sn;
	ethdrv_timer_init(loop, &n->defer_timer, ethdrv__napi_defer_timer_cb);
	ret = attached ? ethdrv_napi_attach_irq(n, fd) : 0;
	err = napi_lines_move(n, true);
	if (err && !ret)
		ret = err;
	if (enabled) {
		ethdrv_napi_enable(n);
		ethdrv_napi_schedule(n); /* what came meanwhile; the driver unmasks after */
	}
	return ret;
}

struct ethdrv_loop *ethdrv_napi_get_loop(const struct ethdrv_napi *n)
{
	return n->loop;
}

void ethdrv_napi_irq_unmask(struct ethdrv_napi *n)
{
	/* epoll_ctl is thread-safe, so a poller thread re-arms directly. */
	if (__atomic_load_n(&n->irq_attached, __ATOMIC_ACQUIRE))
		ethdrv_watch_set(&n->irq_watch, ETHDRV_EV_READ);
}
