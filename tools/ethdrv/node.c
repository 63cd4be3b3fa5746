// SPDX-License-Identifier: MIT
/*
 * One interface (node.h), its lifecycle: the node thread, setup in order
 * (namespace, loop, pool, bus, device, TAP, watchers, control socket) and
 * teardown in reverse, and what the node answers on its control socket.
 * The frames, the faults and the metrics live in the units listed in
 * node_priv.h.
 */
#define _GNU_SOURCE /* gettid */
#include "node.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ctl.h"
#include "ethdrv/compiler.h"
#include "ethdrv/err.h"
#include "ethdrv/log.h"
#include "ethdrv/pkt.h"
#include "node_priv.h"
#include "phy_cmd.h"
#include "platform/linux/platform.h"
#include "trace_dir.h"

ETHDRV_LOG_MODULE(node);

/* TX queue (128) + RX in flight, with room to spare, and room for what the
 * fair queue holds (docs/fq.md §2) */
#define NODE_POOL_SIZE (512 + FQ_LIMIT_MAX)
#define NODE_MTU 1500

/* What lies under the driver, per device kind (node_priv.h). */
static const struct node_backend *const node_backends[CLI_DEV_KINDS] = {
	[CLI_DEV_EMU] = &node_lan865x_backend, [CLI_DEV_SPIDEV] = &node_lan865x_backend,
	[CLI_DEV_ENET] = &node_enet_backend,   [CLI_DEV_GBETH] = &node_gbeth_backend,
	[CLI_DEV_ETSEC] = &node_etsec_backend,
};

const struct node_backend *node_backend_at(unsigned i)
{
	for (unsigned k = 0; k < CLI_DEV_KINDS; k++) {
		bool seen = false;

		for (unsigned j = 0; j < k; j++)
			seen |= node_backends[j] == node_backends[k];
		if (node_backends[k] && !seen && !i--)
			return node_backends[k];
	}
	return NULL;
}

/* ---- control socket -------------------------------------------------- */

static int node_ctl_stats(void *arg, bool json, struct ctl_reply *r)
{
	enum ethdrv_stats_format fmt = json ? ETHDRV_STATS_JSON : ETHDRV_STATS_TEXT;
	struct node *n = arg;
	struct ethdrv_stats_set *set;
	char *p;
	int len;

	node_metrics_update(n);
	set = ethdrv_netdev_stats(n->dev);
	len = ethdrv_stats_dump(set, fmt, NULL, 0);
	if (len < 0)
		return len;
	p = ctl_reply_reserve(r, (size_t)len);
	if (!p)
		return -ENOMEM;
	ethdrv_stats_dump(set, fmt, p, (size_t)len + 1);
	if (json)
		ctl_reply_printf(r, "\n");
	return 0;
}

/* A knob: rt_* for the node's threads, emu.* for the model, anything else for the device. */
static int node_set_knob(struct node *n, const char *key, const char *value, const char **why)
{
	if (!strncmp(key, "rt_", 3))
		return node_rt_set_knob(n, key, value, why);
	if (!strncmp(key, "fq", 2))
		return node_fq_set(n, key, value);
	if (!strncmp(key, "tap_", 4)) {
		int err = tap_batch_set(&n->txb, key, value);

		return err == -ENOENT ? node_offload_set(n, key, value) : err;
	}
	if (node_ctx_is_key(key))
		return node_ctx_set_knob(n, key, value, why);
	if (!strcmp(key, "busy_poll") && n->ctx.irq && strcmp(value, "0")) {
		*why = "busy polling runs on the node's loop, not in contexts=irq: set "
		       "contexts=loop first";
		return -EBUSY;
	}
	if (!strcmp(key, "busy_poll") && node_rt_forbids_busy_poll(n, value, why))
		return -EBUSY;
	if (!strncmp(key, "emu.", 4))
		return n->backend->emu_set(n, key + 4, value);
	return ethdrv_netdev_set(n->dev, key, value);
}

/*
 * spi_trace from a client: only a file of the directory root chose at start
 * (trace_dir.h), or "off". The driver's knob takes a path, so it gets the
 * file just checked through its /proc/self/fd link: that names the open
 * file itself, not a path to look up in the directory again.
 */
