"""ENET link, TCP both ways at once: what holds the slower direction back.

Runs `iperf3 --bidir` over `ethdrv segment --device emu:enet` and samples, while
it runs, what tells the causes apart (docs/host.md §9):
  - each sender's tcp_info time counters from `ss -ti` in its namespace:
    busy (time with data to send), rwnd_limited (stopped by the receiver's
    window), sndbuf_limited (stopped by its own send buffer), and rtt,
    unacked segments and cwnd;
  - the queues on the way: the TAP's qdisc backlog (`tc -s qdisc`), the TAP's
    own kernel queue (frames the qdisc handed to the TAP minus the frames the
    node read and the TAP's drops), the driver's TX ring (BQL in flight);
  - per-CPU idle and steal time (/proc/stat) and the load average;
  - the CPU of every thread on the machine over the same span (/proc/*/task/*/stat
    utime + stime), the heaviest first, with the kernel's interrupt and softirq time
    that no thread is charged for: which thread the CPUs went to; and each thread's
    time runnable but waiting for a CPU (/proc/*/task/*/schedstat, the run-queue
    wait): a thread short of CPU waits there, one waiting for work sleeps instead;
  - per node, its loop's wakeups and interrupts against the frames it moved, and per
    sample BQL's limit and bytes in flight (`ethdrv get IF bql_limit bql_inflight`):
    whether a ring ran dry for want of room or of frames.
--pin THREAD=CPU places the line engine or a node's loop, to test placement;
--slice THREAD=US, --batch THREAD and --rt-prio N change how the scheduler treats
them, to find who a node's loop waits behind (docs/fq.md §4.1).
Run as root under the shared lock (flock /tmp/ethdrv-systest.lock ...).
Prints a table per sample and a summary; writes nothing else.
"""
import argparse
import json
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402

PORT = 5201


def parse():
    p = argparse.ArgumentParser(prog="ethdrv bench hostpath-cause", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=int, default=10, help="iperf3 run time (10)")
    p.add_argument("--speed", type=int, default=1000, help="line speed Mb/s (1000)")
    p.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE",
                   help="a knob for both nodes (default napi_split=1, as enet-tcp)")
    p.add_argument("--pin", action="append", default=[], metavar="THREAD=CPU",
                   help="pin the segment's thread named THREAD (fdx-line, enet0, enet1: the "
                        "line engine and the nodes' loops) to CPU, to see whether placement "
                        "moves the run-queue wait (none pinned by default)")
    p.add_argument("--slice", action="append", default=[], metavar="THREAD=US",
                   help="give the segment's thread named THREAD (as --pin) an EEVDF slice of "
                        "US microseconds (100-100000; the kernel's default is its base slice), "
                        "to see whether a thread woken with a shorter slice waits less")
    p.add_argument("--batch", action="append", default=[], metavar="THREAD",
                   choices=("fdx-line", "enet0", "enet1", "iperf3"),
                   help="run THREAD (as --pin, or iperf3: both iperf3 processes, once the "
                        "client runs) at SCHED_BATCH, which a wakeup never lets preempt the "
                        "running thread, to see who a node waits behind")
    p.add_argument("--rt-prio", type=int, metavar="N",
                   help="run the segment with `--rt-prio N` (docs/design.md §4.5: the nodes' "
                        "loops at SCHED_FIFO N, the line engine at N+1); default SCHED_OTHER")
    p.add_argument("--json", help="also write the samples here")
    return p.parse_args()


def tids_of(comm):
    """(pid, tid, thread comm) of every thread of every process named COMM; a process
    or thread that exits meanwhile is left out."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open(f"/proc/{pid}/comm").read().strip() != comm:
                continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                yield int(pid), int(tid), open(f"/proc/{pid}/task/{tid}/comm").read().strip()
        except FileNotFoundError:
            continue


def each_thread(wanted, what, apply):
    """Apply APPLY(tid, value) to the `ethdrv` process's threads named in WANTED
    ({comm: value}); returns what was applied. A name that matches no thread is an
    error, so a typo cannot pass unseen."""
    done = {}
    for _, tid, comm in tids_of("ethdrv"):
        if comm in wanted:
            try:
                apply(tid, wanted[comm])
            except ProcessLookupError:
                continue  # gone meanwhile
            done[comm] = wanted[comm]
    missing = set(wanted) - set(done)
    if missing:
        raise SystemExit(f"hostpath-cause: --{what}: no ethdrv thread named "
                         f"{', '.join(sorted(missing))} (fdx-line, enet0, enet1)")
    return done


def thread_name(name):
    """The comm of the segment's thread NAME (fdx-line, enet0, enet1)."""
    return name if name == "fdx-line" else "ethdrv/" + name


