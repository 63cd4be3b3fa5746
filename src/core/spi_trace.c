// SPDX-License-Identifier: MIT
/*
 * SPI trace: a bus wrapper that appends every transfer to a file (driver.h),
 * as text ("<monotonic_ns> <mosi-hex> <miso-hex>" per line) or as pcapng
 * with one packet per transfer, link type USER0 (147), for Wireshark and the
 * TC6 dissector: the packet layout and the dissector are
 * docs/spi-trace.md §2, §3.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ethdrv/driver.h"
#include "ethdrv/loop.h"

#define PCAPNG_SHB 0x0A0D0D0Au
#define PCAPNG_IDB 0x00000001u
#define PCAPNG_EPB 0x00000006u
#define PCAPNG_BOM 0x1A2B3C4Du
#define PCAPNG_OPT_END 0
#define PCAPNG_OPT_SHB_USERAPPL 4
#define PCAPNG_OPT_IF_NAME 2
#define PCAPNG_OPT_IF_DESCRIPTION 3
#define PCAPNG_OPT_IF_TSRESOL 9
#define SPI_TRACE_LINKTYPE 147 /* LINKTYPE_USER0 (docs/spi-trace.md §2) */
#define SPI_TRACE_VERSION 1
#define SPI_TRACE_HDR 12 /* version, flags, node, length, duration */
#define SPI_TRACE_F_ERROR 0x01 /* the transfer returned an error */

