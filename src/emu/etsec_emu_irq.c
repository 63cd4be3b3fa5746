// SPDX-License-Identifier: MIT
/*
 * eTSEC model: events, the three interrupt lines (docs/etsec.md §2, §8.1),
 * TXIC/RXIC coalescing (docs/etsec.md §6) and the RMON counters with their
 * carry bits (docs/etsec.md §7).
 */
#include "etsec_emu_priv.h"

/* The events each line carries (docs/etsec.md §2): TX, RX, the rest on ER. */
static const uint32_t line_events[ETSEC_IRQ_COUNT] = { EV_LINE_TX, EV_LINE_RX,
						       ~(EV_LINE_TX | EV_LINE_RX) };

void etsec__irq_update(struct etsec_emu *emu)
{
	uint32_t active = etsec__reg(emu, R_IEVENT) & etsec__reg(emu, R_IMASK);

	for (unsigned n = 0; n < ETSEC_IRQ_COUNT; n++) {
		bool was = emu->irq[n].asserted, on = (active & line_events[n]) != 0;

		emu_line_set(&emu->irq[n], on);
		if (on && !was)
			emu_engine_irq_asserted(emu->eng);
	}
}

/* Events set whatever IMASK says (docs/etsec.md §2). */
void etsec__event(struct etsec_emu *emu, uint32_t bits)
{
	uint32_t *ev = &emu->regs[R_IEVENT / 4];

	if ((*ev | bits) == *ev)
		return;
	*ev |= bits;
	if (bits & etsec__reg(emu, R_IMASK))
		etsec__irq_update(emu);
}

/* ---- coalescing (docs/etsec.md §6) ---- */

static const uint32_t coal_reg[2] = { R_RXIC, R_TXIC };
static const uint32_t coal_event[2] = { EV_RXF, EV_TXF };

/* One tick: 64 clocks of the interface clock, which carries a byte per clock
 * at 1000 Mb/s (125 MHz) and a nibble at 100/10 Mb/s (25/2.5 MHz). */
uint64_t etsec__tick_ns(const struct etsec_emu *emu)
{
	uint64_t bns = etsec__byte_ns(emu);

	return 64u * (bns == 8 ? bns : bns / 2);
}

static void coal_fire(struct etsec_emu *emu, unsigned dir)
{
	emu->coal[dir].pending = 0;
	emu->coal[dir].deadline = EMU_NEVER;
	etsec__event(emu, coal_event[dir]);
}

void etsec__coal_frame(struct etsec_emu *emu, unsigned dir, uint64_t t)
{
	uint32_t ic = etsec__reg(emu, coal_reg[dir]);
	uint32_t ft = ETHDRV_FIELD_GET(IC_FT, ic), tt = ETHDRV_FIELD_GET(IC_TT, ic);
	struct etsec_coal *c = &emu->coal[dir];
	bool on = (ic & IC_EN) && (ft || tt);

	/* Off: every frame raises its event (docs/etsec.md §6). */
	c->pending = on ? c->pending + 1 : 0;
	if (!on || (ft && c->pending >= ft)) {
		if (on)
			ethdrv_counter_inc(&emu->st.coal_count_fires);
		coal_fire(emu, dir);
	} else if (tt && c->deadline == EMU_NEVER) {
		c->deadline = t + tt * etsec__tick_ns(emu);
	}
}

void etsec__coal_expire(struct etsec_emu *emu, unsigned dir, uint64_t t)
{
	(void)t;
	ethdrv_counter_inc(&emu->st.coal_timer_fires);
	coal_fire(emu, dir);
}

/* A write resets the count and the timer; ICEN off with frames pending fires. */
void etsec__coal_written(struct etsec_emu *emu, unsigned dir, uint32_t old)
{
	uint32_t ic = etsec__reg(emu, coal_reg[dir]);

	if ((old & IC_EN) && !(ic & IC_EN) && emu->coal[dir].pending) {
		coal_fire(emu, dir);
		return;
	}
	emu->coal[dir].pending = 0;
	emu->coal[dir].deadline = EMU_NEVER;
}

/* ---- RMON (docs/etsec.md §7) ---- */

/* The carry bit of a counter (assumption, docs/etsec.md §11): CAR1 holds
 * 0x680..0x6DC with RDRP at bit 0 (C1RDR) and TR64 at bit 23, CAR2
 * 0x6E0..0x72C with TBYT at bit 31, one bit per counter. */
static void rmon_carry(struct etsec_emu *emu, uint32_t off)
{
	uint32_t car, cam, bit;

	if (off <= RM_RDRP) {
		car = R_CAR1;
		cam = R_CAM1;
		bit = (RM_RDRP - off) / 4;
	} else {
		car = R_CAR2;
		cam = R_CAM2;
		bit = 31 - (off - RM_TBYT) / 4;
	}
	emu->regs[car / 4] |= 1u << bit;
	if (!(etsec__reg(emu, cam) & (1u << bit)))
		etsec__event(emu, EV_MSRO);
}

void etsec__rmon_add(struct etsec_emu *emu, enum etsec_rmon reg, uint32_t n)
{
	uint32_t *c = &emu->regs[reg / 4], old = *c;
	uint32_t width_mask = reg == RM_RDRP ? 0xFFFFu : 0xFFFFFFFFu;

	if (!(etsec__reg(emu, R_ECNTRL) & ECNTRL_STEN))
		return;
	*c = (old + n) & width_mask;
	if (*c < (old & width_mask))
		rmon_carry(emu, reg);
}

/* The size bucket of a @len-byte frame (FCS incl.), shared by TX and RX. */
static uint32_t rmon_bucket(uint32_t len)
{
	static const uint32_t top[] = { 64, 127, 255, 511, 1023, 1518 };

	for (unsigned i = 0; i < ETHDRV_ARRAY_SIZE(top); i++)
		if (len <= top[i])
			return RM_TR64 + 4 * i;
	return 0;
}

void etsec__rmon_frame(struct etsec_emu *emu, uint32_t len, const uint8_t *da, bool tx, bool fcs_ok)
{
	uint32_t b = rmon_bucket(len);
	bool mc = da[0] & 1, bc = mc && da[0] == 0xFF && da[1] == 0xFF && da[2] == 0xFF &&
				  da[3] == 0xFF && da[4] == 0xFF && da[5] == 0xFF;

	if (b)
		etsec__rmon_add(emu, b, 1);
	etsec__rmon_add(emu, tx ? RM_TBYT : RM_RBYT, len);
	etsec__rmon_add(emu, tx ? RM_TPKT : RM_RPKT, 1);
	if (bc)
		etsec__rmon_add(emu, tx ? RM_TBCA : RM_RBCA, 1);
	else if (mc)
		etsec__rmon_add(emu, tx ? RM_TMCA : RM_RMCA, 1);
	if (!tx && !fcs_ok)
		etsec__rmon_add(emu, RM_RFCS, 1);
}
