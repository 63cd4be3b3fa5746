// SPDX-License-Identifier: MIT
/*
 * gianfar driver: the three interrupt lines and the NAPI pollers.
 *
 * The eTSEC has separate TX, RX and error lines (docs/etsec.md §8.1) but one
 * IMASK register. The RX line is the "rx" poller's IRQ and the TX line the
 * "tx" poller's (ethdrv_napi_attach_irq()), so each line can be steered to
 * a CPU of its own as /proc/irq/N/smp_affinity does (docs/design.md §4.7);
 * the error line has a handler on the device's loop.
 *
 * The core masks a line's fd and schedules its poller, as disable_irq and
 * napi_schedule would. The hard-IRQ half of gianfar runs at the start of
 * the poll it scheduled, once per interrupt: the poller finds its IMASK
 * half still set, and masks it under the group lock. So both structures
 * run on the same hardware:
 *
 * - napi_split=1, today's gianfar (docs/etsec.md §8.3): RX masks RXF|BSY
 *   (a read-modify-write under the lock), acks RXB|RXF|BSY, receives up to
 *   the budget, and on completion unmasks its half under the lock; TX masks
 *   TXF|TXB, acks them, reclaims the whole ring without budget and unmasks.
 *
 * - napi_split=0, Linux 3.6 (docs/etsec.md §8.2), as it behaved: either line
 *   writes the whole IMASK = IMASK_RTX_DISABLED and runs the single poller
 *   (the TX line's poller hands over to it); the poller returns the whole
 *   budget whenever it reclaimed a TX frame, and on completion writes the
 *   whole IMASK = IMASK_DEFAULT and re-programs both coalescing registers
 *   (0, then the value), which resets their counters and timers.
 *
 * The error handler acks the error events it sees, counts them, restarts
 * the controller on EBERR and hands BSY to the RX poller (Linux gfar_error).
 */
#include <errno.h>

#include "ethdrv/log.h"
#include "gianfar_priv.h"

ETHDRV_LOG_MODULE(gianfar);

/* ---- IMASK under the group lock ---- */

static uint32_t imask_now(const struct gfar_priv *priv)
{
	return __atomic_load_n(&priv->imask, __ATOMIC_RELAXED);
}

/* Lock held. */
static void imask_write_locked(struct gfar_priv *priv, uint32_t v)
{
	__atomic_store_n(&priv->imask, v, __ATOMIC_RELAXED);
	gfar_wr(priv, GFAR_IMASK, v);
}

void gfar__imask_update(struct gfar_priv *priv, uint32_t set, uint32_t clear)
{
	mtx_lock(&priv->imask_lock);
	imask_write_locked(priv, (imask_now(priv) | set) & ~clear);
	mtx_unlock(&priv->imask_lock);
}

static bool split_mode(const struct gfar_priv *priv)
{
	return __atomic_load_n(&priv->split, __ATOMIC_ACQUIRE);
}

/*
 * The hard-IRQ half, once per interrupt: mask @bits if any is still set
 * (split: a read-modify-write, docs/etsec.md §8.3; 3.6: the whole register,
 * docs/etsec.md §8.2). True when this poll is the interrupt's first.
 */
static bool irq_half(struct gfar_priv *priv, uint32_t bits, ethdrv_counter_t *count)
{
	/* 3.6 clears RXF, TXF and BSY; TXB stays (IMASK_RTX_DISABLED). */
	uint32_t check = split_mode(priv) ? bits : GFAR_EV_RXF | GFAR_EV_TXF | GFAR_EV_BSY;
	bool first;

	if (!(imask_now(priv) & check))
		return false;
	mtx_lock(&priv->imask_lock);
	first = imask_now(priv) & check;
	if (first) {
		if (split_mode(priv))
			imask_write_locked(priv, imask_now(priv) & ~bits);
		else
			imask_write_locked(priv, GFAR_IMASK_RTX_DISABLED);
	}
	mtx_unlock(&priv->imask_lock);
	if (first)
		ethdrv_counter_inc(count);
	return first;
}

/* ---- today's pollers (docs/etsec.md §8.3) ---- */

static int gfar_poll_rx(struct ethdrv_napi *napi, int budget)
{
	struct gfar_priv *priv = ethdrv_napi_ctx(napi);
	int work;

	gfar_wr(priv, GFAR_IEVENT, GFAR_EV_RX_MASK);
	if (!budget)
		return 0;
	work = gfar__rx_clean(priv, budget);
	if (work == budget)
		return work;
	gfar__dim_sample(priv, GFAR_RX);
	/* Restart the ring if it halted for want of BDs (docs/etsec.md §3.4). */
	gfar_wr(priv, GFAR_RSTAT, GFAR_RSTAT_QHLT0);
	if (ethdrv_napi_complete_done(napi, work)) {
		gfar__imask_update(priv, GFAR_IMASK_RX, 0);
		ethdrv_napi_irq_unmask(napi);
	}
	return work;
}

