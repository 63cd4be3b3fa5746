// SPDX-License-Identifier: MIT
/*
 * ENET model: fault knobs, each injected at one named point and counted
 * when it takes effect: RX descriptor exhaustion and DMA bus errors on a
 * controller (checked by enet_emu_dma.c), bit errors at a set rate and
 * link flaps on the line (applied by enet_emu_line.c). Section numbers are
 * docs/enet.md.
 */
#include <errno.h>
#include <math.h>

#include "enet_emu_priv.h"

#define RX_EXHAUST_MAX 1000000u
#define BER_MAX 0.01
#define FLAP_MAX_NS (60ull * 1000000000ull)

static const char *const enet_fault_names[ENET_EMU_FAULT_COUNT] = {
	[ENET_EMU_FAULT_RX_EXHAUST] = "rx_exhaust",
	[ENET_EMU_FAULT_RX_BUS_ERROR] = "rx_bus_error",
	[ENET_EMU_FAULT_TX_BUS_ERROR] = "tx_bus_error",
};

const char *enet_emu_fault_name(enum enet_emu_fault fault)
{
	return (unsigned)fault < ENET_EMU_FAULT_COUNT ? enet_fault_names[fault] : NULL;
}

int enet_emu_inject(struct enet_emu *emu, enum enet_emu_fault fault, uint64_t arg)
{
	int ret = 0;

	pthread_mutex_lock(&emu->line->lock);
	switch (fault) {
	case ENET_EMU_FAULT_RX_EXHAUST:
		if (arg < 1 || arg > RX_EXHAUST_MAX)
			ret = -EINVAL;
		else
			emu->rx_exhaust += arg;
		break;
	case ENET_EMU_FAULT_RX_BUS_ERROR:
		emu->rx_bus_error = true;
		break;
	case ENET_EMU_FAULT_TX_BUS_ERROR:
		emu->tx_bus_error = true;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	pthread_mutex_unlock(&emu->line->lock);
	return ret;
}

/* The injection point of RX exhaustion: true = act as if no BD were empty. */
bool enet__fault_rx_exhaust(struct enet_emu *emu)
{
	if (!emu->rx_exhaust)
		return false;
	emu->rx_exhaust--;
	ethdrv_counter_inc(&emu->st.faults);
	return true;
}

/* The injection point of bus errors: true = this DMA access fails. */
bool enet__fault_bus_error(struct enet_emu *emu, bool tx)
{
	bool *flag = tx ? &emu->tx_bus_error : &emu->rx_bus_error;

	if (!*flag)
		return false;
	*flag = false;
	ethdrv_counter_inc(&emu->st.faults);
	return true;
}

/* ---- bit errors on the line ---- */

static double line_uniform(struct enet_line *line)
{
	/* xorshift64*, mapped to (0, 1]. */
	line->rng ^= line->rng >> 12;
	line->rng ^= line->rng << 25;
	line->rng ^= line->rng >> 27;
	return ((line->rng * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-53 + 0x1.0p-53;
}

/* Bits until the next error: geometric with parameter @ber. */
static uint64_t line_error_gap(struct enet_line *line, double ber)
{
	double g = floor(log(line_uniform(line)) / log1p(-ber));

	return g >= 1e18 ? UINT64_MAX : (uint64_t)g;
}

/*
 * Flip bits of a frame sent by @port at the set rate, one random draw per
 * error rather than per bit. The FCS's own bits count; any flip makes the
 * receiver see a bad FCS (the FCS of an appended frame is marked bad, a raw
 * one fails its check by itself).
 */
void enet__fault_corrupt(struct enet_line *line, unsigned port, struct enet_txf *f)
{
	uint64_t bits = (uint64_t)(f->len + (f->fcs == FCS_RAW ? 0 : 4)) * 8, pos = 0;
	double ber = line->ber[port];
	bool hit = false;

	if (ber <= 0)
		return;
	for (;;) {
		uint64_t gap = line->ber_gap[port];

		if (gap >= bits - pos) {
			line->ber_gap[port] -= bits - pos;
			return;
		}
		pos += gap;
		if (pos < (uint64_t)f->len * 8)
			f->data[pos / 8] ^= (uint8_t)(1u << (pos % 8));
		if (f->fcs == FCS_APPEND)
			f->fcs = FCS_BAD;
		ethdrv_counter_inc(&line->st.bit_errors);
		if (!hit)
			ethdrv_counter_inc(&line->st.corrupted);
		hit = true;
		pos++;
		line->ber_gap[port] = line_error_gap(line, ber);
	}
}

int enet_line_set_ber(struct enet_line *line, unsigned port, double ber)
{
	if (port > 1 || !(ber >= 0 && ber <= BER_MAX))
		return -EINVAL;
	pthread_mutex_lock(&line->lock);
	line->ber[port] = ber;
	line->ber_gap[port] = ber > 0 ? line_error_gap(line, ber) : 0;
	pthread_mutex_unlock(&line->lock);
	return 0;
}

/* ---- link ---- */

void enet_line_set_link(struct enet_line *line, bool up)
{
	pthread_mutex_lock(&line->lock);
	if (!up && !line->forced_down)
		ethdrv_counter_inc(&line->st.flaps);
	line->forced_down = !up;
	pthread_mutex_unlock(&line->lock);
}

int enet_line_flap(struct enet_line *line, uint64_t down_ns)
{
	if (!down_ns || down_ns > FLAP_MAX_NS)
		return -EINVAL;
	pthread_mutex_lock(&line->lock);
	line->up_at = enet__now(line) + down_ns;
	ethdrv_counter_inc(&line->st.flaps);
	enet__line_kick(line);
	pthread_mutex_unlock(&line->lock);
	return 0;
}
