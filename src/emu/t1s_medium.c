// SPDX-License-Identifier: MIT
/*
 * 10BASE-T1S segment model: PLCA and CSMA/CD on one exact timeline (see
 * t1s_medium.h for the behaviour and the accounting).
 *
 * How it runs: the medium thread keeps a committed state (where the
 * timeline stands, the PLCA cycle position). Each round it takes the announcements,
 * pulls one frame from every attached port that has none staged, and plans
 * from the committed state to the next thing that happens on the wire (a
 * frame or a collision), walking beacons and opportunities on a copy of the
 * state and skipping whole silent cycles arithmetically. In real time it
 * then sleeps until that event ends (absolute deadline); an announcement wakes it
 * only while the event has not started yet, because a new frame can then
 * change the plan. The event is committed (counters, pcap, rx, tx_done) at
 * its end and the copy becomes the committed state. Nothing else costs a
 * wakeup, so an idle segment costs none.
 *
 * Locks: ops_lock protects the port table, staged frames and the committed
 * state and is held while calling port ops (medium -> node order, medium.h);
 * lock protects announcements, the wait handshake, idle, and the counters. Order:
 * ops_lock -> node locks -> lock. announce_tx() takes only lock.
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
#include "t1s_medium.h"

ETHDRV_LOG_MODULE(t1s_medium);

#define T1S_NONE UINT64_MAX
#define T1S_PLAN_STEPS_MAX 4096u /* a plan spans at most ~3 cycles of <= 256 opportunities */
#define T1S_RECHECK_NS 1000000u /* stuck frames (id >= node_cnt): re-read settings each 1 ms */
#define T1S_PLCA_OFF_ID 0xFFu /* CTRL1.ID reset value: PLCA off (TC6 facts §3.6) */
#define T1S_COLL_WIRE_BT (EMU_PREAMBLE_BYTES * 8u + EMU_T1S_JAM_BT) /* preamble + jam */

static uint64_t bt_ns(uint64_t bits)
{
	return bits * EMU_BIT_NS;
}

enum t1s_phase {
	T1S_CYCLE, /* a PLCA cycle (beacon) starts at t */
	T1S_OPP, /* opportunity opp starts at t */
	T1S_BURST, /* burst_port may continue its burst until burst_end */
	T1S_CSMA, /* no coordinator: CSMA/CD, the medium is free from t */
};

/* Counters accumulated while walking, applied when the event commits. */
struct t1s_acc {
	uint64_t beacon_bits, silence_bits, backoff_bits, idle_ns;
	uint64_t cycles, idle_cycles, empty_opps;
};

/* Where the timeline stands; planned on a copy, committed at event ends. */
struct t1s_state {
	enum t1s_phase phase; /* what happens at t */
	uint64_t t; /* timeline position */
	uint64_t quiet_since; /* end of the last carrier (CSMA/CD carrier sense) */
	unsigned opp; /* current opportunity id */
	unsigned node_cnt; /* this cycle's node count (coordinator's NCNT) */
	unsigned to_bt; /* this cycle's TO timer (coordinator's TOTMR) */
	uint32_t known; /* ports whose settings were read this cycle */
	uint32_t plca; /* ports following PLCA this cycle */
	uint32_t csma; /* ports using CSMA/CD this cycle */
	uint32_t sendable; /* ports that can get the medium this cycle */
	uint8_t id[EMU_T1S_MAX_PORTS]; /* node ids */
	uint8_t burst_cnt[EMU_T1S_MAX_PORTS]; /* MAXBC */
	uint8_t burst_tmr[EMU_T1S_MAX_PORTS]; /* BTMR */
	unsigned burst_port; /* T1S_BURST: the bursting port */
	unsigned burst_left; /* T1S_BURST: frames it may still add */
	uint64_t burst_end; /* T1S_BURST: its window ends here */
	struct t1s_acc acc; /* counters since the last commit */
};

enum t1s_ev_kind { T1S_EV_NONE, T1S_EV_TX, T1S_EV_COLLISION };

