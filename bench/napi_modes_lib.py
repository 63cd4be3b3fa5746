"""napi_modes_lib: the arithmetic and the tables of bench/napi-modes.py.

No root, no link: tests/system/test-bench-lib.sh checks every function here
against values derived by hand. docs/napi.md §11 explains the columns.

- tcp_limit(): the TCP goodput limit of one full-duplex line (docs/enet.md
  §12): MSS bytes per full-size frame on the wire (preamble+SFD, the frame,
  the FCS, the gap); ACKs go the other way and cost this direction nothing.
- udp_limit(): frames per second and UDP goodput of back-to-back datagrams.
- iperf_result(), ping_percentiles(): the tools' outputs.
- tcp_row(), udp_row(): one run's counters (deltas of `ethdrv stats`) as the
  figures of a table row; tcp_table(), udp_table(), collapse_table(),
  targets(): the markdown.
- readme_update(): the main table between the markers of docs/benchmarks.md.
"""

import json
import re

import ethdrv_bench as eb

ETH_HDR, FCS, PREAMBLE, IFG, ETH_ZLEN = 14, 4, 8, 12, 60
IP_HDR, UDP_HDR, TCP_HDR, TCP_TS_OPT = 20, 8, 20, 12
MB = 1e6  # CPU and wakeups per MB: 10^6 bytes of TCP payload


def wire_bytes(frame, preamble=PREAMBLE, ifg=IFG):
    """Bytes of wire time of a frame of FRAME bytes without FCS (padded to 60)."""
    return preamble + max(frame, ETH_ZLEN) + FCS + ifg


def tcp_limit(speed_mbps, mtu=1500, timestamps=True, preamble=PREAMBLE, ifg=IFG):
    """TCP goodput limit (Mb/s) of one direction: MSS per full-size frame's wire time."""
    mss = mtu - IP_HDR - TCP_HDR - (TCP_TS_OPT if timestamps else 0)
    wire = wire_bytes(ETH_HDR + mtu, preamble, ifg)
    return {"mss": mss, "wire": wire, "mbps": speed_mbps * mss / wire}


def udp_limit(speed_mbps, payload, preamble=PREAMBLE, ifg=IFG):
    """Back-to-back UDP datagrams of PAYLOAD bytes: frames/s and payload Mb/s."""
    wire = wire_bytes(ETH_HDR + IP_HDR + UDP_HDR + payload, preamble, ifg)
    pps = speed_mbps * 1e6 / (8 * wire)
    return {"wire": wire, "pps": pps, "mbps": pps * payload * 8 / 1e6}


def iperf_result(text):
    """iperf3 -J output of the client: payload bytes received, seconds, retransmits."""
    j = json.loads(text)
    if "error" in j:
        raise RuntimeError(f"iperf3: {j['error']}")
    end = j["end"]
    recv, sent = end["sum_received"], end.get("sum_sent", {})
    return {"bytes": int(recv["bytes"]), "seconds": float(recv["seconds"]),
            # sent - received: the data at the receiver interval's edges (eb.TOLERANCE_FORMULA)
            "edge": int(sent.get("bytes", recv["bytes"])) - int(recv["bytes"]),
            "retransmits": int(sent.get("retransmits", 0))}


def ping_rtts(text):
    """RTTs (ms) of ping's reply lines."""
    return [float(x) for x in re.findall(r"time=([0-9.]+) ms", text)]


def ping_percentiles(rtts):
    """p50 and p99 (ms) of RTTS, None when no reply came."""
    if not rtts:
        return {"p50": None, "p99": None, "n": 0}
    return {"p50": eb.percentile(rtts, 50), "p99": eb.percentile(rtts, 99), "n": len(rtts)}


def _node_cpu_ns(d):
    """All of the node's threads (eb.node_threads_cpu_ns): loop, pollers, softirq
    loops and their ksoftirqd threads, and the io_uring workers of any of them."""
    return eb.node_threads_cpu_ns(d)


def _node_wakeups(d):
    """Loop wakeups plus every poller thread's wakeups (napi_*_thread_wakeups)."""
    return d.get("node_loop_wakeups", 0) + sum(v for k, v in d.items()
                                               if k.startswith("napi_") and
                                               k.endswith("_thread_wakeups"))


def steady_state(tx, link, seconds, speed_mbps, port=0):
    """The sender's line in a window of SECONDS in the middle of a transfer (TX,
    LINK: counter deltas over it): the share of it its MAC waited with no frame
    ready (emu_tx_idle_ns) and the share its direction of the wire was busy
    (wire bytes of port PORT's frames, preamble and gap included)."""
    if not seconds:
        return {"tx_idle_pct": None, "wire_pct": None}
    return {"tx_idle_pct": 100 * tx.get("emu_tx_idle_ns", 0) / 1e9 / seconds,
            "wire_pct": 100 * link.get(f"port{port}_bytes", 0) * 8 / (speed_mbps * 1e6) / seconds}


