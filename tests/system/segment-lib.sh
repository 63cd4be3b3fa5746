# Shared helpers of the system tests (sourced by tests/system/test-*.sh and
# scripts/demo.sh). Set ETHDRV to the binary first. Addresses: only
# 169.254.10.0/24, only inside the t1s* namespaces the segment creates, and
# 169.254.20.0/24 inside the enet0/enet1 namespaces of an ENET link,
# 169.254.30.0/24 inside the tsec0/tsec1 namespaces of an eTSEC link.

SEG_PID=
SEG_LOG=

# Print "SKIP: why" and exit 77 (ctest's skip code).
skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

need_root() {
	[[ $(id -u) -eq 0 ]] || skip "needs root (creates network namespaces and TAPs)"
	[[ -c /dev/net/tun ]] || skip "no /dev/net/tun"
}

need_tool() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (make check installs it)"
	done
}

need_binary() {
	[[ -x $ETHDRV ]] || fail "no ethdrv binary at $ETHDRV"
}

# Node K's address.
seg_addr() {
	echo "169.254.10.$(($1 + 1))"
}

# wait_started MARKER SOCK WHAT: wait (30 s at most) until the run $SEG_PID
# is up: its control socket SOCK answers (it is served last, after every
# node is up) and MARKER names our process, so a run another program left
# going is never mistaken for ours.
wait_started() {
	local i
	for ((i = 0; i < 300; i++)); do
		if ! kill -0 "$SEG_PID" 2>/dev/null; then
			cat "$SEG_LOG" >&2
			SEG_PID=
			fail "$3 exited during bring-up"
		fi
		if [[ $(head -n 1 "$1" 2>/dev/null) == "pid $SEG_PID" ]] &&
			"$ETHDRV" get "$2" nodes >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.1
	done
	cat "$SEG_LOG" >&2
	fail "$3 not up after 30 s"
}

# start_segment N [extra args]: run ethdrv segment in the background and wait
# until it is up (wait_started).
start_segment() {
	local n=$1
	shift
	SEG_LOG=$(mktemp /tmp/ethdrv-seg.XXXXXX)
	"$ETHDRV" segment --nodes "$n" "$@" >"$SEG_LOG" 2>&1 &
	SEG_PID=$!
	wait_started /run/ethdrv/segment.pid segment "ethdrv segment"
}

# ENET node K's address.
enet_addr() {
	echo "169.254.20.$(($1 + 1))"
}

# start_enet_link [extra args]: `ethdrv segment --device emu:enet` in the
# background (its --device may be overridden by a later one in the args),
# waiting as start_segment does, on the link's marker and socket; the
# command serves its socket once both nodes have carrier.
start_enet_link() {
	SEG_LOG=$(mktemp /tmp/ethdrv-enet.XXXXXX)
	"$ETHDRV" segment --device emu:enet "$@" >"$SEG_LOG" 2>&1 &
	SEG_PID=$!
	wait_started /run/ethdrv/link.pid link "ethdrv segment --device emu:enet"
}

# eTSEC node K's address.
tsec_addr() {
	echo "169.254.30.$(($1 + 1))"
}

# start_etsec_link [extra args]: `ethdrv segment --device emu:etsec`, as
# start_enet_link, on the eTSEC link's marker and socket.
start_etsec_link() {
	SEG_LOG=$(mktemp /tmp/ethdrv-tsec.XXXXXX)
	"$ETHDRV" segment --device emu:etsec "$@" >"$SEG_LOG" 2>&1 &
	SEG_PID=$!
	wait_started /run/ethdrv/tsec-link.pid tsec-link "ethdrv segment --device emu:etsec"
}

# Fail if anything of an eTSEC link is left: namespaces, sockets, marker, TAPs.
assert_etsec_clean() {
	local left
	left=$(ls /run/netns 2>/dev/null | grep -E '^tsec[0-9]+$' || true)
	[[ -z $left ]] || fail "namespaces left behind: $left"
	left=$(ls /run/ethdrv/tsec*.sock 2>/dev/null || true)
	[[ -z $left ]] || fail "sockets left behind: $left"
	[[ ! -e /run/ethdrv/tsec-link.pid ]] || fail "marker /run/ethdrv/tsec-link.pid left behind"
	left=$(ip -o link show 2>/dev/null | grep -E ': tsec[0-9]+[:@]' || true)
	[[ -z $left ]] || fail "interfaces left behind: $left"
}

# stat IF NAME: one counter of an interface (or of a medium's socket).
stat() {
	"$ETHDRV" stats "$1" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])"
}

# link_iperf_bps NS ADDR ARGS: bits/s of a 2 s iperf3 from namespace NS to
# ADDR ("", "-R" or "--bidir" in ARGS), one number per direction.
link_iperf_bps() {
	ip netns exec "$1" iperf3 -c "$2" -t 2 $3 -J | python3 -c '
import json, sys
end = json.load(sys.stdin)["end"]
for key in ("sum_received", "sum_received_bidir_reverse"):
    if key in end:
        print(int(end[key]["bits_per_second"]))'
}

# link_up_checks PREFIX: both nodes of a link have carrier, and `ethdrv phy`
# shows the AR8031's gigabit full-duplex link.
link_up_checks() {
	local k out want
	for k in 0 1; do
		wait_flags "$1$k" LOWER_UP NO-CARRIER 10000
		out=$("$ETHDRV" phy "$1$k") || fail "ethdrv phy $1$k"
		for want in link=up speed=1000 duplex=full id=0x004dd074 driver=AR8031; do
			[[ $'\n'$out$'\n' == *$'\n'$want$'\n'* ]] ||
				fail "ethdrv phy $1$k: no $want in: $out"
		done
	done
}

