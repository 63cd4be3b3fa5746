"""faults: a download across a 2-node segment under each injected fault.

For every fault (SPI bit errors on MOSI and MISO at 1e-6, 1e-5, 1e-4; RX
overflow storms; loss of frame; spontaneous MAC-PHY resets once a second) a
fresh segment carries a curl download of a random file from python3 -m
http.server (t1s0 serves, t1s1 fetches) with the fault active on both nodes
(`ethdrv set t1sK emu.*`, see `ethdrv set --help`). Each run reports whether
the sha256 matched, the throughput against the a-priori goodput limit of its
MTU and the wire utilisation (ethdrv_bench.limits()), the recoveries and
their stall time per event (the driver's recovery_stall_ns histogram: p50 is
a bucket bound, max exact), the frames lost by reason, and whether every frame is accounted for
(bench/ethdrv_accounting.py: sent = received by the peer + drops by reason,
per node and per hop). The kernel's checksum error counters of both
namespaces must stay 0: no corrupted frame was delivered.

The MTU of both TAPs is what a link engineer picks for the bit error rate:
the largest MTU up to 1500 at which a full-size frame crosses the SPI link
intact with probability >= --min-survival (default 0.85; MTU 1500 has 0.88
at 1e-5). That is 1500 for every fault but BER 1e-4, where a 1514-byte frame
survives only 27 % of the time and TCP collapses, so the 1e-4 rows run at a
smaller MTU, and a `NAME@1500` row shows what MTU 1500 gives there (it is
not expected to finish; what it must show is a correct prefix, no corrupted
packet and balanced accounting).

Usage: ethdrv bench faults [--short] [--size BYTES] [--max-time S]
                           [--limit-time S] [--min-survival P]
                           [--only NAME[,NAME...]] [--results DIR] [--no-write]
  --short   the CI variant: 2 MB, MOSI/MISO 1e-5, overflow storm, loss of
            frame, resets, config upsets (tests/system/test-faults-short.sh)
Exit status 1 if a download did not complete or differs, a packet arrived
corrupted, or the accounting does not balance (for the `@1500` rows: if the
part downloaded differs from the file).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_accounting as acct  # noqa: E402
import ethdrv_bench as eb  # noqa: E402

# name, what is injected, knobs on both nodes (off-knobs restore a clean segment)
FAULTS = [
    ("none", "no fault (reference)", []),
    ("mosi-1e-6", "SPI bit errors host->chip, BER 1e-6", ["emu.mosi-ber=1e-6"]),
    ("mosi-1e-5", "SPI bit errors host->chip, BER 1e-5", ["emu.mosi-ber=1e-5"]),
    ("mosi-1e-4", "SPI bit errors host->chip, BER 1e-4", ["emu.mosi-ber=1e-4"]),
    ("miso-1e-6", "SPI bit errors chip->host, BER 1e-6", ["emu.miso-ber=1e-6"]),
    ("miso-1e-5", "SPI bit errors chip->host, BER 1e-5", ["emu.miso-ber=1e-5"]),
    ("miso-1e-4", "SPI bit errors chip->host, BER 1e-4", ["emu.miso-ber=1e-4"]),
    ("rx-overflow-storm", "10 RX overflows every 200 ms", ["emu.overflow_storm=10/200"]),
    ("loss-of-frame", "loss of frame (LOFE) every 500 ms", ["emu.periodic=loss_of_frame:500"]),
    ("reset-1s", "spontaneous MAC-PHY reset every 1000 ms", ["emu.reset_every_ms=1000"]),
    ("config-upset", "MAC NCR silently cleared every 1000 ms, configuration checked every 200 ms",
     ["emu.periodic=config_upset:1000", "config_check_ms=200"]),
]
SHORT = ["mosi-1e-5", "miso-1e-5", "rx-overflow-storm", "loss-of-frame", "reset-1s",
         "config-upset"]
MTU_MAX = 1500
CHUNK_PAYLOAD = 64  # bytes of frame per data chunk (docs/tc6.md §2.1, CPS 64)
OFF = ["emu.mosi-ber=0", "emu.miso-ber=0", "emu.periodic=off"]
CSUM = ("IpInHdrErrors", "TcpInCsumErrors", "UdpInCsumErrors", "IcmpInCsumErrors")


def frame_bits(mtu):
    """SPI bits a full-size frame depends on: frame with header and FCS, plus
    the 32-bit header (MOSI) or footer (MISO) of each of its chunks."""
    frame = mtu + 14 + 4
    return frame * 8 + 32 * -(-frame // CHUNK_PAYLOAD)


def survival(ber, mtu):
    """Probability that a full-size frame crosses the SPI link without a bit error."""
    return (1.0 - ber) ** frame_bits(mtu)


def link_mtu(ber, min_survival):
    """The largest MTU <= 1500 whose full-size frame survives with >= min_survival
    (IPv4 needs at least 68)."""
    return next((m for m in range(MTU_MAX, 67, -1) if survival(ber, m) >= min_survival), 68)


def fault_ber(knobs):
    """The SPI bit error rate a fault sets, or 0."""
    return next((float(k.split("=")[1]) for k in knobs if "-ber=" in k), 0.0)


def runs_for(names, args):
    """(row, fault, knobs, mtu, must_complete) for each selected fault: at the
    link MTU, plus an MTU 1500 row where that is smaller (not with --short)."""
    runs = []
    for name, _, knobs in (f for f in FAULTS if f[0] in names):
        mtu = link_mtu(fault_ber(knobs), args.min_survival)
        runs.append((name, name, knobs, mtu, True))
        if mtu < MTU_MAX and not args.short:
            runs.append((f"{name}@{MTU_MAX}", name, knobs, MTU_MAX, False))
    return runs


def prefix_ok(got, blob, n):
    """True if the first n bytes of got equal those of blob (a partial download)."""
    with open(got, "rb") as a, open(blob, "rb") as b:
        while n > 0:
            k = min(n, 1 << 20)
            x, y = a.read(k), b.read(k)
            if x != y or len(x) < k:
                return False
            n -= k
    return True


def csum_errors(ns):
    """Packets the namespace's kernel rejected as corrupted (nstat, absolute)."""
    r = eb.run_in(ns, ["nstat", "-az", *CSUM], check=False)
    return sum(int(line.split()[1]) for line in r.stdout.splitlines()[1:] if len(line.split()) > 1
               and line.split()[0] in CSUM)


