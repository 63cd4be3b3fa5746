// SPDX-License-Identifier: MIT
/*
 * The SPI bus of a real board over Linux spidev (platform.h), with the
 * GPIO lines its device spec names (spidev_spec.c): IRQ_N mirrored into a
 * level fd, or none for polled mode, and RESET_N behind ops->set_reset.
 * Every call on the device nodes goes through ethdrv__sys() so that a test
 * can answer them with a fake kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/spi/spidev.h>
#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "platform.h"

ETHDRV_LOG_MODULE(spidev);

#define SPIDEV_BUFSIZ_PATH "/sys/module/spidev/parameters/bufsiz"
#define SPIDEV_BUFSIZ_DEFAULT 4096 /* the spidev module's default */

/* State behind one spidev bus. */
struct spidev_ctx {
	int fd; /* the spidev node */
	uint32_t hz; /* speed_hz of every transfer: the speed spidev read back */
	size_t bufsiz; /* largest transfer spidev accepts */
	struct ethdrv_gpio_irq *irq; /* IRQ_N mirror owned by the bus, or NULL */
	struct ethdrv_gpio_out *reset; /* RESET_N owned by the bus, or NULL */
	char path[64]; /* for messages */
};

/* One full-duplex transfer in one CS assertion (docs/tc6.md §1.1). */
static int spidev_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct spidev_ctx *s = ctx;
	struct spi_ioc_transfer tr;

	if (len == 0)
		return 0;
	if (len > s->bufsiz) {
		ethdrv_err_ratelimited(NULL,
				       "spidev %s: transfer of %zu bytes exceeds the spidev "
				       "buffer of %zu: raise the spidev bufsiz module parameter",
				       s->path, len, s->bufsiz);
		return -EMSGSIZE;
	}
	memset(&tr, 0, sizeof(tr));
	tr.tx_buf = (uintptr_t)tx;
	tr.rx_buf = (uintptr_t)rx;
	tr.len = (uint32_t)len;
	tr.speed_hz = s->hz;
	tr.bits_per_word = 8;
	tr.cs_change = 0; /* one segment: CS frames the whole transfer */
	if (ethdrv__sys()->ioctl(s->fd, SPI_IOC_MESSAGE(1), &tr) < 0) {
		int err = errno;

		ethdrv_err_ratelimited(NULL, "spidev %s: transfer of %zu bytes: %s", s->path, len,
				       strerror(err));
		return -err;
	}
	return 0;
}

/* RESET_N is active low (docs/tc6.md §5.5): asserted = the line low. */
static int spidev_set_reset(void *ctx, bool asserted)
{
	struct spidev_ctx *s = ctx;

	return s->reset ? ethdrv_gpio_out_set(s->reset, !asserted) : -EOPNOTSUPP;
}

/* Release the bus: the GPIO lines first, then the spidev fd. */
static void spidev_close(void *ctx)
{
	struct spidev_ctx *s = ctx;

	if (!s)
		return;
	ethdrv_gpio_irq_close(s->irq);
	ethdrv_gpio_out_close(s->reset);
	ethdrv__sys()->close(s->fd);
	free(s);
}

static const struct ethdrv_spi_ops spidev_ops = {
	.transfer = spidev_transfer,
	.close = spidev_close,
	.set_reset = spidev_set_reset,
};

/* The spidev module's bufsiz parameter, or its default if it cannot be read. */
static size_t spidev_bufsiz(void)
{
	unsigned long val = 0;
	FILE *f = fopen(SPIDEV_BUFSIZ_PATH, "re");

	if (!f)
		return SPIDEV_BUFSIZ_DEFAULT;
	if (fscanf(f, "%lu", &val) != 1 || val == 0)
		val = SPIDEV_BUFSIZ_DEFAULT;
	fclose(f);
	return val;
}

/* Log a failed open step on @path with the fix for @err (positive errno). */
static int spidev_open_error(const char *path, const char *what, int err)
{
	const char *fix;

	switch (err) {
	case ENOENT:
		fix = "enable the spidev overlay or check the bus/cs numbers";
		break;
	case EACCES:
	case EPERM:
		fix = "run as root or add the user to the spi group";
		break;
	case ENOTTY:
		fix = "not a spidev device";
		break;
	default:
		fix = "the SPI controller refused the setting";
		break;
	}
	ethdrv_err(NULL, "spidev %s: %s: %s: %s", path, what, strerror(err), fix);
	return -err;
}

