"""Typed results of the Arbiter API, built from the arbiter.v1 messages.

Each class has a ``from_proto`` constructor and keeps the message it was made
from in ``raw`` (not compared, not shown), so that a field this module does
not type yet is still at hand.  Enum values are the words ``arbiter``'s JSON
output uses ("yes", "checkmate", "white", ...).
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass, field
from typing import Any, Optional

from arbiter.v1 import arbiter_pb2 as _api
from arbiter.v1 import verdict_pb2 as _pb

__all__ = [
    "Side",
    "CanMate",
    "GameStatus",
    "Rules",
    "TablebaseCategory",
    "JobState",
    "MateAbility",
    "DrawClaims",
    "TablebaseMove",
    "TablebaseRoot",
    "TablebaseProbe",
    "TablebaseJudgement",
    "Assessment",
    "DeclaredEnding",
    "Ruling",
    "Verdict",
    "Job",
]


class Side(str, enum.Enum):
    """A side of the board."""

    WHITE = "white"
    BLACK = "black"

    @classmethod
    def _from_proto(cls, value: int) -> Optional["Side"]:
        mapping: dict[int, "Side"] = {_pb.COLOR_WHITE: cls.WHITE, _pb.COLOR_BLACK: cls.BLACK}
        return mapping.get(value)

    def _to_proto(self) -> Any:  # arbiter.v1.Color
        return _pb.COLOR_WHITE if self is Side.WHITE else _pb.COLOR_BLACK


class CanMate(str, enum.Enum):
    """Can a side still checkmate by some series of legal moves (FIDE 5.2.2, 6.9)?"""

    YES = "yes"  #: the ability's ``line`` mates
    NO = "no"  #: the ability's ``proof`` names how it was proven
    UNKNOWN = "unknown"  #: the search budget ran out; no guess is made

    @classmethod
    def _from_proto(cls, value: int) -> Optional["CanMate"]:
        mapping: dict[int, "CanMate"] = {
            _pb.CAN_MATE_YES: cls.YES,
            _pb.CAN_MATE_NO: cls.NO,
            _pb.CAN_MATE_UNKNOWN: cls.UNKNOWN,
        }
        return mapping.get(value)


class GameStatus(str, enum.Enum):
    """How a position stands under the Laws."""

    ONGOING = "ongoing"
    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    DEAD = "dead"  #: a dead position (5.2.2): neither side can mate
    FIVEFOLD = "fivefold"
    SEVENTY_FIVE_MOVES = "seventy_five_moves"

    @classmethod
    def _from_proto(cls, value: int) -> Optional["GameStatus"]:
        mapping: dict[int, "GameStatus"] = {
            _pb.GAME_STATUS_ONGOING: cls.ONGOING,
            _pb.GAME_STATUS_CHECKMATE: cls.CHECKMATE,
            _pb.GAME_STATUS_STALEMATE: cls.STALEMATE,
            _pb.GAME_STATUS_DEAD_POSITION: cls.DEAD,
            _pb.GAME_STATUS_FIVEFOLD: cls.FIVEFOLD,
            _pb.GAME_STATUS_SEVENTY_FIVE_MOVES: cls.SEVENTY_FIVE_MOVES,
        }
        return mapping.get(value)


class Rules(str, enum.Enum):
    """The rule system games are judged by (docs/rulings.md, "Rule sets");
    a game's own ``[Variant]`` tag decides whether it is Chess 99."""

    CHESS = "chess"  #: the FIDE Laws
    USCF = "uscf"  #: the US Chess rules (14E flag falls, 14H claims)
    ICCF = "iccf"  #: ICCF correspondence (tablebase claims)
    CHESS99 = "chess99"  #: Chess 99 (9x9)

    def _to_proto(self) -> Any:  # arbiter.v1.Ruleset
        return {
            Rules.CHESS: _pb.RULESET_CHESS,
            Rules.USCF: _pb.RULESET_USCF,
            Rules.ICCF: _pb.RULESET_ICCF,
            Rules.CHESS99: _pb.RULESET_CHESS99,
        }[self]

    @classmethod
    def _from_verdict(cls, text: str) -> "Rules":
        # GameVerdict.rules: "" for the FIDE Laws.
        return cls(text) if text else cls.CHESS


