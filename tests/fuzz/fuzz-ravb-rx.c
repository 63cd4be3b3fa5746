// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the ravb driver's RX descriptor handling against a
 * device that writes anything into the RX ring (docs/gbeth.md §3.4,
 * docs/gbeth.md §3.5): any type, any per-descriptor byte count, any MSC, in
 * any order (FMID/FEND without FSTART, FSTART twice, DS = 0, DS beyond the
 * buffer, non-frame types).
 *
 * A fake bus stands in for the controller: registers are plain storage,
 * CSR.OPS follows CCC.OPC at once, the DMAC statuses are write-0-to-clear,
 * CSR0 reads as written, PIR's MDI reads 1 (nobody on the MDIO bus; a fixed
 * link). The DMA region is one heap block sized exactly for the driver's
 * layout, so ASan sees any access outside it.
 *
 * Input: byte 0 = bit 7: the pre-2024 poll, bits 0-4: how many delivered
 * frames the stack holds on to (to starve the pool); byte 1 = the rx-buf
 * (64, 256, 1726 or 4080 by its low 2 bits); then records of 5 bytes:
 * descriptor slot, LE16 DS (12 bits used), MSC, type (high nibble), written
 * as a device would (type last). Every 4 records, and at the end, the
 * driver's RX runs with a budget taken from the slot byte.
 *
 * Invariants checked:
 *  - a delivered frame is at least an Ethernet header and lies inside its
 *    packet buffer and the DMA region, whatever the descriptors claimed;
 *  - the work returned is 0..budget in packets (2024) or descriptors
 *    (pre-2024), never more descriptors than the ring has;
 *  - packets are conserved: the pool, the frame being reassembled and the
 *    held frames account for every buffer, and the pool is full again
 *    after the device stops.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/ravb.h"
#include "drivers/ravb_priv.h"
#include "ethdrv/loop.h"
#include "ethdrv/log.h"
#include "fuzz_mmio.h"

#define FZ_RING 16u
#define FZ_POOL 48u
#define FZ_RECORD 5u
#define FZ_WINDOW 0x1000u

struct fz {
	uint32_t regs[FZ_WINDOW / 4]; /* the fake controller's registers */
	struct ethdrv_mmio_bus bus; /* what the driver sees */
	struct ethdrv_loop *loop; /* the device's loop */
	struct ethdrv_netdev *dev; /* the driver */
	struct ravb_priv *priv; /* its internals */
	struct fz_hold h; /* frames the "stack" keeps */
};

static struct fz fz;

static uint32_t fz_read32(void *ctx, uint32_t off)
{
	struct fz *x = ctx;

	if (off >= FZ_WINDOW)
		return 0;
	if (off == RAVB_CSR)
		return ETHDRV_BIT(x->regs[RAVB_CCC / 4] & CCC_OPC); /* OPS = 1 << OPC */
	if (off == RAVB_PIR)
		return x->regs[off / 4] | PIR_MDI; /* the pull-up: no PHY answers */
	return x->regs[off / 4];
}

static void fz_write32(void *ctx, uint32_t off, uint32_t val)
{
	struct fz *x = ctx;

	if (off >= FZ_WINDOW)
		return;
	if (off == RAVB_RIS0 || off == RAVB_RIS2 || off == RAVB_TIS || off == RAVB_EIS) {
		x->regs[off / 4] &= val; /* write 0 to clear (docs/gbeth.md §4.1) */
		return;
	}
	if (off == RAVB_TCCR)
		val = 0; /* the TX queue stops at once: nothing to send */
	x->regs[off / 4] = val;
}

static const struct ethdrv_mmio_ops fz_ops = { .read32 = fz_read32, .write32 = fz_write32 };

static void fz_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct fz *x = arg;

	fz_frame(&x->bus, &x->h, pkt, ETHDRV_PKT_DATA_MAX);
}

static void fz_init(void)
{
	struct ravb_config cfg = { .name = "fz0",
				   .mac = { 0x02, 0, 0, 0, 0, 1 },
				   .rx_ring = FZ_RING,
				   .tx_ring = FZ_RING,
				   .pool_size = FZ_POOL,
				   .fixed_link_mbps = 1000,
				   .mdio_half_ns = 1 };
	size_t need = ravb_dma_size(&cfg);

	fz_bus_init(&fz.bus, &fz_ops, &fz, FZ_WINDOW, need, 128);
	fz_assert(!ethdrv_loop_new(&fz.loop));
	fz_assert(!ravb_create(&cfg, &fz.bus, fz.loop, &fz.dev));
	fz.priv = RAVB_FROM_NETDEV(fz.dev);
	ethdrv_netdev_set_rx_handler(fz.dev, fz_rx, &fz);
}

static void fz_run(int budget, bool pre2024)
{
	int work = ravb__rx(fz.priv, budget, pre2024);

	fz_assert(work >= 0 && work <= budget);
	fz_assert(!pre2024 || work <= (int)FZ_RING);
	fz_assert(ethdrv_pkt_pool_avail(fz.priv->pool) + (fz.priv->rx.asm_pkt ? 1 : 0) +
			  fz.h.nheld ==
		  FZ_POOL);
}

/* The "device" writes one descriptor: DS and MSC, then the type, with release. */
static void fz_write_desc(const uint8_t *r)
{
	uint8_t *d = fz.priv->rx.desc + (size_t)(r[0] % FZ_RING) * RAVB_D_SIZE;

	ethdrv_dma_store16(d + RAVB_D_DS, (uint16_t)((r[1] | r[2] << 8) & RAVB_DS_MASK));
	ethdrv_dma_store16_release(d + RAVB_D_CTL, (uint16_t)((r[4] & 0xF0u) << 8 | r[3]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const bufs[4] = { "64", "256", "1726", "4080" };
	bool pre2024;

	if (!fz.dev)
		fz_init();
	if (size < 2)
		return 0;
	pre2024 = data[0] & 0x80;
	fz.h.hold = data[0] % FZ_HOLD_MAX;
	fz.h.nheld = 0;
	fz_assert(!ethdrv_netdev_set(fz.dev, "rx-buf", bufs[data[1] & 3]));
	fz_assert(!ethdrv_netdev_open(fz.dev));
	for (size_t off = 2, n = 0; off + FZ_RECORD <= size; off += FZ_RECORD) {
		fz_write_desc(data + off);
		if (++n % 4 == 0)
			fz_run(1 + data[off] % 64, pre2024);
	}
	fz_run(64, pre2024);
	fz_assert(!ethdrv_netdev_stop(fz.dev));
	fz_hold_release(&fz.h);
	fz_assert(ethdrv_pkt_pool_avail(fz.priv->pool) == FZ_POOL);
	return 0;
}
