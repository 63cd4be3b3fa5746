#!/usr/bin/env bash
# bench/napi_modes_lib.py (the arithmetic and tables of `ethdrv bench
# napi-modes`): the line limits, the tools' outputs, a run's figures, the
# collapse and target verdicts, the markers of docs/benchmarks.md; all against values
# derived by hand (no root, no link). And the script's --help runs.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$TOP/bench" <<'PY'
import json
import sys
sys.path.insert(0, sys.argv[1])
import napi_modes_lib as nm

def close(a, b, eps=1e-9):
    return abs(a - b) <= eps * max(1.0, abs(b))

# TCP at MTU 1500 with timestamps: MSS 1500 - 20 - 20 - 12 = 1448 in a 1514-byte
# frame: 8 + 1514 + 4 + 12 = 1538 wire bytes: 1000 * 1448 / 1538 = 941.48 Mb/s.
t = nm.tcp_limit(1000)
assert t["mss"] == 1448 and t["wire"] == 1538 and close(t["mbps"], 1448000 / 1538), t
assert close(nm.tcp_limit(100)["mbps"], 144800 / 1538)
# No timestamps: MSS 1460. MTU 9000 (no frame size cap in the formula).
assert nm.tcp_limit(1000, 1500, False)["mss"] == 1460
assert nm.tcp_limit(1000, 9000)["wire"] == 8 + 9014 + 4 + 12
# UDP: 18 payload bytes make a 60-byte frame, 84 bytes of wire time: 1e9 / 672 =
# 1488095.2 frames/s at 1 Gb/s; 1472 bytes a 1514-byte frame: 1e9 / 12304.
u = nm.udp_limit(1000, 18)
assert u["wire"] == 84 and close(u["pps"], 1e9 / 672) and close(u["mbps"], 1e9 / 672 * 144 / 1e6)
assert close(nm.udp_limit(100, 18)["pps"], 1e8 / 672)
assert close(nm.udp_limit(1000, 1472)["pps"], 1e9 / 12304)
# A payload below 18 bytes is padded to the same 60-byte frame.
assert nm.udp_limit(1000, 8)["wire"] == 84
print("ok: napi_modes_lib limits")

# iperf3 -J of the client: received bytes and time, retransmits of the sender.
j = {"end": {"sum_received": {"bytes": 1177500000, "seconds": 10.0},
             "sum_sent": {"bytes": 1177600000, "retransmits": 3}}}
r = nm.iperf_result(json.dumps(j))
# edge: sent - received, the data at the receiver interval's edges (TOLERANCE_FORMULA)
assert r == {"bytes": 1177500000, "seconds": 10.0, "edge": 100000, "retransmits": 3}, r
try:
    nm.iperf_result(json.dumps({"error": "unable to connect"}))
    raise AssertionError("an iperf3 error was accepted")
except RuntimeError as e:
    assert "unable to connect" in str(e)
pings = ("64 bytes from 169.254.20.2: icmp_seq=1 ttl=64 time=0.120 ms\n"
         "64 bytes from 169.254.20.2: icmp_seq=2 ttl=64 time=1.5 ms\n"
         "--- 169.254.20.2 ping statistics ---\nrtt min/avg/max/mdev = 0.1/0.8/1.5/0.7 ms\n")
assert nm.ping_rtts(pings) == [0.120, 1.5]
p = nm.ping_percentiles([1.0, 2.0, 3.0, 4.0, 5.0])
assert p["p50"] == 3.0 and close(p["p99"], 4.96) and p["n"] == 5
assert nm.ping_percentiles([]) == {"p50": None, "p99": None, "n": 0}
print("ok: napi_modes_lib iperf3 and ping parsing")

# One TCP run: 941 MB in 8 s = 941 Mb/s; 941 / 941.48 = 99.95 %. The sender's
# threads used 2.823 s of CPU: 3 ms/MB; 94100 IRQs: 100/MB; 47050 loop + 47050
# poller wakeups: 100/MB.
res = {"bytes": 941000000, "seconds": 8.0, "retransmits": 0,
       "ping": {"p50": 0.5, "p99": 2.0, "n": 700}}