struct spi_trace {
	const struct ethdrv_spi_ops *inner_ops; /* the traced bus */
	void *inner_ctx; /* its context */
	FILE *f; /* the trace file */
	bool pcapng; /* pcapng, else text */
	uint16_t node; /* the node number in each pcapng packet */
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

/* ---- pcapng (host byte order, as its byte-order magic says) ---- */

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

static void put16(FILE *f, uint16_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* One option: code, length, value, padding. */
static void put_opt(FILE *f, uint16_t code, const void *val, size_t len)
{
	static const uint8_t zero[4];

	put16(f, code);
	put16(f, (uint16_t)len);
	if (len)
		fwrite(val, 1, len, f);
	fwrite(zero, 1, pad4(len) - len, f);
}

static size_t opt_size(size_t len)
{
	return 4 + pad4(len);
}

static void pcapng_header(FILE *f, const char *ifname)
{
	static const char appl[] = "ethdrv";
	static const char desc[] = "SPI transfers (MOSI, MISO) of an OPEN Alliance TC6 MAC-PHY";
	const uint8_t tsresol = 9; /* nanoseconds */
	size_t name_len = ifname ? strlen(ifname) : 0;
	uint32_t len;

	len = (uint32_t)(28 + opt_size(sizeof(appl) - 1) + 4);
	put32(f, PCAPNG_SHB);
	put32(f, len);
	put32(f, PCAPNG_BOM);
	put16(f, 1); /* major */
	put16(f, 0); /* minor */
	put32(f, 0xFFFFFFFFu); /* section length unknown (-1) */
	put32(f, 0xFFFFFFFFu);
	put_opt(f, PCAPNG_OPT_SHB_USERAPPL, appl, sizeof(appl) - 1);
	put_opt(f, PCAPNG_OPT_END, NULL, 0);
	put32(f, len);

	len = (uint32_t)(20 + (name_len ? opt_size(name_len) : 0) + opt_size(sizeof(desc) - 1) +
			 opt_size(1) + 4);
	put32(f, PCAPNG_IDB);
	put32(f, len);
	put16(f, SPI_TRACE_LINKTYPE);
	put16(f, 0);
	put32(f, 0); /* no snap length */
	if (name_len)
		put_opt(f, PCAPNG_OPT_IF_NAME, ifname, name_len);
	put_opt(f, PCAPNG_OPT_IF_DESCRIPTION, desc, sizeof(desc) - 1);
	put_opt(f, PCAPNG_OPT_IF_TSRESOL, &tsresol, 1);
	put_opt(f, PCAPNG_OPT_END, NULL, 0);
	put32(f, len);
}

static uint64_t spi_trace_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One enhanced packet block: the header of docs/spi-trace.md §2, MOSI, MISO. */
static void pcapng_packet(struct spi_trace *t, uint64_t ts, uint64_t ns, const uint8_t *tx,
			  const uint8_t *rx, size_t len, int ret)
{
	static const uint8_t zero[4];
	uint8_t hdr[SPI_TRACE_HDR] = { SPI_TRACE_VERSION, ret ? SPI_TRACE_F_ERROR : 0,
				       (uint8_t)(t->node >> 8), (uint8_t)t->node };
	size_t cap = SPI_TRACE_HDR + 2 * len;
	uint32_t blk = (uint32_t)(32 + pad4(cap));

	put_be32(hdr + 4, (uint32_t)len);
	put_be32(hdr + 8, ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns);
	put32(t->f, PCAPNG_EPB);
	put32(t->f, blk);
	put32(t->f, 0); /* interface 0 */
	put32(t->f, (uint32_t)(ts >> 32));
	put32(t->f, (uint32_t)ts);
	put32(t->f, (uint32_t)cap);
	put32(t->f, (uint32_t)cap);
	fwrite(hdr, 1, sizeof(hdr), t->f);
	fwrite(tx, 1, len, t->f);
	fwrite(rx, 1, len, t->f);
	if (pad4(cap) != cap)
		fwrite(zero, 1, pad4(cap) - cap, t->f);
	put32(t->f, blk);
}

static int spi_trace_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct spi_trace *t = ctx;
	uint64_t ts = t->pcapng ? spi_trace_realtime_ns() : 0, t0 = ethdrv_now_ns();
	int ret = t->inner_ops->transfer(t->inner_ctx, tx, rx, len);

	if (t->pcapng) {
		pcapng_packet(t, ts, ethdrv_now_ns() - t0, tx, rx, len, ret);
		return ret;
	}
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

/* The number that ends @ifname ("t1s3" -> 3), 0 without one. */
static uint16_t spi_trace_node(const char *ifname)
{
	size_t n = ifname ? strlen(ifname) : 0, i = n;

	while (i && ifname[i - 1] >= '0' && ifname[i - 1] <= '9')
		i--;
	return i < n && n - i <= 4 ? (uint16_t)strtoul(ifname + i, NULL, 10) : 0;
}

/* True for "pcapng:PATH" (then *@path skips the prefix) or a PATH ending in ".pcapng". */
static bool spi_trace_is_pcapng(const char **path)
{
	size_t n = strlen(*path);

	if (!strncmp(*path, "pcapng:", 7)) {
		*path += 7;
		return true;
	}
	return n > 7 && !strcmp(*path + n - 7, ".pcapng");
}

int ethdrv_spi_trace_start_as(struct ethdrv_spi_bus *bus, const char *path, const char *ifname)
{
	struct spi_trace *t;
	bool pcapng;

	if (!path)
		return -EINVAL;
	pcapng = spi_trace_is_pcapng(&path);
	if (bus->ops == &spi_trace_ops)
		return -EALREADY;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->f = fopen(path, pcapng ? "we" : "ae");
	if (!t->f) {
		int err = errno ? -errno : -EIO;

		free(t);
		return err;
	}
	t->pcapng = pcapng;
	t->node = spi_trace_node(ifname);
	if (pcapng)
		pcapng_header(t->f, ifname);
	t->inner_ops = bus->ops;
	t->inner_ctx = bus->ctx;
	bus->ops = &spi_trace_ops;
	bus->ctx = t;
	return 0;
}

int ethdrv_spi_trace_start(struct ethdrv_spi_bus *bus, const char *path)
{
	return ethdrv_spi_trace_start_as(bus, path, NULL);
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
