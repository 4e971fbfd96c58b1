#!/usr/bin/env bash
# What the rules cost on top of reading, on one core, in one run:
#   - read + replay: build/bench/pgn_throughput (decompress, tokenise, every
#     move replayed and checked legal);
#   - `arbiter verify --jobs 1 --format jsonl` at the default budget and at
#     --budget 1 (a smaller budget must never be slower);
#   - with BASELINE_BUILD, the same verify of that build: its CPU seconds
#     beside this one's, and whether the records are byte-identical (the
#     summary line, which holds the run's seconds, left out).
# CPU seconds are user + system of each process (/usr/bin/time), the least
# of three runs, so that other load on the machine counts as little as it
# can; games per CPU-second follow.
#
#   [BASELINE_BUILD=DIR] bench/verify_throughput.sh [FILE.pgn[.zst]] [BUILD_DIR]
#
# Defaults: ../shared/games/lichess_jishanshaikh4_37221.pgn.zst and build/.
# The retrograde tables come from $ARBITER_TABLES, else BUILD_DIR/bench-tables
# (built first, outside the timings).
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
baseline=${BASELINE_BUILD:-}
arbiter=$build/arbiter
parse=$build/bench/pgn_throughput
for f in "$arbiter" "$parse" ${baseline:+"$baseline/arbiter"}; do
  [ -x "$f" ] || { echo "missing $f: build first (ninja -C $(dirname "$f"))" >&2; exit 1; }
done
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }
if [ -z "${ARBITER_TABLES:-}" ]; then
  export ARBITER_TABLES=$build/bench-tables
  "$arbiter" tables build "$ARBITER_TABLES" >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu_seconds() {  # OUT command...: least user+system CPU of three runs; stdout of the last to OUT
  local out=$1 best="" t
  shift
  for _ in 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" >"$out" 2>/dev/null
    t=$(awk 'END { print $1 + $2 }' "$work/time")
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
  done
  echo "$best"
}

verify=(verify --jobs 1 --format jsonl)
t_parse=$(cpu_seconds /dev/null "$parse" "$file")
t_verify=$(cpu_seconds "$work/records" "$arbiter" "${verify[@]}" "$file")
t_budget1=$(cpu_seconds /dev/null "$arbiter" "${verify[@]}" --budget 1 "$file")
games=$(tail -1 "$work/records" | sed 's/.*"games": \([0-9]*\).*/\1/')
t_base=""
identical=""
if [ -n "$baseline" ]; then
  t_base=$(cpu_seconds "$work/baseline" "$baseline/arbiter" "${verify[@]}" "$file")
  if cmp -s <(grep -v '"type": "summary"' "$work/records") \
    <(grep -v '"type": "summary"' "$work/baseline"); then
    identical=yes
  else
    identical=NO
  fi
fi
awk -v g="$games" -v p="$t_parse" -v v="$t_verify" -v b1="$t_budget1" -v base="$t_base" \
  -v same="$identical" 'BEGIN {
  printf "games: %d (CPU seconds, least of 3 runs each)\n", g
  printf "read + replay (pgn_throughput): %6.2f s  %7.0f games per CPU-s\n", p, g / p
  printf "verify --jobs 1:                %6.2f s  %7.0f games per CPU-s\n", v, g / v
  printf "verify --jobs 1 --budget 1:     %6.2f s  %7.0f games per CPU-s\n", b1, g / b1
  if (base != "")
    printf "baseline verify --jobs 1:       %6.2f s  %7.0f games per CPU-s\n", base, g / base
  printf "verify rate / read + replay rate: %.3f\n", p / v
  printf "--budget 1 CPU / default CPU:     %.3f%s\n", b1 / v, (b1 > v ? "  (SLOWER: a smaller budget must not be)" : "")
  if (base != "") {
    printf "this / baseline CPU:              %.3f\n", v / base
    printf "records identical to baseline:    %s\n", same
  }
}'
[ "$identical" != NO ]
