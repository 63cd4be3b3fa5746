// SPDX-License-Identifier: MIT
/*
 * ENET model: the full-duplex point-to-point line between two controllers
 * and the engine that keeps time for both (docs/design.md §5b). Each MAC
 * places its frames on its own direction of the line when TDAR fetches them
 * (enet_emu_dma.c computes start and end); this file applies the events in
 * time order: a frame's end (delivery to the peer, TX write-back) and the
 * coalescing timers of both MACs, and the end of a link flap.
 *
 * Time (docs/host.md §4): with a real-time line one engine thread serves
 * both MACs and both directions. It sleeps until the earliest deadline, but
 * wakes at most once per batch_ns, so a busy 1 Gb/s line (a frame every
 * 12.3 us) costs one wakeup per batch, not per frame; deadlines are
 * absolute, so a late wakeup never shifts the frames after it. Register
 * accesses apply every event already due before they look at the state, so
 * nothing is seen late by the driver and nothing ever early. With a virtual
 * line there is no thread: enet_line_run_until() moves the clock.
 *
 * MDIO (docs/mdio.md §11): the end of an MDIO frame whose completion can
 * raise an interrupt (EIMR.MII and ETHEREN set) is an event like the
 * others, but the engine never batches it: it sleeps until min(its batched
 * deadline, the frame's end), so an interrupt-driven MDIO read waits one
 * wakeup, not a batch. A frame nobody waits for on the line (polled MDIO)
 * costs the engine nothing: each run completes such frames due by its
 * time (every register access runs first), so EIR.MII still reads as the
 * block says. The carrier of the line follows the PHYs' wire, advanced to
 * each event's time before the event applies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "emu_util.h"
#include "enet_emu_priv.h"

#define NSEC_PER_SEC 1000000000ull
#define BATCH_MAX_NS 10000000ull
#define ETH_PREAMBLE 8u /* preamble + SFD bytes */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t enet__now(struct enet_line *line)
{
	return line->cfg.realtime ? mono_ns() : line->vnow;
}

/* ---- events ---- */

enum line_ev_kind { LEV_NONE, LEV_FRAME_END, LEV_COAL, LEV_LINK_UP, LEV_MDIO, LEV_GEN };

struct line_ev {
	uint64_t t; /* when */
	enum line_ev_kind kind; /* what */
	unsigned port; /* whose (frame, coalescing) */
	unsigned dir; /* COAL_RX or COAL_TX */
};

/* The MII event can reach int0 (enet_emu_irq.c): an engine event, not a catch-up. */
static bool mdio_irq_armed(const struct enet_emu *emu)
{
	return (emu->regs[R_EIMR / 4] & EV_MII) && enet__enabled(emu);
}

static void ev_consider(struct line_ev *ev, uint64_t t, enum line_ev_kind kind, unsigned port,
			unsigned dir)
{
	if (t < ev->t)
		*ev = (struct line_ev){ t, kind, port, dir };
}

/* The earliest pending event of the line and both MACs. */
static struct line_ev line_earliest(const struct enet_line *line)
{
	struct line_ev ev = { UINT64_MAX, LEV_NONE, 0, 0 };

	if (line->up_at)
		ev_consider(&ev, line->up_at, LEV_LINK_UP, 0, 0);
	for (unsigned p = 0; p < 2; p++) {
		const struct enet_emu *emu = line->port[p];

		ev_consider(&ev, enet__gen_deadline(line, p), LEV_GEN, p, 0);
		if (!emu)
			continue;
		if (emu->fifo_count)
			ev_consider(&ev, emu->fifo[emu->fifo_head].end, LEV_FRAME_END, p, 0);
		for (unsigned d = 0; d < 2; d++)
			ev_consider(&ev, emu->coal[d].deadline, LEV_COAL, p, d);
		if (mdio_irq_armed(emu))
			ev_consider(&ev, enet_mdio_deadline_ns(&emu->mdio), LEV_MDIO, p, 0);
	}
	return ev;
}

