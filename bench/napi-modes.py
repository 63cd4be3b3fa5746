"""Seeds 002 and 004 redone on the ring MACs: split pollers, BQL, IRQ coalescing, threaded NAPI.

--device picks the link; each device runs its list of experiments (DEVICE_EXPERIMENTS):
  enet:  classic (TCP bulk with split/combined pollers and BQL, the UDP flood at the line
         rate under eight modes, interrupt per packet at set rates), seed004 and seed002
         (the controls: both seeds' sweeps with hardware coalescing);
  gbeth: seed004 (UDP delivered against offered load on 1 CPU, contexts=irq, ravb's
         pre-2024 poll against the fixed one, SW coalescing, threaded NAPI and both);
  etsec: seed002 (TCP goodput against a calibrated per-frame CPU cost, gianfar's 3.6
         single poller against the split pollers, 1 and 2 CPUs; bench/napi_seed002.py,
         whose full result napi-seed002-etsec.md is written beside this one).
`napi-modes seed002 [OPTIONS]` as the first argument runs that sweep alone with
bench/napi_seed002.py's own options (both links by default).
Run time on this VM (2 vCPUs), full, measured: gbeth 28 min on a quiet 4 December (1150
runs of about 1.4 s, none redone for steal; 36-37 min on 3 December with 147 redone),
etsec 10.5-11 min (seed002: 120 runs of about 5 s), enet 48 min on 3 December in one run (classic 9: its 16 TCP cases at each speed under fq off
and on, the UDP flood; seed004 28, 47 of its 1150 runs redone for steal; seed002 11);
seed004's slow-sink part (--s4-apps slow-sink --merge) 15; --quick:
gbeth about 3 min, etsec about 2, enet about 8. Seed 004 redoes a run the hypervisor stole
over 5 % of a CPU from (at most 3 times): on a VM with heavy steal a part takes longer (18-byte
iperf3: 12.8 min, 151 of 325 runs redone). Split a full sweep into parts of at most
10 minutes with --experiments, --s4-payloads/--s4-apps and --merge, or --s2-cpus."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
import napi_modes_lib as nm  # noqa: E402
import napi_seed002 as s2  # noqa: E402
import napi_seed004 as s4  # noqa: E402

NAME = "napi-modes"
TX, RX = "enet0", "enet1"  # TCP: enet0 sends; UDP flood: the generator sends to enet1
ADDR = {TX: "169.254.20.1", RX: "169.254.20.2"}
SINK_PORT = 9000
VETH = ("nmveth0", "nmveth1")  # the kernel reference: two namespaces of our own
VETH_ADDR = ("169.254.31.1", "169.254.31.2")
# Modes of the UDP flood (docs/napi.md §11): knobs on the receiving node after BASE.
BASE = ["adaptive-rx=off", "rx-frames=1", "rx-usecs=0", "napi_defer_hard_irqs=0",
        "gro_flush_timeout=0", "threaded=0", "busy_poll=0"]
SW = ["napi_defer_hard_irqs=1", "gro_flush_timeout=20000"]  # seed 004, docs/napi.md §2.5
MODES = {
    "irq": [],  # an interrupt per packet: no coalescing at all
    "hw": ["rx-usecs=1000", "rx-frames=200"],  # fec's defaults, docs/enet.md §6
    "sw": SW,
    "sw-strong": ["napi_defer_hard_irqs=2", "gro_flush_timeout=200000"],  # docs/napi.md §2.3
    "adaptive": ["adaptive-rx=on"],  # net DIM, docs/napi.md §5.2
    "threaded": ["threaded=1"],
    "sw+threaded": SW + ["threaded=1"],  # seed 004 on one CPU
    "busy-poll": ["busy_poll=50"],  # 50 us, docs/napi.md §2.3
}
BQL_OFF = ["bql_limit_min=1879048192"]  # DQL_MAX_LIMIT: the queue never stops on bytes
BQL_ON = ["bql_limit_min=0"]


# ---- devices and their experiments ---------------------------------------------------------
#
# An experiment is a function f(a) -> markdown (a section of the result) that may write
# plots next to the result (a.out_base: the result's path without ".md"). To add one:
# define it, put it in EXPERIMENTS and in the list of the device(s) it runs on; its
# options: a function g(parser) in EXPERIMENT_ARGS that adds an argument group (name
# the options after the experiment) and returns a checker c(parser, args) or None.
DEVICE_EXPERIMENTS = {"enet": ["classic", "seed004", "seed002"], "gbeth": ["seed004"],
                      "etsec": ["seed002"]}
EXPERIMENTS = {}  # name -> function, filled below the functions
EXPERIMENT_ARGS = []  # g(parser) -> checker or None


def parse(argv=None):
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="enet",
                   help="the link: enet (NXP ENET, fec), gbeth (Renesas GbEth, ravb) or "
                        "etsec (Freescale eTSEC, gianfar) (enet)")
    p.add_argument("--experiments", default=None,
                   help="comma-separated subset of the device's experiments (all of them)")
    p.add_argument("--quick", action="store_true",
                   help="classic: 1000 Mb/s only, 2 s per TCP run, 1 s per flood; seed004: 2 "
                        "runs of 0.5 s per cell, offered 5000 and 50000 datagrams/s plus the "
                        "knee points; no update of docs/benchmarks.md")
    p.add_argument("--speeds", default="1000,100", help="line speeds, Mb/s (1000,100)")
    p.add_argument("--tcp-seconds", type=float, default=5, help="iperf3 -t (5)")
    p.add_argument("--omit", type=int, default=1,
                   help="iperf3 -O: seconds of slow start left out of the goodput (1)")
    p.add_argument("--udp-seconds", type=float, default=3, help="generator time per mode (3)")
    p.add_argument("--payloads", default="18,1472",
                   help="UDP payload bytes (18: 64-byte frames; 1472: 1514-byte frames)")
    p.add_argument("--modes", default=",".join(MODES), help="UDP modes")
    p.add_argument("--batch-us", type=int, default=50,
                   help="the line engine's batch (device key batch-us; 50)")
    p.add_argument("--lab-cpu", type=int, default=None,
                   help="run the line's engine in lab-CPU mode on this CPU (device key lab-cpu; "
                        "docs/design.md §5b.3): it polls the clock for frame resolution")
    p.add_argument("--irq-rates", default="1000,5000,20000,50000",
                   help="offered frames/s of the interrupt-per-packet rate table at 1000 Mb/s, "
                        "1472 B ('' = none)")
    p.add_argument("--ping-interval", type=float, default=0.01, help="ping -i under load")
    p.add_argument("--fq", default="off,on",
                   help="the TCP cases under each of: off, on (the node's fair queue, "
                        "fq=on on both nodes, docs/fq.md); comma-separated (off,on)")
    p.add_argument("--no-tcp", action="store_true", help="skip the TCP cases")
    p.add_argument("--no-udp", action="store_true", help="skip the UDP flood")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    s2.add_cost_clock(p, "seed004's and seed002's cpu_cost_ns")
    g = p.add_argument_group("seed004 (docs/napi.md §12)")
    g.add_argument("--cost-ns", type=int, default=S4_COST_NS,
                   help=f"cpu_cost_ns of the receiving node: the calibrated per-frame cost "
                        f"standing for a slower CPU (docs/design.md §4.9; {S4_COST_NS})")
    g.add_argument("--s4-payloads", default="18,1472",
                   help="UDP payload bytes (18: 64-byte frames; 1472: 1514-byte frames)")
    g.add_argument("--s4-apps", default="sink,iperf3",
                   help="receivers: sink, iperf3, slow-sink (the sink on the slower CPU, "
                        "--app-cost-ns per datagram; not in the default) (sink,iperf3)")
    g.add_argument("--app-cost-ns", type=int, default=s4.S4_APP_COST_NS,
                   help="slow-sink's own CPU per datagram, ns: the application on the slower "
                        f"CPU (docs/napi.md §12.1; {s4.S4_APP_COST_NS})")
    g.add_argument("--s4-modes", default="",
                   help="modes (the device's; the base mode always runs): gbeth "
                        f"{','.join(s4.DEVICES['gbeth']['modes'])}; enet "
                        f"{','.join(s4.DEVICES['enet']['modes'])}")
    g.add_argument("--s4-rates", default="2000,5000,10000,20000,50000,100000,200000,500000,line",
                   help="offered datagrams/s ('line': the line rate; rates above it are left "
                        "out) (2000,5000,...,500000,line)")
    g.add_argument("--s4-runs", type=int, default=5, help="runs per cell (5)")
    g.add_argument("--s4-refine", type=int, default=2,
                   help="geometric midpoints measured to refine the base mode's knee (2)")
    g.add_argument("--s4-seconds", type=float, default=1.0, help="seconds per run (1)")
    g.add_argument("--s4-irq-exit", default="inline", choices=["inline", "defer"],
                   help="the receiving node's irq_exit_softirq (docs/design.md §4.6): what an "
                        "interrupt's exit does while ksoftirqd holds the softirqs: inline runs "
                        "them (Linux 6.5+, seed 004's 2024 kernel; default), defer leaves them "
                        "to ksoftirqd (4.9-6.4)")
    g.add_argument("--merge", action="store_true",
                   help="add this run's cells to the stored ones (RESULT-seed004.json) and "
                        "report all: a sweep split into parts (each under the shared lock)")
    p.add_argument("exps", nargs="*", metavar="EXPERIMENT",
                   help="experiments to run, as --experiments")
    checks = [c for c in (g(p) for g in EXPERIMENT_ARGS) if c]
    a = p.parse_args(argv)
    a.cost_cputime = a.cost_clock == "cpu"
    for c in checks:
        c(p, a)
    if a.exps:
        a.experiments = ",".join(([a.experiments] if a.experiments else []) + a.exps)
    if a.device not in DEVICE_EXPERIMENTS:
        p.error(f"--device {a.device}: use {', '.join(DEVICE_EXPERIMENTS)}")
    a.exp_list = (DEVICE_EXPERIMENTS[a.device] if a.experiments is None else
                  [x for x in a.experiments.split(",") if x])
    bad = [x for x in a.exp_list if x not in DEVICE_EXPERIMENTS[a.device]]
    if bad or not a.exp_list:
        p.error(f"--device {a.device}: experiments {bad or 'none'}: this device runs "
                f"{','.join(DEVICE_EXPERIMENTS[a.device]) or 'none yet'}")
    try:
        a.s4_payload_list = [int(x) for x in a.s4_payloads.split(",") if x]
        a.s4_rate_list = [x if x == "line" else int(x) for x in a.s4_rates.split(",") if x]
    except ValueError as e:
        p.error(f"--s4-payloads/--s4-rates: {e}")
    a.s4_app_list = [x for x in a.s4_apps.split(",") if x]
    if any(x not in s4.APPS for x in a.s4_app_list) or not a.s4_app_list:
        p.error(f"--s4-apps {a.s4_apps}: use {','.join(s4.APPS)}")
    if any(x < 18 or x > 1472 for x in a.s4_payload_list) or not a.s4_payload_list:
        p.error("--s4-payloads: 18..1472 bytes (a datagram in one frame, room for the "
                "generator's sequence number)")
    if any(x != "line" and x < 1 for x in a.s4_rate_list) or not a.s4_rate_list:
        p.error("--s4-rates: datagrams/s >= 1 or 'line'")
    if (a.s4_runs < 1 or a.s4_seconds <= 0 or not 0 <= a.cost_ns <= 1000000
            or not 0 <= a.app_cost_ns <= 1000000):
        p.error("--s4-runs >= 1, --s4-seconds > 0, --cost-ns and --app-cost-ns 0..1000000")
    s4dev = s4.DEVICES.get(a.device)
    a.s4_mode_list = [x for x in a.s4_modes.split(",") if x]
    if s4dev and any(x not in s4dev["modes"] for x in a.s4_mode_list):
        p.error(f"--s4-modes {a.s4_modes}: use {','.join(s4dev['modes'])}")
    if a.quick:
        a.s4_runs, a.s4_seconds = min(a.s4_runs, 2), min(a.s4_seconds, 0.5)
        a.s4_rate_list = [5000, 50000]
    if a.quick:
        a.speeds, a.tcp_seconds, a.udp_seconds = "1000", 2, 1
    a.speed_list = [int(x) for x in a.speeds.split(",") if x]
    a.fq_list = [x for x in a.fq.split(",") if x]
    if not a.fq_list or any(x not in ("off", "on") for x in a.fq_list) or \
            len(set(a.fq_list)) != len(a.fq_list):
        p.error(f"--fq {a.fq}: use off, on or off,on")
    a.payload_list = [int(x) for x in a.payloads.split(",") if x]
    a.mode_list = [m for m in a.modes.split(",") if m]
    a.rate_list = [int(x) for x in a.irq_rates.split(",") if x]
    if a.lab_cpu is not None and a.lab_cpu != 1:
        p.error("--lab-cpu: use 1 (CPU 0 is the node's when the runs pin it)")
    bad = [m for m in a.mode_list if m not in MODES]
    if bad:
        p.error(f"unknown mode(s) {bad}: use {','.join(MODES)}")
    return a


# ---- the link, its threads, the namespaces ---------------------------------------------------


class EnetLink:
    """`ethdrv segment --nodes 2 --device SPEC`, up when both carriers are (LOWER_UP)."""

    def __init__(self, spec, lab_cpu=None):
        self.cmd = [eb.ethdrv_bin(), "segment", "--nodes", "2", "--device", spec]
        self.proc, self.log, self.lab_cpu = None, None, lab_cpu

    def __enter__(self):
        self.log = tempfile.TemporaryFile("w+")
        self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + 60
        while not (all(eb.answers(n) for n in ("link", TX, RX)) and
                   all(self.carrier(n) for n in (TX, RX))):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                self.__exit__()
                raise RuntimeError(f"ENET link not up: {self.log.read() if self.log else ''}")
            time.sleep(0.1)
        return self

    @staticmethod
    def carrier(ns):
        r = eb.run_in(ns, ["ip", "link", "show", ns], check=False)
        return r.returncode == 0 and "LOWER_UP" in r.stdout

    def __exit__(self, *exc):
        if self.proc:
            eb.stop_proc(self.proc, timeout=20)
            self.proc = None
        if self.log:
            self.log.close()
            self.log = None

    def pin(self, node, cpus, rest):
        """Threads of NODE (loop, pollers) on CPUS, every other thread on REST."""
        for tid in os.listdir(f"/proc/{self.proc.pid}/task"):
            try:
                comm = open(f"/proc/{self.proc.pid}/task/{tid}/comm").read().strip()
                mine = comm in (f"ethdrv/{node}",) or comm.startswith(f"napi/{node}")
                if comm == "fdx-line" and self.lab_cpu is not None:
                    continue  # the engine keeps its lab CPU
                os.sched_setaffinity(int(tid), cpus if mine else rest)
            except OSError:
                pass  # a poller thread that just exited


def taskset(cpus, cmd):
    return ["taskset", "-c", ",".join(map(str, sorted(cpus))), *cmd]


def ns_counters(ns):
    """The kernel's IP/UDP counters in NS and its interface's rx_dropped."""
    c = eb.netstat(ns)
    r = eb.run_in(ns, ["cat", f"/sys/class/net/{ns}/statistics/rx_dropped"], check=False)
    c["rx_dropped"] = int(r.stdout.strip() or 0) if r.returncode == 0 else 0
    return c


def cpu_sets(cpus):
    """(the node's CPUs, everything else's) for a run on CPUS (1 or 2) CPUs."""
    if cpus == 1:
        return {0}, {1}
    return {0, 1}, {0, 1}


# ---- TCP bulk --------------------------------------------------------------------------------


def iperf_pair(client_ns, server_ns, server_addr, a, cl_cpus, sv_cpus, snap=None):
    """iperf3 from CLIENT_NS to SERVER_ADDR for a.tcp_seconds after a.omit, ping
    during it; the results. SNAP(): counters taken when the ping starts and ends
    (res["steady"] = (before, after, seconds)), the middle of the measured part."""
    seconds, ping_interval = a.tcp_seconds, a.ping_interval
    srv = eb.popen_in(server_ns, taskset(sv_cpus, ["iperf3", "-s", "-1", "-B", server_addr]))
    try:
        time.sleep(0.3)
        cl = eb.popen_in(client_ns, taskset(cl_cpus, ["iperf3", "-c", server_addr, "-t",
                                                      f"{seconds:g}", "-O", str(a.omit), "-J"]),
                         stdout=subprocess.PIPE, text=True)
        time.sleep(a.omit + min(0.5, seconds / 4))  # the ping runs in the measured part
        s0, w0 = snap() if snap else None, time.monotonic()
        pings = eb.run_in(client_ns, ["ping", "-n", "-i", str(ping_interval), "-w",
                                      str(max(1, int(seconds - 1))), server_addr],
                          check=False, timeout=seconds + 30)
        s1, w1 = snap() if snap else None, time.monotonic()
        out, _ = cl.communicate(timeout=seconds + a.omit + 60)
        res = nm.iperf_result(out)
        res["steady"] = (s0, s1, w1 - w0)
        res["ping"] = nm.ping_percentiles(nm.ping_rtts(pings.stdout))
        return res
    finally:
        eb.stop_proc(srv)


def tcp_case(link, speed, split, bql, cpus, a, lim, fq="off"):
    for n in (TX, RX):
        eb.request(n, "set " + " ".join([f"napi_split={int(split)}", f"fq={fq}"] +
                                        (BQL_ON if bql else BQL_OFF)))
    node, rest = cpu_sets(cpus)
    link.pin(TX, node, rest)
    b, h0 = {n: eb.stats(n) for n in (TX, RX, "link")}, eb.host_sample()
    res = iperf_pair(TX, RX, ADDR[RX], a, node, rest,
                     snap=lambda: (eb.stats(TX), eb.stats("link")))
    h1, af = eb.host_sample(), {n: eb.stats(n) for n in (TX, RX, "link")}
    d = {n: eb.delta(af[n], b[n]) for n in (TX, RX, "link")}
    (t0, l0), (t1, l1), secs = res["steady"]
    steady = nm.steady_state(eb.delta(t1, t0), eb.delta(l1, l0), secs, speed)
    row = nm.tcp_row(res, d[TX], d[RX], d["link"], lim["mbps"], steady)
    # Ring losses of both ends by cause, and the host's load and steal (docs/design.md §4.8).
    row["causes"] = eb.sum_causes([{"c": eb.loss_causes(d[n], af[n])} for n in (TX, RX)], "c")
    row.update(eb.host_conditions(h0, h1))
    row["fq"] = fq
    return row


def tcp_limit_of_run(speed):
    """The line's TCP limit from the link's facts and the namespace's MTU and options."""
    facts = eb.get_keys("link", ("speed_mbps", "preamble_bytes", "ifg_bytes"))
    host = eb.run_in(TX, ["cat", f"/sys/class/net/{TX}/mtu",
                          "/proc/sys/net/ipv4/tcp_timestamps"]).stdout.split()
    if int(facts["speed_mbps"]) != speed:
        raise RuntimeError(f"link runs at {facts['speed_mbps']} Mb/s, not {speed}")
    return nm.tcp_limit(speed, int(host[0]), host[1] != "0", int(facts["preamble_bytes"]),
                        int(facts["ifg_bytes"]))


