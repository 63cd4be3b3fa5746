// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the ENET model, from docs/enet.md alone (the
 * register offsets, bits and reset values below are this file's own, typed
 * from the facts, never the model's or the driver's headers). Two models on
 * a virtual-clock line; the test plays the driver through the bus and the
 * DMA region and moves the clock.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/enet_emu.h"
#include "ethdrv/mmio.h"

/* Registers (§1.1). */
#define EIR 0x004
#define EIMR 0x008
#define RDAR 0x010
#define TDAR 0x014
#define ECR 0x024
#define MMFR 0x040
#define MSCR 0x044
#define MIBC 0x064
#define RCR 0x084
#define TCR 0x0C4
#define PALR 0x0E4
#define PAUR 0x0E8
#define OPD 0x0EC
#define TXIC0 0x0F0
#define RXIC0 0x100
#define IAUR 0x118
#define IALR 0x11C
#define GAUR 0x120
#define GALR 0x124
#define RDSR 0x180
#define TDSR 0x184
#define MRBR 0x188
#define RAEM 0x198
#define TAFL 0x1A8
#define TIPG 0x1AC
#define FTRL 0x1B0
#define ATPER 0x40C
/* MIB (§7). */
#define T_PACKETS 0x204
#define T_BC 0x208
#define T_P64 0x228
#define T_P65TO127 0x22C
#define T_P1024TO2047 0x23C
#define T_OCTETS 0x244
#define T_FRAME_OK 0x24C
#define R_PACKETS 0x284
#define R_CRC_ALIGN 0x290
#define R_P64 0x2A8
#define R_P1024TO2047 0x2BC
#define R_OCTETS 0x2C4
#define R_DROP 0x2C8
#define R_FRAME_OK 0x2CC
#define R_CRC 0x2D0
/* Bits (§2, §3.2, §4, §6). */
#define EV_GRA (1u << 28)
#define EV_TXF (1u << 27)
#define EV_TXB (1u << 26)
#define EV_RXF (1u << 25)
#define EV_RXB (1u << 24)
#define EV_MII (1u << 23)
#define EV_EBERR (1u << 22)
#define EV_BABR (1u << 30)
#define ECR_RESET (1u << 0)
#define ECR_ETHEREN (1u << 1)
#define ECR_EN1588 (1u << 4)
#define ECR_SPEED (1u << 5)
#define ECR_DBSWP (1u << 8)
#define RCR_LOOP (1u << 0)
#define RCR_MII_MODE (1u << 2)
#define RCR_PROM (1u << 3)
#define RCR_CRCFWD (1u << 14)
#define RCR_MAX_FL(n) ((uint32_t)(n) << 16)
#define TCR_GTS (1u << 0)
#define TCR_FDEN (1u << 2)
#define MIB_DIS (1u << 31)
#define MIB_CLEAR (1u << 29)
#define DAR (1u << 24)
#define IC_EN (1u << 31)
#define IC_CS (1u << 30)
#define IC_FT(n) ((uint32_t)(n) << 20)
#define RX_E (1u << 15)
#define RX_W (1u << 13)
#define RX_L (1u << 11)
#define RX_M (1u << 8)
#define RX_BC (1u << 7)
#define RX_MC (1u << 6)
#define RX_LG (1u << 5)
#define RX_CR (1u << 2)
#define RX_OV (1u << 1)
#define TX_R (1u << 15)
#define TX_W (1u << 13)
#define TX_L (1u << 11)
#define TX_TC (1u << 10)
#define TX_ABC (1u << 9)
#define ESC_RX_INT (1u << 23)
#define ESC_TX_INT (1u << 30)
#define BDU (1u << 31)

/* The test's DMA layout in each model's region. */
#define RX_RING 0x0000u
#define TX_RING 0x1000u
#define BUF_SIZE 0x800u
#define RX_BUF(i) (0x10000u + (i)*BUF_SIZE)
#define TX_BUF(i) (0x80000u + (i)*BUF_SIZE)
#define MRBR_VAL 1536u
#define CLK_HZ 125000000u

static const uint8_t mac_of[2][6] = { { 0x02, 0, 0, 0, 0, 1 }, { 0x02, 0, 0, 0, 0, 2 } };

struct kat {
	struct enet_line *line;
	struct enet_emu *emu[2];
	struct ethdrv_mmio_bus bus[2];
	unsigned bd_size; /* 8 legacy, 32 enhanced */
	bool big_endian; /* DBSWP=0 */
	unsigned rx_n; /* RX BDs in the ring */
	unsigned tx_next[2]; /* next TX BD to use */
	unsigned rx_next[2]; /* next RX BD to read */
};

