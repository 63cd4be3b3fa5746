// SPDX-License-Identifier: MIT
/*
 * Microchip LAN8650/1 driver (see lan865x.h): registers, AN1760
 * configuration, MAC filters and PLCA. The protocol lives in oa_tc6.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethdrv/log.h"
#include "lan865x.h"
#include "lan865x_regs.h"
#include "oa_tc6.h"

ETHDRV_LOG_MODULE(lan865x);

/* The receive filter as last applied: dev's rx_flags and multicast list. */
struct lan865x_rx_filter {
	unsigned flags; /* ETHDRV_RXF_* */
	unsigned mc_count; /* entries in mc_list */
	uint8_t mc_list[ETHDRV_MC_MAX][ETHDRV_ETH_ALEN]; /* multicast addresses */
};

/*
 * The settings below are what init (also the recovery path, in the poll
 * context) and the check op program and compare. The loop thread changes
 * them only with the bus lock held (oa_tc6_lock()), and init and check run
 * with it held, so no thread ever reads them half-written.
 */
struct lan865x_priv {
	struct ethdrv_netdev dev; /* must be first (docs/style.md S3) */
	struct lan865x_config cfg; /* immutable configuration */
	struct oa_tc6 *tc6; /* the protocol framework */
	const struct lan865x_rev *rev; /* silicon revision found by the probe */
	struct lan865x_info info; /* what the probe read */
	uint8_t mac[ETHDRV_ETH_ALEN]; /* station address to program (bus lock) */
	struct lan865x_plca plca; /* PLCA settings to program (bus lock) */
	struct lan865x_rx_filter rx; /* receive filter to program (bus lock) */
};

#define LAN865X_FROM_NETDEV(d) ethdrv_container_of(d, struct lan865x_priv, dev)

/* One register write of an init table. */
struct lan865x_reg_val {
	uint8_t mms; /* memory map selector */
	uint16_t reg; /* address */
	uint16_t val; /* value */
};

/*
 * AN1760 configuration writes, MMS 4, in the order of AN1760 Rev F
 * (DS60001760G, June 2024) as listed in docs/tc6.md §5.3 steps 2 and 4.
 * Step 2 and the 0xF8 write of step 4 differ by silicon revision
 * (docs/tc6.md §5.3.1); the trim-dependent registers are computed
 * separately.
 */
static const struct lan865x_reg_val lan865x_an1760_pre_b0[] = {
	{ LAN865X_MMS_VEND2, 0xD0, 0x5F21 },
};

static const struct lan865x_reg_val lan865x_an1760_pre_b1[] = {
	{ LAN865X_MMS_VEND2, 0xD0, 0x3F31 },
	{ LAN865X_MMS_VEND2, 0xE0, 0xC000 },
};

/* Step 4 up to 0xF8, and from 0xF9 on. */
static const struct lan865x_reg_val lan865x_an1760_fixed_a[] = {
	{ LAN865X_MMS_VEND2, 0xE9, 0x9E50 },
	{ LAN865X_MMS_VEND2, 0xF5, 0x1CF8 },
	{ LAN865X_MMS_VEND2, 0xF4, 0xC020 },
};

static const struct lan865x_reg_val lan865x_an1760_fixed_b[] = {
	{ LAN865X_MMS_VEND2, 0xF9, 0x4E53 }, { LAN865X_MMS_VEND2, 0x81, 0x0080 },
	{ LAN865X_MMS_VEND2, 0x91, 0x9660 }, { LAN865X_MMS_VEND2, 0x43, 0x00FF },
	{ LAN865X_MMS_VEND2, 0x44, 0xFFFF }, { LAN865X_MMS_VEND2, 0x45, 0x0000 },
	{ LAN865X_MMS_VEND2, 0x53, 0x00FF }, { LAN865X_MMS_VEND2, 0x54, 0xFFFF },
	{ LAN865X_MMS_VEND2, 0x55, 0x0000 }, { LAN865X_MMS_VEND2, 0x40, 0x0002 },
	{ LAN865X_MMS_VEND2, 0x50, 0x0002 },
};

