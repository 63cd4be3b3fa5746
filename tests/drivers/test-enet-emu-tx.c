// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the ENET model's transmitter and counters, from
 * docs/enet.md alone (constants in tests/helpers/enet_kat.h), on a virtual
 * clock: TDAR reads 1 while the DMA fetches and clears before the last R
 * (U-Boot's observation, docs/enet.md §3.4), a driver polling TDAR then R
 * finishes within bounds at 1000, 100 and 10 Mb/s, the 4 KiB TX FIFO
 * (docs/enet.md §12) holds two full frames and still keeps the line busy,
 * one frame at a time on the wire with the generator, no GRA without link
 * (docs/enet.md §4.3), the CRC counters (docs/enet.md §7), and the SoC
 * rules (docs/enet.md §15): MIB_CLEAR, reserved words, RESET on AXI parts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "enet_kat.h"

#define POLL_READ_NS 100u /* one register read on the bus (mmio_latency_ns) */
#define POLL_MAX_READS 5000u

static int setup_imx6q(void **state)
{
	return setup_full(state, 1000, false, true, ETHDRV_ENET_SOC_IMX6Q, false);
}

/* ---- TDAR and R (docs/enet.md §3.4) ---- */

static void test_tdar_fetch_latency(void **state)
{
	struct kat *k = *state;
	uint64_t t0, tdar_clear, end;
	unsigned a;

	macs_up(k, 4, RCR_CRCFWD);
	advance(k, 1000);
	t0 = now(k);
	/* The frame is fetched (a BD read, then the data), the walk reads the next
	 * BD (R=0) and stops: TDAR clears then, long before the frame has left. */
	tdar_clear = t0 + fetch_ns(1514) + FETCH_BD_NS;
	end = t0 + first_end_ns(1514, 8);
	a = tx(k, 0, 1514);
	assert_int_equal(rd(k, 0, TDAR), DAR);
	advance_to(k, tdar_clear - 1);
	assert_int_equal(rd(k, 0, TDAR), DAR);
	advance_to(k, tdar_clear);
	assert_int_equal(rd(k, 0, TDAR), 0);
	assert_true(bd_status(k, 0, TX_RING, a) & TX_R);
	advance_to(k, end - 1);
	assert_true(bd_status(k, 0, TX_RING, a) & TX_R);
	advance_to(k, end);
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
}

/* U-Boot's fecmxc_send: TDAR, poll TDAR to 0, then poll R; each read one bus access. */
static void check_poll_tdar_then_r(struct kat *k, uint64_t byte_ns)
{
	unsigned reads = 0, a;

	macs_up_at(k, 4, RCR_CRCFWD, byte_ns);
	advance(k, 1000);
	a = tx(k, 0, 60);
	while ((rd(k, 0, TDAR) & DAR) && reads < POLL_MAX_READS) {
		reads++;
		advance(k, POLL_READ_NS);
	}
	assert_int_equal(rd(k, 0, TDAR), 0);
	/* TDAR after fetch + the R=0 BD: 100 + 64 + 100 ns. */
	assert_int_equal(reads, (fetch_ns(60) + FETCH_BD_NS + POLL_READ_NS - 1) / POLL_READ_NS);
	while ((bd_status(k, 0, TX_RING, a) & TX_R) && reads < POLL_MAX_READS) {
		reads++;
		advance(k, POLL_READ_NS);
	}
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
	assert_true(reads < POLL_MAX_READS);
	assert_true((uint64_t)reads * POLL_READ_NS >= first_end_ns(60, byte_ns));
}

static void test_poll_tdar_1g(void **state)
{
	check_poll_tdar_then_r(*state, 8);
}

static void test_poll_tdar_100m(void **state)
{
	check_poll_tdar_then_r(*state, 80);
}

static void test_poll_tdar_10m(void **state)
{
	check_poll_tdar_then_r(*state, 800);
}

/* ---- the TX FIFO (docs/enet.md §12: 4096 bytes) ---- */

static void test_fifo_bytes(void **state)
{
	struct kat *k = *state;
	uint64_t t0, wire = wire_ns(1514, 8), gap = 96, end[8], tdar_clear;
	struct enet_emu_stats st;
	unsigned bd[8];

	macs_up(k, 8, RCR_CRCFWD);
	advance(k, 1000);
	t0 = now(k);
	for (unsigned i = 0; i < 8; i++) {
		end[i] = t0 + fetch_ns(1514) + (i + 1) * wire + i * gap;
		bd[i] = tx(k, 0, 1514);
	}
	/* Two 1514-byte frames fit in 4096 bytes, a third does not: the walk waits. */
	enet_emu_get_stats(k->emu[0], &st);
	assert_true(ethdrv_counter_get(&st.tx_fetch_waits) > 0);
	/* Frame i + 2 is fetched when frame i leaves the FIFO; the last, frame 7, when
	 * frame 5 ends; then the walk reads BD 8 (R=0) and TDAR clears. */
	tdar_clear = end[5] + fetch_ns(1514) + FETCH_BD_NS;
	/* The line stays busy: every frame ends back to back as without a FIFO limit. */
	for (unsigned i = 0; i < 8; i++) {
		if (i == 6) {
			advance_to(k, tdar_clear - 1);
			assert_int_equal(rd(k, 0, TDAR), DAR);
			advance_to(k, tdar_clear);
			assert_int_equal(rd(k, 0, TDAR), 0);
		}
		advance_to(k, end[i] - 1);
		assert_true(bd_status(k, 0, TX_RING, bd[i]) & TX_R);
		advance_to(k, end[i]);
		assert_false(bd_status(k, 0, TX_RING, bd[i]) & TX_R);
	}
}

/* ---- one frame at a time on the wire ---- */

static void test_stop_keeps_generator_frame(void **state)
{
	struct kat *k = *state;
	struct fdx_gen_config g = { .to_port = 1, .payload = 1472, .count = 1 };
	uint64_t end_a, gen_end;
	unsigned c;

	memcpy(g.dst_mac, mac_of[1], 6);
	memcpy(g.src_mac, mac_of[0], 6);
	macs_up(k, 8, RCR_CRCFWD);
	advance(k, 1000);
	/* MAC 0 sends A; the generator books the wire after it (docs/enet.md §14). */
	end_a = now(k) + first_end_ns(100, 8);
	tx(k, 0, 100);
	assert_int_equal(fdx_line_gen_start(k->line, &g), 0);
	gen_end = end_a + 96 + wire_ns(1514, 8);
	/* While the generated frame is on the wire, MAC 0 stops (GTS) and resumes. */
	advance_to(k, end_a + 1000);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	wr(k, 0, TCR, TCR_FDEN);
	/* Its next frame goes after the generated one and its gap, never across it. */
	c = tx(k, 0, 60);
	advance_to(k, gen_end + 96 + wire_ns(60, 8) - 1);
	assert_true(bd_status(k, 0, TX_RING, c) & TX_R);
	advance_to(k, gen_end + 96 + wire_ns(60, 8));
	assert_false(bd_status(k, 0, TX_RING, c) & TX_R);
}

/* ---- graceful stop without link (docs/enet.md §4.3, §10 item 7) ---- */

static void test_gra_no_link(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;
	uint64_t end;

	macs_up(k, 8, RCR_CRCFWD);
	advance(k, 1000);
	/* Idle transmitter, link down: the stop completes but raises no GRA. */
	fdx_line_set_link(k->line, false);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	advance(k, 100000);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
	wr(k, 0, TCR, TCR_FDEN);
	/* A frame on the wire when the link drops: it ends, still no GRA. */
	fdx_line_set_link(k->line, true);
	end = now(k) + first_end_ns(1514, 8);
	tx(k, 0, 1514);
	advance(k, fetch_ns(1514) + 100);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	fdx_line_set_link(k->line, false);
	advance_to(k, end + 100000);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.gra_no_link), 2);
	/* With link it is raised (the control case). */
	wr(k, 0, TCR, TCR_FDEN);
	fdx_line_set_link(k->line, true);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, EV_GRA);
}

