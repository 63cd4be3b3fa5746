/* SPDX-License-Identifier: MIT */
/*
 * `ethdrv segment` internals: the kinds of segment and their parts.
 *   segment.c       the command: arguments, the lock, the marker and the
 *                   cleanup of leftovers, namespaces, nodes, the main loop
 *   segment_t1s.c   LAN8650 nodes on one 10BASE-T1S PLCA medium (t1sK)
 *   segment_enet.c  two ENET (enetK) or eTSEC (tsecK) nodes on a full-duplex link
 *
 * Each kind has its own names (namespaces and TAPs, addresses, MACs, the
 * control socket of its medium, the marker and the lock), so a LAN8650
 * segment and an ENET link can run at the same time, and each cleans up
 * only what is its own (docs/design.md §3).
 */
#ifndef ETHDRV_TOOLS_SEGMENT_PRIV_H
#define ETHDRV_TOOLS_SEGMENT_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "cmd.h"
#include "ctl.h"
#include "daemon.h"
#include "emu/enet_emu.h"
#include "emu/t1s_medium.h"
#include "ethdrv/stats.h"
#include "ethdrv/loop.h"
#include "node.h"
#include "rt.h"

#define SEG_NODES_MAX 16

struct seg;

/* One kind of segment: its names and its medium. */
struct seg_kind {
	const char *title; /* "segment", "ENET link": for messages */
	const char *prefix; /* namespaces and TAPs are prefix + K */
	const char *subnet; /* node K has subnet + (K + 1), /24, link-local */
	uint8_t mac_id; /* node K's MAC is 02:45:54:48:<mac_id>:<K> */
	const char *sock; /* the medium's control socket (ctl.h name) */
	const char *marker; /* the live run's pid and namespaces */
	const char *lock; /* flock()ed by the live run */
	unsigned nodes_min, nodes_max; /* --nodes range */
	/** Create the medium (and its stats set) before the nodes start. */
	int (*medium_new)(struct seg *s);
	/** Free it after every node has stopped. */
	void (*medium_free)(struct seg *s);
	/** The medium's part of node @i's settings. */
	void (*node_config)(struct seg *s, unsigned i, struct node_config *nc);
	/** The medium's control socket. */
	const struct ctl_ops *ctl;
	/** The read-only keys its socket answers (knob.h). */
	const struct ethdrv_knob_table *knobs;
};

extern const struct seg_kind seg_t1s_kind; /* segment_t1s.c */
extern const struct seg_kind seg_enet_kind; /* segment_enet.c */
extern const struct seg_kind seg_gbeth_kind; /* segment_enet.c */
extern const struct seg_kind seg_etsec_kind; /* segment_enet.c */
/* The read-only keys of the media's control sockets (`ethdrv get segment KEY`). */
extern const struct ethdrv_knob_table seg_t1s_knob_table, seg_enet_knob_table;

/* Options of one run. */
struct seg_args {
	unsigned nodes; /* within the kind's range */
	struct cli_device dev; /* model settings */
	struct cli_knob knobs[CLI_KNOBS_MAX]; /* --set */
	unsigned knob_count; /* entries in knobs */
	const char *pcap; /* --pcap or NULL */
	const char *spi_trace; /* --spi-trace prefix or NULL */
	bool cleanup; /* --cleanup */
	bool dev_given; /* --device was given (--cleanup: only that kind) */
	uint32_t linux_nodes; /* --linux-nodes: bit i = node i runs Linux's driver */
	struct cmd_common common; /* --set, --syslog, --log-level */
	int lab_prio; /* --lab-prio: the lab's SCHED_FIFO priority; -1 = one above the driver's */
};

#define SEG_LAB_THREADS 16 /* lab threads the guard watches */

/* The lab's priority and its guard (seg_lab.c). */
struct seg_lab_stats {
	ethdrv_counter_t rt_prio; /* SCHED_FIFO priority of the lab's threads, 0 = none */
	ethdrv_counter_t threads; /* threads the medium started */
	ethdrv_counter_t rt_demotions; /* lab threads the spin guard put back */
};

struct seg_lab {
	unsigned prio; /* SCHED_FIFO priority the lab runs at, 0 = SCHED_OTHER */
	pid_t tid[SEG_LAB_THREADS]; /* the threads the medium started */
	unsigned n; /* entries in tid */
	struct rt_guard guard; /* their CPU time at the last sample */
	struct ethdrv_timer timer; /* the guard, on the main loop */
	bool timer_on; /* started */
	struct seg_lab_stats st; /* counters (group "lab") */
};

/* A running segment. */
struct seg {
	struct seg_args args; /* what was asked */
	const struct seg_kind *kind; /* which kind */
	struct ethdrv_loop *loop; /* the main thread's loop */
	struct daemon_signals sig; /* stops it */
	struct ethdrv_stats_set *set; /* the medium's counters, for its socket */
	struct ctl_server *ctl; /* the medium's socket */
	struct ctl_server_stats ctl_snap; /* its counters, copied for each dump */
	/* LAN8650 (segment_t1s.c) */
	struct emu_t1s_medium *medium; /* the wire */
	struct emu_t1s_stats snap; /* medium counters, copied for each dump */
	/* ENET (segment_enet.c) */
	struct enet_link *link; /* line and models */
	struct fdx_line_stats line_snap; /* line counters, copied for each dump */
	uint64_t engine_cpu_ns; /* the line engine thread's CPU time, for each dump */
	struct node *node[SEG_NODES_MAX]; /* running nodes */
	bool netns_made[SEG_NODES_MAX]; /* namespaces this run created */
	char trace[SEG_NODES_MAX][256]; /* per-node SPI trace paths */
	struct seg_lab lab; /* the lab's priority (seg_lab.c) */
};

/* seg_lab.c (docs/design.md §4.5) */
/* The lab's SCHED_FIFO priority: one above the driver's, 0 without one. */
unsigned seg_lab_prio(const struct seg *s);
/* Create the medium (kind->medium_new) with its threads at seg_lab_prio(). */
int seg_lab_medium_new(struct seg *s);
/* The spin guard of the lab's threads on the main loop (once it exists). */
int seg_lab_guard_start(struct seg *s);
void seg_lab_guard_stop(struct seg *s);

/**
 * seg_node_name() - namespace and TAP name of node @i of @kind ("t1s0")
 * @kind: the kind
 * @i: node index
 * @buf: at least 16 bytes
 * @size: its size
 */
void seg_node_name(const struct seg_kind *kind, unsigned i, char *buf, size_t size);

/**
 * seg_stats_reply() - the counters of set @s->set, refreshed by the caller,
 * and the control socket's own, as a reply
 * @s: the segment
 * @json: JSON instead of text
 * @r: the reply
 *
 * Return: 0 or -ENOMEM.
 */
int seg_stats_reply(struct seg *s, bool json, struct ctl_reply *r);

/* The ctl_ops.knobs of a medium's socket: its kind's table. */
size_t seg_ctl_knobs(void *arg, const struct ethdrv_knob_table **out, size_t max);

/**
 * seg_stats_add_ctl() - add the socket's counters (group "ctl") to @s->set
 * @s: the segment
 *
 * Return: 0 or -ENOMEM.
 */
int seg_stats_add_ctl(struct seg *s);

#endif /* ETHDRV_TOOLS_SEGMENT_PRIV_H */
