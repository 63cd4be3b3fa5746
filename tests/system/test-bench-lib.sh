#!/usr/bin/env bash
# bench/ethdrv_bench.py: the a-priori goodput limit, the wire utilisation
# (with PLCA bursts), the ACK ratio, percentiles and fairness; the command
# line that scripts/demo.sh uses; the accounting rule of
# bench/ethdrv_accounting.py and the link MTU of bench/faults.py; all against
# values derived by hand (no root, no segment). scripts/demo.sh's refusals,
# and bench/sleep_cost.c and bench/udp_sink.c of the build directory given as $1.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d /tmp/ethdrv-bench-lib.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
python3 - "$TOP/bench" "$TMP" <<'PY'
import json
import sys
sys.path.insert(0, sys.argv[1])
import ethdrv_bench as eb

def node(k, plca=True, node_id=None, node_cnt=2, burst_cnt=0, burst_tmr=128, to_tmr=32,
         mtu=1500, timestamps=True, tcp=None):
    """One node of a snapshot (ethdrv_bench.snapshot() layout)."""
    return {"name": f"t1s{k}", "plca": plca, "node-id": k if node_id is None else node_id,
            "node-cnt": node_cnt, "to-tmr": to_tmr, "burst-cnt": burst_cnt,
            "burst-tmr": burst_tmr, "mtu": mtu, "timestamps": timestamps,
            "tcp": tcp or {"Tcp.OutSegs": 0, "TcpExt.TCPOrigDataSent": 0, "Tcp.RetransSegs": 0}}


def snap(nodes, **segment):
    """A snapshot: beacon 20, IFG 96 bit times, 100 ns bits; SEGMENT counters (default 0)."""
    seg = {k: 0 for k in ("preamble_bits", "frame_bits", "ifg_bits", "beacon_bits",
                          "silence_bits")}
    seg.update({f"port{k}_frames": 0 for k in range(len(nodes))}, lateness_ns={"buckets": {}})
    seg.update(segment)
    return {"segment": seg, "beacon_bt": 20, "ifg_bt": 96, "bit_ns": 100, "nodes": nodes}


def close(a, b, eps=1e-6):
    return abs(a - b) <= eps * max(1.0, abs(b))


# Wire utilisation. Two ports: 3 + 1 minimum-size frames (64 B = 512 bits, preamble
# 64, IFG 96). Wire: 4 * (64 + 512 + 96) = 2688 bits. A busy PLCA segment needs
# max(3, 1) = 3 cycles: 3 beacons of 20 bits + port1's 2 empty opportunities * to-tmr
# 32 = 124. t_min = 2812 bits * 100 ns = 281.2 us; 1000 payload bytes -> 3556187.77 B/s.
two = [node(0), node(1)]
wire = dict(preamble_bits=256, frame_bits=2048, ifg_bits=384, beacon_bits=80, silence_bits=64,
            port0_frames=3, port1_frames=1)
m = eb.medium_limit(snap(two), snap(two, **wire), 1000)
assert m["frame_bits"] == 2688 and m["plca_bits"] == 124 and m["cycles"] == 3, m
assert close(m["t_min"], 281.2e-6) and close(m["limit"], 1000 / 281.2e-6), m
assert m["paid_bits"] == 144 and m["frames"] == [3, 1], m
# node-cnt 4 on 2 nodes: ids 2 and 3 are empty in each of the 3 cycles: + 2 * 3 * 32.
four = [node(0, node_cnt=4), node(1, node_cnt=4)]
assert eb.medium_limit(snap(four), snap(four, **wire), 1000)["plca_bits"] == 124 + 192
# CSMA/CD (plca off on every node): no PLCA terms.
csma = [node(0, plca=False), node(1, plca=False)]
assert eb.medium_limit(snap(csma), snap(csma, **wire), 1000)["plca_bits"] == 0

# PLCA overhead with bursts (beacon 20, to-tmr 32, IFG 96).
def plca(burst_cnt, burst_tmr=(128, 128), to_tmr=32, node_cnt=2):
    return {"beacon_bt": 20, "ifg_bt": 96, "to_tmr": to_tmr, "node_cnt": node_cnt,
            "burst_cnt": list(burst_cnt), "burst_tmr": list(burst_tmr)}
