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

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh
start_workers "$build" "$n" "$tables"
start_coordinator "$build" "$workers"
pid_args=()
for p in "${pids[@]}"; do pid_args+=(--pid "$p"); done
echo "pids: workers ${worker_pids[*]}, coordinator $coordinator_pid"
"$build/bench/load_test" --coordinator "$coordinator" --pgn "$pgn" \
  --clients "$clients" --seconds "$seconds" "${pid_args[@]}"
