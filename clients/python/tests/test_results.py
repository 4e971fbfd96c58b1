"""The typed results built from messages, without a server."""

from __future__ import annotations

import unittest

from arbiter.v1 import arbiter_pb2, verdict_pb2

from arbiter_client import (
    Assessment,
    CanMate,
    GameStatus,
    Job,
    JobState,
    MateAbility,
    Rules,
    Side,
    TablebaseCategory,
    Verdict,
)


class EnumTest(unittest.TestCase):
    def test_every_wire_value_has_a_member(self) -> None:
        # The enums mirror the proto enums name for name: a value the wire
        # can carry is never read as None, and each member goes back to it.
        for cls, proto in (
            (Side, verdict_pb2.Color),
            (CanMate, verdict_pb2.CanMate),
            (GameStatus, verdict_pb2.GameStatus),
            (Rules, verdict_pb2.Ruleset),
            (TablebaseCategory, verdict_pb2.TablebaseCategory),
            (JobState, arbiter_pb2.Job.State),
        ):
            for value in proto.values()[1:]:
                with self.subTest(value=proto.Name(value)):
                    member = cls._from_proto(value)
                    self.assertIsInstance(member, cls)
                    self.assertEqual(member._to_proto(), value)
            self.assertEqual(len(cls), len(proto.values()) - 1)

    def test_words(self) -> None:
        dead = verdict_pb2.GAME_STATUS_DEAD_POSITION
        self.assertIs(GameStatus._from_proto(dead), GameStatus.DEAD)
        self.assertEqual(GameStatus.DEAD.value, "dead")
        self.assertIs(
            TablebaseCategory._from_proto(verdict_pb2.TABLEBASE_CATEGORY_MAYBE_LOSS),
            TablebaseCategory.MAYBE_LOSS,
        )
        self.assertEqual(TablebaseCategory.MAYBE_LOSS.value, "maybe-loss")
        # UNSPECIFIED is the FIDE Laws, which records call "fide".
        self.assertIs(Rules._from_proto(verdict_pb2.RULESET_UNSPECIFIED), Rules.CHESS)
        self.assertIs(Rules("fide"), Rules.CHESS)
        self.assertIsNone(CanMate._from_proto(verdict_pb2.CAN_MATE_UNSPECIFIED))


class MateAbilityTest(unittest.TestCase):
    def test_line_san_when_the_server_sends_it(self) -> None:
        yes = verdict_pb2.CAN_MATE_YES
        m = verdict_pb2.MateAbility(answer=yes, line=["a2a8"], line_san=["Qa8#"])
        ability = MateAbility.from_proto(m)
        self.assertIs(ability.answer, CanMate.YES)
        self.assertEqual((ability.line, ability.line_san), (("a2a8",), ("Qa8#",)))
        # A worker from before the field sends no SAN.
        del m.line_san[:]
        self.assertIsNone(MateAbility.from_proto(m).line_san)

    def test_no_answer(self) -> None:
        ability = MateAbility.from_proto(
            verdict_pb2.MateAbility(
                answer=verdict_pb2.CAN_MATE_NO, proof=verdict_pb2.MATE_PROOF_SEVENTY_FIVE_MOVE_RULE
            )
        )
        self.assertEqual(
            (ability.answer, ability.proof, ability.line, ability.line_san),
            (CanMate.NO, "seventy_five_move_rule", (), None),
        )
        none = verdict_pb2.MateAbility(
            answer=verdict_pb2.CAN_MATE_YES, proof=verdict_pb2.MATE_PROOF_NONE
        )
        self.assertIsNone(MateAbility.from_proto(none).proof)


