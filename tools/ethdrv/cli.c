// SPDX-License-Identifier: MIT
/* Argument parsing for the ethdrv command (cli.h). */
#define _GNU_SOURCE /* sched_getaffinity, cpu_set_t */
#include "cli.h"
#include "ethdrv/log.h"
#include "platform/linux/platform.h"

#include <arpa/inet.h>
#include <sched.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEV_FORMS                                                                 \
	"emu:lan8650[,key=value...], emu:enet[,key=value...], emu:gbeth[,...], "  \
	"emu:etsec[,...] or "                                                     \
	"spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE|none[,key=value...] (the " \
	"keys: `ethdrv up --help`)"
#define ENET_BER_MAX 0.01 /* fdx_line_set_ber()'s limit */

/* The keys of emu:lan8650 (knob.h); cli_emu_key() parses the UINT ones with these ranges. */
static const struct ethdrv_knob cli_emu_spec_keys[] = {
	ETHDRV_KNOB_UINT("hz", 100000, 50000000, "Hz", "SPI clock (default 25000000)"),
	ETHDRV_KNOB_UINT("rx-buf", 1, 65536, "chunks", "the model's RX buffer (default 64)"),
	ETHDRV_KNOB_UINT("setup-ns", 0, 1000000, "ns", "per-transfer setup time (default 1000)"),
	ETHDRV_KNOB_TEXT("mosi-ber", "0..0.5", "", "SPI bit error rate host to chip"),
	ETHDRV_KNOB_TEXT("miso-ber", "0..0.5", "", "SPI bit error rate chip to host"),
	ETHDRV_KNOB_TEXT("rev", "B0|B1|0..15", "", "silicon revision (DEVID.REV; default B1)"),
	ETHDRV_KNOB_ENUM("irq", "none", "poll instead of the model's IRQ line"),
	ETHDRV_KNOB_UINT("poll_us", ETHDRV_SPIDEV_POLL_US_MIN, ETHDRV_SPIDEV_POLL_US_MAX, "us",
			 "poll period with irq=none (default 1000)"),
	/* docs/design.md §4.2: how early a transfer may return. */
	ETHDRV_KNOB_UINT("slack_us", 0, 10000, "us", "how early a transfer may return"),
	/* docs/tc6.md §2.4.1: what the model does with an SV while a frame is open. */
	ETHDRV_KNOB_ENUM("sv-open", "restart|ignore", "an SV while a frame is open"),
	/* docs/tc6.md §5.6: the model halts RX after a chunk two frames share. */
	ETHDRV_KNOB_UINT("errata-s3", 0, 1, "", "model erratum s3 (RX halts on a shared chunk)"),
	/* docs/linux-driver.md: whose driver runs the node. */
	ETHDRV_KNOB_ENUM("driver", "ethdrv|linux",
			 "the driver: ethdrv's or Linux's own lan865x (a GPL-2.0 plugin)"),
};

static const struct ethdrv_knob_table cli_emu_spec_table =
	ETHDRV_KNOB_TABLE("emu:lan8650", cli_emu_spec_keys);

/* The keys of emu:enet (knob.h); cli_enet_key() parses with these ranges. */
static const struct ethdrv_knob cli_enet_spec_keys[] = {
	ETHDRV_KNOB_ENUM("speed", "1000|100|10", "line speed in Mb/s (default 1000)"),
	/* docs/design.md §5b.1: exact events (interrupts, descriptor writes) are never batched. */
	ETHDRV_KNOB_UINT("batch-us", 0, 10000, "us",
			 "engine wakeup period for events nobody sees at once (default 200)"),
	/* docs/design.md §5b.2: the wire pauses instead of bursting. */
	ETHDRV_KNOB_UINT("slip-us", 0, 1000000, "us",
			 "lateness beyond which the line's clock slips (default 1000, 0 = never)"),
	/* docs/design.md §5b.3: the engine polls the clock on this CPU. */
	ETHDRV_KNOB_TEXT("lab-cpu", "CPU", "", "lab CPU mode: the engine polls on CPU N"),
	ETHDRV_KNOB_UINT("mmio-ns", 0, 10000, "ns", "cost of a register access (default 100)"),
	ETHDRV_KNOB_TEXT("ber", "0..0.01", "", "bit error rate of both directions"),
	ETHDRV_KNOB_UINT("rx-ring", 16, 4096, "descriptors", "RX ring, a power of two"),
	ETHDRV_KNOB_UINT("tx-ring", 16, 4096, "descriptors", "TX ring, a power of two"),
	ETHDRV_KNOB_ENUM(
		"soc", "imx8m|imx6sx|imx6q|imx6ul",
		"the i.MX part of both MACs and drivers: reset and MIB rules (default imx8m)"),
	ETHDRV_KNOB_UINT("tx-fifo", 2048, 65536, "bytes", "the model's TX FIFO (default 4096)"),
};

