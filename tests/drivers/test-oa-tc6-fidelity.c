// SPDX-License-Identifier: MIT
/*
 * The lan865x driver against the LAN8650 model where the model follows the
 * chip more closely (issue 10, sections 1 and 6): no RX byte reaches the
 * host before its physical time in real-time mode (docs/design.md §4.2);
 * refused chunks cost their frame and no reset, and a frame the chip holds
 * open when the next SV comes is accounted for under both SV behaviours of
 * the model (docs/tc6.md §2.4.1, docs/accounting.md §3); RX frames without
 * zero alignment, with errata s3 reproduced (docs/tc6.md §5.6); cut-through
 * latency (docs/tc6.md §5.4.1). The pair of nodes:
 * tests/helpers/tc6_pair.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "drivers/oa_tc6.h"
#include "tc6_pair.h"

#define CHUNK 68u /* 64-byte payload + header/footer word (docs/tc6.md §2.1) */
#define FTR_DV (1u << 21) /* footer Data Valid (docs/tc6.md §2.3) */

/* What a node's timing bus saw. */
struct timing {
	unsigned rx_xfers; /* data transfers that returned RX frame data */
	unsigned early; /* ...and returned before their end on the bus */
	uint64_t worst_early_ns; /* by the most */
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* True if some footer of the data transfer @rx of @len bytes has DV set. */
static bool carries_rx_data(const uint8_t *tx, const uint8_t *rx, size_t len)
{
	if (len < CHUNK || len % CHUNK || !(be32(tx) >> 31))
		return false;
	for (size_t k = CHUNK; k <= len; k += CHUNK)
		if (be32(rx + k - 4) & FTR_DV)
			return true;
	return false;
}

/* The model's bus, timed: when did a transfer with RX data come back? */
static int timed_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct node *nd = ctx;
	struct timing *tm = nd->user;
	int ret = ethdrv_spi_transfer(&nd->model_bus, tx, rx, len);
	uint64_t back = ethdrv_now_ns(), bus_end = lan865x_emu_bus_time(nd->emu);

	if (ret || !tm || !carries_rx_data(tx, rx, len))
		return ret;
	tm->rx_xfers++;
	if (back < bus_end) {
		tm->early++;
		tm->worst_early_ns = ETHDRV_MAX(tm->worst_early_ns, bus_end - back);
	}
	return ret;
}

static const struct ethdrv_spi_ops timed_ops = { .transfer = timed_transfer };

/* What a pair's models differ in from the defaults. */
struct model_settings {
	uint32_t spi_hz; /* 0: the default */
	uint64_t slack_ns;
	enum lan865x_emu_sv_open sv_open;
	bool errata_s3;
};

static struct model_settings model; /* for the pair being set up */

static void tweak_models(struct lan865x_emu_config *cfg, unsigned idx)
{
	if (model.spi_hz)
		cfg->spi_hz = model.spi_hz;
	cfg->slack_ns = model.slack_ns;
	cfg->sv_open = model.sv_open;
	cfg->errata_s3 = model.errata_s3;
	(void)idx;
}

/* A fresh pair as @o says (64-byte chunks) whose models get @m. */
static struct fixture *model_pair(struct pair_opts o, struct model_settings m)
{
	void *state;

	o.cps = 64;
	o.emu_cfg = tweak_models;
	model = m;
	pair_setup(&state, &o);
	return state;
}

static void pair_free(struct fixture *f)
{
	void *state = f;

	pair_teardown(&state);
}

/* Set knob @key=@value on both drivers and wait for the re-initialisations. */
static void set_both(struct fixture *f, const char *key, const char *value)
{
	for (unsigned i = 0; i < 2; i++) {
		uint64_t done = stat(&f->n[i], "recoveries_user");

		assert_int_equal(ethdrv_netdev_set(f->n[i].dev, key, value), 0);
		for (uint64_t t0 = now_ms(); stat(&f->n[i], "recoveries_user") == done;)
			assert_true(pump(f) >= 0 && now_ms() - t0 < 5000);
	}
}

