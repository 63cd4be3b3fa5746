#!/usr/bin/env bash
# bench/poll-delay.py and bench/poll_delay_lib.py without root: the frame-time limit it checks the model
# against, the parsing of bench-mdio's lines, the refusal of output that
# cannot be right (each reason), the arithmetic of a polled wait, the
# target verdicts; then a whole run against a fake bench-mdio (the tables,
# the plot) and one that prints nonsense (refused, nothing written); then,
# if the build has it, the real bench-mdio in a short run, so its output and
# the parser cannot drift apart.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$TOP/build}
TMP=$(mktemp -d /tmp/ethdrv-poll-delay.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# A fake bench-mdio: the lines of a plausible run, the frame time from its
# arguments as the model computes it; FAKE_BAD makes one row impossible.
cat >"$TMP/fake-bench-mdio" <<'PY'
#!/usr/bin/env python3
import math, os, sys
a = sys.argv[1:]
hz = int(a[a.index("--mdc-hz") + 1]) if "--mdc-hz" in a else 2500000
cycles = 32 if "--no-preamble" in a else 64
bus = cycles * 2 * math.ceil(50e6 / (2 * hz)) / 50e6 * 1e6
n, rounds = int(a[a.index("--n") + 1]), int(a[a.index("--rounds") + 1])
cases = a[a.index("--cases") + 1].split(",")
print(f"setup path=fec ipg_hz=50000000 mdc_hz_asked={hz} mii_speed=0 preamble={int(cycles == 64)}"
      f" bus_us={bus:.3f} n={n} rounds={rounds}")
print("probe reg=eir_read ns_p50=185 ns_p99=190")
for d in (1, 2, 5, 10):
    print(f"probe wait=sleep delay_us={d} us_p50={14 + d:.2f} us_p99=30.00 us_max=90.00"
          f" cpu_us_mean=14.00")
    print(f"probe wait=spin delay_us={d} us_p50={d + 0.05:.2f} us_p99={d + 0.1:.2f}"
          f" us_max=30.00 cpu_us_mean={d + 0.1:.2f}")
for r in range(rounds):
    for c in cases:
        print(f"step round={r + 1} case={c}")
for c in cases:
    mode, d = c.split(":")
    polls = {"irq": 2}.get(mode, max(1, round(bus / (int(d) + 0.2)) + 1))
    ex = bus + 0.6 + (0.5 if int(d) else 0) + (25 if mode == "irq" else 0)
    if os.environ.get("FAKE_BAD") == c:
        ex = bus / 2
    line = (f"mdio mode={mode} delay_us={d} n={n} polls_mean={polls:.2f} polls_p50={polls}"
            f" polls_p99={polls} exit_us_p50={ex:.2f} exit_us_p99={ex + 1:.2f}"
            f" exit_us_max={ex + 9:.2f} interval_us_p1={ex + 0.3:.2f}"
            f" interval_us_p50={ex + 0.5:.2f} interval_us_p99={ex + 2:.2f}"
            f" interval_us_max={ex + 30:.2f} interval_us_mean={ex + 0.6:.2f} bus_us={bus:.3f}"
            f" exit_ratio=1 interval_ratio=1"
            f" cpu_us={0.75 * (ex + 0.6):.4f} engine_events=0 engine_catchups=0"
            f" engine_late_us_mean=0.00"
            f" engine_wakeups_per_xfer=0.00")
    if mode == "irq":
        line = line.replace("engine_late_us_mean=0.00", "engine_late_us_mean=18.00")
    if "--replay" in a:
        line += (f" replay_ms={6630 * (ex + 0.5) / 1000:.2f} replay_cpu_ms=100.00"
                 f" replay_xfers=6630 replay_errors=0 replay_mismatches=0 replays={rounds}")
    print(line)
PY
chmod +x "$TMP/fake-bench-mdio"

python3 - "$TOP/bench" "$TMP" <<'PY'
import importlib.util
import subprocess
import types
import sys
spec = importlib.util.spec_from_file_location("poll_delay", f"{sys.argv[1]}/poll-delay.py")
pd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pd)
import poll_delay_lib as lib  # noqa: E402 (bench/ is on the path now)
tmp = sys.argv[2]


