// SPDX-License-Identifier: MIT
/*
 * The SPI bus of a real board over Linux spidev, and the
 * "spidev:PATH,irq=CHIP:LINE[,...]" device spec (docs/design.md §2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/spi/spidev.h>
#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "platform.h"

ETHDRV_LOG_MODULE(spidev);

#define SPIDEV_BUFSIZ_PATH "/sys/module/spidev/parameters/bufsiz"
#define SPIDEV_BUFSIZ_DEFAULT 4096 /* the spidev module's default */
#define SPEC_PREFIX "spidev:"
#define SPEC_MAX 256 /* longest spec string we accept */

/* State behind one spidev bus. */
struct spidev_ctx {
	int fd; /* the spidev node */
	uint32_t hz; /* speed_hz of every transfer */
	size_t bufsiz; /* largest transfer spidev accepts */
	struct ethdrv_gpio_irq *irq; /* IRQ_N mirror owned by the bus, or NULL */
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
	if (ioctl(s->fd, SPI_IOC_MESSAGE(1), &tr) < 0) {
		int err = errno;

		ethdrv_err_ratelimited(NULL, "spidev %s: transfer of %zu bytes: %s", s->path, len,
				       strerror(err));
		return -err;
	}
	return 0;
}

/* Release the bus: the IRQ mirror first, then the spidev fd. */
static void spidev_close(void *ctx)
{
	struct spidev_ctx *s = ctx;

	if (!s)
		return;
	if (s->irq)
		ethdrv_gpio_irq_close(s->irq);
	close(s->fd);
	free(s);
}

static const struct ethdrv_spi_ops spidev_ops = {
	.transfer = spidev_transfer,
	.close = spidev_close,
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

/* Program mode, word size and speed on the open spidev @fd. */
static int spidev_configure(int fd, const char *path, uint32_t hz, uint8_t mode)
{
	uint8_t bits = 8;

	if (ioctl(fd, SPI_IOC_WR_MODE, &mode) < 0)
		return spidev_open_error(path, "SPI_IOC_WR_MODE", errno);
	if (ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0)
		return spidev_open_error(path, "SPI_IOC_WR_BITS_PER_WORD", errno);
	if (ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &hz) < 0)
		return spidev_open_error(path, "SPI_IOC_WR_MAX_SPEED_HZ", errno);
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
	s->fd = open(path, O_RDWR | O_CLOEXEC);
	if (s->fd < 0) {
		err = spidev_open_error(path, "open", errno);
		goto err_free;
	}
	err = spidev_configure(s->fd, path, hz, mode);
	if (err)
		goto err_close_fd;
	s->hz = hz;
	s->bufsiz = spidev_bufsiz();
	snprintf(s->path, sizeof(s->path), "%s", path);
	bus->ops = &spidev_ops;
	bus->ctx = s;
	bus->irq_fd = -1;
	bus->hz = hz;
	snprintf(bus->desc, sizeof(bus->desc), "spidev:%s", path);
	return 0;

err_close_fd:
	close(s->fd);
err_free:
	free(s);
	return err;
}

int ethdrv_spidev_bus_open(const struct ethdrv_spidev_spec *spec, struct ethdrv_spi_bus *bus)
{
	struct spidev_ctx *s;
	int level_fd, err;

	err = ethdrv_spidev_open(spec->spi_path, spec->hz, spec->mode, bus);
	if (err)
		return err;
	s = bus->ctx;
	err = ethdrv_gpio_irq_open(spec->gpio_chip, spec->gpio_line, spec->pull_up, &level_fd,
				   &s->irq);
	if (err) {
		spidev_close(s);
		bus->ctx = NULL;
		return err;
	}
	bus->irq_fd = level_fd;
	return 0;
}

/* Log a spec error naming @part; always -EINVAL. */
static int spec_error(const char *spec, const char *part, const char *accepted)
{
	ethdrv_err(NULL, "spec '%s': bad %s: %s", spec, part, accepted);
	return -EINVAL;
}

