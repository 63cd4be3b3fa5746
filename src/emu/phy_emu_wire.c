// SPDX-License-Identifier: MIT
/*
 * The wire between two AR8031 models (phy_emu.h, docs/mdio.md §8.3):
 * training, autonegotiation and master/slave resolution, link up and down
 * as both PHYs see them, timed events and the real-time thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "phy_emu_priv.h"

static bool phy_aneg(const struct phy_emu *p)
{
	return p->reg[R_BMCR] & BMCR_ANENABLE;
}

/* The forced speed of BMCR bits 6/13 (docs/mdio.md §2.1). */
static unsigned phy_forced_speed(const struct phy_emu *p)
{
	uint16_t b = p->reg[R_BMCR];

	if (b & BMCR_SPEED1000)
		return (b & BMCR_SPEED100) ? 0 : 1000;
	return (b & BMCR_SPEED100) ? 100 : 10;
}

struct wire_res {
	unsigned speed; /* 0: no common mode */
	bool duplex[2]; /* per PHY */
	int master; /* index of the 1000BASE-T master, -1 for a fault */
};

/* Highest common mode of two advertisements (docs/mdio.md §6) the cable carries. */
static void wire_resolve_aneg(const struct phy_emu_wire *w, struct wire_res *r)
{
	const struct phy_emu *a = w->phy[0], *b = w->phy[1];
	uint16_t gig = a->reg[R_CTRL1000] & b->reg[R_CTRL1000] & C1000_FULL;
	uint16_t common = a->reg[R_ANAR] & b->reg[R_ANAR];

	if (w->max_speed < 1000)
		gig = 0;
	if (w->max_speed < 100)
		common &= (uint16_t) ~(ADV_100F | ADV_100H);
	r->speed = 0;
	if (gig) {
		r->speed = 1000;
		r->duplex[0] = true;
	} else if (common & (ADV_100F | ADV_100H)) {
		r->speed = 100;
		r->duplex[0] = common & ADV_100F;
	} else if (common & (ADV_10F | ADV_10H)) {
		r->speed = 10;
		r->duplex[0] = common & ADV_10F;
	}
	r->duplex[1] = r->duplex[0];
}

/* IEEE 40.5.2: manual settings win; two equal manual ones are a fault; a
 * multiport device prefers master; otherwise PHY 0 (docs/mdio.md §8.4). */
static int wire_master(const struct phy_emu *a, const struct phy_emu *b)
{
	uint16_t ca = a->reg[R_CTRL1000], cb = b->reg[R_CTRL1000];
	bool ma = ca & C1000_MS_ENABLE, mb = cb & C1000_MS_ENABLE;

	if (ma && mb)
		return !(ca & C1000_MS_VALUE) == !(cb & C1000_MS_VALUE) ?
			       -1 :
			       ((ca & C1000_MS_VALUE) ? 0 : 1);
	if (ma)
		return (ca & C1000_MS_VALUE) ? 0 : 1;
	if (mb)
		return (cb & C1000_MS_VALUE) ? 1 : 0;
	if ((ca ^ cb) & C1000_PORT_TYPE)
		return (ca & C1000_PORT_TYPE) ? 0 : 1;
	return 0;
}

/* Parallel detection: the autoneg side takes the forced side's 10/100. */
static void wire_resolve_parallel(struct phy_emu *an, unsigned an_idx, struct phy_emu *forced,
				  struct wire_res *r)
{
	unsigned speed = phy_forced_speed(forced);
	uint16_t adv = an->reg[R_ANAR];

	r->speed = 0;
	if ((speed == 100 && (adv & (ADV_100F | ADV_100H))) ||
	    (speed == 10 && (adv & (ADV_10F | ADV_10H))))
		r->speed = speed;
	r->duplex[an_idx] = false;
	r->duplex[!an_idx] = forced->reg[R_BMCR] & BMCR_FULLDPLX;
}

