// SPDX-License-Identifier: MIT
/*
 * The models' event engine (src/emu/emu_engine.h, docs/design.md §5b):
 * known answers for slip, not burst, on a manual host clock (the real-time
 * rules without a thread): an engine that wakes late beyond the bound
 * applies the one overdue event at its time and nothing after it early or
 * in a burst; within the bound it catches up. The same on the line's
 * generator. Then the checks of the config, and the lab-CPU thread: it
 * applies events on its CPU and does not spin while idle; a kick that
 * wakes the sleeping thread early is counted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/emu_engine.h"
#include "emu/fdx_line.h"

#define PERIOD_NS 12300ull /* a 1514-byte frame at 1 Gb/s */
#define BOUND_NS 1000000ull

/* A client with an event every PERIOD_NS; each asserts an "interrupt". */
struct ticker {
	struct emu_engine *e;
	uint64_t next; /* the next event */
	uint64_t stop; /* no events from here on */
	unsigned applied; /* events applied */
	unsigned early; /* events applied before their time */
	uint64_t max_late; /* largest lateness seen at application */
};

static uint64_t tick_next(void *ctx, uint64_t *exact_t)
{
	struct ticker *tk = ctx;
	uint64_t t = tk->next < tk->stop ? tk->next : UINT64_MAX;

	*exact_t = t < *exact_t ? t : *exact_t;
	return t;
}

static void tick_run(void *ctx, uint64_t t)
{
	struct ticker *tk = ctx;
	uint64_t now = emu_engine_now(tk->e);

	if (t > now)
		tk->early++;
	else if (now - t > tk->max_late)
		tk->max_late = now - t;
	tk->applied++;
	tk->next = t + PERIOD_NS;
	emu_engine_irq_asserted(tk->e);
}

static const struct emu_engine_ops tick_ops = { .next_event = tick_next, .run_event = tick_run };

static struct emu_engine *manual_engine(uint64_t bound, struct ticker *tk)
{
	struct emu_engine_config c;
	struct emu_engine *e;

	emu_engine_config_default(&c);
	c.manual_clock = true;
	c.slip_bound_ns = bound;
	assert_int_equal(emu_engine_new(&c, &e), 0);
	*tk = (struct ticker){ .e = e, .next = PERIOD_NS, .stop = UINT64_MAX };
	emu_engine_lock(e);
	assert_int_equal(emu_engine_add(e, &tick_ops, tk), 0);
	emu_engine_unlock(e);
	return e;
}

static uint64_t engine_stat(struct emu_engine *e, size_t off)
{
	struct emu_engine_stats st;

	emu_engine_get_stats(e, &st);
	return ethdrv_counter_get((ethdrv_counter_t *)((char *)&st + off));
}

#define SLIPS(e) engine_stat(e, offsetof(struct emu_engine_stats, slips))
#define SLIP_NS(e) engine_stat(e, offsetof(struct emu_engine_stats, slip_ns))

static void test_slip_not_burst(void **state)
{
	struct ticker tk;
	struct emu_engine *e = manual_engine(BOUND_NS, &tk);
	uint64_t late_host = 16500000, wire_at;

	(void)state;
	/* 500 us late: within the bound, the 40 frames due catch up. */
	assert_int_equal(emu_engine_service(e, 500000), 0);
	assert_int_equal(tk.applied, 40); /* 40 x 12.3 us = 492 us */
	assert_int_equal(SLIPS(e), 0);
	assert_true(tk.max_late <= 500000);

	/* 16 ms late: the 41st frame applies at its own time, nothing after it. */
	assert_int_equal(emu_engine_service(e, late_host), 0);
	assert_int_equal(tk.applied, 41);
	wire_at = 41 * PERIOD_NS;
	assert_int_equal(SLIPS(e), 1);
	assert_int_equal(SLIP_NS(e), late_host - wire_at);
	emu_engine_lock(e);
	assert_int_equal(emu_engine_now(e), wire_at);
	emu_engine_unlock(e);

	/* The wire resumes with its spacing: one frame per period, on time. */
	tk.max_late = 0;
	for (unsigned i = 1; i <= 10; i++) {
		assert_int_equal(emu_engine_service(e, late_host + i * PERIOD_NS), 0);
		assert_int_equal(tk.applied, 41 + i);
	}
	assert_int_equal(tk.max_late, 0);
	assert_int_equal(tk.early, 0);
	/* The time the wire really ran. */
	assert_int_equal(emu_engine_unslipped_ns(e, 0), 51 * PERIOD_NS);
	/* Every assertion was recorded, none later than the bound. */
	assert_int_equal(emu_engine_irq_lateness(e)->count, 51);
	assert_true(emu_engine_irq_lateness(e)->max <= BOUND_NS);
	emu_engine_lock(e);
	emu_engine_remove(e, &tk);
	emu_engine_unlock(e);
	emu_engine_free(e);
}

