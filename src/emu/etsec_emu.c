// SPDX-License-Identifier: MIT
/*
 * eTSEC model: lifecycle, the bus and the register file
 * (docs/etsec.md §1.1): which offsets exist, their reset values and what a
 * write does. The DMA, events and MIIM parts are in their own files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etsec_emu_priv.h"
#include "mdio_emu.h"

#define DMA_SIZE_MIN 4096u
#define DMA_SIZE_MAX (1ull << 30)

void etsec_emu_config_default(struct etsec_emu_config *cfg)
{
	*cfg = (struct etsec_emu_config){ .dma_bus = 0x40000000ull,
					  .dma_size = 8u << 20,
					  .tx_fifo_frames = 8,
					  .mdio_src_hz = 70000000u,
					  .phy_addr = 1 };
	phy_emu_config_default(&cfg->phy);
}

/* ---- the register table (docs/etsec.md §1.1) ---- */

enum reg_kind { RK_RW, RK_RO, RK_W1C, RK_SPECIAL };

struct reg_def {
	uint16_t off;
	uint16_t count; /* consecutive words */
	uint8_t kind;
	uint32_t reset;
};

static const struct reg_def etsec_regs[] = {
	{ R_ID, 1, RK_RO, 0x01240000u },
	{ R_ID2, 1, RK_RO, 0x003000F0u },
	{ R_IEVENT, 1, RK_SPECIAL, 0 },
	{ R_IMASK, 1, RK_SPECIAL, 0 },
	{ R_EDIS, 1, RK_RW, 0 },
	{ R_ECNTRL, 1, RK_RW, ECNTRL_RESET_VAL },
	{ R_MINFLR, 1, RK_RW, 0 },
	{ R_PTV, 1, RK_RW, 0 },
	{ R_DMACTRL, 1, RK_SPECIAL, 0 },
	{ R_TBIPA, 1, RK_RW, 0 },
	{ R_TCTRL, 1, RK_RW, 0 },
	{ R_TSTAT, 1, RK_SPECIAL, 0 },
	{ R_TXIC, 1, RK_SPECIAL, 0 },
	{ R_TQUEUE, 1, RK_SPECIAL, TQUEUE_EN0 },
	{ R_TBPTR0, 1, RK_RO, 0 },
	{ R_TBASE0, 1, RK_SPECIAL, 0 },
	{ R_RCTRL, 1, RK_RW, 0 },
	{ R_RSTAT, 1, RK_SPECIAL, 0 },
	{ R_RXIC, 1, RK_SPECIAL, 0 },
	{ R_RQUEUE, 1, RK_RW, 0x00800080u },
	{ R_MRBLR, 1, RK_RW, 0 },
	{ R_RBPTR0, 1, RK_RO, 0 },
	{ R_RBASE0, 1, RK_SPECIAL, 0 },
	{ R_MACCFG1, 1, RK_SPECIAL, 0 },
	{ R_MACCFG2, 1, RK_RW, 0x00007000u },
	{ R_IPGIFG, 1, RK_RW, 0x40605060u },
	{ R_HAFDUP, 1, RK_RW, 0x00A1F037u },
	{ R_MAXFRM, 1, RK_RW, 0x00000600u },
	{ R_MIIMCFG, 4, RK_SPECIAL, 0 }, /* MIIMCFG, MIIMCOM, MIIMADD, MIIMCON */
	{ R_MIIMSTAT, 2, RK_SPECIAL, 0 }, /* MIIMSTAT, MIIMIND: read-only */
	{ R_MACSTNADDR1, 32, RK_RW, 0 }, /* station + MAC01..MAC15 ADDR1/2 */
	{ R_RMON_FIRST, (R_RMON_LAST - R_RMON_FIRST) / 4 + 1, RK_RW, 0 },
	{ R_CAR1, 2, RK_W1C, 0 },
	{ R_CAM1, 1, RK_RW, 0xFE03FFFFu },
	{ R_CAM2, 1, RK_RW, 0x000FFFFDu },
	{ R_IGADDR0, 8, RK_RW, 0 },
	{ R_GADDR0, 8, RK_RW, 0 },
	{ R_ATTR, 2, RK_RW, 0 },
	{ R_A002, 1, RK_RO, 0 }, /* A002 "idle" (docs/etsec.md §10, §11) */
};

