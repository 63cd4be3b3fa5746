// SPDX-License-Identifier: MIT
/*
 * LAN8650/1 model: the registers and the control path. It owns the register
 * table (every implemented register with its reset value, write mask and the
 * fact it follows), the read and write dispatch through that table, the device
 * reset, and control transactions (docs/tc6.md §1.2-§1.6) with their header
 * echo, protected mode and error rules. The assumptions behind the values are
 * listed in lan865x_emu.h.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ethdrv/compiler.h"
#include "ethdrv/log.h"
#include "lan865x_emu_priv.h"

ETHDRV_LOG_MODULE(lan865x_emu);

/* Reset values and constants chosen in lan865x_emu.h. */
#define IDVER_VAL 0x11u
/* OA PHYID without its REVISION nibble: OUI 0x1F0, MODEL 0x1B (docs/tc6.md §5.1.1). */
#define PHYID_OUI_MODEL 0x0007C1B0u
#define STDCAP_VAL 0x05A5u
#define CONFIG0_RESET 0x0006u
#define IMASK0_RESET 0x1FBFu
#define IMASK1_RESET 0x3FFE0003u
#define NCFGR_RESET 0x00080000u
#define BMSR_CAPS 0x0801u /* 10 Mb/s half duplex, extended registers (lan865x_emu.h) */
#define BMSR_LSTATUS 0x0004u
#define BMCR_PDOWN 0x0800u
#define PHYID1_VAL 0x0007u
#define PHYID2_VAL 0xC1B3u
#define BMCR_RESET ETHDRV_BIT(15) /* self-clearing PHY reset */
#define RESET_SWRESET ETHDRV_BIT(0)

/* MMS4 vendor registers and PLCA (docs/tc6.md §3.6, §5.3). */
#define V2_COL_DET_CTRL0 0x87
#define COL_DET_CTRL0_RESET 0x8083u
#define V2_IND_ADDR 0xD8
#define V2_IND_DATA 0xD9
#define V2_IND_CTRL 0xDA
#define IND_CTRL_READ 0x0002u
#define PLCA_IDVER_VAL 0x0A10u
#define PLCA_CTRL0_RST ETHDRV_BIT(14)
#define PLCA_STATUS_PST ETHDRV_BIT(15)

/* MMS10 (docs/tc6.md §3.1, §5.1). */
#define MISC_QTXCFG 0x81
#define MISC_QRXCFG 0x82
#define MISC_PADCTRL 0x88
#define MISC_CLKOCTL 0x89
#define MISC_MISC 0x8C
#define MISC_DEVID 0x94

/*
 * One register, or a run of consecutive registers that behave alike. A
 * read returns read() if set, else the stored value, else @reset (a
 * constant). A write calls write() if set, else stores the @wmask bits and
 * clears the @w1c bits written as 1; a register with neither is read-only.
 */
struct lan865x_emu_reg {
	uint8_t mms; /* memory map selector */
	uint16_t addr; /* first address */
	uint16_t count; /* registers in the run */
	uint32_t reset; /* value after a reset, or the value of a constant */
	uint32_t wmask; /* bits a plain write stores */
	uint32_t w1c; /* bits a write of 1 clears */
	size_t state; /* offset of the first value in struct lan865x_emu; 0 = none */
	uint32_t (*read)(struct lan865x_emu *emu, uint16_t addr);
	void (*write)(struct lan865x_emu *emu, uint16_t addr, uint32_t val);
};

#define STATE(field) .state = offsetof(struct lan865x_emu, field)
/* Read-only, with a fixed value. */
#define REG_CONST(m, a, n, val)                                       \
	{                                                             \
		.mms = (m), .addr = (a), .count = (n), .reset = (val) \
	}
/* Stored in @field, @rst after a reset; a write stores the @wm bits. */
#define REG_RW(m, a, n, field, rst, wm)                                                            \
	{                                                                                          \
		.mms = (m), .addr = (a), .count = (n), STATE(field), .reset = (rst), .wmask = (wm) \
	}
