// SPDX-License-Identifier: MIT
/*
 * 10BASE-T1S segment model: PLCA and CSMA/CD on one exact timeline (see
 * t1s_medium.h for the behaviour and the accounting). This file owns the
 * segment as a running thing: the ports and their staged frames, the
 * medium thread and its waits, committing events (counters, capture,
 * deliveries), and the medium ops. The rules that decide what goes on the
 * wire next are in t1s_schedule.c.
 *
 * How it runs: the medium thread keeps a committed state (where the
 * timeline stands, the PLCA cycle position). Each round it takes the
 * announcements, pulls one frame from every attached port that has none
 * staged, and plans from the committed state to the next thing that
 * happens on the wire (a frame or a collision), walking beacons and
 * opportunities on a copy of the state and skipping whole silent cycles
 * arithmetically (t1s_schedule.c). In real time it then sleeps until that
 * event ends (absolute deadline); an announcement wakes it only while the
 * event has not started yet, because a new frame can then change the plan.
 * The event is committed (counters, pcap, rx, tx_done) at its end and the
 * copy becomes the committed state. Nothing else costs a wakeup, so an
 * idle segment costs none.
 *
 * Locks: ops_lock protects the port table, staged frames and the committed
 * state and is held while calling port ops (medium -> node order,
 * medium.h); lock protects announcements, the wait handshake, idle, and
 * the counters. Order: ops_lock -> node locks -> lock. announce_tx() takes
 * only lock.
 */
#include <errno.h>
#include <stddef.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <ethdrv/log.h>
#include <ethdrv/stats.h>

#include "pcap.h"
#include "t1s_medium_priv.h"

ETHDRV_LOG_MODULE(t1s_medium);

#define T1S_RECHECK_NS 1000000u /* stuck frames (id >= node_cnt): re-read settings each 1 ms */

static uint64_t t1s_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Host time minus wire time: what the medium slipped (written by its thread). */
static uint64_t t1s_slip(const struct emu_t1s_medium *m)
{
	return __atomic_load_n(&m->slip, __ATOMIC_ACQUIRE);
}

/* The wire's clock: CLOCK_MONOTONIC minus the slip (docs/design.md §5b.2). */
static uint64_t t1s_now(const struct emu_t1s_medium *m)
{
	return m->cfg.realtime ? t1s_clock() - t1s_slip(m) : 0;
}

/* A wire time as the host's clock (what nodes, deadlines and captures use). */
static uint64_t t1s_host(const struct emu_t1s_medium *m, uint64_t t)
{
	return m->cfg.realtime ? t + t1s_slip(m) : t;
}

/* A host time from a node (0: at once) on the wire's clock. */
static uint64_t t1s_wire(const struct emu_t1s_medium *m, uint64_t t)
{
	uint64_t slip = m->cfg.realtime ? t1s_slip(m) : 0;

	return t > slip ? t - slip : 0;
}

/* Round @t up to a whole bit time on the timeline. */
static uint64_t t1s_round_bt(const struct emu_t1s_medium *m, uint64_t t)
{
	uint64_t d;

	if (t <= m->origin)
		return m->origin;
	d = t - m->origin;
	return m->origin + (d + EMU_BIT_NS - 1) / EMU_BIT_NS * EMU_BIT_NS;
}

static struct emu_t1s_medium *t1s_from_base(struct emu_medium *b)
{
	return ethdrv_container_of(b, struct emu_t1s_medium, base);
}

/* Take the announcements: one after a drain makes the next frames ready no earlier. */
static void t1s_take_announcements(struct emu_t1s_medium *m)
{
	uint32_t pend;
	uint64_t at[EMU_T1S_MAX_PORTS];

	pthread_mutex_lock(&m->lock);
	pend = m->announced;
	m->announced = 0;
	m->replan = false;
	memcpy(at, m->announce_ns, sizeof(at));
	pthread_mutex_unlock(&m->lock);
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		struct t1s_port *p = &m->port[i];

		if ((pend >> i & 1u) && p->drained) {
			p->avail_ns = at[i];
			p->drained = false;
		}
	}
}

