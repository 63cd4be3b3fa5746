// SPDX-License-Identifier: MIT
/*
 * The lan865x driver meeting a board (issue 10, section 3): the LAN8650 model behind
 * a "board" bus that can offer a RESET_N line, hold MISO stuck, report other
 * identification registers than the model's and refuse software resets.
 * Probe: identification, a clear error when nothing answers, model and
 * silicon revision from DEVID and the AN1760 values per revision, the
 * capabilities (TXFCSVC, MINBPS); RESET_N at probe and as the recovery
 * step when a software reset fails; polled mode without an IRQ line; PLCA
 * knobs read back as the values in effect.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/lan865x.h"
#include "emu/lan865x_emu.h"
#include "emu/medium.h"
#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "ethdrv/loop.h"
#include "ethdrv/netdev.h"
#include "ethdrv/pkt.h"
#include "ethdrv/stats.h"

#define POOL_SIZE 256
#define RESET_MIN_NS 5000 /* RESET_N low for at least 5 us (docs/tc6.md §5.5) */
#define REG_OVERRIDES 3 /* IDVER, PHYID, STDCAP */

/* A board: the model, the bus the driver gets, and what the board does to it. */
struct board {
	struct lan865x_emu *emu; /* the MAC-PHY */
	struct ethdrv_spi_bus model_bus; /* the model's own bus */
	struct ethdrv_spi_bus bus; /* the board's bus, handed to the driver */
	struct ethdrv_loop *loop; /* the driver's loop */
	struct ethdrv_pkt_pool *pool; /* its packets */
	struct ethdrv_netdev *dev; /* the driver, once created */
	struct ethdrv_pkt_queue rxq; /* frames received */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address */
	/* What the board does. */
	bool reset_line; /* RESET_N is wired (bus set_reset) */
	int miso_stuck; /* -1, or the byte every MISO bit reads as */
	bool has_override[REG_OVERRIDES]; /* MMS 0 register i reads override[i] */
	uint32_t override[REG_OVERRIDES];
	bool swreset_ignored; /* writes of RESET.SWRESET do not reach the chip */
	/* What the board saw. */
	bool in_reset; /* RESET_N is low now */
	unsigned pulses; /* RESET_N pulses */
	uint64_t pulse_ns; /* width of the last one */
	uint64_t asserted_at; /* when RESET_N went low */
	unsigned xfers_in_reset; /* transfers while RESET_N was low: must be none */
};

static char last_err[512]; /* the last error line logged */

static void capture_sink(void *arg, int level, const char *module, const char *line)
{
	if (level <= ETHDRV_LOG_ERR)
		snprintf(last_err, sizeof(last_err), "%s", line);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* A one-register, unprotected control read of MMS 0 @addr (docs/tc6.md §1.2, §1.4)? */
static bool is_mms0_read(uint32_t hdr, size_t len, unsigned *addr)
{
	*addr = (hdr >> 8) & 0xFFFF;
	return len == 12 && !(hdr >> 31) && !((hdr >> 29) & 1) && ((hdr >> 24) & 0xF) == 0 &&
	       ((hdr >> 1) & 0x7F) == 0;
}

/* A control write of MMS 0 RESET (0x03)? */
static bool is_reset_write(uint32_t hdr)
{
	return !(hdr >> 31) && ((hdr >> 29) & 1) && ((hdr >> 24) & 0xF) == 0 &&
	       ((hdr >> 8) & 0xFFFF) == 0x03;
}

static int board_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	static uint8_t mosi[8192];
	struct board *b = ctx;
	uint32_t hdr = len >= 4 ? get_be32(tx) : 0;
	unsigned addr;
	int ret;

	if (b->in_reset)
		b->xfers_in_reset++;
	if (b->miso_stuck >= 0) {
		memset(rx, b->miso_stuck, len);
		return 0;
	}
	if (b->swreset_ignored && len >= 8 && len <= sizeof(mosi) && is_reset_write(hdr)) {
		memcpy(mosi, tx, len);
		memset(mosi + 4, 0, 4); /* SWRESET never arrives */
		tx = mosi;
	}
	ret = ethdrv_spi_transfer(&b->model_bus, tx, rx, len);
	if (is_mms0_read(hdr, len, &addr) && addr < REG_OVERRIDES && b->has_override[addr])
		put_be32(rx + 8, b->override[addr]);
	return ret;
}

