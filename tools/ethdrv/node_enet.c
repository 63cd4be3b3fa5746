// SPDX-License-Identifier: MIT
/*
 * The ring-MAC backends of a node (node_priv.h): the MMIO bus of an NXP
 * ENET model (emu:enet, driven by fec), a Renesas GbEth model (emu:gbeth,
 * driven by ravb) or a Freescale eTSEC model (emu:etsec, driven by gianfar)
 * that sits on a two-node link (enet_link.h; the link owns the model and
 * outlives the node, because a graceful stop needs the peer), the model's
 * counters as the "emu" group, and its fault knobs (the same for every kind:
 * emu.inject is the models' DMA faults, emu_fault.h; the others the line's):
 *   emu.inject=rx_exhaust[:N] | rx_bus_error | tx_bus_error
 *                    (emu_fault_parse; enet_emu_inject, etsec_emu_inject,
 *                    gbeth_emu_inject; docs/reliability.md §2)
 *   emu.ber=X        bit error rate of the frames this node sends (fdx_line_set_ber)
 *   emu.link=up|down the cable between the PHYs (fdx_line_set_cable)
 *   emu.flap_ms=MS   the link down for MS ms, then up (fdx_line_flap)
 *   emu.gen=PAYLOAD:PORT[:COUNT[:PPS]] | off
 *                    the line's generator sends UDP datagrams of PAYLOAD
 *                    bytes to this node's PORT, from the peer's addresses,
 *                    COUNT of them (0 = until off) at PPS (0 = line rate);
 *                    one generator per direction (fdx_line_gen_start,
 *                    docs/enet.md §14)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "emu/etsec_emu.h"
#include "node_priv.h"

ETHDRV_LOG_MODULE(node);

#define ENET_FLAP_MAX_MS 60000u /* fdx_line_flap()'s limit */
#define ENET_GEN_SPORT 9u /* the generator's UDP source port (discard) */

/* The line under the node's model. */
static struct fdx_line *node_line(const struct node *n)
{
	if (n->cfg.gbeth)
		return gbeth_emu_line(n->cfg.gbeth);
	return n->cfg.etsec ? etsec_emu_line(n->cfg.etsec) : enet_emu_line(n->cfg.enet);
}

static int enet_open(struct node *n, struct ethdrv_driver_args *args)
{
	if (!n->cfg.enet) {
		ethdrv_err(NULL,
			   "%s: emu:enet needs its peer: use `ethdrv segment --nodes 2 "
			   "--device emu:enet`",
			   n->cfg.ifname);
		return -EINVAL;
	}
	enet_emu_get_bus(n->cfg.enet, &n->mmio);
	args->mmio = &n->mmio;
	args->phy_irq_fd = enet_emu_phy_irq_fd(n->cfg.enet);
	args->rx_ring = n->cfg.dev.enet.rx_ring;
	args->tx_ring = n->cfg.dev.enet.tx_ring;
	args->pool_extra = FQ_LIMIT_MAX; /* the fair queue's frames (docs/fq.md §2) */
	args->soc = n->cfg.dev.enet.soc;
	n->enet_ber = n->cfg.dev.enet.ber;
	return 0;
}

/* The model belongs to the link: nothing of it is the node's to free. */
static void enet_close(struct node *n)
{
}

static void enet_stats_register(struct node *n, struct ethdrv_stats_set *set)
{
	if (ethdrv_stats_add_group(set, "emu", enet_emu_stats_desc, enet_emu_stats_desc_count,
				   &n->enet_stats))
		ethdrv_warn(n->dev, "model counters not added to the stats");
}

static void enet_stats_update(struct node *n)
{
	enet_emu_get_stats(n->cfg.enet, &n->enet_stats);
}

/* An unsigned decimal in 1..@max. */
static int enet_parse_count(const char *v, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(v, &end, 10);
	return *v < '0' || *v > '9' || errno || *end || !*out || *out > max ? -EINVAL : 0;
}

