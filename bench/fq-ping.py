"""ENET link: ping beside one-way TCP bulk, the node's fair queue off and on (docs/fq.md)."""
import argparse
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
import napi_modes_lib as nm  # noqa: E402

NAME = "fq-ping"
A1 = "169.254.20.2"


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--seconds", type=int, default=8, help="iperf3 time per run (8)")
    p.add_argument("--repeat", type=int, default=2, help="runs per setting (2)")
    p.add_argument("--speed", type=int, default=1000, help="line Mb/s (1000)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    return p.parse_args()


def one(seg, a):
    """iperf3 enet0 -> enet1 with ping enet0 -> enet1 every 20 ms beside it."""
    server = eb.popen_in(seg.node(1), ["iperf3", "-s", "-1", "-B", A1])
    time.sleep(0.5)
    box = {}

    def bulk():
        box["r"] = eb.run_in(seg.node(0), ["iperf3", "-c", A1, "-t", str(a.seconds), "-J"],
                             timeout=a.seconds + 60, check=False)
    b = eb.stats(seg.node(0))
    th = threading.Thread(target=bulk)
    th.start()
    time.sleep(1.5)  # past slow start
    n = int((a.seconds - 2.5) / 0.02)
    ping = eb.run_in(seg.node(0), ["ping", "-n", "-i", "0.02", "-c", str(n), A1],
                     timeout=a.seconds + 30, check=False).stdout
    th.join()
    eb.stop_proc(server)
    af = eb.stats(seg.node(0))
    rtts = nm.ping_rtts(ping)
    soj = eb.hist_delta(af.get("node_fq_sojourn_ns", {}), b.get("node_fq_sojourn_ns", {}))
    res = nm.iperf_result(box["r"].stdout)
    return {"mbps": res["bytes"] * 8 / res["seconds"] / 1e6, "rtts": rtts, "sent": n,
            "soj_p99_us": eb.hist_percentile(soj, 99) / 1e3 if soj else None,
            "fq_drops": af.get("node_fq_drops", 0) - b.get("node_fq_drops", 0),
            "fq_marks": af.get("node_fq_marks", 0) - b.get("node_fq_marks", 0),
            "fq_overlimit": af.get("node_fq_overlimit", 0) - b.get("node_fq_overlimit", 0),
            "retrans": res["retransmits"]}


def main():
    a = parse()
    lim = nm.tcp_limit(a.speed)["mbps"]
    rows, load = [], []
    for fq in ("off", "on"):
        with eb.EnetLink(device=f"emu:enet,speed={a.speed}", sets=["napi_split=1", f"fq={fq}"]) as seg:
            for _ in range(a.repeat):
                load.append(open("/proc/loadavg").read().split()[0])
                r = one(seg, a)
                if r["mbps"] > lim:
                    sys.exit(f"{NAME}: {r['mbps']:.1f} Mb/s beats the limit {lim:.1f}")
                p = nm.ping_percentiles(r["rtts"])
                rows.append([fq, f"{r['mbps']:.1f}", f"{100 * r['mbps'] / lim:.1f}",
                             nm.fmt(p["p50"], ".2f"), nm.fmt(p["p99"], ".2f"),
                             f"{len(r['rtts'])}/{r['sent']}",
                             nm.fmt(r["soj_p99_us"], ".0f"), r["fq_marks"], r["fq_drops"],
                             r["fq_overlimit"], r["retrans"]])
                eb.log(f"{NAME}: fq={fq} {rows[-1]}")
    head = ["fq", "bulk Mb/s", "% of limit", "ping p50 ms", "ping p99 ms", "replies",
            "fq sojourn p99 us", "CE marks", "CoDel drops", "limit drops", "retransmits"]
    body = f"""Setup: `ethdrv segment --device emu:enet,speed={a.speed} --set napi_split=1 --set fq=off|on`;
`iperf3 -c {A1} -t {a.seconds}` from enet0, and from 1.5 s in `ping -i 0.02` from enet0 to
enet1 beside it (the echo requests share enet0's TAP with the bulk data). Limit:
{lim:.1f} Mb/s (docs in bench/enet-tcp.py). Sojourn p99: the upper bound of the
log2 bucket of enet0's `node_fq_sojourn_ns` holding the 99th percentile (fq on
only). {a.repeat} runs per setting. The machine is shared (2 CPUs): the 1-minute
load average before each run was {", ".join(load)}.

{eb.md_table(head, rows)}"""
    out = eb.write_result(NAME, f"{NAME}: ping beside TCP bulk, fair queue off and on", body,
                          a.results)
    print(out.read_text())


if __name__ == "__main__":
    main()