static int node_ctl_set_trace(struct node *n, const char *value, const char **why)
{
	char path[40];
	int fd, err;

	if (!strcmp(value, "off"))
		return ethdrv_netdev_set(n->dev, "spi_trace", value);
	fd = trace_dir_create(n->trace_dir_fd, value, why);
	if (fd < 0)
		return fd;
	/* A NAME ending in .pcapng asks for pcapng (docs/spi-trace.md §1). */
	snprintf(path, sizeof(path), "%s/proc/self/fd/%d",
		 strlen(value) > 7 && !strcmp(value + strlen(value) - 7, ".pcapng") ? "pcapng:" :
										      "",
		 fd);
	err = ethdrv_netdev_set(n->dev, "spi_trace", path);
	close(fd);
	return err;
}

static int node_ctl_set(void *arg, const char *key, const char *value, const char **why)
{
	struct node *n = arg;
	char cur[8];

	if (!strcmp(key, "spi_trace") &&
	    ethdrv_netdev_get(n->dev, key, cur, sizeof(cur)) == -ENOENT)
		return -ENOENT; /* a device without an SPI bus */
	if (!strcmp(key, "spi_trace"))
		return node_ctl_set_trace(arg, value, why);
	return node_set_knob(arg, key, value, why);
}

static int node_ctl_get(void *arg, const char *key, char *buf, size_t size)
{
	struct node *n = arg;

	if (!strncmp(key, "rt_", 3))
		return node_rt_get_knob(n, key, buf, size);
	if (!strncmp(key, "fq", 2))
		return node_fq_get(n, key, buf, size);
	if (!strncmp(key, "tap_", 4)) {
		int err = tap_batch_get(&n->txb, key, buf, size);

		return err == -ENOENT ? node_offload_get(n, key, buf, size) : err;
	}
	if (node_ctx_is_key(key))
		return node_ctx_get_knob(n, key, buf, size);
	if (!strncmp(key, "emu.", 4))
		return n->backend->emu_get(n, key + 4, buf, size);
	return ethdrv_netdev_get(n->dev, key, buf, size);
}

/* What the probe found (the driver), then the bus and the model (the backend). */
static void node_info_device(struct node *n, struct ctl_reply *r)
{
	int len = ethdrv_driver_info(n->drv, n->dev, NULL, 0);
	char *p = len > 0 ? ctl_reply_reserve(r, (size_t)len) : NULL;

	if (p)
		ethdrv_driver_info(n->drv, n->dev, p, (size_t)len + 1);
	n->backend->info(n, r);
}

static int node_ctl_info(void *arg, struct ctl_reply *r)
{
	struct node *n = arg;
	const uint8_t *m = n->cfg.mac;
	char mode[96];

	ctl_reply_printf(r, "name=%s\ndevice=%s\ndriver=%s\nnetns=%s\n", n->cfg.ifname,
			 n->cfg.dev.spec, n->drv->name, n->cfg.netns);
	ctl_reply_printf(r, "addr=%s/%u\nmac=%02x:%02x:%02x:%02x:%02x:%02x\npid=%d\n", n->cfg.addr,
			 n->cfg.prefix, m[0], m[1], m[2], m[3], m[4], m[5], (int)getpid());
	ctl_reply_printf(r, "tap_writer=%s\n", tap_batch_mode(&n->txb, mode, sizeof(mode)));
	node_info_device(n, r);
	return 0;
}

/* `phy ...`: the device's PHY, here in the loop thread where it runs. */
static int node_ctl_phy(void *arg, int argc, char **argv, struct ctl_reply *r)
{
	struct node *n = arg;

	return phy_ctl_serve(n->dev, argc, argv, r);
}

size_t node_knob_tables(const struct node_backend *b, const struct ethdrv_driver *drv,
			const struct ethdrv_knob_table **out, size_t max)
{
	size_t i = 0;

	if (i < max)
		out[i++] = &ethdrv_netdev_knob_table;
	if (i < max)
		out[i++] = &node_rt_knob_table;
	if (i < max)
		out[i++] = &node_ctx_knob_table;
	if (i < max)
		out[i++] = &node_offload_knob_table;
	if (i < max)
		out[i++] = &tap_batch_knob_table;
	if (i < max)
		out[i++] = &node_fq_knob_table;
	for (const struct ethdrv_knob_table *const *t = drv ? drv->knobs : NULL; t && *t && i < max;
	     t++)
		out[i++] = *t;
	if (b->emu_knobs && i < max)
		out[i++] = b->emu_knobs;
	return i;
}

