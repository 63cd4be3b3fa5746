/* SPDX-License-Identifier: MIT */
/*
 * kshim: the kernel interfaces Linux's oa_tc6.c, lan865x.c and
 * microchip_t1s.c call, implemented in user space over ethdrv's SPI bus
 * (the LAN8650 model or spidev), threads and the host's packet path.
 * Written from the kernel's documented API (Documentation/driver-api,
 * Documentation/networking, the kernel-doc of each function), not from its
 * code; only what those files use is declared (linux-shim/README.md).
 *
 * Every <linux/...> header the kernel files include is a one-line file in
 * include/linux that includes this one.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types and bit helpers (Documentation/core-api) ---- */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef uint32_t __be32;
typedef uint16_t __be16;
typedef unsigned int gfp_t;

#define GFP_KERNEL 0u
#define __maybe_unused __attribute__((unused))
#define BIT(n) (1UL << (n))
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (sizeof(long) * 8 - 1 - (h))))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FIELD_GET(mask, reg) \
	((__typeof__(mask))(((reg) & (mask)) >> __builtin_ctzll((unsigned long long)(mask))))
#define FIELD_PREP(mask, val) \
	((__typeof__(mask))(((unsigned long long)(val) << __builtin_ctzll(mask)) & (mask)))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define be32_to_cpu(x) __builtin_bswap32(x)
#define cpu_to_be32(x) __builtin_bswap32(x)
#define cpu_to_be16(x) __builtin_bswap16(x)
#define be16_to_cpu(x) __builtin_bswap16(x)

/* Module and export markers: nothing to do in one program. */
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_DESCRIPTION(s)
#define MODULE_AUTHOR(s)
#define MODULE_LICENSE(s)
#define MODULE_DEVICE_TABLE(type, name)

/* ---- printing (Documentation/core-api/printk-basics.rst) ---- */
struct device;
struct net_device;
struct phy_device;
void kshim_log(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kshim_log_ratelimited(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *dev_name(const struct device *dev);
const char *kshim_netdev_name(const struct net_device *dev);
#define dev_err(dev, ...) kshim_log(dev_name(dev), __VA_ARGS__)
#define dev_info(dev, ...) kshim_log(dev_name(dev), __VA_ARGS__)
#define netdev_err(nd, ...) kshim_log(kshim_netdev_name(nd), __VA_ARGS__)
#define netdev_info(nd, ...) kshim_log(kshim_netdev_name(nd), __VA_ARGS__)
#define phydev_err(phy, ...) kshim_log("phy", __VA_ARGS__)
#define net_err_ratelimited(...) kshim_log_ratelimited(__VA_ARGS__)
#define lockdep_assert_held(l) ((void)(l))

/* ---- time (Documentation/timers/delay_sleep_functions.rst) ---- */
u64 kshim_now_us(void);
void udelay(unsigned long us);
void usleep_range(unsigned long min, unsigned long max);
void msleep(unsigned int ms);
/* <linux/iopoll.h>: read with @op until @cond or @timeout_us (0 = never),
 * sleeping @sleep_us between reads; 0 or -ETIMEDOUT, @val holds the last read. */
#define readx_poll_timeout(op, addr, val, cond, sleep_us, timeout_us)           \
	({                                                                      \
		u64 kshim_deadline_ = kshim_now_us() + (timeout_us);            \
		for (;;) {                                                      \
			(val) = op(addr);                                       \
			if (cond)                                               \
				break;                                          \
			if ((timeout_us) && kshim_now_us() > kshim_deadline_) { \
				(val) = op(addr);                               \
				break;                                          \
			}                                                       \
			if (sleep_us)                                           \
				usleep_range((sleep_us), (sleep_us));           \
		}                                                               \
		(cond) ? 0 : -ETIMEDOUT;                                        \
	})

/* ---- locks (Documentation/locking) ---- */
struct mutex {
	pthread_mutex_t m;
};
typedef struct {
	pthread_mutex_t m;
} spinlock_t;
void mutex_init(struct mutex *l);
void mutex_lock(struct mutex *l);
void mutex_unlock(struct mutex *l);
void spin_lock_init(spinlock_t *l);
void spin_lock_bh(spinlock_t *l);
void spin_unlock_bh(spinlock_t *l);

/* ---- devices and managed memory (Documentation/driver-api/driver-model) ---- */
struct kshim_devres;
struct device {
	char name[32];
	struct kshim_devres *devres; /* devm_ allocations, freed at release */
	const u8 *mac; /* the "local-mac-address" property, or NULL */
	void *drvdata;
};
void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp);
int device_get_ethdev_address(struct device *dev, struct net_device *netdev);

/* ---- work (Documentation/core-api/workqueue.rst) ---- */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	work_func_t func;
	struct work_struct *next; /* on the queue */
	bool queued;
};
#define INIT_WORK(w, f)              \
	do {                         \
		(w)->func = (f);     \
		(w)->next = NULL;    \
		(w)->queued = false; \
	} while (0)
