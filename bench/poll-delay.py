"""MDIO start-to-start, exit time and polls vs poll delay: sleep, atomic, irq, boot replay (seed 003).

Runs bench-mdio (bench/bench-mdio.c: the fec driver's MDIO ops over MMIO into the
ENET model, in this process; no root, no namespace) once per MDC setting, and writes
bench/results/poll-delay.md and .png: every mode against the bus-active time of one
frame read from the model in the same run, issue 14's atomic target, seed 003's
tables side by side with the host costs measured in the same run (docs/mdio.md §4.4).
"""
import argparse
import datetime
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ethdrv_bench as eb  # noqa: E402
from poll_delay_lib import (CLEAN_ON_CPU, FEC_ATOMIC_DELAY, TARGET_EXIT_RATIO,  # noqa: E402
                            TARGET_POLLS, BenchError, delay0, delay_window, exit_ratio,
                            noise_text, parse_line, parse_output, predict, predicted, probe,
                            reg_read_ns, target, test_cost_us, validate)

NAME = "poll-delay"
IEEE_MDC_HZ = 2500000
CASES = ["sleep:0", "sleep:1", "sleep:2", "sleep:5", "sleep:10",
         "atomic:0", "atomic:1", "atomic:2", "atomic:5", "atomic:10", "irq:0"]
# The main configuration first (the seed's 2.5 MHz with preamble), then the extra rows:
# preamble suppression, the binding's 5 MHz example, the fastest MDC the 50 MHz module
# clock makes without preamble (docs/mdio.md §3.1).
CONFIGS = "2500000,2500000:nopre,5000000,12500000:nopre"

# Seed 003 (docs/napi.md §6.2), Vybrid, 2.5 MHz MDC with preamble (25.6 us frames).
# Chris Healy, oscilloscope, start of one MDIO transaction to the start of the next,
# against readl_poll_timeout's sleep_us: (sleep_us values, low us, high us).
SEED_CHRIS = [((0,), 38, 40), (tuple(range(1, 9)), 48, 64), ((9,), 56, 88), ((10,), 56, 112)]
# Andrew Lunn, instrumented loop, over 6500 boot transactions: (case, polls, exit us, how).
SEED_ANDREW = [("sleep:0", 62, 29, "delay 0 (readl_poll_timeout, sleep_us 0)"),
               ("sleep:1", 2, 45, "usleep_range(1, 1) (readl_poll_timeout, sleep_us 1)"),
               ("atomic:2", 10, 29, "udelay(2) (readl_poll_timeout_atomic)")]
# The fec patch's commit message (29ae6bd1b0d8): back-to-back period with the interrupt.
SEED_PERIOD_IRQ_US = 90
SEED_TEST_US = 29 / 62  # Andrew: "one poll takes 0.5uS"
SEED_SLEEP1_US = 22  # Andrew: the 1 us sleep "takes around 22uS"

PREDICT = """\
How a polled wait ends (the arithmetic behind the "predicted" columns). The bus core
tests the event right after starting the frame, then waits and tests again. With
    c = the cost of one test (exit / polls at delay 0, measured in this run),
    w = how long the helper's wait for the delay really lasts (the probe: the
        sleeping helper's clock_nanosleep, or the atomic helper's busy-wait),
    q = w + c, the period of the tests, and B = the bus-active time,
the first test that sees the event is test number ceil(B / q) + 1, about
ceil(B / q) * q after the start: polls = ceil(B / q) + 1, exit ~ ceil(B / q) * q
(plus the start: the EIR and MMFR writes before the frame, exit - B at delay 0).
The "Vybrid predicted" columns apply it to the seed's costs (c = 29/62 us, a "1 us"
sleep of 22 us, udelay(2) of 2 us, B = 25.6 us); how the seed counted polls (every
read, or the loop's iterations after the first) is not stated."""


def f1(x):
    return f"{x:.1f}"


def f2(x):
    return f"{x:.2f}"


def mdc_label(setup_mdc, preamble):
    return f"{setup_mdc / 1e6:g} MHz{'' if preamble else ', no preamble'}"