/* ---- Linux 3.6's single poller (docs/etsec.md §8.2) ---- */

static int gfar_poll_36(struct ethdrv_napi *napi, int budget)
{
	struct gfar_priv *priv = ethdrv_napi_ctx(napi);
	unsigned tx;
	int rx;

	gfar_wr(priv, GFAR_IEVENT, GFAR_EV_RX_MASK | GFAR_EV_TX_MASK);
	tx = gfar__tx_clean(priv);
	rx = gfar__rx_clean(priv, budget);
	if (tx) {
		/* Any TX work keeps the poller scheduled: the whole budget. */
		ethdrv_counter_inc(&priv->st.polls_tx_budget);
		return budget;
	}
	if (rx >= budget || !budget)
		return rx;
	gfar_wr(priv, GFAR_RSTAT, GFAR_RSTAT_QHLT0);
	if (!ethdrv_napi_complete_done(napi, rx))
		return rx;
	mtx_lock(&priv->imask_lock);
	imask_write_locked(priv, GFAR_IMASK_DEFAULT);
	mtx_unlock(&priv->imask_lock);
	/* Coalescing re-programmed on every completion: counters and timers reset. */
	gfar__coal_write(priv, GFAR_TX);
	gfar__coal_write(priv, GFAR_RX);
	ethdrv_counter_inc(&priv->st.coal_rewrites);
	ethdrv_napi_irq_unmask(napi);
	return rx;
}

/* The "rx" poller in the device's mode (both pollers are disabled while it
 * changes, so no poll mixes the two). */
static int gfar_poll_rx_any(struct ethdrv_napi *napi, int budget)
{
	struct gfar_priv *priv = ethdrv_napi_ctx(napi);

	irq_half(priv, GFAR_IMASK_RX | (split_mode(priv) ? 0 : GFAR_IMASK_TX), &priv->st.irq_rx);
	if (split_mode(priv))
		return gfar_poll_rx(napi, budget);
	return gfar_poll_36(napi, budget);
}

/* "tx": TX confirmation when split; in 3.6 mode the TX line's hand-over. */
static int gfar_poll_tx(struct ethdrv_napi *napi, int budget)
{
	struct gfar_priv *priv = ethdrv_napi_ctx(napi);

	if (!split_mode(priv)) {
		if (irq_half(priv, GFAR_IMASK_RX | GFAR_IMASK_TX, &priv->st.irq_tx))
			ethdrv_napi_schedule(priv->napi_rx);
		else /* already scheduled: 3.6's ISR clears IEVENT[RX|TX] (docs/etsec.md §8.2) */
			gfar_wr(priv, GFAR_IEVENT, GFAR_EV_RX_MASK | GFAR_EV_TX_MASK);
		if (budget && ethdrv_napi_complete_done(napi, 0))
			ethdrv_napi_irq_unmask(napi);
		return 0;
	}
	irq_half(priv, GFAR_IMASK_TX, &priv->st.irq_tx);
	gfar_wr(priv, GFAR_IEVENT, GFAR_EV_TX_MASK);
	gfar__tx_clean(priv);
	if (!budget)
		return 0;
	gfar__dim_sample(priv, GFAR_TX);
	if (ethdrv_napi_complete_done(napi, 0)) {
		gfar__imask_update(priv, GFAR_IMASK_TX, 0);
		ethdrv_napi_irq_unmask(napi);
	}
	return 0;
}

/* ---- the error line ---- */

static void er_count(struct gfar_priv *priv, uint32_t ev)
{
	static const struct {
		uint32_t bit;
		size_t off;
	} map[] = {
		{ GFAR_EV_BSY, offsetof(struct gfar_stats, ev_bsy) },
		{ GFAR_EV_EBERR, offsetof(struct gfar_stats, ev_eberr) },
		{ GFAR_EV_BABR, offsetof(struct gfar_stats, ev_babr) },
		{ GFAR_EV_TXE, offsetof(struct gfar_stats, ev_txe) },
		{ GFAR_EV_XFUN, offsetof(struct gfar_stats, ev_xfun) },
	};
	uint32_t rest = ev;

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(map); i++) {
		if (ev & map[i].bit)
			ethdrv_counter_inc((ethdrv_counter_t *)((char *)&priv->st + map[i].off));
		rest &= ~map[i].bit;
	}
	if (rest)
		ethdrv_counter_inc(&priv->st.ev_other);
}