static int setup_speed(void **state, unsigned speed)
{
	struct kat *k = calloc(1, sizeof(*k));
	struct enet_line_config lc;
	struct enet_emu_config ec;

	assert_non_null(k);
	enet_line_config_default(&lc);
	lc.realtime = false;
	lc.speed_mbps = speed;
	assert_int_equal(enet_line_new(&lc, &k->line), 0);
	enet_emu_config_default(&ec);
	ec.dma_size = 1u << 20;
	ec.clk_ahb_hz = CLK_HZ;
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(enet_emu_new(&ec, k->line, i, &k->emu[i]), 0);
		enet_emu_get_bus(k->emu[i], &k->bus[i]);
	}
	k->bd_size = 8;
	*state = k;
	return 0;
}

static int setup(void **state)
{
	return setup_speed(state, 1000);
}

static int setup_100(void **state)
{
	return setup_speed(state, 100);
}

static int teardown(void **state)
{
	struct kat *k = *state;

	for (unsigned i = 0; i < 2; i++)
		enet_emu_free(k->emu[i]);
	enet_line_free(k->line);
	free(k);
	return 0;
}

static uint32_t rd(struct kat *k, unsigned n, uint32_t off)
{
	return ethdrv_mmio_read32(&k->bus[n], off);
}

static void wr(struct kat *k, unsigned n, uint32_t off, uint32_t v)
{
	ethdrv_mmio_write32(&k->bus[n], off, v);
}

static uint8_t *mem(struct kat *k, unsigned n, uint32_t off)
{
	return (uint8_t *)k->bus[n].dma.virt + off;
}

static uint32_t bus_addr(struct kat *k, unsigned n, uint32_t off)
{
	return (uint32_t)(k->bus[n].dma.bus + off);
}

static uint64_t now(struct kat *k)
{
	return enet_line_now(k->line);
}

static void advance_to(struct kat *k, uint64_t t)
{
	assert_int_equal(enet_line_run_until(k->line, t), 0);
}

static void advance(struct kat *k, uint64_t ns)
{
	advance_to(k, now(k) + ns);
}

/* A BD in the layout of §3.1: DBSWP=1 LE16 length, LE16 status, LE32 address. */
static void bd_put(struct kat *k, unsigned n, uint32_t ring, unsigned i, uint16_t st, uint16_t len,
		   uint32_t addr)
{
	uint8_t *p = mem(k, n, ring + i * k->bd_size);

	if (k->big_endian) {
		uint16_t s = __builtin_bswap16(st), l = __builtin_bswap16(len);
		uint32_t a = __builtin_bswap32(addr);

		memcpy(p + 2, &l, 2);
		memcpy(p + 4, &a, 4);
		__atomic_store_n((uint16_t *)p, s, __ATOMIC_RELEASE);
		return;
	}
	memcpy(p, &len, 2);
	memcpy(p + 4, &addr, 4);
	__atomic_store_n((uint16_t *)(p + 2), st, __ATOMIC_RELEASE);
}

static uint16_t bd_status(struct kat *k, unsigned n, uint32_t ring, unsigned i)
{
	uint8_t *p = mem(k, n, ring + i * k->bd_size);

	if (k->big_endian)
		return __builtin_bswap16(__atomic_load_n((uint16_t *)p, __ATOMIC_ACQUIRE));
	return __atomic_load_n((uint16_t *)(p + 2), __ATOMIC_ACQUIRE);
}

static uint16_t bd_len(struct kat *k, unsigned n, uint32_t ring, unsigned i)
{
	uint16_t l;

	memcpy(&l, mem(k, n, ring + i * k->bd_size) + (k->big_endian ? 2 : 0), 2);
	return k->big_endian ? __builtin_bswap16(l) : l;
}

static uint32_t bd_word(struct kat *k, unsigned n, uint32_t ring, unsigned i, unsigned at)
{
	uint32_t w;

	memcpy(&w, mem(k, n, ring + i * k->bd_size + at), 4);
	return k->big_endian ? __builtin_bswap32(w) : w;
}

static void bd_set_word(struct kat *k, unsigned n, uint32_t ring, unsigned i, unsigned at,
			uint32_t w)
{
	if (k->big_endian)
		w = __builtin_bswap32(w);
	memcpy(mem(k, n, ring + i * k->bd_size + at), &w, 4);
}

