"""Abuse and bad input through the real API: query depth, aliases and tokens, request body
size, floods per token and per address, unknown ids, refused tables and seats, malformed
actions and malformed GraphQL. Each is refused clearly and changes nothing, and the server
stays healthy. Most tests run in the embedded mode only; those whose code differs per live
store (unknown ids, seat races, the log) run in both. Limits are set low per server through
the environment; rate buckets refill at 0.001/s, so "burst N" means exactly N requests."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from gql import GraphQLRequest
from gql.transport.exceptions import TransportQueryError

from tests.api.client import ACT, CREATE, JOIN, TABLE, create_and_join, http, ws

BOTH = pytest.mark.parametrize("mode", ["embedded", "redis"])
STATE = "query($t: String!) { table(id: $t) { version stateJson log { version seat } } }"
TICK = {"type": "tick", "params": {"n": 1}}


@pytest.fixture
def mode():
    """One mode is enough for the edge limits (they live in the ASGI app, not the stores)."""
    return "embedded"


def post(server, query: str, token: str | None = None, **variables) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(server.url, json={"query": query, "variables": variables}, headers=headers, timeout=10)


def gql(server, query: str, token: str | None = None, **variables) -> dict:
    r = post(server, query, token, **variables)
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()


def new_table(server, game="endless", players=2, seed=1) -> tuple[str, dict]:
    async def go():
        async with http(server.url) as anon:
            return await create_and_join(anon, game, players, seed=seed)

    return asyncio.run(go())


def snapshot(server, table_id: str, token: str | None = None) -> dict:
    body = gql(server, STATE, token, t=table_id)
    assert "errors" not in body, body
    return body["data"]["table"]


def healthy(server) -> None:
    assert httpx.get(f"{server.base}/healthz").json() == {"ok": True}
    assert httpx.get(f"{server.base}/readyz").json()["ready"] is True
    body = gql(server, "{ games { id } }")
    assert {"new-capital", "endless"} <= {g["id"] for g in body["data"]["games"]}


def error_messages(body: dict) -> str:
    assert body.get("errors"), body
    return " | ".join(e["message"] for e in body["errors"])


# -- query depth, aliases, tokens -------------------------------------------------------------------
DEEP_QUERY = """query($t: String!) { table(id: $t) { state { ... on NewCapitalState {
  players { columns { slots { leader } } } } } } }"""
DEEP_ACT = """mutation($t: String!, $a: ActionInput!) { act(tableId: $t, action: $a) { ... on ActOk {
  table { state { ... on NewCapitalState { players { columns { slots { leader } } } } } } } } }"""


def test_a_too_deep_query_is_refused_with_a_clear_error_and_a_too_deep_act_changes_nothing(make_server):
    server = make_server(CONCLAVE_MAX_QUERY_DEPTH="4")
    table_id, tokens = new_table(server)
    before = snapshot(server, table_id)
    body = gql(server, DEEP_QUERY, t=table_id)
    assert body["data"] is None and "depth" in error_messages(body) and "4" in error_messages(body)
    body = gql(server, DEEP_ACT, tokens[0], t=table_id, a=TICK)
    assert body["data"] is None and "depth" in error_messages(body)
    assert snapshot(server, table_id) == before
    # at the limit it is served
    at_limit = "query($t: String!) { table(id: $t) { log { action { type } } } }"
    assert "errors" not in gql(server, at_limit, tokens[0], t=table_id)
    healthy(server)


def test_too_many_aliases_are_refused_and_aliased_acts_change_nothing(make_server):
    server = make_server(CONCLAVE_MAX_ALIASES="3")
    table_id, tokens = new_table(server)
    before = snapshot(server, table_id)
    four = "query($t: String!) { a: table(id: $t) { id } b: table(id: $t) { id } c: table(id: $t) { id } d: table(id: $t) { id } }"
    body = gql(server, four, t=table_id)
    assert body["data"] is None and "aliases" in error_messages(body) and "3" in error_messages(body)
    acts = "mutation($t: String!, $a: ActionInput!) { " + " ".join(
        f"x{i}: act(tableId: $t, action: $a) {{ __typename }}" for i in range(6)) + " }"
    body = gql(server, acts, tokens[0], t=table_id, a=TICK)
    assert body["data"] is None and "aliases" in error_messages(body)
    assert snapshot(server, table_id) == before
    three = four.rsplit(" d:", 1)[0] + " }"
    assert gql(server, three, t=table_id)["data"] == {k: {"id": table_id} for k in "abc"}


def test_too_many_tokens_are_refused_and_change_nothing(make_server):
    server = make_server(CONCLAVE_MAX_TOKENS="200")
    table_id, tokens = new_table(server)
    before = snapshot(server, table_id)
    long_query = "query($t: String!) { table(id: $t) { " + "id " * 300 + "} }"
    body = gql(server, long_query, t=table_id)
    assert body["data"] is None and "tokens" in error_messages(body) and "200" in error_messages(body)
    long_act = ("mutation($t: String!, $a: ActionInput!) { act(tableId: $t, action: $a) { __typename "
                + "__typename " * 300 + "} }")
    body = gql(server, long_act, tokens[0], t=table_id, a=TICK)
    assert body["data"] is None and "tokens" in error_messages(body)
    assert snapshot(server, table_id) == before
    healthy(server)


# -- request body size -----------------------------------------------------------------------------------
def test_a_body_over_the_limit_gets_413_body_too_large_and_changes_nothing(make_server):
    server = make_server(CONCLAVE_MAX_BODY_BYTES="2048")
    table_id, tokens = new_table(server)
    before = snapshot(server, table_id)
    big = {"type": "tick", "params": {"n": 1, "pad": "x" * 4000}}
    for send in (
        lambda: post(server, ACT, tokens[0], t=table_id, a=big),  # with a Content-Length
        lambda: httpx.post(server.url, headers={"Authorization": f"Bearer {tokens[0]}",  # chunked: no length
                                                "Content-Type": "application/json"},
                           content=iter([json.dumps({"query": ACT, "variables": {"t": table_id, "a": big}}).encode()])),
    ):
        r = send()
        assert r.status_code == 413, (r.status_code, r.text)
        assert r.json()["errors"][0]["extensions"]["code"] == "BODY_TOO_LARGE"
        assert "2048" in r.json()["errors"][0]["message"]
    assert snapshot(server, table_id) == before
    # exactly at the limit is served
    small = {"query": ACT, "variables": {"t": table_id, "a": TICK}, "pad": ""}
    small["pad"] = "x" * (2048 - len(json.dumps(small)))
    exactly = json.dumps(small).encode()
    assert len(exactly) == 2048
    r = httpx.post(server.url, content=exactly, headers={"Authorization": f"Bearer {tokens[0]}",
                                                         "Content-Type": "application/json"})
    assert r.status_code == 200 and r.json()["data"]["act"]["__typename"] == "ActOk", r.text
    healthy(server)


# -- floods -----------------------------------------------------------------------------------------------------
def test_a_flood_from_one_token_gets_429_while_other_tokens_still_work(make_server):
    server = make_server(CONCLAVE_RATE_PER_SECOND="0.001", CONCLAVE_RATE_BURST="5")
    table_id, tokens = new_table(server)
    statuses = [post(server, TABLE, tokens[0], t=table_id).status_code for _ in range(5)]
    assert statuses == [200] * 5
    before = snapshot(server, table_id)
    for _ in range(3):
        r = post(server, ACT, tokens[0], t=table_id, a=TICK)
        assert r.status_code == 429, r.text
        assert r.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
    assert snapshot(server, table_id) == before  # a refused act did not happen
    # other tokens and anonymous readers are not affected
    assert gql(server, ACT, tokens[1], t=table_id, a=TICK)["data"]["act"]["__typename"] == "ActOk"
    assert post(server, TABLE, t=table_id).status_code == 200
    assert post(server, ACT, tokens[0], t=table_id, a=TICK).status_code == 429  # still limited
    healthy(server)


def test_a_flood_from_one_address_gets_429_for_every_token(make_server):
    server = make_server(CONCLAVE_ADDRESS_RATE_PER_SECOND="0.001", CONCLAVE_ADDRESS_BURST="12")
    table_id, tokens = new_table(server)  # 3 requests (create, 2 joins)
    assert [post(server, TABLE, tokens[i % 2], t=table_id).status_code for i in range(9)] == [200] * 9
    for token in (None, tokens[0], tokens[1], "a-token-never-seen"):
        r = post(server, ACT, token, t=table_id, a=TICK)
        assert r.status_code == 429, r.text
        assert r.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
    assert httpx.get(f"{server.base}/healthz").status_code == 200  # health checks are never limited


def test_a_flood_of_graphql_get_requests_is_limited_like_posts(make_server):
    """`/graphql` serves queries over GET too; a flood must not pass by switching method."""
    server = make_server(CONCLAVE_RATE_PER_SECOND="0.001", CONCLAVE_RATE_BURST="5",
                         CONCLAVE_ADDRESS_RATE_PER_SECOND="0.001", CONCLAVE_ADDRESS_BURST="40")
    table_id, tokens = new_table(server)
    query = "query($t: String!) { table(id: $t) { version log { version events } } }"
    statuses = [httpx.get(server.url, params={"query": query, "variables": json.dumps({"t": table_id})},
                          headers={"Authorization": f"Bearer {tokens[0]}"}).status_code for _ in range(60)]
    assert statuses[0] == 200
    assert 429 in statuses, f"60 GET queries from one token and one address, none refused: {set(statuses)}"


# -- unknown ids ------------------------------------------------------------------------------------------------
@BOTH
def test_an_unknown_table_id_reads_null_and_join_says_unknown_table(make_server):
    server = make_server()
    table_id, tokens = new_table(server)
    for bad in ("nope", "", table_id + "0", "x" * 500, "../" + table_id, "*"):
        body = gql(server, TABLE, tokens[0], t=bad)
        assert body == {"data": {"table": None}}, (bad, body)
        joined = gql(server, JOIN, t=bad, s=0, n="x")["data"]["joinTable"]
        assert joined["__typename"] == "Rejected" and joined["code"] == "UNKNOWN_TABLE", joined
        async_err = asyncio.run(_subscribe_error(server, bad))
        assert "no table" in async_err, async_err
        body = gql(server, ACT, t=bad, a=TICK)  # an unknown table says so first, token or not
        assert body["data"]["act"]["code"] == "UNKNOWN_TABLE", body
    assert snapshot(server, table_id)["version"] == 0
    healthy(server)


@BOTH
def test_act_on_an_unknown_table_with_a_valid_seat_token_says_unknown_table(make_server):
    """The token holds a seat elsewhere; the table named does not exist: the precise answer is
    UNKNOWN_TABLE (as joinTable gives), not FORBIDDEN."""
    server = make_server()
    table_id, tokens = new_table(server)
    res = gql(server, ACT, tokens[0], t="nope", a=TICK)["data"]["act"]
    assert res["__typename"] == "ActRejected"
    assert res["code"] == "UNKNOWN_TABLE", res
    assert snapshot(server, table_id)["version"] == 0


async def _subscribe_error(server, table_id: str) -> str:
    async with ws(server.ws_url) as session:
        try:
            async for _ in session.subscribe(GraphQLRequest(
                    "subscription($t: String!) { tableUpdates(tableId: $t) { version } }", variable_values={"t": table_id})):
                return "an update arrived"
        except TransportQueryError as exc:
            return str(exc)
    return "the subscription ended without an error"


# -- refused tables and seats ------------------------------------------------------------------------------------
def test_create_table_refuses_unknown_games_modules_player_counts_and_options_and_creates_nothing(server):
    count = lambda: len(gql(server, "{ tables { id } }")["data"]["tables"])  # noqa: E731
    cases = [
        ({"game": "chess", "players": 2}, "UNKNOWN_GAME", ["chess", "new-capital"]),
        ({"game": "", "players": 2}, "UNKNOWN_GAME", ["new-capital"]),
        ({"game": "new-capital", "players": 2, "modules": ["nc-nope"]}, "UNKNOWN_MODULE", ["nc-nope"]),
        ({"game": "new-capital", "players": 2, "modules": ["x-1", "x-1"]}, "INCOMPATIBLE_MODULES", ["x-1"]),
        ({"game": "new-capital", "players": 0}, "BAD_PLAYER_COUNT", ["1-4", "0"]),
        ({"game": "new-capital", "players": 5}, "BAD_PLAYER_COUNT", ["1-4", "5"]),
        ({"game": "new-capital", "players": -1}, "BAD_PLAYER_COUNT", ["-1"]),
        ({"game": "new-capital", "players": 2, "options": {"scenario": "zzz"}}, "BAD_OPTION", ["scenario", "zzz"]),
        ({"game": "new-capital", "players": 2, "options": {"colour": "red"}}, "BAD_OPTION", ["colour"]),
    ]
    for inp, code, words in cases:
        res = gql(server, CREATE, input=inp)["data"]["createTable"]
        assert res["__typename"] == "Rejected" and res["code"] == code, (inp, res)
        for word in words:
            assert word in res["message"], (inp, res)
    assert count() == 0
    # a wrong GraphQL type never reaches the service
    body = gql(server, CREATE, input={"game": "new-capital", "players": "2"})
    assert body["data"] is None and "players" in error_messages(body)
    assert count() == 0
    healthy(server)


def test_create_table_refuses_options_that_are_not_an_object_as_bad_option(server):
    """`options` is JSON; a list, string or number is bad input, to be refused as data."""
    for options in ("abc", [1, 2], 5):
        body = gql(server, CREATE, input={"game": "new-capital", "players": 2, "options": options})
        assert "errors" not in body, (options, body)
        res = body["data"]["createTable"]
        assert res["__typename"] == "Rejected" and res["code"] == "BAD_OPTION", (options, res)
    assert gql(server, "{ tables { id } }")["data"]["tables"] == []


@BOTH
def test_a_taken_seat_is_refused_and_a_race_for_one_seat_has_one_winner(make_server):
    server = make_server()
    created = gql(server, CREATE, input={"game": "endless", "players": 2, "seed": 1})["data"]["createTable"]
    table_id, code = created["table"]["id"], created["joinCode"]
    tokens = [gql(server, JOIN, t=table_id, s=s, n=f"P{s}", c=code)["data"]["joinTable"]["seatToken"] for s in range(2)]
    res = gql(server, JOIN, t=table_id, s=0, n="thief", c=code)["data"]["joinTable"]
    assert res["__typename"] == "Rejected" and res["code"] == "SEAT_TAKEN", res
    for seat in (2, -1, 99):
        res = gql(server, JOIN, t=table_id, s=seat, n="x", c=code)["data"]["joinTable"]
        assert res["__typename"] == "Rejected" and res["code"] == "UNKNOWN_SEAT", res
    seats = gql(server, "query($t: String!) { table(id: $t) { seats { seat name taken } } }", t=table_id)
    assert seats["data"]["table"]["seats"] == [{"seat": 0, "name": "P0", "taken": True},
                                              {"seat": 1, "name": "P1", "taken": True}]
    assert gql(server, ACT, tokens[0], t=table_id, a=TICK)["data"]["act"]["__typename"] == "ActOk"

    # twelve clients race for the one free seat of a new table: exactly one seat token
    created = gql(server, CREATE, input={"game": "endless", "players": 1})["data"]["createTable"]

    async def race():
        async with httpx.AsyncClient() as c:
            rs = await asyncio.gather(*(c.post(server.url, json={"query": JOIN, "variables": {
                "t": created["table"]["id"], "s": 0, "n": f"racer{i}", "c": created["joinCode"]}}) for i in range(12)))
        return [r.json()["data"]["joinTable"] for r in rs]

    results = asyncio.run(race())
    winners = [r for r in results if r["__typename"] == "JoinOk"]
    assert len(winners) == 1, results
    assert sorted(r.get("code") for r in results if r["__typename"] == "Rejected") == ["SEAT_TAKEN"] * 11
    view = gql(server, "query($t: String!) { table(id: $t) { viewer } }", winners[0]["seatToken"],
               t=created["table"]["id"])
    assert view["data"]["table"]["viewer"] == 0


# -- malformed actions ----------------------------------------------------------------------------------------------
def test_malformed_actions_are_refused_with_a_clear_code_and_change_nothing(server):
    table_id, tokens = new_table(server)
    legal = gql(server, TABLE, tokens[1], t=table_id)["data"]["table"]["legalActions"]
    assert legal == [{"type": "tick", "params": {"n": 1}}, {"type": "tick", "params": {"n": 2}}]
    before = snapshot(server, table_id, tokens[1])
    cases = [
        ({"type": "nope"}, "NOT_LEGAL_NOW", ["nope", "tick"]),
        ({"type": ""}, "NOT_LEGAL_NOW", ["tick"]),
        ({"type": "TICK", "params": {"n": 1}}, "NOT_LEGAL_NOW", ["TICK"]),
        ({"type": "tick"}, "BAD_PARAMETER", ["tick"]),  # missing params
        ({"type": "tick", "params": None}, "BAD_PARAMETER", ["tick"]),
        ({"type": "tick", "params": {}}, "BAD_PARAMETER", ["tick"]),
        ({"type": "tick", "params": {"m": 1}}, "BAD_PARAMETER", ["tick"]),
        ({"type": "tick", "params": {"n": 1, "extra": 2}}, "BAD_PARAMETER", ["extra"]),
        ({"type": "tick", "params": {"n": True}}, "BAD_PARAMETER", ["True"]),  # bool is not an int
        ({"type": "tick", "params": {"n": 1.0}}, "BAD_PARAMETER", ["1.0"]),  # nor is a float
        ({"type": "tick", "params": {"n": "1"}}, "BAD_PARAMETER", ["'1'"]),
        ({"type": "tick", "params": {"n": [1]}}, "BAD_PARAMETER", ["tick"]),
        ({"type": "tick", "params": {"n": 3}}, "BAD_PARAMETER", ["3"]),
        ({"type": "tick", "params": [1]}, "BAD_PARAMETER", ["malformed", "params"]),
        ({"type": "tick", "params": "n=1"}, "BAD_PARAMETER", ["malformed", "params"]),
    ]
    for action, code, words in cases:
        res = gql(server, ACT, tokens[1], t=table_id, a=action)["data"]["act"]
        assert res["__typename"] == "ActRejected" and res["code"] == code, (action, res)
        for word in words:
            assert word in res["message"], (action, res)
    # a float sent as a GraphQL literal, not a variable, is refused the same way
    literal = f'mutation {{ act(tableId: "{table_id}", action: {{type: "tick", params: {{n: 1.0}}}}) {{ ... on ActRejected {{ code }} }} }}'
    assert gql(server, literal, tokens[1])["data"]["act"] == {"code": "BAD_PARAMETER"}
    # shapes GraphQL itself refuses: an extra top-level field, no type, a wrong type
    for action, word in [({"type": "tick", "params": {"n": 1}, "seat": 0}, "seat"), ({"params": {"n": 1}}, "type"),
                         ({"type": 7, "params": {"n": 1}}, "type")]:
        body = gql(server, ACT, tokens[1], t=table_id, a=action)
        assert body["data"] is None and word in error_messages(body), (action, body)
    body = gql(server, ACT, tokens[1], t=table_id, a=TICK, v="0")
    assert body["data"] is None and "Int" in error_messages(body)
    res = gql(server, ACT, tokens[1], t=table_id, a=TICK, v=5)["data"]["act"]
    assert res["code"] == "STALE_VERSION" and "0" in res["message"]
    assert snapshot(server, table_id, tokens[1]) == before
    # and the legal action, exactly as listed, is still accepted
    assert gql(server, ACT, tokens[1], t=table_id, a=legal[1], v=0)["data"]["act"] == {"__typename": "ActOk", "version": 1}


# -- malformed GraphQL and HTTP ---------------------------------------------------------------------------------------
def test_malformed_graphql_gets_an_error_and_the_server_stays_healthy(server):
    table_id, tokens = new_table(server)
    before = snapshot(server, table_id)
    for query, word in [
        ('query { table(id: "x" { id } }', "Syntax Error"),
        ("mutation { act(tableId: ", "Syntax Error"),
        ("{ tabel(id: \"x\") { id } }", "tabel"),
        ("{ table { id } }", "id"),
        ("", "query"),
        ('subscription { tableUpdates(tableId: "x") { version } }', "subscription"),
    ]:
        r = httpx.post(server.url, json={"query": query}, headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code in (200, 400), (query, r.status_code, r.text)
        assert word.lower() in r.text.lower(), (query, r.text)
        if r.headers.get("content-type", "").startswith("application/json") and "errors" in r.json():
            assert r.json().get("data") is None
    for content, ctype in [(b"{not json", "application/json"), (b"", "application/json"),
                           (b"[1, 2]", "application/json"), (b"query { games { id } }", "text/plain"),
                           (b'{"query": 5}', "application/json")]:
        r = httpx.post(server.url, content=content, headers={"Content-Type": ctype})
        assert r.status_code in (400, 415), (content, r.status_code, r.text)
    # a mutation over GET is refused
    r = httpx.get(server.url, params={"query": "mutation($t: String!) { act(tableId: $t, action: {type: \"tick\","
                                                " params: {n: 1}}) { __typename } }", "variables": json.dumps({"t": table_id})},
                  headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code in (400, 405), (r.status_code, r.text)
    assert snapshot(server, table_id) == before
    healthy(server)


def test_a_body_that_is_not_utf8_gets_400_not_500(server):
    for content in (b"\xff\xfe\x00", b'{"query": "\xff"}', b"\xc3\x28"):
        r = httpx.post(server.url, content=content, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (content, r.status_code, r.text)
    healthy(server)


@BOTH
def test_a_negative_after_version_is_read_as_from_the_start(make_server):
    """`log(afterVersion:)` with a negative number: the whole log (as 0 gives), in both live
    stores — not an internal error (a Redis stream id "-4-0")."""
    server = make_server()
    table_id, tokens = new_table(server)
    assert gql(server, ACT, tokens[0], t=table_id, a=TICK)["data"]["act"]["__typename"] == "ActOk"
    for after in (-1, -5):
        body = gql(server, "query($t: String!, $a: Int!) { table(id: $t) { log(afterVersion: $a) { version } } }",
                   t=table_id, a=after)
        assert "errors" not in body, (after, body)
        assert body["data"]["table"]["log"] == [{"version": 1}], (after, body)


@BOTH
def test_a_subscription_after_a_negative_version_does_not_wait_silently_forever(make_server):
    """`tableUpdates(afterVersion: -1)` on a table at version 1: either every entry from the
    start (as 0 gives) or an error; not a subscription that never delivers anything."""
    server = make_server()
    table_id, tokens = new_table(server)
    assert gql(server, ACT, tokens[0], t=table_id, a=TICK)["data"]["act"]["__typename"] == "ActOk"

    async def first_update():
        async with ws(server.ws_url) as session:
            async for u in session.subscribe(GraphQLRequest(
                    "subscription($t: String!) { tableUpdates(tableId: $t, afterVersion: -1) { version } }",
                    variable_values={"t": table_id})):
                return u["tableUpdates"]["version"]

    try:
        first = asyncio.run(asyncio.wait_for(first_update(), timeout=2))
    except asyncio.TimeoutError:
        first = "nothing within 2 s"
    except TransportQueryError as exc:
        first = f"error: {exc}"
    assert first == 1 or str(first).startswith("error:"), f"tableUpdates(afterVersion: -1) gave {first!r}"
