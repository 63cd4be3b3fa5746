/* SPDX-License-Identifier: MIT */
/*
 * OPEN Alliance TC6 framework: the protocol half of a MAC-PHY driver
 * (kernel oa_tc6.h + lan865x.c split, docs/style.md S3). It owns the SPI bus,
 * control transactions (with protected mode, echo checks and retries), the
 * data path (a TX queue under byte queue limits, chunking, credits, footer
 * checks, RX reassembly with a software CRC check) run by one NAPI poller,
 * the STATUS0/STATUS1 error policy and automatic recovery by reset. Chip
 * drivers (lan865x.c) supply the bring-up through struct oa_tc6_chip_ops.
 *
 * Threads: control calls come from the loop thread (or from the chip's init
 * during recovery); the data path runs in the poller's context, which may be
 * its own thread. One recursive bus lock serialises every SPI transfer and
 * is held across a whole recovery; chip drivers change the settings their
 * init and check ops program under it too (oa_tc6_lock()).
 */
#ifndef ETHDRV_DRIVERS_OA_TC6_H
#define ETHDRV_DRIVERS_OA_TC6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ethdrv/bits.h"
#include "ethdrv/driver.h"
#include "ethdrv/knob.h"

struct oa_tc6;

/* OA standard registers, MMS 0 (docs/tc6.md §3.2). */
#define OA_TC6_MMS_STD 0
#define OA_TC6_REG_IDVER 0x00
#define OA_TC6_REG_PHYID 0x01
#define OA_TC6_REG_STDCAP 0x02
#define OA_TC6_REG_RESET 0x03
#define OA_TC6_REG_CONFIG0 0x04
#define OA_TC6_REG_STATUS0 0x08
#define OA_TC6_REG_STATUS1 0x09
#define OA_TC6_REG_BUFSTS 0x0B
#define OA_TC6_REG_IMASK0 0x0C
#define OA_TC6_REG_IMASK1 0x0D
#define OA_TC6_REG_PHY_C22_BASE 0xFF00 /* clause-22 PHY registers */

#define OA_TC6_RESET_SWRESET ETHDRV_BIT(0)

/* Identification and capabilities (docs/tc6.md §3.2). */
#define OA_TC6_IDVER_MAJVER ETHDRV_GENMASK(7, 4)
#define OA_TC6_IDVER_MINVER ETHDRV_GENMASK(3, 0)
#define OA_TC6_PHYID_OUI ETHDRV_GENMASK(31, 10)
#define OA_TC6_PHYID_MODEL ETHDRV_GENMASK(9, 4)
#define OA_TC6_PHYID_REV ETHDRV_GENMASK(3, 0)
#define OA_TC6_STDCAP_TXFCSVC ETHDRV_BIT(10)
#define OA_TC6_STDCAP_CTC ETHDRV_BIT(7) /* cut-through capable (docs/tc6.md §5.4.1) */
#define OA_TC6_STDCAP_MINBPS ETHDRV_GENMASK(2, 0)

/* CONFIG0 (docs/tc6.md §3.3). */
#define OA_TC6_CONFIG0_SYNC ETHDRV_BIT(15)
#define OA_TC6_CONFIG0_TXFCSVE ETHDRV_BIT(14)
#define OA_TC6_CONFIG0_CSARFE ETHDRV_BIT(13)
#define OA_TC6_CONFIG0_ZARFE ETHDRV_BIT(12)
#define OA_TC6_CONFIG0_TXCTHRESH ETHDRV_GENMASK(11, 10)
#define OA_TC6_CONFIG0_TXCTE ETHDRV_BIT(9)
#define OA_TC6_CONFIG0_RXCTE ETHDRV_BIT(8)
#define OA_TC6_CONFIG0_FTSE ETHDRV_BIT(7)
#define OA_TC6_CONFIG0_FTSS ETHDRV_BIT(6)
#define OA_TC6_CONFIG0_PROTE ETHDRV_BIT(5)
#define OA_TC6_CONFIG0_SEQE ETHDRV_BIT(4)
#define OA_TC6_CONFIG0_CPS ETHDRV_GENMASK(2, 0)
#define OA_TC6_CONFIG0_CPS_8 3
#define OA_TC6_CONFIG0_CPS_32 5
#define OA_TC6_CONFIG0_CPS_64 6

