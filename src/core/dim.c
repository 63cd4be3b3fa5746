// SPDX-License-Identifier: MIT
/*
 * Dynamic interrupt moderation (dim.h): measurement, comparison and the
 * tuning state machine of Linux's net DIM (docs/napi.md §5.2). Written from the description of the algorithm; the
 * profile values are the kernel's published tables.
 */
#include <errno.h>
#include "ethdrv/dim.h"

#define USEC_PER_MSEC 1000ull
#define DIM_TIRED_STEPS (ETHDRV_DIM_PROFILES * 2) /* steps before resting */
#define DIM_SIGNIFICANT_PCT 10 /* a difference must exceed this to count */

const struct ethdrv_dim_profile ethdrv_dim_rx_eqe[ETHDRV_DIM_PROFILES] = {
	{ 1, 256 }, { 8, 256 }, { 64, 256 }, { 128, 256 }, { 256, 256 },
};
const struct ethdrv_dim_profile ethdrv_dim_rx_cqe[ETHDRV_DIM_PROFILES] = {
	{ 2, 256 }, { 8, 128 }, { 16, 64 }, { 32, 64 }, { 64, 64 },
};
const struct ethdrv_dim_profile ethdrv_dim_tx_eqe[ETHDRV_DIM_PROFILES] = {
	{ 1, 128 }, { 8, 128 }, { 32, 128 }, { 64, 128 }, { 128, 128 },
};
const struct ethdrv_dim_profile ethdrv_dim_tx_cqe[ETHDRV_DIM_PROFILES] = {
	{ 5, 128 }, { 8, 64 }, { 16, 32 }, { 32, 32 }, { 64, 32 },
};

enum dim_step {
	DIM_STEPPED,
	DIM_TOO_TIRED,
	DIM_ON_EDGE,
};

int ethdrv_dim_init(struct ethdrv_dim *dim, const struct ethdrv_dim_profile *table,
		    unsigned profile_ix)
{
	if (!dim || !table || profile_ix >= ETHDRV_DIM_PROFILES)
		return -EINVAL;
	*dim = (struct ethdrv_dim){ .table = table, .profile_ix = profile_ix };
	/* Zeroed previous rates: the first measurement with traffic counts as
	 * a change, so the machine leaves its initial parking at once. */
	dim->tune = ETHDRV_DIM_PARKING_ON_TOP;
	return 0;
}

static uint32_t dim_per_ms(uint64_t count, uint64_t delta_us)
{
	return (uint32_t)((count * USEC_PER_MSEC + delta_us - 1) / delta_us);
}

/* Rates between two samples; false when no time passed. */
static bool dim_calc(const struct ethdrv_dim_sample *a, const struct ethdrv_dim_sample *b,
		     struct ethdrv_dim_stats *st)
{
	uint64_t delta_us = (b->time_ns - a->time_ns) / 1000;

	if (!delta_us)
		return false;
	st->ppms = dim_per_ms((uint32_t)(b->pkts - a->pkts), delta_us);
	st->bpms = dim_per_ms((uint32_t)(b->bytes - a->bytes), delta_us);
	st->epms = dim_per_ms(ETHDRV_DIM_NEVENTS, delta_us);
	return true;
}

static bool dim_significant(uint32_t val, uint32_t ref)
{
	uint64_t diff = val > ref ? val - ref : ref - val;

	return ref && diff * 100 / ref > DIM_SIGNIFICANT_PCT;
}

int ethdrv_dim_compare(const struct ethdrv_dim_stats *curr, const struct ethdrv_dim_stats *prev)
{
	if (!prev->bpms)
		return curr->bpms ? 1 : 0;
	if (dim_significant(curr->bpms, prev->bpms))
		return curr->bpms > prev->bpms ? 1 : -1;
	if (!prev->ppms)
		return curr->ppms ? 1 : 0;
	if (dim_significant(curr->ppms, prev->ppms))
		return curr->ppms > prev->ppms ? 1 : -1;
	if (!prev->epms)
		return 0;
	if (dim_significant(curr->epms, prev->epms))
		return curr->epms < prev->epms ? 1 : -1; /* fewer interrupts is better */
	return 0;
}

