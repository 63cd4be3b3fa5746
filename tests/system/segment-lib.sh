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

# GbEth node K's address.
gbeth_addr() {
	echo "169.254.40.$(($1 + 1))"
}

# start_link DEVICE SOCK [extra args]: `ethdrv segment --device DEVICE` (a
# two-node link whose control socket is SOCK) in the background (its
# --device may be overridden by a later one in the args), waiting as
# start_segment does, on the link's marker and socket; the command serves
# its socket once both nodes have carrier.
start_link() {
	local dev=$1 sock=$2
	shift 2
	SEG_LOG=$(mktemp /tmp/ethdrv-link.XXXXXX)
	"$ETHDRV" segment --device "$dev" "$@" >"$SEG_LOG" 2>&1 &
	SEG_PID=$!
	wait_started "/run/ethdrv/$sock.pid" "$sock" "ethdrv segment --device $dev"
}

# start_enet_link [extra args]: start_link for the ENET link.
start_enet_link() {
	start_link emu:enet link "$@"
}

# start_gbeth_link [extra args]: start_link for the GbEth link.
start_gbeth_link() {
	start_link emu:gbeth gbeth-link "$@"
}

# ctr IF NAME: one counter of an interface (or of a medium's socket). (Not
# "stat": tests call coreutils' stat.)
ctr() {
	"$ETHDRV" stats "$1" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])"
}

# iperf_bps_ns NS ADDR ARGS: bits/s of a 2 s iperf3 from namespace NS to the
# server at ADDR ("", "-R" or "--bidir"), one number per direction. iperf3
# -J exits 0 on an error and reports it only in the JSON: it goes to stderr
# here, and the exit status is 3 when the server was still busy (it takes a
# moment to tear the last test down; a loaded machine stretches that), 1 on
# any other error.
iperf_bps_ns() {
	ip netns exec "$1" iperf3 -c "$2" -t 2 $3 -J | python3 -c '
import json, sys
doc = json.load(sys.stdin)
if "error" in doc:
    print("iperf3:", doc["error"], file=sys.stderr)
    sys.exit(3 if "busy" in doc["error"] else 1)
for key in ("sum_received", "sum_received_bidir_reverse"):
    if key in doc["end"]:
        print(int(doc["end"][key]["bits_per_second"]))'
}

# start_link_beside [enet|gbeth|etsec]: a link (start_enet_link, start_gbeth_link,
# start_etsec_link;
# default enet) next to the LAN8650 segment start_segment runs, its pid added
# to LINK_PIDS; stop_link_beside stops every one.
LINK_PIDS=()
start_link_beside() {
	local pid=$SEG_PID log=$SEG_LOG
	SEG_PID=
	"start_${1:-enet}_link"
	LINK_PIDS+=("$SEG_PID")
	rm -f "$SEG_LOG"
	SEG_PID=$pid
	SEG_LOG=$log
}

stop_link_beside() {
	local p
	for p in "${LINK_PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	LINK_PIDS=()
}

# stop_segment_and_link: both (an EXIT trap of a test that runs both).
stop_segment_and_link() {
	stop_link_beside
	stop_segment
}

# eTSEC node K's address.
tsec_addr() {
	echo "169.254.30.$(($1 + 1))"
}

# start_etsec_link [extra args]: start_link for the eTSEC link.
start_etsec_link() {
	start_link emu:etsec tsec-link "$@"
}

# Fail if anything of an eTSEC link is left.
assert_etsec_clean() {
	assert_link_clean tsec tsec-link
}

# link_iperf_dirs PREFIX ADDR WHAT: iperf3 from PREFIX0 to ADDR one way, the
# other and both at once (iperf_bps_ns); every direction must carry data. A
# server still busy with the last test is asked again, up to 5 times a second
# apart; any other iperf3 error fails.
# WHAT names the mode in the messages.
link_iperf_dirs() {
	local dir bps b try
	for dir in "" "-R" "--bidir"; do
		for ((try = 1; ; try++)); do
			bps=$(iperf_bps_ns "${1}0" "$2" "$dir") && break
			[[ $? -eq 3 && $try -lt 5 ]] || fail "iperf3 $dir ($3)"
			sleep 1
		done
		echo "iperf3 ${dir:-forward} $3:" $bps "bit/s"
		[[ $(wc -w <<<"$bps") -eq $([[ $dir == --bidir ]] && echo 2 || echo 1) ]] ||
			fail "iperf3 $dir: no result for every direction: $bps"
		for b in $bps; do [[ $b -gt 0 ]] || fail "iperf3 $dir: zero throughput"; done
	done
}