/* Real time, 40 frames of 1000 bytes A -> B, models as @m says; what B's bus saw. */
static void timed_run(struct model_settings m, struct timing *tm)
{
	static uint16_t lens[40];
	struct timing unused = { 0 };
	struct fixture *f;
	struct flow fl;

	for (unsigned i = 0; i < ETHDRV_ARRAY_SIZE(lens); i++)
		lens[i] = 1000;
	memset(tm, 0, sizeof(*tm));
	f = model_pair((struct pair_opts){ .realtime = true, .bus_ops = &timed_ops }, m);
	f->n[0].user = &unused;
	f->n[1].user = tm;
	flow_init(&fl, &f->n[0], &f->n[1], lens, ETHDRV_ARRAY_SIZE(lens));
	flows_run(f, &fl, 1, 4, 3000);
	assert_int_equal(fl.bad, 0);
	/* Real time: a host stall longer than the RX buffer lasts loses frames
	 * to RX overflow (counted); what this test checks is the timing of the
	 * data that did come. */
	assert_true(fl.rcvd > 0);
	assert_int_equal(fl.rcvd + exact_drops(&f->n[0], &f->n[1]), fl.n);
	pair_free(f);
}

/*
 * No RX byte before its physical time: a transfer that returns RX frame
 * data returns no earlier than its end on the bus (docs/design.md §4.2).
 * A slower host only returns later, so this holds at any speed. The
 * control: with a slack the model lets transfers return early, and the same
 * check must see it. A slack of 200 us at 25 MHz is within what a host
 * slowed down by valgrind spends in a transfer, so the control runs the bus
 * at 250 kHz (2.2 ms a chunk) with a slack of 1 s: a transfer with RX data
 * then returns milliseconds before its end on the bus, unless the host
 * takes longer than that for one transfer.
 */
static void test_rx_not_before_bus_time(void **state)
{
	struct timing tm;

	timed_run((struct model_settings){ 0 }, &tm);
	print_message("slack 0: %u transfers with RX data, %u early\n", tm.rx_xfers, tm.early);
	assert_true(tm.rx_xfers > 0);
	assert_int_equal(tm.early, 0);
	timed_run((struct model_settings){ .spi_hz = 250000, .slack_ns = 1000000000u }, &tm);
	print_message("250 kHz, slack 1 s: %u transfers with RX data, %u early (worst %llu ns)\n",
		      tm.rx_xfers, tm.early, (unsigned long long)tm.worst_early_ns);
	assert_true(tm.early > 0);
	(void)state;
}

#define FTR_HDR_SV (1u << 20) /* data header bits (docs/tc6.md §2.2) */
#define HDR_EV (1u << 14)
#define HDR_EBO (0x3Fu << 8)
#define HDR_DV (1u << 21)

static uint32_t odd_parity(uint32_t w)
{
	w &= ~1u;
	return w | (__builtin_popcount(w) % 2 ? 0u : 1u);
}

/* What node A's header-changing bus does and did. */
struct ev_eraser {
	bool armed; /* erase the next EV that ends a frame begun earlier */
	unsigned erased; /* done */
};

/*
 * The model's bus, where one EV vanishes: the next data header that ends a
 * frame begun in an earlier chunk goes out as a middle chunk (with good
 * parity: two flipped bits, which parity cannot see, docs/tc6.md §1.3). The
 * chip then still holds that frame open when the next frame's SV comes.
 */
static int ev_erasing_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	static uint8_t mosi[OA_TC6_XFER_CAP_MAX * CHUNK];
	struct node *nd = ctx;
	struct ev_eraser *e = nd->user;

	if (e && e->armed && len <= sizeof(mosi) && len % CHUNK == 0 && (be32(tx) >> 31)) {
		memcpy(mosi, tx, len);
		for (size_t k = 0; k < len && e->armed; k += CHUNK) {
			uint32_t h = be32(mosi + k);

			if ((h & HDR_DV) && (h & HDR_EV) && !(h & FTR_HDR_SV)) {
				h = odd_parity(h & ~(HDR_EV | HDR_EBO));
				for (int b = 0; b < 4; b++)
					mosi[k + (size_t)b] = (uint8_t)(h >> (24 - 8 * b));
				e->armed = false;
				e->erased++;
			}
		}
		tx = mosi;
	}
	return ethdrv_spi_transfer(&nd->model_bus, tx, rx, len);
}

