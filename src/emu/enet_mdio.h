/* SPDX-License-Identifier: MIT */
/*
 * The MDIO block of NXP's ENET controller (MMFR at 0x040, MSCR at 0x044 and
 * the MII event, EIR bit 23), written from docs/enet.md §5,
 * docs/napi.md §6.2 and the i.MX reference manual text summarised in
 * docs/mdio.md §3.
 * Standalone and passive, so the ENET model embeds it in a few lines:
 *
 *	struct enet_mdio mdio;                          (in the model's state)
 *	enet_mdio_init(&mdio, &cfg, bus);               (at creation)
 *	case 0x040: case 0x044: return enet_mdio_read(&mdio, off, now);
 *	case 0x040: case 0x044: enet_mdio_write(&mdio, off, val, now);
 *	EIR read:  eir | (enet_mdio_event(&mdio, now) ? ENET_MDIO_EIR_MII : 0)
 *	EIR write: if (val & ENET_MDIO_EIR_MII) enet_mdio_event_ack(&mdio, now);
 *	engine:    wake at enet_mdio_deadline_ns(); enet_mdio_advance(now),
 *	           then assert the IRQ line if EIR & EIMR
 *	ECR.RESET: enet_mdio_reset(&mdio, now)
 *
 * Time is the caller's model time in ns; it never runs back (an earlier
 * @now_ns is taken as the latest one seen). Every call first completes a
 * frame whose end time has passed, at its exact end time, so the result
 * does not depend on how often the host looks.
 *
 * Behaviour (docs/mdio.md §3):
 * - MDC = ipg_hz / ((MII_SPEED + 1) * 2) (docs/enet.md §5). A frame takes
 *   64 MDC cycles, or 32 with MSCR.DIS_PRE (no preamble): 25.6 / 12.8 us
 *   at 2.5 MHz (docs/napi.md §6.3). The frame reaches the bus model
 *   (mdio_emu) at its end; a read's data then replaces MMFR[15:0], the
 *   rest of MMFR keeps what was written; the MII event is set.
 * - A write to MMFR starts a frame only while MSCR[7:0] != 0; with
 *   MSCR[7:0] == 0 it is only stored (docs/napi.md §6.2).
 * - A write to MSCR that takes MSCR[7:0] from 0 to non-zero while MMFR != 0
 *   generates a frame with the MMFR contents, and so a later MII event
 *   (the i.MX reference manual; the "spurious MII event" of
 *   docs/napi.md §6.2). Switched by cfg.mscr_starts_frame (default on: the
 *   i.MX6/7/8 parts Linux applies its workaround to).
 * - MII_SPEED = 0 stops MDC (the reference manual): a frame started then
 *   (MSCR[7:0] != 0 through DIS_PRE) waits until MDC runs. A change of
 *   MII_SPEED during a frame times the remaining cycles at the new rate.
 * - The MII event is a latch: set at a frame's end, cleared only by
 *   enet_mdio_event_ack() (EIR write-1-to-clear) or a reset.
 * Assumptions where the manual is silent or vague (docs/mdio.md §3.3):
 * - A write to MMFR while a frame is shifting "alters the frame contents"
 *   (reference manual). Model: MMFR and the shift register take the new
 *   value; the bits already on the wire stay, the rest of the frame comes
 *   from the new value; the frame keeps its end time and raises one event;
 *   the device sees the mixed frame. Counted in busy_writes.
 * - MMFR read during a frame returns the value last written (the manual
 *   calls it unpredictable).
 * - MSCR.DIS_PRE is sampled when a frame starts; HOLDTIME is stored only
 *   (it shifts MDIO edges by module clocks, not the frame length).
 * - MSCR keeps bits 10:1; bit 0 and bits 31:11 read 0.
 * - A reset (ECR.RESET) aborts a frame in flight without an event (counted
 *   in frames_aborted); MSCR returns to 0 (drivers rewrite it after every
 *   reset), the event clears, MMFR keeps its value: the 2020 failure
 *   (docs/napi.md §6.2) needs MMFR != 0 after the reset that zeroed MSCR.
 *
 * Locking: none; the host (the ENET model) serialises calls with its lock.
 */
#ifndef ETHDRV_EMU_ENET_MDIO_H
#define ETHDRV_EMU_ENET_MDIO_H

#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/bits.h"
#include "ethdrv/stats.h"
#include "mdio_emu.h"

#define ENET_MDIO_REG_MMFR 0x040u /* docs/enet.md §1.1 */
#define ENET_MDIO_REG_MSCR 0x044u
#define ENET_MDIO_EIR_MII ETHDRV_BIT(23) /* docs/enet.md §2 */

#define ENET_MDIO_MSCR_MII_SPEED ETHDRV_GENMASK(6, 1) /* docs/enet.md §5 */
#define ENET_MDIO_MSCR_DIS_PRE ETHDRV_BIT(7)
#define ENET_MDIO_MSCR_HOLDTIME ETHDRV_GENMASK(10, 8)
#define ENET_MDIO_MSCR_MASK ETHDRV_GENMASK(10, 1) /* writable bits */
#define ENET_MDIO_MSCR_LOW ETHDRV_GENMASK(7, 0) /* the bits the event rules look at */

#define ENET_MDIO_NEVER UINT64_MAX /* no frame will end (idle, or MDC off) */
#define ENET_MDIO_PREAMBLE_CYCLES 32u /* docs/napi.md §6.3 */
#define ENET_MDIO_FRAME_CYCLES 64u /* preamble + 32 frame bits */