class TablebaseCategory(str, enum.Enum):
    """Lichess tablebase categories (Syzygy under the fifty-move rule)."""

    LOSS = "loss"
    MAYBE_LOSS = "maybe-loss"
    BLESSED_LOSS = "blessed-loss"
    DRAW = "draw"
    CURSED_WIN = "cursed-win"
    MAYBE_WIN = "maybe-win"
    WIN = "win"

    @classmethod
    def _from_proto(cls, value: int) -> Optional["TablebaseCategory"]:
        mapping: dict[int, "TablebaseCategory"] = {
            _pb.TABLEBASE_CATEGORY_LOSS: cls.LOSS,
            _pb.TABLEBASE_CATEGORY_MAYBE_LOSS: cls.MAYBE_LOSS,
            _pb.TABLEBASE_CATEGORY_BLESSED_LOSS: cls.BLESSED_LOSS,
            _pb.TABLEBASE_CATEGORY_DRAW: cls.DRAW,
            _pb.TABLEBASE_CATEGORY_CURSED_WIN: cls.CURSED_WIN,
            _pb.TABLEBASE_CATEGORY_MAYBE_WIN: cls.MAYBE_WIN,
            _pb.TABLEBASE_CATEGORY_WIN: cls.WIN,
        }
        return mapping.get(value)


class JobState(str, enum.Enum):
    """The state of a background job."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @classmethod
    def _from_proto(cls, value: int) -> Optional["JobState"]:
        mapping: dict[int, "JobState"] = {
            _api.Job.STATE_RUNNING: cls.RUNNING,
            _api.Job.STATE_DONE: cls.DONE,
            _api.Job.STATE_FAILED: cls.FAILED,
            _api.Job.STATE_CANCELLED: cls.CANCELLED,
        }
        return mapping.get(value)

    @property
    def ended(self) -> bool:
        """True once the job no longer runs."""
        return self is not JobState.RUNNING


def _optional(message: Any, name: str) -> Any:
    """The value of a proto3 ``optional`` field, or None when absent."""
    return getattr(message, name) if message.HasField(name) else None


def _has(message: Any, name: str) -> bool:
    """Whether `message` has the field `name` and, for a message field, it is set.

    Safe for fields a generated module may not know yet (an older proto).
    """
    if name not in message.DESCRIPTOR.fields_by_name:
        return False
    fd = message.DESCRIPTOR.fields_by_name[name]
    if fd.label == fd.LABEL_REPEATED:
        return len(getattr(message, name)) > 0
    if fd.message_type is not None or fd.has_presence:
        return message.HasField(name)
    return True


def _enum_word(enum_type: Any, value: int, prefix: str) -> Optional[str]:
    """An enum value as a lower-case word ("ENDING_KIND_FLAG_FALL" -> "flag_fall").

    None for the UNSPECIFIED and NONE values.
    """
    try:
        name = enum_type.Name(value)
    except ValueError:
        return None
    word = name[len(prefix):].lower() if name.startswith(prefix) else name.lower()
    return None if word in ("unspecified", "none") else word


@dataclass(frozen=True)
class MateAbility:
    """One side's answer to "can it still checkmate?"."""

    answer: Optional[CanMate]
    #: For NO: how it was proven ("material", "fortress", "retrograde", ...).
    proof: Optional[str] = None
    #: For YES: a mating line from the position, in UCI.
    line: tuple[str, ...] = ()
    #: The same line in SAN, when the server sends it (field ``line_san``).
    line_san: Optional[tuple[str, ...]] = None
    raw: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_proto(cls, m: _pb.MateAbility) -> "MateAbility":
        san = None
        if _has(m, "line_san"):
            san = tuple(getattr(m, "line_san"))
        return cls(
            answer=CanMate._from_proto(m.answer),
            proof=m.proof or None,
            line=tuple(m.line),
            line_san=san,
            raw=m,
        )