def thread_values(specs, what, unit, lo, hi):
    """--pin/--slice THREAD=VALUE specs as {comm: int}, VALUE within LO..HI."""
    res = {}
    for spec in specs:
        name, _, v = spec.partition("=")
        if not v.isdigit() or not lo <= int(v) <= hi:
            raise SystemExit(f"hostpath-cause: --{what} {spec}: use THREAD={unit}, "
                             f"{unit} {lo}..{hi}")
        res[thread_name(name)] = int(v)
    return res


def pin_threads(pins):
    """--pin: each named thread onto its CPU."""
    return each_thread(pins, "pin", lambda tid, cpu: os.sched_setaffinity(tid, {cpu}))


def batch_tid(tid, _):
    os.sched_setscheduler(tid, os.SCHED_BATCH, os.sched_param(0))


def batch_iperf3():
    """--batch iperf3: every thread of every iperf3 process at SCHED_BATCH; returns how
    many processes. Both must be running (the caller waits for the client)."""
    pids = set()
    for pid, tid, _ in tids_of("iperf3"):
        try:
            batch_tid(tid, None)
        except ProcessLookupError:
            continue  # gone meanwhile
        pids.add(pid)
    if len(pids) < 2:
        raise SystemExit(f"hostpath-cause: --batch iperf3: {len(pids)} iperf3 processes, "
                         f"want 2")
    return len(pids)


def slice_threads(slices):
    """--slice: each named thread's EEVDF request size (sched_attr.sched_runtime of a
    SCHED_OTHER thread, Linux 6.12+, 100-100000 us): a shorter slice gives the thread an
    earlier virtual deadline, so on wakeup it preempts a thread that asked for more."""
    return each_thread(slices, "slice", lambda tid, us: eb.set_fair_slice(tid, us * 1000))


def cpu_times():
    """{cpuN: (idle+iowait, steal, total)} in jiffies from /proc/stat."""
    res = {}
    for line in open("/proc/stat"):
        f = line.split()
        if f[0].startswith("cpu") and f[0] != "cpu":
            v = list(map(int, f[1:]))
            res[f[0]] = (v[3] + v[4], v[7], sum(v[:8]))
    return res


def run_queue_wait_ns(pid, tid):
    """A thread's time runnable on a run queue but not running, ns (the second field of
    /proc/PID/task/TID/schedstat, the kernel's sched_info run_delay); 0 when unreadable."""
    try:
        return int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def thread_times():
    """{(pid, tid): (process comm, thread comm, utime + stime ticks, run-queue wait ns)}
    of every thread."""
    res = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
            pcomm = open(f"/proc/{pid}/comm").read().strip()
        except OSError:
            continue  # gone meanwhile
        for tid in tids:
            try:
                st = open(f"/proc/{pid}/task/{tid}/stat").read()
            except OSError:
                continue
            # comm is in parentheses and may hold spaces: split after the last ')'
            comm = st[st.index("(") + 1:st.rindex(")")]
            f = st[st.rindex(")") + 2:].split()
            res[(pid, tid)] = (pcomm, comm, int(f[11]) + int(f[12]),
                               run_queue_wait_ns(pid, tid))
    return res


def irq_ticks():
    """(irq + softirq) ticks of all CPUs from /proc/stat: kernel time no thread owns."""
    f = open("/proc/stat").readline().split()
    return int(f[6]) + int(f[7])


def ss_senders(ns):
    """tcp_info of the iperf3 data connections in NS: a list of dicts."""
    out = eb.run_in(ns, ["ss", "-tinH", "state", "established"]).stdout
    conns, cur = [], None
    for line in out.splitlines():
        if not line.startswith((" ", "\t")):
            cur = {"peer": line.split()[-1]}
            conns.append(cur)
            continue
        if cur is None:
            continue
        for key in ("rtt", "cwnd", "unacked", "bytes_acked", "bytes_received", "notsent",
                    "delivery_rate"):
            m = re.search(rf"\b{key}:([\d.]+)", line)
            if m:
                cur[key] = float(m.group(1))
        for key in ("busy", "rwnd_limited", "sndbuf_limited"):
            m = re.search(rf"\b{key}:(\d+)ms", line)
            if m:
                cur[key] = int(m.group(1))
    # the data connections carry the bulk: the control connection has few bytes
    return [c for c in conns if c.get("bytes_acked", 0) > 1e6 or
            c.get("bytes_received", 0) > 1e6]


