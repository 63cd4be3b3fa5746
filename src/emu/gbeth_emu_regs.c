// SPDX-License-Identifier: MIT
/*
 * GbEth model: register decode and the access rules of each register
 * (docs/gbeth.md §1, §2, §4.1, §8). Assumptions: gbeth_emu.h.
 */
#include <errno.h>

#include "gbeth_emu_priv.h"

enum kind {
	K_NONE, /* no register here */
	K_RW, /* storage */
	K_RO, /* read only (computed) */
	K_W0C, /* DMAC status: a 0 clears, a 1 keeps (docs/gbeth.md §4.1) */
	K_W1C, /* ECSR: a 1 clears */
	K_CNT, /* counter: a write clears (docs/gbeth.md §8) */
	K_SPECIAL, /* handled by name */
};

struct reg {
	uint32_t off;
	uint8_t kind;
	uint32_t mask; /* writable (or clearable) bits */
};

static const struct reg reg_table[] = {
	{ G_CCC, K_SPECIAL, ETHDRV_BIT(24) | ETHDRV_BIT(8) | CCC_OPC },
	{ G_DBAT, K_RW, 0xFFFFFFF8u },
	{ G_CSR, K_RO, 0 },
	{ G_RCR, K_RW, 0xFFFFFFFFu },
	{ G_RTC, K_RW, 0xFFFFFFFFu },
	{ G_TGC, K_RW, 0xFFFFFFFFu },
	{ G_TCCR, K_SPECIAL, 0x30Fu },
	{ G_EIC, K_RW, EIS_BITS & ~EIS_QFS },
	{ G_EIS, K_W0C, EIS_BITS & ~EIS_QFS },
	{ G_RIC0, K_RW, RIS0_BITS },
	{ G_RIS0, K_W0C, RIS0_BITS },
	{ G_RIC1, K_RW, 0xFFFFFFFFu },
	{ G_RIS1, K_W0C, 0xFFFFFFFFu },
	{ G_RIC2, K_RW, RIS2_BITS },
	{ G_RIS2, K_W0C, RIS2_BITS },
	{ G_TIC, K_RW, TIS_BITS },
	{ G_TIS, K_W0C, TIS_BITS },
	{ G_ISS, K_RO, 0 },
	{ G_RIC3, K_RW, 0xFFFFFFFFu },
	{ G_ECMR, K_RW, 0xFFFFFFFFu },
	{ G_RFLR, K_RW, 0x3FFFFu },
	{ G_ECSR, K_W1C, ECSR_BITS },
	{ G_ECSIPR, K_RW, ECSR_BITS },
	{ G_PIR, K_SPECIAL, PIR_MDC | PIR_MMD | PIR_MDO },
	{ G_PSR, K_RO, 0 },
	{ G_CXR31, K_RW, 0xFFFFFFFFu },
	{ G_CXR35, K_RW, 0xFFFFFFFFu },
	{ G_GECMR, K_RW, 0xFFFFFFFFu },
	{ G_MAHR, K_RW, 0xFFFFFFFFu },
	{ G_MALR, K_RW, 0xFFFFu },
	{ G_TROCR, K_CNT, 0 },
	{ G_CXR41, K_CNT, 0 },
	{ G_CXR42, K_CNT, 0 },
	{ G_CSR0, K_RW, CSR0_TPE | CSR0_RPE },
	{ G_CSR1, K_RW, 0xFFFFFFFFu },
	{ G_CSR2, K_RW, 0xFFFFFFFFu },
};

static const struct reg *reg_find(uint32_t off)
{
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(reg_table); i++)
		if (reg_table[i].off == off)
			return &reg_table[i];
	return NULL;
}

/* DMAC registers RESET clears (docs/gbeth.md §12 item 2). */
static const uint32_t dmac_regs[] = { G_DBAT, G_TCCR, G_EIC,  G_EIS,  G_RIC0, G_RIS0,
				      G_RIC1, G_RIS1, G_RIC2, G_RIS2, G_TIC,  G_TIS };

void gbeth__regs_reset(struct gbeth_emu *emu, bool full)
{
	const uint8_t *m = emu->cfg.boot_mac;

	if (!full) {
		for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(dmac_regs); i++)
			*greg(emu, dmac_regs[i]) = 0;
		return;
	}
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(emu->regs); i++)
		emu->regs[i] = 0;
	*greg(emu, G_MAHR) =
		(uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
	*greg(emu, G_MALR) = (uint32_t)m[4] << 8 | m[5];
}

static uint32_t csr_value(const struct gbeth_emu *emu)
{
	uint32_t v = ETHDRV_BIT(emu->ops_mode) & CSR_OPS;

	if (emu->tx_busy || (emu->regs[G_TCCR / 4] & TCCR_TSRQ0))
		v |= CSR_TPO0;
	return v;
}

