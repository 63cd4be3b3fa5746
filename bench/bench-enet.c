// SPDX-License-Identifier: MIT
/*
 * bench-enet: frames through driver -> model -> line -> model -> driver in
 * one process, in real time: the fec driver on two ENET models joined by a
 * 1000 or 100 Mb/s full-duplex line (src/emu/enet_emu.h). Node 0 (and with
 * --bidir node 1 too) keeps its TX queue full of frames of one size from
 * its device's pool; the other side counts and frees what arrives. No TAP,
 * no kernel stack: this is the cost of the driver and the model alone.
 *
 * Per configuration it prints one line:
 * - rate_pct: frames delivered per second against the line's limit for the
 *   size, computed in the same run from the line speed (preamble+SFD 8,
 *   frame padded to 60, FCS 4, gap 12 bytes per frame);
 * - wire_pct: the line's own busy time over the run, from its counters;
 * - cpu_ns_per_frame: process CPU time per delivered frame, and its split:
 *   the sender's and the receiver's loop threads (driver, interrupt
 *   handlers, NAPI in softirq mode, and the model work their register
 *   accesses do), and everything else (the line's engine thread, poller
 *   threads when threaded);
 * - wakeups_per_frame: blocking waits that woke (both loops, the engine,
 *   poller threads) per frame; irqs_per_frame: interrupt handler runs;
 * - the engine's lateness against the frames' physical times.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drivers/fec.h"
#include "emu/enet_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/err.h"
#include "ethdrv/loop.h"

#define WARMUP_NS 300000000ull

struct opts {
	double seconds; /* measured time per configuration */
	unsigned speed; /* 0 = 1000 and 100 */
	unsigned size; /* frame size without FCS */
	int bidir; /* -1 = both, 0 = one way, 1 = both ways */
	int split; /* napi_split */
	int threaded; /* threaded pollers */
	unsigned batch_us; /* engine batch */
	unsigned mmio_ns; /* register access latency */
	const char *rx_usecs; /* rx-usecs / tx-usecs, NULL = driver default */
};

struct node {
	struct ethdrv_loop *loop; /* this node's loop */
	struct enet_emu *emu; /* its controller */
	struct ethdrv_mmio_bus bus; /* the model's bus */
	struct ethdrv_netdev *dev; /* the driver */
	struct ethdrv_pkt_pool *pool; /* the device's pool */
	pthread_t thread; /* runs the loop */
	unsigned size; /* frame size to send */
	bool sending; /* keep the TX queue full */
	uint8_t peer[6]; /* destination address */
	uint64_t rx_frames; /* frames delivered (atomic) */
	uint64_t rx_bad; /* delivered with the wrong size (atomic) */
};

/* A snapshot of what a run is measured by. */
struct sample {
	uint64_t t, cpu, cpu_loop[2]; /* ns */
	uint64_t frames; /* delivered, both directions */
	uint64_t wakeups; /* loops + engine + poller threads */
	uint64_t irqs; /* interrupt handler runs, both devices */
	uint64_t wire_bytes; /* line bytes incl. preamble and gap, both directions */
};

static void feed(struct ethdrv_loop *loop, void *arg)
{
	struct node *n = arg;

	(void)loop;
	while (n->sending) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(n->pool);

		if (!pkt)
			return;
		memset(pkt->data + 14, 0x5a, n->size - 14);
		memcpy(pkt->data, n->peer, 6);
		memcpy(pkt->data + 6, n->dev->mac, 6);
		pkt->data[12] = 0x88;
		pkt->data[13] = 0xb5; /* local experimental EtherType */
		pkt->len = n->size;
		if (ethdrv_netdev_xmit(n->dev, pkt) == -EBUSY) {
			ethdrv_pkt_free(pkt);
			return;
		}
	}
}

static void tx_wake(void *arg)
{
	ethdrv_loop_wake(((struct node *)arg)->loop);
}

static void rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *n = arg;

	__atomic_fetch_add(pkt->len == n->size ? &n->rx_frames : &n->rx_bad, 1, __ATOMIC_RELAXED);
	ethdrv_pkt_free(pkt);
}

static void *node_main(void *arg)
{
	ethdrv_loop_run(((struct node *)arg)->loop);
	return NULL;
}