class VerdictTest(unittest.TestCase):
    def test_error_record(self) -> None:
        v = Verdict.from_proto(
            verdict_pb2.GameVerdict(game=3, error="illegal move", error_line=12, error_column=5)
        )
        self.assertFalse(v.ok)
        self.assertIsNone(v.ruling)
        self.assertEqual(
            (v.game, v.error, v.error_line, v.error_column), (3, "illegal move", 12, 5)
        )
        record = v.record()
        self.assertEqual(
            (record["type"], record["rules"], record["end_fen"]), ("error", "fide", None)
        )
        self.assertEqual(
            record["error"], {"message": "illegal move", "game": 3, "line": 12, "column": 5}
        )
        # Every key a verdict has, null.
        self.assertIsNone(record["claims"])
        self.assertIsNone(record["ruling"])
        self.assertEqual(list(record)[-1], "error")
        unknown = Verdict.from_proto(verdict_pb2.GameVerdict(game=4, error="unreadable"))
        self.assertIsNone(unknown.record()["error"]["line"])

    def test_ruling(self) -> None:
        v = Verdict.from_proto(
            verdict_pb2.GameVerdict(
                game=1,
                rules=verdict_pb2.RULESET_USCF,
                encoding=verdict_pb2.TEXT_ENCODING_WINDOWS_1252,
                ruling=verdict_pb2.Ruling(
                    ruling=verdict_pb2.GAME_RESULT_DRAW,
                    rule=verdict_pb2.RULE_FLAG_FALL_CANNOT_MATE,
                    flag_fallen_by=verdict_pb2.COLOR_WHITE,
                    flag_evidence=verdict_pb2.FLAG_EVIDENCE_CLOCK,
                    declared_ending=verdict_pb2.DeclaredEnding(
                        kind=verdict_pb2.ENDING_KIND_FLAG_FALL,
                        grounds=verdict_pb2.ENDING_GROUNDS_NONE,
                        source=verdict_pb2.ENDING_SOURCE_TERMINATION_TAG,
                        text="Time forfeit",
                    ),
                ),
            )
        )
        self.assertTrue(v.ok)
        self.assertEqual((v.rules, v.encoding), (Rules.USCF, "windows-1252"))
        r = v.ruling
        self.assertEqual(
            (r.result, r.rule, r.winner, r.winner_can_mate),
            ("1/2-1/2", "flag_fall_cannot_mate", None, None),
        )
        self.assertEqual((r.flag_fallen_by, r.flag_evidence), (Side.WHITE, "clock"))
        self.assertEqual((r.declared_ending.kind, r.declared_ending.grounds), ("flag_fall", None))
        self.assertIsNone(r.ended_at_ply)
        self.assertIsNone(r.clock_contradicts_result)
        record = v.record()
        self.assertEqual(
            [record[k] for k in ("type", "rules", "encoding", "ruling", "rule", "winner")],
            ["verdict", "uscf", "windows-1252", "1/2-1/2", "flag_fall_cannot_mate", None],
        )
        self.assertEqual(
            [record[k] for k in ("termination_read_as", "termination_source", "declared_grounds")],
            ["flag_fall", "termination_tag", None],
        )
        self.assertEqual((record["flag_fallen_by"], record["flag_evidence"]), ("white", "clock"))

    def test_forfeit_without_a_reason(self) -> None:
        # FORFEIT_REASON_OTHER is written "unspecified", as core names it.
        ending = verdict_pb2.DeclaredEnding(
            kind=verdict_pb2.ENDING_KIND_FORFEIT, forfeit=verdict_pb2.FORFEIT_REASON_OTHER
        )
        v = Verdict.from_proto(
            verdict_pb2.GameVerdict(game=1, ruling=verdict_pb2.Ruling(declared_ending=ending))
        )
        self.assertEqual(v.ruling.declared_ending.forfeit, "unspecified")
        self.assertEqual(v.record()["forfeit_reason"], "unspecified")


class AssessmentTest(unittest.TestCase):
    def test_dead_position_record(self) -> None:
        material = verdict_pb2.MateAbility(
            answer=verdict_pb2.CAN_MATE_NO, proof=verdict_pb2.MATE_PROOF_MATERIAL
        )
        fortress = verdict_pb2.MateAbility(
            answer=verdict_pb2.CAN_MATE_NO, proof=verdict_pb2.MATE_PROOF_FORTRESS
        )
        a = Assessment.from_proto(
            verdict_pb2.Assessment(
                fen="8/8/8/8/8/8/8/K6k w - - 0 1",
                status=verdict_pb2.GAME_STATUS_DEAD_POSITION,
                white=fortress,
                black=material,
                dead=True,
            )
        )
        self.assertIs(a.status, GameStatus.DEAD)
        record = a.record()
        self.assertEqual(
            [record[k] for k in ("rules", "status", "article", "proof", "white_can_mate")],
            ["fide", "dead", "5.2.2", "fortress+material", "no"],
        )
        self.assertIsNone(record["tablebase_source"])


class JobTest(unittest.TestCase):
    def test_states(self) -> None:
        job = Job.from_proto(arbiter_pb2.Job(id="j", state=arbiter_pb2.Job.STATE_RUNNING))
        self.assertIs(job.state, JobState.RUNNING)
        self.assertFalse(job.state.ended)
        self.assertIsNone(job.finished)


if __name__ == "__main__":
    unittest.main()