static void rx_arm(struct kat *k, unsigned n, unsigned i)
{
	uint16_t w = i == k->rx_n - 1 ? RX_W : 0;

	if (k->bd_size == 32)
		bd_set_word(k, n, RX_RING, i, 8, ESC_RX_INT);
	bd_put(k, n, RX_RING, i, RX_E | w, 0, bus_addr(k, n, RX_BUF(i)));
}

/* Bring a MAC up in the order of §9.1, with @rx_n RX BDs and @rcr_extra. */
static void mac_up(struct kat *k, unsigned n, unsigned rx_n, uint32_t rcr_extra, uint32_t ecr_extra)
{
	const uint8_t *m = mac_of[n];

	k->rx_n = rx_n;
	wr(k, n, ECR, ECR_RESET);
	wr(k, n, PALR, (uint32_t)m[0] << 24 | m[1] << 16 | m[2] << 8 | m[3]);
	wr(k, n, PAUR, (uint32_t)m[4] << 24 | (uint32_t)m[5] << 16);
	wr(k, n, EIR, 0xFFFFFFFF);
	for (unsigned i = 0; i < rx_n; i++)
		rx_arm(k, n, i);
	for (unsigned i = 0; i < 16; i++)
		bd_put(k, n, TX_RING, i, i == 15 ? TX_W : 0, 0, 0);
	wr(k, n, RDSR, bus_addr(k, n, RX_RING));
	wr(k, n, TDSR, bus_addr(k, n, TX_RING));
	wr(k, n, MRBR, MRBR_VAL);
	wr(k, n, TCR, TCR_FDEN);
	wr(k, n, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | rcr_extra);
	wr(k, n, MIBC, 0);
	wr(k, n, ECR, ECR_ETHEREN | (k->big_endian ? 0 : ECR_DBSWP) | ecr_extra);
	wr(k, n, RDAR, DAR);
	k->tx_next[n] = k->rx_next[n] = 0;
}

static void macs_up(struct kat *k, unsigned rx_n, uint32_t rcr_extra)
{
	mac_up(k, 0, rx_n, rcr_extra, ECR_SPEED);
	mac_up(k, 1, rx_n, rcr_extra, ECR_SPEED);
}

/* Frame @len bytes from n to the peer (or @da), byte i = seed + i after the header. */
static void fill_frame(uint8_t *p, unsigned len, const uint8_t *da, const uint8_t *sa, uint8_t seed)
{
	memcpy(p, da, 6);
	memcpy(p + 6, sa, 6);
	p[12] = 0x88;
	p[13] = 0xB5;
	for (unsigned i = 14; i < len; i++)
		p[i] = (uint8_t)(seed + i);
}

/* Queue one frame on MAC n's next TX BD and ring TDAR; returns the BD index. */
static unsigned tx_to(struct kat *k, unsigned n, unsigned len, const uint8_t *da, uint16_t extra)
{
	unsigned i = k->tx_next[n]++ % 16;

	fill_frame(mem(k, n, TX_BUF(i)), len, da, mac_of[n], (uint8_t)i);
	if (k->bd_size == 32)
		bd_set_word(k, n, TX_RING, i, 8, ESC_TX_INT);
	bd_put(k, n, TX_RING, i, TX_R | TX_L | TX_TC | extra | (i == 15 ? TX_W : 0), (uint16_t)len,
	       bus_addr(k, n, TX_BUF(i)));
	wr(k, n, TDAR, DAR);
	return i;
}

static unsigned tx(struct kat *k, unsigned n, unsigned len)
{
	return tx_to(k, n, len, mac_of[!n], 0);
}