/* Without a bound the same late wakeup is a burst: what slip prevents. */
static void test_no_bound_bursts(void **state)
{
	struct ticker tk;
	struct emu_engine *e = manual_engine(0, &tk);

	(void)state;
	assert_int_equal(emu_engine_service(e, 16500000), 0);
	assert_int_equal(tk.applied, 16500000 / PERIOD_NS);
	assert_int_equal(SLIPS(e), 0);
	assert_int_equal(tk.early, 0);
	emu_engine_lock(e);
	emu_engine_remove(e, &tk);
	emu_engine_unlock(e);
	emu_engine_free(e);
}

static uint64_t gen_lost(struct fdx_line *line)
{
	struct fdx_line_stats st;

	fdx_line_get_stats(line, &st);
	return ethdrv_counter_get(&st.gen_lost) + ethdrv_counter_get(&st.gen_frames);
}

/* The line's generator on a late engine: back-to-back 64-byte frames (672 ns
 * each with preamble and gap) and no MAC: each frame is counted gen_lost. */
static void test_line_generator_slips(void **state)
{
	struct fdx_line_config c;
	struct fdx_line *line;
	struct fdx_gen_config g = { .to_port = 1, .payload = 18 };
	uint64_t late = 16000000, frame_ns = 84 * 8;

	(void)state;
	fdx_line_config_default(&c);
	c.manual_clock = true;
	assert_int_equal(fdx_line_new(&c, &line), 0);
	assert_int_equal(fdx_line_gen_start(line, &g), 0);
	/* First frame ends at 8 + 60 + 4 bytes = 576 ns; found 16 ms late. */
	assert_int_equal(emu_engine_service(fdx_line_engine(line), late), 0);
	assert_int_equal(gen_lost(line), 1);
	/* Then one frame per frame time, not 16 ms of frames at once. */
	assert_int_equal(emu_engine_service(fdx_line_engine(line), late + 10 * frame_ns), 0);
	assert_int_equal(gen_lost(line), 11);
	fdx_line_gen_stop(line, 1);
	fdx_line_free(line);
}

static void test_config_checks(void **state)
{
	struct emu_engine_config c;
	struct emu_engine *e;

	(void)state;
	emu_engine_config_default(&c);
	c.batch_ns = 2000000; /* above the 1 ms slip bound */
	assert_int_equal(emu_engine_new(&c, &e), -EINVAL);
	emu_engine_config_default(&c);
	c.batch_ns = EMU_ENGINE_BATCH_MAX_NS + 1;
	c.slip_bound_ns = 0;
	assert_int_equal(emu_engine_new(&c, &e), -EINVAL);
	emu_engine_config_default(&c);
	c.lab_cpu = CPU_SETSIZE;
	assert_int_equal(emu_engine_new(&c, &e), -EINVAL);
	emu_engine_config_default(&c);
	c.lab_cpu = -2;
	assert_int_equal(emu_engine_new(&c, &e), -EINVAL);
	/* A virtual engine: no service, the clock only forward. */
	emu_engine_config_default(&c);
	c.realtime = false;
	assert_int_equal(emu_engine_new(&c, &e), 0);
	assert_int_equal(emu_engine_service(e, 1), -EINVAL);
	assert_int_equal(emu_engine_run_until(e, 10), 0);
	assert_int_equal(emu_engine_run_until(e, 9), -EINVAL);
	emu_engine_free(e);
}