/* RESET_N: the model resets when the line is released after a pulse. */
static int board_set_reset(void *ctx, bool asserted)
{
	struct board *b = ctx;

	if (!b->reset_line)
		return -EOPNOTSUPP;
	if (asserted) {
		b->asserted_at = ethdrv_now_ns();
	} else if (b->in_reset) {
		b->pulse_ns = ethdrv_now_ns() - b->asserted_at;
		b->pulses++;
		lan865x_emu_hw_reset(b->emu);
	}
	b->in_reset = asserted;
	return 0;
}

static const struct ethdrv_spi_ops board_ops = {
	.transfer = board_transfer,
	.set_reset = board_set_reset,
};

static void board_rx(void *arg, struct ethdrv_pkt *pkt)
{
	struct board *b = arg;

	ethdrv_pkt_queue_push(&b->rxq, pkt);
}

/* A board with model @model rev @rev; the driver is created by board_probe(). */
static struct board *board_new(uint16_t model, uint8_t rev, unsigned index)
{
	struct board *b = calloc(1, sizeof(*b));
	struct lan865x_emu_config ec;

	assert_non_null(b);
	lan865x_emu_config_default(&ec);
	ec.realtime = false;
	ec.model = model;
	ec.rev = rev;
	ec.rx_buf_chunks = 1024;
	ec.seed = index + 1;
	assert_int_equal(lan865x_emu_new(&ec, &b->emu), 0);
	lan865x_emu_get_bus(b->emu, &b->model_bus);
	b->bus = b->model_bus;
	b->bus.ops = &board_ops;
	b->bus.ctx = b;
	b->miso_stuck = -1;
	b->reset_line = true;
	b->mac[0] = 0x02;
	b->mac[5] = (uint8_t)(index + 1);
	ethdrv_pkt_queue_init(&b->rxq);
	assert_int_equal(ethdrv_loop_new(&b->loop), 0);
	assert_int_equal(ethdrv_pkt_pool_new(POOL_SIZE, &b->pool), 0);
	return b;
}

/* Create the driver on the board; the create's result. */
static int board_probe(struct board *b, unsigned cps, unsigned poll_us)
{
	struct lan865x_config cfg = { .name = "t1s0", .cps = cps, .poll_us = poll_us };
	int ret;

	memcpy(cfg.mac, b->mac, ETHDRV_ETH_ALEN);
	last_err[0] = '\0';
	ret = lan865x_create(&cfg, &b->bus, b->loop, b->pool, &b->dev);
	if (!ret)
		ethdrv_netdev_set_rx_handler(b->dev, board_rx, b);
	return ret;
}

static void board_free(struct board *b)
{
	ethdrv_netdev_destroy(b->dev);
	ethdrv_pkt_queue_purge(&b->rxq);
	lan865x_emu_free(b->emu);
	assert_int_equal(ethdrv_pkt_pool_avail(b->pool), POOL_SIZE);
	ethdrv_pkt_pool_free(b->pool);
	ethdrv_loop_free(b->loop);
	free(b);
}

static uint32_t peek(struct board *b, unsigned mms, uint16_t addr)
{
	uint32_t v = 0;

	assert_int_equal(lan865x_emu_peek_reg(b->emu, mms, addr, &v), 0);
	return v;
}

static uint64_t stat(struct board *b, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(ethdrv_stats_get(ethdrv_netdev_stats(b->dev), name, &v), 0);
	return v;
}

