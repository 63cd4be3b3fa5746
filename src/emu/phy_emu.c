// SPDX-License-Identifier: MIT
/*
 * AR8031 PHY model and the wire between two of them (phy_emu.h). The
 * registers follow IEEE 802.3 clause 22 (docs/mdio.md §2) and the AR8031
 * vendor registers (docs/mdio.md §8); the link follows docs/mdio.md §8.3.
 *
 * Layout: register file and MDIO ops first, then the wire (training, link
 * up and down, resolution), then the real-time thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "emu_util.h"
#include "phy_emu.h"

/* Standard registers and bits, written here from IEEE 802.3 22.2.4 and
 * 40.5 (docs/mdio.md §2) independently of the driver side's mii.h. */
enum {
	R_BMCR = 0x00,
	R_BMSR = 0x01,
	R_ID1 = 0x02,
	R_ID2 = 0x03,
	R_ANAR = 0x04,
	R_ANLPAR = 0x05,
	R_ANER = 0x06,
	R_CTRL1000 = 0x09,
	R_STAT1000 = 0x0A,
	R_MMD_CTRL = 0x0D,
	R_MMD_DATA = 0x0E,
	R_ESTATUS = 0x0F,
};

#define BMCR_RESET 0x8000u
#define BMCR_SPEED100 0x2000u
#define BMCR_ANENABLE 0x1000u
#define BMCR_PDOWN 0x0800u
#define BMCR_ANRESTART 0x0200u
#define BMCR_FULLDPLX 0x0100u
#define BMCR_SPEED1000 0x0040u
#define BMCR_RETRAIN (BMCR_ANENABLE | BMCR_PDOWN) /* changes that retrain the link */
#define BMCR_FORCED (BMCR_SPEED100 | BMCR_SPEED1000 | BMCR_FULLDPLX)
#define BMSR_CAPS 0x7949u /* 100/10 F/H, ESTATEN, MF preamble suppr., AN able, ext */
#define BMSR_LSTATUS 0x0004u
#define BMSR_ANEGCOMPLETE 0x0020u
#define ADV_10H 0x0020u
#define ADV_10F 0x0040u
#define ADV_100H 0x0080u
#define ADV_100F 0x0100u
#define ADV_PAUSE_MASK 0x0C00u
#define ADV_ABILITY (ADV_10H | ADV_10F | ADV_100H | ADV_100F | ADV_PAUSE_MASK)
#define LPA_LPACK 0x4000u
#define ANER_LPAN 0x0001u
#define ANER_PAGE 0x0002u
#define ANER_NP 0x0004u
#define C1000_HALF 0x0100u
#define C1000_FULL 0x0200u
#define C1000_PORT_TYPE 0x0400u /* 1 = multiport, prefers master */
#define C1000_MS_VALUE 0x0800u /* manual: 1 = master */
#define C1000_MS_ENABLE 0x1000u /* manual master/slave configuration */
#define S1000_MS_FAULT 0x8000u
#define S1000_MASTER 0x4000u
#define S1000_LOCAL_OK 0x2000u
#define S1000_REMOTE_OK 0x1000u
#define S1000_LP_SHIFT 2 /* LP 1000F/H at 11/10 = CTRL1000 bits 9/8 << 2 */
#define ESTATUS_1000_TFULL 0x2000u
#define MMD_FN 0xC000u
#define MMD_FN_ADDR 0x0000u
#define MMD_FN_DATA 0x4000u
#define MMD_FN_INC_RW 0x8000u
#define MMD_FN_INC_W 0xC000u
#define MMD_DEVAD 0x001Fu

/* Reset values (docs/mdio.md §8.4, assumed). */
#define RESET_BMCR (BMCR_ANENABLE | BMCR_FULLDPLX | BMCR_SPEED1000)
#define RESET_ANAR 0x1DE1u
#define RESET_CTRL1000 C1000_FULL

#define PHY_EMU_MMD_SLOTS 32u /* stored MMD registers per PHY */

struct phy_emu_mmd_reg {
	uint8_t devad; /* MMD, 0 = free slot (MMD 0 is reserved) */
	uint16_t reg; /* register */
	uint16_t val; /* value */
};

