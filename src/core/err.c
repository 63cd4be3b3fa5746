// SPDX-License-Identifier: MIT
/* ethdrv_strerror(): errno names for the errors ethdrv returns (docs/style.md S4). */
#include <string.h>
#include "ethdrv/err.h"

ETHDRV_EXPORT const char *ethdrv_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return "success";
	case EPROTO:
		return "protocol error (bad echo, parity or complement)";
	case ETIMEDOUT:
		return "timed out waiting for the device";
	case ENODEV:
		return "no such device";
	case EOPNOTSUPP:
		return "operation not supported by the driver";
	default:
		/* strerror() may use a static buffer; acceptable for messages. */
		return strerror(err);
	}
}
