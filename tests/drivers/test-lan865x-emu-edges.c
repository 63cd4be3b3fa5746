// SPDX-License-Identifier: MIT
/*
 * IRQ_N's falling edges (src/emu/lan865x_emu_edges.c): the stream an
 * edge-triggered host reads beside the level, and such a host's loop.
 * The medium answers each TX frame at once (fm_echo in the harness), in the
 * middle of the transfer that completed it, so IRQ_N is released by that
 * transfer's data header and asserted again before the transfer ends: the
 * level fd is readable before and after and shows no change, the edge
 * stream shows the edge (docs/tc6.md §2.5).
 */
#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "lan865x_emu_harness.h"

struct edge_fixture {
	struct emu_fixture t; /* first */
	unsigned echoed; /* RX frames the medium answered (fm_echo) */
	struct ethdrv_spi_bus bus;
};

static int edge_setup(void **state)
{
	struct edge_fixture *f = calloc(1, sizeof(*f));
	struct lan865x_emu_config cfg;

	assert_non_null(f);
	lan865x_emu_config_default(&cfg);
	cfg.realtime = false;
	cfg.irq_edges = true;
	assert_int_equal(lan865x_emu_new(&cfg, &f->t.emu), 0);
	f->t.fm.base.ops = &fm_ops;
	f->t.fm.hook_ctx = &f->echoed;
	assert_int_equal(lan865x_emu_attach(f->t.emu, &f->t.fm.base, 0), 0);
	lan865x_emu_get_bus(f->t.emu, &f->bus);
	*state = f;
	return 0;
}

static int edge_teardown(void **state)
{
	struct edge_fixture *f = *state;

	lan865x_emu_free(f->t.emu);
	free(f);
	return 0;
}

/* Read every queued edge; checks the sequence numbers run on from *@seq. */
static unsigned read_edges(struct edge_fixture *f, uint32_t *seq, uint64_t *last_t)
{
	struct ethdrv_irq_edge ev[16];
	unsigned n = 0;
	ssize_t r;

	while ((r = read(f->bus.irq_edge_fd, ev, sizeof(ev))) > 0) {
		assert_int_equal(r % (ssize_t)sizeof(ev[0]), 0);
		for (size_t i = 0; i < (size_t)r / sizeof(ev[0]); i++) {
			assert_int_equal(ev[i].seqno, *seq + 1);
			assert_true(ev[i].t_ns >= *last_t);
			*seq = ev[i].seqno;
			*last_t = ev[i].t_ns;
			n++;
		}
	}
	assert_int_equal(errno, EAGAIN);
	return n;
}

