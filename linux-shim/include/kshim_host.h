/* SPDX-License-Identifier: MIT */
/*
 * The host side of kshim: what a program that runs Linux's lan865x driver
 * calls (probe, open, transmit, counters, PLCA, remove) and what it gets
 * (received frames, the driver's messages). Uses no kernel type a caller
 * must know; the driver's own net_device counters come as a plain struct.
 */
#ifndef KSHIM_HOST_H
#define KSHIM_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ethdrv_spi_bus;
struct kshim_lan865x;

struct kshim_host_cfg {
	const struct ethdrv_spi_bus *bus; /* the SPI device: the model or spidev */
	const char *name; /* netdev name ("eth%d" if NULL) */
	const uint8_t *mac; /* the DT "local-mac-address" property, or NULL (random) */
	/* netif_rx(): the frame as the driver hands it up (no FCS). */
	void (*rx)(void *ctx, const uint8_t *frame, size_t len);
	/* netif_wake_queue(): the driver has room again (any thread); may be NULL. */
	void (*tx_wake)(void *ctx);
	void *ctx;
};

/* The net_device counters the driver keeps (struct net_device_stats). */
struct kshim_netdev_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped, tx_dropped;
	uint64_t xmit_busy; /* ndo_start_xmit returned NETDEV_TX_BUSY (requeued) */
	uint64_t messages; /* lines the driver printed */
};

struct kshim_plca {
	int enabled, node_id, node_cnt, to_tmr, burst_cnt, burst_tmr; /* -1 = unchanged */
};

/* Probe the SPI driver (lan865x_probe: oa_tc6_init, PHY, AN1760). 0 or -errno. */
int kshim_lan865x_probe(const struct kshim_host_cfg *cfg, struct kshim_lan865x **out);
/* ndo_open / ndo_stop. */
int kshim_lan865x_open(struct kshim_lan865x *k);
int kshim_lan865x_stop(struct kshim_lan865x *k);
/* dev_queue_xmit(): waits up to @timeout_ms while the queue is stopped.
 * 0, -ETIMEDOUT (-EAGAIN with @timeout_ms 0), -ENOMEM, or -ENETDOWN after
 * the driver disabled traffic. */
int kshim_lan865x_xmit(struct kshim_lan865x *k, const uint8_t *frame, size_t len, int timeout_ms);
/* ndo_set_rx_mode with IFF_PROMISC / IFF_ALLMULTI (runs in the driver's work). */
void kshim_lan865x_set_rx_mode(struct kshim_lan865x *k, bool promisc, bool allmulti);
bool kshim_lan865x_queue_stopped(struct kshim_lan865x *k);
void kshim_lan865x_stats(struct kshim_lan865x *k, struct kshim_netdev_stats *st);
const char *kshim_lan865x_name(struct kshim_lan865x *k);
void kshim_lan865x_mac(struct kshim_lan865x *k, uint8_t mac[6]);
/* ethtool --set-plca-cfg / --get-plca-cfg through the PHY driver. */
int kshim_lan865x_set_plca(struct kshim_lan865x *k, const struct kshim_plca *p);
int kshim_lan865x_get_plca(struct kshim_lan865x *k, struct kshim_plca *p);
/* ethtool's link settings through the driver's ethtool_ops (get_link_ksettings):
 * the link as phylib has it, speed in Mb/s, full duplex or not. 0 or -errno. */
int kshim_lan865x_get_link(struct kshim_lan865x *k, bool *up, unsigned *speed, bool *full);
/* A host late to service IRQ_N: each time the line fires, the IRQ thread
 * sleeps @us first (0 = off), as irq_delay_us does for ethdrv's driver. */
void kshim_lan865x_set_irq_delay(struct kshim_lan865x *k, unsigned us);
/* The PHY driver bound by ID ("" if genphy), and its PHY ID. */
const char *kshim_lan865x_phy_driver(struct kshim_lan865x *k, uint32_t *phy_id);
/* remove(): unregister, oa_tc6_exit, free; NULL is ignored. */
void kshim_lan865x_remove(struct kshim_lan865x *k);

/* Every line the kernel code prints goes to @fn (and to stderr unless
 * @quiet); NULL restores stderr only. */
void kshim_set_log(void (*fn)(void *ctx, const char *line), void *ctx, bool quiet);

/* Where the kernel files came from (the origin line of linux-src/SOURCE). */
extern const char kshim_linux_origin[];

/*
 * The plugin (liblinux-lan865x.so): the calls above in one table, the only
 * symbol a program that dlopen()s it looks up (KSHIM_HOST_OPS_SYMBOL).
 */
#define KSHIM_HOST_OPS_SYMBOL "kshim_host_ops"
#define KSHIM_HOST_OPS_VERSION 1
struct kshim_host_ops {
	unsigned version; /* KSHIM_HOST_OPS_VERSION */
	const char *origin; /* kshim_linux_origin */
	int (*probe)(const struct kshim_host_cfg *cfg, struct kshim_lan865x **out);
	int (*open)(struct kshim_lan865x *k);
	int (*stop)(struct kshim_lan865x *k);
	int (*xmit)(struct kshim_lan865x *k, const uint8_t *frame, size_t len, int timeout_ms);
	bool (*queue_stopped)(struct kshim_lan865x *k);
	void (*set_rx_mode)(struct kshim_lan865x *k, bool promisc, bool allmulti);
	void (*stats)(struct kshim_lan865x *k, struct kshim_netdev_stats *st);
	int (*set_plca)(struct kshim_lan865x *k, const struct kshim_plca *p);
	int (*get_plca)(struct kshim_lan865x *k, struct kshim_plca *p);
	const char *(*phy_driver)(struct kshim_lan865x *k, uint32_t *phy_id);
	int (*get_link)(struct kshim_lan865x *k, bool *up, unsigned *speed, bool *full);
	void (*set_irq_delay)(struct kshim_lan865x *k, unsigned us);
	void (*remove)(struct kshim_lan865x *k);
	void (*set_log)(void (*fn)(void *ctx, const char *line), void *ctx, bool quiet);
};

#endif /* KSHIM_HOST_H */
