// SPDX-License-Identifier: MIT
/*
 * The LAN8650 model against hand-built SPI byte streams (tc6-facts.md).
 * The helpers below encode headers and check footers on their own; they
 * share no code with the driver or with the model (a bitwise CRC here, a
 * table CRC in the model), so a wrong encoding cannot cancel out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/lan865x_emu.h"

#define CS 64u /* chunk payload (CPS=6) */
#define CH (CS + 4u) /* chunk on the wire */

/* ---- encoding helpers (tc6-facts §1-§2, written independently) ---- */

static unsigned ones(uint32_t w)
{
	unsigned n = 0;

	for (; w; w >>= 1)
		n += w & 1;
	return n;
}

/* Set bit 0 so the word has an odd number of ones (§1.3). */
static uint32_t par(uint32_t w)
{
	w &= ~1u;
	return (ones(w) % 2 == 0) ? (w | 1u) : w;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Control header (§1.2). */
static uint32_t ctl(int wnr, int aid, unsigned mms, unsigned addr, unsigned n)
{
	return par((uint32_t)wnr << 29 | (uint32_t)aid << 28 | mms << 24 | addr << 8 |
		   (n - 1) << 1);
}

/* Data header (§2.2). */
static uint32_t dh(int dv, int sv, unsigned swo, int ev, unsigned ebo, int norx)
{
	return par(1u << 31 | (uint32_t)norx << 29 | (uint32_t)dv << 21 | (uint32_t)sv << 20 |
		   swo << 16 | (uint32_t)ev << 14 | ebo << 8);
}

/* Footer fields (§2.3). */
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
static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ ((c & 1) ? 0xEDB88320u : 0);
	}
	return ~c;
}

static void add_fcs(uint8_t *f, size_t n)
{
	uint32_t c = crc_bitwise(f, n);

	for (int i = 0; i < 4; i++)
		f[n + i] = (uint8_t)(c >> (8 * i));
}

static bool fcs_good(const uint8_t *f, size_t n)
{
	uint32_t c = crc_bitwise(f, n - 4);

	return f[n - 4] == (uint8_t)c && f[n - 3] == (uint8_t)(c >> 8) &&
	       f[n - 2] == (uint8_t)(c >> 16) && f[n - 1] == (uint8_t)(c >> 24);
}