# link_cable_checks PREFIX ADDR1: the cable out (emu.link=down) takes the
# carrier of both TAPs and stops a ping from PREFIX0 to ADDR1; in again, the
# PHYs autonegotiate and the carrier and the first ping come back.
#
# The ping across the down link leaves Linux an INCOMPLETE neighbour entry
# whose ARP probes (one a second, three) go out while the carrier is down and
# are lost; Linux does not flush it when the carrier returns. A ping sent in
# that entry's last second waits on it and is dropped when it fails, with no
# frame reaching the driver: a real NIC shows the same after a replug. When
# autoneg plus a loaded machine put the carrier back late, that is where the
# first ping lands, so the entries are flushed first.
link_cable_checks() {
	local k
	"$ETHDRV" set "${1}0" emu.link=down || fail "emu.link=down"
	[[ $("$ETHDRV" get "${1}1" emu.link) == "emu.link=down" ]] || fail "emu.link reads up"
	for k in 0 1; do wait_flags "$1$k" NO-CARRIER LOWER_UP 5000; done
	"$ETHDRV" phy "${1}1" | grep -qx "link=down" || fail "ethdrv phy ${1}1: link not down"
	ip netns exec "${1}0" ping -n -q -c 1 -W 1 "$2" >/dev/null &&
		fail "ping across a link that is down"
	"$ETHDRV" set "${1}0" emu.link=up || fail "emu.link=up"
	for k in 0 1; do
		wait_flags "$1$k" LOWER_UP NO-CARRIER 10000
		ip -n "$1$k" neigh flush dev "$1$k"
	done
	ip netns exec "${1}0" ping -n -q -c 1 -W 2 "$2" >/dev/null || {
		"$ETHDRV" stats "${1}0" | grep -E "carrier|tx_|rx_packets|emu_tx_link_down" >&2
		fail "ping after the link came back"
	}
}

# link_rx_exhaust_check PREFIX ADDR1: two frames to PREFIX1 find no RX
# descriptor (emu.inject=rx_exhaust:2) and its model counts exactly them as
# injected losses (emu_rx_lost_injected, the same name on every model:
# docs/design.md §4.8).
link_rx_exhaust_check() {
	local before
	before=$(ctr "${1}1" emu_rx_lost_injected)
	"$ETHDRV" set "${1}1" emu.inject=rx_exhaust:2 || fail "emu.inject"
	ip netns exec "${1}0" ping -n -q -c 4 -i 0.2 -W 1 "$2" >/dev/null
	[[ $(($(ctr "${1}1" emu_rx_lost_injected) - before)) -eq 2 ]] || fail "rx_exhaust not counted"
}

# link_pcap_check FILE MACHEX: the link's capture is a nanosecond pcap of
# more than 1000 frames in time order from both senders, MACHEX00 and
# MACHEX01 (the MAC without its last byte, in hex).
link_pcap_check() {
	python3 - "$1" "$2" <<'PY' || fail "pcap check"
import struct, sys
data = open(sys.argv[1], "rb").read()
magic, = struct.unpack_from("<I", data, 0)
assert magic == 0xa1b23c4d, hex(magic)
off, srcs, n, last = 24, set(), 0, 0
while off + 16 <= len(data):
    sec, nsec, incl, orig = struct.unpack_from("<IIII", data, off)
    t = sec * 10**9 + nsec
    assert t >= last and incl == orig and incl >= 14
    srcs.add(data[off + 16 + 6:off + 16 + 12].hex())
    last, off, n = t, off + 16 + incl, n + 1
assert off == len(data) and n > 1000, (off, len(data), n)
assert {sys.argv[2] + "00", sys.argv[2] + "01"} <= srcs, srcs
print(f"pcap: {n} frames from {len(srcs)} senders, in time order")
PY
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

# assert_link_clean PREFIX SOCK: fail if anything of a two-node link is
# left: namespaces PREFIXk, its sockets and marker SOCK.pid, TAPs.
assert_link_clean() {
	local left
	left=$(ls /run/netns 2>/dev/null | grep -E "^$1[0-9]+\$" || true)
	[[ -z $left ]] || fail "namespaces left behind: $left"
	left=$(ls /run/ethdrv/"$1"*.sock "/run/ethdrv/$2.sock" 2>/dev/null || true)
	[[ -z $left ]] || fail "control sockets left behind: $left"
	[[ ! -e /run/ethdrv/$2.pid ]] || fail "marker /run/ethdrv/$2.pid left behind"
	left=$(ip -o link show 2>/dev/null | grep -E ": $1[0-9]+[:@]" || true)
	[[ -z $left ]] || fail "TAPs left in the root namespace: $left"
}

# Fail if anything of an ENET link is left.
assert_enet_clean() {
	assert_link_clean enet link
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
