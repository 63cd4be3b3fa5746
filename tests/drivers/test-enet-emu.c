// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the ENET model's registers and descriptors, from
 * docs/enet.md alone (constants in tests/helpers/enet_kat.h): reset values,
 * write-1-to-clear, ownership, wrap, last and error bits, RDAR stop and
 * resume, bad descriptors, graceful stop, filters, enhanced and big-endian
 * descriptors, each at 1000, 100 and 10 Mb/s (waits scale with the byte
 * time). Timing, coalescing and the MIB: test-enet-emu-timing.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "enet_kat.h"

/* ---- reset values and write-1-to-clear ---- */

static void test_reset_values(void **state)
{
	struct kat *k = *state;
	static const struct {
		uint32_t off, val;
	} want[] = {
		{ EIR, 0 },	     { EIMR, 0 },     { RDAR, 0 },	     { TDAR, 0 },
		{ ECR, 0x70000000 }, { MMFR, 0 },     { MSCR, 0 },	     { MIBC, 0xC0000000 },
		{ RCR, 0x05EE0001 }, { TCR, 0 },      { PALR, 0 },	     { PAUR, 0x8808 },
		{ OPD, 0x00010000 }, { TXIC0, 0 },    { RXIC0, 0 },	     { GAUR, 0 },
		{ RDSR, 0 },	     { MRBR, 0 },     { RAEM, 4 },	     { TAFL, 8 },
		{ TIPG, 12 },	     { FTRL, 0x7FF }, { ATPER, 0x3B9ACA00 }, { T_PACKETS, 0 },
	};

	/* RCR.GRS (bit 31) reads 1 while disabled: mask it for the comparison. */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(rd(k, 0, want[i].off) & (want[i].off == RCR ? 0x7FFFFFFF : ~0u),
				 want[i].val);
	/* Change some, then RESET brings all back, PALR/PAUR and MSCR included (docs/enet.md §10 item 6). */
	wr(k, 0, PALR, 0x11223344);
	wr(k, 0, PAUR, 0x55660000);
	wr(k, 0, MSCR, 0x1A);
	wr(k, 0, RCR, RCR_MAX_FL(1984) | RCR_MII_MODE | kat_rcr(k));
	wr(k, 0, TIPG, 20);
	assert_int_equal(rd(k, 0, PAUR), 0x55668808); /* TYPE stays 0x8808 */
	wr(k, 0, ECR, ECR_RESET);
	assert_int_equal(rd(k, 0, ECR) & ECR_RESET, 0); /* self-clearing */
	assert_int_equal(rd(k, 0, PALR), 0);
	assert_int_equal(rd(k, 0, PAUR), 0x8808);
	assert_int_equal(rd(k, 0, MSCR), 0);
	assert_int_equal(rd(k, 0, RCR) & 0x7FFFFFFF, 0x05EE0001);
	assert_int_equal(rd(k, 0, TIPG), 12);
	/* Ring starts ignore their low 3 bits; MRBR keeps bits 13:4 (docs/enet.md §1.1). */
	wr(k, 0, RDSR, 0x40000007);
	wr(k, 0, MRBR, 0xFFFF);
	assert_int_equal(rd(k, 0, RDSR), 0x40000000);
	assert_int_equal(rd(k, 0, MRBR), 0x3FF0);
	/* Unaligned and unknown offsets read 0. */
	assert_int_equal(rd(k, 0, 0x3FFC), 0);
	assert_int_equal(rd(k, 0, 0x4000), 0);
}

