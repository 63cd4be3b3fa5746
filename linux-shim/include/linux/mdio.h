/* SPDX-License-Identifier: MIT */
/* <linux/mdio.h> for the kernel files: everything is in kshim.h. */
#include <kshim.h>
