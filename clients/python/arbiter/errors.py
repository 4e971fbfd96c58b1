"""The exceptions of the arbiter package."""

from __future__ import annotations

__all__ = ["Error", "InvalidArgumentError", "LibraryNotFoundError"]


class Error(Exception):
    """A call Arbiter refused or could not complete.

    ``status`` is the C API's name for what went wrong ("invalid_argument",
    "not_found", "io_error", "failed_precondition", "cancelled",
    "out_of_memory", "internal"), ``message`` says what and where ("FEN
    field 2: ..."). The gRPC client's ``ArbiterError`` is an ``Error`` too,
    its ``status`` the gRPC code's name in lower case, so that one
    ``except arbiter.Error`` serves both.
    """

    def __init__(self, status: str, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class InvalidArgumentError(Error, ValueError):
    """A bad FEN, move or option ("invalid_argument"): a ``ValueError`` as
    well, since it is the caller's value that is wrong, as Python's own
    functions report it."""


class LibraryNotFoundError(OSError):
    """libarbiter.so.1 could not be loaded (the message says where it was
    looked for and how to get it)."""
