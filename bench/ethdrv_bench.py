"""ethdrv_bench: the shared pieces of the system benchmarks (docs/design.md §7).

Every `bench/<NAME>.py` is run by `ethdrv bench NAME [ARGS]` (tools/ethdrv/bench.c),
as root, with ETHDRV_BIN set to the ethdrv binary. This module gives them:

- Segment: start/stop `ethdrv segment` with options, wait until the segment
  socket and every node's socket answer, always clean up (context manager,
  also on SIGINT/SIGTERM). It waits while another segment owns the t1s*
  namespaces (the machine is shared).
- request(), Segment.stats()/get()/set(): the control sockets
  /run/ethdrv/<name>.sock (docs/control.md), stats as JSON.
- delta(), hist_delta(), hist_percentile(): counters and histograms of a run.
- run_in()/popen_in(): a command in a node's network namespace; netstat():
  its TCP/IP counters (retransmissions, timeouts).
- make_blob(), HttpServer, download(), sha256_file(): the seed-000 transfer.
- snapshot() (before and after a transfer), and from bench/ethdrv_limits.py
  (re-exported here) limits(), describe_limits(): the goodput against the
  a-priori goodput limit of the traffic pattern at the ACK ratio measured in
  the run, and the wire utilisation (LIMIT_FORMULA; apriori_limit(),
  medium_limit(), plca_overhead(), ack_ratio() are the parts).
  scripts/demo.sh uses the same code (command line below).
- RTT_FORMULA, rtt_bound(), rtt_verdict() (ethdrv_limits.py), ping_rtts():
  a ping's round trip against the least time physics allows (tc6-latency,
  tc6-irq-policy).
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
import ctypes
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
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ethdrv_limits import *  # noqa: F401,F403  (the benchmarks use the limits from here)
from ethdrv_limits import PLCA_KEYS, delta

SOURCE_DIR = Path(__file__).resolve().parent.parent
RESULTS_DIR = SOURCE_DIR / "bench" / "results"
RUN_DIR = Path("/run/ethdrv")
SEGMENT_MARKER = RUN_DIR / "segment.pid"
# PLCA TOTMR and BTMR reset values (docs/tc6.md §3.6): older drivers report 0 for them
TO_TMR_DEFAULT, BURST_TMR_DEFAULT = 32, 128


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


class GbethLink(Segment):
    """`ethdrv segment --device emu:gbeth,...`: nodes gbeth0 and gbeth1 (Renesas
    GbEth models, the ravb driver) on a full-duplex line whose counters are the
    "gbeth-link" socket's."""

    SOCK, PREFIX, MARKER = "gbeth-link", "gbeth", RUN_DIR / "gbeth-link.pid"

    def __init__(self, device="emu:gbeth", sets=(), args=(), busy_wait_s=1800):
        super().__init__(2, device, sets, args, busy_wait_s)


class EtsecLink(Segment):
    """`ethdrv segment --device emu:etsec,...`: nodes tsec0 and tsec1 (Freescale
    eTSEC models, the gianfar driver) on a full-duplex line whose counters are
    the "tsec-link" socket's."""

    SOCK, PREFIX, MARKER = "tsec-link", "tsec", RUN_DIR / "tsec-link.pid"

    def __init__(self, device="emu:etsec", sets=(), args=(), busy_wait_s=1800):
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


def popen_ready(ns, cmd, ready, timeout=2.0, **kw):
    """popen_in() of a program that creates the file READY once it listens (udp-sink's
    --ready), then wait for that file, at most TIMEOUT s or until the program exits."""
    p = popen_in(ns, cmd, **kw)
    end = time.monotonic() + timeout
    while not os.path.exists(ready) and p.poll() is None and time.monotonic() < end:
        time.sleep(0.01)
    return p


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


def ping_rtts(src, dst_addr, payload, count, interval):
    """RTTs (us) of COUNT pings from namespace SRC to DST_ADDR with PAYLOAD bytes."""
    r = run_in(src, ["ping", "-n", "-c", str(count), "-i", str(interval), "-s", str(payload),
                     "-W", "2", dst_addr], check=False)
    return [float(x) * 1000 for x in re.findall(r"time=([0-9.]+) ms", r.stdout)]


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


_SCHED_ATTR = "IIQiIQQQ"  # struct sched_attr, SCHED_ATTR_SIZE_VER0 (48 bytes): size,
# policy, flags, nice, priority, runtime, deadline, period
_SCHED_NR = {"x86_64": (314, 315), "aarch64": (274, 275)}  # sched_setattr, sched_getattr


def _sched_attr_call(which, tid, buf, *extra):
    nrs = _SCHED_NR.get(platform.machine())
    if nrs is None:
        raise OSError(f"sched_setattr: no syscall number known for {platform.machine()}")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(nrs[which], tid, buf, *extra):
        err = ctypes.get_errno()
        raise OSError(err, f"sched_{('set', 'get')[which]}attr({tid}): {os.strerror(err)}")


def set_fair_slice(tid, slice_ns):
    """Set thread TID's EEVDF request size (sched_attr.sched_runtime of a SCHED_OTHER
    thread; Linux 6.12+ clamps it to 0.1-100 ms, older kernels ignore it) by
    sched_setattr(2), which Python's os module does not wrap."""
    attr = struct.pack(_SCHED_ATTR, struct.calcsize(_SCHED_ATTR), 0, 0, 0, 0, slice_ns, 0, 0)
    _sched_attr_call(0, tid, ctypes.create_string_buffer(attr), 0)


