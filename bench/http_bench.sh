#!/usr/bin/env bash
# The HTTP API beside the gRPC API and the command line, on 127.0.0.1:
#  1. latency of one position, one request at a time: Analyze over gRPC and
#     GET /v1/analyze over HTTP, through the same coordinator and N workers
#     (bench/analyze_latency), on the final positions of the file's first
#     200 games, 5 rounds;
#  2. bulk: POST /v1/verify of FILE to `arbiter serve --jobs N` (NDJSON,
#     read to the end) against `arbiter verify FILE --jobs N --format jsonl`,
#     best of two runs each: games/s and their ratio.
#
#   bench/http_bench.sh [FILE.pgn[.zst]] [BUILD_DIR] [N]
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
n=${3:-$(nproc)}
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
pids+=($!)
wait_port "$work/s"
serve=http://127.0.0.1:$(cat "$work/s")

t_cli=$(best_seconds env -u ARBITER_COORDINATOR "$build/arbiter" verify "$file" --jobs "$n" \
  --tables "$tables" --format jsonl)
games=$(tail -1 "$work/out" | sed 's/.*"games": \([0-9]*\).*/\1/')
t_http=$(best_seconds curl -sS --fail --data-binary "@$file" "$serve/v1/verify")
http_games=$(tail -1 "$work/out" | sed 's/.*"games": \([0-9]*\).*/\1/')
[ "$games" = "$http_games" ] || { echo "HTTP ruled $http_games games, the CLI $games" >&2; exit 1; }
awk -v g="$games" -v c="$t_cli" -v h="$t_http" -v n="$n" 'BEGIN {
  printf "verify %d games, %d threads: CLI %.0f games/s; HTTP NDJSON %.0f games/s; ratio %.2f\n",
    g, n, g / c, g / h, c / h
}'