def table_row(label, case, r):
    """One row of the main table (MAIN_HEAD, and REPLAY_HEAD with a replay)."""
    mode, delay = case.split(":")
    bus = r["bus_us"]
    row = [label, f"{bus:.2f}", mode, "-" if mode == "irq" else delay, f2(r["polls_mean"]),
           f2(r["exit_us_p50"]), f2(r["exit_us_p50"] / bus), f1(r["interval_us_p50"]),
           f1(r["interval_us_p99"]), f1(r["interval_us_max"]), f2(r["interval_us_p50"] / bus),
           f1(r["cpu_us"])]
    if "replay_ms" in r:
        limit = r["replay_xfers"] * bus / 1000
        row += [f1(r["replay_ms"]), f2(r["replay_ms"] / limit), f1(r["replay_cpu_ms"])]
    return row


def main_rows(runs):
    """The main table: every case of the main configuration, then the EXTRA_CASES of
    the others (preamble suppression, faster MDC)."""
    cfg0, run0 = runs[0]
    out = [table_row(cfg0["label"], c, r) for c, r in run0["rows"].items()]
    for cfg, run in runs[1:]:
        out += [table_row(cfg["label"], c, run["rows"][c]) for c in EXTRA_CASES
                if c in run["rows"]]
    return out


MAIN_HEAD = ["MDC", "bus us", "mode", "delay us", "polls/xfer", "exit us p50", "exit / bus",
             "start-to-start us p50", "p99", "max", "p50 / bus", "CPU us/xfer"]
REPLAY_HEAD = ["boot replay ms", "replay / limit", "replay CPU ms"]
# The rows of the other MDC settings in the main table (all of them are in the extra table).
EXTRA_CASES = ("sleep:0", "sleep:1", f"atomic:{FEC_ATOMIC_DELAY}", "irq:0")


def extra_rows(runs):
    """The extra rows: every case of every configuration after the main one."""
    return [table_row(cfg["label"], c, r) for cfg, run in runs[1:] for c, r in run["rows"].items()]




def chris_rows(run):
    """Chris Healy's scope ranges next to our sleeping rows."""
    bus, out = run["setup"]["bus_us"], []
    for delays, lo, hi in SEED_CHRIS:
        ours = [d for d in delays if f"sleep:{d}" in run["rows"]]
        label = str(delays[0]) if len(delays) == 1 else f"{delays[0]}-{delays[-1]}"
        if not ours:
            out.append([label, f"{lo}-{hi}", f"{lo / bus:.2f}-{hi / bus:.2f}", "-", "-", "-", "-",
                        "-"])
            continue
        for d in ours:
            r, p = run["rows"][f"sleep:{d}"], probe(run, "sleep", d)
            out.append([label, f"{lo}-{hi}", f"{lo / bus:.2f}-{hi / bus:.2f}", d,
                        f1(r["interval_us_p50"]),
                        f"{r['interval_us_p1']:.1f}-{r['interval_us_p99']:.1f}",
                        f2(r["interval_us_p50"] / bus), f1(p["us_p50"]) if p else "0 (no sleep)"])
    return out


CHRIS_HEAD = ["sleep_us (seed)", "Vybrid start-to-start us (scope)", "Vybrid / bus",
              "our delay us", "ours p50", "ours p1-p99", "ours p50 / bus", "our real sleep us p50"]


def andrew_rows(run):
    """Andrew Lunn's polls and exit times next to ours and to PREDICT."""
    out = []
    seed_wait = {"sleep:0": 0.0, "sleep:1": SEED_SLEEP1_US, "atomic:2": 2.0}
    for case, polls, exit_us, how in SEED_ANDREW:
        r = run["rows"].get(case)
        if r is None:
            continue
        sp = predict(25.6, seed_wait[case], SEED_TEST_US) if seed_wait[case] else ("-", None)
        pp = predicted(run, case)
        out.append([how, case, polls, sp[0], r["polls_p50"], f2(r["polls_mean"]),
                     pp[0] if pp else "-", exit_us, f1(sp[1]) if sp[1] else "-",
                     f1(r["exit_us_p50"]),
                     f1(pp[1]) if pp else "-", f"{exit_us / 25.6:.2f}", f2(exit_ratio(r))])
    ir = run["rows"].get("irq:0")
    if ir:
        out.append(["interrupt (completion; commit 29ae6bd1b0d8), start to start", "irq",
                    "-", "-", ir["polls_p50"], f2(ir["polls_mean"]), "-",
                    f"~{SEED_PERIOD_IRQ_US}", "-", f1(ir["interval_us_p50"]), "-",
                    f"{SEED_PERIOD_IRQ_US / 25.6:.2f}", f2(ir["interval_us_p50"] / ir["bus_us"])])
    return out


