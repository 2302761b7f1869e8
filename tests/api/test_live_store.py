"""Live sessions: two servers on one Redis, reconnects with afterVersion, compare-and-set
under concurrency, and SIGKILL restarts in both modes."""
from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from api.live.base import SeatRefused
from tests.api.client import ACT, TABLE, create_and_join, http, run, sessions
from tests.api.conftest import server_factory, storage_env
from tests.api.services import Server
from tests.api.test_e2e_game import follow, play


def test_two_servers_share_one_redis_and_reconnects_miss_nothing(make_redis_server):
    a, b = make_redis_server(), make_redis_server()
    asyncio.run(_two_servers(a, b))


async def _two_servers(a: Server, b: Server):
    async with http(a.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 3, seed=11)
    on_b: list = []
    watcher = asyncio.create_task(follow(b.ws_url, table_id, None, 0, on_b))  # subscribes on B
    await asyncio.sleep(0.3)
    log: list = []
    await play(a.url, table_id, tokens, random.Random(3), log, max_actions=40)  # acts on A
    await _until(lambda: len(on_b) == 40)
    watcher.cancel()  # the subscriber disconnects mid-game...
    seen = [u["version"] for u in on_b]
    await play(b.url, table_id, tokens, random.Random(4), log, max_actions=90)  # play goes on, via B
    resumed: list = []  # ...and resubscribes (to A) from the last version it saw
    await asyncio.wait_for(follow(a.ws_url, table_id, None, seen[-1], resumed,
                                  stop=lambda u: u["version"] == 90), timeout=30)
    assert seen == list(range(1, 41))
    assert [u["version"] for u in resumed] == list(range(41, 91))  # every missed one, none twice


async def _until(cond, timeout=20):
    for _ in range(int(timeout / 0.05)):
        if cond():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


def test_concurrent_acts_one_wins_per_version_and_unversioned_acts_all_land(server):
    asyncio.run(_concurrency(server))


async def _concurrency(server: Server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 4, seed=5)
    async with sessions(server.url, tokens) as ss:
        legal = {s: (await run(ss[s], TABLE, t=table_id))["table"]["legalActions"] for s in range(4)}
        # 20 concurrent acts (5 per seat, each seat's draft pick) all expecting version 0
        calls = [run(ss[s], ACT, t=table_id, a=legal[s][i % 2], v=0) for s in range(4) for i in range(5)]
        results = [r["act"] for r in await asyncio.gather(*calls)]
        ok = [r for r in results if r["__typename"] == "ActOk"]
        assert len(ok) == 1 and ok[0]["version"] == 1
        assert all(r["code"] == "STALE_VERSION" for r in results if r["__typename"] == "ActRejected")
        # the remaining three seats pick at once without expectedVersion: the server retries
        waiting = [s for s in range(4) if (await run(ss[s], TABLE, t=table_id))["table"]["legalActions"]]
        assert len(waiting) == 3
        results = await asyncio.gather(*[run(ss[s], ACT, t=table_id, a=legal[s][0]) for s in waiting])
        assert sorted(r["act"]["version"] for r in results) == [2, 3, 4]
        log = (await run(ss[0], "query($t: String!) { table(id: $t) { version log { version seat } } }", t=table_id))
    entries = log["table"]["log"]
    assert [e["version"] for e in entries] == [1, 2, 3, 4]  # no gap, no duplicate
    assert sorted(e["seat"] for e in entries[1:]) == waiting and log["table"]["version"] == 4


def test_sigkill_mid_game_then_restart_continues_from_the_last_acknowledged_version(server):
    asyncio.run(_sigkill(server))


async def _sigkill(server: Server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=9)
    log: list = []
    await play(server.url, table_id, tokens, random.Random(1), log, max_actions=30)
    last_ack = log[-1][0]
    server.kill()  # SIGKILL: no shutdown hook runs
    server.start()
    async with http(server.url) as anon:
        t = (await run(anon, TABLE, t=table_id))["table"]
    assert t["version"] == last_ack == 30
    final = await play(server.url, table_id, tokens, random.Random(2), log)  # the same tokens still work
    assert final["status"] == "finished"
    assert [v for v, _, _ in log] == list(range(1, len(log) + 1))


def test_health_readiness_and_metrics(server):
    assert httpx.get(f"{server.base}/healthz").json() == {"ok": True}
    assert httpx.get(f"{server.base}/readyz").json()["ready"] is True
    asyncio.run(_some_actions(server))
    text = httpx.get(f"{server.base}/metrics").text
    for name in ("conclave_act_seconds_bucket", "conclave_actions_total", "conclave_live_tables",
                 "conclave_open_subscriptions", "conclave_redis_errors_total", "conclave_http_requests_total"):
        assert name in text, name
    def sample(prefix):
        return float(next(line for line in text.splitlines() if line.startswith(prefix)).split()[-1])

    assert sample("conclave_actions_total") >= 5
    assert sample('conclave_http_requests_total{path="/graphql",status="200"}') >= 10
    assert sample('conclave_http_requests_total{path="/healthz",status="200"}') >= 1


