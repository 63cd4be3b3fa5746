#!/usr/bin/env bash
# Bad arguments exit 2 with a message naming the argument and the accepted
# values; --help works for every subcommand. Needs no root (the last part,
# which needs root to reach the privilege check, is skipped otherwise).
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_binary

errors=0
out=$(mktemp /tmp/ethdrv-cli.XXXXXX)
trap 'rm -f "$out"' EXIT

# expect CODE PATTERN... -- ARGS...: exit code CODE, stderr+stdout match every PATTERN.
expect() {
	local code=$1 pats=() p rc
	shift
	while [[ $1 != -- ]]; do pats+=("$1"); shift; done
	shift
	"$ETHDRV" "$@" >"$out" 2>&1
	rc=$?
	if [[ $rc -ne $code ]]; then
		echo "FAIL: ethdrv $* exited $rc, expected $code:"; cat "$out"
		errors=$((errors + 1)); return
	fi
	for p in "${pats[@]}"; do
		if ! grep -qF -- "$p" "$out"; then
			echo "FAIL: ethdrv $*: output lacks '$p':"; cat "$out"
			errors=$((errors + 1)); return
		fi
	done
	echo "ok: ethdrv $*"
}

# --help on every subcommand
expect 0 "usage: ethdrv COMMAND" -- --help
expect 0 "usage: ethdrv COMMAND" -- help
for c in segment up stats set get info bench phy; do
	expect 0 "usage: ethdrv $c" -- "$c" --help
	expect 0 "usage: ethdrv $c" -- "$c" -h
done

# the command itself
expect 2 "usage: ethdrv COMMAND" --
expect 2 "unknown command 'frob'" "segment, up, stats, set, get, info, phy, plca or bench" -- frob

# phy: the words are checked before anything is sent
expect 2 "missing IFNAME" -- phy
expect 2 "bad interface name" -- phy a/b
expect 2 "bad register '32'" "0..31" -- phy t1s0 read 32
expect 2 "bad value '0x10000'" -- phy t1s0 write 1 0x10000
expect 2 "bad MMD '32'" -- phy t1s0 c45 read 32 1
expect 2 "use: read REG" -- phy t1s0 read
expect 2 "use: read REG" -- phy t1s0 frob

# bench: the list comes from bench/*.py of the source tree
expect 0 "usage: ethdrv bench" "tc6-irq-policy" "tc6-latency" "tc6-segment" -- bench --help
expect 2 "usage: ethdrv bench" "tc6-irq-policy" -- bench
expect 2 "unknown benchmark 'nope'" "tc6-irq-policy" -- bench nope
expect 2 "unknown benchmark '../bench/tc6-latency'" -- bench ../bench/tc6-latency
expect 2 "unknown benchmark 'ethdrv_bench'" -- bench ethdrv_bench
# The summary is the first docstring line without its quotes, whatever the
# docstring's form (a one-line docstring used to keep its closing quotes).
if "$ETHDRV" bench --help | grep -qF -e '"""' -e "'''"; then
	echo "FAIL: ethdrv bench --help shows docstring quotes:"; "$ETHDRV" bench --help
	errors=$((errors + 1))
fi
docs=$(mktemp -d /tmp/ethdrv-benchdoc.XXXXXX)
mkdir "$docs/bench"
printf '"""One line."""\nimport sys\n' >"$docs/bench/one.py"
printf '"""First of several.\n\nMore.\n"""\n' >"$docs/bench/multi.py"
printf "'''Single quotes.'''\n" >"$docs/bench/single.py"
printf '"""Carriage return.\r\n"""\r\n' >"$docs/bench/crlf.py"
printf 'import sys\n' >"$docs/bench/nodoc.py"
list=$(ETHDRV_SOURCE_DIR=$docs "$ETHDRV" bench --help)
for row in "one|One line." "multi|First of several." "single|Single quotes." \
	"crlf|Carriage return." "nodoc|"; do
	want=$(printf '  %-18s %s' "${row%%|*}" "${row#*|}")
	if ! grep -qxF -- "$want" <<<"$list"; then
		echo "FAIL: ethdrv bench --help lacks the row '$want':"; echo "$list"
		errors=$((errors + 1))
	fi
done
rm -rf "$docs"

# segment
expect 2 "--nodes" "'1'" "2..16" -- segment --nodes 1
expect 2 "--nodes" "'17'" "2..16" -- segment --nodes 17
expect 2 "--nodes" "'abc'" "2..16" -- segment --nodes abc
expect 2 "--nodes" "'3x'" -- segment --nodes 3x
expect 2 "'--nodes' needs a value" -- segment --nodes
expect 2 "unknown option '--bogus'" "--nodes" -- segment --bogus
expect 2 "unexpected argument 'extra'" -- segment extra
expect 2 "--log-level" "'loud'" "err, warn, info or debug" -- segment --log-level loud
expect 2 "--device" "not a model" -- segment --device spidev:/dev/spidev0.0,irq=/dev/gpiochip0:5
expect 2 "unknown key 'foo'" "hz, rx-buf" -- segment --device emu:lan8650,foo=1
expect 2 "bad knob 'budget'" "key=value" -- segment --set budget

