#!/usr/bin/env bash
# --rt-prio N and the knob rt_prio (tools/ethdrv/node_rt.c): each node's loop
# thread and its poller threads run SCHED_FIFO at N, read back from the
# kernel with sched_getscheduler() for every thread of the segment process;
# the medium's thread ("lab/0", the wire) runs one above, at N+1, so the
# driver cannot hold off the lab (docs/design.md §4.5); every other thread
# (the main thread) keeps SCHED_OTHER. A
# poller thread started later (threaded=1) inherits the priority. Busy
# polling is refused at a real-time priority and the other way round, at
# start and at run time. Under TCP traffic at that priority the spin guard
# demotes nothing (the datapath sleeps when it has no work), and the knob
# moves the threads to another priority and back to SCHED_OTHER. With a
# threshold low enough to call the loop's own work a spin, the guard puts
# the threads back to SCHED_OTHER and says so.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping iperf3 python3
need_binary
IPERF_SERVER=
cleanup() {
	if [[ -n $IPERF_SERVER ]]; then
		kill "$IPERF_SERVER" 2>/dev/null
		wait "$IPERF_SERVER" 2>/dev/null
	fi
	stop_segment
}
trap cleanup EXIT
"$ETHDRV" segment --cleanup >/dev/null 2>&1

# sched_table: "comm policy priority" for every thread of the segment process.
sched_table() {
	python3 - "$SEG_PID" <<'PY'
import os, sys
pid = sys.argv[1]
names = {os.SCHED_OTHER: "OTHER", os.SCHED_FIFO: "FIFO", os.SCHED_RR: "RR",
         os.SCHED_BATCH: "BATCH", os.SCHED_IDLE: "IDLE"}
for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
    comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
    pol = os.sched_getscheduler(int(tid))
    print(comm, names.get(pol, pol), os.sched_getparam(int(tid)).sched_priority)
PY
}

