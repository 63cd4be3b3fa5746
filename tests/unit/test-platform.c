// SPDX-License-Identifier: MIT
/*
 * Linux platform layer without root or hardware: the spidev spec parser,
 * the error paths of spidev, GPIO, TAP and netns (with their log lines), a
 * read-only rtnetlink query, and the IRQ_N level mirror driven by a fake
 * line. The parts that need root live in test-platform-netns.c.
 */
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "platform/linux/platform.h"

#define NOBODY_ID 65534 /* uid and gid of "nobody" */

static char last_line[512]; /* last error line logged */
static unsigned lines_logged; /* lines logged since the last reset */

/* Log sink that keeps the last line, so tests can check what users read. */
static void capture_sink(void *arg, int level, const char *module, const char *line)
{
	snprintf(last_line, sizeof(last_line), "%s", line);
	lines_logged++;
}

static void log_reset(void)
{
	last_line[0] = '\0';
	lines_logged = 0;
}

static int group_setup(void **state)
{
	ethdrv_log_set_sink(capture_sink, NULL);
	return 0;
}

static int group_teardown(void **state)
{
	ethdrv_log_set_sink(NULL, NULL);
	return 0;
}

/* Assert that exactly one line was logged and that it contains @needle. */
static void assert_logged(const char *needle)
{
	if (!strstr(last_line, needle))
		fail_msg("log line \"%s\" lacks \"%s\"", last_line, needle);
	assert_int_equal(lines_logged, 1);
	log_reset();
}

static void test_spec_parse_defaults(void **state)
{
	struct ethdrv_spidev_spec s;

	assert_int_equal(
		ethdrv_spidev_spec_parse("spidev:/dev/spidev0.0,irq=/dev/gpiochip0:25", &s), 0);
	assert_string_equal(s.spi_path, "/dev/spidev0.0");
	assert_string_equal(s.irq.chip, "/dev/gpiochip0");
	assert_int_equal(s.irq.line, 25);
	assert_int_equal(s.hz, 25000000);
	assert_int_equal(s.mode, 0);
	assert_false(s.pull_up);
}

static void test_spec_parse_all_keys(void **state)
{
	struct ethdrv_spidev_spec s;

	assert_int_equal(ethdrv_spidev_spec_parse("spidev:/dev/spidev1.2,hz=15000000,mode=3,"
						  "bias=pull-up,irq=/dev/gpiochip3:7",
						  &s),
			 0);
	assert_string_equal(s.spi_path, "/dev/spidev1.2");
	assert_string_equal(s.irq.chip, "/dev/gpiochip3");
	assert_int_equal(s.irq.line, 7);
	assert_int_equal(s.hz, 15000000);
	assert_int_equal(s.mode, 3);
	assert_true(s.pull_up);
	/* Range ends are inclusive; bias=none is explicit off; a ':' in the chip path is kept. */
	assert_int_equal(ethdrv_spidev_spec_parse("spidev:/dev/spidev0.0,irq=/dev/gpio:a:0,"
						  "hz=100000,bias=none",
						  &s),
			 0);
	assert_int_equal(s.hz, 100000);
	assert_string_equal(s.irq.chip, "/dev/gpio:a");
	assert_int_equal(s.irq.line, 0);
	assert_false(s.pull_up);
	assert_int_equal(ethdrv_spidev_spec_parse(
				 "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz=50000000", &s),
			 0);
	assert_int_equal(s.hz, 50000000);
	assert_true(s.has_irq);
	assert_false(s.has_reset);
	assert_int_equal(s.poll_us, 0);
	assert_int_equal(lines_logged, 0);
}