class Veth:
    """Two namespaces of our own joined by a veth pair (the kernel reference)."""

    def __enter__(self):
        self.__exit__()
        for ns in VETH:
            subprocess.run(["ip", "netns", "add", ns], check=True)
        subprocess.run(["ip", "link", "add", VETH[0], "netns", VETH[0], "type", "veth", "peer",
                        "name", VETH[1], "netns", VETH[1]], check=True)
        for ns, ad in zip(VETH, VETH_ADDR):
            eb.run_in(ns, ["ip", "addr", "add", f"{ad}/24", "dev", ns])
            eb.run_in(ns, ["ip", "link", "set", "lo", "up"])
            eb.run_in(ns, ["ip", "link", "set", ns, "up"])
        return self

    def __exit__(self, *exc):
        for ns in VETH:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


# ---- UDP flood -------------------------------------------------------------------------------


def sink_bin():
    return os.path.join(os.path.dirname(eb.ethdrv_bin()), "bench", "udp-sink")


def irq_late(after, before):
    """Buckets of the line's interrupt lateness during a run, None if the link has none."""
    if "irq_lateness_ns" not in after:
        return None
    return eb.hist_delta(after["irq_lateness_ns"], before["irq_lateness_ns"])


def udp_case(link, speed, payload, mode, cpus, a, pps=0):
    eb.request(RX, "set " + " ".join(BASE + MODES[mode]))
    node, rest = cpu_sets(cpus)
    link.pin(RX, node, rest)
    with tempfile.TemporaryDirectory() as tmp:
        ready = os.path.join(tmp, "ready")
        sink = eb.popen_ready(RX, taskset(node, [sink_bin(), "--port", str(SINK_PORT), "--addr",
                                                 ADDR[RX], "--ready", ready]), ready,
                              stdout=subprocess.PIPE, text=True)
        try:
            b, h0 = (eb.stats(RX), eb.stats("link"), ns_counters(RX)), eb.host_sample()
            t0 = time.monotonic()
            eb.request(RX, f"set emu.gen={payload}:{SINK_PORT}:0:{pps}")
            time.sleep(a.udp_seconds)
            eb.request(RX, "set emu.gen=off")
            secs = time.monotonic() - t0
            time.sleep(0.3)  # what is in the ring and the socket drains
            af, h1 = (eb.stats(RX), eb.stats("link"), ns_counters(RX)), eb.host_sample()
        finally:
            sink.terminate()
        out, _ = sink.communicate(timeout=10)
    res = json.loads(out)
    offered = af[1]["gen_frames"] - b[1]["gen_frames"]
    row = nm.udp_row(res, offered, secs, eb.delta(af[0], b[0]), eb.delta(af[2], b[2]),
                     eb.delta(af[1], b[1]), payload, irq_late(af[1], b[1]))
    # The receiver's ring losses by cause, the host's load and steal (docs/design.md §4.8).
    row["causes"] = eb.loss_causes(eb.delta(af[0], b[0]), af[0])
    row.update(eb.host_conditions(h0, h1))
    return row


