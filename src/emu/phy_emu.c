// SPDX-License-Identifier: MIT
/*
 * AR8031 PHY model, the register file and its MDIO side (phy_emu.h). The
 * registers follow IEEE 802.3 clause 22 (docs/mdio.md §2) and the AR8031
 * vendor registers (docs/mdio.md §8.2); the link between two PHYs is in
 * phy_emu_wire.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "phy_emu_priv.h"

#define D(f) ETHDRV_STAT_DESC(struct phy_emu_stats, f)
const struct ethdrv_stat_desc phy_emu_stats_desc[] = {
	D(reads),      D(writes),	   D(writes_ignored), D(resets),
	D(hw_resets),  D(hw_resets_short), D(aneg_restarts),  D(link_ups),
	D(link_downs), D(mmd_accesses),	   D(irq_asserts),
};
#undef D
const size_t phy_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(phy_emu_stats_desc);

void phy_emu_config_default(struct phy_emu_config *cfg)
{
	*cfg = (struct phy_emu_config){
		.phy_id = PHY_EMU_ID_AR8031,
		.reset_ns = 1000000u,
		.hw_reset_min_ns = 10000000u,
		.aneg_ns = 3000000000u,
		.forced_link_ns = 50000000u,
	};
}

/* ---- register file ---- */

static void phy_update_irq(struct phy_emu *p)
{
	emu_line_set(&p->irq, p->insr & p->reg[PHY_EMU_REG_INT_ENABLE]);
}

void phy_emu__raise(struct phy_emu *p, uint16_t bits)
{
	p->insr |= bits;
	phy_update_irq(p);
}

static void phy_mmd_defaults(struct phy_emu *p)
{
	memset(p->mmd, 0, sizeof(p->mmd));
	memset(p->mmd_addr, 0, sizeof(p->mmd_addr));
	/* EEE capability (MMD3 0x14) and advertisement (MMD7 0x3C): 100TX, 1000T. */
	p->mmd[0] = (struct phy_emu_mmd_reg){ .devad = 3, .reg = 0x14, .val = 0x0006 };
	p->mmd[1] = (struct phy_emu_mmd_reg){ .devad = 7, .reg = 0x3C, .val = 0x0006 };
}

/* Every register to its reset value (power-up and soft reset). */
static void phy_reset_regs(struct phy_emu *p)
{
	memset(p->reg, 0, sizeof(p->reg));
	p->reg[R_BMCR] = RESET_BMCR;
	p->reg[R_ANAR] = RESET_ANAR;
	p->reg[R_CTRL1000] = RESET_CTRL1000;
	p->insr = 0;
	p->aner_page = false;
	phy_mmd_defaults(p);
	phy_update_irq(p);
}

static bool phy_in_reset(const struct phy_emu *p, uint64_t now)
{
	return p->reset_until_ns && now < p->reset_until_ns;
}

bool phy_emu__ready(const struct phy_emu *p)
{
	return !p->reset_until_ns && !p->rst_pin && !(p->reg[R_BMCR] & BMCR_PDOWN);
}

static struct phy_emu_mmd_reg *phy_mmd_find(struct phy_emu *p, unsigned devad, uint16_t reg,
					    bool create)
{
	struct phy_emu_mmd_reg *free_slot = NULL;

	for (unsigned i = 0; i < PHY_EMU_MMD_SLOTS; i++) {
		if (p->mmd[i].devad == devad && p->mmd[i].reg == reg)
			return &p->mmd[i];
		if (!p->mmd[i].devad && !free_slot)
			free_slot = &p->mmd[i];
	}
	if (!create || !free_slot || !devad)
		return NULL;
	*free_slot = (struct phy_emu_mmd_reg){ .devad = devad, .reg = reg };
	return free_slot;
}

static uint16_t phy_mmd_read(struct phy_emu *p, unsigned devad, uint16_t reg)
{
	struct phy_emu_mmd_reg *r = phy_mmd_find(p, devad, reg, false);

	ethdrv_counter_inc(&p->st.mmd_accesses);
	return r ? r->val : 0;
}

