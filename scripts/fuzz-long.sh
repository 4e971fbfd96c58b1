#!/usr/bin/env bash
# The long fuzzing run of one target (the hardening goal: no crash, hang,
# leak or sanitizer report in 10^7 executions per target). Builds the
# targets like scripts/fuzz-smoke.sh, then fuzzes TARGET for EXECUTIONS
# (default 10,000,000) in one process on one core, from the seeds and the
# corpus of earlier long runs (build-fuzz/fuzz-corpus/TARGET/, kept between
# runs). A failing input lands in build-fuzz/fuzz-artifacts/; minimise it
# with `build-fuzz/fuzz/TARGET_fuzzer -minimize_crash=1 -runs=100000 FILE`,
# fix the bug, and keep the input in fuzz/regressions/TARGET/ (the
# fuzz_regression_test and the smoke run replay them).
#
#   scripts/fuzz-long.sh TARGET [EXECUTIONS] [-- LIBFUZZER_FLAGS...]
#   e.g. scripts/fuzz-long.sh pgn 10000000 -- -max_total_time=3600
#
# The executions run in segments of FUZZ_SEGMENT (default 3,000,000), each a
# fresh process that goes on from the corpus the earlier ones grew: under
# ASan the fuzzer's memory grows by about 250 bytes per zstd source read
# (the sanitizer's bookkeeping of the read-ahead thread each one starts;
# flat without ASan, as a loop of 200,000 sources shows), which would reach
# the 2 GB limit after about 7 million pgn_zstd inputs in one process.
#
# TARGET: fen, move, pgn, pgn_zstd, request, chess99, ending or http. Measured on one core
# of the CI machine: fen 26k, request 14k, move 1.1-4k, pgn 0.6-0.7k,
# pgn_zstd 0.5-0.9k, chess99 0.4k executions/s, so 10^7 takes from 7 minutes
# (fen) to 2.5 hours (move), 3-5 hours (pgn_zstd), 4-5 hours (pgn) and 6-7
# hours (chess99).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
target="${1:?usage: scripts/fuzz-long.sh TARGET [EXECUTIONS] [-- LIBFUZZER_FLAGS...]}"
shift
executions=10000000
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  executions="$1"
  shift
fi
[ "${1:-}" = "--" ] && shift

FUZZ_BUILD_DIR="$build" scripts/fuzz-smoke.sh --build-only
bin="$build/fuzz/${target}_fuzzer"
[ -x "$bin" ] || { echo "no fuzz target '$target' (fen move pgn pgn_zstd request chess99 ending)" >&2; exit 2; }
corpus="$build/fuzz-corpus/$target"
artifacts="$build/fuzz-artifacts"
mkdir -p "$corpus" "$artifacts"
dict=()
case "$target" in
  pgn | pgn_zstd | move) dict=(-dict="$root/fuzz/dict/pgn.dict") ;;
  chess99) dict=(-dict="$root/fuzz/dict/chess99.dict") ;;
esac
# FUZZ_LOG lets two runs of one target (one per core, sharing the corpus)
# keep separate logs.
log="${FUZZ_LOG:-$build/fuzz-long-$target.log}"
segment="${FUZZ_SEGMENT:-3000000}"
echo "fuzzing $target for $executions executions in segments of $segment; log: $log"
: > "$log"
done_runs=0
while [ "$done_runs" -lt "$executions" ]; do
  runs=$((executions - done_runs < segment ? executions - done_runs : segment))
  status=0
  "$bin" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$artifacts/$target-" "$@" "$corpus" "$root/fuzz/corpus/$target" \
    >> "$log" 2>&1 || status=$?
  ran="$(grep -E "^stat::number_of_executed_units" "$log" | tail -1 | awk '{print $2}')"
  ran="${ran:-0}"
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" "$log" | tail -3 || true
  if [ "$status" -ne 0 ]; then
    echo "FAIL $target (exit $status) after $((done_runs + ${ran:-0})) executions: input saved in $artifacts/"
    grep -E "ERROR|check failed|SUMMARY|runtime error|artifact" "$log" | head -20 || tail -30 "$log"
    exit 1
  fi
  done_runs=$((done_runs + ran))
  # A time limit (-max_total_time, which counts per segment) ends a segment
  # early: stop there.
  [ "$ran" -eq "$runs" ] || break
done
echo "$target: clean, $done_runs executions"
