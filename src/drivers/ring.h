/* SPDX-License-Identifier: MIT */
/*
 * Descriptor ring arithmetic shared by the ring-MAC drivers (docs/style.md S9,
 * ixy wrap_ring, arc_emac_tx_avail): rings have a power-of-two size and are
 * indexed by free-running unsigned counters, so "used" is a plain
 * subtraction that stays right across the counters' wrap.
 */
#ifndef ETHDRV_DRIVERS_RING_H
#define ETHDRV_DRIVERS_RING_H

#include <stdbool.h>

#include "ethdrv/driver.h"
#include "ethdrv/pkt.h"

/* True if @size can be a ring: a power of two, at least 2. */
static inline bool ring_size_ok(unsigned size)
{
	return size >= 2 && !(size & (size - 1));
}

/* Slot of free-running position @pos in a ring of @size. */
static inline unsigned ring_slot(unsigned pos, unsigned size)
{
	return pos & (size - 1);
}

/* Entries between consumer @tail and producer @head. */
static inline unsigned ring_used(unsigned head, unsigned tail)
{
	return head - tail;
}

/* Entries the producer may still fill. */
static inline unsigned ring_free(unsigned head, unsigned tail, unsigned size)
{
	return size - ring_used(head, tail);
}

/* True if @pos is the last slot, the one whose descriptor carries the wrap bit. */
static inline bool ring_is_last(unsigned pos, unsigned size)
{
	return ring_slot(pos, size) == size - 1;
}

/*
 * The stop/wake protocol of a TX ring whose producer (start_xmit) and
 * consumer (completion, maybe a poller thread) run in different threads,
 * as netif_stop_queue users do (docs/napi.md §4.2): head is published with
 * release after the descriptor, tail with seq_cst against the "stopped"
 * flag, so a completion racing a stop always sees it.
 */

/* Entries the producer may fill, from its own @head and the consumer's @tail. */
static inline unsigned ring_tx_free(const unsigned *head, const unsigned *tail, unsigned size)
{
	return ring_free(__atomic_load_n(head, __ATOMIC_RELAXED),
			 __atomic_load_n(tail, __ATOMIC_SEQ_CST), size);
}

/* Wake the queue the driver stopped once half the ring is free; @wakes counts it. */
static inline void ring_tx_wake_check(struct ethdrv_netdev *dev, const unsigned *head,
				      const unsigned *tail, unsigned size, int *stopped,
				      ethdrv_counter_t *wakes)
{
	if (!__atomic_load_n(stopped, __ATOMIC_SEQ_CST) ||
	    ring_tx_free(head, tail, size) < size / 2)
		return;
	if (__atomic_exchange_n(stopped, 0, __ATOMIC_SEQ_CST)) {
		ethdrv_counter_inc(wakes);
		ethdrv_netdev_tx_wake(dev);
	}
}

/* Ring full: stop the queue (netif_stop_queue), then re-check against a racing completion. */
static inline void ring_tx_stop(struct ethdrv_netdev *dev, const unsigned *head,
				const unsigned *tail, unsigned size, int *stopped,
				ethdrv_counter_t *fulls, ethdrv_counter_t *wakes)
{
	__atomic_store_n(stopped, 1, __ATOMIC_SEQ_CST);
	ethdrv_netdev_tx_stop(dev);
	ethdrv_counter_inc(fulls);
	ring_tx_wake_check(dev, head, tail, size, stopped, wakes);
}

/*
 * The DMA is stopped and the completed frames reclaimed: free (and count as
 * tx_dropped) the frames still between *@tail and @head, lift the driver's
 * stop and reset the queue's byte limits. The ring is then empty.
 */
static inline void ring_tx_drop_rest(struct ethdrv_netdev *dev, struct ethdrv_pkt **pkt,
				     unsigned *tail, unsigned head, unsigned size, int *stopped)
{
	unsigned dropped = 0;

	while (*tail != head) {
		unsigned slot = ring_slot(*tail, size);

		ethdrv_pkt_free(pkt[slot]);
		pkt[slot] = NULL;
		(*tail)++;
		dropped++;
	}
	ethdrv_counter_add(&dev->stats.tx_dropped, dropped);
	/* The queue's driver stop is lifted by whoever brings the ring up again. */
	__atomic_store_n(stopped, 0, __ATOMIC_SEQ_CST);
	ethdrv_netdev_tx_reset(dev);
}

#endif /* ETHDRV_DRIVERS_RING_H */
