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
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, tx_dropped_dma),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_frames),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_bytes),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_descs),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_multi_desc),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_nodesc),
	EMU_LOSS_STAT_DESCS(struct gbeth_emu_stats, rx_loss),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_dma),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_off),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_dropped_filter),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_too_long),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_crc_errors),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_ds0_skipped),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, rx_csum_trailers),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, dma_errors),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, faults),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, irq_asserts),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mdio_frames),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mdio_short_phases),
	ETHDRV_STAT_DESC(struct gbeth_emu_stats, mdio_last_frame_ns),
};
const size_t gbeth_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(gbeth_emu_stats_desc);

/* ---- speed, link ---- */

uint64_t gbeth__byte_ns(const struct gbeth_emu *emu)
{
	static const uint64_t byte_ns[4] = { 800, 80, 8, 8 }; /* 10, 100, 1000 Mb/s */

	return byte_ns[(emu->regs[G_GECMR / 4] & GECMR_SPEED) >> 4]; /* docs/gbeth.md §5.2 */
}

bool gbeth__link_ok(struct gbeth_emu *emu)
{
	return fdx__link_ok(emu->line);
}

/* ---- the interrupt line (docs/gbeth.md §4.1) ---- */

void gbeth__irq_update(struct gbeth_emu *emu)
{
	const uint32_t *r = emu->regs;
	bool level = (r[G_RIS0 / 4] & r[G_RIC0 / 4]) || (r[G_RIS2 / 4] & r[G_RIC2 / 4]) ||
		     (r[G_TIS / 4] & r[G_TIC / 4]) || (r[G_EIS / 4] & r[G_EIC / 4]) ||
		     (r[G_ECSR / 4] & r[G_ECSIPR / 4]);

	if (level && !emu->irq.asserted) {
		ethdrv_counter_inc(&emu->st.irq_asserts);
		emu_engine_irq_asserted(emu->eng);
	}
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
}

/* ---- time ---- */

uint64_t gbeth__next_ns(const struct gbeth_emu *emu)
{
	uint64_t t = emu->mode_at;

	if (emu->tx_busy && emu->tx_end < t)
		t = emu->tx_end;
	return t;
}

/* Apply the earliest event, due at @t. */
void gbeth__advance(struct gbeth_emu *emu, uint64_t t)
{
	if (emu->tx_busy && emu->tx_end <= emu->mode_at) {
		gbeth__tx_end(emu, t);
		return;
	}
	/* A frame started before the request still delays it. */
	if (emu->tx_busy && emu->ops_mode == OPC_OPERATION) {
		emu->mode_at = mode_due(emu, t);
		return;
	}
	mode_enter(emu, emu->req_mode, t);
}

/* ---- the bus ---- */

static uint64_t access_begin(struct gbeth_emu *emu)
{
	if (emu->cfg.mmio_latency_ns && emu_engine_realtime(emu->eng))
		emu_spin_ns(emu->cfg.mmio_latency_ns);
	emu_engine_lock(emu->eng);
	return emu_engine_sync(emu->eng, true);
}

static uint32_t bus_read32(void *ctx, uint32_t off)
{
	struct gbeth_emu *emu = ctx;
	uint64_t now = access_begin(emu);
	uint32_t v = gbeth__reg_read(emu, off, now);

	ethdrv_counter_inc(&emu->st.reg_reads);
	emu_engine_unlock(emu->eng);
	return v;
}

