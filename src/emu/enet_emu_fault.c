// SPDX-License-Identifier: MIT
/*
 * ENET model: fault knobs, each injected at one named point and counted
 * when it takes effect: RX descriptor exhaustion and DMA bus errors on a
 * controller (checked by enet_emu_dma.c). Bit errors and link flaps are
 * the line's (fdx_line.c). Section numbers are docs/enet.md.
 */
#include <errno.h>

#include "enet_emu_priv.h"

#define RX_EXHAUST_MAX 1000000u

static const char *const enet_fault_names[ENET_EMU_FAULT_COUNT] = {
	[ENET_EMU_FAULT_RX_EXHAUST] = "rx_exhaust",
	[ENET_EMU_FAULT_RX_BUS_ERROR] = "rx_bus_error",
	[ENET_EMU_FAULT_TX_BUS_ERROR] = "tx_bus_error",
};

const char *enet_emu_fault_name(enum enet_emu_fault fault)
{
	return (unsigned)fault < ENET_EMU_FAULT_COUNT ? enet_fault_names[fault] : NULL;
}

int enet_emu_inject(struct enet_emu *emu, enum enet_emu_fault fault, uint64_t arg)
{
	int ret = 0;

	emu_engine_lock(emu->eng);
	switch (fault) {
	case ENET_EMU_FAULT_RX_EXHAUST:
		if (arg < 1 || arg > RX_EXHAUST_MAX)
			ret = -EINVAL;
		else
			emu->rx_exhaust += arg;
		break;
	case ENET_EMU_FAULT_RX_BUS_ERROR:
		emu->rx_bus_error = true;
		break;
	case ENET_EMU_FAULT_TX_BUS_ERROR:
		emu->tx_bus_error = true;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	emu_engine_unlock(emu->eng);
	return ret;
}

/* The injection point of RX exhaustion: true = act as if no BD were empty. */
bool enet__fault_rx_exhaust(struct enet_emu *emu)
{
	if (!emu->rx_exhaust)
		return false;
	emu->rx_exhaust--;
	ethdrv_counter_inc(&emu->st.faults);
	return true;
}

/* The injection point of bus errors: true = this DMA access fails. */
bool enet__fault_bus_error(struct enet_emu *emu, bool tx)
{
	bool *flag = tx ? &emu->tx_bus_error : &emu->rx_bus_error;

	if (!*flag)
		return false;
	*flag = false;
	ethdrv_counter_inc(&emu->st.faults);
	return true;
}
