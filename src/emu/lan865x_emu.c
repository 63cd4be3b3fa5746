// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 MAC-PHY model, an OPEN Alliance TC6 SPI slave: the device. It owns
 * creating and freeing a model, the SPI slave entry that runs one transfer
 * through the other parts (bus clock, bit errors, control or data transaction,
 * IRQ_N, the medium), and the counters. The parts and what each owns are listed
 * in lan865x_emu_priv.h; behaviour and assumptions in lan865x_emu.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ethdrv/compiler.h"
#include "lan865x_emu_priv.h"

#define D(f) ETHDRV_STAT_DESC(struct lan865x_emu_stats, f)
const struct ethdrv_stat_desc lan865x_emu_stats_desc[] = {
	D(transfers),
	D(bytes),
	D(ctrl_transfers),
	D(ctrl_reads),
	D(ctrl_writes),
	D(ctrl_len_errors),
	D(chunks),
	D(hdr_errors),
	D(cdpe),
	D(txpe),
	D(txboe),
	D(txbue),
	D(lofe),
	D(tx_frames),
	D(tx_bytes),
	D(tx_fcs_errors),
	D(tx_dropped_protocol),
	D(tx_dropped_overflow),
	D(tx_dropped_disabled),
	D(tx_dropped_oversize),
	D(tx_dropped_underrun),
	D(tx_flushed),
	D(tx_started),
	D(rx_frames),
	D(rx_bytes),
	D(rx_delivered),
	D(rx_dropped_overflow),
	D(rx_dropped_filter),
	D(rx_dropped_sync),
	D(rx_dropped_disabled),
	D(rx_dropped_length),
	D(rx_dropped_fcs),
	D(rx_flushed),
	D(rx_overflow_buffered),
	EMU_LOSS_STAT_DESCS(struct lan865x_emu_stats, rx_loss),
	D(rx_started),
	D(rx_cut),
	D(rx_shared_chunks),
	D(mosi_flips),
	D(miso_flips),
	D(miso_sv_hidden),
	D(miso_ftr_undetected),
	D(mosi_hdr_undetected),
	D(resets),
	D(irq_asserts),
	D(irq_edges),
	D(irq_edges_lost),
	D(faults),
	D(bus_ns),
	D(held_ns),
};
#undef D
const size_t lan865x_emu_stats_desc_count = ETHDRV_ARRAY_SIZE(lan865x_emu_stats_desc);

/* ---- the SPI slave ---- */