static const uint8_t MAC_US[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t MAC_PEER[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

/* A frame of @len bytes before FCS to @da, payload bytes i*7+seed; returns len + 4. */
static size_t mkframe(uint8_t *f, size_t len, const uint8_t *da, uint8_t seed)
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
};

static int fm_attach(struct emu_medium *m, unsigned port, const struct emu_port_ops *ops,
		     void *node)
{
	struct fake_medium *fm = (struct fake_medium *)m;

	fm->ops = ops;
	fm->node = node;
	return 0;
}

static void fm_detach(struct emu_medium *m, unsigned port)
{
	((struct fake_medium *)m)->ops = NULL;
}

static void fm_announce_tx(struct emu_medium *m, unsigned port)
{
	((struct fake_medium *)m)->announcements++;
}

static void fm_destroy(struct emu_medium *m)
{
}

static const struct emu_medium_ops fm_ops = { fm_attach, fm_detach, fm_announce_tx, fm_destroy };

/* ---- fixture ---- */

struct t {
	struct lan865x_emu *emu;
	struct fake_medium fm;
	uint8_t tx[8192], rx[8192];
};

static int make(void **state, unsigned rx_buf_chunks)
{
	struct lan865x_emu_config cfg;
	struct t *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	lan865x_emu_config_default(&cfg);
	cfg.realtime = false;
	if (rx_buf_chunks)
		cfg.rx_buf_chunks = rx_buf_chunks;
	assert_int_equal(lan865x_emu_new(&cfg, &t->emu), 0);
	t->fm.base.ops = &fm_ops;
	assert_int_equal(lan865x_emu_attach(t->emu, &t->fm.base, 0), 0);
	*state = t;
	return 0;
}

static int setup(void **state)
{
	return make(state, 0);
}

static int teardown(void **state)
{
	struct t *t = *state;

	lan865x_emu_free(t->emu);
	assert_null(t->fm.ops); /* free detached us */
	free(t);
	return 0;
}

static void xfer(struct t *t, size_t len)
{
	assert_int_equal(lan865x_emu_transfer(t->emu, t->tx, t->rx, len), 0);
}

/* Unprotected or protected read of @n registers; checks the echo (§1.4, §1.5). */
static void rd(struct t *t, bool prot, unsigned mms, unsigned addr, unsigned n, uint32_t *v)
{
	unsigned stride = prot ? 8 : 4;
	size_t len = 8 + stride * n;
	uint32_t h = ctl(0, 0, mms, addr, n);

	memset(t->tx, 0, len);
	put32(t->tx, h);
	xfer(t, len);
	assert_int_equal(get32(t->rx), 0);
	assert_int_equal(get32(t->rx + 4), h);
	for (unsigned i = 0; i < n; i++) {
		v[i] = get32(t->rx + 8 + stride * i);
		if (prot)
			assert_int_equal(get32(t->rx + 12 + stride * i), ~v[i]);
	}
}

static uint32_t rd1(struct t *t, unsigned mms, unsigned addr)
{
	uint32_t v;

	rd(t, false, mms, addr, 1, &v);
	return v;
}

/* Write @n registers; @bad_cpl corrupts the complement of register 0 (protected). */
static void wr(struct t *t, bool prot, unsigned mms, unsigned addr, unsigned n, const uint32_t *v,
	       bool bad_cpl)
{
	unsigned stride = prot ? 8 : 4;
	size_t len = 8 + stride * n;

	memset(t->tx, 0, len);
	put32(t->tx, ctl(1, 0, mms, addr, n));
	for (unsigned i = 0; i < n; i++) {
		put32(t->tx + 4 + stride * i, v[i]);
		if (prot)
			put32(t->tx + 8 + stride * i, ~v[i] ^ (bad_cpl && i == 0 ? 0x10u : 0));
	}
	xfer(t, len);
	/* MISO = MOSI delayed by one word (§1.4), even for a failed protected write. */
	assert_int_equal(get32(t->rx), 0);
	assert_memory_equal(t->rx + 4, t->tx, len - 4);
}

static void wr1(struct t *t, unsigned mms, unsigned addr, uint32_t v)
{
	wr(t, false, mms, addr, 1, &v, false);
}

/* One data transfer of @n chunks with headers @h and payloads @p (NULL = zeros);
 * footers to @f (checked for odd parity), RX payloads left in t->rx. */
static void chunks(struct t *t, const uint32_t *h, const uint8_t *p, unsigned n, uint32_t *f)
{
	for (unsigned k = 0; k < n; k++) {
		put32(t->tx + k * CH, h[k]);
		if (p)
			memcpy(t->tx + k * CH + 4, p + k * CS, CS);
		else
			memset(t->tx + k * CH + 4, 0, CS);
	}
	xfer(t, n * CH);
	for (unsigned k = 0; k < n; k++) {
		f[k] = get32(t->rx + k * CH + CS);
		assert_int_equal(ones(f[k]) % 2, 1); /* §1.3 footer parity is odd */
	}
}

static uint32_t empty_chunk(struct t *t, bool norx)
{
	uint32_t h = dh(0, 0, 0, 0, 0, norx), f;

	chunks(t, &h, NULL, 1, &f);
	return f;
}

/* Bring-up as in §4.1: clear RESETC, MAC TXEN|RXEN, station address, SYNC, empty chunk. */
static void bring_up(struct t *t, uint32_t config0_extra)
{
	wr1(t, 0, 0x08, 0x40);
	wr1(t, 1, 0x00, 0x0C);
	wr1(t, 1, 0x22, 0x00000002); /* SAB1 = bytes 0-3 of MAC_US, little-endian (§5.2) */
	wr1(t, 1, 0x23, 0x0100); /* SAT1 = bytes 4-5 */
	wr1(t, 0, 0x04, 0x8006 | config0_extra);
	empty_chunk(t, true);
	assert_false(lan865x_emu_irq_asserted(t->emu));
}

static bool irq_readable(struct t *t)
{
	struct ethdrv_spi_bus bus;
	struct pollfd pfd;

	lan865x_emu_get_bus(t->emu, &bus);
	pfd.fd = bus.irq_fd;
	pfd.events = POLLIN;
	return poll(&pfd, 1, 0) == 1;
}

/* Send a frame of @len bytes (without FCS unless the host supplies it) in chunks. */
static void send_frame(struct t *t, const uint8_t *frame, size_t len, uint32_t *f)
{
	unsigned n = (unsigned)((len + CS - 1) / CS);
	uint32_t h[64];
	uint8_t p[64 * CS];

	memset(p, 0, sizeof(p));
	memcpy(p, frame, len);
	for (unsigned k = 0; k < n; k++)
		h[k] = dh(1, k == 0, 0, k == n - 1, k == n - 1 ? (unsigned)((len - 1) % CS) : 0, 0);
	chunks(t, h, p, n, f);
}

static bool pull(struct t *t, uint8_t *buf, size_t *len)
{
	uint64_t tr;

	return t->fm.ops->tx_pull(t->fm.node, buf, EMU_FRAME_MAX, len, &tr);
}

static void deliver(struct t *t, const uint8_t *frame, size_t len)
{
	t->fm.ops->rx(t->fm.node, frame, len, 0);
}

/* One counter of the model, by field name. */
#define STAT(t, f)                                     \
	({                                             \
		struct lan865x_emu_stats st_;          \
		lan865x_emu_get_stats((t)->emu, &st_); \
		ethdrv_counter_get(&st_.f);            \
	})

/* ---- control transactions ---- */

static void test_ctrl_read_reset_values(void **state)
{
	struct t *t = *state;
	/* IDVER: header 0x00000000 has no ones, so P=1 (§1.3); value 0x11 (§3.2). */
	static const uint8_t idver[12] = { 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0x11 };
	static const uint8_t config0[12] = { 0, 0, 0, 0, 0, 0, 0x04, 0x00, 0, 0, 0, 0x06 };
	static const uint8_t imask0[12] = { 0, 0, 0, 0, 0, 0, 0x0C, 0x01, 0, 0, 0x1F, 0xBF };

	memset(t->tx, 0, 12);
	t->tx[3] = 0x01;
	xfer(t, 12);
	assert_memory_equal(t->rx, idver, 12);
	memset(t->tx, 0, 12);
	t->tx[2] = 0x04; /* ADDR 4: one bit set, P=0 */
	xfer(t, 12);
	assert_memory_equal(t->rx, config0, 12);
	memset(t->tx, 0, 12);
	t->tx[2] = 0x0C; /* ADDR 0x0C: two bits, P=1 */
	t->tx[3] = 0x01;
	xfer(t, 12);
	assert_memory_equal(t->rx, imask0, 12);
	assert_int_equal(rd1(t, 0, 0x08), 0x40); /* STATUS0.RESETC after power-on */
	assert_int_equal(rd1(t, 0, 0x0B), 0x3000); /* BUFSTS TXC=48 (§2.3) */
	assert_int_equal(rd1(t, 0, 0xFF02), 0x0007);
	assert_int_equal(rd1(t, 0, 0xFF03), 0xC1B3);
	assert_int_equal(rd1(t, 1, 0x01), 0x00080000); /* NCFGR */
	assert_int_equal(rd1(t, 4, 0xCA02), 0x08FF); /* PLCA CTRL1: NCNT 8, ID 0xFF */
	assert_int_equal(rd1(t, 4, 0xCA04), 0x0020);
	assert_int_equal(rd1(t, 4, 0xCA05), 0x0080);
	assert_int_equal(rd1(t, 4, 0x87), 0x8083);
	assert_int_equal(rd1(t, 10, 0x94), 0x00086502); /* DEVID: 0x8650 rev 2 */
	assert_int_equal(rd1(t, 3, 0x1234), 0); /* unimplemented */
	assert_int_equal(STAT(t, ctrl_len_errors), 0);
}

static void test_ctrl_write_echo(void **state)
{
	struct t *t = *state;
	/* Write IMASK0 = 0x100: header 0x20000C00 has three ones, P=0. */
	static const uint8_t mosi[12] = { 0x20, 0, 0x0C, 0x00, 0, 0, 0x01, 0x00, 0, 0, 0, 0 };
	static const uint8_t miso[12] = { 0, 0, 0, 0, 0x20, 0, 0x0C, 0x00, 0, 0, 0x01, 0x00 };

	memcpy(t->tx, mosi, 12);
	xfer(t, 12);
	assert_memory_equal(t->rx, miso, 12);
	assert_int_equal(rd1(t, 0, 0x0C), 0x100);
	/* RESETC's mask bit is read-only 0 (§3.4). */
	wr1(t, 0, 0x0C, 0xFFFFFFFF);
	assert_int_equal(rd1(t, 0, 0x0C), 0x1FBF);
	/* Writes to unimplemented or read-only registers are ignored. */
	wr1(t, 0, 0x00, 0x55);
	assert_int_equal(rd1(t, 0, 0x00), 0x11);
	wr1(t, 2, 0x10, 0x55);
	assert_int_equal(rd1(t, 2, 0x10), 0);
	assert_int_equal(STAT(t, ctrl_writes), 4);
}

static void test_ctrl_multi_register(void **state)
{
	struct t *t = *state;
	uint32_t v[3], w[2] = { 0x11223344, 0x55667788 };

	rd(t, false, 0, 0x00, 3, v);
	assert_int_equal(v[0], 0x11);
	assert_int_equal(v[1], 0x0007C1B3);
	assert_int_equal(v[2], 0x0525);
	/* AID=1: the same register twice. */
	memset(t->tx, 0, 16);
	put32(t->tx, par(1u << 28 | 0x04u << 8 | 1u << 1));
	xfer(t, 16);
	assert_int_equal(get32(t->rx + 8), 0x0006);
	assert_int_equal(get32(t->rx + 12), 0x0006);
	/* Two MAC registers (HRB, HRT) in one write, read back. */
	wr(t, false, 1, 0x20, 2, w, false);
	rd(t, false, 1, 0x20, 2, v);
	assert_int_equal(v[0], 0x11223344);
	assert_int_equal(v[1], 0x55667788);
	/* A short transfer: only the register whose value fully arrived is written. */
	memset(t->tx, 0, 10);
	put32(t->tx, ctl(1, 0, 1, 0x20, 2));
	put32(t->tx + 4, 0xAAAA0001);
	put32(t->tx + 8, 0xBBBB0002);
	xfer(t, 10);
	rd(t, false, 1, 0x20, 2, v);
	assert_int_equal(v[0], 0xAAAA0001);
	assert_int_equal(v[1], 0x55667788);
	assert_int_equal(STAT(t, ctrl_len_errors), 1);
}

static void test_ctrl_protected(void **state)
{
	struct t *t = *state;
	uint32_t v, imask = 0x100;

	wr1(t, 0, 0x04, 0x0026); /* PROTE + 64 B, sent unprotected (§1.5) */
	rd(t, true, 0, 0x04, 1, &v);
	assert_int_equal(v, 0x0026);
	assert_int_equal(t->rx[15], (uint8_t)~0x26); /* complement on the wire */
	wr(t, true, 0, 0x0C, 1, &imask, false);
	rd(t, true, 0, 0x0C, 1, &v);
	assert_int_equal(v, 0x100);
	/* A bad complement: not written, STATUS0.CDPE (bit 12) set. */
	imask = 0x1FBF;
	wr(t, true, 0, 0x0C, 1, &imask, true);
	rd(t, true, 0, 0x0C, 1, &v);
	assert_int_equal(v, 0x100);
	rd(t, true, 0, 0x08, 1, &v);
	assert_int_equal(v, 0x1040);
	assert_int_equal(STAT(t, cdpe), 1);
}

static void test_ctrl_header_parity(void **state)
{
	struct t *t = *state;

	/* Read IDVER with P=0: parity wrong. Echo has HDRB (bit 30) with fresh parity. */
	memset(t->tx, 0, 12);
	xfer(t, 12);
	assert_int_equal(get32(t->rx + 4), 0x40000000);
	assert_int_equal(get32(t->rx + 8), 0);
	/* A write with bad parity is not performed. */
	put32(t->tx, ctl(1, 0, 0, 0x0C, 1) ^ 1u);
	put32(t->tx + 4, 0x0);
	xfer(t, 12);
	assert_int_equal(get32(t->rx + 4) >> 30 & 1, 1);
	assert_int_equal(rd1(t, 0, 0x0C), 0x1FBF);
	assert_int_equal(rd1(t, 0, 0x08), 0x60); /* HDRE | RESETC */
	assert_int_equal(STAT(t, hdr_errors), 2);
	/* Injected: the next header arrives with a parity error. */
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_HDR_PARITY), 0);
	put32(t->tx, ctl(0, 0, 0, 0x00, 1));
	xfer(t, 12);
	assert_int_equal(get32(t->rx + 4) >> 30 & 1, 1);
	assert_int_equal(rd1(t, 0, 0x00), 0x11);
}

