/* SPDX-License-Identifier: MIT */
/*
 * One interface of the ethdrv command (docs/design.md §4): a thread with
 * its own event loop that enters the interface's network namespace, brings
 * up its device (a LAN8650/1 model on a medium or on a real board, or an
 * ENET model on its link) through the driver registry, opens the TAP, configures it over rtnetlink, bridges frames between the two, and
 * serves the control socket /run/ethdrv/<ifname>.sock (ctl.h). Knob changes
 * from the socket therefore run in the loop thread, as the core requires.
 */
#ifndef ETHDRV_TOOLS_NODE_H
#define ETHDRV_TOOLS_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "drivers/lan865x.h"

struct emu_medium;
struct enet_emu;
struct gbeth_emu;
struct etsec_emu;
struct node;

/* What one node is made of; copied by node_start(). */
struct node_config {
	unsigned index; /* node number: model id and log tag */
	char ifname[16]; /* TAP name, "t1s0" */
	char netns[64]; /* namespace to run in; "" = the caller's */
	char addr[16]; /* IPv4 address "A.B.C.D", "" = none */
	unsigned prefix; /* its prefix length */
	uint8_t mac[6]; /* station address for the TAP and the driver */
	struct cli_device dev; /* the device */
	struct lan865x_plca plca; /* LAN8650: initial PLCA settings */
	struct emu_medium *medium; /* emu: the medium to attach to, or NULL */
	unsigned port; /* emu: the medium port */
	struct enet_emu *enet; /* emu:enet: the model to drive, on its link (enet_link.h);
				  the caller frees it after node_stop() */
	struct gbeth_emu *gbeth; /* emu:gbeth: likewise */
	struct etsec_emu *etsec; /* emu:etsec: the same for an eTSEC model */
	bool tap_exclusive; /* fail if the TAP exists; create it non-persistent */
	bool disable_ipv6; /* no IPv6 in the namespace (no MLD/RS noise on the wire) */
	const char *spi_trace; /* file for the SPI trace, or NULL */
	const char *trace_dir; /* where run-time spi_trace files go, or NULL (trace_dir.h) */
	unsigned rt_prio; /* SCHED_FIFO priority of the node's threads, 0 = none (rt.h) */
	struct cli_knob knobs[CLI_KNOBS_MAX]; /* knobs applied after open */
	unsigned knob_count; /* entries in knobs */
};

/**
 * node_start() - start a node thread and wait until it is up
 * @cfg: the node; copied (strings in knobs, spi_trace and trace_dir must outlive
 *       the node)
 * @out: receives the node
 *
 * Return: 0, or the -errno of the first step that failed (one log line says
 * which); the thread has then exited and nothing is left behind.
 * Context: the main thread; SIGINT/SIGTERM should be blocked first so that
 * only the main thread takes them.
 */
int node_start(const struct node_config *cfg, struct node **out);

/**
 * node_stop() - stop the node's loop, wait for its thread, free everything
 * @n: the node, or NULL
 *
 * The TAP closes (and, being non-persistent, vanishes), the control socket
 * is unlinked, the device and model are freed. A loop that had ended on
 * its own with an error is logged here.
 */
void node_stop(struct node *n);

/**
 * node_carrier_ok() - true while the node's device has carrier (its PHY's
 * link, docs/mdio.md §11.4), as the TAP shows it
 * @n: a started node
 *
 * Context: any thread.
 */
bool node_carrier_ok(const struct node *n);

#endif /* ETHDRV_TOOLS_NODE_H */
