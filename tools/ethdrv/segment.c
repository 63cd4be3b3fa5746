// SPDX-License-Identifier: MIT
/*
 * `ethdrv segment`: N network namespaces t1s0..t1sN-1, each with a TAP of the
 * same name driven by ethdrv over a LAN8650 model, all on one emulated
 * 10BASE-T1S PLCA segment (docs/design.md §1, §3). Runs until SIGINT or
 * SIGTERM and removes what it created. A marker file lists what a run
 * creates before it creates it, so a later run (or --cleanup) can remove
 * the leftovers of one that was killed.
 *
 * Threads (docs/design.md §4): the main thread creates the namespaces and
 * the medium, then runs a loop for signals and the segment's control
 * socket (/run/ethdrv/segment.sock: the medium's counters); each node has
 * its own loop thread (node.c).
 */
#include <assert.h>
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

#include "cli.h"
#include "cmd.h"
#include "ctl.h"
#include "daemon.h"
#include "emu/t1s_medium.h"
#include "ethdrv/err.h"
#include "ethdrv/stats.h"
#include "node.h"
#include "platform/linux/platform.h"

#define SEG_NODES_MIN 2
#define SEG_NODES_MAX 16
#define SEG_MARKER CLI_RUN_DIR "/segment.pid"
#define SEG_LOCK CLI_RUN_DIR "/segment.lock" /* flock()ed by the live segment */
#define SEG_NETNS_PREFIX "t1s"
#define SEG_SUBNET "169.254.10." /* link-local, only inside our namespaces */

static_assert(sizeof(ethdrv_counter_t) == sizeof(uint64_t),
	      "medium counters are registered as ethdrv counters");

static const char seg_usage[] =
	"usage: ethdrv segment [--nodes N] [options]\n"
	"       ethdrv segment --cleanup\n"
	"\n"
	"Create N network namespaces t1s0..t1sN-1, each with a TAP interface t1sK\n"
	"(169.254.10.K+1/24, MAC 02:45:54:48:00:0K) driven by ethdrv over a LAN8650\n"
	"model, all on one emulated 10BASE-T1S PLCA segment (node 0 is the PLCA\n"
	"coordinator, node-cnt N, node ids 0..N-1). Runs in the foreground until\n"
	"SIGINT or SIGTERM, then removes everything it created. Needs root.\n"
	"\n"
	"  -n, --nodes N         nodes, 2..16 (default 2)\n"
	"  -d, --device SPEC     model options for every node: emu:lan8650[,hz=N]\n"
	"                        [,rx-buf=N][,setup-ns=N][,mosi-ber=X][,miso-ber=X]\n"
	"                        [,rev=B0|B1][,irq=none[,poll_us=N]]\n"
	"  -s, --set KEY=VALUE   a knob for every node after bring-up (repeatable;\n"
	"                        see `ethdrv set --help`)\n"
	"  -p, --pcap FILE       capture every frame on the segment (pcap, ns)\n"
	"  -t, --spi-trace FILE  trace every SPI transfer of node K to FILE.t1sK\n"
	"      --trace-dir DIR   allow `ethdrv set t1sK spi_trace=NAME` at run time,\n"
	"                        NAME a file in DIR (refused without this option)\n"
	"      --rt-prio N       run each node's loop and poller threads at SCHED_FIFO\n"
	"                        priority N (1..99; busy_poll is then refused; the\n"
	"                        medium keeps its policy)\n"
	"  -c, --cleanup         remove what a killed segment left behind, then exit\n"
	"      --syslog          log to syslog instead of stderr\n"
	"      --log-level L     err, warn, info or debug\n"
	"  -h, --help            this text\n"
	"\n"
	"While it runs: `ethdrv stats`, `ethdrv stats segment` (the medium),\n"
	"`ethdrv set t1s0 KEY=VALUE`, `ip netns exec t1s0 ping 169.254.10.2`.\n";

#define SEG_OPTS                                                                  \
	"--nodes, --device, --set, --pcap, --spi-trace, --trace-dir, --rt-prio, " \
	"--cleanup, --syslog, --log-level, --help"