static void test_eir_w1c(void **state)
{
	struct kat *k = *state;

	macs_up(k, 4, RCR_CRCFWD);
	wr(k, 0, EIMR, EV_GRA);
	assert_false(irq_readable(k, 0));
	/* Graceful stop with link and an idle MAC: GRA at once (docs/enet.md §4.3). */
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	assert_int_equal(rd(k, 0, EIR), EV_GRA);
	assert_true(irq_readable(k, 0));
	assert_true(enet_emu_irq_asserted(k->emu[0], 0));
	assert_false(enet_emu_irq_asserted(k->emu[0], 1));
	/* Writing 0 or another bit leaves it; writing the bit clears it (docs/enet.md §2). */
	wr(k, 0, EIR, 0);
	wr(k, 0, EIR, EV_RXF);
	assert_int_equal(rd(k, 0, EIR), EV_GRA);
	wr(k, 0, EIR, EV_GRA);
	assert_int_equal(rd(k, 0, EIR), 0);
	assert_false(irq_readable(k, 0));
	/* Masking keeps the bit in EIR but drops the line (docs/enet.md §10 item 1). */
	wr(k, 0, TCR, TCR_FDEN);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	assert_true(irq_readable(k, 0));
	wr(k, 0, EIMR, 0);
	assert_false(irq_readable(k, 0));
	assert_int_equal(rd(k, 0, EIR), EV_GRA);
	/* The MII event only comes from the MDIO block: an MMFR write alone raises nothing. */
	wr(k, 0, MMFR, 0x60000000);
	assert_int_equal(rd(k, 0, EIR) & EV_MII, 0);
	assert_int_equal(rd(k, 0, MMFR), 0x60000000);
}

/* ---- descriptors ---- */

static void test_tx_rx_bits_and_wrap(void **state)
{
	struct kat *k = *state;
	uint8_t bc[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

	macs_up(k, 4, RCR_CRCFWD);
	/* Six frames into a ring of four: the W bit sends the DMA back to RDSR. */
	for (unsigned f = 0; f < 6; f++) {
		unsigned i = f % 4, t = tx(k, 0, 100 + f);

		assert_true(bd_status(k, 0, TX_RING, t) & TX_R);
		settle(k, 20000);
		assert_false(bd_status(k, 0, TX_RING, t) &
			     TX_R); /* cleared when sent (docs/enet.md §10 item 3) */
		assert_int_equal(bd_status(k, 1, RX_RING, i), RX_L | (i == 3 ? RX_W : 0));
		assert_int_equal(bd_len(k, 1, RX_RING, i), 100 + f); /* CRCFWD: no FCS */
		assert_memory_equal(mem(k, 1, RX_BUF(i)), mem(k, 0, TX_BUF(t)), 100 + f);
		rx_arm(k, 1, i);
	}
	/* Broadcast: BC; without CRCFWD the length includes the FCS (docs/enet.md §3.5). */
	wr(k, 1, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | kat_rcr(k));
	tx_to(k, 0, 80, bc, 0);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 2), RX_L | RX_BC);
	assert_int_equal(bd_len(k, 1, RX_RING, 2), 84);
	/* A bad CRC asked for with ABC arrives with CR (docs/enet.md §3.2). */
	tx_to(k, 0, 80, mac_of[1], TX_ABC);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 3), RX_L | RX_CR | RX_W);
	assert_int_equal(rd(k, 1, R_CRC), 1);
}

static void test_rx_multi_bd_and_lg(void **state)
{
	struct kat *k = *state;

	macs_up(k, 8, RCR_CRCFWD);
	/* MRBR 256: a 1000-byte frame takes four BDs; non-last BDs hold MRBR bytes,
	 * the last the total (docs/enet.md §3.5, MCUX). RXB per non-last BD, RXF once. */
	wr(k, 1, MRBR, 256);
	tx(k, 0, 1000);
	settle(k, 20000);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(bd_status(k, 1, RX_RING, i), 0);
		assert_int_equal(bd_len(k, 1, RX_RING, i), 256);
	}
	assert_int_equal(bd_status(k, 1, RX_RING, 3), RX_L);
	assert_int_equal(bd_len(k, 1, RX_RING, 3), 1000);
	assert_int_equal(rd(k, 1, EIR) & (EV_RXF | EV_RXB), EV_RXF | EV_RXB);
	/* Longer than MAX_FL: received with LG and BABR (docs/enet.md §3.5, §10 item 10). */
	wr(k, 1, MRBR, MRBR_VAL);
	wr(k, 1, RCR, RCR_MAX_FL(500) | RCR_MII_MODE | RCR_CRCFWD | kat_rcr(k));
	wr(k, 1, EIR, 0xFFFFFFFF);
	tx(k, 0, 600);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 4), RX_L | RX_LG);
	assert_true(rd(k, 1, EIR) & EV_BABR);
}