/* ---- reset and IRQ ---- */

static void test_reset_flow(void **state)
{
	struct t *t = *state;
	uint32_t f;

	assert_true(lan865x_emu_irq_asserted(t->emu));
	assert_true(irq_readable(t));
	wr1(t, 0, 0x08, 0x40); /* clear RESETC */
	assert_int_equal(rd1(t, 0, 0x08), 0);
	/* Register access never releases IRQ_N (§2.5). */
	assert_true(irq_readable(t));
	f = empty_chunk(t, true);
	assert_false(irq_readable(t));
	assert_int_equal(F_SYNC(f), 0);
	assert_int_equal(F_EXST(f), 0);
	assert_int_equal(F_TXC(f), 31);
	assert_int_equal(F_DV(f), 0);
	/* Software reset: SYNC cleared, RESETC, IRQ_N again. */
	wr1(t, 0, 0x04, 0x8006);
	assert_int_equal(F_SYNC(empty_chunk(t, true)), 1);
	wr1(t, 0, 0x03, 1);
	assert_true(irq_readable(t));
	assert_int_equal(rd1(t, 0, 0x03), 0); /* self-clearing */
	assert_int_equal(rd1(t, 0, 0x04), 0x0006);
	assert_int_equal(rd1(t, 0, 0x08), 0x40);
	/* RESETC is unmasked, so the next footer has EXST, and IRQ_N stays released. */
	f = empty_chunk(t, false);
	assert_int_equal(F_EXST(f), 1);
	assert_int_equal(F_SYNC(f), 0);
	assert_false(irq_readable(t));
	assert_int_equal(STAT(t, resets), 2); /* power-on + SWRESET */
}

