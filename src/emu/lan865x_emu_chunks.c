// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: data transactions (docs/tc6.md §2). It owns the chunk engine
 * (one data header and payload in, one payload and footer out, per chunk: the
 * header check, NORX, the footer fields) and the IRQ_N rules of
 * docs/tc6.md §2.5. The TX buffer is lan865x_emu_tx.c, the RX buffer
 * lan865x_emu_rx.c. The assumptions are listed in lan865x_emu.h.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "ethdrv/compiler.h"
#include "lan865x_emu_priv.h"

/* ---- IRQ_N (docs/tc6.md §2.5) ---- */

/*
 * The line: a level eventfd. In real time, IRQ_N may have to fall at a
 * future instant with no transfer or medium event to make it (RX
 * cut-through: the next chunk of a frame still arriving); a timerfd armed
 * for that instant stands for it, and the fd the host watches (irq_fd) is
 * an epoll set of both, readable when either is.
 */
int lan865x_emu__irq_open(struct lan865x_emu *emu)
{
	struct epoll_event ev = { .events = EPOLLIN };

	emu->irq_fd = emu->irq_line_fd = emu->irq_timer_fd = -1;
	emu->irq_line_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (emu->irq_line_fd < 0)
		return -errno;
	if (!emu->cfg.realtime) {
		emu->irq_fd = emu->irq_line_fd;
		return 0;
	}
	emu->irq_timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	emu->irq_fd = epoll_create1(EPOLL_CLOEXEC);
	if (emu->irq_timer_fd < 0 || emu->irq_fd < 0 ||
	    epoll_ctl(emu->irq_fd, EPOLL_CTL_ADD, emu->irq_line_fd, &ev) < 0 ||
	    epoll_ctl(emu->irq_fd, EPOLL_CTL_ADD, emu->irq_timer_fd, &ev) < 0) {
		int err = -errno;

		lan865x_emu__irq_close(emu);
		return err;
	}
	return 0;
}

void lan865x_emu__irq_close(struct lan865x_emu *emu)
{
	if (emu->irq_fd >= 0 && emu->irq_fd != emu->irq_line_fd)
		close(emu->irq_fd);
	if (emu->irq_timer_fd >= 0)
		close(emu->irq_timer_fd);
	if (emu->irq_line_fd >= 0)
		close(emu->irq_line_fd);
	emu->irq_fd = emu->irq_line_fd = emu->irq_timer_fd = -1;
}

