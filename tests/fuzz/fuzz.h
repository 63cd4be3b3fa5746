/* SPDX-License-Identifier: MIT */
/*
 * What every libFuzzer target here shares: the entry point libFuzzer calls
 * and an assertion that stops the run where it failed (a trap, so the
 * fuzzer records the input and the stack).
 */
#ifndef ETHDRV_TESTS_FUZZ_H
#define ETHDRV_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fz_assert(c)                      \
	do {                              \
		if (!(c))                 \
			__builtin_trap(); \
	} while (0)

#endif /* ETHDRV_TESTS_FUZZ_H */