# expect_sched WHAT: every thread named ethdrv/t1s* or napi/t1s* as WHAT
# ("FIFO N" or "OTHER 0") for node t1s0, the other nodes' as given by
# OTHERS (default the same), every other thread "OTHER 0".
expect_sched() {
	local want0=$1 others=${2:-$1} table bad
	table=$(sched_table)
	echo "$table" | sed 's/^/    /'
	bad=$(echo "$table" | awk -v w0="$want0" -v wo="$others" '
		{ got = $2 " " $3 }
		$1 ~ /^(ethdrv|napi)\/t1s0($|-)/ { if (got != w0) print; next }
		$1 ~ /^(ethdrv|napi)\/t1s/ { if (got != wo) print; next }
		$1 ~ /^lab\// { if (got != "FIFO 21") print; next }
		{ if (got != "OTHER 0") print }')
	[[ -z $bad ]] || fail "threads with the wrong policy (t1s0 should be $want0, other nodes $others): $bad"
	echo "$table" | grep -q '^ethdrv/t1s0 ' || fail "no thread named ethdrv/t1s0"
}

# stat_seg NAME: one counter of the segment.
stat_seg() {
	"$ETHDRV" stats segment | awk -v k="$1:" '$1 == k {print $2}'
}

# stat NODE NAME: one counter of node NODE.
stat() {
	"$ETHDRV" stats "t1s$1" | awk -v k="$2:" '$1 == k {print $2}'
}

# 1. Refused at start: busy polling at a real-time priority.
out=$("$ETHDRV" segment --nodes 2 --rt-prio 20 --set busy_poll=50 2>&1) &&
	fail "segment started with busy_poll at --rt-prio"
[[ $out == *"busy polling spins"* ]] || fail "busy_poll at --rt-prio: unexpected: $out"
assert_clean

# 2. --rt-prio 20: the node threads at FIFO 20, the rest untouched.
start_segment 2 --rt-prio 20
echo "--rt-prio 20, softirq mode:"
expect_sched "FIFO 20"
sched_table | grep -q '^lab/0 FIFO 21$' || fail "the medium is not one above the driver"
[[ $(stat_seg lab_rt_prio) == 21 ]] || fail "lab_rt_prio counter"
[[ $("$ETHDRV" get t1s0 rt_prio) == "rt_prio=20" ]] || fail "get rt_prio"
[[ $(stat 0 node_rt_prio) == 20 ]] || fail "node_rt_prio counter"
"$ETHDRV" set t1s0 threaded=1 || fail "threaded=1"
echo "threaded=1 on t1s0:"
expect_sched "FIFO 20"
sched_table | grep -q '^napi/t1s0-rx FIFO 20$' || fail "the new poller thread did not inherit FIFO 20"

# 3. Busy polling refused while the priority is set.
out=$("$ETHDRV" set t1s0 busy_poll=50 2>&1) && fail "busy_poll=50 accepted at rt_prio 20"
[[ $out == *"error EBUSY: set busy_poll=50: busy polling spins"* ]] || fail "busy_poll: $out"
[[ $("$ETHDRV" get t1s0 busy_poll) == "busy_poll=0" ]] || fail "busy_poll changed"

# 4. Traffic at that priority: nothing spins, so the guard demotes nothing.
ip netns exec t1s0 iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
IPERF_SERVER=$!
sleep 1
ip netns exec t1s1 iperf3 -c "$(seg_addr 0)" -p 5201 -t 5 >/dev/null 2>&1 ||
	fail "iperf3 at rt_prio 20"
wait "$IPERF_SERVER"
IPERF_SERVER=
ping_ok 0 1 || fail "ping at rt_prio 20"
for k in 0 1; do
	d=$(stat "$k" node_rt_demotions)
	echo "t1s$k: node_rt_demotions=$d after 5 s of TCP"
	[[ $d == 0 ]] || fail "t1s$k: a thread spun at SCHED_FIFO and was demoted ($d)"
done
expect_sched "FIFO 20"

# 5. The knob: another priority, SCHED_OTHER, and busy polling only then.
"$ETHDRV" set t1s0 rt_prio=30 || fail "rt_prio=30"
expect_sched "FIFO 30" "FIFO 20"
"$ETHDRV" set t1s0 rt_prio=0 || fail "rt_prio=0"
expect_sched "OTHER 0" "FIFO 20"
"$ETHDRV" set t1s0 busy_poll=50 || fail "busy_poll=50 at rt_prio 0"
out=$("$ETHDRV" set t1s0 rt_prio=10 2>&1) && fail "rt_prio=10 accepted while busy polling"
[[ $out == *"error EBUSY: set rt_prio=10: busy_poll > 0 spins"* ]] || fail "rt_prio: $out"
"$ETHDRV" set t1s0 busy_poll=0 rt_prio=10 || fail "busy_poll=0 rt_prio=10"
expect_sched "FIFO 10" "FIFO 20"
out=$("$ETHDRV" set t1s0 rt_prio=100 2>&1) && fail "rt_prio=100 accepted"
[[ $out == *"error EINVAL: set rt_prio=100: give 1..99"* ]] || fail "rt_prio=100: $out"

# 6. The guard acts: with a threshold of 1 permille of each 100 ms window
# (the loop's own work passes it) t1s1's threads go back to SCHED_OTHER,
# counted and logged.
[[ $("$ETHDRV" get t1s1 rt_spin_permille) == "rt_spin_permille=900" ]] ||
	fail "default rt_spin_permille"
"$ETHDRV" set t1s1 rt_spin_permille=1 || fail "rt_spin_permille=1"
for ((i = 0; i < 50; i++)); do
	ip netns exec t1s0 ping -n -q -c 20 -i 0.01 "$(seg_addr 1)" >/dev/null 2>&1
	[[ $(stat 1 node_rt_demotions) -gt 0 ]] && break
done
d=$(stat 1 node_rt_demotions)
echo "t1s1 with rt_spin_permille=1: node_rt_demotions=$d"
((d > 0)) || fail "the guard demoted nothing at a threshold of 1 permille"
sched_table | grep -q '^ethdrv/t1s1 OTHER 0$' || fail "t1s1's loop thread still FIFO"
grep -q "t1s1: thread [0-9]* was on a CPU for 1 permille or more of 100 ms at SCHED_FIFO 20: put back to SCHED_OTHER" \
	"$SEG_LOG" || fail "no warning for the demotion"
# 7. rt_spin_guard=off: the guard demotes nothing more (livelock rows of
# napi-modes); bad values are refused naming the accepted ones.
out=$("$ETHDRV" set t1s0 rt_spin_guard=maybe 2>&1) && fail "rt_spin_guard=maybe accepted"
[[ $out == *"error EINVAL: set rt_spin_guard=maybe: give on"* ]] || fail "rt_spin_guard: $out"
[[ $("$ETHDRV" get t1s0 rt_spin_guard) == "rt_spin_guard=on" ]] || fail "default rt_spin_guard"
"$ETHDRV" set t1s0 rt_spin_permille=1 rt_spin_guard=off || fail "rt_spin_guard=off"
d0=$(stat 0 node_rt_demotions)
for ((i = 0; i < 5; i++)); do
	ip netns exec t1s1 ping -n -q -c 20 -i 0.01 "$(seg_addr 0)" >/dev/null 2>&1
done
[[ $(stat 0 node_rt_demotions) == "$d0" ]] || fail "rt_spin_guard=off still demoted"
sched_table | grep -q '^ethdrv/t1s0 FIFO 10$' || fail "t1s0's loop thread left FIFO 10"
ping_ok 1 0 || fail "ping at the end"
stop_segment
assert_clean
echo PASS
