// SPDX-License-Identifier: MIT
/*
 * The control socket server (tools/ethdrv/ctl_server.c) in one thread: the
 * loop is pumped by hand and the clients are non-blocking sockets of the
 * same thread, so whatever the server waited for would hang the test
 * instead of passing it. Checked: a client that asks for a reply larger
 * than the socket buffer and never reads leaves that reply pending while
 * the loop runs its timers and serves another client; the pending reply
 * then arrives whole through many partial writes; the write deadline, the
 * idle deadline, the reply cap, the connection limit, input after the
 * request and a client that leaves early are each counted. Also the "why"
 * text a set op may give (ctl_proto.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <cmocka.h>

#include "ctl.h"
#include "ethdrv/loop.h"

#define MS 1000000ull
#define PUMPS_MAX 100000 /* bound on loop iterations any step may take */
#define BIG_REPLY (1u << 20) /* beyond an AF_UNIX socket buffer (about 200 KiB) */

struct tc {
	struct ethdrv_loop *loop;
	struct ctl_server *srv;
	char dir[64];
	char path[108];
	size_t reply_size; /* bytes the stats op appends */
};

/* The byte at offset @i of a stats reply body. */
static char body_byte(size_t i)
{
	return (char)('a' + i % 26);
}

static int tc_stats(void *arg, bool json, struct ctl_reply *r)
{
	struct tc *t = arg;
	char *p = ctl_reply_reserve(r, t->reply_size);
	size_t i;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < t->reply_size; i++)
		p[i] = body_byte(i);
	return 0;
}

static int tc_set(void *arg, const char *key, const char *value, const char **why)
{
	if (!strcmp(key, "locked")) {
		*why = "locked at start: restart with --unlock";
		return -EPERM;
	}
	if (!strcmp(key, "gauge"))
		return -EPERM; /* no why: the reply says it is read only */
	return strcmp(key, "ok") ? -ENOENT : 0;
}

static int tc_get(void *arg, const char *key, char *buf, size_t size)
{
	return -ENOENT;
}

static const struct ethdrv_knob tc_knobs[] = {
	ETHDRV_KNOB_RO("gauge", "bytes", "what the device holds now"),
};
static const struct ethdrv_knob_table tc_knob_table = ETHDRV_KNOB_TABLE("test", tc_knobs);

static size_t tc_knob_tables(void *arg, const struct ethdrv_knob_table **out, size_t max)
{
	if (!max)
		return 0;
	out[0] = &tc_knob_table;
	return 1;
}

static int tc_info(void *arg, struct ctl_reply *r)
{
	ctl_reply_printf(r, "name=test\n");
	return 0;
}

static const struct ctl_ops tc_ops = {
	.stats = tc_stats,
	.set = tc_set,
	.get = tc_get,
	.info = tc_info,
	.knobs = tc_knob_tables,
};

static int setup(void **state)
{
	struct tc *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/ethdrv-test-ctl.XXXXXX");
	if (!mkdtemp(t->dir) || ethdrv_loop_new(&t->loop))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/t.sock", t->dir);
	t->reply_size = 10;
	if (ctl_server_start(t->loop, t->path, &tc_ops, t, &t->srv))
		return -1;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tc *t = *state;

	ctl_server_stop(t->srv);
	ethdrv_loop_free(t->loop);
	rmdir(t->dir);
	free(t);
	return 0;
}

static void set_limits(struct tc *t, unsigned idle_ms, unsigned write_ms, size_t reply_max)
{
	struct ctl_limits lim = { idle_ms, write_ms, reply_max };

	assert_int_equal(ctl_server_set_limits(t->srv, &lim), 0);
}

static struct ctl_server_stats stats(struct tc *t)
{
	struct ctl_server_stats st;

	ctl_server_get_stats(t->srv, &st);
	return st;
}

#define STAT(t, field) (stats(t).field.v)

/* One loop iteration that never blocks. */
static void pump(struct tc *t)
{
	assert_true(ethdrv_loop_run_once(t->loop, ETHDRV_RUN_NOWAIT) >= 0);
}

/* A non-blocking client connected to the server, with @req sent. */
static int client(struct tc *t, const char *req)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", t->path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	if (req)
		assert_int_equal(send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
	return fd;
}

/* A reply read so far. */
struct got {
	char *buf;
	size_t len;
	bool eof; /* the server closed (EOF, or a reset after its data) */
};

/* Read at most @max bytes that are there now; sets eof at the end. */
static void read_some(int fd, struct got *g, size_t max)
{
	char tmp[65536];
	ssize_t n = recv(fd, tmp, max < sizeof(tmp) ? max : sizeof(tmp), MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		g->eof = true;
		return;
	}
	g->buf = realloc(g->buf, g->len + (size_t)n + 1);
	assert_non_null(g->buf);
	memcpy(g->buf + g->len, tmp, (size_t)n);
	g->len += (size_t)n;
	g->buf[g->len] = '\0';
}

