"""ethdrv_limits: the limits every TCP benchmark reports against (docs/design.md §7).

Pure arithmetic on snapshots of a segment, no I/O: the a-priori goodput
limit of a traffic pattern at the ACK ratio measured in the run, the wire
utilisation (LIMIT_FORMULA), and the least round trip physics allows for a
ping (RTT_FORMULA). ethdrv_bench re-exports every name, so benchmarks and
scripts/demo.sh use them from there.
"""

PLCA_KEYS = ("plca", "node-id", "node-cnt", "to-tmr", "burst-cnt", "burst-tmr")


def delta(after, before):
    """after - before for every numeric counter (histograms are left out)."""
    return {k: v - before.get(k, 0) for k, v in after.items() if isinstance(v, (int, float))}


# ---- the limits: a-priori goodput and wire utilisation -------------------------------------

LIMIT_FORMULA = """\
Two limits, both computed in the same run from the segment's facts (`ethdrv get
segment beacon_bt ifg_bt bit_ns`, each node's PLCA settings, MTU and TCP options) at
one bit per bit_ns (10 Mb/s). Wire timing: docs/tc6.md §6; the method: docs/host.md §4.

A-PRIORI GOODPUT LIMIT: the most payload the segment can carry for the traffic
pattern, from first principles.
  MSS        = MTU - 20 (IPv4) - 20 (TCP) - 12 (timestamp option, if every node uses it)
  data frame = 14 + MTU + 4 (FCS) bytes; ACK frame = max(14 + 20 + 20 + 12 + 4, 64) bytes
               (12 only with timestamps)
  wire bits  = 64 (preamble+SFD) + 8 * frame bytes + ifg_bt (96)
  r          = the stack's ACK ratio, measured in the run from the TCP counters of
               every node's namespace: pure ACKs per data segment on the wire =
               (Tcp.OutSegs - TcpExt.TCPOrigDataSent) / (TcpExt.TCPOrigDataSent + Tcp.RetransSegs)
  Every flow runs at the same rate (for one flow, all-to-one and all-to-all that is the
  optimum: the time a cycle takes depends only on the total rate). Per data segment,
  node k sends f_k = (flows from k + r * flows to k) / flows frames.
  PLCA (beacon_bt B, to-tmr T, node-cnt N, burst-cnt b_k, burst-tmr t_k):
    cycles     c = max_k f_k / (1 + b_k)      (at most 1 + b_k frames per opportunity;
                                             rounded up when f_k are frame counts)
    silence      = T * c for each of the N opportunity ids no node has, plus per node
                   the fewer of: every used opportunity full, T * (c - f_k / (1 + b_k));
                   or frames spread over u = min(c, f_k) opportunities,
                   T * (c - u) + w_k * (u * (1 + b_k) - f_k) / b_k, where
                   w_k = max(ifg_bt, t_k) - ifg_bt is the wait after a burst that ends
                   before its last allowed frame (burst-cnt 0: T * (c - f_k))
    plca_bits    = c * B + silence
  limit = MSS / ((data bits + r * ACK bits + plca_bits) * bit_ns)
  CSMA/CD (no coordinator): the same without PLCA terms and without collisions.

WIRE UTILISATION: the time the frames that actually crossed (data, ACKs, ARP,
retransmissions) need on a perfectly busy segment, over the time the transfer took.
It counts waste as work, so it stays near 100 % whenever the wire is kept busy:
  t_min       = (preamble + frame (with FCS, padded to 64 bytes) + IFG bits of every
                 frame that crossed + plca_bits of the formula above with f_k = the
                 frames port k sent) * bit_ns
  utilisation = t_min / elapsed = goodput / (payload bytes / t_min)
With bursts the silence term is a lower bound (opportunities relaxed to fractions;
exact for burst-cnt 0), so both limits stay bounds."""

PREAMBLE_BITS = 64  # preamble + SFD (docs/tc6.md §6)
FCS_BYTES, MIN_FRAME_BYTES = 4, 64  # frames are padded to 64 bytes with FCS (docs/tc6.md §6)
ETH_HDR, IPV4_HDR, TCP_HDR, TCP_TS_OPT = 14, 20, 20, 12  # TCP timestamps: 10 + 2 NOP bytes