def close(a, b, eps=1e-9):
    return abs(a - b) <= eps * max(1.0, abs(b))


# The frame time (docs/mdio.md §1.2, §3.1): 64 or 32 MDC cycles of 2 (MII_SPEED + 1)
# module clocks; MII_SPEED = ceil(50 MHz / (2 f)) - 1 never makes MDC faster than asked.
assert close(lib.expected_bus_us(50e6, 2500000, True), 25.6)
assert close(lib.expected_bus_us(50e6, 2500000, False), 12.8)
assert close(lib.expected_bus_us(50e6, 5000000, True), 12.8)
assert close(lib.expected_bus_us(50e6, 12500000, False), 2.56)
assert close(lib.expected_bus_us(50e6, 4000000, True), 17.92)  # 3.57 MHz
assert pd.parse_configs("2500000,12500000:nopre")[1] == {
    "mdc_hz": 12500000, "preamble": False, "label": "12.5 MHz, no preamble"}
for bad in ("fast", "2500000:pre", "-1", ""):
    try:
        pd.parse_configs(bad)
        raise AssertionError(f"parse_configs accepted {bad!r}")
    except ValueError:
        pass

# bench-mdio's lines.
assert pd.parse_line("ethdrv: info: phy ...") is None
assert pd.parse_line("probe wait=spin delay_us=2 us_p50=2.05") == (
    "probe", {"wait": "spin", "delay_us": 2, "us_p50": 2.05})
try:
    pd.parse_line("mdio mode=sleep delay_us")
    raise AssertionError("a field without '=' was accepted")
except pd.BenchError as e:
    assert "malformed field 'delay_us'" in str(e), e

# A polled wait: tests every q = w + c; the first to see the event is number
# ceil(B / q) + 1. udelay(2) here: q = 2.273, 25.6 / 2.273 = 11.26 -> 13 polls at 27.28 us.
polls, ex = pd.predict(25.6, 2.06, 0.213)
assert polls == 13 and close(ex, 12 * 2.273), (polls, ex)
# The seed's "1 us" sleep of 22 us and 0.47 us tests: 2 sleeps, 44.9 us (Andrew: 45 us).
polls, ex = pd.predict(25.6, 22, 29 / 62)
assert polls == 3 and close(ex, 2 * (22 + 29 / 62)), (polls, ex)
# A wait that exactly fits the frame needs no extra test.
polls, ex = pd.predict(25.6, 12.6, 0.2)
assert polls == 3 and close(ex, 25.6), (polls, ex)

# Issue 14's target: exit <= 1.15 x bus and <= 15 polls, both inclusive.
row = lambda ex, p: {"exit_us_p50": ex, "bus_us": 25.6, "polls_mean": p}  # noqa: E731
assert pd.target(row(25.6 * 1.15, 15)) == (True, True)
assert pd.target(row(25.6 * 1.151, 15.01)) == (False, False)
# The delays that meet both: q >= B / 14 and q <= 0.15 B - start.
lo, hi = pd.delay_window(25.6, 0.6, 0.21)
assert close(lo, 25.6 / 14 - 0.21) and close(hi, 0.15 * 25.6 - 0.6 - 0.21), (lo, hi)
assert pd.delay_window(2.56, 0.6, 0.21) is None
print("ok: poll-delay frame time, parsing, the wait arithmetic, the target")

# validate(): a plausible run passes; each impossible thing is refused with its reason.
fake = f"{tmp}/fake-bench-mdio"
cases = pd.CASES