ANDREW_HEAD = ["seed case", "our row", "Vybrid polls", "Vybrid predicted", "ours p50",
               "ours mean", "ours predicted", "Vybrid exit us", "Vybrid predicted",
               "ours exit us p50", "ours predicted", "Vybrid exit / 25.6", "ours exit / bus"]


def access_us(run):
    """The model's configured cost of one register access (bench-mdio's setup line), us."""
    ns = (run.get("setup") or {}).get("access_ns")
    return ns / 1000 if ns is not None else None


def costs_rows(run):
    """Where the differences come from: the costs of the seed's board and ours."""
    rows = run["rows"]
    c, reg = test_cost_us(run), reg_read_ns(run)
    out = []
    if c is not None:
        out.append(["one test of the event (EIR read and loop)",
                     f"{SEED_TEST_US:.2f} (29 us / 62 polls): hardware",
                     f"{c:.3f} (exit / polls at delay 0)"
                     + (f"; the register read alone {reg / 1000:.3f} (probe)" if reg else "")])
        acc = access_us(run)
        if acc is not None:
            out.append(["of it: the model's configured per-access latency (a model setting, "
                        "not hardware)", "-",
                        f"{acc:.3f} (mmio_latency_ns, busy-waited per register access: "
                        f"{100 * acc / c:.0f} % of the test)"])
    s1 = probe(run, "sleep", 1)
    if s1:
        out.append(['a "1 us" sleep', f"~{SEED_SLEEP1_US} (Andrew's estimate)",
                    f"{s1['us_p50']:.1f} p50, {s1['us_p99']:.1f} p99, {s1['cpu_us_mean']:.1f} us "
                    f"CPU each (probe)"])
    for d in (5, 10):
        p = probe(run, "sleep", d)
        if p:
            out.append([f'a "{d} us" sleep', "-",
                        f"{p['us_p50']:.1f} p50, {p['us_p99']:.1f} p99, {p['cpu_us_mean']:.1f} us "
                        f"CPU each (probe)"])
    sp2 = probe(run, "spin", 2)
    if sp2:
        out.append(["udelay(2) / the atomic helper's 2 us", '"pretty accurate"',
                    f"{sp2['us_p50']:.2f} p50, {sp2['us_p99']:.2f} p99 (probe)"])
    z = delay0(run)
    if z:
        out.append(["per transaction outside the wait (start-to-start - exit, delay 0)",
                    "~9-11 (38-40 us - 29 us)",
                    f"{z['interval_us_p50'] - z['exit_us_p50']:.2f}"])
        out.append(["start of the frame (exit - bus, delay 0)", "~3.4 (29 us - 25.6 us)",
                    f"{z['exit_us_p50'] - z['bus_us']:.2f}"])
    ir = rows.get("irq:0")
    if ir and "engine_late_us_mean" in ir:
        rest = ir["exit_us_p50"] - ir["bus_us"] - ir["engine_late_us_mean"]
        out.append(["interrupt: frame end to the waiter running",
                    "~50 of interrupt overhead (commit 29ae6bd1b0d8: period ~90 us, bus "
                    "~25 us)",
                    f"{ir['exit_us_p50'] - ir['bus_us']:.1f} = engine timer lateness "
                    f"{ir['engine_late_us_mean']:.1f} (mean of {ir['engine_events']} frame "
                    f"ends, {ir.get('engine_catchups', 0)} of them seen first by a register "
                    f"read) + the waiter's wakeup {rest:.1f}; "
                    f"{ir['engine_wakeups_per_xfer']:.2f} engine wakeups per transaction"])
    return out


COSTS_HEAD = ["cost (us)", "Vybrid (seed 003)", "here (this run)"]


def targets_rows(runs):
    """Issue 14's atomic target on every atomic row of every configuration."""
    out = []
    for cfg, run in runs:
        for case, r in run["rows"].items():
            if not case.startswith("atomic:"):
                continue
            ok_exit, ok_polls = target(r)
            delay = int(case.split(":")[1])
            verdict = "met" if ok_exit and ok_polls else "missed"
            out.append([cfg["label"], delay, f2(r["exit_us_p50"]),
                        f"{exit_ratio(r):.3f} {'<=' if ok_exit else '>'} {TARGET_EXIT_RATIO}",
                        f"{r['polls_mean']:.2f} {'<=' if ok_polls else '>'} {TARGET_POLLS}",
                        f"**{verdict}**" if delay == FEC_ATOMIC_DELAY else verdict])
    return out