/* A silicon revision the driver knows, and its AN1760 values (docs/tc6.md §5.3.1). */
struct lan865x_rev {
	unsigned devid_rev; /* DEVID.REV */
	const char *name; /* "B0", "B1" */
	const struct lan865x_reg_val *pre; /* step 2 */
	size_t pre_len; /* its entries */
	uint16_t f8; /* step 4, MMS 4 0xF8 */
};

static const struct lan865x_rev lan865x_revs[] = {
	{ LAN865X_DEVID_REV_B0, "B0", lan865x_an1760_pre_b0,
	  ETHDRV_ARRAY_SIZE(lan865x_an1760_pre_b0), 0x9B00 },
	{ LAN865X_DEVID_REV_B1, "B1", lan865x_an1760_pre_b1,
	  ETHDRV_ARRAY_SIZE(lan865x_an1760_pre_b1), 0xB900 },
};

/* SQI table 0xB0..0xBB (AN1760, docs/tc6.md §5.3 step 6), one transaction. */
static const uint32_t lan865x_sqi_table[] = {
	0x0103, 0x0910, 0x1D26, 0x002A, 0x0103, 0x070D,
	0x1720, 0x0027, 0x0509, 0x0E13, 0x1C25, 0x002B,
};

/* Write a table of registers in order, stopping at the first error. */
static int lan865x_write_table(struct lan865x_priv *priv, const struct lan865x_reg_val *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = oa_tc6_write_reg(priv->tc6, t[i].mms, t[i].reg, t[i].val);

		if (ret)
			return ret;
	}
	return 0;
}

/* AN1760 indirect read (docs/tc6.md §5.3 step 1): address, read enable, data. */
static int lan865x_indirect_read(struct lan865x_priv *priv, uint32_t addr, uint32_t *val)
{
	int ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_IND_ADDR, addr);

	if (!ret)
		ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_IND_CTRL,
				       LAN865X_IND_CTRL_READ);
	if (!ret)
		ret = oa_tc6_read_reg(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_IND_DATA, val);
	return ret;
}

/* A 5-bit two's complement trim value (bit 4 = sign). */
static int lan865x_trim(uint32_t v)
{
	int t = (int)ETHDRV_FIELD_GET(LAN865X_IND_OFFSET, v);

	return t & 0x10 ? t - 32 : t;
}

/* Read the trims and check the chip (MLIB's Chip_Error rule, docs/tc6.md §5.3 step 1). */
static int lan865x_read_trims(struct lan865x_priv *priv, int *o1, int *o2)
{
	uint32_t v1, v2, chk;
	int ret = lan865x_indirect_read(priv, LAN865X_IND_OFFSET1, &v1);

	if (!ret)
		ret = lan865x_indirect_read(priv, LAN865X_IND_OFFSET2, &v2);
	if (!ret)
		ret = lan865x_indirect_read(priv, LAN865X_IND_CHIPCHK, &chk);
	if (ret)
		return ret;
	*o1 = lan865x_trim(v1);
	*o2 = lan865x_trim(v2);
	if (!(chk & LAN865X_IND_CHIPCHK_OK) || *o1 < -5) {
		ethdrv_err(&priv->dev, "chip error: check 0x%04x offset1 %d", chk, *o1);
		return -ENODEV;
	}
	return 0;
}

