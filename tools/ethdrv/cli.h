/* SPDX-License-Identifier: MIT */
/*
 * Argument parsing for the ethdrv command: numbers with ranges, device
 * specs (docs/design.md §2), addresses and knob pairs. Every parser
 * prints one line naming the bad argument and the accepted values to
 * stderr and returns -EINVAL; the subcommands then exit with
 * CLI_EXIT_USAGE.
 */
#ifndef ETHDRV_TOOLS_CLI_H
#define ETHDRV_TOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ethdrv/enet_soc.h"
#include "ethdrv/knob.h"
#include "platform/linux/platform.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1 /* a run-time failure */
#define CLI_EXIT_USAGE 2 /* a bad argument */

#define CLI_RUN_DIR "/run/ethdrv" /* control sockets and the segment marker */
#define CLI_SPEC_MAX 256 /* longest device spec */
#define CLI_KNOBS_MAX 32 /* --set pairs per command */

/* What `emu:lan8650[,key=value...]` asks for. */
struct cli_emu_spec {
	uint16_t model; /* 0x8650 or 0x8651 */
	uint32_t spi_hz; /* hz=: SCLK, default 25000000 */
	uint32_t setup_ns; /* setup-ns=: per-transfer overhead, default 1000 */
	uint32_t rx_buf_chunks; /* rx-buf=: RX buffer in 64-byte blocks, default 64 */
	double mosi_ber; /* mosi-ber=: bit error rate host -> model */
	double miso_ber; /* miso-ber=: bit error rate model -> host */
	uint8_t rev; /* rev=: DEVID.REV of the model, 1 = B0, 2 = B1 (default) */
	bool irq_none; /* irq=none: no IRQ line, the driver polls */
	uint32_t poll_us; /* poll_us=: its period; 0 with the IRQ line */
	uint32_t slack_us; /* slack_us=: transfers may return this early (default 0) */
	bool sv_open_ignore; /* sv-open=ignore: an SV while a frame is open is refused too */
	bool errata_s3; /* errata-s3=1: the model reproduces errata s3 */
	bool linux_driver; /* driver=linux: Linux's lan865x runs the node (node_linux.c) */
};

#define CLI_ENET_RX_RING 1024 /* RX descriptors of an ENET node by default */
#define CLI_ENET_TX_RING 512 /* TX descriptors of an ENET node by default */

/* What `emu:enet[,key=value...]` (or emu:gbeth) asks for: two models on one line. */
struct cli_enet_spec {
	uint32_t speed_mbps; /* speed=: the line and both MACs, 1000 (default), 100 or 10 */
	uint32_t batch_us; /* batch-us=: the engine's wakeup period for events no one sees
			      at once (exact ones are never batched), 0..10000, default 200 */
	uint32_t slip_us; /* slip-us=: lateness beyond which the line's clock slips,
			     0 (never) or batch-us..1000000, default 1000 */
	int lab_cpu; /* lab-cpu=: the engine polls on this CPU; -1 (default): sleeps */
	uint32_t mmio_ns; /* mmio-ns=: cost of one register access, 0..10000, default 100 */
	double ber; /* ber=: bit error rate of both directions, 0..0.01 */
	uint32_t rx_ring; /* rx-ring=: RX descriptors per MAC, a power of two 16..4096 */
	uint32_t tx_ring; /* tx-ring=: TX descriptors per MAC, a power of two 16..4096 */
	enum ethdrv_enet_soc soc; /* soc=: the i.MX part of both MACs and drivers, default imx8m */
	uint32_t tx_fifo_bytes; /* tx-fifo=: the model's TX FIFO in bytes, 2048..65536, default
				   4096 (docs/enet.md §12) */
};

enum cli_dev_kind {
	CLI_DEV_EMU, /* a LAN8650/1 model */
	CLI_DEV_SPIDEV, /* a real board on spidev + a GPIO line */
	CLI_DEV_ENET, /* an NXP ENET model on a two-node link */
	CLI_DEV_GBETH, /* a Renesas GbEth model on a two-node link */
	CLI_DEV_ETSEC, /* a Freescale eTSEC model on a two-node link */
	CLI_DEV_KINDS /* number of kinds */
};

/* A parsed device spec. */
struct cli_device {
	enum cli_dev_kind kind; /* which backend */
	struct cli_emu_spec emu; /* CLI_DEV_EMU settings */
	struct cli_enet_spec enet; /* CLI_DEV_ENET, _GBETH and _ETSEC settings (the same keys) */
	struct ethdrv_spidev_spec spidev; /* CLI_DEV_SPIDEV settings (the platform's parser) */
	char spec[CLI_SPEC_MAX]; /* the spec as given */
};

