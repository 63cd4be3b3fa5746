/* SPDX-License-Identifier: MIT */
/* <linux/kernel.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