tx = {"node_loop_cpu_ns": 2000000000, "node_poller_cpu_ns": 823000000, "fec_irqs": 94100,
      "node_loop_wakeups": 47050, "napi_tx_thread_wakeups": 47050, "fec_tx_ring_full": 7}
rx = {"node_loop_cpu_ns": 941000000}
# In a 2 s window in the middle the MAC idled 20 ms (1 %); 245100000 wire bytes
# of port 0 at 1000 Mb/s: 1.9608 s of 2 s (98.04 %).
st = nm.steady_state({"emu_tx_idle_ns": 20000000}, {"port0_bytes": 245100000}, 2.0, 1000)
assert close(st["tx_idle_pct"], 1.0) and close(st["wire_pct"], 98.04), st
assert nm.steady_state({}, {}, 0, 1000) == {"tx_idle_pct": None, "wire_pct": None}
row = nm.tcp_row(res, tx, rx, {"catchup_cpu_ns": 470500000}, 1448000 / 1538, st)
assert close(row["mbps"], 941.0) and close(row["pct"], 100 * 941.0 * 1538 / 1448000), row
assert close(row["tx_cpu_ms_mb"], 3.0) and close(row["rx_cpu_ms_mb"], 1.0), row
assert close(row["model_ms_mb"], 0.5), row
assert close(row["irqs_mb"], 100.0) and close(row["wakeups_mb"], 100.0), row
assert row["ring_full"] == 7 and row["rtt_p50"] == 0.5 and row["rtt_p99"] == 2.0
assert close(row["tx_idle_pct"], 1.0) and close(row["wire_pct"], 98.04), row
assert nm.tcp_row(res, tx, rx, {}, 941.48)["tx_idle_pct"] is None
# The tolerance: (edge 0 + one MTU) / (limit x time) = 1500 / (117.685 MB/s x 8 s); 99.95 %
# is within it, 941 Mb/s against a 940 Mb/s limit (100.1 %) is beyond it: refused.
assert close(row["tol"], 100 * 1500 / (1448000 / 1538 * 1e6 / 8 * 8.0)), row
assert row["verdict"] == "ok", row
assert nm.tcp_row(res, tx, rx, {}, 940.0)["verdict"] == "REFUSED"
# The TCP target: split >= 99 % and better than combined on CPU or wakeups.
comb = dict(row, pct=80.0, tx_cpu_ms_mb=4.0, wakeups_mb=90.0)
rows = [(1000, True, True, 1, 941.48, row), (1000, False, True, 1, 941.48, comb),
        (100, True, True, 1, 94.1, dict(row, pct=50.0))]
tt = nm.tcp_target(rows)
assert len(tt) == 1 and tt[0]["rate_ok"] and tt[0]["better"], tt
tt = nm.tcp_target([(1000, True, True, 1, 941.48, dict(row, pct=98.9, tx_cpu_ms_mb=4.5,
                                                        wakeups_mb=95.0)), rows[1]])
assert not tt[0]["rate_ok"] and not tt[0]["better"], tt
assert "MISSED" in nm.tcp_target_table(tt) and "| 98.90 |" in nm.tcp_target_table(tt)
assert "| 1000 | split | on | off | 1 | 941.0 | 941.5 | 99.95 | 0.0002 | ok | 3.00 | 1.00 | 0.50 | 100 | 100 | 7 |" \
    in nm.tcp_table(rows), nm.tcp_table(rows)
# With the fair queue on and off in one run, each split row pairs with the combined
# row of its own fq setting, and the tables say which.
fq_rows = rows[:2] + [(1000, True, True, 1, 941.48, dict(row, fq="on", tx_cpu_ms_mb=5.0,
                                                         wakeups_mb=95.0)),
                      (1000, False, True, 1, 941.48, dict(comb, fq="on"))]
