// SPDX-License-Identifier: MIT
/*
 * Point-to-point half-duplex 10 Mb/s medium with two ports (medium.h).
 * One thread takes frames from the ports in turn and delivers each to the
 * other port at its absolute end time (docs/host.md §4: deadlines are
 * absolute, so a late wakeup never shifts the frames after it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/stats.h"
#include "medium.h"

#define P2P_PORTS 2u

struct p2p_port {
	const struct emu_port_ops *ops; /* NULL = detached */
	void *node; /* argument of the ops */
	bool pending; /* announced a frame and not yet drained */
	uint64_t announcements; /* announce_tx count, to detect one during a tx_pull */
	unsigned ops_running; /* port ops running right now */
};

struct emu_p2p_medium {
	struct emu_medium base; /* first: emu_medium <-> emu_p2p_medium */
	pthread_mutex_t lock; /* protects every field below */
	pthread_cond_t cond; /* announcements, stop, callbacks done, idle (CLOCK_MONOTONIC) */
	pthread_t thread; /* the scheduler */
	bool stop; /* ask the thread to exit */
	bool realtime; /* deliver at real deadlines */
	bool on_wire; /* a frame has been pulled and not yet delivered */
	unsigned last_sender; /* port that sent last (they alternate) */
	uint64_t free_at; /* medium free: end of the last gap */
	struct p2p_port port[P2P_PORTS];
	struct emu_p2p_stats stats; /* counters */
	struct ethdrv_hist lateness; /* delivery lateness in ns (real-time mode) */
	uint8_t buf[EMU_FRAME_MAX]; /* the frame on the wire (scheduler thread only) */
};

