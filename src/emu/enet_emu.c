// SPDX-License-Identifier: MIT
/*
 * ENET model: lifecycle, the MMIO bus a driver sees (register accesses with
 * their interconnect latency, the DMA region, the interrupt eventfds) and
 * the MAC's configured speed and gap. Every access takes the engine lock and
 * first applies the events already due (emu_engine.h). Behaviour and
 * assumptions: enet_emu.h; section numbers are docs/enet.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "emu_util.h"
#include "enet_emu_priv.h"

#define DMA_SIZE_MIN 4096u
#define DMA_SIZE_MAX (1ull << 30)
#define DMA_ALIGN 4096u
#define FIFO_BYTES_MAX 65536u
#define FIFO_SLOT_BYTES 64u /* the shortest frame: the most frames the FIFO holds */
#define FETCH_NS_MAX 100000u

const struct ethdrv_stat_desc enet_emu_stats_desc[] = {
	ETHDRV_STAT_DESC(struct enet_emu_stats, reg_reads),
	ETHDRV_STAT_DESC(struct enet_emu_stats, reg_writes),
	ETHDRV_STAT_DESC(struct enet_emu_stats, bad_accesses),
	ETHDRV_STAT_DESC(struct enet_emu_stats, resets),
	ETHDRV_STAT_DESC(struct enet_emu_stats, resets_axi),
	ETHDRV_STAT_DESC(struct enet_emu_stats, gra_no_link),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_frames),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_bytes),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_bad_len),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_aborted),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_unstarted_dropped),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_fetch_waits),
	ETHDRV_STAT_DESC(struct enet_emu_stats, tx_idle_ns),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_frames),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_bytes),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_dropped_nobd),
	EMU_LOSS_STAT_DESCS(struct enet_emu_stats, rx_loss),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_dropped_disabled),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_dropped_filter),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_cut),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_bad_bufsize),
	ETHDRV_STAT_DESC(struct enet_emu_stats, rx_crc_errors),
	ETHDRV_STAT_DESC(struct enet_emu_stats, dma_errors),
	ETHDRV_STAT_DESC(struct enet_emu_stats, coal_count_fires),
	ETHDRV_STAT_DESC(struct enet_emu_stats, coal_timer_fires),
	ETHDRV_STAT_DESC(struct enet_emu_stats, irq_asserts),
	ETHDRV_STAT_DESC(struct enet_emu_stats, faults),
};
const size_t enet_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(enet_emu_stats_desc);

unsigned enet__gap_bytes(const struct enet_emu *emu)
{
	unsigned tipg = emu->regs[R_TIPG / 4] & ETHDRV_GENMASK(4, 0);

	return tipg >= 8 && tipg <= 26 ? tipg : 12;
}

uint64_t enet__mac_byte_ns(const struct enet_emu *emu)
{
	if (emu->regs[R_ECR / 4] & ECR_SPEED)
		return 8; /* 1000 Mb/s (docs/enet.md §4.1) */
	return (emu->regs[R_RCR / 4] & RCR_RMII_10T) ? 800 :
						       80; /* 10 / 100 Mb/s (docs/enet.md §4.2) */
}

/* ---- the bus ---- */

/* The interconnect's cost of one access (real time only). */
static void mmio_delay(const struct enet_emu *emu)
{
	if (emu->cfg.mmio_latency_ns && emu_engine_realtime(emu->eng))
		emu_spin_ns(emu->cfg.mmio_latency_ns);
}

uint32_t enet_emu_read32(struct enet_emu *emu, uint32_t off)
{
	uint64_t now;
	uint32_t v;

	mmio_delay(emu);
	emu_engine_lock(emu->eng);
	now = emu_engine_sync(emu->eng, true);
	v = enet__reg_read(emu, off, now);
	ethdrv_counter_inc(&emu->st.reg_reads);
	emu_engine_unlock(emu->eng);
	return v;
}

void enet_emu_write32(struct enet_emu *emu, uint32_t off, uint32_t val)
{
	uint64_t now;

	mmio_delay(emu);
	emu_engine_lock(emu->eng);
	now = emu_engine_sync(emu->eng, true);
	enet__reg_write(emu, off, val, now);
	ethdrv_counter_inc(&emu->st.reg_writes);
	emu_engine_kick(emu->eng);
	emu_engine_unlock(emu->eng);
}

