#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Wireshark TC6 dissector (tools/wireshark/tc6.lua) under Debian's
# tshark, on the committed trace (tests/data/tc6-trace.pcapng, one MISO bit
# flipped) and on a live one the current build writes (test-spi-pcapng):
# the first packet is the probe's IDVER read, registers are named (standard
# and LAN865x), data headers and footers decode, the flipped footer is
# flagged as a parity error, the Ethernet frames of both directions are
# reassembled from chunks across transfers and decoded by the eth dissector,
# and two passes (-2) give what one pass gives. No root.
#
# usage: test-tc6-dissector.sh TEST_SPI_PCAPNG_BINARY SOURCE_DIR
set -u
BIN=$1
SRC=$2
LUA=$SRC/tools/wireshark/tc6.lua
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed (make check installs it)"; exit 77; }
TMP=$(mktemp -d /tmp/ethdrv-tc6-dissector.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

ts() { # ts FILE ARGS...: tshark with the dissector, fields separated by tabs
	local f=$1
	shift
	tshark -X "lua_script:$LUA" -r "$f" "$@" 2>"$TMP/err" || { cat "$TMP/err" >&2; return 1; }
	if grep -qi "lua: error\|Lua: Error" "$TMP/err"; then
		cat "$TMP/err" >&2
		return 1
	fi
}

check() { # check FILE RX_FRAMES PARITY_ERRORS
	local f=$1 rx_want=$2 parity_want=$3 out
	out=$(ts "$f" -Y frame.number==1 -T fields -e tc6.kind -e tc6.ctrl.wnr -e tc6.ctrl.reg \
		-e tc6.ctrl.value -e tc6.ctrl.echo_ok) || fail "$f: tshark"
	[[ $out == $'control\t0\tIDVER\t0x00000011\t1' ]] ||
		fail "$f: first packet is not the probe's IDVER read: '$out'"
	out=$(ts "$f" -T fields -e tc6.ctrl.reg | sort -u | tr '\n' ' ')
	for r in PHYID STDCAP CONFIG0 STATUS0 IMASK0 DEVID "PLCA CTRL1" "MAC NCR" "PHY BMSR"; do
		[[ " $out " == *" $r "* ]] || fail "$f: register $r not named (got: $out)"
	done
	out=$(ts "$f" -Y 'tc6.kind == "data" and tc6.rx.dv == 1' -T fields -e tc6.rx.sync | head -1)
	[[ $out == 1* ]] || fail "$f: no data footer with DV and SYNC decoded: '$out'"
	out=$(ts "$f" -Y 'tc6.tx.sv == 1 and tc6.tx.ev == 1' -T fields -e tc6.tx.ebo | head -1)
	[[ -n $out ]] || fail "$f: no TX chunk with a frame start and end decoded"
	out=$(ts "$f" -Y tc6.parity_error -T fields -e frame.number | wc -l)
	[[ $out == "$parity_want" ]] || fail "$f: $out packets with parity errors, want $parity_want"
	# Reassembled frames, handed to the eth dissector: src MAC tells the direction.
	ts "$f" -Y eth -T fields -e tc6.frame.dir -e eth.src -e eth.type -e tc6.frame.len \
		-e tc6.frame.start -e frame.number >"$TMP/frames" || fail "$f: tshark"
	out=$(python3 - "$TMP/frames" <<'PY'
import sys
tx = rx = across = 0
for line in open(sys.argv[1]):
    d, src, typ, ln, start, num = (c.split(",") for c in line.rstrip("\n").split("\t"))
    for i, dd in enumerate(d):
        assert typ[i] == "0x88b5", typ
        if dd == "TX":
            assert src[i] == "02:00:00:00:00:01", src
            tx += 1
        else:
            assert src[i] == "02:00:00:00:00:02", src
            rx += 1
        across += start[i] != num[0]
print(tx, rx, across)
PY
) || fail "$f: reassembled frames: $(cat "$TMP/frames")"
	read -r tx rx across <<<"$out"
	[[ $tx == 7 && $rx == "$rx_want" ]] || fail "$f: $tx TX and $rx RX frames, want 7 and $rx_want"
	((across > 0)) || fail "$f: no frame reassembled across transfers"
	out=$(ts "$f" -Y 'tc6.frame.len == 1518' -T fields -e eth.type | head -1)
	[[ $out == *0x88b5* ]] || fail "$f: no 1518-byte frame reassembled"
	# Two passes give what one gives.
	a=$(ts "$f" -T fields -e frame.number -e tc6.frame.dir -e eth.src -e tc6.frame.len | md5sum)
	b=$(ts "$f" -2 -T fields -e frame.number -e tc6.frame.dir -e eth.src -e tc6.frame.len |
		md5sum)
	[[ $a == "$b" ]] || fail "$f: two passes differ from one"
	echo "$f: IDVER first, registers named, $tx TX + $rx RX frames ($across across" \
		"transfers), $parity_want parity error(s), two passes agree"
}

check "$SRC/tests/data/tc6-trace.pcapng" 6 1
ETHDRV_TRACE_OUT=$TMP/live.pcapng "$BIN" >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "test-spi-pcapng"; }
check "$TMP/live.pcapng" 7 0
echo "PASS"
