/* SPDX-License-Identifier: MIT */
/*
 * The MMIO bus (driver-facing, docs/style.md S6): how a driver for a
 * memory-mapped DMA controller reaches its hardware. It is the ring-MAC
 * counterpart of struct ethdrv_spi_bus in driver.h: a register window read
 * and written as 32-bit words, one region of DMA memory the device and the
 * CPU share (descriptor rings and packet buffers live there), and the
 * interrupt lines as level-triggered eventfds.
 *
 * The same struct is filled by the hardware models (src/emu/enet_emu.c) and
 * would be filled by a real-board backend (a UIO or vfio-platform register
 * window, a physically contiguous DMA buffer and the IRQ fds,
 * docs/enet.md §13), so a driver never knows which one it talks to.
 *
 * Memory ordering, as the kernel's writel()/readl() and dma_wmb()/dma_rmb():
 * - ethdrv_mmio_write32() is ordered after every earlier store the CPU made
 *   to DMA memory: a driver fills a descriptor, then writes the doorbell.
 * - Ownership of a descriptor moves through one word written with release
 *   and read with acquire semantics (ethdrv_dma_store16_release(),
 *   ethdrv_dma_load16_acquire()): the owner's stores to the descriptor and
 *   its buffer are visible before the ownership bit is.
 */
#ifndef ETHDRV_MMIO_H
#define ETHDRV_MMIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"

/* Interrupt lines a device may have (i.MX8M ENET: int0, int1, int2, pps). */
#define ETHDRV_MMIO_IRQ_MAX 4

struct ethdrv_mmio_ops {
	/** Read the 32-bit register at byte offset @off of the window. */
	uint32_t (*read32)(void *ctx, uint32_t off);
	/** Write @val to the 32-bit register at @off, after earlier DMA stores. */
	void (*write32)(void *ctx, uint32_t off, uint32_t val);
	/** Release the backend (unmap, close fds). May be NULL. */
	void (*close)(void *ctx);
};

/*
 * A region of memory both the CPU and the device address: @virt for the
 * CPU, @bus for the device (what goes into descriptors). The device can
 * reach nothing outside it.
 */
struct ethdrv_dma_region {
	void *virt; /* CPU address of the first byte */
	uint64_t bus; /* device (bus) address of the first byte */
	size_t size; /* bytes */
};

struct ethdrv_mmio_bus {
	const struct ethdrv_mmio_ops *ops; /* register access */
	void *ctx; /* backend state */
	uint32_t window; /* register window size in bytes */
	struct ethdrv_dma_region dma; /* the shared memory */
	int irq_fd[ETHDRV_MMIO_IRQ_MAX]; /* level IRQs: readable while asserted; -1 = absent */
	char desc[96]; /* "emu:enet" or "uio:/dev/uio0", for messages */
};

/**
 * ethdrv_mmio_bus_ok32() - @bus can carry a ring MAC with 32-bit descriptor
 * addresses: ops, a DMA region aligned to @align that ends below 4 GiB, and
 * interrupt line 0
 * @bus: the bus (NULL is not)
 * @align: the alignment the driver lays its rings out with
 */
static inline bool ethdrv_mmio_bus_ok32(const struct ethdrv_mmio_bus *bus, size_t align)
{
	return bus && bus->ops && bus->dma.virt && !((uintptr_t)bus->dma.virt % align) &&
	       bus->dma.bus + bus->dma.size <= (1ull << 32) && bus->irq_fd[0] >= 0;
}

/** ethdrv_mmio_read32() - read the register at @off of @bus. */
static inline uint32_t ethdrv_mmio_read32(const struct ethdrv_mmio_bus *bus, uint32_t off)
{
	return bus->ops->read32(bus->ctx, off);
}

/** ethdrv_mmio_write32() - write @val to the register at @off of @bus. */
static inline void ethdrv_mmio_write32(const struct ethdrv_mmio_bus *bus, uint32_t off,
				       uint32_t val)
{
	bus->ops->write32(bus->ctx, off, val);
}

/**
 * ethdrv_dma_contains() - true if @len bytes at CPU address @p lie in @r
 * @r: the region
 * @p: first byte
 * @len: bytes
 */
static inline bool ethdrv_dma_contains(const struct ethdrv_dma_region *r, const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p, base = (uintptr_t)r->virt;

	return a >= base && a - base <= r->size && len <= r->size - (a - base);
}

/**
 * ethdrv_dma_to_bus() - the bus address of CPU address @p inside @r
 * @r: the region
 * @p: a byte inside @r (checked by the caller with ethdrv_dma_contains())
 */
static inline uint64_t ethdrv_dma_to_bus(const struct ethdrv_dma_region *r, const void *p)
{
	return r->bus + (uint64_t)((uintptr_t)p - (uintptr_t)r->virt);
}

/**
 * ethdrv_dma_to_virt() - the CPU address of @len bytes at bus address @bus
 * @r: the region
 * @bus: device address
 * @len: bytes that must all lie inside @r
 *
 * Return: the CPU address, or NULL when any of the bytes is outside @r.
 */
static inline void *ethdrv_dma_to_virt(const struct ethdrv_dma_region *r, uint64_t bus, size_t len)
{
	if (bus < r->bus || bus - r->bus > r->size || len > r->size - (bus - r->bus))
		return NULL;
	return (uint8_t *)r->virt + (bus - r->bus);
}

/* Ownership words of DMA descriptors (see the top of this file). */
static inline uint16_t ethdrv_dma_load16_acquire(const void *p)
{
	return __atomic_load_n((const uint16_t *)p, __ATOMIC_ACQUIRE);
}

static inline void ethdrv_dma_store16_release(void *p, uint16_t v)
{
	__atomic_store_n((uint16_t *)p, v, __ATOMIC_RELEASE);
}

static inline uint32_t ethdrv_dma_load32_acquire(const void *p)
{
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
}

static inline void ethdrv_dma_store32_release(void *p, uint32_t v)
{
	__atomic_store_n((uint32_t *)p, v, __ATOMIC_RELEASE);
}

/*
 * Plain descriptor fields (lengths, addresses) are read and written with
 * relaxed atomics: the other side may look at them concurrently (a model
 * thread, or a device that misbehaves), and their order is given by the
 * ownership word.
 */
static inline uint16_t ethdrv_dma_load16(const void *p)
{
	return __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
}

static inline void ethdrv_dma_store16(void *p, uint16_t v)
{
	__atomic_store_n((uint16_t *)p, v, __ATOMIC_RELAXED);
}

static inline uint32_t ethdrv_dma_load32(const void *p)
{
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
}

static inline void ethdrv_dma_store32(void *p, uint32_t v)
{
	__atomic_store_n((uint32_t *)p, v, __ATOMIC_RELAXED);
}

#endif /* ETHDRV_MMIO_H */
