// SPDX-License-Identifier: MIT
/*
 * The ENET MDIO block (MMFR, MSCR, MII event) on the model's clock; the
 * behaviour and the assumptions are listed in enet_mdio.h and
 * docs/mdio.md §3.
 */
#include <errno.h>
#include <string.h>

#include "emu_util.h"
#include "enet_mdio.h"

#define NS_PER_S 1000000000u

#define D(f) ETHDRV_STAT_DESC(struct enet_mdio_stats, f)
const struct ethdrv_stat_desc enet_mdio_stats_desc[] = {
	D(frames_started), D(frames_done),    D(mscr_frames), D(mmfr_stored),
	D(busy_writes),	   D(frames_aborted), D(bus_ns),
};
#undef D
const size_t enet_mdio_stats_desc_count = ETHDRV_ARRAY_SIZE(enet_mdio_stats_desc);

void enet_mdio_config_default(struct enet_mdio_config *cfg)
{
	*cfg = (struct enet_mdio_config){ .ipg_hz = 50000000u, .mscr_starts_frame = true };
}

int enet_mdio_init(struct enet_mdio *m, const struct enet_mdio_config *cfg, struct mdio_emu *bus)
{
	struct enet_mdio_config def;

	if (!cfg) {
		enet_mdio_config_default(&def);
		cfg = &def;
	}
	if (!m || !bus || !cfg->ipg_hz)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->bus = bus;
	m->deadline_ns = ENET_MDIO_NEVER;
	return 0;
}

/* Module clocks per MDC cycle (docs/enet.md §5); 0 while MDC is stopped. */
static uint64_t enet_mdio_div(uint32_t mscr)
{
	uint32_t speed = ETHDRV_FIELD_GET(ENET_MDIO_MSCR_MII_SPEED, mscr);

	return speed ? 2u * (speed + 1u) : 0;
}

/* Time of @cycles MDC cycles at @div module clocks each, rounded up. */
static uint64_t enet_mdio_cycles_ns(const struct enet_mdio *m, uint64_t cycles, uint64_t div)
{
	unsigned __int128 t = (unsigned __int128)cycles * div * NS_PER_S;

	return (uint64_t)((t + m->cfg.ipg_hz - 1) / m->cfg.ipg_hz);
}

/* Whole MDC cycles that fit in @ns at @div. */
static uint64_t enet_mdio_ns_cycles(const struct enet_mdio *m, uint64_t ns, uint64_t div)
{
	unsigned __int128 c = (unsigned __int128)ns * m->cfg.ipg_hz;

	return (uint64_t)(c / ((unsigned __int128)div * NS_PER_S));
}

uint64_t enet_mdio_frame_ns(const struct enet_mdio *m)
{
	uint64_t div = enet_mdio_div(m->mscr);
	unsigned cycles = (m->mscr & ENET_MDIO_MSCR_DIS_PRE) ?
				  ENET_MDIO_FRAME_CYCLES - ENET_MDIO_PREAMBLE_CYCLES :
				  ENET_MDIO_FRAME_CYCLES;

	return div ? enet_mdio_cycles_ns(m, cycles, div) : 0;
}

/* Cycles of the frame in flight shifted by @now (capped at the frame). */
static uint64_t enet_mdio_shifted(const struct enet_mdio *m, uint64_t now)
{
	uint64_t div = enet_mdio_div(m->mscr);
	uint64_t c = m->cycles_done;

	if (div)
		c += enet_mdio_ns_cycles(m, now - m->seg_start_ns, div);
	return c < m->frame_cycles ? c : m->frame_cycles;
}

/* Re-time the rest of the frame in flight from @now at the current MSCR. */
static void enet_mdio_retime(struct enet_mdio *m, uint64_t now, uint32_t old_mscr)
{
	uint64_t old_div = enet_mdio_div(old_mscr), div = enet_mdio_div(m->mscr);

	if (old_div)
		m->cycles_done += enet_mdio_ns_cycles(m, now - m->seg_start_ns, old_div);
	if (m->cycles_done > m->frame_cycles)
		m->cycles_done = m->frame_cycles;
	m->seg_start_ns = now;
	m->deadline_ns = div ? now + enet_mdio_cycles_ns(m, m->frame_cycles - m->cycles_done, div) :
			       ENET_MDIO_NEVER;
}

static void enet_mdio_start(struct enet_mdio *m, uint64_t now)
{
	m->busy = true;
	m->shift = m->mmfr;
	m->preamble = !(m->mscr & ENET_MDIO_MSCR_DIS_PRE);
	m->frame_cycles = m->preamble ? ENET_MDIO_FRAME_CYCLES :
					ENET_MDIO_FRAME_CYCLES - ENET_MDIO_PREAMBLE_CYCLES;
	m->cycles_done = 0;
	m->start_ns = now;
	m->seg_start_ns = now;
	enet_mdio_retime(m, now, m->mscr);
	ethdrv_counter_inc(&m->st.frames_started);
}

