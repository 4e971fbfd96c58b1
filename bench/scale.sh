#!/usr/bin/env bash
# The bulk path at scale, on one machine: a file of at least 1 M games made
# from the shared Lichess records (27 copies of 37,221 games, concatenated:
# 27 zstd frames), ruled
#   - embedded, unsharded (--jobs CORES);
#   - as one of 4 shards (--shard 0/4: reads and tokenises the whole file)
#     and as one of 4 parts (--part 0/4: reads a quarter), against a quarter
#     of the unsharded time;
#   - through a coordinator with 1 worker (CORES threads) and with 2 workers
#     (CORES/2 threads each), with the coordinator's own CPU seconds per
#     game: its ceiling when workers are not the limit.
#
#   bench/scale.sh [BUILD] [FILE]     (FILE is made if absent)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
file=${2:-${TMPDIR:-/tmp}/arbiter-scale-1m.pgn.zst}
source_file=../shared/games/lichess_jishanshaikh4_37221.pgn.zst
cores=$(nproc)
if [ ! -s "$file" ]; then
  for _ in $(seq 27); do cat "$source_file"; done >"$file"
fi
tables=$build/bench-tables
"$build/arbiter" tables build "$tables" >/dev/null
export ARBITER_TABLES=$tables
unset ARBITER_SYZYGY ARBITER_COORDINATOR

seconds() {  # command...: wall seconds, output discarded
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}
cpu_seconds() {  # pid: user + system CPU seconds so far
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$1/stat"
}

# SCALE_CLUSTER_ONLY=GAMES skips the embedded runs (and counting the games).
if [ -n "${SCALE_CLUSTER_ONLY:-}" ]; then
  games=$SCALE_CLUSTER_ONLY
else
  games=$("$build/arbiter" verify --jobs "$cores" --budget 1 --format jsonl --part 0/1 "$file" |
    tail -1 | sed 's/.*"games": \([0-9]*\).*/\1/')
  echo "file: $file, $games games, $(du -m "$file" | cut -f1) MB; $cores cores"
  t_all=$(seconds "$build/arbiter" verify --jobs "$cores" --format jsonl "$file")
  t_shard=$(seconds "$build/arbiter" verify --jobs "$cores" --format jsonl --shard 0/4 "$file")
  t_part=$(seconds "$build/arbiter" verify --jobs "$cores" --format jsonl --part 0/4 "$file")
  awk -v g="$games" -v a="$t_all" -v s="$t_shard" -v p="$t_part" 'BEGIN {
    printf "embedded unsharded: %.1f s, %.0f games/s\n", a, g / a
    printf "--shard 0/4: %.1f s = %.2f x a quarter of unsharded\n", s, s / (a / 4)
    printf "--part 0/4:  %.1f s = %.2f x a quarter of unsharded\n", p, p / (a / 4)
  }'
fi

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh
for n in 1 2; do
  threads=$((cores / n))
  [ "$threads" -ge 1 ] || threads=1
  workers=""
  for i in $(seq "$n"); do
    "$build/arbiter-worker" --listen 127.0.0.1:0 --threads "$threads" --tables "$tables" \
      --port-file "$work/w$n-$i" 2>>"$work/log" &
    pids+=($!)
    wait_port "$work/w$n-$i"
    workers+="${workers:+,}127.0.0.1:$(cat "$work/w$n-$i")"
  done
  start_coordinator "$build" "$workers"
  t=$(seconds "$build/arbiter" --coordinator "$coordinator" verify --format jsonl "$file")
  c=$(cpu_seconds "$coordinator_pid")
  awk -v n="$n" -v th="$threads" -v g="$games" -v t="$t" -v c="$c" 'BEGIN {
    printf "coordinator + %d worker(s) x %d threads: %.1f s, %.0f games/s; coordinator CPU %.1f s = %.0f games per coordinator CPU second\n", n, th, t, g / t, c, g / c
  }'
  kill "$coordinator_pid"
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
done
