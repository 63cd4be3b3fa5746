/* SPDX-License-Identifier: MIT */
/*
 * The medium interface between emulated MAC-PHYs (nodes) and an emulated
 * wire (docs/design.md §4). It is pull-style so that a PLCA segment
 * (src/emu/t1s_medium.c) can grant transmit opportunities in node-id
 * order: a node only says "I have something" (emu_medium_announce_tx()),
 * and the medium takes the frame when the node may transmit.
 *
 * Times are in ns on one timeline shared by the medium and its nodes:
 * CLOCK_MONOTONIC in real-time mode, a virtual clock (starting at 0) when
 * both sides run with realtime=false. Do not mix the two modes.
 *
 * Locking contract: the medium calls port ops from its own thread (or from
 * emu_medium_announce_tx() in a non-threaded medium) WITHOUT holding any
 * lock a node might take in emu_medium_announce_tx(); nodes call
 * emu_medium_announce_tx() without holding their own lock. So the only lock
 * order is medium -> node.
 *
 * Shared wire arithmetic (10 Mb/s, docs/tc6.md §6): one bit time is 100 ns;
 * a frame occupies preamble+SFD (8 bytes) + the frame with FCS, padded to 64
 * bytes, and is followed by an inter-frame gap of 96 bit times.
 */
#ifndef ETHDRV_EMU_MEDIUM_H
#define ETHDRV_EMU_MEDIUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ethdrv_hist;

#define EMU_BIT_NS 100u /* 10 Mb/s: one bit time (docs/tc6.md §6) */
#define EMU_PREAMBLE_BYTES 8u /* preamble + SFD */
#define EMU_MIN_FRAME 64u /* minimum frame incl. FCS */
#define EMU_IFG_NS (96u * EMU_BIT_NS) /* inter-frame gap: 9.6 us */
/* Largest frame (with FCS) a medium carries: LAN8650 MAXFS (docs/tc6.md §2.4). */
#define EMU_FRAME_MAX 1536u

/* Wire time of one frame of @len bytes incl. FCS, from the first preamble
 * bit to the last FCS bit; the gap (EMU_IFG_NS) follows it. */
static inline uint64_t emu_frame_wire_ns(size_t len)
{
	size_t l = len < EMU_MIN_FRAME ? EMU_MIN_FRAME : len;

	return (uint64_t)(EMU_PREAMBLE_BYTES + l) * 8u * EMU_BIT_NS;
}

/* PLCA settings of a node as programmed in its registers (docs/tc6.md §3.6). */
struct emu_plca_cfg {
	bool enabled; /* PLCA CTRL0.EN */
	uint8_t node_id; /* CTRL1.ID: 0 = coordinator, 0xFF = PLCA off */
	uint8_t node_cnt; /* CTRL1.NCNT (used by the coordinator only) */
	uint8_t to_tmr; /* TOTMR, in bit times */
	uint8_t burst_cnt; /* BURST.MAXBC: extra frames per opportunity */
	uint8_t burst_tmr; /* BURST.BTMR, in bit times */
};

/* What a node implements; the medium calls these. */
struct emu_port_ops {
	/**
	 * Take the next frame the node wants to send (with FCS), called when
	 * the node has a transmit opportunity. Copy at most @max bytes into
	 * @buf (a medium always offers at least EMU_FRAME_MAX), set *@len and
	 * *@t_ready_ns (when the frame became ready in the node's time; the
	 * medium does not start it earlier). Return false if nothing is
	 * queued. The frame stays in the node's buffer until tx_done.
	 */
	bool (*tx_pull)(void *node, uint8_t *buf, size_t max, size_t *len, uint64_t *t_ready_ns);
	/** The oldest pulled frame has left the wire at @t_end_ns: free it. */
	void (*tx_done)(void *node, uint64_t t_end_ns);
	/** A frame of @len bytes (FCS included) ended on the wire at @t_end_ns. */
	void (*rx)(void *node, const uint8_t *frame, size_t len, uint64_t t_end_ns);
	/**
	 * Optional (NULL = store and forward only): whether the node wants
	 * rx_begin() for the frames it receives now (RX cut-through).
	 */
	bool (*rx_early)(void *node);
	/**
	 * Optional, with rx_early: a frame of @len bytes (FCS included) starts
	 * on the wire at @t_start_ns and ends at @t_end_ns; rx() follows for it
	 * at @t_end_ns as for every frame. Called once the medium will not
	 * change the frame (at the latest when it starts). The node must show
	 * nothing of a byte before its wire time.
	 */
	void (*rx_begin)(void *node, const uint8_t *frame, size_t len, uint64_t t_start_ns,
			 uint64_t t_end_ns);
	/** Optional (NULL = CSMA/CD node): read the node's PLCA settings. */
	void (*get_plca)(void *node, struct emu_plca_cfg *cfg);
	/** Optional: tell the node whether PLCA beacons are seen (PLCA STATUS.PST). */
	void (*set_plca_status)(void *node, bool active);
};

struct emu_medium;

