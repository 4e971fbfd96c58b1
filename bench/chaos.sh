#!/usr/bin/env bash
# The cluster's faults in sequence on 127.0.0.1, each on a real run of the
# shared Lichess records, with the verdicts lost and duplicated counted
# against the embedded run's (expected: 0 / 0 every time):
#   1. a worker SIGKILLed mid-run (verify stream), restarted on its port;
#   2. a worker SIGSTOPped mid-run (hung; the watchdog moves its batches);
#   3. the coordinator SIGKILLed mid-job, restarted: the job resumes;
#   4. the coordinator SIGTERMed mid-job, restarted: the job resumes;
#   5. a job upload cut off mid-way (client SIGKILLed): no job, no file.
#
#   bench/chaos.sh [BUILD] [PGN]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
pgn=${2:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
tables=$build/bench-tables
"$build/arbiter" tables build "$tables" >/dev/null
export ARBITER_TABLES=$tables
unset ARBITER_SYZYGY ARBITER_COORDINATOR
# shellcheck source=bench/cluster_lib.sh
. bench/cluster_lib.sh

"$build/arbiter" verify --format jsonl "$pgn" | grep '^{"game"' | sed 's/"seconds": [0-9.e+-]*//' \
  >"$work/expected"
expected_games=$(wc -l <"$work/expected")

# lost / duplicated of the records in $1 against the embedded run's.
count() {
  local got=$work/got
  grep '^{"game"' "$1" | sed 's/"seconds": [0-9.e+-]*//' >"$got" || true
  local lost dup wrong
  lost=$(comm -23 <(sort -u "$work/expected") <(sort -u "$got") | wc -l)
  dup=$(($(wc -l <"$got") - $(sort -u "$got" | wc -l)))
  wrong=$(comm -13 <(sort -u "$work/expected") <(sort -u "$got") | wc -l)
  echo "$lost $dup $wrong"
}
report() {  # fault, file, games done when the fault struck
  read -r lost dup wrong < <(count "$2")
  printf "%-44s at game %6d: lost %d  duplicated %d  differing %d  (of %d)\n" "$1" "$3" "$lost" \
    "$dup" "$wrong" "$expected_games"
}
records_so_far() { grep -c '^{"game"' "$1" 2>/dev/null || true; }
wait_records() {  # file, n
  local n
  for _ in $(seq 3000); do
    n=$(records_so_far "$1")
    [ "${n:-0}" -ge "$2" ] && return 0
    sleep 0.02
  done
}
job_done() {  # id
  timeout 600 "$build/arbiter" --coordinator "$coordinator" job watch "$1" >/dev/null 2>&1 || true
}
games_ruled() {  # id
  { timeout 1 stdbuf -oL "$build/arbiter" --coordinator "$coordinator" job watch "$1" 2>/dev/null ||
    true; } | head -1 | sed -n 's/.*: \([0-9]*\) games ruled.*/\1/p'
}

start_workers "$build" 2 "$tables"
start_coordinator "$build" "$workers"
w2_port=${workers##*:}

# 1. Worker SIGKILLed mid-run, restarted on its port.
"$build/arbiter" --coordinator "$coordinator" verify --format jsonl "$pgn" >"$work/r1" &
client=$!
wait_records "$work/r1" 5000
at=$(records_so_far "$work/r1")
kill -KILL "${worker_pids[1]}"
sleep 1
"$build/arbiter-worker" --listen "127.0.0.1:$w2_port" --threads 1 --tables "$tables" 2>>"$work/log" &
pids+=($!)
worker_pids[1]=$!
wait "$client"
report "1. worker SIGKILLed mid-run, restarted" "$work/r1" "$at"

# 2. Worker SIGSTOPped mid-run (hung), resumed after the run.
"$build/arbiter" --coordinator "$coordinator" verify --format jsonl "$pgn" >"$work/r2" &
client=$!
wait_records "$work/r2" 5000
at=$(records_so_far "$work/r2")
kill -STOP "${worker_pids[1]}"
wait "$client"
kill -CONT "${worker_pids[1]}"
report "2. worker SIGSTOPped mid-run (hung)" "$work/r2" "$at"

# 3 and 4. Coordinator killed mid-job, restarted on the same job directory.
for signal in KILL TERM; do
  id=$("$build/arbiter" --coordinator "$coordinator" job submit "$pgn")
  for _ in $(seq 3000); do
    done_now=$(games_ruled "$id")
    [ "${done_now:-0}" -ge 5000 ] && break
    sleep 0.02
  done
  kill "-$signal" "$coordinator_pid"
  wait "$coordinator_pid" 2>/dev/null || true
  start_coordinator "$build" "$workers"
  job_done "$id"
  "$build/arbiter" --coordinator "$coordinator" job results "$id" --format jsonl >"$work/r-$signal"
  n=$([ "$signal" = KILL ] && echo 3 || echo 4)
  report "$n. coordinator SIG$signal mid-job, restarted" "$work/r-$signal" "${done_now:-0}"
done

# 5. Upload cut off: the client is killed while its input is still open.
jobs_before=$("$build/arbiter" --coordinator "$coordinator" job list | wc -l)
(cat "$pgn"; sleep 30) | "$build/arbiter" --coordinator "$coordinator" job submit - \
  >/dev/null 2>&1 &
uploader=$!
sleep 1
pkill -KILL -f "job submit -" || true
wait "$uploader" 2>/dev/null || true
sleep 1
jobs_after=$("$build/arbiter" --coordinator "$coordinator" job list | wc -l)
leftover=$(find "$work/jobs/uploads" -name '*.part' 2>/dev/null | wc -l)
printf "%-44s %s new jobs %d  partial files left %d\n" "5. upload cut off mid-way" "       " \
  "$((jobs_after - jobs_before))" "$leftover"
