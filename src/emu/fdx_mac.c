// SPDX-License-Identifier: MIT
/*
 * A MAC model on the full-duplex line: plug, unplug, the board's PHY (fdx_mac.h).
 */
#include "fdx_mac.h"

int fdx_mac_plug(struct fdx_line *line, unsigned port, const struct fdx_port_ops *port_ops,
		 const struct emu_engine_ops *engine_ops, void *model, bool has_phy)
{
	struct emu_engine *eng = fdx_line_engine(line);
	int ret;

	emu_engine_lock(eng);
	ret = fdx__attach(line, port, port_ops, model, has_phy);
	if (!ret) {
		ret = emu_engine_add(eng, engine_ops, model);
		if (ret)
			fdx__detach(line, port, has_phy);
	}
	emu_engine_unlock(eng);
	return ret;
}

void fdx_mac_unplug(struct fdx_line *line, unsigned port, void *model, bool has_phy)
{
	struct emu_engine *eng = fdx_line_engine(line);

	emu_engine_lock(eng);
	emu_engine_remove(eng, model);
	fdx__detach(line, port, has_phy);
	emu_engine_unlock(eng);
}

int fdx_mac_phy_new(const struct phy_emu_config *cfg, struct fdx_line *line, struct mdio_emu *bus,
		    unsigned addr, struct phy_emu **out)
{
	int ret = phy_emu_new(cfg, fdx_line_wire(line), fdx_line_now(line), out);

	if (!ret)
		ret = phy_emu_attach(*out, bus, addr);
	return ret;
}

void fdx_mac_phy_free(struct mdio_emu *bus, unsigned addr, struct phy_emu *phy)
{
	if (!phy)
		return;
	mdio_emu_detach(bus, addr);
	phy_emu_free(phy);
}