@dataclass(frozen=True)
class DrawClaims:
    """Draw claims open to the side to move (FIDE 9.2, 9.3)."""

    threefold_now: bool  #: 9.2.2: the position has appeared a third time
    threefold_moves: tuple[str, ...]  #: 9.2.1: moves (UCI) that would make it so
    fifty_now: bool  #: 9.3.2: fifty moves by each side already
    fifty_moves: tuple[str, ...]  #: 9.3.1: moves (UCI) that would complete them

    @classmethod
    def from_proto(cls, c: _pb.DrawClaims) -> "DrawClaims":
        return cls(
            threefold_now=c.threefold_now,
            threefold_moves=tuple(c.threefold_moves),
            fifty_now=c.fifty_now,
            fifty_moves=tuple(c.fifty_moves),
        )


@dataclass(frozen=True)
class TablebaseMove:
    """A legal move and its value in the Syzygy tables."""

    uci: str
    san: str
    category: Optional[TablebaseCategory]  #: for the side to move after the move
    dtz: Optional[int]  #: maybe rounded; None without a DTZ table
    precise_dtz: Optional[int]  #: when known to be exact
    zeroing: bool
    checkmate: bool
    stalemate: bool

    @classmethod
    def from_proto(cls, m: _pb.TablebaseMove) -> "TablebaseMove":
        return cls(
            uci=m.uci,
            san=m.san,
            category=TablebaseCategory._from_proto(m.category),
            dtz=_optional(m, "dtz"),
            precise_dtz=_optional(m, "precise_dtz"),
            zeroing=m.zeroing,
            checkmate=m.checkmate,
            stalemate=m.stalemate,
        )


@dataclass(frozen=True)
class TablebaseRoot:
    """A position's value in the Syzygy tables, for the side to move."""

    category: Optional[TablebaseCategory]
    dtz: int
    precise_dtz: Optional[int]
    #: Can the side to move win before a fifty-move claim? None when open.
    win_within_50: Optional[bool]
    halfmove_clock: int
    checkmate: bool
    stalemate: bool
    moves: tuple[TablebaseMove, ...]  #: every legal move, best first

    @classmethod
    def from_proto(cls, r: _pb.TablebaseRoot) -> "TablebaseRoot":
        return cls(
            category=TablebaseCategory._from_proto(r.category),
            dtz=r.dtz,
            precise_dtz=_optional(r, "precise_dtz"),
            win_within_50=_optional(r, "win_within_50"),
            halfmove_clock=r.halfmove_clock,
            checkmate=r.checkmate,
            stalemate=r.stalemate,
            moves=tuple(TablebaseMove.from_proto(m) for m in r.moves),
        )


@dataclass(frozen=True)
class TablebaseProbe:
    """What the tables say of a position: ``root``, or why they are silent."""

    side_to_move: Optional[Side]
    root: Optional[TablebaseRoot]  #: None when the tables do not cover it
    not_covered: Optional[str]  #: then, why

    @classmethod
    def from_proto(cls, p: _pb.TablebaseProbe) -> "TablebaseProbe":
        return cls(
            side_to_move=Side._from_proto(p.side_to_move),
            root=TablebaseRoot.from_proto(p.root) if p.HasField("root") else None,
            not_covered=p.not_covered or None,
        )


@dataclass(frozen=True)
class TablebaseJudgement:
    """The tables' view of a game's final position and its declared result."""

    probe: TablebaseProbe
    #: Does the declared result contradict best play? None when the tables
    #: do not bear on it.
    contradiction: Optional[bool]
    note: Optional[str]

    @classmethod
    def from_proto(cls, t: _pb.TablebaseJudgement) -> "TablebaseJudgement":
        return cls(
            probe=TablebaseProbe.from_proto(t.probe),
            contradiction=_optional(t, "contradiction"),
            note=t.note or None,
        )


