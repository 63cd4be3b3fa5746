// SPDX-License-Identifier: MIT
/*
 * Real-time host of the ENET MDIO block and a fec-style controller over
 * its registers (enet_mdio_sim.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "emu_util.h"
#include "enet_mdio_sim.h"
#include "ethdrv/bits.h"

struct enet_mdio_sim {
	pthread_mutex_t lock; /* protects the block, eimr and the line */
	pthread_cond_t cond; /* wakes the thread: a frame started, or stop */
	struct enet_mdio mdio; /* the block */
	uint32_t eimr; /* interrupt mask (only MII is used) */
	uint64_t access_ns; /* spin per register access */
	struct emu_line irq; /* EIR.MII & EIMR.MII */
	bool stop; /* the thread must exit */
	pthread_t thread; /* completes frames at their end time */
};

/* The interconnect: each access costs access_ns (seed 003: ~0.5 us on Vybrid). */
static void sim_access_cost(const struct enet_mdio_sim *sim)
{
	uint64_t start;

	if (!sim->access_ns)
		return;
	start = emu_mono_ns();
	while (emu_mono_ns() - start < sim->access_ns)
		;
}

static void sim_update_line(struct enet_mdio_sim *sim, uint64_t now)
{
	bool ev = enet_mdio_event(&sim->mdio, now);

	emu_line_set(&sim->irq, ev && (sim->eimr & ENET_MDIO_EIR_MII));
}

static void *sim_thread(void *arg)
{
	struct enet_mdio_sim *sim = arg;

	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_mutex_lock(&sim->lock);
	while (!sim->stop) {
		sim_update_line(sim, emu_mono_ns());
		emu_wait_until(&sim->cond, &sim->lock, enet_mdio_deadline_ns(&sim->mdio));
	}
	pthread_mutex_unlock(&sim->lock);
	return NULL;
}

uint32_t enet_mdio_sim_read32(struct enet_mdio_sim *sim, uint32_t off)
{
	uint64_t now;
	uint32_t v = 0;

	sim_access_cost(sim);
	pthread_mutex_lock(&sim->lock);
	now = emu_mono_ns();
	if (off == ENET_MDIO_SIM_REG_EIR)
		v = enet_mdio_event(&sim->mdio, now) ? ENET_MDIO_EIR_MII : 0;
	else if (off == ENET_MDIO_SIM_REG_EIMR)
		v = sim->eimr;
	else
		v = enet_mdio_read(&sim->mdio, off, now);
	sim_update_line(sim, now);
	pthread_mutex_unlock(&sim->lock);
	return v;
}

void enet_mdio_sim_write32(struct enet_mdio_sim *sim, uint32_t off, uint32_t val)
{
	uint64_t now;

	sim_access_cost(sim);
	pthread_mutex_lock(&sim->lock);
	now = emu_mono_ns();
	if (off == ENET_MDIO_SIM_REG_EIR) {
		if (val & ENET_MDIO_EIR_MII)
			enet_mdio_event_ack(&sim->mdio, now);
	} else if (off == ENET_MDIO_SIM_REG_EIMR) {
		sim->eimr = val;
	} else {
		enet_mdio_write(&sim->mdio, off, val, now);
	}
	sim_update_line(sim, now);
	pthread_cond_signal(&sim->cond);
	pthread_mutex_unlock(&sim->lock);
}

int enet_mdio_sim_irq_fd(struct enet_mdio_sim *sim)
{
	return sim->irq.fd;
}

uint64_t enet_mdio_sim_frame_ns(struct enet_mdio_sim *sim)
{
	uint64_t ns;

	pthread_mutex_lock(&sim->lock);
	ns = enet_mdio_frame_ns(&sim->mdio);
	pthread_mutex_unlock(&sim->lock);
	return ns;
}

void enet_mdio_sim_get_stats(struct enet_mdio_sim *sim, struct enet_mdio_stats *st)
{
	pthread_mutex_lock(&sim->lock);
	enet_mdio_get_stats(&sim->mdio, st);
	pthread_mutex_unlock(&sim->lock);
}

void enet_mdio_sim_config_default(struct enet_mdio_sim_config *cfg)
{
	enet_mdio_config_default(&cfg->mdio);
	cfg->access_ns = 0;
}

