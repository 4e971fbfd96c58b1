"""How both clients read their arguments: positions, sides and game sources.

Shared by the in-process Engine and the gRPC client (arbiter_client), so
that one call spelled the same way means the same on either.
"""

from __future__ import annotations

import io
import os
from typing import Any, BinaryIO, Iterable, Optional, Union

__all__ = ["GameSource", "fen", "position", "side", "moves", "game_source", "open_source"]

#: What ``verify`` reads: a path (``os.PathLike``, or a ``str`` with no line
#: break that does not start with ``[``), PGN text (a ``str`` with a line
#: break or starting with ``[``), the file's bytes (PGN or zstd-compressed
#: PGN), or a binary file object.
GameSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]


def _is_board(p: Any) -> bool:
    """A python-chess Board (duck-typed: python-chess need not be installed)."""
    return hasattr(p, "move_stack") and callable(getattr(p, "root", None))


def _fen_of(board: Any) -> str:
    # A Chess960 board's castling rights are only unambiguous as Shredder-FEN
    # letters, which turn Chess960 on in the library by themselves.
    if getattr(board, "chess960", False):
        try:
            return str(board.fen(shredder=True))
        except TypeError:  # a .fen() without python-chess's keyword
            pass
    return str(board.fen())


def fen(p: Any) -> str:
    """The FEN of a FEN, or of an object with ``.fen()`` (a python-chess
    ``Board``: its current position)."""
    if isinstance(p, str):
        return p
    if callable(getattr(p, "fen", None)):
        return _fen_of(p)
    raise TypeError(f"a position is a FEN or has a .fen() method, not {type(p).__name__}")


def position(p: Any) -> tuple[str, list[str], bool]:
    """(FEN, moves played from it, Chess960?) of a FEN, an object with
    ``.fen()``, or a python-chess ``Board``, whose starting position and
    move stack are taken so that the history for repetitions goes along."""
    if isinstance(p, str):
        return p, [], False
    if _is_board(p):
        history = [m.uci() for m in p.move_stack]
        return _fen_of(p.root()), history, bool(getattr(p, "chess960", False))
    if callable(getattr(p, "fen", None)):
        return _fen_of(p), [], bool(getattr(p, "chess960", False))
    raise TypeError(f"a position is a FEN or has a .fen() method, not {type(p).__name__}")


def side(color: Any) -> str:
    """"white" or "black" for python-chess's colours (``chess.WHITE`` is
    True, ``chess.BLACK`` False) or a word ("white", "Black", a ``Side``)."""
    if isinstance(color, bool):
        return "white" if color else "black"
    if isinstance(color, str) and color.lower() in ("white", "black"):
        return color.lower()
    if isinstance(color, int):
        # 0 is ARBITER_WHITE in C but chess.BLACK (False) in python-chess:
        # a bare number is too easily the wrong side.
        raise TypeError("a colour is True/False (python-chess) or 'white'/'black', not a number")
    raise ValueError(f"a colour is True/False (python-chess) or 'white'/'black', not {color!r}")


def moves(ms: Optional[Iterable[str]]) -> list[str]:
    """UCI moves as a list, each one word."""
    if ms is None:
        return []
    if isinstance(ms, str):
        raise TypeError("moves is a sequence of UCI strings, not one string")
    out = [str(m) for m in ms]
    for m in out:
        if not m or m.split() != [m]:
            raise ValueError(f"a move is one UCI word, not {m!r}")
    return out


def game_source(source: GameSource) -> tuple[str, Union[str, bytes, BinaryIO], str]:
    """How to read a GameSource: ("path", path, name), ("data", bytes, name)
    or ("stream", binary file, name); the name is what to show for it."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "data", bytes(source), "<bytes>"
    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith("[")):
        return "data", source.encode("utf-8"), "<text>"
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not isinstance(path, str):
            path = os.fsdecode(path)
        return "path", path, os.path.basename(path) or path
    if hasattr(source, "read"):
        name = getattr(source, "name", None)
        return "stream", source, os.path.basename(name) if isinstance(name, str) else "<stream>"
    raise TypeError(f"cannot read games from {type(source).__name__}")


def open_source(source: GameSource) -> tuple[str, BinaryIO, bool]:
    """(name, binary stream, whether to close it) for a GameSource."""
    kind, value, name = game_source(source)
    if kind == "data":
        assert isinstance(value, bytes)
        return name, io.BytesIO(value), True
    if kind == "path":
        assert isinstance(value, str)
        return name, open(value, "rb"), True
    return name, value, False  # type: ignore[return-value]
