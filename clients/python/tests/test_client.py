"""arbiter_client against a real coordinator and worker on 127.0.0.1.

Answers are compared value by value with the ``arbiter`` command line run
embedded on the same input (its JSON is its own rendering: the values, not
the text, must agree).
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import time
import unittest
from typing import Any, Optional, Sequence

import grpc

import loopback
from standins import Board

# The records' JSON Schema validator (tests/schema/validate.py, Debian's
# python3-jsonschema): record() must be valid by docs/schema/ as the
# command line's records are.
sys.path.insert(0, os.path.join(loopback.SOURCE_DIR, "tests", "schema"))
import validate  # noqa: E402

from arbiter_client import (
    Arbiter,
    ArbiterError,
    Assessment,
    CanMate,
    GameStatus,
    JobState,
    Side,
    TablebaseCategory,
    Verdict,
)

KVK = "8/8/8/8/8/8/8/K6k w - - 0 1"
KQVK = "7k/8/8/8/8/8/Q7/K7 w - - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
KBVKN = "8/8/8/8/8/8/8/KB3n1k w - - 0 1"
# Knights out and back twice: the start position for the third time.
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]

cluster: Optional[loopback.Cluster] = None


def setUpModule() -> None:
    global cluster
    cluster = loopback.Cluster()
    try:
        cluster.start()
        # The coordinator answers UNAVAILABLE until its worker is up.
        deadline = time.monotonic() + 60
        with Arbiter(cluster.address, timeout=10) as arbiter:
            while True:
                try:
                    arbiter.analyze(KVK)
                    break
                except ArbiterError as e:
                    if e.code != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
    except BaseException:
        logs = cluster.logs()
        cluster.stop(keep=True)
        raise RuntimeError(f"the loopback cluster did not start ({cluster.dir}):\n{logs}")


def tearDownModule() -> None:
    if cluster is not None:
        cluster.stop()


def san_json(answer: Any, line: Any, san: Any) -> Optional[list]:
    """A SAN line as the command line renders it: a list for "yes" (empty
    when the side has already mated, where the client has None), else null."""
    if answer is not CanMate.YES:
        return None
    return list(san) if san is not None else ([] if not line else None)


def mate_ability_json(m: Any) -> Optional[dict]:
    """A MateAbility as ``arbiter analyze --json`` renders one."""
    if m is None:
        return None
    return {
        "can_mate": m.answer.value,
        "proof": m.proof,
        "line": list(m.line) if m.answer is CanMate.YES else None,
        "line_san": san_json(m.answer, m.line, m.line_san),
    }


class ClusterTest(unittest.TestCase):
    maxDiff = None

    def setUp(self) -> None:
        assert cluster is not None
        self.arbiter = Arbiter(cluster.address)
        self.addCleanup(self.arbiter.close)

    def assertSameRecord(self, mine: dict, theirs: dict, what: str) -> None:
        """``record()`` is the command line's JSON record: key for key,
        value for value, in the same order."""
        self.assertEqual(mine, theirs, what)
        if isinstance(self, RecordTest):  # the small sets; the shared files are the CLI's
            errors = validate.validate_records([mine])
            self.assertFalse(errors, f"{what}: record() is not valid by docs/schema: "
                             + "; ".join(str(e) for e in errors[:3]))
        # Equal dicts may differ in key order; their JSON may not.
        self.assertEqual(json.dumps(mine), json.dumps(theirs), f"{what}: key order")


class AnalyzeTest(ClusterTest):
    def assertSameAsCli(self, a: Assessment, cli: dict) -> None:
        self.assertEqual(a.fen, cli["fen"])
        self.assertEqual(a.status.value, cli["status"])
        self.assertEqual(a.dead, cli["dead"])
        self.assertEqual(mate_ability_json(a.white), cli["white"])
        self.assertEqual(mate_ability_json(a.black), cli["black"])
        self.assertEqual(
            a.white.answer.value if a.white else None, cli["white_can_mate"], "white_can_mate"
        )
        self.assertEqual(
            a.black.answer.value if a.black else None, cli["black_can_mate"], "black_can_mate"
        )
        claims = cli["claims"]
        self.assertEqual(a.claims.threefold_now, claims["threefold"]["available"])
        self.assertEqual(list(a.claims.threefold_moves), claims["threefold"]["by_move"])
        self.assertEqual(a.claims.fifty_now, claims["fifty"]["available"])
        self.assertEqual(list(a.claims.fifty_moves), claims["fifty"]["by_move"])
        for m in (a.white, a.black):
            # Before the server sends SAN lines, line_san is None; after, it
            # spells the same line.
            if m is not None and m.line_san is not None:
                self.assertEqual(len(m.line_san), len(m.line))

    def test_positions_agree_with_the_command_line(self) -> None:
        for fen in (KVK, KQVK, START, FOOLS_MATE, STALEMATE, KBVKN):
            with self.subTest(fen=fen):
                self.assertSameAsCli(self.arbiter.analyze(fen), loopback.cli_analyze(fen))

    def test_typed_answers(self) -> None:
        dead = self.arbiter.analyze(KVK)
        self.assertIs(dead.status, GameStatus.DEAD)
        self.assertIs(dead.white.answer, CanMate.NO)
        self.assertEqual(dead.white.proof, "material")
        self.assertIs(dead.dead, True)
        self.assertIsNone(dead.tablebase)

        kq = self.arbiter.analyze(KQVK)
        self.assertIs(kq.white.answer, CanMate.YES)
        self.assertTrue(kq.white.line)
        self.assertIs(kq.black.answer, CanMate.NO)
        self.assertIs(kq.dead, False)

        self.assertIs(self.arbiter.analyze(FOOLS_MATE).status, GameStatus.CHECKMATE)
        self.assertIs(self.arbiter.analyze(STALEMATE).status, GameStatus.STALEMATE)

    def test_moves_are_the_history_for_repetitions(self) -> None:
        a = self.arbiter.analyze(START, moves=SHUFFLE)
        self.assertTrue(a.claims.threefold_now)
        self.assertSameAsCli(a, loopback.cli_analyze(START, SHUFFLE))

    def test_one_side_only(self) -> None:
        a = self.arbiter.analyze(KQVK, side="black", budget=1000)
        self.assertIs(a.only_side, Side.BLACK)
        self.assertIsNone(a.white)
        self.assertIs(a.black.answer, CanMate.NO)
        self.assertIs(a.side(Side.BLACK), a.black)

    def test_bad_fen_raises_invalid_argument(self) -> None:
        with self.assertRaises(ArbiterError) as caught:
            self.arbiter.analyze("not a fen")
        self.assertEqual(caught.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertTrue(caught.exception.message)

    def test_illegal_move_raises_invalid_argument(self) -> None:
        with self.assertRaises(ArbiterError) as caught:
            self.arbiter.analyze(START, moves=["e2e5"])
        self.assertEqual(caught.exception.code, grpc.StatusCode.INVALID_ARGUMENT)

    def test_board_like_object(self) -> None:
        # What the client reads of a python-chess Board (tests/standins.py).
        self.assertEqual(
            self.arbiter.analyze(Board(START, SHUFFLE, START)).raw,
            self.arbiter.analyze(START, moves=SHUFFLE).raw,
        )

    def test_the_engines_dictionaries(self) -> None:
        # The cluster and the library in process answer in the same
        # dictionaries: can_mate and assess give what arbiter.Engine's give,
        # and errors are arbiter.Errors alike.
        import arbiter

        cutechess = "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1"

        class Fen:  # an object with .fen() only, as the Engine takes
            def fen(self) -> str:
                return cutechess

        with arbiter.Engine(tables_dir=loopback.tables_dir()) as engine:
            for fen in (cutechess, KVK, KQVK, FOOLS_MATE, KBVKN):
                for color in (True, False, "white", "black"):
                    with self.subTest(fen=fen, color=color):
                        self.assertEqual(
                            self.arbiter.can_mate(fen, color), engine.can_mate(fen, color)
                        )
                with self.subTest(fen=fen):
                    self.assertEqual(self.arbiter.assess(fen), engine.assess(fen))
            self.assertEqual(self.arbiter.can_mate(Fen(), True), engine.can_mate(Fen(), True))
            self.assertEqual(self.arbiter.assess(START, SHUFFLE), engine.assess(START, SHUFFLE))
            with self.assertRaises(arbiter.Error) as caught:
                self.arbiter.can_mate("not a fen", True)
            self.assertEqual(caught.exception.status, "invalid_argument")

    def test_tablebase(self) -> None:
        if not cluster.syzygy:
            message = "no Syzygy tables in $ARBITER_SHARED/syzygy: the tablebase test did not run"
            print(f"\nSKIPPED: {message}", file=sys.stderr)
            self.skipTest(message)
        a = self.arbiter.analyze(KQVK, tablebase=True)
        self.assertIsNotNone(a.tablebase)
        root = a.tablebase.root
        self.assertIsNotNone(root)
        self.assertIs(a.tablebase.side_to_move, Side.WHITE)
        self.assertIs(root.category, TablebaseCategory.WIN)
        cli = loopback.cli_analyze(KQVK, extra=["--syzygy", cluster.syzygy])["tablebase"]
        self.assertEqual(root.category.value, cli["category"])
        self.assertEqual(root.dtz, cli["dtz"])
        self.assertEqual(root.precise_dtz, cli["precise_dtz"])
        self.assertEqual(root.win_within_50, cli["win_within_50"])
        self.assertEqual([m.uci for m in root.moves], [m["uci"] for m in cli["moves"]])
        self.assertEqual([m.san for m in root.moves], [m["san"] for m in cli["moves"]])


def verdict_json(v: Verdict) -> dict:
    """A Verdict as ``arbiter verify --format jsonl`` renders one: the fields
    that say what was ruled and why."""
    out: dict[str, Any] = {
        "game": v.game,
        "site": v.site or None,  # absent tags are null in a record
        "declared": v.declared or None,
        "termination": v.termination or None,
    }
    r = v.ruling
    if v.skipped_variant is not None:
        out.update(ruling=None, skipped_variant=v.skipped_variant, error=None)
        return out
    if r is None:
        out.update(
            ruling=None, error={
                "message": v.error,
                "game": v.game,
                "line": v.error_line or None,
                "column": v.error_column if v.error_line and v.error_column else None,
            }
        )
        return out
    winner = None
    if r.winner is not None:
        winner = mate_ability_json(r.winner_can_mate)
        winner["side"] = r.winner.value
        yes = r.winner_can_mate.answer is CanMate.YES
        winner["line"] = list(v.winner_line) if yes else None
        winner["line_san"] = san_json(r.winner_can_mate.answer, v.winner_line, v.winner_line_san)
    out.update(
        ruling=r.result,
        agrees=r.agrees,
        certain=r.certain,
        rule=r.rule,
        article=r.article,
        ended_at_ply=r.ended_at_ply,
        moves_after_end=r.moves_after_end,
        first_move_after_end=v.first_move_after_end,
        plies=v.plies,
        end_fen=v.end_fen,
        winner=winner,
        claim_grounds=list(r.claim_grounds),
        termination_read_as=r.declared_ending.kind or "none",
        declared_grounds=r.declared_ending.grounds,
        declared_grounds_hold=r.declared_grounds_hold,
        flag_fallen_by=r.flag_fallen_by.value if r.flag_fallen_by else None,
        clock_contradicts_result=r.clock_contradicts_result,
        error=None,
    )
    return out


# Uploaded as they are (zstd-compressed). The Lichess file has every kind
# of ruling (flag falls, dead positions, forfeits), disagreements and
# records that cannot be replayed (variants); the Kasparov file is
# old-style PGN with CRLF line endings.
SHARED_GAMES = ("games/lichess_jishanshaikh4_37221.pgn.zst", "games/otb_kasparov_2128.pgn.zst")

THREE_GAMES = """[Event "a"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "b"]
[Result "1/2-1/2"]