/* A write beyond the stored slots is dropped (a register nobody models). */
static void phy_mmd_write(struct phy_emu *p, unsigned devad, uint16_t reg, uint16_t val)
{
	struct phy_emu_mmd_reg *r = phy_mmd_find(p, devad, reg, true);

	ethdrv_counter_inc(&p->st.mmd_accesses);
	if (r)
		r->val = val;
}

/* docs/mdio.md §2.3: reg 14 is the address (function 00) or the data of
 * the register the address selects, with the post-increment rules. */
static uint16_t phy_mmd_data(struct phy_emu *p, bool write, uint16_t val)
{
	uint16_t ctrl = p->reg[R_MMD_CTRL];
	unsigned devad = ctrl & MMD_DEVAD, fn = ctrl & MMD_FN;
	uint16_t *addr = &p->mmd_addr[devad];

	if (fn == MMD_FN_ADDR) {
		if (write)
			*addr = val;
		return *addr;
	}
	if (write)
		phy_mmd_write(p, devad, *addr, val);
	else
		val = phy_mmd_read(p, devad, *addr);
	if (fn == MMD_FN_INC_RW || (fn == MMD_FN_INC_W && write))
		(*addr)++;
	return val;
}

static uint16_t phy_spec_status(const struct phy_emu *p)
{
	uint16_t v = 0;

	if (!p->link.up)
		return 0;
	v |= PHY_EMU_SS_RESOLVED | PHY_EMU_SS_LINK;
	v |= p->link.full_duplex ? PHY_EMU_SS_DUPLEX : 0;
	if (p->link.speed_mbps == 1000)
		v |= 2u << 14;
	else if (p->link.speed_mbps == 100)
		v |= 1u << 14;
	return v;
}

static uint16_t phy_read_bmsr(struct phy_emu *p)
{
	uint16_t v = BMSR_CAPS;

	/* IEEE 22.2.4.2.13: a failure since the last read shows once as 0. */
	if (p->link.up && !p->lstatus_low)
		v |= BMSR_LSTATUS;
	p->lstatus_low = false;
	if (p->aneg_complete)
		v |= BMSR_ANEGCOMPLETE;
	return v;
}

static uint16_t phy_read_reg(struct phy_emu *p, unsigned reg, uint64_t now)
{
	uint16_t v;

	switch (reg) {
	case R_BMCR:
		v = p->reg[R_BMCR];
		if (phy_in_reset(p, now))
			v |= BMCR_RESET;
		if (now < p->anrestart_until_ns)
			v |= BMCR_ANRESTART;
		return v;
	case R_BMSR:
		return phy_read_bmsr(p);
	case R_ID1:
		return p->cfg.phy_id >> 16;
	case R_ID2:
		return p->cfg.phy_id & 0xFFFFu;
	case R_ANLPAR:
		return p->lpa;
	case R_ANER:
		v = ANER_NP | (p->aner_page ? ANER_PAGE : 0) | (p->lpa ? ANER_LPAN : 0);
		p->aner_page = false;
		return v;
	case R_STAT1000:
		return p->stat1000;
	case R_MMD_DATA:
		return phy_mmd_data(p, false, 0);
	case R_ESTATUS:
		return ESTATUS_1000_TFULL;
	case PHY_EMU_REG_SPEC_STATUS:
		return phy_spec_status(p);
	case PHY_EMU_REG_INT_STATUS:
		v = p->insr;
		p->insr = 0;
		phy_update_irq(p);
		return v;
	default:
		return p->reg[reg];
	}
}

