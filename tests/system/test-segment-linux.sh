#!/usr/bin/env bash
# A mixed segment: node 0 runs ethdrv's LAN8650 driver, node 1 Linux's own
# oa_tc6 + lan865x + microchip_t1s (the GPL plugin, docs/linux-driver.md),
# on one emulated 10BASE-T1S PLCA segment. Ping both ways, a 10 MB HTTP
# download each way with identical sha256, the Linux node's PLCA settings
# and netdev counters in `ethdrv stats`. Skips without the plugin.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping curl python3 sha256sum
need_binary
PLUGIN=$(dirname "$ETHDRV")/linux-shim/liblinux-lan865x.so
[[ -f $PLUGIN ]] || skip "the Linux driver is not built (no linux-source-6.12 package or LINUX_SRC)"

TMP=$(mktemp -d /tmp/ethdrv-linux.XXXXXX)
cleanup() {
	[[ -n ${HTTP_PID:-} ]] && kill "$HTTP_PID" 2>/dev/null
	stop_segment
	rm -rf "$TMP"
}
trap cleanup EXIT

"$ETHDRV" segment --cleanup >/dev/null 2>&1
start_segment 2 --linux-nodes 1
A0=$(seg_addr 0)
A1=$(seg_addr 1)
"$ETHDRV" info t1s1 | grep -q '^driver_impl=linux' || fail "t1s1 does not run the Linux driver"
"$ETHDRV" info t1s1 | grep '^linux_source=\|^phy_driver='
for kv in node-id=1 node-cnt=2 plca=on; do
	[[ $("$ETHDRV" get t1s1 "${kv%%=*}") == "$kv" ]] || fail "t1s1 PLCA: $("$ETHDRV" get t1s1 "${kv%%=*}"), want $kv"
done

ip netns exec t1s0 ping -n -c 5 -i 0.2 -W 2 "$A1" || fail "ping ethdrv -> linux"
ip netns exec t1s1 ping -n -c 5 -i 0.2 -W 2 "$A0" || fail "ping linux -> ethdrv"

head -c 10485760 /dev/urandom >"$TMP/file"
want=$(sha256sum <"$TMP/file" | cut -d' ' -f1)
for dir in "0 1" "1 0"; do
	set -- $dir
	src=$1 dst=$2
	AD=$(seg_addr "$dst")
	ip netns exec "t1s$dst" python3 -m http.server 8000 --bind "$AD" --directory "$TMP" \
		>/dev/null 2>&1 &
	HTTP_PID=$!
	for ((i = 0; i < 50; i++)); do
		ip netns exec "t1s$src" curl -s -o /dev/null "http://$AD:8000/" && break
		sleep 0.2
	done
	ip netns exec "t1s$src" curl -s --max-time 180 -o "$TMP/got" \
		-w "curl t1s$dst -> t1s$src: %{size_download} bytes at %{speed_download} B/s\n" \
		"http://$AD:8000/file" || fail "curl download t1s$dst -> t1s$src"
	got=$(sha256sum <"$TMP/got" | cut -d' ' -f1)
	[[ $want == "$got" ]] || fail "sha256 differs: sent $want, got $got"
	kill "$HTTP_PID"; wait "$HTTP_PID" 2>/dev/null; HTTP_PID=
done
"$ETHDRV" stats t1s1 | grep -E '^ *linux_(rx|tx)_packets' || fail "no linux counters in ethdrv stats t1s1"
stop_segment
assert_clean
echo PASS
