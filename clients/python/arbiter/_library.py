"""libarbiter, the C API (include/arbiter/arbiter.h), through ctypes.

Why ctypes rather than a compiled extension: the package then needs no
compiler, no Python headers and no build step to install (pip copies pure
Python), one wheel serves every Python 3 and the library is the one the
C and C++ programs link, and ctypes.CDLL releases the GIL during every
foreign call, so that a long search or a verify run leaves the other Python
threads running. The cost is that the structs below restate the header's by
hand: they are checked against ``arbiter_api_version()`` at load time, and
ARBITER_API_VERSION changes whenever a struct or a signature does.

Which library: $ARBITER_LIBRARY when set (a path; it must load), else the
path ``cmake --install`` recorded in ``arbiter/_installed.py``, else the
dynamic loader's ``libarbiter.so.1`` (LD_LIBRARY_PATH, ldconfig's cache).
It is loaded on first use, not on import, so that the gRPC client, which
shares this package, works on a machine without the library.
"""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_int,
    c_int64,
    c_size_t,
    c_uint64,
    c_void_p,
)
from typing import Any, Optional

from .errors import LibraryNotFoundError

#: The ARBITER_API_VERSION these declarations are of.
API_VERSION = 1
SONAME = f"libarbiter.so.{API_VERSION}"

# The status, answer and proof numbers of arbiter.h.
OK = 0
INVALID_ARGUMENT = 1
CANCELLED = 5
WHITE, BLACK = 0, 1
RULES = {"fide": 0, "chess": 0, "uscf": 1, "iccf": 2, "chess99": 3}


class Options(Structure):
    _fields_ = [
        ("tables_dir", c_char_p),
        ("syzygy_path", c_char_p),
        ("budget", c_uint64),
        ("table_mb", c_int),
        ("threads", c_int),
        ("rules", c_int),
        ("chess960", c_int),
    ]


class ErrorStruct(Structure):
    _fields_ = [("status", c_int), ("message", c_char * 512)]


# The library's strings are void pointers here, not c_char_p, so that they
# stay the library's to free (*_clear) rather than being copied and lost.
class Mate(Structure):
    _fields_ = [
        ("answer", c_int),
        ("proof", c_int),
        ("line_uci", c_void_p),
        ("line_san", c_void_p),
        ("line_plies", c_int),
    ]


class Tablebase(Structure):
    _fields_ = [
        ("category", c_int),
        ("dtz", c_int),
        ("win_within_50", c_int),
        ("retrograde", c_int),
    ]


class Assessment(Structure):
    _fields_ = [
        ("status", c_int),
        ("dead", c_int),
        ("white", Mate),
        ("black", Mate),
        ("threefold_now", c_int),
        ("threefold_moves", c_void_p),
        ("fifty_now", c_int),
        ("fifty_moves", c_void_p),
        ("tablebase", Tablebase),
        ("json", c_void_p),
    ]


class Summary(Structure):
    _fields_ = [("games", c_int64), ("errors", c_int64), ("disagreements", c_int64)]


#: arbiter_verdict_callback: (user_data, json, length) -> 0 to go on.
VERDICT_CALLBACK = CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t)

_PROTOTYPES: dict[str, tuple[Any, list[Any]]] = {
    "arbiter_api_version": (c_int, []),
    "arbiter_version": (c_char_p, []),
    "arbiter_status_name": (c_char_p, [c_int]),
    "arbiter_proof_name": (c_char_p, [c_int]),
    "arbiter_engine_new": (c_void_p, [POINTER(Options), POINTER(ErrorStruct)]),
    "arbiter_engine_free": (None, [c_void_p]),
    "arbiter_can_mate": (c_int, [c_void_p, c_char_p, c_int, POINTER(Mate), POINTER(ErrorStruct)]),
    "arbiter_mate_clear": (None, [POINTER(Mate)]),
    "arbiter_assess": (
        c_int,
        [c_void_p, c_char_p, c_char_p, POINTER(Assessment), POINTER(ErrorStruct)],
    ),
    "arbiter_assessment_clear": (None, [POINTER(Assessment)]),
    "arbiter_verify_pgn": (
        c_int,
        [c_void_p, c_char_p, c_size_t, VERDICT_CALLBACK, c_void_p, POINTER(Summary),
         POINTER(ErrorStruct)],
    ),
    "arbiter_verify_file": (
        c_int,
        [c_void_p, c_char_p, VERDICT_CALLBACK, c_void_p, POINTER(Summary), POINTER(ErrorStruct)],
    ),
}

