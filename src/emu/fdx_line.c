// SPDX-License-Identifier: MIT
/*
 * The full-duplex line (fdx_line.h, docs/design.md §5b.1): delivery of a
 * frame to the peer with its checks, bit errors, link flaps and the
 * injected link-down, the PHYs' cable, the capture, and the line's own
 * events on the engine (the end of a flap, the generators' frames). The
 * carrier follows the PHYs' wire, advanced to each event's time before the
 * event applies (the engine's advance op).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "fdx_line_priv.h"
#include "pcap.h"
#include "phy_emu.h"

#define BER_MAX 0.01
#define FLAP_MAX_NS (60ull * 1000000000ull)
#define BATCH_DEFAULT_NS 200000ull

#define LINE_STAT(name, field)                               \
	{                                                    \
		name, offsetof(struct fdx_line_stats, field) \
	}

const struct ethdrv_stat_desc fdx_line_stats_desc[] = {
	LINE_STAT("port0_frames", frames[0]),
	LINE_STAT("port0_bytes", bytes[0]),
	LINE_STAT("port1_frames", frames[1]),
	LINE_STAT("port1_bytes", bytes[1]),
	LINE_STAT("port0_lost", lost[0]),
	LINE_STAT("port1_lost", lost[1]),
	LINE_STAT("lost_no_peer", lost_no_peer),
	LINE_STAT("lost_link_down", lost_link_down),
	LINE_STAT("speed_mismatch", speed_mismatch),
	LINE_STAT("lost_loopback", lost_loopback),
	LINE_STAT("bit_errors", bit_errors),
	LINE_STAT("corrupted", corrupted),
	LINE_STAT("flaps", flaps),
	LINE_STAT("wakeups", wakeups),
	LINE_STAT("events", events),
	LINE_STAT("catchups", catchups),
	LINE_STAT("kicks", kicks),
	LINE_STAT("catchup_cpu_ns", catchup_cpu_ns),
	LINE_STAT("captured", captured),
	LINE_STAT("capture_errors", capture_errors),
	LINE_STAT("engine_cpu_ns", engine_cpu_ns),
	LINE_STAT("gen_frames", gen_frames),
	LINE_STAT("gen_bytes", gen_bytes),
	LINE_STAT("gen_lost", gen_lost),
	LINE_STAT("slips", slips),
	LINE_STAT("slip_ns", slip_ns),
	LINE_STAT("irq_asserts", irq_asserts),
};
const size_t fdx_line_stats_desc_count = ETHDRV_ARRAY_SIZE(fdx_line_stats_desc);

/* ---- the line as an engine client ---- */

static uint64_t line_next_event(void *ctx, uint64_t *exact_t)
{
	struct fdx_line *line = ctx;
	uint64_t t = line->up_at ? line->up_at : UINT64_MAX;

	/* A generator frame's end writes the receiver's RX BDs: exact; the end
	 * of a flap is seen only through the next frame: batched. */
	for (unsigned p = 0; p < 2; p++) {
		uint64_t g = fdx__gen_deadline(line, p);

		if (line->port[p].ops)
			*exact_t = ETHDRV_MIN(*exact_t, g);
		t = ETHDRV_MIN(t, g);
	}
	return t;
}

static void line_run_event(void *ctx, uint64_t t)
{
	struct fdx_line *line = ctx;

	if (line->up_at == t) {
		line->up_at = 0;
		return;
	}
	for (unsigned p = 0; p < 2; p++) {
		if (fdx__gen_deadline(line, p) == t) {
			fdx__gen_frame_end(line, p, t);
			return;
		}
	}
}

/* The PHYs' link (the carrier) as it is when the next event applies. */
static void line_advance(void *ctx, uint64_t t)
{
	struct fdx_line *line = ctx;

	if (line->phys)
		phy_emu_wire_advance(line->wire, t);
}

static const struct emu_engine_ops line_engine_ops = {
	.next_event = line_next_event,
	.run_event = line_run_event,
	.advance = line_advance,
};

/* ---- ports and delivery ---- */

int fdx__attach(struct fdx_line *line, unsigned port, const struct fdx_port_ops *ops, void *ctx,
		bool has_phy)
{
	if (port > 1 || !ops)
		return -EINVAL;
	if (line->port[port].ops)
		return -EBUSY;
	line->port[port] = (struct fdx_port){ ops, ctx };
	if (has_phy)
		line->phys++;
	return 0;
}

void fdx__detach(struct fdx_line *line, unsigned port, bool has_phy)
{
	line->port[port] = (struct fdx_port){ NULL, NULL };
	if (has_phy)
		line->phys--;
}

uint64_t fdx__byte_ns(const struct fdx_line *line)
{
	return line->byte_ns;
}

bool fdx__link_ok(struct fdx_line *line)
{
	if (!line->port[0].ops || !line->port[1].ops || line->forced_down || line->up_at)
		return false;
	/* As of the wire's latest time: the engine advanced it. */
	return !line->phys || phy_emu_wire_link_up(line->wire, 0);
}