static bool irq_readable(struct kat *k, unsigned n)
{
	struct pollfd p = { .fd = k->bus[n].irq_fd[0], .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* Wire time of a frame of @len bytes without FCS (docs/enet.md §12). */
static uint64_t wire_ns(unsigned len, uint64_t byte_ns)
{
	unsigned l = len < 60 ? 60 : len;

	return (8 + l + 4) * byte_ns;
}

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
	/* Change some, then RESET brings all back, PALR/PAUR and MSCR included (§10.6). */
	wr(k, 0, PALR, 0x11223344);
	wr(k, 0, PAUR, 0x55660000);
	wr(k, 0, MSCR, 0x1A);
	wr(k, 0, RCR, RCR_MAX_FL(1984) | RCR_MII_MODE);
	wr(k, 0, TIPG, 20);
	assert_int_equal(rd(k, 0, PAUR), 0x55668808); /* TYPE stays 0x8808 */
	wr(k, 0, ECR, ECR_RESET);
	assert_int_equal(rd(k, 0, ECR) & ECR_RESET, 0); /* self-clearing */
	assert_int_equal(rd(k, 0, PALR), 0);
	assert_int_equal(rd(k, 0, PAUR), 0x8808);
	assert_int_equal(rd(k, 0, MSCR), 0);
	assert_int_equal(rd(k, 0, RCR) & 0x7FFFFFFF, 0x05EE0001);
	assert_int_equal(rd(k, 0, TIPG), 12);
	/* Ring starts ignore their low 3 bits; MRBR keeps bits 13:4 (§1.1). */
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
	/* Graceful stop with link and an idle MAC: GRA at once (§4.3). */
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	assert_int_equal(rd(k, 0, EIR), EV_GRA);
	assert_true(irq_readable(k, 0));
	assert_true(enet_emu_irq_asserted(k->emu[0], 0));
	assert_false(enet_emu_irq_asserted(k->emu[0], 1));
	/* Writing 0 or another bit leaves it; writing the bit clears it (§2). */
	wr(k, 0, EIR, 0);
	wr(k, 0, EIR, EV_RXF);
	assert_int_equal(rd(k, 0, EIR), EV_GRA);
	wr(k, 0, EIR, EV_GRA);
	assert_int_equal(rd(k, 0, EIR), 0);
	assert_false(irq_readable(k, 0));
	/* Masking keeps the bit in EIR but drops the line (§10.1). */
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
		advance(k, 20000);
		assert_false(bd_status(k, 0, TX_RING, t) & TX_R); /* cleared when sent (§10.3) */
		assert_int_equal(bd_status(k, 1, RX_RING, i), RX_L | (i == 3 ? RX_W : 0));
		assert_int_equal(bd_len(k, 1, RX_RING, i), 100 + f); /* CRCFWD: no FCS */
		assert_memory_equal(mem(k, 1, RX_BUF(i)), mem(k, 0, TX_BUF(t)), 100 + f);
		rx_arm(k, 1, i);
	}
	/* Broadcast: BC; without CRCFWD the length includes the FCS (§3.5). */
	wr(k, 1, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE);
	tx_to(k, 0, 80, bc, 0);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 2), RX_L | RX_BC);
	assert_int_equal(bd_len(k, 1, RX_RING, 2), 84);
	/* A bad CRC asked for with ABC arrives with CR (§3.2). */
	tx_to(k, 0, 80, mac_of[1], TX_ABC);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 3), RX_L | RX_CR | RX_W);
	assert_int_equal(rd(k, 1, R_CRC), 1);
}

static void test_rx_multi_bd_and_lg(void **state)
{
	struct kat *k = *state;

	macs_up(k, 8, RCR_CRCFWD);
	/* MRBR 256: a 1000-byte frame takes four BDs; non-last BDs hold MRBR bytes,
	 * the last the total (§3.5, MCUX). RXB per non-last BD, RXF once. */
	wr(k, 1, MRBR, 256);
	tx(k, 0, 1000);
	advance(k, 20000);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(bd_status(k, 1, RX_RING, i), 0);
		assert_int_equal(bd_len(k, 1, RX_RING, i), 256);
	}
	assert_int_equal(bd_status(k, 1, RX_RING, 3), RX_L);
	assert_int_equal(bd_len(k, 1, RX_RING, 3), 1000);
	assert_int_equal(rd(k, 1, EIR) & (EV_RXF | EV_RXB), EV_RXF | EV_RXB);
	/* Longer than MAX_FL: received with LG and BABR (§3.5, §10.10). */
	wr(k, 1, MRBR, MRBR_VAL);
	wr(k, 1, RCR, RCR_MAX_FL(500) | RCR_MII_MODE | RCR_CRCFWD);
	wr(k, 1, EIR, 0xFFFFFFFF);
	tx(k, 0, 600);
	advance(k, 20000);
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
	advance(k, 100000);
	/* Two BDs filled, the third frame found none: dropped, counted, RDAR cleared (§3.4). */
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
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_E);
	assert_int_equal(rd(k, 1, R_DROP), 2);
	/* Writing RDAR (any value) resumes at the next BD. */
	wr(k, 1, RDAR, 0);
	assert_int_equal(rd(k, 1, RDAR), DAR);
	tx(k, 0, 200);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	/* The injected fault drops and counts the same way, without stopping
	 * the DMA: the next frame goes into the empty BD. */
	rx_arm(k, 1, 0);
	assert_int_equal(enet_emu_inject(k->emu[1], ENET_EMU_FAULT_RX_EXHAUST, 1), 0);
	tx(k, 0, 200);
	advance(k, 20000);
	assert_int_equal(rd(k, 1, R_DROP), 3);
	assert_int_equal(rd(k, 1, RDAR), DAR);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_E | RX_W);
	tx(k, 0, 200);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_L | RX_W);
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
	advance(k, 100000);
	for (unsigned i = 0; i < 16; i++) {
		assert_false(bd_status(k, 0, TX_RING, i) & TX_R);
		n += !(bd_status(k, 1, RX_RING, i) & RX_E);
	}
	assert_int_equal(n, 16);
	assert_int_equal(rd(k, 0, T_PACKETS), 16);
}

