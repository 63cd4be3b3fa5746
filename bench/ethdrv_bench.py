"""ethdrv_bench: the shared pieces of the system benchmarks (architecture.md §7).

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
- medium_limit(): the 10 Mb/s limit of a transfer from the segment's wire
  counters (LIMIT_FORMULA); scripts/demo.sh uses it too (`limit` below).
- percentile(), Progress (a bar on stderr), md_table(), write_result()
  (markdown with the machine, the date and the exact command), gnuplot().

Command line (for shell scripts):
  python3 ethdrv_bench.py limit BEFORE.json AFTER.json BYTES TO_TMR BEACON_BT
prints the limit and its inputs, as demo.sh shows them.
"""

import atexit
import datetime
import hashlib
import json
import os
import platform
import random
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
BIT_RATE = 10e6  # 10BASE-T1S, bits per second
TO_TMR_DEFAULT = 32  # PLCA TOTMR reset value; the driver reports 0 for it


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


def segment_busy():
    """Pid of a live segment that owns the t1s* namespaces, else 0."""
    try:
        pid = int(SEGMENT_MARKER.read_text().split()[1])
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
        names = ["segment"] + [netns(k) for k in range(self.nodes)]
        deadline = time.monotonic() + 60
        while not all(answers(n) for n in names):
            if self.proc.poll() is not None:
                out = self._log_text()
                self.proc = None
                if "in use by a live segment" in out:  # lost a race for the namespaces
                    return self.start()
                raise RuntimeError(f"ethdrv segment exited during bring-up:\n{out}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("segment not up after 60 s")
            time.sleep(0.1)
        return self

    def _wait_free(self):
        deadline, told = time.monotonic() + self.busy_wait_s, False
        while (pid := segment_busy()):
            if not told:
                log(f"bench: another segment (pid {pid}) owns the t1s* namespaces; waiting")
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


def netstat(ns):
    """The kernel's protocol counters in namespace NS: {"Tcp.RetransSegs": n, "TcpExt.TCPTimeouts": n, ...}."""
    out = run_in(ns, ["cat", "/proc/net/snmp", "/proc/net/netstat"]).stdout.splitlines()
    res = {}
    for names, values in zip(out[0::2], out[1::2]):
        proto = names.split(":")[0]
        for k, v in zip(names.split()[1:], values.split()[1:]):
            res[f"{proto}.{k}"] = int(v)
    return res


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


# ---- the medium limit ---------------------------------------------------------------------

LIMIT_FORMULA = """\
The medium limit is computed from what crossed the segment during the transfer
(`ethdrv stats segment` before and after): every frame (data, ACKs, ARP) costs
preamble+SFD (64 bits), the frame with FCS padded to 64 bytes, and a 96-bit
inter-frame gap. A perfectly busy PLCA segment (burst-cnt 0: one frame per node
per cycle) runs cycles = max over nodes of the frames that node sent, and pays
per cycle one BEACON (beacon_bt bits) and a to-tmr silence for each node without
a frame in its opportunity:
    plca_bits = cycles * beacon_bt + sum_k (cycles - frames_k) * to_tmr
    t_min     = (preamble_bits + frame_bits + ifg_bits + plca_bits) / 10e6 s
    limit     = payload_bytes / t_min"""


def medium_limit(before, after, payload_bytes, beacon_bt, to_tmr):
    """The best throughput the wire allows for a transfer (LIMIT_FORMULA).

    before/after: segment stats dicts; returns limit (B/s), t_min (s),
    frame_bits, plca_bits, paid_bits (PLCA overhead actually paid), cycles
    and frames (per port).
    """
    d = delta(after, before)
    ports = sorted((k for k in d if k.startswith("port") and k.endswith("_frames")),
                   key=lambda k: int(k[4:-7]))
    frames = [d[p] for p in ports]
    frame_bits = d["preamble_bits"] + d["frame_bits"] + d["ifg_bits"]
    cycles = max(frames) if frames else 0
    plca_bits = cycles * beacon_bt + sum(cycles - f for f in frames) * to_tmr
    t_min = (frame_bits + plca_bits) / BIT_RATE
    return {"limit": payload_bytes / t_min if t_min else 0.0, "t_min": t_min,
            "frame_bits": frame_bits, "plca_bits": plca_bits, "cycles": cycles,
            "paid_bits": d["beacon_bits"] + d["silence_bits"], "frames": frames}


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


def _main(argv):
    if len(argv) == 6 and argv[0] == "limit":
        before, after = (json.load(open(p)) for p in argv[1:3])
        size, to_tmr, beacon_bt = int(argv[3]), int(argv[4]), int(argv[5])
        m = medium_limit(before, after, size, beacon_bt, to_tmr)
        print("frames on the wire: " + ", ".join(f"port{i} {f}" for i, f in enumerate(m["frames"])))
        print(f"wire bits: preamble+frame+ifg {m['frame_bits']}, PLCA for a busy segment "
              f"{m['plca_bits']} (cycles {m['cycles']} x beacon {beacon_bt} + empty "
              f"opportunities x to-tmr {to_tmr}); PLCA overhead paid {m['paid_bits']}")
        print(f"limit = file_bytes / ((preamble+frame+ifg bits + PLCA bits) / 10e6) "
              f"= {size} / {m['t_min']:.3f} s = {m['limit'] / 1024:.1f} KiB/s")
        print(f"limit_Bps={m['limit']:.1f}")
        return 0
    print(__doc__.split("Command line")[1].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
