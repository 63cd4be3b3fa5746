// SPDX-License-Identifier: MIT
/*
 * bench-napi: the cost of the NAPI core per packet and the wakeups it takes,
 * for plain NAPI, software IRQ coalescing, threaded and busy-poll modes.
 *
 * A fake device is fed by a producer thread through a single-producer,
 * single-consumer ring of packet lengths. Its IRQ is a level eventfd,
 * asserted while the ring holds packets (like IRQ_N). Its poll pops up to
 * `budget` entries, takes a buffer from the pool and hands it up with
 * ethdrv_netdev_receive(); the RX handler frees it. So everything a packet
 * costs besides the ring pop is core: pool, receive accounting, handler
 * dispatch, the poll loop, scheduling, epoll, eventfd, timers.
 *
 * Two measurements:
 * - batch: the ring is pre-filled, so every poll gets a full 64-packet
 *   batch; CPU ns per packet of the consuming threads, minus the ring-only
 *   baseline measured in the same run, is the core overhead per packet.
 * - steady: the producer emits packets at --rate pps for --seconds
 *   (absolute deadlines, 50 us steps; a late wakeup catches up, but never
 *   past the window's end, so exactly rate * seconds packets are offered);
 *   reports CPU ns per packet, wakeups (blocking waits that ended with work,
 *   plus poller-thread wakeups), IRQs and polls per 1000 packets, and the
 *   mean batch.
 *
 * Every run also counts what did not arrive: packets the producer found no
 * ring room for, packets the poll found no buffer for, and packets still in
 * the ring when the run stopped. A run is clean only if it delivered every
 * packet offered; a run that is not says so in its row.
 *
 * Output: one grep-friendly line per run, and with --md FILE a markdown
 * table with the machine, date and command.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ethdrv/driver.h"
#include "ethdrv/err.h"
#include "ethdrv/loop.h"
#include "ethdrv/napi.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"

#define RING_SIZE 65536u /* power of two */
#define BATCH_ROUNDS 40 /* pre-filled rings drained per batch measurement */
#define PRODUCER_STEP_NS 50000ull

struct ring {
	uint32_t head; /* producer index (atomic) */
	uint32_t tail; /* consumer index (atomic) */
	uint16_t len[RING_SIZE]; /* packet lengths */
};

struct bdev {
	struct ethdrv_netdev dev; /* must be first */
	struct ethdrv_napi *napi; /* the RX poller */
	struct ring ring; /* fed by the producer */
	int irq_fd; /* level eventfd: readable while the ring is non-empty */
	pthread_mutex_t irq_lock; /* keeps irq_level and the eventfd in step */
	int irq_level; /* 1 while asserted */
	uint64_t delivered; /* packets the RX handler freed */
};

struct run_cfg {
	const char *mode; /* "napi", "coalesce", "threaded", "busy" */
	unsigned defer; /* napi_defer_hard_irqs */
	unsigned flush_us; /* gro_flush_timeout in us */
	unsigned busy_us; /* busy_poll */
	unsigned rate; /* pps, 0 = batch measurement */
	double seconds; /* steady duration */
};

struct run_result {
	uint64_t offered; /* packets the producer tried to push */
	uint64_t pkts; /* packets delivered */
	uint64_t cpu_ns; /* CPU of the consuming side */
	uint64_t wall_ns; /* duration */
	uint64_t wakeups; /* loop wakeups + poller thread wakeups */
	uint64_t irqs; /* IRQ events */
	uint64_t polls; /* poll calls */
	uint64_t dropped_ring; /* producer found the ring full */
	uint64_t dropped_nobuf; /* poll found the packet pool empty (rx_dropped) */
	uint64_t left; /* still in the ring when the run stopped */
};

