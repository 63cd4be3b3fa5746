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

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	pthread_mutex_t lock;
	uint64_t now;
	bool link;
	struct phy_emu_wire *wire;
	struct gbeth_emu *emu;
	struct ethdrv_mmio_bus bus;
	unsigned ntx;
	struct kat_tx tx[KAT_MAX_TX];
};

static inline uint64_t kat_now(void *ctx)
{
	return ((struct kat *)ctx)->now;
}

static inline void kat_send(void *ctx, const uint8_t *f, uint32_t len, uint64_t end)
{
	struct kat *k = ctx;

	if (k->ntx < KAT_MAX_TX && len <= sizeof(k->tx[0].data)) {
		memcpy(k->tx[k->ntx].data, f, len);
		k->tx[k->ntx].len = len;
		k->tx[k->ntx].end = end;
	}
	k->ntx++;
}

static inline bool kat_link(void *ctx)
{
	return ((struct kat *)ctx)->link;
}

static const struct gbeth_emu_port_ops kat_ops = { .now = kat_now,
						   .tx = kat_send,
						   .link_up = kat_link,
						   .realtime = false };

static inline struct kat *kat_new(bool phy, uint64_t mode_ns)
{
	struct kat *k = calloc(1, sizeof(*k));
	struct gbeth_emu_config c;

	assert_non_null(k);
	pthread_mutex_init(&k->lock, NULL);
	k->link = true;
	k->now = 1000;
	gbeth_emu_config_default(&c);
	c.mode_ns = mode_ns;
	c.dma_size = 1u << 20;
	if (phy)
		assert_int_equal(phy_emu_wire_new(false, &k->wire), 0);
	else
		c.phy_addr = GBETH_EMU_NO_PHY;
	assert_int_equal(gbeth_emu_new(&c, &kat_ops, k, &k->lock, k->wire, &k->emu), 0);
	gbeth_emu_get_bus(k->emu, &k->bus);
	return k;
}

static inline void kat_free(struct kat *k)
{
	gbeth_emu_free(k->emu);
	phy_emu_wire_free(k->wire);
	pthread_mutex_destroy(&k->lock);
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
	pthread_mutex_lock(&k->lock);
	k->now += ns;
	gbeth_emu_advance(k->emu, k->now);
	pthread_mutex_unlock(&k->lock);
}

/* A frame's last bit arrives now. */
static inline void deliver(struct kat *k, const uint8_t *f, uint32_t len, bool fcs_ok)
{
	pthread_mutex_lock(&k->lock);
	gbeth_emu_rx(k->emu, f, len, fcs_ok, k->now);
	pthread_mutex_unlock(&k->lock);
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
