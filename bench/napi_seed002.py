"""Seed 002 under its conditions: TCP goodput against a calibrated CPU cost, 3.6 poller vs split.

`ethdrv bench napi-modes seed002 [ARGS]` (or `python3 bench/napi_seed002.py [ARGS]`; a name
with "_" is a library to `ethdrv bench`, not a benchmark of its own). The sender
node (tsec0 on the eTSEC link, enet0 on the ENET control) runs contexts=irq (softirq loops
above the application, docs/design.md §4.6) with a calibrated per-frame CPU cost
(cpu_cost_ns, docs/design.md §4.9) swept upwards, with napi_split=0 (gianfar's single poller
of Linux 3.6, docs/etsec.md §8.2) and napi_split=1 (the split RX and TX-confirmation
pollers, docs/etsec.md §8.3), on 1 CPU and on 2 CPUs with the RX and TX-confirmation lines
on different CPUs (cpus=2 irq_affinity=rx:0/tx:1, docs/design.md §4.7). Per run: iperf3 -J goodput and
its per-second spread, the CPU of every thread by CPU (a /proc sampler), IRQs per frame,
poll counts, load and steal.
"""
import argparse
import fcntl
import json
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
import napi_modes_lib as nm  # noqa: E402

NAME = "napi-seed002"
LOCK = "/tmp/ethdrv-systest.lock"
PORT = 5201
SAMPLE_S = 0.02  # the thread sampler's period
BELOW_LINE_PCT = 97.0  # a cell is "below the line" when even its best run is under this % of it
TARGET_GAIN_PCT = 20.0  # issue 24: the split pollers carry >= 20 % more where 3.6 falls below

# Per link: the segment class, its link socket, subnet, the driver's interrupt counters,
# the driver's per-poll counters of interest, what it is.
DEVICES = {
    "etsec": {"cls": eb.EtsecLink, "sock": "tsec-link", "subnet": "169.254.30.",
              "irqs": ("gfar_irq_rx", "gfar_irq_tx"),
              "extra": ("gfar_polls_tx_budget", "gfar_coal_rewrites"),
              "what": "Freescale eTSEC model, gianfar driver", "spec": "emu:etsec"},
    "enet": {"cls": eb.EnetLink, "sock": "link", "subnet": "169.254.20.",
             "irqs": ("fec_irqs",), "extra": ("fec_tx_ring_full",),
             "what": "NXP ENET model, fec driver (hardware coalescing at its defaults)",
             "spec": "emu:enet"},
}
DEFAULT_COSTS = "0,30000,60000,90000,120000,150000"  # ns per frame, at the default 100 Mb/s


def add_cost_clock(p, what):
    """The --cost-clock option, shared with napi-modes: what WHAT counts, CPU or wall time."""
    p.add_argument("--cost-clock", default="cpu", choices=("cpu", "wall"),
                   help=f"what {what} counts: cpu, the thread's own CPU time "
                        "(cpu_cost_cputime=1, the core's default: a preempted spin resumes), "
                        "or wall time (0, as results before 4 December ran; "
                        "docs/design.md §4.9) (cpu)")


def parse(argv=None):
    p = argparse.ArgumentParser(prog="ethdrv bench napi-modes seed002", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="etsec,enet",
                   help="links, in order: etsec, enet or both (etsec,enet)")
    p.add_argument("--costs", default=DEFAULT_COSTS,
                   help=f"cpu_cost_ns of the sender, ns per frame; must start with 0, the "
                        f"row that measures the host's own CPU per frame ({DEFAULT_COSTS})")
    p.add_argument("--speed", type=int, default=100, choices=(10, 100, 1000),
                   help="line speed, Mb/s (100: this shared 2-CPU VM has headroom at cost 0 "
                        "there; at 1000 it has none)")
    p.add_argument("--cpus", default="1,2", help="CPU settings: 1, 2 or both (1,2)")
    add_cost_clock(p, "cpu_cost_ns")
    p.add_argument("--repeat", type=int, default=5, help="runs per cell (5)")
    p.add_argument("--seconds", type=int, default=4, help="iperf3 -t, after -O (4)")
    p.add_argument("--omit", type=int, default=1, help="iperf3 -O: slow start left out (1)")
    p.add_argument("--lock", action="store_true",
                   help=f"take {LOCK} per (link, CPU setting) block, each under 10 min; "
                        "without it the caller holds the lock")
    p.add_argument("--quick", action="store_true",
                   help="2 runs per cell, 2 s each, costs 0,60000,120000: for development")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    p.add_argument("--no-readme", action="store_true", help="leave docs/benchmarks.md alone")
    a = p.parse_args(argv)
    a.cost_cputime = a.cost_clock == "cpu"
    if a.quick:
        a.repeat, a.seconds = 2, 2
        if a.costs == DEFAULT_COSTS:
            a.costs = "0,60000,120000"
    try:
        a.cost_list = [int(x) for x in a.costs.split(",") if x]
        a.cpu_list = [int(x) for x in a.cpus.split(",") if x]
    except ValueError:
        p.error("--costs and --cpus take comma-separated integers")
    a.dev_list = [d for d in a.device.split(",") if d]
    bad = [d for d in a.dev_list if d not in DEVICES]
    if bad or not a.dev_list:
        p.error(f"--device {a.device}: use etsec, enet or etsec,enet")
    if not a.cost_list or a.cost_list[0] != 0 or any(not 0 <= c <= 1000000 for c in a.cost_list):
        p.error("--costs: 0 first (the host's own CPU per frame), then 0..1000000 ns")
    if any(c not in (1, 2) for c in a.cpu_list) or not a.cpu_list:
        p.error("--cpus: 1, 2 or 1,2")
    if a.repeat < 1 or a.seconds < 1:
        p.error("--repeat and --seconds: at least 1")
    return a


