// SPDX-License-Identifier: MIT
/*
 * The level of a bus's IRQ line (driver.h): a helper that needs the OS, so
 * that drivers, which include no OS header, can ask for it.
 */
#include <poll.h>

#include "ethdrv/driver.h"

bool ethdrv_spi_irq_asserted(const struct ethdrv_spi_bus *bus)
{
	struct pollfd p = { .fd = bus->irq_fd, .events = POLLIN };

	return bus->irq_fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}
