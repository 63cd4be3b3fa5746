// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: faults. It owns lan865x_emu_inject(), the one point where a
 * fault enters the model (docs/design.md §5), the faults it arms for a later
 * event (a header parity error, an RX overflow), and the bit errors of the SPI
 * "wire": MOSI and MISO bits flipped at a configured rate from a seeded PRNG,
 * with counters for the errors parity cannot see.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/compiler.h"
#include "ethdrv/log.h"
#include "lan865x_emu_priv.h"

ETHDRV_LOG_MODULE(lan865x_emu);

/* ---- injected faults ---- */

const char *lan865x_emu_fault_name(enum lan865x_emu_fault fault)
{
	static const char *const names[LAN865X_EMU_FAULT_COUNT] = {
		[LAN865X_EMU_FAULT_RX_OVERFLOW] = "rx_overflow",
		[LAN865X_EMU_FAULT_LOSS_OF_FRAME] = "loss_of_frame",
		[LAN865X_EMU_FAULT_RESET] = "reset",
		[LAN865X_EMU_FAULT_TX_PROTOCOL] = "txpe",
		[LAN865X_EMU_FAULT_HDR_PARITY] = "hdr_parity",
		[LAN865X_EMU_FAULT_INTERNAL] = "internal",
		[LAN865X_EMU_FAULT_CONFIG_UPSET] = "config_upset",
	};

	return (unsigned)fault < LAN865X_EMU_FAULT_COUNT ? names[fault] : NULL;
}

/* Apply @fault now, or arm it for the event it acts on. */
static void fault_apply(struct lan865x_emu *emu, enum lan865x_emu_fault fault)
{
	switch (fault) {
	case LAN865X_EMU_FAULT_RX_OVERFLOW:
		if (emu->rxq_count)
			lan865x_emu__rx_drop_head(emu);
		else
			emu->armed.rx_overflow = true;
		break;
	case LAN865X_EMU_FAULT_LOSS_OF_FRAME:
		lan865x_emu__loss_of_framing(emu);
		break;
	case LAN865X_EMU_FAULT_RESET:
		lan865x_emu__reset(emu);
		break;
	case LAN865X_EMU_FAULT_TX_PROTOCOL:
		lan865x_emu__tx_protocol_error(emu);
		break;
	case LAN865X_EMU_FAULT_HDR_PARITY:
		emu->armed.hdr_parity = true;
		break;
	case LAN865X_EMU_FAULT_CONFIG_UPSET:
		emu->mac[MAC_NCR] = 0;
		break;
	default:
		emu->status1 |= ST1_FSMSTER;
		emu->internal_fault = true;
		break;
	}
}

/* RESET_N: the same reset as SWRESET, from the pin (docs/tc6.md §5.5). */
void lan865x_emu_hw_reset(struct lan865x_emu *emu)
{
	pthread_mutex_lock(&emu->lock);
	lan865x_emu__reset(emu);
	lan865x_emu__irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
}

