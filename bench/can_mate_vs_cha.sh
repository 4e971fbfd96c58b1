#!/usr/bin/env bash
# "Can this side mate?" — build/arbiter against its peers, side by side, in
# one run, on the same positions: for every position, once for White and
# once for Black. The peers: CHA (Chess Unwinnability Analyzer 2.6.1,
# github.com/miguel-ambrona/D3-Chess) and chasolver 3.0.0 (its successor,
# MIT, Rust; ../shared/peers/chasolver builds it offline). Each runs on one
# thread; the report gives each program's wrong and undetermined answers,
# p50/p99/max per side, its CPU seconds, and each peer's CPU over Arbiter's.
#
# CHA is GPL-3.0 (and so is the Stockfish it is built on). It is run here only
# as a separate program over a pipe: never linked into arbiter, never copied
# or committed into this tree. --build-cha builds it from public sources into
# a folder outside this tree (it refuses one inside).
#
# Usage: bench/can_mate_vs_cha.sh [options] [FILE]
#   FILE               labelled positions, as in ../shared/peers/d3chess_test_vector.txt
#                      (default): two label characters (WB, W-, -B, --), a space, a FEN
#                      of 2, 4 or 6 fields; lines starting with # are comments.
#   --unlabelled       FILE holds plain FEN lines (no labels): no "wrong" counts,
#                      only disagreements between the two programs.
#   --cha PATH         the CHA binary (default $CHA, else /tmp/cha-build/bin/cha).
#   --build-cha DIR    first build CHA into DIR (binary: DIR/bin/cha), then run it.
#     --d3chess GIT    D3-Chess git dir   (default $D3CHESS_GIT, else
#                      /work/.mirror/miguel-ambrona+D3-Chess/repo), at $CHA_COMMIT (HEAD;
#                      its src/main.cpp must announce version 2.6.1)
#     --stockfish GIT  Stockfish git dir (default $STOCKFISH_GIT, else
#                      /work/.mirror/official-stockfish+Stockfish/repo), at 51deae8 as
#                      D3-Chess's lib/stockfish/Makefile prescribes
#     --build-only     stop after building (make -j$JOBS, default 2)
#   --arbiter PATH     default $ARBITER, else build/arbiter beside this script.
#   --arbiter-input side|fen
#                      side (default): arbiter gets the same "FEN white" / "FEN black"
#                      lines as CHA and answers one side per line; fen: arbiter gets each
#                      FEN once and both sides are read from its one JSON record.
#   --arbiter-args "..."  extra words for `arbiter analyze` (e.g. a node budget).
#   --cha-limit N      CHA's -limit (its node limit; CHA's default is 500000).
#   --chasolver PATH   chasolver's line driver (default $CHASOLVER, else
#                      /tmp/chasolver/chasolver/target/release/examples/chadriver).
#   --build-chasolver DIR  first build it into DIR with ../shared/peers/chasolver/build.sh.
#   --skip-arbiter / --skip-cha / --skip-chasolver   leave a program out.
#   --keep DIR         keep both programs' stdin/stdout in DIR.
#   --show N           list up to N wrong answers / disagreements (default 10).
#
# FENs with fewer than 6 fields are padded ("- - 0 1" as needed) and both
# programs get the padded FEN. Each program runs once, as one process over all
# lines, one after the other, reading a file and writing a file; "wall" is
# that process's wall time, start-up included. Per-side times: CHA prints microseconds per line (its own clock
# around the analysis); arbiter's are shown if its JSON carries a time field.
# Exit status: 0, or 1 if a program answered wrongly against the labels or
# their outputs could not be matched to the input, or (--unlabelled) the two
# give different definite answers; 2 on setup errors.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
d3chess_git=${D3CHESS_GIT:-/work/.mirror/miguel-ambrona+D3-Chess/repo}
stockfish_git=${STOCKFISH_GIT:-/work/.mirror/official-stockfish+Stockfish/repo}
cha_commit=${CHA_COMMIT:-HEAD}
stockfish_commit=${STOCKFISH_COMMIT:-51deae8}
jobs=${JOBS:-2}
cha=${CHA:-}
arbiter=${ARBITER:-$root/build/arbiter}
input=$root/../shared/peers/d3chess_test_vector.txt
build_dir="" build_only=0 labelled=1 arbiter_input=side arbiter_args="" cha_limit=""
skip_arbiter=0 skip_cha=0 keep="" show=10
chasolver=${CHASOLVER:-/tmp/chasolver/chasolver/target/release/examples/chadriver}
chasolver_build="" skip_chasolver=0

