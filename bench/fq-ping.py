"""ENET link: ping beside one-way TCP bulk, under several node settings (the
fair queue off and on by default), and where each ping's RTT goes (docs/fq.md)."""
import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
import napi_modes_lib as nm  # noqa: E402

NAME = "fq-ping"
A0, A1 = "169.254.20.1", "169.254.20.2"
DEFAULT_CASES = ["fq=off", "fq=on"]
# tcpdump -tt --time-stamp-precision=nano: "SEC.NSEC IP SRC > DST: ICMP echo request, id I, seq S"
TCPDUMP_RE = re.compile(r"^(\d+\.\d+) IP (\S+) > (\S+): ICMP echo (request|reply), id \d+, seq (\d+)")


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--seconds", type=int, default=8, help="iperf3 time per run (8)")
    p.add_argument("--repeat", type=int, default=2, help="runs per case (2)")
    p.add_argument("--speed", type=int, default=1000, help="line Mb/s (1000)")
    p.add_argument("--case", action="append", default=None, metavar="K=V[,K=V...]",
                   help="node settings of one case, given to `ethdrv segment --set` "
                   "(repeat it for more cases; default: fq=off, fq=on)")
    p.add_argument("--no-breakdown", action="store_true",
                   help="no tcpdump on the TAPs (the RTT is not split)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    a = p.parse_args()
    a.case = a.case or DEFAULT_CASES
    for c in a.case:
        if any("=" not in kv for kv in c.split(",")):
            p.error(f"--case {c!r}: settings are K=V separated by commas")
    return a


def tcpdump(ns, dev):
    """tcpdump of the ICMP echoes on NS's TAP DEV, nanosecond timestamps, one line each."""
    return eb.popen_in(ns, ["tcpdump", "-i", dev, "-n", "-l", "-tt", "--time-stamp-precision=nano",
                            "icmp"], stdout=subprocess.PIPE, text=True)


def tcpdump_times(p):
    """Stop tcpdump P; {(kind, seq): seconds} of what it saw."""
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=10)
    t = {}
    for line in out.splitlines():
        m = TCPDUMP_RE.match(line)
        if m:
            t.setdefault((m.group(4), int(m.group(5))), float(m.group(1)))
    return t


def ping_by_seq(text):
    """{seq: rtt ms} of ping's reply lines."""
    return {int(s): float(r) for s, r in re.findall(r"icmp_seq=(\d+) .*time=([0-9.]+) ms", text)}


def breakdown(rtt, t0, t1):
    """Per ping: request one-way (enet0's TAP out -> enet1's TAP in), enet1's echo
    turnaround, reply one-way (enet1's TAP out -> enet0's TAP in) and the rest of
    the RTT (the two stacks above the TAPs), in ms, for the pings both captures saw."""
    parts = {"req": [], "echo": [], "rep": [], "stack": []}
    for seq, r in rtt.items():
        try:
            a, d = t0[("request", seq)], t0[("reply", seq)]
            b, c = t1[("request", seq)], t1[("reply", seq)]
        except KeyError:
            continue
        parts["req"].append((b - a) * 1e3)
        parts["echo"].append((c - b) * 1e3)
        parts["rep"].append((d - c) * 1e3)
        parts["stack"].append(r - (d - a) * 1e3)
    return parts


def one(seg, a):
    """iperf3 enet0 -> enet1 with ping enet0 -> enet1 every 20 ms beside it."""
    server = eb.popen_in(seg.node(1), ["iperf3", "-s", "-1", "-B", A1])
    dumps = [] if a.no_breakdown else [tcpdump(seg.node(k), f"enet{k}") for k in (0, 1)]
    time.sleep(0.5)
    box = {}

    def bulk():
        box["r"] = eb.run_in(seg.node(0), ["iperf3", "-c", A1, "-t", str(a.seconds), "-J"],
                             timeout=a.seconds + 60, check=False)
    b = [eb.stats(seg.node(k)) for k in (0, 1)]
    th = threading.Thread(target=bulk)
    th.start()
    time.sleep(1.5)  # past slow start
    n = int((a.seconds - 2.5) / 0.02)
    ping = eb.run_in(seg.node(0), ["ping", "-n", "-i", "0.02", "-c", str(n), A1],
                     timeout=a.seconds + 30, check=False).stdout
    th.join()
    eb.stop_proc(server)
    times = [tcpdump_times(p) for p in dumps]
    af = [eb.stats(seg.node(k)) for k in (0, 1)]
    rtts = nm.ping_rtts(ping)

    def delta(k, key):
        return af[k].get(key, 0) - b[k].get(key, 0)
    soj = eb.hist_delta(af[0].get("node_fq_sojourn_ns", {}), b[0].get("node_fq_sojourn_ns", {}))
    res = nm.iperf_result(box["r"].stdout)
    return {"mbps": res["bytes"] * 8 / res["seconds"] / 1e6, "rtts": rtts, "sent": n,
            "soj_p99_us": eb.hist_percentile(soj, 99) / 1e3 if soj else None,
            "fq_drops": delta(0, "node_fq_drops"), "fq_marks": delta(0, "node_fq_marks"),
            "fq_overlimit": delta(0, "node_fq_overlimit"),
            "fq_max": af[0].get("node_fq_backlog_max"),
            "retrans": res["retransmits"],
            "parts": breakdown(ping_by_seq(ping), *times) if times else None}


