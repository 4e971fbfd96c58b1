"""Typed results of the Arbiter API, built from the arbiter.v1 messages.

Each class has a ``from_proto`` constructor and keeps the message it was made
from in ``raw`` (not compared, not shown), so that a field this module does
not type yet is still at hand.  Enum values are the words ``arbiter``'s JSON
output uses ("yes", "checkmate", "white", ...): a proto enum value's name
without its type's prefix, in lower case (``RULE_CLAIM_99_MOVES`` ->
"claim_99_moves"), but for results ("1-0", ...) and a few words noted where
they are used.

``Verdict.record()`` and ``Assessment.record()`` render the message as the
one JSON record every surface writes (``arbiter verify --format jsonl``,
``arbiter analyze --json``, the HTTP API, the in-process ``arbiter.Engine``):
core/render/game_verdict_json.cc, report.cc, claim_text.cc,
tablebase_json.cc and chess99_report.cc; a side's mate ability is
``arbiter.records.mate_record``, shared with the Engine.
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass, field
from typing import Any, Optional

from arbiter.records import MateRecord, mate_record
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


def _name(proto_enum: Any, value: int) -> Optional[str]:
    """A value's name without its type's prefix (RULE_CLAIM_99_MOVES: "CLAIM_99_MOVES";
    every value 0 is PREFIX_UNSPECIFIED); None for 0 and values the module does not know."""
    prefix = proto_enum.Name(0)[: -len("UNSPECIFIED")]
    try:
        return proto_enum.Name(value)[len(prefix) :] if value else None
    except ValueError:
        return None


def _word(proto_enum: Any, value: int) -> Optional[str]:
    """A value's text form ("claim_99_moves"); None for UNSPECIFIED."""
    name = _name(proto_enum, value)
    return name.lower() if name else None


def _no_none(word: Optional[str]) -> Optional[str]:
    """None for "none" (the typed fields' absent value)."""
    return None if word == "none" else word


class _Word(str, enum.Enum):
    """An enum mirroring a proto enum member for member: the same names
    (GameStatus.DEAD_POSITION is an alias), the JSON words as values."""

    @classmethod
    def _from_proto(cls, value: int) -> Any:
        return cls.__members__.get(_name(_PROTO[cls], value) or "")

    def _to_proto(self) -> Any:
        values = _PROTO[type(self)].values()[1:]  # not UNSPECIFIED
        return next(v for v in values if self._from_proto(v) is self)


class Side(_Word):
    """A side of the board."""

    WHITE = "white"
    BLACK = "black"


class CanMate(_Word):
    """Can a side still checkmate by some series of legal moves (FIDE 5.2.2, 6.9)?"""

    YES = "yes"  #: the ability's ``line`` mates
    NO = "no"  #: the ability's ``proof`` names how it was proven
    UNKNOWN = "unknown"  #: the search budget ran out; no guess is made


class GameStatus(_Word):
    """How a position stands under the Laws."""

    ONGOING = "ongoing"
    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    DEAD = "dead"  #: a dead position (5.2.2): neither side can mate
    DEAD_POSITION = "dead"  # an alias: GAME_STATUS_DEAD_POSITION
    FIVEFOLD = "fivefold"
    SEVENTY_FIVE_MOVES = "seventy_five_moves"


class Rules(_Word):
    """The rule system games are judged by (docs/rulings.md, "Rule sets");
    a game's own ``[Variant]`` tag decides whether it is Chess 99."""

    CHESS = "chess"  #: the FIDE Laws ("fide" in records)
    USCF = "uscf"  #: the US Chess rules (14E flag falls, 14H claims)
    ICCF = "iccf"  #: ICCF correspondence (tablebase claims)
    CHESS99 = "chess99"  #: Chess 99 (9x9)

    @classmethod
    def _from_proto(cls, value: int) -> Optional["Rules"]:
        return cls.CHESS if value == _pb.RULESET_UNSPECIFIED else super()._from_proto(value)

    @classmethod
    def _missing_(cls, value: object) -> Optional["Rules"]:
        return cls.CHESS if value == "fide" else None  # Rules("fide"), as records spell it