# ---- where every thread ran ----------------------------------------------------------------


def _task_stat(pid, tid):
    """(comm, last CPU, run time ns) of one task, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/task/{tid}/stat") as f:
            s = f.read()
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            run_ns = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    comm = s[s.index("(") + 1:s.rindex(")")]
    return comm, int(s[s.rindex(")") + 2:].split()[36]), run_ns  # field 39: processor


class ThreadSampler:
    """Every SAMPLE_S, the run time (schedstat) each task of the PIDS gained since the last
    sample, put down to the CPU it is on at the sample (a thread that migrated within
    the period is counted on the CPU it ended on). io_uring workers (iou-wrk-TID) are
    named after the thread TID that owns them."""

    def __init__(self, pids):
        self.pids, self.last, self.cpu = dict(pids), {}, {}  # pid -> label prefix
        self.names, self.stop_ev = {}, threading.Event()
        self.th = threading.Thread(target=self.loop, daemon=True)

    def label(self, pid, tid, comm):
        if comm.startswith("iou-wrk-"):
            owner = self.names.get((pid, comm[8:]), comm[8:])
            return f"io_uring worker of {owner}"
        name = self.pids[pid] or comm
        self.names[(pid, tid)] = name if self.pids[pid] else comm
        return name if self.pids[pid] else comm

    def sample(self):
        for pid in self.pids:
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                st = _task_stat(pid, tid)
                if not st:
                    continue
                comm, cpu, run = st
                key = (pid, tid)
                name = self.label(pid, tid, comm)
                if key in self.last:
                    d = run - self.last[key]
                    c = self.cpu.setdefault(name, {})
                    c[cpu] = c.get(cpu, 0) + d
                else:
                    self.cpu.setdefault(name, {})
                self.last[key] = run

    def loop(self):
        while not self.stop_ev.wait(SAMPLE_S):
            self.sample()

    def __enter__(self):
        self.sample()
        self.th.start()
        return self

    def __exit__(self, *exc):
        self.stop_ev.set()
        self.th.join()
        self.sample()


def placement(pid):
    """Each thread of PID: the CPUs it may run on (sched_getaffinity), as text."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        st = _task_stat(pid, tid)
        if not st:
            continue
        try:
            out[st[0]] = ",".join(map(str, sorted(os.sched_getaffinity(int(tid)))))
        except OSError:
            pass
    return out


