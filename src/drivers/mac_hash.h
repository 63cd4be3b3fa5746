/* SPDX-License-Identifier: MIT */
/*
 * The CRC the Motorola/Freescale MACs (ENET, eTSEC) index their address
 * hash tables with: IEEE CRC-32 of the 6 address bytes in its reflected
 * form, initial value all ones, no final inversion (docs/enet.md §1.1,
 * docs/etsec.md §4.6). Each driver takes its own bits of it.
 */
#ifndef ETHDRV_DRIVERS_MAC_HASH_H
#define ETHDRV_DRIVERS_MAC_HASH_H

#include <stdint.h>

static inline uint32_t mac_hash_crc(const uint8_t addr[6])
{
	uint32_t crc = 0xFFFFFFFFu;

	for (unsigned i = 0; i < 6; i++) {
		crc ^= addr[i];
		for (unsigned b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return crc;
}

#endif /* ETHDRV_DRIVERS_MAC_HASH_H */
