"""Every GraphQL error a client receives carries `extensions.code`, and says nothing of the
server's insides.

Expected failures are data (`… | Rejected`); everything else that ends up in a response's
`errors` passes through `process` once, on every path (strawberry's pipeline, the lean HTTP
path, the lean subscription streams), before it is formatted:

- a code the error already has is kept (e.g. a limit another check set);
- errors of the document itself are tagged where strawberry finds them
  (`tag_pre_execution`): `GRAPHQL_PARSE_FAILED`, `TOO_MANY_TOKENS`,
  `GRAPHQL_VALIDATION_FAILED`, or the limit rule's own code (`coded_rule`);
- a resolver's typed refusal (`Rejected`, a kernel `ConclaveError`) gives its own code and
  message;
- a store or database that cannot be reached is `SERVICE_UNAVAILABLE`, anything else
  `INTERNAL_SERVER_ERROR`: both with a fixed message, so no SQL, parameter, path or
  traceback reaches a client.

The log keeps one line per client mistake (its code and where) and a traceback only for a
real server fault.
"""
from __future__ import annotations

import asyncio
import logging

from graphql import GraphQLError, GraphQLSyntaxError

from core.errors import ConclaveError, ContentError, EngineError, PluginError
from schema.service import Rejected

log = logging.getLogger("conclave.errors")

INTERNAL = "INTERNAL_SERVER_ERROR"
UNAVAILABLE = "SERVICE_UNAVAILABLE"
PARSE_FAILED = "GRAPHQL_PARSE_FAILED"
VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"
TOO_MANY_TOKENS = "TOO_MANY_TOKENS"
BAD_USER_INPUT = "BAD_USER_INPUT"
BAD_REQUEST = "BAD_REQUEST"
FAULTS = {INTERNAL: "internal server error",
          UNAVAILABLE: "a store the server depends on is unavailable; try again shortly"}
SERVER_FAULTS = (EngineError, ContentError, PluginError)  # kernel errors that are never the client's doing


def _unavailable_types() -> tuple[type[BaseException], ...]:
    import redis.exceptions
    import sqlalchemy.exc

    types: list[type[BaseException]] = [ConnectionError, TimeoutError, asyncio.TimeoutError,
                                        redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                                        sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError,
                                        sqlalchemy.exc.TimeoutError, sqlalchemy.exc.DisconnectionError]
    try:
        import psycopg

        types += [psycopg.OperationalError, psycopg.InterfaceError]
    except ImportError:  # pragma: no cover - SQLite only
        pass
    return tuple(types)


UNAVAILABLE_TYPES = _unavailable_types()


def with_code(error: GraphQLError, code: str) -> GraphQLError:
    """The error with `extensions.code` set, unless it has one already."""
    extensions = dict(error.extensions or {})
    extensions.setdefault("code", code)
    error.extensions = extensions
    return error


def code_of(error: GraphQLError) -> str | None:
    return (error.extensions or {}).get("code")


class _CodedContext:
    """A validation context whose reported errors carry a code."""

    def __init__(self, context, code: str) -> None:
        self._context, self._code = context, code

    def __getattr__(self, name: str):
        return getattr(self._context, name)

    def report_error(self, error: GraphQLError) -> None:
        self._context.report_error(with_code(error, self._code))


def coded_rule(rule: type, code: str) -> type:
    """A validation rule whose errors carry `code`: strawberry's depth and alias limits
    report plain errors to their context, from their constructors."""

    class Coded(rule):
        def __init__(self, context) -> None:
            super().__init__(_CodedContext(context, code))

    Coded.__name__ = Coded.__qualname__ = f"{rule.__name__}[{code}]"
    return Coded


def tag_pre_execution(errors: list[GraphQLError]) -> None:
    """Errors from parsing or validating a document (strawberry's `_prepare_operation_*`)."""
    for error in errors:
        if code_of(error) is None and error.original_error is None and not isinstance(error, GraphQLSyntaxError):
            with_code(error, VALIDATION_FAILED)


def _cause(error: BaseException | None):
    """The error and the exceptions behind it (`raise … from`, or raised while handling)."""
    seen = 0
    while error is not None and seen < 10:
        yield error
        error = error.__cause__ or error.__context__
        seen += 1


def classify(error: GraphQLError) -> tuple[str, bool]:
    """(code, whether the client may see the error's own message)."""
    code = code_of(error)
    if code is not None:
        return code, code not in FAULTS
    if isinstance(error, GraphQLSyntaxError):
        # graphql-core's token limit: "Document contains more than N tokens. Parsing aborted."
        return (TOO_MANY_TOKENS if error.message.endswith("tokens. Parsing aborted.") else PARSE_FAILED), True
    original = error.original_error
    if original is None:  # graphql-core's own: variables that do not coerce, an unknown operation
        return (BAD_USER_INPUT, True) if error.path is None else (INTERNAL, False)
    if isinstance(original, GraphQLError):
        inner = code_of(original)
        if inner is not None:
            return inner, inner not in FAULTS
        if error.path is None:  # an input value graphql-core could not coerce
            return BAD_USER_INPUT, True
    if isinstance(original, Rejected):
        return original.code, True
    if isinstance(original, ConclaveError) and not isinstance(original, SERVER_FAULTS):
        return original.code, True
    if type(original).__name__ in ("CannotGetOperationTypeError", "InvalidOperationTypeError", "MissingQueryError"):
        return BAD_REQUEST, True  # strawberry's: no such operation, or not allowed on this transport
    if any(isinstance(e, UNAVAILABLE_TYPES) for e in _cause(original)):
        return UNAVAILABLE, False
    return INTERNAL, False


def log_refusal(code: str, field: str, message: str) -> None:
    """The log line of a refusal returned as data (`Rejected`): the same as an error's."""
    log.info("client error", extra={"code": code, "path": [field], "error": message[:200]})


def process(errors: list[GraphQLError]) -> None:
    """Give each error its code, log it once, and hide what a client must not see."""
    for error in errors:
        code, visible = classify(error)
        with_code(error, code)
        where = list(error.path) if error.path else None
        if visible:
            log.info("client error", extra={"code": code, "path": where, "error": error.message[:200]})
            continue
        original = error.original_error
        if code == UNAVAILABLE:  # an outage, not a bug: one line, the cause's type and text
            log.warning("store unavailable", extra={"code": code, "path": where,
                                                    "error": f"{type(original).__name__}: {original}"[:500]})
        else:
            exc_info = (type(original), original, original.__traceback__) if original is not None else None
            log.error("server error", exc_info=exc_info, extra={"code": code, "path": where})
        error.message = FAULTS.get(code, FAULTS[INTERNAL])