def tcp_row(res, tx, rx, link, limit_mbps, steady=None):
    """Figures of one TCP run: RES (iperf_result + ping), TX/RX/LINK the deltas of the
    sending and receiving nodes' and the line's counters, LIMIT_MBPS the line's
    TCP limit, STEADY a steady_state() of the run."""
    mb = res["bytes"] / MB
    mbps = res["bytes"] * 8 / res["seconds"] / 1e6 if res["seconds"] else 0.0
    tol = eb.tolerance(res.get("edge", 0), limit_mbps * 1e6 / 8, res["seconds"])
    return {"mbps": mbps, "pct": 100 * mbps / limit_mbps if limit_mbps else 0.0,
            "tol": 100 * tol, "verdict": eb.verdict(mbps, limit_mbps, tol),
            "tx_cpu_ms_mb": _node_cpu_ns(tx) / 1e6 / mb if mb else 0.0,
            "rx_cpu_ms_mb": _node_cpu_ns(rx) / 1e6 / mb if mb else 0.0,
            # the model's events applied by register accesses, in either node's threads
            "model_ms_mb": link.get("catchup_cpu_ns", 0) / 1e6 / mb if mb else 0.0,
            "irqs_mb": tx.get("fec_irqs", 0) / mb if mb else 0.0,
            "wakeups_mb": _node_wakeups(tx) / mb if mb else 0.0,
            "ring_full": tx.get("fec_tx_ring_full", 0),
            **(steady or {"tx_idle_pct": None, "wire_pct": None}),
            "retransmits": res["retransmits"],
            "rtt_p50": res["ping"]["p50"], "rtt_p99": res["ping"]["p99"]}


# Where a flood's frames were lost, in the order a frame meets them.
DROP_PLACES = ("ring", "driver", "tap", "kernel")


def udp_drops(node, ns):
    """Drops of the receiving node by place: NODE its counter deltas, NS the deltas
    of its namespace's counters (Udp.*, the TAP's rx_dropped)."""
    return {
        # the MAC had no empty RX BD (IEEE_R_DROP, the driver's rx_missed)
        "ring": node.get("fec_rx_missed", 0),
        # written to memory but not passed on by the driver
        "driver": node.get("rx_errors", 0) + node.get("fec_rx_alloc_failed", 0),
        # the TAP write failed (queue full, no buffer)
        "tap": node.get("node_tap_tx_dropped", 0),
        # the kernel took the frame and dropped it before the socket: the
        # netdev's rx_dropped, IP discards, UDP errors other than a full
        # socket buffer (Udp.InErrors counts Udp.RcvbufErrors too), no port
        "kernel": ns.get("rx_dropped", 0) + ns.get("Ip.InDiscards", 0) +
        ns.get("Udp.InErrors", 0) - ns.get("Udp.RcvbufErrors", 0) + ns.get("Udp.NoPorts", 0),
    }


def lab_clock(node, link, irq_late, irqs="fec_irqs"):
    """The lab's clock during a run (docs/design.md §5b): interrupts per frame the
    receiving MAC wrote to memory (NODE: the driver's IRQ counter IRQS over
    rx_packets plus rx_errors), the interrupt-assertion lateness (IRQ_LATE: hist_delta() buckets
    of the line's irq_lateness_ns, us; None where the link has no such
    histogram) and the slip of the line (LINK deltas: slips, slip_ns)."""
    frames = node.get("rx_packets", 0) + node.get("rx_errors", 0)
    lat = {p: eb.hist_percentile(irq_late, p) / 1e3 if irq_late else None for p in (50, 99, 100)}
    return {"irqs_frame": node.get(irqs, 0) / frames if frames else None,
            "late_p50_us": lat[50], "late_p99_us": lat[99], "late_max_us": lat[100],
            "slips": link.get("slips"), "slip_ms": link["slip_ns"] / 1e6 if "slip_ns" in link
            else None}


