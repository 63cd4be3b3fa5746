/* SPDX-License-Identifier: MIT */
/*
 * Packet buffers: a fixed pool allocated once at setup; the datapath never
 * calls malloc (docs/style.md S9, ixy mempool, lwIP PBUF_POOL). Alloc and free
 * are safe from any thread. A packet queue is a singly linked FIFO that
 * costs no allocation either.
 */
#ifndef ETHDRV_PKT_H
#define ETHDRV_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

/* Room for a 1522-byte VLAN frame plus FCS and a timestamp, with margin. */
#define ETHDRV_PKT_DATA_MAX 1600
/* Bytes reserved before data for headers a layer may prepend. */
#define ETHDRV_PKT_HEADROOM 64

struct ethdrv_pkt_pool;

struct ethdrv_pkt {
	struct ethdrv_pkt *next; /* queue link; belongs to the current owner */
	struct ethdrv_pkt_pool *pool; /* the pool it returns to */
	uint8_t *data; /* first byte of the frame, inside buf */
	uint32_t len; /* frame length in bytes, without FCS unless stated */
	uint32_t flags; /* ETHDRV_PKT_F_* */
	uint64_t ts_ns; /* owner-defined timestamp (CLOCK_MONOTONIC ns) */
	uint8_t buf[ETHDRV_PKT_HEADROOM + ETHDRV_PKT_DATA_MAX]; /* storage */
};

/* The packet is in a pool's free list (set by the pool; a double free is
 * detected and counted instead of corrupting the list). */
#define ETHDRV_PKT_F_FREE (1u << 0)
/* A flag whose meaning the driver that holds the packet defines (cleared by
 * the pool on alloc and free), e.g. OA_TC6_PKT_F_TX_STARTED. */
#define ETHDRV_PKT_F_DRIVER_PRIVATE (1u << 8)

/**
 * ethdrv_pkt_pool_new() - allocate a pool of @count packet buffers
 * @count: number of buffers, 1..1048576
 * @out: receives the pool
 *
 * Return: 0, -EINVAL for a bad @count, or -ENOMEM.
 * Context: setup; allocates.
 */
ETHDRV_EXPORT int ethdrv_pkt_pool_new(unsigned count, struct ethdrv_pkt_pool **out);

/**
 * ethdrv_pkt_pool_new_in() - a pool whose packets live in caller memory
 * @mem: storage for the packets, aligned for struct ethdrv_pkt; typically
 *       DMA memory a device reaches (mmio.h), so buffers need no copy
 * @size: bytes at @mem; at least @count * sizeof(struct ethdrv_pkt)
 * @count: number of buffers, 1..1048576
 * @out: receives the pool
 *
 * The packets are zeroed and used in place; @mem must outlive the pool and
 * is not freed by ethdrv_pkt_pool_free().
 *
 * Return: 0, -EINVAL for a bad argument or too small @mem, or -ENOMEM.
 * Context: setup; allocates the pool's bookkeeping.
 */
ETHDRV_EXPORT int ethdrv_pkt_pool_new_in(void *mem, size_t size, unsigned count,
					 struct ethdrv_pkt_pool **out);

/**
 * ethdrv_pkt_pool_free() - release a pool
 * @pool: the pool, or NULL
 *
 * Every packet must have been returned; packets still out are reported in
 * one log line (they are leaked, not freed under their owner).
 * Context: teardown, no concurrent users.
 */
ETHDRV_EXPORT void ethdrv_pkt_pool_free(struct ethdrv_pkt_pool *pool);

/**
 * ethdrv_pkt_alloc() - take a buffer from @pool
 * @pool: the pool
 *
 * The packet comes back with data at the headroom, len 0, flags 0, ts_ns 0
 * and next NULL.
 *
 * Return: the packet, or NULL when the pool is empty (counted in
 * alloc_failed; the caller counts its own drop).
 * Context: any thread; lock-free fast path, no allocation.
 */
ETHDRV_EXPORT struct ethdrv_pkt *ethdrv_pkt_alloc(struct ethdrv_pkt_pool *pool);

/**
 * ethdrv_pkt_free() - return a packet to its pool
 * @pkt: the packet, or NULL
 *
 * Context: any thread.
 */
ETHDRV_EXPORT void ethdrv_pkt_free(struct ethdrv_pkt *pkt);

/* Pool occupancy and health counters. */
struct ethdrv_pkt_pool_stats {
	unsigned size; /* buffers in the pool */
	unsigned avail; /* buffers free now */
	unsigned min_avail; /* lowest avail seen (high-water mark of use) */
	uint64_t allocs; /* successful allocations */
	uint64_t alloc_failed; /* allocations that found the pool empty */
	uint64_t double_frees; /* frees of a packet already free (ignored) */
};

/**
 * ethdrv_pkt_pool_get_stats() - snapshot of @pool's counters
 * @pool: the pool
 * @st: filled in
 */
ETHDRV_EXPORT void ethdrv_pkt_pool_get_stats(const struct ethdrv_pkt_pool *pool,
					     struct ethdrv_pkt_pool_stats *st);

/**
 * ethdrv_pkt_pool_avail() - buffers free now
 * @pool: the pool
 *
 * Return: the count; equals the pool size when every packet is back.
 */
ETHDRV_EXPORT unsigned ethdrv_pkt_pool_avail(const struct ethdrv_pkt_pool *pool);

/**
 * ethdrv_pkt_tailroom() - bytes that may still be appended after data+len
 * @pkt: the packet
 */
static inline size_t ethdrv_pkt_tailroom(const struct ethdrv_pkt *pkt)
{
	return (size_t)(pkt->buf + sizeof(pkt->buf) - (pkt->data + pkt->len));
}

/* A FIFO of packets linked through pkt->next. Not thread-safe. */
struct ethdrv_pkt_queue {
	struct ethdrv_pkt *head; /* oldest */
	struct ethdrv_pkt *tail; /* newest */
	unsigned count; /* packets queued */
	size_t bytes; /* sum of len */
};

static inline void ethdrv_pkt_queue_init(struct ethdrv_pkt_queue *q)
{
	q->head = q->tail = NULL;
	q->count = 0;
	q->bytes = 0;
}

static inline void ethdrv_pkt_queue_push(struct ethdrv_pkt_queue *q, struct ethdrv_pkt *pkt)
{
	pkt->next = NULL;
	if (q->tail)
		q->tail->next = pkt;
	else
		q->head = pkt;
	q->tail = pkt;
	q->count++;
	q->bytes += pkt->len;
}

static inline struct ethdrv_pkt *ethdrv_pkt_queue_pop(struct ethdrv_pkt_queue *q)
{
	struct ethdrv_pkt *pkt = q->head;

	if (!pkt)
		return NULL;
	q->head = pkt->next;
	if (!q->head)
		q->tail = NULL;
	pkt->next = NULL;
	q->count--;
	q->bytes -= pkt->len;
	return pkt;
}

/**
 * ethdrv_pkt_queue_purge() - free every packet in @q
 * @q: the queue
 *
 * Return: the number of packets freed, so the caller can count them.
 */
ETHDRV_EXPORT unsigned ethdrv_pkt_queue_purge(struct ethdrv_pkt_queue *q);

#endif /* ETHDRV_PKT_H */