@dataclass(frozen=True)
class Assessment:
    """One position's assessment: what ``arbiter analyze`` prints."""

    fen: str
    status: Optional[GameStatus]
    #: White's mate ability; None when only Black was asked about.
    white: Optional[MateAbility]
    #: Black's mate ability; None when only White was asked about.
    black: Optional[MateAbility]
    #: A dead position (5.2.2)? None when unknown.
    dead: Optional[bool]
    claims: DrawClaims
    #: Present exactly when the tables were asked (``tablebase=True``).
    tablebase: Optional[TablebaseProbe]
    chess960: bool
    #: Set when only this side was asked about (``side=``).
    only_side: Optional[Side]
    raw: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_proto(cls, a: _pb.Assessment) -> "Assessment":
        only = Side._from_proto(a.only_side)
        return cls(
            fen=a.fen,
            status=GameStatus._from_proto(a.status),
            white=MateAbility.from_proto(a.white) if only in (None, Side.WHITE) else None,
            black=MateAbility.from_proto(a.black) if only in (None, Side.BLACK) else None,
            dead=_optional(a, "dead"),
            claims=DrawClaims.from_proto(a.claims),
            tablebase=TablebaseProbe.from_proto(a.tablebase) if a.HasField("tablebase") else None,
            chess960=a.chess960,
            only_side=only,
            raw=a,
        )

    def side(self, side: Side) -> Optional[MateAbility]:
        """The mate ability of `side` (None when it was not asked about)."""
        return self.white if Side(side) is Side.WHITE else self.black


@dataclass(frozen=True)
class DeclaredEnding:
    """How a record says its game ended (its Termination tag or closing comment).

    The words are the ones ``arbiter verify`` prints ("flag_fall",
    "threefold_repetition", "termination_tag", ...); None for "none".
    """

    kind: Optional[str]
    forfeit: Optional[str]
    grounds: Optional[str]
    flag_of: Optional[Side]
    loser: Optional[Side]
    source: Optional[str]
    text: str  #: the words read, as written

    @classmethod
    def from_proto(cls, e: _pb.DeclaredEnding) -> "DeclaredEnding":
        return cls(
            kind=_enum_word(_pb.EndingKind, e.kind, "ENDING_KIND_"),
            forfeit=_enum_word(_pb.ForfeitReason, e.forfeit, "FORFEIT_REASON_"),
            grounds=_enum_word(_pb.EndingGrounds, e.grounds, "ENDING_GROUNDS_"),
            flag_of=Side._from_proto(e.flag_of),
            loser=Side._from_proto(e.loser),
            source=_enum_word(_pb.EndingSource, e.source, "ENDING_SOURCE_"),
            text=e.text,
        )


@dataclass(frozen=True)
class Ruling:
    """The correct result of a game under the Laws, and the evidence."""

    result: str  #: "1-0", "0-1", "1/2-1/2" or "*"
    rule: str  #: "checkmate", "stalemate", "dead_position", "flag_fall", ...
    article: Optional[str]  #: the FIDE Laws article that decided
    ended_at_ply: Optional[int]
    moves_after_end: int
    agrees: bool  #: the declared result is the ruling
    certain: bool  #: False when resting on an unknown mate ability
    winner: Optional[Side]
    #: The winner's mate ability (its line is ``Verdict.winner_line``).
    winner_can_mate: Optional[MateAbility]
    claim_grounds: tuple[str, ...]
    declared_ending: DeclaredEnding
    flag_fallen_by: Optional[Side]
    flag_evidence: Optional[str]  #: "termination", "clock", "result", "side_to_move"
    clock_contradicts_result: Optional[bool]
    declared_grounds_hold: Optional[bool]
    ended_on_board: bool

    @classmethod
    def from_proto(cls, r: _pb.Ruling) -> "Ruling":
        winner = Side._from_proto(r.winner_side)
        return cls(
            result=r.ruling,
            rule=r.rule,
            article=r.article or None,
            ended_at_ply=_optional(r, "ended_at_ply"),
            moves_after_end=r.moves_after_end,
            agrees=r.agrees,
            certain=r.certain,
            winner=winner,
            winner_can_mate=MateAbility.from_proto(r.winner_can_mate) if winner else None,
            claim_grounds=tuple(r.claim_grounds),
            declared_ending=DeclaredEnding.from_proto(r.declared_ending),
            flag_fallen_by=Side._from_proto(r.flag_fallen_by),
            flag_evidence=_enum_word(_pb.FlagEvidence, r.flag_evidence, "FLAG_EVIDENCE_"),
            clock_contradicts_result=_optional(r, "clock_contradicts_result"),
            declared_grounds_hold=_optional(r, "declared_grounds_hold"),
            ended_on_board=r.ended_on_board,
        )


