#!/usr/bin/env bash
# Every value a benchmark's options accept gives a report (issue 24): the
# report functions of bench/tc6-irq-policy.py on results of the shapes those
# values produce (no overflow runs, no sweep, one run, --rt-prio), and
# check_args() refusing, with the accepted values, what could give none.
# The figures are placeholders: this checks the report's shape, not a result
# (no root, no segment).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$TOP/bench" <<'PY'
import argparse
import importlib.util
import io
import contextlib
import os
import shutil
import sys
import tempfile
sys.path.insert(0, sys.argv[1])
import ethdrv_bench as eb

spec = importlib.util.spec_from_file_location("tip", sys.argv[1] + "/tc6-irq-policy.py")
tip = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tip)
eb.describe_limits = lambda lim: ["(limits not computed in this test)"]

KEYS = ("kib apriori_kib pct_apriori util ack_ratio dropped lost rxboe data_frames cpu_ms_mib "
        "model_ms_mib held_ms_mib wakeups_mib xfers_frame late_p99_us delay_us delays stalls "
        "late_max_ms retrans rtos demotions rtt_min_us rtt_bound_us load1 steal_ms steal_pct "
        "seconds").split()


def run(i):
    r = {k: float(i + 1) for k in KEYS}
    r.update(lim={}, rtt_ok=True,
             causes={"driver": i, "lab": 1, "steal": 0, "injected": 0, "gap_max_us": 5.0})
    return r


def argv(*extra):
    sys.argv = ["tc6-irq-policy", *extra]
    a = tip.parse()
    a.fq_state = {tip.CLIENT: "off", tip.SERVER: "on"}  # read from the nodes in a real run
    return a


def report(a):
    policies = [int(x) for x in a.policies.split(",")]
    res = {p: [run(i) for i in range(a.runs)] for p in policies}
    sweep = [(d, run(d)) for d in ([0] + [int(x) for x in a.sweep_us.split(",") if x])] \
        if policies[0] == 1 else []
    ovf = {p: [run(i) for i in range(a.overflow_runs)] for p in policies}
    limits = [r["apriori_kib"] for rs in res.values() for r in rs]
    rt = {p: [run(i) for i in range(a.runs)] for p in policies} if a.rt_prio else {}
    return tip.report(a, res, sweep, ovf, 2000, limits, limits[0]) + tip.rt_report(a, res, rt)


cases = [(), ("--overflow-runs", "0"), ("--sweep-us", "", "--overflow-runs", "0"),
         ("--sweep-us", "", "--overflow-delay-us", "1000"), ("--runs", "1", "--policies", "3"),
         ("--rt-prio", "20", "--runs", "2"), ("--pings", "1"),
         ("--policies", "2", "--rt-prio", "50", "--sweep-us", "", "--overflow-runs", "0")]
for c in cases:
    text = report(argv(*c))
    assert "lost: driver/lab/steal" in text, c
    assert "Conditions: load average" in text, c
    assert "fq=off on t1s0, fq=on on t1s1" in text, c
    if "--overflow-runs" in c and c[c.index("--overflow-runs") + 1] == "0":
        assert "Not run (--overflow-runs 0)" in text, c
    print("report ok:", " ".join(c) or "(defaults)")
    if shutil.which("gnuplot"):  # and its plot (gnuplot refuses a panel with no point)
        a = argv(*c)
        policies = [int(x) for x in a.policies.split(",")]
        res = {p: [run(i) for i in range(a.runs)] for p in policies}
        sweep = [(d, run(d)) for d in ([0] + [int(x) for x in a.sweep_us.split(",") if x])] \
            if policies[0] == 1 else []
        ovf = {p: [run(i) for i in range(a.overflow_runs)] for p in policies}
        with tempfile.TemporaryDirectory() as t:
            png = os.path.join(t, "p.png")
            tip.plot(res, sweep, ovf, 1000, 2000.0, png)
            assert os.path.getsize(png) > 0, c
        print("plot ok:", " ".join(c) or "(defaults)")

for bad, why in [(("--runs", "0"), "--runs: give 1 or more"),
                 (("--policies", "7"), "--policies: give some of 1,2,3,4,5"),
                 (("--sweep-us", "", "--overflow-runs", "2"), "needs --sweep-us"),
                 (("--overflow-runs", "-1"), "0 or more"),
                 (("--pings", "0"), "--pings: 1 or more")]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            argv(*bad)
        except SystemExit as e:
            assert e.code == 2, bad
        else:
            raise AssertionError(f"{bad} accepted")
    assert why in err.getvalue(), (bad, err.getvalue())
    print("refused:", " ".join(bad))