/* Options of one run. */
struct seg_args {
	unsigned nodes; /* 2..16 */
	struct cli_device dev; /* model settings */
	struct cli_knob knobs[CLI_KNOBS_MAX]; /* --set */
	unsigned knob_count; /* entries in knobs */
	const char *pcap; /* --pcap or NULL */
	const char *spi_trace; /* --spi-trace prefix or NULL */
	bool cleanup; /* --cleanup */
	struct cmd_common common; /* --set, --syslog, --log-level */
};

/* A running segment. */
struct seg {
	struct seg_args args; /* what was asked */
	struct ethdrv_loop *loop; /* the main thread's loop */
	struct daemon_signals sig; /* stops it */
	struct emu_t1s_medium *medium; /* the wire */
	struct emu_t1s_stats snap; /* medium counters, copied for each dump */
	struct ethdrv_stats_set *set; /* names for snap */
	struct ctl_server *ctl; /* segment.sock */
	struct ctl_server_stats ctl_snap; /* its counters, copied for each dump */
	struct node *node[SEG_NODES_MAX]; /* running nodes */
	bool netns_made[SEG_NODES_MAX]; /* namespaces this run created */
	char trace[SEG_NODES_MAX][256]; /* per-node SPI trace paths */
};

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

/* True for "t1s" followed by digits only. */
static bool seg_is_our_netns(const char *name)
{
	size_t n = strlen(SEG_NETNS_PREFIX);

	return !strncmp(name, SEG_NETNS_PREFIX, n) && name[n] &&
	       strspn(name + n, "0123456789") == strlen(name + n);
}

static int seg_del_netns(const char *name, void *arg)
{
	unsigned *removed = arg;

	if (seg_is_our_netns(name) && ethdrv_netns_del(name) == 0)
		(*removed)++;
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

/* Held for the life of the process that took it (the live segment, or a
 * --cleanup run): flock makes "is a segment running?" race-free where the
 * marker's pid alone is not (two starts at once, a reused pid). */
static int seg_lock_fd = -1;

/* Take SEG_LOCK; 0, -EBUSY if another process holds it, or -errno. */
static int seg_lock(void)
{
	int fd;

	if (seg_lock_fd >= 0)
		return 0;
	if (mkdir(CLI_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	fd = open(SEG_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? EBUSY : errno;

		close(fd);
		return -err;
	}
	seg_lock_fd = fd;
	return 0;
}

/*
 * Remove what a dead segment left: the namespaces its marker lists (with
 * @all, every t1s<digits> namespace), stale sockets, the marker.
 * Return 0, or -EBUSY (*@pid set) while the marker's process lives.
 */
static int seg_cleanup(bool all, long *pid)
{
	char line[128], name[64];
	unsigned removed = 0, socks;
	FILE *f = fopen(SEG_MARKER, "r");

	*pid = 0;
	if (f && fgets(line, sizeof(line), f) && sscanf(line, "pid %ld", pid) == 1 &&
	    (seg_lock_fd < 0 || seg_pid_is_live(*pid))) {
		fclose(f);
		return -EBUSY;
	}
	if (seg_lock_fd < 0) {
		if (f)
			fclose(f);
		return -EBUSY;
	}
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "netns %63s", name) == 1)
			seg_del_netns(name, &removed);
	if (f)
		fclose(f);
	if (all)
		ethdrv_netns_list(SEG_NETNS_PREFIX, seg_del_netns, &removed);
	socks = seg_del_stale_sockets();
	if (unlink(SEG_MARKER) == 0 || removed || socks)
		fprintf(stderr, "ethdrv segment: removed leftovers: %u namespaces, %u sockets\n",
			removed, socks);
	return 0;
}

/* Write the marker: our pid and the namespaces we are about to create. */
static int seg_write_marker(unsigned nodes)
{
	FILE *f;
	unsigned i;

	if (mkdir(CLI_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	f = fopen(SEG_MARKER, "w");
	if (!f)
		return -errno;
	fprintf(f, "pid %ld\n", (long)getpid());
	for (i = 0; i < nodes; i++)
		fprintf(f, "netns %s%u\n", SEG_NETNS_PREFIX, i);
	return fclose(f) ? -errno : 0;
}

/* ---- the segment's control socket -------------------------------------- */

static const struct ethdrv_stat_desc seg_stats_desc[] = {
	ETHDRV_STAT_DESC(struct emu_t1s_stats, preamble_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, frame_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, ifg_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, beacon_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, silence_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, backoff_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, collision_bits),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, idle_ns),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, cycles),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, beacons),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, idle_cycles),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, empty_opportunities),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, excessive_collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, dropped),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, now_ns),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, start_ns),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, wakeups),
	ETHDRV_STAT_DESC(struct emu_t1s_stats, pcap_errors),
};