/* "rx_exhaust[:N]", "rx_bus_error" or "tx_bus_error" into the node's model. */
static int model_inject(struct node *n, const char *v)
{
	enum emu_fault f;
	uint64_t arg;
	int err = emu_fault_parse(v, &f, &arg);

	if (err)
		return err;
	if (n->cfg.gbeth)
		return gbeth_emu_inject(n->cfg.gbeth, f, arg);
	if (n->cfg.etsec)
		return etsec_emu_inject(n->cfg.etsec, f, arg);
	return n->cfg.enet ? enet_emu_inject(n->cfg.enet, f, arg) : -ENOENT;
}

/* An unsigned decimal in 0..@max (an empty string is not one). */
static int enet_parse_u64(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(v, &end, 10);
	return *v < '0' || *v > '9' || errno || (*end && *end != ':') || *out > max ? -EINVAL : 0;
}

/* The peer's address on the link: the same subnet, the other node's host
 * part (node K is .K+1, segment_enet.c); .254 for an address not of that form. */
static uint32_t enet_peer_ip(const struct node *n, uint32_t own)
{
	uint32_t host = own & 0xFFu, peer = 0xFEu;

	if (host == n->cfg.index + 1u)
		peer = (n->cfg.index ^ 1u) + 1u;
	return (own & ~0xFFu) | peer;
}

/* "PAYLOAD:PORT[:COUNT[:PPS]]": start the generator towards this node, or "off". */
static int enet_gen(struct node *n, const char *v)
{
	struct fdx_line *line = node_line(n);
	unsigned long long f[4] = { 0, 0, 0, 0 };
	const unsigned long long max[4] = { FDX_GEN_PAYLOAD_MAX, 65535, UINT64_MAX,
					    FDX_GEN_PPS_MAX };
	struct fdx_gen_config c = { .to_port = n->cfg.index, .src_port = ENET_GEN_SPORT };
	struct in_addr a;
	unsigned i = 0;

	if (!strcmp(v, "off")) {
		fdx_line_gen_stop(line, n->cfg.index);
		return 0;
	}
	for (const char *p = v; i < 4; i++) {
		if (enet_parse_u64(p, max[i], &f[i]))
			return -EINVAL;
		p = strchr(p, ':');
		if (!p++)
			break;
	}
	if (i < 1 || i > 3 || !f[1] || inet_pton(AF_INET, n->cfg.addr, &a) != 1)
		return -EINVAL;
	memcpy(c.dst_mac, n->cfg.mac, 6);
	memcpy(c.src_mac, n->cfg.mac, 6);
	c.src_mac[5] ^= 1; /* the peer's station address */
	c.dst_ip = ntohl(a.s_addr);
	c.src_ip = enet_peer_ip(n, c.dst_ip);
	c.payload = (uint16_t)f[0];
	c.dst_port = (uint16_t)f[1];
	c.count = f[2];
	c.pps = f[3];
	return fdx_line_gen_start(line, &c);
}

#define ENET_BER_MAX_TEXT "0..0.01" /* fdx_line_set_ber()'s limit */

/* The line's knobs, the same for every model on it. */
#define LINE_KNOBS                                                                                \
	ETHDRV_KNOB_TEXT("emu.ber", ENET_BER_MAX_TEXT, "",                                        \
			 "bit error rate of the frames it sends"),                                \
		ETHDRV_KNOB_ENUM("emu.link", "up|down", "the cable between the PHYs"),            \
		ETHDRV_KNOB_UINT("emu.flap_ms", 1, ENET_FLAP_MAX_MS, "ms",                        \
				 "the link down this long, then up"),                             \
		ETHDRV_KNOB_TEXT("emu.gen", "PAYLOAD:PORT[:COUNT[:PPS]]|off", "",                 \
				 "UDP generator towards this node (COUNT 0 = until off, PPS 0 = " \
				 "line rate)")

