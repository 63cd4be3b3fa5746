/* SPDX-License-Identifier: MIT */
/* <linux/iopoll.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
