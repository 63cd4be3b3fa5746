/* SPDX-License-Identifier: MIT */
/*
 * 10BASE-T1S segment model, private: the state the segment's two files
 * share. t1s_medium.c owns the segment as a running thing (ports, the
 * medium thread, its waits on absolute deadlines, committing events:
 * counters, capture, rx and tx_done); t1s_schedule.c owns the rules of the
 * wire (PLCA cycles, opportunities, bursts, CSMA/CD and backoff): from a
 * committed state it plans the next event on the wire. Behaviour and
 * accounting are described in t1s_medium.h.
 */
#ifndef ETHDRV_EMU_T1S_MEDIUM_PRIV_H
#define ETHDRV_EMU_T1S_MEDIUM_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ethdrv/stats.h"
#include "t1s_medium.h"

#define T1S_NONE UINT64_MAX /* no time: nothing ready, no deadline */
#define T1S_COLL_WIRE_BT (EMU_PREAMBLE_BYTES * 8u + EMU_T1S_JAM_BT) /* preamble + jam */

struct emu_pcap;

/* Bit times to ns. */
static inline uint64_t t1s_bt_ns(uint64_t bits)
{
	return bits * EMU_BIT_NS;
}

/* Where a plan walk stands. */
enum t1s_phase {
	T1S_CYCLE, /* a PLCA cycle (beacon) starts at t */
	T1S_OPP, /* opportunity opp starts at t */
	T1S_BURST, /* burst_port may continue its burst until burst_end */
	T1S_CSMA, /* no coordinator: CSMA/CD, the medium is free from t */
};

/* Counters accumulated while walking, applied when the event commits. */
struct t1s_acc {
	uint64_t beacon_bits, silence_bits, backoff_bits, idle_ns;
	uint64_t cycles, idle_cycles, empty_opps;
};

/* Where the timeline stands; planned on a copy, committed at event ends. */
struct t1s_state {
	enum t1s_phase phase; /* what happens at t */
	uint64_t t; /* timeline position */
	uint64_t quiet_since; /* end of the last carrier (CSMA/CD carrier sense) */
	unsigned opp; /* current opportunity id */
	unsigned node_cnt; /* this cycle's node count (coordinator's NCNT) */
	unsigned to_bt; /* this cycle's TO timer (coordinator's TOTMR) */
	uint32_t known; /* ports whose settings were read this cycle */
	uint32_t plca; /* ports following PLCA this cycle */
	uint32_t csma; /* ports using CSMA/CD this cycle */
	uint32_t sendable; /* ports that can get the medium this cycle */
	uint8_t id[EMU_T1S_MAX_PORTS]; /* node ids */
	uint8_t burst_cnt[EMU_T1S_MAX_PORTS]; /* MAXBC */
	uint8_t burst_tmr[EMU_T1S_MAX_PORTS]; /* BTMR */
	unsigned burst_port; /* T1S_BURST: the bursting port */
	unsigned burst_left; /* T1S_BURST: frames it may still add */
	uint64_t burst_end; /* T1S_BURST: its window ends here */
	struct t1s_acc acc; /* counters since the last commit */
};

enum t1s_ev_kind { T1S_EV_NONE, T1S_EV_TX, T1S_EV_COLLISION };

/* The next thing on the wire, as planned. */
struct t1s_event {
	enum t1s_ev_kind kind;
	uint64_t start; /* first preamble bit */
	uint64_t end; /* last frame bit (TX) or end of jam (collision) */
	unsigned port; /* TX: the sender */
	unsigned gen; /* TX: the sender's attach generation */
	size_t len; /* TX: frame length incl. FCS */
	uint32_t mask; /* collision: the ports involved */
	bool owner; /* TX in the sender's own PLCA opportunity */
	bool burst; /* TX continues a burst */
	bool stuck; /* NONE although frames are staged */
};

/* One port: the attached node and the frame staged from it. */
struct t1s_port {
	const struct emu_port_ops *ops; /* NULL = detached */
	void *node; /* passed to ops */
	unsigned gen; /* bumped at detach */
	bool staged; /* buf holds a pulled frame not yet on the wire */
	bool drained; /* the last tx_pull returned false */
	bool plca_status; /* last status told to the node */
	size_t len; /* staged frame length incl. FCS */
	uint64_t ready_ns; /* the staged frame may start from here */
	uint64_t avail_ns; /* announcement that ended the last drain */
	uint64_t backoff_ns; /* CSMA/CD: not before */
	unsigned attempts; /* collisions of the staged frame */
	uint8_t buf[EMU_FRAME_MAX]; /* the staged frame */
};

/* The segment. */
struct emu_t1s_medium {
	struct emu_medium base; /* must be first */
	struct emu_t1s_config cfg; /* settings (pcap_path not kept) */
	pthread_t thread; /* the medium thread */
	pthread_mutex_t ops_lock; /* port table, staged frames, the committed state */
	pthread_mutex_t lock; /* fields below up to stats */
	pthread_cond_t idle_cond; /* signalled when idle becomes true */
	uint32_t announced; /* ports that announced a frame since the medium last looked */
	uint64_t announce_ns[EMU_T1S_MAX_PORTS]; /* first announcement since then (real time) */
	bool waiting; /* the medium thread is (about to be) in poll() */
	uint64_t wake_before; /* announcements wake it only before this time */
	bool replan; /* a detach changed the ports: plan again */
	bool stop; /* destroy requested */
	bool idle; /* nothing pending, staged or on the wire */
	struct emu_t1s_stats stats; /* counters */
	int wake_fd; /* eventfd: announcements and stop */
	int deadline_fd; /* timerfd: absolute deadlines (real time) */
	struct t1s_port port[EMU_T1S_MAX_PORTS]; /* ops_lock */
	struct t1s_state committed; /* where the timeline stands; ops_lock */
	uint64_t origin; /* timeline origin */
	uint64_t slip; /* real time: host minus wire time (atomic; written by the thread) */
	uint64_t rng; /* backoff PRNG state (t1s_schedule.c, medium thread) */
	struct emu_pcap *pcap; /* capture or NULL (medium thread) */
	struct ethdrv_hist lateness; /* delivery lateness, ns */
};

/*
 * t1s_schedule.c. The medium thread calls these with ops_lock held; they
 * call get_plca and set_plca_status port ops (medium -> node lock order).
 */
void emu_t1s__plan(struct emu_t1s_medium *m, struct t1s_state *s, struct t1s_event *ev);
void emu_t1s__after_tx(const struct t1s_event *ev, struct t1s_state *s);
void emu_t1s__after_collision(const struct t1s_event *ev, struct t1s_state *s);
/* Called with m->lock held as well: it counts the collision per port. */
void emu_t1s__collided(struct emu_t1s_medium *m, const struct t1s_state *s, unsigned i,
		       uint64_t jam_end);

#endif /* ETHDRV_EMU_T1S_MEDIUM_PRIV_H */