static void test_rdar_stop_resume(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;

	macs_up(k, 2, RCR_CRCFWD);
	assert_int_equal(rd(k, 1, RDAR), DAR);
	tx(k, 0, 200);
	tx(k, 0, 200);
	tx(k, 0, 200);
	settle(k, 100000);
	/* Two BDs filled, the third frame found none: dropped, counted, RDAR cleared (docs/enet.md §3.4). */
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_L | RX_W);
	assert_int_equal(rd(k, 1, RDAR), 0);
	assert_int_equal(rd(k, 1, R_DROP), 1);
	enet_emu_get_stats(k->emu[1], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_nobd), 1);
	/* Empty BDs alone do not resume the DMA: still stopped. */
	rx_arm(k, 1, 0);
	rx_arm(k, 1, 1);
	tx(k, 0, 200);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_E);
	assert_int_equal(rd(k, 1, R_DROP), 2);
	/* Writing RDAR (any value) resumes at the next BD. */
	wr(k, 1, RDAR, 0);
	assert_int_equal(rd(k, 1, RDAR), DAR);
	tx(k, 0, 200);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	/* The injected fault drops and counts the same way, without stopping
	 * the DMA: the next frame goes into the empty BD. */
	rx_arm(k, 1, 0);
	assert_int_equal(enet_emu_inject(k->emu[1], EMU_FAULT_RX_EXHAUST, 1), 0);
	tx(k, 0, 200);
	settle(k, 20000);
	assert_int_equal(rd(k, 1, R_DROP), 3);
	assert_int_equal(rd(k, 1, RDAR), DAR);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_E | RX_W);
	tx(k, 0, 200);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_L | RX_W);
	/* Whose losses (docs/design.md §4.8): on the virtual clock every frame
	 * arrives on time and nothing is stolen, so the two ring-exhaustion
	 * drops are the driver's and the injected one is counted apart. */
	enet_emu_get_stats(k->emu[1], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_nobd), 3);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_driver), 2);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_lab), 0);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_steal), 0);
	assert_int_equal(ethdrv_counter_get(&st.rx_loss.lost_injected), 1);
	assert_true(ethdrv_counter_get(&st.rx_loss.gap_max_ns) > 0);
}

static void test_tx_full_ring_once(void **state)
{
	struct kat *k = *state;
	unsigned n = 0;

	/* Every TX BD ready at once: each frame goes out once, R clears on each,
	 * the DMA does not take a BD whose frame it already holds for a new one. */
	macs_up(k, 16, RCR_CRCFWD);
	for (unsigned i = 0; i < 16; i++) {
		fill_frame(mem(k, 0, TX_BUF(i)), 100, mac_of[1], mac_of[0], (uint8_t)i);
		bd_put(k, 0, TX_RING, i, TX_R | TX_L | TX_TC | (i == 15 ? TX_W : 0), 100,
		       bus_addr(k, 0, TX_BUF(i)));
	}
	wr(k, 0, TDAR, DAR);
	settle(k, 100000);
	for (unsigned i = 0; i < 16; i++) {
		assert_false(bd_status(k, 0, TX_RING, i) & TX_R);
		n += !(bd_status(k, 1, RX_RING, i) & RX_E);
	}
	assert_int_equal(n, 16);
	assert_int_equal(rd(k, 0, T_PACKETS), 16);
}

/* ---- bad descriptors (docs/enet.md §10 item 11) ---- */