static enum dim_step dim_step(struct ethdrv_dim *dim)
{
	if (dim->tired == DIM_TIRED_STEPS)
		return DIM_TOO_TIRED;
	if (dim->tune == ETHDRV_DIM_GOING_RIGHT) {
		if (dim->profile_ix == ETHDRV_DIM_PROFILES - 1)
			return DIM_ON_EDGE;
		dim->profile_ix++;
		dim->steps_right++;
	} else if (dim->tune == ETHDRV_DIM_GOING_LEFT) {
		if (dim->profile_ix == 0)
			return DIM_ON_EDGE;
		dim->profile_ix--;
		dim->steps_left++;
	}
	dim->tired++;
	return DIM_STEPPED;
}

static void dim_park_on_top(struct ethdrv_dim *dim)
{
	dim->steps_right = dim->steps_left = 0;
	dim->tired = 0;
	dim->tune = ETHDRV_DIM_PARKING_ON_TOP;
}

static void dim_park_tired(struct ethdrv_dim *dim)
{
	dim->steps_right = dim->steps_left = 0;
	dim->tune = ETHDRV_DIM_PARKING_TIRED;
}

static void dim_exit_parking(struct ethdrv_dim *dim)
{
	dim->tune = dim->profile_ix ? ETHDRV_DIM_GOING_LEFT : ETHDRV_DIM_GOING_RIGHT;
	dim_step(dim);
}

static void dim_turn(struct ethdrv_dim *dim)
{
	if (dim->tune == ETHDRV_DIM_GOING_RIGHT) {
		dim->tune = ETHDRV_DIM_GOING_LEFT;
		dim->steps_left = 0;
	} else if (dim->tune == ETHDRV_DIM_GOING_LEFT) {
		dim->tune = ETHDRV_DIM_GOING_RIGHT;
		dim->steps_right = 0;
	}
}

/* True when the last turn came back to the step just left: the best one. */
static bool dim_on_top(const struct ethdrv_dim *dim)
{
	switch (dim->tune) {
	case ETHDRV_DIM_GOING_RIGHT:
		return dim->steps_left > 1 && dim->steps_right == 1;
	case ETHDRV_DIM_GOING_LEFT:
		return dim->steps_right > 1 && dim->steps_left == 1;
	default:
		return true;
	}
}

/* One step of the tuning machine; true if the profile changed. */
static bool dim_decide(struct ethdrv_dim *dim, const struct ethdrv_dim_stats *curr)
{
	enum ethdrv_dim_tune prev_tune = dim->tune;
	unsigned prev_ix = dim->profile_ix;

	switch (dim->tune) {
	case ETHDRV_DIM_PARKING_ON_TOP:
		if (ethdrv_dim_compare(curr, &dim->prev) != 0)
			dim_exit_parking(dim);
		break;
	case ETHDRV_DIM_PARKING_TIRED:
		if (!--dim->tired)
			dim_exit_parking(dim);
		break;
	default:
		if (ethdrv_dim_compare(curr, &dim->prev) <= 0)
			dim_turn(dim);
		if (dim_on_top(dim)) {
			dim_park_on_top(dim);
			break;
		}
		switch (dim_step(dim)) {
		case DIM_ON_EDGE:
			dim_park_on_top(dim);
			break;
		case DIM_TOO_TIRED:
			dim_park_tired(dim);
			break;
		default:
			break;
		}
		break;
	}
	/* While parked on top, keep the rates it parked with as the reference. */
	if (prev_tune != ETHDRV_DIM_PARKING_ON_TOP || dim->tune != ETHDRV_DIM_PARKING_ON_TOP)
		dim->prev = *curr;
	dim->decisions++;
	return dim->profile_ix != prev_ix;
}

bool ethdrv_dim_update(struct ethdrv_dim *dim, const struct ethdrv_dim_sample *s)
{
	struct ethdrv_dim_stats curr;
	bool changed = false;

	if (dim->measuring) {
		if ((uint32_t)(s->events - dim->start.events) < ETHDRV_DIM_NEVENTS)
			return false;
		if (dim_calc(&dim->start, s, &curr))
			changed = dim_decide(dim, &curr);
	}
	/* Start the next measurement at this sample. */
	dim->start = *s;
	dim->measuring = true;
	if (changed)
		dim->changes++;
	return changed;
}
