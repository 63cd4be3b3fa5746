// SPDX-License-Identifier: MIT
/*
 * Switch-like register block with the multi-chip indirect access of
 * switch_emu.h (docs/mdio.md §9).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "emu_util.h"
#include "ethdrv/bits.h"
#include "switch_emu.h"

struct switch_emu {
	struct switch_emu_config cfg; /* settings */
	pthread_mutex_t lock; /* protects everything below */
	uint16_t cmd; /* SMI command as written (BUSY cleared on completion) */
	uint16_t data; /* SMI data */
	uint64_t busy_until_ns; /* BUSY reads 1 before this */
	uint16_t regs[32][32]; /* internal registers */
	struct switch_emu_stats st; /* counters */
};

#define D(f) ETHDRV_STAT_DESC(struct switch_emu_stats, f)
const struct ethdrv_stat_desc switch_emu_stats_desc[] = {
	D(reads), D(writes), D(busy_polls), D(busy_errors), D(bad_commands),
};
#undef D
const size_t switch_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(switch_emu_stats_desc);

void switch_emu_config_default(struct switch_emu_config *cfg)
{
	*cfg = (struct switch_emu_config){ .product_id = 0x3521, .first_port = 0x10, .ports = 7 };
}

static bool switch_is_id_reg(const struct switch_emu *sw, unsigned dev, unsigned reg)
{
	return reg == SWITCH_EMU_PORT_ID_REG && dev >= sw->cfg.first_port &&
	       dev < sw->cfg.first_port + sw->cfg.ports;
}

static uint16_t switch_internal_read(const struct switch_emu *sw, unsigned dev, unsigned reg)
{
	return switch_is_id_reg(sw, dev, reg) ? sw->cfg.product_id : sw->regs[dev][reg];
}

/* Carry out the access the command asks for (docs/mdio.md §9). */
static void switch_execute(struct switch_emu *sw, uint16_t cmd)
{
	unsigned dev = ETHDRV_FIELD_GET(SWITCH_EMU_CMD_DEV, cmd);
	unsigned reg = ETHDRV_FIELD_GET(SWITCH_EMU_CMD_REG, cmd);
	uint16_t op = cmd & SWITCH_EMU_CMD_OP;

	if (!(cmd & SWITCH_EMU_CMD_MODE_C22)) {
		ethdrv_counter_inc(&sw->st.bad_commands);
	} else if (op == SWITCH_EMU_CMD_OP_WRITE) {
		ethdrv_counter_inc(&sw->st.writes);
		if (!switch_is_id_reg(sw, dev, reg))
			sw->regs[dev][reg] = sw->data;
	} else if (op == SWITCH_EMU_CMD_OP_READ) {
		ethdrv_counter_inc(&sw->st.reads);
		sw->data = switch_internal_read(sw, dev, reg);
	} else {
		ethdrv_counter_inc(&sw->st.bad_commands);
	}
}

static bool switch_busy(const struct switch_emu *sw, uint64_t now)
{
	return (sw->cmd & SWITCH_EMU_CMD_BUSY) && now < sw->busy_until_ns;
}

static uint16_t switch_c22_read(void *dev, unsigned reg, uint64_t now)
{
	struct switch_emu *sw = dev;
	uint16_t v = 0;

	pthread_mutex_lock(&sw->lock);
	if (reg == SWITCH_EMU_REG_CMD) {
		v = sw->cmd & ~SWITCH_EMU_CMD_BUSY;
		if (switch_busy(sw, now)) {
			v |= SWITCH_EMU_CMD_BUSY;
			ethdrv_counter_inc(&sw->st.busy_polls);
		}
	} else if (reg == SWITCH_EMU_REG_DATA) {
		v = sw->data;
	}
	pthread_mutex_unlock(&sw->lock);
	return v;
}

static void switch_c22_write(void *dev, unsigned reg, uint16_t val, uint64_t now)
{
	struct switch_emu *sw = dev;

	pthread_mutex_lock(&sw->lock);
	if (reg == SWITCH_EMU_REG_CMD) {
		if (switch_busy(sw, now)) {
			ethdrv_counter_inc(&sw->st.busy_errors);
		} else {
			sw->cmd = val;
			if (val & SWITCH_EMU_CMD_BUSY) {
				/* The result is visible at once; BUSY only delays when
				 * the host may look (the model keeps no pipeline). */
				switch_execute(sw, val);
				sw->busy_until_ns = now + sw->cfg.busy_ns;
			}
		}
	} else if (reg == SWITCH_EMU_REG_DATA) {
		sw->data = val;
	}
	pthread_mutex_unlock(&sw->lock);
}

static const struct mdio_emu_dev_ops switch_ops = {
	.c22_read = switch_c22_read,
	.c22_write = switch_c22_write,
};

int switch_emu_new(const struct switch_emu_config *cfg, struct switch_emu **out)
{
	struct switch_emu_config def;
	struct switch_emu *sw;
	int err;

	if (!cfg) {
		switch_emu_config_default(&def);
		cfg = &def;
	}
	if (!out || cfg->first_port + cfg->ports > 32)
		return -EINVAL;
	sw = calloc(1, sizeof(*sw));
	if (!sw)
		return -ENOMEM;
	sw->cfg = *cfg;
	err = -pthread_mutex_init(&sw->lock, NULL);
	if (err) {
		free(sw);
		return err;
	}
	*out = sw;
	return 0;
}

void switch_emu_free(struct switch_emu *sw)
{
	if (!sw)
		return;
	pthread_mutex_destroy(&sw->lock);
	free(sw);
}

int switch_emu_attach(struct switch_emu *sw, struct mdio_emu *bus, unsigned addr)
{
	return mdio_emu_attach(bus, addr, &switch_ops, sw, MDIO_EMU_DEV_PREAMBLE_SUPPRESSION);
}

uint16_t switch_emu_peek(struct switch_emu *sw, unsigned dev, unsigned reg)
{
	uint16_t v;

	if (dev >= 32 || reg >= 32)
		return 0;
	pthread_mutex_lock(&sw->lock);
	v = switch_internal_read(sw, dev, reg);
	pthread_mutex_unlock(&sw->lock);
	return v;
}

void switch_emu_get_stats(struct switch_emu *sw, struct switch_emu_stats *st)
{
	pthread_mutex_lock(&sw->lock);
	emu_counters_copy(st, &sw->st, sizeof(*st));
	pthread_mutex_unlock(&sw->lock);
}
