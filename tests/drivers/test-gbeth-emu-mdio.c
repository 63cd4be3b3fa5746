// SPDX-License-Identifier: MIT
/*
 * Known-answer tests of the GbEth model's PIR bit-banged MDIO on a virtual
 * clock (docs/gbeth.md §6, §12 item 7): the core's bit-bang controller
 * (ethdrv/mdio_bitbang.h) drives PIR by read-modify-write as Linux does,
 * each half period advancing the clock; the AR8031 model behind PIR
 * answers its ID, takes writes, and the model times the frames: a read is
 * decoded at the 46th rising edge (45 periods after the first preamble
 * edge), a write at the 64th (63 periods); MDC phases under 160 ns are
 * counted. An address with no PHY reads 0xFFFF.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ethdrv/mdio.h"
#include "ethdrv/mdio_bitbang.h"
#include "gbeth_kat.h"

#define PIR_MDC 1u
#define PIR_MMD 2u
#define PIR_MDO 4u
#define PIR_MDI 8u
#define PHY_ADDR 7u /* the model's default */

static void pir_rmw(struct kat *k, uint32_t bit, bool on)
{
	uint32_t v = rd(k, PIR) & (PIR_MDC | PIR_MMD | PIR_MDO);

	wr(k, PIR, on ? v | bit : v & ~bit);
}

static void p_mdc(void *ctx, bool l)
{
	pir_rmw(ctx, PIR_MDC, l);
}

static void p_dir(void *ctx, bool out)
{
	pir_rmw(ctx, PIR_MMD, out);
}

static void p_mdo(void *ctx, bool l)
{
	pir_rmw(ctx, PIR_MDO, l);
}

static bool p_mdi(void *ctx)
{
	return rd(ctx, PIR) & PIR_MDI;
}

static void p_delay(void *ctx, unsigned ns)
{
	advance(ctx, ns);
}

static const struct ethdrv_mdio_bb_ops pins = {
	.set_mdc = p_mdc,
	.set_mdio_dir = p_dir,
	.set_mdio = p_mdo,
	.get_mdio = p_mdi,
	.delay_ns = p_delay,
};

struct rig {
	struct kat *k;
	struct ethdrv_mdio_bb bb;
	struct ethdrv_mdio_bus *bus;
};

static void rig_new(struct rig *r, unsigned half_ns)
{
	r->k = kat_new(true, 10000);
	ethdrv_mdio_bb_init(&r->bb, &pins, r->k, half_ns);
	assert_int_equal(
		ethdrv_mdio_bus_new("gbeth-kat", &ethdrv_mdio_bb_mdio_ops, &r->bb, NULL, &r->bus),
		0);
}

static void rig_free(struct rig *r)
{
	ethdrv_mdio_bus_free(r->bus);
	kat_free(r->k);
}

static void test_read_id_and_timing(void **state)
{
	struct rig r;
	struct gbeth_emu_stats st;
	uint16_t v;

	(void)state;
	rig_new(&r, 250);
	assert_int_equal(ethdrv_mdio_read(r.bus, PHY_ADDR, 2, &v), 0);
	assert_int_equal(v, 0x004D); /* AR8031 PHYSID1 (docs/mdio.md §8.1) */
	assert_int_equal(ethdrv_mdio_read(r.bus, PHY_ADDR, 3, &v), 0);
	assert_int_equal(v, 0xD074);
	gbeth_emu_get_stats(r.k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.mdio_frames), 2);
	assert_int_equal(ethdrv_counter_get(&st.mdio_last_frame_ns), 45 * 500);
	assert_int_equal(ethdrv_counter_get(&st.mdio_short_phases), 0);
	rig_free(&r);
}

static void test_write_and_no_phy(void **state)
{
	struct rig r;
	struct gbeth_emu_stats st;
	uint16_t v;

	(void)state;
	rig_new(&r, 250);
	/* ADVERTISE (register 4): 10/100 half and full, CSMA. */
	assert_int_equal(ethdrv_mdio_write(r.bus, PHY_ADDR, 4, 0x01E1), 0);
	gbeth_emu_get_stats(r.k->emu, &st);
	assert_int_equal(ethdrv_counter_get(&st.mdio_last_frame_ns), 63 * 500);
	assert_int_equal(ethdrv_mdio_read(r.bus, PHY_ADDR, 4, &v), 0);
	assert_int_equal(v & 0x01E1, 0x01E1);
	assert_int_equal(ethdrv_mdio_read(r.bus, PHY_ADDR + 1, 2, &v), 0);
	assert_int_equal(v, 0xFFFF);
	assert_int_equal(ethdrv_counter_get(&r.bb.st.no_answer), 1);
	rig_free(&r);
}

/* 100 ns phases are under the 160 ns minimum: counted, the bits still taken. */
static void test_fast_mdc_counted(void **state)
{
	struct rig r;
	struct gbeth_emu_stats st;
	uint16_t v;

	(void)state;
	rig_new(&r, 100);
	assert_int_equal(ethdrv_mdio_read(r.bus, PHY_ADDR, 2, &v), 0);
	assert_int_equal(v, 0x004D);
	gbeth_emu_get_stats(r.k->emu, &st);
	assert_true(ethdrv_counter_get(&st.mdio_short_phases) >= 64);
	rig_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_id_and_timing),
		cmocka_unit_test(test_write_and_no_phy),
		cmocka_unit_test(test_fast_mdc_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
