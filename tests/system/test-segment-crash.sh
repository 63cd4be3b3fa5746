#!/usr/bin/env bash
# A segment killed with SIGKILL leaves namespaces, sockets and its marker;
# `ethdrv segment --cleanup` removes them, and so does a plain re-run.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping
need_binary
trap stop_segment EXIT

"$ETHDRV" segment --cleanup >/dev/null 2>&1

# 1. SIGKILL, then --cleanup
start_segment 3
ping_ok 0 2 || fail "ping before the crash"
kill -KILL "$SEG_PID"; wait "$SEG_PID" 2>/dev/null; SEG_PID=
[[ -e /run/netns/t1s0 && -e /run/ethdrv/segment.pid ]] || fail "SIGKILL left nothing to clean?"
# a second segment must refuse nothing now (the owner is dead) but a live one is refused:
"$ETHDRV" segment --cleanup || fail "--cleanup failed"
assert_clean
echo "ok: --cleanup after SIGKILL"

# 2. SIGKILL, then a re-run cleans up by itself and works
start_segment 2
kill -KILL "$SEG_PID"; wait "$SEG_PID" 2>/dev/null; SEG_PID=
start_segment 2
ping_ok 0 1 || fail "ping after a re-run"
# 3. a second segment while one runs is refused and touches nothing
out=$("$ETHDRV" segment --nodes 2 2>&1) && fail "a second segment started: $out"
echo "$out" | grep -q "in use by a live segment" || fail "unexpected message: $out"
"$ETHDRV" segment --cleanup 2>&1 | grep -q "is running" || fail "--cleanup of a live segment"
ping_ok 1 0 || fail "the live segment was disturbed"
stop_segment
assert_clean
echo "ok: re-run after SIGKILL"
echo PASS