# up
expect 2 "missing DEVICE" "emu:lan8650" -- up
expect 2 "unknown kind" "emu:lan8650" "spidev:" -- up foo:bar
expect 2 "unknown model 'lan9999'" "lan8650 or lan8651" -- up emu:lan9999
expect 2 "hz" "'1'" "100000..50000000" -- up emu:lan8650,hz=1
expect 2 "rx-buf" "1..65536" -- up emu:lan8650,rx-buf=0
expect 2 "mosi-ber" "0..0.5" -- up emu:lan8650,mosi-ber=2
expect 2 "'nokv' is not key=value" -- up emu:lan8650,nokv
expect 2 "device spec" "spidev:/dev/spidevB.C,irq=" -- up spidev:/dev/spidev0.0
expect 2 "device spec" "spidev:" -- up spidev:/dev/spidev0.0,irq=/dev/gpiochip0:x
# real-board keys: polled mode and RESET_N (the platform parser names the part)
expect 2 "bad poll_us" "50..1000000" -- up spidev:/dev/spidev0.0,irq=none,poll_us=10
expect 2 "bad poll_us" "only with irq=none" -- up spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,poll_us=100
expect 2 "bad reset" "reset=/dev/gpiochipN:LINE" -- up spidev:/dev/spidev0.0,irq=none,reset=5
expect 2 "bad reset" "same line" -- up spidev:/dev/spidev0.0,irq=/dev/gpiochip0:1,reset=/dev/gpiochip0:1
expect 2 "bad irq" "irq=none" -- up spidev:/dev/spidev0.0,poll_us=100
# the model's keys for the same: irq=none, poll_us, and its silicon revision
expect 2 "irq" "use irq=none to poll" -- up emu:lan8650,irq=/dev/gpiochip0:1
expect 2 "poll_us" "only with irq=none" -- up emu:lan8650,poll_us=500
expect 2 "poll_us" "50..1000000" -- up emu:lan8650,irq=none,poll_us=1
expect 2 "rev" "0..15" -- up emu:lan8650,rev=B2
# the model's slack (docs/design.md §4.2)
expect 2 "slack_us" "0..10000" -- up emu:lan8650,slack_us=10001
expect 2 "sv-open" "restart or ignore" -- up emu:lan8650,sv-open=drop
expect 2 "errata-s3" "0 or 1" -- up emu:lan8650,errata-s3=yes
expect 2 "--addr" "A.B.C.D/P" -- up emu --addr 169.254.10.1
expect 2 "--addr" "A.B.C.D/P" -- up emu --addr 300.1.1.1/24
expect 2 "--addr prefix" "0..32" -- up emu --addr 169.254.10.1/33
expect 2 "--tap" "1..15 chars" -- up emu --tap abcdefghijklmnop
expect 2 "--mac" "unicast" -- up emu --mac 01:00:5e:00:00:01
expect 2 "--mac" -- up emu --mac 02:00:00:00:00
expect 2 "--netns" -- up emu --netns a/b
expect 2 "unexpected argument 'emu'" -- up emu emu
expect 2 "unknown option '--nodes'" "--tap" -- up emu --nodes 2

# stats / set / get
expect 2 "unexpected argument 'b'" -- stats a b
expect 2 "unknown option '--yaml'" "--json" -- stats --yaml
expect 2 "IFNAME" "1..15 chars" -- stats a/b
expect 2 "missing IFNAME" -- set
expect 2 "missing KEY=VALUE" -- set t1s0
expect 2 "bad knob 'budget'" "key=value" -- set t1s0 budget
expect 2 "bad knob 'a b=1'" -- set t1s0 "a b=1"
expect 2 "missing KEY" -- get t1s0
expect 2 "bad key 'a=1'" -- get t1s0 a=1
expect 1 "t1s9" "nobody serves /run/ethdrv/t1s9.sock" -- stats t1s9
expect 1 "nobody serves" -- set t1s9 budget=8
expect 2 "give one IFNAME" -- info
expect 2 "give one IFNAME" -- info t1s0 t1s1
expect 2 "IFNAME" "1..15 chars" -- info a/b
expect 1 "nobody serves /run/ethdrv/t1s9.sock" -- info t1s9

# privilege messages (only meaningful without root)
if [[ $(id -u) -ne 0 ]]; then
	expect 1 "needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) to create namespaces: run with sudo" -- segment
	expect 1 "needs root" -- segment --cleanup
fi

[[ $errors -eq 0 ]] || { echo "$errors failures"; exit 1; }
echo "PASS"
