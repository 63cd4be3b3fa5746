// SPDX-License-Identifier: MIT
/*
 * GbEth model: lifecycle, the MMIO bus a driver sees, the operating modes
 * (docs/gbeth.md §2) and the interrupt line (docs/gbeth.md §4). Every
 * access takes the host's lock and first applies the events already due.
 * Behaviour and assumptions: gbeth_emu.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbeth_emu_priv.h"

#define DMA_SIZE_MIN 4096u
#define DMA_SIZE_MAX (1ull << 30)
#define DMA_ALIGN 4096u
#define MODE_NS_MAX 100000000ull /* drivers give up after 100 ms (docs/gbeth.md §2) */

const struct ethdrv_stat_desc gbeth_emu_stats_desc[] = {
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, reg_reads),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, reg_writes),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, bad_accesses),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mode_changes),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_frames),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_bytes),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_descs),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_too_long),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_te_off),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_link_down),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_incomplete),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_idle_ns),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_frames),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_bytes),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_descs),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_multi_desc),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_nodesc),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_off),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_filter),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_too_long),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_crc_errors),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_ds0_skipped),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_csum_trailers),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, dma_errors),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, irq_asserts),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mdio_frames),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mdio_short_phases),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mdio_last_frame_ns),
};
const size_t gbeth_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(gbeth_emu_stats_desc);

/* ---- speed, link ---- */

unsigned gbeth_emu_speed_mbps(const struct gbeth_emu *emu)
{
	static const unsigned mbps[4] = { 10, 100, 1000, 1000 };

	return mbps[(emu->regs[G_GECMR / 4] & GECMR_SPEED) >> 4]; /* docs/gbeth.md §5.2 */
}

uint64_t gbeth_emu_byte_ns(const struct gbeth_emu *emu)
{
	return 8000 / gbeth_emu_speed_mbps(emu);
}

bool gbeth__link_ok(struct gbeth_emu *emu)
{
	return emu->ops.link_up(emu->ctx);
}

/* ---- the interrupt line (docs/gbeth.md §4.1) ---- */

void gbeth__irq_update(struct gbeth_emu *emu)
{
	const uint32_t *r = emu->regs;
	bool level = (r[G_RIS0 / 4] & r[G_RIC0 / 4]) || (r[G_RIS2 / 4] & r[G_RIC2 / 4]) ||
		     (r[G_TIS / 4] & r[G_TIC / 4]) || (r[G_EIS / 4] & r[G_EIC / 4]) ||
		     (r[G_ECSR / 4] & r[G_ECSIPR / 4]);

	if (level && !emu->irq.asserted)
		ethdrv_counter_inc(&emu->st.irq_asserts);
	emu_line_set(&emu->irq, level);
}

/* ---- operating modes (docs/gbeth.md §2, §12 item 2) ---- */

static void mode_enter(struct gbeth_emu *emu, unsigned opc, uint64_t t)
{
	unsigned from = emu->ops_mode;

	emu->ops_mode = opc;
	emu->mode_at = EMU_NEVER;
	ethdrv_counter_inc(&emu->st.mode_changes);
	if (opc == OPC_RESET)
		gbeth__regs_reset(emu, false);
	if (opc != OPC_OPERATION)
		*greg(emu, G_TCCR) &= ~TCCR_TSRQ0;
	if (opc == OPC_OPERATION && from != OPC_OPERATION) {
		gbeth__queues_load(emu);
		gbeth__tx_kick(emu, t);
	}
	gbeth__irq_update(emu);
}

/* When the pending request can complete: after the frame on the wire when leaving OPERATION. */
static uint64_t mode_due(const struct gbeth_emu *emu, uint64_t now)
{
	uint64_t t = now;

	if (emu->ops_mode == OPC_OPERATION && emu->req_mode != OPC_OPERATION && emu->tx_busy)
		t = emu->tx_end;
	return t + emu->cfg.mode_ns;
}

void gbeth__mode_request(struct gbeth_emu *emu, unsigned opc, uint64_t now)
{
	if (opc > OPC_OPERATION)
		opc = emu->ops_mode; /* 3 is no mode: ignored (docs/gbeth.md §12 item 10) */
	emu->req_mode = opc;
	if (opc == emu->ops_mode) {
		emu->mode_at = EMU_NEVER; /* CONFIG -> CONFIG: harmless */
		return;
	}
	if (emu->ops_mode == OPC_OPERATION)
		*greg(emu, G_TCCR) &= ~TCCR_TSRQ0; /* no new frame starts */
	emu->mode_at = mode_due(emu, now);
	if (emu->ops.kick)
		emu->ops.kick(emu->ctx);
}