/* ---- bit errors ---- */

static double line_uniform(struct fdx_line *line)
{
	line->rng ^= line->rng >> 12;
	line->rng ^= line->rng << 25;
	line->rng ^= line->rng >> 27;
	return ((line->rng * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-53 + 0x1.0p-53;
}

/* Bits until the next error: geometric with parameter @ber. */
static uint64_t line_error_gap(struct fdx_line *line, double ber)
{
	double g = floor(log(line_uniform(line)) / log1p(-ber));

	return g >= 1e18 ? UINT64_MAX : (uint64_t)g;
}

/*
 * Flip bits of a frame sent by @port at the set rate, one random draw per
 * error rather than per bit. The FCS's own bits count; any flip makes the
 * receiver see a bad FCS (the FCS of an appended frame is marked bad, a raw
 * one fails its check by itself).
 */
static void line_corrupt(struct fdx_line *line, unsigned port, uint8_t *data, uint32_t len,
			 enum fdx_fcs *fcs)
{
	uint64_t bits = (uint64_t)(len + (*fcs == FDX_FCS_RAW ? 0 : FDX_FCS)) * 8, pos = 0;
	double ber = line->ber[port];
	bool hit = false;

	if (ber <= 0)
		return;
	for (;;) {
		uint64_t gap = line->ber_gap[port];

		if (gap >= bits - pos) {
			line->ber_gap[port] -= bits - pos;
			return;
		}
		pos += gap;
		if (pos < (uint64_t)len * 8)
			data[pos / 8] ^= (uint8_t)(1u << (pos % 8));
		if (*fcs == FDX_FCS_APPEND)
			*fcs = FDX_FCS_BAD;
		ethdrv_counter_inc(&line->st.bit_errors);
		if (!hit)
			ethdrv_counter_inc(&line->st.corrupted);
		hit = true;
		pos++;
		line->ber_gap[port] = line_error_gap(line, ber);
	}
}

void fdx__send(struct fdx_line *line, unsigned from, uint8_t *data, uint32_t len, enum fdx_fcs fcs,
	       uint64_t t)
{
	const struct fdx_port *src = &line->port[from], *dst = &line->port[!from];
	uint32_t wire = len + (fcs == FDX_FCS_RAW ? 0 : FDX_FCS);

	if (!dst->ops) {
		ethdrv_counter_inc(&line->st.lost_no_peer);
		goto lost;
	}
	if (!fdx__link_ok(line)) {
		ethdrv_counter_inc(&line->st.lost_link_down);
		goto lost;
	}
	/* A receiver in internal loopback listens to its own MAC only. */
	if (!dst->ops->rx_from_line(dst->ctx)) {
		ethdrv_counter_inc(&line->st.lost_loopback);
		goto lost;
	}
	if (src->ops->byte_ns(src->ctx) != line->byte_ns ||
	    dst->ops->byte_ns(dst->ctx) != line->byte_ns) {
		ethdrv_counter_inc(&line->st.speed_mismatch);
		goto lost;
	}
	line_corrupt(line, from, data, len, &fcs);
	ethdrv_counter_inc(&line->st.frames[from]);
	ethdrv_counter_add(&line->st.bytes[from],
			   FDX_PREAMBLE + wire + src->ops->gap_bytes(src->ctx));
	if (line->capture)
		ethdrv_counter_inc(emu_pcap_write(line->capture, t, data, wire) ?
					   &line->st.capture_errors :
					   &line->st.captured);
	dst->ops->rx_frame(dst->ctx, data, len, fcs, t);
	return;
lost:
	ethdrv_counter_inc(&line->st.lost[from]);
}

/* ---- lifecycle ---- */

void fdx_line_config_default(struct fdx_line_config *cfg)
{
	*cfg = (struct fdx_line_config){ .speed_mbps = 1000,
					 .realtime = true,
					 .batch_ns = BATCH_DEFAULT_NS,
					 .slip_bound_ns = 1000000,
					 .lab_cpu = EMU_ENGINE_NO_LAB_CPU,
					 .seed = 1 };
}

static int line_engine_new(struct fdx_line *line)
{
	const struct fdx_line_config *c = &line->cfg;
	struct emu_engine_config ec = { .realtime = c->realtime,
					.batch_ns = c->batch_ns,
					.slip_bound_ns = c->slip_bound_ns,
					.lab_cpu = c->lab_cpu,
					.manual_clock = c->manual_clock,
					.name = "fdx-line" };
	int ret = emu_engine_new(&ec, &line->eng);

	if (ret)
		return ret;
	emu_engine_lock(line->eng);
	ret = emu_engine_add(line->eng, &line_engine_ops, line);
	emu_engine_unlock(line->eng);
	return ret;
}

int fdx_line_new(const struct fdx_line_config *cfg, struct fdx_line **out)
{
	struct fdx_line_config c;
	struct fdx_line *line;
	int ret;

	if (cfg)
		c = *cfg;
	else
		fdx_line_config_default(&c);
	if (!out || (c.speed_mbps != 10 && c.speed_mbps != 100 && c.speed_mbps != 1000))
		return -EINVAL;
	line = calloc(1, sizeof(*line));
	if (!line)
		return -ENOMEM;
	line->cfg = c;
	line->byte_ns = 8000u / c.speed_mbps;
	line->rng = c.seed ? c.seed : 1;
	ret = phy_emu_wire_new(c.realtime && !c.manual_clock, &line->wire);
	if (!ret)
		ret = phy_emu_wire_set_max_speed(line->wire, c.speed_mbps);
	if (!ret)
		ret = line_engine_new(line);
	if (ret) {
		fdx_line_free(line);
		return ret;
	}
	*out = line;
	return 0;
}

void fdx_line_free(struct fdx_line *line)
{
	if (!line)
		return;
	emu_engine_free(line->eng); /* stops the thread first */
	phy_emu_wire_free(line->wire);
	free(line);
}

struct emu_engine *fdx_line_engine(struct fdx_line *line)
{
	return line->eng;
}

struct phy_emu_wire *fdx_line_wire(struct fdx_line *line)
{
	return line->wire;
}

/* ---- clock, link and faults ---- */

uint64_t fdx_line_now(struct fdx_line *line)
{
	uint64_t t;

	emu_engine_lock(line->eng);
	t = emu_engine_now(line->eng);
	emu_engine_unlock(line->eng);
	return t;
}

int fdx_line_run_until(struct fdx_line *line, uint64_t t_ns)
{
	return emu_engine_run_until(line->eng, t_ns);
}

uint64_t fdx_line_next_event(struct fdx_line *line)
{
	return emu_engine_next_event(line->eng);
}

bool fdx_line_link_up(struct fdx_line *line)
{
	bool up;

	emu_engine_lock(line->eng);
	if (line->phys)
		phy_emu_wire_advance(line->wire, emu_engine_now(line->eng));
	up = fdx__link_ok(line);
	emu_engine_unlock(line->eng);
	return up;
}

void fdx_line_set_link(struct fdx_line *line, bool up)
{
	emu_engine_lock(line->eng);
	if (!up && !line->forced_down)
		ethdrv_counter_inc(&line->st.flaps);
	line->forced_down = !up;
	emu_engine_unlock(line->eng);
}

int fdx_line_flap(struct fdx_line *line, uint64_t down_ns)
{
	if (!down_ns || down_ns > FLAP_MAX_NS)
		return -EINVAL;
	emu_engine_lock(line->eng);
	line->up_at = emu_engine_now(line->eng) + down_ns;
	ethdrv_counter_inc(&line->st.flaps);
	emu_engine_kick(line->eng);
	emu_engine_unlock(line->eng);
	return 0;
}

int fdx_line_set_ber(struct fdx_line *line, unsigned port, double ber)
{
	if (port > 1 || !(ber >= 0 && ber <= BER_MAX))
		return -EINVAL;
	emu_engine_lock(line->eng);
	line->ber[port] = ber;
	line->ber_gap[port] = ber > 0 ? line_error_gap(line, ber) : 0;
	emu_engine_unlock(line->eng);
	return 0;
}

void fdx_line_set_cable(struct fdx_line *line, bool connected)
{
	uint64_t now;

	emu_engine_lock(line->eng);
	now = emu_engine_sync(line->eng, false);
	phy_emu_wire_set_cable(line->wire, connected, now);
	emu_engine_unlock(line->eng);
}

/* ---- readings ---- */

void fdx_line_get_stats(struct fdx_line *line, struct fdx_line_stats *st)
{
	struct emu_engine_stats es;

	emu_engine_get_stats(line->eng, &es);
	emu_engine_lock(line->eng);
	*st = line->st;
	emu_engine_unlock(line->eng);
	st->wakeups = es.wakeups;
	st->events = es.events;
	st->catchups = es.catchups;
	st->kicks = es.kicks;
	st->catchup_cpu_ns = es.catchup_cpu_ns;
	st->engine_cpu_ns = es.engine_cpu_ns;
	st->slips = es.slips;
	st->slip_ns = es.slip_ns;
	st->irq_asserts = es.irq_asserts;
}

const struct ethdrv_hist *fdx_line_lateness(struct fdx_line *line)
{
	return emu_engine_lateness(line->eng);
}

const struct ethdrv_hist *fdx_line_irq_lateness(struct fdx_line *line)
{
	return emu_engine_irq_lateness(line->eng);
}

void fdx_line_set_capture(struct fdx_line *line, struct emu_pcap *pcap)
{
	emu_engine_lock(line->eng);
	line->capture = pcap;
	emu_engine_unlock(line->eng);
}