tt = nm.tcp_target(fq_rows)
assert [(t["fq"], t["better"]) for t in tt] == [("off", True), ("on", False)], tt
assert tt[1]["combined"]["fq"] == "on", tt
assert "| on | on | 1 | 99.95 |" in nm.tcp_target_table(tt), nm.tcp_target_table(tt)
assert "| 1000 | split | on | on | 1 |" in nm.tcp_table(fq_rows), nm.tcp_table(fq_rows)
print("ok: napi_modes_lib TCP figures and target")

# One flood: 3 s, 4464286 offered (1488095/s), 300000 delivered; drops by place.
sink = {"datagrams": 300000, "bytes": 5400000, "socket_drops": 11, "cpu_ns": 600000000,
        "voluntary_switches": 1000}
node = {"fec_rx_missed": 4000000, "rx_errors": 1, "fec_rx_alloc_failed": 2,
        "node_tap_tx_dropped": 3, "node_loop_cpu_ns": 2400000000, "node_loop_wakeups": 29000,
        "fec_irqs": 30000}
# Udp.InErrors counts the full socket buffer (RcvbufErrors) too: the kernel's own
# drops are 4 + 5 + (17 - 11) + 7 = 22.
ns = {"rx_dropped": 4, "Ip.InDiscards": 5, "Udp.InErrors": 17, "Udp.RcvbufErrors": 11,
      "Udp.NoPorts": 7}
link = {"catchup_cpu_ns": 300000000, "engine_cpu_ns": 1500000000}
u = nm.udp_row(sink, 4464286, 3.0, node, ns, link, 18)
assert u["drops"] == {"ring": 4000000, "driver": 3, "tap": 3, "kernel": 22}, u
assert close(u["pps"], 100000.0) and close(u["mbps"], 100000 * 144 / 1e6), u
assert close(u["offered_pps"], 4464286 / 3) and u["socket_drops"] == 11
assert close(u["delivered_pct"], 100 * 300000 / 4464286) and u["lost"] == 4164286
# (2.4 + 0.6) s of CPU for 300000 packets: 10 us each, of it 0.3 s (1 us) the
# model's events in the driver's thread, 2.1 s (7 us) the driver's, 0.6 s (2 us)
# the sink's; 29000 node wakeups (0.0967) and 1000 sink ones (0.0033); the engine
# used 1.5 s in 3 s: 50 %; the offered rate would need 3 s / 3 s * 4464286 /
# 300000 = 14.88 CPUs.
assert close(u["cpu_us_pkt"], 10.0) and close(u["driver_us_pkt"], 7.0), u
assert close(u["model_us_pkt"], 1.0) and close(u["sink_us_pkt"], 2.0), u
assert close(u["node_wakeups_pkt"], 29000 / 300000) and close(u["sink_wakeups_pkt"], 1 / 300), u
assert close(u["engine_pct"], 50.0), u
assert close(u["irqs_pkt"], 0.1) and close(u["cpus_needed"], 4464286 / 300000), u
z = nm.udp_row(dict(sink, datagrams=0), 100, 1.0, {}, {}, {}, 18)
assert z["cpu_us_pkt"] is None and z["cpus_needed"] is None and z["pps"] == 0
assert "| - |" in nm.udp_table([(1000, 18, 1, "irq", z)])
assert "| 1000 | 18 | 1 | irq | 1488.1 | 100.0 | 14.40 | 6.7 | 4000000 | 3 | 3 | 22 | 11 | " \
    "7.00 | 1.00 | 2.00 | 0.097 | 0.003 | 0.100 | 50 | 14.88 |" in \
    nm.udp_table([(1000, 18, 1, "irq", u)]), nm.udp_table([(1000, 18, 1, "irq", u)])
# Collapse: interrupt per packet at 6.7 % of offered, the best mode 12x more.
good = dict(u, pps=1200000.0, mbps=172.8, delivered_pct=80.6)
flood = [(1000, 18, 1, "irq", u), (1000, 18, 1, "sw", good),
         (1000, 18, 1, "hw", dict(u, pps=200000.0)), (1000, 18, 2, "sw", dict(u, pps=9e9)),
         (100, 18, 1, "irq", dict(u, delivered_pct=100.0, pps=148809.5)),
         (100, 18, 1, "sw", dict(u, delivered_pct=100.0, pps=148809.5))]