# 6 + 1 frames, node 0 burst-cnt 2: 2 cycles (not max(frames) = 6), node 0 sends 3
# per cycle (full bursts, no wait), node 1 is empty once: 2 * 20 + 32 = 72 bits.
o = eb.plca_overhead([6, 1], plca([2, 0]))
assert o["cycles"] == 2 and o["beacon_bits"] + o["silence_bits"] == 72, o
# 5 + 0 frames, burst-cnt 2: ceil(5/3) = 2 cycles; node 1 silent twice (64); node 0
# at best (2 - 5/3) * 32 = 10.67 (packing) or 32 * (2 * 3 - 5) / 2 = 16 (spreading):
# 40 + 64 + 10.67. (The medium pays 40 + 64 + one burst wait of 32: the bound is below.)
o = eb.plca_overhead([5, 0], plca([2, 0]))
assert o["cycles"] == 2 and close(o["silence_bits"], 64 + 32 / 3), o
# Spreading wins when to-tmr is long: 3 + 3 frames, node 0 burst-cnt 1, to-tmr 255,
# burst-tmr 128 (a 32-bit wait after an unfinished burst): 3 cycles, node 0 sends one
# frame in each and waits 3 * 32 = 96 (packing would leave 1.5 opportunities at 255).
o = eb.plca_overhead([3, 3], plca([1, 0], to_tmr=255))
assert o["cycles"] == 3 and o["silence_bits"] == 96 and o["beacon_bits"] == 60, o
# Packing wins when the burst wait is long: 4 + 4 frames, node 0 burst-cnt 1, burst-tmr
# 255 (wait 159): 2 full bursts and 2 empty opportunities = 64.
o = eb.plca_overhead([4, 4], plca([1, 0], burst_tmr=(255, 128)))
assert o["cycles"] == 4 and o["silence_bits"] == 64, o
assert eb.plca_overhead([4, 4], None) == {"cycles": 0, "beacon_bits": 0, "silence_bits": 0}

# The a-priori goodput limit (docs/host.md §4), by hand. MTU 1500 with timestamps:
# MSS 1500 - 20 - 20 - 12 = 1448 in a 1518-byte frame: 64 + 1518 * 8 + 96 = 12304 bits;
# ACK 14 + 20 + 20 + 12 + 4 = 70 bytes: 64 + 560 + 96 = 720 bits. One flow t1s1 -> t1s0
# at 0.5 ACKs per segment: 1 cycle per segment, 20 beacon bits, t1s0 empty half the
# cycles: 16 bits. 12304 + 360 + 36 = 12700 bits = 1270 us -> 1448 / 1270 us.
p2 = plca([0, 0])
a = eb.apriori_limit(1500, True, 0.5, [(1, 0)], 2, p2, 96, 100)
assert a["mss"] == 1448 and a["data_bits"] == 12304 and a["ack_bits"] == 720, a
assert a["plca_bits"] == 36 and a["bits"] == 12700 and close(a["limit"], 1448 / 1270e-6), a
# Without timestamps: MSS 1460; the 58-byte ACK is padded to 64 (672 bits): 12304 +
# 336 + 36 = 12676 bits.
a = eb.apriori_limit(1500, False, 0.5, [(1, 0)], 2, p2, 96, 100)
assert a["mss"] == 1460 and a["ack_bits"] == 672 and close(a["limit"], 1460 / 1267.6e-6), a
# CSMA/CD: frames only, 12304 + 360.
a = eb.apriori_limit(1500, True, 0.5, [(1, 0)], 2, None, 96, 100)
assert a["bits"] == 12664, a
# MTU 173 (the fault campaign at BER 1e-4): MSS 121 in a 191-byte frame (1688 bits).
a = eb.apriori_limit(173, True, 0.5, [(0, 1)], 2, p2, 96, 100)
assert a["mss"] == 121 and a["data_bits"] == 1688 and a["bits"] == 1688 + 360 + 36, a
# 8 nodes all-to-all (56 flows): each node sends (7 + 0.5 * 7) / 56 = 0.1875 frames per
# data segment, no empty opportunity: 0.1875 cycles, 3.75 beacon bits.
p8 = plca([0] * 8, [128] * 8, node_cnt=8)
a = eb.apriori_limit(1500, True, 0.5, [(s, r) for s in range(8) for r in range(8) if s != r],
                     8, p8, 96, 100)