static const struct ethdrv_knob_table cli_enet_spec_table =
	ETHDRV_KNOB_TABLE("emu:enet", cli_enet_spec_keys);

/* emu:gbeth: two GbEth models on the same kind of line, the same keys. */
static const struct ethdrv_knob_table cli_gbeth_spec_table =
	ETHDRV_KNOB_TABLE("emu:gbeth", cli_enet_spec_keys);

/* emu:etsec: two eTSEC models on the same kind of line, the same keys. */
static const struct ethdrv_knob_table cli_etsec_spec_table =
	ETHDRV_KNOB_TABLE("emu:etsec", cli_enet_spec_keys);

/* "k1, k2, ..." of @t into @buf. */
static const char *cli_keys(const struct ethdrv_knob_table *t, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->count && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
					 t->knobs[i].key);
	return buf;
}

const struct ethdrv_knob_table *const cli_spec_tables[] = {
	&cli_emu_spec_table,   &cli_enet_spec_table,	       &cli_gbeth_spec_table,
	&cli_etsec_spec_table, &ethdrv_spidev_spec_knob_table, NULL,
};

__attribute__((format(printf, 2, 0))) static void cli_verror(const char *cmd, const char *fmt,
							     va_list ap)
{
	fprintf(stderr, "ethdrv %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'ethdrv %s --help'.\n", cmd);
}

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(cmd, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(cmd, fmt, ap);
	va_end(ap);
	return CLI_EXIT_USAGE;
}

int cli_parse_ulong(const char *cmd, const char *what, const char *s, unsigned long min,
		    unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = s && *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
	if (!s || *s < '0' || *s > '9' || errno || *end || v < min || v > max)
		return cli_error(cmd, "%s: bad value '%s': use a number in %lu..%lu", what,
				 s ? s : "", min, max);
	*out = v;
	return 0;
}

/* Parse a bit error rate in 0..@max. */
static int cli_parse_ber(const char *cmd, const char *key, const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || errno || *end || !(v >= 0.0 && v <= max))
		return cli_error(cmd, "device spec: %s: bad value '%s': use a rate in 0..%g", key,
				 s, max);
	*out = v;
	return 0;
}

/* Parse the UINT spec key @key of @t into @out, in the table's range. */
static int cli_spec_uint(const char *cmd, const struct ethdrv_knob_table *t, const char *key,
			 const char *val, uint32_t *out)
{
	const struct ethdrv_knob *k = ethdrv_knob_find(t, key);
	char what[48];
	unsigned long v = 0;
	int err;

	snprintf(what, sizeof(what), "device spec: %s", key);
	err = cli_parse_ulong(cmd, what, val, (unsigned long)k->min, (unsigned long)k->max, &v);
	if (!err)
		*out = (uint32_t)v;
	return err;
}

/* rev=B0, B1 or a DEVID.REV number 0..15 (the driver refuses all but 1 and 2). */
static int cli_emu_rev(const char *cmd, const char *val, struct cli_emu_spec *emu)
{
	unsigned long v;
	uint32_t n;

	if (!strcmp(val, "B0") || !strcmp(val, "b0"))
		n = 1;
	else if (!strcmp(val, "B1") || !strcmp(val, "b1"))
		n = 2;
	else if (cli_parse_ulong(cmd, "device spec: rev (B0, B1 or DEVID.REV)", val, 0, 15, &v))
		return -EINVAL;
	else
		n = (uint32_t)v;
	emu->rev = (uint8_t)n;
	return 0;
}

