/* SPDX-License-Identifier: MIT */
/*
 * The link of `ethdrv segment --device emu:enet`, `emu:gbeth` or `emu:etsec`
 * (docs/design.md §5b): one full-duplex line (1000, 100 or 10 Mb/s) with its engine thread,
 * the two MAC models on its ports (NXP ENET, Renesas GbEth or Freescale eTSEC,
 * struct link_model), and the capture of what it carries.
 * This is the one place where the models and what joins them are made and
 * freed; the nodes only drive them (node_enet.c). The models outlive both
 * nodes, because a graceful stop needs the peer (docs/enet.md §4.3): stop
 * every node, then free the link.
 */
#ifndef ETHDRV_TOOLS_ENET_LINK_H
#define ETHDRV_TOOLS_ENET_LINK_H

#include "cli.h"
#include "emu/enet_emu.h"
#include "emu/gbeth_emu.h"

#define ENET_LINK_NODES 2 /* a point-to-point line has two ends */

struct emu_pcap;

/* One kind of MAC model on the link. */
struct link_model {
	const char *name; /* "ENET", "GbEth", "eTSEC": for messages */
	/** Create the model on @port with the spec's latency and enough DMA memory. */
	int (*create)(const struct cli_enet_spec *spec, struct fdx_line *line, unsigned port,
		      void **out);
	/** Free it (NULL is ignored). */
	void (*destroy)(void *emu);
};

extern const struct link_model link_model_enet; /* NXP ENET, driven by fec */
extern const struct link_model link_model_gbeth; /* Renesas GbEth, driven by ravb */
extern const struct link_model link_model_etsec; /* Freescale eTSEC, driven by gianfar */

struct enet_link {
	struct fdx_line *line; /* the wire and its engine */
	const struct link_model *model; /* what sits on its ports */
	void *emu[ENET_LINK_NODES]; /* the model on port K, for node K */
	struct emu_pcap *pcap; /* the capture, or NULL */
};

/**
 * enet_link_new() - the line and both models, as @spec asks
 * @model: the MAC model on both ports
 * @spec: speed, engine batch, register latency, bit error rate
 * @pcap_path: capture every frame of both directions to this file, or NULL
 * @out: receives the link
 *
 * Return: 0, or the -errno of the step that failed (nothing is left).
 * Context: the main thread, before the nodes start.
 */
int enet_link_new(const struct link_model *model, const struct cli_enet_spec *spec,
		  const char *pcap_path, struct enet_link **out);

/**
 * enet_link_free() - free the models, the line and the capture (NULL is ignored)
 * @l: the link; every node on it has stopped
 */
void enet_link_free(struct enet_link *l);

#endif /* ETHDRV_TOOLS_ENET_LINK_H */