/* ---- time ---- */

uint64_t gbeth_emu_next_ns(const struct gbeth_emu *emu)
{
	uint64_t t = emu->mode_at;

	if (emu->tx_busy && emu->tx_end < t)
		t = emu->tx_end;
	return t;
}

void gbeth_emu_advance(struct gbeth_emu *emu, uint64_t now)
{
	for (;;) {
		uint64_t t = gbeth_emu_next_ns(emu);

		if (t > now)
			return;
		if (emu->tx_busy && emu->tx_end == t) {
			gbeth__tx_end(emu, t);
		} else {
			/* A frame started before the request still delays it. */
			if (emu->tx_busy && emu->ops_mode == OPC_OPERATION) {
				emu->mode_at = mode_due(emu, t);
				continue;
			}
			mode_enter(emu, emu->req_mode, t);
		}
	}
}

void gbeth_emu_rx(struct gbeth_emu *emu, const uint8_t *data, uint32_t len, bool fcs_ok,
		  uint64_t now_ns)
{
	gbeth_emu_advance(emu, now_ns);
	gbeth__rx_frame(emu, data, len, fcs_ok, now_ns);
	gbeth__irq_update(emu);
}

/* ---- the bus ---- */

static uint64_t access_begin(struct gbeth_emu *emu)
{
	uint64_t now;

	if (emu->cfg.mmio_latency_ns && emu->ops.realtime)
		emu_spin_ns(emu->cfg.mmio_latency_ns);
	pthread_mutex_lock(emu->lock);
	now = emu->ops.now(emu->ctx);
	gbeth_emu_advance(emu, now);
	return now;
}

static uint32_t bus_read32(void *ctx, uint32_t off)
{
	struct gbeth_emu *emu = ctx;
	uint64_t now = access_begin(emu);
	uint32_t v = gbeth__reg_read(emu, off, now);

	ethdrv_counter_inc(&emu->st.reg_reads);
	pthread_mutex_unlock(emu->lock);
	return v;
}

static void bus_write32(void *ctx, uint32_t off, uint32_t val)
{
	struct gbeth_emu *emu = ctx;
	uint64_t now = access_begin(emu);

	gbeth__reg_write(emu, off, val, now);
	ethdrv_counter_inc(&emu->st.reg_writes);
	if (emu->ops.kick)
		emu->ops.kick(emu->ctx);
	pthread_mutex_unlock(emu->lock);
}

static const struct ethdrv_mmio_ops gbeth_bus_ops = {
	.read32 = bus_read32,
	.write32 = bus_write32,
};

void gbeth_emu_get_bus(struct gbeth_emu *emu, struct ethdrv_mmio_bus *bus)
{
	memset(bus, 0, sizeof(*bus));
	bus->ops = &gbeth_bus_ops;
	bus->ctx = emu;
	bus->window = GBETH_EMU_WINDOW;
	bus->dma = emu->dma;
	bus->irq_fd[0] = emu->irq.fd; /* `mux`: the line Linux uses (docs/gbeth.md §4.1) */
	for (unsigned i = 1; i < ETHDRV_MMIO_IRQ_MAX; i++)
		bus->irq_fd[i] = -1;
	snprintf(bus->desc, sizeof(bus->desc), "emu:gbeth");
}

/* ---- lifecycle ---- */

void gbeth_emu_config_default(struct gbeth_emu_config *cfg)
{
	*cfg = (struct gbeth_emu_config){ .dma_bus = 0x40000000ull,
					  .dma_size = 8u << 20,
					  .mmio_latency_ns = 100,
					  .mode_ns = 10000,
					  .phy_addr = 7 };
	phy_emu_config_default(&cfg->phy);
}