/* STATUS0 and IMASK0 bits (docs/tc6.md §3.4); IMASK0: 1 = masked. */
#define OA_TC6_STATUS0_TXPE ETHDRV_BIT(0)
#define OA_TC6_STATUS0_TXBOE ETHDRV_BIT(1)
#define OA_TC6_STATUS0_TXBUE ETHDRV_BIT(2)
#define OA_TC6_STATUS0_RXBOE ETHDRV_BIT(3)
#define OA_TC6_STATUS0_LOFE ETHDRV_BIT(4)
#define OA_TC6_STATUS0_HDRE ETHDRV_BIT(5)
#define OA_TC6_STATUS0_RESETC ETHDRV_BIT(6)
#define OA_TC6_STATUS0_PHYINT ETHDRV_BIT(7)
#define OA_TC6_STATUS0_TTSCAA ETHDRV_BIT(8)
#define OA_TC6_STATUS0_TTSCAB ETHDRV_BIT(9)
#define OA_TC6_STATUS0_TTSCAC ETHDRV_BIT(10)
#define OA_TC6_STATUS0_TXFCSE ETHDRV_BIT(11)
#define OA_TC6_STATUS0_CDPE ETHDRV_BIT(12)
#define OA_TC6_STATUS0_ALL ETHDRV_GENMASK(12, 0)
#define OA_TC6_STATUS0_NR 13

/* STATUS1 bits, LAN8650/1 layout (docs/tc6.md §3.5). */
#define OA_TC6_STATUS1_RXNER ETHDRV_BIT(0)
#define OA_TC6_STATUS1_TXNER ETHDRV_BIT(1)
#define OA_TC6_STATUS1_FSMSTER ETHDRV_BIT(17)
#define OA_TC6_STATUS1_ECC ETHDRV_BIT(18)
#define OA_TC6_STATUS1_UV18 ETHDRV_BIT(19)
#define OA_TC6_STATUS1_BUSER ETHDRV_BIT(20)
/* Faults that need a reset (datasheet "Internal Fault Detection", docs/tc6.md §5.6). */
#define OA_TC6_STATUS1_FATAL (OA_TC6_STATUS1_RXNER | OA_TC6_STATUS1_TXNER | OA_TC6_STATUS1_FSMSTER)

/* BUFSTS (docs/tc6.md §2.3). */
#define OA_TC6_BUFSTS_TXC ETHDRV_GENMASK(15, 8)
#define OA_TC6_BUFSTS_RCA ETHDRV_GENMASK(7, 0)

/* Defaults and limits. */
#define OA_TC6_XFER_CAP_DEFAULT 31 /* chunks per SPI transfer (MLIB's 31) */
#define OA_TC6_XFER_CAP_MAX 48 /* the LAN8650 TX buffer: BUFSTS.TXC reset value */
#define OA_TC6_TXQ_MAX_DEFAULT 128 /* hard cap of queued TX frames */

/* Why a recovery ran (index into the recoveries_<cause> counters). */
enum oa_tc6_cause {
	OA_TC6_CAUSE_TXPE, /* STATUS0.TXPE */
	OA_TC6_CAUSE_LOFE, /* STATUS0.LOFE */
	OA_TC6_CAUSE_NOFOOTER, /* an all-zero footer: the device saw no data transaction */
	OA_TC6_CAUSE_SYNC, /* footer SYNC=0 after it was 1 */
	OA_TC6_CAUSE_RESETC, /* STATUS0.RESETC while running: spontaneous reset */
	OA_TC6_CAUSE_STATUS1, /* STATUS1 RXNER/TXNER/FSMSTER */
	OA_TC6_CAUSE_CTRL, /* a control transaction failed all its tries */
	OA_TC6_CAUSE_BUS, /* the SPI transfer itself failed */
	OA_TC6_CAUSE_CONFIG, /* the configuration check read back other values */
	OA_TC6_CAUSE_RXSTALL, /* RX data RCA promised never came (errata s3) */
	OA_TC6_CAUSE_USER, /* oa_tc6_request_recovery() */
	OA_TC6_CAUSE_NR
};

/* The first register a configuration check found changed. */
struct oa_tc6_reg_diff {
	unsigned mms; /* memory map selector */
	unsigned addr; /* address */
	uint32_t got; /* value read back */
	uint32_t want; /* value written, under the checked mask */
};

