// SPDX-License-Identifier: MIT
/*
 * Qualcomm Atheros AR8031/AR8035 PHY driver (docs/mdio.md §8): the PHY
 * i.MX6 SABRE boards and the i.MX8MQ EVK carry. Generic clause-22 handling
 * plus the vendor interrupt registers (so the PHY's INT line can drive the
 * state machine) and the PHY-specific status register for the resolved
 * speed and duplex.
 */
#include <errno.h>

#include "ethdrv/mii.h"
#include "ethdrv/phy.h"

#define AT803X_SPEC_STATUS 0x11 /* docs/mdio.md §8.2 */
#define AT803X_SS_SPEED 0xC000
#define AT803X_SS_SPEED_1000 0x8000
#define AT803X_SS_SPEED_100 0x4000
#define AT803X_SS_DUPLEX 0x2000
#define AT803X_SS_RESOLVED 0x0800
#define AT803X_INT_ENABLE 0x12
#define AT803X_INT_STATUS 0x13 /* clear on read */
/* Autoneg error, speed and duplex changed, link fail, link up (Linux
 * enables the same five sources). */
#define AT803X_INT_LINK_EVENTS 0xEC00

/* Clear pending events by reading the status, then (un)mask. */
static int at803x_config_intr(struct ethdrv_phy *phy, bool on)
{
	uint16_t status;
	int ret = ethdrv_phy_read(phy, AT803X_INT_STATUS, &status);

	return ret ? ret :
		     ethdrv_phy_write(phy, AT803X_INT_ENABLE, on ? AT803X_INT_LINK_EVENTS : 0);
}

static int at803x_handle_interrupt(struct ethdrv_phy *phy, bool *ours)
{
	uint16_t status, enabled;
	int ret = ethdrv_phy_read(phy, AT803X_INT_STATUS, &status);

	if (!ret)
		ret = ethdrv_phy_read(phy, AT803X_INT_ENABLE, &enabled);
	if (!ret)
		*ours = status & enabled;
	return ret;
}

/* Link from BMSR (the latched-low rule), speed and duplex from the vendor
 * status once it says resolved, pause and faults from the generic LPA. */
static int at803x_read_status(struct ethdrv_phy *phy)
{
	uint16_t ss;
	int ret = ethdrv_genphy_read_status(phy);

	if (ret || !phy->link.up)
		return ret;
	ret = ethdrv_phy_read(phy, AT803X_SPEC_STATUS, &ss);
	if (ret || !(ss & AT803X_SS_RESOLVED))
		return ret;
	switch (ss & AT803X_SS_SPEED) {
	case AT803X_SS_SPEED_1000:
		phy->link.speed_mbps = 1000;
		break;
	case AT803X_SS_SPEED_100:
		phy->link.speed_mbps = 100;
		break;
	default:
		phy->link.speed_mbps = 10;
		break;
	}
	phy->link.full_duplex = ss & AT803X_SS_DUPLEX;
	return 0;
}

/* The AR8031 and AR8035 share these registers (Linux at803x.c drives both). */
#define AT803X_DRIVER(_name, _id)                                                     \
	{                                                                             \
		.name = (_name), .phy_id = (_id), .phy_id_mask = 0xFFFFFFFF,          \
		.read_status = at803x_read_status, .config_intr = at803x_config_intr, \
		.handle_interrupt = at803x_handle_interrupt,                          \
	}

const struct ethdrv_phy_driver ethdrv__phy_ar8031 = AT803X_DRIVER("AR8031", 0x004DD074);
const struct ethdrv_phy_driver ethdrv__phy_ar8035 = AT803X_DRIVER("AR8035", 0x004DD072);
