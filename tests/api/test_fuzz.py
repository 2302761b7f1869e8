"""Fuzzing a real server (Redis live tables, PostgreSQL campaigns) over its own SDL.

hypothesis-graphql builds queries and mutations from schema.graphql; their `String`
arguments are often the ids of real tables and campaigns, their `JSON` arguments often
table options named as the games name them (Characters, absent seats, scenarios) with any
JSON value, and every request carries one of a seat's, a host's, a junk or no token. Then
subscriptions over both WebSocket protocols, with real and made-up table ids. Whatever
comes back: no 5xx, every error has `extensions.code` and a client-safe message, every
refusal of a WebSocket operation is the protocol's error message, and the server's log
holds no traceback. Bounded by example counts (well under a minute).

`pack` is left out of the option names: packs become names (another change of issue 13),
and a path with a NUL byte is that change's to refuse.
"""
from __future__ import annotations

import asyncio
import json
import os

import graphql
import httpx
import pytest
import websockets
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis_graphql import from_schema, nodes

from tests.api.client import http, run
from tests.api.services import IN_CI, ROOT

SDL = (ROOT / "schema.graphql").read_text()
OPTION_NAMES = ["characters", "absent", "defected", "scenario"]
CHARACTERS = ["Aesyas", "Elinor", "Jilian", "Lyrie", "Syd", "Xanthe"]
LEAKS = ("Traceback", "SELECT", "INSERT", "psycopg", "sqlalchemy", "/work/", "site-packages", 'File "')
EXAMPLES = int(os.environ.get("CONCLAVE_FUZZ_EXAMPLES", "150"))  # ~0.1 s each, mostly generating
CREATE = """mutation($input: CreateTableInput!) { createTable(input: $input) {
  ... on CreateTableOk { hostToken joinCode table { id campaignId } } ... on Rejected { code message } } }"""
JOIN = """mutation($t: String!, $s: Int!, $c: String) { joinTable(tableId: $t, seat: $s, name: "fuzz", code: $c) {
  ... on JoinOk { seatToken } ... on Rejected { code message } } }"""
TICK = """mutation($t: String!) { act(tableId: $t, action: {type: "tick", params: {n: 1}}) {
  ... on ActOk { version } ... on ActRejected { code message } } }"""
TICKS = 3  # the endless table's versions: a subscription from before them has a backlog
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=IN_CI, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One server and a few real tables: (server, {kind: [ids]}, {role: [tokens]})."""
    from tests.api.conftest import server_factory, storage_env

    tmp = tmp_path_factory.mktemp("fuzz")
    with storage_env("redis", tmp) as env, server_factory(env, tmp) as make:
        server = make()
        ids, tokens = asyncio.run(_tables(server))
        yield server, ids, tokens


async def _tables(server):
    ids = {"table": [], "campaign": [], "code": []}
    tokens = {"seat": [], "host": []}
    async with http(server.url) as anon:
        for game, players in (("endless", 2), ("new-capital", 2), ("queens-dilemma", 3)):
            made = (await run(anon, CREATE, input={"game": game, "players": players}))["createTable"]
            table = made["table"]
            ids["table"].append(table["id"])
            if table["campaignId"]:
                ids["campaign"].append(table["campaignId"])
            tokens["host"].append(made["hostToken"])
            ids["code"].append(made["joinCode"])
            for seat in range(2 if game == "endless" else 1):
                joined = (await run(anon, JOIN, t=table["id"], s=seat, c=made["joinCode"]))["joinTable"]
                tokens["seat"].append(joined["seatToken"])
    for tick in range(TICKS):  # the endless table's seats take turns
        async with http(server.url, tokens["seat"][tick % 2]) as seat:
            assert "version" in (await run(seat, TICK, t=ids["table"][0]))["act"]
    return ids, tokens


def json_values() -> st.SearchStrategy:
    scalars = (st.none() | st.booleans() | st.integers(-3, 8) | st.integers()
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12) | st.sampled_from(CHARACTERS))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


def json_node(value) -> object:
    """A JSON value as a GraphQL literal node (the `JSON` scalar reads literals too)."""
    if value is None:
        return graphql.NullValueNode()
    if isinstance(value, bool):
        return nodes.Boolean(value)
    if isinstance(value, int):
        return nodes.Int(value)
    if isinstance(value, float):
        return nodes.Float(value)
    if isinstance(value, str):
        return nodes.String(value)
    if isinstance(value, list):
        return nodes.List([json_node(v) for v in value])
    return nodes.Object([graphql.ObjectFieldNode(name=graphql.NameNode(value=k), value=json_node(v))
                         for k, v in value.items()])


def options() -> st.SearchStrategy:
    """Mostly option objects with the games' own option names; sometimes any JSON at all."""
    named = st.dictionaries(st.sampled_from(OPTION_NAMES),
                            json_values() | st.lists(st.sampled_from(CHARACTERS), max_size=7), max_size=3)
    return named | json_values()


def strings(ids: dict) -> st.SearchStrategy:
    real = [*ids["table"], *ids["campaign"], *ids["code"]]
    return (st.sampled_from(real) | st.sampled_from(["endless", "new-capital", "queens-dilemma", "age-of-disorder"])
            | st.text(max_size=16))


