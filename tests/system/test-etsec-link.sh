#!/usr/bin/env bash
# The two-node eTSEC link (`ethdrv segment --device emu:etsec`) carries real
# traffic: carrier on both TAPs once the command is ready and `ethdrv phy`
# showing the AR8031's gigabit link through the MII management block, ping
# both ways, short iperf3 TCP runs each way and both ways at once, the
# gianfar driver's counters (its three lines, RMON, no TX bounce copies),
# napi_split=0 (Linux 3.6's single poller) under traffic, the carrier going
# down and up with the cable (emu.link), RX exhaustion counted (BSY/RDRP),
# a pcap of both directions; an ENET link runs beside it with its own names;
# everything removed after.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3
need_binary
run_isolated "$@"

TMP=$(mktemp -d /tmp/ethdrv-tsec.XXXXXX)
ENET_PID=
cleanup() {
	[[ -n ${IPERF_PID:-} ]] && kill "$IPERF_PID" 2>/dev/null
	[[ -n $ENET_PID ]] && kill -TERM "$ENET_PID" 2>/dev/null && wait "$ENET_PID" 2>/dev/null
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT

"$ETHDRV" segment --device emu:etsec --cleanup >/dev/null 2>&1
start_etsec_link --pcap "$TMP/link.pcap"
A0=$(tsec_addr 0)
A1=$(tsec_addr 1)

# 1. carrier, the PHY behind the MIIM block, ping both ways
link_up_checks tsec
ip netns exec tsec0 ping -n -c 3 -i 0.2 -W 2 "$A1" || fail "ping tsec0 -> tsec1"
ip netns exec tsec1 ping -n -c 3 -i 0.2 -W 2 "$A0" || fail "ping tsec1 -> tsec0"

# 2. info and knobs
"$ETHDRV" info tsec0 | grep -qx "driver=gianfar" || fail "info: not the gianfar driver"
"$ETHDRV" info tsec0 | grep -qx "chip=eTSEC" || fail "info: no chip line"
[[ $("$ETHDRV" get tsec-link speed_mbps) == "speed_mbps=1000" ]] || fail "link speed"
[[ $("$ETHDRV" get tsec0 tx-frames) == "tx-frames=16" ]] || fail "gianfar's TX coalescing default"

# 3. iperf3 one way, the other, both at once; then in Linux 3.6's mode
ip netns exec tsec1 iperf3 -s -B "$A1" >/dev/null 2>&1 &
IPERF_PID=$!
sleep 0.5
for split in 1 0; do
	for k in 0 1; do "$ETHDRV" set "tsec$k" "napi_split=$split" || fail "napi_split=$split"; done
	link_iperf_dirs tsec "$A1" "napi_split=$split"
done
[[ $(ctr tsec0 gfar_polls_tx_budget) -gt 0 ]] || fail "napi_split=0 never ran the 3.6 poller"
for k in 0 1; do
	[[ $(ctr "tsec$k" gfar_tx_bounce) -eq 0 ]] || fail "tsec$k: TAP frames were copied"
	[[ $(ctr "tsec$k" gfar_irq_rx) -gt 0 && $(ctr "tsec$k" gfar_irq_tx) -gt 0 ]] ||
		fail "tsec$k: the RX and TX lines did not both fire"
	[[ $(ctr "tsec$k" rmon_tx-packets) -gt 1000 ]] || fail "tsec$k: RMON counts nothing"
	[[ $(ctr "tsec$k" rx_crc_errors) -eq 0 ]] || fail "tsec$k: CRC errors on a clean line"
done

# 4. the carrier: the cable out takes it from both TAPs and stops ping; in
# again, the PHYs autonegotiate and carrier and ping come back
link_cable_checks tsec "$A1"
link_rx_exhaust_check tsec "$A1"
ip netns exec tsec0 ping -n -q -c 2 -i 0.2 -W 2 "$A1" >/dev/null || fail "no traffic after BSY"

# 5. an ENET link beside it, each with its own names
"$ETHDRV" segment --device emu:enet >"$TMP/enet.log" 2>&1 &
ENET_PID=$!
for ((i = 0; i < 300; i++)); do
	"$ETHDRV" get link nodes >/dev/null 2>&1 && break
	sleep 0.1
done
ip netns exec enet0 ping -n -q -c 1 -W 3 "$(enet_addr 1)" >/dev/null || fail "ENET link beside"
ip netns exec tsec1 ping -n -q -c 1 -W 2 "$A0" >/dev/null || fail "eTSEC link beside ENET"
kill -TERM "$ENET_PID"
wait "$ENET_PID" 2>/dev/null
ENET_PID=
[[ -e /run/ethdrv/tsec-link.pid ]] || fail "the ENET link's exit took the eTSEC marker"

# 6. the capture: both directions, in time order
kill "$IPERF_PID"
wait "$IPERF_PID" 2>/dev/null
IPERF_PID=
stop_segment
link_pcap_check "$TMP/link.pcap" 0245544830
assert_etsec_clean
assert_enet_clean
echo PASS