struct enet_mdio_config {
	uint32_t ipg_hz; /* internal module clock; default 50 MHz (MII_SPEED 9 -> 2.5 MHz) */
	bool mscr_starts_frame; /* the MSCR-write frame (see above); default true */
};

/* Counters; monotonic since enet_mdio_init(). */
struct enet_mdio_stats {
	ethdrv_counter_t frames_started; /* frames begun (MMFR or MSCR write) */
	ethdrv_counter_t frames_done; /* frames that reached the bus (each set the event) */
	ethdrv_counter_t mscr_frames; /* frames begun by an MSCR write */
	ethdrv_counter_t mmfr_stored; /* MMFR writes with MSCR[7:0] == 0 (no frame) */
	ethdrv_counter_t busy_writes; /* MMFR writes during a frame: an error, frame altered */
	ethdrv_counter_t frames_aborted; /* frames cut by a reset */
	ethdrv_counter_t bus_ns; /* sum of frame durations (bus active) */
};

extern const struct ethdrv_stat_desc enet_mdio_stats_desc[];
extern const size_t enet_mdio_stats_desc_count;

/* The block's state; embed it. Fields are private to enet_mdio.c. */
struct enet_mdio {
	struct enet_mdio_config cfg; /* settings */
	struct mdio_emu *bus; /* where frames go */
	uint32_t mmfr; /* MMFR as read back */
	uint32_t mscr; /* MSCR (bits 10:1) */
	bool event; /* the MII event latch (EIR bit 23) */
	bool busy; /* a frame is shifting */
	bool preamble; /* the frame in flight has a preamble */
	uint32_t shift; /* the frame on the wire (MMFR at start, altered by busy writes) */
	unsigned frame_cycles; /* MDC cycles of the frame in flight: 64 or 32 */
	uint64_t cycles_done; /* cycles shifted before seg_start_ns */
	uint64_t seg_start_ns; /* when the current MDC rate took effect */
	uint64_t start_ns; /* when the frame in flight began */
	uint64_t deadline_ns; /* its end at the current rate; ENET_MDIO_NEVER when MDC is off */
	uint64_t now_ns; /* latest time seen */
	struct enet_mdio_stats st; /* counters */
};

/** enet_mdio_config_default() - fill @cfg with the defaults above. */
void enet_mdio_config_default(struct enet_mdio_config *cfg);

/**
 * enet_mdio_init() - initialise an embedded block in its reset state
 * @m: the block
 * @cfg: settings (NULL: defaults); copied
 * @bus: the MDIO bus model frames go to
 *
 * Return: 0, or -EINVAL for a NULL @m or @bus or a zero ipg_hz.
 */
int enet_mdio_init(struct enet_mdio *m, const struct enet_mdio_config *cfg, struct mdio_emu *bus);

/**
 * enet_mdio_reset() - ECR.RESET: abort a frame, MSCR = 0, event cleared
 * @m: the block
 * @now_ns: model time
 */
void enet_mdio_reset(struct enet_mdio *m, uint64_t now_ns);

/**
 * enet_mdio_read() - 32-bit register read
 * @m: the block
 * @off: ENET_MDIO_REG_MMFR or ENET_MDIO_REG_MSCR (anything else reads 0)
 * @now_ns: model time
 *
 * Return: the register value.
 */
uint32_t enet_mdio_read(struct enet_mdio *m, uint32_t off, uint64_t now_ns);

/**
 * enet_mdio_write() - 32-bit register write (MMFR starts a frame, MSCR
 * sets MDC, see above); other offsets are ignored
 * @m: the block
 * @off: the register offset
 * @val: the value
 * @now_ns: model time
 */
void enet_mdio_write(struct enet_mdio *m, uint32_t off, uint32_t val, uint64_t now_ns);

/**
 * enet_mdio_deadline_ns() - model time at which the frame in flight ends
 * @m: the block
 *
 * Return: that time, or ENET_MDIO_NEVER when idle or with MDC stopped.
 * The host calls enet_mdio_advance() at (or after) it to raise the event.
 */
uint64_t enet_mdio_deadline_ns(const struct enet_mdio *m);

/**
 * enet_mdio_advance() - complete a frame whose end time is <= @now_ns
 * @m: the block
 * @now_ns: model time
 *
 * Return: true if a frame completed now (the event was set).
 */
bool enet_mdio_advance(struct enet_mdio *m, uint64_t now_ns);

/**
 * enet_mdio_event() - the MII event bit as EIR shows it at @now_ns
 * @m: the block
 * @now_ns: model time
 */
bool enet_mdio_event(struct enet_mdio *m, uint64_t now_ns);

/**
 * enet_mdio_event_ack() - clear the MII event (EIR write-1-to-clear)
 * @m: the block
 * @now_ns: model time (a frame ending by then completes first)
 */
void enet_mdio_event_ack(struct enet_mdio *m, uint64_t now_ns);

/**
 * enet_mdio_frame_ns() - length of one frame at the current MSCR
 * @m: the block
 *
 * Return: ns (rounded up), or 0 while MDC is stopped (MII_SPEED = 0).
 */
uint64_t enet_mdio_frame_ns(const struct enet_mdio *m);

/** enet_mdio_get_stats() - copy the counters. */
void enet_mdio_get_stats(const struct enet_mdio *m, struct enet_mdio_stats *st);

#endif /* ETHDRV_EMU_ENET_MDIO_H */
