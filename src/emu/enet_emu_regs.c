// SPDX-License-Identifier: MIT
/*
 * ENET model: the register table (offset, reset value, write mask, the
 * fact it follows), reset, and the read/write dispatch by offset. Side
 * effects that belong to other parts are calls into them: the DMA
 * (enet_emu_dma.c), events and coalescing (enet_emu_irq.c). MMFR/MSCR go
 * through the MDIO hook below. Section numbers are docs/enet.md.
 */
#include <errno.h>
#include <string.h>

#include "enet_emu_priv.h"

enum reg_kind {
	REG_RW, /* value & wmask stored */
	REG_W1C, /* EIR: writing 1 clears (docs/enet.md §2) */
	REG_RAZWI, /* reads 0, ignores writes (multi-queue, reserved) */
	REG_MIB, /* counter: writable only while MIBC.MIB_DIS (docs/enet.md §7) */
	REG_SPECIAL, /* handled in reg_write_special() */
};

struct enet_reg {
	uint16_t off; /* byte offset */
	uint8_t kind; /* enum reg_kind */
	uint32_t reset; /* value after reset */
	uint32_t wmask; /* bits a write may change */
	const char *name; /* RM name */
};

#define RW(o, n, r, m)                     \
	{                                  \
		(o), REG_RW, (r), (m), (n) \
	}
#define SP(o, n, r, m)                          \
	{                                       \
		(o), REG_SPECIAL, (r), (m), (n) \
	}
#define RZ(o, n)                          \
	{                                 \
		(o), REG_RAZWI, 0, 0, (n) \
	}
#define MIB(o, n)                         \
	{                                 \
		(o), REG_MIB, 0, ~0u, (n) \
	}

