// SPDX-License-Identifier: MIT
/*
 * gianfar driver: the three interrupt lines and the NAPI pollers.
 *
 * The eTSEC has separate TX, RX and error lines (docs/etsec.md §8.1) but one
 * IMASK register. Two structures run on the same hardware:
 *
 * - napi_split=1, today's gianfar (docs/etsec.md §8.3): the RX handler
 *   masks RXF|BSY under the lock (a read-modify-write) and schedules the RX
 *   poller; the TX handler masks TXF|TXB and schedules the TX-confirmation
 *   poller. Each poller acks its own IEVENT bits, works, and unmasks its
 *   own half when ethdrv_napi_complete_done() says so. The TX poller
 *   reclaims the whole ring and uses no budget.
 *
 * - napi_split=0, Linux 3.6 (docs/etsec.md §8.2), kept as it behaved: both
 *   handlers run one routine that writes the whole IMASK =
 *   IMASK_RTX_DISABLED and schedules the single poller (or acks RX|TX if it
 *   is scheduled already); the poller returns the whole budget whenever it
 *   reclaimed a TX frame, and on completion writes the whole IMASK =
 *   IMASK_DEFAULT and re-programs both coalescing registers (0, then the
 *   value), which resets their counters and timers.
 *
 * The error handler acks the error events it sees, counts them, restarts
 * the controller on EBERR and hands BSY to the RX path (Linux gfar_error).
 */
#include <errno.h>

#include "ethdrv/log.h"
#include "gianfar_priv.h"

ETHDRV_LOG_MODULE(gianfar);

/* ---- IMASK under the group lock ---- */

void gfar__imask_update(struct gfar_priv *priv, uint32_t set, uint32_t clear)
{
	uint32_t v;

	mtx_lock(&priv->imask_lock);
	v = (__atomic_load_n(&priv->imask, __ATOMIC_RELAXED) | set) & ~clear;
	__atomic_store_n(&priv->imask, v, __ATOMIC_RELAXED);
	gfar_wr(priv, GFAR_IMASK, v);
	mtx_unlock(&priv->imask_lock);
}

/* 3.6: the whole register (docs/etsec.md §8.2). Lock held. */
static void imask_write_locked(struct gfar_priv *priv, uint32_t v)
{
	__atomic_store_n(&priv->imask, v, __ATOMIC_RELAXED);
	gfar_wr(priv, GFAR_IMASK, v);
}

/* ---- the split pollers (docs/etsec.md §8.3) ---- */

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
	if (ethdrv_napi_complete_done(napi, work))
		gfar__imask_update(priv, GFAR_IMASK_RX, 0);
	return work;
}

static int gfar_poll_tx(struct ethdrv_napi *napi, int budget)
{
	struct gfar_priv *priv = ethdrv_napi_ctx(napi);

	gfar_wr(priv, GFAR_IEVENT, GFAR_EV_TX_MASK);
	gfar__tx_clean(priv);
	if (!budget)
		return 0;
	gfar__dim_sample(priv, GFAR_TX);
	if (ethdrv_napi_complete_done(napi, 0))
		gfar__imask_update(priv, GFAR_IMASK_TX, 0);
	return 0;
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
	gfar_wr(priv, GFAR_TXIC, 0);
	gfar__coal_write(priv, GFAR_TX);
	gfar_wr(priv, GFAR_RXIC, 0);
	gfar__coal_write(priv, GFAR_RX);
	ethdrv_counter_inc(&priv->st.coal_rewrites);
	return rx;
}

/* The "rx" poller in the mode the device is in (both pollers are disabled
 * while it changes, so one poll never mixes the two). */
static int gfar_poll_rx_any(struct ethdrv_napi *napi, int budget)
{
	struct gfar_priv *priv = ethdrv_napi_ctx(napi);

	if (__atomic_load_n(&priv->split, __ATOMIC_ACQUIRE))
		return gfar_poll_rx(napi, budget);
	return gfar_poll_36(napi, budget);
}

/* Both lines' routine in 3.6 (gfar_schedule_cleanup). */
static void schedule_36(struct gfar_priv *priv)
{
	mtx_lock(&priv->imask_lock);
	if (ethdrv_napi_schedule_prep(priv->napi_rx)) {
		imask_write_locked(priv, GFAR_IMASK_RTX_DISABLED);
		ethdrv__napi_schedule(priv->napi_rx);
	} else {
		ethdrv_counter_inc(&priv->st.irq_missed_sched);
		gfar_wr(priv, GFAR_IEVENT, GFAR_EV_RX_MASK | GFAR_EV_TX_MASK);
	}
	mtx_unlock(&priv->imask_lock);
}

/* ---- the handlers ---- */

/* Split mode: mask @bits (the poller's half), schedule; or ack @ack if it is
 * scheduled already (docs/etsec.md §8.3). */
static void schedule_split(struct gfar_priv *priv, struct ethdrv_napi *napi, uint32_t bits,
			   uint32_t ack)
{
	if (ethdrv_napi_schedule_prep(napi)) {
		gfar__imask_update(priv, 0, bits);
		ethdrv__napi_schedule(napi);
		return;
	}
	ethdrv_counter_inc(&priv->st.irq_missed_sched);
	gfar_wr(priv, GFAR_IEVENT, ack);
}

static void rx_path(struct gfar_priv *priv)
{
	if (__atomic_load_n(&priv->split, __ATOMIC_ACQUIRE))
		schedule_split(priv, priv->napi_rx, GFAR_IMASK_RX, GFAR_EV_RX_MASK);
	else
		schedule_36(priv);
}