static uint64_t cpu_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Drive the level: the eventfd holds a count exactly while irq_level is 1. */
static void irq_set(struct bdev *b, int level)
{
	uint64_t v = 1;
	ssize_t n = sizeof(v);

	pthread_mutex_lock(&b->irq_lock);
	if (level && !b->irq_level)
		n = write(b->irq_fd, &v, sizeof(v));
	else if (!level && b->irq_level)
		n = read(b->irq_fd, &v, sizeof(v));
	b->irq_level = level;
	pthread_mutex_unlock(&b->irq_lock);
	if (n != sizeof(v))
		abort(); /* an eventfd in step with irq_level cannot fail */
}

static bool ring_push(struct ring *r, uint16_t len)
{
	uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);

	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) == RING_SIZE)
		return false;
	r->len[head & (RING_SIZE - 1)] = len;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	return true;
}

static bool ring_pop(struct ring *r, uint16_t *len)
{
	uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);

	if (tail == __atomic_load_n(&r->head, __ATOMIC_ACQUIRE))
		return false;
	*len = r->len[tail & (RING_SIZE - 1)];
	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	return true;
}

static bool ring_empty(struct ring *r)
{
	return __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) ==
	       __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
}

static int bdev_poll(struct ethdrv_napi *napi, int budget)
{
	struct bdev *b = ethdrv_napi_ctx(napi);
	int work = 0;
	uint16_t len;

	while (work < budget && ring_pop(&b->ring, &len)) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(b->dev.pool);

		if (!pkt) {
			ethdrv_counter_inc(&b->dev.stats.rx_dropped);
			continue;
		}
		pkt->len = len;
		ethdrv_netdev_receive(&b->dev, pkt);
		work++;
	}
	if (work < budget) {
		/* Release the level, then close the race with the producer. */
		irq_set(b, 0);
		if (!ring_empty(&b->ring))
			irq_set(b, 1);
		if (ethdrv_napi_complete_done(napi, work))
			ethdrv_napi_irq_unmask(napi);
	}
	return work;
}

static void bdev_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct bdev *b = arg;

	b->delivered++;
	ethdrv_pkt_free(pkt);
}

static int bdev_open(struct ethdrv_netdev *dev)
{
	struct bdev *b = ethdrv_container_of(dev, struct bdev, dev);

	ethdrv_napi_enable(b->napi);
	ethdrv_napi_irq_unmask(b->napi);
	return 0;
}

static int bdev_stop(struct ethdrv_netdev *dev)
{
	struct bdev *b = ethdrv_container_of(dev, struct bdev, dev);

	ethdrv_napi_disable(b->napi);
	return 0;
}

static const struct ethdrv_netdev_ops bdev_ops = {
	.open = bdev_open,
	.stop = bdev_stop,
};

struct producer {
	struct bdev *b; /* the device fed */
	unsigned rate; /* pps */
	uint64_t start_ns; /* the window: packets are due from here... */
	uint64_t end_ns; /* ...until here, never later */
	uint64_t produced; /* packets pushed */
	uint64_t dropped; /* ring full */
	uint64_t cpu_ns; /* this thread's CPU time */
};

/* Packets due by @now: rate * time into the window, capped at its end. */
static uint64_t producer_due(const struct producer *p, uint64_t now)
{
	now = ETHDRV_MIN(now, p->end_ns);
	return now > p->start_ns ? (now - p->start_ns) * p->rate / 1000000000ull : 0;
}

