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
 * (p1/p50/p99/max, what Chris Healy measured with a scope) and the CPU
 * time per transaction, against the bus-active time of one frame computed
 * from the model's MDC and preamble setting in the same run (25.6 us at
 * 2.5 MHz, 12.8 us without preamble). With --replay it also times the boot
 * script (bench/data/mdio-boot.txt) per mode, once per round.
 *
 * With --fec the same reads go through the fec driver's own MDIO ops
 * (src/drivers/fec_mdio.c) over MMIO into the ENET model, whose engine
 * completes each frame (src/emu/enet_emu_line.c): the integrated path of
 * docs/mdio.md §11, register accesses costing the model's interconnect
 * latency (100 ns); the AR8031 is the one on the model's board (address 1),
 * the switches of --replay join the model's MDIO bus. The engine's
 * lateness and wakeups during the reads are reported (irq mode: the
 * engine applies the end of the frame and rings int0; "catchups" are the
 * events a register access applied first).
 *
 * --rounds R splits the reads of every mode into R rounds, all modes in
 * each round, so load that comes and goes on a shared machine falls on
 * every mode alike. --probe first measures, in the same process, what
 * explains the figures: one register read over the bus (--fec), and how
 * long the poll helpers' waits really last for each delay in use (the
 * sleeping helper's clock_nanosleep, the atomic helper's busy-wait).
 *
 * Options: --n N (reads per mode, default 2000), --rounds R (default 1),
 * --cases LIST (MODE[:DELAY],... e.g. sleep:1,atomic:2,irq; default the 11
 * above), --mii-speed D (MII_SPEED of the standalone block, default 9: 2.5
 * MHz from the 50 MHz module clock), --mdc-hz HZ (--fec: the driver's
 * mdio_bus_hz, the DT clock-frequency), --no-preamble, --access-ns NS
 * (cost of one register access of the standalone block, default 0),
 * --fec, --replay [PATH], --probe, --md FILE (a markdown table with
 * machine, date and command). On stdout: a "setup" line, the "probe"
 * lines, a "step" line as each mode finishes a round, then one
 * grep-friendly "mdio" line per mode.
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
#include "ethdrv/poll.h"

#ifndef ETHDRV_SOURCE_DIR
#define ETHDRV_SOURCE_DIR "."
#endif

#define PHY_ADDR 1u
#define N_SWITCHES 3
#define WARMUP 50u
#define MAX_CASES 16u
#define MAX_ROUNDS 64u
#define IPG_HZ 50000000u /* the module clock of both set-ups (docs/mdio.md §3.1) */
#define REG_EIR 0x004u /* the MII event lives here (docs/napi.md §6.2) */
#define PROBE_N 1000u /* waits timed per delay */
#define PROBE_BATCH 10u /* register reads per timed batch */

struct mode_case {
	enum ethdrv_mdio_mode mode;
	unsigned delay_us;
};

struct opts {
	unsigned n; /* reads per mode */
	unsigned rounds; /* the reads of each mode split over this many rounds */
	unsigned mii_speed; /* MSCR.MII_SPEED of the standalone block */
	uint32_t mdc_hz; /* --fec: fec_config.mdio_bus_hz (0: the driver's 2.5 MHz) */
	bool no_preamble; /* MSCR.DIS_PRE */
	uint64_t access_ns; /* register access cost of the standalone block */
	const char *replay; /* script path or NULL */
	const char *md; /* markdown output or NULL */
	bool fec; /* through the fec driver and the ENET model */
	bool probe; /* measure the register read and the waits first */
	struct mode_case cases[MAX_CASES];
	unsigned n_cases;
};