static const struct ethdrv_knob enet_emu_knobs[] = {
	ETHDRV_KNOB_TEXT("emu.inject", EMU_FAULT_SYNTAX, "",
			 "one fault now (N frames find no RX descriptor, N 1..1000000)"),
	LINE_KNOBS,
};

static const struct ethdrv_knob_table enet_emu_knob_table =
	ETHDRV_KNOB_TABLE("emu:enet", enet_emu_knobs);
static const struct ethdrv_knob_table etsec_emu_knob_table =
	ETHDRV_KNOB_TABLE("emu:etsec", enet_emu_knobs);
static const struct ethdrv_knob_table gbeth_emu_knob_table =
	ETHDRV_KNOB_TABLE("emu:gbeth", enet_emu_knobs);

static int enet_emu_set(struct node *n, const char *key, const char *v)
{
	struct fdx_line *line = node_line(n);
	unsigned long ms;
	double ber;
	char *end;
	int err;

	if (!strcmp(key, "inject"))
		return model_inject(n, v);
	if (!strcmp(key, "gen"))
		return enet_gen(n, v);
	if (!strcmp(key, "ber")) {
		errno = 0;
		ber = strtod(v, &end);
		if (!*v || errno || *end)
			return -EINVAL;
		err = fdx_line_set_ber(line, n->cfg.index, ber);
		if (!err)
			n->enet_ber = ber;
		return err;
	}
	if (!strcmp(key, "link")) {
		if (strcmp(v, "up") && strcmp(v, "down"))
			return -EINVAL;
		/* The cable between the two PHYs (docs/mdio.md §11.4): both lose
		 * the link and the carrier; plugged again, they autonegotiate. */
		fdx_line_set_cable(line, !strcmp(v, "up"));
		return 0;
	}
	if (!strcmp(key, "flap_ms")) {
		if (enet_parse_count(v, ENET_FLAP_MAX_MS, &ms))
			return -EINVAL;
		return fdx_line_flap(line, (uint64_t)ms * 1000000u);
	}
	return -ENOENT;
}

static int enet_emu_get(struct node *n, const char *key, char *buf, size_t size)
{
	int len;

	if (!strcmp(key, "ber"))
		len = snprintf(buf, size, "%g", n->enet_ber);
	else if (!strcmp(key, "gen"))
		len = snprintf(buf, size, "%s",
			       fdx_line_gen_running(node_line(n), n->cfg.index) ? "on" : "off");
	else if (!strcmp(key, "link"))
		len = snprintf(buf, size, "%s", fdx_line_link_up(node_line(n)) ? "up" : "down");
	else
		return -ENOENT;
	return len < (int)size ? 0 : -ENOSPC;
}

static void enet_info(struct node *n, struct ctl_reply *r)
{
	const struct cli_enet_spec *e = &n->cfg.dev.enet;

	ctl_reply_printf(r, "bus=%s\nport=%u\nline_mbps=%u\nbatch_us=%u\nmmio_ns=%u\n",
			 n->mmio.desc, n->cfg.index, e->speed_mbps, e->batch_us, e->mmio_ns);
	ctl_reply_printf(r, "soc=%s\ntx_fifo_bytes=%u\n", ethdrv_enet_soc_name(e->soc),
			 e->tx_fifo_bytes);
	ctl_reply_printf(r, "rx_ring=%u\ntx_ring=%u\nirq=model\n", e->rx_ring, e->tx_ring);
	/* The lab's clock (docs/design.md §5b.2, §5b.3); lab_cpu -1: sleeps on timers. */
	ctl_reply_printf(r, "slip_us=%u\nlab_cpu=%d\n", e->slip_us, e->lab_cpu);
}

const struct node_backend node_enet_backend = {
	.driver = "fec",
	.tap_offload = true,
	.open = enet_open,
	.close = enet_close,
	.stats_register = enet_stats_register,
	.stats_update = enet_stats_update,
	.emu_set = enet_emu_set,
	.emu_get = enet_emu_get,
	.emu_knobs = &enet_emu_knob_table,
	.title = "NXP ENET (emu:enet)",
	.info = enet_info,
};

