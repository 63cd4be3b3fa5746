// SPDX-License-Identifier: MIT
/*
 * The spidev and GPIO backends at the ioctl level, against a fake kernel
 * installed with ethdrv__sys_set(): it answers SPI_IOC_WR_* / RD_MAX_SPEED_HZ
 * and SPI_IOC_MESSAGE on a fake /dev/spidev node, GPIO_GET_CHIPINFO_IOCTL,
 * GPIO_V2_GET_LINE_IOCTL, GPIO_V2_LINE_GET_VALUES_IOCTL and
 * GPIO_V2_LINE_SET_VALUES_IOCTL on a fake /dev/gpiochip, and hands out
 * pipes as line fds so that edge events are real gpio_v2_line_event records
 * the mirror thread reads and polls. So the success paths run (what is sent
 * to the kernel, what is made of its answers) without hardware or root;
 * test-platform.c has the error paths against real nodes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/gpio.h>
#include <linux/spi/spidev.h>

#include "ethdrv/driver.h"
#include "ethdrv/log.h"
#include "platform/linux/platform.h"

#define SPI_PATH "/dev/spidev-fake0.0"
#define CHIP_PATH "/dev/gpiochip-fake0"
#define CHIP_LINES 32
#define FAKE_FDS 16

enum fake_kind { FD_FREE, FD_SPI, FD_CHIP, FD_LINE };

/* One fd the fake kernel handed out. */
struct fake_fd {
	enum fake_kind kind;
	int fd; /* the real fd behind it (eventfd, or a pipe's read end) */
	int event_wr; /* FD_LINE: the pipe's write end, for edge events */
	unsigned line; /* FD_LINE: its offset */
	struct gpio_v2_line_config cfg; /* FD_LINE: as requested */
	char consumer[GPIO_MAX_NAME_SIZE]; /* FD_LINE: as requested */
};

/* The fake kernel: its fds, the spidev settings and the line levels. */
static struct {
	pthread_mutex_t lock; /* the mirror thread calls in too */
	struct fake_fd fds[FAKE_FDS];
	uint8_t spi_mode; /* SPI_IOC_WR_MODE */
	uint8_t spi_bits; /* SPI_IOC_WR_BITS_PER_WORD */
	uint32_t spi_speed; /* SPI_IOC_WR_MAX_SPEED_HZ */
	uint32_t ctlr_max_hz; /* what SPI_IOC_RD_MAX_SPEED_HZ caps the speed at */
	unsigned messages; /* SPI_IOC_MESSAGE(1) calls */
	struct spi_ioc_transfer last_xfer; /* the last one's segment */
	unsigned long fail_req; /* an ioctl request to fail, 0 = none */
	int fail_errno; /* with this errno */
	bool level[CHIP_LINES]; /* line levels, true = high */
	unsigned sets; /* GPIO_V2_LINE_SET_VALUES_IOCTL calls */
	unsigned bad_calls; /* calls on fds the fake never handed out */
} fk;

static struct fake_fd *fake_find(int fd)
{
	for (int i = 0; i < FAKE_FDS; i++)
		if (fk.fds[i].kind != FD_FREE && fk.fds[i].fd == fd)
			return &fk.fds[i];
	return NULL;
}

static struct fake_fd *fake_add(enum fake_kind kind, int fd)
{
	for (int i = 0; i < FAKE_FDS; i++) {
		if (fk.fds[i].kind == FD_FREE) {
			fk.fds[i] = (struct fake_fd){ .kind = kind, .fd = fd, .event_wr = -1 };
			return &fk.fds[i];
		}
	}
	return NULL;
}

static unsigned fake_open_count(enum fake_kind kind)
{
	unsigned n = 0;

	pthread_mutex_lock(&fk.lock);
	for (int i = 0; i < FAKE_FDS; i++)
		n += fk.fds[i].kind == kind;
	pthread_mutex_unlock(&fk.lock);
	return n;
}

static int fake_open(const char *path, int flags)
{
	enum fake_kind kind = !strcmp(path, SPI_PATH)  ? FD_SPI :
			      !strcmp(path, CHIP_PATH) ? FD_CHIP :
							 FD_FREE;
	int fd;

	if (kind == FD_FREE) {
		errno = ENOENT;
		return -1;
	}
	fd = eventfd(0, EFD_CLOEXEC);
	pthread_mutex_lock(&fk.lock);
	fake_add(kind, fd);
	pthread_mutex_unlock(&fk.lock);
	return fd;
}