/* Stored in @field, @rst after a reset; a write of 1 clears the @clear bits. */
#define REG_W1C(m, a, field, rst, clear)                                                          \
	{                                                                                         \
		.mms = (m), .addr = (a), .count = 1, STATE(field), .reset = (rst), .w1c = (clear) \
	}
/* Stored in @field, @rst after a reset; a write goes through @fn. */
#define REG_WRITE(m, a, n, field, rst, fn)                                                         \
	{                                                                                          \
		.mms = (m), .addr = (a), .count = (n), STATE(field), .reset = (rst), .write = (fn) \
	}
/* Read-only, the value computed by @fn. */
#define REG_READ(m, a, fn)                                        \
	{                                                         \
		.mms = (m), .addr = (a), .count = 1, .read = (fn) \
	}
/* Reads 0; a write is a command carried out by @fn. */
#define REG_ACTION(m, a, fn)                                       \
	{                                                          \
		.mms = (m), .addr = (a), .count = 1, .write = (fn) \
	}

static uint32_t bufsts_read(struct lan865x_emu *emu, uint16_t addr)
{
	unsigned txc = ETHDRV_MIN(lan865x_emu__tx_free(emu), 255u);
	unsigned rca = lan865x_emu__rx_chunks_pending(emu, lan865x_emu__bus_now(emu), 255);

	/* docs/tc6.md §2.3: the footer's counters, 8 bits wide, not saturated at 31. */
	return ETHDRV_FIELD_PREP(ETHDRV_GENMASK(15, 8), txc) | rca;
}

static void reset_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	if (!(val & RESET_SWRESET))
		return;
	ethdrv_dbg(NULL, "emu%u: software reset", emu->cfg.node_id);
	lan865x_emu__reset(emu); /* SWRESET, self-clearing (docs/tc6.md §3.2) */
}

static void config0_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	uint32_t cps = ETHDRV_FIELD_GET(CFG0_CPS, val);
	uint32_t nv = (val & ETHDRV_GENMASK(15, 4)) | (emu->config0 & CFG0_SYNC);

	/* docs/tc6.md §3.3: SYNC is set by the host and cleared only by a reset; LAN8650
	 * supports CPS 32/64 only (docs/tc6.md §2.1); bit 3 is reserved. */
	nv |= (cps == 5 || cps == 6) ? (val & CFG0_CPS) : (emu->config0 & CFG0_CPS);
	emu->config0 = nv;
}

/* The surrogate link status (lan865x_emu.h): powered and on the segment. */
static bool phy_link(const struct lan865x_emu *emu)
{
	return !emu->link_cut && !(emu->bmcr & BMCR_PDOWN);
}

/* A loss of link latches LSTATUS low (IEEE 802.3 22.2.4.2.13, docs/mdio.md §5);
 * either change raises the PHY interrupt summarised in STATUS0.PHYINT. */
void lan865x_emu__phy_link_changed(struct lan865x_emu *emu, bool was)
{
	if (was == phy_link(emu))
		return;
	if (was)
		emu->lstatus_low = true;
	emu->status0 |= ST0_PHYINT;
}

bool lan865x_emu__phy_link(const struct lan865x_emu *emu)
{
	return phy_link(emu);
}

static void bmcr_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	bool was = phy_link(emu);

	emu->bmcr = (val & BMCR_RESET) ? 0 : (val & 0xFFFFu);
	lan865x_emu__phy_link_changed(emu, was);
}

static uint32_t bmsr_read(struct lan865x_emu *emu, uint16_t addr)
{
	return BMSR_CAPS | (phy_link(emu) && !emu->lstatus_low ? BMSR_LSTATUS : 0);
}

/* A control read of BMSR acknowledges the latch and the PHY interrupt. */
static void bmsr_read_by_host(struct lan865x_emu *emu)
{
	emu->lstatus_low = false;
	emu->status0 &= ~ST0_PHYINT;
}

