// SPDX-License-Identifier: MIT
/*
 * kshim: interrupts (Documentation/core-api/genericirq.rst). One thread per
 * requested line runs the primary handler when the line fires and the
 * threaded handler when the primary one returns IRQ_WAKE_THREAD or
 * irq_wake_thread() asks; the two never overlap, as with IRQF_ONESHOT.
 * - IRQF_TRIGGER_LOW: the level (the bus's irq_fd, readable while IRQ_N is
 *   low); the line stays masked while the handlers run and fires again at
 *   once if it is still low afterwards.
 * - IRQF_TRIGGER_FALLING: the bus's falling-edge stream (irq_edge_fd,
 *   struct ethdrv_irq_edge); edges that come while the handlers run make
 *   one more run, as a pending edge interrupt does. A bus without the
 *   stream (spidev today) refuses the request: an edge cannot be told from
 *   a level that stays low.
 * disable_irq()/enable_irq() nest (a depth); disable_irq() also waits for
 * running handlers, disable_irq_nosync() does not. kshim_irq_set_delay()
 * makes the host late: each time the line fires, the thread sleeps that
 * long before the primary handler (seed 000's slow host, for benchmarks).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "kshim_priv.h"

#define KSHIM_IRQ_LINES 16
#define EDGE_RECORD 16 /* sizeof(struct ethdrv_irq_edge) */

struct irq_line {
	bool used, requested, stop;
	int level_fd, edge_fd, kick_fd; /* kick: wake requests and depth changes */
	irq_handler_t handler, thread_fn;
	unsigned long flags;
	void *data;
	int depth; /* disable_irq() nesting */
	unsigned delay_us; /* a host late to service the line: sleep this long first */
	bool wake; /* irq_wake_thread() pending */
	bool running;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t idle;
};

static struct irq_line lines[KSHIM_IRQ_LINES + 1]; /* 0 is "no IRQ" */
static pthread_mutex_t lines_lock = PTHREAD_MUTEX_INITIALIZER;

static struct irq_line *line_of(unsigned int irq)
{
	return irq >= 1 && irq <= KSHIM_IRQ_LINES && lines[irq].used ? &lines[irq] : NULL;
}

int kshim_irq_line_new(const struct ethdrv_spi_bus *bus)
{
	int irq = 0;

	pthread_mutex_lock(&lines_lock);
	for (int i = 1; i <= KSHIM_IRQ_LINES && !irq; i++) {
		struct irq_line *l = &lines[i];

		if (l->used)
			continue;
		memset(l, 0, sizeof(*l));
		kshim_bus_irq_fds(bus, &l->level_fd, &l->edge_fd);
		l->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (l->kick_fd < 0)
			break;
		pthread_mutex_init(&l->lock, NULL);
		pthread_cond_init(&l->idle, NULL);
		l->used = true;
		irq = i;
	}
	pthread_mutex_unlock(&lines_lock);
	return irq;
}

static void kick(struct irq_line *l)
{
	uint64_t one = 1;

	if (write(l->kick_fd, &one, sizeof(one)) < 0)
		return; /* the counter is saturated: a kick is pending anyway */
}

static bool drain(int fd, size_t rec)
{
	uint8_t buf[64 * EDGE_RECORD];
	bool any = false;

	while (read(fd, buf, rec ? sizeof(buf) : 8) > 0)
		any = true;
	return any;
}

static void *irq_thread(void *arg)
{
	struct irq_line *l = arg;
	int irq = (int)(l - lines);

	for (;;) {
		struct pollfd p[2] = { { .fd = l->kick_fd, .events = POLLIN }, { .fd = -1 } };
		bool fire, run;

		pthread_mutex_lock(&l->lock);
		if (l->stop) {
			pthread_mutex_unlock(&l->lock);
			break;
		}
		if (!l->depth)
			p[1].fd = (l->flags & IRQF_TRIGGER_FALLING) ? l->edge_fd : l->level_fd;
		pthread_mutex_unlock(&l->lock);
		p[1].events = POLLIN;
		if (poll(p, 2, -1) < 0)
			continue;
		if (p[0].revents & POLLIN)
			drain(l->kick_fd, 0);
		pthread_mutex_lock(&l->lock);
		if (l->stop) {
			pthread_mutex_unlock(&l->lock);
			break;
		}
		/* Disabled meanwhile: the edges stay queued, pending for enable_irq(). */
		fire = p[1].fd >= 0 && (p[1].revents & POLLIN) && !l->depth;
		if (fire && (l->flags & IRQF_TRIGGER_FALLING))
			drain(l->edge_fd, EDGE_RECORD);
		run = l->wake;
		l->wake = false;
		l->running = fire || run;
		pthread_mutex_unlock(&l->lock);
		if (fire && l->delay_us)
			usleep(l->delay_us); /* kshim_irq_set_delay(): the host is late */
		if (fire && l->handler(irq, l->data) == IRQ_WAKE_THREAD)
			run = true;
		if (run && l->thread_fn)
			l->thread_fn(irq, l->data);
		pthread_mutex_lock(&l->lock);
		l->running = false;
		pthread_cond_broadcast(&l->idle);
		pthread_mutex_unlock(&l->lock);
	}
	return NULL;
}

