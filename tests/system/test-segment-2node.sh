#!/usr/bin/env bash
# Two nodes on one emulated segment carry real traffic: ping both ways, a
# 10 MB HTTP download (curl from python3 -m http.server) with an identical
# sha256, and iperf3 TCP in both directions with non-zero throughput.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping curl iperf3 python3 sha256sum
need_binary

TMP=$(mktemp -d /tmp/ethdrv-2node.XXXXXX)
cleanup() {
	[[ -n ${HTTP_PID:-} ]] && kill "$HTTP_PID" 2>/dev/null
	[[ -n ${IPERF_PID:-} ]] && kill "$IPERF_PID" 2>/dev/null
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT

"$ETHDRV" segment --cleanup >/dev/null 2>&1
start_segment 2 --pcap "$TMP/segment.pcap"
A0=$(seg_addr 0)
A1=$(seg_addr 1)

ip netns exec t1s0 ping -n -c 3 -i 0.2 -W 2 "$A1" || fail "ping t1s0 -> t1s1"
ip netns exec t1s1 ping -n -c 3 -i 0.2 -W 2 "$A0" || fail "ping t1s1 -> t1s0"

# 10 MB download across the segment
head -c 10485760 /dev/urandom >"$TMP/file"
ip netns exec t1s1 python3 -m http.server 8000 --bind "$A1" --directory "$TMP" \
	>/dev/null 2>&1 &
HTTP_PID=$!
for ((i = 0; i < 50; i++)); do
	ip netns exec t1s0 curl -s -o /dev/null "http://$A1:8000/" && break
	sleep 0.2
done
ip netns exec t1s0 curl -s --max-time 120 -o "$TMP/got" \
	-w 'curl: %{size_download} bytes at %{speed_download} B/s\n' "http://$A1:8000/file" ||
	fail "curl download"
want=$(sha256sum <"$TMP/file" | cut -d' ' -f1)
got=$(sha256sum <"$TMP/got" | cut -d' ' -f1)
[[ $want == "$got" ]] || fail "sha256 differs: sent $want, got $got"
echo "sha256 ok: $got"
kill "$HTTP_PID"; wait "$HTTP_PID" 2>/dev/null; HTTP_PID=

# iperf3 both directions (server on t1s1)
ip netns exec t1s1 iperf3 -s -B "$A1" >/dev/null 2>&1 &
IPERF_PID=$!
sleep 1
for dir in "" "-R"; do
	bps=$(ip netns exec t1s0 iperf3 -c "$A1" -t 5 $dir -J |
		python3 -c 'import json,sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))') ||
		fail "iperf3 $dir"
	if [[ -z $dir ]]; then echo "iperf3 t1s0 -> t1s1: $bps bit/s"; else echo "iperf3 t1s1 -> t1s0: $bps bit/s"; fi
	[[ $bps -gt 0 ]] || fail "iperf3 $dir: zero throughput"
done

# the capture has frames
[[ $(stat -c %s "$TMP/segment.pcap") -gt 100000 ]] || fail "pcap too small"
stop_segment
assert_clean
echo PASS
