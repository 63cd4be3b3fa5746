// SPDX-License-Identifier: MIT
/*
 * The link (enet_link.h): line, models and capture in one place, made in
 * order and freed in reverse; the ENET, GbEth and eTSEC models behind
 * struct link_model.
 */
#include "enet_link.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "drivers/fec.h"
#include "drivers/gianfar.h"
#include "drivers/ravb.h"
#include "emu/etsec_emu.h"
#include "emu/pcap.h"
#include "fq.h"

#define ENET_LINK_DMA_PAGE 4096u /* the model's DMA alignment */
#define ENET_LINK_DMA_MIN (8u << 20) /* the model's default */

/* The line as the spec asks: real time, the engine's batch, slip bound and
 * lab CPU, seeded bit errors. */
static int enet_link_line(const struct cli_enet_spec *spec, struct fdx_line **out)
{
	struct fdx_line_config lc;

	fdx_line_config_default(&lc);
	lc.speed_mbps = spec->speed_mbps;
	lc.batch_ns = (uint64_t)spec->batch_us * 1000u;
	lc.slip_bound_ns = (uint64_t)spec->slip_us * 1000u;
	lc.lab_cpu = spec->lab_cpu;
	return fdx_line_new(&lc, out);
}

/* @need bytes of DMA memory (rings, buffers, pool) in whole pages, at least the default.
 * The pool has room for the node's fair queue (pool_extra, docs/fq.md §2), as
 * the node asks its driver for (node_enet.c). */
static size_t enet_link_dma_size(size_t need)
{
	return ETHDRV_MAX(need + ENET_LINK_DMA_PAGE - 1, (size_t)ENET_LINK_DMA_MIN) &
	       ~(size_t)(ENET_LINK_DMA_PAGE - 1);
}

/* ENET on @port: its register latency and the fec driver's DMA memory; defaults for the rest. */
static int link_enet_create(const struct cli_enet_spec *spec, struct fdx_line *line, unsigned port,
			    void **out)
{
	struct fec_config fc = { .rx_ring = spec->rx_ring,
				 .tx_ring = spec->tx_ring,
				 .pool_extra = FQ_LIMIT_MAX };
	struct enet_emu_config ec;
	struct enet_emu *emu;
	int err;

	enet_emu_config_default(&ec);
	ec.mmio_latency_ns = spec->mmio_ns;
	ec.dma_size = enet_link_dma_size(fec_dma_size(&fc));
	ec.soc = spec->soc;
	ec.tx_fifo_bytes = spec->tx_fifo_bytes;
	err = enet_emu_new(&ec, line, port, &emu);
	if (!err)
		*out = emu;
	return err;
}

static void link_enet_destroy(void *emu)
{
	enet_emu_free(emu);
}

const struct link_model link_model_enet = { "ENET", link_enet_create, link_enet_destroy };

/* GbEth on @port: the ravb driver's DMA memory (docs/gbeth.md §13: below 4 GiB). */
static int link_gbeth_create(const struct cli_enet_spec *spec, struct fdx_line *line, unsigned port,
			     void **out)
{
	struct ravb_config rc = { .rx_ring = spec->rx_ring,
				  .tx_ring = spec->tx_ring,
				  .pool_extra = FQ_LIMIT_MAX };
	struct gbeth_emu_config gc;
	struct gbeth_emu *emu;
	int err;

	gbeth_emu_config_default(&gc);
	gc.mmio_latency_ns = spec->mmio_ns;
	gc.dma_size = enet_link_dma_size(ravb_dma_size(&rc));
	gc.node_id = (uint8_t)port;
	err = gbeth_emu_new(&gc, line, port, &emu);
	if (!err)
		*out = emu;
	return err;
}

static void link_gbeth_destroy(void *emu)
{
	gbeth_emu_free(emu);
}

const struct link_model link_model_gbeth = { "GbEth", link_gbeth_create, link_gbeth_destroy };

/* eTSEC on @port: DMA memory for gianfar; the AR8031 on the line's cable. */
static int link_etsec_create(const struct cli_enet_spec *spec, struct fdx_line *line, unsigned port,
			     void **out)
{
	struct gfar_config gc = { .rx_ring = spec->rx_ring,
				  .tx_ring = spec->tx_ring,
				  .pool_extra = FQ_LIMIT_MAX };
	struct etsec_emu_config ec;
	struct etsec_emu *emu;
	int err;

	etsec_emu_config_default(&ec);
	ec.dma_size = enet_link_dma_size(gfar_dma_size(&gc));
	ec.node_id = (uint8_t)port;
	err = etsec_emu_new(&ec, line, port, &emu);
	if (!err)
		*out = emu;
	return err;
}

static void link_etsec_destroy(void *emu)
{
	etsec_emu_free(emu);
}

const struct link_model link_model_etsec = { "eTSEC", link_etsec_create, link_etsec_destroy };

/* Model @port and the bit error rate of what it sends. */
static int enet_link_model(struct enet_link *l, const struct cli_enet_spec *spec, unsigned port)
{
	int err = l->model->create(spec, l->line, port, &l->emu[port]);

	if (!err)
		err = fdx_line_set_ber(l->line, port, spec->ber);
	return err;
}

int enet_link_new(const struct link_model *model, const struct cli_enet_spec *spec,
		  const char *pcap_path, struct enet_link **out)
{
	struct enet_link *l = calloc(1, sizeof(*l));
	unsigned i;
	int err;

	if (!l)
		return -ENOMEM;
	l->model = model;
	err = enet_link_line(spec, &l->line);
	for (i = 0; !err && i < ENET_LINK_NODES; i++)
		err = enet_link_model(l, spec, i);
	if (!err && pcap_path) {
		err = emu_pcap_open(pcap_path, &l->pcap);
		if (!err)
			fdx_line_set_capture(l->line, l->pcap);
	}
	if (err) {
		enet_link_free(l);
		return err;
	}
	*out = l;
	return 0;
}

void enet_link_free(struct enet_link *l)
{
	unsigned i;

	if (!l)
		return;
	for (i = 0; i < ENET_LINK_NODES; i++)
		if (l->emu[i])
			l->model->destroy(l->emu[i]);
	fdx_line_free(l->line);
	if (l->pcap && emu_pcap_close(l->pcap))
		fprintf(stderr, "ethdrv segment: the capture was not closed cleanly\n");
	free(l);
}
