#!/usr/bin/env bash
# Runs everything CI checks: set-up, a warnings-as-errors build, the format
# check, every test but the long tier (`ctest -LE long`: the unit,
# integration and deploy labels, docs/testing.md) and a fuzz smoke run.
# Meant to finish within 12 minutes from a fresh clone on 2 cores; what does
# not fit (research certificates, full-size samples, the adversarial sweep)
# is the long tier, scripts/long-checks.sh. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# Set-up builds build/ with warnings as errors, as scripts/setup.sh always
# does: after the README's first command this compiles nothing.
BUILD_DIR=build scripts/setup.sh

scripts/check-format.sh

# Tests find the shared material (tables, game records) here when it exists.
if [ -z "${ARBITER_SHARED:-}" ] && [ -d ../shared ]; then
  export ARBITER_SHARED="$(cd ../shared && pwd)"
fi
export PATH="$PATH:/usr/games"
# The retrograde tables the tests generate are shared by every test process
# through one directory in the build tree (ctest's retrograde_tables_setup
# generates them once, before the tests that read them); tests of the table
# store and of the --tables option use directories of their own.
export ARBITER_TABLES="${ARBITER_TABLES:-$PWD/build/test-tables}"
ctest --test-dir build --output-on-failure --parallel "$(nproc)" -LE long

# Every fuzz target briefly under ASan and UBSan (clang, build-fuzz/): its
# past crashers, then FUZZ_SECONDS of fuzzing from its seeds. About 3
# minutes from an empty build directory.
scripts/fuzz-smoke.sh
