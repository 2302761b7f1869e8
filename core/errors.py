"""Typed errors of the kernel.

One base class, shallow families (after httpx's `_exceptions.py`): callers catch
`ActionRejected` for anything a player did wrong and `SetupError` for a table that
cannot be created. Each carries a stable `code` that the API returns as data.
"""
from __future__ import annotations


class ConclaveError(Exception):
    """Base of every error the kernel raises on purpose."""

    code = "ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- rejected actions: the state is left unchanged ---------------------------------
class ActionRejected(ConclaveError):
    """An action was refused; the table state did not change."""

    code = "REJECTED"


class NotYourTurn(ActionRejected):
    """The seat has no open prompt, so it may not act now."""

    code = "NOT_YOUR_TURN"


class IllegalAction(ActionRejected):
    """No open prompt of the seat accepts an action of this type."""

    code = "NOT_LEGAL_NOW"


class BadParameter(ActionRejected):
    """The action type is legal now but its parameters are not."""

    code = "BAD_PARAMETER"


class CannotAfford(ActionRejected):
    """The action would spend more than the seat has."""

    code = "CANNOT_AFFORD"


class GameOver(ActionRejected):
    """The game has ended; nothing more can be played."""

    code = "GAME_OVER"


class UnknownSeat(ActionRejected):
    """The seat number does not exist at this table."""

    code = "UNKNOWN_SEAT"


# -- tables that cannot be created ---------------------------------------------------
class SetupError(ConclaveError):
    """A table could not be created as asked."""

    code = "SETUP"


class UnknownGame(SetupError):
    """No registered game has this id."""

    code = "UNKNOWN_GAME"


class UnknownModule(SetupError):
    """No registered module has this id."""

    code = "UNKNOWN_MODULE"


class IncompatibleModules(SetupError):
    """The modules asked for cannot be combined (or not with this game)."""

    code = "INCOMPATIBLE_MODULES"


class BadPlayerCount(SetupError):
    """The game or a module does not support this many players."""

    code = "BAD_PLAYER_COUNT"


class BadOption(SetupError):
    """A table option is unknown or has a value outside its choices."""

    code = "BAD_OPTION"


class PluginError(SetupError):
    """A plugin was registered twice or declares something inconsistent."""

    code = "PLUGIN"


# -- content -----------------------------------------------------------------------
class ContentError(ConclaveError):
    """A content file is missing, malformed or inconsistent with its schema."""

    code = "CONTENT"


class EngineError(ConclaveError):
    """The engine reached a state its rules do not allow: always a bug, never input."""

    code = "ENGINE"


class UnknownPack(BadOption):
    """A table named a content pack that nobody registered (packs are chosen by name, never
    by a path)."""

    code = "BAD_OPTION"


class ContentUnavailable(ContentError):
    """A registered content pack cannot be loaded: the tables using it cannot be read."""

    code = "CONTENT_UNAVAILABLE"


class StateFormatError(ConclaveError):
    """A stored table state this release cannot read: saved by a newer release, or in an
    older format that no migration of its game reaches."""

    code = "STATE_FORMAT"


class UndoRefused(ActionRejected):
    """A take-back the rules do not allow now; `code` says why (`core.undo`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