def run_fake(extra=(), env=None):
    cmd = [fake, "--n", "100", "--rounds", "2", "--cases", ",".join(cases), "--replay", *extra]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    return pd.parse_output(out.splitlines())


good = run_fake()
pd.validate(good, cases, 2500000, True, 100, True)
assert list(good["rows"]) == cases and good["setup"]["bus_us"] == 25.6


def refused(mutate, why, mdc=2500000, preamble=True, n=100):
    import copy
    run = copy.deepcopy(good)
    mutate(run)
    try:
        pd.validate(run, cases, mdc, preamble, n, True)
    except pd.BenchError as e:
        assert why in str(e), (why, str(e))
        return
    raise AssertionError(f"not refused: {why}")


refused(lambda r: r["rows"].pop("atomic:2"), "atomic:2: no result")
refused(lambda r: None, "is not 12.800 us", preamble=False)  # the model ignored DIS_PRE
refused(lambda r: None, "is not 12.800 us", mdc=5000000)
refused(lambda r: r["rows"]["sleep:1"].update(exit_us_p50=20.0), "shorter than a frame")
refused(lambda r: r["rows"]["irq:0"].update(interval_us_p99=1.0), "interval percentiles")
refused(lambda r: r["rows"]["irq:0"].update(exit_us_max=1.0), "exit percentiles")
refused(lambda r: r["rows"]["sleep:0"].update(polls_mean=0.0), "fewer than one test")
refused(lambda r: r["rows"]["sleep:0"].update(replay_errors=3), "3 errors and 0 mismatches")
refused(lambda r: r["rows"]["sleep:0"].update(replay_ms=100.0), "beat the bus-active limit")
refused(lambda r: r["rows"]["sleep:0"].pop("cpu_us"), "missing cpu_us")
refused(lambda r: r["rows"]["atomic:2"].update(cpu_us=40.0), "40.0 us of CPU per transaction of 27.3")
refused(lambda r: None, "100 reads, asked 200", n=200)
refused(lambda r: r.update(setup=None), "no setup line")
print("ok: poll-delay refuses impossible bench-mdio output")

# The tables of a run: the main table's fec row, the targets, the seed's rows.
main = pd.main_rows([(pd.parse_configs("2500000")[0], good)])
atomic2 = next(r for r in main if r[2] == "atomic" and r[3] == "2")
# The fake: round(25.6 / 2.2) + 1 = 13 polls, exit 25.6 + 0.6 + 0.5 = 26.7 us.
assert atomic2[:7] == ["2.5 MHz", "25.60", "atomic", "2", "13.00", "26.70", "1.04"], atomic2
assert pd.test_cost_us(good) == 26.2 / 129
t = pd.targets_rows([(pd.parse_configs("2500000")[0], good)])
assert [r[-1] for r in t] == ["missed", "missed", "**met**", "met", "met"], t
chris = pd.chris_rows(good)
assert chris[0][:5] == ["0", "38-40", "1.48-1.56", 0, "26.7"], chris[0]
assert ["9", "56-88", "2.19-3.44", "-", "-", "-", "-", "-"] in chris
# The noise measure: the fake's threads had the CPU 75 % of the time.
assert close(lib.on_cpu(good), 0.75, 1e-4), lib.on_cpu(good)
assert "(NOT CLEAN: other load)" in pd.noise_text([(pd.parse_configs("2500000")[0], good)])
andrew = pd.andrew_rows(good)
assert andrew[2][:3] == ["udelay(2) (readl_poll_timeout_atomic)", "atomic:2", 10], andrew[2]
# The summary reads the run's own figures; --readme replaces only its block.
cfgs = [(pd.parse_configs("2500000")[0], good)]
summ = pd.summary_lines(cfgs)
assert summ[0].startswith("atomic 2 us (fec's): 13.0 polls, exit 26.7 us = 1.04 x the 25.6 us "
                          "frame: issue 14's target (<= 1.15 x, <= 15 polls) met"), summ[0]