c = nm.collapse(flood)
assert [(x["speed"], x["best"], x["collapsed"]) for x in c] == \
    [(100, "sw", False), (1000, "sw", True)], c
assert close(c[1]["ratio"], 12.0) and close(c[0]["ratio"], 1.0)
tab = nm.collapse_table(c)
assert "| 1000 | 18 | 14.40 | 6.7 | yes | sw | 172.80 | 12.0 | met |" in tab, tab
assert "| no |" in tab and "n/a" in tab
# The wakeup cost as bench/wake_cost.c measured it in the run.
wc = nm.wakeup_cost({"wakeups": 2000, "us_per_wakeup": 4.2})
assert close(wc["us"], 4.2) and wc["n"] == 2000, wc
assert nm.wakeup_cost(None) is None and nm.wakeup_cost({"wakeups": 0}) is None
ex = nm.explain(c, {"us": 10.0})
assert "- 1000 Mb/s, 18 B, irq (irq): 10.00 us of CPU per delivered packet (driver 7.00, " \
    "model events in the driver's thread 1.00, sink 2.00); node wakeups per packet 0.097 " \
    "(at 10.0 us each at most 0.97 us, 14 % of the driver's 7.00 us), interrupts per " \
    "packet 0.100, sink wakeups per packet 0.003; the offered 1488.1 kpps need 14.88 CPUs" \
    in ex, ex
# A row's wakeups never cost more than the driver CPU that row measured.
ex = nm.explain(c, {"us": 100.0})
assert "at most 7.00 us (capped: the driver CPU of the row), 100 % of the driver's 7.00 us" \
    in ex, ex
assert "us each" not in nm.explain(c, None)
c = nm.collapse([(1000, 18, 1, "irq", u), (1000, 18, 1, "hw", dict(u, pps=900000.0))])
assert "MISSED" in nm.collapse_table(c)
print("ok: napi_modes_lib UDP figures, drops by place, collapse verdict")
# The lab's clock: 1000 interrupts for 990 frames written + 10 with errors = 1.000;
# lateness buckets {4095: 90, 65535: 9, 262143: 1}: p50 4.095 us, p99 65.535 us,
# max bucket 262.143 us; 2 slips of 3.5 ms in all.
lc = nm.lab_clock({"fec_irqs": 1000, "rx_packets": 990, "rx_errors": 10},
                  {"slips": 2, "slip_ns": 3500000}, {4095: 90, 65535: 9, 262143: 1})
assert close(lc["irqs_frame"], 1.0) and close(lc["late_p50_us"], 4.095), lc
assert close(lc["late_p99_us"], 65.535) and close(lc["late_max_us"], 262.143), lc
assert lc["slips"] == 2 and close(lc["slip_ms"], 3.5), lc
assert nm.lab_cells(lc) == ["1.000", "4.1", "65.5", "262.1", "2", "3.50"], nm.lab_cells(lc)
none = nm.lab_clock({}, {}, None)
assert nm.lab_cells(none) == ["-"] * 6, none
# The rate table: 0.990 interrupts per frame with everything delivered
# is within 1.00 +- 0.02 (met); 0.97 misses; a driver behind is n/a.
ok = dict(u, delivered_pct=100.0, drops=dict(u["drops"], ring=0), **lc)
rt = nm.irq_rate_table([(1000, 1, dict(ok, irqs_frame=0.99)),
                        (5000, 1, dict(ok, irqs_frame=0.97)),
                        (50000, 1, dict(ok, delivered_pct=90.0, irqs_frame=0.5))])
assert rt.count("| met |") == 1 and "| MISSED |" in rt and "n/a (driver behind)" in rt, rt
print("ok: napi_modes_lib lab clock columns and the interrupt-per-packet target")

# README: the table goes between the markers, the rest stays.
text = "a\n<!-- napi-modes:begin -->\nold\n<!-- napi-modes:end -->\nb\n"
assert nm.readme_update(text, "| t |\n") == \
    "a\n<!-- napi-modes:begin -->\n| t |\n<!-- napi-modes:end -->\nb\n"
