// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the argument parsers of the ethdrv command
 * (tools/ethdrv/cli.h): device specs (emu:... and spidev:..., the latter
 * through the platform's ethdrv_spidev_spec_parse()), numbers with ranges,
 * IPv4/prefix, interface names, MAC addresses, key=value knobs and log
 * levels. Arguments come from users and scripts, so each must reject bad
 * input with -EINVAL and never read or write out of bounds.
 *
 * Input: byte 0 selects the parser, the rest is the argument (cut at the
 * first NUL, heap-allocated at its exact size so ASan sees overreads).
 *
 * Checked: every parser returns 0 or -EINVAL; on success the outputs obey
 * the documented ranges (device: model 0x8650/0x8651, hz 100000..50000000,
 * rx-buf 1..65536, setup-ns <= 1e6, BERs in 0..0.5, the spec copied; ENET:
 * speed 10/100/1000, batch-us and mmio-ns <= 10000, ber in 0..0.01; prefix
 * <= 32 and the address NUL-terminated within 16 bytes; a MAC is unicast
 * and its text is 17 chars; a knob's key and value are non-empty and point
 * into the argument; ulong within [min, max]).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* The parsers explain every rejection on stderr: buffer it, so the
	 * fuzzer is not slowed by a write per input (libFuzzer's own lines
	 * still come out, a block at a time). */
	setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	return 0;
}

static void fz_device(const char *s)
{
	struct cli_device d;
	int err = cli_parse_device("fuzz", s, &d);

	fz_assert(err == 0 || err == -EINVAL);
	if (err)
		return;
	fz_assert(!strcmp(d.spec, s));
	if (d.kind == CLI_DEV_ENET) {
		fz_assert(d.enet.speed_mbps == 10 || d.enet.speed_mbps == 100 ||
			  d.enet.speed_mbps == 1000);
		fz_assert(d.enet.batch_us <= 10000 && d.enet.mmio_ns <= 10000);
		fz_assert(d.enet.ber >= 0 && d.enet.ber <= 0.01);
		return;
	}
	if (d.kind != CLI_DEV_EMU)
		return;
	fz_assert(d.emu.model == 0x8650 || d.emu.model == 0x8651);
	fz_assert(d.emu.spi_hz >= 100000 && d.emu.spi_hz <= 50000000);
	fz_assert(d.emu.rx_buf_chunks >= 1 && d.emu.rx_buf_chunks <= 65536);
	fz_assert(d.emu.setup_ns <= 1000000);
	fz_assert(d.emu.mosi_ber >= 0 && d.emu.mosi_ber <= 0.5);
	fz_assert(d.emu.miso_ber >= 0 && d.emu.miso_ber <= 0.5);
}

static void fz_misc(unsigned sel, char *s)
{
	char addr[16];
	unsigned prefix;
	unsigned long v;
	uint8_t mac[6];
	struct cli_knob k;
	size_t len = strlen(s);
	int err;

	switch (sel) {
	case 1:
		err = cli_parse_ipv4_prefix("fuzz", s, addr, &prefix);
		fz_assert(err == 0 || err == -EINVAL);
		fz_assert(err || (prefix <= 32 && memchr(addr, '\0', sizeof(addr))));
		break;
	case 2:
		err = cli_parse_ifname("fuzz", "--tap", s);
		fz_assert(err == 0 || err == -EINVAL);
		fz_assert(err || (len >= 1 && len <= 15));
		break;
	case 3:
		err = cli_parse_mac("fuzz", s, mac);
		fz_assert(err == 0 || err == -EINVAL);
		fz_assert(err || (!(mac[0] & 1) && len == 17));
		break;
	case 4:
		err = cli_parse_knob("fuzz", s, &k);
		fz_assert(err == 0 || err == -EINVAL);
		fz_assert(err ||
			  (k.key == s && *k.key && *k.value && k.value > s && k.value <= s + len));
		break;
	case 5:
		err = cli_parse_ulong("fuzz", "--nodes", s, 2, 16, &v);
		fz_assert(err == 0 || err == -EINVAL);
		fz_assert(err || (v >= 2 && v <= 16));
		break;
	default:
		err = cli_check_log_level("fuzz", s);
		fz_assert(err == 0 || err == -EINVAL);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	char *s;

	if (!size)
		return 0;
	n = strnlen((const char *)data + 1, size - 1);
	s = malloc(n + 1);
	if (!s)
		return 0;
	memcpy(s, data + 1, n);
	s[n] = '\0';
	if (data[0] % 8 < 2)
		fz_device(s);
	else
		fz_misc(data[0] % 8 - 1, s);
	free(s);
	return 0;
}
