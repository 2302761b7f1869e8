"""Campaigns through the API: the saved state carries from game to game (in SQL, across a
server restart), standings follow it, and saving is one atomic transaction. Uses the
kernel's test game with a three-game campaign (tests/core/sealed_bids.py)."""
from __future__ import annotations

import asyncio
import copy
import random

import pytest

from core import Registry, replay, to_action
from core.plugins import BUILTIN_PLUGINS
from tests.api.client import http, run
from tests.api.test_e2e_game import play
from tests.core import sealed_bids

NEW = """mutation($i: CreateCampaignInput!) { createCampaign(input: $i) {
  __typename ... on CampaignOk { campaign { id status sessions standings } } ... on Rejected { code message } } }"""
NEXT = """mutation($c: String!, $s: Int) { startNextGame(campaignId: $c, seed: $s) {
  __typename ... on CreateTableOk { joinCode table { id stateJson } } ... on Rejected { code message } } }"""
JOIN = """mutation($t: String!, $s: Int!, $c: String!) { joinTable(tableId: $t, seat: $s, name: "p", code: $c) {
  ... on JoinOk { seatToken } } }"""
READ = """query($c: String!) { campaign(id: $c) { id game status sessions standings games } }"""


def test_a_whole_campaign_with_a_restart_reads_back_from_sql_and_matches_headless(make_server):
    server = make_server()
    asyncio.run(_campaign(server))


async def _campaign(server):
    async with http(server.url) as anon:
        res = (await run(anon, NEW, i={"game": "sealed-bids", "players": 3, "name": "Tuesday group"}))["createCampaign"]
        assert res["__typename"] == "CampaignOk", res
        cid = res["campaign"]["id"]
    logs = []
    for n in range(sealed_bids.CAMPAIGN_GAMES):
        async with http(server.url) as anon:
            started = (await run(anon, NEXT, c=cid, s=100 + n))["startNextGame"]
            assert started["__typename"] == "CreateTableOk", started
            tid = started["table"]["id"]
            in_progress = (await run(anon, NEXT, c=cid, s=1))["startNextGame"]
            assert in_progress["code"] == "GAME_IN_PROGRESS"
            tokens = {s: (await run(anon, JOIN, t=tid, s=s, c=started["joinCode"]))["joinTable"]["seatToken"] for s in range(3)}
        log: list = []
        await play(server.url, tid, tokens, random.Random(n), log)
        logs.append((100 + n, log))
        if n == 0:  # the server dies between two games; the campaign comes back from SQL
            server.kill()
            server.start()
        async with http(server.url) as anon:
            c = (await run(anon, READ, c=cid))["campaign"]
        assert c["sessions"] == n + 1 and len(c["games"]) == n + 1
    assert c["status"] == "finished"
    async with http(server.url) as anon:
        over = (await run(anon, NEXT, c=cid, s=9))["startNextGame"]
    assert over["code"] == "CAMPAIGN_OVER"

    # the same campaign played headless from the same seeds and actions
    registry = Registry([*BUILTIN_PLUGINS, sealed_bids], load_entry_points=False)
    rules = registry.rules_for("sealed-bids", [])
    campaign = rules.hook.conclave_campaign_new(game="sealed-bids", seats=[0, 1, 2], options={})
    for seed, log in logs:
        table = replay("sealed-bids", 3, seed, [(s, to_action(a)) for _, s, a in log],
                       campaign=copy.deepcopy(campaign), registry=registry)
        assert table.state.finished
        rules.hook.conclave_campaign_save(state=table.state, campaign=campaign)
    expected = rules.hook.conclave_campaign_standings(game="sealed-bids", campaign=campaign)
    assert c["standings"] == expected and sum(r["points"] for r in expected) == 3 * sealed_bids.CAMPAIGN_GAMES


def test_unknown_or_wrong_campaigns_are_refused_clearly(embedded_server):
    async def go():
        async with http(embedded_server.url) as anon:
            assert (await run(anon, NEXT, c="nope", s=1))["startNextGame"]["code"] == "UNKNOWN_CAMPAIGN"
            assert (await run(anon, READ, c="nope"))["campaign"] is None
            res = (await run(anon, NEW, i={"game": "new-capital", "players": 2}))["createCampaign"]
            assert res["code"] == "NO_CAMPAIGN"  # New Capital is a one-session game
            res = (await run(anon, NEW, i={"game": "sealed-bids", "players": 9}))["createCampaign"]
            assert res["code"] == "BAD_PLAYER_COUNT"
    asyncio.run(go())


@pytest.mark.parametrize("game,players,games_key", [("sealed-bids", 2, "games"), ("queens-dilemma", 3, "games_played")])
def test_saving_is_atomic_a_failure_half_way_leaves_the_last_complete_save(tmp_path, monkeypatch, game, players,
                                                                           games_key):
    asyncio.run(_atomic(tmp_path, monkeypatch, game, players, games_key))


async def _atomic(tmp_path, monkeypatch, game, players, games_key):
    import api.service as service_mod
    from api.db import Campaign, Database, GameRecord
    from api.live.memory import MemoryStore
    from api.metrics import METRICS
    from api.service import TableService
    from api.settings import Settings
    from core.bot import RandomBot
    from core.plugins import BUILTIN_PLUGINS, Registry

    registry = Registry([*BUILTIN_PLUGINS, "tests.core.sealed_bids"], load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 'atomic.sqlite3'}")
    svc = TableService(registry, MemoryStore(db), db, Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))
    campaign = await svc.create_campaign(game, players)

    async def play_one(seed):
        loaded, _, code = await svc.start_next_game(campaign.id, seed)
        tokens = [(await svc.join(loaded.id, s, "p", code))[0] for s in range(players)]
        bot = RandomBot(seed)
        while True:
            t = await svc.load(loaded.id)
            if t.state.finished:
                return t
            from core.engine import Table

            seat, action = bot.choose(Table(rules=t.rules, state=t.state))
            await svc.act(loaded.id, tokens[seat], {"type": action.type, "params": dict(action.params)})

    await play_one(1)
    saved = db.get(Campaign, campaign.id)
    assert saved.sessions == 1

    def crash(session, save):  # the save dies after the game record and actions were added
        raise RuntimeError("injected failure while saving")

    monkeypatch.setattr(service_mod, "save_campaign_session", crash)
    failures = METRICS.archive_failures._value.get()
    await play_one(2)  # the final action is accepted; its archive fails (and is retried later)
    assert METRICS.archive_failures._value.get() == failures + 1
    after = db.get(Campaign, campaign.id)
    assert after.sessions == 1 and after.state == saved.state  # the last complete save
    finished = [tid for tid in await svc.store.table_ids() if (await svc.load(tid)).state.finished]
    assert db.get(GameRecord, finished[-1]) is None  # nothing of the failed save was written
    with pytest.raises(service_mod.Rejected) as refused:  # not from an older save
        await svc.start_next_game(campaign.id, 3)
    assert refused.value.code == "SAVE_PENDING"
    assert db.get(Campaign, campaign.id).sessions == 1

    monkeypatch.undo()
    assert await svc.archive_pending() == 1  # a restart finishes the interrupted save
    done = db.get(Campaign, campaign.id)
    assert done.sessions == 2 and done.state[games_key] == 2