def udp_row(sink, offered, seconds, node, ns, link, payload, irq_late=None):
    """Figures of one flood: SINK the udp-sink's JSON, OFFERED the frames the
    generator put on the wire in SECONDS, NODE/NS/LINK the deltas of the
    receiver's, its namespace's and the line's counters, IRQ_LATE the line's
    interrupt lateness buckets (lab_clock())."""
    got = sink["datagrams"]
    model_ns = link.get("catchup_cpu_ns", 0)
    cpu_ns = _node_cpu_ns(node) + sink["cpu_ns"]

    def per_pkt(v):
        return v / got if got else None
    return {"offered_pps": offered / seconds if seconds else 0.0,
            "pps": got / seconds if seconds else 0.0,
            "mbps": got * payload * 8 / seconds / 1e6 if seconds else 0.0,
            "delivered_pct": 100 * got / offered if offered else 0.0,
            "drops": udp_drops(node, ns), "socket_drops": sink["socket_drops"],
            "lost": max(offered - got, 0),
            # the node's threads without the model's events they applied
            "driver_us_pkt": per_pkt((_node_cpu_ns(node) - model_ns) / 1e3),
            "model_us_pkt": per_pkt(model_ns / 1e3),
            "sink_us_pkt": per_pkt(sink["cpu_ns"] / 1e3),
            "cpu_us_pkt": per_pkt(cpu_ns / 1e3),
            "node_wakeups_pkt": per_pkt(_node_wakeups(node)),
            "sink_wakeups_pkt": per_pkt(sink["voluntary_switches"]),
            "irqs_pkt": per_pkt(node.get("fec_irqs", 0)),
            "engine_pct": 100 * link.get("engine_cpu_ns", 0) / 1e9 / seconds if seconds else 0.0,
            # CPUs the receiver would need for the offered load at this cost
            "cpus_needed": cpu_ns / 1e9 / seconds * offered / got if got and seconds else None,
            **lab_clock(node, link, irq_late)}


def fmt(v, spec=".1f"):
    """A number for a table, '-' for None."""
    return "-" if v is None else format(v, spec)


TCP_HEAD = ["line Mb/s", "pollers", "BQL", "fq", "CPUs", "goodput Mb/s", "limit Mb/s",
            "% of limit", "tolerance %", "verdict", "tx node CPU ms/MB", "rx node CPU ms/MB",
            "model in node threads ms/MB", "IRQs/MB (tx node)",
            "wakeups/MB (tx node)", "TX ring-full stops", "wire busy %", "tx MAC idle %",
            "TCP retransmits",
            "ping p50 ms", "ping p99 ms"] + ["ring losses driver/lab/steal", "VM steal ms", "load"]


def tcp_table(rows):
    """ROWS: [(speed, split, bql, cpus, limit_mbps, row)] as markdown."""
    return eb.md_table(TCP_HEAD, [
        [s, "split" if split else "combined", "on" if bql else "off", r.get("fq", "off"), cpus,
         fmt(r["mbps"]), fmt(lim), fmt(r["pct"], ".2f"), fmt(r["tol"], ".4f"), r["verdict"],
         fmt(r["tx_cpu_ms_mb"], ".2f"),
         fmt(r["rx_cpu_ms_mb"], ".2f"), fmt(r["model_ms_mb"], ".2f"), fmt(r["irqs_mb"], ".0f"),
         fmt(r["wakeups_mb"], ".0f"),
         r["ring_full"], fmt(r["wire_pct"], ".2f"), fmt(r["tx_idle_pct"], ".2f"), r["retransmits"], fmt(r["rtt_p50"], ".2f"),
         fmt(r["rtt_p99"], ".2f"), *conditions_cells(r)]
        for s, split, bql, cpus, lim, r in rows])


# The lab's clock (lab_clock()): beside every row whose figures depend on it.
LAB_HEAD = ["IRQs/frame", "IRQ lateness p50 us", "p99 us", "max us", "slips", "slip ms"]


UDP_HEAD = ["line Mb/s", "payload B", "CPUs", "mode", "offered kpps", "delivered kpps",
            "goodput Mb/s", "% delivered", "drops ring", "drops driver", "drops TAP",
            "drops kernel", "drops socket", "driver us/pkt", "model in driver us/pkt",
            "sink us/pkt", "node wakeups/pkt", "sink wakeups/pkt", "IRQs/pkt",
            "engine CPU %", "CPUs needed", *LAB_HEAD, "ring losses driver/lab/steal",
            "VM steal ms", "load"]


def lab_cells(r):
    """The LAB_HEAD cells of a row."""
    return [fmt(r["irqs_frame"], ".3f"), fmt(r["late_p50_us"], ".1f"), fmt(r["late_p99_us"], ".1f"),
            fmt(r["late_max_us"], ".1f"), fmt(r["slips"], "d"), fmt(r["slip_ms"], ".2f")]


