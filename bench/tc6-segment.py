"""2..8 nodes, TCP all-to-one and all-to-all: goodput, shares, fairness, PLCA vs CSMA/CD."""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402

NAME = "tc6-segment"
BASE_PORT = 5201


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--nodes", default="2,4,8", help="segment sizes (2,4,8)")
    p.add_argument("--seconds", type=int, default=8, help="iperf3 run time per case (8)")
    p.add_argument("--spi-hz", type=int, default=25000000, help="SPI clock (25 MHz)")
    p.add_argument("--spi-setup-ns", type=int, default=1000, help="per-transfer setup (1000)")
    p.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE",
                   help="a knob for every node in every case (repeatable; e.g. fq=on)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    return p.parse_args()


def flows(pattern, n):
    """(sender, receiver) pairs: all-to-one = every node to node 0; all-to-all = every pair."""
    if pattern == "all-to-one":
        return [(k, 0) for k in range(1, n)]
    return [(s, r) for s in range(n) for r in range(n) if s != r]


def run_case(seg, pattern, a):
    """All flows of PATTERN at once for a.seconds; per-flow received bytes, medium deltas."""
    pairs = flows(pattern, seg.nodes)
    servers = [eb.popen_in(eb.netns(r), ["iperf3", "-s", "-1", "-B", eb.addr(r), "-p",
                                         str(BASE_PORT + s)]) for s, r in pairs]
    time.sleep(0.5)
    s0 = seg.snapshot()
    t0 = time.monotonic()
    clients = [eb.popen_in(eb.netns(s), ["iperf3", "-c", eb.addr(r), "-p", str(BASE_PORT + s),
                                         "-t", str(a.seconds), "-J", "--connect-timeout", "3000"],
                           stdout=eb.subprocess.PIPE, text=True) for s, r in pairs]
    outs = [c.communicate(timeout=a.seconds + 60)[0] for c in clients]
    span = time.monotonic() - t0
    s1 = seg.snapshot()
    for p in servers:
        eb.stop_proc(p)
    got = []
    for (s, r), out in zip(pairs, outs):
        try:
            end = json.loads(out)["end"]["sum_received"]
            got.append((s, r, end["bytes"]))
        except (ValueError, KeyError):
            got.append((s, r, 0))  # the flow failed: it got nothing
    return got, span, s0, s1


def summarise(seg, mode, pattern, got, span, s0, s1):
    n = seg.nodes
    d = eb.delta(s1["segment"], s0["segment"])
    payload = sum(g[2] for g in got)
    per_node = [sum(g[2] for g in got if g[0] == k) / span for k in range(n)]
    senders = [per_node[k] for k in sorted({g[0] for g in got})]
    lim = eb.limits(s0, s1, payload, span, flows(pattern, n))
    goodput = lim["goodput"]
    return {"nodes": n, "mode": mode, "pattern": pattern, "flows": len(got),
            "goodput": goodput, "lim": lim, "shares": [x / goodput for x in senders],
            "jain": eb.jain(senders), "collisions": d["collisions"], "beacons": d["beacons"],
            "excessive": d["excessive_collisions"], "failed": sum(1 for g in got if not g[2]),
            "span": span}


def main():
    a = parse()
    sizes = [int(x) for x in a.nodes.split(",")]
    dev = f"emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns}"
    modes = [("PLCA", []), ("CSMA/CD", ["plca=off"])]
    patterns = ["all-to-one", "all-to-all"]
    bar = eb.Progress(len(sizes) * len(modes) * len(patterns), NAME)
    res = []
    for n in sizes:
        for mode, sets in modes:
            with eb.Segment(n, device=dev, sets=sets + a.sets) as seg:
                for pattern in patterns:
                    got, span, s0, s1 = run_case(seg, pattern, a)
                    r = summarise(seg, mode, pattern, got, span, s0, s1)
                    res.append(r)
                    bar.step(f"{n} nodes {mode} {pattern}: {r['goodput'] * 8 / 1e6:.2f} Mb/s")
    bar.close()
    write(a, dev, res)