_HOW_TO_GET_IT = (
    "Build it (cmake --build build --target arbiter_shared) and set "
    "ARBITER_LIBRARY=$PWD/build/capi/libarbiter.so.1, or install it "
    "(cmake --install build, then ldconfig for a system prefix); "
    "clients/python/README.md"
)


class Library:
    """The loaded library: its functions as attributes, and where it is."""

    def __init__(self, dll: ctypes.CDLL, path: str) -> None:
        self.dll = dll
        self.path = path
        for name, (restype, argtypes) in _PROTOTYPES.items():
            function = getattr(dll, name)
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)
        version = dll.arbiter_api_version()
        if version != API_VERSION:
            raise LibraryNotFoundError(
                f"{path} implements the Arbiter C API version {version}; this package "
                f"needs version {API_VERSION} ({SONAME}). {_HOW_TO_GET_IT}"
            )

    def __getattr__(self, name: str) -> Any:  # the prototypes, set in __init__
        raise AttributeError(name)


def _recorded_path() -> Optional[str]:
    """The library ``cmake --install`` installed beside this package, if it did."""
    try:
        from . import _installed  # type: ignore[attr-defined]  # written at install
    except ImportError:
        return None
    return getattr(_installed, "LIBRARY", None)


def _mapped_path(name: str) -> str:
    """Where the dynamic loader found NAME (Linux: /proc/self/maps), else NAME."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.split(maxsplit=5)[-1].strip()
                if os.path.basename(path) == name or os.path.basename(path).startswith(name + "."):
                    return path
    except OSError:
        pass
    return name


def _open() -> Library:
    explicit = os.environ.get("ARBITER_LIBRARY")
    if explicit:
        # An explicit choice that fails is an error, not a reason to load
        # another library than the one asked for.
        try:
            return Library(ctypes.CDLL(explicit), os.path.abspath(explicit))
        except OSError as e:
            if isinstance(e, LibraryNotFoundError):
                raise
            raise LibraryNotFoundError(
                f"ARBITER_LIBRARY={explicit} cannot be loaded: {e}. {_HOW_TO_GET_IT}"
            ) from None
    tried = ["ARBITER_LIBRARY (not set)"]
    recorded = _recorded_path()
    if recorded is None:
        tried.append("the path cmake --install records (not installed by CMake)")
    elif os.path.exists(recorded):
        try:
            return Library(ctypes.CDLL(recorded), recorded)
        except OSError as e:
            if isinstance(e, LibraryNotFoundError):
                raise
            tried.append(f"{recorded}, recorded at install ({e})")
    else:
        tried.append(f"{recorded}, recorded at install (no longer there)")
    try:
        dll = ctypes.CDLL(SONAME)
    except OSError as e:
        tried.append(f"the dynamic loader's {SONAME} ({e})")
        raise LibraryNotFoundError(
            f"the Arbiter library is not found; tried {', '.join(tried)}. {_HOW_TO_GET_IT}"
        ) from None
    return Library(dll, _mapped_path(SONAME))


_lock = threading.Lock()
_library: Optional[Library] = None


def load() -> Library:
    """The library, loaded on the first call (LibraryNotFoundError if it cannot be)."""
    global _library
    with _lock:
        if _library is None:
            _library = _open()
        return _library
