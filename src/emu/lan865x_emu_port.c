// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: the medium port and time. It owns the port ops a medium
 * calls (medium.h): a frame pulled for the wire and its completion, and a frame
 * arriving from the wire, which the MAC checks (SYNC, enables, length, FCS,
 * address filter) before the RX buffer stores it, at its end or, with RX
 * cut-through, at its start; attaching to a medium and
 * telling it a frame waits (emu_medium_announce_tx()). It also owns the model's
 * clock (docs/design.md §4): the bus clock an SPI transfer advances, and
 * holding the caller in real-time mode while the bus runs ahead of real time.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "crc32.h"
#include "ethdrv/compiler.h"
#include "lan865x_emu_priv.h"

#define RX_MAX_LEN_DEFAULT 1518u /* docs/tc6.md §2.4 */
#define RX_MAX_LEN_VLAN 1522u

/* ---- time ---- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The bus clock's origin: now in real-time mode, 0 on a virtual clock. */
void lan865x_emu__clock_start(struct lan865x_emu *emu)
{
	emu->bus_clock = emu->cfg.realtime ? mono_ns() : 0;
}

/* Now: CLOCK_MONOTONIC, or with realtime=false the latest time seen. */
uint64_t lan865x_emu__now(const struct lan865x_emu *emu)
{
	return emu->cfg.realtime ? mono_ns() : emu->virtual_now;
}

/* The bus clock, never behind now: where the next transfer would start. */
uint64_t lan865x_emu__bus_now(const struct lan865x_emu *emu)
{
	return ETHDRV_MAX(emu->bus_clock, lan865x_emu__now(emu));
}

/* Bus time of @nbytes at cfg.spi_hz, truncated to whole ns. */
uint64_t lan865x_emu__spi_ns(const struct lan865x_emu *emu, uint64_t nbytes)
{
	return nbytes * 8u * 1000000000u / emu->cfg.spi_hz;
}

/* A transfer of @len bytes starts: advance the bus clock past it; its start. */
uint64_t lan865x_emu__bus_begin(struct lan865x_emu *emu, size_t len)
{
	uint64_t t0 = lan865x_emu__bus_now(emu);
	uint64_t dur = emu->cfg.setup_ns + lan865x_emu__spi_ns(emu, len);

	emu->bus_clock = t0 + dur;
	emu->host_seen = emu->bus_clock;
	emu->virtual_now = ETHDRV_MAX(emu->virtual_now, emu->bus_clock);
	ethdrv_counter_inc(&emu->stats.transfers);
	ethdrv_counter_add(&emu->stats.bytes, len);
	ethdrv_counter_add(&emu->stats.bus_ns, dur);
	return t0;
}

/*
 * Real-time mode: hold the caller while the bus clock is ahead of real time
 * by more than the slack (docs/design.md §4). Called without emu->lock.
 */
void lan865x_emu__hold_caller(struct lan865x_emu *emu, uint64_t bus_end)
{
	uint64_t now = mono_ns(), until, t1;
	struct timespec ts;

	if (!emu->cfg.realtime || bus_end <= now + emu->cfg.slack_ns)
		return;
	until = bus_end - emu->cfg.slack_ns;
	ts.tv_sec = (time_t)(until / 1000000000u);
	ts.tv_nsec = (long)(until % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	t1 = mono_ns();
	ethdrv_counter_add(&emu->stats.held_ns, t1 - now);
}

uint64_t lan865x_emu_bus_time(struct lan865x_emu *emu)
{
	uint64_t t;

	pthread_mutex_lock(&emu->lock);
	t = emu->bus_clock;
	pthread_mutex_unlock(&emu->lock);
	return t;
}

/* ---- the MAC receive checks (docs/tc6.md §2.4, §4.2, §5.2) ---- */

/* docs/tc6.md §4.2: 6-bit index, bit j = XOR of DA bits j, j+6, ... (bit 0 = LSB of byte 0). */
static unsigned hash_index(const uint8_t *da)
{
	unsigned idx = 0;

	for (unsigned b = 0; b < 48; b++)
		idx ^= ((da[b / 8] >> (b % 8)) & 1u) << (b % 6);
	return idx;
}

static bool hash_match(const struct lan865x_emu *emu, const uint8_t *da)
{
	unsigned i = hash_index(da);
	uint32_t reg = i < 32 ? emu->mac[MAC_HRB] : emu->mac[MAC_HRT];

	return (reg >> (i % 32)) & 1u;
}

static bool specific_addr_match(const struct lan865x_emu *emu, const uint8_t *da)
{
	/* docs/tc6.md §5.2: SAB = bytes 0-3 little-endian, SAT 15:0 = bytes 4-5. */
	uint32_t lo = da[0] | da[1] << 8 | da[2] << 16 | (uint32_t)da[3] << 24;
	uint32_t hi = da[4] | da[5] << 8;

	for (unsigned n = 0; n < MAC_SA_FILTERS; n++) {
		uint32_t b = emu->mac[MAC_SAB1 + 2 * n], t = emu->mac[MAC_SAB1 + 2 * n + 1];

		if (emu->sa_filter_enabled[n] && b == lo && (t & 0xFFFF) == hi)
			return true;
	}
	return false;
}

static bool rx_filter_accepts(const struct lan865x_emu *emu, const uint8_t *da)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint32_t ncfgr = emu->mac[MAC_NCFGR];

	if (ncfgr & NCFGR_CAF)
		return true;
	if (!memcmp(da, bcast, 6))
		return !(ncfgr & NCFGR_NBC);
	if (specific_addr_match(emu, da))
		return true;
	if (da[0] & 1)
		return (ncfgr & NCFGR_MTIHEN) && hash_match(emu, da);
	return (ncfgr & NCFGR_UNIHEN) && hash_match(emu, da);
}

