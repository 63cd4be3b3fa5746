// SPDX-License-Identifier: MIT
/*
 * Fault injection into a node's model (node_priv.h): the emu.* knobs of
 * `ethdrv set` (bit error rates, one-shot faults, the link, a periodic fault plan and
 * its shorthands) and the timer that carries the plan out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node_priv.h"

#define NODE_FAULT_PERIOD_MAX 3600000u /* longest fault period: 1 h in ms */
#define NODE_FAULT_BURST_MAX 1000u /* faults per period */

/* The fault named @s, or -EINVAL. */
static int node_fault_parse(const char *s)
{
	for (int i = 0; i < LAN865X_EMU_FAULT_COUNT; i++)
		if (!strcmp(s, lan865x_emu_fault_name((enum lan865x_emu_fault)i)))
			return i;
	return -EINVAL;
}

void node_on_fault_timer(struct ethdrv_timer *t)
{
	struct node *n = t->data;

	for (unsigned i = 0; n->plan.fault >= 0 && i < n->plan.burst; i++)
		lan865x_emu_inject(n->emu, (enum lan865x_emu_fault)n->plan.fault);
}

/* Parse "FAULT:MS[:BURST]" or "off" into @p. */
static int node_plan_parse(const char *v, struct node_fault_plan *p)
{
	char name[32], tail;
	unsigned ms = 0, burst = 1;
	int k;

	*p = (struct node_fault_plan){ .fault = -1 };
	if (!strcmp(v, "off"))
		return 0;
	k = sscanf(v, "%31[a-z_]:%u:%u%c", name, &ms, &burst, &tail);
	if (k < 2 || k > 3 || !ms || ms > NODE_FAULT_PERIOD_MAX || !burst ||
	    burst > NODE_FAULT_BURST_MAX || (p->fault = node_fault_parse(name)) < 0)
		return -EINVAL;
	if (k == 2 && strchr(strchr(v, ':') + 1, ':'))
		return -EINVAL; /* "reset:10:" */
	p->period_ms = ms;
	p->burst = burst;
	return 0;
}

/* Apply a periodic fault plan: the timer restarts with the new period. */
static int node_plan_apply(struct node *n, const struct node_fault_plan *p)
{
	ethdrv_timer_stop(&n->fault_timer);
	n->plan = *p;
	if (p->fault < 0)
		return 0;
	return ethdrv_timer_start(&n->fault_timer, (uint64_t)p->period_ms * 1000000u,
				  (uint64_t)p->period_ms * 1000000u);
}

/* Parse a bit error rate in 0..0.5. */
static int node_ber_parse(const char *v, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(v, &end);
	return !*v || errno || *end || !(*out >= 0.0 && *out <= 0.5) ? -EINVAL : 0;
}

/* A plan from one of the shorthands emu.reset_every_ms=MS, emu.overflow_storm=BURST/MS. */
static int node_plan_shorthand(const char *key, const char *v, struct node_fault_plan *p)
{
	unsigned burst, ms;
	char buf[64], tail;

	if (!strcmp(key, "reset_every_ms")) {
		snprintf(buf, sizeof(buf), "reset:%s", v);
		return !strcmp(v, "0") ? node_plan_parse("off", p) : node_plan_parse(buf, p);
	}
	if (!strcmp(v, "0") || !strcmp(v, "off"))
		return node_plan_parse("off", p);
	if (sscanf(v, "%u/%u%c", &burst, &ms, &tail) != 2)
		return -EINVAL;
	snprintf(buf, sizeof(buf), "rx_overflow:%u:%u", ms, burst);
	return node_plan_parse(buf, p);
}

static const struct ethdrv_knob node_emu_knobs[] = {
	ETHDRV_KNOB_TEXT("emu.mosi-ber", "0..0.5", "", "SPI bit error rate host to chip"),
	ETHDRV_KNOB_TEXT("emu.miso-ber", "0..0.5", "", "SPI bit error rate chip to host"),
	ETHDRV_KNOB_ENUM("emu.inject",
			 "rx_overflow|loss_of_frame|reset|txpe|hdr_parity|internal|config_upset",
			 "one fault now"),
	ETHDRV_KNOB_ENUM("emu.link", "up|down", "the node's stub on the segment"),
	ETHDRV_KNOB_TEXT("emu.periodic", "FAULT:MS[:BURST]|off", "",
			 "BURST faults (default 1) every MS ms, FAULT as for emu.inject"),
	ETHDRV_KNOB_UINT("emu.reset_every_ms", 0, NODE_FAULT_PERIOD_MAX, "ms",
			 "= emu.periodic=reset:MS (0 = off)"),
	ETHDRV_KNOB_TEXT("emu.overflow_storm", "BURST/MS", "",
			 "= emu.periodic=rx_overflow:MS:BURST"),
};

const struct ethdrv_knob_table node_emu_knob_table =
	ETHDRV_KNOB_TABLE("emu:lan8650", node_emu_knobs);

/* `emu.KEY=VALUE`: fault injection into the model (ethdrv set --help). */
int node_emu_set(struct node *n, const char *key, const char *v)
{
	struct node_fault_plan plan;
	double ber;
	int f, err;

	if (!n->emu)
		return -EOPNOTSUPP; /* a real board has no fault injection */
	if (!strcmp(key, "mosi-ber") || !strcmp(key, "miso-ber")) {
		struct lan865x_emu_config c;

		if (node_ber_parse(v, &ber))
			return -EINVAL;
		lan865x_emu_get_ber(n->emu, &c.mosi_ber, &c.miso_ber);
		*(key[1] == 'o' ? &c.mosi_ber : &c.miso_ber) = ber;
		return lan865x_emu_set_ber(n->emu, c.mosi_ber, c.miso_ber);
	}
	if (!strcmp(key, "inject")) {
		f = node_fault_parse(v);
		return f < 0 ? f : lan865x_emu_inject(n->emu, (enum lan865x_emu_fault)f);
	}
	if (!strcmp(key, "link")) {
		/* The node's stub off the segment and back (lan865x_emu.h). */
		if (strcmp(v, "up") && strcmp(v, "down"))
			return -EINVAL;
		return lan865x_emu_set_link(n->emu, !strcmp(v, "up"));
	}
	if (!strcmp(key, "periodic"))
		err = node_plan_parse(v, &plan);
	else if (!strcmp(key, "reset_every_ms") || !strcmp(key, "overflow_storm"))
		err = node_plan_shorthand(key, v, &plan);
	else
		return -ENOENT;
	return err ? err : node_plan_apply(n, &plan);
}

int node_emu_get(struct node *n, const char *key, char *buf, size_t size)
{
	double mosi, miso;
	int len;

	if (!n->emu)
		return -EOPNOTSUPP;
	lan865x_emu_get_ber(n->emu, &mosi, &miso);
	if (!strcmp(key, "mosi-ber") || !strcmp(key, "miso-ber"))
		len = snprintf(buf, size, "%g", key[1] == 'o' ? mosi : miso);
	else if (!strcmp(key, "link"))
		len = snprintf(buf, size, "%s", lan865x_emu_link(n->emu) ? "up" : "down");
	else if (!strcmp(key, "periodic") && n->plan.fault < 0)
		len = snprintf(buf, size, "off");
	else if (!strcmp(key, "periodic"))
		len = snprintf(buf, size, "%s:%u:%u",
			       lan865x_emu_fault_name((enum lan865x_emu_fault)n->plan.fault),
			       n->plan.period_ms, n->plan.burst);
	else
		return -ENOENT;
	return len < (int)size ? 0 : -ENOSPC;
}
