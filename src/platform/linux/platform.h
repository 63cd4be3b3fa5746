/* SPDX-License-Identifier: MIT */
/*
 * Linux platform layer (docs/style.md S1, S6): TAP devices, network namespaces and
 * links over rtnetlink, the spidev SPI bus and the GPIO IRQ_N line of real
 * boards. Internal to ethdrv: the core, the tests and the ethdrv command use
 * it; drivers never do (they only see struct ethdrv_spi_bus). The .c files
 * behind it are the only ones that include Linux headers.
 *
 * Every call returns 0 (or a count or fd where stated) or a negative errno,
 * and logs one line naming the object and what to do on each error a user
 * can fix (missing device, permissions, busy line).
 */
#ifndef ETHDRV_PLATFORM_LINUX_PLATFORM_H
#define ETHDRV_PLATFORM_LINUX_PLATFORM_H

#include <sys/uio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ethdrv_spi_bus;

#define ETHDRV_IFNAMSIZ 16 /* IFNAMSIZ: interface names have at most 15 chars */
#define ETHDRV_NETNS_DIR "/run/netns" /* where named namespaces live (iproute2) */
#define ETHDRV_NETNS_NAME_MAX 64 /* longest namespace name we accept, with NUL */

/* ---- TAP (tap.c) -------------------------------------------------------- */

#define ETHDRV_TAP_EXCL 0x1u /* fail with -EBUSY if the TAP already exists (IFF_TUN_EXCL) */
#define ETHDRV_TAP_NO_PERSIST 0x2u /* clear the persist flag: the TAP vanishes on close */
#define ETHDRV_TAP_VNET_HDR 0x4u /* every frame is preceded by a struct virtio_net_hdr */

/* Offloads the kernel may use on frames it sends into the TAP (TUNSETOFFLOAD). */
#define ETHDRV_TAP_OFF_CSUM 0x1u /* checksums left partial (VIRTIO_NET_HDR_F_NEEDS_CSUM) */
#define ETHDRV_TAP_OFF_TSO4 0x2u /* TCP/IPv4 frames up to 64 KiB (needs CSUM) */
#define ETHDRV_TAP_OFF_TSO6 0x4u /* TCP/IPv6 frames up to 64 KiB (needs CSUM) */
#define ETHDRV_TAP_OFF_TSO_ECN 0x8u /* TSO frames with ECN set (needs TSO4 or TSO6) */

/**
 * ethdrv_tap_open() - attach to or create a TAP interface
 * @name: interface name, 1..15 chars
 * @flags: ETHDRV_TAP_* bits
 * @fd_out: the non-blocking, close-on-exec TAP fd on success
 *
 * Opens /dev/net/tun and issues TUNSETIFF with IFF_TAP | IFF_NO_PI (and
 * IFF_VNET_HDR with ETHDRV_TAP_VNET_HDR: then every read returns, and every
 * write must start with, a 10-byte struct virtio_net_hdr in the host's byte
 * order) in the calling thread's network namespace. A persistent TAP of that name (made
 * with `ip tuntap add dev NAME mode tap user U`) is attached to, which needs
 * no privilege for its owner (lwIP PRECONFIGURED_TAPIF); otherwise a new,
 * non-persistent TAP is created, which needs CAP_NET_ADMIN. The TAP's own MAC
 * is the kernel side's address and is left alone.
 *
 * Return: 0; -EINVAL for a bad name or flags; -ENOENT without /dev/net/tun;
 * -EACCES or -EPERM without permission; -EBUSY if it exists and
 * ETHDRV_TAP_EXCL is set (or another process holds it); other -errno of
 * open(2)/ioctl(2). The fd is closed on every failure.
 * Context: any thread; the TAP lands in that thread's network namespace.
 */
int ethdrv_tap_open(const char *name, unsigned flags, int *fd_out);

/**
 * ethdrv_tap_read() - read one frame from a TAP fd
 * @fd: a TAP fd from ethdrv_tap_open()
 * @buf: room for the frame
 * @size: bytes of @buf; a longer frame is truncated by the kernel
 *
 * Return: the frame length, -EAGAIN if no frame is queued, or -errno.
 */
ssize_t ethdrv_tap_read(int fd, void *buf, size_t size);

