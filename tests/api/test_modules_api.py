"""Tables switch New Capital modules on per table, through the API."""
from __future__ import annotations

import asyncio
import itertools
import random

import pytest

from tests.api.client import CREATE, create_and_join, http, run
from tests.api.test_e2e_game import play

MODULES = ["guildmasters", "faction-heroes", "dilemmas"]
SUBSETS = [list(c) for n in range(4) for c in itertools.combinations(MODULES, n)]
STATE = """query($t: String!) { table(id: $t) { modules warnings moduleStates {
  __typename
  ... on GuildmastersState { module active deckCount dealtCount chooser }
  ... on FactionHeroesState { module pools { faction top count } }
  ... on DilemmasState { module current deckCount tokens { seat tokens } }
} } }"""


def test_games_lists_each_module_with_its_game_players_and_incompatibilities(embedded_server):
    async def go():
        async with http(embedded_server.url) as s:
            res = await run(s, "{ games { id modules { id game name description minPlayers maxPlayers "
                               "incompatibleWith discouragedWith } } }")
        nc = next(g for g in res["games"] if g["id"] == "new-capital")
        mods = {m["id"]: m for m in nc["modules"]}
        assert sorted(mods) == sorted(MODULES)
        assert mods["guildmasters"]["minPlayers"] == 2 and mods["guildmasters"]["discouragedWith"] == ["dilemmas"]
        assert mods["dilemmas"]["minPlayers"] == 1 and mods["faction-heroes"]["maxPlayers"] == 4
        assert all(m["game"] == "new-capital" and m["description"] for m in mods.values())
    asyncio.run(go())


def test_every_module_subset_creates_a_table_with_typed_module_state(embedded_server):
    async def go():
        async with http(embedded_server.url) as s:
            for subset in SUBSETS:
                res = (await run(s, CREATE, input={"game": "new-capital", "players": 3, "modules": subset}))["createTable"]
                assert res["__typename"] == "CreateTableOk", (subset, res)
                t = (await run(s, STATE, t=res["table"]["id"]))["table"]
                assert sorted(t["modules"]) == sorted(subset)
                assert sorted(m["module"] for m in t["moduleStates"]) == sorted(subset)
                discouraged = {"guildmasters", "dilemmas"} <= set(subset)
                assert bool(t["warnings"]) == discouraged, t["warnings"]
    asyncio.run(go())


@pytest.mark.parametrize("players,modules,code,named", [
    (1, ["guildmasters"], "BAD_PLAYER_COUNT", "guildmasters"),
    (2, ["banquet"], "UNKNOWN_MODULE", "banquet"),
    (2, ["dilemmas", "dilemmas"], "INCOMPATIBLE_MODULES", "dilemmas"),
])
def test_impossible_combinations_are_refused_naming_the_module(embedded_server, players, modules, code, named):
    async def go():
        async with http(embedded_server.url) as s:
            res = (await run(s, CREATE, input={"game": "new-capital", "players": players, "modules": modules}))["createTable"]
        assert res["__typename"] == "Rejected" and res["code"] == code and named in res["message"]
    asyncio.run(go())


def test_a_module_of_another_game_is_refused(embedded_server):
    async def go():
        async with http(embedded_server.url) as s:
            res = (await run(s, CREATE, input={"game": "endless", "players": 2, "modules": ["dilemmas"]}))["createTable"]
        assert res["code"] == "INCOMPATIBLE_MODULES" and "dilemmas" in res["message"]
    asyncio.run(go())


def test_a_game_with_all_three_modules_plays_to_the_end_over_the_api(embedded_server):
    async def go():
        async with http(embedded_server.url) as s:
            table_id, tokens = await create_and_join(s, "new-capital", 2, seed=8, modules=MODULES)
        final = await play(embedded_server.url, table_id, tokens, random.Random(8), [])
        assert final["status"] == "finished"
    asyncio.run(go())
