/* SPDX-License-Identifier: MIT */
/*
 * The models' event engine (docs/design.md §5b.1): one clock, one big lock
 * and, in real time, one thread that applies the events of every model
 * registered on it in time order. A model (a MAC, the line between two of
 * them) is a client: it tells the engine when its next event is due
 * (emu_engine_ops.next_event) and applies it when asked (run_event). The
 * engine knows nothing of frames, registers or descriptors.
 *
 * Clock: virtual (only emu_engine_run_until() moves it; tests) or real time
 * (CLOCK_MONOTONIC minus the slip). Real time: events apply at or after
 * their time, never before. Events a client marks exact (one that can
 * assert an unmasked interrupt line or write back a descriptor a polling
 * driver reads) are applied at their time: the thread wakes for each. Other
 * events are batched: the thread wakes at most once per batch_ns for them.
 * In lab-CPU mode the thread runs on a CPU of its own and polls the clock
 * up to the next event instead of sleeping on a timer (docs/design.md §5b.3);
 * with nothing pending it sleeps, it never spins idle.
 *
 * Slip (docs/design.md §5b.2): when the earliest event is found more than
 * slip_bound_ns late, the engine's clock stops for the excess (the wire
 * pauses) rather than applying the backlog at once: the clock steps back by
 * the event's lateness and everything after it keeps its spacing. Counted
 * in slips and slip_ns; emu_engine_unslipped_ns() is the time that was not
 * slipped, the base benchmarks compute their limits on.
 *
 * Locking: one mutex per engine (emu_engine_lock()) protects the engine and
 * the whole state of every client, QEMU's big-lock way. Every ops callback
 * is called with it held; a client's entry points take it, bring the clock
 * up to date with emu_engine_sync() and call emu_engine_kick() after they
 * changed what next_event() would return.
 */
#ifndef ETHDRV_EMU_EMU_ENGINE_H
#define ETHDRV_EMU_EMU_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "ethdrv/stats.h"

#define EMU_ENGINE_CLIENTS 8u /* clients per engine */
#define EMU_ENGINE_BATCH_MAX_NS 10000000ull /* batch_ns limit */
#define EMU_ENGINE_SLIP_MAX_NS 1000000000ull /* slip_bound_ns limit */
#define EMU_ENGINE_NO_LAB_CPU (-1) /* emu_engine_config.lab_cpu: sleep on timers */

struct emu_engine;

/* A client: one model's events. All calls with the engine lock held. */
struct emu_engine_ops {
	/** next_event() - the time of the earliest pending event, UINT64_MAX if none;
	 *  *@exact_t = the earliest one that may assert an interrupt or write back a
	 *  descriptor a poller reads (applied at its time), UINT64_MAX if none */
	uint64_t (*next_event)(void *ctx, uint64_t *exact_t);
	/** run_event() - apply the earliest pending event, due at @t (<= the clock) */
	void (*run_event)(void *ctx, uint64_t t);
	/** advance() - optional: the clock reaches @t (before each event at its time and
	 *  at the end of each run); complete what no event waits for */
	void (*advance)(void *ctx, uint64_t t);
};

struct emu_engine_config {
	bool realtime; /* true: CLOCK_MONOTONIC and an engine thread */
	uint64_t batch_ns; /* real time: wake at most this often for non-exact events */
	uint64_t slip_bound_ns; /* real time: lateness beyond this slips; 0 = never slip */
	int lab_cpu; /* real time: CPU the thread polls on, EMU_ENGINE_NO_LAB_CPU = sleep */
	bool manual_clock; /* tests: real-time rules on a host clock that only
			      emu_engine_service() moves, no thread */
	const char *name; /* thread name (15 chars max), kept: a string literal */
};

/* Engine counters. */
struct emu_engine_stats {
	ethdrv_counter_t wakeups; /* engine thread wakeups (real time) */
	ethdrv_counter_t kicks; /* wakeups asked for early by a client (emu_engine_kick) */
	ethdrv_counter_t events; /* events applied */
	ethdrv_counter_t catchups; /* events applied by an entry point (a register access) */
	ethdrv_counter_t catchup_cpu_ns; /* CPU time the accessing threads spent applying them */
	ethdrv_counter_t engine_cpu_ns; /* CPU time of the engine thread */
	ethdrv_counter_t slips; /* times the clock slipped */
	ethdrv_counter_t slip_ns; /* total time slipped */
	ethdrv_counter_t irq_asserts; /* interrupt assertions recorded (emu_engine_irq_asserted) */
};