/* The trim-dependent AN1760 writes (docs/tc6.md §5.3 steps 3 and 5). */
static int lan865x_write_trimmed(struct lan865x_priv *priv, int o1, int o2)
{
	uint32_t p1 = ETHDRV_FIELD_PREP(LAN865X_CFGPARAM1_A, 9 + o1) |
		      ETHDRV_FIELD_PREP(LAN865X_CFGPARAM1_B, 14 + o1) | LAN865X_CFGPARAM1_LOW;
	uint32_t p2 = ETHDRV_FIELD_PREP(LAN865X_CFGPARAM2_A, 40 + o2);
	uint32_t sqi[3] = {
		ETHDRV_FIELD_PREP(LAN865X_SQI_CFG_HI, 5 + o1) |
			ETHDRV_FIELD_PREP(LAN865X_SQI_CFG_LO, 9 + o1),
		ETHDRV_FIELD_PREP(LAN865X_SQI_CFG_HI, 9 + o1) |
			ETHDRV_FIELD_PREP(LAN865X_SQI_CFG_LO, 14 + o1),
		ETHDRV_FIELD_PREP(LAN865X_SQI_CFG_HI, 17 + o1) |
			ETHDRV_FIELD_PREP(LAN865X_SQI_CFG_LO, 22 + o1),
	};
	int ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_CFGPARAM1, p1);

	if (!ret)
		ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_CFGPARAM2, p2);
	if (!ret)
		ret = lan865x_write_table(priv, lan865x_an1760_fixed_a,
					  ETHDRV_ARRAY_SIZE(lan865x_an1760_fixed_a));
	if (!ret)
		ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_VEND2, 0xF8, priv->rev->f8);
	if (!ret)
		ret = lan865x_write_table(priv, lan865x_an1760_fixed_b,
					  ETHDRV_ARRAY_SIZE(lan865x_an1760_fixed_b));
	if (!ret)
		ret = oa_tc6_write_regs(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_SQI_CFG0, sqi, 3);
	return ret;
}

/* AN1760 configuration for the probed revision, docs/tc6.md §5.3 steps 1-6 in order. */
static int lan865x_an1760_config(struct lan865x_priv *priv)
{
	int o1, o2, ret;

	ret = lan865x_read_trims(priv, &o1, &o2);
	if (!ret)
		ret = lan865x_write_table(priv, priv->rev->pre, priv->rev->pre_len);
	if (!ret)
		ret = lan865x_write_trimmed(priv, o1, o2);
	if (!ret)
		ret = oa_tc6_write_regs(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_SQI_TBL0,
					lan865x_sqi_table, ETHDRV_ARRAY_SIZE(lan865x_sqi_table));
	return ret;
}

/* The station address as SAB/SAT register values (docs/tc6.md §5.2). */
static void lan865x_mac_regs(const struct lan865x_priv *priv, uint32_t *sab, uint32_t *sat)
{
	const uint8_t *m = priv->mac;

	*sab = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
	*sat = ETHDRV_FIELD_PREP(LAN865X_MAC_SAT_ADDR, m[4] | m[5] << 8);
}

/* Station address into SAB1/SAT1 and SAB2/SAT2, bottom before top (docs/tc6.md §5.2). */
static int lan865x_write_mac(struct lan865x_priv *priv)
{
	uint32_t regs[4];

	lan865x_mac_regs(priv, &regs[0], &regs[1]);
	regs[2] = regs[0];
	regs[3] = regs[1];
	return oa_tc6_write_regs(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_SAB1, regs, 4);
}

/* Hash index: bit j is the XOR of DA bits j, j+6, ..., j+42 (docs/tc6.md §4.2). */
static unsigned lan865x_hash_index(const uint8_t *addr)
{
	unsigned idx = 0;

	for (unsigned j = 0; j < 6; j++) {
		unsigned b = 0;

		for (unsigned k = j; k < 48; k += 6)
			b ^= (addr[k / 8] >> (k % 8)) & 1u;
		idx |= b << j;
	}
	return idx;
}

/* NCFGR bits the driver programs (the check compares only these). */
#define LAN865X_NCFGR_OWNED                                                         \
	(LAN865X_MAC_NCFGR_CAF | LAN865X_MAC_NCFGR_NBC | LAN865X_MAC_NCFGR_MTIHEN | \
	 LAN865X_MAC_NCFGR_UNIHEN | LAN865X_MAC_NCFGR_MAXFS | LAN865X_MAC_NCFGR_RFCS)

