#!/usr/bin/python3
"""Validates Arbiter's JSON records against docs/schema/*.schema.json.

Usage:
  validate.py [--schema NAME|FILE] [--label TEXT] [--max-errors N]
              [--allow-empty] [FILE|- ...]

Reads JSON lines (or one JSON document) from each FILE, or from standard
input when none is given (or for "-"), and validates each record against
the schema its "type" key names:

  verdict, error (a game record)  verdict.schema.json
  error with "input" (analyze)    analyze_error.schema.json
  summary                         summary.schema.json
  assessment                      assessment.schema.json
  job, jobs, deleted, health,     job.schema.json, jobs.schema.json, ...
  failure

A record without "type", or with a type not listed, fails. --schema NAME
(e.g. "tablebase", for GET /v1/tablebase, which has no type key) or a
schema FILE validates every record against that schema instead.

Prints how many records of each type it validated; exits 1 naming the
source line, the record's type and the validator's message of the first
failures (--max-errors, default 20), 2 on a usage error or an unreadable
file. Input with no record at all fails unless --allow-empty.

As a module (Debian's python3-jsonschema, offline: every $ref resolves
within docs/schema/):

  from validate import validate_records
  errors = validate_records([{"type": "health", "status": "serving"}])
  assert not errors, errors
"""

import argparse
import collections
import dataclasses
import json
import os
import sys
import warnings

import jsonschema

SCHEMA_DIR = os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schema"))

# The schema of each record type (an "error" is a game's unless it has
# "input": then it is a line `arbiter analyze FILE` could not analyse).
TYPE_SCHEMAS = {
    "verdict": "verdict",
    "error": "verdict",
    "skipped": "verdict",
    "summary": "summary",
    "assessment": "assessment",
    "job": "job",
    "jobs": "jobs",
    "deleted": "deleted",
    "health": "health",
    "failure": "failure",
}

# How much of the validator's message (which quotes the instance) to keep.
MAX_MESSAGE = 400


@dataclasses.dataclass
class RecordError:
    """One record that failed: where, what it was, and why."""
    index: int  # 1-based position among the records given
    type: object  # the record's "type", or None
    schema: str  # the schema's file name, or "" when none applies
    path: str  # where in the record, "$" for the record itself
    message: str
    source: str = ""  # "FILE:LINE" when known
    keyword: str = ""  # the schema keyword that failed ("required", "enum", ...)

    def __str__(self):
        where = self.source or f"record {self.index}"
        kind = json.dumps(self.type) if self.type is not None else "(no type)"
        schema = f" [{self.schema}]" if self.schema else ""
        return f"{where}: type {kind}{schema}: {self.path}: {self.message}"


def _schema_file(name):
    if name.endswith(".json"):
        return name
    return f"{name}.schema.json"


