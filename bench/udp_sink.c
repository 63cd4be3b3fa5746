// SPDX-License-Identifier: MIT
/*
 * udp-sink: the receiver of the napi-modes benchmark's UDP flood
 * (bench/napi-modes.py, docs/napi.md §11). Binds a UDP port, takes every
 * datagram that arrives with recvmmsg() in batches, and counts datagrams,
 * payload bytes and the gaps in the sequence numbers the line's generator
 * writes into the first 8 payload bytes (docs/enet.md §14). Runs until
 * SIGTERM/SIGINT (or --seconds), then prints one JSON object: the counts,
 * its own CPU time and context switches (what receiving cost the
 * application), and the socket's drops (SO_RXQ_OVFL).
 *
 * --cost-ns N spins N ns of the thread's own CPU time per datagram: the
 * application on the slower CPU that the receiving node's cpu_cost_ns stands
 * for (docs/napi.md §12.1). It spins on CLOCK_THREAD_CPUTIME_ID, not on the
 * wall clock, so a sink preempted in the middle of a datagram still spends
 * the whole N on it.
 *
 * usage: udp-sink [--port P] [--addr A] [--rcvbuf BYTES] [--seconds S] [--ready FILE]
 *                 [--cost-ns N]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "ethdrv/loop.h"

#define SINK_BATCH 64
#define SINK_BUF 2048
#define SINK_COST_MAX_NS 1000000ull /* as the node's cpu_cost_ns knob */

static volatile sig_atomic_t sink_stop;

static void sink_on_signal(int sig)
{
	(void)sig;
	sink_stop = 1;
}

struct sink_counts {
	uint64_t datagrams; /* datagrams received */
	uint64_t bytes; /* their payload bytes */
	uint64_t seq_gaps; /* datagrams missing between received sequence numbers */
	uint64_t seq_back; /* datagrams whose sequence number went backwards */
	uint64_t short_dgrams; /* datagrams too short to carry a sequence number */
	uint64_t next_seq; /* the sequence number expected next */
	uint32_t ovfl; /* the socket's drop count (SO_RXQ_OVFL), last seen */
	uint64_t first_ns, last_ns; /* CLOCK_MONOTONIC of the first and last batch */
};

/* Spend @ns of this thread's CPU time: the work a slower CPU does per datagram. */
static void sink_spin(uint64_t ns)
{
	uint64_t end = ethdrv_thread_cpu_ns() + ns;

	while (ethdrv_thread_cpu_ns() < end)
		;
}

static uint64_t sink_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Account one datagram of @len bytes at @p. */
static void sink_count(struct sink_counts *c, const uint8_t *p, size_t len)
{
	uint64_t seq;

	c->datagrams++;
	c->bytes += len;
	if (len < 8) {
		c->short_dgrams++;
		return;
	}
	seq = sink_be64(p);
	if (seq >= c->next_seq) {
		c->seq_gaps += seq - c->next_seq;
		c->next_seq = seq + 1;
	} else {
		c->seq_back++;
	}
}

/* The SO_RXQ_OVFL control message of @m, if any. */
static void sink_ovfl(struct sink_counts *c, struct msghdr *m)
{
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(m); cm; cm = CMSG_NXTHDR(m, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_RXQ_OVFL)
			memcpy(&c->ovfl, CMSG_DATA(cm), sizeof(c->ovfl));
}