/* What the chip driver provides. */
struct oa_tc6_chip_ops {
	/**
	 * Full bring-up after power-on or for recovery, in datasheet order:
	 * oa_tc6_sw_reset(), chip configuration, oa_tc6_sync() last but for
	 * MAC enables. Called with the bus lock held by open (loop thread)
	 * and by recovery (the poll context, which is the poller thread with
	 * threaded=1): it may read only settings that are changed under
	 * oa_tc6_lock(). Returns 0 or -errno.
	 */
	int (*init)(void *chip);
	/**
	 * Optional: compare the chip registers that traffic depends on with
	 * the values init (or a later set) wrote, using oa_tc6_check_regs().
	 * Called with the bus lock held by the periodic configuration check
	 * (knob config_check_ms); returns 0 when they match, 1 with @diff
	 * filled when one differs, or -errno when a read failed.
	 */
	int (*check)(void *chip, struct oa_tc6_reg_diff *diff);
};

/* Immutable framework configuration. */
struct oa_tc6_config {
	unsigned cps; /* chunk payload size: 32 or 64 (docs/tc6.md §2.1); 0 = 64 */
	bool protected_mode; /* CONFIG0.PROTE: complemented control data (docs/tc6.md §1.5) */
	unsigned xfer_cap; /* chunks per transfer, 1..48; 0 = 31 */
	unsigned txq_max; /* queued TX frames before ETHDRV_TX_BUSY; 0 = 128 */
	unsigned weight; /* RX poller weight, 1..64; 0 = 64 */
	unsigned poll_us; /* bus without IRQ line: poll period, 50..1000000 us; 0 = 1000 */
	/* RX frames start only at word 0 of a chunk (CONFIG0.ZARFE,
	 * docs/tc6.md §2.4), e.g. for an erratum; the knob rx_zero_align
	 * changes it at run time. */
	bool rx_zero_align;
};

/* What oa_tc6_probe() read (docs/tc6.md §3.2). */
struct oa_tc6_id {
	uint32_t idver; /* IDVER: the OA spec version, MAJVER 7:4, MINVER 3:0 */
	uint32_t phyid; /* PHYID: OUI 31:10, MODEL 9:4, REV 3:0 */
	uint32_t stdcap; /* STDCAP: the capabilities */
};

/**
 * oa_tc6_create() - create the framework for one MAC-PHY
 * @dev: the device (initialised with ethdrv_netdev_init()); the RX poller
 *       "rx" and the driver counters are registered on it
 * @bus: the SPI bus; copied, the caller keeps ownership and closes it after
 *       oa_tc6_destroy(); its irq_fd (or -1 to poll every @cfg->poll_us) is
 *       attached to the poller
 * @cfg: configuration
 * @ops: chip operations
 * @chip: passed to @ops
 * @out: receives the framework
 *
 * No bus traffic happens here; oa_tc6_open() brings the device up.
 *
 * Return: 0, -EINVAL (bad @cfg), -ENOMEM, or an -errno from the core.
 * Context: setup, the loop thread.
 */
int oa_tc6_create(struct ethdrv_netdev *dev, const struct ethdrv_spi_bus *bus,
		  const struct oa_tc6_config *cfg, const struct oa_tc6_chip_ops *ops, void *chip,
		  struct oa_tc6 **out);

/**
 * oa_tc6_probe() - reset the MAC-PHY and identify it, before the first open
 * @tc6: the framework
 * @id: receives IDVER, PHYID and STDCAP
 *
 * With a reset line on the bus, pulses RESET_N (10 us, the datasheet asks
 * for 5) and waits 7 ms for the boot (docs/tc6.md §5.5, §5.9). Reads IDVER,
 * PHYID, STDCAP and CONFIG0, one register per transaction so that a device
 * left in protected mode reads right too, and uses CONFIG0.PROTE from then
 * on. A bus on which nothing answers gets one log line that says what
 * MISO shows (all 0x00, all 0xFF, or a wrong echo). Applies the
 * capabilities: CONFIG0.TXFCSVE and the driver's own FCS only with
 * STDCAP.TXFCSVC, and the chunk payload must be at least STDCAP.MINBPS.
 * Logs what it found.
 *
 * Return: 0; -ENODEV when no TC6 v1.x device answers (or its STDCAP makes
 * no sense); -EOPNOTSUPP when the configured chunk payload is below the
 * device's minimum; -EIO when the bus fails; or a reset line -errno.
 * Context: setup (the chip driver's create), the loop thread.
 */