/* B1: identified from DEVID, RESET_N pulsed long enough, the Rev F values written. */
static void test_probe_b1(void **state)
{
	struct board *b = board_new(0x8650, 2, 0);
	struct lan865x_info info;

	assert_int_equal(board_probe(b, 0, 0), 0);
	assert_int_equal(b->pulses, 1);
	assert_true(b->pulse_ns >= RESET_MIN_NS);
	assert_false(b->in_reset);
	lan865x_get_info(b->dev, &info);
	assert_int_equal(info.model, 0x8650);
	assert_string_equal(info.rev, "B1");
	assert_int_equal(info.devid, 0x86502);
	assert_int_equal(info.idver, peek(b, 0, 0x00));
	assert_int_equal(info.phyid, peek(b, 0, 0x01));
	assert_int_equal(info.phyid, 0x0007C1B4); /* B1's OA PHYID (docs/tc6.md §5.1.1) */
	assert_int_equal(info.stdcap, peek(b, 0, 0x02));
	assert_int_equal(stat(b, "hw_resets"), 1);
	assert_int_equal(ethdrv_netdev_open(b->dev), 0);
	assert_int_equal(peek(b, 4, 0xD0), 0x3F31);
	assert_int_equal(peek(b, 4, 0xE0), 0xC000);
	assert_int_equal(peek(b, 4, 0xF8), 0xB900);
	assert_int_equal(peek(b, 4, 0xF9), 0x4E53); /* the rest of step 4 */
	assert_true(peek(b, 0, 0x04) & 0x8000); /* SYNC */
	assert_int_equal(b->xfers_in_reset, 0);
	board_free(b);
}

/* B0 (a LAN8651 here): the B0 values; 0xE0 is not written and keeps its reset value. */
static void test_probe_b0(void **state)
{
	struct board *b = board_new(0x8651, 1, 0);
	struct lan865x_info info;

	b->reset_line = false; /* and no RESET_N: nothing pulsed */
	assert_int_equal(board_probe(b, 0, 0), 0);
	assert_int_equal(b->pulses, 0);
	assert_int_equal(stat(b, "hw_resets"), 0);
	lan865x_get_info(b->dev, &info);
	assert_int_equal(info.model, 0x8651);
	assert_string_equal(info.rev, "B0");
	assert_int_equal(info.phyid, 0x0007C1B3); /* B0's OA PHYID (docs/tc6.md §5.1.1) */
	assert_int_equal(ethdrv_netdev_open(b->dev), 0);
	assert_int_equal(peek(b, 4, 0xD0), 0x5F21);
	assert_int_equal(peek(b, 4, 0xE0), 0x0000);
	assert_int_equal(peek(b, 4, 0xF8), 0x9B00);
	board_free(b);
}

/* A revision or model whose AN1760 values are unknown is refused, not guessed. */
static void test_probe_unknown_silicon(void **state)
{
	static const struct {
		uint16_t model;
		uint8_t rev;
		const char *says;
	} cases[] = {
		{ 0x8650, 3, "silicon revision 3 (DEVID 0x00086503) is unknown" },
		{ 0x8651, 0, "silicon revision 0 (DEVID 0x00086510) is unknown" },
		{ 0x8652, 2, "model 0x8652 is not a LAN8650 or LAN8651" },
	};

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(cases); i++) {
		struct board *b = board_new(cases[i].model, cases[i].rev, 0);

		assert_int_equal(board_probe(b, 0, 0), -ENODEV);
		assert_null(b->dev);
		if (!strstr(last_err, cases[i].says))
			fail_msg("logged \"%s\", not \"%s\"", last_err, cases[i].says);
		board_free(b);
	}
}

