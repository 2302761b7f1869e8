"""The background side of turn notifications: what the act path hands over, into the outbox,
and from the outbox to the receivers.

The act path only hands over (`committed`: a few attribute reads and a list append, no I/O):
a background task turns what it collected into outbox rows for the registrations concerned,
a batch per round trip, and another claims due rows and POSTs them, signed (`signing`),
to an address checked against the allow-list after DNS resolution (`addresses`). A failed
attempt (no answer, an answer other than 2xx) is retried with exponential backoff; the row,
and with it the retry, outlives the process.

What a crash can lose is what had been handed over and not yet written (milliseconds' worth):
at start-up every registration's current events are queued again (`requeue_all`), and the
event ids make that harmless for those already queued. So a decision still open when the
server comes back is always delivered; one that was made and answered inside that window
(no longer anyone's decision) may not be.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING

import httpx
from sqlmodel import select

from api.db import Database, WebhookRegistration
from api.metrics import METRICS
from api.settings import Settings
from api.webhooks import outbox, signing
from api.webhooks.addresses import AllowList, resolve
from api.webhooks.outbox import Claimed, Event
from schema.service import Loaded, Rejected

if TYPE_CHECKING:
    from api.service import TableService

log = logging.getLogger("conclave.webhooks")
IN_FLIGHT = 32  # concurrent POSTs per process
# What the act path hands over is written at most this often: one registrations query and
# one INSERT per batch, not per action (per action, a busy embedded server spent ~0.5 ms of
# CPU more on each; benchmarks/api_load.py, see the report of issue 22). A notice is
# a push to a phone: 50 ms later is not felt.
BATCH_SECONDS = 0.05


def decision_id(table_id: str, prompt_id: int) -> str:
    return f"{table_id}.decision.{prompt_id}"


def events_of(loaded: Loaded) -> list[Event]:
    """The events a table at this version stands for: one per blocking prompt (a decision a
    seat must make; the prompt's id names it for good) and, once finished, its end for each
    seat. Non-blocking prompts (an offer any seat may take at any time) are nobody's turn."""
    return _events(loaded.id, loaded.meta.get("campaign_id"), loaded.version, loaded.meta["players"],
                   [(p.seat, p.id) for p in loaded.state.prompts if p.blocking], loaded.state.finished)


def _events(table_id, campaign_id, version, players, decisions, finished) -> list[Event]:
    out = [Event(decision_id(table_id, pid), "decision", table_id, campaign_id, seat, version)
           for seat, pid in decisions]
    if finished:
        out += [Event(f"{table_id}.ended.{seat}", "game_ended", table_id, campaign_id, seat, version)
                for seat in range(players)]
    return out


class Webhooks:
    """One per server process (api/app.py's lifespan): `start`, then `close`."""

    def __init__(self, service: "TableService", db: Database, settings: Settings) -> None:
        self.service, self.db, self.settings = service, db, settings
        self.allow = AllowList.parse(settings.webhook_allow)
        self._handed: list[tuple] = []  # what the act path handed over, not yet in the outbox
        self._handed_ready = asyncio.Event()
        self._due = asyncio.Event()  # rows were queued here: look now, not at the next poll
        self._tasks: list[asyncio.Task] = []
        self._sending: set[asyncio.Task] = set()
        self._client: httpx.AsyncClient | None = None

    # -- the act path's side ------------------------------------------------------------
    def committed(self, loaded: Loaded) -> None:
        """A table's new version was committed here. Called on the act path: reads what it
        needs now (the state may be changed in place by the next action) and returns."""
        state = loaded.state
        self._handed.append((loaded.id, loaded.meta.get("campaign_id"), loaded.version, loaded.meta["players"],
                             [(p.seat, p.id) for p in state.prompts if p.blocking], state.finished))
        self._handed_ready.set()

    def table_created(self, loaded: Loaded) -> None:
        """A campaign's next game was created: its seats' campaign registrations hear of it,
        and of the decisions it opens with (a new table has no registrations of its own)."""
        campaign_id = loaded.meta.get("campaign_id")
        if not campaign_id:
            return
        self._handed.append([Event(f"{campaign_id}.{loaded.id}.started.{seat}", "game_started", loaded.id,
                                   campaign_id, seat, loaded.version) for seat in range(loaded.meta["players"])]
                            + events_of(loaded))
        self._handed_ready.set()

    # -- lifecycle ----------------------------------------------------------------------
    async def start(self) -> None:
        self._client = httpx.AsyncClient(timeout=self.settings.webhook_timeout, follow_redirects=False)
        try:
            await self.requeue_all()
        except Exception:  # noqa: BLE001 - the server serves anyway; the next start tries again
            log.exception("could not re-queue the registrations' current events")
        self._tasks = [asyncio.create_task(self._fill()), asyncio.create_task(self._send())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._handed:  # a clean stop writes what it was handed
            try:
                await self._write_handed()
            except Exception:  # noqa: BLE001 - the next start-up re-queues the current events
                log.warning("could not queue the last events before stopping")
        if self._sending:  # let the POSTs under way finish and be recorded (else: sent again after their lease)
            await asyncio.wait(list(self._sending), timeout=self.settings.webhook_timeout + 1)
        for task in list(self._sending):
            task.cancel()
        await asyncio.gather(*self._sending, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()

    # -- into the outbox ---------------------------------------------------------------
    async def _fill(self) -> None:
        while True:
            await self._handed_ready.wait()
            await asyncio.sleep(BATCH_SECONDS)
            self._handed_ready.clear()
            try:
                await self._write_handed()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - kept, and tried again shortly
                log.exception("could not queue webhook events; retrying")
                await asyncio.sleep(1.0)
                self._handed_ready.set()

    async def _write_handed(self) -> None:
        batch, self._handed = self._handed, []
        events: list[Event] = []
        for item in batch:
            events += item if isinstance(item, list) else _events(*item)
        try:
            queued = await self.db.write(lambda s: outbox.queue(s, events))
        except BaseException:
            self._handed[:0] = batch  # not written: first in the next batch
            raise
        if queued:
            self._due.set()

    async def queue_current(self, reg: WebhookRegistration) -> None:
        """Queue what a registration should hear of now: its seat's open decisions at its
        table (or its campaign's live games) and the end of a finished one."""
        events = [e for t in await self._tables_of([reg]) for e in events_of(t)]
        if events and await self.db.write(lambda s: outbox.queue(s, events, [reg])):
            self._due.set()

    async def requeue_all(self) -> None:
        """At start-up: every registration's current events, again (see the module's doc)."""
        regs = await self.db.read(lambda s: list(s.exec(select(WebhookRegistration)).all()))
        if not regs:
            return
        events = [e for t in await self._tables_of(regs) for e in events_of(t)]
        if events and await self.db.write(lambda s: outbox.queue(s, events, regs)):
            self._due.set()

    async def _tables_of(self, regs: list[WebhookRegistration]) -> list[Loaded]:
        tables = {r.table_id for r in regs if r.table_id}
        campaigns = {r.campaign_id for r in regs if r.campaign_id}
        if campaigns:  # a campaign's games: the live tables that name it
            for tid in await self.service.store.table_ids():
                try:
                    if (await self.service.load(tid, fresh=False)).meta.get("campaign_id") in campaigns:
                        tables.add(tid)
                except Rejected:
                    continue
        out = []
        for tid in sorted(tables):
            try:
                out.append(await self.service.load(tid))
            except Rejected:  # archived and expired, or unreadable: nothing to tell now
                continue
        return out

    # -- out of the outbox -------------------------------------------------------------
    async def _send(self) -> None:
        while True:
            room = IN_FLIGHT - len(self._sending)
            claimed: list[Claimed] = []
            if room > 0:
                try:
                    claimed = await self.db.write(
                        lambda s: outbox.claim(s, self.settings.webhook_lease_seconds, room))
                except asyncio.CancelledError:
                    raise
                except Exception:  # noqa: BLE001 - the database may be back at the next poll
                    log.exception("could not claim webhook deliveries")
            for item in claimed:
                task = asyncio.create_task(self._deliver(item))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)
            if claimed and len(claimed) == room:
                await asyncio.sleep(0)
                continue  # more may be due
            try:
                await asyncio.wait_for(self._due.wait(), self.settings.webhook_poll_seconds)
            except asyncio.TimeoutError:
                pass
            self._due.clear()

    async def _deliver(self, item: Claimed) -> None:
        error = await self._post(item)
        if error is None:
            METRICS.webhook_deliveries.labels("delivered").inc()
            write = lambda s: outbox.delivered(s, item)  # noqa: E731
        else:
            retry_at = None
            if item.attempts < self.settings.webhook_max_attempts:
                delay = min(self.settings.webhook_retry_seconds * 2 ** (item.attempts - 1),
                            self.settings.webhook_max_delay)
                retry_at = time.time() + delay
            METRICS.webhook_deliveries.labels("retried" if retry_at else "given_up").inc()
            log.info("webhook delivery failed", extra={"event": item.event_id, "registration": item.registration_id,
                                                        "attempt": item.attempts, "error": error,
                                                        "retry": retry_at is not None})
            write = lambda s: outbox.failed(s, item, error, retry_at)  # noqa: E731
        try:
            await self.db.write(write)
        except Exception:  # noqa: BLE001 - the lease runs out and the row is claimed again
            log.exception("could not record a webhook delivery's outcome", extra={"event": item.event_id})

    async def _post(self, item: Claimed) -> str | None:
        """One attempt; None when the receiver answered 2xx, else why not."""
        try:
            target = await resolve(item.url, self.allow)  # again: the name may resolve elsewhere now
        except Rejected as exc:
            return f"{exc.code}: {exc.message}"
        body = json.dumps(item.payload, separators=(",", ":"), sort_keys=True).encode()
        headers = {**signing.headers(item.secret, item.event_id, body), "Host": target.host_header}
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        try:
            response = await self._client.post(target.pinned_url(target.addresses[0]), content=body,
                                               headers=headers, extensions=extensions)
        except httpx.HTTPError as exc:
            return f"{type(exc).__name__}: {exc}"
        if 200 <= response.status_code < 300:
            return None
        return f"HTTP {response.status_code}"