assert close(a["cycles"], 0.1875) and close(a["bits"], 12304 + 360 + 3.75), a
# 8 nodes all-to-one: t1s0 sends 0.5 ACKs per segment, each sender 1/7 of the data:
# 0.5 cycles (t1s0 is the bottleneck), 10 beacon bits, 7 * (0.5 - 1/7) * 32 = 80 silence.
one8 = [(k, 0) for k in range(1, 8)]
a = eb.apriori_limit(1500, True, 0.5, one8, 8, p8, 96, 100)
assert close(a["cycles"], 0.5) and close(a["plca_bits"], 90), a
# ... and with burst-cnt 3 on t1s0: 1/7 cycle per segment (now the senders bound it);
# t1s0 packs 0.5 ACKs in 0.125 opportunities, empty for the other 1/56: 32/56 bits.
p8b = plca([3] + [0] * 7, [128] * 8, node_cnt=8)
a = eb.apriori_limit(1500, True, 0.5, one8, 8, p8b, 96, 100)
assert close(a["cycles"], 1 / 7) and close(a["plca_bits"], 20 / 7 + 32 / 56), a

# The ACK ratio from the TCP counters: t1s0 sent 510 segments, 10 with new data (the
# HTTP request); t1s1 1000 new data segments and 20 retransmissions: 500 pure ACKs
# per 1030 data segments on the wire.
tcp = lambda out, data, re: {"Tcp.OutSegs": out, "TcpExt.TCPOrigDataSent": data,  # noqa: E731
                             "Tcp.RetransSegs": re}
b4 = snap([node(0, tcp=tcp(7, 1, 0)), node(1, tcp=tcp(3, 2, 0))])
af = snap([node(0, tcp=tcp(517, 11, 0)), node(1, tcp=tcp(1003, 1002, 20))],
          **dict(wire, port0_frames=3, port1_frames=1))
r = eb.ack_ratio(b4, af)
assert r["acks"] == 500 and r["data_segments"] == 1030 and close(r["ratio"], 500 / 1030), r
# limits(): both columns of one transfer: 1000 B in 1 ms.
lim = eb.limits(b4, af, 1000, 1e-3, [(1, 0)])
exp = eb.apriori_limit(1500, True, 500 / 1030, [(1, 0)], 2, p2, 96, 100)["limit"]
assert close(lim["pct_apriori"], 100 * 1e6 / exp), lim
assert close(lim["utilisation"], 100 * 281.2e-6 / 1e-3), lim
assert "ACK ratio 0.485 (500 pure ACKs / 1030 data segments" in eb.describe_limits(lim)[0]
# One MTU below 1500 on either node sets the MSS; timestamps count only if every node has them.
lo = lambda s: {**s, "nodes": [s["nodes"][0], {**s["nodes"][1], "mtu": 576,  # noqa: E731
                                                "timestamps": False}]}
assert eb.limits(lo(b4), lo(af), 1000, 1e-3, [(1, 0)])["apriori"]["mss"] == 536
# The measurement's tolerance (TOLERANCE_FORMULA): edge bytes plus one MTU over limit x time.
assert close(eb.tolerance(500, 1e6, 1.0), 2000 / 1e6)
assert close(eb.tolerance(-500, 1e6, 1.0), 2000 / 1e6)
assert eb.verdict(1.002e6, 1e6, 0.002) == "ok" and eb.verdict(1.0021e6, 1e6, 0.002) == "REFUSED"
assert close(lim["tolerance_pct"], 100 * 1500 / (exp * 1e-3)), lim
assert lim["verdict"] == ("ok" if 1e6 <= exp * (1 + 1500 / (exp * 1e-3)) else "REFUSED")
fast = eb.limits(b4, af, 10**6, 1e-3, [(1, 0)])  # 1 GB/s: far beyond the tolerance
assert fast["verdict"] == "REFUSED", fast
try:
    eb.refuse_above("x", [fast])
    raise AssertionError("refuse_above accepted a refused result")
