#!/usr/bin/env bash
# Eight nodes on one PLCA segment: every node pings every other node once.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping
need_binary
trap stop_segment EXIT

N=8
"$ETHDRV" segment --cleanup >/dev/null 2>&1
start_segment $N
bad=0
for ((a = 0; a < N; a++)); do
	for ((b = 0; b < N; b++)); do
		((a == b)) && continue
		if ! ping_ok $a $b; then
			echo "FAIL: t1s$a -> t1s$b"
			bad=$((bad + 1))
		fi
	done
done
"$ETHDRV" stats segment | grep -E ' (beacons|collisions|port[0-9]_frames):'
[[ $bad -eq 0 ]] || fail "$bad of $((N * (N - 1))) pings failed"
echo "all $((N * (N - 1))) pings answered"
stop_segment
assert_clean
echo PASS