/* Hash registers and NCFGR from the receive filter; returns NCFGR. */
static uint32_t lan865x_rx_mode(const struct lan865x_priv *priv, uint32_t hash[2])
{
	const struct lan865x_rx_filter *rx = &priv->rx;
	uint32_t ncfgr = LAN865X_MAC_NCFGR_RESET | LAN865X_MAC_NCFGR_MAXFS;

	hash[0] = hash[1] = 0;
	if (rx->flags & ETHDRV_RXF_ALLMULTI) {
		hash[0] = hash[1] = UINT32_MAX;
	} else {
		for (unsigned i = 0; i < rx->mc_count; i++) {
			unsigned idx = lan865x_hash_index(rx->mc_list[i]);

			hash[idx / 32] |= ETHDRV_BIT(idx % 32);
		}
	}
	if (hash[0] || hash[1])
		ncfgr |= LAN865X_MAC_NCFGR_MTIHEN;
	if (rx->flags & ETHDRV_RXF_PROMISC)
		ncfgr |= LAN865X_MAC_NCFGR_CAF;
	if (!(rx->flags & ETHDRV_RXF_BROADCAST))
		ncfgr |= LAN865X_MAC_NCFGR_NBC;
	/* RFCS stays clear: the FCS reaches the host and is checked there. */
	return ncfgr;
}

/* Hash registers, then NCFGR. */
static int lan865x_write_rx_mode(struct lan865x_priv *priv)
{
	uint32_t hash[2], ncfgr = lan865x_rx_mode(priv, hash);
	int ret;

	ret = oa_tc6_write_regs(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_HRB, hash, 2);
	if (!ret)
		ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_NCFGR, ncfgr);
	return ret;
}

/* PLCA CTRL0 and CTRL1 as programmed (docs/tc6.md §3.6). */
static void lan865x_plca_ctrl(const struct lan865x_priv *priv, uint32_t ctrl[2])
{
	const struct lan865x_plca *p = &priv->plca;

	ctrl[0] = p->enable ? LAN865X_PLCA_CTRL0_EN : 0;
	ctrl[1] = ETHDRV_FIELD_PREP(LAN865X_PLCA_CTRL1_NCNT, p->node_cnt) |
		  ETHDRV_FIELD_PREP(LAN865X_PLCA_CTRL1_ID, p->node_id);
}

/* PLCA with collision detection off in PLCA mode, on for CSMA/CD (docs/tc6.md §3.6). */
static int lan865x_write_plca(struct lan865x_priv *priv)
{
	const struct lan865x_plca *p = &priv->plca;
	uint32_t coldet = LAN865X_COL_DET_CTRL0_BASE | (p->enable ? 0 : LAN865X_COL_DET_CTRL0_EN);
	uint32_t ctrl[2];
	uint32_t tmr[2] = {
		p->to_tmr,
		ETHDRV_FIELD_PREP(LAN865X_PLCA_BURST_MAXBC, p->burst_cnt) |
			ETHDRV_FIELD_PREP(LAN865X_PLCA_BURST_BTMR, p->burst_tmr),
	};
	struct oa_tc6 *tc6 = priv->tc6;
	int ret;

	lan865x_plca_ctrl(priv, ctrl);
	ret = oa_tc6_write_reg(tc6, LAN865X_MMS_VEND2, LAN865X_REG_COL_DET_CTRL0, coldet);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, LAN865X_MMS_VEND2, LAN865X_REG_PLCA_CTRL1, ctrl[1]);
	if (!ret)
		ret = oa_tc6_write_regs(tc6, LAN865X_MMS_VEND2, LAN865X_REG_PLCA_TOTMR, tmr, 2);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, LAN865X_MMS_VEND2, LAN865X_REG_PLCA_CTRL0, ctrl[0]);
	return ret;
}

/* NCR: MAC transmit and receive on or off. */
static int lan865x_mac_enable(struct lan865x_priv *priv, bool on)
{
	return oa_tc6_write_reg(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_NCR,
				on ? LAN865X_MAC_NCR_TXEN | LAN865X_MAC_NCR_RXEN : 0);
}

/*
 * Bring-up in datasheet order, one call per step (docs/tc6.md §4.1, §5.3);
 * also the recovery path of the framework, so it restores everything.
 */
