// SPDX-License-Identifier: MIT
/*
 * MDIO bus core (mdio.h): frames over a controller's ops, the three
 * completion modes, the stale-event rules and the accounting
 * (docs/mdio.md §4).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/mii.h"
#include "ethdrv/poll.h"

ETHDRV_LOG_MODULE(mdio);

#define MDIO_MAX_DELAY_US 1000000u
#define MDIO_NAME_LEN 16

struct ethdrv_mdio_bus {
	char name[MDIO_NAME_LEN]; /* for messages */
	const struct ethdrv_mdio_ops *ops; /* the controller */
	void *ctx; /* its state */
	pthread_mutex_t lock; /* serialises transactions; protects cfg and the frame state */
	struct ethdrv_mdio_config cfg; /* settings in effect */
	uint64_t cur_start_ns; /* the frame in progress: before its start() */
	unsigned cur_polls; /* its event tests so far */
	struct ethdrv_mdio_xfer last; /* the last completed frame */
	struct ethdrv_mdio_stats st; /* counters */
	struct ethdrv_hist polls_hist; /* event tests per frame */
	struct ethdrv_hist wait_hist; /* start to completion seen, ns */
	struct ethdrv_hist frame_hist; /* whole frame, ns */
};

#define D(f) ETHDRV_STAT_DESC(struct ethdrv_mdio_stats, f)
ETHDRV_EXPORT const struct ethdrv_stat_desc ethdrv_mdio_stats_desc[] = {
	D(frames),	 D(c22_reads), D(c22_writes), D(c45_reads), D(c45_writes),
	D(polls),	 D(wait_ns),   D(errors),     D(timeouts),  D(bad_args),
	D(stale_events), D(irq_waits), D(irq_other),
};
#undef D
ETHDRV_EXPORT const size_t ethdrv_mdio_stats_desc_count = ETHDRV_ARRAY_SIZE(ethdrv_mdio_stats_desc);

static const char *const mdio_mode_names[] = {
	[ETHDRV_MDIO_MODE_SLEEP] = "sleep",
	[ETHDRV_MDIO_MODE_ATOMIC] = "atomic",
	[ETHDRV_MDIO_MODE_IRQ] = "irq",
};

ETHDRV_EXPORT void ethdrv_mdio_config_default(struct ethdrv_mdio_config *cfg)
{
	/* docs/napi.md §6.2: fec polls atomically, 2 us apart, for 30 ms. */
	*cfg = (struct ethdrv_mdio_config){
		.mode = ETHDRV_MDIO_MODE_ATOMIC,
		.poll_delay_us = 2,
		.timeout_us = 30000,
		.irq_fd = -1,
	};
}

ETHDRV_EXPORT const char *ethdrv_mdio_mode_name(enum ethdrv_mdio_mode mode)
{
	return (unsigned)mode < ETHDRV_ARRAY_SIZE(mdio_mode_names) ? mdio_mode_names[mode] : "?";
}

