#!/usr/bin/env bash
# bench/ethdrv_bench.py: the medium limit, percentiles and fairness; the
# accounting rule of bench/ethdrv_accounting.py and the link MTU of
# bench/faults.py; all against values derived by hand (no root, no segment).
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

import ethdrv_accounting as acct
import faults

# One node of a 2-node segment: 10 frames sent, 8 on the wire, 1 FCS drop in
# the chip, 1 refused by the driver; 8 offered, all received.
node = {k: 0 for k in ("tx_dropped", "tx_aborted_errors", "tx_aborted_started",
                       "emu_rx_dropped_filter", "emu_rx_dropped_overflow",
                       "emu_rx_overflow_buffered", "emu_rx_flushed", "emu_rx_cut",
                       "emu_miso_sv_hidden", "node_tap_tx_dropped", "emu_miso_ftr_undetected",
                       "emu_mosi_hdr_undetected", *acct.TX_MODEL, *acct.RX_ARRIVAL,
                       *acct.RX_DRIVER)}
node.update(node_tap_rx_frames=10, tx_packets=9, tx_dropped=1, emu_tx_started=9,
            emu_tx_frames=8, emu_tx_fcs_errors=1, node_tap_tx_frames=8, emu_rx_started=8,
            rx_started=8, rx_packets=8)
seg = {"port0_frames": 8, "port0_excessive_collisions": 0, "port0_dropped": 0,
       "port1_frames": 8}
rows = [acct.node_terms(0, node, seg, 2)]
assert acct.verdict(rows) == "balanced", acct.report(rows)
# A header that gained SV without breaking parity: the chip started one frame
# more than the driver sent (and dropped it). Unexplained, it is an imbalance;
# with one undetected header corruption it is explained, on the MOSI hop only.
bad = dict(node, emu_tx_started=10, emu_tx_fcs_errors=2)
rows = [acct.node_terms(0, bad, seg, 2)]
assert rows[0]["tx_hops"] == [0, -1, 0, 0] and acct.verdict(rows) == "IMBALANCE"
rows = [acct.node_terms(0, dict(bad, emu_mosi_hdr_undetected=1), seg, 2)]
assert acct.verdict(rows) == "balanced (1 explained)", acct.report(rows)
# An undetected footer corruption cannot explain a TX difference.
rows = [acct.node_terms(0, dict(bad, emu_miso_ftr_undetected=1), seg, 2)]
assert acct.verdict(rows) == "IMBALANCE"
# Nor a lost frame at the TAP: only the MOSI and MISO hops may move.
rows = [acct.node_terms(0, dict(node, node_tap_tx_frames=7, emu_mosi_hdr_undetected=5,
                                emu_miso_ftr_undetected=5), seg, 2)]
assert acct.verdict(rows) == "IMBALANCE"

# A 1500-byte MTU frame: 1518 bytes in 24 chunks = 12144 + 768 bits.
assert faults.frame_bits(1500) == 12912
assert abs(faults.survival(1e-4, 1500) - (1 - 1e-4) ** 12912) < 1e-12
# BER 1e-5 keeps 1500 (0.879); 1e-4 needs 3 chunks at most: 191 bytes with
# 3 footers = 1624 bits, 0.85 survival -> MTU 173.
assert faults.link_mtu(1e-5, 0.85) == 1500 and faults.link_mtu(0, 0.85) == 1500
assert faults.link_mtu(1e-4, 0.85) == 173
print("ok: ethdrv_accounting verdicts, faults link_mtu")
PY
