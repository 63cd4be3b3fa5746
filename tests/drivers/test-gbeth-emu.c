// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the GbEth model on a virtual clock, from
 * docs/gbeth.md: operating-mode requests and the time they take (docs/gbeth.md §2,
 * docs/gbeth.md §12 item 2), the write-0 and write-1 acknowledge rules and the level line
 * (docs/gbeth.md §4.1), TX types and write-back from TSRQ0 (docs/gbeth.md §3.3), LINKFIX rings and their
 * wrap (docs/gbeth.md §3.2), RX frames over several descriptors at several buffer sizes
 * (docs/gbeth.md §3.4, docs/gbeth.md §3.5), the descriptor-empty drop (docs/gbeth.md §3.4), line timing (docs/gbeth.md §12 item 3),
 * the counters cleared by writing 0 (docs/gbeth.md §8), the checksum trailer (docs/gbeth.md §7);
 * the drop put down to the driver, the injected one to the injection, an RX bus error
 * (docs/gbeth.md §12 item 11); CCC.LBME/DTSR kept as storage (docs/gbeth.md §12 item 9).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gbeth_kat.h"

#define MODE_NS 10000u

static void frame(uint8_t *f, uint32_t len, uint8_t seed)
{
	memset(f, 0xFF, 6); /* broadcast */
	for (uint32_t i = 6; i < len; i++)
		f[i] = (uint8_t)(i * 13 + seed);
}

/* docs/gbeth.md §2: OPS one-hot, each change mode_ns after the request; CONFIG -> CONFIG harmless. */
static void test_modes(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);

	(void)state;
	assert_int_equal(rd(k, CSR) & 0xF, OPS_RESET);
	wr(k, CCC, 1);
	advance(k, MODE_NS - 1);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_RESET);
	advance(k, 1);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_CONFIG);
	wr(k, CCC, 1);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_CONFIG);
	wr(k, CCC, 2);
	advance(k, MODE_NS);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_OPERATION);
	wr(k, CCC, 0); /* OPERATION -> RESET (Linux's error paths) */
	advance(k, MODE_NS);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_RESET);
	/* LBME and DTSR are kept, nothing more: CSR.DTS stays 0 (docs/gbeth.md §12 item 9). */
	wr(k, CCC, (1u << 24) | (1u << 8) | 1u);
	advance(k, MODE_NS);
	assert_int_equal(rd(k, CCC), (1u << 24) | (1u << 8) | 1u);
	assert_int_equal(rd(k, CSR), OPS_CONFIG);
	kat_free(k);
}

/* docs/gbeth.md §12 item 2: RESET clears the DMAC registers, not the E-MAC's. */
static void test_reset_clears_dmac(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	wr(k, MAHR, 0x02112233);
	wr(k, CCC, 1);
	advance(k, MODE_NS);
	wr(k, CCC, 0);
	advance(k, MODE_NS);
	assert_int_equal(rd(k, DBAT), 0);
	assert_int_equal(rd(k, RIC0), 0);
	assert_int_equal(rd(k, MAHR), 0x02112233);
	assert_int_equal(rd(k, GECMR), GECMR_1000);
	kat_free(k);
}

