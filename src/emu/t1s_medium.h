/* SPDX-License-Identifier: MIT */
/*
 * A shared half-duplex 10 Mb/s 10BASE-T1S segment (docs/design.md §4) with
 * 2..32 ports, implementing struct emu_medium_ops (medium.h). Every frame
 * is a bus frame: each other attached port gets rx() at the frame's end, the
 * sender gets tx_done() then.
 *
 * PLCA (IEEE 802.3cg clause 148; docs/tc6.md §3.6, §5.7, §6) runs while a
 * coordinator (PLCA enabled, node_id 0) is attached. A cycle is:
 *   BEACON (EMU_T1S_BEACON_BT; an assumption, docs/tc6.md §6 marks it
 *   unverified), then one transmit opportunity per id 0..node_cnt-1. The
 *   owner of an opportunity with a frame ready sends it (preamble + frame +
 *   IFG). It may start any time before its TO timer expires (coordinator's
 *   to_tmr bit times after the opportunity began); else the opportunity
 *   passes after to_tmr bit times of silence. After each frame, while fewer
 *   than burst_cnt extra frames were sent, the owner holds the medium for
 *   max(IFG, burst_tmr) bit times from the frame end (a burst wait) and may
 *   start its next frame in that window.
 * Settings are re-read (get_plca) at every cycle start; node_cnt, to_tmr
 * come from the coordinator, burst settings from each node.
 * A PLCA-enabled node whose id is >= node_cnt never gets an opportunity:
 * its frames wait (as on real hardware) until the settings change.
 * Two enabled nodes with the same id collide at their opportunity and both
 * retry at the next one (16 attempts, then the frame is dropped).
 *
 * CSMA/CD: without a coordinator every node, and with one the nodes with
 * PLCA off (no get_plca, !enabled or node_id 0xFF), use carrier sense: a
 * node starts once the medium has been quiet for an IFG. Nodes that start
 * at the same instant collide: preamble + 32-bit jam (96 bit times on the
 * wire) then an IFG; each backs off r * 512 bit times, r uniform in
 * 0..2^min(attempt,10)-1 from a seeded PRNG; after 16 collisions the frame
 * is dropped (counted as excessive_collisions, and tx_done is called so the
 * node frees it). On a PLCA segment a CSMA/CD node may start inside a run of
 * empty opportunities; its frame uses the current opportunity.
 *
 * Time: in real-time mode the medium thread keeps an exact timeline against
 * CLOCK_MONOTONIC absolute deadlines (docs/host.md §4): a late wakeup
 * delays a delivery, never the schedule. A frame end found more than
 * slip_bound_ns late slips the wire's clock instead (docs/design.md §5b.2):
 * the timeline runs on CLOCK_MONOTONIC minus the slip, the late frame ends
 * at its time on it and the frames after it keep their spacing, so a
 * stalled medium never hands the nodes a backlog at once (slips, slip_ns;
 * the times nodes see are host times). The medium only wakes at a
 * frame end or for an announcement (emu_medium_announce_tx()) that can
 * still change the next start. Silent PLCA cycles cost no wakeups: when a
 * frame arrives the medium computes where the cycle pattern stands and
 * starts the frame at its node's next opportunity. Frames become ready at
 * max(t_ready, time of the announcement); all times are rounded up to
 * whole bit times. In virtual
 * mode (realtime=false) the same schedule runs from t=0 as fast as possible
 * and frames are ready at t_ready.
 *
 * Accounting: over the committed timeline (wire time: now_ns - start_ns
 * plus slip_ns is the wall time),
 *   now_ns = (preamble + frame + ifg + beacon + silence + backoff +
 *             collision bits) * EMU_BIT_NS + idle_ns
 * where beacon and silence bits are the PLCA overhead paid while some node
 * had a frame ready, and idle_ns is time nobody had anything to send
 * (including silent PLCA cycles then).
 */
#ifndef ETHDRV_EMU_T1S_MEDIUM_H
#define ETHDRV_EMU_T1S_MEDIUM_H

#include <stdbool.h>
#include <stdint.h>

#include "medium.h"

#define EMU_T1S_MAX_PORTS 32u
#define EMU_T1S_MIN_PORTS 2u
/* BEACON length in bit times: an assumption (docs/tc6.md §6, unverified). */
#define EMU_T1S_BEACON_BT 20u
#define EMU_T1S_IFG_BT 96u /* inter-frame gap (docs/tc6.md §6) */
#define EMU_T1S_SLOT_BT 512u /* CSMA/CD backoff slot */
#define EMU_T1S_JAM_BT 32u /* jam after a detected collision */
#define EMU_T1S_ATTEMPTS 16u /* attempt limit: frame dropped after 16 collisions */
#define EMU_T1S_BACKOFF_LIMIT 10u /* k = min(attempt, 10) */
#define EMU_T1S_SLIP_DEFAULT_NS 1000000ull /* emu_t1s_config.slip_bound_ns 0 */
#define EMU_T1S_NO_SLIP UINT64_MAX /* emu_t1s_config.slip_bound_ns: never slip */

