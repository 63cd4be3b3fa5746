/* SPDX-License-Identifier: MIT */
/*
 * Model of an MDIO bus (IEEE 802.3 clause 22 and clause 45 management
 * frames, docs/mdio.md §1): up to 32 device addresses, each holding a device
 * model reached through struct mdio_emu_dev_ops. A controller model (the
 * ENET MDIO block, enet_mdio.h) hands it one frame at a time, as the 32
 * bits that follow the preamble on the wire (ST OP PHYAD REGAD TA DATA, the
 * same layout as the ENET MMFR register, docs/enet.md §5), at the model
 * time the frame ends.
 *
 * What it models:
 * - an address nobody answers reads 0xFFFF: MDIO is pulled up, and a read
 *   frame nobody drives returns all ones (docs/mdio.md §1.3);
 * - frames with an invalid start (ST = 1x), an invalid clause-22 opcode
 *   (00, 11) or a turnaround field other than 10 are not answered by any
 *   device (counted in bad_frames; a read returns 0xFFFF);
 * - a frame sent without preamble is answered only by devices attached
 *   with MDIO_EMU_DEV_PREAMBLE_SUPPRESSION (the PHY's BMSR bit 6, IEEE
 *   22.2.4.2.9; docs/mdio.md §1.2);
 * - clause 45: every (address, MMD) pair has its own address register set
 *   by an address frame; a read-increment frame advances it after the read
 *   (docs/mdio.md §1.1). Devices without c45 ops do not answer clause-45
 *   frames.
 *
 * Locking: none. Attach and detach at setup only; mdio_emu_transfer() is
 * called under the controller model's lock, and the device ops take their
 * own locks where a device is also reached from another thread.
 */
#ifndef ETHDRV_EMU_MDIO_EMU_H
#define ETHDRV_EMU_MDIO_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/stats.h"

#define MDIO_EMU_ADDRS 32u /* PHYAD/PRTAD is 5 bits */
#define MDIO_EMU_NONE 0xFFFFu /* what a read nobody answers returns */

/* The frame word after the preamble (docs/mdio.md §1.1, docs/enet.md §5). */
#define MDIO_EMU_FRAME_ST 0xC0000000u /* start: 01 clause 22, 00 clause 45 */
#define MDIO_EMU_FRAME_OP 0x30000000u /* opcode */
#define MDIO_EMU_FRAME_PA 0x0F800000u /* PHY / port address */
#define MDIO_EMU_FRAME_RA 0x007C0000u /* register / MMD (device) address */
#define MDIO_EMU_FRAME_TA 0x00030000u /* turnaround, 10 in a valid frame */
#define MDIO_EMU_FRAME_DATA 0x0000FFFFu /* data or clause-45 address */

#define MDIO_EMU_ST_C45 0u
#define MDIO_EMU_ST_C22 1u
#define MDIO_EMU_OP_C22_WRITE 1u
#define MDIO_EMU_OP_C22_READ 2u
#define MDIO_EMU_OP_C45_ADDR 0u
#define MDIO_EMU_OP_C45_WRITE 1u
#define MDIO_EMU_OP_C45_READ_INC 2u
#define MDIO_EMU_OP_C45_READ 3u
#define MDIO_EMU_TA_VALID 2u

/* A device attached to the bus. @now_ns is the model time of the access. */
struct mdio_emu_dev_ops {
	/** Clause-22 read of register @reg (0..31). */
	uint16_t (*c22_read)(void *dev, unsigned reg, uint64_t now_ns);
	/** Clause-22 write of register @reg (0..31). */
	void (*c22_write)(void *dev, unsigned reg, uint16_t val, uint64_t now_ns);
	/** Clause-45 read of @reg in MMD @mmd (0..31); NULL: no clause 45. */
	uint16_t (*c45_read)(void *dev, unsigned mmd, uint16_t reg, uint64_t now_ns);
	/** Clause-45 write of @reg in MMD @mmd; NULL with c45_read. */
	void (*c45_write)(void *dev, unsigned mmd, uint16_t reg, uint16_t val, uint64_t now_ns);
};

/* The device answers frames sent without preamble (docs/mdio.md §1.2). */
#define MDIO_EMU_DEV_PREAMBLE_SUPPRESSION 0x1u

/* Counters; monotonic since mdio_emu_new(). */
struct mdio_emu_stats {
	ethdrv_counter_t frames; /* frames seen */
	ethdrv_counter_t c22_reads; /* clause-22 reads a device answered */
	ethdrv_counter_t c22_writes; /* clause-22 writes a device took */
	ethdrv_counter_t c45_frames; /* clause-45 frames a device took */
	ethdrv_counter_t no_device; /* frames to an address (or MMD space) nobody answers */
	ethdrv_counter_t bad_frames; /* invalid ST, opcode or turnaround */
	ethdrv_counter_t no_preamble_ignored; /* frames without preamble a device ignored */
};

extern const struct ethdrv_stat_desc mdio_emu_stats_desc[];
extern const size_t mdio_emu_stats_desc_count;

struct mdio_emu;

/**
 * mdio_emu_new() - an empty bus
 * @out: receives the bus
 *
 * Return: 0, -EINVAL for a NULL @out, or -ENOMEM.
 */
int mdio_emu_new(struct mdio_emu **out);

/** mdio_emu_free() - free the bus (not the devices); NULL is ignored. */
void mdio_emu_free(struct mdio_emu *bus);

/**
 * mdio_emu_attach() - put a device at @addr
 * @bus: the bus
 * @addr: 0..31
 * @ops: its ops (c22_read and c22_write are required)
 * @dev: passed to the ops
 * @flags: MDIO_EMU_DEV_* bits
 *
 * Return: 0, -EINVAL (bad address, ops or flags) or -EBUSY if taken.
 * Context: setup.
 */
int mdio_emu_attach(struct mdio_emu *bus, unsigned addr, const struct mdio_emu_dev_ops *ops,
		    void *dev, unsigned flags);

/** mdio_emu_detach() - free @addr again (no-op when empty). Context: setup. */
void mdio_emu_detach(struct mdio_emu *bus, unsigned addr);

/**
 * mdio_emu_transfer() - one management frame on the wire
 * @bus: the bus
 * @frame: the 32 bits after the preamble (MDIO_EMU_FRAME_* fields)
 * @preamble: whether the 32-bit preamble preceded it
 * @now_ns: model time of the end of the frame
 *
 * Return: the 16 data bits as they were on the wire at the end of the
 * frame: for a read what the device drove (MDIO_EMU_NONE if nobody did),
 * for a write or address frame the controller's data.
 */
uint16_t mdio_emu_transfer(struct mdio_emu *bus, uint32_t frame, bool preamble, uint64_t now_ns);

/** mdio_emu_frame_is_read() - true if @frame asks a device to drive the data. */
bool mdio_emu_frame_is_read(uint32_t frame);

/** mdio_emu_get_stats() - copy the counters. */
void mdio_emu_get_stats(const struct mdio_emu *bus, struct mdio_emu_stats *st);

/**
 * mdio_emu_frame() - build a frame word from its fields (for tests and the
 * controller models; fields are masked to their widths, TA is set to 10)
 */
uint32_t mdio_emu_frame(unsigned st, unsigned op, unsigned pa, unsigned ra, uint16_t data);

#endif /* ETHDRV_EMU_MDIO_EMU_H */
