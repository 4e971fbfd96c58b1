#!/usr/bin/env bash
# Syzygy WDL probe rate through Arbiter's wrapper beside raw Fathom
# tb_probe_wdl on the same positions (bench/syzygy_bench.cc); prints both
# rates and their ratio (target >= 0.9). Measured in alternating batches by
# thread CPU time (BM_ProbeWdl_Interleaved), so that load from other
# processes hits both alike; the median of the repetitions is reported.
#
# Usage: bench/syzygy_vs_raw.sh [BUILD_DIR]     (default: build)
#   ARBITER_SYZYGY=dir[:dir...]   default: ../shared/syzygy beside the checkout
#   REPEATS=N                     default 5
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bench=$build/bench/syzygy_bench
repeats=${REPEATS:-5}
export ARBITER_SYZYGY=${ARBITER_SYZYGY:-$root/../shared/syzygy}

if [[ ! -x $bench ]]; then
  echo "syzygy_vs_raw: $bench not found; build first (ninja -C $build syzygy_bench)" >&2
  exit 2
fi

json=$("$bench" --benchmark_filter='BM_ProbeWdl_Interleaved' \
  --benchmark_repetitions="$repeats" --benchmark_report_aggregates_only=true \
  --benchmark_format=json)

/usr/bin/python3 - "$json" "$repeats" <<'PY'
import json
import sys

runs = json.loads(sys.argv[1])["benchmarks"]
median = next(r for r in runs if r.get("aggregate_name") == "median")
print(f"raw tb_probe_wdl     {median['raw_per_s'] / 1e6:7.3f} M probes/s (thread CPU time)")
print(f"SyzygyTablebase      {median['ours_per_s'] / 1e6:7.3f} M probes/s")
print(f"ratio wrapper / raw  {median['ratio']:7.3f}   "
      f"(median of {sys.argv[2]} runs; target >= 0.9)")
PY
