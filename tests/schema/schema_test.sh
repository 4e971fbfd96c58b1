#!/usr/bin/env bash
# Every JSON surface of Arbiter, validated against docs/schema/ by
# tests/schema/validate.py: `verify --format jsonl` (the examples, the
# shared games, with Syzygy tables, under each rule set), `analyze --json`
# and `analyze FILE` (with --timing), and the HTTP API of `arbiter serve`
# and of a coordinator with a worker (analyze, verify, jobs, tablebase,
# health, failures), on 127.0.0.1 only; first, tests/schema/validate_test.py
# (the schemas refuse what they should). Goes through every surface, then
# validates all their outputs in one validate.py run, and fails naming each
# surface whose exit code, HTTP status or records were not as expected.
#
# Usage: tests/schema/schema_test.sh [BUILD_DIR]   (default: build/ of the
# source tree holding this script). Needs the shared material
# ($ARBITER_SHARED, else ../shared beside the source tree), curl and
# /usr/bin/python3 with python3-jsonschema. $ARBITER_TABLES (else
# BUILD_DIR/test-tables) holds Arbiter's retrograde tables;
# SCHEMA_TEST_KEEP=1 keeps the outputs (their directory is printed).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
build="$(cd "${1:-$source_dir/build}" && pwd)"
examples="$source_dir/examples"
shared="${ARBITER_SHARED:-$source_dir/../shared}"
tables="${ARBITER_TABLES:-$build/test-tables}"
# The commands must not pick up a developer's settings.
unset ARBITER_SYZYGY ARBITER_COORDINATOR

for program in arbiter arbiter-coordinator arbiter-worker; do
  if [ ! -x "$build/$program" ]; then
    echo "schema_test: $build/$program is missing: build first" >&2
    exit 1
  fi
