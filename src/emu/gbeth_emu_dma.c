// SPDX-License-Identifier: MIT
/*
 * GbEth model: the descriptor system (docs/gbeth.md §3): DBAT, LINKFIX
 * chains, TX from TCCR.TSRQ0 with per-descriptor write-back, RX over one
 * or several FEMPTY descriptors, the descriptor-empty drop, the checksum
 * trailer (docs/gbeth.md §7). Nothing outside the DMA region is read or
 * written. Assumptions: gbeth_emu.h.
 */
#include <string.h>

#include "gbeth_emu_priv.h"

/* ---- descriptor access ---- */

static uint8_t *desc_at(struct gbeth_emu *emu, uint32_t bus)
{
	uint8_t *p = (bus & 7) ? NULL : ethdrv_dma_to_virt(&emu->dma, bus, D_SIZE);

	if (!p)
		ethdrv_counter_inc(&emu->st.dma_errors);
	return p;
}

static unsigned desc_dt(const uint8_t *d)
{
	return ethdrv_dma_load16_acquire(d + D_CTL) >> DT_SHIFT;
}

/* Hand a descriptor back: DS first, then MSC and DT with release (docs/gbeth.md §3.1). */
static void desc_write_back(uint8_t *d, uint16_t ds, uint8_t msc, unsigned dt)
{
	ethdrv_dma_store16(d + D_DS, ds);
	ethdrv_dma_store16_release(d + D_CTL, (uint16_t)(dt << DT_SHIFT | msc));
}

/*
 * The first non-link descriptor from @bus on, following LINK and LINKFIX
 * (docs/gbeth.md §3.2). Returns its address in *@at, or false when the chain
 * leaves the region or loops.
 */
static bool desc_resolve(struct gbeth_emu *emu, uint32_t bus, uint32_t *at)
{
	for (unsigned hops = 0; hops < WALK_MAX; hops++) {
		uint8_t *d = desc_at(emu, bus);
		unsigned dt;

		if (!d)
			return false;
		dt = desc_dt(d);
		if (dt != DT_LINK && dt != DT_LINKFIX) {
			*at = bus;
			return true;
		}
		bus = ethdrv_dma_load32(d + D_PTR);
	}
	ethdrv_counter_inc(&emu->st.dma_errors);
	return false;
}

void gbeth__queues_load(struct gbeth_emu *emu)
{
	uint32_t dbat = *greg(emu, G_DBAT);

	/* The queue pointers start at the table entries; their LINKFIX leads on. */
	emu->tx_cur = dbat + DBAT_TX0 * D_SIZE;
	emu->rx_cur = dbat + DBAT_RX0 * D_SIZE;
}

/* ---- TX (docs/gbeth.md §3.3) ---- */

static void tx_queue_stop(struct gbeth_emu *emu)
{
	*greg(emu, G_TCCR) &= ~TCCR_TSRQ0;
}

/*
 * Collect the frame at tx_cur into tx_buf/tx_desc. Returns 1 with a frame,
 * 0 when the queue stops (no frame part, or a frame not complete yet),
 * -1 on a DMA error.
 */
static int tx_fetch(struct gbeth_emu *emu, uint32_t *next)
{
	uint32_t at = emu->tx_cur, len = 0;
	unsigned nd = 0;

	for (;;) {
		uint8_t *d, *buf;
		unsigned dt;
		uint16_t ds;

		if (!desc_resolve(emu, at, &at))
			return -1;
		d = desc_at(emu, at);
		dt = desc_dt(d);
		if (!nd && dt != DT_FSINGLE && dt != DT_FSTART)
			return 0; /* EEMPTY (or anything not a frame start): the queue stops */
		if (nd && dt != DT_FMID && dt != DT_FEND) {
			ethdrv_counter_inc(&emu->st.tx_incomplete);
			return 0;
		}
		if (nd == TX_MAX_DESCS)
			return -1;
		ds = ethdrv_dma_load16(d + D_DS) & DS_MASK;
		buf = ethdrv_dma_to_virt(&emu->dma, ethdrv_dma_load32(d + D_PTR), ds);
		if (!buf) {
			ethdrv_counter_inc(&emu->st.dma_errors);
			return -1;
		}
		if (len + ds <= sizeof(emu->tx_buf))
			memcpy(emu->tx_buf + len, buf, ds);
		len += ds;
		emu->tx_desc[nd++] = at;
		at += D_SIZE;
		if (dt == DT_FSINGLE || dt == DT_FEND)
			break;
	}
	emu->tx_nd = nd;
	emu->tx_len = len;
	*next = at;
	return 1;
}