int lan865x_emu_transfer(struct lan865x_emu *emu, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct emu_medium *medium;
	const uint8_t *in;
	uint64_t t0, bus_end;
	unsigned port;

	if (!len)
		return 0;
	if (!tx || !rx)
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	lan865x_emu__irq_timer_service(emu);
	/* 1. The bus clock (docs/design.md §4): never behind real time. Until the
	 * transfer's end on the bus, IRQ_N keeps the level it has (step 6). */
	t0 = lan865x_emu__bus_begin(emu, len);
	bus_end = emu->bus_clock;
	emu->xfers_pending++;
	/* 2. Bit errors on MOSI, then the slave proper, then bit errors on MISO. */
	in = lan865x_emu__mosi_errors(emu, tx, len);
	memset(rx, 0, len);
	if (len >= 4 && !(lan865x_emu_get_be32(in) & HDR_DNC)) {
		lan865x_emu__ctrl_transfer(emu, in, rx, len);
		lan865x_emu__miso_errors(emu, rx, len, false);
	} else {
		lan865x_emu__data_transfer(emu, in, rx, len, t0);
		lan865x_emu__miso_errors(emu, rx, len, true);
	}
	/* 3. A frame became sendable: tell the medium, outside our lock (medium.h);
	 * it does not start the frame before its t_ready on the bus. */
	medium = lan865x_emu__medium_to_announce(emu, &port);
	pthread_mutex_unlock(&emu->lock);
	if (medium)
		emu_medium_announce_tx(medium, port);
	/* 4. Real time: hold the caller until the transfer's end on the bus (less
	 * cfg.slack_ns, 0 by default), so that no MISO byte reaches it before
	 * its physical time (docs/design.md §4.2). */
	lan865x_emu__hold_caller(emu, bus_end);
	/* 5. IRQ_N at the transfer's end: the release by its data headers and
	 * whatever the last footer did not report (docs/tc6.md §2.5). */
	pthread_mutex_lock(&emu->lock);
	emu->xfers_pending--;
	lan865x_emu__irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

static int lan865x_emu_bus_transfer(void *ctx, const uint8_t *tx, uint8_t *rx, size_t len)
{
	return lan865x_emu_transfer(ctx, tx, rx, len);
}

static const struct ethdrv_spi_ops lan865x_emu_spi_ops = {
	.transfer = lan865x_emu_bus_transfer,
	.close = NULL,
};

void lan865x_emu_get_bus(struct lan865x_emu *emu, struct ethdrv_spi_bus *bus)
{
	memset(bus, 0, sizeof(*bus));
	bus->ops = &lan865x_emu_spi_ops;
	bus->ctx = emu;
	bus->irq_fd = emu->irq_fd;
	bus->irq_edge_fd = emu->edge_rd;
	bus->hz = emu->cfg.spi_hz;
	snprintf(bus->desc, sizeof(bus->desc), "emu:lan%04x", (unsigned)emu->cfg.model);
}

/* ---- life cycle ---- */

void lan865x_emu_config_default(struct lan865x_emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->spi_hz = 25000000;
	cfg->setup_ns = 1000;
	cfg->slack_ns = 0;
	cfg->rx_buf_chunks = 64;
	cfg->seed = 1;
	cfg->realtime = true;
	cfg->model = 0x8650;
	cfg->rev = 2;
	cfg->trim_offset1 = -3;
	cfg->trim_offset2 = 2;
}

static int lan865x_emu_config_check(const struct lan865x_emu_config *c)
{
	if (!c->spi_hz || !c->rx_buf_chunks || c->rx_buf_chunks > 65536 ||
	    !lan865x_emu__ber_is_valid(c->mosi_ber) || !lan865x_emu__ber_is_valid(c->miso_ber) ||
	    c->trim_offset1 < -16 || c->trim_offset1 > 15 || c->trim_offset2 < -16 ||
	    c->trim_offset2 > 15)
		return -EINVAL;
	return 0;
}

static int lan865x_emu_alloc_buffers(struct lan865x_emu *emu)
{
	/* Frames are >= 60 bytes, so a buffer of N 64-byte blocks holds at most N
	 * frames (or 2N 32-byte chunks, i.e. N frames of >= 2 chunks). */
	emu->rxq_slots = emu->cfg.rx_buf_chunks;
	emu->rxq = calloc(emu->rxq_slots, sizeof(*emu->rxq));
	emu->rx_slab = calloc(emu->rxq_slots, EMU_FRAME_MAX);
	emu->txq = calloc(TX_SLOTS, sizeof(*emu->txq));
	if (!emu->rxq || !emu->rx_slab || !emu->txq)
		return -ENOMEM;
	for (unsigned i = 0; i < emu->rxq_slots; i++)
		emu->rxq[i].data = emu->rx_slab + (size_t)i * EMU_FRAME_MAX;
	return 0;
}

static void lan865x_emu_free_buffers(struct lan865x_emu *emu)
{
	free(emu->mosi_copy);
	free(emu->rxq);
	free(emu->rx_slab);
	free(emu->txq);
}

int lan865x_emu_new(const struct lan865x_emu_config *cfg, struct lan865x_emu **out)
{
	struct lan865x_emu *emu;
	int err;

	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	if (cfg)
		emu->cfg = *cfg;
	else
		lan865x_emu_config_default(&emu->cfg);
	err = lan865x_emu_config_check(&emu->cfg);
	if (err)
		goto err_free;
	err = lan865x_emu_alloc_buffers(emu);
	if (err)
		goto err_free;
	err = lan865x_emu__irq_open(emu);
	if (err)
		goto err_free;
	err = lan865x_emu__edges_open(emu);
	if (err) {
		lan865x_emu__irq_close(emu);
		goto err_free;
	}
	pthread_mutex_init(&emu->lock, NULL);
	/* Losses in real time are checked against the VM's steal (emu_loss.h). */
	emu->steal_ref = emu->cfg.realtime && !emu_steal_ref();
	lan865x_emu__ber_start(emu);
	lan865x_emu__clock_start(emu);
	lan865x_emu__reset(emu); /* power-on reset */
	lan865x_emu__irq_sync(emu);
	*out = emu;
	return 0;

err_free:
	lan865x_emu_free_buffers(emu);
	free(emu);
	return err;
}

void lan865x_emu_free(struct lan865x_emu *emu)
{
	if (!emu)
		return;
	lan865x_emu_detach(emu);
	if (emu->steal_ref)
		emu_steal_unref();
	lan865x_emu__irq_close(emu);
	lan865x_emu__edges_close(emu);
	pthread_mutex_destroy(&emu->lock);
	lan865x_emu_free_buffers(emu);
	free(emu);
}

/* ---- state for tests and tools ---- */

void lan865x_emu_get_stats(struct lan865x_emu *emu, struct lan865x_emu_stats *st)
{
	const ethdrv_counter_t *src = (const ethdrv_counter_t *)&emu->stats;
	ethdrv_counter_t *dst = (ethdrv_counter_t *)st;

	for (size_t i = 0; i < sizeof(*st) / sizeof(ethdrv_counter_t); i++)
		ethdrv_counter_set(&dst[i], ethdrv_counter_get(&src[i]));
}

bool lan865x_emu_irq_asserted(struct lan865x_emu *emu)
{
	bool asserted;

	pthread_mutex_lock(&emu->lock);
	lan865x_emu__irq_timer_service(emu);
	asserted = emu->irq_asserted;
	pthread_mutex_unlock(&emu->lock);
	return asserted;
}
