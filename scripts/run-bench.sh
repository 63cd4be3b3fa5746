#!/usr/bin/env bash
# Run the micro-benchmarks from BUILD_DIR and write their tables under
# bench/results/. The exact command is recorded with each table.
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$build/bench/bench-napi" --md bench/results/napi.md

# bench-tc6 prints one key=value line per frame size; keep them verbatim.
out=bench/results/tc6.md
cmd="$build/bench/bench-tc6 --seconds 5"
{
	echo "# bench-tc6: LAN8650 driver + model, 2 nodes, real time, one sender"
	echo
	echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, Linux $(uname -r)"
	echo "- date: $(date -u)"
	echo "- command: \`$cmd\`"
	echo
	echo '```'
	$cmd
	echo '```'
} >"$out"
cat "$out"