void gbeth__tx_kick(struct gbeth_emu *emu, uint64_t now)
{
	uint64_t byte_ns, start, end;
	uint32_t next, len, wire_len;
	bool send;
	int ret;

	if (emu->ops_mode != OPC_OPERATION || emu->tx_busy || !(*greg(emu, G_TCCR) & TCCR_TSRQ0))
		return;
	ret = tx_fetch(emu, &next);
	if (ret <= 0) {
		tx_queue_stop(emu);
		return;
	}
	emu->tx_cur = next;
	len = emu->tx_len;
	send = true;
	if (emu_fault_bus_error(&emu->faults, true, &emu->st.faults)) {
		/* The data fetch failed: not sent, descriptors complete (docs/gbeth.md §12 item 11). */
		ethdrv_counter_inc(&emu->st.dma_errors);
		ethdrv_counter_inc(&emu->st.tx_dropped_dma);
		send = false;
	} else if (len > GBETH_EMU_TX_MAX || !len) {
		ethdrv_counter_inc(&emu->st.tx_too_long);
		send = false;
	} else if (!(*greg(emu, G_ECMR) & ECMR_TE)) {
		ethdrv_counter_inc(&emu->st.tx_te_off);
		send = false;
	}
	if (send && len < 60) {
		memset(emu->tx_buf + len, 0, 60 - len); /* padded (docs/gbeth.md §12 item 3) */
		len = emu->tx_len = 60;
	}
	byte_ns = gbeth__byte_ns(emu);
	start = now > emu->tx_free_at ? now : emu->tx_free_at;
	if (emu->tx_sent_any && start > emu->tx_free_at)
		ethdrv_counter_add(&emu->st.tx_idle_ns, start - emu->tx_free_at);
	wire_len = send ? 8 + len + 4 : 0; /* preamble+SFD, frame, FCS */
	end = start + wire_len * byte_ns;
	emu->tx_busy = true;
	emu->tx_end = end;
	if (!send) {
		emu->tx_len = 0;
		emu->tx_send = false;
		return;
	}
	emu->tx_sent_any = true;
	emu->tx_free_at = end + 12 * byte_ns;
	emu->tx_send = gbeth__link_ok(emu);
	if (!emu->tx_send) {
		/* Lost on a dead link; counted in CXR42 (docs/gbeth.md §12 item 8). */
		ethdrv_counter_inc(&emu->st.tx_link_down);
		if (*greg(emu, G_CXR42) != UINT32_MAX)
			(*greg(emu, G_CXR42))++;
	}
}

void gbeth__tx_end(struct gbeth_emu *emu, uint64_t t)
{
	for (unsigned i = 0; i < emu->tx_nd; i++) {
		uint8_t *d = desc_at(emu, emu->tx_desc[i]);

		if (d)
			desc_write_back(d, ethdrv_dma_load16(d + D_DS), 0, DT_FEMPTY);
	}
	ethdrv_counter_add(&emu->st.tx_descs, emu->tx_nd);
	if (emu->tx_send)
		fdx__send(emu->line, emu->port, emu->tx_buf, emu->tx_len, FDX_FCS_APPEND, t);
	if (emu->tx_len) {
		ethdrv_counter_inc(&emu->st.tx_frames);
		ethdrv_counter_add(&emu->st.tx_bytes, emu->tx_len);
	}
	emu->tx_busy = false;
	emu->tx_send = false;
	emu->tx_nd = 0;
	*greg(emu, G_TIS) |= Q0; /* FTF0: one event per frame (docs/gbeth.md §4.2) */
	gbeth__tx_kick(emu, t);
	gbeth__irq_update(emu);
}

/* ---- RX (docs/gbeth.md §3.4, §3.5) ---- */

static bool rx_accept(struct gbeth_emu *emu, const uint8_t *data, uint32_t len)
{
	uint32_t h = *greg(emu, G_MAHR), l = *greg(emu, G_MALR);
	uint8_t me[6] = { h >> 24, h >> 16, h >> 8, h, l >> 8, l };

	if (*greg(emu, G_ECMR) & ECMR_PRM || len < 6)
		return true;
	return (data[0] & 1) || !memcmp(data, me, 6);
}

enum rx_plan_result { RX_PLAN_OK, RX_PLAN_NODESC, RX_PLAN_DMA_ERROR };

/* Plan the descriptors for @total bytes: all FEMPTY, or descriptor empty, or a DMA error. */
static enum rx_plan_result rx_plan(struct gbeth_emu *emu, uint32_t total, unsigned *ndesc)
{
	uint32_t at = emu->rx_cur, got = 0;
	unsigned n = 0;

	while (got < total) {
		uint8_t *d;

		if (n == WALK_MAX)
			return RX_PLAN_NODESC;
		if (!desc_resolve(emu, at, &at))
			return RX_PLAN_DMA_ERROR;
		d = desc_at(emu, at);
		if (desc_dt(d) != DT_FEMPTY)
			return RX_PLAN_NODESC;
		got += ethdrv_dma_load16(d + D_DS) & DS_MASK;
		n++;
		at += D_SIZE;
	}
	*ndesc = n;
	return RX_PLAN_OK;
}

