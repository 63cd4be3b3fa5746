"""ENET, GbEth or eTSEC link: iperf3 TCP one way, both ways and at 100 Mb/s against the line
rate, CPU per MB (--device emu:enet, or emu:gbeth / emu:etsec: the results go to gbeth-tcp.md /
enet-tcp-etsec.md)."""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
import napi_modes_lib as nm  # noqa: E402

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
                   help="device spec without speed= (emu:enet, emu:gbeth or emu:etsec; speed= is "
                   "set per case)")
    p.add_argument("--host-path", default="off,fq,htb,off-rt,fq-rt",
                   help="the both-ways case under each of: off (no fair queue, no shaper), fq "
                   "(the node's fair queue, fq=on, docs/fq.md), htb (an htb shaper at "
                   "--htb-pct of the line on each TAP, the control), and off-rt, fq-rt (off "
                   "and fq with the nodes' threads at SCHED_FIFO --rt-prio, the knob "
                   "rt_prio); comma-separated, alternated within each repeat "
                   "(off,fq,htb,off-rt,fq-rt)")
    p.add_argument("--rt-prio", type=int, default=50,
                   help="the SCHED_FIFO priority of the -rt host paths, 1-99 (50, Linux's "
                   "threaded interrupt handlers')")
    p.add_argument("--htb-pct", type=float, default=98.0,
                   help="the htb control's rate in %% of the line's rate (98)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    a = p.parse_args()
    a.variants = [v for v in a.host_path.split(",") if v]
    for v in a.variants:
        if v not in HOST_PATH:
            sys.exit(f"ethdrv bench {NAME}: --host-path {v}: use {', '.join(HOST_PATH)}")
    if not a.variants:
        sys.exit(f"ethdrv bench {NAME}: --host-path: at least one of {', '.join(HOST_PATH)}")
    if not 1 <= a.rt_prio <= 99:
        sys.exit(f"ethdrv bench {NAME}: --rt-prio {a.rt_prio}: use 1-99")
    if not 10 <= a.htb_pct <= 100:
        sys.exit(f"ethdrv bench {NAME}: --htb-pct {a.htb_pct}: use 10-100")
    return a


# The host path under the both-ways case (docs/fq.md): what each variant adds.
HOST_PATH = {"off": "fq=off, no shaper", "fq": "fq=on (the node's fair queue)",
             "htb": "fq=off, htb shaper on each TAP",
             "off-rt": "fq=off, no shaper, the nodes' threads at SCHED_FIFO {prio}",
             "fq-rt": "fq=on, the nodes' threads at SCHED_FIFO {prio}"}


def htb_rate_bit(link, host, pct):
    """The htb control's rate (bit/s): PCT % of the line's rate as htb counts it (the
    Ethernet frame without FCS, 14 + MTU bytes, against its wire_bytes on the line)."""
    wire = link["preamble_bytes"] + ETH_HDR + host["mtu"] + FCS + link["ifg_bytes"]
    return int(link["speed_mbps"] * 1e6 * (ETH_HDR + host["mtu"]) / wire * pct / 100)


def host_path(seg, variant, rate_bit, prio):
    """Put both nodes' host path into VARIANT (HOST_PATH): the fair queue knob, the
    priority of the nodes' threads (PRIO: {k: node k's rt_prio at the segment's start,
    "rt": the -rt paths' priority}; the lab's threads keep theirs, docs/fq.md §4.1), and
    an htb root qdisc with one class at RATE_BIT on each node's TAP (htb is the one
    shaping qdisc this kernel has, docs/host.md §1), or none."""
    for k in range(2):
        ns = seg.node(k)
        eb.request(ns, f"set fq={'on' if variant.startswith('fq') else 'off'}")
        eb.request(ns, f"set rt_prio={prio['rt'] if variant.endswith('-rt') else prio[k]}")
        eb.run_in(ns, ["tc", "qdisc", "del", "dev", ns, "root"], check=False)
        if variant == "htb":
            eb.run_in(ns, ["tc", "qdisc", "add", "dev", ns, "root", "handle", "1:", "htb",
                           "default", "1"])
            eb.run_in(ns, ["tc", "class", "add", "dev", ns, "parent", "1:", "classid", "1:1",
                           "htb", "rate", f"{rate_bit}bit", "ceil", f"{rate_bit}bit"])


CASES = [  # (label, line speed Mb/s, iperf3 arguments, both ways); {p}: the node prefix
    ("1 Gb/s, {p}0 -> {p}1", 1000, [], False),
    ("1 Gb/s, both ways at once", 1000, ["--bidir"], True),
    ("100 Mb/s, {p}0 -> {p}1", 100, [], False),
]

# Per link kind: the segment class, its link socket, subnet, model drop counter, the driver's
# interrupt counters (summed), what it is.
KINDS = {
    "emu:enet": {"cls": eb.EnetLink, "sock": "link", "subnet": "169.254.20.", "name": NAME,
                 "nobd": "emu_rx_dropped_nobd", "irqs": ("fec_irqs",), "what": "an NXP ENET model driven by the fec "
                 "driver", "title": "the ENET link", "plot": "fec driver + model"},
    "emu:gbeth": {"cls": eb.GbethLink, "sock": "gbeth-link", "subnet": "169.254.40.",
                  "name": "gbeth-tcp", "nobd": "emu_rx_dropped_nodesc", "irqs": ("ravb_irqs",),
                  "what": "a Renesas GbEth model driven by the ravb driver",
                  "title": "the GbEth link", "plot": "ravb driver + model",
                  "note": """
Seed 004's page-pool follow-up (UDP RX 109 -> 485 Mb/s on the RZ/G2UL) came
from page-pool RX buffers: no copy of each frame and less cache maintenance
on a SoC whose DMA is not cache-coherent. The lab models none of it: the host
is cache-coherent, the model's DMA is a plain copy into the DMA region, and
the ravb driver copies every frame from its descriptor buffers into a pool
packet whatever rx-buf says (docs/gbeth.md §3.5), so no such gain is expected
here and none is claimed.
"""},
}
KINDS["emu:etsec"] = {"cls": eb.EtsecLink, "sock": "tsec-link", "subnet": "169.254.30.",
                      "name": f"{NAME}-etsec", "nobd": "emu_rx_dropped_nobd",
                      "irqs": ("gfar_irq_rx", "gfar_irq_tx", "gfar_irq_er"),
                      "what": "a Freescale eTSEC model driven by the gianfar driver",
                      "title": "the eTSEC link", "plot": "gianfar driver + model"}
KIND = KINDS["emu:enet"]


def kind_of(device):
    """The link kind a --device spec names (KINDS), or exit with the accepted values."""
    model = device.split(",")[0]
    if model not in KINDS:
        sys.exit(f"ethdrv bench {NAME}: --device {device}: use emu:enet, emu:gbeth or emu:etsec")
    return KINDS[model]


def line_limit(link, host):
    """The line-rate limit (LIMIT_FORMULA) of one flow: {mss, wire_bytes, bps}."""
    mtu, ts = host["mtu"], host["timestamps"]
    mss = mtu - IPV4_HDR - TCP_HDR - (TCP_TS_OPT if ts else 0)
    wire = link["preamble_bytes"] + ETH_HDR + mtu + FCS + link["ifg_bytes"]
    return {"mss": mss, "wire_bytes": wire, "ack_bytes": link["preamble_bytes"] +
            ACK_FRAME_MIN + link["ifg_bytes"], "bps": link["speed_mbps"] * 1e6 * mss / wire}


def node_cpu_ns(s):
    """CPU time of a node's threads (eb.node_threads_cpu_ns; the model's register
    and DMA work runs in them)."""
    return eb.node_threads_cpu_ns(s)


def snapshot(seg):
    """Counters of both nodes, the line, and the namespaces' TCP counters."""
    return {"nodes": [eb.stats(seg.node(k)) for k in range(2)], "link": eb.stats(KIND["sock"]),
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


def iperf_server(seg):
    """node 1's one-shot iperf3 server, given 0.5 s to listen."""
    server = eb.popen_in(seg.node(1), ["iperf3", "-s", "-1", "-B", seg_addr(1), "-p", str(PORT)])
    time.sleep(0.5)
    return server


def iperf(seg, server, args, seconds):
    """One iperf3 run from node 0 to node 1's SERVER; per direction {bytes, seconds}."""
    r = eb.run_in(seg.node(0), ["iperf3", "-c", seg_addr(1), "-p", str(PORT), "-t",
                                str(seconds), "-J", "--connect-timeout", "3000", *args],
                  timeout=seconds + 60, check=False)
    eb.stop_proc(server)
    end = json.loads(r.stdout)["end"]
    n0, n1 = seg.node(0), seg.node(1)
    dirs = {f"{n0} -> {n1}": (end["sum_received"], end["sum_sent"])}
    if "sum_received_bidir_reverse" in end:
        dirs[f"{n1} -> {n0}"] = (end["sum_received_bidir_reverse"],
                                 end["sum_sent_bidir_reverse"])
    # sent - received: the data at the edges of the receiver's interval (TOLERANCE_FORMULA)
    return {k: {"bytes": rx["bytes"], "seconds": rx["seconds"], "edge": tx["bytes"] - rx["bytes"]}
            for k, (rx, tx) in dirs.items()}


def seg_addr(k):
    return f"{KIND['subnet']}{k + 1}"


def run_case(seg, args, seconds):
    """One run: goodput per direction, the CPU of each node and of the line engine. The
    counters are read around the client alone: the server's start and its 0.5 s wait to
    listen (0.5 s, some 5 % of a 10 s run) are outside the span."""
    server = iperf_server(seg)
    s0, h0 = snapshot(seg), eb.host_sample()
    dirs = iperf(seg, server, args, seconds)
    h1, s1 = eb.host_sample(), snapshot(seg)
    cpu = [node_cpu_ns(a) - node_cpu_ns(b) for b, a in zip(s0["nodes"], s1["nodes"])]
    engine = s1["link"]["engine_cpu_ns"] - s0["link"]["engine_cpu_ns"]
    ratio, retrans = ack_ratio(s0, s1)
    drops = sum(eb.delta(a, b).get(c, 0) for b, a in zip(s0["nodes"], s1["nodes"])
                for c in (KIND["nobd"], "rx_errors", "node_tap_tx_dropped", "node_fq_drops",
                          "node_fq_overlimit"))
    idle = [a["emu_tx_idle_ns"] - b["emu_tx_idle_ns"] for b, a in zip(s0["nodes"], s1["nodes"])]
    demoted = sum(eb.delta(a, b).get("node_rt_demotions", 0)
                  for b, a in zip(s0["nodes"], s1["nodes"]))
    late = (eb.hist_delta(s1["link"]["irq_lateness_ns"], s0["link"]["irq_lateness_ns"])
            if "irq_lateness_ns" in s1["link"] else None)
    both = {k: sum(eb.delta(a, b).get(k, 0) for b, a in zip(s0["nodes"], s1["nodes"]))
            for k in (*KIND["irqs"], "rx_packets", "rx_errors")}
    both["irqs"] = sum(both.pop(k) for k in KIND["irqs"])  # every interrupt of the driver
    # Loss attribution (docs/design.md §4.8): every ring-MAC model has it.
    causes = eb.sum_causes([{"c": eb.loss_causes(eb.delta(a, b), a)}
                            for b, a in zip(s0["nodes"], s1["nodes"])], "c")
    return {"dirs": dirs, "cpu_ns": cpu, "engine_ns": engine, "ratio": ratio, "idle_ns": idle,
            "retrans": retrans, "drops": drops, "span": s1["t"] - s0["t"], "demoted": demoted,
            "causes": causes if "emu_rx_lost_driver" in s1["nodes"][0] else None,
            "lab": nm.lab_clock(both, eb.delta(s1["link"], s0["link"]), late, "irqs"),
            **eb.host_conditions(h0, h1)}


def facts(seg):
    link = {k: int(v) for k, v in eb.get_keys(KIND["sock"], ("speed_mbps", "preamble_bytes",
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
        sender = int(name.split(" ")[0][-1])  # "enetK -> ..." / "gbethK -> ..."
        lim_acks = lim["bps"] * lim["wire_bytes"] / (lim["wire_bytes"] +
                                                     (run["ratio"] if both else 0) *
                                                     lim["ack_bytes"])
        tol = eb.tolerance(d["edge"], lim["bps"] / 8, d["seconds"])
        rows.append({"case": label, "dir": name, "mbps": bps / 1e6, "limit": lim["bps"] / 1e6,
                     "pct": 100 * bps / lim["bps"], "tol": 100 * tol,
                     "verdict": eb.verdict(bps, lim["bps"], tol), "limit_acks": lim_acks / 1e6,
                     "pct_acks": 100 * bps / lim_acks,
                     "idle": 100 * run["idle_ns"][sender] / 1e9 / run["span"]})
    for r in rows:
        r.update(cpu=[c / 1e6 / mb for c in run["cpu_ns"]], engine=run["engine_ns"] / 1e6 / mb,
                 ratio=run["ratio"], retrans=run["retrans"], drops=run["drops"], lab=run["lab"],
                 causes=run["causes"], load1=run["load1"], steal_ms=run["steal_ms"],
                 demoted=run["demoted"])
    return rows


def main():
    global KIND
    a = parse()
    KIND = kind_of(a.device)
    # napi_split is fec's and gianfar's; ravb has one poller for RX and TX.
    sets = a.sets or ([] if KIND is KINDS["emu:gbeth"] else ["napi_split=1"])
    prefix = KIND["cls"].PREFIX
    bar = eb.Progress(sum(len(a.variants) if c[3] else 1 for c in CASES) * a.repeat,
                      KIND["name"])
    res, load = [], []
    for label, speed, args, both in CASES:
        label = label.format(p=prefix)
        device = f"{a.device},speed={speed}"
        variants = a.variants if both else [None]
        with KIND["cls"](device=device, sets=sets) as seg:
            link, host = facts(seg)
            lim = line_limit(link, host)
            rate = htb_rate_bit(link, host, a.htb_pct)
            prio = {k: int(eb.get_keys(seg.node(k), ("rt_prio",))["rt_prio"]) for k in range(2)}
            prio["rt"] = a.rt_prio
            runs = {v: [] for v in variants}
            for _ in range(a.repeat):
                # alternate the variants so a change of load hits each alike
                for v in variants:
                    if v:
                        host_path(seg, v, rate, prio)
                    vlabel = f"{label}, {HOST_PATH[v].format(prio=a.rt_prio)}" if v else label
                    if v == "htb":
                        vlabel += f" at {rate / 1e6:.1f} Mbit/s ({a.htb_pct:g} % of the line)"
                    load.append(loadavg())
                    rows = summarise(vlabel, both, run_case(seg, args, a.seconds), lim)
                    runs[v].append(rows)
                    bar.step(f"{vlabel}: " + ", ".join(f"{r['pct']:.1f} %" for r in rows))
            if both:
                host_path(seg, "off", rate, prio)
            for v in variants:
                rs = sorted(runs[v], key=lambda rows: min(r["pct"] for r in rows))
                res.append({"device": device, "runs": rs, "median": rs[len(rs) // 2]})
    bar.close()
    write(a, sets, res, load)
    if any(r["verdict"] != "ok" for c in res for run in c["runs"] for r in run):
        sys.exit(f"{NAME}: a goodput above its limit beyond the measurement's tolerance: "
                 "refused (see the result)")


def write(a, sets, res, load):
    head = ["case", "direction", "goodput Mb/s", "line-rate limit Mb/s", "% of limit",
            "tolerance %", "verdict", "limit with the ACKs Mb/s", "% of that",
            "ACKs per data segment", "TCP retransmits", "frames dropped",
            "lost without a BD: driver/lab/steal", "node threads put back to SCHED_OTHER",
            "sender's line idle %",
            "node 0 CPU ms/MB", "node 1 CPU ms/MB", "line engine CPU ms/MB", "VM steal ms",
            "load", "% of limit: median of the runs", "% of limit: minimum",
            "% of limit in each run", "VM steal ms in each run", "load in each run",
            *nm.LAB_HEAD]
    rows = []
    for c in res:
        for i, r in enumerate(c["median"]):
            rows.append([r["case"], r["dir"], f"{r['mbps']:.1f}", f"{r['limit']:.2f}",
                         f"{r['pct']:.1f}", f"{r['tol']:.4f}", r["verdict"],
                         f"{r['limit_acks']:.2f}", f"{r['pct_acks']:.1f}",
                         f"{r['ratio']:.3f}", r["retrans"], r["drops"],
                         eb.causes_text(r["causes"]) if r["causes"] else "-", r["demoted"],
                         f"{r['idle']:.1f}",
                         f"{r['cpu'][0]:.2f}",
                         f"{r['cpu'][1]:.2f}", f"{r['engine']:.2f}", f"{r['steal_ms']:.0f}",
                         f"{r['load1']:.2f}",
                         f"{statistics.median(run[i]['pct'] for run in c['runs']):.1f}",
                         f"{min(run[i]['pct'] for run in c['runs']):.1f}",
                         " ".join(f"{run[i]['pct']:.1f}" for run in c["runs"]),
                         " ".join(f"{run[i]['steal_ms']:.0f}" for run in c["runs"]),
                         " ".join(f"{run[i]['load1']:.2f}" for run in c["runs"]),
                         *nm.lab_cells(r["lab"])])
    sets_txt = " ".join(f"--set {kv}" for kv in sets)
    p = KIND["cls"].PREFIX
    body = f"""Setup: `ethdrv segment --device {a.device},speed=S {sets_txt}` (S = 1000 or 100):
nodes {p}0 and {p}1, each {KIND["what"]}, on one
full-duplex line, TAP offloads on (TSO cut in the node, GRO to the kernel). Per
case `iperf3 -c {KIND["subnet"]}2 -t {a.seconds}` from {p}0 (with `--bidir` for both ways
at once) to an `iperf3 -s -1` in {p}1, {a.repeat} runs; the table shows the run with
the median of its lower direction, the median and the minimum of each direction over
the runs, and every run (ordered by the run's lower direction, with its VM steal and
load in the same order). The both-ways case runs under each host path of
`--host-path {a.host_path}`, alternated within each repeat (docs/fq.md): off (no fair
queue, no shaper), fq (`ethdrv set NODE fq=on`: the node's fair queue) and htb, the
control (`tc qdisc add dev NODE root handle 1: htb default 1` and one class at
{a.htb_pct:g} % of the line's rate as htb counts bytes, 14 + MTU per frame, on each
node's TAP, fair queue off); off-rt and fq-rt are off and fq with both nodes' threads
at SCHED_FIFO {a.rt_prio} (`ethdrv set NODE rt_prio={a.rt_prio}`: the node's loop, which
takes the interrupts, runs the polls and reads the TAP, above iperf3 and the line
engine, which stay SCHED_OTHER; docs/fq.md §4.1); "node threads put back to
SCHED_OTHER" counts the node's spin guard's demotions in the run (docs/design.md
§4.5). Goodput: the bytes
the iperf3 receiver got over its time. CPU per MB: the CPU time of each node's
threads (its loop and poller threads, which also run the model's registers and
DMA) and of the line engine thread, over the payload MB both directions carried,
from the counters before and after the run (`ethdrv stats {p}K`:
node_loop_cpu_ns + node_poller_cpu_ns, + node_ctx_cpu_ns + node_ksoftirqd_cpu_ns with
contexts=irq; `ethdrv stats {KIND["sock"]}`: engine_cpu_ns).
Frames dropped: the MACs' RX drops without a descriptor, the drivers' RX errors,
the TAPs' refused writes and the fair queue's CoDel and limit drops. "Lost without a BD" puts each of the MACs' drops for
want of an empty descriptor down to one cause (docs/design.md §4.8): the lab (the
frame reached the MAC more than 1 ms after its time on the line), VM steal during the
driver's service gap (/proc/stat), else the driver's gap (since it last served RX: an
RDAR write on the ENET, a RIS0/RIC0 write on the GbEth, IEVENT RX or RSTAT on the eTSEC).
VM steal ms and load: /proc/stat steal over all CPUs during the run, and the 1-minute
load average at its end. Sender's line idle: the time the sending MAC's
transmitter waited with no frame ready (the model's emu_tx_idle_ns) over the
span of the run (the iperf3 client's start to end, so its connection set-up and
result exchange are in it, the server's start is not): what the host failed
to keep on the wire. The machine is shared (2 CPUs): the 1-minute load
average before each run was {", ".join(load)}. The lab's clock (docs/design.md
§5b), of the run in the row, both nodes: IRQs/frame is the driver's IRQ count over the frames
the MACs wrote (with the drivers' coalescing as set), IRQ lateness the line's
irq_lateness_ns (bucket bounds), slips and slip ms the time the line's clock
paused because its engine was late beyond the bound.

{eb.md_table(head, rows)}
Verdict (every run): {eb.verdict_text([r["verdict"] for c in res for run in c["runs"] for r in run])}.

{KIND.get("note", "")}
## The limit

```
{LIMIT_FORMULA.replace("ethdrv get link", "ethdrv get " + KIND["sock"])}
```

## The measurement's tolerance

```
{eb.TOLERANCE_FORMULA}
```

![plot]({KIND["name"]}.png)
"""
    out = eb.write_result(KIND["name"], f"{KIND['name']}: TCP over {KIND['title']} against the "
                          "line rate", body, a.results)
    plot(res, str(out.with_suffix(".png")))
    print(out.read_text())


def plot(res, png):
    rows = [r for c in res for r in c["median"]]
    data = "\n".join(f'{k} "{r["case"]}\\n{r["dir"]}" {r["pct"]:.2f} {r["cpu"][0]:.3f} '
                     f'{r["cpu"][1]:.3f}' for k, r in enumerate(rows))
    script = """
set multiplot layout 1,2 title "TITLE"
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
plot $d using ($1-0.15):4:xtic(2) with boxes title "node 0" , $d using ($1+0.15):5 with boxes title "node 1"
unset multiplot"""
    script = script.replace("TITLE", f"{KIND['name']}: iperf3 TCP over {KIND['title']} "
                            f"({KIND['plot']})")
    eb.gnuplot(script, png, {"d": data})


if __name__ == "__main__":
    main()
