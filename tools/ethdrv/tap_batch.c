// SPDX-License-Identifier: MIT
/*
 * Frames to the TAP in batches: one io_uring submission per batch, or
 * writev(2) per write where io_uring is unavailable (tap_batch.h,
 * docs/host.md §10).
 */
#include "tap_batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ethdrv/compiler.h"
#include "ethdrv/knob.h"
#include "platform/linux/platform.h"

#ifdef ETHDRV_HAVE_LIBURING
#include <linux/fs.h>
#include <liburing.h>

#define TAP_BATCH_SUBMIT_TRIES 8 /* io_uring_submit() interrupted or busy: retry so often */

/* Does the kernel take RWF_NOWAIT on this fd? A 1-byte write is refused by
 * tun as too short (-EINVAL) once the flag passed; -EOPNOTSUPP if not. */
static bool tap_batch_probe_nowait(struct io_uring *ring, int fd)
{
	static const char byte;
	struct iovec iov = { (void *)&byte, 1 };
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int res;

	if (!sqe)
		return false;
	io_uring_prep_writev2(sqe, fd, &iov, 1, (uint64_t)-1, RWF_NOWAIT);
	if (io_uring_submit_and_wait(ring, 1) != 1 || io_uring_wait_cqe(ring, &cqe))
		return false;
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res == -EINVAL;
}

static void tap_batch_ring_open(struct tap_batch *b)
{
	struct io_uring *ring = calloc(1, sizeof(*ring));
	int err;

	if (!ring) {
		b->uring_err = -ENOMEM;
		return;
	}
	err = io_uring_queue_init(TAP_BATCH_MAX, ring, 0);
	if (err) {
		free(ring);
		b->uring_err = err;
		return;
	}
	b->ring = ring;
	b->uring_ok = true;
}

static void tap_batch_ring_close(struct tap_batch *b)
{
	if (!b->ring)
		return;
	io_uring_queue_exit(b->ring);
	free(b->ring);
	b->ring = NULL;
	b->uring_ok = false;
}

/* Submit every SQE queued; false if the ring refuses (it is then closed). */
static bool tap_batch_submit(struct tap_batch *b, unsigned n)
{
	unsigned sent = 0;
	int ret, tries = 0;

	while (sent < n) {
		ret = io_uring_submit(b->ring);
		if (ret > 0) {
			sent += (unsigned)ret;
			continue;
		}
		if ((ret == -EINTR || ret == -EAGAIN || ret == -EBUSY) &&
		    ++tries < TAP_BATCH_SUBMIT_TRIES)
			continue;
		/* Nothing went: the SQEs still queued die with the ring, and the
		 * batch goes the plain way (the caller). */
		if (sent)
			return true; /* can not happen with our own ring; keep what went */
		b->uring_err = ret ? ret : -EIO;
		tap_batch_ring_close(b);
		return false;
	}
	ethdrv_counter_inc(&b->st.tap_tx_submits);
	return true;
}

#define TAP_BATCH_CANCEL_TAG UINT64_MAX /* user_data of the cancel request */

/* Cancel every write still in flight: the kernel parked it (poll armed or a
 * worker) instead of completing it inline. Its CQE then says -ECANCELED and
 * the caller writes it the plain way, in order. */
static void tap_batch_cancel(struct tap_batch *b)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(b->ring);

	if (!sqe)
		return;
	io_uring_prep_cancel_fd(sqe, b->fd, IORING_ASYNC_CANCEL_ALL);
	io_uring_sqe_set_data64(sqe, TAP_BATCH_CANCEL_TAG);
	io_uring_submit(b->ring);
}

/* The results of @n writes, into res[] by slot. What did not complete
 * inline is counted (async) and cancelled: the batch never waits. */