struct phy_emu {
	struct phy_emu_config cfg; /* settings */
	struct phy_emu_wire *wire; /* the wire, whose lock protects all below */
	unsigned idx; /* 0 or 1 on the wire */
	uint16_t reg[32]; /* storage (BMCR, ANAR, CTRL1000, INT_ENABLE, MMD_CTRL, others) */
	uint64_t reset_until_ns; /* BMCR.RESET reads 1 before this; 0 = not resetting */
	uint64_t anrestart_until_ns; /* BMCR.ANRESTART reads 1 before this */
	bool lstatus_low; /* a link failure since the last BMSR read (latched low) */
	bool aner_page; /* ANER page received, latched high */
	bool aneg_complete; /* link up through autoneg */
	uint16_t lpa; /* ANLPAR */
	uint16_t stat1000; /* STAT1000 */
	uint16_t insr; /* interrupt status, clear on read */
	struct phy_emu_link link; /* as resolved */
	unsigned last_speed; /* speed of the previous link, for the INT bits */
	bool last_duplex; /* duplex of the previous link */
	uint16_t mmd_addr[32]; /* indirect address per MMD */
	struct phy_emu_mmd_reg mmd[PHY_EMU_MMD_SLOTS]; /* stored MMD registers */
	struct emu_line irq; /* INT */
	struct phy_emu_stats st; /* counters */
};

struct phy_emu_wire {
	pthread_mutex_t lock; /* protects the wire and both PHYs */
	pthread_cond_t cond; /* wakes the thread when the state changed */
	struct phy_emu *phy[2]; /* plugged PHYs */
	bool cable; /* connected */
	bool up; /* the link is up */
	uint64_t up_at_ns; /* when training ends; PHY_EMU_NEVER: not training */
	uint64_t now_ns; /* latest model time */
	bool realtime; /* the thread runs */
	bool stop; /* the thread must exit */
	pthread_t thread; /* applies timed events */
};

#define D(f) ETHDRV_STAT_DESC(struct phy_emu_stats, f)
const struct ethdrv_stat_desc phy_emu_stats_desc[] = {
	D(reads),    D(writes),	    D(writes_ignored), D(resets),      D(aneg_restarts),
	D(link_ups), D(link_downs), D(mmd_accesses),   D(irq_asserts),
};
#undef D
const size_t phy_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(phy_emu_stats_desc);

static void wire_retrain(struct phy_emu_wire *w, uint64_t t);
static void wire_advance(struct phy_emu_wire *w, uint64_t now);

void phy_emu_config_default(struct phy_emu_config *cfg)
{
	*cfg = (struct phy_emu_config){
		.phy_id = PHY_EMU_ID_AR8031,
		.reset_ns = 1000000u,
		.aneg_ns = 3000000000u,
		.forced_link_ns = 50000000u,
	};
}

/* ---- register file ---- */

static void phy_update_irq(struct phy_emu *p)
{
	emu_line_set(&p->irq, p->insr & p->reg[PHY_EMU_REG_INT_ENABLE]);
}

static void phy_raise(struct phy_emu *p, uint16_t bits)
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

/* Powered and out of reset: able to train. */
static bool phy_ready(const struct phy_emu *p)
{
	return !p->reset_until_ns && !(p->reg[R_BMCR] & BMCR_PDOWN);
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
		wire_retrain(p->wire, now);
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
		wire_retrain(p->wire, now);
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
	wire_advance(p->wire, now);
	ethdrv_counter_inc(&p->st.reads);
	v = phy_read_reg(p, reg & 31u, p->wire->now_ns);
	pthread_mutex_unlock(&p->wire->lock);
	return v;
}

static void phy_c22_write(void *dev, unsigned reg, uint16_t val, uint64_t now)
{
	struct phy_emu *p = dev;

	pthread_mutex_lock(&p->wire->lock);
	wire_advance(p->wire, now);
	ethdrv_counter_inc(&p->st.writes);
	if (phy_in_reset(p, p->wire->now_ns))
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
	wire_advance(p->wire, now);
	v = phy_mmd_read(p, mmd, reg);
	pthread_mutex_unlock(&p->wire->lock);
	return v;
}