def udp_table(rows):
    """ROWS: [(speed, payload, cpus, mode, row)] as markdown."""
    return eb.md_table(UDP_HEAD, [
        [s, p, c, m, fmt(r["offered_pps"] / 1e3), fmt(r["pps"] / 1e3), fmt(r["mbps"], ".2f"),
         fmt(r["delivered_pct"]), *(r["drops"][k] for k in DROP_PLACES), r["socket_drops"],
         fmt(r["driver_us_pkt"], ".2f"), fmt(r["model_us_pkt"], ".2f"),
         fmt(r["sink_us_pkt"], ".2f"), fmt(r["node_wakeups_pkt"], ".3f"),
         fmt(r["sink_wakeups_pkt"], ".3f"), fmt(r["irqs_pkt"], ".3f"), fmt(r["engine_pct"], ".0f"),
         fmt(r["cpus_needed"], ".2f"), *lab_cells(r), *conditions_cells(r)]
        for s, p, c, m, r in rows])


IRQ_TARGET, IRQ_TOLERANCE = 1.00, 0.02  # interrupt per packet: interrupts per frame (issue 17)
KEEPS_UP_PCT = 99.0  # the driver keeps up: it delivered this share of the offered frames


def irq_rate_table(rows):
    """ROWS: [(pps, cpus, row)] of the interrupt-per-packet mode at a set offered rate:
    the target 1.00 +- 0.02 interrupts per frame wherever the driver keeps up."""
    out = []
    for pps, cpus, r in rows:
        keeps_up = r["delivered_pct"] >= KEEPS_UP_PCT and not r["drops"]["ring"]
        ipf = r["irqs_frame"]
        if not keeps_up:
            verdict = "n/a (driver behind)"
        elif ipf is not None and abs(ipf - IRQ_TARGET) <= IRQ_TOLERANCE:
            verdict = "met"
        else:
            verdict = "MISSED"
        out.append([pps, cpus, fmt(r["offered_pps"] / 1e3, ".2f"), fmt(r["pps"] / 1e3, ".2f"),
                    fmt(r["delivered_pct"]), r["drops"]["ring"], *lab_cells(r), verdict])
    return eb.md_table(["set pps", "CPUs", "offered kpps", "delivered kpps", "% delivered",
                        "drops ring", *LAB_HEAD, "1.00 +- 0.02"], out)


def conditions_cells(r):
    """A row's ring losses by cause (docs/design.md §4.8), VM steal and load; '-'
    where the run did not record them."""
    c = r.get("causes")
    return [eb.causes_text(c) if c else "-", fmt(r.get("steal_ms"), ".0f"),
            fmt(r.get("load1"), ".2f")]


def wakeup_cost(measured):
    """The CPU one wakeup of an idle loop costs, as bench/wake_cost.c measured it
    in this run (MEASURED: its JSON, or None): {"us": us_per_wakeup, "n": wakeups},
    or None."""
    if not measured or not measured.get("wakeups"):
        return None
    return {"us": measured["us_per_wakeup"], "n": measured["wakeups"]}


def explain(found, cost):
    """One line per collapse row: where the receiver's time per packet goes in the
    interrupt-per-packet mode and in the best mode. The node's wakeups are priced
    at COST (wakeup_cost(): one wakeup of an idle loop, measured in the run; an
    upper bound for a CPU that never idles; None: not priced), and only against
    what that row measured of the node's threads, the driver's CPU per packet: a
    row's wakeups cannot have cost more than its driver's whole CPU. The sink's
    wakeups are not priced (a reader woken by the node on the same CPU is a plain
    switch)."""
    lines = []
    for c in found:
        for label, m, r in (("irq", "irq", c["irq"]), ("best", c["best"], c["best_row"])):
            nw, total, drv = r["node_wakeups_pkt"] or 0, r["cpu_us_pkt"], r["driver_us_pkt"]
            priced = ""
            if cost and drv:
                at_most = min(nw * cost["us"], drv)
                priced = (f" (at {cost['us']:.1f} us each at most {at_most:.2f} us"
                          f"{' (capped: the driver CPU of the row)' if at_most < nw * cost['us'] else ''}"
                          f", {100 * at_most / drv:.0f} % of the driver's {drv:.2f} us)")
            lines.append(
                f"- {c['speed']} Mb/s, {c['payload']} B, {label} ({m}): "
                f"{fmt(total, '.2f')} us of CPU per delivered packet (driver "
                f"{fmt(r['driver_us_pkt'], '.2f')}, model events in the driver's thread "
                f"{fmt(r['model_us_pkt'], '.2f')}, sink {fmt(r['sink_us_pkt'], '.2f')}); "
                f"node wakeups per packet {nw:.3f}{priced}, interrupts per packet "
                f"{fmt(r['irqs_pkt'], '.3f')}, sink wakeups per packet "
                f"{fmt(r['sink_wakeups_pkt'], '.3f')}; the offered "
                f"{r['offered_pps'] / 1e3:.1f} kpps need {fmt(r['cpus_needed'], '.2f')} CPUs")
    return "\n".join(lines) + "\n"


