// SPDX-License-Identifier: MIT
/*
 * Named network namespaces (the /run/netns convention of iproute2) and link
 * and address configuration over rtnetlink, with a small message builder of
 * our own: no shelling out to ip, no libmnl or libnl (docs/design.md §6).
 *
 * Netlink sockets belong to the namespace of the thread that opens them, so
 * every request opens its own socket: calls act on the calling thread's
 * current namespace, also right after ethdrv_netns_enter().
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include "ethdrv/log.h"
#include "platform.h"

ETHDRV_LOG_MODULE(netns);

#define NL_REQ_SIZE 256 /* every request we build fits easily */
#define NL_RX_SIZE 32768 /* the kernel's largest dump batch */
#define NL_TIMEOUT_S 5 /* the kernel answers at once; this only bounds a surprise */

/* One request under construction: header, family header, attributes. */
struct nl_req {
	union {
		struct nlmsghdr nh; /* the message header, at the start */
		char buf[NL_REQ_SIZE]; /* the whole message */
	};
};

/* Called for each reply message that is not an ACK, error or DONE. */
typedef int (*nl_reply_fn)(const struct nlmsghdr *nh, void *arg);

static atomic_uint nl_seq;

/* Start a request of @type with NLM_F_REQUEST | @flags and an empty body. */
static void nl_init(struct nl_req *req, uint16_t type, uint16_t flags)
{
	memset(req, 0, sizeof(*req));
	req->nh.nlmsg_len = NLMSG_LENGTH(0);
	req->nh.nlmsg_type = type;
	req->nh.nlmsg_flags = NLM_F_REQUEST | flags;
}

/* Append @len zeroed, aligned bytes to @req; NULL if it would not fit. */
static void *nl_reserve(struct nl_req *req, size_t len)
{
	size_t off = NLMSG_ALIGN(req->nh.nlmsg_len);

	if (off + NLMSG_ALIGN(len) > sizeof(req->buf))
		return NULL;
	req->nh.nlmsg_len = off + len;
	return req->buf + off;
}

/* Append one attribute; -EMSGSIZE if the request is full. */
static int nl_put_attr(struct nl_req *req, uint16_t type, const void *data, size_t len)
{
	struct rtattr *rta = nl_reserve(req, RTA_LENGTH(len));

	if (!rta)
		return -EMSGSIZE;
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	return 0;
}

/* A NETLINK_ROUTE socket in the calling thread's namespace, or -errno. */
static int nl_open(void)
{
	struct timeval tv = { .tv_sec = NL_TIMEOUT_S };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* Walk one datagram of replies; 1 = keep reading, 0 or -errno = finished. */
static int nl_parse(const void *buf, size_t len, uint32_t seq, nl_reply_fn fn, void *arg)
{
	const struct nlmsghdr *nh;
	int err;

	for (nh = buf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
		if (nh->nlmsg_seq != seq)
			continue;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
				return -EPROTO;
			return ((const struct nlmsgerr *)NLMSG_DATA(nh))->error;
		}
		if (nh->nlmsg_type == NLMSG_DONE)
			return 0;
		err = fn ? fn(nh, arg) : 0;
		if (err)
			return err;
	}
	return 1;
}

/* Receive until the ACK, error or DONE of @seq; its -errno or 0. */
static int nl_recv(int fd, uint32_t seq, nl_reply_fn fn, void *arg)
{
	struct sockaddr_nl from;
	struct iovec iov;
	struct msghdr msg = {
		.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1
	};
	void *buf = malloc(NL_RX_SIZE);
	int ret = 1;

	if (!buf)
		return -ENOMEM;
	while (ret == 1) {
		iov = (struct iovec){ .iov_base = buf, .iov_len = NL_RX_SIZE };
		ssize_t n = recvmsg(fd, &msg, 0);

		if (n < 0)
			ret = errno == EINTR ? 1 : -errno;
		else if (msg.msg_flags & MSG_TRUNC)
			ret = -EMSGSIZE;
		else if (from.nl_pid == 0) /* only the kernel may answer */
			ret = nl_parse(buf, (size_t)n, seq, fn, arg);
	}
	free(buf);
	return ret;
}