static void wire_resolve(struct phy_emu_wire *w, struct wire_res *r)
{
	struct phy_emu *a = w->phy[0], *b = w->phy[1];

	*r = (struct wire_res){ 0 };
	if (phy_aneg(a) && phy_aneg(b)) {
		wire_resolve_aneg(w, r);
		if (r->speed == 1000)
			r->master = wire_master(a, b);
	} else if (phy_aneg(a) != phy_aneg(b)) {
		if (phy_aneg(a))
			wire_resolve_parallel(a, 0, b, r);
		else
			wire_resolve_parallel(b, 1, a, r);
	} else {
		unsigned sa = phy_forced_speed(a);

		/* 1000BASE-T needs autoneg (IEEE 40.5.1): no forced gigabit link. */
		r->speed = (sa == phy_forced_speed(b) && sa < 1000) ? sa : 0;
		r->duplex[0] = a->reg[R_BMCR] & BMCR_FULLDPLX;
		r->duplex[1] = b->reg[R_BMCR] & BMCR_FULLDPLX;
	}
	if (r->speed > w->max_speed)
		r->speed = 0; /* a forced mode the cable cannot carry */
}

static bool wire_can_train(const struct phy_emu_wire *w)
{
	return w->cable && w->phy[0] && w->phy[1] && phy_emu__ready(w->phy[0]) &&
	       phy_emu__ready(w->phy[1]);
}

static uint64_t wire_train_ns(const struct phy_emu_wire *w)
{
	const struct phy_emu *a = w->phy[0], *b = w->phy[1];

	if (!phy_aneg(a) && !phy_aneg(b))
		return ETHDRV_MAX(a->cfg.forced_link_ns, b->cfg.forced_link_ns);
	return ETHDRV_MAX(a->cfg.aneg_ns, b->cfg.aneg_ns);
}

static void phy_link_down(struct phy_emu *p)
{
	p->link = (struct phy_emu_link){ 0 };
	p->lstatus_low = true;
	p->aneg_complete = false;
	p->lpa = 0;
	p->stat1000 &= S1000_MS_FAULT;
	ethdrv_counter_inc(&p->st.link_downs);
	phy_emu__raise(p, PHY_EMU_INT_LINK_FAIL);
}

/* The link comes up for PHY @i of the wire with the result @r. */
static void phy_link_up(struct phy_emu_wire *w, unsigned i, const struct wire_res *r)
{
	struct phy_emu *p = w->phy[i], *lp = w->phy[!i];
	uint16_t bits = PHY_EMU_INT_LINK_UP;
	bool by_aneg = phy_aneg(p) && phy_aneg(lp);

	p->link = (struct phy_emu_link){ .up = true,
					 .speed_mbps = r->speed,
					 .full_duplex = r->duplex[i],
					 .master = r->speed == 1000 && r->master == (int)i };
	p->aneg_complete = phy_aneg(p);
	p->stat1000 = 0;
	if (by_aneg) {
		p->lpa = (lp->reg[R_ANAR] & (ADV_ABILITY | 0x001Fu)) | LPA_LPACK;
		p->stat1000 = (lp->reg[R_CTRL1000] & (C1000_FULL | C1000_HALF)) << S1000_LP_SHIFT;
		p->aner_page = true;
		bits |= PHY_EMU_INT_PAGE;
	}
	if (r->speed == 1000)
		p->stat1000 |=
			S1000_LOCAL_OK | S1000_REMOTE_OK | (p->link.master ? S1000_MASTER : 0);
	if (p->last_speed && p->last_speed != r->speed)
		bits |= PHY_EMU_INT_SPEED;
	if (p->last_speed && p->last_duplex != r->duplex[i])
		bits |= PHY_EMU_INT_DUPLEX;
	p->last_speed = r->speed;
	p->last_duplex = r->duplex[i];
	ethdrv_counter_inc(&p->st.link_ups);
	phy_emu__raise(p, bits);
}

/* Training ends at @t: resolve and bring the link up, or record a fault. */
static void wire_link_up(struct phy_emu_wire *w)
{
	struct wire_res r;

	w->up_at_ns = PHY_EMU_NEVER;
	wire_resolve(w, &r);
	for (unsigned i = 0; i < 2; i++)
		w->phy[i]->stat1000 = r.speed == 1000 && r.master < 0 ? S1000_MS_FAULT : 0;
	if (!r.speed || r.master < 0) {
		for (unsigned i = 0; i < 2; i++)
			if (phy_aneg(w->phy[i]))
				phy_emu__raise(w->phy[i], PHY_EMU_INT_ANEG_ERR);
		return;
	}
	w->up = true;
	phy_link_up(w, 0, &r);
	phy_link_up(w, 1, &r);
}