static const struct ethdrv_stat_desc seg_port_desc[] = {
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, frames),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, bytes),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, excessive_collisions),
	ETHDRV_STAT_DESC(struct emu_t1s_port_stats, dropped),
};

/* Register the medium's counters (in s->snap) and lateness histogram. */
static int seg_stats_init(struct seg *s)
{
	char prefix[16];
	unsigned i;
	int err = ethdrv_stats_set_new(&s->set);

	if (!err)
		err = ethdrv_stats_add_group(s->set, "", seg_stats_desc,
					     sizeof(seg_stats_desc) / sizeof(seg_stats_desc[0]),
					     &s->snap);
	for (i = 0; !err && i < s->args.nodes; i++) {
		snprintf(prefix, sizeof(prefix), "port%u", i);
		err = ethdrv_stats_add_group(s->set, prefix, seg_port_desc,
					     sizeof(seg_port_desc) / sizeof(seg_port_desc[0]),
					     &s->snap.port[i]);
	}
	if (!err)
		err = ethdrv_stats_add_hist(s->set, "lateness_ns",
					    emu_t1s_medium_lateness(s->medium));
	if (!err)
		err = ethdrv_stats_add_group(s->set, "ctl", ctl_server_stats_desc,
					     ctl_server_stats_desc_count, &s->ctl_snap);
	return err;
}

