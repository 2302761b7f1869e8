"""Archiving a finished table to SQL: writes run on the event loop, never on threads of
their own, and a failed archive never fails the final action (it is accepted) but is
retried until it lands.

In process: one service on the embedded store and a SQLite file (PostgreSQL too, for where
writes run).
"""
from __future__ import annotations

import asyncio
import threading

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import select

from api.db import Campaign, Database, GameAction, GameRecord
from api.live.memory import MemoryStore
from api.metrics import METRICS
from api.service import TableService
from api.settings import Settings
from core.bot import RandomBot
from core.engine import Table
from core.plugins import BUILTIN_PLUGINS, Registry
from tests.api.services import database_url


class FlakyDatabase(Database):
    """Refuses the first `failures` archive writes, as a locked or unreachable database would."""

    failures = 0

    async def write(self, fn):
        if "archive" in fn.__qualname__ and self.failures:
            self.failures -= 1
            raise OperationalError("INSERT INTO game_records ...", {}, Exception("database is locked"))
        return await super().write(fn)


async def play_to_the_end(service: TableService, seed: int):
    loaded, _, code = await service.create_table("new-capital", 2, seed=seed)
    tokens = [(await service.join(loaded.id, s, "p", code))[0] for s in range(2)]
    bot = RandomBot(seed)
    while not loaded.state.finished:
        seat, action = bot.choose(Table(rules=loaded.rules, state=loaded.state))
        loaded = await service.act(loaded.id, tokens[seat], {"type": action.type, "params": dict(action.params)})
    return loaded


def test_a_failed_archive_does_not_fail_the_final_action_and_is_retried(tmp_path):
    db = FlakyDatabase(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    db.failures = 2
    service = TableService(Registry(list(BUILTIN_PLUGINS), load_entry_points=False), MemoryStore(db), db,
                           Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))
    service.archive_retry_seconds = 0.01
    failed_before = METRICS.archive_failures._value.get()

    async def scenario():
        final = await play_to_the_end(service, seed=7)  # the final act returns normally
        assert db.get(GameRecord, final.id) is None  # not archived yet
        for _ in range(200):
            await asyncio.sleep(0.01)
            if db.get(GameRecord, final.id) is not None:
                break
        return final

    final = asyncio.run(scenario())
    record = db.get(GameRecord, final.id)
    assert record is not None and record.version == final.version and record.result == final.state.result
    actions = db.all(select(GameAction).where(GameAction.game_id == final.id))
    assert sorted(a.version for a in actions) == list(range(1, final.version + 1))
    assert METRICS.archive_failures._value.get() - failed_before == 2


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sql_writes_run_on_the_event_loop_not_on_threads(tmp_path, backend):
    """No write runs on a thread of its own (api/db.py: under a busy loop a thread waits for
    the GIL after every call that releases it). 30 writes offered at once all land; on
    SQLite, which takes one writer at a time, one after another rather than racing each
    other for the file lock."""
    with database_url(backend, tmp_path) as url:
        db = Database(url)
        running, most, threads = [0], [0], set()

        def write(s, i):
            running[0] += 1
            most[0] = max(most[0], running[0])
            threads.add(threading.get_ident())
            s.add(Campaign(id=f"c{i:02d}", game="demo"))
            s.flush()  # a round trip: on PostgreSQL, other writes may run meanwhile
            running[0] -= 1
            return i

        async def offer():
            try:
                return await asyncio.gather(*(db.write(lambda s, i=i: write(s, i)) for i in range(30)))
            finally:
                await db.aclose()

        assert asyncio.run(offer()) == list(range(30))
        assert threads == {threading.get_ident()}
        assert sorted(c.id for c in db.all(select(Campaign))) == [f"c{i:02d}" for i in range(30)]
        if backend == "sqlite":
            assert most[0] == 1
        db.engine.dispose()
