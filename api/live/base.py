"""The interface every live store keeps.

A live table is its creation metadata, a state snapshot with its version, an append-only
log of accepted actions (each with the events it raised), and its seats. `commit` is a
compare-and-set on the version: two concurrent commits never both land. After each commit
the store hands the new log entry to every listener of the table (in every process); a
listener that sees a gap reads the log, so it never skips or repeats an entry.
"""
from __future__ import annotations

import asyncio
import bisect
import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Snapshot:
    """A table as stored: `state` is its state at `state_version` (None: at `version`); the
    log's entries after that version bring it to `version` (`LiveStore.snapshot_every`)."""

    meta: dict
    version: int
    state: bytes
    finished: bool = False
    state_version: int | None = None


@dataclass(frozen=True)
class SeatClaimed:
    """A seat just taken: the table's version and every seat's record at that moment."""

    version: int
    seats: dict[int, dict]


class SeatRefused(enum.Enum):
    """Why `claim_seat` took nothing."""

    TAKEN = "taken"  # a player holds it
    RESERVED = "reserved"  # the host reserved it for an invitation; the table's join code does not take it
    NOT_INVITED = "not_invited"  # no invitation for this seat has that code


class Listener(Protocol):
    """Whatever hears a table's new entries: an `asyncio.Queue`, or a `TableFeed`."""

    def put_nowait(self, entry: dict) -> None: ...


class Listeners:
    """In-process fan-out of version notifications to listeners, per table."""

    def __init__(self) -> None:
        self._queues: dict[str, set[Listener]] = {}

    def add(self, table_id: str, listener: Listener | None = None) -> Listener:
        q = asyncio.Queue() if listener is None else listener
        self._queues.setdefault(table_id, set()).add(q)
        return q

    def remove(self, table_id: str, q: Listener) -> bool:
        """Drop a listener; True when it was the table's last one."""
        qs = self._queues.get(table_id)
        if qs is None:
            return False
        qs.discard(q)
        if not qs:
            del self._queues[table_id]
            return True
        return False

    def notify(self, table_id: str, entry: dict) -> None:
        for q in self._queues.get(table_id, ()):
            q.put_nowait(entry)

    def count(self) -> int:
        return sum(len(qs) for qs in self._queues.values())


class LiveStore(ABC):
    """Where live tables are kept. All methods are safe to call concurrently."""

    name = "abstract"
    # `commit` gets the new state's bytes at least every this many versions and when the game
    # ends, else empty bytes: the stored state then stays at an older version and the log's
    # entries since rebuild the newest (the rules are deterministic). 1: every version.
    snapshot_every = 1

    @abstractmethod
    async def create(self, table_id: str, meta: dict, state: bytes) -> None: ...

    @abstractmethod
    async def load(self, table_id: str) -> Snapshot | None: ...

    @abstractmethod
    async def version(self, table_id: str) -> int | None:
        """The table's current version (None: no such table); cheaper than `load`."""

    @abstractmethod
    async def commit(self, table_id: str, expected_version: int, state: bytes, entry: dict, finished: bool) -> bool:
        """Store `state` as version expected_version+1 and append `entry`, only if the table is
        still at `expected_version`. Returns False (changing nothing) otherwise. Empty
        `state`: keep the stored state (see `snapshot_every`)."""

    @abstractmethod
    async def entries(self, table_id: str, after_version: int) -> list[dict]:
        """Log entries with version > after_version, in order."""

    @abstractmethod
    async def claim_seat(self, table_id: str, seat: int, record: dict,
                         invitation: str | None = None) -> SeatClaimed | SeatRefused:
        """Take a free seat atomically and index its token (`record["token_hash"]`), in one
        round trip. Without `invitation` only a seat nobody reserved; with it (an invitation
        code's hash) only the seat reserved with that hash, whose reservation it then uses
        up. The token is indexed before the seat is taken, so a crash in between leaves an
        index entry nobody holds, never a seat nobody can use."""

    @abstractmethod
    async def reserve_seat(self, table_id: str, seat: int, invitation: str) -> bool:
        """Reserve a free seat for the invitation whose code hashes to `invitation` (replacing
        an earlier invitation for it); False, changing nothing, if a player holds the seat."""

    @abstractmethod
    async def seats(self, table_id: str) -> dict[int, dict]: ...

    @abstractmethod
    async def token_owner(self, token_hash: str) -> tuple[str, int | None] | None:
        """(table id, seat or None for a host token) of a token hash."""

    @abstractmethod
    async def table_ids(self) -> list[str]: ...

    # -- the clock's deadlines (core/clock.py, api/referee.py) -------------------------------
    @abstractmethod
    async def set_due(self, table_id: str, at_ms: int | None) -> None:
        """When the referee must next look at the table (a clock runs out, a bot is to play);
        None: never, until set again."""

    @abstractmethod
    async def claim_due(self, now_ms: int, limit: int) -> list[str]:
        """Up to `limit` tables due by `now_ms`, each taken out of the index by exactly one
        caller across every process (the referee sets it again after its turn)."""

    async def page_ids(self, after: str | None, limit: int) -> list[str]:
        """Up to `limit` live table ids after `after` (None: from the first), in id order.
        Stores override it to read one page, not every id."""
        ids = sorted(await self.table_ids())
        start = 0 if after is None else bisect.bisect_right(ids, after)
        return ids[start:start + limit]

    @abstractmethod
    async def subscribe(self, table_id: str, listener: Listener | None = None) -> Listener:
        """`listener` (a new queue when None) receives each new log entry of the table."""

    @abstractmethod
    async def unsubscribe(self, table_id: str, queue: Listener) -> None: ...

    async def expire(self, table_id: str, seconds: int) -> None:
        """Let a finished, archived table disappear after `seconds` (no-op where unsupported)."""

    async def ping(self) -> bool:
        return True

    async def start(self) -> None:
        """Start background work (e.g. expiries) once the server's event loop runs."""

    async def close(self) -> None:
        """Release connections and background tasks."""
