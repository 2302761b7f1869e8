"""Table operations behind the API: create, join, act, read, follow.

I/O lives here and in the stores; rules live in `core` and the plugins. Every failure a
client can cause is a `Rejected` with a stable code, and changes nothing.
"""
from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import logging
import sys
from collections import OrderedDict
import time
import uuid
from typing import AsyncIterator, Callable

import msgspec
from sqlalchemy import insert

import core
from api.archive_failures import Outcome, detail, is_permanent, reason as failure_reason
from api import referee, take_back
from api.feeds import FeedSubscription, TableFeed
from api.db import Campaign, CampaignSave, Database, GameAction, GameRecord, now
from api.live.base import LiveStore, SeatRefused
from api.metrics import METRICS
from core.seats import no_such_seat, seat_name
from core.seeds import commitment, draw_seed, seed_problem
from api.quotas import CreationQuota, QuotaExceeded, Slot
from api.settings import Settings
from api.tokens import hash_token, new_code, new_token
from core import clock, undo
from core.errors import ActionRejected, ConclaveError, ContentError, StateFormatError
from core.plugins import Registry, Rules
from core.state import TableState, copy_state, decode_msgpack, encode_msgpack
from schema.cost import DEFAULT_PAGE, MAX_PAGE  # tables per page: what the cost limit counts
from schema.service import Created, Loaded, Rejected  # the schema's contract, implemented here

log = logging.getLogger("conclave.tables")
COMMIT_RETRIES = 50
SCAN = 200  # tables one page may read, filters or not
UNKNOWN_TOKEN = "unknown token: it holds no seat and hosts no table"


def content_unavailable(table_id: str | None, exc: ContentError) -> Rejected:
    """A content pack that cannot be loaded: the operator's log gets the details (files,
    fields), the client only that the table's content is unavailable."""
    log.warning("content pack unavailable", extra={"table": table_id, "error": exc.message})
    what = "this table's content pack" if table_id else "that content pack"
    return Rejected("CONTENT_UNAVAILABLE", f"{what} cannot be loaded now (the server's log says why)")


def clean_name(name: str, limit: int) -> str:
    """A player's or campaign's name, cut to `limit` characters; control characters (a NUL
    byte cannot even be stored in PostgreSQL text) are refused."""
    if not isinstance(name, str):
        raise Rejected("BAD_NAME", "a name must be text")
    name = name[:limit]
    if any(ch < " " or "\x7f" <= ch < "\xa0" for ch in name):
        raise Rejected("BAD_NAME", "a name may not contain control characters")
    return name


def is_storable_id(value: str) -> bool:
    """Whether an id a client sent can be looked up at all: PostgreSQL refuses a NUL byte in
    a query parameter, so such an id names nothing."""
    return isinstance(value, str) and "\x00" not in value


SEAT_REFUSALS = {
    SeatRefused.TAKEN: ("SEAT_TAKEN", "{seat} of table {table} is taken"),  # {seat}: its name, "Seat 1"
    SeatRefused.RESERVED: ("SEAT_RESERVED", "{seat} of table {table} is reserved for an invitation"),
    SeatRefused.NOT_INVITED: ("BAD_JOIN_CODE", "that is neither the table's join code nor an invitation to "
                                               "{seat}"),
}


def save_campaign_session(session, save: CampaignSave) -> None:
    """Add one session's save to the archiving transaction (a seam for failure-injection tests)."""
    session.add(save)


encode = encode_msgpack


def now_ms() -> int:
    """The server's time for the clock (ms since the epoch): every process shares it."""
    return int(time.time() * 1000)


