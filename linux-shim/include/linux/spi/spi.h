/* SPDX-License-Identifier: MIT */
/* <linux/spi/spi.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