static int lan865x_init(void *chip)
{
	struct lan865x_priv *priv = chip;
	int ret;

	ret = oa_tc6_sw_reset(priv->tc6); /* docs/tc6.md §4.1 steps 3-4: SWRESET, RESETC, clear */
	if (!ret)
		ret = lan865x_an1760_config(priv); /* docs/tc6.md §5.3 steps 1-6 */
	if (!ret)
		ret = oa_tc6_write_reg(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_TI,
				       LAN865X_MAC_TI_25MHZ); /* docs/tc6.md §5.3 step 7 */
	if (!ret)
		ret = lan865x_write_mac(priv); /* docs/tc6.md §5.2 */
	if (!ret)
		ret = lan865x_write_rx_mode(priv); /* docs/tc6.md §4.2 filters */
	if (!ret)
		ret = lan865x_write_plca(priv); /* docs/tc6.md §3.6 */
	/* docs/tc6.md §4.1 steps 5-7, SYNC last (ZARFE, for errata s3, is the
	 * framework's rx_zero_align knob, on by default: lan865x_create()) */
	if (!ret)
		ret = oa_tc6_sync(priv->tc6, 0);
	if (!ret)
		ret = lan865x_mac_enable(priv, true);
	return ret;
}

/*
 * The registers traffic stops without, against what init and the set ops
 * wrote: MAC enables and frame filter (NCR, NCFGR), hash and station
 * address (HRB..SAT1 in one read), PLCA enable and node id/count.
 */
static int lan865x_check(void *chip, struct oa_tc6_reg_diff *diff)
{
	static const uint32_t mac_mask[2] = {
		LAN865X_MAC_NCR_TXEN | LAN865X_MAC_NCR_RXEN | LAN865X_MAC_NCR_LBL,
		LAN865X_NCFGR_OWNED,
	};
	static const uint32_t filt_mask[4] = { UINT32_MAX, UINT32_MAX, UINT32_MAX,
					       LAN865X_MAC_SAT_ADDR };
	static const uint32_t plca_mask[2] = { LAN865X_PLCA_CTRL0_EN,
					       LAN865X_PLCA_CTRL1_NCNT | LAN865X_PLCA_CTRL1_ID };
	struct lan865x_priv *priv = chip;
	uint32_t mac[2] = { LAN865X_MAC_NCR_TXEN | LAN865X_MAC_NCR_RXEN };
	uint32_t filt[4], plca[2];
	int ret;

	mac[1] = lan865x_rx_mode(priv, filt);
	lan865x_mac_regs(priv, &filt[2], &filt[3]);
	lan865x_plca_ctrl(priv, plca);
	ret = oa_tc6_check_regs(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_NCR, mac, mac_mask, 2,
				diff);
	if (!ret)
		ret = oa_tc6_check_regs(priv->tc6, LAN865X_MMS_MAC, LAN865X_REG_MAC_HRB, filt,
					filt_mask, 4, diff);
	if (!ret)
		ret = oa_tc6_check_regs(priv->tc6, LAN865X_MMS_VEND2, LAN865X_REG_PLCA_CTRL0, plca,
					plca_mask, 2, diff);
	return ret;
}

static const struct oa_tc6_chip_ops lan865x_chip_ops = {
	.init = lan865x_init,
	.check = lan865x_check,
};

/* Bring-up, then the internal PHY (Linux: phy_start in lan865x_net_open). */
static int lan865x_open(struct ethdrv_netdev *dev)
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);
	int ret = oa_tc6_open(priv->tc6);

	if (!ret)
		ret = oa_tc6_phy_start(priv->tc6);
	if (ret)
		oa_tc6_stop(priv->tc6);
	return ret;
}

static int lan865x_stop(struct ethdrv_netdev *dev)
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);

	oa_tc6_phy_stop(priv->tc6);
	oa_tc6_stop(priv->tc6);
	return lan865x_mac_enable(priv, false);
}

static int lan865x_start_xmit(struct ethdrv_netdev *dev, struct ethdrv_pkt *pkt)
{
	return oa_tc6_start_xmit(LAN865X_FROM_NETDEV(dev)->tc6, pkt);
}

