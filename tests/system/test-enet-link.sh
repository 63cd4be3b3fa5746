#!/usr/bin/env bash
# The two-node ENET link (`ethdrv segment --device emu:enet`) carries real
# traffic: carrier on both TAPs once the command is ready and `ethdrv phy`
# showing the AR8031's gigabit link, ping both ways, short iperf3 TCP runs
# each way and both ways at once (--bidir), with the TAP offloads (TSO, GRO)
# and without them, sane stats and info (the fec
# driver, the model's "emu" group, the MIB, no TX bounce copies: TAP frames
# come from the device's pool), the link faults (emu.link takes the carrier
# of both TAPs and gives it back after autoneg; emu.inject), the
# books balanced per hop (bench/enet_accounting.py), a pcap of both
# directions; a LAN8650 segment runs beside it; everything removed after.
set -u
ETHDRV=${1:-build}/ethdrv
SRC=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3 tcpdump
need_binary
run_isolated "$@"

TMP=$(mktemp -d /tmp/ethdrv-enet.XXXXXX)
SEG2_PID=
cleanup() {
	[[ -n ${IPERF_PID:-} ]] && kill "$IPERF_PID" 2>/dev/null
	[[ -n $SEG2_PID ]] && kill -TERM "$SEG2_PID" 2>/dev/null && wait "$SEG2_PID" 2>/dev/null
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT

"$ETHDRV" segment --device emu:enet --cleanup >/dev/null 2>&1
start_enet_link --pcap "$TMP/link.pcap"
A0=$(enet_addr 0)
A1=$(enet_addr 1)

# 1. the carrier (the command waited for autoneg), the PHY, ping both ways
link_up_checks enet
ip netns exec enet0 ping -n -c 3 -i 0.2 -W 2 "$A1" || fail "ping enet0 -> enet1"
ip netns exec enet1 ping -n -c 3 -i 0.2 -W 2 "$A0" || fail "ping enet1 -> enet0"

# 2. info and knobs
"$ETHDRV" info enet0 | grep -qx "driver=fec" || fail "info: not the fec driver"
"$ETHDRV" info enet0 | grep -qx "chip=ENET" || fail "info: no chip line"
[[ $("$ETHDRV" get enet1 tap_tso tap_gro) == $'tap_tso=on\ntap_gro=on' ]] || fail "offloads not on"
[[ $("$ETHDRV" get link speed_mbps) == "speed_mbps=1000" ]] || fail "link speed"
# A value inside the knob's range refused by a rule between knobs says so and
# gives the rule (fec: rx-usecs=0 only with rx-frames=1), not the range.
out=$("$ETHDRV" set enet1 rx-frames=200 rx-usecs=0 2>&1) && fail "rx-usecs=0 with 200 frames taken"
grep -q "refused with the current settings (the knob takes 0..33556 us): .*0 needs rx-frames=1" <<<"$out" ||
	fail "the combination refusal does not name its rule: $out"
"$ETHDRV" set enet1 rx-frames=1 rx-usecs=0 || fail "rx-frames=1 rx-usecs=0 refused"
"$ETHDRV" set enet1 rx-usecs=1000 rx-frames=200 || fail "fec's defaults back"

# 3. iperf3 both ways, with the offloads, then without
ip netns exec enet1 iperf3 -s -B "$A1" >/dev/null 2>&1 &
IPERF_PID=$!
sleep 0.5
for offload in on off; do
	for k in 0 1; do "$ETHDRV" set "enet$k" "tap_tso=$offload" "tap_gro=$offload" ||
		fail "tap_tso/tap_gro=$offload"; done
	link_iperf_dirs enet "$A1" "offloads $offload"
done
for k in 0 1; do "$ETHDRV" set "enet$k" tap_tso=on tap_gro=on || fail "offloads back on"; done
[[ $(ctr enet1 node_tap_rx_tso) -gt 0 ]] || fail "no TSO frame was cut"
[[ $(ctr enet0 node_tap_tx_gro) -gt 0 ]] || fail "no segment was coalesced"
for k in 0 1; do
	[[ $(ctr "enet$k" fec_tx_bounce) -eq 0 ]] || fail "enet$k: TAP frames were copied (tx_bounce)"
	[[ $(ctr "enet$k" emu_tx_frames) -gt 1000 ]] || fail "enet$k: the model sent too little"
	[[ $(ctr "enet$k" mib_ieee_t_frame_ok) -gt 1000 ]] || fail "enet$k: MIB counts nothing"
	[[ $(ctr "enet$k" rx_crc_errors) -eq 0 ]] || fail "enet$k: CRC errors on a clean line"
done

# 4. the books balance per hop
python3 "$SRC/bench/enet_accounting.py" || fail "the accounting does not balance"

# 5. faults: the link down takes the carrier of both TAPs and stops ping;
# up again, the PHYs autonegotiate (3 s) and the carrier and ping come back;
# RX exhaustion is counted
link_cable_checks enet "$A1"
link_rx_exhaust_check enet "$A1"
"$ETHDRV" set enet0 emu.inject=bogus 2>/dev/null && fail "a bad fault name was taken"
python3 "$SRC/bench/enet_accounting.py" || fail "the accounting does not balance after faults"

# 6. a LAN8650 segment at the same time, with its own names
"$ETHDRV" segment --nodes 2 >"$TMP/seg.log" 2>&1 &
SEG2_PID=$!
for ((i = 0; i < 300; i++)); do
	"$ETHDRV" get segment nodes >/dev/null 2>&1 && break
	sleep 0.1
done
ping_ok 0 1 || fail "LAN8650 segment beside the ENET link"
ip netns exec enet1 ping -n -q -c 1 -W 2 "$A0" >/dev/null || fail "ENET link beside the segment"
kill -TERM "$SEG2_PID"
wait "$SEG2_PID" 2>/dev/null
SEG2_PID=
assert_clean_t1s() {
	[[ -z $(ls /run/netns 2>/dev/null | grep -E '^t1s[0-9]+$') ]] || fail "t1s namespaces left"
	[[ ! -e /run/ethdrv/segment.pid ]] || fail "segment marker left"
}
assert_clean_t1s
[[ -e /run/ethdrv/link.pid ]] || fail "the LAN8650 segment's exit took the ENET marker"

# 7. the capture: both directions, readable
kill "$IPERF_PID"
wait "$IPERF_PID" 2>/dev/null
IPERF_PID=
stop_segment
link_pcap_check "$TMP/link.pcap" 0245544820
if command -v tcpdump >/dev/null 2>&1; then
	tcpdump -nn -r "$TMP/link.pcap" 'icmp[icmptype] == icmp-echoreply' 2>/dev/null |
		grep -q "$A1 > $A0" || fail "tcpdump -r: no echo reply from enet1 in the capture"
fi
assert_enet_clean
assert_clean
echo PASS
