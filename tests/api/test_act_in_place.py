"""`TableService.act` applies an action to the cached state itself when nothing else holds
it, and to a copy when anything does: a reader never sees a state change under it, and a
refused or failing action leaves the table as it was.

In process: one service on the embedded store, the test game `endless`.
"""
from __future__ import annotations

import asyncio

import pytest

import core
from api.db import Database
from api.live.memory import MemoryStore
from api.service import Rejected, TableService
from api.settings import Settings
from core.errors import BadParameter
from core.plugins import BUILTIN_PLUGINS, Registry
from core.state import encode_msgpack


@pytest.fixture
def world(tmp_path, monkeypatch):
    registry = Registry([*BUILTIN_PLUGINS, "tests.api.endless"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    service = TableService(registry, MemoryStore(db), db, Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))
    in_place: list[bool] = []
    original = core.apply

    def spying(*args, **kw):
        in_place.append(kw.get("in_place", False))
        return original(*args, **kw)

    monkeypatch.setattr(core, "apply", spying)
    return service, in_place


async def start(service):
    loaded, _, code = await service.create_table("endless", 2, seed=1)
    tokens = [(await service.join(loaded.id, s, f"P{s}", code))[0] for s in range(2)]
    return loaded.id, tokens


def tick(n=1):
    return {"type": "tick", "params": {"n": n}}


def test_unheld_state_is_changed_in_place_and_a_held_one_is_copied(world):
    service, in_place = world

    async def scenario():
        table_id, tokens = await start(service)
        await service.act(table_id, tokens[0], tick())  # the returned table is let go at once
        await service.act(table_id, tokens[1], tick())
        held = await service.load(table_id, fresh=False)  # a reader holds version 2
        before = encode_msgpack(held.state)
        after = await service.act(table_id, tokens[0], tick(2))
        return held, before, after, await service.load(table_id)

    held, before, after, now = asyncio.run(scenario())
    assert in_place == [True, True, False]
    assert held.version == 2 and encode_msgpack(held.state) == before  # the reader's table did not move
    assert after.version == now.version == 3 and now.state.ticks == held.state.ticks + 2


@pytest.mark.parametrize("snapshot_every", [1, 8], ids=["stored-bytes", "between-snapshots"])
def test_a_refusal_from_the_rules_midway_leaves_the_table_as_stored(world, monkeypatch, snapshot_every):
    """At a version whose bytes are stored, the table is restored from them; between two
    snapshots (no bytes), it is let go and the next read rebuilds it from the store."""
    service, in_place = world
    service.store.snapshot_every = snapshot_every

    async def scenario():
        table_id, tokens = await start(service)
        await service.act(table_id, tokens[0], tick())
        await service.act(table_id, tokens[1], tick())
        rules = (await service.load(table_id, fresh=False)).rules
        honest = rules.handlers["endless.tick"]

        def half_then_refuse(ctx, **kw):  # a tick of 2 changes the state, then refuses
            if kw["params"]["n"] != 2:
                return honest(ctx, **kw)  # (the log's ticks, when the table is rebuilt)
            ctx.state.ticks += 100
            ctx.state.prompts.clear()
            raise BadParameter("refused after changing the state")

        def half_then_crash(ctx, **kw):
            if kw["params"]["n"] != 2:
                return honest(ctx, **kw)
            ctx.state.ticks += 1000
            raise RuntimeError("a bug in the rules")

        stored = encode_msgpack((await service.load(table_id)).state)
        monkeypatch.setitem(rules.handlers, "endless.tick", half_then_refuse)
        # caught here, not by pytest.raises, whose record of the exception would keep the
        # act's frame - and so its table - alive: the next act would rightly copy
        try:
            await service.act(table_id, tokens[0], tick(2))
        except Rejected as exc:
            refused = exc.code
        monkeypatch.setitem(rules.handlers, "endless.tick", half_then_crash)
        try:
            await service.act(table_id, tokens[0], tick(2))
        except RuntimeError:
            pass
        else:
            raise AssertionError("the rules' bug was swallowed")
        cached = service.cached(table_id)
        cached = None if cached is None else (cached.version, encode_msgpack(cached.state))
        read = await service.load(table_id)
        read = (read.version, encode_msgpack(read.state))
        monkeypatch.setitem(rules.handlers, "endless.tick", honest)
        done = await service.act(table_id, tokens[0], tick())
        return stored, refused, cached, read, done

    stored, refused, cached, read, done = asyncio.run(scenario())
    assert refused == "BAD_PARAMETER"
    assert in_place[-3:-1] == [True, True]  # both failures worked on the cached state itself
    if snapshot_every == 1:
        assert cached == (2, stored)  # restored from the stored bytes
    else:
        assert cached is None  # let go: nothing holds the half-changed state
    assert read == (2, stored)
    assert done.version == 3 and done.state.ticks == 3
