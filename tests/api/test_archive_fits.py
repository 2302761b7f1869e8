"""Every stored value fits its column, and an archive that fails for a reason retrying cannot
fix is said so instead of retried forever.

- On PostgreSQL (where INTEGER is 32-bit; SQLite's is 64-bit already) a game with the
  largest seed archives whole, a campaign's next game starts after it;
- with the old 32-bit column put back, a campaign game with a seed past 2^31 fails to
  archive with a real DataError ("integer out of range"): it is counted by kind, logged,
  not retried, the campaign says why (saveError) and startNextGame answers SAVE_FAILED; once
  an operator widens the column, the next start-up archives it and the campaign goes on.

In process: one service on the embedded store and the database.
"""
from __future__ import annotations

import asyncio
import logging

import pytest
from sqlalchemy import text

from api.db import Campaign, Database, GameAction, GameRecord
from api.live.memory import MemoryStore
from api.metrics import METRICS
from core.seeds import SEED_MAX, commitment
from api.service import Rejected, TableService
from api.settings import Settings
from core.bot import RandomBot
from core.engine import Table
from core.plugins import BUILTIN_PLUGINS, Registry
from schema.build import build_schema
from tests.api.services import database_url

QD = "queens-dilemma"


def service_on(url: str) -> TableService:
    db = Database(url)
    service = TableService(Registry(list(BUILTIN_PLUGINS), load_entry_points=False), MemoryStore(db), db,
                           Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))
    service.archive_retry_seconds = 0.01
    return service


async def play(service: TableService, created, bot_seed: int = 1):
    """Bots play the new table (`service.create_table`'s or `start_next_game`'s answer) to its end."""
    loaded = created.table
    tokens = [(await service.join(loaded.id, s, "p", created.join_code))[0] for s in range(loaded.meta["players"])]
    bot = RandomBot(bot_seed)
    while not loaded.state.finished:
        seat, action = bot.choose(Table(rules=loaded.rules, state=loaded.state))
        loaded = await service.act(loaded.id, tokens[seat], {"type": action.type, "params": dict(action.params)})
    return loaded


def given_up(kind: str) -> float:
    return METRICS.archive_given_up.labels(kind)._value.get()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_game_with_the_largest_seed_archives_and_its_campaign_goes_on(tmp_path, backend):
    with database_url(backend, tmp_path) as url:
        service = service_on(url)

        async def scenario():
            try:
                table = await service.create_table("new-capital", 2, seed=SEED_MAX)
                table = await play(service, table)
                campaign = await service.create_campaign(QD, 3)
                game = await service.start_next_game(campaign.id, seed=SEED_MAX)
                game = await play(service, game)
                following = (await service.start_next_game(campaign.id)).table  # the save landed
                return table, game, following
            finally:
                await service.close()
                await service.db.aclose()

        table, game, following = asyncio.run(scenario())
        for loaded in (table, game):
            record = service.db.get(GameRecord, loaded.id)
            assert record is not None and record.seed == SEED_MAX and record.version == loaded.version
            assert record.seed_commitment == commitment(loaded.id, SEED_MAX) and record.seed_chosen is True
        assert service.db.get(GameRecord, table.id).campaign_at_start is None
        assert service.db.get(GameRecord, game.id).campaign_at_start == game.meta["campaign_at_start"]
        assert following.meta["campaign_id"] == game.meta["campaign_id"]
        service.db.engine.dispose()


def test_an_archive_that_cannot_succeed_is_reported_not_retried_forever(tmp_path, caplog):
    with database_url("postgresql", tmp_path) as url:
        service = service_on(url)
        with service.db.engine.begin() as conn:  # the column as it was before migration 0004
            conn.execute(text("ALTER TABLE game_records ALTER COLUMN seed TYPE integer"))
        schema = build_schema(service.registry)
        attempts_before, given_up_before = METRICS.archive_failures._value.get(), given_up("DataError")

        async def save_error(campaign_id: str):
            res = await schema.execute("query($c: String!) { campaign(id: $c) { sessions saveError } }",
                                       variable_values={"c": campaign_id}, context_value={"service": service})
            assert res.errors is None, res.errors
            return res.data["campaign"]

        async def scenario():
            try:
                campaign = await service.create_campaign(QD, 3)
                game = await service.start_next_game(campaign.id, seed=2**40)
                with caplog.at_level(logging.ERROR, logger="conclave.tables"):
                    game = await play(service, game)  # the final action is accepted all the same
                await asyncio.sleep(0.3)  # a retry would have run many times by now (0.01 s, doubling)
                assert not service._archive_retries
                assert METRICS.archive_failures._value.get() - attempts_before == 1
                assert given_up("DataError") - given_up_before == 1
                assert service.db.get(GameRecord, game.id) is None
                info = await save_error(campaign.id)
                with pytest.raises(Rejected) as refused:
                    await service.start_next_game(campaign.id)
                # the operator widens the column; the next start-up archives the game
                with service.db.engine.begin() as conn:
                    conn.execute(text("ALTER TABLE game_records ALTER COLUMN seed TYPE bigint"))
                archived = await service.archive_pending()
                after = await save_error(campaign.id)
                following = (await service.start_next_game(campaign.id)).table
                return campaign, game, info, refused.value, archived, after, following
            finally:
                await service.close()
                await service.db.aclose()

        campaign, game, info, refused, archived, after, following = asyncio.run(scenario())
        assert info["sessions"] == 0 and "DataError" in info["saveError"] and game.id in info["saveError"]
        assert "INSERT" not in info["saveError"] and "%(" not in info["saveError"]  # no SQL, no parameters
        assert refused.code == "SAVE_FAILED" and refused.message == info["saveError"]
        [line] = [r for r in caplog.records if "retrying cannot fix" in r.getMessage()]
        assert line.table == game.id and line.error == "DataError" and "out of range" in line.detail
        assert archived == 1 and after == {"sessions": 1, "saveError": None}
        assert service.db.get(GameRecord, game.id).seed == 2**40
        assert len(service.db.all(GameAction.__table__.select().where(GameAction.game_id == game.id))) == game.version
        assert service.db.get(Campaign, campaign.id).save_error == ""
        assert following.meta["campaign_id"] == campaign.id
        service.db.engine.dispose()