static void test_injected_reset(void **state)
{
	struct t *t = *state;
	uint8_t fr[200];
	uint32_t f;

	bring_up(t, 0);
	deliver(t, fr, mkframe(fr, 100, MAC_US, 1));
	assert_int_equal(STAT(t, rx_frames), 1);
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_RESET), 0);
	assert_true(irq_readable(t));
	f = empty_chunk(t, false);
	assert_int_equal(F_SYNC(f), 0);
	assert_int_equal(F_DV(f), 0);
	assert_int_equal(F_RCA(f), 0);
	assert_int_equal(STAT(t, rx_flushed), 1);
	assert_int_equal(rd1(t, 0, 0x04), 0x0006);
	assert_int_equal(rd1(t, 1, 0x00), 0);
	assert_int_equal(STAT(t, faults), 1);
}

/* ---- TX ---- */

static void check_tx(struct t *t, size_t len)
{
	uint8_t fr[1600], out[EMU_FRAME_MAX];
	uint32_t f[32];
	size_t n, expect = (len < 60 ? 60 : len) + 4;
	unsigned announcements = t->fm.announcements;

	mkframe(fr, len, MAC_PEER, (uint8_t)len);
	memset(fr + len, 0, 4); /* the host sends no FCS; padding is zeros */
	send_frame(t, fr, len, f);
	assert_true(t->fm.announcements > announcements);
	assert_true(pull(t, out, &n));
	assert_int_equal(n, expect);
	assert_memory_equal(out, fr, len);
	for (size_t i = len; i < expect - 4; i++)
		assert_int_equal(out[i], 0);
	assert_true(fcs_good(out, n));
	assert_false(pull(t, out, &n));
	t->fm.ops->tx_done(t->fm.node, 0);
}

static void test_tx_frames(void **state)
{
	struct t *t = *state;

	bring_up(t, 0);
	check_tx(t, 60);
	check_tx(t, 64);
	check_tx(t, 65);
	check_tx(t, 1514);
	check_tx(t, 42); /* padded to 60 by the MAC */
	assert_int_equal(STAT(t, tx_frames), 5);
	assert_int_equal(STAT(t, tx_bytes), 64 + 68 + 69 + 1518 + 64);
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 48);
}

static void test_tx_fcs_validation(void **state)
{
	struct t *t = *state;
	uint8_t fr[200], out[EMU_FRAME_MAX];
	uint32_t f[4];
	size_t n, len = mkframe(fr, 96, MAC_PEER, 3);

	bring_up(t, 1u << 14); /* TXFCSVE */
	send_frame(t, fr, len, f);
	assert_true(pull(t, out, &n));
	assert_int_equal(n, len);
	assert_memory_equal(out, fr, len);
	t->fm.ops->tx_done(t->fm.node, 0);
	fr[len - 1] ^= 0x80;
	send_frame(t, fr, len, f);
	assert_false(pull(t, out, &n));
	assert_int_equal(rd1(t, 0, 0x08) & (1u << 11), 1u << 11); /* TXFCSE */
	assert_int_equal(STAT(t, tx_fcs_errors), 1);
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 48); /* the bad frame's chunks are free */
}

static void test_tx_credits(void **state)
{
	struct t *t = *state;
	uint32_t h[49], f[49];
	uint8_t p[49 * CS], out[EMU_FRAME_MAX];
	size_t n;

	bring_up(t, 0);
	memset(p, 0, sizeof(p));
	for (unsigned k = 0; k < 49; k++) {
		mkframe(p + k * CS, 60, MAC_PEER, (uint8_t)k);
		h[k] = dh(1, 1, 0, 1, 59, 0);
	}
	chunks(t, h, p, 49, f);
	for (unsigned k = 0; k < 48; k++)
		assert_int_equal(F_TXC(f[k]), 47 - k > 31 ? 31 : 47 - k);
	assert_int_equal(F_TXC(f[48]), 0);
	assert_int_equal(rd1(t, 0, 0x08) & 2, 2); /* TXBOE */
	assert_int_equal(STAT(t, txboe), 1);
	assert_int_equal(STAT(t, tx_dropped_overflow), 1);
	assert_int_equal(rd1(t, 0, 0x0B), 0x0000);
	/* 48 frames are queued; the last one (chunk 48) was dropped. */
	for (unsigned k = 0; k < 48; k++) {
		assert_true(pull(t, out, &n));
		assert_int_equal(out[14], (uint8_t)(14 * 7 + k));
	}
	assert_false(pull(t, out, &n));
	/* The footer said TXC=0; a freed chunk raises IRQ_N (§2.5). */
	assert_false(irq_readable(t));
	t->fm.ops->tx_done(t->fm.node, 0);
	assert_int_equal(rd1(t, 0, 0x0B), 0x0100);
	assert_true(irq_readable(t));
}

static void test_tx_freed_at_tx_done(void **state)
{
	struct t *t = *state;
	uint8_t fr[200], out[EMU_FRAME_MAX];
	uint32_t f[4];
	size_t n;

	bring_up(t, 0);
	mkframe(fr, 150, MAC_PEER, 9);
	send_frame(t, fr, 150, f);
	assert_int_equal(F_TXC(f[2]), 31);
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 45);
	assert_true(pull(t, out, &n));
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 45); /* on the wire: still held */
	t->fm.ops->tx_done(t->fm.node, 0);
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 48);
	/* A second tx_done with nothing on the wire changes nothing. */
	t->fm.ops->tx_done(t->fm.node, 0);
	assert_int_equal(STAT(t, tx_frames), 1);
}

