#!/usr/bin/env bash
# Starts a coordinator and N workers on 127.0.0.1 and runs bench/load_test
# against them: C concurrent clients for S seconds, then stops everything.
# Prints throughput, p50/p99 latency and the daemons' resident memory over
# time (it should stay flat).
#
#   bench/load_test.sh [CLIENTS] [SECONDS] [WORKERS] [BUILD_DIR] [PGN]
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-32}
seconds=${2:-30}
n=${3:-2}
build=${4:-build}
pgn=${5:-examples/lichess_sample.pgn}
[ -r ../shared/games/lichess_jishanshaikh4_37221.pgn.zst ] && [ -z "${5:-}" ] &&
  pgn=../shared/games/lichess_jishanshaikh4_37221.pgn.zst
tables=$build/bench-tables
"$build/arbiter" tables build "$tables" >/dev/null

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
wait_port() {
  for _ in $(seq 500); do [ -s "$1" ] && return 0; sleep 0.02; done
  echo "no port in $1" >&2; exit 1
}
workers=""
for i in $(seq "$n"); do
  "$build/arbiter-worker" --listen 127.0.0.1:0 --threads 1 --tables "$tables" \
    --port-file "$work/w$i" 2>>"$work/log" &
  pids+=($!)
  wait_port "$work/w$i"
  workers+="${workers:+,}127.0.0.1:$(cat "$work/w$i")"
done
"$build/arbiter-coordinator" --listen 127.0.0.1:0 --workers "$workers" --job-dir "$work/jobs" \
  --port-file "$work/c" 2>>"$work/log" &
pids+=($!)
wait_port "$work/c"
sleep 1
pid_args=()
for p in "${pids[@]}"; do pid_args+=(--pid "$p"); done
echo "pids: workers ${pids[*]:0:$n}, coordinator ${pids[$n]}"
"$build/bench/load_test" --coordinator "127.0.0.1:$(cat "$work/c")" --pgn "$pgn" \
  --clients "$clients" --seconds "$seconds" "${pid_args[@]}"