/* The next thing on the wire, as planned. */
struct t1s_event {
	enum t1s_ev_kind kind;
	uint64_t start; /* first preamble bit */
	uint64_t end; /* last frame bit (TX) or end of jam (collision) */
	unsigned port; /* TX: the sender */
	unsigned gen; /* TX: the sender's attach generation */
	size_t len; /* TX: frame length incl. FCS */
	uint32_t mask; /* collision: the ports involved */
	bool owner; /* TX in the sender's own PLCA opportunity */
	bool burst; /* TX continues a burst */
	bool stuck; /* NONE although frames are staged */
};

struct t1s_port {
	const struct emu_port_ops *ops; /* NULL = detached */
	void *node; /* passed to ops */
	unsigned gen; /* bumped at detach */
	bool staged; /* buf holds a pulled frame not yet on the wire */
	bool drained; /* the last tx_pull returned false */
	bool plca_status; /* last status told to the node */
	size_t len; /* staged frame length incl. FCS */
	uint64_t ready_ns; /* the staged frame may start from here */
	uint64_t avail_ns; /* announcement that ended the last drain */
	uint64_t backoff_ns; /* CSMA/CD: not before */
	unsigned attempts; /* collisions of the staged frame */
	uint8_t buf[EMU_FRAME_MAX]; /* the staged frame */
};

struct emu_t1s_medium {
	struct emu_medium base; /* must be first */
	struct emu_t1s_config cfg; /* settings (pcap_path not kept) */
	pthread_t thread; /* the medium thread */
	pthread_mutex_t ops_lock; /* port table, staged frames, st */
	pthread_mutex_t lock; /* fields below up to stats */
	pthread_cond_t idle_cond; /* signalled when idle becomes true */
	uint32_t announced; /* ports that announced a frame since the medium last looked */
	uint64_t announce_ns[EMU_T1S_MAX_PORTS]; /* first announcement since then (real time) */
	bool waiting; /* the medium thread is (about to be) in poll() */
	uint64_t wake_before; /* announcements wake it only before this time */
	bool reeval; /* a detach changed the ports: plan again */
	bool stop; /* destroy requested */
	bool idle; /* nothing pending, staged or on the wire */
	struct emu_t1s_stats stats; /* counters */
	int efd; /* eventfd: announcements and stop */
	int tfd; /* timerfd: absolute deadlines (real time) */
	struct t1s_port port[EMU_T1S_MAX_PORTS]; /* ops_lock */
	struct t1s_state st; /* committed state; ops_lock */
	uint64_t origin; /* timeline origin */
	uint64_t rng; /* backoff PRNG state (medium thread) */
	struct emu_pcap *pcap; /* capture or NULL (medium thread) */
	struct ethdrv_hist lateness; /* delivery lateness, ns */
};

static uint64_t t1s_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t t1s_now(const struct emu_t1s_medium *m)
{
	return m->cfg.realtime ? t1s_clock() : 0;
}

/* splitmix64: small, seedable, good enough for backoff draws. */
static uint64_t t1s_rand(struct emu_t1s_medium *m)
{
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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

/* Ports in @mask that are attached and hold a staged frame. */
static uint32_t t1s_staged_mask(const struct emu_t1s_medium *m, uint32_t mask)
{
	uint32_t out = 0;

	for (unsigned i = 0; i < m->cfg.ports; i++)
		if ((mask >> i & 1u) && m->port[i].ops && m->port[i].staged)
			out |= 1u << i;
	return out;
}

/* Earliest ready time of the staged frames of @mask (T1S_NONE if none). */
static uint64_t t1s_min_ready(const struct emu_t1s_medium *m, uint32_t mask, bool backoff)
{
	uint64_t best = T1S_NONE;

	mask = t1s_staged_mask(m, mask);
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		const struct t1s_port *p = &m->port[i];
		uint64_t r;

		if (!(mask >> i & 1u))
			continue;
		r = backoff ? ETHDRV_MAX(p->ready_ns, p->backoff_ns) : p->ready_ns;
		best = ETHDRV_MIN(best, r);
	}
	return best;
}