def write(a, dev, res):
    rows = [[r["nodes"], r["mode"], r["pattern"], r["flows"], f"{r['span']:.1f}",
             f"{r['goodput'] * 8 / 1e6:.2f}", f"{r['goodput'] / 1024:.0f}",
             f"{r['lim']['apriori']['limit'] * 8 / 1e6:.2f}", f"{r['lim']['acks']['ratio']:.3f}",
             f"{r['lim']['pct_apriori']:.1f}", f"{r['lim']['utilisation']:.1f}",
             r["lim"]["acks"]["retransmits"],
             " ".join(f"{100 * x:.0f}" for x in r["shares"]), f"{r['jain']:.3f}", r["beacons"],
             r["collisions"], r["excessive"], r["failed"]] for r in res]
    head = ["nodes", "medium", "pattern", "flows", "span s", "goodput Mb/s", "goodput KiB/s",
            "a-priori limit Mb/s", "ACKs per data segment", "% of a-priori limit",
            "wire utilisation %", "TCP retransmits", "per-sender share %", "Jain", "beacons",
            "collisions", "frames dropped (16 collisions)", "flows failed"]
    inputs = "".join(f"- {r['nodes']} nodes, {r['mode']}, {r['pattern']}:\n"
                     + "".join(f"  - {line}\n" for line in eb.describe_limits(r["lim"]))
                     for r in res)
    sets = "".join(f" --set {kv}" for kv in a.sets)
    body = f"""Setup: `ethdrv segment --nodes N --device {dev}{sets}` (PLCA: node 0 coordinator,
node-cnt N, to-tmr 32, burst-cnt 0) or the same with `--set plca=off` on every node
(no coordinator: every node uses CSMA/CD; the table's beacon count proves the switch,
0 beacons). Per case, all flows run at once for {a.seconds} s: `iperf3 -c` in the sender's
namespace to an `iperf3 -s -1` in the receiver's. all-to-one: every node k >= 1 sends
to node 0; all-to-all: every ordered pair (N(N-1) flows). Goodput = bytes the iperf3
receivers got / the wall time from starting the clients until the last one ended
("span": it includes process start and connection set-up, and with 56 clients on 2
CPUs the flows start and end a little apart, so it is conservative). Per-sender
share: each sending node's part of the goodput (node order 0..N-1, senders only);
Jain = (sum x)^2 / (n sum x^2) over the senders' goodput. TCP retransmits: all
nodes' Tcp.RetransSegs. a-priori limit: the most TCP payload the segment carries for the pattern (every flow
at the same rate) at the ACK ratio the stacks showed in the case (ACKs per data
segment, from the namespaces' TCP counters); % of a-priori limit = goodput / it, so
waste (retransmissions, extra ACKs, idle wire, collisions) lowers it. Wire
utilisation: the time the frames that did cross (retransmissions and every ACK
included) need on a busy segment, over the span: it stays near 100 % while the wire
is kept busy, whatever it carries. Both formulas are below (CSMA/CD: no PLCA terms, so
collisions and backoff show as the gap).

{eb.md_table(head, rows)}
## The limits of each case

{inputs}
## The limits

```
{eb.LIMIT_FORMULA}
```

![plot]({NAME}.png)
"""
    out = eb.write_result(NAME, "tc6-segment: goodput and fairness on 2..8 nodes, PLCA and CSMA/CD",
                          body, a.results)
    plot(res, str(out.with_suffix(".png")))
    print(out.read_text())
    eb.refuse_above(NAME, [r["lim"] for r in res])


def plot(res, png):
    blocks = {}
    for pattern in ("all-to-one", "all-to-all"):
        for mode in ("PLCA", "CSMA/CD"):
            key = f"{pattern}_{mode}".replace("-", "").replace("/", "")
            blocks[key] = "\n".join(f"{r['nodes']} {r['goodput'] * 8 / 1e6:.3f} {r['jain']:.3f} "
                                    f"{r['lim']['apriori']['limit'] * 8 / 1e6:.3f}" for r in res
                                    if r["pattern"] == pattern and r["mode"] == mode)
    script = """
set multiplot layout 1,2 title "tc6-segment: TCP goodput and Jain fairness, LAN8650 model at 25 MHz SPI"
set grid
set xlabel "nodes"
set xtics (2, 4, 8)
set logscale x 2
set ylabel "goodput (Mb/s)"
set yrange [0:10]
set y2label "Jain fairness"
set y2range [0:1.05]
set y2tics
set key bottom left
"""
    for pattern in ("all-to-one", "all-to-all"):
        p, c = (f"{pattern}_{m}".replace("-", "").replace("/", "") for m in ("PLCA", "CSMA/CD"))
        script += f"""set title "{pattern}"
plot ${p} using 1:2 with linespoints lw 2 pt 7 title "PLCA goodput", ${c} using 1:2 with linespoints lw 2 pt 5 title "CSMA/CD goodput", ${p} using 1:4 with lines dt 2 title "PLCA a-priori limit", ${p} using 1:3 axes x1y2 with linespoints dt 3 pt 6 title "PLCA Jain", ${c} using 1:3 axes x1y2 with linespoints dt 3 pt 4 title "CSMA/CD Jain"
"""
    script += "unset multiplot"
    eb.gnuplot(script, png, blocks)


if __name__ == "__main__":
    main()
