"""A whole Blighted Reach campaign through the GraphQL API with a real client (Redis and
PostgreSQL): created with createCampaign, each Act started with startNextGame, every
action of a headless campaign sent by its own seat with its own token, the server killed
(SIGKILL) and restarted between Acts and once in the middle of an Act; the campaign read
back from SQL has the standings of the headless campaign (issue 18)."""
from __future__ import annotations

import asyncio

import msgspec
import pytest

from core.bot import play_campaign
from core.errors import EngineError
from tests.api.client import ACT, http, run, sessions
from tests.api.test_qd_campaign import JOIN, NEW, NEXT, READ
from tests.blighted_reach.flow_helpers import fate_rule_missing

GAME = "blighted-reach"


def headless(players: int):
    """The first campaign seed whose three Acts bots finish (every Fate dealt has its rules)."""
    for seed in range(1, 40):
        try:
            return seed, play_campaign(GAME, players, seed)
        except EngineError as exc:
            if fate_rule_missing(exc):
                continue
            raise
    pytest.skip("no campaign seed deals only Fates whose rules are all written yet")


def test_a_whole_campaign_over_graphql_survives_kills_between_and_within_acts(make_redis_server):
    seed, played = headless(3)
    asyncio.run(_campaign(make_redis_server(), seed, played))


async def _campaign(server, seed, played):
    players = 3
    async with http(server.url) as anon:
        res = (await run(anon, NEW, i={"game": GAME, "players": players, "name": "the Reach"}))["createCampaign"]
        assert res["__typename"] == "CampaignOk", res
        cid = res["campaign"]["id"]
    for n, game in enumerate(played.games):
        async with http(server.url) as anon:
            started = (await run(anon, NEXT, c=cid, s=seed * 1000 + n))["startNextGame"]
            assert started["__typename"] == "CreateTableOk", started
            tid = started["table"]["id"]
            tokens = {s: (await run(anon, JOIN, t=tid, s=s, c=started["joinCode"]))["joinTable"]["seatToken"]
                      for s in range(players)}
        log = game.table.log
        middle = len(log) // 2
        async with sessions(server.url, tokens) as ss:
            for i, (seat, action) in enumerate(log):
                if n == 1 and i == middle:  # once in the middle of an Act
                    server.kill()
                    server.start()
                    return await _rest(server, cid, tid, tokens, played, n, log[i:], seed)
                got = (await run(ss[seat], ACT, t=tid, a=msgspec.to_builtins(action)))["act"]
                assert got["__typename"] == "ActOk", (i, got)
        server.kill()  # between Acts: the campaign comes back from SQL
        server.start()
    await _check(server, cid, played)


async def _rest(server, cid, tid, tokens, played, n, rest, seed):
    async with sessions(server.url, tokens) as ss:
        for seat, action in rest:
            got = (await run(ss[seat], ACT, t=tid, a=msgspec.to_builtins(action)))["act"]
            assert got["__typename"] == "ActOk", got
    players = 3
    for k, game in enumerate(played.games[n + 1:], start=n + 1):
        async with http(server.url) as anon:
            started = (await run(anon, NEXT, c=cid, s=seed * 1000 + k))["startNextGame"]
            assert started["__typename"] == "CreateTableOk", started
            tid = started["table"]["id"]
            tokens = {s: (await run(anon, JOIN, t=tid, s=s, c=started["joinCode"]))["joinTable"]["seatToken"]
                      for s in range(players)}
        async with sessions(server.url, tokens) as ss:
            for seat, action in game.table.log:
                got = (await run(ss[seat], ACT, t=tid, a=msgspec.to_builtins(action)))["act"]
                assert got["__typename"] == "ActOk", got
    await _check(server, cid, played)


async def _check(server, cid, played):
    async with http(server.url) as anon:
        c = (await run(anon, READ, c=cid))["campaign"]
        over = (await run(anon, NEXT, c=cid, s=1))["startNextGame"]
    assert c["status"] == "finished" and c["sessions"] == len(played.games) == 3
    assert c["standings"] == played.standings
    assert over["__typename"] == "Rejected" and over["code"] == "CAMPAIGN_OVER"
