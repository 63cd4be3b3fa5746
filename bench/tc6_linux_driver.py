"""tc6-irq-policy --driver linux: seed 000's download with Linux's own driver.

Seed 000 measured Linux's oa_tc6 on a board; here the same download runs on
the same LAN8650 model with ethdrv's driver and with Linux's (oa_tc6 +
lan865x + microchip_t1s, unmodified, through the GPL plugin,
docs/linux-driver.md), each as the client t1s0 of a 2-node segment whose
server t1s1 runs ethdrv's driver. Then the same downloads with RX overflows
injected into the client's chip (emu.periodic=rx_overflow:MS), to measure
what each driver loses after one: the frames the chip delivered whole over
SPI that the driver neither handed up nor counted.
"""
import os
import statistics

import ethdrv_bench as eb

CLIENT, SERVER = 0, 1
DRIVERS = {"ethdrv": [], "linux": ["--linux-nodes", str(CLIENT)]}


def one(seg, http, sha, tmp, size, fault_ms):
    """One download by the client; its figures (deltas of the counters)."""
    cl = eb.netns(CLIENT)
    seg.set(cl, f"emu.periodic=rx_overflow:{fault_ms}" if fault_ms else "emu.periodic=off")
    n0, s0 = eb.stats(cl), seg.snapshot()
    got = os.path.join(tmp, "got")
    r = eb.download(cl, http.url("blob"), got)
    n1, s1 = eb.stats(cl), seg.snapshot()
    seg.set(cl, "emu.periodic=off")
    if r["bytes"] != size or eb.sha256_file(got) != sha:
        raise RuntimeError(f"download corrupt or short ({r['bytes']} B)")
    d = eb.delta(n1, n0)
    lim = eb.limits(s0, s1, r["bytes"], r["bytes"] / r["speed"], [(SERVER, CLIENT)])
    t0, t1 = s0["nodes"][SERVER]["tcp"], s1["nodes"][SERVER]["tcp"]
    linux = "linux_rx_packets" in n1
    counted_drop = d["linux_rx_dropped"] if linux else d["rx_dropped"] + d["rx_over_errors"]
    handed_up = d["rx_packets"]  # frames the driver handed up (netdev rx_packets)
    delivered = d["emu_rx_delivered"]  # frames whose last chunk crossed the SPI bus
    cut = d["emu_rx_cut"]  # frames the host saw begin and never end (the chip dropped them)
    intact_lost = delivered - handed_up  # crossed the bus whole, never reached the stack
    return {"kib": r["speed"] / 1024, "apriori_kib": lim["apriori"]["limit"] / 1024,
            "pct": lim["pct_apriori"], "overflows": d["emu_faults"],
            "chip_dropped": d["emu_rx_overflow_buffered"] + d["emu_rx_dropped_overflow"],
            "delivered": delivered, "cut": cut, "handed_up": handed_up,
            "counted": counted_drop, "intact_lost": intact_lost,
            # the driver's drops beyond the cut frames it had to drop cover intact ones
            "uncounted": max(intact_lost - max(counted_drop - cut, 0), 0),
            "retrans": t1["Tcp.RetransSegs"] - t0["Tcp.RetransSegs"]}


def rows(res):
    out = []
    for (drv, fault_ms), runs in res.items():
        k = [r["kib"] for r in runs]
        tot = lambda key: sum(r[key] for r in runs)  # noqa: E731
        out.append([drv, fault_ms or "none", len(runs), f"{min(k):.1f}",
                    f"{statistics.mean(k):.1f}", f"{max(k):.1f}",
                    f"{statistics.mean(r['pct'] for r in runs):.1f}", tot("overflows"),
                    tot("chip_dropped"), tot("delivered"), tot("cut"), tot("handed_up"),
                    tot("counted"), tot("intact_lost"), tot("uncounted"),
                    f"{tot('uncounted') / max(tot('overflows'), 1):.2f}", tot("retrans")])
    return out


def compare(a, tmp, sha):
    """Run both drivers; the markdown body of the result."""
    res = {}
    load0 = os.getloadavg()
    dev = f"emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns}"
    bar = eb.Progress(len(DRIVERS) * (a.runs + a.overflow_runs), "tc6-irq-policy --driver")
    for drv, args in DRIVERS.items():
        with eb.Segment(2, device=dev, args=args) as seg, \
                eb.HttpServer(eb.netns(SERVER), eb.addr(SERVER), tmp, eb.netns(CLIENT)) as http:
            for fault_ms in (0, a.fault_ms):
                n = a.runs if not fault_ms else a.overflow_runs
                for i in range(n):
                    r = one(seg, http, sha, tmp, a.size, fault_ms)
                    res.setdefault((drv, fault_ms), []).append(r)
                    bar.step(f"{drv} overflow every {fault_ms or '-'} ms run {i + 1}: "
                             f"{r['kib']:.0f} KiB/s, {r['uncounted']} uncounted")
    bar.close()
    load1 = os.getloadavg()
    limits = [r["apriori_kib"] for rs in res.values() for r in rs]
    head = ["client driver", "RX overflow injected every ms", "runs", "min KiB/s",
            "avg KiB/s", "max KiB/s", "% of a-priori limit", "overflows injected",
            "frames the chip dropped", "delivered whole over SPI", "cut (seen partly)",
            "handed up", "counted as dropped", "intact not handed up", "lost uncounted",
            "uncounted per overflow",
            "TCP retransmits"]
    return f"""Setup: `ethdrv segment --nodes 2 --device {dev}` with the client t1s0 run by
ethdrv's driver, then `... --linux-nodes 0` with t1s0 run by Linux's oa_tc6 + lan865x +
microchip_t1s (docs/linux-driver.md),
on the same model and segment; the server t1s1 runs ethdrv's driver in both. {a.runs}
downloads of {a.size} bytes per driver (sha256 checked), then {a.overflow_runs} with an RX
overflow injected into the client's chip every {a.fault_ms} ms (`emu.periodic=rx_overflow:{a.fault_ms}`:
the frame at the head of the RX buffer is dropped and STATUS0.RXBOE set). ethdrv's driver
runs with its defaults (policy 1). Machine: shared with other jobs; load average
{load0[0]:.2f} at the start, {load1[0]:.2f} at the end: not a quiet-machine figure.

Columns: delivered whole over SPI = frames whose last chunk the chip sent to the host
(`emu_rx_delivered`); cut = frames the host saw begin whose rest the chip dropped
(`emu_rx_cut`), which a driver must drop; handed up = the driver's netdev rx_packets;
counted as dropped = the driver's own count (Linux: net_device rx_dropped; ethdrv:
rx_dropped + rx_over_errors); intact not handed up = delivered - handed up; lost
uncounted = intact not handed up - (counted - cut), at least 0: intact frames the driver
received and threw away without counting them (its counted drops beyond the cut frames
are taken to cover intact ones). A-priori limits of the runs:
{min(limits):.1f} .. {max(limits):.1f} KiB/s (bench/ethdrv_limits.py).

{eb.md_table(head, rows(res))}"""