static uint32_t iss_value(const struct gbeth_emu *emu)
{
	const uint32_t *r = emu->regs;
	uint32_t v = 0;

	if (r[G_RIS0 / 4] & r[G_RIC0 / 4])
		v |= ISS_FRS;
	if (r[G_TIS / 4] & r[G_TIC / 4])
		v |= ISS_FTS;
	if ((r[G_EIS / 4] & r[G_EIC / 4]) || (r[G_RIS2 / 4] & r[G_RIC2 / 4]))
		v |= ISS_ES;
	if (r[G_ECSR / 4] & r[G_ECSIPR / 4])
		v |= ISS_MS;
	return v;
}

static uint32_t value(struct gbeth_emu *emu, const struct reg *r)
{
	switch (r->off) {
	case G_CSR:
		return csr_value(emu);
	case G_ISS:
		return iss_value(emu);
	case G_EIS: /* QFS is RIS2's summary (docs/gbeth.md §12 item 6) */
		return emu->regs[G_EIS / 4] |
		       ((emu->regs[G_RIS2 / 4] & emu->regs[G_RIC2 / 4]) ? EIS_QFS : 0);
	case G_PSR:
		return gbeth__link_ok(emu) ? PSR_LMON : 0;
	case G_PIR:
		return (emu->regs[G_PIR / 4] & ~PIR_MDI) |
		       (mdio_bb_emu_mdi(&emu->bb) ? PIR_MDI : 0);
	default:
		return emu->regs[r->off / 4];
	}
}

static const struct reg *decode(struct gbeth_emu *emu, uint32_t off)
{
	const struct reg *r = NULL;

	if (off < GBETH_EMU_WINDOW && !(off & 3))
		r = reg_find(off);
	if (!r)
		ethdrv_counter_inc(&emu->st.bad_accesses);
	return r;
}

uint32_t gbeth__reg_read(struct gbeth_emu *emu, uint32_t off, uint64_t now)
{
	const struct reg *r = decode(emu, off);

	(void)now;
	return r ? value(emu, r) : 0;
}

int gbeth__reg_peek(struct gbeth_emu *emu, uint32_t off, uint32_t *val)
{
	const struct reg *r = off < GBETH_EMU_WINDOW && !(off & 3) ? reg_find(off) : NULL;

	if (!r)
		return -EINVAL;
	*val = value(emu, r);
	return 0;
}

static void pir_write(struct gbeth_emu *emu, uint32_t val, uint64_t now)
{
	struct gbeth_emu_stats *st = &emu->st;

	*greg(emu, G_PIR) = val & (PIR_MDC | PIR_MMD | PIR_MDO);
	mdio_bb_emu_pins(&emu->bb, val & PIR_MDC, val & PIR_MDO, val & PIR_MMD, now);
	ethdrv_counter_set(&st->mdio_frames, ethdrv_counter_get(&emu->bb.st.frames));
	ethdrv_counter_set(&st->mdio_short_phases, ethdrv_counter_get(&emu->bb.st.short_phases));
	ethdrv_counter_set(&st->mdio_last_frame_ns, ethdrv_counter_get(&emu->bb.st.last_frame_ns));
}

static void special_write(struct gbeth_emu *emu, const struct reg *r, uint32_t val, uint64_t now)
{
	uint32_t *p = greg(emu, r->off);

	switch (r->off) {
	case G_CCC:
		*p = (*p & ~r->mask) | (val & r->mask);
		gbeth__mode_request(emu, val & CCC_OPC, now);
		break;
	case G_TCCR:
		/* A 1 requests, a 0 is no request (docs/gbeth.md §3.3). */
		*p |= val & r->mask;
		gbeth__tx_kick(emu, now);
		break;
	case G_PIR:
		pir_write(emu, val, now);
		break;
	}
}

void gbeth__reg_write(struct gbeth_emu *emu, uint32_t off, uint32_t val, uint64_t now)
{
	const struct reg *r = decode(emu, off);
	uint32_t *p;

	if (!r)
		return;
	p = greg(emu, off);
	if (off == G_RIS0 || off == G_RIC0)
		emu->rx_served = now; /* the host served RX: its service gap starts here */
	switch (r->kind) {
	case K_RW:
		*p = (*p & ~r->mask) | (val & r->mask);
		break;
	case K_W0C:
		*p &= val | ~r->mask;
		break;
	case K_W1C:
		*p &= ~(val & r->mask);
		break;
	case K_CNT:
		if (!val) /* cleared by writing 0 (docs/gbeth.md §8) */
			*p = 0;
		break;
	case K_SPECIAL:
		special_write(emu, r, val, now);
		break;
	default:
		break; /* read only */
	}
	gbeth__irq_update(emu);
}
