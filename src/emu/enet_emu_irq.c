// SPDX-License-Identifier: MIT
/*
 * ENET model: events and interrupts. EIR bits are raised here, the
 * interrupt lines follow EIR & EIMR as level eventfds (docs/enet.md §2, docs/enet.md §8), and the
 * frame events RXF/TXF pass through the RXIC0/TXIC0 coalescing engines
 * (docs/enet.md §6), whose timers are deadlines on the line's clock. Section numbers
 * are docs/enet.md.
 */
#include <unistd.h>

#include "enet_emu_priv.h"

/* Events each interrupt line carries (i.MX8M wiring, docs/enet.md §8). */
static const uint32_t enet_line_events[ENET_EMU_IRQ_LINES] = { EV_LINE0, EV_LINE1, EV_LINE2 };

static void irq_set(struct enet_emu *emu, unsigned n, bool level)
{
	uint64_t v = 1;

	if (emu->irq_level[n] == level)
		return;
	/* A level eventfd: readable (count 1) while asserted, drained when not. */
	if (level) {
		if (write(emu->irq_fd[n], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return;
		ethdrv_counter_inc(&emu->st.irq_asserts);
		emu_engine_irq_asserted(emu->eng);
	} else if (read(emu->irq_fd[n], &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		return;
	}
	emu->irq_level[n] = level;
}

/* Each line is asserted while EIR & EIMR has one of its events (docs/enet.md
 * docs/enet.md §10, item 1); MII only while ETHEREN is set (assumption in enet_emu.h,
 * docs/mdio.md §3.3). */
void enet__irq_update(struct enet_emu *emu)
{
	uint32_t active = emu->regs[R_EIR / 4] & emu->regs[R_EIMR / 4];

	if (!enet__enabled(emu))
		active &= ~EV_MII;

	for (unsigned n = 0; n < ENET_EMU_IRQ_LINES; n++)
		irq_set(emu, n, (active & enet_line_events[n]) != 0);
}

void enet__event(struct enet_emu *emu, uint32_t bits)
{
	uint32_t *eir = &emu->regs[R_EIR / 4];

	/* Masking never stops EIR bits from setting (docs/enet.md §10 item 1); only a change
	 * of EIR & EIMR touches the lines. */
	if ((*eir | bits) == *eir)
		return;
	*eir |= bits;
	if (bits & emu->regs[R_EIMR / 4])
		enet__irq_update(emu);
}

/* ---- coalescing (docs/enet.md §6) ---- */

static uint32_t coal_reg(const struct enet_emu *emu, unsigned dir)
{
	return emu->regs[(dir == COAL_RX ? R_RXIC0 : R_TXIC0) / 4];
}

static uint32_t coal_event(unsigned dir)
{
	return dir == COAL_RX ? EV_RXF : EV_TXF;
}

/* The clock ICTT counts: ICCS=1 the system clock, ICCS=0 the MII TX clock. */
static uint64_t coal_clock_hz(const struct enet_emu *emu, uint32_t ic)
{
	if (ic & IC_CS)
		return emu->cfg.clk_ahb_hz;
	/* 125 MHz GMII, 25 MHz MII at 100, 2.5 MHz at 10 Mb/s (assumption). */
	return 1000000000ull / enet__mac_byte_ns(emu);
}

static void coal_fire(struct enet_emu *emu, unsigned dir)
{
	struct enet_coal *c = &emu->coal[dir];

	c->pending = 0;
	c->deadline = UINT64_MAX;
	enet__event(emu, coal_event(dir));
}

void enet__coal_frame(struct enet_emu *emu, unsigned dir, uint64_t t)
{
	struct enet_coal *c = &emu->coal[dir];
	uint32_t ic = coal_reg(emu, dir);
	uint32_t ft = ETHDRV_FIELD_GET(IC_FT, ic), tt = ETHDRV_FIELD_GET(IC_TT, ic);

	if (!(ic & IC_EN)) {
		enet__event(emu, coal_event(dir));
		return;
	}
	c->pending++;
	if (ft && c->pending >= ft) {
		ethdrv_counter_inc(&emu->st.coal_count_fires);
		coal_fire(emu, dir);
		return;
	}
	/* The timer runs from the first unsignalled frame; ICTT counts units
	 * of 64 clock periods. Rounded up: never early. */
	if (c->pending == 1 && tt) {
		uint64_t hz = coal_clock_hz(emu, ic);

		c->deadline = t + ((uint64_t)tt * 64u * 1000000000ull + hz - 1) / hz;
	}
}

void enet__coal_expire(struct enet_emu *emu, unsigned dir, uint64_t t)
{
	(void)t;
	ethdrv_counter_inc(&emu->st.coal_timer_fires);
	coal_fire(emu, dir);
}

/* RXIC0/TXIC0 written: clearing ICEN releases what was held (assumption). */
void enet__coal_written(struct enet_emu *emu, unsigned dir)
{
	if (!(coal_reg(emu, dir) & IC_EN) && emu->coal[dir].pending)
		coal_fire(emu, dir);
}

void enet__coal_reset(struct enet_emu *emu)
{
	for (unsigned d = 0; d < 2; d++)
		emu->coal[d] = (struct enet_coal){ .pending = 0, .deadline = UINT64_MAX };
}
