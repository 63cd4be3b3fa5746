// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the gianfar driver's RX descriptor handling against an
 * eTSEC that writes anything into the RX ring (docs/etsec.md §3.3, §3.5).
 *
 * The controller is a register file with the few behaviours bring-up waits
 * for (IEVENT write-1-to-clear, GRS/GTS raise GRSC/GTSC at once, MIIMIND
 * idle), and the DMA region one heap block of exactly the driver's layout,
 * so ASan flags any byte beyond it.
 *
 * Input: byte 0 picks how many delivered frames the "stack" keeps (0..31,
 * starving the pool) and whether the BDs are little-endian (bit 7); then
 * 9-byte records: BD slot, status, length, buffer address (each in the BD
 * byte order), stored as a device would, status last. The RX clean runs
 * after every third record and at the end, its budget from the slot byte.
 *
 * Checked: a delivered frame is 14..MRBLR-4 bytes inside its packet buffer
 * and inside the DMA region whatever the BD claimed; every BD consumed is
 * accounted (delivered, rx_errors, rx_dropped, or part of a multi-BD frame,
 * whose last BD also counts an rx_errors);
 * the pool, the ring and the held frames account for every buffer, and the
 * pool is full again once the device is stopped.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

#include "drivers/gianfar.h"
#include "drivers/gianfar_priv.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { GF_RING = 16, GF_POOL = 48, GF_KEEP_MAX = 32, GF_REC = 9, GF_WIN = 0x1000 };

#define gf_check(c)                       \
	do {                              \
		if (!(c))                 \
			__builtin_trap(); \
	} while (0)

static struct {
	uint32_t reg[GF_WIN / 4];
	struct ethdrv_mmio_bus bus;
	struct ethdrv_loop *loop;
	struct ethdrv_netdev *dev[2]; /* big- and little-endian BDs */
	struct ethdrv_pkt *kept[GF_KEEP_MAX];
	unsigned nkept, keep;
	uint64_t delivered;
} gf;

static uint32_t gf_rd(void *ctx, uint32_t off)
{
	(void)ctx;
	return off < GF_WIN && off != GFAR_MIIMIND ? gf.reg[off / 4] : 0;
}

static void gf_wr(void *ctx, uint32_t off, uint32_t v)
{
	(void)ctx;
	if (off >= GF_WIN)
		return;
	if (off == GFAR_IEVENT) {
		gf.reg[off / 4] &= ~v;
		return;
	}
	if (off == GFAR_DMACTRL && (v & (GFAR_DMACTRL_GRS | GFAR_DMACTRL_GTS)))
		gf.reg[GFAR_IEVENT / 4] |= GFAR_EV_GRSC | GFAR_EV_GTSC;
	gf.reg[off / 4] = v;
}

static const struct ethdrv_mmio_ops gf_ops = { .read32 = gf_rd, .write32 = gf_wr };

static void gf_deliver(void *arg, struct ethdrv_pkt *pkt)
{
	const uint8_t *lo = gf.bus.dma.virt;

	(void)arg;
	gf_check(pkt->len >= ETHDRV_ETH_HLEN && pkt->len <= GFAR_RX_BUF - 4);
	gf_check(pkt->data >= pkt->buf && pkt->data + pkt->len <= pkt->buf + sizeof(pkt->buf));
	gf_check(pkt->data >= lo && pkt->data + pkt->len <= lo + gf.bus.dma.size);
	gf.delivered++;
	if (gf.nkept < gf.keep)
		gf.kept[gf.nkept++] = pkt;
	else
		ethdrv_pkt_free(pkt);
}

static void gf_quiet(void *arg, int level, const char *module, const char *line)
{
	(void)arg;
	(void)level;
	(void)module;
	(void)line;
}