/* Ports of @mask whose staged frame can start at @t (ready, backoff done). */
static uint32_t t1s_ready_at(const struct emu_t1s_medium *m, uint32_t mask, uint64_t t)
{
	uint32_t out = 0;

	mask = t1s_staged_mask(m, mask);
	for (unsigned i = 0; i < m->cfg.ports; i++)
		if ((mask >> i & 1u) && m->port[i].ready_ns <= t && m->port[i].backoff_ns <= t)
			out |= 1u << i;
	return out;
}

/*
 * Account the silent stretch [@from, @to): idle while no sendable frame was
 * ready, into *@busy_bits (beacon, silence or backoff) from then on.
 */
static void t1s_account_gap(const struct emu_t1s_medium *m, struct t1s_state *s, uint64_t from,
			    uint64_t to, uint64_t *busy_bits)
{
	uint64_t r = t1s_min_ready(m, s->sendable | ~s->known, false);
	uint64_t split = ETHDRV_MIN(to, ETHDRV_MAX(from, r));

	if (to <= from)
		return;
	s->acc.idle_ns += split - from;
	*busy_bits += (to - split) / EMU_BIT_NS;
}

/* Tell @p whether PLCA beacons are seen, on changes only. */
static void t1s_set_status(struct t1s_port *p, bool active)
{
	if (p->plca_status == active)
		return;
	p->plca_status = active;
	if (p->ops->set_plca_status)
		p->ops->set_plca_status(p->node, active);
}

/*
 * Read every node's PLCA settings (TC6 facts §3.6) into @s for the cycle
 * starting at s->t. Return true if a coordinator (enabled, id 0) is
 * attached.
 */
static bool t1s_read_settings(struct emu_t1s_medium *m, struct t1s_state *s)
{
	struct emu_plca_cfg c[EMU_T1S_MAX_PORTS] = { 0 };
	int coord = -1;

	s->known = s->plca = s->csma = 0;
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		struct t1s_port *p = &m->port[i];

		if (!p->ops)
			continue;
		c[i].node_id = T1S_PLCA_OFF_ID;
		if (p->ops->get_plca)
			p->ops->get_plca(p->node, &c[i]);
		s->known |= 1u << i;
		s->id[i] = c[i].node_id;
		s->burst_cnt[i] = c[i].burst_cnt;
		s->burst_tmr[i] = c[i].burst_tmr;
		if (c[i].enabled && c[i].node_id != T1S_PLCA_OFF_ID)
			s->plca |= 1u << i;
		else
			s->csma |= 1u << i;
		if (coord < 0 && (s->plca >> i & 1u) && c[i].node_id == 0)
			coord = (int)i;
	}
	if (coord < 0) {
		/* no beacons: PLCA nodes fall back to CSMA/CD */
		s->csma |= s->plca;
		s->plca = 0;
	} else {
		s->node_cnt = c[coord].node_cnt ? c[coord].node_cnt : 1;
		s->to_bt = c[coord].to_tmr;
	}
	s->sendable = s->csma;
	for (unsigned i = 0; i < m->cfg.ports; i++) {
		if ((s->plca >> i & 1u) && s->id[i] < s->node_cnt)
			s->sendable |= 1u << i;
		if (m->port[i].ops)
			t1s_set_status(&m->port[i], s->plca >> i & 1u);
	}
	return coord >= 0;
}

static void t1s_ev_none(const struct emu_t1s_medium *m, struct t1s_event *ev)
{
	ev->kind = T1S_EV_NONE;
	ev->stuck = t1s_staged_mask(m, ~0u) != 0;
}

/* A TX by the only port of @set at @start, or a collision of all of @set. */
static void t1s_ev_start(const struct emu_t1s_medium *m, struct t1s_event *ev, uint32_t set,
			 uint64_t start, bool jam)
{
	unsigned port = (unsigned)__builtin_ctz(set);

	ev->start = start;
	if ((set & (set - 1)) || jam) {
		ev->kind = T1S_EV_COLLISION;
		ev->mask = set;
		ev->end = start + bt_ns(T1S_COLL_WIRE_BT);
		return;
	}
	ev->kind = T1S_EV_TX;
	ev->port = port;
	ev->gen = m->port[port].gen;
	ev->len = m->port[port].len;
	ev->end = start + emu_frame_wire_ns(ev->len);
}