static int fake_close(int fd)
{
	struct fake_fd *f;

	pthread_mutex_lock(&fk.lock);
	f = fake_find(fd);
	if (f) {
		if (f->event_wr >= 0)
			close(f->event_wr);
		f->kind = FD_FREE;
	} else {
		fk.bad_calls++;
	}
	pthread_mutex_unlock(&fk.lock);
	return close(fd);
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

/* A TC6-like answer: MISO is MOSI delayed by one 32-bit word (docs/tc6.md §1.4). */
static void fake_spi_answer(const struct spi_ioc_transfer *tr)
{
	const uint8_t *tx = (const uint8_t *)(uintptr_t)tr->tx_buf;
	uint8_t *rx = (uint8_t *)(uintptr_t)tr->rx_buf;

	memset(rx, 0, tr->len);
	if (tr->len > 4)
		memcpy(rx + 4, tx, tr->len - 4);
}

static int fake_spi_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case SPI_IOC_WR_MODE:
		fk.spi_mode = *(uint8_t *)arg;
		return 0;
	case SPI_IOC_WR_BITS_PER_WORD:
		fk.spi_bits = *(uint8_t *)arg;
		return 0;
	case SPI_IOC_WR_MAX_SPEED_HZ:
		fk.spi_speed = *(uint32_t *)arg;
		return 0;
	case SPI_IOC_RD_MAX_SPEED_HZ:
		*(uint32_t *)arg = fk.spi_speed < fk.ctlr_max_hz ? fk.spi_speed : fk.ctlr_max_hz;
		return 0;
	case SPI_IOC_MESSAGE(1):
		fk.messages++;
		fk.last_xfer = *(struct spi_ioc_transfer *)arg;
		fake_spi_answer(arg);
		return (int)fk.last_xfer.len;
	}
	errno = ENOTTY;
	return -1;
}

/* GPIO_V2_GET_LINE_IOCTL: hand out a pipe's read end as the line fd. */
static int fake_get_line(struct gpio_v2_line_request *req)
{
	struct fake_fd *f;
	int p[2];

	if (req->num_lines != 1 || req->offsets[0] >= CHIP_LINES || pipe2(p, O_CLOEXEC)) {
		errno = EINVAL;
		return -1;
	}
	f = fake_add(FD_LINE, p[0]);
	f->event_wr = p[1];
	f->line = req->offsets[0];
	f->cfg = req->config;
	memcpy(f->consumer, req->consumer, sizeof(f->consumer));
	if ((f->cfg.flags & GPIO_V2_LINE_FLAG_OUTPUT) && f->cfg.num_attrs == 1 &&
	    f->cfg.attrs[0].attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES)
		fk.level[f->line] = f->cfg.attrs[0].attr.values & 1;
	req->fd = p[0];
	return 0;
}

