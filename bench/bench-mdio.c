// SPDX-License-Identifier: MIT
/*
 * bench-mdio: seed 003 redone. Back-to-back clause-22 reads of the AR8031
 * model's BMSR through the MDIO bus core, over the ENET MDIO block in real
 * time (enet_mdio_sim: frames end at their MDC time on CLOCK_MONOTONIC,
 * an eventfd interrupt line), for each completion mode:
 *
 *   sleep  with poll delays 0, 1, 2, 5, 10 us (ethdrv_poll_timeout)
 *   atomic with the same delays               (ethdrv_poll_timeout_atomic)
 *   irq                                       (sleep on the event line)
 *
 * Per mode it reports the polls (event tests) per transaction, the exit
 * time (frame start to completion seen), the start-to-start interval
 * (p50/p99/max, what Chris Healy measured with a scope) and the CPU time
 * per transaction, against the bus-active time of one frame computed from
 * the model's MDC and preamble setting in the same run (25.6 us at 2.5 MHz,
 * 12.8 us without preamble). With --replay it also times the boot script
 * (bench/data/mdio-boot.txt) per mode.
 *
 * With --fec the same reads go through the fec driver's own MDIO ops
 * (src/drivers/fec_mdio.c) over MMIO into the ENET model, whose engine
 * completes each frame (src/emu/enet_emu_line.c): the integrated path of
 * docs/mdio.md §11, register accesses costing the model's interconnect
 * latency (100 ns); the AR8031 is the one on the model's board (address 1),
 * the switches of --replay join the model's MDIO bus.
 *
 * Options: --n N (reads per mode, default 2000), --mii-speed D (MII_SPEED,
 * default 9: 2.5 MHz from the 50 MHz module clock; not with --fec, whose
 * driver picks it), --no-preamble, --access-ns NS (cost of one register
 * access of the standalone block, default 0), --fec, --replay [PATH],
 * --md FILE (a markdown table with machine, date and command).
 * One grep-friendly line per mode on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "core/mdio_replay.h"
#include "drivers/fec.h"
#include "emu/enet_emu.h"
#include "emu/mdio_rig.h"
#include "emu/switch_emu.h"
#include "ethdrv/driver.h"
#include "ethdrv/loop.h"
#include "ethdrv/mdio.h"
#include "ethdrv/phy.h"

#ifndef ETHDRV_SOURCE_DIR
#define ETHDRV_SOURCE_DIR "."
#endif

#define PHY_ADDR 1u
#define N_SWITCHES 3
#define WARMUP 50u

struct opts {
	unsigned n; /* reads per mode */
	unsigned mii_speed; /* MSCR.MII_SPEED */
	bool no_preamble; /* MSCR.DIS_PRE */
	uint64_t access_ns; /* register access cost */
	const char *replay; /* script path or NULL */
	const char *md; /* markdown output or NULL */
	bool fec; /* through the fec driver and the ENET model */
};

/* The fec driver on the ENET model (--fec). */
struct bench_fec {
	struct enet_line *line; /* real time */
	struct enet_emu *emu; /* the controller and its board */
	struct ethdrv_mmio_bus bus; /* its registers */
	struct ethdrv_loop *loop; /* the device's (not run: the bench thread reads) */
	struct ethdrv_netdev *dev; /* the driver */
};

struct bench {
	struct mdio_rig r; /* ENET MDIO block, bus model, the AR8031 at 0x01 */
	struct bench_fec f; /* --fec */
	struct ethdrv_mdio_bus *bus; /* what the reads go through */
	struct switch_emu *sw[N_SWITCHES]; /* at 0x10..0x12, for the replay */
	uint64_t frame_ns; /* bus-active time of one frame, from the model */
};

struct mode_case {
	enum ethdrv_mdio_mode mode;
	unsigned delay_us;
};

struct result {
	struct mode_case c;
	double polls_mean; /* event tests per transaction */
	uint64_t polls_p50;
	uint64_t exit_p50, exit_p99; /* start() to completion seen, ns */
	uint64_t ival_p50, ival_p99, ival_max; /* start to start, ns */
	double cpu_ns; /* CPU per transaction */
	double replay_ms; /* boot script wall time, 0 if not run */
	double replay_cpu_ms; /* its CPU time */
	uint64_t replay_xfers; /* its transactions */
};

static const struct mode_case cases[] = {
	{ ETHDRV_MDIO_MODE_SLEEP, 0 },	{ ETHDRV_MDIO_MODE_SLEEP, 1 },
	{ ETHDRV_MDIO_MODE_SLEEP, 2 },	{ ETHDRV_MDIO_MODE_SLEEP, 5 },
	{ ETHDRV_MDIO_MODE_SLEEP, 10 }, { ETHDRV_MDIO_MODE_ATOMIC, 0 },
	{ ETHDRV_MDIO_MODE_ATOMIC, 1 }, { ETHDRV_MDIO_MODE_ATOMIC, 2 },
	{ ETHDRV_MDIO_MODE_ATOMIC, 5 }, { ETHDRV_MDIO_MODE_ATOMIC, 10 },
	{ ETHDRV_MDIO_MODE_IRQ, 0 },
};

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The @pct percentile of @v (sorted in place), nearest rank. */
static uint64_t pctl(uint64_t *v, unsigned n, double pct)
{
	unsigned i = (unsigned)(pct / 100.0 * (n - 1) + 0.5);

	qsort(v, n, sizeof(*v), cmp_u64);
	return v[i];
}

