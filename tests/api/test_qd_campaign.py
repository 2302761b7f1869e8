"""A whole Queen's Dilemma demo campaign through the GraphQL API: created, every game
started with startNextGame and played by bots from each seat's own legalActions, the
server killed and restarted between two games (Redis + PostgreSQL), the campaign read back
from SQL; the final standings equal the same campaign replayed headless from the same
seeds and actions."""
from __future__ import annotations

import asyncio
import copy
import random

from core import default_registry, replay, to_action
from core.state import Seat
from tests.api.client import http, run
from tests.api.test_e2e_game import play

GAME = "queens-dilemma"
NEW = """mutation($i: CreateCampaignInput!) { createCampaign(input: $i) {
  __typename ... on CampaignOk { campaign { id status sessions } } ... on Rejected { code message } } }"""
NEXT = """mutation($c: String!, $s: Int, $m: [String!]) { startNextGame(campaignId: $c, seed: $s, modules: $m) {
  __typename ... on CreateTableOk { joinCode table { id modules } } ... on Rejected { code message } } }"""
JOIN = """mutation($t: String!, $s: Int!, $c: String!) { joinTable(tableId: $t, seat: $s, name: "p", code: $c) {
  ... on JoinOk { seatToken } } }"""
READ = """query($c: String!) { campaign(id: $c) { id game status sessions standings games } }"""
CREATE = """mutation($i: CreateTableInput!) { createTable(input: $i) {
  __typename ... on CreateTableOk { table { id game campaignId stateJson } } ... on Rejected { code message } } }"""


def test_a_whole_campaign_to_the_grand_finale_over_graphql_with_a_restart(make_redis_server):
    asyncio.run(_campaign(make_redis_server()))


async def _campaign(server):
    players, modules = 3, ["age-of-disorder"]
    async with http(server.url) as anon:
        res = (await run(anon, NEW, i={"game": GAME, "players": players, "name": "Thursday council"}))["createCampaign"]
        assert res["__typename"] == "CampaignOk", res
        cid = res["campaign"]["id"]
    logs, n = [], 0
    while True:
        async with http(server.url) as anon:
            started = (await run(anon, NEXT, c=cid, s=500 + n, m=modules if n == 0 else None))["startNextGame"]
            if started.get("code") == "CAMPAIGN_OVER":
                break
            assert started["__typename"] == "CreateTableOk", started
            assert started["table"]["modules"] == modules
            tid = started["table"]["id"]
            tokens = {s: (await run(anon, JOIN, t=tid, s=s, c=started["joinCode"]))["joinTable"]["seatToken"] for s in range(players)}
        log: list = []
        final = await play(server.url, tid, tokens, random.Random(n), log)
        assert final["status"] == "finished"
        logs.append((500 + n, log))
        n += 1
        if n == 1:  # between games 1 and 2 the server dies; the campaign comes back from SQL
            server.kill()
            server.start()
            async with http(server.url) as anon:  # QD-067: modules are fixed once a game was played
                late = (await run(anon, NEXT, c=cid, s=1, m=[]))["startNextGame"]
                assert late["__typename"] == "Rejected" and late["code"] == "MODULES_LOCKED", late
        async with http(server.url) as anon:
            c = (await run(anon, READ, c=cid))["campaign"]
        assert c["sessions"] == n and len(c["games"]) == n
        assert n < 20, "the campaign never reached its Grand Finale"
    assert c["status"] == "finished" and n >= 3
    assert all("final" in row and "rank" in row for row in c["standings"])

    # the same campaign played headless from the same seeds and actions
    rules = default_registry().rules_for(GAME, modules)
    campaign = rules.hook.conclave_campaign_new(game=GAME, seats=[Seat(index=i) for i in range(players)], options={})
    for seed, log in logs:
        table = replay(GAME, players, seed, [(s, to_action(a)) for _, s, a in log], modules=modules,
                       campaign=copy.deepcopy(campaign))
        assert table.state.finished
        rules.hook.conclave_campaign_save(state=table.state, campaign=campaign)
    assert rules.hook.conclave_campaign_over(game=GAME, campaign=campaign)
    assert c["standings"] == rules.hook.conclave_campaign_standings(game=GAME, campaign=campaign)


def test_create_table_alone_starts_a_new_campaign(embedded_server):
    """A generic client plays one game like any other: createTable without a campaignId."""
    async def go():
        async with http(embedded_server.url) as anon:
            res = (await run(anon, CREATE, i={"game": GAME, "players": 4, "seed": 3}))["createTable"]
            assert res["__typename"] == "CreateTableOk", res
            state = res["table"]["stateJson"]
            assert state["campaign"]["players"] == 4
            campaign = (await run(anon, READ, c=res["table"]["campaignId"]))["campaign"]
            assert campaign["game"] == GAME and campaign["sessions"] == 0 and campaign["status"] != "finished"
    asyncio.run(go())


TYPED = """query($t: String!) { table(id: $t) { viewer stateJson state { __typename ... on QueensDilemmaState {
  gameNumber leader moderator powerPool dilemma markers { blue { legacy pushes { ideology n } } }
  councilors { seat power ideologyCard hasIdeologyCard investment hasInvestment resources { gold } }
  board { sliders { axis position } tokens { ideology count } }
  campaign { gamesPlayed deckCount diaries { seat character agendas { code deadline } agendaCount infamyTier } } } } } }"""


def test_the_typed_state_follows_the_viewers_view(embedded_server):
    """`Table.state` is a `QueensDilemmaState` built from the viewer's redacted view: a seat
    reads its own Ideology card and Agendas, and only flags and counts of the others'."""
    from tests.api.client import create_and_join

    async def go():
        async with http(embedded_server.url) as anon:
            table_id, tokens = await create_and_join(anon, GAME, 3, seed=6)
        async with http(embedded_server.url, tokens[0]) as me:
            t = (await run(me, TYPED, t=table_id))["table"]
        state, raw = t["state"], t["stateJson"]
        assert state["__typename"] == "QueensDilemmaState" and t["viewer"] == 0
        assert state["gameNumber"] == raw["game_number"] == 1 and state["campaign"]["deckCount"] == raw["campaign"]["deck"]
        mine, other = state["councilors"][0], state["councilors"][1]
        if raw["councilors"][0]["ideology_card"]:
            assert mine["ideologyCard"] == raw["councilors"][0]["ideology_card"]
        assert other["ideologyCard"] is None and other["investment"] is None
        diaries = state["campaign"]["diaries"]
        assert diaries[0]["agendas"] == [{"code": a["code"], "deadline": a["deadline"]}
                                         for a in raw["campaign"]["diaries"][0]["agendas"]]
        assert diaries[1]["agendas"] is None and diaries[1]["agendaCount"] == raw["campaign"]["diaries"][1]["agendas"]
    asyncio.run(go())