class TablebaseCategory(_Word):
    """Lichess tablebase categories (Syzygy under the fifty-move rule)."""

    LOSS = "loss"
    MAYBE_LOSS = "maybe-loss"
    BLESSED_LOSS = "blessed-loss"
    DRAW = "draw"
    CURSED_WIN = "cursed-win"
    MAYBE_WIN = "maybe-win"
    WIN = "win"


class JobState(_Word):
    """The state of a background job."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def ended(self) -> bool:
        """True once the job no longer runs."""
        return self is not JobState.RUNNING


_PROTO: dict[type, Any] = {
    Side: _pb.Color,
    CanMate: _pb.CanMate,
    GameStatus: _pb.GameStatus,
    Rules: _pb.Ruleset,
    TablebaseCategory: _pb.TablebaseCategory,
    JobState: _api.Job.State,
}

# The words that are not their enum value's name, and the articles of the
# statuses (core/verdict/assessment.cc ArticleOf).
_RESULTS = {
    _pb.GAME_RESULT_UNFINISHED: "*",
    _pb.GAME_RESULT_WHITE_WINS: "1-0",
    _pb.GAME_RESULT_BLACK_WINS: "0-1",
    _pb.GAME_RESULT_DRAW: "1/2-1/2",
    _pb.GAME_RESULT_DOUBLE_FORFEIT: "0-0",
}
_STATUS_ARTICLES = {
    GameStatus.CHECKMATE: "5.1.1",
    GameStatus.STALEMATE: "5.2.1",
    GameStatus.DEAD: "5.2.2",
    GameStatus.FIVEFOLD: "9.6.1",
    GameStatus.SEVENTY_FIVE_MOVES: "9.6.2",
}


def _forfeit_word(value: int) -> Optional[str]:
    # FORFEIT_REASON_OTHER is core's ForfeitReason::kUnspecified.
    word = _word(_pb.ForfeitReason, value)
    return "unspecified" if word == "other" else word


def _encoding(value: int) -> Optional[str]:
    """"windows-1252" for a record converted from it; None for UTF-8 as written."""
    word = _word(_pb.TextEncoding, value)
    return None if word in (None, "utf8") else word.replace("_", "-")


def _rules_word(value: int) -> Optional[str]:
    """Records call the FIDE Laws (RULESET_CHESS, or UNSPECIFIED) "fide"."""
    return "fide" if Rules._from_proto(value) is Rules.CHESS else _word(_pb.Ruleset, value)


def _optional(message: Any, name: str) -> Any:
    """The value of a proto3 ``optional`` field, or None when absent."""
    return getattr(message, name) if message.HasField(name) else None


def _color(value: int) -> Optional[str]:
    return getattr(Side._from_proto(value), "value", None)


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
        return cls(
            answer=CanMate._from_proto(m.answer),
            proof=_no_none(_word(_pb.MateProof, m.proof)),
            line=tuple(m.line),
            line_san=tuple(m.line_san) or None,
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
    #: The rules it was analysed under (Chess 99: see ``raw.chess99``).
    rules: Optional[Rules] = Rules.CHESS
    raw: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_proto(cls, a: _pb.Assessment) -> "Assessment":
        only = Side._from_proto(a.only_side)
        chess = not a.HasField("chess99")  # Chess 99: the chess fields are unset
        return cls(
            fen=a.fen,
            status=GameStatus._from_proto(a.status),
            white=MateAbility.from_proto(a.white) if chess and only in (None, Side.WHITE) else None,
            black=MateAbility.from_proto(a.black) if chess and only in (None, Side.BLACK) else None,
            dead=_optional(a, "dead"),
            claims=DrawClaims.from_proto(a.claims),
            tablebase=TablebaseProbe.from_proto(a.tablebase) if a.HasField("tablebase") else None,
            chess960=a.chess960,
            only_side=only,
            rules=Rules._from_proto(a.rules) if chess else Rules.CHESS99,
            raw=a,
        )

    def side(self, side: Side) -> Optional[MateAbility]:
        """The mate ability of `side` (None when it was not asked about)."""
        return self.white if Side(side) is Side.WHITE else self.black

    def record(self) -> dict[str, Any]:
        """The record ``arbiter analyze --json`` writes for the position
        (``{"type": "assessment", ...}``), as ``json.loads`` reads it."""
        if self.raw is None:
            raise ValueError("record() renders the message in `raw`, and there is none")
        if self.raw.HasField("chess99"):
            return _chess99_record(self.raw)
        return _assessment_record(self.raw)


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
            kind=_no_none(_word(_pb.EndingKind, e.kind)),
            forfeit=_no_none(_forfeit_word(e.forfeit)),
            grounds=_no_none(_word(_pb.EndingGrounds, e.grounds)),
            flag_of=Side._from_proto(e.flag_of),
            loser=Side._from_proto(e.loser),
            source=_no_none(_word(_pb.EndingSource, e.source)),
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
    #: A dead position's proof, named as analyze names it ("material",
    #: "fortress+material"); None for other rulings.
    dead_position_proof: Optional[str] = None

    @classmethod
    def from_proto(cls, r: _pb.Ruling) -> "Ruling":
        winner = Side._from_proto(r.winner_side)
        return cls(
            result=_RESULTS.get(r.ruling, ""),
            rule=_word(_pb.Rule, r.rule) or "",
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
            flag_evidence=_no_none(_word(_pb.FlagEvidence, r.flag_evidence)),
            clock_contradicts_result=_optional(r, "clock_contradicts_result"),
            declared_grounds_hold=_optional(r, "declared_grounds_hold"),
            ended_on_board=r.ended_on_board,
            dead_position_proof=(
                _dead_proof_name(r.dead_position_proof.white, r.dead_position_proof.black)
                if r.HasField("dead_position_proof")
                else None
            ),
        )


@dataclass(frozen=True)
class Verdict:
    """One game's verdict: a line of ``arbiter verify --format jsonl``.

    A record that could not be read or replayed is a verdict too: ``error``
    says why (and ``error_line`` where), and ``ruling`` is None. So is a game
    of a variant Arbiter does not rule: ``skipped_variant`` names it
    ("Atomic"), and ``ruling`` and ``error`` are None.
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
    error_column: Optional[int]
    tablebase: Optional[TablebaseJudgement]  #: set exactly when tables were used
    rules: Optional[Rules]  #: None for rules this client does not know
    detail: Optional[str]  #: Chess 99: why the ruling is what it is
    first_move_after_end: Optional[str]  #: SAN as written
    encoding: Optional[str]  #: "windows-1252" when the record was converted
    #: The winner's mating line in SAN, when the server sends it.
    winner_line_san: Optional[tuple[str, ...]] = None
    #: The [Variant] of a game skipped as another variant; None otherwise.
    skipped_variant: Optional[str] = None
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
            winner_line_san=tuple(v.winner_line_san) or None,
            error=v.error or None,
            error_line=v.error_line if v.error else None,
            error_column=v.error_column if v.error and v.error_line and v.error_column else None,
            tablebase=TablebaseJudgement.from_proto(v.tablebase)
            if v.HasField("tablebase")
            else None,
            rules=Rules._from_proto(v.rules),
            detail=v.detail or None,
            first_move_after_end=v.first_move_after_end or None,
            encoding=_encoding(v.encoding),
            skipped_variant=v.skipped_variant or None,
            raw=v,
        )

    @property
    def ok(self) -> bool:
        """True when the game was ruled on (neither an ``error`` nor a skipped variant)."""
        return self.error is None and self.skipped_variant is None

    def record(self) -> dict[str, Any]:
        """The record ``arbiter verify --format jsonl`` writes for the game
        (``{"type": "verdict", ...}``, or ``"error"``), as ``json.loads``
        reads it."""
        if self.raw is None:
            raise ValueError("record() renders the message in `raw`, and there is none")
        return _verdict_record(self.raw)


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
    paused: Optional[str]  #: why a running job makes no progress now
    owner: Optional[str]  #: who submitted it (the tokens file's NAME); None without one
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
            paused=j.paused or None,
            owner=j.owner or None,
            seconds=j.seconds,
            created=_timestamp(j, "created"),
            finished=_timestamp(j, "finished"),
            uploaded=j.uploaded,
            input_bytes=j.input_bytes,
            raw=j,
        )


