// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 test and benchmark hooks (oa_tc6_hooks.h): the host
 * service delay, the five interrupt policy presets and the SPI trace.
 */
#include <errno.h>
#include <string.h>

#include "oa_tc6_priv.h"

#define OA_TC6_IRQ_DELAY_MAX_US 100000 /* irq_delay_us: at most 100 ms */

/*
 * Benchmark knob irq_delay_us: a poll that starts a new service episode (the
 * previous poll completed) while IRQ_N is asserted first sleeps that long, as
 * a host that is late to service IRQ_N would (docs/napi.md §8: the results
 * there depend on the host's timing). The
 * time actually slept is counted.
 */
void oa_tc6_hooks_poll_begin(struct oa_tc6 *tc6)
{
	unsigned us = __atomic_load_n(&tc6->hooks.irq_delay_us, __ATOMIC_RELAXED);
	uint64_t t0;

	if (!__atomic_exchange_n(&tc6->hooks.next_poll_starts_episode, false, __ATOMIC_RELAXED) ||
	    !us || !ethdrv_spi_irq_asserted(&tc6->bus))
		return;
	t0 = ethdrv_now_ns();
	ethdrv_sleep_until_ns(t0 + us * 1000ull);
	ethdrv_counter_inc(&tc6->st.irq_delays);
	ethdrv_counter_add(&tc6->st.irq_delay_ns, ethdrv_now_ns() - t0);
}

void oa_tc6_hooks_poll_completed(struct oa_tc6 *tc6)
{
	__atomic_store_n(&tc6->hooks.next_poll_starts_episode, true, __ATOMIC_RELAXED);
}

/* One interrupt policy preset. */
struct oa_tc6_policy {
	uint32_t unmask; /* STATUS0 sources unmasked */
	bool drop; /* rxboe_action=drop */
	bool log; /* rxboe_log */
};

/* The five scenarios measured on the netdev list (docs/napi.md §8). */
static const struct oa_tc6_policy oa_tc6_policies[5] = {
	{ OA_TC6_IRQ_LINUX, true, true },
	{ OA_TC6_IRQ_LINUX, true, false },
	{ OA_TC6_IRQ_LINUX & ~OA_TC6_STATUS0_RXBOE, true, true },
	{ 0, true, true },
	{ OA_TC6_IRQ_LINUX, false, false },
};

static int oa_tc6_set_policy(struct oa_tc6 *tc6, const char *value)
{
	const struct oa_tc6_policy *p;
	unsigned n;

	if (oa_tc6_parse_uint(value, 1, 5, &n))
		return -EINVAL;
	p = &oa_tc6_policies[n - 1];
	__atomic_store_n(&tc6->rxboe_drop, p->drop, __ATOMIC_RELAXED);
	__atomic_store_n(&tc6->rxboe_log, p->log, __ATOMIC_RELAXED);
	return oa_tc6_apply_imask(tc6, OA_TC6_STATUS0_ALL & ~p->unmask);
}

/* Start or stop the SPI trace on our bus copy. */
static int oa_tc6_set_trace(struct oa_tc6 *tc6, const char *value)
{
	int ret = 0;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	if (tc6->hooks.tracing)
		ethdrv_spi_trace_stop(&tc6->bus);
	tc6->hooks.tracing = false;
	if (strcmp(value, "off")) {
		ret = ethdrv_spi_trace_start(&tc6->bus, value);
		tc6->hooks.tracing = !ret;
	}
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}

/* The policy number matching the current knobs, or 0. */
static int oa_tc6_policy_number(const struct oa_tc6 *tc6)
{
	uint32_t mask = __atomic_load_n(&tc6->imask0, __ATOMIC_RELAXED);
	bool drop = __atomic_load_n(&tc6->rxboe_drop, __ATOMIC_RELAXED);
	bool log = __atomic_load_n(&tc6->rxboe_log, __ATOMIC_RELAXED);

	for (int i = 0; i < 5; i++) {
		const struct oa_tc6_policy *p = &oa_tc6_policies[i];

		if (mask == (OA_TC6_STATUS0_ALL & ~p->unmask) && drop == p->drop && log == p->log)
			return i + 1;
	}
	return 0;
}

/* The test and benchmark knobs (knob.h), handled below. */
static const struct ethdrv_knob oa_tc6_hooks_knobs[] = {
	ETHDRV_KNOB_UINT("policy", 1, 5, "",
			 "error-IRQ policy of seed 000 (IMASK0, rxboe_action, rxboe_log)"),
	ETHDRV_KNOB_UINT("irq_delay_us", 0, OA_TC6_IRQ_DELAY_MAX_US, "us",
			 "delay before the IRQ thread runs"),
	ETHDRV_KNOB_TEXT("spi_trace", "NAME|off", "",
			 "SPI trace into NAME in the daemon's --trace-dir"),
};

const struct ethdrv_knob_table oa_tc6_hooks_knob_table =
	ETHDRV_KNOB_TABLE("oa_tc6", oa_tc6_hooks_knobs);

int oa_tc6_hooks_set_param(struct oa_tc6 *tc6, const char *key, const char *value)
{
	unsigned u;

	if (!strcmp(key, "policy"))
		return oa_tc6_set_policy(tc6, value);
	if (!strcmp(key, "irq_delay_us")) {
		if (oa_tc6_parse_uint(value, 0, OA_TC6_IRQ_DELAY_MAX_US, &u))
			return -EINVAL;
		__atomic_store_n(&tc6->hooks.irq_delay_us, u, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "spi_trace"))
		return oa_tc6_set_trace(tc6, value);
	return -ENOENT;
}

int oa_tc6_hooks_get_param(struct oa_tc6 *tc6, const char *key, char *buf, size_t size)
{
	int policy;

	if (!strcmp(key, "policy")) {
		policy = oa_tc6_policy_number(tc6);
		return policy ? oa_tc6_put_uint(buf, size, (unsigned)policy) :
				oa_tc6_put_str(buf, size, "custom");
	}
	if (!strcmp(key, "irq_delay_us"))
		return oa_tc6_put_uint(buf, size, tc6->hooks.irq_delay_us);
	if (!strcmp(key, "spi_trace"))
		return oa_tc6_put_str(buf, size, tc6->hooks.tracing ? "on" : "off");
	return -ENOENT;
}

void oa_tc6_hooks_release(struct oa_tc6 *tc6)
{
	if (tc6->hooks.tracing)
		ethdrv_spi_trace_stop(&tc6->bus);
}
