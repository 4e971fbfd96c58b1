#!/usr/bin/env bash
# The build without the cluster (-DARBITER_CLUSTER=OFF), from scratch, beside
# the cluster build that runs this test (ctest standalone_build_test):
#   - it configures and builds (`all`: arbiter, the tools, the core tests and
#     benchmarks) with the main tree's generator, compilers and flags;
#   - `arbiter` links no gRPC, protobuf or Prometheus library (ldd);
#   - `verify` and `analyze --fen` write what the cluster build's arbiter
#     writes, byte for byte but the timings;
#   - the core tests run, and answer for the commands that the OFF build keeps
#     but cannot run (cli_test's help of every command);
#   - `serve`, `job`, --coordinator and $ARBITER_COORDINATOR exit 2 saying
#     that this arbiter was built without the cluster.
# Any failure fails the test, with the log of the step that failed.
#
# Usage: standalone_build_test.sh SOURCE_DIR MAIN_BINARY_DIR [CMAKE_ARGS...]
# CMAKE_ARGS are the main tree's (-G, the compilers, the build type,
# -DARBITER_WERROR, -DARBITER_MARCH, ...), so that every object compiled the
# same way is one ccache already holds.
#
# ccache rewrites the paths under CCACHE_BASEDIR relative to the compiler's
# working directory, the build tree: a tree one level deeper than the main
# one (build/standalone) names every source differently and hits nothing.
# So the OFF tree is configured from a view of the source tree (a directory
# of symlinks, one per top-level entry) with its build tree where the main
# one is relative to the sources (VIEW/build for SOURCE_DIR/build), and
# CCACHE_BASEDIR is that view: every core and tool object is a hit from the
# main tree's compile. What differs are client/ (no gRPC on its include
# path) and the tests (their ARBITER_SOURCE_DIR and ARBITER_BINARY_DIR name
# this tree), compiled once per location and hits after.
#
# Cost on 2 cores (measured with other work on the machine, load 3-4) of
# the whole OFF tree (ARBITER_STANDALONE_TARGETS=all): 65 s with a warm
# ccache, 59 s of it configuring and building; about 7 minutes where the
# tests' objects are new to ccache (the first run in a checkout at a new
# path), the core's still hits. By default only what the checks below run
# is built (see the build step).
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 SOURCE_DIR MAIN_BINARY_DIR [CMAKE_ARGS...]" >&2
  exit 2
fi
source_dir="$(cd "$1" && pwd)"
main_dir="$(cd "$2" && pwd)"
shift 2
cmake_args=("$@")

root="$main_dir/standalone"
fail() {
  echo "standalone_build_test: FAIL: $*" >&2
  exit 1
}
# The last lines of a step's log, then the failure.
fail_with_log() {
  local log="$1"
  shift
  echo "--- last lines of $log:" >&2
  tail -n 60 "$log" >&2 || true
  fail "$@"
}

rm -rf "$root"
mkdir -p "$root"
relative="$(realpath --relative-to="$source_dir" "$main_dir")"
if [[ "$relative" == ..* || "$relative" == . ]]; then
  # A main tree outside the sources (or the sources themselves): no layout
  # shares its objects; the OFF tree is built from the sources directly, and
  # hits only its own past runs.
  view="$source_dir"
  tree="$root/build"