/**
 * ethdrv_tap_write() - hand one frame to the kernel through a TAP fd
 * @fd: a TAP fd
 * @frame: an Ethernet frame without FCS
 * @len: its length
 *
 * Return: 0; -EIO if the kernel took fewer than @len bytes; -EAGAIN; -EINVAL
 * for a malformed frame; or another -errno of write(2).
 */
int ethdrv_tap_write(int fd, const void *frame, size_t len);

/**
 * ethdrv_tap_readv() - read one frame into several buffers (readv(2))
 * @fd: a TAP fd
 * @iov: the buffers, filled in order
 * @iovcnt: how many, 1..IOV_MAX
 *
 * Return: the bytes read (header and frame), -EAGAIN if no frame is queued,
 * or -errno.
 */
ssize_t ethdrv_tap_readv(int fd, const struct iovec *iov, int iovcnt);

/**
 * ethdrv_tap_writev() - hand one frame, gathered from several buffers, to
 * the kernel (writev(2)): with ETHDRV_TAP_VNET_HDR a header, then the frame
 * @fd: a TAP fd
 * @iov: the pieces
 * @iovcnt: how many, 1..IOV_MAX
 *
 * Return: 0; -EIO if the kernel took fewer bytes than given; -EAGAIN;
 * -EINVAL for a malformed frame or header; or another -errno of writev(2).
 */
int ethdrv_tap_writev(int fd, const struct iovec *iov, int iovcnt);

/**
 * ethdrv_tap_set_offload() - what the kernel may hand a TAP with
 * ETHDRV_TAP_VNET_HDR: partial checksums, TCP segments up to 64 KiB
 * @fd: a TAP fd opened with ETHDRV_TAP_VNET_HDR
 * @offloads: ETHDRV_TAP_OFF_* bits; 0 = whole frames with full checksums
 *
 * The reader then finishes checksums and cuts segments itself, as a NIC
 * with TSO and checksum offload would.
 *
 * Return: 0, -EINVAL for bits the kernel refuses (TSO without CSUM), or
 * the -errno of the TUNSETOFFLOAD ioctl.
 */
int ethdrv_tap_set_offload(int fd, unsigned offloads);

/** ethdrv_tap_close() - close a TAP fd (a negative fd is ignored). */
void ethdrv_tap_close(int fd);

/**
 * ethdrv_tap_set_carrier() - set the TAP's carrier, as a NIC driver's
 * netif_carrier_on/off (docs/mdio.md §10)
 * @fd: a TAP fd from ethdrv_tap_open()
 * @on: carrier present
 *
 * With the carrier off an administratively up TAP shows NO-CARRIER and no
 * LOWER_UP in `ip link`, and the kernel treats the link as down.
 *
 * Return: 0, or the -errno of the TUNSETCARRIER ioctl (-EINVAL on kernels
 * before 4.20, -EBADFD for a detached fd, -EPERM without CAP_NET_ADMIN in
 * the TAP's user namespace).
 */
int ethdrv_tap_set_carrier(int fd, bool on);

/* ---- Network namespaces (netns.c) --------------------------------------- */

/**
 * ethdrv_netns_add() - create a named network namespace, as `ip netns add`
 * @name: namespace name (a file name under /run/netns)
 *
 * Makes /run/netns a shared mount point (bind-mounting it onto itself the
 * first time, as iproute2 does, so that later namespace mounts propagate to
 * other mount namespaces), creates /run/netns/@name, gives a helper thread
 * a new network namespace with unshare(CLONE_NEWNET) and bind-mounts that
 * thread's /proc/self/task/<tid>/ns/net onto the file. The mount keeps the
 * namespace alive after the thread exits; nothing else of the process moves.
 *
 * Return: 0; -EINVAL for an empty name, "." or "..", a '/' or a name too
 * long; -EEXIST if it exists; -EACCES/-EPERM without CAP_SYS_ADMIN; or the
 * -errno of mkdir/mount/unshare.
 * Context: any thread; needs root.
 */
int ethdrv_netns_add(const char *name);

/**
 * ethdrv_netns_del() - delete a named namespace, as `ip netns del`
 * @name: namespace name
 *
 * Detaches the bind mount (umount2 MNT_DETACH) and unlinks the file. The
 * namespace itself dies once no process or fd refers to it any more.
 *
 * Return: 0, -EINVAL, -ENOENT if there is no such namespace, or -errno.
 */