ETHDRV_EXPORT int ethdrv_mdio_mode_parse(const char *s, enum ethdrv_mdio_mode *mode)
{
	for (unsigned i = 0; s && i < ETHDRV_ARRAY_SIZE(mdio_mode_names); i++) {
		if (!strcmp(s, mdio_mode_names[i])) {
			*mode = (enum ethdrv_mdio_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

static bool mdio_mode_valid(const struct ethdrv_mdio_config *cfg, enum ethdrv_mdio_mode mode,
			    unsigned delay_us)
{
	if ((unsigned)mode >= ETHDRV_ARRAY_SIZE(mdio_mode_names) || delay_us > MDIO_MAX_DELAY_US)
		return false;
	return mode != ETHDRV_MDIO_MODE_IRQ || cfg->irq_fd >= 0;
}

ETHDRV_EXPORT int ethdrv_mdio_bus_new(const char *name, const struct ethdrv_mdio_ops *ops,
				      void *ctx, const struct ethdrv_mdio_config *cfg,
				      struct ethdrv_mdio_bus **out)
{
	struct ethdrv_mdio_config def;
	struct ethdrv_mdio_bus *bus;
	int err;

	if (!cfg) {
		ethdrv_mdio_config_default(&def);
		cfg = &def;
	}
	if (!name || !ops || !ops->ack_event || !ops->start || !ops->test_event ||
	    !ops->read_data || !out || !cfg->timeout_us ||
	    !mdio_mode_valid(cfg, cfg->mode, cfg->poll_delay_us))
		return -EINVAL;
	bus = calloc(1, sizeof(*bus));
	if (!bus)
		return -ENOMEM;
	snprintf(bus->name, sizeof(bus->name), "%s", name);
	bus->ops = ops;
	bus->ctx = ctx;
	bus->cfg = *cfg;
	bus->polls_hist.unit = "polls";
	bus->wait_hist.unit = "ns";
	bus->frame_hist.unit = "ns";
	err = -pthread_mutex_init(&bus->lock, NULL);
	if (err)
		goto err_free;
	if (cfg->mode == ETHDRV_MDIO_MODE_IRQ && ops->set_irq) {
		err = ops->set_irq(ctx, true);
		if (err)
			goto err_lock;
	}
	*out = bus;
	return 0;
err_lock:
	pthread_mutex_destroy(&bus->lock);
err_free:
	free(bus);
	return err;
}

ETHDRV_EXPORT void ethdrv_mdio_bus_free(struct ethdrv_mdio_bus *bus)
{
	if (!bus)
		return;
	if (bus->cfg.mode == ETHDRV_MDIO_MODE_IRQ && bus->ops->set_irq)
		bus->ops->set_irq(bus->ctx, false);
	pthread_mutex_destroy(&bus->lock);
	free(bus);
}

ETHDRV_EXPORT const char *ethdrv_mdio_bus_name(const struct ethdrv_mdio_bus *bus)
{
	return bus->name;
}

ETHDRV_EXPORT int ethdrv_mdio_set_mode(struct ethdrv_mdio_bus *bus, enum ethdrv_mdio_mode mode,
				       unsigned poll_delay_us)
{
	bool was_irq, is_irq = mode == ETHDRV_MDIO_MODE_IRQ;
	int err = 0;

	pthread_mutex_lock(&bus->lock);
	was_irq = bus->cfg.mode == ETHDRV_MDIO_MODE_IRQ;
	if (!mdio_mode_valid(&bus->cfg, mode, poll_delay_us))
		err = -EINVAL;
	else if (was_irq != is_irq && bus->ops->set_irq)
		err = bus->ops->set_irq(bus->ctx, is_irq);
	if (!err) {
		bus->cfg.mode = mode;
		bus->cfg.poll_delay_us = poll_delay_us;
	}
	pthread_mutex_unlock(&bus->lock);
	return err;
}

ETHDRV_EXPORT void ethdrv_mdio_set_min_frame_ns(struct ethdrv_mdio_bus *bus, uint64_t ns)
{
	pthread_mutex_lock(&bus->lock);
	bus->cfg.min_frame_ns = ns;
	pthread_mutex_unlock(&bus->lock);
}

ETHDRV_EXPORT void ethdrv_mdio_get_config(struct ethdrv_mdio_bus *bus,
					  struct ethdrv_mdio_config *cfg)
{
	pthread_mutex_lock(&bus->lock);
	*cfg = bus->cfg;
	pthread_mutex_unlock(&bus->lock);
}

ETHDRV_EXPORT bool ethdrv_mdio_is_c45(const struct ethdrv_mdio_bus *bus)
{
	return bus->cfg.c45;
}

ETHDRV_EXPORT void ethdrv_mdio_lock(struct ethdrv_mdio_bus *bus)
{
	pthread_mutex_lock(&bus->lock);
}

ETHDRV_EXPORT void ethdrv_mdio_unlock(struct ethdrv_mdio_bus *bus)
{
	pthread_mutex_unlock(&bus->lock);
}

/* ---- one frame ---- */

/* One event test. docs/mdio.md §4.2: an event seen before the shortest
 * possible frame could have ended belongs to something else; clear it and
 * keep waiting. */
static int mdio_test(struct ethdrv_mdio_bus *bus, bool *done)
{
	int ret = bus->ops->test_event(bus->ctx, done);

	bus->cur_polls++;
	if (ret || !*done || !bus->cfg.min_frame_ns)
		return ret;
	if (ethdrv_now_ns() - bus->cur_start_ns >= bus->cfg.min_frame_ns)
		return 0;
	ethdrv_counter_inc(&bus->st.stale_events);
	*done = false;
	return bus->ops->ack_event(bus->ctx);
}

/* Sleep @us after the event line rang for someone else (shared line). */
static void mdio_backoff(unsigned us)
{
	struct timespec ts;

	us = us ? us : 1;
	ts.tv_sec = us / 1000000u;
	ts.tv_nsec = (long)(us % 1000000u) * 1000;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* irq mode: test, sleep on the line until it rings or the deadline, test
 * again; a last test after the deadline, as the poll helpers do. */
static int mdio_wait_irq(struct ethdrv_mdio_bus *bus)
{
	uint64_t deadline = bus->cur_start_ns + (uint64_t)bus->cfg.timeout_us * 1000u;
	struct pollfd pfd = { .fd = bus->cfg.irq_fd, .events = POLLIN };
	bool done = false, rang = false;
	int ret;

	for (;;) {
		uint64_t now;

		ret = mdio_test(bus, &done);
		if (ret || done)
			return ret;
		if (rang) {
			ethdrv_counter_inc(&bus->st.irq_other);
			mdio_backoff(bus->cfg.poll_delay_us);
		}
		now = ethdrv_now_ns();
		if (now >= deadline)
			break;
		ethdrv_counter_inc(&bus->st.irq_waits);
		ret = poll(&pfd, 1, (int)((deadline - now + 999999u) / 1000000u));
		if (ret < 0 && errno != EINTR)
			return -errno;
		rang = ret > 0;
	}
	ret = mdio_test(bus, &done);
	return ret ? ret : done ? 0 : -ETIMEDOUT;
}

static int mdio_wait(struct ethdrv_mdio_bus *bus)
{
	unsigned delay = bus->cfg.poll_delay_us, timeout = bus->cfg.timeout_us;
	bool done = false;

	switch (bus->cfg.mode) {
	case ETHDRV_MDIO_MODE_SLEEP:
		return ethdrv_poll_timeout(mdio_test, done, done, delay, timeout, bus);
	case ETHDRV_MDIO_MODE_ATOMIC:
		return ethdrv_poll_timeout_atomic(mdio_test, done, done, delay, timeout, bus);
	default:
		return mdio_wait_irq(bus);
	}
}

static void mdio_account(struct ethdrv_mdio_bus *bus, uint64_t t_done, uint64_t t_end)
{
	struct ethdrv_mdio_xfer *x = &bus->last;

	x->polls = bus->cur_polls;
	x->wait_ns = t_done - bus->cur_start_ns;
	x->frame_ns = t_end - bus->cur_start_ns;
	ethdrv_counter_inc(&bus->st.frames);
	ethdrv_counter_add(&bus->st.wait_ns, x->wait_ns);
	ethdrv_hist_record(&bus->polls_hist, x->polls);
	ethdrv_hist_record(&bus->wait_hist, x->wait_ns);
	ethdrv_hist_record(&bus->frame_hist, x->frame_ns);
}

static void mdio_log_failure(struct ethdrv_mdio_bus *bus, const struct ethdrv_mdio_frame *f,
			     int ret)
{
	if (ret == -ETIMEDOUT) {
		ethdrv_counter_inc(&bus->st.timeouts);
		ethdrv_err_ratelimited(
			NULL, "mdio %s: no completion within %u us (addr %u reg %u op %d): %d",
			bus->name, bus->cfg.timeout_us, f->addr, f->reg, f->op, ret);
	} else {
		ethdrv_counter_inc(&bus->st.errors);
		ethdrv_err_ratelimited(NULL, "mdio %s: controller error (addr %u reg %u): %d",
				       bus->name, f->addr, f->reg, ret);
	}
}

/* One frame with the bus lock held: clear, start, wait, clear, fetch. */
static int mdio_xfer(struct ethdrv_mdio_bus *bus, const struct ethdrv_mdio_frame *f, uint16_t *data)
{
	bool read = f->op == ETHDRV_MDIO_C22_READ || f->op == ETHDRV_MDIO_C45_READ;
	uint64_t t_done;
	int ret;

	bus->cur_polls = 0;
	bus->cur_start_ns = ethdrv_now_ns();
	/* docs/mdio.md §4.2: no event left from before may complete this frame. */
	ret = bus->ops->ack_event(bus->ctx);
	if (!ret)
		ret = bus->ops->start(bus->ctx, f);
	if (!ret)
		ret = mdio_wait(bus);
	t_done = ethdrv_now_ns();
	ethdrv_counter_add(&bus->st.polls, bus->cur_polls);
	if (!ret)
		ret = bus->ops->ack_event(bus->ctx);
	if (!ret && read)
		ret = bus->ops->read_data(bus->ctx, data);
	if (ret) {
		mdio_log_failure(bus, f, ret);
		return ret;
	}
	mdio_account(bus, t_done, ethdrv_now_ns());
	return 0;
}

static int mdio_bad_args(struct ethdrv_mdio_bus *bus, const char *what, unsigned a, unsigned b)
{
	ethdrv_counter_inc(&bus->st.bad_args);
	ethdrv_err_ratelimited(NULL, "mdio %s: %s out of range (%u, %u)", bus->name, what, a, b);
	return -EINVAL;
}

static int mdio_c22_locked(struct ethdrv_mdio_bus *bus, enum ethdrv_mdio_op op, unsigned addr,
			   unsigned reg, uint16_t *val)
{
	struct ethdrv_mdio_frame f = { .op = op, .addr = addr, .reg = reg, .data = *val };

	if (addr >= ETHDRV_MDIO_ADDRS || reg >= ETHDRV_MDIO_REGS)
		return mdio_bad_args(bus, "address or register", addr, reg);
	return mdio_xfer(bus, &f, val);
}

static int mdio_c22(struct ethdrv_mdio_bus *bus, enum ethdrv_mdio_op op, unsigned addr,
		    unsigned reg, uint16_t *val)
{
	int ret;

	pthread_mutex_lock(&bus->lock);
	ret = mdio_c22_locked(bus, op, addr, reg, val);
	if (!ret)
		ethdrv_counter_inc(op == ETHDRV_MDIO_C22_READ ? &bus->st.c22_reads :
								&bus->st.c22_writes);
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

ETHDRV_EXPORT int ethdrv_mdio_read(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned reg,
				   uint16_t *val)
{
	*val = 0;
	return mdio_c22(bus, ETHDRV_MDIO_C22_READ, addr, reg, val);
}

ETHDRV_EXPORT int ethdrv_mdio_write(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned reg,
				    uint16_t val)
{
	return mdio_c22(bus, ETHDRV_MDIO_C22_WRITE, addr, reg, &val);
}

/* ---- clause 45: native frames, or indirect through registers 13/14 ---- */

static bool mdio_c45_args_ok(unsigned addr, unsigned mmd, unsigned reg)
{
	return addr < ETHDRV_MDIO_ADDRS && mmd < ETHDRV_MDIO_MMDS && reg <= 0xFFFFu;
}

/* docs/mdio.md §1.1: an address frame, then the data frame. */
static int mdio_c45(struct ethdrv_mdio_bus *bus, bool write, unsigned addr, unsigned mmd,
		    unsigned reg, uint16_t *val)
{
	struct ethdrv_mdio_frame f = {
		.op = ETHDRV_MDIO_C45_ADDR, .addr = addr, .reg = mmd, .data = reg
	};
	int ret;

	if (!bus->cfg.c45)
		return -EOPNOTSUPP;
	if (!mdio_c45_args_ok(addr, mmd, reg))
		return mdio_bad_args(bus, "clause-45 port, MMD or register", mmd, reg);
	pthread_mutex_lock(&bus->lock);
	ret = mdio_xfer(bus, &f, val);
	if (!ret) {
		f.op = write ? ETHDRV_MDIO_C45_WRITE : ETHDRV_MDIO_C45_READ;
		f.data = write ? *val : 0;
		ret = mdio_xfer(bus, &f, val);
	}
	if (!ret)
		ethdrv_counter_inc(write ? &bus->st.c45_writes : &bus->st.c45_reads);
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

ETHDRV_EXPORT int ethdrv_mdio_c45_read(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned mmd,
				       unsigned reg, uint16_t *val)
{
	*val = 0;
	return mdio_c45(bus, false, addr, mmd, reg, val);
}

ETHDRV_EXPORT int ethdrv_mdio_c45_write(struct ethdrv_mdio_bus *bus, unsigned addr, unsigned mmd,
					unsigned reg, uint16_t val)
{
	return mdio_c45(bus, true, addr, mmd, reg, &val);
}

/* docs/mdio.md §2.3: select the MMD, write the address, switch register 14
 * to data without increment, then move the data. */
static int mdio_mmd_indirect(struct ethdrv_mdio_bus *bus, bool write, unsigned addr, unsigned mmd,
			     unsigned reg, uint16_t *val)
{
	uint16_t ctrl_addr = (uint16_t)mmd, reg16 = (uint16_t)reg;
	uint16_t ctrl_data = (uint16_t)(ETHDRV_MII_MMD_CTRL_DATA_NOINC | mmd);
	int ret;

	if (!mdio_c45_args_ok(addr, mmd, reg))
		return mdio_bad_args(bus, "indirect MMD or register", mmd, reg);
	pthread_mutex_lock(&bus->lock);
	ret = mdio_c22_locked(bus, ETHDRV_MDIO_C22_WRITE, addr, ETHDRV_MII_MMD_CTRL, &ctrl_addr);
	if (!ret)
		ret = mdio_c22_locked(bus, ETHDRV_MDIO_C22_WRITE, addr, ETHDRV_MII_MMD_DATA,
				      &reg16);
	if (!ret)
		ret = mdio_c22_locked(bus, ETHDRV_MDIO_C22_WRITE, addr, ETHDRV_MII_MMD_CTRL,
				      &ctrl_data);
	if (!ret)
		ret = mdio_c22_locked(bus, write ? ETHDRV_MDIO_C22_WRITE : ETHDRV_MDIO_C22_READ,
				      addr, ETHDRV_MII_MMD_DATA, val);
	if (!ret)
		ethdrv_counter_inc(write ? &bus->st.c45_writes : &bus->st.c45_reads);
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

ETHDRV_EXPORT int ethdrv_mdio_mmd_read_indirect(struct ethdrv_mdio_bus *bus, unsigned addr,
						unsigned mmd, unsigned reg, uint16_t *val)
{
	*val = 0;
	return mdio_mmd_indirect(bus, false, addr, mmd, reg, val);
}

ETHDRV_EXPORT int ethdrv_mdio_mmd_write_indirect(struct ethdrv_mdio_bus *bus, unsigned addr,
						 unsigned mmd, unsigned reg, uint16_t val)
{
	return mdio_mmd_indirect(bus, true, addr, mmd, reg, &val);
}

/* ---- statistics ---- */

ETHDRV_EXPORT void ethdrv_mdio_get_stats(struct ethdrv_mdio_bus *bus, struct ethdrv_mdio_stats *st)
{
	const ethdrv_counter_t *src = (const ethdrv_counter_t *)&bus->st;
	ethdrv_counter_t *dst = (ethdrv_counter_t *)st;

	/* The struct holds only counters (mdio.h). */
	for (size_t i = 0; i < sizeof(*st) / sizeof(*dst); i++)
		ethdrv_counter_set(&dst[i], ethdrv_counter_get(&src[i]));
}

ETHDRV_EXPORT void ethdrv_mdio_last_xfer(struct ethdrv_mdio_bus *bus, struct ethdrv_mdio_xfer *x)
{
	pthread_mutex_lock(&bus->lock);
	*x = bus->last;
	pthread_mutex_unlock(&bus->lock);
}

ETHDRV_EXPORT int ethdrv_mdio_register_stats(struct ethdrv_mdio_bus *bus,
					     struct ethdrv_stats_set *set)
{
	int ret = ethdrv_stats_add_group(set, "mdio", ethdrv_mdio_stats_desc,
					 ethdrv_mdio_stats_desc_count, &bus->st);

	if (!ret)
		ret = ethdrv_stats_add_hist(set, "mdio_frame_polls", &bus->polls_hist);
	if (!ret)
		ret = ethdrv_stats_add_hist(set, "mdio_frame_wait_ns", &bus->wait_hist);
	if (!ret)
		ret = ethdrv_stats_add_hist(set, "mdio_frame_ns", &bus->frame_hist);
	return ret;
}
