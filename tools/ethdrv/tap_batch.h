/* SPDX-License-Identifier: MIT */
/*
 * Frames to the TAP in batches (docs/host.md §10): the writes one NAPI poll
 * produces are held and go to the kernel in one io_uring submission at the
 * end of the poll (the device's rx flush) or when the batch reaches its
 * bound, as the kernel's receive path hands gro_normal_batch skbs on at
 * once. Where io_uring is unavailable (no liburing at build time, or
 * io_uring_queue_init() refused at start) or switched off (knob
 * tap_uring=off), each write is one writev(2), in the same order.
 *
 * Order: the writes of a batch reach the TAP in the order they were added.
 * The TAP fd is non-blocking, so a write completes inline in the submitting
 * thread; each write carries RWF_NOWAIT where the kernel takes it, so one
 * that cannot complete fails with -EAGAIN at once instead of waiting in an
 * io_uring worker while later ones pass it. Without RWF_NOWAIT the writes
 * of a batch are linked (IOSQE_IO_LINK): a failed one cancels the rest,
 * which then go out one writev(2) each, still in order. Every write ends in
 * exactly one call of the done() callback (written, or refused and to be
 * counted as dropped), in order; the packets a write carried are freed
 * after it.
 *
 * One thread at a time (the device's RX poll context) adds and flushes;
 * the knobs may be set from another thread.
 */
#ifndef ETHDRV_TOOLS_TAP_BATCH_H
#define ETHDRV_TOOLS_TAP_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "ethdrv/knob.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"
#include "tap_offload.h"

#define TAP_BATCH_MAX 64u /* writes per submission at most (the NAPI weight) */
#define TAP_BATCH_IOV (TAP_GRO_SEGS_MAX + 1) /* a vnet header and a coalesced frame */

/* One write: its iovec, the frames it carries and the packets to free after. */
struct tap_batch_slot {
	struct virtio_net_hdr vh; /* the write's header, if iov[0] points here */
	struct iovec iov[TAP_BATCH_IOV];
	int iovcnt;
	struct ethdrv_pkt *pkt[TAP_GRO_SEGS_MAX];
	unsigned npkt;
	unsigned frames; /* Ethernet frames in this write (a coalesced write has several) */
};

struct tap_batch_stats {
	ethdrv_counter_t tap_tx_submits; /* io_uring submissions (one per batch) */
	ethdrv_counter_t tap_tx_uring_writes; /* writes that went through io_uring */
	ethdrv_counter_t tap_tx_plain_writes; /* writes by writev(2): the fallback */
	ethdrv_counter_t tap_tx_async; /* io_uring writes that did not complete inline */
	ethdrv_counter_t tap_tx_relinked; /* cancelled link members rewritten by writev(2) */
	ethdrv_counter_t tap_tx_batch_max; /* the largest batch submitted */
};

/* Where a write ended: @frames frames, @err 0 (written) or -errno (refused). */
typedef void (*tap_batch_done_fn)(void *arg, unsigned frames, int err);

struct tap_batch {
	int fd; /* the TAP, non-blocking */
	tap_batch_done_fn done;
	void *done_arg;
	int uring_on; /* knob tap_uring (atomic) */
	unsigned limit; /* knob tap_batch: writes per batch, 1..TAP_BATCH_MAX (atomic) */
	bool uring_ok; /* the ring exists */
	bool nowait; /* the kernel takes RWF_NOWAIT on this fd */
	int uring_err; /* why io_uring is unavailable (-errno), 0 if it is */
	void *ring; /* struct io_uring, or NULL */
	unsigned count; /* writes held */
	struct tap_batch_stats st;
	struct tap_batch_slot slot[TAP_BATCH_MAX];
};

/*
 * Set up @b (the ring, io_uring on if it could be set up); writes go to fd
 * -1 (refused) until tap_batch_attach(). io_uring failing is not an error:
 * tap_batch_mode() tells which path runs and why.
 */
void tap_batch_init(struct tap_batch *b, tap_batch_done_fn done, void *arg);
/* The TAP is open: write to @fd (non-blocking). */
void tap_batch_attach(struct tap_batch *b, int fd);
/* Write what is held (done() called for each) and free the ring. */
void tap_batch_close(struct tap_batch *b);
/* The next free slot (flushing first if the batch is full); fill it, then commit. */
struct tap_batch_slot *tap_batch_slot(struct tap_batch *b);
/* The slot from tap_batch_slot() is filled; flushes when the bound is reached. */
void tap_batch_commit(struct tap_batch *b);
/* One frame: [@vh] + @pkt's bytes; @pkt is freed after the write. */
void tap_batch_add_pkt(struct tap_batch *b, const struct virtio_net_hdr *vh,
		       struct ethdrv_pkt *pkt);
/* Write everything held, in order. */
void tap_batch_flush(struct tap_batch *b);
/* "io_uring", "io_uring (off)", or "write (io_uring unavailable: ...)" into @buf. */
const char *tap_batch_mode(const struct tap_batch *b, char *buf, size_t size);
/* Knobs tap_uring=on|off and tap_batch=1..64 (-EINVAL for a bad value,
 * -ENOENT for other keys), and their table. */
extern const struct ethdrv_knob_table tap_batch_knob_table;
int tap_batch_set(struct tap_batch *b, const char *key, const char *value);
int tap_batch_get(const struct tap_batch *b, const char *key, char *buf, size_t size);

#endif /* ETHDRV_TOOLS_TAP_BATCH_H */