/* docs/gbeth.md §3.3: FSTART + FEND and FSINGLE frames, FEMPTY per descriptor, TSRQ0 clears at EEMPTY. */
static void test_tx_types_and_timing(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	uint8_t f[100];
	uint64_t t0;

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	frame(f, sizeof(f), 1);
	memcpy(dma(k, KAT_BUF), f, 3);
	memcpy(dma(k, KAT_BUF + 0x100), f + 3, 97);
	memcpy(dma(k, KAT_BUF + 0x200), f, 40); /* a 40-byte frame: padded to 60 */
	desc_set(k, KAT_TXR + 0, FSTART, 3, bus_of(k, KAT_BUF));
	desc_set(k, KAT_TXR + 8, FEND, 97, bus_of(k, KAT_BUF + 0x100));
	desc_set(k, KAT_TXR + 16, FSINGLE, 40, bus_of(k, KAT_BUF + 0x200));
	desc_set(k, KAT_TXR + 24, EEMPTY, 0, 0);
	t0 = k->now;
	wr(k, TCCR, 1);
	assert_true(rd(k, TCCR) & 1);
	assert_true(rd(k, CSR) & (1u << 16)); /* TPO0 */
	assert_int_equal(desc_dt(k, KAT_TXR), FSTART);
	advance(k, (8 + 100 + 4) * 8 - 1);
	assert_int_equal(k->ntx, 0);
	assert_int_equal(desc_dt(k, KAT_TXR), FSTART);
	advance(k, 1);
	/* 8 preamble + 100 + 4 FCS at 8 ns a byte. */
	assert_int_equal(k->ntx, 1);
	assert_int_equal(k->tx[0].len, 100);
	assert_memory_equal(k->tx[0].data, f, 100);
	assert_int_equal(k->tx[0].end, t0 + (8 + 100 + 4) * 8);
	assert_int_equal(desc_dt(k, KAT_TXR), FEMPTY);
	assert_int_equal(desc_dt(k, KAT_TXR + 8), FEMPTY);
	assert_int_equal(rd(k, TIS) & 1, 1);
	/* The second frame starts after the 12-byte gap, padded to 60 bytes. */
	advance(k, 12 * 8 + (8 + 60 + 4) * 8);
	assert_int_equal(k->ntx, 2);
	assert_int_equal(k->tx[1].len, 60);
	assert_int_equal(k->tx[1].end, t0 + (8 + 100 + 4 + 12) * 8 + (8 + 60 + 4) * 8);
	assert_int_equal(desc_dt(k, KAT_TXR + 16), FEMPTY);
	assert_int_equal(rd(k, TCCR) & 1, 0); /* stopped at EEMPTY */
	assert_int_equal(rd(k, CSR) & (1u << 16), 0);
	/* A TSRQ0 written 0 is no request; 1 resumes at the current descriptor. */
	desc_set(k, KAT_TXR + 24, FSINGLE, 60, bus_of(k, KAT_BUF + 0x200));
	desc_set(k, KAT_TXR + 32, LINKFIX, 0, bus_of(k, KAT_TXR));
	desc_set(k, KAT_TXR, EEMPTY, 0, 0);
	wr(k, TCCR, 0);
	advance(k, 10000);
	assert_int_equal(k->ntx, 2);
	wr(k, TCCR, 1);
	advance(k, 10000);
	assert_int_equal(k->ntx, 3);
	kat_free(k);
}

/* docs/gbeth.md §12 item 3: 100 Mb/s: 80 ns a byte; ECMR.TE = 0 sends nothing but completes. */
static void test_tx_100_and_te_off(void **state)
{
	struct kat *k = kat_new_speed(false, MODE_NS, 100);
	struct gbeth_emu_stats st;
	uint64_t t0;

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_100);
	desc_set(k, KAT_TXR + 0, FSINGLE, 1514, bus_of(k, KAT_BUF));
	desc_set(k, KAT_TXR + 8, EEMPTY, 0, 0);
	t0 = k->now;
	wr(k, TCCR, 1);
	advance(k, (8 + 1514 + 4) * 80);
	assert_int_equal(k->ntx, 1);
	assert_int_equal(k->tx[0].end, t0 + (8 + 1514 + 4) * 80);
	wr(k, ECMR, ECMR_RE);
	desc_set(k, KAT_TXR + 8, FSINGLE, 60, bus_of(k, KAT_BUF));
	desc_set(k, KAT_TXR + 16, EEMPTY, 0, 0);
	wr(k, TCCR, 1);
	advance(k, 100000);
	assert_int_equal(k->ntx, 1);
	assert_int_equal(desc_dt(k, KAT_TXR + 8), FEMPTY);
	gbeth_emu_get_stats(k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.tx_te_off), 1);
	kat_free(k);
}