/* Nothing answers: MISO stuck low or high is named, -ENODEV. */
static void test_probe_miso_stuck(void **state)
{
	static const struct {
		int byte;
		const char *says;
	} cases[] = {
		{ 0x00, "no TC6 device answers on emu:lan8650: MISO reads all 0x00" },
		{ 0xFF, "no TC6 device answers on emu:lan8650: MISO reads all 0xFF" },
	};

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(cases); i++) {
		struct board *b = board_new(0x8650, 2, 0);

		b->miso_stuck = cases[i].byte;
		assert_int_equal(board_probe(b, 0, 0), -ENODEV);
		if (!strstr(last_err, cases[i].says))
			fail_msg("logged \"%s\", not \"%s\"", last_err, cases[i].says);
		board_free(b);
	}
}

/* Another TC6 device (an NCN26010's PHYID), or no TC6 v1.x at all (IDVER). */
static void test_probe_other_device(void **state)
{
	struct board *b = board_new(0x8650, 2, 0);

	b->has_override[1] = true;
	b->override[1] = 0xBC0189A1;
	assert_int_equal(board_probe(b, 0, 0), -ENODEV);
	assert_non_null(strstr(last_err, "not a LAN8650/1: PHYID 0xbc0189a1"));
	b->has_override[1] = false;
	b->has_override[0] = true;
	b->override[0] = 0x21;
	assert_int_equal(board_probe(b, 0, 0), -ENODEV);
	assert_non_null(strstr(last_err, "IDVER 0x00000021 is not an OPEN Alliance TC6 v1.x"));
	board_free(b);
}

/* STDCAP.MINBPS: a chunk payload below the device's minimum is refused. */
static void test_probe_minbps(void **state)
{
	struct board *b = board_new(0x8650, 2, 0);

	b->has_override[2] = true;
	b->override[2] = 0x0506; /* TXFCSVC, DPRAC, MINBPS 6: 64 bytes only */
	assert_int_equal(board_probe(b, 32, 0), -EOPNOTSUPP);
	assert_non_null(strstr(last_err, "chunk payload of 32 bytes is below the device's "
					 "minimum of 64"));
	b->override[2] = 0x0502; /* MINBPS 2: no chunk size */
	assert_int_equal(board_probe(b, 64, 0), -ENODEV);
	assert_non_null(strstr(last_err, "MINBPS 2 is no chunk size"));
	b->override[2] = 0x0506;
	assert_int_equal(board_probe(b, 64, 0), 0);
	assert_int_equal(ethdrv_netdev_open(b->dev), 0);
	assert_int_equal(peek(b, 0, 0x04) & 0x7, 6); /* CPS 64 */
	board_free(b);
}

/* Two boards on one wire, both probed and opened. */
struct pair {
	struct emu_p2p_medium *medium;
	struct board *b[2];
};

static void pair_new(struct pair *p, bool irq_line)
{
	struct emu_p2p_config mc = { .realtime = false };

	assert_int_equal(emu_p2p_medium_new(&mc, &p->medium), 0);
	for (unsigned i = 0; i < 2; i++) {
		struct board *b = board_new(0x8650, 2, i);

		if (!irq_line)
			b->bus.irq_fd = -1;
		assert_int_equal(lan865x_emu_attach(b->emu, emu_p2p_medium_base(p->medium), i), 0);
		p->b[i] = b;
	}
}

static void pair_open(struct pair *p, unsigned poll_us)
{
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(board_probe(p->b[i], 0, poll_us), 0);
		assert_int_equal(ethdrv_netdev_open(p->b[i]->dev), 0);
	}
}

static void pair_free(struct pair *p)
{
	for (unsigned i = 0; i < 2; i++)
		lan865x_emu_detach(p->b[i]->emu);
	emu_medium_free(emu_p2p_medium_base(p->medium));
	for (unsigned i = 0; i < 2; i++)
		board_free(p->b[i]);
}

/* Run both loops until @until has a frame, 10 s at most. */
static struct ethdrv_pkt *pair_wait_rx(struct pair *p, struct board *until)
{
	uint64_t t0 = ethdrv_now_ns();

