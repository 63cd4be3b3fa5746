"""tc6-irq-policy --driver linux: seed 000's download with Linux's own driver.

Seed 000 measured Linux's oa_tc6 on a board; here the same download runs on
the same LAN8650 model with ethdrv's driver and with Linux's (oa_tc6 +
lan865x + microchip_t1s, unmodified, through the GPL plugin,
docs/linux-driver.md), each as the client t1s0 of a 2-node segment whose
server t1s1 runs ethdrv's driver. Then the same downloads with the client's
host late to service IRQ_N (irq_delay_us, for both drivers), so that the
chip's RX buffer overflows while intact frames wait in it, to measure what
each driver loses after an overflow: the frames the chip delivered whole
over SPI that the driver neither handed up nor counted. --fault-ms adds runs
with an RX overflow injected every so many ms instead.
"""
import os
import statistics
import subprocess

import ethdrv_bench as eb

CLIENT, SERVER = 0, 1
DRIVERS = {"ethdrv": [], "linux": ["--linux-nodes", str(CLIENT)]}
TIMEOUT_S = 120  # a download this late has stalled (10 MiB take about 10 s)


def one(seg, http, sha, tmp, size, knobs):
    """One download by the client with KNOBS set; its figures (counter deltas)."""
    cl = eb.netns(CLIENT)
    seg.set(cl, *knobs)
    n0, s0 = eb.stats(cl), seg.snapshot()
    got = os.path.join(tmp, "got")
    try:
        r = eb.download(cl, http.url("blob"), got, timeout=TIMEOUT_S)
    except (subprocess.SubprocessError, RuntimeError, ValueError):
        r = None
    n1, s1 = eb.stats(cl), seg.snapshot()
    seg.set(cl, "irq_delay_us=0", "emu.periodic=off")
    d = eb.delta(n1, n0)
    linux = "linux_rx_packets" in n1
    counted = d["linux_rx_dropped"] if linux else d["rx_dropped"] + d["rx_over_errors"]
    delivered = d["emu_rx_delivered"]  # frames whose last chunk crossed the SPI bus
    cut = d["emu_rx_cut"]  # frames the host saw begin and never end (the chip dropped them)
    intact_lost = delivered - d["rx_packets"]  # crossed the bus whole, never reached the stack
    out = {"stalled": r is None or r["bytes"] != size or eb.sha256_file(got) != sha,
           "chip_dropped": d["emu_rx_overflow_buffered"] + d["emu_rx_dropped_overflow"],
           "delivered": delivered, "cut": cut, "handed_up": d["rx_packets"],
           "counted": counted, "intact_lost": intact_lost,
           # the driver's drops beyond the cut frames it had to drop cover intact ones
           "uncounted": max(intact_lost - max(counted - cut, 0), 0),
           "retrans": (s1["nodes"][SERVER]["tcp"]["Tcp.RetransSegs"] -
                       s0["nodes"][SERVER]["tcp"]["Tcp.RetransSegs"])}
    if not out["stalled"]:
        lim = eb.limits(s0, s1, r["bytes"], r["bytes"] / r["speed"], [(SERVER, CLIENT)])
        out.update(kib=r["speed"] / 1024, apriori_kib=lim["apriori"]["limit"] / 1024,
                   pct=lim["pct_apriori"])
    return out


def rows(res):
    out = []
    for (drv, cond), runs in res.items():
        ok = [r for r in runs if not r["stalled"]]
        k = [r["kib"] for r in ok] or [float("nan")]
        tot = lambda key: sum(r[key] for r in runs)  # noqa: E731
        out.append([drv, cond, len(runs), len(runs) - len(ok), f"{min(k):.1f}",
                    f"{statistics.mean(k):.1f}", f"{max(k):.1f}",
                    f"{statistics.mean(r['pct'] for r in ok):.1f}" if ok else "-",
                    tot("chip_dropped"), tot("delivered"), tot("cut"), tot("handed_up"),
                    tot("counted"), tot("intact_lost"), tot("uncounted"), tot("retrans")])
    return out