static const struct reg_def *reg_find(uint32_t off)
{
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(etsec_regs); i++) {
		const struct reg_def *r = &etsec_regs[i];

		if (off >= r->off && off < r->off + 4u * r->count)
			return r;
	}
	return NULL;
}

bool etsec__reg_known(uint32_t off)
{
	return off < ETSEC_EMU_WINDOW && !(off & 3) && reg_find(off);
}

void etsec__regs_reset(struct etsec_emu *emu)
{
	memset(emu->regs, 0, sizeof(emu->regs));
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(etsec_regs); i++)
		for (unsigned w = 0; w < etsec_regs[i].count; w++)
			emu->regs[etsec_regs[i].off / 4 + w] = etsec_regs[i].reset;
	emu->regs[R_MIIMCFG / 4] = 7; /* docs/etsec.md §5 */
}

/* ---- entry points: the engine's lock and clock ---- */

/* Take the lock and apply what is due (a driver access: a catch-up). */
static void enter(struct etsec_emu *emu)
{
	emu_engine_lock(emu->eng);
	emu->now = emu_engine_sync(emu->eng, true);
}

/* The access may have moved the next event earlier. */
static void leave(struct etsec_emu *emu)
{
	emu_engine_kick(emu->eng);
	emu_engine_unlock(emu->eng);
}

/* ns per byte at the speed MACCFG2[IF] and ECNTRL[R100M] select (docs/etsec.md §4.2, §4.3). */
uint64_t etsec__byte_ns(const struct etsec_emu *emu)
{
	uint32_t ifm = ETHDRV_FIELD_GET(MACCFG2_IF, etsec__reg(emu, R_MACCFG2));

	if (ifm != MACCFG2_IF_NIBBLE)
		return 8; /* byte mode (and 00/11, an assumption): 1000 Mb/s */
	return etsec__reg(emu, R_ECNTRL) & ECNTRL_R100M ? 80 : 800;
}

/* A value computed from the registers, read under the lock. */
static uint64_t locked_value(struct etsec_emu *emu, uint64_t (*fn)(const struct etsec_emu *))
{
	uint64_t v;

	enter(emu);
	v = fn(emu);
	leave(emu);
	return v;
}

uint64_t etsec_emu_byte_ns(struct etsec_emu *emu)
{
	return locked_value(emu, etsec__byte_ns);
}

/* ---- register access ---- */

static uint32_t reg_read_locked(struct etsec_emu *emu, uint32_t off)
{
	uint32_t v = emu->regs[off / 4];

	switch (off) {
	case R_TBPTR0:
		return etsec__reg(emu, R_TBASE0) + emu->tx_fetch;
	case R_RBPTR0:
		return etsec__reg(emu, R_RBASE0) + emu->rx_cur;
	case R_MACCFG1: /* SYNCD bits follow the enables (docs/etsec.md §4.1) */
		return (v & ~(MACCFG1_SYNCD_RX | MACCFG1_SYNCD_TX)) |
		       (v & MACCFG1_RX_EN ? MACCFG1_SYNCD_RX : 0) |
		       (v & MACCFG1_TX_EN ? MACCFG1_SYNCD_TX : 0);
	case R_MIIMCOM:
	case R_MIIMSTAT:
	case R_MIIMIND:
		return etsec__miim_read(emu, off);
	default:
		return v;
	}
}

static void dmactrl_write(struct etsec_emu *emu, uint32_t old, uint32_t val)
{
	emu->regs[R_DMACTRL / 4] = val;
	/* docs/etsec.md §4.4: RX frames arrive whole, so GRS completes at once. */
	if ((val & DMACTRL_GRS) && !(old & DMACTRL_GRS))
		etsec__event(emu, EV_GRSC);
	if ((val & DMACTRL_GTS) && !(old & DMACTRL_GTS)) {
		etsec__tx_drop_unstarted(emu);
		if (emu->fifo_count)
			emu->gtsc_pending = true;
		else
			etsec__event(emu, EV_GTSC);
	}
	if (!(val & DMACTRL_GTS) && (old & DMACTRL_GTS))
		etsec__tx_walk(emu, emu->now);
}

