/* SPDX-License-Identifier: MIT */
/*
 * The i.MX parts whose ENET the model (src/emu/enet_emu.h) and the fec
 * driver (src/drivers/fec.h) tell apart: only the name and its parsing are
 * shared. What a part does differently (ECR.RESET or ECR=0, MIBC.MIB_CLEAR)
 * each side takes from docs/enet.md §15 on its own, so a wrong rule cannot
 * hide in both.
 */
#ifndef ETHDRV_ENET_SOC_H
#define ETHDRV_ENET_SOC_H

#include <string.h>

enum ethdrv_enet_soc {
	ETHDRV_ENET_SOC_IMX8M, /* i.MX8MQ/MM/MN/MP (default): AXI, multi-queue */
	ETHDRV_ENET_SOC_IMX6SX, /* i.MX6SX: AXI, multi-queue */
	ETHDRV_ENET_SOC_IMX6Q, /* i.MX6Q/DL: single queue */
	ETHDRV_ENET_SOC_IMX6UL, /* i.MX6UL/ULL: single queue */
	ETHDRV_ENET_SOC_COUNT
};

/* The accepted names, for error messages and --help. */
#define ETHDRV_ENET_SOC_NAMES "imx8m (default), imx6sx, imx6q or imx6ul"

/** ethdrv_enet_soc_name() - the name of @soc, "?" out of range */
static inline const char *ethdrv_enet_soc_name(enum ethdrv_enet_soc soc)
{
	static const char *const names[ETHDRV_ENET_SOC_COUNT] = { "imx8m", "imx6sx", "imx6q",
								  "imx6ul" };

	return (unsigned)soc < ETHDRV_ENET_SOC_COUNT ? names[soc] : "?";
}

/** ethdrv_enet_soc_parse() - @name to *@out; 0 or -1 (unknown: use ETHDRV_ENET_SOC_NAMES) */
static inline int ethdrv_enet_soc_parse(const char *name, enum ethdrv_enet_soc *out)
{
	for (unsigned i = 0; name && i < ETHDRV_ENET_SOC_COUNT; i++) {
		if (!strcmp(name, ethdrv_enet_soc_name((enum ethdrv_enet_soc)i))) {
			*out = (enum ethdrv_enet_soc)i;
			return 0;
		}
	}
	return -1;
}

#endif /* ETHDRV_ENET_SOC_H */
