"""The Queen's Dilemma's hidden information through the real API: after actions of a game
played by bots over GraphQL (each seat acting from its own legalActions), a walk over every
field of `table` (generated from schema.graphql: stateJson, prompts, log, glossary, ...) for
every seat and a spectator finds no other player's secret: their Ideology and Investment
cards (until the end reveals them), the Agenda cards they hold, the back of the Dilemma being
voted on, what unopened Envelopes hold. The secrets come from a local engine mirror of the
same game. QD-008, QD-038, QD-066, QD-090, QD-111, QD-343."""
from __future__ import annotations

import asyncio
import json
import random

from core import create_table, to_action, view
from tests.api.client import ACT, TABLE, create_and_join, http, run, sessions
from tests.api.test_auth_and_secrets import selection
from tests.queens_dilemma.test_secrets import secrets_for  # one definition of what a viewer may not read

GAME, PLAYERS, SEED = "queens-dilemma", 4, 12
WALK = "query($t: String!) { table(id: $t) " + selection("Table") + " }"


def test_no_viewer_reads_another_players_secrets_in_any_field(embedded_server):
    asyncio.run(_walk(embedded_server))


async def _walk(server, actions: int = 70, every: int = 5):
    async with http(server.url) as anon:
        table_id, tokens = await create_and_join(anon, GAME, PLAYERS, seed=SEED)
    mirror = create_table(GAME, PLAYERS, seed=SEED)
    rng = random.Random(SEED)
    checked = 0
    async with sessions(server.url, {**tokens, None: None}) as ss:
        for n in range(actions):
            t = (await run(ss[0], TABLE, t=table_id))["table"]
            if t["status"] == "finished":
                break
            seat = rng.choice(t["activeSeats"])
            mine = (await run(ss[seat], TABLE, t=table_id))["table"]
            action = rng.choice([a for a in mine["legalActions"] if a["type"] != "pay"] or mine["legalActions"])
            res = (await run(ss[seat], ACT, t=table_id, a=action, v=mine["version"]))["act"]
            assert res["__typename"] == "ActOk", res
            mirror.act(seat, to_action(action))
            if n % every:
                continue
            for viewer in [*range(PLAYERS), None]:
                table = (await run(ss[viewer], WALK, t=table_id))["table"]
                assert table["stateJson"] == view(mirror.rules, mirror.state, viewer)  # the mirror is this game
                seen = json.dumps(table)
                for secret in secrets_for(mirror.state, viewer):
                    assert secret not in seen, (viewer, secret, mirror.state.phase)
                checked += 1
    assert checked >= 60 and mirror.state.round >= 2