static void test_bad_tx_address(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;
	uint32_t end = bus_addr(k, 0, 0) + (1u << 20);

	macs_up(k, 4, RCR_CRCFWD);
	/* A buffer that starts inside the region but ends outside it. */
	bd_put(k, 0, TX_RING, 0, TX_R | TX_L | TX_TC, 100, end - 10);
	wr(k, 0, TDAR, DAR);
	assert_true(rd(k, 0, EIR) & EV_EBERR);
	assert_int_equal(rd(k, 0, ECR) & ECR_ETHEREN, 0); /* EBERR clears ETHEREN */
	assert_int_equal(rd(k, 0, TDAR), 0);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.dma_errors), 1);
	assert_int_equal(ethdrv_counter_get(&st.tx_frames), 0);
	settle(k, 100000);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E); /* nothing sent */
	/* A TX ring outside the region. */
	mac_up(k, 0, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k));
	wr(k, 0, TDSR, end);
	wr(k, 0, TDAR, DAR);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.dma_errors), 2);
	/* The injected bus error. */
	mac_up(k, 0, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k));
	assert_int_equal(enet_emu_inject(k->emu[0], EMU_FAULT_TX_BUS_ERROR, 0), 0);
	tx(k, 0, 100);
	assert_true(rd(k, 0, EIR) & EV_EBERR);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.dma_errors), 3);
}

static void test_bad_rx_address(void **state)
{
	struct kat *k = *state;
	struct enet_emu_stats st;
	uint32_t end = bus_addr(k, 1, 0) + (1u << 20);

	macs_up(k, 4, RCR_CRCFWD);
	/* An RX buffer the frame would run past the end of the region. */
	bd_put(k, 1, RX_RING, 0, RX_E, 0, end - 10);
	tx(k, 0, 64);
	settle(k, 20000);
	assert_true(rd(k, 1, EIR) & EV_EBERR);
	assert_int_equal(rd(k, 1, ECR) & ECR_ETHEREN, 0);
	enet_emu_get_stats(k->emu[1], &st);
	assert_int_equal(ethdrv_counter_get(&st.dma_errors), 1);
	assert_int_equal(ethdrv_counter_get(&st.rx_frames), 0);
	/* Frames arriving while disabled are dropped and counted. */
	tx(k, 0, 64);
	settle(k, 20000);
	enet_emu_get_stats(k->emu[1], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_disabled), 1);
	/* An empty TX frame completes without being sent. */
	bd_put(k, 0, TX_RING, k->tx_next[0]++, TX_R | TX_L | TX_TC, 0, bus_addr(k, 0, TX_BUF(0)));
	wr(k, 0, TDAR, DAR);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.tx_bad_len), 1);
}

/* ---- control ---- */

static void test_graceful_stop(void **state)
{
	struct kat *k = *state;
	uint64_t end;
	unsigned a, b;

	macs_up(k, 8, RCR_CRCFWD);
	advance(k, 1000);
	end = now(k) + first_end_ns(1514, k->byte_ns);
	a = tx(k, 0, 1514);
	b = tx(k, 0, 1514);
	advance(k, fetch_ns(1514) + 100);
	/* GTS with a frame on the wire: GRA when it has left, the next stays queued. */
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	advance_to(k, end - 1);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
	advance_to(k, end);
	assert_true(rd(k, 0, EIR) & EV_GRA);
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
	settle(k, 100000);
	assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
	/* Clearing GTS resumes. */
	wr(k, 0, TCR, TCR_FDEN);
	settle(k, 100000);
	assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	/* No GRA without link (docs/enet.md §10 item 7). */
	fdx_line_set_link(k->line, false);
	wr(k, 0, EIR, EV_GRA);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
}