readme = f"{tmp}/README.md"
with open(readme, "w") as f:
    f.write(f"before\n{pd.README_BEGIN}\nold table\n{pd.README_END}\nafter\n")
pd.update_readme(readme, pd.readme_block(cfgs, types.SimpleNamespace(replay=True), [0.1, 0.2]))
text = open(readme).read()
assert text.startswith(f"before\n{pd.README_BEGIN}\nMain table of `poll-delay`") and \
    text.endswith(f"{pd.README_END}\nafter\n") and "old table" not in text, text
assert "load average 0.10-0.20" in text and "| 2.5 MHz | 25.60 | atomic | 2 |" in text, text
# The repository's benchmark readings have the block.
import shutil  # noqa: E402
shutil.copy(f"{sys.argv[1]}/../docs/benchmarks.md", readme)
pd.update_readme(readme, "NEW")
assert "\nNEW\n" in open(readme).read() and pd.README_BEGIN not in open(readme).read()
with open(readme, "w") as f:
    f.write("no markers\n")
try:
    pd.update_readme(readme, "x")
    raise AssertionError("a README without markers was accepted")
except pd.BenchError as e:
    assert "no '<!-- poll-delay" in str(e), e
print("ok: poll-delay tables, summary, README block")
PY

# A whole run against the fake: the result and the plot are written where asked.
out=$(python3 "$TOP/bench/poll-delay.py" --bench-mdio "$TMP/fake-bench-mdio" --n 100 --rounds 2 \
	--results "$TMP/res" 2>"$TMP/err")
for want in '## Main table' '| 12.5 MHz, no preamble | 2.56 | atomic | 2 |' \
	'| 2.5 MHz | 2 | 26.70 |' '**met**' 'udelay(2) (readl_poll_timeout_atomic)' \
	'engine timer lateness 18.0' '(6630 x 25.6 us = 169.7 ms)'; do
	grep -qF -- "$want" <<<"$out" || { echo "result lacks: $want"; exit 1; }
done
[[ $out == "$(cat "$TMP/res/poll-delay.md")" ]]
[[ -s $TMP/res/poll-delay.png ]] && [[ $(head -c 4 "$TMP/res/poll-delay.png" | tail -c 3) == PNG ]]
grep -q '88/88' "$TMP/err"
echo "ok: poll-delay run on a fake bench-mdio: result, plot, progress"

# Nonsense is refused: exit 1, the reason, nothing written.
rc=0
FAKE_BAD=atomic:2 python3 "$TOP/bench/poll-delay.py" --bench-mdio "$TMP/fake-bench-mdio" \
	--n 100 --rounds 1 --results "$TMP/bad" 2>"$TMP/err" >/dev/null || rc=$?
[[ $rc -eq 1 ]] && grep -q 'atomic:2: exit p50 .* shorter than a frame' "$TMP/err"
[[ ! -e $TMP/bad/poll-delay.md ]]
rc=0
python3 "$TOP/bench/poll-delay.py" --configs 2500000:fast 2>/dev/null >/dev/null || rc=$?
[[ $rc -eq 2 ]]
echo "ok: poll-delay refuses nonsense and bad arguments"

# The real bench-mdio, briefly: its lines parse and pass the checks.
real=$BUILD/bench/bench-mdio
if [[ -x $real ]]; then
	python3 "$TOP/bench/poll-delay.py" --bench-mdio "$real" --n 40 --rounds 2 \
		--cases sleep:1,atomic:0,atomic:2,irq:0 --configs 2500000,5000000:nopre \
		--results "$TMP/real" >/dev/null 2>"$TMP/err" || { cat "$TMP/err"; exit 1; }
	grep -q '| 5 MHz, no preamble | 6.40 | atomic | 2 |' "$TMP/real/poll-delay.md"
	echo "ok: poll-delay on the real bench-mdio"
else
	echo "skip: no $real (benchmarks not built): the real-program check did not run"
fi