static int node_new(struct node *n, unsigned idx, struct fdx_line *line, unsigned speed,
		    const struct opts *o)
{
	struct fec_config cfg = { .mac = { 0x02, 0xe8, 0, 0, 0, (uint8_t)(idx + 1) },
				  .fixed_link_mbps = speed,
				  .combined_napi = !o->split };
	struct enet_emu_config ec;
	char name[16];
	int err;

	snprintf(name, sizeof(name), "enet%u", idx);
	cfg.name = name;
	enet_emu_config_default(&ec);
	ec.mmio_latency_ns = o->mmio_ns;
	ec.phy_addr = ENET_EMU_NO_PHY; /* a fixed MAC-to-MAC link: the datapath alone */
	memcpy(n->peer, (uint8_t[]){ 0x02, 0xe8, 0, 0, 0, (uint8_t)(2 - idx) }, 6);
	err = ethdrv_loop_new(&n->loop);
	if (!err)
		err = enet_emu_new(&ec, line, idx, &n->emu);
	if (err)
		return err;
	enet_emu_get_bus(n->emu, &n->bus);
	err = fec_create(&cfg, &n->bus, n->loop, &n->dev);
	if (err)
		return err;
	n->pool = fec_get_pool(n->dev);
	n->size = o->size;
	ethdrv_netdev_set_rx_handler(n->dev, rx, n);
	ethdrv_netdev_set_tx_wake_handler(n->dev, tx_wake, n);
	ethdrv_loop_set_before_sleep(n->loop, feed, n);
	if (o->threaded)
		err = ethdrv_netdev_set(n->dev, "threaded", "1");
	if (!err && o->rx_usecs)
		err = ethdrv_netdev_set(n->dev, "rx-usecs", o->rx_usecs);
	if (!err && o->rx_usecs)
		err = ethdrv_netdev_set(n->dev, "tx-usecs", o->rx_usecs);
	return err ? err : ethdrv_netdev_open(n->dev);
}

static uint64_t stat(struct node *n, const char *name)
{
	uint64_t v = 0;

	ethdrv_stats_get(ethdrv_netdev_stats(n->dev), name, &v);
	return v;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void take(struct sample *s, struct node *n, struct fdx_line *line)
{
	struct fdx_line_stats ls;

	memset(s, 0, sizeof(*s));
	s->t = ethdrv_now_ns();
	s->cpu = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	fdx_line_get_stats(line, &ls);
	s->wakeups = ethdrv_counter_get(&ls.wakeups);
	s->wire_bytes = ethdrv_counter_get(&ls.bytes[0]) + ethdrv_counter_get(&ls.bytes[1]);
	for (unsigned i = 0; i < 2; i++) {
		struct ethdrv_loop_stats st;
		clockid_t cid;

		if (!pthread_getcpuclockid(n[i].thread, &cid))
			s->cpu_loop[i] = clock_ns(cid);
		ethdrv_loop_get_stats(n[i].loop, &st);
		s->wakeups += st.wakeups + stat(&n[i], "napi_rx_thread_wakeups") +
			      stat(&n[i], "napi_tx_thread_wakeups");
		s->irqs += stat(&n[i], "fec_irqs");
		s->frames += __atomic_load_n(&n[i].rx_frames, __ATOMIC_RELAXED);
	}
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) == EINTR)
		;
}

static void report(const struct opts *o, unsigned speed, bool bidir, struct fdx_line *line,
		   const struct sample *a, const struct sample *b, uint64_t bad)
{
	double el = (double)(b->t - a->t) / 1e9, frames = (double)(b->frames - a->frames);
	double per = frames ? frames : 1, dirs = bidir ? 2 : 1;
	/* The limit, from the line speed: one frame per preamble+SFD, frame
	 * (padded to 60), FCS and gap, in each direction used. */
	double line_fps = speed * 1e6 / ((8.0 + ETHDRV_MAX(o->size, 60u) + 4 + 12) * 8) * dirs;
	const struct ethdrv_hist *lat = fdx_line_lateness(line);

	printf("bench-enet: speed=%u size=%u dir=%s split=%d threaded=%d batch_us=%u mmio_ns=%u "
	       "seconds=%.2f frames=%.0f fps=%.0f line_fps=%.0f rate_pct=%.2f wire_pct=%.2f "
	       "cpu_ns_per_frame=%.0f loop_tx_ns_per_frame=%.0f loop_rx_ns_per_frame=%.0f "
	       "other_ns_per_frame=%.0f wakeups_per_frame=%.3f irqs_per_frame=%.4f "
	       "lateness_p50_us=%.1f lateness_p99_us=%.1f bad=%" PRIu64 "\n",
	       speed, o->size, bidir ? "both" : "one", o->split, o->threaded, o->batch_us,
	       o->mmio_ns, el, frames, frames / el, line_fps, 100.0 * frames / el / line_fps,
	       100.0 * (double)(b->wire_bytes - a->wire_bytes) * 8 / (speed * 1e6 * el * dirs),
	       (double)(b->cpu - a->cpu) / per, (double)(b->cpu_loop[0] - a->cpu_loop[0]) / per,
	       (double)(b->cpu_loop[1] - a->cpu_loop[1]) / per,
	       (double)((b->cpu - a->cpu) - (b->cpu_loop[0] - a->cpu_loop[0]) -
			(b->cpu_loop[1] - a->cpu_loop[1])) /
		       per,
	       (double)(b->wakeups - a->wakeups) / per, (double)(b->irqs - a->irqs) / per,
	       ethdrv_hist_percentile(lat, 50) / 1e3, ethdrv_hist_percentile(lat, 99) / 1e3, bad);
}