/* The earliest end of an MDIO frame that can interrupt; never batched. */
static uint64_t line_mdio_deadline(const struct enet_line *line)
{
	uint64_t t = UINT64_MAX;

	for (unsigned p = 0; p < 2; p++)
		if (line->port[p] && mdio_irq_armed(line->port[p]))
			t = ETHDRV_MIN(t, enet_mdio_deadline_ns(&line->port[p]->mdio));
	return t;
}

/* Complete the frames nobody waits for on the line, due by @t. */
static void line_mdio_catch_up(struct enet_line *line, uint64_t t)
{
	for (unsigned p = 0; p < 2; p++)
		if (line->port[p] && enet_mdio_advance(&line->port[p]->mdio, t))
			enet__raise_mii(line->port[p]);
}

static void line_apply(struct enet_line *line, const struct line_ev *ev)
{
	struct enet_emu *emu = line->port[ev->port];

	switch (ev->kind) {
	case LEV_FRAME_END:
		enet__tx_frame_end(emu, ev->t);
		break;
	case LEV_COAL:
		enet__coal_expire(emu, ev->dir);
		break;
	case LEV_LINK_UP:
		line->up_at = 0;
		break;
	case LEV_GEN:
		enet__gen_frame_end(line, ev->port, ev->t);
		break;
	case LEV_MDIO:
		/* docs/mdio.md §3.1: the frame ends, MMFR holds the data, MII is set. */
		if (enet_mdio_advance(&emu->mdio, ev->t))
			enet__raise_mii(emu);
		break;
	default:
		break;
	}
}

/* CPU time of the calling thread in ns (what a catch-up costs the driver). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void enet__line_run(struct enet_line *line, uint64_t t, bool catchup)
{
	uint64_t cpu0 = 0;

	for (;;) {
		struct line_ev ev = line_earliest(line);

		/* The PHYs' link (the carrier) as it is when the event applies. */
		if (line->phys)
			phy_emu_wire_advance(line->wire, ETHDRV_MIN(ev.t, t));
		if (ev.t > t)
			break;
		if (line->cfg.realtime)
			ethdrv_hist_record(&line->lateness, t - ev.t);
		/* Events a register access applies run in the driver's thread:
		 * their CPU time is the model's, not the driver's (real time). */
		if (catchup && line->cfg.realtime && !cpu0)
			cpu0 = thread_cpu_ns();
		line_apply(line, &ev);
		ethdrv_counter_inc(&line->st.events);
		if (catchup)
			ethdrv_counter_inc(&line->st.catchups);
	}
	line_mdio_catch_up(line, t);
	if (cpu0)
		ethdrv_counter_add(&line->st.catchup_cpu_ns, thread_cpu_ns() - cpu0);
}

/* New work may be due before the engine's wakeup: wake it if that matters. */
void enet__line_kick(struct enet_line *line)
{
	uint64_t next;

	if (!line->sleeping)
		return;
	next = line_earliest(line).t;
	if (next == UINT64_MAX)
		return;
	/* Waking costs more than being up to one batch late (docs/host.md §5);
	 * the end of an MDIO frame is never batched. */
	if (line->sleep_until == UINT64_MAX || next + line->cfg.batch_ns < line->sleep_until ||
	    line_mdio_deadline(line) < line->sleep_until) {
		line->sleep_until = next;
		pthread_cond_signal(&line->cond);
	}
}

/* Both ends attached, no injected link fault, and the PHYs' link up (if any). */
bool enet__link_ok(struct enet_line *line)
{
	if (!line->port[0] || !line->port[1] || line->forced_down || line->up_at)
		return false;
	/* As of the wire's latest time: enet__line_run() advanced it. */
	return !line->phys || phy_emu_wire_link_up(line->wire, 0);
}