static int lan865x_set_mac(struct ethdrv_netdev *dev, const uint8_t mac[ETHDRV_ETH_ALEN])
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);
	int ret;

	oa_tc6_lock(priv->tc6);
	memcpy(priv->mac, mac, ETHDRV_ETH_ALEN);
	ret = dev->up ? lan865x_write_mac(priv) : 0;
	oa_tc6_unlock(priv->tc6);
	return ret;
}

/* Take dev's rx_flags and multicast list (the loop thread owns them). */
static void lan865x_rx_filter_from_dev(struct lan865x_rx_filter *rx,
				       const struct ethdrv_netdev *dev)
{
	rx->flags = dev->rx_flags;
	rx->mc_count = dev->mc_count;
	memcpy(rx->mc_list, dev->mc_list, dev->mc_count * ETHDRV_ETH_ALEN);
}

static int lan865x_set_rx_mode(struct ethdrv_netdev *dev)
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);
	struct lan865x_rx_filter old;
	int ret;

	oa_tc6_lock(priv->tc6);
	old = priv->rx;
	lan865x_rx_filter_from_dev(&priv->rx, dev);
	ret = dev->up ? lan865x_write_rx_mode(priv) : 0;
	if (ret) /* the core keeps the old filter too */
		priv->rx = old;
	oa_tc6_unlock(priv->tc6);
	return ret;
}

/* The link as the PHY's state machine last reported it (the carrier): the
 * PHY layer alone reads BMSR, whose link bit is latched low (docs/mdio.md §5). */
static int lan865x_get_link(struct ethdrv_netdev *dev, struct ethdrv_link_state *st)
{
	st->up = dev->up && ethdrv_netdev_carrier_ok(dev);
	st->speed_mbps = 10;
	st->full_duplex = false; /* 10BASE-T1S is half duplex (docs/tc6.md §5.7) */
	return 0;
}

/*
 * 0 in node-cnt, to-tmr and burst-tmr stands for the reset value
 * (docs/tc6.md §3.6, §5.7). Keep the value the chip is given, so a read
 * reports what is in effect, as ethtool --get-plca-cfg does.
 */
static void lan865x_plca_effective(struct lan865x_plca *p)
{
	if (!p->node_cnt)
		p->node_cnt = LAN865X_PLCA_NCNT_DEFAULT;
	if (!p->to_tmr)
		p->to_tmr = LAN865X_PLCA_TOTMR_DEFAULT;
	if (!p->burst_tmr)
		p->burst_tmr = LAN865X_PLCA_BTMR_DEFAULT;
}

/* The PLCA knobs (knob.h; ethtool --set-plca-cfg words, docs/tc6.md §3.6), handled below. */
static const struct ethdrv_knob lan865x_knobs[] = {
	ETHDRV_KNOB_BOOL("plca", "PLCA on (off = CSMA/CD)"),
	ETHDRV_KNOB_UINT("node-id", 0, 255, "", "PLCA local node ID (0 = coordinator, 255 = off)"),
	ETHDRV_KNOB_UINT("node-cnt", 0, 255, "nodes", "PLCA node count (coordinator)"),
	ETHDRV_KNOB_UINT("to-tmr", 0, 255, "bit times", "PLCA transmit opportunity timer"),
	ETHDRV_KNOB_UINT("burst-cnt", 0, 255, "frames", "PLCA extra frames per opportunity"),
	ETHDRV_KNOB_UINT("burst-tmr", 0, 255, "bit times", "PLCA burst timer"),
};

const struct ethdrv_knob_table lan865x_knob_table = ETHDRV_KNOB_TABLE("lan865x", lan865x_knobs);

/* The uint8_t PLCA field a knob names, or NULL. */
static uint8_t *lan865x_plca_field(struct lan865x_plca *p, const char *key)
{
	if (!strcmp(key, "node-id"))
		return &p->node_id;
	if (!strcmp(key, "node-cnt"))
		return &p->node_cnt;
	if (!strcmp(key, "to-tmr"))
		return &p->to_tmr;
	if (!strcmp(key, "burst-cnt"))
		return &p->burst_cnt;
	if (!strcmp(key, "burst-tmr"))
		return &p->burst_tmr;
	return NULL;
}

