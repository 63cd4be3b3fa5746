// SPDX-License-Identifier: MIT
/*
 * kshim: printing, time and sleeps, locks, managed memory, the work queue
 * (one worker thread, as the system workqueue runs work in a kworker).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "kshim.h"
#include "kshim_host.h"
#include "kshim_priv.h"

/* ---- printing ---- */

static void (*log_fn)(void *ctx, const char *line);
static void *log_ctx;
static bool log_quiet;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void kshim_set_log(void (*fn)(void *ctx, const char *line), void *ctx, bool quiet)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_ctx = ctx;
	log_quiet = fn && quiet;
	pthread_mutex_unlock(&log_lock);
}

__attribute__((format(printf, 2, 0))) static void log_line(const char *who, const char *fmt,
							   va_list ap)
{
	char line[512];
	int n = who ? snprintf(line, sizeof(line), "%s: ", who) : 0;

	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	n = (int)strlen(line);
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	pthread_mutex_lock(&log_lock);
	kshim_messages++;
	if (!log_quiet)
		fprintf(stderr, "linux: %s\n", line);
	if (log_fn)
		log_fn(log_ctx, line);
	pthread_mutex_unlock(&log_lock);
}

unsigned long kshim_messages;

void kshim_log(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(who, fmt, ap);
	va_end(ap);
}

/* printk_ratelimited's defaults: 10 messages per 5 s, the rest suppressed. */
void kshim_log_ratelimited(const char *fmt, ...)
{
	static u64 begin;
	static unsigned printed, missed;
	u64 now = kshim_now_us();
	bool print;
	va_list ap;

	pthread_mutex_lock(&log_lock);
	if (!begin || now - begin > 5000000) {
		begin = now;
		printed = 0;
	}
	print = printed < 10;
	if (print)
		printed++;
	else
		missed++;
	pthread_mutex_unlock(&log_lock);
	if (!print)
		return;
	va_start(ap, fmt);
	log_line(NULL, fmt, ap);
	va_end(ap);
}

const char *dev_name(const struct device *dev)
{
	return dev ? dev->name : "(null)";
}

/* ---- time ---- */

u64 kshim_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000u + (u64)ts.tv_nsec / 1000u;
}

void udelay(unsigned long us)
{
	u64 end = kshim_now_us() + us;

	while (kshim_now_us() < end)
		; /* udelay busy-waits */
}

void usleep_range(unsigned long min, unsigned long max)
{
	(void)max;
	usleep((useconds_t)min);
}

void msleep(unsigned int ms)
{
	usleep((useconds_t)ms * 1000u);
}

/* ---- locks ---- */

void mutex_init(struct mutex *l)
{
	pthread_mutex_init(&l->m, NULL);
}

void mutex_lock(struct mutex *l)
{
	pthread_mutex_lock(&l->m);
}

void mutex_unlock(struct mutex *l)
{
	pthread_mutex_unlock(&l->m);
}

void spin_lock_init(spinlock_t *l)
{
	pthread_mutex_init(&l->m, NULL);
}

void spin_lock_bh(spinlock_t *l)
{
	pthread_mutex_lock(&l->m);
}

void spin_unlock_bh(spinlock_t *l)
{
	pthread_mutex_unlock(&l->m);
}

/* ---- managed memory ---- */

struct kshim_devres {
	struct kshim_devres *next;
	max_align_t data[];
};

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	struct kshim_devres *r = calloc(1, sizeof(*r) + size);

	(void)gfp;
	if (!r)
		return NULL;
	r->next = dev->devres;
	dev->devres = r;
	return r->data;
}

void kshim_devres_release(struct device *dev)
{
	while (dev->devres) {
		struct kshim_devres *r = dev->devres;

		dev->devres = r->next;
		free(r);
	}
}

int device_get_ethdev_address(struct device *dev, struct net_device *netdev)
{
	if (!dev->mac)
		return -ENOENT;
	memcpy(netdev->dev_addr, dev->mac, ETH_ALEN);
	return 0;
}

/* ---- work ---- */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct work_struct *head, *tail, *running;
	pthread_t thread;
	bool started;
} wq = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&wq.lock);
	for (;;) {
		struct work_struct *w;

		while (!wq.head)
			pthread_cond_wait(&wq.cond, &wq.lock);
		w = wq.head;
		wq.head = w->next;
		if (!wq.head)
			wq.tail = NULL;
		w->queued = false;
		wq.running = w;
		pthread_mutex_unlock(&wq.lock);
		w->func(w);
		pthread_mutex_lock(&wq.lock);
		wq.running = NULL;
		pthread_cond_broadcast(&wq.cond);
	}
	return NULL;
}

bool schedule_work(struct work_struct *work)
{
	bool queued = false;

	pthread_mutex_lock(&wq.lock);
	if (!wq.started && pthread_create(&wq.thread, NULL, worker, NULL) == 0) {
		pthread_detach(wq.thread);
		wq.started = true;
	}
	if (!work->queued) {
		work->queued = true;
		work->next = NULL;
		if (wq.tail)
			wq.tail->next = work;
		else
			wq.head = work;
		wq.tail = work;
		queued = true;
		pthread_cond_broadcast(&wq.cond);
	}
	pthread_mutex_unlock(&wq.lock);
	return queued;
}

bool cancel_work_sync(struct work_struct *work)
{
	bool was = false;

	pthread_mutex_lock(&wq.lock);
	if (work->queued) {
		struct work_struct **p = &wq.head, *prev = NULL;

		while (*p && *p != work) {
			prev = *p;
			p = &(*p)->next;
		}
		if (*p) {
			*p = work->next;
			if (wq.tail == work)
				wq.tail = prev;
		}
		work->queued = false;
		was = true;
	}
	while (wq.running == work)
		pthread_cond_wait(&wq.cond, &wq.lock);
	pthread_mutex_unlock(&wq.lock);
	return was;
}
