// SPDX-License-Identifier: MIT
/*
 * GbEth driver: the `mux` interrupt and the one NAPI poller
 * (docs/gbeth.md §4). The handler reads ISS; for queue 0 it masks FRE0 and
 * FTE0 (read-modify-write of RIC0 and TIC under imask_lock: GbEth has no
 * set/clear registers) and schedules the poller; it counts and acknowledges
 * the error (RIS2) and E-MAC (ECSR) statuses itself. The poller:
 *
 * 2024 (docs/gbeth.md §4.3): clear FRF0, receive up to the budget in
 * packets, clear FTF0 and reclaim TX, copy the error counters, and when
 * under budget re-arm only if ethdrv_napi_complete_done() says so.
 *
 * pre2024 (docs/gbeth.md §4.4): the budget counted in descriptors; when it
 * is spent, return at once (no TX reclaim, no error counters, no
 * completion); otherwise reclaim, copy, complete ignoring the result and
 * re-arm regardless.
 *
 * The handler runs in interrupt context (ethdrv_napi_line_start(): with
 * contexts=irq in the poller's softirq loop, not the device's loop): it
 * touches only registers (the model's lock), RIC0/TIC under imask_lock and
 * atomic counters.
 */
#include "ethdrv/log.h"
#include "ravb_priv.h"

ETHDRV_LOG_MODULE(ravb);

/* DMAC statuses are cleared by writing 0 (docs/gbeth.md §4.1): all 1s but @bits and reserved. */
static void ack_w0c(struct ravb_priv *priv, uint32_t reg, uint32_t bits, uint32_t reserved)
{
	ravb_wr(priv, reg, ~(bits | reserved));
}

static void imask_update(struct ravb_priv *priv, bool on)
{
	uint32_t ric0, tic;

	mtx_lock(&priv->imask_lock);
	ric0 = __atomic_load_n(&priv->ric0, __ATOMIC_RELAXED);
	tic = __atomic_load_n(&priv->tic, __ATOMIC_RELAXED);
	ric0 = on ? ric0 | RAVB_Q0 : ric0 & ~RAVB_Q0;
	tic = on ? tic | RAVB_Q0 : tic & ~RAVB_Q0;
	__atomic_store_n(&priv->ric0, ric0, __ATOMIC_RELAXED);
	__atomic_store_n(&priv->tic, tic, __ATOMIC_RELAXED);
	ravb_wr(priv, RAVB_RIC0, ric0);
	ravb_wr(priv, RAVB_TIC, tic);
	mtx_unlock(&priv->imask_lock);
}

/* ---- the poller ---- */

static void poll_tx(struct ravb_priv *priv)
{
	ack_w0c(priv, RAVB_TIS, RAVB_Q0, TIS_RESERVED);
	ravb__tx_clean(priv);
}

static int ravb_poll(struct ethdrv_napi *napi, int budget)
{
	struct ravb_priv *priv = ethdrv_napi_ctx(napi);
	bool pre2024 = __atomic_load_n(&priv->poll_mode, __ATOMIC_RELAXED) == RAVB_POLL_PRE2024;
	int work = 0;

	ack_w0c(priv, RAVB_RIS0, RAVB_Q0, RIS0_RESERVED);
	if (budget)
		work = ravb__rx(priv, budget, pre2024);
	if (pre2024) {
		if (budget && work >= budget) {
			/* The quota is used: back out without TX or counters. */
			ethdrv_counter_inc(&priv->st.polls_early_return);
			return budget;
		}
		poll_tx(priv);
		ravb__errors_copy(priv);
		if (!budget)
			return 0;
		(void)ethdrv_napi_complete_done(napi, work); /* napi_complete(): result unused */
		imask_update(priv, true);
		return work;
	}
	poll_tx(priv);
	ravb__errors_copy(priv);
	if (!budget || work == budget)
		return work;
	if (ethdrv_napi_complete_done(napi, work))
		imask_update(priv, true);
	return work;
}

/* ---- the handler ---- */