/* Apply one "key=value" of an emu spec. */
static int cli_emu_key(const char *cmd, char *kv, struct cli_emu_spec *emu)
{
	char *val = strchr(kv, '='), keys[256];

	if (!val)
		return cli_error(cmd, "device spec: '%s' is not key=value: use keys %s", kv,
				 cli_keys(&cli_emu_spec_table, keys, sizeof(keys)));
	*val++ = '\0';
	if (!strcmp(kv, "hz"))
		return cli_spec_uint(cmd, &cli_emu_spec_table, kv, val, &emu->spi_hz);
	if (!strcmp(kv, "rx-buf"))
		return cli_spec_uint(cmd, &cli_emu_spec_table, kv, val, &emu->rx_buf_chunks);
	if (!strcmp(kv, "setup-ns"))
		return cli_spec_uint(cmd, &cli_emu_spec_table, kv, val, &emu->setup_ns);
	if (!strcmp(kv, "mosi-ber"))
		return cli_parse_ber(cmd, kv, val, 0.5, &emu->mosi_ber);
	if (!strcmp(kv, "miso-ber"))
		return cli_parse_ber(cmd, kv, val, 0.5, &emu->miso_ber);
	if (!strcmp(kv, "rev"))
		return cli_emu_rev(cmd, val, emu);
	if (!strcmp(kv, "irq")) {
		emu->irq_none = !strcmp(val, "none");
		return emu->irq_none ?
			       0 :
			       cli_error(cmd,
					 "device spec: irq: bad value '%s': a model has its "
					 "IRQ line; use irq=none to poll",
					 val);
	}
	if (!strcmp(kv, "poll_us"))
		return cli_spec_uint(cmd, &cli_emu_spec_table, kv, val, &emu->poll_us);
	if (!strcmp(kv, "slack_us"))
		return cli_spec_uint(cmd, &cli_emu_spec_table, kv, val, &emu->slack_us);
	if (!strcmp(kv, "errata-s3")) {
		emu->errata_s3 = !strcmp(val, "1");
		return emu->errata_s3 || !strcmp(val, "0") ?
			       0 :
			       cli_error(cmd, "device spec: errata-s3: bad value '%s': use 0 or 1",
					 val);
	}
	if (!strcmp(kv, "driver")) {
		emu->linux_driver = !strcmp(val, "linux");
		return emu->linux_driver || !strcmp(val, "ethdrv") ?
			       0 :
			       cli_error(cmd,
					 "device spec: driver: bad value '%s': use ethdrv or linux",
					 val);
	}
	if (!strcmp(kv, "sv-open")) {
		emu->sv_open_ignore = !strcmp(val, "ignore");
		return emu->sv_open_ignore || !strcmp(val, "restart") ?
			       0 :
			       cli_error(
				       cmd,
				       "device spec: sv-open: bad value '%s': use restart or ignore",
				       val);
	}
	return cli_error(cmd, "device spec: unknown key '%s': use %s", kv,
			 cli_keys(&cli_emu_spec_table, keys, sizeof(keys)));
}

/* Parse the part after "emu:". */
static int cli_parse_emu(const char *cmd, const char *rest, struct cli_emu_spec *emu)
{
	char buf[CLI_SPEC_MAX];
	char *save = NULL, *tok;
	int err = 0;

	*emu = (struct cli_emu_spec){
		.model = 0x8650, .spi_hz = 25000000, .setup_ns = 1000, .rx_buf_chunks = 64, .rev = 2
	};
	snprintf(buf, sizeof(buf), "%s", rest);
	tok = strtok_r(buf, ",", &save);
	if (!tok || !strcmp(tok, "lan8650"))
		emu->model = 0x8650;
	else if (!strcmp(tok, "lan8651"))
		emu->model = 0x8651;
	else
		return cli_error(
			cmd,
			"device spec: unknown model '%s': use lan8650 or lan8651 (or enet, gbeth, etsec)",
			tok);
	while (!err && (tok = strtok_r(NULL, ",", &save)))
		err = cli_emu_key(cmd, tok, emu);
	if (err)
		return err;
	if (emu->poll_us && !emu->irq_none)
		return cli_error(cmd, "device spec: poll_us: only with irq=none");
	if (emu->irq_none && !emu->poll_us)
		emu->poll_us = ETHDRV_SPIDEV_POLL_US_DEFAULT;
	return 0;
}

/* A ring size: a power of two in 16..4096 (fec.h). */
static int cli_enet_ring(const char *cmd, const char *key, const char *val, uint32_t *out)
{
	if (cli_spec_uint(cmd, &cli_enet_spec_table, key, val, out))
		return -EINVAL;
	if (*out & (*out - 1))
		return cli_error(cmd, "device spec: %s: bad value '%s': use a power of two", key,
				 val);
	return 0;
}

