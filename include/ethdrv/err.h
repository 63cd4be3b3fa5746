/* SPDX-License-Identifier: MIT */
/*
 * Errors: every action returns 0 or a negative errno (docs/style.md S4); there is
 * no private error enum.
 */
#ifndef ETHDRV_ERR_H
#define ETHDRV_ERR_H

#include <errno.h>
#include "compiler.h"

/**
 * ethdrv_strerror() - describe an error returned by an ethdrv call
 * @err: a negative errno (a positive one is accepted too)
 *
 * Return: a static string; never NULL.
 * Context: any thread.
 */
ETHDRV_EXPORT const char *ethdrv_strerror(int err);

#endif /* ETHDRV_ERR_H */
