#!/usr/bin/env bash
# Games per second of `arbiter verify` on one core, beside the plain PGN
# parse (read + replay, every move checked legal) of the same file, and the
# ratio: what the rules cost on top of reading.
#
#   bench/verify_throughput.sh [FILE.pgn[.zst]] [BUILD_DIR] [BUDGET]
#
# Defaults: ../shared/games/lichess_jishanshaikh4_37221.pgn.zst, build/, and
# verify's default mate-search budget. Best of three runs each.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
budget=${3:-}
arbiter=$build/arbiter
parse=$build/bench/pgn_throughput
for f in "$arbiter" "$parse"; do
  [ -x "$f" ] || { echo "missing $f: build first (ninja -C $build)" >&2; exit 1; }
done
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }

best_of_three() {
  local best="" t start end
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
  done
  echo "$best"
}

games=$("$arbiter" verify --jobs 1 --format jsonl ${budget:+--budget "$budget"} "$file" |
  tail -1 | sed 's/.*"games": \([0-9]*\).*/\1/')
t_verify=$(best_of_three "$arbiter" verify --jobs 1 --format jsonl ${budget:+--budget "$budget"} "$file")
t_parse=$(best_of_three "$parse" "$file")
awk -v g="$games" -v v="$t_verify" -v p="$t_parse" 'BEGIN {
  printf "games: %d\n", g
  printf "verify --jobs 1: %.2f s, %.0f games/s\n", v, g / v
  printf "plain parse:     %.2f s, %.0f games/s\n", p, g / p
  printf "verify / parse speed: %.3f\n", p / v
}'
