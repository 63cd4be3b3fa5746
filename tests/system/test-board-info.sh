#!/usr/bin/env bash
# Real-board bring-up as the command sees it, on models: a segment whose
# models have no IRQ line (irq=none: the driver polls every poll_us) and B0
# silicon carries traffic; `ethdrv info` reports what the probe found, the
# SPI clock and the lines; PLCA knobs read back as the values in effect
# (to-tmr 32, never 0); silicon of an unknown revision is refused at start
# with a line that names it, and nothing is left behind.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping
need_binary
run_isolated "$@"
trap stop_segment EXIT

"$ETHDRV" segment --cleanup >/dev/null 2>&1

# Polled mode, B0: ping both ways.
start_segment 2 --device emu:lan8650,rev=B0,irq=none,poll_us=500
ping_ok 0 1 || fail "ping t1s0 -> t1s1 in polled mode"
ping_ok 1 0 || fail "ping t1s1 -> t1s0 in polled mode"

info=$("$ETHDRV" info t1s1) || fail "ethdrv info t1s1"
for want in name=t1s1 chip=LAN8650 chip_rev=B0 devid=0x00086501 oa_idver=0x11 \
	spi_hz=25000000 spi_hz_requested=25000000 poll_us=500 irq=none reset=model; do
	grep -qxF "$want" <<<"$info" || fail "info lacks '$want':"$'\n'"$info"
done
grep -qE '^oa_phyid=0x0007c1b[0-9a-f]$' <<<"$info" || fail "info: no LAN865x PHYID:"$'\n'"$info"
grep -qE '^oa_stdcap=0x0[0-9a-f]{3}$' <<<"$info" || fail "info: no STDCAP:"$'\n'"$info"

got=$("$ETHDRV" get t1s1 to-tmr burst-tmr)
[[ $got == $'to-tmr=32\nburst-tmr=128' ]] || fail "PLCA defaults read back as '$got'"
"$ETHDRV" set t1s1 to-tmr=0 || fail "set to-tmr=0"
[[ $("$ETHDRV" get t1s1 to-tmr) == "to-tmr=32" ]] || fail "to-tmr=0 did not read back as 32"
stop_segment

# The IRQ line again (the default): info says so.
start_segment 2
info=$("$ETHDRV" info t1s0) || fail "ethdrv info t1s0"
for want in chip_rev=B1 devid=0x00086502 poll_us=0 irq=model; do
	grep -qxF "$want" <<<"$info" || fail "info lacks '$want':"$'\n'"$info"
done
stop_segment

# An unknown silicon revision: refused at start, named, nothing left.
out=$(timeout 60 "$ETHDRV" segment --nodes 2 --device emu:lan8650,rev=3 2>&1)
rc=$?
[[ $rc -eq 1 ]] || fail "segment with rev=3 exited $rc, expected 1:"$'\n'"$out"
grep -q "silicon revision 3 (DEVID 0x00086503) is unknown" <<<"$out" ||
	fail "no line names the unknown revision:"$'\n'"$out"
assert_clean
echo PASS
