/* SPDX-License-Identifier: MIT */
/*
 * The control socket of one interface (docs/design.md §3): a Unix stream
 * socket /run/ethdrv/<ifname>.sock, mode 0600, served in the interface's
 * loop thread (so knob changes run where the device lives). The segment
 * process serves /run/ethdrv/segment.sock the same way for the medium.
 * The request protocol is ctl_proto.c, the server ctl_server.c, the client
 * ctl_client.c.
 *
 * Protocol (line-oriented, one request per connection):
 *
 *   client: one request line, at most CTL_REQ_MAX bytes including '\n'
 *   server: one reply, then it closes the connection (read until EOF)
 *
 *   requests                    reply on success ("ok\n" + body)
 *   stats                       ethtool -S style "     name: value" lines
 *   stats json                  one JSON object
 *   get KEY [KEY...]            one "KEY=VALUE" line per key
 *   set KEY=VALUE [KEY=VALUE..] nothing; pairs are applied in order and
 *                               the first failure stops (earlier ones stay)
 *   info                        "key=value" lines: name, device, netns, addr,
 *                               mac, pid; what the probe found: chip,
 *                               chip_rev, devid, oa_idver, oa_phyid,
 *                               oa_stdcap; spi_hz (applied), spi_hz_requested,
 *                               poll_us (0 with an IRQ line), irq, reset
 *   phy                         "key=value" lines of the device's PHY: phy
 *                               (bus:address), id, driver, state, link,
 *                               speed, duplex, autoneg, irq, poll_ms,
 *                               mdio_mode (tools/ethdrv/phy.c)
 *   phy read REG                "0xNNNN": clause-22 register REG (0..31)
 *   phy write REG VAL           nothing
 *   phy c45 read MMD REG        "0xNNNN": MMD register (MMD 0..31, REG
 *                               0..0xffff)
 *   phy c45 write MMD REG VAL   nothing; numbers decimal or 0x hex
 *   help                        the request list
 *
 *   failure: "error <ERRNO-NAME>: <message>\n", e.g.
 *            "error ENOENT: get foo: unknown key"
 *            "error EINVAL: set budget=x: bad value"
 *            "error EMSGSIZE: request longer than 4096 bytes"
 *            "error ENODEV: phy: t1s0 has no PHY (...)"
 *            "error ETIMEDOUT: phy read: the MDIO frame did not complete"
 *
 * Access: the socket file is 0600 and each peer's SO_PEERCRED uid must be
 * 0 or the server's uid; others get "error EACCES: ..." and are closed.
 * Malformed requests (empty, binary, too many words, no '\n' within
 * CTL_REQ_MAX bytes) get an error reply; a client that sends nothing
 * within CTL_IDLE_MS is closed.
 *
 * The server runs in a loop thread that is also the device's softirq NAPI
 * context (docs/design.md §4.1), so it never blocks on a client: a reply is
 * sent with non-blocking writes, and what the socket does not take waits in
 * the connection's output buffer for EPOLLOUT. A client that does not read
 * costs the loop nothing but that buffer: at most CTL_REPLY_MAX bytes, for
 * at most CTL_WRITE_MS, then it is dropped and counted (struct
 * ctl_server_stats).
 */
#ifndef ETHDRV_TOOLS_CTL_H
#define ETHDRV_TOOLS_CTL_H

#include <stdbool.h>
#include <stddef.h>

#include "ethdrv/knob.h"
#include "ethdrv/stats.h"

struct ethdrv_loop;
struct ctl_server;

#define CTL_REQ_MAX 4096 /* longest request line, '\n' included */
#define CTL_ARGS_MAX 64 /* words per request */
#define CTL_CONNS_MAX 8 /* connections served at once */
#define CTL_IDLE_MS 2000 /* a connection must send its request within this */
#define CTL_WRITE_MS 2000 /* and take its whole reply within this */
#define CTL_REPLY_MAX (1u << 20) /* longest reply kept for a client (bytes) */
#define CTL_SEGMENT_NAME "segment" /* the segment's socket: /run/ethdrv/segment.sock */