static uint64_t engine_cpu(struct emu_engine *e)
{
	return engine_stat(e, offsetof(struct emu_engine_stats, engine_cpu_ns));
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* Events the ticker has had applied, read under the engine's lock. */
static unsigned tk_applied(struct emu_engine *e, const struct ticker *tk)
{
	unsigned n;

	emu_engine_lock(e);
	n = tk->applied;
	emu_engine_unlock(e);
	return n;
}

/* Lab CPU: the thread applies events on its CPU, and idles without spinning. */
static void test_lab_cpu_idles(void **state)
{
	struct emu_engine_config c;
	struct emu_engine *e;
	struct ticker tk;
	cpu_set_t set;
	int cpu = 0;
	uint64_t cpu0;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	while (!CPU_ISSET(cpu, &set))
		cpu++;
	emu_engine_config_default(&c);
	c.lab_cpu = cpu;
	assert_int_equal(emu_engine_new(&c, &e), 0);
	emu_engine_lock(e);
	tk = (struct ticker){ .e = e, .next = emu_engine_now(e) + PERIOD_NS };
	tk.stop = tk.next + 200 * PERIOD_NS; /* 2.5 ms of events */
	assert_int_equal(emu_engine_add(e, &tick_ops, &tk), 0);
	emu_engine_kick(e);
	emu_engine_unlock(e);
	/* A loaded machine may hold the thread off: wait (up to 10 s) for the last event. */
	for (int waited = 0; waited < 100; waited++) {
		sleep_ms(100);
		emu_engine_lock(e);
		bool done = tk.applied == 200;
		emu_engine_unlock(e);
		if (done)
			break;
	}
	emu_engine_lock(e);
	assert_int_equal(tk.applied, 200);
	assert_int_equal(tk.early, 0);
	emu_engine_unlock(e);
	/* Nothing pending: 100 ms idle cost far less than 100 ms of CPU. */
	cpu0 = engine_cpu(e);
	sleep_ms(100);
	assert_true(engine_cpu(e) - cpu0 < 20000000);
	emu_engine_lock(e);
	emu_engine_remove(e, &tk);
	emu_engine_unlock(e);
	emu_engine_free(e);
}

#define KICKS(e) engine_stat(e, offsetof(struct emu_engine_stats, kicks))
#define WAKEUPS(e) engine_stat(e, offsetof(struct emu_engine_stats, wakeups))

/* Schedule the ticker's one event @ahead_ns from now and kick the engine. */
static void tk_one_event(struct emu_engine *e, struct ticker *tk, uint64_t ahead_ns)
{
	emu_engine_lock(e);
	tk->next = emu_engine_now(e) + ahead_ns;
	tk->stop = tk->next + 1;
	emu_engine_kick(e);
	emu_engine_unlock(e);
}

/* Wait (up to 10 s on a loaded machine) until the ticker has had @n events. */
static void tk_wait_applied(struct emu_engine *e, const struct ticker *tk, unsigned n)
{
	for (int waited = 0; waited < 1000 && tk_applied(e, tk) < n; waited++)
		sleep_ms(10);
	assert_int_equal(tk_applied(e, tk), n);
}

/* A kick that brings the target forward wakes the sleeping thread and is
 * counted as one; the timer wakeup at the event's time is not a kick. */
static void test_kicks_counted(void **state)
{
	struct emu_engine_config c;
	struct emu_engine *e;
	struct ticker tk;
	uint64_t k0, w0;

	(void)state;
	emu_engine_config_default(&c);
	assert_int_equal(emu_engine_new(&c, &e), 0);
	tk = (struct ticker){ .e = e, .stop = 0 };
	emu_engine_lock(e);
	assert_int_equal(emu_engine_add(e, &tick_ops, &tk), 0);
	emu_engine_unlock(e);
	/* The thread may not wait yet: this first kick may or may not count. */
	tk_one_event(e, &tk, 1000000ull);
	tk_wait_applied(e, &tk, 1);
	/* It applied the event under the lock and holds it until it waits:
	 * now it waits for work, and a kick must wake it. */
	k0 = KICKS(e);
	w0 = WAKEUPS(e);
	tk_one_event(e, &tk, 50000000ull);
	tk_wait_applied(e, &tk, 2);
	assert_int_equal(KICKS(e), k0 + 1);
	assert_true(WAKEUPS(e) >= w0 + 2); /* the kick, then the timer */
	emu_engine_lock(e);
	assert_int_equal(tk.early, 0);
	emu_engine_remove(e, &tk);
	emu_engine_unlock(e);
	emu_engine_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slip_not_burst),	     cmocka_unit_test(test_no_bound_bursts),
		cmocka_unit_test(test_line_generator_slips), cmocka_unit_test(test_config_checks),
		cmocka_unit_test(test_lab_cpu_idles),	     cmocka_unit_test(test_kicks_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
