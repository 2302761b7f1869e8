"""Which failures to archive a finished table are worth retrying, and what to say about one
that is not.

A lost connection, a lock or a restarting database pass: the archive is retried with a
growing delay. But a value that does not fit its column, a constraint the record breaks,
or a schema that does not match the models fails the same way every time: retrying it
forever only hid the failure (a campaign answered SAVE_PENDING for good). Such a failure
is counted, logged and recorded on the campaign; the next start-up tries once more, after
an operator has fixed its cause.
"""
from __future__ import annotations

import enum

from sqlalchemy.exc import DataError, IntegrityError, NotSupportedError, ProgrammingError, StatementError, DBAPIError


class Outcome(enum.Enum):
    ARCHIVED = "archived"
    RETRY = "retry"      # transient: try again later
    FAILED = "failed"    # permanent: retrying cannot fix it


# What a client may read about the cause: never the SQL, its parameters or a path.
_REASONS = {
    DataError: "a value does not fit its database column",
    IntegrityError: "it conflicts with what the database holds",
    ProgrammingError: "the database schema does not match this server (are the migrations applied?)",
    NotSupportedError: "the database does not support an operation it needs",
}


def is_permanent(exc: BaseException) -> bool:
    """True for errors a retry cannot fix: the database refused the data or the statement
    itself, or a value could not even be bound to its statement (a StatementError that the
    driver never saw)."""
    if isinstance(exc, tuple(_REASONS)):
        return True
    return isinstance(exc, StatementError) and not isinstance(exc, DBAPIError)


def reason(exc: BaseException) -> str:
    """A short, client-safe reason for a permanent failure."""
    for kind, text in _REASONS.items():
        if isinstance(exc, kind):
            return f"{kind.__name__}: {text}"
    return f"{type(exc).__name__}: a value could not be stored"


def detail(exc: BaseException) -> str:
    """The driver's own first line, for the server log (operators only)."""
    orig = getattr(exc, "orig", None) or exc
    return str(orig).strip().splitlines()[0][:300] if str(orig).strip() else type(orig).__name__
