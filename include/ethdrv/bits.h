/* SPDX-License-Identifier: MIT */
/*
 * Register field helpers in the style of the kernel's bits.h and bitfield.h
 * (docs/style.md S2): define fields with ETHDRV_BIT()/ETHDRV_GENMASK() and access
 * them only through ETHDRV_FIELD_PREP()/ETHDRV_FIELD_GET().
 */
#ifndef ETHDRV_BITS_H
#define ETHDRV_BITS_H

#include <stdint.h>

#define ETHDRV_BIT(n) (UINT32_C(1) << (n))
/* Bits h..l inclusive set, for 32-bit registers. */
#define ETHDRV_GENMASK(h, l) ((~UINT32_C(0) >> (31 - (h))) & (~UINT32_C(0) << (l)))

/* Index of the lowest set bit of a non-zero constant mask. */
#define ETHDRV__MASK_SHIFT(mask) ((unsigned)__builtin_ctz(mask))
/* Place @val into the field @mask. */
#define ETHDRV_FIELD_PREP(mask, val) ((((uint32_t)(val)) << ETHDRV__MASK_SHIFT(mask)) & (mask))
/* Extract the field @mask from @reg. */
#define ETHDRV_FIELD_GET(mask, reg) ((((uint32_t)(reg)) & (mask)) >> ETHDRV__MASK_SHIFT(mask))

/* Odd parity over the 32-bit word with bit 0 cleared: the bit value that
 * makes the whole word have an odd number of ones (docs/tc6.md §1.3). */
static inline uint32_t ethdrv_odd_parity_bit(uint32_t word)
{
	return (uint32_t) !(__builtin_popcount(word & ~UINT32_C(1)) & 1);
}

#endif /* ETHDRV_BITS_H */
