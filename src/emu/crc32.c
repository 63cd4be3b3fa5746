// SPDX-License-Identifier: MIT
/* IEEE 802.3 CRC-32, a nibble at a time (16-entry table of the reflected polynomial). */
#include "crc32.h"

static const uint32_t crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t emu_crc32(const uint8_t *p, size_t len)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < len; i++) {
		c ^= p[i];
		c = (c >> 4) ^ crc32_nibble[c & 0xF];
		c = (c >> 4) ^ crc32_nibble[c & 0xF];
	}
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