static const struct enet_reg enet_regs[] = {
	/* docs/enet.md §1.1, docs/enet.md §2: events W1C, mask plain. */
	{ R_EIR, REG_W1C, 0, EV_ALL, "EIR" },
	RW(R_EIMR, "EIMR", 0, EV_ALL),
	/* docs/enet.md §3.4: any write triggers; bit 24 reads "active". */
	SP(R_RDAR, "RDAR", 0, 0),
	SP(R_TDAR, "TDAR", 0, 0),
	/* docs/enet.md §4.1: reset value per NuttX (assumption); RESET self-clears. */
	SP(R_ECR, "ECR", ECR_RESET_VAL, ECR_WMASK),
	/* docs/enet.md §5: the MDIO block's registers (hook below). */
	SP(R_MMFR, "MMFR", 0, ~0u),
	SP(R_MSCR, "MSCR", 0, ETHDRV_GENMASK(10, 1)),
	/* docs/enet.md §1.1, docs/enet.md §7: disabled + idle at reset. */
	SP(R_MIBC, "MIBC", MIBC_DIS | MIBC_IDLE, MIBC_DIS),
	/* docs/enet.md §4.2: MAX_FL 1518, LOOP at reset (QEMU); GRS read-only. */
	RW(R_RCR, "RCR", 0x05EE0001u, ETHDRV_GENMASK(30, 12) | ETHDRV_GENMASK(9, 0)),
	/* docs/enet.md §4.3: RFC_PAUSE (bit 4) read-only. */
	SP(R_TCR, "TCR", 0, ETHDRV_GENMASK(9, 5) | ETHDRV_GENMASK(3, 0)),
	/* docs/enet.md §1.1: station address; PAUR low half is the PAUSE type 0x8808. */
	RW(R_PALR, "PALR", 0, ~0u),
	RW(R_PAUR, "PAUR", 0x8808u, ETHDRV_GENMASK(31, 16)),
	RW(R_OPD, "OPD", 0x00010000u, ETHDRV_GENMASK(15, 0)),
	/* docs/enet.md §6: coalescing, ring 0 only (rings 1/2 RAZ/WI, docs/enet.md §1.2). */
	SP(R_TXIC0, "TXIC0", 0, IC_EN | IC_CS | IC_FT | IC_TT),
	RZ(0x0F4, "TXIC1"),
	RZ(0x0F8, "TXIC2"),
	SP(R_RXIC0, "RXIC0", 0, IC_EN | IC_CS | IC_FT | IC_TT),
	RZ(0x104, "RXIC1"),
	RZ(0x108, "RXIC2"),
	/* docs/enet.md §1.1: hash tables. */
	RW(R_IAUR, "IAUR", 0, ~0u),
	RW(R_IALR, "IALR", 0, ~0u),
	RW(R_GAUR, "GAUR", 0, ~0u),
	RW(R_GALR, "GALR", 0, ~0u),
	/* docs/enet.md §1.1: STRFWD and watermark, stored only. */
	RW(R_TFWR, "TFWR", 0, ETHDRV_BIT(8) | ETHDRV_GENMASK(5, 0)),
	/* docs/enet.md §1.1: FRBR/FRSR exist on i.MX25/27/28 only; i.MX6 init code still
	 * writes FRSR: reads 0, writes ignored, not an error (docs/enet.md §15). */
	RZ(0x14C, "FRBR"),
	RZ(0x150, "FRSR"),
	/* docs/enet.md §1.2: rings 1 and 2, RAZ/WI in this single-queue model. */
	RZ(0x160, "RDSR1"),
	RZ(0x164, "TDSR1"),
	RZ(0x168, "MRBR1"),
	RZ(0x16C, "RDSR2"),
	RZ(0x170, "TDSR2"),
	RZ(0x174, "MRBR2"),
	/* docs/enet.md §1.1, §3.4: ring starts ignore the low 3 bits; MRBR bits 13:4. */
	SP(R_RDSR, "RDSR", 0, ETHDRV_GENMASK(31, 3)),
	SP(R_TDSR, "TDSR", 0, ETHDRV_GENMASK(31, 3)),
	RW(R_MRBR, "MRBR", 0, ETHDRV_GENMASK(13, 4)),
	/* docs/enet.md §1.1: FIFO thresholds, stored only (8-bit fields assumed). */
	RW(0x190, "RSFL", 0, 0xFF),
	RW(0x194, "RSEM", 0, 0xFF),
	RW(0x198, "RAEM", 4, 0xFF),
	RW(0x19C, "RAFL", 4, 0xFF),
	RW(0x1A0, "TSEM", 0, 0xFF),
	RW(0x1A4, "TAEM", 4, 0xFF),
	RW(0x1A8, "TAFL", 8, 0xFF),
	RW(R_TIPG, "TIPG", 12, ETHDRV_GENMASK(4, 0)),
	RW(R_FTRL, "FTRL", 0x7FF, ETHDRV_GENMASK(13, 0)),
	RW(0x1C0, "TACC", 0, 0x19),
	RW(R_RACC, "RACC", 0, 0xC7),
	/* docs/enet.md §1.2: AVB registers, RAZ/WI. */
	RZ(0x1C8, "RCMR1"),
	RZ(0x1CC, "RCMR2"),
	RZ(0x1D8, "DMACFG1"),
	RZ(0x1DC, "DMACFG2"),
	RZ(0x1E0, "RDAR1"),
	RZ(0x1E4, "TDAR1"),
	RZ(0x1E8, "RDAR2"),
	RZ(0x1EC, "TDAR2"),
	RZ(0x1F0, "QOS"),
	RZ(0x1F4, "LPI_SLEEP"),
	RZ(0x1F8, "LPI_WAKE"),
	/* docs/enet.md §7: TX RMON and IEEE counters. */
	MIB(0x200, "RMON_T_DROP"),
	MIB(0x204, "RMON_T_PACKETS"),
	MIB(0x208, "RMON_T_BC_PKT"),
	MIB(0x20C, "RMON_T_MC_PKT"),
	MIB(0x210, "RMON_T_CRC_ALIGN"),
	MIB(0x214, "RMON_T_UNDERSIZE"),
	MIB(0x218, "RMON_T_OVERSIZE"),
	MIB(0x21C, "RMON_T_FRAG"),
	MIB(0x220, "RMON_T_JAB"),
	MIB(0x224, "RMON_T_COL"),
	MIB(0x228, "RMON_T_P64"),
	MIB(0x22C, "RMON_T_P65TO127"),
	MIB(0x230, "RMON_T_P128TO255"),
	MIB(0x234, "RMON_T_P256TO511"),
	MIB(0x238, "RMON_T_P512TO1023"),
	MIB(0x23C, "RMON_T_P1024TO2047"),
	MIB(0x240, "RMON_T_P_GTE2048"),
	MIB(0x244, "RMON_T_OCTETS"),
	MIB(0x248, "IEEE_T_DROP"),
	MIB(0x24C, "IEEE_T_FRAME_OK"),
	MIB(0x250, "IEEE_T_1COL"),
	MIB(0x254, "IEEE_T_MCOL"),
	MIB(0x258, "IEEE_T_DEF"),
	MIB(0x25C, "IEEE_T_LCOL"),
	MIB(0x260, "IEEE_T_EXCOL"),
	MIB(0x264, "IEEE_T_MACERR"),
	MIB(0x268, "IEEE_T_CSERR"),
	MIB(0x26C, "IEEE_T_SQE"),
	MIB(0x270, "IEEE_T_FDXFC"),
	MIB(0x274, "IEEE_T_OCTETS_OK"),
	/* docs/enet.md §15: reserved words inside the MIB block that U-Boot's clear loop
	 * writes on i.MX6: read 0, writes ignored, not an error. */
	RZ(0x278, "MIB_RESVD_278"),
	RZ(0x27C, "MIB_RESVD_27C"),
	/* docs/enet.md §7: 0x280 (R_DROP on old parts) and 0x2A4 reserved on i.MX8M. */
	RZ(0x280, "RMON_R_DROP"),
	MIB(0x284, "RMON_R_PACKETS"),
	MIB(0x288, "RMON_R_BC_PKT"),
	MIB(0x28C, "RMON_R_MC_PKT"),
	MIB(0x290, "RMON_R_CRC_ALIGN"),
	MIB(0x294, "RMON_R_UNDERSIZE"),
	MIB(0x298, "RMON_R_OVERSIZE"),
	MIB(0x29C, "RMON_R_FRAG"),
	MIB(0x2A0, "RMON_R_JAB"),
	RZ(0x2A4, "RMON_R_RESVD_0"),
	MIB(0x2A8, "RMON_R_P64"),
	MIB(0x2AC, "RMON_R_P65TO127"),
	MIB(0x2B0, "RMON_R_P128TO255"),
	MIB(0x2B4, "RMON_R_P256TO511"),
	MIB(0x2B8, "RMON_R_P512TO1023"),
	MIB(0x2BC, "RMON_R_P1024TO2047"),
	MIB(0x2C0, "RMON_R_P_GTE2048"),
	MIB(0x2C4, "RMON_R_OCTETS"),
	MIB(0x2C8, "IEEE_R_DROP"),
	MIB(0x2CC, "IEEE_R_FRAME_OK"),
	MIB(0x2D0, "IEEE_R_CRC"),
	MIB(0x2D4, "IEEE_R_ALIGN"),
	MIB(0x2D8, "IEEE_R_MACERR"),
	MIB(0x2DC, "IEEE_R_FDXFC"),
	MIB(0x2E0, "IEEE_R_OCTETS_OK"),
	RZ(0x2E4, "MIB_RESVD_2E4"),
	RZ(0x2E8, "MIB_RESVD_2E8"),
	RZ(0x2EC, "MIB_RESVD_2EC"),
	RZ(0x2F0, "MIB_RESVD_2F0"),
	RZ(0x2F4, "MIB_RESVD_2F4"),
	RZ(0x2F8, "MIB_RESVD_2F8"),
	RZ(0x2FC, "MIB_RESVD_2FC"),
	/* docs/enet.md §1.1: IEEE 1588 timer, storage only (ATPER resets to 10^9). */
	RW(0x400, "ATCR", 0, ~0u),
	RW(0x404, "ATVR", 0, ~0u),
	RW(0x408, "ATOFF", 0, ~0u),
	RW(0x40C, "ATPER", 0x3B9ACA00u, ~0u),
	RW(0x410, "ATCOR", 0, ~0u),
	RW(0x414, "ATINC", 0, ~0u),
	RW(0x418, "ATSTMP", 0, ~0u),
};

