// SPDX-License-Identifier: MIT
/* One interface: loop thread, device, TAP bridge, control socket (node.h). */
#include "node.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "emu/lan865x_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/compiler.h"
#include "ethdrv/err.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "ethdrv/pkt.h"
#include "platform/linux/platform.h"

ETHDRV_LOG_MODULE(node);

#define NODE_POOL_SIZE 512 /* TX queue (128) + RX in flight, with room to spare */
#define NODE_TAP_BATCH 16 /* frames read from the TAP per readiness event */
#define NODE_RETRY_NS 1000000u /* retry after an empty pool: 1 ms */
#define NODE_MTU 1500
#define NODE_FAULT_PERIOD_MAX 3600000u /* longest fault period: 1 h in ms */
#define NODE_FAULT_BURST_MAX 1000u /* faults per period */

/* Frames between the TAP and the device; the ends of the accounting chain. */
struct node_stats {
	ethdrv_counter_t tap_rx_frames; /* frames read from the TAP, handed to the device */
	ethdrv_counter_t tap_rx_errors; /* TAP reads that failed (not EAGAIN) */
	ethdrv_counter_t tap_tx_frames; /* received frames written to the TAP */
	ethdrv_counter_t tap_tx_dropped; /* received frames the TAP refused (full, down) */
};

static const struct ethdrv_stat_desc node_stats_desc[] = {
	ETHDRV_STAT_DESC(struct node_stats, tap_rx_frames),
	ETHDRV_STAT_DESC(struct node_stats, tap_rx_errors),
	ETHDRV_STAT_DESC(struct node_stats, tap_tx_frames),
	ETHDRV_STAT_DESC(struct node_stats, tap_tx_dropped),
};

/* Periodic fault injection into the model (`emu.periodic`). */
struct node_fault_plan {
	int fault; /* enum lan865x_emu_fault, or -1 when off */
	unsigned period_ms; /* between bursts */
	unsigned burst; /* faults per burst */
};

/*
 * What the node's threads cost, for the benchmarks (group "node" in the
 * stats): CPU time of the loop thread and of the live poller threads
 * ("napi/<ifname>-<poller>"), the part of it spent inside the model's SPI
 * transfers (emulation work, not driver work; time the model holds the
 * caller is a sleep and costs no CPU, see emu_held_ns), and the loop's own
 * counters (ethdrv_loop_get_stats()).
 */
struct node_metrics {
	ethdrv_counter_t loop_cpu_ns; /* loop thread CPU time */
	ethdrv_counter_t poller_cpu_ns; /* poller threads' CPU time (live threads) */
	ethdrv_counter_t poller_threads; /* live poller threads */
	ethdrv_counter_t model_cpu_ns; /* CPU time inside model transfers (any thread) */
	ethdrv_counter_t loop_iterations; /* loop run_once calls */
	ethdrv_counter_t loop_sleeps; /* blocking waits entered */
	ethdrv_counter_t loop_wakeups; /* blocking waits that returned with work */
	ethdrv_counter_t loop_wakes_sent; /* cross-thread wakes of the loop */
};

static const struct ethdrv_stat_desc node_metrics_desc[] = {
	ETHDRV_STAT_DESC(struct node_metrics, loop_cpu_ns),
	ETHDRV_STAT_DESC(struct node_metrics, poller_cpu_ns),
	ETHDRV_STAT_DESC(struct node_metrics, poller_threads),
	ETHDRV_STAT_DESC(struct node_metrics, model_cpu_ns),
	ETHDRV_STAT_DESC(struct node_metrics, loop_iterations),
	ETHDRV_STAT_DESC(struct node_metrics, loop_sleeps),
	ETHDRV_STAT_DESC(struct node_metrics, loop_wakeups),
	ETHDRV_STAT_DESC(struct node_metrics, loop_wakes_sent),
};

struct node {
	struct node_config cfg; /* what it is */
	pthread_t thread; /* runs node_main() */
	pthread_mutex_t lock; /* protects ready and start_err */
	pthread_cond_t cond; /* signals ready */
	bool ready; /* setup finished (start_err says how) */
	int start_err; /* 0 or the setup -errno */
	int loop_err; /* ethdrv_loop_run() result */