static size_t rx_max_len(const struct lan865x_emu *emu, const uint8_t *f)
{
	if (emu->mac[MAC_NCFGR] & NCFGR_MAXFS)
		return EMU_FRAME_MAX;
	return (f[12] == 0x81 && f[13] == 0x00) ? RX_MAX_LEN_VLAN : RX_MAX_LEN_DEFAULT;
}

/* Which counter drops this frame, or NULL to accept it; sets *@fd. */
static ethdrv_counter_t *rx_verdict(struct lan865x_emu *emu, const uint8_t *f, size_t len, bool *fd)
{
	*fd = false;
	if (!(emu->config0 & CFG0_SYNC))
		return &emu->stats
				.rx_dropped_sync; /* docs/tc6.md §4.1: no frame data while SYNC=0 */
	if (emu->internal_fault || !(emu->mac[MAC_NCR] & NCR_RXEN))
		return &emu->stats.rx_dropped_disabled;
	if (len < EMU_MIN_FRAME || len > rx_max_len(emu, f))
		return &emu->stats.rx_dropped_length;
	if (!emu_fcs_ok(f, len)) {
		if (!(emu->mac[MAC_NCFGR] & NCFGR_IRXFCS))
			return &emu->stats.rx_dropped_fcs;
		*fd = true;
	}
	if (!rx_filter_accepts(emu, f))
		return &emu->stats.rx_dropped_filter;
	return NULL;
}

/*
 * The checks for a frame forwarded as it arrives (RX cut-through,
 * docs/tc6.md §5.4.1): what the MAC knows at its start (SYNC, enables, the
 * address filter) drops it; what it learns only at the end (length, FCS)
 * marks it FD, for the host to drop.
 */
static ethdrv_counter_t *rx_verdict_early(struct lan865x_emu *emu, const uint8_t *f, size_t len,
					  bool *fd)
{
	*fd = false;
	if (!(emu->config0 & CFG0_SYNC))
		return &emu->stats.rx_dropped_sync;
	if (emu->internal_fault || !(emu->mac[MAC_NCR] & NCR_RXEN))
		return &emu->stats.rx_dropped_disabled;
	if (!rx_filter_accepts(emu, f))
		return &emu->stats.rx_dropped_filter;
	*fd = len < EMU_MIN_FRAME || len > rx_max_len(emu, f) || !emu_fcs_ok(f, len);
	return NULL;
}

/* ---- port ops (medium.h) ---- */

static void port_rx(void *node, const uint8_t *frame, size_t len, uint64_t t_end)
{
	struct lan865x_emu *emu = node;
	ethdrv_counter_t *drop = NULL;
	bool fd;

	pthread_mutex_lock(&emu->lock);
	emu->virtual_now = ETHDRV_MAX(emu->virtual_now, t_end);
	/* A frame taken at rx_begin (cut-through) is in the buffer already. */
	if (emu->rx_begun_end == t_end && emu->rx_begun) {
		emu->rx_begun = false;
	} else {
		drop = rx_verdict(emu, frame, len, &fd);
		if (drop)
			ethdrv_counter_inc(drop);
		else
			lan865x_emu__rx_store(emu, frame, len, fd, t_end);
	}
	lan865x_emu__irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
}

/* RX cut-through on (CONFIG0.RXCTE, docs/tc6.md §5.4.1): frames wanted at their start. */
static bool port_rx_early(void *node)
{
	struct lan865x_emu *emu = node;
	bool want;

	pthread_mutex_lock(&emu->lock);
	want = (emu->config0 & CFG0_RXCTE) && lan865x_emu_frame_data_enabled(emu);
	pthread_mutex_unlock(&emu->lock);
	return want;
}

/* A frame begins on the wire: store it now; its bytes show at their wire time. */
static void port_rx_begin(void *node, const uint8_t *frame, size_t len, uint64_t t_start,
			  uint64_t t_end)
{
	struct lan865x_emu *emu = node;
	ethdrv_counter_t *drop;
	bool fd;

	pthread_mutex_lock(&emu->lock);
	emu->virtual_now = ETHDRV_MAX(emu->virtual_now, t_start);
	emu->rx_begun = true;
	emu->rx_begun_end = t_end;
	drop = rx_verdict_early(emu, frame, len, &fd);
	if (drop)
		ethdrv_counter_inc(drop);
	else
		lan865x_emu__rx_store_early(emu, frame, len, fd, t_start, t_end);
	lan865x_emu__irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
}

