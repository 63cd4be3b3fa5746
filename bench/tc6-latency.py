"""Ping RTT p50/p99 across a 2-node segment against the least RTT physics allows."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402

NAME = "tc6-latency"
# Transfer modes of both nodes (oa_tc6 knobs, docs/tc6.md §5.4): row label and knob values.
MODES = {
    "sf": ("store-and-forward", "off", "off"),
    "ct": ("cut-through RX+TX", "on", "on"),
}


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--sizes", default="64,1400", help="ping payload sizes (64,1400)")
    p.add_argument("--count", type=int, default=500, help="pings per size and mode (500)")
    p.add_argument("--interval", type=float, default=0.01, help="ping interval, s (0.01)")
    p.add_argument("--modes", default="sf,ct",
                   help="sf = store-and-forward, ct = RX and TX cut-through (sf,ct)")
    p.add_argument("--spi-hz", type=int, default=25000000, help="SPI clock (25 MHz)")
    p.add_argument("--spi-setup-ns", type=int, default=1000, help="per-transfer setup (1000)")
    p.add_argument("--slack-us", type=int, default=0,
                   help="the model's slack_us (0: no effect before its physical time)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    a = p.parse_args()
    a.modes = [m for m in a.modes.split(",") if m]
    if not a.modes or any(m not in MODES for m in a.modes):
        p.error(f"--modes: use a comma list of {', '.join(MODES)}")
    return a


def set_mode(seg, mode):
    """Both nodes to MODE (knobs of docs/tc6.md §5.4)."""
    _, rx_ct, tx_ct = MODES[mode]
    seg.set_all(f"rx_cut_through={rx_ct}", f"tx_cut_through={tx_ct}")
    # The knobs take effect through a re-initialisation of each node: let it pass.
    eb.run_in(eb.netns(0), ["ping", "-c", "3", "-i", "0.2", "-W", "2", eb.addr(1)], check=False)


def measure(seg, a, mode, payload, bar):
    """One table row: COUNT pings t1s0 -> t1s1 with PAYLOAD bytes in MODE."""
    label = MODES[mode][0]
    s0, n0 = eb.stats("segment"), eb.stats(eb.netns(0))
    rtts = eb.ping_rtts(eb.netns(0), eb.addr(1), payload, a.count, a.interval)
    s1, n1 = eb.stats("segment"), eb.stats(eb.netns(0))
    bar.step(f"{label}, {payload} B: {len(rtts)}/{a.count} replies")
    if not rtts:
        raise RuntimeError(f"{label}, {payload} B: no ping reply")
    m = eb.rtt_bound(payload, a.spi_hz, a.spi_setup_ns, cut_through=mode == "ct")
    d = eb.delta(n1, n0)
    late = eb.hist_percentile(eb.hist_delta(s1["lateness_ns"], s0["lateness_ns"]), 99)
    p50, p99, low = eb.percentile(rtts, 50), eb.percentile(rtts, 99), min(rtts)
    row = [label, payload, m["frame"], m["chunks"], f"{m['spi_us']:.1f}", f"{m['wire_us']:.1f}",
           f"{m['rtt_us']:.0f}", f"{low:.0f}", f"{low - m['rtt_us']:.0f}",
           eb.rtt_verdict(low, m["rtt_us"]), f"{p50:.0f}", f"{p99:.0f}",
           f"{d['spi_transfers'] / max(d['rx_packets'] + d['tx_packets'], 1):.2f}",
           f"{late / 1000:.0f}", f"{len(rtts)}/{a.count}"]
    return row, rtts, m["rtt_us"], low >= m["rtt_us"]


def main():
    a = parse()
    sizes = [int(x) for x in a.sizes.split(",")]
    dev = f"emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns},slack_us={a.slack_us}"
    rows, data, mins, all_ok = [], {}, {}, True
    with eb.Segment(2, device=dev) as seg:
        beacon_bt, to_tmr = seg.beacon_bt(), seg.to_tmr()
        eb.run_in(eb.netns(0), ["ping", "-c", "3", "-i", "0.2", eb.addr(1)])  # ARP, warm-up
        bar = eb.Progress(len(sizes) * len(a.modes), NAME)
        for i, mode in enumerate(a.modes):
            if i or mode != "sf":  # the segment starts in store-and-forward
                set_mode(seg, mode)
            for p in sizes:
                row, rtts, bound, ok = measure(seg, a, mode, p, bar)
                rows.append(row)
                data[(mode, p)] = rtts
                mins[(mode, p)] = bound
                all_ok &= ok
        bar.close()
    head = ["mode", "payload B", "frame B", "chunks", "SPI us (one transfer)", "wire us",
            "computed min RTT us", "min RTT us", "min - computed us", "verdict", "p50 us",
            "p99 us", "SPI transfers/frame (t1s0)", "lateness p99 us", "replies"]
    verdict = ("every minimum RTT is at or above the computed minimum" if all_ok else
               "a minimum RTT is BELOW the computed minimum: an effect was seen before its "
               "physical time")
    body = f"""Setup: `ethdrv segment --nodes 2 --device {dev}`; from t1s0,
