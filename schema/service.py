"""What the schema asks of the service behind it, and the plain values they exchange.

The schema never imports the API layer (dependencies point `api -> schema -> core`): it
declares here what it calls, and `api.service.TableService` implements it. The service
arrives per request through the GraphQL context (`schema.context`), so a test can run the
schema on any object with these methods.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, AsyncContextManager, AsyncIterable, Callable, NamedTuple, Protocol

from core.plugins import Rules
from core.state import TableState


class Rejected(Exception):
    """A request the service refuses; `code` is part of the API (the schema answers it as
    data, `… | Rejected`, or as an error carrying the code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass
class Loaded:
    """One table as read at one version."""

    id: str
    meta: dict
    version: int
    state: TableState
    rules: Rules
    encoded: bytes | None = None  # the state's msgpack bytes, as stored: `apply` copies from them

    @property
    def status(self) -> str:
        if self.state.finished:
            return "finished"
        return "playing" if len(self.meta.get("seats", {})) >= self.meta["players"] else "open"


class Created(NamedTuple):
    """A new table and what its host is shown once: the host token (it reserves seats) and
    the join code (players need it, or an invitation, to take a seat)."""

    table: Loaded
    host_token: str
    join_code: str


class ServerSettings(Protocol):
    allow_chosen_seeds: bool


class CreationSlot(Protocol):
    """A reserved table creation: the schema names the table it opened."""

    table_id: str | None


class TableService(Protocol):
    """The operations the schema resolves with. Each raises `Rejected` for what a client
    caused, and changes nothing then. Campaigns are rows with the fields
    `CampaignInfo` shows (`id`, `game`, `name`, `players`, `status`, `modules`, `options`,
    `sessions`, `save_error`)."""

    settings: ServerSettings

    async def viewer_seat(self, table_id: str, token: str | None) -> int | None:
        """The seat whose secrets `token` may see at this table (None: the public view)."""

    async def load(self, table_id: str, fresh: bool = True) -> Loaded:
        """The table at its newest version (`fresh=False`: a cached copy will do)."""

    async def log(self, table_id: str, after_version: int) -> list[dict]:
        """The table's log entries after `after_version`, as stored (events unredacted)."""

    async def tables_page(self, game: str | None, status: str | None, first: int,
                          after: str | None) -> tuple[list[Loaded], str | None]:
        """One page of live tables and the cursor of the next (None: the last)."""

    def creating(self, address: str | None) -> AsyncContextManager[CreationSlot | None]:
        """Around creating a table for a client address (None: no quota applies)."""

    async def create_table(self, game: str, players: int, seed: int | None = None, modules: list[str] | None = None,
                           options: dict | None = None, campaign_id: str | None = None) -> Created: ...

    async def start_next_game(self, campaign_id: str, seed: int | None = None, game: str | None = None,
                              modules: list[str] | None = None) -> Created: ...

    async def create_campaign(self, game: str, players: int, name: str = "", modules: list[str] | None = None,
                              options: dict | None = None) -> Any: ...

    async def campaign(self, campaign_id: str) -> tuple[Any, list[str]] | None:
        """(campaign, ids of its finished games) or None."""

    def standings(self, campaign: Any) -> list: ...

    async def join(self, table_id: str, seat: int, name: str, code: str | None) -> tuple[str, Loaded]:
        """(the new seat token, the table)."""

    async def invite(self, table_id: str, token: str | None, seat: int) -> str:
        """The invitation code of a reserved seat."""

    async def act(self, table_id: str, token: str | None, action: dict, expected_version: int | None = None) -> Loaded:
        """The table after the token's seat played `action`."""

    async def undo_refusal(self, loaded: Loaded, seat: int | None) -> str | None:
        """Why `seat` may not take back its last action now (a code), or None: it may."""

    async def mark_away(self, table_id: str, token: str | None, seat: int) -> Loaded:
        """The host marks a seat absent (a bot plays for it until its player resumes)."""

    def updates(self, table_id: str, after_version: int,
                make_update: Callable[[dict, Loaded], Any]) -> AsyncIterable[Any]:
        """The source of one `tableUpdates` subscription: `make_update(entry, table)` for each
        log entry after `after_version`, in order, with the table at that version or newer."""