def pin(pid, node, mine, rest):
    """The threads of NODE (its loop, softirq loops, ksoftirqd, pollers) on MINE, every
    other thread of PID on REST; softirq loops that pinned themselves (cpus > 1) keep
    their CPU, as a Linux IRQ keeps its smp_affinity."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        st = _task_stat(pid, tid)
        if not st:
            continue
        comm = st[0]
        own = (comm == f"ethdrv/{node}" or comm.startswith(f"sirq/{node}/") or
               comm.startswith(f"ksirqd/{node}") or comm.startswith(f"napi/{node}"))
        if comm.startswith(f"sirq/{node}/") and len(mine) > 1:
            continue
        try:
            os.sched_setaffinity(int(tid), mine if own else rest)
        except OSError:
            pass


def cpu_text(cpus):
    return ",".join(map(str, sorted(cpus)))


def taskset(cpus, cmd):
    return ["taskset", "-c", cpu_text(cpus), *cmd]


# ---- one run -------------------------------------------------------------------------------


def iperf_intervals(j):
    """Per-second goodput (Mb/s) of an iperf3 -J client run, the omitted seconds left out."""
    return [iv["sum"]["bits_per_second"] / 1e6 for iv in j.get("intervals", [])
            if not iv["sum"].get("omitted")]


def counters(d, dev):
    """What a run's stats delta D of the sender says: frames, IRQs, polls."""
    frames = d.get("tx_packets", 0) + d.get("rx_packets", 0)
    irqs = sum(d.get(k, 0) for k in dev["irqs"])
    # The loop's counters are the node's ("node_" in `ethdrv stats`).
    keys = ("napi_rx_polls", "napi_tx_polls", "napi_rx_repolls", "napi_tx_repolls",
            "napi_rx_irqs", "napi_tx_irqs", "node_loop_ksoftirqd_handoffs",
            "node_loop_ksoftirqd_runs", "node_loop_time_exhausted", "node_loop_budget_exhausted",
            "node_rt_demotions", *dev["extra"])
    return {"frames": frames, "tx_frames": d.get("tx_packets", 0),
            "rx_frames": d.get("rx_packets", 0), "irqs": irqs,
            "irqs_frame": irqs / frames if frames else None,
            "node_cpu_ns": eb.node_threads_cpu_ns(d),
            "polls": {k: d.get(k, 0) for k in keys}}


def run_once(seg, dev, a, cl_cpus, sv_cpus, lim):
    s, r = seg.node(0), seg.node(1)
    srv = eb.popen_in(r, taskset(sv_cpus, ["iperf3", "-s", "-1", "-B", f"{dev['subnet']}2",
                                           "-p", str(PORT)]))
    try:
        time.sleep(0.3)
        b, h0 = eb.stats(s), eb.host_sample()
        cl = eb.popen_in(s, taskset(cl_cpus, ["iperf3", "-c", f"{dev['subnet']}2", "-p",
                                              str(PORT), "-t", str(a.seconds), "-O",
                                              str(a.omit), "-J", "--connect-timeout", "3000"]),
                         stdout=subprocess.PIPE, text=True)
        time.sleep(0.1)
        with ThreadSampler({seg.proc.pid: None, cl.pid: "iperf3 client",
                            srv.pid: "iperf3 server"}) as ts:
            out, _ = cl.communicate(timeout=a.seconds + a.omit + 60)
        h1, af = eb.host_sample(), eb.stats(s)
    finally:
        eb.stop_proc(srv)
    j = json.loads(out)
    if "error" in j:
        raise RuntimeError(f"iperf3: {j['error']}")
    res = nm.iperf_result(out)
    mbps = res["bytes"] * 8 / res["seconds"] / 1e6 if res["seconds"] else 0.0
    per_s = iperf_intervals(j)
    tol = eb.tolerance(res["edge"], lim * 1e6 / 8, res["seconds"])
    row = {"mbps": mbps, "pct": 100 * mbps / lim, "tol": 100 * tol,
           "verdict": eb.verdict(mbps, lim, tol), "per_s": per_s,
           "osc": (max(per_s) - min(per_s)) if per_s else 0.0,
           "retrans": res["retransmits"], "threads": ts.cpu,
           **counters(eb.delta(af, b), dev), **eb.host_conditions(h0, h1)}
    return row


# ---- a block: one link, one CPU setting ----------------------------------------------------


def set_cell(seg, split, cost, cputime, cpus):
    """The sender's knobs for a cell, read back: napi_split, cpu_cost_ns and its clock in
    contexts=loop, then contexts=irq with CPUS softirq loops, RX and TX lines apart on 2."""
    s = seg.node(0)
    eb.request(s, "set contexts=loop")
    eb.request(s, f"set napi_split={split} cpu_cost_ns={cost} cpu_cost_cputime={int(cputime)}")
    eb.request(s, f"set contexts=irq cpus={cpus}")
    if cpus == 2:
        eb.request(s, "set irq_affinity=rx:0/tx:1")
    got = eb.get_keys(s, ("napi_split", "cpu_cost_ns", "cpu_cost_cputime", "contexts", "cpus",
                          "irq_affinity"))
    if got["napi_split"] != str(split) or got["cpu_cost_ns"] != str(cost) or \
            got["cpu_cost_cputime"] != str(int(cputime)) or \
            got["contexts"] != "irq" or got["cpus"] != str(cpus):
        raise RuntimeError(f"{s}: knobs did not take: {got}")
    return got


