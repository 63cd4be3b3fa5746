// SPDX-License-Identifier: MIT
/*
 * The table of built-in PHY drivers, matched by PHY ID at probe (phy.h).
 * One explicit list, no constructors (docs/style.md S3).
 */
#include "ethdrv/phy.h"

extern const struct ethdrv_phy_driver ethdrv__phy_ar8031;
extern const struct ethdrv_phy_driver ethdrv__phy_ar8035;

ETHDRV_EXPORT const struct ethdrv_phy_driver *const ethdrv_phy_drivers[] = {
	&ethdrv__phy_ar8031,
	&ethdrv__phy_ar8035,
	NULL,
};
