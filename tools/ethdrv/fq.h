/* SPDX-License-Identifier: MIT */
/*
 * Fair queueing in the node (docs/fq.md): frames read from the TAP wait
 * here, one queue per flow (a hash of the 5-tuple), and leave by deficit
 * round robin with new and sparse flows first, each queue's standing delay
 * kept near a target by CoDel (ECN-marking frames that allow it, dropping
 * the others), as fq_codel does (RFC 8290, RFC 8289).
 *
 * Pure: no I/O, no clock of its own (every call gets the time), no thread
 * state; one thread at a time. Packets are linked through pkt->next and
 * stamped in pkt->ts_ns while they wait. Every packet enqueued leaves by
 * exactly one door: dequeued, dropped by CoDel (fq_drops), or dropped at
 * the limit (fq_overlimit); the dropped ones are freed here.
 */
#ifndef ETHDRV_TOOLS_FQ_H
#define ETHDRV_TOOLS_FQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"

#define FQ_FLOWS_MAX 65536u
/* fq_codel's default limit in packets, and the most the node's fair queue
 * holds: every device's packet pool has this many buffers beyond its own
 * need, so a full fair queue never starves the RX ring (docs/fq.md §2). */
#define FQ_LIMIT_MAX 10240u

/* The knobs, with fq_codel's names and defaults (docs/fq.md §3). */
struct fq_cfg {
	uint64_t target_ns; /* acceptable standing delay per queue (5 ms) */
	uint64_t interval_ns; /* the window a delay above target must last (100 ms) */
	uint32_t quantum; /* bytes a flow may send per round (1514) */
	uint32_t limit; /* packets held at most, all flows (FQ_LIMIT_MAX) */
	uint32_t flows; /* hash buckets (1024) */
	bool ecn; /* mark ECN-capable frames instead of dropping them (on) */
};

struct fq_stats {
	ethdrv_counter_t fq_enqueued; /* packets in */
	ethdrv_counter_t fq_dequeued; /* packets out to the device */
	ethdrv_counter_t fq_drops; /* dropped by CoDel (not ECN-capable, or ecn off) */
	ethdrv_counter_t fq_marks; /* ECN CE marks set by CoDel (the frame went on) */
	ethdrv_counter_t fq_overlimit; /* dropped at the limit, from the longest queue */
	ethdrv_counter_t fq_new_flows; /* flows that became active (a new-list entry) */
	ethdrv_counter_t fq_flows; /* active flows now */
	ethdrv_counter_t fq_backlog; /* packets held now */
	ethdrv_counter_t fq_backlog_bytes; /* their bytes */
	ethdrv_counter_t fq_backlog_max; /* the most packets held at once (after the limit) */
};

/* CoDel's state of one queue (RFC 8289 section 5). */
struct fq_codel {
	uint64_t first_above_ns; /* when the delay may count as standing; 0 = below */
	uint64_t drop_next_ns; /* the next drop or mark while dropping */
	uint32_t count; /* drops and marks since dropping began */
	uint32_t lastcount; /* count when the last dropping state ended */
	bool dropping;
};

struct fq_flow {
	struct ethdrv_pkt_queue q;
	int64_t deficit; /* bytes it may still send in this round */
	struct fq_flow *next; /* on the new or the old list */
	uint8_t list; /* FQ_LIST_* */
	struct fq_codel cv;
};

struct fq_list {
	struct fq_flow *head, *tail;
};

struct fq {
	struct fq_cfg cfg;
	struct fq_flow *flow; /* cfg.flows of them */
	struct fq_list new_flows, old_flows;
	uint32_t seed; /* hash perturbation */
	uint32_t backlog; /* packets held */
	struct fq_stats st;
	struct ethdrv_hist sojourn_ns; /* time from enqueue to dequeue, per packet out */
};

/* fq_codel's defaults. */
void fq_cfg_default(struct fq_cfg *cfg);
/* Set up @q with @cfg (0 or -ENOMEM, -EINVAL for a bad cfg); @seed perturbs the hash. */
int fq_init(struct fq *q, const struct fq_cfg *cfg, uint32_t seed);
/* Free every packet held (counted as fq_overlimit) and the buckets. */
void fq_free(struct fq *q);
/* The flow hash of an Ethernet frame: the 5-tuple of IPv4/IPv6 TCP/UDP, the
 * addresses and protocol of other IP, the MACs and EtherType of the rest. */
uint32_t fq_hash(const uint8_t *frame, size_t len, uint32_t seed);
/* Take @pkt at @now_ns; at the limit the longest queue loses its head. */
void fq_enqueue(struct fq *q, struct ethdrv_pkt *pkt, uint64_t now_ns);
/* The next packet for the device at @now_ns, or NULL when none is held. */
struct ethdrv_pkt *fq_dequeue(struct fq *q, uint64_t now_ns);
/* Set the ECN CE mark of an IPv4/IPv6 frame that is ECN-capable (ECT(0)/ECT(1)
 * or already CE): true if it now carries CE, false if it is not ECN-capable. */
bool fq_ecn_mark(uint8_t *frame, size_t len);

#endif /* ETHDRV_TOOLS_FQ_H */
