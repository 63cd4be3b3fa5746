#!/usr/bin/env bash
# Host-side abuse of a 2-node segment: oversize frames and runts written into
# the TAP (a raw AF_PACKET socket in the namespace, the TAP's MTU raised so
# the kernel lets them through), frames arriving while the receiving TAP is
# down, and a 20 s UDP flood at 1 Gb/s (100x the medium rate). Nothing may
# crash; oversize frames are dropped and counted (tx_dropped), runts are
# padded and delivered, frames for a down TAP are counted (node_tap_tx_dropped),
# the flood is held back by byte queue limits and queue caps so the segment
# process's memory stays bounded and flat (VmRSS sampled every 0.5 s), and
# afterwards every frame is accounted for and ping still works.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3 nstat unshare
need_binary
run_isolated "$@"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:quarantine_size_mb=16
TMP=$(mktemp -d /tmp/ethdrv-abuse.XXXXXX)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT

# stat NODE NAME: one counter of node NODE.
stat() {
	"$ETHDRV" stats "t1s$1" | awk -v k="$2:" '$1 == k {print $2}'
}

start_segment 2
ping_ok 0 1 || fail "no ping before the abuse"
MAC1=$(ip netns exec t1s1 cat /sys/class/net/t1s1/address)

# 1. Oversize frames and runts from a raw socket in t1s0 (to t1s1's MAC).
ip netns exec t1s0 ip link set t1s0 mtu 9000
drop0=$(stat 0 tx_dropped)
rx1=$(stat 1 emu_rx_frames)
ip netns exec t1s0 python3 - "$MAC1" <<'PY' || fail "raw socket sender failed"
import socket, sys
dst = bytes.fromhex(sys.argv[1].replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("t1s0", 0))
src = bytes.fromhex("024554480000")
def frame(n):  # n bytes without FCS, an experimental ethertype
    return (dst + src + b"\x88\xb5" + bytes(range(256)) * 40)[:n]
for n in (1519, 1600, 2000, 4000, 9000):   # beyond MTU 1500 + 14 + 4: dropped
    s.send(frame(n))
for n in (14, 20, 42, 59):                  # runts: padded to 60 by the driver
    s.send(frame(n))
PY
ip netns exec t1s0 ip link set t1s0 mtu 1500
sleep 1
oversize=$(($(stat 0 tx_dropped) - drop0))
runts=$(($(stat 1 emu_rx_frames) - rx1))
echo "oversize frames dropped and counted: $oversize of 5; runts delivered: $runts of 4"
((oversize == 5)) || fail "expected 5 oversize frames in tx_dropped, got $oversize"
((runts >= 4)) || fail "expected the 4 runts to arrive padded, got $runts frames"
kill -0 "$SEG_PID" || fail "segment died on oversize frames or runts"

# 2. Frames for a TAP that is down: dropped by the node and counted.
ip netns exec t1s1 ip link set t1s1 down
down0=$(stat 1 node_tap_tx_dropped)
ip netns exec t1s0 ping -n -q -c 20 -i 0.05 -W 1 "$(seg_addr 1)" >/dev/null 2>&1
down=$(($(stat 1 node_tap_tx_dropped) - down0))
ip netns exec t1s1 ip link set t1s1 up
echo "frames for a down TAP counted: $down (20 pings sent)"
((down >= 20)) || fail "expected >= 20 frames in node_tap_tx_dropped while down, got $down"
for i in 1 2 3 4 5; do ping_ok 0 1 && break; sleep 0.5; done
ping_ok 0 1 || fail "no ping after the TAP came back up"

# 3. A UDP flood far above the medium rate; memory sampled every 0.5 s.
ip netns exec t1s1 iperf3 -s -p 5201 >/dev/null 2>&1 &
PIDS+=($!)
sleep 1
ip netns exec t1s0 iperf3 -c "$(seg_addr 1)" -p 5201 -u -b 1G -l 1400 -t 20 >"$TMP/flood" 2>&1 &
flood=$!
: >"$TMP/mem"
t0=$SECONDS
while kill -0 "$flood" 2>/dev/null; do
	echo "$((SECONDS - t0)) $(proc_mem "$SEG_PID")" >>"$TMP/mem"
	sleep 0.5
done
wait "$flood" || { cat "$TMP/flood"; fail "iperf3 flood failed"; }
kill -0 "$SEG_PID" || fail "segment died under the flood"
grep -E 'sender|receiver' "$TMP/flood" | tail -n 2
kdrop=$(ip netns exec t1s0 ip -s link show t1s0 | awk '/TX:/ {getline; print $4}')
echo "kernel TAP queue drops on t1s0 (the driver stopped reading): $kdrop; txq stops: $(stat 0 txq_stops)"

# Bound: 32 MiB per node (2 nodes) for a plain build; AddressSanitizer's shadow
# and quarantine get 8x. Flat: the last third's peak within 4 MiB of the first's.
limit=$((2 * 32 * 1024))
is_asan_build && limit=$((limit * 8))
read -r ok summary < <(awk -v lim="$limit" '
	{ n++; r[n] = $2; if ($2 > max) max = $2; if ($3 > hwm) hwm = $3 }
	END {
		third = int(n / 3); a = 0; b = 0
		for (i = 1; i <= n; i++) {
			if (i <= third && r[i] > a) a = r[i]
			if (i > n - third && r[i] > b) b = r[i]
		}
		printf "%s samples=%d rss_kib first=%d last=%d max=%d hwm=%d first_third_max=%d last_third_max=%d limit=%d\n",
			(max <= lim && b <= a + 4096) ? "OK" : "FAIL", n, r[1], r[n], max, hwm, a, b, lim
	}' "$TMP/mem")
echo "flood memory: $summary"
[[ $ok == OK ]] || fail "memory under the flood not bounded or not flat: $summary"

# 4. Afterwards: ping, every frame accounted for, nothing corrupted.
kill "${PIDS[@]}" 2>/dev/null
wait "${PIDS[@]}" 2>/dev/null
PIDS=()
for i in 1 2 3 4 5; do ping_ok 0 1 && break; sleep 0.5; done
ping_ok 0 1 || fail "no ping after the flood"
sleep 2
python3 "$TOP/bench/ethdrv_accounting.py" 2 || fail "frames not accounted for after the abuse"
no_csum_errors 2
echo "PASS: abuse survived, drops counted, memory bounded"
