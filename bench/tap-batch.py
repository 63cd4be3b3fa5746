"""64-byte UDP flood into a node on 1 CPU: TAP writes by write() against io_uring batches."""
import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
import napi_modes_lib as nm  # noqa: E402

NAME = "tap-batch"
_spec = importlib.util.spec_from_file_location(
    "napi_modes", os.path.join(os.path.dirname(os.path.abspath(__file__)), "napi-modes.py"))
napi_modes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(napi_modes)
WRITERS = {"write()": "tap_uring=off", "io_uring": "tap_uring=on"}


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--modes", default="hw,sw", help="napi-modes UDP modes (hw,sw)")
    p.add_argument("--payload", type=int, default=18, help="UDP payload (18: 64-byte frames)")
    p.add_argument("--udp-seconds", type=float, default=3, help="generator time per run (3)")
    p.add_argument("--repeat", type=int, default=3, help="runs per writer and mode (3)")
    p.add_argument("--speed", type=int, default=1000, help="line Mb/s (1000)")
    p.add_argument("--batch-us", type=int, default=50, help="line engine batch (50)")
    p.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE",
                   help="another knob for the receiving node in every run")
    p.add_argument("--perf", default=None, metavar="FILE",
                   help="perf record (-F 999, no call graphs) CPU 0, the node's and the sink's, "
                   "into FILE during the middle of the first io_uring run; see it with "
                   "perf report -i FILE --sort comm,dso,sym")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    return p.parse_args()


def perf_record(path, seconds):
    """A thread that records CPU 0 for SECONDS after a second's settling."""
    def run():
        time.sleep(1)
        subprocess.run(["perf", "record", "-q", "-F", "999", "-C", "0", "-o", path, "--",
                        "sleep", str(seconds)], stdout=subprocess.DEVNULL, check=False)
    t = threading.Thread(target=run)
    t.start()
    return t


def main():
    a = parse()
    modes = [m for m in a.modes.split(",") if m]
    for m in modes:
        if m not in napi_modes.MODES:
            sys.exit(f"{NAME}: unknown mode {m}; one of {', '.join(napi_modes.MODES)}")
    lim = nm.udp_limit(a.speed, a.payload)
    bar = eb.Progress(len(modes) * len(WRITERS) * a.repeat, NAME)
    runs, load = {}, []
    spec = f"emu:enet,speed={a.speed},batch-us={a.batch_us}"
    with napi_modes.EnetLink(spec) as link:
        info = eb.request(napi_modes.RX, "info")
        for mode in modes:
            for k in range(a.repeat):
                # alternate the writers so a change of load hits both alike
                for w, knob in WRITERS.items():
                    eb.request(napi_modes.RX, "set " + " ".join([knob, *a.sets]))
                    load.append(open("/proc/loadavg").read().split()[0])
                    perf = None
                    if a.perf and w == "io_uring" and not runs.get((mode, w)):
                        perf = perf_record(a.perf, max(a.udp_seconds - 1.5, 0.5))
                        a.perf = None
                    r = napi_modes.udp_case(link, a.speed, a.payload, mode, 1, a)
                    if perf:
                        perf.join()
                    if r["pps"] > lim["pps"]:
                        sys.exit(f"{NAME}: {r['pps']:.0f} pps beats the line's {lim['pps']:.0f}")
                    runs.setdefault((mode, w), []).append(r)
                    bar.step(f"{mode} {w}: {r['pps'] / 1e3:.0f} kpps, "
                             f"driver {r['driver_us_pkt'] or 0:.2f} us/pkt")
        eb.request(napi_modes.RX, "set tap_uring=on")
    bar.close()
    write(a, modes, runs, load, lim, info)


def med(rows, key):
    v = [r[key] for r in rows if r[key] is not None]
    return statistics.median(v) if v else None


def write(a, modes, runs, load, lim, info):
    head = ["mode", "TAP writer", "delivered kpps (median)", "% of line rate", "vs write()",
            "driver us/pkt", "model us/pkt", "sink us/pkt", "lost %", "kpps in each run"]
    rows = []
    for mode in modes:
        base = med(runs[(mode, "write()")], "pps")
        for w in WRITERS:
            rs = runs[(mode, w)]
            pps = med(rs, "pps")
            lost = statistics.median(100 - r["delivered_pct"] for r in rs)
            rows.append([mode, w, f"{pps / 1e3:.0f}", f"{100 * pps / lim['pps']:.1f}",
                         f"{pps / base:.2f}x" if base else "-",
                         nm.fmt(med(rs, "driver_us_pkt"), ".2f"),
                         nm.fmt(med(rs, "model_us_pkt"), ".2f"),
                         nm.fmt(med(rs, "sink_us_pkt"), ".2f"), f"{lost:.1f}",
                         " ".join(f"{r['pps'] / 1e3:.0f}" for r in rs)])
    writer = next((x for x in info.splitlines() if x.startswith("tap_writer=")), "?")
    body = f"""Setup: `ethdrv segment --nodes 2 --device emu:enet,speed={a.speed},batch-us={a.batch_us}`;
the ENET model of enet1 generates back-to-back UDP datagrams of {a.payload} bytes
({lim['wire']} bytes of wire each: the line's limit is {lim['pps'] / 1e3:.0f} kpps) into enet1,
whose node threads run on CPU 0 together with the UDP sink (`bench/udp-sink`);
everything else on CPU 1 (napi-modes' "1 CPU" case, `bench/napi-modes.py`). Per
run the receiving node writes to its TAP either with one writev(2) per frame
(`tap_uring=off`) or with the frames of one NAPI poll in one io_uring submission
(`tap_uring=on`, {writer} at start), {a.repeat} runs each, the two alternated.
Driver us/pkt: the CPU time of the node's threads (loop, pollers and their
io_uring workers) less the model's work in them, per delivered datagram;
sink: the sink's CPU per datagram. The machine is shared (2 CPUs): the
1-minute load average before each run was {", ".join(load)}.

{eb.md_table(head, rows)}"""
    out = eb.write_result(NAME, f"{NAME}: TAP writes by write() and by io_uring", body,
                          a.results)
    print(out.read_text())


if __name__ == "__main__":
    main()
