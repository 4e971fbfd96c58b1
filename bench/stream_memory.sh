#!/usr/bin/env bash
# The coordinator's resident memory around a burst of client streams: 20
# `arbiter --coordinator verify` runs at once, each the same games (the
# first 3,000 of FILE), through one coordinator and N workers. Prints the
# coordinator's VmRSS before, at its peak during the burst, and 10 s after
# the last stream ended (from /proc/PID/status).
#
#   bench/stream_memory.sh [FILE.pgn[.zst]] [BUILD_DIR] [N] [STREAMS]
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
n=${3:-2}
streams=${4:-20}
tables=$build/bench-tables
for f in arbiter arbiter-coordinator arbiter-worker; do
  [ -x "$build/$f" ] || { echo "missing $build/$f: build first" >&2; exit 1; }
done
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }
"$build/arbiter" tables build "$tables" >/dev/null

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh
games=$work/games.pgn
"$build/arbiter" verify "$file" --tables "$tables" --format jsonl >/dev/null 2>&1 || true
if [[ $file == *.zst ]]; then zstd -dc "$file"; else cat "$file"; fi |
  awk '/^\[Event /{n++} n<=3000' >"$games"
start_workers "$build" "$n" "$tables"
start_coordinator "$build" "$workers"
rss() { awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$coordinator_pid/status"; }

before=$(rss)
for i in $(seq "$streams"); do
  env -u ARBITER_SYZYGY "$build/arbiter" --coordinator "$coordinator" verify "$games" \
    --format jsonl >"$work/s$i" 2>&1 &
  stream_pids+=($!)
done
peak=$before
while kill -0 "${stream_pids[@]}" 2>/dev/null; do
  r=$(rss)
  [ "$r" -gt "$peak" ] && peak=$r
  sleep 0.2
done
wait "${stream_pids[@]}" || true
sleep 10
after=$(rss)
echo "coordinator VmRSS, $streams streams of 3000 games, $n workers: before ${before} MB, peak ${peak} MB, 10 s after ${after} MB"