# -- records: the messages as the one JSON schema (key order included) ------


def _ability_record(m: _pb.MateAbility) -> MateRecord:  # report.cc MateAbilityJson
    # The in-process Engine's can_mate builds its dictionaries with the same
    # function, from the C API's struct.
    return mate_record(
        (CanMate._from_proto(m.answer) or CanMate.UNKNOWN).value,  # type: ignore[arg-type]
        _no_none(_word(_pb.MateProof, m.proof)),
        m.line,
        m.line_san,
    )


def _category(value: int) -> str:
    # An unknown category reads as a draw, as proto/convert.cc reads it.
    return (TablebaseCategory._from_proto(value) or TablebaseCategory.DRAW).value


def _tablebase_value(r: _pb.TablebaseRoot) -> dict[str, Any]:  # tablebase_json.cc AddValue
    return {
        "category": _category(r.category),
        "dtz": r.dtz,
        "precise_dtz": _optional(r, "precise_dtz"),
        "win_within_50": _optional(r, "win_within_50"),
        "halfmove_clock": r.halfmove_clock,
        "fifty_move_outcome": _word(_pb.TablebaseOutcome, r.fifty_move_outcome),
        "unlimited_outcome": _word(_pb.TablebaseOutcome, r.unlimited_outcome),
        "move_within_50": r.move_within_50 or None,
    }


