// SPDX-License-Identifier: MIT
/*
 * OPEN Alliance TC6 probe (oa_tc6.h): what the framework learns from a
 * MAC-PHY before its first bring-up, and the hardware reset. The RESET_N
 * pulse, the identification registers IDVER/PHYID/STDCAP (docs/tc6.md §3.2),
 * a clear error for a bus on which nothing answers, the control framing the
 * device is in, and the capabilities that decide the configuration: TX FCS
 * validation (STDCAP.TXFCSVC) and the smallest chunk payload (STDCAP.MINBPS).
 */
#include <errno.h>
#include <stddef.h>

#include "ethdrv/log.h"
#include "ethdrv/poll.h"
#include "oa_tc6_priv.h"

ETHDRV_LOG_MODULE(oa_tc6);

/* RESET_N low for at least 5 us (docs/tc6.md §5.5); twice that, as Zephyr. */
#define OA_TC6_RESET_PULSE_NS (10ull * 1000)
/* Boot after RESET_N rises: IRQ_N seen after about 5.3 ms, Zephyr waits 7 ms (docs/tc6.md §5.9). */
#define OA_TC6_RESET_BOOT_NS (7ull * 1000 * 1000)
#define OA_TC6_RESETC_POLL_US 100
#define OA_TC6_RESETC_TIMEOUT_US 100000

/* Sleep for @ns from now. */
static void oa_tc6_sleep_ns(uint64_t ns)
{
	ethdrv_sleep_until_ns(ethdrv_now_ns() + ns);
}

/*
 * Pulse RESET_N and wait out the boot: no register is touched. Bus lock
 * held. -EOPNOTSUPP without a reset line.
 */
static int oa_tc6_reset_pulse(struct oa_tc6 *tc6)
{
	int ret = ethdrv_spi_set_reset(&tc6->bus, true);

	if (ret)
		return ret;
	oa_tc6_sleep_ns(OA_TC6_RESET_PULSE_NS);
	ret = ethdrv_spi_set_reset(&tc6->bus, false);
	if (ret)
		return ret;
	ethdrv_counter_inc(&tc6->st.hw_resets);
	/* The device is in its reset state: unprotected, not synchronised (docs/tc6.md §1.5). */
	tc6->protected_active = false;
	tc6->synced = false;
	oa_tc6_sleep_ns(OA_TC6_RESET_BOOT_NS);
	return 0;
}

int oa_tc6_hw_reset(struct oa_tc6 *tc6)
{
	uint32_t val = 0;
	int ret;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	ret = oa_tc6_reset_pulse(tc6);
	/* docs/tc6.md §4.1 steps 1, 3-4: the reset completes with RESETC; clear it (W1C). */
	if (!ret)
		ret = ethdrv_poll_timeout(oa_tc6_read_reg, val, val & OA_TC6_STATUS0_RESETC,
					  OA_TC6_RESETC_POLL_US, OA_TC6_RESETC_TIMEOUT_US, tc6,
					  OA_TC6_MMS_STD, OA_TC6_REG_STATUS0);
	if (!ret)
		ret = oa_tc6_write_reg(tc6, OA_TC6_MMS_STD, OA_TC6_REG_STATUS0, val);
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}

/* True when all @len bytes of @p equal @b. */
static bool oa_tc6_all_bytes(const uint8_t *p, size_t len, uint8_t b)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != b)
			return false;
	return true;
}

/*
 * The first read failed: say why nobody answers. A MISO line stuck low or
 * high reads as all 0x00 or all 0xFF, which can never hold the echo of a
 * header (docs/tc6.md §1.4). Bus lock held.
 */
static int oa_tc6_no_device(struct oa_tc6 *tc6, int ret)
{
	const size_t len = 3 * OA_TC6_WORD; /* a one-register read */
	const char *what;

	if (ret == -EIO) {
		ethdrv_err(tc6->dev, "no TC6 device answers on %s: the SPI transfer failed",
			   tc6->bus.desc);
		return ret;
	}
	if (oa_tc6_all_bytes(tc6->ctrl_rx, len, 0x00))
		what = "MISO reads all 0x00: check power, wiring, chip select and RESET_N";
	else if (oa_tc6_all_bytes(tc6->ctrl_rx, len, 0xFF))
		what = "MISO reads all 0xFF: is it floating, or the chip held in reset?";
	else
		what = "the header echo is wrong: another SPI mode or another kind of device?";
	ethdrv_err(tc6->dev, "no TC6 device answers on %s: %s", tc6->bus.desc, what);
	return -ENODEV;
}

/* Read one register in its own transaction. */
static int oa_tc6_probe_read(struct oa_tc6 *tc6, unsigned addr, uint32_t *val)
{
	return oa_tc6_read_reg(tc6, OA_TC6_MMS_STD, addr, val);
}

