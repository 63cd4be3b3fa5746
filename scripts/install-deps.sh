#!/usr/bin/env bash
# Install the Debian packages ethdrv needs to build, test and benchmark.
# Idempotent: does nothing when everything is present. Needs root to install;
# without root it only lists what is missing and exits 0 (the build then
# reports what it cannot find).
set -eu

# package -> a file or command that proves it is installed
pkgs=(
	"libcmocka-dev:/usr/include/cmocka.h"
	"liburing-dev:/usr/include/liburing.h"
	"clang:clang"
	"libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
	"iproute2:ip"
	"iputils-ping:ping"
	"curl:curl"
	"iperf3:iperf3"
	"tcpdump:tcpdump"
	"gnuplot-nox:gnuplot"
	"valgrind:valgrind"
	"cmake:cmake"
	"clang-format:clang-format"
	"tshark:tshark"
	# Linux's oa_tc6/lan865x/microchip_t1s for the Linux-driver build
	# (docs/linux-driver.md); only four files are extracted from it.
	"linux-source-6.12:/usr/src/linux-source-6.12.tar.xz"
)

missing=()
for entry in "${pkgs[@]}"; do
	pkg=${entry%%:*}
	probe=${entry#*:}
	if [[ $probe == /* ]]; then
		[[ -e $probe ]] && continue
	else
		command -v "$probe" >/dev/null 2>&1 && continue
	fi
	missing+=("$pkg")
done

[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
	echo "install-deps: missing packages (run as root to install): ${missing[*]}" >&2
	exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# wireshark-common (pulled in by tshark) asks whether non-root users may
# capture; answer "no" so that nothing waits for a terminal.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
