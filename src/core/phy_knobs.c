// SPDX-License-Identifier: MIT
/*
 * The MDIO and PHY knobs a MAC driver exposes through set_param/get_param
 * (phy.h, docs/mdio.md §4.1, §7.2): mdio_mode, mdio_poll_delay_us,
 * phy_poll_ms and phy_irq, shared so that every driver with an MDIO bus
 * spells and checks them the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/knob.h"
#include "ethdrv/phy.h"

#define PHY_KNOB_DELAY_MAX_US 1000000u /* ethdrv_mdio_set_mode()'s bound */
#define PHY_KNOB_POLL_MAX_MS 60000u /* ethdrv_phy_set_poll_ms()'s bound */

static const struct ethdrv_knob phy_knobs[] = {
	ETHDRV_KNOB_ENUM("mdio_mode", "sleep|atomic|irq", "how the MDIO bus waits for completion"),
	ETHDRV_KNOB_UINT("mdio_poll_delay_us", 0, PHY_KNOB_DELAY_MAX_US, "us",
			 "first completion poll after a command"),
	ETHDRV_KNOB_UINT("phy_poll_ms", 0, PHY_KNOB_POLL_MAX_MS, "ms", "PHY state machine period"),
	ETHDRV_KNOB_UINT("phy_irq", 0, 1, "", "1 = the PHY interrupt, 0 = poll the PHY"),
};

ETHDRV_EXPORT const struct ethdrv_knob_table ethdrv_phy_knob_table =
	ETHDRV_KNOB_TABLE("mdio/phy", phy_knobs);

/* Decimal digits only, the whole string, at most @max. */
static int phy_knob_uint(const char *s, unsigned max, unsigned *out)
{
	unsigned long v = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > max)
			return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

static int phy_knob_set_mdio(struct ethdrv_mdio_bus *bus, const char *key, const char *value)
{
	struct ethdrv_mdio_config cfg;
	enum ethdrv_mdio_mode mode;
	unsigned delay;
	int ret;

	ethdrv_mdio_get_config(bus, &cfg);
	if (!strcmp(key, "mdio_mode")) {
		ret = ethdrv_mdio_mode_parse(value, &mode);
		return ret ? ret : ethdrv_mdio_set_mode(bus, mode, cfg.poll_delay_us);
	}
	ret = phy_knob_uint(value, PHY_KNOB_DELAY_MAX_US, &delay);
	return ret ? ret : ethdrv_mdio_set_mode(bus, cfg.mode, delay);
}

static int phy_knob_set_phy(const struct ethdrv_phy_knobs *k, const char *key, const char *value)
{
	unsigned v;
	int ret;

	if (!strcmp(key, "phy_poll_ms")) {
		ret = phy_knob_uint(value, PHY_KNOB_POLL_MAX_MS, &v);
		return ret ? ret : ethdrv_phy_set_poll_ms(k->phy, v);
	}
	ret = phy_knob_uint(value, 1, &v);
	if (ret)
		return ret;
	if (!v)
		return ethdrv_phy_set_irq_mode(k->phy, ETHDRV_PHY_IRQ_POLL, -1);
	if (k->irq_mode == ETHDRV_PHY_IRQ_POLL)
		return -EOPNOTSUPP; /* the board wires no PHY interrupt */
	return ethdrv_phy_set_irq_mode(k->phy, k->irq_mode, k->irq_fd);
}

static bool phy_knob_is_mdio(const char *key)
{
	return !strcmp(key, "mdio_mode") || !strcmp(key, "mdio_poll_delay_us");
}

static bool phy_knob_is_phy(const char *key)
{
	return !strcmp(key, "phy_poll_ms") || !strcmp(key, "phy_irq");
}

ETHDRV_EXPORT int ethdrv_phy_knob_set(const struct ethdrv_phy_knobs *k, const char *key,
				      const char *value)
{
	if (phy_knob_is_mdio(key))
		return k->bus ? phy_knob_set_mdio(k->bus, key, value) : -ENODEV;
	if (phy_knob_is_phy(key))
		return k->phy ? phy_knob_set_phy(k, key, value) : -ENODEV;
	return -ENOENT;
}

ETHDRV_EXPORT int ethdrv_phy_knob_get(const struct ethdrv_phy_knobs *k, const char *key, char *buf,
				      size_t size)
{
	struct ethdrv_mdio_config cfg;
	int n;

	if (phy_knob_is_mdio(key)) {
		if (!k->bus)
			return -ENODEV;
		ethdrv_mdio_get_config(k->bus, &cfg);
		n = !strcmp(key, "mdio_mode") ?
			    snprintf(buf, size, "%s", ethdrv_mdio_mode_name(cfg.mode)) :
			    snprintf(buf, size, "%u", cfg.poll_delay_us);
	} else if (phy_knob_is_phy(key)) {
		if (!k->phy)
			return -ENODEV;
		n = !strcmp(key, "phy_poll_ms") ?
			    snprintf(buf, size, "%u", k->phy->cfg.poll_ms) :
			    snprintf(buf, size, "%d", k->phy->cfg.irq_mode != ETHDRV_PHY_IRQ_POLL);
	} else {
		return -ENOENT;
	}
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}
