/* SPDX-License-Identifier: MIT */
/*
 * A complete emulated MDIO set-up for tests and benchmarks (not used by the
 * library itself): the ENET MDIO block in real time (enet_mdio_sim) as the
 * controller, an MDIO bus model with an AR8031 model at one address and its
 * link partner on a real-time wire, initialised the way fec_enet_mii_init
 * does (MMFR = 0, MSCR, clear the MII event; docs/napi.md §6.2), and the
 * MDIO bus core over it with the event line routed. More devices can be
 * attached to rig.emu.
 */
#ifndef ETHDRV_EMU_MDIO_RIG_H
#define ETHDRV_EMU_MDIO_RIG_H

#include <stdbool.h>
#include <stdint.h>
#include "enet_mdio_sim.h"
#include "ethdrv/mdio.h"
#include "mdio_emu.h"
#include "phy_emu.h"

#define MDIO_RIG_MSCR_2M5 (9u << 1) /* 50 MHz module clock: 2.5 MHz MDC */

struct mdio_rig_config {
	unsigned phy_addr; /* where phy[0] answers */
	const struct phy_emu_config *phy; /* both PHYs; NULL: defaults */
	const struct ethdrv_mdio_ops *ops; /* NULL: enet_mdio_sim_ops */
	bool c45; /* the bus sends clause-45 frames */
	uint32_t mscr; /* 0: MDIO_RIG_MSCR_2M5 */
	uint64_t access_ns; /* cost of one controller register access (enet_mdio_sim) */
	uint32_t ipg_hz; /* the block's module clock; 0: the default 50 MHz (enet_mdio.h) */
};

struct mdio_rig {
	struct mdio_emu *emu; /* the bus model */
	struct phy_emu_wire *wire; /* real-time wire between the two PHYs */
	struct phy_emu *phy[2]; /* phy[0] on the bus, phy[1] its partner */
	struct enet_mdio_sim *sim; /* the controller's registers */
	struct ethdrv_mdio_bus *bus; /* the bus core over it (irq line routed) */
	unsigned phy_addr; /* phy[0]'s address */
};

/**
 * mdio_rig_setup() - build the rig
 * @r: zeroed storage
 * @cfg: settings
 *
 * Return: 0 or the first error (what was built is freed by mdio_rig_teardown()).
 */
int mdio_rig_setup(struct mdio_rig *r, const struct mdio_rig_config *cfg);

/** mdio_rig_teardown() - free everything, detaching every bus device first. */
void mdio_rig_teardown(struct mdio_rig *r);

#endif /* ETHDRV_EMU_MDIO_RIG_H */