def qdisc(ns, dev):
    """(backlog bytes, packets sent) of the TAP's root qdisc."""
    out = eb.run_in(ns, ["tc", "-s", "qdisc", "show", "dev", dev]).stdout
    sent = re.search(r"Sent \d+ bytes (\d+) pkt", out)
    back = re.search(r"backlog (\d+)b", out)
    return (int(back.group(1)) if back else 0, int(sent.group(1)) if sent else 0)


def tap_dropped(ns, dev):
    return int(eb.run_in(ns, ["cat", f"/sys/class/net/{dev}/statistics/tx_dropped"]).stdout)


def sample(seg):
    res = {"t": time.monotonic(), "nodes": []}
    for k in range(2):
        ns = seg.node(k)
        before = eb.stats(ns)
        backlog, sent = qdisc(ns, ns)
        after = eb.stats(ns)
        read = (before["node_tap_rx_frames"] + after["node_tap_rx_frames"]) / 2
        bql = eb.get_keys(ns, ("bql_limit", "bql_inflight"))
        res["nodes"].append({
            "bql_limit": int(bql["bql_limit"]), "bql_inflight": int(bql["bql_inflight"]),
            "conns": ss_senders(ns), "qdisc_backlog": backlog,
            # frames in the TAP's queue: handed over by the qdisc, not yet
            # read by the node (its read is bracketed around the tc call; the
            # spread is the sampling error)
            "tap_queue": sent - read - tap_dropped(ns, ns),
            "tap_queue_err": (after["node_tap_rx_frames"] - before["node_tap_rx_frames"]) / 2,
        })
    return res


def main():
    a = parse()
    sets = a.sets or ["napi_split=1"]
    load0 = open("/proc/loadavg").read().split()[:3]
    samples = []
    pins = thread_values(a.pin, "pin", "CPU", 0, os.cpu_count() - 1)
    slices = thread_values(a.slice, "slice", "US", 100, 100000)
    batch = {thread_name(b): None for b in a.batch if b != "iperf3"}
    args = ("--rt-prio", str(a.rt_prio)) if a.rt_prio is not None else ()
    with eb.EnetLink(device=f"emu:enet,speed={a.speed}", sets=sets, args=args) as seg:
        if pins:
            print("pinned:", pin_threads(pins))
        if slices:
            print("slices (us):", slice_threads(slices))
        if batch:
            print("SCHED_BATCH:", ", ".join(each_thread(batch, "batch", batch_tid)))
        eb.run_in(seg.node(0), ["sysctl", "-q", "-w", "net.ipv4.tcp_no_metrics_save=1"])
        server = eb.popen_in(seg.node(1), ["iperf3", "-s", "-1", "-B", "169.254.20.2",
                                           "-p", str(PORT)])
        time.sleep(0.5)
        idle = eb.run_in(seg.node(0), ["ping", "-n", "-q", "-c", "10", "-i", "0.05",
                                       "169.254.20.2"]).stdout
        box = {}

        def client():
            box["r"] = eb.run_in(seg.node(0), ["iperf3", "-c", "169.254.20.2", "-p", str(PORT),
                                               "-t", str(a.seconds), "-J", "--bidir"],
                                 timeout=a.seconds + 60, check=False)
        th = threading.Thread(target=client)
        c0, t0, i0 = cpu_times(), thread_times(), irq_ticks()
        l0 = (time.monotonic(), seg.stats("link"))
        n0 = [eb.stats(seg.node(k)) for k in range(2)]
        th.start()
        time.sleep(2)  # past slow start
        if "iperf3" in a.batch:
            print("SCHED_BATCH: iperf3 x", batch_iperf3())
        while th.is_alive() and len(samples) < 2 * (a.seconds - 3):
            samples.append(sample(seg))
            time.sleep(0.3)
        c1, t1, i1 = cpu_times(), thread_times(), irq_ticks()
        l1 = (time.monotonic(), seg.stats("link"))
        n1 = [eb.stats(seg.node(k)) for k in range(2)]
        th.join()
        eb.stop_proc(server)
    load1 = open("/proc/loadavg").read().split()[:3]
    end = json.loads(box["r"].stdout)["end"]
    report(a, sets, load0, load1, idle, samples, end, c0, c1)
    threads_report(c0, c1, t0, t1, i1 - i0)
    engine_report(l0, l1)
    nodes_report(l1[0] - l0[0], n0, n1)


