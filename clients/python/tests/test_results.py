"""The typed results built from messages, without a server."""

from __future__ import annotations

import unittest

from arbiter.v1 import arbiter_pb2, verdict_pb2

from arbiter_client import CanMate, Job, JobState, MateAbility, Side, Verdict


class MateAbilityTest(unittest.TestCase):
    def test_line_san_when_the_messages_have_it(self) -> None:
        # MateAbility.line_san (field 4) is read when the generated messages
        # know it and the server sent it; None otherwise, so that the client
        # works with protos from before and after the field.
        has_field = "line_san" in verdict_pb2.MateAbility.DESCRIPTOR.fields_by_name
        with_san = {"line_san": ["Qa8#"]} if has_field else {}
        m = verdict_pb2.MateAbility(answer=verdict_pb2.CAN_MATE_YES, line=["a2a8"], **with_san)
        ability = MateAbility.from_proto(m)
        self.assertIs(ability.answer, CanMate.YES)
        self.assertEqual(ability.line, ("a2a8",))
        self.assertEqual(ability.line_san, ("Qa8#",) if has_field else None)
        # Field 4 on the wire, unknown to older messages, is no error.
        wire = m.SerializeToString() + b"\x22\x04Qa8#"
        parsed = verdict_pb2.MateAbility.FromString(wire)
        self.assertEqual(MateAbility.from_proto(parsed).line, ("a2a8",))

    def test_no_answer(self) -> None:
        ability = MateAbility.from_proto(
            verdict_pb2.MateAbility(answer=verdict_pb2.CAN_MATE_NO, proof="material")
        )
        self.assertEqual((ability.answer, ability.proof, ability.line, ability.line_san),
                         (CanMate.NO, "material", (), None))


class VerdictTest(unittest.TestCase):
    def test_error_record(self) -> None:
        v = Verdict.from_proto(verdict_pb2.GameVerdict(game=3, error="illegal move", error_line=12))
        self.assertFalse(v.ok)
        self.assertIsNone(v.ruling)
        self.assertEqual((v.game, v.error, v.error_line), (3, "illegal move", 12))

    def test_ruling(self) -> None:
        v = Verdict.from_proto(
            verdict_pb2.GameVerdict(
                game=1,
                ruling=verdict_pb2.Ruling(
                    ruling="1/2-1/2",
                    rule="flag_fall_cannot_mate",
                    flag_fallen_by=verdict_pb2.COLOR_WHITE,
                    flag_evidence=verdict_pb2.FLAG_EVIDENCE_CLOCK,
                    declared_ending=verdict_pb2.DeclaredEnding(
                        kind=verdict_pb2.ENDING_KIND_FLAG_FALL, text="Time forfeit"
                    ),
                ),
            )
        )
        self.assertTrue(v.ok)
        r = v.ruling
        self.assertEqual(
            (r.result, r.rule, r.winner, r.winner_can_mate),
            ("1/2-1/2", "flag_fall_cannot_mate", None, None),
        )
        self.assertEqual((r.flag_fallen_by, r.flag_evidence), (Side.WHITE, "clock"))
        self.assertEqual((r.declared_ending.kind, r.declared_ending.grounds), ("flag_fall", None))
        self.assertIsNone(r.ended_at_ply)
        self.assertIsNone(r.clock_contradicts_result)


class JobTest(unittest.TestCase):
    def test_states(self) -> None:
        job = Job.from_proto(arbiter_pb2.Job(id="j", state=arbiter_pb2.Job.STATE_RUNNING))
        self.assertIs(job.state, JobState.RUNNING)
        self.assertFalse(job.state.ended)
        self.assertIsNone(job.finished)


if __name__ == "__main__":
    unittest.main()