TARGETS_HEAD = ["MDC", "atomic delay us", "exit us p50", "exit / bus", "polls/xfer", "target"]


def breakdown(cfg, run):
    """Where the time goes for the fec's atomic row of RUN, and what would close a miss."""
    r = run["rows"].get(f"atomic:{FEC_ATOMIC_DELAY}")
    z = delay0(run)
    c = test_cost_us(run)
    if r is None or z is None or c is None:
        return ""
    bus, start = r["bus_us"], z["exit_us_p50"] - z["bus_us"]
    quant = r["exit_us_p50"] - bus - start
    sp = probe(run, "spin", FEC_ATOMIC_DELAY)
    spin = sp["us_p50"] if sp else FEC_ATOMIC_DELAY
    ok_exit, ok_polls = target(r)
    text = (f"- {cfg['label']} ({bus:.2f} us frames), atomic {FEC_ATOMIC_DELAY} us: exit "
            f"{r['exit_us_p50']:.2f} us = frame {bus:.2f} + start {start:.2f} (the EIR and MMFR "
            f"writes, exit - bus at delay 0) + {quant:.2f} waiting for the next test (tests every "
            f"{spin + c:.2f} us: the {spin:.2f} us spin + a {c:.3f} us test); "
            f"{r['polls_mean']:.1f} polls. ")
    if ok_exit and ok_polls:
        return text + "Target met.\n"
    win = delay_window(bus, start, c, spin - FEC_ATOMIC_DELAY)
    if win is None:
        close = (f"no fixed delay meets both here: 15 polls need tests at least "
                 f"{bus / (TARGET_POLLS - 1):.2f} us apart, while 15 % of the frame "
                 f"({0.15 * bus:.2f} us) leaves {0.15 * bus - start:.2f} us after the start for "
                 f"the rounding. Closing it needs a cheaper start (fewer or faster register "
                 f"writes before the frame), or waiting most of the known frame time first "
                 f"(fec knows it from MSCR: min_frame_ns) and then polling finely.")
    else:
        close = (f"a delay of {win[0]:.2f}-{win[1]:.2f} us would meet both by the arithmetic "
                 f"above (the delay scaled to the frame time, not fixed at 2 us).")
    return text + f"Missed; {close}\n"


def summary_lines(runs):
    """The reading of a run against the limit and the seed, from its own figures."""
    cfg0, run0 = runs[0]
    rows, bus, out = run0["rows"], run0["setup"]["bus_us"], []
    c, s1 = test_cost_us(run0), probe(run0, "sleep", 1)
    a2 = rows.get(f"atomic:{FEC_ATOMIC_DELAY}")
    if a2:
        ok = all(target(a2))
        out.append(f"atomic {FEC_ATOMIC_DELAY} us (fec's): {a2['polls_mean']:.1f} polls, exit "
                   f"{a2['exit_us_p50']:.1f} us = {exit_ratio(a2):.2f} x the {bus:.1f} us frame: "
                   f"issue 14's target (<= {TARGET_EXIT_RATIO} x, <= {TARGET_POLLS} polls) "
                   f"{'met' if ok else 'missed'} (seed: 10 polls, 29 us)")
    z = delay0(run0)
    if z and c:
        acc = access_us(run0)
        setting = (f" ({acc:.2f} us of it, {100 * acc / c:.0f} %, is the model's configured "
                   f"per-access latency, a setting of the model and not a measurement of any "
                   f"hardware; the Vybrid's figure is hardware)" if acc is not None else "")
        out.append(f"delay 0: {z['polls_mean']:.0f} polls, exit {z['exit_us_p50']:.1f} us, "
                   f"start to start {z['interval_us_p50']:.1f} us: a test costs {c:.2f} us here"
                   f"{setting}, against the Vybrid's {SEED_TEST_US:.2f}, and "
                   f"{z['interval_us_p50'] - z['exit_us_p50']:.1f}"
                   f" us per transaction lie outside the wait against about 10 (seed: 62 polls, "
                   f"29 us; 38-40 us start to start)")
    r1 = rows.get("sleep:1")
    if r1 and s1:
        out.append(f"sleep 1 us: {r1['polls_mean']:.1f} polls, exit {r1['exit_us_p50']:.1f} us, "
                   f"start to start {r1['interval_us_p50']:.1f} us: a \"1 us\" sleep lasts "
                   f"{s1['us_p50']:.1f} us here and costs {s1['cpu_us_mean']:.1f} us of CPU "
                   f"(seed: 2 polls, 45 us with a 22 us sleep; 48-64 us start to start)")
    ir = rows.get("irq:0")
    if ir:
        out.append(f"irq: start to start {ir['interval_us_p50']:.1f} us, exit "
                   f"{ir['exit_us_p50']:.1f} us = the frame + {ir.get('engine_late_us_mean', 0):.1f}"
                   f" us of the model engine's timer lateness + the waiter's wakeup; "
                   f"{ir['cpu_us']:.1f} us of CPU per transaction, the least (seed: about "
                   f"{SEED_PERIOD_IRQ_US} us start to start)")
    if rows and "replay_ms" in next(iter(rows.values())):
        best = min(rows, key=lambda k: rows[k]["replay_ms"])
        r = rows[best]
        limit = r["replay_xfers"] * bus / 1000
        out.append(f"boot replay ({r['replay_xfers']} transactions, limit {limit:.1f} ms): "
                   f"fastest {best} {r['replay_ms']:.1f} ms ({r['replay_ms'] / limit:.2f} x); "
                   f"irq {rows['irq:0']['replay_ms']:.1f} ms with "
                   f"{rows['irq:0']['replay_cpu_ms']:.1f} ms of CPU" if "irq:0" in rows else
                   f"boot replay: fastest {best} {r['replay_ms']:.1f} ms (limit {limit:.1f} ms)")
    for cfg, run in runs[1:]:
        r = run["rows"].get(f"atomic:{FEC_ATOMIC_DELAY}")
        if r:
            out.append(f"{cfg['label']} ({r['bus_us']:.2f} us frames): atomic "
                       f"{FEC_ATOMIC_DELAY} us exits at {exit_ratio(r):.2f} x with "
                       f"{r['polls_mean']:.1f} polls: target {'met' if all(target(r)) else 'missed'}")
    return out


