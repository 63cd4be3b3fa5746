/* SPDX-License-Identifier: MIT */
/* <linux/bitfield.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