/* ---- CRC counters (docs/enet.md §3.2, §7) ---- */

static void test_bad_crc_counters(void **state)
{
	struct kat *k = *state;

	macs_up(k, 8, RCR_CRCFWD);
	advance(k, 1000);
	/* ABC in a legacy BD: sent with a bad CRC; a CRC error on both sides. */
	tx_to(k, 0, 100, mac_of[1], TX_ABC);
	advance(k, 100000);
	assert_int_equal(rd(k, 0, T_PACKETS), 1);
	assert_int_equal(rd(k, 0, T_CRC_ALIGN), 1);
	assert_int_equal(rd(k, 0, T_FRAME_OK), 0);
	assert_int_equal(rd(k, 0, T_OCTETS_OK), 0);
	assert_int_equal(rd(k, 1, R_CRC_ALIGN), 1);
	assert_int_equal(rd(k, 1, R_CRC), 1);
	assert_int_equal(rd(k, 1, R_FRAME_OK), 0);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L | RX_CR);
	/* IEEE_R_CRC counts the MAC's finding even when no BD takes the frame. */
	for (unsigned i = 1; i < 8; i++)
		bd_put(k, 1, RX_RING, i, i == 7 ? RX_W : 0, 0, bus_addr(k, 1, RX_BUF(i)));
	tx_to(k, 0, 100, mac_of[1], TX_ABC);
	advance(k, 100000);
	assert_int_equal(rd(k, 1, R_DROP), 1);
	assert_int_equal(rd(k, 1, R_CRC), 2);
	assert_int_equal(rd(k, 0, T_CRC_ALIGN), 2);
}