README_BEGIN = "<!-- poll-delay: main table, written by `ethdrv bench poll-delay --readme` -->"
README_END = "<!-- /poll-delay -->"


def readme_block(runs, a, loads):
    """What --readme puts between the README's markers."""
    head = MAIN_HEAD + (REPLAY_HEAD if a.replay else [])
    summary = "".join(f"- {x}\n" for x in summary_lines(runs))
    return (f"{README_BEGIN}\nMain table of `poll-delay` (`{eb.command_line()}`, "
            f"{eb.machine()}, {datetime_now()}, 1-min load average {load_range(loads)}; "
            f"the atomic rows had the CPU {noise_text(runs)} of their time; full result, "
            f"the seed's tables and the extra rows in `bench/results/poll-delay.md`):\n\n"
            f"{eb.md_table(head, main_rows(runs))}\n{summary}\n"
            f"![poll-delay](../bench/results/poll-delay.png)\n{README_END}")


def update_readme(path, block):
    """Replace the block between the markers of the README at PATH (BenchError if absent)."""
    text = Path(path).read_text()
    i, j = text.find(README_BEGIN), text.find(README_END)
    if i < 0 or j < i:
        raise BenchError(f"{path}: no '{README_BEGIN}' ... '{README_END}' block")
    Path(path).write_text(text[:i] + block + text[j + len(README_END):])


def datetime_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def load_range(loads):
    return f"{min(loads):.2f}-{max(loads):.2f}" if loads else "unknown"


# ---- running bench-mdio --------------------------------------------------------------------


def bench_mdio(path):
    """The bench-mdio binary: PATH, or next to the ethdrv binary, or build/bench."""
    cands = [Path(path)] if path else [
        Path(eb.ethdrv_bin()).resolve().parent / "bench" / "bench-mdio",
        eb.SOURCE_DIR / "build" / "bench" / "bench-mdio"]
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    raise BenchError(f"bench-mdio not found ({', '.join(map(str, cands))}): run make")


def parse_configs(text):
    """"HZ[:nopre],..." as [{"mdc_hz", "preamble", "label"}, ...]; ValueError if malformed."""
    out = []
    for item in text.split(","):
        hz, _, opt = item.partition(":")
        if not hz.isdigit() or int(hz) <= 0 or opt not in ("", "nopre"):
            raise ValueError(f"bad configuration '{item}': HZ or HZ:nopre")
        out.append({"mdc_hz": int(hz), "preamble": opt != "nopre",
                    "label": mdc_label(int(hz), opt != "nopre")})
    if not out:
        raise ValueError("no configuration")
    return out


