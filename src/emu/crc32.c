// SPDX-License-Identifier: MIT
/*
 * IEEE 802.3 CRC-32 of the reflected polynomial 0xEDB88320, eight bytes a
 * step: eight 256-entry tables, table k the CRC of a byte followed by k zero
 * bytes, so one step is eight independent look-ups instead of sixteen
 * dependent nibble steps. The eTSEC model computes one FCS per received
 * frame under the engine lock, in whichever thread catches the engine up,
 * so its cost per byte is paid at line rate under that lock.
 */
#include <pthread.h>

#include "crc32.h"

#define CRC32_POLY 0xEDB88320u

static uint32_t crc32_tab[8][256];
static pthread_once_t crc32_once = PTHREAD_ONCE_INIT;

static void crc32_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (unsigned b = 0; b < 8; b++)
			c = c & 1 ? (c >> 1) ^ CRC32_POLY : c >> 1;
		crc32_tab[0][i] = c;
	}
	for (unsigned k = 1; k < 8; k++)
		for (unsigned i = 0; i < 256; i++)
			crc32_tab[k][i] = (crc32_tab[k - 1][i] >> 8) ^
					  crc32_tab[0][crc32_tab[k - 1][i] & 0xFF];
}

/* Four bytes as a little-endian word, whatever the host's order. */
static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t emu_crc32(const uint8_t *p, size_t len)
{
	const uint32_t(*t)[256] = (const uint32_t(*)[256])crc32_tab;
	uint32_t c = 0xFFFFFFFFu;

	pthread_once(&crc32_once, crc32_init);
	for (; len >= 8; p += 8, len -= 8) {
		uint32_t lo = c ^ le32(p), hi = le32(p + 4);

		c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
		    t[4][lo >> 24] ^ t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^
		    t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
	}
	while (len--)
		c = (c >> 8) ^ t[0][(c ^ *p++) & 0xFF];
	return ~c;
}

void emu_fcs_append(uint8_t *frame, size_t len)
{
	uint32_t c = emu_crc32(frame, len);

	for (unsigned i = 0; i < 4; i++)
		frame[len + i] = (uint8_t)(c >> (8 * i));
}

bool emu_fcs_ok(const uint8_t *frame, size_t len)
{
	uint32_t c;

	if (len < 4)
		return false;
	c = emu_crc32(frame, len - 4);
	for (unsigned i = 0; i < 4; i++)
		if (frame[len - 4 + i] != (uint8_t)(c >> (8 * i)))
			return false;
	return true;
}