void enet__line_deliver(struct enet_line *line, struct enet_emu *from, struct enet_txf *f,
			uint64_t t)
{
	unsigned p = from->port;
	uint32_t wire = f->len + (f->fcs == FCS_RAW ? 0 : 4);
	struct enet_emu *to;

	/* RCR.LOOP: back into the MAC's own receiver, the line never sees it. */
	if (from->regs[R_RCR / 4] & RCR_LOOP) {
		enet__rx_frame(from, f->data, f->len, f->fcs, t);
		return;
	}
	to = line->port[!p];
	if (!to) {
		ethdrv_counter_inc(&line->st.lost_no_peer);
		goto lost;
	}
	if (!enet__link_ok(line)) {
		ethdrv_counter_inc(&line->st.lost_link_down);
		goto lost;
	}
	/* A receiver in internal loopback listens to its own MAC only. */
	if (to->regs[R_RCR / 4] & RCR_LOOP) {
		ethdrv_counter_inc(&line->st.lost_loopback);
		goto lost;
	}
	if (enet__mac_byte_ns(from) != line->byte_ns || enet__mac_byte_ns(to) != line->byte_ns) {
		ethdrv_counter_inc(&line->st.speed_mismatch);
		goto lost;
	}
	enet__fault_corrupt(line, p, f);
	ethdrv_counter_inc(&line->st.frames[p]);
	ethdrv_counter_add(&line->st.bytes[p], ETH_PREAMBLE + wire + enet__gap_bytes(from));
	if (line->capture)
		ethdrv_counter_inc(emu_pcap_write(line->capture, t, f->data, wire) ?
					   &line->st.capture_errors :
					   &line->st.captured);
	enet__rx_frame(to, f->data, f->len, (enum enet_fcs)f->fcs, t);
	return;
lost:
	ethdrv_counter_inc(&line->st.lost[p]);
}

/* ---- the engine thread (real time) ---- */

static struct timespec ns_to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NSEC_PER_SEC),
				  .tv_nsec = (long)(ns % NSEC_PER_SEC) };
}

