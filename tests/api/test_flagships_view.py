"""The Flagships module through the real API (gql client, issue 19): a campaign created with
the module shows each seat's Flagship board typed once the Flagships are placed in Act I
setup (BR-004, BR-265, BR-266, BR-272); the module cannot be switched off (or on) at a later
startNextGame, and another game refuses it, each with a code."""
from __future__ import annotations

import asyncio

import msgspec

from core.bot import play_game
from core.plugins import default_registry
from core.state import Seat
from tests.api.client import ACT, http, run, sessions
from tests.api.test_qd_campaign import JOIN, NEW, NEXT

GAME, MODULES, PLAYERS = "blighted-reach", ["flagships"], 3

BOARDS = """query($t: String!) { table(id: $t) { modules state { __typename ... on BlightedReachState {
  seats { seat flagship { system slots { index upgradeKind name upgradePlanet armorPlanet
    upgrade { kind damaged } armor { kind damaged } } } } } } } }"""


def first_act(seed: int):
    """The log (seat, action) of a headless campaign's Act I with the module, played by bots
    from the new campaign's state and the seed startNextGame is given."""
    rules = default_registry().rules_for(GAME, MODULES)
    campaign = rules.hook.conclave_campaign_new(game=GAME, seats=[Seat(index=i) for i in range(PLAYERS)], options={})
    return play_game(GAME, PLAYERS, seed * 1000, modules=MODULES, campaign=campaign).table.log


def test_a_flagships_campaign_shows_typed_boards_and_keeps_its_modules_BR_004_BR_266_BR_272(embedded_server):
    """BR-004, BR-266, BR-272."""
    asyncio.run(_campaign(embedded_server, 3))


async def _start(anon, cid, seed, modules=None):
    started = (await run(anon, NEXT, c=cid, s=seed, m=modules))["startNextGame"]
    assert started["__typename"] == "CreateTableOk", started
    tid = started["table"]["id"]
    tokens = {s: (await run(anon, JOIN, t=tid, s=s, c=started["joinCode"]))["joinTable"]["seatToken"]
              for s in range(PLAYERS)}
    return started, tid, tokens


async def _campaign(server, seed):
    log = first_act(seed)
    async with http(server.url) as anon:
        res = (await run(anon, NEW, i={"game": GAME, "players": PLAYERS, "modules": MODULES}))["createCampaign"]
        assert res["__typename"] == "CampaignOk", res
        cid = res["campaign"]["id"]
        started, tid, tokens = await _start(anon, cid, seed * 1000)
        assert started["table"]["modules"] == MODULES
        before = (await run(anon, BOARDS, t=tid))["table"]["state"]
    assert [s["flagship"] for s in before["seats"]] == [None] * PLAYERS  # placed in setup, not yet
    placed = max(i for i, (_, a) in enumerate(log) if a.type == "place_flagship")
    async with sessions(server.url, tokens) as ss:
        for i, (seat, action) in enumerate(log):
            got = (await run(ss[seat], ACT, t=tid, a=msgspec.to_builtins(action)))["act"]
            assert got["__typename"] == "ActOk", (i, got)
            if i == placed:
                async with http(server.url) as anon:
                    seen = (await run(anon, BOARDS, t=tid))["table"]["state"]
                _check_boards(seen, {s: a.params["system"] for s, a in log[:i + 1] if a.type == "place_flagship"})
    async with http(server.url) as anon:
        off = (await run(anon, NEXT, c=cid, s=1, m=[]))["startNextGame"]
    assert off["__typename"] == "Rejected" and off["code"] == "MODULES_LOCKED", off


def _check_boards(state: dict, systems: dict) -> None:
    assert state["__typename"] == "BlightedReachState"
    assert sorted(systems) == list(range(PLAYERS))
    for seat in state["seats"]:
        board = seat["flagship"]
        assert board["system"] == systems[seat["seat"]]
        assert [s["index"] for s in board["slots"]] == list(range(6))
        assert [s["upgradeKind"] for s in board["slots"]] == [
            "slipstream_drive", "defense_array", "tractor_beam", "ship_crane", "control_array", "hull"]
        assert board["slots"][3]["upgradePlanet"] == "material" and board["slots"][3]["armorPlanet"] == "fuel"
        assert all(s["upgrade"] is None and s["armor"] is None for s in board["slots"])  # a fresh, empty board


def test_another_game_refuses_the_module_with_a_code(embedded_server):
    async def go():
        async with http(embedded_server.url) as anon:
            res = (await run(anon, NEW, i={"game": "queens-dilemma", "players": 3, "modules": MODULES}))
        got = res["createCampaign"]
        assert got["__typename"] == "Rejected" and got["code"] == "INCOMPATIBLE_MODULES" and "flagships" in got["message"], got
    asyncio.run(go())
