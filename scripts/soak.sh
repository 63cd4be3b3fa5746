#!/usr/bin/env bash
# Soak: mixed traffic on an emulated segment for M minutes while the segment
# process's memory and open fds are sampled; at the end every frame must be
# accounted for (bench/ethdrv_accounting.py) and no node's kernel may have
# seen a corrupted packet.
#
# Usage: scripts/soak.sh [--minutes M] [--nodes N] [--build DIR] [--out FILE]
#   (as root; M default 30, N 2..16 default 4, DIR holds ethdrv (default
#   build), FILE receives the samples as "t_s rss_kib hwm_kib fds" lines)
#
# Traffic (N >= 4; fewer nodes fold the roles): iperf3 TCP t1s0 -> t1s1,
# iperf3 UDP 2 Mb/s t1s2 -> t1s3, ping every 0.2 s t1s3 -> t1s0 and a
# broadcast ping from t1s1. Flat means: fds at the end = fds after warm-up,
# and the largest RSS of the second half exceeds the largest of the first
# half by at most 4 MiB (a leak of one frame per second would show).
# Runs in a private mount namespace (run_isolated in segment-lib.sh).
set -u
MINUTES=30
NODES=4
BUILD=build
OUT=
while [[ $# -gt 0 ]]; do
	case $1 in
	--minutes) MINUTES=$2; shift 2 ;;
	--nodes) NODES=$2; shift 2 ;;
	--build) BUILD=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	-h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "soak: unknown argument '$1': use --minutes, --nodes, --build, --out" >&2; exit 2 ;;
	esac
done
[[ $MINUTES =~ ^[0-9]+(\.[0-9]+)?$ && $NODES =~ ^[0-9]+$ && $NODES -ge 2 && $NODES -le 16 ]] ||
	{ echo "soak: --minutes takes a number, --nodes 2..16" >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/.." && pwd)
ETHDRV=$(cd "$BUILD" 2>/dev/null && pwd)/ethdrv
source "$TOP/tests/system/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3 nstat unshare
need_binary
run_isolated --minutes "$MINUTES" --nodes "$NODES" --build "$BUILD" ${OUT:+--out "$OUT"}

SECS=$(awk -v m="$MINUTES" 'BEGIN {printf "%d", m * 60}')
SAMPLE_S=5
TMP=$(mktemp -d /tmp/ethdrv-soak.XXXXXX)
OUT=${OUT:-$TMP/samples}
PIDS=()
SERVERS=()
cleanup() {
	local p
	for p in "${PIDS[@]}" "${SERVERS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}" "${SERVERS[@]}"; do wait "$p" 2>/dev/null; done
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT
# ASan keeps freed memory in quarantine; bound it so RSS shows leaks, not it.
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:quarantine_size_mb=16

start_segment "$NODES"
a=0 b=1 c=$((NODES > 2 ? 2 : 1)) d=$((NODES > 3 ? 3 : 0))
ip netns exec "t1s$b" iperf3 -s -p 5201 >/dev/null 2>&1 &
SERVERS+=($!)
ip netns exec "t1s$d" iperf3 -s -p 5202 >/dev/null 2>&1 &
SERVERS+=($!)
sleep 1
ip netns exec "t1s$a" iperf3 -c "$(seg_addr $b)" -p 5201 -t "$SECS" >"$TMP/tcp" 2>&1 &
PIDS+=($!)
ip netns exec "t1s$c" iperf3 -c "$(seg_addr $d)" -p 5202 -u -b 2M -t "$SECS" >"$TMP/udp" 2>&1 &
PIDS+=($!)
ip netns exec "t1s$d" ping -n -q -i 0.2 -w "$SECS" "$(seg_addr $a)" >"$TMP/ping" 2>&1 &
PIDS+=($!)
ip netns exec "t1s$b" ping -n -q -b -i 1 -w "$SECS" 169.254.10.255 >/dev/null 2>&1 &
PIDS+=($!)

echo "soak: $NODES nodes, ${MINUTES} min, segment pid $SEG_PID, samples every ${SAMPLE_S}s"
: >"$OUT"
t0=$SECONDS
while ((SECONDS - t0 < SECS)); do
	kill -0 "$SEG_PID" 2>/dev/null || fail "the segment process died"
	echo "$((SECONDS - t0)) $(proc_mem "$SEG_PID")" >>"$OUT"
	sleep "$SAMPLE_S"
done
echo "$((SECONDS - t0)) $(proc_mem "$SEG_PID")" >>"$OUT"
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
PIDS=()
sleep 3

# Memory and fds: first (after a 10 s warm-up) / last / max, and flatness.
read -r verdict summary < <(awk -v warm=10 '
	$1 >= warm { n++; t[n] = $1; r[n] = $2; f[n] = $4; if ($3 > hwm) hwm = $3 }
	END {
		if (n < 2) { print "FAIL too-few-samples"; exit }
		h = int(n / 2); m1 = 0; m2 = 0; fmax = 0
		for (i = 1; i <= n; i++) {
			if (i <= h && r[i] > m1) m1 = r[i]
			if (i > h && r[i] > m2) m2 = r[i]
			if (f[i] > fmax) fmax = f[i]
		}
		ok = (m2 <= m1 + 4096) && (f[n] == f[1])
		printf "%s rss_kib first=%d last=%d max=%d (halves %d/%d) hwm=%d fds first=%d last=%d max=%d\n",
			ok ? "OK" : "FAIL", r[1], r[n], (m1 > m2 ? m1 : m2), m1, m2, hwm, f[1], f[n], fmax
	}' "$OUT")
echo "soak: memory: $summary"
tail -n 3 "$TMP/tcp" | head -n 2
grep -E 'receiver' "$TMP/udp" | tail -n 1
grep -E 'packets transmitted' "$TMP/ping"

ok=1
[[ $verdict == OK ]] || { echo "soak: FAIL: RSS or fds not flat" >&2; ok=0; }
if ! python3 "$TOP/bench/ethdrv_accounting.py" "$NODES"; then
	echo "soak: FAIL: frames not accounted for" >&2
	ok=0
fi
no_csum_errors "$NODES"
grep -q 'receiver' "$TMP/tcp" || { echo "soak: FAIL: iperf3 TCP did not finish" >&2; ok=0; }
((ok)) || exit 1
echo "soak: PASS"