try:
    nm.readme_update("no markers", "x")
    raise AssertionError("README without markers accepted")
except ValueError:
    pass
print("ok: napi_modes_lib README markers")
PY

# Seed 004 (bench/napi_seed004.py): knee, spread verdict, ratio, merging parts.
python3 - "$TOP/bench" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import napi_seed004 as s4

s = s4.summarise([{"pps": 10}, {"pps": 30}, {"pps": 20}, {"pps": 12}])
assert s == {"median": 16.0, "min": 10, "max": 30, "spread": 20, "n": 4}, s
assert s4.summarise([])["median"] is None
# The knee: the last rate before the first that delivered under 95 % of itself.
assert s4.knee([(10, 10), (20, 19), (40, 37.9), (80, 2)]) == (20, True)
assert s4.knee([(10, 9.6), (20, 19.0)]) == (20, False)  # no knee in the sweep
assert s4.knee([(10, 1), (20, 19)]) == (None, True)  # below the sweep
# Better only beyond the larger spread of the two cells.
a = {"median": 100, "spread": 10}
assert s4.verdict(a, {"median": 89, "spread": 10}) == "better"
assert s4.verdict(a, {"median": 90, "spread": 10}) == "no difference"
assert s4.verdict(a, {"median": 95, "spread": 1}) == "no difference"
assert s4.verdict({"median": 5, "spread": 1}, a) == "worse"
assert s4.ratio(50, 5) == 10 and s4.ratio(1, 0) == float("inf") and s4.ratio(0, 0) is None
# A part measured again replaces its (payload, app) cells; other parts stay.
def d(cells, parts):
    return {"device": "gbeth", "cost_ns": 1, "seconds": 1, "runs": 1, "modes": ["old"],
            "knees": [], "command": "c", "date": "t", "load": [0, 0, 0],
            "floor": {"other_pct": 5}, "parts": parts,
            "cells": [s4.cell(p, ap, "old", r, []) for p, ap, r in cells]}
old = d([(18, "sink", 1), (18, "sink", 2), (1472, "sink", 1)],
        [{"cells": ["18 B sink"]}, {"cells": ["1472 B sink"]}])
new = d([(18, "sink", 3)], [])
m = s4.merge(old, new)
assert sorted((c["payload"], c["pps"]) for c in m["cells"]) == [(18, 3), (1472, 1)], m["cells"]
assert [p["cells"] for p in m["parts"]] == [["1472 B sink"], ["18 B sink"]], m["parts"]
# A merged result without every payload-application pair reports only the
# pairs it has (the report once took an empty pair's knee and crashed).
m2 = dict(m, cells=m["cells"] + [s4.cell(1472, "iperf3", "old", 1, [])])
assert s4.measured_parts(m2) == [(18, "sink"), (1472, "sink"), (1472, "iperf3")], \
    s4.measured_parts(m2)
try:
    s4.merge(old, dict(new, cost_ns=2))
    raise AssertionError("parts of different costs merged")
except ValueError:
    pass
# Parts of different irq_exit_softirq rules do not merge; a result from before
# the knob counts as the 4.9-6.4 rule (defer).
assert s4.merge(dict(old, irq_exit="defer"), new)["cells"]
try:
    s4.merge(dict(old, irq_exit="inline"), new)
    raise AssertionError("parts of different rules merged")
except ValueError:
    pass
assert s4.floor_valid({"other_pct": 5.0, "fifo_pct": 95.1, "cpus": [0, 0]})
assert not s4.floor_valid({"other_pct": 95.0, "fifo_pct": 99.8})  # two CPUs
assert not s4.floor_valid({"other_pct": 5.0, "fifo_pct": 95.0, "cpus": [1, 0]})
assert s4.floor_sentence({"other_pct": 99.8, "fifo_pct": 95.0}).startswith("Not measured")
assert "got 5.0 % of CPU 0" in s4.floor_sentence({"other_pct": 5.0, "fifo_pct": 95.0, "cpus": [0, 0]})
# The measurement itself (root: SCHED_FIFO): both spinners start at a barrier and
# share CPU 0. Started one after the other they once did not (99.8 % and 95.0 %).
import os
if os.geteuid() == 0:
    fl = s4.fair_floor()
    assert s4.floor_valid(fl), fl