static size_t node_ctl_knobs(void *arg, const struct ethdrv_knob_table **out, size_t max)
{
	struct node *n = arg;

	return node_knob_tables(n->backend, n->drv, out, max);
}

static const struct ctl_ops node_ctl_ops = {
	.stats = node_ctl_stats,
	.set = node_ctl_set,
	.get = node_ctl_get,
	.info = node_ctl_info,
	.phy = node_ctl_phy,
	.knobs = node_ctl_knobs,
};

/* ---- setup and teardown ---------------------------------------------- */

/* Write "1" to a /proc/sys file of the calling thread's namespace. */
static void node_sysctl_one(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs("1", f) < 0 || fclose(f))
		ethdrv_warn(NULL, "%s: cannot write: %d", path, -errno);
}

/* The driver's arguments from the node's settings; the backend adds its bus. */
static void node_driver_args(struct node *n, struct ethdrv_driver_args *args)
{
	memset(args, 0, sizeof(*args));
	args->name = n->cfg.ifname;
	memcpy(args->mac, n->cfg.mac, sizeof(args->mac));
	args->loop = n->loop;
	args->phy_irq_fd = -1; /* none unless the backend has one */
}

/* Create the device on the backend's bus and open it with the configured knobs. */
static int node_dev_open(struct node *n)
{
	struct ethdrv_driver_args args;
	const char *why = NULL;
	unsigned i;
	int err;

	node_driver_args(n, &args);
	err = n->backend->open(n, &args);
	if (err) {
		ethdrv_err(NULL, "%s: device %s: %s", n->cfg.ifname, n->cfg.dev.spec,
			   ethdrv_strerror(err));
		return err;
	}
	/* --spi-trace FILE: the driver traces from its first transfer, the
	 * probe's (docs/spi-trace.md §1). */
	args.spi_trace = n->cfg.spi_trace;
	if (n->cfg.spi_trace && !args.spi) {
		ethdrv_err(NULL, "%s: --spi-trace: this device has no SPI bus", n->cfg.ifname);
		return -EOPNOTSUPP;
	}
	err = ethdrv_driver_create(n->drv, &args, &n->dev);
	if (err)
		return err;
	node_metrics_register(n);
	ethdrv_netdev_set_rx_handler(n->dev, node_rx, n);
	ethdrv_netdev_set_rx_flush_handler(n->dev, node_rx_flush, n);
	ethdrv_netdev_set_tx_wake_handler(n->dev, node_tx_wake, n);
	if (n->backend->configure && (err = n->backend->configure(n)))
		return err;
	ethdrv_netdev_set_carrier_handler(n->dev, node_carrier, n);
	err = ethdrv_netdev_open(n->dev);
	for (i = 0; !err && i < n->cfg.knob_count; i++) {
		err = node_set_knob(n, n->cfg.knobs[i].key, n->cfg.knobs[i].value, &why);
		if (err)
			ethdrv_err(n->dev, "knob %s=%s: %s", n->cfg.knobs[i].key,
				   n->cfg.knobs[i].value, why ? why : ethdrv_strerror(err));
	}
	return err;
}

/* Open the TAP and configure it: MAC, MTU, address, up; lo up. */
static int node_tap_open(struct node *n)
{
	unsigned flags = n->cfg.tap_exclusive ? ETHDRV_TAP_EXCL | ETHDRV_TAP_NO_PERSIST : 0;
	const char *ifname = n->cfg.ifname;
	int err;

	n->tap_vnet = n->backend->tap_offload;
	err = ethdrv_tap_open(ifname, flags | (n->tap_vnet ? ETHDRV_TAP_VNET_HDR : 0), &n->tap_fd);
	if (!err && n->tap_vnet)
		err = node_offload_open(n);
	if (err)
		return err;
	tap_batch_attach(&n->txb, n->tap_fd);
	err = ethdrv_link_set_mac(ifname, n->cfg.mac);
	if (!err)
		err = ethdrv_link_set_mtu(ifname, NODE_MTU);
	if (!err && n->cfg.addr[0])
		err = ethdrv_addr_add_ipv4(ifname, n->cfg.addr, n->cfg.prefix);
	if (!err)
		err = ethdrv_link_set_up(ifname, true);
	if (!err && n->cfg.netns[0])
		err = ethdrv_link_set_up("lo", true);
	if (!err)
		node_carrier(n, ethdrv_netdev_carrier_ok(n->dev)); /* as the PHY says by now */
	return err;
}

