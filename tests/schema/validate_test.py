#!/usr/bin/python3
"""The schemas of docs/schema/ are strict: a sample of every record type
(tests/schema/samples.json, records as the writers mean them) validates,
and each of the faults a writer could make fails: a key missing or extra,
an enum word in another case, a number written as a string, a record with
no "type" or an unknown one. Runs validate.py's validate_records, as any
Python test can. Usage: /usr/bin/python3 tests/schema/validate_test.py
"""

import copy
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "samples.json"),
          encoding="utf-8") as f:
    SAMPLES = json.load(f)
RECORDS = SAMPLES["records"]
TABLEBASE = SAMPLES["tablebase"]


def errors_of(record, schema=None):
    return validate.validate_records([record], schema=schema)


class Samples(unittest.TestCase):
    def test_every_sample_validates(self):
        for name, record in RECORDS.items():
            with self.subTest(name):
                self.assertEqual(errors_of(record), [], name)
        for name, record in TABLEBASE.items():
            with self.subTest(name):
                self.assertEqual(errors_of(record, schema="tablebase"), [], name)

    def test_many_records_at_once(self):
        records = list(RECORDS.values())
        self.assertEqual(validate.validate_records(records), [])
        broken = copy.deepcopy(records)
        del broken[2]["game"]
        errors = validate.validate_records(broken)
        self.assertEqual([e.index for e in errors], [3])
        self.assertIn("'game' is a required property", str(errors[0]))
        self.assertIn('type "error"', str(errors[0]))


class Faults(unittest.TestCase):
    def assertFails(self, record, schema=None, words=""):
        errors = errors_of(record, schema)
        self.assertTrue(errors, f"accepted: {json.dumps(record)[:300]}")
        if words:
            self.assertIn(words, " ".join(str(e) for e in errors))

    def test_every_key_is_required_and_no_other_allowed(self):
        for name, record in list(RECORDS.items()) + list(TABLEBASE.items()):
            schema = "tablebase" if name in TABLEBASE else None
            for key in record:
                with self.subTest(name, missing=key):
                    r = copy.deepcopy(record)
                    del r[key]
                    self.assertFails(r, schema)
            with self.subTest(name, extra=True):
                r = copy.deepcopy(record)
                r["extra"] = None
                self.assertFails(r, schema, "extra")

    def test_no_type_or_an_unknown_one(self):
        r = copy.deepcopy(RECORDS["health"])
        del r["type"]
        self.assertFails(r, words='no "type"')
        r["type"] = "healthz"
        self.assertFails(r, words='unknown "type"')
        r["type"] = "Health"
        self.assertFails(r, words='unknown "type"')
        self.assertFails([1, 2], words="JSON object")

    def test_enum_words_are_lowercase_and_closed(self):
        verdict = RECORDS["verdict (flag fall, winner cannot mate)"]
        for key, value in [("rule", "Flag_Fall"), ("rule", "flag-fall"), ("ruling", "1/2"),
                           ("rules", "FIDE"), ("rules", "chess"), ("flag_evidence", "Clock"),
                           ("termination_read_as", "timeout"), ("flag_fallen_by", "White"),
                           ("encoding", "utf-8")]:
            with self.subTest(key=key, value=value):
                r = copy.deepcopy(verdict)
                r[key] = value
                self.assertFails(r)
        r = copy.deepcopy(verdict)
        r["winner"]["can_mate"] = "No"
        self.assertFails(r)
        r = copy.deepcopy(verdict)
        r["winner"]["proof"] = "insufficient_material"
        self.assertFails(r)
        claim = RECORDS["verdict (claim upheld)"]
        for key, value in [("answer", "Upheld"), ("kind", "quickplay"), ("basis", "material"),
                           ("claimed", "loss")]:
            with self.subTest(key=key, value=value):
                r = copy.deepcopy(claim)
                r["claims"][0][key] = value
                self.assertFails(r)
        assessment = RECORDS["assessment (claim, retrograde tables)"]
        for value in ["cursed_win", "Win", "unknown"]:
            with self.subTest(category=value):
                r = copy.deepcopy(assessment)
                r["claim"]["tablebase"]["category"] = value
                self.assertFails(r)
        r = copy.deepcopy(assessment)
        r["claim"]["tablebase_source"] = "Syzygy"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["job"])
        r["state"] = "RUNNING"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["health"])
        r["status"] = "SERVING"
        self.assertFails(r)

    def test_numbers_are_numbers(self):
        verdict = RECORDS["verdict (flag fall, winner cannot mate)"]
        for key in ["game", "plies", "ended_at_ply", "moves_after_end"]:
            with self.subTest(key=key):
                r = copy.deepcopy(verdict)
                r[key] = str(r[key])
                self.assertFails(r)
        r = copy.deepcopy(RECORDS["summary"])
        r["games"] = "5"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["summary"])
        r["seconds"] = "0.1"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["job"])
        r["input_bytes"] = "5585"  # protobuf's JSON mapping writes int64 so
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["failure"])
        r["error"]["code"] = "404"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["error (game)"])
        r["error"]["line"] = 93.5
        self.assertFails(r)

    def test_absent_text_is_null_not_empty(self):
        for key in ["site", "declared", "termination", "article", "detail"]:
            with self.subTest(key=key):
                r = copy.deepcopy(RECORDS["verdict (claim upheld)"])
                r[key] = ""
                self.assertFails(r, words=f"$.{key}: ")

    def test_an_error_record_has_no_ruling(self):
        r = copy.deepcopy(RECORDS["error (game)"])
        r["ruling"] = "1-0"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["error (game)"])
        r["error"] = None
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["verdict (claim upheld)"])
        r["error"] = {"message": "x", "game": 1, "line": None, "column": None}
        self.assertFails(r)

    def test_keys_that_go_together(self):
        verdict = RECORDS["verdict (flag fall, winner cannot mate)"]
        r = copy.deepcopy(verdict)
        r["flag_evidence"] = None  # whose flag fell, but not what says so
        self.assertFails(r)
        r = copy.deepcopy(verdict)
        r["forfeit_reason"] = "abandoned"  # not read as a forfeit
        self.assertFails(r)
        r = copy.deepcopy(verdict)
        r["winner"]["line"] = ["e1e2"]  # a line for a "no"
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["verdict (claim upheld)"])
        r["claims"][0]["result"] = None  # upheld, but no result
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["assessment (claim, retrograde tables)"])
        r["status"] = "checkmate"  # and still no article
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["summary"])
        r["tablebase_covered"] = 3  # without its contradictions
        self.assertFails(r)

    def test_the_chess99_shape(self):
        c99 = RECORDS["assessment (chess99)"]
        r = copy.deepcopy(c99)
        del r["white"]["section"]
        self.assertFails(r, words="'section' is a required property")
        r = copy.deepcopy(c99)
        r["rules"] = "fide"  # the Chess 99 keys under chess rules
        self.assertFails(r)
        r = copy.deepcopy(RECORDS["assessment (claim, retrograde tables)"])
        r["rules"] = "chess99"  # and the other way round
        self.assertFails(r)

    def test_tablebase_every_key_even_when_not_covered(self):
        r = copy.deepcopy(TABLEBASE["tablebase (not covered)"])
        r["dtz"] = 0
        self.assertFails(r, schema="tablebase")
        r = copy.deepcopy(TABLEBASE["tablebase (covered)"])
        r["not_covered"] = "why"
        self.assertFails(r, schema="tablebase")


if __name__ == "__main__":
    unittest.main()
