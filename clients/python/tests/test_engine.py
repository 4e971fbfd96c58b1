"""arbiter.Engine, in process, against the build tree's library.

ctest (python_module_test) sets ARBITER_LIBRARY to build/capi/libarbiter.so.1
and PYTHONPATH to build/clients/python. Answers are compared with the
``arbiter`` command's records (loopback.run_cli: build/arbiter embedded, with
the tests' retrograde tables).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import time
import unittest
from typing import Any

import loopback
from standins import Board, Fen

import arbiter

CUTECHESS_710 = "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1"  # White mates: the knight and a rook promotion
LONE_KING = "8/8/3rk3/8/8/2K5/8/8 w - - 0 1"  # White has only the king
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
# Unknown at the default budget after about half a second (CHA's test vector:
# chasolver finds a 140-ply helpmate): a call long enough to watch.
SLOW = "8/8/5p2/2p1pPp1/2PbPk1b/2pBp1pB/2P1P1P1/5BRK b - - 0 1"
SAMPLE = os.path.join(loopback.SOURCE_DIR, "examples", "lichess_sample.pgn")


def cli_records(path: str) -> list[dict[str, Any]]:
    """``arbiter verify PATH --format jsonl --jobs 1``, without its summary."""
    out = loopback.run_cli(
        ["verify", path, "--format", "jsonl", "--jobs", "1", "--tables", loopback.tables_dir()]
    )
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [r for r in records if r.get("type") in ("verdict", "error", "skipped")]


class EngineTest(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls) -> None:
        cls.engine = arbiter.Engine(tables_dir=loopback.tables_dir())

    @classmethod
    def tearDownClass(cls) -> None:
        cls.engine.close()

    def test_library_is_the_build_trees(self) -> None:
        self.assertEqual(arbiter.library_path(), os.path.abspath(os.environ["ARBITER_LIBRARY"]))
        self.assertEqual(arbiter.api_version(), 1)
        self.assertRegex(arbiter.version(), r"^\d+\.\d+\.\d+ \(\w+\)$")

    def test_can_mate_yes_with_a_line_that_replays(self) -> None:
        mate = self.engine.can_mate(CUTECHESS_710, True)
        self.assertEqual(list(mate), ["can_mate", "proof", "line", "line_san"])
        self.assertEqual((mate["can_mate"], mate["proof"]), ("yes", None))
        self.assertTrue(mate["line"])
        self.assertEqual(len(mate["line_san"]), len(mate["line"]))
        self.assertTrue(mate["line_san"][-1].endswith("#"), mate["line_san"])
        # The moves are legal from the position and end in White's mate.
        end = self.engine.assess(CUTECHESS_710, mate["line"])
        self.assertEqual(end["status"], "checkmate")
        self.assertEqual(end["fen"].split()[1], "b")
        # The very object `arbiter analyze --json` writes for White.
        self.assertEqual(mate, loopback.cli_analyze(CUTECHESS_710)["white"])

    def test_can_mate_no_with_its_proof(self) -> None:
        mate = self.engine.can_mate(LONE_KING, "white")
        self.assertEqual(
            mate, {"can_mate": "no", "proof": "material", "line": None, "line_san": None}
        )
        self.assertEqual(mate, loopback.cli_analyze(LONE_KING)["white"])
        self.assertEqual(self.engine.can_mate(LONE_KING, False)["can_mate"], "yes")

    def test_colours_and_positions(self) -> None:
        # python-chess's colours (chess.WHITE is True), words in any case,
        # and any object with .fen().
        white = self.engine.can_mate(LONE_KING, True)
        for color in ("white", "White", "WHITE"):
            self.assertEqual(self.engine.can_mate(LONE_KING, color), white)
        self.assertEqual(self.engine.can_mate(Fen(LONE_KING), True), white)
        self.assertEqual(
            self.engine.can_mate(Fen(LONE_KING), False), self.engine.can_mate(LONE_KING, "black")
        )
        with self.assertRaises(TypeError):
            self.engine.can_mate(LONE_KING, 0)  # C's ARBITER_WHITE, python-chess's BLACK
        with self.assertRaises(ValueError):
            self.engine.can_mate(LONE_KING, "red")
        with self.assertRaises(TypeError):
            self.engine.can_mate(42, True)

    def test_board_brings_its_history(self) -> None:
        # After the knights' shuffle the start position stands a third time:
        # a threefold claim is open only with the history.
        board = Board(START, SHUFFLE, START)
        a = self.engine.assess(board)
        self.assertTrue(a["claims"]["threefold"]["available"])
        self.assertEqual(a, loopback.cli_analyze(START, SHUFFLE))
        self.assertFalse(self.engine.assess(Fen(START))["claims"]["threefold"]["available"])
        # Moves after the board's own.
        self.assertEqual(
            self.engine.assess(Board(START, SHUFFLE[:4], START), SHUFFLE[4:]),
            loopback.cli_analyze(START, SHUFFLE),
        )

    def test_assess_is_the_commands_record(self) -> None:
        for fen, moves in (
            (CUTECHESS_710, []),
            (LONE_KING, []),
            (FOOLS_MATE, []),
            (STALEMATE, []),
            ("8/8/8/8/8/8/8/K6k w - - 0 1", []),
            (START, SHUFFLE),
            (START, ["e2e4", "e7e5"]),
        ):
            with self.subTest(fen=fen, moves=moves):
                record = self.engine.assess(fen, moves)
                cli = loopback.cli_analyze(fen, moves)
                self.assertEqual(record, cli)
                self.assertEqual(json.dumps(record), json.dumps(cli), "key order")

    def test_errors(self) -> None:
        bad = "8/8/8/8/8/8/8/K7 w - - 0 1"
        with self.assertRaises(arbiter.InvalidArgumentError) as caught:
            self.engine.can_mate(bad, True)
        e = caught.exception
        self.assertIsInstance(e, ValueError)
        self.assertIsInstance(e, arbiter.Error)
        self.assertEqual(e.status, "invalid_argument")
        self.assertEqual(
            e.message,
            'FEN field 1 (placement) "8/8/8/8/8/8/8/K7": black has 0 kings; exactly 1 needed',
        )
        self.assertEqual(str(e), f"invalid_argument: {e.message}")
        with self.assertRaises(arbiter.InvalidArgumentError) as caught:
            self.engine.assess("not a fen")
        self.assertIn("FEN", caught.exception.message)
        with self.assertRaises(arbiter.InvalidArgumentError) as caught:
            self.engine.assess(START, ["e2e5"])
        self.assertIn("e2e5", caught.exception.message)
        with self.assertRaises(TypeError):
            self.engine.assess(START, "e2e4")  # one string, not a sequence of moves
        with self.assertRaises(ValueError):
            self.engine.assess(START, ["e2e4 e7e5"])
        with self.assertRaises(arbiter.InvalidArgumentError):
            self.engine.can_mate(LONE_KING + "\0", True)

    def test_engine_options(self) -> None:
        with self.assertRaises(arbiter.InvalidArgumentError):
            arbiter.Engine(rules="checkers")
        with self.assertRaises(arbiter.InvalidArgumentError) as caught:
            arbiter.Engine(tables_dir=SAMPLE)  # a file, not a directory
        self.assertIn("not a directory", caught.exception.message)
        with self.assertRaises(arbiter.InvalidArgumentError):
            arbiter.Engine(budget=0)
        with arbiter.Engine(tables_dir="", rules="chess99") as chess99:
            with self.assertRaises(arbiter.InvalidArgumentError) as caught:
                chess99.can_mate(LONE_KING, True)
            self.assertIn("CHESS99", caught.exception.message)
        engine = arbiter.Engine(tables_dir="", budget=1000, rules="USCF")
        self.assertEqual(engine.assess(LONE_KING)["rules"], "uscf")
        engine.close()
        with self.assertRaises(arbiter.Error) as caught:
            engine.can_mate(LONE_KING, True)
        self.assertEqual(caught.exception.status, "failed_precondition")
        engine.close()  # twice is fine

    def test_library_not_found(self) -> None:
        env = dict(os.environ, ARBITER_LIBRARY="/nonexistent/libarbiter.so.1")
        p = subprocess.run(
            [sys.executable, "-c", "import arbiter; arbiter.Engine()"],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("arbiter.LibraryNotFoundError: ARBITER_LIBRARY=/nonexistent", p.stderr)
        self.assertIn("cmake --build build --target arbiter_shared", p.stderr)
        # Importing needs no library: the gRPC client shares the package.
        p = subprocess.run(
            [sys.executable, "-c", "import arbiter"], env=env, capture_output=True, timeout=60
        )
        self.assertEqual(p.returncode, 0, p.stderr)


class VerifyTest(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls) -> None:
        cls.engine = arbiter.Engine(tables_dir=loopback.tables_dir())
        cls.expected = cli_records(SAMPLE)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.engine.close()

    def test_the_commands_records(self) -> None:
        with open(SAMPLE, "rb") as f:
            data = f.read()
        for what, source in (
            ("a path", SAMPLE),
            ("a PathLike", _PathLike(SAMPLE)),
            ("bytes", data),
            ("text", data.decode("utf-8")),
            ("a binary file", open(SAMPLE, "rb")),
        ):
            with self.subTest(source=what):
                stream = self.engine.verify(source)
                records = list(stream)
                self.assertEqual(records, self.expected)
                self.assertEqual(
                    [json.dumps(r) for r in records], [json.dumps(r) for r in self.expected]
                )
                self.assertEqual(
                    stream.summary,
                    {
                        "games": len(self.expected),
                        "errors": sum(r["type"] == "error" for r in self.expected),
                        "disagreements": sum(
                            r["type"] == "verdict" and not r["agrees"] for r in self.expected
                        ),
                    },
                )
                self.assertFalse(stream.cancelled)
                if hasattr(source, "close"):
                    source.close()

    def test_threads_keep_the_order(self) -> None:
        with arbiter.Engine(tables_dir=loopback.tables_dir(), threads=2) as engine:
            self.assertEqual(list(engine.verify(SAMPLE)), self.expected)

    def test_stopping_early_stops_the_run(self) -> None:
        with open(SAMPLE, "rb") as f:
            data = f.read() * 400  # 2,000 games
        games = 400 * len(self.expected)
        stream = self.engine.verify(data)
        first = [next(stream) for _ in range(3)]
        self.assertEqual([r["game"] for r in first], [1, 2, 3])
        stream.close()
        # The callback refused the next verdict and the library returned:
        # the run ended with at most the queue's worth ruled beyond those read.
        self.assertTrue(stream.cancelled)
        self.assertLess(stream.summary["games"], games)
        self.assertLessEqual(stream.summary["games"], 3 + 64 + 2)
        self.assertEqual(list(stream), [])
        self.assertFalse(_verify_threads())
        # A stream dropped unfinished stops its run too.
        with self.engine.verify(data) as stream:
            next(stream)
        self.assertTrue(stream.cancelled)
        stream = self.engine.verify(data)
        next(stream)
        del stream
        gc.collect()
        deadline = time.monotonic() + 20
        while _verify_threads() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(_verify_threads())
        # A stream never iterated runs nothing.
        self.engine.verify(data).close()
        self.assertFalse(_verify_threads())

    def test_errors(self) -> None:
        missing = os.path.join(loopback.SOURCE_DIR, "examples", "no_such_file.pgn")
        stream = self.engine.verify(missing)  # nothing runs before next()
        with self.assertRaises(arbiter.Error) as caught:
            next(stream)
        self.assertEqual(caught.exception.status, "not_found")
        self.assertIn("no_such_file.pgn", caught.exception.message)
        with self.assertRaises(TypeError):
            self.engine.verify(42)
        # A record that cannot be read is a record, and the run goes on.
        records = list(self.engine.verify('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n\n' + "1. e4 *\n"))
        self.assertEqual([r["type"] for r in records], ["error", "verdict"])
        self.assertEqual(records[0]["error"]["game"], 1)


class _PathLike:
    def __init__(self, path: str) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return self.path


def _verify_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("arbiter-verify")]


class ThreadsTest(unittest.TestCase):
    """Calls release the GIL, and one engine serves several threads."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.engine = arbiter.Engine(tables_dir=loopback.tables_dir(), budget=50_000)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.engine.close()

    def test_another_thread_runs_during_a_call(self) -> None:
        # A Python thread stamps the time about every millisecond. Were the
        # GIL held through can_mate, no stamp could fall inside a call; with
        # it released, hundreds do. The margins keep stamps taken just
        # before the call began out of the count.
        stamps: list[float] = []
        stop = threading.Event()

        def stamp() -> None:
            while not stop.is_set():
                stamps.append(time.monotonic())
                time.sleep(0.001)

        ticker = threading.Thread(target=stamp)
        ticker.start()
        try:
            inside, calls, spent = 0, 0, 0.0
            while spent < 0.5 and calls < 20:
                t0 = time.monotonic()
                mate = self.engine.can_mate(SLOW, True)
                t1 = time.monotonic()
                margin = (t1 - t0) / 10
                inside += sum(t0 + margin < s < t1 - margin for s in stamps)
                calls, spent = calls + 1, spent + (t1 - t0)
            self.assertEqual(mate["can_mate"], "unknown")
        finally:
            stop.set()
            ticker.join()
        self.assertGreaterEqual(
            inside, 10, f"{inside} stamps inside {calls} calls of {spent:.2f} s in all"
        )

    def test_one_engine_many_threads(self) -> None:
        fens = [SLOW, CUTECHESS_710, LONE_KING, FOOLS_MATE] * 2
        expected = [self.engine.can_mate(f, True) for f in fens]
        results: list[Any] = [None] * len(fens)

        def ask(i: int) -> None:
            results[i] = self.engine.can_mate(fens[i], True)

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(fens))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, expected)


if __name__ == "__main__":
    unittest.main()