/* Watchers, timer and control socket of the loop. */
static int node_loop_setup(struct node *n)
{
	char path[108];
	int err;

	n->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (n->wake_fd < 0)
		return -errno;
	n->tap_watch.data = n;
	n->wake_watch.data = n;
	err = ethdrv_watch_start(n->loop, &n->wake_watch, n->wake_fd, ETHDRV_EV_READ, node_on_wake);
	if (!err)
		err = ethdrv_watch_start(n->loop, &n->tap_watch, n->tap_fd, ETHDRV_EV_READ,
					 node_on_tap);
	if (!err)
		err = ctl_sock_path(n->cfg.ifname, path, sizeof(path));
	if (!err)
		err = ctl_server_start(n->loop, path, &node_ctl_ops, n, &n->ctl);
	if (err == -EADDRINUSE)
		ethdrv_err(NULL, "%s: another ethdrv serves %s: stop it first", n->cfg.ifname,
			   path);
	return err;
}

/* Undo whatever node_setup() did, in reverse order, but for the loop (node_free()). */
static void node_teardown(struct node *n)
{
	ctl_server_stop(n->ctl);
	ethdrv_watch_stop(&n->tap_watch);
	ethdrv_watch_stop(&n->wake_watch);
	if (n->loop) {
		ethdrv_timer_stop(&n->retry); /* initialised right after the loop */
		ethdrv_timer_stop(&n->fault_timer);
		ethdrv_timer_stop(&n->rt_timer);
	}
	/* Stopped, the device polls no more: the packets the node holds go back
	 * to its pool (a DMA device's pool goes with the device). */
	if (n->dev)
		ethdrv_netdev_stop(n->dev);
	node_ctx_free(n); /* pollers back on the node's loop, softirq loops gone */
	if (n->tx_parked)
		ethdrv_pkt_free(n->tx_parked);
	if (n->txb_open)
		tap_batch_close(&n->txb); /* what the last poll left goes out, counted */
	node_fq_close(n);
	node_offload_close(n);
	ethdrv_netdev_destroy(n->dev);
	if (n->wake_fd >= 0)
		close(n->wake_fd);
	if (n->trace_dir_fd >= 0)
		close(n->trace_dir_fd);
	ethdrv_tap_close(n->tap_fd);
	n->backend->close(n);
	ethdrv_pkt_pool_free(n->pool);
}

/* Every setup step in order; the failing step is logged. */
static int node_setup(struct node *n)
{
	const char *why = NULL;
	int saved_fd, err = 0;

	if (n->cfg.trace_dir) {
		n->trace_dir_fd = trace_dir_open(n->cfg.trace_dir);
		if (n->trace_dir_fd < 0) {
			ethdrv_err(NULL, "%s: --trace-dir %s: %s", n->cfg.ifname, n->cfg.trace_dir,
				   ethdrv_strerror(n->trace_dir_fd));
			return n->trace_dir_fd;
		}
	}
	if (n->cfg.netns[0]) {
		err = ethdrv_netns_enter(n->cfg.netns, &saved_fd);
		if (err)
			return err;
		close(saved_fd); /* this thread never goes back */
	}
	/* ECN for the fair queue's CoDel to mark instead of drop (docs/fq.md §3) */
	if (n->cfg.netns[0])
		node_sysctl_one("/proc/sys/net/ipv4/tcp_ecn");
	if (n->cfg.disable_ipv6) {
		node_sysctl_one("/proc/sys/net/ipv6/conf/all/disable_ipv6");
		node_sysctl_one("/proc/sys/net/ipv6/conf/default/disable_ipv6");
	}
	err = ethdrv_loop_new(&n->loop);
	if (err)
		return err;
	ethdrv_timer_init(n->loop, &n->retry, node_on_retry);
	n->retry.data = n;
	ethdrv_timer_init(n->loop, &n->fault_timer, node_on_fault_timer);
	n->fault_timer.data = n;
	n->plan.fault = -1;
	node_rt_init(n);
	/* Before the bus and the device: the threads they start inherit it. */
	if (n->cfg.rt_prio && (err = node_rt_set(n, n->cfg.rt_prio, &why))) {
		ethdrv_err(NULL, "%s: --rt-prio %u: %s", n->cfg.ifname, n->cfg.rt_prio,
			   why ? why : ethdrv_strerror(err));
		return err;
	}
	tap_batch_init(&n->txb, node_tap_done, n);
	n->txb_open = true;
	err = node_fq_open(n);
	if (err)
		return err;
	err = ethdrv_pkt_pool_new(NODE_POOL_SIZE, &n->pool);
	if (!err && (err = node_dev_open(n)))
		ethdrv_err(NULL, "%s: driver bring-up: %s", n->cfg.ifname, ethdrv_strerror(err));
	if (!err && (err = node_tap_open(n)))
		ethdrv_err(NULL, "%s: tap: %s", n->cfg.ifname, ethdrv_strerror(err));
	if (!err)
		err = node_loop_setup(n);
	return err;
}

