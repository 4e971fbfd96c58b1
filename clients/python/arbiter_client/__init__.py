"""A Python client for Arbiter, the chess arbiter (arbiter.v1 over gRPC).

    from arbiter_client import Arbiter

    with Arbiter("localhost:50051") as arbiter:
        a = arbiter.analyze("8/8/8/8/8/8/8/K6k w - - 0 1")
        print(a.status, a.white.answer, a.dead)
        for verdict in arbiter.verify("games.pgn"):
            print(verdict.game, verdict.ruling.result if verdict.ruling else verdict.error)

Its results are the dictionaries of the in-process ``arbiter.Engine``
(``can_mate``, ``assess``, and each ``Verdict.record()``), and its errors
``arbiter.Error``s. The generated modules ``arbiter.v1.*_pb2`` come with
either install (``cmake --install``, ``pip install ./clients/python``) and
with the build tree (build/clients/python): clients/python/README.md.
"""

try:
    import google.protobuf  # noqa: F401
    import grpc  # noqa: F401

    import arbiter.v1.arbiter_pb2_grpc  # noqa: F401
except ImportError as _e:  # say which part is missing, and how to get it
    if (_e.name or "").startswith("arbiter"):
        _how = (
            "the generated arbiter.v1 stubs are missing: build them (cmake --build build, "
            "then PYTHONPATH=build/clients/python), or install the package where protoc and "
            "grpc_python_plugin are found (Debian: protobuf-compiler protobuf-compiler-grpc)"
        )
    else:
        _what = "protobuf" if (_e.name or "").startswith("google") else "grpcio"
        _how = (
            f"{_what} is missing: Debian's python3-grpcio and python3-protobuf (in a venv, "
            "--system-site-packages), or pip install './clients/python[grpc]'"
        )
    raise ImportError(f"arbiter_client cannot be imported: {_how}", name=_e.name) from _e

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