/* A growing reply buffer. */
struct ctl_reply {
	char *buf; /* NUL-terminated text, or NULL */
	size_t len; /* bytes used, without the NUL */
	size_t cap; /* bytes allocated */
	bool oom; /* an append failed: the reply becomes "error ENOMEM" */
};

/* What a server answers with; every op returns 0 or -errno. */
struct ctl_ops {
	/** Append the counters, as text or JSON. */
	int (*stats)(void *arg, bool json, struct ctl_reply *r);
	/**
	 * Apply one knob (-ENOENT unknown key, -EINVAL bad value); on a
	 * failure *@why may be pointed at a static text that says why, which
	 * the error reply then carries instead of the errno's text.
	 */
	int (*set)(void *arg, const char *key, const char *value, const char **why);
	/** Read one knob into @buf. */
	int (*get)(void *arg, const char *key, char *buf, size_t size);
	/** Append "key=value" lines about the server. */
	int (*info)(void *arg, struct ctl_reply *r);
	/** Optional: answer `phy WORDS...` (@argv after "phy") with the whole
	 *  reply, "ok" or "error" (phy_cmd.h). NULL: EOPNOTSUPP. */
	int (*phy)(void *arg, int argc, char **argv, struct ctl_reply *r);
	/** The knob tables of what the server serves (knob.h), at most @max into @out;
	 *  their count. They make `list` and the accepted values of a bad value. */
	size_t (*knobs)(void *arg, const struct ethdrv_knob_table **out, size_t max);
};

