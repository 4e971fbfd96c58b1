#!/usr/bin/env bash
# GET /v1/analyze under load, on 127.0.0.1: bench/http_load's CLIENTS
# kept-alive connections, one request at a time each, for SECONDS against
# `arbiter serve --jobs 2` of BUILD_DIR; with BASELINE_ARBITER (an older
# build's arbiter), against its serve too, alternating, two rounds (new, old,
# new, old), so that a busy moment of the machine falls on both alike. Prints
# each run's line, then the ratio of the best requests/s, new over old.
#
#   bench/http_load.sh [BUILD_DIR] [BASELINE_ARBITER] [CLIENTS] [SECONDS]
#
# The position is a real final one (king and queen against king, the side to
# move can mate), so the route does a ruling, not only the HTTP work.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
baseline=${2:-}
clients=${3:-16}
seconds=${4:-8}
tables=$build/bench-tables
for f in arbiter bench/http_load; do
  [ -x "$build/$f" ] || { echo "missing $build/$f: build first" >&2; exit 1; }
done
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "cannot run $baseline" >&2; exit 1; }
"$build/arbiter" tables build "$tables" >/dev/null

# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh

# 8/8/8/8/8/4k3/8/4K2Q w - - 0 1, URL-encoded.
path='/v1/analyze?fen=8%2F8%2F8%2F8%2F8%2F4k3%2F8%2F4K2Q%20w%20-%20-%200%201'

# start_serve NAME ARBITER: its serve on an ephemeral port, in $work/NAME.port.
start_serve() {
  local name=$1 arbiter=$2 help flags=()
  help=$("$arbiter" serve --help 2>&1 || true)
  grep -q -- --port-file <<<"$help" || { echo "$arbiter serve has no --port-file" >&2; exit 1; }
  # An older build's serve kept no job database and has no --job-dir.
  if grep -q -- --job-dir <<<"$help"; then flags+=(--job-dir "$work/$name-jobs"); fi
  "$arbiter" serve --http 127.0.0.1:0 --port-file "$work/$name.port" --jobs 2 \
    --tables "$tables" "${flags[@]}" >>"$work/log" 2>&1 &
  pids+=($!)
  pid_of[$name]=$!
  wait_port "$work/$name.port"
  # One client for a moment: the route answers 200 (else the load would
  # measure errors) and the first analysis (tables loaded) is not timed.
  "$build/bench/http_load" --port "$(cat "$work/$name.port")" --path "$path" --clients 1 \
    --seconds 0.5 >/dev/null 2>"$work/err" || {
    echo "$name ($arbiter): GET $path failed: $(cat "$work/err")" >&2
    exit 1
  }
}

names=(new)
declare -A pid_of=()
declare -A arbiter_of=([new]="$build/arbiter")
if [ -n "$baseline" ]; then
  names+=(old)
  arbiter_of[old]=$baseline
fi
for name in "${names[@]}"; do start_serve "$name" "${arbiter_of[$name]}"; done

# Both servers stay up throughout; the one not under load is idle. Each
# line ends with the CPU seconds the loaded serve took (from /proc; the load
# client runs on the same cores).
cpu_of() { awk '{ print ($14 + $15) / 100 }' "/proc/$1/stat"; }
echo "GET /v1/analyze, $clients clients, $seconds s a run, serve --jobs 2, $(nproc) cores:"
declare -A best=()
failed=0
for round in 1 2; do
  for name in "${names[@]}"; do
    status=0
    before=$(cpu_of "${pid_of[$name]}")
    line=$("$build/bench/http_load" --port "$(cat "$work/$name.port")" --path "$path" \
      --clients "$clients" --seconds "$seconds" 2>"$work/err") || status=$?
    cpu=$(awk -v a="$before" -v b="$(cpu_of "${pid_of[$name]}")" 'BEGIN { printf "%.2f", b - a }')
    printf 'round %d %s (%s): %s; serve %s CPU-s\n' "$round" "$name" "${arbiter_of[$name]}" "$line" "$cpu"
    if [ "$status" != 0 ]; then
      failed=1
      sed 's/^/  /' "$work/err"
    fi
    rate=${line%% *}
    [[ $rate =~ ^[0-9]+$ ]] || rate=0
    if [ -z "${best[$name]:-}" ] || awk -v r="$rate" -v b="${best[$name]}" 'BEGIN { exit !(r > b) }'; then
      best[$name]=$rate
    fi
  done
done
if [ -n "$baseline" ]; then
  awk -v n="${best[new]}" -v o="${best[old]}" 'BEGIN {
    printf "best requests/s: new %.0f, old %.0f; ratio new/old %.2f\n", n, o, (o > 0 ? n / o : 0)
  }'
fi
exit "$failed"
