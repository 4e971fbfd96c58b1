#!/usr/bin/env bash
# What a flag-fall ruling costs a program that links libarbiter, beside the
# same answers through `arbiter analyze -`, in one run, one thread each
# (docs/embedding.md): the final position of every Lichess game lost on
# time, asked for the side that did not flag.
#
#   bench/embedding_cost.sh [GAMES.pgn.zst] [BUILD_DIR]
#
# The retrograde tables come from $ARBITER_TABLES (generated there first
# when missing, and the time that took reported apart), so that the first
# call's cost is mapping a stored table, as on a machine that has run
# Arbiter before. Prints the C API's engine creation, first call, p50/p99,
# CPU per call; analyze's CPU per line and p50/p99; their ratio; the
# memory before and after the tables are touched; and whether two
# processes share the mapped tables (their PSS).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-../shared/games/lichess_jishanshaikh4_37221.pgn.zst}
build=${2:-build}
tables=${ARBITER_TABLES:?set ARBITER_TABLES to the tables directory (generated there when missing)}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${holders:-}" ] && kill $holders 2>/dev/null || true' EXIT

start=$(date +%s.%N)
"$build/arbiter" tables build "$tables" > /dev/null
echo "tables: $(ls "$tables" | wc -l) files in $tables (build or check: $(echo "$(date +%s.%N) - $start" | bc) s)"

# "FEN side" for every flag fall the verdicts name: the side that did not
# flag is the one whose mate decides the result (6.9).
"$build/arbiter" verify --format jsonl --tables "$tables" "$games" 2> /dev/null |
  /usr/bin/python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if (r.get("rule") or "").startswith("flag_fall") and r.get("flag_fallen_by") in ("white", "black"):
        side = "black" if r["flag_fallen_by"] == "white" else "white"
        print(r["end_fen"], side)
' > "$work/queries.txt"
echo "queries: $(wc -l < "$work/queries.txt") flag falls from $games"
echo

echo "== C API (bench/capi_latency, libarbiter.so, one thread, a fresh process)"
"$build/bench/capi_latency" "$work/queries.txt" --tables "$tables" | tee "$work/capi.txt"
echo

echo "== arbiter analyze --jobs 1 --timing - (the same lines, a fresh process)"
/usr/bin/time -f "%U %S" -o "$work/analyze.time" \
  "$build/arbiter" analyze --jobs 1 --timing --tables "$tables" - < "$work/queries.txt" > "$work/analyze.jsonl"
/usr/bin/python3 - "$work/analyze.jsonl" "$work/analyze.time" "$work/capi.txt" <<'PY'
import json, re, sys
records = [json.loads(l) for l in open(sys.argv[1])]
micros = sorted(r["microseconds"] for r in records)
answers = {"yes": 0, "no": 0, "unknown": 0}
for r in records:
    asked = r["white"] or r["black"]
    answers[asked["can_mate"]] += 1
print(f"answers: yes {answers['yes']}, no {answers['no']}, unknown {answers['unknown']}")
user, system = map(float, open(sys.argv[2]).read().split()[-2:])
cpu = user + system
n = len(micros)
print(f"lines: {n}; p50 {micros[n // 2]:.1f} us, p99 {micros[int(0.99 * (n - 1))]:.1f} us, "
      f"max {micros[-1]:.1f} us (the search alone, as analyze times it)")
print(f"total: {cpu:.3f} CPU-s, {cpu / n * 1e6:.1f} us per line (CPU, process included)")
capi = float(re.search(r"([0-9.]+) us per call", open(sys.argv[3]).read()).group(1))
print(f"\nratio: a C API call costs {capi / (cpu / n * 1e6):.2f}x an analyze line (CPU)")
PY
echo

echo "== two processes holding the same tables: their PSS of the mapped table files"
holders=""
for i in 1 2; do
  mkfifo "$work/hold$i"
  "$build/bench/capi_latency" "$work/queries.txt" --tables "$tables" --hold < "$work/hold$i" > "$work/out$i" &
  holders="$holders $!"
  exec {fd}> "$work/hold$i"
  eval "fd$i=$fd"
done
for i in 1 2; do
  until grep -q '^ready' "$work/out$i"; do sleep 0.2; done
done
for pid in $holders; do
  /usr/bin/python3 - "$pid" "$tables" <<'PY'
import sys
pid, tables = sys.argv[1], sys.argv[2]
rss = pss = 0
inside = False
for line in open(f"/proc/{pid}/smaps"):
    fields = line.split()
    if len(fields) >= 6 and "-" in fields[0]:
        inside = fields[5].startswith(tables)
    elif inside and fields[0] == "Rss:":
        rss += int(fields[1])
    elif inside and fields[0] == "Pss:":
        pss += int(fields[1])
print(f"process {pid}: mapped tables rss {rss} kB, pss {pss} kB"
      + (f" (shared: pss/rss {pss / rss:.2f})" if rss else ""))
PY
done
exec {fd1}>&- {fd2}>&-
wait $holders
holders=""