/* ---- timing ---- */

static void check_tx_timing(struct kat *k, unsigned len, uint64_t byte_ns)
{
	uint64_t t0 = now(k), end1 = t0 + wire_ns(len, byte_ns);
	uint64_t end2 = end1 + 12 * byte_ns + wire_ns(len, byte_ns);
	unsigned a = tx(k, 0, len), b = tx(k, 0, len);

	/* Preamble+SFD, frame (padded to 60), FCS; then a 12-byte gap (TIPG). */
	advance_to(k, end1 - 1);
	assert_true(bd_status(k, 0, TX_RING, a) & TX_R);
	assert_true(bd_status(k, 1, RX_RING, k->rx_next[1] % k->rx_n) & RX_E);
	advance_to(k, end1);
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
	assert_false(bd_status(k, 1, RX_RING, k->rx_next[1] % k->rx_n) & RX_E);
	assert_int_equal(bd_len(k, 1, RX_RING, k->rx_next[1] % k->rx_n), len < 60 ? 60 : len);
	advance_to(k, end2 - 1);
	assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
	advance_to(k, end2);
	assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	for (unsigned i = 0; i < 2; i++)
		rx_arm(k, 1, k->rx_next[1]++ % k->rx_n);
	advance(k, 1000);
}

static void test_tx_timing_1g(void **state)
{
	struct kat *k = *state;

	macs_up(k, 4, RCR_CRCFWD);
	advance(k, 1000);
	check_tx_timing(k, 1514, 8); /* 12208 ns + 96 ns gap */
	check_tx_timing(k, 60, 8); /* 576 ns */
	check_tx_timing(k, 42, 8); /* padded to 60 */
	/* TIPG sets the gap in bytes. */
	wr(k, 0, TIPG, 20);
	{
		uint64_t t0 = now(k), end2 = t0 + 2 * wire_ns(100, 8) + 20 * 8;
		unsigned b;

		tx(k, 0, 100);
		b = tx(k, 0, 100);
		advance_to(k, end2 - 1);
		assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
		advance_to(k, end2);
		assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	}
}

static void test_tx_timing_100m(void **state)
{
	struct kat *k = *state;

	/* 100 Mb/s: ECR.SPEED clear, RMII_10T clear (§4.1, §4.2). */
	mac_up(k, 0, 4, RCR_CRCFWD, 0);
	mac_up(k, 1, 4, RCR_CRCFWD, 0);
	advance(k, 1000);
	check_tx_timing(k, 1514, 80); /* 122080 ns + 960 ns gap */
	check_tx_timing(k, 60, 80);
}

static void test_speed_mismatch(void **state)
{
	struct kat *k = *state;
	struct enet_line_stats ls;

	/* A 1000 Mb/s line and a MAC set to 100: its frames are lost. */
	mac_up(k, 0, 4, RCR_CRCFWD, 0);
	mac_up(k, 1, 4, RCR_CRCFWD, ECR_SPEED);
	tx(k, 0, 100);
	advance(k, 100000);
	enet_line_get_stats(k->line, &ls);
	assert_int_equal(ethdrv_counter_get(&ls.speed_mismatch), 1);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E);
}

/* ---- coalescing (§6) ---- */

