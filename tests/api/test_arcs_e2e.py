"""A whole 3-player Arcs game through the real API with a real GraphQL client (gql): each
seat acts only from its own legalActions with its own token over HTTP, every seat and a
spectator follow over WebSocket, and the typed ArcsState shows each viewer only its own
hand (issue 16)."""
from __future__ import annotations

import asyncio
import json
import random

from core import default_registry, replay, to_action, view
from tests.api.client import create_and_join, http, run, sessions, states_seen
from tests.api.test_e2e_game import follow, play

TYPED = """query($t: String!) { table(id: $t) { version state { __typename ... on ArcsState {
  chapter initiative hand actionDeckCount courtDeckCount
  players { seat power handCount resources outrage guild }
  systems { id ships { seat freshShips damagedShips } buildings { kind owner damaged } }
  court { card agents } } } } }"""


def test_a_whole_arcs_game_over_graphql_every_subscriber_gets_every_version_once(server):
    asyncio.run(_whole_game(server))


async def _typed_views(url: str, table_id: str, tokens: dict) -> dict:
    """Each seat's and a spectator's typed state, checked against the hidden information."""
    return await states_seen(url, TYPED, table_id, tokens)


async def _whole_game(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "arcs", 3, seed=11)
    first = await _typed_views(server.url, table_id, tokens)
    for seat in range(3):
        state = first[seat]
        assert state["__typename"] == "ArcsState"
        assert len(state["hand"]) == state["players"][seat]["handCount"] > 0  # its own hand, and only it
    assert first["spectator"]["hand"] is None
    assert len({tuple(first[s]["hand"]) for s in range(3)}) == 3

    got = {k: [] for k in (0, 1, 2, "spectator")}
    finished = lambda u: u["table"]["status"] == "finished"  # noqa: E731
    subs = [asyncio.create_task(follow(server.ws_url, table_id, tokens[s], 0, got[s], stop=finished)) for s in range(3)]
    subs.append(asyncio.create_task(follow(server.ws_url, table_id, None, 0, got["spectator"], legacy=True,
                                           stop=finished)))
    await asyncio.sleep(0.5)
    log: list = []
    final = await play(server.url, table_id, tokens, random.Random(11), log)
    assert final["status"] == "finished" and final["result"]["winners"]
    await asyncio.wait_for(asyncio.gather(*subs), timeout=120)
    versions = [v for v, _, _ in log]
    assert versions == list(range(1, len(log) + 1))
    for key, updates in got.items():  # every version exactly once, in order
        assert [u["version"] for u in updates] == versions, key

    rules = default_registry().rules_for("arcs", [])
    replayed = replay("arcs", 3, 11, [(seat, to_action(a)) for _, seat, a in log])
    async with http(server.url) as anon:
        res = await run(anon, "query($t: String!) { table(id: $t) { version stateJson } }", t=table_id)
    assert res["table"]["version"] == len(log)
    assert res["table"]["stateJson"] == json.loads(json.dumps(view(rules, replayed.state, None)))
    last = await _typed_views(server.url, table_id, tokens)
    for seat in range(3):
        assert last[seat]["hand"] == replayed.state.hands[seat]
        assert [p["handCount"] for p in last[seat]["players"]] == [len(h) for h in replayed.state.hands]
    assert last["spectator"]["hand"] is None
