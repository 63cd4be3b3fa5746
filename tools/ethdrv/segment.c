// SPDX-License-Identifier: MIT
/*
 * `ethdrv segment`: nodes in network namespaces of their own, each with a
 * TAP of the same name driven by ethdrv over a model, all on one emulated
 * medium (docs/design.md §1, §3): LAN8650 nodes t1s0..t1sN-1 on a
 * 10BASE-T1S PLCA segment (segment_t1s.c), or with --device emu:enet two
 * ENET nodes enet0 and enet1 (emu:gbeth: two GbEth nodes gbeth0 and
 * gbeth1) on a full-duplex link (segment_enet.c). Runs
 * until SIGINT or SIGTERM and removes what it created. A marker file lists
 * what a run creates before it creates it, so a later run (or --cleanup)
 * can remove the leftovers of one that was killed. Each kind has its own
 * names, marker and lock (segment_priv.h), so both kinds may run at once.
 *
 * Threads (docs/design.md §4): the main thread creates the namespaces and
 * the medium, then runs a loop for signals and the medium's control socket
 * (/run/ethdrv/segment.sock, link.sock, gbeth-link.sock or tsec-link.sock); each node has its
 * own loop
 * thread (node.c).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ethdrv/err.h"
#include "ethdrv/poll.h"
#include "platform/linux/platform.h"
#include "knob_help.h"
#include "segment_priv.h"

/* Every kind, in the order --cleanup visits them. */
static const struct seg_kind *const seg_kinds[] = { &seg_t1s_kind, &seg_enet_kind, &seg_gbeth_kind,
						    &seg_etsec_kind };
#define SEG_KINDS ETHDRV_ARRAY_SIZE(seg_kinds)

