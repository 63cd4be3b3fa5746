/* SPDX-License-Identifier: MIT */
/*
 * What every MAC model on the full-duplex line (fdx_line.h) does the same
 * way (the ENET and the GbEth): plug into a port of the line and onto its
 * engine at once, unplug again, and the board's PHY: an AR8031-style PHY
 * model on the line's cable, at an address of the board's MDIO bus model.
 */
#ifndef ETHDRV_EMU_FDX_MAC_H
#define ETHDRV_EMU_FDX_MAC_H

#include <stdbool.h>

#include "emu_engine.h"
#include "fdx_line.h"
#include "mdio_emu.h"
#include "phy_emu.h"

/**
 * fdx_mac_plug() - attach @model to @port of @line and add it to the line's
 * engine, both or neither
 * Return: 0, or the -errno of fdx__attach()/emu_engine_add().
 * Context: takes the engine lock.
 */
int fdx_mac_plug(struct fdx_line *line, unsigned port, const struct fdx_port_ops *port_ops,
		 const struct emu_engine_ops *engine_ops, void *model, bool has_phy);

/** fdx_mac_unplug() - undo fdx_mac_plug(). Context: takes the engine lock. */
void fdx_mac_unplug(struct fdx_line *line, unsigned port, void *model, bool has_phy);

/**
 * fdx_mac_phy_new() - the board's PHY on @line's cable, answering at @addr of @bus
 * Return: 0 or the -errno of phy_emu_new()/phy_emu_attach() (*@out is then
 * what fdx_mac_phy_free() takes).
 */
int fdx_mac_phy_new(const struct phy_emu_config *cfg, struct fdx_line *line, struct mdio_emu *bus,
		    unsigned addr, struct phy_emu **out);

/** fdx_mac_phy_free() - detach and free the PHY (NULL is ignored) */
void fdx_mac_phy_free(struct mdio_emu *bus, unsigned addr, struct phy_emu *phy);

#endif /* ETHDRV_EMU_FDX_MAC_H */