def _tablebase_record(r: _pb.TablebaseRoot) -> dict[str, Any]:  # TablebaseJson
    out = _tablebase_value(r)
    out.update(checkmate=r.checkmate, stalemate=r.stalemate)
    out["moves"] = [
        {
            "uci": m.uci,
            "san": m.san,
            "category": _category(m.category),
            "dtz": _optional(m, "dtz"),
            "precise_dtz": _optional(m, "precise_dtz"),
            "zeroing": m.zeroing,
            "checkmate": m.checkmate,
            "stalemate": m.stalemate,
        }
        for m in r.moves
    ]
    return out


def _source(p: _pb.TablebaseProbe) -> str:
    return _word(_pb.TablebaseSource, p.source) or "syzygy"  # UNSPECIFIED: Syzygy


def _claim_record(c: _pb.ClaimRuling) -> dict[str, Any]:  # claim_text.cc ClaimRulingJson
    tb = c.tablebase if c.HasField("tablebase") else None
    root = tb.root if tb and tb.HasField("root") else None
    return {
        "kind": _word(_pb.ClaimKind, c.kind),
        "claimant": _color(c.claimant),
        "claimed": "win" if c.claimed == _pb.CLAIMED_OUTCOME_WIN else "draw",
        "rules": _rules_word(c.rules),
        "answer": _word(_pb.ClaimAnswer, c.answer),
        "basis": _word(_pb.ClaimBasis, c.basis),
        "article": c.article,
        "reason": c.reason,
        "result": _RESULTS.get(c.result),
        "ply": _optional(c, "ply"),
        "fen": c.fen,
        "opponent_can_mate": _ability_record(c.opponent_can_mate)
        if c.HasField("opponent_can_mate")
        else None,
        "tablebase": _tablebase_record(root) if root else None,
        "tablebase_source": _source(tb) if tb else None,
        "tablebase_not_covered": (tb.not_covered or None) if tb else None,
    }