static bool port_tx_pull(void *node, uint8_t *buf, size_t max, size_t *len, uint64_t *t_ready)
{
	struct lan865x_emu *emu = node;
	bool ok;

	pthread_mutex_lock(&emu->lock);
	ok = lan865x_emu__tx_take_for_wire(emu, buf, max, len, t_ready);
	pthread_mutex_unlock(&emu->lock);
	return ok;
}

static void port_tx_done(void *node, uint64_t t_end)
{
	struct lan865x_emu *emu = node;

	pthread_mutex_lock(&emu->lock);
	emu->virtual_now = ETHDRV_MAX(emu->virtual_now, t_end);
	lan865x_emu__tx_left_wire(emu);
	pthread_mutex_unlock(&emu->lock);
}

static void port_get_plca(void *node, struct emu_plca_cfg *cfg)
{
	lan865x_emu_get_plca(node, cfg);
}

static void port_set_plca_status(void *node, bool active)
{
	struct lan865x_emu *emu = node;

	pthread_mutex_lock(&emu->lock);
	emu->plca_active = active;
	pthread_mutex_unlock(&emu->lock);
}

static const struct emu_port_ops lan865x_emu_ops = {
	.tx_pull = port_tx_pull,
	.tx_done = port_tx_done,
	.rx = port_rx,
	.rx_early = port_rx_early,
	.rx_begin = port_rx_begin,
	.get_plca = port_get_plca,
	.set_plca_status = port_set_plca_status,
};

const struct emu_port_ops *lan865x_emu_port_ops(void)
{
	return &lan865x_emu_ops;
}

/*
 * The medium to tell that a frame waits (clears the request), or NULL. The
 * caller announces it after unlocking (medium.h: lock order medium -> node).
 */
struct emu_medium *lan865x_emu__medium_to_announce(struct lan865x_emu *emu, unsigned *port)
{
	bool announce = emu->tx_announce;

	emu->tx_announce = false;
	*port = emu->port;
	return announce ? emu->medium : NULL;
}

int lan865x_emu_attach(struct lan865x_emu *emu, struct emu_medium *medium, unsigned port)
{
	bool busy, waiting;
	int err;

	pthread_mutex_lock(&emu->lock);
	busy = emu->medium != NULL;
	pthread_mutex_unlock(&emu->lock);
	if (busy)
		return -EBUSY;
	err = emu_medium_attach(medium, port, &lan865x_emu_ops, emu);
	if (err)
		return err;
	pthread_mutex_lock(&emu->lock);
	emu->medium = medium;
	emu->port = port;
	waiting = lan865x_emu__tx_waiting(emu);
	pthread_mutex_unlock(&emu->lock);
	if (waiting)
		emu_medium_announce_tx(medium, port);
	return 0;
}

void lan865x_emu_detach(struct lan865x_emu *emu)
{
	struct emu_medium *m;
	unsigned port;

	pthread_mutex_lock(&emu->lock);
	m = emu->medium;
	port = emu->port;
	emu->medium = NULL;
	emu->rx_begun = false;
	pthread_mutex_unlock(&emu->lock);
	if (m)
		emu_medium_detach(m, port);
}

/*
 * The link injection (lan865x_emu.h): cut the node's MDI off the segment,
 * or put it back. Off the segment the node neither hears nor is heard: its
 * port is detached from the medium (frames on the wire to it are lost and
 * counted by the medium; its own wait in the TX buffer) and BMSR reports
 * the loss.
 */
int lan865x_emu_set_link(struct lan865x_emu *emu, bool up)
{
	struct emu_medium *m = NULL;
	unsigned port = 0;
	bool was;

	pthread_mutex_lock(&emu->lock);
	if (emu->link_cut == !up) {
		pthread_mutex_unlock(&emu->lock);
		return 0;
	}
	was = lan865x_emu__phy_link(emu);
	emu->link_cut = !up;
	lan865x_emu__phy_link_changed(emu, was);
	lan865x_emu__irq_update(emu);
	if (!up) {
		emu->cut_medium = emu->medium;
		emu->cut_port = emu->port;
	} else {
		m = emu->cut_medium;
		port = emu->cut_port;
		emu->cut_medium = NULL;
	}
	pthread_mutex_unlock(&emu->lock);
	if (!up)
		lan865x_emu_detach(emu);
	else if (m)
		return lan865x_emu_attach(emu, m, port);
	return 0;
}

bool lan865x_emu_link(struct lan865x_emu *emu)
{
	bool up;

	pthread_mutex_lock(&emu->lock);
	up = !emu->link_cut;
	pthread_mutex_unlock(&emu->lock);
	return up;
}