/*
 * IDVER, PHYID, STDCAP and CONFIG0, each read alone: a one-register read
 * returns the value in the same place whether or not the device runs in
 * protected mode (docs/tc6.md §1.4-1.5), which we learn only from CONFIG0.
 */
static int oa_tc6_read_id(struct oa_tc6 *tc6, struct oa_tc6_id *id, uint32_t *config0)
{
	int ret = oa_tc6_probe_read(tc6, OA_TC6_REG_IDVER, &id->idver);

	if (ret)
		return oa_tc6_no_device(tc6, ret);
	if (ETHDRV_FIELD_GET(OA_TC6_IDVER_MAJVER, id->idver) != 1) {
		ethdrv_err(tc6->dev, "device on %s: IDVER 0x%08x is not an OPEN Alliance TC6 v1.x",
			   tc6->bus.desc, id->idver);
		return -ENODEV;
	}
	ret = oa_tc6_probe_read(tc6, OA_TC6_REG_PHYID, &id->phyid);
	if (!ret)
		ret = oa_tc6_probe_read(tc6, OA_TC6_REG_STDCAP, &id->stdcap);
	if (!ret)
		ret = oa_tc6_probe_read(tc6, OA_TC6_REG_CONFIG0, config0);
	return ret;
}

/*
 * The configuration the capabilities allow: the chunk payload must not be
 * below STDCAP.MINBPS (same encoding as CONFIG0.CPS, docs/tc6.md §2.1), and
 * the host supplies the FCS (CONFIG0.TXFCSVE) only where STDCAP.TXFCSVC
 * says the device checks it (docs/tc6.md §2.4, §3.3).
 */
static int oa_tc6_apply_caps(struct oa_tc6 *tc6, uint32_t stdcap)
{
	unsigned minbps = ETHDRV_FIELD_GET(OA_TC6_STDCAP_MINBPS, stdcap);

	if (minbps < OA_TC6_CONFIG0_CPS_8 || minbps > OA_TC6_CONFIG0_CPS_64) {
		ethdrv_err(tc6->dev, "device on %s: STDCAP 0x%08x: MINBPS %u is no chunk size",
			   tc6->bus.desc, stdcap, minbps);
		return -ENODEV;
	}
	if (tc6->cps < 1u << minbps) {
		ethdrv_err(tc6->dev,
			   "chunk payload of %u bytes is below the device's minimum of %u "
			   "(STDCAP.MINBPS %u): use %u or more",
			   tc6->cps, 1u << minbps, minbps, 1u << minbps);
		return -EOPNOTSUPP;
	}
	tc6->tx_fcs_len = (stdcap & OA_TC6_STDCAP_TXFCSVC) ? ETHDRV_ETH_FCS_LEN : 0;
	if (!tc6->tx_fcs_len)
		ethdrv_info(tc6->dev,
			    "no TX FCS validation (STDCAP.TXFCSVC 0): the MAC appends the FCS, "
			    "bit errors on MOSI in frame data go unnoticed");
	return 0;
}

int oa_tc6_probe(struct oa_tc6 *tc6, struct oa_tc6_id *id)
{
	uint32_t config0 = 0;
	int ret;

	oa_tc6_mutex_lock(&tc6->bus_lock);
	ret = oa_tc6_reset_pulse(tc6);
	if (ret == -EOPNOTSUPP)
		ret = 0; /* no RESET_N line: the device keeps its state */
	if (!ret)
		ret = oa_tc6_read_id(tc6, id, &config0);
	if (!ret)
		ret = oa_tc6_apply_caps(tc6, id->stdcap);
	if (!ret) {
		/* As Linux learns PROTE at init (docs/tc6.md §4.2): a device left in
		 * protected mode by an earlier run is reset in that framing. */
		tc6->protected_active = config0 & OA_TC6_CONFIG0_PROTE;
		tc6->id = *id;
		ethdrv_info(tc6->dev,
			    "TC6 device on %s at %u Hz: IDVER 0x%02x, PHYID 0x%08x (OUI 0x%06x "
			    "model 0x%02x rev %u), STDCAP 0x%04x",
			    tc6->bus.desc, tc6->bus.hz, id->idver, id->phyid,
			    (unsigned)ETHDRV_FIELD_GET(OA_TC6_PHYID_OUI, id->phyid),
			    (unsigned)ETHDRV_FIELD_GET(OA_TC6_PHYID_MODEL, id->phyid),
			    (unsigned)ETHDRV_FIELD_GET(OA_TC6_PHYID_REV, id->phyid), id->stdcap);
	}
	oa_tc6_mutex_unlock(&tc6->bus_lock);
	return ret;
}