text = "a\n<!-- seed004:begin -->\nold\n<!-- seed004:end -->\nb\n"
assert s4.docs_update(text, "| t |\n") == \
    "a\n<!-- seed004:begin -->\n| t |\n<!-- seed004:end -->\nb\n"
# Every mode's coalescing pairs apply, in their order, from any other mode
# under fec's rule (rx-usecs=0 only with rx-frames=1): the ENET control once
# stopped at its first mode on "set rx-usecs=0" while rx-frames was 200.
def fec_ok(us, fr):
    return fr == 1 if us == 0 else fr >= 1
enet = s4.DEVICES["enet"]["modes"]
def pairs(sets):
    return [(k, int(v)) for k, v in (x.split("=") for x in sets) if k in ("rx-usecs", "rx-frames")]
for frm in list(enet) + ["driver default"]:
    start = {"rx-usecs": 1000, "rx-frames": 200}
    for k, v in pairs(enet.get(frm, [])):
        start[k] = v
    for to, sets in enet.items():
        st = dict(start)
        for k, v in pairs(sets):
            st[k] = v
            assert fec_ok(st["rx-usecs"], st["rx-frames"]), (frm, to, k, v)
# A run is clean when no CPU lost more than STEAL_MAX_PCT to the hypervisor;
# measure_clean() redoes the others, at most STEAL_REDO times, and says so.
clean = {"cpus": {"0": {"steal": 4.4}, "1": {"steal": 0.0}}}
assert s4.steal_clean(clean) and not s4.steal_clean({"cpus": {"0": {"steal": 0}, "1": {"steal": 19}}})
seq = iter([{"cpus": {"0": {"steal": 30.0}}}, {"cpus": {"0": {"steal": 18.0}}}, dict(clean)])
r = s4.Rig.measure_clean(lambda: next(seq))
assert r["steal_redone"] == 2 and s4.steal_clean(r), r
seq = iter([{"cpus": {"0": {"steal": 30.0}}}] * (s4.STEAL_REDO + 1))
r = s4.Rig.measure_clean(lambda: next(seq))
assert r["steal_redone"] == s4.STEAL_REDO and not s4.steal_clean(r), r
# Each attempt is a whole run with its own count: one sink counting across the
# redone runs once read as 4x the offered rate. A run that delivered more than
# its generator offered (plus iperf3's own datagrams) is refused.
runs = iter([{"cpus": {"0": {"steal": 30.0}}, "offered": 1000, "secs": 1.0, "got": None},
             dict(clean, offered=1000, secs=1.0)])
r = s4.Rig.measure_clean(lambda: s4.counted(next(runs), 990))
assert r["got"] == 990 and r["pps"] == 990 and r["steal_redone"] == 1, r
assert s4.counted({"offered": 1000, "secs": 2.0}, 1000)["pps"] == 500
assert s4.counted({"offered": 1000, "secs": 1.0}, 1150, extra=s4.IPERF3_OWN_MAX)["got"] == 1150
for got, extra in ((1001, 0), (4000, s4.IPERF3_OWN_MAX)):
    try:
        s4.counted({"offered": 1000, "secs": 1.0}, got, extra)
        raise AssertionError(f"{got} of 1000 offered was taken")
    except ValueError as e:
        assert "not this run's" in str(e), e
# The 10x target is the GbEth's: the ENET control's table says it has none.
row = {"payload": 18, "app": "sink", "knee": 1000, "factor": 3.0, "pps": 3000,
       "base": {"median": 100, "min": 90, "max": 110}, "best_mode": "sw",
       "best": {"median": 2000, "min": 1990, "max": 2010}, "ratio": 20.0, "verdict": "better"}
