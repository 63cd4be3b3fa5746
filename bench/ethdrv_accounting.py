"""ethdrv_accounting: every frame of a segment run ends in exactly one counter.

The promise under faults (docs/reliability.md): no corrupted frame is
delivered and every lost frame is counted. This module checks it from the
counters of a quiescent segment (`ethdrv stats t1sK --json` for each node,
`ethdrv stats segment --json` for the medium). Per node K, with d = driver
(oa_tc6 + netdev), e = model (emu_*), n = node (node_*), m = medium:

  TX  sent_K = n.tap_rx_frames                       frames read from the TAP
        = wire_K                                     m.portK_frames
        + d.tx_dropped                               refused by the driver/netdev
        + n.fq_drops + n.fq_overlimit + n.fq_backlog the node's fair queue
        + d.tx_aborted_errors - d.tx_aborted_started aborted before the chip took them
        + e.tx_fcs_errors + e.tx_dropped_protocol + e.tx_dropped_overflow
        + e.tx_dropped_disabled + e.tx_dropped_oversize + e.tx_dropped_underrun
        + e.tx_flushed
        + m.portK_excessive_collisions + m.portK_dropped
      hops: sent_K = n.fq_* + d.tx_packets + d.tx_dropped + d.tx_aborted_errors
            d.tx_packets + d.tx_aborted_started = e.tx_started      (the MOSI hop)
            e.tx_started = e.tx_frames + the e.tx_* drops above
            e.tx_frames  = wire_K + the medium drops above

  RX  offered_K = sum of m.portJ_frames, J != K      every frame reaches every other port
        = n.tap_tx_frames                            written to the TAP
        + e.rx_dropped_filter                        not addressed to K (not a loss)
        + e.rx_dropped_overflow - e.rx_overflow_buffered + e.rx_dropped_sync
        + e.rx_dropped_disabled + e.rx_dropped_length + e.rx_dropped_fcs   (on arrival)
        + e.rx_flushed + e.rx_overflow_buffered - e.rx_cut   (stored, never started)
        + e.miso_sv_hidden                           frame start hidden by SPI bit errors
        + d.rx_drop_{runt,crc,nobuf,bad_footer,oversize,fd,restart,abort,bad_offset}
        + n.tap_tx_dropped                           refused by the TAP
      hops: e.rx_started = d.rx_started + e.miso_sv_hidden          (the MISO hop)
            d.rx_started = d.rx_packets + the d.rx_drop_* above
            d.rx_packets = n.tap_tx_frames + n.tap_tx_dropped

miso_sv_hidden is ground truth from the SPI "wire" of the model: a frame whose
SV footer fails parity is invisible to any driver (its rest counts once in
d.rx_drop_no_sv, the driver's estimate, not part of the sum).

Corruptions that parity cannot see (an even number of flips in one word,
docs/tc6.md §1.3) are invisible to every TC6 implementation: a data header can
gain or lose SV, a footer can show a frame start that is not there. The model
counts them as ground truth (e.mosi_hdr_undetected, e.miso_ftr_undetected).
Only the hop they cross may be off, by at most one frame per such corruption:
the MOSI hop by e.mosi_hdr_undetected, the MISO hop by e.miso_ftr_undetected.
The books still balance then, "explained" by that many frames; any other
difference is an IMBALANCE.

Command line: python3 ethdrv_accounting.py NODES  (prints the table of a live
segment, exit 1 on any imbalance).
"""

import sys
import time

sys.path.insert(0, __import__("os").path.dirname(__file__))
import ethdrv_bench as eb  # noqa: E402

TX_DRIVER = ("tx_dropped",)
TX_MODEL = ("emu_tx_fcs_errors", "emu_tx_dropped_protocol", "emu_tx_dropped_overflow",
            "emu_tx_dropped_disabled", "emu_tx_dropped_oversize", "emu_tx_dropped_underrun",
            "emu_tx_flushed")
RX_ARRIVAL = ("emu_rx_dropped_sync", "emu_rx_dropped_disabled", "emu_rx_dropped_length",
              "emu_rx_dropped_fcs")