1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 1/2-1/2

[Event "c"]
[Result "0-1"]

1. e4 e5 2. e5 0-1
"""


class VerifyTest(ClusterTest):
    def test_shared_games_agree_with_the_command_line(self) -> None:
        for name in SHARED_GAMES:
            with self.subTest(file=name):
                path = loopback.shared_file(self, name)
                expected = loopback.cli_verify(path)
                got = list(self.arbiter.verify(path))
                self.assertEqual(len(got), len(expected))
                self.assertEqual([v.game for v in got], list(range(1, len(got) + 1)))
                for v, cli in zip(got, expected):
                    # The typed fields, then the whole record.
                    mine = verdict_json(v)
                    theirs = {k: cli.get(k) for k in mine}
                    self.assertEqual(mine, theirs, f"{name}: game {v.game}")
                    self.assertSameRecord(v.record(), cli, f"{name}: game {v.game}")

    def test_text_in_input_order_with_error_records(self) -> None:
        stream = self.arbiter.verify(THREE_GAMES)
        verdicts = list(stream)
        self.assertEqual([v.game for v in verdicts], [1, 2, 3])
        mate, draw, bad = verdicts
        self.assertEqual(
            (mate.ruling.result, mate.ruling.rule, mate.ruling.agrees), ("1-0", "checkmate", True)
        )
        self.assertTrue(mate.ok)
        self.assertEqual(draw.ruling.result, "1/2-1/2")
        self.assertFalse(bad.ok)
        self.assertIsNone(bad.ruling)
        self.assertIn("e5", bad.error)
        self.assertGreater(bad.error_line, 0)
        # Read to the end: the job is gone.
        self.assertIsNotNone(stream.job)
        with self.assertRaises(ArbiterError) as caught:
            self.arbiter.jobs.get(stream.job.id)
        self.assertEqual(caught.exception.code, grpc.StatusCode.NOT_FOUND)
        # Bytes (a path-like str would be a file name) give the same.
        self.assertEqual(
            [verdict_json(v) for v in self.arbiter.verify(THREE_GAMES.encode())],
            [verdict_json(v) for v in verdicts],
        )

    def test_the_engines_records(self) -> None:
        # Each Verdict's record() is what arbiter.Engine.verify yields for
        # the game, whichever source.
        import arbiter

        sample = os.path.join(loopback.SOURCE_DIR, "examples", "lichess_sample.pgn")
        with arbiter.Engine(tables_dir=loopback.tables_dir()) as engine:
            for source in (sample, THREE_GAMES):
                with self.subTest(source=source[:20]):
                    self.assertEqual(
                        [v.record() for v in self.arbiter.verify(source)],
                        list(engine.verify(source)),
                    )

    def test_stopping_early_deletes_the_job(self) -> None:
        # Large enough to be still running, most likely: it is cancelled first.
        with self.arbiter.verify(THREE_GAMES * 1000) as stream:
            next(stream)
            job = stream.job
        with self.assertRaises(ArbiterError) as caught:
            self.arbiter.jobs.get(job.id)
        self.assertEqual(caught.exception.code, grpc.StatusCode.NOT_FOUND)

    def test_kept_job_and_the_jobs_helpers(self) -> None:
        stream = self.arbiter.verify(THREE_GAMES, keep_job=True, name="three.pgn")
        verdicts = list(stream)
        job = self.arbiter.jobs.get(stream.job.id)
        self.assertIs(job.state, JobState.DONE)
        self.assertEqual((job.path, job.games_done, job.errors), ("three.pgn", 3, 1))
        self.assertIn(job.id, [j.id for j in self.arbiter.jobs.list()])
        self.assertEqual(list(self.arbiter.jobs.results(job.id, first_game=2)), verdicts[1:])
        self.arbiter.jobs.delete(job.id)

        submitted = self.arbiter.jobs.submit(THREE_GAMES, budget=1000)
        self.assertTrue(submitted.uploaded)
        self.assertEqual(len(list(self.arbiter.jobs.results(submitted.id))), 3)
        self.assertTrue(self.arbiter.jobs.get(submitted.id).state.ended)
        self.arbiter.jobs.delete(submitted.id)

    def test_missing_file(self) -> None:
        with self.assertRaises(FileNotFoundError):
            list(self.arbiter.verify(os.path.join(cluster.dir, "no-such.pgn")))


def cli_records(args: list, extra: Sequence[str] = ()) -> list[dict]:
    """The records ``arbiter ARGS`` writes (JSON lines), without the summary."""
    out = loopback.run_cli([*args, "--tables", loopback.tables_dir(), *extra])
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [r for r in records if r["type"] != "summary"]


# Records each kind of verify does not show in examples/: a Windows-1252
# record (a converted site) declared as a forfeit without a reason, an
# illegal move (an error record, with its line), a game of another variant
# (skipped), an abandoned game, a draw claimed in a closing comment.
EDGE_GAMES = (
    b'[Event "w"]\n[Site "Z\xfcrich"]\n[Result "1-0"]\n[Termination "forfeit"]\n\n1. e4 e5 1-0\n\n'
    b'[Event "x"]\n[Result "0-1"]\n\n1. e4 e5 2. e5 0-1\n\n'
    b'[Event "v"]\n[Variant "Three-check"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    b'[Event "y"]\n[Result "1-0"]\n[Termination "Abandoned"]\n\n1. f3 e5 2. g4 1-0\n\n'
    b'[Event "z"]\n[Result "1/2-1/2"]\n\n'
    b"1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 {threefold} 1/2-1/2\n"
)


USCF_CLAIM = "insufficient_losing_chances"
KPRVK = "8/8/8/3k4/8/8/3PK3/7R w - - 1 41"
ICCF_WIN_CLAIM = {"rules": "iccf", "claim": "tablebase_claim", "claimed": "win"}


class RecordTest(ClusterTest):
    """``record()`` of what the client receives is the command line's JSON
    record for the same input: key for key, value for value, in order."""

    def assertVerifiedAsCli(self, path: str, rules: Optional[str] = None) -> None:
        cli = cli_records(
            ["verify", path, "--format", "jsonl"], ["--rules", rules] if rules else []
        )
        got = [v.record() for v in self.arbiter.verify(path, rules=rules)]
        self.assertTrue(cli, path)
        self.assertEqual(len(got), len(cli), path)
        for mine, theirs in zip(got, cli):
            self.assertSameRecord(mine, theirs, f"{os.path.basename(path)}: game {theirs['game']}")

    def test_example_games(self) -> None:
        for name, rules in (
            ("lichess_sample.pgn", None),
            ("claims_games.pgn", None),
            ("chess99_games.pgn", "chess99"),
        ):
            with self.subTest(file=name):
                self.assertVerifiedAsCli(os.path.join(loopback.SOURCE_DIR, "examples", name), rules)

    def test_edge_games(self) -> None:
        path = os.path.join(cluster.dir, "edge.pgn")
        with open(path, "wb") as f:
            f.write(EDGE_GAMES)
        self.assertVerifiedAsCli(path)
        types = [r["type"] for r in (v.record() for v in self.arbiter.verify(path))]
        self.assertEqual(types, ["verdict", "error", "skipped", "verdict", "verdict"])

    # (FEN, moves, analyze keywords): ongoing positions, a dead one, mate,
    # stalemate, a threefold claim by history, claims under three rule sets
    # (Arbiter's own tables answer the tablebase claim), Chess 99 positions.
    POSITIONS = (
        (KBVKN, (), {}),
        (KQVK, (), {}),
        (KVK, (), {}),
        (FOOLS_MATE, (), {}),
        (STALEMATE, (), {}),
        (START, SHUFFLE, {}),
        ("8/8/8/4k3/8/8/8/K6Q b - - 0 50", (), {"claim": "quickplay_finish"}),
        (KPRVK, (), {"claim": "quickplay_finish", "claimant": "white"}),
        ("8/8/8/3k4/8/8/8/KR6 w - - 1 41", (), {"rules": "uscf", "claim": USCF_CLAIM}),
        ("8/8/8/8/4k3/8/1K5Q/8 w - - 3 51", (), ICCF_WIN_CLAIM),
        ("4k4/9/9/9/9/1b7/9/9/4K4 w - - 0 21", (), {"rules": "chess99"}),
        ("9/9/9/9/9/9/4k4/3K5/9 b - - 0 80", (), {"rules": "chess99"}),
    )

    def test_analyze(self) -> None:
        for fen, moves, kw in self.POSITIONS:
            with self.subTest(fen=fen, **kw):
                args = ["analyze", "--json", "--fen", fen]
                if moves:
                    args += ["--moves", *moves]
                for option in ("rules", "claim", "claimant", "claimed"):
                    if option in kw:
                        args += [f"--{option}", kw[option]]
                (theirs,) = cli_records(args)
                mine = self.arbiter.analyze(fen, moves=moves, **kw).record()
                self.assertSameRecord(mine, theirs, fen)

    def test_one_side(self) -> None:
        # The command line asks about one side in its batch mode only: a
        # line "FEN white".
        queries = ((KQVK, "black"), ("8/8/8/4k3/8/8/8/KN6 b - - 0 1", "white"))
        path = os.path.join(cluster.dir, "sides.txt")
        with open(path, "w") as f:
            f.writelines(f"{fen} {side}\n" for fen, side in queries)
        cli = cli_records(["analyze", "--json", path])
        for (fen, side), theirs in zip(queries, cli, strict=True):
            with self.subTest(fen=fen, side=side):
                mine = self.arbiter.analyze(fen, side=side).record()
                self.assertSameRecord(mine, theirs, fen)
                other = "black" if side == "white" else "white"
                self.assertIsNone(mine[f"{other}_can_mate"])

    def test_tablebase(self) -> None:
        if not cluster.syzygy:
            message = (
                "no Syzygy tables in $ARBITER_SHARED/syzygy: "
                "the tablebase records were not compared"
            )
            print(f"\nSKIPPED: {message}", file=sys.stderr)
            self.skipTest(message)
        for fen in (KQVK, "8/8/8/8/8/3k4/8/3KR3 w - - 0 1", START):
            with self.subTest(fen=fen):
                (theirs,) = cli_records(
                    ["analyze", "--json", "--fen", fen], ["--syzygy", cluster.syzygy]
                )
                self.assertSameRecord(
                    self.arbiter.analyze(fen, tablebase=True).record(), theirs, fen
                )
        path = os.path.join(loopback.SOURCE_DIR, "examples", "claims_games.pgn")
        cli = cli_records(["verify", path, "--format", "jsonl"], ["--syzygy", cluster.syzygy])
        got = [v.record() for v in self.arbiter.verify(path, tablebase=True)]
        self.assertEqual(len(got), len(cli))
        for mine, theirs in zip(got, cli):
            self.assertSameRecord(mine, theirs, f"claims_games.pgn, tables: game {theirs['game']}")


class SecurityTest(unittest.TestCase):
    def test_tls_and_token(self) -> None:
        with Arbiter(cluster.tls_address, tls_ca=cluster.ca, token_file=cluster.token_file) as a:
            self.assertIs(a.analyze(KVK).dead, True)
            self.assertEqual([v.game for v in a.verify(THREE_GAMES)], [1, 2, 3])
        with open(cluster.token_file) as f:
            token = f.read()
        with Arbiter(cluster.tls_address, tls_ca=cluster.ca, token=token) as a:
            self.assertIs(a.analyze(KQVK).white.answer, CanMate.YES)

    def test_wrong_or_missing_token_is_unauthenticated(self) -> None:
        for token in ("not-the-token", None):
            with self.subTest(token=token):
                with Arbiter(cluster.tls_address, tls_ca=cluster.ca, token=token) as a:
                    with self.assertRaises(ArbiterError) as caught:
                        a.analyze(KVK)
                    self.assertEqual(caught.exception.code, grpc.StatusCode.UNAUTHENTICATED)
                    with self.assertRaises(ArbiterError) as caught:
                        list(a.verify(THREE_GAMES))
                    self.assertEqual(caught.exception.code, grpc.StatusCode.UNAUTHENTICATED)

    def test_a_job_is_its_submitters_and_an_admins_only(self) -> None:
        def client(who: Optional[str]) -> Arbiter:
            if who is None:  # the unnamed token: an admin
                return Arbiter(cluster.tls_address, tls_ca=cluster.ca, token_file=cluster.token_file)
            return Arbiter(cluster.tls_address, tls_ca=cluster.ca, token=cluster.named_tokens[who])

        with client("alice") as alice, client("bob") as bob, client("rita") as rita:
            job = alice.jobs.submit(THREE_GAMES, name="alice.pgn")
            self.assertEqual(job.owner, "alice")
            self.assertIn(job.id, [j.id for j in alice.jobs.list()])
            for other in (bob, rita):
                self.assertNotIn(job.id, [j.id for j in other.jobs.list()])
                for call in (other.jobs.get, other.jobs.cancel, other.jobs.delete,
                             lambda i, o=other: list(o.jobs.results(i))):
                    with self.assertRaises(ArbiterError) as caught:
                        call(job.id)
                    self.assertEqual(caught.exception.code, grpc.StatusCode.NOT_FOUND)
            # A reader analyzes; verify runs as a job here, so it is refused too.
            self.assertIs(rita.analyze(KVK).dead, True)
            for refused in (
                lambda: rita.jobs.submit(THREE_GAMES),
                lambda: list(rita.verify(THREE_GAMES)),
            ):
                with self.assertRaises(ArbiterError) as caught:
                    refused()
                self.assertEqual(caught.exception.code, grpc.StatusCode.PERMISSION_DENIED)
            self.assertEqual(len(list(alice.jobs.results(job.id))), 3)
        with client(None) as admin:
            self.assertIn(job.id, [j.id for j in admin.jobs.list()])
            admin.jobs.delete(job.id)

    def test_a_token_needs_tls(self) -> None:
        with self.assertRaises(ValueError):
            Arbiter(cluster.address, token="t")

    def test_plain_client_to_a_tls_coordinator_is_unavailable(self) -> None:
        with Arbiter(cluster.tls_address, timeout=10) as a:
            with self.assertRaises(ArbiterError) as caught:
                a.analyze(KVK)
            self.assertEqual(caught.exception.code, grpc.StatusCode.UNAVAILABLE)


class StallTest(unittest.TestCase):
    """A coordinator that stops answering (SIGSTOP: its sockets stay open,
    nothing replies) fails every kind of call within the client's
    stall_timeout, whatever the call's own deadline."""

    STALL = 4.0  # seconds; the bound asserted is twice that plus the test's own slack

    def setUp(self) -> None:
        assert cluster is not None
        argv = [
            os.path.join(loopback.binary_dir(), "arbiter-coordinator"),
            "--listen", "127.0.0.1:0",
            "--workers", f"127.0.0.1:{cluster.worker_port}",
            "--job-dir", cluster.path(f"jobs-stall-{self.id().rsplit('.', 1)[-1]}"),
        ]
        port_file = cluster.path(f"stall-{self.id().rsplit('.', 1)[-1]}.port")
        self.coordinator = loopback.Process(argv + ["--port-file", port_file], port_file + ".log")
        self.addCleanup(self.coordinator.stop)
        self.addCleanup(lambda: self.coordinator.proc.send_signal(signal.SIGCONT))
        port = loopback.wait_for_port(port_file, self.coordinator)
        self.arbiter = Arbiter(f"127.0.0.1:{port}", stall_timeout=self.STALL)
        self.addCleanup(self.arbiter.close)
        # Up, with its worker.
        deadline = time.monotonic() + 60
        while True:
            try:
                self.arbiter.analyze(KVK)
                break
            except ArbiterError as e:
                if e.code != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stall(self) -> None:
        """SIGSTOPs the coordinator and waits until every one of its threads
        has stopped: kill() returns once the signal is queued, and on a busy
        machine a thread may still run (and answer) for a moment after."""
        pid = self.coordinator.proc.pid
        self.coordinator.proc.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 10
        while True:
            states = []
            for task in os.listdir(f"/proc/{pid}/task"):
                try:
                    with open(f"/proc/{pid}/task/{task}/stat") as f:
                        states.append(f.read().rsplit(")", 1)[1].split()[0])
                except FileNotFoundError:
                    pass  # a thread that ended
            if all(state in ("T", "t") for state in states):
                return
            self.assertLess(time.monotonic(), deadline, f"coordinator threads not stopped: {states}")
            time.sleep(0.01)

    def assertFailsInTime(self, call: Any) -> None:
        start = time.monotonic()
        with self.assertRaises(ArbiterError) as caught:
            call()
        elapsed = time.monotonic() - start
        self.assertEqual(caught.exception.code, grpc.StatusCode.UNAVAILABLE, caught.exception)
        self.assertLess(elapsed, 2 * self.STALL + 5, "the stall was noticed too late")

    def test_a_results_stream_fails_when_the_coordinator_stalls(self) -> None:
        games = loopback.shared_dir()
        source = (os.path.join(games, "games", "lichess_jishanshaikh4_37221.pgn.zst") if games
                  else os.path.join(loopback.SOURCE_DIR, "examples", "lichess_sample.pgn"))
        stream = self.arbiter.verify(source)
        self.addCleanup(stream.close)
        next(stream)  # uploaded, and ruling
        self.stall()
        self.assertFailsInTime(lambda: [v for v in stream])

    def test_a_unary_call_without_a_timeout_fails_when_the_coordinator_stalls(self) -> None:
        self.stall()
        self.assertFailsInTime(lambda: self.arbiter.analyze(KQVK))

    def test_a_new_connection_to_a_stalled_coordinator_fails(self) -> None:
        self.stall()
        # A pool of its own, so that the channel opens a connection of its
        # own rather than share the open one (gRPC shares a connection
        # between channels with the same target and options): the TCP
        # handshake succeeds (the kernel accepts) and the HTTP/2 one stalls.
        fresh_connection = [("grpc.use_local_subchannel_pool", 1)]
        with Arbiter(self.arbiter.target, stall_timeout=self.STALL,
                     channel_options=fresh_connection) as fresh:
            self.assertFailsInTime(lambda: fresh.analyze(KVK))

    def test_a_quiet_call_is_not_a_stall(self) -> None:
        """An upload that pauses: the call stays open with no data for 5 s,
        pinged every second, and the coordinator accepts the pings (no
        GOAWAY "too many pings"): the upload completes."""

        class SlowFile(io.BytesIO):
            def __init__(self, data: bytes) -> None:
                super().__init__(data)
                self.reads = 0

            def read(self, size: Optional[int] = -1) -> bytes:
                self.reads += 1
                if self.reads == 2:
                    time.sleep(5)
                return super().read(size)

        with Arbiter(self.arbiter.target, stall_timeout=2) as quick:
            job = quick.jobs.submit(SlowFile(THREE_GAMES.encode()))
            self.assertEqual([v.game for v in quick.jobs.results(job.id)], [1, 2, 3])


if __name__ == "__main__":
    unittest.main()