bool schedule_work(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);

/* ---- interrupts (Documentation/core-api/genericirq.rst) ---- */
typedef enum irqreturn { IRQ_NONE = 0, IRQ_HANDLED = 1, IRQ_WAKE_THREAD = 2 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *data);
#define IRQF_TRIGGER_RISING 0x1u
#define IRQF_TRIGGER_FALLING 0x2u
#define IRQF_TRIGGER_HIGH 0x4u
#define IRQF_TRIGGER_LOW 0x8u
#define IRQF_ONESHOT 0x2000u
int devm_request_threaded_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			      irq_handler_t thread_fn, unsigned long flags, const char *name,
			      void *data);
int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
		     unsigned long flags, const char *name, void *data);
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name,
		void *data);
void free_irq(unsigned int irq, void *data);
void disable_irq(unsigned int irq);
void disable_irq_nosync(unsigned int irq);
void enable_irq(unsigned int irq);
void irq_wake_thread(unsigned int irq, void *data);

/* ---- SPI (Documentation/spi/spi-summary.rst) ---- */
struct ethdrv_spi_bus;
struct spi_device {
	struct device dev;
	int irq;
	bool rt;
	const struct ethdrv_spi_bus *bus; /* where spi_sync() goes */
};
struct spi_transfer {
	const void *tx_buf;
	void *rx_buf;
	unsigned int len;
	struct spi_transfer *kshim_next;
};
struct spi_message {
	struct spi_transfer *first, *last;
};
struct spi_device_id {
	char name[32];
};
struct of_device_id {
	char compatible[128];
};
struct device_driver {
	const char *name;
	const struct of_device_id *of_match_table;
};
struct spi_driver {
	struct device_driver driver;
	int (*probe)(struct spi_device *spi);
	void (*remove)(struct spi_device *spi);
	const struct spi_device_id *id_table;
};
void spi_message_init(struct spi_message *m);
void spi_message_add_tail(struct spi_transfer *t, struct spi_message *m);
int spi_sync(struct spi_device *spi, struct spi_message *m);
int spi_setup(struct spi_device *spi);
static inline void spi_set_drvdata(struct spi_device *spi, void *d)
{
	spi->dev.drvdata = d;
}
static inline void *spi_get_drvdata(struct spi_device *spi)
{
	return spi->dev.drvdata;
}
/* The one SPI driver of the program (module_spi_driver()). */
extern struct spi_driver *const kshim_spi_driver;
#define module_spi_driver(drv) struct spi_driver *const kshim_spi_driver = &(drv)

/* ---- Ethernet, sk_buff and net_device (Documentation/networking) ---- */
#define ETH_ALEN 6
#define ETH_HLEN 14
#define ETH_FCS_LEN 4
#define MAX_ADDR_LEN 32
#define NET_IP_ALIGN 2
#define IFNAMSIZ 16
#define IFF_PROMISC 0x100u
#define IFF_ALLMULTI 0x200u
#define IF_PORT_10BASET 3
#define NETIF_F_RXFCS (1ULL << 40)
typedef enum netdev_tx { NETDEV_TX_OK = 0x00, NETDEV_TX_BUSY = 0x10 } netdev_tx_t;

struct sk_buff {
	u8 *head, *data;
	unsigned int len;
	unsigned int size; /* bytes at head */
	__be16 protocol;
	u16 mac_len; /* bytes eth_type_trans() pulled */
	struct net_device *dev;
};
struct sk_buff *netdev_alloc_skb_ip_align(struct net_device *dev, unsigned int len);
struct sk_buff *kshim_alloc_skb(unsigned int len);
void kfree_skb(struct sk_buff *skb);
void dev_kfree_skb_any(struct sk_buff *skb);
void *skb_put(struct sk_buff *skb, unsigned int len);
void skb_trim(struct sk_buff *skb, unsigned int len);
int skb_tailroom(const struct sk_buff *skb);
static inline int skb_linearize(struct sk_buff *skb)
{
	(void)skb;
	return 0; /* our skbs are always linear */
}

