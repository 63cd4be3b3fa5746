#!/usr/bin/env bash
# Run every libFuzzer binary in DIR for SECONDS each, starting from the
# committed seed corpus tests/fuzz/corpus/<name>/. New inputs go to a scratch
# copy so the committed corpus only changes on purpose. Prints one summary
# line per fuzzer (execs/s, coverage) and fails if any fuzzer finds a crash.
set -eu
dir=$1
secs=${2:-30}
top=$(cd "$(dirname "$0")/.." && pwd)
status=0
for fz in "$dir"/fuzz-*; do
	[ -x "$fz" ] || continue
	name=$(basename "$fz")
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	if [ -d "$top/tests/fuzz/corpus/$name" ]; then
		cp -r "$top/tests/fuzz/corpus/$name/." "$work/"
	fi
	log="$work/log"
	if "$fz" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$work/" \
		"$work" >"$log" 2>&1; then
		execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
		cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
		echo "fuzz: $name ok: $execs execs in ${secs}s ($((execs / secs)) execs/s), cov $cov"
	else
		echo "fuzz: $name FAILED" >&2
		tail -n 40 "$log" >&2
		status=1
	fi
	rm -rf "$work"
	trap - EXIT
done
exit $status
