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
#     game (its ceiling when workers are not the limit) and the CPU seconds
#     of every process (client, coordinator, each worker) against the
#     embedded unsharded run's: what the cluster costs beyond one machine.
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
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"
}
timed() {  # file command...: wall seconds, output discarded; the command's CPU seconds in file
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$1.t" "${@:2}" >/dev/null
  end=$(date +%s.%N)
  awk '{ printf "%.2f", $1 + $2 }' "$1.t" >"$1"
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}

cpu_file=$(mktemp)
embedded_cpu=""
# SCALE_CLUSTER_ONLY=GAMES skips the embedded runs (and counting the games).
if [ -n "${SCALE_CLUSTER_ONLY:-}" ]; then
  games=$SCALE_CLUSTER_ONLY
else
  games=$("$build/arbiter" verify --jobs "$cores" --budget 1 --format jsonl --part 0/1 "$file" |
    tail -1 | sed 's/.*"games": \([0-9]*\).*/\1/')
  echo "file: $file, $games games, $(du -m "$file" | cut -f1) MB; $cores cores"
  t_all=$(timed "$cpu_file" "$build/arbiter" verify --jobs "$cores" --format jsonl "$file")
  embedded_cpu=$(cat "$cpu_file")
  t_shard=$(seconds "$build/arbiter" verify --jobs "$cores" --format jsonl --shard 0/4 "$file")
  t_part=$(seconds "$build/arbiter" verify --jobs "$cores" --format jsonl --part 0/4 "$file")
  awk -v g="$games" -v a="$t_all" -v s="$t_shard" -v p="$t_part" -v cpu="$embedded_cpu" 'BEGIN {
    printf "embedded unsharded: %.1f s, %.0f games/s, %s CPU s\n", a, g / a, cpu
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
  worker_pids=()
  for i in $(seq "$n"); do
    "$build/arbiter-worker" --listen 127.0.0.1:0 --threads "$threads" --tables "$tables" \
      --port-file "$work/w$n-$i" 2>>"$work/log" &
    pids+=($!)
    worker_pids+=($!)
    wait_port "$work/w$n-$i"
    workers+="${workers:+,}127.0.0.1:$(cat "$work/w$n-$i")"
  done
  start_coordinator "$build" "$workers"
  # CPU seconds of the run alone: the daemons' counters before and after.
  c0=$(cpu_seconds "$coordinator_pid")
  w0=()
  for p in "${worker_pids[@]}"; do w0+=("$(cpu_seconds "$p")"); done
  t=$(timed "$cpu_file" "$build/arbiter" --coordinator "$coordinator" verify --format jsonl "$file")
  client=$(cat "$cpu_file")
  c=$(awk -v a="$c0" -v b="$(cpu_seconds "$coordinator_pid")" 'BEGIN { printf "%.2f", b - a }')
  w_list="" w_total=0
  for i in "${!worker_pids[@]}"; do
    w=$(awk -v a="${w0[$i]}" -v b="$(cpu_seconds "${worker_pids[$i]}")" 'BEGIN { printf "%.2f", b - a }')
    w_list+="${w_list:+ + }$w"
    w_total=$(awk -v a="$w_total" -v b="$w" 'BEGIN { printf "%.2f", a + b }')
  done
  awk -v n="$n" -v th="$threads" -v g="$games" -v t="$t" -v c="$c" -v cl="$client" \
    -v wl="$w_list" -v w="$w_total" -v e="$embedded_cpu" 'BEGIN {
    printf "coordinator + %d worker(s) x %d threads: %.1f s, %.0f games/s; coordinator CPU %.2f s = %.0f games per coordinator CPU second\n", n, th, t, g / t, c, g / c
    total = cl + c + w
    printf "  CPU s: client %.2f, coordinator %.2f, worker(s) %s; total %.2f", cl, c, wl, total
    if (e != "") printf " = %.2f x the embedded run'"'"'s %.2f", total / e, e
    printf "\n"
  }'
  kill "$coordinator_pid"
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
done