/** ctl_reply_printf() - append formatted text to @r (sets @r->oom on failure). */
void ctl_reply_printf(struct ctl_reply *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * ctl_reply_reserve() - append @n bytes for the caller to fill
 * @r: the reply
 * @n: bytes; one more is reserved for a NUL the caller may write
 *
 * Return: where to write them, or NULL (and @r->oom) without memory.
 */
char *ctl_reply_reserve(struct ctl_reply *r, size_t n);

/** ctl_reply_error() - replace @r by "error NAME: message\n" for -errno @err. */
void ctl_reply_error(struct ctl_reply *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** ctl_reply_free() - release the buffer of @r. */
void ctl_reply_free(struct ctl_reply *r);

/** ctl_errno_name() - "EINVAL" for EINVAL or -EINVAL; "E<n>" for unlisted ones. */
const char *ctl_errno_name(int err, char *buf, size_t size);

/**
 * ctl_dispatch() - answer one request line
 * @ops: the server's ops
 * @arg: passed to @ops
 * @line: the request without its '\n'; modified (split into words)
 * @r: receives the reply ("ok\n..." or "error ...\n")
 *
 * Context: the thread that owns what @ops touch (the loop thread).
 */
void ctl_dispatch(const struct ctl_ops *ops, void *arg, char *line, struct ctl_reply *r);

/**
 * ctl_handle() - frame and answer the bytes a connection sent so far
 * @ops: the server's ops
 * @arg: passed to @ops
 * @buf: the bytes received, with room for one more (a NUL is written at
 *       @buf[@len]); the request line is split in place
 * @len: bytes in @buf, at most CTL_REQ_MAX
 * @r: receives the reply when the function returns true
 *
 * A pure function (no I/O), so it can be fuzzed: a line up to '\n' is
 * dispatched; a NUL before the first '\n' is answered with EINVAL, CTL_REQ_MAX
 * bytes without '\n' with EMSGSIZE.
 *
 * Return: true if @r holds the reply, false if more bytes are needed.
 * Context: as ctl_dispatch().
 */
bool ctl_handle(const struct ctl_ops *ops, void *arg, char *buf, size_t len, struct ctl_reply *r);

/**
 * ctl_reply_grow() - make room in @r for @extra more bytes and a NUL
 * @r: the reply
 * @extra: bytes
 *
 * Return: true, or false (and @r->oom) without memory.
 */
bool ctl_reply_grow(struct ctl_reply *r, size_t extra);

/**
 * ctl_sock_path() - "/run/ethdrv/<name>.sock"
 * @name: interface name or CTL_SEGMENT_NAME
 * @buf: output
 * @size: its size
 *
 * Return: 0 or -ENAMETOOLONG.
 */
int ctl_sock_path(const char *name, char *buf, size_t size);

/**
 * ctl_server_start() - listen on @path and serve requests in @loop
 * @loop: the loop whose thread runs @ops
 * @path: socket path; a stale socket file there is replaced
 * @ops: the answers
 * @arg: passed to @ops
 * @out: receives the server
 *
 * Creates the socket's directory (0755) if it is missing.
 *
 * Return: 0, -EADDRINUSE if a live server answers on @path, or -errno.
 * Context: the loop thread, or before the loop runs.
 */
int ctl_server_start(struct ethdrv_loop *loop, const char *path, const struct ctl_ops *ops,
		     void *arg, struct ctl_server **out);

/* The server's limits; ctl_server_start() sets the CTL_* defaults. */
struct ctl_limits {
	unsigned idle_ms; /* to send the request line (and to close after the reply) */
	unsigned write_ms; /* to take the whole reply, from its first write */
	size_t reply_max; /* longer replies become "error EMSGSIZE" */
};

/**
 * ctl_server_set_limits() - change the limits for connections accepted later
 * @srv: the server
 * @lim: the limits; zero fields are refused
 *
 * Return: 0 or -EINVAL.
 * Context: the loop thread, or before the loop runs.
 */
int ctl_server_set_limits(struct ctl_server *srv, const struct ctl_limits *lim);

/* What the server counts (group "ctl" in the stats of a node). */
struct ctl_server_stats {
	ethdrv_counter_t accepted; /* connections served */
	ethdrv_counter_t refused_peer; /* peers neither root nor our uid */
	ethdrv_counter_t refused_busy; /* connections beyond CTL_CONNS_MAX */
	ethdrv_counter_t replies; /* replies sent whole */
	ethdrv_counter_t partial_writes; /* writes the socket took only part of */
	ethdrv_counter_t idle_dropped; /* clients silent for idle_ms */
	ethdrv_counter_t slow_dropped; /* clients that did not take their reply in write_ms */
	ethdrv_counter_t write_errors; /* clients gone before their reply was sent */
	ethdrv_counter_t replies_too_large; /* replies over reply_max, sent as EMSGSIZE */
	ethdrv_counter_t input_dropped; /* clients that sent CTL_REQ_MAX more after a request */
	ethdrv_counter_t pending_bytes; /* reply bytes waiting for their clients now */
};

/* The descriptors of struct ctl_server_stats (names without the "ctl_" prefix). */
extern const struct ethdrv_stat_desc ctl_server_stats_desc[];
extern const size_t ctl_server_stats_desc_count;

/**
 * ctl_server_get_stats() - a snapshot of the server's counters
 * @srv: the server, or NULL (then all are 0)
 * @out: filled in
 *
 * Context: any thread (the counters are relaxed atomics).
 */
void ctl_server_get_stats(const struct ctl_server *srv, struct ctl_server_stats *out);

/**
 * ctl_server_stop() - close every connection, the socket, and unlink it
 * @srv: the server, or NULL
 * Context: the loop thread (or after the loop stopped running).
 */
void ctl_server_stop(struct ctl_server *srv);

/**
 * ctl_request() - send one request and read the whole reply
 * @path: socket path
 * @req: the request, without '\n'
 * @reply: receives the reply text (malloc'd, NUL-terminated); free() it
 * @timeout_ms: bound on connect, send and each read
 *
 * Return: 0 (the reply may still be an "error" line), -ENOENT/-ECONNREFUSED
 * if nobody serves @path, -ETIMEDOUT, -EACCES, or -errno.
 */
int ctl_request(const char *path, const char *req, char **reply, int timeout_ms);

/**
 * ctl_is_alive() - true if a server answers on @path (connect succeeds)
 * @path: socket path
 */
bool ctl_is_alive(const char *path);

#endif /* ETHDRV_TOOLS_CTL_H */