static void gfar_irq_er(struct ethdrv_watch *w, unsigned events)
{
	struct gfar_priv *priv = ethdrv_container_of(w, struct gfar_priv, er_watch);
	uint32_t ev;

	(void)events;
	ethdrv_counter_inc(&priv->st.irq_er);
	ev = gfar_rd(priv, GFAR_IEVENT) & imask_now(priv) & GFAR_EV_ERR_MASK;
	if (!ev) {
		ethdrv_counter_inc(&priv->st.irq_spurious);
		return;
	}
	er_count(priv, ev);
	gfar_wr(priv, GFAR_IEVENT, ev);
	if (ev & GFAR_EV_MSRO)
		gfar__rmon_harvest(priv); /* the carry is taken there (docs/etsec.md §7) */
	/* TXE halted the ring: start it again (FreeBSD's error handler). */
	if (ev & GFAR_EV_TXE)
		gfar_wr(priv, GFAR_TSTAT, GFAR_TSTAT_THLT0);
	/* BSY: frames are being lost; the RX poller frees BDs and restarts the ring. */
	if (ev & GFAR_EV_BSY)
		ethdrv_napi_schedule(priv->napi_rx);
	if (ev & GFAR_EV_EBERR)
		gfar__schedule_restart(priv);
}

/* ---- setup and modes ---- */

int gfar__napi_setup(struct gfar_priv *priv)
{
	int ret;

	if (mtx_init(&priv->imask_lock, mtx_plain) != thrd_success)
		return -ENOMEM;
	if (mtx_init(&priv->rmon_lock, mtx_plain) != thrd_success) {
		mtx_destroy(&priv->imask_lock);
		return -ENOMEM;
	}
	priv->split = !priv->cfg.combined_napi;
	ret = ethdrv_napi_add(&priv->dev, "rx", gfar_poll_rx_any, ETHDRV_NAPI_WEIGHT, priv,
			      &priv->napi_rx);
	if (!ret)
		ret = ethdrv_napi_add_tx(&priv->dev, "tx", gfar_poll_tx, priv, &priv->napi_tx);
	if (!ret)
		ret = ethdrv_napi_attach_irq(priv->napi_rx, priv->bus.irq_fd[GFAR_LINE_RX]);
	if (!ret)
		ret = ethdrv_napi_attach_irq(priv->napi_tx, priv->bus.irq_fd[GFAR_LINE_TX]);
	if (ret) {
		mtx_destroy(&priv->imask_lock);
		mtx_destroy(&priv->rmon_lock);
	}
	return ret;
}

void gfar__napi_start(struct gfar_priv *priv)
{
	ethdrv_napi_enable(priv->napi_rx);
	ethdrv_napi_enable(priv->napi_tx);
	/* In interrupt context, on the RX poller's loop (a softirq loop with contexts=irq). */
	if (ethdrv_napi_line_start(priv->napi_rx, &priv->er_watch, priv->bus.irq_fd[GFAR_LINE_ER],
				   gfar_irq_er))
		ethdrv_err(&priv->dev, "cannot watch the error line");
	/* Linux's gfar_start: IMASK_DEFAULT | MSRO (docs/etsec.md §9). */
	gfar__imask_update(priv, GFAR_IMASK_DEFAULT | GFAR_EV_MSRO,
			   ~(GFAR_IMASK_DEFAULT | GFAR_EV_MSRO));
	ethdrv_napi_irq_unmask(priv->napi_rx);
	ethdrv_napi_irq_unmask(priv->napi_tx);
}

void gfar__napi_stop(struct gfar_priv *priv)
{
	ethdrv_napi_disable(priv->napi_rx);
	ethdrv_napi_disable(priv->napi_tx);
	gfar__imask_update(priv, 0, ~0u);
	ethdrv_napi_line_stop(priv->napi_rx, &priv->er_watch);
}

/* Quiesce both pollers and mask their events (mode or DIM owner change). */
void gfar__pollers_pause(struct gfar_priv *priv)
{
	ethdrv_napi_disable(priv->napi_rx);
	ethdrv_napi_disable(priv->napi_tx);
	gfar__imask_update(priv, 0, GFAR_IMASK_RX | GFAR_IMASK_TX);
}

/* Run them again, each once: they find what arrived, unmask when done. */
void gfar__pollers_resume(struct gfar_priv *priv)
{
	ethdrv_napi_enable(priv->napi_rx);
	ethdrv_napi_enable(priv->napi_tx);
	ethdrv_napi_schedule(priv->napi_rx);
	ethdrv_napi_schedule(priv->napi_tx);
}

int gfar__set_split(struct gfar_priv *priv, bool split)
{
	if (split == priv->split)
		return 0;
	if (priv->hw_up)
		gfar__pollers_pause(priv);
	__atomic_store_n(&priv->split, split, __ATOMIC_RELEASE);
	if (priv->hw_up)
		gfar__pollers_resume(priv);
	return 0;
}