def recovery_stats(node_stats):
    """Recoveries and stall per event over both nodes: (count, p50_us, max_us)."""
    buckets, peak, count = {}, 0, 0
    for s in node_stats:
        h = s.get("recovery_stall_ns", {})
        for k, v in h.get("buckets", {}).items():
            buckets[int(k)] = buckets.get(int(k), 0) + v
        peak = max(peak, h.get("max", 0))
        count += s.get("recoveries", 0)
    return count, eb.hist_percentile(buckets, 50) / 1000.0, peak / 1000.0


def lost_by_reason(rows):
    """Frames lost, summed over nodes, by where they were counted."""
    keys = ("tx_drv", "tx_model", "tx_medium", "rx_model", "spi_hidden", "rx_drv", "tap_dropped")
    return {k: sum(r[k] for r in rows) for k in keys}


def run_one(run, blob, digest, args, tmp):
    """One fresh segment, one download under the run's knobs and MTU; a result dict."""
    name, fault, knobs, mtu, must_complete = run
    ber = fault_ber(knobs)
    res = {"name": name, "fault": fault, "mtu": mtu, "must_complete": must_complete,
           "ber": ber, "survival": survival(ber, mtu)}
    max_time = args.max_time if must_complete else args.limit_time
    with eb.Segment(nodes=2) as seg:
        out = Path(tmp) / "got"
        for k in range(2):
            eb.run_in(eb.netns(k), ["ip", "link", "set", "dev", eb.netns(k), "mtu", str(mtu)])
        with eb.HttpServer(eb.netns(0), eb.addr(0), blob.parent, eb.netns(1)) as http:
            if knobs:
                seg.set_all(*knobs)
            snap0 = seg.snapshot()
            t0 = time.monotonic()
            try:
                d = eb.download(eb.netns(1), http.url(blob.name), out, timeout=max_time)
            except Exception:  # curl gave up (--max-time): partial file
                d = {"bytes": out.stat().st_size if out.exists() else 0,
                     "seconds": time.monotonic() - t0, "speed": 0.0}
            snap1 = seg.snapshot()
            seg.set_all(*OFF)
        complete = d["bytes"] == blob.stat().st_size
        sha_ok = complete and eb.sha256_file(out) == digest
        res.update(bytes=d["bytes"], seconds=d["seconds"], complete=complete, sha_ok=sha_ok,
                   prefix_ok=sha_ok if complete else
                   out.exists() and prefix_ok(out, blob, d["bytes"]))
        res["lim"] = eb.limits(snap0, snap1, d["bytes"], d["seconds"], [(0, 1)])
        res["speed"] = res["lim"]["goodput"]
        node_stats, seg_stats = acct.snapshot(2)
        res["rows"] = acct.check(node_stats, seg_stats)
        res["accounting"] = acct.verdict(res["rows"])
        res["balanced"] = res["accounting"] != "IMBALANCE"
        res["recoveries"], res["p50_us"], res["max_us"] = recovery_stats(node_stats)
        res["csum"] = sum(csum_errors(eb.netns(k)) for k in range(2))
        res["lost"] = lost_by_reason(res["rows"])
        res["flips"] = sum(s["emu_mosi_flips"] + s["emu_miso_flips"] for s in node_stats)
        res["faults"] = sum(s["emu_faults"] for s in node_stats)
        res["config_errors"] = sum(s.get("config_errors", 0) for s in node_stats)
    if out.exists():
        out.unlink()
    return res


