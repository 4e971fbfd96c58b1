#!/usr/bin/python3
"""Compares what two arbiter binaries rule on the same games.

    compare-verdicts.py OLD_ARBITER NEW_ARBITER FILE... [--jobs N]
                        [--extra-args '...'] [--examples N] [--keep DIR]
    compare-verdicts.py --mapping

For each FILE it runs `ARBITER verify --format jsonl FILE EXTRA_ARGS` with
both binaries (N runs at once, default 2), maps every record of OLD_ARBITER
into the vocabulary of 2026-12-01 (MAPPING below, the one place that says
what changed), and compares the records game by game, key by key (nested
keys too: "winner.line", "claims[].tablebase_source", "error.message"), and
the summaries. Only "seconds" is ignored. It prints a line per file
("N games, 0 differences"), every difference grouped by key with counts and
a few examples (game, the old value mapped, the new value; <...> is what a
value the old records lacked had to be), the keys the new records have
that the old ones lacked and the reverse (before the mapping, and after it:
none), and exits 1 on any difference, 0 otherwise (2 on a usage error).

The records must not differ in any ruling: a difference in "ruling",
"rule", "article", "agrees", "certain", "ended_at_ply", "moves_after_end",
"plies", "end_fen", "winner", "claims", "error" or any other key is
reported. An error record's old message must be the new one with its
location in front ("game G, line L: " + message, "game G: " + message when
the line is unknown), and the old "line" the new one (0 for null).

The environment is passed to both binaries as it is (ARBITER_TABLES,
ARBITER_SYZYGY, ... apply to both); the ARBITER_* variables set are printed.
EXTRA_ARGS is one shell-quoted string (`--extra-args '--syzygy DIR'`; a
single word needs `--extra-args=--word`). `--keep DIR` keeps both runs'
records there. `--mapping` prints MAPPING as a Markdown table. Standard library only; run
with /usr/bin/python3.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

# ---------------------------------------------------------------------------
# The mapping from the old records to the new vocabulary.
#
# Scopes: "record" (every game record), "verdict" (a game ruled: old "error"
# null), "error" (a game that could not be read or replayed), "claim" (each
# element of a verdict's "claims"), "summary" (the last line).
#
# Kinds:
#   added     the old record has no such key; the new one has it, with the
#             value `derive(old_object)` (applied only when the key is absent)
#   null_empty  "" in the old record is null in the new one
#   reshaped  the value's shape changed; `derive(old_object)` is the new one
#   filled    the old record has null or nothing; the new value cannot be
#             derived from the old record, so it is taken from the new one
#             when `check(new_value, old_object)` returns None (else the
#             check's text stands for the value and the key differs). These
#             are counted and listed as "taken from the new records".
#   wrapper   the record's envelope changed (the summary).
# ---------------------------------------------------------------------------

ERROR_NULL_KEYS = (
    "certain", "first_move_after_end", "winner", "claim_grounds", "termination_read_as",
    "termination_source", "forfeit_reason", "declared_grounds", "declared_grounds_hold",
    "flag_fallen_by", "flag_evidence", "clock_contradicts_result", "claims")
TABLEBASE_KEYS = ("tablebase", "tablebase_contradiction", "tablebase_note")
TABLEBASE_SOURCES = ("syzygy", "retrograde")  # docs/schema/defs.schema.json

_LOCATION = re.compile(r"game (\d+)(?:, line (\d+))?: ")


def _error_object(old: dict) -> Any:
    """{"message": "game G, line L: what", "line": L} -> {"message": "what",
    "game": G, "line": L or null}. The location must be exactly the record's
    game and line ("game G: " when the line is 0); otherwise the message is
    kept whole, and differs."""
    e = old.get("error")
    if not isinstance(e, dict):
        return e
    game = old.get("game")
    line = e.get("line") or None
    message = e.get("message")
    prefix = f"game {game}, line {line}: " if line else f"game {game}: "
    if isinstance(message, str) and message.startswith(prefix):
        message = message[len(prefix):]
    out = {"message": message, "game": game, "line": line}
    for key, value in e.items():  # anything else it had stays, and differs
        if key not in ("message", "line"):
            out[key] = value
    return out


def _column_check(new_value: Any, old: dict) -> Optional[str]:
    line = (old.get("error") or {}).get("line") or None
    if new_value is None or (line is not None and isinstance(new_value, int)
                             and not isinstance(new_value, bool) and new_value >= 1):
        return None
    return "<null, or a column from 1 when the line is known>"


def _claim_source_check(new_value: Any, old_claim: dict) -> Optional[str]:
    if old_claim.get("tablebase") is not None or old_claim.get("tablebase_source") is not None:
        return None if new_value == old_claim.get("tablebase_source") else \
            f"<{old_claim.get('tablebase_source')!r}: the old claim had a table value>"
    if new_value is None or new_value in TABLEBASE_SOURCES:
        return None
    return f"<null or one of {', '.join(TABLEBASE_SOURCES)}>"


def _claim_not_covered_check(new_value: Any, old_claim: dict) -> Optional[str]:
    if old_claim.get("tablebase") is not None:
        return None if new_value is None else "<null: the old claim had a table value>"
    if new_value is None or (isinstance(new_value, str) and new_value):
        return None
    return "<null or a reason>"


def _plies_check(new_value: Any, old: dict) -> Optional[str]:
    if isinstance(new_value, int) and not isinstance(new_value, bool) and new_value >= 0:
        return None
    return "<a count of the moves read>"


@dataclass(frozen=True)
class Change:
    scope: str
    key: str
    kind: str
    old: str  # what the old records wrote, in words
    new: str  # what the new records write
    derive: Optional[Callable[[dict], Any]] = None
    check: Optional[Callable[[Any, dict], Optional[str]]] = None
    condition: Optional[Callable[[dict], bool]] = None  # when the change applies


MAPPING: tuple[Change, ...] = (
    # Every game record.
    Change("record", "type", "added", "absent", '"verdict", or "error" for a game not ruled',
           derive=lambda o: "error" if o.get("error") is not None else "verdict"),
    Change("record", "rules", "added", "absent for FIDE records", '"fide"',
           derive=lambda o: "fide"),
    Change("record", "site", "null_empty", '"" when the tag is absent', "null"),
    Change("record", "declared", "null_empty", '"" when the tag is absent', "null"),
    Change("record", "termination", "null_empty", '"" when the tag is absent', "null"),
    Change("record", "detail", "added", "Chess 99 verdicts only", "null elsewhere",
           derive=lambda o: None),
    Change("record", "detail", "null_empty", '""', "null"),
    Change("record", "end_fen", "null_empty", '""', "null"),
    *(Change("record", k, "added", "only with tables (--syzygy)", "null without tables",
             derive=lambda o: None) for k in TABLEBASE_KEYS),
    # A game that could not be read or replayed.
    *(Change("error", k, "added", "absent from error records", "null", derive=lambda o: None)
      for k in ERROR_NULL_KEYS),
    Change("error", "end_fen", "added", "absent from error records", "null",
           derive=lambda o: None),
    Change("error", "plies", "filled", "absent from error records",
           "the number of moves read (not in the old record: taken from the new one)",
           check=_plies_check),
    Change("error", "error", "reshaped",
           '{"message": "game G, line L: what", "line": L (0 when unknown)}',
           '{"message": "what", "game": G, "line": L or null}', derive=_error_object),
    Change("error", "error.column", "filled", "absent",
           "the line's 1-based byte where the record went wrong, or null (not in the old "
           "record: taken from the new one)", check=_column_check),
    # Each claim of a verdict.
    Change("claim", "tablebase_not_covered", "filled", "absent",
           "why no table answered, or null (null when the old claim had a table value)",
           check=_claim_not_covered_check),
    Change("claim", "tablebase_source", "filled", "null unless the tables had a value",
           "set whenever tables were asked (equal to the old value when it was set)",
           check=_claim_source_check),
    # The summary.
    Change("summary", "summary", "wrapper", '{"summary": {...}}', '{"type": "summary", ...}'),
    Change("summary", "type", "added", "absent", '"summary"', derive=lambda o: "summary"),
    Change("summary", "tablebase_covered", "added", "only with tables", "null without tables",
           derive=lambda o: None),
    Change("summary", "tablebase_contradictions", "added", "only with tables",
           "null without tables", derive=lambda o: None),
)

IGNORED_KEYS = ("seconds",)

# The keys that make up a ruling (any difference is reported all the same;
# this only labels the final table).
RULING_KEYS = {
    "ruling", "rule", "article", "agrees", "certain", "ended_at_ply", "moves_after_end",
    "first_move_after_end", "plies", "end_fen", "winner", "claims", "claim_grounds",
    "termination_read_as", "termination_source", "forfeit_reason", "declared_grounds",
    "declared_grounds_hold", "flag_fallen_by", "flag_evidence", "clock_contradicts_result",
    "tablebase", "tablebase_contradiction", "tablebase_note", "error", "detail", "exit status",
    "record"}

ABSENT = "<absent>"


def _changes(scope: str) -> list[Change]:
    return [c for c in MAPPING if c.scope == scope]


def _apply(changes: list[Change], old: dict, new: Optional[dict], out: dict,
           filled: list) -> None:
    """Applies `changes` to `out` (a copy of `old`); records in `filled` the
    (key, value) pairs taken from `new`."""
    for c in changes:
        if c.kind == "added":
            if c.key not in out:
                out[c.key] = c.derive(old)
        elif c.kind == "null_empty":
            if out.get(c.key) == "":
                out[c.key] = None
        elif c.kind == "reshaped":
            if c.key in out:
                out[c.key] = c.derive(old)
        elif c.kind == "filled":
            # A dotted key ("error.column") is filled inside its object.
            *parents, key = c.key.split(".")
            target, source = out, new
            for p in parents:
                target = target.get(p) if isinstance(target, dict) else None
                source = source.get(p) if isinstance(source, dict) else None
            if not isinstance(target, dict):
                continue
            if target.get(key) is not None and key != "tablebase_source":
                continue
            if not isinstance(source, dict) or key not in source:
                continue  # reported as a key only in the old record, or absent
            problem = c.check(source[key], old)
            if problem is None:
                if target.get(key) != source[key] or key not in target:
                    filled.append((c.key, source[key]))
                target[key] = source[key]
            else:
                target[key] = problem


def map_record(old: dict, new: Optional[dict], filled: list) -> dict:
    """An old game record in the new vocabulary."""
    out = dict(old)
    is_error = old.get("error") is not None
    _apply(_changes("record"), old, new, out, filled)
    _apply(_changes("error" if is_error else "verdict"), old, new, out, filled)
    claims = old.get("claims")
    if isinstance(claims, list):
        new_claims = new.get("claims") if new else None
        mapped = []
        for i, claim in enumerate(claims):
            if not isinstance(claim, dict):
                mapped.append(claim)
                continue
            counterpart = new_claims[i] if isinstance(new_claims, list) and i < len(
                new_claims) and isinstance(new_claims[i], dict) else None
            c = dict(claim)
            got: list = []
            _apply(_changes("claim"), claim, counterpart, c, got)
            filled.extend((f"claims[].{k}", v) for k, v in got)
            mapped.append(c)
        out["claims"] = mapped
    return out


def map_summary(old: dict) -> dict:
    inner = old.get("summary") if set(old) == {"summary"} else old
    out = dict(inner) if isinstance(inner, dict) else {"summary": inner}
    _apply([c for c in _changes("summary") if c.kind != "wrapper"], out, None, out, [])
    return out


# ---------------------------------------------------------------------------
# Comparing.
# ---------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """JSON equality that tells true from 1 and 1 from 1.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def diff(old: Any, new: Any, path: str, out: list) -> None:
    """Appends (path, old, new) for every difference; dicts are compared key
    by key, lists of dicts of the same length element by element."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if key in IGNORED_KEYS:
                continue
            sub = f"{path}.{key}" if path else key
            if key not in new:
                out.append((sub, old[key], ABSENT))
            elif key not in old:
                out.append((sub, ABSENT, new[key]))
            else:
                diff(old[key], new[key], sub, out)
        return
    if (isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and old
            and all(isinstance(x, dict) for x in old + new)):
        for x, y in zip(old, new):
            diff(x, y, f"{path}[]", out)
        return
    if not same(old, new):
        out.append((path, old, new))


def key_paths(record: dict) -> set:
    """The keys of a record, with those of its error object and claims."""
    keys = set(record)
    if isinstance(record.get("error"), dict):
        keys |= {f"error.{k}" for k in record["error"]}
    if isinstance(record.get("claims"), list):
        for c in record["claims"]:
            if isinstance(c, dict):
                keys |= {f"claims[].{k}" for k in c}
    return keys


def short(value: Any, width: int = 160) -> str:
    text = value if value == ABSENT else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[:width - 3] + "..."


@dataclass
class Run:
    binary: str
    path: str  # the records
    stderr: str
    code: int
    seconds: float


def run_verify(binary: str, game_file: str, extra: list, out_path: str) -> Run:
    command = [binary, "verify", "--format", "jsonl", game_file, *extra]
    start = time.monotonic()
    with open(out_path, "wb") as out:
        p = subprocess.run(command, stdout=out, stderr=subprocess.PIPE)
    return Run(binary, out_path, p.stderr.decode("utf-8", "replace"), p.returncode,
               time.monotonic() - start)


def read_records(path: str):
    """(records by game, summary or None, problems)."""
    records: dict = {}
    summary = None
    problems = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                problems.append(f"line {number}: not JSON ({e})")
                continue
            if not isinstance(r, dict):
                problems.append(f"line {number}: not an object")
            elif "summary" in r and set(r) == {"summary"} or r.get("type") == "summary":
                summary = r
            elif isinstance(r.get("game"), int):
                if r["game"] in records:
                    problems.append(f"line {number}: game {r['game']} twice")
                records[r["game"]] = r
            else:
                problems.append(f"line {number}: neither a game record nor a summary")
    return records, summary, problems


class FileResult:
    def __init__(self, label: str):
        self.label = label
        self.games = 0
        self.errors = 0
        self.diffs: dict = collections.defaultdict(list)  # key -> [(game, old, new)]
        self.filled: dict = collections.defaultdict(list)  # key -> [(game, value)]
        self.raw_new_only = collections.Counter()  # (record type, key)
        self.raw_old_only = collections.Counter()
        self.mapped_new_only = collections.Counter()
        self.mapped_old_only = collections.Counter()
        self.problems: list = []

    @property
    def differences(self) -> int:
        return sum(len(v) for v in self.diffs.values())


def compare(label: str, old_run: Run, new_run: Run) -> FileResult:
    res = FileResult(label)
    if old_run.code != new_run.code:
        res.diffs["exit status"].append(("(the run)", old_run.code, new_run.code))
    old_records, old_summary, p = read_records(old_run.path)
    res.problems += [f"old: {x}" for x in p]
    new_records, new_summary, p = read_records(new_run.path)
    res.problems += [f"new: {x}" for x in p]
    res.games = len(new_records)
    for game in sorted(set(old_records) | set(new_records)):
        old, new = old_records.get(game), new_records.get(game)
        if old is None or new is None:
            res.diffs["record"].append((game, "<a record>" if old else ABSENT,
                                        "<a record>" if new else ABSENT))
            continue
        if new.get("type") == "error":
            res.errors += 1
        kind = new.get("type", "?")
        raw_old, raw_new = key_paths(old), key_paths(new)
        for k in raw_new - raw_old:
            res.raw_new_only[(kind, k)] += 1
        for k in raw_old - raw_new:
            res.raw_old_only[(kind, k)] += 1
        filled: list = []
        mapped = map_record(old, new, filled)
        for key, value in filled:
            res.filled[key].append((game, value))
        m_old = key_paths(mapped)
        for k in raw_new - m_old:
            res.mapped_new_only[(kind, k)] += 1
        for k in m_old - raw_new:
            res.mapped_old_only[(kind, k)] += 1
        found: list = []
        diff(mapped, new, "", found)
        for path, a, b in found:
            res.diffs[path].append((game, a, b))
    if old_summary is None or new_summary is None:
        res.diffs["summary"].append(("(the run)", "<a summary>" if old_summary else ABSENT,
                                     "<a summary>" if new_summary else ABSENT))
    else:
        inner = old_summary.get("summary", old_summary)
        for k in set(new_summary) - set(inner):
            res.raw_new_only[("summary", k)] += 1
        for k in set(inner) - set(new_summary):
            res.raw_old_only[("summary", k)] += 1
        if "summary" in old_summary and "summary" not in new_summary:
            res.raw_old_only[("summary", "summary (the wrapper)")] += 1
        mapped = map_summary(old_summary)
        for k in set(new_summary) - set(mapped):
            res.mapped_new_only[("summary", k)] += 1
        for k in set(mapped) - set(new_summary):
            res.mapped_old_only[("summary", k)] += 1
        found = []
        diff(mapped, new_summary, "", found)
        for path, a, b in found:
            res.diffs[f"summary.{path}"].append(("(the summary)", a, b))
    return res


def print_mapping() -> None:
    print("| scope | key | change | old records | new records |")
    print("| --- | --- | --- | --- | --- |")
    for c in MAPPING:
        print(f"| {c.scope} | `{c.key}` | {c.kind} | {c.old} | {c.new} |")
    print(f"\nIgnored: {', '.join(IGNORED_KEYS)}.")


def print_key_counts(title: str, counter: collections.Counter) -> None:
    if not counter:
        print(f"{title}: none")
        return
    print(f"{title}:")
    for (kind, key), n in sorted(counter.items()):
        print(f"  {kind:8} {key:32} {n} records")


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Compare the verify --format jsonl records of two arbiter binaries, "
        "the old ones mapped into the new vocabulary.")
    parser.add_argument("old", nargs="?", help="the arbiter binary from before the change")
    parser.add_argument("new", nargs="?", help="the arbiter binary after it")
    parser.add_argument("files", nargs="*", help=".pgn or .pgn.zst files")
    parser.add_argument("--jobs", type=int, default=2, help="arbiter runs at once (default 2)")
    parser.add_argument("--extra-args", default="",
                        help="more arguments for both verify runs, one shell-quoted string")
    parser.add_argument("--examples", type=int, default=3, help="examples per key (default 3)")
    parser.add_argument("--keep", metavar="DIR", help="write both runs' records to DIR")
    parser.add_argument("--mapping", action="store_true",
                        help="print the old-to-new mapping as a Markdown table and exit")
    args = parser.parse_args()
    if args.mapping:
        print_mapping()
        return 0
    if not args.old or not args.new or not args.files:
        parser.error("OLD_ARBITER NEW_ARBITER and at least one FILE are needed")
    for binary in (args.old, args.new):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary} is not an executable")
    for f in args.files:
        if f != "-" and not os.path.isfile(f):
            parser.error(f"{f}: no such file")
    extra = shlex.split(args.extra_args)
    env_words = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                         if k.startswith("ARBITER_")) or "(no ARBITER_* variables)"
    print(f"old: {args.old}\nnew: {args.new}\nverify --format jsonl FILE {' '.join(extra)}"
          f"\nenvironment: {env_words}\n")

    work = args.keep or tempfile.mkdtemp(prefix="compare-verdicts.")
    os.makedirs(work, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = {}
        for i, f in enumerate(args.files):
            base = f"{i:02d}-{os.path.basename(f)}"
            runs[f] = tuple(
                pool.submit(run_verify, binary, f, extra, os.path.join(work, f"{base}.{side}.jsonl"))
                for binary, side in ((args.old, "old"), (args.new, "new")))
        results = []
        for f in args.files:
            old_run, new_run = runs[f][0].result(), runs[f][1].result()
            res = compare(f, old_run, new_run)
            results.append(res)
            note = []
            if old_run.code or new_run.code:
                note.append(f"exit {old_run.code}/{new_run.code}")
            if res.errors:
                note.append(f"{res.errors} error records")
            nfilled = sum(len(v) for v in res.filled.values())
            if nfilled:
                note.append(f"{nfilled} values taken from the new records")
            note.append(f"{old_run.seconds:.1f} s / {new_run.seconds:.1f} s")
            print(f"{f}: {res.games} games, {res.differences} differences ({'; '.join(note)})")
            for p in res.problems[:5]:
                print(f"  problem: {p}")
            for r in (old_run, new_run):
                if r.code and r.stderr.strip():
                    print(f"  {r.binary} stderr: {r.stderr.strip()[:500]}")
    if not args.keep:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)

    # The final table.
    print()
    width = max(len(r.label) for r in results)
    print(f"{'file':{width}}  {'games':>7}  {'errors':>6}  {'differences':>11}")
    for r in results:
        print(f"{r.label:{width}}  {r.games:>7}  {r.errors:>6}  {r.differences:>11}")
    total = sum(r.differences for r in results)
    print(f"{'total':{width}}  {sum(r.games for r in results):>7}  "
          f"{sum(r.errors for r in results):>6}  {total:>11}")

    by_key: dict = collections.defaultdict(list)
    for r in results:
        for key, items in r.diffs.items():
            by_key[key] += [(r.label, *item) for item in items]
    print("\nDifferences by key:" if by_key else "\nDifferences by key: none")
    for key in sorted(by_key):
        items = by_key[key]
        top = key.split(".")[0].split("[")[0]
        label = "ruling" if top in RULING_KEYS else "summary" if key.startswith("summary") \
            else "record"
        print(f"  {key} ({label}): {len(items)}")
        for label_, game, a, b in items[:args.examples]:
            where = f"game {game}" if isinstance(game, int) else game
            print(f"    {label_} {where}: old {short(a)}  new {short(b)}")

    filled: dict = collections.defaultdict(list)
    for r in results:
        for key, items in r.filled.items():
            filled[key] += [(r.label, *item) for item in items]
    print("\nValues the old records did not have, taken from the new ones (checked, not compared):"
          if filled else "\nValues taken from the new records: none")
    for key in sorted(filled):
        items = filled[key]
        values = collections.Counter(short(v, 60) for _, _, v in items)
        common = ", ".join(f"{v} ({n})" for v, n in values.most_common(4))
        print(f"  {key}: {len(items)} ({common}{', ...' if len(values) > 4 else ''})")

    def merged(attr: str) -> collections.Counter:
        c = collections.Counter()
        for r in results:
            c.update(getattr(r, attr))
        return c

    print()
    print_key_counts("Keys the new records have that the old ones lacked", merged("raw_new_only"))
    print_key_counts("Keys the old records have that the new ones lack", merged("raw_old_only"))
    print_key_counts("After the mapping, keys only in the new records", merged("mapped_new_only"))
    print_key_counts("After the mapping, keys only in the old records", merged("mapped_old_only"))
    print(f"\n{'DIFFERENT' if total else 'SAME'}: {total} differences in "
          f"{sum(r.games for r in results)} games of {len(results)} files")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