RX_DRIVER = ("rx_drop_runt", "rx_drop_crc", "rx_drop_nobuf", "rx_drop_bad_footer",
             "rx_drop_oversize", "rx_drop_fd", "rx_drop_restart", "rx_drop_abort",
             "rx_drop_bad_offset")
# Counters that must stand still for a snapshot to count as quiescent.
MOVING = ("node_tap_rx_frames", "node_tap_tx_frames", "tx_packets", "rx_packets",
          "emu_tx_started", "emu_rx_frames", "emu_rx_started")


def _sum(s, keys):
    return sum(s.get(k, 0) for k in keys)


def node_terms(k, s, seg, nodes):
    """The TX and RX sums of node k: a dict of named terms and imbalances."""
    p = f"port{k}_"
    t = {"node": eb.netns(k)}
    # TX: what the node sent, where each frame ended.
    # frames the node's fair queue dropped or still holds (tools/ethdrv/fq.h)
    fq = s.get("node_fq_drops", 0) + s.get("node_fq_overlimit", 0) + s.get("node_fq_backlog", 0)
    t["sent"] = s["node_tap_rx_frames"]
    t["wire"] = seg[p + "frames"]
    t["tx_drv"] = (_sum(s, TX_DRIVER) + s["tx_aborted_errors"] - s["tx_aborted_started"] +
                   fq)
    t["tx_model"] = _sum(s, TX_MODEL)
    t["tx_medium"] = seg[p + "excessive_collisions"] + seg[p + "dropped"]
    t["tx_imbalance"] = t["sent"] - t["wire"] - t["tx_drv"] - t["tx_model"] - t["tx_medium"]
    t["tx_hops"] = [
        t["sent"] - fq - s["tx_packets"] - s["tx_dropped"] - s["tx_aborted_errors"],
        s["tx_packets"] + s["tx_aborted_started"] - s["emu_tx_started"],
        s["emu_tx_started"] - s["emu_tx_frames"] - t["tx_model"],
        s["emu_tx_frames"] - t["wire"] - t["tx_medium"],
    ]
    # RX: what the medium offered, where each frame ended.
    t["offered"] = sum(seg[f"port{j}_frames"] for j in range(nodes) if j != k)
    t["received"] = s["node_tap_tx_frames"]
    t["filtered"] = s["emu_rx_dropped_filter"]
    t["rx_model"] = (s["emu_rx_dropped_overflow"] - s["emu_rx_overflow_buffered"] +
                     _sum(s, RX_ARRIVAL) + s["emu_rx_flushed"] +
                     s["emu_rx_overflow_buffered"] - s["emu_rx_cut"])
    t["spi_hidden"] = s["emu_miso_sv_hidden"]
    t["rx_drv"] = _sum(s, RX_DRIVER)
    t["tap_dropped"] = s["node_tap_tx_dropped"]
    t["rx_imbalance"] = (t["offered"] - t["received"] - t["filtered"] - t["rx_model"] -
                         t["spi_hidden"] - t["rx_drv"] - t["tap_dropped"])
    t["rx_hops"] = [
        s["emu_rx_started"] - s["rx_started"] - t["spi_hidden"],
        s["rx_started"] - s["rx_packets"] - t["rx_drv"],
        s["rx_packets"] - t["received"] - t["tap_dropped"],
    ]
    t["mosi_undetected"] = s["emu_mosi_hdr_undetected"]
    t["miso_undetected"] = s["emu_miso_ftr_undetected"]
    t["undetected"] = t["mosi_undetected"] + t["miso_undetected"]
    # What undetectable corruptions may explain: the MOSI and MISO hops only.
    t["tx_explained"] = t["tx_hops"][1] if abs(t["tx_hops"][1]) <= t["mosi_undetected"] else 0
    t["rx_explained"] = t["rx_hops"][0] if abs(t["rx_hops"][0]) <= t["miso_undetected"] else 0
    return t


def check(node_stats, seg_stats):
    """Terms for every node; node_stats is a list indexed by node number."""
    n = len(node_stats)
    return [node_terms(k, s, seg_stats, n) for k, s in enumerate(node_stats)]