/*
 * Program mode, word size and speed on the open spidev @fd, then read the
 * speed back into *@applied: what spidev says it will use, which may be
 * below @hz (docs/tc6.md §5.9).
 */
static int spidev_configure(int fd, const char *path, uint32_t hz, uint8_t mode, uint32_t *applied)
{
	const struct ethdrv__sys_ops *sys = ethdrv__sys();
	uint8_t bits = 8;

	if (sys->ioctl(fd, SPI_IOC_WR_MODE, &mode) < 0)
		return spidev_open_error(path, "SPI_IOC_WR_MODE", errno);
	if (sys->ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0)
		return spidev_open_error(path, "SPI_IOC_WR_BITS_PER_WORD", errno);
	if (sys->ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &hz) < 0)
		return spidev_open_error(path, "SPI_IOC_WR_MAX_SPEED_HZ", errno);
	*applied = 0;
	if (sys->ioctl(fd, SPI_IOC_RD_MAX_SPEED_HZ, applied) < 0)
		return spidev_open_error(path, "SPI_IOC_RD_MAX_SPEED_HZ", errno);
	if (*applied == 0 || *applied > hz) {
		ethdrv_err(NULL,
			   "spidev %s: asked for %u Hz, the controller reports %u Hz: "
			   "not a speed between 1 Hz and the one asked for",
			   path, hz, *applied);
		return -EIO;
	}
	if (*applied != hz)
		ethdrv_warn(NULL, "spidev %s: asked for %u Hz, the controller applies %u Hz", path,
			    hz, *applied);
	return 0;
}

int ethdrv_spidev_open(const char *path, uint32_t hz, uint8_t mode, struct ethdrv_spi_bus *bus)
{
	struct spidev_ctx *s;
	int err;

	if (!path || strlen(path) >= sizeof(s->path) || mode > 3 || hz == 0) {
		ethdrv_err(NULL,
			   "spidev %s: bad arguments: need a path under 64 chars, mode 0..3, "
			   "hz > 0",
			   path ? path : "(null)");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = ethdrv__sys()->open(path, O_RDWR | O_CLOEXEC);
	if (s->fd < 0) {
		err = spidev_open_error(path, "open", errno);
		goto err_free;
	}
	err = spidev_configure(s->fd, path, hz, mode, &s->hz);
	if (err)
		goto err_close_fd;
	s->bufsiz = spidev_bufsiz();
	snprintf(s->path, sizeof(s->path), "%s", path);
	bus->ops = &spidev_ops;
	bus->ctx = s;
	bus->irq_fd = -1;
	bus->irq_edge_fd = -1; /* the GPIO mirror keeps the edges to itself (gpio.c) */
	bus->hz = s->hz;
	snprintf(bus->desc, sizeof(bus->desc), "spidev:%s", path);
	return 0;

err_close_fd:
	ethdrv__sys()->close(s->fd);
err_free:
	free(s);
	return err;
}

int ethdrv_spidev_bus_open(const struct ethdrv_spidev_spec *spec, struct ethdrv_spi_bus *bus)
{
	struct spidev_ctx *s;
	int level_fd = -1, err;

	err = ethdrv_spidev_open(spec->spi_path, spec->hz, spec->mode, bus);
	if (err)
		return err;
	s = bus->ctx;
	/* RESET_N first, requested high: opening the bus must not reset the chip. */
	if (spec->has_reset)
		err = ethdrv_gpio_out_open(spec->reset.chip, spec->reset.line, true, &s->reset);
	if (!err && spec->has_irq)
		err = ethdrv_gpio_irq_open(spec->irq.chip, spec->irq.line, spec->pull_up, &level_fd,
					   &s->irq);
	if (err) {
		spidev_close(s);
		bus->ctx = NULL;
		return err;
	}
	bus->irq_fd = spec->has_irq ? level_fd : -1;
	return 0;
}