assert s4.ratio_table([row], "old", "gbeth").rstrip().endswith("| met |")
assert s4.ratio_table([dict(row, ratio=5.0)], "old", "gbeth").rstrip().endswith("| MISSED |")
assert s4.ratio_table([row], "irq", "enet").rstrip().endswith("| control: no target |")
# slow-sink: the sink with --cost-ns (the application on the slower CPU); the
# plain sink has none. Parts with different application costs do not merge; a
# result from before the knob counts as the default cost.
class A:
    app_cost_ns = 20000
class R:
    rx_addr, a = "169.254.40.2", A()
argv = s4.sink_argv(R(), "/tmp/r", 20000)
assert argv[argv.index("--cost-ns") + 1] == "20000" and "--cost-ns" not in s4.sink_argv(R(), "/tmp/r")
assert s4.CELLS["slow-sink"] is s4.slow_sink_cell and "slow-sink" in s4.APPS
assert s4.merge(old, dict(new, app_cost_ns=s4.S4_APP_COST_NS))["cells"]
try:
    s4.merge(dict(old, app_cost_ns=10000), new)
    raise AssertionError("parts of different application costs merged")
except ValueError:
    pass
# The node's cost on the thread's CPU clock (cpu_cost_cputime) is part of what
# a part must share to merge; a result from before it ran on the wall clock.
assert s4.merge(old, dict(new, cost_cputime=False))["cells"]
try:
    s4.merge(old, dict(new, cost_cputime=True))
    raise AssertionError("parts spun on different clocks merged")
except ValueError:
    pass
assert "cpu_cost_cputime=1" in s4.cost_clock_text({"cost_cputime": True, "cost_ns": 40000})
assert "wall clock" in s4.cost_clock_text({})
dev = s4.DEVICES["gbeth"]
t = s4.apps_text(dict(old, app_cost_ns=20000, cells=[s4.cell(18, "slow-sink", "old", 1, [])]), dev)
assert "slow-sink" in t and "20 us" in t and "iperf3" not in t, t
print("ok: napi_seed004 knee, verdict, ratio, merge, docs markers, ENET mode order, slow-sink")
# The log-log plot: a cell that delivered nothing sits on the floor, and a panel
# whose values are all equal (or that has none) still gets a valid positive range
# (gnuplot refused "logscaled axis must have positive range" and the run exited).
assert s4.plot_kpps(0) == s4.PLOT_FLOOR_KPPS and s4.plot_kpps(None) == s4.PLOT_FLOOR_KPPS
assert s4.plot_kpps(2500) == 2.5
for vals in ([], [0.001] * 3, [5.0], [0.001, 100.0]):
    lo, hi = s4.log_range(vals)
    assert 0 < lo < hi and hi / lo >= 10 - 1e-9, (vals, lo, hi)
    assert not vals or (lo <= min(vals) and hi >= max(vals)), (vals, lo, hi)
import os, shutil, tempfile
if shutil.which("gnuplot"):
    run = {"pps": 0, "offered_pps": 0, "irqs_frame": 0, "err_irqs": 0, "ring": 0,
           "socket_drops": 0, "handoffs": 0, "slip_ms": 0, "demotions": 0, "app_cpu_ms": 0,
           "node_cpu_ms": 0, "load1": 0, "steal_ms": 0, "threads": {}, "cpus": {}}
    zero = [s4.cell(18, "iperf3", "old", r, [dict(run)]) for r in (2000, 5000)]
    some = [s4.cell(18, "sink", m, 2000, [dict(run, pps=1990, offered_pps=2000)])
            for m in ("old", "both")]
    data = {"device": "gbeth", "cost_ns": 1, "base": "old", "modes": ["old", "both"],
            "cells": zero + some, "knees": [{"payload": 18, "app": "iperf3", "knee": None,
                                             "at": []}]}
    png = os.path.join(tempfile.mkdtemp(), "p.png")
    s4.plot(data, png)
    assert os.path.getsize(png) > 0
    print("ok: napi_seed004 plot with cells that delivered nothing")
