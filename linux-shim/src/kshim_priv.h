/* SPDX-License-Identifier: MIT */
/* kshim internals shared by its files (not seen by the kernel files). */
#ifndef KSHIM_PRIV_H
#define KSHIM_PRIV_H

#include "kshim.h"

extern unsigned long kshim_messages; /* lines printed, under the log lock */

void kshim_devres_release(struct device *dev);

/* kshim_bridge.c: the only file that sees ethdrv's headers. */
int kshim_bus_transfer(const struct ethdrv_spi_bus *bus, const void *tx, void *rx, size_t len);
void kshim_bus_irq_fds(const struct ethdrv_spi_bus *bus, int *level_fd, int *edge_fd);

/* kshim_irq.c: a line number for @bus's IRQ_N (0 = none left); free it. */
int kshim_irq_line_new(const struct ethdrv_spi_bus *bus);
void kshim_irq_line_free(int irq);
void kshim_irq_set_delay(int irq, unsigned delay_us);

/* kshim_phy.c: the PLCA settings through the attached PHY's driver. */
int kshim_phy_set_plca(struct phy_device *phydev, const struct phy_plca_cfg *cfg);
int kshim_phy_get_plca(struct phy_device *phydev, struct phy_plca_cfg *cfg);

#endif /* KSHIM_PRIV_H */
