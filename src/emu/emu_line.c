// SPDX-License-Identifier: MIT
/*
 * Level interrupt line on an eventfd (emu_line.h): one write makes it
 * readable, one read drains it.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "emu_line.h"

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