static void phy_write_bmcr(struct phy_emu *p, uint16_t val, uint64_t now)
{
	uint16_t old = p->reg[R_BMCR];
	bool retrain;

	if (val & BMCR_RESET) {
		ethdrv_counter_inc(&p->st.resets);
		phy_reset_regs(p);
		p->reset_until_ns = now + p->cfg.reset_ns;
		phy_emu__wire_retrain(p->wire, now);
		return;
	}
	p->reg[R_BMCR] = val & ~(BMCR_RESET | BMCR_ANRESTART);
	retrain = (old ^ val) & BMCR_RETRAIN;
	if (!(val & BMCR_ANENABLE) && ((old ^ val) & BMCR_FORCED))
		retrain = true;
	if ((val & BMCR_ANRESTART) && (val & BMCR_ANENABLE)) {
		ethdrv_counter_inc(&p->st.aneg_restarts);
		p->anrestart_until_ns = now + p->cfg.anrestart_ns;
		retrain = true;
	}
	if (retrain)
		phy_emu__wire_retrain(p->wire, now);
}

static void phy_write_reg(struct phy_emu *p, unsigned reg, uint16_t val, uint64_t now)
{
	switch (reg) {
	case R_BMCR:
		phy_write_bmcr(p, val, now);
		break;
	case R_BMSR:
	case R_ID1:
	case R_ID2:
	case R_ANLPAR:
	case R_ANER:
	case R_STAT1000:
	case R_ESTATUS:
	case PHY_EMU_REG_SPEC_STATUS:
	case PHY_EMU_REG_INT_STATUS:
		break; /* read-only */
	case R_MMD_DATA:
		phy_mmd_data(p, true, val);
		break;
	case PHY_EMU_REG_INT_ENABLE:
		p->reg[reg] = val;
		phy_update_irq(p);
		break;
	default:
		p->reg[reg] = val;
		break;
	}
}

/* ---- MDIO device ops (each access first brings the wire to @now) ---- */

static uint16_t phy_c22_read(void *dev, unsigned reg, uint64_t now)
{
	struct phy_emu *p = dev;
	uint16_t v;

	pthread_mutex_lock(&p->wire->lock);
	phy_emu__wire_advance(p->wire, now);
	ethdrv_counter_inc(&p->st.reads);
	v = p->rst_pin ? 0xFFFFu : phy_read_reg(p, reg & 31u, p->wire->now_ns);
	pthread_mutex_unlock(&p->wire->lock);
	return v;
}

static void phy_c22_write(void *dev, unsigned reg, uint16_t val, uint64_t now)
{
	struct phy_emu *p = dev;

	pthread_mutex_lock(&p->wire->lock);
	phy_emu__wire_advance(p->wire, now);
	ethdrv_counter_inc(&p->st.writes);
	if (p->rst_pin || phy_in_reset(p, p->wire->now_ns))
		ethdrv_counter_inc(&p->st.writes_ignored);
	else
		phy_write_reg(p, reg & 31u, val, p->wire->now_ns);
	pthread_cond_signal(&p->wire->cond);
	pthread_mutex_unlock(&p->wire->lock);
}

static uint16_t phy_c45_read(void *dev, unsigned mmd, uint16_t reg, uint64_t now)
{
	struct phy_emu *p = dev;
	uint16_t v;

	pthread_mutex_lock(&p->wire->lock);
	phy_emu__wire_advance(p->wire, now);
	v = phy_mmd_read(p, mmd, reg);
	pthread_mutex_unlock(&p->wire->lock);
	return v;
}

static void phy_c45_write(void *dev, unsigned mmd, uint16_t reg, uint16_t val, uint64_t now)
{
	struct phy_emu *p = dev;

	pthread_mutex_lock(&p->wire->lock);
	phy_emu__wire_advance(p->wire, now);
	phy_mmd_write(p, mmd, reg, val);
	pthread_mutex_unlock(&p->wire->lock);
}

static const struct mdio_emu_dev_ops phy_c22_ops = {
	.c22_read = phy_c22_read,
	.c22_write = phy_c22_write,
};

