"""ENET or eTSEC link: iperf3 TCP one way, both ways and at 100 Mb/s against the line rate,
CPU per MB (--device emu:enet, the default, or emu:etsec)."""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402

NAME = "enet-tcp"
PORT = 5201
ETH_HDR, FCS, IPV4_HDR, TCP_HDR, TCP_TS_OPT = 14, 4, 20, 20, 12
ACK_FRAME_MIN = 64  # an ACK is padded to the minimum frame

LIMIT_FORMULA = """\
The line-rate limit of a TCP flow over the full-duplex line, computed from the
link's facts (`ethdrv get link speed_mbps preamble_bytes ifg_bytes`) and the
nodes' MTU and TCP options in the run:
    mss        = MTU - 20 (IPv4) - 20 (TCP) - 12 (timestamps, when on)
    wire_bytes = preamble+SFD + 14 (Ethernet) + MTU + 4 (FCS) + IFG
    limit      = speed * mss / wire_bytes
At 1000 Mb/s with MTU 1500 and timestamps: 1000 * 1448 / (8 + 1518 + 12) =
941.5 Mb/s; at 100 Mb/s 94.15 Mb/s. Each direction of the line is its own
wire, so the limit holds for each direction. It leaves out the reverse flow's
ACKs: both ways at once each direction also carries the other flow's ACKs
(ack_bytes = preamble+SFD + 64 + IFG each), so the table also gives the limit
with the ACKs the stacks actually sent (ACKs per data segment from the
namespaces' TCP counters):
    limit_acks = speed * mss / (wire_bytes + ratio * ack_bytes)"""


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--seconds", type=int, default=10, help="iperf3 run time per case (10)")
    p.add_argument("--repeat", type=int, default=3,
                   help="runs per case; the table gives the median by goodput (3)")
    p.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE",
                   help="a knob for both nodes (repeatable; default napi_split=1)")
    p.add_argument("--device", default="emu:enet",
                   help="device spec without speed= (emu:enet or emu:etsec; speed= is set "
                   "per case)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    return p.parse_args()


# The link kinds: (segment class, node prefix, subnet, socket, title, MAC and driver).
KINDS = {
    "enet": (eb.EnetLink, "enet", "169.254.20.", "link", "ENET",
             "an NXP ENET model driven by the fec driver"),
    "etsec": (eb.EtsecLink, "tsec", "169.254.30.", "tsec-link", "eTSEC",
              "a Freescale eTSEC model driven by the gianfar driver"),
}
KIND = KINDS["enet"]


def cases(prefix):
    """(label, line speed Mb/s, iperf3 arguments, both ways)"""
    one = f"{prefix}0 -> {prefix}1"
    return [(f"1 Gb/s, {one}", 1000, [], False), ("1 Gb/s, both ways at once", 1000, ["--bidir"], True),
            (f"100 Mb/s, {one}", 100, [], False)]


def line_limit(link, host):
    """The line-rate limit (LIMIT_FORMULA) of one flow: {mss, wire_bytes, bps}."""
    mtu, ts = host["mtu"], host["timestamps"]
    mss = mtu - IPV4_HDR - TCP_HDR - (TCP_TS_OPT if ts else 0)
    wire = link["preamble_bytes"] + ETH_HDR + mtu + FCS + link["ifg_bytes"]
    return {"mss": mss, "wire_bytes": wire, "ack_bytes": link["preamble_bytes"] +
            ACK_FRAME_MIN + link["ifg_bytes"], "bps": link["speed_mbps"] * 1e6 * mss / wire}


def node_cpu_ns(s):
    """CPU time of a node's threads: its loop and its poller threads (the model's
    register and DMA work runs in them)."""
    return s["node_loop_cpu_ns"] + s["node_poller_cpu_ns"]


def snapshot(seg):
    """Counters of both nodes, the line, and the namespaces' TCP counters."""
    return {"nodes": [eb.stats(seg.node(k)) for k in range(2)], "link": eb.stats(KIND[3]),
            "tcp": [eb.netstat(seg.node(k)) for k in range(2)], "t": time.monotonic()}


def ack_ratio(s0, s1):
    """Pure ACKs per data segment over both namespaces (ethdrv_bench.ack_ratio)."""
    acks = data = 0
    for b, a in zip(s0["tcp"], s1["tcp"]):
        d = eb.delta(a, b)
        acks += d["Tcp.OutSegs"] - d["TcpExt.TCPOrigDataSent"]
        data += d["TcpExt.TCPOrigDataSent"] + d["Tcp.RetransSegs"]
    return acks / data if data else 0.0, sum(eb.delta(a, b)["Tcp.RetransSegs"]
                                             for b, a in zip(s0["tcp"], s1["tcp"]))


def iperf(seg, args, seconds):
    """One iperf3 run from node 0 to node 1's server; per direction {bytes, seconds}."""
    server = eb.popen_in(seg.node(1), ["iperf3", "-s", "-1", "-B", seg_addr(1), "-p", str(PORT)])
    time.sleep(0.5)
    r = eb.run_in(seg.node(0), ["iperf3", "-c", seg_addr(1), "-p", str(PORT), "-t",
                                str(seconds), "-J", "--connect-timeout", "3000", *args],
                  timeout=seconds + 60, check=False)
    eb.stop_proc(server)
    end = json.loads(r.stdout)["end"]
    n0, n1 = seg.node(0), seg.node(1)
    dirs = {f"{n0} -> {n1}": end["sum_received"]}
    if "sum_received_bidir_reverse" in end:
        dirs[f"{n1} -> {n0}"] = end["sum_received_bidir_reverse"]
    return {k: {"bytes": v["bytes"], "seconds": v["seconds"]} for k, v in dirs.items()}


def seg_addr(k):
    return f"{KIND[2]}{k + 1}"


def run_case(seg, args, seconds):
    """One run: goodput per direction, the CPU of each node and of the line engine."""
    s0 = snapshot(seg)
    dirs = iperf(seg, args, seconds)
    s1 = snapshot(seg)
    cpu = [node_cpu_ns(a) - node_cpu_ns(b) for b, a in zip(s0["nodes"], s1["nodes"])]
    engine = s1["link"]["engine_cpu_ns"] - s0["link"]["engine_cpu_ns"]
    ratio, retrans = ack_ratio(s0, s1)
    drops = sum(eb.delta(a, b).get(c, 0) for b, a in zip(s0["nodes"], s1["nodes"])
                for c in ("emu_rx_dropped_nobd", "rx_errors", "node_tap_tx_dropped"))
    idle = [a["emu_tx_idle_ns"] - b["emu_tx_idle_ns"] for b, a in zip(s0["nodes"], s1["nodes"])]
    return {"dirs": dirs, "cpu_ns": cpu, "engine_ns": engine, "ratio": ratio, "idle_ns": idle,
            "retrans": retrans, "drops": drops, "span": s1["t"] - s0["t"]}


def facts(seg):
    link = {k: int(v) for k, v in eb.get_keys(KIND[3], ("speed_mbps", "preamble_bytes",
                                                         "ifg_bytes")).items()}
    out = eb.run_in(seg.node(0), ["cat", f"/sys/class/net/{seg.node(0)}/mtu",
                                  "/proc/sys/net/ipv4/tcp_timestamps"]).stdout.split()
    return link, {"mtu": int(out[0]), "timestamps": out[1] != "0"}


def loadavg():
    return open("/proc/loadavg").read().split()[0]


def summarise(label, both, run, lim):
    mb = sum(d["bytes"] for d in run["dirs"].values()) / 1e6
    rows = []
    for name, d in run["dirs"].items():
        bps = d["bytes"] * 8 / d["seconds"]
        sender = int(name[len(KIND[1])])  # "<prefix>K -> ..."
        lim_acks = lim["bps"] * lim["wire_bytes"] / (lim["wire_bytes"] +
                                                     (run["ratio"] if both else 0) *
                                                     lim["ack_bytes"])
        rows.append({"case": label, "dir": name, "mbps": bps / 1e6, "limit": lim["bps"] / 1e6,
                     "pct": 100 * bps / lim["bps"], "limit_acks": lim_acks / 1e6,
                     "pct_acks": 100 * bps / lim_acks,
                     "idle": 100 * run["idle_ns"][sender] / 1e9 / run["span"]})
    for r in rows:
        r.update(cpu=[c / 1e6 / mb for c in run["cpu_ns"]], engine=run["engine_ns"] / 1e6 / mb,
                 ratio=run["ratio"], retrans=run["retrans"], drops=run["drops"])
    return rows


def main():
    global KIND
    a = parse()
    kind = a.device.split(",")[0].partition(":")[2]
    if kind not in KINDS:
        sys.exit(f"ethdrv bench {NAME}: --device {a.device}: use emu:enet or emu:etsec")
    KIND = KINDS[kind]
    sets = a.sets or ["napi_split=1"]
    todo = cases(KIND[1])
    bar = eb.Progress(len(todo) * a.repeat, NAME)
    res, load = [], []
    for label, speed, args, both in todo:
        device = f"{a.device},speed={speed}"
        with KIND[0](device=device, sets=sets) as seg:
            link, host = facts(seg)
            lim = line_limit(link, host)
            runs = []
            for _ in range(a.repeat):
                load.append(loadavg())
                rows = summarise(label, both, run_case(seg, args, a.seconds), lim)
                runs.append(rows)
                bar.step(f"{label}: " + ", ".join(f"{r['pct']:.1f} %" for r in rows))
            runs.sort(key=lambda rows: min(r["pct"] for r in rows))
            res.append({"device": device, "runs": runs, "median": runs[len(runs) // 2]})
    bar.close()
    write(a, sets, res, load)


def write(a, sets, res, load):
    head = ["case", "direction", "goodput Mb/s", "line-rate limit Mb/s", "% of limit",
            "limit with the ACKs Mb/s", "% of that", "ACKs per data segment", "TCP retransmits",
            "frames dropped", "sender's line idle %", f"{KIND[1]}0 CPU ms/MB",
            f"{KIND[1]}1 CPU ms/MB", "line engine CPU ms/MB",
            "% of limit in each run"]
    rows = []
    for c in res:
        for i, r in enumerate(c["median"]):
            rows.append([r["case"], r["dir"], f"{r['mbps']:.1f}", f"{r['limit']:.2f}",
                         f"{r['pct']:.1f}", f"{r['limit_acks']:.2f}", f"{r['pct_acks']:.1f}",
                         f"{r['ratio']:.3f}", r["retrans"], r["drops"], f"{r['idle']:.1f}",
                         f"{r['cpu'][0]:.2f}",
                         f"{r['cpu'][1]:.2f}", f"{r['engine']:.2f}",
                         " ".join(f"{run[i]['pct']:.1f}" for run in c["runs"])])
    sets_txt = " ".join(f"--set {kv}" for kv in sets)
    p = KIND[1]
    name = NAME if KIND[1] == "enet" else f"{NAME}-etsec"
    body = f"""Setup: `ethdrv segment --device {a.device},speed=S {sets_txt}` (S = 1000 or 100):
nodes {p}0 and {p}1, each {KIND[5]}, on one
full-duplex line, TAP offloads on (TSO cut in the node, GRO to the kernel). Per
case `iperf3 -c {KIND[2]}2 -t {a.seconds}` from {p}0 (with `--bidir` for both ways
at once) to an `iperf3 -s -1` in {p}1, {a.repeat} runs; the table shows the run with
the median of its lower direction, the last column every run. Goodput: the bytes
the iperf3 receiver got over its time. CPU per MB: the CPU time of each node's
threads (its loop and poller threads, which also run the model's registers and
DMA) and of the line engine thread, over the payload MB both directions carried,
from the counters before and after the run (`ethdrv stats {p}K`:
node_loop_cpu_ns + node_poller_cpu_ns; `ethdrv stats {KIND[3]}`: engine_cpu_ns).
Frames dropped: the MACs' RX drops without a descriptor, the drivers' RX errors
and the TAPs' refused writes. Sender's line idle: the time the sending MAC's
transmitter waited with no frame ready (the model's emu_tx_idle_ns) over the
span of the run (iperf3 start to end, so set-up is in it): what the host failed
to keep on the wire. The machine is shared (2 CPUs): the 1-minute load
average before each run was {", ".join(load)}.

{eb.md_table(head, rows)}
## The limit

```
{LIMIT_FORMULA}
```

![plot]({name}.png)
"""
    out = eb.write_result(name, f"{name}: TCP over the {KIND[4]} link against the line rate",
                          body, a.results)
    plot(res, str(out.with_suffix(".png")))
    print(out.read_text())


def plot(res, png):
    rows = [r for c in res for r in c["median"]]
    data = "\n".join(f'{k} "{r["case"]}\\n{r["dir"]}" {r["pct"]:.2f} {r["cpu"][0]:.3f} '
                     f'{r["cpu"][1]:.3f}' for k, r in enumerate(rows))
    script = f"""
set multiplot layout 1,2 title "iperf3 TCP over the {KIND[4]} link (driver + model)"
set grid ytics
set style fill solid 0.6
set boxwidth 0.6
set xrange [-0.6:*]
set xtics rotate by -20 font ',8'
set title "goodput as % of the line-rate limit"
set yrange [0:105]
set ylabel "% of limit"
plot $d using 1:3:xtic(2) with boxes notitle, 99 with lines dt 2 title "99 %"
set title "node CPU per MB carried"
set yrange [0:*]
set ylabel "CPU ms per MB"
set boxwidth 0.3
plot $d using ($1-0.15):4:xtic(2) with boxes title "{KIND[1]}0" , \\
     $d using ($1+0.15):5 with boxes title "{KIND[1]}1"
unset multiplot"""
    eb.gnuplot(script, png, {"d": data})


if __name__ == "__main__":
    main()
