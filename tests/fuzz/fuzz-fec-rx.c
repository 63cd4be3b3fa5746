// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the fec driver's RX descriptor handling against a
 * device that writes anything into the RX ring (docs/enet.md §3.2, §3.5).
 *
 * A fake bus stands in for the controller: registers are plain storage
 * (ECR.RESET self-clears, EIR is write-1-to-clear, GTS raises GRA at once)
 * and the DMA region is one heap block sized exactly for the driver's
 * layout, so ASan sees any access outside it.
 *
 * Input: byte 0 = how many delivered frames the stack holds on to (0..31,
 * to starve the pool); then records of 9 bytes: BD slot, LE16 status, LE16
 * length, LE32 buffer address, written into the RX ring as a device would
 * (status last). Every 4 records, and at the end, the driver's RX clean
 * runs with a budget taken from the slot byte.
 *
 * Invariants checked:
 *  - a delivered frame is 14..MRBR bytes and lies inside its packet buffer
 *    and inside the DMA region, whatever length and address the BD claimed;
 *  - every BD the driver consumed ends in exactly one way: delivered, an
 *    rx_errors count, an rx_dropped count (no buffer) or a multi-BD
 *    discard; never a crash, never a hang;
 *  - packets are conserved: the pool, the ring and the held frames account
 *    for every buffer, and the pool is full again after the device stops.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/fec.h"
#include "drivers/fec_priv.h"
#include "ethdrv/loop.h"
#include "ethdrv/log.h"
#include "fuzz_mmio.h"

#define FZ_RING 16u
#define FZ_POOL 48u
#define FZ_RECORD 9u
#define FZ_WINDOW 0x4000u

struct fz {
	uint32_t regs[FZ_WINDOW / 4]; /* the fake controller's registers */
	struct ethdrv_mmio_bus bus; /* what the driver sees */
	struct ethdrv_loop *loop; /* the device's loop */
	struct ethdrv_netdev *dev; /* the driver */
	struct fec_priv *priv; /* its internals */
	struct fz_hold h; /* frames the "stack" keeps */
	uint64_t delivered; /* frames delivered */
};

static struct fz fz;

static uint32_t fz_read32(void *ctx, uint32_t off)
{
	struct fz *x = ctx;

	return off < FZ_WINDOW ? x->regs[off / 4] : 0;
}

static void fz_write32(void *ctx, uint32_t off, uint32_t val)
{
	struct fz *x = ctx;

	if (off >= FZ_WINDOW)
		return;
	if (off == FEC_REG_EIR) {
		x->regs[off / 4] &= ~val;
		return;
	}
	if (off == FEC_REG_ECR && (val & FEC_ECR_RESET)) {
		memset(x->regs, 0, sizeof(x->regs));
		return;
	}
	if (off == FEC_REG_TCR && (val & FEC_TCR_GTS))
		x->regs[FEC_REG_EIR / 4] |= FEC_EV_GRA;
	x->regs[off / 4] = val;
}

static const struct ethdrv_mmio_ops fz_ops = { .read32 = fz_read32, .write32 = fz_write32 };

static void fz_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct fz *x = arg;

	fz_frame(&x->bus, &x->h, pkt, FEC_RX_BUF_SIZE);
	x->delivered++;
}

/* One-time setup: bus, region, loop and device (opened per input). */
static void fz_init(void)
{
	struct fec_config cfg = { .name = "fz0",
				  .mac = { 0x02, 0, 0, 0, 0, 1 },
				  .rx_ring = FZ_RING,
				  .tx_ring = FZ_RING,
				  .pool_size = FZ_POOL,
				  .fixed_link_mbps = 1000, /* no PHY on the fake bus */
				  .phy_irq_fd = -1 };
	size_t need = fec_dma_size(&cfg);

	fz_bus_init(&fz.bus, &fz_ops, &fz, FZ_WINDOW, need, 64);
	fz_assert(!ethdrv_loop_new(&fz.loop));
	fz_assert(!fec_create(&cfg, &fz.bus, fz.loop, &fz.dev));
	fz.priv = FEC_FROM_NETDEV(fz.dev);
	ethdrv_netdev_set_rx_handler(fz.dev, fz_rx, &fz);
}

static uint64_t fz_outcomes(void)
{
	struct fec_priv *p = fz.priv;

	return fz.delivered + ethdrv_counter_get(&p->dev.stats.rx_errors) +
	       ethdrv_counter_get(&p->dev.stats.rx_dropped) +
	       ethdrv_counter_get(&p->st.rx_multi_bd);
}

/* Run the driver's RX clean and check the books. */
static void fz_clean(int budget)
{
	uint64_t before = fz_outcomes();
	int work = fec__rx_clean(fz.priv, budget);

	fz_assert(work >= 0 && work <= budget);
	fz_assert(fz_outcomes() - before == (uint64_t)work);
	/* Pool + ring + held = every packet. */
	fz_assert(ethdrv_pkt_pool_avail(fz.priv->pool) + FZ_RING + fz.h.nheld == FZ_POOL);
}

/* The "device" writes one BD: length and address, then the status. */
static void fz_write_bd(const uint8_t *r)
{
	uint8_t *bd = fz.priv->rx.bd + (size_t)(r[0] % FZ_RING) * fz.priv->bd_size;

	memcpy(bd + FEC_BD_LEN, r + 3, 2);
	memcpy(bd + FEC_BD_ADDR, r + 5, 4);
	ethdrv_dma_store16_release(bd + FEC_BD_STATUS, (uint16_t)(r[1] | r[2] << 8));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fz.dev)
		fz_init();
	if (!size)
		return 0;
	fz.h.hold = data[0] % FZ_HOLD_MAX;
	fz.h.nheld = 0;
	fz_assert(!ethdrv_netdev_open(fz.dev));
	for (size_t off = 1, n = 0; off + FZ_RECORD <= size; off += FZ_RECORD) {
		fz_write_bd(data + off);
		if (++n % 4 == 0)
			fz_clean(1 + data[off] % 64);
	}
	fz_clean(64);
	fz_assert(!ethdrv_netdev_stop(fz.dev));
	fz_hold_release(&fz.h);
	fz_assert(ethdrv_pkt_pool_avail(fz.priv->pool) == FZ_POOL);
	return 0;
}