/* docs/gbeth.md §2, docs/gbeth.md §11 item 1: OPERATION -> CONFIG waits for the frame on the wire. */
static void test_stop_waits_for_tx(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	uint64_t wire = (8 + 1514 + 4) * 8;

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	desc_set(k, KAT_TXR + 0, FSINGLE, 1514, bus_of(k, KAT_BUF));
	desc_set(k, KAT_TXR + 8, EEMPTY, 0, 0);
	wr(k, TCCR, 1);
	wr(k, CCC, 1);
	advance(k, MODE_NS);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_OPERATION);
	advance(k, wire - MODE_NS);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_OPERATION);
	advance(k, MODE_NS);
	assert_int_equal(rd(k, CSR) & 0xF, OPS_CONFIG);
	kat_free(k);
}

/* docs/gbeth.md §4.1: DMAC statuses cleared by 0, kept by 1; ECSR cleared by 1; the level line. */
static void test_acknowledge_rules(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	uint8_t f[64];

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	desc_set(k, KAT_RXR, FEMPTY, 2048, bus_of(k, KAT_BUF));
	desc_set(k, KAT_RXR + 8, LINKFIX, 0, bus_of(k, KAT_RXR));
	frame(f, sizeof(f), 2);
	deliver(k, f, sizeof(f), true);
	assert_int_equal(rd(k, RIS0) & 1, 1);
	assert_true(gbeth_emu_irq_asserted(k->emu));
	assert_int_equal(rd(k, ISS) & 1, 1); /* FRS */
	wr(k, RIS0, 0xFFFFFFFF); /* 1s keep */
	assert_int_equal(rd(k, RIS0) & 1, 1);
	wr(k, RIC0, 0); /* masked: the line drops, the status stays */
	assert_false(gbeth_emu_irq_asserted(k->emu));
	assert_int_equal(rd(k, ISS) & 1, 0);
	wr(k, RIC0, 1); /* unmasking over a pending status asserts at once */
	assert_true(gbeth_emu_irq_asserted(k->emu));
	wr(k, RIS0, ~1u); /* 0 clears */
	assert_int_equal(rd(k, RIS0) & 1, 0);
	assert_false(gbeth_emu_irq_asserted(k->emu));
	/* Reserved bits ignore writes. */
	wr(k, RIS0, 0);
	assert_int_equal(rd(k, RIS0), 0);
	kat_free(k);
}

/* docs/gbeth.md §3.2: a ring closed by LINKFIX wraps; re-armed descriptors are used again. */
static void test_linkfix_wrap(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	uint8_t f[200];

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	for (unsigned i = 0; i < 4; i++)
		desc_set(k, KAT_RXR + i * 8, FEMPTY, 1536, bus_of(k, KAT_BUF + i * 2048));
	desc_set(k, KAT_RXR + 32, LINKFIX, 0, bus_of(k, KAT_RXR));
	for (unsigned n = 0; n < 10; n++) {
		unsigned slot = n % 4;

		frame(f, sizeof(f), (uint8_t)n);
		deliver(k, f, sizeof(f), true);
		assert_int_equal(desc_dt(k, KAT_RXR + slot * 8), FSINGLE);
		assert_int_equal(desc_ds(k, KAT_RXR + slot * 8), sizeof(f));
		assert_memory_equal(dma(k, KAT_BUF + slot * 2048), f, sizeof(f));
		desc_set(k, KAT_RXR + slot * 8, FEMPTY, 1536, bus_of(k, KAT_BUF + slot * 2048));
	}
	kat_free(k);
}