void enet__regs_init_map(struct enet_emu *emu)
{
	memset(emu->map, 0, sizeof(emu->map));
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(enet_regs); i++)
		emu->map[enet_regs[i].off / 4] = &enet_regs[i];
}

/* Every register back to its reset value (docs/enet.md §10 item 6); MIB counters too. */
void enet__regs_reset(struct enet_emu *emu)
{
	memset(emu->regs, 0, sizeof(emu->regs));
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(enet_regs); i++)
		emu->regs[enet_regs[i].off / 4] = enet_regs[i].reset;
}

/* The register at @off, or NULL for an unaligned or unknown offset. */
static const struct enet_reg *reg_find(const struct enet_emu *emu, uint32_t off)
{
	if (off >= ENET_EMU_WINDOW || off % 4)
		return NULL;
	return emu->map[off / 4];
}

/* ---- MIB (docs/enet.md §7) ---- */

void enet__mib_inc(struct enet_emu *emu, enum enet_mib reg, uint32_t n)
{
	if (!(emu->regs[R_MIBC / 4] & MIBC_DIS))
		emu->regs[reg / 4] += n;
}

void enet__mib_bucket(struct enet_emu *emu, uint32_t p64, uint32_t len)
{
	/* Buckets 64, 65-127, 128-255, 256-511, 512-1023, 1024-2047, >= 2048. */
	uint32_t i = 0;

	if (len > 64)
		for (i = 1; i < 6 && len >= (128u << (i - 1)); i++)
			;
	enet__mib_inc(emu, (enum enet_mib)(p64 + 4 * i), 1);
}