done
if ! ls "$shared"/games/*.pgn.zst >/dev/null 2>&1 || [ ! -d "$shared/syzygy" ]; then
  echo "schema_test: the shared material is absent: no games/*.pgn.zst and syzygy/ in" \
    "'$shared' (set ARBITER_SHARED, or put it at ../shared beside the source tree)" >&2
  exit 1
fi
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  echo "schema_test: /usr/bin/python3 has no jsonschema: apt-get install python3-jsonschema" \
    "(scripts/setup.sh installs it)" >&2
  exit 1
fi
command -v curl >/dev/null || { echo "schema_test: curl is missing" >&2; exit 1; }

scratch="$(mktemp -d)"
daemons=()  # pids of the processes this script started
cleanup() {
  local pid
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "${SCHEMA_TEST_KEEP:-}" ]; then
    echo "schema_test: the outputs are in $scratch (manifest: $scratch/manifest)"
  else
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT

arbiter=("$build/arbiter")
last_out=""  # the body of the last call
failed=()  # what failed: a surface's exit code or HTTP status, validation
n=0        # outputs so far (their file names)

# Each output to validate, one a line: PATH<tab>LABEL[<tab>SCHEMA]; one
# validate.py reads them all at the end (a Python start per output would
# cost more than the commands).
manifest="$scratch/manifest"
: >"$manifest"
# record FILE LABEL [--schema NAME]: FILE is to be validated as LABEL.
record() {
  printf '%s\t%s\t%s\n' "$1" "$2" "${4:-}" >>"$manifest"
}

# surface LABEL EXPECTED_EXIT [--schema NAME] -- COMMAND...: runs COMMAND,
# checks its exit code, and keeps what it printed for validation.
surface() {
  local label="$1" expected="$2"
  shift 2
  local options=()
  while [ "$1" != "--" ]; do
    options+=("$1")
    shift
  done
  shift
  n=$((n + 1))
  local out="$scratch/out.$n" rc=0
  "$@" >"$out" 2>"$out.err" || rc=$?
  if [ "$rc" != "$expected" ]; then
    echo "FAIL $label: exit $rc, expected $expected:" >&2
    head -c 2000 "$out.err" >&2
    failed+=("$label (exit $rc)")
  fi
  record "$out" "$label" "${options[@]}"
}

# The shared games first, in the background: the largest part, validated
# while the rest runs.
(
  status=0
  for f in "$shared"/games/*.pgn.zst; do
    "${arbiter[@]}" verify --format jsonl --tables "$tables" "$f" >"$scratch/shared.$(basename "$f").jsonl" ||
      { echo "FAIL verify $f: exit $?" >&2; status=1; }
  done
  cd "$scratch"
  /usr/bin/python3 "$here/validate.py" --max-errors 8 shared.*.jsonl || status=1
  exit $status
) >"$scratch/shared.log" 2>&1 &
shared_job=$!
daemons+=("$shared_job")

echo "== the schemas are strict (tests/schema/validate_test.py)"
if ! /usr/bin/python3 "$here/validate_test.py" 2>"$scratch/validate_test.log"; then
  cat "$scratch/validate_test.log" >&2
  failed+=("validate_test.py")
else
  tail -n 3 "$scratch/validate_test.log"
fi

echo "== verify --format jsonl"
for f in "$examples"/*.pgn; do
  surface "verify $(basename "$f")" 0 -- "${arbiter[@]}" verify --format jsonl --tables "$tables" "$f"
done
surface "verify --syzygy claims_games.pgn" 0 -- "${arbiter[@]}" verify --format jsonl \
  --tables "$tables" --syzygy "$shared/syzygy" "$examples/claims_games.pgn"
for rules in uscf iccf; do
  surface "verify --rules $rules claims_games.pgn" 0 -- "${arbiter[@]}" verify --format jsonl \
    --tables "$tables" --rules "$rules" "$examples/claims_games.pgn"
done
surface "verify --rules chess99 chess99_games.pgn" 0 -- "${arbiter[@]}" verify --format jsonl \
  --tables "$tables" --rules chess99 "$examples/chess99_games.pgn"
# Records the examples lack: no tags at all, an illegal move (an error
# with its line), a forfeit, an unfinished game, a [%claim], Windows-1252
# bytes.
printf '%b' '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n\n' \
  '[Result "1-0"]\n\n1. e4 e5 2. Ke3 Ke6 3. Kxe5 1-0\n\n' \
  '[Result "1/2-1/2"]\n[Termination "abandoned"]\n\n1. e4 1/2-1/2\n\n' \
  '[White "Ren\xe9"]\n[Result "*"]\n\n1. d4 d5 *\n\n' \
  '[Result "1/2-1/2"]\n[FEN "8/8/8/3k4/8/8/3PK3/7R b - - 0 40"]\n\n' \
  '40... Kd6 41. Rh6+ {[%claim quickplay_finish]} 1/2-1/2\n\n' \
  '[Result "1-0"]\n[Termination "Black forfeits on time"]\n\n1. e4 e5 1-0\n' \
  >"$scratch/odd.pgn"
surface "verify odd records" 0 -- "${arbiter[@]}" verify --format jsonl --tables "$tables" \
  "$scratch/odd.pgn"
surface "verify - (stdin)" 0 -- sh -c "cat '$examples/lichess_sample.pgn' | '$build/arbiter' \
  verify --format jsonl --tables '$tables' -"

echo "== analyze --json"
analyze=("${arbiter[@]}" analyze --json --tables "$tables")
position() {  # position LABEL FEN [options...]
  local label="$1" fen="$2"
  shift 2
  surface "analyze $label" 0 -- "${analyze[@]}" --fen "$fen" "$@"
}
position ongoing 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'
position checkmate 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'
position stalemate '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'
position 'dead (fortress)' '4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1'
position 'dead (bare kings)' '8/8/8/4k3/8/8/8/4K3 w - - 0 1'
position 'dead (K+N v K)' '4k3/8/8/8/8/8/8/4K1N1 w - - 0 1'
position 'fifty-move claim' '8/8/8/4k3/8/8/3R4/4K3 w - - 100 80'
position 'seventy-five moves' '8/8/8/4k3/8/8/3R4/4K3 w - - 150 120'
position 'threefold by --moves' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' \
  --moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1
position 'fivefold by --moves' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' \
  --moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8
position --chess960 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' --chess960
position '--claim quickplay_finish (rejected)' '8/8/8/4k3/8/8/8/K6Q b - - 0 50' \
  --claim quickplay_finish
position '--claim quickplay_finish (upheld)' '8/8/8/3k4/8/8/3PK3/7R w - - 1 41' \
  --claim quickplay_finish --claimant white
position '--claim insufficient_losing_chances' '8/8/8/3k4/8/8/3PK3/7R w - - 1 41' \
  --claim insufficient_losing_chances
position '--claim tablebase_claim --rules iccf' '8/8/8/4k3/8/8/8/K6Q b - - 0 50' \
  --claim tablebase_claim --rules iccf
position '--claim tablebase_claim --claimed win --syzygy' '8/8/8/4k3/8/8/8/K6Q w - - 0 50' \
  --claim tablebase_claim --rules iccf --claimed win --syzygy "$shared/syzygy"
position '--syzygy (covered)' '8/8/8/4k3/8/8/3NN3/4K3 w - - 0 1' --syzygy "$shared/syzygy"
position '--syzygy (not covered)' 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1' \
  --syzygy "$shared/syzygy"
position '--rules uscf' '8/8/8/4k3/8/8/8/K6Q b - - 0 50' --rules uscf
position '--rules chess99 (ongoing)' '9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60' --rules chess99
position '--rules chess99 (bare kings)' '9/9/9/9/9/9/4k4/3K5/9 b - - 0 80' --rules chess99
position '--rules chess99 (lone king)' '9/9/9/9/9/9/4k4/3K1Q3/9 b - - 0 80' --rules chess99

echo "== analyze FILE"
cat >"$scratch/fens.txt" <<'EOF'
8/8/8/8/8/4k3/8/4K2Q w - - 0 1
not a fen
4k3/8/8/8/8/8/8/4K1N1 b - - 0 1 white
7k/8/8/8/8/8/8/KR6 w - - black

7k/8/8/8/8/8/8/KR6 w
8/8/8/8/8/8/8/K6k w - - 0 1 purple
6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1
EOF
surface "analyze FILE" 1 -- "${arbiter[@]}" analyze --tables "$tables" "$scratch/fens.txt"
surface "analyze FILE --timing" 1 -- "${arbiter[@]}" analyze --tables "$tables" --timing \
  "$scratch/fens.txt"
surface "analyze - --jobs 1 (pipe)" 1 -- sh -c "cat '$scratch/fens.txt' | '$build/arbiter' \
  analyze --tables '$tables' --jobs 1 -"
printf '%s\n' '9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60' 'not a fen-9' \
  '9/9/9/9/9/9/4k4/3K5/9 b - - 0 80' >"$scratch/fens9.txt"
surface "analyze --rules chess99 FILE --timing" 1 -- "${arbiter[@]}" analyze --rules chess99 \
  --timing "$scratch/fens9.txt"

# The port a daemon wrote to FILE (0 after 15 s).
wait_port() {
  local i
  for ((i = 0; i < 300; i++)); do
    if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; then
      tr -d '\n' <"$1"
      return 0
    fi
    sleep 0.05
  done
  echo 0
}

# call LABEL EXPECTED_HTTP_STATUS [--schema NAME] -- CURL_ARGS...: one HTTP
# call, its status checked, its body (JSON or NDJSON) validated.
call() {
  local label="$1" expected="$2"
  shift 2
  local options=()
  while [ "$1" != "--" ]; do
    options+=("$1")
    shift
  done
  shift
  n=$((n + 1))
  local out="$scratch/out.$n" code
  last_out="$out"
  code="$(curl -s --max-time 60 -o "$out" -w '%{http_code}' "$@")" || true
  if [ "$code" != "$expected" ]; then
    echo "FAIL $label: HTTP $code, expected $expected:" >&2
    head -c 2000 "$out" >&2 || true
    echo >&2
    failed+=("$label (HTTP $code)")
  fi
  record "$out" "$label" "${options[@]}"
}

# A value of the JSON object in FILE.
json_value() {
  /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# The HTTP API on PORT (NAME says which server); TABLEBASE=1: it has Syzygy
# tables.
http_checks() {
  local name="$1" port="$2" tablebase="$3"
  local a="http://127.0.0.1:$port"
  echo "== HTTP, $name"
  call "$name GET /healthz" 200 -- "$a/healthz"
  call "$name GET /v1/analyze" 200 -- -G "$a/v1/analyze" \
    --data-urlencode 'fen=8/8/8/8/8/4k3/8/4K2Q w - - 0 1'
  call "$name GET /v1/analyze side=white" 200 -- -G "$a/v1/analyze" \
    --data-urlencode 'fen=4k3/8/8/8/8/8/8/4K1N1 b - - 0 1' --data-urlencode side=white
  call "$name GET /v1/analyze claim=quickplay_finish" 200 -- -G "$a/v1/analyze" \
    --data-urlencode 'fen=8/8/8/4k3/8/8/8/K6Q b - - 0 50' --data-urlencode claim=quickplay_finish
  call "$name GET /v1/analyze claim=tablebase_claim" 200 -- -G "$a/v1/analyze" \
    --data-urlencode 'fen=8/8/8/4k3/8/8/8/K6Q b - - 0 50' --data-urlencode claim=tablebase_claim
  call "$name GET /v1/analyze rules=chess99" 200 -- -G "$a/v1/analyze" \
    --data-urlencode 'fen=9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60' --data-urlencode rules=chess99
  call "$name POST /v1/analyze" 200 -- -X POST "$a/v1/analyze" \
    -d '{"fen": "4k3/8/8/8/8/8/8/4K1N1 b - - 0 1", "side": "white"}'
  call "$name POST /v1/analyze moves" 200 -- -X POST "$a/v1/analyze" \
    -d '{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "moves": ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"], "budget": 20000}'
  call "$name POST /v1/analyze chess99" 200 -- -X POST "$a/v1/analyze" \
    -d '{"fen": "9/9/9/9/9/9/4k4/3K1Q3/9 b - - 0 80", "rules": "chess99"}'
  call "$name POST /v1/verify" 200 -- --data-binary "@$examples/lichess_sample.pgn" \
    "$a/v1/verify"
  call "$name POST /v1/verify claims rules=uscf" 200 -- \
    --data-binary "@$examples/claims_games.pgn" "$a/v1/verify?rules=uscf"
  call "$name POST /v1/verify chess99" 200 -- --data-binary "@$examples/chess99_games.pgn" \
    "$a/v1/verify?rules=chess99"
  # A body that ends early: verdicts, then the failure as the last line.
  head -c 60000 "$shared/games/otb_kasparov_2128.pgn.zst" >"$scratch/cut.pgn.zst"
  n=$((n + 1))
  local cut="$scratch/out.$n"
  curl -s --max-time 60 --data-binary "@$scratch/cut.pgn.zst" "$a/v1/verify" >"$cut" || true
  if [ "$(tail -n 1 "$cut" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("type"))' 2>/dev/null)" != failure ]; then
    echo "FAIL $name POST /v1/verify (cut body): the stream does not end with a failure" >&2
    failed+=("$name POST /v1/verify (cut body)")
  fi
  record "$cut" "$name POST /v1/verify (cut body)"
  if [ "$tablebase" = 1 ]; then
    call "$name POST /v1/verify tablebase=true" 200 -- \
      --data-binary "@$examples/claims_games.pgn" "$a/v1/verify?tablebase=true"
    call "$name GET /v1/analyze tablebase=true" 200 -- -G "$a/v1/analyze" \
      --data-urlencode 'fen=8/8/8/4k3/8/8/3NN3/4K3 w - - 0 1' --data-urlencode tablebase=true
    call "$name GET /v1/tablebase (covered)" 200 --schema tablebase -- -G "$a/v1/tablebase" \
      --data-urlencode 'fen=8/8/8/4k3/8/8/3NN3/4K3 w - - 0 1'
    call "$name GET /v1/tablebase (checkmate)" 200 --schema tablebase -- -G "$a/v1/tablebase" \
      --data-urlencode 'fen=7k/6Q1/6K1/8/8/8/8/8 b - - 0 1'
    call "$name GET /v1/tablebase (not covered)" 200 --schema tablebase -- -G \
      "$a/v1/tablebase" --data-urlencode \
      'fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'
  fi

  # Jobs: submit, follow, list, results, cancel, delete.
  call "$name POST /v1/jobs" 201 -- --data-binary "@$examples/lichess_sample.pgn" \
    "$a/v1/jobs?name=lichess_sample.pgn"
  local job="$last_out" id
  id="$(json_value "$job" id 2>/dev/null)" || id=""
  if [ -z "$id" ]; then
    echo "FAIL $name: no job id in $(head -c 500 "$job" 2>/dev/null)" >&2
    failed+=("$name jobs")
    return 0
  fi
  local i
  for ((i = 0; i < 200; i++)); do
    curl -s --max-time 10 "$a/v1/jobs/$id" >"$scratch/job.json" || true
    [ "$(json_value "$scratch/job.json" state 2>/dev/null)" != running ] && break
    sleep 0.05
  done
  call "$name GET /v1/jobs/{id}" 200 -- "$a/v1/jobs/$id"
  call "$name GET /v1/jobs" 200 -- "$a/v1/jobs"
  call "$name GET /v1/jobs/{id}/results" 200 -- "$a/v1/jobs/$id/results"
  call "$name GET /v1/jobs/{id}/results first_game=3" 200 -- "$a/v1/jobs/$id/results?first_game=3"
  call "$name POST /v1/jobs/{id}/cancel (ended)" 200 -- -X POST -d '' "$a/v1/jobs/$id/cancel"
  # A larger job cancelled at once (it may have ended already).
  call "$name POST /v1/jobs (options)" 201 -- --data-binary \
    "@$shared/games/lichess_jishanshaikh4_37221.pgn.zst" \
    "$a/v1/jobs?name=lichess.pgn.zst&budget=50000&table_mb=8&rules=uscf"
  local big="$scratch/big.json" big_id
  big_id="$(json_value "$last_out" id 2>/dev/null)" || big_id=""
  if [ -n "$big_id" ]; then
    call "$name POST /v1/jobs/{id}/cancel" 200 -- -X POST -d '' "$a/v1/jobs/$big_id/cancel"
    for ((i = 0; i < 200; i++)); do
      curl -s --max-time 10 "$a/v1/jobs/$big_id" >"$big" || true
      [ "$(json_value "$big" state 2>/dev/null)" != running ] && break
      sleep 0.05
    done
    call "$name GET /v1/jobs/{id} (cancelled)" 200 -- "$a/v1/jobs/$big_id"
    call "$name DELETE /v1/jobs/{id} (cancelled)" 200 -- -X DELETE "$a/v1/jobs/$big_id"
  fi
  call "$name DELETE /v1/jobs/{id}" 200 -- -X DELETE "$a/v1/jobs/$id"
  # A job whose input ends early fails, with its error.
  call "$name POST /v1/jobs (cut input)" 201 -- --data-binary "@$scratch/cut.pgn.zst" \
    "$a/v1/jobs?name=cut.pgn.zst"
  local cut_id
  cut_id="$(json_value "$last_out" id 2>/dev/null)" || cut_id=""
  if [ -n "$cut_id" ]; then
    for ((i = 0; i < 200; i++)); do
      curl -s --max-time 10 "$a/v1/jobs/$cut_id" >"$scratch/job.json" || true
      [ "$(json_value "$scratch/job.json" state 2>/dev/null)" != running ] && break
      sleep 0.05
    done
    call "$name GET /v1/jobs/{id} (failed)" 200 -- "$a/v1/jobs/$cut_id"
    call "$name GET /v1/jobs/{id}/results (failed)" 200 -- "$a/v1/jobs/$cut_id/results"
  fi

  # Failures.
  call "$name GET /v1/analyze?fen=bad" 400 -- "$a/v1/analyze?fen=bad"
  call "$name POST /v1/analyze unknown key" 400 -- -X POST "$a/v1/analyze" \
    -d '{"fen": "8/8/8/8/8/4k3/8/4K2Q w - - 0 1", "bogus": 1}'
  call "$name POST /v1/analyze not JSON" 400 -- -X POST "$a/v1/analyze" -d 'not json'
  call "$name GET /v1/analyze bad budget" 400 -- "$a/v1/analyze?fen=8/8/8/8/8/4k3/8/4K2Q+w+-+-+0+1&budget=x"
  call "$name GET /v1/jobs/{deleted id}" 404 -- "$a/v1/jobs/$id"
  call "$name GET /v1/jobs/{id}/results (no job)" 404 -- "$a/v1/jobs/0123456789abcdef/results"
  call "$name DELETE /v1/jobs/{no job}" 404 -- -X DELETE "$a/v1/jobs/0123456789abcdef"
  call "$name GET /v1/nothing" 404 -- "$a/v1/nothing"
  if [ "$tablebase" != 1 ]; then
    call "$name GET /v1/tablebase (no tables)" 400 -- -G "$a/v1/tablebase" \
      --data-urlencode 'fen=8/8/8/4k3/8/8/3NN3/4K3 w - - 0 1'
  fi
}

"${arbiter[@]}" serve --http 127.0.0.1:0 --port-file "$scratch/serve.port" --tables "$tables" \
  --job-dir "$scratch/serve-jobs" \
  --jobs 2 --syzygy "$shared/syzygy" 2>"$scratch/serve.log" &
daemons+=($!)
serve_port="$(wait_port "$scratch/serve.port")"
if [ "$serve_port" = 0 ]; then
  echo "FAIL: arbiter serve did not start:" >&2
  cat "$scratch/serve.log" >&2
  failed+=("arbiter serve")
else
  http_checks serve "$serve_port" 1
fi

"$build/arbiter-worker" --listen 127.0.0.1:0 --threads 1 --tables "$tables" \
  --port-file "$scratch/worker.port" 2>"$scratch/worker.log" &
daemons+=($!)
worker_port="$(wait_port "$scratch/worker.port")"
coordinator_port=0
if [ "$worker_port" != 0 ]; then
  "$build/arbiter-coordinator" --listen 127.0.0.1:0 --workers "127.0.0.1:$worker_port" \
    --job-dir "$scratch/jobs" --batch 16 --port-file "$scratch/coordinator.port" \
    --http 127.0.0.1:0 2>"$scratch/coordinator.log" &
  daemons+=($!)
  coordinator_port="$(wait_port "$scratch/coordinator.port")"
  http_port="$(wait_port "$scratch/coordinator.port.http")"
fi
if [ "$coordinator_port" = 0 ] || [ "${http_port:-0}" = 0 ]; then
  echo "FAIL: the worker or the coordinator did not start:" >&2
  cat "$scratch/worker.log" "$scratch/coordinator.log" >&2 2>/dev/null || true
  failed+=("coordinator")
else
  http_checks coordinator "$http_port" 0
  # The command line through the cluster: the records come back through
  # arbiter.v1 messages.
  remote=("${arbiter[@]}" --coordinator "127.0.0.1:$coordinator_port")
  echo "== the command line through the coordinator"
  surface "--coordinator verify claims_games.pgn" 0 -- "${remote[@]}" verify --format jsonl \
    "$examples/claims_games.pgn"
  surface "--coordinator verify chess99_games.pgn" 0 -- "${remote[@]}" verify --format jsonl \
    "$examples/chess99_games.pgn"
  surface "--coordinator analyze --claim" 0 -- "${remote[@]}" analyze --json \
    --fen '8/8/8/4k3/8/8/8/K6Q b - - 0 50' --claim quickplay_finish
  surface "--coordinator analyze --rules chess99" 0 -- "${remote[@]}" analyze --json \
    --rules chess99 --fen '9/9/9/9/9/9/4k4/3K5/9 b - - 0 80'
  surface "--coordinator analyze FILE" 1 -- "${remote[@]}" analyze "$scratch/fens.txt"
fi

echo "== validate.py: every output above"
if ! /usr/bin/python3 "$here/validate.py" --max-errors 5 --manifest "$manifest"; then
  failed+=("(the outputs above: see validate.py's list)")
fi

echo "== verify, the shared games ($shared/games)"
if ! wait "$shared_job"; then
  failed+=("verify of the shared games")
fi
cat "$scratch/shared.log"

if ((${#failed[@]})); then
  echo >&2
  echo "schema_test: FAILED (${#failed[@]}):" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "schema_test: every surface validates against docs/schema/"