/* The CPUs this process may run on, as "0-1" or "0,2,3", into @buf. */
static void cli_allowed_cpus(char *buf, size_t size)
{
	cpu_set_t set;
	size_t n = 0;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && n + 12 < size; c++) {
		int end = c;

		if (!CPU_ISSET(c, &set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
			end++;
		n += (size_t)snprintf(buf + n, size - n, end > c ? "%s%d-%d" : "%s%d", n ? "," : "",
				      c, end);
		c = end;
	}
}

/* lab-cpu=N: a CPU of this process's affinity (docs/design.md §5b.3). */
static int cli_enet_lab_cpu(const char *cmd, const char *key, const char *val, int *out)
{
	char allowed[128];
	unsigned long cpu;
	char *end;
	cpu_set_t set;

	cli_allowed_cpus(allowed, sizeof(allowed));
	errno = 0;
	cpu = strtoul(val, &end, 10);
	if (!*val || *end || errno || cpu >= CPU_SETSIZE ||
	    sched_getaffinity(0, sizeof(set), &set) || !CPU_ISSET((int)cpu, &set))
		return cli_error(cmd,
				 "device spec: %s: bad value '%s': use a CPU this process may "
				 "run on (%s)",
				 key, val, allowed);
	*out = (int)cpu;
	return 0;
}

/* Apply one "key=value" of an emu:enet spec. */
static int cli_enet_key(const char *cmd, char *kv, struct cli_enet_spec *enet)
{
	char *val = strchr(kv, '='), keys[256];

	if (!val)
		return cli_error(cmd, "device spec: '%s' is not key=value: use keys %s", kv,
				 cli_keys(&cli_enet_spec_table, keys, sizeof(keys)));
	*val++ = '\0';
	if (!strcmp(kv, "speed")) {
		if (strcmp(val, "1000") && strcmp(val, "100") && strcmp(val, "10"))
			return cli_error(cmd,
					 "device spec: speed: bad value '%s': use 1000, 100 or 10",
					 val);
		enet->speed_mbps = (uint32_t)strtoul(val, NULL, 10);
		return 0;
	}
	if (!strcmp(kv, "batch-us"))
		return cli_spec_uint(cmd, &cli_enet_spec_table, kv, val, &enet->batch_us);
	if (!strcmp(kv, "slip-us"))
		return cli_spec_uint(cmd, &cli_enet_spec_table, kv, val, &enet->slip_us);
	if (!strcmp(kv, "lab-cpu"))
		return cli_enet_lab_cpu(cmd, kv, val, &enet->lab_cpu);
	if (!strcmp(kv, "mmio-ns"))
		return cli_spec_uint(cmd, &cli_enet_spec_table, kv, val, &enet->mmio_ns);
	if (!strcmp(kv, "ber"))
		return cli_parse_ber(cmd, kv, val, ENET_BER_MAX, &enet->ber);
	if (!strcmp(kv, "rx-ring"))
		return cli_enet_ring(cmd, kv, val, &enet->rx_ring);
	if (!strcmp(kv, "tx-ring"))
		return cli_enet_ring(cmd, kv, val, &enet->tx_ring);
	if (!strcmp(kv, "soc")) {
		if (ethdrv_enet_soc_parse(val, &enet->soc))
			return cli_error(cmd, "device spec: soc: bad value '%s': use %s", val,
					 ETHDRV_ENET_SOC_NAMES);
		return 0;
	}
	if (!strcmp(kv, "tx-fifo"))
		return cli_spec_uint(cmd, &cli_enet_spec_table, kv, val, &enet->tx_fifo_bytes);
	return cli_error(cmd, "device spec: unknown key '%s': use %s", kv,
			 cli_keys(&cli_enet_spec_table, keys, sizeof(keys)));
}

/* Parse the keys after "emu:enet". */
static int cli_parse_enet(const char *cmd, const char *rest, struct cli_enet_spec *enet)
{
	char buf[CLI_SPEC_MAX];
	char *save = NULL, *tok;
	int err = 0;

	*enet = (struct cli_enet_spec){ .speed_mbps = 1000,
					.batch_us = 200,
					.slip_us = 1000,
					.lab_cpu = -1,
					.mmio_ns = 100,
					.rx_ring = CLI_ENET_RX_RING,
					.tx_ring = CLI_ENET_TX_RING,
					.soc = ETHDRV_ENET_SOC_IMX8M,
					.tx_fifo_bytes = 4096 };
	snprintf(buf, sizeof(buf), "%s", rest);
	tok = strtok_r(buf, ",", &save); /* "enet", "gbeth" or "etsec" */
	while (!err && (tok = strtok_r(NULL, ",", &save)))
		err = cli_enet_key(cmd, tok, enet);
	if (!err && enet->slip_us && enet->slip_us < enet->batch_us)
		return cli_error(cmd,
				 "device spec: slip-us=%u: use 0 (no slip) or at least batch-us "
				 "(%u)",
				 enet->slip_us, enet->batch_us);
	return err;
}

/* True for "@model" or "@model,...". */
static bool cli_is_model(const char *rest, const char *model)
{
	size_t n = strlen(model);

	return !strncmp(rest, model, n) && (!rest[n] || rest[n] == ',');
}

int cli_parse_device(const char *cmd, const char *spec, struct cli_device *out)
{
	memset(out, 0, sizeof(*out));
	if (!spec || !*spec || strlen(spec) >= sizeof(out->spec))
		return cli_error(cmd, "device spec: empty or longer than %d chars: use %s",
				 CLI_SPEC_MAX - 1, DEV_FORMS);
	snprintf(out->spec, sizeof(out->spec), "%s", spec);
	if (!strncmp(spec, "emu:", 4) && cli_is_model(spec + 4, "enet")) {
		out->kind = CLI_DEV_ENET;
		return cli_parse_enet(cmd, spec + 4, &out->enet);
	}
	if (!strncmp(spec, "emu:", 4) && cli_is_model(spec + 4, "gbeth")) {
		out->kind = CLI_DEV_GBETH;
		return cli_parse_enet(cmd, spec + 4, &out->enet);
	}
	if (!strncmp(spec, "emu:", 4) && cli_is_model(spec + 4, "etsec")) {
		out->kind = CLI_DEV_ETSEC;
		return cli_parse_enet(cmd, spec + 4, &out->enet);
	}
	if (!strcmp(spec, "emu") || !strncmp(spec, "emu:", 4)) {
		out->kind = CLI_DEV_EMU;
		return cli_parse_emu(cmd, spec[3] ? spec + 4 : "", &out->emu);
	}
	if (!strncmp(spec, "spidev:", 7)) {
		out->kind = CLI_DEV_SPIDEV;
		if (ethdrv_spidev_spec_parse(spec, &out->spidev)) /* it names the bad part */
			return cli_error(cmd, "device spec '%s': use %s", spec, DEV_FORMS);
		return 0;
	}
	return cli_error(cmd, "device spec '%s': unknown kind: use %s", spec, DEV_FORMS);
}

int cli_parse_ipv4_prefix(const char *cmd, const char *s, char addr[16], unsigned *prefix)
{
	const char *slash = s ? strchr(s, '/') : NULL;
	struct in_addr in;
	unsigned long p;

	if (!slash || slash - s >= 16)
		return cli_error(cmd, "--addr: bad value '%s': use A.B.C.D/P", s ? s : "");
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return cli_error(cmd, "--addr: bad address '%s': use A.B.C.D/P", addr);
	if (cli_parse_ulong(cmd, "--addr prefix", slash + 1, 0, 32, &p))
		return -EINVAL;
	*prefix = (unsigned)p;
	return 0;
}

int cli_parse_ifname(const char *cmd, const char *what, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	if (len == 0 || len > 15 || strpbrk(s, "/: \t\n"))
		return cli_error(cmd,
				 "%s: bad interface name '%s': use 1..15 chars without '/', "
				 "':' or spaces",
				 what, s ? s : "");
	return 0;
}

int cli_parse_mac(const char *cmd, const char *s, uint8_t mac[6])
{
	unsigned b[6];
	char tail;
	int i;

	if (!s ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6 ||
	    (b[0] & 1) || strlen(s) != 17)
		return cli_error(cmd, "--mac: bad address '%s': use a unicast aa:bb:cc:dd:ee:ff",
				 s ? s : "");
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

int cli_parse_knob(const char *cmd, char *arg, struct cli_knob *knob)
{
	char *eq = arg ? strchr(arg, '=') : NULL;
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_.:/-";

	if (!eq || eq == arg || !eq[1] || strspn(arg, ok) != (size_t)(eq - arg) ||
	    strspn(eq + 1, ok) != strlen(eq + 1))
		return cli_error(cmd, "bad knob '%s': use key=value (e.g. napi_defer_hard_irqs=2)",
				 arg ? arg : "");
	*eq = '\0';
	knob->key = arg;
	knob->value = eq + 1;
	return 0;
}

void cli_node_mac(unsigned index, uint8_t mac[6])
{
	static const uint8_t base[6] = { 0x02, 0x45, 0x54, 0x48, 0x00, 0x00 };

	memcpy(mac, base, 6);
	mac[5] = (uint8_t)index;
}

int cli_check_log_level(const char *cmd, const char *s)
{
	if (ethdrv_log_parse_level(s) < 0)
		return cli_error(cmd, "--log-level: bad value '%s': use err, warn, info or debug",
				 s);
	return 0;
}

bool cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}