except SystemExit:
    pass
assert "REFUSED" in eb.verdict_text(["ok", "REFUSED"])

# Set-ups the limits do not model are refused with a reason.
def refused(before, after, flows=((1, 0),), why=""):
    try:
        eb.limits(before, after, 1000, 1.0, list(flows))
    except eb.LimitError as e:
        assert why in str(e), e
        return True
    return False
mixed = snap([node(0), node(1, plca=False)])
assert refused(mixed, mixed, why="PLCA and CSMA/CD")
high = snap([node(0), node(1, node_id=2)])
assert refused(high, high, why="never gets a transmit opportunity")
dup = snap([node(0), node(1, node_id=0)])
assert refused(dup, dup, why="share a PLCA node-id")
assert refused(snap(two), snap([node(0), node(1, burst_cnt=1)]), why="changed during the run")
assert refused(snap(two), snap(two), flows=(), why="no flows")
assert eb.parse_flows("1:0,2:0") == [(1, 0), (2, 0)]
for bad in ("1:1", "1", "a:b", "1:0:2", "-1:0"):
    try:
        eb.parse_flows(bad)
        raise AssertionError(f"parse_flows accepted {bad}")
    except ValueError:
        pass
for name, data in (("before", b4), ("after", af), ("mixed", mixed)):
    with open(f"{sys.argv[2]}/{name}.json", "w") as f:
        json.dump(data, f)
print("ok: ethdrv_bench limits (a-priori, wire utilisation, PLCA bursts, ACK ratio, refusals)")

# Percentiles interpolate between neighbours; histogram percentiles give the bucket bound.
assert eb.percentile([4, 1, 3, 2], 50) == 2.5
assert eb.percentile([1, 2, 3, 4, 5], 99) == 4.96
assert eb.hist_percentile({1: 1, 3: 1, 7: 2}, 50) == 3
assert eb.hist_percentile({1: 1, 3: 1, 7: 2}, 99) == 7
assert eb.hist_delta({"buckets": {"3": 5, "7": 2}}, {"buckets": {"3": 5, "7": 1}}) == {7: 1}
# Jain: equal shares 1; one of two nodes starved 0.5.
assert eb.jain([1, 1]) == 1.0 and eb.jain([1, 0]) == 0.5
assert eb.delta({"a": 5, "h": {}}, {"a": 2}) == {"a": 3}
print("ok: ethdrv_bench percentile, hist_percentile, jain, delta")

import ethdrv_accounting as acct
import faults

# One node of a 2-node segment: 10 frames sent, 8 on the wire, 1 FCS drop in
# the chip, 1 refused by the driver; 8 offered, all received.
node = {k: 0 for k in ("tx_dropped", "tx_aborted_errors", "tx_aborted_started",
                       "emu_rx_dropped_filter", "emu_rx_dropped_overflow",
                       "emu_rx_overflow_buffered", "emu_rx_flushed", "emu_rx_cut",
                       "emu_miso_sv_hidden", "node_tap_tx_dropped", "emu_miso_ftr_undetected",
                       "emu_mosi_hdr_undetected", *acct.TX_MODEL, *acct.RX_ARRIVAL,
                       *acct.RX_DRIVER)}
node.update(node_tap_rx_frames=10, tx_packets=9, tx_dropped=1, emu_tx_started=9,
            emu_tx_frames=8, emu_tx_fcs_errors=1, node_tap_tx_frames=8, emu_rx_started=8,
            rx_started=8, rx_packets=8)
seg = {"port0_frames": 8, "port0_excessive_collisions": 0, "port0_dropped": 0,
       "port1_frames": 8}
