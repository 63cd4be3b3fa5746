/* SPDX-License-Identifier: MIT */
/*
 * The DMA faults of a ring MAC's model, injected at run time (`ethdrv set
 * NODE emu.inject=...`, docs/reliability.md §2), the same three for the
 * ENET, eTSEC and GbEth models:
 *   rx_exhaust[:N]  the next N frames (1..EMU_FAULT_EXHAUST_MAX, default 1)
 *                   find no empty RX descriptor;
 *   rx_bus_error    the next RX DMA access fails;
 *   tx_bus_error    the next TX DMA access fails.
 * Each model arms them here and asks, at its one injection point per
 * fault, whether the fault takes effect now; what that does to the
 * registers is the model's (its header lists it). A fault is counted when
 * it takes effect. The arming, the names and the parsing are this file's;
 * the state lives in the model under its engine's lock.
 */
#ifndef ETHDRV_EMU_EMU_FAULT_H
#define ETHDRV_EMU_EMU_FAULT_H

#include <stdbool.h>
#include <stdint.h>
#include "emu_engine.h"
#include "ethdrv/stats.h"

enum emu_fault {
	EMU_FAULT_RX_EXHAUST, /* the next @arg frames find no empty RX descriptor */
	EMU_FAULT_RX_BUS_ERROR, /* the next RX DMA access fails */
	EMU_FAULT_TX_BUS_ERROR, /* the next TX DMA access fails */
	EMU_FAULT_COUNT
};

#define EMU_FAULT_EXHAUST_MAX 1000000u /* frames one rx_exhaust may take */
#define EMU_FAULT_SYNTAX "rx_exhaust[:N]|rx_bus_error|tx_bus_error"

/* A model's armed faults (under its engine's lock). */
struct emu_faults {
	uint64_t rx_exhaust; /* frames still to drop as if no descriptor were empty */
	bool rx_bus_error; /* fail the next RX DMA access */
	bool tx_bus_error; /* fail the next TX DMA access */
};

/** emu_fault_name() - "rx_exhaust", "rx_bus_error", "tx_bus_error"; NULL out of range */
const char *emu_fault_name(enum emu_fault fault);

/**
 * emu_fault_parse() - a fault as `emu.inject` writes it
 * @text: "rx_exhaust[:N]" (N 1..EMU_FAULT_EXHAUST_MAX), "rx_bus_error" or "tx_bus_error"
 * @fault: receives the fault
 * @arg: receives N (1 without it; 0 for the bus errors)
 *
 * Return: 0, or -EINVAL for anything else (the accepted forms are EMU_FAULT_SYNTAX).
 */
int emu_fault_parse(const char *text, enum emu_fault *fault, uint64_t *arg);

/**
 * emu_fault_inject() - arm @fault under @eng's lock (any thread)
 * @eng: the model's engine
 * @fs: the model's faults
 * @fault: what
 * @arg: EMU_FAULT_RX_EXHAUST: frames, 1..EMU_FAULT_EXHAUST_MAX, added to those
 *       still armed; others: ignored
 *
 * Return: 0 or -EINVAL.
 */
int emu_fault_inject(struct emu_engine *eng, struct emu_faults *fs, enum emu_fault fault,
		     uint64_t arg);

/**
 * emu_fault_rx_exhaust() - the injection point of RX exhaustion (lock held)
 * @fs: the model's faults
 * @taken: the model's count of faults that took effect
 *
 * Return: true (and counted in @taken) when this frame must be dropped as if no RX
 * descriptor were empty.
 */
bool emu_fault_rx_exhaust(struct emu_faults *fs, ethdrv_counter_t *taken);

/**
 * emu_fault_bus_error() - the injection point of a bus error (lock held)
 * @fs: the model's faults
 * @tx: the TX side, else RX
 * @taken: the model's count of faults that took effect
 *
 * Return: true (and counted in @taken) when this DMA access must fail.
 */
bool emu_fault_bus_error(struct emu_faults *fs, bool tx, ethdrv_counter_t *taken);

#endif /* ETHDRV_EMU_EMU_FAULT_H */