static void test_disable_rewinds(void **state)
{
	struct kat *k = *state;

	macs_up(k, 4, RCR_CRCFWD);
	tx(k, 0, 100);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	/* ETHEREN 1->0 clears RDAR and rewinds to RDSR (docs/enet.md §3.4, §10 item 5). */
	wr(k, 1, ECR, ECR_DBSWP | kat_ecr(k));
	assert_int_equal(rd(k, 1, RDAR), 0);
	rx_arm(k, 1, 0);
	wr(k, 1, ECR, ECR_ETHEREN | ECR_DBSWP | kat_ecr(k));
	wr(k, 1, RDAR, DAR);
	tx(k, 0, 100);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	assert_true(bd_status(k, 1, RX_RING, 1) & RX_E);
}

static void test_loopback_and_filter(void **state)
{
	struct kat *k = *state;
	uint8_t other[6] = { 0x02, 0, 0, 0, 0, 9 };
	uint8_t mc[6] = { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x01 };
	struct enet_emu_stats st;
	uint32_t crc = 0xFFFFFFFF, idx;

	/* RCR.LOOP (its reset value): frames come back to the sender. */
	mac_up(k, 0, 4, RCR_CRCFWD | RCR_LOOP | kat_rcr(k), kat_ecr(k));
	mac_up(k, 1, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k));
	tx_to(k, 0, 100, mac_of[0], 0);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 0, RX_RING, 0), RX_L);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E);
	/* Its receiver is then deaf to the line. */
	tx(k, 1, 100);
	settle(k, 20000);
	assert_true(bd_status(k, 0, RX_RING, 1) & RX_E);
	wr(k, 0, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD | kat_rcr(k));
	/* Unicast to another station: refused, no BD used. */
	tx_to(k, 1, 100, other, 0);
	settle(k, 20000);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_filter), 1);
	/* Promiscuous: accepted with M (docs/enet.md §3.2). */
	wr(k, 0, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD | RCR_PROM | kat_rcr(k));
	tx_to(k, 1, 100, other, 0);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 0, RX_RING, 1), RX_L | RX_M);
	/* Multicast through the group hash: CRC-32 (reflected, no final
	 * inversion) of the address, top 6 bits select the bit (docs/enet.md §1.1). */
	wr(k, 0, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD | kat_rcr(k));
	tx_to(k, 1, 100, mc, 0);
	settle(k, 20000);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_filter), 2);
	for (unsigned i = 0; i < 6; i++) {
		crc ^= mc[i];
		for (unsigned b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	idx = crc >> 26;
	wr(k, 0, idx >= 32 ? GAUR : GALR, 1u << (idx % 32));
	tx_to(k, 1, 100, mc, 0);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 0, RX_RING, 2), RX_L | RX_MC);
}

static void test_enhanced_bd(void **state)
{
	struct kat *k = *state;

	/* EN1588: 32-byte BDs, events only for BDs with INT, BDU written (docs/enet.md §3.3). */
	k->bd_size = 32;
	mac_up(k, 0, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k) | ECR_EN1588);
	mac_up(k, 1, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k) | ECR_EN1588);
	tx(k, 0, 100);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	assert_int_equal(bd_word(k, 1, RX_RING, 0, 16), BDU);
	assert_true(bd_word(k, 1, RX_RING, 0, 8) & (1u << 24)); /* UC */
	assert_int_equal(bd_word(k, 0, TX_RING, 0, 16), BDU);
	assert_true(rd(k, 1, EIR) & EV_RXF);
	assert_true(rd(k, 0, EIR) & EV_TXF);
	/* Without INT no RXF. */
	wr(k, 1, EIR, 0xFFFFFFFF);
	bd_set_word(k, 1, RX_RING, 1, 8, 0);
	tx(k, 0, 100);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_L);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
}

static void test_big_endian_bd(void **state)
{
	struct kat *k = *state;

	/* DBSWP=0: status BE16 at +0, length BE16 at +2, address BE32 (docs/enet.md §3.1). */
	k->big_endian = true;
	mac_up(k, 0, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k));
	mac_up(k, 1, 4, RCR_CRCFWD | kat_rcr(k), kat_ecr(k));
	tx(k, 0, 300);
	settle(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	assert_int_equal(bd_len(k, 1, RX_RING, 0), 300);
	assert_memory_equal(mem(k, 1, RX_BUF(0)), mem(k, 0, TX_BUF(0)), 300);
}