int ethdrv_netns_del(const char *name);

/**
 * ethdrv_netns_list() - list the named namespaces whose name starts with @prefix
 * @prefix: e.g. "ethdrv-" ("" for all)
 * @fn: called once per match with its name; a non-zero return stops the walk
 * @arg: passed to @fn
 *
 * Return: the number of matches visited (0 if /run/netns does not exist), or
 * -errno of opendir(3).
 */
int ethdrv_netns_list(const char *prefix, int (*fn)(const char *name, void *arg), void *arg);

/**
 * ethdrv_netns_enter() - move the calling thread into a named namespace
 * @name: namespace name
 * @saved_fd: on success, an fd for the thread's previous namespace; pass it
 *            to ethdrv_netns_leave() to go back
 *
 * Uses setns(CLONE_NEWNET); other threads of the process stay where they are.
 * Sockets, TAPs and netlink requests made by this thread from now on belong
 * to @name.
 *
 * Return: 0; -EINVAL; -ENOENT if there is no such namespace; -EPERM without
 * CAP_SYS_ADMIN; or -errno.
 * Context: any thread.
 */
int ethdrv_netns_enter(const char *name, int *saved_fd);

/**
 * ethdrv_netns_leave() - return to the namespace saved by ethdrv_netns_enter()
 * @saved_fd: the fd it gave back; always closed
 *
 * Return: 0 or the -errno of setns(2).
 */
int ethdrv_netns_leave(int saved_fd);

/* ---- Links and addresses in the calling thread's namespace (netns.c) ---- */

/* What RTM_GETLINK reports about one link. */
struct ethdrv_link_info {
	int ifindex; /* interface index */
	unsigned flags; /* IFF_* flags (IFF_UP, IFF_RUNNING, ...) */
	unsigned mtu; /* IFLA_MTU */
	char name[ETHDRV_IFNAMSIZ]; /* IFLA_IFNAME */
};

/* One IPv4 address of a link (RTM_GETADDR). */
struct ethdrv_ipv4_addr {
	uint32_t addr; /* IFA_LOCAL in network byte order */
	unsigned prefix_len; /* ifa_prefixlen */
};

/**
 * ethdrv_link_get() - look a link up by name (RTM_GETLINK)
 * @ifname: interface name
 * @info: filled on success
 *
 * Return: 0, -EINVAL for a bad name, -ENODEV if there is no such link in
 * this namespace, or -errno.
 */
int ethdrv_link_get(const char *ifname, struct ethdrv_link_info *info);

/**
 * ethdrv_link_ifindex() - the index of link @ifname
 * @ifname: interface name
 *
 * Return: the ifindex (> 0), or the errors of ethdrv_link_get().
 */
int ethdrv_link_ifindex(const char *ifname);

/**
 * ethdrv_link_set_up() - set or clear IFF_UP on a link (RTM_SETLINK)
 * @ifname: interface name ("lo" brings up loopback)
 * @up: true for up
 *
 * Return: 0, -EINVAL, -ENODEV, -EPERM without CAP_NET_ADMIN, or -errno.
 */
int ethdrv_link_set_up(const char *ifname, bool up);

/**
 * ethdrv_link_set_mtu() - set the MTU of a link (RTM_SETLINK, IFLA_MTU)
 * @ifname: interface name
 * @mtu: the L3 MTU
 *
 * Return: 0, -EINVAL (also for an MTU the device refuses), -ENODEV, -EPERM
 * or -errno.
 */
int ethdrv_link_set_mtu(const char *ifname, unsigned mtu);

/**
 * ethdrv_link_set_mac() - set the hardware address of a link (RTM_SETLINK, IFLA_ADDRESS)
 * @ifname: interface name
 * @mac: 6 bytes, a unicast address (bit 0 of the first byte clear)
 *
 * Used to give a TAP the station address its driver filters on.
 *
 * Return: 0, -EINVAL (bad name or a multicast address), -ENODEV, -EPERM or
 * -errno (-EBUSY if the device refuses while up).
 */
