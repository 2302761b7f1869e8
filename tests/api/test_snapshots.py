"""The live stores keep a table's state bytes every `snapshot_every` versions (and at the
end of the game); a process that reads the table rebuilds the newest state from that
snapshot and the log's entries since - exactly the state the committing process holds.

Against the real Redis: two services in one process stand for two server processes (each
its own store, connections and cache), one playing New Capital by bots, the other reading.
The embedded store: a restart (a new store on the same database) rebuilds the same way.
"""
from __future__ import annotations

import asyncio
import uuid

from api.db import Database, LiveCheckpoint
from api.live.memory import MemoryStore
from api.live.redis_store import RedisStore
from api.service import TableService
from api.settings import Settings
from core import default_registry, replay, to_action
from core.bot import RandomBot
from core.state import encode_msgpack
from tests.api.services import redis_available


UNLIMITED = Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True)


def services(tmp_path, url: str, prefix: str) -> list[TableService]:
    out = []
    for name in ("a", "b"):
        db = Database(f"sqlite:///{tmp_path / f'{name}.sqlite3'}")
        out.append(TableService(default_registry(), RedisStore(url, prefix), db, UNLIMITED))
    return out


async def play(service, tid, tokens, bot, log, table, n):
    """`n` of the bot's actions through `service`, each recorded in `log`; the newest table."""
    for _ in range(n):
        seat, action = bot.choose(table)
        table = await service.act(tid, tokens[seat], {"type": action.type, "params": action.params})
        log.append((seat, action))
    return table


def test_readers_rebuild_the_newest_state_from_the_snapshot_and_the_log(tmp_path):
    url = redis_available()
    a, b = services(tmp_path, url, f"snap-{uuid.uuid4().hex[:8]}")
    every = a.store.snapshot_every
    assert every > 1

    async def scenario():
        loaded, _, code = await a.create_table("new-capital", 3, seed=11)
        tid = loaded.id
        tokens = [(await a.join(tid, s, f"P{s}", code))[0] for s in range(3)]
        bot, log, table = RandomBot(seed=4), [], await a.load(tid)
        seen = []  # (version, stored state version, B's state equals A's)
        # B reads a version between two snapshots: snapshot + 3 entries
        table = await play(a, tid, tokens, bot, log, table, every + 3)
        snap = await b.store.load(tid)
        seen.append((snap.version, snap.state_version, encode_msgpack((await b.load(tid)).state)
                     == encode_msgpack(table.state)))
        for _ in range(5):  # B follows: its own state plus the new entries, snapshot or not
            table = await play(a, tid, tokens, bot, log, table, 1)
            seen.append((table.version, None, encode_msgpack((await b.load(tid)).state) == encode_msgpack(table.state)))
        # B acts on the newest version it rebuilt; A's next read brings its own state forward
        seat, action = bot.choose(await b.load(tid))
        by_b = await b.act(tid, tokens[seat], {"type": action.type, "params": action.params})
        log.append((seat, action))
        table = await a.load(tid)
        assert table.version == by_b.version and encode_msgpack(table.state) == encode_msgpack(by_b.state)
        while not table.state.finished:
            table = await play(a, tid, tokens, bot, log, table, 1)
        final = await b.store.load(tid)
        rebuilt = await b.load(tid)
        for s in (a, b):
            await s.store.close()
        return seen, log, table, final, rebuilt

    seen, log, table, final, rebuilt = asyncio.run(scenario())
    every = a.store.snapshot_every
    assert seen[0] == (every + 3, every, True)
    assert all(same for _, _, same in seen)
    assert final.state_version == final.version == table.version  # the end of the game is stored whole
    engine = replay("new-capital", 3, 11, [(s, to_action({"type": x.type, "params": x.params})) for s, x in log])
    assert encode_msgpack(rebuilt.state) == encode_msgpack(engine.state) == encode_msgpack(table.state)


def test_an_embedded_restart_rebuilds_the_newest_state_from_the_snapshot_and_the_log(tmp_path):
    url = f"sqlite:///{tmp_path / 'embedded.sqlite3'}"
    first = TableService(default_registry(), MemoryStore(Database(url)), Database(url), UNLIMITED)
    every = first.store.snapshot_every
    assert every > 1

    async def before_restart():
        loaded, _, code = await first.create_table("new-capital", 3, seed=12)
        tokens = [(await first.join(loaded.id, s, f"P{s}", code))[0] for s in range(3)]
        bot, log = RandomBot(seed=5), []
        table = await play(first, loaded.id, tokens, bot, log, await first.load(loaded.id), every * 2 + 5)
        return loaded.id, tokens, bot, log, table

    tid, tokens, bot, log, table = asyncio.run(before_restart())
    row = first.db.get(LiveCheckpoint, tid)
    assert (row.version, row.state_version) == (every * 2 + 5, every * 2)  # the state bytes of a snapshot

    async def after_restart():  # a new process: store, database and cache of its own
        second = TableService(default_registry(), MemoryStore(Database(url)), Database(url), UNLIMITED)
        rebuilt = await second.load(tid)
        same = encode_msgpack(rebuilt.state) == encode_msgpack(table.state)
        final = rebuilt
        while not final.state.finished:
            final = await play(second, tid, tokens, bot, log, final, 1)
        return rebuilt.version, same, final, second.db.get(LiveCheckpoint, tid)

    version, same, final, row = asyncio.run(after_restart())
    assert version == table.version and same
    assert row.state_version == row.version == final.version  # the end of the game is stored whole
    engine = replay("new-capital", 3, 12, [(s, to_action({"type": x.type, "params": x.params})) for s, x in log])
    assert encode_msgpack(final.state) == encode_msgpack(engine.state)