/* Send @req and wait for its ACK (or the end of a dump); 0 or -errno. */
static int nl_talk(struct nl_req *req, nl_reply_fn fn, void *arg)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int fd = nl_open();
	int err;

	if (fd < 0)
		return fd;
	req->nh.nlmsg_seq = atomic_fetch_add(&nl_seq, 1) + 1;
	/* NLM_F_DUMP shares bits with CREATE/EXCL: it means a dump only on RTM_GET*. */
	if ((req->nh.nlmsg_type & 3) != 2 || (req->nh.nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		req->nh.nlmsg_flags |= NLM_F_ACK;
	if (sendto(fd, req, req->nh.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		err = -errno;
	else
		err = nl_recv(fd, req->nh.nlmsg_seq, fn, arg);
	close(fd);
	return err;
}

/* The advice that goes with a failed link or address request. */
static const char *link_fix(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return "run as root (CAP_NET_ADMIN)";
	case ENODEV:
		return "no such link in this namespace: check the name and the namespace";
	case EEXIST:
		return "already exists";
	case EINVAL:
		return "the kernel refused the value";
	case EOPNOTSUPP:
		return "this kind of link does not support it";
	default:
		return "rtnetlink request failed";
	}
}

/* Log a failed request on link @ifname and pass @err through. */
static int link_error(const char *ifname, const char *what, int err)
{
	ethdrv_err(NULL, "link %s: %s: %s: %s", ifname, what, strerror(-err), link_fix(-err));
	return err;
}

/* True if @name fits in IFNAMSIZ and has no '/' or whitespace. */
static bool link_name_is_valid(const char *name)
{
	size_t len = name ? strnlen(name, ETHDRV_IFNAMSIZ) : 0;

	return len > 0 && len < ETHDRV_IFNAMSIZ && !strpbrk(name, "/ \t\n:");
}

/* Start an RTM_*LINK request that names its link by IFLA_IFNAME. */
static int link_req_init(struct nl_req *req, uint16_t type, uint16_t flags, const char *ifname)
{
	struct ifinfomsg *ifi;

	if (!link_name_is_valid(ifname)) {
		ethdrv_err(NULL, "link %s: bad name: use 1..15 chars without '/', ':' or spaces",
			   ifname ? ifname : "(null)");
		return -EINVAL;
	}
	nl_init(req, type, flags);
	ifi = nl_reserve(req, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	return nl_put_attr(req, IFLA_IFNAME, ifname, strlen(ifname) + 1);
}

/* Fill a struct ethdrv_link_info from an RTM_NEWLINK reply. */
static int link_parse(const struct nlmsghdr *nh, void *arg)
{
	struct ethdrv_link_info *info = arg;
	const struct ifinfomsg *ifi = NLMSG_DATA(nh);
	const struct rtattr *rta = IFLA_RTA(ifi);
	int len = (int)IFLA_PAYLOAD(nh);

	if (nh->nlmsg_type != RTM_NEWLINK)
		return 0;
	info->ifindex = ifi->ifi_index;
	info->flags = ifi->ifi_flags;
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == IFLA_MTU && RTA_PAYLOAD(rta) >= sizeof(uint32_t))
			memcpy(&info->mtu, RTA_DATA(rta), sizeof(uint32_t));
		else if (rta->rta_type == IFLA_IFNAME)
			snprintf(info->name, sizeof(info->name), "%.*s", (int)RTA_PAYLOAD(rta),
				 (const char *)RTA_DATA(rta));
	}
	return 0;
}

int ethdrv_link_get(const char *ifname, struct ethdrv_link_info *info)
{
	struct nl_req req;
	int err = link_req_init(&req, RTM_GETLINK, 0, ifname);

	if (err)
		return err;
	memset(info, 0, sizeof(*info));
	err = nl_talk(&req, link_parse, info);
	if (err && err != -ENODEV)
		return link_error(ifname, "RTM_GETLINK", err);
	if (!err && info->ifindex <= 0)
		return -ENODEV;
	return err;
}

int ethdrv_link_ifindex(const char *ifname)
{
	struct ethdrv_link_info info;
	int err = ethdrv_link_get(ifname, &info);

	return err ? err : info.ifindex;
}

/* Send a link request built by the caller and log a failure as @what. */
static int link_talk(struct nl_req *req, const char *ifname, const char *what)
{
	int err = nl_talk(req, NULL, NULL);

	return err ? link_error(ifname, what, err) : 0;
}

int ethdrv_link_set_up(const char *ifname, bool up)
{
	struct nl_req req;
	struct ifinfomsg *ifi;
	int err = link_req_init(&req, RTM_SETLINK, 0, ifname);

	if (err)
		return err;
	ifi = NLMSG_DATA(&req.nh);
	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	return link_talk(&req, ifname, up ? "set up" : "set down");
}

int ethdrv_link_set_mtu(const char *ifname, unsigned mtu)
{
	struct nl_req req;
	uint32_t val = mtu;
	int err = link_req_init(&req, RTM_SETLINK, 0, ifname);

	if (!err)
		err = nl_put_attr(&req, IFLA_MTU, &val, sizeof(val));
	return err ? err : link_talk(&req, ifname, "set mtu");
}

int ethdrv_link_set_mac(const char *ifname, const uint8_t mac[6])
{
	struct nl_req req;
	int err = link_req_init(&req, RTM_SETLINK, 0, ifname);

	if (!err && (mac[0] & 1)) {
		ethdrv_err(NULL, "link %s: set mac: multicast address: use a unicast one", ifname);
		err = -EINVAL;
	}
	if (!err)
		err = nl_put_attr(&req, IFLA_ADDRESS, mac, 6);
	return err ? err : link_talk(&req, ifname, "set mac");
}

int ethdrv_link_del(const char *ifname)
{
	struct nl_req req;
	int err = link_req_init(&req, RTM_DELLINK, 0, ifname);

	return err ? err : link_talk(&req, ifname, "delete");
}

/* True if @name can be a file name directly under /run/netns. */
static bool netns_name_is_valid(const char *name)
{
	size_t len = name ? strnlen(name, ETHDRV_NETNS_NAME_MAX) : 0;

	return len > 0 && len < ETHDRV_NETNS_NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* Check @name and build /run/netns/@name in @path (ETHDRV_NETNS_NAME_MAX + 16). */
static int netns_path(const char *name, char *path, size_t size)
{
	if (!netns_name_is_valid(name)) {
		ethdrv_err(NULL, "netns %s: bad name: use 1..%d chars, no '/', not . or ..",
			   name ? name : "(null)", ETHDRV_NETNS_NAME_MAX - 1);
		return -EINVAL;
	}
	snprintf(path, size, "%s/%s", ETHDRV_NETNS_DIR, name);
	return 0;
}

/* Log a failed namespace step on @what and pass -@err_pos through. */
static int netns_error(const char *name, const char *what, int err_pos)
{
	const char *fix;

	switch (err_pos) {
	case EPERM:
	case EACCES:
		fix = "run as root (CAP_SYS_ADMIN)";
		break;
	case EEXIST:
		fix = "it exists: delete it (ip netns del NAME) or choose another name";
		break;
	case ENOENT:
		fix = "no such namespace: list them with ip netns list";
		break;
	default:
		fix = "namespace setup failed";
		break;
	}
	ethdrv_err(NULL, "netns %s: %s: %s: %s", name, what, strerror(err_pos), fix);
	return -err_pos;
}

int ethdrv_link_set_netns(const char *ifname, const char *netns)
{
	char path[ETHDRV_NETNS_NAME_MAX + 16];
	struct nl_req req;
	uint32_t nsfd;
	int fd, err;

	err = netns_path(netns, path, sizeof(path));
	if (!err)
		err = link_req_init(&req, RTM_SETLINK, 0, ifname);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return netns_error(netns, path, errno);
	nsfd = (uint32_t)fd;
	err = nl_put_attr(&req, IFLA_NET_NS_FD, &nsfd, sizeof(nsfd));
	if (!err)
		err = link_talk(&req, ifname, "move to another netns");
	close(fd);
	return err;
}

int ethdrv_addr_add_ipv4(const char *ifname, const char *addr, unsigned prefix_len)
{
	struct in_addr in;
	struct ifaddrmsg *ifa;
	struct nl_req req;
	int ifindex, err;

	if (!addr || inet_pton(AF_INET, addr, &in) != 1 || prefix_len > 32) {
		ethdrv_err(NULL, "link %s: bad IPv4 address %s/%u: use a.b.c.d and a prefix 0..32",
			   ifname, addr ? addr : "(null)", prefix_len);
		return -EINVAL;
	}
	ifindex = ethdrv_link_ifindex(ifname);
	if (ifindex < 0)
		return ifindex == -ENODEV ? link_error(ifname, "add address", ifindex) : ifindex;
	nl_init(&req, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	ifa = nl_reserve(&req, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = (uint8_t)prefix_len;
	ifa->ifa_index = (uint32_t)ifindex;
	/* A non point-to-point address: IFA_LOCAL and IFA_ADDRESS are the same. */
	err = nl_put_attr(&req, IFA_LOCAL, &in, sizeof(in));
	if (!err)
		err = nl_put_attr(&req, IFA_ADDRESS, &in, sizeof(in));
	return err ? err : link_talk(&req, ifname, "add address");
}

/* State of an RTM_GETADDR dump filtered to one link. */
struct addr_dump {
	int ifindex; /* the link we want */
	struct ethdrv_ipv4_addr *addrs; /* where to store */
	size_t max; /* room in @addrs */
	int count; /* addresses found */
};

/* Collect the IPv4 addresses of one link from RTM_NEWADDR dump replies. */
static int addr_parse(const struct nlmsghdr *nh, void *arg)
{
	struct addr_dump *d = arg;
	const struct ifaddrmsg *ifa = NLMSG_DATA(nh);
	const struct rtattr *rta = IFA_RTA(ifa);
	int len = (int)IFA_PAYLOAD(nh);

	if (nh->nlmsg_type != RTM_NEWADDR || ifa->ifa_family != AF_INET ||
	    (int)ifa->ifa_index != d->ifindex)
		return 0;
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type != IFA_LOCAL || RTA_PAYLOAD(rta) < sizeof(uint32_t))
			continue;
		if ((size_t)d->count < d->max) {
			memcpy(&d->addrs[d->count].addr, RTA_DATA(rta), sizeof(uint32_t));
			d->addrs[d->count].prefix_len = ifa->ifa_prefixlen;
		}
		d->count++;
	}
	return 0;
}

int ethdrv_addr_list_ipv4(const char *ifname, struct ethdrv_ipv4_addr *addrs, size_t max)
{
	struct addr_dump d = { .addrs = addrs, .max = max };
	struct ifaddrmsg *ifa;
	struct nl_req req;
	int err;

	d.ifindex = ethdrv_link_ifindex(ifname);
	if (d.ifindex < 0)
		return d.ifindex;
	nl_init(&req, RTM_GETADDR, NLM_F_DUMP);
	ifa = nl_reserve(&req, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	err = nl_talk(&req, addr_parse, &d);
	return err ? link_error(ifname, "RTM_GETADDR", err) : d.count;
}

/*
 * Make /run/netns a shared mount point, as iproute2 does: a namespace mounted
 * there later then shows up in every mount namespace that copied it (for
 * example one made by `ip netns exec`). The first time it is not a mount
 * point yet (EINVAL), so it is bind-mounted onto itself first.
 */
static int netns_dir_prepare(const char *name)
{
	if (mkdir(ETHDRV_NETNS_DIR, 0755) < 0 && errno != EEXIST)
		return netns_error(name, ETHDRV_NETNS_DIR, errno);
	if (mount("", ETHDRV_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) == 0)
		return 0;
	if (errno != EINVAL)
		return netns_error(name, ETHDRV_NETNS_DIR, errno);
	if (mount(ETHDRV_NETNS_DIR, ETHDRV_NETNS_DIR, "none", MS_BIND | MS_REC, NULL) < 0 ||
	    mount("", ETHDRV_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) < 0)
		return netns_error(name, ETHDRV_NETNS_DIR, errno);
	return 0;
}

/* What the helper thread of ethdrv_netns_add() works on. */
struct netns_maker {
	const char *path; /* /run/netns/NAME, already created */
	int err; /* positive errno of the failed step, or 0 */
	const char *step; /* which step failed */
};

/* Helper thread: take a new network namespace and pin it onto maker->path. */
static void *netns_maker_thread(void *arg)
{
	struct netns_maker *m = arg;
	char self[64];

	if (unshare(CLONE_NEWNET) < 0) {
		m->err = errno;
		m->step = "unshare(CLONE_NEWNET)";
		return NULL;
	}
	snprintf(self, sizeof(self), "/proc/self/task/%d/ns/net", (int)gettid());
	if (mount(self, m->path, "none", MS_BIND, NULL) < 0) {
		m->err = errno;
		m->step = "bind mount";
	}
	return NULL;
}

int ethdrv_netns_add(const char *name)
{
	char path[ETHDRV_NETNS_NAME_MAX + 16];
	struct netns_maker m = { .path = path };
	pthread_t thread;
	int fd, err;

	err = netns_path(name, path, sizeof(path));
	if (!err)
		err = netns_dir_prepare(name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0)
		return netns_error(name, path, errno);
	close(fd);
	/* unshare() in a thread of its own, so the caller never changes namespace. */
	err = pthread_create(&thread, NULL, netns_maker_thread, &m);
	if (err) {
		m.err = err;
		m.step = "pthread_create";
	} else {
		pthread_join(thread, NULL);
	}
	if (m.err) {
		unlink(path);
		return netns_error(name, m.step, m.err);
	}
	return 0;
}

int ethdrv_netns_del(const char *name)
{
	char path[ETHDRV_NETNS_NAME_MAX + 16];
	int err = netns_path(name, path, sizeof(path));

	if (err)
		return err;
	/* EINVAL: not a mount point (a stale file); unlink it all the same. */
	if (umount2(path, MNT_DETACH) < 0 && errno != EINVAL)
		return netns_error(name, "umount", errno);
	if (unlink(path) < 0)
		return netns_error(name, path, errno);
	return 0;
}

int ethdrv_netns_list(const char *prefix, int (*fn)(const char *name, void *arg), void *arg)
{
	size_t plen = prefix ? strlen(prefix) : 0;
	struct dirent *de;
	int count = 0;
	DIR *dir = opendir(ETHDRV_NETNS_DIR);

	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix ? prefix : "", plen) != 0)
			continue;
		count++;
		if (fn && fn(de->d_name, arg))
			break;
	}
	closedir(dir);
	return count;
}

int ethdrv_netns_enter(const char *name, int *saved_fd)
{
	char path[ETHDRV_NETNS_NAME_MAX + 16];
	int fd, saved, err = netns_path(name, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return netns_error(name, path, errno);
	saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (saved < 0) {
		err = netns_error(name, "/proc/thread-self/ns/net", errno);
		goto err_close_fd;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		err = netns_error(name, "setns", errno);
		close(saved);
		goto err_close_fd;
	}
	close(fd);
	*saved_fd = saved;
	return 0;

err_close_fd:
	close(fd);
	return err;
}

int ethdrv_netns_leave(int saved_fd)
{
	int err = 0;

	if (setns(saved_fd, CLONE_NEWNET) < 0) {
		err = -errno;
		ethdrv_err(NULL, "netns: cannot return to the original namespace: %s",
			   strerror(errno));
	}
	close(saved_fd);
	return err;
}
