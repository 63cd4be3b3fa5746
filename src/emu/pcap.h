/* SPDX-License-Identifier: MIT */
/*
 * A capture writer for what crosses an emulated medium: classic pcap with
 * nanosecond timestamps (magic 0xa1b23c4d, version 2.4, snaplen 65535,
 * LINKTYPE_ETHERNET), readable by tcpdump and Wireshark. Frames are written
 * without their 4-byte FCS, as those tools expect for link type 1.
 *
 * Not thread-safe: one writer (the medium thread) per capture.
 */
#ifndef ETHDRV_EMU_PCAP_H
#define ETHDRV_EMU_PCAP_H

#include <stddef.h>
#include <stdint.h>

#define EMU_PCAP_MAGIC_NS 0xa1b23c4du /* nanosecond-resolution pcap */
#define EMU_PCAP_SNAPLEN 65535u
#define EMU_PCAP_LINKTYPE_ETHERNET 1u
#define EMU_PCAP_FCS_LEN 4u /* stripped from every record */

struct emu_pcap;

/**
 * emu_pcap_open() - create (truncate) @path and write the global header
 * @path: file to write
 * @out: receives the capture
 *
 * Timestamps given to emu_pcap_write() are CLOCK_MONOTONIC ns; they are
 * converted to wall-clock time with a CLOCK_REALTIME offset measured here,
 * once. Call emu_pcap_set_virtual() for a virtual timeline instead.
 *
 * Return: 0, -EINVAL for a NULL argument, -ENOMEM, or the -errno of
 * fopen/fwrite.
 * Context: setup.
 */
int emu_pcap_open(const char *path, struct emu_pcap **out);

/**
 * emu_pcap_set_virtual() - timestamps are virtual ns from 0, added to the
 * wall-clock time of emu_pcap_open()
 * @p: the capture
 */
void emu_pcap_set_virtual(struct emu_pcap *p);

/**
 * emu_pcap_write() - append one frame
 * @p: the capture
 * @t_ns: when the frame started on the wire (see emu_pcap_open())
 * @frame: the frame as on the wire, FCS included
 * @len: its length with FCS; the record holds @len - 4 bytes
 *
 * A failed write is counted (emu_pcap_errors()) and logged once.
 *
 * Return: 0, -EINVAL for a NULL frame, or the -errno of the write (EIO
 * when the C library gives none).
 * Context: the capture's one writer thread.
 */
int emu_pcap_write(struct emu_pcap *p, uint64_t t_ns, const uint8_t *frame, size_t len);

/** emu_pcap_errors() - number of writes that failed so far. */
uint64_t emu_pcap_errors(const struct emu_pcap *p);

/** emu_pcap_frames() - number of records written so far. */
uint64_t emu_pcap_frames(const struct emu_pcap *p);

/**
 * emu_pcap_close() - flush, close and free @p (NULL is ignored)
 * @p: the capture
 *
 * Return: 0, or the -errno of the final flush/close (the capture is freed
 * either way).
 */
int emu_pcap_close(struct emu_pcap *p);

#endif /* ETHDRV_EMU_PCAP_H */