def block(name, dev, cpus, a, bar):
    """Every cell of one link at one CPU setting, on one segment: [(split, cost, cell)]."""
    out = []
    with dev["cls"](device=f"{dev['spec']},speed={a.speed}") as seg:
        link = {k: int(v) for k, v in eb.get_keys(dev["sock"], ("speed_mbps", "preamble_bytes",
                                                                "ifg_bytes")).items()}
        host = eb.run_in(seg.node(0), ["cat", f"/sys/class/net/{seg.node(0)}/mtu",
                                       "/proc/sys/net/ipv4/tcp_timestamps"]).stdout.split()
        if link["speed_mbps"] != a.speed:
            raise RuntimeError(f"{dev['sock']} runs at {link['speed_mbps']} Mb/s, not {a.speed}")
        lim = nm.tcp_limit(a.speed, int(host[0]), host[1] != "0", link["preamble_bytes"],
                           link["ifg_bytes"])["mbps"]
        coal = eb.request(seg.node(0), "get rx-usecs rx-frames tx-usecs tx-frames").split()
        mine, rest = ({0}, {1}) if cpus == 1 else ({0, 1}, {0, 1})
        for cost in a.cost_list:
            for split in (0, 1):
                knobs = set_cell(seg, split, cost, a.cost_cputime, cpus)
                pin(seg.proc.pid, seg.node(0), mine, rest)
                place = placement(seg.proc.pid)
                place.update({"iperf3 client": cpu_text(mine), "iperf3 server": cpu_text(rest)})
                runs = []
                for _ in range(a.repeat):
                    runs.append(run_once(seg, dev, a, mine, rest, lim))
                    bar.step(f"{name} {cpus}cpu split={split} cost={cost}: "
                             f"{runs[-1]['mbps']:.0f} Mb/s")
                for k, v in placement(seg.proc.pid).items():
                    place.setdefault(k, f"{v} (created during the runs)")
                st = eb.stats(seg.node(0))
                out.append((split, cost, {"runs": runs, "knobs": knobs, "place": place,
                                          "limit": lim, "coal": coal,
                                          "ctx_prio": st.get("node_ctx_prio")}))
    return out


# ---- the figures ---------------------------------------------------------------------------


def med(xs):
    return statistics.median(xs) if xs else 0.0


def summary(cell):
    """Median and spread (max - min) of a cell's runs, and the medians of its other figures."""
    runs = cell["runs"]
    g = [r["mbps"] for r in runs]
    return {"med": med(g), "min": min(g), "max": max(g), "spread": max(g) - min(g),
            "osc": med([r["osc"] for r in runs]),
            "ipf": med([r["irqs_frame"] or 0 for r in runs]),
            "cpu_frame_ns": med([r["node_cpu_ns"] / r["frames"] for r in runs if r["frames"]]),
            "load": [r["load1"] for r in runs], "steal": [r["steal_ms"] for r in runs],
            "retrans": med([r["retrans"] for r in runs]),
            "pct": 100 * med(g) / cell["limit"]}


def verdict(a, b):
    """B (split) against A (3.6): "better"/"worse" only beyond both cells' spreads."""
    d = b["med"] - a["med"]
    if abs(d) > max(a["spread"], b["spread"]):
        return "better" if d > 0 else "worse"
    return "no difference"


def thread_table(cell):
    """Per thread: CPU ms on each CPU, median over the cell's runs, and where it may run."""
    names = sorted({n for r in cell["runs"] for n in r["threads"]})
    cpus = sorted({c for r in cell["runs"] for t in r["threads"].values() for c in t})
    rows = []
    for n in names:
        per = [med([r["threads"].get(n, {}).get(c, 0) / 1e6 for r in cell["runs"]])
               for c in cpus]
        if sum(per) < 0.5:
            continue  # idle threads (control, sampler) left out
        rows.append([n, cell["place"].get(n, "-"), *(f"{x:.0f}" for x in per)])
    return eb.md_table(["thread", "allowed CPUs", *(f"CPU {c} ms" for c in cpus)], rows)


