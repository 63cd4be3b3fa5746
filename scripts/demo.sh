#!/usr/bin/env bash
# The ethdrv demo (`sudo make demo`): a 2-node emulated 10BASE-T1S segment,
# ping both ways, a 10 MB HTTP download across it with a sha256 check, the
# throughput against the medium limit computed from what crossed the wire,
# and a ping RTT. Everything is torn down on exit.
#
# Usage: scripts/demo.sh [BUILD_DIR]   (as root; BUILD_DIR holds the ethdrv binary)
#
# The medium limit (printed with its inputs) is computed from what crossed
# the wire during the download by bench/ethdrv_bench.py (medium_limit(),
# LIMIT_FORMULA there): preamble+SFD, frame+FCS, IFG of every frame plus the
# PLCA beacons and to-tmr silences a perfectly busy segment would pay; the
# limit is file_bytes / (those bits / 10 Mb/s). One formula for the demo and
# the benchmarks.
set -euo pipefail

BUILD=${1:-build}
ETHDRV=$(cd "$BUILD" && pwd)/ethdrv
TOP=$(cd "$(dirname "$0")/.." && pwd)
LIB=$TOP/tests/system/segment-lib.sh
BENCH_LIB=$TOP/bench/ethdrv_bench.py
FILE_BYTES=10485760
PORT=8000

# shellcheck source=../tests/system/segment-lib.sh
source "$LIB"
[[ $(id -u) -eq 0 ]] || { echo "demo: needs root (namespaces, TAPs): run sudo make demo" >&2; exit 1; }
need_binary
for t in ip ping curl python3 sha256sum; do
	command -v "$t" >/dev/null || { echo "demo: $t is missing (scripts/install-deps.sh)" >&2; exit 1; }
done

TMP=$(mktemp -d /tmp/ethdrv-demo.XXXXXX)
HTTP_PID=
cleanup() {
	set +e
	[[ -n $HTTP_PID ]] && kill "$HTTP_PID" 2>/dev/null && wait "$HTTP_PID" 2>/dev/null
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

A0=$(seg_addr 0)
A1=$(seg_addr 1)

echo "== ethdrv segment --nodes 2 (t1s0 = $A0, t1s1 = $A1)"
"$ETHDRV" segment --cleanup >/dev/null 2>&1 || true
start_segment 2 --pcap "$TMP/segment.pcap"
"$ETHDRV" get t1s0 node-id node-cnt to-tmr | tr '\n' ' '
echo

echo "== ping both ways"
ip netns exec t1s0 ping -n -q -c 3 -i 0.2 -W 2 "$A1" | tail -1
ip netns exec t1s1 ping -n -q -c 3 -i 0.2 -W 2 "$A0" | tail -1
RTT=$(ip netns exec t1s0 ping -n -q -c 20 -i 0.05 -W 2 "$A1" | sed -n 's/^rtt [^=]*= //p')

echo "== 10 MB HTTP download: python3 -m http.server in t1s1, curl in t1s0"
head -c "$FILE_BYTES" /dev/urandom >"$TMP/file"
ip netns exec t1s1 python3 -m http.server "$PORT" --bind "$A1" --directory "$TMP" \
	>/dev/null 2>&1 &
HTTP_PID=$!
for ((i = 0; i < 50; i++)); do
	ip netns exec t1s0 curl -s -o /dev/null "http://$A1:$PORT/" && break
	sleep 0.2
done
"$ETHDRV" stats segment --json >"$TMP/before.json"
"$ETHDRV" stats t1s0 --json >"$TMP/t1s0-before.json"
CURL=$(ip netns exec t1s0 curl -s --max-time 300 -o "$TMP/got" \
	-w '%{size_download} %{time_total} %{speed_download}' "http://$A1:$PORT/file")
"$ETHDRV" stats segment --json >"$TMP/after.json"
"$ETHDRV" stats t1s0 --json >"$TMP/t1s0-after.json"
SUM_SENT=$(sha256sum <"$TMP/file" | cut -d' ' -f1)
SUM_GOT=$(sha256sum <"$TMP/got" | cut -d' ' -f1)
if [[ $SUM_SENT != "$SUM_GOT" ]]; then
	echo "demo: sha256 differs: sent $SUM_SENT, got $SUM_GOT" >&2
	exit 1
fi
echo "sha256 identical: $SUM_GOT"

TO_TMR=$("$ETHDRV" get t1s0 to-tmr | cut -d= -f2)
# The driver reports the configured value; 0 means the default 32 bit times
# (lan865x.h struct lan865x_plca, the PLCA TOTMR reset value).
[[ $TO_TMR -eq 0 ]] && TO_TMR=32
BEACON_BT=$("$ETHDRV" get segment beacon_bt | cut -d= -f2)

LIMIT=$(python3 "$BENCH_LIB" limit "$TMP/before.json" "$TMP/after.json" "$FILE_BYTES" \
	"$TO_TMR" "$BEACON_BT")
grep -v '^limit_Bps=' <<<"$LIMIT"
python3 - "$CURL" "$(sed -n 's/^limit_Bps=//p' <<<"$LIMIT")" "$RTT" <<'PY'
import sys
size, t_total, speed = (float(x) for x in sys.argv[1].split())
limit, rtt = float(sys.argv[2]), sys.argv[3]
print(f"download: {int(size)} bytes in {t_total:.2f} s = {speed / 1024:.1f} KiB/s "
      f"= {100 * speed / limit:.1f} % of the medium limit")
print(f"ping t1s0 -> t1s1 rtt min/avg/max/mdev = {rtt}")
PY
echo "== counters: ethdrv stats t1s0 (excerpt)"
"$ETHDRV" stats t1s0 | grep -E '^ +(rx_packets|tx_packets|rx_dropped|tx_dropped|rx_over_errors):' || true
echo "== done; tearing down"
