#!/usr/bin/env bash
# The short fault campaign (bench/faults.py --short): a 2 MB download across
# a 2-node segment under SPI bit errors (MOSI and MISO, BER 1e-5), RX
# overflow storms, loss of frame, a MAC-PHY reset every second and silent
# register upsets (found by the driver's configuration check). Each
# download must complete with the same sha256, no node's kernel may see a
# corrupted packet, and every frame must be accounted for (sent = received
# + drops by reason, per node and per hop: bench/ethdrv_accounting.py).
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip curl python3 nstat unshare sha256sum
need_binary
run_isolated "$@"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:quarantine_size_mb=16

out=$(ETHDRV_BIN=$ETHDRV python3 "$TOP/bench/faults.py" --short --no-write --max-time 60 2>&1)
rc=$?
echo "$out"
((rc == 0)) || fail "fault campaign: a download differs, a packet was corrupted or frames are unaccounted"
# Every run must have completed its download (the short faults are survivable).
grep -q '| partial' <<<"$out" && fail "a download did not complete within 60 s"
n=$(grep -cE '^\| (mosi|miso|rx-overflow|loss|reset|config-upset).*\| OK \|$' <<<"$out")
((n == 6)) || fail "expected 6 fault runs with verdict OK, got $n"
echo "PASS: 6 faults survived, sha256 identical, every frame accounted for"
