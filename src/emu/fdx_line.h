/* SPDX-License-Identifier: MIT */
/*
 * The full-duplex point-to-point Ethernet line between two MAC models
 * (docs/design.md §5b.1), MAC-independent: frame delivery to the peer with
 * its checks (peer present, link up, peer not in internal loopback, both
 * MACs at the line's speed), bit errors at a set rate, link flaps and the
 * injected link-down, the cable between the two PHYs (phy_emu_wire), the
 * capture of both directions, and the traffic generator of each direction
 * (fdx_line_gen.c, docs/enet.md §14). The line owns the event engine both
 * MACs run on (emu_engine.h) and is a client of it (flap end, generators).
 *
 * A MAC model plugs in with fdx_line_attach(): the line calls its port ops
 * (a frame arrives, its speed, gap and transmitter timeline); the MAC places
 * its own frames on the wire by computing their end on the line's clock and
 * calls fdx_line_send() when the last bit has left (an event of its own
 * engine client). Timing: a frame occupies its direction for preamble+SFD
 * (8 bytes), the frame and FCS, then the sender's gap, at byte_ns per byte.
 *
 * Locking: the engine's big lock (fdx_line_engine()); fdx__* calls with it
 * held, fdx_line_* calls take it.
 */
#ifndef ETHDRV_EMU_FDX_LINE_H
#define ETHDRV_EMU_FDX_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "emu_engine.h"
#include "ethdrv/stats.h"

#define FDX_FRAME_MAX 2048u /* largest frame the line carries, bytes (with FCS) */
#define FDX_PREAMBLE 8u /* preamble + SFD bytes */
#define FDX_FCS 4u

struct emu_pcap;
struct fdx_line;
struct phy_emu_wire;

/* How a frame's FCS travels. */
enum fdx_fcs {
	FDX_FCS_APPEND, /* the MAC appends a good FCS (not in data) */
	FDX_FCS_BAD, /* a wrong FCS (not in data): aborted, bit error, ABC */
	FDX_FCS_RAW, /* the last 4 bytes of data are the FCS, as sent */
};

/* What the line asks of the MAC on a port. All calls with the engine lock held. */
struct fdx_port_ops {
	/** rx_frame() - a frame's last bit arrived at @t; @data may be modified */
	void (*rx_frame)(void *ctx, uint8_t *data, uint32_t len, enum fdx_fcs fcs, uint64_t t);
	/** rx_from_line() - false while the MAC hears only itself (internal loopback) */
	bool (*rx_from_line)(void *ctx);
	/** byte_ns() - ns per byte at the MAC's configured speed */
	uint64_t (*byte_ns)(void *ctx);
	/** gap_bytes() - the inter-frame gap its transmitter keeps */
	unsigned (*gap_bytes)(void *ctx);
	/** tx_free_at() - when its direction of the wire is free for a frame */
	uint64_t (*tx_free_at)(void *ctx);
	/** set_tx_free_at() - the generator booked its direction up to @t */
	void (*set_tx_free_at)(void *ctx, uint64_t t);
};

struct fdx_line_config {
	unsigned speed_mbps; /* 10, 100 or 1000; default 1000 */
	bool realtime; /* true (default): CLOCK_MONOTONIC and an engine thread */
	uint64_t batch_ns; /* real time: wakeup period for non-exact events; default 200000 */
	uint64_t slip_bound_ns; /* real time: lateness that slips the clock; default 1 ms */
	int lab_cpu; /* real time: the engine polls on this CPU; default EMU_ENGINE_NO_LAB_CPU */
	bool manual_clock; /* tests: emu_engine_service() is the host clock (emu_engine.h) */
	uint64_t seed; /* PRNG seed for bit errors; default 1 */
};