static void test_tx_protocol_errors(void **state)
{
	struct t *t = *state;
	uint32_t h[2], f[2];
	uint8_t out[EMU_FRAME_MAX];
	size_t n;

	bring_up(t, 0);
	h[0] = dh(1, 0, 0, 0, 0, 0); /* DV without a frame in progress or SV */
	chunks(t, h, NULL, 1, f);
	assert_int_equal(rd1(t, 0, 0x08) & 1, 1);
	wr1(t, 0, 0x08, 1);
	h[0] = dh(1, 1, 0, 0, 0, 0); /* SV, then SV again while in progress */
	h[1] = dh(1, 1, 0, 1, 10, 0);
	chunks(t, h, NULL, 2, f);
	assert_int_equal(rd1(t, 0, 0x08) & 1, 1);
	assert_int_equal(STAT(t, txpe), 2);
	/* Both frames the host handed over are lost, each counted once: the
	 * one in progress, and the one whose SV was refused. */
	assert_int_equal(STAT(t, tx_started), 2);
	assert_int_equal(STAT(t, tx_dropped_protocol), 2);
	assert_false(pull(t, out, &n));
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 48);
	/* TXPE unmasked: the next footer has EXST. */
	wr1(t, 0, 0x0C, 0x1FBE);
	assert_int_equal(F_EXST(empty_chunk(t, true)), 1);
}

static void test_tx_concatenated(void **state)
{
	struct t *t = *state;
	uint8_t a[200], b[200], p[3 * CS], out[EMU_FRAME_MAX];
	uint32_t h[3], f[3];
	size_t n;

	bring_up(t, 0);
	mkframe(a, 70, MAC_PEER, 1);
	mkframe(b, 100, MAC_PEER, 2);
	/* A: 64 + 6 bytes; B starts at word 2 of chunk 1 (56 bytes), ends in chunk 2. */
	memset(p, 0, sizeof(p));
	memcpy(p, a, 64);
	memcpy(p + CS, a + 64, 6);
	memcpy(p + CS + 8, b, 56);
	memcpy(p + 2 * CS, b + 56, 44);
	h[0] = dh(1, 1, 0, 0, 0, 0);
	h[1] = dh(1, 1, 2, 1, 5, 0);
	h[2] = dh(1, 0, 0, 1, 43, 0);
	chunks(t, h, p, 3, f);
	assert_true(pull(t, out, &n));
	assert_int_equal(n, 74);
	assert_memory_equal(out, a, 70);
	assert_true(pull(t, out, &n));
	assert_int_equal(n, 104);
	assert_memory_equal(out, b, 100);
	assert_int_equal(STAT(t, txpe), 0);
}

static void test_lofe(void **state)
{
	struct t *t = *state;
	uint8_t zero[10] = { 0 };

	bring_up(t, 0);
	memset(t->tx, 0, CH + 10);
	put32(t->tx, dh(0, 0, 0, 0, 0, 0));
	put32(t->tx + CH, dh(1, 1, 0, 0, 0, 0));
	memset(t->rx, 0xEE, CH + 10);
	xfer(t, CH + 10);
	assert_memory_equal(t->rx + CH, zero, 10);
	assert_int_equal(rd1(t, 0, 0x08) & (1u << 4), 1u << 4);
	assert_int_equal(STAT(t, lofe), 1);
	assert_int_equal(STAT(t, chunks), 2); /* bring-up's empty chunk + one whole chunk */
}

/* ---- RX ---- */

static void test_rx_one_frame(void **state)
{
	struct t *t = *state;
	uint8_t fr[200];
	uint32_t h[2] = { dh(0, 0, 0, 0, 0, 0), dh(0, 0, 0, 0, 0, 0) }, f[2];
	size_t len = mkframe(fr, 96, MAC_US, 5); /* 100 bytes with FCS */

	bring_up(t, 1u << 12);
	deliver(t, fr, len);
	assert_true(irq_readable(t)); /* RCA 0 -> 2 */
	assert_int_equal(rd1(t, 0, 0x0B) & 0xFF, 2);
	chunks(t, h, NULL, 2, f);
	assert_false(irq_readable(t));
	assert_int_equal(F_DV(f[0]), 1);
	assert_int_equal(F_SV(f[0]), 1);
	assert_int_equal(F_SWO(f[0]), 0);
	assert_int_equal(F_EV(f[0]), 0);
	assert_int_equal(F_RCA(f[0]), 1);
	assert_int_equal(F_DV(f[1]), 1);
	assert_int_equal(F_SV(f[1]), 0);
	assert_int_equal(F_EV(f[1]), 1);
	assert_int_equal(F_EBO(f[1]), 35);
	assert_int_equal(F_RCA(f[1]), 0);
	assert_int_equal(F_FD(f[1]), 0);
	assert_memory_equal(t->rx, fr, 64);
	assert_memory_equal(t->rx + CH, fr + 64, 36); /* FCS included (§2.4) */
	assert_int_equal(STAT(t, rx_delivered), 1);
}

static void test_rx_zarfe_two_frames(void **state)
{
	struct t *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[4], f[4];

	bring_up(t, 1u << 12);
	deliver(t, a, mkframe(a, 66, MAC_US, 1)); /* 70 bytes: 64 + 6 */
	deliver(t, b, mkframe(b, 66, MAC_US, 2));
	for (int k = 0; k < 4; k++)
		h[k] = dh(0, 0, 0, 0, 0, 0);
	chunks(t, h, NULL, 4, f);
	assert_int_equal(F_RCA(f[0]), 3);
	assert_true(F_SV(f[0]) && !F_EV(f[0]));
	assert_true(!F_SV(f[1]) && F_EV(f[1]) && F_EBO(f[1]) == 5);
	assert_true(F_SV(f[2]) && F_SWO(f[2]) == 0 && !F_EV(f[2]));
	assert_true(!F_SV(f[3]) && F_EV(f[3]) && F_EBO(f[3]) == 5);
	assert_int_equal(F_RCA(f[3]), 0);
	assert_memory_equal(t->rx + 2 * CH, b, 64);
	assert_memory_equal(t->rx + 3 * CH, b + 64, 6);
}