# ---- the run ---------------------------------------------------------------------------------


def run_classic(a):
    """The ENET experiments of the first round: TCP bulk, the UDP flood at the line
    rate under eight modes, interrupt per packet at set rates; markdown."""
    if (os.cpu_count() or 1) < 2:
        sys.exit(f"{NAME}: needs 2 CPUs (one for the node, one for the rest)")
    n_tcp = 0 if a.no_tcp else len(a.speed_list) * 8 * len(a.fq_list) + 2
    n_udp = 0 if a.no_udp else len(a.speed_list) * len(a.payload_list) * len(a.mode_list) * 2
    n_rate = 0 if a.no_udp or 1000 not in a.speed_list else len(a.rate_list) * 2
    bar = eb.Progress(n_tcp + n_udp + n_rate, NAME)
    tcp_rows, udp_rows, rate_rows, veth, limits = [], [], [], {}, {}
    a.load = [os.getloadavg()]
    for speed in a.speed_list:
        with EnetLink(device_spec(a, speed), a.lab_cpu) as link:
            if not a.no_tcp:
                limits[speed] = tcp_limit_of_run(speed)
                cases = [(c, sp, b, fq) for c in (1, 2) for sp in (False, True)
                         for b in (True, False) for fq in a.fq_list]
                for cpus, split, bql, fq in cases:
                    r = tcp_case(link, speed, split, bql, cpus, a, limits[speed], fq)
                    tcp_rows.append((speed, split, bql, cpus, limits[speed]["mbps"], r))
                    bar.step(f"tcp {speed} {'split' if split else 'comb'} "
                             f"bql={'on' if bql else 'off'} fq={fq} {cpus}cpu: "
                             f"{r['mbps']:.0f} Mb/s")
                for k in (TX, RX):
                    eb.request(k, "set napi_split=1 fq=off " + " ".join(BQL_ON))
            if not a.no_udp:
                for payload in a.payload_list:
                    for cpus in (1, 2):
                        for mode in a.mode_list:
                            r = udp_case(link, speed, payload, mode, cpus, a)
                            udp_rows.append((speed, payload, cpus, mode, r))
                            bar.step(f"udp {speed} {payload}B {cpus}cpu {mode}: "
                                     f"{r['pps'] / 1e3:.0f} kpps")
                for pps in a.rate_list if speed == 1000 else ():
                    for cpus in (1, 2):
                        r = udp_case(link, speed, 1472, "irq", cpus, a, pps)
                        rate_rows.append((pps, cpus, r))
                        bar.step(f"irq rate {pps} pps {cpus}cpu: {fmt_ipf(r)} IRQs/frame")
                eb.request(RX, "set " + " ".join(BASE))
    if not a.no_tcp:
        with Veth():
            for cpus in (1, 2):
                node, rest = cpu_sets(cpus)
                veth[cpus] = iperf_pair(VETH[0], VETH[1], VETH_ADDR[1], a, node, rest)
                bar.step(f"veth {cpus}cpu: {veth[cpus]['bytes'] * 8 / veth[cpus]['seconds'] / 1e6:.0f} Mb/s")
    bar.close()
    a.load.append(os.getloadavg())
    a.wake = {c: measure_wakeup(c) for c in (1, 2)} if udp_rows else {}
    body = report(a, tcp_rows, udp_rows, veth, limits, rate_rows)
    plot(tcp_rows, udp_rows, a.out_base + ".png")
    if not a.quick and not a.results and tcp_rows and udp_rows:
        readme = eb.SOURCE_DIR / "docs" / "benchmarks.md"
        readme.write_text(nm.readme_update(readme.read_text(), main_table(
            tcp_rows, udp_rows, os.path.basename(a.out_base) + ".md")))
    if any(r["verdict"] != "ok" for *_, r in tcp_rows):
        a.refused.append("a TCP goodput above its limit beyond the measurement's tolerance")
    return body