static const struct ethdrv_spi_ops ev_erasing_ops = { .transfer = ev_erasing_transfer };

/* Lengths of the test flows: one to 24 chunks. */
static unsigned fill_lens(uint16_t *lens, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		lens[i] = (uint16_t)(60 + (i * 211) % 1455);
	return n;
}

/* Every frame of @fl sent is delivered or counted once; then a clean flow; free the pair. */
static void finish_balanced(struct fixture *f, struct flow *fl, uint64_t drops0)
{
	assert_int_equal(fl->sent, fl->rcvd + exact_drops(&f->n[0], &f->n[1]) - drops0);
	assert_traffic(f);
	pair_free(f);
}

/*
 * A frame the chip holds open when the next frame's SV comes (its EV lost
 * on MOSI without a parity error): under both SV behaviours of the model
 * (docs/tc6.md §2.4.1) every frame is still accounted for, exactly
 * (docs/accounting.md §3): those the driver counted as sent are in the
 * chip's started and dropped counters, and the TXPE brings a recovery.
 */
static void run_sv_while_open(enum lan865x_emu_sv_open mode)
{
	static uint16_t lens[120];
	struct ev_eraser ea = { 0 }, eb = { 0 };
	uint64_t drops0, dropped0;
	struct lan865x_emu_stats st;
	struct fixture *f;
	struct flow fl;

	f = model_pair((struct pair_opts){ .bus_ops = &ev_erasing_ops },
		       (struct model_settings){ .sv_open = mode });
	f->n[0].user = &ea;
	f->n[1].user = &eb;
	drops0 = exact_drops(&f->n[0], &f->n[1]);
	flow_init(&fl, &f->n[0], &f->n[1], lens, fill_lens(lens, ETHDRV_ARRAY_SIZE(lens)));
	for (unsigned k = 0; k < 4; k++) {
		fl.n = (k + 1) * 30;
		ea.armed = true;
		flows_run(f, &fl, 1, 8, 200);
	}
	lan865x_emu_get_stats(f->n[0].emu, &st);
	dropped0 = ethdrv_counter_get(&st.tx_dropped_protocol);
	print_message("sv_open %d: %u EVs erased, %u sent, %u delivered, txpe %llu, "
		      "dropped_protocol %llu, recoveries %llu\n",
		      (int)mode, ea.erased, fl.sent, fl.rcvd,
		      (unsigned long long)ethdrv_counter_get(&st.txpe),
		      (unsigned long long)dropped0,
		      (unsigned long long)stat(&f->n[0], "recoveries"));
	assert_int_equal(ea.erased, 4);
	assert_int_equal(fl.bad, 0);
	assert_true(ethdrv_counter_get(&st.txpe) >= 4);
	assert_true(dropped0 >= (mode == LAN865X_EMU_SV_OPEN_IGNORE ? 8u : 4u));
	finish_balanced(f, &fl, drops0);
}

static enum lan865x_emu_sv_open sv_restart = LAN865X_EMU_SV_OPEN_RESTART;
static enum lan865x_emu_sv_open sv_ignore = LAN865X_EMU_SV_OPEN_IGNORE;

/* Under the SV behaviour the test's state points to. */
static void test_sv_while_open(void **state)
{
	run_sv_while_open(*(enum lan865x_emu_sv_open *)*state);
}

/*
 * Header parity errors on A's chunks all through a flow, under both SV
 * behaviours: each refused chunk costs the frame open then and nothing
 * else, no reset; every frame is accounted for, exactly.
 */