/* Parse a decimal number of at most @max with nothing else around it. */
static int spec_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return (errno || *end || *out > max) ? -EINVAL : 0;
}

/* Copy @src into a path field if it is absolute and fits. */
static int spec_copy_path(char *dst, size_t size, const char *src)
{
	if (src[0] != '/' || strlen(src) >= size)
		return -EINVAL;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

/* Parse "CHIP:LINE" (the last ':' splits) into @out. */
static int spec_parse_irq(char *val, struct ethdrv_spidev_spec *out)
{
	char *colon = strrchr(val, ':');
	unsigned long line;

	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (spec_copy_path(out->gpio_chip, sizeof(out->gpio_chip), val) ||
	    spec_parse_uint(colon + 1, 65535, &line))
		return -EINVAL;
	out->gpio_line = (unsigned)line;
	return 0;
}

/* Apply one key=value option; @seen tracks keys already given. */
static int spec_parse_opt(const char *spec, char *opt, unsigned *seen,
			  struct ethdrv_spidev_spec *out)
{
	static const char *const keys[] = { "irq", "hz", "mode", "bias" };
	char *val = strchr(opt, '=');
	unsigned long n;
	unsigned k;

	if (val)
		*val++ = '\0';
	for (k = 0; k < ETHDRV_ARRAY_SIZE(keys) && strcmp(opt, keys[k]) != 0; k++)
		;
	if (k == ETHDRV_ARRAY_SIZE(keys))
		return spec_error(spec, opt, "unknown key: accepted keys are irq, hz, mode, bias");
	if (!val || (*seen & (1u << k)))
		return spec_error(spec, opt, "each key once, as key=value");
	*seen |= 1u << k;
	if (k == 0 && spec_parse_irq(val, out))
		return spec_error(spec, "irq", "use irq=/dev/gpiochipN:LINE (absolute path)");
	if (k == 1 && (spec_parse_uint(val, ETHDRV_SPIDEV_HZ_MAX, &n) || n < ETHDRV_SPIDEV_HZ_MIN))
		return spec_error(spec, "hz", "use 100000..50000000 (Hz)");
	if (k == 2 && spec_parse_uint(val, 3, &n))
		return spec_error(spec, "mode", "use 0, 1, 2 or 3");
	if (k == 3 && strcmp(val, "pull-up") != 0 && strcmp(val, "none") != 0)
		return spec_error(spec, "bias", "use pull-up or none");
	if (k == 1)
		out->hz = (uint32_t)n;
	else if (k == 2)
		out->mode = (uint8_t)n;
	else if (k == 3)
		out->pull_up = strcmp(val, "pull-up") == 0;
	return 0;
}

int ethdrv_spidev_spec_parse(const char *spec, struct ethdrv_spidev_spec *out)
{
	char buf[SPEC_MAX];
	char *rest = buf, *tok;
	unsigned seen = 0;
	int err;

	if (!spec || strncmp(spec, SPEC_PREFIX, strlen(SPEC_PREFIX)) != 0 ||
	    strlen(spec) >= sizeof(buf))
		return spec_error(
			spec ? spec : "(null)", "prefix or length",
			"use spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE[,hz=N][,mode=M]");
	memset(out, 0, sizeof(*out));
	out->hz = ETHDRV_SPIDEV_HZ_DEFAULT;
	memcpy(buf, spec + strlen(SPEC_PREFIX), strlen(spec) - strlen(SPEC_PREFIX) + 1);
	tok = strsep(&rest, ",");
	if (spec_copy_path(out->spi_path, sizeof(out->spi_path), tok))
		return spec_error(spec, "spidev path",
				  "use an absolute path such as /dev/spidev0.0");
	while ((tok = strsep(&rest, ","))) {
		if (!*tok)
			return spec_error(spec, "empty option", "remove the extra comma");
		err = spec_parse_opt(spec, tok, &seen, out);
		if (err)
			return err;
	}
	if (!(seen & 1u))
		return spec_error(spec, "irq", "missing: add irq=/dev/gpiochipN:LINE");
	return 0;
}