	while (!until->rxq.count) {
		int n = ethdrv_loop_run_once(p->b[0]->loop, ETHDRV_RUN_NOWAIT) +
			ethdrv_loop_run_once(p->b[1]->loop, ETHDRV_RUN_NOWAIT);

		if (!n)
			usleep(50);
		assert_true(ethdrv_now_ns() - t0 < 10000000000ull);
	}
	return ethdrv_pkt_queue_pop(&until->rxq);
}

/* Frames of every size class from @src to @dst arrive as sent, FCS stripped. */
static void send_and_check(struct pair *p, struct board *src, struct board *dst)
{
	static const unsigned lens[] = { 60, 61, 64, 127, 128, 1000, 1514 };

	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(lens); i++) {
		struct ethdrv_pkt *pkt = ethdrv_pkt_alloc(src->pool);
		uint8_t want[1514];

		assert_non_null(pkt);
		memcpy(want, dst->mac, ETHDRV_ETH_ALEN);
		memcpy(want + ETHDRV_ETH_ALEN, src->mac, ETHDRV_ETH_ALEN);
		want[12] = 0x88;
		want[13] = 0xB5;
		for (unsigned k = 14; k < lens[i]; k++)
			want[k] = (uint8_t)(k * 13 + i);
		memcpy(pkt->data, want, lens[i]);
		pkt->len = lens[i];
		assert_int_equal(ethdrv_netdev_xmit(src->dev, pkt), 0);
		pkt = pair_wait_rx(p, dst);
		assert_int_equal(pkt->len, lens[i]);
		assert_memory_equal(pkt->data, want, lens[i]);
		ethdrv_pkt_free(pkt);
	}
}

/*
 * A device without TX FCS validation: no TXFCSVE, and the driver leaves the
 * FCS to the MAC (two FCSs would arrive as four extra bytes).
 */
static void test_no_txfcsvc(void **state)
{
	struct pair p;

	pair_new(&p, true);
	p.b[0]->has_override[2] = true;
	p.b[0]->override[2] = 0x0125; /* the model's STDCAP without TXFCSVC */
	pair_open(&p, 0);
	assert_false(peek(p.b[0], 0, 0x04) & 0x4000); /* TXFCSVE off */
	assert_true(peek(p.b[1], 0, 0x04) & 0x4000); /* the other board validates */
	send_and_check(&p, p.b[0], p.b[1]);
	send_and_check(&p, p.b[1], p.b[0]);
	assert_int_equal(stat(p.b[0], "tx_packets"), 7);
	assert_int_equal(stat(p.b[0], "tx_bytes"), 60 + 61 + 64 + 127 + 128 + 1000 + 1514);
	pair_free(&p);
}

/* No IRQ line: the driver polls, every 200 us here, and traffic flows both ways. */
static void test_polled_mode(void **state)
{
	struct pair p;

	pair_new(&p, false);
	pair_open(&p, 200);
	send_and_check(&p, p.b[0], p.b[1]);
	send_and_check(&p, p.b[1], p.b[0]);
	pair_free(&p);

	/* A poll period outside 50..1000000 us is refused. */
	pair_new(&p, false);
	assert_int_equal(board_probe(p.b[0], 0, 49), -EINVAL);
	assert_int_equal(board_probe(p.b[0], 0, 1000001), -EINVAL);
	pair_free(&p);
}

/* Run @b's loop until @name reaches @want or @ms pass; the last value. */
static uint64_t run_until(struct board *b, const char *name, uint64_t want, unsigned ms)
{
	uint64_t t0 = ethdrv_now_ns(), v;

	while ((v = stat(b, name)) < want && ethdrv_now_ns() - t0 < ms * 1000000ull)
		if (!ethdrv_loop_run_once(b->loop, ETHDRV_RUN_NOWAIT))
			usleep(200);
	return v;
}

/*
 * A software reset that never completes: with RESET_N the recovery resets
 * through it and the device comes back; without, the recovery fails.
 */