else
  view="$root/src"
  tree="$view/$relative"
  top="${relative%%/*}"  # the main tree's own top-level directory stays out
  mkdir -p "$view"
  for entry in "$source_dir"/* "$source_dir"/.[!.]*; do
    [ -e "$entry" ] || continue
    [ "$(basename "$entry")" = "$top" ] && continue
    ln -s "$entry" "$view/$(basename "$entry")"
  done
fi
export CCACHE_BASEDIR="$view"
jobs="$(nproc)"  # as scripts/test.sh builds; ctest reserves 2 for this test

# What CI builds: the command and both libraries, every object of which
# ccache holds from the main tree (the commands are one object library,
# client/CMakeLists.txt). A test object is new to ccache wherever the
# checkout's path is new (its ARBITER_SOURCE_DIR; CI's every run: about 7
# minutes for all of them), so the whole OFF tree, every core test
# included, is ARBITER_STANDALONE_TARGETS=all, which also runs the tests
# below; run it before a change to the build's structure lands.
read -r -a targets <<< "${ARBITER_STANDALONE_TARGETS:-arbiter arbiter_shared arbiter_static}"
# Without the tests and benchmarks, configuring is quicker too.
scope=()
[ "${targets[*]}" = all ] || scope=(-DARBITER_BUILD_TESTS=OFF -DARBITER_BUILD_BENCH=OFF)
start=$SECONDS
echo "standalone_build_test: configuring $tree (-DARBITER_CLUSTER=OFF ${cmake_args[*]})"
cmake -S "$view" -B "$tree" "${cmake_args[@]}" "${scope[@]}" -DARBITER_CLUSTER=OFF > "$root/configure.log" 2>&1 ||
  fail_with_log "$root/configure.log" "configuring with -DARBITER_CLUSTER=OFF failed"
echo "standalone_build_test: building ${targets[*]} (${jobs} jobs)"
cmake --build "$tree" --parallel "$jobs" --target "${targets[@]}" > "$root/build.log" 2>&1 ||
  fail_with_log "$root/build.log" "the -DARBITER_CLUSTER=OFF build failed"
echo "standalone_build_test: configured and built in $((SECONDS - start)) s"

off="$tree/arbiter"
on="$main_dir/arbiter"
[ -x "$off" ] || fail "$off was not built"
[ -x "$on" ] || fail "$on (the cluster build's, to compare with) was not built"
for program in arbiter-coordinator arbiter-worker; do
  [ ! -e "$tree/$program" ] || fail "the OFF build made $program"
done

# No cluster library, however it is reached.
ldd "$off" > "$root/ldd.txt" || fail_with_log "$root/ldd.txt" "ldd $off failed"
if grep -E 'lib(grpc|gpr|protobuf|prometheus)' "$root/ldd.txt"; then
  fail "$off links a cluster library (above)"
fi

# The embedded commands write what the cluster build's do. verify's records
# carry no time; the summary's (jsonl "seconds", text "Time: S s (N games/s)")
# is the run's own.
sample="$source_dir/examples/lichess_sample.pgn"
without_time() { sed -E 's/"seconds": [0-9.e+-]+/"seconds": T/; s/^Time: .*$/Time: T/'; }
for format in jsonl text; do
  "$off" verify --format "$format" "$sample" > "$root/verify.off.$format" ||
    fail "OFF arbiter verify --format $format exited $?"
  "$on" verify --format "$format" "$sample" > "$root/verify.on.$format" ||
    fail "cluster arbiter verify --format $format exited $?"
  [ -s "$root/verify.off.$format" ] || fail "OFF arbiter verify --format $format wrote nothing"
  if ! diff <(without_time < "$root/verify.on.$format") <(without_time < "$root/verify.off.$format") \
    > "$root/verify.diff"; then
    fail_with_log "$root/verify.diff" "verify --format $format differs from the cluster build's"
  fi
done
fen='4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1'
for json in "" --json; do
  "$off" analyze --fen "$fen" $json > "$root/analyze.off" || fail "OFF arbiter analyze $json exited $?"
  "$on" analyze --fen "$fen" $json > "$root/analyze.on" || fail "cluster arbiter analyze $json exited $?"
  [ -s "$root/analyze.off" ] || fail "OFF arbiter analyze $json wrote nothing"
  diff "$root/analyze.on" "$root/analyze.off" > "$root/analyze.diff" ||
    fail_with_log "$root/analyze.diff" "analyze $json differs from the cluster build's"
done
"$off" perft --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' --depth 3 \
  > "$root/perft.off" || fail "OFF arbiter perft exited $?"
grep -q '8902' "$root/perft.off" || fail_with_log "$root/perft.off" "perft 3 of the start is not 8902"

# What needs the cluster: exit 2 (usage), nothing on stdout, and the reason
# on stderr.
refused() {
  local want="$1"
  shift
  local code=0
  "$@" > "$root/refused.out" 2> "$root/refused.err" < /dev/null || code=$?
  [ "$code" -eq 2 ] || fail "$* exited $code, not 2 (stderr: $(cat "$root/refused.err"))"
  [ ! -s "$root/refused.out" ] || fail "$* wrote to stdout: $(cat "$root/refused.out")"
  grep -qF -- "$want" "$root/refused.err" ||
    fail "$* did not say \"$want\"; stderr: $(cat "$root/refused.err")"
  echo "refused as expected: $* -> $(cat "$root/refused.err")"
}
built_off="(this arbiter was built with -DARBITER_CLUSTER=OFF)"
refused "arbiter serve: needs the cluster build $built_off" "$off" serve
refused "arbiter serve: needs the cluster build $built_off" "$off" serve --http 127.0.0.1:0
refused "arbiter verify: --coordinator needs the cluster build $built_off" \
  "$off" verify --coordinator 127.0.0.1:1 "$sample"
refused "arbiter verify: --coordinator needs the cluster build $built_off" \
  "$off" --coordinator 127.0.0.1:1 verify "$sample"
refused "arbiter analyze: --coordinator needs the cluster build $built_off" \
  "$off" analyze --coordinator 127.0.0.1:1 --fen "$fen"
refused "arbiter analyze: \$ARBITER_COORDINATOR is set, but --coordinator needs the cluster build" \
  env ARBITER_COORDINATOR=127.0.0.1:1 "$off" analyze --fen "$fen"
refused "arbiter verify: \$ARBITER_COORDINATOR is set, but --coordinator needs the cluster build" \
  env ARBITER_COORDINATOR=127.0.0.1:1 "$off" verify "$sample"
refused "arbiter job: --coordinator needs the cluster build $built_off" "$off" job list
refused "arbiter job: --coordinator needs the cluster build $built_off" \
  "$off" --coordinator 127.0.0.1:1 job submit "$sample"
# --coordinator '' runs embedded, whatever the environment says, as in the
# cluster build.
ARBITER_COORDINATOR=127.0.0.1:1 "$off" analyze --coordinator '' --fen "$fen" > "$root/analyze.off" ||
  fail "OFF arbiter analyze --coordinator '' exited $?"

# With the whole tree built, its core tests run: cli_test's cases of the
# command line (every command's help, job's included), the fuzz targets'
# regressions and the C API's.
if [ -x "$tree/tests/cli_test" ]; then
  "$tree/tests/cli_test" \
    --gtest_filter='Cli.HelpForEveryCommand:Cli.VersionOfEveryProgram:Cli.UsageErrorsNameTheOption:Cli.PerftJsonAndDivide' \
    > "$root/cli_test.log" 2>&1 || fail_with_log "$root/cli_test.log" "the OFF tree's cli_test failed"
  "$tree/tests/fuzz_regression_test" > "$root/fuzz_regression_test.log" 2>&1 ||
    fail_with_log "$root/fuzz_regression_test.log" "the OFF tree's fuzz_regression_test failed"
  "$tree/tests/capi_test" > "$root/capi_test.log" 2>&1 ||
    fail_with_log "$root/capi_test.log" "the OFF tree's capi_test failed"
fi
# Every command's help, job's and serve's included, as the cluster build's.
for command in perft analyze verify tables job serve; do
  "$off" "$command" --help > "$root/help.off" 2>&1 || fail "OFF arbiter $command --help exited $?"
done

# The C library without gRPC installs and links as from the cluster build
# (tests/install_test.sh).
"$source_dir/tests/install_test.sh" "$tree" "$source_dir" > "$root/install_test.log" 2>&1 ||
  fail_with_log "$root/install_test.log" "the OFF tree's library did not install or link"

echo "standalone_build_test: passed in $((SECONDS - start)) s"