/* MIBC.MIB_CLEAR exists on the i.MX6 parts only (FreeBSD, docs/enet.md §15). */
static bool soc_has_mib_clear(enum ethdrv_enet_soc soc)
{
	return soc == ETHDRV_ENET_SOC_IMX6Q || soc == ETHDRV_ENET_SOC_IMX6SX ||
	       soc == ETHDRV_ENET_SOC_IMX6UL;
}

/* The multi-queue AXI parts, where Linux and FreeBSD never use ECR.RESET (docs/enet.md §15). */
static bool soc_is_axi(enum ethdrv_enet_soc soc)
{
	return soc == ETHDRV_ENET_SOC_IMX8M || soc == ETHDRV_ENET_SOC_IMX6SX;
}

static void mib_clear(struct enet_emu *emu)
{
	for (uint32_t off = R_MIB_FIRST; off <= R_MIB_LAST; off += 4)
		emu->regs[off / 4] = 0;
}

/* ---- MDIO hook (docs/enet.md §5) ---- */

/*
 * MMFR and MSCR belong to the MDIO block (src/emu/enet_mdio.c,
 * docs/mdio.md §3, docs/enet.md §11). The block keeps the MII event latch; EIR bit 23
 * mirrors it: the engine calls enet__raise_mii() when a frame ends (the
 * one place the bit is set), an EIR write of bit 23 acknowledges it in
 * both, ECR.RESET resets both. Every access first runs the events due, so
 * the block never completes a frame the engine has not seen.
 */
void enet__raise_mii(struct enet_emu *emu)
{
	enet__event(emu, EV_MII);
}

/* ---- read ---- */

uint32_t enet__reg_read(struct enet_emu *emu, uint32_t off, uint64_t now)
{
	const struct enet_reg *r = reg_find(emu, off);
	uint32_t v;

	if (!r) {
		ethdrv_counter_inc(&emu->st.bad_accesses);
		return 0;
	}
	v = emu->regs[off / 4];
	switch (off) {
	case R_MMFR:
	case R_MSCR:
		return enet_mdio_read(&emu->mdio, off, now);
	case R_TDAR:
		return enet__tdar_read(emu, now);
	case R_MIBC:
		return (v & MIBC_DIS) | MIBC_IDLE;
	case R_RCR:
		/* GRS: the receiver is stopped while ETHEREN=0 (assumption). */
		return (v & ~RCR_GRS) | (enet__enabled(emu) ? 0 : RCR_GRS);
	default:
		return v;
	}
}

int enet__reg_peek(struct enet_emu *emu, uint32_t off, uint32_t *val)
{
	const struct enet_reg *r = reg_find(emu, off);

	*val = 0;
	if (!r)
		return -ENOENT;
	if (r->kind == REG_RAZWI)
		return 0;
	/* Time 0 is taken as the block's latest time: nothing completes. */
	*val = enet__reg_read(emu, off, 0);
	return 0;
}

/* ---- write ---- */

