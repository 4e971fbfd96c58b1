#!/usr/bin/env bash
# A coordinator (from COORDINATOR_BUILD, default BUILD) and one worker on
# 127.0.0.1, then bench/stalled_streams: N VerifyGames streams that never
# read, held S seconds; prints the coordinator's memory and threads over
# time and how the streams ended. Run it with an older build's coordinator
# to compare (the tool itself comes from BUILD).
#
#   bench/stalled_streams.sh [STREAMS] [SECONDS] [BUILD] [COORDINATOR_BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
streams=${1:-500}
seconds=${2:-10}
build=${3:-build}
coordinator_build=${4:-$build}
tables=$build/bench-tables
"$build/arbiter" tables build "$tables" >/dev/null

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh
start_workers "$build" 1 "$tables"
start_coordinator "$coordinator_build" "$workers"
"$build/bench/stalled_streams" --coordinator "$coordinator" --pid "$coordinator_pid" \
  --pgn examples/lichess_sample.pgn --streams "$streams" --seconds "$seconds"
