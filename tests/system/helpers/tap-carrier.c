// SPDX-License-Identifier: MIT
/*
 * Helper of tests/system/test-tap-carrier.sh: creates a TAP with
 * ethdrv_tap_open() in the calling namespace and drives its carrier with
 * ethdrv_tap_set_carrier() (docs/mdio.md §10) on command: one word per
 * line on stdin, "on", "off" or "quit"; answers "ok" or "error <errno>" on
 * stdout. Prints "ready" once the TAP exists. The TAP vanishes on exit.
 */
#include <stdio.h>
#include <string.h>

#include "platform/linux/platform.h"

int main(int argc, char **argv)
{
	char line[64];
	int fd, err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s IFNAME\n", argv[0]);
		return 2;
	}
	err = ethdrv_tap_open(argv[1], ETHDRV_TAP_EXCL | ETHDRV_TAP_NO_PERSIST, &fd);
	if (err) {
		printf("error %d\n", -err);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "quit"))
			break;
		if (strcmp(line, "on") && strcmp(line, "off")) {
			printf("error 22\n");
			continue;
		}
		err = ethdrv_tap_set_carrier(fd, !strcmp(line, "on"));
		if (err)
			printf("error %d\n", -err);
		else
			printf("ok\n");
	}
	ethdrv_tap_close(fd);
	return 0;
}