static void run_refused_chunks(enum lan865x_emu_sv_open mode)
{
	static uint16_t lens[400];
	struct fixture *f;
	struct node *a;
	struct flow fl;
	uint64_t drops0;

	f = model_pair((struct pair_opts){ 0 }, (struct model_settings){ .sv_open = mode });
	a = &f->n[0];
	drops0 = exact_drops(a, &f->n[1]);
	flow_init(&fl, a, &f->n[1], lens, fill_lens(lens, ETHDRV_ARRAY_SIZE(lens)));
	for (unsigned k = 0; k < 40; k++) {
		fl.n = (k + 1) * 10;
		assert_int_equal(lan865x_emu_inject(a->emu, LAN865X_EMU_FAULT_HDR_PARITY), 0);
		flows_run(f, &fl, 1, 8, 100);
	}
	print_message("sv_open %d: %u sent, %u delivered, hdrb %llu, tx_refused %llu, "
		      "recoveries %llu\n",
		      (int)mode, fl.sent, fl.rcvd, (unsigned long long)stat(a, "hdrb"),
		      (unsigned long long)stat(a, "tx_refused"),
		      (unsigned long long)stat(a, "recoveries"));
	assert_int_equal(fl.bad, 0);
	assert_int_equal(stat(a, "recoveries"), 0);
	assert_true(stat(a, "hdrb") >= 20);
	assert_true(stat(a, "tx_refused") >= 1);
	assert_true(fl.rcvd >= fl.n - stat(a, "tx_refused"));
	finish_balanced(f, &fl, drops0);
}

static void test_refused_chunks(void **state)
{
	run_refused_chunks(*(enum lan865x_emu_sv_open *)*state);
}

/*
 * RX frames without zero alignment (rx_zero_align=off, CONFIG0.RFA 0): the
 * chip starts a frame right after the previous one's end in the same chunk
 * (docs/tc6.md §2.4); the driver reassembles both. With the model
 * reproducing errata s3, the RX path then halts: the driver sees RCA promise
 * data that never comes and recovers (recoveries_rxstall); every frame is
 * accounted for. With ZARFE (the default) no chunk is shared.
 */
static void run_unaligned(bool errata_s3)
{
	static uint16_t lens[300];
	struct fixture *f;
	struct lan865x_emu_stats st;
	uint64_t drops0;
	struct flow fl;

	f = model_pair((struct pair_opts){ 0 }, (struct model_settings){ .errata_s3 = errata_s3 });
	set_both(f, "rx_zero_align", "off");
	drops0 = exact_drops(&f->n[0], &f->n[1]);
	flow_init(&fl, &f->n[0], &f->n[1], lens, fill_lens(lens, ETHDRV_ARRAY_SIZE(lens)));
	flows_run(f, &fl, 1, 64, errata_s3 ? 300 : 3000);
	lan865x_emu_get_stats(f->n[1].emu, &st);
	print_message("errata s3 %d: %u sent, %u delivered, %llu shared chunks, %llu rx stall "
		      "recoveries\n",
		      errata_s3, fl.sent, fl.rcvd,
		      (unsigned long long)ethdrv_counter_get(&st.rx_shared_chunks),
		      (unsigned long long)stat(&f->n[1], "recoveries_rxstall"));
	assert_true(ethdrv_counter_get(&st.rx_shared_chunks) > 0);
	assert_int_equal(fl.bad, 0);
	if (errata_s3) {
		assert_true(stat(&f->n[1], "recoveries_rxstall") > 0);
		assert_int_equal(fl.sent, fl.rcvd + exact_drops(&f->n[0], &f->n[1]) - drops0);
	} else {
		assert_int_equal(fl.rcvd, fl.n);
		assert_int_equal(stat(&f->n[1], "recoveries"), 1); /* the knob's re-init */
	}
	set_both(f, "rx_zero_align", "on");
	lan865x_emu_get_stats(f->n[1].emu, &st);
	drops0 = ethdrv_counter_get(&st.rx_shared_chunks);
	assert_traffic(f);
	lan865x_emu_get_stats(f->n[1].emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_shared_chunks), drops0);
	pair_free(f);
}

static bool errata_s3_off, errata_s3_on = true;

/* Without (the state points to false) or with errata s3 reproduced. */
static void test_rx_unaligned(void **state)
{
	run_unaligned(*(bool *)*state);
}

/*
 * Cut-through (docs/tc6.md §5.4.1), real time, 1400-byte frames A -> B one
 * at a time: the one-way latency, minimum of @n frames. With
 * rx_cut_through and tx_cut_through on both drivers, B's chunks come as
 * they arrive from the wire (IRQ_N at each chunk's time) and A's frame goes
 * out once two blocks are in; every frame arrives intact, no RX transfer
 * returns before its end on the bus, no TX underrun, the books balance.
 * @rx_xfers receives the number of B's transfers that returned RX data.
 */