static void *producer_main(void *arg)
{
	struct producer *p = arg;
	uint64_t next = p->start_ns, now;

	do {
		struct timespec ts = { .tv_sec = next / 1000000000ull,
				       .tv_nsec = next % 1000000000ull };
		uint64_t due;

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		/* Emit what is due: a late wakeup catches up (the rate holds) but
		 * never bursts packets past the window's end. */
		now = ethdrv_now_ns();
		for (due = producer_due(p, now); p->produced + p->dropped < due;) {
			if (ring_push(&p->b->ring, 64))
				p->produced++;
			else
				p->dropped++;
		}
		irq_set(p->b, 1);
		next = ETHDRV_MIN(next + PRODUCER_STEP_NS, p->end_ns);
	} while (now < p->end_ns);
	p->cpu_ns = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

static void stop_cb(struct ethdrv_timer *t)
{
	ethdrv_loop_stop(t->loop);
}

static int setup(struct bdev *b, struct ethdrv_loop **loop, struct ethdrv_pkt_pool **pool,
		 const struct run_cfg *cfg)
{
	struct ethdrv_napi_config nc = { 0 };
	int err;

	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->irq_lock, NULL);
	b->irq_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (b->irq_fd < 0)
		return -errno;
	err = ethdrv_loop_new(loop);
	if (!err)
		err = ethdrv_pkt_pool_new(1024, pool);
	if (!err)
		err = ethdrv_netdev_init(&b->dev, "bench0", &bdev_ops, *loop, *pool);
	if (!err)
		err = ethdrv_napi_add(&b->dev, "rx", bdev_poll, ETHDRV_NAPI_WEIGHT, b, &b->napi);
	if (!err)
		err = ethdrv_napi_attach_irq(b->napi, b->irq_fd);
	if (err)
		return err;
	nc.defer_hard_irqs = cfg->defer;
	nc.gro_flush_timeout_ns = cfg->flush_us * 1000ull;
	nc.threaded = !strcmp(cfg->mode, "threaded");
	nc.busy_poll_us = cfg->busy_us;
	nc.busy_poll_budget = ETHDRV_NAPI_WEIGHT;
	err = ethdrv_napi_configure(b->napi, &nc);
	if (err)
		return err;
	ethdrv_netdev_set_rx_handler(&b->dev, bdev_rx, b);
	return ethdrv_netdev_open(&b->dev);
}

static void teardown(struct bdev *b, struct ethdrv_loop *loop, struct ethdrv_pkt_pool *pool)
{
	ethdrv_netdev_destroy(&b->dev);
	ethdrv_pkt_pool_free(pool);
	ethdrv_loop_free(loop);
	close(b->irq_fd);
}

static void collect(struct bdev *b, struct ethdrv_loop *loop, struct run_result *r)
{
	const struct ethdrv_napi_stats *ns = ethdrv_napi_stats(b->napi);
	struct ethdrv_loop_stats ls;

	ethdrv_loop_get_stats(loop, &ls);
	r->pkts = b->delivered;
	r->dropped_nobuf = ethdrv_counter_get(&b->dev.stats.rx_dropped);
	r->left = __atomic_load_n(&b->ring.head, __ATOMIC_ACQUIRE) -
		  __atomic_load_n(&b->ring.tail, __ATOMIC_ACQUIRE);
	r->wakeups = ls.wakeups + ethdrv_counter_get(&ns->thread_wakeups);
	r->irqs = ethdrv_counter_get(&ns->irqs);
	r->polls = ethdrv_counter_get(&ns->polls);
}

/* Drain pre-filled rings: every poll gets a full batch. */
static int run_batch(const struct run_cfg *cfg, struct run_result *r)
{
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	static struct bdev b;
	uint64_t cpu0, wall0;
	int err = setup(&b, &loop, &pool, cfg);

	if (err)
		return err;
	memset(r, 0, sizeof(*r));
	cpu0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	wall0 = ethdrv_now_ns();
	for (int round = 0; round < BATCH_ROUNDS; round++) {
		while (ring_push(&b.ring, 64))
			r->offered++;
		irq_set(&b, 1);
		while (!ring_empty(&b.ring))
			ethdrv_loop_run_once(loop, ETHDRV_RUN_NOWAIT);
	}
	r->cpu_ns = cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	r->wall_ns = ethdrv_now_ns() - wall0;
	collect(&b, loop, r);
	teardown(&b, loop, pool);
	return 0;
}

