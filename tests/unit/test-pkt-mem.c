// SPDX-License-Identifier: MIT
/*
 * Packet pools in caller memory (ethdrv_pkt_pool_new_in()): the packets
 * live inside the given block (a DMA region, for drivers that hand pool
 * buffers to a device), the block is checked and never freed by the pool.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ethdrv/pkt.h"

#define COUNT 16

static void test_bad_arguments(void **state)
{
	size_t size = COUNT * sizeof(struct ethdrv_pkt);
	uint8_t *mem = aligned_alloc(64, size + 64);
	struct ethdrv_pkt_pool *pool;

	(void)state;
	assert_non_null(mem);
	assert_int_equal(ethdrv_pkt_pool_new_in(NULL, size, COUNT, &pool), -EINVAL);
	assert_int_equal(ethdrv_pkt_pool_new_in(mem, size, 0, &pool), -EINVAL);
	assert_int_equal(ethdrv_pkt_pool_new_in(mem, size - 1, COUNT, &pool), -EINVAL);
	assert_int_equal(ethdrv_pkt_pool_new_in(mem + 1, size, COUNT, &pool), -EINVAL);
	assert_int_equal(ethdrv_pkt_pool_new_in(mem, size, COUNT, NULL), -EINVAL);
	free(mem);
}

static void test_packets_in_the_block(void **state)
{
	size_t size = COUNT * sizeof(struct ethdrv_pkt);
	uint8_t *mem = aligned_alloc(64, size);
	struct ethdrv_pkt *pkts[COUNT];
	struct ethdrv_pkt_pool *pool;

	(void)state;
	assert_non_null(mem);
	memset(mem, 0xAB, size); /* the pool must not rely on zeroed memory */
	assert_int_equal(ethdrv_pkt_pool_new_in(mem, size, COUNT, &pool), 0);
	for (unsigned i = 0; i < COUNT; i++) {
		pkts[i] = ethdrv_pkt_alloc(pool);
		assert_non_null(pkts[i]);
		assert_true((uint8_t *)pkts[i] >= mem);
		assert_true((uint8_t *)(pkts[i] + 1) <= mem + size);
		assert_int_equal(pkts[i]->len, 0);
		assert_ptr_equal(pkts[i]->data, pkts[i]->buf + ETHDRV_PKT_HEADROOM);
	}
	assert_null(ethdrv_pkt_alloc(pool));
	for (unsigned i = 0; i < COUNT; i++)
		ethdrv_pkt_free(pkts[i]);
	assert_int_equal(ethdrv_pkt_pool_avail(pool), COUNT);
	ethdrv_pkt_pool_free(pool);
	/* The block is still the caller's: writable, and freed by the caller. */
	memset(mem, 0, size);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_packets_in_the_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
