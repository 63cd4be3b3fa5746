// SPDX-License-Identifier: MIT
/*
 * Level interrupt line on an eventfd (emu_line.h): one write makes it
 * readable, one read drains it.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "emu_util.h"
#include "ethdrv/compiler.h"

int emu_line_open(struct emu_line *line)
{
	line->asserted = false;
	line->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return line->fd < 0 ? -errno : 0;
}

void emu_line_close(struct emu_line *line)
{
	if (line->fd >= 0)
		close(line->fd);
	line->fd = -1;
	line->asserted = false;
}

void emu_line_set(struct emu_line *line, bool level)
{
	uint64_t v = 1;

	if (line->fd < 0 || line->asserted == level)
		return;
	if (level) {
		if (write(line->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			return;
		ethdrv_counter_inc(&line->asserts);
	} else if (read(line->fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		return;
	}
	line->asserted = level;
}

uint64_t emu_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void emu_spin_ns(uint64_t ns)
{
	uint64_t end = emu_mono_ns() + ns;

	while (emu_mono_ns() < end)
		ethdrv_cpu_relax();
}

int emu_sync_init(pthread_mutex_t *lock, pthread_cond_t *cond)
{
	pthread_condattr_t ca;
	int err = pthread_condattr_init(&ca);

	if (!err)
		err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(cond, &ca);
	pthread_condattr_destroy(&ca);
	if (err)
		return -err;
	err = pthread_mutex_init(lock, NULL);
	if (err)
		pthread_cond_destroy(cond);
	return -err;
}

void emu_sync_destroy(pthread_mutex_t *lock, pthread_cond_t *cond)
{
	pthread_cond_destroy(cond);
	pthread_mutex_destroy(lock);
}

void emu_wait_until(pthread_cond_t *cond, pthread_mutex_t *lock, uint64_t deadline_ns)
{
	struct timespec ts = { .tv_sec = deadline_ns / 1000000000u,
			       .tv_nsec = deadline_ns % 1000000000u };

	if (deadline_ns == EMU_NEVER)
		pthread_cond_wait(cond, lock);
	else
		pthread_cond_timedwait(cond, lock, &ts);
}

uint32_t emu_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

uint16_t emu_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}