/* irq=none (polled mode, default period) and a RESET_N line. */
static void test_spec_parse_polled_reset(void **state)
{
	struct ethdrv_spidev_spec s;

	log_reset();
	assert_int_equal(ethdrv_spidev_spec_parse("spidev:/dev/spidev0.1,irq=none", &s), 0);
	assert_false(s.has_irq);
	assert_int_equal(s.poll_us, ETHDRV_SPIDEV_POLL_US_DEFAULT);
	assert_false(s.has_reset);
	assert_int_equal(ethdrv_spidev_spec_parse("spidev:/dev/spidev0.1,reset=/dev/gpiochip2:5,"
						  "poll_us=50,irq=none",
						  &s),
			 0);
	assert_false(s.has_irq);
	assert_int_equal(s.poll_us, 50);
	assert_true(s.has_reset);
	assert_string_equal(s.reset.chip, "/dev/gpiochip2");
	assert_int_equal(s.reset.line, 5);
	/* RESET_N on the same chip as IRQ_N, another line. */
	assert_int_equal(ethdrv_spidev_spec_parse("spidev:/dev/spidev0.1,irq=/dev/gpiochip0:4,"
						  "reset=/dev/gpiochip0:5,poll_us=1000000",
						  &s),
			 -EINVAL);
	assert_logged("only with irq=none");
	assert_int_equal(ethdrv_spidev_spec_parse("spidev:/dev/spidev0.1,irq=/dev/gpiochip0:4,"
						  "reset=/dev/gpiochip0:5",
						  &s),
			 0);
	assert_true(s.has_irq && s.has_reset);
	assert_int_equal(s.irq.line, 4);
	assert_int_equal(s.reset.line, 5);
	assert_int_equal(s.poll_us, 0);
	assert_int_equal(lines_logged, 0);
}

/* A bad spec and the part of it the error line must name. */
struct bad_spec {
	const char *spec;
	const char *named;
};