/* The fec driver's MDIO bus on one ENET model with its AR8031 at 1. */
static int bench_setup_fec(struct bench *b, const struct opts *o)
{
	struct bench_fec *f = &b->f;
	struct fec_config cfg = { .name = "fec0",
				  .mac = { 0x02, 0, 0, 0, 0xB0, 1 },
				  .mdio_no_preamble = o->no_preamble };
	int err = enet_line_new(NULL, &f->line);

	if (!err)
		err = enet_emu_new(NULL, f->line, 0, &f->emu);
	if (!err)
		err = ethdrv_loop_new(&f->loop);
	if (err)
		return err;
	enet_emu_get_bus(f->emu, &f->bus);
	err = fec_create(&cfg, &f->bus, f->loop, &f->dev);
	if (err)
		return err;
	b->bus = ethdrv_netdev_phy(f->dev)->bus;
	b->frame_ns = enet_emu_mdio_frame_ns(f->emu);
	return 0;
}

static int bench_setup(struct bench *b, const struct opts *o)
{
	struct mdio_rig_config rc = {
		.phy_addr = PHY_ADDR,
		.mscr = o->mii_speed << 1 | (o->no_preamble ? 1u << 7 : 0),
		.access_ns = o->access_ns,
	};
	struct mdio_emu *emu;
	int err;

	if (o->fec) {
		err = bench_setup_fec(b, o);
		emu = err ? NULL : enet_emu_mdio_bus(b->f.emu);
	} else {
		err = mdio_rig_setup(&b->r, &rc);
		b->bus = b->r.bus;
		b->frame_ns = err ? 0 : enet_mdio_sim_frame_ns(b->r.sim);
		emu = b->r.emu;
	}
	for (int i = 0; !err && i < N_SWITCHES; i++) {
		err = switch_emu_new(NULL, &b->sw[i]);
		if (!err)
			err = switch_emu_attach(b->sw[i], emu, 0x10u + (unsigned)i);
	}
	if (err)
		return err;
	return b->frame_ns ? 0 : -EINVAL;
}

static void bench_teardown(struct bench *b)
{
	ethdrv_netdev_destroy(b->f.dev);
	enet_emu_free(b->f.emu);
	ethdrv_loop_free(b->f.loop);
	enet_line_free(b->f.line);
	mdio_rig_teardown(&b->r);
	for (int i = 0; i < N_SWITCHES; i++)
		switch_emu_free(b->sw[i]);
}

/* Back-to-back reads in one mode; fills the read figures of @r. */
static int run_reads(struct bench *b, const struct opts *o, struct result *r)
{
	uint64_t *ival = calloc(o->n, sizeof(*ival)), *exit_ns = calloc(o->n, sizeof(*exit_ns));
	uint64_t *polls = calloc(o->n, sizeof(*polls)), prev = 0, polls_sum = 0, c0;
	struct ethdrv_mdio_xfer x;
	uint16_t v;
	int err = 0;

	if (!ival || !exit_ns || !polls) {
		err = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; !err && i < WARMUP; i++)
		err = ethdrv_mdio_read(b->bus, PHY_ADDR, 1, &v);
	c0 = cpu_ns();
	for (unsigned i = 0; !err && i < o->n + 1; i++) {
		uint64_t now = ethdrv_now_ns();

		if (i)
			ival[i - 1] = now - prev;
		prev = now;
		if (i == o->n)
			break;
		err = ethdrv_mdio_read(b->bus, PHY_ADDR, 1, &v);
		ethdrv_mdio_last_xfer(b->bus, &x);
		polls[i] = x.polls;
		exit_ns[i] = x.wait_ns;
		polls_sum += x.polls;
	}
	if (err)
		goto out;
	r->cpu_ns = (double)(cpu_ns() - c0) / o->n;
	r->polls_mean = (double)polls_sum / o->n;
	r->polls_p50 = pctl(polls, o->n, 50);
	r->exit_p50 = pctl(exit_ns, o->n, 50);
	r->exit_p99 = pctl(exit_ns, o->n, 99);
	r->ival_p50 = pctl(ival, o->n, 50);
	r->ival_p99 = pctl(ival, o->n, 99);
	r->ival_max = pctl(ival, o->n, 100);
out:
	free(ival);
	free(exit_ns);
	free(polls);
	return err;
}

