// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 framework (oa_tc6.h), its lifecycle: create (the state,
 * the "rx" poller, the watchdog timer, the counters), open (chip bring-up,
 * then traffic), stop and destroy. The work itself lives in the units
 * listed in oa_tc6_priv.h.
 */
#include <errno.h>
#include <stdlib.h>

#include "oa_tc6_priv.h"

#define OA_TC6_WATCHDOG_NS (100ull * 1000 * 1000)
#define OA_TC6_POLL_US_DEFAULT 1000 /* no IRQ line: poll every ms */
#define OA_TC6_POLL_US_MIN 50
#define OA_TC6_POLL_US_MAX 1000000
/* config_check_ms default: once a second, as NuttX checks (docs/tc6.md §4.5). */
#define OA_TC6_CONFIG_CHECK_MS 1000

/* Validate @cfg and copy it with defaults applied. */
static int oa_tc6_apply_config(struct oa_tc6 *tc6, const struct oa_tc6_config *cfg)
{
	tc6->cps = cfg->cps ? cfg->cps : 64;
	tc6->xfer_cap = cfg->xfer_cap ? cfg->xfer_cap : OA_TC6_XFER_CAP_DEFAULT;
	tc6->txq_max = cfg->txq_max ? cfg->txq_max : OA_TC6_TXQ_MAX_DEFAULT;
	tc6->protected_mode = cfg->protected_mode;
	tc6->poll_ns = (cfg->poll_us ? cfg->poll_us : OA_TC6_POLL_US_DEFAULT) * 1000ull;
	if ((tc6->cps != 32 && tc6->cps != 64) || tc6->xfer_cap > OA_TC6_XFER_CAP_MAX ||
	    cfg->weight > ETHDRV_NAPI_WEIGHT ||
	    (cfg->poll_us &&
	     (cfg->poll_us < OA_TC6_POLL_US_MIN || cfg->poll_us > OA_TC6_POLL_US_MAX)))
		return -EINVAL;
	/* Until oa_tc6_probe() reads STDCAP.TXFCSVC: the host supplies the FCS. */
	tc6->tx_fcs_len = ETHDRV_ETH_FCS_LEN;
	/* Policy 1 (Linux mainline) until set_param says otherwise. */
	tc6->imask0 = OA_TC6_STATUS0_ALL & ~OA_TC6_IRQ_LINUX;
	tc6->rxboe_drop = true;
	tc6->rxboe_log = true;
	tc6->config_check_ms = OA_TC6_CONFIG_CHECK_MS;
	tc6->config0_knobs = cfg->rx_zero_align ? OA_TC6_CONFIG0_ZARFE : 0;
	return 0;
}

int oa_tc6_create(struct ethdrv_netdev *dev, const struct ethdrv_spi_bus *bus,
		  const struct oa_tc6_config *cfg, const struct oa_tc6_chip_ops *ops, void *chip,
		  struct oa_tc6 **out)
{
	struct oa_tc6 *tc6 = calloc(1, sizeof(*tc6));
	int weight = cfg->weight ? (int)cfg->weight : ETHDRV_NAPI_WEIGHT;
	int ret;