static void tap_batch_reap(struct tap_batch *b, unsigned n, int *res)
{
	struct io_uring_cqe *cqe;
	bool cancelled = false, cancel_done = false;
	uint64_t tag;

	for (unsigned got = 0; got < n;) {
		if (io_uring_peek_cqe(b->ring, &cqe)) {
			if (!cancelled) {
				ethdrv_counter_add(&b->st.tap_tx_async, n - got);
				tap_batch_cancel(b);
				cancelled = true;
			}
			if (io_uring_wait_cqe(b->ring, &cqe)) {
				/* Can not happen (the ring is ours); the rest count as refused. */
				for (unsigned i = 0; i < n; i++)
					if (res[i] == 1)
						res[i] = -EIO;
				return;
			}
		}
		tag = io_uring_cqe_get_data64(cqe);
		if (tag != TAP_BATCH_CANCEL_TAG) {
			res[tag] = cqe->res;
			got++;
		} else {
			cancel_done = true;
		}
		io_uring_cqe_seen(b->ring, cqe);
	}
	/* The cancel request's own completion, if it has not come yet. */
	if (cancelled && !cancel_done && !io_uring_wait_cqe(b->ring, &cqe))
		io_uring_cqe_seen(b->ring, cqe); /* the only request left in flight */
}

static size_t tap_batch_len(const struct tap_batch_slot *s)
{
	size_t len = 0;

	for (int i = 0; i < s->iovcnt; i++)
		len += s->iov[i].iov_len;
	return len;
}

/* The batch in one submission; res[i] is each write's result (0 or -errno). */
static bool tap_batch_uring(struct tap_batch *b, int *res)
{
	struct io_uring_sqe *sqe;
	unsigned i;

	for (i = 0; i < b->count; i++) {
		sqe = io_uring_get_sqe(b->ring);
		io_uring_prep_writev(sqe, b->fd, b->slot[i].iov, (unsigned)b->slot[i].iovcnt,
				     (uint64_t)-1);
		if (b->nowait)
			sqe->rw_flags = RWF_NOWAIT;
		else if (i + 1 < b->count)
			sqe->flags |= IOSQE_IO_LINK;
		io_uring_sqe_set_data64(sqe, i);
		res[i] = 1; /* not yet known */
	}
	if (!tap_batch_submit(b, b->count))
		return false;
	tap_batch_reap(b, b->count, res);
	for (i = 0; i < b->count; i++) {
		if (res[i] >= 0)
			res[i] = (size_t)res[i] == tap_batch_len(&b->slot[i]) ? 0 : -EIO;
	}
	ethdrv_counter_add(&b->st.tap_tx_uring_writes, b->count);
	return true;
}
#else
static bool tap_batch_probe_nowait(void *ring, int fd)
{
	(void)ring;
	(void)fd;
	return false;
}

static void tap_batch_ring_open(struct tap_batch *b)
{
	b->uring_err = -ENOSYS;
}

static void tap_batch_ring_close(struct tap_batch *b)
{
	(void)b;
}

static bool tap_batch_uring(struct tap_batch *b, int *res)
{
	(void)b;
	(void)res;
	return false;
}
#endif

void tap_batch_init(struct tap_batch *b, tap_batch_done_fn done, void *arg)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->done = done;
	b->done_arg = arg;
	b->limit = TAP_BATCH_MAX;
	tap_batch_ring_open(b);
	b->uring_on = b->uring_ok;
}

void tap_batch_attach(struct tap_batch *b, int fd)
{
	tap_batch_flush(b);
	b->fd = fd;
	if (b->uring_ok)
		b->nowait = tap_batch_probe_nowait(b->ring, fd);
}

void tap_batch_close(struct tap_batch *b)
{
	tap_batch_flush(b);
	tap_batch_ring_close(b);
}

struct tap_batch_slot *tap_batch_slot(struct tap_batch *b)
{
	struct tap_batch_slot *s;

	if (b->count >= TAP_BATCH_MAX)
		tap_batch_flush(b);
	s = &b->slot[b->count];
	s->iovcnt = 0;
	s->npkt = 0;
	s->frames = 0;
	return s;
}

void tap_batch_commit(struct tap_batch *b)
{
	b->count++;
	if (b->count >= __atomic_load_n(&b->limit, __ATOMIC_RELAXED))
		tap_batch_flush(b);
}