static bool edge_readable(struct edge_fixture *f)
{
	struct pollfd p = { .fd = f->bus.irq_edge_fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

static void test_edges_off_by_default(void **state)
{
	struct lan865x_emu *emu;
	struct ethdrv_spi_bus bus;

	assert_int_equal(lan865x_emu_new(NULL, &emu), 0);
	lan865x_emu_get_bus(emu, &bus);
	assert_int_equal(bus.irq_edge_fd, -1);
	assert_true(bus.irq_fd >= 0);
	lan865x_emu_free(emu);
	(void)state;
}

/* The known answer: one edge per assertion, also one the level cannot show. */
static void test_edge_within_one_transfer(void **state)
{
	struct edge_fixture *f = *state;
	struct emu_fixture *t = &f->t;
	uint32_t seq = 0, ftr;
	uint64_t last = 0, t0;
	uint8_t fr[128];
	size_t len;

	/* The power-on reset asserted IRQ_N: edge 1. */
	assert_int_equal(read_edges(f, &seq, &last), 1);
	bring_up(t, 0);
	assert_false(edge_readable(f));
	len = make_frame(fr, 60, MAC_PEER, 1);
	deliver_frame(t, fr, len); /* filtered: not for us, no edge */
	assert_false(edge_readable(f));
	len = make_frame(fr, 60, MAC_US, 2);
	deliver_frame(t, fr, len); /* RCA 0 -> 1: IRQ_N falls, edge 2 */
	assert_true(irq_readable(t));
	assert_int_equal(read_edges(f, &seq, &last), 1);
	assert_int_equal(seq, 2);

	/* One transfer: a TX frame, which the medium answers before the
	 * transfer's end, while its data header released IRQ_N and its
	 * footer reported RCA 1 then the first frame read (RCA 0). */
	f->t.fm.on_announce = fm_echo;
	t0 = lan865x_emu_bus_time(t->emu);
	len = make_frame(fr, 56, MAC_PEER, 3); /* 60 bytes: one chunk */
	send_frame(t, fr, 56, &ftr);
	assert_int_equal(f->echoed, 1);
	assert_int_equal(F_RCA(ftr), 0);
	assert_int_equal(F_EV(ftr), 1); /* the first frame came out whole */
	/* The level: readable before, readable after: no change to see. */
	assert_true(irq_readable(t));
	/* The edge stream: exactly one new edge, at a time within the transfer. */
	assert_int_equal(read_edges(f, &seq, &last), 1);
	assert_int_equal(seq, 3);
	assert_true(last >= t0 && last <= lan865x_emu_bus_time(t->emu));
	assert_int_equal(STAT(t, irq_edges), 3);
	assert_int_equal(STAT(t, irq_asserts), 3);
	assert_int_equal(STAT(t, irq_edges_lost), 0);
}

/*
 * A host that services the chip only when an edge comes, until a footer
 * says nothing is left (RCA 0, nothing to send), then waits for the next
 * edge or a frame to send, as Linux's oa_tc6 does. 200 frames each way, one
 * in flight: the transfer that reads answer k sends frame k + 1, whose
 * answer comes before that transfer ends, so IRQ_N is low before and after
 * it: the host gets every answer from the edges alone, where a host judging
 * by level changes would have seen none of those edges (counted: hidden).
 */
static void test_edge_triggered_host(void **state)
{
	struct edge_fixture *f = *state;
	struct emu_fixture *t = &f->t;
	unsigned sent = 0, got = 0, hidden = 0, waits = 0;
	uint32_t seq = 0;
	uint64_t last = 0;
	uint8_t fr[128];
	const unsigned n = 200;

	read_edges(f, &seq, &last);
	bring_up(t, 0);
	f->t.fm.on_announce = fm_echo;
	while (got < n && waits < 4 * n) {
		struct pollfd p = { .fd = f->bus.irq_edge_fd, .events = POLLIN };
		bool more = true;

		/* Sleep until an edge or a frame to send (one in flight at most). */
		if (!(sent < n && sent - got <= 1) && poll(&p, 1, 0) != 1)
			break; /* stalled: no edge, nothing to do */
		waits++;
		read_edges(f, &seq, &last);
		while (more) {
			uint32_t ftr;
			bool level_before = irq_readable(t);

			if (sent < n && sent - got <= 1) {
				make_frame(fr, 56, MAC_PEER, (uint8_t)sent);
				send_frame(t, fr, 56, &ftr);
				sent++;
			} else {
				ftr = empty_chunk(t, false);
			}
			if (F_DV(ftr) && F_EV(ftr)) {
				assert_true(fcs_good(t->rx, 64));
				got++;
			}
			if (level_before && irq_readable(t) && edge_readable(f))
				hidden++; /* an edge the level did not show */
			more = F_RCA(ftr) > 0;
		}
	}
	assert_int_equal(sent, n);
	assert_int_equal(got, n);
	assert_true(hidden > 0);
	assert_int_equal(seq, STAT(t, irq_edges));
	assert_int_equal(STAT(t, irq_edges_lost), 0);
	assert_int_equal(STAT(t, rx_delivered), n);
}

/* A host that never reads the stream: edges beyond the pipe are counted. */
static void test_edges_lost_counted(void **state)
{
	struct edge_fixture *f = *state;
	struct emu_fixture *t = &f->t;
	uint32_t seq = 0;
	uint64_t last = 0, lost;
	unsigned i;

	bring_up(t, 0);
	for (i = 0; i < 20000 && STAT(t, irq_edges_lost) == 0; i++) {
		write_reg(t, 0, 0x03, 1); /* SWRESET: a reset asserts IRQ_N (docs/tc6.md §4.1) */
		empty_chunk(t, true); /* ...and a data header releases it */
	}
	lost = STAT(t, irq_edges_lost);
	assert_true(lost > 0);
	/* The reader sees a gap of exactly the lost edges. */
	{
		struct ethdrv_irq_edge ev;
		uint32_t prev = 0, gaps = 0;

		while (read(f->bus.irq_edge_fd, &ev, sizeof(ev)) == (ssize_t)sizeof(ev)) {
			gaps += ev.seqno - prev - 1;
			prev = ev.seqno;
		}
		write_reg(t, 0, 0x03, 1);
		assert_int_equal(read(f->bus.irq_edge_fd, &ev, sizeof(ev)), sizeof(ev));
		gaps += ev.seqno - prev - 1;
		assert_int_equal(gaps, lost);
	}
	(void)seq;
	(void)last;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_off_by_default),
		cmocka_unit_test_setup_teardown(test_edge_within_one_transfer, edge_setup,
						edge_teardown),
		cmocka_unit_test_setup_teardown(test_edge_triggered_host, edge_setup,
						edge_teardown),
		cmocka_unit_test_setup_teardown(test_edges_lost_counted, edge_setup, edge_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