def fair_slice(tid):
    """Thread TID's EEVDF request size in ns, as sched_getattr(2) reports it."""
    size = struct.calcsize(_SCHED_ATTR)
    buf = ctypes.create_string_buffer(size)
    _sched_attr_call(1, tid, buf, size, 0)
    return struct.unpack(_SCHED_ATTR, buf.raw)[5]


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


def _proc_stat_cpu():
    """The "cpu" line of /proc/stat: total and steal ticks (USER_HZ), or (0, 0)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    return sum(v[:8]), (v[7] if len(v) > 7 else 0)


def host_sample():
    """The host's conditions now, for host_conditions(): load average, CPU ticks."""
    total, steal = _proc_stat_cpu()
    return {"t": time.monotonic(), "load": os.getloadavg(), "total": total, "steal": steal}


def host_conditions(before, after=None):
    """Load and steal of a run between two host_sample()s (docs/design.md §4.8).

    load1 is the 1-minute load average at the end; steal_ms the VM's stolen
    CPU time over all CPUs during the run (/proc/stat steal, 10 ms ticks)
    and steal_pct its share of all CPU time then."""
    after = after or host_sample()
    dt, ds = after["total"] - before["total"], after["steal"] - before["steal"]
    return {"load1": after["load"][0], "steal_ms": ds * 1000 / os.sysconf("SC_CLK_TCK"),
            "steal_pct": 100 * ds / dt if dt > 0 else 0.0,
            "seconds": after["t"] - before["t"]}


def loss_causes(d, after=None, group="emu"):
    """The model's losses of a stats delta D by cause (docs/design.md §4.8):
    dict driver/lab/steal/injected, and gap_max_us, the longest driver
    service gap that ended in a loss since the node started (from AFTER,
    the absolute stats at the end; a maximum has no delta)."""
    def g(k):
        return d.get(f"{group}_{k}", 0)
    return {"driver": g("rx_lost_driver"), "lab": g("rx_lost_lab"), "steal": g("rx_lost_steal"),
            "injected": g("rx_lost_injected"),
            "gap_max_us": (after or {}).get(f"{group}_rx_gap_max_ns", 0) / 1000}


def node_threads_cpu_ns(s):
    """CPU time of all of a node's threads in stats S (or a delta): its loop, its
    poller threads, with contexts=irq its softirq loops and their ksoftirqd
    threads (docs/design.md §4.5), and the io_uring workers of any of them."""
    return sum(s.get(k, 0) for k in ("node_loop_cpu_ns", "node_poller_cpu_ns",
                                     "node_ctx_cpu_ns", "node_ksoftirqd_cpu_ns",
                                     "node_uring_worker_cpu_ns"))


def cpu_cost_text(cost_ns, base_ns_per_frame):
    """The calibrated CPU cost (knob cpu_cost_ns, docs/design.md §4.9) as a result
    states it: COST_NS per frame against BASE_NS_PER_FRAME, the driver CPU per
    frame measured without it in the same run."""
    if not cost_ns:
        return "no added CPU cost (cpu_cost_ns=0)"
    if not base_ns_per_frame:
        return f"{cost_ns / 1000:g} us per frame (cpu_cost_ns={cost_ns})"
    return (f"{cost_ns / 1000:g} us per frame (cpu_cost_ns={cost_ns}), standing for a CPU "
            f"{(base_ns_per_frame + cost_ns) / base_ns_per_frame:.1f} times slower than this "
            f"host's {base_ns_per_frame / 1000:.2f} us per frame")


def causes_text(c):
    """driver/lab/steal as one table cell."""
    return f"{c['driver']}/{c['lab']}/{c['steal']}"


def sum_causes(runs, key="causes"):
    """The causes of RUNS added up (gap_max_us: the largest)."""
    out = {"driver": 0, "lab": 0, "steal": 0, "injected": 0, "gap_max_us": 0.0}
    for r in runs:
        for k in ("driver", "lab", "steal", "injected"):
            out[k] += r[key][k]
        out["gap_max_us"] = max(out["gap_max_us"], r[key]["gap_max_us"])
    return out


def conditions_text(runs):
    """One line on the conditions of RUNS (dicts with load1 and steal_ms)."""
    if not runs:
        return "no runs"
    load = [r["load1"] for r in runs]
    steal = [r["steal_ms"] for r in runs]
    return (f"load average (1 min) {min(load):.2f} .. {max(load):.2f} over the runs; VM steal "
            f"{min(steal):.0f} .. {max(steal):.0f} ms per run (total {sum(steal):.0f} ms): "
            f"{'a loaded machine, not a quiet-machine figure' if max(load) >= 1.0 else 'quiet'}")


def command_line():
    """The exact command that ran this benchmark (as `ethdrv bench` was called)."""
    return os.environ.get("ETHDRV_BENCH_CMD") or " ".join(map(shlex.quote, sys.argv))


def git_rev():
    r = subprocess.run(["git", "-C", str(SOURCE_DIR), "describe", "--always", "--dirty"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def md_table(headers, rows):
    """A markdown table; columns whose first cell is a number are right-aligned.
    A row with more or fewer cells than the header is a bug in the report, not
    something to print: a reader would take a value for the wrong column."""
    for r in rows:
        if len(r) != len(headers):
            raise ValueError(f"md_table: a row has {len(r)} cells for {len(headers)} "
                             f"columns ({headers[0]!r} = {r[0] if r else None!r})")
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