# The helpers the reports use: load and steal of a run, losses by cause.
h0 = {"t": 0.0, "load": (0.5, 0, 0), "total": 1000, "steal": 10}
h1 = {"t": 2.0, "load": (1.5, 0, 0), "total": 1200, "steal": 30}
c = eb.host_conditions(h0, h1)
assert c["load1"] == 1.5 and abs(c["steal_pct"] - 10.0) < 1e-9, c
d = {"emu_rx_lost_driver": 3, "emu_rx_lost_lab": 2, "emu_rx_lost_steal": 1}
lc = eb.loss_causes(d, {"emu_rx_gap_max_ns": 4000})
assert eb.causes_text(lc) == "3/2/1" and lc["gap_max_us"] == 4.0, lc
# The calibrated CPU cost as results state it (docs/design.md §4.9).
assert eb.cpu_cost_text(0, 2000) == "no added CPU cost (cpu_cost_ns=0)"
assert eb.cpu_cost_text(6000, 2000) == ("6 us per frame (cpu_cost_ns=6000), standing for a "
                                        "CPU 4.0 times slower than this host's 2.00 us per frame")
print("PASS")
PY

# enet-tcp's table: each run's VM steal and load beside its goodput (issue 20:
# "load and steal recorded per run"), in the runs' order.
python3 - "$TOP/bench" >/dev/null <<'PY'
import importlib.util, os, sys, tempfile, types
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location("et", sys.argv[1] + "/enet-tcp.py")
et = importlib.util.module_from_spec(spec); spec.loader.exec_module(et)
et.KIND = et.KINDS["emu:enet"]
lab = {"irqs_frame": 0.1, "late_p50_us": 1.0, "late_p99_us": 2.0, "late_max_us": 3.0,
       "slips": 0, "slip_ms": 0.0}
def row(pct, steal, load):
    return {"case": "1 Gb/s, both ways", "dir": "enet0 -> enet1", "mbps": pct * 9.4,
            "limit": 941.5, "pct": pct, "tol": 0.3, "verdict": "ok", "limit_acks": 940.0,
            "pct_acks": pct, "ratio": 0.02, "retrans": 0, "drops": 0, "causes": None,
            "idle": 1.0, "cpu": [2.0, 2.0], "engine": 1.8, "steal_ms": steal, "load1": load,
            "lab": lab, "demoted": 7}
runs = [[row(p, s, l)] for p, s, l in ((52.3, 1510, 1.29), (96.2, 20, 1.48), (97.4, 5, 1.64))]
res = [{"device": "emu:enet,speed=1000", "runs": runs, "median": runs[1]}]
d = tempfile.mkdtemp()
a = types.SimpleNamespace(device="emu:enet", host_path="off,fq,htb", htb_pct=98.0, results=d,
                          repeat=3, seconds=10, rt_prio=50)
et.write(a, ["napi_split=1"], res, ["1.29", "1.48", "1.64"])
text = open(os.path.join(d, "enet-tcp.md")).read()
line = [l for l in text.splitlines() if l.startswith("| 1 Gb/s")][0]
cells = [c.strip() for c in line.split("|")]
# Each run's goodput, VM steal and load, in the same order.
assert "52.3 96.2 97.4" in cells and "1510 20 5" in cells and "1.29 1.48 1.64" in cells, cells
head = [c.strip() for c in text.splitlines()[text.splitlines().index(line) - 2].split("|")]
assert cells[head.index("node threads put back to SCHED_OTHER")] == "7", (head, cells)
# A host path sets both nodes' fair queue and priority: an -rt path the asked one, the
# others the priority each node started with.
calls = []
et.eb.request = lambda ns, line: calls.append((ns, line))
et.eb.run_in = lambda ns, cmd, check=True: calls.append((ns, " ".join(cmd)))
seg = types.SimpleNamespace(node=lambda k: f"enet{k}")
prio = {0: 0, 1: 3, "rt": 50}
for v, want in (("fq-rt", ("fq=on", 50, 50)), ("off", ("fq=off", 0, 3)),
                ("off-rt", ("fq=off", 50, 50)), ("fq", ("fq=on", 0, 3))):
    calls.clear()
    et.host_path(seg, v, 1000000, prio)
    sets = [(ns, line) for ns, line in calls if line.startswith("set ")]
    assert sets == [("enet0", f"set {want[0]}"), ("enet0", f"set rt_prio={want[1]}"),
                    ("enet1", f"set {want[0]}"), ("enet1", f"set rt_prio={want[2]}")], (v, sets)
assert "SCHED_FIFO {prio}" in et.HOST_PATH["fq-rt"] and "{prio}" not in et.HOST_PATH["fq"]
print("ok", file=sys.stderr)
PY
echo "ok: enet-tcp per-run steal and load, its host paths' knobs"