int ethdrv_link_set_mac(const char *ifname, const uint8_t mac[6]);

/**
 * ethdrv_link_del() - delete a link (RTM_DELLINK)
 * @ifname: interface name
 *
 * Return: 0, -EINVAL, -ENODEV, -EOPNOTSUPP for a link that cannot be
 * deleted (lo), -EPERM or -errno.
 */
int ethdrv_link_del(const char *ifname);

/**
 * ethdrv_link_set_netns() - move a link into a named namespace (IFLA_NET_NS_FD)
 * @ifname: interface name in the calling thread's namespace
 * @netns: target namespace name
 *
 * Return: 0, -EINVAL, -ENOENT for a missing namespace, -ENODEV, -EEXIST if
 * the target has a link of that name, -EPERM or -errno.
 */
int ethdrv_link_set_netns(const char *ifname, const char *netns);

/**
 * ethdrv_addr_add_ipv4() - add an IPv4 address to a link (RTM_NEWADDR)
 * @ifname: interface name
 * @addr: dotted quad, e.g. "169.254.200.1"
 * @prefix_len: 0..32
 *
 * The kernel adds the prefix route itself.
 *
 * Return: 0, -EINVAL for a bad address or prefix, -ENODEV, -EEXIST if the
 * address is already there, -EPERM or -errno.
 */
int ethdrv_addr_add_ipv4(const char *ifname, const char *addr, unsigned prefix_len);

/**
 * ethdrv_addr_list_ipv4() - the IPv4 addresses of a link (RTM_GETADDR dump)
 * @ifname: interface name
 * @addrs: room for @max entries
 * @max: entries in @addrs
 *
 * Return: the number of addresses the link has (may exceed @max; only the
 * first @max are stored), or the errors of ethdrv_link_get().
 */
int ethdrv_addr_list_ipv4(const char *ifname, struct ethdrv_ipv4_addr *addrs, size_t max);

/* ---- System calls on device nodes (sysops.c) ---------------------------- */

/*
 * The calls spidev.c and gpio.c make on /dev/spidev* and /dev/gpiochip*
 * nodes and on the line fds these hand out. A test installs a fake kernel
 * here that answers SPI_IOC_* and the GPIO v2 requests, so the backends'
 * success paths run without hardware or root. Each call returns what the
 * libc call would (-1 with errno set on failure). poll(2) and fcntl(2)
 * are not routed: a fake hands out real fds (pipes, eventfds) for them.
 */
struct ethdrv__sys_ops {
	int (*open)(const char *path, int flags); /* open(2) */
	int (*close)(int fd); /* close(2) */
	int (*ioctl)(int fd, unsigned long req, void *arg); /* ioctl(2) */
	ssize_t (*read)(int fd, void *buf, size_t len); /* read(2) */
};

/* The calls in effect (the real ones unless a test installed others). */
const struct ethdrv__sys_ops *ethdrv__sys(void);

/*
 * Install @ops (NULL: the real calls again) and return the previous set.
 * Only while no spidev bus or GPIO line opened through the old set is open.
 */
const struct ethdrv__sys_ops *ethdrv__sys_set(const struct ethdrv__sys_ops *ops);

/* ---- SPI over spidev (spidev.c) and its device spec (spidev_spec.c) ----- */

#define ETHDRV_SPIDEV_HZ_MIN 100000u /* lowest SCLK a spec may ask for */
#define ETHDRV_SPIDEV_HZ_MAX 50000000u /* highest SCLK a spec may ask for */
#define ETHDRV_SPIDEV_HZ_DEFAULT 25000000u /* LAN8650 maximum (docs/tc6.md §1.1) */
#define ETHDRV_SPIDEV_POLL_US_MIN 50u /* shortest poll period of irq=none */
#define ETHDRV_SPIDEV_POLL_US_MAX 1000000u /* longest poll period of irq=none */
#define ETHDRV_SPIDEV_POLL_US_DEFAULT 1000u /* irq=none without poll_us */