static struct emu_p2p_medium *to_p2p(struct emu_medium *m)
{
	return (struct emu_p2p_medium *)m;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec ns_to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

/* Next port with a pending frame, alternating after the last sender; -1 if none. */
static int p2p_pick(const struct emu_p2p_medium *p)
{
	for (unsigned i = 1; i <= P2P_PORTS; i++) {
		unsigned n = (p->last_sender + i) % P2P_PORTS;

		if (p->port[n].ops && p->port[n].pending)
			return (int)n;
	}
	return -1;
}

/* Take a frame from port @n (lock held, dropped around the call). */
static bool p2p_pull(struct emu_p2p_medium *p, unsigned n, size_t *len, uint64_t *t_ready)
{
	struct p2p_port *pt = &p->port[n];
	const struct emu_port_ops *ops = pt->ops;
	uint64_t announcements = pt->announcements;
	void *node = pt->node;
	bool ok;

	pt->ops_running++;
	pthread_mutex_unlock(&p->lock);
	ok = ops->tx_pull(node, p->buf, sizeof(p->buf), len, t_ready);
	pthread_mutex_lock(&p->lock);
	pt->ops_running--;
	/* An announcement that raced with an empty pull must not be lost. */
	if (!ok && pt->announcements == announcements)
		pt->pending = false;
	pthread_cond_broadcast(&p->cond);
	return ok;
}

/* Sleep until @t (real-time mode) or until stop; lock held. */
static void p2p_wait_until(struct emu_p2p_medium *p, uint64_t t)
{
	struct timespec ts = ns_to_ts(t);

	while (!p->stop && mono_ns() < t)
		pthread_cond_timedwait(&p->cond, &p->lock, &ts);
}

/* Deliver to the peer and complete at the sender (lock held, dropped around calls). */
static void p2p_deliver(struct emu_p2p_medium *p, unsigned from, size_t len, uint64_t t_end)
{
	struct p2p_port *src = &p->port[from], *dst = &p->port[(from + 1) % P2P_PORTS];
	const struct emu_port_ops *sops = src->ops, *dops = dst->ops;
	void *snode = src->node, *dnode = dst->node;

	if (!dops)
		p->stats.dropped++;
	src->ops_running += sops != NULL;
	dst->ops_running += dops != NULL;
	pthread_mutex_unlock(&p->lock);
	if (dops)
		dops->rx(dnode, p->buf, len, t_end);
	if (sops)
		sops->tx_done(snode, t_end);
	pthread_mutex_lock(&p->lock);
	src->ops_running -= sops != NULL;
	dst->ops_running -= dops != NULL;
	pthread_cond_broadcast(&p->cond);
}

/* Tell the peer of port @from that the frame is coming, if it wants to know
 * (cut-through, medium.h); lock held, dropped around the calls. */
static void p2p_begin(struct emu_p2p_medium *p, unsigned from, size_t len, uint64_t start,
		      uint64_t t_end)
{
	struct p2p_port *dst = &p->port[(from + 1) % P2P_PORTS];
	const struct emu_port_ops *dops = dst->ops;
	void *dnode = dst->node;

	if (!dops || !dops->rx_early || !dops->rx_begin)
		return;
	dst->ops_running++;
	pthread_mutex_unlock(&p->lock);
	if (dops->rx_early(dnode))
		dops->rx_begin(dnode, p->buf, len, start, t_end);
	pthread_mutex_lock(&p->lock);
	dst->ops_running--;
	pthread_cond_broadcast(&p->cond);
}

/* One frame from port @n: schedule, wait for its end, deliver (lock held). */
static void p2p_send_one(struct emu_p2p_medium *p, unsigned n)
{
	uint64_t t_ready = 0, start, t_end, now;
	size_t len = 0;

	if (!p2p_pull(p, n, &len, &t_ready))
		return;
	p->on_wire = true;
	/* start = max(ready, medium free): absolute, so neither the medium's own
	 * wakeup lateness nor its reaction to an announcement shifts the schedule. */
	start = t_ready > p->free_at ? t_ready : p->free_at;
	t_end = start + emu_frame_wire_ns(len);
	p->free_at = t_end + EMU_IFG_NS;
	p->last_sender = n;
	p->stats.frames[n]++;
	p->stats.bytes[n] += len;
	p->stats.busy_ns += emu_frame_wire_ns(len) + EMU_IFG_NS;
	p2p_begin(p, n, len, start, t_end);
	if (p->realtime) {
		p2p_wait_until(p, t_end);
		now = mono_ns();
		ethdrv_hist_record(&p->lateness, now > t_end ? now - t_end : 0);
	}
	p2p_deliver(p, n, len, t_end);
	p->on_wire = false;
	p->stats.now_ns = p->free_at;
	pthread_cond_broadcast(&p->cond);
}

static void *p2p_thread(void *arg)
{
	struct emu_p2p_medium *p = arg;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		int n = p2p_pick(p);

		if (n < 0) {
			pthread_cond_wait(&p->cond, &p->lock);
			continue;
		}
		p2p_send_one(p, (unsigned)n);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static int p2p_attach(struct emu_medium *m, unsigned port, const struct emu_port_ops *ops,
		      void *node)
{
	struct emu_p2p_medium *p = to_p2p(m);
	int err = 0;

	if (port >= P2P_PORTS || !ops || !ops->tx_pull || !ops->tx_done || !ops->rx)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	if (p->port[port].ops) {
		err = -EBUSY;
	} else {
		p->port[port].ops = ops;
		p->port[port].node = node;
		p->port[port].pending = false;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

static void p2p_detach(struct emu_medium *m, unsigned port)
{
	struct emu_p2p_medium *p = to_p2p(m);

	if (port >= P2P_PORTS)
		return;
	pthread_mutex_lock(&p->lock);
	p->port[port].ops = NULL;
	p->port[port].pending = false;
	while (p->port[port].ops_running)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

static void p2p_announce_tx(struct emu_medium *m, unsigned port)
{
	struct emu_p2p_medium *p = to_p2p(m);

	if (port >= P2P_PORTS)
		return;
	pthread_mutex_lock(&p->lock);
	p->port[port].pending = true;
	p->port[port].announcements++;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static void p2p_destroy(struct emu_medium *m)
{
	struct emu_p2p_medium *p = to_p2p(m);

	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

static const struct emu_medium_ops p2p_ops = {
	.attach = p2p_attach,
	.detach = p2p_detach,
	.announce_tx = p2p_announce_tx,
	.destroy = p2p_destroy,
};

static int p2p_init_sync(struct emu_p2p_medium *p)
{
	pthread_condattr_t ca;
	int err;

	err = pthread_condattr_init(&ca);
	if (err)
		return -err;
	err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (err)
		return -err;
	pthread_mutex_init(&p->lock, NULL);
	return 0;
}

int emu_p2p_medium_new(const struct emu_p2p_config *cfg, struct emu_p2p_medium **out)
{
	struct emu_p2p_medium *p;
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->base.ops = &p2p_ops;
	p->realtime = cfg ? cfg->realtime : true;
	p->lateness.unit = "ns";
	p->free_at = p->realtime ? mono_ns() : 0;
	p->last_sender = P2P_PORTS - 1; /* port 0 goes first */
	err = p2p_init_sync(p);
	if (err)
		goto err_free;
	err = -pthread_create(&p->thread, NULL, p2p_thread, p);
	if (err)
		goto err_destroy_sync;
	*out = p;
	return 0;

err_destroy_sync:
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
err_free:
	free(p);
	return err;
}

struct emu_medium *emu_p2p_medium_base(struct emu_p2p_medium *p)
{
	return &p->base;
}

void emu_p2p_medium_get_stats(struct emu_p2p_medium *p, struct emu_p2p_stats *st)
{
	pthread_mutex_lock(&p->lock);
	*st = p->stats;
	pthread_mutex_unlock(&p->lock);
}

const struct ethdrv_hist *emu_p2p_medium_lateness(struct emu_p2p_medium *p)
{
	return &p->lateness;
}

int emu_p2p_medium_wait_idle(struct emu_p2p_medium *p, uint64_t timeout_ns)
{
	struct timespec ts = ns_to_ts(mono_ns() + timeout_ns);
	int err = 0;

	pthread_mutex_lock(&p->lock);
	while (p->on_wire || p2p_pick(p) >= 0) {
		if (pthread_cond_timedwait(&p->cond, &p->lock, &ts) == ETIMEDOUT) {
			err = -ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}