def test_structured_logs_carry_the_table_and_version_and_debug_adds_each_action(tmp_path):
    """One JSON object per line; table lifecycle at the default level, every accepted action
    (table, version, seat, type) with CONCLAVE_LOG_LEVEL=debug."""
    lines = {}
    for level in ("info", "debug"):
        (tmp_path / level).mkdir()
        with storage_env("embedded", tmp_path / level) as env, server_factory(env, tmp_path / level) as make:
            server = make(CONCLAVE_LOG_LEVEL=level)
            asyncio.run(_some_actions(server))
            server.stop()
            lines[level] = [json.loads(line) for line in server.log_path.read_text().splitlines()
                            if line.startswith("{")]
    for level, records in lines.items():
        created = [r for r in records if r["msg"] == "table created"]
        assert created and all(r["version"] == 0 and r["table"] and r["level"] == "info" for r in created), level
        assert any(r["msg"] == "seat joined" and r["table"] == created[0]["table"] for r in records), level
    actions = [r for r in lines["debug"] if r["msg"] == "action"]
    assert [r["version"] for r in actions] == [1, 2, 3, 4, 5]
    assert all(r["table"] == actions[0]["table"] and r["level"] == "debug" and "seat" in r and r["type"]
               for r in actions)
    assert not [r for r in lines["info"] if r["msg"] == "action"]


async def _some_actions(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=3)
    await play(server.url, table_id, tokens, random.Random(0), [], max_actions=5)


def test_a_finished_table_is_archived_to_sql_with_its_log_and_expires_from_redis(server, storage, mode):
    async def go():
        async with http(server.url) as anon:
            table_id, tokens = await create_and_join(anon, "new-capital", 2, seed=12)
        log: list = []
        final = await play(server.url, table_id, tokens, random.Random(12), log)
        return table_id, final, log

    table_id, final, log = asyncio.run(go())
    assert final["status"] == "finished"
    from sqlmodel import select

    from api.db import Database, GameAction, GameRecord

    db = Database(storage["DATABASE_URL"])
    record = db.get(GameRecord, table_id)
    assert record is not None and record.result == final["result"] and record.version == len(log)
    actions = db.all(select(GameAction).where(GameAction.game_id == table_id).order_by(GameAction.version))
    assert [(a.version, a.seat, a.action["type"], a.action.get("params", {})) for a in actions] == \
        [(v, seat, a["type"], a["params"]) for v, seat, a in log]
    if mode == "redis":
        import redis

        r = redis.Redis.from_url(storage["REDIS_URL"])
        prefix = storage["CONCLAVE_REDIS_PREFIX"]
        ttl = r.ttl(f"{prefix}:{{{table_id}}}:state")
        assert 0 < ttl <= 3600
        token_keys = [k for k in r.scan_iter(f"{prefix}:token:*")]
        assert token_keys and all(0 < r.ttl(k) <= 3600 for k in token_keys)  # tokens go with their table


def test_the_embedded_store_forgets_an_archived_table_after_its_ttl(tmp_path):
    """Embedded mode: a finished table is archived to SQL, then leaves memory and its
    checkpoint rows (the game record keeps the whole game)."""
    async def go():
        from sqlmodel import select

        from api.db import Database, GameRecord, LiveCheckpoint, LiveLogEntry
        from api.live.memory import MemoryStore
        from api.service import TableService
        from api.settings import Settings
        from core.bot import RandomBot
        from core.engine import Table
        from core.plugins import BUILTIN_PLUGINS, Registry

        db = Database(f"sqlite:///{tmp_path / 'ttl.sqlite3'}")
        svc = TableService(Registry(list(BUILTIN_PLUGINS), load_entry_points=False), MemoryStore(db), db,
                           Settings(finished_ttl_seconds=0, rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))
        loaded, _, code = await svc.create_table("new-capital", 2, seed=5)
        tokens = [(await svc.join(loaded.id, s, "p", code))[0] for s in range(2)]
        bot = RandomBot(5)
        while not loaded.state.finished:
            seat, action = bot.choose(Table(rules=loaded.rules, state=loaded.state))
            loaded = await svc.act(loaded.id, tokens[seat], {"type": action.type, "params": dict(action.params)})
        for _ in range(100):
            await asyncio.sleep(0.02)
            if loaded.id not in await svc.store.table_ids():
                break
        assert loaded.id not in await svc.store.table_ids()
        assert db.get(GameRecord, loaded.id) is not None and db.get(LiveCheckpoint, loaded.id) is None
        assert db.all(select(LiveLogEntry).where(LiveLogEntry.table_id == loaded.id)) == []
        assert await svc.store.token_owner(__import__("api.tokens").tokens.hash_token(tokens[0])) is None

    asyncio.run(go())


