"""Stand-ins for a python-chess Board: what both modules read of one
(fen(), root() and move_stack with each move's uci()), so that the tests run
without python-chess, which Debian 12 does not package."""

from __future__ import annotations


class Fen:
    """An object with only a .fen() method."""

    def __init__(self, fen: str) -> None:
        self._fen = fen

    def fen(self) -> str:
        return self._fen


class Move:
    def __init__(self, uci: str) -> None:
        self._uci = uci

    def uci(self) -> str:
        return self._uci


class Board:
    """What the module reads of a python-chess Board: fen(), root() and
    move_stack (python-chess need not be installed)."""

    chess960 = False

    def __init__(self, root: str, moves: list[str], now: str) -> None:
        self._root, self._now = root, now
        self.move_stack = [Move(m) for m in moves]

    def root(self) -> "Fen":
        return Fen(self._root)

    def fen(self) -> str:
        return self._now