/* docs/gbeth.md §3.5: a frame over N descriptors, each with its own byte count, at several sizes. */
static void check_multi(unsigned ds, uint32_t len)
{
	struct kat *k = kat_new(false, MODE_NS);
	unsigned parts = (len + ds - 1) / ds;
	uint8_t f[1514];

	kat_bring_up(k, MODE_NS, GECMR_1000);
	for (unsigned i = 0; i < 8; i++)
		desc_set(k, KAT_RXR + i * 8, FEMPTY, (uint16_t)ds, bus_of(k, KAT_BUF + i * 4096));
	desc_set(k, KAT_RXR + 64, LINKFIX, 0, bus_of(k, KAT_RXR));
	frame(f, len, 9);
	deliver(k, f, len, true);
	for (unsigned i = 0; i < parts; i++) {
		unsigned want = parts == 1 ? FSINGLE : !i ? FSTART : i == parts - 1 ? FEND : FMID;
		unsigned bytes = i == parts - 1 ? len - i * ds : ds;

		assert_int_equal(desc_dt(k, KAT_RXR + i * 8), want);
		assert_int_equal(desc_ds(k, KAT_RXR + i * 8), bytes);
		assert_memory_equal(dma(k, KAT_BUF + i * 4096), f + i * ds, bytes);
	}
	assert_int_equal(desc_dt(k, KAT_RXR + parts * 8), FEMPTY);
	assert_int_equal(rd(k, RIS0) & 1, 1);
	kat_free(k);
}

static void test_multi_desc(void **state)
{
	(void)state;
	check_multi(4080, 1514); /* pre-2024: one descriptor */
	check_multi(1726, 1514); /* 2024 page-pool size: one */
	check_multi(1024, 1514); /* FSTART + FEND */
	check_multi(256, 1514); /* FSTART, 4 x FMID, FEND */
	check_multi(256, 256); /* exactly one buffer */
	check_multi(256, 257); /* one byte over: FSTART + FEND of 1 */
}

/* docs/gbeth.md §3.4: no FEMPTY descriptor: dropped, counted, QFF0, nothing written. */
static void test_desc_empty_drop(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	struct gbeth_emu_stats st;
	uint8_t f[1000];

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	desc_set(k, KAT_RXR, FEMPTY, 512, bus_of(k, KAT_BUF));
	desc_set(k, KAT_RXR + 8, EEMPTY, 512, bus_of(k, KAT_BUF + 4096));
	desc_set(k, KAT_RXR + 16, LINKFIX, 0, bus_of(k, KAT_RXR));
	frame(f, sizeof(f), 3);
	deliver(k, f, sizeof(f), true); /* needs two, the second is not offered */
	assert_int_equal(desc_dt(k, KAT_RXR), FEMPTY);
	assert_int_equal(rd(k, RIS2) & 1, 1);
	assert_int_equal(rd(k, RIS0) & 1, 0);
	assert_true(gbeth_emu_irq_asserted(k->emu)); /* QFE0 enabled */
	assert_true(rd(k, EIS) & (1u << 16)); /* QFS follows RIS2 */
	gbeth_emu_get_stats(k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_nodesc), 1);
	/* Nobody was late but the driver (docs/design.md §4.8). */
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_driver), 1);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_injected), 0);
	/* Offered now: the next frame is taken at the same descriptor. */
	desc_set(k, KAT_RXR + 8, FEMPTY, 512, bus_of(k, KAT_BUF + 4096));
	wr(k, RIS2, 0);
	/* An injected exhaustion drops it as the real thing does, put down to the injection
	 * (docs/gbeth.md §12 item 11); the descriptors stay offered. */
	assert_int_equal(gbeth_emu_inject(k->emu, EMU_FAULT_RX_EXHAUST, 1), 0);
	deliver(k, f, sizeof(f), true);
	assert_int_equal(desc_dt(k, KAT_RXR), FEMPTY);
	assert_int_equal(rd(k, RIS2) & 1, 1);
	gbeth_emu_get_stats(k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_nodesc), 2);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_driver), 1);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_injected), 1);
	assert_int_equal(ethdrv_counter_get(&st.faults), 1);
	/* An RX bus error loses the next frame whole: nothing written, no status. */
	wr(k, RIS2, 0);
	assert_int_equal(gbeth_emu_inject(k->emu, EMU_FAULT_RX_BUS_ERROR, 0), 0);
	deliver(k, f, sizeof(f), true);
	assert_int_equal(desc_dt(k, KAT_RXR), FEMPTY);
	assert_int_equal(rd(k, RIS2) & 1, 0);
	assert_int_equal(rd(k, RIS0) & 1, 0);
	gbeth_emu_get_stats(k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_dma), 1);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_nodesc), 2);
	deliver(k, f, sizeof(f), true);
	assert_int_equal(desc_dt(k, KAT_RXR), FSTART);
	assert_int_equal(desc_dt(k, KAT_RXR + 8), FEND);
	kat_free(k);
}

