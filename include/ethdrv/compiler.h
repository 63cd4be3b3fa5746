/* SPDX-License-Identifier: MIT */
/*
 * Compiler helpers shared by every ethdrv unit: symbol export, container_of,
 * branch hints and array sizes.
 */
#ifndef ETHDRV_COMPILER_H
#define ETHDRV_COMPILER_H

#include <stddef.h>

/* Marks a symbol that libethdrv.so exports; everything else is hidden. */
#define ETHDRV_EXPORT __attribute__((visibility("default")))

/* Recover the struct that embeds @ptr as its @member (kernel container_of). */
#define ethdrv_container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#define ETHDRV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ethdrv_likely(x) __builtin_expect(!!(x), 1)
#define ethdrv_unlikely(x) __builtin_expect(!!(x), 0)
#define ETHDRV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define ETHDRV_MAX(a, b) ((a) > (b) ? (a) : (b))

/* A hint to the CPU inside a busy-wait loop (x86 PAUSE, arm64 YIELD). */
static inline void ethdrv_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

#endif /* ETHDRV_COMPILER_H */
