#!/usr/bin/env bash
# The cluster on this machine, beside the embedded engine:
#  1. unary latency of Analyze through the coordinator (p50, p99, worst)
#     on the final positions of the file's first games, next to the same
#     analyses embedded (bench/analyze_latency);
#  2. bulk throughput: `arbiter verify` of the file embedded with --jobs N,
#     then through a coordinator and N workers of one thread each, all on
#     127.0.0.1; games/s of both and their ratio. Everything shares the same
#     cores, so the coordinator's and the client's work counts against the
#     cluster;
#  3. per worker core (with taskset, 2+ cores): one worker pinned to the
#     last core, the coordinator and the client to the others, against the
#     embedded run pinned to that same core with --jobs 1. This is the
#     deployment's situation (workers on their own machines) measured on
#     one box: what a worker core rules per second, and what it would
#     embedded.
#
#   bench/cluster_bench.sh [FILE.pgn[.zst]] [BUILD_DIR] [N]
#
# Defaults: ../shared/games/lichess_jishanshaikh4_37221.pgn.zst, build/,
# N = number of cores. Retrograde tables come from BUILD_DIR/bench-tables
# (generated on the first run), so no run pays for table builds.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
n=${3:-$(nproc)}
tables=$build/bench-tables
for f in arbiter arbiter-coordinator arbiter-worker bench/analyze_latency; do
  [ -x "$build/$f" ] || { echo "missing $build/$f: build first" >&2; exit 1; }
done
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }
"$build/arbiter" tables build "$tables" >/dev/null

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh
start_workers "$build" "$n" "$tables"
start_coordinator "$build" "$workers"

# 1. Latency: the final positions of the first 200 games.
final_fens "$build" "$file" "$tables" 200
echo "Analyze latency, $(wc -l <"$work/fens") final positions x 5 rounds, one request at a time:"
"$build/bench/analyze_latency" --coordinator "$coordinator" --fens "$work/fens" --rounds 5 \
  --tables "$tables"

# 2. Throughput: best of two runs each.
t_embedded=$(best_seconds env -u ARBITER_COORDINATOR "$build/arbiter" verify "$file" --jobs "$n" \
  --tables "$tables" --format jsonl)
games=$(tail -1 "$work/out" | sed 's/.*"games": \([0-9]*\).*/\1/')
t_cluster=$(best_seconds "$build/arbiter" --coordinator "$coordinator" verify "$file" --format jsonl)
awk -v g="$games" -v e="$t_embedded" -v c="$t_cluster" -v n="$n" 'BEGIN {
  printf "verify %d games: embedded --jobs %d %.0f games/s; coordinator + %d workers %.0f games/s; ratio %.2f\n",
    g, n, g / e, n, g / c, e / c
}'

# Worker memory after the runs: peak and current resident set (the 3-4-man
# retrograde tables, 546 MB, are loaded at start; the rest is the bound
# worker/README.md states: per thread a search table and a batch).
for p in "${worker_pids[@]}"; do
  echo "worker $p: $(awk '/VmHWM|VmRSS/ { printf "%s %d MB  ", $1, $2 / 1024 }' "/proc/$p/status")"
done

# 3. Per worker core.
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  last=$(($(nproc) - 1))
  others=0-$((last - 1))
  taskset -c "$last" "$build/arbiter-worker" --listen 127.0.0.1:0 --threads 1 \
    --tables "$tables" --port-file "$work/pw" 2>>"$work/log" &
  pids+=($!)
  wait_port "$work/pw"
  taskset -c "$others" "$build/arbiter-coordinator" --listen 127.0.0.1:0 \
    --workers "127.0.0.1:$(cat "$work/pw")" --job-dir "$work/jobs" --port-file "$work/pc" \
    2>>"$work/log" &
  pids+=($!)
  wait_port "$work/pc"
  sleep 1
  t_one=$(best_seconds taskset -c "$last" env -u ARBITER_COORDINATOR "$build/arbiter" verify "$file" \
    --jobs 1 --tables "$tables" --format jsonl)
  t_worker=$(best_seconds taskset -c "$others" "$build/arbiter" --coordinator \
    "127.0.0.1:$(cat "$work/pc")" verify "$file" --format jsonl)
  awk -v g="$games" -v e="$t_one" -v c="$t_worker" 'BEGIN {
    printf "per worker core: embedded --jobs 1 %.0f games/s; one worker %.0f games/s; ratio %.2f\n",
      g / e, g / c, e / c
  }'
fi
