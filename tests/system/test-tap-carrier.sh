#!/usr/bin/env bash
# TUNSETCARRIER through ethdrv_tap_set_carrier() (docs/mdio.md §10): in a
# namespace of its own (mdiotest0), `ip link` shows NO-CARRIER and no
# LOWER_UP while the carrier is off, LOWER_UP while it is on, and the
# kernel's own view (/sys/class/net/IF/carrier, operstate) follows.
# Root only (exit 77 otherwise); run under /tmp/ethdrv-system.lock like the
# other system tests. Everything it creates goes away on any exit.
set -u
BUILD=${1:-build}
HELPER=$BUILD/tests/tap-carrier-helper
NS=mdiotest0
TAP=mdiotap0

source "$(dirname "$0")/segment-lib.sh" # skip, fail, need_root, need_tool
need_root
need_tool ip
[[ -x $HELPER ]] || fail "no helper at $HELPER"

HPID=
cleanup() {
	if [[ -n $HPID ]]; then
		echo quit >&"${H[1]}" 2>/dev/null
		kill "$HPID" 2>/dev/null
		wait "$HPID" 2>/dev/null
	fi
	ip netns del "$NS" 2>/dev/null
}
trap cleanup EXIT

# A namespace of that name left by a killed run of this test is ours.
ip netns del "$NS" 2>/dev/null
ip netns add "$NS" || fail "ip netns add $NS"
coproc H { ip netns exec "$NS" "$HELPER" "$TAP" 2>&1; }
HPID=$H_PID

# reply: the helper's next line (5 s at most).
reply() {
	local line
	read -r -t 5 line <&"${H[0]}" || fail "no answer from the helper"
	echo "$line"
}

[[ $(reply) == ready ]] || fail "the helper could not create $TAP"
ip -n "$NS" link set "$TAP" up || fail "ip link set $TAP up"

# link_flags: the <...> flag list of `ip link show`.
link_flags() {
	ip -n "$NS" -o link show dev "$TAP" | sed -n 's/.*<\([^>]*\)>.*/\1/p'
}

sys_carrier() {
	ip netns exec "$NS" cat "/sys/class/net/$TAP/carrier" 2>/dev/null
}

operstate() {
	ip netns exec "$NS" cat "/sys/class/net/$TAP/operstate"
}

set_carrier() {
	echo "$1" >&"${H[1]}"
	local r
	r=$(reply)
	[[ $r == ok ]] || fail "carrier $1: $r"
}

expect_carrier_off() {
	local flags
	flags=$(link_flags)
	[[ ,$flags, == *,NO-CARRIER,* ]] || fail "carrier off but no NO-CARRIER: <$flags>"
	[[ ,$flags, != *,LOWER_UP,* ]] || fail "carrier off but LOWER_UP: <$flags>"
	[[ $(sys_carrier) == 0 ]] || fail "carrier off but sysfs carrier=$(sys_carrier)"
	[[ $(operstate) == down ]] || fail "carrier off but operstate $(operstate)"
}

expect_carrier_on() {
	local flags
	flags=$(link_flags)
	[[ ,$flags, == *,LOWER_UP,* ]] || fail "carrier on but no LOWER_UP: <$flags>"
	[[ ,$flags, != *,NO-CARRIER,* ]] || fail "carrier on but NO-CARRIER: <$flags>"
	[[ $(sys_carrier) == 1 ]] || fail "carrier on but sysfs carrier=$(sys_carrier)"
}

for round in 1 2 3; do
	set_carrier off
	expect_carrier_off
	set_carrier on
	expect_carrier_on
done

# A bad command is refused, the TAP stays as it was.
echo maybe >&"${H[1]}"
[[ $(reply) == "error 22" ]] || fail "bad command accepted"
expect_carrier_on

echo "PASS: carrier follows ethdrv_tap_set_carrier() (3 rounds)"
