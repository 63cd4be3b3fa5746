// SPDX-License-Identifier: MIT
/*
 * Classic pcap writer with nanosecond timestamps (see pcap.h). Headers are
 * written in host byte order; the magic tells readers which order that is.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ethdrv/log.h>

#include "pcap.h"

ETHDRV_LOG_MODULE(emu_pcap);

struct emu_pcap {
	FILE *f; /* the capture file */
	uint64_t mono0_ns; /* CLOCK_MONOTONIC at open */
	uint64_t real0_ns; /* CLOCK_REALTIME at open */
	bool virt; /* timestamps are virtual ns from 0 */
	uint64_t frames; /* records written */
	uint64_t errors; /* failed writes */
};

struct pcap_global_hdr {
	uint32_t magic;
	uint16_t version_major;
	uint16_t version_minor;
	int32_t thiszone;
	uint32_t sigfigs;
	uint32_t snaplen;
	uint32_t network;
};

struct pcap_rec_hdr {
	uint32_t ts_sec;
	uint32_t ts_nsec;
	uint32_t incl_len;
	uint32_t orig_len;
};

_Static_assert(sizeof(struct pcap_global_hdr) == 24, "pcap global header is 24 bytes");
_Static_assert(sizeof(struct pcap_rec_hdr) == 16, "pcap record header is 16 bytes");

static uint64_t pcap_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Write @len bytes; the -errno of the failure (EIO if errno is unset). */
static int pcap_put(struct emu_pcap *p, const void *buf, size_t len)
{
	errno = 0;
	if (fwrite(buf, 1, len, p->f) == len)
		return 0;
	return errno ? -errno : -EIO;
}

int emu_pcap_open(const char *path, struct emu_pcap **out)
{
	struct pcap_global_hdr gh = {
		.magic = EMU_PCAP_MAGIC_NS,
		.version_major = 2,
		.version_minor = 4,
		.snaplen = EMU_PCAP_SNAPLEN,
		.network = EMU_PCAP_LINKTYPE_ETHERNET,
	};
	struct emu_pcap *p;
	int err;

	if (!path || !out)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->f = fopen(path, "wbe");
	if (!p->f) {
		err = -errno;
		goto err_free;
	}
	p->mono0_ns = pcap_clock_ns(CLOCK_MONOTONIC);
	p->real0_ns = pcap_clock_ns(CLOCK_REALTIME);
	err = pcap_put(p, &gh, sizeof(gh));
	if (err)
		goto err_close;
	*out = p;
	return 0;

err_close:
	fclose(p->f);
err_free:
	free(p);
	return err;
}

void emu_pcap_set_virtual(struct emu_pcap *p)
{
	p->virt = true;
}

/* Wall-clock ns of timeline time @t_ns. */
static uint64_t pcap_wall_ns(const struct emu_pcap *p, uint64_t t_ns)
{
	if (p->virt)
		return p->real0_ns + t_ns;
	if (t_ns >= p->mono0_ns)
		return p->real0_ns + (t_ns - p->mono0_ns);
	return p->real0_ns - ETHDRV_MIN(p->real0_ns, p->mono0_ns - t_ns);
}

int emu_pcap_write(struct emu_pcap *p, uint64_t t_ns, const uint8_t *frame, size_t len)
{
	uint64_t wall = pcap_wall_ns(p, t_ns);
	size_t n = len > EMU_PCAP_FCS_LEN ? len - EMU_PCAP_FCS_LEN : 0;
	struct pcap_rec_hdr rh = {
		.ts_sec = (uint32_t)(wall / 1000000000u),
		.ts_nsec = (uint32_t)(wall % 1000000000u),
		.incl_len = (uint32_t)ETHDRV_MIN(n, (size_t)EMU_PCAP_SNAPLEN),
		.orig_len = (uint32_t)n,
	};
	int err;

	if (!frame)
		return -EINVAL;
	err = pcap_put(p, &rh, sizeof(rh));
	if (!err)
		err = pcap_put(p, frame, rh.incl_len);
	if (err) {
		if (p->errors++ == 0)
			ethdrv_err(NULL, "pcap write failed, later failures only counted: %d", err);
		return err;
	}
	p->frames++;
	return 0;
}

uint64_t emu_pcap_errors(const struct emu_pcap *p)
{
	return p->errors;
}

uint64_t emu_pcap_frames(const struct emu_pcap *p)
{
	return p->frames;
}

int emu_pcap_close(struct emu_pcap *p)
{
	int err = 0;

	if (!p)
		return 0;
	errno = 0;
	if (fflush(p->f) != 0)
		err = errno ? -errno : -EIO;
	if (fclose(p->f) != 0 && !err)
		err = errno ? -errno : -EIO;
	if (err)
		ethdrv_err(NULL, "pcap close failed: %d", err);
	free(p);
	return err;
}