def test_redis_index_of_tables_forgets_expired_tables():
    """The set of live table ids does not grow with every table ever played."""
    import time
    import uuid

    from api.live.redis_store import RedisStore
    from tests.api.services import redis_available

    url = redis_available()

    async def go():
        store = RedisStore(url, prefix=f"ct-{uuid.uuid4().hex[:8]}")
        try:
            await store.create("t1", {"game": "x", "host_token_hash": "h1"}, b"state")
            await store.create("t2", {"game": "x"}, b"state")
            await store.expire("t1", 1)
            time.sleep(1.2)
            assert await store.table_ids() == ["t2"]
            assert await store.r.smembers(f"{store.prefix}:tables") == {b"t2"}
            assert await store.token_owner("h1") is None
        finally:
            keys = [k async for k in store.r.scan_iter(f"{store.prefix}:*")]
            if keys:
                await store.r.delete(*keys)
            await store.close()

    asyncio.run(go())


@pytest.mark.parametrize("kind", ["embedded", "redis"])
def test_taking_a_seat_indexes_its_token_and_a_refused_claim_leaves_no_index(tmp_path, kind):
    """Both stores: a claim indexes the seat's token with the seat, and answers with the
    table's version and every seat; a claim on a taken seat changes nothing and leaves no
    index entry for its token (the Redis store indexes first, then takes the seat)."""
    import uuid

    from api.db import Database
    from api.live.memory import MemoryStore
    from api.live.redis_store import RedisStore
    from tests.api.services import redis_available

    async def scenario():
        if kind == "embedded":
            store = MemoryStore(Database(f"sqlite:///{tmp_path / 'seats.sqlite3'}"))
        else:
            store = RedisStore(redis_available(), f"seats-{uuid.uuid4().hex[:8]}")
        await store.create("t1", {"game": "endless", "players": 2}, b"state")
        first = await store.claim_seat("t1", 0, {"name": "Ann", "token_hash": "h-ann"})
        refused = await store.claim_seat("t1", 0, {"name": "Bob", "token_hash": "h-bob"})
        second = await store.claim_seat("t1", 1, {"name": "Cy", "token_hash": "h-cy"})
        owners = [await store.token_owner(h) for h in ("h-ann", "h-bob", "h-cy")]
        seats = await store.seats("t1")
        await store.close()
        return first, refused, second, owners, seats

    first, refused, second, owners, seats = asyncio.run(scenario())
    assert (first.version, first.seats) == (0, {0: {"name": "Ann", "token_hash": "h-ann"}})
    assert refused is SeatRefused.TAKEN
    assert second.seats == seats == {0: {"name": "Ann", "token_hash": "h-ann"}, 1: {"name": "Cy", "token_hash": "h-cy"}}
    assert owners == [("t1", 0), None, ("t1", 1)]


@pytest.mark.parametrize("kind", ["embedded", "redis"])
def test_a_reserved_seat_is_taken_only_with_its_invitation_and_once(tmp_path, kind):
    """Both stores: a reservation keeps the seat from a claim without an invitation
    (`RESERVED`) and from another invitation's hash (`NOT_INVITED`); its own hash takes it and
    is used up; a taken seat cannot be reserved; in the embedded store a restart keeps the
    reservation."""
    import uuid

    from api.db import Database
    from api.live.memory import MemoryStore
    from api.live.redis_store import RedisStore
    from tests.api.services import redis_available

    url = f"sqlite:///{tmp_path / 'invites.sqlite3'}"
    prefix = f"invites-{uuid.uuid4().hex[:8]}"

    def open_store():
        return MemoryStore(Database(url)) if kind == "embedded" else RedisStore(redis_available(), prefix)

    async def scenario():
        store = open_store()
        await store.create("t1", {"game": "endless", "players": 2}, b"state")
        assert await store.reserve_seat("t1", 1, "inv-1")
        await store.close()
        store = open_store()  # the embedded store: a restart
        out = [await store.claim_seat("t1", 1, {"name": "Eve", "token_hash": "h-eve"}),
               await store.claim_seat("t1", 1, {"name": "Eve", "token_hash": "h-eve2"}, "inv-other"),
               await store.claim_seat("t1", 0, {"name": "Ann", "token_hash": "h-ann"}, "inv-1")]
        bea = await store.claim_seat("t1", 1, {"name": "Bea", "token_hash": "h-bea"}, "inv-1")
        out += [bea.seats, await store.claim_seat("t1", 1, {"name": "Cy", "token_hash": "h-cy"}, "inv-1"),
                await store.reserve_seat("t1", 1, "inv-2"), await store.token_owner("h-eve")]
        if kind == "redis":
            await store.r.delete(*[k async for k in store.r.scan_iter(f"{prefix}:*")])
        await store.close()
        return out

    reserved, other, wrong_seat, seats, again, reserve_taken, eve = asyncio.run(scenario())
    assert (reserved, other, wrong_seat) == (SeatRefused.RESERVED, SeatRefused.NOT_INVITED, SeatRefused.NOT_INVITED)
    assert seats == {1: {"name": "Bea", "token_hash": "h-bea"}}
    assert again is SeatRefused.NOT_INVITED  # used up
    assert reserve_taken is False and eve is None
