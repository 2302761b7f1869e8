"""Fair, secret randomness through the real API:

- whole bot games with server-drawn seeds, read by every seat, a spectator, the host token
  and a junk token (every `Table` field over HTTP - stateJson, typed state, log, glossary -
  and every update of every seat's, the spectator's and the host's subscription): no answer
  holds the seed or any RNG state the game went through (their decimal digits, from the
  engine's own replay);
- the table shows its seed commitment from the start and reveals the seed only at the end;
  the revealed seed matches the commitment and the engine's replay of the game from it
  gives the server's final state, for every viewer.
"""
from __future__ import annotations

import asyncio
import json
import random

import httpx
from gql import GraphQLRequest
from graphql import parse

from core.seeds import commitment, matches
from core import default_registry, replay, to_action, view
from tests.api.client import ws
from tests.api.test_auth_and_secrets import selection

# Every field of Table but the seed itself (revealed at the end, read on its own there).
TABLE_ALL = selection("Table", skip={"Table.seed"})
READ_ALL = "query($t: String!) { table(id: $t) " + TABLE_ALL + " }"
UPDATES_ALL = ("subscription($t: String!) { tableUpdates(tableId: $t, afterVersion: 0) { version events table "
               + selection("Table", skip={"Table.log", "Table.seed"}) + " } }")
CREATE = """mutation($i: CreateTableInput!) { createTable(input: $i) { __typename
  ... on CreateTableOk { hostToken joinCode table { id seed seedCommitment seedChosenByCreator } }
  ... on Rejected { code message } } }"""
JOIN = """mutation($t: String!, $s: Int!, $c: String) { joinTable(tableId: $t, seat: $s, name: "P", code: $c) {
  ... on JoinOk { seatToken } } }"""
ACT = """mutation($t: String!, $a: ActionInput!) { act(tableId: $t, action: $a) {
  __typename ... on ActOk { version } ... on ActRejected { code message } } }"""
MINE = "query($t: String!) { table(id: $t) { version status activeSeats legalActions { type params } } }"
REVEAL = "query($t: String!) { table(id: $t) { status seed seedCommitment seedChosenByCreator stateJson } }"
JUNK = "not-a-seat-token-at-all"


async def gql(client: httpx.AsyncClient, query: str, token: str | None = None, **variables) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    res = await client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    body = res.json()
    assert not body.get("errors"), body
    return body["data"]


async def follow(url: str, table_id: str, token: str | None, texts: list[str]) -> None:
    """Every update of one subscription, as text, until the game is over."""
    async with ws(url, token) as session:
        async for update in session.subscribe(GraphQLRequest(parse(UPDATES_ALL), variable_values={"t": table_id})):
            texts.append(json.dumps(update))
            if update["tableUpdates"]["table"]["status"] == "finished":
                return


async def read_everything(client, table_id: str, viewers: dict, texts: list[str]) -> None:
    """Every field of the table for every viewer, as text. A junk token may be refused (an
    error answer): whatever comes back is kept and searched."""
    for token in viewers.values():
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        res = await client.post("/graphql", json={"query": READ_ALL, "variables": {"t": table_id}}, headers=headers)
        texts.append(res.text)


