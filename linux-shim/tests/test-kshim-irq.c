// SPDX-License-Identifier: MIT
/*
 * kshim's interrupts (src/kshim_irq.c) with IRQF_TRIGGER_FALLING on the
 * LAN8650 model's IRQ_N edges (src/emu/lan865x_emu_edges.c), as an oa_tc6
 * tree that requests a falling-edge interrupt gets them: one handler run
 * per edge, also for an edge within one transfer that the level never
 * shows; edges while the line is disabled run once it is enabled again;
 * a bus without the edge stream is refused. The Linux driver itself
 * (level-low in the Debian tree) is tested in test-linux-lan865x.c.
 */
#include <time.h>
#include <unistd.h>

#include "../src/kshim_priv.h"
#include "lan865x_emu_harness.h"

static unsigned runs; /* handler runs (atomic) */

static irqreturn_t on_edge(int irq, void *data)
{
	(void)irq;
	__atomic_fetch_add((unsigned *)data, 1, __ATOMIC_SEQ_CST);
	return IRQ_HANDLED;
}

static bool wait_runs(unsigned n)
{
	for (int i = 0; i < 2000; i++) {
		if (__atomic_load_n(&runs, __ATOMIC_SEQ_CST) >= n)
			return true;
		usleep(1000);
	}
	return false;
}

static int setup(void **state)
{
	struct lan865x_emu_config cfg;

	lan865x_emu_config_default(&cfg);
	cfg.realtime = false;
	cfg.irq_edges = true;
	return fixture_make_cfg(state, &cfg);
}

static void test_falling_edges(void **state)
{
	struct emu_fixture *t = *state;
	struct ethdrv_spi_bus bus;
	unsigned answered = 0;
	uint8_t fr[128];
	size_t len;
	int irq;

	bring_up(t, 0);
	lan865x_emu_get_bus(t->emu, &bus);
	irq = kshim_irq_line_new(&bus);
	assert_true(irq > 0);
	runs = 0;
	assert_int_equal(request_irq((unsigned)irq, on_edge, IRQF_TRIGGER_FALLING, "t", &runs), 0);
	usleep(20000);
	assert_int_equal(__atomic_load_n(&runs, __ATOMIC_SEQ_CST), 0); /* old edges not latched */

	len = make_frame(fr, 60, MAC_US, 1);
	deliver_frame(t, fr, len); /* IRQ_N falls */
	assert_true(wait_runs(1));

	/* A TX frame the medium answers within the same transfer: IRQ_N is
	 * released and asserted again, the level stays readable. */
	t->fm.on_announce = fm_echo;
	t->fm.hook_ctx = &answered;
	assert_true(irq_readable(t));
	make_frame(fr, 56, MAC_PEER, 2);
	{
		uint32_t f;

		send_frame(t, fr, 56, &f);
	}
	assert_int_equal(answered, 1);
	assert_true(irq_readable(t));
	assert_true(wait_runs(2));

	/* Disabled: the edge waits; enabled: it runs. */
	t->fm.on_announce = NULL;
	disable_irq((unsigned)irq);
	empty_chunk(t, false); /* read the answer out: IRQ_N released */
	len = make_frame(fr, 60, MAC_US, 3);
	deliver_frame(t, fr, len);
	usleep(50000);
	assert_int_equal(__atomic_load_n(&runs, __ATOMIC_SEQ_CST), 2);
	enable_irq((unsigned)irq);
	assert_true(wait_runs(3));
	assert_int_equal(STAT(t, irq_edges_lost), 0);
	kshim_irq_line_free(irq);
}

static void test_falling_needs_edges(void **state)
{
	struct emu_fixture *t = *state;
	struct ethdrv_spi_bus bus;
	int irq;

	lan865x_emu_get_bus(t->emu, &bus);
	bus.irq_edge_fd = -1; /* a bus with the level only (spidev today) */
	irq = kshim_irq_line_new(&bus);
	assert_true(irq > 0);
	assert_int_equal(request_irq((unsigned)irq, on_edge, IRQF_TRIGGER_FALLING, "t", &runs),
			 -EINVAL);
	/* The level works (IRQ_N is low since the reset: it fires at once). */
	runs = 0;
	assert_int_equal(request_irq((unsigned)irq, on_edge, IRQF_TRIGGER_LOW, "t", &runs), 0);
	assert_true(wait_runs(1));
	kshim_irq_line_free(irq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_falling_edges, setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_falling_needs_edges, setup, fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
