/* SPDX-License-Identifier: MIT */
/*
 * Test harness for the LAN8650 model (src/emu/lan865x_emu*): the TC6 byte
 * stream encoded by hand from docs/tc6.md, a fake medium the test plays itself,
 * and a fixture holding one model. The helpers share no code with the driver or
 * with the model (a bitwise CRC here, a table CRC in the model), so a wrong
 * encoding cannot cancel out.
 *
 * Header-only (static inline) because every .c file in tests/helpers is linked
 * into every test program, also those built without the library.
 */
#ifndef ETHDRV_TESTS_LAN865X_EMU_HARNESS_H
#define ETHDRV_TESTS_LAN865X_EMU_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "emu/lan865x_emu.h"

#define CS 64u /* chunk payload (CPS=6) */
#define CH (CS + 4u) /* chunk on the wire */

/* ---- encoding helpers (docs/tc6.md §1-§2, written independently) ---- */

static inline unsigned ones(uint32_t w)
{
	unsigned n = 0;

	for (; w; w >>= 1)
		n += w & 1;
	return n;
}

/* Set bit 0 so the word has an odd number of ones (docs/tc6.md §1.3). */
static inline uint32_t with_parity(uint32_t w)
{
	w &= ~1u;
	return (ones(w) % 2 == 0) ? (w | 1u) : w;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Control header (docs/tc6.md §1.2). */
static inline uint32_t ctrl_hdr(int wnr, int aid, unsigned mms, unsigned addr, unsigned n)
{
	return with_parity((uint32_t)wnr << 29 | (uint32_t)aid << 28 | mms << 24 | addr << 8 |
			   (n - 1) << 1);
}

/* Data header (docs/tc6.md §2.2). */
static inline uint32_t data_hdr(int dv, int sv, unsigned swo, int ev, unsigned ebo, int norx)
{
	return with_parity(1u << 31 | (uint32_t)norx << 29 | (uint32_t)dv << 21 |
			   (uint32_t)sv << 20 | swo << 16 | (uint32_t)ev << 14 | ebo << 8);
}

/* Footer fields (docs/tc6.md §2.3). */
#define F_EXST(f) (((f) >> 31) & 1)
#define F_HDRB(f) (((f) >> 30) & 1)
#define F_SYNC(f) (((f) >> 29) & 1)
#define F_RCA(f) (((f) >> 24) & 0x1F)
#define F_DV(f) (((f) >> 21) & 1)
#define F_SV(f) (((f) >> 20) & 1)
#define F_SWO(f) (((f) >> 16) & 0xF)
#define F_FD(f) (((f) >> 15) & 1)
#define F_EV(f) (((f) >> 14) & 1)
#define F_EBO(f) (((f) >> 8) & 0x3F)
#define F_TXC(f) (((f) >> 1) & 0x1F)

/* IEEE 802.3 CRC-32, one bit at a time. */
static inline uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ ((c & 1) ? 0xEDB88320u : 0);
	}
	return ~c;
}

static inline void add_fcs(uint8_t *f, size_t n)
{
	uint32_t c = crc_bitwise(f, n);

	for (int i = 0; i < 4; i++)
		f[n + i] = (uint8_t)(c >> (8 * i));
}

static inline bool fcs_good(const uint8_t *f, size_t n)
{
	uint32_t c = crc_bitwise(f, n - 4);

	return f[n - 4] == (uint8_t)c && f[n - 3] == (uint8_t)(c >> 8) &&
	       f[n - 2] == (uint8_t)(c >> 16) && f[n - 1] == (uint8_t)(c >> 24);
}