def command(binary, cfg, a):
    cmd = [str(binary), "--fec", "--probe", "--n", str(a.n), "--rounds", str(a.rounds),
           "--cases", ",".join(a.cases)]
    if cfg["mdc_hz"] != IEEE_MDC_HZ:
        cmd += ["--mdc-hz", str(cfg["mdc_hz"])]
    if not cfg["preamble"]:
        cmd.append("--no-preamble")
    if a.replay:
        cmd.append("--replay")
    return cmd


def run_config(binary, cfg, a, bar, loads):
    """One bench-mdio run; its parsed, validated output. LOADS gets the 1-min load
    average at every step."""
    cmd = command(binary, cfg, a)
    lines = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            lines.append(line)
            if line.startswith("step "):
                f = parse_line(line)[1]
                loads.append(os.getloadavg()[0])
                bar.step(f"{cfg['label']}: {f.get('case')} round {f.get('round')}")
        err = p.stderr.read()
    if p.returncode:
        raise BenchError(f"{' '.join(cmd)} exited {p.returncode}:\n{err.strip()}")
    run = parse_output(lines)
    validate(run, a.cases, cfg["mdc_hz"], cfg["preamble"], a.n, a.replay)
    run["command"] = " ".join(cmd)
    return run


# ---- the result -----------------------------------------------------------------------------


def render(runs, a, loads):
    """The markdown body of the result."""
    cfg0, run0 = runs[0]
    s = run0["setup"]
    head = MAIN_HEAD + (REPLAY_HEAD if a.replay else [])
    xfers = run0["rows"][a.cases[0]].get("replay_xfers")
    commands = "\n".join(f"    {run['command']}" for _, run in runs)
    replay_note = (f"The boot replay (`bench/data/mdio-boot.txt`, docs/mdio.md §9: three "
                   f"switch-like devices and the AR8031, {xfers} transactions with the busy "
                   f"polls) runs once per round after each mode's reads; the table gives the "
                   f"median of the {a.rounds} replays, its limit is transactions x bus-active "
                   f"time ({xfers} x {s['bus_us']:.1f} us = {xfers * s['bus_us'] / 1000:.1f} ms), "
                   f"and its CPU is the replaying thread's." if a.replay else "")
    breakdowns = "".join(breakdown(cfg, run) for cfg, run in runs)
    return f"""The fec driver's own MDIO ops (src/drivers/fec_mdio.c) over MMIO into the ENET
model (docs/mdio.md §11): back-to-back clause-22 reads of the AR8031's BMSR, {a.n} per
mode in {a.rounds} rounds (every mode in every round, so load that comes and goes falls on
all of them), module clock {s['ipg_hz'] / 1e6:g} MHz. The 1-min load average, sampled as each
mode finished a round: {load_range(loads)}.

The limit is the bus-active time of one frame, read from the model in the same run:
{s['bus_us']:.3f} us at {cfg0['label']} (64 MDC cycles; 32 without preamble). "exit" is
the bus core's start of the transaction (before it clears EIR.MII and writes MMFR) to
the completion seen; "start-to-start" is what Chris Healy measured with a scope; polls
are tests of EIR.MII; CPU is the reading thread's (in irq mode the model's engine thread,
which plays the hardware, is not counted). bench-mdio commands, one per MDC setting:

{commands}

## Summary

{"".join(f"- {x}{chr(10)}" for x in summary_lines(runs))}
## Main table

Every mode at {cfg0['label']}, then {", ".join(EXTRA_CASES)} with preamble suppression
and faster MDC (all modes of those: "Extra rows" below).

{eb.md_table(head, main_rows(runs))}
{replay_note}

The run's own noise measure: the share of the atomic rows' wall time the reading
thread was on the CPU (an atomic wait never sleeps; below {100 * CLEAN_ON_CPU:.0f} % other load
took the CPU and that setting's figures are not clean): {noise_text(runs)}.

## Issue 14's target: the atomic poll

Exit time within 15 % of the bus-active time with at most 15 polls per transaction
(exit p50; polls the mean). fec's delay ({FEC_ATOMIC_DELAY} us) is in bold.

{eb.md_table(TARGETS_HEAD, targets_rows(runs))}
Where the time of fec's row goes, per MDC setting:

{breakdowns}
## Seed 003 side by side

Chris Healy's start-to-start times (Vybrid, oscilloscope) against `sleep_us`, next to
ours; "our real sleep" is how long the sleeping helper's wait for that delay lasted
here (probe, this run):

{eb.md_table(CHRIS_HEAD, chris_rows(run0))}
Andrew Lunn's polls and exit times (Vybrid, over 6500 boot transactions), ours, and
what the arithmetic below predicts from each board's measured costs:

{eb.md_table(ANDREW_HEAD, andrew_rows(run0))}
Where the differences come from (the seed's figures are Andrew's and Chris's; ours
are measured in this run):

{eb.md_table(COSTS_HEAD, costs_rows(run0))}
```
{PREDICT}
```

## Extra rows: preamble suppression and faster MDC

{eb.md_table(head, extra_rows(runs))}
![plot]({NAME}.png)
"""


