"""The in-process Engine: Arbiter's library called from this process."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import threading
from ctypes import byref
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

from . import _inputs, _library
from ._inputs import GameSource
from ._library import Library
from .errors import Error, InvalidArgumentError
from .records import Answer, MateRecord, VerifySummary, mate_record

__all__ = ["Engine", "VerdictStream"]

PathArg = Union[str, "os.PathLike[str]"]

_ANSWERS: dict[int, Answer] = {0: "unknown", 1: "yes", 2: "no"}

# Verdicts a verify run may hold ready for a consumer that has not asked
# for them yet: enough that the run rarely waits for the consumer, few
# enough that a run nobody reads holds little (each is one JSON line).
_QUEUE_RECORDS = 64

# The end of a run, after its last verdict.
_END = object()


def _error(lib: Library, e: _library.ErrorStruct) -> Error:
    status = e.status
    name = (lib.arbiter_status_name(status) or b"unknown_status").decode()
    message = e.message.decode("utf-8", "replace")
    return (InvalidArgumentError if status == _library.INVALID_ARGUMENT else Error)(name, message)


def _c_string(text: str, what: str) -> bytes:
    data = text.encode("utf-8")
    if b"\0" in data:
        raise InvalidArgumentError("invalid_argument", f"{what} holds a NUL character")
    return data


def _words(pointer: Optional[int]) -> list[str]:
    """A space-separated string of the library's, as a list (NULL: [])."""
    return ctypes.string_at(pointer).decode("utf-8").split() if pointer else []