/* Pump the loop and read @fd in pieces of at most @piece bytes until EOF. */
static void read_reply(struct tc *t, int fd, struct got *g, size_t piece)
{
	for (unsigned i = 0; !g->eof && i < PUMPS_MAX; i++) {
		pump(t);
		read_some(fd, g, piece);
	}
	assert_true(g->eof);
}

/* The whole stats reply: "ok\n" and the body. */
static void assert_stats_reply(const struct got *g, size_t body)
{
	size_t i;

	assert_int_equal(g->len, 3 + body);
	assert_memory_equal(g->buf, "ok\n", 3);
	for (i = 0; i < body; i++)
		if (g->buf[3 + i] != body_byte(i))
			fail_msg("reply byte %zu is '%c', want '%c'", i, g->buf[3 + i],
				 body_byte(i));
}

/* Pump until the server holds reply bytes it could not send yet. */
static void pump_until_pending(struct tc *t)
{
	for (unsigned i = 0; !STAT(t, pending_bytes) && i < PUMPS_MAX; i++)
		pump(t);
	assert_true(STAT(t, pending_bytes) > 0);
}

static void on_timer(struct ethdrv_timer *tm)
{
	*(bool *)tm->data = true;
}

/*
 * The datapath case of issue 10, section 5: while a client that never reads has a
 * reply pending, the loop (the softirq NAPI context) keeps running its
 * timers and serving others; that reply then arrives whole, in pieces.
 */
static void test_client_that_never_reads_costs_the_loop_nothing(void **state)
{
	struct tc *t = *state;
	struct got stuck_got = { 0 }, other_got = { 0 };
	struct ethdrv_timer tm;
	bool fired = false;
	int stuck, other;

	t->reply_size = BIG_REPLY;
	set_limits(t, CTL_IDLE_MS, 60000, 2 * BIG_REPLY);
	stuck = client(t, "stats json\n");
	pump_until_pending(t);
	assert_true(STAT(t, pending_bytes) < 3 + BIG_REPLY);
	assert_true(STAT(t, partial_writes) >= 1);
	assert_int_equal(STAT(t, replies), 0);

	/* A timer fires: the loop sleeps in epoll instead of on the client. */
	ethdrv_timer_init(t->loop, &tm, on_timer);
	tm.data = &fired;
	assert_int_equal(ethdrv_timer_start(&tm, 1 * MS, 0), 0);
	for (unsigned i = 0; !fired && i < PUMPS_MAX; i++)
		assert_true(ethdrv_loop_run_once(t->loop, 0) >= 0);
	assert_true(fired);

	/* Another client is served meanwhile. */
	t->reply_size = 10;
	other = client(t, "stats\n");
	read_reply(t, other, &other_got, SIZE_MAX);
	assert_stats_reply(&other_got, 10);
	assert_int_equal(STAT(t, replies), 1);
	assert_true(STAT(t, pending_bytes) > 0);
	assert_int_equal(STAT(t, slow_dropped), 0);

	/* The stuck client reads at last, 16 KiB at a time: all of it, in order. */
	read_reply(t, stuck, &stuck_got, 16384);
	assert_stats_reply(&stuck_got, BIG_REPLY);
	assert_int_equal(STAT(t, replies), 2);
	assert_int_equal(STAT(t, pending_bytes), 0);
	assert_true(STAT(t, partial_writes) >= 2);
	close(stuck);
	close(other);
	free(stuck_got.buf);
	free(other_got.buf);
}

/* A client that does not take its reply within write_ms is dropped and counted. */
static void test_slow_client_dropped_after_write_ms(void **state)
{
	struct tc *t = *state;
	struct got g = { 0 };
	int fd;

	t->reply_size = BIG_REPLY;
	set_limits(t, CTL_IDLE_MS, 20, 2 * BIG_REPLY);
	fd = client(t, "stats\n");
	pump_until_pending(t);
	for (unsigned i = 0; !STAT(t, slow_dropped) && i < PUMPS_MAX; i++)
		assert_true(ethdrv_loop_run_once(t->loop, 0) >= 0);
	assert_int_equal(STAT(t, slow_dropped), 1);
	assert_int_equal(STAT(t, pending_bytes), 0);
	assert_int_equal(STAT(t, replies), 0);
	read_reply(t, fd, &g, SIZE_MAX);
	assert_true(g.len < 3 + BIG_REPLY); /* cut short: the connection is gone */
	close(fd);
	free(g.buf);
}

/* A reply over reply_max becomes one EMSGSIZE line. */
static void test_reply_over_the_cap_is_refused(void **state)
{
	struct tc *t = *state;
	struct got g = { 0 };
	int fd;

	t->reply_size = 5000;
	set_limits(t, CTL_IDLE_MS, CTL_WRITE_MS, 1000);
	fd = client(t, "stats\n");
	read_reply(t, fd, &g, SIZE_MAX);
	assert_string_equal(g.buf,
			    "error EMSGSIZE: reply of 5003 bytes is over the 1000-byte limit\n");
	assert_int_equal(STAT(t, replies_too_large), 1);
	assert_int_equal(STAT(t, replies), 1);
	close(fd);
	free(g.buf);
}

