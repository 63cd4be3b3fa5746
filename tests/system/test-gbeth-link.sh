#!/usr/bin/env bash
# The two-node GbEth link (`ethdrv segment --device emu:gbeth`): carrier on
# both TAPs once the command is ready and `ethdrv phy` showing the PHY's
# gigabit link over the PIR bit-banged MDIO, ping both ways, short iperf3
# TCP runs each way and both ways at once, the ravb driver's counters (one
# poller, frames of several descriptors with rx-buf=256, the pre-2024 poll
# still carrying traffic), ethtool -C refused, the link down and up again
# (carrier off and back on both TAPs), a pcap of both directions, and
# everything removed after.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3
need_binary
run_isolated "$@"

TMP=$(mktemp -d /tmp/ethdrv-gbeth.XXXXXX)
cleanup() {
	[[ -n ${IPERF_PID:-} ]] && kill "$IPERF_PID" 2>/dev/null
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT

# iperf_bps ARGS: iperf_bps_ns from gbeth0 to node 1.
iperf_bps() {
	iperf_bps_ns gbeth0 "$(gbeth_addr 1)" "$1"
}

"$ETHDRV" segment --device emu:gbeth --cleanup >/dev/null 2>&1
start_gbeth_link --pcap "$TMP/link.pcap"
A0=$(gbeth_addr 0)
A1=$(gbeth_addr 1)

# 1. the carrier (the command waited for autoneg), the PHY over PIR, ping both ways
for k in 0 1; do
	wait_flags "gbeth$k" LOWER_UP NO-CARRIER 10000
	out=$("$ETHDRV" phy "gbeth$k") || fail "ethdrv phy gbeth$k"
	for want in link=up speed=1000 duplex=full; do
		[[ $'\n'$out$'\n' == *$'\n'$want$'\n'* ]] || fail "ethdrv phy gbeth$k: no $want in: $out"
	done
done
ip netns exec gbeth0 ping -n -c 3 -i 0.2 -W 2 "$A1" || fail "ping gbeth0 -> gbeth1"
ip netns exec gbeth1 ping -n -c 3 -i 0.2 -W 2 "$A0" || fail "ping gbeth1 -> gbeth0"

# 2. info and knobs: the ravb driver, no hardware coalescing
"$ETHDRV" info gbeth0 | grep -qx "driver=ravb" || fail "info: not the ravb driver"
"$ETHDRV" info gbeth0 | grep -qx "chip=GbEth" || fail "info: no chip line"
[[ $("$ETHDRV" get gbeth-link speed_mbps) == "speed_mbps=1000" ]] || fail "link speed"
"$ETHDRV" set gbeth0 rx-usecs=20 2>"$TMP/err" && fail "rx-usecs was taken: GbEth has none"
[[ $("$ETHDRV" get gbeth0 poll_mode) == "poll_mode=2024" ]] || fail "poll_mode default"
[[ $("$ETHDRV" get gbeth0 napi_defer_hard_irqs) == "napi_defer_hard_irqs=1" ]] ||
	fail "the 2024 software coalescing default"

# 3. iperf3 each way and both ways; then frames over several descriptors; then pre-2024
ip netns exec gbeth1 iperf3 -s -B "$A1" >/dev/null 2>&1 &
IPERF_PID=$!
sleep 0.5
run_iperf() {
	local dir bps b
	for dir in "" "-R" "--bidir"; do
		bps=$(iperf_bps "$dir") || fail "iperf3 $dir ($1)"
		echo "iperf3 ${dir:-forward} ($1):" $bps "bit/s"
		[[ $(wc -w <<<"$bps") -eq $([[ $dir == --bidir ]] && echo 2 || echo 1) ]] ||
			fail "iperf3 $dir ($1): no result for every direction: $bps"
		for b in $bps; do [[ $b -gt 0 ]] || fail "iperf3 $dir ($1): zero throughput"; done
	done
}
run_iperf "rx-buf page"
for k in 0 1; do "$ETHDRV" set "gbeth$k" rx-buf=256 || fail "rx-buf=256"; done
run_iperf "rx-buf 256"
[[ $(ctr gbeth1 ravb_rx_multi_desc) -gt 1000 ]] || fail "no frame over several descriptors"
for k in 0 1; do "$ETHDRV" set "gbeth$k" poll_mode=pre2024 rx-buf=pre2024 || fail "pre2024"; done
run_iperf "pre2024 poll"
for k in 0 1; do
	[[ $(ctr "gbeth$k" emu_tx_frames) -gt 1000 ]] || fail "gbeth$k: the model sent too little"
	[[ $(ctr "gbeth$k" rx_crc_errors) -eq 0 ]] || fail "gbeth$k: CRC errors on a clean line"
	[[ $(ctr "gbeth$k" emu_mdio_frames) -gt 0 ]] || fail "gbeth$k: no PIR MDIO frame"
done

# 4. the link down takes the carrier of both TAPs; up again it comes back
link_cable_checks gbeth "$A1"
# An injected descriptor-empty drop (docs/gbeth.md §12 item 11) costs its frames only.
link_rx_exhaust_check gbeth "$A1"
"$ETHDRV" set gbeth1 emu.inject=bogus 2>/dev/null && fail "emu.inject took an unknown fault"
ip netns exec gbeth0 ping -n -q -c 2 -i 0.2 -W 2 "$A1" >/dev/null || fail "no traffic after rx_exhaust"

# 5. the capture: both directions, readable; then nothing left
kill "$IPERF_PID"
wait "$IPERF_PID" 2>/dev/null
IPERF_PID=
stop_segment
python3 - "$TMP/link.pcap" <<'PY' || fail "pcap check"
import struct, sys
data = open(sys.argv[1], "rb").read()
off, srcs, n = 24, set(), 0
while off + 16 <= len(data):
    sec, nsec, incl, orig = struct.unpack_from("<IIII", data, off)
    srcs.add(data[off + 16 + 6:off + 16 + 12].hex())
    off, n = off + 16 + incl, n + 1
assert off == len(data) and n > 1000, (off, len(data), n)
assert {"024554484000", "024554484001"} <= srcs, srcs
print(f"pcap: {n} frames from {len(srcs)} senders")
PY
assert_link_clean gbeth gbeth-link
echo PASS