/* Line counters (the engine's included, so `ethdrv stats` shows one group). */
struct fdx_line_stats {
	ethdrv_counter_t frames[2]; /* frames sent by port 0 / 1 that reached the peer */
	ethdrv_counter_t bytes[2]; /* their wire bytes (preamble, FCS, gap included) */
	ethdrv_counter_t lost[2]; /* frames sent by port 0 / 1 that did not reach the peer
				     (any of the four reasons below) */
	ethdrv_counter_t lost_no_peer; /* sent with no MAC at the other end */
	ethdrv_counter_t lost_link_down; /* sent while the link was down */
	ethdrv_counter_t speed_mismatch; /* sent or received at a speed not the line's */
	ethdrv_counter_t lost_loopback; /* arrived at a MAC in internal loopback */
	ethdrv_counter_t bit_errors; /* bits flipped by the set bit error rate */
	ethdrv_counter_t corrupted; /* frames with at least one flipped bit */
	ethdrv_counter_t flaps; /* link-down periods */
	ethdrv_counter_t wakeups; /* engine thread wakeups (real time) */
	ethdrv_counter_t events; /* events applied (frame ends, timers) */
	ethdrv_counter_t catchups; /* events applied by a register access */
	ethdrv_counter_t kicks; /* engine wakeups a client asked for early */
	ethdrv_counter_t catchup_cpu_ns; /* CPU time of the accessing threads applying them
					    (real time): the model's work in the driver's thread */
	ethdrv_counter_t captured; /* frames written to the capture (fdx_line_set_capture) */
	ethdrv_counter_t capture_errors; /* frames the capture failed to write */
	ethdrv_counter_t engine_cpu_ns; /* CPU time of the engine thread (real time) */
	ethdrv_counter_t gen_frames; /* generator frames that reached the receiving MAC */
	ethdrv_counter_t gen_bytes; /* their wire bytes (preamble, FCS, gap included) */
	ethdrv_counter_t gen_lost; /* generator frames sent while the link was down */
	ethdrv_counter_t slips; /* times the engine clock slipped (emu_engine.h) */
	ethdrv_counter_t slip_ns; /* total time slipped: the wire paused */
	ethdrv_counter_t irq_asserts; /* interrupt assertions of the MACs on the line */
};

#define FDX_GEN_PAYLOAD_MIN 8u /* the sequence number */
#define FDX_GEN_PAYLOAD_MAX 1472u /* a 1514-byte frame */
#define FDX_GEN_PPS_MAX 100000000u

/* The line's traffic generator (fdx_line_gen_start(), docs/enet.md §14). */
struct fdx_gen_config {
	unsigned to_port; /* the receiving MAC: 0 or 1 */
	uint8_t dst_mac[6]; /* Ethernet destination (the receiver's station address) */
	uint8_t src_mac[6]; /* Ethernet source */
	uint32_t src_ip; /* IPv4 source, host byte order */
	uint32_t dst_ip; /* IPv4 destination, host byte order */
	uint16_t src_port; /* UDP source port */
	uint16_t dst_port; /* UDP destination port */
	uint16_t payload; /* UDP payload bytes, 8..1472 (18: a 64-byte frame) */
	uint64_t count; /* frames to send, 0 = until stopped */
	uint64_t pps; /* frames per second (start to start), 0 = back to back */
};

/* Names of the line counters for a stats set. */
extern const struct ethdrv_stat_desc fdx_line_stats_desc[];
extern const size_t fdx_line_stats_desc_count;

/** fdx_line_config_default() - defaults listed above */
void fdx_line_config_default(struct fdx_line_config *cfg);

/**
 * fdx_line_new() - create a line and its engine (in real time its thread starts)
 * @cfg: settings (NULL = defaults); copied
 * @out: receives the line
 *
 * Return: 0, -EINVAL (speed not 10/100/1000, or an engine setting
 * emu_engine_new() refuses), -ENOMEM, or the -errno of pthread_create.
 */
int fdx_line_new(const struct fdx_line_config *cfg, struct fdx_line **out);

/** fdx_line_free() - stop the engine and free the line (NULL ignored); MACs freed first */
void fdx_line_free(struct fdx_line *line);

/** fdx_line_engine() - the engine the line and its MACs run on */
struct emu_engine *fdx_line_engine(struct fdx_line *line);

/** fdx_line_wire() - the cable between the PHYs of the two MACs */
struct phy_emu_wire *fdx_line_wire(struct fdx_line *line);

/** fdx_line_now() - the line's clock in ns. Takes the lock. */
uint64_t fdx_line_now(struct fdx_line *line);

/** fdx_line_run_until() - virtual clock: emu_engine_run_until() */
int fdx_line_run_until(struct fdx_line *line, uint64_t t_ns);

/** fdx_line_next_event() - the earliest pending event time, UINT64_MAX if none */
uint64_t fdx_line_next_event(struct fdx_line *line);

/** fdx_line_set_link() - force the link down (false) or let it come up (true) */
void fdx_line_set_link(struct fdx_line *line, bool up);

/** fdx_line_flap() - take the link down for @down_ns (1 ns..60 s) from now; 0 or -EINVAL */
int fdx_line_flap(struct fdx_line *line, uint64_t down_ns);

