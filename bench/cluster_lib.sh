# Shared by the cluster benchmarks (sourced, not run): a coordinator and
# workers on 127.0.0.1 with ephemeral ports, stopped when the script exits.
#   start_workers BUILD N TABLES   sets $workers ("host:port,...") and $worker_pids
#   final_fens BUILD FILE TABLES N  writes the final positions of FILE's first N games to $work/fens
#   best_seconds COMMAND...        the best wall time of two runs; output in $work/out
#   start_coordinator BUILD WORKERS [FLAGS...]  sets $coordinator and $coordinator_pid
#     (with --http 127.0.0.1:0 among FLAGS, $work/c.http holds the HTTP port)
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
  echo "no port in $1" >&2
  exit 1
}

start_workers() {
  local build=$1 n=$2 tables=$3 i
  workers=""
  worker_pids=()
  for i in $(seq "$n"); do
    "$build/arbiter-worker" --listen 127.0.0.1:0 --threads 1 --tables "$tables" \
      --port-file "$work/w$i" 2>>"$work/log" &
    pids+=($!)
    worker_pids+=($!)
    wait_port "$work/w$i"
    workers+="${workers:+,}127.0.0.1:$(cat "$work/w$i")"
  done
}

start_coordinator() {
  local build=$1 list=$2
  shift 2
  rm -f "$work/c"  # a restarted coordinator's port, not the last one's
  "$build/arbiter-coordinator" --listen 127.0.0.1:0 --workers "$list" --job-dir "$work/jobs" \
    --port-file "$work/c" "$@" 2>>"$work/log" &
  pids+=($!)
  coordinator_pid=$!
  wait_port "$work/c"
  coordinator=127.0.0.1:$(cat "$work/c")
  sleep 1  # workers probed and up
}

best_seconds() {
  local start end best="" t
  for _ in 1 2; do
    start=$(date +%s.%N)
    "$@" >"$work/out" 2>/dev/null
    end=$(date +%s.%N)
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
  done
  echo "$best"
}

final_fens() {
  local build=$1 file=$2 tables=$3 n=$4
  # (head closes the pipe early: verify's SIGPIPE is expected.)
  { "$build/arbiter" verify "$file" --tables "$tables" --format jsonl 2>/dev/null || true; } |
    head -"$n" | sed -n 's/.*"end_fen": "\([^"]*\)".*/\1/p' >"$work/fens"
}
