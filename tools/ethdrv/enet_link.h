/* SPDX-License-Identifier: MIT */
/*
 * The ENET link of `ethdrv segment --device emu:enet`
 * (docs/design.md §5b): one full-duplex line (1000, 100 or 10 Mb/s) with its engine thread,
 * the two ENET models on its ports, and the capture of what it carries.
 * This is the one place where the models and what joins them are made and
 * freed; the nodes only drive them (node_enet.c). The models outlive both
 * nodes, because a graceful stop needs the peer (docs/enet.md §4.3): stop
 * every node, then free the link.
 */
#ifndef ETHDRV_TOOLS_ENET_LINK_H
#define ETHDRV_TOOLS_ENET_LINK_H

#include "cli.h"
#include "emu/enet_emu.h"

#define ENET_LINK_NODES 2 /* a point-to-point line has two ends */

struct emu_pcap;

struct enet_link {
	struct fdx_line *line; /* the wire and its engine */
	struct enet_emu *emu[ENET_LINK_NODES]; /* the model on port K, for node K */
	struct emu_pcap *pcap; /* the capture, or NULL */
};

/**
 * enet_link_new() - the line and both models, as @spec asks
 * @spec: speed, engine batch, register latency, bit error rate
 * @pcap_path: capture every frame of both directions to this file, or NULL
 * @out: receives the link
 *
 * Return: 0, or the -errno of the step that failed (nothing is left).
 * Context: the main thread, before the nodes start.
 */
int enet_link_new(const struct cli_enet_spec *spec, const char *pcap_path, struct enet_link **out);

/**
 * enet_link_free() - free the models, the line and the capture (NULL is ignored)
 * @l: the link; every node on it has stopped
 */
void enet_link_free(struct enet_link *l);

#endif /* ETHDRV_TOOLS_ENET_LINK_H */