static int seg_ctl_stats(void *arg, bool json, struct ctl_reply *r)
{
	enum ethdrv_stats_format fmt = json ? ETHDRV_STATS_JSON : ETHDRV_STATS_TEXT;
	struct seg *s = arg;
	int len;
	char *p;

	emu_t1s_medium_get_stats(s->medium, &s->snap);
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

static int seg_ctl_set(void *arg, const char *key, const char *value, const char **why)
{
	return -EOPNOTSUPP; /* the medium has no knobs: set them on the nodes */
}

/* Read-only facts a client needs to compute the medium limit. */
static int seg_ctl_get(void *arg, const char *key, char *buf, size_t size)
{
	struct seg *s = arg;
	unsigned v;

	if (!strcmp(key, "nodes"))
		v = s->args.nodes;
	else if (!strcmp(key, "beacon_bt"))
		v = EMU_T1S_BEACON_BT;
	else if (!strcmp(key, "ifg_bt"))
		v = EMU_T1S_IFG_BT;
	else if (!strcmp(key, "bit_ns"))
		v = EMU_BIT_NS;
	else
		return -ENOENT;
	return snprintf(buf, size, "%u", v) < (int)size ? 0 : -ENOSPC;
}

static int seg_ctl_info(void *arg, struct ctl_reply *r)
{
	struct seg *s = arg;

	ctl_reply_printf(r, "name=%s\nnodes=%u\npcap=%s\npid=%ld\n", CTL_SEGMENT_NAME,
			 s->args.nodes, s->args.pcap ? s->args.pcap : "", (long)getpid());
	return 0;
}

static const struct ctl_ops seg_ctl_ops = {
	.stats = seg_ctl_stats,
	.set = seg_ctl_set,
	.get = seg_ctl_get,
	.info = seg_ctl_info,
};

/* ---- bring-up and teardown --------------------------------------------- */

/* Create namespace t1s@i; explain an existing one. */
static int seg_make_netns(struct seg *s, unsigned i)
{
	char name[16];
	int err;

	snprintf(name, sizeof(name), "%s%u", SEG_NETNS_PREFIX, i);
	err = ethdrv_netns_add(name);
	if (err == -EEXIST)
		fprintf(stderr,
			"ethdrv segment: namespace %s exists and belongs to no live segment: "
			"remove it with `ethdrv segment --cleanup` (or `ip netns del %s`)\n",
			name, name);
	else if (err)
		fprintf(stderr, "ethdrv segment: namespace %s: %s\n", name, ethdrv_strerror(err));
	s->netns_made[i] = !err;
	return err;
}

/* The settings of node @i. */
static void seg_node_config(struct seg *s, unsigned i, struct node_config *nc)
{
	memset(nc, 0, sizeof(*nc));
	nc->index = i;
	snprintf(nc->ifname, sizeof(nc->ifname), "%s%u", SEG_NETNS_PREFIX, i);
	snprintf(nc->netns, sizeof(nc->netns), "%s", nc->ifname);
	snprintf(nc->addr, sizeof(nc->addr), SEG_SUBNET "%u", (uint8_t)(i + 1)); /* i < 16 */
	nc->prefix = 24;
	cli_node_mac(i, nc->mac);
	nc->dev = s->args.dev;
	nc->plca = (struct lan865x_plca){ .enable = true,
					  .node_id = (uint8_t)i,
					  .node_cnt = (uint8_t)s->args.nodes };
	nc->medium = emu_t1s_medium_base(s->medium);
	nc->port = i;
	nc->tap_exclusive = true;
	nc->disable_ipv6 = true;
	if (s->args.spi_trace) {
		snprintf(s->trace[i], sizeof(s->trace[i]), "%s.%s", s->args.spi_trace, nc->ifname);
		nc->spi_trace = s->trace[i];
	}
	nc->trace_dir = s->args.common.trace_dir;
	nc->rt_prio = s->args.common.rt_prio;
	memcpy(nc->knobs, s->args.knobs, sizeof(nc->knobs));
	nc->knob_count = s->args.knob_count;
}

/* Medium, then one node per namespace, then the main loop's watchers. */
static int seg_up(struct seg *s)
{
	struct emu_t1s_config mc = { .ports = s->args.nodes,
				     .realtime = true,
				     .pcap_path = s->args.pcap };
	struct node_config nc;
	char path[108];
	unsigned i;
	int err;

	for (i = 0; i < s->args.nodes; i++) {
		err = seg_make_netns(s, i);
		if (err)
			return err;
	}
	err = emu_t1s_medium_new(&mc, &s->medium);
	if (err) {
		fprintf(stderr, "ethdrv segment: medium%s%s: %s\n",
			s->args.pcap ? " with pcap " : "", s->args.pcap ? s->args.pcap : "",
			ethdrv_strerror(err));
		return err;
	}
	for (i = 0; i < s->args.nodes; i++) {
		seg_node_config(s, i, &nc);
		err = node_start(&nc, &s->node[i]);
		if (err) {
			fprintf(stderr, "ethdrv segment: node %s: %s\n", nc.ifname,
				ethdrv_strerror(err));
			return err;
		}
	}
	err = seg_stats_init(s);
	if (!err)
		err = ethdrv_loop_new(&s->loop);
	if (!err)
		err = daemon_signals_start(s->loop, &s->sig);
	if (!err)
		err = ctl_sock_path(CTL_SEGMENT_NAME, path, sizeof(path));
	if (!err)
		err = ctl_server_start(s->loop, path, &seg_ctl_ops, s, &s->ctl);
	if (err)
		fprintf(stderr, "ethdrv segment: control: %s\n", ethdrv_strerror(err));
	return err;
}

/* Remove everything, in reverse order; safe on a partial bring-up. */
static void seg_down(struct seg *s)
{
	char name[16];
	unsigned i;

	ctl_server_stop(s->ctl);
	daemon_signals_stop(&s->sig);
	for (i = s->args.nodes; i-- > 0;)
		node_stop(s->node[i]);
	emu_medium_free(s->medium ? emu_t1s_medium_base(s->medium) : NULL);
	ethdrv_stats_set_free(s->set);
	ethdrv_loop_free(s->loop);
	for (i = 0; i < s->args.nodes; i++) {
		snprintf(name, sizeof(name), "%s%u", SEG_NETNS_PREFIX, i);
		if (s->netns_made[i] && ethdrv_netns_del(name))
			fprintf(stderr, "ethdrv segment: namespace %s not removed\n", name);
	}
	unlink(SEG_MARKER);
}

/* Tell the user what is up. */
static void seg_print_ready(const struct seg *s)
{
	unsigned i;

	printf("ethdrv segment: %u nodes up:", s->args.nodes);
	for (i = 0; i < s->args.nodes; i++)
		printf(" %s%u=" SEG_SUBNET "%u", SEG_NETNS_PREFIX, i, i + 1);
	printf("%s%s; stop with Ctrl-C or kill -TERM %ld\n", s->args.pcap ? "; pcap " : "",
	       s->args.pcap ? s->args.pcap : "", (long)getpid());
	fflush(stdout);
}

/* ---- arguments ------------------------------------------------------------ */

/* Handle one option; CLI_EXIT_OK or CLI_EXIT_USAGE. */
static int seg_option(int c, struct seg_args *a, char **argv)
{
	unsigned long v;
	int rc;

	switch (c) {
	case 'n':
		if (cli_parse_ulong("segment", "--nodes", optarg, SEG_NODES_MIN, SEG_NODES_MAX, &v))
			return CLI_EXIT_USAGE;
		a->nodes = (unsigned)v;
		return CLI_EXIT_OK;
	case 'd':
		if (cli_parse_device("segment", optarg, &a->dev))
			return CLI_EXIT_USAGE;
		if (a->dev.kind != CLI_DEV_EMU)
			return cli_usage("segment",
					 "--device: '%s' is not a model: use "
					 "emu:lan8650[,key=value...]",
					 optarg);
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
	}
	rc = cmd_common_option("segment", c, &a->common);
	if (rc >= 0)
		return rc;
	return cmd_bad_option("segment", argv, SEG_OPTS);
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
		{ "cleanup", no_argument, NULL, 'c' },
		{ "syslog", no_argument, NULL, 'S' },
		{ "log-level", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	a->common.knobs = a->knobs;
	a->common.knob_count = &a->knob_count;
	a->nodes = SEG_NODES_MIN;
	cli_parse_device("segment", "emu:lan8650", &a->dev);
	while ((c = cmd_getopt(argc, argv, "n:d:s:p:t:ch", opts)) != -1) {
		if (c == 'h') {
			fputs(seg_usage, stdout);
			return -1;
		}
		rc = seg_option(c, a, argv);
		if (rc)
			return rc;
	}
	if (optind < argc)
		return cli_usage("segment", "unexpected argument '%s': use %s", argv[optind],
				 SEG_OPTS);
	return CLI_EXIT_OK;
}

/* --cleanup: remove leftovers of a dead segment. */
static int seg_cmd_cleanup(void)
{
	long pid;

	if (!daemon_check_root("segment", "to remove namespaces"))
		return CLI_EXIT_FAIL;
	seg_lock();
	if (seg_cleanup(true, &pid) == -EBUSY) {
		fprintf(stderr,
			"ethdrv segment: a segment is running (pid %ld): stop it with "
			"kill -TERM %ld; it cleans up after itself\n",
			pid, pid);
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Checks before creating anything; CLI_EXIT_OK to go on. */
static int seg_preflight(const struct seg_args *a)
{
	long pid;

	if (!daemon_check_root("segment", "to create namespaces") || !daemon_check_tun("segment"))
		return CLI_EXIT_FAIL;
	if (daemon_log_setup(a->common.use_syslog, a->common.log_level, "segment"))
		return CLI_EXIT_USAGE;
	seg_lock();
	if (seg_cleanup(false, &pid) == -EBUSY) {
		fprintf(stderr,
			"ethdrv segment: namespaces t1s* are in use by a live segment "
			"(pid %ld): stop it first (kill -TERM %ld)\n",
			pid, pid);
		return CLI_EXIT_FAIL;
	}
	if (seg_write_marker(a->nodes)) {
		fprintf(stderr, "ethdrv segment: %s: %s\n", SEG_MARKER, strerror(errno));
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
	rc = seg_preflight(&s->args);
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
	if (rc == 0)
		rc = s->args.cleanup ? seg_cmd_cleanup() : seg_run(s);
	free(s);
	return rc < 0 ? CLI_EXIT_OK : rc;
}
