#!/usr/bin/env bash
# Execution contexts (tools/ethdrv/node_ctx.c, docs/design.md §4.5-§4.7):
# with contexts=irq each node's interrupt and softirq work runs in its
# softirq loop threads "sirq/<if>/<cpu>" at SCHED_FIFO (--rt-prio), while
# the node's own loop (TAP reads, control socket) and its poller threads
# (threaded=1) are SCHED_OTHER; read back from the kernel for every thread.
# Traffic flows; the poller polls in the softirq loop (its counters move
# there); irq_affinity moves it to another CPU's loop and refuses bad
# values with the accepted form; contexts=loop puts everything back as
# --rt-prio had it. Busy polling and contexts=irq refuse each other. The
# medium runs one priority above the driver, or at --lab-prio.
set -u
ETHDRV=${1:-build}/ethdrv
source "$(dirname "$0")/segment-lib.sh"
need_root
need_tool ip ping python3
need_binary
trap stop_segment EXIT
"$ETHDRV" segment --cleanup >/dev/null 2>&1

sched_of() { # sched_of COMM: "POLICY PRIO" of the thread named COMM
	python3 - "$SEG_PID" "$1" <<'PY'
import os, sys
pid, want = sys.argv[1], sys.argv[2]
names = {os.SCHED_OTHER: "OTHER", os.SCHED_FIFO: "FIFO"}
for tid in os.listdir(f"/proc/{pid}/task"):
    comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
    if comm == want:
        print(names.get(os.sched_getscheduler(int(tid)), "?"),
              os.sched_getparam(int(tid)).sched_priority)
PY
}
stat() { "$ETHDRV" stats "t1s$1" | awk -v k="$2:" '$1 == k {print $2}'; }
expect() { # expect COMM "POLICY PRIO"
	local got
	got=$(sched_of "$1")
	echo "    $1: $got"
	[[ $got == "$2" ]] || fail "$1 runs at '$got', not '$2'"
}

start_segment 2 --rt-prio 20 --set contexts=irq --set cpus=2
echo "contexts=irq cpus=2 --rt-prio 20:"
expect sirq/t1s0/0 "FIFO 20"
expect sirq/t1s0/1 "FIFO 20"
expect ethdrv/t1s0 "OTHER 0"
expect lab/0 "FIFO 21" # the wire above the driver (docs/design.md §4.5)
[[ $("$ETHDRV" get t1s0 contexts) == "contexts=irq" ]] || fail "get contexts"
[[ $("$ETHDRV" get t1s0 irq_affinity) == "irq_affinity=rx:0" ]] ||
	fail "irq_affinity: $("$ETHDRV" get t1s0 irq_affinity)"
[[ $(stat 0 node_ctx_loops) == 2 && $(stat 0 node_ctx_prio) == 20 ]] || fail "ctx counters"
ping_ok 0 1 || fail "ping in contexts=irq"
runs=$(stat 0 node_loop_softirq_runs)
ctx_cpu=$(stat 0 node_ctx_cpu_ns)
echo "    softirq runs $runs, softirq loops' CPU ${ctx_cpu} ns"
((runs > 0 && ctx_cpu > 0)) || fail "the softirq loops did not poll"

# Threaded pollers are tasks, whatever the contexts run at.
"$ETHDRV" set t1s0 threaded=1 || fail "threaded=1"
expect napi/t1s0-rx "OTHER 0"
ping_ok 0 1 || fail "ping threaded"
"$ETHDRV" set t1s0 threaded=0 || fail "threaded=0"

# Affinity: the RX line to CPU 1; bad values refused with the accepted form.
"$ETHDRV" set t1s0 irq_affinity=rx:1 || fail "irq_affinity=rx:1"
[[ $("$ETHDRV" get t1s0 irq_affinity) == "irq_affinity=rx:1" ]] || fail "affinity not moved"
ping_ok 0 1 || fail "ping after the move"
for bad in rx:2 nosuch:0 rx tx:0; do
	out=$("$ETHDRV" set t1s0 "irq_affinity=$bad" 2>&1) && fail "irq_affinity=$bad accepted"
	[[ $out == *"give NAME:CPU"* ]] || fail "irq_affinity=$bad: $out"
done
out=$("$ETHDRV" set t1s0 busy_poll=50 2>&1) && fail "busy_poll accepted in contexts=irq"
[[ $out == *"contexts=loop first"* ]] || fail "busy_poll: $out"
out=$("$ETHDRV" set t1s0 contexts=what 2>&1) && fail "contexts=what accepted"
[[ $out == *"give loop"* ]] || fail "contexts=what: $out"
# The ksoftirqd rule at an interrupt's exit: both words, read back; others refused.
for rule in defer inline; do
	"$ETHDRV" set t1s0 "irq_exit_softirq=$rule" || fail "irq_exit_softirq=$rule"
	[[ $("$ETHDRV" get t1s0 irq_exit_softirq) == "irq_exit_softirq=$rule" ]] ||
		fail "irq_exit_softirq=$rule not read back"
done
for bad in inlin defer2 Inline; do
	out=$("$ETHDRV" set t1s0 "irq_exit_softirq=$bad" 2>&1) && fail "irq_exit_softirq=$bad accepted"
	[[ $out == *"give inline"* ]] || fail "irq_exit_softirq=$bad: $out"
done
ping_ok 0 1 || fail "ping after the rule changes"

# Back to one loop: the node's thread takes the interrupts at FIFO 20 again.
"$ETHDRV" set t1s0 contexts=loop || fail "contexts=loop"
expect ethdrv/t1s0 "FIFO 20"
[[ -z $(sched_of sirq/t1s0/0) ]] || fail "softirq loop still there"
ping_ok 0 1 || fail "ping back in contexts=loop"
[[ $(stat 0 node_rt_demotions) == 0 && $(stat 1 node_rt_demotions) == 0 ]] ||
	fail "the spin guard demoted a thread"
stop_segment
assert_clean

# --lab-prio: the lab at a priority of its own, the nodes untouched.
start_segment 2 --lab-prio 5
echo "--lab-prio 5:"
expect lab/0 "FIFO 5"
expect ethdrv/t1s0 "OTHER 0"
ping_ok 0 1 || fail "ping with --lab-prio"
stop_segment
assert_clean
echo PASS
