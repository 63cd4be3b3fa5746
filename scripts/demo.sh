#!/usr/bin/env bash
# The ethdrv demo (`sudo make demo`): a 2-node emulated 10BASE-T1S segment,
# ping both ways, a 10 MB HTTP download across it with a sha256 check, the
# throughput against the a-priori goodput limit and the wire utilisation,
# and a ping RTT. Everything is torn down on exit. The result, with the
# machine, the date and the load average, is written to bench/results/demo.md
# (RESULTS, default bench/results; the README's demo figure is checked
# against it by tests/unit/test-readme-figures.py).
#
# Usage: scripts/demo.sh [BUILD_DIR]   (as root; BUILD_DIR holds the ethdrv binary)
#
# The drivers' loop and poller threads run at SCHED_FIFO DEMO_RT_PRIO (default
# 50, the priority Linux gives its threaded interrupt handlers; 0 = SCHED_OTHER),
# so the driver, like a kernel driver, is served before the applications. The
# figures behind that choice are in bench/results/seed000-rt/, the reasons in
# docs/design.md §4.5: the same download lost 25 frames to RX overflow at
# FIFO 50 against 143 at SCHED_OTHER, and 65 against 3561 on a busier machine.
#
# DEMO_FQ=on runs both nodes with the node's fair queue (`--set fq=on`,
# docs/fq.md); the default, off, is the segment's default (docs/fq.md §4 says
# why). The result names the setting.
#
# DEMO_PCAP=off runs the segment without its capture of every frame
# (`--pcap`); the default, on, keeps it (a temporary file, removed with the
# rest). The result names the setting.
#
# Both limits are computed, and printed with their inputs, by
# bench/ethdrv_limits.py (limits(), LIMIT_FORMULA there, run through
# bench/ethdrv_bench.py), the code the
# benchmarks use, from snapshots of the segment before and after the download
# (`ethdrv_bench.py snapshot`, then `limits`):
# - a-priori goodput limit: the MSS of the TAPs' MTU and TCP options per
#   full-size frame, the ACK frames at the ACK ratio the TCP stacks showed
#   during the download, the PLCA beacons and to-tmr silences, preamble, FCS
#   and gaps, at 10 Mb/s;
# - wire utilisation: the time the frames that crossed (ACKs and
#   retransmissions included) need on a busy segment, over the download time.
set -euo pipefail

BUILD=${1:-build}
ETHDRV=$(cd "$BUILD" && pwd)/ethdrv
TOP=$(cd "$(dirname "$0")/.." && pwd)
LIB=$TOP/tests/system/segment-lib.sh
BENCH_LIB=$TOP/bench/ethdrv_bench.py
RESULTS=${RESULTS:-$TOP/bench/results}
FILE_BYTES=10485760
DEMO_RT_PRIO=${DEMO_RT_PRIO:-50}
[[ $DEMO_RT_PRIO =~ ^[0-9]+$ && $DEMO_RT_PRIO -le 99 ]] ||
	{ echo "demo: DEMO_RT_PRIO=$DEMO_RT_PRIO: want 0 (SCHED_OTHER) or 1..99 (SCHED_FIFO)" >&2; exit 2; }
RT_ARGS=()
PRIO_TEXT="SCHED_OTHER (DEMO_RT_PRIO=0)"
if ((DEMO_RT_PRIO > 0)); then
	RT_ARGS=(--rt-prio "$DEMO_RT_PRIO")
	PRIO_TEXT="SCHED_FIFO $DEMO_RT_PRIO (--rt-prio $DEMO_RT_PRIO; DEMO_RT_PRIO=0 for SCHED_OTHER)"
fi
DEMO_FQ=${DEMO_FQ:-off}
[[ $DEMO_FQ == on || $DEMO_FQ == off ]] ||
	{ echo "demo: DEMO_FQ=$DEMO_FQ: want on or off" >&2; exit 2; }