def compare(a, tmp, sha):
    """Run both drivers; the markdown body of the result."""
    delay = a.overflow_delay_us if a.overflow_delay_us is not None else 3000
    conds = [("none", a.runs, ["irq_delay_us=0"]),
             (f"irq_delay_us={delay}", a.overflow_runs, [f"irq_delay_us={delay}"])]
    if a.fault_ms:
        conds.append((f"rx_overflow every {a.fault_ms} ms", a.overflow_runs,
                      [f"emu.periodic=rx_overflow:{a.fault_ms}"]))
    res = {}
    load0 = os.getloadavg()
    dev = f"emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns}"
    bar = eb.Progress(len(DRIVERS) * sum(n for _, n, _ in conds), "tc6-irq-policy --driver")
    for drv, args in DRIVERS.items():
        with eb.Segment(2, device=dev, args=args) as seg, \
                eb.HttpServer(eb.netns(SERVER), eb.addr(SERVER), tmp, eb.netns(CLIENT)) as http:
            for cond, n, knobs in conds:
                for i in range(n):
                    r = one(seg, http, sha, tmp, a.size, knobs)
                    res.setdefault((drv, cond), []).append(r)
                    bar.step(f"{drv} {cond} run {i + 1}: " +
                             ("STALLED" if r["stalled"] else f"{r['kib']:.0f} KiB/s") +
                             f", {r['uncounted']} uncounted")
    bar.close()
    load1 = os.getloadavg()
    limits = [r["apriori_kib"] for rs in res.values() for r in rs if not r["stalled"]]
    head = ["client driver", "condition", "runs", "stalled", "min KiB/s", "avg KiB/s",
            "max KiB/s", "% of a-priori limit", "frames the chip dropped",
            "delivered whole over SPI", "cut (seen partly)", "handed up", "counted as dropped",
            "intact not handed up", "lost uncounted", "TCP retransmits"]
    return f"""Setup: `ethdrv segment --nodes 2 --device {dev}` with the client t1s0 run by
ethdrv's driver, then `... --linux-nodes 0` with t1s0 run by Linux's oa_tc6 + lan865x +
microchip_t1s (docs/linux-driver.md), on the same model and segment; the server t1s1 runs
ethdrv's driver in both. {a.runs} downloads of {a.size} bytes per driver (sha256 checked),
then {a.overflow_runs} with the client's host late to service IRQ_N by {delay} us
(`irq_delay_us`: ethdrv's driver sleeps before a service episode that starts with IRQ_N
asserted; for Linux's, kshim's IRQ thread sleeps before the handler each time the line
fires), so that the chip's RX buffer (64 chunks, about 3 full frames) overflows with intact
frames in it{f", and {a.overflow_runs} with an RX overflow injected every {a.fault_ms} ms" if a.fault_ms else ""}.
A download not done in {TIMEOUT_S} s counts as stalled. ethdrv's driver runs with its
defaults (policy 1). Machine: shared with other jobs; load average {load0[0]:.2f} at the
start, {load1[0]:.2f} at the end: not a quiet-machine figure.

Columns: delivered whole over SPI = frames whose last chunk the chip sent to the host
(`emu_rx_delivered`); cut = frames the host saw begin whose rest the chip dropped
(`emu_rx_cut`), which a driver must drop; handed up = the driver's netdev rx_packets;
counted as dropped = the driver's own count (Linux: net_device rx_dropped; ethdrv:
rx_dropped + rx_over_errors); intact not handed up = delivered - handed up; lost
uncounted = intact not handed up - (counted - cut), at least 0: intact frames the driver
received and threw away without counting them (its counted drops beyond the cut frames
are taken to cover intact ones). Totals over the runs. A-priori limits of the runs:
{min(limits, default=0):.1f} .. {max(limits, default=0):.1f} KiB/s (bench/ethdrv_limits.py).

{eb.md_table(head, rows(res))}"""