static uint32_t emu_bus_read32(void *ctx, uint32_t off)
{
	return enet_emu_read32(ctx, off);
}

static void emu_bus_write32(void *ctx, uint32_t off, uint32_t val)
{
	enet_emu_write32(ctx, off, val);
}

static const struct ethdrv_mmio_ops enet_emu_bus_ops = {
	.read32 = emu_bus_read32,
	.write32 = emu_bus_write32,
	.close = NULL,
};

void enet_emu_get_bus(struct enet_emu *emu, struct ethdrv_mmio_bus *bus)
{
	memset(bus, 0, sizeof(*bus));
	bus->ops = &enet_emu_bus_ops;
	bus->ctx = emu;
	bus->window = ENET_EMU_WINDOW;
	bus->dma = emu->dma;
	for (unsigned i = 0; i < ETHDRV_MMIO_IRQ_MAX; i++)
		bus->irq_fd[i] = i < ENET_EMU_IRQ_LINES ? emu->irq_fd[i] : -1;
	snprintf(bus->desc, sizeof(bus->desc), "emu:enet");
}

/* ---- lifecycle ---- */

void enet_emu_config_default(struct enet_emu_config *cfg)
{
	*cfg = (struct enet_emu_config){ .dma_bus = 0x40000000ull,
					 .dma_size = 8u << 20,
					 .mmio_latency_ns = 100,
					 .clk_ahb_hz = 125000000u,
					 .tx_fifo_bytes = 4096,
					 .tx_fetch_ns = 100,
					 .soc = ETHDRV_ENET_SOC_IMX8M,
					 .phy_addr = 1 };
	enet_mdio_config_default(&cfg->mdio);
	phy_emu_config_default(&cfg->phy);
}

static int emu_check_config(const struct enet_emu_config *c)
{
	if (c->dma_size < DMA_SIZE_MIN || c->dma_size > DMA_SIZE_MAX || c->dma_size % DMA_ALIGN)
		return -EINVAL;
	/* Descriptors carry 32-bit bus addresses (docs/enet.md §3.2). */
	if (c->dma_bus % DMA_ALIGN || c->dma_bus + c->dma_size > (1ull << 32))
		return -EINVAL;
	if (!c->clk_ahb_hz || c->tx_fifo_bytes < ENET_EMU_FRAME_MAX ||
	    c->tx_fifo_bytes > FIFO_BYTES_MAX || c->tx_fetch_ns > FETCH_NS_MAX ||
	    (unsigned)c->soc >= ETHDRV_ENET_SOC_COUNT)
		return -EINVAL;
	if (!c->mdio.ipg_hz || c->phy_addr > ENET_EMU_NO_PHY)
		return -EINVAL;
	return 0;
}

/* The board behind the MDIO block: the bus and its AR8031 on the line's wire. */
static int emu_board_new(struct enet_emu *emu)
{
	const struct enet_emu_config *c = &emu->cfg;
	int ret = mdio_emu_new(&emu->mdio_bus);

	if (!ret)
		ret = enet_mdio_init(&emu->mdio, &c->mdio, emu->mdio_bus);
	if (ret || emu->cfg.phy_addr == ENET_EMU_NO_PHY)
		return ret;
	return fdx_mac_phy_new(&emu->cfg.phy, emu->line, emu->mdio_bus, emu->cfg.phy_addr,
			       &emu->phy);
}

static void emu_board_free(struct enet_emu *emu)
{
	fdx_mac_phy_free(emu->mdio_bus, emu->cfg.phy_addr, emu->phy);
	mdio_emu_free(emu->mdio_bus);
}

static void emu_release(struct enet_emu *emu)
{
	emu_board_free(emu);
	for (unsigned i = 0; i < ENET_EMU_IRQ_LINES; i++)
		if (emu->irq_fd[i] >= 0)
			close(emu->irq_fd[i]);
	free(emu->dma.virt);
	free(emu->fifo);
	free(emu);
}

