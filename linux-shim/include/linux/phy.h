/* SPDX-License-Identifier: MIT */
/* <linux/phy.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