static void gf_setup(void)
{
	struct gfar_config cfg = { .name = "gf0",
				   .mac = { 0x02, 0, 0, 0, 0x30, 1 },
				   .rx_ring = GF_RING,
				   .tx_ring = GF_RING,
				   .pool_size = GF_POOL,
				   .fixed_link_mbps = 1000 };
	size_t need = gfar_dma_size(&cfg), stride = (need + 4095) & ~(size_t)4095;

	ethdrv_log_set_sink(gf_quiet, NULL);
	gf.bus = (struct ethdrv_mmio_bus){ .ops = &gf_ops, .window = GF_WIN };
	/* Two devices one after the other; the second ends exactly at the block's end. */
	gf.bus.dma.virt = aligned_alloc(64, (stride + need + 63) & ~(size_t)63);
	gf.bus.dma.bus = 0x40000000u;
	gf.bus.dma.size = stride + need;
	for (unsigned l = 0; l < 3; l++)
		gf.bus.irq_fd[l] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	gf.bus.irq_fd[3] = -1;
	gf_check(gf.bus.dma.virt && gf.bus.irq_fd[2] >= 0 && !ethdrv_loop_new(&gf.loop));
	for (unsigned d = 0; d < 2; d++) {
		struct ethdrv_mmio_bus b = gf.bus;

		cfg.le_bd = d;
		cfg.name = d ? "gf1" : "gf0";
		b.dma.virt = (uint8_t *)gf.bus.dma.virt + d * stride;
		b.dma.bus += d * stride;
		b.dma.size = need;
		for (unsigned l = 0; d && l < 3; l++) /* a loop watches an fd once */
			b.irq_fd[l] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		gf_check(!gfar_create(&cfg, &b, gf.loop, &gf.dev[d]));
		ethdrv_netdev_set_rx_handler(gf.dev[d], gf_deliver, NULL);
	}
}

static uint64_t gf_ends(const struct gfar_priv *p)
{
	return gf.delivered + ethdrv_counter_get(&p->dev.stats.rx_errors) +
	       ethdrv_counter_get(&p->dev.stats.rx_dropped) +
	       ethdrv_counter_get(&p->st.rx_multi_bd);
}

static void gf_clean(struct gfar_priv *p, int budget)
{
	uint64_t before = gf_ends(p);
	int done = gfar__rx_clean(p, budget);

	gf_check(done >= 0 && done <= budget);
	/* A multi-BD frame's last BD counts twice: in rx_multi_bd and rx_errors. */
	gf_check(gf_ends(p) - before >= (uint64_t)done);
	gf_check(ethdrv_pkt_pool_avail(p->pool) + GF_RING + gf.nkept == GF_POOL);
}

/* The device's writes: address and length, then the status with release. */
static void gf_bd(struct gfar_priv *p, const uint8_t *r)
{
	uint8_t *bd = p->rx.bd + (size_t)(r[0] % GF_RING) * GFAR_BD_SIZE;
	uint16_t st;

	memcpy(bd + GFAR_BD_ADDR, r + 5, 4);
	memcpy(bd + GFAR_BD_LEN, r + 3, 2);
	memcpy(&st, r + 1, 2);
	ethdrv_dma_store16_release(bd + GFAR_BD_STATUS, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gfar_priv *p;
	unsigned n = 0;

	if (!gf.loop)
		gf_setup();
	if (!size)
		return 0;
	p = GFAR_FROM_NETDEV(gf.dev[data[0] >> 7]);
	gf.keep = data[0] % GF_KEEP_MAX;
	gf.nkept = 0;
	gf_check(!ethdrv_netdev_open(&p->dev));
	for (size_t at = 1; at + GF_REC <= size; at += GF_REC) {
		gf_bd(p, data + at);
		if (++n % 3 == 0)
			gf_clean(p, 1 + data[at] % 64);
	}
	gf_clean(p, 64);
	gf_check(!ethdrv_netdev_stop(&p->dev));
	while (gf.nkept)
		ethdrv_pkt_free(gf.kept[--gf.nkept]);
	gf_check(ethdrv_pkt_pool_avail(p->pool) == GF_POOL);
	return 0;
}
