// SPDX-License-Identifier: MIT
/*
 * Bit-banged MDIO controller for the bus core (ethdrv/mdio_bitbang.h).
 */
#include "ethdrv/mdio_bitbang.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define PREAMBLE_BITS 32u
#define FRAME_PERIODS 65u /* preamble, 32 frame bits, the closing clock */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned half(const struct ethdrv_mdio_bb *bb)
{
	return bb->half_ns ? bb->half_ns : ETHDRV_MDIO_BB_HALF_NS;
}

/* A fixed bit-time delay, not a poll: nothing is tested while waiting. */
static void bb_delay(struct ethdrv_mdio_bb *bb)
{
	uint64_t end;

	if (bb->ops->delay_ns) {
		bb->ops->delay_ns(bb->ctx, half(bb));
		return;
	}
	end = mono_ns() + half(bb);
	while (mono_ns() < end)
		;
}

static void clock_pulse(struct ethdrv_mdio_bb *bb)
{
	bb_delay(bb);
	bb->ops->set_mdc(bb->ctx, true);
	ethdrv_counter_inc(&bb->st.edges);
	bb_delay(bb);
	bb->ops->set_mdc(bb->ctx, false);
}

static void send_bit(struct ethdrv_mdio_bb *bb, bool bit)
{
	bb->ops->set_mdio(bb->ctx, bit);
	clock_pulse(bb);
}

static bool get_bit(struct ethdrv_mdio_bb *bb)
{
	clock_pulse(bb);
	return bb->ops->get_mdio(bb->ctx);
}

static void send_num(struct ethdrv_mdio_bb *bb, uint32_t v, unsigned bits)
{
	while (bits--)
		send_bit(bb, (v >> bits) & 1);
}

static uint16_t get_num(struct ethdrv_mdio_bb *bb, unsigned bits)
{
	uint16_t v = 0;

	while (bits--)
		v = (uint16_t)(v << 1 | get_bit(bb));
	return v;
}

void ethdrv_mdio_bb_init(struct ethdrv_mdio_bb *bb, const struct ethdrv_mdio_bb_ops *ops, void *ctx,
			 unsigned half_ns)
{
	memset(bb, 0, sizeof(*bb));
	bb->ops = ops;
	bb->ctx = ctx;
	bb->half_ns = half_ns;
}

uint64_t ethdrv_mdio_bb_frame_ns(const struct ethdrv_mdio_bb *bb)
{
	return (uint64_t)FRAME_PERIODS * 2 * half(bb);
}

static int bb_ack(void *ctx)
{
	(void)ctx;
	return 0;
}

/* ST and OP of each frame kind (docs/mdio.md §1.1). */
static void frame_code(enum ethdrv_mdio_op op, unsigned *st, unsigned *opc, bool *read)
{
	static const struct {
		uint8_t st, op, read;
	} code[] = {
		[ETHDRV_MDIO_C22_READ] = { 1, 2, 1 }, [ETHDRV_MDIO_C22_WRITE] = { 1, 1, 0 },
		[ETHDRV_MDIO_C45_ADDR] = { 0, 0, 0 }, [ETHDRV_MDIO_C45_WRITE] = { 0, 1, 0 },
		[ETHDRV_MDIO_C45_READ] = { 0, 3, 1 },
	};

	*st = code[op].st;
	*opc = code[op].op;
	*read = code[op].read;
}

static int bb_start(void *ctx, const struct ethdrv_mdio_frame *f)
{
	struct ethdrv_mdio_bb *bb = ctx;
	unsigned st, op;
	bool read;

	if ((unsigned)f->op > ETHDRV_MDIO_C45_READ)
		return -EINVAL;
	frame_code(f->op, &st, &op, &read);
	bb->ops->set_mdio_dir(bb->ctx, true);
	send_num(bb, UINT32_MAX, PREAMBLE_BITS);
	send_num(bb, st, 2);
	send_num(bb, op, 2);
	send_num(bb, f->addr & 0x1F, 5);
	send_num(bb, f->reg & 0x1F, 5);
	ethdrv_counter_inc(&bb->st.frames);
	if (read) {
		bb->ops->set_mdio_dir(bb->ctx, false);
		if (get_bit(bb)) {
			/* Nobody drove the turnaround: clock the frame out, read all ones. */
			get_num(bb, 16);
			get_bit(bb);
			ethdrv_counter_inc(&bb->st.no_answer);
			bb->data = 0xFFFF;
			return 0;
		}
		bb->data = get_num(bb, 16);
		get_bit(bb);
		return 0;
	}
	send_num(bb, 2, 2);
	send_num(bb, f->data, 16);
	bb->ops->set_mdio_dir(bb->ctx, false);
	get_bit(bb);
	return 0;
}

static int bb_test(void *ctx, bool *done)
{
	(void)ctx;
	*done = true; /* start() shifted the whole frame */
	return 0;
}

static int bb_read_data(void *ctx, uint16_t *val)
{
	*val = ((struct ethdrv_mdio_bb *)ctx)->data;
	return 0;
}

const struct ethdrv_mdio_ops ethdrv_mdio_bb_mdio_ops = {
	.ack_event = bb_ack,
	.start = bb_start,
	.test_event = bb_test,
	.read_data = bb_read_data,
};
