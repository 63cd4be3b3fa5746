/* SPDX-License-Identifier: MIT */
/*
 * A GbEth model on a virtual clock with a recording host, for the model's
 * known-answer tests (test-gbeth-emu*.c): register access as a driver
 * does it, descriptors built by hand in the DMA region, frames the model
 * sends recorded with their end time. Register offsets and bit values are
 * typed from docs/gbeth.md, never taken from the model's headers.
 * Include cmocka.h first.
 */
#ifndef ETHDRV_TESTS_GBETH_KAT_H
#define ETHDRV_TESTS_GBETH_KAT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_engine.h"
#include "emu/fdx_line.h"
#include "emu/gbeth_emu.h"
#include "emu/phy_emu.h"

/* docs/gbeth.md §1 */
enum {
	CCC = 0x000,
	DBAT = 0x004,
	CSR = 0x00C,
	TCCR = 0x304,
	EIC = 0x358,
	EIS = 0x35C,
	RIC0 = 0x360,
	RIS0 = 0x364,
	RIC2 = 0x370,
	RIS2 = 0x374,
	TIC = 0x378,
	TIS = 0x37C,
	ISS = 0x380,
	ECMR = 0x500,
	RFLR = 0x508,
	ECSR = 0x510,
	ECSIPR = 0x518,
	PIR = 0x520,
	GECMR = 0x5B0,
	MAHR = 0x5C0,
	MALR = 0x5C8,
	TROCR = 0x700,
	CXR41 = 0x708,
	CXR42 = 0x710,
	CSR0 = 0x800,
	CSR2 = 0x808,
};
/* docs/gbeth.md §3.1 */
enum {
	FMID = 4,
	FSTART = 5,
	FEND = 6,
	FSINGLE = 7,
	LINKFIX = 9,
	EOS = 0xA,
	FEMPTY = 0xC,
	EEMPTY = 3
};
#define OPS_RESET 1u
#define OPS_CONFIG 2u
#define OPS_OPERATION 4u
#define ECMR_TE (1u << 5)
#define ECMR_RE (1u << 6)
#define ECMR_PRM 1u
#define GECMR_1000 (2u << 4)
#define GECMR_100 (1u << 4)

#define KAT_MAX_TX 64

struct kat_tx {
	uint8_t data[2048];
	uint32_t len;
	uint64_t end;
};

struct kat {
	struct fdx_line *line; /* virtual clock */
	struct emu_engine *eng;
	uint64_t now;
	struct gbeth_emu *emu; /* port 0 */
	struct ethdrv_mmio_bus bus;
	uint64_t sink_free_at; /* the sink's transmitter timeline */
	unsigned ntx; /* frames the sink (port 1) received */
	struct kat_tx tx[KAT_MAX_TX];
};

/* ---- the sink: a bare MAC on port 1 recording what the GbEth sends ---- */

static inline void sink_rx(void *ctx, uint8_t *f, uint32_t len, enum fdx_fcs fcs, uint64_t t)
{
	struct kat *k = ctx;

	(void)fcs;
	if (k->ntx < KAT_MAX_TX && len <= sizeof(k->tx[0].data)) {
		memcpy(k->tx[k->ntx].data, f, len);
		k->tx[k->ntx].len = len;
		k->tx[k->ntx].end = t;
	}
	k->ntx++;
}

static inline bool sink_from_line(void *ctx)
{
	(void)ctx;
	return true;
}

static inline uint64_t sink_byte_ns(void *ctx)
{
	return fdx__byte_ns(((struct kat *)ctx)->line);
}

static inline unsigned sink_gap(void *ctx)
{
	(void)ctx;
	return 12;
}

static inline uint64_t sink_free_at(void *ctx)
{
	return ((struct kat *)ctx)->sink_free_at;
}

static inline void sink_set_free_at(void *ctx, uint64_t t)
{
	((struct kat *)ctx)->sink_free_at = t;
}

static const struct fdx_port_ops sink_ops = {
	.rx_frame = sink_rx,
	.rx_from_line = sink_from_line,
	.byte_ns = sink_byte_ns,
	.gap_bytes = sink_gap,
	.tx_free_at = sink_free_at,
	.set_tx_free_at = sink_set_free_at,
};

static inline struct kat *kat_new_speed(bool phy, uint64_t mode_ns, unsigned mbps)
{
	struct kat *k = calloc(1, sizeof(*k));
	struct fdx_line_config lc;
	struct gbeth_emu_config c;

	assert_non_null(k);
	fdx_line_config_default(&lc);
	lc.realtime = false;
	lc.speed_mbps = mbps;
	assert_int_equal(fdx_line_new(&lc, &k->line), 0);
	k->eng = fdx_line_engine(k->line);
	gbeth_emu_config_default(&c);
	c.mode_ns = mode_ns;
	c.dma_size = 1u << 20;
	if (!phy)
		c.phy_addr = GBETH_EMU_NO_PHY;
	assert_int_equal(gbeth_emu_new(&c, k->line, 0, &k->emu), 0);
	gbeth_emu_get_bus(k->emu, &k->bus);
	emu_engine_lock(k->eng);
	assert_int_equal(fdx__attach(k->line, 1, &sink_ops, k, false), 0);
	emu_engine_unlock(k->eng);
	k->now = 1000;
	assert_int_equal(fdx_line_run_until(k->line, k->now), 0);
	return k;
}