_RULING_KEYS = ("ruling", "agrees", "certain", "rule", "article", "ended_at_ply",
                "moves_after_end", "first_move_after_end")  # fmt: skip
_ENDING_KEYS = ("winner", "dead_position_proof", "claim_grounds", "termination_read_as",
                "termination_source", "forfeit_reason", "declared_grounds", "declared_grounds_hold",
                "flag_fallen_by", "flag_evidence", "clock_contradicts_result",
                "claims")  # fmt: skip


def _winner_record(v: _pb.GameVerdict) -> Optional[dict[str, Any]]:
    r = v.ruling
    if not r.winner_side:
        return None
    # The line is the verdict's: the ruling's winner_can_mate carries none.
    out = {"side": _color(r.winner_side)}
    out.update(_ability_record(r.winner_can_mate))
    if r.winner_can_mate.answer == _pb.CAN_MATE_YES:
        out.update(line=list(v.winner_line), line_san=list(v.winner_line_san))
    return out


def _dead_proof_name(white: int, black: int) -> Optional[str]:
    """assessment.cc ProofName: both sides' proofs, joined by "+" when they differ."""
    proofs = [_no_none(_word(_pb.MateProof, p)) or "" for p in (white, black)]
    return "+".join(dict.fromkeys(proofs)) or None


def _verdict_record(v: _pb.GameVerdict) -> dict[str, Any]:  # game_verdict_json.cc
    r = v.ruling if v.HasField("ruling") else None
    out: dict[str, Any] = {
        "type": "verdict" if r else "skipped" if v.skipped_variant else "error",
        "game": v.game,
        "site": v.site or None,
        "declared": v.declared or None,
        "termination": v.termination or None,
        "encoding": _encoding(v.encoding),
        "rules": _rules_word(v.rules),
    }
    if r:
        out.update(
            ruling=_RESULTS.get(r.ruling),
            agrees=r.agrees,
            certain=r.certain,
            rule=_word(_pb.Rule, r.rule),
            article=r.article or None,
            ended_at_ply=_optional(r, "ended_at_ply"),
            moves_after_end=r.moves_after_end,
            first_move_after_end=v.first_move_after_end or None,
        )
    else:
        out.update(dict.fromkeys(_RULING_KEYS))
    out.update(plies=v.plies, end_fen=v.end_fen or None)
    if r:
        e = r.declared_ending
        flag = r.flag_fallen_by != _pb.COLOR_UNSPECIFIED
        out.update(
            winner=_winner_record(v),
            dead_position_proof=(
                _dead_proof_name(r.dead_position_proof.white, r.dead_position_proof.black)
                if r.HasField("dead_position_proof")
                else None
            ),
            claim_grounds=list(r.claim_grounds),
            termination_read_as=_word(_pb.EndingKind, e.kind) or "none",
            termination_source=_no_none(_word(_pb.EndingSource, e.source)),
            forfeit_reason=_forfeit_word(e.forfeit) if e.kind == _pb.ENDING_KIND_FORFEIT else None,
            declared_grounds=_no_none(_word(_pb.EndingGrounds, e.grounds)),
            declared_grounds_hold=_optional(r, "declared_grounds_hold"),
            flag_fallen_by=_color(r.flag_fallen_by) if flag else None,
            flag_evidence=_word(_pb.FlagEvidence, r.flag_evidence) if flag else None,
            clock_contradicts_result=_optional(r, "clock_contradicts_result"),
            claims=[_claim_record(c) for c in r.claims],
        )
    else:
        out.update(dict.fromkeys(_ENDING_KEYS))
    out["detail"] = v.detail or None
    t = v.tablebase if v.HasField("tablebase") else None
    position = None  # tablebase_json.cc TablebasePositionJson: the value, without moves
    if t and t.probe.HasField("root"):
        position = _tablebase_value(t.probe.root)
        position.update(side_to_move=_color(t.probe.side_to_move), source=_source(t.probe))
    out.update(
        tablebase=position,
        tablebase_contradiction=_optional(t, "contradiction") if t else None,
        tablebase_note=(t.note or None) if t else None,
    )
    out["skipped_variant"] = v.skipped_variant or None
    out["error"] = (
        None if r or v.skipped_variant else {
            "message": v.error,
            "game": v.game,
            "line": v.error_line or None,
            "column": v.error_column if v.error_line and v.error_column else None,
        }
    )
    return out