struct emu_t1s_medium;

struct emu_t1s_config {
	unsigned ports; /* number of ports, 2..32 */
	bool realtime; /* true: CLOCK_MONOTONIC deadlines; false: virtual time */
	const char *pcap_path; /* capture every frame here; NULL = none */
	uint64_t seed; /* backoff PRNG seed (0 = a fixed default) */
	bool test_jam; /* test hook: a phantom station collides with every CSMA/CD start */
	uint64_t slip_bound_ns; /* real time: lateness beyond which the wire slips;
				   0 = EMU_T1S_SLIP_DEFAULT_NS, EMU_T1S_NO_SLIP = never */
};

/* Per-port counters. */
struct emu_t1s_port_stats {
	uint64_t frames; /* frames the port sent */
	uint64_t bytes; /* their bytes incl. FCS */
	uint64_t collisions; /* collisions the port took part in */
	uint64_t excessive_collisions; /* frames dropped after 16 collisions */
	uint64_t dropped; /* frames lost to detach (pulled, not delivered) */
};

/* Segment counters (emu_t1s_medium_get_stats()); see the accounting above. */
struct emu_t1s_stats {
	struct emu_t1s_port_stats port[EMU_T1S_MAX_PORTS]; /* indexed by port */
	uint64_t preamble_bits; /* preamble + SFD of delivered frames */
	uint64_t frame_bits; /* frame bits incl. FCS and padding to 64 bytes */
	uint64_t ifg_bits; /* inter-frame gaps after frames */
	uint64_t beacon_bits; /* PLCA beacons while some node had a frame ready */
	uint64_t silence_bits; /* empty-opportunity TO timers and burst waits (idem) */
	uint64_t backoff_bits; /* CSMA/CD: medium unused while ready frames backed off */
	uint64_t collision_bits; /* preamble + jam + IFG of collisions */
	uint64_t idle_ns; /* nobody had a frame ready (idle PLCA cycles included) */
	uint64_t cycles; /* PLCA cycles (beacons sent), idle ones included */
	uint64_t beacons; /* beacons sent (= cycles) */
	uint64_t idle_cycles; /* cycles skipped as a whole while nobody had anything */
	uint64_t empty_opportunities; /* opportunities that passed unused (all) */
	uint64_t collisions; /* collision events on the segment */
	uint64_t excessive_collisions; /* frames dropped after 16 collisions */
	uint64_t dropped; /* frames lost to detach */
	uint64_t now_ns; /* committed timeline: end of the last accounted activity */
	uint64_t start_ns; /* timeline origin (0 in virtual mode) */
	uint64_t wakeups; /* times the medium thread returned from a wait */
	uint64_t slips; /* times the wire's clock slipped (a frame end found late) */
	uint64_t slip_ns; /* total time slipped: wall time the wire paused */
	uint64_t pcap_errors; /* failed capture writes */
};

/**
 * emu_t1s_medium_new() - create a segment and start its thread
 * @cfg: settings; NULL = 2 ports, real time, no capture
 * @out: receives the medium
 *
 * Return: 0, -EINVAL (ports outside 2..32 or NULL @out), -ENOMEM, the
 * -errno of opening the capture, or of creating the thread, eventfd or
 * timerfd.
 * Context: setup.
 */
int emu_t1s_medium_new(const struct emu_t1s_config *cfg, struct emu_t1s_medium **out);

/** emu_t1s_medium_base() - the generic medium handle of @m (attach/announce_tx/free). */
struct emu_medium *emu_t1s_medium_base(struct emu_t1s_medium *m);

/**
 * emu_t1s_medium_get_stats() - copy a consistent snapshot of the counters
 * @m: the medium
 * @st: receives them
 *
 * Context: any thread.
 */
void emu_t1s_medium_get_stats(struct emu_t1s_medium *m, struct emu_t1s_stats *st);

/**
 * emu_t1s_medium_lateness() - actual minus ideal delivery time of each
 * frame in ns (real-time mode only; empty in virtual mode)
 * @m: the medium
 *
 * Return: the histogram, valid until the medium is freed.
 */
const struct ethdrv_hist *emu_t1s_medium_lateness(struct emu_t1s_medium *m);

/**
 * emu_t1s_medium_wait_idle() - wait until no port has a frame pending, none
 * is held by the medium and the wire is idle
 * @m: the medium
 * @timeout_ns: real-time bound on the wait
 *
 * Return: 0 or -ETIMEDOUT (also when frames are stuck, e.g. a PLCA node
 * whose id is >= node_cnt).
 * Context: any thread except the medium's.
 */
int emu_t1s_medium_wait_idle(struct emu_t1s_medium *m, uint64_t timeout_ns);

#endif /* ETHDRV_EMU_T1S_MEDIUM_H */