/* Name the loop thread after its interface and note its id (node_rt.c). */
static void node_thread_name(struct node *n)
{
	char name[32];

	snprintf(name, sizeof(name), "ethdrv/%s", n->cfg.ifname);
	name[15] = '\0'; /* the kernel keeps 15 characters of a thread name */
	prctl(PR_SET_NAME, name, 0UL, 0UL, 0UL);
	n->loop_tid = gettid();
}

static void *node_main(void *arg)
{
	struct node *n = arg;
	int err;

	node_thread_name(n);
	err = node_setup(n);

	pthread_mutex_lock(&n->lock);
	n->start_err = err;
	n->ready = true;
	pthread_cond_signal(&n->cond);
	pthread_mutex_unlock(&n->lock);
	if (!err)
		n->loop_err = ethdrv_loop_run(n->loop);
	node_teardown(n);
	return NULL;
}

/* Free what outlives the thread: the loop (stop may still be called on it). */
static void node_free(struct node *n)
{
	ethdrv_loop_free(n->loop);
	pthread_cond_destroy(&n->cond);
	pthread_mutex_destroy(&n->lock);
	free(n);
}

int node_start(const struct node_config *cfg, struct node **out)
{
	struct node *n = calloc(1, sizeof(*n));
	int err;

	if (!n)
		return -ENOMEM;
	n->cfg = *cfg;
	n->backend = (unsigned)cfg->dev.kind < CLI_DEV_KINDS ? node_backends[cfg->dev.kind] : NULL;
	n->drv = n->backend ? ethdrv_driver_find(n->backend->driver) : NULL;
	if (n->drv && cfg->dev.kind == CLI_DEV_EMU && cfg->dev.emu.linux_driver)
		n->drv = &node_linux_driver;
	if (!n->drv) {
		free(n);
		return -EINVAL;
	}
	n->tap_fd = -1;
	n->wake_fd = -1;
	n->trace_dir_fd = -1;
	pthread_mutex_init(&n->lock, NULL);
	pthread_cond_init(&n->cond, NULL);
	err = -pthread_create(&n->thread, NULL, node_main, n);
	if (err)
		goto err_free;
	pthread_mutex_lock(&n->lock);
	while (!n->ready)
		pthread_cond_wait(&n->cond, &n->lock);
	err = n->start_err;
	pthread_mutex_unlock(&n->lock);
	if (err) {
		pthread_join(n->thread, NULL);
		goto err_free;
	}
	*out = n;
	return 0;

err_free:
	node_free(n);
	return err;
}

bool node_carrier_ok(const struct node *n)
{
	return n->dev && ethdrv_netdev_carrier_ok(n->dev);
}

void node_stop(struct node *n)
{
	if (!n)
		return;
	ethdrv_loop_stop(n->loop);
	pthread_join(n->thread, NULL);
	if (n->loop_err)
		ethdrv_err(NULL, "%s: loop ended: %s", n->cfg.ifname, ethdrv_strerror(n->loop_err));
	node_free(n);
}