/* What a medium implements; call it through the emu_medium_*() wrappers. */
struct emu_medium_ops {
	/** Connect @node on @port; 0, -EINVAL (no such port) or -EBUSY (in use). */
	int (*attach)(struct emu_medium *m, unsigned port, const struct emu_port_ops *ops,
		      void *node);
	/** Disconnect @port; returns after any port op running on it has returned. */
	void (*detach)(struct emu_medium *m, unsigned port);
	/** @port has a frame to send (cheap, callable from any thread). */
	void (*announce_tx)(struct emu_medium *m, unsigned port);
	/** Stop the medium and free it; all ports must be detached. */
	void (*destroy)(struct emu_medium *m);
};

/* Base object every medium embeds first. */
struct emu_medium {
	const struct emu_medium_ops *ops; /* the implementation */
};

/**
 * emu_medium_attach() - connect a node to a port of @m
 * @m: the medium
 * @port: port number (0..N-1 for the medium)
 * @ops: the node's port ops; must outlive the attachment
 * @node: passed to every port op
 *
 * Return: 0, -EINVAL for a bad port, -EBUSY if the port is taken.
 * Context: any thread except the medium's.
 */
static inline int emu_medium_attach(struct emu_medium *m, unsigned port,
				    const struct emu_port_ops *ops, void *node)
{
	return m->ops->attach(m, port, ops, node);
}

/**
 * emu_medium_detach() - disconnect @port; no port op runs on it afterwards
 * @m: the medium
 * @port: the port
 *
 * A frame on the wire towards @port is lost (counted); one from @port is
 * still delivered to its peer, but its tx_done is not called.
 * Context: any thread except the medium's; the node's lock must not be held.
 */
static inline void emu_medium_detach(struct emu_medium *m, unsigned port)
{
	m->ops->detach(m, port);
}

/**
 * emu_medium_announce_tx() - tell @m that @port has at least one frame to send
 * @m: the medium
 * @port: the port
 *
 * The medium will call tx_pull on @port at its next transmit opportunity
 * and keep calling it until it returns false.
 * Context: any thread; the caller must not hold its node lock.
 */
static inline void emu_medium_announce_tx(struct emu_medium *m, unsigned port)
{
	m->ops->announce_tx(m, port);
}

/**
 * emu_medium_free() - stop and free @m (NULL is ignored)
 * @m: the medium, with every port detached
 */
static inline void emu_medium_free(struct emu_medium *m)
{
	if (m)
		m->ops->destroy(m);
}

/*
 * The point-to-point medium (p2p_medium.c): two ports on one half-duplex
 * 10 Mb/s channel, one frame on the wire at a time, alternating between
 * ports that have frames; a frame from one port is delivered to the other.
 * One thread schedules frames against absolute deadlines (docs/host.md §4:
 * a late wakeup never shifts later frames).
 *
 * A frame starts at max(t_ready, medium free) (never at "when the thread got
 * round to it", so its wakeup lateness does not accumulate), ends at
 * start + emu_frame_wire_ns(len), which is when the peer's rx and then the
 * sender's tx_done are called (in real-time mode not before that instant);
 * a peer that wants rx_begin gets it as soon as the frame is scheduled;
 * the medium is free again EMU_IFG_NS later. Ports take turns when both
 * have frames; port 0 goes first.
 */
struct emu_p2p_medium;

struct emu_p2p_config {
	bool realtime; /* true: deliver at real deadlines; false: as fast as possible */
};

/* Counters of the p2p medium (read with emu_p2p_medium_get_stats()). */
struct emu_p2p_stats {
	uint64_t frames[2]; /* frames sent by port 0 / 1 */
	uint64_t bytes[2]; /* their bytes incl. FCS */
	uint64_t dropped; /* frames with no peer attached when they ended */
	uint64_t busy_ns; /* wire time incl. preamble and gap */
	uint64_t now_ns; /* the medium's clock: end of the last gap (virtual mode) */
};

/**
 * emu_p2p_medium_new() - create a two-port medium and start its thread
 * @cfg: settings (NULL = real time)
 * @out: receives the medium
 *
 * Return: 0, -ENOMEM, or the -errno of pthread_create/clock setup.
 * Context: setup.
 */
int emu_p2p_medium_new(const struct emu_p2p_config *cfg, struct emu_p2p_medium **out);

/** emu_p2p_medium_base() - the generic medium handle of @p (attach/announce_tx/free). */
struct emu_medium *emu_p2p_medium_base(struct emu_p2p_medium *p);

/**
 * emu_p2p_medium_get_stats() - copy the counters
 * @p: the medium
 * @st: receives them
 */
void emu_p2p_medium_get_stats(struct emu_p2p_medium *p, struct emu_p2p_stats *st);

/**
 * emu_p2p_medium_lateness() - how late deliveries were against their deadline
 * (ns; real-time mode only, empty otherwise)
 * @p: the medium
 *
 * Return: the histogram, valid until the medium is freed.
 */
const struct ethdrv_hist *emu_p2p_medium_lateness(struct emu_p2p_medium *p);

/**
 * emu_p2p_medium_wait_idle() - wait until no port has a frame pending and the
 * wire is idle (every announcing port's tx_pull returned false)
 * @p: the medium
 * @timeout_ns: real-time bound on the wait
 *
 * Return: 0 or -ETIMEDOUT.
 * Context: any thread except the medium's.
 */
int emu_p2p_medium_wait_idle(struct emu_p2p_medium *p, uint64_t timeout_ns);

#endif /* ETHDRV_EMU_MEDIUM_H */