static void maccfg1_write(struct etsec_emu *emu, uint32_t old, uint32_t val)
{
	val &= ~(MACCFG1_SYNCD_RX | MACCFG1_SYNCD_TX);
	emu->regs[R_MACCFG1 / 4] = val;
	if ((val & MACCFG1_SOFT_RESET) && !(old & MACCFG1_SOFT_RESET)) {
		ethdrv_counter_inc(&emu->st.soft_resets);
		etsec__dma_rewind(emu, true, true);
	}
	if ((val & MACCFG1_TX_EN) && !(old & MACCFG1_TX_EN))
		etsec__tx_walk(emu, emu->now);
}

static void reg_write_locked(struct etsec_emu *emu, uint32_t off, uint32_t val)
{
	const struct reg_def *r = reg_find(off);
	uint32_t *reg = &emu->regs[off / 4], old = *reg;

	if (r->kind == RK_RO)
		return;
	if (r->kind == RK_W1C) {
		*reg &= ~val;
		return;
	}
	if (r->kind == RK_RW) {
		*reg = val;
		return;
	}
	switch (off) {
	case R_IEVENT:
		*reg &= ~val;
		if (val & (EV_RXB | EV_RXF))
			emu->rx_served = emu->now; /* the host took the RX events: its service */
		etsec__irq_update(emu);
		break;
	case R_IMASK:
		*reg = val;
		etsec__irq_update(emu);
		break;
	case R_DMACTRL:
		dmactrl_write(emu, old, val);
		break;
	case R_TSTAT: /* docs/etsec.md §3.4: 1 clears THLT0 and starts the ring */
		*reg &= ~val;
		if (val & TSTAT_THLT0) {
			emu->tx_walking = true;
			etsec__tx_walk(emu, emu->now);
		}
		break;
	case R_RSTAT:
		*reg &= ~val;
		emu->rx_served = emu->now; /* the host restarts the ring (or acknowledges RXF) */
		break;
	case R_TXIC:
	case R_RXIC:
		*reg = val;
		etsec__coal_written(emu, off == R_TXIC ? COAL_TX : COAL_RX, old);
		break;
	case R_TQUEUE:
		*reg = val;
		if ((val & TQUEUE_EN0) && !(old & TQUEUE_EN0))
			etsec__tx_walk(emu, emu->now);
		break;
	case R_TBASE0:
		*reg = val & ~7u;
		etsec__dma_rewind(emu, true, false);
		break;
	case R_RBASE0:
		*reg = val & ~7u;
		etsec__dma_rewind(emu, false, true);
		break;
	case R_MACCFG1:
		maccfg1_write(emu, old, val);
		break;
	case R_MIIMSTAT:
	case R_MIIMIND:
		break;
	default: /* MIIMCFG, MIIMCOM, MIIMADD, MIIMCON */
		etsec__miim_write(emu, off, val, old);
		break;
	}
}

uint32_t etsec_emu_read32(struct etsec_emu *emu, uint32_t off)
{
	uint32_t v = 0;

	enter(emu);
	ethdrv_counter_inc(&emu->st.reg_reads);
	if (etsec__reg_known(off))
		v = reg_read_locked(emu, off);
	else
		ethdrv_counter_inc(&emu->st.bad_accesses);
	leave(emu);
	return v;
}

void etsec_emu_write32(struct etsec_emu *emu, uint32_t off, uint32_t val)
{
	enter(emu);
	ethdrv_counter_inc(&emu->st.reg_writes);
	if (etsec__reg_known(off))
		reg_write_locked(emu, off, val);
	else
		ethdrv_counter_inc(&emu->st.bad_accesses);
	leave(emu);
}

static uint32_t bus_read32(void *ctx, uint32_t off)
{
	return etsec_emu_read32(ctx, off);
}

static void bus_write32(void *ctx, uint32_t off, uint32_t val)
{
	etsec_emu_write32(ctx, off, val);
}

static const struct ethdrv_mmio_ops etsec_bus_ops = { .read32 = bus_read32,
						      .write32 = bus_write32 };