static void ncr_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	/* Frames queued while TXEN was 0 may go now. */
	if ((val & NCR_TXEN) && lan865x_emu__tx_waiting(emu))
		emu->tx_announce = true;
	emu->mac[MAC_NCR] = val;
}

static void sa_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	unsigned n = (addr - MAC_SAB1) / 2u;

	emu->mac[addr] = val;
	/* docs/tc6.md §5.2 (Cadence-GEM convention): SABn disables filter n, SATn enables it. */
	emu->sa_filter_enabled[n] = (addr - MAC_SAB1) & 1u;
}

/* AN1760 indirect trim values (docs/tc6.md §5.3), per lan865x_emu.h. */
static uint16_t indirect_value(const struct lan865x_emu *emu, uint32_t addr)
{
	switch (addr) {
	case 0x04:
		return (uint16_t)(emu->cfg.trim_offset1 & 0x1F);
	case 0x08:
		return (uint16_t)(emu->cfg.trim_offset2 & 0x1F);
	case 0x05:
		return 0x0040;
	default:
		return 0;
	}
}

static void indirect_ctrl_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	/* docs/tc6.md §5.3: 0xD8 = address, 0xDA = 0x0002 latches the value into 0xD9. */
	if (val & IND_CTRL_READ)
		emu->vend2[V2_IND_DATA] = indirect_value(emu, emu->vend2[V2_IND_ADDR]);
}

static void plca_reset(struct lan865x_emu *emu);

static void plca_ctrl0_write(struct lan865x_emu *emu, uint16_t addr, uint32_t val)
{
	if (val & PLCA_CTRL0_RST)
		plca_reset(emu); /* docs/tc6.md §3.6 CTRL0.RST, self-clearing */
	else
		emu->plca_ctrl0 = val & PLCA_CTRL0_EN;
}

static uint32_t plca_status_read(struct lan865x_emu *emu, uint16_t addr)
{
	return emu->plca_active ? PLCA_STATUS_PST : 0;
}

/*
 * OA PHYID: its REVISION nibble follows the silicon revision, 3 on B0 and 4
 * on B1 (docs/tc6.md §5.1.1); the clause-22 mirror at 0xFF03 keeps 3 on
 * both (the B1 limitation). Other DEVID revisions keep the same offset, an
 * assumption listed in lan865x_emu.h.
 */
static uint32_t phyid_read(struct lan865x_emu *emu, uint16_t addr)
{
	return PHYID_OUI_MODEL | ((emu->cfg.rev + 2u) & 0xFu);
}

static uint32_t devid_read(struct lan865x_emu *emu, uint16_t addr)
{
	/* docs/tc6.md §5.1 DEVID: MODEL 19:4, REV 3:0. */
	return (uint32_t)emu->cfg.model << 4 | emu->cfg.rev;
}

