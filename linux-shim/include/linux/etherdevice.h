/* SPDX-License-Identifier: MIT */
/* <linux/etherdevice.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