static const uint8_t MAC_US[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t MAC_PEER[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

/* A frame of @len bytes before FCS to @da, payload bytes i*7+seed; returns len + 4. */
static inline size_t make_frame(uint8_t *f, size_t len, const uint8_t *da, uint8_t seed)
{
	memcpy(f, da, 6);
	memcpy(f + 6, MAC_PEER, 6);
	f[12] = 0x88;
	f[13] = 0xB5;
	for (size_t i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + seed);
	add_fcs(f, len);
	return len + 4;
}

/* ---- a fake medium: the test plays the wire ---- */

struct fake_medium {
	struct emu_medium base;
	const struct emu_port_ops *ops;
	void *node;
	unsigned announcements;
	/* Called at each announcement (in the middle of the transfer that made
	 * the frame sendable, outside the model's lock), or NULL. */
	void (*on_announce)(struct fake_medium *fm);
	void *hook_ctx; /* for on_announce */
};

/* An on_announce hook: take the frames off the wire and answer each with a
 * 60-byte RX frame to MAC_US at once, counting the answers in *(unsigned
 * *)fm->hook_ctx: IRQ_N is released by that transfer's data header and
 * asserted again before the transfer ends. */
static inline void fm_echo(struct fake_medium *fm);

static inline int fm_attach(struct emu_medium *m, unsigned port, const struct emu_port_ops *ops,
			    void *node)
{
	struct fake_medium *fm = (struct fake_medium *)m;

	fm->ops = ops;
	fm->node = node;
	return 0;
}

static inline void fm_detach(struct emu_medium *m, unsigned port)
{
	((struct fake_medium *)m)->ops = NULL;
}

static inline void fm_announce_tx(struct emu_medium *m, unsigned port)
{
	struct fake_medium *fm = (struct fake_medium *)m;

	fm->announcements++;
	if (fm->on_announce)
		fm->on_announce(fm);
}

static inline void fm_destroy(struct emu_medium *m)
{
}

static const struct emu_medium_ops fm_ops = { fm_attach, fm_detach, fm_announce_tx, fm_destroy };

/* ---- fixture ---- */

struct emu_fixture {
	struct lan865x_emu *emu;
	struct fake_medium fm;
	uint8_t tx[8192], rx[8192];
};

/* A fixture whose model has @cfg (realtime must be false). */
static inline int fixture_make_cfg(void **state, const struct lan865x_emu_config *cfg)
{
	struct emu_fixture *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	assert_false(cfg->realtime);
	assert_int_equal(lan865x_emu_new(cfg, &t->emu), 0);
	t->fm.base.ops = &fm_ops;
	assert_int_equal(lan865x_emu_attach(t->emu, &t->fm.base, 0), 0);
	*state = t;
	return 0;
}

/* What a fixture's model differs in from the defaults (virtual time). */
struct fixture_variant {
	unsigned rx_buf_chunks; /* 0 = default */
	enum lan865x_emu_sv_open sv_open;
	bool errata_s3;
};

static inline int fixture_make_variant(void **state, const struct fixture_variant *v)
{
	struct lan865x_emu_config cfg;

	lan865x_emu_config_default(&cfg);
	cfg.realtime = false;
	if (v->rx_buf_chunks)
		cfg.rx_buf_chunks = v->rx_buf_chunks;
	cfg.sv_open = v->sv_open;
	cfg.errata_s3 = v->errata_s3;
	return fixture_make_cfg(state, &cfg);
}

static inline int fixture_make(void **state, unsigned rx_buf_chunks)
{
	return fixture_make_variant(state,
				    &(struct fixture_variant){ .rx_buf_chunks = rx_buf_chunks });
}

/* Setup for VARIANT_TEST: the test's initial state is its struct fixture_variant. */
static inline int fixture_setup_variant(void **state)
{
	return fixture_make_variant(state, *state);
}

static inline int fixture_setup(void **state)
{
	return fixture_make(state, 0);
}

static inline int fixture_teardown(void **state)
{
	struct emu_fixture *t = *state;

	lan865x_emu_free(t->emu);
	assert_null(t->fm.ops); /* free detached us */
	free(t);
	return 0;
}

static inline void spi_xfer(struct emu_fixture *t, size_t len)
{
	assert_int_equal(lan865x_emu_transfer(t->emu, t->tx, t->rx, len), 0);
}

/* Unprotected or protected read of @n registers; checks the echo (docs/tc6.md §1.4, §1.5). */
static inline void read_regs(struct emu_fixture *t, bool prot, unsigned mms, unsigned addr,
			     unsigned n, uint32_t *v)
{
	unsigned stride = prot ? 8 : 4;
	size_t len = 8 + stride * n;
	uint32_t h = ctrl_hdr(0, 0, mms, addr, n);

	memset(t->tx, 0, len);
	put32(t->tx, h);
	spi_xfer(t, len);
	assert_int_equal(get32(t->rx), 0);
	assert_int_equal(get32(t->rx + 4), h);
	for (unsigned i = 0; i < n; i++) {
		v[i] = get32(t->rx + 8 + stride * i);
		if (prot)
			assert_int_equal(get32(t->rx + 12 + stride * i), ~v[i]);
	}
}

static inline uint32_t read_reg(struct emu_fixture *t, unsigned mms, unsigned addr)
{
	uint32_t v;

	read_regs(t, false, mms, addr, 1, &v);
	return v;
}

/* Write @n registers; @bad_cpl corrupts the complement of register 0 (protected). */
static inline void write_regs(struct emu_fixture *t, bool prot, unsigned mms, unsigned addr,
			      unsigned n, const uint32_t *v, bool bad_cpl)
{
	unsigned stride = prot ? 8 : 4;
	size_t len = 8 + stride * n;

	memset(t->tx, 0, len);
	put32(t->tx, ctrl_hdr(1, 0, mms, addr, n));
	for (unsigned i = 0; i < n; i++) {
		put32(t->tx + 4 + stride * i, v[i]);
		if (prot)
			put32(t->tx + 8 + stride * i, ~v[i] ^ (bad_cpl && i == 0 ? 0x10u : 0));
	}
	spi_xfer(t, len);
	/* MISO = MOSI delayed by one word (docs/tc6.md §1.4), even for a failed protected write. */
	assert_int_equal(get32(t->rx), 0);
	assert_memory_equal(t->rx + 4, t->tx, len - 4);
}

static inline void write_reg(struct emu_fixture *t, unsigned mms, unsigned addr, uint32_t v)
{
	write_regs(t, false, mms, addr, 1, &v, false);
}

/* One data transfer of @n chunks with headers @h and payloads @p (NULL = zeros);
 * footers to @f (checked for odd parity), RX payloads left in t->rx. */
static inline void data_xfer(struct emu_fixture *t, const uint32_t *h, const uint8_t *p, unsigned n,
			     uint32_t *f)
{
	for (unsigned k = 0; k < n; k++) {
		put32(t->tx + k * CH, h[k]);
		if (p)
			memcpy(t->tx + k * CH + 4, p + k * CS, CS);
		else
			memset(t->tx + k * CH + 4, 0, CS);
	}
	spi_xfer(t, n * CH);
	for (unsigned k = 0; k < n; k++) {
		f[k] = get32(t->rx + k * CH + CS);
		assert_int_equal(ones(f[k]) % 2, 1); /* docs/tc6.md §1.3 footer parity is odd */
	}
}

static inline uint32_t empty_chunk(struct emu_fixture *t, bool norx)
{
	uint32_t h = data_hdr(0, 0, 0, 0, 0, norx), f;

	data_xfer(t, &h, NULL, 1, &f);
	return f;
}

/* Bring-up as in docs/tc6.md §4.1: clear RESETC, MAC TXEN|RXEN, station
 * address, SYNC, empty chunk. */
static inline void bring_up(struct emu_fixture *t, uint32_t config0_extra)
{
	write_reg(t, 0, 0x08, 0x40);
	write_reg(t, 1, 0x00, 0x0C);
	/* SAB1 = bytes 0-3 of MAC_US, little-endian (docs/tc6.md §5.2) */
	write_reg(t, 1, 0x22, 0x00000002);
	write_reg(t, 1, 0x23, 0x0100); /* SAT1 = bytes 4-5 */
	write_reg(t, 0, 0x04, 0x8006 | config0_extra);
	empty_chunk(t, true);
	assert_false(lan865x_emu_irq_asserted(t->emu));
}

static inline bool irq_readable(struct emu_fixture *t)
{
	struct ethdrv_spi_bus bus;
	struct pollfd pfd;

	lan865x_emu_get_bus(t->emu, &bus);
	pfd.fd = bus.irq_fd;
	pfd.events = POLLIN;
	return poll(&pfd, 1, 0) == 1;
}

/* Send a frame of @len bytes (without FCS unless the host supplies it) in chunks. */
static inline void send_frame(struct emu_fixture *t, const uint8_t *frame, size_t len, uint32_t *f)
{
	unsigned n = (unsigned)((len + CS - 1) / CS);
	uint32_t h[64];
	uint8_t p[64 * CS];

	memset(p, 0, sizeof(p));
	memcpy(p, frame, len);
	for (unsigned k = 0; k < n; k++)
		h[k] = data_hdr(1, k == 0, 0, k == n - 1,
				k == n - 1 ? (unsigned)((len - 1) % CS) : 0, 0);
	data_xfer(t, h, p, n, f);
}

static inline bool pull_frame(struct emu_fixture *t, uint8_t *buf, size_t *len)
{
	uint64_t tr;

	return t->fm.ops->tx_pull(t->fm.node, buf, EMU_FRAME_MAX, len, &tr);
}

static inline void deliver_frame(struct emu_fixture *t, const uint8_t *frame, size_t len)
{
	t->fm.ops->rx(t->fm.node, frame, len, 0);
}

static inline void fm_echo(struct fake_medium *fm)
{
	uint8_t buf[EMU_FRAME_MAX], fr[128];
	unsigned *answered = fm->hook_ctx;
	size_t len;
	uint64_t tr;

	while (fm->ops->tx_pull(fm->node, buf, sizeof(buf), &len, &tr)) {
		fm->ops->tx_done(fm->node, 0);
		len = make_frame(fr, 60, MAC_US, (uint8_t)*answered);
		fm->ops->rx(fm->node, fr, len, 0);
		(*answered)++;
	}
}

/* A test that runs on a fresh model attached to the fake medium. */
#define FIXTURE_TEST(fn) cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)
/* The same with a model as @variant (a static struct fixture_variant) says. */
#define VARIANT_TEST(fn, variant)                                            \
	{                                                                    \
#fn, fn, fixture_setup_variant, fixture_teardown, &(variant) \
	}

/* One counter of the model, by field name. */
#define STAT(t, f)                                     \
	({                                             \
		struct lan865x_emu_stats st_;          \
		lan865x_emu_get_stats((t)->emu, &st_); \
		ethdrv_counter_get(&st_.f);            \
	})

#endif /* ETHDRV_TESTS_LAN865X_EMU_HARNESS_H */
