// SPDX-License-Identifier: MIT
/*
 * kshim's bridge to ethdrv's SPI bus (include/ethdrv/driver.h), kept apart
 * so that kshim.h and ethdrv's headers never meet in one file.
 */
#include "ethdrv/driver.h"

int kshim_bus_transfer(const struct ethdrv_spi_bus *bus, const void *tx, void *rx, size_t len);
void kshim_bus_irq_fds(const struct ethdrv_spi_bus *bus, int *level_fd, int *edge_fd);

int kshim_bus_transfer(const struct ethdrv_spi_bus *bus, const void *tx, void *rx, size_t len)
{
	return ethdrv_spi_transfer(bus, tx, rx, len);
}

void kshim_bus_irq_fds(const struct ethdrv_spi_bus *bus, int *level_fd, int *edge_fd)
{
	*level_fd = bus->irq_fd;
	*edge_fd = bus->irq_edge_fd;
}