/* RIS2 (and EIS): descriptor empty and FIFO overflow counted, then cleared. */
static void irq_errors(struct ravb_priv *priv)
{
	uint32_t ris2 = ravb_rd(priv, RAVB_RIS2), eis = ravb_rd(priv, RAVB_EIS);

	ethdrv_counter_inc(&priv->st.irq_err);
	if (ris2 & RIS2_QFF0)
		ethdrv_counter_inc(&priv->err_over);
	if (ris2 & RIS2_RFFF)
		ethdrv_counter_inc(&priv->err_fifo);
	eis &= ~(EIS_QFS | EIS_RESERVED);
	if (eis)
		ack_w0c(priv, RAVB_EIS, eis, EIS_RESERVED);
	ack_w0c(priv, RAVB_RIS2, ris2 & (RIS2_QFF0 | RIS2_RFFF), RIS2_RESERVED);
}

/* ECSR is cleared by writing 1 (docs/gbeth.md §4.1); ICD counts carrier errors. */
static void irq_emac(struct ravb_priv *priv)
{
	uint32_t ecsr = ravb_rd(priv, RAVB_ECSR);

	ethdrv_counter_inc(&priv->st.irq_emac);
	ravb_wr(priv, RAVB_ECSR, ecsr);
	if (ecsr & ECSR_ICD)
		ethdrv_counter_inc(&priv->dev.stats.tx_carrier_errors);
}

static void ravb_irq(struct ethdrv_watch *w, unsigned events)
{
	struct ravb_priv *priv = ethdrv_container_of(w, struct ravb_priv, irq_watch);
	uint32_t iss = ravb_rd(priv, RAVB_ISS);
	bool any = false;

	(void)events;
	ethdrv_counter_inc(&priv->st.irqs);
	if (iss & (ISS_FRS | ISS_FTS)) {
		uint32_t ris0 = ravb_rd(priv, RAVB_RIS0), tis = ravb_rd(priv, RAVB_TIS);
		uint32_t rx = ris0 & __atomic_load_n(&priv->ric0, __ATOMIC_RELAXED) & RAVB_Q0;
		uint32_t tx = tis & __atomic_load_n(&priv->tic, __ATOMIC_RELAXED) & RAVB_Q0;

		if (rx)
			ethdrv_counter_inc(&priv->st.irq_rx);
		if (tx)
			ethdrv_counter_inc(&priv->st.irq_tx);
		if (rx | tx) {
			/* Masked whatever prep says: the poller re-arms (docs/gbeth.md §4.3). */
			imask_update(priv, false);
			if (ethdrv_napi_schedule_prep(priv->napi))
				ethdrv__napi_schedule(priv->napi);
			any = true;
		}
	}
	if (iss & ISS_ES) {
		irq_errors(priv);
		any = true;
	}
	if (iss & ISS_MS) {
		irq_emac(priv);
		any = true;
	}
	if (!any)
		ethdrv_counter_inc(&priv->st.irq_spurious);
}

/* ---- setup ---- */

int ravb__irq_setup(struct ravb_priv *priv)
{
	int ret;

	if (mtx_init(&priv->imask_lock, mtx_plain) != thrd_success)
		return -1;
	ret = ethdrv_napi_add(&priv->dev, "rxtx", ravb_poll, ETHDRV_NAPI_WEIGHT, priv, &priv->napi);
	if (ret)
		mtx_destroy(&priv->imask_lock);
	return ret;
}

/* The enables of docs/gbeth.md §9.2 step 3 are written with the rings; here the line. */
void ravb__irq_start(struct ravb_priv *priv)
{
	ethdrv_napi_enable(priv->napi);
	/* In interrupt context: on the poller's loop (a softirq loop with contexts=irq). */
	if (ethdrv_napi_line_start(priv->napi, &priv->irq_watch, priv->bus.irq_fd[0], ravb_irq))
		ethdrv_err(&priv->dev, "cannot watch the interrupt line");
}

void ravb__irq_stop(struct ravb_priv *priv)
{
	ethdrv_napi_disable(priv->napi);
	ethdrv_napi_line_stop(priv->napi, &priv->irq_watch);
}