def balanced(rows):
    """True when every sum and every hop balances, up to what undetectable
    corruptions explain on the MOSI and MISO hops."""
    for r in rows:
        tx = list(r["tx_hops"])
        rx = list(r["rx_hops"])
        tx[1] -= r["tx_explained"]
        rx[0] -= r["rx_explained"]
        if (r["tx_imbalance"] - r["tx_explained"] or r["rx_imbalance"] - r["rx_explained"] or
                any(tx) or any(rx)):
            return False
    return True


def explained(rows):
    """Frames the books leave to undetectable corruptions, over all nodes."""
    return sum(abs(r["tx_explained"]) + abs(r["rx_explained"]) for r in rows)


def verdict(rows):
    """"balanced", "balanced (N explained)" or "IMBALANCE"."""
    if not balanced(rows):
        return "IMBALANCE"
    n = explained(rows)
    return f"balanced ({n} explained)" if n else "balanced"


def snapshot(nodes, settle_s=0.5, timeout_s=30.0):
    """Counters of every node and the medium once they stand still.

    Returns (node_stats list, segment stats); raises after timeout_s.
    """
    deadline = time.monotonic() + timeout_s
    prev = None
    while True:
        seg = eb.stats("segment")
        ns = [eb.stats(eb.netns(k)) for k in range(nodes)]
        seg2 = eb.stats("segment")
        key = ([tuple(s.get(c, 0) for c in MOVING) for s in ns],
               [v for k, v in sorted(seg.items()) if k.endswith("_frames")])
        same_seg = all(seg.get(k) == v for k, v in seg2.items() if k.endswith("_frames"))
        if key == prev and same_seg:
            return ns, seg
        if time.monotonic() > deadline:
            raise RuntimeError("counters still moving after %.0f s" % timeout_s)
        prev = key
        time.sleep(settle_s)


HEADERS = ["node", "sent", "wire", "tx drops drv/model/medium", "tx imbalance",
           "offered", "received", "filtered", "rx drops model/spi/drv/tap", "rx imbalance",
           "undetected"]


def table_rows(rows):
    """Rows for eb.md_table(HEADERS, ...)."""
    out = []
    for r in rows:
        out.append([r["node"], r["sent"], r["wire"],
                    f"{r['tx_drv']}/{r['tx_model']}/{r['tx_medium']}",
                    r["tx_imbalance"] if not any(r["tx_hops"]) else
                    f"{r['tx_imbalance']} hops {r['tx_hops']}",
                    r["offered"], r["received"], r["filtered"],
                    f"{r['rx_model']}/{r['spi_hidden']}/{r['rx_drv']}/{r['tap_dropped']}",
                    r["rx_imbalance"] if not any(r["rx_hops"]) else
                    f"{r['rx_imbalance']} hops {r['rx_hops']}",
                    r["undetected"]])
    return out


def report(rows):
    """A markdown table and one line per imbalance (empty when balanced)."""
    text = eb.md_table(HEADERS, table_rows(rows))
    for r in rows:
        if r["tx_explained"] or r["rx_explained"]:
            text += (f"\nEXPLAINED {r['node']}: MOSI hop {r['tx_explained']} of "
                     f"{r['mosi_undetected']} undetected header corruptions, MISO hop "
                     f"{r['rx_explained']} of {r['miso_undetected']} undetected footer "
                     f"corruptions")
        if r["tx_imbalance"] or any(r["tx_hops"]):
            text += (f"\nIMBALANCE {r['node']} tx: {r['tx_imbalance']} (hops sent/mosi/model/"
                     f"medium {r['tx_hops']}, undetected corruptions {r['undetected']})")
        if r["rx_imbalance"] or any(r["rx_hops"]):
            text += (f"\nIMBALANCE {r['node']} rx: {r['rx_imbalance']} (hops miso/driver/tap "
                     f"{r['rx_hops']}, undetected corruptions {r['undetected']})")
    return text + "\n"


def main(argv):
    if len(argv) != 1 or not argv[0].isdigit():
        print(__doc__.split("Command line:")[1].strip(), file=sys.stderr)
        return 2
    rows = check(*snapshot(int(argv[0])))
    sys.stdout.write(report(rows))
    return 0 if balanced(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