static int lan865x_set_param(struct ethdrv_netdev *dev, const char *key, const char *value)
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);
	struct lan865x_plca plca = priv->plca;
	uint8_t *field = lan865x_plca_field(&plca, key);
	char *end;
	unsigned long v;
	int ret;

	if (!field && strcmp(key, "plca"))
		return oa_tc6_set_param(priv->tc6, key, value);
	if (!field) {
		if (strcmp(value, "on") && strcmp(value, "off"))
			return -EINVAL;
		plca.enable = !strcmp(value, "on");
	} else {
		v = strtoul(value, &end, 0);
		if (!*value || *end || v > 255)
			return -EINVAL;
		*field = (uint8_t)v;
	}
	lan865x_plca_effective(&plca);
	oa_tc6_lock(priv->tc6);
	priv->plca = plca;
	ret = dev->up ? lan865x_write_plca(priv) : 0;
	oa_tc6_unlock(priv->tc6);
	return ret;
}

static int lan865x_get_param(struct ethdrv_netdev *dev, const char *key, char *buf, size_t size)
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);
	uint8_t *field = lan865x_plca_field(&priv->plca, key);
	int n;

	if (!field && strcmp(key, "plca"))
		return oa_tc6_get_param(priv->tc6, key, buf, size);
	if (field)
		n = snprintf(buf, size, "%u", *field);
	else
		n = snprintf(buf, size, "%s", priv->plca.enable ? "on" : "off");
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

static void lan865x_destroy(struct ethdrv_netdev *dev)
{
	struct lan865x_priv *priv = LAN865X_FROM_NETDEV(dev);

	oa_tc6_destroy(priv->tc6);
	free(priv);
}

static const struct ethdrv_netdev_ops lan865x_ops = {
	.open = lan865x_open,
	.stop = lan865x_stop,
	.start_xmit = lan865x_start_xmit,
	.set_mac = lan865x_set_mac,
	.set_rx_mode = lan865x_set_rx_mode,
	.get_link = lan865x_get_link,
	.set_param = lan865x_set_param,
	.get_param = lan865x_get_param,
	.destroy = lan865x_destroy,
};

/* A usable station address: unicast and not all zero. */
static bool lan865x_mac_valid(const uint8_t *m)
{
	return !(m[0] & 1) && (m[0] | m[1] | m[2] | m[3] | m[4] | m[5]);
}

/* The OA PHYID of a LAN8650/1: Microchip's OUI and the LAN865x model (docs/tc6.md §5.1). */
static int lan865x_check_phyid(struct lan865x_priv *priv, uint32_t phyid)
{
	if (ETHDRV_FIELD_GET(OA_TC6_PHYID_OUI, phyid) == LAN865X_PHYID_OUI &&
	    ETHDRV_FIELD_GET(OA_TC6_PHYID_MODEL, phyid) == LAN865X_PHYID_MODEL)
		return 0;
	ethdrv_err(&priv->dev,
		   "the TC6 device is not a LAN8650/1: PHYID 0x%08x, expected OUI 0x%03x "
		   "model 0x%02x",
		   phyid, LAN865X_PHYID_OUI, LAN865X_PHYID_MODEL);
	return -ENODEV;
}

/*
 * Model and silicon revision from DEVID, the only register that tells B0
 * from B1 (docs/tc6.md §5.1); the AN1760 values follow the revision
 * (docs/tc6.md §5.3.1), so an unknown one is refused rather than guessed.
 */
