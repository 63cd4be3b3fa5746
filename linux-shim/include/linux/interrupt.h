/* SPDX-License-Identifier: MIT */
/* <linux/interrupt.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