static void test_abc_legacy_only(void **state)
{
	struct kat *k = *state;

	k->bd_size = 32;
	macs_up(k, 8, RCR_CRCFWD);
	wr(k, 0, ECR, ECR_ETHEREN | ECR_DBSWP | ECR_SPEED | ECR_EN1588);
	wr(k, 1, ECR, ECR_ETHEREN | ECR_DBSWP | ECR_SPEED | ECR_EN1588);
	wr(k, 1, RDAR, DAR);
	advance(k, 1000);
	/* Bit 9 is ABC only in the legacy TX BD: an enhanced frame goes out good. */
	tx_to(k, 0, 100, mac_of[1], TX_ABC);
	advance(k, 100000);
	assert_int_equal(rd(k, 0, T_CRC_ALIGN), 0);
	assert_int_equal(rd(k, 0, T_FRAME_OK), 1);
	assert_int_equal(rd(k, 1, R_FRAME_OK), 1);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
}

/* ME is a MAC error: set for CR, not for a frame that is only too long (LG). */
static void test_me_not_for_lg(void **state)
{
	struct kat *k = *state;

	k->bd_size = 32;
	macs_up(k, 8, RCR_CRCFWD);
	wr(k, 1, RCR, RCR_MAX_FL(1000) | RCR_MII_MODE | RCR_CRCFWD | RCR_PROM);
	for (unsigned n = 0; n < 2; n++)
		wr(k, n, ECR, ECR_ETHEREN | ECR_DBSWP | ECR_SPEED | ECR_EN1588);
	wr(k, 1, RDAR, DAR);
	advance(k, 1000);
	tx(k, 0, 1200);
	advance(k, 100000);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_LG);
	assert_int_equal(bd_word(k, 1, RX_RING, 0, 8) & (1u << 31), 0);
	/* A CRC error does set it. */
	assert_int_equal(fdx_line_set_ber(k->line, 0, 0.01), 0);
	tx(k, 0, 500);
	advance(k, 100000);
	assert_true(bd_status(k, 1, RX_RING, 1) & RX_CR);
	assert_true(bd_word(k, 1, RX_RING, 1, 8) & (1u << 31));
}