static void test_rx_unaligned_two_frames(void **state)
{
	struct t *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[3], f[3];

	bring_up(t, 0); /* RFA = 0: a frame may start in any word (§2.4) */
	deliver(t, a, mkframe(a, 66, MAC_US, 1));
	deliver(t, b, mkframe(b, 66, MAC_US, 2));
	for (int k = 0; k < 3; k++)
		h[k] = dh(0, 0, 0, 0, 0, 0);
	chunks(t, h, NULL, 3, f);
	/* A ends at byte 5 of chunk 1; B starts at word 2 (byte 8): 56 bytes, then 14. */
	assert_int_equal(F_RCA(f[0]), 2);
	assert_true(F_SV(f[1]) && F_EV(f[1]));
	assert_int_equal(F_EBO(f[1]), 5);
	assert_int_equal(F_SWO(f[1]), 2);
	assert_int_equal(F_RCA(f[1]), 1);
	assert_memory_equal(t->rx + CH, a + 64, 6);
	assert_memory_equal(t->rx + CH + 8, b, 56);
	assert_true(!F_SV(f[2]) && F_EV(f[2]) && F_EBO(f[2]) == 13);
	assert_memory_equal(t->rx + 2 * CH, b + 56, 14);
	assert_int_equal(F_RCA(f[2]), 0);
}

static void test_rx_norx_and_fcs_strip(void **state)
{
	struct t *t = *state;
	uint8_t a[100];
	uint32_t h[2] = { dh(0, 0, 0, 0, 0, 1), dh(0, 0, 0, 0, 0, 0) }, f[2];

	bring_up(t, 1u << 12);
	wr1(t, 1, 0x01, 0x00080000 | (1u << 17)); /* NCFGR.RFCS */
	deliver(t, a, mkframe(a, 60, MAC_US, 4));
	chunks(t, h, NULL, 2, f);
	assert_int_equal(F_DV(f[0]), 0); /* NORX: nothing consumed */
	assert_int_equal(F_RCA(f[0]), 1);
	assert_true(F_SV(f[1]) && F_EV(f[1]));
	assert_int_equal(F_EBO(f[1]), 59);
	assert_memory_equal(t->rx + CH, a, 60);
}

static void test_rx_overflow(void **state)
{
	struct t *t = *state;
	uint8_t a[200];
	uint32_t f;
	size_t len = mkframe(a, 96, MAC_US, 1); /* 2 chunks each */

	bring_up(t, 1u << 12);
	wr1(t, 0, 0x0C, 0x1FBF & ~(1u << 3)); /* unmask RXBOE */
	deliver(t, a, len);
	deliver(t, a, len);
	f = empty_chunk(t, true);
	assert_int_equal(F_RCA(f), 4);
	assert_false(irq_readable(t));
	deliver(t, a, len); /* the buffer holds 4 chunks: no room */
	assert_int_equal(STAT(t, rx_dropped_overflow), 1);
	assert_int_equal(rd1(t, 0, 0x08) & 8, 8);
	assert_true(irq_readable(t)); /* EXST became pending */
	f = empty_chunk(t, true);
	assert_int_equal(F_EXST(f), 1);
	assert_int_equal(F_RCA(f), 4);
	/* Injected overflow drops the head frame even when partly read. */
	empty_chunk(t, false);
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_RX_OVERFLOW), 0);
	f = empty_chunk(t, false);
	assert_true(F_SV(f) && !F_EV(f));
	assert_int_equal(STAT(t, rx_dropped_overflow), 2);
}

static int setup_small_rx(void **state)
{
	return make(state, 4);
}

static void test_rx_sync_blocks(void **state)
{
	struct t *t = *state;
	uint8_t a[200], out[EMU_FRAME_MAX];
	uint32_t f[2];
	size_t n;

	wr1(t, 1, 0x00, 0x0C); /* TXEN|RXEN, but SYNC stays 0 */
	deliver(t, a, mkframe(a, 96, MAC_US, 1));
	assert_int_equal(STAT(t, rx_dropped_sync), 1);
	assert_int_equal(rd1(t, 0, 0x0B) & 0xFF, 0);
	mkframe(a, 60, MAC_PEER, 1);
	send_frame(t, a, 60, f);
	assert_int_equal(F_SYNC(f[0]), 0);
	assert_false(pull(t, out, &n));
	assert_int_equal(STAT(t, txpe), 0);
	assert_int_equal(rd1(t, 0, 0x0B) >> 8, 48);
}