/* Descriptor empty: the frame ending at @t is dropped, QFF0 (docs/gbeth.md §3.4). */
static void rx_drop_nodesc(struct gbeth_emu *emu, uint64_t t, bool injected)
{
	ethdrv_counter_inc(&emu->st.rx_dropped_nodesc);
	*greg(emu, G_RIS2) |= Q0;
	/* Whose loss (docs/design.md §4.8): the frame's end @t against now. */
	if (injected)
		emu_loss_injected(&emu->st.rx_loss);
	else
		emu_loss_count(&emu->st.rx_loss, t, emu_engine_now(emu->eng), emu->rx_served,
			       emu_engine_realtime(emu->eng));
}

static void rx_write(struct gbeth_emu *emu, uint32_t total, uint8_t msc)
{
	uint32_t at = emu->rx_cur, done = 0;
	unsigned parts = 0;

	while (done < total) {
		uint8_t *d, *buf;
		uint16_t ds;
		unsigned dt;

		desc_resolve(emu, at, &at); /* planned: cannot fail */
		d = desc_at(emu, at);
		at += D_SIZE;
		ds = ethdrv_dma_load16(d + D_DS) & DS_MASK;
		if (!ds) {
			/* Owns no buffer: handed back empty and skipped (docs/gbeth.md §12 item 4). */
			desc_write_back(d, 0, 0, DT_FSINGLE);
			ethdrv_counter_inc(&emu->st.rx_ds0_skipped);
			continue;
		}
		if (ds > total - done)
			ds = (uint16_t)(total - done);
		buf = ethdrv_dma_to_virt(&emu->dma, ethdrv_dma_load32(d + D_PTR), ds);
		if (!buf) {
			/* Stop here: the frame is lost, the descriptor stays FEMPTY. */
			ethdrv_counter_inc(&emu->st.dma_errors);
			ethdrv_counter_inc(&emu->st.rx_dropped_dma);
			emu->rx_cur = at - D_SIZE;
			return;
		}
		memcpy(buf, emu->rx_buf + done, ds);
		done += ds;
		if (done == total)
			dt = parts ? DT_FEND : DT_FSINGLE;
		else
			dt = parts ? DT_FMID : DT_FSTART;
		desc_write_back(d, ds, msc, dt);
		parts++;
	}
	emu->rx_cur = at;
	ethdrv_counter_inc(&emu->st.rx_frames);
	ethdrv_counter_add(&emu->st.rx_bytes, total);
	ethdrv_counter_add(&emu->st.rx_descs, parts);
	if (parts > 1)
		ethdrv_counter_inc(&emu->st.rx_multi_desc);
	*greg(emu, G_RIS0) |= Q0; /* FRF0 (docs/gbeth.md §4.2) */
}

void gbeth__rx_frame(struct gbeth_emu *emu, const uint8_t *data, uint32_t len, bool fcs_ok,
		     uint64_t t)
{
	uint32_t rflr = *greg(emu, G_RFLR), total;
	enum rx_plan_result plan = RX_PLAN_NODESC;
	unsigned ndesc;
	uint8_t msc = 0;

	if (emu->ops_mode != OPC_OPERATION || !(*greg(emu, G_ECMR) & ECMR_RE)) {
		ethdrv_counter_inc(&emu->st.rx_dropped_off);
		return;
	}
	if (!rx_accept(emu, data, len)) {
		ethdrv_counter_inc(&emu->st.rx_dropped_filter);
		return;
	}
	if (len > GBETH_EMU_RX_MAX)
		len = GBETH_EMU_RX_MAX;
	if (len + 4 > rflr) {
		len = rflr > 4 ? rflr - 4 : 0; /* cut, RTLF (docs/gbeth.md §12 item 4) */
		msc |= MSC_RTLF;
		ethdrv_counter_inc(&emu->st.rx_too_long);
	}
	if (!fcs_ok) {
		msc |= MSC_CRC;
		ethdrv_counter_inc(&emu->st.rx_crc_errors);
	}
	if (len && (data[0] & 1))
		msc |= MSC_MC;
	if (emu_fault_rx_exhaust(&emu->faults, &emu->st.faults)) {
		rx_drop_nodesc(emu, t, true); /* docs/gbeth.md §12 item 11 */
		return;
	}
	if (emu_fault_bus_error(&emu->faults, false, &emu->st.faults)) {
		/* The first descriptor read failed: nothing written (docs/gbeth.md §12 item 11). */
		ethdrv_counter_inc(&emu->st.dma_errors);
		ethdrv_counter_inc(&emu->st.rx_dropped_dma);
		return;
	}
	memcpy(emu->rx_buf, data, len);
	total = gbeth__csum_trailer(emu, emu->rx_buf, len);
	if (total)
		plan = rx_plan(emu, total, &ndesc);
	if (plan == RX_PLAN_DMA_ERROR) {
		ethdrv_counter_inc(&emu->st.rx_dropped_dma);
		return;
	}
	if (plan == RX_PLAN_NODESC) {
		rx_drop_nodesc(emu, t, false);
		return;
	}
	rx_write(emu, total, msc);
}
