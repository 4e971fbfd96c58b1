#!/usr/bin/env bash
# The HTTP front under hostile clients, as figures: /healthz latency on new
# connections while 200 clients send their headers a byte a second (p50,
# p99, the server's threads), and the server's RSS before and after a 300 MB
# header flood and body floods (unknown route, cancel without a token, job
# upload without a token). It runs the measuring cases of
# tests/http_hostile_test.cc (real `arbiter serve` on 127.0.0.1, raw
# sockets), which also assert the bounds; this prints their FIGURE lines.
#
#   bench/hostile_http.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -x "$build/tests/http_hostile_test" ] || { echo "missing $build/tests/http_hostile_test: build first" >&2; exit 1; }
tables=${ARBITER_TABLES:-$build/bench-tables}
[ -d "$tables" ] || "$build/arbiter" tables build "$tables" >/dev/null
ARBITER_TABLES=$tables "$build/tests/http_hostile_test" \
  --gtest_filter='HttpHostile.SlowClientsDoNotDelayOthers:HttpHostile.HeaderFloodIsRefusedEarly:HttpHostile.BodyFloodsAreRefusedEarly' |
  tee "${TMPDIR:-/tmp}/hostile_http.log" | grep -E '^FIGURE|FAILED|PASSED' | sed 's/^FIGURE //'
