"""ethdrv_bench: the shared pieces of the system benchmarks (docs/design.md §7).

Every `bench/<NAME>.py` is run by `ethdrv bench NAME [ARGS]` (tools/ethdrv/bench.c),
as root, with ETHDRV_BIN set to the ethdrv binary. This module gives them:

- Segment: start/stop `ethdrv segment` with options, wait until the segment
  socket and every node's socket answer, always clean up (context manager,
  also on SIGINT/SIGTERM). It waits while another segment owns the t1s*
  namespaces (the machine is shared).
- request(), Segment.stats()/get()/set(): the control sockets
  /run/ethdrv/<name>.sock (README "Control socket protocol"), stats as JSON.
- delta(), hist_delta(), hist_percentile(): counters and histograms of a run.
- run_in()/popen_in(): a command in a node's network namespace; netstat():
  its TCP/IP counters (retransmissions, timeouts).
- make_blob(), HttpServer, download(), sha256_file(): the seed-000 transfer.
- snapshot() (before and after a transfer), limits(), describe_limits(): the
  goodput against the a-priori goodput limit of the traffic pattern at the
  ACK ratio measured in the run, and the wire utilisation (LIMIT_FORMULA;
  apriori_limit(), medium_limit(), plca_overhead(), ack_ratio() are the
  parts). scripts/demo.sh uses the same code (command line below).
- RTT_FORMULA, rtt_bound(), ping_rtts(), rtt_verdict(): a ping's round trip
  against the least time physics allows (tc6-latency, tc6-irq-policy).
- percentile(), Progress (a bar on stderr), md_table(), write_result()
  (markdown with the machine, the date and the exact command), gnuplot().

Command line (for shell scripts):
  python3 ethdrv_bench.py snapshot NODES >FILE.json
      (root, a live segment of NODES nodes) what limits needs, as JSON
  python3 ethdrv_bench.py limits BEFORE.json AFTER.json BYTES SECONDS FLOWS
      the goodput of BYTES in SECONDS against both limits, with their inputs;
      FLOWS = SENDER:RECEIVER[,SENDER:RECEIVER...] (node indexes, 1:0 = t1s1
      sends to t1s0). Exit 1 if the set-up is one the limits do not model.
"""

import atexit
import datetime
import hashlib
import json
import os
import platform
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent.parent
RESULTS_DIR = SOURCE_DIR / "bench" / "results"
RUN_DIR = Path("/run/ethdrv")
SEGMENT_MARKER = RUN_DIR / "segment.pid"
# PLCA TOTMR and BTMR reset values (docs/tc6.md §3.6): older drivers report 0 for them
TO_TMR_DEFAULT, BURST_TMR_DEFAULT = 32, 128
PLCA_KEYS = ("plca", "node-id", "node-cnt", "to-tmr", "burst-cnt", "burst-tmr")


def ethdrv_bin():
    """The ethdrv binary: $ETHDRV_BIN (set by `ethdrv bench`) or build/ethdrv."""
    return os.environ.get("ETHDRV_BIN") or str(SOURCE_DIR / "build" / "ethdrv")


def ethdrv(*args, check=True, timeout=60):
    """Run `ethdrv ARGS...` and return its stdout (raises on failure if check)."""
    r = subprocess.run([ethdrv_bin(), *map(str, args)], capture_output=True, text=True,
                       timeout=timeout)
    if check and r.returncode:
        raise RuntimeError(f"ethdrv {' '.join(map(str, args))}: {r.stderr.strip()}")
    return r.stdout


def netns(k):
    """Namespace (and interface) name of segment node k."""
    return f"t1s{k}"


def addr(k):
    """IPv4 address of segment node k."""
    return f"169.254.10.{k + 1}"


def log(msg):
    """One line on stderr (stdout stays for results)."""
    print(msg, file=sys.stderr, flush=True)


# ---- control sockets ----------------------------------------------------------


def request(name, line, timeout=5.0):
    """Send one request to /run/ethdrv/NAME.sock; return the reply after "ok"."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(RUN_DIR / f"{name}.sock"))
        s.sendall(line.encode() + b"\n")
        chunks = []
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
    reply = b"".join(chunks).decode()
    head, _, body = reply.partition("\n")
    if head != "ok":
        raise RuntimeError(f"{name}: {line}: {head}")
    return body


def answers(name):
    """True if NAME's control socket answers a request."""
    try:
        request(name, "help", timeout=1.0)
        return True
    except (OSError, RuntimeError):
        return False