class Recent(OrderedDict):
    """A dict that forgets its least recently stored entries beyond `limit` (process caches
    must not grow with every table ever played)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


class TableService:
    """Per process it keeps, for each table it has touched, the newest state it has decoded
    and the table's metadata, and each token's owner (a token never changes hands). These
    caches only save reads: every commit is still a compare-and-set in the store, so a stale
    cache costs a retry, never a wrong write."""

    def __init__(self, registry: Registry, store: LiveStore, db: Database, settings: Settings) -> None:
        self.registry, self.store, self.db, self.settings = registry, store, db, settings
        self._cache: Recent = Recent(20_000)
        self._locks: Recent = Recent(20_000)
        # Commits in flight in this process: table id -> (version, future of its Loaded).
        # The store may announce a version before the committing request hears back from
        # it; local subscribers then wait for that request instead of reading the store.
        self._committing: dict[str, tuple[int, asyncio.Future]] = {}
        self._owners: Recent = Recent(200_000)
        # The newest log entry of each table (a new version replaces it): `canUndo` reads no store
        self._last_entries: Recent = Recent(20_000)  # table -> (version, [its log entry])
        self._feeds: dict[str, TableFeed] = {}  # tables with direct subscribers here (api/feeds.py)
        self._archive_retries: set[asyncio.Task] = set()
        # Told of every committed version and new table, on the request's path: each must only
        # take note and return (api/webhooks/dispatcher.py hands the work to a background task)
        self.listeners: list = []
        self.webhooks = None  # what the schema's webhook fields call (api/webhooks/registrations.py), set by the app
        self.archive_retry_seconds = 0.5  # the first retry's delay; it doubles up to a minute
        from api.limits import TokenBucket

        self._act_limit = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.quotas = CreationQuota(settings.creates_per_minute, settings.create_burst, settings.open_tables_per_address)

    # -- identity -----------------------------------------------------------------
    async def owner(self, token: str | None) -> tuple[str, int | None] | None:
        if not token:
            return None
        key = hash_token(token)
        found = self._owners.get(key)
        if found is None:
            found = await self.store.token_owner(key)
            if found is not None:
                self._owners[key] = found
        return found

    async def viewer_seat(self, table_id: str, token: str | None) -> int | None:
        """The seat whose secrets this token may see at this table (None: public view)."""
        owner = await self.owner(token)
        if owner and owner[0] == table_id:
            return owner[1]
        return None

    # -- reading ---------------------------------------------------------------------
    async def load(self, table_id: str, fresh: bool = True) -> Loaded:
        """The table at its newest version. With `fresh=False` a cached copy is good enough
        (the caller will compare-and-set, or only needs a recent view)."""
        cached = self._cache.get(table_id)
        if cached is not None:
            if not fresh:
                return cached
            version = await self.store.version(table_id)
            if version is None:
                self._cache.pop(table_id, None)
                raise Rejected("UNKNOWN_TABLE", f"no table {table_id[:40]!r}")
            if version == cached.version and len(cached.meta.get("seats", {})) >= cached.meta["players"]:
                return cached  # same version, seats all taken: nothing can differ
        snap = await self.store.load(table_id)
        if snap is None:
            raise Rejected("UNKNOWN_TABLE", f"no table {table_id[:40]!r}")
        meta = snap.meta
        rules = self.registry.rules_for(meta["game"], meta["modules"])
        stored_at = snap.version if snap.state_version is None else snap.state_version
        encoded = None
        entries = None
        if cached is not None and stored_at <= cached.version < snap.version:
            # newer versions came from elsewhere: our state plus their log entries, unless one
            # is an undo (it goes back before our copy; the store's snapshot is taken at it)
            entries = await self.store.entries(table_id, cached.version)
            if any(undo.is_undo(e["action"]) for e in entries):
                entries = None
        if cached is not None and cached.version == snap.version:
            state, version, encoded = cached.state, cached.version, cached.encoded
        elif entries is not None:
            state = cached.state if self._take_unshared(cached) else copy_state(cached.state)
            state, version = self._replay(rules, state, cached.version, entries)
        else:
            try:  # a table whose pack or saved format cannot load fails here, alone, with a typed answer
                state, migrated = rules.game.load_snapshot(snap.state)
                encoded = None if migrated else snap.state
                version = stored_at
                rules.hook.conclave_load_content(state=state)
                if stored_at < snap.version:
                    state, version = self._replay(rules, state, stored_at,
                                                  await self.store.entries(table_id, stored_at))
                    encoded = None
            except ContentError as exc:
                raise content_unavailable(table_id, exc) from None
            except StateFormatError as exc:
                log.error("table state unreadable", extra={"table": table_id, "error": exc.message})
                raise Rejected("STATE_FORMAT", "this table was saved in a format this server cannot read "
                                               "(the server's log says why)") from None
        loaded = Loaded(id=table_id, meta=meta, version=version, state=state, rules=rules, encoded=encoded)
        self._remember(loaded)
        return loaded

    @staticmethod
    def _replay(rules: Rules, state: TableState, version: int, entries: list[dict]) -> tuple[TableState, int]:
        """`state` (at `version`, the caller's own) brought forward by the log's entries after
        it, in place: the rules are deterministic, so the accepted actions give the same
        state their commits stored."""
        for entry in entries:
            if entry["version"] != version + 1:
                raise RuntimeError(f"the log jumps from version {version} to {entry['version']}")
            if undo.is_undo(entry["action"]):  # its commit stored a snapshot: no load starts before it
                raise RuntimeError(f"the log replays through the undo at version {version + 1}")
            state, _events = core.apply(rules, state, entry["seat"], core.to_action(entry["action"]), in_place=True,
                                        at=entry.get("at"))
            version += 1
        return state, version

    def cached(self, table_id: str) -> Loaded | None:
        """The newest state of the table this process holds, without asking the store."""
        return self._cache.get(table_id)

    def _take_unshared(self, loaded: Loaded) -> bool:
        """If this `Loaded` is the cached one and only the cache and the caller hold it and
        its state, take it out of the cache (out of readers' reach) and say so: the caller
        may then change its state in place instead of a copy.

        A copy costs more than the rules on a busy server (the state's bytes and objects are
        cold by the table's next action: 90 of 165 us per action in benchmarks/api_load.py),
        and most of the time nothing else holds the state between two actions. Anything that
        reads a table - a query or mutation response being completed, a subscription update
        being completed - holds its `Loaded` (GraphQL's `Table` wraps it), which CPython's
        reference count shows: then the caller copies as before. The count of the state
        itself guards against a holder of the bare state. Expected references: the cache's,
        the caller's variable, this parameter and `getrefcount`'s argument for the `Loaded`;
        its attribute and the argument for the state. (Counted so on CPython 3.11;
        tests/api/test_act_in_place.py fails on an interpreter that counts otherwise.)"""
        if (self._cache.get(loaded.id) is not loaded or sys.getrefcount(loaded) > 4
                or sys.getrefcount(loaded.state) > 2):
            return False
        del self._cache[loaded.id]
        return True

    def _remember(self, loaded: Loaded) -> None:
        cached = self._cache.get(loaded.id)
        if cached is None or cached.version <= loaded.version:
            self._cache[loaded.id] = loaded

    async def at_least(self, table_id: str, version: int) -> Loaded:
        """The table at `version` or newer, reading the store at most once per process however
        many subscribers ask at the same moment."""
        cached = self._cache.get(table_id)
        if cached is not None and cached.version >= version:
            return cached
        committing = self._committing.get(table_id)
        if committing is not None and committing[0] >= version:
            done = await asyncio.shield(committing[1])
            if done is not None:
                return done
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:
            cached = self._cache.get(table_id)
            if cached is not None and cached.version >= version:
                return cached
            return await self.load(table_id)

    async def tables_page(self, game: str | None = None, status: str | None = None, first: int = DEFAULT_PAGE,
                          after: str | None = None) -> tuple[list[Loaded], str | None]:
        """Up to `first` tables (at most `MAX_PAGE`) after the cursor `after`, in id order,
        and the cursor of the next page (None: no more). One page reads at most `SCAN`
        tables from the store: with a filter that skips many, a page can hold fewer tables
        than asked, with a cursor to go on. A listing is as fresh as this process's cache."""
        if not 1 <= first <= MAX_PAGE:
            raise Rejected("BAD_PAGE", f"first must be 1-{MAX_PAGE}, not {first}")
        out: list[Loaded] = []
        scanned, cursor = 0, after
        while len(out) < first and scanned < SCAN:
            filtered = game is not None or status is not None
            ids = await self.store.page_ids(cursor, SCAN - scanned if filtered else first - len(out))
            if not ids:
                return out, None
            for tid in ids:
                scanned += 1
                cursor = tid
                try:
                    t = await self.load(tid, fresh=False)
                except Rejected:
                    continue  # expired between the listing and the read
                if (game is None or t.meta["game"] == game) and (status is None or t.status == status):
                    out.append(t)
                    if len(out) == first:
                        break
        more = await self.store.page_ids(cursor, 1)
        return out, (cursor if more else None)

    async def log(self, table_id: str, after_version: int) -> list[dict]:
        return await self.store.entries(table_id, max(0, after_version))

    # -- creating and joining ------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def creating(self, address: str | None) -> AsyncIterator[Slot | None]:
        """Around creating a live table for a client `address` (None: not a client's, no
        quota): refused with QUOTA_EXCEEDED past the address's creation rate or its number
        of open tables (api/quotas.py); the caller puts the new table's id in the slot."""
        if address is None:
            yield None
            return
        try:
            slot = await self.quotas.reserve(address, self._is_open, self._seen_closed)
        except QuotaExceeded as exc:
            METRICS.rejections.labels("QUOTA_EXCEEDED").inc()
            raise Rejected("QUOTA_EXCEEDED", str(exc)) from None
        try:
            yield slot
        finally:
            if slot.table_id is None:  # refused or failed: nothing was opened
                self.quotas.release(address, slot)

    def _seen_closed(self, table_id: str) -> bool:
        cached = self._cache.get(table_id)
        return cached is not None and cached.status != "open"

    async def _is_open(self, table_id: str) -> bool:
        try:
            return (await self.load(table_id)).status == "open"
        except Rejected:
            return False  # expired

    async def create_table(self, game: str, players: int, seed: int | None = None, modules: list[str] | None = None,
                           options: dict | None = None, campaign_id: str | None = None) -> Created:
        self._check_chosen_seed(seed)
        if campaign_id is not None:
            return await self.start_next_game(campaign_id, seed, game=game)
        if game in self.registry.games and self.registry.game(game).campaign_only:
            # a legacy game is always part of a campaign: one table alone starts a new one
            started = await self.create_campaign(game, players, modules=modules, options=options)
            return await self.start_next_game(started.id, seed)
        return await self._new_table(game, players, seed, modules, options)

    def _check_chosen_seed(self, seed: int | None) -> None:
        """A seed the client chose is refused unless the server allows chosen seeds (tests and
        tournaments), and must fit what is stored and replayed."""
        if seed is None:
            return
        if not self.settings.allow_chosen_seeds:
            raise Rejected("SEED_NOT_ALLOWED", "this server draws every table's seed itself; a chosen seed "
                                               "needs CONCLAVE_ALLOW_CHOSEN_SEEDS=1 (tests and tournaments)")
        problem = seed_problem(seed)
        if problem:
            raise Rejected("BAD_SEED", problem)

    async def _new_table(self, game, players, seed, modules, options, campaign_id=None, campaign=None):
        chosen = seed is not None  # checked by the public entry points (_check_chosen_seed)
        seed = seed if chosen else draw_seed()
        try:
            table = core.create_table(game, players, seed=seed, modules=modules, options=options,
                                      registry=self.registry, campaign=campaign)
        except ContentError as exc:  # a registered pack that is broken: its files are not the client's
            raise content_unavailable(None, exc) from None
        except ConclaveError as exc:
            raise Rejected(exc.code, exc.message) from None
        table_id = uuid.uuid4().hex[:12]
        host_token, join_code = new_token(), new_code()
        meta = {
            "game": game, "players": players, "seed": seed,
            "seed_chosen": chosen, "modules": sorted(modules or []),
            "options": dict(options or {}), "campaign_id": campaign_id, "campaign_at_start": campaign,
            "host_token_hash": hash_token(host_token), "join_code_hash": hash_token(join_code), "created": time.time(),
            "warnings": list(table.warnings),
        }
        await self.store.create(table_id, meta, encode(table.state))
        METRICS.tables_created.inc()
        log.info("table created", extra={"table": table_id, "version": 0, "game": game})
        loaded = await self.load(table_id)
        for listener in self.listeners:
            listener.table_created(loaded)
        return Created(loaded, host_token, join_code)

    async def join(self, table_id: str, seat: int, name: str, code: str | None) -> tuple[str, Loaded]:
        """Take a seat with the table's join code (a seat nobody reserved) or with that seat's
        invitation (`invite`)."""
        loaded = await self.load(table_id)
        name = clean_name(name, 64)
        if not 0 <= seat < loaded.meta["players"]:
            raise Rejected("UNKNOWN_SEAT", f"table {table_id}: {no_such_seat(seat, loaded.meta['players'])}")
        if not code:
            raise Rejected("BAD_JOIN_CODE", "taking a seat needs the table's join code or an invitation (code)")
        code_hash = hash_token(code)
        token = new_token()
        record = {"name": name, "token_hash": hash_token(token)}
        invitation = None if code_hash == loaded.meta.get("join_code_hash") else code_hash
        claimed = await self.store.claim_seat(table_id, seat, record, invitation)
        if isinstance(claimed, SeatRefused):
            reason, message = SEAT_REFUSALS[claimed]
            raise Rejected(reason, message.format(seat=seat_name(seat), table=table_id))
        self._owners[record["token_hash"]] = (table_id, seat)
        log.info("seat joined", extra={"table": table_id, "seat": seat})
        if claimed.version != loaded.version:  # the table moved meanwhile: read it whole
            self._cache.pop(table_id, None)
            return token, await self._start_clock(await self.load(table_id))
        joined = dataclasses.replace(loaded, meta=dict(loaded.meta, seats=claimed.seats))  # only the seats changed
        self._remember(joined)
        return token, await self._start_clock(joined)

    async def invite(self, table_id: str, token: str | None, seat: int) -> str:
        """The host reserves a free seat: the code returned (shown once) takes that seat and
        no other, and the table's join code no longer takes it. Inviting a seat again
        replaces its earlier invitation."""
        loaded = await self.load(table_id, fresh=False)
        owner = await self.owner(token)
        if owner is None:
            raise Rejected("UNAUTHORIZED", "inviting needs the table's host token (Authorization: Bearer …)")
        if owner != (table_id, None):
            raise Rejected("FORBIDDEN", "only this table's host token reserves its seats")
        if not 0 <= seat < loaded.meta["players"]:
            raise Rejected("UNKNOWN_SEAT", f"table {table_id}: {no_such_seat(seat, loaded.meta['players'])}")
        code = new_code()
        if not await self.store.reserve_seat(table_id, seat, hash_token(code)):
            raise Rejected("SEAT_TAKEN", f"{seat_name(seat)} of table {table_id} is taken")
        log.info("seat reserved", extra={"table": table_id, "seat": seat})
        return code

    # -- acting -------------------------------------------------------------------------
    async def act(self, table_id: str, token: str | None, action: dict,
                  expected_version: int | None = None) -> Loaded:
        """The table after the token's seat played `action`; a refusal is counted by its code."""
        try:
            return await self._act(table_id, token, action, expected_version)
        except Rejected as exc:
            METRICS.rejections.labels(exc.code).inc()
            raise

    async def _act(self, table_id: str, token: str | None, action: dict, expected_version: int | None) -> Loaded:
        started = time.perf_counter()
        loaded = await self.load(table_id, fresh=False)  # an unknown table says so, whoever asks
        owner = await self.owner(token)
        if owner is None:
            if token:
                raise Rejected("UNAUTHORIZED", UNKNOWN_TOKEN)
            raise Rejected("UNAUTHORIZED", "acting needs a seat token (Authorization: Bearer …)")
        if owner[0] != table_id or owner[1] is None:
            raise Rejected("FORBIDDEN", "this token does not hold a seat at this table")
        if not self._act_limit.allow(token):  # also over WebSocket, where the HTTP limit does not reach
            METRICS.rate_limited.inc()
            raise Rejected("RATE_LIMITED", "too many actions from this seat; slow down")
        seat = owner[1]
        try:
            act = core.to_action(action)
        except ActionRejected as exc:
            raise Rejected(exc.code, exc.message) from None
        if act.type in clock.SERVER_ONLY:
            raise Rejected("NOT_LEGAL_NOW", f"{act.type!r} is the server's own table action: a seat may only "
                                            "'resume' (take its seat back from the bot)")
        if undo.is_undo(act):
            return await self._take_back(table_id, seat, started, expected_version)
        if expected_version is not None and loaded.version != expected_version:
            loaded = await self.load(table_id)  # our copy may be behind: ask the store
        for _attempt in range(COMMIT_RETRIES):
            if expected_version is not None and loaded.version != expected_version:
                raise Rejected("STALE_VERSION", f"table is at version {loaded.version}, not {expected_version}")
            cached = loaded is self._cache.get(table_id)
            owned = cached and self._take_unshared(loaded)  # the working copy, unseen until committed
            try:
                at = now_ms()
                drawn_from = (loaded.state.seed, loaded.state.rng)  # (read before the rules may change it in place)
                new_state, events = core.apply(loaded.rules, loaded.state, seat, act, loaded.encoded, in_place=owned,
                                               at=at)
            except BaseException as exc:
                if owned and loaded.encoded is not None:  # the rules may have begun changing it
                    loaded = dataclasses.replace(loaded, state=decode_msgpack(loaded.encoded, type(loaded.state)))
                    self._remember(loaded)  # (without its bytes, the next read rebuilds it from the store)
                if not isinstance(exc, ActionRejected):
                    raise
                if cached:
                    fresh = await self.load(table_id)  # judged on a stale copy? judge again
                    if fresh.version != loaded.version:
                        loaded = fresh
                        continue
                raise Rejected(exc.code, exc.message) from None
            chance = drawn_from != (new_state.seed, new_state.rng)
            done = await self._commit(loaded, seat, act, new_state, events, started, at=at, chance=chance)
            if done is not None:
                return done
            if expected_version is not None:
                raise Rejected("STALE_VERSION", f"table moved past version {expected_version}")
            loaded = await self.load(table_id)  # lost the race: apply again on the newest state
        raise Rejected("CONFLICT", "too many concurrent changes; try again")

    async def _commit(self, loaded: Loaded, seat: int, act: core.Action, new_state: TableState, events: list,
                      started: float, snapshot: bool = False, at: int | None = None, bot: bool = False,
                      chance: bool = False) -> Loaded | None:
        """Store `act` and the state it made as the table's next version (compare-and-set);
        None when another commit took that version first. `snapshot`: store the state's bytes
        whatever `snapshot_every` says. `at`: the server's time it was applied with (the
        clock's); `bot`: a server-side bot played it for an absent seat."""
        table_id = loaded.id
        version = loaded.version + 1
        entry = {"version": version, "seat": seat, "action": msgspec.to_builtins(act),
                 "events": msgspec.to_builtins(events), "finished": new_state.finished}
        if at is not None and clock.account(new_state) is not None:  # (only a clock reads it: no bytes else)
            entry["at"] = at
        if bot:
            entry["bot"] = True
        if chance:  # it drew randomness: `canUndo` reads it here (core.undo.quick_refusal)
            entry["chance"] = True
        wanted = snapshot or new_state.finished or version % self.store.snapshot_every == 0
        encoded = encode(new_state) if wanted else None
        done = Loaded(id=table_id, meta=loaded.meta, version=version, state=new_state, rules=loaded.rules,
                      encoded=encoded)
        announced = asyncio.get_running_loop().create_future()
        self._committing[table_id] = (version, announced)
        committed = False
        try:
            committed = await self.store.commit(table_id, loaded.version, encoded or b"", entry, new_state.finished)
        finally:
            if self._committing.get(table_id, (None, None))[1] is announced:
                del self._committing[table_id]
            announced.set_result(done if committed else None)
        if not committed:
            return None
        self._last_entries[table_id] = (version, [entry])
        self._remember(done)
        if clock.account(new_state) is not None:
            await self.store.set_due(table_id, referee.due_at(new_state))
        for listener in self.listeners:
            listener.committed(done)
        METRICS.act_latency.observe(time.perf_counter() - started)
        METRICS.actions.inc()
        log.debug("action", extra={"table": table_id, "version": version, "seat": seat, "type": act.type})
        if new_state.finished:
            await self._archive_committed(done)
        return done

    # -- the clock (core/clock.py, api/referee.py) -----------------------------------------
    async def referee_turn(self, table_id: str) -> None:
        """What the clock decided for one due table: the timeouts of seats out of time, then
        the bot's answers for away seats (each a compare-and-set commit: exactly once)."""
        started = time.perf_counter()
        latest = None
        try:
            for _move in range(referee.BOT_MOVES_PER_TURN):
                latest = await self.load(table_id)
                state, at = latest.state, now_ms()
                out_of_time = clock.expired(state, at)
                waiting = clock.waiting_for_bot(state)
                if out_of_time:
                    seat, act, bot = out_of_time[0], core.Action(type=clock.TIMEOUT), False
                elif waiting:
                    seat, act, bot = waiting[0], referee.bot_choice(state, waiting[0], latest.rules, table_id), True
                else:
                    break
                if act is None:
                    break
                try:
                    new_state, events = core.apply(latest.rules, state, seat, act, latest.encoded, at=at)
                except ActionRejected:  # judged on a copy that is already stale: judge again
                    continue
                if await self._commit(latest, seat, act, new_state, events, started, at=at, bot=bot) is not None:
                    log.info("referee", extra={"table": table_id, "seat": seat, "type": act.type, "bot": bot})
        except Exception:
            await self.store.set_due(table_id, now_ms() + 1000)  # look again soon, whatever failed
            raise
        newest = self.cached(table_id) or latest
        if newest is not None:
            await self.store.set_due(table_id, referee.due_at(newest.state))

    async def mark_away(self, table_id: str, token: str | None, seat: int) -> Loaded:
        """The host marks a seat absent: a bot plays for it, or the game skips it (`core.absence`),
        until its player resumes."""
        loaded = await self.load(table_id)
        owner = await self.owner(token)
        if owner != (table_id, None):
            raise Rejected("FORBIDDEN", "only this table's host token marks a seat absent")
        if not 0 <= seat < loaded.meta["players"]:
            raise Rejected("UNKNOWN_SEAT", f"table {table_id}: {no_such_seat(seat, loaded.meta['players'])}")
        return await self._table_action(table_id, seat, clock.AWAY)

    async def _table_action(self, table_id: str, seat: int, kind: str) -> Loaded:
        started = time.perf_counter()
        for _attempt in range(COMMIT_RETRIES):
            loaded = await self.load(table_id)
            at = now_ms()
            try:
                new_state, events = core.apply(loaded.rules, loaded.state, seat, core.Action(type=kind), at=at)
            except ActionRejected as exc:
                raise Rejected(exc.code, exc.message) from None
            done = await self._commit(loaded, seat, core.Action(type=kind), new_state, events, started, at=at)
            if done is not None:
                return done
        raise Rejected("CONFLICT", "too many concurrent changes; try again")

    async def _start_clock(self, loaded: Loaded) -> Loaded:
        """Every seat is taken: the table's clock starts (a logged table action)."""
        account = clock.account(loaded.state)
        if account is None or account["started"] or len(loaded.meta.get("seats", {})) < loaded.meta["players"]:
            return loaded
        try:
            return await self._table_action(loaded.id, 0, clock.START)
        except Rejected:  # another process started it first
            return await self.load(loaded.id)

    # -- taking back (core.undo) ---------------------------------------------------------
    async def _take_back(self, table_id: str, seat: int, started: float, expected_version: int | None) -> Loaded:
        """`seat` undoes its own last action, as `core.undo` allows; a refusal keeps its code."""
        for _attempt in range(COMMIT_RETRIES):
            loaded = await self.load(table_id)
            if expected_version is not None and loaded.version != expected_version:
                raise Rejected("STALE_VERSION", f"table is at version {loaded.version}, not {expected_version}")
            refused, before, last = await self._undo_check(loaded, seat)
            if refused is not None:
                raise Rejected(refused.code, refused.message)
            new_state, events = undo.restore(before, loaded.state, seat, last)
            done = await self._commit(loaded, seat, core.Action(type=undo.UNDO), new_state, events, started,
                                      snapshot=True, at=now_ms())  # (a load never replays through an undo)
            if done is not None:
                return done
        raise Rejected("CONFLICT", "too many concurrent changes; try again")

    async def undo_refusal(self, loaded: Loaded, seat: int | None) -> str | None:
        """Why `seat` may not take back its last action at this version (a code), or None: it
        may ask. Judged from the last log entry alone (`core.undo.quick_refusal`): it is read
        with every table a client fetches, subscription updates included."""
        if seat is None:
            return undo.UNDO_NOT_YOURS
        refused = undo.quick_refusal(loaded.state, seat, await self._last_action(loaded))
        return None if refused is None else refused.code

    async def _undo_check(self, loaded: Loaded, seat: int):
        """(refusal or None, the state before the last action, that action) at `loaded`'s
        version; the earlier state is rebuilt only when the last entry alone refuses nothing."""
        last = await self._last_action(loaded)
        quick = undo.quick_refusal(loaded.state, seat, last)
        if quick is not None:
            return quick, None, last
        before = await self._state_before(loaded)
        return undo.refusal(loaded.rules, before, loaded.state, seat, last), before, last

    async def _last_action(self, loaded: Loaded):
        """The log's entry at `loaded`'s version (`core.undo.LastAction`), None at version 0."""
        if loaded.version == 0:
            return None
        known = self._last_entries.get(loaded.id)
        if known is None or known[0] != loaded.version:  # (a commit here notes its entry: no read for it)
            newer = await self.store.entries(loaded.id, loaded.version - 1)  # (later ones too, if any)
            known = (loaded.version, [e for e in newer if e["version"] == loaded.version])
            self._last_entries[loaded.id] = known
        return take_back.last_action(known[1], loaded.version)

    async def _state_before(self, loaded: Loaded) -> TableState:
        """The table's state one version before `loaded`'s (see api/take_back.py)."""
        rules, target = loaded.rules, loaded.version - 1
        snap = await self.store.load(loaded.id)
        stored_at = snap.version if snap.state_version is None else snap.state_version
        if stored_at <= target:
            state, _migrated = rules.game.load_snapshot(snap.state)
            rules.hook.conclave_load_content(state=state)
            entries = [e for e in await self.store.entries(loaded.id, stored_at) if e["version"] <= target]
            state, _version = self._replay(rules, state, stored_at, entries)
            return state
        entries = [e for e in await self.store.entries(loaded.id, 0) if e["version"] <= target]
        return take_back.from_creation(loaded.meta, self.registry, entries)

    async def archive(self, loaded: Loaded) -> None:
        """A finished table goes to SQL with its whole action log and, for a campaign game, the
        campaign's new saved state: one transaction, so a failure half-way leaves the last
        complete save. Then the table expires from Redis."""
        started = time.perf_counter()
        entries = await self.store.entries(loaded.id, 0)
        meta = loaded.meta
        rules = loaded.rules

        def write(s):
            if s.get(GameRecord, loaded.id) is not None:
                return
            s.add(GameRecord(id=loaded.id, game=meta["game"], modules=meta["modules"], players=meta["players"],
                             seed=meta["seed"], options=meta["options"], result=loaded.state.result,
                             seed_commitment=commitment(loaded.id, meta["seed"]),
                             seed_chosen=bool(meta.get("seed_chosen", False)),
                             campaign_at_start=meta.get("campaign_at_start"),
                             campaign_id=meta.get("campaign_id"), version=loaded.version, finished_at=now()))
            s.flush()  # the record before its actions (PostgreSQL checks the foreign key)
            if entries:  # one executemany: 5x cheaper than an ORM object per action (3 against 13 ms a game)
                s.execute(insert(GameAction), [{"game_id": loaded.id, "version": e["version"], "seat": e["seat"],
                                                "action": e["action"], "at": e.get("at")} for e in entries])
            if meta.get("campaign_id"):
                campaign = s.get(Campaign, meta["campaign_id"])
                saved = copy.deepcopy(campaign.state)
                rules.hook.conclave_campaign_save(state=loaded.state, campaign=saved)
                campaign.state = saved
                campaign.sessions += 1
                campaign.save_error = ""  # saved: whatever failed before is fixed
                if rules.hook.conclave_campaign_over(game=campaign.game, campaign=saved):
                    campaign.status = "finished"
                s.add(campaign)
                save_campaign_session(s, CampaignSave(campaign_id=campaign.id, session=campaign.sessions,
                                                      table_id=loaded.id, state=saved))

        await self.db.write(write)
        await self.store.expire(loaded.id, self.settings.finished_ttl_seconds)
        self._locks.pop(loaded.id, None)
        seconds = time.perf_counter() - started
        METRICS.archive_seconds.observe(seconds)
        log.info("table archived", extra={"table": loaded.id, "version": loaded.version, "seconds": round(seconds, 4)})

    async def _archive_committed(self, loaded: Loaded) -> Outcome:
        """Archive a table whose final action is committed. That action is accepted whatever
        happens here, so a failed archive does not fail the request: it is logged, counted
        and, when retrying can help, retried in the background with a growing delay (and
        again at the next start-up, by `archive_pending`, should this process stop first).
        A failure retrying cannot fix is given up (`_give_up`). Returns the first try's outcome."""
        outcome = await self._archive_once(loaded)
        if outcome is not Outcome.RETRY:
            return outcome

        async def retry() -> None:
            delay = self.archive_retry_seconds
            while True:
                await asyncio.sleep(delay)
                if await self._archive_once(loaded) is not Outcome.RETRY:
                    return
                delay = min(delay * 2, 60.0)

        task = asyncio.create_task(retry())
        self._archive_retries.add(task)  # held: the loop keeps only weak references to tasks
        task.add_done_callback(self._archive_retries.discard)
        return outcome

    async def _archive_once(self, loaded: Loaded) -> Outcome:
        """One attempt; a failure is counted and logged, and said to be worth a retry or not."""
        try:
            await self.archive(loaded)
            return Outcome.ARCHIVED
        except Exception as exc:
            METRICS.archive_failures.inc()
            if is_permanent(exc):
                await self._give_up(loaded, exc)
                return Outcome.FAILED
            log.exception("archiving failed; retrying in the background",
                          extra={"table": loaded.id, "version": loaded.version})
            return Outcome.RETRY

    async def _give_up(self, loaded: Loaded, exc: Exception) -> str:
        """A failure retrying cannot fix: counted by its kind, logged once with the driver's
        words, and recorded on the campaign (its status says why; startNextGame answers
        SAVE_FAILED). Returns the client-safe reason."""
        why = f"the save of table {loaded.id} failed ({failure_reason(exc)}); an operator must fix the cause, " \
              "then the server tries again when it starts"
        METRICS.archive_given_up.labels(type(exc).__name__).inc()
        log.error("archiving failed for a reason retrying cannot fix; not retried until the next start-up",
                  extra={"table": loaded.id, "version": loaded.version, "error": type(exc).__name__,
                         "detail": detail(exc)})
        campaign_id = loaded.meta.get("campaign_id")
        if campaign_id:
            def write(s):
                row = s.get(Campaign, campaign_id)
                if row is not None:
                    row.save_error = why
                    s.add(row)

            try:
                await self.db.write(write)
            except Exception as record_exc:  # noqa: BLE001 - the startNextGame check will find it again
                log.warning("could not record the failed save on its campaign",
                            extra={"campaign": campaign_id, "error": type(record_exc).__name__})
        return why

    async def close(self) -> None:
        """Stop the background archive retries (the next start-up's `archive_pending` takes
        over the tables they were for)."""
        for task in list(self._archive_retries):
            task.cancel()
        await asyncio.gather(*self._archive_retries, return_exceptions=True)

    async def _archived(self, table_id: str) -> bool:
        """Whether the table's game record is in SQL."""
        return await self.db.read(lambda s: s.get(GameRecord, table_id)) is not None

    async def archive_pending(self) -> int:
        """Archive finished tables whose archiving did not complete (a crash, a database
        outage): run at start-up. Returns how many were archived now. It also sets the
        referee's deadline of every clocked table again (an embedded store keeps none over a
        restart)."""
        done = 0
        for tid in await self.store.table_ids():
            try:
                loaded = await self.load(tid)
            except Rejected as exc:  # gone meanwhile, or its content cannot load: the others go on
                if exc.code != "UNKNOWN_TABLE":
                    log.warning("table skipped at start-up", extra={"table": tid, "code": exc.code})
                continue
            if clock.account(loaded.state) is not None:
                await self.store.set_due(tid, referee.due_at(loaded.state))
            if loaded.state.finished and not await self._archived(tid):
                # once each start-up, even after a permanent failure (its cause may be fixed now)
                if await self._archive_committed(loaded) is Outcome.ARCHIVED:
                    done += 1
        return done

    # -- campaigns ---------------------------------------------------------------------------
    async def create_campaign(self, game: str, players: int, name: str = "", modules: list[str] | None = None,
                              options: dict | None = None) -> Campaign:
        modules = [] if modules is None else modules
        options = {} if options is None else options
        name = clean_name(name, 100)
        from core.state import Seat

        try:  # the game's own campaign checks (e.g. its Characters) are input checks too
            self.registry.check_table(game, modules, players, options)
            rules = self.registry.rules_for(game, modules)
            state = rules.hook.conclave_campaign_new(game=game, seats=[Seat(index=i) for i in range(players)],
                                                     options=dict(options))
        except ConclaveError as exc:
            raise Rejected(exc.code, exc.message) from None
        if state is None:
            raise Rejected("NO_CAMPAIGN", f"{game} is not played as a campaign")
        campaign = Campaign(id=uuid.uuid4().hex[:12], game=game, name=name, players=players,
                            modules=sorted(modules), options=dict(options), state=state)

        def write(s):
            s.add(campaign)

        await self.db.write(write)
        log.info("campaign created", extra={"campaign": campaign.id, "game": game})
        return campaign

    async def start_next_game(self, campaign_id: str, seed: int | None = None,
                              game: str | None = None, modules: list[str] | None = None) -> Created:
        self._check_chosen_seed(seed)
        found = await self.campaign(campaign_id)
        if found is None:
            raise Rejected("UNKNOWN_CAMPAIGN", f"no campaign {campaign_id[:40]!r}")
        if await self._settle_campaign_tables(campaign_id, found[0].save_error):
            found = await self.campaign(campaign_id)  # with the save just written
        campaign, games = found
        if game is not None and game != campaign.game:
            raise Rejected("WRONG_GAME", f"campaign {campaign_id} plays {campaign.game}, not {game}")
        if campaign.status == "finished":
            raise Rejected("CAMPAIGN_OVER", f"campaign {campaign_id} has ended")
        if modules is not None and sorted(modules) != campaign.modules:
            if campaign.sessions:  # e.g. QD-067: Age of Disorder only when the campaign starts
                raise Rejected("MODULES_LOCKED", f"campaign {campaign_id} has played {campaign.sessions} game(s): its "
                                                 f"modules ({', '.join(campaign.modules) or 'none'}) can no longer change")
            await self._set_campaign_modules(campaign, sorted(modules))
        return await self._new_table(campaign.game, campaign.players, seed, campaign.modules, campaign.options,
                                     campaign_id=campaign_id, campaign=copy.deepcopy(campaign.state))

    async def _settle_campaign_tables(self, campaign_id: str, save_error: str = "") -> bool:
        """Before a campaign's next game: none of its games may still be in progress, and each
        finished one must be saved, else the next would start from an older save. A finished
        game whose archive failed (and waits for its retry) is archived now. True if one was.
        A save that failed for a reason retrying cannot fix (`save_error`, or found now) is
        SAVE_FAILED with that reason, not tried again here."""
        archived = False
        for tid in await self.store.table_ids():
            try:
                t = await self.load(tid, fresh=False)
            except Rejected:
                continue
            if t.meta.get("campaign_id") != campaign_id:
                continue
            if not t.state.finished:
                raise Rejected("GAME_IN_PROGRESS", f"campaign {campaign_id} has a game in progress: {tid}")
            if not await self._archived(tid):
                if save_error:
                    raise Rejected("SAVE_FAILED", save_error)
                try:
                    await self.archive(t)
                except Exception as exc:
                    if is_permanent(exc):
                        METRICS.archive_failures.inc()
                        raise Rejected("SAVE_FAILED", await self._give_up(t, exc)) from None
                    log.warning("campaign save still failing", extra={"table": tid, "error": type(exc).__name__})
                    raise Rejected("SAVE_PENDING", f"the save of campaign {campaign_id}'s last game ({tid}) has "
                                                   "not been written yet; try again shortly") from None
                archived = True
        return archived

    async def _set_campaign_modules(self, campaign: Campaign, modules: list[str]) -> None:
        try:
            self.registry.check_table(campaign.game, modules, campaign.players, dict(campaign.options))
        except ConclaveError as exc:
            raise Rejected(exc.code, exc.message) from None

        def write(s):
            row = s.get(Campaign, campaign.id)
            row.modules = modules
            s.add(row)

        await self.db.write(write)
        campaign.modules = modules

    def standings(self, campaign: Campaign) -> list:
        rules = self.registry.rules_for(campaign.game, campaign.modules)
        return rules.hook.conclave_campaign_standings(game=campaign.game, campaign=campaign.state) or []

    async def campaign(self, campaign_id: str):
        """(Campaign row, ids of its games) or None."""
        from sqlmodel import select

        if not is_storable_id(campaign_id):
            return None

        def read(s):
            c = s.get(Campaign, campaign_id)
            if c is None:
                return None
            games = [g.id for g in s.exec(select(GameRecord).where(GameRecord.campaign_id == campaign_id)
                                          .order_by(GameRecord.created_at))]
            return c, games

        return await self.db.read(read)

    # -- following -------------------------------------------------------------------------
    async def follow(self, table_id: str, after_version: int) -> AsyncIterator[dict]:
        """Every log entry after `after_version`, in order, then each new one as it lands.
        Entries come with the store's notification; on a gap the log is read."""
        await self.load(table_id, fresh=False)  # unknown table: Rejected before anything is yielded
        queue = await self.store.subscribe(table_id)  # subscribe first, then catch up: no hole
        METRICS.subscriptions.inc()
        last = max(0, after_version)
        try:
            backlog = await self.store.entries(table_id, last)
            while True:
                for entry in backlog:
                    if entry["version"] == last + 1:
                        last = entry["version"]
                        yield entry
                        if entry.get("finished"):
                            return  # the game is over: nothing more will come
                entry = await queue.get()
                if entry["version"] <= last:
                    backlog = []
                elif entry["version"] == last + 1:
                    backlog = [entry]
                else:  # a notification was missed: the log has everything
                    backlog = await self.store.entries(table_id, last)
        finally:
            METRICS.subscriptions.dec()
            await self.store.unsubscribe(table_id, queue)

    def updates(self, table_id: str, after_version: int,
                make_update: Callable[[dict, Loaded], object]) -> FeedSubscription:
        """The source of one `tableUpdates` subscription (api/feeds.py): iterated, it is
        `follow`; a WebSocket handler that writes synchronously runs it directly."""
        return FeedSubscription(self, table_id, after_version, make_update)

    async def attach_feed(self, table_id: str, subscriber: FeedSubscription) -> None:
        """Add a direct subscriber to the table's feed; returns once the store's notifications
        of the table reach the feed."""
        while True:
            feed = self._feeds.get(table_id)
            if feed is None:
                break
            try:
                await asyncio.shield(feed.ready)
            except Exception:  # noqa: BLE001 - its subscribing failed: subscribe anew (and fail on our own)
                continue
            if self._feeds.get(table_id) is feed:  # not closed meanwhile by its last subscriber leaving
                feed.subscribers.add(subscriber)
                return
        feed = self._feeds[table_id] = TableFeed(self, table_id)
        try:
            await self.store.subscribe(table_id, feed)
        except BaseException as exc:
            if self._feeds.get(table_id) is feed:
                del self._feeds[table_id]
            feed.ready.set_exception(exc if isinstance(exc, Exception) else ConnectionError("subscription cancelled"))
            feed.ready.exception()  # retrieved here; the subscribers waiting on it raise it
            raise
        feed.ready.set_result(None)
        feed.subscribers.add(subscriber)

    async def detach_feed(self, table_id: str, subscriber: FeedSubscription) -> None:
        feed = self._feeds.get(table_id)
        if feed is None or subscriber not in feed.subscribers:
            return
        feed.subscribers.discard(subscriber)
        if not feed.subscribers:
            del self._feeds[table_id]
            feed.close()
            await self.store.unsubscribe(table_id, feed)
