#!/usr/bin/env bash
# Every knob a running node accepts is in `ethdrv set --help` and in `ethdrv
# get IFNAME --list`, a bad value names the accepted values and a set of a
# read-only key is refused with a reason, not a bare errno text: asked of a
# LAN8650 node, an ENET, a GbEth and an eTSEC node and the media by trying every key-like string
# of the sources (tests/system/knob_probe.py; the help's knob tables are not
# read). Every device-spec key `ethdrv up` accepts is in `ethdrv up --help`.
set -u
ETHDRV=${1:-build}/ethdrv
SRC=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip python3
need_binary
run_isolated "$@"

trap stop_segment_and_link EXIT

start_segment 2
start_link_beside enet
start_link_beside gbeth
start_link_beside etsec

python3 "$SRC/tests/system/knob_probe.py" "$SRC" "$ETHDRV" "t1s0:LAN8650" "enet0:NXP ENET" \
	"gbeth0:Renesas GbEth" "tsec0:Freescale eTSEC" "segment:The media" "link:The media" \
	"gbeth-link:The media" "tsec-link:The media" ||
	fail "knobs missing from the help (above)"

# Device-spec keys: a key the parser knows gets a "bad value"-like error, an
# unknown one "unknown key"; each known one must be in `ethdrv up --help`.
uphelp=$("$ETHDRV" up --help)
segphelp=$("$ETHDRV" segment --help)
keys=$(grep -ohE '"[a-z][a-z0-9_-]{1,20}"' "$SRC/tools/ethdrv/cli.c" \
	"$SRC/src/platform/linux/spidev_spec.c" | tr -d '"' | sort -u)
for kind in emu:lan8650 emu:enet emu:gbeth emu:etsec spidev:/dev/spidev0.0,irq=none; do
	n=0
	for k in $keys; do
		out=$("$ETHDRV" up "$kind,$k=@" 2>&1 >/dev/null)
		[[ $out == *"unknown key"* ]] && continue
		n=$((n + 1))
		title=${kind%%,*}
		[[ $kind == spidev:* ]] && title=spidev:
		section=$(echo "$uphelp" | sed -n "/^$title keys/,/^[a-z].* keys/p")
		echo "$section" | grep -qE "^  $k " || fail "$kind: '$k' accepted, not in up --help"
		echo "$segphelp" | grep -qE "^  $k " ||
			fail "$kind: '$k' accepted, not in segment --help"
	done
	echo "$kind: $n spec keys accepted, all in the help"
	((n > 0)) || fail "$kind: no spec key accepted (the probe is broken)"
done
echo "PASS"
