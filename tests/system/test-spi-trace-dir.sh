#!/usr/bin/env bash
# SPI traces chosen over the control socket are confined to the directory
# given at start (--trace-dir, tools/ethdrv/trace_dir.h): without it a
# run-time spi_trace is refused; with it only plain names inside it are
# opened, never through a symbolic or hard link, and nothing outside it is
# written. The start option --spi-trace FILE keeps working unconfined.
set -u
ETHDRV=${1:-build}/ethdrv
SRC=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping
need_binary
TMP=$(mktemp -d /tmp/ethdrv-tracedir.XXXXXX)
cleanup() {
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT
"$ETHDRV" segment --cleanup >/dev/null 2>&1

# expect_refused NAME ERRNO: `set t1s0 spi_trace=NAME` fails with ERRNO.
expect_refused() {
	local out
	out=$("$ETHDRV" set t1s0 "spi_trace=$1" 2>&1) && fail "spi_trace=$1 accepted"
	[[ $out == *"error $2: set spi_trace=$1: "* ]] || fail "spi_trace=$1: unexpected: $out"
	echo "refused as it must be: $out"
}

# 1. No --trace-dir: every run-time trace is refused, nothing is created.
start_segment 2
expect_refused x.trace EPERM
expect_refused "$TMP/evil" EPERM
[[ ! -e $TMP/evil ]] || fail "a refused trace created $TMP/evil"
[[ $("$ETHDRV" get t1s0 spi_trace) == "spi_trace=off" ]] || fail "trace on after a refusal"
stop_segment

# 2. --trace-dir DIR, and --spi-trace at start as before.
out=$("$ETHDRV" segment --nodes 2 --trace-dir "$TMP/traces" 2>&1) &&
	fail "segment started with a missing --trace-dir"
[[ $out == *"--trace-dir $TMP/traces: "* ]] || fail "missing --trace-dir: unexpected: $out"
assert_clean
mkdir "$TMP/traces"
echo secret >"$TMP/outside"
start_segment 2 --trace-dir "$TMP/traces" --spi-trace "$TMP/start"
ping_ok 0 1 || fail "ping"
[[ -s $TMP/start.t1s0 ]] || fail "--spi-trace FILE at start wrote nothing"
# From the first transfer: the probe's read of IDVER (MMS 0, address 0,
# one register: header 0x00000001) is line 1 (docs/spi-trace.md §1).
[[ $(head -n 1 "$TMP/start.t1s0" | cut -d' ' -f2) == 00000001* ]] ||
	fail "the start trace does not begin with the probe's IDVER read"
"$ETHDRV" set t1s0 spi_trace=run.trace || fail "a plain name in the trace directory refused"
ping_ok 0 1 || fail "ping while tracing"
"$ETHDRV" set t1s0 spi_trace=off || fail "spi_trace=off"
grep -Eq '^[0-9]+ [0-9a-f]+ [0-9a-f]+$' "$TMP/traces/run.trace" ||
	fail "no transfer lines in the run-time trace"
[[ $(stat -c %a "$TMP/traces/run.trace") == 600 ]] || fail "trace file is not 0600"
# A NAME ending in .pcapng is pcapng, for the TC6 dissector (docs/spi-trace.md §3).
"$ETHDRV" set t1s0 spi_trace=run.pcapng || fail "spi_trace=run.pcapng"
ping_ok 0 1 || fail "ping while tracing pcapng"
"$ETHDRV" set t1s0 spi_trace=off || fail "spi_trace=off (pcapng)"
if command -v tshark >/dev/null; then
	out=$(tshark -X "lua_script:$SRC/tools/wireshark/tc6.lua" -r "$TMP/traces/run.pcapng" \
		-Y 'tc6.kind == "data"' -T fields -e frame.interface_name -e tc6.node 2>/dev/null |
		head -n 1)
	[[ $out == $'t1s0\t0' ]] || fail "run-time pcapng trace: '$out'"
fi
expect_refused ../escape EACCES
expect_refused "$TMP/outside" EACCES
expect_refused .. EACCES
ln -s "$TMP/outside" "$TMP/traces/link"
expect_refused link ELOOP
ln -s ../made-through-link "$TMP/traces/dangling"
expect_refused dangling ELOOP
ln "$TMP/outside" "$TMP/traces/hard"
expect_refused hard EACCES
[[ ! -e $TMP/escape && ! -e $TMP/made-through-link ]] || fail "a file was created outside"
[[ $(cat "$TMP/outside") == secret ]] || fail "the file outside the directory was written"
[[ $("$ETHDRV" get t1s0 spi_trace) == "spi_trace=off" ]] || fail "trace on after refusals"
ping_ok 1 0 || fail "ping at the end"
stop_segment
assert_clean
echo PASS