void etsec_emu_get_bus(struct etsec_emu *emu, struct ethdrv_mmio_bus *bus)
{
	*bus = (struct ethdrv_mmio_bus){ .ops = &etsec_bus_ops,
					 .ctx = emu,
					 .window = ETSEC_EMU_WINDOW,
					 .dma = emu->dma,
					 .irq_fd = { emu->irq[ETSEC_IRQ_TX].fd,
						     emu->irq[ETSEC_IRQ_RX].fd,
						     emu->irq[ETSEC_IRQ_ER].fd, -1 },
					 .desc = "emu:etsec" };
}

bool etsec_emu_irq_asserted(struct etsec_emu *emu, enum etsec_emu_irq n)
{
	bool v;

	enter(emu);
	v = n < ETSEC_IRQ_COUNT && emu->irq[n].asserted;
	leave(emu);
	return v;
}

int etsec_emu_inject(struct etsec_emu *emu, enum emu_fault fault, uint64_t arg)
{
	return emu_fault_inject(emu->eng, &emu->faults, fault, arg);
}

void etsec_emu_get_stats(struct etsec_emu *emu, struct etsec_emu_stats *st)
{
	enter(emu);
	emu_counters_copy(st, &emu->st, sizeof(*st));
	ethdrv_counter_set(&st->irq_asserts, ethdrv_counter_get(&emu->irq[0].asserts) +
						     ethdrv_counter_get(&emu->irq[1].asserts) +
						     ethdrv_counter_get(&emu->irq[2].asserts));
	leave(emu);
}

struct phy_emu *etsec_emu_phy(struct etsec_emu *emu)
{
	return emu->phy;
}

struct mdio_emu *etsec_emu_mdio_bus(struct etsec_emu *emu)
{
	return emu->mdio_bus;
}

uint64_t etsec_emu_miim_frame_ns(struct etsec_emu *emu)
{
	return locked_value(emu, etsec__miim_frame_ns);
}

/* ---- lifecycle ---- */

struct fdx_line *etsec_emu_line(struct etsec_emu *emu)
{
	return emu->line;
}

/* The board: its MDIO bus and the AR8031 on the line's cable. */
static int board_new(struct etsec_emu *emu, struct fdx_line *line)
{
	int ret = mdio_emu_new(&emu->mdio_bus);

	if (ret || emu->cfg.phy_addr == ETSEC_EMU_NO_PHY)
		return ret;
	ret = phy_emu_new(&emu->cfg.phy, fdx_line_wire(line), fdx_line_now(line), &emu->phy);
	if (!ret)
		ret = phy_emu_attach(emu->phy, emu->mdio_bus, emu->cfg.phy_addr);
	return ret;
}

static bool config_ok(const struct etsec_emu_config *c)
{
	return c->dma_size >= DMA_SIZE_MIN && c->dma_size <= DMA_SIZE_MAX &&
	       c->dma_bus + c->dma_size <= (1ull << 32) && c->tx_fifo_frames >= 1 &&
	       c->tx_fifo_frames <= 256 && c->mdio_src_hz &&
	       (c->phy_addr < 32 || c->phy_addr == ETSEC_EMU_NO_PHY);
}

static int etsec_alloc(struct etsec_emu *emu)
{
	unsigned n = emu->cfg.tx_fifo_frames;

	emu->dma = (struct ethdrv_dma_region){ .virt = aligned_alloc(4096, emu->cfg.dma_size),
					       .bus = emu->cfg.dma_bus,
					       .size = emu->cfg.dma_size };
	emu->fifo = calloc(n, sizeof(*emu->fifo));
	if (!emu->dma.virt || !emu->fifo)
		return -ENOMEM;
	memset(emu->dma.virt, 0, emu->dma.size);
	for (unsigned i = 0; i < n; i++) {
		emu->fifo[i].data = malloc(ETSEC_EMU_FRAME_MAX + 4);
		if (!emu->fifo[i].data)
			return -ENOMEM;
	}
	for (unsigned l = 0; l < ETSEC_IRQ_COUNT; l++) {
		int ret = emu_line_open(&emu->irq[l]);

		if (ret)
			return ret;
	}
	return 0;
}