rows = [acct.node_terms(0, node, seg, 2)]
assert acct.verdict(rows) == "balanced", acct.report(rows)
# A header that gained SV without breaking parity: the chip started one frame
# more than the driver sent (and dropped it). Unexplained, it is an imbalance;
# with one undetected header corruption it is explained, on the MOSI hop only.
bad = dict(node, emu_tx_started=10, emu_tx_fcs_errors=2)
rows = [acct.node_terms(0, bad, seg, 2)]
assert rows[0]["tx_hops"] == [0, -1, 0, 0] and acct.verdict(rows) == "IMBALANCE"
rows = [acct.node_terms(0, dict(bad, emu_mosi_hdr_undetected=1), seg, 2)]
assert acct.verdict(rows) == "balanced (1 explained)", acct.report(rows)
# An undetected footer corruption cannot explain a TX difference.
rows = [acct.node_terms(0, dict(bad, emu_miso_ftr_undetected=1), seg, 2)]
assert acct.verdict(rows) == "IMBALANCE"
# Nor a lost frame at the TAP: only the MOSI and MISO hops may move.
rows = [acct.node_terms(0, dict(node, node_tap_tx_frames=7, emu_mosi_hdr_undetected=5,
                                emu_miso_ftr_undetected=5), seg, 2)]
assert acct.verdict(rows) == "IMBALANCE"

# A 1500-byte MTU frame: 1518 bytes in 24 chunks = 12144 + 768 bits.
assert faults.frame_bits(1500) == 12912
assert abs(faults.survival(1e-4, 1500) - (1 - 1e-4) ** 12912) < 1e-12
# BER 1e-5 keeps 1500 (0.879); 1e-4 needs 3 chunks at most: 191 bytes with
# 3 footers = 1624 bits, 0.85 survival -> MTU 173.
assert faults.link_mtu(1e-5, 0.85) == 1500 and faults.link_mtu(0, 0.85) == 1500
assert faults.link_mtu(1e-4, 0.85) == 173
print("ok: ethdrv_accounting verdicts, faults link_mtu")
PY

# The command line demo.sh uses: the same numbers; a refused set-up exits 1
# with the reason, bad arguments exit 2.
lib=$TOP/bench/ethdrv_bench.py
out=$(python3 "$lib" limits "$TMP/before.json" "$TMP/after.json" 1000 0.001 1:0)
grep -q 'measured ACK ratio 0.485 (500 pure ACKs / 1030 data segments' <<<"$out"
grep -q 'wire utilisation 28.1 %' <<<"$out"
rc=0
err=$(python3 "$lib" limits "$TMP/mixed.json" "$TMP/mixed.json" 1000 1 1:0 2>&1) || rc=$?
[[ $rc -eq 1 ]] && grep -q 'PLCA and CSMA/CD nodes' <<<"$err"
rc=0
python3 "$lib" limits "$TMP/before.json" "$TMP/after.json" 1000 1 1:1 2>/dev/null || rc=$?
[[ $rc -eq 2 ]]
echo "ok: ethdrv_bench.py limits command line"

# scripts/demo.sh refuses a bad setting before it needs root, naming the values.
for bad in DEMO_RT_PRIO=x DEMO_RT_PRIO=100 DEMO_FQ=x DEMO_PCAP=yes; do
	rc=0
	err=$(env "$bad" bash "$TOP/scripts/demo.sh" "$TMP" 2>&1) || rc=$?
	[[ $rc -eq 2 ]] || { echo "FAIL: demo $bad exited $rc"; exit 1; }
	grep -q "demo: ${bad%%=*}=${bad#*=}: want " <<<"$err" || { echo "FAIL: demo $bad: $err"; exit 1; }
done
echo "ok: demo.sh refuses bad DEMO_* settings"

# bench/sleep_cost.c: with each way to sleep, every sleep lasts at least its
# period (the timer never fires early), its CPU and lateness are reported;
# bad arguments exit 2.
# bench/hostpath-cause.py: its node report adds up per frame moved and refuses a stats
# dump without its keys; --pin, --slice and --batch refuse a thread name that matches
# nothing and a value out of range; a slice set is the slice the kernel reports.
python3 - "$TOP/bench" <<'PY'
import contextlib, importlib.util, io, os, sys
spec = importlib.util.spec_from_file_location("hc", sys.argv[1] + "/hostpath-cause.py")
hc = importlib.util.module_from_spec(spec)
sys.path.insert(0, sys.argv[1])
spec.loader.exec_module(hc)
b = {k: 0 for k in hc.NODE_KEYS}
a = dict(b, node_loop_wakeups=200, node_tap_rx_frames=6000, node_tap_tx_frames=4000,
         node_loop_cpu_ns=20000000, fec_irqs=100, napi_rx_thread_wakeups=50)