class LimitError(ValueError):
    """A run whose limits cannot be computed (a segment set-up they do not model)."""


# ---- the measurement's tolerance: when a goodput above its limit is refused ----------------

TOLERANCE_FORMULA = """\
A goodput may exceed its limit only by what the measurement cannot place in
time. iperf3 counts the bytes its receiver read over the receiver's own
interval; the data at the interval's edges (in flight when it started, or
written by the sender and read after the sender's interval ended) is at most
what the sender wrote and the receiver had not read, plus one segment:
    tolerance = (|bytes sent - bytes received| + MTU) / (limit * seconds)
A transfer timed from its request to its last byte (a download) has no such
edge: tolerance = MTU / (limit * seconds). A goodput above
limit * (1 + tolerance) is REFUSED: the limit or the measurement is wrong."""

TOLERANCE_MTU = 1500  # one full-size segment, the granularity of both counts


def tolerance(edge_bytes, limit_bytes_per_s, seconds, mtu=TOLERANCE_MTU):
    """The measurement's tolerance (a fraction of the limit, TOLERANCE_FORMULA)."""
    if limit_bytes_per_s <= 0 or seconds <= 0:
        return float("inf")
    return (abs(edge_bytes) + mtu) / (limit_bytes_per_s * seconds)


def verdict(goodput, limit, tol):
    """"ok" or "REFUSED": GOODPUT above LIMIT (same unit) beyond TOL (a fraction)."""
    return "REFUSED" if goodput > limit * (1 + tol) else "ok"


def refuse_above(name, lims):
    """Exit (status 1) when any limits() result LIMS was refused (TOLERANCE_FORMULA)."""
    if any(lim["verdict"] != "ok" for lim in lims):
        raise SystemExit(f"{name}: a goodput above its limit beyond the measurement's "
                         "tolerance: refused (see the result)")


def verdict_text(verdicts):
    """One sentence for a result over every row's verdict."""
    if all(v == "ok" for v in verdicts):
        return "every goodput is at or below its limit within the measurement's tolerance"
    return ("a goodput is ABOVE its limit beyond the measurement's tolerance: REFUSED, "
            "the limit or the measurement is wrong")


def frame_wire_bits(l2_bytes, ifg_bt):
    """Bits a frame of L2_BYTES (without FCS) occupies: preamble+SFD, the frame
    with FCS padded to 64 bytes, the inter-frame gap."""
    return PREAMBLE_BITS + 8 * max(l2_bytes + FCS_BYTES, MIN_FRAME_BYTES) + ifg_bt


def tcp_mss(mtu, timestamps):
    """TCP payload of a full IPv4 segment."""
    return mtu - IPV4_HDR - TCP_HDR - (TCP_TS_OPT if timestamps else 0)


def plca_schedule(snap):
    """The PLCA schedule of a snapshot's segment, or None without a coordinator
    (every node then uses CSMA/CD). Raises LimitError for set-ups the limits do
    not model: PLCA and CSMA/CD nodes mixed, shared ids, ids >= node-cnt."""
    nodes = snap["nodes"]
    on = [n for n in nodes if n["plca"]]
    coord = [n for n in on if n["node-id"] == 0]
    if not coord:
        return None
    if len(on) != len(nodes):
        raise LimitError("PLCA and CSMA/CD nodes on one segment: the limits do not model that")
    ids = [n["node-id"] for n in nodes]
    if len(set(ids)) != len(ids):
        raise LimitError(f"two nodes share a PLCA node-id ({ids})")
    cnt = coord[0]["node-cnt"]
    if max(ids) >= cnt:
        raise LimitError(f"node-id {max(ids)} >= node-cnt {cnt}: that node never gets a "
                         f"transmit opportunity")
    return {"beacon_bt": snap["beacon_bt"], "ifg_bt": snap["ifg_bt"], "to_tmr": coord[0]["to-tmr"],
            "node_cnt": cnt, "burst_cnt": [n["burst-cnt"] for n in nodes],
            "burst_tmr": [n["burst-tmr"] for n in nodes]}


