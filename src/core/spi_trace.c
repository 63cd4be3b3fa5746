// SPDX-License-Identifier: MIT
/*
 * SPI trace: a bus wrapper that appends every transfer to a text file as
 * "<monotonic_ns> <mosi-hex> <miso-hex>" (driver.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ethdrv/driver.h"
#include "ethdrv/loop.h"

struct spi_trace {
	const struct ethdrv_spi_ops *inner_ops; /* the traced bus */
	void *inner_ctx; /* its context */
	FILE *f; /* the trace file */
};

/* Write @len bytes as lowercase hex, staged through a small buffer. */
static void spi_trace_hex(FILE *f, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char buf[256];
	size_t used = 0;

	for (size_t i = 0; i < len; i++) {
		buf[used++] = digits[p[i] >> 4];
		buf[used++] = digits[p[i] & 0xF];
		if (used == sizeof(buf)) {
			fwrite(buf, 1, used, f);
			used = 0;
		}
	}
	fwrite(buf, 1, used, f);
}

static int spi_trace_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct spi_trace *t = ctx;
	int ret = t->inner_ops->transfer(t->inner_ctx, tx, rx, len);

	fprintf(t->f, "%llu ", (unsigned long long)ethdrv_now_ns());
	spi_trace_hex(t->f, tx, len);
	fputc(' ', t->f);
	spi_trace_hex(t->f, rx, len);
	fputc('\n', t->f);
	return ret;
}

static void spi_trace_close(void *ctx)
{
	struct spi_trace *t = ctx;

	if (t->inner_ops->close)
		t->inner_ops->close(t->inner_ctx);
	fclose(t->f);
	free(t);
}

/* The reset line is not a transfer: passed through, not traced. */
static int spi_trace_set_reset(void *ctx, bool asserted)
{
	struct spi_trace *t = ctx;

	return t->inner_ops->set_reset ? t->inner_ops->set_reset(t->inner_ctx, asserted) :
					 -EOPNOTSUPP;
}

static const struct ethdrv_spi_ops spi_trace_ops = {
	.transfer = spi_trace_transfer,
	.close = spi_trace_close,
	.set_reset = spi_trace_set_reset,
};

int ethdrv_spi_trace_start(struct ethdrv_spi_bus *bus, const char *path)
{
	struct spi_trace *t;

	if (bus->ops == &spi_trace_ops)
		return -EALREADY;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->f = fopen(path, "ae");
	if (!t->f) {
		int err = errno ? -errno : -EIO;

		free(t);
		return err;
	}
	t->inner_ops = bus->ops;
	t->inner_ctx = bus->ctx;
	bus->ops = &spi_trace_ops;
	bus->ctx = t;
	return 0;
}

int ethdrv_spi_trace_stop(struct ethdrv_spi_bus *bus)
{
	struct spi_trace *t = bus->ctx;
	int ret = 0;

	if (bus->ops != &spi_trace_ops)
		return -EINVAL;
	bus->ops = t->inner_ops;
	bus->ctx = t->inner_ctx;
	if (fclose(t->f))
		ret = errno ? -errno : -EIO;
	free(t);
	return ret;
}
