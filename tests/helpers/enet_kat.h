/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the ENET model's known-answer tests (test-enet-emu-*.c): the
 * register offsets, bits and reset values typed from docs/enet.md (never
 * the model's or the driver's headers), two models on a virtual-clock
 * line, and a test that plays the driver through the bus and the DMA
 * region. All static inline. Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_ENET_KAT_H
#define ETHDRV_TESTS_ENET_KAT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/enet_emu.h"
#include "ethdrv/mmio.h"

/* Registers (docs/enet.md §1.1). */
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
/* MIB (docs/enet.md §7). */
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
/* Bits (docs/enet.md §2, docs/enet.md §3.2, docs/enet.md §4, docs/enet.md §6). */
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
	struct fdx_line *line;
	struct enet_emu *emu[2];
	struct ethdrv_mmio_bus bus[2];
	unsigned bd_size; /* 8 legacy, 32 enhanced */
	bool big_endian; /* DBSWP=0 */
	unsigned rx_n; /* RX BDs in the ring */
	unsigned tx_next[2]; /* next TX BD to use */
	unsigned rx_next[2]; /* next RX BD to read */
};

/*
 * Two models at @speed on a virtual line. @with_phy: each board has its
 * AR8031 at the default address and the link comes up once they negotiate;
 * without, MAC to MAC, the link is up from t = 0 (the line timing KATs).
 * @mscr_frame: the MDIO block's MSCR-write frame (docs/mdio.md §3.2).
 */
static inline int setup_board(void **state, unsigned speed, bool with_phy, bool mscr_frame)
{
	struct kat *k = calloc(1, sizeof(*k));
	struct fdx_line_config lc;
	struct enet_emu_config ec;

	assert_non_null(k);
	fdx_line_config_default(&lc);
	lc.realtime = false;
	lc.speed_mbps = speed;
	assert_int_equal(fdx_line_new(&lc, &k->line), 0);
	enet_emu_config_default(&ec);
	ec.dma_size = 1u << 20;
	ec.clk_ahb_hz = CLK_HZ;
	ec.mdio.mscr_starts_frame = mscr_frame;
	if (!with_phy)
		ec.phy_addr = ENET_EMU_NO_PHY;
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(enet_emu_new(&ec, k->line, i, &k->emu[i]), 0);
		enet_emu_get_bus(k->emu[i], &k->bus[i]);
	}
	k->bd_size = 8;
	*state = k;
	return 0;
}

static inline int setup_speed(void **state, unsigned speed)
{
	return setup_board(state, speed, false, true);
}

static inline int setup(void **state)
{
	return setup_speed(state, 1000);
}

static inline int setup_100(void **state)
{
	return setup_speed(state, 100);
}

static inline int teardown(void **state)
{
	struct kat *k = *state;

	for (unsigned i = 0; i < 2; i++)
		enet_emu_free(k->emu[i]);
	fdx_line_free(k->line);
	free(k);
	return 0;
}

static inline uint32_t rd(struct kat *k, unsigned n, uint32_t off)
{
	return ethdrv_mmio_read32(&k->bus[n], off);
}

static inline void wr(struct kat *k, unsigned n, uint32_t off, uint32_t v)
{
	ethdrv_mmio_write32(&k->bus[n], off, v);
}

static inline uint8_t *mem(struct kat *k, unsigned n, uint32_t off)
{
	return (uint8_t *)k->bus[n].dma.virt + off;
}

static inline uint32_t bus_addr(struct kat *k, unsigned n, uint32_t off)
{
	return (uint32_t)(k->bus[n].dma.bus + off);
}

static inline uint64_t now(struct kat *k)
{
	return fdx_line_now(k->line);
}

static inline void advance_to(struct kat *k, uint64_t t)
{
	assert_int_equal(fdx_line_run_until(k->line, t), 0);
}

static inline void advance(struct kat *k, uint64_t ns)
{
	advance_to(k, now(k) + ns);
}

