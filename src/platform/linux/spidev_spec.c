// SPDX-License-Identifier: MIT
/*
 * The real-board device spec (platform.h, docs/design.md §2):
 * "spidev:PATH,irq=CHIP:LINE|none[,poll_us=N][,reset=CHIP:LINE][,hz=N]
 * [,mode=M][,bias=pull-up|none]". Every bad part gets one log line that
 * names it and the accepted values.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/compiler.h"
#include "ethdrv/knob.h"
#include "ethdrv/log.h"
#include "platform.h"

ETHDRV_LOG_MODULE(spidev);

#define SPEC_PREFIX "spidev:"
#define SPEC_MAX 256 /* longest spec string we accept */
#define SPEC_FORM "spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE|none[,key=value...]"

/* The keys (knob.h), in the order of enum spec_key. */
static const struct ethdrv_knob spec_keys[] = {
	ETHDRV_KNOB_TEXT("irq", "/dev/gpiochipN:LINE|none", "", "IRQ_N line (none = poll)"),
	ETHDRV_KNOB_UINT("hz", 100000, 50000000, "Hz", "SPI clock"),
	ETHDRV_KNOB_UINT("mode", 0, 3, "", "SPI mode"),
	ETHDRV_KNOB_ENUM("bias", "pull-up|none", "bias of the IRQ_N line"),
	ETHDRV_KNOB_TEXT("reset", "/dev/gpiochipN:LINE", "", "RESET_N line"),
	ETHDRV_KNOB_UINT("poll_us", ETHDRV_SPIDEV_POLL_US_MIN, ETHDRV_SPIDEV_POLL_US_MAX, "us",
			 "poll period with irq=none (default 1000)"),
};

const struct ethdrv_knob_table ethdrv_spidev_spec_knob_table =
	ETHDRV_KNOB_TABLE("spidev:", spec_keys);

enum spec_key { KEY_IRQ, KEY_HZ, KEY_MODE, KEY_BIAS, KEY_RESET, KEY_POLL_US };

/* Log a spec error naming @part; always -EINVAL. */
static int spec_error(const char *spec, const char *part, const char *accepted)
{
	ethdrv_err(NULL, "spec '%s': bad %s: %s", spec, part, accepted);
	return -EINVAL;
}

/* Parse a decimal number in [@min, @max] with nothing else around it. */
static int spec_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return (errno || *end || *out < min || *out > max) ? -EINVAL : 0;
}

/* Copy @src into a path field if it is absolute and fits. */
static int spec_copy_path(char *dst, size_t size, const char *src)
{
	if (src[0] != '/' || strlen(src) >= size)
		return -EINVAL;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

/* Parse "CHIP:LINE" (the last ':' splits) into @ref. */
static int spec_parse_line(char *val, struct ethdrv_gpio_ref *ref)
{
	char *colon = strrchr(val, ':');
	unsigned long line;

	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (spec_copy_path(ref->chip, sizeof(ref->chip), val) ||
	    spec_parse_uint(colon + 1, 0, 65535, &line))
		return -EINVAL;
	ref->line = (unsigned)line;
	return 0;
}

/* Apply the value @val of key @k. */
static int spec_apply(const char *spec, enum spec_key k, char *val, struct ethdrv_spidev_spec *out)
{
	unsigned long n;

	switch (k) {
	case KEY_IRQ:
		out->has_irq = strcmp(val, "none") != 0;
		if (out->has_irq && spec_parse_line(val, &out->irq))
			return spec_error(
				spec, "irq",
				"use irq=/dev/gpiochipN:LINE (absolute path) or irq=none");
		return 0;
	case KEY_HZ:
		if (spec_parse_uint(val, ETHDRV_SPIDEV_HZ_MIN, ETHDRV_SPIDEV_HZ_MAX, &n))
			return spec_error(spec, "hz", "use 100000..50000000 (Hz)");
		out->hz = (uint32_t)n;
		return 0;
	case KEY_MODE:
		if (spec_parse_uint(val, 0, 3, &n))
			return spec_error(spec, "mode", "use 0, 1, 2 or 3");
		out->mode = (uint8_t)n;
		return 0;
	case KEY_BIAS:
		if (strcmp(val, "pull-up") != 0 && strcmp(val, "none") != 0)
			return spec_error(spec, "bias", "use pull-up or none");
		out->pull_up = strcmp(val, "pull-up") == 0;
		return 0;
	case KEY_RESET:
		out->has_reset = true;
		if (spec_parse_line(val, &out->reset))
			return spec_error(spec, "reset",
					  "use reset=/dev/gpiochipN:LINE (absolute path)");
		return 0;
	default:
		if (spec_parse_uint(val, ETHDRV_SPIDEV_POLL_US_MIN, ETHDRV_SPIDEV_POLL_US_MAX, &n))
			return spec_error(spec, "poll_us", "use 50..1000000 (microseconds)");
		out->poll_us = (uint32_t)n;
		return 0;
	}
}

/* Apply one key=value option; @seen tracks keys already given. */
static int spec_parse_opt(const char *spec, char *opt, unsigned *seen,
			  struct ethdrv_spidev_spec *out)
{
	char *val = strchr(opt, '=');
	unsigned k;

	if (val)
		*val++ = '\0';
	for (k = 0; k < ETHDRV_ARRAY_SIZE(spec_keys) && strcmp(opt, spec_keys[k].key) != 0; k++)
		;
	if (k == ETHDRV_ARRAY_SIZE(spec_keys))
		return spec_error(
			spec, opt,
			"unknown key: accepted keys are irq, hz, mode, bias, reset, poll_us");
	if (!val || (*seen & (1u << k)))
		return spec_error(spec, opt, "each key once, as key=value");
	*seen |= 1u << k;
	return spec_apply(spec, (enum spec_key)k, val, out);
}

/* The rules between keys, once all are known. */
static int spec_check(const char *spec, unsigned seen, struct ethdrv_spidev_spec *out)
{
	if (!(seen & (1u << KEY_IRQ)))
		return spec_error(spec, "irq",
				  "missing: add irq=/dev/gpiochipN:LINE, or irq=none to poll");
	if (out->has_irq && (seen & (1u << KEY_POLL_US)))
		return spec_error(spec, "poll_us",
				  "only with irq=none: an IRQ line needs no polling");
	if (!out->has_irq && (seen & (1u << KEY_BIAS)))
		return spec_error(spec, "bias", "only with an IRQ line: it is the bias of IRQ_N");
	if (out->has_irq && out->has_reset && out->irq.line == out->reset.line &&
	    !strcmp(out->irq.chip, out->reset.chip))
		return spec_error(spec, "reset", "RESET_N and IRQ_N cannot be the same line");
	if (!out->has_irq && !out->poll_us)
		out->poll_us = ETHDRV_SPIDEV_POLL_US_DEFAULT;
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
		return spec_error(spec ? spec : "(null)", "prefix or length", "use " SPEC_FORM);
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
	return spec_check(spec, seen, out);
}
