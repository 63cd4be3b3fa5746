#!/usr/bin/env bash
# Run the micro-benchmarks from BUILD_DIR and write their tables under
# bench/results/. The exact command is recorded in each table.
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$build/bench/bench-napi" --md bench/results/napi.md
