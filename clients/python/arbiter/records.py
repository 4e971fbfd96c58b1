"""The one JSON vocabulary as Python dictionaries.

Every surface of Arbiter writes the same records (docs/schema/): ``arbiter
analyze --json``, ``arbiter verify --format jsonl``, the HTTP API, and both
Python clients, which return them as the dicts ``json.loads`` makes of
them, keys in the same order. The in-process Engine has the library render
whole records; what a client builds itself is built here, for both.
"""

from __future__ import annotations

from typing import Literal, Optional, Sequence, TypedDict

__all__ = ["Answer", "MateRecord", "VerifySummary", "mate_record"]

#: Can a side still checkmate? "unknown" when the search budget ran out.
Answer = Literal["yes", "no", "unknown"]


class MateRecord(TypedDict):
    """One side's answer: the "white" and "black" objects of ``arbiter
    analyze --json`` (core/render/report.cc, MateAbilityJson)."""

    can_mate: Answer
    #: For "no": how it was proven ("material", "fortress", "retrograde",
    #: "seventy_five_move_rule", ...); else None.
    proof: Optional[str]
    #: For "yes": the moves from the position to the checkmate, both
    #: sides', in UCI ([] when the side has already mated); else None.
    line: Optional[list[str]]
    #: The same line in SAN; else None.
    line_san: Optional[list[str]]


class VerifySummary(TypedDict):
    """A verify run's counts (``arbiter_verify_summary``)."""

    games: int
    errors: int  #: records that could not be ruled
    disagreements: int  #: declared results the ruling contradicts


def mate_record(
    answer: Answer, proof: Optional[str], line: Sequence[str], line_san: Sequence[str]
) -> MateRecord:
    """A MateRecord; ``line`` and ``line_san`` count only for "yes"."""
    yes = answer == "yes"
    return {
        "can_mate": answer,
        "proof": proof or None,
        "line": list(line) if yes else None,
        "line_san": list(line_san) if yes else None,
    }