ENGINE_KEYS = ("wakeups", "kicks", "events", "catchups", "engine_cpu_ns", "catchup_cpu_ns")


def engine_report(l0, l1):
    """The line engine's counters over the span, per second, and its CPU per wakeup."""
    dt = l1[0] - l0[0]
    d = {k: int(l1[1][k]) - int(l0[1][k]) for k in ENGINE_KEYS}
    print(f"\nline engine over the span ({dt:.1f} s, `ethdrv stats link`), per second:")
    print(f"  wakeups {d['wakeups'] / dt:.0f}, of them kicks {d['kicks'] / dt:.0f} (the rest "
          f"its timer's)")
    print(f"  events {d['events'] / dt:.0f}, of them applied by register accesses "
          f"{d['catchups'] / dt:.0f}")
    print(f"  engine thread CPU {100 * d['engine_cpu_ns'] / dt / 1e9:.1f} % of one CPU, "
          f"{d['engine_cpu_ns'] / max(d['wakeups'], 1) / 1e3:.1f} us per wakeup; "
          f"catch-ups in the node threads {100 * d['catchup_cpu_ns'] / dt / 1e9:.1f} %")
    prio = int(l1[1].get("lab_rt_prio", 0))
    print(f"  the lab's threads at {f'SCHED_FIFO {prio}' if prio else 'SCHED_OTHER'}; put back "
          f"to SCHED_OTHER by its spin guard over the span: "
          f"{int(l1[1].get('lab_rt_demotions', 0)) - int(l0[1].get('lab_rt_demotions', 0))}")


NODE_KEYS = ("node_loop_wakeups", "node_loop_iterations", "fec_irqs", "fec_irq_rxf",
             "fec_irq_txf", "node_tap_rx_frames", "node_tap_rx_tso", "node_tap_tx_frames",
             "node_tap_tx_submits", "node_loop_cpu_ns")


def nodes_report(dt, n0, n1):
    """Per node over the span: what woke its loop, per second and per frame it moved
    (frames read from the TAP, a TSO super-frame as the segments it is cut into, plus
    frames written to it, before GRO joins them)."""
    print(f"\nnodes over the span ({dt:.1f} s, `ethdrv stats IF`), per second:")
    for k, (b, a) in enumerate(zip(n0, n1)):
        missing = [key for key in NODE_KEYS if key not in a]
        if missing:
            raise SystemExit(f"hostpath-cause: `ethdrv stats` has no {', '.join(missing)}")
        d = {key[5:] if key.startswith("node_") else key: int(a[key]) - int(b[key])
             for key in NODE_KEYS}
        d["poller_thread_wakeups"] = sum(int(v) - int(b.get(key, 0)) for key, v in a.items()
                                         if key.startswith("napi_") and
                                         key.endswith("_thread_wakeups"))
        moved = d["tap_rx_frames"] + d["tap_tx_frames"]
        print(f"  enet{k}: loop wakeups {d['loop_wakeups'] / dt:.0f} "
              f"({d['loop_wakeups'] / max(moved, 1):.2f} per frame moved), iterations "
              f"{d['loop_iterations'] / dt:.0f}, poller-thread wakeups "
              f"{d['poller_thread_wakeups'] / dt:.0f}; interrupts {d['fec_irqs'] / dt:.0f} "
              f"(RXF {d['fec_irq_rxf'] / dt:.0f}, TXF {d['fec_irq_txf'] / dt:.0f}); "
              f"frames from the TAP {d['tap_rx_frames'] / dt:.0f} (TSO {d['tap_rx_tso'] / dt:.0f})"
              f", to it {d['tap_tx_frames'] / dt:.0f} in {d['tap_tx_submits'] / dt:.0f} "
              f"submits; loop CPU {d['loop_cpu_ns'] / max(d['loop_wakeups'], 1) / 1e3:.1f} us "
              f"per wakeup")