/**
 * ethdrv_spidev_open() - open a spidev device as an SPI bus without IRQ
 * @path: e.g. "/dev/spidev0.0"
 * @hz: SCLK in Hz
 * @mode: SPI mode 0..3 (CPOL/CPHA; TC6 MAC-PHYs use 0, docs/tc6.md §1.1)
 * @bus: filled with ops, ctx, hz and desc; irq_fd is set to -1
 *
 * Sets the mode, 8 bits per word and the maximum speed, then reads the
 * speed back (SPI_IOC_RD_MAX_SPEED_HZ): bus->hz is what spidev reports it
 * applies, which every transfer then asks for, and a line is logged when
 * it differs from @hz (docs/tc6.md §5.9). Each transfer is one
 * SPI_IOC_MESSAGE with one segment, so chip select stays asserted for the
 * whole transfer (docs/tc6.md §1.1). Transfers longer than the spidev
 * buffer (/sys/module/spidev/parameters/bufsiz, 4096 if unknown) fail with
 * -EMSGSIZE. Release it with bus->ops->close(bus->ctx).
 *
 * Return: 0; -EINVAL for a bad mode or hz; -ENOENT for a missing device;
 * -EACCES without permission; -ENOTTY if @path is not a spidev device;
 * -ENOMEM; or -errno of the ioctls.
 */
int ethdrv_spidev_open(const char *path, uint32_t hz, uint8_t mode, struct ethdrv_spi_bus *bus);

/* A GPIO line named in a spec: "/dev/gpiochipN:LINE". */
struct ethdrv_gpio_ref {
	char chip[64]; /* the GPIO chip, "/dev/gpiochip0" */
	unsigned line; /* the line offset on that chip */
};

/*
 * A parsed real-board device spec (docs/design.md §2):
 * "spidev:PATH,irq=CHIP:LINE|none[,poll_us=N][,reset=CHIP:LINE][,hz=N]
 *  [,mode=M][,bias=pull-up|none]".
 */
struct ethdrv_spidev_spec {
	char spi_path[64]; /* the spidev node, "/dev/spidev0.0" */
	bool has_irq; /* irq=CHIP:LINE; false for irq=none (polled mode) */
	struct ethdrv_gpio_ref irq; /* IRQ_N, when has_irq */
	uint32_t poll_us; /* irq=none: poll period, default 1000 us; 0 with an IRQ line */
	bool has_reset; /* reset=CHIP:LINE given */
	struct ethdrv_gpio_ref reset; /* RESET_N, when has_reset */
	uint32_t hz; /* SCLK asked for, ETHDRV_SPIDEV_HZ_MIN..MAX, default 25 MHz */
	uint8_t mode; /* SPI mode 0..3, default 0 */
	bool pull_up; /* bias=pull-up: enable the SoC pull-up on IRQ_N */
};

/**
 * ethdrv_spidev_spec_parse() - parse a real-board device spec (docs/design.md §2)
 * @spec: "spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE|none[,poll_us=N]
 *        [,reset=/dev/gpiochipN:LINE][,hz=25000000][,mode=0][,bias=pull-up|none]"
 * @out: filled on success
 *
 * Paths must be absolute; irq is required (irq=none asks for polled mode,
 * every poll_us microseconds, 50..1000000, default 1000); poll_us needs
 * irq=none and bias needs an IRQ line; every key at most once.
 *
 * Return: 0, or -EINVAL with one log line naming the bad part and the
 * accepted values.
 */
int ethdrv_spidev_spec_parse(const char *spec, struct ethdrv_spidev_spec *out);

/* The keys of a spidev: spec (knob.h), for help texts. */
struct ethdrv_knob_table;
extern const struct ethdrv_knob_table ethdrv_spidev_spec_knob_table;

/**
 * ethdrv_spidev_bus_open() - open the SPI bus and the GPIO lines of a spec
 * @spec: a parsed spec
 * @bus: filled as by ethdrv_spidev_open(); irq_fd is the level fd of
 *       ethdrv_gpio_irq_open() (or -1 for irq=none), owned by the bus and
 *       closed with it; with reset= the bus drives RESET_N through
 *       ops->set_reset (requested as an output, high: not in reset)
 *
 * Return: 0 or the errors of ethdrv_spidev_open(), ethdrv_gpio_irq_open()
 * and ethdrv_gpio_out_open(); nothing stays open on failure.
 */
int ethdrv_spidev_bus_open(const struct ethdrv_spidev_spec *spec, struct ethdrv_spi_bus *bus);