struct sockaddr {
	unsigned short sa_family;
	char sa_data[14];
};
struct netdev_hw_addr {
	unsigned char addr[MAX_ADDR_LEN];
	struct netdev_hw_addr *kshim_next;
};
struct net_device_stats {
	unsigned long rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors;
	unsigned long rx_dropped, tx_dropped;
};
struct ifreq;
struct ethtool_link_ksettings {
	struct {
		u32 speed;
		u8 duplex, port, phy_address, autoneg;
	} base;
};
struct net_device_ops {
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	void (*ndo_set_rx_mode)(struct net_device *dev);
	int (*ndo_set_mac_address)(struct net_device *dev, void *addr);
	int (*ndo_eth_ioctl)(struct net_device *dev, struct ifreq *ifr, int cmd);
};
struct ethtool_ops {
	int (*get_link_ksettings)(struct net_device *dev, struct ethtool_link_ksettings *ks);
	int (*set_link_ksettings)(struct net_device *dev, const struct ethtool_link_ksettings *ks);
};
struct kshim_netdev_host; /* the host side (kshim_host.c) */
struct net_device {
	char name[IFNAMSIZ];
	struct net_device_stats stats;
	u64 features;
	unsigned int mtu;
	unsigned int flags;
	unsigned char dev_addr[MAX_ADDR_LEN];
	struct phy_device *phydev;
	unsigned char if_port;
	int irq;
	const struct net_device_ops *netdev_ops;
	const struct ethtool_ops *ethtool_ops;
	struct device *parent;
	struct netdev_hw_addr *mc_list;
	unsigned int mc_count;
	struct kshim_netdev_host *host;
	void *priv;
};
#define SET_NETDEV_DEV(nd, d) ((nd)->parent = (d))
#define netdev_for_each_mc_addr(ha, nd) for ((ha) = (nd)->mc_list; (ha); (ha) = (ha)->kshim_next)
#define netdev_mc_empty(nd) ((nd)->mc_count == 0)
static inline void *netdev_priv(const struct net_device *dev)
{
	return dev->priv;
}
struct net_device *alloc_etherdev(int sizeof_priv);
void free_netdev(struct net_device *dev);
int register_netdev(struct net_device *dev);
void unregister_netdev(struct net_device *dev);
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev);
int netif_rx(struct sk_buff *skb);
void netif_start_queue(struct net_device *dev);
void netif_stop_queue(struct net_device *dev);
void netif_wake_queue(struct net_device *dev);
bool netif_queue_stopped(const struct net_device *dev);
void netif_tx_disable(struct net_device *dev);
void eth_hw_addr_random(struct net_device *dev);
int eth_prepare_mac_addr_change(struct net_device *dev, void *p);
void eth_commit_mac_addr_change(struct net_device *dev, void *p);
static inline bool ether_addr_equal(const u8 *a, const u8 *b)
{
	return memcmp(a, b, ETH_ALEN) == 0;
}

/* ---- MDIO and phylib (Documentation/networking/phy.rst) ---- */
#define MII_BUS_ID_SIZE 61
#define PHY_MAX_ADDR 32
#define MDIO_MMD_PMAPMD 1
#define MDIO_MMD_PCS 3
#define MDIO_MMD_AN 7
#define MDIO_MMD_POWER_UNIT 13
#define MDIO_MMD_VEND2 31
#define SPEED_10 10
#define DUPLEX_HALF 0x00
#define DUPLEX_FULL 0x01
#define AUTONEG_DISABLE 0x00
#define PHY_ID_MATCH_EXACT(id) .phy_id = (id), .phy_id_mask = 0xffffffffu
typedef enum { PHY_INTERFACE_MODE_NA, PHY_INTERFACE_MODE_INTERNAL } phy_interface_t;