static void phy_c45_write(void *dev, unsigned mmd, uint16_t reg, uint16_t val, uint64_t now)
{
	struct phy_emu *p = dev;

	pthread_mutex_lock(&p->wire->lock);
	wire_advance(p->wire, now);
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

/* ---- the wire: training and resolution (docs/mdio.md §8.3) ---- */

static bool phy_aneg(const struct phy_emu *p)
{
	return p->reg[R_BMCR] & BMCR_ANENABLE;
}

/* The forced speed of BMCR bits 6/13 (docs/mdio.md §2.1). */
static unsigned phy_forced_speed(const struct phy_emu *p)
{
	uint16_t b = p->reg[R_BMCR];

	if (b & BMCR_SPEED1000)
		return (b & BMCR_SPEED100) ? 0 : 1000;
	return (b & BMCR_SPEED100) ? 100 : 10;
}

struct wire_res {
	unsigned speed; /* 0: no common mode */
	bool duplex[2]; /* per PHY */
	int master; /* index of the 1000BASE-T master, -1 for a fault */
};

/* Highest common mode of two advertisements (docs/mdio.md §6). */
static void wire_resolve_aneg(struct phy_emu *a, struct phy_emu *b, struct wire_res *r)
{
	uint16_t gig = a->reg[R_CTRL1000] & b->reg[R_CTRL1000] & C1000_FULL;
	uint16_t common = a->reg[R_ANAR] & b->reg[R_ANAR];

	r->speed = 0;
	if (gig) {
		r->speed = 1000;
		r->duplex[0] = true;
	} else if (common & (ADV_100F | ADV_100H)) {
		r->speed = 100;
		r->duplex[0] = common & ADV_100F;
	} else if (common & (ADV_10F | ADV_10H)) {
		r->speed = 10;
		r->duplex[0] = common & ADV_10F;
	}
	r->duplex[1] = r->duplex[0];
}

/* IEEE 40.5.2: manual settings win; two equal manual ones are a fault; a
 * multiport device prefers master; otherwise PHY 0 (docs/mdio.md §8.4). */
static int wire_master(const struct phy_emu *a, const struct phy_emu *b)
{
	uint16_t ca = a->reg[R_CTRL1000], cb = b->reg[R_CTRL1000];
	bool ma = ca & C1000_MS_ENABLE, mb = cb & C1000_MS_ENABLE;

	if (ma && mb)
		return !(ca & C1000_MS_VALUE) == !(cb & C1000_MS_VALUE) ?
			       -1 :
			       ((ca & C1000_MS_VALUE) ? 0 : 1);
	if (ma)
		return (ca & C1000_MS_VALUE) ? 0 : 1;
	if (mb)
		return (cb & C1000_MS_VALUE) ? 1 : 0;
	if ((ca ^ cb) & C1000_PORT_TYPE)
		return (ca & C1000_PORT_TYPE) ? 0 : 1;
	return 0;
}

/* Parallel detection: the autoneg side takes the forced side's 10/100. */
static void wire_resolve_parallel(struct phy_emu *an, unsigned an_idx, struct phy_emu *forced,
				  struct wire_res *r)
{
	unsigned speed = phy_forced_speed(forced);
	uint16_t adv = an->reg[R_ANAR];

	r->speed = 0;
	if ((speed == 100 && (adv & (ADV_100F | ADV_100H))) ||
	    (speed == 10 && (adv & (ADV_10F | ADV_10H))))
		r->speed = speed;
	r->duplex[an_idx] = false;
	r->duplex[!an_idx] = forced->reg[R_BMCR] & BMCR_FULLDPLX;
}

static void wire_resolve(struct phy_emu_wire *w, struct wire_res *r)
{
	struct phy_emu *a = w->phy[0], *b = w->phy[1];

	*r = (struct wire_res){ 0 };
	if (phy_aneg(a) && phy_aneg(b)) {
		wire_resolve_aneg(a, b, r);
		if (r->speed == 1000)
			r->master = wire_master(a, b);
	} else if (phy_aneg(a) != phy_aneg(b)) {
		if (phy_aneg(a))
			wire_resolve_parallel(a, 0, b, r);
		else
			wire_resolve_parallel(b, 1, a, r);
	} else {
		unsigned sa = phy_forced_speed(a);

		/* 1000BASE-T needs autoneg (IEEE 40.5.1): no forced gigabit link. */
		r->speed = (sa == phy_forced_speed(b) && sa < 1000) ? sa : 0;
		r->duplex[0] = a->reg[R_BMCR] & BMCR_FULLDPLX;
		r->duplex[1] = b->reg[R_BMCR] & BMCR_FULLDPLX;
	}
}

static bool wire_can_train(const struct phy_emu_wire *w)
{
	return w->cable && w->phy[0] && w->phy[1] && phy_ready(w->phy[0]) && phy_ready(w->phy[1]);
}

static uint64_t wire_train_ns(const struct phy_emu_wire *w)
{
	const struct phy_emu *a = w->phy[0], *b = w->phy[1];

	if (!phy_aneg(a) && !phy_aneg(b))
		return ETHDRV_MAX(a->cfg.forced_link_ns, b->cfg.forced_link_ns);
	return ETHDRV_MAX(a->cfg.aneg_ns, b->cfg.aneg_ns);
}

static void phy_link_down(struct phy_emu *p)
{
	p->link = (struct phy_emu_link){ 0 };
	p->lstatus_low = true;
	p->aneg_complete = false;
	p->lpa = 0;
	p->stat1000 &= S1000_MS_FAULT;
	ethdrv_counter_inc(&p->st.link_downs);
	phy_raise(p, PHY_EMU_INT_LINK_FAIL);
}

/* The link comes up for PHY @i of the wire with the result @r. */
static void phy_link_up(struct phy_emu_wire *w, unsigned i, const struct wire_res *r)
{
	struct phy_emu *p = w->phy[i], *lp = w->phy[!i];
	uint16_t bits = PHY_EMU_INT_LINK_UP;
	bool by_aneg = phy_aneg(p) && phy_aneg(lp);

	p->link = (struct phy_emu_link){ .up = true,
					 .speed_mbps = r->speed,
					 .full_duplex = r->duplex[i],
					 .master = r->speed == 1000 && r->master == (int)i };
	p->aneg_complete = phy_aneg(p);
	p->stat1000 = 0;
	if (by_aneg) {
		p->lpa = (lp->reg[R_ANAR] & (ADV_ABILITY | 0x001Fu)) | LPA_LPACK;
		p->stat1000 = (lp->reg[R_CTRL1000] & (C1000_FULL | C1000_HALF)) << S1000_LP_SHIFT;
		p->aner_page = true;
		bits |= PHY_EMU_INT_PAGE;
	}
	if (r->speed == 1000)
		p->stat1000 |=
			S1000_LOCAL_OK | S1000_REMOTE_OK | (p->link.master ? S1000_MASTER : 0);
	if (p->last_speed && p->last_speed != r->speed)
		bits |= PHY_EMU_INT_SPEED;
	if (p->last_speed && p->last_duplex != r->duplex[i])
		bits |= PHY_EMU_INT_DUPLEX;
	p->last_speed = r->speed;
	p->last_duplex = r->duplex[i];
	ethdrv_counter_inc(&p->st.link_ups);
	phy_raise(p, bits);
}

/* Training ends at @t: resolve and bring the link up, or record a fault. */
static void wire_link_up(struct phy_emu_wire *w)
{
	struct wire_res r;

	w->up_at_ns = PHY_EMU_NEVER;
	wire_resolve(w, &r);
	for (unsigned i = 0; i < 2; i++)
		w->phy[i]->stat1000 = r.speed == 1000 && r.master < 0 ? S1000_MS_FAULT : 0;
	if (!r.speed || r.master < 0) {
		for (unsigned i = 0; i < 2; i++)
			if (phy_aneg(w->phy[i]))
				phy_raise(w->phy[i], PHY_EMU_INT_ANEG_ERR);
		return;
	}
	w->up = true;
	phy_link_up(w, 0, &r);
	phy_link_up(w, 1, &r);
}

/* Something changed at @t: drop the link and start training again. */
static void wire_retrain(struct phy_emu_wire *w, uint64_t t)
{
	if (w->up) {
		w->up = false;
		for (unsigned i = 0; i < 2; i++)
			if (w->phy[i])
				phy_link_down(w->phy[i]);
	}
	w->up_at_ns = wire_can_train(w) ? t + wire_train_ns(w) : PHY_EMU_NEVER;
}

/* The earliest timed event: a reset ending or training ending. */
static uint64_t wire_next(const struct phy_emu_wire *w, int *reset_idx)
{
	uint64_t next = w->up_at_ns;

	*reset_idx = -1;
	for (unsigned i = 0; i < 2; i++) {
		const struct phy_emu *p = w->phy[i];

		if (p && p->reset_until_ns && p->reset_until_ns <= next) {
			next = p->reset_until_ns;
			*reset_idx = (int)i;
		}
	}
	return next;
}

/* Apply every timed event due by @now at its own time (lock held). */
static void wire_advance(struct phy_emu_wire *w, uint64_t now)
{
	int reset_idx;
	uint64_t t;

	if (now < w->now_ns)
		now = w->now_ns;
	while ((t = wire_next(w, &reset_idx)) <= now) {
		if (reset_idx >= 0) {
			w->phy[reset_idx]->reset_until_ns = 0;
			wire_retrain(w, t);
		} else {
			wire_link_up(w);
		}
	}
	w->now_ns = now;
}

/* ---- wire API and the real-time thread ---- */

static void *wire_thread(void *arg)
{
	struct phy_emu_wire *w = arg;
	int reset_idx;

	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		wire_advance(w, emu_mono_ns());
		emu_wait_until(&w->cond, &w->lock, wire_next(w, &reset_idx));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int phy_emu_wire_new(bool realtime, struct phy_emu_wire **out)
{
	struct phy_emu_wire *w;
	int err;

	if (!out)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->cable = true;
	w->up_at_ns = PHY_EMU_NEVER;
	err = emu_sync_init(&w->lock, &w->cond);
	if (err)
		goto err_free;
	if (realtime) {
		err = -pthread_create(&w->thread, NULL, wire_thread, w);
		if (err)
			goto err_sync;
		w->realtime = true;
	}
	*out = w;
	return 0;
err_sync:
	emu_sync_destroy(&w->lock, &w->cond);
err_free:
	free(w);
	return err;
}

void phy_emu_wire_free(struct phy_emu_wire *w)
{
	if (!w)
		return;
	if (w->realtime) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_signal(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	emu_sync_destroy(&w->lock, &w->cond);
	free(w);
}

void phy_emu_wire_set_cable(struct phy_emu_wire *w, bool connected, uint64_t now_ns)
{
	pthread_mutex_lock(&w->lock);
	wire_advance(w, now_ns);
	w->cable = connected;
	wire_retrain(w, w->now_ns);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void phy_emu_wire_advance(struct phy_emu_wire *w, uint64_t now_ns)
{
	pthread_mutex_lock(&w->lock);
	wire_advance(w, now_ns);
	pthread_mutex_unlock(&w->lock);
}

uint64_t phy_emu_wire_next_ns(struct phy_emu_wire *w)
{
	int reset_idx;
	uint64_t next;

	pthread_mutex_lock(&w->lock);
	next = wire_next(w, &reset_idx);
	pthread_mutex_unlock(&w->lock);
	return next;
}

bool phy_emu_wire_link_up(struct phy_emu_wire *w, uint64_t now_ns)
{
	bool up;

	pthread_mutex_lock(&w->lock);
	wire_advance(w, now_ns);
	up = w->up;
	pthread_mutex_unlock(&w->lock);
	return up;
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
	wire_advance(wire, now_ns);
	p->idx = (unsigned)slot;
	phy_reset_regs(p);
	wire->phy[slot] = p;
	wire_retrain(wire, wire->now_ns);
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
	wire_retrain(w, w->now_ns);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	emu_line_close(&p->irq);
	free(p);
}

int phy_emu_irq_fd(const struct phy_emu *phy)
{
	return phy->irq.fd;
}

void phy_emu_get_link(struct phy_emu *p, uint64_t now_ns, struct phy_emu_link *link)
{
	pthread_mutex_lock(&p->wire->lock);
	wire_advance(p->wire, now_ns);
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