static inline struct kat *kat_new(bool phy, uint64_t mode_ns)
{
	return kat_new_speed(phy, mode_ns, 1000);
}

static inline void kat_free(struct kat *k)
{
	emu_engine_lock(k->eng);
	fdx__detach(k->line, 1, false);
	emu_engine_unlock(k->eng);
	gbeth_emu_free(k->emu);
	fdx_line_free(k->line);
	free(k);
}

static inline uint32_t rd(struct kat *k, uint32_t off)
{
	return k->bus.ops->read32(k->bus.ctx, off);
}

static inline void wr(struct kat *k, uint32_t off, uint32_t v)
{
	k->bus.ops->write32(k->bus.ctx, off, v);
}

static inline void advance(struct kat *k, uint64_t ns)
{
	k->now += ns;
	assert_int_equal(fdx_line_run_until(k->line, k->now), 0);
}

/* A frame from the sink whose last bit arrives now. */
static inline void deliver(struct kat *k, const uint8_t *f, uint32_t len, bool fcs_ok)
{
	uint8_t buf[GBETH_EMU_RX_MAX];

	memcpy(buf, f, len);
	emu_engine_lock(k->eng);
	emu_engine_sync(k->eng, false);
	fdx__send(k->line, 1, buf, len, fcs_ok ? FDX_FCS_APPEND : FDX_FCS_BAD, k->now);
	emu_engine_unlock(k->eng);
}

/* ---- DMA memory ---- */

static inline uint8_t *dma(struct kat *k, uint32_t off)
{
	return (uint8_t *)k->bus.dma.virt + off;
}

static inline uint32_t bus_of(struct kat *k, uint32_t off)
{
	return (uint32_t)k->bus.dma.bus + off;
}

/* Descriptor at DMA offset @off: DS, MSC, DT, DPTR (docs/gbeth.md §3.1). */
static inline void desc_set(struct kat *k, uint32_t off, unsigned dt, uint16_t ds, uint32_t ptr)
{
	uint8_t *d = dma(k, off);

	d[0] = (uint8_t)ds;
	d[1] = (uint8_t)(ds >> 8);
	d[2] = 0;
	d[3] = (uint8_t)(dt << 4);
	memcpy(d + 4, &ptr, 4);
}

static inline unsigned desc_dt(struct kat *k, uint32_t off)
{
	return dma(k, off)[3] >> 4;
}

static inline unsigned desc_ds(struct kat *k, uint32_t off)
{
	return (dma(k, off)[0] | dma(k, off)[1] << 8) & 0xFFF;
}

static inline unsigned desc_msc(struct kat *k, uint32_t off)
{
	return dma(k, off)[2];
}

/* The layout the KATs use: DBAT table at 0, TX ring at 0x1000, RX ring at 0x2000, buffers from 0x10000. */
#define KAT_DBAT 0x0u
#define KAT_TXR 0x1000u
#define KAT_RXR 0x2000u
#define KAT_BUF 0x10000u

static inline void kat_dbat(struct kat *k)
{
	for (unsigned i = 0; i < 22; i++)
		desc_set(k, KAT_DBAT + i * 8, EOS, 0, 0);
	desc_set(k, KAT_DBAT + 0 * 8, LINKFIX, 0, bus_of(k, KAT_TXR));
	desc_set(k, KAT_DBAT + 4 * 8, LINKFIX, 0, bus_of(k, KAT_RXR));
}

/* CONFIG, DBAT, enables, OPERATION, E-MAC on at @gecmr; each mode change waited for. */
static inline void kat_bring_up(struct kat *k, uint64_t mode_ns, uint32_t gecmr)
{
	wr(k, CCC, 1);
	advance(k, mode_ns);
	kat_dbat(k);
	wr(k, DBAT, bus_of(k, KAT_DBAT));
	wr(k, RIC0, 1);
	wr(k, RIC2, 1);
	wr(k, TIC, 1);
	wr(k, CCC, 2);
	advance(k, mode_ns);
	wr(k, GECMR, gecmr);
	wr(k, RFLR, 8192 + 4);
	wr(k, ECMR, ECMR_TE | ECMR_RE | ECMR_PRM);
}

#endif /* ETHDRV_TESTS_GBETH_KAT_H */
