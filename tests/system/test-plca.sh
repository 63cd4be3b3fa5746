#!/usr/bin/env bash
# `ethdrv plca IFNAME` prints ethtool's --get-plca-cfg and --get-plca-status
# layout for the coordinator and a follower of a running segment, `ethdrv
# plca IFNAME set ...` takes ethtool's --set-plca-cfg words and the change
# reads back (and traffic still flows), PLCA off shows Enabled: No, bad words
# and values are refused naming what is accepted, and an ENET node (no
# PLCA) is refused.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping
need_binary
run_isolated "$@"

trap stop_segment_and_link EXIT

start_segment 2
ping_ok 0 1 || fail "ping"
T=$'\t'

# Status turns on once the coordinator's beacons run (the model's PST).
for ((i = 0; i < 50; i++)); do
	"$ETHDRV" plca t1s1 | grep -q "^${T}Status: on$" && break
	sleep 0.1
done
want="PLCA settings for t1s0:
${T}Enabled: Yes
${T}local node ID: 0 (coordinator)
${T}Node count: 2
${T}TO timer: 32 BT
${T}Burst count: 0 (disabled)
${T}Burst timer: 128 BT
PLCA status of t1s0:
${T}Status: on"
got=$("$ETHDRV" plca t1s0) || fail "plca t1s0"
[[ $got == "$want" ]] || fail "plca t1s0: got
$got
want
$want"
got=$("$ETHDRV" plca t1s1) || fail "plca t1s1"
echo "$got" | grep -qx "${T}local node ID: 1 (follower)" || fail "t1s1 not a follower: $got"
echo "$got" | grep -qx "${T}Node count: 2 (ignored)" || fail "t1s1 node count: $got"
echo "$got" | grep -qx "${T}Status: on" || fail "t1s1 status: $got"

# ethtool's --set-plca-cfg words
"$ETHDRV" plca t1s0 set burst-cnt 2 burst-tmr 64 || fail "plca set burst"
got=$("$ETHDRV" plca t1s0)
echo "$got" | grep -qx "${T}Burst count: 2 (enabled)" || fail "burst-cnt: $got"
echo "$got" | grep -qx "${T}Burst timer: 64 BT" || fail "burst-tmr: $got"
[[ $("$ETHDRV" get t1s0 burst-cnt) == "burst-cnt=2" ]] || fail "knob burst-cnt"
ping_ok 1 0 || fail "ping with burst on"
"$ETHDRV" plca t1s0 set burst-cnt 0 burst-tmr 128 || fail "plca set burst back"

"$ETHDRV" plca t1s1 set enable off || fail "enable off"
"$ETHDRV" plca t1s1 | grep -qx "${T}Enabled: No" || fail "Enabled: No"
"$ETHDRV" plca t1s1 set enable on || fail "enable on"
"$ETHDRV" plca t1s1 | grep -qx "${T}Enabled: Yes" || fail "Enabled: Yes again"
ping_ok 1 0 || fail "ping after PLCA off and on"

# bad input
out=$("$ETHDRV" plca t1s0 set frobnicate 1 2>&1) && fail "unknown word accepted"
echo "$out" | grep -q "unknown word 'frobnicate': use enable, node-id" || fail "word: $out"
out=$("$ETHDRV" plca t1s0 set node-id 2>&1) && fail "missing value accepted"
echo "$out" | grep -q "node-id needs a value" || fail "missing value: $out"
out=$("$ETHDRV" plca t1s0 set node-id 300 2>&1) && fail "node-id 300 accepted"
echo "$out" | grep -q "use 0..255" || fail "node-id 300: $out"
out=$("$ETHDRV" plca t1s0 set enable maybe 2>&1) && fail "enable maybe accepted"
echo "$out" | grep -q "use on|off" || fail "enable maybe: $out"
out=$("$ETHDRV" plca t1s0 status 2>&1) && fail "unexpected argument accepted"
"$ETHDRV" plca --help | grep -q "ethtool --get-plca-cfg" || fail "plca --help"

start_link_beside
out=$("$ETHDRV" plca enet0 2>&1) && fail "plca on an ENET node"
echo "$out" | grep -q "ENOENT" || fail "plca enet0: $out"
echo "PASS"