def plot(runs, a, png):
    """Four panels: start-to-start, polls, exit / bus (every MDC), the boot replay."""
    cfg0, run0 = runs[0]
    rows, bus = run0["rows"], run0["setup"]["bus_us"]
    blocks = {}

    def series(mode, keys):
        pts = sorted((int(c.split(":")[1]), r) for c, r in rows.items() if c.startswith(mode))
        return "\n".join(" ".join([str(d)] + [f"{r[k]:.3f}" for k in keys]) for d, r in pts)

    blocks["sleep"] = series("sleep:", ["interval_us_p50", "interval_us_p99", "polls_mean"])
    blocks["atomic"] = series("atomic:", ["interval_us_p50", "interval_us_p99", "polls_mean"])
    blocks["chris"] = "\n".join(f"{d} {(lo + hi) / 2} {lo} {hi}"
                                for ds, lo, hi in SEED_CHRIS for d in ds if d <= 10)
    blocks["andrew"] = "\n".join(f"{c.split(':')[1]} {p} {e / 25.6:.3f} \"{c}\""
                                 for c, p, e, _ in SEED_ANDREW)
    ratio_plots = []
    for i, (cfg, run) in enumerate(runs):
        pts = sorted((int(c.split(":")[1]), r) for c, r in run["rows"].items()
                     if c.startswith("atomic:"))
        blocks[f"r{i}"] = "\n".join(f"{d} {exit_ratio(r):.4f}" for d, r in pts)
        ratio_plots.append(f"$r{i} using 1:2 with linespoints lw 2 title \"atomic, "
                           f"{cfg['label']} ({run['setup']['bus_us']:.2f} us)\"")
    sp = sorted((int(c.split(":")[1]), r) for c, r in rows.items() if c.startswith("sleep:"))
    blocks["sratio"] = "\n".join(f"{d} {exit_ratio(r):.4f}" for d, r in sp)
    irq = rows.get("irq:0")
    irq_line = (f"{irq['interval_us_p50']:.2f} with lines dt 3 lw 2 title \"irq p50\", "
                if irq else "")
    irq_polls = f"{irq['polls_mean']:.2f} with lines dt 3 lw 2 title \"irq\", " if irq else ""
    irq_ratio = (f"{exit_ratio(irq):.3f} with lines dt 3 lw 2 title \"irq, {cfg0['label']}\", "
                 if irq else "")
    replay = ""
    if a.replay:
        order = [c for c in a.cases if c in rows]
        blocks["replay"] = "\n".join(f"{i} {rows[c]['replay_ms']:.2f} {rows[c]['replay_cpu_ms']:.2f}"
                                     f" \"{c}\"" for i, c in enumerate(order))
        limit = rows[order[0]]["replay_xfers"] * bus / 1000
        replay = f"""set title "boot replay ({rows[order[0]]['replay_xfers']} transactions), {cfg0['label']}"
set xlabel ""
set ylabel "ms"
set style fill solid 0.5
set boxwidth 0.4
set xtics rotate by -45 font ",8"
set xrange [-0.6:{len(order) - 0.4}]
set yrange [0:*]
plot $replay using ($1-0.2):2:xtic(4) with boxes title "wall", \\
     $replay using ($1+0.2):3 with boxes title "CPU", \\
     {limit:.2f} with lines lw 2 lc rgb "red" title "limit: transactions x bus-active"
"""
    script = f"""
set multiplot layout 2,2 title "poll-delay: MDIO completion through fec and the ENET model (seed 003)"
set grid
set key top left font ",8"
set title "start to start, {cfg0['label']}"
set xlabel "poll delay (us)"
set ylabel "us"
set xrange [-0.5:10.5]
set yrange [0:*]
plot $sleep using 1:2 with linespoints lw 2 lc 1 title "sleep p50", \\
     $sleep using 1:3 with linespoints dt 2 lc 1 title "sleep p99", \\
     $atomic using 1:2 with linespoints lw 2 lc 2 title "atomic p50", \\
     $atomic using 1:3 with linespoints dt 2 lc 2 title "atomic p99", \\
     {irq_line}{bus:.2f} with lines lw 2 lc rgb "red" title "bus-active {bus:.1f} us", \\
     $chris using 1:2:3:4 with yerrorbars lc rgb "gray40" title "Vybrid sleep_us (Chris Healy)"
set title "polls per transaction, {cfg0['label']}"
set ylabel "tests of EIR.MII"
set logscale y
set yrange [1:*]
plot $sleep using 1:4 with linespoints lw 2 lc 1 title "sleep", \\
     $atomic using 1:4 with linespoints lw 2 lc 2 title "atomic", \\
     {irq_polls}{TARGET_POLLS} with lines lw 2 lc rgb "red" title "target <= {TARGET_POLLS}", \\
     $andrew using 1:2 with points pt 7 ps 1.5 lc rgb "gray40" title "Vybrid (Andrew Lunn)"
unset logscale y
set title "exit / bus-active time"
set ylabel "ratio"
set yrange [0.9:*]
plot {", ".join(ratio_plots)}, \\
     $sratio using 1:2 with linespoints dt 2 title "sleep, {cfg0['label']}", \\
     {irq_ratio}{TARGET_EXIT_RATIO} with lines lw 2 lc rgb "red" title "target <= 1.15", \\
     $andrew using 1:3 with points pt 7 ps 1.5 lc rgb "gray40" title "Vybrid (Andrew Lunn)"
{replay}unset multiplot"""
    script = f"set terminal pngcairo noenhanced size 1400,1000 font 'sans,10'\nset output '{png}'\n" \
        + script
    eb.gnuplot(script, png, blocks)