/* Arm the timer for @at (CLOCK_MONOTONIC ns), or disarm it with 0. */
static void irq_timer_arm(struct lan865x_emu *emu, uint64_t at)
{
	struct itimerspec its = { 0 };
	uint64_t v;

	if (emu->irq_timer_fd < 0 || at == emu->irq_timer_at)
		return;
	emu->irq_timer_at = at;
	its.it_value.tv_sec = (time_t)(at / 1000000000u);
	its.it_value.tv_nsec = (long)(at % 1000000000u);
	if (timerfd_settime(emu->irq_timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		emu->irq_timer_at = 0;
	if (!at && read(emu->irq_timer_fd, &v, sizeof(v)) < 0)
		return; /* nothing had expired */
}

/* An expired timer: consume it and judge IRQ_N at now (it may fall). */
void lan865x_emu__irq_timer_service(struct lan865x_emu *emu)
{
	if (!emu->irq_timer_at || lan865x_emu__now(emu) < emu->irq_timer_at)
		return;
	irq_timer_arm(emu, 0);
	lan865x_emu__irq_update(emu);
}

/* The line (the level eventfd) follows emu->irq_asserted. */
static void irq_set_line(struct lan865x_emu *emu, bool asserted)
{
	uint64_t v = 1;

	if (emu->irq_on_line == asserted)
		return;
	if (asserted ? write(emu->irq_line_fd, &v, sizeof(v)) == (ssize_t)sizeof(v) :
		       read(emu->irq_line_fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		emu->irq_on_line = asserted;
}

/*
 * Show the level on the line, unless a transfer is between its processing
 * and its end on the bus: what it changed shows at that end, and so does
 * anything else that changed meanwhile (later, never earlier than its
 * physical time: docs/design.md §4.2).
 */
void lan865x_emu__irq_sync(struct lan865x_emu *emu)
{
	if (emu->xfers_pending)
		return;
	irq_set_line(emu, emu->irq_asserted);
	lan865x_emu__edges_flush(emu);
}

void lan865x_emu__irq_assert(struct lan865x_emu *emu)
{
	if (emu->irq_asserted)
		return;
	emu->irq_asserted = true;
	ethdrv_counter_inc(&emu->stats.irq_asserts);
	lan865x_emu__edge_queue(emu);
}

static void irq_deassert(struct lan865x_emu *emu)
{
	emu->irq_asserted = false;
}

static bool exst_pending(const struct lan865x_emu *emu)
{
	return (emu->status0 & ~emu->imask0 & ST0_ALL) || (emu->status1 & ~emu->imask1);
}

static unsigned txc_threshold(const struct lan865x_emu *emu)
{
	static const unsigned thr[4] = { 1, 4, 8, 16 }; /* docs/tc6.md §3.3 TXCTHRESH */

	return thr[ETHDRV_FIELD_GET(CFG0_TXCTHRESH, emu->config0)];
}

/*
 * Assert IRQ_N for any event the last footer did not report
 * (docs/tc6.md §2.5), judged at the model's now: RX data visible at a
 * later bus time is no news yet; in real time, the timer stands for the
 * instant the next chunk of a frame still arriving will be in
 * (RX cut-through, docs/tc6.md §5.4.1).
 */
void lan865x_emu__irq_update(struct lan865x_emu *emu)
{
	uint64_t t = lan865x_emu__now(emu);
	bool enabled = lan865x_emu_frame_data_enabled(emu);
	bool rca = enabled && lan865x_emu__rx_chunks_pending(emu, t, 1) > 0;
	uint64_t next;
	bool txc = lan865x_emu__tx_free(emu) >= txc_threshold(emu);
	bool exst = exst_pending(emu);

	/* A condition that went away is no longer "reported": its next rise is news. */
	emu->last_footer.rca_nonzero &= rca;
	emu->last_footer.txc_at_threshold &= txc;
	emu->last_footer.exst &= exst;
	if ((rca && !emu->last_footer.rca_nonzero) || (txc && !emu->last_footer.txc_at_threshold) ||
	    (exst && !emu->last_footer.exst))
		lan865x_emu__irq_assert(emu);
	lan865x_emu__irq_sync(emu);
	next = enabled && !rca ? lan865x_emu__rx_next_visible(emu, t) : 0;
	irq_timer_arm(emu, next > t ? next : 0);
}

/* ---- data transactions (docs/tc6.md §2) ---- */

static uint32_t data_footer(struct lan865x_emu *emu, bool hdrb, uint32_t rxbits, uint64_t t_vis)
{
	unsigned rca = 0, txc = ETHDRV_MIN(lan865x_emu__tx_free(emu), 31u);
	bool exst = exst_pending(emu), sync = emu->config0 & CFG0_SYNC;
	uint32_t f;

	if (lan865x_emu_frame_data_enabled(emu))
		rca = lan865x_emu__rx_chunks_pending(emu, t_vis, 31);
	f = (exst ? DF_EXST : 0) | (hdrb ? DF_HDRB : 0) | (sync ? DF_SYNC : 0) |
	    ETHDRV_FIELD_PREP(DF_RCA, rca) | rxbits | ETHDRV_FIELD_PREP(DF_TXC, txc);
	/* Remember what the host has been told (docs/tc6.md §2.5 "not already reported"). */
	emu->last_footer.rca_nonzero = rca > 0;
	emu->last_footer.txc_at_threshold = txc >= txc_threshold(emu);
	emu->last_footer.exst = exst;
	return lan865x_emu_with_parity(f);
}

/* One chunk: MOSI header+payload in @in, MISO payload+footer to @out (docs/tc6.md §2.1). */
static void data_chunk(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out, unsigned cs,
		       uint64_t t_start, uint64_t t_end, bool first)
{
	uint32_t hdr = lan865x_emu__header_as_received(emu, lan865x_emu_get_be32(in)), rxbits = 0;
	bool enabled = lan865x_emu_frame_data_enabled(emu); /* docs/tc6.md §4.1, §6 */

	ethdrv_counter_inc(&emu->stats.chunks);
	memset(out, 0, cs);
	if (!lan865x_emu_parity_ok(hdr) || !(hdr & HDR_DNC)) {
		emu->status0 |= ST0_HDRE; /* docs/tc6.md §2.3 HDRB: the chunk is not accepted */
		ethdrv_counter_inc(&emu->stats.hdr_errors);
		if (enabled)
			lan865x_emu__tx_refused_chunk(emu); /* docs/tc6.md §2.4.1 */
		lan865x_emu_put_be32(out, cs + 4, cs, data_footer(emu, true, 0, t_start));
		return;
	}
	irq_deassert(emu); /* docs/tc6.md §2.5: the next data header releases IRQ_N */
	if (enabled && (hdr & DH_DV))
		lan865x_emu__tx_chunk(emu, hdr, in + 4, cs, t_end);
	/* An internal fault discards frame data; a frame begun now is lost here
	 * (the footer still shows a good header and SYNC, so the host counts it
	 * as taken). */
	if (emu->internal_fault && (hdr & DH_DV) && (hdr & DH_SV)) {
		ethdrv_counter_inc(&emu->stats.tx_started);
		ethdrv_counter_inc(&emu->stats.tx_dropped_disabled);
	}
	if (enabled && !(hdr & DH_NORX))
		rxbits = lan865x_emu__rx_fill_chunk(emu, out, cs, t_start, first);
	lan865x_emu_put_be32(out, cs + 4, cs, data_footer(emu, false, rxbits, t_start));
}

void lan865x_emu__data_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out,
				size_t len, uint64_t t0)
{
	unsigned cs = lan865x_emu_payload_size(emu);
	size_t clen = cs + 4u, n = len / clen, rest = len % clen;

	for (size_t k = 0; k < n; k++) {
		uint64_t ts = t0 + emu->cfg.setup_ns + lan865x_emu__spi_ns(emu, k * clen);

		data_chunk(emu, in + k * clen, out + k * clen, cs, ts,
			   ts + lan865x_emu__spi_ns(emu, clen), k == 0);
	}
	if (!rest)
		return;
	/* Loss of framing: CS rose inside a chunk (docs/tc6.md §3.4, assumption in the header). */
	memset(out + n * clen, 0, rest);
	lan865x_emu__loss_of_framing(emu);
}