static const char seg_usage[] =
	"usage: ethdrv segment [--nodes N] [--device SPEC] [options]\n"
	"       ethdrv segment [--device SPEC] --cleanup\n"
	"\n"
	"LAN8650 (the default): create N network namespaces t1s0..t1sN-1, each with a\n"
	"TAP interface t1sK (169.254.10.K+1/24, MAC 02:45:54:48:00:0K) driven by ethdrv\n"
	"over a LAN8650 model, all on one emulated 10BASE-T1S PLCA segment (node 0 is\n"
	"the PLCA coordinator, node-cnt N, node ids 0..N-1); its counters are\n"
	"`ethdrv stats segment`.\n"
	"ENET (--device emu:enet): two namespaces enet0 and enet1, each with a TAP of\n"
	"that name (169.254.20.1/24 and .2, MAC 02:45:54:48:20:0K) driven by the fec\n"
	"driver over an NXP ENET model, the two joined by a full-duplex 1000, 100 or\n"
	"10 Mb/s line; its counters are `ethdrv stats link`.\n"
	"GbEth (--device emu:gbeth): the same with namespaces and TAPs gbeth0 and\n"
	"gbeth1 (169.254.40.1/24 and .2, MAC 02:45:54:48:40:0K), the ravb driver over\n"
	"Renesas GbEth models; its counters are `ethdrv stats gbeth-link`.\n"
	"eTSEC (--device emu:etsec): the same with tsec0 and tsec1 (169.254.30.1/24\n"
	"and .2, MAC 02:45:54:48:30:0K), the gianfar driver over Freescale eTSEC\n"
	"models; its counters are `ethdrv stats tsec-link`.\n"
	"Runs in the foreground until SIGINT or SIGTERM, then removes everything it\n"
	"created. A LAN8650 segment, an ENET, a GbEth and an eTSEC link may run at\n"
	"once. Needs root.\n"
	"\n"
	"  -n, --nodes N         nodes: 2..16 on a LAN8650 segment (default 2); an\n"
	"                        ENET, GbEth or eTSEC link has 2\n"
	"  -d, --device SPEC     model options for every node: emu:lan8650[,KEY=VALUE...]\n"
	"                        or emu:enet|emu:gbeth|emu:etsec[,KEY=VALUE...], the\n"
	"                        keys below\n"
	"  -s, --set KEY=VALUE   a knob for every node after bring-up (repeatable;\n"
	"                        see `ethdrv set --help`)\n"
	"  -p, --pcap FILE       capture every frame on the medium, both directions\n"
	"                        of a link (pcap, ns)\n"
	"  -t, --spi-trace FILE  LAN8650: trace every SPI transfer of node K, the probe\n"
	"                        included, to FILE.t1sK (text), or for FILE.pcapng to\n"
	"                        FILE.t1sK.pcapng (Wireshark, docs/spi-trace.md)\n"
	"      --trace-dir DIR   LAN8650: allow `ethdrv set t1sK spi_trace=NAME` at run\n"
	"                        time, NAME a file in DIR (refused without this option)\n"
	"      --rt-prio N       run each node's loop and poller threads at SCHED_FIFO\n"
	"                        priority N (1..99; busy_poll is then refused); the\n"
	"                        medium's threads run at N+1 (docs/design.md 4.5)\n"
	"      --lab-prio N      the medium's threads at SCHED_FIFO N (1..99), or 0\n"
	"                        for SCHED_OTHER (default: one above the driver's\n"
	"                        contexts when they run at a real-time priority)\n"
	"      --linux-nodes K[,K...]  LAN8650: these nodes run Linux's own oa_tc6 +\n"
	"                        lan865x driver (a GPL-2.0 plugin, docs/linux-driver.md)\n"
	"                        instead of ethdrv's; as driver=linux in --device\n"
	"  -c, --cleanup         remove what a killed run left behind, then exit: both\n"
	"                        kinds, or only the kind --device names\n"
	"      --syslog          log to syslog instead of stderr\n"
	"      --log-level L     err, warn, info or debug\n"
	"  -h, --help            this text\n"
	"\n"
	"While it runs: `ethdrv stats`, `ethdrv stats segment` (or `link`,\n"
	"`gbeth-link`, `tsec-link`), `ethdrv set t1s0 KEY=VALUE`,\n"
	"`ip netns exec t1s0 ping 169.254.10.2`,\n"
	"`ip netns exec enet0 ping 169.254.20.2`,\n"
	"`ip netns exec gbeth0 ping 169.254.40.2`,\n"
	"`ip netns exec tsec0 ping 169.254.30.2`.\n";

#define SEG_OPTS                                                                  \
	"--nodes, --device, --set, --pcap, --spi-trace, --trace-dir, --rt-prio, " \
	"--lab-prio, --linux-nodes, --cleanup, --syslog, --log-level, --help"

size_t seg_ctl_knobs(void *arg, const struct ethdrv_knob_table **out, size_t max)
{
	const struct seg *s = arg;

	if (!max)
		return 0;
	out[0] = s->kind->knobs;
	return 1;
}

void seg_node_name(const struct seg_kind *kind, unsigned i, char *buf, size_t size)
{
	snprintf(buf, size, "%s%u", kind->prefix, i);
}

/* ---- leftovers ------------------------------------------------------- */

/* True if @pid is a live ethdrv process other than us. */
static bool seg_pid_is_live(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || pid == (long)getpid() || (kill((pid_t)pid, 0) && errno != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "ethdrv", 6);
}

/* True for the kind's prefix followed by digits only ("t1s3", not "t1sx"). */
static bool seg_is_our_netns(const struct seg_kind *kind, const char *name)
{
	size_t n = strlen(kind->prefix);

	return !strncmp(name, kind->prefix, n) && name[n] &&
	       strspn(name + n, "0123456789") == strlen(name + n);
}

/* What seg_del_netns() needs: the kind and a count. */
struct seg_del_ctx {
	const struct seg_kind *kind; /* whose namespaces */
	unsigned removed; /* how many went */
};

static int seg_del_netns(const char *name, void *arg)
{
	struct seg_del_ctx *c = arg;

	if (seg_is_our_netns(c->kind, name) && ethdrv_netns_del(name) == 0)
		c->removed++;
	return 0;
}