# The seed-004 sweep's per-frame cost: with it the base mode's knee lies well below the
# line rate of both payloads on this VM (docs/napi.md §12).
S4_COST_NS = 40000


def run_seed004(a):
    """Seed 004's sweep (bench/napi_seed004.py); with --merge over the stored parts."""
    store = a.out_base + "-seed004.json"
    s4dev = s4.DEVICES[a.device]
    n = len(a.s4_payload_list) * len(a.s4_app_list) * len(a.s4_mode_list or s4dev["modes"])
    bar = eb.Progress(n, f"{NAME} seed004 {a.device}")
    data = s4.run(a, bar)
    bar.close()
    if a.merge and os.path.exists(store):
        data = s4.merge(json.load(open(store)), data)
    else:
        data["parts"] = [s4.part_of(data)]
    with open(store, "w") as f:
        json.dump(data, f)
    png = a.out_base + "-seed004.png"
    s4.plot(data, png)
    if a.device == "gbeth" and not a.quick and not a.results:
        readme = eb.SOURCE_DIR / "docs" / "benchmarks.md"
        readme.write_text(s4.docs_update(readme.read_text(), s4.docs_table(data)))
    return s4.report(data, os.path.basename(png))


def seed002_args(p):
    """The seed002 experiment's options: bench/napi_seed002.py's, prefixed --s2-."""
    g = p.add_argument_group("seed002 (bench/napi_seed002.py, docs/etsec.md §8)")
    g.add_argument("--s2-costs", default=None,
                   help="cpu_cost_ns of the sender, ns per frame, 0 first (napi_seed002's "
                        "default; --quick: 0,60000,120000)")
    g.add_argument("--s2-cpus", default="1,2", help="CPU settings: 1, 2 or 1,2 (1,2)")
    g.add_argument("--s2-repeat", type=int, default=None, help="runs per cell (5; --quick 2)")
    g.add_argument("--s2-speed", type=int, default=100, choices=(10, 100, 1000),
                   help="line speed, Mb/s (100)")

    def check(parser, a):
        # At the start, not after the experiments before it: napi_seed002's own checks.
        if a.device in s2.DEVICES:
            s2.parse(seed002_argv(a))
    return check


