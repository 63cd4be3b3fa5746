/* SPDX-License-Identifier: MIT */
/*
 * The IEEE 802.3 CRC-32 one bit a step (reflected polynomial 0xEDB88320):
 * the tests' reference against which the models' table-driven CRC and
 * the FCS bytes they append are checked.
 */
#ifndef ETHDRV_TESTS_CRC32_REF_H
#define ETHDRV_TESTS_CRC32_REF_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t ref_crc32(const uint8_t *p, size_t len)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < len; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
	}
	return ~c;
}

#endif /* ETHDRV_TESTS_CRC32_REF_H */