/* Pull one frame from every attached port that has none staged. */
static void t1s_stage(struct emu_t1s_medium *m)
{
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		struct t1s_port *p = &m->port[i];
		uint64_t t_ready = 0;
		size_t len = 0;

		if (!p->ops || p->staged)
			continue;
		if (!p->ops->tx_pull(p->node, p->buf, sizeof(p->buf), &len, &t_ready)) {
			p->drained = true;
			continue;
		}
		p->staged = true;
		p->len = ETHDRV_MIN(len, sizeof(p->buf));
		p->ready_ns = t1s_round_bt(m, ETHDRV_MAX(t1s_wire(m, t_ready), p->avail_ns));
	}
}

/* Add the walk's counters and the wire bits of the event to the stats. */
static void t1s_apply_acc(struct emu_t1s_medium *m, const struct t1s_acc *a, uint64_t now_ns)
{
	struct emu_t1s_stats *st = &m->stats;

	st->beacon_bits += a->beacon_bits;
	st->silence_bits += a->silence_bits;
	st->backoff_bits += a->backoff_bits;
	st->idle_ns += a->idle_ns;
	st->cycles += a->cycles;
	st->beacons += a->cycles;
	st->idle_cycles += a->idle_cycles;
	st->empty_opportunities += a->empty_opps;
	st->now_ns = now_ns;
	if (m->pcap)
		st->pcap_errors = emu_pcap_errors(m->pcap);
}

/* A delivered (or lost) frame: counters, capture, rx on the others, tx_done. */
static void t1s_commit_tx(struct emu_t1s_medium *m, struct t1s_state *s, const struct t1s_event *ev)
{
	struct t1s_port *p = &m->port[ev->port];
	bool live = p->ops && p->gen == ev->gen && p->staged;

	pthread_mutex_lock(&m->lock);
	t1s_apply_acc(m, &s->acc, ev->end + EMU_IFG_NS);
	m->stats.preamble_bits += EMU_PREAMBLE_BYTES * 8u;
	m->stats.frame_bits += ETHDRV_MAX(ev->len, (size_t)EMU_MIN_FRAME) * 8u;
	m->stats.ifg_bits += EMU_T1S_IFG_BT;
	if (live) {
		m->stats.port[ev->port].frames++;
		m->stats.port[ev->port].bytes += p->len;
	}
	pthread_mutex_unlock(&m->lock);
	if (live) {
		uint64_t end = t1s_host(m, ev->end);

		if (m->pcap)
			emu_pcap_write(m->pcap, t1s_host(m, ev->start), p->buf, p->len);
		for (unsigned i = 0; i < m->cfg.ports; i++)
			if (i != ev->port && m->port[i].ops)
				m->port[i].ops->rx(m->port[i].node, p->buf, p->len, end);
		p->staged = false;
		p->attempts = 0;
		p->backoff_ns = 0;
		p->ops->tx_done(p->node, end);
	}
	if (m->cfg.realtime) {
		uint64_t now = t1s_now(m);

		ethdrv_hist_record(&m->lateness, now > ev->end ? now - ev->end : 0);
	}
}

/* A collision: preamble + jam + IFG on the wire, backoff, excessive drops. */
static void t1s_commit_collision(struct emu_t1s_medium *m, struct t1s_state *s,
				 const struct t1s_event *ev)
{
	uint32_t dropped = 0;

	pthread_mutex_lock(&m->lock);
	t1s_apply_acc(m, &s->acc, ev->end + EMU_IFG_NS);
	m->stats.collision_bits += T1S_COLL_WIRE_BT + EMU_T1S_IFG_BT;
	m->stats.collisions++;
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		if (!(ev->mask >> i & 1u))
			continue;
		emu_t1s__collided(m, s, i, ev->end);
		if (m->port[i].attempts >= EMU_T1S_ATTEMPTS)
			dropped |= 1u << i;
	}
	pthread_mutex_unlock(&m->lock);
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		struct t1s_port *p = &m->port[i];

		if (!(dropped >> i & 1u))
			continue;
		p->staged = false;
		p->attempts = 0;
		p->backoff_ns = 0;
		p->ops->tx_done(p->node, t1s_host(m, ev->end));
	}
	emu_t1s__after_collision(ev, s);
}

