// SPDX-License-Identifier: MIT
/*
 * GPIO lines of a real board through the GPIO character device (v2 uAPI):
 * RESET_N as a plain output line, and IRQ_N turned into the
 * level-triggered fd the core expects (napi.h): an eventfd that is
 * readable exactly while the line is low. A small thread mirrors the line:
 * it sleeps on the edge events and, after each batch and once at start,
 * samples the value and sets or drains the eventfd. Sampling instead of
 * counting edges means a lost or coalesced edge cannot leave the mirror
 * wrong, and an IRQ still asserted when the driver unmasks it fires at once
 * (the edge-trigger bug of Linux oa_tc6, docs/tc6.md §4.2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <linux/gpio.h>
#include "ethdrv/compiler.h"
#include "ethdrv/log.h"
#include "platform.h"

ETHDRV_LOG_MODULE(gpio);

/* The IRQ_N mirror: a thread, its line source and the level eventfd. */
struct ethdrv_gpio_irq {
	int event_fd; /* readable when the line may have changed (GPIO line request) */
	int level_fd; /* eventfd, readable while IRQ_N is asserted */
	int stop_fd; /* eventfd written by close to stop the thread */
	const struct ethdrv__gpio_line_ops *ops; /* how to drain and sample the line */
	void *arg; /* passed to @ops */
	pthread_t thread; /* the mirror thread */
	bool asserted; /* level_fd is set; touched by the mirror thread only */
	atomic_ulong updates; /* samples applied to level_fd */
};

