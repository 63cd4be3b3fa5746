/* SPDX-License-Identifier: MIT */
/*
 * Test and benchmark hooks of the OA TC6 framework: the machinery that is
 * there to measure and debug the driver, kept out of the data path.
 *   - host service delay (knob irq_delay_us): a poll that starts a new
 *     service episode while IRQ_N is asserted first sleeps, as a host late
 *     to service IRQ_N would (docs/napi.md §8);
 *   - the five interrupt policy presets of docs/napi.md §8 (knob policy);
 *   - the SPI trace of every transfer to a file (knob spi_trace).
 * The data path calls two functions of this interface, at the start and at
 * the completion of a poll; the knobs file hands it the keys it owns.
 */
#ifndef ETHDRV_DRIVERS_OA_TC6_HOOKS_H
#define ETHDRV_DRIVERS_OA_TC6_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

struct oa_tc6;

/* The hooks' state inside struct oa_tc6. */
struct oa_tc6_hooks {
	unsigned irq_delay_us; /* host service delay, 0 = off (atomic) */
	bool next_poll_starts_episode; /* the last poll completed (atomic) */
	bool tracing; /* bus wrapped by ethdrv_spi_trace_start() (bus lock) */
};

/**
 * oa_tc6_hooks_poll_begin() - a poll starts; applies the host service delay
 * @tc6: the framework
 *
 * Context: the poller, before it takes the bus lock.
 */
void oa_tc6_hooks_poll_begin(struct oa_tc6 *tc6);

/**
 * oa_tc6_hooks_poll_completed() - the poll completed (NAPI complete_done):
 * the next poll starts a new service episode
 * @tc6: the framework
 */
void oa_tc6_hooks_poll_completed(struct oa_tc6 *tc6);

/**
 * oa_tc6_hooks_set_param() - set a hook knob: "irq_delay_us", "policy" or
 * "spi_trace" (see oa_tc6_set_param())
 * @tc6: the framework
 * @key: the knob
 * @value: its value
 *
 * Return: 0, -ENOENT (not a hook knob), -EINVAL, or a control or file -errno.
 * Context: the loop thread.
 */
int oa_tc6_hooks_set_param(struct oa_tc6 *tc6, const char *key, const char *value);

/**
 * oa_tc6_hooks_get_param() - read a hook knob as text
 * @tc6: the framework
 * @key: as for oa_tc6_hooks_set_param()
 * @buf: output
 * @size: its size
 *
 * Return: 0, -ENOENT (not a hook knob) or -ENOSPC.
 */
int oa_tc6_hooks_get_param(struct oa_tc6 *tc6, const char *key, char *buf, size_t size);

/**
 * oa_tc6_hooks_release() - stop the SPI trace, if any
 * @tc6: the framework, being destroyed
 */
void oa_tc6_hooks_release(struct oa_tc6 *tc6);

#endif /* ETHDRV_DRIVERS_OA_TC6_HOOKS_H */