/* Commit @ev: the copy @s becomes the committed state. */
static void t1s_commit(struct emu_t1s_medium *m, struct t1s_state *s, const struct t1s_event *ev)
{
	if (ev->kind == T1S_EV_TX) {
		t1s_commit_tx(m, s, ev);
		emu_t1s__after_tx(ev, s);
	} else {
		t1s_commit_collision(m, s, ev);
	}
	memset(&s->acc, 0, sizeof(s->acc));
	m->committed = *s;
}

static bool t1s_stopping(struct emu_t1s_medium *m)
{
	bool stop;

	pthread_mutex_lock(&m->lock);
	stop = m->stop;
	pthread_mutex_unlock(&m->lock);
	return stop;
}

/* Empty a non-blocking eventfd/timerfd counter. */
static void t1s_drain(int fd)
{
	uint64_t v;
	ssize_t r = read(fd, &v, sizeof(v));

	(void)r;
}

/*
 * Sleep until @deadline (T1S_NONE = no timeout) or an announcement, which
 * wakes us only before @wake_before. Return false if one was already pending.
 */
static bool t1s_sleep(struct emu_t1s_medium *m, uint64_t deadline, uint64_t wake_before)
{
	struct pollfd pfd[2] = { { .fd = m->wake_fd, .events = POLLIN },
				 { .fd = m->deadline_fd, .events = POLLIN } };
	struct itimerspec its = { 0 };

	pthread_mutex_lock(&m->lock);
	if (m->stop || m->replan || (m->announced && t1s_now(m) < wake_before)) {
		pthread_mutex_unlock(&m->lock);
		return false;
	}
	m->waiting = true;
	m->wake_before = wake_before;
	pthread_mutex_unlock(&m->lock);
	if (deadline != T1S_NONE) {
		its.it_value.tv_sec = (time_t)(deadline / 1000000000u);
		its.it_value.tv_nsec = (long)(deadline % 1000000000u);
	}
	/* arm (or disarm) the absolute deadline: one wakeup, never a drift */
	timerfd_settime(m->deadline_fd, TFD_TIMER_ABSTIME, &its, NULL);
	poll(pfd, 2, -1);
	t1s_drain(m->wake_fd);
	t1s_drain(m->deadline_fd);
	pthread_mutex_lock(&m->lock);
	m->waiting = false;
	m->stats.wakeups++;
	pthread_mutex_unlock(&m->lock);
	return true;
}

/* Ports other than @ev's sender that want rx_begin now (cut-through); ops_lock held. */
static uint32_t t1s_early_ports(struct emu_t1s_medium *m, const struct t1s_event *ev)
{
	uint32_t mask = 0;

	if (ev->kind != T1S_EV_TX)
		return 0;
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		const struct emu_port_ops *ops = m->port[i].ops;

		if (i != ev->port && ops && ops->rx_early && ops->rx_begin &&
		    ops->rx_early(m->port[i].node))
			mask |= 1u << i;
	}
	return mask;
}

/* @ev's frame has begun: rx_begin on the ports of @early still attached. */
static void t1s_begin_rx(struct emu_t1s_medium *m, const struct t1s_event *ev, uint32_t early)
{
	struct t1s_port *p = &m->port[ev->port];

	pthread_mutex_lock(&m->ops_lock);
	if (p->ops && p->gen == ev->gen && p->staged)
		for (unsigned i = 0; i < m->cfg.ports; i++)
			if ((early >> i & 1u) && m->port[i].ops && m->port[i].ops->rx_begin)
				m->port[i].ops->rx_begin(m->port[i].node, p->buf, p->len,
							 t1s_host(m, ev->start),
							 t1s_host(m, ev->end));
	pthread_mutex_unlock(&m->ops_lock);
}