def seed002_argv(a):
    """napi_seed002's arguments for this run: the device alone, so its result is
    napi-seed002-DEVICE.md beside this one."""
    argv = ["--device", a.device, "--cpus", a.s2_cpus, "--speed", str(a.s2_speed),
            "--cost-clock", a.cost_clock]
    argv += ["--costs", a.s2_costs] if a.s2_costs else []
    argv += ["--repeat", str(a.s2_repeat)] if a.s2_repeat else []
    argv += ["--quick"] if a.quick else []
    argv += ["--results", a.results] if a.results else []
    return argv


def run_seed002(a):
    """Seed 002's CPU-cost sweep (bench/napi_seed002.py) on this device."""
    text, refused = s2.experiment(seed002_argv(a))
    if refused:
        a.refused.append(f"seed002: {s2.REFUSED}")
    return text


EXPERIMENT_ARGS.append(seed002_args)
EXPERIMENTS.update({"classic": run_classic, "seed004": run_seed004, "seed002": run_seed002})
TITLES = {"enet": "the ENET link", "gbeth": "the GbEth link", "etsec": "the eTSEC link"}


def result_name(a):
    """napi-modes for the ENET's full set (the first round's name), else
    napi-modes-DEVICE, and -EXPERIMENTS when a subset ran."""
    if a.device == "enet" and a.exp_list == DEVICE_EXPERIMENTS["enet"]:
        return NAME
    name = f"{NAME}-{a.device}"
    return name if a.exp_list == DEVICE_EXPERIMENTS[a.device] else name + "-" + "-".join(
        a.exp_list)