/* The fec driver on the ENET model (--fec). */
struct bench_fec {
	struct fdx_line *line; /* real time */
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

/* The ENET engine's counters (--fec), to take differences. */
struct engine_snap {
	uint64_t late_sum; /* lateness of the events it applied, ns */
	uint64_t late_count; /* those events */
	uint64_t wakeups; /* its thread's wakeups */
	uint64_t catchups; /* events a register access applied, not the engine */
};

/* Everything measured for one mode, over all rounds. */
struct samples {
	uint64_t *ival, *exit_ns, *polls; /* per read */
	unsigned filled; /* reads so far */
	uint64_t cpu_ns; /* this thread's CPU over the reads */
	struct engine_snap engine; /* the engine during the reads (sums) */
	double replay_ms[MAX_ROUNDS], replay_cpu_ms[MAX_ROUNDS]; /* one per round */
	unsigned replays;
	uint64_t replay_xfers, replay_errors, replay_mismatches; /* the last replay's */
};

static const struct mode_case default_cases[] = {
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The @pct percentile of @v (sorted in place), nearest rank. */
static uint64_t pctl(uint64_t *v, unsigned n, double pct)
{
	unsigned i = (unsigned)(pct / 100.0 * (n - 1) + 0.5);

	qsort(v, n, sizeof(*v), cmp_u64);
	return v[i];
}

/* The median of @n doubles (sorted in place); 0 for none. */
static double median(double *v, unsigned n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- set-up ---- */

/* The fec driver's MDIO bus on one ENET model with its AR8031 at 1. */
static int bench_setup_fec(struct bench *b, const struct opts *o)
{
	struct bench_fec *f = &b->f;
	struct fec_config cfg = { .name = "fec0",
				  .mac = { 0x02, 0, 0, 0, 0xB0, 1 },
				  .clk_ipg_hz = IPG_HZ,
				  .mdio_bus_hz = o->mdc_hz,
				  .mdio_no_preamble = o->no_preamble };
	int err = fdx_line_new(NULL, &f->line);

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
	fdx_line_free(b->f.line);
	mdio_rig_teardown(&b->r);
	for (int i = 0; i < N_SWITCHES; i++)
		switch_emu_free(b->sw[i]);
}

/* ---- the probes: what the figures are made of ---- */

struct wait_probe {
	uint64_t t[2]; /* the first two tests */
	unsigned calls;
};

/* A poll op that only notes when it was called. */
static int probe_tick(struct wait_probe *p, unsigned *calls)
{
	if (p->calls < 2)
		p->t[p->calls] = ethdrv_now_ns();
	*calls = ++p->calls;
	return 0;
}

/* How long the poll helper really waits between two tests for @us. */
static uint64_t probe_wait_once(bool atomic, unsigned us)
{
	struct wait_probe p = { 0 };
	unsigned calls = 0;

	if (atomic)
		(void)ethdrv_poll_timeout_atomic(probe_tick, calls, calls >= 2, us, 1000000u, &p);
	else
		(void)ethdrv_poll_timeout(probe_tick, calls, calls >= 2, us, 1000000u, &p);
	return p.t[1] - p.t[0];
}

static void probe_waits(const struct opts *o)
{
	static uint64_t v[PROBE_N];
	bool done[ETHDRV_MDIO_MODE_IRQ + 1][11] = { { false } };
	uint64_t c0;
	double cpu;

	for (unsigned c = 0; c < o->n_cases; c++) {
		const struct mode_case *mc = &o->cases[c];
		bool atomic = mc->mode == ETHDRV_MDIO_MODE_ATOMIC;

		if (mc->mode == ETHDRV_MDIO_MODE_IRQ || !mc->delay_us ||
		    (mc->delay_us <= 10 && done[mc->mode][mc->delay_us]))
			continue;
		if (mc->delay_us <= 10)
			done[mc->mode][mc->delay_us] = true;
		c0 = cpu_ns();
		for (unsigned i = 0; i < PROBE_N; i++)
			v[i] = probe_wait_once(atomic, mc->delay_us);
		cpu = (double)(cpu_ns() - c0) / PROBE_N / 1e3;
		printf("probe wait=%s delay_us=%u us_p50=%.2f us_p99=%.2f us_max=%.2f"
		       " cpu_us_mean=%.2f\n",
		       atomic ? "spin" : "sleep", mc->delay_us, pctl(v, PROBE_N, 50) / 1e3,
		       pctl(v, PROBE_N, 99) / 1e3, pctl(v, PROBE_N, 100) / 1e3, cpu);
	}
}

/* One read of EIR over the MMIO bus into the model: what a test costs. */
static void probe_reg(const struct bench *b)
{
	static uint64_t v[PROBE_N];

	for (unsigned i = 0; i < PROBE_N; i++) {
		uint64_t t0 = ethdrv_now_ns();

		for (unsigned k = 0; k < PROBE_BATCH; k++)
			(void)ethdrv_mmio_read32(&b->f.bus, REG_EIR);
		v[i] = (ethdrv_now_ns() - t0) / PROBE_BATCH;
	}
	printf("probe reg=eir_read ns_p50=%" PRIu64 " ns_p99=%" PRIu64 "\n", pctl(v, PROBE_N, 50),
	       pctl(v, PROBE_N, 99));
}

/* ---- the runs ---- */

static void engine_snap(const struct bench *b, struct engine_snap *s)
{
	struct fdx_line_stats st;
	const struct ethdrv_hist *h;

	*s = (struct engine_snap){ 0 };
	if (!b->f.line)
		return;
	h = fdx_line_lateness(b->f.line);
	fdx_line_get_stats(b->f.line, &st);
	s->late_sum = __atomic_load_n(&h->sum, __ATOMIC_RELAXED);
	s->late_count = __atomic_load_n(&h->count, __ATOMIC_RELAXED);
	s->wakeups = ethdrv_counter_get(&st.wakeups);
	s->catchups = ethdrv_counter_get(&st.catchups);
}

/* @count back-to-back reads in the bus's current mode, appended to @s. */
static int run_reads(struct bench *b, struct samples *s, unsigned count)
{
	struct engine_snap e0, e1;
	uint64_t prev = 0, c0;
	struct ethdrv_mdio_xfer x;
	uint16_t v;
	int err = 0;

	for (unsigned i = 0; !err && i < WARMUP; i++)
		err = ethdrv_mdio_read(b->bus, PHY_ADDR, 1, &v);
	engine_snap(b, &e0);
	c0 = cpu_ns();
	for (unsigned i = 0; !err && i <= count; i++) {
		uint64_t now = ethdrv_now_ns();

		if (i)
			s->ival[s->filled - 1] = now - prev;
		prev = now;
		if (i == count)
			break;
		err = ethdrv_mdio_read(b->bus, PHY_ADDR, 1, &v);
		ethdrv_mdio_last_xfer(b->bus, &x);
		s->polls[s->filled] = x.polls;
		s->exit_ns[s->filled++] = x.wait_ns;
	}
	s->cpu_ns += cpu_ns() - c0;
	engine_snap(b, &e1);
	s->engine.late_sum += e1.late_sum - e0.late_sum;
	s->engine.late_count += e1.late_count - e0.late_count;
	s->engine.wakeups += e1.wakeups - e0.wakeups;
	s->engine.catchups += e1.catchups - e0.catchups;
	return err;
}

static int run_replay(struct bench *b, const struct ethdrv__mdio_script *s, struct samples *sm)
{
	struct ethdrv__mdio_replay_result rr;
	uint64_t c0 = cpu_ns();
	int err = ethdrv__mdio_script_run(s, b->bus, &rr);

	/* Errors and mismatches are reported, not fatal: a boot goes on too. */
	sm->replay_cpu_ms[sm->replays] = (double)(cpu_ns() - c0) / 1e6;
	sm->replay_ms[sm->replays++] = (double)rr.elapsed_ns / 1e6;
	sm->replay_xfers = rr.transactions;
	sm->replay_errors += rr.errors;
	sm->replay_mismatches += rr.mismatches;
	return err == -EIO ? 0 : err;
}

/* One mode's share of round @round: its reads, then one replay. */
static int run_case(struct bench *b, const struct opts *o, unsigned c, unsigned round,
		    const struct ethdrv__mdio_script *script, struct samples *s)
{
	unsigned count = o->n / o->rounds + (round < o->n % o->rounds);
	int err = ethdrv_mdio_set_mode(b->bus, o->cases[c].mode, o->cases[c].delay_us);

	if (!err)
		err = run_reads(b, s, count);
	if (!err && script)
		err = run_replay(b, script, s);
	return err;
}

/* ---- output ---- */

static void print_setup(const struct bench *b, const struct opts *o)
{
	printf("setup path=%s ipg_hz=%u mdc_hz_asked=%" PRIu32 " mii_speed=%u preamble=%d"
	       " bus_us=%.3f n=%u rounds=%u\n",
	       o->fec ? "fec" : "block", IPG_HZ, o->fec ? o->mdc_hz : 0, o->fec ? 0 : o->mii_speed,
	       !o->no_preamble, (double)b->frame_ns / 1e3, o->n, o->rounds);
}

static void print_result(const struct bench *b, const struct opts *o, const struct mode_case *c,
			 struct samples *s)
{
	unsigned n = s->filled;
	double bus_us = (double)b->frame_ns / 1e3, polls = 0, ival_sum = 0;
	uint64_t exit50 = pctl(s->exit_ns, n, 50), ival50 = pctl(s->ival, n, 50);

	for (unsigned i = 0; i < n; i++) {
		polls += (double)s->polls[i];
		ival_sum += (double)s->ival[i];
	}
	printf("mdio mode=%s delay_us=%u n=%u polls_mean=%.2f polls_p50=%" PRIu64
	       " polls_p99=%" PRIu64 " exit_us_p50=%.2f exit_us_p99=%.2f exit_us_max=%.2f"
	       " interval_us_p1=%.2f interval_us_p50=%.2f interval_us_p99=%.2f"
	       " interval_us_max=%.2f interval_us_mean=%.2f bus_us=%.3f exit_ratio=%.3f"
	       " interval_ratio=%.3f cpu_us=%.2f",
	       ethdrv_mdio_mode_name(c->mode), c->delay_us, n, polls / n, pctl(s->polls, n, 50),
	       pctl(s->polls, n, 99), exit50 / 1e3, pctl(s->exit_ns, n, 99) / 1e3,
	       pctl(s->exit_ns, n, 100) / 1e3, pctl(s->ival, n, 1) / 1e3, ival50 / 1e3,
	       pctl(s->ival, n, 99) / 1e3, pctl(s->ival, n, 100) / 1e3, ival_sum / n / 1e3, bus_us,
	       exit50 / 1e3 / bus_us, ival50 / 1e3 / bus_us, (double)s->cpu_ns / n / 1e3);
	if (o->fec)
		printf(" engine_events=%" PRIu64 " engine_catchups=%" PRIu64
		       " engine_late_us_mean=%.2f engine_wakeups_per_xfer=%.2f",
		       s->engine.late_count, s->engine.catchups,
		       s->engine.late_count ? s->engine.late_sum / 1e3 / s->engine.late_count : 0,
		       (double)s->engine.wakeups / n);
	if (s->replays)
		printf(" replay_ms=%.2f replay_cpu_ms=%.2f replay_xfers=%" PRIu64
		       " replay_errors=%" PRIu64 " replay_mismatches=%" PRIu64 " replays=%u",
		       median(s->replay_ms, s->replays), median(s->replay_cpu_ms, s->replays),
		       s->replay_xfers, s->replay_errors, s->replay_mismatches, s->replays);
	printf("\n");
	fflush(stdout);
}

static void write_md(const char *path, const struct bench *b, const struct opts *o,
		     struct samples *res, int argc, char **argv)
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
	for (unsigned i = 0; i < o->n_cases; i++) {
		struct samples *s = &res[i];
		unsigned n = s->filled;
		double polls = 0;

		for (unsigned k = 0; k < n; k++)
			polls += (double)s->polls[k];
		fprintf(f, "| %s | %u | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f | %.1f |\n",
			ethdrv_mdio_mode_name(o->cases[i].mode), o->cases[i].delay_us, polls / n,
			pctl(s->exit_ns, n, 50) / 1e3, pctl(s->ival, n, 50) / 1e3,
			pctl(s->ival, n, 99) / 1e3, pctl(s->ival, n, 100) / 1e3,
			(double)pctl(s->ival, n, 50) / (double)b->frame_ns,
			(double)s->cpu_ns / n / 1e3, median(s->replay_ms, s->replays));
	}
	fclose(f);
}

/* ---- arguments ---- */

/* "sleep:1,atomic:2,irq" into o->cases. */
static int parse_cases(const char *list, struct opts *o)
{
	char buf[256], *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	o->n_cases = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end = NULL;
		struct mode_case c = { 0 };

		if (colon)
			*colon = '\0';
		if (o->n_cases == MAX_CASES || ethdrv_mdio_mode_parse(tok, &c.mode))
			return -EINVAL;
		if (colon) {
			unsigned long d = strtoul(colon + 1, &end, 10);

			if (end == colon + 1 || *end || d > 1000000u)
				return -EINVAL;
			c.delay_us = (unsigned)d;
		}
		o->cases[o->n_cases++] = c;
	}
	return o->n_cases ? 0 : -EINVAL;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .n = 2000, .rounds = 1, .mii_speed = 9 };
	memcpy(o->cases, default_cases, sizeof(default_cases));
	o->n_cases = ETHDRV_ARRAY_SIZE(default_cases);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--n") && next)
			o->n = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--rounds") && next)
			o->rounds = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--cases") && next) {
			if (parse_cases(argv[++i], o))
				return -EINVAL;
		} else if (!strcmp(a, "--mii-speed") && next)
			o->mii_speed = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--mdc-hz") && next)
			o->mdc_hz = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--no-preamble"))
			o->no_preamble = true;
		else if (!strcmp(a, "--access-ns") && next)
			o->access_ns = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--fec"))
			o->fec = true;
		else if (!strcmp(a, "--probe"))
			o->probe = true;
		else if (!strcmp(a, "--replay"))
			o->replay = next && next[0] != '-' ? argv[++i] :
							     ETHDRV_SOURCE_DIR
					    "/bench/data/mdio-boot.txt";
		else if (!strcmp(a, "--md") && next)
			o->md = argv[++i];
		else
			return -EINVAL;
	}
	if (!o->n || !o->rounds || o->rounds > MAX_ROUNDS || o->rounds > o->n)
		return -EINVAL;
	if (o->mdc_hz && !o->fec)
		return -EINVAL;
	return o->mii_speed && o->mii_speed < 64 ? 0 : -EINVAL;
}

