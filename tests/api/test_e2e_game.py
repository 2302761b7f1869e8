"""A whole New Capital game through the real API, with a real GraphQL client (gql):
four seats act only from their own legalActions with their own tokens over HTTP, while
every seat and a spectator follow over WebSocket (both subprotocols)."""
from __future__ import annotations

import asyncio
import json
import random

import httpx
from gql import GraphQLRequest

from core import default_registry, replay, to_action, view
from tests.api.client import ACT, TABLE, UPDATES, create_and_join, http, run, sessions, ws


async def follow(url: str, table_id: str, token: str | None, after: int, got: list, legacy=False, stop=None):
    async with ws(url, token, legacy=legacy) as session:
        async for update in session.subscribe(GraphQLRequest(UPDATES, variable_values={"t": table_id, "after": after})):
            u = update["tableUpdates"]
            got.append(u)
            if stop and stop(u):
                return


async def play(url: str, table_id: str, tokens: dict, rng: random.Random, log: list, max_actions=None):
    """Bots: each turn, a seat with a decision picks one of its own legal actions."""
    async with sessions(url, tokens) as ss:
        any_seat = next(iter(ss.values()))
        while max_actions is None or len(log) < max_actions:
            t = (await run(any_seat, TABLE, t=table_id))["table"]
            if t["status"] == "finished":
                return t
            seat = rng.choice(t["activeSeats"])
            mine = (await run(ss[seat], TABLE, t=table_id))["table"]
            action = rng.choice(mine["legalActions"])
            res = (await run(ss[seat], ACT, t=table_id, a=action, v=mine["version"]))["act"]
            assert res["__typename"] == "ActOk", res
            log.append((res["version"], seat, action))
    return None


def test_whole_game_over_graphql_every_subscriber_gets_every_version_once(server):
    asyncio.run(_whole_game(server))


async def _whole_game(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "new-capital", 4, seed=7)
    got = {k: [] for k in (0, 1, 2, 3, "spectator")}
    finished = lambda u: u["table"]["status"] == "finished"  # noqa: E731
    subs = [asyncio.create_task(follow(server.ws_url, table_id, tokens[s], 0, got[s], stop=finished)) for s in range(4)]
    subs.append(asyncio.create_task(follow(server.ws_url, table_id, None, 0, got["spectator"], legacy=True, stop=finished)))
    await asyncio.sleep(0.5)
    log: list = []
    final = await play(server.url, table_id, tokens, random.Random(7), log)
    assert final["status"] == "finished" and final["result"]["winners"]
    await asyncio.wait_for(asyncio.gather(*subs), timeout=60)
    versions = [v for v, _, _ in log]
    assert versions == list(range(1, len(log) + 1))
    for key, updates in got.items():  # every version exactly once, in order
        assert [u["version"] for u in updates] == versions, key

    # the server's final state is the engine's replay of the log
    replayed = replay("new-capital", 4, 7, [(seat, to_action(a)) for _, seat, a in log])
    rules = default_registry().rules_for("new-capital", [])
    async with http(server.url) as anon:
        res = await run(anon, "query($t: String!) { table(id: $t) { version stateJson } }", t=table_id)
    assert res["table"]["version"] == len(log)
    assert res["table"]["stateJson"] == json.loads(json.dumps(view(rules, replayed.state, None)))

    # the four graphql-transport-ws subscriptions were fed from the table's feed (api/feeds.py),
    # live updates written directly; the legacy graphql-ws one took strawberry's own way
    async with httpx.AsyncClient() as client:
        metrics = (await client.get(f"{server.base}/metrics")).text
    sent = {way: float(next(line for line in metrics.splitlines()
                            if line.startswith(f'conclave_subscription_updates_total{{way="{way}"}}')).split()[-1])
            for way in ("direct", "queued")}
    assert sent["direct"] + sent["queued"] == 4 * len(log) and sent["direct"] > 2 * len(log), sent