/*
 * Real time: wait for @ev's end; false if an announcement came before its
 * start (replan). Ports in @early get rx_begin once the frame has begun
 * (it can no longer change): one more wakeup, only for them.
 */
static bool t1s_wait_event(struct emu_t1s_medium *m, const struct t1s_event *ev, uint32_t early)
{
	for (;;) {
		uint64_t now = t1s_now(m);

		if (early && now >= ev->start) {
			t1s_begin_rx(m, ev, early);
			early = 0;
		}
		if (now >= ev->end)
			return true;
		if (!t1s_sleep(m, t1s_host(m, early ? ev->start : ev->end), ev->start))
			return false;
		if (t1s_stopping(m))
			return false;
	}
}

/*
 * Slip, not burst (docs/design.md §5b.2): @ev's end found more than the
 * bound late stops the wire's clock for the lateness, so @ev ends at its
 * time on the slipped clock and the frames after it keep their spacing
 * instead of reaching the nodes all at once.
 */
static void t1s_slip_if_late(struct emu_t1s_medium *m, const struct t1s_event *ev)
{
	uint64_t now = t1s_now(m), late = now > ev->end ? now - ev->end : 0;

	if (m->cfg.slip_bound_ns == EMU_T1S_NO_SLIP || late <= m->cfg.slip_bound_ns)
		return;
	__atomic_store_n(&m->slip, m->slip + late, __ATOMIC_RELEASE);
	pthread_mutex_lock(&m->lock);
	m->stats.slips++;
	m->stats.slip_ns += late;
	pthread_mutex_unlock(&m->lock);
}

/* Nothing to send: mark idle (if so) and wait for an announcement (or a stuck recheck). */
static void t1s_wait_none(struct emu_t1s_medium *m, const struct t1s_event *ev)
{
	pthread_mutex_lock(&m->lock);
	if (!ev->stuck && !m->announced && !m->replan && !m->idle) {
		m->idle = true;
		pthread_cond_broadcast(&m->idle_cond);
	}
	pthread_mutex_unlock(&m->lock);
	if (ev->stuck && m->cfg.realtime)
		t1s_sleep(m, t1s_clock() + T1S_RECHECK_NS, T1S_NONE);
	else
		t1s_sleep(m, T1S_NONE, T1S_NONE);
}

/* The medium thread: take announcements, stage, plan, wait, commit (see the top). */
static void *t1s_thread(void *arg)
{
	struct emu_t1s_medium *m = arg;

	/* docs/host.md §4: 50 us default slack would add to every wakeup */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (!t1s_stopping(m)) {
		struct t1s_state s;
		struct t1s_event ev;
		uint32_t early;

		/* 1. announcements and frames in, plan from the committed state */
		pthread_mutex_lock(&m->ops_lock);
		t1s_take_announcements(m);
		t1s_stage(m);
		s = m->committed;
		emu_t1s__plan(m, &s, &ev);
		early = t1s_early_ports(m, &ev);
		pthread_mutex_unlock(&m->ops_lock);
		/* 2. nothing on the wire: sleep until an announcement */
		if (ev.kind == T1S_EV_NONE) {
			t1s_wait_none(m, &ev);
			continue;
		}
		/* 3. real time: absolute deadline at the event end; replan on an early
		 * announcement; rx_begin when it starts. Virtual time: rx_begin now. */
		if (m->cfg.realtime && !t1s_wait_event(m, &ev, early))
			continue;
		if (m->cfg.realtime)
			t1s_slip_if_late(m, &ev);
		if (!m->cfg.realtime && early)
			t1s_begin_rx(m, &ev, early);
		/* 4. commit: counters, capture, deliveries */
		pthread_mutex_lock(&m->ops_lock);
		t1s_commit(m, &s, &ev);
		pthread_mutex_unlock(&m->ops_lock);
	}
	return NULL;
}