/* ECR (docs/enet.md §4.1): RESET, and the ETHEREN edges that rewind the rings (docs/enet.md §3.4). */
static void ecr_write(struct enet_emu *emu, uint32_t val, uint64_t now)
{
	uint32_t old = emu->regs[R_ECR / 4];
	uint32_t new = (old & ~ECR_WMASK) | (val & ECR_WMASK);

	if (val & ECR_RESET) {
		ethdrv_counter_inc(&emu->st.resets);
		if (soc_is_axi(emu->cfg.soc))
			ethdrv_counter_inc(&emu->st.resets_axi);
		enet__tx_stop(emu, now, true);
		enet_mdio_reset(&emu->mdio, now); /* frame aborted, MSCR 0, MMFR kept */
		enet__regs_reset(emu);
		enet__dma_reset(emu);
		enet__coal_reset(emu);
		enet__irq_update(emu);
		return;
	}
	emu->regs[R_ECR / 4] = new;
	if ((old ^ new) & ECR_ETHEREN) {
		if (!(new &ECR_ETHEREN))
			enet__tx_stop(emu, now, true);
		enet__dma_reset(emu);
		enet__irq_update(emu); /* EIR.MII reaches int0 only while enabled */
	}
}

/* TCR (docs/enet.md §4.3): GTS requests a graceful stop; clearing it resumes TX. */
static void tcr_write(struct enet_emu *emu, uint32_t val, const struct enet_reg *r, uint64_t now)
{
	uint32_t old = emu->regs[R_TCR / 4];

	emu->regs[R_TCR / 4] = val & r->wmask;
	if (!(old & TCR_GTS) && (val & TCR_GTS))
		enet__graceful_stop(emu, now);
	else if ((old & TCR_GTS) && !(val & TCR_GTS)) {
		emu->gra_pending = false;
		enet__tx_resume(emu, now);
	}
}

static void reg_write_special(struct enet_emu *emu, const struct enet_reg *r, uint32_t val,
			      uint64_t now)
{
	switch (r->off) {
	case R_RDAR:
		/* Any value; ignored while disabled (docs/enet.md §10 item 2). */
		if (enet__enabled(emu))
			emu->regs[R_RDAR / 4] = DAR_ACTIVE;
		emu->rx_served = now; /* the driver gave the ring buffers */
		break;
	case R_TDAR:
		if (enet__enabled(emu)) {
			emu->regs[R_TDAR / 4] = DAR_ACTIVE;
			emu->tdar_clear_at = 0;
			enet__tx_fetch(emu, now);
		}
		break;
	case R_ECR:
		ecr_write(emu, val, now);
		break;
	case R_MMFR:
	case R_MSCR:
		enet_mdio_write(&emu->mdio, r->off, val, now);
		break;
	case R_MIBC:
		emu->regs[R_MIBC / 4] = (val & r->wmask) | MIBC_IDLE;
		if ((val & MIBC_CLEAR) && soc_has_mib_clear(emu->cfg.soc))
			mib_clear(emu);
		break;
	case R_TCR:
		tcr_write(emu, val, r, now);
		break;
	case R_RDSR:
		/* Writing a ring start resets the DMA's pointer to it (QEMU, docs/enet.md §3.4). */
		emu->regs[R_RDSR / 4] = val & r->wmask;
		emu->rx_off = 0;
		break;
	case R_TDSR:
		emu->regs[R_TDSR / 4] = val & r->wmask;
		emu->tx_fetch = 0;
		break;
	case R_TXIC0:
	case R_RXIC0:
		emu->regs[r->off / 4] = val & r->wmask;
		enet__coal_written(emu, r->off == R_RXIC0 ? COAL_RX : COAL_TX);
		break;
	}
}

void enet__reg_write(struct enet_emu *emu, uint32_t off, uint32_t val, uint64_t now)
{
	const struct enet_reg *r = reg_find(emu, off);
	uint32_t *reg = &emu->regs[off / 4];

	if (!r) {
		ethdrv_counter_inc(&emu->st.bad_accesses);
		return;
	}
	switch (r->kind) {
	case REG_RW:
		*reg = (*reg & ~r->wmask) | (val & r->wmask);
		if (off == R_EIMR)
			enet__irq_update(emu);
		break;
	case REG_W1C:
		*reg &= ~(val & r->wmask);
		if (val & EV_MII)
			enet_mdio_event_ack(&emu->mdio, now);
		enet__irq_update(emu);
		break;
	case REG_MIB:
		if (emu->regs[R_MIBC / 4] & MIBC_DIS)
			*reg = val;
		break;
	case REG_SPECIAL:
		reg_write_special(emu, r, val, now);
		break;
	default:
		break;
	}
}
