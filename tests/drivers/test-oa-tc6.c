// SPDX-License-Identifier: MIT
/*
 * The lan865x driver on the OA TC6 framework against the LAN8650 model:
 * two nodes (loop, pool, model, netdev each) on the point-to-point medium,
 * both loops run alternately in the test thread, the model in virtual time
 * (the pair: tests/helpers/tc6_pair.h).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/oa_tc6_proto.h"
#include "tc6_pair.h"

static int setup_64(void **state)
{
	return pair_setup(state, &(struct pair_opts){ .cps = 64 });
}

static int setup_32_prot(void **state)
{
	return pair_setup(state, &(struct pair_opts){ .cps = 32, .prot = true });
}

static int setup_64_prot(void **state)
{
	return pair_setup(state, &(struct pair_opts){ .cps = 64, .prot = true });
}

static int setup_32(void **state)
{
	return pair_setup(state, &(struct pair_opts){ .cps = 32 });
}

/* Lengths from..to step @step, then the tagged maximum separately. */
static unsigned sweep(uint16_t *lens, unsigned from, unsigned to, unsigned step)
{
	unsigned n = 0;

	for (unsigned l = from; l <= to; l += step)
		lens[n++] = (uint16_t)l;
	return n;
}

static void run_sizes(void **state, unsigned step)
{
	static uint16_t lens[MAX_LEN + 1];
	struct fixture *f = *state;
	static const uint16_t runts[] = { 14, 18, 42, 59 };
	static const uint16_t tagged[] = { VLAN_LEN, 64, VLAN_LEN };
	unsigned n = sweep(lens, ETHDRV_ETH_ZLEN, MAX_LEN, step);

	if (lens[n - 1] != MAX_LEN)
		lens[n++] = MAX_LEN;
	both_ways(f, lens, n, false);
	both_ways(f, runts, ETHDRV_ARRAY_SIZE(runts), false);
	both_ways(f, tagged, ETHDRV_ARRAY_SIZE(tagged), true);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(stat(&f->n[i], "recoveries"), 0);
		assert_int_equal(stat(&f->n[i], "rx_crc_errors"), 0);
		assert_true(stat(&f->n[i], "chunks_tx") > 0);
	}
}

/* Every length 60..1514 and a 1522-byte (with FCS) VLAN frame, both ways. */
static void test_sizes_all(void **state)
{
	run_sizes(state, 1);
}

/* The same at a stride, for the other chunk-size/protection combinations. */
static void test_sizes_stride(void **state)
{
	run_sizes(state, 13);
}

/* Many frames at once: BQL and the driver cap stop the queue, credits run out. */
static void test_credits_bql(void **state)
{
	static uint16_t lens[600];
	struct fixture *f = *state;
	struct node *a = &f->n[0];
	struct flow fl;

	for (unsigned i = 0; i < ETHDRV_ARRAY_SIZE(lens); i++)
		lens[i] = MAX_LEN;
	flow_init(&fl, a, &f->n[1], lens, ETHDRV_ARRAY_SIZE(lens));
	flows_run(f, &fl, 1, 600, 3000);
	assert_int_equal(fl.bad, 0);
	assert_int_equal(fl.rcvd, fl.n);
	assert_true(ethdrv_counter_get(&a->dev->txq.stops) > 0);
	assert_true(ethdrv_counter_get(&a->dev->txq.wakes) > 0);
	assert_true(stat(a, "tx_credit_stalls") > 0);
	assert_int_equal(stat(a, "tx_packets"), fl.n);
	print_message("bql: %u frames of %u B: %llu SPI transfers, %llu chunks sent, %llu empty, "
		      "%llu credit stalls, %llu queue stops\n",
		      fl.n, MAX_LEN, (unsigned long long)stat(a, "spi_transfers"),
		      (unsigned long long)stat(a, "chunks_tx"),
		      (unsigned long long)stat(a, "chunks_empty"),
		      (unsigned long long)stat(a, "tx_credit_stalls"),
		      (unsigned long long)ethdrv_counter_get(&a->dev->txq.stops));
	assert_false(ethdrv_netdev_tx_stopped(a->dev));
}

/* Traffic A->B with a fault injected on @who in the middle; then alive. */
static void fault_run(struct fixture *f, enum lan865x_emu_fault fault, struct node *who,
		      struct flow *fl)
{
	static uint16_t lens[200];
	uint64_t drops0;

