#!/usr/bin/env bash
# The 2-minute soak (scripts/soak.sh --minutes 2 --nodes 4): iperf3 TCP, iperf3
# UDP and pings on 4 nodes; the segment process's RSS and open fds must stay
# flat, every frame must be accounted for and no packet may arrive corrupted.
set -u
BUILD=${1:-build}
ETHDRV=$BUILD/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3 nstat unshare
need_binary
exec "$(dirname "$0")/../../scripts/soak.sh" --minutes "${SOAK_MINUTES:-2}" --nodes 4 --build "$BUILD"