def stats(name):
    """Counters of a node ("t1s0") or of the medium ("segment") as a dict."""
    return json.loads(request(name, "stats json"))


def delta(after, before):
    """after - before for every numeric counter (histograms are left out)."""
    return {k: v - before.get(k, 0) for k, v in after.items() if isinstance(v, (int, float))}


def hist_delta(after, before):
    """Bucket counts of a histogram during a run: {upper_bound: count}."""
    a, b = after.get("buckets", {}), before.get("buckets", {})
    return {int(k): v - b.get(k, 0) for k, v in a.items() if v - b.get(k, 0) > 0}


def hist_percentile(buckets, p):
    """Upper bound of the bucket holding the p-th percentile (0 if empty)."""
    total = sum(buckets.values())
    if not total:
        return 0
    need, seen = total * p / 100.0, 0
    for bound in sorted(buckets):
        seen += buckets[bound]
        if seen >= need:
            return bound
    return max(buckets)


# ---- the segment ----------------------------------------------------------------


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def segment_busy(marker=SEGMENT_MARKER):
    """Pid of the live segment whose MARKER names it (by default the one that
    owns the t1s* namespaces), else 0."""
    try:
        pid = int(marker.read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pid if _pid_alive(pid) else 0


class Segment:
    """`ethdrv segment --nodes N` in the background; use it as a context manager.

    device: "emu:lan8650,..." model options; sets: ["key=value", ...] knobs
    for every node (--set); args: more segment options. start() waits up to
    busy_wait_s while another segment runs, then until every control socket
    answers. stop() sends SIGTERM (SIGKILL + --cleanup after 20 s).
    """

    _live = []
    SOCK, PREFIX, MARKER = "segment", "t1s", SEGMENT_MARKER  # the kind's names

    def __init__(self, nodes=2, device=None, sets=(), args=(), busy_wait_s=1800):
        self.nodes = nodes
        self.cmd = [ethdrv_bin(), "segment", "--nodes", str(nodes)]
        if device:
            self.cmd += ["--device", device]
        for kv in sets:
            self.cmd += ["--set", kv]
        self.cmd += list(args)
        self.busy_wait_s = busy_wait_s
        self.proc = None
        self.log = None

    def start(self):
        self._wait_free()
        self.log = tempfile.NamedTemporaryFile("w+", prefix="ethdrv-seg.", suffix=".log")
        self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        Segment._live.append(self)
        names = [self.SOCK] + [self.node(k) for k in range(self.nodes)]
        deadline = time.monotonic() + 60
        while not all(answers(n) for n in names):
            if self.proc.poll() is not None:
                out = self._log_text()
                self.proc = None
                if "in use by a live" in out:  # lost a race for the namespaces
                    return self.start()
                raise RuntimeError(f"ethdrv segment exited during bring-up:\n{out}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("segment not up after 60 s")
            time.sleep(0.1)
        return self

    def _wait_free(self):
        deadline, told = time.monotonic() + self.busy_wait_s, False
        while (pid := segment_busy(self.MARKER)):
            if not told:
                log(f"bench: another run (pid {pid}) owns the {self.PREFIX}* namespaces; "
                    "waiting")
                told = True
            if time.monotonic() > deadline:
                raise RuntimeError(f"segment pid {pid} still running after {self.busy_wait_s} s")
            time.sleep(1)

    def _log_text(self):
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                ethdrv("segment", "--cleanup", check=False)
            self.proc = None
        if self in Segment._live:
            Segment._live.remove(self)
        if self.log:
            self.log.close()
            self.log = None

    def node(self, k):
        """Namespace (and interface) name of node k of this kind."""
        return f"{self.PREFIX}{k}"

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def stats(self, name="segment"):
        return stats(name)

    def get(self, name, key):
        """One knob (or segment fact) as a string."""
        return request(name, f"get {key}").strip().partition("=")[2]

    def set(self, name, *pairs):
        """Set "key=value" knobs on one node."""
        request(name, "set " + " ".join(pairs))

    def set_all(self, *pairs):
        for k in range(self.nodes):
            self.set(netns(k), *pairs)

    def to_tmr(self):
        v = int(self.get(netns(0), "to-tmr"))
        return v or TO_TMR_DEFAULT

    def beacon_bt(self):
        return int(self.get("segment", "beacon_bt"))

    def snapshot(self):
        """snapshot() of this segment: take one before and one after a transfer."""
        return snapshot(self.nodes)


class EnetLink(Segment):
    """`ethdrv segment --device emu:enet,...`: nodes enet0 and enet1 on a
    full-duplex line whose counters are the "link" socket's. start() returns
    once both nodes have carrier (the command waits for it)."""

    SOCK, PREFIX, MARKER = "link", "enet", RUN_DIR / "link.pid"

    def __init__(self, device="emu:enet", sets=(), args=(), busy_wait_s=1800):
        super().__init__(2, device, sets, args, busy_wait_s)


def _stop_all():
    for s in list(Segment._live):
        s.stop()


def _on_signal(signum, frame):
    _stop_all()
    sys.exit(128 + signum)


atexit.register(_stop_all)
signal.signal(signal.SIGTERM, _on_signal)
signal.signal(signal.SIGINT, _on_signal)


# ---- commands in namespaces, the HTTP transfer ------------------------------------------


def run_in(ns, cmd, timeout=600, check=True, **kw):
    """Run CMD (a list) in namespace NS; CompletedProcess with text output."""
    return subprocess.run(["ip", "netns", "exec", ns, *cmd], capture_output=True, text=True,
                          timeout=timeout, check=check, **kw)


def popen_in(ns, cmd, **kw):
    """Start CMD in namespace NS in the background (stdout/stderr to /dev/null by default)."""
    kw.setdefault("stdout", subprocess.DEVNULL)
    kw.setdefault("stderr", subprocess.DEVNULL)
    return subprocess.Popen(["ip", "netns", "exec", ns, *cmd], **kw)


def _proc_counters(lines):
    """/proc/net/snmp and /proc/net/netstat lines (name rows, value rows) as a dict."""
    res = {}
    for names, values in zip(lines[0::2], lines[1::2]):
        proto = names.split(":")[0]
        for k, v in zip(names.split()[1:], values.split()[1:]):
            res[f"{proto}.{k}"] = int(v)
    return res


def netstat(ns):
    """The kernel's protocol counters in namespace NS: {"Tcp.RetransSegs": n, ...}."""
    return _proc_counters(run_in(ns, ["cat", "/proc/net/snmp", "/proc/net/netstat"]).stdout
                          .splitlines())


def node_host(k):
    """Node k's interface MTU, whether its TCP uses timestamps, and its protocol counters."""
    ns = netns(k)
    out = run_in(ns, ["cat", f"/sys/class/net/{ns}/mtu", "/proc/sys/net/ipv4/tcp_timestamps",
                      "/proc/net/snmp", "/proc/net/netstat"]).stdout.splitlines()
    return {"mtu": int(out[0]), "timestamps": int(out[1]) != 0, "tcp": _proc_counters(out[2:])}


def get_keys(name, keys):
    """Several knobs (or segment facts) of NAME in one request: {key: "value"}."""
    lines = request(name, "get " + " ".join(keys)).splitlines()
    return dict(line.strip().partition("=")[::2] for line in lines if "=" in line)


def plca_settings(name):
    """A node's PLCA knobs with the reset values for the 0s the driver reports for them."""
    v = get_keys(name, PLCA_KEYS)
    res = {k: int(v[k]) for k in PLCA_KEYS[1:]}
    res["plca"] = v["plca"] == "on"
    res["to-tmr"] = res["to-tmr"] or TO_TMR_DEFAULT
    res["burst-tmr"] = res["burst-tmr"] or BURST_TMR_DEFAULT
    return res


def snapshot(nodes):
    """What limits() needs from a live segment of NODES nodes: the medium's
    counters and facts, each node's PLCA settings, MTU, TCP options and counters.
    A dict that survives JSON (scripts/demo.sh keeps it in a file)."""
    facts = get_keys("segment", ("beacon_bt", "ifg_bt", "bit_ns"))
    snap = {"segment": stats("segment"), "nodes": [],
            **{k: int(v) for k, v in facts.items()}}
    for k in range(nodes):
        snap["nodes"].append({"name": netns(k), **plca_settings(netns(k)), **node_host(k)})
    return snap


def stop_proc(p, timeout=5):
    """Terminate a background process and reap it."""
    if p and p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def make_blob(path, size, seed=0):
    """Write SIZE pseudo-random bytes (same for the same seed); return their sha256."""
    data = random.Random(seed).randbytes(size)
    Path(path).write_bytes(data)
    return hashlib.sha256(data).hexdigest()


class HttpServer:
    """`python3 -m http.server` in namespace NS on ADDR:PORT serving DIRECTORY.

    start() waits until a client in CLIENT_NS can fetch "/".
    """

    def __init__(self, ns, address, directory, client_ns, port=8000):
        self.ns, self.address, self.directory, self.port = ns, address, directory, port
        self.client_ns = client_ns
        self.proc = None

    def url(self, path=""):
        return f"http://{self.address}:{self.port}/{path}"

    def __enter__(self):
        self.proc = popen_in(self.ns, [sys.executable, "-m", "http.server", str(self.port),
                                       "--bind", self.address, "--directory", str(self.directory)])
        for _ in range(100):
            if run_in(self.client_ns, ["curl", "-s", "-o", "/dev/null", "--max-time", "2",
                                       self.url()], check=False).returncode == 0:
                return self
            time.sleep(0.2)
        stop_proc(self.proc)
        raise RuntimeError(f"http.server in {self.ns} does not answer")

    def __exit__(self, *exc):
        stop_proc(self.proc)


def download(ns, url, out, timeout=600):
    """curl URL to OUT from namespace NS: {"bytes", "seconds", "speed" (B/s, curl's average)}."""
    r = run_in(ns, ["curl", "-s", "--max-time", str(timeout), "-o", str(out), "-w",
                    "%{size_download} %{time_total} %{speed_download}", url],
               timeout=timeout + 10)
    size, secs, speed = r.stdout.split()
    return {"bytes": int(size), "seconds": float(secs), "speed": float(speed)}


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


def limits(before, after, payload_bytes, seconds, flows):
    """Goodput of a transfer of PAYLOAD_BYTES in SECONDS against both limits
    (LIMIT_FORMULA): the a-priori limit of FLOWS at the measured ACK ratio, and
    the wire utilisation. Raises LimitError for set-ups they do not model."""
    nodes = after["nodes"]
    plca = same_setup(before, after)
    acks = ack_ratio(before, after)
    ap = apriori_limit(min(n["mtu"] for n in nodes), all(n["timestamps"] for n in nodes),
                       acks["ratio"], flows, len(nodes), plca, after["ifg_bt"], after["bit_ns"])
    wire = medium_limit(before, after, payload_bytes)
    goodput = payload_bytes / seconds if seconds else 0.0
    return {"goodput": goodput, "apriori": ap, "wire": wire, "acks": acks, "plca": plca,
            "pct_apriori": 100 * goodput / ap["limit"],
            "utilisation": 100 * goodput / wire["limit"] if wire["limit"] else 0.0}


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
        f"{lim['utilisation']:.1f} %",
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


def ping_rtts(src, dst_addr, payload, count, interval):
    """RTTs (us) of COUNT pings from namespace SRC to DST_ADDR with PAYLOAD bytes."""
    r = run_in(src, ["ping", "-n", "-c", str(count), "-i", str(interval), "-s", str(payload),
                     "-W", "2", dst_addr], check=False)
    return [float(x) * 1000 for x in re.findall(r"time=([0-9.]+) ms", r.stdout)]


def rtt_verdict(min_rtt_us, bound_us):
    """'ok' when MIN_RTT_US is at least BOUND_US, else 'BELOW' (an effect came early)."""
    return "ok" if min_rtt_us >= bound_us else "BELOW"


# ---- numbers, progress, results -------------------------------------------------------------


def percentile(values, p):
    """p-th percentile (0..100) with linear interpolation; 0 for no values."""
    v = sorted(values)
    if not v:
        return 0.0
    x = (len(v) - 1) * p / 100.0
    i = int(x)
    return v[i] + (v[min(i + 1, len(v) - 1)] - v[i]) * (x - i)


def jain(values):
    """Jain's fairness index: (sum x)^2 / (n * sum x^2); 1 = equal shares."""
    s2 = sum(x * x for x in values)
    return sum(values) ** 2 / (len(values) * s2) if s2 else 0.0


class Progress:
    """A progress bar on stderr: Progress(total, title); step(label); close()."""

    def __init__(self, total, title, width=30):
        self.total, self.title, self.width = total, title, width
        self.done, self.t0 = 0, time.monotonic()
        self.tty = sys.stderr.isatty()
        self.draw("starting")

    def draw(self, label):
        fill = self.width * self.done // max(self.total, 1)
        el = time.monotonic() - self.t0
        eta = el / self.done * (self.total - self.done) if self.done else 0
        line = (f"{self.title} [{'#' * fill}{'.' * (self.width - fill)}] "
                f"{self.done}/{self.total} {el:4.0f}s eta {eta:4.0f}s  {label}")
        if self.tty:
            sys.stderr.write("\r\033[K" + line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def step(self, label=""):
        self.done += 1
        self.draw(label)

    def close(self):
        if self.tty:
            sys.stderr.write("\n")
        sys.stderr.flush()


def machine():
    """One line describing the host: CPU model, CPUs, kernel, RAM."""
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem = int(open("/proc/meminfo").readline().split()[1]) // 1024 // 1024
    except OSError:
        mem = 0
    return f"{cpu}, {os.cpu_count()} CPUs, {mem} GiB, Linux {platform.release()}"


def command_line():
    """The exact command that ran this benchmark (as `ethdrv bench` was called)."""
    return os.environ.get("ETHDRV_BENCH_CMD") or " ".join(map(shlex.quote, sys.argv))


def git_rev():
    r = subprocess.run(["git", "-C", str(SOURCE_DIR), "describe", "--always", "--dirty"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def md_table(headers, rows):
    """A markdown table; columns whose first cell is a number are right-aligned."""
    def numeric(x):
        try:
            float(x)
            return True
        except (TypeError, ValueError):
            return False
    out = ["| " + " | ".join(headers) + " |",
           "|" + "|".join("---:" if rows and numeric(rows[0][i]) else "---"
                          for i in range(len(headers))) + "|"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def write_result(name, title, body, results_dir=None):
    """Write RESULTS/NAME.md: title, machine, date, command, then BODY (markdown)."""
    d = Path(results_dir or RESULTS_DIR)
    d.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = (f"# {title}\n\n- machine: {machine()}\n- date: {now}\n"
            f"- source: ethdrv {git_rev()}\n- command: `{command_line()}`\n\n")
    path = d / f"{name}.md"
    path.write_text(head + body)
    return path


def gnuplot(script, png, data=None):
    """Render SCRIPT (gnuplot commands) to PNG; DATA maps $names to text blocks.

    Each DATA entry becomes an inline data block ($name << EOD ... EOD).
    """
    blocks = "".join(f"${k} << EOD\n{v.rstrip()}\nEOD\n" for k, v in (data or {}).items())
    prog = (f"set terminal pngcairo noenhanced size 1200,600 font 'sans,10'\nset output '{png}'\n"
            f"{blocks}{script}\n")
    r = subprocess.run(["gnuplot"], input=prog, text=True, capture_output=True)
    if r.returncode:
        raise RuntimeError(f"gnuplot failed:\n{r.stderr}")
    return png


def parse_flows(text):
    """"S:R[,S:R...]" (node indexes) as [(S, R), ...]; ValueError if malformed."""
    flows = [tuple(int(x) for x in f.split(":")) for f in text.split(",")]
    if any(len(f) != 2 or f[0] == f[1] or min(f) < 0 for f in flows):
        raise ValueError(f"bad flows '{text}': SENDER:RECEIVER[,...], two different nodes each")
    return flows


def _main(argv):
    try:
        if len(argv) == 2 and argv[0] == "snapshot":
            json.dump(snapshot(int(argv[1])), sys.stdout)
            return 0
        if len(argv) == 6 and argv[0] == "limits":
            before, after = (json.load(open(p)) for p in argv[1:3])
            lim = limits(before, after, int(argv[3]), float(argv[4]), parse_flows(argv[5]))
            print("\n".join(describe_limits(lim)))
            return 0
    except LimitError as e:
        print(f"ethdrv_bench: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"ethdrv_bench: {e}", file=sys.stderr)
    print(__doc__.split("Command line")[1].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
