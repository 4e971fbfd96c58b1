#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan and UBSan) in
# build-fuzz/ and runs each briefly: first on every input that once broke it
# (fuzz/regressions/TARGET/), then fuzzing from its seeds (fuzz/corpus/TARGET/)
# for FUZZ_SECONDS (default 20), one target per core at once. Fails when any
# target crashes, hangs (-timeout=10), leaks, trips a sanitizer or exceeds
# 2 GB; the input that did it is saved in build-fuzz/fuzz-artifacts/.
#
#   scripts/fuzz-smoke.sh [TARGET...]     (default: all eight)
#   scripts/fuzz-smoke.sh --build-only
#
# Environment: FUZZ_SECONDS, FUZZ_BUILD_DIR (build-fuzz), FUZZ_BUILD_JOBS
# (nproc). The checked-in seeds are never written to: new inputs go to a
# temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${FUZZ_SECONDS:-12}"
all_targets=(fen move pgn pgn_zstd request chess99 ending http)

build_fuzzers() {
  local compilers=()
  # The compiler is fixed when the directory is first configured.
  [ -f "$build/CMakeCache.txt" ] || compilers=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARBITER_FUZZ=ON \
    -DARBITER_BUILD_TESTS=OFF -DARBITER_BUILD_BENCH=OFF "${compilers[@]}" > /dev/null
  # Only the targets and what they link (not the servers, client or tests).
  cmake --build "$build" --target fuzzers --parallel "${FUZZ_BUILD_JOBS:-$(nproc)}"
}

# libFuzzer flags shared with scripts/fuzz-long.sh.
fuzz_flags() {
  local target="$1"
  echo "-timeout=10 -rss_limit_mb=2048 -print_final_stats=1"
  case "$target" in
    pgn | pgn_zstd | move) echo "-dict=$root/fuzz/dict/pgn.dict" ;;
    chess99) echo "-dict=$root/fuzz/dict/chess99.dict" ;;
  esac
}

if [ "${1:-}" = "--build-only" ]; then
  build_fuzzers
  exit 0
fi

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
build_fuzzers
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# One target: its regression inputs, then FUZZ_SECONDS of fuzzing; its
# summary line in $work/TARGET.summary and its status in $work/TARGET.status.
run_target() {
  local target="$1" bin="$build/fuzz/${1}_fuzzer" log="$work/$1.log" status=0 runs rate
  local -a regressions
  mapfile -t regressions < <(find "$root/fuzz/regressions/$target" -type f 2>/dev/null | sort)
  if [ ${#regressions[@]} -gt 0 ]; then
    # shellcheck disable=SC2046
    "$bin" $(fuzz_flags "$target") -artifact_prefix="$artifacts/$target-" "${regressions[@]}" \
      > "$log" 2>&1 || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    mkdir -p "$work/$target"
    # shellcheck disable=SC2046
    "$bin" $(fuzz_flags "$target") -artifact_prefix="$artifacts/$target-" \
      -max_total_time="$seconds" "$work/$target" "$root/fuzz/corpus/$target" >> "$log" 2>&1 ||
      status=$?
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$status" -ne 0 ]; then
    {
      echo "FAIL $target (exit $status); the input is in $artifacts/:"
      grep -E "ERROR|check failed|SUMMARY|runtime error|artifact" "$log" | head -20 || tail -30 "$log"
    } > "$work/$target.summary"
  else
    echo "ok   $target: ${runs:-?} executions, ${rate:-?}/s, ${#regressions[@]} regression inputs" \
      > "$work/$target.summary"
  fi
  echo "$status" > "$work/$target.status"
}

for target in "${targets[@]}"; do
  [ -x "$build/fuzz/${target}_fuzzer" ] ||
    { echo "no fuzz target '$target' (${all_targets[*]})" >&2; exit 2; }
done
# One target per core at once: each fuzzes on one thread.
jobs_at_once=$(nproc)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  run_target "$target" &
done
wait
failed=()
for target in "${targets[@]}"; do
  cat "$work/$target.summary"
  [ "$(cat "$work/$target.status")" = 0 ] || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz smoke: failed: ${failed[*]}"
  exit 1
fi
echo "fuzz smoke: ${#targets[@]} targets clean"