static void test_rx_filter(void **state)
{
	struct t *t = *state;
	static const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x09 };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mcast[6] = { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x01 };
	uint8_t a[100];

	bring_up(t, 1u << 12);
	deliver(t, a, mkframe(a, 60, MAC_US, 1));
	deliver(t, a, mkframe(a, 60, other, 1));
	deliver(t, a, mkframe(a, 60, bcast, 1));
	assert_int_equal(STAT(t, rx_frames), 2);
	assert_int_equal(STAT(t, rx_dropped_filter), 1);
	wr1(t, 1, 0x01, 0x00080000 | (1u << 5)); /* NBC */
	deliver(t, a, mkframe(a, 60, bcast, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 2);
	/* Hash of 01:00:5E:00:00:01 (§4.2): set DA bits are 0, 17, 18, 19, 20, 22, 40;
	 * index bit j = XOR of the bits = j mod 6 -> j0 = b0^b18 = 0, j1 = b19 = 1,
	 * j2 = b20 = 1, j3 = 0, j4 = b22^b40 = 0, j5 = b17 = 1 -> 0b100110 = 38. */
	wr1(t, 1, 0x01, 0x00080000 | (1u << 6)); /* MTIHEN */
	deliver(t, a, mkframe(a, 60, mcast, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 3);
	wr1(t, 1, 0x21, 1u << (38 - 32)); /* HRT bit 6 */
	deliver(t, a, mkframe(a, 60, mcast, 1));
	assert_int_equal(STAT(t, rx_frames), 3);
	wr1(t, 1, 0x21, 0);
	wr1(t, 1, 0x20, 0xFFFFFFFF); /* only HRB: index 38 stays out */
	deliver(t, a, mkframe(a, 60, mcast, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 4);
	/* A write to SAB1 disables filter 1 until SAT1 is written (§5.2). */
	wr1(t, 1, 0x22, 0x00000002);
	deliver(t, a, mkframe(a, 60, MAC_US, 1));
	assert_int_equal(STAT(t, rx_dropped_filter), 5);
	wr1(t, 1, 0x23, 0x0100);
	deliver(t, a, mkframe(a, 60, MAC_US, 1));
	assert_int_equal(STAT(t, rx_frames), 4);
	wr1(t, 1, 0x01, 0x00080000 | (1u << 4)); /* CAF: promiscuous */
	deliver(t, a, mkframe(a, 60, other, 1));
	assert_int_equal(STAT(t, rx_frames), 5);
}

static void test_rx_length_fcs(void **state)
{
	struct t *t = *state;
	uint8_t a[1600];
	uint32_t h[2] = { dh(0, 0, 0, 0, 0, 0), dh(0, 0, 0, 0, 0, 0) }, f[2];
	size_t len;

	bring_up(t, 1u << 12);
	deliver(t, a, mkframe(a, 59, MAC_US, 1)); /* 63 bytes: runt */
	deliver(t, a, mkframe(a, 1515, MAC_US, 1)); /* 1519: too long */
	assert_int_equal(STAT(t, rx_dropped_length), 2);
	len = mkframe(a, 80, MAC_US, 1);
	a[20] ^= 1;
	deliver(t, a, len);
	assert_int_equal(STAT(t, rx_dropped_fcs), 1);
	wr1(t, 1, 0x01, 0x00080000 | (1u << 26)); /* IRXFCS: deliver with FD */
	deliver(t, a, len);
	chunks(t, h, NULL, 2, f);
	assert_int_equal(F_EV(f[1]), 1);
	assert_int_equal(F_FD(f[1]), 1);
}

static void test_internal_fault(void **state)
{
	struct t *t = *state;
	uint8_t a[100];
	uint32_t f;

	bring_up(t, 1u << 12);
	deliver(t, a, mkframe(a, 60, MAC_US, 1));
	assert_int_equal(lan865x_emu_inject(t->emu, LAN865X_EMU_FAULT_INTERNAL), 0);
	f = empty_chunk(t, false);
	assert_int_equal(F_DV(f), 0);
	assert_int_equal(rd1(t, 0, 0x09), 1u << 17);
	wr1(t, 0, 0x03, 1);
	assert_int_equal(rd1(t, 0, 0x09), 0);
}

static void test_data_header_parity(void **state)
{
	struct t *t = *state;
	uint8_t a[100];
	uint32_t h, f;

	bring_up(t, 1u << 12);
	deliver(t, a, mkframe(a, 60, MAC_US, 1));
	assert_true(irq_readable(t));
	h = dh(0, 0, 0, 0, 0, 0) ^ 1u;
	chunks(t, &h, NULL, 1, &f);
	assert_int_equal(F_HDRB(f), 1);
	assert_int_equal(F_DV(f), 0);
	assert_true(irq_readable(t)); /* a rejected header does not release IRQ_N */
	assert_int_equal(rd1(t, 0, 0x08) & (1u << 5), 1u << 5);
	f = empty_chunk(t, false);
	assert_int_equal(F_HDRB(f), 0);
	assert_true(F_SV(f) && F_EV(f));
}

static void test_plca_and_trim(void **state)
{
	struct t *t = *state;
	struct emu_plca_cfg pc;

	wr1(t, 4, 0xCA02, 0x0503); /* NCNT 5, ID 3 */
	wr1(t, 4, 0xCA05, 0x0240);
	wr1(t, 4, 0xCA01, 0x8000);
	lan865x_emu_get_plca(t->emu, &pc);
	assert_true(pc.enabled);
	assert_int_equal(pc.node_id, 3);
	assert_int_equal(pc.node_cnt, 5);
	assert_int_equal(pc.to_tmr, 0x20);
	assert_int_equal(pc.burst_cnt, 2);
	assert_int_equal(pc.burst_tmr, 0x40);
	wr1(t, 4, 0xCA01, 0x4000); /* RST: defaults again */
	lan865x_emu_get_plca(t->emu, &pc);
	assert_false(pc.enabled);
	assert_int_equal(pc.node_id, 0xFF);
	/* AN1760 indirect reads (§5.3): offset1 = -3 -> 0x1D, offset2 = +2, 0x05 bit 6. */
	wr1(t, 4, 0xD8, 0x04);
	wr1(t, 4, 0xDA, 0x02);
	assert_int_equal(rd1(t, 4, 0xD9), 0x1D);
	wr1(t, 4, 0xD8, 0x08);
	wr1(t, 4, 0xDA, 0x02);
	assert_int_equal(rd1(t, 4, 0xD9), 0x02);
	wr1(t, 4, 0xD8, 0x05);
	wr1(t, 4, 0xDA, 0x02);
	assert_int_equal(rd1(t, 4, 0xD9), 0x40);
	wr1(t, 4, 0xF8, 0xB900); /* an AN1760 register keeps its value */
	assert_int_equal(rd1(t, 4, 0xF8), 0xB900);
}

static void test_rx_32_byte_chunks(void **state)
{
	struct t *t = *state;
	uint8_t a[100];
	uint32_t f[3];

	bring_up(t, 1u << 12);
	wr1(t, 0, 0x04, 0x9004); /* CPS=4 (16 B) is not supported: ignored (§2.1) */
	assert_int_equal(rd1(t, 0, 0x04), 0x9006);
	wr1(t, 0, 0x04, 0x9005); /* CPS=5: 32-byte payloads, 36-byte chunks */
	deliver(t, a, mkframe(a, 66, MAC_US, 3)); /* 70 bytes: 32 + 32 + 6 */
	for (unsigned k = 0; k < 3; k++)
		put32(t->tx + k * 36, dh(0, 0, 0, 0, 0, 0));
	xfer(t, 3 * 36);
	for (unsigned k = 0; k < 3; k++) {
		f[k] = get32(t->rx + k * 36 + 32);
		assert_int_equal(ones(f[k]) % 2, 1);
	}
	assert_true(F_SV(f[0]) && F_RCA(f[0]) == 2);
	assert_true(F_DV(f[1]) && !F_SV(f[1]) && !F_EV(f[1]));
	assert_true(F_EV(f[2]) && F_EBO(f[2]) == 5);
	assert_memory_equal(t->rx + 36, a + 32, 32);
	assert_memory_equal(t->rx + 72, a + 64, 6);
}

static void test_rx_csarfe(void **state)
{
	struct t *t = *state;
	uint8_t a[100], b[100];
	uint32_t h[2] = { dh(0, 0, 0, 0, 0, 0), dh(0, 0, 0, 0, 0, 0) }, f[2];

	bring_up(t, 2u << 12); /* CSARFE: frames start only in the first chunk of a CS */
	deliver(t, a, mkframe(a, 60, MAC_US, 1));
	deliver(t, b, mkframe(b, 60, MAC_US, 2));
	chunks(t, h, NULL, 2, f);
	assert_true(F_SV(f[0]) && F_EV(f[0]));
	assert_int_equal(F_DV(f[1]), 0);
	chunks(t, h, NULL, 2, f);
	assert_true(F_SV(f[0]) && F_EV(f[0]));
	assert_memory_equal(t->rx, b, 64);
}

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_realtime_hold(void **state)
{
	struct lan865x_emu_config cfg;
	struct lan865x_emu *emu;
	static uint8_t tx[1250], rx[1250];
	struct lan865x_emu_stats st;
	uint64_t t0, el;

	lan865x_emu_config_default(&cfg);
	cfg.spi_hz = 1000000;
	cfg.setup_ns = 0;
	cfg.slack_ns = 1000000;
	assert_int_equal(lan865x_emu_new(&cfg, &emu), 0);
	/* 1250 bytes at 1 MHz = 10 ms of bus; the caller is held until 1 ms before the end. */
	t0 = mono();
	assert_int_equal(lan865x_emu_transfer(emu, tx, rx, sizeof(tx)), 0);
	el = mono() - t0;
	lan865x_emu_get_stats(emu, &st);
	assert_true(el >= 8900000);
	assert_true(ethdrv_counter_get(&st.held_ns) >= 8900000);
	assert_int_equal(ethdrv_counter_get(&st.bus_ns), 10000000);
	assert_true(lan865x_emu_bus_time(emu) >= t0 + 10000000);
	lan865x_emu_free(emu);
	(void)state;
}

/* ---- bus ---- */

static void test_bus_clock(void **state)
{
	struct t *t = *state;
	uint64_t t0 = lan865x_emu_bus_time(t->emu);
	struct ethdrv_spi_bus bus;

	lan865x_emu_get_bus(t->emu, &bus);
	assert_string_equal(bus.desc, "emu:lan8650");
	assert_int_equal(bus.hz, 25000000);
	/* 68 bytes at 25 MHz = 544 bits * 40 ns = 21760 ns, plus 1000 ns setup. */
	empty_chunk(t, true);
	assert_int_equal(lan865x_emu_bus_time(t->emu) - t0, 22760);
	/* A 12-byte control read: 96 * 40 + 1000 = 4840 ns. */
	rd1(t, 0, 0);
	assert_int_equal(lan865x_emu_bus_time(t->emu) - t0, 22760 + 4840);
	assert_int_equal(STAT(t, bus_ns), 22760 + 4840);
	assert_int_equal(STAT(t, held_ns), 0);
}

static void test_bit_errors(void **state)
{
	struct t *t = *state;
	unsigned diff = 0;

	assert_int_equal(lan865x_emu_set_ber(t->emu, 0, 0.01), 0);
	/* Reading IDVER: every MISO bit differing from the clean answer is one flip. */
	for (int i = 0; i < 200; i++) {
		memset(t->tx, 0, 12);
		t->tx[3] = 0x01;
		xfer(t, 12);
		diff += ones(get32(t->rx)) + ones(get32(t->rx + 4) ^ 1u) +
			ones(get32(t->rx + 8) ^ 0x11u);
	}
	assert_int_equal(STAT(t, miso_flips), diff);
	/* 19200 bits at 1e-2: expect 192; accept a wide band (seeded, deterministic). */
	assert_in_range(diff, 96, 384);
	assert_int_equal(lan865x_emu_set_ber(t->emu, 0.01, 0), 0);
	/* Raw transfers: a flipped DNC bit legitimately turns a chunk into a
	 * control transaction, so no footer checks here. */
	for (int i = 0; i < 200; i++) {
		memset(t->tx, 0, CH);
		put32(t->tx, dh(0, 0, 0, 0, 0, 1));
		xfer(t, CH);
	}
	/* 200 chunks of 544 bits at 1e-2: expect 1088. */
	assert_in_range(STAT(t, mosi_flips), 544, 2176);
	assert_int_equal(lan865x_emu_set_ber(t->emu, 0.6, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ctrl_read_reset_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_write_echo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_multi_register, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_protected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_header_parity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_flow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_injected_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_fcs_validation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_credits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_freed_at_tx_done, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_protocol_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_concatenated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lofe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_one_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_zarfe_two_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_unaligned_two_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_norx_and_fcs_strip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_overflow, setup_small_rx, teardown),
		cmocka_unit_test_setup_teardown(test_rx_sync_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_length_fcs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_internal_fault, setup, teardown),
		cmocka_unit_test_setup_teardown(test_data_header_parity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plca_and_trim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_32_byte_chunks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rx_csarfe, setup, teardown),
		cmocka_unit_test(test_realtime_hold),
		cmocka_unit_test_setup_teardown(test_bus_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bit_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