/* Wake the medium thread from poll(). */
static void t1s_wake(struct emu_t1s_medium *m)
{
	uint64_t one = 1;

	if (write(m->wake_fd, &one, sizeof(one)) < 0)
		ethdrv_err_ratelimited(NULL, "eventfd write failed: %d", -errno);
}

/* Mark @port pending and wake the medium if it may need to replan. */
static void t1s_announce_tx(struct emu_medium *b, unsigned port)
{
	struct emu_t1s_medium *m = t1s_from_base(b);
	uint64_t now = t1s_now(m);
	bool wake;

	if (port >= m->cfg.ports)
		return;
	pthread_mutex_lock(&m->lock);
	if (!(m->announced >> port & 1u)) {
		m->announced |= 1u << port;
		m->announce_ns[port] = now;
	}
	m->idle = false;
	wake = m->waiting && (m->wake_before == T1S_NONE || now < m->wake_before);
	if (wake)
		m->waiting = false;
	pthread_mutex_unlock(&m->lock);
	if (wake)
		t1s_wake(m);
}

static int t1s_attach(struct emu_medium *b, unsigned port, const struct emu_port_ops *ops,
		      void *node)
{
	struct emu_t1s_medium *m = t1s_from_base(b);
	struct t1s_port *p;
	unsigned gen;

	if (port >= m->cfg.ports || !ops || !ops->tx_pull || !ops->tx_done || !ops->rx)
		return -EINVAL;
	pthread_mutex_lock(&m->ops_lock);
	p = &m->port[port];
	if (p->ops) {
		pthread_mutex_unlock(&m->ops_lock);
		return -EBUSY;
	}
	gen = p->gen;
	memset(p, 0, offsetof(struct t1s_port, buf));
	p->gen = gen;
	p->ops = ops;
	p->node = node;
	p->drained = true;
	p->avail_ns = m->origin;
	pthread_mutex_unlock(&m->ops_lock);
	/* wake the medium so the new node's settings and status are seen */
	t1s_announce_tx(b, port);
	return 0;
}

static void t1s_detach(struct emu_medium *b, unsigned port)
{
	struct emu_t1s_medium *m = t1s_from_base(b);
	struct t1s_port *p;
	bool lost, wake;

	if (port >= m->cfg.ports)
		return;
	pthread_mutex_lock(&m->ops_lock);
	p = &m->port[port];
	lost = p->ops && p->staged;
	p->ops = NULL;
	p->node = NULL;
	p->staged = false;
	p->gen++;
	pthread_mutex_lock(&m->lock);
	m->announced &= ~(1u << port);
	if (lost) {
		m->stats.port[port].dropped++;
		m->stats.dropped++;
	}
	/* held frames or the coordinator may be gone: plan again, then report idle */
	m->replan = true;
	m->idle = false;
	wake = m->waiting;
	m->waiting = false;
	pthread_mutex_unlock(&m->lock);
	pthread_mutex_unlock(&m->ops_lock);
	if (wake)
		t1s_wake(m);
}

static void t1s_destroy(struct emu_medium *b)
{
	struct emu_t1s_medium *m = t1s_from_base(b);
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_mutex_unlock(&m->lock);
	t1s_wake(m);
	pthread_join(m->thread, NULL);
	emu_pcap_close(m->pcap);
	close(m->deadline_fd);
	close(m->wake_fd);
	pthread_cond_destroy(&m->idle_cond);
	pthread_mutex_destroy(&m->lock);
	pthread_mutex_destroy(&m->ops_lock);
	free(m);
}

static const struct emu_medium_ops t1s_medium_ops = {
	.attach = t1s_attach,
	.detach = t1s_detach,
	.announce_tx = t1s_announce_tx,
	.destroy = t1s_destroy,
};