/* Packets at a steady rate from a producer thread. */
static int run_steady(const struct run_cfg *cfg, struct run_result *r)
{
	struct ethdrv_loop *loop;
	struct ethdrv_pkt_pool *pool;
	static struct bdev b;
	struct ethdrv_timer stop;
	struct producer p = { 0 };
	pthread_t th;
	uint64_t cpu0, wall0;
	int err = setup(&b, &loop, &pool, cfg);

	if (err)
		return err;
	memset(r, 0, sizeof(*r));
	p.b = &b;
	p.rate = cfg->rate;
	wall0 = ethdrv_now_ns();
	p.start_ns = wall0;
	p.end_ns = wall0 + (uint64_t)(cfg->seconds * 1e9);
	ethdrv_timer_init(loop, &stop, stop_cb);
	ethdrv_timer_start_at(&stop, p.end_ns + 20000000ull, 0);
	cpu0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (pthread_create(&th, NULL, producer_main, &p))
		return -EAGAIN;
	err = ethdrv_loop_run(loop);
	pthread_join(th, NULL);
	r->cpu_ns = cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0 - p.cpu_ns;
	r->wall_ns = ethdrv_now_ns() - wall0;
	r->offered = p.produced + p.dropped;
	r->dropped_ring = p.dropped;
	collect(&b, loop, r);
	teardown(&b, loop, pool);
	return err;
}

/* CPU ns per packet of the ring alone: what is not core in the batch run. */
static double ring_baseline_ns(void)
{
	static struct ring r;
	uint64_t t0, n = 0;
	volatile uint32_t sink = 0;
	uint16_t len;

	t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	for (int round = 0; round < BATCH_ROUNDS; round++) {
		while (ring_push(&r, 64))
			;
		while (ring_pop(&r, &len)) {
			sink += len;
			n++;
		}
	}
	return (double)(cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)n;
}

static const struct run_cfg steady_cfgs[] = {
	{ "napi", 0, 0, 0, 0, 0 },	 { "coalesce", 1, 20, 0, 0, 0 },
	{ "coalesce", 1, 50, 0, 0, 0 },	 { "coalesce", 2, 100, 0, 0, 0 },
	{ "coalesce", 2, 200, 0, 0, 0 }, { "coalesce", 4, 200, 0, 0, 0 },
	{ "threaded", 0, 0, 0, 0, 0 },	 { "threaded", 2, 200, 0, 0, 0 },
	{ "busy", 0, 0, 200, 0, 0 },
};

static void machine(char *buf, size_t size)
{
	struct utsname u;
	char line[256], model[128] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			snprintf(model, sizeof(model), "%s", c + 2);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	uname(&u);
	snprintf(buf, size, "%s, %ld CPUs, Linux %s", model, sysconf(_SC_NPROCESSORS_ONLN),
		 u.release);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench-napi [--rate PPS] [--seconds S] [--md FILE]\n"
			"  --rate     steady-load packet rate, 1000..5000000 (default 500000)\n"
			"  --seconds  duration of each steady run, 0.2..60 (default 2)\n"
			"  --md       also write a markdown table to FILE\n");
}

/* Packets offered but not delivered: 0 for a clean run. */
static uint64_t lost(const struct run_result *r)
{
	return r->offered - ETHDRV_MIN(r->pkts, r->offered);
}