COLLAPSE_PCT = 50.0  # interrupt per packet "collapses" below this % of the offered load


def collapse(rows, irq_mode="irq"):
    """Per (speed, payload) on one CPU: the interrupt-per-packet row, the best other
    mode, their ratio and whether interrupt per packet collapsed (delivered
    under COLLAPSE_PCT % of the offered load)."""
    out = []
    keys = sorted({(s, p) for s, p, c, m, r in rows if c == 1})
    for s, p in keys:
        mine = {m: r for s2, p2, c, m, r in rows if (s2, p2, c) == (s, p, 1)}
        if irq_mode not in mine:
            continue
        base = mine[irq_mode]
        others = [(r["pps"], m) for m, r in mine.items() if m != irq_mode]
        if not others:
            continue
        best_pps, best = max(others)
        out.append({"speed": s, "payload": p, "irq": base, "best": best,
                    "best_row": mine[best],
                    "ratio": best_pps / base["pps"] if base["pps"] else float("inf"),
                    "collapsed": base["delivered_pct"] < COLLAPSE_PCT})
    return out


def collapse_table(found):
    return eb.md_table(
        ["line Mb/s", "payload B", "irq/pkt delivered Mb/s", "% of offered", "collapsed",
         "best mode", "its Mb/s", "ratio", "target (>= 10x where collapsed)"],
        [[c["speed"], c["payload"], fmt(c["irq"]["mbps"], ".2f"),
          fmt(c["irq"]["delivered_pct"]), "yes" if c["collapsed"] else "no", c["best"],
          fmt(c["best_row"]["mbps"], ".2f"), fmt(c["ratio"], ".1f"),
          ("met" if c["ratio"] >= 10 else "MISSED") if c["collapsed"] else "n/a"]
         for c in found])


def tcp_target(rows, speed=1000):
    """The TCP target at SPEED: split pollers >= 99 % of the limit (every split row)
    and better than combined on CPU/MB or wakeups/MB (same BQL, fq and CPUs)."""
    out = []
    for s, split, bql, cpus, lim, r in rows:
        if s != speed or not split:
            continue
        fq = r.get("fq", "off")
        comb = next((r2 for s2, sp2, b2, c2, l2, r2 in rows
                     if (s2, sp2, b2, c2) == (s, False, bql, cpus) and
                     r2.get("fq", "off") == fq), None)
        better = comb is not None and (r["tx_cpu_ms_mb"] < comb["tx_cpu_ms_mb"] or
                                       r["wakeups_mb"] < comb["wakeups_mb"])
        out.append({"bql": bql, "fq": fq, "cpus": cpus, "pct": r["pct"],
                    "rate_ok": r["pct"] >= 99.0, "better": better, "row": r, "combined": comb})
    return out


def tcp_target_table(found):
    return eb.md_table(
        ["BQL", "fq", "CPUs", "split % of limit", ">= 99 %", "split tx CPU ms/MB",
         "combined tx CPU ms/MB", "split wakeups/MB", "combined wakeups/MB",
         "better on CPU or wakeups"],
        [["on" if t["bql"] else "off", t.get("fq", "off"), t["cpus"], fmt(t["pct"], ".2f"),
          "met" if t["rate_ok"] else "MISSED", fmt(t["row"]["tx_cpu_ms_mb"], ".2f"),
          fmt(t["combined"]["tx_cpu_ms_mb"], ".2f") if t["combined"] else "-",
          fmt(t["row"]["wakeups_mb"], ".0f"),
          fmt(t["combined"]["wakeups_mb"], ".0f") if t["combined"] else "-",
          "met" if t["better"] else "MISSED"] for t in found])


MARK_BEGIN, MARK_END = "<!-- napi-modes:begin -->", "<!-- napi-modes:end -->"


def readme_update(text, table):
    """README text with TABLE between the napi-modes markers (ValueError if absent)."""
    a, b = text.find(MARK_BEGIN), text.find(MARK_END)
    if a < 0 or b < a:
        raise ValueError("docs/benchmarks.md has no napi-modes markers")
    return text[:a + len(MARK_BEGIN)] + "\n" + table.rstrip() + "\n" + text[b:]
