// SPDX-License-Identifier: MIT
/*
 * Packet pool (docs/style.md S9): one array of packets allocated at setup and a
 * lock-free free stack of their indices (a Treiber stack). The head word is
 * (ABA tag << 32 | top index); every push and pop bumps the tag, so a CAS
 * that read a stale head fails even when the same index is back on top. The
 * links live in a separate array, so a packet's bytes are never read while
 * another thread owns it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ethdrv/log.h"
#include "ethdrv/pkt.h"

ETHDRV_LOG_MODULE(pkt);

#define PKT_POOL_MAX 1048576u
#define PKT_NIL UINT32_MAX /* empty stack / end of the links */

struct ethdrv_pkt_pool {
	struct ethdrv_pkt *pkts; /* the packets, one calloc or the caller's memory */
	bool own_pkts; /* pkts was allocated here (not ethdrv_pkt_pool_new_in()) */
	uint32_t *link; /* link[i]: index below i on the free stack (atomic) */
	uint64_t head; /* tag << 32 | top index, PKT_NIL when empty (atomic) */
	unsigned size; /* packets in the pool */
	unsigned avail; /* packets free now; never below the stack depth (atomic) */
	unsigned min_avail; /* lowest avail seen (atomic) */
	uint64_t allocs; /* successful allocations (atomic) */
	uint64_t alloc_failed; /* allocations that found the stack empty (atomic) */
	uint64_t double_frees; /* frees of a packet already free (atomic) */
};

static uint64_t pool_head_make(uint64_t old, uint32_t idx)
{
	return (((old >> 32) + 1) << 32) | idx;
}

/* Pops the top index, or returns PKT_NIL when the stack is empty. */
static uint32_t pool_pop(struct ethdrv_pkt_pool *pool)
{
	uint64_t old = __atomic_load_n(&pool->head, __ATOMIC_ACQUIRE);
	uint64_t new;
	uint32_t idx;

	do {
		idx = (uint32_t)old;
		if (idx == PKT_NIL)
			return PKT_NIL;
		/* A stale link is harmless: the tag makes the CAS fail then. */
		new = pool_head_make(old, __atomic_load_n(&pool->link[idx], __ATOMIC_RELAXED));
	} while (!__atomic_compare_exchange_n(&pool->head, &old, new, true, __ATOMIC_ACQUIRE,
					      __ATOMIC_ACQUIRE));
	return idx;
}