/* ---- SoC rules (docs/enet.md §15) ---- */

static void test_reserved_words(void **state)
{
	struct kat *k = *state;
	static const uint32_t resvd[] = { 0x14C, 0x150, 0x278, 0x27C, 0x280, 0x2A4, 0x2E4,
					  0x2E8, 0x2EC, 0x2F0, 0x2F4, 0x2F8, 0x2FC };
	struct enet_emu_stats st;

	/* i.MX6Q init code (U-Boot) writes FRSR and zeroes 0x200-0x2FC. */
	for (size_t i = 0; i < sizeof(resvd) / sizeof(resvd[0]); i++) {
		wr(k, 0, resvd[i], 0x520);
		assert_int_equal(rd(k, 0, resvd[i]), 0);
	}
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.bad_accesses), 0);
	/* A word that is no register still counts. */
	rd(k, 0, 0x3F0);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.bad_accesses), 1);
}

static void test_mib_clear_imx6(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;

	macs_up(k, 8, RCR_CRCFWD);
	tx(k, 0, 100);
	advance(k, 100000);
	assert_int_equal(rd(k, 0, T_PACKETS), 1);
	/* i.MX6: MIB_CLEAR zeroes the block (FreeBSD "imx6 only"). */
	wr(k, 0, MIBC, MIB_DIS | MIB_CLEAR);
	assert_int_equal(rd(k, 0, T_PACKETS), 0);
	assert_int_equal(rd(k, 0, T_OCTETS), 0);
	/* RESET on a single-queue part is what Linux does: not an AXI reset. */
	wr(k, 0, ECR, ECR_RESET);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.resets_axi), 0);
}

static void test_reset_axi_counted(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;

	/* i.MX8M: RESET is performed (accept both, docs/enet.md §4.1) but counted. */
	macs_up(k, 8, RCR_CRCFWD);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.resets_axi), 1);
	assert_int_equal(rd(k, 0, ECR), 0x70000000 | ECR_ETHEREN | ECR_DBSWP | ECR_SPEED);
}

static void test_soc_config(void **state)
{
	struct fdx_line_config lc;
	struct enet_emu_config ec;
	struct fdx_line *line;
	struct enet_emu *emu;
	enum ethdrv_enet_soc soc;

	(void)state;
	assert_int_equal(ethdrv_enet_soc_parse("imx6ul", &soc), 0);
	assert_int_equal(soc, ETHDRV_ENET_SOC_IMX6UL);
	assert_int_equal(ethdrv_enet_soc_parse("imx7", &soc), -1);
	assert_string_equal(ethdrv_enet_soc_name(ETHDRV_ENET_SOC_IMX8M), "imx8m");
	fdx_line_config_default(&lc);
	lc.realtime = false;
	assert_int_equal(fdx_line_new(&lc, &line), 0);
	enet_emu_config_default(&ec);
	assert_int_equal(ec.soc, ETHDRV_ENET_SOC_IMX8M);
	assert_int_equal(ec.tx_fifo_bytes, 4096);
	ec.soc = ETHDRV_ENET_SOC_COUNT;
	assert_int_equal(enet_emu_new(&ec, line, 0, &emu), -EINVAL);
	enet_emu_config_default(&ec);
	ec.tx_fifo_bytes = 2047; /* below one full-size frame */
	assert_int_equal(enet_emu_new(&ec, line, 0, &emu), -EINVAL);
	fdx_line_free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tdar_fetch_latency, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_tdar_1g, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_tdar_100m, setup_100, teardown),
		cmocka_unit_test_setup_teardown(test_poll_tdar_10m, setup_10, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_keeps_generator_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gra_no_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_crc_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abc_legacy_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_me_not_for_lg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reserved_words, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mib_clear_imx6, setup_imx6q, teardown),
		cmocka_unit_test_setup_teardown(test_reset_axi_counted, setup, teardown),
		cmocka_unit_test(test_soc_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