static int run_replay(struct bench *b, const struct ethdrv__mdio_script *s, struct result *r)
{
	struct ethdrv__mdio_replay_result rr;
	uint64_t c0 = cpu_ns();
	int err = ethdrv__mdio_script_run(s, b->bus, &rr);

	r->replay_cpu_ms = (double)(cpu_ns() - c0) / 1e6;
	r->replay_ms = (double)rr.elapsed_ns / 1e6;
	r->replay_xfers = rr.transactions;
	return err;
}

static void print_result(const struct bench *b, const struct result *r)
{
	double bus_us = (double)b->frame_ns / 1e3;

	printf("mdio mode=%s delay_us=%u polls_mean=%.1f polls_p50=%" PRIu64
	       " exit_us_p50=%.1f exit_us_p99=%.1f interval_us_p50=%.1f interval_us_p99=%.1f"
	       " interval_us_max=%.1f bus_us=%.1f exit_ratio=%.2f interval_ratio=%.2f cpu_us=%.1f",
	       ethdrv_mdio_mode_name(r->c.mode), r->c.delay_us, r->polls_mean, r->polls_p50,
	       r->exit_p50 / 1e3, r->exit_p99 / 1e3, r->ival_p50 / 1e3, r->ival_p99 / 1e3,
	       r->ival_max / 1e3, bus_us, r->exit_p50 / 1e3 / bus_us, r->ival_p50 / 1e3 / bus_us,
	       r->cpu_ns / 1e3);
	if (r->replay_xfers)
		printf(" replay_ms=%.1f replay_cpu_ms=%.1f replay_xfers=%" PRIu64, r->replay_ms,
		       r->replay_cpu_ms, r->replay_xfers);
	printf("\n");
	fflush(stdout);
}

static void write_md(const char *path, const struct bench *b, const struct opts *o,
		     const struct result *res, unsigned n, int argc, char **argv)
{
	FILE *f = fopen(path, "w");
	struct utsname u;
	time_t now = time(NULL);
	char date[64];

	if (!f) {
		fprintf(stderr, "bench-mdio: %s: %s\n", path, strerror(errno));
		return;
	}
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "# bench-mdio\n\nMachine: %s %s %s, %s.\n\nCommand: `", u.nodename, u.sysname,
		u.release, date);
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fprintf(f, "`\n\nBus-active time per frame (the limit): %.1f us; %u reads per mode.\n\n",
		(double)b->frame_ns / 1e3, o->n);
	fprintf(f, "| mode | delay us | polls/xfer | exit us p50 | interval us p50 | p99 | max |"
		   " interval / bus | CPU us/xfer | replay ms |\n"
		   "|---|---|---|---|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f, "| %s | %u | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f | %.1f |\n",
			ethdrv_mdio_mode_name(r->c.mode), r->c.delay_us, r->polls_mean,
			r->exit_p50 / 1e3, r->ival_p50 / 1e3, r->ival_p99 / 1e3, r->ival_max / 1e3,
			(double)r->ival_p50 / (double)b->frame_ns, r->cpu_ns / 1e3, r->replay_ms);
	}
	fclose(f);
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .n = 2000, .mii_speed = 9 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--n") && next)
			o->n = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--mii-speed") && next)
			o->mii_speed = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--no-preamble"))
			o->no_preamble = true;
		else if (!strcmp(a, "--access-ns") && next)
			o->access_ns = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--fec"))
			o->fec = true;
		else if (!strcmp(a, "--replay"))
			o->replay = next && next[0] != '-' ? argv[++i] :
							     ETHDRV_SOURCE_DIR
					    "/bench/data/mdio-boot.txt";
		else if (!strcmp(a, "--md") && next)
			o->md = argv[++i];
		else
			return -EINVAL;
	}
	return o->n && o->mii_speed && o->mii_speed < 64 ? 0 : -EINVAL;
}

int main(int argc, char **argv)
{
	struct result res[ETHDRV_ARRAY_SIZE(cases)] = { 0 };
	struct ethdrv__mdio_script *script = NULL;
	struct bench b = { 0 };
	struct opts o;
	int err;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: bench-mdio [--n N] [--mii-speed 1..63] [--no-preamble]"
				" [--access-ns NS] [--fec] [--replay [PATH]] [--md FILE]\n");
		return 2;
	}
	if (o.replay && ethdrv__mdio_script_load(o.replay, &script))
		return 1;
	err = bench_setup(&b, &o);
	for (unsigned i = 0; !err && i < ETHDRV_ARRAY_SIZE(cases); i++) {
		res[i].c = cases[i];
		err = ethdrv_mdio_set_mode(b.bus, cases[i].mode, cases[i].delay_us);
		if (!err)
			err = run_reads(&b, &o, &res[i]);
		if (!err && script)
			err = run_replay(&b, script, &res[i]);
		if (!err)
			print_result(&b, &res[i]);
	}
	if (err)
		fprintf(stderr, "bench-mdio: failed: %d\n", err);
	else if (o.md)
		write_md(o.md, &b, &o, res, ETHDRV_ARRAY_SIZE(cases), argc, argv);
	bench_teardown(&b);
	ethdrv__mdio_script_free(script);
	return err ? 1 : 0;
}
