// SPDX-License-Identifier: MIT
/*
 * The emulated MDIO set-up of tests and benchmarks (mdio_rig.h).
 */
#include "mdio_rig.h"
#include "ethdrv/loop.h"

int mdio_rig_setup(struct mdio_rig *r, const struct mdio_rig_config *cfg)
{
	struct enet_mdio_sim_config sc;
	struct ethdrv_mdio_config mc;
	int err = mdio_emu_new(&r->emu);

	r->phy_addr = cfg->phy_addr;
	if (!err)
		err = phy_emu_wire_new(true, &r->wire);
	for (int i = 0; !err && i < 2; i++)
		err = phy_emu_new(cfg->phy, r->wire, ethdrv_now_ns(), &r->phy[i]);
	if (!err)
		err = phy_emu_attach(r->phy[0], r->emu, cfg->phy_addr);
	enet_mdio_sim_config_default(&sc);
	sc.access_ns = cfg->access_ns;
	if (cfg->ipg_hz)
		(&sc)->mdio.ipg_hz = cfg->ipg_hz;
	if (!err)
		err = enet_mdio_sim_new(&sc, r->emu, &r->sim);
	if (err)
		return err;
	enet_mdio_sim_write32(r->sim, ENET_MDIO_REG_MMFR, 0);
	enet_mdio_sim_write32(r->sim, ENET_MDIO_REG_MSCR,
			      cfg->mscr ? cfg->mscr : MDIO_RIG_MSCR_2M5);
	enet_mdio_sim_write32(r->sim, ENET_MDIO_SIM_REG_EIR, ENET_MDIO_EIR_MII);
	ethdrv_mdio_config_default(&mc);
	mc.irq_fd = enet_mdio_sim_irq_fd(r->sim);
	mc.c45 = cfg->c45;
	return ethdrv_mdio_bus_new("sim0", cfg->ops ? cfg->ops : &enet_mdio_sim_ops, r->sim, &mc,
				   &r->bus);
}

void mdio_rig_teardown(struct mdio_rig *r)
{
	ethdrv_mdio_bus_free(r->bus);
	enet_mdio_sim_free(r->sim);
	for (unsigned a = 0; r->emu && a < MDIO_EMU_ADDRS; a++)
		mdio_emu_detach(r->emu, a);
	phy_emu_free(r->phy[0]);
	phy_emu_free(r->phy[1]);
	phy_emu_wire_free(r->wire);
	mdio_emu_free(r->emu);
	*r = (struct mdio_rig){ 0 };
}
