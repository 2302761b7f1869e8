"""The embedded live store: tables in process memory, every commit checkpointed to SQL
before it is acknowledged, so a restart (even SIGKILL) loses no accepted action. As in
Redis, a commit stores its log entry, and the state's bytes only every `snapshot_every`
versions; a restart rebuilds the newest state from that snapshot and the entries since."""
from __future__ import annotations

import asyncio
import bisect
import time

from sqlalchemy import bindparam, insert, update
from sqlmodel import select

from api.db import Database, LiveCheckpoint, LiveLogEntry, now
from api.live.base import Listeners, LiveStore, SeatClaimed, SeatRefused, Snapshot


RECENT = 256  # log entries kept in memory per table; older ones are read back from SQL

# A commit's statements, built once: the ORM's read-modify-write of the whole row took
# 0.83 ms an action, these 0.19 (building a statement per call cost most of the difference).
_checkpoints, _log = LiveCheckpoint.__table__, LiveLogEntry.__table__
_NEXT_VERSION = (update(_checkpoints).where(_checkpoints.c.id == bindparam("tid"))
                 .values(version=bindparam("version"), finished=bindparam("finished"), updated_at=bindparam("at")))
_NEXT_VERSION_AND_STATE = _NEXT_VERSION.values(state=bindparam("state"), state_version=bindparam("version"))
_LOG_ENTRY = insert(_log)


class _Table:
    __slots__ = ("meta", "version", "state", "state_version", "finished", "log", "seats", "invitations", "lock")

    def __init__(self, meta, version, state, finished=False, state_version=None):
        self.meta, self.version, self.state, self.finished = meta, version, state, finished
        self.state_version = version if state_version is None else state_version  # what `state` is at
        self.log: list[dict] = []
        self.seats: dict[int, dict] = {}
        self.invitations: dict[int, str] = {}  # reserved seat -> its invitation code's hash
        self.lock = asyncio.Lock()