def med(v):
    return eb.percentile(v, 50) if v else None


def main():
    a = parse()
    lim = nm.tcp_limit(a.speed)["mbps"]
    rows, parts_rows, load = [], [], []
    for case in a.case:
        sets = ["napi_split=1"] + case.split(",")
        with eb.EnetLink(device=f"emu:enet,speed={a.speed}", sets=sets) as seg:
            for _ in range(a.repeat):
                load.append(open("/proc/loadavg").read().split()[0])
                r = one(seg, a)
                if r["mbps"] > lim:
                    sys.exit(f"{NAME}: {r['mbps']:.1f} Mb/s beats the limit {lim:.1f}")
                p = nm.ping_percentiles(r["rtts"])
                rows.append([f"`{case}`", f"{r['mbps']:.1f}", f"{100 * r['mbps'] / lim:.1f}",
                             nm.fmt(p["p50"], ".2f"), nm.fmt(p["p99"], ".2f"),
                             f"{len(r['rtts'])}/{r['sent']}",
                             nm.fmt(r["soj_p99_us"], ".0f"), nm.fmt(r["fq_max"], "d"),
                             r["fq_marks"], r["fq_drops"], r["fq_overlimit"], r["retrans"]])
                eb.log(f"{NAME}: {case} {rows[-1]}")
                if r["parts"] is not None:
                    pp = r["parts"]
                    parts_rows.append([f"`{case}`", nm.fmt(p["p50"], ".2f"), len(pp["req"])]
                                      + [nm.fmt(med(pp[k]), ".3f")
                                         for k in ("req", "echo", "rep", "stack")]
                                      + [nm.fmt(eb.percentile(pp["req"], 99) if pp["req"]
                                                else None, ".3f"),
                                         nm.fmt(eb.percentile(pp["rep"], 99) if pp["rep"]
                                                else None, ".3f")])
                    eb.log(f"{NAME}: {case} RTT parts {parts_rows[-1]}")
    head = ["settings", "bulk Mb/s", "% of limit", "ping p50 ms", "ping p99 ms", "replies",
            "fq sojourn p99 us", "fq held at most", "CE marks", "CoDel drops", "limit drops",
            "retransmits"]
    phead = ["settings", "ping p50 ms", "pings matched", "request one-way p50 ms",
             "echo turnaround p50 ms", "reply one-way p50 ms", "stacks above the TAPs p50 ms",
             "request one-way p99 ms", "reply one-way p99 ms"]
    ptable = "" if a.no_breakdown else f"""

Where the RTT goes (the same runs): `tcpdump -tt --time-stamp-precision=nano icmp` on
each node's TAP in its namespace sees an echo request when enet0's kernel hands it to
the TAP (before the TAP's own queue) and when enet1's node writes it into enet1's
kernel, and the reply the same way back. Request one-way: enet0's TAP queue, enet0's
node (TAP read, fair queue), enet0's TX ring (what BQL lets wait ahead of it), the
line, enet1's RX (the MAC's interrupt coalescing, the poll) and the TAP write; echo
turnaround: enet1's kernel answering; reply one-way: the same path back; stacks: the
RTT ping printed less the time between enet0's two captures (ping and the kernel
above enet0's TAP). Medians over the pings both captures saw.

{eb.md_table(phead, parts_rows)}"""
    body = f"""Setup: `ethdrv segment --device emu:enet,speed={a.speed} --set napi_split=1 --set K=V...`
with each case's settings (below); `iperf3 -c {A1} -t {a.seconds}` from enet0, and from
1.5 s in `ping -i 0.02` from enet0 to enet1 beside it (the echo requests share enet0's
TAP with the bulk data). Limit: {lim:.1f} Mb/s (docs in bench/enet-tcp.py). Sojourn p99:
the upper bound of the log2 bucket of enet0's `node_fq_sojourn_ns` holding the 99th
percentile (fair queue on only); held at most: enet0's `node_fq_backlog_max` (frames).
{a.repeat} runs per case. The machine is shared (2 CPUs): the 1-minute load average
before each run was {", ".join(load)}.

{eb.md_table(head, rows)}{ptable}"""
    out = eb.write_result(NAME, f"{NAME}: ping beside TCP bulk, per node setting", body,
                          a.results)
    print(out.read_text())


if __name__ == "__main__":
    main()
