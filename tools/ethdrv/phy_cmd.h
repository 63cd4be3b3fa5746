/* SPDX-License-Identifier: MIT */
/*
 * The `phy` request of the control socket (tools/ethdrv/phy.c): its words,
 * parsed the same way by the client (`ethdrv phy`) and by the node that
 * serves it on the device's PHY.
 */
#ifndef ETHDRV_TOOLS_PHY_CMD_H
#define ETHDRV_TOOLS_PHY_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "ctl.h"

struct ethdrv_netdev;

enum phy_req_op {
	PHY_REQ_SHOW, /* no words: link, speed, duplex, ID, driver, state */
	PHY_REQ_READ, /* read REG */
	PHY_REQ_WRITE, /* write REG VAL */
	PHY_REQ_C45_READ, /* c45 read MMD REG */
	PHY_REQ_C45_WRITE, /* c45 write MMD REG VAL */
};

struct phy_req {
	enum phy_req_op op; /* what */
	unsigned mmd; /* MMD 0..31 (c45) */
	unsigned reg; /* register: 0..31, or 0..0xffff for c45 */
	uint16_t val; /* value to write */
};

/**
 * phy_req_parse() - parse the words after "phy"
 * @argc: word count (0: show)
 * @argv: the words
 * @req: the request
 * @err: receives a one-line reason on failure
 * @errlen: its size
 *
 * Return: 0 or -EINVAL.
 */
int phy_req_parse(int argc, char **argv, struct phy_req *req, char *err, size_t errlen);

/**
 * phy_ctl_serve() - answer a `phy ...` request on @dev's PHY
 * @dev: the device
 * @argc: words after "phy"
 * @argv: those words
 * @r: receives "ok\n..." or "error NAME: ...\n" (ENODEV: no PHY, EINVAL:
 *     bad words, ETIMEDOUT: the MDIO frame did not complete)
 *
 * Return: 0 or the -errno also named in @r.
 * Context: the loop thread of @dev.
 */
int phy_ctl_serve(struct ethdrv_netdev *dev, int argc, char **argv, struct ctl_reply *r);

#endif /* ETHDRV_TOOLS_PHY_CMD_H */
