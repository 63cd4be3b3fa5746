"""enet_accounting: every frame of an ENET link ends in exactly one counter.

The check of docs/accounting.md §8 on a live ENET link: from the counters of
a quiescent link (`ethdrv stats enetK --json` for both nodes, `ethdrv stats
link --json` for the line) it computes every hop of both nodes' TX and RX
books, prints them as a table and one IMBALANCE line per sum that does not
hold.

Command line: python3 enet_accounting.py  (prints the table of a live ENET link,
exit 1 on any imbalance).
"""

import sys
import time

sys.path.insert(0, __import__("os").path.dirname(__file__))
import ethdrv_bench as eb  # noqa: E402

NODES = ("enet0", "enet1")
LINK = "link"
RX_MAC_DROPS = ("emu_rx_dropped_nobd", "emu_rx_dropped_disabled", "emu_rx_dropped_filter",
                "emu_rx_bad_bufsize", "mib_rmon_r_undersize", "mib_rmon_r_frag")
MOVING = ("node_tap_rx_frames", "node_tap_tx_frames", "tx_packets", "rx_packets",
          "emu_tx_frames", "emu_rx_frames")


def node_terms(k, s, line):
    """The TX and RX books of node k (0 or 1): named terms, hops, imbalances."""
    j = 1 - k
    t = {"node": NODES[k]}
    # frames the node's fair queue dropped or still holds (tools/ethdrv/fq.h)
    fq = s.get("node_fq_drops", 0) + s.get("node_fq_overlimit", 0) + s.get("node_fq_backlog", 0)
    t["sent"] = s["node_tap_rx_frames"]
    t["wire"] = line[f"port{k}_frames"]
    t["tx_drv"] = s["tx_dropped"] + fq
    t["tx_mac"] = s["emu_tx_bad_len"]
    t["tx_line"] = line[f"port{k}_lost"]
    t["tx_hops"] = [
        t["sent"] - fq - s["tx_packets"] - s["tx_dropped"],
        s["tx_packets"] - s["emu_tx_frames"] - s["emu_tx_bad_len"],
        s["emu_tx_frames"] - line[f"port{k}_frames"] - line[f"port{k}_lost"],
    ]
    t["tx_imbalance"] = t["sent"] - t["wire"] - t["tx_drv"] - t["tx_mac"] - t["tx_line"]
    t["offered"] = line[f"port{j}_frames"]
    t["received"] = s["node_tap_tx_frames"]
    t["rx_mac"] = sum(s.get(c, 0) for c in RX_MAC_DROPS)
    t["rx_drv"] = s["rx_errors"] + s["fec_rx_alloc_failed"]
    t["tap_dropped"] = s["node_tap_tx_dropped"]
    t["rx_hops"] = [
        t["offered"] - s["emu_rx_frames"] - t["rx_mac"],
        s["emu_rx_frames"] - s["rx_packets"] - t["rx_drv"],
        s["rx_packets"] - t["received"] - t["tap_dropped"],
    ]
    t["rx_imbalance"] = (t["offered"] - t["received"] - t["rx_mac"] - t["rx_drv"] -
                         t["tap_dropped"])
    t["outside"] = {"tap_rx_bad": s.get("node_tap_rx_bad", 0),
                    "tap_rx_errors": s.get("node_tap_rx_errors", 0),
                    "dma_errors": s.get("emu_dma_errors", 0)}
    return t


def check(node_stats, line_stats):
    """Terms for both nodes."""
    return [node_terms(k, s, line_stats) for k, s in enumerate(node_stats)]


def balanced(rows):
    """True when every sum and every hop balances."""
    return all(not r["tx_imbalance"] and not r["rx_imbalance"] and not any(r["tx_hops"]) and
               not any(r["rx_hops"]) for r in rows)


def snapshot(settle_s=0.5, timeout_s=30.0):
    """Counters of both nodes and the line once they stand still (a TX
    completion can wait for the coalescing timer, 1 ms by default)."""
    deadline = time.monotonic() + timeout_s
    prev = None
    while True:
        line = eb.stats(LINK)
        ns = [eb.stats(n) for n in NODES]
        key = ([tuple(s.get(c, 0) for c in MOVING) for s in ns],
               [line[f"port{k}_frames"] for k in range(2)])
        if key == prev:
            return ns, line
        if time.monotonic() > deadline:
            raise RuntimeError("counters still moving after %.0f s" % timeout_s)
        prev = key
        time.sleep(settle_s)


HEADERS = ["node", "sent", "wire", "tx drops drv/MAC/line", "tx imbalance", "offered",
           "received", "rx drops MAC/drv/tap", "rx imbalance", "outside the sums"]


def table_rows(rows):
    """Rows for eb.md_table(HEADERS, ...)."""
    out = []
    for r in rows:
        out.append([r["node"], r["sent"], r["wire"],
                    f"{r['tx_drv']}/{r['tx_mac']}/{r['tx_line']}",
                    r["tx_imbalance"] if not any(r["tx_hops"]) else
                    f"{r['tx_imbalance']} hops {r['tx_hops']}",
                    r["offered"], r["received"],
                    f"{r['rx_mac']}/{r['rx_drv']}/{r['tap_dropped']}",
                    r["rx_imbalance"] if not any(r["rx_hops"]) else
                    f"{r['rx_imbalance']} hops {r['rx_hops']}",
                    " ".join(f"{k}={v}" for k, v in r["outside"].items())])
    return out


def report(rows):
    """A markdown table and one line per imbalance (nothing else when balanced)."""
    text = eb.md_table(HEADERS, table_rows(rows))
    for r in rows:
        if r["tx_imbalance"] or any(r["tx_hops"]):
            text += (f"\nIMBALANCE {r['node']} tx: {r['tx_imbalance']} (hops node/driver/MAC "
                     f"{r['tx_hops']})")
        if r["rx_imbalance"] or any(r["rx_hops"]):
            text += (f"\nIMBALANCE {r['node']} rx: {r['rx_imbalance']} (hops line/MAC/driver "
                     f"{r['rx_hops']})")
    return text + "\n"


def main(argv):
    if argv:
        print(__doc__.split("Command line:")[1].strip(), file=sys.stderr)
        return 2
    rows = check(*snapshot())
    sys.stdout.write(report(rows))
    return 0 if balanced(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
