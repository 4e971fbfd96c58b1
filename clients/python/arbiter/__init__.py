"""Arbiter, the chess arbiter, in this process.

    import arbiter

    engine = arbiter.Engine()
    engine.can_mate("8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1", "white")
    # {'can_mate': 'yes', 'proof': None, 'line': ['e3f5', ...], 'line_san': ['Nf5', ...]}
    engine.assess(fen)                      # the record of `arbiter analyze --json`
    for record in engine.verify("games.pgn"):   # the lines of `arbiter verify --format jsonl`
        print(record["game"], record["ruling"])

The library is libarbiter.so.1 (the C API, include/arbiter/arbiter.h),
loaded on the first Engine: $ARBITER_LIBRARY, else the one ``cmake
--install`` installed with this package, else the dynamic loader's.

For a cluster, the gRPC client ``arbiter_client`` (installed with this
package) answers in the same dictionaries; ``arbiter.v1`` holds its
generated messages and stubs. clients/python/README.md.
"""

from __future__ import annotations

from . import _library
from ._inputs import GameSource
from .engine import Engine, VerdictStream
from .errors import Error, InvalidArgumentError, LibraryNotFoundError
from .records import Answer, MateRecord, VerifySummary

__all__ = [
    "Answer",
    "Engine",
    "Error",
    "GameSource",
    "InvalidArgumentError",
    "LibraryNotFoundError",
    "MateRecord",
    "VerdictStream",
    "VerifySummary",
    "api_version",
    "library_path",
    "version",
]

# Shown as arbiter.X in reprs and tracebacks.
for _name in ("Engine", "VerdictStream", "Error", "InvalidArgumentError", "LibraryNotFoundError"):
    globals()[_name].__module__ = __name__
del _name


def version() -> str:
    """The library's release and commit, e.g. "0.1.0 (c31a0ab4341d)"."""
    return str(_library.load().arbiter_version().decode())


def api_version() -> int:
    """ARBITER_API_VERSION of the loaded library."""
    return int(_library.load().arbiter_api_version())


def library_path() -> str:
    """The file of the library this process loaded (loading it if need be)."""
    return _library.load().path