/** emu_engine_config_default() - real time, batch 0, slip bound 1 ms, no lab CPU */
void emu_engine_config_default(struct emu_engine_config *cfg);

/**
 * emu_engine_new() - create an engine; in real time its thread starts
 * @cfg: settings; copied
 * @out: receives the engine
 *
 * Return: 0; -EINVAL (batch_ns over 10 ms, slip_bound_ns over 1 s or below
 * batch_ns, lab_cpu not a CPU this process may run on); -ENOMEM; or the
 * -errno of pthread_create/pthread_setaffinity_np.
 */
int emu_engine_new(const struct emu_engine_config *cfg, struct emu_engine **out);

/** emu_engine_free() - stop the thread and free (NULL ignored); no clients left */
void emu_engine_free(struct emu_engine *e);

/**
 * emu_engine_add() - register a client
 * @e: the engine
 * @ops: its callbacks (kept, not copied)
 * @ctx: passed to them
 *
 * Return: 0, -ENOSPC (EMU_ENGINE_CLIENTS reached). Context: engine lock held.
 */
int emu_engine_add(struct emu_engine *e, const struct emu_engine_ops *ops, void *ctx);

/** emu_engine_remove() - unregister the client of @ctx. Context: engine lock held. */
void emu_engine_remove(struct emu_engine *e, void *ctx);

/** emu_engine_lock() / emu_engine_unlock() - the big lock */
void emu_engine_lock(struct emu_engine *e);
void emu_engine_unlock(struct emu_engine *e);

/** emu_engine_realtime() - true for a real-time engine */
bool emu_engine_realtime(const struct emu_engine *e);

/** emu_engine_now() - the engine clock in ns (slipped real time, or virtual). Lock held. */
uint64_t emu_engine_now(struct emu_engine *e);

/**
 * emu_engine_sync() - apply every event due by now (a catch-up when @catchup:
 * called from a driver's access) and return now, after any slip
 * Context: engine lock held.
 */
uint64_t emu_engine_sync(struct emu_engine *e, bool catchup);

/** emu_engine_kick() - the clients' next events changed: reschedule the thread. Lock held. */
void emu_engine_kick(struct emu_engine *e);

/**
 * emu_engine_irq_asserted() - a client asserted an interrupt line: record
 * how late against its physical time (the time of the event being applied;
 * 0 outside an event) in the irq lateness histogram. Lock held.
 */
void emu_engine_irq_asserted(struct emu_engine *e);

/**
 * emu_engine_run_until() - virtual clock: apply every event up to @t_ns
 * and set the clock to @t_ns
 *
 * Return: 0 or -EINVAL (real-time engine, or @t_ns in the past). Takes the lock.
 */
int emu_engine_run_until(struct emu_engine *e, uint64_t t_ns);

/**
 * emu_engine_service() - set the host clock of a manual_clock engine to
 * @host_ns and apply what is due then, as the engine thread would on waking
 * at that time (slipping if it is late beyond the bound): the known-answer
 * hook for the real-time rules
 *
 * Return: 0 or -EINVAL (not manual_clock, or @host_ns in the past). Takes the lock.
 */
int emu_engine_service(struct emu_engine *e, uint64_t host_ns);

/** emu_engine_next_event() - the earliest pending event time, UINT64_MAX if none. Takes the lock. */
uint64_t emu_engine_next_event(struct emu_engine *e);

/** emu_engine_get_stats() - copy the counters (engine_cpu_ns filled in). Takes the lock. */
void emu_engine_get_stats(struct emu_engine *e, struct emu_engine_stats *st);

/**
 * emu_engine_unslipped_ns() - time since @since_ns (an emu_engine clock value
 * read earlier, e.g. at a benchmark's start) minus what slipped since then
 * is what the clock advanced: this is that advance, the time the wire
 * really ran. Benchmarks compute their limits on it. Takes the lock.
 */
uint64_t emu_engine_unslipped_ns(struct emu_engine *e, uint64_t since_ns);

/** emu_engine_lateness() - lateness of every applied event against its time, ns */
const struct ethdrv_hist *emu_engine_lateness(struct emu_engine *e);

/** emu_engine_irq_lateness() - lateness of interrupt assertions, ns */
const struct ethdrv_hist *emu_engine_irq_lateness(struct emu_engine *e);

#endif /* ETHDRV_EMU_EMU_ENGINE_H */