static void test_bad_arguments(void **state)
{
	struct kat *k = *state;
	struct fdx_line_config lc;
	struct enet_emu_config ec;
	struct fdx_line *l;
	struct enet_emu *e;

	fdx_line_config_default(&lc);
	lc.speed_mbps = 2500;
	assert_int_equal(fdx_line_new(&lc, &l), -EINVAL);
	enet_emu_config_default(&ec);
	assert_int_equal(enet_emu_new(&ec, k->line, 0, &e), -EBUSY);
	assert_int_equal(enet_emu_new(&ec, k->line, 2, &e), -EINVAL);
	ec.dma_size = 100;
	assert_int_equal(enet_emu_new(&ec, k->line, 0, &e), -EINVAL);
	assert_int_equal(enet_emu_inject(k->emu[0], EMU_FAULT_RX_EXHAUST, 0), -EINVAL);
	assert_int_equal(fdx_line_set_ber(k->line, 0, 0.5), -EINVAL);
	assert_int_equal(fdx_line_run_until(k->line, 0), 0);
	advance(k, 10);
	assert_int_equal(fdx_line_run_until(k->line, 0), -EINVAL);
	assert_string_equal(emu_fault_name(EMU_FAULT_RX_EXHAUST), "rx_exhaust");
	assert_null(emu_fault_name(EMU_FAULT_COUNT));
	/* emu.inject's text (emu_fault.h), shared by the ring-MAC models. */
	{
		static const char *const bad[] = { "",
						   "rx_exhaust:",
						   "rx_exhaust:0",
						   "rx_exhaust:1000001",
						   "rx_exhaust:+5",
						   "rx_exhaust:5x",
						   "tx_bus_error:1",
						   "rx_bus",
						   "rx_exhaustx" };
		enum emu_fault fl;
		uint64_t arg;

		assert_int_equal(emu_fault_parse("rx_exhaust", &fl, &arg), 0);
		assert_int_equal(fl, EMU_FAULT_RX_EXHAUST);
		assert_int_equal(arg, 1);
		assert_int_equal(emu_fault_parse("rx_exhaust:1000000", &fl, &arg), 0);
		assert_int_equal(arg, 1000000);
		assert_int_equal(emu_fault_parse("tx_bus_error", &fl, &arg), 0);
		assert_int_equal(fl, EMU_FAULT_TX_BUS_ERROR);
		assert_int_equal(emu_fault_parse("rx_bus_error", &fl, &arg), 0);
		assert_int_equal(fl, EMU_FAULT_RX_BUS_ERROR);
		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			assert_int_equal(emu_fault_parse(bad[i], &fl, &arg), -EINVAL);
	}
}

/* Every test at each line speed: 1000, 100 and 10 Mb/s (docs/enet.md §12). */
#define AT_SPEEDS(t) KAT_AT_SPEEDS(t, setup, setup_100, setup_10)

int main(void)
{
	const struct CMUnitTest tests[] = {
		AT_SPEEDS(test_reset_values),
		AT_SPEEDS(test_eir_w1c),
		AT_SPEEDS(test_tx_rx_bits_and_wrap),
		AT_SPEEDS(test_rx_multi_bd_and_lg),
		AT_SPEEDS(test_rdar_stop_resume),
		AT_SPEEDS(test_tx_full_ring_once),
		AT_SPEEDS(test_bad_tx_address),
		AT_SPEEDS(test_bad_rx_address),
		AT_SPEEDS(test_graceful_stop),
		AT_SPEEDS(test_disable_rewinds),
		AT_SPEEDS(test_loopback_and_filter),
		AT_SPEEDS(test_enhanced_bd),
		AT_SPEEDS(test_big_endian_bd),
		cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