static int alloc_samples(struct samples *s, unsigned n_cases, unsigned n)
{
	for (unsigned i = 0; i < n_cases; i++) {
		s[i].ival = calloc(n, sizeof(uint64_t));
		s[i].exit_ns = calloc(n, sizeof(uint64_t));
		s[i].polls = calloc(n, sizeof(uint64_t));
		if (!s[i].ival || !s[i].exit_ns || !s[i].polls)
			return -ENOMEM;
	}
	return 0;
}

static void free_samples(struct samples *s, unsigned n_cases)
{
	for (unsigned i = 0; i < n_cases; i++) {
		free(s[i].ival);
		free(s[i].exit_ns);
		free(s[i].polls);
	}
}

int main(int argc, char **argv)
{
	static struct samples res[MAX_CASES];
	struct ethdrv__mdio_script *script = NULL;
	struct bench b = { 0 };
	struct opts o;
	int err;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: bench-mdio [--n N] [--rounds R] [--cases MODE[:DELAY],...]"
				" [--mii-speed 1..63] [--no-preamble] [--access-ns NS]"
				" [--fec [--mdc-hz HZ]] [--replay [PATH]] [--probe] [--md FILE]\n");
		return 2;
	}
	if (o.replay && ethdrv__mdio_script_load(o.replay, &script))
		return 1;
	err = alloc_samples(res, o.n_cases, o.n);
	if (!err)
		err = bench_setup(&b, &o);
	if (!err) {
		print_setup(&b, &o);
		if (o.probe && o.fec)
			probe_reg(&b);
		if (o.probe)
			probe_waits(&o);
	}
	for (unsigned r = 0; !err && r < o.rounds; r++) {
		for (unsigned c = 0; !err && c < o.n_cases; c++) {
			err = run_case(&b, &o, c, r, script, &res[c]);
			/* Progress, for the poll-delay benchmark's bar. */
			printf("step round=%u case=%s:%u\n", r + 1,
			       ethdrv_mdio_mode_name(o.cases[c].mode), o.cases[c].delay_us);
			fflush(stdout);
		}
	}
	for (unsigned c = 0; !err && c < o.n_cases; c++)
		print_result(&b, &o, &o.cases[c], &res[c]);
	if (err)
		fprintf(stderr, "bench-mdio: failed: %d\n", err);
	else if (o.md)
		write_md(o.md, &b, &o, res, argc, argv);
	bench_teardown(&b);
	free_samples(res, o.n_cases);
	ethdrv__mdio_script_free(script);
	return err ? 1 : 0;
}