static void test_coalesce_frames(void **state)
{
	struct kat *k = *state;
	uint64_t end4;

	macs_up(k, 8, RCR_CRCFWD);
	/* ICFT 4 frames, a long timer: RXF exactly when the 4th frame is in. */
	wr(k, 1, RXIC0, IC_EN | IC_CS | IC_FT(4) | 0xFFFF);
	advance(k, 1000);
	end4 = now(k) + 4 * wire_ns(100, 8) + 3 * 96;
	for (unsigned i = 0; i < 4; i++)
		tx(k, 0, 100);
	advance_to(k, end4 - 1);
	assert_false(bd_status(k, 1, RX_RING, 2) & RX_E);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, end4);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
	/* TX side without coalescing: TXF per frame. */
	assert_int_equal(rd(k, 0, EIR) & EV_TXF, EV_TXF);
}

static void test_coalesce_timer(void **state)
{
	struct kat *k = *state;
	/* 100 us at 125 MHz in units of 64 clocks: ceil? the register counts 195 units:
	 * 195 * 64 / 125 MHz = 99.84 us. */
	uint32_t ictt = 195;
	uint64_t t_frame, t_fire;

	macs_up(k, 8, RCR_CRCFWD);
	wr(k, 1, RXIC0, IC_EN | IC_CS | IC_FT(200) | ictt);
	advance(k, 1000);
	t_frame = now(k) + wire_ns(100, 8);
	t_fire = t_frame + 99840;
	tx(k, 0, 100);
	advance_to(k, t_frame);
	assert_false(bd_status(k, 1, RX_RING, 0) & RX_E);
	advance_to(k, t_fire - 1);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, t_fire);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
	/* The timer starts at the first unsignalled frame, not at later ones. */
	wr(k, 1, EIR, EV_RXF);
	t_frame = now(k) + wire_ns(100, 8);
	tx(k, 0, 100);
	advance_to(k, t_frame + 50000);
	tx(k, 0, 100);
	advance_to(k, t_frame + 99840 - 1);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, t_frame + 99840);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
	/* ICCS=0 counts the 125 MHz GMII TX clock at 1000 Mb/s: the same here. */
	wr(k, 1, RXIC0, IC_EN | IC_FT(200) | ictt);
	wr(k, 1, EIR, EV_RXF);
	t_frame = now(k) + wire_ns(100, 8);
	tx(k, 0, 100);
	advance_to(k, t_frame + 99840 - 1);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
	advance_to(k, t_frame + 99840);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, EV_RXF);
}

/* ---- MIB (§7) ---- */

