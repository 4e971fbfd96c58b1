#!/usr/bin/env bash
# The HTTP API beside the gRPC API and the command line, on 127.0.0.1:
#  1. latency of one position, one request at a time: Analyze over gRPC and
#     GET /v1/analyze over HTTP, through the same coordinator and N workers
#     (bench/analyze_latency), on the final positions of the file's first
#     200 games, 5 rounds;
#  2. bulk: POST /v1/verify of FILE to `arbiter serve --jobs N` (NDJSON,
#     read to the end) against `arbiter verify FILE --jobs N --format jsonl`,
#     alternating, best of five each: games/s, CPU seconds and the ratio.
#
#  3. with BASELINE_ARBITER (an older build's arbiter), the same POST
#     /v1/verify to its serve too, in the same rounds: the ratio new/old.
#
#   bench/http_bench.sh [FILE.pgn[.zst]] [BUILD_DIR] [N] [BASELINE_ARBITER]
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
n=${3:-$(nproc)}
baseline=${4:-}
tables=$build/bench-tables
for f in arbiter arbiter-coordinator arbiter-worker bench/analyze_latency; do
  [ -x "$build/$f" ] || { echo "missing $build/$f: build first" >&2; exit 1; }
done
command -v curl >/dev/null || { echo "curl is needed (apt install curl)" >&2; exit 1; }
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }
"$build/arbiter" tables build "$tables" >/dev/null

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh
start_workers "$build" "$n" "$tables"
start_coordinator "$build" "$workers" --http 127.0.0.1:0
wait_port "$work/c.http"

final_fens "$build" "$file" "$tables" 200
echo "Analyze latency, $(wc -l <"$work/fens") final positions x 5 rounds, one request at a time:"
"$build/bench/analyze_latency" --coordinator "$coordinator" --fens "$work/fens" --rounds 5 \
  --tables "$tables" --http "127.0.0.1:$(cat "$work/c.http")"

"$build/arbiter" serve --http 127.0.0.1:0 --port-file "$work/s" --jobs "$n" --tables "$tables" \
  --job-dir "$work/serve-jobs" \
  --max-verify-mb 4096 2>>"$work/log" &
serve_pid=$!
pids+=("$serve_pid")
wait_port "$work/s"
serve=http://127.0.0.1:$(cat "$work/s")
if [ -n "$baseline" ]; then
  # An older serve may keep no job database (no --job-dir).
  old_flags=()
  if "$baseline" serve --help 2>&1 | grep -q -- --job-dir; then
    old_flags+=(--job-dir "$work/old-jobs")
  fi
  "$baseline" serve --http 127.0.0.1:0 --port-file "$work/old" --jobs "$n" --tables "$tables" \
    --max-verify-mb 4096 "${old_flags[@]}" 2>>"$work/log" &
  old_pid=$!
  pids+=("$old_pid")
  wait_port "$work/old"
  old_serve=http://127.0.0.1:$(cat "$work/old")
fi
best_old=""

# The two alternate, five rounds, so that a busy moment of the machine
# falls on both alike; the best wall time of each, and the CPU seconds of
# the process that rules (serve's from /proc, the CLI's user+system).
cpu_of() { awk '{ print ($14 + $15) / 100 }' "/proc/$1/stat"; }
best_cli="" best_http="" cpu_cli="" cpu_http=""
for _ in 1 2 3 4 5; do
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$work/time" env -u ARBITER_COORDINATOR "$build/arbiter" verify \
    "$file" --jobs "$n" --tables "$tables" --format jsonl >"$work/out" 2>/dev/null
  end=$(date +%s.%N)
  t=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
  c=$(awk '{ print $1 + $2 }' "$work/time")
  if [ -z "$best_cli" ] || awk -v t="$t" -v b="$best_cli" 'BEGIN { exit !(t < b) }'; then
    best_cli=$t cpu_cli=$c
  fi
  games=$(tail -1 "$work/out" | sed 's/.*"games": \([0-9]*\).*/\1/')
  before=$(cpu_of "$serve_pid")
  start=$(date +%s.%N)
  curl -sS --fail --data-binary "@$file" "$serve/v1/verify" >"$work/out"
  end=$(date +%s.%N)
  t=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
  c=$(awk -v a="$before" -v b="$(cpu_of "$serve_pid")" 'BEGIN { print b - a }')
  if [ -z "$best_http" ] || awk -v t="$t" -v b="$best_http" 'BEGIN { exit !(t < b) }'; then
    best_http=$t cpu_http=$c
  fi
  http_games=$(tail -1 "$work/out" | sed 's/.*"games": \([0-9]*\).*/\1/')
  [ "$games" = "$http_games" ] || { echo "HTTP ruled $http_games games, the CLI $games" >&2; exit 1; }
  if [ -n "$baseline" ]; then
    start=$(date +%s.%N)
    curl -sS --fail --data-binary "@$file" "$old_serve/v1/verify" >"$work/out"
    end=$(date +%s.%N)
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best_old" ] || awk -v t="$t" -v b="$best_old" 'BEGIN { exit !(t < b) }'; then
      best_old=$t
    fi
  fi
done
awk -v g="$games" -v c="$best_cli" -v h="$best_http" -v n="$n" -v cc="$cpu_cli" -v hc="$cpu_http" '
BEGIN {
  printf "verify %d games, %d threads, best of 5: CLI %.0f games/s (%.2f CPU-s); HTTP NDJSON %.0f games/s (serve %.2f CPU-s); ratio %.2f\n",
    g, n, g / c, cc, g / h, hc, c / h
}'
if [ -n "$baseline" ]; then
  awk -v g="$games" -v h="$best_http" -v o="$best_old" 'BEGIN {
    printf "HTTP NDJSON, this build %.0f games/s against the baseline %.0f: ratio %.2f\n",
      g / h, g / o, o / h
  }'
fi