@dataclass(frozen=True)
class Verdict:
    """One game's verdict: a line of ``arbiter verify --format jsonl``.

    A record that could not be read or replayed is a verdict too: ``error``
    says why (and ``error_line`` where), and ``ruling`` is None.
    """

    game: int  #: 1-based index in the input
    site: str
    declared: str  #: the result the record declares
    termination: str
    plies: int
    ruling: Optional[Ruling]
    end_fen: str
    winner_line: tuple[str, ...]  #: the winner's mating line, in UCI from the end
    error: Optional[str]
    error_line: Optional[int]
    tablebase: Optional[TablebaseJudgement]  #: set exactly when tables were used
    rules: Rules
    detail: Optional[str]  #: Chess 99: why the ruling is what it is
    first_move_after_end: Optional[str]  #: SAN as written
    encoding: Optional[str]  #: "windows-1252" when the record was converted
    #: The winner's mating line in SAN, when the server sends it.
    winner_line_san: Optional[tuple[str, ...]] = None
    raw: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_proto(cls, v: _pb.GameVerdict) -> "Verdict":
        return cls(
            game=v.game,
            site=v.site,
            declared=v.declared,
            termination=v.termination,
            plies=v.plies,
            ruling=Ruling.from_proto(v.ruling) if v.HasField("ruling") else None,
            end_fen=v.end_fen,
            winner_line=tuple(v.winner_line),
            winner_line_san=tuple(v.winner_line_san) if _has(v, "winner_line_san") else None,
            error=v.error or None,
            error_line=v.error_line if v.error else None,
            tablebase=TablebaseJudgement.from_proto(v.tablebase)
            if v.HasField("tablebase")
            else None,
            rules=Rules._from_verdict(v.rules),
            detail=v.detail or None,
            first_move_after_end=v.first_move_after_end or None,
            encoding=v.encoding or None,
            raw=v,
        )

    @property
    def ok(self) -> bool:
        """True when the game was ruled on (no ``error``)."""
        return self.error is None


def _timestamp(message: Any, name: str) -> Optional[datetime.datetime]:
    if not message.HasField(name):
        return None
    return getattr(message, name).ToDatetime(tzinfo=datetime.timezone.utc)


@dataclass(frozen=True)
class Job:
    """A background job on the coordinator."""

    id: str
    state: Optional[JobState]
    path: str  #: the uploaded file's name, or the path under --job-input-dir
    games_read: int  #: dispatched so far
    games_done: int  #: verdicts recorded, in order
    errors: int  #: records that could not be read or replayed
    disagreements: int
    error: Optional[str]  #: why the job failed
    seconds: float
    created: Optional[datetime.datetime]
    finished: Optional[datetime.datetime]  #: None while running
    uploaded: bool
    input_bytes: int
    raw: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_proto(cls, j: _api.Job) -> "Job":
        return cls(
            id=j.id,
            state=JobState._from_proto(j.state),
            path=j.path,
            games_read=j.games_read,
            games_done=j.games_done,
            errors=j.errors,
            disagreements=j.disagreements,
            error=j.error or None,
            seconds=j.seconds,
            created=_timestamp(j, "created"),
            finished=_timestamp(j, "finished"),
            uploaded=j.uploaded,
            input_bytes=j.input_bytes,
            raw=j,
        )