static int sink_open(const char *addr, unsigned port, int rcvbuf)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };

	if (fd < 0)
		return -1;
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1 ||
	    setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf))) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void sink_loop(int fd, struct sink_counts *c, uint64_t end_ns, uint64_t cost_ns)
{
	static uint8_t bufs[SINK_BATCH][SINK_BUF];
	static char ctl[SINK_BATCH][CMSG_SPACE(sizeof(uint32_t))];
	struct mmsghdr msgs[SINK_BATCH];
	struct iovec iov[SINK_BATCH];

	while (!sink_stop && (!end_ns || ethdrv_now_ns() < end_ns)) {
		int n;

		for (int i = 0; i < SINK_BATCH; i++) {
			iov[i] = (struct iovec){ bufs[i], SINK_BUF };
			msgs[i].msg_hdr = (struct msghdr){ .msg_iov = &iov[i],
							   .msg_iovlen = 1,
							   .msg_control = ctl[i],
							   .msg_controllen = sizeof(ctl[i]) };
		}
		n = recvmmsg(fd, msgs, SINK_BATCH, MSG_WAITFORONE, NULL);
		if (n <= 0)
			continue; /* timeout or signal: look at the clock and the flag */
		c->last_ns = ethdrv_now_ns();
		if (!c->first_ns)
			c->first_ns = c->last_ns;
		for (int i = 0; i < n; i++) {
			sink_count(c, bufs[i], msgs[i].msg_len);
			sink_ovfl(c, &msgs[i].msg_hdr);
			if (cost_ns)
				sink_spin(cost_ns);
		}
	}
}

static void sink_report(const struct sink_counts *c, uint64_t cost_ns)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("{\"datagrams\": %llu, \"bytes\": %llu, \"seq_gaps\": %llu, \"seq_back\": %llu, "
	       "\"short\": %llu, \"socket_drops\": %u, \"first_ns\": %llu, \"last_ns\": %llu, "
	       "\"cpu_ns\": %llu, \"voluntary_switches\": %ld, \"involuntary_switches\": %ld, "
	       "\"cost_ns\": %llu}\n",
	       (unsigned long long)c->datagrams, (unsigned long long)c->bytes,
	       (unsigned long long)c->seq_gaps, (unsigned long long)c->seq_back,
	       (unsigned long long)c->short_dgrams, c->ovfl, (unsigned long long)c->first_ns,
	       (unsigned long long)c->last_ns,
	       (unsigned long long)((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ll +
				    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ll),
	       ru.ru_nvcsw, ru.ru_nivcsw, (unsigned long long)cost_ns);
	fflush(stdout);
}

static const char sink_usage[] =
	"usage: udp-sink [--port P] [--addr A] [--rcvbuf BYTES] [--seconds S] [--ready FILE]\n"
	"                [--cost-ns N]   N: CPU ns spun per datagram, 0..1000000 (0)\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "port", required_argument, NULL, 'p' },
					      { "addr", required_argument, NULL, 'a' },
					      { "rcvbuf", required_argument, NULL, 'r' },
					      { "seconds", required_argument, NULL, 's' },
					      { "ready", required_argument, NULL, 'R' },
					      { "cost-ns", required_argument, NULL, 'c' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	const char *addr = "0.0.0.0", *ready = NULL;
	unsigned port = 9000;
	int rcvbuf = 0, opt, fd;
	double seconds = 0;
	unsigned long long cost_ns = 0;
	char *end;
	struct sink_counts c = { 0 };
	struct sigaction sa = { .sa_handler = sink_on_signal };

	while ((opt = getopt_long(argc, argv, "p:a:r:s:R:c:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			port = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'a':
			addr = optarg;
			break;
		case 'r':
			rcvbuf = atoi(optarg);
			break;
		case 's':
			seconds = atof(optarg);
			break;
		case 'R':
			ready = optarg;
			break;
		case 'c':
			errno = 0;
			cost_ns = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' ||
			    cost_ns > SINK_COST_MAX_NS) {
				fprintf(stderr, "udp-sink: --cost-ns %s: want 0..%llu ns\n", optarg,
					SINK_COST_MAX_NS);
				return 2;
			}
			break;
		case 'h':
			fputs(sink_usage, stdout);
			return 0;
		default:
			fputs(sink_usage, stderr);
			return 2;
		}
	}
	if (!port || port > 65535 || seconds < 0) {
		fputs(sink_usage, stderr);
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	fd = sink_open(addr, port, rcvbuf);
	if (fd < 0) {
		fprintf(stderr, "udp-sink: %s:%u: %s\n", addr, port, strerror(errno));
		return 1;
	}
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (f)
			fclose(f);
	}
	sink_loop(fd, &c, seconds > 0 ? ethdrv_now_ns() + (uint64_t)(seconds * 1e9) : 0, cost_ns);
	sink_report(&c, cost_ns);
	close(fd);
	return 0;
}