def threads_report(c0, c1, t0, t1, irq):
    """The threads' CPU over the span of c0..c1, in % of one CPU, heaviest first."""
    hz = os.sysconf("SC_CLK_TCK")
    span = max(sum(c1[c][2] - c0[c][2] for c in c0) / len(c0), 1)  # ticks per CPU
    busy = sum((c1[c][2] - c1[c][0]) - (c0[c][2] - c0[c][0]) for c in c0)
    rows = []
    for k, (pcomm, comm, ticks, wait) in t1.items():
        d = ticks - (t0[k][2] if k in t0 else 0)
        if d > 0:
            rows.append((d, pcomm, comm, k[1], wait - (t0[k][3] if k in t0 else 0)))
    rows.sort(reverse=True)
    print(f"\nCPU per thread over the span ({span / hz:.1f} s; % of one CPU; threads that "
          f"exited inside it, such as the samplers' ss and tc, are not in it), and the "
          f"time each waited runnable for a CPU (run-queue wait, % of the span):")
    for d, pcomm, comm, tid, wait in rows[:14]:
        print(f"  {100 * d / span:5.1f} %  {pcomm}/{comm} ({tid}), waited "
              f"{100 * wait / (span / hz * 1e9):.1f} %")
    rest = sum(d for d, *_ in rows[14:])
    print(f"  {100 * rest / span:5.1f} %  the other {max(len(rows) - 14, 0)} threads")
    print(f"  {100 * irq / span:5.1f} %  interrupts and softirqs no thread is charged for")
    print(f"  {100 * busy / span:5.1f} %  the CPUs' busy time (of {100 * len(c0)} %), "
          f"threads + interrupts {100 * (sum(d for d, *_ in rows) + irq) / span:.1f} %")


def med(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


def report(a, sets, load0, load1, idle, samples, end, c0, c1):
    print(f"# hostpath-cause: iperf3 --bidir {a.seconds} s at {a.speed} Mb/s, sets {sets}")
    print(f"load average before {' '.join(load0)}, after {' '.join(load1)}")
    print("idle ping:", idle.strip().splitlines()[-1])
    for key, name in (("sum_received", "enet0 -> enet1"),
                      ("sum_received_bidir_reverse", "enet1 -> enet0")):
        if key in end:
            print(f"goodput {name}: {end[key]['bits_per_second'] / 1e6:.1f} Mb/s")
    for cpu in sorted(c0):
        d = [x - y for x, y in zip(c1[cpu], c0[cpu])]
        print(f"{cpu}: idle {100 * d[0] / d[2]:.1f} %, steal {100 * d[1] / d[2]:.1f} %")
    print("\nper sender (last sample; the time counters are totals since the connection "
          "started):")
    last = samples[-1]
    for k, node in enumerate(last["nodes"]):
        for c in node["conns"]:
            if c.get("bytes_acked", 0) < 1e6:
                continue
            busy = c.get("busy", 0) or 1
            print(f"  enet{k} sender to {c['peer']}: busy {c.get('busy', 0)} ms, rwnd_limited "
                  f"{c.get('rwnd_limited', 0)} ms ({100 * c.get('rwnd_limited', 0) / busy:.1f} %),"
                  f" sndbuf_limited {c.get('sndbuf_limited', 0)} ms "
                  f"({100 * c.get('sndbuf_limited', 0) / busy:.1f} %)")
    print("\nmedian over samples, per node (its TAP carries what its namespace sends):")
    for k in range(2):
        ns = [s["nodes"][k] for s in samples]
        rtt = [c["rtt"] for n in ns for c in n["conns"] if c.get("bytes_acked", 0) > 1e6]
        una = [c.get("unacked", 0) for n in ns for c in n["conns"]
               if c.get("bytes_acked", 0) > 1e6]
        print(f"  enet{k}: sender rtt {med(rtt):.2f} ms, unacked {med(una):.0f} segments "
              f"({med(una) * 1448 / 1e6:.2f} MB), qdisc backlog "
              f"{med([n['qdisc_backlog'] for n in ns])} B, TAP queue "
              f"{med([n['tap_queue'] for n in ns]):.0f} frames "
              f"(+-{med([n['tap_queue_err'] for n in ns]):.0f} sampling), min "
              f"{min(n['tap_queue'] for n in ns):.0f} max {max(n['tap_queue'] for n in ns):.0f}")
        print(f"         BQL limit {med([n['bql_limit'] for n in ns])} B (min "
              f"{min(n['bql_limit'] for n in ns)}, max {max(n['bql_limit'] for n in ns)}), "
              f"in flight {med([n['bql_inflight'] for n in ns])} B (min "
              f"{min(n['bql_inflight'] for n in ns)}), i.e. "
              f"{8 * med([n['bql_inflight'] for n in ns]) / a.speed:.0f} us of line")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"samples": samples, "end": end}, f)


if __name__ == "__main__":
    main()