def _assessment_record(a: _pb.Assessment) -> dict[str, Any]:  # report.cc AssessmentJson
    status = GameStatus._from_proto(a.status) or GameStatus.ONGOING
    only = a.only_side  # a side not asked about is null
    white = _ability_record(a.white) if only != _pb.COLOR_BLACK else None
    black = _ability_record(a.black) if only != _pb.COLOR_WHITE else None
    proof = _dead_proof_name(a.white.proof, a.black.proof) if _optional(a, "dead") else None
    tb = a.tablebase if a.HasField("tablebase") else None
    return {
        "type": "assessment",
        "rules": _rules_word(a.rules),
        "fen": a.fen,
        "chess960": a.chess960,
        "status": status.value,
        "article": _STATUS_ARTICLES.get(status),
        "white_can_mate": white and white["can_mate"],
        "black_can_mate": black and black["can_mate"],
        "dead": _optional(a, "dead"),
        "proof": proof,
        "white": white,
        "black": black,
        "claims": {
            "threefold": {
                "article": "9.2",
                "available": a.claims.threefold_now,
                "by_move": list(a.claims.threefold_moves),
            },
            "fifty": {
                "article": "9.3",
                "available": a.claims.fifty_now,
                "by_move": list(a.claims.fifty_moves),
            },
        },
        "tablebase": _tablebase_record(tb.root) if tb and tb.HasField("root") else None,
        "tablebase_source": _source(tb) if tb else None,
        "tablebase_not_covered": (tb.not_covered or None) if tb else None,
        "claim": _claim_record(a.claim) if a.HasField("claim") else None,
    }


def _chess99_side(s: _pb.Chess99Side) -> dict[str, Any]:  # chess99_report.cc SideJson
    out: dict[str, Any] = {"can_win": (CanMate._from_proto(s.can_win) or CanMate.UNKNOWN).value}
    proof = _no_none(_word(_pb.MateProof, s.proof))
    out.update({"proof": proof, "section": s.section} if proof else {"proof": None, "section": None})
    out["line"] = list(s.line) if s.can_win == _pb.CAN_MATE_YES else None
    return out


def _chess99_record(a: _pb.Assessment) -> dict[str, Any]:  # chess99_report.cc
    c = a.chess99
    return {
        "type": "assessment",
        "rules": "chess99",
        "fen": a.fen,
        "status": _word(_pb.Chess99Status, c.status),
        "section": c.section or None,
        "white": _chess99_side(c.white),
        "black": _chess99_side(c.black),
        "king_captures": [
            {
                "move": k.move,
                "site": k.site,
                "wins": k.wins,
                "rule": _word(_pb.Rule, k.rule),
                "section": k.section,
            }
            for k in c.king_captures
        ],
        "claims": {
            "king_capture_available": c.king_capture_claim,
            "opponent_moves_completed": c.opponent_moves_completed,
            "ninety_nine_window_open": c.ninety_nine_window_open,
            "ninety_nine_available": c.ninety_nine_claim,
            "ninety_nine_moves": list(c.ninety_nine_moves),
        },
    }
