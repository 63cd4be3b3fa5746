// SPDX-License-Identifier: MIT
/*
 * bench-tc6: in-process throughput of the LAN8650 driver + model over a
 * 2-node 10BASE-T1S segment, in real time: node 0 sends back-to-back frames
 * of one size to node 1 for a while; no TAP, no kernel stack.
 *
 * Reports frames per second delivered, the share of the 10 Mb/s line they
 * use (pct_line: each frame costs preamble+SFD 8 + frame + FCS 4 + gap 12
 * bytes, docs/design.md §4), the wire utilisation (pct_wire_util: the share
 * of the run the wire was busy with frames, gaps, PLCA beacons and empty
 * transmit opportunities, from the medium's counters), SPI transfers per frame on each side, process CPU per frame,
 * and the frames lost to RX buffer overflow on both nodes: those the model
 * had no RX buffer room for (RXBOE) and those the driver dropped when it saw
 * RXBOE (rx_over_errors), with the RXBOE events it saw. Each node runs its
 * own loop thread; models and medium keep real time (SPI at --spi-hz).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drivers/lan865x.h"
#include "emu/lan865x_emu.h"
#include "emu/t1s_medium.h"
#include "ethdrv/driver.h"
#include "ethdrv/err.h"
#include "ethdrv/loop.h"

struct node {
	struct ethdrv_loop *loop; /* this node's event loop */
	struct ethdrv_pkt_pool *pool; /* its packet buffers */
	struct lan865x_emu *emu; /* its MAC-PHY model */
	struct ethdrv_spi_bus bus; /* the model's bus */
	struct ethdrv_netdev *dev; /* the driver */
	pthread_t thread; /* runs the loop */
	unsigned size; /* frame size to send (node 0) */
	uint64_t sent; /* frames handed to the driver (node 0) */
	uint64_t rx_frames; /* frames delivered (node 1, atomic) */
	uint64_t rx_bad; /* delivered with the wrong size (node 1, atomic) */
};

static const uint8_t dst_mac[6] = { 0x02, 0xe7, 0, 0, 0, 2 };
static uint64_t model_slack_ns; /* --slack-us: lan865x_emu slack_ns (default 0) */

/* Keep node 0's TX queue full: called before the loop sleeps. */
static void feed(struct ethdrv_loop *loop, void *arg)
{
	struct node *n = arg;

	for (;;) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(n->pool);

		if (!pkt)
			return;
		memset(pkt->data, 0x5a, n->size);
		memcpy(pkt->data, dst_mac, 6);
		memcpy(pkt->data + 6, n->dev->mac, 6);
		pkt->data[12] = 0x88;
		pkt->data[13] = 0xb5; /* local experimental EtherType */
		pkt->len = n->size;
		if (ethdrv_netdev_xmit(n->dev, pkt) == -EBUSY) {
			ethdrv_pkt_free(pkt);
			return;
		}
		n->sent++;
	}
}

static void tx_wake(void *arg)
{
	struct node *n = arg;

	ethdrv_loop_wake(n->loop);
}

static void rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct node *n = arg;

	__atomic_fetch_add(pkt->len == n->size ? &n->rx_frames : &n->rx_bad, 1, __ATOMIC_RELAXED);
	ethdrv_pkt_free(pkt);
}

static void *node_main(void *arg)
{
	struct node *n = arg;

	ethdrv_loop_run(n->loop);
	return NULL;
}

static int node_new(struct node *n, unsigned idx, struct emu_medium *medium, uint32_t spi_hz)
{
	struct lan865x_emu_config ecfg;
	struct lan865x_config cfg = {
		.mac = { 0x02, 0xe7, 0, 0, 0, (uint8_t)(idx + 1) },
		.plca = { .enable = true, .node_id = (uint8_t)idx, .node_cnt = 2 },
	};
	char name[16];
	int err;

	snprintf(name, sizeof(name), "t1s%u", idx);
	cfg.name = name;
	lan865x_emu_config_default(&ecfg);
	ecfg.spi_hz = spi_hz;
	ecfg.node_id = (uint8_t)idx;
	ecfg.realtime = true;
	ecfg.slack_ns = model_slack_ns;
	err = ethdrv_loop_new(&n->loop);
	if (!err)
		err = ethdrv_pkt_pool_new(512, &n->pool);
	if (!err)
		err = lan865x_emu_new(&ecfg, &n->emu);
	if (err)
		return err;
	lan865x_emu_get_bus(n->emu, &n->bus);
	err = lan865x_emu_attach(n->emu, medium, idx);
	if (!err)
		err = lan865x_create(&cfg, &n->bus, n->loop, n->pool, &n->dev);
	if (!err)
		err = ethdrv_netdev_open(n->dev);
	return err;
}

static void node_free(struct node *n)
{
	ethdrv_netdev_destroy(n->dev);
	lan865x_emu_detach(n->emu);
	lan865x_emu_free(n->emu);
	ethdrv_pkt_pool_free(n->pool);
	ethdrv_loop_free(n->loop);
}

static uint64_t stat(struct node *n, const char *name)
{
	uint64_t v = 0;

	if (ethdrv_stats_get(ethdrv_netdev_stats(n->dev), name, &v))
		fprintf(stderr, "bench-tc6: no counter %s\n", name);
	return v;
}

/* RX overflow on both nodes: frames the models dropped, frames the drivers
 * dropped, RXBOE events the drivers saw. */