/* Every implemented register; any other address reads 0 and ignores writes. */
static const struct lan865x_emu_reg lan865x_emu_regs[] = {
	/* MMS0: OPEN Alliance standard registers (docs/tc6.md §3.2-§3.5). */
	REG_CONST(0, R_IDVER, 1, IDVER_VAL),
	REG_READ(0, R_PHYID, phyid_read),
	REG_CONST(0, R_STDCAP, 1, STDCAP_VAL),
	REG_ACTION(0, R_RESET, reset_write),
	REG_WRITE(0, R_CONFIG0, 1, config0, CONFIG0_RESET, config0_write),
	/* PHYINT follows the PHY, not the host (docs/tc6.md §3.4). */
	REG_W1C(0, R_STATUS0, status0, ST0_RESETC, ST0_ALL & ~ST0_PHYINT),
	REG_W1C(0, R_STATUS1, status1, 0, ~0u),
	REG_READ(0, R_BUFSTS, bufsts_read),
	/* RESETC cannot be masked (docs/tc6.md §3.4). */
	REG_RW(0, R_IMASK0, 1, imask0, IMASK0_RESET, ST0_ALL & ~ST0_RESETC),
	REG_RW(0, R_IMASK1, 1, imask1, IMASK1_RESET, ~0u),
	REG_CONST(0, R_TTSCAH, 6, 0), /* no timestamps are captured */
	/* Clause-22 PHY registers: LSTATUS is a surrogate (lan865x_emu.h, docs/tc6.md §5.7). */
	REG_WRITE(0, R_PHY_BASE + 0, 1, bmcr, 0, bmcr_write),
	REG_READ(0, R_PHY_BASE + 1, bmsr_read),
	REG_CONST(0, R_PHY_BASE + 2, 1, PHYID1_VAL),
	REG_CONST(0, R_PHY_BASE + 3, 1, PHYID2_VAL),

	/* MMS1: the MAC (docs/tc6.md §5.2). */
	REG_WRITE(1, MAC_NCR, 1, mac[MAC_NCR], 0, ncr_write),
	REG_RW(1, MAC_NCFGR, 1, mac[MAC_NCFGR], NCFGR_RESET, ~0u),
	REG_RW(1, MAC_HRB, 2, mac[MAC_HRB], 0, ~0u),
	REG_WRITE(1, MAC_SAB1, 2 * MAC_SA_FILTERS, mac[MAC_SAB1], 0, sa_write),
	REG_RW(1, MAC_TIDM1, MAC_TIDM4 - MAC_TIDM1 + 1, mac[MAC_TIDM1], 0, ~0u),
	REG_RW(1, MAC_TSU_FIRST, MAC_TI - MAC_TSU_FIRST + 1, mac[MAC_TSU_FIRST], 0, ~0u),

	/* MMS4 0x00-0xFF: 16-bit storage, so every AN1760 write and read-modify-write
	 * works (docs/tc6.md §5.3). */
	REG_RW(4, 0x00, V2_COL_DET_CTRL0, vend2[0], 0, 0xFFFFu),
	REG_RW(4, V2_COL_DET_CTRL0, 1, vend2[V2_COL_DET_CTRL0], COL_DET_CTRL0_RESET, 0xFFFFu),
	REG_RW(4, V2_COL_DET_CTRL0 + 1, V2_IND_ADDR - V2_COL_DET_CTRL0, vend2[V2_COL_DET_CTRL0 + 1],
	       0, 0xFFFFu),
	REG_RW(4, V2_IND_DATA, 1, vend2[V2_IND_DATA], 0, 0), /* set by IND_CTRL only */
	REG_ACTION(4, V2_IND_CTRL, indirect_ctrl_write),
	REG_RW(4, V2_IND_CTRL + 1, VEND2_NREGS - V2_IND_CTRL - 1, vend2[V2_IND_CTRL + 1], 0,
	       0xFFFFu),
	/* MMS4: PLCA (docs/tc6.md §3.6). */
	REG_CONST(4, PLCA_IDVER, 1, PLCA_IDVER_VAL),
	REG_WRITE(4, PLCA_CTRL0, 1, plca_ctrl0, 0, plca_ctrl0_write),
	REG_RW(4, PLCA_CTRL1, 1, plca_ctrl1, 0x08FFu, 0xFFFFu), /* ID 0xFF: PLCA off */
	REG_READ(4, PLCA_STATUS, plca_status_read),
	REG_RW(4, PLCA_TOTMR, 1, plca_totmr, 0x0020u, 0xFFFFu),
	REG_RW(4, PLCA_BURST, 1, plca_burst, 0x0080u, 0xFFFFu),

	/* MMS10: identification and stored-only settings (docs/tc6.md §3.1, §5.1). */
	REG_RW(10, MISC_QTXCFG, 1, qtxcfg, QTXCFG_RESET, ~0u), /* CTTHR: docs/tc6.md §5.4.1 */
	REG_RW(10, MISC_QRXCFG, 1, qrxcfg, 0, ~0u),
	REG_RW(10, MISC_PADCTRL, 1, padctrl, 0, ~0u),
	REG_RW(10, MISC_CLKOCTL, 1, clkoctl, 0, ~0u),
	REG_RW(10, MISC_MISC, 1, misc, 0, ~0u),
	REG_READ(10, MISC_DEVID, devid_read),
};