class MemoryStore(LiveStore):
    name = "embedded"
    # Encoding the whole state (~75 us, cold in the CPU caches by a table's next action) and
    # writing its ~12 KB for every action cost more than the rest of a commit; see RedisStore.
    snapshot_every = 8

    def __init__(self, db: Database, unjoined_ttl: float | None = None) -> None:
        self.db = db
        self.unjoined_ttl = unjoined_ttl  # seconds an open table nobody joins lives (None: for ever)
        self.tables: dict[str, _Table] = {}
        self.order: list[str] = []  # the ids, sorted: a page is a slice
        self.tokens: dict[str, tuple[str, int | None]] = {}
        self.listeners = Listeners()
        self._expiring: set[asyncio.Task] = set()
        self.due: dict[str, int] = {}  # table id -> when the referee must look at it (ms)
        self._restore()

    def _restore(self) -> None:
        """Reload every checkpointed table (the state of a restart)."""
        with self.db.session() as s:
            for cp in s.exec(select(LiveCheckpoint)):
                meta = {k: v for k, v in cp.meta.items() if k not in ("seats", "invitations")}
                t = _Table(meta, cp.version, cp.state, cp.finished, cp.state_version)
                t.seats = {int(k): v for k, v in cp.meta.get("seats", {}).items()}
                t.invitations = {int(k): v for k, v in cp.meta.get("invitations", {}).items()}
                self.tables[cp.id] = t
                for seat, rec in t.seats.items():
                    self.tokens[rec["token_hash"]] = (cp.id, seat)
                if cp.meta.get("host_token_hash"):
                    self.tokens[cp.meta["host_token_hash"]] = (cp.id, None)
            for table_id, t in self.tables.items():
                rows = s.exec(select(LiveLogEntry).where(LiveLogEntry.table_id == table_id)
                              .order_by(LiveLogEntry.version.desc()).limit(RECENT))
                t.log = [row.entry for row in reversed(list(rows))]
        self.order = sorted(self.tables)
        self._unjoined_at_start = [(tid, t.meta.get("created")) for tid, t in self.tables.items()
                                   if not t.seats and not t.version]

    @staticmethod
    def _checkpoint(s, table_id: str, t: _Table) -> None:
        """The whole row: a new table, a seat taken or reserved."""
        meta = dict(t.meta, seats={str(k): v for k, v in t.seats.items()},
                    invitations={str(k): v for k, v in t.invitations.items()})
        cp = s.get(LiveCheckpoint, table_id)
        if cp is None:
            cp = LiveCheckpoint(id=table_id, meta=meta, version=t.version, state=t.state)
        cp.meta, cp.version, cp.state, cp.finished, cp.updated_at = meta, t.version, t.state, t.finished, now()
        cp.state_version = t.state_version
        s.add(cp)

    @staticmethod
    def _commit_checkpoint(s, table_id: str, t: _Table, entry: dict) -> None:
        """A commit: the new version (and its state, at a snapshot), and its log entry."""
        params = {"tid": table_id, "version": t.version, "finished": t.finished, "at": now()}
        if t.state_version == t.version:
            updated = s.execute(_NEXT_VERSION_AND_STATE, dict(params, state=t.state))
        else:
            updated = s.execute(_NEXT_VERSION, params)
        if updated.rowcount != 1:  # never acknowledge a version that no checkpoint holds
            raise RuntimeError(f"table {table_id} has no checkpoint row to advance")
        s.execute(_LOG_ENTRY, {"table_id": table_id, "version": entry["version"], "entry": entry})

    async def create(self, table_id, meta, state):
        t = _Table(meta, 0, state)
        self.tables[table_id] = t
        bisect.insort(self.order, table_id)
        if meta.get("host_token_hash"):
            self.tokens[meta["host_token_hash"]] = (table_id, None)
        await self.db.write(lambda s: self._checkpoint(s, table_id, t))
        self._expire_unjoined(table_id, self.unjoined_ttl)

    def _expire_unjoined(self, table_id: str, delay: float | None) -> None:
        """Drop the table after `delay` seconds unless a seat is taken by then (the caller
        knows the loop is running: a request, or the first await after a restart)."""
        if delay is None:
            return

        async def later():
            await asyncio.sleep(max(0.0, delay))
            t = self.tables.get(table_id)
            if t is None:
                return
            async with t.lock:  # a join in flight finishes first
                if t.seats or t.version:
                    return
            await self._drop(table_id)

        task = asyncio.get_running_loop().create_task(later())
        self._expiring.add(task)  # held: the loop keeps only weak references to tasks
        task.add_done_callback(self._expiring.discard)

    async def start(self) -> None:
        """Schedule the expiry of tables restored unjoined, from their creation time."""
        now_s = time.time()
        for table_id, created in self._unjoined_at_start:
            if self.unjoined_ttl is not None:
                self._expire_unjoined(table_id, (created or now_s) + self.unjoined_ttl - now_s)
        self._unjoined_at_start = []

    async def load(self, table_id):
        t = self.tables.get(table_id)
        if t is None:
            return None
        return Snapshot(meta=dict(t.meta, seats=dict(t.seats)), version=t.version, state=t.state, finished=t.finished,
                        state_version=t.state_version)

    async def version(self, table_id):
        t = self.tables.get(table_id)
        return None if t is None else t.version

    async def commit(self, table_id, expected_version, state, entry, finished):
        t = self.tables[table_id]
        async with t.lock:
            if t.version != expected_version:
                return False
            old = (t.version, t.state, t.state_version, t.finished)
            t.version, t.finished = expected_version + 1, finished
            if state:  # else the stored state stays at its version (snapshot_every)
                t.state, t.state_version = state, t.version
            try:
                await self.db.write(lambda s: self._commit_checkpoint(s, table_id, t, entry))
            except Exception:
                t.version, t.state, t.state_version, t.finished = old  # not durable: not accepted
                raise
            t.log.append(entry)
            if len(t.log) > RECENT:
                del t.log[: len(t.log) - RECENT]
        self.listeners.notify(table_id, entry)
        return True

    async def entries(self, table_id, after_version):
        t = self.tables.get(table_id)
        if t is None or after_version >= t.version:
            return []
        if t.log and t.log[0]["version"] <= after_version + 1:
            first = t.log[0]["version"]
            return t.log[after_version + 1 - first:]
        return await self.db.read(lambda s: [row.entry for row in s.exec(
            select(LiveLogEntry).where(LiveLogEntry.table_id == table_id, LiveLogEntry.version > after_version)
            .order_by(LiveLogEntry.version))])

    async def claim_seat(self, table_id, seat, record, invitation=None):
        t = self.tables[table_id]
        async with t.lock:
            invited = t.invitations.get(seat)
            if invitation is None and invited is not None:
                return SeatRefused.RESERVED
            if invitation is not None and invited != invitation:
                return SeatRefused.NOT_INVITED
            if seat in t.seats:
                return SeatRefused.TAKEN
            t.seats[seat] = record
            t.invitations.pop(seat, None)
            try:
                await self.db.write(lambda s: self._checkpoint(s, table_id, t))
            except Exception:
                del t.seats[seat]  # not durable: not taken
                if invited is not None:
                    t.invitations[seat] = invited
                raise
            self.tokens[record["token_hash"]] = (table_id, seat)
            return SeatClaimed(version=t.version, seats=dict(t.seats))

    async def reserve_seat(self, table_id, seat, invitation):
        t = self.tables[table_id]
        async with t.lock:
            if seat in t.seats:
                return False
            before = t.invitations.get(seat)
            t.invitations[seat] = invitation
            try:
                await self.db.write(lambda s: self._checkpoint(s, table_id, t))
            except Exception:  # not durable: not reserved
                if before is None:
                    del t.invitations[seat]
                else:
                    t.invitations[seat] = before
                raise
            return True

    async def seats(self, table_id):
        t = self.tables.get(table_id)
        return dict(t.seats) if t else {}

    async def token_owner(self, token_hash):
        return self.tokens.get(token_hash)

    async def table_ids(self):
        return list(self.tables)

    async def page_ids(self, after, limit):
        start = 0 if after is None else bisect.bisect_right(self.order, after)
        return self.order[start:start + limit]

    async def expire(self, table_id, seconds):
        """A finished, archived table leaves memory and its checkpoint after `seconds`
        (the game record in SQL keeps everything)."""
        asyncio.get_running_loop().call_later(seconds, lambda: asyncio.ensure_future(self._drop(table_id)))

    async def _drop(self, table_id: str) -> None:
        """Delete the checkpoint rows first, then forget the table: once it is gone from
        memory it is gone from disk too (a restart will not bring it back)."""
        if table_id not in self.tables:
            return

        def delete(s):
            for row in s.exec(select(LiveLogEntry).where(LiveLogEntry.table_id == table_id)):
                s.delete(row)
            cp = s.get(LiveCheckpoint, table_id)
            if cp is not None:
                s.delete(cp)

        await self.db.write(delete)
        t = self.tables.pop(table_id, None)
        at = bisect.bisect_left(self.order, table_id)
        if at < len(self.order) and self.order[at] == table_id:
            del self.order[at]
        if t is not None:  # its tokens: the seats' and the host's (not a scan of every token)
            for token_hash in [rec["token_hash"] for rec in t.seats.values()] + [t.meta.get("host_token_hash")]:
                if token_hash is not None and self.tokens.get(token_hash, (None,))[0] == table_id:
                    del self.tokens[token_hash]

    async def set_due(self, table_id, at_ms):
        if at_ms is None:
            self.due.pop(table_id, None)
        else:
            self.due[table_id] = at_ms

    async def claim_due(self, now_ms, limit):
        taken = sorted((at, t) for t, at in self.due.items() if at <= now_ms)[:limit]
        for _at, table_id in taken:
            del self.due[table_id]
        return [t for _at, t in taken]

    async def close(self) -> None:
        for task in list(self._expiring):
            task.cancel()
        await asyncio.gather(*self._expiring, return_exceptions=True)

    async def subscribe(self, table_id, listener=None):
        return self.listeners.add(table_id, listener)

    async def unsubscribe(self, table_id, queue):
        self.listeners.remove(table_id, queue)
