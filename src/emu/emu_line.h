/* SPDX-License-Identifier: MIT */
/*
 * Small pieces the MDIO-side models share: a level interrupt line on an
 * eventfd (readable while asserted, the convention of every model's IRQ
 * line, docs/design.md §5b) and a snapshot copy of a counter struct.
 */
#ifndef ETHDRV_EMU_EMU_LINE_H
#define ETHDRV_EMU_EMU_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include "ethdrv/stats.h"

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

/* Copy a struct made only of ethdrv_counter_t fields, @size bytes. */
static inline void emu_counters_copy(void *dst, const void *src, size_t size)
{
	const ethdrv_counter_t *s = src;
	ethdrv_counter_t *d = dst;

	for (size_t i = 0; i < size / sizeof(*d); i++)
		ethdrv_counter_set(&d[i], ethdrv_counter_get(&s[i]));
}

#endif /* ETHDRV_EMU_EMU_LINE_H */
