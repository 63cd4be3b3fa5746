"""poll_delay_lib: bench-mdio's output for bench/poll-delay.py, and the figures made of it.

What a line of bench-mdio says (parse_line, parse_output), whether a run can be right
(validate: the frame time against the MDC, the physical orderings, the replay against
its limit), the arithmetic of a polled wait (predict), issue 14's atomic target, and
the run's own noise measure (on_cpu). Pure functions, no I/O: tested without root by
tests/system/test-poll-delay-lib.sh.
"""
import math

FEC_ATOMIC_DELAY = 2  # fec polls EIR every 2 us since 2020 (docs/napi.md §6.2)
TARGET_EXIT_RATIO, TARGET_POLLS = 1.15, 15  # issue 14
CLEAN_ON_CPU = 0.95  # below: other load took the CPU during that setting

REQUIRED = ("mode", "delay_us", "n", "polls_mean", "polls_p50", "polls_p99", "exit_us_p50",
            "exit_us_p99", "exit_us_max", "interval_us_p1", "interval_us_p50", "interval_us_p99",
            "interval_us_max", "interval_us_mean", "bus_us", "cpu_us")
REPLAY = ("replay_ms", "replay_cpu_ms", "replay_xfers", "replay_errors", "replay_mismatches")


class BenchError(RuntimeError):
    """bench-mdio's output does not make sense: nothing is written."""


# ---- bench-mdio's output --------------------------------------------------------------


def _num(v):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def parse_line(line):
    """("setup"|"probe"|"step"|"mdio", {key: value}) of one bench-mdio line; None otherwise."""
    words = line.split()
    if not words or words[0] not in ("setup", "probe", "step", "mdio"):
        return None
    fields = {}
    for w in words[1:]:
        k, sep, v = w.partition("=")
        if not sep or not k:
            raise BenchError(f"bench-mdio: malformed field '{w}' in: {line.strip()}")
        fields[k] = _num(v)
    return words[0], fields


def parse_output(lines):
    """A run of bench-mdio: {"setup": {...}, "probes": [...], "rows": {case: {...}}}."""
    run = {"setup": None, "probes": [], "rows": {}}
    for line in lines:
        p = parse_line(line)
        if p is None:
            continue
        kind, f = p
        if kind == "setup":
            run["setup"] = f
        elif kind == "probe":
            run["probes"].append(f)
        elif kind == "mdio":
            run["rows"][f"{f.get('mode')}:{f.get('delay_us')}"] = f
    return run


def mii_speed(ipg_hz, mdc_hz):
    """MSCR.MII_SPEED for MDC at most MDC_HZ (docs/mdio.md §3.1, fec_enet_mii_init)."""
    return math.ceil(ipg_hz / (2 * mdc_hz)) - 1


def expected_bus_us(ipg_hz, mdc_hz, preamble):
    """The bus-active time of one frame: 64 MDC cycles, 32 without preamble (docs/mdio.md §1.2)."""
    return (64 if preamble else 32) * 2 * (mii_speed(ipg_hz, mdc_hz) + 1) / ipg_hz * 1e6


def validate(run, cases, mdc_hz, preamble, n, replay):
    """Refuse output that cannot be right (BenchError with every reason)."""
    bad, s = [], run["setup"]
    if not s:
        raise BenchError("bench-mdio printed no setup line")
    bus = s.get("bus_us", 0)
    want = expected_bus_us(s.get("ipg_hz", 0) or 1, mdc_hz, preamble)
    if not bus or abs(bus - want) > 0.001 * want + 0.001:
        bad.append(f"the model's frame time {bus} us is not {want:.3f} us "
                   f"({'64' if preamble else '32'} cycles at the MDC of {mdc_hz} Hz)")
    for c in cases:
        r = run["rows"].get(c)
        if r is None:
            bad.append(f"{c}: no result")
            continue
        miss = [k for k in REQUIRED + (REPLAY if replay else ()) if k not in r]
        if miss:
            bad.append(f"{c}: missing {', '.join(miss)}")
            continue
        if r["n"] != n:
            bad.append(f"{c}: {r['n']} reads, asked {n}")
        if r["bus_us"] != bus:
            bad.append(f"{c}: bus_us {r['bus_us']} differs from the setup's {bus}")
        if r["exit_us_p50"] < bus:
            bad.append(f"{c}: exit p50 {r['exit_us_p50']} us is shorter than a frame ({bus} us)")
        if not (r["interval_us_p1"] <= r["interval_us_p50"] <= r["interval_us_p99"]
                <= r["interval_us_max"]):
            bad.append(f"{c}: interval percentiles out of order")
        if not r["exit_us_p50"] <= r["exit_us_p99"] <= r["exit_us_max"]:
            bad.append(f"{c}: exit percentiles out of order")
        if r["interval_us_p50"] < r["exit_us_p50"]:
            bad.append(f"{c}: start-to-start p50 below the exit p50")
        if r["polls_mean"] < 1 or r["polls_p50"] < 1:
            bad.append(f"{c}: fewer than one test of the event per transaction")
        if not 0 < r["cpu_us"] <= 1.05 * r["interval_us_mean"] + 0.5:
            bad.append(f"{c}: {r['cpu_us']} us of CPU per transaction of "
                       f"{r['interval_us_mean']} us (one thread)")
        if replay:
            if r["replay_errors"] or r["replay_mismatches"]:
                bad.append(f"{c}: the boot replay had {r['replay_errors']} errors and "
                           f"{r['replay_mismatches']} mismatches")
            if r["replay_xfers"] <= 0 or r["replay_ms"] < r["replay_xfers"] * bus / 1000:
                bad.append(f"{c}: the boot replay ({r['replay_xfers']} transactions in "
                           f"{r['replay_ms']} ms) beat the bus-active limit")
    if bad:
        raise BenchError("bench-mdio output refused:\n  " + "\n  ".join(bad))