/* Beacon at a cycle start; silent cycles before the first ready frame are skipped. */
static bool t1s_step_cycle(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
{
	uint64_t cyc, r, n;

	if (!t1s_read_settings(m, s)) {
		s->phase = T1S_CSMA;
		return false;
	}
	r = t1s_min_ready(m, s->sendable, false);
	if (r == T1S_NONE) {
		t1s_ev_none(m, ev);
		return true;
	}
	cyc = bt_ns(EMU_T1S_BEACON_BT + (uint64_t)s->node_cnt * s->to_bt);
	n = r > s->t ? (r - s->t) / cyc : 0;
	/* nobody observes silent cycles: jump to where the pattern stands */
	s->t += n * cyc;
	s->acc.idle_ns += n * cyc;
	s->acc.cycles += n;
	s->acc.idle_cycles += n;
	s->acc.empty_opps += n * s->node_cnt;
	t1s_account_gap(m, s, s->t, s->t + bt_ns(EMU_T1S_BEACON_BT), &s->acc.beacon_bits);
	s->acc.cycles++;
	s->t += bt_ns(EMU_T1S_BEACON_BT);
	s->quiet_since = s->t;
	s->phase = T1S_OPP;
	s->opp = 0;
	return false;
}

/* Opportunity s->opp: its owner, else a CSMA/CD node, else TO silence. */
static bool t1s_step_opp(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
{
	uint64_t to_end = s->t + bt_ns(s->to_bt), own = T1S_NONE, cs;
	uint32_t owners = 0;

	if (s->opp >= s->node_cnt) {
		s->phase = T1S_CYCLE;
		return false;
	}
	if (!t1s_staged_mask(m, s->sendable | ~s->known)) {
		t1s_ev_none(m, ev);
		return true;
	}
	for (unsigned i = 0; i < m->cfg.ports; i++)
		if ((s->plca >> i & 1u) && s->id[i] == s->opp)
			owners |= 1u << i;
	/* the owner may start until its TO timer expires (TC6 facts §5.7) */
	own = ETHDRV_MAX(s->t, t1s_min_ready(m, owners, true));
	cs = t1s_min_ready(m, s->csma, true);
	if (cs != T1S_NONE)
		cs = ETHDRV_MAX(cs, ETHDRV_MAX(s->t, s->quiet_since + bt_ns(EMU_T1S_IFG_BT)));
	if (own != T1S_NONE && (own == s->t || own < to_end) && own <= cs) {
		t1s_account_gap(m, s, s->t, own, &s->acc.silence_bits);
		t1s_ev_start(m, ev, t1s_ready_at(m, owners, own), own, false);
		ev->owner = true;
		return true;
	}
	if (cs != T1S_NONE && cs < to_end) {
		t1s_account_gap(m, s, s->t, cs, &s->acc.silence_bits);
		t1s_ev_start(m, ev, t1s_ready_at(m, s->csma, cs), cs, m->cfg.test_jam);
		return true;
	}
	t1s_account_gap(m, s, s->t, to_end, &s->acc.silence_bits);
	s->acc.empty_opps++;
	s->t = to_end;
	s->opp++;
	return false;
}

/* Burst window of burst_port: its next frame, or silence until the window ends. */
static bool t1s_step_burst(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
{
	uint32_t bit = 1u << s->burst_port;
	uint64_t r = t1s_min_ready(m, bit, true);

	if (r != T1S_NONE && r <= s->burst_end) {
		uint64_t start = ETHDRV_MAX(s->t, r);

		s->acc.silence_bits += (start - s->t) / EMU_BIT_NS;
		t1s_ev_start(m, ev, bit, start, false);
		ev->owner = ev->burst = true;
		return true;
	}
	if (!t1s_staged_mask(m, s->sendable | ~s->known)) {
		t1s_ev_none(m, ev);
		return true;
	}
	s->acc.silence_bits += (s->burst_end - s->t) / EMU_BIT_NS;
	s->t = s->burst_end;
	s->phase = T1S_OPP;
	s->opp++;
	return false;
}

/* CSMA/CD: the first node(s) to find the medium free after their backoff. */
static bool t1s_step_csma(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
{
	uint64_t start;

	if (t1s_read_settings(m, s)) {
		s->phase = T1S_CYCLE;
		return false;
	}
	start = t1s_min_ready(m, s->csma, true);
	if (start == T1S_NONE) {
		t1s_ev_none(m, ev);
		return true;
	}
	start = ETHDRV_MAX(start, s->t);
	t1s_account_gap(m, s, s->t, start, &s->acc.backoff_bits);
	t1s_ev_start(m, ev, t1s_ready_at(m, s->csma, start), start, m->cfg.test_jam);
	return true;
}

/* Walk @s forward to the next event on the wire (or none). */
static void t1s_plan(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
{
	struct t1s_state now = *s;

	/* PLCA status follows the coordinator at once, even while idle */
	t1s_read_settings(m, &now);
	memset(ev, 0, sizeof(*ev));
	for (unsigned step = 0; step < T1S_PLAN_STEPS_MAX; step++) {
		bool done;

		switch (s->phase) {
		case T1S_CYCLE:
			done = t1s_step_cycle(m, s, ev);
			break;
		case T1S_OPP:
			done = t1s_step_opp(m, s, ev);
			break;
		case T1S_BURST:
			done = t1s_step_burst(m, s, ev);
			break;
		default:
			done = t1s_step_csma(m, s, ev);
			break;
		}
		if (done)
			return;
	}
	t1s_ev_none(m, ev);
	ev->stuck = true;
}

/* Take the announcements: one after a drain makes the next frames ready no earlier. */
static void t1s_take_announcements(struct emu_t1s_medium *m)
{
	uint32_t pend;
	uint64_t at[EMU_T1S_MAX_PORTS];

	pthread_mutex_lock(&m->lock);
	pend = m->announced;
	m->announced = 0;
	m->reeval = false;
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
		p->ready_ns = t1s_round_bt(m, ETHDRV_MAX(t_ready, p->avail_ns));
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
		if (m->pcap)
			emu_pcap_write(m->pcap, ev->start, p->buf, p->len);
		for (unsigned i = 0; i < m->cfg.ports; i++)
			if (i != ev->port && m->port[i].ops)
				m->port[i].ops->rx(m->port[i].node, p->buf, p->len, ev->end);
		p->staged = false;
		p->attempts = 0;
		p->backoff_ns = 0;
		p->ops->tx_done(p->node, ev->end);
	}
	if (m->cfg.realtime) {
		uint64_t now = t1s_clock();

		ethdrv_hist_record(&m->lateness, now > ev->end ? now - ev->end : 0);
	}
}

/* The walk state after a TX: next opportunity, burst window, or CSMA/CD. */
static void t1s_after_tx(const struct t1s_event *ev, struct t1s_state *s)
{
	unsigned left = ev->burst ? s->burst_left - 1 : s->burst_cnt[ev->port];

	s->t = ev->end + EMU_IFG_NS;
	s->quiet_since = ev->end;
	if (s->phase == T1S_CSMA)
		return;
	if (ev->owner && left > 0) {
		s->phase = T1S_BURST;
		s->burst_port = ev->port;
		s->burst_left = left;
		s->burst_end = ev->end +
			       bt_ns(ETHDRV_MAX(EMU_T1S_IFG_BT, (unsigned)s->burst_tmr[ev->port]));
		return;
	}
	s->phase = T1S_OPP;
	s->opp++;
}

/* One collided port: drop after 16 attempts, else back off (CSMA/CD) or wait. */
static void t1s_collided(struct emu_t1s_medium *m, const struct t1s_state *s, unsigned i,
			 uint64_t jam_end)
{
	struct t1s_port *p = &m->port[i];
	unsigned k;

	if (!p->ops || !p->staged)
		return;
	m->stats.port[i].collisions++;
	if (++p->attempts >= EMU_T1S_ATTEMPTS) {
		m->stats.port[i].excessive_collisions++;
		m->stats.excessive_collisions++;
		return;
	}
	if (s->phase != T1S_CSMA && !(s->csma >> i & 1u))
		return; /* PLCA: retry at the next own opportunity */
	k = ETHDRV_MIN(p->attempts, EMU_T1S_BACKOFF_LIMIT);
	p->backoff_ns = jam_end + bt_ns((t1s_rand(m) & ((1ull << k) - 1)) * EMU_T1S_SLOT_BT);
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
		t1s_collided(m, s, i, ev->end);
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
		p->ops->tx_done(p->node, ev->end);
	}
	s->t = ev->end + EMU_IFG_NS;
	s->quiet_since = ev->end;
	if (s->phase != T1S_CSMA) {
		s->phase = T1S_OPP;
		s->opp++;
	}
}

/* Commit @ev: the copy @s becomes the committed state. */
static void t1s_commit(struct emu_t1s_medium *m, struct t1s_state *s, const struct t1s_event *ev)
{
	if (ev->kind == T1S_EV_TX) {
		t1s_commit_tx(m, s, ev);
		t1s_after_tx(ev, s);
	} else {
		t1s_commit_collision(m, s, ev);
	}
	memset(&s->acc, 0, sizeof(s->acc));
	m->st = *s;
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
	struct pollfd pfd[2] = { { .fd = m->efd, .events = POLLIN },
				 { .fd = m->tfd, .events = POLLIN } };
	struct itimerspec its = { 0 };

	pthread_mutex_lock(&m->lock);
	if (m->stop || m->reeval || (m->announced && t1s_now(m) < wake_before)) {
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
	timerfd_settime(m->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	poll(pfd, 2, -1);
	t1s_drain(m->efd);
	t1s_drain(m->tfd);
	pthread_mutex_lock(&m->lock);
	m->waiting = false;
	m->stats.wakeups++;
	pthread_mutex_unlock(&m->lock);
	return true;
}

/* Real time: wait for @ev's end; false if an announcement came before its start (replan). */
static bool t1s_wait_event(struct emu_t1s_medium *m, const struct t1s_event *ev)
{
	for (;;) {
		uint64_t now = t1s_clock();

		if (now >= ev->end)
			return true;
		if (!t1s_sleep(m, ev->end, ev->start))
			return false;
		if (t1s_stopping(m))
			return false;
	}
}

/* Nothing to send: mark idle (if so) and wait for an announcement (or a stuck recheck). */
static void t1s_wait_none(struct emu_t1s_medium *m, const struct t1s_event *ev)
{
	pthread_mutex_lock(&m->lock);
	if (!ev->stuck && !m->announced && !m->reeval && !m->idle) {
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

	/* host-measurements §4: 50 us default slack would add to every wakeup */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (!t1s_stopping(m)) {
		struct t1s_state s;
		struct t1s_event ev;

		/* 1. announcements and frames in, plan from the committed state */
		pthread_mutex_lock(&m->ops_lock);
		t1s_take_announcements(m);
		t1s_stage(m);
		s = m->st;
		t1s_plan(m, &s, &ev);
		pthread_mutex_unlock(&m->ops_lock);
		/* 2. nothing on the wire: sleep until an announcement */
		if (ev.kind == T1S_EV_NONE) {
			t1s_wait_none(m, &ev);
			continue;
		}
		/* 3. real time: absolute deadline at the event end; replan on an early announcement */
		if (m->cfg.realtime && !t1s_wait_event(m, &ev))
			continue;
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

	if (write(m->efd, &one, sizeof(one)) < 0)
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
	m->reeval = true;
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
	close(m->tfd);
	close(m->efd);
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
	m->rng = cfg->seed ? cfg->seed : 0x7431736d656469ull;
	m->origin = t1s_now(m);
	m->st.phase = T1S_CSMA;
	m->st.t = m->st.quiet_since = m->origin;
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
	m->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->efd < 0) {
		err = -errno;
		goto err_close_pcap;
	}
	m->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (m->tfd < 0) {
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
	close(m->tfd);
err_close_efd:
	close(m->efd);
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