static int fake_gpio_ioctl(struct fake_fd *f, unsigned long req, void *arg)
{
	struct gpio_v2_line_values *v = arg;

	if (f->kind == FD_CHIP && req == GPIO_GET_CHIPINFO_IOCTL) {
		struct gpiochip_info *info = arg;

		snprintf(info->name, sizeof(info->name), "fakechip0");
		info->lines = CHIP_LINES;
		return 0;
	}
	if (f->kind == FD_CHIP && req == GPIO_V2_GET_LINE_IOCTL)
		return fake_get_line(arg);
	if (f->kind == FD_LINE && req == GPIO_V2_LINE_GET_VALUES_IOCTL && v->mask == 1) {
		v->bits = fk.level[f->line];
		return 0;
	}
	if (f->kind == FD_LINE && req == GPIO_V2_LINE_SET_VALUES_IOCTL && v->mask == 1 &&
	    (f->cfg.flags & GPIO_V2_LINE_FLAG_OUTPUT)) {
		fk.level[f->line] = v->bits & 1;
		fk.sets++;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

static int fake_ioctl(int fd, unsigned long req, void *arg)
{
	struct fake_fd *f;
	int ret;

	pthread_mutex_lock(&fk.lock);
	f = fake_find(fd);
	if (!f) {
		fk.bad_calls++;
		errno = EBADF;
		ret = -1;
	} else if (req == fk.fail_req) {
		errno = fk.fail_errno;
		ret = -1;
	} else {
		ret = f->kind == FD_SPI ? fake_spi_ioctl(req, arg) : fake_gpio_ioctl(f, req, arg);
	}
	pthread_mutex_unlock(&fk.lock);
	return ret;
}

static const struct ethdrv__sys_ops fake_sys = {
	.open = fake_open,
	.close = fake_close,
	.ioctl = fake_ioctl,
	.read = fake_read,
};

/* The line fd the fake handed out for @line, or NULL. */
static struct fake_fd *fake_line(unsigned line)
{
	for (int i = 0; i < FAKE_FDS; i++)
		if (fk.fds[i].kind == FD_LINE && fk.fds[i].line == line)
			return &fk.fds[i];
	return NULL;
}

/* The line changes level and the kernel queues an edge event for it. */
static void fake_edge(unsigned line, bool high)
{
	struct gpio_v2_line_event ev = {
		.id = high ? GPIO_V2_LINE_EVENT_RISING_EDGE : GPIO_V2_LINE_EVENT_FALLING_EDGE,
		.offset = line,
	};
	struct fake_fd *f;

	pthread_mutex_lock(&fk.lock);
	fk.level[line] = high;
	f = fake_line(line);
	assert_non_null(f);
	assert_int_equal(write(f->event_wr, &ev, sizeof(ev)), sizeof(ev));
	pthread_mutex_unlock(&fk.lock);
}

static char last_line[512]; /* last line logged */
static unsigned lines_logged; /* lines logged since the test began */

static void capture_sink(void *arg, int level, const char *module, const char *line)
{
	snprintf(last_line, sizeof(last_line), "%s", line);
	lines_logged++;
}

static int fake_setup(void **state)
{
	pthread_mutex_init(&fk.lock, NULL);
	memset(fk.fds, 0, sizeof(fk.fds));
	memset(fk.level, 1, sizeof(fk.level)); /* pulled up */
	fk.ctlr_max_hz = 50000000;
	fk.messages = fk.sets = fk.bad_calls = 0;
	fk.fail_req = 0;
	last_line[0] = '\0';
	lines_logged = 0;
	ethdrv_log_set_sink(capture_sink, NULL);
	assert_ptr_not_equal(ethdrv__sys_set(&fake_sys), &fake_sys);
	return 0;
}

static int fake_teardown(void **state)
{
	assert_ptr_equal(ethdrv__sys_set(NULL), &fake_sys);
	ethdrv_log_set_sink(NULL, NULL);
	/* Every fd the backends got from the fake kernel was given back. */
	assert_int_equal(
		fake_open_count(FD_SPI) + fake_open_count(FD_CHIP) + fake_open_count(FD_LINE), 0);
	assert_int_equal(fk.bad_calls, 0);
	pthread_mutex_destroy(&fk.lock);
	return 0;
}

/* Mode, word size and speed go in; the speed the controller applies comes back. */
static void test_spidev_configure_readback(void **state)
{
	struct ethdrv_spi_bus bus;

	fk.ctlr_max_hz = 20000000;
	assert_int_equal(ethdrv_spidev_open(SPI_PATH, 25000000, 0, &bus), 0);
	assert_int_equal(fk.spi_mode, 0);
	assert_int_equal(fk.spi_bits, 8);
	assert_int_equal(fk.spi_speed, 25000000);
	assert_int_equal(bus.hz, 20000000); /* read back, not what was asked */
	assert_int_equal(bus.irq_fd, -1);
	assert_string_equal(bus.desc, "spidev:" SPI_PATH);
	assert_int_equal(lines_logged, 1);
	assert_non_null(strstr(last_line, "asked for 25000000 Hz, the controller applies "
					  "20000000 Hz"));
	bus.ops->close(bus.ctx);

	/* The speed asked for is applied as is: nothing to say. */
	lines_logged = 0;
	assert_int_equal(ethdrv_spidev_open(SPI_PATH, 15000000, 3, &bus), 0);
	assert_int_equal(fk.spi_mode, 3);
	assert_int_equal(bus.hz, 15000000);
	assert_int_equal(lines_logged, 0);
	bus.ops->close(bus.ctx);
}

/* A controller that reports no speed is refused; a failing ioctl is named. */
static void test_spidev_configure_errors(void **state)
{
	struct ethdrv_spi_bus bus;

	fk.ctlr_max_hz = 0;
	assert_int_equal(ethdrv_spidev_open(SPI_PATH, 25000000, 0, &bus), -EIO);
	assert_non_null(strstr(last_line, "reports 0 Hz"));
	fk.ctlr_max_hz = 50000000;
	fk.fail_req = SPI_IOC_RD_MAX_SPEED_HZ;
	fk.fail_errno = EPERM;
	assert_int_equal(ethdrv_spidev_open(SPI_PATH, 25000000, 0, &bus), -EPERM);
	assert_non_null(strstr(last_line, "SPI_IOC_RD_MAX_SPEED_HZ"));
	assert_int_equal(fake_open_count(FD_SPI), 0); /* closed on the way out */
}

/* One transfer is one SPI_IOC_MESSAGE(1) segment: CS held, 8 bits, the read-back speed. */
static void test_spidev_transfer(void **state)
{
	static const uint8_t tx[12] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
					0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c };
	uint8_t rx[12];
	struct ethdrv_spi_bus bus;

	fk.ctlr_max_hz = 12500000;
	assert_int_equal(ethdrv_spidev_open(SPI_PATH, 25000000, 0, &bus), 0);
	assert_int_equal(ethdrv_spi_transfer(&bus, tx, rx, sizeof(tx)), 0);
	assert_int_equal(fk.messages, 1);
	assert_int_equal(fk.last_xfer.len, sizeof(tx));
	assert_int_equal(fk.last_xfer.speed_hz, 12500000);
	assert_int_equal(fk.last_xfer.bits_per_word, 8);
	assert_int_equal(fk.last_xfer.cs_change, 0);
	assert_ptr_equal((const void *)(uintptr_t)fk.last_xfer.tx_buf, tx);
	assert_ptr_equal((void *)(uintptr_t)fk.last_xfer.rx_buf, rx);
	assert_memory_equal(rx + 4, tx, sizeof(tx) - 4); /* the fake's answer arrived */
	assert_int_equal(ethdrv_spi_transfer(&bus, tx, rx, 0), 0); /* nothing to send */
	assert_int_equal(fk.messages, 1);
	fk.fail_req = SPI_IOC_MESSAGE(1);
	fk.fail_errno = EIO;
	assert_int_equal(ethdrv_spi_transfer(&bus, tx, rx, sizeof(tx)), -EIO);
	assert_non_null(strstr(last_line, "transfer of 12 bytes"));
	assert_int_equal(ethdrv_spi_set_reset(&bus, true), -EOPNOTSUPP); /* no reset= */
	bus.ops->close(bus.ctx);
}

/* Wait (10 s at most, far above the expected microseconds) for @fd to be readable or not. */
static void wait_readable(int fd, bool readable)
{
	for (int i = 0; i < 10000; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		bool now = poll(&p, 1, 0) == 1 && (p.revents & POLLIN);

		if (now == readable)
			return;
		usleep(1000);
	}
	fail_msg("level fd %d never became %s", fd, readable ? "readable" : "quiet");
}

/* IRQ_N: requested as a both-edge input with the pull-up; edges read, level sampled. */
static void test_gpio_irq_mirror(void **state)
{
	struct ethdrv_gpio_irq *irq;
	struct fake_fd *f;
	int level;

	assert_int_equal(ethdrv_gpio_irq_open(CHIP_PATH, 7, true, &level, &irq), 0);
	assert_int_equal(fake_open_count(FD_CHIP), 0); /* the chip fd is not kept */
	f = fake_line(7);
	assert_non_null(f);
	assert_int_equal(f->cfg.flags, GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING |
					       GPIO_V2_LINE_FLAG_EDGE_FALLING |
					       GPIO_V2_LINE_FLAG_BIAS_PULL_UP);
	assert_string_equal(f->consumer, "ethdrv");
	wait_readable(level, false); /* high at start: not asserted */
	fake_edge(7, false);
	wait_readable(level, true);
	fake_edge(7, true);
	wait_readable(level, false);
	fake_edge(7, false);
	wait_readable(level, true);
	ethdrv_gpio_irq_close(irq);
	assert_int_equal(fake_open_count(FD_LINE), 0);
}

/* RESET_N: an output that starts at the level asked for, then follows set(). */
static void test_gpio_out(void **state)
{
	struct ethdrv_gpio_out *o;
	struct fake_fd *f;

	fk.level[4] = false;
	assert_int_equal(ethdrv_gpio_out_open(CHIP_PATH, 4, true, &o), 0);
	f = fake_line(4);
	assert_non_null(f);
	assert_int_equal(f->cfg.flags, GPIO_V2_LINE_FLAG_OUTPUT);
	assert_int_equal(f->cfg.num_attrs, 1);
	assert_int_equal(f->cfg.attrs[0].attr.id, GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES);
	assert_int_equal(f->cfg.attrs[0].mask, 1);
	assert_true(fk.level[4]); /* high from the request on: no glitch into reset */
	assert_int_equal(fk.sets, 0);
	assert_int_equal(ethdrv_gpio_out_set(o, false), 0);
	assert_false(fk.level[4]);
	assert_int_equal(ethdrv_gpio_out_set(o, true), 0);
	assert_true(fk.level[4]);
	assert_int_equal(fk.sets, 2);
	fk.fail_req = GPIO_V2_LINE_SET_VALUES_IOCTL;
	fk.fail_errno = EIO;
	assert_int_equal(ethdrv_gpio_out_set(o, false), -EIO);
	assert_non_null(strstr(last_line, "GPIO_V2_LINE_SET_VALUES_IOCTL"));
	ethdrv_gpio_out_close(o);
}

/* A line the chip does not have, and a line another consumer holds. */
static void test_gpio_line_errors(void **state)
{
	struct ethdrv_gpio_out *o = NULL;

	assert_int_equal(ethdrv_gpio_out_open(CHIP_PATH, CHIP_LINES, true, &o), -EINVAL);
	assert_non_null(strstr(last_line, "no such line: the chip has lines 0..31"));
	fk.fail_req = GPIO_V2_GET_LINE_IOCTL;
	fk.fail_errno = EBUSY;
	assert_int_equal(ethdrv_gpio_out_open(CHIP_PATH, 3, true, &o), -EBUSY);
	assert_non_null(strstr(last_line, "line already requested by another consumer"));
	assert_null(o);
}

/* A whole spec: RESET_N and IRQ_N lines behind the bus, released with it. */
static void test_spidev_bus_lines(void **state)
{
	struct ethdrv_spidev_spec spec;
	struct ethdrv_spi_bus bus;

	assert_int_equal(ethdrv_spidev_spec_parse("spidev:" SPI_PATH ",irq=" CHIP_PATH ":3,"
						  "reset=" CHIP_PATH ":4,hz=10000000",
						  &spec),
			 0);
	fk.level[4] = false;
	assert_int_equal(ethdrv_spidev_bus_open(&spec, &bus), 0);
	assert_true(bus.irq_fd >= 0);
	assert_int_equal(bus.hz, 10000000);
	assert_true(fk.level[4]); /* RESET_N released while the bus opened */
	assert_int_equal(ethdrv_spi_set_reset(&bus, true), 0);
	assert_false(fk.level[4]); /* active low */
	assert_int_equal(ethdrv_spi_set_reset(&bus, false), 0);
	assert_true(fk.level[4]);
	fake_edge(3, false);
	wait_readable(bus.irq_fd, true);
	assert_true(ethdrv_spi_irq_asserted(&bus));
	bus.ops->close(bus.ctx);
	assert_int_equal(fake_open_count(FD_LINE) + fake_open_count(FD_SPI), 0);

	/* irq=none: no IRQ line, no mirror thread; polled by the driver. */
	assert_int_equal(
		ethdrv_spidev_spec_parse("spidev:" SPI_PATH ",irq=none,poll_us=200", &spec), 0);
	assert_int_equal(ethdrv_spidev_bus_open(&spec, &bus), 0);
	assert_int_equal(bus.irq_fd, -1);
	assert_int_equal(fake_open_count(FD_LINE), 0);
	assert_int_equal(ethdrv_spi_set_reset(&bus, true), -EOPNOTSUPP);
	bus.ops->close(bus.ctx);

	/* A failing line request leaves nothing open. */
	assert_int_equal(ethdrv_spidev_spec_parse("spidev:" SPI_PATH ",irq=" CHIP_PATH ":3,"
						  "reset=" CHIP_PATH ":40",
						  &spec),
			 0);
	assert_int_equal(ethdrv_spidev_bus_open(&spec, &bus), -EINVAL);
	assert_int_equal(fake_open_count(FD_SPI), 0);
}

/* Every test runs against a fresh fake kernel and must give back every fd. */
#define FAKE_KERNEL_TEST(fn) cmocka_unit_test_setup_teardown(fn, fake_setup, fake_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		FAKE_KERNEL_TEST(test_spidev_configure_readback),
		FAKE_KERNEL_TEST(test_spidev_configure_errors),
		FAKE_KERNEL_TEST(test_spidev_transfer),
		FAKE_KERNEL_TEST(test_gpio_irq_mirror),
		FAKE_KERNEL_TEST(test_gpio_out),
		FAKE_KERNEL_TEST(test_gpio_line_errors),
		FAKE_KERNEL_TEST(test_spidev_bus_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
