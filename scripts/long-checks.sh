#!/usr/bin/env bash
# The long tier of the tests (docs/testing.md), which scripts/test.sh leaves
# out to stay within about 12 minutes: checks that take minutes each. Runs,
# after bringing the build up to date:
#
#  1. `ctest -L long`: the research certificates of tests/long/ (the
#     composed position whose only mate is 31 moves away), and the full-size
#     run of every comparison the default tier samples, each a ctest test
#     CASE/long that runs CASE with ARBITER_LONG_CHECKS=1 (Fathom's command
#     line on 240 placements per Syzygy table, the retrograde tables against
#     Syzygy on every stored position, CHA's whole test vector, chessops and
#     chess.js on 75,286 positions, ...);
#  2. the adversarial sweep: build/tools/mate_ability_sweep --family all,
#     every "cannot mate" answer on random positions behind pawn walls
#     (seven families, each breaking one precondition of the proofs) held
#     to an exhaustive search; it exits 1 on any answer the search refutes.
#
# Then prints a summary, each check with its result and time, and writes it
# to BUILD_DIR/long-checks/summary.txt (the logs are beside it). The last
# results, with their times, are in docs/benchmarks.md ("Long checks"):
# minutes on 2 cores with the tables stored, most of it ctest's.
#
#   scripts/long-checks.sh
#
# Environment: BUILD_DIR (build; configured by scripts/setup.sh or
# scripts/test.sh), LONG_JOBS (ctest's parallel jobs, default nproc),
# LONG_SWEEP_SEED (21), LONG_SWEEP_POSITIONS (600 per family),
# ARBITER_SHARED (else ../shared when present), ARBITER_TABLES (else
# BUILD_DIR/test-tables, as scripts/test.sh). Exits non-zero when any check
# fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
jobs="${LONG_JOBS:-$(nproc)}"
seed="${LONG_SWEEP_SEED:-21}"
positions="${LONG_SWEEP_POSITIONS:-600}"
out="$build/long-checks"

if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "long-checks: $build is not a configured build directory (run scripts/setup.sh)" >&2
  exit 2
fi
cmake --build "$build" --parallel "$jobs"
mkdir -p "$out"

if [ -z "${ARBITER_SHARED:-}" ] && [ -d ../shared ]; then
  export ARBITER_SHARED="$(cd ../shared && pwd)"
fi
export PATH="$PATH:/usr/games"
export ARBITER_TABLES="${ARBITER_TABLES:-$PWD/$build/test-tables}"

started=$(date +%s)
started_at=$(date -u '+%Y-%m-%d %H:%M UTC')
status=0

# 1. The long ctest label (its fixture, retrograde_tables_setup, comes along).
ctest_started=$(date +%s)
ctest_status=0
ctest --test-dir "$build" --output-on-failure --parallel "$jobs" -L long \
  > "$out/ctest.log" 2>&1 || ctest_status=$?
ctest_seconds=$(($(date +%s) - ctest_started))
[ "$ctest_status" -eq 0 ] || status=1

# 2. The adversarial sweep.
sweep="mate_ability_sweep --seed $seed --positions $positions --family all"
sweep_started=$(date +%s)
sweep_status=0
"$build/tools/mate_ability_sweep" --seed "$seed" --positions "$positions" --family all \
  > "$out/sweep.log" 2>&1 || sweep_status=$?
sweep_seconds=$(($(date +%s) - sweep_started))
[ "$sweep_status" -eq 0 ] || status=1

# The summary: one line per ctest test ("name|result|seconds" from its
# progress lines), then the sweep with its per-family counts.
{
  echo "long checks: started $started_at, commit" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
    "$(nproc) cores, $jobs jobs"
  passed=0 failed=0 skipped=0
  while IFS='|' read -r name result seconds; do
    case "$result" in
      Passed) passed=$((passed + 1)); word=pass ;;
      Skipped) skipped=$((skipped + 1)); word=skipped ;;
      *) failed=$((failed + 1)); word="FAIL ($result)" ;;
    esac
    printf '  %-64s %-14s %8s s\n' "$name" "$word" "$seconds"
  done < <(sed -nE 's/.*Test +#[0-9]+: ([^ ]+) \.*[ *]*([A-Za-z][^0-9]*[A-Za-z]) +([0-9.]+) sec.*/\1|\2|\3/p' \
    "$out/ctest.log")
  echo "  ctest -L long: $passed passed, $failed failed, $skipped skipped;" \
    "exit $ctest_status; ${ctest_seconds} s"
  if [ "$sweep_status" -eq 0 ]; then word=pass; else word="FAIL (exit $sweep_status)"; fi
  printf '  %-64s %-14s %8s s\n' "$sweep" "$word" "$sweep_seconds"
  grep -E '^seed [0-9]+, family |DISAGREE' "$out/sweep.log" | sed 's/^/    /' || true
  echo "  total: $(($(date +%s) - started)) s; $([ "$status" -eq 0 ] && echo passed || echo FAILED)"
} | tee "$out/summary.txt"

if [ "$ctest_status" -ne 0 ]; then
  echo "long-checks: ctest failed; its output: $out/ctest.log" >&2
fi
if [ "$sweep_status" -ne 0 ]; then
  echo "long-checks: the sweep failed; its output: $out/sweep.log" >&2
fi
exit "$status"
