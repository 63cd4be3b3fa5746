/* SPDX-License-Identifier: MIT */
/*
 * A real-time host for the ENET MDIO block alone (enet_mdio.h), for tests
 * and benchmarks until the ENET model embeds the block: the four registers
 * an MDIO driver touches (EIR 0x004 for the MII bit, EIMR 0x008, MMFR
 * 0x040, MSCR 0x044) as 32-bit accesses on CLOCK_MONOTONIC, a thread that
 * completes each frame at its end time, and the interrupt line (an
 * eventfd, readable while EIR.MII & EIMR.MII), as the ENET model will
 * provide them (docs/mdio.md §3, §11).
 *
 * enet_mdio_sim_ops is a controller over those registers written the way
 * a fec MDIO driver does it (clear EIR.MII, write MMFR, test EIR.MII, read
 * MMFR; EIMR.MII for irq mode; docs/mdio.md §4.2): the driver-side ops of
 * the follow-up fec driver do the same over MMIO.
 *
 * Locking: one lock per host; any thread may access the registers.
 */
#ifndef ETHDRV_EMU_ENET_MDIO_SIM_H
#define ETHDRV_EMU_ENET_MDIO_SIM_H

#include <stdint.h>
#include "enet_mdio.h"
#include "ethdrv/mdio.h"

#define ENET_MDIO_SIM_REG_EIR 0x004u /* docs/enet.md §1.1 */
#define ENET_MDIO_SIM_REG_EIMR 0x008u

struct enet_mdio_sim;

struct enet_mdio_sim_config {
	struct enet_mdio_config mdio; /* the block's settings */
	uint64_t access_ns; /* cost of one register access (interconnect), spun; default 0 */
};

/** enet_mdio_sim_config_default() - block defaults, access_ns 0. */
void enet_mdio_sim_config_default(struct enet_mdio_sim_config *cfg);

/**
 * enet_mdio_sim_new() - host the block in real time, frames going to @bus
 * @cfg: settings (NULL: defaults)
 * @bus: the MDIO bus model
 * @out: receives the host
 *
 * Return: 0, -EINVAL, -ENOMEM, or the -errno of eventfd/pthread_create.
 */
int enet_mdio_sim_new(const struct enet_mdio_sim_config *cfg, struct mdio_emu *bus,
		      struct enet_mdio_sim **out);

/** enet_mdio_sim_free() - stop the thread and free (NULL is ignored). */
void enet_mdio_sim_free(struct enet_mdio_sim *sim);

/** enet_mdio_sim_read32() - read EIR, EIMR, MMFR or MSCR (others read 0). */
uint32_t enet_mdio_sim_read32(struct enet_mdio_sim *sim, uint32_t off);

/** enet_mdio_sim_write32() - write EIR (W1C MII), EIMR, MMFR or MSCR. */
void enet_mdio_sim_write32(struct enet_mdio_sim *sim, uint32_t off, uint32_t val);

/** enet_mdio_sim_irq_fd() - the interrupt line (EIR.MII & EIMR.MII). */
int enet_mdio_sim_irq_fd(struct enet_mdio_sim *sim);

/** enet_mdio_sim_frame_ns() - one frame at the current MSCR (0: MDC off). */
uint64_t enet_mdio_sim_frame_ns(struct enet_mdio_sim *sim);

/** enet_mdio_sim_get_stats() - the block's counters. */
void enet_mdio_sim_get_stats(struct enet_mdio_sim *sim, struct enet_mdio_stats *st);

/* The controller ops over the registers (ctx = the struct enet_mdio_sim). */
extern const struct ethdrv_mdio_ops enet_mdio_sim_ops;

#endif /* ETHDRV_EMU_ENET_MDIO_SIM_H */