/* ---- GbEth and eTSEC (the same line, their own models) ---- */

/* The arguments every model on the link gives its driver; -EINVAL without
 * the model (a node started outside `ethdrv segment --device emu:@kind`). */
static int link_model_args(struct node *n, const void *model, const char *kind,
			   struct ethdrv_driver_args *args)
{
	if (!model) {
		ethdrv_err(NULL, "%s: emu:%s needs its peer: use `ethdrv segment --device emu:%s`",
			   n->cfg.ifname, kind, kind);
		return -EINVAL;
	}
	args->mmio = &n->mmio;
	args->rx_ring = n->cfg.dev.enet.rx_ring;
	args->tx_ring = n->cfg.dev.enet.tx_ring;
	args->pool_extra = FQ_LIMIT_MAX; /* the fair queue's frames (docs/fq.md §2) */
	n->enet_ber = n->cfg.dev.enet.ber;
	return 0;
}

/* The model's counters as the "emu" group of the node's stats. */
static void link_model_stats(struct node *n, struct ethdrv_stats_set *set,
			     const struct ethdrv_stat_desc *desc, size_t count, void *base)
{
	if (ethdrv_stats_add_group(set, "emu", desc, count, base))
		ethdrv_warn(n->dev, "model counters not added to the stats");
}

static int gbeth_open(struct node *n, struct ethdrv_driver_args *args)
{
	int err = link_model_args(n, n->cfg.gbeth, "gbeth", args);

	if (err)
		return err;
	gbeth_emu_get_bus(n->cfg.gbeth, &n->mmio);
	args->phy_irq_fd = gbeth_emu_phy_irq_fd(n->cfg.gbeth);
	return 0;
}

static void gbeth_stats_register(struct node *n, struct ethdrv_stats_set *set)
{
	link_model_stats(n, set, gbeth_emu_stats_desc, gbeth_emu_stats_desc_count, &n->gbeth_stats);
}

static void gbeth_stats_update(struct node *n)
{
	gbeth_emu_get_stats(n->cfg.gbeth, &n->gbeth_stats);
}

const struct node_backend node_gbeth_backend = {
	.driver = "ravb",
	.tap_offload = true,
	.open = gbeth_open,
	.close = enet_close,
	.stats_register = gbeth_stats_register,
	.stats_update = gbeth_stats_update,
	.emu_set = enet_emu_set,
	.emu_get = enet_emu_get,
	.emu_knobs = &gbeth_emu_knob_table,
	.title = "Renesas GbEth (emu:gbeth)",
	.info = enet_info,
};

static int etsec_open(struct node *n, struct ethdrv_driver_args *args)
{
	int err = link_model_args(n, n->cfg.etsec, "etsec", args);
	struct phy_emu *phy;

	if (err)
		return err;
	etsec_emu_get_bus(n->cfg.etsec, &n->mmio);
	phy = etsec_emu_phy(n->cfg.etsec);
	args->phy_irq_fd = phy ? phy_emu_irq_fd(phy) : -1;
	return 0;
}

static void etsec_stats_register(struct node *n, struct ethdrv_stats_set *set)
{
	link_model_stats(n, set, etsec_emu_stats_desc, etsec_emu_stats_desc_count, &n->etsec_stats);
}

static void etsec_stats_update(struct node *n)
{
	etsec_emu_get_stats(n->cfg.etsec, &n->etsec_stats);
}

const struct node_backend node_etsec_backend = {
	.driver = "gianfar",
	.tap_offload = true,
	.open = etsec_open,
	.close = enet_close,
	.stats_register = etsec_stats_register,
	.stats_update = etsec_stats_update,
	.emu_set = enet_emu_set,
	.emu_get = enet_emu_get,
	.emu_knobs = &etsec_emu_knob_table,
	.title = "Freescale eTSEC (emu:etsec)",
	.info = enet_info,
};
