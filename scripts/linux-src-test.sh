#!/usr/bin/env bash
# ctest linux-driver-source: the Linux-driver build's source check.
#   linux-src-test.sh SRCDIR SKIP-REASON SHIMDIR
# Without the kernel source: print why and skip (77). With it: show where
# it came from (SRCDIR/SOURCE) and check that no kernel source text entered
# the shim: no run of 3 or more consecutive non-trivial lines, and no single
# line of 50 or more characters, that a shim file shares with an extracted
# kernel file (whitespace and comments' leading '*' ignored).
set -eu
src=$1 skip=$2 shim=$3
if [[ -n $skip ]]; then
	echo "SKIPPED: the Linux driver is not built: $skip"
	exit 77
fi
cat "$src/SOURCE"
check() {
python3 - "$src" "$1" <<'PY'
import os, re, sys

src, shim = sys.argv[1], sys.argv[2]
TRIVIAL = re.compile(r'^[{}();,\s]*$|^(return|break|continue|else|default|goto)\b.{0,20}$|^#(endif|else)')

def lines(path):
    out = []
    for n, raw in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
        s = ' '.join(raw.replace('\t', ' ').split()).lstrip('* ').strip()
        out.append((n, s))
    return out

def significant(s):
    return len(s) >= 8 and not TRIVIAL.match(s)

kernel = {}
for root, _, names in os.walk(src):
    for name in names:
        if name.endswith(('.c', '.h')):
            p = os.path.join(root, name)
            for n, s in lines(p):
                if significant(s):
                    kernel.setdefault(s, []).append((p, n))

bad = 0
for root, _, names in os.walk(shim):
    for name in sorted(names):
        if not name.endswith(('.c', '.h', '.txt', '.md')):
            continue
        p = os.path.join(root, name)
        ls = [(n, s) for n, s in lines(p) if significant(s)]
        run = []
        for n, s in ls + [(0, None)]:
            if s is not None and s in kernel:
                run.append((n, s))
                if len(s) >= 50:
                    print(f'{p}:{n}: a {len(s)}-character line of the kernel files: {s[:70]}')
                    bad += 1
                continue
            if len(run) >= 3:
                print(f'{p}:{run[0][0]}-{run[-1][0]}: {len(run)} consecutive lines of the kernel files')
                bad += 1
            run = []
if bad:
    print(f'linux-driver-source: {bad} place(s) where kernel text entered the shim')
    sys.exit(1)
print(f'linux-driver-source: no kernel text in {shim} ({len(kernel)} distinct kernel lines compared)')
PY
}
# The check can fail: a directory holding a few kernel lines (made here, at
# run time, from the extracted file) must be refused.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^int oa_tc6_zero_align_receive_frame_enable/,/^}/p' \
	"$src/drivers/net/ethernet/oa_tc6.c" >"$tmp/copied.c"
[[ -s $tmp/copied.c ]] || sed -n '100,140p' "$src/drivers/net/ethernet/oa_tc6.c" >"$tmp/copied.c"
if check "$tmp" >/dev/null; then
	echo "linux-driver-source: the check did not catch kernel text in $tmp/copied.c"
	exit 1
fi
check "$shim"