static void gfar_irq_rx(struct ethdrv_watch *w, unsigned events)
{
	struct gfar_priv *priv = ethdrv_container_of(w, struct gfar_priv, line[GFAR_LINE_RX]);

	(void)events;
	ethdrv_counter_inc(&priv->st.irq_rx);
	__atomic_fetch_add(&priv->coal[GFAR_RX].events, 1, __ATOMIC_RELAXED);
	rx_path(priv);
}

static void gfar_irq_tx(struct ethdrv_watch *w, unsigned events)
{
	struct gfar_priv *priv = ethdrv_container_of(w, struct gfar_priv, line[GFAR_LINE_TX]);

	(void)events;
	ethdrv_counter_inc(&priv->st.irq_tx);
	__atomic_fetch_add(&priv->coal[GFAR_TX].events, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&priv->split, __ATOMIC_ACQUIRE))
		schedule_split(priv, priv->napi_tx, GFAR_IMASK_TX, GFAR_EV_TX_MASK);
	else
		schedule_36(priv);
}

static void er_count(struct gfar_priv *priv, uint32_t ev)
{
	if (ev & GFAR_EV_BSY)
		ethdrv_counter_inc(&priv->st.ev_bsy);
	if (ev & GFAR_EV_EBERR)
		ethdrv_counter_inc(&priv->st.ev_eberr);
	if (ev & GFAR_EV_BABR)
		ethdrv_counter_inc(&priv->st.ev_babr);
	if (ev & GFAR_EV_TXE)
		ethdrv_counter_inc(&priv->st.ev_txe);
	if (ev & GFAR_EV_XFUN)
		ethdrv_counter_inc(&priv->st.ev_xfun);
	if (ev & ~(GFAR_EV_BSY | GFAR_EV_EBERR | GFAR_EV_BABR | GFAR_EV_TXE | GFAR_EV_XFUN))
		ethdrv_counter_inc(&priv->st.ev_other);
}

static void gfar_irq_er(struct ethdrv_watch *w, unsigned events)
{
	struct gfar_priv *priv = ethdrv_container_of(w, struct gfar_priv, line[GFAR_LINE_ER]);
	uint32_t ev;

	(void)events;
	ethdrv_counter_inc(&priv->st.irq_er);
	ev = gfar_rd(priv, GFAR_IEVENT) & __atomic_load_n(&priv->imask, __ATOMIC_RELAXED) &
	     GFAR_EV_ERR_MASK;
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
	if (ev & GFAR_EV_BSY)
		rx_path(priv);
	if (ev & GFAR_EV_EBERR)
		gfar__schedule_restart(priv);
}

/* ---- setup and modes ---- */

int gfar__napi_setup(struct gfar_priv *priv)
{
	int ret;

	if (mtx_init(&priv->imask_lock, mtx_plain) != thrd_success)
		return -ENOMEM;
	priv->split = !priv->cfg.combined_napi;
	ret = ethdrv_napi_add(&priv->dev, "rx", gfar_poll_rx_any, ETHDRV_NAPI_WEIGHT, priv,
			      &priv->napi_rx);
	if (!ret)
		ret = ethdrv_napi_add_tx(&priv->dev, "tx", gfar_poll_tx, priv, &priv->napi_tx);
	if (ret)
		mtx_destroy(&priv->imask_lock);
	return ret;
}

static const ethdrv_watch_cb line_fn[GFAR_LINES] = { gfar_irq_tx, gfar_irq_rx, gfar_irq_er };
static const char *const line_name[GFAR_LINES] = { "tx", "rx", "er" };

void gfar__napi_start(struct gfar_priv *priv)
{
	ethdrv_napi_enable(priv->napi_rx);
	ethdrv_napi_enable(priv->napi_tx);
	for (unsigned l = 0; l < GFAR_LINES; l++)
		if (ethdrv_watch_start(priv->dev.loop, &priv->line[l], priv->bus.irq_fd[l],
				       ETHDRV_EV_READ, line_fn[l]))
			ethdrv_err(&priv->dev, "cannot watch the %s line", line_name[l]);
	/* Linux's gfar_start: IMASK_DEFAULT | MSRO (docs/etsec.md §9). */
	gfar__imask_update(priv, GFAR_IMASK_DEFAULT | GFAR_EV_MSRO,
			   ~(GFAR_IMASK_DEFAULT | GFAR_EV_MSRO));
}

void gfar__napi_stop(struct gfar_priv *priv)
{
	ethdrv_napi_disable(priv->napi_rx);
	ethdrv_napi_disable(priv->napi_tx);
	gfar__imask_update(priv, 0, ~0u);
	for (unsigned l = 0; l < GFAR_LINES; l++)
		ethdrv_watch_stop(&priv->line[l]);
}

/* Quiesce both pollers and mask their events (mode or DIM owner change). */
void gfar__pollers_pause(struct gfar_priv *priv)
{
	ethdrv_napi_disable(priv->napi_rx);
	ethdrv_napi_disable(priv->napi_tx);
	gfar__imask_update(priv, 0, GFAR_IMASK_RX | GFAR_IMASK_TX);
}

/* Run them again, each once: they find what arrived and unmask when done. */
void gfar__pollers_resume(struct gfar_priv *priv)
{
	ethdrv_napi_enable(priv->napi_rx);
	ethdrv_napi_enable(priv->napi_tx);
	ethdrv_napi_schedule(priv->napi_rx);
	if (priv->split)
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