static void test_mib(void **state)
{
	struct kat *k = *state;
	uint8_t bc[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

	macs_up(k, 8, RCR_CRCFWD);
	tx(k, 0, 60); /* 64 with FCS */
	tx(k, 0, 100); /* 104 */
	tx_to(k, 0, 1514, bc, 0); /* 1518 */
	advance(k, 100000);
	assert_int_equal(rd(k, 0, T_PACKETS), 3);
	assert_int_equal(rd(k, 0, T_BC), 1);
	assert_int_equal(rd(k, 0, T_OCTETS), 64 + 104 + 1518);
	assert_int_equal(rd(k, 0, T_FRAME_OK), 3);
	assert_int_equal(rd(k, 0, T_P64), 1);
	assert_int_equal(rd(k, 0, T_P65TO127), 1);
	assert_int_equal(rd(k, 0, T_P1024TO2047), 1);
	assert_int_equal(rd(k, 1, R_PACKETS), 3);
	assert_int_equal(rd(k, 1, R_OCTETS), 64 + 104 + 1518);
	assert_int_equal(rd(k, 1, R_FRAME_OK), 3);
	assert_int_equal(rd(k, 1, R_P64), 1);
	assert_int_equal(rd(k, 1, R_P1024TO2047), 1);
	/* MIB_DIS stops counting; counters are writable only while disabled. */
	wr(k, 0, T_PACKETS, 100);
	assert_int_equal(rd(k, 0, T_PACKETS), 3);
	wr(k, 0, MIBC, MIB_DIS);
	tx(k, 0, 60);
	advance(k, 10000);
	assert_int_equal(rd(k, 0, T_PACKETS), 3);
	wr(k, 0, T_PACKETS, 100);
	assert_int_equal(rd(k, 0, T_PACKETS), 100);
	wr(k, 0, MIBC, MIB_DIS | MIB_CLEAR);
	assert_int_equal(rd(k, 0, T_PACKETS), 0);
	assert_int_equal(rd(k, 0, T_OCTETS), 0);
	assert_int_equal(rd(k, 0, MIBC), 0xC0000000);
	/* Bit errors on the line: CR at the receiver, counted in R_CRC_ALIGN.
	 * Promiscuous, so that a flipped destination address is not filtered. */
	wr(k, 1, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD | RCR_PROM);
	assert_int_equal(enet_line_set_ber(k->line, 0, 0.01), 0);
	for (unsigned i = 0; i < 4; i++)
		tx(k, 0, 1000);
	advance(k, 100000);
	assert_int_equal(rd(k, 1, R_CRC_ALIGN), 4); /* 8032 bits at 1e-2: all hit */
	assert_int_equal(rd(k, 1, R_CRC), 4);
}

/* ---- bad descriptors (§10.11) ---- */

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
	advance(k, 100000);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E); /* nothing sent */
	/* A TX ring outside the region. */
	mac_up(k, 0, 4, RCR_CRCFWD, ECR_SPEED);
	wr(k, 0, TDSR, end);
	wr(k, 0, TDAR, DAR);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.dma_errors), 2);
	/* The injected bus error. */
	mac_up(k, 0, 4, RCR_CRCFWD, ECR_SPEED);
	assert_int_equal(enet_emu_inject(k->emu[0], ENET_EMU_FAULT_TX_BUS_ERROR, 0), 0);
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
	advance(k, 20000);
	assert_true(rd(k, 1, EIR) & EV_EBERR);
	assert_int_equal(rd(k, 1, ECR) & ECR_ETHEREN, 0);
	enet_emu_get_stats(k->emu[1], &st);
	assert_int_equal(ethdrv_counter_get(&st.dma_errors), 1);
	assert_int_equal(ethdrv_counter_get(&st.rx_frames), 0);
	/* Frames arriving while disabled are dropped and counted. */
	tx(k, 0, 64);
	advance(k, 20000);
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
	end = now(k) + wire_ns(1514, 8);
	a = tx(k, 0, 1514);
	b = tx(k, 0, 1514);
	advance(k, 100);
	/* GTS with a frame on the wire: GRA when it has left, the next stays queued. */
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	advance_to(k, end - 1);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
	advance_to(k, end);
	assert_true(rd(k, 0, EIR) & EV_GRA);
	assert_false(bd_status(k, 0, TX_RING, a) & TX_R);
	advance(k, 100000);
	assert_true(bd_status(k, 0, TX_RING, b) & TX_R);
	/* Clearing GTS resumes. */
	wr(k, 0, TCR, TCR_FDEN);
	advance(k, 100000);
	assert_false(bd_status(k, 0, TX_RING, b) & TX_R);
	/* No GRA without link (§10.7). */
	enet_line_set_link(k->line, false);
	wr(k, 0, EIR, EV_GRA);
	wr(k, 0, TCR, TCR_FDEN | TCR_GTS);
	assert_int_equal(rd(k, 0, EIR) & EV_GRA, 0);
}

static void test_disable_rewinds(void **state)
{
	struct kat *k = *state;

	macs_up(k, 4, RCR_CRCFWD);
	tx(k, 0, 100);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	/* ETHEREN 1->0 clears RDAR and rewinds to RDSR (§3.4, §10.5). */
	wr(k, 1, ECR, ECR_DBSWP | ECR_SPEED);
	assert_int_equal(rd(k, 1, RDAR), 0);
	rx_arm(k, 1, 0);
	wr(k, 1, ECR, ECR_ETHEREN | ECR_DBSWP | ECR_SPEED);
	wr(k, 1, RDAR, DAR);
	tx(k, 0, 100);
	advance(k, 20000);
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
	mac_up(k, 0, 4, RCR_CRCFWD | RCR_LOOP, ECR_SPEED);
	mac_up(k, 1, 4, RCR_CRCFWD, ECR_SPEED);
	tx_to(k, 0, 100, mac_of[0], 0);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 0, RX_RING, 0), RX_L);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E);
	/* Its receiver is then deaf to the line. */
	tx(k, 1, 100);
	advance(k, 20000);
	assert_true(bd_status(k, 0, RX_RING, 1) & RX_E);
	wr(k, 0, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD);
	/* Unicast to another station: refused, no BD used. */
	tx_to(k, 1, 100, other, 0);
	advance(k, 20000);
	enet_emu_get_stats(k->emu[0], &st);
	assert_int_equal(ethdrv_counter_get(&st.rx_dropped_filter), 1);
	/* Promiscuous: accepted with M (§3.2). */
	wr(k, 0, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD | RCR_PROM);
	tx_to(k, 1, 100, other, 0);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 0, RX_RING, 1), RX_L | RX_M);
	/* Multicast through the group hash: CRC-32 (reflected, no final
	 * inversion) of the address, top 6 bits select the bit (§1.1). */
	wr(k, 0, RCR, RCR_MAX_FL(1518) | RCR_MII_MODE | RCR_CRCFWD);
	tx_to(k, 1, 100, mc, 0);
	advance(k, 20000);
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
	advance(k, 20000);
	assert_int_equal(bd_status(k, 0, RX_RING, 2), RX_L | RX_MC);
}