def verdict(r):
    """OK, or what failed."""
    bad = []
    if r["complete"] and not r["sha_ok"]:
        bad.append("SHA256 DIFFERS")
    elif not r["complete"] and not r["prefix_ok"]:
        bad.append("PARTIAL FILE DIFFERS")
    elif not r["complete"] and r["must_complete"]:
        bad.append("INCOMPLETE")
    if r["csum"]:
        bad.append(f"{r['csum']} corrupted packets")
    if not r["balanced"]:
        bad.append("IMBALANCE")
    if r["lim"]["verdict"] != "ok":  # above the a-priori limit beyond the tolerance
        bad.append("ABOVE THE LIMIT")
    return ", ".join(bad) or "OK"


def summary_rows(results):
    rows = []
    for r in results:
        lost = r["lost"]
        rows.append([
            r["name"], r["mtu"], f"{100 * r['survival']:.0f} %",
            "yes" if r["sha_ok"] else ("partial %d%%" % (100 * r["bytes"] // r["size"])),
            f"{r['seconds']:.1f}", f"{r['speed'] / 1024:.1f}",
            f"{r['lim']['apriori']['limit'] / 1024:.1f}", f"{r['lim']['acks']['ratio']:.3f}",
            f"{r['lim']['pct_apriori']:.1f}", f"{r['lim']['utilisation']:.1f}",
            r["flips"] or r["faults"],
            r["recoveries"], f"<={r['p50_us']:.0f}" if r["recoveries"] else "-",
            f"{r['max_us']:.0f}" if r["recoveries"] else "-",
            f"{lost['tx_drv']}/{lost['tx_model'] + lost['tx_medium']}/"
            f"{lost['rx_model']}/{lost['spi_hidden']}/{lost['rx_drv']}/{lost['tap_dropped']}",
            r["accounting"], r["csum"], verdict(r)])
    return rows


HEADERS = ["fault", "MTU", "P(frame intact)", "sha256 ok", "s", "KiB/s", "a-priori limit KiB/s",
           "ACKs per data segment", "% of a-priori limit", "wire utilisation %",
           "bit flips / faults", "recoveries", "stall p50 us", "stall max us",
           "lost: tx drv/tx chip+medium/rx chip/spi hidden/rx drv/tap", "accounting",
           "corrupted pkts", "verdict"]


def write(results, args, size):
    body = (f"Download of {size} bytes (curl, python3 -m http.server) from t1s0 to t1s1 on a\n"
            f"fresh 2-node segment per fault, the fault active on both nodes; curl gives up\n"
            f"after {args.max_time} s ({args.limit_time} s for the `@{MTU_MAX}` rows). `MTU` is set on\n"
            f"both TAPs: the largest MTU up to {MTU_MAX} at which a full-size frame crosses the SPI\n"
            f"link intact with probability >= {args.min_survival:g} (`P(frame intact)` = (1 - BER)^bits,\n"
            f"bits = the frame with header and FCS plus the 32-bit header or footer of each of\n"
            f"its 64-byte chunks). A `NAME@{MTU_MAX}` row repeats a fault whose MTU is smaller at\n"
            f"{MTU_MAX}: it is not expected to finish, its verdict checks the bytes that arrived.\n"
            f"`stall` is the driver's recovery_stall_ns per recovery\n"
            f"(detection to traffic resumed; p50 is a power-of-two bucket bound, max is exact).\n"
            f"`lost` counts frames by where they were dropped, summed over both nodes and both\n"
            f"directions; `accounting` is the check of bench/ethdrv_accounting.py (every frame\n"
            f"sent = received + dropped by reason, per node and per hop; `N explained`: frames\n"
            f"the MOSI or MISO hop gained or lost through header or footer corruptions that\n"
            f"parity cannot see, at most one per such corruption); `corrupted pkts` are\n"
            f"the IP/TCP/UDP checksum errors the receiving kernels saw. `a-priori limit`:\n"
            f"the most TCP payload per second the segment carries for this download at the\n"
            f"row's MTU, TCP options and ACK ratio (pure ACKs per data segment, from both\n"
            f"namespaces' TCP counters); `% of a-priori limit` = KiB/s / it, so losses,\n"
            f"retransmissions and stalls lower it. `wire utilisation` = KiB/s / the\n"
            f"wire-time limit of the frames that crossed (retransmissions included): the\n"
            f"share of the time the wire was busy. Formulas and each row's inputs below.\n\n")
    body += eb.md_table(HEADERS, summary_rows(results))
    for r in results:
        if r["ber"] and not r["complete"]:
            body += (f"\n`{r['name']}`: a full-size frame crosses the SPI link intact with "
                     f"probability (1 - {r['ber']:g})^{frame_bits(r['mtu'])} = "
                     f"{100 * r['survival']:.0f} %; TCP backs off on that loss and the download "
                     f"did not finish ({r['bytes']} bytes, "
                     f"{'identical to the file' if r['prefix_ok'] else 'NOT identical'}). "
                     f"The driver kept working: {r['recoveries']} recoveries, every frame "
                     f"accounted for.\n")
        if r["config_errors"]:
            body += (f"\n`{r['name']}`: the configuration check found a changed register "
                     f"{r['config_errors']} times and recovered.\n")
    body += "\n## Fault descriptions\n\n"
    body += "".join(f"- `{n}`: {d} (`{' '.join(k) or '-'}`)\n" for n, d, k in FAULTS
                    if n in [r["fault"] for r in results])
    body += "\n## The limits of each run\n\n"
    body += "".join(f"- `{r['name']}`:\n" + "".join(f"  - {line}\n" for line in
                                                     eb.describe_limits(r["lim"]))
                    for r in results)
    body += f"\n```\n{eb.LIMIT_FORMULA}\n```\n"
    body += "\n## Accounting per run\n\n" + acct.__doc__.split("Command line:")[0] + "\n"
    for r in results:
        body += f"### {r['name']}\n\n" + acct.report(r["rows"]) + "\n"
    path = eb.write_result("faults", "Fault campaign (ethdrv bench faults)", body,
                           args.results)
    png = path.with_suffix(".png")
    data = "\n".join(f'"{r["name"]}" {r["speed"] / 1024:.1f} {r["max_us"] / 1000:.2f}'
                     for r in results)
    try:
        eb.gnuplot("set style data histograms\nset style fill solid 0.6\n"
                   "set ylabel 'KiB/s'\nset y2label 'max recovery stall (ms)'\n"
                   "set y2tics\nset xtics rotate by -30\nset key top right\n"
                   "plot $d using 2:xtic(1) title 'throughput', "
                   "'' using 3 axes x1y2 title 'max stall (ms)'", str(png), {"d": data})
    except Exception as e:  # the plot is a bonus
        eb.log(f"faults: no plot: {e}")
    return path


def main(argv):
    ap = argparse.ArgumentParser(prog="ethdrv bench faults", description=__doc__.split("\n")[0])
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--size", type=int)
    ap.add_argument("--max-time", type=int, default=300)
    ap.add_argument("--limit-time", type=int, default=60)
    ap.add_argument("--min-survival", type=float, default=0.85)
    ap.add_argument("--only")
    ap.add_argument("--results")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    names = args.only.split(",") if args.only else SHORT if args.short else [f[0] for f in FAULTS]
    unknown = set(names) - {f[0] for f in FAULTS}
    if unknown:
        ap.error(f"unknown fault {', '.join(sorted(unknown))}: use {', '.join(f[0] for f in FAULTS)}")
    size = args.size or (2 << 20 if args.short else 10 << 20)
    results, failed = [], False
    with tempfile.TemporaryDirectory(prefix="ethdrv-faults.", dir="/dev/shm") as tmp:
        blob = Path(tmp) / "www" / "blob"
        blob.parent.mkdir()
        eb.make_blob(blob, size)
        digest = eb.sha256_file(blob)
        runs = runs_for(names, args)
        bar = eb.Progress(len(runs), "faults")
        for run in runs:
            r = run_one(run, blob, digest, args, tmp)
            r["size"] = size
            results.append(r)
            failed |= verdict(r) != "OK"
            bar.step(f"{r['name']}: {verdict(r)} {r['speed'] / 1024:.0f} KiB/s")
        bar.close()
    print(eb.md_table(HEADERS, summary_rows(results)))
    for r in results:
        if not r["balanced"]:
            print(f"{r['name']}:\n{acct.report(r['rows'])}")
    if not args.no_write:
        print(f"faults: results in {write(results, args, size)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
