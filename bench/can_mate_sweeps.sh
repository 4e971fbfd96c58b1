#!/usr/bin/env bash
# Runs bench/can_mate_sweeps.mjs (adversarial sweeps of `arbiter analyze`'s
# "can this side mate?" against chessops and chasolver; a bench, not a test).
# All options go through; see `bench/can_mate_sweeps.sh --help`. The script
# imports chessops from tests/js/node_modules by path (ESM ignores NODE_PATH).
#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$root/tests/js/node_modules/chessops" ] ||
  { echo "can_mate_sweeps: no tests/js/node_modules/chessops (run npm ci in tests/js)" >&2; exit 2; }
exec node "$root/bench/can_mate_sweeps.mjs" "$@"