out = io.StringIO()
with contextlib.redirect_stdout(out):
    hc.nodes_report(2.0, [b, b], [a, a])
text = out.getvalue()
assert "loop wakeups 100 (0.02 per frame moved)" in text, text
assert "poller-thread wakeups 25" in text and "100.0 us per wakeup" in text, text
try:
    hc.nodes_report(1.0, [b], [{"node_loop_wakeups": 1}])
    raise AssertionError("a dump without the keys passed")
except SystemExit as e:
    assert "has no" in str(e), e
try:
    hc.pin_threads({"no-such-thread": 0})
    raise AssertionError("an unknown thread name passed")
except SystemExit as e:
    assert "no ethdrv thread named no-such-thread" in str(e), e
e0 = {k: 0 for k in hc.ENGINE_KEYS}
e1 = dict(e0, wakeups=2000, engine_cpu_ns=10 ** 9, lab_rt_prio="51", lab_rt_demotions="1")
out = io.StringIO()
with contextlib.redirect_stdout(out):
    hc.engine_report((0.0, dict(e0, lab_rt_demotions="0")), (2.0, e1))
text = out.getvalue()
assert "wakeups 1000," in text and "500.0 us per wakeup" in text, text
assert "at SCHED_FIFO 51; put back to SCHED_OTHER by its spin guard over the span: 1" in text, text
for what, specs, unit in (("pin", ["enet0=x"], "CPU"), ("slice", ["enet0=99"], "US"),
                          ("slice", ["enet0=100001"], "US")):
    try:
        hc.thread_values(specs, what, unit, 100 if what == "slice" else 0, 100000)
        raise AssertionError(f"--{what} {specs} passed")
    except SystemExit as e:
        assert f"--{what} {specs[0]}: use THREAD={unit}" in str(e), e
assert hc.thread_values(["enet1=200", "fdx-line=3000"], "slice", "US", 100, 100000) == \
    {"ethdrv/enet1": 200, "fdx-line": 3000}
for fn, arg in ((hc.slice_threads, {"ethdrv/no-such": 200}),
                (lambda w: hc.each_thread(w, "batch", hc.batch_tid), {"ethdrv/no-such": None})):
    try:
        fn(arg)
        raise AssertionError("an unknown thread name passed")
    except SystemExit as e:
        assert "no ethdrv thread named ethdrv/no-such" in str(e), e
if not any(comm == "iperf3" for comm in os.popen("ps -eo comm").read().split()):
    try:
        hc.batch_iperf3()
        raise AssertionError("--batch iperf3 passed with no iperf3 running")
    except SystemExit as e:
        assert "0 iperf3 processes, want 2" in str(e), e
import re, threading
if tuple(map(int, re.match(r"(\d+)\.(\d+)", os.uname().release).groups())) >= (6, 12):
    tid = threading.get_native_id()
    hc.eb.set_fair_slice(tid, 300000)
    assert hc.eb.fair_slice(tid) == 300000, hc.eb.fair_slice(tid)
    hc.eb.set_fair_slice(tid, 0)  # back to the kernel's base slice
    assert hc.eb.fair_slice(tid) != 300000
else:
    print("skip: EEVDF slices need Linux 6.12+")
print("ok: hostpath-cause node report, --pin/--slice/--batch refusals, the slice round trip")
PY

# refuses PROGRAM ARGS...: each ARGS (one word-split string) makes PROGRAM exit 2.
refuses() {
	local prog=$1 bad rc
	shift
	for bad in "$@"; do
		rc=0
		"$prog" $bad >/dev/null 2>&1 || rc=$?
		[[ $rc -eq 2 ]] || { echo "FAIL: ${prog##*/} $bad exited $rc"; exit 1; }
	done
}

