// SPDX-License-Identifier: MIT
/*
 * Loss attribution and the steal sampler (emu_loss.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>

#include "emu_loss.h"
#include "ethdrv/loop.h"

#define STEAL_SAMPLES 512 /* ~5 s at EMU_STEAL_PERIOD_MS */

static struct {
	pthread_mutex_t lock; /* protects all below */
	pthread_cond_t cond; /* stop requests */
	unsigned refs; /* users */
	bool stop; /* the thread must exit */
	pthread_t thread; /* the sampler, while refs > 0 */
	struct {
		uint64_t t_ns; /* when */
		uint64_t ticks; /* steal ticks then */
	} s[STEAL_SAMPLES]; /* a ring, oldest at head */
	unsigned head, n; /* ring position and fill */
	uint64_t fresh_t_ns, fresh_ticks; /* the last read of a loss (0: none yet) */
} steal = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static uint64_t loss_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The steal column of the "cpu" line of /proc/stat read through @fd (no allocation:
 * the sampler reads it 100 times a second). */
static uint64_t steal_read_fd(int fd)
{
	unsigned long long v[8] = { 0 };
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* cpu user nice system idle iowait irq softirq steal (proc(5)) */
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) != 8)
		return 0;
	return v[7];
}

uint64_t emu_steal_read(void)
{
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	uint64_t v;

	if (fd < 0)
		return 0;
	v = steal_read_fd(fd);
	close(fd);
	return v;
}

static void steal_push(uint64_t t_ns, uint64_t ticks)
{
	unsigned i = (steal.head + steal.n) % STEAL_SAMPLES;

	steal.s[i].t_ns = t_ns;
	steal.s[i].ticks = ticks;
	if (steal.n < STEAL_SAMPLES)
		steal.n++;
	else
		steal.head = (steal.head + 1) % STEAL_SAMPLES;
}

static void *steal_main(void *arg)
{
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	struct timespec ts;

	(void)arg;
	prctl(PR_SET_NAME, "steal-sampler", 0UL, 0UL, 0UL);
	pthread_mutex_lock(&steal.lock);
	while (!steal.stop) {
		uint64_t ticks, now;

		pthread_mutex_unlock(&steal.lock);
		ticks = fd >= 0 ? steal_read_fd(fd) : 0;
		now = loss_mono_ns();
		pthread_mutex_lock(&steal.lock);
		steal_push(now, ticks);
		clock_gettime(CLOCK_REALTIME, &ts); /* the condvar's clock */
		ts.tv_nsec += EMU_STEAL_PERIOD_MS * 1000000l;
		if (ts.tv_nsec >= 1000000000l) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000l;
		}
		if (!steal.stop)
			pthread_cond_timedwait(&steal.cond, &steal.lock, &ts);
	}
	pthread_mutex_unlock(&steal.lock);
	if (fd >= 0)
		close(fd);
	return NULL;
}

int emu_steal_ref(void)
{
	int ret = 0;

	pthread_mutex_lock(&steal.lock);
	if (!steal.refs) {
		steal.stop = false;
		steal.head = steal.n = 0;
		steal.fresh_t_ns = 0;
		/* The lab's helper, not the driver's: SCHED_OTHER even when a model is
		 * created in a node thread at a real-time priority (docs/design.md §4.5). */
		ret = -ethdrv_thread_create_task(&steal.thread, steal_main, NULL);
	}
	if (!ret)
		steal.refs++;
	pthread_mutex_unlock(&steal.lock);
	return ret;
}

void emu_steal_unref(void)
{
	bool join = false;

	pthread_mutex_lock(&steal.lock);
	if (steal.refs && !--steal.refs) {
		steal.stop = true;
		pthread_cond_signal(&steal.cond);
		join = true;
	}
	pthread_mutex_unlock(&steal.lock);
	if (join)
		pthread_join(steal.thread, NULL);
}

/* The steal ticks now, read at most once per EMU_STEAL_FRESH_NS for all losses
 * (docs/design.md §4.8: a read of /proc/stat costs about 20 us, a flood loses
 * hundreds of thousands of frames a second). Called with steal.lock held. */
static uint64_t steal_fresh(void)
{
	uint64_t now = loss_mono_ns();

	if (!steal.fresh_t_ns || now - steal.fresh_t_ns >= EMU_STEAL_FRESH_NS) {
		steal.fresh_ticks = emu_steal_read();
		steal.fresh_t_ns = now;
	}
	return steal.fresh_ticks;
}

uint64_t emu_steal_since(uint64_t t0)
{
	uint64_t base = 0, now = 0;
	bool have = false;

	pthread_mutex_lock(&steal.lock);
	/* Newest first: the gap of a loss began a moment ago. */
	for (unsigned k = steal.n; k-- > 0;) {
		unsigned i = (steal.head + k) % STEAL_SAMPLES;

		base = steal.s[i].ticks;
		have = true;
		if (steal.s[i].t_ns <= t0)
			break;
	}
	if (have)
		now = steal_fresh();
	pthread_mutex_unlock(&steal.lock);
	if (!have)
		return 0;
	return now > base ? now - base : 0;
}

enum emu_loss_cause emu_loss_cause_of(uint64_t late_ns, uint64_t steal_ticks)
{
	if (late_ns > EMU_LOSS_LAB_LATE_NS)
		return EMU_LOSS_LAB;
	if (steal_ticks)
		return EMU_LOSS_STEAL;
	return EMU_LOSS_DRIVER;
}

enum emu_loss_cause emu_loss_count(struct emu_loss_stats *st, uint64_t t_phys, uint64_t now,
				   uint64_t gap_start, bool realtime)
{
	uint64_t late = now > t_phys ? now - t_phys : 0;
	uint64_t gap = now > gap_start ? now - gap_start : 0;
	enum emu_loss_cause c;

	/* Only what the lab cannot explain is worth a look at /proc/stat. */
	c = emu_loss_cause_of(
		late, late > EMU_LOSS_LAB_LATE_NS || !realtime ? 0 : emu_steal_since(gap_start));
	if (c == EMU_LOSS_LAB) {
		ethdrv_counter_inc(&st->lost_lab);
	} else if (c == EMU_LOSS_STEAL) {
		ethdrv_counter_inc(&st->lost_steal);
	} else {
		ethdrv_counter_inc(&st->lost_driver);
		if (gap > ethdrv_counter_get(&st->gap_max_ns))
			ethdrv_counter_set(&st->gap_max_ns, gap);
	}
	return c;
}

void emu_loss_injected(struct emu_loss_stats *st)
{
	ethdrv_counter_inc(&st->lost_injected);
}
