#!/usr/bin/env bash
# Long fuzzing runs (issue 10, part 7): each libFuzzer target for RUNS executions
# (default 10^8), starting from the committed seed corpus, with one line of
# results per target appended to a Markdown table: executions, wall time,
# executions per second, coverage (libFuzzer's "cov", edges), features, the
# corpus size reached, and the verdict. A crash fails the script and leaves
# the reproducer in the work directory it names.
#
#   scripts/fuzz-long.sh [--runs N] [--out FILE] [--jobs J] [TARGET...]
#
# Build the targets first: `make fuzz FUZZ_SECONDS=1` (build-fuzz/tests).
# Without TARGETs every build-fuzz/tests/fuzz-* binary runs, one after the
# other. --jobs J runs J targets at once (one process each).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=100000000
out="$top/bench/results/fuzz.md"
jobs=1
targets=()
while (($#)); do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	-h | --help) sed -n '2,13p' "$0"; exit 0 ;;
	-*) echo "fuzz-long: unknown option $1" >&2; exit 2 ;;
	*) targets+=("$1"); shift ;;
	esac
done
[[ $runs =~ ^[0-9]+$ ]] || { echo "fuzz-long: --runs needs a number" >&2; exit 2; }
if ((${#targets[@]} == 0)); then
	for fz in "$top"/build-fuzz/tests/fuzz-*; do
		[[ -x $fz ]] && targets+=("$(basename "$fz")")
	done
fi
((${#targets[@]})) || { echo "fuzz-long: no fuzz targets (run: make fuzz FUZZ_SECONDS=1)" >&2; exit 2; }

if [[ ! -s $out ]]; then
	{
		echo "# Long fuzzing runs"
		echo
		echo "Each libFuzzer target run once for the given number of executions from"
		echo "the committed seed corpus (\`tests/fuzz/corpus/<target>/\`), built by"
		echo "\`make fuzz\` (clang, ASan + UBSan + libFuzzer). Command per row:"
		echo "\`scripts/fuzz-long.sh --runs N TARGET\`. \`cov\` is libFuzzer's edge coverage,"
		echo "\`ft\` its feature count, \`corpus\` the inputs kept."
		echo
		echo "| target | commit | date | machine | runs | wall s | execs/s | cov | ft | corpus | result |"
		echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|"
	} >"$out"
fi

commit=$(git -C "$top" rev-parse --short HEAD)
machine="$(nproc) CPU $(uname -r)"

run_one() {
	local name=$1 fz="$top/build-fuzz/tests/$1" work log t0 t1 execs cov ft corp result
	[[ -x $fz ]] || { echo "fuzz-long: $fz missing" >&2; return 1; }
	work=$(mktemp -d "/tmp/fuzz-long-$name.XXXXXX")
	mkdir -p "$work/corpus"
	[[ -d $top/tests/fuzz/corpus/$name ]] && cp -r "$top/tests/fuzz/corpus/$name/." "$work/corpus/"
	log="$work/log"
	t0=$(date +%s)
	# -close_fd_mask=2: the target's own stderr (parsers explain every rejection)
	# goes to /dev/null; libFuzzer keeps its output on a dup (a 10^8 run of
	# fuzz-cli-args otherwise writes 25 GB of log).
	if "$fz" -runs="$runs" -print_final_stats=1 -close_fd_mask=2 -artifact_prefix="$work/" \
		"$work/corpus" >"$log" 2>&1; then
		result=ok
	else
		result="FAILED (see $work)"
	fi
	t1=$(date +%s)
	execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
	corp=$(find "$work/corpus" -type f | wc -l)
	local wall=$((t1 - t0 > 0 ? t1 - t0 : 1))
	echo "| $name | $commit | $(date -u +%F) | $machine | $execs | $wall | $((execs / wall)) | $cov | $ft | $corp | $result |" >>"$out"
	echo "fuzz-long: $name: $execs execs in ${wall}s, cov $cov: $result"
	[[ $result == ok ]] && rm -rf "$work"
	[[ $result == ok ]]
}

status=0
pids=()
for t in "${targets[@]}"; do
	run_one "$t" &
	pids+=($!)
	if ((${#pids[@]} >= jobs)); then
		wait "${pids[0]}" || status=1
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