def _count(value: Optional[int], what: str, low: int, high: int) -> int:
    """An optional count for the options struct (None: 0, the library's default)."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is an int or None, not {type(value).__name__}")
    if not low <= value <= high:
        raise InvalidArgumentError(
            "invalid_argument", f"{what} must be {low}..{high} (None: the default)"
        )
    return value


class Engine:
    """Arbiter in this process: the C library (libarbiter.so.1) through ctypes.

    ``tables_dir``: the directory of Arbiter's retrograde tables (at most 4
    men), read there and generated there on first need (None:
    $ARBITER_TABLES, else ~/.cache/arbiter/tables; "": in memory only).
    ``syzygy``: a Syzygy directory, or several (a sequence, or one string
    ':'-separated); one set per process. ``budget``: positions each mate
    search may visit before it answers "unknown" (None: 200000, as the
    ``arbiter`` command). ``threads``: threads for ``verify`` (None: 1).
    ``rules``: "fide" (or "chess"), "uscf", "iccf", or "chess99" (for
    ``verify`` only: games without a [Variant] tag are Chess 99 games).
    ``chess960``: write castling as king-takes-rook (Shredder- and X-FEN
    castling letters turn it on by themselves). ``table_mb``: the mate
    search's table (None: 16).

    One engine serves any number of threads at once, and every call
    releases the GIL while the library works. ``close()`` (or leaving a
    ``with`` block) frees it once the calls running on it have returned.
    Errors raise ``arbiter.Error`` (``InvalidArgumentError``, a
    ``ValueError`` too, for a bad FEN, move or option).
    """

    def __init__(
        self,
        tables_dir: Optional[PathArg] = None,
        syzygy: Union[PathArg, Sequence[PathArg], None] = None,
        budget: Optional[int] = None,
        threads: Optional[int] = None,
        rules: str = "fide",
        chess960: bool = False,
        *,
        table_mb: Optional[int] = None,
    ) -> None:
        self._handle: Optional[int] = None  # first: __del__ runs even if this fails
        self._lib = _library.load()
        options = _library.Options()
        if tables_dir is not None:
            options.tables_dir = _c_string(os.fspath(tables_dir), "tables_dir")
        if syzygy is not None:
            paths = [syzygy] if isinstance(syzygy, (str, os.PathLike)) else list(syzygy)
            options.syzygy_path = _c_string(":".join(os.fspath(p) for p in paths), "syzygy")
        options.budget = _count(budget, "budget", 1, 2**64 - 1)
        options.threads = _count(threads, "threads", 1, 4096)
        options.table_mb = _count(table_mb, "table_mb", 1, 65536)
        if not isinstance(rules, str) or rules.lower() not in _library.RULES:
            raise InvalidArgumentError(
                "invalid_argument", f"rules is one of {', '.join(_library.RULES)}, not {rules!r}"
            )
        options.rules = _library.RULES[rules.lower()]
        options.chess960 = int(bool(chess960))
        error = _library.ErrorStruct()
        handle = self._lib.arbiter_engine_new(byref(options), byref(error))
        if not handle:
            raise _error(self._lib, error)
        self.rules = "fide" if rules.lower() == "chess" else rules.lower()
        self._lock = threading.Lock()
        self._active = 0  # calls running, verify runs included
        self._closing = False
        self._handle = handle

    # -- lifetime ------------------------------------------------------

    def close(self) -> None:
        """Frees the engine: now, or when the last call running on it
        returns (the library must not free an engine in use). Later calls
        raise Error ("failed_precondition")."""
        with self._lock:
            self._closing = True
            self._free_if_idle()

    def _free_if_idle(self) -> None:  # with self._lock held
        if self._active == 0 and self._handle is not None:
            self._lib.arbiter_engine_free(self._handle)
            self._handle = None

    def _acquire(self) -> int:
        with self._lock:
            if self._handle is None or self._closing:
                raise Error("failed_precondition", "the engine is closed")
            self._active += 1
            return self._handle

    def _release(self) -> None:
        with self._lock:
            self._active -= 1
            if self._closing:
                self._free_if_idle()

    @contextlib.contextmanager
    def _call(self) -> Iterator[int]:
        handle = self._acquire()
        try:
            yield handle
        finally:
            self._release()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None:
            self.close()

    def __repr__(self) -> str:
        state = "closed" if self._handle is None or self._closing else "open"
        return f"<arbiter.Engine rules={self.rules!r} {state}>"

    # -- positions -----------------------------------------------------

    def can_mate(self, position: Any, color: Union[bool, str]) -> MateRecord:
        """Can ``color`` still checkmate from ``position`` by some series of
        legal moves? (FIDE 6.9: a player whose flag falls loses unless the
        opponent cannot; ask about the opponent.)

        ``position``: a FEN or an object with ``.fen()`` (a python-chess
        ``Board``). ``color``: True/False (python-chess's ``chess.WHITE``
        and ``chess.BLACK``) or "white"/"black". Returns the object
        ``arbiter analyze --json`` writes for that side: ``{"can_mate":
        "yes"|"no"|"unknown", "proof": ..., "line": [uci...], "line_san":
        [san...]}``; a "yes" has the line to the checkmate, a "no" its
        proof, and "unknown" (the budget ran out) is never a guess.
        """
        fen = _c_string(_inputs.fen(position), "the FEN")
        side = _library.WHITE if _inputs.side(color) == "white" else _library.BLACK
        lib = self._lib
        mate = _library.Mate()
        error = _library.ErrorStruct()
        try:
            with self._call() as handle:
                status = lib.arbiter_can_mate(handle, fen, side, byref(mate), byref(error))
            if status != _library.OK:
                raise _error(lib, error)
            proof = (lib.arbiter_proof_name(mate.proof) or b"").decode()
            return mate_record(
                _ANSWERS.get(mate.answer, "unknown"),
                proof,
                _words(mate.line_uci),
                _words(mate.line_san),
            )
        finally:
            lib.arbiter_mate_clear(byref(mate))

    def assess(self, position: Any, moves: Optional[Iterable[str]] = None) -> dict[str, Any]:
        """How the position stands after ``moves`` (UCI, the history that
        repetitions count): the record ``arbiter analyze --json`` writes
        (``{"type": "assessment", "status": ..., "white": {...}, "black":
        {...}, "dead": ..., "claims": {...}, ...}``), as ``json.loads``
        reads it. A python-chess ``Board`` brings its move stack."""
        fen, history, _ = _inputs.position(position)
        played = history + _inputs.moves(moves)
        fen_c = _c_string(fen, "the FEN")
        moves_c = _c_string(" ".join(played), "moves") if played else None
        lib = self._lib
        out = _library.Assessment()
        error = _library.ErrorStruct()
        try:
            with self._call() as handle:
                status = lib.arbiter_assess(handle, fen_c, moves_c, byref(out), byref(error))
            if status != _library.OK:
                raise _error(lib, error)
            result: dict[str, Any] = json.loads(ctypes.string_at(out.json))
            return result
        finally:
            lib.arbiter_assessment_clear(byref(out))

    # -- games ---------------------------------------------------------

    def verify(self, source: GameSource) -> "VerdictStream":
        """Rules every game of a PGN file: an iterator of one record per
        game, in input order, the lines of ``arbiter verify --format
        jsonl`` (without its summary) as ``json.loads`` reads them; a game
        that cannot be read is an ``{"type": "error", ...}`` record and the
        run goes on.

        ``source``, as for the gRPC client: a path (``os.PathLike``, or a
        ``str`` with no line break that does not start with ``[``), read
        as it is ruled; PGN text (a ``str`` with a line break, or starting
        with ``[``); the file's bytes (PGN or zstd-compressed PGN); or a
        binary file object (read whole). Nothing runs before the first
        ``next()``; the run stops when the iterator is closed (``close()``,
        a ``with`` block, or dropping it) or exhausted.
        """
        kind, value, name = _inputs.game_source(source)  # a bad type fails now
        return VerdictStream(self, kind, value, name)


class _Run:
    """A verify run's state, shared by the stream and the worker thread.

    The worker holds this, never the stream, so that a stream dropped
    unfinished is collected, and its __del__ stops the run.
    """

    def __init__(self) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=_QUEUE_RECORDS)
        self.stop = threading.Event()
        self.status = _library.OK
        self.error = _library.ErrorStruct()
        self.summary = _library.Summary()
        self.failure: Optional[BaseException] = None

    def deliver(self, _user_data: Optional[int], data: Optional[int], length: int) -> int:
        # The library's callback, on the worker thread: it must not raise
        # (ctypes would print the exception and go on).
        try:
            if self.stop.is_set():
                return 1
            self.queue.put(ctypes.string_at(data, length) if data else b"")
            return 0
        except BaseException as e:  # noqa: B902 - stop the run, report it at the end
            self.failure = e
            return 1

    def work(self, engine: Engine, handle: int, kind: str, value: Any) -> None:
        lib = engine._lib
        callback = _library.VERDICT_CALLBACK(self.deliver)
        try:
            if kind == "path":
                path = os.fsencode(value)
                if b"\0" in path:
                    raise InvalidArgumentError("invalid_argument", "the path holds a NUL character")
                self.status = lib.arbiter_verify_file(
                    handle, path, callback, None, byref(self.summary), byref(self.error)
                )
            else:
                self.status = lib.arbiter_verify_pgn(
                    handle, value, len(value), callback, None, byref(self.summary),
                    byref(self.error),
                )
        except BaseException as e:  # noqa: B902 - raised by the consumer
            self.failure = e
        finally:
            engine._release()
            # The consumer takes this, or, when it has stopped, drains the
            # queue until this thread has ended.
            self.queue.put(_END)


class VerdictStream(Iterator[dict[str, Any]]):
    """The records of ``Engine.verify``, in input order.

    The library rules the games on a worker thread (with the engine's
    ``threads``) and hands each verdict to a bounded queue that this
    iterator reads, so a consumer that is slower than the run holds it up
    rather than letting verdicts pile up, and one that stops (``close()``,
    leaving a ``with`` block, dropping the iterator) stops the run: the
    callback then returns non-zero and the library returns. ``summary``:
    the run's counts once it has ended (None before); ``cancelled``: True
    when it was stopped before the end. Iterate from one thread at a time.
    """

    def __init__(self, engine: Engine, kind: str, value: Any, name: str) -> None:
        self.name = name  #: what is being ruled: a file's name, "<text>", "<bytes>"
        self.summary: Optional[VerifySummary] = None
        self.cancelled = False
        self._engine: Optional[Engine] = engine
        self._lib = engine._lib
        self._kind = kind
        self._value = value
        self._run: Optional[_Run] = None
        self._thread: Optional[threading.Thread] = None
        self._done = False

    def __iter__(self) -> "VerdictStream":
        return self

    def __next__(self) -> dict[str, Any]:
        if self._done:
            raise StopIteration
        if self._run is None:
            self._start()
        assert self._run is not None
        item = self._run.queue.get()
        if item is _END:
            self._finish()
            raise StopIteration
        record: dict[str, Any] = json.loads(item)
        return record

    def _start(self) -> None:
        engine = self._engine
        assert engine is not None
        if self._kind == "stream":
            self._kind, self._value = "data", self._value.read()
        handle = engine._acquire()  # released by the worker when the run ends
        run = self._run = _Run()
        # A daemon: a stream left unread at exit must not keep the process.
        self._thread = threading.Thread(
            target=run.work, args=(engine, handle, self._kind, self._value),
            name=f"arbiter-verify {self.name}", daemon=True,
        )
        try:
            self._thread.start()
        except BaseException:
            engine._release()
            self._done = True
            raise

    def _finish(self) -> None:
        """After _END: the run's outcome (an exception for an error)."""
        run, thread = self._run, self._thread
        assert run is not None and thread is not None
        thread.join()
        self._done = True
        self._engine = None
        self._value = None
        s = run.summary
        self.summary = {"games": s.games, "errors": s.errors, "disagreements": s.disagreements}
        if run.failure is not None:
            raise run.failure
        if run.status == _library.CANCELLED and run.stop.is_set():
            self.cancelled = True
        elif run.status != _library.OK:
            raise _error(self._lib, run.error)

    def close(self) -> None:
        """Stops the run (if it runs) and waits until the library has returned."""
        if self._done:
            return
        run, thread = self._run, self._thread
        if run is None or thread is None:  # never started
            self._done = True
            self._engine = None
            return
        run.stop.set()
        # Unblocks a worker waiting for room in the queue; its next verdict
        # finds `stop` set and ends the run.
        while thread.is_alive():
            with contextlib.suppress(queue.Empty):
                while True:
                    run.queue.get_nowait()
            thread.join(0.05)
        self._done = True
        self._engine = None
        s = run.summary
        self.summary = {"games": s.games, "errors": s.errors, "disagreements": s.disagreements}
        self.cancelled = run.status == _library.CANCELLED

    def __enter__(self) -> "VerdictStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