# ---- the figures ---------------------------------------------------------------------


def probe(run, wait, delay):
    """The probe of WAIT ("sleep"/"spin") at DELAY us, or None."""
    return next((p for p in run["probes"] if p.get("wait") == wait and p.get("delay_us") == delay),
                None)


def reg_read_ns(run):
    p = next((p for p in run["probes"] if p.get("reg") == "eir_read"), None)
    return p["ns_p50"] if p else None


def delay0(run):
    """The tight-loop row (atomic, else sleep, delay 0): its exit is the frame plus the start."""
    return run["rows"].get("atomic:0") or run["rows"].get("sleep:0")


def test_cost_us(run):
    """c: one test of the event in the loop, exit / polls at delay 0."""
    r = delay0(run)
    return r["exit_us_p50"] / r["polls_mean"] if r and r["polls_mean"] else None


def predict(bus_us, wait_us, test_us):
    """(polls, exit us) of a polled wait (PREDICT in bench/poll-delay.py)."""
    q = wait_us + test_us
    k = math.ceil(bus_us / q - 1e-9)
    return k + 1, k * q


def predicted(run, case):
    """predict() for one polled case of RUN from this run's probes; None if not polled or
    at delay 0 (where c comes from)."""
    mode, delay = case.split(":")
    if mode == "irq" or not int(delay):
        return None
    c = test_cost_us(run)
    if c is None:
        return None
    p = probe(run, "sleep" if mode == "sleep" else "spin", int(delay))
    return predict(run["setup"]["bus_us"], p["us_p50"], c) if p else None


def exit_ratio(r):
    return r["exit_us_p50"] / r["bus_us"]


def target(r):
    """Issue 14's atomic target on row R: (exit met, polls met)."""
    return exit_ratio(r) <= TARGET_EXIT_RATIO, r["polls_mean"] <= TARGET_POLLS


def delay_window(bus, start_us, test_us, wait_overhead_us=0.0):
    """Atomic delays (us) that meet both targets by predict(): q >= B / (TARGET_POLLS - 1)
    for the polls, exit ~ start + ceil(B/q) q <= 1.15 B needs q <= 0.15 B - start (the
    worst case of the rounding); None when the two do not meet."""
    lo = bus / (TARGET_POLLS - 1) - test_us - wait_overhead_us
    hi = (TARGET_EXIT_RATIO - 1) * bus - start_us - test_us - wait_overhead_us
    return (max(lo, 0.0), hi) if hi >= max(lo, 0.0) else None


def on_cpu(run):
    """The share of the spinning rows' wall time the reading thread had the CPU: an
    atomic wait never sleeps, so the rest is time other load took (the run's noise)."""
    rows = [r for c, r in run["rows"].items() if c.startswith("atomic:")]
    wall = sum(r["interval_us_mean"] for r in rows)
    return sum(r["cpu_us"] for r in rows) / wall if wall else None


def noise_text(runs):
    parts = []
    for cfg, run in runs:
        share = on_cpu(run)
        if share is not None:
            parts.append(f"{cfg['label']} {100 * share:.1f} %"
                         + ("" if share >= CLEAN_ON_CPU else " (NOT CLEAN: other load)"))
    return "; ".join(parts)