	struct ethdrv_loop *loop; /* this node's loop */
	struct ethdrv_pkt_pool *pool; /* frames for both directions */
	struct lan865x_emu *emu; /* the model, or NULL for a real board */
	struct lan865x_emu_stats emu_stats; /* refreshed copy for stats dumps */
	struct ethdrv_spi_bus bus; /* the bus the driver talks to */
	struct ethdrv_spi_bus model_bus; /* emu: the model's own bus, timed by bus */
	struct node_metrics metrics; /* refreshed for stats dumps */
	bool bus_open; /* bus needs closing (spidev) */
	struct ethdrv_netdev *dev; /* the driver's device */
	int tap_fd; /* the TAP, -1 when closed */
	struct ethdrv_watch tap_watch; /* TAP readable */
	struct ethdrv_pkt *tx_parked; /* frame refused with -EBUSY, retried on wake */
	int wake_fd; /* eventfd: the TX queue woke (any thread) */
	struct ethdrv_watch wake_watch; /* wake_fd readable */
	struct ethdrv_timer retry; /* resumes TAP reads after an empty pool */
	struct ctl_server *ctl; /* the control socket */
	struct node_stats nst; /* TAP-side counters */
	struct node_fault_plan plan; /* periodic faults (loop thread) */
	struct ethdrv_timer fault_timer; /* fires every plan.period_ms */
};

/* ---- TAP -> device --------------------------------------------------- */

/* Offer @pkt to the device; false if the queue is stopped (pkt parked). */
static bool node_xmit(struct node *n, struct ethdrv_pkt *pkt)
{
	if (ethdrv_netdev_xmit(n->dev, pkt) == -EBUSY) {
		n->tx_parked = pkt;
		ethdrv_watch_set(&n->tap_watch, 0);
		return false;
	}
	return true;
}

static void node_on_tap(struct ethdrv_watch *w, unsigned events)
{
	struct node *n = w->data;
	struct ethdrv_pkt *pkt;
	ssize_t len;
	int i;

	for (i = 0; i < NODE_TAP_BATCH; i++) {
		/* 1. a buffer; with the pool empty, pause reading for a moment */
		pkt = ethdrv_pkt_alloc(n->pool);
		if (!pkt) {
			ethdrv_watch_set(&n->tap_watch, 0);
			ethdrv_timer_start(&n->retry, NODE_RETRY_NS, 0);
			return;
		}
		/* 2. one frame from the kernel stack */
		len = ethdrv_tap_read(n->tap_fd, pkt->data, ETHDRV_PKT_DATA_MAX);
		if (len <= 0) {
			ethdrv_pkt_free(pkt);
			if (len != -EAGAIN) {
				ethdrv_counter_inc(&n->nst.tap_rx_errors);
				ethdrv_warn_ratelimited(n->dev, "tap read: %d", (int)len);
			}
			return;
		}
		pkt->len = (uint32_t)len;
		ethdrv_counter_inc(&n->nst.tap_rx_frames);
		/* 3. to the driver; stop when its queue is full */
		if (!node_xmit(n, pkt))
			return;
	}
}

static void node_on_retry(struct ethdrv_timer *t)
{
	struct node *n = t->data;

	ethdrv_watch_set(&n->tap_watch, ETHDRV_EV_READ);
}

/* The TX queue woke up: may run on a poller thread, so only signal the loop. */
static void node_tx_wake(void *arg)
{
	struct node *n = arg;
	uint64_t one = 1;

	if (write(n->wake_fd, &one, sizeof(one)) < 0)
		ethdrv_warn_ratelimited(n->dev, "tx wake: %d", -errno);
}

