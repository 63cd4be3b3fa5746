/* SPDX-License-Identifier: MIT */
/*
 * Small pieces the MDIO-side models share: a level interrupt line on an
 * eventfd (readable while asserted, the convention of every model's IRQ
 * line, docs/design.md §5b), the wait of a model thread until its next
 * deadline on CLOCK_MONOTONIC, the pause of a clock-polling loop, and a
 * snapshot copy of a counter struct.
 */
#ifndef ETHDRV_EMU_EMU_UTIL_H
#define ETHDRV_EMU_EMU_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ethdrv/stats.h"

#define EMU_NEVER UINT64_MAX /* no deadline */

/* A level line. The model sets it; the host only polls the fd. */
struct emu_line {
	int fd; /* eventfd, readable while asserted; -1 before emu_line_open() */
	bool asserted; /* current level */
	ethdrv_counter_t asserts; /* low -> high transitions */
};

/**
 * emu_line_open() - create the eventfd (deasserted)
 * @line: the line
 *
 * Return: 0 or the -errno of eventfd(2).
 */
int emu_line_open(struct emu_line *line);

/** emu_line_close() - close the eventfd (safe on a closed line). */
void emu_line_close(struct emu_line *line);

/** emu_line_set() - drive the line to @level (no-op when it is already there). */
void emu_line_set(struct emu_line *line, bool level);

/** emu_mono_ns() - CLOCK_MONOTONIC in ns (the models' real-time clock). */
uint64_t emu_mono_ns(void);

/**
 * emu_sync_init() - a mutex and a condition variable timed on CLOCK_MONOTONIC
 * @lock: the mutex
 * @cond: the condition variable
 *
 * Return: 0 or the -errno of the pthread calls (nothing left initialised).
 */
int emu_sync_init(pthread_mutex_t *lock, pthread_cond_t *cond);

/** emu_sync_destroy() - undo emu_sync_init(). */
void emu_sync_destroy(pthread_mutex_t *lock, pthread_cond_t *cond);

/**
 * emu_wait_until() - wait on @cond (with @lock held) until signalled or
 * @deadline_ns on CLOCK_MONOTONIC (EMU_NEVER: until signalled)
 */
void emu_wait_until(pthread_cond_t *cond, pthread_mutex_t *lock, uint64_t deadline_ns);

/* One iteration of a loop that polls the clock: tell the CPU we spin. */
static inline void emu_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* Copy a struct made only of ethdrv_counter_t fields, @size bytes. */
static inline void emu_counters_copy(void *dst, const void *src, size_t size)
{
	const ethdrv_counter_t *s = src;
	ethdrv_counter_t *d = dst;

	for (size_t i = 0; i < size / sizeof(*d); i++)
		ethdrv_counter_set(&d[i], ethdrv_counter_get(&s[i]));
}

#endif /* ETHDRV_EMU_EMU_UTIL_H */