/* A client that sends nothing within idle_ms is closed and counted. */
static void test_silent_client_dropped_after_idle_ms(void **state)
{
	struct tc *t = *state;
	struct got g = { 0 };
	int fd;

	set_limits(t, 20, CTL_WRITE_MS, CTL_REPLY_MAX);
	fd = client(t, NULL);
	for (unsigned i = 0; !STAT(t, idle_dropped) && i < PUMPS_MAX; i++)
		assert_true(ethdrv_loop_run_once(t->loop, 0) >= 0);
	assert_int_equal(STAT(t, idle_dropped), 1);
	read_reply(t, fd, &g, SIZE_MAX);
	assert_int_equal(g.len, 0);
	close(fd);
}

/* Beyond CTL_CONNS_MAX connections the next one gets EBUSY, and is counted. */
static void test_connections_beyond_the_limit_refused(void **state)
{
	struct tc *t = *state;
	int fds[CTL_CONNS_MAX], fd;
	struct got g = { 0 };

	for (int i = 0; i < CTL_CONNS_MAX; i++) {
		fds[i] = client(t, NULL);
		pump(t);
	}
	fd = client(t, NULL);
	read_reply(t, fd, &g, SIZE_MAX);
	assert_string_equal(g.buf, "error EBUSY: too many control connections\n");
	assert_int_equal(STAT(t, refused_busy), 1);
	assert_int_equal(STAT(t, accepted), CTL_CONNS_MAX);
	for (int i = 0; i < CTL_CONNS_MAX; i++)
		close(fds[i]);
	close(fd);
	free(g.buf);
}

/* Input after the request is discarded (the reply survives), up to CTL_REQ_MAX bytes. */
static void test_input_after_the_request(void **state)
{
	struct tc *t = *state;
	static char req[5 + 3 * CTL_REQ_MAX];
	struct got g = { 0 };
	int fd;

	memcpy(req, "info\n", 5);
	memset(req + 5, 'x', sizeof(req) - 5);
	/* Within the bound: the reply arrives whole after the client closes its side. */
	fd = client(t, NULL);
	assert_int_equal(send(fd, req, 2 * CTL_REQ_MAX, MSG_NOSIGNAL), 2 * CTL_REQ_MAX);
	shutdown(fd, SHUT_WR);
	read_reply(t, fd, &g, SIZE_MAX);
	assert_string_equal(g.buf, "ok\nname=test\n");
	assert_int_equal(STAT(t, input_dropped), 0);
	close(fd);
	free(g.buf);
	/* Beyond it: dropped and counted. */
	fd = client(t, NULL);
	assert_int_equal(send(fd, req, sizeof(req), MSG_NOSIGNAL), (ssize_t)sizeof(req));
	for (unsigned i = 0; !STAT(t, input_dropped) && i < PUMPS_MAX; i++)
		pump(t);
	assert_int_equal(STAT(t, input_dropped), 1);
	close(fd);
}

/* A client that closes before its reply is sent costs a write error, nothing else. */
static void test_client_gone_before_its_reply(void **state)
{
	struct tc *t = *state;
	int fd;

	t->reply_size = BIG_REPLY;
	set_limits(t, CTL_IDLE_MS, CTL_WRITE_MS, 2 * BIG_REPLY);
	fd = client(t, "stats\n");
	close(fd);
	for (unsigned i = 0; !STAT(t, write_errors) && i < PUMPS_MAX; i++)
		pump(t);
	assert_int_equal(STAT(t, write_errors), 1);
	assert_int_equal(STAT(t, pending_bytes), 0);
}

/* A set op's "why" replaces the errno's text in the error line. */
static void test_set_failure_says_why(void **state)
{
	struct ctl_reply r = { 0 };
	char line[] = "set ok=1 locked=1 ok=2";

	ctl_dispatch(&tc_ops, NULL, line, &r);
	assert_string_equal(r.buf,
			    "error EPERM: set locked=1: locked at start: restart with --unlock\n");
	ctl_reply_free(&r);
}

/* A read-only knob refused by the op without a reason: the reply says it is read only. */
static void test_set_read_only_says_so(void **state)
{
	struct ctl_reply r = { 0 };
	char line[] = "set gauge=5";

	ctl_dispatch(&tc_ops, NULL, line, &r);
	assert_string_equal(r.buf, "error EPERM: set gauge=5: read only (what the device holds "
				   "now): `ethdrv get` reads it\n");
	ctl_reply_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_read_only_says_so),
		cmocka_unit_test_setup_teardown(test_client_that_never_reads_costs_the_loop_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_client_dropped_after_write_ms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reply_over_the_cap_is_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_silent_client_dropped_after_idle_ms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_connections_beyond_the_limit_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_input_after_the_request, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_gone_before_its_reply, setup, teardown),
		cmocka_unit_test(test_set_failure_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