int oa_tc6_probe(struct oa_tc6 *tc6, struct oa_tc6_id *id);

/**
 * oa_tc6_hw_reset() - reset the MAC-PHY through RESET_N and wait for RESETC
 * @tc6: the framework
 *
 * The pulse and boot wait of oa_tc6_probe(), then STATUS0.RESETC is polled
 * (100 us, up to 100 ms) and cleared (docs/tc6.md §4.1 steps 1, 3-4).
 * Counted in hw_resets. Afterwards control framing is unprotected and the
 * device is not synchronised.
 *
 * Return: 0, -EOPNOTSUPP when the bus has no reset line, -ETIMEDOUT, or a
 * control error.
 * Context: setup or the chip's init op (oa_tc6_sw_reset() falls back to it).
 */
int oa_tc6_hw_reset(struct oa_tc6 *tc6);

/**
 * oa_tc6_destroy() - free the framework; the device must be stopped
 * @tc6: the framework, or NULL
 *
 * Context: teardown, the loop thread.
 */
void oa_tc6_destroy(struct oa_tc6 *tc6);

/**
 * oa_tc6_read_regs() - read @count consecutive registers in one transaction
 * @tc6: the framework
 * @mms: memory map selector
 * @addr: first address
 * @vals: receives @count values
 * @count: 1..128
 *
 * Retried up to three times on a failure (counted in ctrl_retries); the
 * echo (and in protected mode each complement) is checked
 * (docs/tc6.md §1.4-1.5). A final failure is counted in ctrl_errors and, once the device
 * is running, schedules a recovery.
 *
 * Return: 0, -EINVAL, -EIO (the bus failed) or -EPROTO (echo/complement).
 * Context: any thread; takes the bus lock.
 */
int oa_tc6_read_regs(struct oa_tc6 *tc6, unsigned mms, unsigned addr, uint32_t *vals,
		     unsigned count);

/**
 * oa_tc6_write_regs() - write @count consecutive registers in one transaction
 * @tc6: the framework
 * @mms: memory map selector
 * @addr: first address
 * @vals: @count values
 * @count: 1..128
 *
 * As oa_tc6_read_regs(); every echoed word must equal what was sent.
 *
 * Return: 0, -EINVAL, -EIO or -EPROTO.
 * Context: any thread; takes the bus lock.
 */
int oa_tc6_write_regs(struct oa_tc6 *tc6, unsigned mms, unsigned addr, const uint32_t *vals,
		      unsigned count);

/**
 * oa_tc6_lock() - take the bus lock around a change of chip settings
 * @tc6: the framework
 *
 * A recovery runs the chip's init op in the poll context (the poller thread
 * with threaded=1) and the configuration check runs its check op, both
 * with the bus lock held. A chip driver changes the settings those ops
 * program (station address, RX filter, PLCA) and writes them to the chip
 * under this lock, so an init or a check sees the old settings or the new
 * ones, never a mix. The lock is recursive: register calls inside it are
 * fine. Release it with oa_tc6_unlock().
 *
 * Context: the loop thread (the chip driver's set ops).
 */
void oa_tc6_lock(struct oa_tc6 *tc6);

/** oa_tc6_unlock() - release the bus lock taken by oa_tc6_lock(). */
void oa_tc6_unlock(struct oa_tc6 *tc6);

/**
 * oa_tc6_check_regs() - compare @count consecutive registers with @want
 * @tc6: the framework
 * @mms: memory map selector
 * @addr: first register
 * @want: expected values
 * @mask: the bits of each register to compare
 * @count: 1..4 registers
 * @diff: filled with the first register that differs
 *
 * One read transaction. For chip check ops, with the bus lock held.
 *
 * Return: 0 when all match, 1 when one differs, or -errno from the read.
 */
int oa_tc6_check_regs(struct oa_tc6 *tc6, unsigned mms, unsigned addr, const uint32_t *want,
		      const uint32_t *mask, unsigned count, struct oa_tc6_reg_diff *diff);

/** oa_tc6_read_reg() - read one register; see oa_tc6_read_regs(). */
static inline int oa_tc6_read_reg(struct oa_tc6 *tc6, unsigned mms, unsigned addr, uint32_t *val)
{
	return oa_tc6_read_regs(tc6, mms, addr, val, 1);
}

