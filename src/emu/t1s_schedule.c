// SPDX-License-Identifier: MIT
/*
 * 10BASE-T1S segment model: the rules of the wire. It owns planning, on a
 * copy of the committed state, the next event on the wire: PLCA cycles
 * (beacon, then one transmit opportunity per node id, docs/tc6.md §3.6,
 * §5.7, §6), bursts, the TO timer's silence, CSMA/CD carrier sense, and
 * what a collision does (jam, binary exponential backoff, the 16-attempt
 * limit). Silent cycles are skipped arithmetically. It also accounts the
 * silent stretches it walks over (beacon, silence, backoff, idle). The
 * medium thread in t1s_medium.c runs the plan against the clock.
 */
#include <string.h>

#include "ethdrv/compiler.h"
#include "t1s_medium_priv.h"

#define T1S_PLAN_STEPS_MAX 4096u /* a plan spans at most ~3 cycles of <= 256 opportunities */
#define T1S_PLCA_OFF_ID 0xFFu /* CTRL1.ID reset value: PLCA off (docs/tc6.md §3.6) */

/* splitmix64: small, seedable, good enough for backoff draws. */
static uint64_t t1s_rand(struct emu_t1s_medium *m)
{
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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
 * Read every node's PLCA settings (docs/tc6.md §3.6) into @s for the cycle
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
		ev->end = start + t1s_bt_ns(T1S_COLL_WIRE_BT);
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
	cyc = t1s_bt_ns(EMU_T1S_BEACON_BT + (uint64_t)s->node_cnt * s->to_bt);
	n = r > s->t ? (r - s->t) / cyc : 0;
	/* nobody observes silent cycles: jump to where the pattern stands */
	s->t += n * cyc;
	s->acc.idle_ns += n * cyc;
	s->acc.cycles += n;
	s->acc.idle_cycles += n;
	s->acc.empty_opps += n * s->node_cnt;
	t1s_account_gap(m, s, s->t, s->t + t1s_bt_ns(EMU_T1S_BEACON_BT), &s->acc.beacon_bits);
	s->acc.cycles++;
	s->t += t1s_bt_ns(EMU_T1S_BEACON_BT);
	s->quiet_since = s->t;
	s->phase = T1S_OPP;
	s->opp = 0;
	return false;
}

/* Opportunity s->opp: its owner, else a CSMA/CD node, else TO silence. */
static bool t1s_step_opp(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
{
	uint64_t to_end = s->t + t1s_bt_ns(s->to_bt), own = T1S_NONE, cs;
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
	/* the owner may start until its TO timer expires (docs/tc6.md §5.7) */
	own = ETHDRV_MAX(s->t, t1s_min_ready(m, owners, true));
	cs = t1s_min_ready(m, s->csma, true);
	if (cs != T1S_NONE)
		cs = ETHDRV_MAX(cs, ETHDRV_MAX(s->t, s->quiet_since + t1s_bt_ns(EMU_T1S_IFG_BT)));
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
void emu_t1s__plan(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev)
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

/* The walk state after a TX: next opportunity, burst window, or CSMA/CD. */
void emu_t1s__after_tx(const struct t1s_event *ev, struct t1s_state *s)
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
		s->burst_end = ev->end + t1s_bt_ns(ETHDRV_MAX(EMU_T1S_IFG_BT,
							      (unsigned)s->burst_tmr[ev->port]));
		return;
	}
	s->phase = T1S_OPP;
	s->opp++;
}

/* The walk state after a collision: the next opportunity, or CSMA/CD. */
void emu_t1s__after_collision(const struct t1s_event *ev, struct t1s_state *s)
{
	s->t = ev->end + EMU_IFG_NS;
	s->quiet_since = ev->end;
	if (s->phase != T1S_CSMA) {
		s->phase = T1S_OPP;
		s->opp++;
	}
}

/* One collided port: drop after 16 attempts, else back off (CSMA/CD) or wait. */
void emu_t1s__collided(struct emu_t1s_medium *m, const struct t1s_state *s, unsigned i,
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
	p->backoff_ns = jam_end + t1s_bt_ns((t1s_rand(m) & ((1ull << k) - 1)) * EMU_T1S_SLOT_BT);
}
