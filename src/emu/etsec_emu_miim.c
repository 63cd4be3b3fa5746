// SPDX-License-Identifier: MIT
/*
 * eTSEC model: the MII management block (docs/etsec.md §5), timed on its
 * MDC. A read starts on the 0 -> 1 edge of MIIMCOM[READ], a write on the
 * MIIMCON write; BUSY reads 1 from the command to the end of the frame,
 * a read keeps NOT_VALID until MIIMSTAT holds the data. The frame reaches
 * the board's MDIO bus model (and the AR8031 behind it) at its end.
 * Assumptions (docs/etsec.md §11): MDC = the configured mdio_src_hz / divisor
 * (MIIMCFG[2:0] 0 taken as 1, i.e. /4); a command while BUSY is ignored and
 * counted in bad_accesses; RESET_MGMT aborts the frame without an event.
 */
#include "etsec_emu_priv.h"
#include "mdio_emu.h"

#define NSEC_PER_SEC 1000000000ull

static const unsigned miim_div[8] = { 4, 4, 6, 8, 10, 14, 20, 28 };

uint64_t etsec__miim_frame_ns(const struct etsec_emu *emu)
{
	uint32_t cfg = etsec__reg(emu, R_MIIMCFG);
	uint64_t cycles = cfg & MIIMCFG_NOPRE ? 32 : 64;
	uint64_t div = miim_div[ETHDRV_FIELD_GET(MIIMCFG_CLK, cfg)];

	return cycles * div * NSEC_PER_SEC / (&emu->cfg)->mdio_src_hz;
}

static void miim_start(struct etsec_emu *emu, bool read, uint16_t data)
{
	uint32_t add = etsec__reg(emu, R_MIIMADD);
	struct etsec_miim *m = &emu->miim;

	if (m->busy) {
		ethdrv_counter_inc(&emu->st.bad_accesses);
		return;
	}
	m->frame =
		mdio_emu_frame(MDIO_EMU_ST_C22, read ? MDIO_EMU_OP_C22_READ : MDIO_EMU_OP_C22_WRITE,
			       (add >> 8) & 0x1F, add & 0x1F, read ? 0 : data);
	m->preamble = !(etsec__reg(emu, R_MIIMCFG) & MIIMCFG_NOPRE);
	m->busy = true;
	m->read = read;
	if (read)
		m->notvalid = true;
	m->end = emu->now + etsec__miim_frame_ns(emu);
}

void etsec__miim_done(struct etsec_emu *emu)
{
	struct etsec_miim *m = &emu->miim;
	uint16_t v = mdio_emu_transfer(emu->mdio_bus, m->frame, m->preamble, m->end);

	m->busy = false;
	m->end = EMU_NEVER;
	ethdrv_counter_inc(&emu->st.miim_frames);
	if (m->read) {
		m->stat = v;
		m->notvalid = false;
		etsec__event(emu, EV_MMRD);
	} else {
		etsec__event(emu, EV_MMWR);
	}
}

uint32_t etsec__miim_read(struct etsec_emu *emu, uint32_t off)
{
	const struct etsec_miim *m = &emu->miim;

	switch (off) {
	case R_MIIMSTAT:
		return m->stat;
	case R_MIIMIND:
		return (m->busy ? MIIMIND_BUSY : 0) | (m->notvalid ? MIIMIND_NOTVALID : 0);
	default:
		return etsec__reg(emu, off);
	}
}

void etsec__miim_write(struct etsec_emu *emu, uint32_t off, uint32_t val, uint32_t old)
{
	struct etsec_miim *m = &emu->miim;

	switch (off) {
	case R_MIIMCFG:
		emu->regs[off / 4] = val & (MIIMCFG_RESET | MIIMCFG_NOPRE | MIIMCFG_CLK);
		if (val & MIIMCFG_RESET) {
			m->busy = false;
			m->notvalid = false;
			m->end = EMU_NEVER;
		}
		break;
	case R_MIIMCOM:
		emu->regs[off / 4] = val & 3u;
		if ((val & MIIMCOM_READ) && !(old & MIIMCOM_READ))
			miim_start(emu, true, 0);
		break;
	case R_MIIMADD:
		emu->regs[off / 4] = val & 0x1F1Fu;
		break;
	default: /* MIIMCON */
		emu->regs[off / 4] = val & 0xFFFFu;
		miim_start(emu, false, (uint16_t)val);
		break;
	}
}