	for (unsigned i = 0; i < ETHDRV_ARRAY_SIZE(lens); i++)
		lens[i] = (uint16_t)(60 + (i * 97) % 1455);
	assert_traffic(f);
	drops0 = exact_drops(&f->n[0], &f->n[1]);
	flow_init(fl, &f->n[0], &f->n[1], lens, ETHDRV_ARRAY_SIZE(lens));
	fl->n = 50;
	flows_run(f, fl, 1, 8, 3000);
	assert_int_equal(lan865x_emu_inject(who->emu, fault), 0);
	fl->n = ETHDRV_ARRAY_SIZE(lens);
	flows_run(f, fl, 1, 8, 1000);
	assert_int_equal(fl->bad, 0);
	print_message("fault %d: %u sent, %u delivered, %llu drops counted\n", (int)fault, fl->n,
		      fl->rcvd, (unsigned long long)counted_drops(fl->src, fl->dst));
	/* Every loss is counted somewhere, driver or model... */
	assert_true(fl->rcvd + counted_drops(fl->src, fl->dst) >= fl->n);
	/* ...and exactly once. */
	assert_int_equal(fl->sent, fl->rcvd + exact_drops(fl->src, fl->dst) - drops0);
	assert_traffic(f);
}

static void run_fatal(void **state, enum lan865x_emu_fault fault, const char *const causes[])
{
	struct fixture *f = *state;
	struct node *a = &f->n[0];
	uint64_t by_cause = 0;
	struct flow fl;

	fault_run(f, fault, a, &fl);
	for (int i = 0; causes[i]; i++)
		by_cause += stat(a, causes[i]);
	assert_true(by_cause >= 1);
	assert_int_equal(stat(a, "recoveries"), by_cause);
	assert_true(stat(a, "recovery_ns") > 0);
	assert_int_equal(stat(a, "recovery_failures"), 0);
}

static void test_fatal_txpe(void **state)
{
	run_fatal(state, LAN865X_EMU_FAULT_TX_PROTOCOL,
		  (const char *const[]){ "recoveries_txpe", NULL });
}

static void test_fatal_lofe(void **state)
{
	run_fatal(state, LAN865X_EMU_FAULT_LOSS_OF_FRAME,
		  (const char *const[]){ "recoveries_lofe", NULL });
}

/*
 * A header with bad parity is refused (HDRB in its footer, STATUS0.HDRE):
 * the frame open then is dropped and counted, and nothing is reset
 * (docs/tc6.md §2.4.1); every frame is still accounted for (fault_run).
 */
static void test_header_parity(void **state)
{
	struct fixture *f = *state;
	struct flow fl;

	fault_run(f, LAN865X_EMU_FAULT_HDR_PARITY, &f->n[0], &fl);
	assert_true(stat(&f->n[0], "status0_hdre") >= 1 && stat(&f->n[0], "recoveries") == 0);
}

static void test_fatal_reset(void **state)
{
	run_fatal(state, LAN865X_EMU_FAULT_RESET,
		  (const char *const[]){ "recoveries_sync", "recoveries_resetc", NULL });
}

static void test_fatal_internal(void **state)
{
	run_fatal(state, LAN865X_EMU_FAULT_INTERNAL,
		  (const char *const[]){ "recoveries_status1", NULL });
}

/* RX overflow on the receiver: counted, the frame in flight dropped, traffic goes on. */
static void test_rx_overflow(void **state)
{
	struct fixture *f = *state;
	struct node *b = &f->n[1];
	struct flow fl;

	fault_run(f, LAN865X_EMU_FAULT_RX_OVERFLOW, b, &fl);
	assert_int_equal(stat(b, "rx_overflow"), 1);
	assert_int_equal(stat(b, "status0_rxboe"), 1);
	assert_int_equal(stat(b, "recoveries"), 0);
	/* Policy 5: count only; a broken frame is caught by the CRC, never delivered. */
	assert_int_equal(ethdrv_netdev_set(b->dev, "policy", "5"), 0);
	fault_run(f, LAN865X_EMU_FAULT_RX_OVERFLOW, b, &fl);
	assert_int_equal(stat(b, "rx_overflow"), 2);
	assert_int_equal(stat(b, "recoveries"), 0);
}