static const struct lan865x_emu_reg *reg_find(unsigned mms, uint16_t addr)
{
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(lan865x_emu_regs); i++) {
		const struct lan865x_emu_reg *r = &lan865x_emu_regs[i];

		if (r->mms == mms && addr >= r->addr && addr - r->addr < r->count)
			return r;
	}
	return NULL;
}

/* Where the value of register @addr of run @r lives, or NULL for a constant. */
static uint32_t *reg_slot(struct lan865x_emu *emu, const struct lan865x_emu_reg *r, uint16_t addr)
{
	if (!r->state)
		return NULL;
	return (uint32_t *)((char *)emu + r->state) + (addr - r->addr);
}

/* The stored registers of run @r to their reset values. */
static void reg_reset_run(struct lan865x_emu *emu, const struct lan865x_emu_reg *r)
{
	for (unsigned k = 0; r->state && k < r->count; k++)
		*reg_slot(emu, r, (uint16_t)(r->addr + k)) = r->reset;
}

static void plca_reset(struct lan865x_emu *emu)
{
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(lan865x_emu_regs); i++) {
		const struct lan865x_emu_reg *r = &lan865x_emu_regs[i];

		if (r->mms == 4 && r->addr >= PLCA_IDVER && r->addr <= PLCA_BURST)
			reg_reset_run(emu, r);
	}
}

/* A register read as a control transaction sees it; false if unimplemented (reads 0). */
static bool reg_read(struct lan865x_emu *emu, unsigned mms, uint16_t addr, uint32_t *val)
{
	const struct lan865x_emu_reg *r = reg_find(mms, addr);
	uint32_t *slot;

	*val = 0;
	if (!r)
		return false;
	slot = reg_slot(emu, r, addr);
	if (r->read)
		*val = r->read(emu, addr);
	else
		*val = slot ? *slot : r->reset;
	return true;
}

static void reg_write(struct lan865x_emu *emu, unsigned mms, uint16_t addr, uint32_t val)
{
	const struct lan865x_emu_reg *r = reg_find(mms, addr);
	uint32_t *slot;

	if (!r)
		return;
	if (r->write) {
		r->write(emu, addr, val);
		return;
	}
	slot = reg_slot(emu, r, addr);
	if (slot)
		*slot = ((*slot & ~r->wmask) | (val & r->wmask)) & ~(val & r->w1c);
}

/* Registers, TX/RX buffers and SYNC to their reset state; RESETC and IRQ_N (docs/tc6.md §4.1). */
void lan865x_emu__reset(struct lan865x_emu *emu)
{
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(lan865x_emu_regs); i++)
		reg_reset_run(emu, &lan865x_emu_regs[i]);
	memset(emu->sa_filter_enabled, 0, sizeof(emu->sa_filter_enabled));
	emu->internal_fault = false;
	emu->armed.rx_overflow = false;
	memset(&emu->last_footer, 0, sizeof(emu->last_footer));
	lan865x_emu__tx_flush(emu);
	lan865x_emu__rx_flush(emu);
	ethdrv_counter_inc(&emu->stats.resets);
	lan865x_emu__irq_assert(emu);
}

/* ---- control transactions (docs/tc6.md §1.2-§1.6) ---- */

/*
 * Register @i of the transaction with header @hdr, in the protection mode
 * the transaction began in; a write needs its value (and complement, docs/tc6.md §1.5).
 */