PY
# --device and the experiment lists: bad values are refused naming the accepted ones.
nm="$TOP/bench/napi-modes.py"
out=$(python3 "$nm" --device foo 2>&1) && exit 1
grep -q -- '--device foo: use enet, gbeth, etsec' <<<"$out"
out=$(python3 "$nm" --device gbeth --experiments classic 2>&1) && exit 1
grep -q 'this device runs seed004' <<<"$out"
out=$(python3 "$nm" --device gbeth --s4-modes old,hw 2>&1) && exit 1
grep -q 'use old,fixed,sw,threaded,both' <<<"$out"
out=$(python3 "$nm" --device gbeth --s4-apps netperf 2>&1) && exit 1
grep -q 'use sink,iperf3' <<<"$out"
for bad in maybe on,on ","; do
	out=$(python3 "$nm" --fq "$bad" 2>&1) && exit 1
	grep -q 'use off, on or off,on' <<<"$out"
done
# The eTSEC runs seed 002's sweep; its options are checked at the start, naming the values.
out=$(python3 "$nm" --device etsec --experiments seed004 2>&1) && exit 1
grep -q 'this device runs seed002' <<<"$out"
out=$(python3 "$nm" --device etsec --s2-costs 5,6 2>&1) && exit 1
grep -q -- '--costs: 0 first' <<<"$out"
out=$(python3 "$nm" --device enet --s2-cpus 3 2>&1) && exit 1
grep -q -- '--cpus: 1, 2 or 1,2' <<<"$out"
python3 - "$TOP/bench" <<'PY'
import importlib.util
import sys
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location("nmodes", sys.argv[1] + "/napi-modes.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
a = m.parse(["--device", "etsec", "--s2-costs", "0,90000", "--s2-repeat", "3", "--quick",
             "--results", "/tmp/x"])
assert a.exp_list == ["seed002"] and m.result_name(a) == "napi-modes-etsec", a.exp_list
assert m.seed002_argv(a) == ["--device", "etsec", "--cpus", "1,2", "--speed", "100",
                             "--cost-clock", "cpu", "--costs", "0,90000", "--repeat", "3",
                             "--quick", "--results", "/tmp/x"]
# The cost's clock: the thread's CPU time by default (the core's default), wall time on
# request, the same for seed 004's node and seed 002's sender.
assert a.cost_cputime and m.s2.parse(m.seed002_argv(a)).cost_cputime
w = m.parse(["--device", "etsec", "--cost-clock", "wall"])
assert not w.cost_cputime and not m.s2.parse(m.seed002_argv(w)).cost_cputime
assert "seed002" in m.parse(["--device", "enet"]).exp_list
print("ok: napi-modes --device etsec passes its options to napi_seed002")
PY
echo "ok: napi-modes --device and its refusals"
# popen_ready (udp-sink's start in both benchmarks): it returns once the ready file
# exists, at once when the program exits without it, and after its timeout otherwise.
python3 - "$TOP/bench" <<'PY'
import os, subprocess, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
import ethdrv_bench as eb
eb.popen_in = lambda ns, cmd, **kw: subprocess.Popen(cmd, **kw)  # no namespace needed here
with tempfile.TemporaryDirectory() as tmp:
    ready = os.path.join(tmp, "ready")
    # (script, timeout, least and most seconds popen_ready may take, ready file made);
    # the upper bounds leave a loaded machine room.
    cases = ((f"sleep 0.3; touch {ready}; sleep 30", 20.0, 0.25, 15.0, True),
             ("exit 3", 20.0, 0.0, 15.0, False), ("sleep 30", 1.0, 0.95, 15.0, False))
    for script, timeout, lo, hi, made in cases:
        t0 = time.monotonic()
        p = eb.popen_ready("ns", ["sh", "-c", script], ready, timeout=timeout)
        dt = time.monotonic() - t0
        p.kill(); p.wait()
        assert lo <= dt <= hi and os.path.exists(ready) == made, (script, dt)
        if made:
            os.unlink(ready)
print("ok: popen_ready waits for the ready file, the exit or the timeout")
PY
python3 "$TOP/bench/napi-modes.py" --help | grep -q -- '--quick'
grep -q 'napi-modes:begin' "$TOP/docs/benchmarks.md"
grep -q 'seed004:begin' "$TOP/docs/benchmarks.md"
echo "ok: napi-modes --help, README markers present"