struct mii_bus {
	const char *name;
	char id[MII_BUS_ID_SIZE];
	void *priv;
	int (*read)(struct mii_bus *bus, int addr, int regnum);
	int (*write)(struct mii_bus *bus, int addr, int regnum, u16 val);
	int (*read_c45)(struct mii_bus *bus, int addr, int devnum, int regnum);
	int (*write_c45)(struct mii_bus *bus, int addr, int devnum, int regnum, u16 val);
	struct device *parent;
	u32 phy_mask; /* addresses not to scan */
	struct mutex mdio_lock;
	struct phy_device *phys[PHY_MAX_ADDR];
};
struct mdio_device {
	struct mii_bus *bus;
	int addr;
};
struct mdio_device_id {
	u32 phy_id;
	u32 phy_id_mask;
};
/* ethtool's PLCA settings (Documentation/networking/ethtool-netlink.rst
 * PLCA_GET_CFG/PLCA_SET_CFG): -1 = not set / leave alone. */
struct phy_plca_cfg {
	int version, enabled, node_id, node_cnt, to_tmr, burst_cnt, burst_tmr;
};
struct phy_plca_status {
	bool pst;
};
struct phy_driver {
	u32 phy_id;
	u32 phy_id_mask;
	const char *name;
	const unsigned long *features;
	int (*config_init)(struct phy_device *phydev);
	int (*read_status)(struct phy_device *phydev);
	int (*read_mmd)(struct phy_device *phydev, int devnum, u16 regnum);
	int (*write_mmd)(struct phy_device *phydev, int devnum, u16 regnum, u16 val);
	int (*get_plca_cfg)(struct phy_device *phydev, struct phy_plca_cfg *cfg);
	int (*set_plca_cfg)(struct phy_device *phydev, const struct phy_plca_cfg *cfg);
	int (*get_plca_status)(struct phy_device *phydev, struct phy_plca_status *st);
};
struct phy_device {
	struct mdio_device mdio;
	const struct phy_driver *drv;
	u32 phy_id;
	bool is_internal;
	int link, speed, duplex, autoneg;
	bool started;
	struct net_device *attached_dev;
	void (*adjust_link)(struct net_device *dev);
	phy_interface_t interface;
};
extern const unsigned long kshim_phy_t1s_p2mp_features[1];
#define PHY_BASIC_T1S_P2MP_FEATURES (kshim_phy_t1s_p2mp_features)
/* The PHY drivers of the program (module_phy_driver()). */
extern struct phy_driver *const kshim_phy_drivers;
extern const size_t kshim_phy_driver_count;
#define module_phy_driver(drvs)                              \
	struct phy_driver *const kshim_phy_drivers = (drvs); \
	const size_t kshim_phy_driver_count = ARRAY_SIZE(drvs)

struct mii_bus *mdiobus_alloc(void);
void mdiobus_free(struct mii_bus *bus);
int mdiobus_register(struct mii_bus *bus);
void mdiobus_unregister(struct mii_bus *bus);
int __mdiobus_c45_read(struct mii_bus *bus, int addr, int devnum, u32 regnum);
int __mdiobus_c45_write(struct mii_bus *bus, int addr, int devnum, u32 regnum, u16 val);
struct phy_device *phy_find_first(struct mii_bus *bus);
int phy_connect_direct(struct net_device *dev, struct phy_device *phydev,
		       void (*handler)(struct net_device *), phy_interface_t interface);
void phy_disconnect(struct phy_device *phydev);
void phy_attached_info(struct phy_device *phydev);
void phy_print_status(struct phy_device *phydev);
void phy_start(struct phy_device *phydev);
void phy_stop(struct phy_device *phydev);
int phy_read_mmd(struct phy_device *phydev, int devnum, u32 regnum);
int phy_write_mmd(struct phy_device *phydev, int devnum, u32 regnum, u16 val);
int phy_modify_mmd(struct phy_device *phydev, int devnum, u32 regnum, u16 mask, u16 set);
int genphy_c45_plca_get_cfg(struct phy_device *phydev, struct phy_plca_cfg *cfg);
int genphy_c45_plca_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *cfg);
int genphy_c45_plca_get_status(struct phy_device *phydev, struct phy_plca_status *st);
int phy_ethtool_get_link_ksettings(struct net_device *dev, struct ethtool_link_ksettings *ks);
int phy_ethtool_set_link_ksettings(struct net_device *dev, const struct ethtool_link_ksettings *ks);
int phy_do_ioctl_running(struct net_device *dev, struct ifreq *ifr, int cmd);

#endif /* KSHIM_H */