def _node_silence(f, cycles, burst_cnt, wait, to_tmr):
    """Fewest silent bits in one node's CYCLES opportunities carrying F frames
    (LIMIT_FORMULA): pack every used opportunity full, or spread the frames over
    as many opportunities as possible; the cost is linear in between."""
    if burst_cnt == 0:
        return (cycles - f) * to_tmr
    packed = (cycles - f / (1 + burst_cnt)) * to_tmr
    used = min(cycles, f)
    spread = (cycles - used) * to_tmr + wait * max(0.0, used * (1 + burst_cnt) - f) / burst_cnt
    return min(packed, spread)


def plca_overhead(frames, plca):
    """Fewest PLCA cycles, beacon and silence bits of a busy segment that carries
    FRAMES[k] frames from node k (PLCA None: all 0). Counts (ints) need whole
    cycles; rates (floats, per data segment) fractional ones."""
    if plca is None:
        return {"cycles": 0, "beacon_bits": 0, "silence_bits": 0}
    whole = all(isinstance(f, int) for f in frames)
    cycles = max(((-(-f // (1 + b)) if whole else f / (1 + b))
                  for f, b in zip(frames, plca["burst_cnt"])), default=0)
    silence = (plca["node_cnt"] - len(frames)) * cycles * plca["to_tmr"]
    for f, b, tmr in zip(frames, plca["burst_cnt"], plca["burst_tmr"]):
        wait = max(plca["ifg_bt"], tmr) - plca["ifg_bt"]
        silence += _node_silence(f, cycles, b, wait, plca["to_tmr"])
    return {"cycles": cycles, "beacon_bits": cycles * plca["beacon_bt"], "silence_bits": silence}


def same_setup(before, after):
    """The PLCA schedule of a run; LimitError if the settings changed during it."""
    plca = plca_schedule(after)
    keys = PLCA_KEYS + ("mtu", "timestamps")
    if [[n[k] for k in keys] for n in before["nodes"]] != \
            [[n[k] for k in keys] for n in after["nodes"]]:
        raise LimitError("PLCA settings, MTU or TCP options changed during the run")
    return plca


def medium_limit(before, after, payload_bytes):
    """The wire-time limit of what crossed the segment between two snapshots
    (LIMIT_FORMULA, WIRE UTILISATION): payload_bytes / t_min.

    Returns limit (B/s), t_min (s), frame_bits, plca_bits, cycles, paid_bits
    (PLCA overhead the medium actually paid) and frames (per port).
    """
    d = delta(after["segment"], before["segment"])
    frames = [d.get(f"port{k}_frames", 0) for k in range(len(after["nodes"]))]
    frame_bits = d["preamble_bits"] + d["frame_bits"] + d["ifg_bits"]
    ov = plca_overhead(frames, same_setup(before, after))
    plca_bits = ov["beacon_bits"] + ov["silence_bits"]
    t_min = (frame_bits + plca_bits) * after["bit_ns"] / 1e9
    return {"limit": payload_bytes / t_min if t_min else 0.0, "t_min": t_min,
            "frame_bits": frame_bits, "plca_bits": plca_bits, "cycles": ov["cycles"],
            "paid_bits": d["beacon_bits"] + d["silence_bits"], "frames": frames}


def ack_ratio(before, after):
    """Pure ACKs per data segment the TCP stacks of all nodes sent (LIMIT_FORMULA r)."""
    acks = data = retrans = 0
    for b, a in zip(before["nodes"], after["nodes"]):
        d = delta(a["tcp"], b["tcp"])
        acks += d["Tcp.OutSegs"] - d["TcpExt.TCPOrigDataSent"]
        data += d["TcpExt.TCPOrigDataSent"] + d["Tcp.RetransSegs"]
        retrans += d["Tcp.RetransSegs"]
    return {"ratio": acks / data if data else 0.0, "acks": acks, "data_segments": data,
            "retransmits": retrans}


def apriori_limit(mtu, timestamps, ratio, flows, nodes, plca, ifg_bt, bit_ns):
    """The a-priori goodput limit (B/s) of FLOWS [(sender, receiver), ...] on a
    segment of NODES nodes (LIMIT_FORMULA, A-PRIORI), with its terms per data
    segment."""
    if not flows:
        raise LimitError("no flows: the a-priori limit needs a traffic pattern")
    mss = tcp_mss(mtu, timestamps)
    ack_l2 = ETH_HDR + IPV4_HDR + TCP_HDR + (TCP_TS_OPT if timestamps else 0)
    data_bits, ack_bits = frame_wire_bits(ETH_HDR + mtu, ifg_bt), frame_wire_bits(ack_l2, ifg_bt)
    f = [(sum(s == k for s, _ in flows) + ratio * sum(r == k for _, r in flows)) / len(flows)
         for k in range(nodes)]
    ov = plca_overhead(f, plca)
    plca_bits = ov["beacon_bits"] + ov["silence_bits"]
    bits = data_bits + ratio * ack_bits + plca_bits
    return {"limit": mss / (bits * bit_ns / 1e9), "mss": mss, "mtu": mtu, "timestamps": timestamps,
            "data_frame": ETH_HDR + mtu + FCS_BYTES, "data_bits": data_bits,
            "ack_frame": max(ack_l2 + FCS_BYTES, MIN_FRAME_BYTES), "ack_bits": ack_bits,
            "ratio": ratio, "cycles": ov["cycles"], "plca_bits": plca_bits, "bits": bits,
            "frames": f}


def limits(before, after, payload_bytes, seconds, flows, edge_bytes=0):
    """Goodput of a transfer of PAYLOAD_BYTES in SECONDS against both limits
    (LIMIT_FORMULA): the a-priori limit of FLOWS at the measured ACK ratio, and
    the wire utilisation; with the measurement's tolerance (TOLERANCE_FORMULA;
    EDGE_BYTES 0 for a transfer timed end to end) and the verdict against the
    a-priori limit. Raises LimitError for set-ups they do not model."""
    nodes = after["nodes"]
    plca = same_setup(before, after)
    acks = ack_ratio(before, after)
    ap = apriori_limit(min(n["mtu"] for n in nodes), all(n["timestamps"] for n in nodes),
                       acks["ratio"], flows, len(nodes), plca, after["ifg_bt"], after["bit_ns"])
    wire = medium_limit(before, after, payload_bytes)
    goodput = payload_bytes / seconds if seconds else 0.0
    tol = tolerance(edge_bytes, ap["limit"], seconds)
    return {"goodput": goodput, "apriori": ap, "wire": wire, "acks": acks, "plca": plca,
            "pct_apriori": 100 * goodput / ap["limit"],
            "utilisation": 100 * goodput / wire["limit"] if wire["limit"] else 0.0,
            "tolerance_pct": 100 * tol, "verdict": verdict(goodput, ap["limit"], tol)}


def describe_limits(lim):
    """Lines that state a limits() result and its inputs (for the demo and results)."""
    ap, w, a, p = lim["apriori"], lim["wire"], lim["acks"], lim["plca"]
    plca = ("CSMA/CD, no PLCA terms" if p is None else
            f"PLCA beacon {p['beacon_bt']} + to-tmr {p['to_tmr']} x node-cnt {p['node_cnt']}, "
            f"burst-cnt {'/'.join(map(str, p['burst_cnt']))}")
    return [
        f"a-priori limit: MTU {ap['mtu']}, TCP timestamps {'on' if ap['timestamps'] else 'off'}"
        f" -> MSS {ap['mss']} B in a {ap['data_frame']} B frame ({ap['data_bits']} bits on the"
        f" wire); ACK {ap['ack_frame']} B ({ap['ack_bits']} bits) at the measured ACK ratio"
        f" {a['ratio']:.3f} ({a['acks']} pure ACKs / {a['data_segments']} data segments,"
        f" {a['retransmits']} of them retransmitted); {plca}: {ap['plca_bits']:.1f} bits"
        f" ({ap['cycles']:.3f} cycles) per data segment; {ap['mss']} B per {ap['bits']:.1f}"
        f" bits = {ap['limit'] / 1024:.1f} KiB/s ({ap['limit'] * 8 / 1e6:.3f} Mb/s)",
        f"wire-time limit: frames on the wire "
        f"{', '.join(f'port{i} {f}' for i, f in enumerate(w['frames']))}; "
        f"preamble+frame+IFG {w['frame_bits']} bits + PLCA {w['plca_bits']:.0f} bits "
        f"({w['cycles']:.0f} cycles; the medium paid {w['paid_bits']}) = {w['t_min']:.3f} s",
        f"goodput {lim['goodput'] / 1024:.1f} KiB/s = {lim['pct_apriori']:.1f} % of the "
        f"a-priori limit ({ap['limit'] / 1024:.1f} KiB/s); wire utilisation "
        f"{lim['utilisation']:.1f} %; the measurement's tolerance "
        f"{lim['tolerance_pct']:.4f} %: {lim['verdict']}",
    ]


# ---- round trip times -----------------------------------------------------------------------

ICMP_HDRS = 14 + 20 + 8  # Ethernet + IPv4 + ICMP headers
CHUNK_PAYLOAD, CHUNK_WORD = 64, 4  # TC6 data chunk: 64 bytes + header/footer word

RTT_FORMULA = """\
For an ICMP echo of P payload bytes the frame is L = max(14 + 20 + 8 + P + 4, 64)
bytes (Ethernet, IPv4, ICMP headers, FCS). One way, store and forward at every step:
    spi    = setup_ns + ceil(L / 64) * 68 * 8 / spi_hz    (one data transfer of
             ceil(L/64) chunks, 64 payload bytes + 4 header/footer bytes each)
    wire   = (8 + L) * 8 * 100 ns                         (preamble+SFD and frame)
    one_way = spi (sender writes the frame) + wire + spi (receiver reads it)
    rtt_min = 2 * one_way + host_delay                    (the reply has the same size;
             host_delay: the irq_delay_us the pinging host sleeps before it reads
             the reply, 0 unless set)
With RX and TX cut-through on both nodes (docs/tc6.md §5.4.1) the SPI overlaps the wire:
    tx_lead = setup_ns + min(ceil(L / 64), 2) * 68 * 8 / spi_hz   (the frame may start
             once QTXCFG.CTTHR = 2 blocks are in, or all of a shorter frame)
    rx_tail = setup_ns + 68 * 8 / spi_hz                  (its last chunk is readable at
             the frame's end; the host reads it in one more transfer)
    one_way = tx_lead + wire + rx_tail
No frame can go faster: the wait for a PLCA transmit opportunity counts 0 here (at
best the node's opportunity is now; on an idle 2-node segment it is (beacon_bt +
node_cnt * to_tmr) / 2 bit times on average). The model returns no SPI transfer
before its end on the bus (slack_us=0, docs/design.md §4.2), so a measured minimum
below rtt_min means an effect was seen before its physical time: the verdict says
so. Everything above rtt_min is host time (IRQ to poll, extra transfers, TAP and
kernel stack) and the PLCA wait."""


def rtt_bound(payload, spi_hz, setup_ns, host_delay_us=0, cut_through=False):
    """The least RTT (us) of a ping with PAYLOAD bytes and its parts (RTT_FORMULA);
    CUT_THROUGH: RX and TX cut-through on both nodes (CTTHR 2 blocks)."""
    frame = max(ICMP_HDRS + payload + 4, 64)
    chunks = -(-frame // CHUNK_PAYLOAD)
    chunk_ns = (CHUNK_PAYLOAD + CHUNK_WORD) * 8 * 1e9 / spi_hz
    spi = setup_ns + chunks * chunk_ns
    wire = (8 + frame) * 8 * 100
    if cut_through:
        one_way = (setup_ns + min(chunks, 2) * chunk_ns) + wire + (setup_ns + chunk_ns)
    else:
        one_way = 2 * spi + wire
    return {"frame": frame, "chunks": chunks, "spi_us": spi / 1000, "wire_us": wire / 1000,
            "rtt_us": 2 * one_way / 1000 + host_delay_us}


def rtt_verdict(min_rtt_us, bound_us):
    """'ok' when MIN_RTT_US is at least BOUND_US, else 'BELOW' (an effect came early)."""
    return "ok" if min_rtt_us >= bound_us else "BELOW"
