#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which keys do running servers accept, and does the help list them all?

Used by test-knob-help.sh. It does not read the knob tables: the candidate
keys are every identifier-like string literal of the C sources (src/,
tools/ethdrv/), also with the "emu." and "irq." prefixes the node and the
driver strip, and a key counts as accepted when a running server answers
`get KEY` with ok, or `set KEY=-` with anything but ENOENT. Every accepted
key must be in `ethdrv set --help` (in the section of that device kind or
the one for every device), in `ethdrv get IFNAME --list`, and a bad value
must be answered with the accepted values.

usage: knob_probe.py SRC ETHDRV IFNAME:SECTION...
"""
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

RUN = "/run/ethdrv"
BARE_ERRNO_TEXTS = {os.strerror(e) for e in range(1, 134)}  # what a reply without a why says
FAMILY = ("irq.",)  # keys of a family are listed as "irq.*"


def request(ifname, line):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(f"{RUN}/{ifname}.sock")
    s.sendall((line + "\n").encode())
    s.shutdown(socket.SHUT_WR)
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data.decode(errors="replace")


def candidates(src):
    words = set()
    for d in ("src", "tools/ethdrv"):
        for f in Path(src, d).rglob("*.[ch]"):
            for m in re.finditer(r'"([a-z][a-z0-9_.-]{1,30})"', f.read_text(errors="replace")):
                words.add(m.group(1))
    out = set(words)
    for w in words:
        out.add("emu." + w)
        out.add("irq." + w)
    return sorted(out)


def accepted(ifname, keys):
    ok = []
    # A server whose set refuses every key alike (a medium) is asked by get only.
    by_set = request(ifname, "set no_such_knob_zz=-").startswith("error ENOENT")
    for k in keys:
        r = request(ifname, f"get {k}")
        if r.startswith("ok\n"):
            ok.append(k)
            continue
        if not r.startswith("error ENOENT"):
            ok.append(k)  # known, but not readable here (EOPNOTSUPP, ...)
            continue
        if by_set and not request(ifname, f"set {k}=-").startswith("error ENOENT"):
            ok.append(k)
    return ok


def sections(helptext):
    """{title: set of keys} of `ethdrv set --help`; a title line ends with ':'."""
    out, cur = {}, None
    for line in helptext.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            cur = line
            out[cur] = set()
        elif cur and line.startswith("  ") and line.split():
            out[cur].add(line.split()[0])
    return out


def listed(key, names):
    if key in names:
        return True
    return any(key.startswith(p) and p + "*" in names for p in FAMILY)


def main():
    src, ethdrv, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
    keys = candidates(src)
    helptext = subprocess.run([ethdrv, "set", "--help"], capture_output=True, text=True,
                              check=True).stdout
    secs = sections(helptext)
    every = next((v for t, v in secs.items() if t.startswith("Every device")), set())
    errors = []
    for t in targets:
        ifname, title = t.split(":", 1)
        sec = next((v for s, v in secs.items() if s.startswith(title)), None)
        if sec is None:
            errors.append(f"{ifname}: no help section starting with '{title}'")
            continue
        # The model's keys sit in the device kind's section, under a sub-heading.
        found = accepted(ifname, keys)
        lst = request(ifname, "list")
        if not lst.startswith("ok\n"):
            errors.append(f"{ifname}: list: {lst.strip()}")
            continue
        lines = {ln.split()[0]: ln for ln in lst.splitlines()[1:] if ln.split()}
        lkeys = set(lines)
        for k in found:
            if not listed(k, sec | every):
                errors.append(f"{ifname}: accepts '{k}', missing from `ethdrv set --help`")
            if not listed(k, lkeys):
                errors.append(f"{ifname}: accepts '{k}', missing from `get {ifname} --list`")
        for k in sorted(lkeys):
            probe = k.replace("*", "txpe")
            if probe not in found:
                errors.append(f"{ifname}: --list shows '{k}', which it does not accept")
            # the key's own line: bql_limit's, not bql_limit_min's, which it prefixes
            if "(read only)" in lines[k]:
                # refused, with a reason beyond a bare errno text
                r = request(ifname, f"set {probe}=0")
                reason = r.partition(f"set {probe}=0: ")[2].strip()
                if not r.startswith("error") or not reason or reason in BARE_ERRNO_TEXTS:
                    errors.append(f"{ifname}: set {probe}=0 of a read-only key gives no "
                                  f"reason: {r.strip()}")
                continue  # read-only keys take no value
            if k == "spi_trace":
                continue  # spi_trace=NAME would create a file
            r = request(ifname, f"set {probe}=-")
            if r.startswith("ok") or ("use " not in r and "give " not in r):
                errors.append(f"{ifname}: set {probe}=- does not name the accepted values: "
                              f"{r.strip()}")
        print(f"{ifname}: {len(found)} keys accepted of {len(keys)} tried, "
              f"{len(lkeys)} listed")
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