int enet_mdio_sim_new(const struct enet_mdio_sim_config *cfg, struct mdio_emu *bus,
		      struct enet_mdio_sim **out)
{
	struct enet_mdio_sim_config def;
	struct enet_mdio_sim *sim;
	int err;

	if (!cfg) {
		enet_mdio_sim_config_default(&def);
		cfg = &def;
	}
	if (!out)
		return -EINVAL;
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return -ENOMEM;
	sim->access_ns = cfg->access_ns;
	err = enet_mdio_init(&sim->mdio, &cfg->mdio, bus);
	if (!err)
		err = emu_line_open(&sim->irq);
	if (err)
		goto err_free;
	err = emu_sync_init(&sim->lock, &sim->cond);
	if (err)
		goto err_line;
	err = -pthread_create(&sim->thread, NULL, sim_thread, sim);
	if (err)
		goto err_sync;
	*out = sim;
	return 0;
err_sync:
	emu_sync_destroy(&sim->lock, &sim->cond);
err_line:
	emu_line_close(&sim->irq);
err_free:
	free(sim);
	return err;
}

void enet_mdio_sim_free(struct enet_mdio_sim *sim)
{
	if (!sim)
		return;
	pthread_mutex_lock(&sim->lock);
	sim->stop = true;
	pthread_cond_signal(&sim->cond);
	pthread_mutex_unlock(&sim->lock);
	pthread_join(sim->thread, NULL);
	emu_sync_destroy(&sim->lock, &sim->cond);
	emu_line_close(&sim->irq);
	free(sim);
}

/* ---- the controller, as a fec driver programs the block (docs/mdio.md §4.2) ---- */

static int sim_ack_event(void *ctx)
{
	enet_mdio_sim_write32(ctx, ENET_MDIO_SIM_REG_EIR, ENET_MDIO_EIR_MII);
	return 0;
}

/* docs/enet.md §5: ST, OP, PA, RA, TA = 10, DATA. */
static uint32_t sim_mmfr(const struct ethdrv_mdio_frame *f)
{
	static const uint8_t st[ETHDRV_MDIO_C45_READ + 1] = {
		[ETHDRV_MDIO_C22_READ] = 1, [ETHDRV_MDIO_C22_WRITE] = 1
	};
	static const uint8_t op[ETHDRV_MDIO_C45_READ + 1] = {
		[ETHDRV_MDIO_C22_READ] = 2, [ETHDRV_MDIO_C22_WRITE] = 1,
		[ETHDRV_MDIO_C45_ADDR] = 0, [ETHDRV_MDIO_C45_WRITE] = 1,
		[ETHDRV_MDIO_C45_READ] = 3,
	};

	return mdio_emu_frame(st[f->op], op[f->op], f->addr, f->reg, f->data);
}

static int sim_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	if ((unsigned)f->op > ETHDRV_MDIO_C45_READ)
		return -EINVAL;
	enet_mdio_sim_write32(ctx, ENET_MDIO_REG_MMFR, sim_mmfr(f));
	return 0;
}

static int sim_test_event(void *ctx, bool *done)
{
	*done = enet_mdio_sim_read32(ctx, ENET_MDIO_SIM_REG_EIR) & ENET_MDIO_EIR_MII;
	return 0;
}

static int sim_read_data(void *ctx, uint16_t *val)
{
	*val = enet_mdio_sim_read32(ctx, ENET_MDIO_REG_MMFR) & MDIO_EMU_FRAME_DATA;
	return 0;
}

static int sim_set_irq(void *ctx, bool on)
{
	uint32_t eimr = enet_mdio_sim_read32(ctx, ENET_MDIO_SIM_REG_EIMR);

	eimr = on ? eimr | ENET_MDIO_EIR_MII : eimr & ~ENET_MDIO_EIR_MII;
	enet_mdio_sim_write32(ctx, ENET_MDIO_SIM_REG_EIMR, eimr);
	return 0;
}

const struct ethdrv_mdio_ops enet_mdio_sim_ops = {
	.ack_event = sim_ack_event,
	.start = sim_start,
	.test_event = sim_test_event,
	.read_data = sim_read_data,
	.set_irq = sim_set_irq,
};