async def play_and_read(server, game: str, players: int, seed: int):
    """A bot game over the API; returns (table id, creation answer, log, every text read, reveal)."""
    texts: list[str] = []
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
        created = (await gql(client, CREATE, i={"game": game, "players": players}))["createTable"]
        assert created["__typename"] == "CreateTableOk", created
        texts.append(json.dumps(created))
        table_id = created["table"]["id"]
        tokens = {s: (await gql(client, JOIN, t=table_id, s=s, c=created["joinCode"]))["joinTable"]["seatToken"] for s in range(players)}
        viewers = {**tokens, "spectator": None, "host": created["hostToken"], "junk": JUNK}
        followed = {k: [] for k in [*tokens, "spectator", "host"]}
        subs = [asyncio.create_task(follow(server.ws_url, table_id, viewers[k], got)) for k, got in followed.items()]
        log: list[tuple[int, dict]] = []
        for step in range(3000):
            public = (await gql(client, MINE, t=table_id))["table"]
            if step % 25 == 0 or public["status"] == "finished":
                await read_everything(client, table_id, viewers, texts)
            if public["status"] == "finished":
                break
            seat = rng.choice(public["activeSeats"])
            mine = (await gql(client, MINE, tokens[seat], t=table_id))["table"]
            action = rng.choice(mine["legalActions"])
            action = {"type": action["type"], "params": action["params"]}
            res = (await gql(client, ACT, tokens[seat], t=table_id, a=action))["act"]
            assert res["__typename"] == "ActOk", res
            log.append((seat, action))
        else:
            raise AssertionError("the bot game did not end")
        await asyncio.wait_for(asyncio.gather(*subs), timeout=60)
        for key, got in followed.items():
            assert got, f"the subscription of {key} sent nothing"
            texts.extend(got)
        revealed = {key: (await gql(client, REVEAL, token, t=table_id))["table"]
                    for key, token in viewers.items() if key != "junk"}
    return table_id, created, log, texts, revealed


def rng_states(game: str, players: int, seed: int, log, campaign=None) -> tuple[object, set[int]]:
    """The engine's replay of the game, and every RNG state the table held on the way."""
    table = replay(game, players, seed, [], campaign=campaign)
    seen = {table.state.rng}
    for seat, action in log:
        table.act(seat, to_action(action))
        seen.add(table.state.rng)
    return table, seen


def campaign_at_start(game: str, players: int):
    """A campaign game's saved state at its start: a new campaign's (createTable without a
    campaign starts one; its state is a pure function of the players and options)."""
    if game != "queens-dilemma":
        return None
    from core.state import Seat

    rules = default_registry().rules_for(game, [])
    return rules.hook.conclave_campaign_new(game=game, seats=[Seat(index=i) for i in range(players)], options={})


def check_game(server, game: str, players: int, bot_seed: int) -> None:
    table_id, created, log, texts, revealed = asyncio.run(play_and_read(server, game, players, bot_seed))
    # from the start: a commitment, no seed, not chosen
    assert created["table"]["seed"] is None and created["table"]["seedChosenByCreator"] is False
    claimed = created["table"]["seedCommitment"]
    assert len(claimed) == 64 and int(claimed, 16) >= 0
    # at the end: the seed, matching the commitment, for every viewer alike
    seeds = {r["seed"] for r in revealed.values()}
    assert len(seeds) == 1 and None not in seeds, revealed
    seed = int(seeds.pop())
    assert matches(table_id, seed, claimed) and commitment(table_id, seed) == claimed
    assert all(r["seedCommitment"] == claimed and r["status"] == "finished" for r in revealed.values())
    # the replay from the revealed seed is the server's game
    camp = campaign_at_start(game, players)
    table, states = rng_states(game, players, seed, log, campaign=camp)
    assert table.state.finished
    for key, r in revealed.items():
        viewer = key if isinstance(key, int) else None
        assert r["stateJson"] == json.loads(json.dumps(view(table.rules, table.state, viewer))), key
    # nothing anyone read holds the seed or an RNG state
    secrets = {str(seed), *map(str, states)}
    assert len(str(seed)) >= 10  # 63 random bits: digits that cannot turn up by chance
    found = [(s, i) for i, text in enumerate(texts) for s in secrets if s in text]
    assert not found, f"{len(found)} answers hold the seed or RNG state, e.g. {texts[found[0][1]][:300]}"
    assert len(texts) > 20


def test_no_view_of_a_new_capital_bot_game_holds_the_seed_or_rng_and_the_reveal_replays_it(server):
    check_game(server, "new-capital", 2, bot_seed=11)


def test_no_view_of_a_queens_dilemma_bot_game_holds_the_seed_or_rng_and_the_reveal_replays_it(embedded_server):
    check_game(embedded_server, "queens-dilemma", 3, bot_seed=12)
