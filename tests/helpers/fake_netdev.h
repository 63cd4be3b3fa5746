/* SPDX-License-Identifier: MIT */
/*
 * A fake network device with fault knobs, plugged in above the driver layer
 * to test the core (docs/style.md S6; DPDK virtual_pmd, Zephyr eth_fake).
 *
 * The "wire": tests inject RX frames into an RX queue. The RX IRQ is an
 * eventfd kept readable (asserted) while the RX queue is non-empty, a level
 * like a MAC's interrupt line. Sent frames occupy a bounded TX ring until
 * the test completes them (fake_netdev_complete_tx(), or at once with
 * auto_complete_tx); completions raise a separate TX IRQ handled by a
 * TX-completion poller, split as gianfar does (docs/napi.md §4.1). With
 * split_tx off, one poller and one IRQ handle both.
 *
 * Frames carry a 32-bit sequence number after the Ethernet header so tests
 * can check order and count; the default RX handler records them.
 */
#ifndef ETHDRV_TESTS_FAKE_NETDEV_H
#define ETHDRV_TESTS_FAKE_NETDEV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "ethdrv/driver.h"

struct fake_netdev_config {
	bool split_tx; /* separate TX-completion poller and TX IRQ */
	unsigned tx_ring_size; /* frames sent and not yet reaped, at most */
	bool auto_complete_tx; /* the "hardware" completes each frame at once */
	bool fail_open; /* open returns -EIO */
	int tx_fail_after; /* start_xmit returns TX_BUSY after this many frames; -1 = never */
	unsigned drop_every; /* drop every Nth RX frame (rx_dropped); 0 = never */
	unsigned record_cap; /* RX/TX sequence numbers recorded */
	int rx_weight; /* RX poller weight */
};

#define FAKE_POLL_LOG 256 /* RX polls logged with budget, work and time */

struct fake_netdev {
	struct ethdrv_netdev dev; /* first member (docs/style.md S3) */
	struct fake_netdev_config cfg; /* knobs; tests may change them between runs */
	pthread_mutex_t lock; /* protects rxq, tx_ring, tx_done, the IRQ levels, tx_xmits */
	struct ethdrv_pkt_queue rxq; /* frames on the wire, not yet polled */
	struct ethdrv_pkt_queue tx_ring; /* frames sent, not completed */
	struct ethdrv_pkt_queue tx_done; /* frames completed, not reaped */
	int rx_irq_fd; /* level: readable while RX (or, unsplit, TX done) is pending */
	int tx_irq_fd; /* level: readable while TX completions wait (split_tx) */
	bool rx_irq_level; /* rx_irq_fd asserted */
	bool tx_irq_level; /* tx_irq_fd asserted */
	unsigned tx_xmits; /* frames start_xmit accepted */
	unsigned rx_seen; /* frames the RX poll took (drop_every); poll context only */
	struct ethdrv_napi *rx_napi; /* RX poller */
	struct ethdrv_napi *tx_napi; /* TX-completion poller, or NULL */

	/* Records, written by the poll context, read with acquire. */
	uint32_t *rx_seq; /* sequence numbers the default RX handler got */
	unsigned rx_rec_n; /* frames recorded (atomic), may exceed record_cap */
	uint32_t *tx_seq; /* sequence numbers of reaped TX frames */
	unsigned tx_rec_n; /* frames reaped (atomic) */
	unsigned rx_budget0_polls; /* RX polls with budget 0 (TX only) */
	struct {
		int budget; /* budget the core passed */
		int work; /* work returned */
		uint64_t ts_ns; /* when the poll started */
	} rx_log[FAKE_POLL_LOG]; /* the first RX polls */
	unsigned rx_log_n; /* RX polls logged (atomic), may exceed FAKE_POLL_LOG */
	unsigned rx_polls_in_loop; /* RX polls run in the loop thread (atomic) */
	unsigned rx_polls_elsewhere; /* RX polls run in another thread (atomic) */
	unsigned set_rx_mode_calls; /* set_rx_mode op calls */
	unsigned get_stats_calls; /* get_stats op calls */
};

#define FAKE_FROM_NETDEV(d) ethdrv_container_of(d, struct fake_netdev, dev)
#define FAKE_ETHERTYPE 0x88b5 /* IEEE local experimental */

/* Defaults: split TX, ring of 64, no faults, 4096 records, weight 64. */
void fake_netdev_default_config(struct fake_netdev_config *cfg);

/*
 * Create a fake device named @name on @loop with RX buffers from @pool;
 * pollers and IRQs are registered, the default RX handler records frames.
 * Returns 0 or -errno.
 */
int fake_netdev_create(struct ethdrv_loop *loop, struct ethdrv_pkt_pool *pool, const char *name,
		       const struct fake_netdev_config *cfg, struct fake_netdev **out);

/* Stop if needed and free (ethdrv_netdev_destroy). */
void fake_netdev_destroy(struct fake_netdev *f);

/* A frame of @len bytes (>= 60) to our MAC carrying @seq; NULL if the pool is empty. */
struct ethdrv_pkt *fake_netdev_make_frame(struct fake_netdev *f, uint32_t seq, unsigned len);

/* The sequence number a frame made here carries. */
uint32_t fake_frame_seq(const struct ethdrv_pkt *pkt);

/* Put a frame carrying @seq on the wire; -ENOMEM if the pool is empty. Any thread. */
int fake_netdev_inject_rx(struct fake_netdev *f, uint32_t seq);

/* Put @pkt on the wire (the fake owns it). Any thread. */
void fake_netdev_inject_rx_pkt(struct fake_netdev *f, struct ethdrv_pkt *pkt);

/* The "hardware" completes up to @n of the oldest sent frames; returns how many. */
unsigned fake_netdev_complete_tx(struct fake_netdev *f, unsigned n);

/* Frames waiting on the wire / in the TX ring (sent or done, not reaped). */
unsigned fake_netdev_rx_pending(struct fake_netdev *f);
unsigned fake_netdev_tx_used(struct fake_netdev *f);

/* Frames carrying @first .. @first + @n - 1 onto the wire; 0 or -ENOMEM. Any thread. */
int fake_netdev_inject_n(struct fake_netdev *f, uint32_t first, unsigned n);

/* True if exactly @n frames were recorded, carrying 0 .. @n - 1 in order. */
bool fake_netdev_rx_in_order(const struct fake_netdev *f, unsigned n);

/* Records: frames the default RX handler got and TX frames reaped. */
unsigned fake_netdev_rx_count(const struct fake_netdev *f);
unsigned fake_netdev_tx_count(const struct fake_netdev *f);

/* The default RX handler (@arg is the fake): records the sequence, frees. */
void fake_netdev_record_rx(void *arg, struct ethdrv_pkt *pkt);

/* The RX poll method, exported so a test can call it with budget 0. */
int fake_netdev_rx_poll(struct ethdrv_napi *napi, int budget);

#endif /* ETHDRV_TESTS_FAKE_NETDEV_H */
