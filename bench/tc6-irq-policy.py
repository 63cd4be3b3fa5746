"""Seed 000 redone: 10 MB curl download per TC6 error-interrupt policy."""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402

PING_BYTES, PING_INTERVAL = 1400, 0.05  # the sweep's RTT check: longer than any delay
NAME = "tc6-irq-policy"
POLICIES = {  # docs/napi.md §8; oa_tc6 knob policy=1..5
    1: "no mod: txpe,rxboe,lofe,hdre unmasked, drop + log",
    2: "no log: as 1 without the log line",
    3: "less irq: RX overflow masked",
    4: "no irq: all four masked",
    5: "simple: unmasked, count only",
}
SEED = {1: (827, 846, 891, "945"), 2: (711, 726, 744, "562"), 3: (815, 833, 846, "n/a"),
        4: (914, 924, 931, "n/a"), 5: (857, 868, 879, "615")}
STALL_BUCKET = 2**20 - 1  # lateness histogram bucket bound just under 1.05 ms
CLIENT, SERVER = 0, 1  # curl in t1s0 (the device under test), http.server in t1s1
NOT_RUN_SWEEP = "Not run (no --sweep-us delays, or policy 1 not first).\n"
NOT_RUN_OVF = "Not run (--overflow-runs 0).\n"


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--runs", type=int, default=5, help="downloads per policy (5)")
    p.add_argument("--size", type=int, default=10 * 1024 * 1024, help="bytes (10 MiB)")
    p.add_argument("--spi-hz", type=int, default=25000000, help="SPI clock (25 MHz)")
    p.add_argument("--spi-setup-ns", type=int, default=1000, help="per-transfer setup (1000)")
    p.add_argument("--policies", default="1,2,3,4,5", help="policies to run")
    p.add_argument("--sweep-us", default="1000,2000,2250,2500,2750,3000",
                   help="host service delays (irq_delay_us) tried with policy 1")
    p.add_argument("--loss", type=float, default=1.0,
                   help="the overflow table uses the smallest swept delay losing at least "
                        "this %% of the data frames to RX overflow (1.0)")
    p.add_argument("--overflow-delay-us", type=int, default=None,
                   help="use this delay for the overflow table instead of the sweep's")
    p.add_argument("--overflow-runs", type=int, default=3, help="downloads per policy there (3)")
    p.add_argument("--pings", type=int, default=20,
                   help="pings per sweep point for the RTT check (20)")
    p.add_argument("--rt-prio", type=int, default=0,
                   help="also run each no-delay download with the client's loop and poller "
                        "threads at SCHED_FIFO N (knob rt_prio), alternating with SCHED_OTHER, "
                        "and compare the two (0 = off)")
    p.add_argument("--driver", choices=["ethdrv", "linux"], default="ethdrv",
                   help="linux: instead of the policy table, the download with Linux's own "
                        "oa_tc6 + lan865x beside ethdrv's on the same model, clean and with "
                        "a host late to service IRQ_N (bench/tc6_linux_driver.py)")
    p.add_argument("--fault-ms", type=int, default=0,
                   help="--driver linux: also runs with an RX overflow injected every this "
                        "many ms (0 = none); the host-delay runs use --overflow-delay-us "
                        "(default 3000)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    return check_args(p, p.parse_args())


def check_args(p, a):
    """Refuse what would give no report; every value accepted here gives one."""
    try:
        policies = [int(x) for x in a.policies.split(",")]
        sweep = [int(x) for x in a.sweep_us.split(",") if x]
    except ValueError:
        p.error("--policies and --sweep-us take comma-separated integers")
    if not policies or any(x not in POLICIES for x in policies):
        p.error(f"--policies: give some of {','.join(map(str, POLICIES))}")
    if a.runs < 1:
        p.error("--runs: give 1 or more (the main table needs a download per policy)")
    if a.overflow_runs < 0 or a.pings < 1 or a.rt_prio < 0 or a.rt_prio > 99:
        p.error("--overflow-runs: 0 or more; --pings: 1 or more; --rt-prio: 0..99")
    if any(d < 0 for d in sweep) or (a.overflow_delay_us is not None and a.overflow_delay_us < 0):
        p.error("--sweep-us and --overflow-delay-us: delays of 0 us or more")
    if a.overflow_runs and a.overflow_delay_us is None and not sweep:
        p.error("--overflow-runs > 0 needs --sweep-us or --overflow-delay-us for its delay")
    return a


class Bench:
    def __init__(self, args, seg, http, blob_sha, tmp):
        self.a, self.seg, self.http, self.sha, self.tmp = args, seg, http, blob_sha, tmp

    def ping(self, delay_us):
        """Minimum ping RTT from the client at policy 1 and DELAY_US, and its lower bound."""
        cl = eb.netns(CLIENT)
        self.seg.set(cl, "policy=1", f"irq_delay_us={delay_us}")
        rtts = eb.ping_rtts(cl, eb.addr(SERVER), PING_BYTES, self.a.pings, PING_INTERVAL)
        bound = eb.rtt_bound(PING_BYTES, self.a.spi_hz, self.a.spi_setup_ns, delay_us)
        low = min(rtts) if rtts else float("nan")
        return {"rtt_min_us": low, "rtt_bound_us": bound["rtt_us"],
                "rtt_ok": bool(rtts) and low >= bound["rtt_us"]}

    def run(self, policy, delay_us, rt_prio=0):
        """One download with the client at POLICY, DELAY_US and RT_PRIO; its metrics."""
        cl = eb.netns(CLIENT)
        self.seg.set(cl, f"policy={policy}", f"irq_delay_us={delay_us}", f"rt_prio={rt_prio}")
        n0, s0, h0 = eb.stats(cl), self.seg.snapshot(), eb.host_sample()
        got = os.path.join(self.tmp, "got")
        r = eb.download(cl, self.http.url("blob"), got)
        h1, n1, s1 = eb.host_sample(), eb.stats(cl), self.seg.snapshot()
        if r["bytes"] != self.a.size or eb.sha256_file(got) != self.sha:
            raise RuntimeError(f"policy {policy}: download corrupt or short ({r['bytes']} B)")
        d = eb.delta(n1, n0)
        lim = eb.limits(s0, s1, r["bytes"], r["bytes"] / r["speed"], [(SERVER, CLIENT)])
        t0, t1 = s0["nodes"][SERVER]["tcp"], s1["nodes"][SERVER]["tcp"]
        late = eb.hist_delta(s1["segment"]["lateness_ns"], s0["segment"]["lateness_ns"])
        mib = r["bytes"] / 2**20
        frames = d["rx_packets"] + d["tx_packets"]
        cpu = d["node_loop_cpu_ns"] + d["node_poller_cpu_ns"] - d["node_model_cpu_ns"]
        return {
            "kib": r["speed"] / 1024, "apriori_kib": lim["apriori"]["limit"] / 1024,
            "pct_apriori": lim["pct_apriori"], "util": lim["utilisation"],
            "ack_ratio": lim["acks"]["ratio"], "lim": lim,
            "dropped": d["rx_dropped"] + d["rx_over_errors"],
            "lost": d["emu_rx_dropped_overflow"], "rxboe": d["rx_overflow"],
            "data_frames": d["rx_packets"],
            "cpu_ms_mib": cpu / 1e6 / mib,
            "model_ms_mib": d["node_model_cpu_ns"] / 1e6 / mib,
            "held_ms_mib": d["emu_held_ns"] / 1e6 / mib,
            "wakeups_mib": (d["node_loop_wakeups"] + d["napi_rx_thread_wakeups"]) / mib,
            "xfers_frame": d["spi_transfers"] / max(frames, 1),
            "late_p99_us": eb.hist_percentile(late, 99) / 1000,
            "delay_us": d["irq_delay_ns"] / max(d["irq_delays"], 1) / 1000,
            "delays": d["irq_delays"],
            # frames the medium delivered more than 1 ms late (log2 bucket > 2^20):
            # the host did not run the emulation threads in time
            "stalls": sum(v for k, v in late.items() if k > STALL_BUCKET),
            "late_max_ms": max(late, default=0) / 1e6,
            "retrans": t1["Tcp.RetransSegs"] - t0["Tcp.RetransSegs"],
            "rtos": t1["TcpExt.TCPTimeouts"] - t0["TcpExt.TCPTimeouts"],
            "demotions": d["node_rt_demotions"],
            "causes": eb.loss_causes(d, n1),
            **eb.host_conditions(h0, h1),
        }


def seed_table():
    rows = [[n, POLICIES[n].split(":")[0], *SEED[n]] for n in sorted(SEED)]
    return eb.md_table(["n", "name", "min K", "avg K", "max K", "rx dropped"], rows)


def policy_rows(res):
    rows = []
    for p, runs in res.items():
        k = [r["kib"] for r in runs]
        avg = lambda key: statistics.mean(r[key] for r in runs)  # noqa: E731
        rows.append([p, POLICIES[p], f"{min(k):.1f}", f"{statistics.mean(k):.1f}",
                     f"{max(k):.1f}", sum(r["dropped"] for r in runs),
                     sum(r["lost"] for r in runs), f"{avg('apriori_kib'):.1f}",
                     f"{avg('ack_ratio'):.3f}", f"{avg('pct_apriori'):.2f}", f"{avg('util'):.2f}",
                     f"{avg('cpu_ms_mib'):.1f}", f"{avg('wakeups_mib'):.0f}",
                     f"{avg('xfers_frame'):.2f}", f"{avg('late_p99_us'):.0f}",
                     sum(r["stalls"] for r in runs),
                     f"{max(r['late_max_ms'] for r in runs):.1f}",
                     eb.causes_text(eb.sum_causes(runs)),
                     f"{sum(r['steal_ms'] for r in runs):.0f}",
                     f"{max(r['load1'] for r in runs):.2f}"])
    return rows


HEAD = ["n", "policy", "min KiB/s", "avg KiB/s", "max KiB/s", "rx dropped (driver)",
        "lost to overflow (model)", "a-priori limit KiB/s", "ACKs per data segment",
        "% of a-priori limit", "wire utilisation %", "driver CPU ms/MiB", "wakeups/MiB",
        "SPI transfers/frame", "lateness p99 us", "frames > 1 ms late", "lateness max ms",
        "lost: driver/lab/steal", "VM steal ms", "load max"]


def plot(res, sweep, ovf, ovf_delay, limit_kib, png):
    main = "\n".join(f"{p} {statistics.mean(r['kib'] for r in rs):.1f} "
                     f"{min(r['kib'] for r in rs):.1f} {max(r['kib'] for r in rs):.1f}"
                     for p, rs in res.items())
    seed = "\n".join(f"{p} {SEED[p][1]}" for p in res if p in SEED)
    sw = "\n".join(f"{d} {r['kib']:.1f} {r['lost']}" for d, r in sweep)
    ov = "\n".join(f"{p} {statistics.mean(r['kib'] for r in rs):.1f} "
                   f"{statistics.mean(r['lost'] for r in rs):.1f}" for p, rs in ovf.items() if rs)
    # --overflow-runs 0: the panel says so (gnuplot refuses a plot with no point in range)
    ov_plot = ('plot $ov using 1:2 with boxes title "avg KiB/s", \'\' using 1:3 axes x1y2 with '
               'points pt 7 ps 1.5 title "lost per run"' if ov else
               'unset y2tics\nunset y2label\nset label 1 "no overflow runs (--overflow-runs 0)" '
               'at graph 0.5,0.5 center\nplot $ov using 1:2 with points pt 0 notitle')
    ov = ov or "3 0 0"
    # No sweep (--sweep-us '' with policy 1 absent): the same, for the middle panel.
    sw_plot = ('plot $sw using 1:2 with linespoints lw 2 title "KiB/s", \'\' using 1:3 axes x1y2 '
               'with linespoints title "lost (model)"' if sw else
               'unset y2tics\nunset y2label\nset xrange [0:1]\nset label 2 "no sweep (policy 1 '
               'not run, or --sweep-us \'\')" at graph 0.5,0.5 center\n'
               'plot $sw using 1:2 with points pt 0 notitle\nunset label 2\nset y2tics')
    sw = sw or "0.5 0 0"
    script = f"""
set multiplot layout 1,3 title "tc6-irq-policy: 10 MiB curl download, 2-node PLCA segment, LAN8650 model at 25 MHz SPI"
set style fill solid 0.5 border -1
set boxwidth 0.6
set grid ytics
set xlabel "policy"
set ylabel "KiB/s"
set xrange [0.3:5.7]
set yrange [0:{limit_kib * 1.1:.0f}]
set key below
set title "no host delay (min/avg/max)"
plot $main using 1:2 with boxes title "ethdrv avg", $seed using 1:2 with points pt 9 ps 2 lc rgb "red" title "seed 000 avg", $main using 1:2:3:4 with yerrorbars lc rgb "black" pt 0 title "min..max", {limit_kib:.1f} lw 2 dt 2 title "a-priori goodput limit", {0.99 * limit_kib:.1f} lw 1 dt 3 title "99 %"
set title "sweep, policy 1: host service delay"
set xlabel "irq_delay_us"
set xrange [*:*]
set y2label "frames lost to RX overflow"
set y2tics
set y2range [0:*]
set xtics rotate by -45
{sw_plot}
set title "irq_delay_us={ovf_delay}: per policy"
set xlabel "policy"
set xrange [0.3:5.7]
set xtics norotate
{ov_plot}
unset multiplot
"""
    eb.gnuplot(script, png, {"main": main, "seed": seed, "sw": sw, "ov": ov})


def main():
    a = parse()
    policies = [int(x) for x in a.policies.split(",")]
    sweep_delays = [int(x) for x in a.sweep_us.split(",") if x]
    total = a.runs * len(policies) * (2 if a.rt_prio else 1) + \
        (0 if a.overflow_delay_us is not None else len(sweep_delays)) + \
        a.overflow_runs * len(policies)
    tmp = tempfile.mkdtemp(prefix="ethdrv-bench.", dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    dev = f"emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns}"
    try:
        sha = eb.make_blob(os.path.join(tmp, "blob"), a.size)
        if a.driver == "linux":
            import tc6_linux_driver
            out = eb.write_result(f"{NAME}-linux", "tc6-irq-policy --driver linux: seed 000's "
                                  "download with Linux's own driver on the model",
                                  tc6_linux_driver.compare(a, tmp, sha), a.results)
            print(out.read_text())
            return
        # With --rt-prio the lab runs above the driver in every run (docs/design.md §4.5).
        lab = ("--lab-prio", str(min(a.rt_prio + 1, 99))) if a.rt_prio else ()
        with eb.Segment(2, device=dev, args=lab) as seg, \
                eb.HttpServer(eb.netns(SERVER), eb.addr(SERVER), tmp, eb.netns(CLIENT)) as http:
            b = Bench(a, seg, http, sha, tmp)
            # Fair queueing in the node changes the ACKs' path (docs/fq.md): say which.
            a.fq_state = {k: seg.get(eb.netns(k), "fq") for k in (CLIENT, SERVER)}
            bar = eb.Progress(total, NAME)
            res = {p: [] for p in policies}
            res_rt = {p: [] for p in policies} if a.rt_prio else {}
            for i in range(a.runs):  # round robin: noise spreads over the policies
                for p in policies:
                    res[p].append(b.run(p, 0))
                    bar.step(f"policy {p} run {i + 1}: {res[p][-1]['kib']:.0f} KiB/s")
                    if a.rt_prio:  # alternating, so that noise spreads over both
                        res_rt[p].append(b.run(p, 0, a.rt_prio))
                        bar.step(f"policy {p} run {i + 1} rt_prio={a.rt_prio}: "
                                 f"{res_rt[p][-1]['kib']:.0f} KiB/s")
            sweep = [(0, dict(res[policies[0]][0], **b.ping(0)))] if policies[0] == 1 else []
            ovf_delay = a.overflow_delay_us
            if ovf_delay is None:
                for d in sweep_delays:
                    r = b.run(1, d)
                    r.update(b.ping(d))
                    sweep.append((d, r))
                    bar.step(f"delay {d} us: {r['kib']:.0f} KiB/s, lost {r['lost']}")
                    if ovf_delay is None and r["lost"] >= a.loss / 100 * r["data_frames"]:
                        ovf_delay = d
                if ovf_delay is None and sweep_delays:
                    ovf_delay = sweep_delays[-1]
            ovf = {p: [] for p in policies}
            for i in range(a.overflow_runs):
                for p in policies:
                    ovf[p].append(b.run(p, ovf_delay))
                    bar.step(f"delay {ovf_delay} policy {p}: {ovf[p][-1]['kib']:.0f} KiB/s")
            bar.close()
        limits = [r["apriori_kib"] for rs in res.values() for r in rs]
        clean_limit = statistics.median(limits)
        body = report(a, res, sweep, ovf, ovf_delay, limits, clean_limit) + \
            rt_report(a, res, res_rt)
        out = eb.write_result(NAME, "tc6-irq-policy: seed 000's interrupt-policy table, redone",
                              body, a.results)
        plot(res, sweep, ovf, ovf_delay, clean_limit, str(out.with_suffix(".png")))
        print(out.read_text())
        eb.refuse_above(NAME, [r["lim"] for rs in res.values() for r in rs if "lim" in r])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(a, res, sweep, ovf, ovf_delay, limits, clean_limit):
    rows2 = []
    for p, runs in ovf.items():
        if not runs:
            continue
        k = [r["kib"] for r in runs]
        rows2.append([p, POLICIES[p].split(":")[0], f"{min(k):.1f}", f"{statistics.mean(k):.1f}",
                      f"{max(k):.1f}", sum(r["dropped"] for r in runs),
                      sum(r["lost"] for r in runs), sum(r["rxboe"] for r in runs),
                      f"{statistics.mean(r['pct_apriori'] for r in runs):.1f}",
                      f"{statistics.mean(r['util'] for r in runs):.1f}",
                      sum(r["retrans"] for r in runs), sum(r["rtos"] for r in runs),
                      f"{statistics.mean(r['delay_us'] for r in runs):.0f}",
                      eb.causes_text(eb.sum_causes(runs)),
                      f"{sum(r['steal_ms'] for r in runs):.0f}"])
    sw_rows = [[d, f"{r['delay_us']:.0f}", r["delays"], f"{r['kib']:.1f}",
                f"{r['ack_ratio']:.3f}", f"{r['pct_apriori']:.1f}", f"{r['util']:.1f}", r["lost"],
                r["dropped"], r["retrans"], r["rtos"], f"{r['rtt_min_us']:.0f}",
                f"{r['rtt_bound_us']:.0f}", eb.rtt_verdict(r["rtt_min_us"], r["rtt_bound_us"]),
                eb.causes_text(r["causes"]), f"{r['steal_ms']:.0f}"]
               for d, r in sweep]
    rtt_ok = all(r["rtt_ok"] for _, r in sweep)
    runs = [r for rs in res.values() for r in rs]
    ratios = [r["ack_ratio"] for r in runs]
    first_inputs = "".join(f"- {line}\n" for line in eb.describe_limits(runs[0]["lim"]))
    return f"""Setup: `ethdrv segment --nodes 2 --device emu:lan8650,hz={a.spi_hz},setup-ns={a.spi_setup_ns}`
(PLCA, node 0 coordinator). `python3 -m http.server` in t1s1 serves a {a.size} byte
blob; `curl` in t1s0 downloads it {a.runs} times per policy (round robin over the
policies), sha256 checked. The policy (oa_tc6 knob `policy=N`, docs/napi.md §8) and the
host service delay (`irq_delay_us`) are set on the client t1s0, the device under test
as the seed's i.MX8 + LAN8650; t1s1 keeps the defaults. Counters are deltas of
`ethdrv stats t1s0` and `ethdrv stats segment` around each download.
Fair queueing in the node (docs/fq.md), read back with `ethdrv get t1sK fq`:
fq={a.fq_state[CLIENT]} on t1s0, fq={a.fq_state[SERVER]} on t1s1.

Conditions: {eb.conditions_text(runs + [r for rs in ovf.values() for r in rs] +
                                [r for _, r in sweep])}.
"lost: driver/lab/steal" puts each frame the model lost to RX overflow down to one cause
(docs/design.md §4.8): the lab (the medium delivered it more than 1 ms late), VM steal
(the VM's CPU was stolen during the driver's service gap that ended in the loss,
/proc/stat), else the driver's service gap; totals over the runs; with
`emu_rx_lost_injected` (none here) they add up to "lost to overflow (model)". VM steal
ms: /proc/stat steal over all CPUs during the runs; load max: the 1-minute load average
at the end of a run, the largest.

Columns: KiB/s is curl's average speed (seed 000's "K" is the same unit). rx dropped
(driver) = rx_dropped + rx_over_errors of the client, what the driver counts (nothing
when RXBOE is masked, as Andrew Lunn noted); lost to overflow (model) = frames the
LAN8650 model had no RX buffer room for (`emu_rx_dropped_overflow`), counted whatever
the policy; both are totals over the runs. a-priori limit: the most TCP payload (the
file, plus about 200 bytes of HTTP header) per second one TCP flow can carry over the
segment at the MTU, TCP options and ACK ratio of the run (ACKs per data segment,
from the namespaces' TCP counters; formula below); % of a-priori limit = curl speed
/ it. Wire utilisation = curl speed / the wire-time limit of the frames that crossed
in that run (retransmissions and every ACK included), i.e. the share of the time the
wire was busy (formula below). Both are averages over the runs. Driver CPU = CPU
time of the client's loop and poller threads minus the time spent inside the
model's SPI transfers (`node_model_cpu_ns`); the time the model holds the driver
to keep the 25 MHz bus clock is a sleep and costs no CPU (`emu_held_ns`). Wakeups = loop wakeups + poller thread wakeups. SPI
transfers per frame = spi_transfers / (rx_packets + tx_packets). Lateness p99: the
medium's delivery lateness (real time minus ideal time) of the frames, p99 bucket
bound, to tell emulation artifacts from driver effects. Frames > 1 ms late: frames
the medium delivered more than 1 ms after their ideal time (total over the runs) and
the largest lateness bucket bound: stalls of the host (a thread of the emulation not
run in time), the kind that can also hold off the driver thread long enough for the
RX buffer (64 chunks, about 3 full frames) to overflow. TCP retransmits/timeouts: the server's
Tcp.RetransSegs and TcpExt.TCPTimeouts (t1s1's /proc/net/snmp, netstat).

## Seed 000 (Linux oa_tc6, real LAN8650 at 25 MHz SPI, i.MX8MN client)

{seed_table()}
## ethdrv, no host delay

A-priori goodput limit of these runs: {min(limits):.1f} .. {max(limits):.1f} KiB/s (median
{clean_limit:.1f}), at ACK ratios {min(ratios):.3f} .. {max(ratios):.3f}. The first run's inputs:

{first_inputs}
{eb.md_table(HEAD, policy_rows(res))}
Extra per MiB (averages over all policies): model CPU
{statistics.mean(r['model_ms_mib'] for rs in res.values() for r in rs):.1f} ms, driver held
on the bus {statistics.mean(r['held_ms_mib'] for rs in res.values() for r in rs):.0f} ms.

## Where RX overflow starts: host service delay sweep (policy 1, one run each)

`irq_delay_us=D`: a poll that starts a new service episode while IRQ_N is asserted first
sleeps D us (a host late to service IRQ_N); "slept" is the measured mean. % of
a-priori limit is against the run's own a-priori limit (its ACK ratio); the wire
utilisation counts the retransmissions as work, so it hides the losses.

Min RTT: the least of {a.pings} pings of {PING_BYTES} bytes from the client to the server
at that delay (after the download); computed min RTT: the least any ping can take,
`RTT_FORMULA` of bench/ethdrv_limits.py with host_delay = irq_delay_us (the client sleeps
once before it reads each reply).

{eb.md_table(["irq_delay_us", "slept us", "delayed episodes", "KiB/s",
              "ACKs per data segment", "% of a-priori limit", "wire utilisation %",
              "lost (model)", "rx dropped (driver)", "TCP retransmits", "TCP timeouts",
              "min RTT us", "computed min RTT us", "verdict", "lost: driver/lab/steal",
              "VM steal ms"],
             sw_rows) if sw_rows else NOT_RUN_SWEEP}
RTT verdict: {"every minimum RTT is at or above the computed minimum" if rtt_ok else
              "a minimum RTT is BELOW the computed minimum: an effect was seen early"}.

## With overflows: irq_delay_us={ovf_delay}, {a.overflow_runs} runs per policy

{eb.md_table(["n", "policy", "min KiB/s", "avg KiB/s", "max KiB/s", "rx dropped (driver)",
              "lost (model)", "RXBOE seen", "% of a-priori limit", "wire utilisation %",
              "TCP retransmits", "TCP timeouts", "slept us", "lost: driver/lab/steal",
              "VM steal ms"], rows2) if rows2 else NOT_RUN_OVF}
## The limits

```
{eb.LIMIT_FORMULA}
```

![plot]({NAME}.png)
"""


def rt_report(a, res, res_rt):
    """With --rt-prio: the no-delay table at SCHED_FIFO and the comparison."""
    if not res_rt:
        return ""
    total = lambda rs, key: sum(r[key] for r in rs)  # noqa: E731
    avg = lambda rs, key: statistics.mean(r[key] for r in rs)  # noqa: E731
    rows = [[p, f"{avg(res[p], 'kib'):.1f}", f"{avg(res_rt[p], 'kib'):.1f}",
             total(res[p], "lost"), total(res_rt[p], "lost"),
             total(res[p], "dropped"), total(res_rt[p], "dropped"),
             total(res[p], "stalls"), total(res_rt[p], "stalls"),
             f"{max(r['late_max_ms'] for r in res[p]):.1f}",
             f"{max(r['late_max_ms'] for r in res_rt[p]):.1f}",
             total(res_rt[p], "demotions"), eb.causes_text(eb.sum_causes(res[p])),
             eb.causes_text(eb.sum_causes(res_rt[p]))] for p in res_rt]
    return f"""
## The driver at SCHED_FIFO {a.rt_prio} (`rt_prio={a.rt_prio}` on t1s0), no host delay

Each download of the first table was followed by the same download with the
client's loop and poller threads at SCHED_FIFO {a.rt_prio} (docs/design.md §4.5),
so that noise spreads over both. The server t1s1 keeps SCHED_OTHER; the medium runs at
SCHED_FIFO {min(a.rt_prio + 1, 99)} (`--lab-prio`) in every run of this benchmark, with and
without the driver's priority, so the lab is above the driver and the same in both columns.
Guard demotions: client threads found on a CPU for 90 % of a 100 ms window and put
back to SCHED_OTHER (`node_rt_demotions`); 0 means nothing spun at that priority.

{eb.md_table(HEAD, policy_rows(res_rt))}
Without and with the real-time priority ({a.runs} runs each, totals and averages):

{eb.md_table(["n", "avg KiB/s", f"avg KiB/s FIFO {a.rt_prio}", "lost (model)",
              f"lost (model) FIFO {a.rt_prio}", "rx dropped (driver)",
              f"rx dropped FIFO {a.rt_prio}", "frames > 1 ms late",
              f"frames > 1 ms late FIFO {a.rt_prio}", "lateness max ms",
              f"lateness max ms FIFO {a.rt_prio}", "guard demotions",
              "lost: driver/lab/steal", f"lost: driver/lab/steal FIFO {a.rt_prio}"],
             rows)}"""


if __name__ == "__main__":
    main()