/* docs/gbeth.md §5.2: frames over RFLR cut with RTLF; bad FCS flagged CRC; filter with PRM = 0. */
static void test_rx_flags_and_filter(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	struct gbeth_emu_stats st;
	uint8_t f[1514];

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	for (unsigned i = 0; i < 4; i++)
		desc_set(k, KAT_RXR + i * 8, FEMPTY, 2048, bus_of(k, KAT_BUF + i * 2048));
	desc_set(k, KAT_RXR + 32, LINKFIX, 0, bus_of(k, KAT_RXR));
	wr(k, RFLR, 1000 + 4);
	frame(f, sizeof(f), 4);
	deliver(k, f, sizeof(f), true);
	assert_int_equal(desc_ds(k, KAT_RXR), 1000);
	assert_int_equal(desc_msc(k, KAT_RXR) & 0x08, 0x08);
	deliver(k, f, 100, false);
	assert_int_equal(desc_msc(k, KAT_RXR + 8) & 0x01, 0x01);
	assert_int_equal(desc_msc(k, KAT_RXR + 8) & 0x80, 0x80); /* multicast DA */
	wr(k, ECMR, ECMR_TE | ECMR_RE);
	wr(k, MAHR, 0x02000000);
	wr(k, MALR, 0x0001);
	f[0] = 0x02; /* unicast, not ours */
	deliver(k, f, 100, true);
	assert_int_equal(desc_dt(k, KAT_RXR + 16), FEMPTY);
	memcpy(f, "\x02\x00\x00\x00\x00\x01", 6);
	deliver(k, f, 100, true);
	assert_int_equal(desc_dt(k, KAT_RXR + 16), FSINGLE);
	gbeth_emu_get_stats(k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_filter), 1);
	assert_int_equal(ethdrv_counter_get(&st.rx_too_long), 1);
	kat_free(k);
}

/* docs/gbeth.md §8, docs/gbeth.md §12 item 8: CXR42 counts frames sent with the link down; a 0 clears, a 1 does not. */
static void test_counters(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);

	(void)state;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	fdx_line_set_link(k->line, false);
	desc_set(k, KAT_TXR + 0, FSINGLE, 60, bus_of(k, KAT_BUF));
	desc_set(k, KAT_TXR + 8, FSINGLE, 60, bus_of(k, KAT_BUF));
	desc_set(k, KAT_TXR + 16, EEMPTY, 0, 0);
	wr(k, TCCR, 1);
	advance(k, 10000);
	assert_int_equal(k->ntx, 0);
	assert_int_equal(rd(k, CXR42), 2);
	wr(k, CXR42, 1);
	assert_int_equal(rd(k, CXR42), 2);
	wr(k, CXR42, 0);
	assert_int_equal(rd(k, CXR42), 0);
	assert_int_equal(rd(k, TROCR), 0);
	assert_int_equal(rd(k, CXR41), 0);
	kat_free(k);
}

