/* SPDX-License-Identifier: MIT */
/*
 * The eTSEC constants of docs/etsec.md written out again for the known-answer
 * tests (never taken from the model's or the driver's headers, so that a
 * wrong constant cannot hide in both), and two models on a full-duplex line
 * (fdx_line.h) with a virtual clock.
 */
#ifndef ETHDRV_TESTS_ETSEC_KAT_H
#define ETHDRV_TESTS_ETSEC_KAT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/etsec_emu.h"
#include "emu/fdx_line.h"

/* docs/etsec.md §1.1 */
enum {
	K_ID = 0x000,
	K_ID2 = 0x004,
	K_IEVENT = 0x010,
	K_IMASK = 0x014,
	K_ECNTRL = 0x020,
	K_MINFLR = 0x024,
	K_DMACTRL = 0x02C,
	K_TCTRL = 0x100,
	K_TSTAT = 0x104,
	K_TXIC = 0x110,
	K_TQUEUE = 0x114,
	K_TBPTR0 = 0x184,
	K_TBASE0 = 0x204,
	K_RCTRL = 0x300,
	K_RSTAT = 0x304,
	K_RXIC = 0x310,
	K_RQUEUE = 0x314,
	K_MRBLR = 0x340,
	K_RBPTR0 = 0x384,
	K_RBASE0 = 0x404,
	K_MACCFG1 = 0x500,
	K_MACCFG2 = 0x504,
	K_IPGIFG = 0x508,
	K_HAFDUP = 0x50C,
	K_MAXFRM = 0x510,
	K_MIIMCFG = 0x520,
	K_MIIMCOM = 0x524,
	K_MIIMADD = 0x528,
	K_MIIMCON = 0x52C,
	K_MIIMSTAT = 0x530,
	K_MIIMIND = 0x534,
	K_STNADDR1 = 0x540,
	K_STNADDR2 = 0x544,
	K_TR64 = 0x680,
	K_TR127 = 0x684,
	K_RBYT = 0x69C,
	K_RPKT = 0x6A0,
	K_RDRP = 0x6DC,
	K_TBYT = 0x6E0,
	K_TPKT = 0x6E4,
	K_CAR1 = 0x730,
	K_CAM1 = 0x738,
	K_CAM2 = 0x73C,
	K_GADDR0 = 0x880,
	K_A002 = 0xD1C,
};

/* docs/etsec.md §2 */
#define K_EV_BABR 0x80000000u
#define K_EV_BSY 0x20000000u
#define K_EV_EBERR 0x10000000u
#define K_EV_MSRO 0x04000000u
#define K_EV_GTSC 0x02000000u
#define K_EV_TXE 0x00400000u
#define K_EV_TXB 0x00200000u
#define K_EV_TXF 0x00100000u
#define K_EV_XFUN 0x00010000u
#define K_EV_RXB 0x00008000u
#define K_EV_MMRD 0x00000400u
#define K_EV_MMWR 0x00000200u
#define K_EV_GRSC 0x00000100u
#define K_EV_RXF 0x00000080u
/* docs/etsec.md §3.2, §3.3 */
#define K_TX_R 0x8000u
#define K_TX_PADCRC 0x4000u
#define K_TX_W 0x2000u
#define K_TX_I 0x1000u
#define K_TX_L 0x0800u
#define K_TX_TC 0x0400u
#define K_RX_E 0x8000u
#define K_RX_W 0x2000u
#define K_RX_I 0x1000u
#define K_RX_L 0x0800u
#define K_RX_F 0x0400u
#define K_RX_M 0x0100u
#define K_RX_BC 0x0080u
#define K_RX_LG 0x0020u
#define K_RX_CR 0x0004u
#define K_RX_OV 0x0002u
/* docs/etsec.md §3.4, §4 */
#define K_THLT0 0x80000000u
#define K_QHLT0 0x00800000u
#define K_RXF0 0x00000080u
#define K_SOFT_RESET 0x80000000u
#define K_RX_EN 0x4u
#define K_TX_EN 0x1u
#define K_MACCFG2_GMII 0x7205u
#define K_MACCFG2_MII100 0x7105u
#define K_STEN 0x1000u
#define K_R100M 0x8u
#define K_LE 0x8000u
#define K_GRS 0x10u
#define K_GTS 0x08u
#define K_PROM 0x8u
/* docs/etsec.md §6 */
#define K_IC(frames, ticks) (0x80000000u | ((uint32_t)(frames) << 21) | (uint32_t)(ticks))

#define K_TBASE 0x40000000u /* ring addresses in the default DMA region */
#define K_RBASE 0x40001000u
#define K_BUF(n) (0x40010000u + (uint32_t)(n)*0x800u)

struct kat {
	struct fdx_line *line; /* virtual clock */
	struct etsec_emu *emu[2];
	struct ethdrv_mmio_bus bus[2];
};

/* The line's clock. */
static inline uint64_t kat_now(struct kat *k)
{
	return fdx_line_now(k->line);
}

/* Frames that reached model @n. */
static inline uint64_t kat_delivered(struct kat *k, unsigned n)
{
	struct fdx_line_stats st;

	fdx_line_get_stats(k->line, &st);
	return ethdrv_counter_get(&st.frames[!n]);
}

/* Move the virtual clock to @t, every event in time order. */
static inline void kat_run_until(struct kat *k, uint64_t t)
{
	int ret = fdx_line_run_until(k->line, t);

	(void)ret;
}

static inline void kat_advance(struct kat *k, uint64_t dt)
{
	kat_run_until(k, kat_now(k) + dt);
}