/** fdx_line_set_ber() - bit error rate 0..0.01 of frames sent by @port; 0 or -EINVAL.
 *  Corrupted frames arrive with a bad FCS. */
int fdx_line_set_ber(struct fdx_line *line, unsigned port, double ber);

/** fdx_line_link_up() - true while frames can reach the peer */
bool fdx_line_link_up(struct fdx_line *line);

/**
 * fdx_line_set_cable() - unplug (false) or plug (true) the cable between
 * the two PHYs: both links go down at once and train again once plugged
 * (phy_emu_wire_set_cable(), docs/mdio.md §8.3); the link-down injection
 */
void fdx_line_set_cable(struct fdx_line *line, bool connected);

/** fdx_line_get_stats() - copy the line counters (with the engine's) */
void fdx_line_get_stats(struct fdx_line *line, struct fdx_line_stats *st);

/** fdx_line_lateness() - lateness of every applied event, ns (real time only) */
const struct ethdrv_hist *fdx_line_lateness(struct fdx_line *line);

/** fdx_line_irq_lateness() - lateness of the MACs' interrupt assertions, ns (real time) */
const struct ethdrv_hist *fdx_line_irq_lateness(struct fdx_line *line);

/**
 * fdx_line_set_capture() - write every frame the line carries to @pcap
 * @line: the line
 * @pcap: an open capture (pcap.h), or NULL to stop; the caller closes it
 *        after fdx_line_free()
 *
 * Both directions go to the one file: each frame that reaches the peer, as
 * it arrived (a frame the line corrupted is written corrupted), stamped with
 * the time its last bit arrived, so that the records are in time order
 * while the two directions overlap on the wire. Frames lost on the way
 * (link down, no peer, speed mismatch) and frames of a MAC in internal
 * loopback never reach the wire and are not written. The writes happen
 * under the lock, in whichever thread applies the frame's end.
 */
void fdx_line_set_capture(struct fdx_line *line, struct emu_pcap *pcap);

/**
 * fdx_line_gen_start() - start the traffic generator towards @cfg->to_port
 *
 * UDP/IPv4 frames of the template with a sequence number (big endian) in the
 * first 8 payload bytes, back to back at the line rate (or @cfg->pps), each
 * timed as the far MAC's frames are (preamble, frame, FCS, its gap) and on
 * the far MAC's transmitter timeline; the first starts when the wire is free.
 * Counted in gen_frames, or gen_lost while the link is down. One generator
 * per direction.
 *
 * Return: 0, -EINVAL (bad port, payload or rate) or -EBUSY (running).
 */
int fdx_line_gen_start(struct fdx_line *line, const struct fdx_gen_config *cfg);

/** fdx_line_gen_stop() - stop the generator towards @to_port; the frame on the
 *  wire is cut off and never arrives (not counted). Stopped or bad port: fine. */
void fdx_line_gen_stop(struct fdx_line *line, unsigned to_port);

/** fdx_line_gen_running() - true while the generator towards @to_port has frames to send */
bool fdx_line_gen_running(struct fdx_line *line, unsigned to_port);

/* ---- for MAC models (engine lock held) ---- */

/**
 * fdx__attach() - plug a MAC into @port
 * @has_phy: the MAC's board has a PHY on the line's wire: the line then
 *           carries frames only while the wire's link is up
 *
 * Return: 0, -EINVAL (port not 0/1), -EBUSY (taken).
 */
int fdx__attach(struct fdx_line *line, unsigned port, const struct fdx_port_ops *ops, void *ctx,
		bool has_phy);

/** fdx__detach() - unplug the MAC of @port (@has_phy as attached) */
void fdx__detach(struct fdx_line *line, unsigned port, bool has_phy);

/** fdx__link_ok() - both ends attached, no injected fault, PHY link up (if any) */
bool fdx__link_ok(struct fdx_line *line);

/** fdx__byte_ns() - ns per byte at the line's speed */
uint64_t fdx__byte_ns(const struct fdx_line *line);

/**
 * fdx__send() - a frame sent by @from ended on the wire at @t: deliver it to
 * the peer (corrupted at the set rate, captured) or count why not. @data may
 * be modified (bit errors). Internal loopback is the MAC's own business: it
 * does not call this for a looped frame.
 */
void fdx__send(struct fdx_line *line, unsigned from, uint8_t *data, uint32_t len, enum fdx_fcs fcs,
	       uint64_t t);

#endif /* ETHDRV_EMU_FDX_LINE_H */