void tap_batch_add_pkt(struct tap_batch *b, const struct virtio_net_hdr *vh, struct ethdrv_pkt *pkt)
{
	struct tap_batch_slot *s = tap_batch_slot(b);

	if (vh) {
		s->vh = *vh;
		s->iov[s->iovcnt++] = (struct iovec){ &s->vh, TAP_VNET_HDR_LEN };
	}
	s->iov[s->iovcnt++] = (struct iovec){ pkt->data, pkt->len };
	s->pkt[s->npkt++] = pkt;
	s->frames = 1;
	tap_batch_commit(b);
}

void tap_batch_flush(struct tap_batch *b)
{
	int res[TAP_BATCH_MAX];
	bool ring = false;
	unsigned i;

	if (!b->count)
		return;
	if (b->uring_ok && __atomic_load_n(&b->uring_on, __ATOMIC_RELAXED))
		ring = tap_batch_uring(b, res);
	if (ring && b->count > ethdrv_counter_get(&b->st.tap_tx_batch_max))
		ethdrv_counter_set(&b->st.tap_tx_batch_max, b->count);
	for (i = 0; i < b->count; i++) {
		struct tap_batch_slot *s = &b->slot[i];

		/* The fallback, and what a failed link cancelled: in order. */
		if (!ring || res[i] == -ECANCELED) {
			res[i] = ethdrv_tap_writev(b->fd, s->iov, s->iovcnt);
			ethdrv_counter_inc(ring ? &b->st.tap_tx_relinked :
						  &b->st.tap_tx_plain_writes);
		}
		b->done(b->done_arg, s->frames, res[i]);
		for (unsigned k = 0; k < s->npkt; k++)
			ethdrv_pkt_free(s->pkt[k]);
	}
	b->count = 0;
}

const char *tap_batch_mode(const struct tap_batch *b, char *buf, size_t size)
{
	if (!b->uring_ok)
		snprintf(buf, size, "write (io_uring unavailable: %s)", strerror(-b->uring_err));
	else if (!__atomic_load_n(&b->uring_on, __ATOMIC_RELAXED))
		snprintf(buf, size, "write (io_uring off)");
	else
		snprintf(buf, size, "io_uring%s", b->nowait ? "" : " (linked, no RWF_NOWAIT)");
	return buf;
}

static const struct ethdrv_knob tap_batch_knobs[] = {
	ETHDRV_KNOB_BOOL("tap_uring", "TAP writes of one poll in one io_uring submission "
				      "(off: one writev per frame)"),
	ETHDRV_KNOB_UINT("tap_batch", 1, TAP_BATCH_MAX, "writes",
			 "TAP writes per submission at most"),
};

const struct ethdrv_knob_table tap_batch_knob_table = ETHDRV_KNOB_TABLE("node", tap_batch_knobs);

int tap_batch_set(struct tap_batch *b, const char *key, const char *value)
{
	char *end;
	unsigned long v;

	if (!strcmp(key, "tap_uring")) {
		bool on = !strcmp(value, "on") || !strcmp(value, "1");

		if (!on && strcmp(value, "off") && strcmp(value, "0"))
			return -EINVAL;
		if (on && !b->uring_ok)
			return -EOPNOTSUPP;
		__atomic_store_n(&b->uring_on, on, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strcmp(key, "tap_batch")) {
		errno = 0;
		v = strtoul(value, &end, 10);
		if (errno || end == value || *end || v < 1 || v > TAP_BATCH_MAX)
			return -EINVAL;
		__atomic_store_n(&b->limit, (unsigned)v, __ATOMIC_RELAXED);
		return 0;
	}
	return -ENOENT;
}

int tap_batch_get(const struct tap_batch *b, const char *key, char *buf, size_t size)
{
	if (!strcmp(key, "tap_uring"))
		snprintf(buf, size, "%s",
			 __atomic_load_n(&b->uring_on, __ATOMIC_RELAXED) ? "on" : "off");
	else if (!strcmp(key, "tap_batch"))
		snprintf(buf, size, "%u", __atomic_load_n(&b->limit, __ATOMIC_RELAXED));
	else
		return -ENOENT;
	return 0;
}