/* ---- IRQ_N over the GPIO character device (gpio.c) ---------------------- */

struct ethdrv_gpio_irq;

/**
 * ethdrv_gpio_irq_open() - watch IRQ_N and present it as a level fd
 * @chip_path: e.g. "/dev/gpiochip0"
 * @line: line offset on the chip
 * @pull_up: request the pull-up bias
 * @level_fd: an eventfd that is readable while the line is low (IRQ_N
 *            asserted) and not readable while it is high; owned by the
 *            returned object. Nobody but its thread may read it.
 * @out: the handle for ethdrv_gpio_irq_close()
 *
 * Requests the line as an input with both edges (GPIO v2 uAPI, consumer
 * "ethdrv"). A thread blocks on the edge events and, after each batch of
 * events and once at start, reads the line value and sets or drains the
 * eventfd. The core wants a level fd (napi.h ethdrv_napi_attach_irq): with
 * the raw edge fd an IRQ still asserted when it is unmasked would never fire
 * again (the oa_tc6 edge-trigger bug, docs/tc6.md §4.2).
 *
 * Return: 0; -ENOENT for a missing chip; -EACCES without permission;
 * -EINVAL for a line the chip does not have; -EBUSY if another consumer
 * holds the line; -ENOTTY if @chip_path is not a GPIO chip; -ENOMEM; or the
 * -errno of pthread_create/eventfd.
 */
int ethdrv_gpio_irq_open(const char *chip_path, unsigned line, bool pull_up, int *level_fd,
			 struct ethdrv_gpio_irq **out);

/** ethdrv_gpio_irq_close() - stop the thread, release the line and close the fds. */
void ethdrv_gpio_irq_close(struct ethdrv_gpio_irq *irq);

/* ---- Output lines over the GPIO character device (gpio.c) --------------- */

struct ethdrv_gpio_out;

/**
 * ethdrv_gpio_out_open() - request a line as an output (e.g. RESET_N)
 * @chip_path: e.g. "/dev/gpiochip0"
 * @line: line offset on the chip
 * @high: the level the line takes at once (GPIO v2 output value attribute),
 *        so that requesting RESET_N with @high does not reset the chip
 * @out: the handle for ethdrv_gpio_out_set() and ethdrv_gpio_out_close()
 *
 * Levels are physical: no active-low flag is applied.
 *
 * Return: 0 or the errors of ethdrv_gpio_irq_open() for the same steps
 * (-ENOENT, -EACCES, -EINVAL, -EBUSY, -ENOTTY, -ENOMEM).
 */
int ethdrv_gpio_out_open(const char *chip_path, unsigned line, bool high,
			 struct ethdrv_gpio_out **out);

/**
 * ethdrv_gpio_out_set() - drive the line (GPIO_V2_LINE_SET_VALUES_IOCTL)
 * @o: the line
 * @high: the level
 *
 * Return: 0 or the -errno of the ioctl (logged once per call).
 */
int ethdrv_gpio_out_set(struct ethdrv_gpio_out *o, bool high);

/** ethdrv_gpio_out_close() - release the line (NULL is ignored); it keeps its level. */
void ethdrv_gpio_out_close(struct ethdrv_gpio_out *o);

/* How the mirror thread reads a line; gpio.c's GPIO backend or a test double. */
struct ethdrv__gpio_line_ops {
	/** Consume the pending events on the readable @fd; 0 or -errno. */
	int (*drain)(int fd, void *arg);
	/** Sample the line now: *@low is true while IRQ_N is asserted; 0 or -errno. */
	int (*get_low)(int fd, void *arg, bool *low);
};

/*
 * Start the level mirror on @event_fd (readable when the line may have
 * changed). @event_fd is owned from then on, and closed also on failure.
 * Return 0 or -errno.
 */
int ethdrv__gpio_irq_start(int event_fd, const struct ethdrv__gpio_line_ops *ops, void *arg,
			   int *level_fd, struct ethdrv_gpio_irq **out);

/* Line samples the mirror thread has applied to the level fd (for tests). */
unsigned long ethdrv__gpio_irq_updates(const struct ethdrv_gpio_irq *irq);

#endif /* ETHDRV_PLATFORM_LINUX_PLATFORM_H */