void phy_emu__wire_retrain(struct phy_emu_wire *w, uint64_t t)
{
	if (w->up) {
		w->up = false;
		for (unsigned i = 0; i < 2; i++)
			if (w->phy[i])
				phy_link_down(w->phy[i]);
	}
	w->up_at_ns = wire_can_train(w) ? t + wire_train_ns(w) : PHY_EMU_NEVER;
}

/* The earliest timed event: a reset ending or training ending. */
static uint64_t wire_next(const struct phy_emu_wire *w, int *reset_idx)
{
	uint64_t next = w->up_at_ns;

	*reset_idx = -1;
	for (unsigned i = 0; i < 2; i++) {
		const struct phy_emu *p = w->phy[i];

		if (p && p->reset_until_ns && p->reset_until_ns <= next) {
			next = p->reset_until_ns;
			*reset_idx = (int)i;
		}
	}
	return next;
}

void phy_emu__wire_advance(struct phy_emu_wire *w, uint64_t now)
{
	int reset_idx;
	uint64_t t;

	if (now < w->now_ns)
		now = w->now_ns;
	while ((t = wire_next(w, &reset_idx)) <= now) {
		if (reset_idx >= 0) {
			w->phy[reset_idx]->reset_until_ns = 0;
			phy_emu__wire_retrain(w, t);
		} else {
			wire_link_up(w);
		}
	}
	w->now_ns = now;
}

/* ---- wire API and the real-time thread ---- */

static void *wire_thread(void *arg)
{
	struct phy_emu_wire *w = arg;
	int reset_idx;

	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		phy_emu__wire_advance(w, emu_mono_ns());
		emu_wait_until(&w->cond, &w->lock, wire_next(w, &reset_idx));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int phy_emu_wire_new(bool realtime, struct phy_emu_wire **out)
{
	struct phy_emu_wire *w;
	int err;

	if (!out)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->cable = true;
	w->max_speed = 1000;
	w->up_at_ns = PHY_EMU_NEVER;
	err = emu_sync_init(&w->lock, &w->cond);
	if (err)
		goto err_free;
	if (realtime) {
		err = -pthread_create(&w->thread, NULL, wire_thread, w);
		if (err)
			goto err_sync;
		w->realtime = true;
	}
	*out = w;
	return 0;
err_sync:
	emu_sync_destroy(&w->lock, &w->cond);
err_free:
	free(w);
	return err;
}

void phy_emu_wire_free(struct phy_emu_wire *w)
{
	if (!w)
		return;
	if (w->realtime) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_signal(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	emu_sync_destroy(&w->lock, &w->cond);
	free(w);
}

void phy_emu_wire_set_cable(struct phy_emu_wire *w, bool connected, uint64_t now_ns)
{
	pthread_mutex_lock(&w->lock);
	phy_emu__wire_advance(w, now_ns);
	w->cable = connected;
	phy_emu__wire_retrain(w, w->now_ns);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

int phy_emu_wire_set_max_speed(struct phy_emu_wire *w, unsigned mbps)
{
	if (mbps != 10 && mbps != 100 && mbps != 1000)
		return -EINVAL;
	pthread_mutex_lock(&w->lock);
	w->max_speed = mbps;
	pthread_mutex_unlock(&w->lock);
	return 0;
}

void phy_emu_wire_advance(struct phy_emu_wire *w, uint64_t now_ns)
{
	pthread_mutex_lock(&w->lock);
	phy_emu__wire_advance(w, now_ns);
	pthread_mutex_unlock(&w->lock);
}

uint64_t phy_emu_wire_next_ns(struct phy_emu_wire *w)
{
	int reset_idx;
	uint64_t next;

	pthread_mutex_lock(&w->lock);
	next = wire_next(w, &reset_idx);
	pthread_mutex_unlock(&w->lock);
	return next;
}

bool phy_emu_wire_link_up(struct phy_emu_wire *w, uint64_t now_ns)
{
	bool up;

	pthread_mutex_lock(&w->lock);
	phy_emu__wire_advance(w, now_ns);
	up = w->up;
	pthread_mutex_unlock(&w->lock);
	return up;
}
