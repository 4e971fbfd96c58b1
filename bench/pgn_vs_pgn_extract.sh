#!/usr/bin/env bash
# Compares PGN reading speed of bench/pgn_throughput (read + replay with every
# move checked legal) with pgn-extract, which also checks every move, on the
# same file.
#
#   bench/pgn_vs_pgn_extract.sh [FILE.pgn[.zst]] [BUILD_DIR]
#
# Defaults: ../shared/games/lichess_jishanshaikh4_37221.pgn.zst and build/.
# pgn-extract reads plain text only, so compressed input is decompressed to a
# temporary file first (not timed); pgn_throughput is timed on the original
# file, decompression included, and on the plain copy. Each measurement is
# the best of three runs, which damps noise from other load on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
ours=$build/bench/pgn_throughput
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$ours" ] || { echo "missing $ours: build first (ninja -C $build pgn_throughput)" >&2; exit 1; }
[ -x "$extract" ] || { echo "pgn-extract not found (apt-get install pgn-extract)" >&2; exit 1; }
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plain=$tmp/input.pgn
if [ "$(head -c 4 "$file" | od -An -tx1 | tr -d ' ')" = "28b52ffd" ]; then
  zstd -q -dc "$file" >"$plain"
else
  cp "$file" "$plain"
fi
bytes=$(stat -c %s "$plain")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')

# Best wall time in seconds of three runs of "$@" (output discarded).
best_of_three() {
  local best="" t
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
  done
  echo "$best"
}

# Best of three of pgn_throughput's own measurement (MB/s), which leaves out
# the one-time attack-table set-up at start-up.
best_rate_of_three() {
  local best=0 r
  for _ in 1 2 3; do
    r=$("$ours" "$@" 2>/dev/null | awk '/^throughput/ { print $2 }')
    best=$(awk -v r="$r" -v b="$best" 'BEGIN { print (r > b ? r : b) }')
  done
  echo "$best"
}

rate() { awk -v b="$bytes" -v t="$1" 'BEGIN { printf "%.1f", b / 1e6 / t }'; }
row() { printf '%-64s %9s %9s\n' "$1" "$2" "$3"; }

echo "input: $file ($mb MB of PGN text)"
"$ours" "$file" --no-comments 2>/dev/null | grep -E '^(games|moves)' | sed 's/^/  /'
echo

r_zst=$(best_rate_of_three "$file" --no-comments)
r_plain=$(best_rate_of_three "$plain" --no-comments)
r_plain_comments=$(best_rate_of_three "$plain")
t_ours=$(best_of_three "$ours" "$plain" --no-comments)
# -r: check and report only; -o /dev/null: also write every game out.
t_extract_check=$(best_of_three "$extract" -s -r "$plain")
t_extract_out=$(best_of_three "$extract" -s -o /dev/null "$plain")

row "best of 3" "MB/s" "wall s"
row "pgn_throughput $(basename "$file") --no-comments" "$r_zst" "-"
row "pgn_throughput plain text --no-comments" "$r_plain" "-"
row "pgn_throughput plain text, comments kept" "$r_plain_comments" "-"
row "pgn_throughput plain text --no-comments, whole process" "$(rate "$t_ours")" "$t_ours"
row "pgn-extract -s -r (check only), whole process" "$(rate "$t_extract_check")" "$t_extract_check"
row "pgn-extract -s -o /dev/null, whole process" "$(rate "$t_extract_out")" "$t_extract_out"
echo
awk -v ours="$r_plain" -v a="$(rate "$t_extract_check")" -v b="$(rate "$t_extract_out")" 'BEGIN {
  printf "ratio (plain text): pgn_throughput / pgn-extract -r = %.1f, / pgn-extract -o = %.1f\n",
         ours / a, ours / b }'