class Schemas:
    """The schemas of a directory, each with a validator that resolves every
    $ref among them and nowhere else."""

    def __init__(self, directory=SCHEMA_DIR):
        self.directory = directory
        self.by_file = {}
        for file in sorted(os.listdir(directory)):
            if file.endswith(".schema.json"):
                with open(os.path.join(directory, file), encoding="utf-8") as f:
                    self.by_file[file] = json.load(f)
        if not self.by_file:
            raise FileNotFoundError(f"no *.schema.json in {directory}")
        self._validators = {}
        self._memoizing_classes = {}
        self._valid_values = set()  # (id(subschema), value) found valid

    def load_extra(self, path):
        """A schema given by path (--schema FILE): added under its file name."""
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        self.by_file[os.path.basename(path)] = schema
        self._validators.clear()
        return os.path.basename(path)

    def validator(self, file):
        if file not in self._validators:
            if file not in self.by_file:
                raise KeyError(f"no schema {file} in {self.directory}")
            schema = self.by_file[file]
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            self._validators[file] = self._make(self._memoizing(cls), schema)
        return self._validators[file]

    def _memoizing(self, cls):
        """`cls` whose "properties" remembers which (subschema, value) pairs
        were valid: the records of a run repeat most of their values (null,
        false, "flag_fall", []), and a schema's subschemas do not depend on
        where they are used (each dict lies in one file, its $refs resolve
        against that file), so a value valid once is valid again. Only
        validity is kept: a failing value is validated again, for its
        errors."""
        if cls in self._memoizing_classes:
            return self._memoizing_classes[cls]
        valid = self._valid_values

        def properties(validator, properties, instance, schema):
            if not validator.is_type(instance, "object"):
                return
            for name, subschema in properties.items():
                if name not in instance:
                    continue
                value = instance[name]
                if isinstance(value, (dict, list)):
                    key = (id(subschema), "j", json.dumps(value, sort_keys=True))
                else:  # type() keeps True, 1 and 1.0 apart
                    key = (id(subschema), type(value), value)
                if key in valid:
                    continue
                errors = list(validator.descend(value, subschema, path=name, schema_path=name))
                if not errors:
                    if len(valid) < 2_000_000:
                        valid.add(key)
                    continue
                yield from errors

        original_items = cls.VALIDATORS["items"]

        def items(validator, items, instance, schema):
            if not isinstance(items, dict) or "prefixItems" in schema:
                yield from original_items(validator, items, instance, schema)
                return
            if not validator.is_type(instance, "array"):
                return
            for index, value in enumerate(instance):
                if isinstance(value, (dict, list)):
                    key = (id(items), "j", json.dumps(value, sort_keys=True))
                else:
                    key = (id(items), type(value), value)
                if key in valid:
                    continue
                errors = list(validator.descend(value, items, path=index))
                if not errors:
                    if len(valid) < 2_000_000:
                        valid.add(key)
                    continue
                yield from errors

        memoizing = jsonschema.validators.extend(
            cls, {"properties": properties, "items": items})
        self._memoizing_classes[cls] = memoizing
        return memoizing

    def _make(self, cls, schema):
        try:
            import referencing  # jsonschema >= 4.18
        except ImportError:
            referencing = None
        if referencing is not None:
            resources = []
            for s in self.by_file.values():
                if "$id" in s:
                    resources.append((s["$id"], referencing.Resource.from_contents(s)))

            def refuse(uri):
                raise referencing.exceptions.NoSuchResource(ref=uri)

            registry = referencing.Registry(retrieve=refuse).with_resources(resources)
            return cls(schema, registry=registry)

        def refuse(uri):
            raise jsonschema.RefResolutionError(f"{uri} is not in {self.directory} (offline)")

        store = {s["$id"]: s for s in self.by_file.values() if "$id" in s}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(
                schema, store=store, handlers={"http": refuse, "https": refuse})
        return cls(schema, resolver=resolver)


_default_schemas = None


def _schemas():
    global _default_schemas
    if _default_schemas is None:
        _default_schemas = Schemas()
    return _default_schemas


def schema_for(record):
    """The schema file for `record` by its "type", or (None, why not)."""
    if not isinstance(record, dict):
        return None, f"a record must be a JSON object, not {type(record).__name__}"
    if "type" not in record:
        return None, 'the record has no "type" key'
    kind = record["type"]
    if not isinstance(kind, str) or kind not in TYPE_SCHEMAS:
        return None, f'unknown "type" {json.dumps(kind)} (known: {", ".join(TYPE_SCHEMAS)})'
    if kind == "error" and "input" in record:
        return "analyze_error.schema.json", None
    return _schema_file(TYPE_SCHEMAS[kind]), None