static void *line_thread(void *arg)
{
	struct enet_line *line = arg;

	prctl(PR_SET_NAME, "enet-line", 0UL, 0UL, 0UL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_mutex_lock(&line->lock);
	while (!line->stop) {
		uint64_t now = mono_ns(), next;

		enet__line_run(line, now, false);
		next = line_earliest(line).t;
		line->sleeping = true;
		if (next == UINT64_MAX) {
			line->sleep_until = UINT64_MAX;
			pthread_cond_wait(&line->cond, &line->lock);
		} else {
			struct timespec ts;

			/* At most one wakeup per batch (accounting in batches), but
			 * at the end of an MDIO frame exactly. */
			line->sleep_until = ETHDRV_MIN(ETHDRV_MAX(next, now + line->cfg.batch_ns),
						       line_mdio_deadline(line));
			ts = ns_to_ts(line->sleep_until);
			pthread_cond_timedwait(&line->cond, &line->lock, &ts);
		}
		line->sleeping = false;
		ethdrv_counter_inc(&line->st.wakeups);
	}
	pthread_mutex_unlock(&line->lock);
	return NULL;
}

/* ---- lifecycle and clock ---- */

void enet_line_config_default(struct enet_line_config *cfg)
{
	*cfg = (struct enet_line_config){
		.speed_mbps = 1000, .realtime = true, .batch_ns = 200000, .seed = 1
	};
}

int enet_line_new(const struct enet_line_config *cfg, struct enet_line **out)
{
	struct enet_line_config c;
	struct enet_line *line;
	int ret;

	if (cfg)
		c = *cfg;
	else
		enet_line_config_default(&c);
	if (!out || (c.speed_mbps != 10 && c.speed_mbps != 100 && c.speed_mbps != 1000) ||
	    c.batch_ns > BATCH_MAX_NS)
		return -EINVAL;
	line = calloc(1, sizeof(*line));
	if (!line)
		return -ENOMEM;
	line->cfg = c;
	line->byte_ns = 8000u / c.speed_mbps;
	line->rng = c.seed ? c.seed : 1;
	line->sleep_until = UINT64_MAX;
	line->lateness.unit = "ns";
	ret = emu_sync_init(&line->lock, &line->cond);
	if (ret)
		goto err_free;
	ret = phy_emu_wire_new(c.realtime, &line->wire);
	if (!ret)
		ret = phy_emu_wire_set_max_speed(line->wire, c.speed_mbps);
	if (ret)
		goto err_wire;
	if (c.realtime) {
		ret = -pthread_create(&line->thread, NULL, line_thread, line);
		if (ret)
			goto err_wire;
		line->thread_on = true;
	}
	*out = line;
	return 0;

err_wire:
	phy_emu_wire_free(line->wire); /* NULL-safe */
	emu_sync_destroy(&line->lock, &line->cond);
err_free:
	free(line);
	return ret;
}

void enet_line_free(struct enet_line *line)
{
	if (!line)
		return;
	if (line->thread_on) {
		pthread_mutex_lock(&line->lock);
		line->stop = true;
		pthread_cond_signal(&line->cond);
		pthread_mutex_unlock(&line->lock);
		pthread_join(line->thread, NULL);
	}
	phy_emu_wire_free(line->wire);
	emu_sync_destroy(&line->lock, &line->cond);
	free(line);
}

int enet__line_attach(struct enet_line *line, unsigned port, struct enet_emu *emu)
{
	if (port > 1)
		return -EINVAL;
	if (line->port[port])
		return -EBUSY;
	line->port[port] = emu;
	return 0;
}

void enet__line_detach(struct enet_line *line, unsigned port)
{
	line->port[port] = NULL;
}

uint64_t enet_line_now(struct enet_line *line)
{
	uint64_t t;

	pthread_mutex_lock(&line->lock);
	t = enet__now(line);
	pthread_mutex_unlock(&line->lock);
	return t;
}

int enet_line_run_until(struct enet_line *line, uint64_t t_ns)
{
	int ret = 0;

	pthread_mutex_lock(&line->lock);
	if (line->cfg.realtime || t_ns < line->vnow) {
		ret = -EINVAL;
	} else {
		enet__line_run(line, t_ns, false);
		line->vnow = t_ns;
	}
	pthread_mutex_unlock(&line->lock);
	return ret;
}

uint64_t enet_line_next_event(struct enet_line *line)
{
	uint64_t t;

	pthread_mutex_lock(&line->lock);
	t = line_earliest(line).t;
	pthread_mutex_unlock(&line->lock);
	return t;
}

bool enet_line_link_up(struct enet_line *line)
{
	bool up;

	pthread_mutex_lock(&line->lock);
	if (line->phys)
		phy_emu_wire_advance(line->wire, enet__now(line));
	up = enet__link_ok(line);
	pthread_mutex_unlock(&line->lock);
	return up;
}

/* CPU time of the engine thread so far, 0 without one (what emulating the wire costs). */
static uint64_t line_engine_cpu_ns(struct enet_line *line)
{
	struct timespec ts;
	clockid_t cid;

	if (!line->thread_on || pthread_getcpuclockid(line->thread, &cid) ||
	    clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void enet_line_set_cable(struct enet_line *line, bool connected)
{
	pthread_mutex_lock(&line->lock);
	enet__line_run(line, enet__now(line), false);
	phy_emu_wire_set_cable(line->wire, connected, enet__now(line));
	pthread_mutex_unlock(&line->lock);
}

void enet_line_get_stats(struct enet_line *line, struct enet_line_stats *st)
{
	pthread_mutex_lock(&line->lock);
	*st = line->st;
	pthread_mutex_unlock(&line->lock);
	ethdrv_counter_set(&st->engine_cpu_ns, line_engine_cpu_ns(line));
}

const struct ethdrv_hist *enet_line_lateness(struct enet_line *line)
{
	return &line->lateness;
}

void enet_line_set_capture(struct enet_line *line, struct emu_pcap *pcap)
{
	pthread_mutex_lock(&line->lock);
	line->capture = pcap;
	pthread_mutex_unlock(&line->lock);
}
