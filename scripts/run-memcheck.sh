#!/usr/bin/env bash
# Run the driver + model tests (tests/drivers) and the core unit tests
# (tests/unit) of a build without sanitizers under valgrind memcheck: any
# invalid access, use of uninitialised memory or leak fails the run. Prints
# one line per program and a summary; exits 1 if any program failed.
#
# Usage: scripts/run-memcheck.sh BUILD_DIR   (make memcheck builds build-memcheck/)
set -u
dir=${1:-build-memcheck}/tests
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed" >&2; exit 1; }
status=0 n=0
# Linux's driver on the model (linux-shim/) when its source was there (docs/linux-driver.md).
linux_tests=()
if [[ -f ${1:-build-memcheck}/linux-src/SOURCE ]]; then
	linux_tests=("$top"/linux-shim/tests/test-*.c)
else
	echo "memcheck: the Linux driver is not built: its tests are skipped"
fi
for src in "$top"/tests/drivers/test-*.c "$top"/tests/unit/test-*.c "${linux_tests[@]}"; do
	name=$(basename "$src" .c)
	d=$dir
	[[ $src == "$top"/linux-shim/* ]] && d=${1:-build-memcheck}/linux-shim
	[[ -x $d/$name ]] || { echo "memcheck: $name not built in $d" >&2; status=1; continue; }
	log=$(mktemp)
	t0=$SECONDS
	if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--track-origins=yes "$d/$name" >"$log" 2>&1; then
		echo "memcheck: $name ok ($((SECONDS - t0)) s)"
	else
		echo "memcheck: $name FAILED ($((SECONDS - t0)) s)" >&2
		grep -E '^==[0-9]+==|FAILED|ERROR' "$log" | head -n 40 >&2
		status=1
	fi
	rm -f "$log"
	n=$((n + 1))
done
echo "memcheck: $n programs, $([[ $status == 0 ]] && echo 'no errors, no leaks' || echo FAILED)"
exit $status
