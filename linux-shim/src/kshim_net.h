/* SPDX-License-Identifier: MIT */
/* kshim: the host's side of a net_device (not seen by the kernel files). */
#ifndef KSHIM_NET_H
#define KSHIM_NET_H

#include "kshim_priv.h"

struct kshim_netdev_host {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* queue state changes */
	bool queue_stopped, tx_disabled, registered, up;
	void (*rx)(void *ctx, const uint8_t *frame, size_t len);
	void (*tx_wake)(void *ctx);
	void *ctx;
};

/* kshim_host.c: register_netdev() tells the host. */
void kshim_host_registered(struct net_device *dev);

#endif /* KSHIM_NET_H */