/* Bit errors on MOSI and MISO: nothing corrupted is delivered, losses are counted. */
static void test_bit_errors(void **state)
{
	static uint16_t lens[1500];
	struct fixture *f = *state;
	struct flow fl[2];
	uint64_t drops[2];

	for (unsigned i = 0; i < ETHDRV_ARRAY_SIZE(lens); i++)
		lens[i] = (uint16_t)(60 + (i * 389) % 1455);
	for (int i = 0; i < 2; i++)
		assert_int_equal(lan865x_emu_set_ber(f->n[i].emu, 1e-5, 1e-5), 0);
	flow_init(&fl[0], &f->n[0], &f->n[1], lens, ETHDRV_ARRAY_SIZE(lens));
	flow_init(&fl[1], &f->n[1], &f->n[0], lens, ETHDRV_ARRAY_SIZE(lens));
	flows_run(f, fl, 2, 8, 1500);
	for (int i = 0; i < 2; i++) {
		drops[i] = counted_drops(fl[i].src, fl[i].dst);
		print_message("ber: %u sent, %u delivered, %u corrupted, %llu drops counted, "
			      "%llu recoveries, %llu footer parity errors, %llu ctrl retries\n",
			      fl[i].n, fl[i].rcvd, fl[i].bad, (unsigned long long)drops[i],
			      (unsigned long long)stat(fl[i].src, "recoveries"),
			      (unsigned long long)stat(fl[i].dst, "footer_parity_errors"),
			      (unsigned long long)stat(fl[i].src, "ctrl_retries"));
		assert_int_equal(fl[i].bad, 0);
		assert_true(fl[i].rcvd + drops[i] >= fl[i].n);
		assert_true(fl[i].rcvd > fl[i].n / 2);
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(lan865x_emu_set_ber(f->n[i].emu, 0, 0), 0);
	assert_traffic(f);
}

/*
 * Pollers in their own threads with a tiny budget: the bus lock keeps
 * control (loop thread) and data (poller thread) apart, and no poll delivers
 * more than its budget (total work <= budget * polls).
 */
static void test_threaded_budget(void **state)
{
	static uint16_t lens[400];
	struct fixture *f = *state;
	struct flow fl[2];

	for (unsigned i = 0; i < ETHDRV_ARRAY_SIZE(lens); i++)
		lens[i] = (uint16_t)(60 + (i * 211) % 1455);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ethdrv_netdev_set(f->n[i].dev, "budget", "2"), 0);
		assert_int_equal(ethdrv_netdev_set(f->n[i].dev, "threaded", "1"), 0);
	}
	flow_init(&fl[0], &f->n[0], &f->n[1], lens, ETHDRV_ARRAY_SIZE(lens));
	flow_init(&fl[1], &f->n[1], &f->n[0], lens, ETHDRV_ARRAY_SIZE(lens));
	for (unsigned k = 0; k < 4; k++) {
		/* Control traffic from the loop thread while data flows. */
		assert_int_equal(ethdrv_netdev_set(f->n[0].dev, "policy", k % 2 ? "3" : "1"), 0);
		fl[0].n = fl[1].n = (k + 1) * 100;
		flows_run(f, fl, 2, 16, 3000);
	}
	for (int i = 0; i < 2; i++) {
		struct node *nd = &f->n[i];

		assert_int_equal(fl[i].bad, 0);
		assert_int_equal(fl[i].rcvd, ETHDRV_ARRAY_SIZE(lens));
		assert_true(stat(nd, "napi_rx_work") <= 2 * stat(nd, "napi_rx_polls"));
		assert_true(stat(nd, "napi_rx_repolls") > 0);
		assert_int_equal(ethdrv_netdev_set(nd->dev, "threaded", "0"), 0);
	}
	assert_traffic(f);
}