static const struct mdio_emu_dev_ops phy_c45_ops = {
	.c22_read = phy_c22_read,
	.c22_write = phy_c22_write,
	.c45_read = phy_c45_read,
	.c45_write = phy_c45_write,
};

const struct mdio_emu_dev_ops *phy_emu_dev_ops(void)
{
	return &phy_c22_ops;
}

int phy_emu_attach(struct phy_emu *phy, struct mdio_emu *bus, unsigned addr)
{
	return mdio_emu_attach(bus, addr, phy->cfg.c45_native ? &phy_c45_ops : &phy_c22_ops, phy,
			       MDIO_EMU_DEV_PREAMBLE_SUPPRESSION);
}

/* ---- PHY lifetime ---- */

int phy_emu_new(const struct phy_emu_config *cfg, struct phy_emu_wire *wire, uint64_t now_ns,
		struct phy_emu **out)
{
	struct phy_emu_config def;
	struct phy_emu *p;
	int err, slot;

	if (!cfg) {
		phy_emu_config_default(&def);
		cfg = &def;
	}
	if (!wire || !out)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->cfg = *cfg;
	p->wire = wire;
	err = emu_line_open(&p->irq);
	if (err)
		goto err_free;
	pthread_mutex_lock(&wire->lock);
	slot = !wire->phy[0] ? 0 : !wire->phy[1] ? 1 : -1;
	if (slot < 0) {
		pthread_mutex_unlock(&wire->lock);
		err = -EBUSY;
		goto err_line;
	}
	phy_emu__wire_advance(wire, now_ns);
	p->idx = (unsigned)slot;
	phy_reset_regs(p);
	wire->phy[slot] = p;
	phy_emu__wire_retrain(wire, wire->now_ns);
	pthread_cond_signal(&wire->cond);
	pthread_mutex_unlock(&wire->lock);
	*out = p;
	return 0;
err_line:
	emu_line_close(&p->irq);
err_free:
	free(p);
	return err;
}

void phy_emu_free(struct phy_emu *p)
{
	struct phy_emu_wire *w;

	if (!p)
		return;
	w = p->wire;
	pthread_mutex_lock(&w->lock);
	w->phy[p->idx] = NULL;
	phy_emu__wire_retrain(w, w->now_ns);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	emu_line_close(&p->irq);
	free(p);
}

void phy_emu_set_reset_pin(struct phy_emu *p, bool asserted, uint64_t now_ns)
{
	struct phy_emu_wire *w = p->wire;

	pthread_mutex_lock(&w->lock);
	phy_emu__wire_advance(w, now_ns);
	if (asserted && !p->rst_pin) {
		p->rst_pin = true;
		p->rst_since_ns = w->now_ns;
	} else if (!asserted && p->rst_pin) {
		p->rst_pin = false;
		if (w->now_ns - p->rst_since_ns >= p->cfg.hw_reset_min_ns) {
			ethdrv_counter_inc(&p->st.hw_resets);
			phy_reset_regs(p);
			p->reset_until_ns = 0;
		} else {
			ethdrv_counter_inc(&p->st.hw_resets_short);
		}
	}
	/* Held: no link; released: it trains again. */
	phy_emu__wire_retrain(w, w->now_ns);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

int phy_emu_irq_fd(const struct phy_emu *phy)
{
	return phy->irq.fd;
}

void phy_emu_get_link(struct phy_emu *p, uint64_t now_ns, struct phy_emu_link *link)
{
	pthread_mutex_lock(&p->wire->lock);
	phy_emu__wire_advance(p->wire, now_ns);
	*link = p->link;
	pthread_mutex_unlock(&p->wire->lock);
}

void phy_emu_get_stats(struct phy_emu *p, struct phy_emu_stats *st)
{
	pthread_mutex_lock(&p->wire->lock);
	emu_counters_copy(st, &p->st, sizeof(*st));
	ethdrv_counter_set(&st->irq_asserts, ethdrv_counter_get(&p->irq.asserts));
	pthread_mutex_unlock(&p->wire->lock);
}
