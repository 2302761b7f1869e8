"""The campaign's typed GraphQL view through the real API (gql client): each seat sees its
own two Fates while choosing and nobody sees a kept Fate until all have chosen (BR-053,
A-R7); the Empire, titles, Blight and Council are public."""
from __future__ import annotations

import asyncio

from core.state import Action
from tests.blighted_reach.flow_helpers import PLAIN_FATES, plain_table
from tests.api.client import ACT, create_and_join, http, run, sessions, states_seen

TYPED = """query($t: String!) { table(id: $t) { version state { __typename ... on BlightedReachState {
  act fateOffer firstRegent council imperialSupply imperialClusters
  imperialShips { system fresh damaged } blight { system damaged }
  seats { seat title fate favors colour objectiveMarker fateResult acts { act fate result power outrage } }
  arcs { hand chapter court { card agents } } } } } }"""



def test_fate_offers_are_private_and_choices_hidden_until_all_are_in_BR_053(server):
    """BR-053."""
    asyncio.run(_fates(server))


async def act(session, table_id, type_, params):
    got = (await run(session, ACT, t=table_id, a={"type": type_, "params": params}))["act"]
    assert got["__typename"] == "ActOk", got


async def _views(url, table_id, tokens):
    return await states_seen(url, TYPED, table_id, tokens)


async def _fates(server):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, "blighted-reach", 3, seed=plain_table(3, 5).state.seed)
    first = await _views(server.url, table_id, tokens)
    offers = {s: first[s]["fateOffer"] for s in range(3)}
    keep = {s: next(f for f in offers[s] if f in PLAIN_FATES) for s in range(3)}
    assert first["spectator"]["__typename"] == "BlightedReachState" and first["spectator"]["fateOffer"] is None
    assert all(len(o) == 2 for o in offers.values()) and len({f for o in offers.values() for f in o}) == 6
    assert first[0]["imperialShips"] == first["spectator"]["imperialShips"] and len(first[0]["imperialClusters"]) == 2
    assert [s["title"] for s in first[0]["seats"]] == ["regent"] * 3 and first[0]["council"] == "AID01A"
    async with sessions(server.url, {0: tokens[0]}) as ss:
        await act(ss[0], table_id, "choose_fate", {"fate": keep[0]})
    middle = await _views(server.url, table_id, tokens)
    for viewer in (0, 1, 2, "spectator"):
        assert [s["fate"] for s in middle[viewer]["seats"]] == [None, None, None]
        # a start space would tell the Fate: no marker is on the track before the reveal
        assert [s["objectiveMarker"] for s in middle[viewer]["seats"]] == [None, None, None]
    async with sessions(server.url, {1: tokens[1], 2: tokens[2]}) as ss:
        for seat in (1, 2):
            await act(ss[seat], table_id, "choose_fate", {"fate": keep[seat]})
    last = await _views(server.url, table_id, tokens)
    twin = plain_table(3, 5)
    for seat in range(3):
        twin.act(seat, Action("choose_fate", {"fate": keep[seat]}))
    for viewer in (0, 1, 2, "spectator"):
        assert [s["fate"] for s in last[viewer]["seats"]] == [keep[s] for s in range(3)]
        assert [s["objectiveMarker"] for s in last[viewer]["seats"]] == twin.state.objective_markers  # BR-085
        assert [s["colour"] for s in last[viewer]["seats"]] == ["blue", "red", "yellow"]
        assert all(s["acts"] == [] and s["fateResult"] is None for s in last[viewer]["seats"])
