// SPDX-License-Identifier: MIT
/*
 * Root-only system test of the Linux platform layer (docs/style.md S10: skips
 * without root). It works only inside two namespaces it creates,
 * "ethdrv-test-<pid>" and "ethdrv-test-<pid>-b", uses link-local 169.254.x
 * addresses, never changes the root namespace, and removes everything in the
 * group teardown even when an assertion failed.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "ethdrv/compiler.h"
#include "platform/linux/platform.h"

#define IFF_UP_FLAG 0x1 /* IFF_UP */
#define ETH_P_ARP_BE 0x08, 0x06 /* ARP ethertype on the wire */

static char ns_a[ETHDRV_NETNS_NAME_MAX]; /* main namespace of the test */
static char ns_b[ETHDRV_NETNS_NAME_MAX]; /* target of the link move */
static char tap_name[ETHDRV_IFNAMSIZ]; /* "edt<pid>" */
static bool have_a, have_b; /* namespaces that still exist */
static int saved_ns = -1; /* set while the thread is inside a test namespace */
static int tap_fd = -1; /* TAP fd of the running test */

static bool is_root(void)
{
	return geteuid() == 0;
}

static int group_setup(void **state)
{
	if (!is_root())
		return 0;
	snprintf(ns_a, sizeof(ns_a), "ethdrv-test-%d", (int)getpid());
	snprintf(ns_b, sizeof(ns_b), "ethdrv-test-%d-b", (int)getpid());
	snprintf(tap_name, sizeof(tap_name), "edt%d", (int)getpid());
	have_a = ethdrv_netns_add(ns_a) == 0;
	have_b = have_a && ethdrv_netns_add(ns_b) == 0;
	return have_a && have_b ? 0 : -1;
}

/* Per-test cleanup: close the TAP and return to the root namespace. */
static int test_teardown(void **state)
{
	ethdrv_tap_close(tap_fd);
	tap_fd = -1;
	if (saved_ns >= 0 && ethdrv_netns_leave(saved_ns) != 0)
		return -1;
	saved_ns = -1;
	return 0;
}

static int group_teardown(void **state)
{
	int err = test_teardown(state);

	if (have_b && ethdrv_netns_del(ns_b) != 0)
		err = -1;
	if (have_a && ethdrv_netns_del(ns_a) != 0)
		err = -1;
	have_a = have_b = false;
	return err;
}

static void enter(const char *ns)
{
	assert_int_equal(saved_ns, -1);
	assert_int_equal(ethdrv_netns_enter(ns, &saved_ns), 0);
	assert_true(saved_ns >= 0);
}

static void leave(void)
{
	int fd = saved_ns;

	saved_ns = -1;
	assert_int_equal(ethdrv_netns_leave(fd), 0);
}

/* ethdrv_netns_list() callback: count the names equal to ns_a or ns_b. */
static int count_ours(const char *name, void *arg)
{
	unsigned *found = arg;

	if (strcmp(name, ns_a) == 0 || strcmp(name, ns_b) == 0)
		(*found)++;
	return 0;
}

static void test_netns_created_and_listed(void **state)
{
	unsigned found = 0;

	if (!is_root())
		skip();
	assert_int_equal(ethdrv_netns_list(ns_a, count_ours, &found), 2);
	assert_int_equal(found, 2);
	assert_int_equal(ethdrv_netns_add(ns_a), -EEXIST);
	/* A fresh namespace has only lo, and it is down. */
	enter(ns_a);
	assert_int_equal(ethdrv_link_ifindex(tap_name), -ENODEV);
	leave();
}

/* Build an ARP request from 02:00:00:00:00:02 / 169.254.200.2 for 169.254.200.1. */
static size_t build_arp_request(uint8_t *f)
{
	static const uint8_t
		frame[42] = {
			0xff,
			0xff,
			0xff,
			0xff,
			0xff,
			0xff,
			0x02,
			0,
			0,
			0,
			0,
			0x02,
			ETH_P_ARP_BE,
			0x00,
			0x01,
			0x08,
			0x00,
			6,
			4,
			0x00,
			0x01, /* Ethernet/IPv4, request */
			0x02,
			0,
			0,
			0,
			0,
			0x02,
			169,
			254,
			200,
			2, /* sender MAC, IP */
			0,
			0,
			0,
			0,
			0,
			0,
			169,
			254,
			200,
			1, /* target MAC (unknown), IP */
		};

	memcpy(f, frame, sizeof(frame));
	return sizeof(frame);
}

/* True if @f is an ARP reply from 169.254.200.1 to our 02:..:02 / 169.254.200.2. */
static bool is_arp_reply_for_us(const uint8_t *f, ssize_t len)
{
	static const uint8_t us[6] = { 0x02, 0, 0, 0, 0, 0x02 };

	return len >= 42 && f[12] == 0x08 && f[13] == 0x06 && f[20] == 0 && f[21] == 2 &&
	       memcmp(f, us, 6) == 0 && memcmp(f + 28, (uint8_t[]){ 169, 254, 200, 1 }, 4) == 0 &&
	       memcmp(f + 32, us, 6) == 0;
}

/* Read frames (10 s at most) until the kernel's ARP reply arrives; skip IPv6 noise. */
static bool wait_arp_reply(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t f[2048];
	ssize_t n;
	int i;

	for (i = 0; i < 100 && poll(&p, 1, 100) >= 0; i++) {
		while ((n = ethdrv_tap_read(fd, f, sizeof(f))) > 0)
			if (is_arp_reply_for_us(f, n))
				return true;
		assert_int_equal(n, -EAGAIN);
	}
	return false;
}

