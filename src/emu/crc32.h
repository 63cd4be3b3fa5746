/* SPDX-License-Identifier: MIT */
/*
 * Ethernet FCS: IEEE 802.3 CRC-32 (polynomial 0x04C11DB7 bit-reflected =
 * 0xEDB88320, initial value and final XOR 0xFFFFFFFF). The FCS goes on the
 * wire least significant byte first.
 */
#ifndef ETHDRV_EMU_CRC32_H
#define ETHDRV_EMU_CRC32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * emu_crc32() - CRC-32 of @len bytes at @p ("123456789" gives 0xCBF43926)
 * @p: data
 * @len: bytes
 *
 * Return: the CRC (already complemented).
 */
uint32_t emu_crc32(const uint8_t *p, size_t len);

/**
 * emu_fcs_append() - write the FCS of @len bytes at @frame + @len (4 bytes)
 * @frame: the frame, with 4 bytes of room after @len
 * @len: bytes covered
 */
void emu_fcs_append(uint8_t *frame, size_t len);

/**
 * emu_fcs_ok() - does the frame's last 4 bytes hold the FCS of the rest?
 * @frame: the frame incl. FCS
 * @len: its length; false if below 4
 */
bool emu_fcs_ok(const uint8_t *frame, size_t len);

#endif /* ETHDRV_EMU_CRC32_H */
