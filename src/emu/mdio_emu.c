// SPDX-License-Identifier: MIT
/*
 * MDIO bus model: decodes management frames and dispatches them to the
 * device at their address (see mdio_emu.h and docs/mdio.md §1).
 */
#include <errno.h>
#include <stdlib.h>

#include "emu_util.h"
#include "ethdrv/bits.h"
#include "mdio_emu.h"

struct mdio_emu_slot {
	const struct mdio_emu_dev_ops *ops; /* NULL: nobody at this address */
	void *dev; /* the device */
	unsigned flags; /* MDIO_EMU_DEV_* */
	uint16_t c45_addr[32]; /* clause-45 address register per MMD (docs/mdio.md §1.1) */
};

struct mdio_emu {
	struct mdio_emu_slot slot[MDIO_EMU_ADDRS]; /* one per address */
	struct mdio_emu_stats st; /* counters */
};

#define D(f) ETHDRV_STAT_DESC(struct mdio_emu_stats, f)
const struct ethdrv_stat_desc mdio_emu_stats_desc[] = {
	D(frames),    D(c22_reads),  D(c22_writes),	     D(c45_frames),
	D(no_device), D(bad_frames), D(no_preamble_ignored),
};
#undef D
const size_t mdio_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(mdio_emu_stats_desc);