static int lan865x_identify(struct lan865x_priv *priv)
{
	struct lan865x_info *info = &priv->info;
	unsigned rev;
	int ret;

	ret = oa_tc6_read_reg(priv->tc6, LAN865X_MMS_MISC, LAN865X_REG_DEVID, &info->devid);
	if (ret)
		return ret;
	info->model = (uint16_t)ETHDRV_FIELD_GET(LAN865X_DEVID_MODEL, info->devid);
	rev = ETHDRV_FIELD_GET(LAN865X_DEVID_REV, info->devid);
	if (info->model != LAN865X_DEVID_MODEL_8650 && info->model != LAN865X_DEVID_MODEL_8651) {
		ethdrv_err(&priv->dev, "DEVID 0x%08x: model 0x%04x is not a LAN8650 or LAN8651",
			   info->devid, info->model);
		return -ENODEV;
	}
	for (size_t i = 0; i < ETHDRV_ARRAY_SIZE(lan865x_revs); i++)
		if (lan865x_revs[i].devid_rev == rev)
			priv->rev = &lan865x_revs[i];
	if (!priv->rev) {
		ethdrv_err(&priv->dev,
			   "LAN%04x silicon revision %u (DEVID 0x%08x) is unknown: the AN1760 "
			   "values are known for B0 (1) and B1 (2) only",
			   info->model, rev, info->devid);
		return -ENODEV;
	}
	info->rev = priv->rev->name;
	return 0;
}

/* Reset and identify the chip before the first open (docs/tc6.md §3.2, §5.1). */
static int lan865x_probe(struct lan865x_priv *priv, const struct ethdrv_spi_bus *bus)
{
	struct lan865x_info *info = &priv->info;
	struct oa_tc6_id id;
	int ret;

	ret = oa_tc6_probe(priv->tc6, &id);
	if (!ret)
		ret = lan865x_check_phyid(priv, id.phyid);
	if (!ret)
		ret = lan865x_identify(priv);
	if (ret)
		return ret;
	info->idver = id.idver;
	info->phyid = id.phyid;
	info->stdcap = id.stdcap;
	ethdrv_info(&priv->dev, "LAN%04x rev %s (DEVID 0x%08x) on %s at %u Hz", info->model,
		    info->rev, info->devid, bus->desc, bus->hz);
	return 0;
}

void lan865x_get_info(struct ethdrv_netdev *dev, struct lan865x_info *info)
{
	*info = LAN865X_FROM_NETDEV(dev)->info;
}

int lan865x_create(const struct lan865x_config *cfg, const struct ethdrv_spi_bus *bus,
		   struct ethdrv_loop *loop, struct ethdrv_pkt_pool *pool,
		   struct ethdrv_netdev **out)
{
	struct oa_tc6_config tc6_cfg = {
		.cps = cfg->cps,
		.protected_mode = cfg->protected_mode,
		.xfer_cap = cfg->xfer_cap,
		.poll_us = cfg->poll_us,
		/* Errata s3: RX may halt when two frames share a chunk (docs/tc6.md §5.6). */
		.rx_zero_align = true,
	};
	struct lan865x_priv *priv;
	int ret;

	if (!cfg->name || !lan865x_mac_valid(cfg->mac))
		return -EINVAL;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return -ENOMEM;
	priv->cfg = *cfg;
	priv->plca = cfg->plca;
	lan865x_plca_effective(&priv->plca);
	memcpy(priv->mac, cfg->mac, ETHDRV_ETH_ALEN);
	ret = ethdrv_netdev_init(&priv->dev, cfg->name, &lan865x_ops, loop, pool);
	if (ret)
		goto err_free;
	memcpy(priv->dev.mac, cfg->mac, ETHDRV_ETH_ALEN);
	priv->dev.rx_flags |= ETHDRV_RXF_BROADCAST;
	lan865x_rx_filter_from_dev(&priv->rx, &priv->dev);
	ret = oa_tc6_create(&priv->dev, bus, &tc6_cfg, &lan865x_chip_ops, priv, &priv->tc6);
	if (ret)
		goto err_cleanup;
	ret = lan865x_probe(priv, bus);
	if (ret)
		goto err_destroy_tc6;
	*out = &priv->dev;
	return 0;

err_destroy_tc6:
	oa_tc6_destroy(priv->tc6);
err_cleanup:
	ethdrv_netdev_cleanup(&priv->dev);
err_free:
	free(priv);
	return ret;
}