struct rx_overflow {
	uint64_t model_dropped; /* lan865x_emu rx_dropped_overflow */
	uint64_t drv_dropped; /* rx_over_errors */
	uint64_t drv_events; /* rx_overflow */
};

static void rx_overflow_sum(struct node *n, unsigned count, struct rx_overflow *o)
{
	struct lan865x_emu_stats es;

	memset(o, 0, sizeof(*o));
	for (unsigned i = 0; i < count; i++) {
		lan865x_emu_get_stats(n[i].emu, &es);
		o->model_dropped += ethdrv_counter_get(&es.rx_dropped_overflow);
		o->drv_dropped += stat(&n[i], "rx_over_errors");
		o->drv_events += stat(&n[i], "rx_overflow");
	}
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int run(unsigned size, double seconds, uint32_t spi_hz)
{
	struct emu_t1s_config mcfg = { .ports = 2, .realtime = true };
	struct emu_t1s_medium *medium;
	static struct node n[2];
	struct emu_t1s_stats ms;
	struct rx_overflow ovf;
	uint64_t t0, t1, c0, frames, wire_bits;
	double line_fps;
	int err = emu_t1s_medium_new(&mcfg, &medium);

	memset(n, 0, sizeof(n));
	for (unsigned i = 0; !err && i < 2; i++)
		err = node_new(&n[i], i, emu_t1s_medium_base(medium), spi_hz);
	if (err) {
		fprintf(stderr, "bench-tc6: setup: %s\n", ethdrv_strerror(err));
		return 1;
	}
	n[0].size = n[1].size = size;
	ethdrv_netdev_set_rx_handler(n[1].dev, rx, &n[1]);
	ethdrv_netdev_set_tx_wake_handler(n[0].dev, tx_wake, &n[0]);
	ethdrv_loop_set_before_sleep(n[0].loop, feed, &n[0]);
	t0 = ethdrv_now_ns();
	c0 = cpu_ns();
	for (int i = 0; i < 2; i++)
		pthread_create(&n[i].thread, NULL, node_main, &n[i]);
	ethdrv_loop_wake(n[0].loop);
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
	nanosleep(&ts, NULL);
	frames = __atomic_load_n(&n[1].rx_frames, __ATOMIC_RELAXED);
	t1 = ethdrv_now_ns();
	emu_t1s_medium_get_stats(medium, &ms);
	double cpu_per_frame = (double)(cpu_ns() - c0) / (double)(frames ? frames : 1);
	for (int i = 0; i < 2; i++) {
		ethdrv_loop_stop(n[i].loop);
		pthread_join(n[i].thread, NULL);
	}
	rx_overflow_sum(n, 2, &ovf);
	/* The line limit: one frame per (preamble + frame + FCS + gap) bytes.
	 * The wire utilisation: time the wire spent on what this traffic needs
	 * (frames, preambles, gaps, beacons, empty opportunities) over the run. */
	line_fps = 10e6 / ((double)(EMU_PREAMBLE_BYTES + ETHDRV_MAX(size + 4, 64) + 12) * 8);
	wire_bits =
		ms.preamble_bits + ms.frame_bits + ms.ifg_bits + ms.beacon_bits + ms.silence_bits;
	double el = (double)(t1 - t0) / 1e9;
	printf("bench-tc6: size=%u spi_hz=%u slack_us=%" PRIu64 " seconds=%.1f frames=%" PRIu64
	       " fps=%.1f "
	       "line_fps=%.1f pct_line=%.2f pct_wire_util=%.2f spi_xfers_per_frame_tx=%.2f "
	       "spi_xfers_per_frame_rx=%.2f cpu_us_per_frame=%.1f bad=%" PRIu64
	       " rx_overflow_dropped_model=%" PRIu64 " rx_overflow_dropped_drv=%" PRIu64
	       " rxboe_seen=%" PRIu64 "\n",
	       size, spi_hz, model_slack_ns / 1000, el, frames, frames / el, line_fps,
	       100.0 * frames / el / line_fps, 100.0 * (double)wire_bits * EMU_BIT_NS / (el * 1e9),
	       (double)stat(&n[0], "spi_transfers") / (double)(frames ? frames : 1),
	       (double)stat(&n[1], "spi_transfers") / (double)(frames ? frames : 1),
	       cpu_per_frame / 1000.0, n[1].rx_bad, ovf.model_dropped, ovf.drv_dropped,
	       ovf.drv_events);
	for (int i = 0; i < 2; i++)
		node_free(&n[i]);
	emu_medium_free(emu_t1s_medium_base(medium));
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 5;
	uint32_t spi_hz = 25000000;
	unsigned sizes[] = { 1514, 590, 60 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--spi-hz") && i + 1 < argc)
			spi_hz = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--slack-us") && i + 1 < argc)
			model_slack_ns = strtoull(argv[++i], NULL, 10) * 1000;
		else {
			fprintf(stderr, "usage: bench-tc6 [--seconds S (1..60)] [--spi-hz HZ] "
					"[--slack-us US]\n");
			return 2;
		}
	}
	if (seconds < 1 || seconds > 60 || spi_hz < 1000000 || spi_hz > 50000000) {
		fprintf(stderr, "bench-tc6: --seconds 1..60, --spi-hz 1000000..50000000\n");
		return 2;
	}
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(sizes); i++)
		if (run(sizes[i], seconds, spi_hz))
			return 1;
	return 0;
}