static void ctrl_access(struct lan865x_emu *emu, uint32_t hdr, bool prot, unsigned i,
			const uint8_t *in, uint8_t *out, size_t len)
{
	size_t stride = prot ? 8 : 4, off = 4 + i * stride;
	uint16_t addr = (uint16_t)ETHDRV_FIELD_GET(CTL_ADDR, hdr);
	unsigned mms = ETHDRV_FIELD_GET(CTL_MMS, hdr);
	uint32_t val;

	if (!(hdr & CTL_AID))
		addr = (uint16_t)(addr + i);
	if (hdr & CTL_WNR) {
		val = lan865x_emu_get_be32(in + off);
		if (prot && (val ^ lan865x_emu_get_be32(in + off + 4)) != 0xFFFFFFFFu) {
			emu->status0 |= ST0_CDPE; /* docs/tc6.md §1.5: write not performed */
			ethdrv_counter_inc(&emu->stats.cdpe);
			return;
		}
		reg_write(emu, mms, addr, val);
		ethdrv_counter_inc(&emu->stats.ctrl_writes);
		return;
	}
	reg_read(emu, mms, addr, &val);
	if (mms == 0 && addr == R_PHY_BASE + 1)
		bmsr_read_by_host(emu);
	ethdrv_counter_inc(&emu->stats.ctrl_reads);
	lan865x_emu_put_be32(out, len, off + 4, val);
	if (prot)
		lan865x_emu_put_be32(out, len, off + 8, ~val);
}

void lan865x_emu__ctrl_transfer(struct lan865x_emu *emu, const uint8_t *in, uint8_t *out,
				size_t len)
{
	uint32_t hdr = lan865x_emu__header_as_received(emu, lan865x_emu_get_be32(in));
	bool prot = emu->config0 & CFG0_PROTE, wnr = hdr & CTL_WNR;
	unsigned n = ETHDRV_FIELD_GET(CTL_LEN, hdr) + 1u;
	size_t stride = prot ? 8 : 4, expect = 8 + stride * n;
	size_t echo = ETHDRV_MIN(len, expect);

	ethdrv_counter_inc(&emu->stats.ctrl_transfers);
	/* 1. Bad header parity: echo with HDRB, no access, HDRE (docs/tc6.md §1.2, §3.4). */
	if (!lan865x_emu_parity_ok(hdr)) {
		lan865x_emu_put_be32(out, len, 4, lan865x_emu_with_parity(hdr | HDR_HDRB));
		emu->status0 |= ST0_HDRE;
		ethdrv_counter_inc(&emu->stats.hdr_errors);
		return;
	}
	if (len != expect)
		ethdrv_counter_inc(&emu->stats.ctrl_len_errors);
	/* 2. MISO is MOSI delayed by one word: header echo, then write data (docs/tc6.md §1.4). */
	lan865x_emu_put_be32(out, len, 4, hdr);
	if (wnr && echo > 8)
		memcpy(out + 8, in + 4, echo - 8);
	/* 3. One access per register, as far as the transfer carries it. */
	for (unsigned i = 0; i < n; i++) {
		size_t off = 4 + i * stride;

		if (wnr ? off + stride > len : off + 4 >= len)
			break;
		ctrl_access(emu, hdr, prot, i, in, out, len);
	}
}

/* ---- register API ---- */

int lan865x_emu_peek_reg(struct lan865x_emu *emu, unsigned mms, uint16_t addr, uint32_t *val)
{
	bool ok;

	pthread_mutex_lock(&emu->lock);
	ok = mms < 16 && reg_read(emu, mms, addr, val);
	pthread_mutex_unlock(&emu->lock);
	if (!ok)
		*val = 0;
	return ok ? 0 : -ENOENT;
}

void lan865x_emu_get_plca(struct lan865x_emu *emu, struct emu_plca_cfg *cfg)
{
	pthread_mutex_lock(&emu->lock);
	cfg->enabled = emu->plca_ctrl0 & PLCA_CTRL0_EN;
	cfg->node_id = (uint8_t)emu->plca_ctrl1;
	cfg->node_cnt = (uint8_t)(emu->plca_ctrl1 >> 8);
	cfg->to_tmr = (uint8_t)emu->plca_totmr;
	cfg->burst_cnt = (uint8_t)(emu->plca_burst >> 8);
	cfg->burst_tmr = (uint8_t)emu->plca_burst;
	pthread_mutex_unlock(&emu->lock);
}
