"""Undo through the API (issue 21): `act` with {type: "undo"} takes back the seat's own last
action, `canUndo`/`undoRefusal` say beforehand whether it may ask (all but the reveal check,
which runs when it asks), refusals carry the kernel's
typed codes and change nothing, every seat sees the undo in its log; on both stores, and
with two server processes on one Redis (the other process's copy is stale at the undo)."""
from __future__ import annotations

import asyncio
import random

from tests.api.client import ACT, create_and_join, http, run, sessions

SEEN = """query($t: String!) { table(id: $t) { version canUndo undoRefusal stateJson legalActions { type params } } }"""
LAST_LOG = """query($t: String!, $after: Int!) { table(id: $t) { log(afterVersion: $after) { version seat events } } }"""
UNDO = {"type": "undo", "params": {}}


def without_version(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "version"}


async def play_with_undos(seats: dict, table_id: str, rng: random.Random, steps: int, other=None):
    """Random legal actions; after each, the actor asks whether it may take it back, and does
    when it may (on `other`'s sessions when given: another server process). Returns the
    versions undone and the refusal codes met."""
    undone, codes = [], set()
    for _ in range(steps):
        views = {s: (await run(session, SEEN, t=table_id))["table"] for s, session in seats.items()}
        acting = [s for s, v in views.items() if v["legalActions"]]
        if not acting:
            break
        seat = rng.choice(acting)
        version = views[seat]["version"]
        action = rng.choice(views[seat]["legalActions"])
        result = (await run(seats[seat], ACT, t=table_id, a=action, v=version))["act"]
        assert result["__typename"] == "ActOk", result
        for s, session in seats.items():
            after = (await run(session, SEEN, t=table_id))["table"]
            if s != seat:
                assert after["canUndo"] is False and after["undoRefusal"] in ("UNDO_NOT_YOURS", "NOTHING_TO_UNDO")
                if after["undoRefusal"] == "UNDO_NOT_YOURS":  # asking anyway is refused and changes nothing
                    refused = (await run(session, ACT, t=table_id, a=UNDO, v=None))["act"]
                    assert refused["__typename"] == "ActRejected" and refused["code"] == "UNDO_NOT_YOURS", refused
            else:
                mine = after
        codes.add(mine["undoRefusal"])
        undoer = (other or seats)[seat]
        if mine["canUndo"] and rng.random() < 0.6:
            result = (await run(undoer, ACT, t=table_id, a=UNDO, v=version + 1))["act"]
            if result["__typename"] == "ActRejected":  # canUndo does not judge reveals: asking does
                assert result["code"] == "UNDO_AFTER_REVEAL", result
                codes.add(result["code"])
                assert (await run(seats[seat], SEEN, t=table_id))["table"]["version"] == version + 1
                continue
            assert result["__typename"] == "ActOk", result
            assert result["version"] == version + 2
            for s, session in seats.items():  # every seat sees the table as it was, and the undo
                now = (await run(session, SEEN, t=table_id))["table"]
                assert now["version"] == version + 2
                assert without_version(now["stateJson"]) == without_version(views[s]["stateJson"])
                (entry,) = (await run(session, LAST_LOG, t=table_id, after=version + 1))["table"]["log"]
                assert entry["seat"] == seat
                assert {"type": "undo", "data": {"seat": seat, "undone": version + 1}} in entry["events"]
            undone.append(version + 1)
        elif mine["undoRefusal"] not in (None, "NOTHING_TO_UNDO"):
            refused = (await run(undoer, ACT, t=table_id, a=UNDO, v=None))["act"]
            assert refused["__typename"] == "ActRejected" and refused["code"] == mine["undoRefusal"], refused
            assert (await run(seats[seat], SEEN, t=table_id))["table"]["version"] == version + 1
    return undone, codes


def test_undo_through_the_api(server):
    async def main():
        async with http(server.url) as host:
            table_id, tokens = await create_and_join(host, "arcs", 3, seed=12)
        async with sessions(server.url, tokens) as seats:
            undone, codes = await play_with_undos(seats, table_id, random.Random(12), steps=70)
        assert len(undone) >= 5, undone
        # Both ways of finding the state before: from the store's older snapshot, and from the
        # table's creation when the snapshot was taken at the undone action (every 8th version).
        assert any(v % 8 == 0 for v in undone) and any(v % 8 for v in undone), undone
        assert {"UNDO_AFTER_REVEAL", "UNDO_AFTER_CHANCE"} & codes, codes
    asyncio.run(main())


def test_undo_asked_of_another_server_process(make_redis_server):
    first, second = make_redis_server(), make_redis_server()

    async def main():
        async with http(first.url) as host:
            table_id, tokens = await create_and_join(host, "new-capital", 2, seed=13)
        async with sessions(first.url, tokens) as seats, sessions(second.url, tokens) as elsewhere:
            undone, _codes = await play_with_undos(seats, table_id, random.Random(13), steps=50, other=elsewhere)
        assert len(undone) >= 3, undone
    asyncio.run(main())