/* Plug into the line and the engine (lock held). */
static int etsec_attach(struct etsec_emu *emu, struct fdx_line *line, unsigned port)
{
	int ret = fdx__attach(line, port, &etsec__port_ops, emu, emu->phy != NULL);

	if (ret)
		return ret;
	ret = emu_engine_add(emu->eng, &etsec__engine_ops, emu);
	if (ret) {
		fdx__detach(line, port, emu->phy != NULL);
		return ret;
	}
	emu->line = line;
	emu->now = emu_engine_now(emu->eng);
	return 0;
}

int etsec_emu_new(const struct etsec_emu_config *cfg, struct fdx_line *line, unsigned port,
		  struct etsec_emu **out)
{
	struct etsec_emu_config c;
	struct etsec_emu *emu;
	int ret;

	etsec_emu_config_default(&c);
	if (cfg)
		c = *cfg;
	if (!out || !line || !config_ok(&c))
		return -EINVAL;
	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	emu->cfg = c;
	emu->port = port;
	emu->eng = fdx_line_engine(line);
	for (unsigned l = 0; l < ETSEC_IRQ_COUNT; l++)
		emu->irq[l].fd = -1;
	emu->miim.end = EMU_NEVER;
	emu->coal[0].deadline = emu->coal[1].deadline = EMU_NEVER;
	etsec__regs_reset(emu);
	ret = etsec_alloc(emu);
	if (!ret)
		ret = board_new(emu, line);
	if (!ret) {
		emu_engine_lock(emu->eng);
		ret = etsec_attach(emu, line, port);
		emu_engine_unlock(emu->eng);
	}
	if (ret) {
		etsec_emu_free(emu);
		return ret;
	}
	/* Losses in real time are checked against the VM's steal (emu_loss.h). */
	emu->steal_ref = emu_engine_realtime(emu->eng) && !emu_steal_ref();
	*out = emu;
	return 0;
}

void etsec_emu_free(struct etsec_emu *emu)
{
	if (!emu)
		return;
	if (emu->line) {
		emu_engine_lock(emu->eng);
		emu_engine_remove(emu->eng, emu);
		fdx__detach(emu->line, emu->port, emu->phy != NULL);
		emu_engine_unlock(emu->eng);
	}
	if (emu->phy) {
		mdio_emu_detach(emu->mdio_bus, emu->cfg.phy_addr);
		phy_emu_free(emu->phy);
	}
	mdio_emu_free(emu->mdio_bus);
	if (emu->steal_ref)
		emu_steal_unref();
	for (unsigned n = 0; n < ETSEC_IRQ_COUNT; n++)
		emu_line_close(&emu->irq[n]);
	if (emu->fifo)
		for (unsigned i = 0; i < emu->cfg.tx_fifo_frames; i++)
			free(emu->fifo[i].data);
	free(emu->fifo);
	free(emu->dma.virt);
	free(emu);
}

#define STAT(f) ETHDRV_STAT_DESC(struct etsec_emu_stats, f)
const struct ethdrv_stat_desc etsec_emu_stats_desc[] = {
	STAT(reg_reads),
	STAT(reg_writes),
	STAT(bad_accesses),
	STAT(soft_resets),
	STAT(tx_frames),
	STAT(tx_bytes),
	STAT(tx_halts),
	STAT(tx_errors),
	STAT(tx_underruns),
	STAT(tx_unstarted_dropped),
	STAT(tx_idle_ns),
	STAT(rx_frames),
	STAT(rx_bytes),
	STAT(rx_dropped_nobd),
	EMU_LOSS_STAT_DESCS(struct etsec_emu_stats, rx_loss),
	STAT(rx_cut),
	STAT(rx_dropped_disabled),
	STAT(rx_dropped_filter),
	STAT(rx_bad_mrblr),
	STAT(rx_crc_errors),
	STAT(dma_errors),
	STAT(coal_count_fires),
	STAT(coal_timer_fires),
	STAT(irq_asserts),
	STAT(miim_frames),
	STAT(faults),
};
const size_t etsec_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(etsec_emu_stats_desc);