static void pool_push(struct ethdrv_pkt_pool *pool, uint32_t idx)
{
	uint64_t old = __atomic_load_n(&pool->head, __ATOMIC_RELAXED);

	do {
		__atomic_store_n(&pool->link[idx], (uint32_t)old, __ATOMIC_RELAXED);
	} while (!__atomic_compare_exchange_n(&pool->head, &old, pool_head_make(old, idx), true,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

static void pool_note_avail(struct ethdrv_pkt_pool *pool, unsigned avail)
{
	unsigned min = __atomic_load_n(&pool->min_avail, __ATOMIC_RELAXED);

	while (avail < min && !__atomic_compare_exchange_n(&pool->min_avail, &min, avail, true,
							   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* A pool around @pkts (zeroed storage for @count packets). */
static int pool_create(struct ethdrv_pkt *pkts, bool own, unsigned count,
		       struct ethdrv_pkt_pool **out)
{
	struct ethdrv_pkt_pool *pool;

	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	pool->link = calloc(count, sizeof(*pool->link));
	if (!pool->link) {
		free(pool);
		return -ENOMEM;
	}
	pool->pkts = pkts;
	pool->own_pkts = own;
	for (unsigned i = 0; i < count; i++) {
		pool->pkts[i].pool = pool;
		pool->pkts[i].flags = ETHDRV_PKT_F_FREE;
		pool->link[i] = i + 1 < count ? i + 1 : PKT_NIL;
	}
	pool->head = 0; /* index 0 on top, tag 0 */
	pool->size = pool->avail = pool->min_avail = count;
	*out = pool;
	return 0;
}

ETHDRV_EXPORT int ethdrv_pkt_pool_new(unsigned count, struct ethdrv_pkt_pool **out)
{
	struct ethdrv_pkt *pkts;
	int ret;

	if (!out || count == 0 || count > PKT_POOL_MAX)
		return -EINVAL;
	pkts = calloc(count, sizeof(*pkts));
	if (!pkts)
		return -ENOMEM;
	ret = pool_create(pkts, true, count, out);
	if (ret)
		free(pkts);
	return ret;
}

ETHDRV_EXPORT int ethdrv_pkt_pool_new_in(void *mem, size_t size, unsigned count,
					 struct ethdrv_pkt_pool **out)
{
	if (!out || !mem || count == 0 || count > PKT_POOL_MAX ||
	    (uintptr_t)mem % _Alignof(struct ethdrv_pkt) ||
	    size / sizeof(struct ethdrv_pkt) < count)
		return -EINVAL;
	memset(mem, 0, count * sizeof(struct ethdrv_pkt));
	return pool_create(mem, false, count, out);
}

ETHDRV_EXPORT void ethdrv_pkt_pool_free(struct ethdrv_pkt_pool *pool)
{
	unsigned out;

	if (!pool)
		return;
	out = pool->size - ethdrv_pkt_pool_avail(pool);
	if (out) {
		/* Owners may still touch them: leak the pool rather than free it under them. */
		ethdrv_err(NULL, "pool of %u freed with %u packets still out: leaking it",
			   pool->size, out);
		return;
	}
	free(pool->link);
	if (pool->own_pkts)
		free(pool->pkts);
	free(pool);
}

ETHDRV_EXPORT struct ethdrv_pkt *ethdrv_pkt_alloc(struct ethdrv_pkt_pool *pool)
{
	struct ethdrv_pkt *pkt;
	uint32_t idx = pool_pop(pool);

	if (idx == PKT_NIL) {
		__atomic_fetch_add(&pool->alloc_failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	pool_note_avail(pool, __atomic_sub_fetch(&pool->avail, 1, __ATOMIC_RELAXED));
	__atomic_fetch_add(&pool->allocs, 1, __ATOMIC_RELAXED);
	pkt = &pool->pkts[idx];
	__atomic_store_n(&pkt->flags, 0, __ATOMIC_RELAXED);
	pkt->next = NULL;
	pkt->data = pkt->buf + ETHDRV_PKT_HEADROOM;
	pkt->len = 0;
	pkt->ts_ns = 0;
	return pkt;
}

ETHDRV_EXPORT void ethdrv_pkt_free(struct ethdrv_pkt *pkt)
{
	struct ethdrv_pkt_pool *pool;
	size_t idx;

	if (!pkt)
		return;
	pool = pkt->pool;
	idx = (size_t)(pkt - pool->pkts);
	if (__atomic_exchange_n(&pkt->flags, ETHDRV_PKT_F_FREE, __ATOMIC_ACQ_REL) &
	    ETHDRV_PKT_F_FREE) {
		__atomic_fetch_add(&pool->double_frees, 1, __ATOMIC_RELAXED);
		ethdrv_err_ratelimited(NULL, "double free of packet %zu ignored", idx);
		return;
	}
	/* Count it free before it is poppable, so avail never underflows. */
	__atomic_fetch_add(&pool->avail, 1, __ATOMIC_RELAXED);
	pool_push(pool, (uint32_t)idx);
}

ETHDRV_EXPORT void ethdrv_pkt_pool_get_stats(const struct ethdrv_pkt_pool *pool,
					     struct ethdrv_pkt_pool_stats *st)
{
	st->size = pool->size;
	st->avail = __atomic_load_n(&pool->avail, __ATOMIC_RELAXED);
	st->min_avail = __atomic_load_n(&pool->min_avail, __ATOMIC_RELAXED);
	st->allocs = __atomic_load_n(&pool->allocs, __ATOMIC_RELAXED);
	st->alloc_failed = __atomic_load_n(&pool->alloc_failed, __ATOMIC_RELAXED);
	st->double_frees = __atomic_load_n(&pool->double_frees, __ATOMIC_RELAXED);
}

ETHDRV_EXPORT unsigned ethdrv_pkt_pool_avail(const struct ethdrv_pkt_pool *pool)
{
	return __atomic_load_n(&pool->avail, __ATOMIC_RELAXED);
}

ETHDRV_EXPORT unsigned ethdrv_pkt_queue_purge(struct ethdrv_pkt_queue *q)
{
	struct ethdrv_pkt *pkt;
	unsigned n = 0;

	while ((pkt = ethdrv_pkt_queue_pop(q))) {
		ethdrv_pkt_free(pkt);
		n++;
	}
	return n;
}
