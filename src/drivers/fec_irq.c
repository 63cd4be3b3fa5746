// SPDX-License-Identifier: MIT
/*
 * ENET driver: the interrupt line and the NAPI pollers (napi.h).
 *
 * int0 carries RX, TX and every other event (docs/enet.md §8), so the
 * driver owns the line instead of attaching it to one poller: the handler
 * reads EIR, masks the events of each poller it schedules in EIMR, and
 * schedules the RX poller and the TX-completion poller separately from the
 * event bits, as gianfar does with its shared mask register
 * (docs/napi.md §4.1). With napi_split=0 one poller owns RXF and TXF (Linux fec's single
 * NAPI); with napi_split=1 the "rx" poller owns RXF and the "tx" poller
 * TXF. Each poller acks its events before it looks at its ring and unmasks
 * them only when ethdrv_napi_complete_done() says so (napi.h idiom), so the
 * core's defer/timeout, threaded and busy-poll modes all apply. The level
 * line drops as soon as every pending event is masked or cleared.
 */
#include <errno.h>

#include "ethdrv/log.h"
#include "fec_priv.h"

ETHDRV_LOG_MODULE(fec);

/* Error events: enabled, counted, acked in the handler; EBERR restarts. */
#define FEC_EV_ERRORS (FEC_EV_EBERR | FEC_EV_BABR | FEC_EV_BABT | FEC_EV_UN)

static uint32_t ev_of(const struct fec_priv *priv, unsigned poller)
{
	return __atomic_load_n(&priv->ev_poll[poller], __ATOMIC_ACQUIRE);
}

/* Which events each poller owns in the current mode. */
static void irq_assign(struct fec_priv *priv)
{
	uint32_t rx = priv->split ? FEC_EV_RXF : FEC_EV_RXF | FEC_EV_TXF;

	__atomic_store_n(&priv->ev_poll[FEC_RX], rx, __ATOMIC_RELEASE);
	__atomic_store_n(&priv->ev_poll[FEC_TX], priv->split ? FEC_EV_TXF : 0, __ATOMIC_RELEASE);
}

/* The lock orders the register writes; eimr is also read and written
 * atomically for the handler's lock-free read (and for ThreadSanitizer,
 * which does not see C11 mutexes). */
static void imask_update(struct fec_priv *priv, uint32_t set, uint32_t clear)
{
	uint32_t v;

	mtx_lock(&priv->imask_lock);
	v = (__atomic_load_n(&priv->eimr, __ATOMIC_RELAXED) | set) & ~clear;
	__atomic_store_n(&priv->eimr, v, __ATOMIC_RELAXED);
	fec_wr(priv, FEC_REG_EIMR, v);
	mtx_unlock(&priv->imask_lock);
}

void fec__imask_set(struct fec_priv *priv, uint32_t bits)
{
	imask_update(priv, bits, 0);
}

void fec__imask_clear(struct fec_priv *priv, uint32_t bits)
{
	imask_update(priv, 0, bits);
}

/* ---- the pollers ---- */

/* "rx": RX, and TX completion when combined. */
static int fec_poll_rx(struct ethdrv_napi *napi, int budget)
{
	struct fec_priv *priv = ethdrv_napi_ctx(napi);
	uint32_t ev = ev_of(priv, FEC_RX);
	int work = 0;

	/* 1. Ack first: an event after this point raises the line again (docs/enet.md §2). */
	fec_wr(priv, FEC_REG_EIR, ev);
	/* 2. TX completion does not count against the budget (docs/napi.md §1.1). */
	if (ev & FEC_EV_TXF)
		fec__tx_clean(priv);
	if (!budget)
		return 0;
	/* 3. RX up to the budget. */
	work = fec__rx_clean(priv, budget);
	if (work == budget)
		return work;
	/* 4. Done: moderation sample, then unmask if the core allows it. */
	fec__dim_sample(priv, FEC_RX);
	if (ev & FEC_EV_TXF)
		fec__dim_sample(priv, FEC_TX);
	if (ethdrv_napi_complete_done(napi, work))
		fec__imask_set(priv, ev);
	return work;
}

/* "tx": TX completion when split; the whole ring, no budget (gianfar). */
static int fec_poll_tx(struct ethdrv_napi *napi, int budget)
{
	struct fec_priv *priv = ethdrv_napi_ctx(napi);
	uint32_t ev = ev_of(priv, FEC_TX);

	fec_wr(priv, FEC_REG_EIR, ev);
	fec__tx_clean(priv);
	if (!budget)
		return 0;
	fec__dim_sample(priv, FEC_TX);
	if (ethdrv_napi_complete_done(napi, 0))
		fec__imask_set(priv, ev);
	return 0;
}

/* ---- the handler ---- */

static void irq_count(struct fec_priv *priv, uint32_t ev)
{
	static const struct {
		uint32_t bit;
		size_t off;
	} map[] = {
		{ FEC_EV_RXF, offsetof(struct fec_stats, irq_rxf) },
		{ FEC_EV_TXF, offsetof(struct fec_stats, irq_txf) },
		{ FEC_EV_EBERR, offsetof(struct fec_stats, irq_eberr) },
		{ FEC_EV_BABR, offsetof(struct fec_stats, irq_babr) },
		{ FEC_EV_BABT, offsetof(struct fec_stats, irq_babt) },
		{ FEC_EV_UN, offsetof(struct fec_stats, irq_un) },
	};
	uint32_t known = 0;

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(map); i++) {
		known |= map[i].bit;
		if (ev & map[i].bit)
			ethdrv_counter_inc((ethdrv_counter_t *)((char *)&priv->st + map[i].off));
	}
	if (ev & ~known)
		ethdrv_counter_inc(&priv->st.irq_other);
}