/* The frame ends: it reaches the bus, a read fills MMFR[15:0], the event sets. */
static void enet_mdio_complete(struct enet_mdio *m)
{
	uint64_t end = m->deadline_ns;
	uint16_t data = mdio_emu_transfer(m->bus, m->shift, m->preamble, end);

	if (mdio_emu_frame_is_read(m->shift))
		m->mmfr = (m->mmfr & ~MDIO_EMU_FRAME_DATA) | data;
	m->busy = false;
	m->event = true;
	m->deadline_ns = ENET_MDIO_NEVER;
	ethdrv_counter_inc(&m->st.frames_done);
	ethdrv_counter_add(&m->st.bus_ns, end - m->start_ns);
}

/* Clamp @now to the model's latest time and complete a due frame. */
static uint64_t enet_mdio_now(struct enet_mdio *m, uint64_t now, bool *completed)
{
	if (now < m->now_ns)
		now = m->now_ns;
	m->now_ns = now;
	*completed = m->busy && m->deadline_ns <= now;
	if (*completed)
		enet_mdio_complete(m);
	return now;
}

bool enet_mdio_advance(struct enet_mdio *m, uint64_t now_ns)
{
	bool completed;

	enet_mdio_now(m, now_ns, &completed);
	return completed;
}

/* docs/mdio.md §3.3: the bits on the wire stay, the rest comes from @val. */
static void enet_mdio_busy_write(struct enet_mdio *m, uint32_t val, uint64_t now)
{
	uint64_t shifted = enet_mdio_shifted(m, now);
	uint64_t pre = m->preamble ? ENET_MDIO_PREAMBLE_CYCLES : 0;
	uint64_t bits = shifted > pre ? shifted - pre : 0;
	uint32_t sent = bits ? ~UINT32_C(0) << (32 - bits) : 0;

	m->shift = (m->shift & sent) | (val & ~sent);
	m->mmfr = val;
	ethdrv_counter_inc(&m->st.busy_writes);
}

static void enet_mdio_write_mmfr(struct enet_mdio *m, uint32_t val, uint64_t now)
{
	if (m->busy) {
		enet_mdio_busy_write(m, val, now);
		return;
	}
	m->mmfr = val;
	if (m->mscr & ENET_MDIO_MSCR_LOW)
		enet_mdio_start(m, now);
	else
		ethdrv_counter_inc(&m->st.mmfr_stored);
}

static void enet_mdio_write_mscr(struct enet_mdio *m, uint32_t val, uint64_t now)
{
	uint32_t old = m->mscr;

	m->mscr = val & ENET_MDIO_MSCR_MASK;
	if (m->busy) {
		if (enet_mdio_div(old) != enet_mdio_div(m->mscr))
			enet_mdio_retime(m, now, old);
		return;
	}
	/* docs/mdio.md §3.2: 0 -> non-zero with MMFR != 0 sends MMFR. */
	if (m->cfg.mscr_starts_frame && !(old & ENET_MDIO_MSCR_LOW) &&
	    (m->mscr & ENET_MDIO_MSCR_LOW) && m->mmfr) {
		ethdrv_counter_inc(&m->st.mscr_frames);
		enet_mdio_start(m, now);
	}
}

void enet_mdio_write(struct enet_mdio *m, uint32_t off, uint32_t val, uint64_t now_ns)
{
	bool completed;
	uint64_t now = enet_mdio_now(m, now_ns, &completed);

	if (off == ENET_MDIO_REG_MMFR)
		enet_mdio_write_mmfr(m, val, now);
	else if (off == ENET_MDIO_REG_MSCR)
		enet_mdio_write_mscr(m, val, now);
}

uint32_t enet_mdio_read(struct enet_mdio *m, uint32_t off, uint64_t now_ns)
{
	bool completed;

	enet_mdio_now(m, now_ns, &completed);
	if (off == ENET_MDIO_REG_MMFR)
		return m->mmfr;
	if (off == ENET_MDIO_REG_MSCR)
		return m->mscr;
	return 0;
}

uint64_t enet_mdio_deadline_ns(const struct enet_mdio *m)
{
	return m->busy ? m->deadline_ns : ENET_MDIO_NEVER;
}

bool enet_mdio_event(struct enet_mdio *m, uint64_t now_ns)
{
	enet_mdio_advance(m, now_ns);
	return m->event;
}

void enet_mdio_event_ack(struct enet_mdio *m, uint64_t now_ns)
{
	enet_mdio_advance(m, now_ns);
	m->event = false;
}

void enet_mdio_reset(struct enet_mdio *m, uint64_t now_ns)
{
	enet_mdio_advance(m, now_ns);
	if (m->busy)
		ethdrv_counter_inc(&m->st.frames_aborted);
	m->busy = false;
	m->deadline_ns = ENET_MDIO_NEVER;
	m->mscr = 0; /* MMFR keeps its value: docs/mdio.md §3.3 */
	m->event = false;
}

void enet_mdio_get_stats(const struct enet_mdio *m, struct enet_mdio_stats *st)
{
	emu_counters_copy(st, &m->st, sizeof(*st));
}