/* Unlink control sockets nobody answers on; the count. */
static unsigned seg_del_stale_sockets(void)
{
	DIR *d = opendir(CLI_RUN_DIR);
	struct dirent *de;
	unsigned removed = 0;
	char path[300];

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 6 || strcmp(de->d_name + len - 5, ".sock"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", CLI_RUN_DIR, de->d_name);
		if (!ctl_is_alive(path) && unlink(path) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* Index of @kind in seg_kinds. */
static unsigned seg_kind_index(const struct seg_kind *kind)
{
	unsigned i = 0;

	while (i + 1 < SEG_KINDS && seg_kinds[i] != kind)
		i++;
	return i;
}

/* Held for the life of the process that took it (the live run, or a
 * --cleanup run): flock makes "is one running?" race-free where the
 * marker's pid alone is not (two starts at once, a reused pid). One per kind. */
static int seg_lock_fd[SEG_KINDS] = { -1, -1 };

/* Take the kind's lock; 0, -EBUSY if another process holds it, or -errno. */
static int seg_lock(const struct seg_kind *kind)
{
	int *lock_fd = &seg_lock_fd[seg_kind_index(kind)];
	int fd;

	if (*lock_fd >= 0)
		return 0;
	if (mkdir(CLI_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	fd = open(kind->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? EBUSY : errno;

		close(fd);
		return -err;
	}
	*lock_fd = fd;
	return 0;
}

/*
 * Remove what a dead run of @kind left: the namespaces its marker lists
 * (with @all, every one with the kind's prefix), stale sockets, the
 * marker. Return 0, or -EBUSY (*@pid set) while the marker's process lives
 * or another process holds the kind's lock.
 */
static int seg_cleanup(const struct seg_kind *kind, bool all, long *pid)
{
	struct seg_del_ctx del = { .kind = kind };
	char line[128], name[64];
	FILE *f = fopen(kind->marker, "r");
	unsigned socks;

	*pid = 0;
	if (f && fgets(line, sizeof(line), f) && sscanf(line, "pid %ld", pid) == 1 &&
	    (seg_lock_fd[seg_kind_index(kind)] < 0 || seg_pid_is_live(*pid))) {
		fclose(f);
		return -EBUSY;
	}
	if (seg_lock_fd[seg_kind_index(kind)] < 0) {
		if (f)
			fclose(f);
		return -EBUSY;
	}
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "netns %63s", name) == 1)
			seg_del_netns(name, &del);
	if (f)
		fclose(f);
	if (all)
		ethdrv_netns_list(kind->prefix, seg_del_netns, &del);
	socks = seg_del_stale_sockets();
	if (unlink(kind->marker) == 0 || del.removed || socks)
		fprintf(stderr, "ethdrv segment: removed leftovers: %u namespaces, %u sockets\n",
			del.removed, socks);
	return 0;
}

/* Write the marker: our pid and the namespaces we are about to create. */
static int seg_write_marker(const struct seg_kind *kind, unsigned nodes)
{
	char name[16];
	FILE *f;
	unsigned i;

	if (mkdir(CLI_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	f = fopen(kind->marker, "w");
	if (!f)
		return -errno;
	fprintf(f, "pid %ld\n", (long)getpid());
	for (i = 0; i < nodes; i++) {
		seg_node_name(kind, i, name, sizeof(name));
		fprintf(f, "netns %s\n", name);
	}
	return fclose(f) ? -errno : 0;
}

/* ---- the medium's control socket --------------------------------------- */

int seg_stats_add_ctl(struct seg *s)
{
	return ethdrv_stats_add_group(s->set, "ctl", ctl_server_stats_desc,
				      ctl_server_stats_desc_count, &s->ctl_snap);
}

int seg_stats_reply(struct seg *s, bool json, struct ctl_reply *r)
{
	enum ethdrv_stats_format fmt = json ? ETHDRV_STATS_JSON : ETHDRV_STATS_TEXT;
	int len;
	char *p;

	ctl_server_get_stats(s->ctl, &s->ctl_snap);
	len = ethdrv_stats_dump(s->set, fmt, NULL, 0);
	if (len < 0)
		return len;
	p = ctl_reply_reserve(r, (size_t)len);
	if (!p)
		return -ENOMEM;
	ethdrv_stats_dump(s->set, fmt, p, (size_t)len + 1);
	if (json)
		ctl_reply_printf(r, "\n");
	return 0;
}

/* ---- bring-up and teardown --------------------------------------------- */

/* Create namespace @i of the kind; explain an existing one. */
static int seg_make_netns(struct seg *s, unsigned i)
{
	char name[16];
	int err;

	seg_node_name(s->kind, i, name, sizeof(name));
	err = ethdrv_netns_add(name);
	if (err == -EEXIST)
		fprintf(stderr,
			"ethdrv segment: namespace %s exists and belongs to no live %s: "
			"remove it with `ethdrv segment --cleanup` (or `ip netns del %s`)\n",
			name, s->kind->title, name);
	else if (err)
		fprintf(stderr, "ethdrv segment: namespace %s: %s\n", name, ethdrv_strerror(err));
	s->netns_made[i] = !err;
	return err;
}

/* The settings of node @i: names and addresses here, the medium's part by the kind. */
static void seg_node_config(struct seg *s, unsigned i, struct node_config *nc)
{
	memset(nc, 0, sizeof(*nc));
	nc->index = i;
	seg_node_name(s->kind, i, nc->ifname, sizeof(nc->ifname));
	snprintf(nc->netns, sizeof(nc->netns), "%s", nc->ifname);
	snprintf(nc->addr, sizeof(nc->addr), "%s%u", s->kind->subnet,
		 (uint8_t)(i + 1)); /* i < 16 */
	nc->prefix = 24;
	cli_node_mac(i, nc->mac);
	nc->mac[4] = s->kind->mac_id;
	nc->dev = s->args.dev;
	if (s->args.linux_nodes & (1u << i))
		nc->dev.emu.linux_driver = true; /* --linux-nodes (node_linux.c) */
	s->kind->node_config(s, i, nc);
	nc->tap_exclusive = true;
	nc->disable_ipv6 = true;
	if (s->args.spi_trace) {
		size_t n = strlen(s->args.spi_trace);

		/* FILE.t1sK; FILE.pcapng gives FILE.t1sK.pcapng, still pcapng (spi_trace.c). */
		if (n > 7 && !strcmp(s->args.spi_trace + n - 7, ".pcapng"))
			snprintf(s->trace[i], sizeof(s->trace[i]), "%.*s.%s.pcapng", (int)(n - 7),
				 s->args.spi_trace, nc->ifname);
		else
			snprintf(s->trace[i], sizeof(s->trace[i]), "%s.%s", s->args.spi_trace,
				 nc->ifname);
		nc->spi_trace = s->trace[i];
	}
	nc->trace_dir = s->args.common.trace_dir;
	nc->rt_prio = s->args.common.rt_prio;
	memcpy(nc->knobs, s->args.knobs, sizeof(nc->knobs));
	nc->knob_count = s->args.knob_count;
}

/*
 * How long bring-up waits for every node's carrier. Each node's PHY comes
 * up on its own: the ENET link's AR8031s autonegotiate for 3 s and the
 * PHY state machine sees it at its next run, at most one poll (1 s) later
 * (docs/mdio.md §7.2, §8.4); a LAN8650's forced 10 Mb/s link is up at the
 * first run. Twice that leaves room for a loaded machine.
 */
#define SEG_LINK_WAIT_US 10000000u
#define SEG_LINK_POLL_US 20000u

/* *@up: the number of nodes with carrier; always 0 (for ethdrv_poll_timeout). */
static int seg_links_up(const struct seg *s, unsigned *up)
{
	*up = 0;
	for (unsigned i = 0; i < s->args.nodes; i++)
		*up += node_carrier_ok(s->node[i]);
	return 0;
}

/*
 * Wait until every node has carrier, so that "nodes up" means a ping
 * goes through, as it would once `ip link` shows LOWER_UP on a real
 * board. A link that stays down is reported, not fatal: the user may be
 * after exactly that (ethdrv phy shows why).
 */
static void seg_wait_links(struct seg *s)
{
	unsigned up;

	if (ethdrv_poll_timeout(seg_links_up, up, up == s->args.nodes, SEG_LINK_POLL_US,
				SEG_LINK_WAIT_US, s))
		fprintf(stderr,
			"ethdrv segment: %u of %u nodes have no carrier after %u s "
			"(`ethdrv phy %s0` shows the PHY)\n",
			s->args.nodes - up, s->args.nodes, SEG_LINK_WAIT_US / 1000000u,
			s->kind->prefix);
}

/* Namespaces, the medium, one node per namespace, then the main loop's watchers. */
static int seg_up(struct seg *s)
{
	struct node_config nc;
	char path[108];
	unsigned i;
	int err;

	for (i = 0; i < s->args.nodes; i++) {
		err = seg_make_netns(s, i);
		if (err)
			return err;
	}
	err = seg_lab_medium_new(s);
	if (err)
		return err;
	for (i = 0; i < s->args.nodes; i++) {
		seg_node_config(s, i, &nc);
		err = node_start(&nc, &s->node[i]);
		if (err) {
			fprintf(stderr, "ethdrv segment: node %s: %s\n", nc.ifname,
				ethdrv_strerror(err));
			return err;
		}
	}
	seg_wait_links(s);
	err = ethdrv_loop_new(&s->loop);
	if (!err)
		err = daemon_signals_start(s->loop, &s->sig);
	if (!err)
		err = ctl_sock_path(s->kind->sock, path, sizeof(path));
	if (!err)
		err = ctl_server_start(s->loop, path, s->kind->ctl, s, &s->ctl);
	if (err)
		fprintf(stderr, "ethdrv segment: control: %s\n", ethdrv_strerror(err));
	if (!err)
		err = seg_lab_guard_start(s);
	return err;
}

/* Remove everything, in reverse order; safe on a partial bring-up. Every node
 * stops before the medium goes (an ENET node's graceful stop needs its peer). */
static void seg_down(struct seg *s)
{
	char name[16];
	unsigned i;

	ctl_server_stop(s->ctl);
	seg_lab_guard_stop(s);
	daemon_signals_stop(&s->sig);
	for (i = s->args.nodes; i-- > 0;)
		node_stop(s->node[i]);
	s->kind->medium_free(s);
	ethdrv_stats_set_free(s->set);
	ethdrv_loop_free(s->loop);
	for (i = 0; i < s->args.nodes; i++) {
		seg_node_name(s->kind, i, name, sizeof(name));
		if (s->netns_made[i] && ethdrv_netns_del(name))
			fprintf(stderr, "ethdrv segment: namespace %s not removed\n", name);
	}
	unlink(s->kind->marker);
}

/* Tell the user what is up. */
static void seg_print_ready(const struct seg *s)
{
	char name[16];
	unsigned i;

	printf("ethdrv segment: %u nodes up:", s->args.nodes);
	for (i = 0; i < s->args.nodes; i++) {
		seg_node_name(s->kind, i, name, sizeof(name));
		printf(" %s=%s%u", name, s->kind->subnet, i + 1);
	}
	printf("%s%s; stop with Ctrl-C or kill -TERM %ld\n", s->args.pcap ? "; pcap " : "",
	       s->args.pcap ? s->args.pcap : "", (long)getpid());
	fflush(stdout);
}

/* ---- arguments ------------------------------------------------------------ */

/* The kind a device spec selects. */
static const struct seg_kind *seg_kind_of(const struct cli_device *dev)
{
	if (dev->kind == CLI_DEV_GBETH)
		return &seg_gbeth_kind;
	if (dev->kind == CLI_DEV_ETSEC)
		return &seg_etsec_kind;
	return dev->kind == CLI_DEV_ENET ? &seg_enet_kind : &seg_t1s_kind;
}

/* --linux-nodes K[,K...]: the nodes Linux's lan865x driver runs (0..15). */
static int seg_linux_nodes(const char *list, struct seg_args *a)
{
	char buf[CLI_SPEC_MAX], *save = NULL, *tok;
	unsigned long v;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (cli_parse_ulong("segment", "--linux-nodes", tok, 0, SEG_NODES_MAX - 1, &v))
			return CLI_EXIT_USAGE;
		a->linux_nodes |= 1u << v;
	}
	return a->linux_nodes ? CLI_EXIT_OK :
				cli_usage("segment",
					  "--linux-nodes: '%s': use node numbers "
					  "K[,K...]",
					  list);
}

/* Handle one option; CLI_EXIT_OK or CLI_EXIT_USAGE. */
static int seg_option(int c, struct seg_args *a, char **argv)
{
	unsigned long v;
	int rc;

	switch (c) {
	case 'n':
		if (cli_parse_ulong("segment", "--nodes", optarg, 2, SEG_NODES_MAX, &v))
			return CLI_EXIT_USAGE;
		a->nodes = (unsigned)v;
		return CLI_EXIT_OK;
	case 'd':
		if (cli_parse_device("segment", optarg, &a->dev))
			return CLI_EXIT_USAGE;
		if (a->dev.kind == CLI_DEV_SPIDEV)
			return cli_usage("segment",
					 "--device: '%s' is not a model: use "
					 "emu:lan8650[,key=value...], emu:enet[,key=value...], "
					 "emu:gbeth[,key=value...] or emu:etsec[,key=value...]",
					 optarg);
		a->dev_given = true;
		return CLI_EXIT_OK;
	case 'p':
		a->pcap = optarg;
		return CLI_EXIT_OK;
	case 't':
		a->spi_trace = optarg;
		return CLI_EXIT_OK;
	case 'c':
		a->cleanup = true;
		return CLI_EXIT_OK;
	case 'P':
		if (cli_parse_ulong("segment", "--lab-prio", optarg, 0, RT_PRIO_MAX, &v))
			return CLI_EXIT_USAGE;
		a->lab_prio = (int)v;
		return CLI_EXIT_OK;
	case 'l':
		return seg_linux_nodes(optarg, a);
	}
	rc = cmd_common_option("segment", c, &a->common);
	if (rc >= 0)
		return rc;
	return cmd_bad_option("segment", argv, SEG_OPTS);
}

/* What the options say together, once all are read; CLI_EXIT_*. */
static int seg_check(struct seg_args *a)
{
	const struct seg_kind *kind = seg_kind_of(&a->dev);

	if (!a->nodes)
		a->nodes = kind->nodes_min;
	if (a->nodes < kind->nodes_min || a->nodes > kind->nodes_max)
		return cli_usage("segment", "--nodes: bad value '%u': the %s has %u nodes",
				 a->nodes, kind->title, kind->nodes_max);
	if (kind != &seg_t1s_kind && a->linux_nodes)
		return cli_usage("segment", "--linux-nodes: only on a LAN8650 segment");
	if (a->linux_nodes >> a->nodes)
		return cli_usage("segment", "--linux-nodes: a node number beyond --nodes %u",
				 a->nodes);
	if (kind != &seg_t1s_kind && (a->spi_trace || a->common.trace_dir))
		return cli_usage("segment", "%s: an %s node has no SPI bus to trace",
				 a->spi_trace ? "--spi-trace" : "--trace-dir", kind->title);
	return CLI_EXIT_OK;
}

/* Parse argv into @a; -1 after --help, else CLI_EXIT_*. */
static int seg_parse(int argc, char **argv, struct seg_args *a)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "device", required_argument, NULL, 'd' },
		{ "set", required_argument, NULL, 's' },
		{ "pcap", required_argument, NULL, 'p' },
		{ "spi-trace", required_argument, NULL, 't' },
		{ "trace-dir", required_argument, NULL, 'D' },
		{ "rt-prio", required_argument, NULL, 'R' },
		{ "lab-prio", required_argument, NULL, 'P' },
		{ "cleanup", no_argument, NULL, 'c' },
		{ "linux-nodes", required_argument, NULL, 'l' },
		{ "syslog", no_argument, NULL, 'S' },
		{ "log-level", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	a->common.knobs = a->knobs;
	a->common.knob_count = &a->knob_count;
	a->lab_prio = -1;
	cli_parse_device("segment", "emu:lan8650", &a->dev);
	while ((c = cmd_getopt(argc, argv, "n:d:s:p:t:ch", opts)) != -1) {
		if (c == 'h') {
			fputs(seg_usage, stdout);
			knob_help_spec(stdout);
			return -1;
		}
		rc = seg_option(c, a, argv);
		if (rc)
			return rc;
	}
	if (optind < argc)
		return cli_usage("segment", "unexpected argument '%s': use %s", argv[optind],
				 SEG_OPTS);
	return a->cleanup ? CLI_EXIT_OK : seg_check(a);
}

/* --cleanup: remove leftovers of dead runs of @kind, or of every kind (NULL). */
static int seg_cmd_cleanup(const struct seg_kind *only)
{
	int rc = CLI_EXIT_OK;
	long pid;

	if (!daemon_check_root("segment", "to remove namespaces"))
		return CLI_EXIT_FAIL;
	for (unsigned i = 0; i < SEG_KINDS; i++) {
		const struct seg_kind *kind = seg_kinds[i];

		if (only && kind != only)
			continue;
		seg_lock(kind);
		if (seg_cleanup(kind, true, &pid) == -EBUSY) {
			fprintf(stderr,
				"ethdrv segment: the %s of pid %ld is running: stop it with "
				"kill -TERM %ld; it cleans up after itself\n",
				kind->title, pid, pid);
			rc = CLI_EXIT_FAIL;
		}
	}
	return rc;
}

/* Checks before creating anything; CLI_EXIT_OK to go on. */
static int seg_preflight(const struct seg *s)
{
	const struct seg_kind *kind = s->kind;
	long pid;

	if (!daemon_check_root("segment", "to create namespaces") || !daemon_check_tun("segment"))
		return CLI_EXIT_FAIL;
	if (daemon_log_setup(s->args.common.use_syslog, s->args.common.log_level, "segment"))
		return CLI_EXIT_USAGE;
	seg_lock(kind);
	if (seg_cleanup(kind, false, &pid) == -EBUSY) {
		fprintf(stderr,
			"ethdrv segment: namespaces %s* are in use by a live %s (pid %ld): "
			"stop it first (kill -TERM %ld)\n",
			kind->prefix, kind->title, pid, pid);
		return CLI_EXIT_FAIL;
	}
	if (seg_write_marker(kind, s->args.nodes)) {
		fprintf(stderr, "ethdrv segment: %s: %s\n", kind->marker, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Bring the segment up, run until a signal, take it down. */
static int seg_run(struct seg *s)
{
	int rc;

	s->sig.fd = -1;
	if (daemon_block_signals()) {
		fprintf(stderr, "ethdrv segment: cannot block signals: %s\n", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	rc = seg_preflight(s);
	if (rc)
		return rc;
	if (seg_up(s) == 0) {
		seg_print_ready(s);
		rc = ethdrv_loop_run(s->loop) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	} else {
		rc = CLI_EXIT_FAIL;
	}
	seg_down(s);
	return rc;
}

int cmd_segment(int argc, char **argv)
{
	struct seg *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		fprintf(stderr, "ethdrv segment: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	rc = seg_parse(argc, argv, &s->args);
	s->kind = seg_kind_of(&s->args.dev);
	if (rc == 0)
		rc = s->args.cleanup ? seg_cmd_cleanup(s->args.dev_given ? s->kind : NULL) :
				       seg_run(s);
	free(s);
	return rc < 0 ? CLI_EXIT_OK : rc;
}
