// SPDX-License-Identifier: MIT
/*
 * The LAN8650/1 backend of a node (node_priv.h): the SPI bus to a model
 * on a medium (emu:lan8650) or to a real board (spidev:), the initial PLCA
 * settings, and what the model adds: its counters and its emu.* knobs
 * (node_faults.c).
 */
#include <errno.h>
#include <stdio.h>

#include "ethdrv/log.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

/* The poll period without an IRQ line: from the spec, 0 with one. */
static unsigned lan865x_poll_us(const struct cli_device *dev)
{
	return dev->kind == CLI_DEV_SPIDEV ? dev->spidev.poll_us : dev->emu.poll_us;
}

/* A model (attached to the medium) or a real board. */
static int lan865x_bus_open(struct node *n)
{
	struct lan865x_emu_config ec;
	int err;

	if (n->cfg.dev.kind == CLI_DEV_SPIDEV) {
		err = ethdrv_spidev_bus_open(&n->cfg.dev.spidev, &n->bus);
		n->bus_open = !err;
		return err;
	}
	lan865x_emu_config_default(&ec);
	ec.spi_hz = n->cfg.dev.emu.spi_hz;
	ec.setup_ns = n->cfg.dev.emu.setup_ns;
	ec.rx_buf_chunks = n->cfg.dev.emu.rx_buf_chunks;
	ec.mosi_ber = n->cfg.dev.emu.mosi_ber;
	ec.miso_ber = n->cfg.dev.emu.miso_ber;
	ec.model = n->cfg.dev.emu.model;
	ec.rev = n->cfg.dev.emu.rev;
	ec.slack_ns = (uint64_t)n->cfg.dev.emu.slack_us * 1000;
	ec.sv_open = n->cfg.dev.emu.sv_open_ignore ? LAN865X_EMU_SV_OPEN_IGNORE :
						     LAN865X_EMU_SV_OPEN_RESTART;
	ec.errata_s3 = n->cfg.dev.emu.errata_s3;
	ec.node_id = (uint8_t)n->cfg.index;
	ec.seed = n->cfg.index + 1;
	ec.realtime = true;
	err = lan865x_emu_new(&ec, &n->emu);
	if (err)
		return err;
	lan865x_emu_get_bus(n->emu, &n->model_bus);
	node_metrics_time_model_bus(n);
	if (n->cfg.dev.emu.irq_none)
		n->bus.irq_fd = -1; /* the model's IRQ_N left unconnected: polled mode */
	return n->cfg.medium ? lan865x_emu_attach(n->emu, n->cfg.medium, n->cfg.port) : 0;
}

static int lan865x_open(struct node *n, struct ethdrv_driver_args *args)
{
	int err = lan865x_bus_open(n);

	args->spi = &n->bus;
	args->pool = n->pool;
	args->poll_us = lan865x_poll_us(&n->cfg.dev);
	return err;
}

/* The initial PLCA settings, as the knobs (lan865x.h) set them before open. */
static int lan865x_configure(struct node *n)
{
	const struct lan865x_plca *p = &n->cfg.plca;
	char id[4], cnt[4];
	int err;

	if (!p->enable)
		return 0;
	snprintf(id, sizeof(id), "%u", p->node_id);
	snprintf(cnt, sizeof(cnt), "%u", p->node_cnt);
	err = ethdrv_netdev_set(n->dev, "node-id", id);
	if (!err)
		err = ethdrv_netdev_set(n->dev, "node-cnt", cnt);
	if (!err)
		err = ethdrv_netdev_set(n->dev, "plca", "on");
	return err;
}

static void lan865x_close(struct node *n)
{
	lan865x_emu_free(n->emu);
	n->emu = NULL;
	if (n->bus_open && n->bus.ops->close)
		n->bus.ops->close(n->bus.ctx);
	n->bus_open = false;
}

static void lan865x_stats_register(struct node *n, struct ethdrv_stats_set *set)
{
	if (n->emu && ethdrv_stats_add_group(set, "emu", lan865x_emu_stats_desc,
					     lan865x_emu_stats_desc_count, &n->emu_stats))
		ethdrv_warn(n->dev, "model counters not added to the stats");
}

static void lan865x_stats_update(struct node *n)
{
	if (n->emu)
		lan865x_emu_get_stats(n->emu, &n->emu_stats);
}

/* "info" lines for GPIO line @ref: "/dev/gpiochipN:LINE", or "none". */
static void lan865x_info_line(struct ctl_reply *r, const char *key, bool wired,
			      const struct ethdrv_gpio_ref *ref)
{
	if (wired)
		ctl_reply_printf(r, "%s=%s:%u\n", key, ref->chip, ref->line);
	else
		ctl_reply_printf(r, "%s=none\n", key);
}

/* The SPI speed and the lines the device runs with. */
static void lan865x_info(struct node *n, struct ctl_reply *r)
{
	const struct cli_device *dev = &n->cfg.dev;

	/* spi_hz: what the backend applies (spidev: read back); spi_hz_requested: the spec. */
	ctl_reply_printf(r, "spi_hz=%u\nspi_hz_requested=%u\npoll_us=%u\n", n->bus.hz,
			 dev->kind == CLI_DEV_SPIDEV ? dev->spidev.hz : dev->emu.spi_hz,
			 lan865x_poll_us(dev));
	if (dev->kind == CLI_DEV_SPIDEV) {
		lan865x_info_line(r, "irq", dev->spidev.has_irq, &dev->spidev.irq);
		lan865x_info_line(r, "reset", dev->spidev.has_reset, &dev->spidev.reset);
	} else {
		ctl_reply_printf(r, "irq=%s\nreset=model\n", dev->emu.irq_none ? "none" : "model");
	}
}

const struct node_backend node_lan865x_backend = {
	.driver = "lan865x",
	.open = lan865x_open,
	.configure = lan865x_configure,
	.close = lan865x_close,
	.stats_register = lan865x_stats_register,
	.stats_update = lan865x_stats_update,
	.emu_set = node_emu_set,
	.emu_knobs = &node_emu_knob_table,
	.title = "LAN8650/1 (emu:lan8650, spidev:...)",
	.emu_get = node_emu_get,
	.info = lan865x_info,
};