/** oa_tc6_write_reg() - write one register; see oa_tc6_write_regs(). */
static inline int oa_tc6_write_reg(struct oa_tc6 *tc6, unsigned mms, unsigned addr, uint32_t val)
{
	return oa_tc6_write_regs(tc6, mms, addr, &val, 1);
}

/**
 * oa_tc6_sw_reset() - software reset and wait for RESETC, then clear it
 * @tc6: the framework
 *
 * Writes RESET.SWRESET (in the current control framing, then unprotected if
 * that failed: after a reset PROTE is 0, docs/tc6.md §1.5), polls
 * STATUS0.RESETC every 100 us for up to 100 ms with ethdrv_poll_timeout(),
 * and clears STATUS0 (W1C) (docs/tc6.md §4.1 steps 3-4). When that fails and
 * the bus has a reset line, resets through RESET_N instead
 * (oa_tc6_hw_reset()). Control framing is unprotected afterwards and the
 * device is no longer synchronised.
 *
 * Return: 0, -ETIMEDOUT, or a control error (of the hardware reset, when
 * one was tried).
 * Context: the chip's init op.
 */
int oa_tc6_sw_reset(struct oa_tc6 *tc6);

/**
 * oa_tc6_sync() - final configuration: interrupts, CONFIG0, SYNC
 * @tc6: the framework
 * @config0_extra: chip bits for CONFIG0 (e.g. OA_TC6_CONFIG0_TXCTHRESH)
 *
 * Writes IMASK0 from the interrupt policy and IMASK1 (all unmasked but the
 * non-fatal bits), clears STATUS1, writes CONFIG0 = CPS | TXFCSVE (when the
 * probe found STDCAP.TXFCSVC) | PROTE | ZARFE, RXCTE, TXCTE as the knobs
 * rx_zero_align, rx_cut_through, tx_cut_through say |
 * @config0_extra (protected framing applies from the next transaction),
 * then sets SYNC with a separate write (docs/tc6.md §4.1 steps 5-6) and reads BUFSTS
 * for the initial credits (step 7).
 *
 * Return: 0 or a control error.
 * Context: the chip's init op.
 */
int oa_tc6_sync(struct oa_tc6 *tc6, uint32_t config0_extra);

/**
 * oa_tc6_open() - bring up: chip init, then start the poller and the IRQ
 * @tc6: the framework
 *
 * Sends one empty chunk first, as every IRQ (including the reset IRQ)
 * needs a data header to be released (docs/tc6.md §2.5).
 *
 * Return: 0 or the chip init's -errno.
 * Context: the device's open op, the loop thread.
 */
int oa_tc6_open(struct oa_tc6 *tc6);

/**
 * oa_tc6_stop() - stop the poller; drop and count queued frames
 * @tc6: the framework
 *
 * Context: the device's stop op, the loop thread.
 */
void oa_tc6_stop(struct oa_tc6 *tc6);

/**
 * oa_tc6_phy_start() - the internal PHY (oa_tc6_mdio.c, docs/mdio.md §11):
 * at the first call create its MDIO bus and probe it at address 0
 * (needs STDCAP.DPRAC); then carrier off and start its state machine,
 * whose link changes set the device's carrier
 * @tc6: the framework, after oa_tc6_open()
 *
 * Knobs through oa_tc6_set_param(): "mdio_mode", "mdio_poll_delay_us",
 * "phy_poll_ms", "phy_irq" (1: STATUS0.PHYINT unmasked, the PHY machine
 * runs when it is seen). ethdrv_netdev_phy() gives the PHY.
 *
 * Return: 0 (also without a PHY: the carrier then stays as it was), or the
 * control or PHY error.
 * Context: the device's open op, the loop thread.
 */
int oa_tc6_phy_start(struct oa_tc6 *tc6);

/** oa_tc6_phy_stop() - stop the PHY's machine (the carrier goes off). */
void oa_tc6_phy_stop(struct oa_tc6 *tc6);

/**
 * oa_tc6_start_xmit() - queue one frame for transmission
 * @tc6: the framework
 * @pkt: the frame without FCS; runts are padded to 60 bytes and, where the
 *       MAC-PHY validates it (CONFIG0.TXFCSVE after STDCAP.TXFCSVC), the FCS
 *       is appended here; otherwise the MAC appends it
 *
 * Return: ETHDRV_TX_OK (queued, or dropped and counted), or ETHDRV_TX_BUSY
 * after stopping the queue when txq_max frames are queued.
 * Context: the loop thread (start_xmit).
 */