static void bus_write32(void *ctx, uint32_t off, uint32_t val)
{
	struct gbeth_emu *emu = ctx;
	uint64_t now = access_begin(emu);

	gbeth__reg_write(emu, off, val, now);
	ethdrv_counter_inc(&emu->st.reg_writes);
	emu_engine_kick(emu->eng);
	emu_engine_unlock(emu->eng);
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

static int check_config(const struct gbeth_emu_config *c)
{
	if (c->dma_size < DMA_SIZE_MIN || c->dma_size > DMA_SIZE_MAX || c->dma_size % DMA_ALIGN)
		return -EINVAL;
	/* DPTR is 32 bits (docs/gbeth.md §3.1). */
	if (c->dma_bus % DMA_ALIGN || c->dma_bus + c->dma_size > (1ull << 32))
		return -EINVAL;
	if (c->mode_ns > MODE_NS_MAX || c->phy_addr > GBETH_EMU_NO_PHY)
		return -EINVAL;
	return 0;
}

static void release(struct gbeth_emu *emu)
{
	fdx_mac_phy_free(emu->mdio_bus, emu->cfg.phy_addr, emu->phy);
	mdio_emu_free(emu->mdio_bus);
	emu_line_close(&emu->irq);
	free(emu->dma.virt);
	free(emu);
}

/* The board behind PIR: the MDIO bus and its PHY on the line's wire. */
static int board_new(struct gbeth_emu *emu)
{
	int ret = mdio_emu_new(&emu->mdio_bus);

	if (ret)
		return ret;
	mdio_bb_emu_init(&emu->bb, emu->mdio_bus);
	if (emu->cfg.phy_addr == GBETH_EMU_NO_PHY)
		return 0;
	return fdx_mac_phy_new(&emu->cfg.phy, emu->line, emu->mdio_bus, emu->cfg.phy_addr,
			       &emu->phy);
}

int gbeth_emu_new(const struct gbeth_emu_config *cfg, struct fdx_line *line, unsigned port,
		  struct gbeth_emu **out)
{
	struct gbeth_emu *emu;
	int ret;

	if (!out || !line || port > 1)
		return -EINVAL;
	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	emu->irq.fd = -1;
	if (cfg)
		emu->cfg = *cfg;
	else
		gbeth_emu_config_default(&emu->cfg);
	ret = check_config(&emu->cfg);
	if (ret) {
		free(emu);
		return ret;
	}
	emu->line = line;
	emu->port = port;
	emu->eng = fdx_line_engine(line);
	emu->dma.virt = aligned_alloc(DMA_ALIGN, emu->cfg.dma_size);
	ret = emu->dma.virt ? emu_line_open(&emu->irq) : -ENOMEM;
	if (!ret)
		ret = board_new(emu);
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
	ret = fdx_mac_plug(line, port, &gbeth__port_ops, &gbeth__engine_ops, emu, emu->phy != NULL);
	if (ret) {
		release(emu);
		return ret;
	}
	/* Losses in real time are checked against the VM's steal (emu_loss.h). */
	emu->steal_ref = emu_engine_realtime(emu->eng) && !emu_steal_ref();
	*out = emu;
	return 0;
}

void gbeth_emu_free(struct gbeth_emu *emu)
{
	if (!emu)
		return;
	fdx_mac_unplug(emu->line, emu->port, emu, emu->phy != NULL);
	if (emu->steal_ref)
		emu_steal_unref();
	release(emu);
}

struct fdx_line *gbeth_emu_line(struct gbeth_emu *emu)
{
	return emu->line;
}

/* ---- inspection ---- */

void gbeth_emu_get_stats(struct gbeth_emu *emu, struct gbeth_emu_stats *st)
{
	emu_engine_lock(emu->eng);
	emu_engine_sync(emu->eng, false);
	emu_counters_copy(st, &emu->st, sizeof(*st));
	emu_engine_unlock(emu->eng);
}

int gbeth_emu_peek_reg(struct gbeth_emu *emu, uint32_t off, uint32_t *val)
{
	int ret;

	emu_engine_lock(emu->eng);
	ret = gbeth__reg_peek(emu, off, val);
	emu_engine_unlock(emu->eng);
	return ret;
}

int gbeth_emu_inject(struct gbeth_emu *emu, enum emu_fault fault, uint64_t arg)
{
	return emu_fault_inject(emu->eng, &emu->faults, fault, arg);
}

bool gbeth_emu_irq_asserted(struct gbeth_emu *emu)
{
	bool level;

	emu_engine_lock(emu->eng);
	level = emu->irq.asserted;
	emu_engine_unlock(emu->eng);
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