/* A "key=value" knob, pointing into the argument it came from. */
struct cli_knob {
	const char *key; /* e.g. "napi_defer_hard_irqs" */
	const char *value; /* e.g. "2" */
};

/**
 * cli_error() - print "ethdrv CMD: MESSAGE" and a hint to stderr
 * @cmd: the subcommand ("segment")
 * @fmt: printf format of the message
 *
 * Return: -EINVAL, so a parser can "return cli_error(...)".
 */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** cli_usage() - as cli_error() but returns CLI_EXIT_USAGE, for subcommands. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * cli_parse_ulong() - parse a decimal number within [@min, @max]
 * @cmd: the subcommand, for the message
 * @what: the argument's name ("--nodes")
 * @s: the text
 * @min: smallest accepted value
 * @max: largest accepted value
 * @out: the value
 *
 * Return: 0 or -EINVAL (message printed).
 */
int cli_parse_ulong(const char *cmd, const char *what, const char *s, unsigned long min,
		    unsigned long max, unsigned long *out);

/**
 * cli_parse_device() - parse a device spec
 * @cmd: the subcommand, for the message
 * @spec: "emu:lan8650[,hz=N][,rx-buf=N][,setup-ns=N][,mosi-ber=X][,miso-ber=X]
 *        [,rev=B0|B1|N][,irq=none[,poll_us=N]][,slack_us=N][,sv-open=restart|ignore]
 *        [,errata-s3=0|1]" ("emu" alone and "emu:lan8651" too),
 *        "emu:enet[,speed=1000|100|10][,batch-us=N][,slip-us=N][,lab-cpu=N][,mmio-ns=N]
 *        [,ber=X][,rx-ring=N][,tx-ring=N]", or "spidev:/dev/spidevB.C,irq=/dev/gpiochipN:LINE|none
 *        [,poll_us=N][,reset=/dev/gpiochipN:LINE][,hz=N][,mode=M][,bias=pull-up|none]"
 * @out: the parsed spec
 *
 * spidev specs are checked with the platform parser
 * (ethdrv_spidev_spec_parse()), which logs the bad part.
 *
 * Return: 0 or -EINVAL (message names the bad part and the accepted values).
 */
int cli_parse_device(const char *cmd, const char *spec, struct cli_device *out);

/* The device-spec keys (knob.h): emu:lan8650, emu:enet, spidev:; NULL-terminated. */
extern const struct ethdrv_knob_table *const cli_spec_tables[];

/**
 * cli_parse_ipv4_prefix() - parse "A.B.C.D/P"
 * @cmd: the subcommand, for the message
 * @s: the text
 * @addr: receives "A.B.C.D" (16 bytes)
 * @prefix: receives P, 0..32
 *
 * Return: 0 or -EINVAL.
 */
int cli_parse_ipv4_prefix(const char *cmd, const char *s, char addr[16], unsigned *prefix);

/**
 * cli_parse_ifname() - check an interface name (1..15 chars, no '/', ':' or spaces)
 * @cmd: the subcommand
 * @what: the argument's name
 * @s: the name
 *
 * Return: 0 or -EINVAL.
 */
int cli_parse_ifname(const char *cmd, const char *what, const char *s);

/**
 * cli_parse_mac() - parse "aa:bb:cc:dd:ee:ff" (a unicast address)
 * @cmd: the subcommand
 * @s: the text
 * @mac: receives 6 bytes
 *
 * Return: 0 or -EINVAL.
 */
int cli_parse_mac(const char *cmd, const char *s, uint8_t mac[6]);

/**
 * cli_parse_knob() - split "key=value"
 * @cmd: the subcommand
 * @arg: the argument; a NUL is written over the '='
 * @knob: receives pointers into @arg
 *
 * Return: 0 or -EINVAL (no '=', empty key or value, or characters outside
 * [A-Za-z0-9_.:/-]).
 */
int cli_parse_knob(const char *cmd, char *arg, struct cli_knob *knob);

/**
 * cli_node_mac() - the locally administered address of segment node @index
 * @index: 0..255
 * @mac: receives 02:45:54:48:00:<index> ("ETH" in the middle bytes)
 */
void cli_node_mac(unsigned index, uint8_t mac[6]);

/**
 * cli_check_log_level() - check a --log-level value
 * @cmd: the subcommand
 * @s: "err", "warn", "info" or "debug"
 *
 * Return: 0 or -EINVAL (message printed).
 */
int cli_check_log_level(const char *cmd, const char *s);

/** cli_is_help() - true for "-h" and "--help". */
bool cli_is_help(const char *arg);

#endif /* ETHDRV_TOOLS_CLI_H */