static const struct bad_spec bad_specs[] = {
	{ "emu:lan8650", "prefix" },
	{ "spidev:/dev/spidev0.0", "irq" },
	{ "spidev:/dev/spidev0.0,hz=1000000", "missing" },
	{ "spidev:dev/spidev0.0,irq=/dev/gpiochip0:1", "spidev path" },
	{ "spidev:,irq=/dev/gpiochip0:1", "spidev path" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0", "irq=/dev/gpiochipN:LINE" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:", "irq" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:x", "irq" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:-1", "irq" },
	{ "spidev:/dev/spidev0.0,irq=gpiochip0:1", "absolute path" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz=99999", "100000..50000000" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz=50000001", "100000..50000000" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz=25MHz", "bad hz" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz=", "bad hz" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz=+1000000", "bad hz" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,mode=4", "use 0, 1, 2 or 3" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,bias=pull-down", "pull-up or none" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,speed=1", "accepted keys are irq, hz" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,hz", "as key=value" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,irq=/dev/gpiochip0:2", "each key once" },
	{ "spidev:/dev/spidev0.0,,irq=/dev/gpiochip0:1", "empty option" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,", "empty option" },
	{ "spidev:/dev/spidev0.0,irq=nothing", "or irq=none" },
	{ "spidev:/dev/spidev0.0,irq=none,poll_us=49", "50..1000000" },
	{ "spidev:/dev/spidev0.0,irq=none,poll_us=1000001", "50..1000000" },
	{ "spidev:/dev/spidev0.0,irq=none,poll_us=1ms", "bad poll_us" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,poll_us=100", "only with irq=none" },
	{ "spidev:/dev/spidev0.0,irq=none,bias=pull-up", "only with an IRQ line" },
	{ "spidev:/dev/spidev0.0,irq=none,reset=/dev/gpiochip0", "reset=/dev/gpiochipN:LINE" },
	{ "spidev:/dev/spidev0.0,irq=none,reset=gpiochip0:1", "absolute path" },
	{ "spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,reset=/dev/gpiochip0:1", "same line" },
	{ "spidev:/dev/spidev0.0,irq=none,reset=/dev/gpiochip0:1,reset=/dev/gpiochip0:2",
	  "each key once" },
	{ "spidev:/dev/spidev0.0,poll_us=100", "missing" },
};

static void test_spec_parse_rejects(void **state)
{
	struct ethdrv_spidev_spec s;
	char longspec[400];
	size_t i;

	log_reset();
	for (i = 0; i < ETHDRV_ARRAY_SIZE(bad_specs); i++) {
		print_message("%s\n", bad_specs[i].spec);
		assert_int_equal(ethdrv_spidev_spec_parse(bad_specs[i].spec, &s), -EINVAL);
		assert_logged(bad_specs[i].named);
	}
	memset(longspec, 'a', sizeof(longspec) - 1);
	longspec[sizeof(longspec) - 1] = '\0';
	memcpy(longspec, "spidev:/", 8);
	assert_int_equal(ethdrv_spidev_spec_parse(longspec, &s), -EINVAL);
	assert_logged("length");
	assert_int_equal(ethdrv_spidev_spec_parse(NULL, &s), -EINVAL);
	assert_logged("prefix");
}

static void test_spidev_open_errors(void **state)
{
	struct ethdrv_spi_bus bus;

	log_reset();
	assert_int_equal(ethdrv_spidev_open("/dev/spidev-none9.9", 1000000, 0, &bus), -ENOENT);
	assert_logged("spidev /dev/spidev-none9.9: open: No such file or directory: enable the "
		      "spidev overlay or check the bus/cs numbers");
	/* /dev/null opens but is not a spidev node: the first ioctl says so. */
	assert_int_equal(ethdrv_spidev_open("/dev/null", 1000000, 0, &bus), -ENOTTY);
	assert_logged("not a spidev device");
	assert_int_equal(ethdrv_spidev_open("/dev/null", 1000000, 4, &bus), -EINVAL);
	assert_logged("mode 0..3");
	assert_int_equal(ethdrv_spidev_open("/dev/null", 0, 0, &bus), -EINVAL);
	assert_logged("hz > 0");
}

static void test_spidev_bus_open_errors(void **state)
{
	struct ethdrv_spidev_spec spec;
	struct ethdrv_spi_bus bus;

	log_reset();
	assert_int_equal(
		ethdrv_spidev_spec_parse("spidev:/dev/spidev-none9.9,irq=/dev/null:0", &spec), 0);
	assert_int_equal(ethdrv_spidev_bus_open(&spec, &bus), -ENOENT);
	assert_logged("/dev/spidev-none9.9");
}

static void test_gpio_open_errors(void **state)
{
	struct ethdrv_gpio_irq *irq = NULL;
	int fd = -1;

	log_reset();
	assert_int_equal(ethdrv_gpio_irq_open("/dev/gpiochip-none9", 3, false, &fd, &irq), -ENOENT);
	assert_logged("gpio /dev/gpiochip-none9 line 3: open: No such file or directory: check "
		      "the chip number");
	assert_int_equal(ethdrv_gpio_irq_open("/dev/null", 3, false, &fd, &irq), -ENOTTY);
	assert_logged("not a GPIO character device");
	assert_null(irq);
	assert_int_equal(fd, -1);
}

/* A fake IRQ_N line: a pipe carries "edges", @low is the level. */
struct fake_line {
	int pipe[2]; /* write end: the test; read end: the mirror thread */
	atomic_bool low; /* the line level, true = asserted */
	atomic_int fail; /* -errno the next sample returns, 0 = none */
};

static int fake_drain(int fd, void *arg)
{
	char buf[64];

	while (read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		;
	return 0;
}

static int fake_get_low(int fd, void *arg, bool *low)
{
	struct fake_line *l = arg;

	*low = atomic_load(&l->low);
	return atomic_load(&l->fail);
}

static const struct ethdrv__gpio_line_ops fake_ops = {
	.drain = fake_drain,
	.get_low = fake_get_low,
};

/* True if @fd is readable right now. */
static bool fd_is_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* Wait (10 s at most, far above the expected microseconds) for @n samples. */
static void wait_updates(struct ethdrv_gpio_irq *irq, unsigned long n)
{
	int i;

	for (i = 0; i < 10000 && ethdrv__gpio_irq_updates(irq) < n; i++)
		usleep(1000);
	assert_int_equal(ethdrv__gpio_irq_updates(irq), n);
}

/* Set the fake level, signal an edge and wait until the mirror applied it. */
static void fake_edge(struct fake_line *l, struct ethdrv_gpio_irq *irq, bool low)
{
	unsigned long n = ethdrv__gpio_irq_updates(irq);

	atomic_store(&l->low, low);
	assert_int_equal(write(l->pipe[1], "e", 1), 1);
	wait_updates(irq, n + 1);
}

static void test_gpio_mirror_level(void **state)
{
	struct fake_line l = { .low = false };
	struct ethdrv_gpio_irq *irq;
	int level;

	assert_int_equal(pipe(l.pipe), 0);
	assert_int_equal(ethdrv__gpio_irq_start(l.pipe[0], &fake_ops, &l, &level, &irq), 0);
	wait_updates(irq, 1); /* the sample at start: line high, not readable */
	assert_false(fd_is_readable(level));
	fake_edge(&l, irq, true);
	assert_true(fd_is_readable(level));
	/* Still low after another event (e.g. an unmask): stays readable, never lost. */
	fake_edge(&l, irq, true);
	assert_true(fd_is_readable(level));
	assert_true(fd_is_readable(level)); /* polling never consumes the level */
	fake_edge(&l, irq, false);
	assert_false(fd_is_readable(level));
	/* An edge whose pulse ended before the sample (high again): not readable. */
	fake_edge(&l, irq, false);
	assert_false(fd_is_readable(level));
	fake_edge(&l, irq, true);
	assert_true(fd_is_readable(level));
	ethdrv_gpio_irq_close(irq); /* closes pipe[0] and joins while asserted */
	close(l.pipe[1]);
}

static void test_gpio_mirror_asserted_at_start(void **state)
{
	struct fake_line l = { .low = true };
	struct ethdrv_gpio_irq *irq;
	int level;

	assert_int_equal(pipe(l.pipe), 0);
	assert_int_equal(ethdrv__gpio_irq_start(l.pipe[0], &fake_ops, &l, &level, &irq), 0);
	wait_updates(irq, 1);
	assert_true(fd_is_readable(level));
	ethdrv_gpio_irq_close(irq);
	close(l.pipe[1]);
}

static void test_gpio_mirror_failure_asserts(void **state)
{
	struct fake_line l = { .low = false };
	struct pollfd p = { .events = POLLIN };
	struct ethdrv_gpio_irq *irq;

	log_reset();
	atomic_store(&l.fail, -EIO);
	assert_int_equal(pipe(l.pipe), 0);
	assert_int_equal(ethdrv__gpio_irq_start(l.pipe[0], &fake_ops, &l, &p.fd, &irq), 0);
	/* A broken line is reported as asserted so the driver polls and meets the error. */
	assert_int_equal(poll(&p, 1, 10000), 1);
	assert_int_equal(ethdrv__gpio_irq_updates(irq), 0);
	ethdrv_gpio_irq_close(irq);
	close(l.pipe[1]);
	assert_logged("IRQ left asserted");
}

/* Run @fn as user nobody in a child and return what it returned. */
static int run_as_nobody(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(NOBODY_ID) || setuid(NOBODY_ID))
			_exit(255);
		_exit(-fn() & 0xff);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_not_equal(WEXITSTATUS(status), 255);
	return -WEXITSTATUS(status);
}

static int open_tap_unprivileged(void)
{
	int fd, err = ethdrv_tap_open("ethdrvperm0", 0, &fd);

	if (!err)
		ethdrv_tap_close(fd);
	return err;
}

static void test_tap_open_errors(void **state)
{
	int fd = -1, err;

	log_reset();
	assert_int_equal(ethdrv_tap_open("", 0, &fd), -EINVAL);
	assert_logged("1..15 chars");
	assert_int_equal(ethdrv_tap_open("t1s0-sixteen-chr", 0, &fd), -EINVAL);
	assert_logged("t1s0-sixteen-chr");
	assert_int_equal(ethdrv_tap_open("a/b", 0, &fd), -EINVAL);
	assert_logged("a/b");
	assert_int_equal(ethdrv_tap_open("t1s0", 0x100, &fd), -EINVAL);
	assert_logged("flags");
	assert_int_equal(fd, -1);
	if (access("/dev/net/tun", F_OK) != 0)
		skip();
	/* Without privilege neither /dev/net/tun (0600) nor creating a TAP is allowed. */
	err = geteuid() == 0 ? run_as_nobody(open_tap_unprivileged) : open_tap_unprivileged();
	assert_true(err == -EACCES || err == -EPERM);
	if (geteuid() != 0)
		assert_logged("run as root (CAP_NET_ADMIN) or pre-create the TAP");
}

static int add_netns_unprivileged(void)
{
	return ethdrv_netns_add("ethdrv-perm-test");
}

static void test_netns_errors(void **state)
{
	char longname[ETHDRV_NETNS_NAME_MAX + 1];
	int fd = -1, err;

	log_reset();
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(ethdrv_netns_add(""), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_netns_add(".."), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_netns_add("a/b"), -EINVAL);
	assert_logged("netns a/b: bad name");
	assert_int_equal(ethdrv_netns_del(longname), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_netns_enter("ethdrv-no-such-ns", &fd), -ENOENT);
	assert_logged("netns ethdrv-no-such-ns: /run/netns/ethdrv-no-such-ns: No such file");
	assert_int_equal(fd, -1);
	assert_int_equal(ethdrv_netns_del("ethdrv-no-such-ns"), -ENOENT);
	assert_logged("no such namespace");
	assert_int_equal(ethdrv_netns_list("ethdrv-no-such-ns", NULL, NULL), 0);
	err = geteuid() == 0 ? run_as_nobody(add_netns_unprivileged) : add_netns_unprivileged();
	assert_true(err == -EACCES || err == -EPERM);
	if (geteuid() != 0)
		assert_logged("run as root (CAP_SYS_ADMIN)");
}

static void test_link_errors(void **state)
{
	struct ethdrv_link_info info;
	struct ethdrv_ipv4_addr a;

	log_reset();
	assert_int_equal(ethdrv_link_get("", &info), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_link_set_up("t1s0-sixteen-chr", true), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_link_set_mtu("a b", 1500), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_link_del(NULL), -EINVAL);
	assert_logged("(null): bad name");
	assert_int_equal(ethdrv_link_set_netns("t1s0", "../x"), -EINVAL);
	assert_logged("bad name");
	assert_int_equal(ethdrv_addr_add_ipv4("t1s0", "169.254.300.1", 24), -EINVAL);
	assert_logged("bad IPv4 address 169.254.300.1/24");
	assert_int_equal(ethdrv_addr_add_ipv4("t1s0", "169.254.200.1", 33), -EINVAL);
	assert_logged("prefix 0..32");
	/* Read-only queries: a missing link is -ENODEV and not an error line. */
	assert_int_equal(ethdrv_link_get("ethdrv-nolink", &info), -ENODEV);
	assert_int_equal(ethdrv_link_ifindex("ethdrv-nolink"), -ENODEV);
	assert_int_equal(ethdrv_addr_list_ipv4("ethdrv-nolink", &a, 1), -ENODEV);
	assert_int_equal(lines_logged, 0);
}

static void test_link_get_loopback(void **state)
{
	struct ethdrv_link_info info;
	struct ethdrv_ipv4_addr a[4];

	/* Every namespace has lo, with ifindex 1 and IFF_LOOPBACK (0x8). */
	assert_int_equal(ethdrv_link_get("lo", &info), 0);
	assert_int_equal(info.ifindex, 1);
	assert_string_equal(info.name, "lo");
	assert_true(info.flags & 0x8);
	assert_true(info.mtu > 0);
	assert_int_equal(ethdrv_link_ifindex("lo"), 1);
	if (!(info.flags & 0x1)) /* IFF_UP: a down lo has no 127.0.0.1 */
		return;
	assert_true(ethdrv_addr_list_ipv4("lo", a, ETHDRV_ARRAY_SIZE(a)) >= 1);
	assert_memory_equal(&a[0].addr, ((const uint8_t[]){ 127, 0, 0, 1 }), 4);
	assert_int_equal(a[0].prefix_len, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_parse_defaults),
		cmocka_unit_test(test_spec_parse_all_keys),
		cmocka_unit_test(test_spec_parse_polled_reset),
		cmocka_unit_test(test_spec_parse_rejects),
		cmocka_unit_test(test_spidev_open_errors),
		cmocka_unit_test(test_spidev_bus_open_errors),
		cmocka_unit_test(test_gpio_open_errors),
		cmocka_unit_test(test_gpio_mirror_level),
		cmocka_unit_test(test_gpio_mirror_asserted_at_start),
		cmocka_unit_test(test_gpio_mirror_failure_asserts),
		cmocka_unit_test(test_tap_open_errors),
		cmocka_unit_test(test_netns_errors),
		cmocka_unit_test(test_link_errors),
		cmocka_unit_test(test_link_get_loopback),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