def main():
    a = parse()
    name = result_name(a)
    a.out_base = str(eb.Path(a.results or eb.RESULTS_DIR) / name)
    eb.Path(a.out_base).parent.mkdir(parents=True, exist_ok=True)
    a.refused = []
    body = "".join(EXPERIMENTS[x](a) for x in a.exp_list)
    out = eb.write_result(name, f"napi-modes: seeds 002 and 004 on {TITLES[a.device]}", body,
                          a.results)
    print(out.read_text())
    if a.refused:
        sys.exit(f"{NAME}: refused: {'; '.join(a.refused)} (see the result)")


def device_spec(a, speed):
    """The link's device spec for SPEED."""
    lab = f",lab-cpu={a.lab_cpu}" if a.lab_cpu is not None else ""
    return f"emu:enet,speed={speed},batch-us={a.batch_us}{lab}"


def fmt_ipf(r):
    return nm.fmt(r["irqs_frame"], ".3f")


def veth_mbps(v):
    return v["bytes"] * 8 / v["seconds"] / 1e6 if v and v["seconds"] else 0.0


def main_table(tcp_rows, udp_rows, result):
    """The table of docs/benchmarks.md: TCP at 1 Gb/s (split, BQL on) and the UDP collapse
    check; RESULT names the file the full tables went to (napi-modes.md for a full ENET
    run, napi-modes-enet-classic.md for this experiment alone)."""
    t = nm.tcp_target(tcp_rows)
    c = nm.collapse(udp_rows)
    return (nm.tcp_target_table(t) + "\n" + nm.collapse_table(c) +
            f"\nFull tables: `bench/results/{result}`.\n")