static void test_tap_configured_in_netns(void **state)
{
	struct ethdrv_link_info info;
	struct ethdrv_ipv4_addr addrs[4];
	uint8_t frame[64];
	size_t len;

	if (!is_root())
		skip();
	enter(ns_a);
	assert_int_equal(ethdrv_link_set_up("lo", true), 0);
	assert_int_equal(ethdrv_link_get("lo", &info), 0);
	assert_true(info.flags & IFF_UP_FLAG);
	assert_int_equal(ethdrv_tap_open(tap_name, 0, &tap_fd), 0);
	assert_int_equal(ethdrv_link_set_mtu(tap_name, 1400), 0);
	assert_int_equal(ethdrv_addr_add_ipv4(tap_name, "169.254.200.1", 24), 0);
	assert_int_equal(ethdrv_addr_add_ipv4(tap_name, "169.254.200.1", 24), -EEXIST);
	assert_int_equal(ethdrv_link_set_up(tap_name, true), 0);
	/* Read it all back over rtnetlink. */
	assert_int_equal(ethdrv_link_get(tap_name, &info), 0);
	assert_string_equal(info.name, tap_name);
	assert_true(info.ifindex > 1);
	assert_int_equal(info.mtu, 1400);
	assert_true(info.flags & IFF_UP_FLAG);
	assert_int_equal(ethdrv_addr_list_ipv4(tap_name, addrs, ETHDRV_ARRAY_SIZE(addrs)), 1);
	assert_memory_equal(&addrs[0].addr, ((const uint8_t[]){ 169, 254, 200, 1 }), 4);
	assert_int_equal(addrs[0].prefix_len, 24);
	/* A frame written to the TAP reaches the stack, which answers on the TAP. */
	len = build_arp_request(frame);
	assert_int_equal(ethdrv_tap_write(tap_fd, frame, len), 0);
	assert_true(wait_arp_reply(tap_fd));
	assert_int_equal(ethdrv_link_set_up(tap_name, false), 0);
	assert_int_equal(ethdrv_link_get(tap_name, &info), 0);
	assert_false(info.flags & IFF_UP_FLAG);
	leave();
	/* None of it is visible in the root namespace. */
	assert_int_equal(ethdrv_link_ifindex(tap_name), -ENODEV);
}

static void test_tap_exclusive_and_not_persistent(void **state)
{
	int fd2 = -1;

	if (!is_root())
		skip();
	enter(ns_a);
	assert_int_equal(
		ethdrv_tap_open(tap_name, ETHDRV_TAP_EXCL | ETHDRV_TAP_NO_PERSIST, &tap_fd), 0);
	assert_true(ethdrv_link_ifindex(tap_name) > 1);
	assert_int_equal(ethdrv_tap_open(tap_name, ETHDRV_TAP_EXCL, &fd2), -EBUSY);
	assert_int_equal(ethdrv_tap_open("lo", 0, &fd2), -EINVAL); /* exists, not a TAP */
	assert_int_equal(fd2, -1);
	/* Without the persist flag the TAP goes away with its fd. */
	ethdrv_tap_close(tap_fd);
	tap_fd = -1;
	assert_int_equal(ethdrv_link_ifindex(tap_name), -ENODEV);
	leave();
}

static void test_link_moved_and_deleted(void **state)
{
	if (!is_root())
		skip();
	enter(ns_a);
	assert_int_equal(ethdrv_tap_open(tap_name, 0, &tap_fd), 0);
	assert_int_equal(ethdrv_link_set_netns(tap_name, "ethdrv-no-such-ns"), -ENOENT);
	assert_int_equal(ethdrv_link_set_netns(tap_name, ns_b), 0);
	assert_int_equal(ethdrv_link_ifindex(tap_name), -ENODEV);
	leave();
	enter(ns_b);
	assert_true(ethdrv_link_ifindex(tap_name) > 1);
	assert_int_equal(ethdrv_link_set_up(tap_name, true), 0);
	assert_int_equal(ethdrv_link_del(tap_name), 0);
	assert_int_equal(ethdrv_link_ifindex(tap_name), -ENODEV);
	assert_int_equal(ethdrv_link_del(tap_name), -ENODEV);
	assert_int_equal(ethdrv_link_set_up("ethdrv-nolink", true), -ENODEV);
	assert_int_equal(ethdrv_link_del("lo"), -EOPNOTSUPP);
	leave();
}

/* Delete both namespaces and check that their files are gone. */
static void test_netns_deleted(void **state)
{
	char path[ETHDRV_NETNS_NAME_MAX + 16];
	unsigned found = 0;

	if (!is_root())
		skip();
	assert_int_equal(ethdrv_netns_del(ns_b), 0);
	have_b = false;
	assert_int_equal(ethdrv_netns_del(ns_a), 0);
	have_a = false;
	snprintf(path, sizeof(path), "%s/%s", ETHDRV_NETNS_DIR, ns_a);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(errno, ENOENT);
	snprintf(path, sizeof(path), "%s/%s", ETHDRV_NETNS_DIR, ns_b);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(ethdrv_netns_list(ns_a, count_ours, &found), 0);
	assert_int_equal(ethdrv_netns_del(ns_a), -ENOENT);
	assert_int_equal(ethdrv_netns_enter(ns_a, &saved_ns), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_netns_created_and_listed, test_teardown),
		cmocka_unit_test_teardown(test_tap_configured_in_netns, test_teardown),
		cmocka_unit_test_teardown(test_tap_exclusive_and_not_persistent, test_teardown),
		cmocka_unit_test_teardown(test_link_moved_and_deleted, test_teardown),
		cmocka_unit_test_teardown(test_netns_deleted, test_teardown),
	};

	if (!is_root())
		printf("SKIP: needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN)\n");
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