def _path(error):
    out = "$"
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _most_relevant(error):
    """For a oneOf/anyOf failure, the errors of the branch that came
    closest (fewest errors), recursively: "is not valid under any of the
    given schemas" names nothing."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        branches = collections.defaultdict(list)
        for sub in error.context:
            branches[sub.relative_schema_path[0]].append(sub)
        # The branch with the fewest errors; on a tie, the one that got
        # further than a mismatched type at its root (the null of a
        # "null or object" is not what was meant for an object).
        def distance(errors):
            shallow_type = all(e.validator == "type" and not e.relative_path for e in errors)
            return (len(errors), shallow_type, -max(len(e.absolute_path) for e in errors))

        best = min(branches.values(), key=distance)
        # Among the closest branch's errors, the one deepest in the record.
        error = max(best, key=lambda e: len(e.absolute_path))
    return error


def _message(error):
    text = error.message
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "..."
    return text


def validate_record(record, schema=None, schemas=None, index=1, source=""):
    """The errors of one record (a list, empty when it is valid); `schema`
    forces a schema (a name such as "tablebase" or a file name)."""
    schemas = schemas or _schemas()
    kind = record.get("type") if isinstance(record, dict) else None
    if schema:
        file, why = _schema_file(schema), None
    else:
        file, why = schema_for(record)
    if file is None:
        return [RecordError(index, kind, "", "$", why, source, "type")]
    validator = schemas.validator(file)
    errors = sorted(validator.iter_errors(record), key=lambda e: list(map(str, e.absolute_path)))
    out = []
    for e in errors:
        e = _most_relevant(e)
        out.append(RecordError(index, kind, file, _path(e), _message(e), source, e.validator))
    return out


def validate_records(records, schema=None, schemas=None):
    """Validates each record (parsed JSON) by its "type" (or against
    `schema`); returns every error, a list of RecordError (str() of each is
    a readable line), empty when all are valid."""
    errors = []
    for i, record in enumerate(records, 1):
        errors.extend(validate_record(record, schema=schema, schemas=schemas, index=i))
    return errors


def parse_text(text, source):
    """The records of one input: (source:line, record) pairs and the lines
    that are not JSON, as (source:line, message) pairs. One JSON document
    (possibly over several lines) or JSON lines."""
    stripped = text.strip()
    if not stripped:
        return [], []
    try:
        doc = json.loads(stripped)
        first = text[: len(text) - len(text.lstrip())].count("\n") + 1
        return [(f"{source}:{first}", doc)], []
    except json.JSONDecodeError:
        pass
    records, bad = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append((f"{source}:{number}", json.loads(line)))
        except json.JSONDecodeError as e:
            bad.append((f"{source}:{number}", f"not JSON: {e}: {line[:120]!r}"))
    return records, bad


def _kind_of_failure(error):
    """What failed, without the record: the type, the path (indices as
    [*]) and the keyword, to count a failure repeated over many records."""
    path = "".join("[*]" if part.isdigit() else part
                   for part in _split_path(error.path))
    return f"type {json.dumps(error.type)} {path}: {error.keyword}"


def _split_path(path):
    out, i = [], 0
    while i < len(path):
        j = i + 1
        while j < len(path) and path[j] not in ".[":
            j += 1
        part = path[i:j]
        out.append(part[1:-1] if part.startswith("[") and part[1:-1].isdigit() else part)
        i = j
    return out


def _label(record, file):
    if file == "analyze_error.schema.json":
        return "error (analyze line)"
    if isinstance(record, dict) and isinstance(record.get("type"), str):
        kind = record["type"]
        return "error (game)" if kind == "error" else kind
    if file:
        return os.path.basename(file).replace(".schema.json", "")
    return "(no type)"


# The state a forked worker of _validate_all reads: set before the fork.
_work = None


def _validate_chunk(bounds):
    records, schema, schemas = _work
    out = []
    for i in range(*bounds):
        where, record = records[i]
        file = _schema_file(schema) if schema else schema_for(record)[0]
        out.append((_label(record, file),
                    validate_record(record, schema=schema, schemas=schemas, index=i + 1,
                                    source=where)))
    return out


def _validate_all(records, schema, schemas, jobs):
    """(label, errors) of each (where, record), in order; in `jobs`
    forked processes when there are many (each keeps its own memo)."""
    global _work
    _work = (records, schema, schemas)
    chunk = 2000
    bounds = [(i, min(i + chunk, len(records))) for i in range(0, len(records), chunk)]
    if jobs <= 0:
        jobs = min(4, os.cpu_count() or 1)
    import multiprocessing
    if len(bounds) < 2 or jobs < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for b in bounds:
            yield from _validate_chunk(b)
        return
    with multiprocessing.get_context("fork").Pool(min(jobs, len(bounds))) as pool:
        for part in pool.imap(_validate_chunk, bounds):
            yield from part


def _report(label, records, bad, schema, schemas, args):
    """Validates one input's records and prints what it found; True when
    every record is valid (and there is at least one, unless allowed)."""
    counts = collections.Counter()
    failed = collections.Counter()
    problems = [f"{where}: {why}" for where, why in bad]  # in input order
    if bad:
        failed["(not JSON)"] += len(bad)
    kinds = collections.Counter()  # each kind of failure, over all records
    for kind, errors in _validate_all(records, schema, schemas, args.jobs):
        counts[kind] += 1
        if errors:
            failed[kind] += 1
            problems.extend(str(e) for e in errors)
            kinds.update(set(_kind_of_failure(e) for e in errors))
    total = len(records)
    summary = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "none"
    if problems:
        for p in problems[: args.max_errors]:
            print(p, file=sys.stderr)
        if len(problems) > args.max_errors:
            print(f"... and {len(problems) - args.max_errors} more", file=sys.stderr)
        if kinds:
            print("failures by kind (records):", file=sys.stderr)
            for kind, n in kinds.most_common(args.max_errors):
                print(f"  {n:7d}  {kind}", file=sys.stderr)
        by_type = ", ".join(f"{k} {n}" for k, n in sorted(failed.items()))
        print(f"{label}: FAILED: {sum(failed.values())} of {total + len(bad)} records invalid "
              f"({by_type}); validated: {summary}", file=sys.stderr)
        return False
    if total == 0 and not args.allow_empty:
        print(f"{label}: FAILED: no record", file=sys.stderr)
        return False
    print(f"{label}: {total} records valid: {summary}")
    return True


def _read(name, label):
    """The text of FILE (- for stdin) and its name in messages."""
    if name == "-":
        return sys.stdin.read(), label
    with open(name, encoding="utf-8") as f:
        return f.read(), name


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Validate Arbiter JSON records against docs/schema/.")
    parser.add_argument("files", nargs="*", metavar="FILE", help="JSON lines, or - for stdin")
    parser.add_argument("--schema", help="validate every record against NAME (e.g. tablebase) "
                        "or a schema FILE, whatever its type")
    parser.add_argument("--schema-dir", default=SCHEMA_DIR, help="default: %(default)s")
    parser.add_argument("--label", default="<stdin>", help="the name of stdin in messages")
    parser.add_argument("--manifest", metavar="LIST",
                        help="validate, each on its own, the files LIST names, one a line: "
                        "PATH<tab>LABEL[<tab>SCHEMA]; prints a line per file")
    parser.add_argument("--max-errors", type=int, default=20,
                        help="failures printed per input (default %(default)s)")
    parser.add_argument("--allow-empty", action="store_true", help="no record is no failure")
    parser.add_argument("--jobs", type=int, default=0,
                        help="processes for large inputs (default: one per core, at most 4)")
    args = parser.parse_args(argv)

    # (label, [(path, name in messages)], schema) of each report.
    reports = []
    try:
        schemas = Schemas(args.schema_dir)

        def schema_name(schema):
            if schema and os.path.sep in schema:
                schema = schemas.load_extra(schema)
            if schema:
                schemas.validator(_schema_file(schema))
            return schema or None

        if args.manifest:
            if args.files:
                parser.error("--manifest takes no FILE")
            with open(args.manifest, encoding="utf-8") as f:
                for line in f:
                    fields = line.rstrip("\n").split("\t")
                    if not fields[0]:
                        continue
                    label = fields[1] if len(fields) > 1 and fields[1] else fields[0]
                    schema = fields[2] if len(fields) > 2 else args.schema
                    reports.append((label, [(fields[0], label)], schema_name(schema)))
        else:
            files = args.files or ["-"]
            label = args.label if files == ["-"] else " ".join(files)
            reports.append((label, [(f, args.label if f == "-" else f) for f in files],
                            schema_name(args.schema)))
    except (OSError, KeyError, ValueError, jsonschema.SchemaError) as e:
        print(f"validate.py: {e}", file=sys.stderr)
        return 2

    failures = []
    for label, inputs, schema in reports:
        records, bad = [], []
        try:
            for path, name in inputs:
                text, _ = _read(path, name)
                r, b = parse_text(text, name)
                records.extend(r)
                bad.extend(b)
        except (OSError, UnicodeDecodeError) as e:
            print(f"validate.py: {label}: {e}", file=sys.stderr)
            return 2
        if not _report(label, records, bad, schema, schemas, args):
            failures.append(label)
    if args.manifest:
        if failures:
            print(f"validate.py: {len(failures)} of {len(reports)} inputs do not validate:",
                  file=sys.stderr)
            for label in failures:
                print(f"  {label}", file=sys.stderr)
        else:
            print(f"validate.py: all {len(reports)} inputs validate")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