def report(a, tcp_rows, udp_rows, veth, limits, rate_rows=()):
    parts = [f"""Setup: `ethdrv segment --nodes 2 --device {device_spec(a, "S")}`
for S in {a.speeds} Mb/s: nodes enet0 and enet1 (fec driver on the NXP ENET model),
one full-duplex line. Knobs through `ethdrv set`; counters are deltas of `ethdrv stats`
around each run. "1 CPU": the node under test (its loop and poller threads, and its
application: the iperf3 client, or the UDP sink) pinned to CPU 0 and everything else
(the other node, the line's engine thread, the peer application) to CPU 1; "2 CPUs":
nothing pinned. Machine load matters: load average (1, 5, 15 min) at the start
{" / ".join(f"{x:.2f}" for x in a.load[0])} and at the end
{" / ".join(f"{x:.2f}" for x in a.load[-1])}. docs/napi.md §11
says what every column means. The lab's clock (docs/design.md §5b): {lab_text(a)}
"""]
    if tcp_rows:
        lim_lines = "".join(f"- {s} Mb/s: MSS {l['mss']} B per {l['wire']} wire bytes = "
                            f"{l['mbps']:.1f} Mb/s\n" for s, l in limits.items())
        vrows = [[c, f"{veth_mbps(v):.0f}", v["retransmits"], nm.fmt(v["ping"]["p50"], ".3f"),
                  nm.fmt(v["ping"]["p99"], ".3f")] for c, v in veth.items()]
        best = {c: max((r["mbps"] for s, sp, b, c2, l, r in tcp_rows if c2 == c), default=0)
                for c in veth}
        parts.append(f"""
## TCP bulk (seed 002): iperf3 enet0 -> enet1, {a.tcp_seconds:g} s per run

`iperf3 -c 169.254.20.2 -t {a.tcp_seconds:g} -O {a.omit} -J` from enet0, `iperf3 -s -1` in
enet1 (-O: the first {a.omit} s, slow start, is left out of the goodput: the limit is a
steady state), `ping -i {a.ping_interval:g}` enet0 -> enet1 during the measured part.
Wire busy % and tx MAC idle %: in the window of the ping (the middle of the measured
part), the share of the time enet0's direction of the line carried frames (preamble and
gap included: 100 % is the line's limit) and the share its MAC waited with no frame
ready (`emu_tx_idle_ns`): the line time the host left unused. Pollers: `napi_split=0|1`
on both nodes; BQL off: `bql_limit_min=1879048192` (the queue never stops on bytes);
fq: the node's fair queue (`fq=on|off` on both nodes, docs/fq.md), each case under
{" and ".join(a.fq_list)}, one after the other (the before and after of issue 20 in one run).
Goodput: iperf3's received payload over its time. The limit is computed in the run
from the link's speed, preamble and gap (`ethdrv get link`) and the namespace's MTU
and TCP timestamps: MSS bytes per full-size frame's wire time (ACKs run the other way
of the full-duplex line):

{lim_lines}
{nm.tcp_table(tcp_rows)}
Verdict: {eb.verdict_text([r["verdict"] for *_, r in tcp_rows])}. The tolerance:

```
{eb.TOLERANCE_FORMULA}
```

### Targets at 1000 Mb/s

{nm.tcp_target_table(nm.tcp_target(tcp_rows))}
### Reference: the same iperf3 command over a kernel veth pair

{eb.md_table(["CPUs", "veth Mb/s", "TCP retransmits", "ping p50 ms", "ping p99 ms"], vrows)}
ethdrv as % of veth (best ethdrv row at each CPU setting):
{", ".join(f"{c} CPU(s): {100 * best[c] / veth_mbps(v):.1f} %" for c, v in veth.items()
           if veth_mbps(v))}. The ENET line cannot run unlimited: the model times every frame
at 10, 100 or 1000 Mb/s (docs/enet.md §12), so the veth row is the only reference
without a line limit.
""")
    if udp_rows:
        parts.append(f"""
## UDP RX flood (seed 004): the line's generator into enet1, {a.udp_seconds:g} s per mode

`ethdrv set enet1 emu.gen=PAYLOAD:{SINK_PORT}` (docs/enet.md §14): UDP datagrams from the
line's generator, back to back at the line rate, to `udp-sink` bound in enet1. Offered:
the generator's frames (`gen_frames` of `ethdrv stats link`); delivered: datagrams the
sink received. Limits: {", ".join(f"{s} Mb/s {p} B: {nm.udp_limit(s, p)['pps'] / 1e3:.1f} kpps"
                                   for s in a.speed_list for p in a.payload_list)}.
Modes: {"; ".join(f"{m}: {' '.join(k) or 'none'}" for m, k in MODES.items()
                 if m in a.mode_list)} (after `{' '.join(BASE)}`).

{nm.udp_table(udp_rows)}
### Where interrupt per packet collapses (1 CPU)

Collapsed: under {nm.COLLAPSE_PCT:g} % of the offered datagrams delivered. CPUs needed:
the receiver's CPU time per delivered packet (its threads and the sink) times the offered
rate; above 1.0 one CPU is overrun.

{nm.collapse_table(nm.collapse(udp_rows))}
Where the time goes (the same rows). {wakeup_text(a.wake)}

{nm.explain(nm.collapse(udp_rows), nm.wakeup_cost(a.wake.get(1)))}""")
    if rate_rows:
        parts.append(f"""
## Interrupt per packet at set rates (issue 17 target)

Mode irq (`{' '.join(BASE)}`: coalescing off) at 1000 Mb/s, 1472-byte payloads,
`emu.gen=1472:{SINK_PORT}:0:PPS` for {a.udp_seconds:g} s at each rate. IRQs/frame:
`fec_irqs` over the frames the MAC wrote (`rx_packets` + `rx_errors`) of enet1. The
target, 1.00 +- 0.02 interrupts per frame, applies where the driver keeps up (at least
{nm.KEEPS_UP_PCT:g} % delivered and no ring drops). IRQ lateness: the line's
`irq_lateness_ns` (assertion time minus the event's time on the slipped clock,
histogram bucket bounds), slip: `slips`, `slip_ns` of `ethdrv stats link`.

{nm.irq_rate_table(rate_rows)}""")
    return "".join(parts)