FQ_ARGS=()
[[ $DEMO_FQ == on ]] && FQ_ARGS=(--set fq=on)
DEMO_PCAP=${DEMO_PCAP:-on}
[[ $DEMO_PCAP == on || $DEMO_PCAP == off ]] ||
	{ echo "demo: DEMO_PCAP=$DEMO_PCAP: want on or off" >&2; exit 2; }
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

LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
echo "== ethdrv segment --nodes 2 (t1s0 = $A0, t1s1 = $A1)"
"$ETHDRV" segment --cleanup >/dev/null 2>&1 || true
echo "drivers' threads: $PRIO_TEXT"
echo "node fair queue: fq=$DEMO_FQ (DEMO_FQ=on|off)"
echo "capture of every frame: DEMO_PCAP=$DEMO_PCAP"
PCAP_ARGS=()
[[ $DEMO_PCAP == on ]] && PCAP_ARGS=(--pcap "$TMP/segment.pcap")
start_segment 2 "${PCAP_ARGS[@]}" "${RT_ARGS[@]}" "${FQ_ARGS[@]}"
"$ETHDRV" get t1s0 node-id node-cnt to-tmr fq | tr '\n' ' '
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
python3 "$BENCH_LIB" snapshot 2 >"$TMP/before.json"
CURL=$(ip netns exec t1s0 curl -s --max-time 300 -o "$TMP/got" \
	-w '%{size_download} %{time_total}' "http://$A1:$PORT/file")
python3 "$BENCH_LIB" snapshot 2 >"$TMP/after.json"
SUM_SENT=$(sha256sum <"$TMP/file" | cut -d' ' -f1)
SUM_GOT=$(sha256sum <"$TMP/got" | cut -d' ' -f1)
if [[ $SUM_SENT != "$SUM_GOT" ]]; then
	echo "demo: sha256 differs: sent $SUM_SENT, got $SUM_GOT" >&2
	exit 1
fi
echo "sha256 identical: $SUM_GOT"

read -r DL_BYTES DL_SECONDS <<<"$CURL"
echo "download: $DL_BYTES bytes in $DL_SECONDS s (t1s1 sends, t1s0 receives: flow 1:0)"
LIMITS=$(python3 "$BENCH_LIB" limits "$TMP/before.json" "$TMP/after.json" "$DL_BYTES" \
	"$DL_SECONDS" 1:0)
echo "$LIMITS"
echo "ping t1s0 -> t1s1 rtt min/avg/max/mdev = $RTT"
LOAD_END=$(cut -d' ' -f1 /proc/loadavg)
mkdir -p "$RESULTS"
{
	echo "# make demo: a 10 MB download across a 2-node LAN8650 segment"
	echo
	echo "- machine: $(nproc) CPUs, Linux $(uname -r)"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- source: ethdrv $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "- command: \`sudo make demo\` (scripts/demo.sh)"
	echo "- 1-min load average: $LOAD_START at the start, $LOAD_END at the end" \
		"(a loaded machine lowers the figure)"
	echo "- drivers' loop and poller threads: $PRIO_TEXT"
	echo "- node fair queue: $("$ETHDRV" get t1s0 fq) on both nodes (DEMO_FQ=$DEMO_FQ)"
	echo "- capture of every frame (--pcap): $DEMO_PCAP (DEMO_PCAP=on|off)"
	echo
	echo "download: $DL_BYTES bytes in $DL_SECONDS s, sha256 identical"
	echo
	echo "$LIMITS" | sed 's/^/- /'
	echo "- ping t1s0 -> t1s1 rtt min/avg/max/mdev = $RTT"
} >"$RESULTS/demo.md"
echo "result: $RESULTS/demo.md"
echo "== counters: ethdrv stats t1s0 (excerpt)"
"$ETHDRV" stats t1s0 | grep -E '^ +(rx_packets|tx_packets|rx_dropped|tx_dropped|rx_over_errors):' || true
echo "== done; tearing down"