/* A BD in the layout of docs/enet.md §3.1: DBSWP=1 LE16 length, LE16 status, LE32 address. */
static inline void bd_put(struct kat *k, unsigned n, uint32_t ring, unsigned i, uint16_t st,
			  uint16_t len, uint32_t addr)
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

static inline uint16_t bd_status(struct kat *k, unsigned n, uint32_t ring, unsigned i)
{
	uint8_t *p = mem(k, n, ring + i * k->bd_size);

	if (k->big_endian)
		return __builtin_bswap16(__atomic_load_n((uint16_t *)p, __ATOMIC_ACQUIRE));
	return __atomic_load_n((uint16_t *)(p + 2), __ATOMIC_ACQUIRE);
}

static inline uint16_t bd_len(struct kat *k, unsigned n, uint32_t ring, unsigned i)
{
	uint16_t l;

	memcpy(&l, mem(k, n, ring + i * k->bd_size) + (k->big_endian ? 2 : 0), 2);
	return k->big_endian ? __builtin_bswap16(l) : l;
}

static inline uint32_t bd_word(struct kat *k, unsigned n, uint32_t ring, unsigned i, unsigned at)
{
	uint32_t w;

	memcpy(&w, mem(k, n, ring + i * k->bd_size + at), 4);
	return k->big_endian ? __builtin_bswap32(w) : w;
}

static inline void bd_set_word(struct kat *k, unsigned n, uint32_t ring, unsigned i, unsigned at,
			       uint32_t w)
{
	if (k->big_endian)
		w = __builtin_bswap32(w);
	memcpy(mem(k, n, ring + i * k->bd_size + at), &w, 4);
}

static inline void rx_arm(struct kat *k, unsigned n, unsigned i)
{
	uint16_t w = i == k->rx_n - 1 ? RX_W : 0;

	if (k->bd_size == 32)
		bd_set_word(k, n, RX_RING, i, 8, ESC_RX_INT);
	bd_put(k, n, RX_RING, i, RX_E | w, 0, bus_addr(k, n, RX_BUF(i)));
}

/* Bring a MAC up in the order of docs/enet.md §9.1, with @rx_n RX BDs and @rcr_extra. */
static inline void mac_up(struct kat *k, unsigned n, unsigned rx_n, uint32_t rcr_extra,
			  uint32_t ecr_extra)
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

static inline void macs_up(struct kat *k, unsigned rx_n, uint32_t rcr_extra)
{
	mac_up(k, 0, rx_n, rcr_extra, ECR_SPEED);
	mac_up(k, 1, rx_n, rcr_extra, ECR_SPEED);
}

/* Frame @len bytes from n to the peer (or @da), byte i = seed + i after the header. */
static inline void fill_frame(uint8_t *p, unsigned len, const uint8_t *da, const uint8_t *sa,
			      uint8_t seed)
{
	memcpy(p, da, 6);
	memcpy(p + 6, sa, 6);
	p[12] = 0x88;
	p[13] = 0xB5;
	for (unsigned i = 14; i < len; i++)
		p[i] = (uint8_t)(seed + i);
}

/* Queue one frame on MAC n's next TX BD and ring TDAR; returns the BD index. */
static inline unsigned tx_to(struct kat *k, unsigned n, unsigned len, const uint8_t *da,
			     uint16_t extra)
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

static inline unsigned tx(struct kat *k, unsigned n, unsigned len)
{
	return tx_to(k, n, len, mac_of[!n], 0);
}

static inline bool irq_readable(struct kat *k, unsigned n)
{
	struct pollfd p = { .fd = k->bus[n].irq_fd[0], .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* Wire time of a frame of @len bytes without FCS (docs/enet.md §12). */
static inline uint64_t wire_ns(unsigned len, uint64_t byte_ns)
{
	unsigned l = len < 60 ? 60 : len;

	return (8 + l + 4) * byte_ns;
}

#endif /* ETHDRV_TESTS_ENET_KAT_H */