static int run(const struct opts *o, unsigned speed, bool bidir)
{
	struct fdx_line_config lc;
	struct fdx_line *line;
	static struct node n[2];
	struct sample a, b;
	int err;

	fdx_line_config_default(&lc);
	lc.speed_mbps = speed;
	lc.batch_ns = (uint64_t)o->batch_us * 1000;
	memset(n, 0, sizeof(n));
	err = fdx_line_new(&lc, &line);
	for (unsigned i = 0; !err && i < 2; i++)
		err = node_new(&n[i], i, line, speed, o);
	if (err) {
		fprintf(stderr, "bench-enet: setup: %s\n", ethdrv_strerror(err));
		return 1;
	}
	n[0].sending = true;
	n[1].sending = bidir;
	for (unsigned i = 0; i < 2; i++)
		pthread_create(&n[i].thread, NULL, node_main, &n[i]);
	for (unsigned i = 0; i < 2; i++)
		ethdrv_loop_wake(n[i].loop);
	sleep_ns(WARMUP_NS);
	take(&a, n, line);
	sleep_ns((uint64_t)(o->seconds * 1e9));
	take(&b, n, line);
	for (unsigned i = 0; i < 2; i++) {
		ethdrv_loop_stop(n[i].loop);
		pthread_join(n[i].thread, NULL);
	}
	report(o, speed, bidir, line, &a, &b, n[0].rx_bad + n[1].rx_bad);
	/* Both down before either model goes: a graceful stop needs the link. */
	for (unsigned i = 0; i < 2; i++)
		ethdrv_netdev_stop(n[i].dev);
	for (unsigned i = 0; i < 2; i++) {
		ethdrv_netdev_destroy(n[i].dev);
		enet_emu_free(n[i].emu);
		ethdrv_loop_free(n[i].loop);
	}
	fdx_line_free(line);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-enet [--seconds S (0.5..60)] [--speed 1000|100] "
			"[--size 60..1514] [--one-way|--both-ways] [--split 0|1] [--threaded] "
			"[--batch-us 0..10000] [--mmio-ns 0..10000] [--coalesce-us US]\n");
	return 2;
}

static int parse(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--one-way") || !strcmp(a, "--both-ways"))
			o->bidir = !strcmp(a, "--both-ways");
		else if (!strcmp(a, "--threaded"))
			o->threaded = 1;
		else if (!v)
			return usage();
		else if (!strcmp(a, "--seconds") && ++i)
			o->seconds = atof(v);
		else if (!strcmp(a, "--speed") && ++i)
			o->speed = (unsigned)atoi(v);
		else if (!strcmp(a, "--size") && ++i)
			o->size = (unsigned)atoi(v);
		else if (!strcmp(a, "--split") && ++i)
			o->split = atoi(v);
		else if (!strcmp(a, "--batch-us") && ++i)
			o->batch_us = (unsigned)atoi(v);
		else if (!strcmp(a, "--mmio-ns") && ++i)
			o->mmio_ns = (unsigned)atoi(v);
		else if (!strcmp(a, "--coalesce-us") && ++i)
			o->rx_usecs = v;
		else
			return usage();
	}
	if (o->seconds < 0.5 || o->seconds > 60 ||
	    (o->speed && o->speed != 100 && o->speed != 1000) || o->size < 60 || o->size > 1514 ||
	    o->split < 0 || o->split > 1 || o->batch_us > 10000 || o->mmio_ns > 10000)
		return usage();
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.seconds = 2, .size = 1514, .bidir = -1, .split = 1, .batch_us = 200, .mmio_ns = 100
	};
	static const unsigned speeds[] = { 1000, 100 };

	if (parse(argc, argv, &o))
		return 2;
	for (size_t s = 0; s < ETHDRV_ARRAY_SIZE(speeds); s++) {
		if (o.speed && o.speed != speeds[s])
			continue;
		for (int d = 0; d < 2; d++) {
			if (o.bidir >= 0 && o.bidir != d)
				continue;
			if (run(&o, speeds[s], d))
				return 1;
		}
	}
	return 0;
}
