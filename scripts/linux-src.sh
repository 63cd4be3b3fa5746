#!/usr/bin/env bash
# Extract the four Linux files the Linux-driver build needs into OUTDIR
# (docs/linux-driver.md): drivers/net/ethernet/oa_tc6.c,
# include/linux/oa_tc6.h, drivers/net/ethernet/microchip/lan865x/lan865x.c,
# drivers/net/phy/microchip_t1s.c. Nothing of them enters the repository.
#
#   scripts/linux-src.sh OUTDIR
#
# Source: LINUX_SRC=DIR (any kernel tree) or Debian's linux-source-6.12
# package (/usr/src/linux-source-6.12.tar.xz). LINUX_PATCH=FILE is applied
# with patch -p1 afterwards. The result is cached: OUTDIR/SOURCE records the
# origin (package version or tree), the patch and the SHA-256 of every file,
# and the extraction is redone only when that record would change.
# Exit 0 with the files in place, or 3 with one line saying why not.
set -eu
out=${1:?usage: linux-src.sh OUTDIR}
files=(drivers/net/ethernet/oa_tc6.c include/linux/oa_tc6.h
	drivers/net/ethernet/microchip/lan865x/lan865x.c drivers/net/phy/microchip_t1s.c)
tarball=/usr/src/linux-source-6.12.tar.xz
patchfile=${LINUX_PATCH:-}

if [[ -n ${LINUX_SRC:-} ]]; then
	for f in "${files[@]}"; do
		[[ -f $LINUX_SRC/$f ]] || { echo "linux-src: $LINUX_SRC/$f missing (LINUX_SRC must be a kernel tree)"; exit 3; }
	done
	origin="tree $(cd "$LINUX_SRC" && pwd)"
	stamp=$(cd "$LINUX_SRC" && sha256sum "${files[@]}" | sha256sum | cut -c1-16)
else
	if [[ ! -f $tarball ]]; then
		echo "linux-src: $tarball not found: install Debian's linux-source-6.12 (scripts/install-deps.sh) or set LINUX_SRC=DIR"
		exit 3
	fi
	ver=$(dpkg-query -W -f '${Version}' linux-source-6.12 2>/dev/null || echo unknown)
	origin="debian linux-source-6.12 $ver"
	stamp=$(stat -c '%s %Y' "$tarball")
fi
[[ -z $patchfile || -f $patchfile ]] || { echo "linux-src: LINUX_PATCH=$patchfile not found"; exit 3; }
key="$origin|$stamp|${patchfile:+$(sha256sum <"$patchfile" | cut -c1-16)}"

if [[ -f $out/SOURCE ]] && [[ $(sed -n 's/^key: //p' "$out/SOURCE") == "$key" ]]; then
	exit 0 # cached
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
if [[ -n ${LINUX_SRC:-} ]]; then
	for f in "${files[@]}"; do
		mkdir -p "$out.tmp/$(dirname "$f")"
		cp "$LINUX_SRC/$f" "$out.tmp/$f"
	done
else
	top=$(tar -tJf "$tarball" 2>/dev/null | head -1 | cut -d/ -f1)
	tar -xJf "$tarball" -C "$out.tmp" --strip-components=1 "${files[@]/#/$top/}"
fi
if [[ -n $patchfile ]]; then
	patch -s -p1 -d "$out.tmp" <"$patchfile" >/dev/null 2>&1 ||
		{ rm -rf "$out.tmp"; echo "linux-src: $patchfile does not apply"; exit 3; }
fi
{
	echo "key: $key"
	echo "origin: $origin"
	echo "patch: ${patchfile:-none}"
	(cd "$out.tmp" && sha256sum "${files[@]}")
} >"$out.tmp/SOURCE"
rm -rf "$out"
mv "$out.tmp" "$out"