def lab_text(a):
    lab = (f"the engine in lab-CPU mode on CPU {a.lab_cpu}, polling the clock up to each "
           f"event" if a.lab_cpu is not None else "the engine sleeps on timers (5-15 us a "
           "wakeup, docs/host.md §4)")
    return (f"events a driver can see at once (frame ends, unmasked coalescing timers) "
            f"apply at their time, never batched (`batch-us={a.batch_us}` paces only the "
            f"others); {lab}; a lateness beyond 1 ms slips the line's clock (slips, slip ms "
            f"columns) instead of delivering a burst.")


def measure_wakeup(cpus):
    """bench/wake_cost.c: one wakeup of an idle ethdrv loop, the loop on CPU 0 and
    its waker on CPU 0 (1 CPU) or 1 (2 CPUs); its JSON, or None."""
    prog = os.path.join(os.path.dirname(eb.ethdrv_bin()), "bench", "wake-cost")
    r = subprocess.run([prog, "--cpus", f"0,{0 if cpus == 1 else 1}"], capture_output=True,
                       text=True, timeout=60)
    return json.loads(r.stdout) if r.returncode == 0 else None


def wakeup_text(wake):
    """What one wakeup of the node costs, as measured in this run (WAKE: by CPUs)."""
    c1, c2 = nm.wakeup_cost(wake.get(1)), nm.wakeup_cost(wake.get(2))
    if not c1:
        return "The wakeup probe (bench/wake_cost.c) did not run, so wakeups are not priced."
    return (f"One wakeup of an idle ethdrv loop costs the woken thread {c1['us']:.1f} us of CPU "
            f"with its waker on the same CPU" +
            (f" and {c2['us']:.1f} us with the waker on the other CPU" if c2 else "") +
            f", measured in this run by `wake-cost` (bench/wake_cost.c: {c1['n']} wakes of a "
            f"loop asleep in epoll_wait, its thread's CPU time over them). Below, a row's "
            f"node wakeups are priced at the one-CPU figure and set only against that row's "
            f"own driver CPU: a CPU that never idles pays less per wakeup, so it is an "
            f"upper bound.")


def plot(tcp_rows, udp_rows, png):
    tcp = "\n".join(f"\"{s}M {'split' if sp else 'comb'} {'bql' if b else 'nobql'} "
                    f"fq{r.get('fq', 'off')} {c}cpu\" "
                    f"{r['pct']:.2f}" for s, sp, b, c, lim, r in tcp_rows)
    udp = {}
    for s, p, c, m, r in udp_rows:
        udp.setdefault((s, p, c), []).append(f"\"{m}\" {r['delivered_pct']:.2f}")
    blocks = {"tcp": tcp or "\"none\" 0"}
    plots = []
    for i, (k, lines) in enumerate(sorted(udp.items())):
        blocks[f"u{i}"] = "\n".join(lines)
        plots.append(f"$u{i} using 0:2:xtic(1) with linespoints title \"{k[0]} Mb/s "
                     f"{k[1]} B {k[2]} CPU\"")
    script = f"""
set multiplot layout 1,2 title "napi-modes: seeds 002 and 004 on the ENET link"
set grid ytics
set style fill solid 0.5 border -1
set boxwidth 0.7
set title "TCP bulk: goodput, % of the line's TCP limit"
set yrange [0:105]
set xtics rotate by -60 font ",8"
plot $tcp using 0:2:xtic(1) with boxes notitle, 99 lw 2 dt 2 title "99 % target"
set title "UDP flood: % of the offered datagrams delivered"
set key below font ",8"
plot {", ".join(plots) if plots else "0 notitle"}
unset multiplot
"""
    eb.gnuplot(script, png, blocks)


if __name__ == "__main__":
    # ---- hook: `napi-modes seed002 ...` is seed 002's CPU-cost sweep (bench/napi_seed002.py,
    # its own arguments); everything else is this file's own run.
    if sys.argv[1:2] == ["seed002"]:
        import napi_seed002  # noqa: E402
        sys.exit(napi_seed002.main(sys.argv[2:]))
    # ---- end of hook
    main()