`ping -n -c {a.count} -i {a.interval} -s PAYLOAD 169.254.10.2` (after 3 warm-up pings),
once per mode: store-and-forward (the default) and RX + TX cut-through
(`ethdrv set t1sK rx_cut_through=on tx_cut_through=on` on both nodes,
docs/tc6.md §5.4). RTTs are ping's per-reply times; p50/p99 interpolated.
Lateness p99: the medium's delivery lateness during the pings (emulation artifact
indicator).

{eb.md_table(head, rows)}
Verdict: {verdict}.

## The computed minimum

```
{eb.RTT_FORMULA}
```
with spi_hz = {a.spi_hz}, setup_ns = {a.spi_setup_ns}, the model's slack_us =
{a.slack_us}. PLCA: beacon_bt = {beacon_bt}, to_tmr = {to_tmr}, node_cnt = 2. Each
row is judged against the bound of its mode: cut-through overlaps the SPI transfers
with the wire, so its bound is lower, and a cut-through minimum below the
store-and-forward bound is the expected gain, not an early effect.

![plot]({NAME}.png)
"""
    out = eb.write_result(NAME, "tc6-latency: ping RTT against the computed minimum", body,
                          a.results)
    plot(data, mins, str(out.with_suffix(".png")))
    print(out.read_text())
    sys.exit(0 if all_ok else 1)


def plot(data, mins, png):
    blocks, plots, sizes = {}, [], sorted({p for _, p in data})
    for i, p in enumerate(sizes):
        curves = []
        for j, (mode, q) in enumerate(k for k in data if k[1] == p):
            v = sorted(data[(mode, q)])
            blocks[f"d{i}_{j}"] = "\n".join(f"{x:.1f} {(k + 1) / len(v):.4f}"
                                             for k, x in enumerate(v))
            curves.append(f'$d{i}_{j} using 1:2 with steps lw 2 title "{MODES[mode][0]}"')
        top = max(sorted(v)[int(0.995 * (len(v) - 1))] for (m, q), v in data.items() if q == p)
        bounds = {m: b for (m, q), b in mins.items() if q == p}
        marks = "".join(
            f"""set arrow {k + 1} from {b:.1f}, graph 0 to {b:.1f}, graph 1 nohead lw 2 dt 2 \
lc rgb "red"
set label {k + 1} "{m} min {b:.0f} us" at {b:.1f}, graph {0.5 + 0.1 * k:.1f} left offset 0.5,0
""" for k, (m, b) in enumerate(sorted(bounds.items())))
        plots.append(f"""set title "payload {p} B"
unset arrow
unset label
{marks}set xrange [{0.9 * min(bounds.values()):.0f}:{max([top] + list(bounds.values())) * 1.05:.0f}]
plot {", ".join(curves)}
""")
    script = f"""
set multiplot layout 1,{len(sizes)} title "tc6-latency: ping RTT CDF (99.5 % shown), 2-node PLCA segment, LAN8650 model"
set grid
set xlabel "RTT (us)"
set ylabel "fraction of pings"
set yrange [0:1]
set key bottom right
{''.join(plots)}unset multiplot"""
    eb.gnuplot(script, png, blocks)


if __name__ == "__main__":
    main()