def tokens_of(tokens: dict) -> st.SearchStrategy:
    """Seat and host tokens, no token, and now and then a junk one (refused outright)."""
    return st.sampled_from([*tokens["seat"], *tokens["host"], None, None, None, "junk-token"])


def assert_typed(body: dict, status: int) -> None:
    assert status < 500, body
    errors = body.get("errors") or []
    if status != 200:
        assert errors, body
    for error in errors:
        assert (error.get("extensions") or {}).get("code"), f"untyped error: {error}"
        assert not any(leak in error["message"] for leak in LEAKS), error


def assert_clean_log(server) -> None:
    text = server.log_path.read_text(errors="replace")
    assert "Traceback" not in text, text[text.index("Traceback") - 2000:][:6000]
    for line in text.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            assert record.get("level") != "error" and "exc" not in record, record


def test_fuzzed_queries_and_mutations_get_only_typed_errors_and_log_no_traceback(world):
    server, ids, tokens = world
    client = httpx.Client(timeout=30)
    custom = {"String": strings(ids).map(nodes.String), "JSON": options().map(json_node),
              "Int": (st.integers(-2, 8) | st.integers(-2**40, 2**40)).map(nodes.Int)}
    seen = {"ok": 0, "errors": 0}

    @FUZZ
    @given(query=from_schema(SDL, custom_scalars=custom), token=tokens_of(tokens))
    def check(query, token):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = client.post(server.url, json={"query": query}, headers=headers)
        assert r.headers["content-type"].startswith("application/json"), r.text
        body = r.json()
        assert_typed(body, r.status_code)
        seen["errors" if body.get("errors") else "ok"] += 1

    check()
    client.close()
    assert seen["ok"] > EXAMPLES // 5, seen  # the fuzz reached the resolvers, not only the refusals
    assert_clean_log(server)


SUBSCRIBE = "subscription($t: String!, $a: Int!) { tableUpdates(tableId: $t, afterVersion: $a) { version events } }"


async def _first_message(url: str, protocol: str, token: str | None, query: str, variables: dict) -> dict | str:
    """The first message after the ack, or how the connection ended."""
    start = "subscribe" if protocol == "graphql-transport-ws" else "start"
    try:
        async with websockets.connect(url, subprotocols=[protocol]) as ws:
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"Authorization": f"Bearer {token}"} if token else {}}))
            ack = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if ack["type"] != "connection_ack":
                return ack
            await ws.send(json.dumps({"id": "1", "type": start, "payload": {"query": query, "variables": variables}}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1))
                if message["type"] != "ka":
                    return message
    except websockets.ConnectionClosed as exc:
        return f"closed {exc.rcvd.code if exc.rcvd else None}"
    except asyncio.TimeoutError:
        return "silent"


def test_fuzzed_subscriptions_get_data_or_the_protocols_typed_error(world):
    server, ids, tokens = world
    documents = st.sampled_from([SUBSCRIBE, "subscription { tableUpdates(tableId: ", "subscription { nope }",
                                 "query { games { id } }", SUBSCRIBE.replace("events", "events " + "x " * 3)])

    def verify(protocol, token, query, table, after, variables) -> str:
        got = asyncio.run(_first_message(server.ws_url, protocol, token, query, variables))
        if got == "silent":  # only a good subscription with nothing after its version yet
            version = TICKS if table == ids["table"][0] else 0
            assert query == SUBSCRIBE and variables == {"t": table, "a": after} and table in ids["table"] \
                and max(after, 0) >= version, got  # a negative afterVersion reads from the start
            return got
        if token == "junk-token":
            assert got == "closed 4403" if protocol == "graphql-transport-ws" else got["type"] == "connection_error"
            return "refused"
        assert isinstance(got, dict) and got["type"] in ("next", "data", "error"), got
        errors = got["payload"] if got["type"] == "error" else got["payload"].get("errors", [])
        for error in errors if isinstance(errors, list) else [errors]:
            assert (error.get("extensions") or {}).get("code"), f"untyped error: {error}"
            assert not any(leak in error["message"] for leak in LEAKS), error
        if got["type"] != "error" and "errors" not in got["payload"]:
            assert got["payload"]["data"], got
        return got["type"]

    for protocol, token in [("graphql-transport-ws", tokens["seat"][0]), ("graphql-ws", None)]:  # the good way
        assert verify(protocol, token, SUBSCRIBE, ids["table"][0], 0, {"t": ids["table"][0], "a": 0}) in ("next", "data")

    @settings(FUZZ, max_examples=max(20, EXAMPLES // 4))
    @given(protocol=st.sampled_from(["graphql-transport-ws", "graphql-ws"]), token=tokens_of(tokens),
           query=documents, table=strings(ids), after=st.integers(-3, 3) | st.integers(),
           well_formed=st.sampled_from([True, True, True, False]), bad=json_values())
    def check(protocol, token, query, table, after, well_formed, bad):
        verify(protocol, token, query, table, after, {"t": table, "a": after} if well_formed else {"t": bad})

    check()
    assert_clean_log(server)
