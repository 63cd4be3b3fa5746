#!/usr/bin/env bash
# ctest linux-driver-source-override: LINUX_SRC=DIR and LINUX_PATCH=FILE of
# scripts/linux-src.sh (docs/linux-driver.md §3), with the extracted files
# as the "kernel tree": the tree and the patch are recorded in SOURCE, the
# patch is applied, the hashes follow it, a second run is served from the
# cache, and a patch that does not apply is refused with a message.
#   linux-src-override-test.sh SRCDIR SKIP-REASON
set -eu
src=$1 skip=$2
here=$(cd "$(dirname "$0")" && pwd)
if [[ -n $skip ]]; then
	echo "SKIPPED: the Linux driver is not built: $skip"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src" "$tmp/tree"
f=drivers/net/ethernet/oa_tc6.c
# A one-line patch: a comment after the first line (the file stays GPL text
# in the build tree only; the patch is made here, from the file, at run time).
mkdir -p "$tmp/a/$(dirname $f)" "$tmp/b/$(dirname $f)"
cp "$tmp/tree/$f" "$tmp/a/$f"
sed '1a /* ethdrv linux-src-override-test */' "$tmp/tree/$f" >"$tmp/b/$f"
(cd "$tmp" && diff -u "a/$f" "b/$f" >"$tmp/p.patch") || true

LINUX_SRC=$tmp/tree LINUX_PATCH=$tmp/p.patch "$here/linux-src.sh" "$tmp/out"
grep -q "^origin: tree $tmp/tree" "$tmp/out/SOURCE" || { echo "FAIL: origin not recorded"; exit 1; }
grep -q "^patch: $tmp/p.patch" "$tmp/out/SOURCE" || { echo "FAIL: patch not recorded"; exit 1; }
grep -q "linux-src-override-test" "$tmp/out/$f" || { echo "FAIL: patch not applied"; exit 1; }
want=$(cd "$tmp/out" && sha256sum "$f")
grep -qF "$want" "$tmp/out/SOURCE" || { echo "FAIL: hash of the patched file not recorded"; exit 1; }
# cached: a second run leaves the files as they are
touch -d '2000-01-01' "$tmp/out/$f"
LINUX_SRC=$tmp/tree LINUX_PATCH=$tmp/p.patch "$here/linux-src.sh" "$tmp/out"
[[ $(stat -c %Y "$tmp/out/$f") == $(date -d '2000-01-01' +%s) ]] || { echo "FAIL: not cached"; exit 1; }
# a patch that does not apply
sed -i '0,/^ /s/^ .*/ this line is not in the file/' "$tmp/p.patch"
if msg=$(LINUX_SRC=$tmp/tree LINUX_PATCH=$tmp/p.patch "$here/linux-src.sh" "$tmp/out2" 2>&1); then
	echo "FAIL: a broken patch was accepted"
	exit 1
fi
echo "$msg" | grep -q "does not apply" || { echo "FAIL: no message for a broken patch: $msg"; exit 1; }
echo "linux-driver-source-override: LINUX_SRC, LINUX_PATCH, the record and the cache work"
