"""A Python client for Arbiter, the chess arbiter (arbiter.v1 over gRPC).

    from arbiter_client import Arbiter

    with Arbiter("localhost:50051") as arbiter:
        a = arbiter.analyze("8/8/8/8/8/8/8/K6k w - - 0 1")
        print(a.status, a.white.answer, a.dead)
        for verdict in arbiter.verify("games.pgn"):
            print(verdict.game, verdict.ruling.result if verdict.ruling else verdict.error)

The generated modules ``arbiter.v1.*_pb2`` (built by CMake into
build/clients/python) must be importable: clients/python/README.md.
"""

from .client import Arbiter, ArbiterError, GameSource, Jobs, VerdictStream
from .results import (
    Assessment,
    CanMate,
    DeclaredEnding,
    DrawClaims,
    GameStatus,
    Job,
    JobState,
    MateAbility,
    Ruling,
    Rules,
    Side,
    TablebaseCategory,
    TablebaseJudgement,
    TablebaseMove,
    TablebaseProbe,
    TablebaseRoot,
    Verdict,
)

# Shown as arbiter_client.X in reprs and tracebacks.
for _name in ("Arbiter", "ArbiterError", "Jobs", "VerdictStream"):
    globals()[_name].__module__ = __name__
del _name

__all__ = [
    "Arbiter",
    "ArbiterError",
    "Assessment",
    "CanMate",
    "DeclaredEnding",
    "DrawClaims",
    "GameSource",
    "GameStatus",
    "Job",
    "JobState",
    "Jobs",
    "MateAbility",
    "Ruling",
    "Rules",
    "Side",
    "TablebaseCategory",
    "TablebaseJudgement",
    "TablebaseMove",
    "TablebaseProbe",
    "TablebaseRoot",
    "Verdict",
    "VerdictStream",
]
