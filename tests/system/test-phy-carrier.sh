#!/usr/bin/env bash
# The PHY and the carrier end to end (docs/mdio.md §10, §11): on a 2-node
# LAN8650 segment `ethdrv phy t1s0` shows the internal PHY and reads and
# writes its registers (clause 22 through the 0xFF00 mirror, MMD 31
# through MMS 4), refuses bad words, and `ip link` shows the carrier
# following `emu.link=down|up` (NO-CARRIER without LOWER_UP, then LOWER_UP
# again), with the PHY polled and with its interrupt (STATUS0.PHYINT);
# ping stops and resumes with it.
#
# The ENET half runs the same checks on the two nodes of
# `ethdrv segment --device emu:enet`: the AR8031 (its ID, gigabit) polled
# and by its INT line; a link restored there autonegotiates again (3 s).
# Root only (exit 77 otherwise); run under /tmp/ethdrv-system.lock.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping
need_binary
run_isolated "$@"

cleanup() {
	stop_segment
}
trap cleanup EXIT

# expect_out WHAT WANT CMD...: CMD's stdout contains WANT.
expect_out() {
	local what=$1 want=$2 out
	shift 2
	out=$("$@" 2>&1) || fail "$what: '$*' failed: $out"
	[[ $out == *"$want"* ]] || fail "$what: '$*' printed '$out', wanted '$want'"
}

# expect_exit CODE WANT CMD...: CMD exits CODE and its stderr names WANT.
expect_exit() {
	local code=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[[ $rc -eq $code ]] || fail "'$*' exited $rc, wanted $code: $out"
	[[ $out == *"$want"* ]] || fail "'$*' said '$out', wanted '$want'"
}

# flap IF PEER_ADDR_NS PEER_IF: carrier off and on again with emu.link.
flap() {
	local ifc=$1 peer=$2
	wait_flags "$ifc" LOWER_UP NO-CARRIER 3000
	"$ETHDRV" set "$ifc" emu.link=down || fail "emu.link=down"
	wait_flags "$ifc" NO-CARRIER LOWER_UP 2000
	[[ $(ip netns exec "$ifc" cat "/sys/class/net/$ifc/carrier" 2>/dev/null) == 0 ]] ||
		fail "$ifc: /sys carrier is not 0"
	expect_out "phy link down" "link=down" "$ETHDRV" phy "$ifc"
	expect_out "emu.link" "emu.link=down" "$ETHDRV" get "$ifc" emu.link
	ip netns exec "$peer" ping -n -q -c 1 -W 1 "$3" >/dev/null 2>&1 &&
		fail "ping $peer -> $ifc answered without a link"
	"$ETHDRV" set "$ifc" emu.link=up || fail "emu.link=up"
	wait_flags "$ifc" LOWER_UP NO-CARRIER 10000
	expect_out "phy link up" "link=up" "$ETHDRV" phy "$ifc"
	ip netns exec "$peer" ping -n -q -c 1 -W 3 "$3" >/dev/null || fail "ping $peer -> $ifc"
}

# ---- LAN8650 ----
"$ETHDRV" segment --cleanup >/dev/null 2>&1
start_segment 2 --set phy_poll_ms=100
expect_out "phy show" "id=0x0007c1b3" "$ETHDRV" phy t1s0
expect_out "phy show" "driver=Generic PHY" "$ETHDRV" phy t1s0
expect_out "phy show" "speed=10" "$ETHDRV" phy t1s0
expect_out "phy read" "0x0805" "$ETHDRV" phy t1s0 read 1
expect_out "phy c45" "0x0a10" "$ETHDRV" phy t1s0 c45 read 31 0xca00
"$ETHDRV" phy t1s0 c45 write 31 0xca04 0x20 || fail "phy c45 write"
expect_out "phy c45" "0x0020" "$ETHDRV" phy t1s0 c45 read 31 0xca04
expect_exit 2 "bad register '32'" "$ETHDRV" phy t1s0 read 32
expect_exit 2 "use: read REG" "$ETHDRV" phy t1s0 frob
expect_exit 1 "nobody serves" "$ETHDRV" phy t1s9
ping_ok 1 0 || fail "ping t1s1 -> t1s0 before the flap"

echo "LAN8650, PHY polled every 100 ms:"
flap t1s0 t1s1 "$(seg_addr 0)"
echo "LAN8650, PHY interrupt (STATUS0.PHYINT):"
"$ETHDRV" set t1s0 phy_irq=1 || fail "phy_irq=1"
expect_out "phy irq" "irq=mac" "$ETHDRV" phy t1s0
flap t1s0 t1s1 "$(seg_addr 0)"
stop_segment

# ---- ENET ----
# The link is up when the command reports ready (it waits for both PHYs'
# autonegotiation, 3 s in the model: docs/mdio.md §8.4).
"$ETHDRV" segment --device emu:enet --cleanup >/dev/null 2>&1
start_enet_link --set phy_poll_ms=100
expect_out "ENET phy show" "id=0x004dd074" "$ETHDRV" phy enet0
expect_out "ENET phy show" "driver=AR8031" "$ETHDRV" phy enet0
expect_out "ENET phy show" "speed=1000" "$ETHDRV" phy enet0
expect_out "ENET phy read" "0x004d" "$ETHDRV" phy enet0 read 2
expect_exit 2 "bad register '32'" "$ETHDRV" phy enet0 read 32
echo "ENET, PHY polled every 100 ms:"
flap enet0 enet1 "$(enet_addr 0)"
echo "ENET, PHY interrupt (the AR8031's INT line):"
"$ETHDRV" set enet0 phy_irq=1 || fail "ENET phy_irq=1"
"$ETHDRV" set enet1 phy_irq=1 || fail "ENET phy_irq=1"
expect_out "ENET phy irq" "irq=line" "$ETHDRV" phy enet0
flap enet0 enet1 "$(enet_addr 0)"
stop_segment
assert_enet_clean
echo PASS
