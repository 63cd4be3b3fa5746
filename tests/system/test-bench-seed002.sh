#!/usr/bin/env bash
# bench/napi_seed002.py: the arithmetic of seed 002's sweep (iperf3 intervals, a cell's
# median and spread, the "better only beyond both spreads" verdict, "below the line",
# the target's wording, the thread sampler's attribution to CPUs) against values
# derived by hand; no root, no segment.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$TOP/bench" <<'PY'
import contextlib
import io
import os
import sys
sys.path.insert(0, sys.argv[1])
import napi_seed002 as s2

# iperf3 -J intervals: omitted seconds are left out.
j = {"intervals": [{"sum": {"bits_per_second": 5e8, "omitted": True}},
                   {"sum": {"bits_per_second": 6e8, "omitted": False}},
                   {"sum": {"bits_per_second": 9e8}}]}
assert s2.iperf_intervals(j) == [600.0, 900.0]


def run(mbps, frames=1000, cpu=20000000, osc=10.0):
    return {"mbps": mbps, "osc": osc, "irqs_frame": 0.5, "node_cpu_ns": cpu, "frames": frames,
            "load1": 0.5, "steal_ms": 0.0, "retrans": 0, "tx_frames": frames // 2,
            "rx_frames": frames // 2, "polls": {"napi_tx_polls": 500}, "verdict": "ok",
            "threads": {"sirq/tsec0/0": {0: 3e6}, "iperf3 client": {1: 2e6}}}


def cell(ms, limit=94.0, **kw):
    return {"runs": [run(m, **kw) for m in ms], "limit": limit}


# Median and spread (max - min).
s = s2.summary(cell([50, 60, 55, 52, 58]))
assert s["med"] == 55 and s["spread"] == 10 and s["min"] == 50 and s["max"] == 60, s
assert s["cpu_frame_ns"] == 20000, s  # 20 ms over 1000 frames
# "better" only if the medians differ by more than both spreads: 55 (spread 10) against
# 66 (spread 4): 11 > 10, better; against 64: 9, no difference; 40 against 55: worse.
assert s2.verdict(s, s2.summary(cell([64, 66, 68]))) == "better"
assert s2.verdict(s, s2.summary(cell([62, 64, 66]))) == "no difference"
assert s2.verdict(s, s2.summary(cell([39, 40, 41]))) == "worse"
# A wide cell masks a large difference: 55 (spread 10) against 70 (spread 30).
assert s2.verdict(s, s2.summary(cell([50, 70, 80]))) == "no difference"

# analyse(): rows per cost, the gain, "below the line" (best 3.6 run under 97 % of 94).
cells = [(0, 0, cell([93.5, 93.8, 93.9])), (1, 0, cell([93.6, 93.8, 93.9])),
         (0, 90000, cell([60, 62, 64])), (1, 90000, cell([80, 81, 82]))]
rows = s2.analyse("etsec", 2, cells)
assert [r["cost"] for r in rows] == [0, 90000], rows
assert not rows[0]["below"] and rows[0]["verdict"] == "no difference", rows[0]
assert rows[1]["below"] and rows[1]["verdict"] == "better", rows[1]
assert abs(rows[1]["gain"] - (81 / 62 - 1) * 100) < 1e-9, rows[1]
# the cost text: B = 20 us per frame, so 90 us stands for a CPU 5.5 times slower
assert "5.5 times slower" in rows[1]["text"], rows[1]["text"]
t = s2.target(rows)
assert t.startswith("MET") and "+30.6 %" in t and "vanishes" in t, t
# A gain under 20 % is a miss, and says so.
rows2 = s2.analyse("etsec", 2, cells[:2] + [(0, 90000, cell([60, 62, 64])),
                                            (1, 90000, cell([70, 71, 72]))])
assert s2.target(rows2).startswith("MISSED"), s2.target(rows2)
# Never below the line: not reached.
assert s2.target(rows[:1]).startswith("not reached"), s2.target(rows[:1])

# The whole report renders from such cells (every argument set gives a report).
a = s2.parse(["--device", "etsec", "--cpus", "2", "--costs", "0,90000"])
full = [(sp, c, dict(cl, knobs={"irq_affinity": "rx:0/tx:1"}, place={}, coal=["rx-usecs=0"],
                     ctx_prio=50)) for sp, c, cl in cells]
text = s2.report(a, [("etsec", 2, full)], rows, 0.5, 0.6)
assert "MET" in text and "| etsec | 2 | 0 |" in text and "sirq/tsec0/0" in text, text
assert "500.00" in text  # napi_tx_polls per 1000 frames
# Bad arguments name the accepted values.
for bad in (["--device", "gbeth"], ["--costs", "5,0"], ["--cpus", "3"]):
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            s2.parse(bad)
        raise AssertionError(f"{bad} accepted")
    except SystemExit as e:
        assert e.code == 2, bad

# The sampler: this process's own thread gains run time on some CPU.
ts = s2.ThreadSampler({os.getpid(): "me"})
ts.sample()
x = 0
for i in range(2000000):
    x += i
ts.sample()
assert sum(ts.cpu["me"].values()) > 0, ts.cpu
print("napi_seed002 arithmetic: ok")
PY
