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

#endif /* ETHDRV_DRIVERS_RING_H */