int oa_tc6_start_xmit(struct oa_tc6 *tc6, struct ethdrv_pkt *pkt);

/**
 * oa_tc6_set_param() - set a framework knob
 * @tc6: the framework
 * @key: one of
 *   "irq_mask": comma list of STATUS0 sources to mask, all others unmasked
 *     (txpe txboe txbue rxboe lofe hdre resetc phyint ttscaa ttscab ttscac
 *     txfcse cdpe; "none" or "" unmasks all, "all" masks all; RESETC cannot
 *     be masked in hardware);
 *   "irq.<name>": "1" unmasks (enables) that source, "0" masks it;
 *   "rxboe_action": "drop" (drop the frame in flight, resync at the next
 *     SV) or "count" (only count);
 *   "rxboe_log": "1"/"0", a rate-limited log line per RX overflow;
 *   "policy": "1".."5", the five scenarios of docs/napi.md §8: 1 txpe,rxboe,lofe,hdre
 *     unmasked, drop, log; 2 as 1 without log; 3 rxboe masked, the other
 *     three unmasked; 4 all masked; 5 the four unmasked, count only, no log;
 *   "xfer_cap": chunks per transfer, 1..48;
 *   "irq_delay_us": 0..100000, a benchmark knob modelling a slow host: a
 *     poll that starts a new service episode (the previous poll completed)
 *     while IRQ_N is asserted sleeps that long before its first transfer
 *     (counters irq_delays, irq_delay_ns); 0 (default) = off;
 *   "spi_trace": a file path to trace every SPI transfer, or "off";
 *   "config_check_ms": 0..60000, the period of the configuration check
 *     (default 1000, 0 = off): CONFIG0, IMASK0 and the chip's check op are
 *     read back, and a difference seen twice in a row triggers a recovery
 *     (cause "config"; counters config_checks, config_errors);
 *   "rx_zero_align": "on"/"off", RX frames start only at word 0 of a chunk
 *     (CONFIG0.ZARFE, docs/tc6.md §2.4); default from oa_tc6_config;
 *   "rx_cut_through", "tx_cut_through": "on"/"off" (default off),
 *     CONFIG0.RXCTE and TXCTE (docs/tc6.md §5.4.1), -EOPNOTSUPP unless
 *     STDCAP.CTC; with tx_cut_through a frame is started only in a transfer
 *     that carries all of it, so the device cannot run dry.
 *   The last three are CONFIG0 fields the device takes before SYNC: set
 *   while the device runs, they take effect through a re-initialisation
 *   (a recovery, cause "user").
 * @value: the value
 *
 * Interrupt changes are written to IMASK0 at once when the device is up
 * and survive recoveries.
 *
 * Return: 0, -ENOENT (unknown key), -EINVAL (bad value), or a control or
 * file -errno.
 * Context: the loop thread.
 */
int oa_tc6_set_param(struct oa_tc6 *tc6, const char *key, const char *value);

/* The knob tables of oa_tc6_set_param() (knob.h): oa_tc6_knobs.c, oa_tc6_hooks.c. */
extern const struct ethdrv_knob_table oa_tc6_knob_table;
extern const struct ethdrv_knob_table oa_tc6_hooks_knob_table;

/**
 * oa_tc6_get_param() - read a framework knob as text
 * @tc6: the framework
 * @key: as for oa_tc6_set_param(); "policy" reads "1".."5" or "custom"
 * @buf: output
 * @size: its size
 *
 * Return: 0, -ENOENT or -ENOSPC.
 */
int oa_tc6_get_param(struct oa_tc6 *tc6, const char *key, char *buf, size_t size);

/**
 * oa_tc6_request_recovery() - reset and reconfigure the device from the
 * poll context as soon as possible (counted as cause "user")
 * @tc6: the framework
 *
 * Context: any thread.
 */
void oa_tc6_request_recovery(struct oa_tc6 *tc6);

/**
 * oa_tc6_recoveries() - recoveries completed so far (all causes)
 * @tc6: the framework
 */
uint64_t oa_tc6_recoveries(const struct oa_tc6 *tc6);

#endif /* ETHDRV_DRIVERS_OA_TC6_H */
