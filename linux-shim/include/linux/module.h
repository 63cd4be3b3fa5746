/* SPDX-License-Identifier: MIT */
/* <linux/module.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