static void test_enhanced_bd(void **state)
{
	struct kat *k = *state;

	/* EN1588: 32-byte BDs, events only for BDs with INT, BDU written (§3.3). */
	k->bd_size = 32;
	mac_up(k, 0, 4, RCR_CRCFWD, ECR_SPEED | ECR_EN1588);
	mac_up(k, 1, 4, RCR_CRCFWD, ECR_SPEED | ECR_EN1588);
	tx(k, 0, 100);
	advance(k, 20000);
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
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 1), RX_L);
	assert_int_equal(rd(k, 1, EIR) & EV_RXF, 0);
}

static void test_big_endian_bd(void **state)
{
	struct kat *k = *state;

	/* DBSWP=0: status BE16 at +0, length BE16 at +2, address BE32 (§3.1). */
	k->big_endian = true;
	mac_up(k, 0, 4, RCR_CRCFWD, ECR_SPEED);
	mac_up(k, 1, 4, RCR_CRCFWD, ECR_SPEED);
	tx(k, 0, 300);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
	assert_int_equal(bd_len(k, 1, RX_RING, 0), 300);
	assert_memory_equal(mem(k, 1, RX_BUF(0)), mem(k, 0, TX_BUF(0)), 300);
}

static void test_link_flap(void **state)
{
	struct kat *k = *state;
	struct enet_line_stats ls;

	macs_up(k, 4, RCR_CRCFWD);
	assert_int_equal(enet_line_flap(k->line, 50000), 0);
	assert_false(enet_line_link_up(k->line));
	tx(k, 0, 100);
	advance(k, 20000);
	enet_line_get_stats(k->line, &ls);
	assert_int_equal(ethdrv_counter_get(&ls.lost_link_down), 1);
	assert_true(bd_status(k, 1, RX_RING, 0) & RX_E);
	advance(k, 40000);
	assert_true(enet_line_link_up(k->line));
	tx(k, 0, 100);
	advance(k, 20000);
	assert_int_equal(bd_status(k, 1, RX_RING, 0), RX_L);
}

static void test_bad_arguments(void **state)
{
	struct kat *k = *state;
	struct enet_line_config lc;
	struct enet_emu_config ec;
	struct enet_line *l;
	struct enet_emu *e;

	enet_line_config_default(&lc);
	lc.speed_mbps = 2500;
	assert_int_equal(enet_line_new(&lc, &l), -EINVAL);
	enet_emu_config_default(&ec);
	assert_int_equal(enet_emu_new(&ec, k->line, 0, &e), -EBUSY);
	assert_int_equal(enet_emu_new(&ec, k->line, 2, &e), -EINVAL);
	ec.dma_size = 100;
	assert_int_equal(enet_emu_new(&ec, k->line, 0, &e), -EINVAL);
	assert_int_equal(enet_emu_inject(k->emu[0], ENET_EMU_FAULT_RX_EXHAUST, 0), -EINVAL);
	assert_int_equal(enet_line_set_ber(k->line, 0, 0.5), -EINVAL);
	assert_int_equal(enet_line_run_until(k->line, 0), 0);
	advance(k, 10);
	assert_int_equal(enet_line_run_until(k->line, 0), -EINVAL);
	assert_string_equal(enet_emu_fault_name(ENET_EMU_FAULT_RX_EXHAUST), "rx_exhaust");
	assert_null(enet_emu_fault_name(ENET_EMU_FAULT_COUNT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reset_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eir_w1c, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_rx_bits_and_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_multi_bd_and_lg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rdar_stop_resume, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_full_ring_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_timing_1g, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_timing_100m, setup_100, teardown),
		cmocka_unit_test_setup_teardown(test_speed_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalesce_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalesce_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mib, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_tx_address, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_rx_address, setup, teardown),
		cmocka_unit_test_setup_teardown(test_graceful_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disable_rewinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loopback_and_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enhanced_bd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_endian_bd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_flap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