def parse():
    p = argparse.ArgumentParser(prog=f"ethdrv bench {NAME}", description=__doc__)
    p.add_argument("--n", type=int, default=10000, help="reads per mode (10000)")
    p.add_argument("--rounds", type=int, default=5, help="rounds the reads are split in (5)")
    p.add_argument("--configs", default=CONFIGS,
                   help=f"MDC settings, HZ[:nopre],...; the first is the main table ({CONFIGS})")
    p.add_argument("--cases", default=",".join(CASES), help="MODE:DELAY,... (the 11 of issue 14)")
    p.add_argument("--no-replay", dest="replay", action="store_false",
                   help="skip the boot replay")
    p.add_argument("--bench-mdio", default=None, help="the bench-mdio binary (next to ethdrv)")
    p.add_argument("--results", default=None, help="output directory (bench/results)")
    p.add_argument("--readme", nargs="?", const=str(eb.SOURCE_DIR / "docs" / "benchmarks.md"),
                   default=None,
                   help="also put the main table between the poll-delay markers of "
                        "docs/benchmarks.md "
                        "(or of the file given)")
    a = p.parse_args()
    try:
        a.configs = parse_configs(a.configs)
    except ValueError as e:
        p.error(str(e))
    a.cases = a.cases.split(",")
    if a.n < 1 or not 1 <= a.rounds <= min(64, a.n):
        p.error("--n must be positive and --rounds 1..64, at most --n")
    return a


def main():
    a = parse()
    loads = []
    try:
        binary = bench_mdio(a.bench_mdio)
        bar = eb.Progress(len(a.configs) * a.rounds * len(a.cases), NAME)
        runs = [(cfg, run_config(binary, cfg, a, bar, loads)) for cfg in a.configs]
        bar.close()
    except BenchError as e:
        eb.log(f"{NAME}: {e}")
        return 1
    out = eb.write_result(NAME, "poll-delay: MDIO completion against the poll delay (seed 003)",
                          render(runs, a, loads), a.results)
    plot(runs, a, str(out.with_suffix(".png")))
    if a.readme:
        try:
            update_readme(a.readme, readme_block(runs, a, loads))
        except BenchError as e:
            eb.log(f"{NAME}: {e}")
            return 1
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