	if (!tc6)
		return -ENOMEM;
	tc6->dev = dev;
	tc6->bus = *bus;
	tc6->ops = ops;
	tc6->chip = chip;
	ret = oa_tc6_apply_config(tc6, cfg);
	if (ret)
		goto err_free;
	ret = -ENOMEM;
	if (mtx_init(&tc6->bus_lock, mtx_plain | mtx_recursive) != thrd_success)
		goto err_free;
	/* Recursive: a TX wake handler may queue the next frame at once. */
	if (mtx_init(&tc6->tx_lock, mtx_plain | mtx_recursive) != thrd_success)
		goto err_destroy_bus_lock;
	oa_tc6_rx_init(&tc6->rx, tc6->rx_frame, sizeof(tc6->rx_frame));
	ethdrv_timer_init(dev->loop, &tc6->watchdog, oa_tc6_watchdog);
	tc6->watchdog.data = tc6;
	ret = ethdrv_napi_add(dev, "rx", oa_tc6_poll, weight, tc6, &tc6->napi);
	if (ret)
		goto err_destroy_tx_lock;
	if (bus->irq_fd >= 0)
		ret = ethdrv_napi_attach_irq(tc6->napi, bus->irq_fd);
	if (!ret)
		ret = oa_tc6_register_stats(tc6);
	/* Before the chip driver probes: the trace starts with the first transfer. */
	if (!ret && cfg->spi_trace) {
		ret = ethdrv_spi_trace_start_as(&tc6->bus, cfg->spi_trace, dev->name);
		tc6->hooks.tracing = !ret;
	}
	if (ret)
		goto err_del_napi;
	*out = tc6;
	return 0;

err_del_napi:
	ethdrv_napi_del(tc6->napi);
err_destroy_tx_lock:
	mtx_destroy(&tc6->tx_lock);
err_destroy_bus_lock:
	mtx_destroy(&tc6->bus_lock);
err_free:
	free(tc6);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 framework (oa_tc6.h), its lifecycle: create (the state,
 * the "rx" poller, the watchdog timer, the counters), open (chip bring-up,
 * then traffic), stop and destroy. The work itself lives in the units
 * listed in oa_tc6_priv.h.
 */
#include <errno.h>
#include <stdlib.h>

#include "oa_tc6_priv.h"

#define OA_TC6_WATCHDOG_NS (100ull * 1000 * 1000)
#define OA_TC6_POLL_US_DEFAULT 1000 /* no IRQ line: poll every ms */
#define OA_TC6_POLL_US_MIN 50
#define OA_TC6_POLL_US_MAX 1000000
/* config_check_ms default: once a second, as NuttX checks (docs/tc6.md §4.5). */
#define OA_TC6_CONFIG_CHECK_MS 1000

int oa_tc6_open(struct oa_tc6 *tc6)
{
	uint64_t period;
	int ret;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	ret = oa_tc6_chip_init(tc6);
	if (!ret) {
		oa_tc6_rx_abort(&tc6->rx);
		tc6->recover_pending = 0;
		__atomic_store_n(&tc6->running, true, __ATOMIC_RELEASE);
	}
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	if (ret)
		return ret;
	ethdrv_napi_enable(tc6->napi);
	/* Without an IRQ line the watchdog is the poll timer (polled mode). */
	period = tc6->bus.irq_fd < 0 ? tc6->poll_ns : OA_TC6_WATCHDOG_NS;
	ret = ethdrv_timer_start(&tc6->watchdog, period, period);
	/* The first poll sends the empty chunk that releases the reset IRQ. */
	ethdrv_napi_schedule(tc6->napi);
	return ret;
}

void oa_tc6_stop(struct oa_tc6 *tc6)
{
	__atomic_store_n(&tc6->running, false, __ATOMIC_RELEASE);
	ethdrv_timer_stop(&tc6->watchdog);
	tc6->next_check_ns = 0;
	ethdrv_napi_disable(tc6->napi);
	oa_tc6_mutex_lock(&tc6->bus_lock);
	oa_tc6_flush(tc6, true);
	tc6->recover_pending = 0;
	oa_tc6_mutex_unlock(&tc6->bus_lock);
}

void oa_tc6_destroy(struct oa_tc6 *tc6)
{
	if (!tc6)
		return;
	/* The core frees the poller and the stats set (ethdrv_netdev_cleanup). */
	oa_tc6_mdio_free(tc6);
	oa_tc6_hooks_release(tc6);
	ethdrv_pkt_queue_purge(&tc6->txq);
	ethdrv_pkt_queue_purge(&tc6->inflight);
	ethdrv_pkt_queue_purge(&tc6->rx_ready);
	mtx_destroy(&tc6->tx_lock);
	mtx_destroy(&tc6->bus_lock);
	free(tc6);
}