def analyse(name, cpus, cells):
    """Rows of the main table of one block, with the verdicts and the cost text."""
    by = {(sp, c): summary(cell) for sp, c, cell in cells}
    base = {sp: by[(sp, 0)]["cpu_frame_ns"] for sp in (0, 1) if (sp, 0) in by}
    rows = []
    for (sp, c), s in sorted(by.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if sp != 1 or (0, c) not in by:
            continue
        s0 = by[(0, c)]
        rows.append({"dev": name, "cpus": cpus, "cost": c, "single": s0, "split": s,
                     "verdict": verdict(s0, s),
                     "gain": 100 * (s["med"] / s0["med"] - 1) if s0["med"] else 0.0,
                     "text": eb.cpu_cost_text(c, base.get(0)),
                     "below": 100 * s0["max"] / cells[0][2]["limit"] < BELOW_LINE_PCT})
    return rows


def target(rows):
    """Issue 24's seed 002 target on the eTSEC at 2 CPUs: met or missed, the gap against
    the cost, and whether it vanishes where the 3.6 poller has headroom."""
    r2 = sorted((r for r in rows if r["dev"] == "etsec" and r["cpus"] == 2),
                key=lambda r: r["cost"])
    if not r2:
        return "not run (no eTSEC rows on 2 CPUs)"
    curve = ", ".join(f"{r['cost'] / 1000:g} us: {r['gain']:+.1f} % ({r['verdict']})"
                      for r in r2)
    room = [r for r in r2 if not r["below"]]
    if room:
        diff = [r for r in room if r["verdict"] != "no difference"]
        costs = ", ".join(f"{r['cost'] / 1000:g}" for r in room)
        odd = ", ".join(f"{r['cost'] / 1000:g} us: {r['verdict']}" for r in diff)
        head_txt = (f"with headroom (3.6 on the line at {costs} us per frame) the gap vanishes"
                    if not diff else f"with headroom the gap does NOT vanish ({odd})")
    else:
        head_txt = "no cost swept leaves the 3.6 poller headroom"
    below = [r for r in r2 if r["below"]]
    if not below:
        return (f"not reached: the 3.6 poller stays on the line at every cost swept on 2 CPUs "
                f"(up to {r2[-1]['cost'] / 1000:g} us per frame); gain by cost: {curve}")
    hit = [r for r in below if r["verdict"] == "better" and r["gain"] >= TARGET_GAIN_PCT]
    where = (f"the 3.6 poller falls below the line (best run under {BELOW_LINE_PCT:g} % of it) "
             f"on 2 CPUs from {below[0]['cost'] / 1000:g} us per frame")
    if hit:
        h = max(hit, key=lambda r: r["gain"])
        return (f"MET: {where}; at {h['cost'] / 1000:g} us per frame the split pollers carry "
                f"{h['gain']:+.1f} % ({h['split']['med']:.0f} against {h['single']['med']:.0f} "
                f"Mb/s, spreads {h['split']['spread']:.0f} and {h['single']['spread']:.0f}); "
                f"{head_txt}; split against 3.6 by cost: {curve}")
    best = max(below, key=lambda r: r["gain"])
    return (f"MISSED: {where}, but the largest gain there is {best['gain']:+.1f} % at "
            f"{best['cost'] / 1000:g} us per frame ({best['verdict']}); {head_txt}; split "
            f"against 3.6 by cost: {curve}; the breakdown below says where the CPU goes")


MAIN_HEAD = ["link", "CPUs", "cpu_cost_ns", "3.6 poller Mb/s (min..max)", "split Mb/s (min..max)",
             "split vs 3.6", "verdict", "per-second spread Mb/s 3.6 / split",
             "IRQs/frame 3.6 / split", "3.6 below the line", "load (1 min) over the runs",
             "steal ms max"]


def main_rows(rows):
    out = []
    for r in rows:
        s0, s1 = r["single"], r["split"]
        load = s0["load"] + s1["load"]
        out.append([r["dev"], r["cpus"], r["cost"],
                    f"{s0['med']:.0f} ({s0['min']:.0f}..{s0['max']:.0f})",
                    f"{s1['med']:.0f} ({s1['min']:.0f}..{s1['max']:.0f})",
                    f"{r['gain']:+.1f} %", r["verdict"], f"{s0['osc']:.0f} / {s1['osc']:.0f}",
                    f"{s0['ipf']:.3f} / {s1['ipf']:.3f}", "yes" if r["below"] else "no",
                    f"{min(load):.2f}..{max(load):.2f}", f"{max(s0['steal'] + s1['steal']):.0f}"])
    return out


POLL_KEYS = ("napi_rx_irqs", "napi_tx_irqs", "napi_rx_polls", "napi_tx_polls",
             "napi_rx_repolls", "node_loop_ksoftirqd_handoffs", "gfar_polls_tx_budget",
             "gfar_coal_rewrites")


def breakdown(name, cpus, cells):
    """Per cell: CPU per frame, frames, IRQs, poll counts per 1000 frames, every run's figures."""
    rows = []
    for sp, c, cell in cells:
        runs = cell["runs"]
        fr = med([r["frames"] for r in runs]) or 1
        polls = {k: med([r["polls"].get(k, 0) for r in runs]) for k in POLL_KEYS}
        rows.append([name, cpus, "split" if sp else "3.6", c,
                     f"{med([r['node_cpu_ns'] / r['frames'] for r in runs if r['frames']]) / 1000:.2f}",
                     f"{fr:.0f}", f"{med([r['tx_frames'] for r in runs]):.0f}",
                     f"{med([r['rx_frames'] for r in runs]):.0f}",
                     f"{med([r['irqs_frame'] or 0 for r in runs]):.3f}",
                     *(f"{1000 * polls[k] / fr:.2f}" for k in POLL_KEYS),
                     " ".join(f"{r['mbps']:.0f}" for r in runs),
                     " ".join(f"{r['load1']:.2f}" for r in runs),
                     " ".join(f"{r['steal_ms']:.0f}" for r in runs),
                     sum(r["polls"].get("node_rt_demotions", 0) for r in runs),
                     " ".join(r["verdict"] for r in runs)])
    return rows


BREAK_HEAD = ["link", "CPUs", "pollers", "cpu_cost_ns", "sender node CPU us/frame", "frames/run",
              "TX frames", "RX frames", "IRQs/frame",
              *(f"{k} per 1000 frames" for k in POLL_KEYS), "Mb/s per run", "load per run",
              "steal ms per run", "RT demotions (spin guard)", "limit verdict per run"]


COST_CLOCK = {True: "of the thread's own CPU time (`cpu_cost_cputime=1`: a preempted spin "
                    "resumes)", False: "of wall time (`cpu_cost_cputime=0`)"}


def report(a, blocks, rows, load0, load1):
    cost_texts = "".join(f"- {r['dev']}, {r['cpus']} CPU(s): cpu_cost_ns={r['cost']}: "
                         f"{r['text']}\n" for r in rows if r["cost"])
    limits = sorted({f"{n}: {cells[0][2]['limit']:.1f} Mb/s" for n, c, cells in blocks})
    coal = sorted({f"{n}: {' '.join(cells[0][2]['coal'])}" for n, c, cells in blocks})
    parts = [f"""Setup: for each link, `ethdrv segment --nodes 2 --device SPEC,speed={a.speed}` ({
"; ".join(f"{n}: {DEVICES[n]['spec']}, {DEVICES[n]['what']}" for n in a.dev_list)}).
The sender (node 0: tsec0 / enet0) runs `contexts=irq` (its interrupts and polls in softirq
loops `sirq/<if>/<cpu>` at SCHED_FIFO above the application, ksoftirqd `ksirqd/<if>` at
SCHED_OTHER after 10 runs or 2 ms, docs/design.md §4.5-§4.6) and `cpu_cost_ns=C`, a busy
spin of C ns {COST_CLOCK[a.cost_cputime]} per frame handed up and per TX descriptor
confirmed in the poll (docs/design.md §4.9), with `napi_split=0` (the single poller of Linux 3.6's gianfar: either line masks
everything and runs one poller, which returns its whole budget whenever it reclaimed a TX
frame, docs/etsec.md §8.2; fec's combined poller on the ENET) or `napi_split=1` (separate
RX and TX-confirmation pollers). The receiver (node 1) keeps the defaults (contexts=loop,
split pollers, no added cost): the seed's peer was not the CPU-bound side.
"1 CPU": `cpus=1`; the sender's threads and the iperf3 client pinned to CPU 0, every other
thread (the receiver node, the line engine, the lab) and the iperf3 server to CPU 1.
"2 CPUs": `cpus=2 irq_affinity=rx:0/tx:1` (the RX line's softirq loop pinned to CPU 0, the
TX-confirmation line's to CPU 1, docs/design.md §4.7), every other thread on both CPUs:
this VM has only 2 CPUs, so the receiver and the line share them with the sender (the
thread tables show how much). Coalescing at each driver's default (rx-usecs rx-frames
tx-usecs tx-frames): {"; ".join(coal)}.

Per run: `iperf3 -c <node 1> -t {a.seconds} -O {a.omit} -J` from node 0 to `iperf3 -s -1`;
goodput is iperf3's received payload over its time; per-second spread is max - min of the
non-omitted 1-second intervals (`-J` intervals) of the run (its oscillation); the table
gives the median over the cell's runs. {a.repeat} runs per cell; a cell's spread is max -
min of its runs; "better" needs a difference of the medians larger than both cells'
spreads, else "no difference". IRQs/frame: the sender driver's interrupts ({
"; ".join(f"{n}: {' + '.join(DEVICES[n]['irqs'])}" for n in a.dev_list)}) over the frames it
sent and received. Limit (TCP over the line, computed in the run from `ethdrv get <link>`
and the namespace's MTU and timestamps): {"; ".join(limits)}. "3.6 below the line": even the
best run of the 3.6 poller's cell under {BELOW_LINE_PCT:g} % of the limit.
Load average (1 min) at the start {load0:.2f}, at the end {load1:.2f}; per run in the
breakdown table. {eb.conditions_text([r for _, _, cells in blocks for _, _, c in cells
                                       for r in c["runs"]])}.

## Target (issue 24, seed 002 on the eTSEC, 2 CPUs)

{target(rows)}.

## Goodput against the calibrated CPU cost

{eb.md_table(MAIN_HEAD, main_rows(rows))}
What each cost stands for (the host's own CPU per frame B measured in the same block's
cpu_cost_ns=0 cell of the 3.6 poller: the sender node's threads over its frames, the
model's register and DMA work included):

{cost_texts}
![plot]({result_name(a)}.png)

## Breakdown: where the CPU goes

Poll counts are the sender's, per 1000 frames it sent and received (medians over the runs):
`napi_*_irqs` the interrupts each poller's line took, `napi_*_polls` the polls of each
poller, `napi_rx_repolls` the RX poller's polls that used their whole budget, `node_loop_ksoftirqd_handoffs` the bursts handed to ksoftirqd (the node's loop
counters), `gfar_polls_tx_budget` the 3.6 poller's "reclaimed TX, so the whole budget"
returns, `gfar_coal_rewrites` its re-programming of both coalescing registers; RT demotions: the
softirq loops the spin guard put back to SCHED_OTHER (90 % of a 100 ms window on a CPU,
docs/design.md §4.5), summed over the cell's runs.

{eb.md_table(BREAK_HEAD, [x for n, c, cells in blocks for x in breakdown(n, c, cells)])}
## Thread placement and the CPU of every thread, by CPU

Per cell: each thread of the segment process (io_uring workers named after the thread
that owns them) and the two iperf3 processes, the CPUs it may run on when the cell
started (sched_getaffinity), and the CPU time it ran on each CPU, median over the cell's
runs (schedstat run time sampled every {SAMPLE_S * 1000:.0f} ms and put down to the CPU
the thread was on at the sample). Threads under 0.5 ms are left out.
"""]
    for n, c, cells in blocks:
        for sp, cost, cell in cells:
            parts.append(f"\n### {n}, {c} CPU(s), {'split pollers' if sp else '3.6 poller'}, "
                         f"cpu_cost_ns={cost} (irq_affinity={cell['knobs']['irq_affinity']}, "
                         f"softirq loops at priority {cell['ctx_prio']})\n\n"
                         f"{thread_table(cell)}")
    return "".join(parts)


def plot(rows, png):
    data, plots = {}, []
    for i, (dev, cpus) in enumerate(sorted({(r["dev"], r["cpus"]) for r in rows})):
        rs = [r for r in rows if (r["dev"], r["cpus"]) == (dev, cpus)]
        data[f"d{i}"] = "\n".join(
            f"{r['cost'] / 1000:g} {r['single']['med']:.1f} {r['single']['min']:.1f} "
            f"{r['single']['max']:.1f} {r['split']['med']:.1f} {r['split']['min']:.1f} "
            f"{r['split']['max']:.1f}" for r in rs)
        lw = 2 if dev == "etsec" else 1
        plots += [f"$d{i} using 1:2:3:4 with yerrorlines lw {lw} title \"{dev} {cpus} CPU 3.6\"",
                  f"$d{i} using 1:5:6:7 with yerrorlines lw {lw} dt 2 title \"{dev} {cpus} CPU "
                  f"split\""]
    lim = rows[0]["single"]["med"] / max(rows[0]["single"]["pct"], 1e-9) * 100 if rows else 941
    script = f"""
set title "seed 002: TCP goodput against the calibrated CPU cost (median, min..max of the runs)"
set xlabel "cpu_cost_ns of the sender, us per frame"
set ylabel "goodput Mb/s"
set grid
set key outside right
set yrange [0:{lim * 1.05:.0f}]
plot {", ".join(plots)}, {lim:.1f} lw 2 dt 3 lc rgb "black" title "line limit"
"""
    eb.gnuplot(script, png, data)


def result_name(a):
    """napi-seed002 for both links, napi-seed002-LINK for one (run apart under the lock)."""
    return NAME if len(a.dev_list) > 1 else f"{NAME}-{a.dev_list[0]}"


def readme_table(name, rows, tgt):
    return (f"Seed 002 target: {tgt}.\n\n" + eb.md_table(MAIN_HEAD, main_rows(rows)) +
            f"\nFull tables: `bench/results/{name}.md`.\n")


def readme_update(text, table, name):
    b, e = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if b not in text:
        raise RuntimeError(f"docs/benchmarks.md has no {name} markers")
    head, rest = text.split(b, 1)
    return head + b + "\n" + table + e + rest.split(e, 1)[1]


class Lock:
    """The shared system-test lock, when --lock asks for it."""

    def __init__(self, on):
        self.on, self.fd = on, None

    def __enter__(self):
        if self.on:
            self.fd = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def write_all(a, blocks, load0, final):
    """The result so far (after every block, so an interrupted run keeps what it measured);
    docs/benchmarks.md only when FINAL. Returns the rows and the path."""
    rows = [r for n_, c, cells in blocks for r in analyse(n_, c, cells)]
    body = report(a, blocks, rows, load0, os.getloadavg()[0])
    if not final:
        body = ("**Partial: the run is still going or was stopped; blocks done: " +
                ", ".join(f"{n_} {c} CPU(s)" for n_, c, _ in blocks) + ".**\n\n" + body)
    name = result_name(a)
    out = eb.write_result(name, "napi-seed002: seed 002's TCP goodput against a calibrated CPU "
                          "cost, Linux 3.6's single poller against the split pollers", body,
                          a.results)
    plot(rows, str(out.with_suffix(".png")))
    if final and not a.quick and not a.results and not a.no_readme:
        readme = eb.SOURCE_DIR / "docs" / "benchmarks.md"
        readme.write_text(readme_update(readme.read_text(), readme_table(name, rows,
                                                                          target(rows)), name))
    return rows, out


REFUSED = "a goodput above its limit beyond the measurement's tolerance: refused (see the result)"


def run_all(a):
    """The whole sweep of A (parsed by parse()); returns (rows, result path, refused): refused
    is true when a run's goodput beat its limit beyond the tolerance."""
    if (os.cpu_count() or 1) < 2:
        sys.exit(f"{NAME}: needs 2 CPUs")
    n = len(a.dev_list) * len(a.cpu_list) * len(a.cost_list) * 2 * a.repeat
    bar = eb.Progress(n, NAME)
    load0, blocks = os.getloadavg()[0], []
    for name in a.dev_list:
        for cpus in a.cpu_list:
            with Lock(a.lock):
                blocks.append((name, cpus, block(name, DEVICES[name], cpus, a, bar)))
            write_all(a, blocks, load0, False)
    bar.close()
    rows, out = write_all(a, blocks, load0, True)
    refused = any(r["verdict"] != "ok" for _, _, cells in blocks for _, _, c in cells
                  for r in c["runs"])
    return rows, out, refused


def experiment(argv):
    """`ethdrv bench napi-modes --device etsec|enet` (its seed002 experiment): this sweep with
    ARGV, and a section for napi-modes' result: the main table and where the full one is.
    Returns (markdown, refused)."""
    a = parse(argv)
    rows, out, refused = run_all(a)
    name = result_name(a)
    cmd = " ".join(["bench/napi_seed002.py", *argv])
    return (f"## Seed 002 under its conditions: TCP goodput against a calibrated CPU cost\n\n"
            f"Run as `{cmd}` within this benchmark; its full result, with the set-up, every "
            f"cell, the thread placement, IRQs per frame and the conditions of each run: "
            f"[{name}.md]({name}.md), plot [{name}.png]({name}.png).\n\n" +
            readme_table(name, rows, target(rows)), refused)


def main(argv=None):
    a = parse(argv)
    rows, out, refused = run_all(a)
    print(out.read_text())
    if refused:
        sys.exit(f"{NAME}: {REFUSED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