/* Make level_fd readable (@low) or not; only the mirror thread calls this. */
static int gpio_irq_set_level(struct ethdrv_gpio_irq *g, bool low)
{
	uint64_t v = 1;

	if (low && !g->asserted) {
		if (write(g->level_fd, &v, sizeof(v)) != sizeof(v))
			return -errno;
	} else if (!low && g->asserted) {
		/* Non-blocking eventfd: one read resets the counter to 0. */
		if (read(g->level_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			return -errno;
	}
	g->asserted = low;
	return 0;
}

/* Sample the line and mirror it onto level_fd. */
static int gpio_irq_sample(struct ethdrv_gpio_irq *g)
{
	bool low;
	int err = g->ops->get_low(g->event_fd, g->arg, &low);

	if (!err)
		err = gpio_irq_set_level(g, low);
	if (!err)
		atomic_fetch_add(&g->updates, 1);
	return err;
}

/* Wait for line events and mirror the level until stop_fd fires; -errno on failure. */
static int gpio_irq_mirror(struct ethdrv_gpio_irq *g)
{
	struct pollfd pfd[2] = { { .fd = g->stop_fd, .events = POLLIN },
				 { .fd = g->event_fd, .events = POLLIN } };
	int err = gpio_irq_sample(g);

	while (!err) {
		if (poll(pfd, 2, -1) < 0) {
			err = errno == EINTR ? 0 : -errno;
			continue;
		}
		if (pfd[0].revents)
			return 0;
		if (pfd[1].revents & (POLLERR | POLLHUP | POLLNVAL))
			return -EIO;
		err = g->ops->drain(g->event_fd, g->arg);
		if (!err)
			err = gpio_irq_sample(g);
	}
	return err;
}

/* The mirror thread. */
static void *gpio_irq_thread(void *arg)
{
	struct ethdrv_gpio_irq *g = arg;
	struct pollfd stop = { .fd = g->stop_fd, .events = POLLIN };
	int err = gpio_irq_mirror(g);

	if (!err)
		return NULL;
	/* Leave IRQ_N asserted: the driver then polls and meets the failure itself. */
	ethdrv_err(NULL, "gpio irq: mirror stopped: %s: IRQ left asserted", strerror(-err));
	gpio_irq_set_level(g, true);
	while (poll(&stop, 1, -1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* Start the mirror thread with every signal blocked (signals are the app's). */
static int gpio_irq_spawn(struct ethdrv_gpio_irq *g)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&g->thread, NULL, gpio_irq_thread, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -err;
}

int ethdrv__gpio_irq_start(int event_fd, const struct ethdrv__gpio_line_ops *ops, void *arg,
			   int *level_fd, struct ethdrv_gpio_irq **out)
{
	struct ethdrv_gpio_irq *g = calloc(1, sizeof(*g));
	int err = -ENOMEM;

	if (!g)
		goto err_close_event;
	g->event_fd = event_fd;
	g->ops = ops;
	g->arg = arg;
	g->level_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (g->level_fd < 0) {
		err = -errno;
		goto err_free;
	}
	g->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (g->stop_fd < 0) {
		err = -errno;
		goto err_close_level;
	}
	err = gpio_irq_spawn(g);
	if (err)
		goto err_close_stop;
	*level_fd = g->level_fd;
	*out = g;
	return 0;

err_close_stop:
	close(g->stop_fd);
err_close_level:
	close(g->level_fd);
err_free:
	free(g);
err_close_event:
	ethdrv__sys()->close(event_fd);
	return err;
}

void ethdrv_gpio_irq_close(struct ethdrv_gpio_irq *g)
{
	uint64_t v = 1;

	if (!g)
		return;
	if (write(g->stop_fd, &v, sizeof(v)) != sizeof(v))
		ethdrv_err(NULL, "gpio irq: cannot stop the mirror thread: %s", strerror(errno));
	else
		pthread_join(g->thread, NULL);
	ethdrv__sys()->close(g->event_fd);
	close(g->level_fd);
	close(g->stop_fd);
	free(g);
}

unsigned long ethdrv__gpio_irq_updates(const struct ethdrv_gpio_irq *g)
{
	return atomic_load(&((struct ethdrv_gpio_irq *)g)->updates);
}

/* Read and discard the queued edge events of a line request. */
static int gpio_line_drain(int fd, void *arg)
{
	struct gpio_v2_line_event ev[16];
	ssize_t n;

	while ((n = ethdrv__sys()->read(fd, ev, sizeof(ev))) > 0)
		;
	return (n == 0 || errno == EAGAIN) ? 0 : -errno;
}

/* Sample a requested line: low (0) means IRQ_N asserted. */
static int gpio_line_get_low(int fd, void *arg, bool *low)
{
	struct gpio_v2_line_values vals = { .mask = 1 };

	if (ethdrv__sys()->ioctl(fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &vals) < 0)
		return -errno;
	*low = !(vals.bits & 1);
	return 0;
}

static const struct ethdrv__gpio_line_ops gpio_line_ops = {
	.drain = gpio_line_drain,
	.get_low = gpio_line_get_low,
};

/* Log a failed open step on @chip with the fix for @err (positive errno). */
static int gpio_open_error(const char *chip, unsigned line, const char *what, int err)
{
	const char *fix;

	switch (err) {
	case ENOENT:
		fix = "check the chip number (ls /dev/gpiochip*)";
		break;
	case EACCES:
	case EPERM:
		fix = "run as root or add the user to the gpio group";
		break;
	case EBUSY:
		fix = "line already requested by another consumer (see gpioinfo)";
		break;
	case ENOTTY:
		fix = "not a GPIO character device";
		break;
	default:
		fix = "the GPIO driver refused the request (for IRQ_N: edges or bias unsupported?)";
		break;
	}
	ethdrv_err(NULL, "gpio %s line %u: %s: %s: %s", chip, line, what, strerror(err), fix);
	return -err;
}

/*
 * Open @chip, check @line against it and request the line with @cfg; the
 * line fd or -errno (logged).
 */
static int gpio_request_line(const char *chip, unsigned line, const struct gpio_v2_line_config *cfg)
{
	const struct ethdrv__sys_ops *sys = ethdrv__sys();
	struct gpio_v2_line_request req;
	struct gpiochip_info info;
	int chip_fd, ret;

	if (!chip)
		return -EINVAL;
	chip_fd = sys->open(chip, O_RDWR | O_CLOEXEC);
	if (chip_fd < 0)
		return gpio_open_error(chip, line, "open", errno);
	memset(&info, 0, sizeof(info));
	memset(&req, 0, sizeof(req));
	req.offsets[0] = line;
	req.num_lines = 1;
	memcpy(req.consumer, "ethdrv", sizeof("ethdrv"));
	req.config = *cfg;
	if (sys->ioctl(chip_fd, GPIO_GET_CHIPINFO_IOCTL, &info) < 0) {
		ret = gpio_open_error(chip, line, "GPIO_GET_CHIPINFO_IOCTL", errno);
	} else if (line >= info.lines) {
		ethdrv_err(NULL, "gpio %s line %u: no such line: the chip has lines 0..%u", chip,
			   line, info.lines ? info.lines - 1 : 0);
		ret = -EINVAL;
	} else if (sys->ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &req) < 0) {
		ret = gpio_open_error(chip, line, "GPIO_V2_GET_LINE_IOCTL", errno);
	} else {
		ret = req.fd;
	}
	sys->close(chip_fd);
	return ret;
}

int ethdrv_gpio_irq_open(const char *chip_path, unsigned line, bool pull_up, int *level_fd,
			 struct ethdrv_gpio_irq **out)
{
	struct gpio_v2_line_config cfg = {
		.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_FALLING |
			 GPIO_V2_LINE_FLAG_EDGE_RISING |
			 (pull_up ? GPIO_V2_LINE_FLAG_BIAS_PULL_UP : 0),
	};
	int line_fd = gpio_request_line(chip_path, line, &cfg);

	if (line_fd < 0)
		return line_fd;
	if (fcntl(line_fd, F_SETFL, O_NONBLOCK) < 0) {
		int err = gpio_open_error(chip_path, line, "fcntl", errno);

		ethdrv__sys()->close(line_fd);
		return err;
	}
	return ethdrv__gpio_irq_start(line_fd, &gpio_line_ops, NULL, level_fd, out);
}

/* An output line (RESET_N). */
struct ethdrv_gpio_out {
	int fd; /* the line request */
	unsigned line; /* for messages */
	char chip[64]; /* for messages */
};

int ethdrv_gpio_out_open(const char *chip_path, unsigned line, bool high,
			 struct ethdrv_gpio_out **out)
{
	struct gpio_v2_line_config cfg = {
		.flags = GPIO_V2_LINE_FLAG_OUTPUT,
		.num_attrs = 1,
	};
	struct ethdrv_gpio_out *o;
	int fd;

	/* The level the line takes when requested, so RESET_N never glitches low. */
	cfg.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	cfg.attrs[0].attr.values = high ? 1 : 0;
	cfg.attrs[0].mask = 1;
	fd = gpio_request_line(chip_path, line, &cfg);
	if (fd < 0)
		return fd;
	o = calloc(1, sizeof(*o));
	if (!o) {
		ethdrv__sys()->close(fd);
		return -ENOMEM;
	}
	o->fd = fd;
	o->line = line;
	snprintf(o->chip, sizeof(o->chip), "%s", chip_path);
	*out = o;
	return 0;
}

int ethdrv_gpio_out_set(struct ethdrv_gpio_out *o, bool high)
{
	struct gpio_v2_line_values vals = { .bits = high ? 1 : 0, .mask = 1 };

	if (ethdrv__sys()->ioctl(o->fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &vals) < 0)
		return gpio_open_error(o->chip, o->line, "GPIO_V2_LINE_SET_VALUES_IOCTL", errno);
	return 0;
}

void ethdrv_gpio_out_close(struct ethdrv_gpio_out *o)
{
	if (!o)
		return;
	ethdrv__sys()->close(o->fd);
	free(o);
}