static void test_recovery_through_reset_n(void **state)
{
	struct board *b = board_new(0x8650, 2, 0);

	assert_int_equal(board_probe(b, 0, 0), 0);
	assert_int_equal(ethdrv_netdev_open(b->dev), 0);
	b->swreset_ignored = true;
	assert_int_equal(lan865x_emu_inject(b->emu, LAN865X_EMU_FAULT_TX_PROTOCOL), 0);
	assert_int_equal(run_until(b, "recoveries", 1, 10000), 1);
	assert_int_equal(stat(b, "recoveries_txpe"), 1);
	assert_int_equal(stat(b, "recovery_failures"), 0);
	assert_int_equal(stat(b, "hw_resets"), 2); /* the probe's and the recovery's */
	assert_int_equal(b->pulses, 2);
	assert_true(b->pulse_ns >= RESET_MIN_NS);
	assert_true(peek(b, 0, 0x04) & 0x8000); /* configured again: SYNC */
	assert_int_equal(peek(b, 4, 0xD0), 0x3F31);
	assert_int_equal(b->xfers_in_reset, 0);
	board_free(b);

	b = board_new(0x8650, 2, 0);
	b->reset_line = false;
	assert_int_equal(board_probe(b, 0, 0), 0);
	assert_int_equal(ethdrv_netdev_open(b->dev), 0);
	b->swreset_ignored = true;
	assert_int_equal(lan865x_emu_inject(b->emu, LAN865X_EMU_FAULT_TX_PROTOCOL), 0);
	assert_true(run_until(b, "recovery_failures", 1, 10000) >= 1);
	assert_int_equal(stat(b, "recoveries"), 0);
	assert_int_equal(stat(b, "hw_resets"), 0);
	board_free(b);
}

static void assert_param(struct board *b, const char *key, const char *want)
{
	char buf[32];

	assert_int_equal(ethdrv_netdev_get(b->dev, key, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

/* PLCA knobs where 0 means the default read back as the value in effect. */
static void test_plca_effective_values(void **state)
{
	struct board *b = board_new(0x8650, 2, 0);

	assert_int_equal(board_probe(b, 0, 0), 0);
	assert_param(b, "node-cnt", "8");
	assert_param(b, "to-tmr", "32");
	assert_param(b, "burst-tmr", "128");
	assert_param(b, "burst-cnt", "0");
	assert_int_equal(ethdrv_netdev_open(b->dev), 0);
	assert_int_equal(peek(b, 4, 0xCA04), 32);
	assert_int_equal(ethdrv_netdev_set(b->dev, "to-tmr", "40"), 0);
	assert_param(b, "to-tmr", "40");
	assert_int_equal(peek(b, 4, 0xCA04), 40);
	assert_int_equal(ethdrv_netdev_set(b->dev, "to-tmr", "0"), 0);
	assert_param(b, "to-tmr", "32");
	assert_int_equal(peek(b, 4, 0xCA04), 32);
	assert_int_equal(ethdrv_netdev_set(b->dev, "node-cnt", "0"), 0);
	assert_param(b, "node-cnt", "8");
	assert_int_equal(ethdrv_netdev_set(b->dev, "burst-tmr", "0"), 0);
	assert_param(b, "burst-tmr", "128");
	assert_int_equal(peek(b, 4, 0xCA05) & 0xFF, 128);
	board_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_b1),
		cmocka_unit_test(test_probe_b0),
		cmocka_unit_test(test_probe_unknown_silicon),
		cmocka_unit_test(test_probe_miso_stuck),
		cmocka_unit_test(test_probe_other_device),
		cmocka_unit_test(test_probe_minbps),
		cmocka_unit_test(test_no_txfcsvc),
		cmocka_unit_test(test_polled_mode),
		cmocka_unit_test(test_recovery_through_reset_n),
		cmocka_unit_test(test_plca_effective_values),
	};

	ethdrv_log_set_sink(capture_sink, NULL); /* every test reads last_err */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
