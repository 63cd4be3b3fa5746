#!/usr/bin/env bash
# bench/ethdrv_bench.py: the medium limit, percentiles and fairness against
# values derived by hand (no root, no segment).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$TOP/bench" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import ethdrv_bench as eb

# Two ports: 3 + 1 minimum-size frames (64 B = 512 bits, preamble 64, IFG 96).
# Wire: 4 * (64 + 512 + 96) = 2688 bits. A busy PLCA segment needs max(3, 1) = 3
# cycles: 3 beacons of 20 bits + port1's 2 empty opportunities * to-tmr 32 = 124.
# t_min = 2812 bits / 10 Mb/s = 281.2 us; 1000 payload bytes -> 3556187.77 B/s.
before = {k: 0 for k in ("preamble_bits", "frame_bits", "ifg_bits", "beacon_bits",
                         "silence_bits", "port0_frames", "port1_frames")}
after = dict(before, preamble_bits=256, frame_bits=2048, ifg_bits=384, beacon_bits=80,
             silence_bits=64, port0_frames=3, port1_frames=1, lateness_ns={"buckets": {}})
m = eb.medium_limit(before, after, 1000, beacon_bt=20, to_tmr=32)
assert m["frame_bits"] == 2688 and m["plca_bits"] == 124 and m["cycles"] == 3, m
assert abs(m["t_min"] - 281.2e-6) < 1e-12, m
assert abs(m["limit"] - 1000 / 281.2e-6) < 1e-3, m
assert m["paid_bits"] == 144 and m["frames"] == [3, 1], m
# Percentiles interpolate between neighbours; histogram percentiles give the bucket bound.
assert eb.percentile([4, 1, 3, 2], 50) == 2.5
assert eb.percentile([1, 2, 3, 4, 5], 99) == 4.96
assert eb.hist_percentile({1: 1, 3: 1, 7: 2}, 50) == 3
assert eb.hist_percentile({1: 1, 3: 1, 7: 2}, 99) == 7
assert eb.hist_delta({"buckets": {"3": 5, "7": 2}}, {"buckets": {"3": 5, "7": 1}}) == {7: 1}
# Jain: equal shares 1; one of two nodes starved 0.5.
assert eb.jain([1, 1]) == 1.0 and eb.jain([1, 0]) == 0.5
assert eb.delta({"a": 5, "h": {}}, {"a": 2}) == {"a": 3}
print("ok: ethdrv_bench medium_limit, percentile, hist_percentile, jain, delta")
PY