int lan865x_emu_inject(struct lan865x_emu *emu, enum lan865x_emu_fault fault)
{
	if ((unsigned)fault >= LAN865X_EMU_FAULT_COUNT)
		return -EINVAL;
	ethdrv_dbg(NULL, "emu%u: injecting %s", emu->cfg.node_id, lan865x_emu_fault_name(fault));
	pthread_mutex_lock(&emu->lock);
	ethdrv_counter_inc(&emu->stats.faults);
	fault_apply(emu, fault);
	lan865x_emu__irq_update(emu);
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

/* A header as the device receives it: an armed parity fault flips its bit 0. */
uint32_t lan865x_emu__header_as_received(struct lan865x_emu *emu, uint32_t hdr)
{
	if (!emu->armed.hdr_parity)
		return hdr;
	emu->armed.hdr_parity = false;
	return hdr ^ 1u;
}

/* Whether an armed RX overflow takes the frame arriving now (disarms it). */
bool lan865x_emu__take_rx_overflow(struct lan865x_emu *emu)
{
	bool armed = emu->armed.rx_overflow;

	emu->armed.rx_overflow = false;
	return armed;
}

/* ---- bit errors ---- */

static uint64_t rng_next(struct lan865x_emu *emu)
{
	/* xorshift64* */
	uint64_t x = emu->ber_rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	emu->ber_rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Error-free bits before the next flip: geometric with parameter @ber. */
static uint64_t bits_to_next_flip(struct lan865x_emu *emu, double ber)
{
	double u = (double)((rng_next(emu) >> 11) + 1) * 0x1.0p-53; /* (0, 1] */
	double g = floor(log(u) / log1p(-ber));

	return g >= 0x1.0p62 ? UINT64_C(1) << 62 : (uint64_t)g;
}

static void ber_rearm(struct lan865x_emu *emu)
{
	double mosi = emu->cfg.mosi_ber, miso = emu->cfg.miso_ber;

	emu->mosi_bits_to_flip = mosi > 0 ? bits_to_next_flip(emu, mosi) : 0;
	emu->miso_bits_to_flip = miso > 0 ? bits_to_next_flip(emu, miso) : 0;
}

/* Seed the PRNG from cfg.seed and draw the first gaps (at creation, unlocked). */
void lan865x_emu__ber_start(struct lan865x_emu *emu)
{
	emu->ber_rng = emu->cfg.seed ? emu->cfg.seed : 0x9E3779B97F4A7C15ULL;
	ber_rearm(emu);
}

bool lan865x_emu__ber_is_valid(double ber)
{
	return ber >= 0 && ber <= 0.5;
}

/* Flip bits of @buf at rate @ber; *@skip carries the gap across calls. */
static void flip_bits(struct lan865x_emu *emu, uint8_t *buf, size_t len, double ber, uint64_t *skip,
		      ethdrv_counter_t *flips)
{
	uint64_t nbits = (uint64_t)len * 8u, pos = 0;

	if (ber <= 0)
		return;
	while (*skip < nbits - pos) {
		pos += *skip;
		buf[pos / 8] ^= (uint8_t)(0x80u >> (pos % 8));
		ethdrv_counter_inc(flips);
		pos++;
		*skip = bits_to_next_flip(emu, ber);
	}
	*skip -= nbits - pos;
}

/* Flip MISO bits chunk by chunk (same PRNG sequence as in one go) and count
 * the footers that lost a frame start or changed undetectably. */
void lan865x_emu__miso_errors(struct lan865x_emu *emu, uint8_t *rx, size_t len, bool data)
{
	size_t clen = lan865x_emu_payload_size(emu) + 4u, k;
	double ber = emu->cfg.miso_ber;
	uint32_t clean, seen;

	if (ber <= 0)
		return;
	for (k = 0; data && k + clen <= len; k += clen) {
		clean = lan865x_emu_get_be32(rx + k + clen - 4);
		flip_bits(emu, rx + k, clen, ber, &emu->miso_bits_to_flip, &emu->stats.miso_flips);
		seen = lan865x_emu_get_be32(rx + k + clen - 4);
		if (seen != clean && lan865x_emu_parity_ok(seen))
			ethdrv_counter_inc(&emu->stats.miso_ftr_undetected);
		else if (seen != clean && (clean & DF_DV) && (clean & DF_SV))
			ethdrv_counter_inc(&emu->stats.miso_sv_hidden);
	}
	if (k < len)
		flip_bits(emu, rx + k, len - k, ber, &emu->miso_bits_to_flip,
			  &emu->stats.miso_flips);
}

/* Count data headers that bit errors changed without breaking their parity. */
static void mosi_count_undetected(struct lan865x_emu *emu, const uint8_t *clean,
				  const uint8_t *seen, size_t len)
{
	size_t clen = lan865x_emu_payload_size(emu) + 4u;

	if (len < 4 || !(lan865x_emu_get_be32(clean) & HDR_DNC))
		return;
	for (size_t k = 0; k + clen <= len; k += clen) {
		uint32_t was = lan865x_emu_get_be32(clean + k),
			 now = lan865x_emu_get_be32(seen + k);

		if (was != now && lan865x_emu_parity_ok(now))
			ethdrv_counter_inc(&emu->stats.mosi_hdr_undetected);
	}
}

/* MOSI as the device sees it: @tx itself, or a copy with bits flipped. */
const uint8_t *lan865x_emu__mosi_errors(struct lan865x_emu *emu, const uint8_t *tx, size_t len)
{
	if (emu->cfg.mosi_ber <= 0)
		return tx;
	if (emu->mosi_copy_len < len) {
		uint8_t *p = realloc(emu->mosi_copy, len);

		if (!p)
			return tx; /* no memory: this transfer goes through unflipped */
		emu->mosi_copy = p;
		emu->mosi_copy_len = len;
	}
	memcpy(emu->mosi_copy, tx, len);
	flip_bits(emu, emu->mosi_copy, len, emu->cfg.mosi_ber, &emu->mosi_bits_to_flip,
		  &emu->stats.mosi_flips);
	mosi_count_undetected(emu, tx, emu->mosi_copy, len);
	return emu->mosi_copy;
}

int lan865x_emu_set_ber(struct lan865x_emu *emu, double mosi_ber, double miso_ber)
{
	if (!lan865x_emu__ber_is_valid(mosi_ber) || !lan865x_emu__ber_is_valid(miso_ber))
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	emu->cfg.mosi_ber = mosi_ber;
	emu->cfg.miso_ber = miso_ber;
	ber_rearm(emu);
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

void lan865x_emu_get_ber(struct lan865x_emu *emu, double *mosi_ber, double *miso_ber)
{
	pthread_mutex_lock(&emu->lock);
	*mosi_ber = emu->cfg.mosi_ber;
	*miso_ber = emu->cfg.miso_ber;
	pthread_mutex_unlock(&emu->lock);
}