static inline int kat_setup_line(void **state, const struct etsec_emu_config *cfg, unsigned mbps,
				 bool realtime)
{
	struct kat *k = calloc(1, sizeof(*k));
	struct fdx_line_config lc;

	if (!k)
		return -1;
	fdx_line_config_default(&lc);
	lc.realtime = realtime;
	lc.speed_mbps = mbps;
	if (fdx_line_new(&lc, &k->line))
		return -1;
	for (unsigned n = 0; n < 2; n++) {
		if (etsec_emu_new(cfg, k->line, n, &k->emu[n]))
			return -1;
		etsec_emu_get_bus(k->emu[n], &k->bus[n]);
	}
	*state = k;
	return 0;
}

static inline int kat_setup_cfg(void **state, const struct etsec_emu_config *cfg)
{
	return kat_setup_line(state, cfg, 1000, false);
}

/* A 100 Mb/s line, models without PHYs. */
static inline int kat_setup_100(void **state)
{
	struct etsec_emu_config cfg;

	etsec_emu_config_default(&cfg);
	cfg.phy_addr = ETSEC_EMU_NO_PHY;
	return kat_setup_line(state, &cfg, 100, false);
}

/* Two models without PHYs on a 1 Gb/s line, virtual (or @realtime) clock. */
static inline int kat_setup_rt(void **state, bool realtime)
{
	struct etsec_emu_config cfg;

	etsec_emu_config_default(&cfg);
	cfg.phy_addr = ETSEC_EMU_NO_PHY;
	return kat_setup_line(state, &cfg, 1000, realtime);
}

static inline int kat_setup(void **state)
{
	return kat_setup_rt(state, false);
}

static inline int kat_teardown(void **state)
{
	struct kat *k = *state;

	etsec_emu_free(k->emu[0]);
	etsec_emu_free(k->emu[1]);
	fdx_line_free(k->line);
	free(k);
	return 0;
}

static inline uint32_t rd(struct kat *k, unsigned n, uint32_t off)
{
	return etsec_emu_read32(k->emu[n], off);
}

static inline void wr(struct kat *k, unsigned n, uint32_t off, uint32_t val)
{
	etsec_emu_write32(k->emu[n], off, val);
}

/* CPU address of bus address @bus in model @n's region. */
static inline uint8_t *mem(struct kat *k, unsigned n, uint32_t bus)
{
	return (uint8_t *)k->bus[n].dma.virt + (bus - k->bus[n].dma.bus);
}

/* A BD as raw bytes: big-endian (docs/etsec.md §3.1) unless @le. */
static inline void bd_raw(uint8_t *p, uint16_t st, uint16_t len, uint32_t addr, int le)
{
	uint8_t b[8] = { (uint8_t)(st >> 8),   (uint8_t)st,	      (uint8_t)(len >> 8),
			 (uint8_t)len,	       (uint8_t)(addr >> 24), (uint8_t)(addr >> 16),
			 (uint8_t)(addr >> 8), (uint8_t)addr };

	if (le) {
		uint8_t l[8] = { b[1], b[0], b[3], b[2], b[7], b[6], b[5], b[4] };

		memcpy(p, l, 8);
	} else {
		memcpy(p, b, 8);
	}
}

static inline uint16_t bd_st(const uint8_t *p, int le)
{
	return le ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint16_t bd_len(const uint8_t *p, int le)
{
	return le ? (uint16_t)(p[2] | p[3] << 8) : (uint16_t)(p[2] << 8 | p[3]);
}

/* Both MACs up at 1 Gb/s with @nrx RX BDs of 1536 bytes (E|I, W on the last). */
static inline void kat_macs_up(struct kat *k, unsigned nrx, int le)
{
	for (unsigned n = 0; n < 2; n++) {
		wr(k, n, K_DMACTRL, 0xC3u | (le ? K_LE : 0));
		wr(k, n, K_MACCFG2, K_MACCFG2_GMII);
		wr(k, n, K_ECNTRL, K_STEN);
		wr(k, n, K_MRBLR, 1536);
		wr(k, n, K_MAXFRM, 1536);
		wr(k, n, K_RCTRL, K_PROM);
		for (unsigned i = 0; i < nrx; i++)
			bd_raw(mem(k, n, K_RBASE + 8 * i),
			       (uint16_t)(K_RX_E | K_RX_I | (i == nrx - 1 ? K_RX_W : 0)), 0,
			       K_BUF(64 + i), le);
		wr(k, n, K_TBASE0, K_TBASE);
		wr(k, n, K_RBASE0, K_RBASE);
		wr(k, n, K_MACCFG1, K_RX_EN | K_TX_EN);
	}
}

/* Queue a @len-byte frame (no FCS) in TX BD @i of model @n with @flags. */
static inline void kat_tx(struct kat *k, unsigned n, unsigned i, uint32_t len, uint16_t flags,
			  int le)
{
	uint8_t *buf = mem(k, n, K_BUF(i));

	memset(buf, 0, len);
	memset(buf, 0xFF, 6); /* broadcast */
	buf[6] = 0x02;
	buf[11] = (uint8_t)n;
	buf[12] = 0x88;
	buf[13] = 0xB5;
	for (uint32_t b = 14; b < len; b++)
		buf[b] = (uint8_t)(b * 7 + i);
	bd_raw(mem(k, n, K_TBASE + 8 * i), (uint16_t)(K_TX_R | flags), (uint16_t)len, K_BUF(i), le);
}

static inline int irq_readable(struct kat *k, unsigned n, unsigned line)
{
	return etsec_emu_irq_asserted(k->emu[n], (enum etsec_emu_irq)line);
}

#endif /* ETHDRV_TESTS_ETSEC_KAT_H */
