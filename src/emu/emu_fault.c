// SPDX-License-Identifier: MIT
/*
 * The DMA faults of the ring-MAC models (emu_fault.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_fault.h"

static const char *const fault_names[EMU_FAULT_COUNT] = {
	[EMU_FAULT_RX_EXHAUST] = "rx_exhaust",
	[EMU_FAULT_RX_BUS_ERROR] = "rx_bus_error",
	[EMU_FAULT_TX_BUS_ERROR] = "tx_bus_error",
};

const char *emu_fault_name(enum emu_fault fault)
{
	return (unsigned)fault < EMU_FAULT_COUNT ? fault_names[fault] : NULL;
}

/* A decimal in 1..EMU_FAULT_EXHAUST_MAX, digits only. */
static int parse_frames(const char *v, uint64_t *out)
{
	char *end;
	unsigned long long n;

	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || *end || !n || n > EMU_FAULT_EXHAUST_MAX)
		return -EINVAL;
	*out = n;
	return 0;
}

int emu_fault_parse(const char *text, enum emu_fault *fault, uint64_t *arg)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);

	for (int f = 0; f < EMU_FAULT_COUNT; f++) {
		if (strlen(fault_names[f]) != len || strncmp(text, fault_names[f], len))
			continue;
		*fault = (enum emu_fault)f;
		*arg = f == EMU_FAULT_RX_EXHAUST ? 1 : 0;
		if (!colon)
			return 0;
		return f == EMU_FAULT_RX_EXHAUST ? parse_frames(colon + 1, arg) : -EINVAL;
	}
	return -EINVAL;
}

int emu_fault_inject(struct emu_engine *eng, struct emu_faults *fs, enum emu_fault fault,
		     uint64_t arg)
{
	int ret = 0;

	emu_engine_lock(eng);
	switch (fault) {
	case EMU_FAULT_RX_EXHAUST:
		if (arg < 1 || arg > EMU_FAULT_EXHAUST_MAX)
			ret = -EINVAL;
		else
			fs->rx_exhaust += arg;
		break;
	case EMU_FAULT_RX_BUS_ERROR:
		fs->rx_bus_error = true;
		break;
	case EMU_FAULT_TX_BUS_ERROR:
		fs->tx_bus_error = true;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	emu_engine_unlock(eng);
	return ret;
}

bool emu_fault_rx_exhaust(struct emu_faults *fs, ethdrv_counter_t *taken)
{
	if (!fs->rx_exhaust)
		return false;
	fs->rx_exhaust--;
	ethdrv_counter_inc(taken);
	return true;
}

bool emu_fault_bus_error(struct emu_faults *fs, bool tx, ethdrv_counter_t *taken)
{
	bool *armed = tx ? &fs->tx_bus_error : &fs->rx_bus_error;

	if (!*armed)
		return false;
	*armed = false;
	ethdrv_counter_inc(taken);
	return true;
}
