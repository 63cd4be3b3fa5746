/* SPDX-License-Identifier: MIT */
/*
 * What the ring-MAC driver fuzzers (fuzz-fec-rx.c, fuzz-ravb-rx.c) share:
 * a fake MMIO bus whose DMA region is one heap block sized exactly for the
 * driver's layout (ASan sees a byte beyond it), the checks every delivered
 * frame must pass, and a "stack" that holds on to some frames to starve
 * the pool. All static inline.
 */
#ifndef ETHDRV_TESTS_FUZZ_MMIO_H
#define ETHDRV_TESTS_FUZZ_MMIO_H

#include <stdlib.h>
#include <sys/eventfd.h>

#include "ethdrv/log.h"
#include "ethdrv/mmio.h"
#include "ethdrv/pkt.h"
#include "fuzz.h"

#define FZ_HOLD_MAX 32u

/* Frames the "stack" keeps, up to @hold of them. */
struct fz_hold {
	struct ethdrv_pkt *held[FZ_HOLD_MAX];
	unsigned nheld; /* frames in held[] */
	unsigned hold; /* how many to keep */
};

static inline void fz_log_discard(void *arg, int level, const char *module, const char *line)
{
	(void)arg;
	(void)level;
	(void)module;
	(void)line;
}

/* @bus over @ops/@ctx: a @window register window, @need bytes of DMA, one IRQ fd. */
static inline void fz_bus_init(struct ethdrv_mmio_bus *bus, const struct ethdrv_mmio_ops *ops,
			       void *ctx, uint32_t window, size_t need, size_t align)
{
	ethdrv_log_set_sink(fz_log_discard, NULL); /* bad descriptors are logged by design */
	bus->ops = ops;
	bus->ctx = ctx;
	bus->window = window;
	bus->dma.virt = aligned_alloc(align, (need + align - 1) & ~(align - 1));
	bus->dma.bus = 0x40000000u;
	bus->dma.size = need; /* exactly: ASan flags a byte beyond */
	bus->irq_fd[0] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	for (unsigned i = 1; i < ETHDRV_MMIO_IRQ_MAX; i++)
		bus->irq_fd[i] = -1;
	fz_assert(bus->dma.virt && bus->irq_fd[0] >= 0);
}

/* A delivered frame: ETH_HLEN..@max bytes inside its packet buffer and the region; kept or freed. */
static inline void fz_frame(const struct ethdrv_mmio_bus *bus, struct fz_hold *h,
			    struct ethdrv_pkt *pkt, uint32_t max)
{
	const uint8_t *base = bus->dma.virt;

	fz_assert(pkt->len >= ETHDRV_ETH_HLEN && pkt->len <= max);
	fz_assert(pkt->data >= pkt->buf && pkt->data + pkt->len <= pkt->buf + sizeof(pkt->buf));
	fz_assert(pkt->data >= base && pkt->data + pkt->len <= base + bus->dma.size);
	if (h->nheld < h->hold)
		h->held[h->nheld++] = pkt;
	else
		ethdrv_pkt_free(pkt);
}

/* The stack lets go of what it kept. */
static inline void fz_hold_release(struct fz_hold *h)
{
	for (unsigned i = 0; i < h->nheld; i++)
		ethdrv_pkt_free(h->held[i]);
	h->nheld = 0;
}

#endif /* ETHDRV_TESTS_FUZZ_MMIO_H */