static void node_on_wake(struct ethdrv_watch *w, unsigned events)
{
	struct node *n = w->data;
	struct ethdrv_pkt *pkt = n->tx_parked;
	uint64_t v;

	if (read(n->wake_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	if (!pkt)
		return;
	n->tx_parked = NULL;
	if (node_xmit(n, pkt))
		ethdrv_watch_set(&n->tap_watch, ETHDRV_EV_READ);
}

/* ---- device -> TAP --------------------------------------------------- */

/* Runs in the device's poll context (loop or poller thread). */
static void node_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *n = arg;
	int err = ethdrv_tap_write(n->tap_fd, pkt->data, pkt->len);

	/* Every frame is counted: written, or refused (a full TAP queue, a
	 * link set down) and dropped. */
	ethdrv_counter_inc(err ? &n->nst.tap_tx_dropped : &n->nst.tap_tx_frames);
	if (err && err != -EAGAIN && err != -EIO)
		ethdrv_warn_ratelimited(n->dev, "tap write: %d", err);
	ethdrv_pkt_free(pkt);
}

/* ---- metrics ---------------------------------------------------------- */

/* Model transfers, timed in CPU time of the calling thread. */
static int node_timed_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct node *n = ctx;
	struct timespec t0, t1;
	int ret;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	ret = ethdrv_spi_transfer(&n->model_bus, tx, rx, len);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	ethdrv_counter_add(
		&n->metrics.model_cpu_ns,
		(uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec)));
	return ret;
}

static const struct ethdrv_spi_ops node_timed_ops = { .transfer = node_timed_transfer };

