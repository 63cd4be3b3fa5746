// SPDX-License-Identifier: MIT
/*
 * The ENET link (enet_link.h): line, models and capture in one place, made
 * in order and freed in reverse.
 */
#include "enet_link.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "drivers/fec.h"
#include "emu/pcap.h"

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

/* DMA memory for the driver's rings, bounce buffers and pool, in whole pages. */
static size_t enet_link_dma_size(const struct cli_enet_spec *spec)
{
	struct fec_config fc = { .rx_ring = spec->rx_ring, .tx_ring = spec->tx_ring };
	size_t need = fec_dma_size(&fc);

	return ETHDRV_MAX(need + ENET_LINK_DMA_PAGE - 1, (size_t)ENET_LINK_DMA_MIN) &
	       ~(size_t)(ENET_LINK_DMA_PAGE - 1);
}

/* Model @port: its register latency and DMA memory; defaults for the rest. */
static int enet_link_model(struct enet_link *l, const struct cli_enet_spec *spec, unsigned port)
{
	struct enet_emu_config ec;
	int err;

	enet_emu_config_default(&ec);
	ec.mmio_latency_ns = spec->mmio_ns;
	ec.dma_size = enet_link_dma_size(spec);
	ec.node_id = (uint8_t)port;
	err = enet_emu_new(&ec, l->line, port, &l->emu[port]);
	if (!err)
		err = fdx_line_set_ber(l->line, port, spec->ber);
	return err;
}

int enet_link_new(const struct cli_enet_spec *spec, const char *pcap_path, struct enet_link **out)
{
	struct enet_link *l = calloc(1, sizeof(*l));
	unsigned i;
	int err;

	if (!l)
		return -ENOMEM;
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
		enet_emu_free(l->emu[i]);
	fdx_line_free(l->line);
	if (l->pcap && emu_pcap_close(l->pcap))
		fprintf(stderr, "ethdrv segment: the capture was not closed cleanly\n");
	free(l);
}
