"""Ping RTT p50/p99 across a 2-node segment against the computed minimum."""
import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402

NAME = "tc6-latency"
HDRS = 14 + 20 + 8  # Ethernet + IPv4 + ICMP headers
FCS, PREAMBLE, MIN_FRAME = 4, 8, 64
CHUNK_PAYLOAD, CHUNK_WORD = 64, 4  # TC6 data chunk: 64 bytes + header/footer word
BIT_NS = 100  # 10 Mb/s

FORMULA = """\
For an ICMP echo of P payload bytes the frame is L = max(14 + 20 + 8 + P + 4, 64)
bytes (Ethernet, IPv4, ICMP headers, FCS). One way, store and forward at every step:
    spi    = setup_ns + ceil(L / 64) * 68 * 8 / spi_hz    (one data transfer of
             ceil(L/64) chunks, 64 payload bytes + 4 header/footer bytes each)
    wire   = (8 + L) * 8 * 100 ns                         (preamble+SFD and frame)
    plca   = (beacon_bt + node_cnt * to_tmr) / 2 * 100 ns  (mean wait for the node's
             transmit opportunity on an idle segment: half a PLCA cycle)
    one_way = spi (sender writes the frame) + plca + wire + spi (receiver reads it)
    rtt_min = 2 * one_way                                 (the reply has the same size)
Everything else in the measured RTT is host time: IRQ to poll, the driver's extra
transfers (e.g. one chunk to learn RCA before reading the rest), TAP and kernel stack.
One model effect goes the other way: the model holds the driver only when its bus
clock runs more than slack_ns (200 us, lan865x_emu default) ahead of real time
(docs/design.md §4), so an SPI transfer may end up to that much earlier in real time
than on a real bus, and a measured RTT can beat rtt_min by up to about 2 * 200 us
when the frames are long (many chunks per transfer)."""


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--sizes", default="64,1400", help="ping payload sizes (64,1400)")
    p.add_argument("--count", type=int, default=500, help="pings per size (500)")
    p.add_argument("--interval", type=float, default=0.01, help="ping interval, s (0.01)")
    p.add_argument("--spi-hz", type=int, default=25000000, help="SPI clock (25 MHz)")
    p.add_argument("--spi-setup-ns", type=int, default=1000, help="per-transfer setup (1000)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    return p.parse_args()


def minimum(payload, a, beacon_bt, to_tmr, nodes):
    """The computed minimum RTT (us) and its parts (FORMULA)."""
    frame = max(HDRS + payload + FCS, MIN_FRAME)
    chunks = math.ceil(frame / CHUNK_PAYLOAD)
    spi = a.spi_setup_ns + chunks * (CHUNK_PAYLOAD + CHUNK_WORD) * 8 * 1e9 / a.spi_hz
    wire = (PREAMBLE + frame) * 8 * BIT_NS
    plca = (beacon_bt + nodes * to_tmr) / 2 * BIT_NS
    one_way = 2 * spi + plca + wire
    return {"frame": frame, "chunks": chunks, "spi_us": spi / 1000, "wire_us": wire / 1000,
            "plca_us": plca / 1000, "rtt_us": 2 * one_way / 1000}


def ping(payload, a, bar):
    """RTTs (us) of COUNT pings t1s0 -> t1s1 with PAYLOAD bytes."""
    r = eb.run_in(eb.netns(0), ["ping", "-n", "-c", str(a.count), "-i", str(a.interval),
                                "-s", str(payload), "-W", "2", eb.addr(1)], check=False)
    rtts = [float(x) * 1000 for x in re.findall(r"time=([0-9.]+) ms", r.stdout)]
    bar.step(f"{payload} B: {len(rtts)}/{a.count} replies")
    return rtts


def main():
    a = parse()
    sizes = [int(x) for x in a.sizes.split(",")]
    dev = f"emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns}"
    rows, data, mins = [], {}, {}
    with eb.Segment(2, device=dev) as seg:
        beacon_bt, to_tmr = seg.beacon_bt(), seg.to_tmr()
        eb.run_in(eb.netns(0), ["ping", "-c", "3", "-i", "0.2", eb.addr(1)])  # ARP, warm-up
        bar = eb.Progress(len(sizes), NAME)
        for p in sizes:
            s0, n0 = eb.stats("segment"), eb.stats(eb.netns(0))
            rtts = ping(p, a, bar)
            s1, n1 = eb.stats("segment"), eb.stats(eb.netns(0))
            m = minimum(p, a, beacon_bt, to_tmr, seg.nodes)
            d = eb.delta(n1, n0)
            late = eb.hist_percentile(eb.hist_delta(s1["lateness_ns"], s0["lateness_ns"]), 99)
            p50, p99 = eb.percentile(rtts, 50), eb.percentile(rtts, 99)
            rows.append([p, m["frame"], m["chunks"], f"{m['spi_us']:.1f}", f"{m['wire_us']:.1f}",
                         f"{m['plca_us']:.1f}", f"{m['rtt_us']:.0f}", f"{min(rtts):.0f}",
                         f"{p50:.0f}", f"{p99:.0f}", f"{p50 - m['rtt_us']:.0f}",
                         f"{d['spi_transfers'] / max(d['rx_packets'] + d['tx_packets'], 1):.2f}",
                         f"{late / 1000:.0f}", f"{len(rtts)}/{a.count}"])
            data[p], mins[p] = rtts, m["rtt_us"]
        bar.close()
    head = ["payload B", "frame B", "chunks", "SPI us (one transfer)", "wire us", "PLCA wait us",
            "computed min RTT us", "min RTT us", "p50 us", "p99 us", "p50 - computed us",
            "SPI transfers/frame (t1s0)", "lateness p99 us", "replies"]
    body = f"""Setup: `ethdrv segment --nodes 2 --device {dev}`; from t1s0,
`ping -n -c {a.count} -i {a.interval} -s PAYLOAD 169.254.10.2` (after 3 warm-up pings).
RTTs are ping's per-reply times; p50/p99 interpolated. Lateness p99: the medium's
delivery lateness during the pings (emulation artifact indicator).

{eb.md_table(head, rows)}
## The computed minimum

```
{FORMULA}
```
with spi_hz = {a.spi_hz}, setup_ns = {a.spi_setup_ns}, beacon_bt = {beacon_bt},
to_tmr = {to_tmr}, node_cnt = 2.

![plot]({NAME}.png)
"""
    out = eb.write_result(NAME, "tc6-latency: ping RTT against the computed minimum", body,
                          a.results)
    plot(data, mins, str(out.with_suffix(".png")))
    print(out.read_text())


def plot(data, mins, png):
    blocks, plots = {}, []
    for i, (p, rtts) in enumerate(data.items()):
        v = sorted(rtts)
        blocks[f"d{i}"] = "\n".join(f"{x:.1f} {(j + 1) / len(v):.4f}" for j, x in enumerate(v))
        plots.append(f"""set title "payload {p} B"
set arrow 1 from {mins[p]:.1f}, graph 0 to {mins[p]:.1f}, graph 1 nohead lw 2 dt 2 lc rgb "red"
set label 1 "computed min {mins[p]:.0f} us" at {mins[p]:.1f}, graph 0.5 left offset 0.5,0
set xrange [{0.9 * mins[p]:.0f}:{max(v[int(0.995 * (len(v) - 1))], mins[p]) * 1.05:.0f}]
plot $d{i} using 1:2 with steps lw 2 title "RTT CDF (99.5 % shown)"
""")
    script = f"""
set multiplot layout 1,{len(data)} title "tc6-latency: ping RTT, 2-node PLCA segment, LAN8650 model"
set grid
set xlabel "RTT (us)"
set ylabel "fraction of pings"
set yrange [0:1]
set key bottom right
{''.join(plots)}unset multiplot"""
    eb.gnuplot(script, png, blocks)


if __name__ == "__main__":
    main()