static void assert_param(struct node *nd, const char *key, const char *want)
{
	char buf[128];

	assert_int_equal(ethdrv_netdev_get(nd->dev, key, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static uint32_t peek(struct node *nd, unsigned mms, uint16_t addr)
{
	uint32_t v = 0;

	assert_int_equal(lan865x_emu_peek_reg(nd->emu, mms, addr, &v), 0);
	return v;
}

/* Change setting @what (0 PLCA, 1 station address, 2 RX filter) to version @k. */
static void reconfigure(struct node *nd, unsigned what, unsigned k)
{
	static const uint8_t mc[1][ETHDRV_ETH_ALEN] = { { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 } };
	char val[8];

	snprintf(val, sizeof(val), "%u", 100 + k);
	if (what == 0)
		assert_int_equal(ethdrv_netdev_set(nd->dev, "burst-tmr", val), 0);
	else if (what == 1)
		assert_int_equal(ethdrv_netdev_set_mac(nd->dev, nd->mac), 0);
	else
		assert_int_equal(ethdrv_netdev_set_rx_filter(nd->dev, ETHDRV_RXF_BROADCAST, mc,
							     k % 2 ? 0 : 1),
				 0);
}

/*
 * Threaded mode: a recovery runs the chip's init on the poller thread, and
 * that init reads the PLCA settings, the station address and the RX filter.
 * The loop thread changes them, in turn, while recoveries run there; the
 * bus lock orders each change against each init, so the chip ends with the
 * last values and a ThreadSanitizer build (test-oa-tc6-tsan) sees no race.
 */
static void test_threaded_reconfigure(void **state)
{
	struct fixture *f = *state;
	struct node *a = &f->n[0];
	struct emu_plca_cfg p;

	assert_int_equal(ethdrv_netdev_set(a->dev, "threaded", "1"), 0);
	for (unsigned k = 0; k < 30; k++) {
		uint64_t done = stat(a, "recoveries");

		assert_int_equal(lan865x_emu_inject(a->emu, LAN865X_EMU_FAULT_RESET), 0);
		/* Each setting in turn is the first to meet a recovery. */
		for (uint64_t t0 = now_ms(); stat(a, "recoveries") == done;) {
			for (unsigned what = 0; what < 3; what++)
				reconfigure(a, (k + what) % 3, k);
			assert_true(pump(f) >= 0 && now_ms() - t0 < 10000);
		}
	}
	for (unsigned what = 0; what < 3; what++)
		reconfigure(a, what, 29);
	assert_int_equal(ethdrv_netdev_set(a->dev, "threaded", "0"), 0);
	assert_int_equal(stat(a, "recoveries"), 30);
	assert_int_equal(stat(a, "recovery_failures"), 0);
	lan865x_emu_get_plca(a->emu, &p);
	assert_int_equal(p.burst_tmr, 129);
	/* The last filter has no multicast address: hash empty, MTIHEN off. */
	assert_int_equal(peek(a, 1, 0x20) | peek(a, 1, 0x21), 0);
	assert_int_equal(peek(a, 1, 0x01) & 0x40, 0);
	assert_traffic(f);
}

/*
 * A silent register upset (MAC NCR cleared, no status bit, SYNC kept): only
 * the configuration check finds it. Without the check the node stays dead.
 */
static void test_config_upset(void **state)
{
	static const uint16_t lens[] = { 60, 1514, 300, 1000 };
	struct fixture *f = *state;
	struct node *a = &f->n[0], *b = &f->n[1];
	uint64_t drops0;
	struct flow fl;

	assert_int_equal(ethdrv_netdev_set(a->dev, "config_check_ms", "0"), 0);
	assert_int_equal(ethdrv_netdev_set(b->dev, "config_check_ms", "100"), 0);
	assert_param(a, "config_check_ms", "0");
	assert_int_equal(ethdrv_netdev_set(a->dev, "config_check_ms", "60001"), -EINVAL);
	assert_traffic(f);
	/* Check off: A's frames are dropped by its disabled MAC, and counted. */
	assert_int_equal(lan865x_emu_inject(a->emu, LAN865X_EMU_FAULT_CONFIG_UPSET), 0);
	drops0 = exact_drops(a, b);
	flow_init(&fl, a, b, lens, ETHDRV_ARRAY_SIZE(lens));
	flows_run(f, &fl, 1, 4, 500);
	assert_int_equal(fl.rcvd, 0);
	assert_int_equal(exact_drops(a, b) - drops0, fl.sent);
	assert_int_equal(stat(a, "recoveries"), 0);
	/* Check on: found and recovered within a few periods. */
	assert_int_equal(ethdrv_netdev_set(a->dev, "config_check_ms", "100"), 0);
	for (uint64_t t0 = now_ms(); !stat(a, "recoveries_config");)
		assert_true(pump(f) >= 0 && now_ms() - t0 < 5000);
	assert_traffic(f);
	assert_int_equal(stat(a, "config_errors"), 1);
	assert_int_equal(stat(a, "recoveries"), 1);
	assert_int_equal(peek(a, 1, 0x00) & 0xC, 0xC); /* NCR TXEN | RXEN again */
	/* In the middle of a flow: every frame accounted for exactly once. */
	fault_run(f, LAN865X_EMU_FAULT_CONFIG_UPSET, a, &fl);
	assert_int_equal(stat(a, "recoveries_config"), 2);
	assert_int_equal(stat(a, "recoveries"), 2);
	/* The healthy node checked too and found nothing. */
	assert_true(stat(b, "config_checks") > 0);
	assert_int_equal(stat(b, "config_errors"), 0);
	assert_int_equal(stat(b, "recoveries"), 0);
}

/* The five policies of docs/napi.md §8: set, read back, and what reaches IMASK0. */
static void test_policies(void **state)
{
	static const struct {
		const char *mask; /* irq_mask as read back */
		uint32_t imask0; /* IMASK0 bits 0..12 except RESETC */
		const char *action, *log;
	} want[5] = {
		{ "txboe,txbue,resetc,phyint,ttscaa,ttscab,ttscac,txfcse,cdpe", 0x1F86, "drop",
		  "1" },
		{ "txboe,txbue,resetc,phyint,ttscaa,ttscab,ttscac,txfcse,cdpe", 0x1F86, "drop",
		  "0" },
		{ "txboe,txbue,rxboe,resetc,phyint,ttscaa,ttscab,ttscac,txfcse,cdpe", 0x1F8E,
		  "drop", "1" },
		{ "txpe,txboe,txbue,rxboe,lofe,hdre,resetc,phyint,ttscaa,ttscab,ttscac,txfcse,cdpe",
		  0x1FBF, "drop", "1" },
		{ "txboe,txbue,resetc,phyint,ttscaa,ttscab,ttscac,txfcse,cdpe", 0x1F86, "count",
		  "0" },
	};
	struct fixture *f = *state;
	struct node *a = &f->n[0];
	char num[4];

	assert_param(a, "policy", "1");
	for (int i = 0; i < 5; i++) {
		snprintf(num, sizeof(num), "%d", i + 1);
		assert_int_equal(ethdrv_netdev_set(a->dev, "policy", num), 0);
		assert_param(a, "policy", num);
		assert_param(a, "irq_mask", want[i].mask);
		assert_param(a, "rxboe_action", want[i].action);
		assert_param(a, "rxboe_log", want[i].log);
		assert_int_equal(peek(a, 0, 0x0C) & 0x1FBF, want[i].imask0);
		assert_traffic(f);
	}
	/* Per source: rxboe masked turns policy 1 into policy 3. */
	assert_int_equal(ethdrv_netdev_set(a->dev, "policy", "1"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "irq.rxboe", "0"), 0);
	assert_param(a, "policy", "3");
	assert_param(a, "irq.rxboe", "0");
	assert_param(a, "irq.txpe", "1");
	assert_int_equal(ethdrv_netdev_set(a->dev, "irq_mask", "none"), 0);
	assert_int_equal(peek(a, 0, 0x0C) & 0x1FBF, 0);
	assert_param(a, "policy", "custom");
	assert_int_equal(ethdrv_netdev_set(a->dev, "irq_mask", "txpe,bogus"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(a->dev, "policy", "6"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(a->dev, "rxboe_action", "keep"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(a->dev, "no_such_knob", "1"), -ENOENT);
	/* The policy survives a recovery. */
	assert_int_equal(ethdrv_netdev_set(a->dev, "policy", "4"), 0);
	assert_int_equal(lan865x_emu_inject(a->emu, LAN865X_EMU_FAULT_RESET), 0);
	/* RESETC cannot be masked: its IRQ brings the poll that sees SYNC=0. */
	for (uint64_t t0 = now_ms(); !stat(a, "recoveries");)
		assert_true(pump(f) >= 0 && now_ms() - t0 < 10000);
	assert_traffic(f);
	assert_int_equal(stat(a, "recoveries"), 1);
	assert_int_equal(peek(a, 0, 0x0C) & 0x1FBF, 0x1FBF);
}

/* PLCA knobs by their ethtool names reach MMS 4 (docs/tc6.md §3.6). */
static void test_plca_and_link(void **state)
{
	struct fixture *f = *state;
	struct node *a = &f->n[0];
	struct ethdrv_link_state st;
	struct emu_plca_cfg p;

	assert_int_equal(ethdrv_netdev_get_link(a->dev, &st), 0);
	assert_true(st.up);
	assert_int_equal(st.speed_mbps, 10);
	assert_false(st.full_duplex);
	assert_true(peek(a, 4, 0x87) & 0x8000); /* CSMA/CD: collision detection on */
	assert_int_equal(ethdrv_netdev_set(a->dev, "node-id", "3"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "node-cnt", "5"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "to-tmr", "40"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "burst-cnt", "2"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "burst-tmr", "100"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "plca", "on"), 0);
	lan865x_emu_get_plca(a->emu, &p);
	assert_true(p.enabled);
	assert_int_equal(p.node_id, 3);
	assert_int_equal(p.node_cnt, 5);
	assert_int_equal(p.to_tmr, 40);
	assert_int_equal(p.burst_cnt, 2);
	assert_int_equal(p.burst_tmr, 100);
	assert_false(peek(a, 4, 0x87) & 0x8000); /* PLCA: collision detection off */
	assert_param(a, "node-cnt", "5");
	assert_param(a, "plca", "on");
	assert_int_equal(ethdrv_netdev_set(a->dev, "node-id", "256"), -EINVAL);
	assert_int_equal(ethdrv_netdev_set(a->dev, "plca", "off"), 0);
	lan865x_emu_get_plca(a->emu, &p);
	assert_false(p.enabled);
	assert_true(peek(a, 4, 0x87) & 0x8000);
	/* MAC address and filters were programmed: a unicast to us arrives. */
	assert_traffic(f);
}

/* The SPI trace writes one well-formed line per transfer. */
static void test_spi_trace(void **state)
{
	struct fixture *f = *state;
	struct node *a = &f->n[0];
	char path[] = "/tmp/ethdrv-spi-trace-XXXXXX";
	unsigned long long ns, prev = 0;
	static char line[16384], mosi[8192], miso[8192];
	unsigned lines = 0;
	int fd = mkstemp(path);
	FILE *fp;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ethdrv_netdev_set(a->dev, "spi_trace", path), 0);
	assert_param(a, "spi_trace", "on");
	assert_traffic(f);
	assert_int_equal(ethdrv_netdev_set(a->dev, "spi_trace", "off"), 0);
	assert_int_equal(ethdrv_netdev_set(a->dev, "spi_trace", "/nonexistent/dir/x"), -ENOENT);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		assert_int_equal(sscanf(line, "%llu %8191s %8191s", &ns, mosi, miso), 3);
		assert_int_equal(strlen(mosi), strlen(miso));
		assert_int_equal(strlen(mosi) % 2, 0);
		assert_int_equal(strspn(mosi, "0123456789abcdef"), strlen(mosi));
		assert_true(ns >= prev);
		prev = ns;
		lines++;
	}
	fclose(fp);
	unlink(path);
	assert_true(lines > 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sizes_all, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_sizes_all, setup_32_prot, pair_teardown),
		cmocka_unit_test_setup_teardown(test_sizes_stride, setup_64_prot, pair_teardown),
		cmocka_unit_test_setup_teardown(test_sizes_stride, setup_32, pair_teardown),
		cmocka_unit_test_setup_teardown(test_credits_bql, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_rx_overflow, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_fatal_txpe, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_fatal_lofe, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_header_parity, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_fatal_reset, setup_64_prot, pair_teardown),
		cmocka_unit_test_setup_teardown(test_fatal_internal, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_config_upset, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_bit_errors, setup_64_prot, pair_teardown),
		cmocka_unit_test_setup_teardown(test_threaded_budget, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_threaded_reconfigure, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_policies, setup_64, pair_teardown),
		cmocka_unit_test_setup_teardown(test_plca_and_link, setup_32, pair_teardown),
		cmocka_unit_test_setup_teardown(test_spi_trace, setup_64, pair_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