/* docs/gbeth.md §7: the trailer: a good UDP/IPv4 frame reads 0/0, a corrupted one a nonzero protocol half. */
static void test_csum_trailer(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	/* Ethernet + IPv4 (20) + UDP (8) + 4 payload bytes, checksums computed by hand below. */
	uint8_t f[60] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 2,   0,	0,    0,  0,	1,
			  0x08, 0x00, 0x45, 0,	  0,	32,   0,   0,	0x40, 0,  64,	17,
			  0,	0,    169,  254,  40,	1,    169, 254, 40,   2,  0x30, 0x39,
			  0x13, 0x88, 0,    12,	  0,	0,    'a', 'b', 'c',  'd' };
	uint32_t s = 0;
	uint8_t *t;

	(void)state;
	for (unsigned i = 14; i < 34; i += 2)
		s += (uint32_t)f[i] << 8 | f[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	f[24] = (uint8_t)(~s >> 8);
	f[25] = (uint8_t)~s;
	/* UDP: pseudo header (addresses, 17, 12) + the 12 UDP bytes. */
	s = 169 << 8 | 254;
	s += 40 << 8 | 1;
	s += 169 << 8 | 254;
	s += 40 << 8 | 2;
	s += 17 + 12;
	for (unsigned i = 34; i < 46; i += 2)
		s += (uint32_t)f[i] << 8 | f[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	f[40] = (uint8_t)(~s >> 8);
	f[41] = (uint8_t)~s;
	kat_bring_up(k, MODE_NS, GECMR_1000);
	for (unsigned i = 0; i < 4; i++)
		desc_set(k, KAT_RXR + i * 8, FEMPTY, 2048, bus_of(k, KAT_BUF + i * 2048));
	desc_set(k, KAT_RXR + 32, LINKFIX, 0, bus_of(k, KAT_RXR));
	wr(k, CSR2, 1u | 1u << 5); /* RIP4, RUDP4 */
	wr(k, CSR0, 1u << 5); /* RPE */
	deliver(k, f, sizeof(f), true);
	assert_int_equal(desc_ds(k, KAT_RXR), 64);
	t = dma(k, KAT_BUF + 60);
	assert_int_equal(t[0] | t[1] << 8, 0);
	assert_int_equal(t[2] | t[3] << 8, 0);
	f[44] ^= 1;
	deliver(k, f, sizeof(f), true);
	t = dma(k, KAT_BUF + 2048 + 60);
	assert_int_equal(t[0] | t[1] << 8, 0);
	assert_int_not_equal(t[2] | t[3] << 8, 0);
	assert_int_not_equal(t[2] | t[3] << 8, 0xFFFF);
	wr(k, CSR2, 1u); /* UDP not enabled: not checked */
	deliver(k, f, sizeof(f), true);
	t = dma(k, KAT_BUF + 2 * 2048 + 60);
	assert_int_equal(t[2] | t[3] << 8, 0xFFFF);
	kat_free(k);
}

/* docs/gbeth.md §1: an unknown offset reads 0 and is counted. */
static void test_bad_access(void **state)
{
	struct kat *k = kat_new(false, MODE_NS);
	struct gbeth_emu_stats st;

	(void)state;
	assert_int_equal(rd(k, 0x0FFC), 0);
	wr(k, 0x0FFC, 1);
	assert_int_equal(rd(k, 0x2000), 0);
	assert_int_equal(rd(k, 0x0002), 0);
	gbeth_emu_get_stats(k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.bad_accesses), 4);
	kat_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_reset_clears_dmac),
		cmocka_unit_test(test_tx_types_and_timing),
		cmocka_unit_test(test_tx_100_and_te_off),
		cmocka_unit_test(test_stop_waits_for_tx),
		cmocka_unit_test(test_acknowledge_rules),
		cmocka_unit_test(test_linkfix_wrap),
		cmocka_unit_test(test_multi_desc),
		cmocka_unit_test(test_desc_empty_drop),
		cmocka_unit_test(test_rx_flags_and_filter),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_csum_trailer),
		cmocka_unit_test(test_bad_access),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