/* Mask @ev and schedule @napi (prep, mask, schedule: docs/napi.md §1.1). */
static void irq_schedule(struct fec_priv *priv, struct ethdrv_napi *napi, uint32_t ev)
{
	/* Masked whatever prep says: a running poller unmasks when it completes,
	 * a disabled one when it is enabled again. */
	fec__imask_clear(priv, ev);
	if (ethdrv_napi_schedule_prep(napi))
		ethdrv__napi_schedule(napi);
}

static void fec_irq(struct ethdrv_watch *w, unsigned events)
{
	struct fec_priv *priv = ethdrv_container_of(w, struct fec_priv, irq_watch);
	uint32_t pending, ev_rx = ev_of(priv, FEC_RX), ev_tx = ev_of(priv, FEC_TX), other;

	(void)events;
	ethdrv_counter_inc(&priv->st.irqs);
	/* MII is the MDIO bus's (fec_mdio.c): it waits on this line in irq mode
	 * and acks the event itself; no poller is scheduled for it. */
	pending = fec_rd(priv, FEC_REG_EIR) & __atomic_load_n(&priv->eimr, __ATOMIC_RELAXED) &
		  ~FEC_EV_MII;
	if (!pending) {
		ethdrv_counter_inc(&priv->st.irq_spurious);
		return;
	}
	irq_count(priv, pending);
	/* DIM counts interrupts per direction (docs/napi.md §5.2). */
	if (pending & FEC_EV_RXF)
		__atomic_fetch_add(&priv->coal[FEC_RX].events, 1, __ATOMIC_RELAXED);
	if (pending & FEC_EV_TXF)
		__atomic_fetch_add(&priv->coal[FEC_TX].events, 1, __ATOMIC_RELAXED);
	if (pending & ev_rx)
		irq_schedule(priv, priv->napi_rx, ev_rx);
	if (pending & ev_tx)
		irq_schedule(priv, priv->napi_tx, ev_tx);
	/* Everything else is acked here; a bus error stopped the DMA (docs/enet.md §10 item 11). */
	other = pending & ~(ev_rx | ev_tx);
	if (other)
		fec_wr(priv, FEC_REG_EIR, other);
	if (other & FEC_EV_EBERR)
		fec__schedule_restart(priv);
}

/* ---- setup and modes ---- */

int fec__irq_setup(struct fec_priv *priv)
{
	int ret;

	if (mtx_init(&priv->imask_lock, mtx_plain) != thrd_success)
		return -ENOMEM;
	priv->split = !priv->cfg.combined_napi;
	irq_assign(priv);
	ret = ethdrv_napi_add(&priv->dev, "rx", fec_poll_rx, ETHDRV_NAPI_WEIGHT, priv,
			      &priv->napi_rx);
	if (!ret)
		ret = ethdrv_napi_add_tx(&priv->dev, "tx", fec_poll_tx, priv, &priv->napi_tx);
	if (ret)
		mtx_destroy(&priv->imask_lock);
	return ret;
}

void fec__irq_start(struct fec_priv *priv)
{
	ethdrv_napi_enable(priv->napi_rx);
	ethdrv_napi_enable(priv->napi_tx);
	/* In interrupt context, on the RX poller's loop (a softirq loop with contexts=irq). */
	if (ethdrv_napi_line_start(priv->napi_rx, &priv->irq_watch, priv->bus.irq_fd[0], fec_irq))
		ethdrv_err(&priv->dev, "cannot watch the interrupt line");
	fec__imask_set(priv, ev_of(priv, FEC_RX) | ev_of(priv, FEC_TX) | FEC_EV_ERRORS);
}

void fec__irq_stop(struct fec_priv *priv)
{
	/* Pollers first: a running one could unmask after we masked. */
	ethdrv_napi_disable(priv->napi_rx);
	ethdrv_napi_disable(priv->napi_tx);
	fec__imask_clear(priv, ~FEC_EV_MII); /* the MDIO bus keeps its route */
	ethdrv_napi_line_stop(priv->napi_rx, &priv->irq_watch);
}

/*
 * Quiesce both pollers for a change of who owns what (napi_split, DIM on
 * or off): every running poll finishes and their events are masked.
 */
void fec__pollers_pause(struct fec_priv *priv)
{
	ethdrv_napi_disable(priv->napi_rx);
	ethdrv_napi_disable(priv->napi_tx);
	fec__imask_clear(priv, FEC_EV_RXF | FEC_EV_TXF);
}

/*
 * Run them again, each scheduled once: they find whatever arrived
 * meanwhile in the rings and unmask their events when done, so nothing
 * waits for an interrupt that was masked.
 */
void fec__pollers_resume(struct fec_priv *priv)
{
	ethdrv_napi_enable(priv->napi_rx);
	ethdrv_napi_enable(priv->napi_tx);
	ethdrv_napi_schedule(priv->napi_rx);
	if (priv->split)
		ethdrv_napi_schedule(priv->napi_tx);
}

/* Switch between split and combined pollers, also under traffic. */
int fec__irq_set_split(struct fec_priv *priv, bool split)
{
	if (split == priv->split)
		return 0;
	if (priv->hw_up)
		fec__pollers_pause(priv);
	priv->split = split;
	irq_assign(priv);
	if (priv->hw_up)
		fec__pollers_resume(priv);
	return 0;
}