if [[ -n ${1:-} ]]; then
	sc=$1/bench/sleep-cost
	[[ -x $sc ]] || { echo "FAIL: $sc not built"; exit 1; }
	for wait in cond nanosleep timerfd; do
		"$sc" --sleeps 50 --period-us 200 --cpu 0 --wait $wait | WAIT=$wait python3 -c '
import json, os, sys
r = json.load(sys.stdin)
assert r["wait"] == os.environ["WAIT"], r
assert r["sleeps"] == 50 and r["period_us"] == 200 and r["cpu"] == 0, r
assert r["wall_ns_per_sleep"] >= 200000, r
assert 0 < r["cpu_ns_per_sleep"] < r["wall_ns_per_sleep"], r
assert 0 <= r["late_p50_ns"] <= r["late_p99_ns"], r'
	done
	refuses "$sc" "--sleeps 0" "--period-us x" "--cpu -2" "--bogus 1" "extra" "--wait spin"
	echo "ok: sleep-cost"
	# bench/udp_sink.c --cost-ns: 10 datagrams over loopback at 1 ms each cost the
	# sink at least 10 ms of its own CPU; bad values exit 2 naming the range.
	us=$1/bench/udp-sink
	python3 - "$us" "$TMP/ready" <<'PY'
import json, os, socket, subprocess, sys, time
sink, ready = sys.argv[1:]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
# --seconds 2: the sink stops by itself, after it has taken the datagrams
p = subprocess.Popen([sink, "--port", str(port), "--addr", "127.0.0.1", "--cost-ns", "1000000",
                      "--seconds", "2", "--ready", ready], stdout=subprocess.PIPE, text=True)
t0 = time.monotonic()
while not os.path.exists(ready):
    assert p.poll() is None and time.monotonic() - t0 < 10, "udp-sink did not start"
    time.sleep(0.01)
c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(10):
    c.sendto(i.to_bytes(8, "big") + bytes(10), ("127.0.0.1", port))
r = json.loads(p.communicate(timeout=30)[0])
assert r["datagrams"] == 10 and r["seq_gaps"] == 0 and r["cost_ns"] == 1000000, r
assert r["cpu_ns"] >= 10 * 1000000, r
PY
	for bad in "--cost-ns x" "--cost-ns -1" "--cost-ns 1000001"; do
		rc=0
		err=$("$us" $bad 2>&1 >/dev/null) || rc=$?
		[[ $rc -eq 2 && $err == *"want 0..1000000 ns"* ]] ||
			{ echo "FAIL: udp-sink $bad exited $rc: $err"; exit 1; }
	done
	echo "ok: udp-sink --cost-ns"
	# bench/stall_probe.c: a spinner that shares CPU 0 with the probe's thread takes
	# about half of it, which the probe must find as stalls; the stalls add up, the
	# time both CPUs were stalled is within each one's; bad arguments exit 2.
	sp=$1/bench/stall-probe
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	"$sp" --seconds 1 --cpus "$(($(nproc) > 1 ? 2 : 1))" >"$TMP/stall.json"
	kill "$hog"
	python3 - "$TMP/stall.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c0 = r["cpus"][0]
keys = ("lt_50us", "lt_100us", "lt_300us", "lt_1ms", "lt_3ms", "ge_3ms")
assert r["seconds"] == 1 and r["gap_us"] == 20 and r["steal_ms"] >= 0, r
assert 200 <= c0["stalled_ms"] <= 1000, r  # the hog's share of CPU 0
assert sum(c0[k] for k in keys) * 20e-3 <= c0["stalled_ms"] <= sum(c0[k] for k in keys) * \
    c0["max_us"] / 1e3, r
assert r["cpu0_cpu1_stalled_ms"] <= min(c["stalled_ms"] for c in r["cpus"]), r
PY
	refuses "$sp" "--seconds 0" "--gap-us 4" "--cpus 0" "--cpus 99" "--bogus 1" "extra"
	echo "ok: stall-probe"
else
	echo "skip: sleep-cost, udp-sink, stall-probe (no build directory given)"
fi