static uint64_t run_cut_through(bool ct, unsigned n, unsigned *rx_xfers)
{
	static uint16_t lens[20];
	struct timing tm = { 0 }, unused = { 0 };
	struct lan865x_emu_stats sa, sb;
	uint64_t best = UINT64_MAX, drops0;
	struct fixture *f;
	struct flow fl;

	assert_true(n <= ETHDRV_ARRAY_SIZE(lens));
	for (unsigned i = 0; i < n; i++)
		lens[i] = 1400;
	f = model_pair((struct pair_opts){ .realtime = true, .bus_ops = &timed_ops },
		       (struct model_settings){ 0 });
	f->n[0].user = &unused;
	f->n[1].user = &tm;
	if (ct) {
		set_both(f, "rx_cut_through", "on");
		set_both(f, "tx_cut_through", "on");
	}
	drops0 = exact_drops(&f->n[0], &f->n[1]);
	flow_init(&fl, &f->n[0], &f->n[1], lens, n);
	while (fl.sent < n) {
		uint64_t t0 = ethdrv_now_ns();

		assert_true(flow_send(&fl));
		while (!flow_drain(&fl))
			assert_true(pump(f) >= 0 && ethdrv_now_ns() - t0 < 2000000000u);
		best = ETHDRV_MIN(best, ethdrv_now_ns() - t0);
		for (uint64_t t1 = ethdrv_now_ns(); ethdrv_now_ns() - t1 < 2000000;)
			pump(f); /* let both sides settle */
	}
	lan865x_emu_get_stats(f->n[0].emu, &sa);
	lan865x_emu_get_stats(f->n[1].emu, &sb);
	print_message("cut-through %s: min one-way %llu us over %u frames; %u RX transfers, "
		      "%u early; txbue %llu\n",
		      ct ? "on " : "off", (unsigned long long)best / 1000, n, tm.rx_xfers, tm.early,
		      (unsigned long long)ethdrv_counter_get(&sa.txbue));
	assert_int_equal(fl.bad, 0);
	assert_int_equal(fl.rcvd, n);
	assert_int_equal(tm.early, 0);
	assert_int_equal(ethdrv_counter_get(&sa.txbue), 0);
	assert_int_equal(exact_drops(&f->n[0], &f->n[1]), drops0);
	*rx_xfers = tm.rx_xfers;
	(void)sb;
	pair_free(f);
	return best;
}

/*
 * The latency difference: a 1400-byte frame takes 1126 us on the wire and
 * 479 us of SPI each side; cut-through overlaps the SPI with the wire, so
 * it must save well over 600 us (the computed saving is about 850 us:
 * TX starts after 2 of 22 chunks, RX reads the last chunk once the frame
 * has ended).
 */
static void test_cut_through_latency(void **state)
{
	unsigned sf_xfers, ct_xfers;
	uint64_t sf = run_cut_through(false, 12, &sf_xfers);
	uint64_t ct = run_cut_through(true, 12, &ct_xfers);

	/* With RX cut-through B reads a frame's chunks as they come, so in
	 * more transfers than store and forward, which reads each frame once
	 * it is whole (2 transfers a frame). How many more depends on how fast
	 * the host answers IRQ_N (about 13 a frame natively, under 4 under
	 * valgrind), so the test asks for more, not for a number. */
	assert_true(ct_xfers > sf_xfers);
	assert_true(ct + 600000 < sf);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_not_before_bus_time),
		{ "test_sv_while_open_restart", test_sv_while_open, NULL, NULL, &sv_restart },
		{ "test_sv_while_open_ignore", test_sv_while_open, NULL, NULL, &sv_ignore },
		{ "test_refused_chunks_restart", test_refused_chunks, NULL, NULL, &sv_restart },
		{ "test_refused_chunks_ignore", test_refused_chunks, NULL, NULL, &sv_ignore },
		{ "test_rx_unaligned", test_rx_unaligned, NULL, NULL, &errata_s3_off },
		{ "test_rx_unaligned_errata_s3", test_rx_unaligned, NULL, NULL, &errata_s3_on },
		cmocka_unit_test(test_cut_through_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
