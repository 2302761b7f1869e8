"""A small GraphQL client for the tests, on `gql` (HTTP and WebSocket transports)."""
from __future__ import annotations

import contextlib

from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.websockets import WebsocketsTransport

CREATE = """mutation($input: CreateTableInput!) { createTable(input: $input) {
  __typename ... on CreateTableOk { hostToken joinCode table { id version status } } ... on Rejected { code message } } }"""
JOIN = """mutation($t: String!, $s: Int!, $n: String!, $c: String) { joinTable(tableId: $t, seat: $s, name: $n, code: $c) {
  __typename ... on JoinOk { seat seatToken } ... on Rejected { code message } } }"""
TABLE = """query($t: String!) { table(id: $t) { id version status activeSeats legalActions { type params }
  phase { name step round } result } }"""
ACT = """mutation($t: String!, $a: ActionInput!, $v: Int) { act(tableId: $t, action: $a, expectedVersion: $v) {
  __typename ... on ActOk { version } ... on ActRejected { code message } } }"""
UPDATES = """subscription($t: String!, $after: Int!) { tableUpdates(tableId: $t, afterVersion: $after) {
  version events table { version status } } }"""


def http(url: str, token: str | None = None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return Client(transport=AIOHTTPTransport(url=url, headers=headers), fetch_schema_from_transport=False)


def ws(url: str, token: str | None = None, legacy: bool = False) -> Client:
    proto = WebsocketsTransport.APOLLO_SUBPROTOCOL if legacy else WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL
    payload = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(transport=WebsocketsTransport(url=url, init_payload=payload, subprotocols=[proto]),
                  fetch_schema_from_transport=False)


async def run(session, query: str, **variables) -> dict:
    return await session.execute(GraphQLRequest(query, variable_values=variables))


@contextlib.asynccontextmanager
async def sessions(url: str, tokens: dict):
    """{key: session} for each token (None = anonymous)."""
    async with contextlib.AsyncExitStack() as stack:
        out = {}
        for key, token in tokens.items():
            out[key] = await stack.enter_async_context(http(url, token))
        yield out


async def create_and_join(session, game: str, players: int, seed: int = 1, options=None, modules=None,
                          with_host: bool = False):
    res = await run(session, CREATE, input={"game": game, "players": players, "seed": seed,
                                            "options": options or {}, "modules": modules or []})
    created = res["createTable"]
    assert created["__typename"] == "CreateTableOk", created
    table_id = created["table"]["id"]
    tokens = {}
    for seat in range(players):
        joined = (await run(session, JOIN, t=table_id, s=seat, n=f"P{seat}", c=created["joinCode"]))["joinTable"]
        assert joined["__typename"] == "JoinOk", joined
        tokens[seat] = joined["seatToken"]
    return (table_id, tokens, created["hostToken"]) if with_host else (table_id, tokens)


async def states_seen(url: str, query: str, table_id: str, tokens: dict) -> dict:
    """Each seat's (by its token) and a spectator's `table.state` answer to `query`."""
    seen = {}
    async with sessions(url, tokens) as ss:
        for seat, session in ss.items():
            seen[seat] = (await run(session, query, t=table_id))["table"]["state"]
    async with http(url) as anon:
        seen["spectator"] = (await run(anon, query, t=table_id))["table"]["state"]
    return seen