static int emu_alloc(struct enet_emu *emu)
{
	emu->fifo_slots = emu->cfg.tx_fifo_bytes / FIFO_SLOT_BYTES;
	emu->fifo = calloc(emu->fifo_slots, sizeof(*emu->fifo));
	emu->dma.virt = aligned_alloc(DMA_ALIGN, emu->cfg.dma_size);
	if (!emu->fifo || !emu->dma.virt)
		return -ENOMEM;
	memset(emu->dma.virt, 0, emu->cfg.dma_size);
	emu->dma.bus = emu->cfg.dma_bus;
	emu->dma.size = emu->cfg.dma_size;
	for (unsigned i = 0; i < ENET_EMU_IRQ_LINES; i++) {
		emu->irq_fd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (emu->irq_fd[i] < 0)
			return -errno;
	}
	return 0;
}

int enet_emu_new(const struct enet_emu_config *cfg, struct fdx_line *line, unsigned port,
		 struct enet_emu **out)
{
	struct enet_emu *emu;
	int ret;

	if (!line || !out || port > 1)
		return -EINVAL;
	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	for (unsigned i = 0; i < ENET_EMU_IRQ_LINES; i++)
		emu->irq_fd[i] = -1;
	if (cfg)
		emu->cfg = *cfg;
	else
		enet_emu_config_default(&emu->cfg);
	ret = emu_check_config(&emu->cfg);
	if (!ret)
		ret = emu_alloc(emu);
	if (ret)
		goto err_release;
	emu->line = line;
	emu->eng = fdx_line_engine(line);
	emu->port = port;
	ret = emu_board_new(emu);
	if (ret)
		goto err_release;
	enet__regs_init_map(emu);
	enet__regs_reset(emu);
	enet__dma_reset(emu);
	enet__coal_reset(emu);
	ret = fdx_mac_plug(line, port, &enet__port_ops, &enet__engine_ops, emu, emu->phy != NULL);
	if (ret)
		goto err_release;
	/* Losses in real time are checked against the VM's steal (emu_loss.h). */
	emu->steal_ref = emu_engine_realtime(emu->eng) && !emu_steal_ref();
	*out = emu;
	return 0;

err_release:
	emu_release(emu);
	return ret;
}

void enet_emu_free(struct enet_emu *emu)
{
	if (!emu)
		return;
	fdx_mac_unplug(emu->line, emu->port, emu, emu->phy != NULL);
	if (emu->steal_ref)
		emu_steal_unref();
	emu_release(emu);
}

int enet_emu_peek_reg(struct enet_emu *emu, uint32_t off, uint32_t *val)
{
	int ret;

	emu_engine_lock(emu->eng);
	ret = enet__reg_peek(emu, off, val);
	emu_engine_unlock(emu->eng);
	return ret;
}

bool enet_emu_irq_asserted(struct enet_emu *emu, unsigned n)
{
	bool level;

	if (n >= ENET_EMU_IRQ_LINES)
		return false;
	emu_engine_lock(emu->eng);
	level = emu->irq_level[n];
	emu_engine_unlock(emu->eng);
	return level;
}

int enet_emu_inject(struct enet_emu *emu, enum emu_fault fault, uint64_t arg)
{
	return emu_fault_inject(emu->eng, &emu->faults, fault, arg);
}

void enet_emu_get_stats(struct enet_emu *emu, struct enet_emu_stats *st)
{
	emu_engine_lock(emu->eng);
	*st = emu->st;
	emu_engine_unlock(emu->eng);
}

struct fdx_line *enet_emu_line(struct enet_emu *emu)
{
	return emu->line;
}

int enet_emu_phy_irq_fd(struct enet_emu *emu)
{
	return emu->phy ? phy_emu_irq_fd(emu->phy) : -1;
}

struct mdio_emu *enet_emu_mdio_bus(struct enet_emu *emu)
{
	return emu->mdio_bus;
}

uint64_t enet_emu_mdio_frame_ns(struct enet_emu *emu)
{
	uint64_t ns;

	emu_engine_lock(emu->eng);
	ns = enet_mdio_frame_ns(&emu->mdio);
	emu_engine_unlock(emu->eng);
	return ns;
}

void enet_emu_get_mdio_stats(struct enet_emu *emu, struct enet_mdio_stats *st)
{
	emu_engine_lock(emu->eng);
	enet_mdio_get_stats(&emu->mdio, st);
	emu_engine_unlock(emu->eng);
}