static void print_row(FILE *md, const struct run_cfg *c, const struct run_result *r, double base_ns)
{
	double per = r->pkts ? (double)r->cpu_ns / (double)r->pkts : 0;
	double k = r->pkts ? 1000.0 / (double)r->pkts : 0;
	char name[48], clean[48] = "yes";

	if (lost(r))
		snprintf(clean, sizeof(clean), "**NO: %" PRIu64 " lost**", lost(r));
	snprintf(name, sizeof(name), "%s d=%u t=%uus b=%uus", c->mode, c->defer, c->flush_us,
		 c->busy_us);
	printf("bench-napi: %-28s rate=%u offered=%" PRIu64 " pkts=%" PRIu64
	       " dropped_ring=%" PRIu64 " dropped_nobuf=%" PRIu64 " left=%" PRIu64
	       " clean=%s ns_per_pkt=%.1f core_ns_per_pkt=%.1f wakeups_per_1000=%.2f "
	       "irqs_per_1000=%.2f polls_per_1000=%.2f batch=%.1f\n",
	       name, c->rate, r->offered, r->pkts, r->dropped_ring, r->dropped_nobuf, r->left,
	       lost(r) ? "NO" : "yes", per, per - base_ns, r->wakeups * k, r->irqs * k,
	       r->polls * k, r->polls ? (double)r->pkts / (double)r->polls : 0);
	if (md)
		fprintf(md,
			"| %s | %u | %u | %u | %u | %" PRIu64 " | %" PRIu64 " | %" PRIu64
			" / %" PRIu64 " / %" PRIu64 " | %s | %.1f | %.1f | %.2f | %.2f | "
			"%.2f | %.1f | %.2f |\n",
			c->mode, c->defer, c->flush_us, c->busy_us, c->rate, r->offered, r->pkts,
			r->dropped_ring, r->dropped_nobuf, r->left, clean, per, per - base_ns,
			r->wakeups * k, r->irqs * k, r->polls * k,
			r->polls ? (double)r->pkts / (double)r->polls : 0, r->wakeups * k * 0.064);
}

int main(int argc, char **argv)
{
	unsigned rate = 500000;
	double seconds = 2;
	const char *md_path = NULL;
	FILE *md = NULL;
	char mach[256], cmd[512] = "";
	struct run_cfg batch = { "napi", 0, 0, 0, 0, 0 };
	struct run_result r;
	double base;
	time_t now = time(NULL);

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--rate") && v && (rate = strtoul(v, NULL, 10)) >= 1000 &&
		    rate <= 5000000)
			i++;
		else if (!strcmp(argv[i], "--seconds") && v && (seconds = atof(v)) >= 0.2 &&
			 seconds <= 60)
			i++;
		else if (!strcmp(argv[i], "--md") && v)
			md_path = argv[++i];
		else {
			fprintf(stderr, "bench-napi: bad argument '%s'\n", argv[i]);
			usage();
			return 2;
		}
	}
	for (int i = 0; i < argc; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i ? " " : "",
			 argv[i]);
	machine(mach, sizeof(mach));
	if (md_path && !(md = fopen(md_path, "w"))) {
		fprintf(stderr, "bench-napi: %s: %s\n", md_path, strerror(errno));
		return 1;
	}
	base = ring_baseline_ns();
	if (md)
		fprintf(md,
			"# bench-napi: NAPI core cost per packet and wakeups\n\n"
			"- machine: %s\n- date: %s- command: `%s`\n"
			"- ring-only baseline (not core): %.1f ns/pkt\n"
			"- dropped: ring full (producer) / no buffer (poll) / left in the ring at "
			"the end; clean: every packet offered was delivered (a row that is not "
			"clean says how many were lost, and its figures do not count them)\n\n"
			"| mode | defer | flush us | busy us | rate pps | offered | delivered | "
			"dropped ring / no buffer / left | clean | CPU ns/pkt | core ns/pkt | "
			"wakeups/1000 | IRQs/1000 | polls/1000 | batch | wakeups/64 pkts |\n"
			"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
			mach, ctime(&now), cmd, base);
	if (run_batch(&batch, &r))
		return 1;
	print_row(md, &batch, &r, base);
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(steady_cfgs); i++) {
		struct run_cfg c = steady_cfgs[i];
		int err;

		c.rate = rate;
		c.seconds = seconds;
		err = run_steady(&c, &r);
		if (err) {
			fprintf(stderr, "bench-napi: %s: %s\n", c.mode, ethdrv_strerror(err));
			return 1;
		}
		print_row(md, &c, &r, base);
	}
	if (md)
		fclose(md);
	return 0;
}
