"""Table subscriptions fanned out from one place per table.

A subscription's updates are the table's log entries after its `afterVersion`, in order and
once each, then every new one, each with the table at that version or newer. Iterated
(`async for`), a `FeedSubscription` is the service's `follow`: one queue and one task step
per subscriber and update, fine for any consumer.

On a busy server that per-subscriber machinery costs more than the update itself
(benchmarks/api_load.py: five subscribers per table, each woken through its own queue and a
chain of async generators, per action). So a WebSocket handler that can write a message
synchronously runs the subscription with `run_direct` instead: the process keeps one
`TableFeed` per table, which hears the store's notification once, finds the table's state
once, and hands the entry to every subscriber of the table in the same step; a subscriber
that is caught up writes its update there and then. Whatever cannot go that way - the
catch-up after `afterVersion`, a gap in the notifications, a connection under flow control,
an update whose completion needs the full executor - queues on the subscriber and is sent
by its own task, in order, and the subscriber returns to the direct way once its queue is
empty.
"""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from api.metrics import METRICS

if TYPE_CHECKING:
    from api.service import TableService
    from schema.service import Loaded

log = logging.getLogger("conclave.feeds")


class TableFeed:
    """One table's new log entries in one process, handed to its direct subscribers.

    It is the store's listener for the table (`put_nowait`, called once per entry). An entry
    goes out as soon as the process holds the table at that version or newer: at once when
    the committing request already cached it, else after one wait for the table (its local
    commit, or a read of the store) by the feed's own task - once per table, not per
    subscriber."""

    def __init__(self, service: TableService, table_id: str) -> None:
        self.service, self.table_id = service, table_id
        self.subscribers: set[FeedSubscription] = set()
        self.ready = asyncio.get_running_loop().create_future()  # the store subscription is live
        self._pending: deque[dict] = deque()
        self._task: asyncio.Task | None = None

    def put_nowait(self, entry: dict) -> None:
        self._pending.append(entry)
        if self._task is None and not self._flush():
            self._task = asyncio.get_running_loop().create_task(self._drain())

    def _flush(self) -> bool:
        """Hand out the pending entries the cached table covers; True when none is left."""
        cached = self.service.cached(self.table_id)
        pending = self._pending
        while pending:
            entry = pending[0]
            if cached is None or cached.version < entry["version"]:
                return False
            pending.popleft()
            self._dispatch(entry, cached)
        return True

    async def _drain(self) -> None:
        try:
            while self._pending:
                entry = self._pending[0]
                try:
                    loaded = await self.service.at_least(self.table_id, entry["version"])
                except Exception:  # noqa: BLE001 - each subscriber asks again and ends with the error
                    loaded = None
                self._pending.popleft()
                self._dispatch(entry, loaded)
        finally:
            self._task = None

    def _dispatch(self, entry: dict, loaded: Loaded | None) -> None:
        direct = 0
        for subscriber in tuple(self.subscribers):
            direct += subscriber.offer(entry, loaded)
        if direct:
            METRICS.updates_direct.inc(direct)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


Update = Any  # what `make_update` builds: the schema's `TableUpdate`


class FeedSubscription:
    """The source of one `tableUpdates` subscription (see the module's docstring)."""

    def __init__(self, service: TableService, table_id: str, after_version: int,
                 make_update: Callable[[dict, Loaded], Update]) -> None:
        self.service, self.table_id, self.make_update = service, table_id, make_update
        self.after_version = max(0, after_version)
        self.last = self.after_version
        self.finished = False
        # Entries only: the table is read when one is sent (the newest then), so a subscriber
        # that falls behind holds no old states, and `act` may keep changing the newest in place.
        self._queue: deque[dict] = deque()
        self._busy = True  # the task is sending (the catch-up first): new entries queue behind it
        self._wakeup: asyncio.Event | None = None
        self._send_now: Callable[[Update], bool] | None = None
        self._iterator = None

    # -- as an async iterator: any consumer ---------------------------------------------------
    def __aiter__(self):
        if self._iterator is None:
            self._iterator = self._updates()
        return self._iterator

    async def aclose(self) -> None:
        """End the iteration now (its `follow` stops listening), not when it is collected."""
        if self._iterator is not None:
            await self._iterator.aclose()

    async def _updates(self):
        service = self.service
        async for entry in service.follow(self.table_id, self.after_version):
            loaded = await service.at_least(self.table_id, entry["version"])
            yield self.make_update(entry, loaded)

    # -- direct ----------------------------------------------------------------------------
    async def run_direct(self, send_now: Callable[[Update], bool], send: Callable[[Update], Awaitable[None]]) -> None:
        """Deliver every update until the game ends (or the caller is cancelled).

        `send_now(update)` writes an update synchronously and says whether it did (False:
        nothing was written); `send(update)` writes it the awaiting way. Raises as `follow`
        does (an unknown table) before anything is sent."""
        service = self.service
        await service.load(self.table_id, fresh=False)
        self._send_now, self._wakeup = send_now, asyncio.Event()
        await service.attach_feed(self.table_id, self)  # listen first, then catch up: no hole
        METRICS.subscriptions.inc()
        try:
            await self._send_log(send)
            while not self.finished:
                while self._queue and not self.finished:
                    entry = self._queue.popleft()
                    if entry["version"] <= self.last:
                        continue
                    if entry["version"] > self.last + 1:  # a notification was missed: the log has it
                        await self._send_log(send)
                        if entry["version"] <= self.last:
                            continue
                    await self._send_entry(entry, send)
                if self.finished:
                    break
                self._busy = False
                self._wakeup.clear()
                await self._wakeup.wait()
                self._busy = True
        finally:
            self._busy = True
            METRICS.subscriptions.dec()
            await service.detach_feed(self.table_id, self)

    async def _send_log(self, send) -> None:
        for entry in await self.service.store.entries(self.table_id, self.last):
            if self.finished:
                return
            if entry["version"] == self.last + 1:
                await self._send_entry(entry, send)

    async def _send_entry(self, entry: dict, send) -> None:
        """The entry with the table at its version or newer, the awaiting way (the table is
        let go on return: a waiting subscriber holds none)."""
        loaded = await self.service.at_least(self.table_id, entry["version"])
        await send(self.make_update(entry, loaded))
        METRICS.updates_queued.inc()
        self.last = entry["version"]
        if entry.get("finished"):
            self.finished = True  # the game is over: nothing more will come

    def offer(self, entry: dict, loaded: Loaded | None) -> bool:
        """An entry from the table's feed: written now when this subscriber is caught up and
        its connection takes it (True), else queued for its task."""
        version = entry["version"]
        if self.finished or version <= self.last:
            return False
        if not (self._busy or self._queue) and version == self.last + 1 and loaded is not None:
            try:
                sent = self._send_now(self.make_update(entry, loaded))
            except Exception:  # noqa: BLE001 - the task's way reports it properly
                log.debug("direct delivery failed; queued", exc_info=True, extra={"table": self.table_id})
                sent = False
            if sent:
                self.last = version
                if entry.get("finished"):
                    self.finished = True
                    self._wakeup.set()
                return True
        self._queue.append(entry)
        self._wakeup.set()
        return False