static int check_config(const struct gbeth_emu_config *c, const struct gbeth_emu_port_ops *ops,
			const struct phy_emu_wire *wire)
{
	if (c->dma_size < DMA_SIZE_MIN || c->dma_size > DMA_SIZE_MAX || c->dma_size % DMA_ALIGN)
		return -EINVAL;
	/* DPTR is 32 bits (docs/gbeth.md §3.1). */
	if (c->dma_bus % DMA_ALIGN || c->dma_bus + c->dma_size > (1ull << 32))
		return -EINVAL;
	if (c->mode_ns > MODE_NS_MAX || c->phy_addr > GBETH_EMU_NO_PHY)
		return -EINVAL;
	if (!ops || !ops->now || !ops->tx || !ops->link_up)
		return -EINVAL;
	if (c->phy_addr != GBETH_EMU_NO_PHY && !wire)
		return -EINVAL;
	return 0;
}

static void release(struct gbeth_emu *emu)
{
	if (emu->phy) {
		mdio_emu_detach(emu->mdio_bus, emu->cfg.phy_addr);
		phy_emu_free(emu->phy);
	}
	mdio_emu_free(emu->mdio_bus);
	emu_line_close(&emu->irq);
	free(emu->dma.virt);
	free(emu);
}

static int board_new(struct gbeth_emu *emu, struct phy_emu_wire *wire)
{
	int ret = mdio_emu_new(&emu->mdio_bus);

	if (ret)
		return ret;
	mdio_bb_emu_init(&emu->bb, emu->mdio_bus);
	if (emu->cfg.phy_addr == GBETH_EMU_NO_PHY)
		return 0;
	ret = phy_emu_new(&emu->cfg.phy, wire, emu->ops.now(emu->ctx), &emu->phy);
	if (!ret)
		ret = phy_emu_attach(emu->phy, emu->mdio_bus, emu->cfg.phy_addr);
	return ret;
}

int gbeth_emu_new(const struct gbeth_emu_config *cfg, const struct gbeth_emu_port_ops *ops,
		  void *ctx, pthread_mutex_t *lock, struct phy_emu_wire *wire,
		  struct gbeth_emu **out)
{
	struct gbeth_emu *emu;
	int ret;

	if (!out || !lock)
		return -EINVAL;
	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	emu->irq.fd = -1;
	if (cfg)
		emu->cfg = *cfg;
	else
		gbeth_emu_config_default(&emu->cfg);
	ret = check_config(&emu->cfg, ops, wire);
	if (ret) {
		free(emu);
		return ret;
	}
	emu->ops = *ops;
	emu->ctx = ctx;
	emu->lock = lock;
	emu->dma.virt = aligned_alloc(DMA_ALIGN, emu->cfg.dma_size);
	ret = emu->dma.virt ? emu_line_open(&emu->irq) : -ENOMEM;
	if (!ret)
		ret = board_new(emu, wire);
	if (ret) {
		release(emu);
		return ret;
	}
	memset(emu->dma.virt, 0, emu->cfg.dma_size);
	emu->dma.bus = emu->cfg.dma_bus;
	emu->dma.size = emu->cfg.dma_size;
	gbeth__regs_reset(emu, true);
	emu->ops_mode = emu->req_mode = OPC_RESET; /* docs/gbeth.md §12 item 1 */
	emu->mode_at = EMU_NEVER;
	*out = emu;
	return 0;
}

void gbeth_emu_free(struct gbeth_emu *emu)
{
	if (emu)
		release(emu);
}

/* ---- inspection ---- */

void gbeth_emu_get_stats(struct gbeth_emu *emu, struct gbeth_emu_stats *st)
{
	pthread_mutex_lock(emu->lock);
	emu_counters_copy(st, &emu->st, sizeof(*st));
	pthread_mutex_unlock(emu->lock);
}

int gbeth_emu_peek_reg(struct gbeth_emu *emu, uint32_t off, uint32_t *val)
{
	int ret;

	pthread_mutex_lock(emu->lock);
	ret = gbeth__reg_peek(emu, off, val);
	pthread_mutex_unlock(emu->lock);
	return ret;
}

bool gbeth_emu_irq_asserted(struct gbeth_emu *emu)
{
	bool level;

	pthread_mutex_lock(emu->lock);
	level = emu->irq.asserted;
	pthread_mutex_unlock(emu->lock);
	return level;
}

struct phy_emu *gbeth_emu_phy(struct gbeth_emu *emu)
{
	return emu->phy;
}

int gbeth_emu_phy_irq_fd(struct gbeth_emu *emu)
{
	return emu->phy ? phy_emu_irq_fd(emu->phy) : -1;
}