/* CPU time of clock @cid in ns, 0 if it cannot be read. */
static uint64_t node_clock_ns(clockid_t cid)
{
	struct timespec ts;

	if (clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The CPU-time clock of thread @tid of this process (the kernel's encoding:
 * ~tid << 3 | per-thread | sched, as pthread_getcpuclockid() builds it). */
static clockid_t node_tid_clock(unsigned long tid)
{
	return (clockid_t)((~(unsigned)tid << 3) | 6u);
}

/* Sum the CPU time of this node's poller threads ("napi/<ifname>-..."). */
static void node_poller_cpu(struct node *n, uint64_t *ns, uint64_t *threads)
{
	char prefix[32], path[300], comm[32];
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	FILE *f;

	*ns = *threads = 0;
	snprintf(prefix, sizeof(prefix), "napi/%s-", n->cfg.ifname);
	prefix[15] = '\0'; /* the kernel keeps 15 characters of a thread name */
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, prefix, strlen(prefix))) {
			*ns += node_clock_ns(node_tid_clock(strtoul(de->d_name, NULL, 10)));
			(*threads)++;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
}

/* Refresh n->metrics (and the model's counters) for a stats dump. */
static void node_metrics_update(struct node *n)
{
	struct node_metrics *m = &n->metrics;
	struct ethdrv_loop_stats ls;
	uint64_t ns, threads;
	clockid_t cid;

	if (n->emu)
		lan865x_emu_get_stats(n->emu, &n->emu_stats);
	if (!pthread_getcpuclockid(n->thread, &cid))
		ethdrv_counter_set(&m->loop_cpu_ns, node_clock_ns(cid));
	node_poller_cpu(n, &ns, &threads);
	ethdrv_counter_set(&m->poller_cpu_ns, ns);
	ethdrv_counter_set(&m->poller_threads, threads);
	ethdrv_loop_get_stats(n->loop, &ls);
	ethdrv_counter_set(&m->loop_iterations, ls.iterations);
	ethdrv_counter_set(&m->loop_sleeps, ls.sleeps);
	ethdrv_counter_set(&m->loop_wakeups, ls.wakeups);
	ethdrv_counter_set(&m->loop_wakes_sent, ls.wakes_sent);
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

/* ---- fault injection knobs (emu.*) ------------------------------------ */

/* The fault named @s, or -EINVAL. */
static int node_fault_parse(const char *s)
{
	for (int i = 0; i < LAN865X_EMU_FAULT_COUNT; i++)
		if (!strcmp(s, lan865x_emu_fault_name((enum lan865x_emu_fault)i)))
			return i;
	return -EINVAL;
}

static void node_on_fault_timer(struct ethdrv_timer *t)
{
	struct node *n = t->data;

	for (unsigned i = 0; n->plan.fault >= 0 && i < n->plan.burst; i++)
		lan865x_emu_inject(n->emu, (enum lan865x_emu_fault)n->plan.fault);
}

/* Parse "FAULT:MS[:BURST]" or "off" into @p. */
static int node_plan_parse(const char *v, struct node_fault_plan *p)
{
	char name[32], tail;
	unsigned ms = 0, burst = 1;
	int k;

	*p = (struct node_fault_plan){ .fault = -1 };
	if (!strcmp(v, "off"))
		return 0;
	k = sscanf(v, "%31[a-z_]:%u:%u%c", name, &ms, &burst, &tail);
	if (k < 2 || k > 3 || !ms || ms > NODE_FAULT_PERIOD_MAX || !burst ||
	    burst > NODE_FAULT_BURST_MAX || (p->fault = node_fault_parse(name)) < 0)
		return -EINVAL;
	if (k == 2 && strchr(strchr(v, ':') + 1, ':'))
		return -EINVAL; /* "reset:10:" */
	p->period_ms = ms;
	p->burst = burst;
	return 0;
}

/* Apply a periodic fault plan: the timer restarts with the new period. */
static int node_plan_apply(struct node *n, const struct node_fault_plan *p)
{
	ethdrv_timer_stop(&n->fault_timer);
	n->plan = *p;
	if (p->fault < 0)
		return 0;
	return ethdrv_timer_start(&n->fault_timer, (uint64_t)p->period_ms * 1000000u,
				  (uint64_t)p->period_ms * 1000000u);
}

/* Parse a bit error rate in 0..0.5. */
static int node_ber_parse(const char *v, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(v, &end);
	return !*v || errno || *end || !(*out >= 0.0 && *out <= 0.5) ? -EINVAL : 0;
}

/* A plan from one of the shorthands emu.reset_every_ms=MS, emu.overflow_storm=BURST/MS. */
static int node_plan_shorthand(const char *key, const char *v, struct node_fault_plan *p)
{
	unsigned burst, ms;
	char buf[64], tail;

	if (!strcmp(key, "reset_every_ms")) {
		snprintf(buf, sizeof(buf), "reset:%s", v);
		return !strcmp(v, "0") ? node_plan_parse("off", p) : node_plan_parse(buf, p);
	}
	if (!strcmp(v, "0") || !strcmp(v, "off"))
		return node_plan_parse("off", p);
	if (sscanf(v, "%u/%u%c", &burst, &ms, &tail) != 2)
		return -EINVAL;
	snprintf(buf, sizeof(buf), "rx_overflow:%u:%u", ms, burst);
	return node_plan_parse(buf, p);
}

/* `emu.KEY=VALUE`: fault injection into the model (ethdrv set --help). */
static int node_emu_set(struct node *n, const char *key, const char *v)
{
	struct node_fault_plan plan;
	double ber;
	int f, err;

	if (!n->emu)
		return -EOPNOTSUPP; /* a real board has no fault injection */
	if (!strcmp(key, "mosi-ber") || !strcmp(key, "miso-ber")) {
		struct lan865x_emu_config c;

		if (node_ber_parse(v, &ber))
			return -EINVAL;
		lan865x_emu_get_ber(n->emu, &c.mosi_ber, &c.miso_ber);
		*(key[1] == 'o' ? &c.mosi_ber : &c.miso_ber) = ber;
		return lan865x_emu_set_ber(n->emu, c.mosi_ber, c.miso_ber);
	}
	if (!strcmp(key, "inject")) {
		f = node_fault_parse(v);
		return f < 0 ? f : lan865x_emu_inject(n->emu, (enum lan865x_emu_fault)f);
	}
	if (!strcmp(key, "periodic"))
		err = node_plan_parse(v, &plan);
	else if (!strcmp(key, "reset_every_ms") || !strcmp(key, "overflow_storm"))
		err = node_plan_shorthand(key, v, &plan);
	else
		return -ENOENT;
	return err ? err : node_plan_apply(n, &plan);
}

static int node_emu_get(struct node *n, const char *key, char *buf, size_t size)
{
	double mosi, miso;
	int len;

	if (!n->emu)
		return -EOPNOTSUPP;
	lan865x_emu_get_ber(n->emu, &mosi, &miso);
	if (!strcmp(key, "mosi-ber") || !strcmp(key, "miso-ber"))
		len = snprintf(buf, size, "%g", key[1] == 'o' ? mosi : miso);
	else if (!strcmp(key, "periodic") && n->plan.fault < 0)
		len = snprintf(buf, size, "off");
	else if (!strcmp(key, "periodic"))
		len = snprintf(buf, size, "%s:%u:%u",
			       lan865x_emu_fault_name((enum lan865x_emu_fault)n->plan.fault),
			       n->plan.period_ms, n->plan.burst);
	else
		return -ENOENT;
	return len < (int)size ? 0 : -ENOSPC;
}

/* A knob: emu.* for the model, anything else for the device. */
static int node_set_knob(struct node *n, const char *key, const char *value)
{
	if (!strncmp(key, "emu.", 4))
		return node_emu_set(n, key + 4, value);
	return ethdrv_netdev_set(n->dev, key, value);
}

static int node_ctl_set(void *arg, const char *key, const char *value)
{
	return node_set_knob(arg, key, value);
}

static int node_ctl_get(void *arg, const char *key, char *buf, size_t size)
{
	struct node *n = arg;

	if (!strncmp(key, "emu.", 4))
		return node_emu_get(n, key + 4, buf, size);
	return ethdrv_netdev_get(n->dev, key, buf, size);
}

static int node_ctl_info(void *arg, struct ctl_reply *r)
{
	struct node *n = arg;
	const uint8_t *m = n->cfg.mac;

	ctl_reply_printf(r, "name=%s\ndevice=%s\nnetns=%s\n", n->cfg.ifname, n->cfg.dev.spec,
			 n->cfg.netns);
	ctl_reply_printf(r, "addr=%s/%u\nmac=%02x:%02x:%02x:%02x:%02x:%02x\npid=%d\n", n->cfg.addr,
			 n->cfg.prefix, m[0], m[1], m[2], m[3], m[4], m[5], (int)getpid());
	return 0;
}

static const struct ctl_ops node_ctl_ops = {
	.stats = node_ctl_stats,
	.set = node_ctl_set,
	.get = node_ctl_get,
	.info = node_ctl_info,
};

/* ---- setup and teardown ---------------------------------------------- */

/* Write "1" to a /proc/sys file of the calling thread's namespace. */
static void node_sysctl_one(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs("1", f) < 0 || fclose(f))
		ethdrv_warn(NULL, "%s: cannot write: %d", path, -errno);
}

/* Open the bus: a model (attached to the medium) or a real board. */
static int node_bus_open(struct node *n)
{
	struct lan865x_emu_config ec;
	struct ethdrv_spidev_spec spec;
	int err;

	if (n->cfg.dev.kind == CLI_DEV_SPIDEV) {
		err = ethdrv_spidev_spec_parse(n->cfg.dev.spec, &spec);
		if (!err)
			err = ethdrv_spidev_bus_open(&spec, &n->bus);
		n->bus_open = !err;
		return err;
	}
	lan865x_emu_config_default(&ec);
	ec.spi_hz = n->cfg.dev.emu.spi_hz;
	ec.setup_ns = n->cfg.dev.emu.setup_ns;
	ec.rx_buf_chunks = n->cfg.dev.emu.rx_buf_chunks;
	ec.mosi_ber = n->cfg.dev.emu.mosi_ber;
	ec.miso_ber = n->cfg.dev.emu.miso_ber;
	ec.model = n->cfg.dev.emu.model;
	ec.node_id = (uint8_t)n->cfg.index;
	ec.seed = n->cfg.index + 1;
	ec.realtime = true;
	err = lan865x_emu_new(&ec, &n->emu);
	if (err)
		return err;
	lan865x_emu_get_bus(n->emu, &n->model_bus);
	n->bus = n->model_bus;
	n->bus.ops = &node_timed_ops;
	n->bus.ctx = n;
	return n->cfg.medium ? lan865x_emu_attach(n->emu, n->cfg.medium, n->cfg.port) : 0;
}

/* Create the device on the bus and open it with the configured knobs. */
static int node_dev_open(struct node *n)
{
	struct lan865x_config lc = { .name = n->cfg.ifname, .plca = n->cfg.plca };
	unsigned i;
	int err;

	memcpy(lc.mac, n->cfg.mac, sizeof(lc.mac));
	err = lan865x_create(&lc, &n->bus, n->loop, n->pool, &n->dev);
	if (err)
		return err;
	if (n->emu &&
	    ethdrv_stats_add_group(ethdrv_netdev_stats(n->dev), "emu", lan865x_emu_stats_desc,
				   lan865x_emu_stats_desc_count, &n->emu_stats))
		ethdrv_warn(n->dev, "model counters not added to the stats");
	if (ethdrv_stats_add_group(ethdrv_netdev_stats(n->dev), "node", node_stats_desc,
				   ETHDRV_ARRAY_SIZE(node_stats_desc), &n->nst))
		ethdrv_warn(n->dev, "node counters not added to the stats");
	if (ethdrv_stats_add_group(ethdrv_netdev_stats(n->dev), "node", node_metrics_desc,
				   ETHDRV_ARRAY_SIZE(node_metrics_desc), &n->metrics))
		ethdrv_warn(n->dev, "node metrics not added to the stats");
	ethdrv_netdev_set_rx_handler(n->dev, node_rx, n);
	ethdrv_netdev_set_tx_wake_handler(n->dev, node_tx_wake, n);
	if (n->cfg.spi_trace) {
		err = ethdrv_netdev_set(n->dev, "spi_trace", n->cfg.spi_trace);
		if (err)
			return err;
	}
	err = ethdrv_netdev_open(n->dev);
	for (i = 0; !err && i < n->cfg.knob_count; i++) {
		err = node_set_knob(n, n->cfg.knobs[i].key, n->cfg.knobs[i].value);
		if (err)
			ethdrv_err(n->dev, "knob %s=%s: %s", n->cfg.knobs[i].key,
				   n->cfg.knobs[i].value, ethdrv_strerror(err));
	}
	return err;
}

/* Open the TAP and configure it: MAC, MTU, address, up; lo up. */
static int node_tap_open(struct node *n)
{
	unsigned flags = n->cfg.tap_exclusive ? ETHDRV_TAP_EXCL | ETHDRV_TAP_NO_PERSIST : 0;
	const char *ifname = n->cfg.ifname;
	int err;

	err = ethdrv_tap_open(ifname, flags, &n->tap_fd);
	if (err)
		return err;
	err = ethdrv_link_set_mac(ifname, n->cfg.mac);
	if (!err)
		err = ethdrv_link_set_mtu(ifname, NODE_MTU);
	if (!err && n->cfg.addr[0])
		err = ethdrv_addr_add_ipv4(ifname, n->cfg.addr, n->cfg.prefix);
	if (!err)
		err = ethdrv_link_set_up(ifname, true);
	if (!err && n->cfg.netns[0])
		err = ethdrv_link_set_up("lo", true);
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
	}
	ethdrv_netdev_destroy(n->dev);
	if (n->tx_parked)
		ethdrv_pkt_free(n->tx_parked);
	if (n->wake_fd >= 0)
		close(n->wake_fd);
	ethdrv_tap_close(n->tap_fd);
	lan865x_emu_free(n->emu);
	if (n->bus_open && n->bus.ops->close)
		n->bus.ops->close(n->bus.ctx);
	ethdrv_pkt_pool_free(n->pool);
}

/* Every setup step in order; the failing step is logged. */
static int node_setup(struct node *n)
{
	int saved_fd, err = 0;

	if (n->cfg.netns[0]) {
		err = ethdrv_netns_enter(n->cfg.netns, &saved_fd);
		if (err)
			return err;
		close(saved_fd); /* this thread never goes back */
	}
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
	err = ethdrv_pkt_pool_new(NODE_POOL_SIZE, &n->pool);
	if (!err && (err = node_bus_open(n)))
		ethdrv_err(NULL, "%s: device %s: %s", n->cfg.ifname, n->cfg.dev.spec,
			   ethdrv_strerror(err));
	if (!err && (err = node_dev_open(n)))
		ethdrv_err(NULL, "%s: driver bring-up: %s", n->cfg.ifname, ethdrv_strerror(err));
	if (!err && (err = node_tap_open(n)))
		ethdrv_err(NULL, "%s: tap: %s", n->cfg.ifname, ethdrv_strerror(err));
	if (!err)
		err = node_loop_setup(n);
	return err;
}

static void *node_main(void *arg)
{
	struct node *n = arg;
	int err = node_setup(n);

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
	n->tap_fd = -1;
	n->wake_fd = -1;
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