die() {
  echo "can_mate_vs_cha: $*" >&2
  exit 2
}

while (($#)); do
  case $1 in
    --cha) cha=$2; shift 2 ;;
    --build-cha) build_dir=$2; shift 2 ;;
    --d3chess) d3chess_git=$2; shift 2 ;;
    --stockfish) stockfish_git=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --arbiter) arbiter=$2; shift 2 ;;
    --arbiter-input) arbiter_input=$2; shift 2 ;;
    --arbiter-args) arbiter_args=$2; shift 2 ;;
    --cha-limit) cha_limit=$2; shift 2 ;;
    --unlabelled | --unlabeled) labelled=0; shift ;;
    --skip-arbiter) skip_arbiter=1; shift ;;
    --skip-cha) skip_cha=1; shift ;;
    --chasolver) chasolver=$2; shift 2 ;;
    --build-chasolver) chasolver_build=$2; shift 2 ;;
    --skip-chasolver) skip_chasolver=1; shift ;;
    --keep) keep=$2; shift 2 ;;
    --show) show=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) input=$1; shift ;;
  esac
done
[[ $arbiter_input == side || $arbiter_input == fen ]] || die "--arbiter-input is side or fen"

# Builds CHA 2.6.1 the way D3-Chess's lib/stockfish/Makefile and src/Makefile
# do, into a prefix under DIR instead of /usr/local. One departure: Stockfish's
# `make build` first downloads its NNUE net; there is no network here and CHA
# never evaluates, so `make all` is run with the net's embedding turned off.
build_cha() {
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  case $dir/ in "$(cd "$root" && pwd -P)"/*) die "--build-cha $dir is inside $root; CHA (GPL) must stay outside" ;; esac
  [[ -d $d3chess_git ]] || die "no D3-Chess git dir at $d3chess_git (--d3chess)"
  [[ -d $stockfish_git ]] || die "no Stockfish git dir at $stockfish_git (--stockfish)"
  local src=$dir/src prefix=$dir/prefix
  rm -rf "$src" "$prefix" "${dir:?}/bin" "$dir/archive.log"
  mkdir -p "$src" "$prefix/lib" "$prefix/include/stockfish" "$dir/bin"
  echo "== cloning D3-Chess ($cha_commit) and Stockfish ($stockfish_commit) into $src" >&2
  # git archive of the needed folders only: snapshots may lack big blobs
  # elsewhere (D3-Chess's tests/unfair.txt), which a checkout would trip on.
  local d3_rev sf_rev
  d3_rev=$(git --git-dir="$d3chess_git" rev-parse --verify "$cha_commit^{commit}") ||
    die "no commit $cha_commit in $d3chess_git"
  sf_rev=$(git --git-dir="$stockfish_git" rev-parse --verify "$stockfish_commit^{commit}") ||
    die "no commit $stockfish_commit in $stockfish_git"
  mkdir -p "$src/D3-Chess" "$src/Stockfish"
  # (git archive still complains of the absent blob; its stderr goes to a log.)
  git --git-dir="$d3chess_git" archive "$d3_rev" LICENSE lib src 2>>"$dir/archive.log" |
    tar -x -C "$src/D3-Chess"
  git --git-dir="$stockfish_git" archive "$sf_rev" Copying.txt src 2>>"$dir/archive.log" |
    tar -x -C "$src/Stockfish"
  grep -q 'version 2\.6\.1' "$src/D3-Chess/src/main.cpp" ||
    die "D3-Chess at $cha_commit is not CHA 2.6.1 (src/main.cpp)"

  echo "== building Stockfish as libstockfish.so" >&2
  local sf=$src/Stockfish/src
  sed -i '/^OBJS/i SRCS += stockfish.cpp' "$sf/Makefile"
  cp "$src/D3-Chess/lib/stockfish/stockfish.cpp" "$src/D3-Chess/lib/stockfish/stockfish.h" "$sf/"
  make -C "$sf" -j"$jobs" ARCH=x86-64 EXTRACXXFLAGS=-DNNUE_EMBEDDING_OFF all >"$dir/stockfish-build.log" 2>&1 ||
    die "Stockfish build failed; see $dir/stockfish-build.log"
  (cd "$sf" && g++ -Wl,--no-as-needed -lpthread -shared -o libstockfish.so -fPIC ./*.o) ||
    die "linking libstockfish.so failed"
  cp "$sf/libstockfish.so" "$prefix/lib/"
  (cd "$sf" && find . -name '*.h' -exec cp --parents {} "$prefix/include/stockfish/" \;)

  echo "== building cha" >&2
  (cd "$src/D3-Chess/src" &&
    g++ -o cha util.cpp semistatic.cpp dynamic.cpp cha.cpp main.cpp -lpthread -O3 \
      -I"$prefix/include/stockfish" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lstockfish) ||
    die "building cha failed"
  cp "$src/D3-Chess/src/cha" "$dir/bin/cha"
  {
    echo "CHA built by bench/can_mate_vs_cha.sh on $(date -u +%FT%TZ)"
    echo "D3-Chess $d3_rev from $d3chess_git"
    echo "Stockfish $sf_rev from $stockfish_git"
    echo "Stockfish: make ARCH=x86-64 EXTRACXXFLAGS=-DNNUE_EMBEDDING_OFF all; libstockfish.so in $prefix/lib"
    g++ --version | head -1
  } >"$dir/BUILD-INFO.txt"
  echo "== CHA: $dir/bin/cha" >&2
  cha=$dir/bin/cha
}

if [[ -n $build_dir ]]; then
  build_cha "$build_dir"
  ((build_only)) && exit 0
fi
if ((!skip_cha)); then
  [[ -n $cha ]] || cha=/tmp/cha-build/bin/cha
  [[ -x $cha ]] || die "CHA not found at $cha (--cha PATH, or --build-cha DIR)"
fi
if [[ -n $chasolver_build ]]; then
  chasolver=$("$root/../shared/peers/chasolver/build.sh" "$chasolver_build") ||
    die "building chasolver into $chasolver_build failed"
fi
if ((!skip_chasolver)); then
  [[ -x $chasolver ]] || die "chasolver not found at $chasolver (--chasolver PATH, or --build-chasolver DIR)"
fi
if ((!skip_arbiter)); then
  [[ -x $arbiter ]] || die "$arbiter not found; build first (ninja -C build), or --arbiter PATH"
fi
[[ -r $input ]] || die "cannot read $input"
[[ -z $keep ]] || mkdir -p "$keep"

exec /usr/bin/python3 - "$input" "$labelled" "${cha:-}" "$skip_cha" "$arbiter" "$skip_arbiter" \
  "$arbiter_input" "$arbiter_args" "$cha_limit" "$keep" "$show" "$chasolver" "$skip_chasolver" <<'PY'
import json
import os
import resource
import re
import shlex
import subprocess
import sys
import tempfile
import time

(input_path, labelled, cha, skip_cha, arbiter, skip_arbiter, arbiter_input,
 arbiter_args, cha_limit, keep, show, chasolver, skip_chasolver) = sys.argv[1:]
labelled = labelled == "1"
show = int(show)
SIDES = ("white", "black")
PAD = ["-", "-", "0", "1"]  # fields 3..6 of a FEN, when absent


def fail(msg):
    print(f"can_mate_vs_cha: {msg}", file=sys.stderr)
    sys.exit(2)


# --- Positions -----------------------------------------------------------
positions = []  # (line number, fen, {side: expected "yes"/"no"} or None)
with open(input_path) as f:
    for number, raw in enumerate(f, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        labels = None
        if labelled:
            tag, _, line = line.partition(" ")
            if len(tag) != 2 or tag[0] not in "W-" or tag[1] not in "B-":
                fail(f"{input_path}:{number}: no label (WB, W-, -B, --); --unlabelled?")
            labels = {"white": "yes" if tag[0] == "W" else "no",
                      "black": "yes" if tag[1] == "B" else "no"}
        fields = line.split()
        if not 2 <= len(fields) <= 6:
            fail(f"{input_path}:{number}: not a FEN of 2 to 6 fields: {line}")
        fen = " ".join(fields + PAD[len(fields) - 2:])
        positions.append((number, fen, labels))
if not positions:
    fail(f"{input_path}: no positions")
queries = [(i, side) for i in range(len(positions)) for side in SIDES]


def children_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def run(name, argv, stdin_text, env=None):
    """One process over all lines: its stdout, wall seconds and CPU seconds
    (p.cpu). Input and
    output are files, not pipes to this script, so that reading the output
    (Arbiter's JSON records are ~30 times CHA's lines) does not compete with
    the program for the machine's cores while it is timed."""
    with tempfile.TemporaryFile("w+") as fin, tempfile.TemporaryFile("w+") as fout, \
            tempfile.TemporaryFile("w+") as ferr:
        fin.write(stdin_text)
        fin.seek(0)
        start, cpu = time.perf_counter(), children_cpu()
        p = subprocess.run(argv, stdin=fin, stdout=fout, stderr=ferr, env=env)
        wall = time.perf_counter() - start
        p.cpu = children_cpu() - cpu
        fout.seek(0)
        ferr.seek(0)
        p.stdout, p.stderr = fout.read(), ferr.read()
    if keep:
        for suffix, text in (("in", stdin_text), ("out", p.stdout), ("err", p.stderr)):
            with open(os.path.join(keep, f"{name}.{suffix}"), "w") as f:
                f.write(text)
    return p, wall


side_lines = "".join(f"{positions[i][1]} {side}\n" for i, side in queries)
results = {}  # program -> dict(answers={(i, side): ans}, times_us={...} or None, wall, note, ...)
protocol_errors = 0

# --- CHA -----------------------------------------------------------------
if skip_cha != "1":
    argv = [cha] + (["-limit", cha_limit] if cha_limit else [])
    env = dict(os.environ)
    lib = os.path.join(os.path.dirname(os.path.abspath(cha)), "..", "prefix", "lib")
    if os.path.isdir(lib):
        env["LD_LIBRARY_PATH"] = os.path.abspath(lib) + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    p, wall = run("cha", argv, side_lines, env)
    out = [l for l in p.stdout.splitlines()
           if re.match(r"(winnable|unwinnable|undetermined)\b", l)]
    banner = next((l for l in p.stdout.splitlines() if l.startswith("Chess Unwinnability")), "CHA")
    r = {"name": "CHA", "label": f"{banner}: {cha}", "wall": wall, "cpu": p.cpu,
         "answers": {}, "times_us": {}, "errors": 0,
         "note": "per-side time: CHA's own clock around each analysis"}
    if p.returncode != 0 or len(out) != len(queries):
        print(f"CHA: exit {p.returncode}, {len(out)} result lines for {len(queries)} queries; "
              f"stderr: {p.stderr.strip()[:500]}", file=sys.stderr)
        protocol_errors += 1
    for q, l in zip(queries, out):
        fen, side = positions[q[0]][1], q[1]
        if not l.endswith(f"({fen} {side})"):
            print(f"CHA: out of step at {fen} {side}: {l}", file=sys.stderr)
            protocol_errors += 1
            break
        # "winnable#" when the side has already mated (an empty helpmate line)
        verdict = re.match(r"(unwinnable|winnable|undetermined)", l).group(1)
        r["answers"][q] = {"winnable": "yes", "unwinnable": "no"}.get(verdict, "unknown")
        m = re.search(r" time (\d+) \(", l)
        if m:
            r["times_us"][q] = int(m.group(1))
    results["cha"] = r

# --- chasolver -------------------------------------------------------------
if skip_chasolver != "1":
    p, wall = run("chasolver", [chasolver, "--time"], side_lines)
    out = [l for l in p.stdout.splitlines() if l.strip()]
    r = {"name": "chasolver", "label": f"chasolver 3.0.0: {chasolver}", "wall": wall,
         "cpu": p.cpu, "answers": {}, "times_us": {}, "errors": 0,
         "note": "per-side time: its driver's clock around each query (--time)"}
    if p.returncode != 0 or len(out) != len(queries):
        print(f"chasolver: exit {p.returncode}, {len(out)} result lines for {len(queries)} "
              f"queries; stderr: {p.stderr.strip()[:500]}", file=sys.stderr)
        protocol_errors += 1
    for q, l in zip(queries, out):
        word = l.split()[0]
        if word == "error":
            r["errors"] += 1
        r["answers"][q] = {"winnable": "yes", "unwinnable": "no"}.get(word, "unknown")
    first_error = next((l for l in out if l.startswith("error")), None)
    if first_error:
        print(f"chasolver: {r['errors']} queries answered with an error, the first: "
              f"{first_error[:300]}", file=sys.stderr)
    # "<microseconds> <input line>" for each query it analysed (not for an
    # error), in input order.
    timed = {}
    for l in p.stderr.splitlines():
        m = re.match(r"([0-9.]+) (.+)$", l)
        if m:
            timed.setdefault(m.group(2).strip(), []).append(float(m.group(1)))
    for q in queries:
        left = timed.get(f"{positions[q[0]][1]} {q[1]}")
        if left:
            r["times_us"][q] = left.pop(0)
    results["chasolver"] = r

# --- Arbiter -------------------------------------------------------------
TIME_KEYS = [("micros", 1), ("time_us", 1), ("us", 1), ("microseconds", 1),
             ("time_ms", 1e3), ("ms", 1e3), ("millis", 1e3),
             ("seconds", 1e6), ("time_s", 1e6), ("elapsed_s", 1e6)]


def find_time(obj, side):
    """Microseconds from a time field of the record (or of its side's object)."""
    for where in ([obj.get(side)] if side and isinstance(obj.get(side), dict) else []) + [obj]:
        for key, scale in TIME_KEYS:
            v = where.get(key)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return v * scale, key
    return None, None


def side_answer(obj, side):
    if isinstance(obj.get("can_mate"), str):
        return obj["can_mate"]
    if isinstance(obj.get(f"{side}_can_mate"), str):
        return obj[f"{side}_can_mate"]
    if isinstance(obj.get(side), dict) and isinstance(obj[side].get("can_mate"), str):
        return obj[side]["can_mate"]
    return None


if skip_arbiter != "1":
    argv = [arbiter, "analyze", "--json", "--timing"] + shlex.split(arbiter_args) + ["-"]
    if arbiter_input == "side":
        asked = queries
        text = side_lines
    else:
        asked = [(i, None) for i in range(len(positions))]
        text = "".join(f"{fen}\n" for _, fen, _ in positions)
    p, wall = run("arbiter", argv, text)
    out = [l for l in p.stdout.splitlines() if l.strip()]
    r = {"name": "Arbiter", "label": f"{arbiter} analyze ({arbiter_input} lines)",
         "wall": wall, "cpu": p.cpu, "answers": {}, "times_us": {}, "errors": 0, "note": ""}
    if len(out) != len(asked):
        print(f"arbiter: exit {p.returncode}, {len(out)} records for {len(asked)} lines; "
              f"stderr: {p.stderr.strip()[:500]}", file=sys.stderr)
        protocol_errors += 1
    time_key = None
    first_error = None
    for (i, side), l in zip(asked, out):
        try:
            obj = json.loads(l)
        except json.JSONDecodeError:
            obj = {"error": f"not JSON: {l[:200]}"}
        sides = [side] if side else list(SIDES)
        if "error" in obj:
            r["errors"] += 1
            first_error = first_error or f"{positions[i][1]}{' ' + side if side else ''}: {obj['error']}"
            for s in sides:
                r["answers"][(i, s)] = "unknown"
            continue
        for s in sides:
            ans = side_answer(obj, s)
            r["answers"][(i, s)] = ans if ans in ("yes", "no") else "unknown"
            us, key = find_time(obj, side)
            if us is not None:
                time_key = key
                r["times_us"][(i, s)] = us
    if r["errors"]:
        print(f"arbiter: {r['errors']} of {len(asked)} lines answered with an error, the first: "
              f"{first_error}", file=sys.stderr)
        if r["errors"] == len(asked):
            protocol_errors += 1
            if arbiter_input == "side":
                print("arbiter: it takes no \"FEN white|black\" lines yet? try --arbiter-input fen",
                      file=sys.stderr)
    if not r["times_us"]:
        r["note"] = "per-side time: none in arbiter's JSON"
    elif arbiter_input == "fen":
        r["note"] = f"per-position time (both sides, one record): JSON \"{time_key}\""
    else:
        r["note"] = f"per-side time: JSON \"{time_key}\""
    results["arbiter"] = r

# --- Report --------------------------------------------------------------


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(q * len(v) + 0.5)) - 1))]  # nearest rank


def ms(us):
    return f"{us / 1000:.3f} ms"


print(f"input: {os.path.normpath(input_path)}: {len(positions)} positions x 2 sides = "
      f"{len(queries)} questions ({'labelled' if labelled else 'unlabelled'})")
wrong_total = 0
for key in ("cha", "chasolver", "arbiter"):
    if key not in results:
        continue
    r = results[key]
    a = r["answers"]
    unknown = sum(1 for q in queries if a.get(q, "unknown") == "unknown")
    yes = sum(1 for q in queries if a.get(q) == "yes")
    no = sum(1 for q in queries if a.get(q) == "no")
    print(f"\n{r['name']}: {r['label']}")
    print(f"  answers: {len(a)} of {len(queries)}: yes {yes}, no {no}, "
          f"{'unknown' if key == 'arbiter' else 'undetermined'} {unknown}"
          + (f" (of which {r['errors']} lines errors)" if r["errors"] else ""))
    if labelled:
        wrong = [q for q in queries if a.get(q) in ("yes", "no")
                 and a[q] != positions[q[0]][2][q[1]]]
        wrong_total += len(wrong)
        print(f"  wrong against the labels: {len(wrong)}")
        for i, side in wrong[:show]:
            n, fen, lab = positions[i]
            print(f"    line {n}: {fen} {side}: said {a[(i, side)]}, label {lab[side]}")
    t = list(r["times_us"].values())
    if t:
        print(f"  time per answer: p50 {ms(pct(t, .5))}, p99 {ms(pct(t, .99))}, "
              f"max {ms(max(t))}, sum {sum(t) / 1e6:.3f} s ({r['note']})")
    else:
        print(f"  time per answer: n/a ({r['note']})")
    print(f"  wall (one process, all lines): {r['wall']:.3f} s; CPU {r['cpu']:.3f} s")

for key in ("cha", "chasolver"):
    if key not in results or "arbiter" not in results:
        continue
    name = results[key]["name"]
    c, b = results[key]["answers"], results["arbiter"]["answers"]
    disagree = [q for q in queries if c.get(q) in ("yes", "no") and b.get(q) in ("yes", "no")
                and c[q] != b[q]]
    only_peer = [q for q in queries if c.get(q) in ("yes", "no") and b.get(q) not in ("yes", "no")]
    only_arb = sum(1 for q in queries if b.get(q) in ("yes", "no") and c.get(q) not in ("yes", "no"))
    print(f"\n{name} against Arbiter: both definite but different: {len(disagree)}; "
          f"decided by {name} only: {len(only_peer)}; by Arbiter only: {only_arb}")
    for i, side in disagree[:show]:
        print(f"    line {positions[i][0]}: {positions[i][1]} {side}: {name} {c[(i, side)]}, "
              f"arbiter {b[(i, side)]}")
    for i, side in only_peer[:show]:
        print(f"    {name} only: line {positions[i][0]}: {positions[i][1]} {side}: {c[(i, side)]}")
    pc, ac = results[key]["cpu"], results["arbiter"]["cpu"]
    print(f"  CPU ratio ({name} / Arbiter): {pc / ac:.2f} ({'Arbiter' if pc > ac else name} faster)")
    if not labelled and disagree:
        wrong_total += len(disagree)

sys.exit(1 if wrong_total or protocol_errors else 0)
PY