/* Locks and the idle condvar (CLOCK_MONOTONIC, for wait_idle). */
static int t1s_init_sync(struct emu_t1s_medium *m)
{
	pthread_condattr_t ca;
	int err;

	pthread_mutex_init(&m->ops_lock, NULL);
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	err = -pthread_cond_init(&m->idle_cond, &ca);
	pthread_condattr_destroy(&ca);
	if (err) {
		pthread_mutex_destroy(&m->lock);
		pthread_mutex_destroy(&m->ops_lock);
	}
	return err;
}

static void t1s_fini_sync(struct emu_t1s_medium *m)
{
	pthread_cond_destroy(&m->idle_cond);
	pthread_mutex_destroy(&m->lock);
	pthread_mutex_destroy(&m->ops_lock);
}

/* Settings, clock origin, state and capture of a new medium. */
static int t1s_init(struct emu_t1s_medium *m, const struct emu_t1s_config *cfg)
{
	int err;

	m->base.ops = &t1s_medium_ops;
	m->cfg = *cfg;
	m->cfg.pcap_path = NULL;
	if (!m->cfg.slip_bound_ns)
		m->cfg.slip_bound_ns = EMU_T1S_SLIP_DEFAULT_NS;
	m->rng = cfg->seed ? cfg->seed : 0x7431736d656469ull;
	m->origin = t1s_now(m);
	m->committed.phase = T1S_CSMA;
	m->committed.t = m->committed.quiet_since = m->origin;
	m->stats.now_ns = m->stats.start_ns = m->origin;
	m->lateness.unit = "ns";
	m->idle = true;
	if (!cfg->pcap_path)
		return 0;
	err = emu_pcap_open(cfg->pcap_path, &m->pcap);
	if (err)
		return err;
	if (!cfg->realtime)
		emu_pcap_set_virtual(m->pcap);
	return 0;
}

int emu_t1s_medium_new(const struct emu_t1s_config *cfg, struct emu_t1s_medium **out)
{
	static const struct emu_t1s_config dflt = { .ports = 2, .realtime = true };
	struct emu_t1s_medium *m;
	int err;

	cfg = cfg ? cfg : &dflt;
	if (!out || cfg->ports < EMU_T1S_MIN_PORTS || cfg->ports > EMU_T1S_MAX_PORTS)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	err = t1s_init(m, cfg);
	if (err)
		goto err_free;
	m->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->wake_fd < 0) {
		err = -errno;
		goto err_close_pcap;
	}
	m->deadline_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (m->deadline_fd < 0) {
		err = -errno;
		goto err_close_efd;
	}
	err = t1s_init_sync(m);
	if (err)
		goto err_close_tfd;
	err = -pthread_create(&m->thread, NULL, t1s_thread, m);
	if (err)
		goto err_fini_sync;
	*out = m;
	return 0;

err_fini_sync:
	t1s_fini_sync(m);
err_close_tfd:
	close(m->deadline_fd);
err_close_efd:
	close(m->wake_fd);
err_close_pcap:
	emu_pcap_close(m->pcap);
err_free:
	free(m);
	return err;
}

struct emu_medium *emu_t1s_medium_base(struct emu_t1s_medium *m)
{
	return &m->base;
}

void emu_t1s_medium_get_stats(struct emu_t1s_medium *m, struct emu_t1s_stats *st)
{
	pthread_mutex_lock(&m->lock);
	*st = m->stats;
	pthread_mutex_unlock(&m->lock);
}

const struct ethdrv_hist *emu_t1s_medium_lateness(struct emu_t1s_medium *m)
{
	return &m->lateness;
}

int emu_t1s_medium_wait_idle(struct emu_t1s_medium *m, uint64_t timeout_ns)
{
	uint64_t dl = t1s_clock() + timeout_ns;
	struct timespec ts = { .tv_sec = (time_t)(dl / 1000000000u),
			       .tv_nsec = (long)(dl % 1000000000u) };
	int err = 0;

	pthread_mutex_lock(&m->lock);
	while (!m->idle && !err)
		err = pthread_cond_timedwait(&m->idle_cond, &m->lock, &ts);
	err = m->idle ? 0 : -ETIMEDOUT;
	pthread_mutex_unlock(&m->lock);
	return err;
}
