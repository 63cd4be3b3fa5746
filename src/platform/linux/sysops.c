// SPDX-License-Identifier: MIT
/*
 * The system calls the spidev and GPIO backends make on device nodes
 * (platform.h, struct ethdrv__sys_ops): the real ones, and the switch a
 * test uses to put a fake kernel behind the backends, so that their
 * success paths run without hardware or root.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "platform.h"

static int sys_open(const char *path, int flags)
{
	return open(path, flags);
}

static int sys_close(int fd)
{
	return close(fd);
}

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg);
}

static ssize_t sys_read(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

static const struct ethdrv__sys_ops sys_real = {
	.open = sys_open,
	.close = sys_close,
	.ioctl = sys_ioctl,
	.read = sys_read,
};

static const struct ethdrv__sys_ops *sys_current = &sys_real;

const struct ethdrv__sys_ops *ethdrv__sys(void)
{
	return __atomic_load_n(&sys_current, __ATOMIC_ACQUIRE);
}

const struct ethdrv__sys_ops *ethdrv__sys_set(const struct ethdrv__sys_ops *ops)
{
	return __atomic_exchange_n(&sys_current, ops ? ops : &sys_real, __ATOMIC_ACQ_REL);
}