static irqreturn_t default_primary(int irq, void *data)
{
	(void)irq;
	(void)data;
	return IRQ_WAKE_THREAD;
}

int devm_request_threaded_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			      irq_handler_t thread_fn, unsigned long flags, const char *name,
			      void *data)
{
	struct irq_line *l = line_of(irq);
	int fd;

	(void)dev;
	if (!l || l->requested)
		return l ? -EBUSY : -EINVAL;
	fd = (flags & IRQF_TRIGGER_FALLING) ? l->edge_fd : l->level_fd;
	if (fd < 0) {
		kshim_log(name, "irq %u: the bus has no %s for this trigger (flags 0x%lx)", irq,
			  (flags & IRQF_TRIGGER_FALLING) ? "falling-edge stream" : "level line",
			  flags);
		return -EINVAL;
	}
	if (flags & IRQF_TRIGGER_FALLING)
		drain(l->edge_fd, EDGE_RECORD); /* edges before the request are not latched */
	l->handler = handler ? handler : default_primary;
	l->thread_fn = thread_fn;
	l->flags = flags;
	l->data = data;
	l->stop = false;
	if (pthread_create(&l->thread, NULL, irq_thread, l))
		return -ENOMEM;
	l->requested = true;
	return 0;
}

int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
		     unsigned long flags, const char *name, void *data)
{
	return devm_request_threaded_irq(dev, irq, handler, NULL, flags, name, data);
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name,
		void *data)
{
	return devm_request_threaded_irq(NULL, irq, handler, NULL, flags, name, data);
}

void free_irq(unsigned int irq, void *data)
{
	struct irq_line *l = line_of(irq);

	(void)data;
	if (!l || !l->requested)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = true;
	pthread_mutex_unlock(&l->lock);
	kick(l);
	pthread_join(l->thread, NULL);
	l->requested = false;
}

void kshim_irq_line_free(int irq)
{
	struct irq_line *l = line_of((unsigned int)irq);

	if (!l)
		return;
	free_irq((unsigned int)irq, NULL);
	close(l->kick_fd);
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->idle);
	pthread_mutex_lock(&lines_lock);
	l->used = false;
	pthread_mutex_unlock(&lines_lock);
}

void disable_irq_nosync(unsigned int irq)
{
	struct irq_line *l = line_of(irq);

	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->depth++;
	pthread_mutex_unlock(&l->lock);
	kick(l);
}

void disable_irq(unsigned int irq)
{
	struct irq_line *l = line_of(irq);

	if (!l)
		return;
	disable_irq_nosync(irq);
	pthread_mutex_lock(&l->lock);
	while (l->running && l->requested && !pthread_equal(pthread_self(), l->thread))
		pthread_cond_wait(&l->idle, &l->lock);
	pthread_mutex_unlock(&l->lock);
}

void enable_irq(unsigned int irq)
{
	struct irq_line *l = line_of(irq);

	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	if (l->depth > 0)
		l->depth--;
	else
		kshim_log("irq", "unbalanced enable for irq %u", irq);
	pthread_mutex_unlock(&l->lock);
	kick(l);
}

void irq_wake_thread(unsigned int irq, void *data)
{
	struct irq_line *l = line_of(irq);

	(void)data;
	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->wake = true;
	pthread_mutex_unlock(&l->lock);
	kick(l);
}

void kshim_irq_set_delay(int irq, unsigned delay_us)
{
	struct irq_line *l = line_of((unsigned int)irq);

	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->delay_us = delay_us;
	pthread_mutex_unlock(&l->lock);
}