# flags IF: the <...> flag list of IF in its namespace.
flags() {
	ip -n "$1" -o link show dev "$1" | sed -n 's/.*<\([^>]*\)>.*/\1/p'
}

# wait_flags IF WANT NOT MS: until the flags contain WANT and not NOT.
wait_flags() {
	local i f
	for ((i = 0; i < $4 / 50; i++)); do
		f=$(flags "$1")
		if [[ ,$f, == *,$2,* && ,$f, != *,$3,* ]]; then
			echo "$1: <$f> after about $((i * 50)) ms"
			return 0
		fi
		sleep 0.05
	done
	fail "$1: flags <$(flags "$1")>, wanted $2 without $3 within $4 ms"
}

# Fail if anything of an ENET link is left: namespaces, its socket and marker, TAPs.
assert_enet_clean() {
	local left
	left=$(ls /run/netns 2>/dev/null | grep -E '^enet[0-9]+$' || true)
	[[ -z $left ]] || fail "namespaces left behind: $left"
	left=$(ls /run/ethdrv/enet*.sock /run/ethdrv/link.sock 2>/dev/null || true)
	[[ -z $left ]] || fail "control sockets left behind: $left"
	[[ ! -e /run/ethdrv/link.pid ]] || fail "marker /run/ethdrv/link.pid left behind"
	left=$(ip -o link show 2>/dev/null | grep -E ': enet[0-9]+[:@]' || true)
	[[ -z $left ]] || fail "TAPs left in the root namespace: $left"
}

# Stop the segment with SIGTERM (SIGKILL + --cleanup after 20 s).
stop_segment() {
	local i
	[[ -n $SEG_PID ]] || return 0
	kill -TERM "$SEG_PID" 2>/dev/null
	for ((i = 0; i < 200; i++)); do
		kill -0 "$SEG_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$SEG_PID" 2>/dev/null; then
		echo "segment did not stop on SIGTERM; killing it" >&2
		kill -KILL "$SEG_PID" 2>/dev/null
		wait "$SEG_PID" 2>/dev/null
		"$ETHDRV" segment --cleanup >/dev/null 2>&1
	fi
	wait "$SEG_PID" 2>/dev/null
	SEG_PID=
	[[ -n $SEG_LOG ]] && rm -f "$SEG_LOG"
	SEG_LOG=
}

# Fail if anything of a segment is left: namespaces, sockets, marker, TAPs.
assert_clean() {
	local left
	left=$(ls /run/netns 2>/dev/null | grep -E '^t1s[0-9]+$' || true)
	[[ -z $left ]] || fail "namespaces left behind: $left"
	left=$(ls /run/ethdrv/*.sock 2>/dev/null || true)
	[[ -z $left ]] || fail "control sockets left behind: $left"
	[[ ! -e /run/ethdrv/segment.pid ]] || fail "marker /run/ethdrv/segment.pid left behind"
	left=$(ip -o link show 2>/dev/null | grep -E ': t1s[0-9]+[:@]' || true)
	[[ -z $left ]] || fail "TAPs left in the root namespace: $left"
}

# ping_ok FROM TO: one ping from node FROM to node TO (2 s to answer).
ping_ok() {
	ip netns exec "t1s$1" ping -n -q -c 1 -W 2 "$(seg_addr "$2")" >/dev/null
}

# run_isolated "$@": re-run the calling script in a private mount namespace
# with its own /run/netns and /run/ethdrv, so its segment never meets
# another one on a shared machine and a killed run leaves nothing behind
# (the namespaces vanish with the mount namespace). Call it first, as root.
run_isolated() {
	[[ -n ${ETHDRV_ISOLATED:-} ]] && return 0
	command -v unshare >/dev/null 2>&1 || return 0
	mkdir -p /run/netns /run/ethdrv
	ETHDRV_ISOLATED=1 exec unshare --mount --propagation private bash -c \
		'mount -t tmpfs tmpfs /run/netns && mount -t tmpfs tmpfs /run/ethdrv && exec "$@"' \
		isolate bash "$0" "$@"
}

# proc_mem PID: "RSS_KIB HWM_KIB FDS" of a process.
proc_mem() {
	local rss hwm fds
	rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null)
	hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$1/status" 2>/dev/null)
	fds=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
	echo "${rss:-0} ${hwm:-0} $fds"
}

# is_asan_build: true if the ethdrv binary uses AddressSanitizer (more RSS).
is_asan_build() {
	ldd "$ETHDRV" 2>/dev/null | grep -q libasan || grep -q __asan_init "$ETHDRV" 2>/dev/null
}

# no_csum_errors NODES: fail if any node's kernel saw a corrupted IP/TCP/UDP packet.
no_csum_errors() {
	local k bad
	for ((k = 0; k < $1; k++)); do
		bad=$(ip netns exec "t1s$k" nstat -az 2>/dev/null |
			awk '$1 ~ /InCsumErrors|InHdrErrors/ && $2 > 0 {printf "%s=%s ", $1, $2}')
		[[ -z $bad ]] || fail "t1s$k received corrupted packets: $bad"
	done
}