int mdio_emu_new(struct mdio_emu **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void mdio_emu_free(struct mdio_emu *bus)
{
	free(bus);
}

int mdio_emu_attach(struct mdio_emu *bus, unsigned addr, const struct mdio_emu_dev_ops *ops,
		    void *dev, unsigned flags)
{
	if (!bus || addr >= MDIO_EMU_ADDRS || !ops || !ops->c22_read || !ops->c22_write ||
	    !ops->c45_read != !ops->c45_write || (flags & ~MDIO_EMU_DEV_PREAMBLE_SUPPRESSION))
		return -EINVAL;
	if (bus->slot[addr].ops)
		return -EBUSY;
	bus->slot[addr] = (struct mdio_emu_slot){ .ops = ops, .dev = dev, .flags = flags };
	return 0;
}

void mdio_emu_detach(struct mdio_emu *bus, unsigned addr)
{
	if (bus && addr < MDIO_EMU_ADDRS)
		bus->slot[addr] = (struct mdio_emu_slot){ 0 };
}

uint32_t mdio_emu_frame(unsigned st, unsigned op, unsigned pa, unsigned ra, uint16_t data)
{
	return ETHDRV_FIELD_PREP(MDIO_EMU_FRAME_ST, st) | ETHDRV_FIELD_PREP(MDIO_EMU_FRAME_OP, op) |
	       ETHDRV_FIELD_PREP(MDIO_EMU_FRAME_PA, pa) | ETHDRV_FIELD_PREP(MDIO_EMU_FRAME_RA, ra) |
	       ETHDRV_FIELD_PREP(MDIO_EMU_FRAME_TA, MDIO_EMU_TA_VALID) | data;
}

/* docs/mdio.md §1.1: ST 01 takes opcodes 01/10 only; ST 00 all four; ST 1x is no frame. */
static bool mdio_emu_frame_valid(unsigned st, unsigned op, unsigned ta)
{
	if (ta != MDIO_EMU_TA_VALID)
		return false;
	if (st == MDIO_EMU_ST_C22)
		return op == MDIO_EMU_OP_C22_READ || op == MDIO_EMU_OP_C22_WRITE;
	return st == MDIO_EMU_ST_C45;
}

static bool mdio_emu_is_read(unsigned st, unsigned op)
{
	if (st == MDIO_EMU_ST_C22)
		return op == MDIO_EMU_OP_C22_READ;
	return st == MDIO_EMU_ST_C45 &&
	       (op == MDIO_EMU_OP_C45_READ || op == MDIO_EMU_OP_C45_READ_INC);
}

bool mdio_emu_frame_is_read(uint32_t frame)
{
	return mdio_emu_is_read(ETHDRV_FIELD_GET(MDIO_EMU_FRAME_ST, frame),
				ETHDRV_FIELD_GET(MDIO_EMU_FRAME_OP, frame));
}

static uint16_t mdio_emu_c22(struct mdio_emu *bus, struct mdio_emu_slot *s, unsigned op,
			     unsigned reg, uint16_t data, uint64_t now_ns)
{
	if (op == MDIO_EMU_OP_C22_READ) {
		ethdrv_counter_inc(&bus->st.c22_reads);
		return s->ops->c22_read(s->dev, reg, now_ns);
	}
	ethdrv_counter_inc(&bus->st.c22_writes);
	s->ops->c22_write(s->dev, reg, data, now_ns);
	return data;
}

/* docs/mdio.md §1.1: the address register of (port, MMD) selects the register the
 * data frames reach; read-increment advances it after the read. */
static uint16_t mdio_emu_c45(struct mdio_emu *bus, struct mdio_emu_slot *s, unsigned op,
			     unsigned mmd, uint16_t data, uint64_t now_ns)
{
	uint16_t *addr = &s->c45_addr[mmd];
	uint16_t val = data;

	ethdrv_counter_inc(&bus->st.c45_frames);
	switch (op) {
	case MDIO_EMU_OP_C45_ADDR:
		*addr = data;
		break;
	case MDIO_EMU_OP_C45_WRITE:
		s->ops->c45_write(s->dev, mmd, *addr, data, now_ns);
		break;
	case MDIO_EMU_OP_C45_READ:
		val = s->ops->c45_read(s->dev, mmd, *addr, now_ns);
		break;
	default: /* MDIO_EMU_OP_C45_READ_INC */
		val = s->ops->c45_read(s->dev, mmd, *addr, now_ns);
		(*addr)++;
		break;
	}
	return val;
}

uint16_t mdio_emu_transfer(struct mdio_emu *bus, uint32_t frame, bool preamble, uint64_t now_ns)
{
	unsigned st = ETHDRV_FIELD_GET(MDIO_EMU_FRAME_ST, frame);
	unsigned op = ETHDRV_FIELD_GET(MDIO_EMU_FRAME_OP, frame);
	unsigned pa = ETHDRV_FIELD_GET(MDIO_EMU_FRAME_PA, frame);
	unsigned ra = ETHDRV_FIELD_GET(MDIO_EMU_FRAME_RA, frame);
	uint16_t data = ETHDRV_FIELD_GET(MDIO_EMU_FRAME_DATA, frame);
	struct mdio_emu_slot *s = &bus->slot[pa];
	uint16_t idle = data; /* what a write leaves on the wire */

	ethdrv_counter_inc(&bus->st.frames);
	if (!mdio_emu_frame_valid(st, op, ETHDRV_FIELD_GET(MDIO_EMU_FRAME_TA, frame))) {
		ethdrv_counter_inc(&bus->st.bad_frames);
		return mdio_emu_is_read(st, op) ? MDIO_EMU_NONE : idle;
	}
	if (mdio_emu_is_read(st, op))
		idle = MDIO_EMU_NONE; /* docs/mdio.md §1.3: the pull-up wins when nobody drives */
	if (!s->ops || (st == MDIO_EMU_ST_C45 && !s->ops->c45_read)) {
		ethdrv_counter_inc(&bus->st.no_device);
		return idle;
	}
	if (!preamble && !(s->flags & MDIO_EMU_DEV_PREAMBLE_SUPPRESSION)) {
		ethdrv_counter_inc(&bus->st.no_preamble_ignored);
		return idle;
	}
	if (st == MDIO_EMU_ST_C22)
		return mdio_emu_c22(bus, s, op, ra, data, now_ns);
	return mdio_emu_c45(bus, s, op, ra, data, now_ns);
}

void mdio_emu_get_stats(const struct mdio_emu *bus, struct mdio_emu_stats *st)
{
	emu_counters_copy(st, &bus->st, sizeof(*st));
}
