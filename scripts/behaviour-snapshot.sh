#!/usr/bin/env bash
# Writes what an `arbiter` binary says about a fixed set of inputs, so that
# two builds can be compared byte for byte after a change meant to keep
# behaviour (a refactoring):
#   scripts/behaviour-snapshot.sh OLD_BINARY /tmp/old
#   scripts/behaviour-snapshot.sh build/arbiter /tmp/new
#   diff -r /tmp/old /tmp/new && echo identical
# Inputs: the examples/, and from the shared material ($ARBITER_SHARED or
# ../shared) every game file, the peer test vector, and the Syzygy tables.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 ARBITER_BINARY OUTPUT_DIR" >&2
  exit 2
fi
binary="$(realpath "$1")"
out="$2"
cd "$(dirname "$0")/.."
shared="${ARBITER_SHARED:-../shared}"
if [ ! -d "$shared" ]; then
  echo "$0: the shared material is absent (set ARBITER_SHARED)" >&2
  exit 2
fi
mkdir -p "$out"

# Runs the binary with stdout to $1, and records its exit code, which is
# compared too.
run() {
  local to="$1"
  shift
  local code=0
  "$binary" "$@" >> "$to" || code=$?
  local words="$*"
  echo "${words//$out/OUT} -> exit $code" >> "$out/exit-codes"
}

for file in examples/*.pgn "$shared"/games/*.pgn.zst; do
  name="$(basename "$file")"
  for format in jsonl text csv; do
    # The summary (stdout, or stderr for CSV) is compared too, without its
    # timing.
    run "$out/$name.$format" verify "$file" --format "$format" 2> "$out/$name.$format.stderr"
  done
done
if [ -d "$shared/syzygy" ]; then
  run "$out/kasparov-syzygy.jsonl" verify "$shared/games/otb_kasparov_2128.pgn.zst" \
    --format jsonl --syzygy "$shared/syzygy" 2> /dev/null
fi
# The peer test vector (label, space, FEN), asked as CHA is asked: one
# "FEN white" and one "FEN black" line per position.
sides="$out/test_vector.input"
grep -v '^#' "$shared/peers/d3chess_test_vector.txt" |
  awk 'NF > 1 { $1 = ""; sub(/^ /, ""); print $0 " white"; print $0 " black" }' > "$sides"
run "$out/test_vector.jsonl" analyze "$sides"
# Single positions through --fen, as text and JSON.
for fen in "4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3 0 1" \
           "8/8/8/8/8/2k5/8/K1N5 w - - 0 1" \
           "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"; do
  run "$out/analyze.txt" analyze --fen "$fen"
  run "$out/analyze.jsonl" analyze --fen "$fen" --json
done
sed -i -e '/^Time: /d' -e 's/"seconds": [0-9.e+-]*/"seconds": _/' "$out"/*
echo "$out: $(ls "$out" | wc -l) files"
