// SPDX-License-Identifier: MIT
/*
 * TAP interfaces through /dev/net/tun (docs/style.md S6: O_CLOEXEC, IFF_TAP |
 * IFF_NO_PI, close on failure, -errno; attaching to a pre-created persistent
 * TAP works without privilege for its owner, as lwIP PRECONFIGURED_TAPIF).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include "ethdrv/log.h"
#include "platform.h"

ETHDRV_LOG_MODULE(tap);

#define TAP_DEV "/dev/net/tun"

/* Log why TAP @name could not be opened and what the user can do about it. */
static void tap_log_error(const char *name, const char *what, int err)
{
	const char *fix;

	switch (err) {
	case ENOENT:
		fix = "load the tun module or create the node (mknod /dev/net/tun c 10 200)";
		break;
	case EACCES:
	case EPERM:
		fix = "run as root (CAP_NET_ADMIN) or pre-create the TAP for this user "
		      "(ip tuntap add dev NAME mode tap user USER)";
		break;
	case EBUSY:
		fix = "another process holds it, or it exists and exclusive creation was asked";
		break;
	case EINVAL:
		fix = "an interface of that name exists and is not a TAP";
		break;
	default:
		fix = "check that the tun driver works";
		break;
	}
	ethdrv_err(NULL, "tap %s: %s: %s: %s", name, what, strerror(err), fix);
}

/* Issue TUNSETIFF (and TUNSETPERSIST) on the open @fd; -errno on failure. */
static int tap_attach(int fd, const char *name, unsigned flags)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	if (flags & ETHDRV_TAP_EXCL)
		ifr.ifr_flags |= IFF_TUN_EXCL;
	if (flags & ETHDRV_TAP_VNET_HDR)
		ifr.ifr_flags |= IFF_VNET_HDR;
	memcpy(ifr.ifr_name, name, strlen(name) + 1);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		tap_log_error(name, "TUNSETIFF", errno);
		return -errno;
	}
	if ((flags & ETHDRV_TAP_NO_PERSIST) && ioctl(fd, TUNSETPERSIST, 0L) < 0) {
		tap_log_error(name, "TUNSETPERSIST", errno);
		return -errno;
	}
	return 0;
}

int ethdrv_tap_open(const char *name, unsigned flags, int *fd_out)
{
	size_t len = name ? strnlen(name, ETHDRV_IFNAMSIZ) : 0;
	int fd, err;

	if (len == 0 || len >= ETHDRV_IFNAMSIZ || strchr(name, '/') ||
	    (flags & ~(ETHDRV_TAP_EXCL | ETHDRV_TAP_NO_PERSIST | ETHDRV_TAP_VNET_HDR))) {
		ethdrv_err(NULL, "tap %s: bad name or flags: use 1..15 chars without '/'",
			   name ? name : "(null)");
		return -EINVAL;
	}
	fd = open(TAP_DEV, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		tap_log_error(name, TAP_DEV, -err);
		return err;
	}
	err = tap_attach(fd, name, flags);
	if (err) {
		close(fd);
		return err;
	}
	*fd_out = fd;
	return 0;
}

ssize_t ethdrv_tap_read(int fd, void *buf, size_t size)
{
	ssize_t n = read(fd, buf, size);

	return n < 0 ? -errno : n;
}

int ethdrv_tap_write(int fd, const void *frame, size_t len)
{
	ssize_t n = write(fd, frame, len);

	if (n < 0)
		return -errno;
	/* tun takes a frame whole or not at all; a short count is a kernel surprise. */
	return (size_t)n == len ? 0 : -EIO;
}

ssize_t ethdrv_tap_readv(int fd, const struct iovec *iov, int iovcnt)
{
	ssize_t n = readv(fd, iov, iovcnt);

	return n < 0 ? -errno : n;
}

int ethdrv_tap_writev(int fd, const struct iovec *iov, int iovcnt)
{
	size_t len = 0;
	ssize_t n;

	for (int i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	n = writev(fd, iov, iovcnt);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* ---- offloads ---- */

int ethdrv_tap_set_offload(int fd, unsigned offloads)
{
	static const struct {
		unsigned ours, tun;
	} map[] = {
		{ ETHDRV_TAP_OFF_CSUM, TUN_F_CSUM },
		{ ETHDRV_TAP_OFF_TSO4, TUN_F_TSO4 },
		{ ETHDRV_TAP_OFF_TSO6, TUN_F_TSO6 },
		{ ETHDRV_TAP_OFF_TSO_ECN, TUN_F_TSO_ECN },
	};
	unsigned long tun = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (offloads & map[i].ours)
			tun |= map[i].tun;
	if ((offloads & (ETHDRV_TAP_OFF_TSO4 | ETHDRV_TAP_OFF_TSO6)) &&
	    !(offloads & ETHDRV_TAP_OFF_CSUM))
		return -EINVAL; /* tun refuses TSO without checksum offload */
	if (ioctl(fd, TUNSETOFFLOAD, tun) < 0) {
		int err = errno;

		ethdrv_err(NULL, "tap: TUNSETOFFLOAD 0x%lx: %s", tun, strerror(err));
		return -err;
	}
	return 0;
}

/* ---- carrier (docs/mdio.md §10) ---- */

int ethdrv_tap_set_carrier(int fd, bool on)
{
	int carrier = on;

	/* TUNSETCARRIER (Linux 4.20+) drives the TAP's carrier as a driver's
	 * netif_carrier_on/off does: ip link shows NO-CARRIER / LOWER_UP. */
	if (ioctl(fd, TUNSETCARRIER, &carrier) < 0) {
		int err = errno;

		ethdrv_err(NULL, "tap: TUNSETCARRIER %s: %s", on ? "on" : "off", strerror(err));
		return -err;
	}
	return 0;
}

void ethdrv_tap_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
